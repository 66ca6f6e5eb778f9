//! Layout advice (`Schedule::advise`) against what the worlds do: over random entity
//! kinds, every advised layout is valid (a run-time `World` is built with it), each view's
//! predicted walk is the walk the world picks, and a schedule's results are the same under
//! the layout now and the advised one, both equal to a plain model running the systems in
//! order. A `#[world]` gets the same advice as the run-time `World` on the same entities.

use std::collections::BTreeMap;

use crate::common::cases_or;
use proptest::prelude::*;
use sparse_groups::Advice;
use sparse_groups::prelude::*;

#[derive(Component, Clone, Copy, Debug, PartialEq)]
struct A(i64);
#[derive(Component, Clone, Copy, Debug, PartialEq)]
struct B(i64);
#[derive(Component, Clone, Copy, Debug, PartialEq)]
struct C(i64);
#[derive(Component, Clone, Copy, Debug, PartialEq)]
struct D(i64);
#[derive(Component, Clone, Copy, Debug, PartialEq)]
struct E(i64);

#[world]
struct Plain {
    a: Storage<A>,
    b: Storage<B>,
    c: Storage<C>,
    d: Storage<D>,
    e: Storage<E>,
}

fn one(view: View<'_, (&mut A, &B)>) {
    view.for_each(|_, (a, b)| a.0 = a.0.wrapping_add(b.0));
}

fn two(view: View<'_, (&mut C, &B, &D)>) {
    view.for_each(|_, (c, b, d)| c.0 = c.0.wrapping_add(b.0.wrapping_mul(d.0)));
}

fn three(view: View<'_, (&A, &mut E)>) {
    view.for_each(|_, (a, e)| e.0 ^= a.0);
}

fn four(view: View<'_, (&mut D,), Without<A>>) {
    view.for_each(|_, (d,)| d.0 = d.0.wrapping_add(1));
}

fn five(view: View<'_, (&B, &mut E), With<C>>) {
    view.for_each(|_, (b, e)| e.0 = e.0.wrapping_add(b.0));
}

/// Whether each system's view is dense in `world`, in system order.
fn dense(world: &mut World) -> [bool; 5] {
    [
        world.view::<(&mut A, &B)>().unwrap().is_dense(),
        world.view::<(&mut C, &B, &D)>().unwrap().is_dense(),
        world.view::<(&A, &mut E)>().unwrap().is_dense(),
        world.view::<(&mut D, Without<A>)>().unwrap().is_dense(),
        world.view::<(&B, &mut E, With<C>)>().unwrap().is_dense(),
    ]
}

/// The systems in order on plain rows.
fn model_frame(rows: &mut [[Option<i64>; 5]]) {
    for r in rows.iter_mut() {
        if let [Some(a), Some(b), ..] = *r {
            r[0] = Some(a.wrapping_add(b));
        }
    }
    for r in rows.iter_mut() {
        if let [_, Some(b), Some(c), Some(d), _] = *r {
            r[2] = Some(c.wrapping_add(b.wrapping_mul(d)));
        }
    }
    for r in rows.iter_mut() {
        if let [Some(a), _, _, _, Some(e)] = *r {
            r[4] = Some(e ^ a);
        }
    }
    for r in rows.iter_mut() {
        if let [None, _, _, Some(d), _] = *r {
            r[3] = Some(d.wrapping_add(1));
        }
    }
    for r in rows.iter_mut() {
        if let [_, Some(b), Some(_), _, Some(e)] = *r {
            r[4] = Some(e.wrapping_add(b));
        }
    }
}

/// The run-time world's group of the types `names` (sorted, joined by ", ").
fn spec(names: &str) -> GroupSpec {
    match names {
        "A, B" => GroupSpec::of::<(A, B)>(),
        "A, C" => GroupSpec::of::<(A, C)>(),
        "A, D" => GroupSpec::of::<(A, D)>(),
        "A, E" => GroupSpec::of::<(A, E)>(),
        "B, C" => GroupSpec::of::<(B, C)>(),
        "B, D" => GroupSpec::of::<(B, D)>(),
        "B, E" => GroupSpec::of::<(B, E)>(),
        "C, D" => GroupSpec::of::<(C, D)>(),
        "C, E" => GroupSpec::of::<(C, E)>(),
        "D, E" => GroupSpec::of::<(D, E)>(),
        "A, B, C" => GroupSpec::of::<(A, B, C)>(),
        "A, B, D" => GroupSpec::of::<(A, B, D)>(),
        "A, B, E" => GroupSpec::of::<(A, B, E)>(),
        "A, C, D" => GroupSpec::of::<(A, C, D)>(),
        "A, C, E" => GroupSpec::of::<(A, C, E)>(),
        "A, D, E" => GroupSpec::of::<(A, D, E)>(),
        "B, C, D" => GroupSpec::of::<(B, C, D)>(),
        "B, C, E" => GroupSpec::of::<(B, C, E)>(),
        "B, D, E" => GroupSpec::of::<(B, D, E)>(),
        "C, D, E" => GroupSpec::of::<(C, D, E)>(),
        "A, B, C, D" => GroupSpec::of::<(A, B, C, D)>(),
        "A, B, C, E" => GroupSpec::of::<(A, B, C, E)>(),
        "A, B, D, E" => GroupSpec::of::<(A, B, D, E)>(),
        "A, C, D, E" => GroupSpec::of::<(A, C, D, E)>(),
        "B, C, D, E" => GroupSpec::of::<(B, C, D, E)>(),
        "A, B, C, D, E" => GroupSpec::of::<(A, B, C, D, E)>(),
        other => panic!("no group of {other}"),
    }
}

