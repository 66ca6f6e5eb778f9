//! Change detection of one storage: when each component was added and last changed, and
//! which entities lost theirs, counted in the change count of the storage's world.
//!
//! ```text
//! entity index : 0     1     2     3     4
//! added        : [ 0 |  3  |  1  |  0  |  4 ]    0: no component
//! changed      : [ 0 |  3  |  3  |  0  |  4 ]    now = 4, tick_start = 3: indices
//! removed      : [ e3 ]                          1, 2, 4 changed, 1 and 4 added, since
//!                                                the last tick (stamps ≥ 3); a system
//!                                                that last ran at 3 sees index 4 (> 3)
//! ```
//!
//! The count moves at every `tick()` (which also starts a new tick: `tick_start`) and at
//! every stage of a schedule (`step`), so that each system's run has a count of its own:
//! a scheduled system's `Added`/`Changed` pass the stamps after the count of its last
//! run, a view outside a schedule those from the last tick's start on.
//!
//! The stamps are kept by entity *index*, not by dense position, so that the swaps of
//! group maintenance and sorting never touch them: an untracked storage pays one test per
//! structural change, a tracked one a stamp when a component is added, handed out
//! mutably or removed.
//! When every component is handed out at once (a group owning the whole storage, a
//! storage's values), one stamp for the storage (`all_changed`) stands for all of them.
//!
//! Invariant: a stamp is `0` exactly where the storage holds no component of that index,
//! so a stamp alone tells a filter that the component is there; every other stamp is at
//! most `now`. The stamps are atomics so that a view can test them (`Changed<T>`) while
//! the same view's `&mut T` column marks them, from any number of worker threads; each
//! position is marked by the one worker that holds it, with relaxed stores.
//!
//! Wraparound: the count is a `u32` advanced by `tick` and `step`. When it would pass
//! `u32::MAX`, every stamp of a present component becomes `1` ("before the count
//! restarted") and the count restarts at `2` (a new tick starts there too): a component
//! never looks changed because its stamp is `2^32` counts old. The clock counts its
//! restarts: a schedule whose system last ran before one runs it as a first run.

use core::marker::PhantomData;
use core::ptr::NonNull;
use core::sync::atomic::{AtomicU32, Ordering::Relaxed};
use std::sync::Arc;

use super::SparseSet;
use crate::entity::Entity;

/// The tick of a storage created before any `tick()`: stamps start here.
pub(crate) const FIRST_TICK: u32 = 1;

/// The tick after `now`, and whether the count restarted (see the module docs).
#[inline]
fn next_tick(now: u32) -> (u32, bool) {
    match now.checked_add(1) {
        Some(next) => (next, false),
        None => (FIRST_TICK + 1, true),
    }
}

/// A world's change count and where its current tick started: what it tells the
/// storages it starts tracking, which keep the same numbers. Opaque outside this crate.
#[derive(Clone, Copy, Debug)]
pub struct Clock {
    now: u32,
    tick_start: u32,
    /// How many times the count restarted.
    restarts: u32,
}

impl Default for Clock {
    fn default() -> Self {
        Clock {
            now: FIRST_TICK,
            tick_start: FIRST_TICK,
            restarts: 0,
        }
    }
}

impl Clock {
    /// Moves the count on, starting a new tick if `tick` (or if the count restarted);
    /// whether it restarted.
    fn advance(&mut self, tick: bool) -> bool {
        let (next, restarted) = next_tick(self.now);
        self.now = next;
        if tick || restarted {
            self.tick_start = next;
        }
        if restarted {
            self.restarts = self.restarts.wrapping_add(1);
        }
        restarted
    }

    /// Starts a new tick, as every tracked storage of the world does.
    pub(crate) fn tick(&mut self) {
        self.advance(true);
    }

    /// Moves the count on within the tick (a schedule's stage), as every tracked storage
    /// of the world does; the new count.
    pub(crate) fn step(&mut self) -> ChangeCount {
        self.advance(false);
        self.count()
    }

