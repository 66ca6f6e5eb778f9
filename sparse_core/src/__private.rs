//! What the code `#[world]` generates calls. Not a public API: nothing here is covered by
//! semver. `#[doc(hidden)]` is not a safety boundary, so everything here is sound to call
//! from safe code with any arguments, and nothing here reaches into a world: what changes
//! a world's structure needs the world's key (see `internals.rs`), which only the world's
//! own generated code holds.

use crate::access::ValuesMut;
pub use crate::access::{FilterOf, LendGroup, QueryOf};
pub use crate::change::steps::{
    ComponentPlan, EntityPlan, WorldInfo, append_many, check_world, clear, destroy, destroy_many,
    insert, insert_many, remove, remove_many,
};
use crate::component::Component;
pub use crate::component_set::ComponentSet;
use crate::component_set::sealed::Sealed as _;
use crate::entity::Entity;
use crate::group::GroupKey;
pub use crate::group::Types;
pub use crate::group::{
    Aligned, GroupInfo, GroupMut, GroupRef, OwnedStorages, PositionHint, apply_sources,
    check_group, enter, enter_each, enter_set, group_sources, leave, leave_many, leave_set,
    load_order, sort_members,
};
pub use crate::group::{GroupOrder, StorageOrder};
pub use crate::internals::{InternalStorage, Internals};
pub use crate::lend::{
    AccessError, AllApart, Bits, BundleApart, End, GroupShape, I, LendResource, LendStorage,
    NoAlias, NonEmpty, NotIn, NotInBundle, Numbered, O, ResourceSlot, ResourceSlotRef, Slot,
    SlotRef, TrackChanges, WorldParts,
};
pub use crate::size_hint::collect;
pub use crate::storage::{ChangeCount, Marks, SameChange, SparseSet, Storage, StorageInfo};
pub use crate::world_traits::proven;
use crate::{Bundle, Entities};

/// Names the storages of a `#[world]` struct: its one field has type
/// `<World as WorldStorages<ID>>::Storages`, a struct generated in a module of its own
/// whose fields the world's module cannot see. `ID` is unique to each expansion, so that a
/// world declared twice by mistake gives rustc's duplicate-definition errors rather than a
/// cascade of ambiguous types.
pub trait WorldStorages<const ID: u64> {
    /// The generated storages.
    type Storages;
}

/// Stands for the component type of a storage field configured out by `#[cfg]`: the
/// generated storages keep a type parameter for every field, whatever the configuration.
#[derive(Clone, Copy, Debug)]
pub struct Absent;

impl Component for Absent {}

/// User hooks around a `#[world]`'s changes (see `change/hooks.rs`): what its `Edit` and
/// `EditEntities` impls call for the types that have hooks.
pub mod hooks {
    pub use crate::change::hooks::{
        ErasedHooks, TypeHooks, clear, destroy, destroy_many, has, insert, insert_many, remove,
        remove_many, spawned,
    };

    /// The entities having a `T`, for `clear`'s remove hooks.
    pub fn holders<W: crate::HasComponent<T>, T>(world: &W) -> Vec<crate::Entity> {
        world.storage().entities().to_vec()
    }
}

#[cfg(feature = "serde")]
pub use serde;

/// Snapshot plumbing: what a `#[world]` deriving `Serialize` / `Deserialize` calls.
#[cfg(feature = "serde")]
pub mod snapshot {
    pub use crate::snapshot::{
        Columns, LoadStorages, Reading, SharedColumns, WorldWritten, deserialize_world,
        read_columns, read_resource, serialize_world, validate_columns,
    };
}

/// A configured-out storage is never written.
#[cfg(feature = "serde")]
impl serde::Serialize for Absent {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_unit()
    }
}

/// A configured-out storage is never read.
#[cfg(feature = "serde")]
impl<'de> serde::Deserialize<'de> for Absent {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        <() as serde::Deserialize>::deserialize(deserializer).map(|()| Absent)
    }
}

/// Expands to its input when the `serde` feature is on: the impls of a world deriving
/// `Serialize` or `Deserialize`.
#[cfg(feature = "serde")]
#[doc(hidden)]
#[macro_export]
macro_rules! __with_serde {
    ($($impls:tt)*) => { $($impls)* };
}

/// Without the `serde` feature, a world deriving `Serialize` or `Deserialize` is an error.
#[cfg(not(feature = "serde"))]
#[doc(hidden)]
#[macro_export]
macro_rules! __with_serde {
    ($($impls:tt)*) => {
        ::core::compile_error!(
            "`#[derive(Serialize, Deserialize)]` on a `#[world]` needs the `serde` feature of \
             `sparse_groups`: `sparse_groups = { version = \"0.4\", features = [\"serde\"] }`"
        );
    };
}

pub use crate::__with_serde as with_serde;

/// Expands to its input when the `serde` feature is on, to nothing otherwise (the error is
/// [`with_serde!`]'s): the storages' snapshot methods.
#[cfg(feature = "serde")]
#[doc(hidden)]
#[macro_export]
macro_rules! __if_serde {
    ($($items:tt)*) => { $($items)* };
}

