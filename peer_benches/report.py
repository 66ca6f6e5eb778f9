#!/usr/bin/env python3
"""Prints criterion medians as ns per element, and ratios, for the README table.

Usage:
  python3 peer_benches/report.py [GROUP ...]        one block per group (default: all);
                                                    serde_3deep[_interleaved]: save, load vs hecs;
                                                    par_w1 / par_w2: serial, parallel, speed-up;
                                                    below some blocks, ratios of chosen pairs
                                                    (views with no group against the peers,
                                                    loop styles against `for_each`, the
                                                    run-time `World` against the `#[world]`,
                                                    parallel against serial; see EXTRA)
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
            "sparse_partial_sorted",
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
    # Views with no group: the sparsey column is sparsey without its group.
    ("w1_pos_vel", "W1 view, no group", ["sparse_view_nogroup"], {"sparsey": "sparsey_nogroup"}),
    ("w2_nested", "W2 view, no group", ["sparse_view_nogroup"], {"sparsey": "sparsey_nogroup"}),
    (
        "w5_movement_frozen",
        "W5 view `Without<Frozen>`, no group",
        ["sparse_view_nogroup"],
        {"sparsey": "sparsey_nogroup"},
    ),
    ("view_overlap", "view_overlap: 1M `A`, 1M `B`, 500k shared, no group, per matched entity"),
    ("heavy_compute", "heavy_compute: 1k entities, 100 4x4 inversions each, parallel"),
    ("schedule", "schedule: three systems at once, per entity update"),
    ("serialize_binary", "serialize_binary: save + load 1k entities"),
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
    """(group, row label, sparse function, {peer column: function}) for each row of the
    markdown table. A GROUPS entry may name its sparse functions (third element) and map
    a peer column to another function than the peer's name (fourth)."""
    for group, title, *rest in GROUPS:
        fns = rest[0] if rest else ["sparse"]
        peer_fns = rest[1] if len(rest) > 1 else {}
        for fn in fns:
            yield group, title if len(fns) == 1 else f"{title}, `{fn}`", fn, peer_fns


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
    for group, title, fn, peer_fns in group_entries():
        rows = load(ROOT / group)
        ours = rows.get(fn)
        if ours is None:
            continue
        cells = []
        for peer in PEERS:
            ns = rows.get(peer_fns.get(peer, peer))
            cells.append("—" if ns is None else f"{ns:.3g} ns ({ours / ns:.2f}×)")
        print(f"| {title} | {ours:.3g} | " + " | ".join(cells) + " |")


# Ratios printed below a group's block: (title, [(numerator, denominator), ...]), each
# ratio = numerator's ns / denominator's ns (below 1: the numerator is faster). Pairs with
# a function missing from the run are skipped.
NOGROUP_VIEWS = ["sparse_view_nogroup", "sparse_view_nogroup_for", "sparse_world_view_nogroup"]
NOGROUP_PEERS = ["bevy", "hecs", "sparsey_nogroup", "shipyard"]


def nogroup_section():
    return (
        "views with no group against the peers' queries (sparsey: no group either)",
        [(view, peer) for view in NOGROUP_VIEWS for peer in NOGROUP_PEERS],
    )


def loops_section(base, styles):
    return (f"loop styles against `{base}` (same world)", [(fn, base) for fn in styles])


GROUP_LOOPS = ["sparse_for_loop", "sparse_zip", "sparse", "sparse_iter", "sparse_iter_slices"]
EXTRA = {
    "w1_pos_vel": [
        nogroup_section(),
        loops_section("sparse_for_each", GROUP_LOOPS),
        ("read-only: the group's iterator against its slices", [("sparse_iter", "sparse_iter_slices")]),
        (
            "run-time `World` against the `#[world]`",
            [("sparse_world", "sparse_for_each"), ("sparse_world_view_nogroup", "sparse_view_nogroup")],
        ),
    ],
    "w2_nested": [
        nogroup_section(),
        loops_section("sparse_for_each", GROUP_LOOPS),
        ("read-only: the group's iterator against its slices", [("sparse_iter", "sparse_iter_slices")]),
        (
            "run-time `World` against the `#[world]`",
            [("sparse_world", "sparse_for_each"), ("sparse_world_view_nogroup", "sparse_view_nogroup")],
        ),
    ],
    "w3_add_remove": [("run-time `World` against the `#[world]`", [("sparse_world", "sparse")])],
    "w4_spawn": [
        (
            "run-time `World` against the `#[world]`",
            [("sparse_world", "sparse"), ("sparse_world_each", "sparse_each")],
        ),
    ],
    "w5_movement_frozen": [
        nogroup_section(),
        loops_section(
            "sparse_owning_exclude_for_each",
            [
                "sparse_owning_exclude_for",
                "sparse_owning_exclude_zip",
                "sparse_owning_exclude",
                "sparse_owning_exclude_iter",
            ],
        ),
        loops_section("sparse_view_nested", ["sparse_view_nested_for", "sparse_view_nested_iter"]),
        loops_section("sparse_view_nogroup", ["sparse_view_nogroup_for"]),
        (
            "run-time `World` against the `#[world]`",
            [
                ("sparse_world_partial", "sparse_partial"),
                ("sparse_world_owning_exclude_for_each", "sparse_owning_exclude_for_each"),
                ("sparse_world_view_nested", "sparse_view_nested"),
                ("sparse_world_view_nogroup", "sparse_view_nogroup"),
            ],
        ),
    ],
    "view_overlap": [
        loops_section("sparse", ["sparse_for", "sparse_iter"]),
        ("run-time `World` against the `#[world]`", [("sparse_world", "sparse")]),
    ],
    "heavy_compute": [
        (
            "parallel against sparse's serial loop (`sparse_serial`)",
            [(fn, "sparse_serial") for fn in
             ["sparse", "sparse_slices", "sparse_world", "raw", "sparsey", "hecs", "shipyard", "bevy"]],
        ),
        ("run-time `World` against the `#[world]`", [("sparse_world", "sparse")]),
    ],
    "schedule": [
        (
            "at once against one after the other, per library",
            [
                ("sparse", "sparse_serial"),
                ("sparsey", "sparsey_serial"),
                ("hecs", "hecs_serial"),
                ("bevy", "bevy_single"),
                ("shipyard", "shipyard_serial"),
            ],
        ),
        ("run-time `World` against the `#[world]`", [("sparse_world", "sparse")]),
    ],
    "serialize_binary": [("run-time `World` against the `#[world]`", [("sparse_world", "sparse")])],
}
# Groups where `sparse` is also compared with the fastest of these peers.
BEST_PEER = {"view_overlap": ["hecs", "bevy", "sparsey", "shipyard"]}


def extra_block(group, rows):
    """The EXTRA ratios and the BEST_PEER line of one group."""
    if group in BEST_PEER:
        peers = [(rows[p], p) for p in BEST_PEER[group] if p in rows]
        if peers and "sparse" in rows:
            ns, best = min(peers)
            print(f"  best peer: {best} {ns:.3f} ns; sparse / {best} = {rows['sparse'] / ns:.2f}")
    for title, pairs in EXTRA.get(group, []):
        present = [(a, b) for a, b in pairs if a in rows and b in rows]
        if not present:
            continue
        print(f"  {title}  (ratio = first / second)")
        for a, b in present:
            print(f"    {a + ' / ' + b:60} {rows[a] / rows[b]:6.2f}")


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
        extra_block(group, rows)


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