    /// The count, with its restarts.
    pub(crate) fn count(&self) -> ChangeCount {
        ChangeCount {
            restarts: self.restarts,
            now: self.now,
        }
    }

    /// Moves the count forward to `now` within the tick, if it is behind (never back, so
    /// every stamp stays at most the count): how a test reaches the restart without 2³²
    /// steps.
    pub(crate) fn jump_to(&mut self, now: u32) {
        self.now = self.now.max(now);
    }
}

/// A world's change count with the number of times it restarted: what a schedule keeps
/// of each system's last run. Compared with a later count, it tells which stamps came
/// after the run (see [`since`](ChangeCount::since)).
#[doc(hidden)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ChangeCount {
    restarts: u32,
    now: u32,
}

impl ChangeCount {
    /// A count that never was: a system that never ran.
    pub const NEVER: ChangeCount = ChangeCount {
        restarts: 0,
        now: 0,
    };

    /// The count a system that last ran at `self` passes the stamps after, in a world
    /// whose count is `now`: its own, or `0` (everything present is news) if the count
    /// restarted since (a stamp from after the restart may be lower than `self`) or is
    /// lower than `self` (another world): changes reported twice, never lost.
    #[inline]
    pub fn since(self, now: ChangeCount) -> u32 {
        if self.restarts == now.restarts && self.now <= now.now {
            self.now
        } else {
            0
        }
    }

    /// The count itself, as the stamps hold it.
    pub(crate) fn value(self) -> u32 {
        self.now
    }

    /// Whether the count restarted between `self` and `later`.
    pub(crate) fn restarted_before(self, later: ChangeCount) -> bool {
        self.restarts != later.restarts
    }

    /// The count of a world that tracks no storage: it never moves.
    pub const UNTRACKED: ChangeCount = ChangeCount {
        restarts: 0,
        now: FIRST_TICK,
    };
}

/// A storage's stamps with its length: how a group stamps the prefix of the storage it
/// hands out changed, when it hands it out (not when it is borrowed). Opaque outside this
/// crate.
#[doc(hidden)]
pub struct PrefixMark<'a, T> {
    /// The storage's stamps as lent (with the count they are marked with), if tracked.
    marker: Option<Marker<'a>>,
    /// The prefix's entities.
    members: &'a [Entity],
    /// Whether the prefix is the whole storage (one stamp for all).
    whole: bool,
    /// The storage's component type: one mark per type of a set.
    storage: PhantomData<fn() -> T>,
}

impl<T> Clone for PrefixMark<'_, T> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<T> Copy for PrefixMark<'_, T> {}

impl<'a, T> PrefixMark<'a, T> {
    /// The stamps of the prefix of a storage whose entities are `members` (`whole` if it
    /// is the whole storage).
    #[inline]
    pub(crate) fn new(ticks: &'a Ticks, members: &'a [Entity], whole: bool) -> Self {
        PrefixMark {
            marker: ticks.0.as_deref().map(ChangeTicks::marker),
            members,
            whole,
            storage: PhantomData,
        }
    }

    /// Stamps the prefix's components changed (the whole storage as one stamp), if the
    /// storage is tracked.
    #[inline]
    pub(crate) fn mark(self) {
        if let Some(marker) = self.marker {
            if self.whole {
                marker.mark_all();
            } else {
                self.members.iter().for_each(|e| marker.mark(e.index()));
            }
        }
    }
}

/// Change stamps of one storage (see the module docs). Opaque outside this crate.
#[derive(Debug)]
pub struct ChangeTicks {
    /// The count and the start of the current tick (see the module docs).
    clock: Clock,
    added: Vec<AtomicU32>,
    changed: Vec<AtomicU32>,
    /// The version of the entity each stamped index belongs to: a scan of the stamps
    /// names its entities without the storage.
    versions: Vec<u32>,
    /// When every component present was last changed at once.
    all_changed: AtomicU32,
    removed: Vec<Entity>,
    /// The count what is handed out mutably is stamped with while the storage is lent, if
    /// not the clock's own (`0`): a schedule's step running systems of several stages at
    /// once gives each system its stage's count (`Schedule`'s chains), never above `now`.
    lent_at: AtomicU32,
}

