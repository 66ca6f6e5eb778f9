#!/usr/bin/env python3
"""Prints criterion medians as ns per element, and ratios, for the README table.

Usage: python3 peer_benches/report.py [GROUP ...]   (default: every group found)
Reads target/criterion/<group>/<function>/new/{estimates,benchmark}.json.
"""
import json
import pathlib
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent / "target" / "criterion"


def load(group_dir):
    rows = {}
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


def main():
    groups = sys.argv[1:] or sorted(p.name for p in ROOT.iterdir() if p.is_dir() and p.name != "report")
    for group in groups:
        rows = load(ROOT / group)
        if not rows:
            continue
        ours = rows.get("sparse")
        print(f"\n{group}  (ns per element; ratio = sparse / other)")
        for name, ns in sorted(rows.items(), key=lambda kv: kv[1]):
            ratio = f"{ours / ns:6.2f}" if ours is not None else "   -"
            print(f"  {name:24} {ns:10.3f}   {ratio}")


if __name__ == "__main__":
    main()
