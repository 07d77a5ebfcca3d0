"""`ptovec shrink --from`: it finds the vectors the run read (the results header records them),
takes a section's file by name from --vectors, and its errors name its own options. The run: the
e8m0_always_up mutant over the smoke suite's tcvt files, the results file written away from the
suite.

Run by ctest (tests/cli/CMakeLists.txt) with Debian's /usr/bin/python3 -m pytest; the helper
ptovec_cli.py gives ptovec(*args) and this build's paths.
"""
import json
import os

import pytest

from ptovec_cli import ALWAYS_UP, SOURCE, Scratch, files, ptovec

SMOKE = os.path.join(SOURCE, "vectors", "smoke")


@pytest.mark.skipif(not ALWAYS_UP, reason="PTOVEC_MUTANT_E8M0_ALWAYS_UP is not set")
class TestShrinkFrom(Scratch):
    """The run: the e8m0_always_up mutant over the smoke suite's tcvt files (3 of its 118), the
    results file written away from the suite."""

    @pytest.fixture(autouse=True)
    def failed_run(self, scratch):
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
