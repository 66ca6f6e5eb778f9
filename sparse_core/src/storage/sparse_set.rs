//! A set of entities: a paged sparse array plus a dense array of the members.

use core::num::NonZeroU32;

use super::order::{DenseOrder, OrderNames};
use super::sparse_array::{Cursor, SparseArray};
use crate::entity::Entity;

/// A set of entities with O(1) insert, membership, position lookup, removal and clear,
/// and iteration over a packed array.
///
/// ```text
/// index  :   0   1   2   3   4   5
/// sparse : [ · | 2 | · | 0 | · | 1 ]   position of each index's member in `dense`;
///                                      `·` = no member (no page, or an empty entry)
/// dense  : [ e3 | e5 | e1 ]            the members, packed
/// ```
///
/// Invariant: the two arrays are exact images of each other. For every position
/// `p < dense.len()`, `sparse[dense[p].index()] == p`, and every other index reads as no
/// member; an index holds at most one version at a time. Absence is therefore known from
/// the sparse array alone, and two members never share a position, which is what lets a
/// lookup for iteration skip the dense array (a set cursor's `member`). Removal clears the
/// removed index's entry; [`clear`](SparseSet::clear) is still O(1) (the sparse array
/// starts a new epoch, see its docs).
///
/// Membership is by exact handle: `contains` is false for another version of a member's
/// index.
///
/// ```
/// use sparse_core::{Entity, SparseSet};
/// let [a, b] = [1, 2].map(|i| Entity::from_raw_parts(i, 1).unwrap());
/// let mut set = SparseSet::new();
/// assert!(set.insert(a) && set.insert(b) && !set.insert(a));
/// assert_eq!(set.index_of(b), Some(1));
/// assert_eq!(set.remove(a), Some(0));
/// assert_eq!(set.as_slice(), &[b]);
/// set.clear();
/// assert!(set.is_empty() && !set.contains(b));
/// ```
///
/// A set also names the order its dense array holds (`DenseOrder`): every change to the
/// dense array forgets the name, and only a change made to several sets at once, from one
/// order, gives them a shared one (see `storage/order.rs`).
#[derive(Default)]
pub struct SparseSet {
    sparse: SparseArray,
    dense: Vec<Entity>,
    /// The name of the dense order, [`DenseOrder::UNKNOWN`] since the last change that was
    /// not made to other sets too.
    order: DenseOrder,
    names: OrderNames,
}

impl Clone for SparseSet {
    /// The same members in the same order: a clone shares its original's order name, and
    /// gives out names of its own.
    fn clone(&self) -> Self {
        SparseSet {
            sparse: self.sparse.clone(),
            dense: self.dense.clone(),
            order: self.order,
            names: OrderNames::new(),
        }
    }
}

impl SparseSet {
    /// An empty set.
    pub fn new() -> Self {
        Self::default()
    }

    /// An empty set whose dense array has room for `capacity` entities.
    pub fn with_capacity(capacity: usize) -> Self {
        SparseSet {
            dense: Vec::with_capacity(capacity),
            ..SparseSet::default()
        }
    }

    /// The number of members.
    #[inline]
    pub fn len(&self) -> usize {
        self.dense.len()
    }

