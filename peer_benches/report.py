#!/usr/bin/env python3
"""Prints criterion medians as ns per element, and ratios, for the README table.

Usage:
  python3 peer_benches/report.py [GROUP ...]        one block per group (default: all);
                                                    serde_3deep[_interleaved]: save, load vs hecs;
                                                    par_w1 / par_w2: serial, parallel, speed-up
  python3 peer_benches/report.py --markdown         the README's table of the peer groups
  python3 peer_benches/report.py --floor            W1 / W2 against the bandwidth floor
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
# serde groups: `{library}_save` / `{library}_load`; ratios against hecs.
SERDE = {
    "groups": ["serde_3deep", "serde_3deep_interleaved"],
    "libraries": ["sparse", "sparse_dynamic", "hecs"],
    "peer": "hecs",
}
# Parallel groups: (library, serial function, parallel function) per row; ratios of
# `sparse_par` to the other parallel loops.
PAR = {
    "par_w1": [
        ("sparse (group)", "sparse_for_each", "sparse_par"),
        ("sparse (view)", "sparse_for_each", "sparse_par_view"),
        ("sparsey", "sparsey", "sparsey_par"),
        ("bevy", "bevy", "bevy_par"),
        ("raw", "raw_zip", "raw_par"),
    ],
    "par_w2": [
        ("sparse (group)", "sparse_for_each", "sparse_par"),
        ("sparse (view)", "sparse_for_each", "sparse_par_view"),
        ("sparsey", "sparsey", "sparsey_par"),
        ("bevy", "bevy", "bevy_par"),
        ("raw", "raw", "raw_par"),
    ],
}


def group_entries():
    """(group, row label, sparse function) for each row of the markdown table."""
    for group, title, *fns in GROUPS:
        fns = fns[0] if fns else ["sparse"]
        for fn in fns:
            yield group, title if len(fns) == 1 else f"{title}, `{fn}`", fn


def medians(group_dir):
    """{function: (median ns, throughput dict)} of the group's last run."""
    rows = {}
    if not group_dir.is_dir():
        return rows
    for bench in sorted(group_dir.iterdir()):
        new = bench / "new"
        if not (new / "estimates.json").exists():
            continue
        median = json.loads((new / "estimates.json").read_text())["median"]["point_estimate"]
        meta = json.loads((new / "benchmark.json").read_text())
        rows[bench.name] = (median, meta.get("throughput") or {})
    return rows


def load(group_dir):
    """{function: ns per element}."""
    return {
        name: median / (throughput.get("Elements") or throughput.get("elements") or 1)
        for name, (median, throughput) in medians(group_dir).items()
    }


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


def fmt(ns):
    return "         -" if ns is None else f"{ns:10.3f}"


def serde_block(group, rows):
    """Save and load per entity for each library, and each one's ratio to hecs."""
    libs, peer = SERDE["libraries"], SERDE["peer"]
    print(f"\n{group}  (ns per entity; ratio = library / {peer}, < 1 is faster)")
    print("  op    " + "".join(f"{lib:>16}" for lib in libs)
          + "".join(f"{lib + '/' + peer:>24}" for lib in libs if lib != peer))
    for op in ["save", "load"]:
        ns = {lib: rows.get(f"{lib}_{op}") for lib in libs}
        cells = "".join(f"{fmt(ns[lib]):>16}" for lib in libs)
        ratios = ""
        for lib in libs:
            if lib == peer:
                continue
            r = "-" if ns[lib] is None or ns[peer] is None else f"{ns[lib] / ns[peer]:.2f}"
            ratios += f"{r:>24}"
        print(f"  {op:6}" + cells + ratios)
    # Anything else in the group (not printed above).
    known = {f"{lib}_{op}" for lib in libs for op in ["save", "load"]}
    for name in sorted(set(rows) - known):
        print(f"  {name:24} {rows[name]:10.3f}")


def par_block(group, rows):
    """Serial and parallel per element for each library, the speed-up, and `sparse_par`
    against each parallel loop."""
    ours = rows.get("sparse_par")
    print(f"\n{group}  (ns per element; speed-up = serial / parallel; "
          "ratio = sparse_par / parallel)")
    print(f"  {'library':16} {'serial':>28} {'parallel':>28} {'speed-up':>9} {'ratio':>7}")
    for label, serial, parallel in PAR[group]:
        s_ns, p_ns = rows.get(serial), rows.get(parallel)
        speed = "-" if s_ns is None or p_ns is None else f"{s_ns / p_ns:.2f}"
        ratio = "-" if ours is None or p_ns is None else f"{ours / p_ns:.2f}"
        print(f"  {label:16} {serial:>17}{fmt(s_ns)}"
              f" {parallel:>17}{fmt(p_ns)} {speed:>9} {ratio:>7}")


def blocks(groups):
    for group in groups:
        rows = load(ROOT / group)
        if not rows:
            continue
        if group in SERDE["groups"]:
            serde_block(group, rows)
            continue
        if group in PAR:
            par_block(group, rows)
            continue
        base = BASE.get(group, "sparse")
        ours = rows.get(base)
        print(f"\n{group}  (ns per element; ratio = {base} / other)")
        width = max(24, *(len(name) for name in rows))
        for name, ns in sorted(rows.items(), key=lambda kv: kv[1]):
            ratio = f"{ours / ns:6.2f}" if ours is not None else "   -"
            print(f"  {name:{width}} {ns:10.3f}   {ratio}")


# The bandwidth floor: for each workload, the STREAM kernel with its access pattern and
# the bytes it touches per (matched) entity, counted as STREAM counts them (each component
# read, each written one once): W1 reads a 12-byte position and velocity and writes the
# position; W2 reads 16-byte `B` and `C` and writes `A`.
FLOOR = [
    ("w1_pos_vel", "add_in_place", 36),
    ("w1_pos_vel_10m", "add_in_place", 36),
    ("w2_nested", "triad", 48),
    ("w2_nested_10m", "triad", 48),
]


def bandwidth():
    """GB/s (= bytes per ns) of each kernel of the `bandwidth` group."""
    rates = {}
    for name, (median, throughput) in medians(ROOT / "bandwidth").items():
        size = throughput.get("Bytes") or throughput.get("bytes")
        if size:
            rates[name] = size / median
    return rates


def floor():
    """Each function of W1 / W2 as a fraction of the floor its bytes and the machine's
    bandwidth imply: floor ns = bytes per entity / (bytes per ns); fraction = floor /
    measured (1.00 = at the floor; above 1 = faster than memory allows, i.e. cached)."""
    rates = bandwidth()
    for kernel, rate in sorted(rates.items()):
        print(f"bandwidth {kernel}: {rate:.2f} GB/s")
    for group, kernel, size in FLOOR:
        rows = load(ROOT / group)
        if not rows or kernel not in rates:
            continue
        floor_ns = size / rates[kernel]
        print(f"\n{group}  ({size} B per entity; floor {floor_ns:.3f} ns at {kernel}'s "
              f"{rates[kernel]:.2f} GB/s; fraction = floor / measured)")
        for name, ns in sorted(rows.items(), key=lambda kv: kv[1]):
            print(f"  {name:24} {ns:10.3f}   {floor_ns / ns:6.2f}")


def main():
    if sys.argv[1:] == ["--markdown"]:
        markdown()
        return
    if sys.argv[1:] == ["--floor"]:
        floor()
        return
    groups = sys.argv[1:] or sorted(p.name for p in ROOT.iterdir() if p.is_dir() and p.name != "report")
    blocks(groups)


if __name__ == "__main__":
    main()
