//! A storage lent mutably for its values, its entity set shared: what a view's `&mut T`, a
//! group's storages and `ValuesMut` are made from.
//!
//! ```text
//! Storage<T>:  set        [e3|e5|e1]  + sparse     shared: never changes while lent
//!              components [T3|T5|T1]               mutable
//!              ticks      stamps (atomics)         shared: marked through atomics
//! ```
//!
//! While a world is split into parts, nothing changes which entities a storage holds or
//! where (structure changes only through `&mut` to the world, which the parts borrow), so
//! a storage's set may be read by other parts (`With<T>`, `Without<T>`) while its values
//! are lent mutably to one part. The lend is made of the storage's fields one by one,
//! never of a `&mut Storage<T>` covering the set.
//!
//! # Safety
//! [`StorageMut::from_raw`], [`set_from_raw`] and [`ticks_from_raw`] project a pointer to a storage onto its
//! fields: the set and the stamps shared, the components mutably. A slot that lends from
//! a pointer (see `lend/slot.rs`) makes no other reference to the components while the
//! values are lent, and no mutable reference to the set or the stamps while any lend lives.

use core::ptr::NonNull;
use std::sync::Arc;

use super::{ChangeTicks, Marker, PrefixMark, SetCursor, SparseSet, Storage, Ticks};
use crate::entity::Entity;

/// A storage lent mutably for its values (see the module docs). Opaque outside this crate.
#[doc(hidden)]
pub struct StorageMut<'w, T> {
    set: &'w SparseSet,
    components: &'w mut [T],
    ticks: &'w Ticks,
}

impl<T> Storage<T> {
    /// The storage lent for its values.
    #[inline(always)]
    pub(crate) fn lend_mut(&mut self) -> StorageMut<'_, T> {
        StorageMut {
            set: &self.set,
            components: &mut self.components,
            ticks: &self.ticks,
        }
    }
}

impl<'w, T> StorageMut<'w, T> {
    /// The storage behind `storage` lent for its values.
    ///
    /// # Safety
    /// `storage` points to a live `Storage<T>` for `'w`, with the right to write its
    /// components; during `'w` nothing else reads or writes its components, and nothing
    /// writes its set or its stamps' handle (shared reads of those may be alive).
    #[inline(always)]
    pub(crate) unsafe fn from_raw(storage: NonNull<Storage<T>>) -> Self {
        let storage = storage.as_ptr();
        // SAFETY: each field is projected on its own, never through a reference to the
        // whole storage: the set and the stamps' handle shared, the components mutably,
        // as the caller allows for `'w`.
        unsafe {
            StorageMut {
                set: &*core::ptr::addr_of!((*storage).set),
                components: (*core::ptr::addr_of_mut!((*storage).components)).as_mut_slice(),
                ticks: &*core::ptr::addr_of!((*storage).ticks),
            }
        }
    }

    /// The entity set (for lookups) and the components, the latter mutably, with how to
    /// stamp them changed.
    #[inline]
    pub(crate) fn split(self) -> (&'w SparseSet, &'w mut [T], Option<Marker<'w>>) {
        (
            self.set,
            self.components,
            self.ticks.as_deref().map(ChangeTicks::marker),
        )
    }

    /// A lookup cursor over the entity set, and the components, the latter mutably: both
    /// cut to the same length, so that a position the cursor finds indexes the components
    /// without a check (they are always the same length, but nothing here trusts it).
    #[inline]
    pub(crate) fn column(self) -> (SetCursor<'w>, &'w mut [T], Option<Marker<'w>>) {
        let len = self.set.len().min(self.components.len());
        (
            self.set.cursor_within(len),
            &mut self.components[..len],
            self.ticks.as_deref().map(ChangeTicks::marker),
        )
    }

    /// The entities and the components of the prefix `[0, len)`, the latter mutably,
    /// unmarked, with how to stamp them changed once they are handed out.
    ///
    /// # Panics
    /// Panics if the storage is shorter than `len`.
    #[inline]
    pub(crate) fn prefix_parts(self, len: usize) -> (&'w [Entity], &'w mut [T], PrefixMark<'w, T>) {
        let entities = &self.set.as_slice()[..len];
        let mark = PrefixMark::new(self.ticks, entities, len == self.components.len());
        (entities, &mut self.components[..len], mark)
    }
}

/// The entity set of the storage behind `storage`.
///
/// # Safety
/// `storage` points to a live `Storage<T>` for `'w`, and nothing writes its set during
/// `'w` (its components may be lent mutably meanwhile: see [`StorageMut::from_raw`]).
#[inline(always)]
pub(crate) unsafe fn set_from_raw<'w, T>(storage: NonNull<Storage<T>>) -> &'w SparseSet {
    // SAFETY: the set's field alone, shared, as the caller allows for `'w`.
    unsafe { &*core::ptr::addr_of!((*storage.as_ptr()).set) }
}

/// The change stamps of the storage behind `storage`, if it is tracked.
///
/// # Safety
/// `storage` points to a live `Storage<T>` for `'w`, and nothing writes its stamps' handle
/// during `'w` (marks write through the atomics it points to, not the handle).
#[inline(always)]
pub(crate) unsafe fn ticks_from_raw<'w, T>(
    storage: NonNull<Storage<T>>,
) -> Option<&'w Arc<ChangeTicks>> {
    // SAFETY: the stamps' field alone, shared, as the caller allows for `'w`.
    let ticks: &'w Ticks = unsafe { &*core::ptr::addr_of!((*storage.as_ptr()).ticks) };
    Option::as_ref(&**ticks)
}
