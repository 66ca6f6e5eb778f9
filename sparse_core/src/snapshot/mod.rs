//! Snapshots with serde (feature `serde`): entities, storages and whole worlds, in any
//! serde format.
//!
//! A world's snapshot keeps everything that makes it the same world:
//!
//! ```text
//! { "entities": { "versions": [1, 2, 1], "free": [1], "retired": [] },
//!   "storages": { "positions":  { "entities": [[2,1],[0,1]], "components": [...] },
//!                 "velocities": { "entities": [[2,1]],       "components": [...] } } }
//! ```
//!
//! * the allocator: every index's version, the free list in the order `spawn` takes it,
//!   and the retired indices, so that entity ids are the same after a load and the next
//!   spawn gives the handle it would have given (reserved entities are saved as alive);
//! * each storage as its two columns, entities and components, in their packed order, so
//!   a group's members come first, in group order. Loading appends each storage in bulk;
//!   the groups are entered as a batch insertion enters them, finding runs already in
//!   place rather than moving entity by entity.
//!
//! Loading checks everything before it changes anything, and names what is wrong: an
//! entity that is not alive in the snapshot's allocator, an entity twice in a storage,
//! columns of different lengths, a storage the world does not have or listed twice, an
//! allocator that contradicts itself. Whatever the input, a load returns an error or a
//! world whose [`check`](crate::World::check) passes.

mod entity;
mod storage;
mod world;

use serde::de::{self, DeserializeSeed, Deserializer, MapAccess, SeqAccess, Visitor};
use serde::ser::{SerializeStruct, Serializer};
use serde::{Deserialize, Serialize};

use crate::entity::Entities;
use crate::storage::Marks;
pub use storage::Columns;
pub use world::{Loader, Snapshot, SnapshotTypes};

/// The two fields of a world's snapshot.
const WORLD_FIELDS: &[&str] = &["entities", "storages"];

/// The storages of one kind of world, as a load reads them: generated for each `#[world]`
/// deriving `Deserialize`, and implemented for tuples of component types for the run-time
/// [`World`](crate::World).
pub trait LoadStorages<'de>: Sized {
    /// What they load into.
    type World;

    /// The allocator of `world`.
    fn entities(world: &mut Self::World) -> &mut Entities;

    /// Every storage name, separated by commas, for messages.
    fn names(&self) -> String;

    /// Reads the value of the storage called `name` from `map`.
    ///
    /// # Errors
    /// The format's error; a storage read twice is an error too. `Ok(false)`: no storage
    /// has that name.
    fn read<A: MapAccess<'de>>(&mut self, name: &str, map: &mut A) -> Result<bool, A::Error>;

    /// Checks every storage read against the loaded allocator.
    ///
    /// # Errors
    /// What is wrong, naming the storage and the entity.
    fn validate(&self, entities: &Entities) -> Result<(), String>;

    /// Inserts every storage read into `world` (validated, and whose allocator is the
    /// loaded one).
    fn insert(self, world: &mut Self::World);
}

/// Writes a world's snapshot: its allocator, then `storages` (a map from name to
/// [`Columns`]).
///
/// # Errors
/// The format's error.
pub fn serialize_world<S: Serializer>(
    serializer: S,
    name: &'static str,
    entities: &Entities,
    storages: &impl Serialize,
) -> Result<S::Ok, S::Error> {
    let mut world = serializer.serialize_struct(name, WORLD_FIELDS.len())?;
    world.serialize_field(WORLD_FIELDS[0], entities)?;
    world.serialize_field(WORLD_FIELDS[1], storages)?;
    world.end()
}

