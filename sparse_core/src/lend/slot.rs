//! One storage of a world split into parts: still available mutably, lent out shared (any
//! number of times), or taken mutably by one part.
//!
//! ```text
//! parts of a world : [ s0: Mut | s1: Shared | s2: Taken ]
//!   borrow (&mut A)  →  s0: Mut    → Taken       the storage, mutably, once
//!   borrow (&B)      →  s1: Shared → Shared      the storage, shared, again and again
//!   borrow (&C)      →  s2: Taken  → AccessError
//! ```
//!
//! A resource's slot ([`ResourceSlot`]) works the same way for one resource.
//!
//! A slot is opaque outside this crate: it can be made from a storage one already
//! borrows, and passed around, but only this crate's borrow code takes the storage out of
//! it, marking the slot as it does. That marking is what makes a request that names a
//! type twice fail at run time even where the compile-time rule was bypassed (a hand-made
//! [`LendStorage`](crate::LendStorage) impl, say): no part is ever lent twice.

use core::any::Any;
use std::sync::Arc;

use crate::component::Component;
use crate::storage::{AnyStorage, ChangeTicks, Storage};

use super::error::AccessError;

/// A typed storage's slot among a `#[world]`'s parts (see the module docs).
pub struct Slot<'w, T> {
    state: State<&'w mut Storage<T>, &'w Storage<T>>,
    /// The storage's change stamps once it is lent mutably: a change filter of the same
    /// request still tests them (they are atomics, shared with the lent column).
    ticks: Option<Arc<ChangeTicks>>,
}

/// A slot's state.
enum State<M, S> {
    /// Not lent yet.
    Mut(M),
    /// Lent shared.
    Shared(S),
    /// Lent mutably.
    Taken,
}

impl<M, S: Copy> State<M, S> {
    /// The mutable borrow; the state is `Taken` from then on.
    #[inline(always)]
    fn take_mut(&mut self) -> Option<M> {
        match core::mem::replace(self, State::Taken) {
            State::Mut(storage) => Some(storage),
            other => {
                *self = other;
                None
            }
        }
    }

    /// A shared borrow, through `share` if the state still holds the mutable one; the
    /// state is `Shared` from then on.
    #[inline(always)]
    fn take_shared(&mut self, share: impl FnOnce(M) -> S) -> Option<S> {
        let shared = match core::mem::replace(self, State::Taken) {
            State::Mut(storage) => share(storage),
            State::Shared(storage) => storage,
            State::Taken => return None,
        };
        *self = State::Shared(shared);
        Some(shared)
    }
}

impl<'w, T> Slot<'w, T> {
    /// A slot lending `storage` mutably once, or shared any number of times.
    #[inline(always)]
    pub fn new(storage: &'w mut Storage<T>) -> Self {
        Slot {
            state: State::Mut(storage),
            ticks: None,
        }
    }

    /// A slot lending `storage` shared only.
    #[inline(always)]
    pub fn shared(storage: &'w Storage<T>) -> Self {
        Slot {
            state: State::Shared(storage),
            ticks: None,
        }
    }
}

impl<'w, T: 'static> Slot<'w, T> {
    /// The storage, mutably; the slot is taken from then on.
    ///
    /// # Errors
    /// [`AccessError::Conflict`] if the storage was lent before.
    #[inline(always)]
    pub(crate) fn take_mut(&mut self) -> Result<&'w mut Storage<T>, AccessError> {
        let storage = self.state.take_mut().ok_or_else(conflict::<T>)?;
        self.ticks = storage.change_ticks().cloned();
        Ok(storage)
    }

    /// The storage, shared; the slot can lend it shared again.
    ///
    /// # Errors
    /// [`AccessError::Conflict`] if the storage was lent mutably.
    #[inline(always)]
    pub(crate) fn take_shared(&mut self) -> Result<&'w Storage<T>, AccessError> {
        self.state.take_shared(|s| &*s).ok_or_else(conflict::<T>)
    }

    /// The storage's change stamps, whatever the slot lent (`None` if it is untracked):
    /// they can be tested beside any borrow of the storage.
    pub(crate) fn change_ticks(&self) -> Option<Arc<ChangeTicks>> {
        match &self.state {
            State::Mut(storage) => storage.change_ticks().cloned(),
            State::Shared(storage) => storage.change_ticks().cloned(),
            State::Taken => self.ticks.clone(),
        }
    }
}

#[cold]
#[inline(never)]
fn conflict<T>() -> AccessError {
    AccessError::Conflict(core::any::type_name::<T>())
}

/// One type-erased storage of the run-time [`World`](crate::World), split into parts.
pub struct ErasedSlot<'w> {
    state: State<&'w mut AnyStorage, &'w AnyStorage>,
    /// As [`Slot`]'s.
    ticks: Option<Arc<ChangeTicks>>,
}

