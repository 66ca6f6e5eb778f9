//! Attacks on the crate from safe code, as a user would write them, that must leave every
//! world consistent and never alias: the run-time half of the soundness regression tests
//! (the compile-time half is in `tests/ui/fail/sealed/`: doors that no longer compile).
//!
//! These tests are also what `scripts/valgrind.sh` and the AddressSanitizer step of CI run:
//! a regression here that turned into aliasing or a double drop is reported there even
//! where the assertions below would not notice it.

use std::panic::{AssertUnwindSafe, catch_unwind};

use sparse_groups::{Component, Entity, Get, Storage, World, world};

#[derive(Component, Debug, PartialEq)]
struct V(u32);
#[derive(Component, Debug, PartialEq)]
struct P(u32);

fn entity(index: u32) -> Entity {
    Entity::from_raw_parts(index, 1).unwrap()
}

/// Hole 3: `__private::group_mut` over two storages that each pass `check()`, where a
/// removed entity's sparse entry (garbage, as the sparse-set design allows) still points
/// at a position another entity now holds. Release builds used to trust the entry, so
/// both members of the group reached the same `P`. Every lookup is checked now: the
/// member without a `P` is a broken invariant, and a panic says so.
#[test]
fn a_group_over_stale_sparse_entries_never_yields_one_component_twice() {
    let (e1, e2) = (entity(1), entity(2));
    let mut owned = Storage::new();
    owned.insert(e1, V(1));
    owned.insert(e2, V(2));
    let mut observed = Storage::new();
    observed.insert(e1, P(1));
    observed.remove(e1); // e1's entry still says position 0 …
    observed.insert(e2, P(2)); // … which e2 now holds
    owned.check().unwrap();
    observed.check().unwrap();

    let walk = catch_unwind(AssertUnwindSafe(|| {
        let group =
            sparse_groups::__private::group_mut::<(V, Get<P>)>((&mut owned,), 2, (&mut observed,));
        let mut seen: Vec<*const P> = Vec::new();
        group.for_each(|_, (_, p)| seen.push(p));
        seen
    }));
    assert!(
        walk.is_err(),
        "a member without an observed component is refused"
    );

    let iterate = catch_unwind(AssertUnwindSafe(|| {
        let mut group =
            sparse_groups::__private::group_mut::<(V, Get<P>)>((&mut owned,), 2, (&mut observed,));
        let items: Vec<_> = group.iter_mut().map(|(e, (_, p))| (e, p.0)).collect();
        items
    }));
    assert!(iterate.is_err(), "the iterator refuses it too");
    owned.check().unwrap();
    observed.check().unwrap();
}

/// An iterator whose size hint claims far more than it yields.
struct Liar<I> {
    items: I,
    claim: usize,
}

impl<I: Iterator> Iterator for Liar<I> {
    type Item = I::Item;

    fn next(&mut self) -> Option<I::Item> {
        self.items.next()
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        (self.claim, None)
    }
}

fn liar<I: IntoIterator>(items: I, claim: usize) -> Liar<I::IntoIter> {
    Liar {
        items: items.into_iter(),
        claim,
    }
}

#[world]
#[group(V, get(P))]
struct Scene {
    v: Storage<V>,
    p: Storage<P>,
}

/// A lower bound of 2⁴⁰ used to abort the process on the failed allocation, and
/// `usize::MAX` to panic with "capacity overflow": a hint only reserves up to a cap, and
/// fallibly.
#[test]
fn insert_many_survives_an_absurd_size_hint_in_both_worlds() {
    for claim in [1 << 40, usize::MAX] {
        let mut scene = Scene::new();
        let es: Vec<Entity> = (0..3).map(|_| scene.spawn()).collect();
        let added = scene
            .insert_many(liar(es.iter().map(|&e| (e, V(1))), claim))
            .unwrap();
        assert_eq!(added, 3);
        scene.check().unwrap();

        let mut world = World::new();
        let es: Vec<Entity> = (0..3).map(|_| world.spawn()).collect();
        let added = world
            .insert_many(liar(es.iter().map(|&e| (e, V(1))), claim))
            .unwrap();
        assert_eq!(added, 3);
        world.check().unwrap();
    }
}

