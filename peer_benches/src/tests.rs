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
