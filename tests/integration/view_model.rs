//! Views in worlds without groups against a plain model: the paths a view takes when no
//! group drives it (the smallest storage drives, the others are looked up, and runs of
//! entities that every storage holds in the same order are read by position) must visit
//! exactly the entities the model says, with the values the model holds, whatever the
//! storages' orders.
//!
//! The sequences spawn entities in batches (long runs: every storage filled in the same
//! order), then break the alignment with single inserts, removals, destructions and sorts
//! of one storage (runs of every length, and of none). Each view is walked by `for_each`,
//! a `for` loop, `iter` and a few `next` then `fold`, in a `#[world]` and in the run-time `World`, both against the
//! model; the loops must also visit in the same order.

use crate::common::cases_or;
use std::collections::BTreeMap;

use proptest::prelude::*;
use sparse_groups::{Component, Entity, View, With, Without, World, world};

#[derive(Component, Debug, Clone, Copy, PartialEq)]
struct A(u32);
#[derive(Component, Debug, Clone, Copy, PartialEq)]
struct B(u32);
#[derive(Component, Debug, Clone, Copy, PartialEq)]
struct C(u32);

/// No group: every view is driven by a storage.
#[world]
struct Plain {
    a: sparse_groups::Storage<A>,
    b: sparse_groups::Storage<B>,
    c: sparse_groups::Storage<C>,
}

/// The entities of world `$world` whose `A` is stamped changed since its last tick,
/// sorted. `$unwrap`: the run-time world's accesses are `Result`s.
macro_rules! changed_a {
    ($world:expr $(, $unwrap:ident)?) => {{
        let mut changed: Vec<Entity> = $world
            .view_ref::<(&A, sparse_groups::Changed<A>)>()$(.$unwrap())?
            .iter()
            .map(|(e, _)| e)
            .collect();
        changed.sort();
        changed
    }};
}

/// `Plain` with `A`'s changes tracked: for the tests of stamps in runs.
#[world]
#[track(A)]
struct Tracked {
    a: sparse_groups::Storage<A>,
    b: sparse_groups::Storage<B>,
    c: sparse_groups::Storage<C>,
}

/// What the model holds of one entity: its `A`, `B` and `C`.
type Row = [Option<u32>; 3];

#[derive(Debug, Clone)]
enum Op {
    /// `.1` entities with the components of bit mask `.0` (at least one), values from `.2`.
    Batch(u8, u8, u32),
    /// Type `.0` given to entity `.1` (replacing its value) with value `.2`.
    Insert(u8, usize, u32),
    Remove(u8, usize),
    Destroy(usize),
    /// Storage `.0` sorted by its values, descending when `.1`.
    Sort(u8, bool),
    /// View `.0` walked by loop `.1`, changing values with seed `.2`.
    Walk(u8, u8, u32),
}

fn op() -> impl Strategy<Value = Op> {
    prop_oneof![
        3 => (1u8..8, 1u8..40, 0u32..1000).prop_map(|(m, n, v)| Op::Batch(m, n, v)),
        4 => (0u8..3, any::<usize>(), 0u32..1000).prop_map(|(t, e, v)| Op::Insert(t, e, v)),
        3 => (0u8..3, any::<usize>()).prop_map(|(t, e)| Op::Remove(t, e)),
        1 => any::<usize>().prop_map(Op::Destroy),
        1 => (0u8..3, any::<bool>()).prop_map(|(t, d)| Op::Sort(t, d)),
        6 => (0u8..VIEWS, 0u8..4, 0u32..1000).prop_map(|(k, l, s)| Op::Walk(k, l, s)),
    ]
}

/// The number of view kinds of `walk!`.
const VIEWS: u8 = 5;

fn mix(value: u32, seed: u32) -> u32 {
    value.wrapping_mul(31).wrapping_add(seed) % 1000
}

