//! Component storage: a paged sparse array, a dense array of entities and a parallel
//! dense array of components, and the ways of sorting them.

mod column;
mod compact;
mod erased;
mod lent;
mod order;
mod sort;
mod sparse_array;
mod sparse_set;
mod ticks;

pub(crate) use column::{ColumnMut, ColumnRef, RawSlice};
pub use compact::Marks;
pub use erased::StorageInfo;
pub(crate) use erased::{AnyStorage, ErasedStorage};
pub use lent::StorageMut;
pub(crate) use lent::{set_from_raw, ticks_from_raw};
#[cfg(test)]
pub(crate) use order::OrderNames;
pub use order::SameChange;
pub(crate) use order::{DenseOrder, Renamed};
pub(crate) use sort::radix_sort_pairs;
pub use sort::{OrdKey, RadixKey};
pub(crate) use sparse_set::SetCursor;
pub use sparse_set::SparseSet;
pub use ticks::StampTest;
use ticks::Ticks;
pub use ticks::{ChangeCount, PrefixMark};
pub(crate) use ticks::{ChangeTicks, Clock, Marker, Stamp};

use std::sync::Arc;

use crate::entity::Entity;

/// Components of type `T` keyed by entity, packed for iteration.
///
/// ```text
/// sparse      : [ · | 2 | · | 0 | · | 1 ]      indexed by entity index (paged, lazy)
///                     │       │       │
/// entities    : [ e3 | e5 | e1 ]                dense, packed
/// components  : [ T3 | T5 | T1 ]                dense, parallel to `entities`
/// ```
///
/// Invariant: `entities()[p]` owns `components()[p]` for every position `p`, the two
/// dense arrays have the same length, and the sparse array is the dense array's exact
/// image (see [`SparseSet`]: every member's entry points back at its position, every
/// other index reads as no member). The
/// arrays are kept *separate* so that loops over components never load entities (and the
/// other way round).
///
/// `Storage` is a map with Rust's conventions. Worlds own their storages and hand out only
/// read and value-mutation access, so that a group's packed prefix never moves behind the
/// world's back.
///
/// ```
/// use sparse_core::{Entity, Storage};
/// let [a, b] = [1, 2].map(|i| Entity::from_raw_parts(i, 1).unwrap());
/// let mut speeds = Storage::new();
/// assert_eq!(speeds.insert(a, 3.0), None);
/// assert_eq!(speeds.insert(a, 4.0), Some(3.0));
/// speeds.insert(b, 1.0);
/// *speeds.get_mut(b).unwrap() += 1.0;
/// assert_eq!(speeds.remove(a), Some(4.0));
/// assert_eq!(speeds.remove(a), None);
/// assert_eq!(speeds.iter().collect::<Vec<_>>(), vec![(b, &2.0)]);
/// ```
pub struct Storage<T> {
    set: SparseSet,
    components: Vec<T>,
    /// Change detection, if the storage is tracked: shared with the views that test it
    /// (`Added<T>`, `Changed<T>`) or mark it (`&mut T`) while the storage is lent, written
    /// by the storage only while it is not (see [`ChangeTicks`]).
    ticks: Ticks,
}

#[cold]
#[inline(never)]
fn stale_component() -> ! {
    panic!("a component of a dead entity was left in a world's storage")
}

#[cold]
#[inline(never)]
fn filed_twice(entity: Entity) -> ! {
    panic!(
        "{entity:?} was filed as new in a storage that holds its index already (or twice in one batch): its world's allocator and storages disagree"
    )
}

#[cold]
#[inline(never)]
fn full() -> ! {
    panic!("storage is full: it holds `u32::MAX` components")
}

impl<T: Clone> Clone for Storage<T> {
    fn clone(&self) -> Self {
        Storage {
            set: self.set.clone(),
            components: self.components.clone(),
            ticks: Ticks::copy_of(&self.ticks),
        }
    }
}

impl<T> Default for Storage<T> {
    fn default() -> Self {
        Storage {
            set: SparseSet::new(),
            components: Vec::new(),
            ticks: Ticks::default(),
        }
    }
}

impl<T> Storage<T> {
    /// An empty storage.
    pub fn new() -> Self {
        Self::default()
    }

    /// An empty storage with room for `capacity` components.
    pub fn with_capacity(capacity: usize) -> Self {
        Storage {
            set: SparseSet::with_capacity(capacity),
            components: Vec::with_capacity(capacity),
            ticks: Ticks::default(),
        }
    }

