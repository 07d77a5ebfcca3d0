#!/usr/bin/python3
"""Writes the outcome coverage of `ptovec coverage --json` output as a UCIS database in the
Accellera UCIS XML interchange format, built and written by pyucis (PyPI package `pyucis`).
Called by `ptovec coverage --ucis FILE` (which puts its standard output into FILE) with the
Python it finds (PTOVEC_PYTHON, else the .venv of the source tree ptovec was built from, else
python3):

    tools/cli/coverage_ucis.py COVERAGE.json OUT.xml    (OUT.xml "-": standard output)

The database: one design unit and one instance, both `ptovec`; a covergroup per (op, types) pair,
named as its vector file (`tcvt_fp16_e8m0`); in it a coverpoint per control (`RNE_sat_off`; an op
without controls has `RNE_sat_off` only); in each coverpoint a bin per outcome class of the pair
(`input +zero`, `rounded up`, ...) whose count is the vectors hitting that class under that
control. A class that no input can reach under the control is an ignore bin, so a coverpoint's
coverage is the share of its reachable classes hit. One history node (a test, `ptovec coverage`)
names the vector paths. Written by `ptovec`, at a fixed time and date (1970-01-01T00:00:00): the
file depends on the coverage only. pyucis's merge (`pyucis merge -o ALL.xml A.xml B.xml`) adds
the counts of bins of the same covergroup, coverpoint and name.

Exit status 3, nothing written, when pyucis cannot be imported (ptovec then names what is
missing); 1 when the JSON is not coverage.
"""
import json
import sys

try:
    from ucis import UCIS_OTHER
    from ucis.cover_type_t import CoverTypeT
    from ucis.flags_t import FlagsT
    from ucis.history_node_kind import HistoryNodeKind
    from ucis.mem.mem_factory import MemFactory
    from ucis.scope_type_t import ScopeTypeT
    from ucis.source_t import SourceT
    from ucis.test_data import TestData
    from ucis.test_status_t import TestStatusT
    from ucis.xml.xml_writer import XmlWriter
except ImportError:
    sys.exit(3)

FIXED_TIME = "19700101000000"  # UCIS's YYYYMMDDhhmmss; the output must not depend on the clock


def control_name(control):
    return f"{control['rmode']}_sat_{'on' if control['sat'] else 'off'}"


def build(coverage):
    """The in-memory UCIS database of one `ptovec coverage --json` document."""
    db = MemFactory.create()
    db.setWrittenBy("ptovec")
    db.setWrittenTime(FIXED_TIME)
    test = db.createHistoryNode(None, "ptovec coverage", " ".join(coverage["vectors"]),
                                HistoryNodeKind.TEST)
    test.setTestData(TestData(teststatus=TestStatusT.OK, toolcategory="ptovec:coverage",
                              date=FIXED_TIME, user="ptovec"))
    test.setVendorTool("ptovec")
    du = db.createScope("ptovec", None, 1, SourceT.NONE, ScopeTypeT.DU_MODULE,
                        FlagsT(0))
    top = db.createInstance("ptovec", None, 1, SourceT.NONE, ScopeTypeT.INSTANCE, du,
                            FlagsT(0))
    for pair in coverage["pairs"]:
        group = top.createCovergroup(f"{pair['op']}_{pair['src']}_{pair['dst']}", None, 1,
                                     UCIS_OTHER)
        for control in pair["controls"]:
            point = group.createCoverpoint(control_name(control), None, 1, UCIS_OTHER)
            for name, count, reachable in zip(pair["classes"], control["counts"],
                                              control["reachable"]):
                kind = CoverTypeT.CVGBIN if reachable else CoverTypeT.IGNOREBIN
                point.createBin(name, None, 1, count, name, kind)
    return db


def main():
    if len(sys.argv) != 3:
        sys.exit("usage: coverage_ucis.py COVERAGE.json OUT.xml (OUT.xml -: standard output)")
    with open(sys.argv[1]) as f:
        coverage = json.load(f)
    if coverage.get("format") != "ptovec-coverage":
        sys.exit(f"coverage_ucis.py: {sys.argv[1]} is not `ptovec coverage --json` output")
    db = build(coverage)
    if sys.argv[2] == "-":
        XmlWriter().write(sys.stdout, db)
    else:
        with open(sys.argv[2], "w") as f:
            XmlWriter().write(f, db)


if __name__ == "__main__":
    main()