/// The types of a `#[group(...)]` line, sorted.
fn types_of(attribute: &str) -> String {
    let inner = attribute
        .strip_prefix("#[group(")
        .and_then(|s| s.strip_suffix(")]"))
        .unwrap();
    let mut names: Vec<&str> = inner.split(", ").collect();
    names.sort_unstable();
    names.join(", ")
}

/// Spawns one entity per row, each with the components its row holds.
fn spawn<W>(world: &mut W, rows: &[[Option<i64>; 5]])
where
    W: Edit<A> + Edit<B> + Edit<C> + Edit<D> + Edit<E>,
{
    for row in rows {
        let e = world.spawn_entity();
        if let Some(v) = row[0] {
            world.insert(e, A(v)).unwrap();
        }
        if let Some(v) = row[1] {
            world.insert(e, B(v)).unwrap();
        }
        if let Some(v) = row[2] {
            world.insert(e, C(v)).unwrap();
        }
        if let Some(v) = row[3] {
            world.insert(e, D(v)).unwrap();
        }
        if let Some(v) = row[4] {
            world.insert(e, E(v)).unwrap();
        }
    }
}

/// Every entity's components as rows, by index.
fn rows_of(world: &World) -> Vec<[Option<i64>; 5]> {
    let mut rows: BTreeMap<u32, [Option<i64>; 5]> = BTreeMap::new();
    for e in world.entities().iter() {
        rows.insert(
            e.index(),
            [
                world.get::<A>(e).map(|x| x.0),
                world.get::<B>(e).map(|x| x.0),
                world.get::<C>(e).map(|x| x.0),
                world.get::<D>(e).map(|x| x.0),
                world.get::<E>(e).map(|x| x.0),
            ],
        );
    }
    rows.into_values().collect()
}

/// A few kinds of entity (each a set of the five types), and rows drawn from them.
fn rows() -> impl Strategy<Value = Vec<[Option<i64>; 5]>> {
    (
        prop::collection::vec(1u8..32, 1..5),
        prop::collection::vec((any::<prop::sample::Index>(), -50i64..50), 0..120),
    )
        .prop_map(|(kinds, picks)| {
            picks
                .into_iter()
                .map(|(pick, value)| {
                    let kind = kinds[pick.index(kinds.len())];
                    core::array::from_fn(|t| (kind >> t & 1 == 1).then_some(value + t as i64))
                })
                .collect()
        })
}