/// What view kind `k` visits in the model, with the values it sees, sorted by entity; the
/// model changed as the walk changes the world.
fn walk_model(
    model: &mut BTreeMap<Entity, Row>,
    k: u8,
    seed: u32,
) -> Vec<(Entity, Vec<Option<u32>>)> {
    let mut seen = Vec::new();
    for (&e, row) in model.iter_mut() {
        let [a, b, c] = *row;
        match k {
            0 => {
                if let (Some(a), Some(b)) = (a, b) {
                    seen.push((e, vec![Some(a), Some(b)]));
                    row[0] = Some(mix(a + b, seed));
                }
            }
            1 => {
                if let (Some(a), Some(_)) = (a, b) {
                    seen.push((e, vec![Some(a), c]));
                }
            }
            2 => {
                if let (Some(a), Some(b), None) = (a, b, c) {
                    seen.push((e, vec![Some(a), Some(b)]));
                    row[1] = Some(mix(b + a, seed));
                }
            }
            3 => {
                if let (Some(a), Some(b), Some(c)) = (a, b, c) {
                    seen.push((e, vec![Some(b), Some(c), Some(a)]));
                    row[2] = Some(mix(c + b + a, seed));
                }
            }
            _ => {
                if let (Some(c), None) = (c, a) {
                    seen.push((e, vec![Some(c), b]));
                }
            }
        }
    }
    seen
}

/// Walks view kind `$k` of a world (`$borrow!(Q, F)` borrows it) by loop `$how`
/// (`for_each`, `for`, `iter_mut`, a few `next` then `fold`), changing values as `walk_model` does; gives what it
/// visited in visiting order.
macro_rules! walk {
    ($k:expr, $how:expr, $seed:expr, $borrow:ident) => {{
        let seed = $seed;
        let mut seen: Vec<(Entity, Vec<Option<u32>>)> = Vec::new();
        macro_rules! each {
            ($Q:ty, $F:ty, |$e:ident, $item:pat_param| $body:expr) => {{
                let mut view = $borrow!($Q, $F);
                match $how {
                    0 => view.for_each(|$e, $item| seen.push($body)),
                    1 => {
                        for ($e, $item) in view {
                            seen.push($body);
                        }
                    }
                    2 => {
                        for ($e, $item) in view.iter_mut() {
                            seen.push($body);
                        }
                    }
                    _ => {
                        // A few `next`, then the adapters' walk for the rest.
                        let mut iter = view.iter_mut();
                        for ($e, $item) in iter.by_ref().take(seed as usize % 5) {
                            seen.push($body);
                        }
                        iter.fold((), |(), ($e, $item)| seen.push($body));
                    }
                }
            }};
        }
        match $k {
            0 => each!((&mut A, &B), (), |e, (a, b)| {
                let row = (e, vec![Some(a.0), Some(b.0)]);
                a.0 = mix(a.0 + b.0, seed);
                row
            }),
            1 => each!((&A, Option<&C>), With<B>, |e, (a, c)| {
                (e, vec![Some(a.0), c.map(|c| c.0)])
            }),
            2 => each!((&A, &mut B), Without<C>, |e, (a, b)| {
                let row = (e, vec![Some(a.0), Some(b.0)]);
                b.0 = mix(b.0 + a.0, seed);
                row
            }),
            3 => each!((&B, &mut C, &A), (), |e, (b, c, a)| {
                let row = (e, vec![Some(b.0), Some(c.0), Some(a.0)]);
                c.0 = mix(c.0 + b.0 + a.0, seed);
                row
            }),
            _ => each!((&C, Option<&B>), Without<A>, |e, (c, b)| {
                (e, vec![Some(c.0), b.map(|b| b.0)])
            }),
        }
        seen
    }};
}

/// The entities of `model` in each storage, and their values, through `get`.
fn rows_of(world: &World, model: &BTreeMap<Entity, Row>) -> Vec<Row> {
    model
        .keys()
        .map(|&e| {
            [
                world.get::<A>(e).map(|x| x.0),
                world.get::<B>(e).map(|x| x.0),
                world.get::<C>(e).map(|x| x.0),
            ]
        })
        .collect()
}

