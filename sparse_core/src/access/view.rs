//! Views: the entities having what a query requires and passing its filter, with their
//! components, driven by the cheapest storage or group (see the driver module).

use core::fmt;
use core::iter::FusedIterator;

use super::driver::{self, Choice, DrivenBy, Source};
use super::filter::{Filter, FilterOf};
use super::query::{Needs, Query, QueryOf, ReadOnlyQuery};
use crate::entity::Entity;
use crate::lend::{AccessError, WorldParts};
use crate::storage::StampTest;

/// The entities matching the query `Q` (`&T`, `&mut T`, `Option<…>`, tuples) and the
/// filter `F` (`With<T>`, `Without<T>`, tuples; `()` by default), with their components.
///
/// A view walks the smallest of: the storages of the types it requires, and the groups
/// whose members include every match. Walking a group that owns its types, it reads them
/// by position in the group's packed slices, and skips the tests the group's declaration
/// implies; when that covers everything the view is *dense* ([`is_dense`](View::is_dense)):
/// a loop over plain slices, at a group's speed.
///
/// ```text
/// P entities : [e4|e7|e3|e8|e6]
/// V entities : [e8|e5|e7]          <- the smallest drives: e8 (P looked up), e5 (no P), e7
/// ```
///
/// Iterate it with `for`, or with [`for_each`](View::for_each). Values can be changed;
/// nothing can be added or removed while the view exists.
///
/// ```
/// use sparse_core::{Component, View, With, Without, World};
/// struct Pos(f32);
/// struct Vel(f32);
/// struct Frozen;
/// struct Player;
/// impl Component for Pos {}
/// impl Component for Vel {}
/// impl Component for Frozen {}
/// impl Component for Player {}
///
/// let mut world = World::new();
/// let a = world.spawn_with((Pos(0.0), Vel(1.0), Player));
/// let b = world.spawn_with((Pos(0.0), Vel(1.0), Frozen));
/// let c = world.spawn_with((Pos(0.0),));
///
/// // Every entity with `Pos` and `Vel`, except the frozen ones.
/// let view = world.borrow::<View<(&mut Pos, &Vel), Without<Frozen>>>()?;
/// for (_, (p, v)) in view {
///     p.0 += v.0;
/// }
/// assert_eq!(world.get::<Pos>(a).unwrap().0, 1.0);
/// assert_eq!(world.get::<Pos>(b).unwrap().0, 0.0);
///
/// // `Option` leaves do not filter; `With` filters without borrowing.
/// let mut seen = Vec::new();
/// world
///     .borrow_ref::<View<(&Pos, Option<&Vel>), With<Pos>>>()?
///     .for_each(|e, (_, v)| seen.push((e, v.is_some())));
/// seen.sort();
/// assert_eq!(seen, [(a, true), (b, true), (c, false)]);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub struct View<'w, Q: Query, F: Filter = ()> {
    query: Q::Fetch<'w>,
    filter: F::Fetch<'w>,
    /// The walked entities.
    entities: &'w [Entity],
    /// The position of `entities[0]` in the aligned leaves' storages.
    start: usize,
    /// The leaves read by position (bit `i`: leaf `i`), as the query was aligned.
    aligned: u64,
    /// Every leaf aligned, every filter implied.
    dense: bool,
    /// What kind of set `entities` is (for `Debug`).
    by: DrivenBy,
    /// The leaves `for_each` and `par_for_each` hand out whole (bit `i`: leaf `i`): a
    /// dense walk over all of their storage, which stamps a tracked `&mut` leaf once for
    /// all its values when it starts (see [`Query::whole`]). Iterators (which may stop
    /// early) and lookups stamp each row they yield instead.
    whole: u64,
}

#[cold]
#[inline(never)]
fn nothing_required() -> ! {
    unreachable!("a view's type requires a component")
}

