//! One storage of a world split into parts: still available mutably, lent out shared (any
//! number of times), or lent mutably for its values to one part; its entity set can be
//! lent shared at any time.
//!
//! ```text
//! parts of a world : [ s0: Free | s1: Shared | s2: Values ]
//!   borrow (&mut A)     →  s0: Free   → Values     its values, mutably, once
//!   borrow (&B)         →  s1: Shared → Shared     the storage, shared, again and again
//!   borrow (&C)         →  s2: Values → AccessError
//!   borrow (With<C>)    →  s2: Values → Values     its entity set, shared: membership
//!                                                  never changes while parts are lent
//! ```
//!
//! A resource's slot ([`ResourceSlot`]) works the same way for one resource (without the
//! entity set).
//!
//! A slot is opaque outside this crate: it can be made from a storage one already
//! borrows, and passed around, but only this crate's borrow code takes the storage out of
//! it, marking the slot as it does. That marking is what makes a request that names a
//! type twice fail at run time even where the compile-time rule was bypassed (a hand-made
//! [`LendStorage`](crate::LendStorage) impl, say): no part is ever lent twice.
//!
//! # Safety
//! A storage slot holds a pointer to its storage, made from the `&'w mut` (or `&'w`) it was
//! given, and hands out references to the storage's fields as its state allows (see
//! `storage/lent.rs`): the whole storage shared while nothing is lent mutably; the values
//! mutably once (then nothing more but the set and the stamps); the set and the stamps
//! shared in every state but `Whole` (the storage lent mutably whole, for a sort, after
//! which nothing else is lent). A slot made from `&'w` is `Shared` from the start, so it
//! never makes a mutable reference from a pointer it may not write through.
//!
//! Two slots may share one storage, and then what one may lend the other may not: a
//! *reborrow* (`Slot::reborrow`) is a copy tied to a mutable borrow of the slot, so the two
//! are never used at once and what the copy lent is over when the slot is used again; a
//! *split* (`Slot::split`, for another part of a split world) takes over the values (the
//! slot then lends only the set) or shares the storage (both then lend it shared only), or
//! lends only the set.

use core::any::{Any, TypeId};
use core::marker::PhantomData;
use core::ptr::NonNull;
use std::sync::Arc;

use crate::component::Component;
use crate::storage::{
    AnyStorage, ChangeTicks, ErasedStorage, SparseSet, Storage, StorageMut, set_from_raw,
    ticks_from_raw,
};

use super::error::AccessError;

/// A resource slot's state.
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

impl<'w, X: ?Sized> State<&'w mut X, &'w X> {
    /// The same state for a shorter borrow.
    #[inline(always)]
    fn reborrow(&mut self) -> State<&'_ mut X, &'_ X> {
        match self {
            State::Mut(x) => State::Mut(&mut **x),
            State::Shared(x) => State::Shared(*x),
            State::Taken => State::Taken,
        }
    }

    /// The state of another part of a split world: what this one holds mutably if
    /// `write` (taken here), shared if `read`; otherwise nothing.
    fn split(&mut self, write: bool, read: bool) -> Self {
        let split = if write {
            self.take_mut().map(State::Mut)
        } else if read {
            self.take_shared(|x| &*x).map(State::Shared)
        } else {
            None
        };
        split.unwrap_or(State::Taken)
    }
}

/// What a storage slot has lent (see the module docs).
#[derive(Clone, Copy, PartialEq, Eq)]
enum Lent {
    /// Nothing but the set: every lend is still possible.
    Free,
    /// The storage, shared.
    Shared,
    /// The values, mutably.
    Values,
    /// The whole storage, mutably.
    Whole,
}

/// A storage slot of either kind: the storage behind a pointer, and what was lent of it.
struct Lending {
    /// A `Storage<T>` of the slot's type (the typed slot's `T`, the erased slot's
    /// `component`), writable if the slot was made from `&mut`.
    storage: NonNull<()>,
    lent: Lent,
    /// Whether the set was lent (a sort, which moves it, may not be lent then).
    set_lent: bool,
}

