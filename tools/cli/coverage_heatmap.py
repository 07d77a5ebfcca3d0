#!/usr/bin/python3
"""Draws the heat map of `ptovec coverage --json` output, sized to read on a screen: one panel per
op (its pairs pooled), in four columns; in each panel a row per outcome class the op has (fpatr's
per-PreQuantMode blocks pooled into the classes they name) and a column per rounding mode the op
takes (ops without a mode: RNE only). A cell is the share of the class's reachable (pair, Sat)
cells under that mode that hold at least one vector, written as a percentage where it is below
100 (white: no pair of the op reaches the class under that mode). Called by
`ptovec coverage --plot FILE.png`:

    tools/cli/coverage_heatmap.py COVERAGE.json OUT.png
"""
import json
import re
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402

MODES = ["RNE", "RTM", "RTP", "RTZ", "RNA", "RTO", "RHB"]
# fpatr's classes come in one block per PreQuantMode ("PreQuantMode 25: exact tie rounded up",
# "PreQuantMode 25, ReluMode 2 (LReLU)"); the picture pools the blocks into the class they name.
PQM_PREFIX = re.compile(r"^PreQuantMode \d+(: |, )")
ROW_INCHES = 0.125  # one class row of 6-point labels at 100 dpi
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


def split(names, rows, k):
    """The ops in order in at most k columns, none taller than needed: the least height h for
    which a greedy fill (a new column when the next op would pass h) needs k columns or fewer."""
    def fill(h):
        out = [[]]
        for n in names:
            if out[-1] and sum(rows[m] for m in out[-1]) + rows[n] > h:
                out.append([])
            out[-1].append(n)
        return out
    h = max(rows.values())
    while len(fill(h)) > k:
        h += 1
    return fill(h)


def main():
    if len(sys.argv) != 3:
        print("usage: coverage_heatmap.py COVERAGE.json OUT.png", file=sys.stderr)
        return 2
    with open(sys.argv[1]) as f:
        cov = json.load(f)
    ops = tables(cov)
    rows = {n: len(t[0]) + 2 for n, t in ops.items()}  # + title and mode labels
    columns = split(list(ops), rows, COLUMNS)
    height = max(sum(rows[n] for n in c) for c in columns) * ROW_INCHES + 1.2
    fig = plt.figure(figsize=(4 * COLUMNS, height), layout="constrained")
    cmap = plt.get_cmap("RdYlGn").copy()
    cmap.set_bad("white")
    for sub, names in zip(fig.subfigures(1, len(columns)), columns):
        axes = sub.subplots(len(names), 1, height_ratios=[rows[n] for n in names], squeeze=False)
        for ax, name in zip(axes[:, 0], names):
            classes, modes, share = ops[name]
            image = ax.imshow(share, aspect="auto", cmap=cmap, vmin=0, vmax=1,
                              interpolation="nearest")
            ax.set_title(name, fontsize=8, loc="left", pad=2)
            ax.set_yticks(range(len(classes)), classes, fontsize=6)
            ax.set_xticks(range(len(modes)), modes, fontsize=6)
            ax.tick_params(length=0, top=True, labeltop=True, bottom=False, labelbottom=False)
            for (i, j), v in np.ndenumerate(share):
                if not np.isnan(v) and v < 1:
                    ax.text(j, i, f"{100 * v:.0f}", ha="center", va="center", fontsize=6)
    sub.colorbar(image, ax=list(axes[:, 0]), shrink=0.6, location="bottom",
                 label="share of (pair, Sat) cells hit")
    fig.suptitle(f"ptovec coverage: {cov['hit_cells']:,} of {cov['reachable_cells']:,} "
                 "reachable (op, types, mode, Sat, class) cells hit", fontsize=11)
    fig.savefig(sys.argv[2], dpi=100)
    return 0


if __name__ == "__main__":
    sys.exit(main())
