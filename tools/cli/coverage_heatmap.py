#!/usr/bin/python3
"""Draws the heat map of `ptovec coverage --json` output, sized to read on a screen: one panel per
op (its pairs pooled), in four columns; in each panel a row per outcome class the op has (fpatr's
per-PreQuantMode blocks pooled into the classes they name) and a column per rounding mode the op
takes (ops without a mode: RNE only). A cell is the share of the class's reachable (pair, Sat)
cells under that mode that hold at least one vector, written as a percentage where it is below
100 (white: no pair of the op reaches the class under that mode). Called by
`ptovec coverage --plot FILE.png`:

    tools/cli/coverage_heatmap.py COVERAGE.json OUT.png    (OUT.png "-": standard output)
"""
import json
import re
import sys

import numpy as np

import ptovec_heatmap

MODES = ["RNE", "RTM", "RTP", "RTZ", "RNA", "RTO", "RHB"]
# fpatr's classes come in one block per PreQuantMode ("PreQuantMode 25: exact tie rounded up",
# "PreQuantMode 25, ReluMode 2 (LReLU)"); the picture pools the blocks into the class they name.
PQM_PREFIX = re.compile(r"^PreQuantMode \d+(: |, )")
COLUMNS = 4  # of panels, each 4 inches wide: the picture is 1600 pixels wide


def column(name):
    return PQM_PREFIX.sub("", name)


def tables(cov):
    """Per op, in first-seen order: (classes, modes, share array [class, mode])."""
    ops = {}
    for p in cov["pairs"]:
        op = ops.setdefault(p["op"], {"classes": [], "modes": [], "reach": {}, "hit": {}})
        for ctl in p["controls"]:
            if ctl["rmode"] not in op["modes"]:
                op["modes"].append(ctl["rmode"])
            for name, n, ok in zip(p["classes"], ctl["counts"], ctl["reachable"]):
                if not ok:
                    continue
                c = column(name)
                if c not in op["classes"]:
                    op["classes"].append(c)
                key = (c, ctl["rmode"])
                op["reach"][key] = op["reach"].get(key, 0) + 1
                op["hit"][key] = op["hit"].get(key, 0) + (1 if n > 0 else 0)
    out = {}
    for name, op in ops.items():
        modes = [m for m in MODES if m in op["modes"]]
        share = np.full((len(op["classes"]), len(modes)), np.nan)
        for i, c in enumerate(op["classes"]):
            for j, m in enumerate(modes):
                if (c, m) in op["reach"]:
                    share[i, j] = op["hit"][(c, m)] / op["reach"][(c, m)]
        out[name] = (op["classes"], modes, share)
    return out


def main():
    if len(sys.argv) != 3:
        print("usage: coverage_heatmap.py COVERAGE.json OUT.png", file=sys.stderr)
        return 2
    with open(sys.argv[1]) as f:
        cov = json.load(f)
    panels = []
    for name, (classes, modes, share) in tables(cov).items():
        notes = {(i, j): f"{100 * v:.0f}" for (i, j), v in np.ndenumerate(share)
                 if not np.isnan(v) and v < 1}
        panels.append({"title": name, "rows": classes, "columns": modes, "values": share,
                       "notes": notes})
    fig = ptovec_heatmap.figure(
        panels, f"ptovec coverage: {cov['hit_cells']:,} of {cov['reachable_cells']:,} "
        "reachable (op, types, mode, Sat, class) cells hit", "share of (pair, Sat) cells hit",
        "RdYlGn", COLUMNS)
    ptovec_heatmap.save_png(fig, sys.argv[2])
    return 0


if __name__ == "__main__":
    sys.exit(main())
