//! Sorting in the order of another storage, in a `#[world]` and in the run-time `World`,
//! against what the order must be. `sort_group_as::<K, T>()`: within each layer between
//! two nested groups, the members holding a `T` in the order of `T`'s storage, then the
//! members without one in their previous order. `sort_as::<T, U>()` (a storage no group
//! owns): the entities `U` holds first, in its order, then the others. Each group stays
//! valid (`check`), values follow their entities, and both worlds end in the same order.

use proptest::prelude::*;
use sparse_groups::{Component, Entity, GroupSpec, HasGroup, World, world};

#[derive(Component, Debug, Clone, Copy, PartialEq)]
struct A(u32);
#[derive(Component, Debug, Clone, Copy, PartialEq)]
struct B(u32);
#[derive(Component, Debug, Clone, Copy, PartialEq)]
struct C(u32);
#[derive(Component, Debug, Clone, Copy, PartialEq)]
struct S(u32);
#[derive(Component, Debug, Clone, Copy, PartialEq)]
struct N(u32);

/// `<A, B>` ⊃ `<A, B, C>` (two layers), and a non-owning group `<get(A, N)>`; `S` is the
/// storage the groups are sorted as.
#[world]
#[group(A, B)]
#[group(A, B, C)]
#[group(get(A, N))]
struct Static {
    a: sparse_groups::Storage<A>,
    b: sparse_groups::Storage<B>,
    c: sparse_groups::Storage<C>,
    s: sparse_groups::Storage<S>,
    n: sparse_groups::Storage<N>,
}

fn dynamic() -> World {
    World::with_groups([
        GroupSpec::of::<(A, B)>(),
        GroupSpec::of::<(A, B, C)>(),
        GroupSpec::of::<sparse_groups::Get<(A, N)>>(),
    ])
    .expect("the same layout as Static")
}

/// The order `sort_group_as` must give `before` (a group's members, its inner layer's
/// `inner` first): each layer on its own, members in `s` by their position there, then
/// the others as they were.
fn expected(before: &[Entity], inner: usize, s: &[Entity]) -> Vec<Entity> {
    let position = |e: &Entity| s.iter().position(|x| x == e);
    let mut out = Vec::new();
    for layer in [&before[..inner], &before[inner..]] {
        let mut held: Vec<Entity> = layer
            .iter()
            .copied()
            .filter(|e| position(e).is_some())
            .collect();
        held.sort_by_key(|e| position(e));
        out.extend(held);
        out.extend(layer.iter().copied().filter(|e| position(e).is_none()));
    }
    out
}

/// Entity `i` of `masks` gets the types of its bits (A, B, C, S, N), in that order; then
/// `S` is re-inserted on every third entity in reverse, so that `S`'s order is not the
/// spawn order.
fn populate(s: &mut Static, d: &mut World, masks: &[u8]) -> Vec<(Entity, Entity)> {
    let mut pairs = Vec::new();
    for (i, &mask) in masks.iter().enumerate() {
        let v = i as u32;
        let (es, ed) = (s.spawn(), d.spawn());
        macro_rules! give {
            ($bit:expr, $value:expr) => {
                if mask & $bit != 0 {
                    s.insert(es, $value).unwrap();
                    d.insert(ed, $value).unwrap();
                }
            };
        }
        give!(1, A(v));
        give!(2, B(v));
        give!(4, C(v));
        give!(8, S(v));
        give!(16, N(v));
        pairs.push((es, ed));
    }
    for &(es, ed) in pairs.iter().rev().step_by(3) {
        if let Some(S(v)) = s.remove::<S>(es) {
            d.remove::<S>(ed).unwrap();
            s.insert(es, S(v)).unwrap();
            d.insert(ed, S(v)).unwrap();
        }
    }
    // And `S` shuffled: its storage sorted by a hash of the spawn index.
    let shuffle = |v: &S| v.0.wrapping_mul(2_654_435_761).rotate_left(7);
    s.sort_by_key::<S, _>(shuffle);
    d.sort_by_key::<S, _>(shuffle).unwrap();
    pairs
}