proptest! {
    #![proptest_config(cases_or(64))]

    #[test]
    fn views_without_groups_visit_what_the_model_holds(ops in prop::collection::vec(op(), 1..120)) {
        let (mut s, mut d) = (Plain::new(), World::new());
        let mut model: BTreeMap<Entity, Row> = BTreeMap::new();
        let mut handles: Vec<Entity> = Vec::new();
        for op in ops {
            match op {
                Op::Batch(mask, count, value) => {
                    macro_rules! batch {
                        ($($T:ident),+) => {{
                            let rows = || (0..u32::from(count)).map(|i| ($($T(value + i),)+));
                            let (x, y) = (s.spawn_batch(rows()), d.spawn_batch(rows()));
                            prop_assert_eq!(&x, &y);
                            x
                        }};
                    }
                    let spawned = match mask {
                        1 => batch!(A),
                        2 => batch!(B),
                        3 => batch!(A, B),
                        4 => batch!(C),
                        5 => batch!(A, C),
                        6 => batch!(B, C),
                        _ => batch!(A, B, C),
                    };
                    for (i, &e) in (0u32..).zip(&spawned) {
                        let has = |bit: u8| (mask & bit != 0).then_some(value + i);
                        model.insert(e, [has(1), has(2), has(4)]);
                    }
                    handles.extend(spawned);
                }
                Op::Insert(t, i, v) if !handles.is_empty() => {
                    let e = handles[i % handles.len()];
                    let alive = model.contains_key(&e);
                    macro_rules! insert {
                        ($T:ident) => {{
                            prop_assert_eq!(s.insert(e, $T(v)).is_ok(), alive);
                            prop_assert_eq!(d.insert(e, $T(v)).is_ok(), alive);
                        }};
                    }
                    match t {
                        0 => insert!(A),
                        1 => insert!(B),
                        _ => insert!(C),
                    }
                    if let Some(row) = model.get_mut(&e) {
                        row[usize::from(t)] = Some(v);
                    }
                }
                Op::Remove(t, i) if !handles.is_empty() => {
                    let e = handles[i % handles.len()];
                    match t {
                        0 => { let _ = (s.remove::<A>(e), d.remove::<A>(e)); }
                        1 => { let _ = (s.remove::<B>(e), d.remove::<B>(e)); }
                        _ => { let _ = (s.remove::<C>(e), d.remove::<C>(e)); }
                    }
                    if let Some(row) = model.get_mut(&e) {
                        row[usize::from(t)] = None;
                    }
                }
                Op::Destroy(i) if !handles.is_empty() => {
                    let e = handles[i % handles.len()];
                    let _ = (s.destroy(e), d.destroy(e));
                    model.remove(&e);
                }
                Op::Sort(t, descending) => {
                    macro_rules! sort {
                        ($T:ident) => {{
                            let key = |x: &$T| if descending { u32::MAX - x.0 } else { x.0 };
                            s.sort_by_key::<$T, u32>(key);
                            d.sort_by_key::<$T, u32>(key).unwrap();
                        }};
                    }
                    match t {
                        0 => sort!(A),
                        1 => sort!(B),
                        _ => sort!(C),
                    }
                }
                Op::Walk(k, how, seed) => {
                    macro_rules! of_static {
                        ($Q:ty, $F:ty) => {
                            s.borrow::<View<$Q, $F>>()
                        };
                    }
                    macro_rules! of_dynamic {
                        ($Q:ty, $F:ty) => {
                            d.borrow::<View<$Q, $F>>().expect("stored types")
                        };
                    }
                    let expected = walk_model(&mut model, k, seed);
                    let x = walk!(k, how, seed, of_static);
                    let y = walk!(k, how, seed, of_dynamic);
                    // Both worlds visit in the same order, whatever the loop.
                    prop_assert_eq!(&x, &y, "view {} loop {}", k, how);
                    let mut x = x;
                    x.sort_by_key(|(e, _)| *e);
                    prop_assert_eq!(&x, &expected, "view {} loop {} against the model", k, how);
                }
                _ => {}
            }
            s.check().map_err(TestCaseError::fail)?;
            d.check().map_err(TestCaseError::fail)?;
            // Storages spawned together share an order until one changes alone: both
            // worlds read the same views by position, and only over storages that hold
            // the same entities in the same order.
            let dense = s.view::<(&A, &B)>().is_dense();
            prop_assert_eq!(dense, d.view::<(&A, &B)>().unwrap().is_dense());
            if dense {
                prop_assert_eq!(s.storage::<A>().entities(), s.storage::<B>().entities());
            }
            let rows = rows_of(&d, &model);
            prop_assert_eq!(rows, model.values().copied().collect::<Vec<_>>());
        }
    }
}

