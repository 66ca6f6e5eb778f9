//! A storage as its two columns.

use core::marker::PhantomData;
use std::rc::Rc;

use serde::de::{self, Deserializer, MapAccess, SeqAccess, Visitor};
use serde::ser::Serializer;
use serde::{Deserialize, Serialize};

use crate::entity::Entity;
use crate::storage::Storage;

/// A storage's columns as a snapshot writes them, in packed order, before the entities
/// it shares with the storage written before it are put back (see
/// [`read_columns`](super::read_columns)).
pub(crate) struct WrittenColumns<T> {
    /// How many entities come first that the storage written before it begins with too
    /// (a world's snapshot only, where they are left out of `entities`).
    pub shared: usize,
    /// The entities after the shared ones, in packed order.
    pub entities: Vec<Entity>,
    /// The components of all of them, shared ones first.
    pub components: Vec<T>,
}

/// The fields of a world's storage, and of a storage alone.
const SHARED_FIELDS: &[&str] = &["shared", "entities", "components"];
const FIELDS: &[&str] = &["entities", "components"];

impl<'de, T: Deserialize<'de>> Deserialize<'de> for WrittenColumns<T> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_struct("Storage", SHARED_FIELDS, ColumnsVisitor::new(true))
    }
}

/// The keys of a storage's columns.
#[derive(Deserialize)]
#[serde(field_identifier, rename_all = "lowercase")]
enum Field {
    Shared,
    Entities,
    Components,
}

/// Reads a storage's columns: `shared` (a world's storage only), `entities`, then
/// `components`, at most one per entity. The bound is what keeps a corrupt length from
/// costing time: a format that writes a value of zero size as nothing (postcard, for a
/// tag component) would otherwise read components for as long as the length it
/// announces, up to 2⁶⁴, from no input at all. Entities take input each, so their
/// column is bounded by the snapshot's size.
struct ColumnsVisitor<T> {
    with_shared: bool,
    marker: PhantomData<T>,
}

impl<T> ColumnsVisitor<T> {
    fn new(with_shared: bool) -> Self {
        ColumnsVisitor {
            with_shared,
            marker: PhantomData,
        }
    }
}

impl<'de, T: Deserialize<'de>> Visitor<'de> for ColumnsVisitor<T> {
    type Value = WrittenColumns<T>;

    fn expecting(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str("a storage's columns")
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
        let shared: usize = if self.with_shared {
            seq.next_element()?
                .ok_or_else(|| de::Error::invalid_length(0, &self))?
        } else {
            0
        };
        let entities: Vec<Entity> = seq
            .next_element_seed(Column::unbounded())?
            .ok_or_else(|| de::Error::invalid_length(1, &self))?;
        let components = seq
            .next_element_seed(Column::at_most(shared.saturating_add(entities.len())))?
            .ok_or_else(|| de::Error::invalid_length(2, &self))?;
        Ok(WrittenColumns {
            shared,
            entities,
            components,
        })
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
        let fields = if self.with_shared {
            SHARED_FIELDS
        } else {
            FIELDS
        };
        let (mut shared, mut entities, mut components) = (None, None, None);
        while let Some(key) = map.next_key::<Field>()? {
            match key {
                Field::Shared if !self.with_shared => {
                    return Err(de::Error::unknown_field("shared", fields));
                }
                Field::Shared if shared.is_some() => {
                    return Err(de::Error::duplicate_field("shared"));
                }
                Field::Shared => shared = Some(map.next_value()?),
                Field::Entities if entities.is_some() => {
                    return Err(de::Error::duplicate_field("entities"));
                }
                Field::Entities => {
                    entities = Some(map.next_value_seed(Column::<Entity>::unbounded())?);
                }
                Field::Components if components.is_some() => {
                    return Err(de::Error::duplicate_field("components"));
                }
                Field::Components => {
                    // Bounded once the entities are known (a self-describing format
                    // spends input on every value, so it needs no bound otherwise).
                    let most = entities.as_ref().map_or(usize::MAX, |e: &Vec<Entity>| {
                        shared.unwrap_or(0usize).saturating_add(e.len())
                    });
                    components = Some(map.next_value_seed(Column::at_most(most))?);
                }
            }
        }
        Ok(WrittenColumns {
            shared: shared.unwrap_or(0),
            entities: entities.ok_or_else(|| de::Error::missing_field("entities"))?,
            components: components.ok_or_else(|| de::Error::missing_field("components"))?,
        })
    }
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

/// Reads a column of at most `most` values, reserving the length the format announces in
/// two steps: up to [`FIRST_RESERVE`] bytes before any value arrives, then, once that
/// much has arrived, the rest, up to [`LATER_RESERVE`] bytes more (past that, the column
/// grows as its values arrive). A corrupt length costs nothing beyond what serde's `Vec`
/// reserves, and one above `most` is refused before any value is read; a true one costs
/// one growth where serde's `Vec` doubles (and copies) a million-entity column three
/// times.
struct Column<T> {
    most: usize,
    marker: PhantomData<T>,
}

impl<T> Column<T> {
    fn at_most(most: usize) -> Self {
        Column {
            most,
            marker: PhantomData,
        }
    }

    fn unbounded() -> Self {
        Column::at_most(usize::MAX)
    }
}

impl<'de, T: Deserialize<'de>> de::DeserializeSeed<'de> for Column<T> {
    type Value = Vec<T>;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<Vec<T>, D::Error> {
        deserializer.deserialize_seq(self)
    }
}

impl<'de, T: Deserialize<'de>> Visitor<'de> for Column<T> {
    type Value = Vec<T>;

    fn expecting(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        if self.most == usize::MAX {
            f.write_str("a sequence")
        } else {
            write!(f, "at most {} values, one per entity", self.most)
        }
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Vec<T>, A::Error> {
        let size = size_of::<T>().max(1);
        let announced = seq.size_hint().unwrap_or(0);
        if announced > self.most {
            return Err(de::Error::invalid_length(announced, &self));
        }
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
            if values.len() == self.most {
                return Err(de::Error::invalid_length(values.len() + 1, &self));
            }
            values.push(value);
        }
        Ok(values)
    }
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
        let columns =
            deserializer.deserialize_struct("Storage", FIELDS, ColumnsVisitor::new(false))?;
        lengths_agree(&columns.entities, &columns.components)
            .map_err(|e| de::Error::custom(format_args!("storage: {e}")))?;
        let WrittenColumns {
            entities,
            components,
            ..
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
