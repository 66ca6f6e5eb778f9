//! A storage as its two columns.

use serde::de::{self, Deserializer};
use serde::ser::Serializer;
use serde::{Deserialize, Serialize};

use crate::entity::Entity;
use crate::storage::Storage;

/// A storage's columns as a snapshot holds them, in packed order: `entities[i]` has
/// `components[i]`. Read, not yet checked: worlds check them against their allocator.
#[derive(Deserialize)]
#[serde(rename = "Storage", deny_unknown_fields)]
pub struct Columns<T> {
    /// How many entities come first that the storage written before it begins with too
    /// (a world's snapshot only, where they are left out of `entities`; resolved by
    /// [`read_columns`](super::read_columns)).
    #[serde(default)]
    pub shared: usize,
    /// The entities, in packed order.
    pub entities: Vec<Entity>,
    /// Their components, in the same order.
    pub components: Vec<T>,
}

impl<T> Columns<T> {
    /// Whether there is one component per entity.
    pub(crate) fn lengths_agree(&self) -> Result<(), String> {
        lengths_agree(&self.entities, &self.components)
    }
}

/// A storage alone, as its two columns (no storage before it to share entities with).
#[derive(Deserialize)]
#[serde(rename = "Storage", deny_unknown_fields)]
struct StorageColumns<T> {
    entities: Vec<Entity>,
    components: Vec<T>,
}

/// Whether there is one component per entity.
fn lengths_agree<T>(entities: &[Entity], components: &[T]) -> Result<(), String> {
    if entities.len() == components.len() {
        return Ok(());
    }
    Err(format!(
        "{} entities but {} components",
        entities.len(),
        components.len()
    ))
}

#[derive(Serialize)]
#[serde(rename = "Storage")]
struct ColumnsRef<'a, T> {
    entities: &'a [Entity],
    components: &'a [T],
}

#[derive(Serialize)]
#[serde(rename = "Storage")]
struct SharedColumnsRef<'a, T> {
    shared: usize,
    entities: &'a [Entity],
    components: &'a [T],
}

/// A storage as a world's snapshot writes it: the entities it begins with that the
/// storage written before it (`previous`) begins with too are counted, not written.
/// The owned storages of a group begin with its members in one order, so a group's
/// members are written once, whatever the number of types it owns; storages filled in the
/// same order (spawned together) share their entities the same way.
pub struct SharedColumns<'a, T> {
    previous: &'a [Entity],
    storage: &'a Storage<T>,
}

impl<'a, T> SharedColumns<'a, T> {
    /// `storage`, written after the storage whose entities are `previous`.
    pub fn new(previous: &'a [Entity], storage: &'a Storage<T>) -> Self {
        SharedColumns { previous, storage }
    }
}

impl<T: Serialize> Serialize for SharedColumns<'_, T> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let entities = self.storage.entities();
        let shared = crate::group::common_prefix(self.previous, entities);
        SharedColumnsRef {
            shared,
            entities: &entities[shared..],
            components: self.storage.components(),
        }
        .serialize(serializer)
    }
}

/// A storage is `{ entities, components }`, both in packed order (groups' members first).
impl<T: Serialize> Serialize for Storage<T> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        ColumnsRef {
            entities: self.entities(),
            components: self.components(),
        }
        .serialize(serializer)
    }
}

/// Keeps the packed order; refuses columns of different lengths and an entity index listed
/// twice. (A storage alone cannot tell a dead entity: a world's load does.)
impl<'de, T: Deserialize<'de>> Deserialize<'de> for Storage<T> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Storage<T>, D::Error> {
        let columns = StorageColumns::deserialize(deserializer)?;
        lengths_agree(&columns.entities, &columns.components)
            .map_err(|e| de::Error::custom(format_args!("storage: {e}")))?;
        let StorageColumns {
            entities,
            components,
        } = columns;
        let mut storage = Storage::with_capacity(entities.len());
        for (entity, component) in entities.into_iter().zip(components) {
            let before = storage.len();
            storage.insert(entity, component);
            if storage.len() == before {
                return Err(de::Error::custom(format_args!(
                    "storage: entity index {} is listed twice",
                    entity.index()
                )));
            }
        }
        Ok(storage)
    }
}
