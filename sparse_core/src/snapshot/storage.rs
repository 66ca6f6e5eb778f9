//! A storage as its two columns.

use core::marker::PhantomData;
use std::rc::Rc;

use serde::de::{self, DeserializeSeed, Deserializer, MapAccess, SeqAccess, Visitor};
use serde::ser::Serializer;
use serde::{Deserialize, Serialize};

use crate::entity::{Entities, Entity};
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

impl<T> WrittenColumns<T> {
    /// Reads the columns of one of a world's storages, whose entities are written by
    /// index and made alive by `allocator`, the snapshot's, and which may begin with up
    /// to `shareable` entities of the storage read before it (all it has).
    pub(crate) fn of_world(allocator: &Entities, shareable: usize) -> ColumnsVisitor<'_, T> {
        ColumnsVisitor {
            allocator: Some(allocator),
            shareable,
            marker: PhantomData,
        }
    }
}

/// The fields of a world's storage, and of a storage alone.
const SHARED_FIELDS: &[&str] = &["shared", "entities", "components"];
const FIELDS: &[&str] = &["entities", "components"];

/// Reads a storage's columns: `shared` (a world's storage only), `entities`, then
/// `components`, at most one per entity. The bound is what keeps a corrupt length from
/// costing time: a format that writes a value of zero size as nothing (postcard, for a
/// tag component) would otherwise read components for as long as the length it
/// announces, up to 2⁶⁴, from no input at all. Entities take input each, so their
/// column is bounded by the snapshot's size.
///
/// A world's storage (`allocator` given) lists its entities by index: each is alive, so
/// the snapshot's allocator, read before the storages, holds its version. A storage alone
/// lists whole entities.
///
/// `shared` is checked against what the storage before it has as soon as it is read: the
/// components' bound counts it, so an unchecked `shared` of 2⁶⁰ would let a column of tags
/// as long through.
pub(crate) struct ColumnsVisitor<'a, T> {
    allocator: Option<&'a Entities>,
    shareable: usize,
    marker: PhantomData<T>,
}

impl<T> ColumnsVisitor<'_, T> {
    /// `shared`, refused if the storage before has fewer entities.
    fn shared<E: de::Error>(&self, shared: usize) -> Result<usize, E> {
        if shared > self.shareable {
            return Err(E::custom(format_args!(
                "begins with {shared} entities of the storage before it, which has {}",
                self.shareable
            )));
        }
        Ok(shared)
    }

    fn fields(&self) -> &'static [&'static str] {
        if self.allocator.is_some() {
            SHARED_FIELDS
        } else {
            FIELDS
        }
    }
}

impl<'de, T: Deserialize<'de>> DeserializeSeed<'de> for ColumnsVisitor<'_, T> {
    type Value = WrittenColumns<T>;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<Self::Value, D::Error> {
        deserializer.deserialize_struct("Storage", self.fields(), self)
    }
}

impl<'de, T: Deserialize<'de>> Visitor<'de> for ColumnsVisitor<'_, T> {
    type Value = WrittenColumns<T>;

