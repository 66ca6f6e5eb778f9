//! Peer comparison: the same workloads on raw `Vec`s, sparsey, hecs, shipyard
//! and bevy_ecs and on `sparse` itself. One criterion group per
//! workload, one function per library; each group sets `Throughput::Elements`
//! so criterion prints time per entity (or per add/remove operation).
//!
//! Run through `bash peer_benches/run.sh [criterion args]`, which pins glibc
//! malloc's thresholds (see the script).
//!
//! The library code lives in `src/<library>.rs`; this file only wires each
//! workload's `setup` (untimed) and `run` (timed) to criterion.
//!
//! `simple_iter`, `fragmented_iter`, `add_remove_component`, `heavy_compute`,
//! `schedule` and `serialize_binary` reproduce ecs_bench_suite's workloads of those
//! names from memory (that suite is not vendored here): same entity counts and component
//! shapes, with cgmath's `Matrix4`/`Vector3` replaced by plain `[[f32; 4]; 4]`-sized and
//! 12-byte structs (and its matrix inverse by `components::invert4`), bincode by postcard;
//! `schedule`'s systems add instead of swapping (see `components::sched`). Its
//! `simple_insert` is W4.

use criterion::measurement::WallTime;
use criterion::{BatchSize, BenchmarkGroup, Criterion, SamplingMode, Throughput, criterion_group};
use sparse_peer_benches::components::frag::{PER_TYPE, TYPES};
use sparse_peer_benches::components::{saved, sizes};
use sparse_peer_benches::ours;
use sparse_peer_benches::{bevy_impl, hecs_impl, raw, shipyard_impl, sparsey_impl};
use std::hint::black_box;

/// Builds the state once (untimed), then times `run` on it repeatedly. The
/// state is built lazily — only if criterion's filter selects this benchmark —
/// and dropped before the next library's is built, so at most one large world
/// is alive at a time.
fn bench_run<S>(
    g: &mut BenchmarkGroup<'_, WallTime>,
    name: &str,
    setup: impl FnOnce() -> S,
    run: fn(&mut S),
) {
    let mut setup = Some(setup);
    let mut state = None;
    g.bench_function(name, |b| {
        let s = state.get_or_insert_with(|| (setup.take().expect("built once"))());
        b.iter(|| run(black_box(&mut *s)));
    });
}

/// W4 timing: every sample gets a freshly built, empty world from `setup`
/// (untimed); only `run` — the spawning — is timed, and the populated world
/// is dropped untimed too (`iter_batched_ref`). This differs from
/// ecs_bench_suite's `simple_insert`, which timed `World::new()` and the drop
/// as well: world construction is a fixed cost (large for bevy, which
/// registers its built-in components) that says nothing per entity.
/// `PerIteration` keeps exactly one world alive at a time, so the allocator
/// sees the same create/fill/free cycle for every library; its timer overhead
/// (tens of ns) is negligible against a 10,000-entity spawn.
fn bench_spawn<S>(
    g: &mut BenchmarkGroup<'_, WallTime>,
    name: &str,
    setup: impl Fn() -> S,
    run: fn(&mut S),
) {
    g.bench_function(name, |b| {
        b.iter_batched_ref(&setup, |s| run(black_box(s)), BatchSize::PerIteration)
    });
}

/// `serde_3deep` timing: one lazily built state per library (world, entities, snapshot)
/// for both of its functions, `{prefix}_save` (times `save`) and `{prefix}_load` (times
/// `load` from the state's snapshot). What each iteration returns — the bytes, the loaded
/// world — is dropped untimed (`iter_batched`, one output alive at a time). The first
/// build prints the snapshot's size per entity to stderr.
#[allow(clippy::too_many_arguments)]
fn bench_save_load<S, Saved, Loaded>(
    g: &mut BenchmarkGroup<'_, WallTime>,
    group: &str,
    prefix: &str,
    n: usize,
    setup: impl FnOnce() -> S,
    snapshot_len: fn(&S) -> usize,
    save: fn(&S) -> Saved,
    load: fn(&S) -> Loaded,
) {
    let mut setup = Some(setup);
    let mut state = None;
    // Builds the state on first use (only if the filter selects one of the two functions).
    fn built<'a, S>(
        state: &'a mut Option<S>,
        setup: &mut Option<impl FnOnce() -> S>,
        built: impl FnOnce(&S),
    ) -> &'a S {
        state.get_or_insert_with(|| {
            let s = (setup.take().expect("built once"))();
            built(&s);
            s
        })
    }
    let report = |s: &S| {
        let len = snapshot_len(s);
        eprintln!(
            "{group}/{prefix}: snapshot of {n} entities = {len} bytes = {:.2} bytes per entity",
            len as f64 / n as f64
        );
    };
    g.bench_function(format!("{prefix}_save"), |b| {
        let s = built(&mut state, &mut setup, report);
        b.iter_batched(|| (), |()| save(black_box(s)), BatchSize::PerIteration)
    });
    g.bench_function(format!("{prefix}_load"), |b| {
        let s = built(&mut state, &mut setup, report);
        b.iter_batched(|| (), |()| load(black_box(s)), BatchSize::PerIteration)
    });
}

