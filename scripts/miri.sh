#!/usr/bin/env bash
# Miri (nightly): sparse_core's unit tests, and a Miri-sized subset of the integration
# tests — the soundness attacks (the parallel change filters among them), change
# detection, and the matrix of views (every filter on every walk, `par_for_each`
# included) — with property tests at a few cases. Tests that run no `unsafe` code on
# large inputs shrink their inputs under `cfg(miri)`; the nesting rule's tests
# (`group::layout`, which forbids `unsafe` code) are skipped.
#
#   bash scripts/miri.sh            # PROPTEST_CASES=2 (units) / 1 (integration) unless set
#
# Miri interprets a program on one thread, so after one build the two runs go at once, and
# their output is printed when both are done.
#
# The cases come from a fixed seed (PROPTEST_RNG_SEED=1 unless set): Miri runs code about a
# thousand times slower, so one random draw of large spawns and walks can cost it half an
# hour (the matrix test took 1,704 s once, 28–48 s for seeds 1 to 8); a fixed sample keeps
# CI's cost known. Set PROPTEST_RNG_SEED to try other draws; the native runs vary theirs.
#
# Needs `rustup component add --toolchain nightly miri rust-src`.
set -euo pipefail
cd "$(dirname "$0")/.."

export PROPTEST_RNG_SEED="${PROPTEST_RNG_SEED:-1}"
# Builds Miri's standard library once, before the two runs would both start to.
cargo +nightly miri setup

# Both runs name the same packages and features (so the same dependency graph): one build
# serves both, compiled in one invocation on every core rather than one after the other.
miri_test() {
    cargo +nightly miri test --target-dir target/miri -p sparse_core -p sparse_groups \
        --all-features "$@"
}
miri_test --no-run --lib --test parallel --test integration

logs="$(mktemp -d)"
trap 'rm -rf "$logs"' EXIT

# The unit tests under strict provenance.
(
    export MIRIFLAGS="${MIRIFLAGS:--Zmiri-strict-provenance -Zmiri-disable-isolation}"
    export PROPTEST_CASES="${PROPTEST_CASES:-2}"
    miri_test --lib -- --skip group::layout::
) >"$logs/units" 2>&1 &
units=$!

# The integration tests run rayon, whose crossbeam-epoch casts integers to pointers and
# breaks Stacked Borrows (it holds under Tree Borrows), so they run under Tree Borrows
# with permissive provenance; rayon leaves its pool's threads running at exit, so leaks
# are not reported there (LeakSanitizer covers them, scripts/asan.sh).
(
    export MIRIFLAGS="${MIRIFLAGS:--Zmiri-tree-borrows -Zmiri-ignore-leaks -Zmiri-disable-isolation}"
    export PROPTEST_CASES="${PROPTEST_CASES:-1}"
    # The runtime's `parallel` binary is named too (the same graph): the filters, the
    # facade's module names, select none of its tests.
    miri_test --test parallel --test integration -- soundness:: changes:: matrix_filters_walks::
) >"$logs/integration" 2>&1 &
integration=$!

status=0
for run in units integration; do
    run_status=0
    wait "${!run}" || run_status=$?
    echo "== Miri: the $run tests"
    cat "$logs/$run"
    if [ "$run_status" -ne 0 ]; then
        echo "== Miri: the $run tests failed"
        status=1
    fi
done
exit "$status"