/// A batch that claims a million items and yields three used to reserve room for a
/// million in every storage (24 MB each here): a hint reserves at most a cap, and the
/// storages grow as items arrive.
#[test]
fn spawn_batch_reserves_little_for_a_hint_it_cannot_trust() {
    let claim = 1_000_000;
    let mut scene = Scene::new();
    let spawned = scene.spawn_batch(liar((0..3).map(|i| (V(i), P(i))), claim));
    assert_eq!(spawned.len(), 3);
    assert!(scene.storage::<V>().capacity() < claim / 8);
    assert!(scene.storage::<P>().capacity() < claim / 8);
    scene.check().unwrap();

    let mut world = World::new();
    let spawned = world.spawn_batch(liar((0..3).map(|i| (V(i), P(i))), claim));
    assert_eq!(spawned.len(), 3);
    assert!(world.storage::<V>().unwrap().capacity() < claim / 8);
    world.check().unwrap();

    for claim in [1 << 40, usize::MAX] {
        let spawned = scene.spawn_batch(liar((0..3).map(|i| (V(i), P(i))), claim));
        assert_eq!(spawned.len(), 3);
        let spawned = world.spawn_batch(liar((0..3).map(|i| (V(i), P(i))), claim));
        assert_eq!(spawned.len(), 3);
    }
    scene.check().unwrap();
    world.check().unwrap();
}

/// A component that counts its drops, to show that a failed operation drops each value
/// exactly once.
#[derive(Debug)]
struct Counted(std::rc::Rc<core::cell::Cell<usize>>);

impl Drop for Counted {
    fn drop(&mut self) {
        self.0.set(self.0.get() + 1);
    }
}

/// A radix sort reads each key up to three times (the sortedness check, the bucket counts,
/// the scatter). A key that changed between two reads used to make the scatter write one
/// slot twice, so the gather read one component twice: a double free. The scatter now
/// refuses to spill a bucket, and the storage stays as it was.
#[test]
fn a_radix_key_that_changes_between_reads_is_refused_and_drops_nothing_twice() {
    let drops = std::rc::Rc::new(core::cell::Cell::new(0));
    let mut storage: Storage<Counted> = (0..3)
        .map(|i| (entity(i), Counted(drops.clone())))
        .collect();
    let before: Vec<Entity> = storage.entities().to_vec();
    // Calls 0..3: unsorted; 3..6: bucket counts; 6..9: the scatter disagrees.
    let keys = [2u64, 1, 0, 0, 1, 2, 0, 0, 1];
    let mut call = 0;
    let sorted = catch_unwind(AssertUnwindSafe(|| {
        storage.sort_by_radix_key(|_| {
            let key = keys[call % keys.len()];
            call += 1;
            key
        });
    }));
    assert!(sorted.is_err(), "two keys for one component are refused");
    storage.check().unwrap();
    assert_eq!(storage.entities(), &before[..], "nothing moved");
    assert_eq!(drops.get(), 0);
    drop(storage);
    assert_eq!(drops.get(), 3, "each value dropped once");
}

/// Public `SparseSet` calls used to leave one handle twice in a set (`insert` of another
/// version of a member's index appended it). An index holds one version: inserting
/// another replaces it, as `Storage::insert` does.
#[test]
fn a_sparse_set_never_holds_an_index_twice() {
    let version = |v| Entity::from_raw_parts(1, v).unwrap();
    let mut members = sparse_groups::SparseSet::new();
    assert!(members.insert(version(1)));
    assert!(
        members.insert(version(2)),
        "another version takes the index over"
    );
    assert!(members.insert(version(1)));
    assert_eq!(members.as_slice(), &[version(1)]);
    members.check().unwrap();
}

