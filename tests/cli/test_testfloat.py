#!/usr/bin/python3
"""TestFloat-style text through the command line (schemas/testfloat-format.md).

`generate --format testfloat` writes a file per mode and Sat whose lines hold known answers and a
manifest the committed schema accepts; `check` of a device's answers in the same layout reports
the one flipped word (exit 1) and refuses a malformed line with one line naming the file, the
line and the token (exit 2); `run` gates a TestFloat-style suite through the oracle device.

Run by ctest (tests/cli/CMakeLists.txt) with Debian's /usr/bin/python3 -m pytest; the helper
ptovec_cli.py gives ptovec(*args) and this build's paths.
"""
import json
import os

import pytest

from ptovec_cli import ORACLE_DUT, ClassScratch, ptovec, schema_validator


FP16_E8M0 = ["--op", "tcvt", "--src", "fp16", "--dst", "e8m0"]


class TestTestFloatCli(ClassScratch):
    @classmethod
    def setup_class(cls):
        super().setup_class()
        cls.suite = os.path.join(cls.tmp, "tf")
        r = ptovec("generate", *FP16_E8M0, "--rmode", "RNE,RTZ", "--format", "testfloat",
                   "--out", cls.suite)
        assert r.returncode == 0, r.stderr
        cls.generate_stderr = r.stderr

    def read(self, name):
        with open(os.path.join(self.suite, name)) as f:
            return f.read()

    def test_files_lines_and_manifest(self):
        assert "wrote 4 files, 262144 vectors" in self.generate_stderr
        with open(os.path.join(self.suite, "manifest.json")) as f:
            manifest = json.load(f)
        schema_validator("manifest.schema.json").validate(manifest)
        assert [(e["path"], e["rmode"], e["sat"], e["count"]) for e in manifest["files"]] == ([("tcvt_fp16_e8m0_RNE_satoff.tf", "RNE", False, 65536),
                          ("tcvt_fp16_e8m0_RNE_saton.tf", "RNE", True, 65536),
                          ("tcvt_fp16_e8m0_RTZ_satoff.tf", "RTZ", False, 65536),
                          ("tcvt_fp16_e8m0_RTZ_saton.tf", "RTZ", True, 65536)])
        lines = self.read("tcvt_fp16_e8m0_RTZ_satoff.tf").splitlines()
        assert len(lines) == 65536
        assert lines[0x3C00] == "3C00 7F 00"  # 1.0: 2^0, exact
        assert lines[0x3E00] == "3E00 7F 01"  # 1.5: 2^0 toward zero, inexact (0x01)
        assert self.read("tcvt_fp16_e8m0_RNE_satoff.tf").splitlines()[0x3E00] == "3E00 80 01"                  # 1.5 to nearest (sqrt 2 rule): 2^1

    def test_check_reports_the_flipped_word(self):
        lines = self.read("tcvt_fp16_e8m0_RTZ_satoff.tf").splitlines()
        lines[0x3E00] = "3E00 7E 01"
        answers = self.path("answers.txt")
        with open(answers, "w") as f:
            f.write("\n".join(lines) + "\n")
        r = ptovec("check", "--vectors", os.path.join(self.suite, "tcvt_fp16_e8m0_RTZ_satoff.tf"),
                   "--results", answers)
        assert r.returncode == 1, (r.stdout + r.stderr)
        assert "65536 vectors: 65535 matched, 1 mismatched" in r.stdout
        assert "ptovec eval --op tcvt --src fp16 --dst e8m0 --rmode RTZ 0x3e00" in r.stdout
        # The same answers checked against the suite folder, its RTZ Sat off vectors selected.
        r = ptovec("check", "--vectors", self.suite, "--rmode", "RTZ", "--sat", "off",
                   "--results", answers)
        assert r.returncode == 1, (r.stdout + r.stderr)
        assert "1 mismatched" in r.stdout

    def test_bad_line_is_one_error_line(self):
        text = self.read("tcvt_fp16_e8m0_RTZ_satoff.tf").replace("0002 68 00\n", "0002 0G 00\n")
        bad = self.path("bad.txt")
        with open(bad, "w") as f:
            f.write(text)
        r = ptovec("check", "--vectors", os.path.join(self.suite, "tcvt_fp16_e8m0_RTZ_satoff.tf"),
                   "--results", bad)
        assert r.returncode == 2, (r.stdout + r.stderr)
        assert r.stderr.strip().splitlines() == ([
            "ptovec: error: results file " + bad + " (TestFloat-style text) line 3 (tcvt fp16 -> "
            "e8m0) has a bad result (e8m0) token '0G' (accepted: 2 hex digits, 0..FF)"])
        r = ptovec("generate", *FP16_E8M0, "--format", "tf", "--out", self.path("x"))
        assert r.returncode == 2
        assert "unknown --format 'tf' (accepted: bin, json, both, testfloat)" in r.stderr

    @pytest.mark.skipif(not ORACLE_DUT, reason="PTOVEC_ORACLE_DUT not set")
    def test_run_gates_a_testfloat_suite(self):
        r = ptovec("run", "--dut", ORACLE_DUT, "--vectors", self.suite, "--results",
                   self.path("results.bin"))
        assert r.returncode == 0, (r.stdout + r.stderr)
        assert "4 files, 262144 vectors: 262144 matched" in r.stdout
