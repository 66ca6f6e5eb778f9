//! Sanity checks that every library's workload does the same work. They run
//! each `run` once; they time nothing.

use crate::components::sizes;
use crate::{bevy_impl, hecs_impl, raw, shipyard_impl, sparsey_impl};

/// Sum of all position coordinates after one W1 run over `n` zeroed
/// positions with velocity (1, 2, 3).
fn w1_expected(n: usize) -> f64 {
    6.0 * n as f64
}

/// Asserts that one `run` takes the checksum from 0 to `w1_expected(n)`.
fn check_w1<S>(name: &str, n: usize, mut s: S, run: fn(&mut S), checksum: fn(&mut S) -> f64) {
    assert_eq!(checksum(&mut s), 0.0, "{name}: positions start at zero");
    run(&mut s);
    assert_eq!(
        checksum(&mut s),
        w1_expected(n),
        "{name}: one run adds vel to every pos"
    );
    run(&mut s);
    assert_eq!(checksum(&mut s), 2.0 * w1_expected(n), "{name}: second run");
}

#[test]
fn w1_every_library_moves_every_position() {
    let n = 10_000;
    check_w1("raw", n, raw::w1::setup(n), raw::w1::run, raw::w1::checksum);
    check_w1(
        "raw_zip",
        n,
        raw::w1::setup(n),
        raw::w1::run_zip,
        raw::w1::checksum,
    );
    check_w1(
        "sparsey",
        n,
        sparsey_impl::w1::setup(n),
        sparsey_impl::w1::run,
        sparsey_impl::w1::checksum,
    );
    check_w1(
        "sparsey_slice",
        n,
        sparsey_impl::w1::setup(n),
        sparsey_impl::w1::run_slice,
        sparsey_impl::w1::checksum,
    );
    check_w1(
        "hecs",
        n,
        hecs_impl::w1::setup(n),
        hecs_impl::w1::run,
        hecs_impl::w1::checksum,
    );
    check_w1(
        "shipyard",
        n,
        shipyard_impl::w1::setup(n),
        shipyard_impl::w1::run,
        shipyard_impl::w1::checksum,
    );
    check_w1(
        "bevy",
        n,
        bevy_impl::w1::setup(n),
        bevy_impl::w1::run,
        bevy_impl::w1::checksum,
    );
    check_w1(
        "bevy_contiguous",
        n,
        bevy_impl::w1::setup(n),
        bevy_impl::w1::run_contiguous,
        bevy_impl::w1::checksum,
    );
}

#[test]
fn sparsey_w1_and_w2_iterate_their_groups_densely() {
    assert!(sparsey_impl::w1::is_dense(&mut sparsey_impl::w1::setup(
        100
    )));
    assert!(sparsey_impl::w2::is_dense(&mut sparsey_impl::w2::setup(
        100
    )));
}

/// Asserts that one `run` updates exactly the `<A, B, C>` entities.
fn check_w2<S>(name: &str, expected: usize, mut s: S, run: fn(&mut S), count: fn(&mut S) -> usize) {
    assert_eq!(count(&mut s), 0, "{name}: nothing updated before the run");
    run(&mut s);
    assert_eq!(
        count(&mut s),
        expected,
        "{name}: <A, B, C> entities updated"
    );
}

#[test]
fn w2_every_library_updates_exactly_the_abc_entities() {
    // Full size, as benchmarked: every entity has A and B, the first half C,
    // the first quarter D (a subset of the C half), so <A, B, C> = n / 2.
    let n = sizes::W2;
    let expected = 500_000;
    assert_eq!(n / 2, expected);
    check_w2(
        "raw",
        expected,
        raw::w2::setup(n),
        raw::w2::run,
        raw::w2::count_updated,
    );
    check_w2(
        "sparsey",
        expected,
        sparsey_impl::w2::setup(n),
        sparsey_impl::w2::run,
        sparsey_impl::w2::count_updated,
    );
    check_w2(
        "sparsey_slice",
        expected,
        sparsey_impl::w2::setup(n),
        sparsey_impl::w2::run_slice,
        sparsey_impl::w2::count_updated,
    );
    check_w2(
        "hecs",
        expected,
        hecs_impl::w2::setup(n),
        hecs_impl::w2::run,
        hecs_impl::w2::count_updated,
    );
    check_w2(
        "shipyard",
        expected,
        shipyard_impl::w2::setup(n),
        shipyard_impl::w2::run,
        shipyard_impl::w2::count_updated,
    );
    check_w2(
        "bevy",
        expected,
        bevy_impl::w2::setup(n),
        bevy_impl::w2::run,
        bevy_impl::w2::count_updated,
    );
    check_w2(
        "bevy_contiguous",
        expected,
        bevy_impl::w2::setup(n),
        bevy_impl::w2::run_contiguous,
        bevy_impl::w2::count_updated,
    );
}

/// Asserts that one `run` spawns `n` entities into the fresh world.
fn check_w4<S>(name: &str, n: usize, mut s: S, run: fn(&mut S), len: fn(&mut S) -> usize) {
    assert_eq!(len(&mut s), 0, "{name}: fresh world is empty");
    run(&mut s);
    assert_eq!(len(&mut s), n, "{name}: spawned n entities");
}

#[test]
fn w4_every_library_spawns_n_entities() {
    let n = sizes::W4;
    check_w4("raw", n, raw::w4::setup(n), raw::w4::run, raw::w4::len);
    check_w4(
        "sparsey",
        n,
        sparsey_impl::w4::setup(n),
        sparsey_impl::w4::run,
        sparsey_impl::w4::len,
    );
    check_w4(
        "hecs",
        n,
        hecs_impl::w4::setup(n),
        hecs_impl::w4::run,
        hecs_impl::w4::len,
    );
    check_w4(
        "shipyard",
        n,
        shipyard_impl::w4::setup(n),
        shipyard_impl::w4::run,
        shipyard_impl::w4::len,
    );
    check_w4(
        "bevy",
        n,
        bevy_impl::w4::setup(n),
        bevy_impl::w4::run,
        bevy_impl::w4::len,
    );
}

/// Runs `run` a few times on one state: add/remove cycles must leave each
/// world able to repeat them (an `unwrap` inside would panic otherwise).
fn smoke<S>(mut s: S, run: fn(&mut S)) {
    for _ in 0..3 {
        run(&mut s);
    }
}

#[test]
fn remaining_workloads_run_repeatedly() {
    let n = 1_000;
    smoke(sparsey_impl::w3::setup(n), sparsey_impl::w3::run);
    smoke(hecs_impl::w3::setup(n), hecs_impl::w3::run);
    smoke(shipyard_impl::w3::setup(n), shipyard_impl::w3::run);
    smoke(bevy_impl::w3::setup(n), bevy_impl::w3::run);

    smoke(raw::simple_iter::setup(n), raw::simple_iter::run);
    smoke(
        sparsey_impl::simple_iter::setup(n),
        sparsey_impl::simple_iter::run,
    );
    smoke(
        hecs_impl::simple_iter::setup(n),
        hecs_impl::simple_iter::run,
    );
    smoke(
        shipyard_impl::simple_iter::setup(n),
        shipyard_impl::simple_iter::run,
    );
    smoke(
        bevy_impl::simple_iter::setup(n),
        bevy_impl::simple_iter::run,
    );

    smoke(raw::fragmented_iter::setup(), raw::fragmented_iter::run);
    smoke(
        sparsey_impl::fragmented_iter::setup(),
        sparsey_impl::fragmented_iter::run,
    );
    smoke(
        hecs_impl::fragmented_iter::setup(),
        hecs_impl::fragmented_iter::run,
    );
    smoke(
        shipyard_impl::fragmented_iter::setup(),
        shipyard_impl::fragmented_iter::run,
    );
    smoke(
        bevy_impl::fragmented_iter::setup(),
        bevy_impl::fragmented_iter::run,
    );

    smoke(
        sparsey_impl::add_remove::setup(n),
        sparsey_impl::add_remove::run,
    );
    smoke(hecs_impl::add_remove::setup(n), hecs_impl::add_remove::run);
    smoke(
        shipyard_impl::add_remove::setup(n),
        shipyard_impl::add_remove::run,
    );
    smoke(bevy_impl::add_remove::setup(n), bevy_impl::add_remove::run);
}

