//! Snapshots of the run-time [`World`] (feature `serde`): its storages named by their
//! component types, and what `snapshot` and `load` read of the world and rebuild in it.

use core::any::TypeId;
use core::marker::PhantomData;

use serde::de::{Deserialize, MapAccess};
use serde::ser::{self, Serialize, SerializeMap, Serializer};

use super::World;
use crate::change::steps;
use crate::component::Component;
use crate::component::short_name;
use crate::entity::{Entities, Entity};
use crate::group::{self, GroupDecl};
use crate::internals::{Internals, WorldKey};
use crate::resource::Resource;
use crate::snapshot::{
    Columns, LoadStorages, Reading, SharedColumns, WorldWritten, read_columns, read_resource,
    validate_columns,
};
use crate::storage::SparseSet;

/// The types a run-time [`World`]'s snapshot holds: a tuple of up to sixteen items, each
/// a component type (its storage) or `Resource<R>` (the world's resource of type `R`):
/// `(Position, Velocity, Resource<Score>)`. In the snapshot each storage and each resource
/// is named by its type's name without module paths (`Position`, `Score`), so a snapshot
/// loads into a world of types with the same names, wherever they are declared.
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not a tuple of component types to snapshot",
    label = "expected a tuple of component types",
    note = "name the storages of the snapshot as a tuple of up to sixteen component types (and `Resource<R>` for a resource), e.g. `world.snapshot::<(Position, Velocity, Resource<Score>)>()` or, for one type, `world.snapshot::<(Position,)>()`"
)]
pub trait SnapshotTypes: sealed::Sealed {
    /// One slot per item: what a load reads.
    #[doc(hidden)]
    type Slots;
    /// No storage or resource read yet.
    #[doc(hidden)]
    fn empty_slots() -> Self::Slots;
    /// The component types' ids.
    #[doc(hidden)]
    fn type_ids() -> Vec<TypeId>;
    /// The resource types' ids.
    #[doc(hidden)]
    fn resource_ids() -> Vec<TypeId>;
    /// The storages' names, in the tuple's order.
    fn names() -> Vec<String>;
    /// The resources' names, in the tuple's order.
    fn resource_names() -> Vec<String>;
}

/// One item of [`SnapshotTypes`]: a component type `T`, or [`Resource<R>`] for the
/// world's resource of type `R`.
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be part of a snapshot",
    label = "neither a component type nor `Resource<R>`",
    note = "a snapshot of the run-time `World` lists component types and resources as `Resource<R>`, e.g. `world.snapshot::<(Position, Resource<Score>)>()`"
)]
pub trait SnapshotItem: sealed::SealedItem + 'static {
    /// What a load reads: `Option<Columns<T>>`, or `Option<R>`.
    type Slot: Default;
    /// Whether it is a resource.
    #[doc(hidden)]
    const RESOURCE: bool;
    /// The id of its type (`R` for a resource).
    #[doc(hidden)]
    fn type_id() -> TypeId;
    /// Its name in a snapshot: its type's name without module paths.
    #[doc(hidden)]
    fn name() -> String;
    /// Whether `world` holds it: its storage, or the resource.
    #[doc(hidden)]
    fn present(world: &World) -> bool;
}

/// An item whose values serialize: a snapshot writes it.
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be written to a snapshot",
    label = "its values do not implement `Serialize`",
    note = "every component type of a snapshot, and `R` of each `Resource<R>`, implements serde's `Serialize`"
)]
pub trait SaveItem: SnapshotItem {
    /// Writes its storage into the storages' map, after the storage whose entities are
    /// `previous` (then its own).
    #[doc(hidden)]
    fn write_storage<'w, M: SerializeMap>(
        world: &'w World,
        map: &mut M,
        previous: &mut &'w [Entity],
    ) -> Result<(), M::Error>;
    /// Writes the resource into the resources' map.
    #[doc(hidden)]
    fn write_resource<M: SerializeMap>(world: &World, map: &mut M) -> Result<(), M::Error>;
}