/// Whether a walk of the stamps beats the walk of `entities` for a change filter: the
/// stamps cover at most twice as many indices, and a sample of the walk says that at most
/// one entity in 64 passes (each match found through the stamps is looked up in every
/// leaf's storage, where the walk reads the driver's by position). The sample is 32 short
/// stretches spread over the walk: a few cache misses each, not one per sampled entity.
fn few_pass(stamps: &StampTest, entities: &[Entity]) -> bool {
    const STRETCHES: usize = 32;
    const STRETCH: usize = 32;
    if entities.is_empty() || stamps.len() > entities.len().saturating_mul(2) {
        return false;
    }
    let step = (entities.len() / STRETCHES).max(STRETCH);
    let (mut sampled, mut passed) = (0usize, 0usize);
    for start in (0..entities.len()).step_by(step) {
        for entity in &entities[start..entities.len().min(start + STRETCH)] {
            sampled += 1;
            passed += usize::from(stamps.test(entity.index()));
        }
    }
    passed * 64 <= sampled
}

/// A run shorter than this does not pay for looking for the next one right away.
const SHORT_RUN: usize = 8;
/// The most walked entities looked up one by one between two tries at a run.
const MAX_SKIP: u32 = 64;
/// The first stretch of a run compared (see `View::run_from`).
const FIRST_WINDOW: usize = 64;

/// The rest of a walk: its entities from one on, and where the first of them is in the
/// aligned leaves' storages.
#[derive(Clone, Copy)]
struct Walked<'w> {
    entities: &'w [Entity],
    position: usize,
}

/// When a walk that is not dense looks for *runs* (see [`Query::run`]): a run of walked
/// entities that every looked-up storage holds in the same order is read by position,
/// with no lookup. Storages filled in the same order (spawned together) are one long run;
/// storages in unrelated orders give runs of one, so after each short run the walk looks
/// entities up one by one for a while (1, 3, 7, … up to [`MAX_SKIP`] of them) before it
/// tries again, which bounds what looking costs where there is nothing to find.
#[derive(Clone, Copy, Default)]
struct Runs {
    /// Entities still to look up one by one.
    skip: u32,
    /// The current stretch of one-by-one lookups after a short run.
    backoff: u32,
}

impl Runs {
    /// Whether to try a run at the next walked entity.
    #[inline(always)]
    fn try_now(&mut self) -> bool {
        if self.skip == 0 {
            return true;
        }
        self.skip -= 1;
        false
    }

    /// Records the length of the run just found.
    #[inline(always)]
    fn found(&mut self, run: usize) {
        if run >= SHORT_RUN {
            self.backoff = 0;
        } else {
            self.backoff = (self.backoff * 2 + 1).min(MAX_SKIP);
            self.skip = self.backoff;
        }
    }
}

impl<'w, Q: Query, F: Filter> View<'w, Q, F> {
    /// Makes the view's `Added`/`Changed` filters pass the stamps after count `since`
    /// (a scheduled system's last run) instead of those since the world's last tick.
    #[inline]
    pub(crate) fn since(&mut self, since: u32) {
        F::since(&mut self.filter, since);
    }

