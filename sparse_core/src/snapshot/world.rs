//! Snapshots of the run-time [`World`]: its storages named by their component types.

use core::any::TypeId;
use core::marker::PhantomData;

use serde::de::{Deserialize, MapAccess};
use serde::ser::{self, Serialize, SerializeMap, Serializer};

use super::{Columns, LoadStorages, Reading, SharedColumns, read_columns, validate_columns};
use crate::component::Component;
use crate::component::short_name;
use crate::entity::{Entities, Entity};
use crate::internals::{Internals, WorldKey};
use crate::storage::SparseSet;
use crate::world::World;

/// The component types a run-time [`World`]'s snapshot holds: a tuple of up to sixteen
/// types, `(Position, Velocity, Frozen)`. In the snapshot each storage is named by its
/// type's name without module paths (`Position`), so a snapshot loads into a world of
/// types with the same names, wherever they are declared.
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not a tuple of component types to snapshot",
    label = "expected a tuple of component types",
    note = "name the storages of the snapshot as a tuple of up to sixteen component types, e.g. `world.snapshot::<(Position, Velocity)>()` or, for one type, `world.snapshot::<(Position,)>()`"
)]
pub trait SnapshotTypes: sealed::Sealed {
    /// One `Option<Columns<T>>` per type: what a load reads.
    #[doc(hidden)]
    type Slots;
    /// No storage read yet.
    #[doc(hidden)]
    fn empty_slots() -> Self::Slots;
    /// The types' ids.
    #[doc(hidden)]
    fn type_ids() -> Vec<TypeId>;
    /// The storages' names, in the tuple's order.
    fn names() -> Vec<String>;
}

/// Keeps [`SnapshotTypes`] to this crate: a load fills the world's storages by these types.
mod sealed {
    /// Sealing [`SnapshotTypes`](super::SnapshotTypes).
    #[diagnostic::on_unimplemented(
        message = "`{Self}` cannot be the types of a snapshot: `SnapshotTypes` is sealed",
        label = "`SnapshotTypes` is implemented only by tuples of components",
        note = "a snapshot of the run-time `World` names its storages by a tuple of up to sixteen component types, e.g. `world.snapshot::<(Position, Velocity)>()`"
    )]
    pub trait Sealed {}
}

/// Component types whose values deserialize from `'de`: what
/// [`World::load`](crate::World::load) reads a snapshot of. Implemented for every tuple
/// of [`SnapshotTypes`] whose components implement `Deserialize<'de>`.
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not a tuple of component types to load",
    label = "expected a tuple of component types",
    note = "name the storages of the snapshot as a tuple of up to sixteen component types that implement `Deserialize`, e.g. `world.load::<(Position, Velocity), _>(deserializer)`"
)]
pub trait LoadTypes<'de>: SnapshotTypes {
    /// Reads a snapshot of these types into `world` (see [`World::load`]).
    ///
    /// # Errors
    /// The format's error, or what is wrong with the snapshot.
    #[doc(hidden)]
    fn load<D: serde::Deserializer<'de>>(
        world: &mut World,
        key: &WorldKey,
        deserializer: D,
    ) -> Result<(), D::Error>;
}

/// The name of `T`'s storage in a snapshot of the run-time world: its type's name without
/// module paths.
fn storage_name<T>() -> String {
    short_name(core::any::type_name::<T>())
}

/// What `World::snapshot` returns: the world, serialized with the storages of `T`. A
/// `#[world]` deriving `Serialize` and `Deserialize` writes and reads the same format.
///
/// A world's snapshot keeps everything that makes it the same world:
///
/// ```text
/// { "format": 4294967297,
///   "entities": { "versions": [1, 2, 1], "free": [1], "retired": [] },
///   "storages": { "positions":  { "shared": 0, "entities": [2, 0], "components": [...] },
///                 "velocities": { "shared": 1, "entities": [], "components": [...] } },
///   "groups": [ [[0,1],[2,1]] ] }
/// ```
///
/// * the format, 2³² + 1: a snapshot of sparse_groups 0.2, which wrote none, is refused
///   (in postcard too, where the first field of such a snapshot is a count of entities,
///   always smaller);
/// * the allocator: every index's version, the free list in the order `spawn` takes it,
///   and the retired indices, so that entity ids are the same after a load and the next
///   spawn gives the handle it would have given (reserved entities are saved as alive);
/// * each storage as its two columns, entities and components, in their packed order, so
///   a group's members come first, in group order. Its entities are written by index:
///   they are alive, so the allocator, written before the storages, holds their versions.
///   The entities a storage begins with that the storage written before it begins with
///   too are counted (`shared`), not written: a group's members are written once,
///   whatever the number of types it owns (so is any run of entities storages were filled
///   with in one order). Loading appends each storage in bulk; the groups are entered as a
///   batch insertion enters them, finding runs already in place rather than moving entity
///   by entity;
/// * the members of each non-owning group (a set of its own, not a storage's prefix), in
///   their order, one list per non-owning group in declaration order. The storages decide
///   who is a member; the list only orders them.
///
/// Loading checks everything before it changes anything, and names what is wrong: a
/// missing or other format, an index of no alive entity in the snapshot's allocator (or
/// an allocator written after the storages), an entity twice in a storage, columns of
/// different lengths, a storage the world does not have or listed twice, an allocator that
/// contradicts itself. Whatever the input, a load returns an error or a world whose
/// [`check`](crate::World::check) passes.
///
/// Serializing fails (with the format's error, nothing written past it) if the world holds
/// components of a type `T` does not list, since a load would lose them, or if two types
/// of `T` have the same name.
pub struct Snapshot<'w, T> {
    world: &'w World,
    types: PhantomData<fn() -> T>,
}