impl Lending {
    /// A slot over `storage`, which may be written through if `mutable`.
    fn new(storage: NonNull<()>, mutable: bool) -> Self {
        Lending {
            storage,
            lent: if mutable { Lent::Free } else { Lent::Shared },
            set_lent: false,
        }
    }

    /// The storage, a `Storage<T>`.
    #[inline(always)]
    fn typed<T>(&self) -> NonNull<Storage<T>> {
        self.storage.cast()
    }

    /// The same lending for a shorter borrow: what it lends is returned when the borrow
    /// ends (the caller ties the copy to a borrow of `self`).
    #[inline(always)]
    fn reborrow(&self) -> Self {
        Lending {
            storage: self.storage,
            lent: self.lent,
            set_lent: self.set_lent,
        }
    }

    /// A lending of its own for another part of a split world (see
    /// [`Slot::split`]): the values, mutably, if `write` (this one lends them no more),
    /// the storage shared if `read`, otherwise the set only.
    fn split(&mut self, write: bool, read: bool) -> Self {
        let lent = match self.lent {
            Lent::Free if write => {
                self.lent = Lent::Values;
                Lent::Free
            }
            Lent::Free | Lent::Shared if read && !write => {
                self.lent = Lent::Shared;
                Lent::Shared
            }
            // Lent elsewhere already (a wrong split is refused when its part is taken,
            // never lent twice), or not asked for: the set only.
            _ => Lent::Values,
        };
        Lending {
            storage: self.storage,
            lent,
            set_lent: true,
        }
    }

    /// Stamps what the values hand out mutably with count `at` (see
    /// [`ChangeTicks::stamp_lent_at`]), if the slot may still lend them.
    ///
    /// # Safety
    /// As for [`take_shared`](Self::take_shared).
    unsafe fn stamp_at<T>(&self, at: u32) {
        if self.lent == Lent::Free {
            // SAFETY: the stamps' handle is only read (the count is an atomic it points to).
            if let Some(ticks) = unsafe { ticks_from_raw(self.typed::<T>()) } {
                ticks.stamp_lent_at(at);
            }
        }
    }

    /// The values, mutably; the slot lends nothing more but the set from then on.
    ///
    /// # Safety
    /// The storage is a `Storage<T>`, alive and unaliased but through this slot for `'w`.
    #[inline(always)]
    unsafe fn take_mut<'w, T: 'static>(&mut self) -> Result<StorageMut<'w, T>, AccessError> {
        if self.lent != Lent::Free {
            return Err(conflict::<T>());
        }
        self.lent = Lent::Values;
        // SAFETY: `Free` means the slot was made from `&'w mut` and has lent nothing but
        // the set (shared) and the stamps (shared): the values are its own to lend, once
        // (the state is `Values` from now on, which lends neither the values nor the
        // whole storage again), and nothing writes the set while the parts live.
        Ok(unsafe { StorageMut::from_raw(self.typed::<T>()) })
    }

    /// The whole storage, mutably (a sort); the slot lends nothing more.
    ///
    /// # Safety
    /// As for [`take_mut`](Self::take_mut).
    unsafe fn take_whole_mut<'w, T: 'static>(&mut self) -> Result<&'w mut Storage<T>, AccessError> {
        if self.lent != Lent::Free || self.set_lent {
            return Err(conflict::<T>());
        }
        self.lent = Lent::Whole;
        // SAFETY: `Free` and no set lent: nothing of the storage is lent, and nothing will
        // be (`Whole` refuses every lend).
        Ok(unsafe { &mut *self.typed::<T>().as_ptr() })
    }

    /// The storage, shared; the slot can lend it shared again.
    ///
    /// # Safety
    /// As for [`take_mut`](Self::take_mut), `'w` being the life of the slot's borrow.
    #[inline(always)]
    unsafe fn take_shared<'w, T: 'static>(&mut self) -> Result<&'w Storage<T>, AccessError> {
        if !matches!(self.lent, Lent::Free | Lent::Shared) {
            return Err(conflict::<T>());
        }
        self.lent = Lent::Shared;
        // SAFETY: nothing was lent mutably (`Free` or `Shared`) and nothing will be
        // (`Shared` refuses the values and the whole storage).
        Ok(unsafe { &*self.typed::<T>().as_ptr() })
    }

    /// The entity set, shared; in every state but `Whole`.
    ///
    /// # Safety
    /// As for [`take_shared`](Self::take_shared).
    #[inline(always)]
    unsafe fn set<'w, T: 'static>(&mut self) -> Result<&'w SparseSet, AccessError> {
        if self.lent == Lent::Whole {
            return Err(conflict::<T>());
        }
        self.set_lent = true;
        // SAFETY: nothing writes the set while the parts live: a values lend writes the
        // components only, and the whole storage is never lent once the set is (above).
        Ok(unsafe { set_from_raw(self.typed::<T>()) })
    }

    /// The storage's change stamps, whatever the slot lent (`None` if it is untracked):
    /// they can be tested beside any borrow of the storage.
    ///
    /// # Safety
    /// As for [`take_shared`](Self::take_shared).
    unsafe fn change_ticks<T: 'static>(&self) -> Option<Arc<ChangeTicks>> {
        if self.lent == Lent::Whole {
            return None;
        }
        // SAFETY: the stamps' handle is only read while the parts live (a values lend
        // reads it too; marks go through the atomics it points to).
        unsafe { ticks_from_raw(self.typed::<T>()) }.cloned()
    }
}

