"""The verilated RTL example (examples/rtl/ptovec_tcvt_e8m0.sv) as a `ptovec run --dut` device, end to end;
the same for the pipelined unit (examples/rtl/ptovec_tcvt_e8m0_pipe.sv) behind the streaming harness.

Environment: PTOVEC (the ptovec binary), PTOVEC_RTL_DUT and PTOVEC_RTL_DUT_PLANTED_BUG (the two
device libraries: examples/rtl/CMakeLists.txt's, or examples/rtl/stream_example's), PTOVEC_RTL_VECTORS (a folder
holding the default suite's tcvt *->e8m0 files: `ptovec generate --op tcvt --dst e8m0`, byte for
byte the default suite's); optional PTOVEC_RTL_NAME (the correct device's ptovec_dut_name, default
rtl-tcvt-e8m0; the planted bug's is it with -planted-bug) and PTOVEC_RTL_DUT_ARG (a --dut-arg for
every run and shrink, e.g. the harness's random back-pressure). Debian's python3 with numpy (the
vectors are read with python/ptovec/files).

  TestRun         run over the files: the RTL passes every vector; the planted bug (RTZ takes the
                  floor) fails exactly the vectors it changes, predicted from the files alone
  TestExhaustive  run --exhaustive over every FP16 and BF16 code x 14 controls
  TestShrink      shrink finds the planted bug's smallest FP16 counterexample; the RTL passes
  TestStream      (the streaming harness's device only) run's throughput line with two threads
                  and cases per clock, with and without a control selection; a protocol failure
                  named by its cause
"""
import json
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent.parent / "python"))
from ptovec.files import RMODE_NAMES, read_vectors  # noqa: E402

PTOVEC = os.environ["PTOVEC"]
RTL = os.environ["PTOVEC_RTL_DUT"]
PLANTED = os.environ["PTOVEC_RTL_DUT_PLANTED_BUG"]
VECTORS = Path(os.environ["PTOVEC_RTL_VECTORS"])
NAME = os.environ.get("PTOVEC_RTL_NAME", "rtl-tcvt-e8m0")
DUT_ARG = os.environ.get("PTOVEC_RTL_DUT_ARG")
SOURCES = ("fp16", "bf16", "fp32")
#: Codes of 1.0 and the sign bit by source type.
ONE = {"fp16": 0x3C00, "bf16": 0x3F80, "fp32": 0x3F800000}
SIGN = {"fp16": 0x8000, "bf16": 0x8000, "fp32": 0x80000000}
SUMMARY = re.compile(r"ptovec: (\d+) files?, (\d+) vectors?: (\d+) matched, (\d+) mismatched, "
                     r"(\d+) unsupported \(device ([^)]*)\)")


def ptovec(*args):
    """Runs ptovec with args; returns (exit status, stdout + stderr)."""
    if DUT_ARG and args and args[0] in ("run", "shrink"):
        args = (*args, "--dut-arg", DUT_ARG)
    p = subprocess.run([PTOVEC, *args], capture_output=True, text=True, timeout=600)
    return p.returncode, p.stdout + p.stderr


def summary(output):
    """The summary line's numbers: (files, vectors, matched, mismatched, unsupported, device)."""
    m = SUMMARY.search(output)
    assert m, output
    return tuple(int(g) for g in m.groups()[:5]) + (m.group(6),)


def files():
    """The three tcvt *->e8m0 vector files of PTOVEC_RTL_VECTORS."""
    return [VECTORS / f"tcvt_{src}_e8m0.bin" for src in SOURCES]


def planted_bug_changes():
    """{(file name, record index)} of the vectors the planted bug changes, from the files alone:
    mode RTZ, status exactly NX (inexact, neither UF nor OF) and a positive value below 1, where
    rounding the exponent toward zero goes up and the bug takes the floor."""
    changed = set()
    for path in files():
        header, records = read_vectors(str(path))
        value = records["in.value"].astype("u8")
        src = header["src"]
        hit = ((records["rmode"] == RMODE_NAMES.index("RTZ")) & (records["flags"] == 0x10) &
               (value & SIGN[src] == 0) & (value < ONE[src]))
        changed |= {(path.name, int(i)) for i in hit.nonzero()[0]}
    return changed