fn w1_pos_vel(c: &mut Criterion) {
    let n = sizes::W1;
    let mut g = c.benchmark_group("w1_pos_vel");
    g.throughput(Throughput::Elements(n as u64));
    // `raw` updates the columns as flat f32 slices (fully vectorised) and was
    // the fastest in smoke runs; `raw_index` (index loop) and `raw_zip`
    // (zipped `iter_mut`) loop over the 12-byte structs and compile to partly
    // scalar code: ~1.4x and ~2x slower than `raw` in smoke runs.
    bench_run(&mut g, "raw", || raw::w1::setup(n), raw::w1::run);
    bench_run(
        &mut g,
        "raw_index",
        || raw::w1::setup(n),
        raw::w1::run_index,
    );
    bench_run(&mut g, "raw_zip", || raw::w1::setup(n), raw::w1::run_zip);
    bench_run(&mut g, "sparse", || ours::w1::setup(n), ours::w1::run);
    bench_run(
        &mut g,
        "sparse_inserted",
        || ours::w1::setup_inserted(n),
        ours::w1::run,
    );
    bench_run(
        &mut g,
        "sparse_for_each",
        || ours::w1::setup(n),
        ours::w1::run_for_each,
    );
    bench_run(
        &mut g,
        "sparse_for_loop",
        || ours::w1::setup(n),
        ours::w1::run_for_loop,
    );
    bench_run(
        &mut g,
        "sparse_zip",
        || ours::w1::setup(n),
        ours::w1::run_zip,
    );
    bench_run(
        &mut g,
        "sparsey",
        || sparsey_impl::w1::setup(n),
        sparsey_impl::w1::run,
    );
    bench_run(
        &mut g,
        "sparsey_slice",
        || sparsey_impl::w1::setup(n),
        sparsey_impl::w1::run_slice,
    );
    bench_run(
        &mut g,
        "hecs",
        || hecs_impl::w1::setup(n),
        hecs_impl::w1::run,
    );
    bench_run(
        &mut g,
        "shipyard",
        || shipyard_impl::w1::setup(n),
        shipyard_impl::w1::run,
    );
    bench_run(
        &mut g,
        "bevy",
        || bevy_impl::w1::setup(n),
        bevy_impl::w1::run,
    );
    bench_run(
        &mut g,
        "bevy_contiguous",
        || bevy_impl::w1::setup(n),
        bevy_impl::w1::run_contiguous,
    );
    // Read-only loops over the group: its iterator, and its slices zipped (the
    // reference), both summing `p · v` (compare them with each other, not with the
    // writing loops above).
    bench_run(
        &mut g,
        "sparse_iter",
        || ours::w1::setup(n),
        ours::w1::run_iter,
    );
    bench_run(
        &mut g,
        "sparse_iter_slices",
        || ours::w1::setup(n),
        ours::w1::run_iter_slices,
    );
    // No group anywhere: views in a `#[world]` and in the run-time `World`, sparsey
    // without its group.
    bench_run(
        &mut g,
        "sparse_view_nogroup",
        || ours::w1::nogroup::setup(n),
        ours::w1::nogroup::run,
    );
    bench_run(
        &mut g,
        "sparse_view_nogroup_for",
        || ours::w1::nogroup::setup(n),
        ours::w1::nogroup::run_for,
    );
    bench_run(
        &mut g,
        "sparse_view_nogroup_iter",
        || ours::w1::nogroup::setup(n),
        ours::w1::nogroup::run_iter,
    );
    bench_run(
        &mut g,
        "sparse_world_view_nogroup",
        || ours::w1::dynamic::setup_nogroup(n),
        ours::w1::dynamic::run_view,
    );
    bench_run(
        &mut g,
        "sparsey_nogroup",
        || sparsey_impl::w1::setup_nogroup(n),
        sparsey_impl::w1::run,
    );
    // The run-time `World` with the `#[world]`'s group: `sparse_for_each`'s loop.
    bench_run(
        &mut g,
        "sparse_world",
        || ours::w1::dynamic::setup(n),
        ours::w1::dynamic::run,
    );
    g.finish();
}

fn w1_pos_vel_10m(c: &mut Criterion) {
    let n = sizes::W1_10M;
    let mut g = c.benchmark_group("w1_pos_vel_10m");
    g.throughput(Throughput::Elements(n as u64));
    // ~10–100 ms per iteration: fewer, longer samples than the default 100.
    g.sample_size(20);
    bench_run(&mut g, "raw", || raw::w1::setup(n), raw::w1::run);
    bench_run(&mut g, "sparse", || ours::w1::setup(n), ours::w1::run);
    bench_run(
        &mut g,
        "sparse_inserted",
        || ours::w1::setup_inserted(n),
        ours::w1::run,
    );
    bench_run(
        &mut g,
        "sparse_for_each",
        || ours::w1::setup(n),
        ours::w1::run_for_each,
    );
    bench_run(
        &mut g,
        "sparse_for_loop",
        || ours::w1::setup(n),
        ours::w1::run_for_loop,
    );
    bench_run(
        &mut g,
        "sparse_zip",
        || ours::w1::setup(n),
        ours::w1::run_zip,
    );
    bench_run(&mut g, "raw_zip", || raw::w1::setup(n), raw::w1::run_zip);
    bench_run(
        &mut g,
        "sparsey",
        || sparsey_impl::w1::setup(n),
        sparsey_impl::w1::run,
    );
    bench_run(
        &mut g,
        "hecs",
        || hecs_impl::w1::setup(n),
        hecs_impl::w1::run,
    );
    bench_run(
        &mut g,
        "bevy",
        || bevy_impl::w1::setup(n),
        bevy_impl::w1::run,
    );
    bench_run(
        &mut g,
        "shipyard",
        || shipyard_impl::w1::setup(n),
        shipyard_impl::w1::run,
    );
    g.finish();
}

fn w2_nested(c: &mut Criterion) {
    let n = sizes::W2;
    let mut g = c.benchmark_group("w2_nested");
    // Per matched entity: the n / 2 entities with C (see `components::w2_has_c`).
    g.throughput(Throughput::Elements((n / 2) as u64));
    bench_run(&mut g, "raw", || raw::w2::setup(n), raw::w2::run);
    bench_run(&mut g, "sparse", || ours::w2::setup(n), ours::w2::run);
    bench_run(
        &mut g,
        "sparse_for_each",
        || ours::w2::setup(n),
        ours::w2::run_for_each,
    );
    bench_run(
        &mut g,
        "sparse_for_loop",
        || ours::w2::setup(n),
        ours::w2::run_for_loop,
    );
    bench_run(
        &mut g,
        "sparse_zip",
        || ours::w2::setup(n),
        ours::w2::run_zip,
    );
    bench_run(
        &mut g,
        "sparsey",
        || sparsey_impl::w2::setup(n),
        sparsey_impl::w2::run,
    );
    bench_run(
        &mut g,
        "sparsey_slice",
        || sparsey_impl::w2::setup(n),
        sparsey_impl::w2::run_slice,
    );
    bench_run(
        &mut g,
        "hecs",
        || hecs_impl::w2::setup(n),
        hecs_impl::w2::run,
    );
    bench_run(
        &mut g,
        "shipyard",
        || shipyard_impl::w2::setup(n),
        shipyard_impl::w2::run,
    );
    bench_run(
        &mut g,
        "bevy",
        || bevy_impl::w2::setup(n),
        bevy_impl::w2::run,
    );
    bench_run(
        &mut g,
        "bevy_contiguous",
        || bevy_impl::w2::setup(n),
        bevy_impl::w2::run_contiguous,
    );
    // Read-only loops over `<A, B, C>` summing `abc_read`: the group's iterator and its
    // slices zipped (the reference).
    bench_run(
        &mut g,
        "sparse_iter",
        || ours::w2::setup(n),
        ours::w2::run_iter,
    );
    bench_run(
        &mut g,
        "sparse_iter_slices",
        || ours::w2::setup(n),
        ours::w2::run_iter_slices,
    );
    // No group anywhere (same population): views driven by `C`'s storage.
    bench_run(
        &mut g,
        "sparse_view_nogroup",
        || ours::w2::nogroup::setup(n),
        ours::w2::nogroup::run,
    );
    bench_run(
        &mut g,
        "sparse_world_view_nogroup",
        || ours::w2::dynamic::setup_nogroup(n),
        ours::w2::dynamic::run_view,
    );
    bench_run(
        &mut g,
        "sparsey_nogroup",
        || sparsey_impl::w2::setup_nogroup(n),
        sparsey_impl::w2::run,
    );
    // The run-time `World` with the `#[world]`'s groups: `sparse_for_each`'s loop.
    bench_run(
        &mut g,
        "sparse_world",
        || ours::w2::dynamic::setup(n),
        ours::w2::dynamic::run,
    );
    g.finish();
}

