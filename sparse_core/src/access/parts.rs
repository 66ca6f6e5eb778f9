//! A world split into parts: one slot per storage, from which the parts of a borrow
//! request take what they need, plus what every part may read (the entities, the groups'
//! lengths and member sets).
//!
//! For a `#[world]` the compiler has already proven that a request takes no storage
//! twice (see the `disjoint` rules), so taking never fails there; the run-time
//! [`World`](crate::World) relies on these slots to refuse an overlapping request with an
//! [`AccessError`].

use core::any::TypeId;

use crate::entity::{Entities, Entity};
use crate::group::{GroupKey, GroupMut, GroupRef};
use crate::storage::Storage;
use crate::world::AccessError;

/// One storage of a world split into parts: still available mutably, lent out shared
/// (any number of times), or taken mutably by one part.
pub enum Slot<'w, T> {
    /// Not lent yet.
    Mut(&'w mut Storage<T>),
    /// Lent shared.
    Shared(&'w Storage<T>),
    /// Lent mutably.
    Taken,
}

impl<'w, T: 'static> Slot<'w, T> {
    /// The storage, mutably; the slot is taken from then on.
    ///
    /// # Errors
    /// [`AccessError::Conflict`] if the storage was lent before.
    #[inline(always)]
    pub fn take_mut(&mut self) -> Result<&'w mut Storage<T>, AccessError> {
        match core::mem::replace(self, Slot::Taken) {
            Slot::Mut(storage) => Ok(storage),
            other => {
                *self = other;
                Err(AccessError::Conflict(core::any::type_name::<T>()))
            }
        }
    }

    /// The storage, shared; the slot can lend it shared again.
    ///
    /// # Errors
    /// [`AccessError::Conflict`] if the storage was lent mutably.
    #[inline(always)]
    pub fn take_shared(&mut self) -> Result<&'w Storage<T>, AccessError> {
        let storage: &'w Storage<T> = match core::mem::replace(self, Slot::Taken) {
            Slot::Mut(storage) => storage,
            Slot::Shared(storage) => storage,
            Slot::Taken => return Err(AccessError::Conflict(core::any::type_name::<T>())),
        };
        *self = Slot::Shared(storage);
        Ok(storage)
    }
}

/// A world that can be split into parts (implemented by `#[world]` and by
/// [`World`](crate::World)). Not meant to be implemented by hand.
#[doc(hidden)]
pub trait WorldParts {
    /// One slot per storage, the groups' lengths and member sets, the entities.
    type Parts<'w>
    where
        Self: 'w;
    /// The world split into parts, every storage available mutably.
    fn parts(&mut self) -> Self::Parts<'_>;
    /// The world split into parts, every storage available shared only.
    fn parts_ref(&self) -> Self::Parts<'_>;
    /// The world's entities.
    fn entities_of<'w>(parts: &Self::Parts<'w>) -> &'w Entities;
    /// Calls `f` with the shape of every group, for views to find one that drives them.
    fn with_groups<'w, R>(parts: &Self::Parts<'w>, f: impl FnOnce(&[GroupShape<'_, 'w>]) -> R)
    -> R;
}

/// A world that stores `T` and can lend its storage to a borrow request.
#[diagnostic::on_unimplemented(
    message = "the world `{Self}` does not store `{T}`",
    label = "no storage of `{T}` in this world",
    note = "add a field of type `Storage<{T}>` to the world (spelled the same way everywhere)"
)]
pub trait LendStorage<T>: WorldParts {
    /// The storage's number, as a type: what tells two stored types apart at compile time
    /// (see the `disjoint` rules).
    #[doc(hidden)]
    type Index;
    /// Makes sure the storage exists (the run-time world creates it on demand).
    #[doc(hidden)]
    fn prepare(_world: &mut Self) {}
    /// The storage's slot among the parts.
    #[doc(hidden)]
    fn slot<'p, 'w>(parts: &'p mut Self::Parts<'w>) -> Result<SlotRef<'p, 'w, T>, AccessError>;
}

/// A storage's slot among a world's parts: typed for a `#[world]`, type-erased for the
/// run-time [`World`](crate::World).
#[doc(hidden)]
pub enum SlotRef<'p, 'w, T> {
    /// A `#[world]`'s slot.
    Typed(&'p mut Slot<'w, T>),
    /// The run-time world's slot.
    Erased(&'p mut crate::world::ErasedSlot<'w>),
}

impl<'w, T: crate::Component> SlotRef<'_, 'w, T> {
    /// The storage, mutably; see [`Slot::take_mut`].
    ///
    /// # Errors
    /// [`AccessError::Conflict`] if the storage was lent before.
    #[inline(always)]
    pub fn take_mut(self) -> Result<&'w mut Storage<T>, AccessError> {
        match self {
            SlotRef::Typed(slot) => slot.take_mut(),
            SlotRef::Erased(slot) => slot.take_mut::<T>(),
        }
    }

    /// The storage, shared; see [`Slot::take_shared`].
    ///
    /// # Errors
    /// [`AccessError::Conflict`] if the storage was lent mutably.
    #[inline(always)]
    pub fn take_shared(self) -> Result<&'w Storage<T>, AccessError> {
        match self {
            SlotRef::Typed(slot) => slot.take_shared(),
            SlotRef::Erased(slot) => slot.take_shared::<T>(),
        }
    }
}

/// A world with the group named by `K`, which it can lend to a borrow request.
#[diagnostic::on_unimplemented(
    message = "the world `{Self}` has no group `{K}`",
    label = "no such group",
    note = "a group is named by its owned types in the order of its `#[group(...)]` declaration, then `Get<…>` and `Exclude<…>`, e.g. `(Velocity, Get<Position>, Exclude<Frozen>)`"
)]
pub trait LendGroup<K: GroupKey>: WorldParts {
    /// The group, its values mutable.
    #[doc(hidden)]
    fn lend_group<'w>(parts: &mut Self::Parts<'w>) -> Result<GroupMut<'w, K>, AccessError>;
    /// The group, read only.
    #[doc(hidden)]
    fn lend_group_ref<'w>(parts: &mut Self::Parts<'w>) -> Result<GroupRef<'w, K>, AccessError>;
}

/// What a view needs to know of a group to be driven by it.
#[doc(hidden)]
pub struct GroupShape<'a, 'w> {
    /// The owned types, in key order.
    pub owned: &'a [TypeId],
    /// The observed types.
    pub observed: &'a [TypeId],
    /// The excluded types.
    pub excluded: &'a [TypeId],
    /// The number of members.
    pub len: usize,
    /// The members of a non-owning group (`None` for an owning group, whose members are
    /// the prefix of its owned storages).
    pub members: Option<&'w [Entity]>,
}