    fn expecting(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str("a storage's columns")
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
        let shared: usize = if self.allocator.is_some() {
            self.shared(
                seq.next_element()?
                    .ok_or_else(|| de::Error::invalid_length(0, &self))?,
            )?
        } else {
            0
        };
        let entities = match self.allocator {
            Some(allocator) => seq.next_element_seed(Column::unbounded(AliveIndex(allocator)))?,
            None => seq.next_element_seed(Column::unbounded(PhantomData))?,
        }
        .ok_or_else(|| de::Error::invalid_length(1, &self))?;
        let most = shared.saturating_add(entities.len());
        let components = seq
            .next_element_seed(Column::at_most(most, PhantomData))?
            .ok_or_else(|| de::Error::invalid_length(2, &self))?;
        Ok(WrittenColumns {
            shared,
            entities,
            components,
        })
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
        let fields = self.fields();
        // A storage alone has no `shared`: none of its entities are left out.
        let mut shared: Option<usize> = if self.allocator.is_some() {
            None
        } else {
            Some(0)
        };
        let (mut entities, mut components) = (None, None);
        while let Some(key) = map.next_key_seed(FieldSeed(fields))? {
            match key {
                Field::Shared if shared.is_some() => {
                    return Err(de::Error::duplicate_field("shared"));
                }
                Field::Shared => shared = Some(self.shared(map.next_value()?)?),
                Field::Entities if entities.is_some() => {
                    return Err(de::Error::duplicate_field("entities"));
                }
                Field::Entities => {
                    entities = Some(match self.allocator {
                        Some(allocator) => {
                            map.next_value_seed(Column::unbounded(AliveIndex(allocator)))?
                        }
                        None => map.next_value_seed(Column::unbounded(PhantomData))?,
                    });
                }
                Field::Components if components.is_some() => {
                    return Err(de::Error::duplicate_field("components"));
                }
                Field::Components => {
                    // Bounded once `shared` and the entities are known (a self-describing
                    // format spends input on every value, so it needs no bound otherwise;
                    // the lengths are compared after the read).
                    let most = match (shared, &entities) {
                        (Some(shared), Some(entities)) => shared.saturating_add(entities.len()),
                        _ => usize::MAX,
                    };
                    components = Some(map.next_value_seed(Column::at_most(most, PhantomData))?);
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

/// The keys of a storage's columns.
enum Field {
    Shared,
    Entities,
    Components,
}

/// Reads a key of a storage's columns, refusing one that is not among `.0` (so a storage
/// alone refuses `shared`, and a message lists the keys this kind of storage has).
struct FieldSeed(&'static [&'static str]);

impl<'de> DeserializeSeed<'de> for FieldSeed {
    type Value = Field;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<Field, D::Error> {
        deserializer.deserialize_identifier(self)
    }
}

impl Visitor<'_> for FieldSeed {
    type Value = Field;

    fn expecting(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str("a storage's field")
    }

    /// A format writing a struct's keys as their positions (in `.0`).
    fn visit_u64<E: de::Error>(self, position: u64) -> Result<Field, E> {
        let key = usize::try_from(position)
            .ok()
            .and_then(|position| self.0.get(position))
            .ok_or_else(|| {
                E::invalid_value(de::Unexpected::Unsigned(position), &"a field's position")
            })?;
        self.visit_str(key)
    }

    fn visit_bytes<E: de::Error>(self, key: &[u8]) -> Result<Field, E> {
        match core::str::from_utf8(key) {
            Ok(key) => self.visit_str(key),
            Err(_) => Err(E::invalid_value(de::Unexpected::Bytes(key), &self)),
        }
    }

    fn visit_str<E: de::Error>(self, key: &str) -> Result<Field, E> {
        let field = match key {
            "shared" => Field::Shared,
            "entities" => Field::Entities,
            "components" => Field::Components,
            _ => return Err(E::unknown_field(key, self.0)),
        };
        if self.0.contains(&key) {
            Ok(field)
        } else {
            Err(E::unknown_field(key, self.0))
        }
    }
}

/// Reads one entity of a world's storage column, written as its index: the snapshot's
/// allocator gives it its version, or refuses an index no alive entity has.
#[derive(Clone, Copy)]
struct AliveIndex<'a>(&'a Entities);

impl<'de> DeserializeSeed<'de> for AliveIndex<'_> {
    type Value = Entity;

    #[inline]
    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<Entity, D::Error> {
        let index = u32::deserialize(deserializer)?;
        self.0.alive_at(index).ok_or_else(|| {
            de::Error::custom(format_args!(
                "entity index {index} has a component but no alive entity"
            ))
        })
    }
}

/// A storage's columns as a world's load holds them, read but not yet checked for
/// repeats and lengths (every entity is alive: a world's storage lists its entities by
/// index, each given its version by the snapshot's allocator): `entities[i]` has
/// `components[i]`.
pub struct Columns<T> {
    /// The entities, in packed order.
    pub entities: EntityList,
    /// Their components, in the same order.
    pub components: Vec<T>,
}

impl<T> Columns<T> {
    /// Whether there is one component per entity.
    pub(crate) fn lengths_agree(&self) -> Result<(), String> {
        lengths_agree(&self.entities, &self.components)
    }
}

/// The entities of a storage read from a snapshot: the first `len` of a list it may
/// share with the storages read before and after it.
///
/// ```text
/// written list:  [e4 e9 e2 e7 e5 e1]   (read once, for the storage that wrote it)
/// storage A:      ^^^^^^^^^^^^^^^^^     len 6
/// storage B:      ^^^^^^^^^^^           len 4  (`shared: 4`, nothing written)
/// storage C:      ^^^^^^                len 2  (`shared: 2`, nothing written)
/// ```
///
/// Storages filled in one order (a group's owned storages, nested groups' too) write
/// their entities once, and a load holds them once: no storage's list is copied unless it
/// writes entities of its own after a shared prefix.
#[derive(Clone)]
pub struct EntityList {
    all: Rc<Vec<Entity>>,
    len: usize,
    /// Made by [`prefix`](Self::prefix): the list is held whole by another storage.
    borrowed: bool,
}

impl EntityList {
    /// `entities`, whole.
    pub(crate) fn new(entities: Vec<Entity>) -> Self {
        EntityList {
            len: entities.len(),
            all: Rc::new(entities),
            borrowed: false,
        }
    }