impl<'w> ErasedSlot<'w> {
    /// A slot lending `storage` mutably once, or shared any number of times.
    pub(crate) fn new(storage: &'w mut AnyStorage) -> Self {
        ErasedSlot {
            state: State::Mut(storage),
            ticks: None,
        }
    }

    /// A slot lending `storage` shared only.
    pub(crate) fn shared(storage: &'w AnyStorage) -> Self {
        ErasedSlot {
            state: State::Shared(storage),
            ticks: None,
        }
    }

    /// The storage of `T`, mutably; the slot is taken from then on.
    ///
    /// # Errors
    /// [`AccessError::Conflict`] if the storage was lent before.
    ///
    /// # Panics
    /// Panics if the slot's storage is not a `Storage<T>` (the world keeps one slot per
    /// type, found through its type map).
    pub(crate) fn take_mut<T: Component>(&mut self) -> Result<&'w mut Storage<T>, AccessError> {
        let storage = self.state.take_mut().ok_or_else(conflict::<T>)?;
        let storage = storage
            .storage_of_mut::<T>()
            .expect("a storage's slot holds its type");
        self.ticks = storage.change_ticks().cloned();
        Ok(storage)
    }

    /// The storage of `T`, shared; the slot can lend it shared again.
    ///
    /// # Errors
    /// [`AccessError::Conflict`] if the storage was lent mutably.
    ///
    /// # Panics
    /// As [`take_mut`](Self::take_mut).
    pub(crate) fn take_shared<T: Component>(&mut self) -> Result<&'w Storage<T>, AccessError> {
        let storage = self.state.take_shared(|s| &*s).ok_or_else(conflict::<T>)?;
        Ok(storage
            .storage_of::<T>()
            .expect("a storage's slot holds its type"))
    }

    /// As [`Slot::change_ticks`].
    pub(crate) fn change_ticks(&self) -> Option<Arc<ChangeTicks>> {
        match &self.state {
            State::Mut(storage) => storage.change_ticks().cloned(),
            State::Shared(storage) => storage.change_ticks().cloned(),
            State::Taken => self.ticks.clone(),
        }
    }
}

/// A storage's slot among a world's parts, as [`LendStorage::slot`] hands it to a borrow:
/// typed for a `#[world]`, type-erased for the run-time [`World`](crate::World). Opaque,
/// like the slots it points to.
///
/// [`LendStorage::slot`]: crate::LendStorage
pub struct SlotRef<'p, 'w, T>(Either<'p, 'w, T>);

enum Either<'p, 'w, T> {
    Typed(&'p mut Slot<'w, T>),
    Erased(&'p mut ErasedSlot<'w>),
}

impl<'p, 'w, T> SlotRef<'p, 'w, T> {
    /// A `#[world]`'s slot.
    #[inline(always)]
    pub fn typed(slot: &'p mut Slot<'w, T>) -> Self {
        SlotRef(Either::Typed(slot))
    }

    /// The run-time world's slot.
    pub(crate) fn erased(slot: &'p mut ErasedSlot<'w>) -> Self {
        SlotRef(Either::Erased(slot))
    }
}

impl<'w, T: Component> SlotRef<'_, 'w, T> {
    /// The storage, mutably; see [`Slot::take_mut`].
    ///
    /// # Errors
    /// [`AccessError::Conflict`] if the storage was lent before.
    #[inline(always)]
    pub(crate) fn take_mut(self) -> Result<&'w mut Storage<T>, AccessError> {
        match self.0 {
            Either::Typed(slot) => slot.take_mut(),
            Either::Erased(slot) => slot.take_mut::<T>(),
        }
    }

    /// The storage, shared; see [`Slot::take_shared`].
    ///
    /// # Errors
    /// [`AccessError::Conflict`] if the storage was lent mutably.
    #[inline(always)]
    pub(crate) fn take_shared(self) -> Result<&'w Storage<T>, AccessError> {
        match self.0 {
            Either::Typed(slot) => slot.take_shared(),
            Either::Erased(slot) => slot.take_shared::<T>(),
        }
    }

    /// The storage's change stamps; see [`Slot::change_ticks`].
    ///
    /// # Errors
    /// [`AccessError::NotTracked`] if the storage is untracked.
    pub(crate) fn change_ticks(self) -> Result<Arc<ChangeTicks>, AccessError> {
        match self.0 {
            Either::Typed(slot) => slot.change_ticks(),
            Either::Erased(slot) => slot.change_ticks(),
        }
        .ok_or(AccessError::NotTracked(core::any::type_name::<T>()))
    }
}

/// A resource's slot among a `#[world]`'s parts: lent mutably once, or shared any number
/// of times, as a storage's [`Slot`].
pub struct ResourceSlot<'w, R> {
    state: State<&'w mut R, &'w R>,
}