impl Clone for ChangeTicks {
    fn clone(&self) -> Self {
        let copy = |stamps: &[AtomicU32]| {
            stamps
                .iter()
                .map(|s| AtomicU32::new(s.load(Relaxed)))
                .collect()
        };
        ChangeTicks {
            clock: self.clock,
            added: copy(&self.added),
            changed: copy(&self.changed),
            versions: self.versions.clone(),
            all_changed: AtomicU32::new(self.all_changed.load(Relaxed)),
            removed: self.removed.clone(),
            lent_at: AtomicU32::new(0),
        }
    }
}

impl ChangeTicks {
    /// No component stamped, the count where `clock` is.
    pub(crate) fn new(clock: Clock) -> Self {
        ChangeTicks {
            clock,
            added: Vec::new(),
            changed: Vec::new(),
            versions: Vec::new(),
            all_changed: AtomicU32::new(0),
            removed: Vec::new(),
            lent_at: AtomicU32::new(0),
        }
    }

    /// Stamps what the lent storage hands out mutably from now on with count `at`, at most
    /// the clock's (`0`: the clock's own count again). Through `&self`: the storage is lent,
    /// and only the part that may write it calls this (see `lend/slot.rs`).
    #[inline]
    pub(crate) fn stamp_lent_at(&self, at: u32) {
        debug_assert!(at <= self.clock.now, "a stamp is never above the count");
        self.lent_at.store(at.min(self.clock.now), Relaxed);
    }

    /// Stamps `entity`'s component added (added and changed now).
    #[inline]
    pub(crate) fn added_at(&mut self, entity: Entity) {
        let index = entity.index() as usize;
        if index >= self.added.len() {
            let len = (index + 1).max(self.added.len() * 2);
            self.added.resize_with(len, AtomicU32::default);
            self.changed.resize_with(len, AtomicU32::default);
            self.versions.resize(len, 0);
        }
        *self.added[index].get_mut() = self.clock.now;
        *self.changed[index].get_mut() = self.clock.now;
        self.versions[index] = entity.version();
    }

    /// Stamps the component at `index` changed now. A no-op where nothing is stamped.
    #[inline]
    pub(crate) fn changed_at(&self, index: u32) {
        self.clock_marker().mark(index);
    }

    /// Stamps every component present changed now, in one store.
    #[inline]
    pub(crate) fn all_changed(&self) {
        self.clock_marker().mark_all();
    }

