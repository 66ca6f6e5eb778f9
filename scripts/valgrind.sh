#!/usr/bin/env bash
# The unit and property tests under valgrind's memcheck (invalid reads and writes, use
# after free, double frees, leaks), property tests at reduced case counts. Slow: a
# release build keeps it to minutes (the sanitizer run, `scripts/asan.sh`, is the one CI
# runs).
#
#   bash scripts/valgrind.sh        # PROPTEST_CASES=4 unless set
set -euo pipefail
cd "$(dirname "$0")/.."

export PROPTEST_CASES="${PROPTEST_CASES:-4}"
# The test binaries, as cargo lists them (no UI suite: it runs the compiler).
mapfile -t binaries < <(
    cargo test --release --all-features --workspace --exclude sparse_peer_benches --exclude sparse_benches \
        --lib --tests --no-run --message-format=json 2>/dev/null |
        python3 -c '
import json, sys
for line in sys.stdin:
    m = json.loads(line)
    if m.get("reason") == "compiler-artifact" and m.get("executable") and m["target"]["name"] not in ("ui", "docs"):
        print(m["executable"])
'
)
# The proc-macro crate's tests link the standard library dynamically.
export LD_LIBRARY_PATH="$(rustc --print target-libdir)${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
status=0
for binary in "${binaries[@]}"; do
    echo "== valgrind $(basename "$binary")"
    valgrind --quiet --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite \
        --show-possibly-lost=no \
        "$binary" --test-threads=1 -q || status=$?
done
exit "$status"
