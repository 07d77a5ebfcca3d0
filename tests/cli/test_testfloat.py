#!/usr/bin/python3
"""TestFloat-style text through the command line (schemas/testfloat-format.md).

`generate --format testfloat` writes a file per mode and Sat whose lines hold known answers and a
manifest the committed schema accepts; `check` of a device's answers in the same layout reports
the one flipped word (exit 1) and refuses a malformed line with one line naming the file, the
line and the token (exit 2); `run` gates a TestFloat-style suite through the oracle device.

Run by ctest with Debian's /usr/bin/python3; PTOVEC, PTOVEC_SOURCE_DIR and PTOVEC_ORACLE_DUT come
from the environment (or --ptovec PATH --source DIR before the unittest arguments).
"""
import json
import os
import shutil
import tempfile
import unittest

from ptovec_cli import ORACLE_DUT, ptovec, schema_validator


FP16_E8M0 = ["--op", "tcvt", "--src", "fp16", "--dst", "e8m0"]


class TestFloatCliTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.mkdtemp(prefix="ptovec-testfloat-")
        cls.suite = os.path.join(cls.tmp, "tf")
        r = ptovec("generate", *FP16_E8M0, "--rmode", "RNE,RTZ", "--format", "testfloat",
                   "--out", cls.suite)
        assert r.returncode == 0, r.stderr
        cls.generate_stderr = r.stderr

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.tmp, ignore_errors=True)

    def path(self, *names):
        return os.path.join(self.tmp, *names)

    def read(self, name):
        with open(os.path.join(self.suite, name)) as f:
            return f.read()

    def test_files_lines_and_manifest(self):
        self.assertIn("wrote 4 files, 262144 vectors", self.generate_stderr)
        with open(os.path.join(self.suite, "manifest.json")) as f:
            manifest = json.load(f)
        schema_validator("manifest.schema.json").validate(manifest)
        self.assertEqual([(e["path"], e["rmode"], e["sat"], e["count"]) for e in manifest["files"]],
                         [("tcvt_fp16_e8m0_RNE_satoff.tf", "RNE", False, 65536),
                          ("tcvt_fp16_e8m0_RNE_saton.tf", "RNE", True, 65536),
                          ("tcvt_fp16_e8m0_RTZ_satoff.tf", "RTZ", False, 65536),
                          ("tcvt_fp16_e8m0_RTZ_saton.tf", "RTZ", True, 65536)])
        lines = self.read("tcvt_fp16_e8m0_RTZ_satoff.tf").splitlines()
        self.assertEqual(len(lines), 65536)
        self.assertEqual(lines[0x3C00], "3C00 7F 00")  # 1.0: 2^0, exact
        self.assertEqual(lines[0x3E00], "3E00 7F 01")  # 1.5: 2^0 toward zero, inexact (0x01)
        self.assertEqual(self.read("tcvt_fp16_e8m0_RNE_satoff.tf").splitlines()[0x3E00],
                         "3E00 80 01")                  # 1.5 to nearest (sqrt 2 rule): 2^1

    def test_check_reports_the_flipped_word(self):
        lines = self.read("tcvt_fp16_e8m0_RTZ_satoff.tf").splitlines()
        lines[0x3E00] = "3E00 7E 01"
        answers = self.path("answers.txt")
        with open(answers, "w") as f:
            f.write("\n".join(lines) + "\n")
        r = ptovec("check", "--vectors", os.path.join(self.suite, "tcvt_fp16_e8m0_RTZ_satoff.tf"),
                   "--results", answers)
        self.assertEqual(r.returncode, 1, r.stdout + r.stderr)
        self.assertIn("65536 vectors: 65535 matched, 1 mismatched", r.stdout)
        self.assertIn("ptovec eval --op tcvt --src fp16 --dst e8m0 --rmode RTZ 0x3e00", r.stdout)
        # The same answers checked against the suite folder, its RTZ Sat off vectors selected.
        r = ptovec("check", "--vectors", self.suite, "--rmode", "RTZ", "--sat", "off",
                   "--results", answers)
        self.assertEqual(r.returncode, 1, r.stdout + r.stderr)
        self.assertIn("1 mismatched", r.stdout)

    def test_bad_line_is_one_error_line(self):
        text = self.read("tcvt_fp16_e8m0_RTZ_satoff.tf").replace("0002 68 00\n", "0002 0G 00\n")
        bad = self.path("bad.txt")
        with open(bad, "w") as f:
            f.write(text)
        r = ptovec("check", "--vectors", os.path.join(self.suite, "tcvt_fp16_e8m0_RTZ_satoff.tf"),
                   "--results", bad)
        self.assertEqual(r.returncode, 2, r.stdout + r.stderr)
        self.assertEqual(r.stderr.strip().splitlines(), [
            "ptovec: error: results file " + bad + " (TestFloat-style text) line 3 (tcvt fp16 -> "
            "e8m0) has a bad result (e8m0) token '0G' (accepted: 2 hex digits, 0..FF)"])
        r = ptovec("generate", *FP16_E8M0, "--format", "tf", "--out", self.path("x"))
        self.assertEqual(r.returncode, 2)
        self.assertIn("unknown --format 'tf' (accepted: bin, json, both, testfloat)", r.stderr)

    @unittest.skipUnless(ORACLE_DUT, "PTOVEC_ORACLE_DUT not set")
    def test_run_gates_a_testfloat_suite(self):
        r = ptovec("run", "--dut", ORACLE_DUT, "--vectors", self.suite, "--results",
                   self.path("results.bin"))
        self.assertEqual(r.returncode, 0, r.stdout + r.stderr)
        self.assertIn("4 files, 262144 vectors: 262144 matched", r.stdout)


if __name__ == "__main__":
    unittest.main()