    /// What marks at the clock's count: the world's own changes, made while the storage is
    /// not lent (what a lent storage hands out is marked by its [`marker`](Self::marker)).
    #[inline(always)]
    fn clock_marker(&self) -> Marker<'_> {
        Marker {
            changed: &self.changed,
            all_changed: &self.all_changed,
            now: self.clock.now,
        }
    }

    /// Forgets `entity`'s component and records its removal.
    #[inline]
    pub(crate) fn removed(&mut self, entity: Entity) {
        let index = entity.index() as usize;
        if let Some(stamp) = self.added.get_mut(index) {
            *stamp.get_mut() = 0;
            *self.changed[index].get_mut() = 0;
        }
        self.removed.push(entity);
    }

    /// The count a test "since the last tick" passes the stamps after.
    #[inline(always)]
    pub(crate) fn since_tick(&self) -> u32 {
        self.clock.tick_start - 1
    }

    /// Whether the component at `index` was added since the last tick.
    #[inline(always)]
    pub(crate) fn is_added(&self, index: u32) -> bool {
        let since = self.since_tick();
        self.added
            .get(index as usize)
            .is_some_and(|s| s.load(Relaxed) > since)
    }

    /// Whether the component at `index` was added or changed since the last tick.
    #[inline(always)]
    pub(crate) fn is_changed(&self, index: u32) -> bool {
        let (index, since) = (index as usize, self.since_tick());
        self.changed
            .get(index)
            .is_some_and(|s| s.load(Relaxed) > since)
            || (self.all_changed.load(Relaxed) > since
                && self.added.get(index).is_some_and(|s| s.load(Relaxed) != 0))
    }

    /// The entities whose component was removed since the last tick, in removal order.
    pub(crate) fn removed_since_tick(&self) -> &[Entity] {
        &self.removed
    }

    /// Starts a new tick: nothing is added, changed or removed since.
    pub(crate) fn tick(&mut self) {
        self.removed.clear();
        self.advance(true);
    }

    /// Moves the count on within the tick (a schedule's stage): what is stamped from now
    /// on is newer than what a system that ran before saw.
    pub(crate) fn step(&mut self) {
        self.advance(false);
    }

    /// Moves the count forward to `now` if it is behind (see [`Clock::jump_to`]).
    pub(crate) fn jump_to(&mut self, now: u32) {
        self.clock.jump_to(now);
    }

    /// The count, with its restarts.
    pub(crate) fn count(&self) -> ChangeCount {
        self.clock.count()
    }

    fn advance(&mut self, tick: bool) {
        if self.clock.advance(tick) {
            // Every present component becomes old (see the module docs), so that no
            // stamp can pass a later test by wrapping around.
            *self.all_changed.get_mut() = 0;
            for stamp in self.added.iter_mut().chain(&mut self.changed) {
                let stamp = stamp.get_mut();
                if *stamp != 0 {
                    *stamp = FIRST_TICK;
                }
            }
        }
    }

    /// Moves the count to `now`, a tick starting there (tests of the wraparound).
    #[cfg(test)]
    pub(crate) fn set_now(&mut self, now: u32) {
        self.clock = Clock {
            now,
            tick_start: now,
            restarts: self.clock.restarts,
        };
    }

    /// Checks the stamps against the storage's members: nonzero exactly at their indices.
    pub(crate) fn check(&self, members: &[Entity]) -> Result<(), String> {
        let stamped = self.added.iter().filter(|s| s.load(Relaxed) != 0).count();
        if stamped != members.len() {
            return Err(format!(
                "{stamped} components stamped, {} stored",
                members.len()
            ));
        }
        for entity in members {
            let index = entity.index() as usize;
            let added = self.added[index].load(Relaxed);
            let changed = self.changed[index].load(Relaxed);
            if added == 0 || changed < added || changed > self.clock.now {
                return Err(format!(
                    "{entity:?} stamped added {added}, changed {changed} at count {}",
                    self.clock.now
                ));
            }
        }
        Ok(())
    }
}

/// A storage's change stamps, if it is tracked, and what its structural changes record in
/// them. Not generic, so that every storage type shares one copy of the stamping code:
/// each method tests whether the storage is tracked inline (an untracked storage's change
/// pays that test, and keeps the size, and so the inlining, it had without change
/// detection) and stamps out of line. A type of its own also so that dropping it is one
/// out-of-line function, not an `Arc` release inlined into a world's drop glue once per
/// storage.
#[derive(Default)]
pub(crate) struct Ticks(Option<Arc<ChangeTicks>>);

impl Drop for Ticks {
    #[inline(never)]
    fn drop(&mut self) {
        self.0.take();
    }
}

impl core::ops::Deref for Ticks {
    type Target = Option<Arc<ChangeTicks>>;

    #[inline(always)]
    fn deref(&self) -> &Self::Target {
        &self.0
    }
}

impl core::ops::DerefMut for Ticks {
    #[inline(always)]
    fn deref_mut(&mut self) -> &mut Self::Target {
        &mut self.0
    }
}

