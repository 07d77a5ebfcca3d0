"""`ptovec shrink --from`: it finds the vectors the run read (the results header records them),
takes a section's file by name from --vectors, and its errors name its own options. The run: the
e8m0_always_up mutant over the smoke suite's tcvt files, the results file written away from the
suite. Then the sampled shrink's near moves (docs/shrinking.md): a shorter significand at the same
exponent, the same significand at another binade, a simpler control, each judged whatever the
move limit, reach the simplest case of a cause from where it used to stop (the mutants of
PTOVEC_MUTANT_DIR).

Run by ctest (tests/cli/CMakeLists.txt) with Debian's /usr/bin/python3 -m pytest; the helper
ptovec_cli.py gives ptovec(*args) and this build's paths.
"""
import json
import os

import pytest

from ptovec_cli import ALWAYS_UP, ORACLE_DUT, SOURCE, Scratch, files, ptovec

SMOKE = os.path.join(SOURCE, "vectors", "smoke")


class TestShrinkFrom(Scratch):
    """The run: the e8m0_always_up mutant over the smoke suite's tcvt files (3 of its 118), the
    results file written away from the suite."""

    @pytest.fixture(autouse=True)
    def failed_run(self, scratch):
        assert ALWAYS_UP, "PTOVEC_MUTANT_E8M0_ALWAYS_UP is not set (tests/cli/CMakeLists.txt)"
        self.results = self.path("results", "r.bin")
        os.mkdir(self.path("results"))
        r = ptovec("run", "--dut", ALWAYS_UP, "--vectors", SMOKE, "--op", "tcvt", "--results",
                   self.results, "--max-report", "0")
        assert r.returncode == 1, (r.stdout + r.stderr)
        os.mkdir(self.path("elsewhere"))

    def shrink(self, *args):
        return ptovec("shrink", "--dut", ALWAYS_UP, "--from", *args, "--json",
                      cwd=self.path("elsewhere"))

    def assert_three_shrunk(self, r):
        assert r.returncode == 1, (r.stdout + r.stderr)
        result = json.loads(r.stdout)
        assert [x["file_in_results"] for x in result["results"]] == ["tcvt_fp16_e8m0.bin", "tcvt_bf16_e8m0.bin", "tcvt_fp32_e8m0.bin"]
        # Always rounding up: 1.5 toward minus infinity gives 2^1 (0x80) instead of 2^0 (0x7f).
        assert result["results"][0]["counterexample"]["eval"] == "ptovec eval --op tcvt --src fp16 --dst e8m0 --rmode RTM 0x3e00"
        assert result["results"][0]["counterexample"]["got"] == {"out": "0x80", "flags": "0x10"}

    def test_the_results_header_names_the_vectors_and_shrink_finds_them(self):
        header, _ = files.read_results(self.results)
        assert header["vectors"] == [os.path.relpath(SMOKE, os.path.dirname(self.results))]
        self.assert_three_shrunk(self.shrink(self.results))

    def test_vectors_folder_of_a_run_of_part_of_it(self):
        self.assert_three_shrunk(self.shrink(self.results, "--vectors", SMOKE, "--op", "tcvt"))
        self.assert_three_shrunk(self.shrink(self.results, "--vectors", SMOKE))

    def test_a_passing_results_file_of_another_device_says_so(self):
        # The oracle's results pass: nothing to shrink, and the note says whose answers they are.
        passing = self.path("results", "oracle.bin")
        r = ptovec("run", "--dut", ORACLE_DUT, "--vectors", SMOKE, "--op", "tcvt", "--results",
                   passing, "--max-report", "0")
        assert r.returncode == 0, (r.stdout + r.stderr)
        r = ptovec("shrink", "--dut", ALWAYS_UP, "--from", passing, cwd=self.path("elsewhere"))
        assert r.returncode == 0, (r.stdout + r.stderr)
        assert r.stdout == (f"ptovec shrink: no failures to shrink in {passing}\n"
                            "note: the results are of device ptovec-oracle, not e8m0_always_up "
                            "(--dut): `ptovec run --dut` this device first to shrink its "
                            "failures\n")
        # The device that wrote them gets no note.
        r = ptovec("shrink", "--dut", ORACLE_DUT, "--from", passing, cwd=self.path("elsewhere"))
        assert r.stdout == f"ptovec shrink: no failures to shrink in {passing}\n"

    def test_errors_name_shrinks_options(self):
        r = self.shrink("/nonexistent/results.bin")
        assert r.returncode == 2
        assert r.stderr.strip() == ("ptovec: error: --from /nonexistent/results.bin does "
                         "not exist (expected the results file of a `ptovec run`)")
        r = self.shrink(self.results, "--vectors", self.tmp)
        assert r.returncode == 2
        assert r.stderr.strip() == (f"ptovec: error: --from {self.results} answers vector "
                         f"file tcvt_fp16_e8m0.bin, which is not in --vectors {self.tmp}: give "
                         "shrink --vectors the folder or file the run read")