/// A typed storage's slot among a `#[world]`'s parts (see the module docs).
pub struct Slot<'w, T> {
    lending: Lending,
    life: PhantomData<&'w mut Storage<T>>,
}

// SAFETY: a slot lends what `&'w mut Storage<T>` lends (the storage shared, or its values
// mutably): it may move to another thread exactly when such a borrow may, and lend there.
unsafe impl<T: Send + Sync> Send for Slot<'_, T> {}
// SAFETY: its `&self` methods only read its state.
unsafe impl<T: Sync> Sync for Slot<'_, T> {}

impl<'w, T> Slot<'w, T> {
    /// A slot lending `storage` mutably once, or shared any number of times.
    #[inline(always)]
    pub fn new(storage: &'w mut Storage<T>) -> Self {
        Slot {
            lending: Lending::new(NonNull::from(storage).cast(), true),
            life: PhantomData,
        }
    }

    /// A slot lending `storage` shared only.
    #[inline(always)]
    pub fn shared(storage: &'w Storage<T>) -> Self {
        Slot {
            lending: Lending::new(NonNull::from(storage).cast(), false),
            life: PhantomData,
        }
    }

    /// The same slot for a shorter borrow: what a part takes from it is back in this slot
    /// when the borrow ends.
    #[inline(always)]
    pub fn reborrow(&mut self) -> Slot<'_, T> {
        Slot {
            lending: self.lending.reborrow(),
            life: PhantomData,
        }
    }

    /// The slot of another part of a split world, which a part lending `T` as `write`
    /// (its values, mutably: this slot lends them no more) or `read` (shared) takes from;
    /// without either it lends the set only.
    pub fn split(&mut self, write: bool, read: bool) -> Slot<'w, T> {
        Slot {
            lending: self.lending.split(write, read),
            life: PhantomData,
        }
    }

    /// Stamps what the storage's values hand out mutably with count `at` (`0`: the
    /// storage's own), if this slot may still lend them.
    pub fn stamp_at(&self, at: u32) {
        // SAFETY: as in `take_mut`.
        unsafe { self.lending.stamp_at::<T>(at) }
    }
}

