//! A storage as its two columns.

use core::marker::PhantomData;
use std::rc::Rc;

use serde::de::{self, Deserializer, SeqAccess, Visitor};
use serde::ser::Serializer;
use serde::{Deserialize, Serialize};

use crate::entity::Entity;
use crate::storage::Storage;

/// A storage's columns as a snapshot writes them, in packed order, before the entities
/// it shares with the storage written before it are put back (see
/// [`read_columns`](super::read_columns)).
#[derive(Deserialize)]
#[serde(
    rename = "Storage",
    deny_unknown_fields,
    bound(deserialize = "T: Deserialize<'de>")
)]
pub(crate) struct WrittenColumns<T> {
    /// How many entities come first that the storage written before it begins with too
    /// (a world's snapshot only, where they are left out of `entities`).
    #[serde(default)]
    pub shared: usize,
    /// The entities after the shared ones, in packed order.
    #[serde(deserialize_with = "reserved_column")]
    pub entities: Vec<Entity>,
    /// The components of all of them, shared ones first.
    #[serde(deserialize_with = "reserved_column")]
    pub components: Vec<T>,
}

/// A storage's columns as a world's load holds them, read but not yet checked (worlds
/// check them against their allocator): `entities[i]` has `components[i]`. The entity
/// list is shared with the next storage read, which may begin with the same entities.
pub struct Columns<T> {
    /// The entities, in packed order.
    pub entities: Rc<Vec<Entity>>,
    /// How many of them the storage read before it begins with: they are checked alive
    /// with that storage's columns (every storage read is checked, in any order), so this
    /// one's check only counts them against repeats.
    pub shared: usize,
    /// Their components, in the same order.
    pub components: Vec<T>,
}

impl<T> Columns<T> {
    /// Whether there is one component per entity.
    pub(crate) fn lengths_agree(&self) -> Result<(), String> {
        lengths_agree(&self.entities, &self.components)
    }
}

/// What a column reserves before its values arrive, at most: 1 MiB, as serde's `Vec`.
const FIRST_RESERVE: usize = 1 << 20;
/// What a column reserves more once that much has arrived, at most: 64 MiB.
const LATER_RESERVE: usize = 64 << 20;

/// Reads a column, reserving the length the format announces in two steps: up to
/// [`FIRST_RESERVE`] bytes before any value arrives, then, once that much has arrived,
/// the rest, up to [`LATER_RESERVE`] bytes more (past that, the column grows as its
/// values arrive). A corrupt length costs nothing beyond what serde's `Vec` reserves; a
/// true one, one growth where serde's `Vec` doubles (and copies) a million-entity
/// column three times.
fn reserved_column<'de, D: Deserializer<'de>, T: Deserialize<'de>>(
    deserializer: D,
) -> Result<Vec<T>, D::Error> {
    struct ColumnVisitor<T>(PhantomData<T>);
    impl<'de, T: Deserialize<'de>> Visitor<'de> for ColumnVisitor<T> {
        type Value = Vec<T>;

        fn expecting(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
            f.write_str("a sequence")
        }

        fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Vec<T>, A::Error> {
            let size = size_of::<T>().max(1);
            let announced = seq.size_hint().unwrap_or(0);
            let first = announced.min(FIRST_RESERVE / size);
            let mut values = Vec::with_capacity(first);
            while values.len() < first {
                match seq.next_element()? {
                    Some(value) => values.push(value),
                    None => return Ok(values),
                }
            }
            // `first` values arrived: the announced length is worth believing.
            let _ = values.try_reserve_exact((announced - first).min(LATER_RESERVE / size));
            while let Some(value) = seq.next_element()? {
                values.push(value);
            }
            Ok(values)
        }
    }
    deserializer.deserialize_seq(ColumnVisitor(PhantomData))
}

/// A storage alone, as its two columns (no storage before it to share entities with).
#[derive(Deserialize)]
#[serde(
    rename = "Storage",
    deny_unknown_fields,
    bound(deserialize = "T: Deserialize<'de>")
)]
struct StorageColumns<T> {
    #[serde(deserialize_with = "reserved_column")]
    entities: Vec<Entity>,
    #[serde(deserialize_with = "reserved_column")]
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
