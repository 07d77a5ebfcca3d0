#!/usr/bin/python3
"""Renders the gate's JSON report (`ptovec run|check --report-json`, schemas/report-format.md) as
one self-contained HTML page: no network, no external script, style or font; the heat map is an
inline SVG whose text is drawn as paths. Called by `--report-html FILE` and `ptovec report`:

    tools/cli/report_html.py REPORT.json OUT.html    (OUT.html "-": standard output)

The page holds the environment, the totals, the causes with their symptom groups folded under
them, a heat map of failures by pair x mode x Sat (ptovec_heatmap.py, the coverage heat map's
drawing code), each cause's simplest case seen and first case with their `ptovec eval` lines (and
its shrunk case when `ptovec shrink --from --triage` wrote the report), the shrunk cases, the
per-pair totals, the unsupported vectors per pair and the known-difference rules, with filters by
op, pair and cause. Every number is the JSON's: tests/cli/test_report_html.py reads them back in
Chromium.
"""
import html
import json
import sys

import numpy as np

import ptovec_heatmap

MODES = ["RNE", "RTM", "RTP", "RTZ", "RNA", "RTO", "RHB"]
TOTALS = ["vectors", "matched", "mismatched", "waived", "unsupported", "word", "flags", "both",
          "flags_reversed"]

STYLE = """
body { font: 14px/1.4 sans-serif; margin: 1.5em; color: #222; }
h1 { font-size: 1.5em; } h2 { font-size: 1.2em; margin-top: 1.6em; }
.pass { color: #1a7f37; } .fail { color: #b42318; }
table { border-collapse: collapse; margin: .4em 0; }
td, th { border: 1px solid #ccc; padding: 2px 8px; text-align: left; vertical-align: top; }
td.n { text-align: right; font-variant-numeric: tabular-nums; }
code { font: 12px monospace; background: #f4f4f4; padding: 1px 3px; word-break: break-all; }
details { margin: .3em 0; } summary { cursor: pointer; }
.filters label { margin-right: 1.2em; } .hidden { display: none; }
.heatmap svg { max-width: 100%; height: auto; }
"""

# Filters: a row or cause shows when each chosen value is among its data-op, data-pair and
# data-cause values (space-separated); an empty choice shows all.
SCRIPT = """
function applyFilters() {
  const chosen = {};
  for (const key of ['op', 'pair', 'cause']) {
    chosen[key] = document.getElementById('filter-' + key).value;
  }
  for (const el of document.querySelectorAll('[data-filtered]')) {
    let show = true;
    for (const key of ['op', 'pair', 'cause']) {
      const have = el.dataset[key];
      if (chosen[key] && have !== undefined && !have.split(' ').includes(chosen[key])) {
        show = false;
      }
    }
    el.classList.toggle('hidden', !show);
  }
}
for (const key of ['op', 'pair', 'cause']) {
  document.getElementById('filter-' + key).addEventListener('change', applyFilters);
}
applyFilters();
"""


def esc(value):
    return html.escape(str(value), quote=True)


def pair_name(x):
    return f"{x['op']} {x['src']} -> {x['dst']}"


def pair_key(x):
    return f"{x['op']}:{x['src']}:{x['dst']}"


def failed(row):
    return row["word"] + row["flags"] + row["both"]


def environment_rows(report):
    env = report["environment"]
    rows = []
    for key, label in [("ptovec_version", "ptovec version"), ("spec_edition", "spec edition"),
                       ("vectors", "vectors"), ("manifest_sha256", "vector manifest SHA-256"),
                       ("device", "device"), ("compare", "compare policy"),
                       ("known_differences", "known differences")]:
        value = env.get(key)
        if isinstance(value, list):
            value = ", ".join(value) if value else "none"
        rows.append(f'<tr><th>{esc(label)}</th><td data-env="{key}">'
                    f'{esc("-" if value is None else value)}</td></tr>')
    return "<table id='environment'>" + "".join(rows) + "</table>"


