#!/usr/bin/env bash
# The test suite under AddressSanitizer: unit, property and integration tests of every
# crate users build, with property tests at reduced case counts. Not built here: the
# tests that run the compiler or read files rather than run a world (the compile-fail UI
# suite, the generated documentation, the layout map, the module circles), nor doctests.
#
# Needs the nightly toolchain (sanitizers are unstable); the build and the other tests use
# the pinned stable one. `--target` keeps the sanitizer off the proc-macro and build
# scripts, which run inside the compiler. A separate target directory keeps the
# instrumented artifacts apart. LeakSanitizer runs too: a leaked value fails the run.
# Line tables are enough for a report to name its lines, and link the test binaries
# faster than full debug information.
#
#   bash scripts/asan.sh            # PROPTEST_CASES=8 unless set
set -euo pipefail
cd "$(dirname "$0")/.."

target="$(rustc +nightly -vV | sed -n 's/^host: //p')"
export RUSTFLAGS="-Zsanitizer=address -Cdebug-assertions=yes"
export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=1:detect_stack_use_after_return=1}"
export PROPTEST_CASES="${PROPTEST_CASES:-8}"
export CARGO_PROFILE_DEV_DEBUG="${CARGO_PROFILE_DEV_DEBUG:-line-tables-only}"

# Every test binary that runs a world: the facade's integration tests (two binaries,
# `integration` and `parallel`), the compile-pass cases, the renamed dependency's test, the
# lints of generated code, and the runtime's integration tests (its `parallel` among them).
cargo +nightly test --target "$target" --target-dir target/asan --all-features \
    -p sparse_core -p sparse_groups -p sparse_groups_renamed_dependency --lib \
    --test integration --test parallel --test pass --test renamed --test generated_code_lints \
    --test model --test diagram --test world_access