#[test]
fn sparse_does_the_same_work() {
    use crate::ours;
    let n = 10_000;
    check_w1(
        "sparse",
        n,
        ours::w1::setup(n),
        ours::w1::run,
        ours::w1::checksum,
    );
    check_w1(
        "sparse_for_each",
        n,
        ours::w1::setup(n),
        ours::w1::run_for_each,
        ours::w1::checksum,
    );
    check_w1(
        "sparse_inserted",
        n,
        ours::w1::setup_inserted(n),
        ours::w1::run,
        ours::w1::checksum,
    );

    let n = 1_000;
    for run in [ours::w2::run, ours::w2::run_for_each] {
        let mut s = ours::w2::setup(n);
        run(&mut s);
        assert_eq!(
            ours::w2::count_updated(&mut s),
            n / 2,
            "sparse: every <A,B,C> entity updated"
        );
    }

    let mut s = ours::w3::setup(n);
    ours::w3::run(&mut s);
    assert_eq!(
        ours::w3::inner_len(&mut s),
        0,
        "sparse: C added and removed again"
    );

    let mut s = ours::w4::setup(n);
    ours::w4::run(&mut s);
    assert_eq!(ours::w4::len(&mut s), n);
}

/// Asserts that each `run` adds the velocities to exactly the unfrozen entities: the
/// position sum of the moving ones grows by the sum of their velocities, that of the
/// frozen ones stays zero. `sums` returns `(moving, frozen)`.
fn check_w5<S>(name: &str, n: usize, mut s: S, run: fn(&mut S), sums: fn(&mut S) -> (f64, f64)) {
    use crate::components::{VEL_SUM, w5_is_frozen};
    let moving = (0..n).filter(|&i| !w5_is_frozen(i)).count() as f64;
    assert_eq!(sums(&mut s), (0.0, 0.0), "{name}: positions start at zero");
    run(&mut s);
    assert_eq!(
        sums(&mut s),
        (VEL_SUM * moving, 0.0),
        "{name}: one run moves the unfrozen entities only"
    );
    run(&mut s);
    assert_eq!(
        sums(&mut s),
        (2.0 * VEL_SUM * moving, 0.0),
        "{name}: second run"
    );
}

#[test]
fn w5_every_library_moves_exactly_the_unfrozen_entities() {
    use crate::ours::w5::{
        owning_exclude, partial, plain_group, view_nested, view_plain, view_set,
    };
    let n = 10_000;
    check_w5(
        "sparse_partial",
        n,
        partial::setup(n),
        partial::run,
        partial::sums,
    );
    check_w5(
        "sparse_partial_sorted",
        n,
        partial::setup_sorted(n),
        partial::run,
        partial::sums,
    );
    check_w5(
        "sparse_owning_exclude",
        n,
        owning_exclude::setup(n),
        owning_exclude::run,
        owning_exclude::sums,
    );
    check_w5(
        "sparse_owning_exclude_for_each",
        n,
        owning_exclude::setup(n),
        owning_exclude::run_for_each,
        owning_exclude::sums,
    );
    check_w5(
        "sparse_plain_group",
        n,
        plain_group::setup(n),
        plain_group::run,
        plain_group::sums,
    );
    check_w5(
        "sparse_view_exclude_group",
        n,
        owning_exclude::setup(n),
        owning_exclude::run_view,
        owning_exclude::sums,
    );
    check_w5(
        "sparse_view_nested",
        n,
        view_nested::setup(n),
        view_nested::run,
        view_nested::sums,
    );
    check_w5(
        "sparse_view_no_group",
        n,
        view_plain::setup(n),
        view_plain::run,
        view_plain::sums,
    );
    check_w5(
        "sparse_view_set",
        n,
        view_set::setup(n),
        view_set::run,
        view_set::sums,
    );
    check_w5(
        "sparsey",
        n,
        sparsey_impl::w5::setup(n),
        sparsey_impl::w5::run,
        sparsey_impl::w5::sums,
    );
    check_w5(
        "hecs",
        n,
        hecs_impl::w5::setup(n),
        hecs_impl::w5::run,
        hecs_impl::w5::sums,
    );
    check_w5(
        "shipyard",
        n,
        shipyard_impl::w5::setup(n),
        shipyard_impl::w5::run,
        shipyard_impl::w5::sums,
    );
    check_w5(
        "bevy",
        n,
        bevy_impl::w5::setup(n),
        bevy_impl::w5::run,
        bevy_impl::w5::sums,
    );
}

#[test]
fn w5_groups_hold_exactly_the_unfrozen_entities() {
    use crate::ours::w5::{owning_exclude, partial, plain_group};
    let n = 1_000;
    assert_eq!(partial::group_len(&mut partial::setup(n)), n / 2);
    assert_eq!(
        owning_exclude::group_len(&mut owning_exclude::setup(n)),
        n / 2
    );
    assert_eq!(plain_group::group_len(&mut plain_group::setup(n)), n / 2);
    assert!(sparsey_impl::w5::is_dense(&mut sparsey_impl::w5::setup(n)));
    // Both of this crate's grouped views walk plain slices, as sparsey's does.
    use crate::ours::w5::view_nested;
    assert!(owning_exclude::view_is_dense(&mut owning_exclude::setup(n)));
    assert!(view_nested::view_is_dense(&mut view_nested::setup(n)));
}

/// Asserts that every entity has A, B, C, D and no `T` before and after each `run`.
/// `counts` returns `(entities with A, B, C and D, entities with T)`.
fn check_w6<S>(
    name: &str,
    n: usize,
    mut s: S,
    run: fn(&mut S),
    counts: fn(&mut S) -> (usize, usize),
) {
    assert_eq!(
        counts(&mut s),
        (n, 0),
        "{name}: n (A, B, C, D) entities, no T"
    );
    for round in 1..=2 {
        run(&mut s);
        assert_eq!(
            counts(&mut s),
            (n, 0),
            "{name}: round {round}: T added and removed again, A-D kept"
        );
    }
}

#[test]
fn w6_every_library_adds_and_removes_the_tag() {
    let n = sizes::W6;
    check_w6(
        "sparse",
        n,
        crate::ours::w6::setup(n),
        crate::ours::w6::run,
        crate::ours::w6::counts,
    );
    check_w6(
        "sparsey",
        n,
        sparsey_impl::w6::setup(n),
        sparsey_impl::w6::run,
        sparsey_impl::w6::counts,
    );
    check_w6(
        "hecs",
        n,
        hecs_impl::w6::setup(n),
        hecs_impl::w6::run,
        hecs_impl::w6::counts,
    );
    check_w6(
        "shipyard",
        n,
        shipyard_impl::w6::setup(n),
        shipyard_impl::w6::run,
        shipyard_impl::w6::counts,
    );
    check_w6(
        "bevy",
        n,
        bevy_impl::w6::setup(n),
        bevy_impl::w6::run,
        bevy_impl::w6::counts,
    );
}

