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
    /// The entities, in packed order.
    pub entities: Vec<Entity>,
    /// Their components, in the same order.
    pub components: Vec<T>,
}

impl<T> Columns<T> {
    /// Whether there is one component per entity.
    pub(crate) fn lengths_agree(&self) -> Result<(), String> {
        if self.entities.len() == self.components.len() {
            return Ok(());
        }
        Err(format!(
            "{} entities but {} components",
            self.entities.len(),
            self.components.len()
        ))
    }
}

#[derive(Serialize)]
#[serde(rename = "Storage")]
struct ColumnsRef<'a, T> {
    entities: &'a [Entity],
    components: &'a [T],
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
        let columns = Columns::deserialize(deserializer)?;
        columns
            .lengths_agree()
            .map_err(|e| de::Error::custom(format_args!("storage: {e}")))?;
        let Columns {
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
