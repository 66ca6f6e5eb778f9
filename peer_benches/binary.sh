#!/usr/bin/env bash
# Builds the peer benchmark binary (benches/peers.rs, the bench profile) and prints its
# path; on a build error, shows it and fails. Used by instructions.sh and frame_ratios.sh:
#
#   binary="$(bash peer_benches/binary.sh)"
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."

binary="$(cargo bench -p sparse_peer_benches --bench peers --no-run --message-format=json 2>/dev/null |
    sed -n 's/.*"executable":"\([^"]*\)".*/\1/p' | tail -n 1 || true)"
if [ -z "$binary" ]; then
    cargo bench -p sparse_peer_benches --bench peers --no-run >&2 # shows the build error
    exit 1
fi
echo "$binary"