/// An item whose values deserialize from `'de`: a load reads it.
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be read from a snapshot",
    label = "its values do not implement `Deserialize`",
    note = "every component type of a load, and `R` of each `Resource<R>`, implements serde's `Deserialize`"
)]
pub trait LoadItem<'de>: SnapshotItem {
    /// Reads its storage if it is called `name`.
    #[doc(hidden)]
    fn read_storage<A: MapAccess<'de>>(
        name: &str,
        map: &mut A,
        slot: &mut Self::Slot,
        reading: &mut Reading<'_>,
    ) -> Result<bool, A::Error>;
    /// Reads the resource if it is called `name`.
    #[doc(hidden)]
    fn read_resource<A: MapAccess<'de>>(
        name: &str,
        map: &mut A,
        slot: &mut Self::Slot,
    ) -> Result<bool, A::Error>;
    /// Checks what was read against the loaded allocator.
    #[doc(hidden)]
    fn validate(entities: &Entities, slot: &Self::Slot) -> Result<(), String>;
    /// Puts what was read, validated, into `world` (the world's own code only: loading
    /// files entities without the group steps' checks, so it takes the world's key).
    #[doc(hidden)]
    fn insert(world: &mut World, key: &WorldKey, slot: Self::Slot);
}

/// Keeps [`SnapshotTypes`] and [`SnapshotItem`] to this crate: a load fills the world's
/// storages by these types.
mod sealed {
    /// Sealing [`SnapshotTypes`](super::SnapshotTypes).
    #[diagnostic::on_unimplemented(
        message = "`{Self}` cannot be the types of a snapshot: `SnapshotTypes` is sealed",
        label = "`SnapshotTypes` is implemented only by tuples of component types and `Resource<R>`",
        note = "a snapshot of the run-time `World` names its storages and resources by a tuple of up to sixteen component types and `Resource<R>`, e.g. `world.snapshot::<(Position, Velocity, Resource<Score>)>()`"
    )]
    pub trait Sealed {}

    /// Sealing [`SnapshotItem`](super::SnapshotItem).
    #[diagnostic::on_unimplemented(
        message = "`{Self}` cannot be an item of a snapshot: `SnapshotItem` is sealed",
        label = "`SnapshotItem` is implemented only by component types and `Resource<R>`",
        note = "a snapshot of the run-time `World` lists component types and resources as `Resource<R>`, e.g. `world.snapshot::<(Position, Resource<Score>)>()`"
    )]
    pub trait SealedItem {}
}

/// Types whose values deserialize from `'de`: what
/// [`World::load`](crate::World::load) reads a snapshot of. Implemented for every tuple
/// of [`SnapshotTypes`] whose components (and resources) implement `Deserialize<'de>`.
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not a tuple of component types to load",
    label = "expected a tuple of component types",
    note = "name the storages of the snapshot as a tuple of up to sixteen component types that implement `Deserialize` (and `Resource<R>` for a resource), e.g. `world.load::<(Position, Velocity), _>(deserializer)`"
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

/// The name of `T`'s storage, or of a resource of type `T`, in a snapshot of the run-time
/// world: its type's name without module paths.
fn storage_name<T>() -> String {
    short_name(core::any::type_name::<T>())
}

#[diagnostic::do_not_recommend]
impl<T: Component> sealed::SealedItem for T {}

impl<T: Component> SnapshotItem for T {
    type Slot = Option<Columns<T>>;
    #[doc(hidden)]
    const RESOURCE: bool = false;

    #[doc(hidden)]
    fn type_id() -> TypeId {
        TypeId::of::<T>()
    }

    #[doc(hidden)]
    fn name() -> String {
        storage_name::<T>()
    }

    #[doc(hidden)]
    fn present(world: &World) -> bool {
        world.storage::<T>().is_some()
    }
}

impl<T: Component + Serialize> SaveItem for T {
    #[doc(hidden)]
    fn write_storage<'w, M: SerializeMap>(
        world: &'w World,
        map: &mut M,
        previous: &mut &'w [Entity],
    ) -> Result<(), M::Error> {
        if let Some(storage) = world.storage::<T>() {
            map.serialize_entry(&Self::name(), &SharedColumns::new(previous, storage))?;
            *previous = storage.entities();
        }
        Ok(())
    }

    #[doc(hidden)]
    fn write_resource<M: SerializeMap>(_: &World, _: &mut M) -> Result<(), M::Error> {
        Ok(())
    }
}

