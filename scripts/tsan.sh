#!/usr/bin/env bash
# ThreadSanitizer (nightly, with the standard library rebuilt instrumented): the tests
# that run parallel loops — sparse_core's rayon tests, the soundness attacks (the parallel
# change filters among them), the matrix of views (its `par_for_each` cells) and the
# differential test (groups and views walked by `par_for_each`), and the schedules (the
# systems of a stage run at once) — with property tests at reduced case counts. Any
# reported race fails the run.
#
#   bash scripts/tsan.sh            # PROPTEST_CASES=16 unless set
set -euo pipefail
cd "$(dirname "$0")/.."

target="$(rustc +nightly -vV | sed -n 's/^host: //p')"
export RUSTFLAGS="-Zsanitizer=thread"
export RUSTDOCFLAGS="-Zsanitizer=thread"
export TSAN_OPTIONS="${TSAN_OPTIONS:-halt_on_error=1}"
export PROPTEST_CASES="${PROPTEST_CASES:-16}"
tsan=(cargo +nightly test -Zbuild-std --target "$target" --target-dir target/tsan)

"${tsan[@]}" -p sparse_core --features rayon --lib --test parallel
"${tsan[@]}" -p sparse_groups --features rayon,serde \
    --test soundness --test matrix_filters_walks --test differential \
    --test schedule --test schedule_ticks --test schedule_model
