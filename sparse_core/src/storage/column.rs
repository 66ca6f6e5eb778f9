//! A storage's values borrowed for iteration: what views and groups read and write
//! through. A mutable column hands out `&'w mut T` one position at a time, which is what
//! lets iterators yield references that outlive each call to `next`.

use core::marker::PhantomData;
use core::ptr::NonNull;

use super::{DenseOrder, Marker, SetCursor, Stamp, Storage, StorageMut};
use crate::entity::Entity;

/// A storage's values borrowed mutably for `'w`, with a lookup cursor over its entities.
///
/// Invariant: `values` points at `len` initialized values that nothing else reaches for
/// `'w` (the column was made from a `&'w mut Storage`), and `cursor` reads the same
/// storage's entities, which cannot change for `'w` either, cut to `len`: every position
/// it finds indexes a value. Every reference handed out is
/// to one position: callers of [`at`](ColumnMut::at) promise never to hand out the same
/// position twice while the first reference lives.
pub struct ColumnMut<'w, T> {
    cursor: SetCursor<'w>,
    values: NonNull<T>,
    len: usize,
    /// The storage's change stamps, if it is tracked: each value handed out is stamped
    /// changed.
    ticks: Option<Marker<'w>>,
    marker: PhantomData<&'w mut [T]>,
}

// SAFETY: a `ColumnMut` is a `&mut [T]` split into references one position at a time,
// plus shared reads of the entity set; it is `Send` / `Sync` exactly when `&mut [T]` is.
unsafe impl<T: Send> Send for ColumnMut<'_, T> {}
// SAFETY: as above: `&mut [T]` is `Sync` when `T` is.
unsafe impl<T: Sync> Sync for ColumnMut<'_, T> {}

impl<'w, T> ColumnMut<'w, T> {
    /// Borrows the storage's values mutably and its entities for lookups.
    #[inline]
    pub(crate) fn new(storage: StorageMut<'w, T>) -> Self {
        let (cursor, values, ticks) = storage.column();
        ColumnMut {
            cursor,
            len: values.len(),
            values: NonNull::from(values).cast(),
            ticks,
            marker: PhantomData,
        }
    }