    /// An empty storage with change detection: see [`track`](Self::track).
    pub fn tracked() -> Self {
        let mut storage = Self::new();
        storage.track();
        storage
    }

    /// Turns change detection on (a no-op if it is on): from now on the storage stamps
    /// each component when it is added, when it is replaced or handed out mutably
    /// (`get_mut`, `iter_mut`, a view's `&mut T`), and records the entities whose
    /// component is removed, until the next [`tick`](Self::tick). The components already
    /// stored count as added now.
    pub fn track(&mut self) {
        self.track_at(Clock::default());
    }

    /// [`track`](Self::track) with the count where `clock` is (a world's).
    pub(crate) fn track_at(&mut self, clock: Clock) {
        if self.ticks.is_none() {
            let mut ticks = ChangeTicks::new(clock);
            for entity in self.set.as_slice() {
                ticks.added_at(*entity);
            }
            *self.ticks = Some(Arc::new(ticks));
        }
    }

    /// Whether change detection is on.
    #[inline]
    pub fn is_tracked(&self) -> bool {
        self.ticks.is_some()
    }

    /// Starts a new tick of change detection: from now on nothing counts as added,
    /// changed or removed until it is again. A no-op on an untracked storage.
    pub fn tick(&mut self) {
        if let Some(ticks) = &mut *self.ticks {
            Arc::make_mut(ticks).tick();
        }
    }

    /// Moves the change count on within the tick, as a schedule does at each stage (see
    /// [`Schedule`](crate::Schedule)); the new count (a no-op on an untracked storage,
    /// which has none: `None`).
    pub(crate) fn step(&mut self) -> Option<ChangeCount> {
        let ticks = Arc::make_mut(self.ticks.as_mut()?);
        ticks.step();
        Some(ticks.count())
    }

    /// Moves the change count forward to `now` if it is behind (a test's way to reach
    /// the count's restart); a no-op on an untracked storage.
    pub(crate) fn jump_change_count(&mut self, now: u32) {
        if let Some(ticks) = &mut *self.ticks {
            Arc::make_mut(ticks).jump_to(now);
        }
    }

    /// Whether `entity`'s component was added since the last [`tick`](Self::tick)
    /// (`false` if it has none or the storage is untracked).
    pub fn is_added(&self, entity: Entity) -> bool {
        self.contains(entity)
            && self
                .ticks
                .as_ref()
                .is_some_and(|t| t.is_added(entity.index()))
    }

    /// Whether `entity`'s component was added, replaced or handed out mutably since the
    /// last [`tick`](Self::tick) (`false` if it has none or the storage is untracked).
    pub fn is_changed(&self, entity: Entity) -> bool {
        self.contains(entity)
            && self
                .ticks
                .as_ref()
                .is_some_and(|t| t.is_changed(entity.index()))
    }

    /// The entities whose component was removed since the last [`tick`](Self::tick), in
    /// removal order (an entity may appear more than once if it got a component back in
    /// between). Empty on an untracked storage.
    pub fn removed(&self) -> &[Entity] {
        self.ticks
            .as_deref()
            .map_or(&[], ChangeTicks::removed_since_tick)
    }

    /// The change stamps, for a view to test or mark while the storage is lent.
    #[inline(always)]
    pub(crate) fn change_ticks(&self) -> Option<&Arc<ChangeTicks>> {
        self.ticks.as_ref()
    }

    /// The number of stored components.
    #[inline]
    pub fn len(&self) -> usize {
        self.components.len()
    }

