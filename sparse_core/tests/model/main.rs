//! Model test of `sparse_core::World` with every kind of group.
//!
//! The world has 15 component types and 15 groups:
//!
//! - a full-owning chain `<A,B> ⊃ <A,B,C> ⊃ <A,B,C,D>`;
//! - a tree family: `<E,F>` and `<G,H>` both outer to `<E,F,G,H>`, and the partial-owning
//!   `(E, Get<F>)` outer to `<E,F>`;
//! - an exclude chain `(J, Get<I>) ⊃ (I, J, Exclude<K>) ⊃ (I, J, Exclude<(K, L)>)`;
//! - partial-owning groups `(L, Get<A>, Exclude<K>)` and `(M, Get<(B, N)>)`;
//! - non-owning groups `Get<(A, E)>`, `(Get<A>, Exclude<K>)` and `Get<D>`;
//!
//! so that `K` is only excluded, `N` only observed and `O` in no group. The groups are
//! declared in a random order, each with a randomly chosen spelling of its key (the types
//! of each list in another order, one type as a 1-tuple). Random sequences of 1000 to 1400
//! operations run against the world and against a plain `HashMap<Entity, [Option<u32>; 15]>`
//! model, and after every operation the world must pass `World::check` and agree with the
//! model.
//!
//! The number of cases is 64, or `PROPTEST_CASES` when set.
//!
//! This file builds the world and runs the operations (`run`), and holds the tests; the
//! modules hold:
//!
//! - `components`: the 15 component types, `with_type!` and `dispatch!` (a type index to
//!   its type), and the `Read`, `Write` and `Columns` traits that read items and slices as
//!   `Comps`;
//! - `groups`: the groups (`Grp`, `GROUPS`), `with_group!` (a group and a spelling to its
//!   key type) and `ModelKey`;
//! - `views`: the views (`ViewSpec`, `VIEWS`, `READ_VIEWS`) and `with_view!` and
//!   `with_read_view!` (a view to its query and filter), and the views `retain` walks;
//! - `ops`: the operations (`Op`, `Target`, `Cmd`, `ReserveAction`, the sort keys) and
//!   their strategies;
//! - `world_calls`: the world's API called with one component type or group key;
//! - `harness`: the model and `Harness`, the world under test next to it;
//! - `apply`: `Harness::apply`, running an operation on the world and on the model;
//! - `walks`: views and group iteration in every style, checked against the model;
//! - `borrows`: requests of several parts at once, and the ones the world must refuse;
//! - `commands`: commands recorded and applied, and handles reserved through `&Entities`;
//! - `bulk`: `insert_many`, `remove_many`, `destroy_many`, `clear`, `retain` and
//!   `retain_component`;
//! - `checks`: the checks after each operation;
//! - `changes`: change detection (`Added`, `Changed`, `removed`) replayed from the hooks;
//! - `hooks`: a user hook on every event of every type, and what the hooks must have seen.

use proptest::prelude::*;
use sparse_core::{
    Action, ComponentKey, Entity, Exclude, Get, GroupKey, GroupSpec, Layout, Step, World,
};

use crate::changes::{Changes, track};
use crate::checks::{check_missing_groups, check_moves};
use crate::components::{A, B, C, D, E, F, G, H, I, J, K, L, M, N, O, Val};
use crate::groups::{GROUPS, Grp, decl, index, spec};
use crate::harness::{Harness, sorted};
use crate::hooks::{HOOK_LOG, check_hooks, register_hooks};
use crate::ops::{Op, op};

/// Returns `Err(format!(..))` from the enclosing function unless `$cond` holds.
macro_rules! ensure {
    ($cond:expr, $($fmt:tt)+) => {
        if !$cond {
            return Err(format!($($fmt)+));
        }
    };
}

#[macro_use]
mod components;
#[macro_use]
mod groups;
#[macro_use]
mod views;

mod apply;
mod borrows;
mod bulk;
mod changes;
mod checks;
mod commands;
mod harness;
mod hooks;
mod ops;
mod walks;
mod world_calls;

