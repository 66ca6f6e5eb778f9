//! Snapshots with serde (feature `serde`): entities, storages and whole worlds, in any
//! serde format. What a snapshot holds is described on [`Snapshot`](crate::Snapshot) (the
//! run-time world's side is `world/snapshot.rs`); this module is the plumbing both kinds
//! of world share.

mod entity;
mod storage;

use serde::de::{self, DeserializeSeed, Deserializer, MapAccess, SeqAccess, Visitor};
use serde::ser::{SerializeStruct, Serializer};
use serde::{Deserialize, Serialize};

use crate::entity::{Entities, Entity};
use crate::storage::SparseSet;
use storage::WrittenColumns;
pub use storage::{Columns, EntityList, SharedColumns};

/// The fields of a world's snapshot: its format, its allocator, its storages (a map from
/// name to columns), the member order of each non-owning group, in declaration order,
/// and its resources (a map from name to value).
const WORLD_FIELDS: &[&str] = &["format", "entities", "storages", "groups", "resources"];

/// The format a world's snapshot is written in, its first field (in a self-describing
/// format, any field before the storages): 2³² + 2. It is above
/// any count of entities, so a snapshot of sparse_groups 0.2, which begins with its
/// allocator's count and writes storages' entities whole, is refused rather than
/// misread, in a format without field names too (postcard).
pub(crate) const FORMAT: u64 = (1 << 32) + 2;

/// The format of sparse_groups 0.3, which wrote no resources: still read (a world
/// loading it keeps its resources' values).
const FORMAT_WITHOUT_RESOURCES: u64 = (1 << 32) + 1;

/// Refuses a snapshot whose format, `found` (`None`: it has none), is neither [`FORMAT`]
/// nor [`FORMAT_WITHOUT_RESOURCES`]; whether it has resources.
fn check_format<E: de::Error>(found: Option<u64>) -> Result<bool, E> {
    match found {
        Some(FORMAT) => Ok(true),
        Some(FORMAT_WITHOUT_RESOURCES) => Ok(false),
        Some(other) => Err(E::custom(format_args!(
            "this is no snapshot of this version: its format is {other}, this version reads {FORMAT} and {FORMAT_WITHOUT_RESOURCES} (sparse_groups 0.2 wrote snapshots without a format, which this version does not read)"
        ))),
        None => Err(E::custom(format_args!(
            "a snapshot has a `format` ({FORMAT}) before its storages; this one has none (sparse_groups 0.2 wrote snapshots without a format, which this version does not read)"
        ))),
    }
}

/// The storages of one kind of world, as a load reads them: generated for each `#[world]`
/// deriving `Deserialize`, and implemented for tuples of component types for the run-time
/// [`World`](crate::World).
pub trait LoadStorages<'de>: Sized {
    /// What they load into.
    type World;
    /// The key of what they load into (see `internals.rs`): loading files entities
    /// without the group steps, which only the world's own code may do.
    type Key;

    /// The allocator of `world`.
    fn entities<'w>(world: &'w mut Self::World, key: &Self::Key) -> &'w mut Entities;

    /// The member sets of `world`'s non-owning groups, in declaration order (a snapshot
    /// keeps their order: storages keep every other group's).
    fn member_sets<'w>(world: &'w mut Self::World, key: &Self::Key) -> Vec<&'w mut SparseSet>;

    /// Every storage name, separated by commas, for messages.
    fn names(&self) -> String;

    /// Reads the value of the storage called `name` from `map` (with
    /// [`read_columns`], given `reading`).
    ///
    /// # Errors
    /// The format's error; a storage read twice is an error too. `Ok(false)`: no storage
    /// has that name.
    fn read<A: MapAccess<'de>>(
        &mut self,
        name: &str,
        map: &mut A,
        reading: &mut Reading<'_>,
    ) -> Result<bool, A::Error>;

    /// Every resource name, separated by commas, for messages (empty: the world has
    /// none).
    fn resource_names(&self) -> String;

    /// Reads the value of the resource called `name` from `map` (with
    /// [`read_resource`]).
    ///
    /// # Errors
    /// The format's error; a resource read twice is an error too. `Ok(false)`: no
    /// resource has that name.
    fn read_resource<A: MapAccess<'de>>(
        &mut self,
        name: &str,
        map: &mut A,
    ) -> Result<bool, A::Error>;

    /// Checks every storage read against the loaded allocator.
    ///
    /// # Errors
    /// What is wrong, naming the storage and the entity.
    fn validate(&self, entities: &Entities) -> Result<(), String>;

    /// Inserts every storage read into `world` (validated, and whose allocator is the
    /// loaded one), and makes every resource read its value.
    fn insert(self, world: &mut Self::World, key: &Self::Key);
}