class TestRun:
    def test_rtl_passes_the_default_suites_e8m0_files(self):
        with tempfile.TemporaryDirectory() as tmp:
            status, out = ptovec("run", "--dut", RTL, "--vectors", *map(str, files()),
                                 "--results", f"{tmp}/results.bin", "--quiet")
        total = sum(read_vectors(str(p))[0]["count"] for p in files())
        assert status == 0, out
        assert summary(out) == (3, total, total, 0, 0, NAME), out
        assert "PASS" in out

    def test_planted_bug_fails_exactly_the_vectors_it_changes(self):
        with tempfile.TemporaryDirectory() as tmp:
            status, out = ptovec("run", "--dut", PLANTED, "--vectors", *map(str, files()),
                                 "--results", f"{tmp}/results.bin", "--mismatches",
                                 f"{tmp}/mismatches.jsonl", "--quiet")
            with open(f"{tmp}/mismatches.jsonl") as f:
                mismatches = [json.loads(line) for line in f]
        assert status == 1, out
        changed = planted_bug_changes()
        total = sum(read_vectors(str(p))[0]["count"] for p in files())
        assert summary(out) == ((3, total, total - len(changed), len(changed), 0,
                                        NAME + "-planted-bug")), out
        assert {(m["file"], m["record"]) for m in mismatches} == changed
        for m in mismatches:
            assert (m["rmode"], m["kind"]) == ("RTZ", "wrong word"), m
            assert int(m["got"]["out"], 16) == (int(m["expected"]["out"], 16) - 1), m
        # The report names the first one with its eval line: FP16 0x0003 (3 * 2^-24).
        assert "tcvt_fp16_e8m0.bin vector 48: tcvt fp16 -> e8m0 RTZ sat=off value=0x0003" in out
        assert "ptovec eval --op tcvt --src fp16 --dst e8m0 --rmode RTZ 0x0003" in out


@pytest.mark.skipif(not NAME.startswith("ptovec-pipe"),
                    reason="the streaming harness's flag_order only")
class TestFlagOrder:
    """The pipelined unit's out_fflags port is in RISC-V order: read as ptovec's (flag_order=spec)
    every word still matches and every status but the symmetric ones is wrong, and the report
    says the flags are reversed; read as riscv (the example's setting) it passes."""

    def run_fp16(self, order):
        arg = (DUT_ARG + "," if DUT_ARG else "") + "flag_order=" + order
        p = subprocess.run([PTOVEC, "run", "--dut", RTL, "--dut-arg", arg, "--vectors",
                            str(VECTORS / "tcvt_fp16_e8m0.bin"), "--max-report", "0"],
                           capture_output=True, text=True, timeout=600)
        return p.returncode, p.stdout + p.stderr

    def test_unconverted_order_fails_every_asymmetric_status_with_a_hint(self):
        status, out = self.run_fp16("spec")
        assert status == 1, out
        # Only a status that is its own reverse matches: here 0x00, the 40 positive powers of
        # two of FP16 (30 normal, 10 subnormal) x 14 controls.
        assert summary(out)[1:5] == (917504, 560, 916944, 0), out
        assert "by kind: wrong word 0, wrong flags 916944, both 0, unsupported 0" in out
        assert ("hint: 916944 of the 916944 wrong-flags vectors hold the expected flags in "
                      "reverse order (bit 0 NX .. bit 4 NV, as RISC-V fflags): convert the "
                      "device's status to ptovec's order") in out

    def test_riscv_order_passes_without_a_hint(self):
        status, out = self.run_fp16("riscv")
        assert status == 0, out
        assert summary(out)[1:5] == (917504, 917504, 0, 0), out
        assert "hint:" not in out


