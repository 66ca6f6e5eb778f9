//! Snapshots with serde (feature `serde`): entities, storages and whole worlds, in any
//! serde format. What a snapshot holds is described on [`Snapshot`]; this module is the
//! plumbing both kinds of world share.

mod entity;
mod storage;
mod world;

use serde::de::{self, DeserializeSeed, Deserializer, MapAccess, SeqAccess, Visitor};
use serde::ser::{SerializeStruct, Serializer};
use serde::{Deserialize, Serialize};

use crate::entity::Entities;
use crate::storage::Marks;
pub use storage::Columns;
pub use world::{LoadTypes, Snapshot, SnapshotTypes};

/// The two fields of a world's snapshot.
const WORLD_FIELDS: &[&str] = &["entities", "storages"];

/// The storages of one kind of world, as a load reads them: generated for each `#[world]`
/// deriving `Deserialize`, and implemented for tuples of component types for the run-time
/// [`World`](crate::World).
pub trait LoadStorages<'de>: Sized {
    /// What they load into.
    type World;
    /// The key of what they load into (see `internals.rs`): loading files entities
    /// without the hooks, which only the world's own code may do.
    type Key;

    /// The allocator of `world`.
    fn entities<'w>(world: &'w mut Self::World, key: &Self::Key) -> &'w mut Entities;

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
    fn insert(self, world: &mut Self::World, key: &Self::Key);
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
    key: &L::Key,
    storages: L,
) -> Result<(), D::Error>
where
    D: Deserializer<'de>,
    L: LoadStorages<'de>,
{
    if L::entities(world, key).index_bound() != 0 {
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
    *L::entities(world, key) = entities;
    storages.insert(world, key);
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
