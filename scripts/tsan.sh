#!/usr/bin/env bash
# ThreadSanitizer (nightly, with the standard library rebuilt instrumented): the tests
# that run parallel loops — sparse_core's unit tests and its rayon tests, the soundness
# attacks (the parallel change filters among them), the matrix of views (its
# `par_for_each` cells) and the differential test (groups and views walked by
# `par_for_each`), and the schedules (the systems of a stage run at once) — with property
# tests at reduced case counts. One build serves both packages (the facade's features turn
# the runtime's on). Any reported race fails the run.
#
# A race needs two threads on one storage, which every case of those tests makes: a few
# cases find what many would (the README's command runs the full counts uninstrumented),
# and each case of the differential test costs about twelve times its native time here.
# Line tables are enough for a report to name the racing lines.
#
#   bash scripts/tsan.sh            # PROPTEST_CASES=6 unless set
set -euo pipefail
cd "$(dirname "$0")/.."

target="$(rustc +nightly -vV | sed -n 's/^host: //p')"
export RUSTFLAGS="-Zsanitizer=thread"
export RUSTDOCFLAGS="-Zsanitizer=thread"
export TSAN_OPTIONS="${TSAN_OPTIONS:-halt_on_error=1}"
export PROPTEST_CASES="${PROPTEST_CASES:-6}"
export CARGO_PROFILE_DEV_DEBUG="${CARGO_PROFILE_DEV_DEBUG:-line-tables-only}"

# The test binaries named `parallel`: the runtime's (its rayon loops) and the facade's
# (the soundness attacks, the matrix, the differential test and the schedules).
cargo +nightly test -Zbuild-std --target "$target" --target-dir target/tsan \
    -p sparse_core -p sparse_groups --features sparse_groups/rayon,sparse_groups/serde \
    --lib --test parallel