def totals_table(report):
    t = report["totals"]
    head = "".join(f"<th>{esc(k)}</th>" for k in TOTALS)
    cells = "".join(f'<td class="n" data-total="{k}">{t[k]}</td>' for k in TOTALS)
    return f"<table id='totals'><tr>{head}</tr><tr>{cells}</tr></table>"


def cause_ops_pairs(cause, groups):
    ops, pairs = [], []
    for g in cause["symptom_groups"]:
        group = groups[g["group"] - 1]
        if group["op"] not in ops:
            ops.append(group["op"])
        if pair_key(group) not in pairs:
            pairs.append(pair_key(group))
    return ops, pairs


def group_row(group, count):
    controls = ", ".join(f"{c['rmode']} {'on' if c['sat'] else 'off'}"
                         for c in group["controls"]) or "-"
    return (f'<tr data-filtered data-op="{esc(group["op"])}" data-pair="{pair_key(group)}">'
            f'<td class="n">#{group["group"]}</td><td>{esc(pair_name(group))}</td>'
            f'<td>{esc(group["signature"])}</td><td class="n" data-vectors>{count}</td>'
            f'<td>{esc(controls)}</td><td><code>{esc(group["eval"])}</code></td></tr>')


def causes_section(report):
    groups = report["symptom_groups"]
    out = []
    for number, cause in enumerate(report["causes"], 1):
        ops, pairs = cause_ops_pairs(cause, groups)
        kind = "" if cause["explanation"] is not None else "unexplained: "
        also = cause.get("explained_as_well_by") or []
        rows = "".join(group_row(groups[g["group"] - 1], g["vectors"])
                       for g in cause["symptom_groups"])
        out.append(
            f'<details class="cause" data-filtered data-cause="{number}" '
            f'data-op="{esc(" ".join(ops))}" data-pair="{esc(" ".join(pairs))}">'
            f'<summary>cause {number}: {esc(kind + cause["text"])}: '
            f'<span data-cause-vectors>{cause["vectors"]}</span> vectors in '
            f'<span data-cause-groups>{len(cause["symptom_groups"])}</span> symptom groups'
            f'</summary>'
            + (f"<p>explained as well by: {esc('; '.join(also))}</p>" if also else "")
            + (f"<p>models: {esc(cause['models'])}</p>" if cause.get("models") else "")
            + case_line("simplest first case of its groups", "simplest", cause.get("simplest"),
                        cause.get("simplest_eval"))
            + case_line("first case", "eval", cause["first"], cause["eval"])
            + "".join(shrunk_line(x) for x in report.get("shrunk", []) if x["cause"] == number)
            + f'<table><tr><th>group</th><th>pair</th><th>signature</th><th>vectors</th>'
            f'<th>controls</th><th>eval line</th></tr>{rows}</table></details>')
    return "".join(out) or "<p>no failures</p>"


def case_line(label, css, mismatch, eval_command):
    """A cause's case: its `ptovec eval` command, the expected word/status and the device's."""
    if mismatch is None:
        return ""
    line = mismatch["eval_line"]
    return (f'<p>{esc(label)}: <code class="{css}">{esc(eval_command)}</code> (expected '
            f'{esc(line["out"])}/{esc(line["flags"])}, got {esc(got_text(mismatch))})</p>')


def shrunk_line(shrunk):
    """A cause's case shrunk by `ptovec shrink --from --triage`, with what kind of minimum it is."""
    found = shrunk["counterexample"]
    if found is None:
        return f'<p>shrunk: <span class="minimum">{esc(shrunk["minimum"])}</span></p>'
    return case_line(f'shrunk ({shrunk["minimum"]} minimum, {shrunk["file"]})', "shrunk", found,
                     found["eval"])