/// `__private::group_over` is for non-owning groups, but takes any key: with an owning one
/// it used to walk the members over owned slices cut to length zero (reads and writes out
/// of bounds). The owned slices are cut to the members' number now, or it panics.
#[test]
fn a_non_owning_group_with_an_owning_key_stays_in_bounds() {
    let members: sparse_groups::SparseSet = (0..8).map(entity).collect();
    let mut short: Storage<V> = Storage::new();
    short.insert(entity(0), V(0));
    let made = catch_unwind(AssertUnwindSafe(|| {
        let group = sparse_groups::__private::group_over::<(V,)>(&members, (&mut short,), ());
        group.into_iter().count()
    }));
    assert!(
        made.is_err(),
        "a storage shorter than the members is refused"
    );
}

/// A hand-made `ComponentPlan` whose storage disagrees with its allocator.
struct Lying<'a> {
    entities: &'a mut sparse_groups::Entities,
    storage: &'a mut Storage<V>,
}

impl sparse_groups::__private::ComponentPlan for Lying<'_> {
    type Component = V;
    fn entities(&self) -> &sparse_groups::Entities {
        self.entities
    }
    fn entities_mut(&mut self) -> &mut sparse_groups::Entities {
        self.entities
    }
    fn storage(&mut self) -> &mut Storage<V> {
        self.storage
    }
    fn after_add(&mut self, _: Entity, _: usize) {}
    fn before_remove(&mut self, _: Entity, position: usize) -> usize {
        position
    }
    fn after_remove(&mut self, _: Entity) {}
    fn after_add_many(&mut self, _: &[Entity], _: &sparse_groups::__private::Marks) {}
    fn leaves_on_add(&self) -> bool {
        false
    }
    fn before_remove_many(&mut self, _: &[Entity], _: &sparse_groups::__private::Marks) {}
    fn after_remove_many(&mut self, _: &[Entity]) {}
    fn before_clear(&mut self) {}
}

/// `__private::append_many` (a snapshot load's bulk append) used to trust its entities to
/// be distinct and new, so a hand-made plan could file one entity twice in a storage,
/// after which a group over it yielded two `&mut` to one observed component. Every
/// appended entity is checked now, and a refused batch changes nothing.
#[test]
fn a_bulk_append_refuses_an_entity_twice_and_changes_nothing() {
    let mut entities = sparse_groups::Entities::new();
    let e = entities.spawn();
    let f = entities.spawn();
    let mut storage = Storage::new();
    storage.insert(f, V(9));
    for batch in [vec![e, e], vec![e, f]] {
        let values: Vec<V> = batch.iter().map(|_| V(0)).collect();
        let appended = catch_unwind(AssertUnwindSafe(|| {
            let plan = Lying {
                entities: &mut entities,
                storage: &mut storage,
            };
            sparse_groups::__private::append_many(plan, &batch, values);
        }));
        assert!(appended.is_err(), "{batch:?} is refused");
        storage.check().unwrap();
        assert_eq!(storage.entities(), &[f], "nothing was appended");
    }
}

/// A hand-made world of one's own, with its own key.
struct Own {
    storage: Storage<V>,
    entities: sparse_groups::Entities,
}

/// Its key: a value anyone can make, for this world only.
struct OwnKey;

impl sparse_groups::__private::Internals for Own {
    type Key = OwnKey;
    fn entities_mut(&mut self, _: &OwnKey) -> &mut sparse_groups::Entities {
        &mut self.entities
    }
    fn enter_all_groups(&mut self, _: &OwnKey, _: Entity) {}
    /// A liar: a reserved spawn then files its bundle for an entity that has one.
    fn holds_nothing(&self, _: Entity) -> bool {
        true
    }
}

impl sparse_groups::__private::InternalStorage<V> for Own {
    fn storage_mut(&mut self, _: &OwnKey) -> &mut Storage<V> {
        &mut self.storage
    }
}

