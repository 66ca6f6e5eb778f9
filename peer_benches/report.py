#!/usr/bin/env python3
"""Prints criterion medians as ns per element, and ratios, for the README table.

Usage:
  python3 peer_benches/report.py [GROUP ...]        one block per group (default: all)
  python3 peer_benches/report.py --markdown         the README's table of the peer groups
Reads target/criterion/<group>/<function>/new/{estimates,benchmark}.json of the last run.
"""
import json
import pathlib
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent / "target" / "criterion"
PEERS = ["raw", "sparsey", "hecs", "shipyard", "bevy"]
GROUPS = [
    ("w1_pos_vel", "W1 `pos += vel`, 1M, grouped"),
    ("w1_pos_vel_10m", "W1 at 10M"),
    ("w2_nested", "W2 `<A,B,C>` in `<A,B>`, per matched entity"),
    ("w3_add_remove", "W3 add/remove `C` through `<A,B>` ⊂ `<A,B,C>`, per op"),
    ("w4_spawn", "W4 spawn 10k (simple_insert), per entity"),
    (
        "w5_movement_frozen",
        "W5 movement, half frozen (per matched entity)",
        [
            "sparse_partial",
            "sparse_owning_exclude",
            "sparse_owning_exclude_for_each",
            "sparse_plain_group",
            "sparse_view_exclude_group",
            "sparse_view_nested",
            "sparse_view_no_group",
            "sparse_view_set",
        ],
    ),
    (
        "w6_exclude_add_remove",
        "W6 add/remove an excluded tag, 3-deep family (per op)",
        ["sparse", "sparse_w3"],
    ),
    ("simple_iter", "simple_iter"),
    ("fragmented_iter", "fragmented_iter"),
    ("add_remove_component", "add_remove_component, per op"),
]
# Groups without a function named "sparse": the `sparse` function whose ratios to the
# others `blocks` prints. (`markdown` prints one row per function listed in GROUPS.)
BASE = {"w5_movement_frozen": "sparse_partial"}


def group_entries():
    """(group, row label, sparse function) for each row of the markdown table."""
    for group, title, *fns in GROUPS:
        fns = fns[0] if fns else ["sparse"]
        for fn in fns:
            yield group, title if len(fns) == 1 else f"{title}, `{fn}`", fn


def load(group_dir):
    rows = {}
    if not group_dir.is_dir():
        return rows
    for bench in sorted(group_dir.iterdir()):
        new = bench / "new"
        if not (new / "estimates.json").exists():
            continue
        median = json.loads((new / "estimates.json").read_text())["median"]["point_estimate"]
        meta = json.loads((new / "benchmark.json").read_text())
        throughput = meta.get("throughput") or {}
        elements = throughput.get("Elements") or throughput.get("elements") or 1
        rows[bench.name] = median / elements
    return rows


def markdown():
    head = "| workload | sparse (ns) | " + " | ".join(PEERS) + " |"
    print(head)
    print("|" + " --- |" * (2 + len(PEERS)))
    for group, title, fn in group_entries():
        rows = load(ROOT / group)
        ours = rows.get(fn)
        if ours is None:
            continue
        cells = []
        for peer in PEERS:
            ns = rows.get(peer)
            cells.append("—" if ns is None else f"{ns:.3g} ns ({ours / ns:.2f}×)")
        print(f"| {title} | {ours:.3g} | " + " | ".join(cells) + " |")


def blocks(groups):
    for group in groups:
        rows = load(ROOT / group)
        if not rows:
            continue
        base = BASE.get(group, "sparse")
        ours = rows.get(base)
        print(f"\n{group}  (ns per element; ratio = {base} / other)")
        width = max(24, *(len(name) for name in rows))
        for name, ns in sorted(rows.items(), key=lambda kv: kv[1]):
            ratio = f"{ours / ns:6.2f}" if ours is not None else "   -"
            print(f"  {name:{width}} {ns:10.3f}   {ratio}")


def main():
    if sys.argv[1:] == ["--markdown"]:
        markdown()
        return
    groups = sys.argv[1:] or sorted(p.name for p in ROOT.iterdir() if p.is_dir() and p.name != "report")
    blocks(groups)


if __name__ == "__main__":
    main()
