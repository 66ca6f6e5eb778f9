#!/usr/bin/env bash
# Counts the instructions of workloads of `sparse_peer_benches::instructions`, run inside
# the peer benchmark binary itself (the machine code its criterion rows time), with
# callgrind: each workload at 2 and at 12 repetitions, printing the difference / 10 (the
# count of one repetition; setup cancels out). Instruction counts are stable on a noisy
# machine, unlike time: compare code versions with them.
#
#   bash peer_benches/instructions.sh w1 w5vfor overlap_for
set -euo pipefail

if [ "$#" -eq 0 ]; then
    echo "usage: bash peer_benches/instructions.sh <workload>... (see peer_benches/src/instructions.rs)" >&2
    exit 2
fi

binary="$(bash "$(dirname "${BASH_SOURCE[0]}")/binary.sh")"

count() { # workload repetitions -> instructions of the whole run
    PEERS_INSTRUCTIONS="$1 $2" valgrind --tool=callgrind --callgrind-out-file=/dev/null "$binary" 2>&1 |
        sed -n 's/.*refs: *\([0-9,]*\).*/\1/p' | tr -d ,
}

for workload in "$@"; do
    few="$(count "$workload" 2)"
    many="$(count "$workload" 12)"
    echo "$workload $(((many - few) / 10))"
done