/// What reading a world's storages needs: the snapshot's allocator, read before them,
/// which gives each entity written by index its version, and the entities of the storage
/// read last, which the next one may begin with.
pub struct Reading<'a> {
    allocator: &'a Entities,
    previous: EntityList,
}

/// A world's parts as a snapshot writes them.
pub struct WorldWritten<'a, S, R> {
    /// The allocator.
    pub entities: &'a Entities,
    /// A map from storage name to [`Columns`].
    pub storages: &'a S,
    /// The member sets of the non-owning groups, in declaration order.
    pub member_sets: &'a [&'a SparseSet],
    /// A map from resource name to value.
    pub resources: &'a R,
}

/// Writes a world's snapshot: its format, its allocator, then its storages, then the
/// members of its non-owning groups, each in its order, then its resources.
///
/// # Errors
/// The format's error.
pub fn serialize_world<S: Serializer>(
    serializer: S,
    name: &'static str,
    written: WorldWritten<'_, impl Serialize, impl Serialize>,
) -> Result<S::Ok, S::Error> {
    let orders: Vec<&[Entity]> = written
        .member_sets
        .iter()
        .map(|set| set.as_slice())
        .collect();
    let mut world = serializer.serialize_struct(name, WORLD_FIELDS.len())?;
    world.serialize_field(WORLD_FIELDS[0], &FORMAT)?;
    world.serialize_field(WORLD_FIELDS[1], written.entities)?;
    world.serialize_field(WORLD_FIELDS[2], written.storages)?;
    world.serialize_field(WORLD_FIELDS[3], &orders)?;
    world.serialize_field(WORLD_FIELDS[4], written.resources)?;
    world.end()
}

/// Reads a world's snapshot into `world`, which must be empty: no entity was ever spawned
/// in it. The resources the snapshot holds replace the world's; the others keep their
/// values. Nothing is changed unless the whole snapshot is valid.
///
/// # Errors
/// The format's error, or what is wrong with the snapshot (see the module docs).
pub fn deserialize_world<'de, D, L>(
    deserializer: D,
    name: &'static str,
    world: &mut L::World,
    key: &L::Key,
    storages: L,
) -> Result<(), D::Error>
where
    D: Deserializer<'de>,
    L: LoadStorages<'de>,
{
    if !L::entities(world, key).is_unused() {
        return Err(de::Error::custom(
            "a snapshot loads into an empty world, in which no entity was ever spawned or reserved (a handle reserved before the load would name a loaded entity)",
        ));
    }
    let (entities, storages, orders) = deserializer.deserialize_struct(
        name,
        WORLD_FIELDS,
        WorldVisitor {
            storages,
            name,
            marker: core::marker::PhantomData,
        },
    )?;
    storages.validate(&entities).map_err(de::Error::custom)?;
    let groups = L::member_sets(world, key).len();
    if orders.len() > groups {
        return Err(de::Error::custom(format_args!(
            "the snapshot orders {} non-owning groups, this world has {groups}",
            orders.len()
        )));
    }
    for (i, order) in orders.iter().enumerate() {
        validate_entities(&entities, order, 0, "is listed as a member", || {
            format!("non-owning group {i}")
        })
        .map_err(de::Error::custom)?;
    }
    *L::entities(world, key) = entities;
    storages.insert(world, key);
    for (members, order) in L::member_sets(world, key).into_iter().zip(&orders) {
        restore_order(members, order);
    }
    Ok(())
}