    /// The storage's entities, in dense order.
    #[inline(always)]
    pub(crate) fn entities(&self) -> &'w [Entity] {
        self.cursor.dense()
    }

    /// The name of the order [`entities`](Self::entities) are in.
    #[inline(always)]
    pub(crate) fn order(&self) -> DenseOrder {
        self.cursor.order()
    }

    /// Stamps every value changed at once, if the storage is tracked: the column is
    /// about to hand them all out. The values it hands out later need no stamp of
    /// their own.
    #[inline]
    pub(crate) fn mark_all_changed(&mut self) {
        if let Some(ticks) = self.ticks.take() {
            ticks.mark_all();
        }
    }

    /// The value at `position`, for the rest of `'w`.
    ///
    /// # Safety
    /// `position` is below the storage's length, and no other reference to this position obtained from
    /// this column (or a reborrow of it) is alive.
    #[inline(always)]
    pub(crate) unsafe fn at(&self, position: usize) -> &'w mut T {
        if let Some(ticks) = self.ticks {
            // The value is handed out mutably: it counts as changed.
            ticks.mark(self.cursor.dense()[position].index());
        }
        // SAFETY: forwarded (caller).
        unsafe { self.at_unmarked(position) }
    }

    /// Stamps `entity`'s value changed, if the storage is tracked: a caller that handed
    /// it out unmarked ([`at_unmarked`](Self::at_unmarked),
    /// [`member_unmarked`](Self::member_unmarked)) once it knows the value is yielded.
    #[inline(always)]
    pub(crate) fn mark(&self, entity: Entity) {
        if let Some(ticks) = self.ticks {
            ticks.mark(entity.index());
        }
    }

    /// The stamp of `entity`'s value, if the storage is tracked: for a caller that marks
    /// it only when the value is written (a `Mut` guard).
    #[inline(always)]
    pub(crate) fn stamp(&self, entity: Entity) -> Option<Stamp<'w>> {
        self.ticks.and_then(|ticks| ticks.stamp(entity.index()))
    }

    /// The stamp of the value at `position` (see [`stamp`](Self::stamp)).
    ///
    /// # Safety
    /// `position` is below the storage's length.
    #[inline(always)]
    pub(crate) unsafe fn stamp_at(&self, position: usize) -> Option<Stamp<'w>> {
        let ticks = self.ticks?;
        // SAFETY: the cursor's entities are cut to the values' length (type invariant),
        // and `position` is below it (caller).
        ticks.stamp(unsafe { self.cursor.dense().get_unchecked(position) }.index())
    }

    /// The value at `position`, unstamped (see [`mark`](Self::mark)).
    ///
    /// # Safety
    /// As for [`at`](Self::at).
    #[inline(always)]
    pub(crate) unsafe fn at_unmarked(&self, position: usize) -> &'w mut T {
        debug_assert!(position < self.len);
        // SAFETY: in bounds by the caller's promise; the values are initialized and only
        // reachable through this column for `'w` (type invariant), and the caller promises
        // that no other reference to this position is alive.
        unsafe { &mut *self.values.as_ptr().add(position) }
    }

    /// The value of `entity`, if the storage holds it, for the rest of `'w`, unstamped
    /// (see [`mark`](Self::mark)).
    ///
    /// # Safety
    /// No other reference to `entity`'s value obtained from this column is alive.
    ///
    /// The position comes from the dense array, which holds each entity once (the set's
    /// invariant), so distinct entities never share a value; the cursor sees only the
    /// positions the values have (see `Storage::column`).
    #[inline(always)]
    pub(crate) unsafe fn get_unmarked(&mut self, entity: Entity) -> Option<&'w mut T> {
        let position = self.cursor.index_of(entity)?;
        // SAFETY: the cursor's positions are below the values' length (it was cut to
        // it), and aliasing is excluded by the caller.
        Some(unsafe { self.at_unmarked(position) })
    }

    /// The position of the member with `entity`'s index (see [`SetCursor::member`]).
    #[inline(always)]
    pub(crate) fn member_position(&mut self, entity: Entity) -> Option<usize> {
        self.cursor.member(entity)
    }

    /// How many of `walked`, from the first, the storage certainly lacks (see
    /// [`SetCursor::absent_prefix`]).
    #[inline(always)]
    pub(crate) fn absent_prefix(&self, walked: &[Entity]) -> usize {
        self.cursor.absent_prefix(walked)
    }

    /// The value of the member with `entity`'s index, for an entity walked from another
    /// set of the same world (see [`SetCursor::member`]): no read of the dense array. Two
    /// different entities never reach one value, whatever they are.
    ///
    /// # Safety
    /// As for [`get_unmarked`](ColumnMut::get_unmarked).
    #[inline(always)]
    pub(crate) unsafe fn member(&mut self, entity: Entity) -> Option<&'w mut T> {
        // SAFETY: forwarded (caller).
        let value = unsafe { self.member_unmarked(entity) }?;
        self.mark(entity);
        Some(value)
    }

    /// [`member`](Self::member), unstamped (see [`mark`](Self::mark)).
    ///
    /// # Safety
    /// As for [`get_unmarked`](ColumnMut::get_unmarked).
    #[inline(always)]
    pub(crate) unsafe fn member_unmarked(&mut self, entity: Entity) -> Option<&'w mut T> {
        let position = self.cursor.member(entity)?;
        // SAFETY: the cursor's positions are below the values' length (it was cut to
        // it), different indices have different positions (exact entries), and aliasing
        // for one entity is excluded by the caller; the member there has `entity`'s index.
        Some(unsafe { self.at_unmarked(position) })
    }

    /// The column, read through a shared borrow.
    ///
    /// # Safety
    /// No reference obtained from this column is alive, and none is obtained while the
    /// result lives.
    #[inline(always)]
    pub(crate) unsafe fn shared(&self) -> ColumnRef<'_, T> {
        ColumnRef {
            cursor: self.cursor.clone(),
            // SAFETY: `len` initialized values (type invariant), not written while the
            // result lives (caller).
            values: unsafe { core::slice::from_raw_parts(self.values.as_ptr(), self.len) },
        }
    }

    /// Another handle on the same column for all of `'w`: for a worker of a parallel loop,
    /// or for a window of a run of a view's walk read through a copy of its fetch.
    ///
    /// # Safety
    /// The handles never hand out the same position (each worker reaches its own entities),
    /// and the column is not used otherwise while they live.
    #[inline(always)]
    pub(crate) unsafe fn share(&self) -> ColumnMut<'w, T> {
        ColumnMut {
            cursor: self.cursor.clone(),
            values: self.values,
            len: self.len,
            ticks: self.ticks,
            marker: PhantomData,
        }
    }

    /// The same column for a shorter borrow: the original is unusable meanwhile.
    #[inline(always)]
    pub(crate) fn reborrow(&mut self) -> ColumnMut<'_, T> {
        ColumnMut {
            cursor: self.cursor.clone(),
            values: self.values,
            len: self.len,
            ticks: self.ticks,
            marker: PhantomData,
        }
    }
}

/// A storage's values borrowed for `'w`, with a lookup cursor over its entities.
///
/// Invariant: the cursor's entities are cut to the values' length, so every position it
/// finds indexes a value.
pub struct ColumnRef<'w, T> {
    cursor: SetCursor<'w>,
    values: &'w [T],
}

impl<T> Clone for ColumnRef<'_, T> {
    fn clone(&self) -> Self {
        ColumnRef {
            cursor: self.cursor.clone(),
            values: self.values,
        }
    }
}