impl Ticks {
    /// Stamps with their own copy of `other`'s stamps: marking one never marks the other.
    pub(crate) fn copy_of(other: &Ticks) -> Self {
        Ticks(other.0.as_deref().map(|t| Arc::new(t.clone())))
    }

    /// The stamps to write: the storage is not lent, so it holds the only handle (a
    /// leaked view's handle is left with a copy).
    #[inline(always)]
    fn write(&mut self) -> Option<&mut ChangeTicks> {
        self.0.as_mut().map(Arc::make_mut)
    }

    /// Stamps `entity`'s component changed.
    #[inline(always)]
    pub(crate) fn changed(&self, entity: Entity) {
        if let Some(ticks) = &self.0 {
            ticks.changed_at(entity.index());
        }
    }

    /// Stamps every component present changed.
    #[inline(always)]
    pub(crate) fn all_changed(&self) {
        if let Some(ticks) = &self.0 {
            ticks.all_changed();
        }
    }

    /// Stamps `entities`' new components added.
    #[inline(always)]
    pub(crate) fn added(&mut self, entities: &[Entity]) {
        if self.0.is_some() {
            self.stamp_added(entities);
        }
    }

    #[inline(never)]
    fn stamp_added(&mut self, entities: &[Entity]) {
        if let Some(ticks) = self.write() {
            entities.iter().for_each(|&e| ticks.added_at(e));
        }
    }

    /// Records the removal of `entity`'s component.
    #[inline(always)]
    pub(crate) fn removed(&mut self, entity: Entity) {
        if self.0.is_some() {
            self.stamp_removed_one(entity);
        }
    }

    #[inline(never)]
    fn stamp_removed_one(&mut self, entity: Entity) {
        if let Some(ticks) = self.write() {
            ticks.removed(entity);
        }
    }

    /// Records the removal of every one of `members`' components.
    #[inline]
    pub(crate) fn all_removed(&mut self, members: &[Entity]) {
        if self.0.is_some() {
            self.stamp_removed(members, None);
        }
    }

    /// Records the removal of the components of `listed` that `set` holds, in the order
    /// of the list (a bulk call's: the order its remove hooks ran in).
    #[inline]
    pub(crate) fn listed_removed(&mut self, listed: &[Entity], set: &SparseSet) {
        if self.0.is_some() {
            self.stamp_removed(listed, Some(set));
        }
    }

    #[inline(never)]
    fn stamp_removed(&mut self, entities: &[Entity], only: Option<&SparseSet>) {
        if let Some(ticks) = self.write() {
            for &entity in entities {
                if only.is_none_or(|set| set.contains(entity)) {
                    ticks.removed(entity);
                }
            }
        }
    }
}

/// What marks the values a lent storage hands out mutably: its change stamps, borrowed
/// for as long as the storage is lent (so they cannot move), read once rather than
/// through the `ChangeTicks` at every mark.
#[derive(Clone, Copy)]
pub(crate) struct Marker<'a> {
    changed: &'a [AtomicU32],
    all_changed: &'a AtomicU32,
    now: u32,
}

impl<'a> Marker<'a> {
    /// Stamps the component at `index` changed (see [`ChangeTicks::changed_at`]).
    #[inline(always)]
    pub(crate) fn mark(self, index: u32) {
        if let Some(stamp) = self.changed.get(index as usize) {
            stamp.store(self.now, Relaxed);
        }
    }

    /// Stamps every component present changed (see [`ChangeTicks::all_changed`]).
    #[inline]
    pub(crate) fn mark_all(self) {
        self.all_changed.store(self.now, Relaxed);
    }

    /// The stamp of the component at `index`, to be marked later (a `Mut` guard marks it
    /// when it is written through); `None` where nothing is stamped.
    #[inline(always)]
    pub(crate) fn stamp(self, index: u32) -> Option<Stamp<'a>> {
        self.changed.get(index as usize).map(|stamp| Stamp {
            stamp,
            now: self.now,
        })
    }
}