impl<'w, R> ResourceSlot<'w, R> {
    /// A slot lending `resource` mutably once, or shared any number of times.
    #[inline(always)]
    pub fn new(resource: &'w mut R) -> Self {
        ResourceSlot {
            state: State::Mut(resource),
        }
    }

    /// A slot lending `resource` shared only.
    #[inline(always)]
    pub fn shared(resource: &'w R) -> Self {
        ResourceSlot {
            state: State::Shared(resource),
        }
    }
}

/// A resource of the run-time [`World`](crate::World), type-erased, split into parts.
pub(crate) struct ErasedResourceSlot<'w> {
    state: State<&'w mut (dyn Any + Send + Sync), &'w (dyn Any + Send + Sync)>,
}

impl<'w> ErasedResourceSlot<'w> {
    /// A slot lending `resource` mutably once, or shared any number of times.
    pub(crate) fn new(resource: &'w mut (dyn Any + Send + Sync)) -> Self {
        ErasedResourceSlot {
            state: State::Mut(resource),
        }
    }

    /// A slot lending `resource` shared only.
    pub(crate) fn shared(resource: &'w (dyn Any + Send + Sync)) -> Self {
        ErasedResourceSlot {
            state: State::Shared(resource),
        }
    }
}

/// A resource's slot among a world's parts, as
/// [`LendResource::resource_slot`](crate::lend::LendResource) hands it to a borrow: typed
/// for a `#[world]`, type-erased for the run-time [`World`](crate::World). Opaque.
pub struct ResourceSlotRef<'p, 'w, R>(EitherResource<'p, 'w, R>);

enum EitherResource<'p, 'w, R> {
    Typed(&'p mut ResourceSlot<'w, R>),
    Erased(&'p mut ErasedResourceSlot<'w>),
}

impl<'p, 'w, R> ResourceSlotRef<'p, 'w, R> {
    /// A `#[world]`'s slot.
    #[inline(always)]
    pub fn typed(slot: &'p mut ResourceSlot<'w, R>) -> Self {
        ResourceSlotRef(EitherResource::Typed(slot))
    }

    /// The run-time world's slot.
    pub(crate) fn erased(slot: &'p mut ErasedResourceSlot<'w>) -> Self {
        ResourceSlotRef(EitherResource::Erased(slot))
    }
}

impl<'w, R: 'static> ResourceSlotRef<'_, 'w, R> {
    /// The resource, mutably; the slot is taken from then on.
    ///
    /// # Errors
    /// [`AccessError::Conflict`] if the resource was lent before.
    ///
    /// # Panics
    /// If a run-time slot does not hold an `R` (the world finds slots by `TypeId`).
    #[inline(always)]
    pub(crate) fn take_mut(self) -> Result<&'w mut R, AccessError> {
        match self.0 {
            EitherResource::Typed(slot) => slot.state.take_mut().ok_or_else(conflict::<R>),
            EitherResource::Erased(slot) => Ok(slot
                .state
                .take_mut()
                .ok_or_else(conflict::<R>)?
                .downcast_mut::<R>()
                .expect("a resource's slot holds its type")),
        }
    }

    /// The resource, shared; the slot can lend it shared again.
    ///
    /// # Errors
    /// [`AccessError::Conflict`] if the resource was lent mutably.
    ///
    /// # Panics
    /// As [`take_mut`](Self::take_mut).
    #[inline(always)]
    pub(crate) fn take_shared(self) -> Result<&'w R, AccessError> {
        match self.0 {
            EitherResource::Typed(slot) => {
                slot.state.take_shared(|r| &*r).ok_or_else(conflict::<R>)
            }
            EitherResource::Erased(slot) => Ok(slot
                .state
                .take_shared(|r| &*r)
                .ok_or_else(conflict::<R>)?
                .downcast_ref::<R>()
                .expect("a resource's slot holds its type")),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::entity::Entity;

    #[test]
    fn a_slot_lends_mutably_once_and_shared_again_and_again() {
        let mut storage = Storage::new();
        storage.insert(Entity::from_raw_parts(0, 1).unwrap(), 7u32);
        let mut slot = Slot::new(&mut storage);
        assert!(slot.take_shared().is_ok());
        assert!(slot.take_shared().is_ok());
        assert_eq!(
            slot.take_mut().err(),
            Some(AccessError::Conflict("u32")),
            "lent shared: never mutably"
        );
        let mut storage = Storage::<u32>::new();
        let mut slot = Slot::new(&mut storage);
        assert!(slot.take_mut().is_ok());
        assert!(slot.take_mut().is_err() && slot.take_shared().is_err());
        let mut slot = Slot::shared(&storage);
        assert!(slot.take_mut().is_err() && slot.take_shared().is_ok());
    }
}