impl<'w, T: SnapshotTypes> Snapshot<'w, T> {
    pub(crate) fn new(world: &'w World) -> Self {
        Snapshot {
            world,
            types: PhantomData,
        }
    }

    /// The names of `T` if they are distinct and cover every storage holding components.
    fn names<E: ser::Error>(&self) -> Result<Vec<String>, E> {
        let names = T::names();
        for (i, name) in names.iter().enumerate() {
            if names[..i].contains(name) {
                return Err(E::custom(format_args!(
                    "two storages of the snapshot are named `{name}`"
                )));
            }
        }
        let listed = T::type_ids();
        if let Some((name, len)) = self
            .world
            .stored_types()
            .find(|&(id, _, len)| len > 0 && !listed.contains(&id))
            .map(|(_, name, len)| (name, len))
        {
            return Err(E::custom(format_args!(
                "the world holds {len} components of `{name}`, a type the snapshot does not list"
            )));
        }
        Ok(names)
    }
}

/// The world's loader for the types `T` (see [`World::load`]).
pub struct Loader<T: SnapshotTypes> {
    slots: T::Slots,
}

impl<T: SnapshotTypes> Default for Loader<T> {
    fn default() -> Self {
        Loader {
            slots: T::empty_slots(),
        }
    }
}

macro_rules! snapshot_types {
    ($(($T:ident, $t:ident, $i:tt)),+) => {
        #[diagnostic::do_not_recommend]
        impl<$($T: Component),+> sealed::Sealed for ($($T,)+) {}

        impl<$($T: Component),+> SnapshotTypes for ($($T,)+) {
            type Slots = ($(Option<Columns<$T>>,)+);

            fn empty_slots() -> Self::Slots {
                ($(None::<Columns<$T>>,)+)
            }

            fn type_ids() -> Vec<TypeId> {
                vec![$(TypeId::of::<$T>()),+]
            }

            fn names() -> Vec<String> {
                vec![$(storage_name::<$T>()),+]
            }
        }

        impl<$($T: Component + Serialize),+> Serialize for Snapshot<'_, ($($T,)+)> {
            fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
                let names = self.names()?;
                let members: Vec<&SparseSet> = self.world.member_sets().collect();
                super::serialize_world(serializer, "World", self.world.entities(), &StorageMap {
                    snapshot: self,
                    names: &names,
                }, &members)
            }
        }

        impl<$($T: Component + Serialize),+> Serialize for StorageMap<'_, '_, ($($T,)+)> {
            fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
                let world = self.snapshot.world;
                let count = 0 $(+ usize::from(world.storage::<$T>().is_some()))+;
                let mut map = serializer.serialize_map(Some(count))?;
                let mut previous: &[Entity] = &[];
                $(
                    if let Some(storage) = world.storage::<$T>() {
                        map.serialize_entry(&self.names[$i], &SharedColumns::new(previous, storage))?;
                        previous = storage.entities();
                    }
                )+
                let _ = previous;
                map.end()
            }
        }

        impl<'de, $($T: Component + Deserialize<'de>),+> LoadTypes<'de> for ($($T,)+) {
            fn load<De: serde::Deserializer<'de>>(world: &mut World, key: &WorldKey, deserializer: De) -> Result<(), De::Error> {
                super::deserialize_world(deserializer, "World", world, key, Loader::<Self>::default())
            }
        }

        impl<'de, $($T: Component + Deserialize<'de>),+> LoadStorages<'de> for Loader<($($T,)+)> {
            type World = World;
            type Key = WorldKey;

            fn entities<'w>(world: &'w mut World, key: &WorldKey) -> &'w mut Entities {
                world.entities_mut(key)
            }

            fn member_sets<'w>(world: &'w mut World, _: &WorldKey) -> Vec<&'w mut SparseSet> {
                world.member_sets_mut().collect()
            }

            fn names(&self) -> String {
                <($($T,)+) as SnapshotTypes>::names().join(", ")
            }

            fn read<Access: MapAccess<'de>>(
                &mut self,
                name: &str,
                map: &mut Access,
                reading: &mut Reading<'_>,
            ) -> Result<bool, Access::Error> {
                $(
                    let own = storage_name::<$T>();
                    if name == own {
                        return read_columns(map, &own, &mut self.slots.$i, reading);
                    }
                )+
                Ok(false)
            }

            fn validate(&self, entities: &Entities) -> Result<(), String> {
                $(
                    if let Some(columns) = &self.slots.$i {
                        validate_columns(entities, &storage_name::<$T>(), columns)?;
                    }
                )+
                Ok(())
            }

            fn insert(mut self, world: &mut World, _: &WorldKey) {
                let ranks = world.load_ranks(&<($($T,)+) as SnapshotTypes>::type_ids());
                let mut order: Vec<(usize, usize)> = ranks.into_iter().zip([$($i),+]).collect();
                order.sort_unstable();
                for (_, slot) in order {
                    match slot {
                        $(
                            $i => if let Some(columns) = self.slots.$i.take() {
                                world.append_loaded::<$T>(&columns.entities, columns.components);
                            },
                        )+
                        _ => unreachable!("a slot of the tuple"),
                    }
                }
            }
        }
    };
}

/// A snapshot's storages, as a map from name to columns.
struct StorageMap<'a, 'w, T> {
    snapshot: &'a Snapshot<'w, T>,
    names: &'a [String],
}

for_each_tuple!(snapshot_types);