/// One component's changed stamp, borrowed while its storage is lent, and the count to
/// write into it: what a [`Mut`](crate::Mut) guard marks when written through. Marked with
/// a relaxed store by the one holder of the component (as [`Marker::mark`]).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Stamp<'a> {
    stamp: &'a AtomicU32,
    now: u32,
}

impl Stamp<'_> {
    /// Stamps the component changed now.
    #[inline(always)]
    pub(crate) fn mark(self) {
        self.stamp.store(self.now, Relaxed);
    }
}

impl ChangeTicks {
    /// What marks the values the storage hands out while lent: at the count a schedule's
    /// span stamps its system with ([`stamp_lent_at`](Self::stamp_lent_at)), else at the
    /// clock's.
    #[inline]
    pub(crate) fn marker(&self) -> Marker<'_> {
        let lent_at = self.lent_at.load(Relaxed);
        Marker {
            changed: &self.changed,
            all_changed: &self.all_changed,
            now: if lent_at == 0 {
                self.clock.now
            } else {
                lent_at
            },
        }
    }
}

/// What an `Added<T>` or `Changed<T>` filter tests per entity: the stamps, kept alive by a
/// handle on them and read as they are at each test (a value handed out mutably by a view
/// borrowed beside the filter counts from then on, one by one or the whole storage at once).
///
/// Invariant: `stamps`, `present` and `versions` point at `len` stamps (versions) of
/// `_ticks`, and `all_changed` (if any) at its storage-wide stamp; this handle keeps them
/// alive and unmoved: the storage writes its stamps in place only through
/// `Arc::make_mut`, which copies them while another handle exists, so what is read here
/// is never reallocated or freed, only stored to through its atomics.
#[doc(hidden)]
#[derive(Clone)]
pub struct StampTest {
    stamps: NonNull<AtomicU32>,
    present: NonNull<AtomicU32>,
    versions: NonNull<u32>,
    len: usize,
    /// The test passes the stamps after this count: the last tick's start minus one, or
    /// the count of a scheduled system's last run.
    since: u32,
    /// For `Changed<T>`: the stamp that says every present component changed (the storage
    /// was handed out whole) when it passes `since`.
    all_changed: Option<NonNull<AtomicU32>>,
    _ticks: Arc<ChangeTicks>,
}

// SAFETY: a `StampTest` reads atomics of a `ChangeTicks` it keeps alive (see the type's
// invariant); `Arc<ChangeTicks>` is `Send` and `Sync`, and atomics may be read from any
// thread.
unsafe impl Send for StampTest {}
// SAFETY: as above.
unsafe impl Sync for StampTest {}

impl StampTest {
    /// Tests "added since the last tick" (see [`since`](Self::since)).
    pub(crate) fn added(ticks: Arc<ChangeTicks>) -> Self {
        Self::new(ticks, false)
    }

    /// Tests "added or changed since the last tick".
    pub(crate) fn changed(ticks: Arc<ChangeTicks>) -> Self {
        Self::new(ticks, true)
    }

    fn new(ticks: Arc<ChangeTicks>, changed: bool) -> Self {
        let stamps = if changed {
            &ticks.changed
        } else {
            &ticks.added
        };
        StampTest {
            stamps: NonNull::from(stamps.as_slice()).cast(),
            present: NonNull::from(ticks.added.as_slice()).cast(),
            versions: NonNull::from(ticks.versions.as_slice()).cast(),
            len: ticks
                .added
                .len()
                .min(stamps.len())
                .min(ticks.versions.len()),
            since: ticks.since_tick(),
            all_changed: changed.then(|| NonNull::from(&ticks.all_changed)),
            _ticks: ticks,
        }
    }