impl<'de, T: Component + Deserialize<'de>> LoadItem<'de> for T {
    #[doc(hidden)]
    fn read_storage<A: MapAccess<'de>>(
        name: &str,
        map: &mut A,
        slot: &mut Self::Slot,
        reading: &mut Reading<'_>,
    ) -> Result<bool, A::Error> {
        let own = Self::name();
        if name != own {
            return Ok(false);
        }
        read_columns(map, &own, slot, reading)
    }

    #[doc(hidden)]
    fn read_resource<A: MapAccess<'de>>(
        _: &str,
        _: &mut A,
        _: &mut Self::Slot,
    ) -> Result<bool, A::Error> {
        Ok(false)
    }

    #[doc(hidden)]
    fn validate(entities: &Entities, slot: &Self::Slot) -> Result<(), String> {
        match slot {
            Some(columns) => validate_columns(entities, &Self::name(), columns),
            None => Ok(()),
        }
    }

    #[doc(hidden)]
    fn insert(world: &mut World, _: &WorldKey, slot: Self::Slot) {
        if let Some(columns) = slot {
            world.append_loaded::<T>(&columns.entities, columns.components);
        }
    }
}

#[diagnostic::do_not_recommend]
impl<R: Send + Sync + 'static> sealed::SealedItem for Resource<R> {}

impl<R: Send + Sync + 'static> SnapshotItem for Resource<R> {
    type Slot = Option<R>;
    #[doc(hidden)]
    const RESOURCE: bool = true;

    #[doc(hidden)]
    fn type_id() -> TypeId {
        TypeId::of::<R>()
    }

    #[doc(hidden)]
    fn name() -> String {
        storage_name::<R>()
    }

    #[doc(hidden)]
    fn present(world: &World) -> bool {
        world.contains_resource::<R>()
    }
}

impl<R: Send + Sync + Serialize + 'static> SaveItem for Resource<R> {
    #[doc(hidden)]
    fn write_storage<'w, M: SerializeMap>(
        _: &'w World,
        _: &mut M,
        _: &mut &'w [Entity],
    ) -> Result<(), M::Error> {
        Ok(())
    }

    #[doc(hidden)]
    fn write_resource<M: SerializeMap>(world: &World, map: &mut M) -> Result<(), M::Error> {
        match world.resource::<R>() {
            Ok(value) => map.serialize_entry(&Self::name(), value),
            Err(_) => Ok(()),
        }
    }
}

impl<'de, R: Send + Sync + Deserialize<'de> + 'static> LoadItem<'de> for Resource<R> {
    #[doc(hidden)]
    fn read_storage<A: MapAccess<'de>>(
        _: &str,
        _: &mut A,
        _: &mut Self::Slot,
        _: &mut Reading<'_>,
    ) -> Result<bool, A::Error> {
        Ok(false)
    }

    #[doc(hidden)]
    fn read_resource<A: MapAccess<'de>>(
        name: &str,
        map: &mut A,
        slot: &mut Self::Slot,
    ) -> Result<bool, A::Error> {
        let own = Self::name();
        if name != own {
            return Ok(false);
        }
        read_resource(map, &own, slot)
    }

    #[doc(hidden)]
    fn validate(_: &Entities, _: &Self::Slot) -> Result<(), String> {
        Ok(())
    }

    #[doc(hidden)]
    fn insert(world: &mut World, _: &WorldKey, slot: Self::Slot) {
        if let Some(value) = slot {
            world.insert_resource(value);
        }
    }
}