    /// Whether the set has no member.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.dense.is_empty()
    }

    /// The number of members the dense array can hold without growing.
    pub fn capacity(&self) -> usize {
        self.dense.capacity()
    }

    /// The members, packed, in their current order.
    #[inline]
    pub fn as_slice(&self) -> &[Entity] {
        &self.dense
    }

    /// Iterates over the members in dense order.
    pub fn iter(&self) -> core::slice::Iter<'_, Entity> {
        self.dense.iter()
    }

    /// The dense position of `entity`, if it is a member (this exact version).
    #[inline(always)]
    pub fn index_of(&self, entity: Entity) -> Option<usize> {
        let position = self.sparse.get(entity.index())? as usize;
        (self.dense.get(position) == Some(&entity)).then_some(position)
    }

    /// A reader for many lookups in a row (see [`SetCursor`]).
    #[inline]
    pub(crate) fn cursor(&self) -> SetCursor<'_> {
        self.cursor_within(self.dense.len())
    }

    /// A reader that sees the members at positions below `len` only: its lookups find no
    /// position past it (what a column of `len` values needs to index without a check).
    #[inline]
    pub(crate) fn cursor_within(&self, len: usize) -> SetCursor<'_> {
        SetCursor {
            sparse: self.sparse.cursor(),
            dense: &self.dense[..len.min(self.dense.len())],
            // A prefix of the members is in no order another set was named with.
            order: if len >= self.dense.len() {
                self.order()
            } else {
                DenseOrder::UNKNOWN
            },
        }
    }

    /// Whether `entity` (this exact version) is a member.
    #[inline(always)]
    pub fn contains(&self, entity: Entity) -> bool {
        self.index_of(entity).is_some()
    }

    /// The position of whatever version of `entity`'s index is a member: its sparse
    /// entry alone (they are exact).
    #[inline]
    pub(crate) fn index_of_slot(&self, entity: Entity) -> Option<usize> {
        let position = self.sparse.get(entity.index())? as usize;
        debug_assert_eq!(
            self.dense[position].index(),
            entity.index(),
            "exact entries"
        );
        Some(position)
    }

    /// Adds `entity` at the end of the dense array. Returns `false`, changing nothing, if
    /// it is already a member. If another version of its index is a member, that version
    /// is dead (versions only grow): `entity` takes its place (an index holds at most one
    /// version at a time) and `true` is returned.
    ///
    /// # Panics
    /// Panics if the set already holds `u32::MAX` members.
    pub fn insert(&mut self, entity: Entity) -> bool {
        match self.index_of_slot(entity) {
            Some(position) if self.dense[position] == entity => false,
            Some(position) => {
                self.replace_at(position, entity);
                true
            }
            None => {
                self.push_unchecked(entity);
                true
            }
        }
    }

    /// Appends a non-member. Callers guarantee that no version of its index is a member
    /// (`index_of_slot` is `None`): the set would hold one index twice otherwise.
    #[inline(always)]
    pub(crate) fn push_unchecked(&mut self, entity: Entity) {
        self.order.forget();
        debug_assert!(self.index_of_slot(entity).is_none(), "a new member");
        let position = self.dense.len();
        if position >= u32::MAX as usize {
            full();
        }
        self.sparse.set(entity.index(), position as u32);
        self.dense.push(entity);
    }

    /// Appends `entities`, of whose indices no version may be a member already nor appear
    /// twice among them, in one pass (sparse entries a page at a time). Nothing is trusted:
    /// each entry is checked empty before it is written, which costs one read of the line
    /// being written.
    ///
    /// # Errors
    /// The first entity whose index is a member already (or earlier in `entities`); the
    /// set is then as it was.
    ///
    /// # Panics
    /// Panics if the set would hold more than `u32::MAX - 1` members.
    pub(crate) fn append_new(&mut self, entities: &[Entity]) -> Result<(), Entity> {
        self.order.forget();
        let base = self.dense.len();
        assert!(
            base + entities.len() < u32::MAX as usize,
            "sparse set is full: it holds `u32::MAX` members"
        );
        if let [entity] = *entities {
            // One spawned entity: no run to walk.
            if self.index_of_slot(entity).is_some() {
                return Err(entity);
            }
            self.push_unchecked(entity);
            return Ok(());
        }
        // A repeat within the batch is found like any member: by its entry, written
        // already.
        let written = self.sparse.set_consecutive(entities, base as u32);
        match written {
            Ok(()) => {
                self.dense.extend_from_slice(entities);
                Ok(())
            }
            Err(count) => {
                // The entries written so far were empty: they are again.
                for entity in &entities[..count] {
                    self.sparse.unset(entity.index());
                }
                Err(entities[count])
            }
        }
    }

    /// Replaces the member at `position` by `entity` (another version of the same index).
    pub(crate) fn replace_at(&mut self, position: usize, entity: Entity) {
        self.order.forget();
        debug_assert_eq!(self.dense[position].index(), entity.index());
        self.dense[position] = entity;
    }

    /// Removes `entity` by moving the last member into its place. Returns the position it
    /// occupied, or `None` if it was not a member.
    pub fn remove(&mut self, entity: Entity) -> Option<usize> {
        let position = self.index_of(entity)?;
        self.swap_remove_at(position);
        Some(position)
    }

    /// Puts `entity` (a member further on, about to be dropped from there) at `position`,
    /// for in-order compaction.
    #[inline]
    pub(crate) fn replace_member(&mut self, position: usize, entity: Entity) {
        self.order.forget();
        self.dense[position] = entity;
        self.sparse.set(entity.index(), position as u32);
    }

    /// Forgets the sparse entry of `entity`'s index, whose member a compaction is
    /// removing (see [`cut`](Self::cut)).
    #[inline]
    pub(crate) fn forget(&mut self, entity: Entity) {
        self.order.forget();
        self.sparse.unset(entity.index());
    }

    /// Keeps the first `len` positions of the dense array, the end of a compaction: every
    /// member past them was moved forward (and re-pointed) or forgotten already.
    pub(crate) fn cut(&mut self, len: usize) {
        self.order.forget();
        self.dense.truncate(len);
    }

    /// Removes the member at `position`, moving the last member there. Always inlined:
    /// it is most of a storage's removal, which group maintenance inlines in turn.
    #[inline(always)]
    pub(crate) fn swap_remove_at(&mut self, position: usize) -> Entity {
        self.order.forget();
        let removed = self.dense.swap_remove(position);
        self.sparse.unset(removed.index());
        if position < self.dense.len() {
            self.repoint(position);
        }
        removed
    }

    /// Swaps the members at two dense positions, keeping the sparse array in step.
    ///
    /// # Panics
    /// Panics if either position is out of bounds.
    #[inline(always)]
    pub fn swap(&mut self, a: usize, b: usize) {
        self.order.forget();
        if a == b {
            assert!(a < self.dense.len(), "swap position out of bounds");
            return;
        }
        self.dense.swap(a, b);
        self.repoint(a);
        self.repoint(b);
    }

    /// Points the sparse entry of the member at `position` back to it (members' pages
    /// exist, so `set` never allocates here).
    #[inline(always)]
    fn repoint(&mut self, position: usize) {
        self.sparse
            .set(self.dense[position].index(), position as u32);
    }

    /// Swaps the members at two positions that the caller has checked are in bounds,
    /// without re-checking them.
    ///
    /// # Safety
    /// `a < self.len()` and `b < self.len()`.
    #[inline(always)]
    pub(crate) unsafe fn swap_unchecked(&mut self, a: usize, b: usize) {
        self.order.forget();
        debug_assert!(a < self.dense.len() && b < self.dense.len());
        let dense = self.dense.as_mut_ptr();
        // SAFETY: the caller guarantees both positions are in bounds of `dense`; `ptr::swap`
        // allows `a == b`.
        let (at_a, at_b) = unsafe {
            core::ptr::swap(dense.add(a), dense.add(b));
            (*dense.add(a), *dense.add(b))
        };
        self.sparse.set(at_a.index(), a as u32);
        self.sparse.set(at_b.index(), b as u32);
    }

    /// Removes every member in O(1): the dense array is truncated and the sparse array
    /// starts a new epoch, in which every entry reads as no member.
    pub fn clear(&mut self) {
        self.order.forget();
        self.sparse.clear();
        self.dense.clear();
    }

    /// Sorts the members with `compare`, then rewrites their sparse entries: the
    /// two-array case of the sorting article.
    pub fn sort_by(&mut self, mut compare: impl FnMut(&Entity, &Entity) -> core::cmp::Ordering) {
        self.order.forget();
        /// Rewrites the sparse entries even if `compare` panics: the set stays
        /// consistent (in some order).
        struct Reindex<'a>(&'a mut SparseSet);
        impl Drop for Reindex<'_> {
            fn drop(&mut self) {
                self.0.reindex(0..self.0.dense.len());
            }
        }
        let guard = Reindex(self);
        guard.0.dense.sort_unstable_by(&mut compare);
    }

    /// Sorts the dense array with `compare` over the members' *current* positions, which
    /// the sparse array keeps answering during the sort (it is not touched).
    pub(crate) fn sort_dense_by_sparse(
        &mut self,
        mut compare: impl FnMut(usize, usize) -> core::cmp::Ordering,
    ) {
        self.order.forget();
        /// If `compare` panics, puts the dense array back in its old order, which the
        /// untouched sparse array still records.
        struct Restore<'a> {
            set: &'a mut SparseSet,
            finished: bool,
        }
        impl Drop for Restore<'_> {
            fn drop(&mut self) {
                if !self.finished {
                    let sparse = &self.set.sparse;
                    self.set
                        .dense
                        .sort_unstable_by_key(|e| sparse.get(e.index()));
                }
            }
        }
        let mut guard = Restore {
            set: self,
            finished: false,
        };
        let set = &mut *guard.set;
        let sparse = &set.sparse;
        let position = |e: &Entity| sparse.get(e.index()).unwrap_or(0) as usize;
        set.dense
            .sort_unstable_by(|a, b| compare(position(a), position(b)));
        guard.finished = true;
    }

    /// Sorts the dense array with `compare` over the members' current positions, each
    /// member carrying its position in place of its version while the sort runs (the
    /// versions wait in the sparse array). Returns the tagged set: `tagged.source(p)` is
    /// the old position of the member now at `p`. Dropping it restores versions and
    /// sparse entries; if `compare` panicked (the only way it is dropped before
    /// `finish`, since nothing else in the walk can panic), the dense array is first put
    /// back in its old order.
    pub(crate) fn sort_tagged(
        &mut self,
        mut compare: impl FnMut(usize, usize) -> core::cmp::Ordering,
    ) -> TaggedSet<'_> {
        self.order.forget();
        for (position, entity) in self.dense.iter_mut().enumerate() {
            self.sparse.set_scratch(entity.index(), entity.version());
            // Positions are below `u32::MAX` (`push_unchecked` caps the length), so `+ 1`
            // fits and is never zero.
            *entity = entity.with_version(NonZeroU32::MIN.saturating_add(position as u32));
        }
        let tagged = TaggedSet {
            set: self,
            finished: false,
        };
        tagged
            .set
            .dense
            .sort_unstable_by(|a, b| compare(a.version() as usize - 1, b.version() as usize - 1));
        tagged
    }

    /// Reserves room for `additional` more members in the dense array.
    pub fn reserve(&mut self, additional: usize) {
        self.dense.reserve(additional);
    }

    /// Reserves room for `additional` more members if the allocator grants it (a spawn's
    /// size hint may be absurd: the array then grows as members arrive).
    pub(crate) fn try_reserve(&mut self, additional: usize) {
        let _ = self.dense.try_reserve(additional);
    }

    /// Bytes of heap memory held (sparse tables plus dense capacity).
    pub fn heap_bytes(&self) -> usize {
        self.sparse.heap_bytes() + self.dense.capacity() * size_of::<Entity>()
    }

    /// The name of the order the dense array holds (see [`DenseOrder`]).
    #[inline]
    pub(crate) fn order(&self) -> DenseOrder {
        if self.dense.is_empty() {
            DenseOrder::EMPTY
        } else {
            self.order
        }
    }

    /// Names the dense order anew, with a name no set held before, and returns it: the
    /// first of several sets that one change left holding the same entities in the same
    /// order, from one order (see [`take_order`](Self::take_order)).
    pub(crate) fn new_order(&mut self) -> DenseOrder {
        self.order = self.names.fresh();
        self.order
    }

    /// Takes `name`, the order another set was given by [`new_order`](Self::new_order).
    ///
    /// The caller made the same change to both sets, from one order (or from empty), and
    /// nothing else since: the same entities appended in the same order. A name is an
    /// optimisation's evidence only (a view reading one set by another's positions checks
    /// their lengths), so a wrong call costs the values' correctness, never memory safety.
    pub(crate) fn take_order(&mut self, name: DenseOrder) {
        self.order = name;
    }

    /// The position recorded for `entity`'s index, for cycle walks that use the sparse
    /// array as scratch (and re-point every member before they return).
    #[inline]
    pub(crate) fn sparse_position(&self, entity: Entity) -> usize {
        self.sparse.get(entity.index()).unwrap_or(0) as usize
    }

    #[inline]
    pub(crate) fn set_sparse_position(&mut self, entity: Entity, position: usize) {
        self.sparse.set(entity.index(), position as u32);
    }

    /// Rearranges the members at `[start, start + n)`, `n` the length of `sources`, so
    /// that position `start + i` receives what was at the `i`-th item of `sources`, and
    /// re-points their sparse entries.
    ///
    /// `sources` must be a permutation of that range (callers build it from positions).
    pub(crate) fn gather(&mut self, start: usize, sources: impl ExactSizeIterator<Item = usize>) {
        self.order.forget();
        let range = start..start + sources.len();
        let gathered: Vec<Entity> = sources.map(|s| self.dense[s]).collect();
        if range.len() == self.dense.len() {
            // The whole set moves: the gathered array replaces the dense one.
            self.dense = gathered;
        } else {
            self.dense[range.clone()].copy_from_slice(&gathered);
        }
        self.reindex(range);
    }

    /// [`gather`](Self::gather) of the whole set by the sources `pairs[i].1`, a
    /// permutation of the positions, with the pairs' first halves (no longer needed) as
    /// the scratch: each source entity is written there, then back into the dense array,
    /// which keeps its memory.
    pub(crate) fn gather_through(&mut self, pairs: &mut [(u64, u32)]) {
        self.order.forget();
        assert_eq!(pairs.len(), self.dense.len(), "a gather of the whole set");
        for pair in pairs.iter_mut() {
            let entity = self.dense[pair.1 as usize];
            pair.0 = u64::from(entity.index()) | u64::from(entity.version()) << 32;
        }
        for (slot, &(bits, _)) in self.dense.iter_mut().zip(pairs.iter()) {
            *slot = Entity::from_raw_parts(bits as u32, (bits >> 32) as u32)
                .expect("the bits of a member");
        }
        self.reindex(0..self.dense.len());
    }

    /// Rewrites the sparse entries of the members in `range` from the dense array.
    pub(crate) fn reindex(&mut self, range: core::ops::Range<usize>) {
        for position in range {
            self.sparse
                .set(self.dense[position].index(), position as u32);
        }
    }

    /// Checks the sparse ↔ dense agreement: every member mapped back, and no entry for an
    /// index no member has (which also rules out an index twice).
    pub fn check(&self) -> Result<(), String> {
        for (position, &entity) in self.dense.iter().enumerate() {
            if self.index_of(entity) != Some(position) {
                return Err(format!(
                    "{entity:?} at dense {position} is not mapped back by the sparse array"
                ));
            }
        }
        let present = self.sparse.present();
        if present != self.dense.len() {
            return Err(format!(
                "the sparse array has {present} entries for {} members",
                self.dense.len()
            ));
        }
        Ok(())
    }
}