/// See the other definition.
#[cfg(not(feature = "serde"))]
#[doc(hidden)]
#[macro_export]
macro_rules! __if_serde {
    ($($items:tt)*) => {};
}

pub use crate::__if_serde as if_serde;

/// The shared documentation of the world methods, which the macro reads (see the table).
pub use crate::__method_doc as method_doc;

/// Requires `T: Component` where a `#[world]` stores `T`: one error on the field's type for
/// a type that is no component. (A bound on the traits a world implements would repeat
/// the error of a derived component that is not `Send`, which its derive already reports.)
pub fn is_component<T: Component>() {}

/// An owning group of length `len` over its owned and observed storages.
///
/// # Panics
/// Panics if an owned storage is shorter than `len`.
#[inline]
pub fn group_mut<'a, K: GroupKey>(
    owned: <K::Owned as ComponentSet>::Storages<'a>,
    len: usize,
    observed: <K::Observed as ComponentSet>::Storages<'a>,
) -> GroupMut<'a, K> {
    GroupMut::new(K::Owned::lend(owned), len, K::Observed::lend(observed))
}

/// A non-owning group over its member set and its observed storages.
#[inline]
pub fn group_over<'a, K: GroupKey>(
    members: &'a SparseSet,
    owned: <K::Owned as ComponentSet>::Storages<'a>,
    observed: <K::Observed as ComponentSet>::Storages<'a>,
) -> GroupMut<'a, K> {
    GroupMut::over_members(members, K::Owned::lend(owned), K::Observed::lend(observed))
}

/// An owning group of length `len`, read only.
///
/// # Panics
/// Panics if an owned storage is shorter than `len`.
#[inline]
pub fn group_ref<'a, K: GroupKey>(
    owned: <K::Owned as ComponentSet>::StoragesRef<'a>,
    len: usize,
    observed: <K::Observed as ComponentSet>::StoragesRef<'a>,
) -> GroupRef<'a, K> {
    GroupRef::new(owned, len, observed)
}

/// A non-owning group, read only.
#[inline]
pub fn group_ref_over<'a, K: GroupKey>(
    members: &'a SparseSet,
    owned: <K::Owned as ComponentSet>::StoragesRef<'a>,
    observed: <K::Observed as ComponentSet>::StoragesRef<'a>,
) -> GroupRef<'a, K> {
    GroupRef::over_members(members, owned, observed)
}

/// An owning group of length `len`, lent from the slots of a world's parts (each slot is
/// taken, so nothing else can lend its storage while the group lives).
///
/// # Errors
/// [`AccessError::Conflict`] if a slot was lent already.
///
/// # Panics
/// Panics if an owned storage is shorter than `len`.
#[inline(always)]
pub fn lend_group<'w, K: GroupKey>(
    owned: <K::Owned as ComponentSet>::Slots<'_, 'w>,
    len: usize,
    observed: <K::Observed as ComponentSet>::Slots<'_, 'w>,
) -> Result<GroupMut<'w, K>, AccessError> {
    let owned = K::Owned::take_typed_slots(owned)?;
    Ok(GroupMut::new(
        owned,
        len,
        K::Observed::take_typed_slots(observed)?,
    ))
}

/// An owning group of length `len`, read only, lent from the slots of a world's parts.
///
/// # Errors
/// [`AccessError::Conflict`] if a slot was lent mutably.
///
/// # Panics
/// Panics if an owned storage is shorter than `len`.
#[inline(always)]
pub fn lend_group_ref<'w, K: GroupKey>(
    owned: <K::Owned as ComponentSet>::Slots<'_, 'w>,
    len: usize,
    observed: <K::Observed as ComponentSet>::Slots<'_, 'w>,
) -> Result<GroupRef<'w, K>, AccessError> {
    let owned = K::Owned::take_typed_slots_ref(owned)?;
    Ok(GroupRef::new(
        owned,
        len,
        K::Observed::take_typed_slots_ref(observed)?,
    ))
}

/// A non-owning group over its member set, lent from the slots of a world's parts
/// (`owned` is the empty tuple).
///
/// # Errors
/// [`AccessError::Conflict`] if a slot was lent already.
#[inline(always)]
pub fn lend_group_over<'w, K: GroupKey>(
    members: &'w SparseSet,
    owned: <K::Owned as ComponentSet>::Slots<'_, 'w>,
    observed: <K::Observed as ComponentSet>::Slots<'_, 'w>,
) -> Result<GroupMut<'w, K>, AccessError> {
    let owned = K::Owned::take_typed_slots(owned)?;
    Ok(GroupMut::over_members(
        members,
        owned,
        K::Observed::take_typed_slots(observed)?,
    ))
}

/// A non-owning group, read only, lent from the slots of a world's parts.
///
/// # Errors
/// [`AccessError::Conflict`] if a slot was lent mutably.
#[inline(always)]
pub fn lend_group_ref_over<'w, K: GroupKey>(
    members: &'w SparseSet,
    owned: <K::Owned as ComponentSet>::Slots<'_, 'w>,
    observed: <K::Observed as ComponentSet>::Slots<'_, 'w>,
) -> Result<GroupRef<'w, K>, AccessError> {
    let owned = K::Owned::take_typed_slots_ref(owned)?;
    Ok(GroupRef::over_members(
        members,
        owned,
        K::Observed::take_typed_slots_ref(observed)?,
    ))
}