#[test]
fn w6_sparse_family_is_whole_after_each_round() {
    use crate::ours::w6;
    let n = sizes::W6;
    let mut s = w6::setup(n);
    assert_eq!(
        w6::group_lens(&mut s),
        [n; 3],
        "every entity in all three groups"
    );
    for round in 1..=2 {
        w6::run(&mut s);
        w6::check(&mut s).unwrap_or_else(|e| panic!("round {round}: {e}"));
        assert_eq!(
            w6::group_lens(&mut s),
            [n; 3],
            "round {round}: every entity back in all three groups"
        );
    }
    assert!(sparsey_impl::w6::is_dense(&mut sparsey_impl::w6::setup(
        100
    )));
}

/// Saves and loads the `serde_3deep` population of `n` entities in `order` with each
/// library, checks that every entity gets its components back under the same id (and, for
/// `sparse`, that the groups are rebuilt), and returns each snapshot's size.
fn serde_round_trips(
    n: usize,
    order: crate::components::saved::Order,
) -> [(&'static str, usize); 3] {
    use crate::components::saved::{components, count_b, count_c};
    use crate::ours::serde_3deep as ours;
    let expected: Vec<_> = (0..n).map(|i| components(order, n, i)).collect();
    let (with_b, with_c) = (count_b(order, n), count_c(order, n));
    assert_eq!((with_b, with_c), (3 * n / 4, n / 2));

    // `#[world]` with the derives: same entity ids, groups rebuilt and consistent.
    let s = ours::setup(n, order);
    assert_eq!(ours::components_of(&s.world, &s.entities), expected);
    assert_eq!(ours::groups(&s.world), ((with_b, with_c), Ok(())));
    let loaded = ours::run_load(&s);
    assert_eq!(
        ours::components_of(&loaded, &s.entities),
        expected,
        "sparse"
    );
    assert_eq!(ours::groups(&loaded), ((with_b, with_c), Ok(())), "sparse");
    assert_eq!(
        ours::save(&loaded),
        s.bytes,
        "sparse: saving the loaded world"
    );
    let sparse_bytes = s.bytes.len();
    drop((s, loaded));

    // The run-time `World`: snapshot / load.
    let s = ours::dynamic::setup(n, order);
    assert_eq!(
        ours::dynamic::components_of(&s.world, &s.entities),
        expected
    );
    let loaded = ours::dynamic::run_load(&s);
    assert_eq!(
        ours::dynamic::components_of(&loaded, &s.entities),
        expected,
        "sparse_dynamic"
    );
    assert_eq!(
        ours::dynamic::groups(&loaded),
        ((with_b, with_c), Ok(())),
        "sparse_dynamic"
    );
    let dynamic_bytes = s.bytes.len();
    drop((s, loaded));

    // hecs' column serialization: same entity ids.
    let s = hecs_impl::serde_3deep::setup(n, order);
    assert_eq!(
        hecs_impl::serde_3deep::components_of(&s.world, &s.entities),
        expected
    );
    let loaded = hecs_impl::serde_3deep::run_load(&s);
    assert_eq!(loaded.len() as usize, n, "hecs");
    assert_eq!(
        hecs_impl::serde_3deep::components_of(&loaded, &s.entities),
        expected,
        "hecs"
    );
    let hecs_bytes = s.bytes.len();

    let sizes = [
        ("sparse", sparse_bytes),
        ("sparse_dynamic", dynamic_bytes),
        ("hecs", hecs_bytes),
    ];
    for (name, len) in sizes {
        eprintln!(
            "serde_3deep {order:?}/{name}: {len} bytes = {:.2} bytes per entity",
            len as f64 / n as f64
        );
        // 8 bytes of A per entity plus B and C on some, plus the ids: well under 40.
        assert!(len > 8 * n && len < 40 * n, "{name}: {len} bytes");
    }
    sizes
}

#[test]
fn serde_3deep_round_trips_give_back_every_entitys_components() {
    use crate::components::saved::Order;
    // A tenth of the benchmarked size: the unoptimised test build takes long at 1M. The
    // bytes per entity are within 1.5% of the 1M ones (postcard's varint ids: indices take
    // 3 bytes from 16,384 on); the bench prints the 1M figures.
    let n = sizes::SERDE / 10;
    let blocks = serde_round_trips(n, Order::Blocks);
    // Interleaved ids: hecs' load is quadratic in n (see `hecs_impl::serde_3deep::setup`),
    // so a smaller population; the snapshots are as large per entity.
    let m = sizes::SERDE_INTERLEAVED / 10;
    let interleaved = serde_round_trips(m, Order::Interleaved);
    for ((name, a), (_, b)) in blocks.into_iter().zip(interleaved) {
        let (a, b) = (a as f64 / n as f64, b as f64 / m as f64);
        assert!(
            (a - b).abs() < 1.0,
            "{name}: {a:.2} vs {b:.2} bytes per entity"
        );
    }
}

/// The parallel loops of W1 update every position once per run, as the serial ones.
#[test]
fn par_w1_every_library_moves_every_position() {
    use crate::ours;
    let n = 100_000;
    check_w1(
        "raw_par",
        n,
        raw::w1::setup(n),
        raw::w1::run_par,
        raw::w1::checksum,
    );
    check_w1(
        "sparse_par",
        n,
        ours::w1::setup(n),
        ours::w1::run_par,
        ours::w1::checksum,
    );
    check_w1(
        "sparse_par_view",
        n,
        ours::w1::setup(n),
        ours::w1::run_par_view,
        ours::w1::checksum,
    );
    check_w1(
        "sparsey_par",
        n,
        sparsey_impl::w1::setup(n),
        sparsey_impl::w1::run_par,
        sparsey_impl::w1::checksum,
    );
    check_w1(
        "bevy_par",
        n,
        bevy_impl::w1::setup_par(n),
        bevy_impl::w1::run_par,
        bevy_impl::w1::checksum,
    );
}

#[test]
fn par_w2_every_library_updates_exactly_the_abc_entities() {
    use crate::ours;
    let n = sizes::W2;
    let expected = n / 2;
    check_w2(
        "raw_par",
        expected,
        raw::w2::setup(n),
        raw::w2::run_par,
        raw::w2::count_updated,
    );
    check_w2(
        "sparse_par",
        expected,
        ours::w2::setup(n),
        ours::w2::run_par,
        ours::w2::count_updated,
    );
    check_w2(
        "sparse_par_view",
        expected,
        ours::w2::setup(n),
        ours::w2::run_par_view,
        ours::w2::count_updated,
    );
    check_w2(
        "sparse_par (counted by group_ref().par_for_each)",
        expected,
        ours::w2::setup(n),
        ours::w2::run_par,
        ours::w2::count_updated_par,
    );
    check_w2(
        "sparsey_par",
        expected,
        sparsey_impl::w2::setup(n),
        sparsey_impl::w2::run_par,
        sparsey_impl::w2::count_updated,
    );
    assert!(sparsey_impl::w2::par_is_dense(
        &mut sparsey_impl::w2::setup(100)
    ));
    check_w2(
        "bevy_par",
        expected,
        bevy_impl::w2::setup_par(n),
        bevy_impl::w2::run_par,
        bevy_impl::w2::count_updated,
    );
}

/// W1's added functions: views with no group (`#[world]`, run-time `World`, sparsey
/// without a group), the run-time `World`'s group, and the read-only sums.
#[test]
fn w1_views_without_groups_and_run_time_world_move_every_position() {
    use crate::ours::w1;
    let n = 10_000;
    check_w1(
        "sparse_view_nogroup",
        n,
        w1::nogroup::setup(n),
        w1::nogroup::run,
        w1::nogroup::checksum,
    );
    check_w1(
        "sparse_view_nogroup_for",
        n,
        w1::nogroup::setup(n),
        w1::nogroup::run_for,
        w1::nogroup::checksum,
    );
    check_w1(
        "sparse_view_nogroup_iter",
        n,
        w1::nogroup::setup(n),
        w1::nogroup::run_iter,
        w1::nogroup::checksum,
    );
    // No group, but one batch filled both storages: they hold one order.
    assert!(w1::nogroup::is_dense(&mut w1::nogroup::setup(100)));
    check_w1(
        "sparse_for_loop",
        n,
        w1::setup(n),
        w1::run_for_loop,
        w1::checksum,
    );
    check_w1("sparse_zip", n, w1::setup(n), w1::run_zip, w1::checksum);
    check_w1(
        "sparse_world",
        n,
        w1::dynamic::setup(n),
        w1::dynamic::run,
        w1::dynamic::checksum,
    );
    check_w1(
        "sparse_world_view_nogroup",
        n,
        w1::dynamic::setup_nogroup(n),
        w1::dynamic::run_view,
        w1::dynamic::checksum,
    );
    check_w1(
        "sparsey_nogroup",
        n,
        sparsey_impl::w1::setup_nogroup(n),
        sparsey_impl::w1::run,
        sparsey_impl::w1::checksum,
    );
    assert!(!sparsey_impl::w1::is_dense(
        &mut sparsey_impl::w1::setup_nogroup(100)
    ));

    // Read-only sums: p · v = 14 per entity after one run (p = v = (1, 2, 3)); every
    // partial sum is an integer below 2^24, so the f32 sums are exact.
    let mut s = w1::setup(n);
    assert_eq!(w1::iter_sum(&mut s), 0.0);
    w1::run(&mut s);
    assert_eq!(w1::iter_sum(&mut s), 14.0 * n as f32, "sparse_iter");
    assert_eq!(
        w1::iter_slices_sum(&mut s),
        14.0 * n as f32,
        "sparse_iter_slices"
    );
}

/// W2's added functions update exactly the `<A, B, C>` entities.
#[test]
fn w2_views_without_groups_and_run_time_world_update_the_abc_entities() {
    use crate::ours::w2;
    let n = 10_000;
    let expected = n / 2;
    check_w2(
        "sparse_view_nogroup",
        expected,
        w2::nogroup::setup(n),
        w2::nogroup::run,
        w2::nogroup::count_updated,
    );
    check_w2(
        "sparse_world",
        expected,
        w2::dynamic::setup(n),
        w2::dynamic::run,
        w2::dynamic::count_updated,
    );
    check_w2(
        "sparse_world_view_nogroup",
        expected,
        w2::dynamic::setup_nogroup(n),
        w2::dynamic::run_view,
        w2::dynamic::count_updated,
    );
    check_w2(
        "sparsey_nogroup",
        expected,
        sparsey_impl::w2::setup_nogroup(n),
        sparsey_impl::w2::run,
        sparsey_impl::w2::count_updated,
    );
    assert!(!sparsey_impl::w2::is_dense(
        &mut sparsey_impl::w2::setup_nogroup(100)
    ));
    for (name, run) in [
        ("sparse_for_loop", w2::run_for_loop as fn(&mut w2::State)),
        ("sparse_zip", w2::run_zip),
    ] {
        check_w2(name, expected, w2::setup(n), run, w2::count_updated);
    }
    // abc_read = Σ a + b·c: 4 · (0 + 1·2) = 8 per matched entity, 12 after one run.
    let mut s = w2::setup(n);
    assert_eq!(w2::iter_sum(&mut s), 8.0 * expected as f32, "sparse_iter");
    w2::run(&mut s);
    assert_eq!(w2::iter_sum(&mut s), 20.0 * expected as f32, "sparse_iter");
    assert_eq!(
        w2::iter_slices_sum(&mut s),
        20.0 * expected as f32,
        "sparse_iter_slices"
    );
}

#[test]
fn w3_with_no_group_adds_and_removes_every_c_in_both_worlds() {
    use crate::ours::w3::nogroup::{self, dynamic};
    let n = 1_000;
    let (mut ours, mut run_time) = (nogroup::setup(n), dynamic::setup(n));
    for round in 1..=2 {
        nogroup::insert_all(&mut ours);
        dynamic::insert_all(&mut run_time);
        let added = (nogroup::with_c(&ours), dynamic::with_c(&run_time));
        assert_eq!(added, (n, n), "round {round}: every entity has a C");
        nogroup::remove_all(&mut ours);
        dynamic::remove_all(&mut run_time);
        let removed = (nogroup::with_c(&ours), dynamic::with_c(&run_time));
        assert_eq!(removed, (0, 0), "round {round}: no entity has a C");
    }
}

#[test]
fn w3_and_w4_run_time_world_match_the_world_macro() {
    use crate::ours::{w3, w4};
    let n = 1_000;
    let mut s = w3::dynamic::setup(n);
    for round in 1..=2 {
        w3::dynamic::run(&mut s);
        assert_eq!(
            w3::dynamic::groups(&mut s),
            ((n, 0), Ok(())),
            "sparse_world round {round}: C added and removed again"
        );
    }
    check_w4(
        "sparse_world",
        n,
        w4::dynamic::setup(n),
        w4::dynamic::run,
        w4::dynamic::len,
    );
    check_w4(
        "sparse_world_each",
        n,
        w4::dynamic::setup(n),
        w4::dynamic::run_each,
        w4::dynamic::len,
    );
}

#[test]
fn w5_added_loops_move_exactly_the_unfrozen_entities() {
    use crate::ours::w5::{dynamic, owning_exclude, view_nested, view_plain};
    let n = 10_000;
    check_w5(
        "sparse_view_nogroup_for",
        n,
        view_plain::setup(n),
        view_plain::run_for,
        view_plain::sums,
    );
    check_w5(
        "sparse_owning_exclude_for",
        n,
        owning_exclude::setup(n),
        owning_exclude::run_for,
        owning_exclude::sums,
    );
    check_w5(
        "sparse_owning_exclude_zip",
        n,
        owning_exclude::setup(n),
        owning_exclude::run_zip,
        owning_exclude::sums,
    );
    check_w5(
        "sparse_view_nested_for",
        n,
        view_nested::setup(n),
        view_nested::run_for,
        view_nested::sums,
    );
    check_w5(
        "sparse_world_partial",
        n,
        dynamic::setup_partial(n),
        dynamic::run_partial,
        dynamic::sums,
    );
    check_w5(
        "sparse_world_owning_exclude_for_each",
        n,
        dynamic::setup_owning_exclude(n),
        dynamic::run_owning_exclude,
        dynamic::sums,
    );
    check_w5(
        "sparse_world_view_nested",
        n,
        dynamic::setup_nested(n),
        dynamic::run_view,
        dynamic::sums,
    );
    check_w5(
        "sparse_world_view_nogroup",
        n,
        dynamic::setup_nogroup(n),
        dynamic::run_view,
        dynamic::sums,
    );
    check_w5(
        "sparsey_nogroup",
        n,
        sparsey_impl::w5::setup_nogroup(n),
        sparsey_impl::w5::run,
        sparsey_impl::w5::sums,
    );
    assert!(!sparsey_impl::w5::is_dense(
        &mut sparsey_impl::w5::setup_nogroup(100)
    ));
    // The run-time world's filtered view is dense over the nested layout, as the
    // `#[world]`'s; with no group it is not.
    assert!(dynamic::view_is_dense(&mut dynamic::setup_nested(100)));
    assert!(!dynamic::view_is_dense(&mut dynamic::setup_nogroup(100)));

    // Read-only sums over the n / 2 moving entities: p · v = 14 each after one run.
    let moving = (n / 2) as f32;
    let mut s = owning_exclude::setup(n);
    owning_exclude::run(&mut s);
    assert_eq!(owning_exclude::iter_sum(&mut s), 14.0 * moving);
    let mut s = view_nested::setup(n);
    view_nested::run(&mut s);
    assert_eq!(view_nested::iter_sum(&mut s), 14.0 * moving);
}

/// Asserts that each `run` adds `B` to the `A` of exactly the `n / 2` entities that have
/// both: `a_sum` (lane 0 of every `A`) grows by `n / 2` a run.
fn check_overlap<S>(name: &str, n: usize, mut s: S, run: fn(&mut S), a_sum: fn(&mut S) -> f64) {
    let matched = (n / 2) as f64;
    assert_eq!(a_sum(&mut s), 0.0, "{name}: A starts at zero");
    run(&mut s);
    assert_eq!(a_sum(&mut s), matched, "{name}: one run");
    run(&mut s);
    assert_eq!(a_sum(&mut s), 2.0 * matched, "{name}: second run");
}

#[test]
fn view_overlap_every_library_updates_exactly_the_shared_entities() {
    use crate::ours::view_overlap as o;
    let n = 20_000;
    let matched = (0..crate::components::overlap_total(n))
        .filter(|&i| {
            crate::components::overlap_has_a(i, n) && crate::components::overlap_has_b(i, n)
        })
        .count();
    assert_eq!(matched, n / 2);
    check_overlap(
        "raw",
        n,
        raw::view_overlap::setup(n),
        raw::view_overlap::run,
        raw::view_overlap::a_sum,
    );
    check_overlap("sparse", n, o::setup(n), o::run, o::a_sum);
    use raw::view_overlap_sparse as floor;
    check_overlap(
        "floor_for",
        n,
        floor::setup(n),
        floor::run_for,
        floor::a_sum,
    );
    let skip = floor::run_for_skip;
    check_overlap("floor_for_skip", n, floor::setup(n), skip, floor::a_sum);
    let runs = floor::run_for_runs;
    check_overlap("floor_for_runs", n, floor::setup(n), runs, floor::a_sum);
    check_overlap("sparse_for", n, o::setup(n), o::run_for, o::a_sum);
    let scrambled = o::scrambled::setup;
    check_overlap(
        "sparse_scrambled",
        n,
        scrambled(n),
        o::scrambled::run,
        o::a_sum,
    );
    let run_for = o::scrambled::run_for;
    check_overlap("sparse_scrambled_for", n, scrambled(n), run_for, o::a_sum);
    check_overlap(
        "sparse_world",
        n,
        o::dynamic::setup(n),
        o::dynamic::run,
        o::dynamic::a_sum,
    );
    check_overlap(
        "hecs",
        n,
        hecs_impl::view_overlap::setup(n),
        hecs_impl::view_overlap::run,
        hecs_impl::view_overlap::a_sum,
    );
    check_overlap(
        "bevy",
        n,
        bevy_impl::view_overlap::setup(n),
        bevy_impl::view_overlap::run,
        bevy_impl::view_overlap::a_sum,
    );
    check_overlap(
        "sparsey",
        n,
        sparsey_impl::view_overlap::setup(n),
        sparsey_impl::view_overlap::run,
        sparsey_impl::view_overlap::a_sum,
    );
    check_overlap(
        "shipyard",
        n,
        shipyard_impl::view_overlap::setup(n),
        shipyard_impl::view_overlap::run,
        shipyard_impl::view_overlap::a_sum,
    );
    // a · b = 4 per matched entity after one run (A = B = 1 in every lane).
    let mut s = o::setup(n);
    assert_eq!(o::iter_sum(&mut s), 0.0);
    o::run(&mut s);
    assert_eq!(o::iter_sum(&mut s), 4.0 * matched as f32, "sparse_iter");
}

#[test]
fn invert4_inverts() {
    use crate::components::{heavy_bundle, invert4};
    let (t, ..) = heavy_bundle();
    let inv = invert4(&t.0).expect("invertible");
    // A rotation's inverse is its transpose.
    for (c, column) in inv.iter().enumerate() {
        for (r, x) in column.iter().enumerate() {
            assert!(
                (x - t.0[r][c]).abs() < 1e-6,
                "[{c}][{r}]: {x} vs {}",
                t.0[r][c]
            );
        }
    }
    // A general matrix: m · m⁻¹ = I.
    let m = [
        [2.0, 1.0, 0.0, 0.5],
        [0.0, 3.0, 1.0, 0.0],
        [1.0, 0.0, 4.0, 2.0],
        [0.0, 0.5, 0.0, 1.0],
    ];
    let inv = invert4(&m).expect("invertible");
    // Column-major: (m · m⁻¹)[i][j] = Σ_k m[k][j] · m⁻¹[i][k].
    let product = |i: usize, j: usize| -> f32 { (0..4).map(|k| m[k][j] * inv[i][k]).sum() };
    for (i, j) in (0..4).flat_map(|i| (0..4).map(move |j| (i, j))) {
        let x = product(i, j);
        let id = if i == j { 1.0 } else { 0.0 };
        assert!((x - id).abs() < 1e-5, "({i}, {j}): {x}");
    }
    assert_eq!(invert4(&[[0.0; 4]; 4]), None);
}

/// Asserts that one `run` calls [`heavy_compute`] once per entity and leaves every entity
/// with its result on [`heavy_bundle`] (bit for bit: every library runs the same function
/// on the same values). The result equals the input (see `HEAVY_CALLS`), hence the count.
/// Only the test below calls `heavy_compute`.
fn check_heavy<S>(
    name: &str,
    n: usize,
    mut s: S,
    run: fn(&mut S),
    results: fn(&mut S) -> Vec<(crate::components::Position, crate::components::Transform)>,
) {
    use crate::components::{HEAVY_CALLS, heavy_bundle, heavy_compute};
    use std::sync::atomic::Ordering;
    let (mut t, mut p, ..) = heavy_bundle();
    assert_eq!(results(&mut s), vec![(p, t); n], "{name}: before");
    heavy_compute(&mut p, &mut t);
    let calls = HEAVY_CALLS.load(Ordering::Relaxed);
    run(&mut s);
    assert_eq!(
        HEAVY_CALLS.load(Ordering::Relaxed) - calls,
        n,
        "{name}: one call per entity"
    );
    assert_eq!(results(&mut s), vec![(p, t); n], "{name}: after one run");
}

#[test]
fn heavy_compute_every_library_computes_the_same() {
    use crate::ours::heavy;
    let n = sizes::HEAVY_COMPUTE;
    check_heavy("sparse", n, heavy::setup(n), heavy::run, heavy::results);
    check_heavy(
        "sparse_slices",
        n,
        heavy::setup(n),
        heavy::run_slices,
        heavy::results,
    );
    check_heavy(
        "sparse_serial",
        n,
        heavy::setup(n),
        heavy::run_serial,
        heavy::results,
    );
    check_heavy(
        "sparse_world",
        n,
        heavy::dynamic::setup(n),
        heavy::dynamic::run,
        heavy::dynamic::results,
    );
    check_heavy(
        "raw",
        n,
        raw::heavy_compute::setup(n),
        raw::heavy_compute::run,
        raw::heavy_compute::results,
    );
    check_heavy(
        "sparsey",
        n,
        sparsey_impl::heavy_compute::setup(n),
        sparsey_impl::heavy_compute::run,
        sparsey_impl::heavy_compute::results,
    );
    check_heavy(
        "hecs",
        n,
        hecs_impl::heavy_compute::setup(n),
        hecs_impl::heavy_compute::run,
        hecs_impl::heavy_compute::results,
    );
    check_heavy(
        "bevy",
        n,
        bevy_impl::heavy_compute::setup(n),
        bevy_impl::heavy_compute::run,
        bevy_impl::heavy_compute::results,
    );
    check_heavy(
        "shipyard",
        n,
        shipyard_impl::heavy_compute::setup(n),
        shipyard_impl::heavy_compute::run,
        shipyard_impl::heavy_compute::results,
    );
}

/// Asserts that each `run` adds `A` to every `B` and `C` to every `D` and `E`.
fn check_schedule<S>(name: &str, mut s: S, run: fn(&mut S), sums: fn(&mut S) -> (f64, f64, f64)) {
    use crate::components::sched::expected_sums;
    assert_eq!(sums(&mut s), expected_sums(0), "{name}: before");
    for runs in 1..=3 {
        run(&mut s);
        assert_eq!(
            sums(&mut s),
            expected_sums(runs),
            "{name}: after {runs} runs"
        );
    }
}

#[test]
fn schedule_every_library_runs_the_three_systems() {
    use crate::ours::schedule as o;
    check_schedule("sparse", o::setup(), o::run, o::sums);
    check_schedule("sparse_serial", o::setup(), o::run_serial, o::sums);
    check_schedule("sparse_scheduled", o::setup(), o::run_scheduled, o::sums);
    check_schedule(
        "sparse_world",
        o::dynamic::setup(),
        o::dynamic::run,
        o::dynamic::sums,
    );
    use sparsey_impl::schedule as sy;
    check_schedule("sparsey", sy::setup(), sy::run, sy::sums);
    check_schedule("sparsey_serial", sy::setup(), sy::run_serial, sy::sums);
    use hecs_impl::schedule as h;
    check_schedule("hecs", h::setup(), h::run, h::sums);
    check_schedule("hecs_serial", h::setup(), h::run_serial, h::sums);
    use bevy_impl::schedule as b;
    check_schedule("bevy", b::setup(), b::run, b::sums);
    check_schedule("bevy_single", b::setup_single(), b::run, b::sums);
    use shipyard_impl::schedule as sh;
    check_schedule("shipyard", sh::setup(), sh::run, sh::sums);
    check_schedule("shipyard_serial", sh::setup(), sh::run_serial, sh::sums);
}

#[test]
fn serialize_binary_round_trips_keep_every_entitys_components() {
    use crate::ours::serialize_binary as o;
    let n = sizes::SERIALIZE;
    let expected: Vec<_> = (0..n).map(o::bundle).collect();

    let s = o::setup(n);
    assert_eq!(o::components_of(&s.world, &s.entities), expected);
    let loaded = o::round_trip(&s.world);
    assert_eq!(o::components_of(&loaded, &s.entities), expected, "sparse");
    loaded.check().expect("sparse: a consistent world");

    let s = o::dynamic::setup(n);
    let loaded = o::dynamic::round_trip(&s.world);
    assert_eq!(
        o::dynamic::components_of(&loaded, &s.entities),
        expected,
        "sparse_world"
    );
    loaded.check().expect("sparse_world: a consistent world");

    use hecs_impl::serialize_binary as h;
    let s = h::setup(n);
    let loaded = h::round_trip(&s.world);
    assert_eq!(loaded.len() as usize, n, "hecs");
    assert_eq!(h::components_of(&loaded, &s.entities), expected, "hecs");

    use shipyard_impl::serialize_binary as sh;
    let s = sh::setup(n);
    let loaded = sh::round_trip(&s.world);
    let with_alive: Vec<_> = expected
        .iter()
        .map(|&(t, p, r, v)| (true, t, p, r, v))
        .collect();
    assert_eq!(
        sh::components_of(&loaded, &s.entities),
        with_alive,
        "shipyard: alive, with its components"
    );
}

#[test]
fn changed_1pct_both_libraries_visit_the_written_positions_only() {
    let (n, stride): (usize, usize) = (10_000, 100);
    let want = n.div_ceil(stride) as f32;
    let mut ours = crate::ours::changed::setup(n, stride);
    assert_eq!(crate::ours::changed::run(&mut ours), want, "sparse");
    assert_eq!(crate::ours::changed::run(&mut ours), want, "sparse, again");
    let mut bevy = bevy_impl::changed::setup(n, stride);
    assert_eq!(bevy_impl::changed::run(&mut bevy), want, "bevy");
    assert_eq!(bevy_impl::changed::run(&mut bevy), want, "bevy, again");
}

#[test]
fn marking_a_guard_stamps_what_was_written_a_mut_ref_what_was_handed_out() {
    use crate::components::VEL;
    use crate::ours::marking;
    let n = 10_000;
    let mut guard = marking::setup(n);
    marking::sparse_pass(&mut guard, true);
    assert_eq!(marking::changed_count(&mut guard), n.div_ceil(100), "Mut");
    let mut mut_ref = marking::setup(n);
    marking::sparse_pass(&mut mut_ref, false);
    assert_eq!(marking::changed_count(&mut mut_ref), n, "&mut");
    // The timed runs: both ways sum the same written positions (the others are zero).
    let (mut a, mut b) = (marking::setup(n), marking::setup(n));
    let written = n.div_ceil(100) as f32 * VEL.x;
    assert_eq!(marking::run_sparse(&mut a), written, "&mut");
    assert_eq!(marking::run_sparse_guard(&mut b), written, "Mut");
    // After W1 (every position moved, and changed, either way), the `Changed` views of
    // the next sparse pass differ: `&mut` yields every position, `Mut` the hundredth.
    marking::run_w1(&mut a);
    marking::run_w1_guard(&mut b);
    let moved = n as f32 * VEL.x + written * 2.0;
    assert_eq!(marking::run_sparse(&mut a), moved, "&mut after W1");
    assert_eq!(
        marking::run_sparse_guard(&mut b),
        written * 3.0,
        "Mut after W1"
    );
}

/// A realistic-frame port's rows, sorted by
/// [`Row::key`](crate::components::frame::Row::key), and its frame-buffer cells
/// after `frames` runs.
fn frame_after<S>(
    mut s: S,
    frames: usize,
    run: impl Fn(&mut S),
    rows: fn(&mut S) -> Vec<crate::components::frame::Row>,
    cells: fn(&S) -> &[u32],
) -> (Vec<crate::components::frame::Row>, Vec<u32>) {
    for _ in 0..frames {
        run(&mut s);
    }
    let mut rows = rows(&mut s);
    rows.sort_by_cached_key(crate::components::frame::Row::key);
    (rows, cells(&s).to_vec())
}

/// The `Vec` reference's rows and cells after `frames` frames of `n` entities.
fn frame_reference(n: usize, frames: usize) -> (Vec<crate::components::frame::Row>, Vec<u32>) {
    frame_after(
        raw::frame::setup(n),
        frames,
        raw::frame::run,
        |s| raw::frame::rows(s),
        |s| &s.fb.cells,
    )
}

/// Asserts that a port ends where the reference ends.
fn check_frame(
    name: &str,
    want: &(Vec<crate::components::frame::Row>, Vec<u32>),
    got: (Vec<crate::components::frame::Row>, Vec<u32>),
) {
    assert_eq!(got.0.len(), want.0.len(), "{name}: entity count");
    if let Some(i) = (0..want.0.len()).find(|&i| got.0[i] != want.0[i]) {
        panic!(
            "{name}: sorted row {i} differs:\n  got  {:?}\n  want {:?}",
            got.0[i], want.0[i]
        );
    }
    assert!(got.1 == want.1, "{name}: frame buffer cells differ");
}

#[test]
fn frame_scheduled_equals_in_order_and_bevy() {
    use crate::ours::frame::scheduled as o;
    let (n, frames) = (4096, 120);
    assert_eq!(o::stages(), [0, 0, 1, 0, 1, 2, 3], "the compiler's stages");
    let want = frame_reference(n, frames);
    let got = frame_after(o::setup(n), frames, o::run, o::rows, o::cells);
    check_frame("sparse, scheduled", &want, got);
    let got = frame_after(o::setup(n), frames, o::run_in_order, o::rows, o::cells);
    check_frame("sparse, in order", &want, got);
    use bevy_impl::frame::scheduled as b;
    let got = frame_after(b::setup(n), frames, b::run, b::rows, b::cells);
    check_frame("bevy, multi-threaded executor", &want, got);
    let got = frame_after(b::setup_single(n), frames, b::run, b::rows, b::cells);
    check_frame("bevy, single-threaded executor", &want, got);
}

#[test]
fn the_branch_free_render_draws_what_render_draws() {
    use crate::components::frame::{run_systems, with_render};
    use crate::ours::frame::groups;
    let (n, frames) = (4096, 300);
    let want = frame_reference(n, frames);
    let systems = with_render(raw::frame::SYSTEMS, raw::frame::RENDER_BRANCH_FREE);
    let run = |s: &mut _| run_systems(s, &systems);
    let got = frame_after(
        raw::frame::setup(n),
        frames,
        run,
        |s| raw::frame::rows(s),
        |s| &s.fb.cells,
    );
    assert!(got.1 == want.1, "raw: branch-free cells differ");
    let systems = with_render(groups::SYSTEMS, groups::RENDER_BRANCH_FREE);
    let run = |s: &mut _| run_systems(s, &systems);
    let got = frame_after(groups::setup_advised(n), frames, run, groups::rows, |s| {
        &s.fb.cells
    });
    assert!(got.1 == want.1, "sparse_advised: branch-free cells differ");
    use bevy_impl::frame as b;
    let systems = with_render(b::SYSTEMS, b::RENDER_BRANCH_FREE);
    let run = |s: &mut _| run_systems(s, &systems);
    let got = frame_after(b::setup(n), frames, run, b::rows, |s| &s.fb.cells);
    assert!(got.1 == want.1, "bevy: branch-free cells differ");
}

#[test]
fn frame_ports_match_the_vec_reference() {
    use crate::components::frame::{ALIVE, DEAD, SPAWN};
    let (n, frames) = (4096, 300);
    let want = frame_reference(n, frames);
    // The run is long enough for entities to die and respawn: every life state is held
    // by some entity at the end, and the frame buffer holds glyphs.
    assert_eq!(want.0.len(), n, "raw: entity count");
    for status in [SPAWN, ALIVE, DEAD] {
        assert!(
            want.0
                .iter()
                .any(|r| r.health.is_some_and(|h| h.status == status)),
            "raw: some entity has status {status} after {frames} frames"
        );
    }
    assert!(
        want.1.iter().any(|&c| c > u32::from(b' ')),
        "raw: glyphs drawn"
    );

    // Ours: the same systems in three layouts. The best groups make every system but
    // `sprite` a loop over slices; EnTT's flat groups `movement` and `damage`; no group,
    // only the one-type views.
    use crate::ours::frame::{entt, groups, views};
    let mut s = groups::setup(n);
    assert_eq!(
        groups::dense_systems(&mut s),
        [true, true, true, true, true, false, true],
        "sparse_groups: dense systems"
    );
    let got = frame_after(s, frames, groups::run, groups::rows, |s| &s.fb.cells);
    check_frame("sparse_groups", &want, got);
    let mut s = groups::setup_advised(n);
    assert_eq!(
        groups::dense_systems(&mut s),
        [true, true, true, true, true, false, true],
        "sparse_advised: dense systems"
    );
    let got = frame_after(s, frames, groups::run, groups::rows, |s| &s.fb.cells);
    check_frame("sparse_advised", &want, got);
    let mut s = entt::setup(n);
    assert_eq!(
        entt::dense_systems(&mut s),
        [true, true, false, true, true, false, false],
        "sparse_entt: dense systems"
    );
    let got = frame_after(s, frames, entt::run, entt::rows, |s| &s.fb.cells);
    check_frame("sparse_entt", &want, got);
    let mut s = views::setup(n);
    assert_eq!(
        views::dense_systems(&mut s),
        // render's too: every entity was spawned with its `Pos` and `Sprite` in one
        // bundle, so the two storages hold one order (no group moved them since).
        [false, true, false, true, false, false, true],
        "sparse_views: dense systems"
    );
    let got = frame_after(s, frames, views::run, views::rows, |s| &s.fb.cells);
    check_frame("sparse_views", &want, got);

    use bevy_impl::frame as b;
    let got = frame_after(b::setup(n), frames, b::run, b::rows, |s| &s.fb.cells);
    check_frame("bevy", &want, got);

    use hecs_impl::frame as h;
    let got = frame_after(h::setup(n), frames, h::run, h::rows, |s| &s.fb.cells);
    check_frame("hecs", &want, got);

    use shipyard_impl::frame as sh;
    let got = frame_after(sh::setup(n), frames, sh::run, sh::rows, |s| &s.fb.cells);
    check_frame("shipyard", &want, got);

    use sparsey_impl::frame as sy;
    // The grouped world iterates every system but `sprite` densely; a query naming fewer
    // types than its group (`(&mut Pos, &Vel)` without the `Sprite` filter) does not.
    let mut s = sy::setup(n);
    assert_eq!(
        sy::dense(&mut s),
        [true, true, true, true, true, false, true],
        "sparsey: dense systems with groups"
    );
    assert!(
        !sy::plain_movement_is_dense(&mut s),
        "sparsey: (&mut Pos, &Vel) alone does not use <Pos, Sprite, Vel>"
    );
    let got = frame_after(s, frames, sy::run, sy::rows, |s| &s.fb.cells);
    check_frame("sparsey", &want, got);
    let mut s = sy::setup_nogroup(n);
    assert_eq!(
        sy::dense(&mut s),
        [false, true, false, true, false, false, false],
        "sparsey_nogroup: only the single-view systems are dense"
    );
    let got = frame_after(s, frames, sy::run, sy::rows, |s| &s.fb.cells);
    check_frame("sparsey_nogroup", &want, got);
    let got = frame_after(
        sy::setup_nogroup(n),
        frames,
        sy::run_nogroup,
        sy::rows,
        |s| &s.fb.cells,
    );
    check_frame("sparsey_nogroup (run_nogroup)", &want, got);
}

/// The advised layout of the bench (`groups::setup_advised`, the views of `groups`) is what
/// `Schedule::advise` prints for the views a user writes first (`views`), on the frame's
/// entities: its groups, the types its views name with `With`, its two sorts.
#[test]
fn the_advised_frame_is_what_the_advice_prints() {
    let advice = crate::ours::frame::views::advice(4096);
    let report = advice.to_string();
    assert_eq!(
        advice.group_attributes(),
        [
            "#[group(Pos, Sprite)]",
            "#[group(Pos, Sprite, Vel)]",
            "#[group(Pos, Sprite, Vel, Data)]",
            "#[group(Health, Player)]",
            "#[group(Health, Player, Damage)]",
        ],
        "{report}"
    );
    let added: Vec<(&str, &[String])> = advice
        .views()
        .iter()
        .map(|v| (v.system(), v.added_with()))
        .filter(|(_, added)| !added.is_empty())
        .collect();
    assert_eq!(
        added,
        [
            ("movement_system", &["Sprite".to_string()][..]),
            ("more_complex_system", &["Sprite".to_string()][..]),
            ("damage_system", &["Player".to_string()][..]),
        ],
        "{report}"
    );
    assert_eq!(
        advice.sorts(),
        [
            "sort_group_by_entity::<(Pos, Sprite)>()",
            "sort_group_by_entity::<(Health, Player)>()",
            "sort_group_as::<(Health, Player), Sprite>()",
            "sort_group_as::<(Pos, Sprite), Health>()",
        ],
        "{report}"
    );
}

/// The second frame ([`Mix::Halves`](crate::components::frame::Mix::Halves)): every port
/// of it ends where bevy's ends (the `Vec` reference is written for the realistic mix
/// only); the advised layout and the hand-sorted one walk every system as slices.
#[test]
fn the_halves_frame_ports_match_bevy() {
    use crate::components::frame::{Kind, Mix, kind_in};
    use crate::ours::frame::{groups, halves, views};
    let (n, frames) = (4096, 300);
    let kinds = |k: Kind| (0..n).filter(|&i| kind_in(Mix::Halves, i) == k).count();
    assert_eq!(
        [Kind::Hero, Kind::Monster, Kind::Shard].map(kinds),
        [n * 15 / 32, n / 32, n / 2],
        "half with seven components, a few missing one, the rest with three"
    );
    use bevy_impl::frame as b;
    let want = frame_after(b::setup_in(n, Mix::Halves), frames, b::run, b::rows, |s| {
        &s.fb.cells
    });
    assert!(
        want.1.iter().any(|&c| c > u32::from(b' ')),
        "bevy: glyphs drawn"
    );
    let mut s = halves::setup_in(n, Mix::Halves);
    assert_eq!(halves::dense_systems(&mut s), [true; 7], "advised: dense");
    let got = frame_after(s, frames, halves::run, halves::rows, |s| &s.fb.cells);
    check_frame("sparse_advised (halves)", &want, got);
    let mut s = halves::setup_sorted(n);
    assert_eq!(halves::dense_systems(&mut s), [true; 7], "sorted: dense");
    let got = frame_after(s, frames, halves::run, halves::rows, |s| &s.fb.cells);
    check_frame("sparse_sorted (halves)", &want, got);
    let got = frame_after(
        views::setup_in(n, Mix::Halves),
        frames,
        views::run,
        views::rows,
        |s| &s.fb.cells,
    );
    check_frame("sparse_views (halves)", &want, got);
    let got = frame_after(
        groups::setup_in(n, Mix::Halves),
        frames,
        groups::run,
        groups::rows,
        |s| &s.fb.cells,
    );
    check_frame(
        "sparse_groups, the realistic frame's layout (halves)",
        &want,
        got,
    );
    use hecs_impl::frame as h;
    let got = frame_after(h::setup_in(n, Mix::Halves), frames, h::run, h::rows, |s| {
        &s.fb.cells
    });
    check_frame("hecs (halves)", &want, got);
}

/// The second frame's advised port (`halves`) is what `Schedule::advise` prints for the
/// views a user writes first, on that frame's entities: one chain, the `With` types its
/// views name, the chain in entity order.
#[test]
fn the_advised_halves_frame_is_what_the_advice_prints() {
    use crate::components::frame::Mix;
    let advice = crate::ours::frame::views::advice_in(4096, Mix::Halves);
    let report = advice.to_string();
    assert_eq!(
        advice.group_attributes(),
        [
            "#[group(Pos, Vel, Sprite)]",
            "#[group(Pos, Vel, Sprite, Health, Damage, Player)]",
            "#[group(Pos, Vel, Sprite, Health, Damage, Player, Data)]",
        ],
        "{report}"
    );
    let added: Vec<(&str, Vec<&str>)> = advice
        .views()
        .iter()
        .map(|v| {
            (
                v.system(),
                v.added_with().iter().map(String::as_str).collect(),
            )
        })
        .filter(|(_, added): &(&str, Vec<&str>)| !added.is_empty())
        .collect();
    assert_eq!(
        added,
        [
            ("movement_system", vec!["Sprite"]),
            (
                "more_complex_system",
                vec!["Health", "Damage", "Sprite", "Player"]
            ),
            ("damage_system", vec!["Pos", "Vel", "Sprite", "Player"]),
            ("sprite_system", vec!["Pos", "Vel", "Damage"]),
            ("render_system", vec!["Vel"]),
        ],
        "{report}"
    );
    assert_eq!(
        advice.sorts(),
        ["sort_group_by_entity::<(Pos, Vel, Sprite)>()"],
        "{report}"
    );
    assert!(
        advice.views().iter().all(|v| v.advised().is_dense()),
        "{report}"
    );
}

/// The frame-by-frame comparison runs each side's seven systems once per round, on the
/// state it was given, and reports ordered quartiles.
#[test]
fn frame_ratios_run_every_system_of_both_sides_once_per_round() {
    use std::cell::Cell;
    use std::rc::Rc;
    type Counts = Rc<[Cell<u32>; 7]>;
    let count: [fn(&mut Counts); 7] = [
        |s| s[0].set(s[0].get() + 1),
        |s| s[1].set(s[1].get() + 1),
        |s| s[2].set(s[2].get() + 1),
        |s| s[3].set(s[3].get() + 1),
        |s| s[4].set(s[4].get() + 1),
        |s| s[5].set(s[5].get() + 1),
        |s| s[6].set(s[6].get() + 1),
    ];
    let (a, b): (Counts, Counts) = (Rc::default(), Rc::default());
    let measured = crate::frame_ratios::alternate(5, 1, (a.clone(), count), (b.clone(), count));
    for counts in [a, b] {
        assert!(counts.iter().all(|c| c.get() == 5), "{counts:?}");
    }
    let [low, median, high] = measured.ratio;
    assert!(low <= median && median <= high, "{measured:?}");
    let measured = crate::frame_ratios::realistic(2, 256, crate::frame_ratios::Render::BranchFree);
    assert!(
        measured.ratio.iter().all(|r| r.is_finite() && *r > 0.0),
        "{measured:?}"
    );
    let measured = crate::frame_ratios::second(2, 256);
    assert!(
        measured.ratio.iter().all(|r| r.is_finite() && *r > 0.0),
        "{measured:?}"
    );
}