def shrunk_section(report):
    """One row per case `ptovec shrink --from` shrank (a cause, an unsupported group or a pair):
    its minimum, the counterexample's eval line, expected and got, what it shrank, its file."""
    rows = []
    for x in report.get("shrunk", []):
        found = x["counterexample"]
        line = found["eval_line"] if found else None
        # An unsupported group's row is of no cause: hidden when a cause is chosen.
        cause = f' data-cause="{x["cause"] if x["cause"] is not None else ""}"'
        rows.append(
            f'<tr class="shrunk" data-filtered data-op="{esc(x["start"]["eval_line"]["op"])}" '
            f'data-pair="{pair_key(x["start"]["eval_line"])}"{cause}>'
            f'<td class="n">{x["number"]}</td><td data-minimum>{esc(x["minimum"])}</td>'
            f'<td><code>{esc(found["eval"] if found else "-")}</code></td>'
            f'<td>{esc(line["out"] + "/" + line["flags"] if line else "-")}</td>'
            f'<td>{esc(got_text(found) if found else "-")}</td>'
            f'<td>{esc(x["label"])}</td><td>{esc(x["file"] or "-")}</td></tr>')
    if not rows:
        return ("<p>none (`ptovec shrink --from RESULTS --triage --report-html FILE` shrinks one "
                "failure of each cause and draws this page with them)</p>")
    return ("<table id='shrunk'><tr><th>#</th><th>minimum</th><th>counterexample</th>"
            "<th>expected</th><th>got</th><th>shrunk</th><th>file</th></tr>"
            f"{''.join(rows)}</table>")


def got_text(mismatch):
    got = mismatch["got"]
    if isinstance(got, dict):
        return f"{got['out']}/{got['flags']}"
    return str(got)


def heatmap_panels(report):
    """Per op: a row per pair, a column per (mode, Sat) it has. A cell with failures is coloured
    from half-way (one failure) to red (every answered vector failed) and holds the count; one
    without is green; white: no answered vector."""
    ops = {}
    for row in report["per_control"]:
        op = ops.setdefault(row["op"], {"pairs": [], "columns": [], "cells": {}})
        name = f"{row['src']} -> {row['dst']}"
        column = (row["rmode"] or "-", "-" if row["sat"] is None else ("on" if row["sat"] else "off"))
        if name not in op["pairs"]:
            op["pairs"].append(name)
        if column not in op["columns"]:
            op["columns"].append(column)
        cell = op["cells"].setdefault((name, column), [0, 0])
        cell[0] += failed(row)
        cell[1] += row["vectors"] - row["unsupported"]
    panels = []
    order = {m: i for i, m in enumerate(MODES + ["-"])}
    for name, op in ops.items():
        columns = sorted(op["columns"], key=lambda c: (order.get(c[0], 99), c[1]))
        values = np.full((len(op["pairs"]), len(columns)), np.nan)
        notes = {}
        for (pair, column), (bad, answered) in op["cells"].items():
            i, j = op["pairs"].index(pair), columns.index(column)
            if answered:
                values[i, j] = 0.5 + 0.5 * bad / answered if bad else 0.0
            if bad:
                notes[(i, j)] = short(bad)
        panels.append({"title": name, "rows": op["pairs"],
                       "columns": [f"{m} {s}" if s != "-" else m for m, s in columns],
                       "values": values, "notes": notes, "vertical": len(columns) > 4})
    return panels


def short(n):
    for size, suffix in [(1_000_000, "M"), (1_000, "k")]:
        if n >= size:
            return f"{n / size:.1f}{suffix}".replace(".0", "")
    return str(n)


def heatmap_section(report):
    if not report["per_control"]:
        return "<p>no vectors</p>"
    fig = ptovec_heatmap.figure(
        heatmap_panels(report),
        f"failures by pair x mode x Sat: {report['totals']['mismatched']:,} of "
        f"{report['totals']['vectors']:,} vectors", "failed: 0.5 one vector, 1 every answered vector",
        "RdYlGn_r", 4)
    return f"<div class='heatmap'>{ptovec_heatmap.svg_text(fig)}</div>"