    /// Takes the view's storages from a world's parts and picks its driver. Inlined, so
    /// that a `#[world]`'s statically disjoint slots fold away the error path.
    ///
    /// # Errors
    /// An [`AccessError`] if a storage is not stored or already lent (only the run-time
    /// world can fail here).
    #[inline(always)]
    pub(crate) fn take<W: WorldParts + 'w>(parts: &mut W::Parts<'w>) -> Result<Self, AccessError>
    where
        Q: QueryOf<W>,
        F: FilterOf<W>,
    {
        let query = Q::take(parts)?;
        let filter = F::take(parts)?;
        Ok(Self::driven::<W>(parts, query, filter))
    }

    /// The view over its borrowed storages, with its driver picked (inlined as well: the
    /// caller's check of the result must see that it is a view).
    #[inline(always)]
    fn driven<W: WorldParts + 'w>(
        parts: &W::Parts<'w>,
        mut query: Q::Fetch<'w>,
        mut filter: F::Fetch<'w>,
    ) -> Self {
        let mut needs = Needs::default();
        Q::needs(&mut needs);
        F::needs(&mut needs);
        let choice = W::with_groups(parts, |groups| {
            driver::choose(
                &needs,
                groups,
                driver::Storages {
                    leaf_len: |leaf| Q::leaf_len(&query, leaf),
                    leaf_order: |leaf| Q::order(&query, leaf),
                    filter_len: |index| F::entities(&filter, index).len(),
                    filter_order: |index| F::order(&filter, index),
                },
            )
        });
        let Some(Choice {
            source,
            by,
            start,
            end,
            aligned,
            implied,
        }) = choice
        else {
            nothing_required()
        };
        let choice_aligned = aligned;
        // Positions are only trusted where they are in bounds: a leaf too short for the
        // walk (a broken world invariant) is looked up instead.
        let aligned = (0..Q::LEAVES.min(64))
            .filter(|&leaf| aligned >> leaf & 1 == 1 && Q::leaf_len(&query, leaf) >= end)
            .fold(0u64, |mask, leaf| mask | 1 << leaf);
        debug_assert_eq!(aligned, choice_aligned, "aligned leaves cover the walk");
        let all = |count: usize| {
            if count >= 64 {
                u64::MAX
            } else {
                (1u64 << count) - 1
            }
        };
        let dense = Q::LEAVES <= 64
            && F::FILTERS <= 64
            && !F::CHANGES
            && aligned == all(Q::LEAVES)
            && implied == all(F::FILTERS);
        Q::align(&mut query, aligned);
        // A dense walk hands out every component of the leaves it covers whole.
        let whole = if dense && start == 0 {
            (0..Q::LEAVES.min(64))
                .filter(|&leaf| Q::leaf_len(&query, leaf) == end)
                .fold(0u64, |mask, leaf| mask | 1 << leaf)
        } else {
            0
        };
        F::imply(&mut filter, implied);
        let (entities, start) = match source {
            Source::Leaf(leaf) => (&Q::entities(&query, leaf)[start..end], start),
            Source::Filter(index) => (&F::entities(&filter, index)[start..end], start),
            // A member set is no storage: nothing is aligned with it.
            Source::Members(members) => (&members[start..end], 0),
        };
        // What reading by position rests on: an aligned leaf holds the walked entities
        // at the walked positions (a group's invariant, or a shared order's name).
        #[cfg(debug_assertions)]
        for leaf in (0..Q::LEAVES.min(64)).filter(|&leaf| aligned >> leaf & 1 == 1) {
            debug_assert!(
                Q::entities(&query, leaf)[start..start + entities.len()] == *entities,
                "an aligned leaf holds the walked entities"
            );
        }
        View {
            query,
            filter,
            entities,
            start,
            aligned,
            dense,
            by,
            whole,
        }
    }

    /// Whether the view is dense: every leaf read by the driver's position and every
    /// filter implied (an owning group that holds every leaf's type, or storages that share
    /// the driver's order, see docs/access.md), so it loops over plain slices with no
    /// lookup and no test.
    pub fn is_dense(&self) -> bool {
        self.dense
    }

    /// An upper bound of the number of matches (the length of the walk); exact if the
    /// view [`is_dense`](View::is_dense).
    pub fn len_hint(&self) -> usize {
        self.entities.len()
    }

    /// The entities walked, in order (a superset of the matches unless dense).
    pub fn walked(&self) -> &'w [Entity] {
        self.entities
    }

    /// Calls `f` with each matching entity and its item: the fast path (a dense view runs
    /// a plain loop over its slices).
    #[inline]
    pub fn for_each(self, mut f: impl FnMut(Entity, Q::Item<'w>)) {
        if let Some(stamps) = self.scan_plan() {
            self.scan_changes(&stamps, &mut f);
            return;
        }
        self.walk(f);
    }

    /// The stamps of the view's change filter, if walking them beats walking the
    /// driver's entities (see [`few_pass`]). Decided once per view, over its whole walk:
    /// the stamps name every passing entity of the world, so a part of the walk (a worker's
    /// chunk) never scans them.
    #[inline]
    fn scan_plan(&self) -> Option<StampTest> {
        if !F::CHANGES {
            return None;
        }
        let stamps = F::scan(&self.filter)?;
        few_pass(&stamps, self.entities).then_some(stamps)
    }

    /// Walks the driver's entities in order, every one of them (the whole view, or one
    /// worker's chunk of it), calling `f` with each match.
    #[inline(always)]
    fn walk(mut self, f: impl FnMut(Entity, Q::Item<'w>)) {
        Q::whole(&mut self.query, self.whole);
        // The fetches move into locals whose addresses only the out-of-line run walk
        // borrows: left in `self`, they would be reloaded from memory after every write
        // through an item.
        let View {
            query,
            filter,
            entities,
            start,
            aligned,
            dense,
            ..
        } = self;
        Self::walk_from(
            query,
            filter,
            Walked {
                entities,
                position: start,
            },
            aligned,
            dense,
            f,
        );
    }

    /// The walk of [`walk`](Self::walk) from the fetches and the rest of the walk: what
    /// [`ViewIter`]'s `fold` runs too, from where the iterator is.
    #[inline(always)]
    fn walk_from(
        mut query: Q::Fetch<'w>,
        mut filter: F::Fetch<'w>,
        walked: Walked<'w>,
        aligned: u64,
        dense: bool,
        mut f: impl FnMut(Entity, Q::Item<'w>),
    ) {
        let Walked {
            entities,
            position: start,
        } = walked;
        if dense {
            Self::walk_dense(query, entities, start, f);
            return;
        }
        let mut runs = Runs::default();
        let mut backoff = 0u32;
        let mut i = 0;
        while let Some(&entity) = entities.get(i) {
            let position = start + i;
            i += 1;
            if !F::matches(&mut filter, entity) {
                continue;
            }
            // SAFETY: aligned leaves hold `entity` at `position` (driver); each entity of
            // the walk is distinct (a dense array or member set) and visited once, by this
            // walk only (chunks of a parallel walk are disjoint ranges of it; an
            // iterator's fold walks the entities its `next` has not reached).
            let Some(item) = (unsafe { Q::fetch(&mut query, entity, position, aligned) }) else {
                // The walked entities that a leaf's empty sparse page rules out too; after
                // a try that rules none out, the next 15 misses are not tried.
                if backoff == 0 {
                    let skipped = Self::certain_misses(&query, &entities[i..]);
                    i += skipped;
                    backoff = if skipped == 0 { 15 } else { 0 };
                } else {
                    backoff -= 1;
                }
                continue;
            };
            f(entity, item);
            // A match: the walked entities after it may follow in every looked-up storage
            // too.
            if i < entities.len() && runs.try_now() {
                let rest = Walked {
                    entities: &entities[i..],
                    position: start + i,
                };
                let (taken, back) = Self::run_from(&mut query, filter, rest, &mut runs, &mut f);
                i += taken;
                filter = back;
            }
        }
    }

    /// How many of `walked`, right after an entity the query lacked, it certainly lacks
    /// too ([`Query::certain_misses`]). Out of line, and tried at most once in 16 misses that
    /// rule nothing out: called from the walk's loop, the check made the compiler stop
    /// inlining the iterator's `next` into `for` loops over views (W5's view by a `for`
    /// loop: 31.6M → 71.1M instructions), and on every miss it cost interleaved kinds
    /// 3% of a frame.
    #[inline(never)]
    fn certain_misses(query: &Q::Fetch<'w>, walked: &[Entity]) -> usize {
        Q::certain_misses(query, walked)
    }

    /// [`for_each`](Self::for_each) driven by a change filter's stamps instead of the
    /// walk: a read of 4 bytes per entity index rather than of each walked entity, for a
    /// view whose matches are few (the entities changed since the tick). The stamps name
    /// live entities of the filter's storage, each once; every filter is tested and every
    /// leaf looked up, so the matches are the walk's (in index order).
    #[inline(never)]
    fn scan_changes(mut self, stamps: &StampTest, f: &mut impl FnMut(Entity, Q::Item<'w>)) {
        Q::align(&mut self.query, 0);
        stamps.scan(|entity| {
            // SAFETY: aligned with nothing (above); the view is consumed by this one scan,
            // which names each entity once (one stamp per index), so no item for it is
            // alive.
            let item = unsafe { Self::changed_item(&mut self.query, &mut self.filter, entity) };
            if let Some(item) = item {
                f(entity, item);
            }
        });
    }

    /// The item of `entity`, named by a change filter's stamps, if it matches: every
    /// filter tested and every leaf looked up (the query aligned with nothing).
    ///
    /// # Safety
    /// `query` is aligned with no leaf, and no item for `entity` obtained from it (or
    /// another handle on the same fetch) is alive.
    #[inline(always)]
    unsafe fn changed_item(
        query: &mut Q::Fetch<'w>,
        filter: &mut F::Fetch<'w>,
        entity: Entity,
    ) -> Option<Q::Item<'w>> {
        if !F::matches_all(filter, entity) {
            return None;
        }
        // SAFETY: no leaf is aligned, so `position` is not read; no item for `entity` is
        // alive (caller); it is alive (it has a stamped component), as a walked entity is,
        // so the leaves find it by its index.
        unsafe { Q::fetch(query, entity, 0, 0) }
    }

    /// The walk of a dense view: every leaf read by position. The fetch comes by value, a
    /// local of this loop's own that nothing else reaches.
    #[inline(always)]
    fn walk_dense(
        mut query: Q::Fetch<'w>,
        entities: &'w [Entity],
        start: usize,
        mut f: impl FnMut(Entity, Q::Item<'w>),
    ) {
        for (i, &entity) in entities.iter().enumerate() {
            // SAFETY: every leaf is aligned and its storage holds the walked entities at
            // `start + i` (driver); each position is visited once, by this walk only (a
            // worker's chunk is a range of positions no other chunk has; an iterator's
            // fold, the positions its `next` has not reached).
            f(entity, unsafe { Q::fetch_aligned(&mut query, start + i) });
        }
    }

    /// Walks the run that starts at the first of `rest`, if there is one (see
    /// [`Query::run`]): calls `f` with each of its matches, read by position. Returns the
    /// number of walked entities it took, and the filter's fetch, which it holds by value
    /// (in a local the writes through the items cannot reach) and hands back. Out of line,
    /// so that the loop of lookups that calls it keeps its registers.
    #[inline(never)]
    fn run_from(
        query: &mut Q::Fetch<'w>,
        mut filter: F::Fetch<'w>,
        rest: Walked<'w>,
        runs: &mut Runs,
        f: &mut impl FnMut(Entity, Q::Item<'w>),
    ) -> (usize, F::Fetch<'w>) {
        let Walked {
            entities: walked,
            position,
        } = rest;
        // The run is compared and walked one window at a time, each window compared once:
        // the first finds the leaves' entities (`Q::run`), the next go on from where the
        // last ended (`Q::run_on`, no lookup). Windows grow fourfold, so that finding a
        // run costs in proportion to its length, not to the rest of the walk (two
        // storages holding the same entities in the same order, one long run for every
        // leaf but one that ends it, would otherwise be compared to their ends at every
        // try). Capping them so that the compared entities stay cached for the walk was
        // measured slower: the walk streams best in long stretches.
        let mut window = FIRST_WINDOW;
        let mut taken = 0;
        while taken < walked.len() {
            let probe = &walked[taken..taken + window.min(walked.len() - taken)];
            let start = position + taken;
            let run = if taken == 0 {
                Q::run(query, probe, start).unwrap_or(0)
            } else {
                Q::run_on(query, probe, start)
            };
            if run == 0 {
                break;
            }
            // The window's run is read through a copy of the query's fetch held in a
            // local, which the writes through its items cannot reach (the caller's fetch
            // is behind a pointer and would be reloaded after each write). The copy is
            // made after the compare, so it carries the run's offsets (`fetch_run`'s
            // contract), and dropped before the next window's.
            // SAFETY: the copy yields the items of this window's run, whose entities the
            // walk visits once (the caller's handle yields the walk's other entities
            // only), and `query` is not used while the copy lives.
            let mut shared = unsafe { Q::share(query) };
            for (k, &entity) in probe[..run].iter().enumerate() {
                if F::matches(&mut filter, entity) {
                    // SAFETY: `start + k` is within the run as just compared and in
                    // bounds of the aligned leaves (driver); each position is visited
                    // once.
                    f(entity, unsafe { Q::fetch_run(&mut shared, start + k) });
                }
            }
            taken += run;
            if run < probe.len() {
                break;
            }
            window = window.saturating_mul(4);
        }
        runs.found(taken);
        (taken, filter)
    }

    /// Calls `f` with each matching entity and its item on rayon's thread pool: the walk
    /// is cut into chunks of consecutive positions, each walked by one worker, so every
    /// item is yielded once, by one worker (feature `rayon`).
    ///
    /// ```
    /// # use sparse_core::{Component, World, Without};
    /// # struct P(f32); impl Component for P {}
    /// # struct V(f32); impl Component for V {}
    /// # struct Frozen; impl Component for Frozen {}
    /// let mut world = World::new();
    /// let movers = world.spawn_batch((0..10_000).map(|i| (P(i as f32), V(1.0))));
    /// world.insert(movers[0], Frozen)?;
    /// world
    ///     .borrow::<sparse_core::View<(&mut P, &V), Without<Frozen>>>()?
    ///     .par_for_each(|_, (p, v)| p.0 += v.0);
    /// assert_eq!(world.get::<P>(movers[0]).unwrap().0, 0.0);
    /// assert_eq!(world.get::<P>(movers[1]).unwrap().0, 2.0);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    ///
    /// # Panics
    /// If `f` panics, the panic reaches the caller once every worker has stopped; the
    /// values written so far stay, and the world stays consistent.
    #[cfg(feature = "rayon")]
    pub fn par_for_each(mut self, f: impl Fn(Entity, Q::Item<'w>) + Send + Sync) {
        if let Some(stamps) = self.scan_plan() {
            self.par_scan_changes(&stamps, &f);
            return;
        }
        // Stamped once, before the walk is cut: the chunks' handles then mark nothing.
        Q::whole(&mut self.query, self.whole);
        let View {
            query,
            filter,
            entities,
            start,
            aligned,
            dense,
            by,
            whole: _,
        } = self;
        crate::parallel::for_each_chunk(entities.len(), |range| {
            // The chunk as a view of its own (the same leaves and driver, a part of the
            // walk), walked in order: never scanned (see `scan_plan`).
            let chunk = View::<Q, F> {
                // SAFETY: chunks are disjoint ranges of the walk, whose entities are
                // distinct (a dense array or a member set), and a chunk's walk reaches its
                // own entities only: each worker's handles yield its own entities' items.
                query: unsafe { Q::share(&query) },
                filter: filter.clone(),
                start: start + range.start,
                entities: &entities[range],
                aligned,
                dense,
                by,
                whole: 0,
            };
            chunk.walk(&f);
        });
    }

    /// [`par_for_each`](Self::par_for_each) driven by a change filter's stamps: the
    /// stamps are scanned once, into a list of distinct entities, and the list is cut
    /// into the workers' chunks.
    #[cfg(feature = "rayon")]
    #[inline(never)]
    fn par_scan_changes(
        mut self,
        stamps: &StampTest,
        f: &(impl Fn(Entity, Q::Item<'w>) + Send + Sync),
    ) {
        Q::align(&mut self.query, 0);
        let mut named = Vec::new();
        stamps.scan(|entity| named.push(entity));
        let (query, filter) = (self.query, self.filter);
        crate::parallel::for_each_chunk(named.len(), |range| {
            // SAFETY: the scan names each entity once (one stamp per index), and chunks
            // are disjoint ranges of its list: each worker's handles yield its own
            // entities' items only.
            let mut query = unsafe { Q::share(&query) };
            let mut filter = filter.clone();
            for &entity in &named[range] {
                // SAFETY: aligned with nothing; this worker's entity, fetched once.
                if let Some(item) = unsafe { Self::changed_item(&mut query, &mut filter, entity) } {
                    f(entity, item);
                }
            }
        });
    }

    /// The item of `entity`, if it matches.
    pub fn get(&mut self, entity: Entity) -> Option<Q::Item<'_>> {
        let mut query = Q::reborrow(&mut self.query);
        if !F::matches_all(&mut self.filter, entity) {
            return None;
        }
        // SAFETY: the item borrows `self` mutably, so no other item of this view is alive.
        unsafe { Q::lookup(&mut query, entity) }
    }

    /// The item of `entity`, if it matches, for as long as the view's borrow of the
    /// world (the view is used up: what `get_mut::<(&mut A, &B)>(e)` returns).
    pub fn into_item(mut self, entity: Entity) -> Option<Q::Item<'w>> {
        if !F::matches_all(&mut self.filter, entity) {
            return None;
        }
        // SAFETY: the view is consumed, so no other item of it is or will be alive.
        unsafe { Q::lookup(&mut self.query, entity) }
    }

    /// Whether `entity` matches the view (nothing is handed out, so nothing is stamped).
    pub fn contains(&mut self, entity: Entity) -> bool {
        let mut query = Q::reborrow(&mut self.query);
        // SAFETY: the item is dropped at once, unstamped; it borrows `self` mutably, so no
        // other item of this view is alive.
        F::matches_all(&mut self.filter, entity)
            && unsafe { Q::lookup_unmarked(&mut query, entity) }.is_some()
    }

    /// Iterates over the matches, borrowing the view.
    pub fn iter_mut(&mut self) -> ViewIter<'_, Q, F> {
        ViewIter::new(
            Q::reborrow(&mut self.query),
            F::reborrow(&self.filter),
            self.entities,
            self.start,
            self.aligned,
            self.dense,
        )
    }
}

impl<'w, Q: ReadOnlyQuery, F: Filter> View<'w, Q, F> {
    /// Iterates over the matches of a read-only view.
    pub fn iter(&self) -> ViewIter<'w, Q, F> {
        ViewIter::new(
            Q::copy(&self.query),
            self.filter.clone(),
            self.entities,
            self.start,
            self.aligned,
            self.dense,
        )
    }
}

/// How a view walks: the length of its walk, whether it is dense, what drives it
/// (`Storage`, `Group` or `Members`, see [`View`]), and whether `for_each` and
/// `par_for_each` walk a change filter's stamps instead (`scans_stamps`).
impl<Q: Query, F: Filter> fmt::Debug for View<'_, Q, F> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("View")
            .field("walked", &self.entities.len())
            .field("dense", &self.dense)
            .field("driven_by", &self.by)
            .field("scans_stamps", &self.scan_plan().is_some())
            .finish_non_exhaustive()
    }
}

/// An iterator over a view's matches: `(entity, item)`.
pub struct ViewIter<'w, Q: Query, F: Filter = ()> {
    query: Q::Fetch<'w>,
    filter: F::Fetch<'w>,
    /// The walked entities still to come.
    entities: core::slice::Iter<'w, Entity>,
    /// The position of the next walked entity in the aligned leaves' storages.
    position: usize,
    /// The leaves read by position (see [`View`]).
    aligned: u64,
    dense: bool,
}