/// Storages filled by the same spawns hold the same entities in the same order: a view
/// over them is dense (every leaf read by position, `With` implied) until a change reaches
/// one of them alone (a spawn without the other, a removal, a sort), and then walks as
/// before; a change to another storage, a value replaced, or a destruction (one entity or
/// many: the same removal from every storage) keeps it. Each loop adds by position, checked
/// entity by entity. In both worlds.
#[test]
fn storages_spawned_together_walk_densely_until_one_changes_alone() {
    macro_rules! case {
        ($new:expr, |$w:ident, $all:ident| $change:block, $stays:expr $(, $unwrap:ident)?) => {{
            let mut world = $new;
            let mut all = world.spawn_batch((0..300).map(|i| (A(i), B(i))));
            all.push(world.spawn_with((A(300), B(300))));
            all.extend(world.spawn_batch((301..400).map(|i| (A(i), B(i), C(i)))));
            macro_rules! dense {
                ($Q:ty) => {
                    world.view::<$Q>()$(.$unwrap())?.is_dense()
                };
            }
            assert!(dense!((&mut A, &B)) && dense!((&A, With<B>)) && dense!((&B, Option<&A>)));
            assert!(!dense!((&A, &C)) && !dense!((&A, Without<B>)));
            assert_eq!(world.view::<(&A, Without<B>)>()$(.$unwrap())?.into_iter().count(), 0);
            {
                let ($w, $all) = (&mut world, &all[..]);
                let _ = &$all;
                $change
            }
            assert_eq!(dense!((&mut A, &B)), $stays, "after the change");
            for (_, (a, b)) in world.view::<(&mut A, &B)>()$(.$unwrap())? {
                a.0 += b.0;
            }
            world
                .view::<(&mut A, &B)>()$(.$unwrap())?
                .for_each(|_, (a, b)| a.0 += b.0);
            for &e in &all {
                if let (Some(a), Some(b)) = (world.get::<A>(e), world.get::<B>(e)) {
                    assert_eq!(a.0, 3 * b.0, "{e:?}");
                }
            }
            world.check().unwrap();
        }};
    }
    macro_rules! every_change {
        ($new:expr $(, $unwrap:ident)?) => {{
            case!($new, |w, all| { let _ = w; }, true $(, $unwrap)?);
            case!($new, |w, all| { w.insert(all[7], B(7)).unwrap(); }, true $(, $unwrap)?);
            case!($new, |w, all| { w.remove::<C>(all[350]); }, true $(, $unwrap)?);
            case!($new, |w, all| { w.spawn_with((A(0),)); }, false $(, $unwrap)?);
            case!($new, |w, all| { w.remove::<B>(all[7]); }, false $(, $unwrap)?);
            case!($new, |w, all| { w.destroy(all[7]).unwrap(); }, true $(, $unwrap)?);
            case!($new, |w, all| { w.destroy_many(&all[5..350]); }, true $(, $unwrap)?);
            case!($new, |w, all| { let _ = w.sort_by_key::<A, u32>(|a| u32::MAX - a.0); }, false $(, $unwrap)?);
        }};
    }
    every_change!(Plain::new());
    every_change!(World::new(), unwrap);
}

