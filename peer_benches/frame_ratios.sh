#!/usr/bin/env bash
# Times the advised layout's frames against bevy_ecs's, alternately frame by frame, inside
# the peer benchmark binary (sparse_peer_benches::frame_ratios): the first argument is the
# number of rounds, the rest the numbers of entities. Run with nothing else on the machine.
#
#   bash peer_benches/frame_ratios.sh 400 16384 65536 262144 1048576
set -euo pipefail

if [ "$#" -lt 2 ]; then
    echo "usage: bash peer_benches/frame_ratios.sh <rounds> <entities>..." >&2
    exit 2
fi

binary="$(bash "$(dirname "${BASH_SOURCE[0]}")/binary.sh")"

# The allocator pinned as peer_benches/run.sh pins it (see there why).
export GLIBC_TUNABLES="glibc.malloc.mmap_threshold=131072:glibc.malloc.trim_threshold=268435456"
PEERS_FRAME_RATIOS="$*" exec "$binary"