    /// Tests the stamps after count `since` instead (a scheduled system's last run) of
    /// those since the last tick.
    #[inline]
    pub(crate) fn since(&mut self, since: u32) {
        self.since = since;
    }

    /// The number of entity indices the stamps cover: what a [`scan`](Self::scan) reads.
    #[inline]
    pub(crate) fn len(&self) -> usize {
        self.len
    }

    /// Whether every present component counts as changed (the storage was handed out
    /// whole after `since`).
    #[inline(always)]
    fn all(&self) -> bool {
        // SAFETY: the pointer reaches the storage-wide stamp of `_ticks` (invariant).
        self.all_changed
            .is_some_and(|all| unsafe { all.as_ref() }.load(Relaxed) > self.since)
    }

    /// Whether a [`scan`](Self::scan) now finds every entity that passes: not when every
    /// component counts as changed (the stamps alone do not say so).
    #[inline]
    pub(crate) fn scannable(&self) -> bool {
        !self.all()
    }

    /// Calls `f` with each entity whose stamp passes, in index order: one read of the
    /// stamps, none of the storage. Each is alive, with a component of the storage.
    #[inline]
    pub(crate) fn scan(&self, mut f: impl FnMut(Entity)) {
        for index in 0..self.len {
            // SAFETY: `index < len`, and the pointers reach `len` live stamps and
            // versions (invariant).
            let stamp = unsafe { &*self.stamps.as_ptr().add(index) }.load(Relaxed);
            if stamp > self.since {
                // SAFETY: as above. A stamp after `since` is not zero, so the index
                // holds a component, whose entity's version was recorded when it came.
                let version = unsafe { *self.versions.as_ptr().add(index) };
                if let Some(entity) = Entity::from_raw_parts(index as u32, version) {
                    f(entity);
                }
            }
        }
    }