impl sparse_groups::Edit<V> for Own {
    fn insert(&mut self, e: Entity, v: V) -> Result<Option<V>, sparse_groups::EntityError> {
        Ok(self.storage.insert(e, v))
    }
    fn remove(&mut self, e: Entity) -> Option<V> {
        self.storage.remove(e)
    }
    fn insert_many(
        &mut self,
        _: Vec<(Entity, V)>,
    ) -> Result<usize, sparse_groups::InsertManyError<V>> {
        Ok(0)
    }
    fn remove_many(&mut self, _: &[Entity]) -> usize {
        0
    }
    fn clear(&mut self) {}
}

impl sparse_groups::__private::WorldParts for Own {
    type Parts<'w> = &'w sparse_groups::Entities;
    fn parts(&mut self) -> Self::Parts<'_> {
        &self.entities
    }
    fn parts_ref(&self) -> Self::Parts<'_> {
        &self.entities
    }
    fn reborrow_parts<'a>(parts: &'a mut Self::Parts<'_>) -> Self::Parts<'a>
    where
        Self: 'a,
    {
        parts
    }
    fn split_parts<'w>(
        parts: &mut Self::Parts<'w>,
        _: &[core::any::TypeId],
        _: &[core::any::TypeId],
    ) -> Self::Parts<'w>
    where
        Self: 'w,
    {
        parts
    }
    fn stamp_parts_at(_: &Self::Parts<'_>, _: u32) {}
    type Lent<R> = Result<R, sparse_groups::AccessError>;
    const PROVEN: bool = false;
    fn lent<R>(taken: Result<R, sparse_groups::AccessError>) -> Self::Lent<R> {
        taken
    }
    fn entities_of<'w>(parts: &Self::Parts<'w>) -> &'w sparse_groups::Entities {
        parts
    }
    fn with_groups<'w, R>(
        _: &Self::Parts<'w>,
        f: impl FnOnce(&[sparse_groups::__private::GroupShape<'_, 'w>]) -> R,
    ) -> R {
        f(&[])
    }
    // Any count: it only decides what change filters pass, never what is lent.
    fn step_changes(&mut self) -> sparse_groups::__private::ChangeCount {
        sparse_groups::__private::ChangeCount::NEVER
    }
}

impl sparse_groups::EditEntities for Own {
    fn entities(&self) -> &sparse_groups::Entities {
        &self.entities
    }
    fn flush_entities(&mut self) {}
    fn spawn_entity(&mut self) -> Entity {
        self.entities.spawn()
    }
    fn spawn_with<B: sparse_groups::Bundle<Self>>(&mut self, bundle: B) -> Entity {
        sparse_groups::__private::spawn_with(self, &OwnKey, bundle)
    }
    fn spawn_batch<B: sparse_groups::Bundle<Self>>(
        &mut self,
        bundles: impl IntoIterator<Item = B>,
    ) -> Vec<Entity> {
        sparse_groups::__private::spawn_batch(self, &OwnKey, bundles)
    }
    fn spawn_reserved<B: sparse_groups::Bundle<Self>>(
        &mut self,
        entity: Entity,
        bundle: B,
    ) -> Result<(), sparse_groups::EntityError> {
        sparse_groups::__private::spawn_reserved(self, &OwnKey, entity, bundle)
    }
    fn reserve_entities(&mut self, _: usize) {}
    fn destroy(&mut self, _: Entity) -> Result<(), sparse_groups::EntityError> {
        Ok(())
    }
    fn destroy_many(&mut self, _: &[Entity]) -> usize {
        0
    }
}

/// A world whose `holds_nothing` lies: a reserved spawn files its bundle as a new
/// entity's for an entity that already has the component. Filing checks every entity, so
/// the storage refuses the second row (a panic), drops the pending component and stays
/// consistent: one component per entity, never two rows for one handle.
#[test]
fn a_reserved_spawn_over_a_lying_world_never_files_an_entity_twice() {
    let mut own = Own {
        storage: Storage::new(),
        entities: sparse_groups::Entities::new(),
    };
    let e = own.entities.spawn();
    own.storage.insert(e, V(1));
    let filed = catch_unwind(AssertUnwindSafe(|| {
        let _ = sparse_groups::EditEntities::spawn_reserved(&mut own, e, (V(2),));
    }));
    assert!(filed.is_err(), "the second row for one entity is refused");
    own.storage.check().unwrap();
    assert_eq!((own.storage.len(), own.storage.get(e)), (1, Some(&V(1))));
}