/// W2 with 10M entities (5M matched): the natural loops, raw, sparsey and bevy.
fn w2_nested_10m(c: &mut Criterion) {
    let n = sizes::W2_10M;
    let mut g = c.benchmark_group("w2_nested_10m");
    g.throughput(Throughput::Elements((n / 2) as u64));
    g.sample_size(20);
    bench_run(&mut g, "raw", || raw::w2::setup(n), raw::w2::run);
    bench_run(&mut g, "sparse", || ours::w2::setup(n), ours::w2::run);
    bench_run(
        &mut g,
        "sparse_for_each",
        || ours::w2::setup(n),
        ours::w2::run_for_each,
    );
    bench_run(
        &mut g,
        "sparse_for_loop",
        || ours::w2::setup(n),
        ours::w2::run_for_loop,
    );
    bench_run(
        &mut g,
        "sparse_zip",
        || ours::w2::setup(n),
        ours::w2::run_zip,
    );
    bench_run(
        &mut g,
        "sparsey",
        || sparsey_impl::w2::setup(n),
        sparsey_impl::w2::run,
    );
    bench_run(
        &mut g,
        "bevy",
        || bevy_impl::w2::setup(n),
        bevy_impl::w2::run,
    );
    g.finish();
}

/// STREAM-style bandwidth of this machine, in the access patterns of W1 and W2, on
/// `f64` arrays far larger than any cache: `add_in_place` is `a[i] += b[i]` (W1's
/// `pos += vel`: two reads and one write an element, 24 bytes counted), `triad` is
/// `a[i] = b[i] + s * c[i]` (W2's `a = b + c`: two reads and one write, 24 bytes).
/// Throughput is in bytes, as STREAM counts them (a write counts once; the cache's read
/// for ownership is not counted), so criterion prints GB/s.
fn bandwidth(c: &mut Criterion) {
    let n = sizes::STREAM;
    let mut g = c.benchmark_group("bandwidth");
    g.throughput(Throughput::Bytes((3 * 8 * n) as u64));
    g.sample_size(20);
    bench_run(
        &mut g,
        "add_in_place",
        || (vec![1.0f64; n], vec![2.0f64; n]),
        |(a, b)| raw::stream_add_in_place(a, b),
    );
    bench_run(
        &mut g,
        "triad",
        || (vec![0.0f64; n], vec![1.0f64; n], vec![2.0f64; n]),
        |(a, b, c)| raw::stream_triad(a, b, c),
    );
    g.finish();
}

fn w3_add_remove(c: &mut Criterion) {
    let n = sizes::W3;
    let mut g = c.benchmark_group("w3_add_remove");
    // n adds + n removes per iteration.
    g.throughput(Throughput::Elements(2 * n as u64));
    bench_run(&mut g, "sparse", || ours::w3::setup(n), ours::w3::run);
    // The run-time `World` with the same groups.
    bench_run(
        &mut g,
        "sparse_world",
        || ours::w3::dynamic::setup(n),
        ours::w3::dynamic::run,
    );
    bench_run(
        &mut g,
        "sparsey",
        || sparsey_impl::w3::setup(n),
        sparsey_impl::w3::run,
    );
    bench_run(
        &mut g,
        "hecs",
        || hecs_impl::w3::setup(n),
        hecs_impl::w3::run,
    );
    bench_run(
        &mut g,
        "shipyard",
        || shipyard_impl::w3::setup(n),
        shipyard_impl::w3::run,
    );
    bench_run(
        &mut g,
        "bevy",
        || bevy_impl::w3::setup(n),
        bevy_impl::w3::run,
    );
    g.finish();
}

fn w4_spawn(c: &mut Criterion) {
    let n = sizes::W4;
    let mut g = c.benchmark_group("w4_spawn");
    g.throughput(Throughput::Elements(n as u64));
    bench_spawn(&mut g, "raw", || raw::w4::setup(n), raw::w4::run);
    bench_spawn(&mut g, "sparse", || ours::w4::setup(n), ours::w4::run);
    // The run-time `World` (no group, like the `#[world]`): `spawn_batch`.
    bench_spawn(
        &mut g,
        "sparse_world",
        || ours::w4::dynamic::setup(n),
        ours::w4::dynamic::run,
    );
    bench_spawn(
        &mut g,
        "sparsey",
        || sparsey_impl::w4::setup(n),
        sparsey_impl::w4::run,
    );
    bench_spawn(
        &mut g,
        "hecs",
        || hecs_impl::w4::setup(n),
        hecs_impl::w4::run,
    );
    bench_spawn(
        &mut g,
        "shipyard",
        || shipyard_impl::w4::setup(n),
        shipyard_impl::w4::run,
    );
    bench_spawn(
        &mut g,
        "bevy",
        || bevy_impl::w4::setup(n),
        bevy_impl::w4::run,
    );
    // Into a world that already holds n entities (the bulk paths of the target).
    bench_spawn(
        &mut g,
        "sparse_populated",
        || ours::w4::setup_populated(n),
        ours::w4::run,
    );
    bench_spawn(
        &mut g,
        "shipyard_populated",
        || shipyard_impl::w4::setup_populated(n),
        shipyard_impl::w4::run,
    );
    // One call per entity.
    bench_spawn(
        &mut g,
        "sparse_each",
        || ours::w4::setup(n),
        ours::w4::run_each,
    );
    bench_spawn(
        &mut g,
        "sparse_spawn_insert",
        || ours::w4::setup(n),
        ours::w4::run_spawn_insert,
    );
    bench_spawn(
        &mut g,
        "sparse_world_each",
        || ours::w4::dynamic::setup(n),
        ours::w4::dynamic::run_each,
    );
    bench_spawn(
        &mut g,
        "sparsey_each",
        || sparsey_impl::w4::setup(n),
        sparsey_impl::w4::run_each,
    );
    bench_spawn(
        &mut g,
        "hecs_each",
        || hecs_impl::w4::setup(n),
        hecs_impl::w4::run_each,
    );
    bench_spawn(
        &mut g,
        "shipyard_each",
        || shipyard_impl::w4::setup(n),
        shipyard_impl::w4::run_each,
    );
    bench_spawn(
        &mut g,
        "bevy_each",
        || bevy_impl::w4::setup(n),
        bevy_impl::w4::run_each,
    );
    g.finish();
}

