//! `Entity` as `(index, version)`, and the allocator as its parts.

use serde::de::{self, DeserializeSeed, Deserializer, SeqAccess, Visitor};
use serde::ser::{SerializeTuple, Serializer};
use serde::{Deserialize, Serialize};

use super::storage::Column;
use crate::entity::{Entities, Entity, Slot};

/// An entity is the pair `(index, version)`: `[7, 2]` in JSON.
impl Serialize for Entity {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut pair = serializer.serialize_tuple(2)?;
        pair.serialize_element(&self.index())?;
        pair.serialize_element(&self.version())?;
        pair.end()
    }
}

/// Refuses a zero version and an index above [`Entity::MAX_INDEX`].
impl<'de> Deserialize<'de> for Entity {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Entity, D::Error> {
        deserializer.deserialize_tuple(2, EntityVisitor)
    }
}

struct EntityVisitor;

impl<'de> Visitor<'de> for EntityVisitor {
    type Value = Entity;

    fn expecting(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str("an entity as the pair (index, version)")
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Entity, A::Error> {
        let index: u32 = seq
            .next_element()?
            .ok_or_else(|| de::Error::invalid_length(0, &self))?;
        let version: u32 = seq
            .next_element()?
            .ok_or_else(|| de::Error::invalid_length(1, &self))?;
        Entity::from_raw_parts(index, version).ok_or_else(|| {
            de::Error::custom(format_args!(
                "invalid entity (index {index}, version {version}): versions start at 1 and \
                 indices end at {}",
                Entity::MAX_INDEX
            ))
        })
    }
}

/// The allocator is `{ versions, free, retired }` (see [`Snapshot`](crate::Snapshot)): reserved
/// entities are written as alive.
impl Serialize for Entities {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        self.to_parts().serialize(serializer)
    }
}

/// Refuses an allocator that contradicts itself (a zero version, an index listed twice as
/// free or retired, or beyond the versions, a retired index whose version could grow).
impl<'de> Deserialize<'de> for Entities {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Entities, D::Error> {
        let LoadedParts {
            versions,
            free,
            retired,
        } = LoadedParts::deserialize(deserializer)?;
        Entities::from_parts(versions.0, free, retired)
            .map_err(|e| de::Error::custom(format_args!("entities: {e}")))
    }
}

/// The allocator's parts as written (see `EntitiesParts`), each version read straight into
/// its index's slot: a million-entity allocator is read into the memory it keeps, with no
/// list of versions beside it.
#[derive(Deserialize)]
#[serde(rename = "Entities", deny_unknown_fields)]
struct LoadedParts {
    versions: LoadedSlots,
    free: Vec<u32>,
    retired: Vec<u32>,
}

/// The slots of a snapshot's versions ([`Slot::loaded`]).
struct LoadedSlots(Vec<Slot>);

impl<'de> Deserialize<'de> for LoadedSlots {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        Column::unbounded(SlotOfVersion)
            .deserialize(deserializer)
            .map(LoadedSlots)
    }
}

/// Reads a version as its slot ([`Slot::loaded`]).
#[derive(Clone, Copy)]
struct SlotOfVersion;

impl<'de> DeserializeSeed<'de> for SlotOfVersion {
    type Value = Slot;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<Slot, D::Error> {
        u32::deserialize(deserializer).map(Slot::loaded)
    }
}