impl<'w, T: 'static> Slot<'w, T> {
    /// The storage's values, mutably; the slot lends nothing more but its set from then on.
    ///
    /// # Errors
    /// [`AccessError::Conflict`] if the storage was lent before.
    #[inline(always)]
    pub(crate) fn take_mut(&mut self) -> Result<StorageMut<'w, T>, AccessError> {
        // SAFETY: the slot was made from a borrow of a `Storage<T>` for `'w`.
        unsafe { self.lending.take_mut() }
    }

    /// The storage, shared; the slot can lend it shared again.
    ///
    /// # Errors
    /// [`AccessError::Conflict`] if the storage was lent mutably.
    #[inline(always)]
    pub(crate) fn take_shared(&mut self) -> Result<&'w Storage<T>, AccessError> {
        // SAFETY: as in `take_mut`.
        unsafe { self.lending.take_shared() }
    }

    /// The storage's entity set, shared, whatever else was lent.
    #[inline(always)]
    pub(crate) fn set(&mut self) -> Result<&'w SparseSet, AccessError> {
        // SAFETY: as in `take_mut`.
        unsafe { self.lending.set::<T>() }
    }

    /// The storage's change stamps, whatever the slot lent (`None` if it is untracked).
    pub(crate) fn change_ticks(&self) -> Option<Arc<ChangeTicks>> {
        // SAFETY: as in `take_mut`.
        unsafe { self.lending.change_ticks::<T>() }
    }
}

#[cold]
#[inline(never)]
fn conflict<T>() -> AccessError {
    AccessError::Conflict(core::any::type_name::<T>())
}

/// One type-erased storage of the run-time [`World`](crate::World), split into parts.
pub struct ErasedSlot<'w> {
    lending: Lending,
    /// The same storage with its erased interface (`lending`'s pointer is its data).
    erased: NonNull<dyn ErasedStorage>,
    /// The type of the storage's components.
    component: TypeId,
    life: PhantomData<&'w mut AnyStorage>,
}

// SAFETY: as for `Slot`: the erased storage is `Send + Sync` (`ErasedStorage`'s bounds).
unsafe impl Send for ErasedSlot<'_> {}
// SAFETY: as for `Slot`.
unsafe impl Sync for ErasedSlot<'_> {}

impl<'w> ErasedSlot<'w> {
    /// A slot lending `storage` mutably once, or shared any number of times.
    pub(crate) fn new(storage: &'w mut AnyStorage) -> Self {
        let erased = storage.erased_mut();
        ErasedSlot {
            component: storage.component(),
            lending: Lending::new(erased.cast(), true),
            erased,
            life: PhantomData,
        }
    }

    /// A slot lending `storage` shared only.
    pub(crate) fn shared(storage: &'w AnyStorage) -> Self {
        let erased = storage.erased();
        ErasedSlot {
            component: storage.component(),
            lending: Lending::new(erased.cast(), false),
            erased,
            life: PhantomData,
        }
    }

    /// The lending, checked to be of a `Storage<T>`.
    ///
    /// # Panics
    /// Panics if the slot's storage is not a `Storage<T>` (the world keeps one slot per
    /// type, found through its type map).
    #[inline]
    fn of<T: Component>(&mut self) -> &mut Lending {
        assert!(
            self.component == TypeId::of::<T>(),
            "a storage's slot holds its type"
        );
        &mut self.lending
    }