    /// Whether no component is stored.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.components.is_empty()
    }

    /// Whether `entity` (this exact version) has a component here.
    #[inline(always)]
    pub fn contains(&self, entity: Entity) -> bool {
        self.set.contains(entity)
    }

    /// The dense position of `entity`'s component.
    #[inline(always)]
    pub fn index_of(&self, entity: Entity) -> Option<usize> {
        self.set.index_of(entity)
    }

    /// The component of `entity`.
    #[inline]
    pub fn get(&self, entity: Entity) -> Option<&T> {
        self.set.index_of(entity).map(|p| &self.components[p])
    }

    /// The component of `entity`, mutably.
    #[inline(always)]
    pub fn get_mut(&mut self, entity: Entity) -> Option<&mut T> {
        let position = self.set.index_of(entity)?;
        self.ticks.changed(entity);
        Some(&mut self.components[position])
    }

    /// Stores `value` for `entity`, returning the value it replaces.
    ///
    /// A new component goes to the end of the dense arrays. If another version of
    /// `entity`'s index holds a component, that entity is dead (versions only grow): its
    /// stale component is dropped and `entity` takes over the slot.
    ///
    /// # Panics
    /// Panics if the storage already holds `u32::MAX` components.
    #[inline]
    pub fn insert(&mut self, entity: Entity, value: T) -> Option<T> {
        match self.set.index_of_slot(entity) {
            Some(position) if self.set.as_slice()[position] == entity => {
                self.ticks.changed(entity);
                Some(core::mem::replace(&mut self.components[position], value))
            }
            Some(position) => {
                let stale = self.set.as_slice()[position];
                self.set.replace_at(position, entity);
                self.components[position] = value;
                self.ticks.removed(stale);
                self.ticks.added(&[entity]);
                None
            }
            None => {
                self.push_both(entity, value);
                self.ticks.added(&[entity]);
                None
            }
        }
    }

    /// Replaces `entity`'s component, or appends it if it has none: [`insert`](Self::insert)
    /// for worlds, which never keep components of dead entities, so no other version of
    /// the index can be present and no slot is ever taken over.
    ///
    /// Worlds guarantee that no other version of `entity`'s index has a component here.
    ///
    /// # Panics
    /// Panics if another version of the index has a component after all (a world's
    /// invariant was broken) rather than taking its slot over, and if the storage is full.
    #[inline(always)]
    pub(crate) fn insert_alive(&mut self, entity: Entity, value: T) -> Option<T> {
        match self.set.index_of_slot(entity) {
            Some(position) if self.set.as_slice()[position] == entity => {
                self.ticks.changed(entity);
                Some(core::mem::replace(&mut self.components[position], value))
            }
            Some(_) => stale_component(),
            None => {
                self.push_both(entity, value);
                self.ticks.added(&[entity]);
                None
            }
        }
    }

    /// Appends to both dense arrays so that a panic leaves them the same length, which
    /// is what the unchecked swaps of group maintenance rely on: after the room check,
    /// only the component push can panic (capacity overflow of a large `T` on 32-bit),
    /// and it runs first; a `Vec<Entity>` under `u32::MAX` items cannot overflow.
    #[inline(always)]
    fn push_both(&mut self, entity: Entity, value: T) {
        if self.components.len() >= u32::MAX as usize {
            full();
        }
        self.components.push(value);
        self.set.push_unchecked(entity);
    }

    /// Appends the components `values` for `entities` (parallel slices), emptying
    /// `values`, in one pass: what worlds do with a batch of new entities. Nothing is
    /// trusted: an entity that has a component here already (any version of its index),
    /// or appears twice, is refused before anything changes.
    ///
    /// # Panics
    /// Panics if the slices differ in length, an entity is refused as above, or the
    /// storage would exceed `u32::MAX` components; the storage is then as it was.
    pub(crate) fn append_new(&mut self, entities: &[Entity], values: &mut Vec<T>) {
        assert_eq!(entities.len(), values.len(), "one value per entity");
        let base = self.len();
        let take_column = self.components.is_empty() && self.components.capacity() < values.len();
        if !take_column {
            // Grow first, so that a panic leaves both dense arrays the same length.
            self.components.reserve(values.len());
        }
        if let Err(entity) = self.set.append_new(entities) {
            filed_twice(entity);
        }
        if take_column {
            // An empty storage takes the column as it is instead of copying it.
            core::mem::swap(&mut self.components, values);
        } else {
            self.components.append(values);
        }
        self.ticks.added(entities);
        debug_assert_eq!(self.set.len(), base + entities.len());
    }

    /// Reserves room for `additional` more components if the allocator grants it (a
    /// spawn's size hint may be absurd: the arrays then grow as components arrive).
    pub(crate) fn try_reserve_new(&mut self, additional: usize) {
        self.set.try_reserve(additional);
        let _ = self.components.try_reserve(additional);
    }

    /// Appends a component whose entity is filed later by [`file_pending`]: between the
    /// two, the components run ahead of the dense entities (a spawn's rows are pushed
    /// first, then each storage files its entities in one pass).
    ///
    /// [`file_pending`]: Self::file_pending
    #[inline]
    pub(crate) fn push_pending(&mut self, value: T) {
        self.components.push(value);
    }

    /// Files `entities` for the components pushed by [`push_pending`] since the dense
    /// arrays were last parallel, one per component, in one pass. Nothing is trusted: an
    /// entity that has a component here already (any version of its index), or appears
    /// twice, is refused before anything is filed.
    ///
    /// # Panics
    /// Panics if `entities` does not match the pending components one for one, an entity
    /// is refused as above, or the storage would exceed `u32::MAX` components; the
    /// pending components are then still pending (see [`drop_pending`]).
    ///
    /// [`push_pending`]: Self::push_pending
    /// [`drop_pending`]: Self::drop_pending
    pub(crate) fn file_pending(&mut self, entities: &[Entity]) {
        let base = self.set.len();
        assert_eq!(
            base + entities.len(),
            self.components.len(),
            "one entity per pending component"
        );
        if let Err(entity) = self.set.append_new(entities) {
            filed_twice(entity);
        }
        self.ticks.added(entities);
    }

    /// Drops the components pushed by [`push_pending`] that were never filed, which makes
    /// the dense arrays parallel again (what a panicking spawn leaves behind).
    ///
    /// [`push_pending`]: Self::push_pending
    pub(crate) fn drop_pending(&mut self) {
        self.components.truncate(self.set.len());
    }

    /// Removes and returns `entity`'s component, moving the last one into its place.
    /// Removing an absent component is a no-op returning `None`.
    pub fn remove(&mut self, entity: Entity) -> Option<T> {
        let position = self.set.index_of(entity)?;
        Some(self.remove_at(position).1)
    }

    /// Removes the component at dense `position`, moving the last one into its place, and
    /// returns it with its entity.
    ///
    /// # Panics
    /// Panics if `position` is out of bounds.
    #[inline(always)]
    pub fn remove_at(&mut self, position: usize) -> (Entity, T) {
        assert!(position < self.len(), "position {position} out of bounds");
        let entity = self.set.swap_remove_at(position);
        self.ticks.removed(entity);
        (entity, self.components.swap_remove(position))
    }

    /// Swaps two dense positions in every array.
    ///
    /// # Panics
    /// Panics if either position is out of bounds.
    #[inline(always)]
    pub fn swap(&mut self, a: usize, b: usize) {
        self.set.swap(a, b);
        self.components.swap(a, b);
    }

    /// The number of positions holding both an entity and its component: what unchecked
    /// moves may reach. Always [`len`](Self::len), except while a spawn's rows are pending
    /// (components then run ahead of their entities).
    #[inline(always)]
    pub(crate) fn filed_len(&self) -> usize {
        self.set.len().min(self.components.len())
    }

    /// Swaps two dense positions in every array, without bounds checks.
    ///
    /// # Safety
    /// `a < self.filed_len()` and `b < self.filed_len()`.
    #[inline(always)]
    pub(crate) unsafe fn swap_unchecked(&mut self, a: usize, b: usize) {
        if a == b {
            return; // common: a new component appended right at a group's end
        }
        // SAFETY: the caller guarantees both positions are below `filed_len()`, the
        // length of both the dense entities and the components.
        unsafe {
            self.set.swap_unchecked(a, b);
            let components = self.components.as_mut_ptr();
            core::ptr::swap(components.add(a), components.add(b));
        }
    }

    /// Removes every component and returns them, undropped.
    pub(crate) fn take_all(&mut self) -> Vec<T> {
        self.ticks.all_removed(self.set.as_slice());
        self.set.clear();
        core::mem::take(&mut self.components)
    }

    /// Removes every component.
    pub fn clear(&mut self) {
        self.ticks.all_removed(self.set.as_slice());
        self.set.clear();
        self.components.clear();
    }

    /// The entities, in dense order.
    #[inline]
    pub fn entities(&self) -> &[Entity] {
        self.set.as_slice()
    }

    /// The components, in dense order (parallel to [`entities`](Storage::entities)).
    #[inline]
    pub fn components(&self) -> &[T] {
        &self.components
    }

    /// The components, mutably. Values can change; the structure cannot.
    #[inline]
    pub fn components_mut(&mut self) -> &mut [T] {
        self.ticks.all_changed();
        &mut self.components
    }

    /// The entities and the components, the latter mutably.
    #[inline]
    pub fn as_mut_slices(&mut self) -> (&[Entity], &mut [T]) {
        self.ticks.all_changed();
        (self.set.as_slice(), &mut self.components)
    }

    /// Iterates over `(entity, &component)` in dense order.
    pub fn iter(&self) -> impl ExactSizeIterator<Item = (Entity, &T)> + '_ {
        self.set
            .as_slice()
            .iter()
            .copied()
            .zip(self.components.iter())
    }

    /// Iterates over `(entity, &mut component)` in dense order.
    pub fn iter_mut(&mut self) -> impl ExactSizeIterator<Item = (Entity, &mut T)> + '_ {
        self.ticks.all_changed();
        self.set
            .as_slice()
            .iter()
            .copied()
            .zip(self.components.iter_mut())
    }

    /// The entity set underlying this storage.
    pub fn set(&self) -> &SparseSet {
        &self.set
    }

    /// The name of the order its entities are in (see [`DenseOrder`]).
    #[inline]
    pub(crate) fn order(&self) -> DenseOrder {
        self.set.order()
    }

    /// Runs `change_it` on the storage, a change made alike to every storage `change`
    /// sees (see [`SameChange`]), and names the order the storage then holds.
    #[inline(always)]
    pub(crate) fn change_alike<R>(
        &mut self,
        change: &mut SameChange,
        change_it: impl FnOnce(&mut Self) -> R,
    ) -> R {
        let before = self.order();
        let result = change_it(self);
        change.renamed(before, self);
        result
    }

    /// The number of components the storage can hold without growing its dense arrays.
    pub fn capacity(&self) -> usize {
        self.components.capacity().min(self.set.capacity())
    }

    /// Reserves room for `additional` more components.
    pub fn reserve(&mut self, additional: usize) {
        self.set.reserve(additional);
        self.components.reserve(additional);
    }

    /// Bytes of heap memory held: sparse tables, dense entities and components (capacity).
    pub fn heap_bytes(&self) -> usize {
        self.set.heap_bytes() + self.components.capacity() * size_of::<T>()
    }

    /// Checks that the sparse and dense arrays agree and the dense arrays are parallel.
    pub fn check(&self) -> Result<(), String> {
        self.set.check()?;
        if self.set.len() != self.components.len() {
            return Err(format!(
                "{} entities but {} components",
                self.set.len(),
                self.components.len()
            ));
        }
        if let Some(ticks) = &*self.ticks {
            ticks.check(self.set.as_slice())?;
        }
        Ok(())
    }
}

