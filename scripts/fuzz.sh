#!/usr/bin/env bash
# The fuzz targets (cargo fuzz: libFuzzer, nightly, AddressSanitizer), each run for a
# bounded time from its committed seeds (`fuzz/seeds/<target>/`, written by
# `cargo run --manifest-path fuzz/Cargo.toml --bin write_seeds`). A crash, a failed
# assertion against the model, a leak or an input running past 30 seconds (a hang) fails
# the run; the input is left in
# `fuzz/artifacts/<target>/`. Prints each target's executions per second. The two targets run
# at once, each on one thread.
#
#   bash scripts/fuzz.sh            # 60 seconds per target unless FUZZ_SECONDS is set
#
# Needs `cargo install cargo-fuzz`.
set -euo pipefail
cd "$(dirname "$0")/../fuzz"

seconds="${FUZZ_SECONDS:-60}"
cargo +nightly fuzz build -O
# Room for long operation sequences (up to the target's 64 operations) and large snapshots.
declare -A max_len=([world_ops]=1024 [snapshot_load]=8192)
targets=(world_ops snapshot_load)
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
# Each target runs on one thread: both at once.
declare -A pids=()
for target in "${targets[@]}"; do
    mkdir "$work/$target"
    cargo +nightly fuzz run -O "$target" "$work/$target" "seeds/$target" -- \
        -max_total_time="$seconds" -max_len="${max_len[$target]}" -rss_limit_mb=4096 \
        -timeout=30 -print_final_stats=1 >"$work/$target.log" 2>&1 &
    pids[$target]=$!
done
status=0
for target in "${targets[@]}"; do
    target_status=0
    wait "${pids[$target]}" || target_status=$?
    log="$work/$target.log"
    echo "== fuzz $target (${seconds} s)"
    grep -E '^(stat::number_of_executed_units|stat::average_exec_per_sec|stat::new_units_added)' "$log" || true
    grep -E 'cov: .* corp: ' "$log" | tail -n 1 || true
    if [ "$target_status" -ne 0 ]; then
        tail -n 60 "$log"
        echo "fuzz target $target failed"
        status=$target_status
    fi
done
exit "$status"