/// A bundle's hidden `push_pending`, called by hand on a world of one's own, leaves a
/// component ahead of its entity (a spawn's pending row, never filed). The group engine
/// used to count a storage's components as its length and swap past its entities. It
/// counts positions holding both now: nothing moves, nothing is read out of bounds.
#[test]
fn a_pending_row_left_behind_never_lets_a_group_move_past_the_entities() {
    use sparse_groups::Bundle;
    let mut own = Own {
        storage: Storage::new(),
        entities: sparse_groups::Entities::new(),
    };
    let e = own.entities.spawn();
    own.storage.insert(e, V(1));
    <(V,) as Bundle<Own>>::push_pending((V(2),), &mut own, &OwnKey);
    let mut len = 2;
    let at = sparse_groups::__private::leave(
        (&mut own.storage,),
        &mut len,
        e,
        sparse_groups::__private::PositionHint::NONE,
    );
    assert_eq!(
        (at, len),
        (0, 2),
        "nothing left the group: it is longer than its storage"
    );
    assert_eq!(own.storage.entities(), &[e]);
    // The crate's own spawn finds the row it did not push, refuses to file, and drops
    // every pending row on its way out: the storage is consistent again.
    let spawned = catch_unwind(AssertUnwindSafe(|| {
        sparse_groups::EditEntities::spawn_with(&mut own, (V(3),))
    }));
    assert!(spawned.is_err());
    own.storage.check().unwrap();
    assert_eq!(own.storage.len(), 1);
}

/// A hand-written `TrackChanges` impl for a type the world does not track lets an
/// `Added`/`Changed` filter compile; the view then finds no stamps and panics, naming the
/// impl and the fix (it used to blame a hand-written `Distinct` impl).
#[test]
fn a_hand_written_track_changes_impl_is_named_by_the_panic() {
    #[world]
    struct Untracked {
        values: Storage<V>,
    }
    impl sparse_groups::__private::TrackChanges<V> for Untracked {}

    let mut world = Untracked::new();
    world.spawn_with((V(1),));
    let panic = catch_unwind(AssertUnwindSafe(|| {
        world
            .view::<(&V, sparse_groups::Changed<V>)>()
            .into_iter()
            .count()
    }))
    .unwrap_err();
    let message = panic.downcast_ref::<String>().unwrap();
    assert!(
        message.contains("hand-written `TrackChanges<") && message.contains("#[track("),
        "{message}"
    );
    world.check().unwrap();
}

/// The hidden `EditEntities::spawn_reserved` (what a `spawn_reserved` command calls) with
/// an entity that is not alive, called from safe code: it used to file the bundle for it,
/// leaving components of a dead entity that nothing could remove. It refuses now.
#[test]
fn a_reserved_spawn_of_a_dead_entity_is_refused() {
    #[derive(Component, Debug, PartialEq)]
    struct B;
    let mut w = World::new();
    let ghost = Entity::from_raw_parts(7, 3).unwrap();
    assert_eq!(
        sparse_groups::EditEntities::spawn_reserved(&mut w, ghost, (V(1),)),
        Err(sparse_groups::EntityError::Dead(ghost))
    );
    // A destroyed entity whose index another holds now.
    let x = w.spawn();
    w.destroy(x).unwrap();
    let y = w.spawn_with((B,));
    assert!(sparse_groups::EditEntities::spawn_reserved(&mut w, x, (V(0), B)).is_err());
    assert_eq!((w.get::<V>(x), w.get::<V>(y)), (None, None));
    w.check().unwrap();
}

/// Hole 4: a change filter under `par_for_each`. Each worker's chunk of the walk was a
/// view of its own, and a chunk whose sample said "few pass" walked the *whole* stamp
/// table instead of its entities: every worker yielded the changed entities, so safe code
/// held two `&mut` to one component (a read after free once one of them grew a `Vec`).
/// Each program below is a user's, in both kinds of world; every item must come once, from
/// one worker, at an address no other item has.
#[cfg(feature = "rayon")]
mod parallel_change_filters {
    use std::collections::BTreeSet;
    use std::sync::Mutex;