/// What `World::snapshot` returns: the world, serialized with the storages and resources
/// `T` lists. A `#[world]` deriving `Serialize` and `Deserialize` writes and reads the
/// same format (with all its storages and resources, named by field).
///
/// A world's snapshot keeps everything that makes it the same world:
///
/// ```text
/// { "format": 4294967298,
///   "entities": { "versions": [1, 2, 1], "free": [1], "retired": [] },
///   "storages": { "positions":  { "shared": 0, "entities": [2, 0], "components": [...] },
///                 "velocities": { "shared": 1, "entities": [], "components": [...] } },
///   "groups": [ [[0,1],[2,1]] ],
///   "resources": { "score": 12 } }
/// ```
///
/// * the format, 2³² + 2 (2³² + 1, sparse_groups 0.3's, without resources, is still
///   read): a snapshot of sparse_groups 0.2, which wrote none, is refused (in postcard
///   too, where the first field of such a snapshot is a count of entities, always
///   smaller);
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
///   who is a member; the list only orders them;
/// * each resource's value. A load replaces the world's value of each resource the
///   snapshot holds and keeps the others.
///
/// Loading checks everything before it changes anything, and names what is wrong: a
/// missing or other format, an index of no alive entity in the snapshot's allocator (or
/// an allocator written after the storages), an entity twice in a storage, columns of
/// different lengths, a storage or resource the world does not have or listed twice, an
/// allocator that contradicts itself. Whatever the input, a load returns an error or a world whose
/// [`check`](crate::World::check) passes.
///
/// Serializing fails (with the format's error, nothing written past it) if the world holds
/// components of a type `T` does not list, or a resource `T` does not list as
/// `Resource<R>`, since a load would lose them, or if two types of `T` (two resources)
/// have the same name. A listed type the world holds nothing of is not written.
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

    /// The names of `T`'s storages and resources if they are distinct and cover every
    /// storage holding components and every resource.
    fn names<E: ser::Error>(&self) -> Result<(), E> {
        for (names, kind) in [(T::names(), "storages"), (T::resource_names(), "resources")] {
            for (i, name) in names.iter().enumerate() {
                if names[..i].contains(name) {
                    return Err(E::custom(format_args!(
                        "two {kind} of the snapshot are named `{name}`"
                    )));
                }
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
        let listed = T::resource_ids();
        if let Some((_, name)) = self
            .world
            .resource_types()
            .find(|(id, _)| !listed.contains(id))
        {
            return Err(E::custom(format_args!(
                "the world holds a resource `{name}` the snapshot does not list (list it as `Resource<{name}>`, or remove it before the snapshot)"
            )));
        }
        Ok(())
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

/// What `items` give for the items of one kind (`resource`: resources, else storages), in
/// the tuple's order; each item is paired with whether it is a resource.
fn of_kind<X>(items: impl IntoIterator<Item = (bool, X)>, resource: bool) -> Vec<X> {
    items
        .into_iter()
        .filter_map(|(is_resource, x)| (is_resource == resource).then_some(x))
        .collect()
}

macro_rules! snapshot_types {
    ($(($T:ident, $t:ident, $i:tt)),+) => {
        #[diagnostic::do_not_recommend]
        impl<$($T: SnapshotItem),+> sealed::Sealed for ($($T,)+) {}

        impl<$($T: SnapshotItem),+> SnapshotTypes for ($($T,)+) {
            type Slots = ($($T::Slot,)+);

            fn empty_slots() -> Self::Slots {
                ($($T::Slot::default(),)+)
            }

            fn type_ids() -> Vec<TypeId> {
                of_kind([$(($T::RESOURCE, $T::type_id())),+], false)
            }

            fn resource_ids() -> Vec<TypeId> {
                of_kind([$(($T::RESOURCE, $T::type_id())),+], true)
            }

            fn names() -> Vec<String> {
                of_kind([$(($T::RESOURCE, $T::name())),+], false)
            }

            fn resource_names() -> Vec<String> {
                of_kind([$(($T::RESOURCE, $T::name())),+], true)
            }
        }

        impl<$($T: SaveItem),+> Serialize for Snapshot<'_, ($($T,)+)> {
            fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
                self.names()?;
                let members: Vec<&SparseSet> = self.world.member_sets().collect();
                crate::snapshot::serialize_world(serializer, "World", WorldWritten {
                    entities: self.world.entities(),
                    storages: &StorageMap::<($($T,)+)>::new(self.world),
                    member_sets: &members,
                    resources: &ResourceMap::<($($T,)+)>::new(self.world),
                })
            }
        }

        impl<$($T: SaveItem),+> Serialize for StorageMap<'_, ($($T,)+)> {
            fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
                let world = self.world;
                let count = 0 $(+ usize::from(!$T::RESOURCE && $T::present(world)))+;
                let mut map = serializer.serialize_map(Some(count))?;
                let mut previous: &[Entity] = &[];
                $($T::write_storage(world, &mut map, &mut previous)?;)+
                map.end()
            }
        }

        impl<$($T: SaveItem),+> Serialize for ResourceMap<'_, ($($T,)+)> {
            fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
                let world = self.world;
                let count = 0 $(+ usize::from($T::RESOURCE && $T::present(world)))+;
                let mut map = serializer.serialize_map(Some(count))?;
                $($T::write_resource(world, &mut map)?;)+
                map.end()
            }
        }

        impl<'de, $($T: LoadItem<'de>),+> LoadTypes<'de> for ($($T,)+) {
            fn load<De: serde::Deserializer<'de>>(world: &mut World, key: &WorldKey, deserializer: De) -> Result<(), De::Error> {
                crate::snapshot::deserialize_world(deserializer, "World", world, key, Loader::<Self>::default())
            }
        }

        impl<'de, $($T: LoadItem<'de>),+> LoadStorages<'de> for Loader<($($T,)+)> {
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

            fn resource_names(&self) -> String {
                <($($T,)+) as SnapshotTypes>::resource_names().join(", ")
            }

            fn read<Access: MapAccess<'de>>(
                &mut self,
                name: &str,
                map: &mut Access,
                reading: &mut Reading<'_>,
            ) -> Result<bool, Access::Error> {
                $(
                    if $T::read_storage(name, map, &mut self.slots.$i, reading)? {
                        return Ok(true);
                    }
                )+
                Ok(false)
            }

            fn read_resource<Access: MapAccess<'de>>(
                &mut self,
                name: &str,
                map: &mut Access,
            ) -> Result<bool, Access::Error> {
                $(
                    if $T::read_resource(name, map, &mut self.slots.$i)? {
                        return Ok(true);
                    }
                )+
                Ok(false)
            }

            fn validate(&self, entities: &Entities) -> Result<(), String> {
                $($T::validate(entities, &self.slots.$i)?;)+
                Ok(())
            }

            fn insert(mut self, world: &mut World, key: &WorldKey) {
                // Storages in the load order (a resource's rank does not matter).
                let ranks = world.load_ranks(&[$($T::type_id()),+]);
                let mut order: Vec<(usize, usize)> = ranks.into_iter().zip([$($i),+]).collect();
                order.sort_unstable();
                for (_, slot) in order {
                    match slot {
                        $(
                            $i => $T::insert(world, key, core::mem::take(&mut self.slots.$i)),
                        )+
                        _ => unreachable!("a slot of the tuple"),
                    }
                }
            }
        }
    };
}