impl<'w, Q: Query, F: Filter> ViewIter<'w, Q, F> {
    fn new(
        query: Q::Fetch<'w>,
        filter: F::Fetch<'w>,
        entities: &'w [Entity],
        start: usize,
        aligned: u64,
        dense: bool,
    ) -> Self {
        ViewIter {
            query,
            filter,
            entities: entities.iter(),
            position: start,
            aligned,
            dense,
        }
    }
}

impl<'w, Q: Query, F: Filter> Iterator for ViewIter<'w, Q, F> {
    type Item = (Entity, Q::Item<'w>);

    /// One walked entity at a time, looking up what the driver does not hold: `next`
    /// keeps no run (see [`View::for_each`]), whose bookkeeping across calls costs more
    /// than it saves in a `for` loop (tried four ways: the loop the compiler made of it
    /// carried the run's state from one entity to the next, 29 → 33–61 instructions per
    /// entity over W1 with no group); the adapters that consume the iterator walk runs
    /// ([`fold`](Self::fold), [`for_each`](Self::for_each)). Always inlined: out of line (as the
    /// inliner chose in a large binary) each entity paid a call and the item's return
    /// through memory.
    #[inline(always)]
    fn next(&mut self) -> Option<Self::Item> {
        loop {
            let &entity = self.entities.next()?;
            let position = self.position;
            self.position += 1;
            if self.dense {
                // SAFETY: every leaf is aligned and holds the walked entity at `position`;
                // positions are visited once, so no two items alias.
                return Some((entity, unsafe {
                    Q::fetch_aligned(&mut self.query, position)
                }));
            }
            if !F::matches(&mut self.filter, entity) {
                continue;
            }
            // SAFETY: aligned leaves hold `entity` at `position`; walked entities are
            // distinct and visited once, so no two items alias.
            if let Some(item) = unsafe { Q::fetch(&mut self.query, entity, position, self.aligned) }
            {
                return Some((entity, item));
            }
        }
    }

    /// The rest of the walk as [`View::for_each`] walks the driver's entities (runs read
    /// by position; never a change filter's stamps, whose order differs), in the order
    /// `next` yields it: what `sum`, `count`, `max_by_key` and the other adapters built on
    /// `fold` run. (`collect` into a `Vec`, and `find`, `any` and the others built on
    /// `try_fold`, call `next`.)
    #[inline]
    fn fold<B, G>(self, init: B, mut g: G) -> B
    where
        G: FnMut(B, Self::Item) -> B,
    {
        let mut acc = Some(init);
        self.for_each(|item| {
            if let Some(value) = acc.take() {
                acc = Some(g(value, item));
            }
        });
        acc.expect("the accumulator is put back after each item")
    }

    /// [`fold`](Self::fold) with nothing carried from one item to the next.
    #[inline]
    fn for_each<G>(self, mut g: G)
    where
        G: FnMut(Self::Item),
    {
        let walked = Walked {
            entities: self.entities.as_slice(),
            position: self.position,
        };
        View::<Q, F>::walk_from(
            self.query,
            self.filter,
            walked,
            self.aligned,
            self.dense,
            |entity, item| g((entity, item)),
        );
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let left = self.entities.len();
        (if self.dense { left } else { 0 }, Some(left))
    }
}

impl<Q: Query, F: Filter> FusedIterator for ViewIter<'_, Q, F> {}

impl<'w, Q: Query, F: Filter> IntoIterator for View<'w, Q, F> {
    type Item = (Entity, Q::Item<'w>);
    type IntoIter = ViewIter<'w, Q, F>;

    fn into_iter(self) -> Self::IntoIter {
        ViewIter::new(
            self.query,
            self.filter,
            self.entities,
            self.start,
            self.aligned,
            self.dense,
        )
    }
}

impl<'a, Q: Query, F: Filter> IntoIterator for &'a mut View<'_, Q, F> {
    type Item = (Entity, Q::Item<'a>);
    type IntoIter = ViewIter<'a, Q, F>;

    fn into_iter(self) -> Self::IntoIter {
        self.iter_mut()
    }
}

impl<'w, Q: ReadOnlyQuery, F: Filter> IntoIterator for &View<'w, Q, F> {
    type Item = (Entity, Q::Item<'w>);
    type IntoIter = ViewIter<'w, Q, F>;

    fn into_iter(self) -> Self::IntoIter {
        self.iter()
    }
}