    use sparse_groups::{Added, Changed, Component, Entity, GroupSpec, Storage, World, world};

    #[derive(Component, Debug, Default)]
    struct A(Vec<u32>);
    #[derive(Component, Debug, Default)]
    struct B(Vec<u32>);

    #[world]
    #[track(A)]
    struct Plain {
        a: Storage<A>,
        b: Storage<B>,
    }

    #[world]
    #[group(A, B)]
    #[track(A)]
    struct Grouped {
        a: Storage<A>,
        b: Storage<B>,
    }

    /// What a parallel walk handed out: each entity once, at distinct addresses, and
    /// exactly `expected`. The body writes through the reference (a `Vec` that grows), so
    /// that two workers holding one value is a race the sanitizers see.
    fn once_each(items: Mutex<Vec<(Entity, usize)>>, expected: &[Entity]) {
        let items = items.into_inner().unwrap();
        let entities: BTreeSet<Entity> = items.iter().map(|&(e, _)| e).collect();
        let addresses: BTreeSet<usize> = items.iter().map(|&(_, a)| a).collect();
        assert_eq!(
            entities.len(),
            items.len(),
            "an entity yielded twice: {items:?}"
        );
        assert_eq!(addresses.len(), items.len(), "one value handed out twice");
        assert_eq!(entities, expected.iter().copied().collect());
    }

    /// Writes the handed-out value (its `Vec` grows) and records where it lives.
    fn record(items: &Mutex<Vec<(Entity, usize)>>, e: Entity, value: &mut Vec<u32>) {
        value.extend(0..64);
        items.lock().unwrap().push((e, value.as_ptr() as usize));
    }

    #[test]
    fn a_changed_filter_beside_its_own_type_yields_each_entity_once() {
        let mut s = Plain::new();
        let mut d = World::new();
        d.track::<A>();
        let xs: Vec<Entity> = (0..100).map(|_| s.spawn_with((A::default(),))).collect();
        let ys: Vec<Entity> = (0..100).map(|_| d.spawn_with((A::default(),))).collect();
        // The changed entity anywhere in the walk: in the first worker's chunk or a later one.
        for changed in [5, 40, 80, 99] {
            s.tick();
            d.tick();
            s.get_mut::<A>(xs[changed]).unwrap().0.push(1);
            d.get_mut::<A>(ys[changed]).unwrap().0.push(1);

            let items = Mutex::new(Vec::new());
            s.view::<(&mut A, Changed<A>)>()
                .par_for_each(|e, a| record(&items, e, &mut a.0));
            once_each(items, &[xs[changed]]);
            let items = Mutex::new(Vec::new());
            d.view::<(&mut A, Changed<A>)>()
                .unwrap()
                .par_for_each(|e, a| record(&items, e, &mut a.0));
            once_each(items, &[ys[changed]]);
        }
        s.check().unwrap();
        d.check().unwrap();
    }

    #[test]
    fn an_added_filter_over_a_group_yields_each_entity_once() {
        let mut s = Grouped::new();
        let mut d = World::with_groups([GroupSpec::of::<(A, B)>()]).unwrap();
        d.track::<A>();
        for _ in 0..100 {
            s.spawn_with((A::default(), B::default()));
            d.spawn_with((A::default(), B::default()));
        }
        s.tick();
        d.tick();
        let x = s.spawn_with((A::default(), B::default()));
        let y = d.spawn_with((A::default(), B::default()));

        let items = Mutex::new(Vec::new());
        s.view::<(&mut B, Added<A>)>()
            .par_for_each(|e, b| record(&items, e, &mut b.0));
        once_each(items, &[x]);
        let items = Mutex::new(Vec::new());
        d.view::<(&mut B, Added<A>)>()
            .unwrap()
            .par_for_each(|e, b| record(&items, e, &mut b.0));
        once_each(items, &[y]);
        s.check().unwrap();
        d.check().unwrap();
    }