/// The loops visit a view in one order: `for_each`, `for` and `iter` agree entity by
/// entity, in a world whose storages hold runs and single misses.
#[test]
fn every_loop_visits_in_the_same_order() {
    let mut world = Plain::new();
    let all = world.spawn_batch((0..100).map(|i| (A(i), B(i), C(i))));
    for &e in all.iter().step_by(7) {
        world.remove::<B>(e).unwrap();
    }
    world.sort_by_key::<C, u32>(|c| u32::MAX - c.0);
    let mut by_each = Vec::new();
    world
        .borrow::<View<(&A, &B), ()>>()
        .for_each(|e, _| by_each.push(e));
    let by_for: Vec<Entity> = world
        .borrow::<View<(&A, &B), ()>>()
        .into_iter()
        .map(|(e, _)| e)
        .collect();
    let by_iter: Vec<Entity> = world
        .borrow::<View<(&A, &B), ()>>()
        .iter()
        .map(|(e, _)| e)
        .collect();
    assert_eq!(by_each.len(), 100 - 15);
    assert_eq!(by_each, by_for);
    assert_eq!(by_each, by_iter);
    // The adapters (`fold`, `for_each`) go on from wherever `next` left the iterator, in
    // its order, by value, by `&mut` and by `&`.
    for first in [0, 1, 5, 40, 84, 85] {
        let mut view = world.borrow::<View<(&mut A, &B), ()>>();
        let mut iter = view.iter_mut();
        let mut seen: Vec<Entity> = iter.by_ref().take(first).map(|(e, _)| e).collect();
        iter.fold((), |(), (e, _)| seen.push(e));
        assert_eq!(seen, by_each, "iter_mut: {first} by next, then fold");
        let mut iter = world.borrow::<View<(&A, &B), ()>>().into_iter();
        let mut seen: Vec<Entity> = iter.by_ref().take(first).map(|(e, _)| e).collect();
        iter.for_each(|(e, _)| seen.push(e));
        assert_eq!(seen, by_each, "into_iter: {first} by next, then for_each");
        let view = world.borrow::<View<(&A, &B), ()>>();
        let mut iter = view.iter();
        let mut seen: Vec<Entity> = iter.by_ref().take(first).map(|(e, _)| e).collect();
        let rest = iter.fold(Vec::new(), |mut rest, (e, _)| {
            rest.push(e);
            rest
        });
        seen.extend(rest);
        assert_eq!(seen, by_each, "iter: {first} by next, then fold");
    }
}

/// A run longer than a walk's first windows, which one storage leaves inside a later
/// window: each window is compared once, from where the last ended, and the entities
/// after the break are looked up. Every entity is visited once, with its own values, by
/// `for_each` and by a `for` loop, in the same order, whichever storage drives.
#[test]
fn long_runs_end_inside_a_later_window() {
    let mut world = Plain::new();
    let all = world.spawn_batch((0..3000).map(|i| (A(i), B(i), C(i))));
    // Moved to the end of its storage: `B` leaves the shared order at entity 700 (the
    // walk's third window), `A` at 1500 (a removal moves the last entity into the hole,
    // so the run starts again after 700, and 1500 falls inside its third window); the
    // optional `C` misses 2500.
    let b = world.remove::<B>(all[700]).unwrap();
    world.insert(all[700], b).unwrap();
    let a = world.remove::<A>(all[1500]).unwrap();
    world.insert(all[1500], a).unwrap();
    world.remove::<C>(all[2500]).unwrap();
    let mut seen = Vec::new();
    world
        .borrow::<View<(&mut A, &B, Option<&C>), ()>>()
        .for_each(|e, (a, b, c)| {
            assert_eq!(a.0, b.0, "{e:?}");
            assert_eq!(c.map(|c| c.0), (e != all[2500]).then_some(a.0), "{e:?}");
            a.0 += 10_000;
            seen.push(e);
        });
    // The same walk by a `for` loop, whose iterator looks the leaves up.
    let mut by_for = Vec::new();
    for (e, (a, b, c)) in world.borrow::<View<(&mut A, &B, Option<&C>), ()>>() {
        assert_eq!(a.0, b.0 + 10_000, "{e:?}");
        assert_eq!(c.map(|c| c.0 + 10_000), (e != all[2500]).then_some(a.0));
        a.0 += 10_000;
        by_for.push(e);
    }
    assert_eq!(by_for, seen);
    let mut expected = all.clone();
    assert_eq!(seen.len(), expected.len());
    seen.sort();
    expected.sort();
    assert_eq!(seen, expected);
    // `C`, the smallest required storage, drives: the `&mut` and optional `&mut` leaves
    // are the ones compared window by window.
    let mut seen = Vec::new();
    world
        .borrow::<View<(&C, &mut A, Option<&mut B>), ()>>()
        .for_each(|e, (c, a, b)| {
            assert_eq!(a.0, c.0 + 20_000, "{e:?}");
            let b = b.expect("every entity has a B");
            assert_eq!(b.0, c.0, "{e:?}");
            a.0 += 10_000;
            b.0 += 1;
            seen.push(e);
        });
    assert_eq!(seen.len(), all.len() - 1);
    for (i, &e) in all.iter().enumerate() {
        let walks = if i == 2500 { 2 } else { 3 };
        assert_eq!(world.get::<A>(e).unwrap().0, i as u32 + walks * 10_000);
        assert_eq!(world.get::<B>(e).unwrap().0, i as u32 + walks - 2);
    }
}

