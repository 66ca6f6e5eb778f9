#!/usr/bin/env bash
# Runs the peer comparison bench (benches/peers.rs) with glibc malloc pinned,
# passing every argument through to criterion:
#
#   bash peer_benches/run.sh                 # everything (long)
#   bash peer_benches/run.sh w1              # groups/functions matching "w1"
#   bash peer_benches/run.sh w4_spawn --warm-up-time 0.2 --measurement-time 0.5 --sample-size 10
#
# Why GLIBC_TUNABLES: by default glibc adapts its mmap threshold at run time —
# freeing an mmap'd chunk raises the threshold to that chunk's size (up to
# 32 MiB) and the trim threshold to twice that. Whether a 1 MiB column is then
# served by a fresh mmap (page faults on every first touch) or recycled from
# the heap depends on what the process allocated and freed earlier, i.e. on
# which benchmarks ran before and in what order. Spawn figures swung 4x
# between processes because of it. Setting either threshold explicitly turns
# the adaptation off; we set both, for every library alike (it is one process
# environment):
#
#   mmap_threshold=131072 (128 KiB, glibc's own starting value): every
#     allocation of 128 KiB or more — every column/table of the 10,000-entity
#     and larger workloads — is always its own mmap, returned to the kernel
#     when freed. Each library pays the same, reproducible "fresh memory" cost
#     for its big buffers, whatever ran before.
#
#   trim_threshold=268435456 (256 MiB): the brk heap, which now only holds
#     chunks under 128 KiB, is never shrunk by free(). Otherwise a free() in a
#     timed loop (add/remove, drop of small vectors) could trigger an sbrk
#     trim and the next allocation a re-grow plus page faults, at points that
#     depend on allocation order. With a high trim threshold the small-chunk
#     heap reaches a steady state during criterion's warm-up and stays there.
#     256 MiB bounds what can be retained; no workload here keeps anywhere
#     near that much in small chunks.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"

# MMAP_THRESHOLD overrides the first value, to see what fresh memory costs: with
# MMAP_THRESHOLD=4194304 no column of the 10,000-entity workloads is a fresh mmap, for any
# library (README's W4 figures quote both).
export GLIBC_TUNABLES="glibc.malloc.mmap_threshold=${MMAP_THRESHOLD:-131072}:glibc.malloc.trim_threshold=268435456"

exec cargo bench -p sparse_peer_benches --bench peers -- "$@"