    #[test]
    fn a_changed_filter_on_a_rare_type_yields_each_entity_once() {
        let mut s = Plain::new();
        let mut d = World::new();
        d.track::<A>();
        let mut xs = Vec::new();
        let mut ys = Vec::new();
        for i in 0..200 {
            let (x, y) = if i < 3 {
                (
                    s.spawn_with((A::default(), B::default())),
                    d.spawn_with((A::default(), B::default())),
                )
            } else {
                (s.spawn_with((B::default(),)), d.spawn_with((B::default(),)))
            };
            xs.push(x);
            ys.push(y);
        }
        s.tick();
        d.tick();
        s.get_mut::<A>(xs[1]).unwrap().0.push(1);
        d.get_mut::<A>(ys[1]).unwrap().0.push(1);

        let items = Mutex::new(Vec::new());
        s.view::<(&mut B, Changed<A>)>()
            .par_for_each(|e, b| record(&items, e, &mut b.0));
        once_each(items, &[xs[1]]);
        let items = Mutex::new(Vec::new());
        d.view::<(&mut B, Changed<A>)>()
            .unwrap()
            .par_for_each(|e, b| record(&items, e, &mut b.0));
        once_each(items, &[ys[1]]);
        s.check().unwrap();
        d.check().unwrap();
    }
}

/// A view walk that mixes lookups and runs (each window of a run read through a copy of
/// the view's handles) hands out items the closure may keep: kept all at once, then written
/// through, they reach distinct values, each entity's once (Miri checks their
/// provenance as well, in `scripts/miri.sh`).
#[test]
fn items_kept_from_a_walk_of_runs_and_lookups_stay_distinct() {
    #[derive(Component, Debug)]
    struct Hp(u32);
    #[derive(Component, Debug)]
    struct Mp(u32);
    #[world]
    struct Scene {
        hp: Storage<Hp>,
        mp: Storage<Mp>,
    }
    let mut scene = Scene::new();
    // Every fourth of the first 120 entities lacks `Mp`: runs of three between failed
    // lookups, then a long run, read in windows (64 entities, then 256, ...).
    let has_mp = |i: u32| i % 4 != 3 || i >= 120;
    let entities: Vec<Entity> = (0..600)
        .map(|i| {
            if has_mp(i) {
                scene.spawn_with((Hp(i), Mp(i)))
            } else {
                scene.spawn_with((Hp(i),))
            }
        })
        .collect();
    // Moved to the end of their storages, which breaks the long run inside a later window
    // for each walk below: `Mp` of entity 450 and `Hp` of entity 520.
    let mp = scene.remove::<Mp>(entities[450]).unwrap();
    scene.insert(entities[450], mp).unwrap();
    let hp = scene.remove::<Hp>(entities[520]).unwrap();
    scene.insert(entities[520], hp).unwrap();

    // Each walk twice: by `for_each`, which reads runs, and by an iterator, which looks
    // every leaf up.
    for by_iterator in [false, true] {
        // `Hp` drives, `Mp` is an optional leaf looked up or read in runs.
        let mut kept = Vec::new();
        let view = scene.view::<(&mut Hp, Option<&mut Mp>)>();
        assert!(!view.is_dense());
        if by_iterator {
            kept.extend(view);
        } else {
            view.for_each(|e, item| kept.push((e, item)));
        }
        assert_eq!(kept.len(), entities.len());
        for (e, (hp, mp)) in &mut kept {
            hp.0 += 1000;
            if let Some(mp) = mp {
                assert_eq!(mp.0 + 1000, hp.0, "an item of {e:?} holds another's value");
                mp.0 += 1000;
            }
        }
        drop(kept);

        // `Mp` drives (the smaller storage), `Hp` is a required leaf read in runs.
        let mut kept = Vec::new();
        let view = scene.view::<(&mut Mp, &mut Hp)>();
        if by_iterator {
            kept.extend(view);
        } else {
            view.for_each(|e, item| kept.push((e, item)));
        }
        assert_eq!(kept.len(), (0..600).filter(|&i| has_mp(i)).count());
        for (e, (mp, hp)) in &mut kept {
            assert_eq!(mp.0, hp.0, "an item of {e:?} holds another's value");
            mp.0 += 1000;
            hp.0 += 1000;
        }
    }

    for (i, &e) in (0..600).zip(&entities) {
        let walks = if has_mp(i) { 4000 } else { 2000 };
        assert_eq!(scene.get::<Hp>(e).unwrap().0, i + walks, "Hp of entity {i}");
        if has_mp(i) {
            assert_eq!(scene.get::<Mp>(e).unwrap().0, i + 4000, "Mp of entity {i}");
        }
    }
    scene.check().unwrap();
}