/// A tracked `&mut` leaf read in runs is stamped for exactly the rows the walk yields: a
/// filter rejecting entities inside a later window of a long run, and a storage leaving
/// the run there, leave the rejected rows unstamped and stamp the rest once. In both
/// worlds.
#[test]
fn tracked_leaf_in_runs_stamps_only_the_rows_a_filter_passes() {
    // `$unwrap`: the run-time world's accesses are `Result`s.
    macro_rules! stamps_only_passing {
        ($world:expr $(, $unwrap:ident)?) => {{
            let mut world = $world;
            let all = world.spawn_batch((0..3000).map(|i| (A(i), B(i))));
            // `C` marks the rejected: inside the run's third and fourth windows (64 + 256
            // + 1024 entities in), and next to where `B` leaves the shared order (1700).
            let rejected = [400, 1000, 1699, 1701, 2900];
            for &i in &rejected {
                world.insert(all[i], C(i as u32)).unwrap();
            }
            let b = world.remove::<B>(all[1700]).unwrap();
            world.insert(all[1700], b).unwrap();
            world.tick();
            let mut seen = Vec::new();
            world
                .view::<(&mut A, &B, Without<C>)>()$(.$unwrap())?
                .for_each(|e, (a, b)| {
                    assert_eq!(a.0, b.0, "{e:?}");
                    a.0 += 10_000;
                    seen.push(e);
                });
            seen.sort();
            let mut expected: Vec<Entity> = (0..3000)
                .filter(|i| !rejected.contains(i))
                .map(|i| all[i])
                .collect();
            expected.sort();
            assert_eq!(seen, expected);
            let changed = changed_a!(world $(, $unwrap)?);
            assert_eq!(changed, expected, "stamped: exactly the yielded rows");
            for (i, &e) in all.iter().enumerate() {
                let walked = if rejected.contains(&i) { 0 } else { 10_000 };
                assert_eq!(world.get::<A>(e).unwrap().0, i as u32 + walked, "entity {i}");
            }
        }};
    }
    stamps_only_passing!(Tracked::new());
    let mut dynamic = World::new();
    dynamic.track::<A>();
    stamps_only_passing!(dynamic, unwrap);
}

/// A `for` loop over a view with lookups, over storages that share an order for long
/// runs, stamps a tracked `&mut` leaf only as it yields the item: a loop that stops after
/// `stop` matches (inside what `for_each` reads as one run's windows, at a filtered row,
/// where the shared order ends, or never) has yielded `for_each`'s first `stop` matches,
/// in its order, with their own values, and exactly those rows are changed and written.
/// In both worlds.
#[test]
fn for_loops_in_runs_yield_and_stamp_only_what_they_reach() {
    // `$unwrap`: the run-time world's accesses are `Result`s.
    macro_rules! stops_where_it_stops {
        ($new:expr, $stop:expr $(, $unwrap:ident)?) => {{
            let stop: usize = $stop;
            // Two worlds built alike: one walked by `for_each` (the order and the matches),
            // one by the `for` loop under test.
            let mut worlds = [$new, $new];
            let mut all = Vec::new();
            for world in &mut worlds {
                all = world.spawn_batch((0..3000).map(|i| (A(i), B(i))));
                // `B` leaves the shared order at 1700 and ends with it; `C` filters rows
                // inside the run's windows and next to that change.
                for i in [400, 1000, 1699, 1701, 2900] {
                    world.insert(all[i], C(i as u32)).unwrap();
                }
                let b = world.remove::<B>(all[1700]).unwrap();
                world.insert(all[1700], b).unwrap();
                world.tick();
            }
            let [reference, world] = &mut worlds;
            let mut expected = Vec::new();
            reference
                .view::<(&A, &B, Without<C>)>()$(.$unwrap())?
                .for_each(|e, (a, b)| expected.push((e, a.0, b.0)));
            expected.truncate(stop);
            let mut seen = Vec::new();
            let view = world.view::<(&mut A, &B, Without<C>)>()$(.$unwrap())?;
            // `take` calls `next` `stop` times at most: what a `for` loop's `break` after
            // its `stop`-th item does.
            for (e, (a, b)) in view.into_iter().take(stop) {
                seen.push((e, a.0, b.0));
                a.0 += 10_000;
            }
            assert_eq!(seen, expected, "stop {stop}: for_each's first matches, in order");
            let changed = changed_a!(world $(, $unwrap)?);
            let mut yielded: Vec<Entity> = seen.iter().map(|&(e, _, _)| e).collect();
            yielded.sort();
            assert_eq!(changed, yielded, "stop {stop}: stamped exactly the yielded rows");
            for (i, &e) in all.iter().enumerate() {
                let written = if yielded.binary_search(&e).is_ok() { 10_000 } else { 0 };
                assert_eq!(world.get::<A>(e).unwrap().0, i as u32 + written, "entity {i}");
            }
        }};
    }
    for stop in [0, 1, 2, 63, 70, 399, 1200, 1698, 1699, 2990, usize::MAX] {
        stops_where_it_stops!(Tracked::new(), stop);
        stops_where_it_stops!(
            {
                let mut dynamic = World::new();
                dynamic.track::<A>();
                dynamic
            },
            stop,
            unwrap
        );
    }
}