fn w5_movement_frozen(c: &mut Criterion) {
    let n = sizes::W5;
    let mut g = c.benchmark_group("w5_movement_frozen");
    // Per matched entity: the n / 2 entities without `Frozen` (see `components::w5_is_frozen`).
    g.throughput(Throughput::Elements((n / 2) as u64));
    bench_run(
        &mut g,
        "sparse_partial",
        || ours::w5::partial::setup(n),
        ours::w5::partial::run,
    );
    // The same group with the observed positions sorted in the group's order.
    bench_run(
        &mut g,
        "sparse_partial_sorted",
        || ours::w5::partial::setup_sorted(n),
        ours::w5::partial::run,
    );
    bench_run(
        &mut g,
        "sparse_owning_exclude",
        || ours::w5::owning_exclude::setup(n),
        ours::w5::owning_exclude::run,
    );
    bench_run(
        &mut g,
        "sparse_owning_exclude_for_each",
        || ours::w5::owning_exclude::setup(n),
        ours::w5::owning_exclude::run_for_each,
    );
    // Reference for `sparse_owning_exclude`: the same loop over a plain group holding
    // only the n / 2 moving entities (no `Frozen` at all).
    bench_run(
        &mut g,
        "sparse_plain_group",
        || ours::w5::plain_group::setup(n),
        ours::w5::plain_group::run,
    );
    // Views without `Frozen`: over the exact exclusion group, over sparsey's nested layout
    // (dense: the outer group minus the inner one), and with no group at all.
    bench_run(
        &mut g,
        "sparse_view_exclude_group",
        || ours::w5::owning_exclude::setup(n),
        ours::w5::owning_exclude::run_view,
    );
    bench_run(
        &mut g,
        "sparse_view_nested",
        || ours::w5::view_nested::setup(n),
        ours::w5::view_nested::run,
    );
    bench_run(
        &mut g,
        "sparse_view_no_group",
        || ours::w5::view_plain::setup(n),
        ours::w5::view_plain::run,
    );
    // The workaround before exclusion groups: clone the frozen set, filter a view.
    bench_run(
        &mut g,
        "sparse_view_set",
        || ours::w5::view_set::setup(n),
        ours::w5::view_set::run,
    );
    // The natural loops over the dense ones: the exclusion group (`for`, slices zipped,
    // read-only iterator summing `p · v`) and the filtered view over sparsey's layout
    // (`for`, read-only iterator).
    bench_run(
        &mut g,
        "sparse_owning_exclude_for",
        || ours::w5::owning_exclude::setup(n),
        ours::w5::owning_exclude::run_for,
    );
    bench_run(
        &mut g,
        "sparse_owning_exclude_zip",
        || ours::w5::owning_exclude::setup(n),
        ours::w5::owning_exclude::run_zip,
    );
    bench_run(
        &mut g,
        "sparse_owning_exclude_iter",
        || ours::w5::owning_exclude::setup(n),
        ours::w5::owning_exclude::run_iter,
    );
    bench_run(
        &mut g,
        "sparse_view_nested_for",
        || ours::w5::view_nested::setup(n),
        ours::w5::view_nested::run_for,
    );
    bench_run(
        &mut g,
        "sparse_view_nested_iter",
        || ours::w5::view_nested::setup(n),
        ours::w5::view_nested::run_iter,
    );
    // No group anywhere. `sparse_view_nogroup` runs the same code as
    // `sparse_view_no_group` above (kept under its old name), named as in W1 and W2.
    bench_run(
        &mut g,
        "sparse_view_nogroup",
        || ours::w5::view_plain::setup(n),
        ours::w5::view_plain::run,
    );
    bench_run(
        &mut g,
        "sparse_view_nogroup_for",
        || ours::w5::view_plain::setup(n),
        ours::w5::view_plain::run_for,
    );
    bench_run(
        &mut g,
        "sparse_world_view_nogroup",
        || ours::w5::dynamic::setup_nogroup(n),
        ours::w5::dynamic::run_view,
    );
    bench_run(
        &mut g,
        "sparsey_nogroup",
        || sparsey_impl::w5::setup_nogroup(n),
        sparsey_impl::w5::run,
    );
    // The run-time `World` with each `#[world]`'s layout.
    bench_run(
        &mut g,
        "sparse_world_partial",
        || ours::w5::dynamic::setup_partial(n),
        ours::w5::dynamic::run_partial,
    );
    bench_run(
        &mut g,
        "sparse_world_owning_exclude_for_each",
        || ours::w5::dynamic::setup_owning_exclude(n),
        ours::w5::dynamic::run_owning_exclude,
    );
    bench_run(
        &mut g,
        "sparse_world_view_nested",
        || ours::w5::dynamic::setup_nested(n),
        ours::w5::dynamic::run_view,
    );
    bench_run(
        &mut g,
        "sparsey",
        || sparsey_impl::w5::setup(n),
        sparsey_impl::w5::run,
    );
    bench_run(
        &mut g,
        "hecs",
        || hecs_impl::w5::setup(n),
        hecs_impl::w5::run,
    );
    bench_run(
        &mut g,
        "shipyard",
        || shipyard_impl::w5::setup(n),
        shipyard_impl::w5::run,
    );
    bench_run(
        &mut g,
        "bevy",
        || bevy_impl::w5::setup(n),
        bevy_impl::w5::run,
    );
    g.finish();
}

fn w6_exclude_add_remove(c: &mut Criterion) {
    let n = sizes::W6;
    let mut g = c.benchmark_group("w6_exclude_add_remove");
    // n adds + n removes of the tag per iteration.
    g.throughput(Throughput::Elements(2 * n as u64));
    bench_run(&mut g, "sparse", || ours::w6::setup(n), ours::w6::run);
    // Today's W3 (add/remove `C` through `<A,B>` ⊂ `<A,B,C>`, also 2 × 10,000 ops) in the
    // same run, for the ratio of the two.
    const _: () = assert!(sizes::W3 == sizes::W6);
    bench_run(&mut g, "sparse_w3", || ours::w3::setup(n), ours::w3::run);
    bench_run(
        &mut g,
        "sparsey",
        || sparsey_impl::w6::setup(n),
        sparsey_impl::w6::run,
    );
    bench_run(
        &mut g,
        "hecs",
        || hecs_impl::w6::setup(n),
        hecs_impl::w6::run,
    );
    bench_run(
        &mut g,
        "shipyard",
        || shipyard_impl::w6::setup(n),
        shipyard_impl::w6::run,
    );
    bench_run(
        &mut g,
        "bevy",
        || bevy_impl::w6::setup(n),
        bevy_impl::w6::run,
    );
    g.finish();
}