/// Puts the members of a non-owning group, just rebuilt from the storages, in the order
/// its snapshot lists them: the listed members first, in that order, then the others as
/// they were. The storages decide who is a member; the list only orders them, so a list
/// naming non-members (a hand-edited snapshot) cannot break the group.
fn restore_order(members: &mut SparseSet, order: &[Entity]) {
    let mut next = 0;
    for &entity in order {
        if let Some(position) = members.index_of(entity)
            && position >= next
        {
            members.swap(next, position);
            next += 1;
        }
    }
}

struct WorldVisitor<'de, L> {
    storages: L,
    name: &'static str,
    marker: core::marker::PhantomData<&'de ()>,
}

impl<'de, L: LoadStorages<'de>> Visitor<'de> for WorldVisitor<'de, L> {
    /// The allocator, the storages read, the non-owning groups' member orders.
    type Value = (Entities, L, Vec<Vec<Entity>>);

    fn expecting(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(
            f,
            "a snapshot of `{}`: its entities, its storages, its groups' order and its resources",
            self.name
        )
    }

    fn visit_seq<A: SeqAccess<'de>>(mut self, mut seq: A) -> Result<Self::Value, A::Error> {
        let has_resources = check_format(seq.next_element::<u64>()?)?;
        let entities: Entities = seq
            .next_element()?
            .ok_or_else(|| de::Error::invalid_length(1, &self))?;
        seq.next_element_seed(StoragesSeed(&mut self.storages, &entities))?
            .ok_or_else(|| de::Error::invalid_length(2, &self))?;
        let orders = seq
            .next_element()?
            .ok_or_else(|| de::Error::invalid_length(3, &self))?;
        if has_resources {
            seq.next_element_seed(ResourcesSeed(&mut self.storages))?
                .ok_or_else(|| de::Error::invalid_length(4, &self))?;
        }
        Ok((entities, self.storages, orders))
    }

    fn visit_map<A: MapAccess<'de>>(mut self, mut map: A) -> Result<Self::Value, A::Error> {
        let mut format = false;
        let mut entities = None;
        let mut storages = false;
        let mut orders = None;
        let mut resources = false;
        // Keys in any order (a map may sort them), except that the format, which says how
        // to read the storages, and the allocator, which gives their entities' versions,
        // come before the storages.
        while let Some(key) = map.next_key::<WorldField>()? {
            match key {
                WorldField::Format if format => return Err(de::Error::duplicate_field("format")),
                WorldField::Format => {
                    check_format(Some(map.next_value::<u64>()?))?;
                    format = true;
                }
                WorldField::Entities if entities.is_some() => {
                    return Err(de::Error::duplicate_field("entities"));
                }
                WorldField::Entities => {
                    entities = Some(map.next_value::<Entities>()?);
                }
                WorldField::Storages if storages => {
                    return Err(de::Error::duplicate_field("storages"));
                }
                WorldField::Storages => {
                    if !format {
                        check_format(None)?;
                    }
                    let Some(allocator) = &entities else {
                        return Err(de::Error::custom(
                            "a snapshot's `entities` come before its `storages`: they give the entities of the storages their versions",
                        ));
                    };
                    map.next_value_seed(StoragesSeed(&mut self.storages, allocator))?;
                    storages = true;
                }
                WorldField::Groups if orders.is_some() => {
                    return Err(de::Error::duplicate_field("groups"));
                }
                WorldField::Groups => {
                    orders = Some(map.next_value::<Vec<Vec<Entity>>>()?);
                }
                WorldField::Resources if resources => {
                    return Err(de::Error::duplicate_field("resources"));
                }
                WorldField::Resources => {
                    map.next_value_seed(ResourcesSeed(&mut self.storages))?;
                    resources = true;
                }
            }
        }
        if !format {
            check_format(None)?;
        }
        let entities = entities.ok_or_else(|| de::Error::missing_field("entities"))?;
        if !storages {
            return Err(de::Error::missing_field("storages"));
        }
        let orders = orders.ok_or_else(|| de::Error::missing_field("groups"))?;
        Ok((entities, self.storages, orders))
    }
}