/// Lookups in a set, keeping the last sparse page used: a run of lookups of nearby
/// indices, like a group's members, skips the page table.
///
/// Two kinds of lookup: [`index_of`](Self::index_of) confirms the exact handle against the
/// dense array, for an entity from anywhere; [`member`](Self::member) reads the sparse
/// entry alone, for an entity walked from another set of the same world (alive, so the
/// member with its index can only be itself). The second cannot alias: entries are exact,
/// so different indices never share a position.
#[derive(Clone)]
pub struct SetCursor<'a> {
    sparse: Cursor<'a>,
    dense: &'a [Entity],
    /// The name of the order `dense` is in.
    order: DenseOrder,
}

impl<'a> SetCursor<'a> {
    /// The members, in dense order.
    #[inline(always)]
    pub(crate) fn dense(&self) -> &'a [Entity] {
        self.dense
    }

    /// The name of the order of [`dense`](Self::dense) (see [`DenseOrder`]).
    #[inline(always)]
    pub(crate) fn order(&self) -> DenseOrder {
        self.order
    }

    /// The dense position of `entity`, if it is a member: its sparse entry, confirmed by
    /// the dense array.
    #[inline(always)]
    pub(crate) fn index_of(&mut self, entity: Entity) -> Option<usize> {
        let position = self.sparse.position(entity.index());
        (self.dense.get(position) == Some(&entity)).then_some(position)
    }

    /// The dense position of the member with `entity`'s index, if any: its sparse entry
    /// alone, without a read of the dense array. For entities walked from another set of
    /// the same world (see the type's docs); whatever the entity, a position is below the
    /// cursor's length and belongs to one index only.
    #[inline(always)]
    pub(crate) fn member(&mut self, entity: Entity) -> Option<usize> {
        let position = self.sparse.position(entity.index());
        (position < self.dense.len()).then_some(position)
    }

    /// How many of `walked`, from the first, the set certainly lacks by the page the
    /// cursor holds (see [`Cursor::absent_prefix`]).
    #[inline(always)]
    pub(crate) fn absent_prefix(&self, walked: &[Entity]) -> usize {
        self.sparse.absent_prefix(walked)
    }
}