/// A storage's values, lent with their entities fixed.
#[inline]
pub fn values_mut<T>(storage: &mut Storage<T>) -> ValuesMut<'_, T> {
    ValuesMut::new(storage.lend_mut())
}

/// Removes the marked entities' components, keeping the others in order; returns them,
/// undropped. `listed` names the marked entities, each once, in the order their removal
/// is recorded. Each of `lens` (the length of a group whose first owned storage this is)
/// becomes the group's new length.
/// `change` names the orders (the same marks compact every storage, see [`SameChange`]).
#[inline]
pub fn compact<T>(
    storage: &mut Storage<T>,
    marks: &Marks,
    listed: &[Entity],
    lens: &mut [usize],
    change: &mut SameChange,
) -> Vec<T> {
    storage.change_alike(change, |s| s.compact(marks, listed, lens))
}

/// Removes `entity`'s component for its destruction (the same removal from every storage:
/// `change` names the orders, see [`SameChange`]).
#[inline(always)]
pub fn take_for_destroy<T>(
    storage: &mut Storage<T>,
    entity: Entity,
    change: &mut SameChange,
) -> Option<T> {
    storage.change_alike(change, |s| s.remove(entity))
}

/// Removes the marked members of a non-owning group, keeping the others in order.
#[inline]
pub fn compact_set(members: &mut SparseSet, marks: &Marks) {
    members.compact(marks);
}

/// Moves a tracked storage's change count on within the tick (a schedule's stage); the
/// new count (`None` if the storage is untracked).
#[inline]
pub fn step_changes<T>(storage: &mut Storage<T>) -> Option<ChangeCount> {
    storage.step()
}

/// Moves a tracked storage's change count forward to `now` if it is behind (tests of the
/// count's restart).
pub fn jump_change_count<T>(storage: &mut Storage<T>, now: u32) {
    storage.jump_change_count(now);
}

/// The change count of a world whose tracked storages stepped to `counts` (all equal: they
/// move together), or the count of a world that tracks none.
#[inline]
pub fn change_count(counts: &[Option<ChangeCount>]) -> ChangeCount {
    counts
        .iter()
        .flatten()
        .copied()
        .last()
        .unwrap_or(ChangeCount::UNTRACKED)
}

/// The world's entity allocator, empty.
pub fn entities() -> Entities {
    Entities::new()
}

/// Spawns an entity with a bundle (see the generated `spawn_with`): `key` proves the call
/// comes from the world's own code.
///
/// # Panics
/// Panics if the bundle names a type twice.
#[inline]
pub fn spawn_with<W: Internals + crate::EditEntities, B: Bundle<W>>(
    world: &mut W,
    key: &W::Key,
    bundle: B,
) -> Entity {
    crate::change::bundle::spawn_with(world, key, bundle)
}

/// Gives a reserved entity a bundle (see the generated `spawn_reserved`): `key` proves
/// the call comes from the world's own code.
///
/// # Errors
/// [`EntityError::Dead`](crate::EntityError::Dead) if `entity` is not alive.
///
/// # Panics
/// Panics if the bundle names a type twice.
pub fn spawn_reserved<W: Internals + crate::EditEntities, B: Bundle<W>>(
    world: &mut W,
    key: &W::Key,
    entity: Entity,
    bundle: B,
) -> Result<(), crate::EntityError> {
    crate::change::bundle::spawn_reserved(world, key, entity, bundle)
}

/// Spawns one entity per bundle (see the generated `spawn_batch`): `key` proves the call
/// comes from the world's own code.
///
/// # Panics
/// Panics if the bundle type names a component type twice.
pub fn spawn_batch<W: Internals + crate::EditEntities, B: Bundle<W>>(
    world: &mut W,
    key: &W::Key,
    bundles: impl IntoIterator<Item = B>,
) -> Vec<Entity> {
    crate::change::bundle::spawn_batch(world, key, bundles)
}

/// Sorts a storage that no group owns (see the generated `Unowned` impls).
#[inline]
pub fn sort_storage<T>(storage: &mut Storage<T>, order: impl crate::StorageOrder<T>) {
    order.sort(storage);
}

/// The article's mixed sort to the letter, kept to be benchmarked against
/// [`Storage::sort_by`].
pub fn sort_by_sparse_walk<T>(
    storage: &mut Storage<T>,
    compare: impl FnMut(&T, &T) -> core::cmp::Ordering,
) {
    storage.sort_by_sparse_walk(compare);
}

/// Group lengths, shown by a world's `Debug` as a map from group to length.
pub struct GroupLens<'a>(pub &'a [(&'a str, usize)]);

impl core::fmt::Debug for GroupLens<'_> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_map()
            .entries(self.0.iter().map(|&(k, v)| (k, v)))
            .finish()
    }
}