/// The keys of a world's snapshot.
#[derive(Deserialize)]
#[serde(field_identifier, rename_all = "lowercase")]
enum WorldField {
    Format,
    Entities,
    Storages,
    Groups,
    Resources,
}

/// Reads the map of storages into a [`LoadStorages`], given the snapshot's allocator.
struct StoragesSeed<'a, L>(&'a mut L, &'a Entities);

impl<'de, L: LoadStorages<'de>> DeserializeSeed<'de> for StoragesSeed<'_, L> {
    type Value = ();

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<(), D::Error> {
        deserializer.deserialize_map(self)
    }
}

impl<'de, L: LoadStorages<'de>> Visitor<'de> for StoragesSeed<'_, L> {
    type Value = ();

    fn expecting(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "a map from storage name to its columns")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
        let mut reading = Reading {
            allocator: self.1,
            previous: EntityList::new(Vec::new()),
        };
        while let Some(name) = map.next_key::<std::borrow::Cow<'de, str>>()? {
            if !self.0.read(&name, &mut map, &mut reading)? {
                return Err(de::Error::custom(format_args!(
                    "the snapshot has a storage `{name}` this world does not have (it has {})",
                    self.0.names()
                )));
            }
        }
        Ok(())
    }
}

/// Reads the map of resources into a [`LoadStorages`].
struct ResourcesSeed<'a, L>(&'a mut L);

impl<'de, L: LoadStorages<'de>> DeserializeSeed<'de> for ResourcesSeed<'_, L> {
    type Value = ();

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<(), D::Error> {
        deserializer.deserialize_map(self)
    }
}

impl<'de, L: LoadStorages<'de>> Visitor<'de> for ResourcesSeed<'_, L> {
    type Value = ();

    fn expecting(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "a map from resource name to its value")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
        while let Some(name) = map.next_key::<std::borrow::Cow<'de, str>>()? {
            if !self.0.read_resource(&name, &mut map)? {
                let names = self.0.resource_names();
                let has = if names.is_empty() {
                    String::from("it has none")
                } else {
                    format!("it has {names}")
                };
                return Err(de::Error::custom(format_args!(
                    "the snapshot has a resource `{name}` this world does not have ({has})"
                )));
            }
        }
        Ok(())
    }
}

/// Reads the value of resource `name` into `slot` (see [`LoadStorages::read_resource`]).
///
/// # Errors
/// The format's error, prefixed with the resource's name, or a resource read twice.
pub fn read_resource<'de, A: MapAccess<'de>, R: Deserialize<'de>>(
    map: &mut A,
    name: &str,
    slot: &mut Option<R>,
) -> Result<bool, A::Error> {
    if slot.is_some() {
        return Err(de::Error::custom(format_args!(
            "resource `{name}` is listed twice"
        )));
    }
    let value = map
        .next_value::<R>()
        .map_err(|e| de::Error::custom(format_args!("resource `{name}`: {e}")))?;
    *slot = Some(value);
    Ok(true)
}

