#!/usr/bin/env bash
# The test suite under AddressSanitizer: unit, property and integration tests of every
# crate users build (not the compile-fail UI suite or the public-surface check, which run
# the compiler, nor doctests), with property tests at reduced case counts.
#
# Needs the nightly toolchain (sanitizers are unstable); the build and the other tests use
# the pinned stable one. `--target` keeps the sanitizer off the proc-macro and build
# scripts, which run inside the compiler. A separate target directory keeps the
# instrumented artifacts apart. LeakSanitizer runs too: a leaked value fails the run.
#
#   bash scripts/asan.sh            # PROPTEST_CASES=16 unless set
set -euo pipefail
cd "$(dirname "$0")/.."

target="$(rustc +nightly -vV | sed -n 's/^host: //p')"
export RUSTFLAGS="-Zsanitizer=address -Cdebug-assertions=yes"
export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=1:detect_stack_use_after_return=1}"
export PROPTEST_CASES="${PROPTEST_CASES:-16}"

cargo +nightly test --target "$target" --target-dir target/asan --all-features \
    --workspace --exclude sparse_peer_benches --exclude sparse_benches --lib --tests -- \
    --skip ui --skip the_facade_documents_exactly_the_committed_items