fn simple_iter(c: &mut Criterion) {
    let n = sizes::SIMPLE_ITER;
    let mut g = c.benchmark_group("simple_iter");
    g.throughput(Throughput::Elements(n as u64));
    bench_run(
        &mut g,
        "raw",
        || raw::simple_iter::setup(n),
        raw::simple_iter::run,
    );
    bench_run(
        &mut g,
        "sparse",
        || ours::simple_iter::setup(n),
        ours::simple_iter::run,
    );
    bench_run(
        &mut g,
        "sparsey",
        || sparsey_impl::simple_iter::setup(n),
        sparsey_impl::simple_iter::run,
    );
    bench_run(
        &mut g,
        "hecs",
        || hecs_impl::simple_iter::setup(n),
        hecs_impl::simple_iter::run,
    );
    bench_run(
        &mut g,
        "shipyard",
        || shipyard_impl::simple_iter::setup(n),
        shipyard_impl::simple_iter::run,
    );
    bench_run(
        &mut g,
        "bevy",
        || bevy_impl::simple_iter::setup(n),
        bevy_impl::simple_iter::run,
    );
    g.finish();
}

fn fragmented_iter(c: &mut Criterion) {
    let mut g = c.benchmark_group("fragmented_iter");
    g.throughput(Throughput::Elements((TYPES * PER_TYPE) as u64));
    bench_run(
        &mut g,
        "raw",
        raw::fragmented_iter::setup,
        raw::fragmented_iter::run,
    );
    bench_run(
        &mut g,
        "sparse",
        ours::fragmented_iter::setup,
        ours::fragmented_iter::run,
    );
    bench_run(
        &mut g,
        "sparsey",
        sparsey_impl::fragmented_iter::setup,
        sparsey_impl::fragmented_iter::run,
    );
    bench_run(
        &mut g,
        "hecs",
        hecs_impl::fragmented_iter::setup,
        hecs_impl::fragmented_iter::run,
    );
    bench_run(
        &mut g,
        "shipyard",
        shipyard_impl::fragmented_iter::setup,
        shipyard_impl::fragmented_iter::run,
    );
    bench_run(
        &mut g,
        "bevy",
        bevy_impl::fragmented_iter::setup,
        bevy_impl::fragmented_iter::run,
    );
    g.finish();
}

fn add_remove_component(c: &mut Criterion) {
    let n = sizes::ADD_REMOVE;
    let mut g = c.benchmark_group("add_remove_component");
    // n adds + n removes per iteration.
    g.throughput(Throughput::Elements(2 * n as u64));
    bench_run(
        &mut g,
        "sparse",
        || ours::add_remove::setup(n),
        ours::add_remove::run,
    );
    bench_run(
        &mut g,
        "sparsey",
        || sparsey_impl::add_remove::setup(n),
        sparsey_impl::add_remove::run,
    );
    bench_run(
        &mut g,
        "hecs",
        || hecs_impl::add_remove::setup(n),
        hecs_impl::add_remove::run,
    );
    bench_run(
        &mut g,
        "shipyard",
        || shipyard_impl::add_remove::setup(n),
        shipyard_impl::add_remove::run,
    );
    bench_run(
        &mut g,
        "bevy",
        || bevy_impl::add_remove::setup(n),
        bevy_impl::add_remove::run,
    );
    g.finish();
}

/// Save + load of a `saved` population of `n` in `order`: `sparse` (`#[world]` derives),
/// `sparse_dynamic` (run-time `World::snapshot` / `load`), hecs' column serialization.
fn serde_group(c: &mut Criterion, name: &str, n: usize, order: saved::Order) {
    let mut g = c.benchmark_group(name);
    // Per entity: all n are saved / loaded (A on all, B on 3/4, C on 1/2).
    g.throughput(Throughput::Elements(n as u64));
    // Tens of ms (hecs' interleaved load: seconds) per iteration: flat sampling, and
    // fewer samples than the default 100.
    g.sampling_mode(SamplingMode::Flat);
    g.sample_size(if order == saved::Order::Blocks {
        20
    } else {
        10
    });
    {
        use ours::serde_3deep as o;
        bench_save_load(
            &mut g,
            name,
            "sparse",
            n,
            || o::setup(n, order),
            |s| s.bytes.len(),
            o::run_save,
            o::run_load,
        );
        bench_save_load(
            &mut g,
            name,
            "sparse_dynamic",
            n,
            || o::dynamic::setup(n, order),
            |s| s.bytes.len(),
            o::dynamic::run_save,
            o::dynamic::run_load,
        );
    }
    {
        use hecs_impl::serde_3deep as h;
        bench_save_load(
            &mut g,
            name,
            "hecs",
            n,
            || h::setup(n, order),
            |s| s.bytes.len(),
            h::run_save,
            h::run_load,
        );
    }
    g.finish();
}

/// 1M entities; each archetype's (and group's) ids one ascending run, the order in which
/// hecs' load allocates them: linear for hecs.
fn serde_3deep(c: &mut Criterion) {
    serde_group(c, "serde_3deep", sizes::SERDE, saved::Order::Blocks);
}

/// 250k entities with the archetypes' ids interleaved: hecs' load is quadratic here (see
/// `hecs_impl::serde_3deep::setup`), hence the smaller population.
fn serde_3deep_interleaved(c: &mut Criterion) {
    serde_group(
        c,
        "serde_3deep_interleaved",
        sizes::SERDE_INTERLEAVED,
        saved::Order::Interleaved,
    );
}

/// W1 serially and with rayon / bevy's task pool, each library's serial loop next to its
/// parallel one. `raw_zip` is the serial body of `raw_par` (`raw`'s flat-`f32` kernel is in
/// `w1_pos_vel`).
fn par_w1(c: &mut Criterion) {
    let n = sizes::W1;
    let mut g = c.benchmark_group("par_w1");
    g.throughput(Throughput::Elements(n as u64));
    bench_run(&mut g, "raw_zip", || raw::w1::setup(n), raw::w1::run_zip);
    bench_run(&mut g, "raw_par", || raw::w1::setup(n), raw::w1::run_par);
    bench_run(
        &mut g,
        "sparse_for_each",
        || ours::w1::setup(n),
        ours::w1::run_for_each,
    );
    bench_run(
        &mut g,
        "sparse_par",
        || ours::w1::setup(n),
        ours::w1::run_par,
    );
    bench_run(
        &mut g,
        "sparse_par_view",
        || ours::w1::setup(n),
        ours::w1::run_par_view,
    );
    bench_run(
        &mut g,
        "sparsey",
        || sparsey_impl::w1::setup(n),
        sparsey_impl::w1::run,
    );
    bench_run(
        &mut g,
        "sparsey_par",
        || sparsey_impl::w1::setup(n),
        sparsey_impl::w1::run_par,
    );
    bench_run(
        &mut g,
        "bevy",
        || bevy_impl::w1::setup(n),
        bevy_impl::w1::run,
    );
    bench_run(
        &mut g,
        "bevy_par",
        || bevy_impl::w1::setup_par(n),
        bevy_impl::w1::run_par,
    );
    g.finish();
}