    /// Whether the component at `index` passes.
    #[inline(always)]
    pub(crate) fn test(&self, index: u32) -> bool {
        let index = index as usize;
        if index >= self.len {
            return false;
        }
        // SAFETY: `index < len`, and both pointers reach `len` live stamps (invariant).
        let stamp = unsafe { &*self.stamps.as_ptr().add(index) }.load(Relaxed);
        // SAFETY: as above.
        stamp > self.since
            || (self.all() && unsafe { &*self.present.as_ptr().add(index) }.load(Relaxed) != 0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn e(index: u32) -> Entity {
        Entity::from_raw_parts(index, 1).unwrap()
    }

    #[test]
    fn stamps_follow_a_components_life() {
        let mut t = ChangeTicks::new(Clock::default());
        t.added_at(e(3));
        assert!(t.is_added(3) && t.is_changed(3));
        assert!(!t.is_added(2) && !t.is_changed(100));
        t.tick();
        assert!(
            !t.is_added(3) && !t.is_changed(3),
            "a tick makes everything old"
        );
        t.changed_at(3);
        assert!(!t.is_added(3) && t.is_changed(3));
        t.removed(e(3));
        assert!(!t.is_changed(3));
        assert_eq!(t.removed_since_tick(), &[e(3)]);
        t.check(&[]).unwrap();
        t.tick();
        assert!(t.removed_since_tick().is_empty());
    }

    #[test]
    fn a_step_keeps_the_tick_and_tests_after_a_count_see_what_came_later() {
        let mut t = ChangeTicks::new(Clock::default());
        t.added_at(e(0));
        t.tick(); // count 2, the tick starts
        t.changed_at(0); // stamped 2
        t.step(); // count 3, same tick
        t.added_at(e(1)); // stamped 3
        assert!(t.is_changed(0) && t.is_added(1), "since the tick: both");
        let since = |since: u32, changed: bool| {
            let handle = Arc::new(t.clone());
            let mut test = if changed {
                StampTest::changed(handle)
            } else {
                StampTest::added(handle)
            };
            test.since(since);
            (test.test(0), test.test(1))
        };
        assert_eq!(since(2, true), (false, true), "after count 2: index 1 only");
        assert_eq!(since(1, true), (true, true));
        assert_eq!(
            since(0, false),
            (true, true),
            "everything present is after 0"
        );
        assert_eq!(since(2, false), (false, true));
        assert_eq!(since(3, true), (false, false));
        t.all_changed(); // at count 3
        assert_eq!(since(2, true), (true, true), "handed out whole after 2");
        assert_eq!(since(3, true), (false, false));
        t.check(&[e(0), e(1)]).unwrap();
    }

    #[test]
    fn the_count_restarts_before_it_wraps() {
        let mut t = ChangeTicks::new(Clock::default());
        t.set_now(u32::MAX - 1);
        t.added_at(e(0)); // stamped MAX - 1
        t.tick();
        t.added_at(e(1)); // stamped MAX
        assert!(t.is_added(1) && !t.is_changed(0));
        t.tick(); // wraps
        assert_eq!(t.clock.now, FIRST_TICK + 1);
        assert!(!t.is_changed(0) && !t.is_changed(1), "old stamps stay old");
        t.check(&[e(0), e(1)]).unwrap();
        // 2^32 ticks later, the stamp of index 1 would have passed again.
        for _ in 0..3 {
            t.tick();
            assert!(!t.is_changed(0) && !t.is_changed(1));
        }
        t.changed_at(0);
        assert!(t.is_changed(0) && !t.is_changed(1));
        t.check(&[e(0), e(1)]).unwrap();
    }

    #[test]
    fn a_step_restarts_the_count_too() {
        let mut t = ChangeTicks::new(Clock::default());
        t.set_now(u32::MAX);
        t.added_at(e(0));
        t.step(); // wraps within the tick: a new tick starts at the restart
        assert_eq!(
            (t.clock.now, t.clock.tick_start),
            (FIRST_TICK + 1, FIRST_TICK + 1)
        );
        assert!(!t.is_added(0) && !t.is_changed(0));
        let mut test = StampTest::changed(Arc::new(t.clone()));
        test.since(FIRST_TICK);
        assert!(
            !test.test(0),
            "a system's last run taken back to 1 sees nothing old"
        );
        t.changed_at(0);
        assert!(t.is_changed(0));
    }

    #[test]
    fn a_test_reads_the_stamps_of_its_time() {
        let mut t = ChangeTicks::new(Clock::default());
        t.added_at(e(0));
        t.tick();
        t.added_at(e(2));
        t.changed_at(0);
        let ticks = Arc::new(t);
        let (added, changed) = (
            StampTest::added(Arc::clone(&ticks)),
            StampTest::changed(Arc::clone(&ticks)),
        );
        assert!(!added.test(0) && added.test(2) && !added.test(1) && !added.test(99));
        assert!(changed.test(0) && changed.test(2) && !changed.test(1));
        ticks.changed_at(1); // no component there: stays unmarked in `added`
        ticks.all_changed();
        let all = StampTest::changed(Arc::clone(&ticks));
        assert!(all.test(0) && all.test(2) && all.test(1) == ticks.is_changed(1));
        let mut copy = Arc::clone(&ticks);
        Arc::make_mut(&mut copy).tick(); // copies: the tests read the old stamps
        assert!(changed.test(0) && !copy.is_changed(0));
    }

    #[test]
    fn one_stamp_changes_every_present_component() {
        let mut t = ChangeTicks::new(Clock::default());
        t.added_at(e(0));
        t.added_at(e(1));
        t.tick();
        t.removed(e(1));
        t.all_changed();
        assert!(t.is_changed(0) && !t.is_changed(1), "only what is present");
        assert!(!t.is_added(0));
        t.added_at(e(1));
        assert!(t.is_changed(1) && t.is_added(1));
        t.tick();
        assert!(!t.is_changed(0) && !t.is_changed(1));
        t.check(&[e(0), e(1)]).unwrap();
    }
}