#[cold]
#[inline(never)]
fn full() -> ! {
    panic!("sparse set is full: it holds `u32::MAX` members")
}

/// A sparse set in the middle of a mixed sort (see [`SparseSet::sort_tagged`]).
pub(crate) struct TaggedSet<'a> {
    set: &'a mut SparseSet,
    finished: bool,
}

impl TaggedSet<'_> {
    /// The old position of the member now at `position`, or `position` itself once it has
    /// been marked placed.
    #[inline]
    pub(crate) fn source(&self, position: usize) -> usize {
        self.set.dense[position].version() as usize - 1
    }

    /// Marks `position` as placed.
    #[inline]
    pub(crate) fn mark_placed(&mut self, position: usize) {
        let entity = &mut self.set.dense[position];
        *entity = entity.with_version(NonZeroU32::MIN.saturating_add(position as u32));
    }

    /// Declares the other arrays permuted: dropping now keeps the new order.
    pub(crate) fn finish(mut self) {
        self.finished = true;
    }
}

impl Drop for TaggedSet<'_> {
    fn drop(&mut self) {
        let set = &mut *self.set;
        if !self.finished {
            // The comparator panicked: no other array has moved yet and every member
            // still carries its old position, so sorting by it restores the old order.
            set.dense.sort_unstable_by_key(|e| e.version());
        }
        for position in 0..set.dense.len() {
            let entity = set.dense[position];
            let version =
                NonZeroU32::new(set.sparse.scratch(entity.index())).unwrap_or(NonZeroU32::MIN);
            set.dense[position] = entity.with_version(version);
            set.sparse.set(entity.index(), position as u32);
        }
    }
}