/// `world` saved (in postcard) and loaded into `empty`.
#[cfg(feature = "serde")]
fn reload(world: &World, mut empty: World) -> Result<World, String> {
    type Types = (A, B, C, D, E, F, G, H, I, J, K, L, M, N, O);
    let bytes = postcard::to_stdvec(&world.snapshot::<Types>()).map_err(|e| e.to_string())?;
    empty
        .load::<Types, _>(&mut postcard::Deserializer::from_bytes(&bytes))
        .map_err(|e| e.to_string())?;
    Ok(empty)
}

/// Builds the world with the groups in `order`, each in its `spellings` entry, then runs
/// `ops`, checking everything after each.
fn run(order: &[usize], spellings: &[usize], ops: &[Op]) -> Result<(), String> {
    let specs = order.iter().map(|&g| spec(GROUPS[g], spellings[g]));
    let mut world = World::with_groups(specs)
        .map_err(|e| format!("groups {order:?} {spellings:?} rejected: {e}"))?;
    register_hooks(&mut world);
    track(&mut world);
    let mut changes = Changes::new();
    let mut h = Harness::new(world);
    check_missing_groups(&mut h.world)?;
    let layout = h.layout();
    h.check(0, &layout)
        .map_err(|e| format!("before any op: {e}"))?;
    for (i, op) in ops.iter().enumerate() {
        let context = |e: String| format!("op #{i} {op:?}: {e}");
        let movable = h.movable(op).map(|m| (m, h.layout()));
        let before = h.model.clone();
        HOOK_LOG.with_borrow_mut(Vec::clear);
        #[cfg(feature = "serde")]
        if let Op::Reload = op {
            // `movable` allows no move: `check_moves` compares every storage's order.
            let mut rebuilt =
                World::with_groups(order.iter().map(|&g| spec(GROUPS[g], spellings[g])))
                    .map_err(|e| e.to_string())?;
            register_hooks(&mut rebuilt);
            track(&mut rebuilt);
            h.world = reload(&h.world, rebuilt).map_err(context)?;
        }
        h.apply(op).map_err(context)?;
        changes.check(op, &mut h.world, &h.model).map_err(context)?;
        let layout = h.layout();
        if let Some((movable, before)) = movable {
            check_moves(&before, &layout, &movable).map_err(context)?;
        }
        h.check(i, &layout).map_err(context)?;
        check_hooks(op, &before, &h.model).map_err(context)?;
        // The checks above iterate groups mutably, which marks their members changed.
        changes.adopt(&mut h.world);
        if std::env::var_os("STATS").is_some() && i % 200 == 199 {
            let sizes: Vec<usize> = GROUPS.iter().map(|&g| h.members(g).len()).collect();
            eprintln!(
                "op {i}: alive {} groups {sizes:?} dead {}",
                h.model.len(),
                h.dead.len()
            );
        }
        if let Op::SortGroup {
            group,
            spelling,
            key,
            descending,
            ..
        } = *op
        {
            h.check_sorted(group, spelling, key, descending)
                .map_err(context)?;
        }
    }
    Ok(())
}

fn config() -> ProptestConfig {
    let default = ProptestConfig::default();
    ProptestConfig {
        // proptest reads PROPTEST_CASES into its default; without it, run 64 cases. Half
        // each in the two tests below, which the test runner runs on two threads.
        cases: if std::env::var_os("PROPTEST_CASES").is_some() {
            default.cases
        } else {
            64
        }
        .div_ceil(2),
        // Each case replays thousands of checked ops: bound the shrinking time (ms).
        max_shrink_time: 120_000,
        // Write no regression file next to this test.
        failure_persistence: None,
        ..default
    }
}

