"""Runs tests/rtl/cocotb_tcvt_e8m0.py on rtl/ptovec_tcvt_e8m0.sv in Icarus Verilog through
cocotb's runner, and checks the outcome.

  run_cocotb.py --variant correct|planted_bug --vectors FILE... [--limit N] --work DIR

Builds the unit (with PTOVEC_PLANTED_BUG for planted_bug) into DIR/<variant>, streams the files
(--limit N: a deterministic slice of N vectors, 0 = every record) and exits 0 when:
  correct      the cocotb test passed, every vector checked;
  planted_bug  the cocotb test failed, its report lists the first mismatches, and the mismatches
               are exactly the vectors the planted bug changes: RTZ on an inexact positive value
               below 1 (exponent rounded toward zero is up there; the bug takes the floor),
               counted here from the vector files alone, each got one code below expected.
Prints the cocotb test's vectors/s. Needs the .venv of tools/install-deps (cocotb).
"""
import argparse
import json
import os
import sys
import unittest
from pathlib import Path

HERE = Path(__file__).resolve().parent
SOURCE_DIR = HERE.parent.parent
sys.path.insert(0, str(SOURCE_DIR / "python"))
sys.path.insert(0, str(HERE))

from ptovec.files import RMODE_NAMES, read_vectors  # noqa: E402
from cocotb_tcvt_e8m0 import slice_indices  # noqa: E402

try:
    from cocotb.runner import get_results, get_runner
except ImportError:
    sys.exit("run_cocotb.py: cocotb is not importable by " + sys.executable +
             "; run tools/install-deps (it makes .venv with cocotb) and use .venv/bin/python3")

#: Codes of 1.0 by source type: a positive word below it is a value below 1.
ONE = {"fp16": 0x3C00, "bf16": 0x3F80, "fp32": 0x3F800000}
SIGN = {"fp16": 0x8000, "bf16": 0x8000, "fp32": 0x80000000}


def planted_bug_changes(paths, limit):
    """The number of streamed vectors (the slice of cocotb_tcvt_e8m0.py) that the planted bug
    changes: mode RTZ, status exactly NX (inexact, neither UF nor OF), a positive value below 1."""
    per_file = [limit // len(paths) + (1 if i < limit % len(paths) else 0)
                for i in range(len(paths))] if limit else [0] * len(paths)
    rtz = RMODE_NAMES.index("RTZ")
    changed = 0
    for path, wanted in zip(paths, per_file):
        header, records = read_vectors(path)
        src = header["src"]
        value = records[[f["name"] for f in header["fields"] if f["name"].startswith("in.")][0]]
        chosen = list(slice_indices(len(records), wanted))
        r = records[chosen]
        v = value[chosen].astype("u8")
        changed += int(((r["rmode"] == rtz) & (r["flags"] == 0x10) & (v & SIGN[src] == 0) &
                        (v < ONE[src])).sum())
    return changed


def run(variant, paths, limit, work):
    """Builds and runs the cocotb test; returns (number of tests, failed, report dict)."""
    build_dir = work / variant
    build_dir.mkdir(parents=True, exist_ok=True)
    runner = get_runner("icarus")
    runner.build(verilog_sources=[SOURCE_DIR / "rtl" / "ptovec_tcvt_e8m0.sv"],
                 hdl_toplevel="ptovec_tcvt_e8m0", build_dir=build_dir, always=True,
                 defines={"PTOVEC_PLANTED_BUG": 1} if variant == "planted_bug" else {},
                 timescale=("1ns", "1ps"))
    report = build_dir / "report.json"
    report.unlink(missing_ok=True)
    env = {"PTOVEC_COCOTB_VECTORS": os.pathsep.join(str(p) for p in paths),
           "PTOVEC_COCOTB_LIMIT": str(limit), "PTOVEC_COCOTB_REPORT": str(report),
           "PYTHONPATH": os.pathsep.join([str(HERE), str(SOURCE_DIR / "python")] +
                                         [p for p in [os.environ.get("PYTHONPATH")] if p])}
    results = runner.test(test_module="cocotb_tcvt_e8m0", hdl_toplevel="ptovec_tcvt_e8m0",
                          build_dir=build_dir, test_dir=build_dir, extra_env=env,
                          results_xml=str(build_dir / "results.xml"))
    tests, failed = get_results(Path(results))
    return tests, failed, json.loads(report.read_text())


class CocotbOutcome(unittest.TestCase):
    """The outcome of one variant, checked (arguments in ARGS)."""

    def test_outcome(self):
        paths = [Path(p).resolve() for p in ARGS.vectors]
        tests, failed, report = run(ARGS.variant, paths, ARGS.limit, Path(ARGS.work).resolve())
        print(f"cocotb ({ARGS.variant}): {report['checked']} vectors in {report['seconds']:.2f} "
              f"s, {report['checked'] / report['seconds']:.0f} vectors/s, "
              f"{report['mismatches']} mismatched")
        wanted = ARGS.limit or sum(read_vectors(p)[0]["count"] for p in paths)
        self.assertEqual(tests, 1)
        self.assertEqual(report["checked"], wanted)
        if ARGS.variant == "correct":
            self.assertEqual((failed, report["mismatches"]), (0, 0), report["first"])
            return
        self.assertEqual(failed, 1)
        changed = planted_bug_changes(paths, ARGS.limit)
        self.assertGreater(changed, 0)
        self.assertEqual(report["mismatches"], changed)
        self.assertEqual(len(report["first"]), min(10, changed))
        for m in report["first"]:
            self.assertEqual(m["rmode"], "RTZ", m)
            self.assertEqual(int(m["got"], 16), int(m["expected"], 16) - 1, m)
            self.assertEqual((m["expected_flags"], m["got_flags"]), ("0x10", "0x10"), m)
            self.assertTrue(m["eval"].startswith(
                f"ptovec eval --op tcvt --src {m['src']} --dst e8m0 --rmode RTZ"), m)


def main():
    global ARGS
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--variant", choices=["correct", "planted_bug"], required=True)
    parser.add_argument("--vectors", nargs="+", required=True)
    parser.add_argument("--limit", type=int, default=0)
    parser.add_argument("--work", required=True)
    ARGS = parser.parse_args()
    result = unittest.main(argv=[sys.argv[0], "-v"], exit=False).result
    sys.exit(0 if result.wasSuccessful() else 1)


ARGS = None
if __name__ == "__main__":
    main()