/// A walk skips the walked entities whose sparse page a looked-up storage lacks (never
/// created, or emptied by a `clear`) without a lookup each, and nothing else: kinds
/// spawned in batches of whole pages and of part pages, entities without a component
/// inside pages that have it, a storage cleared, looked up over its old pages and given
/// back to some of them, an optional leaf over missing pages, and a kind spawned after
/// that, walked by `for_each`, a `for` loop and (with rayon) `par_for_each`, yield
/// exactly the model's matches with their own values. In both worlds.
#[test]
fn walks_skip_only_the_pages_a_storage_lacks() {
    // `$unwrap`: the run-time world's accesses are `Result`s.
    macro_rules! walks_agree {
        ($world:expr, $expected:expr, $label:expr $(, $unwrap:ident)?) => {{
            let world = &mut $world;
            let mut expected: Vec<Entity> = $expected;
            expected.sort();
            let mut by_for_each = Vec::new();
            world
                .view::<(&mut A, &B)>()$(.$unwrap())?
                .for_each(|e, (a, b)| {
                    assert_eq!(a.0, b.0, "{}: {e:?}", $label);
                    by_for_each.push(e);
                });
            by_for_each.sort();
            assert_eq!(by_for_each, expected, "{}: for_each", $label);
            let mut by_for = Vec::new();
            for (e, (a, b)) in world.view::<(&mut A, &B)>()$(.$unwrap())? {
                assert_eq!(a.0, b.0, "{}: {e:?}", $label);
                by_for.push(e);
            }
            by_for.sort();
            assert_eq!(by_for, expected, "{}: for", $label);
            #[cfg(feature = "rayon")]
            {
                let seen = std::sync::Mutex::new(Vec::new());
                world
                    .view::<(&mut A, &B)>()$(.$unwrap())?
                    .par_for_each(|e, (a, b)| {
                        assert_eq!(a.0, b.0, "{}: {e:?}", $label);
                        seen.lock().unwrap().push(e);
                    });
                let mut seen = seen.into_inner().unwrap();
                seen.sort();
                assert_eq!(seen, expected, "{}: par_for_each", $label);
            }
        }};
    }
    macro_rules! skips_only_absent {
        ($world:expr $(, $unwrap:ident)?) => {{
            let mut world = $world;
            // Pages of 1,024 indices: whole pages of `A` alone (which `B` never had) and
            // part pages shared with the next kind.
            let mut all = world.spawn_batch((0..2500).map(|i| (A(i),)));
            all.extend(world.spawn_batch((2500..5000).map(|i| (A(i), B(i)))));
            all.extend(world.spawn_batch((5000..7500).map(|i| (B(i),))));
            all.extend(world.spawn_batch((7500..9000).map(|i| (A(i), C(i)))));
            // Entities without `A` inside pages `A` has: their misses rule nothing else out.
            for i in [3000, 3001, 4100] {
                world.remove::<A>(all[i]).unwrap();
            }
            let expected = (2500..5000).filter(|i| ![3000, 3001, 4100].contains(i));
            walks_agree!(world, expected.map(|i| all[i]).collect(), "batches" $(, $unwrap)?);
            // Cleared, `B`'s pages are all of an old epoch; given back to entities of some
            // of them, those pages are current again.
            world.clear::<B>();
            walks_agree!(world, Vec::new(), "cleared" $(, $unwrap)?);
            // (More of them than `C` has, so that `C` drives the walk below.)
            let given: Vec<usize> = (0..2000).chain([2600, 4999, 8999]).collect();
            for &i in &given {
                world.insert(all[i], B(i as u32)).unwrap();
            }
            let expected = given.iter().map(|&i| all[i]).collect();
            walks_agree!(world, expected, "given back" $(, $unwrap)?);
            // Walked from `C` (7,500..9,000, pages 7 and 8), `B` is looked up: its page 7
            // is of the old epoch (it held 5,000..7,499) and page 8 never existed, so both
            // are skipped; given back to 8,999, page 8 exists again and is not.
            let mut seen = Vec::new();
            world
                .view::<(&C, &B)>()$(.$unwrap())?
                .for_each(|e, (c, b)| {
                    assert_eq!(c.0, b.0, "{e:?}");
                    seen.push(e);
                });
            assert_eq!(seen, vec![all[8999]], "walked from C");
            // An optional leaf rules nothing out: every `A` is yielded, with `B` where
            // it is.
            let mut with_b = 0;
            let mut yielded = 0;
            world
                .view::<(&mut A, Option<&B>)>()$(.$unwrap())?
                .for_each(|_, (a, b)| {
                    yielded += 1;
                    if let Some(b) = b {
                        assert_eq!(a.0, b.0);
                        with_b += 1;
                    }
                });
            assert_eq!((yielded, with_b), (6500 - 3, given.len()), "optional B");
            // A later kind fills fresh pages of both.
            all.extend(world.spawn_batch((9000..11_000).map(|i| (A(i), B(i)))));
            let expected = given.iter().map(|&i| all[i]).chain(all[9000..].iter().copied()).collect();
            walks_agree!(world, expected, "later batch" $(, $unwrap)?);
        }};
    }
    skips_only_absent!(Plain::new());
    skips_only_absent!(World::new(), unwrap);
}