/// Every component still belongs to the entity it was given to (spawn index `i` holds
/// value `i`): a sort moved values with their entities.
fn values_follow(s: &Static, d: &World, pairs: &[(Entity, Entity)]) -> Result<(), TestCaseError> {
    for (i, &(es, ed)) in pairs.iter().enumerate() {
        let v = i as u32;
        prop_assert!(s.get::<A>(es).is_none_or(|a| *a == A(v)));
        prop_assert!(s.get::<B>(es).is_none_or(|b| *b == B(v)));
        prop_assert!(s.get::<C>(es).is_none_or(|c| *c == C(v)));
        prop_assert_eq!(s.get::<A>(es).copied(), d.get::<A>(ed).copied());
        prop_assert_eq!(s.get::<B>(es).copied(), d.get::<B>(ed).copied());
        prop_assert_eq!(s.get::<C>(es).copied(), d.get::<C>(ed).copied());
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(if cfg!(miri) { 4 } else { 256 }))]

    #[test]
    fn a_group_sorted_as_a_storage_takes_its_order_layer_by_layer(
        masks in prop::collection::vec(0u8..32, 0..80),
    ) {
        let (mut s, mut d) = (Static::new(), dynamic());
        let pairs = populate(&mut s, &mut d, &masks);
        let to_dynamic = |e: Entity| pairs.iter().find(|p| p.0 == e).unwrap().1;

        // The owning chain: the inner layer `<A, B, C>`, then the rest of `<A, B>`.
        let before = s.group_ref::<(A, B)>().entities().to_vec();
        let inner = s.group_len::<(A, B, C)>();
        let want = expected(&before, inner, s.storage::<S>().entities());
        s.sort_group_as::<(A, B), S>();
        d.sort_group_as::<(A, B), S>().unwrap();
        let got = s.group_ref::<(A, B)>().entities().to_vec();
        prop_assert_eq!(&got, &want);
        let got_d = d.group_ref::<(A, B)>().unwrap().entities().to_vec();
        prop_assert_eq!(got_d, got.iter().map(|&e| to_dynamic(e)).collect::<Vec<_>>());
        // Sorting as the group's own storage changes nothing.
        s.sort_group_as::<(A, B), A>();
        prop_assert_eq!(s.group_ref::<(A, B)>().entities(), &got[..]);

        // The inner group alone: one layer, and the outer group's rest stays.
        let inner_before = s.group_ref::<(A, B, C)>().entities().to_vec();
        let mut want = expected(&inner_before, inner_before.len(), s.storage::<S>().entities());
        want.extend_from_slice(&got[inner..]);
        s.sort_group_as::<(A, B, C), S>();
        d.sort_group_as::<(A, B, C), S>().unwrap();
        let got = s.group_ref::<(A, B)>().entities().to_vec();
        prop_assert_eq!(&got, &want);
        let got_d = d.group_ref::<(A, B)>().unwrap().entities().to_vec();
        prop_assert_eq!(got_d, got.iter().map(|&e| to_dynamic(e)).collect::<Vec<_>>());
        values_follow(&s, &d, &pairs)?;

        // A non-owning group sorts its member set (one layer).
        type Members = sparse_groups::Get<(A, N)>;
        let before = s.group_ref::<Members>().entities().to_vec();
        let want = expected(&before, before.len(), s.storage::<S>().entities());
        s.sort_group_as::<Members, S>();
        d.sort_group_as::<Members, S>().unwrap();
        let got = s.group_ref::<Members>().entities().to_vec();
        prop_assert_eq!(&got, &want);
        let got_d = d.group_ref::<Members>().unwrap().entities().to_vec();
        prop_assert_eq!(got_d, got.iter().map(|&e| to_dynamic(e)).collect::<Vec<_>>());

        values_follow(&s, &d, &pairs)?;
        prop_assert_eq!(s.check(), Ok(()));
        prop_assert_eq!(d.check(), Ok(()));

        // A storage no group owns (`N`, observed by the non-owning group) as `S`: one
        // layer, the whole storage.
        let before = s.storage::<N>().entities().to_vec();
        let want = expected(&before, before.len(), s.storage::<S>().entities());
        s.sort_as::<N, S>();
        d.sort_as::<N, S>().unwrap();
        let got = s.storage::<N>().entities().to_vec();
        prop_assert_eq!(&got, &want);
        let got_d = d.storage::<N>().unwrap().entities().to_vec();
        prop_assert_eq!(got_d, got.iter().map(|&e| to_dynamic(e)).collect::<Vec<_>>());
        for (i, &(es, ed)) in pairs.iter().enumerate() {
            prop_assert!(s.get::<N>(es).is_none_or(|n| *n == N(i as u32)));
            prop_assert_eq!(s.get::<N>(es).copied(), d.get::<N>(ed).copied());
        }
        prop_assert_eq!(s.check(), Ok(()));
        prop_assert_eq!(d.check(), Ok(()));
    }
}