/// Reads the columns of storage `name` into `slot` (see [`LoadStorages::read`]): the
/// entities it shares with the storage read before it first, then those written (by
/// index, each given its version by the allocator); they become the entities the next
/// storage may share.
///
/// # Errors
/// The format's error, prefixed with the storage's name, a storage read twice, one
/// sharing more entities than the storage before it has, or an index no alive entity
/// has.
pub fn read_columns<'de, A: MapAccess<'de>, T: Deserialize<'de>>(
    map: &mut A,
    name: &str,
    slot: &mut Option<Columns<T>>,
    reading: &mut Reading<'_>,
) -> Result<bool, A::Error> {
    let Reading {
        allocator,
        previous,
    } = reading;
    if slot.is_some() {
        return Err(de::Error::custom(format_args!(
            "storage `{name}` is listed twice"
        )));
    }
    let WrittenColumns {
        shared,
        entities: written,
        components,
    } = map
        .next_value_seed(WrittenColumns::of_world(allocator, previous.len()))
        .map_err(|e| de::Error::custom(format_args!("storage `{name}`: {e}")))?;
    // A storage writing nothing after the entities it shares holds a prefix of the list
    // before (nested groups' storages: no copy); one writing all its entities holds
    // them as read; only one doing both copies the prefix.
    let entities = if written.is_empty() {
        previous.prefix(shared)
    } else if shared == 0 {
        EntityList::new(written)
    } else {
        let mut entities = Vec::with_capacity(shared + written.len());
        entities.extend_from_slice(&previous[..shared]);
        entities.extend_from_slice(&written);
        EntityList::new(entities)
    };
    *previous = entities.clone();
    *slot = Some(Columns {
        entities,
        components,
    });
    Ok(true)
}

/// Checks a storage's columns against the allocator they load with: equal lengths, none
/// twice (every entity was made alive by [`read_columns`], from the same allocator; a
/// storage holding a prefix of another's list is checked for repeats with that one).
///
/// # Errors
/// What is wrong, naming the storage and the entity.
pub fn validate_columns<T>(
    entities: &Entities,
    name: &str,
    columns: &Columns<T>,
) -> Result<(), String> {
    columns
        .lengths_agree()
        .map_err(|e| format!("storage `{name}`: {e}"))?;
    if columns.entities.is_borrowed() {
        // A prefix of a list another storage holds whole and is checked with: a repeat
        // here is one there, and refuses the load there.
        return Ok(());
    }
    validate_entities(
        entities,
        &columns.entities,
        columns.entities.len(),
        "has a component",
        || format!("storage `{name}`"),
    )
}

/// Checks a list of entities a snapshot holds against its allocator: every one alive,
/// none twice. The first `alive_known` are known alive (a storage's entities are read by
/// index from the allocator), so here they are only counted against repeats. `what` names
/// the list in messages, `role` says what a listed entity is.
fn validate_entities(
    entities: &Entities,
    list: &[Entity],
    alive_known: usize,
    role: &str,
    what: impl Fn() -> String,
) -> Result<(), String> {
    // Indices in increasing order (a storage filled in spawn order, a batch's
    // consecutive indices) repeat none: checked with one compare per entity.
    if alive_known >= list.len() && list.is_sorted_by(|a, b| a.index() < b.index()) {
        return Ok(());
    }
    // One bit an index (a million entities: 128 KiB), in a plain vector: `Marks` would
    // keep its count in memory through the loop.
    let mut seen = vec![0u64; entities.index_bound().div_ceil(64)];
    for (i, &entity) in list.iter().enumerate() {
        if i >= alive_known && !entities.is_alive(entity) {
            return Err(format!(
                "{}: entity {entity:?} {role} but is not alive",
                what()
            ));
        }
        // An index past the bound is of no alive entity.
        let index = entity.index() as usize;
        let Some(word) = seen.get_mut(index / 64) else {
            return Err(format!(
                "{}: entity {entity:?} {role} but is not alive",
                what()
            ));
        };
        let bit = 1 << (index % 64);
        if *word & bit != 0 {
            return Err(format!("{}: entity {entity:?} is listed twice", what()));
        }
        *word |= bit;
    }
    Ok(())
}