proptest! {
    #![proptest_config(cases_or(64))]

    #[test]
    fn advised_layouts_are_valid_predicted_and_change_no_result(rows in rows(), frames in 1usize..3) {
        let schedule = Schedule::new((one, two, three, four, five));
        let mut plain = World::new();
        spawn(&mut plain, &rows);
        let advice = schedule.advise(&plain);
        let report = advice.to_string();

        // The advised layout is one the run-time world accepts.
        let specs: Vec<GroupSpec> = advice.group_attributes().iter().map(|a| spec(&types_of(a))).collect();
        let mut advised = World::with_groups(specs).unwrap_or_else(|e| panic!("{e}\n{report}"));
        spawn(&mut advised, &rows);

        // Each view's walk now and under the advice is the one the world picks, where the
        // view is run as written.
        let (now, then) = (dense(&mut plain), dense(&mut advised));
        for (i, v) in advice.views().iter().enumerate() {
            // Storages spawned together share their order, which the advice does not model
            // (a frame's changes undo it): a view it calls dense is, and one it does not
            // may be too.
            prop_assert!(now[i] || !v.now().is_dense(), "view {} now\n{}", i, report);
            if v.added_with().is_empty() {
                prop_assert!(then[i] || !v.advised().is_dense(), "view {} advised\n{}", i, report);
            }
        }
        prop_assert!(advice.expected_speedup() >= 1.0, "{}", report);

        // The run-time world adopts the advice in place: the walks of a world built with
        // it, its entities kept.
        let specs = || advice.group_attributes().iter().map(|a| spec(&types_of(a))).collect::<Vec<_>>();
        let mut adopted = World::new();
        spawn(&mut adopted, &rows);
        adopted.regroup(specs()).unwrap_or_else(|e| panic!("{e}\n{report}"));
        adopted.check().unwrap();
        prop_assert_eq!(rows_of(&adopted), rows.clone());
        prop_assert_eq!(dense(&mut adopted), then, "{}", report);

        // The same results under every layout, equal to the model; the adopted world
        // drops its groups after the first frame and adopts them again after the second.
        let mut model = rows.clone();
        let mut schedule_advised = Schedule::new((one, two, three, four, five));
        let mut schedule_adopted = Schedule::new((one, two, three, four, five));
        let mut schedule_plain = schedule;
        for frame in 0..frames {
            schedule_plain.run(&mut plain).unwrap();
            schedule_advised.run(&mut advised).unwrap();
            schedule_adopted.run(&mut adopted).unwrap();
            model_frame(&mut model);
            adopted.regroup(if frame == 0 { Vec::new() } else { specs() }).unwrap();
            adopted.check().unwrap();
            prop_assert_eq!(rows_of(&adopted), model.clone(), "after frame {}", frame);
        }
        prop_assert_eq!(rows_of(&plain), model.clone());
        prop_assert_eq!(rows_of(&advised), model);
        advised.check().unwrap();

        // A `#[world]` holding the same entities gets the same groups.
        let mut game = Plain::new();
        spawn(&mut game, &rows);
        let static_advice = Schedule::new((one, two, three, four, five)).advise(&game);
        let sets = |a: &Advice| {
            let mut sets: Vec<String> = a.group_attributes().iter().map(|g| types_of(g)).collect();
            sets.sort();
            sets
        };
        prop_assert_eq!(sets(&static_advice), sets(&advice));
    }
}

/// The frame of `docs/performance.md` in small: kinds of entity where every entity with
/// `C` has `B`, so a view of `(A, C)` can name `B` and share a chain with `(A, B)`.
#[test]
fn a_view_is_advised_to_name_a_type_all_its_matches_hold() {
    let mut world = World::new();
    let rows: Vec<[Option<i64>; 5]> = (0..64)
        .map(|i| match i % 4 {
            0 => [Some(1), Some(2), Some(3), None, None],
            1 => [Some(1), Some(2), None, None, Some(5)],
            2 => [Some(1), None, None, Some(4), Some(5)],
            _ => [None, Some(2), Some(3), Some(4), None],
        })
        .collect();
    spawn(&mut world, &rows);
    fn ac(view: View<'_, (&mut A, &C)>) {
        view.for_each(|_, (a, c)| a.0 += c.0);
    }
    let schedule = Schedule::new((one, ac));
    let advice = schedule.advise(&world);
    let report = advice.to_string();
    println!("{report}");
    assert_eq!(
        advice.group_attributes(),
        ["#[group(A, B)]", "#[group(A, B, C)]"],
        "{report}"
    );
    assert_eq!(advice.views()[1].added_with(), ["B"], "{report}");
    assert!(
        advice.views().iter().all(|v| v.advised().is_dense()),
        "{report}"
    );
    assert!(report.contains("ac: (&mut A, &C) + With<B>"), "{report}");
}

/// The walk "now" is the view as written, on the groups the world has: a view that would
/// be dense only by naming another type is not dense now.
#[test]
fn the_walk_now_is_the_view_as_written() {
    let mut world = World::with_groups([GroupSpec::of::<(A, B, C)>()]).unwrap();
    let rows: Vec<[Option<i64>; 5]> = (0..32)
        .map(|i| [Some(i), Some(2), Some(3), None, (i % 2 == 0).then_some(5)])
        .collect();
    spawn(&mut world, &rows);
    let advice = Schedule::new((one,)).advise(&world);
    let walk = advice.views()[0].now();
    assert!(!world.view::<(&mut A, &B)>().unwrap().is_dense());
    assert!(!walk.is_dense(), "{advice}");
    assert_eq!(walk.walked(), 32, "{advice}");
}

/// A type a view reads as an `Option` is never advised as required, even when every
/// entity it matches holds it.
#[test]
fn an_optional_type_is_never_advised_with() {
    fn maybe(view: View<'_, (&mut A, &B, Option<&C>)>) {
        view.for_each(|_, (a, _, c)| a.0 += c.map_or(0, |c| c.0));
    }
    let mut world = World::new();
    let rows: Vec<[Option<i64>; 5]> = (0..32)
        .map(|i| [Some(i), Some(2), Some(3), None, None])
        .collect();
    spawn(&mut world, &rows);
    let advice = Schedule::new((maybe,)).advise(&world);
    assert!(advice.views()[0].added_with().is_empty(), "{advice}");
    assert_eq!(advice.group_attributes(), ["#[group(A, B)]"], "{advice}");
}
