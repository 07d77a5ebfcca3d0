"""The one drawing code of ptovec's heat maps (matplotlib): `ptovec coverage --plot` (outcome
coverage, coverage_heatmap.py) and the gate's HTML report (failures by pair x mode x Sat,
report_html.py) both draw their panels here.

A panel is a dict: "title" (str), "rows" and "columns" (lists of labels), "values" (a 2-D numpy
array, rows x columns, of shares in [0, 1]; NaN draws white: nothing there), "notes" (a dict
(row, column) -> short text written in the cell) and optionally "vertical" (True: column labels
written upwards, for many columns). Panels are laid out in order in at most
`columns` columns of panels, each 4 inches wide at 100 dpi, none taller than needed.
"""
import io

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402

ROW_INCHES = 0.125  # one row of 6-point labels at 100 dpi
PANEL_INCHES = 4


def split(names, rows, k):
    """The panels in order in at most k columns, none taller than needed: the least height h for
    which a greedy fill (a new column when the next panel would pass h) needs k columns or
    fewer."""
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


def figure(panels, title, label, cmap_name, columns=4):
    """The matplotlib figure of `panels` (see the module's docstring) under `title`, with a
    colour bar named `label` over shares 0..1 in colour map `cmap_name`."""
    # + title and column labels (5 rows when written upwards)
    rows = {i: len(p["rows"]) + (6 if p.get("vertical") else 2) for i, p in enumerate(panels)}
    layout = split(list(rows), rows, columns)
    height = max(sum(rows[n] for n in c) for c in layout) * ROW_INCHES + 1.2
    fig = plt.figure(figsize=(PANEL_INCHES * columns, height), layout="constrained")
    cmap = plt.get_cmap(cmap_name).copy()
    cmap.set_bad("white")
    for sub, names in zip(fig.subfigures(1, len(layout), squeeze=False)[0], layout):
        axes = sub.subplots(len(names), 1, height_ratios=[rows[n] for n in names], squeeze=False)
        for ax, n in zip(axes[:, 0], names):
            p = panels[n]
            image = ax.imshow(p["values"], aspect="auto", cmap=cmap, vmin=0, vmax=1,
                              interpolation="nearest")
            ax.set_title(p["title"], fontsize=8, loc="left", pad=2)
            ax.set_yticks(range(len(p["rows"])), p["rows"], fontsize=6)
            ax.set_xticks(range(len(p["columns"])), p["columns"], fontsize=6,
                          rotation=90 if p.get("vertical") else 0)
            ax.tick_params(length=0, top=True, labeltop=True, bottom=False, labelbottom=False)
            for (i, j), text in sorted(p["notes"].items()):
                ax.text(j, i, text, ha="center", va="center", fontsize=6)
    sub.colorbar(image, ax=list(axes[:, 0]), shrink=0.6, location="bottom", label=label)
    fig.suptitle(title, fontsize=11)
    return fig


def save_png(fig, path):
    """Writes the figure as PNG to `path` ("-": standard output)."""
    import sys
    fig.savefig(sys.stdout.buffer if path == "-" else path, dpi=100, format="png")
    plt.close(fig)


def svg_text(fig):
    """The figure as one SVG element (text as paths: no font is needed to show it), with no XML
    prologue, to go inline in an HTML page."""
    out = io.StringIO()
    with matplotlib.rc_context({"svg.fonttype": "path", "svg.hashsalt": "ptovec"}):
        fig.savefig(out, format="svg", metadata={"Date": None, "Creator": None})
    plt.close(fig)
    text = out.getvalue()
    return text[text.index("<svg"):]