def mutant(name):
    """The library of mutant `name` (tests/mutants), which must be built."""
    path = os.path.join(os.environ.get("PTOVEC_MUTANT_DIR", ""), f"libptovec_mutant_{name}.so")
    assert os.path.exists(path), f"mutant {name} is not built: {path}"
    return path


def final_case(r):
    """(value, rmode) of the one counterexample of a `shrink --json` run."""
    assert r.returncode == 1, (r.stdout + r.stderr)
    result = json.loads(r.stdout.splitlines()[-1])
    results = result.get("results") or [result]
    return [(x["counterexample"]["in"]["value"], x["counterexample"]["rmode"]) for x in results]


class TestShrinkMoves(Scratch):
    """most_negative_integer_nv flags NV for a value below the integer minimum that rounds to it;
    e4m3_mantissa_carry_lost loses the carry of a significand rounded up into the next binade."""

    def shrink(self, name, *args):
        return ptovec("shrink", "--dut", mutant(name), "--json", "--out", self.path("cx.bin"),
                      *args)

    def test_fp32_to_s8_reaches_minus_128_5(self):
        # -128.0000076 (0xc3000001, 24 significant bits) used to be the end: -128.5 (9 bits) is
        # its top 9 bits rounded away from zero, at the same exponent.
        r = self.shrink("most_negative_integer_nv", "--op", "encode", "--src", "fp32", "--dst",
                        "s8")
        assert final_case(r) == [("0xc3008000", "RNE")]

    def test_fp32_to_s16_reaches_minus_32768_5(self):
        r = self.shrink("most_negative_integer_nv", "--op", "encode", "--src", "fp32", "--dst",
                        "s16")
        assert final_case(r) == [("0xc7000080", "RNE")]

    def test_from_and_signature_end_at_the_same_case_of_one_cause(self):
        # --from used to end at 0x3cf00001 under RTP (the carry of 1.875 + 2^-23 * 2^-6 rounded
        # up), --signature at 0x3cf80000 under RNE: both now at 1.9375 under RNE.
        work = self.path("work")
        r = ptovec("run", "--dut", mutant("e4m3_mantissa_carry_lost"), "--op", "encode", "--src",
                   "fp32", "--dst", "e4m3", "--samples", 3000, "--work", work, "--max-report", 0)
        assert r.returncode == 1, (r.stdout + r.stderr)
        signature = ("sat off; input +normal; expected +normal NX; got +normal NX; word nearer "
                     "zero; flags same")
        assert f"encode fp32 -> e4m3: {signature}" in r.stdout
        from_results = ptovec("shrink", "--dut", mutant("e4m3_mantissa_carry_lost"), "--from",
                              os.path.join(work, "results.bin"), "--triage", "--json",
                              cwd=self.tmp)
        assert from_results.returncode == 1, (from_results.stdout + from_results.stderr)
        # One cause (the fault model this mutant is) for its symptom groups, shrunk once.
        causes = {g["triage"]: (g["counterexample"]["in"]["value"], g["counterexample"]["rmode"])
                  for g in json.loads(from_results.stdout.splitlines()[-1])["results"]}
        assert list(causes) == ["cause 1 of 1: fault e4m3-mantissa-carry-lost (980 vectors)"]
        assert list(causes.values()) == [("0x3ff80000", "RNE")]
        # The triage line as the report prints it, its op and types included.
        alone = self.shrink("e4m3_mantissa_carry_lost", "--signature",
                            f"encode fp32 -> e4m3: {signature}")
        assert final_case(alone) == [("0x3ff80000", "RNE")]