/// `par_for_each` cuts the walk into chunks, and each chunk reads its part of a long run
/// in windows of its own: storages leaving the shared order at several places (so that,
/// whatever the number of workers and so the chunk length, some chunk ends a run inside
/// a later window) must still give every entity once, with its own values. In both
/// worlds.
#[cfg(feature = "rayon")]
#[test]
fn parallel_chunks_end_long_runs_inside_later_windows() {
    // `$unwrap`: the run-time world's accesses are `Result`s.
    macro_rules! every_entity_once {
        ($world:expr $(, $unwrap:ident)?) => {{
            let mut world = $world;
            let all = world.spawn_batch((0..20_000).map(|i| (A(i), B(i), C(i))));
            for i in [1700, 6100, 9900, 14_300, 18_800] {
                let b = world.remove::<B>(all[i]).unwrap();
                world.insert(all[i], b).unwrap();
            }
            let a = world.remove::<A>(all[12_000]).unwrap();
            world.insert(all[12_000], a).unwrap();
            world.remove::<C>(all[3000]).unwrap();
            let seen = std::sync::Mutex::new(Vec::new());
            world
                .view::<(&mut A, &B, Option<&C>)>()$(.$unwrap())?
                .par_for_each(|e, (a, b, c)| {
                    assert_eq!(a.0, b.0, "{e:?}");
                    assert_eq!(c.map(|c| c.0), (e != all[3000]).then_some(a.0), "{e:?}");
                    a.0 += 10_000;
                    seen.lock().unwrap().push(e);
                });
            let mut seen = seen.into_inner().unwrap();
            seen.sort();
            let mut expected = all.clone();
            expected.sort();
            assert_eq!(seen, expected);
            for (i, &e) in all.iter().enumerate() {
                assert_eq!(world.get::<A>(e).unwrap().0, i as u32 + 10_000, "entity {i}");
            }
        }};
    }
    every_entity_once!(Plain::new());
    every_entity_once!(World::new(), unwrap);
}