impl core::fmt::Debug for SparseSet {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_set().entries(&self.dense).finish()
    }
}

impl<'a> IntoIterator for &'a SparseSet {
    type Item = &'a Entity;
    type IntoIter = core::slice::Iter<'a, Entity>;
    fn into_iter(self) -> Self::IntoIter {
        self.dense.iter()
    }
}

impl FromIterator<Entity> for SparseSet {
    fn from_iter<I: IntoIterator<Item = Entity>>(iter: I) -> Self {
        let mut set = SparseSet::new();
        set.extend(iter);
        set
    }
}

impl Extend<Entity> for SparseSet {
    fn extend<I: IntoIterator<Item = Entity>>(&mut self, iter: I) {
        for entity in iter {
            self.insert(entity);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn e(index: u32, version: u32) -> Entity {
        Entity::from_raw_parts(index, version).unwrap()
    }

    #[test]
    fn swap_and_pop_keeps_the_mapping() {
        let mut set = SparseSet::new();
        set.extend([e(3, 1), e(9, 1), e(4, 1)]);
        assert_eq!(set.remove(e(3, 1)), Some(0));
        assert_eq!(set.as_slice(), &[e(4, 1), e(9, 1)]);
        assert_eq!(set.index_of(e(4, 1)), Some(0));
        assert_eq!(set.remove(e(3, 1)), None, "absent member");
        set.check().unwrap();
    }

    #[test]
    fn other_versions_are_not_members() {
        let mut set = SparseSet::new();
        set.insert(e(3, 1));
        assert!(!set.contains(e(3, 2)));
        assert_eq!(set.remove(e(3, 2)), None);
        assert_eq!(set.index_of_slot(e(3, 2)), Some(0));
    }

    #[test]
    fn clear_is_truncation_and_stale_entries_are_rejected() {
        let mut set = SparseSet::new();
        set.extend([e(1, 1), e(2, 1)]);
        set.clear();
        assert!(!set.contains(e(1, 1)) && !set.contains(e(2, 1)));
        set.insert(e(2, 1));
        assert!(
            !set.contains(e(1, 1)),
            "stale sparse entry 0 now points at e2"
        );
        assert_eq!(set.index_of(e(2, 1)), Some(0));
        set.check().unwrap();
    }

    #[test]
    fn swap_and_sort_keep_the_mapping() {
        let mut set = SparseSet::new();
        set.extend([5, 1, 4, 2].map(|i| e(i, 1)));
        set.swap(0, 3);
        set.check().unwrap();
        set.sort_by(|a, b| a.index().cmp(&b.index()));
        assert_eq!(set.as_slice(), &[1, 2, 4, 5].map(|i| e(i, 1)));
        set.check().unwrap();
    }

    #[test]
    fn indices_up_to_two_to_the_31_stay_small() {
        let mut set = SparseSet::new();
        for i in 0..3u32 {
            set.insert(e(i << 29, 1));
        }
        assert!(set.heap_bytes() < 64 * 1024, "{} bytes", set.heap_bytes());
        set.check().unwrap();
    }
}