proptest! {
    #![proptest_config(config())]

    #[test]
    fn world_matches_model_first_half(
        order in Just((0..GROUPS.len()).collect::<Vec<usize>>()).prop_shuffle(),
        spellings in prop::collection::vec(0usize..6, GROUPS.len()),
        ops in prop::collection::vec(op(), 1000..1400),
    ) {
        run(&order, &spellings, &ops).map_err(TestCaseError::fail)?;
    }

    #[test]
    fn world_matches_model_second_half(
        order in Just((0..GROUPS.len()).collect::<Vec<usize>>()).prop_shuffle(),
        spellings in prop::collection::vec(0usize..6, GROUPS.len()),
        ops in prop::collection::vec(op(), 1000..1400),
    ) {
        run(&order, &spellings, &ops).map_err(TestCaseError::fail)?;
    }
}

fn component_key<T: Val>() -> ComponentKey {
    ComponentKey::of::<T>()
}

/// Every spelling of a group's key declares the group's lists, and the spellings differ.
#[test]
fn spellings_declare_the_groups() {
    let keys = |types: &[usize]| -> Vec<ComponentKey> {
        let mut keys: Vec<ComponentKey> = types
            .iter()
            .map(|&t| dispatch!(t, component_key()))
            .collect();
        keys.sort_by_key(|k| k.name());
        keys
    };
    for group in GROUPS {
        let (owned, observed, excluded) = group.lists();
        let mut seen = Vec::new();
        for spelling in 0..group.spellings() {
            let decl = decl(group, spelling);
            seen.push(with_group!(group, spelling, Key => core::any::type_name::<Key>()));
            for (mut got, want) in [
                (decl.owned, owned),
                (decl.observed, observed),
                (decl.excluded, excluded),
            ] {
                got.sort_by_key(|k| k.name());
                assert_eq!(got, keys(want), "{group:?} spelling {spelling}");
            }
        }
        seen.sort();
        seen.dedup();
        assert_eq!(
            seen.len(),
            group.spellings(),
            "{group:?}'s spellings are distinct: {seen:?}"
        );
    }
}

/// The layout of the model test is valid in every spelling, and the crate's nesting
/// agrees with the rule as the test writes it.
#[test]
fn layout_is_accepted_and_nesting_agrees() {
    for spelling in 0..3 {
        let decls: Vec<_> = GROUPS.iter().map(|&g| decl(g, spelling)).collect();
        let layout = match Layout::new(decls) {
            Ok(layout) => layout,
            Err(errors) => panic!("the model's groups are rejected: {errors:#?}"),
        };
        for (i, outer) in GROUPS.into_iter().enumerate() {
            for (j, inner) in GROUPS.into_iter().enumerate() {
                assert_eq!(
                    layout.is_nested_in(j, i),
                    inner.nested_in(outer),
                    "{inner:?} in {outer:?}"
                );
            }
            let want: Vec<usize> = outer.inner().into_iter().map(index).collect();
            assert_eq!(layout.inner_groups(i), want, "groups inside {outer:?}");
        }
        World::with_groups(GROUPS.iter().map(|&g| spec(g, spelling)))
            .unwrap_or_else(|e| panic!("World::with_groups rejects the model's groups: {e}"));
    }
    // The families are the ones described at the top.
    let pairs: usize = GROUPS.iter().map(|g| g.inner().len()).sum();
    assert_eq!(pairs, 10, "nested pairs");
    assert_eq!(Grp::EgetF.inner(), [Grp::Ef, Grp::Efgh]);
    assert_eq!(Grp::Gh.inner(), [Grp::Efgh]);
    assert_eq!(Grp::JgetI.inner(), [Grp::IjxK, Grp::IjxKl]);
    assert_eq!(Grp::Ab.inner(), [Grp::Abc, Grp::Abcd]);
}