/// W2 serially and in parallel, as [`par_w1`].
fn par_w2(c: &mut Criterion) {
    let n = sizes::W2;
    let mut g = c.benchmark_group("par_w2");
    // Per matched entity, as `w2_nested`.
    g.throughput(Throughput::Elements((n / 2) as u64));
    bench_run(&mut g, "raw", || raw::w2::setup(n), raw::w2::run);
    bench_run(&mut g, "raw_par", || raw::w2::setup(n), raw::w2::run_par);
    bench_run(
        &mut g,
        "sparse_for_each",
        || ours::w2::setup(n),
        ours::w2::run_for_each,
    );
    bench_run(
        &mut g,
        "sparse_par",
        || ours::w2::setup(n),
        ours::w2::run_par,
    );
    bench_run(
        &mut g,
        "sparse_par_view",
        || ours::w2::setup(n),
        ours::w2::run_par_view,
    );
    bench_run(
        &mut g,
        "sparsey",
        || sparsey_impl::w2::setup(n),
        sparsey_impl::w2::run,
    );
    bench_run(
        &mut g,
        "sparsey_par",
        || sparsey_impl::w2::setup(n),
        sparsey_impl::w2::run_par,
    );
    bench_run(
        &mut g,
        "bevy",
        || bevy_impl::w2::setup(n),
        bevy_impl::w2::run,
    );
    bench_run(
        &mut g,
        "bevy_par",
        || bevy_impl::w2::setup_par(n),
        bevy_impl::w2::run_par,
    );
    g.finish();
}

/// Views with no group where two 1M storages share half their entities (`A` on `0..1M`,
/// `B` on `500k..1.5M`): `a += b` over the 500k with both. Archetype libraries keep the
/// shared entities in their own table; sparse-set libraries walk one storage and look the
/// other up.
fn view_overlap(c: &mut Criterion) {
    let n = sizes::VIEW_OVERLAP;
    let mut g = c.benchmark_group("view_overlap");
    // Per matched entity: the n / 2 with both components.
    g.throughput(Throughput::Elements((n / 2) as u64));
    bench_run(
        &mut g,
        "raw",
        || raw::view_overlap::setup(n),
        raw::view_overlap::run,
    );
    bench_run(
        &mut g,
        "sparse",
        || ours::view_overlap::setup(n),
        ours::view_overlap::run,
    );
    bench_run(
        &mut g,
        "sparse_for",
        || ours::view_overlap::setup(n),
        ours::view_overlap::run_for,
    );
    bench_run(
        &mut g,
        "sparse_iter",
        || ours::view_overlap::setup(n),
        ours::view_overlap::run_iter,
    );
    // `B` in an order unrelated to `A`'s: no run longer than one, a lookup per entity.
    bench_run(
        &mut g,
        "sparse_scrambled",
        || ours::view_overlap::scrambled::setup(n),
        ours::view_overlap::scrambled::run,
    );
    bench_run(
        &mut g,
        "sparse_scrambled_for",
        || ours::view_overlap::scrambled::setup(n),
        ours::view_overlap::scrambled::run_for,
    );
    // The floor of the `for` loop: the smallest iterator over two bare paged sparse sets.
    bench_run(
        &mut g,
        "floor_for",
        || raw::view_overlap_sparse::setup(n),
        raw::view_overlap_sparse::run_for,
    );
    bench_run(
        &mut g,
        "floor_for_skip",
        || raw::view_overlap_sparse::setup(n),
        raw::view_overlap_sparse::run_for_skip,
    );
    bench_run(
        &mut g,
        "floor_for_runs",
        || raw::view_overlap_sparse::setup(n),
        raw::view_overlap_sparse::run_for_runs,
    );
    bench_run(
        &mut g,
        "sparse_world",
        || ours::view_overlap::dynamic::setup(n),
        ours::view_overlap::dynamic::run,
    );
    bench_run(
        &mut g,
        "hecs",
        || hecs_impl::view_overlap::setup(n),
        hecs_impl::view_overlap::run,
    );
    bench_run(
        &mut g,
        "bevy",
        || bevy_impl::view_overlap::setup(n),
        bevy_impl::view_overlap::run,
    );
    bench_run(
        &mut g,
        "sparsey",
        || sparsey_impl::view_overlap::setup(n),
        sparsey_impl::view_overlap::run,
    );
    bench_run(
        &mut g,
        "shipyard",
        || shipyard_impl::view_overlap::setup(n),
        shipyard_impl::view_overlap::run,
    );
    g.finish();
}

/// ecs_bench_suite `heavy_compute`: 1,000 entities, each inverts its 4x4 matrix 100 times,
/// in parallel (rayon's global pool; bevy its `ComputeTaskPool`).
fn heavy_compute(c: &mut Criterion) {
    let n = sizes::HEAVY_COMPUTE;
    let mut g = c.benchmark_group("heavy_compute");
    g.throughput(Throughput::Elements(n as u64));
    // Milliseconds per iteration: flat sampling, fewer samples than the default 100.
    g.sampling_mode(SamplingMode::Flat);
    g.sample_size(20);
    bench_run(
        &mut g,
        "raw",
        || raw::heavy_compute::setup(n),
        raw::heavy_compute::run,
    );
    bench_run(&mut g, "sparse", || ours::heavy::setup(n), ours::heavy::run);
    bench_run(
        &mut g,
        "sparse_slices",
        || ours::heavy::setup(n),
        ours::heavy::run_slices,
    );
    bench_run(
        &mut g,
        "sparse_serial",
        || ours::heavy::setup(n),
        ours::heavy::run_serial,
    );
    bench_run(
        &mut g,
        "sparse_world",
        || ours::heavy::dynamic::setup(n),
        ours::heavy::dynamic::run,
    );
    bench_run(
        &mut g,
        "sparsey",
        || sparsey_impl::heavy_compute::setup(n),
        sparsey_impl::heavy_compute::run,
    );
    bench_run(
        &mut g,
        "hecs",
        || hecs_impl::heavy_compute::setup(n),
        hecs_impl::heavy_compute::run,
    );
    bench_run(
        &mut g,
        "shipyard",
        || shipyard_impl::heavy_compute::setup(n),
        shipyard_impl::heavy_compute::run,
    );
    bench_run(
        &mut g,
        "bevy",
        || bevy_impl::heavy_compute::setup(n),
        bevy_impl::heavy_compute::run,
    );
    g.finish();
}