#[test]
fn the_run_time_world_refuses_to_sort_an_owned_storage_as_another() {
    let mut d = dynamic();
    let e = d.spawn_with((A(0), B(0), S(0)));
    assert!(matches!(
        d.sort_as::<A, S>(),
        Err(sparse_groups::AccessError::OwnedByGroup(_))
    ));
    assert_eq!(d.group_ref::<(A, B)>().unwrap().entities(), &[e]);
}

#[test]
fn a_type_the_run_time_world_never_stored_leaves_the_order() {
    let mut d = dynamic();
    let es: Vec<Entity> = (0..5).map(|i| d.spawn_with((A(i), B(i)))).collect();
    d.sort_group_as::<(A, B), S>().unwrap();
    assert_eq!(d.group_ref::<(A, B)>().unwrap().entities(), &es[..]);
    assert!(d.sort_group_as::<(B, C), S>().is_err(), "no such group");
}

/// The trait method is what the inherent one calls: generic code can sort any world.
#[test]
fn generic_code_sorts_through_the_trait() {
    fn sort<W: HasGroup<(A, B)> + sparse_groups::HasComponent<S>>(w: &mut W) {
        w.sort_group_as::<S>();
    }
    let mut s = Static::new();
    let x = s.spawn_with((A(0), B(0)));
    let y = s.spawn_with((A(1), B(1), S(1)));
    sort(&mut s);
    assert_eq!(s.group_ref::<(A, B)>().entities(), &[y, x]);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(if cfg!(miri) { 4 } else { 256 }))]

    /// `sort_group_by_entity::<K>()`: each layer ascends by entity, the layers keep their
    /// members, in both worlds alike; the groups stay valid and values follow.
    #[test]
    fn a_group_sorted_by_entity_ascends_layer_by_layer(
        masks in prop::collection::vec(0u8..32, 0..80),
        shuffle_first in any::<bool>(),
    ) {
        let (mut s, mut d) = (Static::new(), dynamic());
        let pairs = populate(&mut s, &mut d, &masks);
        let to_dynamic = |e: Entity| pairs.iter().find(|p| p.0 == e).unwrap().1;
        if shuffle_first {
            // Members out of entity order within their layers.
            s.sort_group_as::<(A, B), S>();
            d.sort_group_as::<(A, B), S>().unwrap();
        }
        let inner = s.group_len::<(A, B, C)>();
        let before = s.group_ref::<(A, B)>().entities().to_vec();
        let mut want = before.clone();
        want[..inner].sort();
        want[inner..].sort();
        s.sort_group_by_entity::<(A, B)>();
        d.sort_group_by_entity::<(A, B)>().unwrap();
        let got = s.group_ref::<(A, B)>().entities().to_vec();
        prop_assert_eq!(&got, &want);
        let got_d = d.group_ref::<(A, B)>().unwrap().entities().to_vec();
        prop_assert_eq!(got_d, got.iter().map(|&e| to_dynamic(e)).collect::<Vec<_>>());

        // A non-owning group sorts its member set.
        type Members = sparse_groups::Get<(A, N)>;
        let mut want = s.group_ref::<Members>().entities().to_vec();
        want.sort();
        s.sort_group_by_entity::<Members>();
        d.sort_group_by_entity::<Members>().unwrap();
        let got = s.group_ref::<Members>().entities().to_vec();
        prop_assert_eq!(&got, &want);
        let got_d = d.group_ref::<Members>().unwrap().entities().to_vec();
        prop_assert_eq!(got_d, got.iter().map(|&e| to_dynamic(e)).collect::<Vec<_>>());

        values_follow(&s, &d, &pairs)?;
        prop_assert_eq!(s.check(), Ok(()));
        prop_assert_eq!(d.check(), Ok(()));
    }
}