class TestStream:
    """The streaming harness's own report through `run` (its device only, with PTOVEC_RTL_DUT_ARG's
    back-pressure: out_ready on 70% of clocks, seed 3): a run with and without a control
    selection reports its threads and the harness's cases per clock (in process: one thread's
    chunks are fixed, so its clocks are too; two threads take chunks as they come free, so their
    harnesses' clocks vary a little around 1 / 0.7 per case), as does run --exhaustive; a protocol
    failure is named by its cause."""

    THROUGHPUT = re.compile(r"ptovec: device ptovec-pipe-dut: (\d+) vectors in [0-9.]+ s "
                            r"\(\d+ vectors/s on (\d+) threads?\); (0\.\d{4}) cases per clock "
                            r"\((\d+) cases in (\d+) clocks\)")

    def run_fp16(self, *args):
        with tempfile.TemporaryDirectory() as tmp:
            return ptovec("run", "--dut", RTL, "--in-process", "--vectors",
                          str(VECTORS / "tcvt_fp16_e8m0.bin"), "--results", f"{tmp}/r.bin", *args)

    @pytest.mark.parametrize("selection, vectors, clocks", [
        ((), 917504, 1310328),
        (("--rmode", "RNE,RTZ", "--sat", "off"), 131072, 187387)])
    def test_threads_and_cases_per_clock_are_reported(self, selection, vectors, clocks):
        status, out = self.run_fp16("--threads", "1", *selection)
        assert status == 0, out
        m = self.THROUGHPUT.search(out)
        assert m, out
        assert (int(m[1]), int(m[2]), int(m[4]), int(m[5])) == (vectors, 1, vectors, clocks), out
        assert m[3] == f"{vectors / clocks:.4f}"
        status, out = self.run_fp16("--threads", "2", *selection)
        assert status == 0, out
        m = self.THROUGHPUT.search(out)
        assert m, out
        assert (int(m[1]), int(m[2]), int(m[4])) == (vectors, 2, vectors), out
        assert 0.69 < vectors / int(m[5]) < 0.71, out
        assert m[3] == f"{vectors / int(m[5]):.4f}"

    def test_run_exhaustive_reports_them_too(self):
        status, out = ptovec("run", "--exhaustive", "--dut", RTL, "--in-process", "--threads",
                             "2", "--op", "tcvt", "--src", "fp16", "--dst", "e8m0", "--rmode",
                             "RNE")
        assert status == 0, out
        m = self.THROUGHPUT.search(out)
        assert m, out
        assert (int(m[1]), int(m[2]), int(m[4]), int(m[5])) == (131072, 2, 131072, 187610), out

    def test_a_protocol_failure_is_named_not_a_case_of_the_batch(self):
        # out_ready almost never high and one idle clock allowed: the 3 stages fill and the
        # harness gives up; ptovec quotes the harness, not the first case it marked.
        with tempfile.TemporaryDirectory() as tmp:
            p = subprocess.run([PTOVEC, "run", "--dut", RTL, "--dut-arg",
                                "out_ready_percent=1,timeout_cycles=1", "--vectors",
                                str(VECTORS / "tcvt_fp16_e8m0.bin"), "--results", f"{tmp}/r.bin",
                                "--threads", "1"], capture_output=True, text=True, timeout=600)
        assert p.returncode == 2, p.stdout + p.stderr
        assert ("ptovec: error: device ptovec-pipe-dut failed (PTOVEC_DUT_ERROR) on a batch of "
                "4096 cases: 1 clocks without a case in or out (3 in flight)\n") in p.stderr
        assert "ptovec eval" not in p.stdout + p.stderr


class TestExhaustive:
    @pytest.mark.parametrize("src", ["fp16", "bf16"])
    def test_every_fp16_and_bf16_code_passes(self, src):
        status, out = ptovec("run", "--exhaustive", "--dut", RTL, "--op", "tcvt", "--src", src,
                             "--dst", "e8m0", "--quiet")
        assert status == 0, out
        assert summary(out)[1:5] == (65536 * 14, 65536 * 14, 0, 0), out

    def test_planted_bug_on_every_fp16_code(self):
        # Positive FP16 values below 1 that are not powers of two: 1023 - 10 subnormals and
        # 14 exponents x 1023 normals, each under RTZ with Sat off and on.
        status, out = ptovec("run", "--exhaustive", "--dut", PLANTED, "--op", "tcvt", "--src",
                             "fp16", "--dst", "e8m0", "--quiet")
        assert status == 1, out
        assert summary(out)[3] == (2 * (1023 - 10 + 14 * 1023)), out


class TestShrink:
    def shrink(self, dut):
        with tempfile.TemporaryDirectory() as tmp:
            status, out = ptovec("shrink", "--dut", dut, "--op", "tcvt", "--src", "fp16", "--dst",
                                 "e8m0", "--out", f"{tmp}/shrunk.bin", "--json")
        return status, out

    def test_planted_bug_shrinks_to_fp16_0x3a00_rtz(self):
        status, out = self.shrink(PLANTED)
        assert status == 1, out
        result = json.loads(out)
        assert not result["passed"]
        assert result["local_minimum"]
        assert result["simplest"]  # FP16 -> E8M0 is enumerated: the least failing case
        # 0.75 = 1.1b * 2^-1: toward zero the exponent -1 becomes 0 (code 0x7f); the bug gives
        # the floor, 2^-1 (0x7e). Of the failing cases with two significant bits (the fewest: a
        # single bit is a power of two, exact) its exponent is the nearest to zero.
        assert result["counterexample"] == ({
            "op": "tcvt", "src": "fp16", "dst": "e8m0", "rmode": "RTZ", "sat": False,
            "in": {"value": "0x3a00"}, "expected": {"out": "0x7f", "flags": "0x10"},
            "got": {"out": "0x7e", "flags": "0x10"},
            "eval": "ptovec eval --op tcvt --src fp16 --dst e8m0 --rmode RTZ 0x3a00"})

    def test_rtl_passes(self):
        status, out = self.shrink(RTL)
        assert status == 0, out
        assert json.loads(out)["passed"]