impl<'w, T> ColumnRef<'w, T> {
    /// Borrows the storage: the cursor and the values cut to the same length, as
    /// [`ColumnMut::new`] does.
    #[inline]
    pub(crate) fn new(storage: &'w Storage<T>) -> Self {
        let len = storage.filed_len();
        ColumnRef {
            cursor: storage.set().cursor_within(len),
            values: &storage.components()[..len],
        }
    }

    /// The storage's entities, in dense order.
    #[inline(always)]
    pub(crate) fn entities(&self) -> &'w [Entity] {
        self.cursor.dense()
    }

    /// The name of the order [`entities`](Self::entities) are in.
    #[inline(always)]
    pub(crate) fn order(&self) -> DenseOrder {
        self.cursor.order()
    }

    /// The value at `position`.
    ///
    /// # Safety
    /// `position` is below the storage's length.
    #[inline(always)]
    pub(crate) unsafe fn at(&self, position: usize) -> &'w T {
        debug_assert!(position < self.values.len());
        // SAFETY: in bounds by the caller's promise.
        unsafe { self.values.get_unchecked(position) }
    }

    /// The value of `entity`, if the storage holds it.
    #[inline(always)]
    pub(crate) fn get(&mut self, entity: Entity) -> Option<&'w T> {
        let position = self.cursor.index_of(entity)?;
        // SAFETY: the cursor's positions are below the values' length (cut to it).
        Some(unsafe { self.values.get_unchecked(position) })
    }

    /// The position of the member with `entity`'s index (see [`SetCursor::member`]).
    #[inline(always)]
    pub(crate) fn member_position(&mut self, entity: Entity) -> Option<usize> {
        self.cursor.member(entity)
    }

    /// How many of `walked`, from the first, the storage certainly lacks (see
    /// [`SetCursor::absent_prefix`]).
    #[inline(always)]
    pub(crate) fn absent_prefix(&self, walked: &[Entity]) -> usize {
        self.cursor.absent_prefix(walked)
    }

    /// The value of the member with `entity`'s index, for an entity walked from another
    /// set of the same world (see [`SetCursor::member`]).
    #[inline(always)]
    pub(crate) fn member(&mut self, entity: Entity) -> Option<&'w T> {
        let position = self.cursor.member(entity)?;
        // SAFETY: the cursor's positions are below the values' length (cut to it).
        Some(unsafe { self.values.get_unchecked(position) })
    }
}

/// A slice borrowed mutably for `'w`, handed out one position at a time: the owned
/// columns of a group being iterated.
///
/// Invariant: `values` points at the start of a `&'w mut [T]` that nothing else reaches
/// for `'w`; its length is kept by the owner (the group's length).
pub struct RawSlice<'w, T> {
    values: NonNull<T>,
    marker: PhantomData<&'w mut [T]>,
}

// SAFETY: a `RawSlice` is a `&mut [T]` split into references one position at a time: it
// is `Send` / `Sync` exactly when `&mut [T]` is.
unsafe impl<T: Send> Send for RawSlice<'_, T> {}
// SAFETY: as above.
unsafe impl<T: Sync> Sync for RawSlice<'_, T> {}

impl<'w, T> RawSlice<'w, T> {
    /// Takes over a mutable slice.
    #[inline(always)]
    pub(crate) fn new(slice: &'w mut [T]) -> Self {
        RawSlice {
            values: NonNull::from(slice).cast(),
            marker: PhantomData,
        }
    }

    /// The value at `position`, for the rest of `'w`.
    ///
    /// # Safety
    /// `position` is below the length of the slice this was made from, and no other
    /// reference to this position obtained from it is alive.
    #[inline(always)]
    pub(crate) unsafe fn at(&self, position: usize) -> &'w mut T {
        // SAFETY: in bounds and unaliased by the caller's promise; the slice is only
        // reachable through this value for `'w` (type invariant).
        unsafe { &mut *self.values.as_ptr().add(position) }
    }

    /// The positions `start..start + len`, for the rest of `'w`.
    ///
    /// # Safety
    /// The range is within the slice this was made from, and no other reference to these
    /// positions obtained from it is alive while the result lives.
    #[inline(always)]
    pub(crate) unsafe fn range(&self, start: usize, len: usize) -> &'w mut [T] {
        // SAFETY: in bounds and unaliased by the caller's promise; the slice is only
        // reachable through this value for `'w` (type invariant).
        unsafe { core::slice::from_raw_parts_mut(self.values.as_ptr().add(start), len) }
    }

    /// The same slice for a shorter borrow.
    #[inline(always)]
    pub(crate) fn reborrow(&mut self) -> RawSlice<'_, T> {
        RawSlice {
            values: self.values,
            marker: PhantomData,
        }
    }
}