/// Adding an excluded type leaves the inner group of an exclude chain first, then the
/// outer one; removing it enters the outer group first, then the inner one. `K` plays
/// `X` and `L` plays `Y`.
#[test]
fn exclusion_leaves_inner_first_and_enters_outer_first() {
    type Outer = (A, B, Exclude<K>);
    type Inner = (A, B, Exclude<(K, L)>);
    let step = |group, action| Step {
        group,
        action,
        slot: None,
    };
    for inner_first in [false, true] {
        let (outer, inner) = if inner_first { (1, 0) } else { (0, 1) };
        let mut decls = vec![Outer::decl(), Inner::decl()];
        let mut specs = vec![GroupSpec::of::<Outer>(), GroupSpec::of::<Inner>()];
        if inner_first {
            decls.reverse();
            specs.reverse();
        }
        let layout = Layout::new(decls).expect("the exclude chain is valid");
        assert!(layout.is_nested_in(inner, outer));
        let k = ComponentKey::of::<K>();
        let l = ComponentKey::of::<L>();
        assert_eq!(
            layout.on_add(&k),
            [step(inner, Action::Leave), step(outer, Action::Leave)]
        );
        assert_eq!(
            layout.after_remove(&k),
            [step(outer, Action::Enter), step(inner, Action::Enter)]
        );
        assert_eq!(layout.on_add(&l), [step(inner, Action::Leave)]);
        assert_eq!(layout.after_remove(&l), [step(inner, Action::Enter)]);

        let mut world = World::with_groups(specs).expect("the exclude chain is valid");
        let e: Vec<Entity> = (0..6).map(|_| world.spawn()).collect();
        // e0..e3 in both groups, e4 (with `L`) in the outer one only, e5 (no `B`) in none.
        world.insert(e[4], L(0)).unwrap();
        for (i, &entity) in e.iter().enumerate() {
            world.insert(entity, A(i as u32)).unwrap();
        }
        for &entity in &e[..5] {
            world.insert(entity, B(0)).unwrap();
        }
        let groups = |world: &mut World| {
            world.check().unwrap();
            let outer = world.group::<Outer>().unwrap().entities().to_vec();
            let inner = world.group::<Inner>().unwrap().entities().to_vec();
            assert!(
                outer.len() >= inner.len() && outer[..inner.len()] == inner[..],
                "{inner:?} is the prefix of {outer:?}"
            );
            let a = world.storage::<A>().unwrap().entities();
            assert_eq!(a[..outer.len()], outer[..], "the outer group is A's prefix");
            (sorted(outer), sorted(inner))
        };
        let before = groups(&mut world);
        assert_eq!(before, (e[..5].to_vec(), e[..4].to_vec()));
        // e0 sits at position 0 of both groups: leaving the outer group first would swap
        // e4, which the inner group excludes, into the inner group's range.
        assert_eq!(world.storage::<A>().unwrap().entities()[0], e[0]);
        assert_eq!(world.insert(e[0], K(1)), Ok(None));
        assert_eq!(groups(&mut world), (e[1..5].to_vec(), e[1..4].to_vec()));
        // e0 is now behind both groups: entering the inner group first would swap it with
        // e4 at the inner group's end, pushing e4 out of the outer group's range.
        assert_eq!(world.remove::<K>(e[0]), Some(K(1)));
        assert_eq!(groups(&mut world), before);
        // The same from the middle and the end of the inner group, and with `L`.
        for i in [2, 3, 1] {
            world.insert(e[i], K(2)).unwrap();
            let mut outer = e[..5].to_vec();
            outer.retain(|&x| x != e[i]);
            let mut inner = e[..4].to_vec();
            inner.retain(|&x| x != e[i]);
            assert_eq!(groups(&mut world), (outer.clone(), inner.clone()));
            world.insert(e[i], L(2)).unwrap();
            assert_eq!(groups(&mut world), (outer.clone(), inner.clone()));
            world.remove::<K>(e[i]).unwrap();
            outer = sorted([outer, vec![e[i]]].concat());
            assert_eq!(groups(&mut world), (outer.clone(), inner));
            world.remove::<L>(e[i]).unwrap();
            assert_eq!(groups(&mut world), before);
        }
        world.remove::<L>(e[4]).unwrap();
        assert_eq!(groups(&mut world), (e[..5].to_vec(), e[..5].to_vec()));
        world.destroy(e[0]).unwrap();
        assert_eq!(groups(&mut world), (e[1..5].to_vec(), e[1..5].to_vec()));
    }
}