    /// The first `len` of these entities, sharing their memory.
    ///
    /// # Panics
    /// Panics if there are fewer than `len`.
    pub(crate) fn prefix(&self, len: usize) -> Self {
        assert!(len <= self.len, "a prefix of the list");
        EntityList {
            all: Rc::clone(&self.all),
            len,
            borrowed: true,
        }
    }

    /// Whether these entities are a prefix of a list made by [`new`](Self::new) for
    /// another storage, which holds it whole: a storage read before this one (a load
    /// checks every storage it reads, so that one is checked too).
    pub(crate) fn is_borrowed(&self) -> bool {
        self.borrowed
    }
}

impl core::ops::Deref for EntityList {
    type Target = [Entity];

    fn deref(&self) -> &[Entity] {
        &self.all[..self.len]
    }
}

/// What a column reserves before its values arrive, at most: 1 MiB, as serde's `Vec`.
const FIRST_RESERVE: usize = 1 << 20;
/// What a column reserves more once that much has arrived, at most: 64 MiB.
const LATER_RESERVE: usize = 64 << 20;

/// Reads a column of at most `most` values, each with `element` (a copyable seed),
/// reserving the length the format announces in two steps: up to [`FIRST_RESERVE`] bytes
/// before any value arrives, then, once that much has arrived, the rest, up to
/// [`LATER_RESERVE`] bytes more (past that, the column grows as its values arrive). A
/// corrupt length costs nothing beyond what serde's `Vec` reserves, and one above `most`
/// is refused before any value is read; a true one costs one growth where serde's `Vec`
/// doubles (and copies) a million-entity column three times.
pub(super) struct Column<S> {
    most: usize,
    element: S,
}

impl<S> Column<S> {
    fn at_most(most: usize, element: S) -> Self {
        Column { most, element }
    }

    pub(super) fn unbounded(element: S) -> Self {
        Column::at_most(usize::MAX, element)
    }
}

impl<'de, S: DeserializeSeed<'de> + Copy> DeserializeSeed<'de> for Column<S> {
    type Value = Vec<S::Value>;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<Self::Value, D::Error> {
        deserializer.deserialize_seq(self)
    }
}

impl<'de, S: DeserializeSeed<'de> + Copy> Visitor<'de> for Column<S> {
    type Value = Vec<S::Value>;

    fn expecting(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        if self.most == usize::MAX {
            f.write_str("a sequence")
        } else {
            write!(f, "at most {} values, one per entity", self.most)
        }
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
        let size = size_of::<S::Value>().max(1);
        let announced = seq.size_hint().unwrap_or(0);
        if announced > self.most {
            return Err(de::Error::invalid_length(announced, &self));
        }
        let first = announced.min(FIRST_RESERVE / size);
        let mut values = Vec::with_capacity(first);
        while values.len() < first {
            match seq.next_element_seed(self.element)? {
                Some(value) => values.push(value),
                None => return Ok(values),
            }
        }
        // `first` values arrived: the announced length is worth believing.
        let _ = values.try_reserve_exact((announced - first).min(LATER_RESERVE / size));
        while let Some(value) = seq.next_element_seed(self.element)? {
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
    entities: Indices<'a>,
    components: &'a [T],
}

/// The entities of a world's storage column, written as their indices: they are alive,
/// so the snapshot's allocator, written before the storages, holds their versions.
struct Indices<'a>(&'a [Entity]);

impl Serialize for Indices<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_seq(self.0.iter().map(|entity| entity.index()))
    }
}

/// A storage as a world's snapshot writes it: the entities it begins with that the
/// storage written before it (`previous`) begins with too are counted, not written, and
/// the others by index.
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
            entities: Indices(&entities[shared..]),
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
        let columns = ColumnsVisitor {
            allocator: None,
            shareable: 0,
            marker: PhantomData,
        }
        .deserialize(deserializer)?;
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