impl<T> Renamed for Storage<T> {
    #[inline]
    fn new_order(&mut self) -> DenseOrder {
        self.set.new_order()
    }

    #[inline]
    fn take_order(&mut self, name: DenseOrder) {
        self.set.take_order(name);
    }
}

impl<T: core::fmt::Debug> core::fmt::Debug for Storage<T> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_map().entries(self.iter()).finish()
    }
}

impl<T> Extend<(Entity, T)> for Storage<T> {
    fn extend<I: IntoIterator<Item = (Entity, T)>>(&mut self, iter: I) {
        for (entity, value) in iter {
            self.insert(entity, value);
        }
    }
}

impl<T> FromIterator<(Entity, T)> for Storage<T> {
    fn from_iter<I: IntoIterator<Item = (Entity, T)>>(iter: I) -> Self {
        let mut storage = Storage::new();
        storage.extend(iter);
        storage
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn e(index: u32, version: u32) -> Entity {
        Entity::from_raw_parts(index, version).unwrap()
    }

    #[test]
    fn map_conventions() {
        let mut s = Storage::new();
        assert_eq!(s.insert(e(1, 1), "a"), None);
        assert_eq!(s.insert(e(2, 1), "b"), None);
        assert_eq!(s.insert(e(1, 1), "c"), Some("a"));
        assert_eq!(s.len(), 2);
        assert_eq!(s.get(e(1, 1)), Some(&"c"));
        assert_eq!(s.get(e(1, 2)), None, "another version is another key");
        assert_eq!(s.remove(e(1, 1)), Some("c"));
        assert_eq!(s.remove(e(1, 1)), None);
        assert_eq!(s.entities(), &[e(2, 1)]);
        assert_eq!(s.components(), &["b"]);
        s.check().unwrap();
    }

    #[test]
    fn newer_version_takes_over_a_stale_slot() {
        let mut s = Storage::new();
        s.insert(e(1, 1), 10);
        s.insert(e(2, 1), 20);
        assert_eq!(s.insert(e(1, 2), 11), None);
        assert_eq!(s.get(e(1, 1)), None);
        assert_eq!(s.get(e(1, 2)), Some(&11));
        assert_eq!(s.len(), 2);
        s.check().unwrap();
    }

    #[test]
    fn swap_moves_every_array() {
        let mut s: Storage<u32> = (1..=3).map(|i| (e(i, 1), i * 10)).collect();
        s.swap(0, 2);
        assert_eq!(s.entities(), &[e(3, 1), e(2, 1), e(1, 1)]);
        assert_eq!(s.components(), &[30, 20, 10]);
        assert_eq!(s.get(e(3, 1)), Some(&30));
        s.check().unwrap();
    }
}