    /// The values of the storage of `T`, mutably; see [`Slot::take_mut`].
    ///
    /// # Errors
    /// [`AccessError::Conflict`] if the storage was lent before.
    ///
    /// # Panics
    /// As [`of`](Self::of).
    pub(crate) fn take_mut<T: Component>(&mut self) -> Result<StorageMut<'w, T>, AccessError> {
        // SAFETY: the slot was made from a borrow of a storage for `'w`, a `Storage<T>`
        // (checked by `of`).
        unsafe { self.of::<T>().take_mut() }
    }

    /// The storage of `T`, mutably whole (for a sort); the slot lends nothing more.
    ///
    /// # Errors
    /// [`AccessError::Conflict`] if anything of the storage was lent before.
    ///
    /// # Panics
    /// As [`of`](Self::of).
    pub(crate) fn take_whole_mut<T: Component>(
        &mut self,
    ) -> Result<&'w mut Storage<T>, AccessError> {
        // SAFETY: as in `take_mut`.
        unsafe { self.of::<T>().take_whole_mut() }
    }

    /// The storage of `T`, shared; see [`Slot::take_shared`].
    ///
    /// # Errors
    /// [`AccessError::Conflict`] if the storage was lent mutably.
    ///
    /// # Panics
    /// As [`of`](Self::of).
    pub(crate) fn take_shared<T: Component>(&mut self) -> Result<&'w Storage<T>, AccessError> {
        // SAFETY: as in `take_mut`.
        unsafe { self.of::<T>().take_shared() }
    }

    /// The entity set of the storage of `T`; see [`Slot::set`].
    ///
    /// # Panics
    /// As [`of`](Self::of).
    pub(crate) fn set<T: Component>(&mut self) -> Result<&'w SparseSet, AccessError> {
        // SAFETY: as in `take_mut`.
        unsafe { self.of::<T>().set::<T>() }
    }

    /// As [`Slot::change_ticks`].
    ///
    /// # Panics
    /// As [`of`](Self::of).
    pub(crate) fn change_ticks<T: Component>(&mut self) -> Option<Arc<ChangeTicks>> {
        // SAFETY: as in `take_mut`.
        unsafe { self.of::<T>().change_ticks::<T>() }
    }

    /// As [`Slot::reborrow`].
    pub(crate) fn reborrow(&mut self) -> ErasedSlot<'_> {
        ErasedSlot {
            lending: self.lending.reborrow(),
            erased: self.erased,
            component: self.component,
            life: PhantomData,
        }
    }

    /// As [`Slot::split`], the part's writes and reads given as the `TypeId`s of their
    /// component types.
    pub(crate) fn split(&mut self, writes: &[TypeId], reads: &[TypeId]) -> ErasedSlot<'w> {
        let (write, read) = (
            writes.contains(&self.component),
            reads.contains(&self.component),
        );
        ErasedSlot {
            lending: self.lending.split(write, read),
            erased: self.erased,
            component: self.component,
            life: PhantomData,
        }
    }

    /// As [`Slot::stamp_at`].
    pub(crate) fn stamp_at(&self, at: u32) {
        if self.lending.lent == Lent::Free {
            // SAFETY: `Free`: nothing of the storage is lent mutably (a part of a split
            // world stamps between its systems, when what they took is returned), so it
            // may be borrowed shared for this call, beside shared lends of its set.
            let storage = unsafe { self.erased.as_ref() };
            if let Some(ticks) = storage.change_ticks() {
                ticks.stamp_lent_at(at);
            }
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
    /// The storage's values, mutably; see [`Slot::take_mut`].
    ///
    /// # Errors
    /// [`AccessError::Conflict`] if the storage was lent before.
    #[inline(always)]
    pub(crate) fn take_mut(self) -> Result<StorageMut<'w, T>, AccessError> {
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

    /// The storage's entity set, whatever else was lent; see [`Slot::set`].
    ///
    /// # Errors
    /// [`AccessError::Conflict`] if the whole storage was lent mutably (a sort).
    #[inline(always)]
    pub(crate) fn set(self) -> Result<&'w SparseSet, AccessError> {
        match self.0 {
            Either::Typed(slot) => slot.set(),
            Either::Erased(slot) => slot.set::<T>(),
        }
    }

    /// The storage's change stamps; see [`Slot::change_ticks`].
    ///
    /// # Errors
    /// [`AccessError::NotTracked`] if the storage is untracked.
    pub(crate) fn change_ticks(self) -> Result<Arc<ChangeTicks>, AccessError> {
        match self.0 {
            Either::Typed(slot) => slot.change_ticks(),
            Either::Erased(slot) => slot.change_ticks::<T>(),
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

    /// As [`Slot::reborrow`].
    #[inline(always)]
    pub fn reborrow(&mut self) -> ResourceSlot<'_, R> {
        ResourceSlot {
            state: self.state.reborrow(),
        }
    }

    /// As [`Slot::split`]; without `write` or `read`, the slot of the other part lends
    /// nothing.
    pub fn split(&mut self, write: bool, read: bool) -> ResourceSlot<'w, R> {
        ResourceSlot {
            state: self.state.split(write, read),
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

    /// As [`ResourceSlot::reborrow`].
    pub(crate) fn reborrow(&mut self) -> ErasedResourceSlot<'_> {
        ErasedResourceSlot {
            state: self.state.reborrow(),
        }
    }

    /// As [`ResourceSlot::split`].
    pub(crate) fn split(&mut self, write: bool, read: bool) -> ErasedResourceSlot<'w> {
        ErasedResourceSlot {
            state: self.state.split(write, read),
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

    /// The set is lent beside the values lent mutably, in either order, and both are used
    /// at once (Miri runs this: the set and the values are separate fields of the storage,
    /// never covered by one mutable reference).
    #[test]
    fn a_slot_lends_its_set_beside_its_values() {
        let [a, b] = [0, 1].map(|i| Entity::from_raw_parts(i, 1).unwrap());
        let mut storage = Storage::new();
        storage.insert(a, 7u32);
        storage.insert(b, 8u32);
        storage.track();
        for set_first in [true, false] {
            let mut slot = Slot::new(&mut storage);
            let (set, values) = if set_first {
                let set = slot.set().unwrap();
                (set, slot.take_mut().ok().unwrap())
            } else {
                let values = slot.take_mut().ok().unwrap();
                (slot.set().unwrap(), values)
            };
            assert!(slot.change_ticks().is_some(), "stamps beside the values");
            let again = slot.set().unwrap();
            let (lookup, values, _) = values.split();
            for entity in [a, b] {
                let position = set.index_of(entity).unwrap();
                values[position] += 1;
                assert_eq!(again.index_of(entity), Some(position));
                assert_eq!(lookup.index_of(entity), Some(position));
            }
            assert!(
                slot.take_shared().is_err(),
                "values lent mutably: not shared"
            );
        }
        assert_eq!(storage.get(a), Some(&9));
        assert_eq!(storage.get(b), Some(&10));
    }

    /// A slot split for a part that writes the storage lends that part its values, and
    /// itself only the set; a reborrow lends again once its borrow ends; a split for a
    /// part that reads it leaves both shared (Miri runs this).
    #[test]
    fn a_split_slot_lends_its_values_to_the_part_and_reborrows_lend_again() {
        let e = Entity::from_raw_parts(0, 1).unwrap();
        let mut storage = Storage::new();
        storage.insert(e, 1u32);
        let mut slot = Slot::new(&mut storage);
        let mut part = slot.split(true, false);
        assert!(slot.take_mut().is_err() && slot.take_shared().is_err());
        let set = slot.set().unwrap();
        for add in [10, 100] {
            let mut reborrowed = part.reborrow();
            let (lookup, values, _) = reborrowed.take_mut().ok().unwrap().split();
            values[lookup.index_of(e).unwrap()] += add;
            assert!(reborrowed.take_mut().is_err(), "once per reborrow");
            assert_eq!(set.index_of(e), Some(0));
        }
        assert!(
            part.take_shared().is_ok(),
            "the part lends shared after its reborrows"
        );
        assert!(
            part.split(true, false).take_mut().is_err(),
            "lent shared: not split mutably"
        );
        let mut slot = Slot::new(&mut storage);
        let mut read = slot.split(false, true);
        assert_eq!(read.take_shared().unwrap().get(e), Some(&111));
        assert!(slot.take_mut().is_err() && slot.take_shared().is_ok());
        let mut neither = slot.split(false, false);
        assert!(neither.take_shared().is_err() && neither.set().is_ok());
    }

    /// A slot lent whole (a sort, which moves the set) lends nothing more, and one whose
    /// set is lent is never lent whole.
    #[test]
    fn a_slot_lent_whole_lends_nothing_else() {
        struct Hp;
        impl Component for Hp {}
        let mut storage = AnyStorage::new(Storage::<Hp>::new());
        let mut slot = ErasedSlot::new(&mut storage);
        assert!(slot.take_whole_mut::<Hp>().is_ok());
        assert!(slot.set::<Hp>().is_err());
        assert!(slot.take_shared::<Hp>().is_err() && slot.take_mut::<Hp>().is_err());
        let mut slot = ErasedSlot::new(&mut storage);
        assert!(slot.set::<Hp>().is_ok());
        assert!(slot.take_whole_mut::<Hp>().is_err(), "the set is lent");
        assert!(slot.take_mut::<Hp>().is_ok(), "its values are not");
    }
}