/// ecs_bench_suite `schedule`: three systems over `(A, B)`, `(C, D)`, `(C, E)` on 40k
/// entities, run at once (each library's parallel form) and one after the other.
fn schedule(c: &mut Criterion) {
    use sparse_peer_benches::components::sched::PER_KIND;
    let mut g = c.benchmark_group("schedule");
    // Entity updates per run: `ab` on all 4 kinds, `cd` and `ce` on one kind each.
    g.throughput(Throughput::Elements((6 * PER_KIND) as u64));
    use ours::schedule as o;
    bench_run(&mut g, "sparse", o::setup, o::run);
    bench_run(&mut g, "sparse_serial", o::setup, o::run_serial);
    bench_run(&mut g, "sparse_scheduled", o::setup, o::run_scheduled);
    bench_run(&mut g, "sparse_world", o::dynamic::setup, o::dynamic::run);
    use sparsey_impl::schedule as sy;
    bench_run(&mut g, "sparsey", sy::setup, sy::run);
    bench_run(&mut g, "sparsey_serial", sy::setup, sy::run_serial);
    use hecs_impl::schedule as h;
    bench_run(&mut g, "hecs", h::setup, h::run);
    bench_run(&mut g, "hecs_serial", h::setup, h::run_serial);
    use bevy_impl::schedule as b;
    bench_run(&mut g, "bevy", b::setup, b::run);
    bench_run(&mut g, "bevy_single", b::setup_single, b::run);
    use shipyard_impl::schedule as sh;
    bench_run(&mut g, "shipyard", sh::setup, sh::run);
    bench_run(&mut g, "shipyard_serial", sh::setup, sh::run_serial);
    g.finish();
}

/// ecs_bench_suite `serialize_binary`: save 1,000 four-component entities to postcard and
/// load them into a fresh world, one timed run each (drops included). sparsey and bevy
/// (without `bevy_reflect`/`bevy_scene`) have no serialization.
fn serialize_binary(c: &mut Criterion) {
    let n = sizes::SERIALIZE;
    let mut g = c.benchmark_group("serialize_binary");
    g.throughput(Throughput::Elements(n as u64));
    use ours::serialize_binary as o;
    bench_run(&mut g, "sparse", || o::setup(n), o::run);
    bench_run(
        &mut g,
        "sparse_world",
        || o::dynamic::setup(n),
        o::dynamic::run,
    );
    bench_run(
        &mut g,
        "hecs",
        || hecs_impl::serialize_binary::setup(n),
        hecs_impl::serialize_binary::run,
    );
    bench_run(
        &mut g,
        "shipyard",
        || shipyard_impl::serialize_binary::setup(n),
        shipyard_impl::serialize_binary::run,
    );
    g.finish();
}

/// `Changed<Position>` over 1M positions, 1% written since the last tick (sparse: a
/// `#[track]`ed storage, `view::<(&Position, Changed<Position>)>().for_each`; bevy: a
/// cached `QueryState<&Position, Changed<Position>>` after `clear_trackers`); and the same
/// with every position written (`*_all_written`).
fn changed_1pct(c: &mut Criterion) {
    const N: usize = 1_000_000;
    let mut g = c.benchmark_group("changed_1pct");
    g.throughput(Throughput::Elements(N as u64));
    bench_run(
        &mut g,
        "sparse",
        || ours::changed::setup(N, 100),
        |s| {
            black_box(ours::changed::run(s));
        },
    );
    bench_run(
        &mut g,
        "bevy",
        || bevy_impl::changed::setup(N, 100),
        |s| {
            black_box(bevy_impl::changed::run(s));
        },
    );
    // Every position written, one by one: the filter passes everywhere.
    bench_run(
        &mut g,
        "sparse_all_written",
        || ours::changed::setup(N, 1),
        |s| {
            black_box(ours::changed::run(s));
        },
    );
    bench_run(
        &mut g,
        "bevy_all_written",
        || bevy_impl::changed::setup(N, 1),
        |s| {
            black_box(bevy_impl::changed::run(s));
        },
    );
    g.finish();
}

/// The realistic frame (`components::frame`): seven systems over four kinds of entity, one
/// group per size (`frame_16k` … `frame_1m`), ns per entity per frame. `sparse_groups` is
/// the best nested layout, `sparse_entt` the two flat groups an EnTT user declares,
/// `sparse_views` no group; `sparsey` its best nested groups, `sparsey_nogroup` none.
fn frame(c: &mut Criterion) {
    use sparse_peer_benches::components::frame::SIZES;
    for n in SIZES {
        let name = match n {
            16_384 => "frame_16k",
            65_536 => "frame_65k",
            262_144 => "frame_262k",
            _ => "frame_1m",
        };
        let mut g = c.benchmark_group(name);
        g.throughput(Throughput::Elements(n as u64));
        bench_run(&mut g, "raw", || raw::frame::setup(n), raw::frame::run);
        bench_run(
            &mut g,
            "sparse_groups",
            || ours::frame::groups::setup(n),
            ours::frame::groups::run,
        );
        bench_run(
            &mut g,
            "sparse_advised",
            || ours::frame::groups::setup_advised(n),
            ours::frame::groups::run,
        );
        bench_run(
            &mut g,
            "sparse_entt",
            || ours::frame::entt::setup(n),
            ours::frame::entt::run,
        );
        bench_run(
            &mut g,
            "sparse_views",
            || ours::frame::views::setup(n),
            ours::frame::views::run,
        );
        bench_run(
            &mut g,
            "bevy",
            || bevy_impl::frame::setup(n),
            bevy_impl::frame::run,
        );
        bench_run(
            &mut g,
            "hecs",
            || hecs_impl::frame::setup(n),
            hecs_impl::frame::run,
        );
        bench_run(
            &mut g,
            "sparsey",
            || sparsey_impl::frame::setup(n),
            sparsey_impl::frame::run,
        );
        bench_run(
            &mut g,
            "sparsey_nogroup",
            || sparsey_impl::frame::setup_nogroup(n),
            sparsey_impl::frame::run_nogroup,
        );
        bench_run(
            &mut g,
            "shipyard",
            || shipyard_impl::frame::setup(n),
            shipyard_impl::frame::run,
        );
        g.finish();
    }
}