/// Reads a world's snapshot into `world`, which must be empty: no entity was ever spawned
/// in it. Nothing is changed unless the whole snapshot is valid.
///
/// # Errors
/// The format's error, or what is wrong with the snapshot (see the module docs).
pub fn deserialize_world<'de, D, L>(
    deserializer: D,
    name: &'static str,
    world: &mut L::World,
    storages: L,
) -> Result<(), D::Error>
where
    D: Deserializer<'de>,
    L: LoadStorages<'de>,
{
    if L::entities(world).index_bound() != 0 {
        return Err(de::Error::custom(
            "a snapshot loads into an empty world, in which no entity was ever spawned",
        ));
    }
    let (entities, storages) = deserializer.deserialize_struct(
        name,
        WORLD_FIELDS,
        WorldVisitor {
            storages,
            name,
            marker: core::marker::PhantomData,
        },
    )?;
    storages.validate(&entities).map_err(de::Error::custom)?;
    *L::entities(world) = entities;
    storages.insert(world);
    Ok(())
}

struct WorldVisitor<'de, L> {
    storages: L,
    name: &'static str,
    marker: core::marker::PhantomData<&'de ()>,
}

impl<'de, L: LoadStorages<'de>> Visitor<'de> for WorldVisitor<'de, L> {
    type Value = (Entities, L);

    fn expecting(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(
            f,
            "a snapshot of `{}`: its entities and its storages",
            self.name
        )
    }

    fn visit_seq<A: SeqAccess<'de>>(mut self, mut seq: A) -> Result<Self::Value, A::Error> {
        let entities: Entities = seq
            .next_element()?
            .ok_or_else(|| de::Error::invalid_length(0, &self))?;
        seq.next_element_seed(StoragesSeed(&mut self.storages))?
            .ok_or_else(|| de::Error::invalid_length(1, &self))?;
        Ok((entities, self.storages))
    }

    fn visit_map<A: MapAccess<'de>>(mut self, mut map: A) -> Result<Self::Value, A::Error> {
        let mut entities = None;
        let mut storages = false;
        while let Some(key) = map.next_key::<WorldField>()? {
            match key {
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
                    map.next_value_seed(StoragesSeed(&mut self.storages))?;
                    storages = true;
                }
            }
        }
        let entities = entities.ok_or_else(|| de::Error::missing_field("entities"))?;
        Ok((entities, self.storages))
    }
}

/// The keys of a world's snapshot.
#[derive(Deserialize)]
#[serde(field_identifier, rename_all = "lowercase")]
enum WorldField {
    Entities,
    Storages,
}

/// Reads the map of storages into a [`LoadStorages`].
struct StoragesSeed<'a, L>(&'a mut L);

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
        while let Some(name) = map.next_key::<std::borrow::Cow<'de, str>>()? {
            if !self.0.read(&name, &mut map)? {
                return Err(de::Error::custom(format_args!(
                    "the snapshot has a storage `{name}` this world does not have (it has {})",
                    self.0.names()
                )));
            }
        }
        Ok(())
    }
}

/// Reads the columns of storage `name` into `slot` (see [`LoadStorages::read`]).
///
/// # Errors
/// The format's error, prefixed with the storage's name, or a storage read twice.
pub fn read_columns<'de, A: MapAccess<'de>, T: Deserialize<'de>>(
    map: &mut A,
    name: &str,
    slot: &mut Option<Columns<T>>,
) -> Result<bool, A::Error> {
    if slot.is_some() {
        return Err(de::Error::custom(format_args!(
            "storage `{name}` is listed twice"
        )));
    }
    let columns = map
        .next_value::<Columns<T>>()
        .map_err(|e| de::Error::custom(format_args!("storage `{name}`: {e}")))?;
    *slot = Some(columns);
    Ok(true)
}

/// Checks a storage's columns against the allocator they load with: equal lengths, every
/// entity alive, none twice.
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
    let mut seen = Marks::with_indices(entities.index_bound());
    for &entity in &columns.entities {
        if !entities.is_alive(entity) {
            return Err(format!(
                "storage `{name}`: entity {entity:?} has a component but is not alive"
            ));
        }
        if !seen.mark(entity) {
            return Err(format!(
                "storage `{name}`: entity {entity:?} is listed twice"
            ));
        }
    }
    Ok(())
}