def pairs_table(report):
    keys = ["vectors", "matched", "waived", "failed", "unsupported"]
    head = "<tr><th>op</th><th>pair</th>" + "".join(f"<th>{k}</th>" for k in keys) + "</tr>"
    rows = []
    for p in report["pairs"]:
        cells = "".join(f'<td class="n" data-key="{k}">{p[k]}</td>' for k in keys)
        rows.append(f'<tr class="pair" data-filtered data-op="{esc(p["op"])}" '
                    f'data-pair="{pair_key(p)}"><td>{esc(p["op"])}</td>'
                    f'<td>{esc(p["src"])} -> {esc(p["dst"])}</td>{cells}</tr>')
    return f"<table id='pairs'>{head}{''.join(rows)}</table>"


def unsupported_section(report):
    """One row per pair with unsupported answers: how many, of its vectors, under which
    controls."""
    rows = [(u, u["vectors"], f"{u['controls_text']} ({u['symptom_groups']} symptom groups)")
            for u in report["unsupported"]]
    if not rows:
        return "<p>none</p>"
    body = "".join(f'<tr data-filtered data-op="{esc(p["op"])}" data-pair="{pair_key(p)}">'
                   f'<td>{esc(pair_name(p))}</td><td class="n">{n}</td><td>{esc(under)}</td></tr>'
                   for p, n, under in rows)
    return ("<table id='unsupported'><tr><th>pair</th><th>unsupported vectors</th>"
            f"<th>under</th></tr>{body}</table>")


def rules_section(report):
    rules = report.get("known_difference_rules") or []
    if not rules:
        return "<p>none</p>"
    rows = "".join(f"<tr><td>{esc(r['name'])}</td><td>{esc(r['status'])}</td>"
                   f"<td class='n' data-waived>{r['waived']}</td><td>{esc(r['reason'])}</td></tr>"
                   for r in rules)
    return ("<table id='rules'><tr><th>rule</th><th>status</th><th>waived</th><th>reason</th>"
            f"</tr>{rows}</table>")


def select(key, label, options):
    items = "".join(f'<option value="{esc(v)}">{esc(t)}</option>' for v, t in options)
    return (f'<label>{esc(label)} <select id="filter-{key}"><option value="">all</option>'
            f"{items}</select></label>")


def filters(report):
    pairs = report["pairs"]
    ops = list(dict.fromkeys(p["op"] for p in pairs))
    causes = [(str(i), f"{i}: {c['text']}") for i, c in enumerate(report["causes"], 1)]
    return ("<div class='filters'>" + select("op", "op", [(o, o) for o in ops])
            + select("pair", "pair", [(pair_key(p), pair_name(p)) for p in pairs])
            + select("cause", "cause", causes) + "</div>")


def page(report):
    verdict = "PASS" if report["passed"] else "FAIL"
    sections = [
        ("Environment", environment_rows(report)), ("Totals", totals_table(report)),
        ("Causes", causes_section(report)), ("Shrunk cases", shrunk_section(report)),
        ("Failures by pair, mode and Sat", heatmap_section(report)),
        ("Per pair", pairs_table(report)), ("Unsupported", unsupported_section(report)),
        ("Known-difference rules", rules_section(report)),
    ]
    body = "".join(f"<h2 id='{esc(title.split()[0].lower())}'>{esc(title)}</h2>{content}"
                   for title, content in sections)
    notes = "".join(f"<li>{esc(n)}</li>" for n in report.get("notes", []))
    return (f"<!DOCTYPE html>\n<html lang='en'><head><meta charset='utf-8'>"
            f"<title>ptovec report: {verdict} ({esc(report['device'])})</title>"
            f"<style>{STYLE}</style></head><body>"
            f"<h1>ptovec report: <span id='verdict' class='{verdict.lower()}'>{verdict}</span>"
            f"</h1>{filters(report)}{body}"
            + (f"<h2>Notes</h2><ul>{notes}</ul>" if notes else "")
            + f"<script>{SCRIPT}</script></body></html>\n")


def main():
    if len(sys.argv) != 3:
        print("usage: report_html.py REPORT.json OUT.html", file=sys.stderr)
        return 2
    with open(sys.argv[1]) as f:
        report = json.load(f)
    text = page(report)
    if sys.argv[2] == "-":
        sys.stdout.write(text)
    else:
        with open(sys.argv[2], "w") as f:
            f.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