/// The second frame: the realistic frame's seven systems over another mix of entities
/// ([`Mix::Halves`]: half with all seven components, the rest with three, a few missing
/// one), laid out as the advice says for it (`sparse_advised`), that and a screen-order sort
/// by hand (`sparse_sorted`), the realistic frame's hand layout (`sparse_groups`), no group
/// (`sparse_views`), and bevy and hecs.
///
/// [`Mix::Halves`]: sparse_peer_benches::components::frame::Mix::Halves
fn frame_halves(c: &mut Criterion) {
    use sparse_peer_benches::components::frame::{Mix, SIZES};
    use sparse_peer_benches::ours::frame::{groups, halves, views};
    for n in SIZES {
        let mut g = c.benchmark_group(format!("frame_halves_{n}"));
        g.throughput(Throughput::Elements(n as u64));
        bench_run(
            &mut g,
            "sparse_advised",
            || halves::setup_in(n, Mix::Halves),
            halves::run,
        );
        bench_run(
            &mut g,
            "sparse_sorted",
            || halves::setup_sorted(n),
            halves::run,
        );
        bench_run(
            &mut g,
            "sparse_groups",
            || groups::setup_in(n, Mix::Halves),
            groups::run,
        );
        bench_run(
            &mut g,
            "sparse_views",
            || views::setup_in(n, Mix::Halves),
            views::run,
        );
        bench_run(
            &mut g,
            "bevy",
            || bevy_impl::frame::setup_in(n, Mix::Halves),
            bevy_impl::frame::run,
        );
        bench_run(
            &mut g,
            "hecs",
            || hecs_impl::frame::setup_in(n, Mix::Halves),
            hecs_impl::frame::run,
        );
        g.finish();
    }
}

/// The realistic frame's seven systems through a `Schedule` (stages decided by the
/// compiler; each stage run on rayon's pool or on the calling thread as the schedule
/// measures faster, or always on the pool: `sparse_scheduled_on_threads`, or always on the calling thread:
/// `sparse_scheduled_one_thread`) against the
/// same functions called in order, and bevy's
/// `Schedule` of the same systems on its multi-threaded executor against its
/// single-threaded one; 2 cores here.
fn frame_scheduled(c: &mut Criterion) {
    use sparse_peer_benches::bevy_impl::frame::scheduled as b;
    use sparse_peer_benches::components::frame::SIZES;
    use sparse_peer_benches::ours::frame::scheduled as o;
    for n in [SIZES[0], SIZES[SIZES.len() - 1]] {
        let mut g = c.benchmark_group(format!("frame_scheduled_{n}"));
        g.throughput(Throughput::Elements(n as u64));
        bench_run(&mut g, "sparse_in_order", || o::setup(n), o::run_in_order);
        bench_run(&mut g, "sparse_scheduled", || o::setup(n), o::run);
        bench_run(
            &mut g,
            "sparse_scheduled_on_threads",
            || o::setup_with(n, sparse_groups::Threads::Many),
            o::run,
        );
        bench_run(
            &mut g,
            "sparse_scheduled_one_thread",
            || o::setup_with(n, sparse_groups::Threads::One),
            o::run,
        );
        bench_run(
            &mut g,
            "bevy_single_threaded",
            || b::setup_single(n),
            b::run,
        );
        bench_run(&mut g, "bevy_multi_threaded", || b::setup(n), b::run);
        g.finish();
    }
}

/// Marking on write (`Mut<Position>`) against marking on hand-out (`&mut Position`) in a
/// world tracking `Position` (ours only: the cost of the guard, and what it saves the
/// `Changed` view after a pass that writes 1% of what it visits).
fn marking(c: &mut Criterion) {
    const N: usize = 100_000;
    let mut g = c.benchmark_group("marking");
    g.throughput(Throughput::Elements(N as u64));
    bench_run(
        &mut g,
        "w1_mut_ref",
        || ours::marking::setup(N),
        ours::marking::run_w1,
    );
    bench_run(
        &mut g,
        "w1_guard",
        || ours::marking::setup(N),
        ours::marking::run_w1_guard,
    );
    bench_run(
        &mut g,
        "write_1pct_then_changed/mut_ref",
        || ours::marking::setup(N),
        |s| {
            black_box(ours::marking::run_sparse(s));
        },
    );
    bench_run(
        &mut g,
        "write_1pct_then_changed/guard",
        || ours::marking::setup(N),
        |s| {
            black_box(ours::marking::run_sparse_guard(s));
        },
    );
    g.finish();
}

criterion_group!(
    peers,
    frame,
    frame_halves,
    w1_pos_vel,
    w1_pos_vel_10m,
    w2_nested,
    w2_nested_10m,
    bandwidth,
    w3_add_remove,
    w4_spawn,
    w5_movement_frozen,
    w6_exclude_add_remove,
    simple_iter,
    fragmented_iter,
    add_remove_component,
    serde_3deep,
    serde_3deep_interleaved,
    par_w1,
    par_w2,
    view_overlap,
    heavy_compute,
    schedule,
    serialize_binary,
    changed_1pct,
    marking,
    frame_scheduled
);
/// Criterion's `main`, or, with `PEERS_INSTRUCTIONS="<workload> <repetitions>"` set, one
/// workload of `sparse_peer_benches::instructions` run in this binary, for callgrind (see
/// `peer_benches/instructions.sh`): the count is then of the machine code these rows time.
/// With `PEERS_FRAME_RATIOS="<rounds> <entities>…"` set, the advised frames against bevy's,
/// frame by frame (`sparse_peer_benches::frame_ratios`, `peer_benches/frame_ratios.sh`).
fn main() {
    if let Ok(spec) = std::env::var("PEERS_FRAME_RATIOS") {
        let numbers: Result<Vec<usize>, _> = spec.split_whitespace().map(str::parse).collect();
        match numbers.as_deref() {
            Ok([rounds, sizes @ ..]) if *rounds > 0 && !sizes.is_empty() => {
                sparse_peer_benches::frame_ratios::print(*rounds, sizes);
            }
            _ => {
                eprintln!("PEERS_FRAME_RATIOS=\"<rounds> <entities>...\"");
                std::process::exit(2);
            }
        }
        return;
    }
    if let Ok(spec) = std::env::var("PEERS_INSTRUCTIONS") {
        let mut words = spec.split_whitespace();
        let (Some(workload), Some(Ok(reps))) = (words.next(), words.next().map(str::parse)) else {
            eprintln!(
                "PEERS_INSTRUCTIONS=\"<{}> <repetitions>\"",
                sparse_peer_benches::instructions::WORKLOADS
            );
            std::process::exit(2);
        };
        if let Err(e) = sparse_peer_benches::instructions::run(workload, reps) {
            eprintln!("{e}");
            std::process::exit(2);
        }
        return;
    }
    peers();
    Criterion::default().configure_from_args().final_summary();
}