/// A schedule's chains on threads, each on a part split off the world's parts, their
/// systems taking their parameters one after the other through reborrows, beside a chain
/// filtering by a type another writes (Miri checks every reference made, and ThreadSanitizer
/// the threads): each system sees and writes what it would in order, on both worlds.
#[test]
fn a_schedules_chains_on_threads_never_alias() {
    use sparse_groups::{Schedule, Threads, ValuesMut, View, With};
    #[derive(Component, Debug, PartialEq)]
    struct P(u32);
    #[derive(Component, Debug, PartialEq)]
    struct V(u32);
    #[derive(Component, Debug, PartialEq)]
    struct Tag;
    #[world]
    struct Scene {
        p: Storage<P>,
        v: Storage<V>,
        tags: Storage<Tag>,
    }
    // Chain one: `grow` then `double` write `P` (the second filters by `Tag`, which chain
    // two writes meanwhile); chain two: `tag_count` then `bump` write `Tag` and `V`.
    fn grow(view: View<'_, &mut P>) {
        view.for_each(|_, p| p.0 += 1);
    }
    fn double(view: View<'_, &mut P, With<Tag>>) {
        view.for_each(|_, p| p.0 *= 2);
    }
    fn tag_count(mut tags: ValuesMut<'_, Tag>, mut v: ValuesMut<'_, V>) {
        let count = u32::try_from(tags.values_mut().len()).unwrap();
        v.values_mut().iter_mut().for_each(|v| v.0 += count);
    }
    fn bump(view: View<'_, &mut V>) {
        view.for_each(|_, v| v.0 += 10);
    }
    let frames = if cfg!(miri) { 2 } else { 20 };
    let expected = |tagged: bool| {
        let mut p = 0;
        for _ in 0..frames {
            p += 1;
            if tagged {
                p *= 2;
            }
        }
        p
    };

    let mut scene = Scene::new();
    let a = scene.spawn_with((P(0), V(0), Tag));
    let b = scene.spawn_with((P(0), V(0)));
    let mut frame = Schedule::new((grow, double, tag_count, bump));
    frame.set_threads(Threads::Many);
    for _ in 0..frames {
        frame.run(&mut scene);
    }
    assert_eq!(
        frame.spans::<Scene>().unwrap().chains(),
        [vec![vec![0, 1], vec![2, 3]]]
    );
    assert_eq!(scene.get::<P>(a), Some(&P(expected(true))));
    assert_eq!(scene.get::<P>(b), Some(&P(expected(false))));
    assert_eq!(scene.get::<V>(b), Some(&V(11 * frames)));
    scene.check().unwrap();

    let mut world = World::new();
    let a = world.spawn_with((P(0), V(0), Tag));
    let b = world.spawn_with((P(0), V(0)));
    let mut frame = Schedule::new((grow, double, tag_count, bump));
    frame.set_threads(Threads::Many);
    for _ in 0..frames {
        frame.run(&mut world).unwrap();
    }
    assert_eq!(world.get::<P>(a), Some(&P(expected(true))));
    assert_eq!(world.get::<P>(b), Some(&P(expected(false))));
    assert_eq!(world.get::<V>(a), Some(&V(11 * frames)));
    world.check().unwrap();
}