/// The article's example: `<A,B>` holds e4 and e7, e8 has A and C; giving e8 a B must
/// make it enter `<A,B>` then `<A,B,C>` without pushing e4 out of `<A,B>`.
#[test]
fn article_e8_enters_both_groups_and_e4_stays() {
    let declarations: [fn() -> Vec<GroupSpec>; 3] = [
        || vec![GroupSpec::of::<(A, B)>(), GroupSpec::of::<(A, B, C)>()],
        || vec![GroupSpec::of::<(A, B, C)>(), GroupSpec::of::<(A, B)>()],
        || vec![GroupSpec::of::<(C, B, A)>(), GroupSpec::of::<(B, A)>()],
    ];
    for declare in declarations {
        let mut world = World::with_groups(declare()).expect("nested groups are valid");
        let set = |entities: &[Entity]| sorted(entities.to_vec());
        // e[i] is the i-th spawned entity.
        let e: Vec<Entity> = (0..9).map(|_| world.spawn()).collect();
        for (i, value) in [(4, 4), (7, 1), (3, 0), (8, 2), (6, 3)] {
            world.insert(e[i], A(value)).unwrap();
        }
        for (i, value) in [(4, 0), (7, 2), (5, 1)] {
            world.insert(e[i], B(value)).unwrap();
        }
        for (i, value) in [(6, 2), (8, 0), (5, 1)] {
            world.insert(e[i], C(value)).unwrap();
        }
        world.check().unwrap();
        let ab = world.group::<(A, B)>().unwrap().entities().to_vec();
        assert_eq!(set(&ab), set(&[e[4], e[7]]));
        assert_eq!(world.group_len::<(A, B, C)>(), Ok(0));

        assert_eq!(world.insert(e[8], B(3)), Ok(None));
        world.check().unwrap();
        let ab = world.group::<(A, B)>().unwrap().entities().to_vec();
        let abc = world.group::<(A, B, C)>().unwrap().entities().to_vec();
        assert!(ab.contains(&e[4]), "e4 stays in <A,B>: {ab:?}");
        assert_eq!(set(&ab), set(&[e[4], e[7], e[8]]));
        assert_eq!(abc, vec![e[8]], "e8 is in <A,B,C>");
        assert_eq!(ab[..1], abc[..], "<A,B,C> is the prefix of <A,B>");
        assert_eq!(world.get::<A>(e[4]), Some(&A(4)));
        assert_eq!(world.get::<B>(e[8]), Some(&B(3)));
        assert_eq!(world.get::<C>(e[8]), Some(&C(0)));

        // Leaving: innermost first, e4 and e7 untouched.
        assert_eq!(world.remove::<C>(e[8]), Some(C(0)));
        world.check().unwrap();
        assert_eq!(world.group_len::<(A, B)>(), Ok(3));
        assert_eq!(world.group_len::<(A, B, C)>(), Ok(0));
        world.insert(e[8], C(5)).unwrap();
        world.insert(e[4], C(6)).unwrap();
        world.check().unwrap();
        let abc = world.group::<(A, B, C)>().unwrap().entities().to_vec();
        assert_eq!(set(&abc), set(&[e[4], e[8]]));
        assert_eq!(world.remove::<B>(e[8]), Some(B(3)));
        world.check().unwrap();
        let ab = world.group::<(A, B)>().unwrap().entities().to_vec();
        assert_eq!(set(&ab), set(&[e[4], e[7]]));
        assert_eq!(world.group::<(A, B, C)>().unwrap().entities(), &[e[4]]);
        assert_eq!(ab[0], e[4], "<A,B,C> is the prefix of <A,B>");
        world.destroy(e[4]).unwrap();
        world.check().unwrap();
        assert_eq!(world.group::<(A, B)>().unwrap().entities(), &[e[7]]);
        assert_eq!(world.group_len::<(A, B, C)>(), Ok(0));
        assert_eq!(world.get::<A>(e[4]), None);
    }
}
