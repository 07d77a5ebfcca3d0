#!/usr/bin/python3
"""Draws the heat map of `ptovec coverage --json` output: one panel per rounding mode (ops without
a mode under RNE), rows the ops (their pairs pooled), columns the outcome classes (fpatr's
per-PreQuantMode blocks pooled into the classes they name); each cell the share
of the class's reachable (pair, Sat) cells that hold at least one vector (white: no pair reaches
the class under that mode). Called by `ptovec coverage --plot FILE.png`:

    tools/coverage_heatmap.py COVERAGE.json OUT.png
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


def column(name):
    return PQM_PREFIX.sub("", name)


def main():
    if len(sys.argv) != 3:
        print("usage: coverage_heatmap.py COVERAGE.json OUT.png", file=sys.stderr)
        return 2
    with open(sys.argv[1]) as f:
        cov = json.load(f)
    # Rows: ops (pairs of an op pooled); columns: class names in first-seen order.
    ops, classes = [], []
    for p in cov["pairs"]:
        if p["op"] not in ops:
            ops.append(p["op"])
        for c in map(column, p["classes"]):
            if c not in classes:
                classes.append(c)
    reach = np.zeros((len(MODES), len(ops), len(classes)))
    hit = np.zeros_like(reach)
    for p in cov["pairs"]:
        r = ops.index(p["op"])
        for ctl in p["controls"]:
            m = MODES.index(ctl["rmode"])
            for name, n, ok in zip(p["classes"], ctl["counts"], ctl["reachable"]):
                if ok:
                    k = classes.index(column(name))
                    reach[m, r, k] += 1
                    hit[m, r, k] += 1 if n > 0 else 0
    share = np.where(reach > 0, hit / np.maximum(reach, 1), np.nan)
    fig, axes = plt.subplots(len(MODES), 1, figsize=(max(10, 0.28 * len(classes) + 3),
                                                     len(MODES) * (0.35 * len(ops) + 0.6) + 3),
                             sharex=True)
    cmap = plt.get_cmap("RdYlGn").copy()
    cmap.set_bad("white")
    for m, ax in enumerate(axes):
        image = ax.imshow(share[m], aspect="auto", cmap=cmap, vmin=0, vmax=1,
                          interpolation="nearest")
        ax.set_yticks(range(len(ops)), ops, fontsize=7)
        ax.set_ylabel(MODES[m], rotation=0, labelpad=25, fontsize=9)
    axes[-1].set_xticks(range(len(classes)), classes, rotation=90, fontsize=6)
    fig.colorbar(image, ax=axes, shrink=0.4, label="share of reachable (pair, Sat) cells hit")
    fig.suptitle(f"ptovec coverage: {cov['hit_cells']:,} of {cov['reachable_cells']:,} "
                 "reachable (op, types, mode, Sat, class) cells hit")
    fig.savefig(sys.argv[2], dpi=110, bbox_inches="tight")
    return 0


if __name__ == "__main__":
    sys.exit(main())