/// A snapshot's storages, as a map from name to columns.
struct StorageMap<'w, T> {
    world: &'w World,
    types: PhantomData<fn() -> T>,
}

impl<'w, T> StorageMap<'w, T> {
    fn new(world: &'w World) -> Self {
        StorageMap {
            world,
            types: PhantomData,
        }
    }
}

/// A snapshot's resources, as a map from name to value.
struct ResourceMap<'w, T> {
    world: &'w World,
    types: PhantomData<fn() -> T>,
}

impl<'w, T> ResourceMap<'w, T> {
    fn new(world: &'w World) -> Self {
        ResourceMap {
            world,
            types: PhantomData,
        }
    }
}

for_each_tuple!(snapshot_types);

impl World {
    /// The stored types: id, name (without module paths) and number of components.
    pub(crate) fn stored_types(&self) -> impl Iterator<Item = (TypeId, String, usize)> + '_ {
        self.by_type.iter().map(|(&id, &s)| {
            let storage = &self.storages[s];
            (
                id,
                crate::component::short_name(storage.type_name()),
                storage.entity_set().len(),
            )
        })
    }

    /// The held resources' types: id and name (without module paths).
    pub(crate) fn resource_types(&self) -> impl Iterator<Item = (TypeId, String)> + '_ {
        self.resources.types()
    }

    /// The member sets of the non-owning groups, in declaration order.
    pub(crate) fn member_sets(&self) -> impl Iterator<Item = &SparseSet> {
        self.groups.iter().filter_map(|g| g.members.as_ref())
    }

    /// The same, to put them in a snapshot's order (crate only: the sets must keep the
    /// group's members).
    pub(crate) fn member_sets_mut(&mut self) -> impl Iterator<Item = &mut SparseSet> {
        self.groups.iter_mut().filter_map(|g| g.members.as_mut())
    }

    /// Appends a snapshot's checked columns of `T` (see [`steps::append_many`]).
    pub(crate) fn append_loaded<T: Component>(&mut self, entities: &[Entity], values: Vec<T>) {
        let index = self.index_or_register::<T>();
        steps::append_many(self.plan::<T>(index), entities, values);
    }

    /// The rank of each of `ids` in the order a snapshot's storages are appended (see
    /// [`load_order`](crate::group::load_order)); types not stored yet come first.
    pub(crate) fn load_ranks(&self, ids: &[TypeId]) -> Vec<usize> {
        let decls: Vec<GroupDecl<usize>> = self
            .groups
            .iter()
            .map(|g| GroupDecl {
                owned: g.owned.clone(),
                observed: g.observed.clone(),
                excluded: g.excluded.clone(),
            })
            .collect();
        let order = group::load_order(self.storages.len(), &decls);
        let rank = |s: usize| 1 + order.iter().position(|&o| o == s).unwrap_or(0);
        ids.iter()
            .map(|id| self.by_type.get(id).map_or(0, |&s| rank(s)))
            .collect()
    }
}
