"""A device that implements another edition of the specification (issue 43): the oracle device
answers 0.58.3's rules unless loaded with `--dut-arg edition=2026-09`, so it is a device that
implements 0.58.3's TCVT. It passes 0.58.3's vectors and fails 2026-09's, and the diagnosis names
the cause, "the rules of edition 0.58.3" (and the reverse for a 2026-09 device on 0.58.3's).

The counts are derived by hand: TCVT FP16 -> FP32 is the raw word in 0.58.3 (seed
001_c13013f58bb35bbc.txt lines 154-168: the FP16 word in the FP32 word's low half) and the value
in 2026-09 (ReferenceCommonConvert, reference-conversion.asl lines 142-176 at 01445483). The two
agree only on +0 (word 0 either way): every other FP16 code's value is 0 or at least 2^-24 in
magnitude, whose FP32 word is at least 0x33800000 or has the sign bit, never a word below 0x10000.
So 65,535 codes x 2 controls (RNE and RTZ, Sat off: the files hold those two, as 2026-09's TCVT
answers by its literal form, about 20,000 vectors a second) = 131,070 vectors differ. TCVT to
E8M0 (ReferenceFloatToE8M0) is the same text in both editions: no vector of it differs.
"""
import json
import os
import re

from ptovec_cli import ORACLE_DEVICE, ORACLE_DUT, ClassScratch, generate, ptovec

ED = ["--edition", "2026-09"]
PAIRS = [("fp16", "fp32"), ("fp16", "e8m0")]
CONTROLS = ["--rmode", "RNE,RTZ", "--sat", "off"]
VECTORS = 2 * 65536 * 2
CHANGED = 65535 * 2


def causes_of(stdout):
    """[(number, text, vectors, groups)] of a run's diagnosis, as printed."""
    return re.findall(r"^  cause (\d+): (.*): (\d+) vectors? in (\d+) symptom groups?$", stdout,
                      re.M)


class TestADeviceOfAnotherEdition(ClassScratch):
    @classmethod
    def setup_class(cls):
        super().setup_class()
        cls.v0 = os.path.join(cls.tmp, "v0")
        cls.v26 = os.path.join(cls.tmp, "v26")
        for src, dst in PAIRS:
            generate(cls.v0, "--op", "tcvt", "--src", src, "--dst", dst, *CONTROLS)
            generate(cls.v26, *ED, "--op", "tcvt", "--src", src, "--dst", dst, *CONTROLS)

    def run_on(self, vectors, *dut_args, tag):
        report = os.path.join(self.tmp, f"{tag}.json")
        r = ptovec("run", "--dut", ORACLE_DUT, *dut_args, "--vectors", vectors, "--results",
                   os.path.join(self.tmp, f"{tag}.bin"), "--report-json", report)
        with open(report) as f:
            return r, json.load(f)

    def test_the_0_58_3_device_passes_0_58_3(self):
        r, _ = self.run_on(self.v0, tag="v0")
        assert r.returncode == 0, r.stdout + r.stderr
        assert (f"2 files, {VECTORS} vectors: {VECTORS} matched, 0 mismatched, 0 unsupported"
                in r.stdout)

    def test_the_0_58_3_device_fails_2026_09_by_one_cause(self):
        r, report = self.run_on(self.v26, tag="v26")
        assert r.returncode == 1, r.stdout + r.stderr
        assert (f"2 files, {VECTORS} vectors: {VECTORS - CHANGED} matched, {CHANGED} mismatched, "
                "0 unsupported") in r.stdout
        causes = causes_of(r.stdout)
        assert [c[:3] for c in causes] == [("1", "the rules of edition 0.58.3", str(CHANGED))]
        assert f"diagnosis: 1 cause of {CHANGED} mismatched vectors" in r.stdout
        # The JSON report says the same, and every failing vector is of FP16 -> FP32.
        assert [(c["text"], c["vectors"]) for c in report["causes"]] == [
            ("the rules of edition 0.58.3", CHANGED)]
        # The cause's first vector reproduces in both editions: FP16 0x0001 (2^-24) is FP32
        # 0x33800000 by value (exponent -24 + 127 = 0x67) and 0x00000001 as the raw word.
        line = "ptovec eval --edition 2026-09 --op tcvt --src fp16 --dst fp32 --rmode RNE 0x0001"
        assert line in r.stdout
        args = line.split()[1:]
        assert json.loads(ptovec(*args).stdout)["out"] == "0x33800000"
        args[args.index("2026-09")] = "0.58.3"
        assert json.loads(ptovec(*args).stdout)["out"] == "0x00000001"

    def test_a_2026_09_device_fails_0_58_3_by_the_other_edition(self):
        r, report = self.run_on(self.v0, "--dut-arg", "edition=2026-09", tag="v0-by-2026-09")
        assert r.returncode == 1, r.stdout + r.stderr
        assert [c[:3] for c in causes_of(r.stdout)] == [
            ("1", "the rules of edition 2026-09", str(CHANGED))]
        assert [(c["text"], c["vectors"]) for c in report["causes"]] == [
            ("the rules of edition 2026-09", CHANGED)]

    def test_shrink_takes_the_edition(self):
        # `shrink --op --edition 2026-09` searches 2026-09's input space against 2026-09's
        # answers: the 0.58.3 device's simplest failure of FP16 -> FP32 is -0 (0x8000: no
        # significant bit; +0 passes), by value FP32 -0 (0x80000000), copied raw as 0x00008000.
        out = os.path.join(self.tmp, "shrunk26.bin")
        r = ptovec("shrink", "--dut", ORACLE_DUT, "--op", "tcvt", *ED, "--src", "fp16", "--dst",
                   "fp32", "--rmode", "RNE", "--sat", "off", "--out", out, "--json")
        assert r.returncode == 1, r.stdout + r.stderr
        j = json.loads(r.stdout)
        assert (j["counterexample"]["in"], j["counterexample"]["expected"]["out"],
                j["counterexample"]["got"]["out"]) == ({"value": "0x8000"}, "0x80000000", "0x00008000"), j
        # The file is a 2026-09 vector file the 2026-09 oracle passes.
        assert ptovec("run", "--dut", ORACLE_DUT, "--dut-arg", "edition=2026-09", "--vectors",
                      out, "--results", out + ".results").returncode == 0
        # --from a 2026-09 results file: --op names 2026-09's tcvt; --edition must agree.
        results = os.path.join(self.tmp, "v26.bin")
        self.run_on(self.v26, tag="v26")
        r = ptovec("shrink", "--dut", ORACLE_DUT, "--from", results, "--op", "tcvt", "--src",
                   "fp16", "--dst", "fp32", "--json", "--out", out + ".from")
        assert r.returncode == 1, r.stdout + r.stderr
        assert json.loads(r.stdout)["results"][0]["counterexample"]["in"] == {"value": "0x8000"}
        bad = ptovec("shrink", "--dut", ORACLE_DUT, "--from", results, "--edition", "0.58.3")
        assert bad.returncode == 2
        assert bad.stderr == (f"ptovec: error: results file {results} is of edition 2026-09, "
                              "--edition says 0.58.3\n")

    def test_the_oracle_program_takes_the_edition(self):
        # The line-protocol oracle (ptovec-oracle-device) answers 0.58.3 unless --edition says
        # otherwise: the same one cause over 2026-09's vectors, and a pass with --edition 2026-09.
        results = os.path.join(self.tmp, "program.bin")
        r = ptovec("run", "--dut-cmd", ORACLE_DEVICE, "--vectors", self.v26, "--results", results)
        assert r.returncode == 1, r.stdout + r.stderr
        assert [c[:3] for c in causes_of(r.stdout)] == [
            ("1", "the rules of edition 0.58.3", str(CHANGED))]
        # shrink --from those results with another device that passes: not reproducible, and
        # the line says the results are another device's.
        r = ptovec("shrink", "--dut-cmd", f"{ORACLE_DEVICE} --edition 2026-09 --name other",
                   "--from", results, "--out", results + ".shrunk")
        assert r.returncode == 2, r.stdout + r.stderr
        assert r.stderr.rstrip("\n").endswith(
            "; the results are of device ptovec-oracle, not other (--dut): `ptovec run --dut` "
            "this device first to shrink its failures"), r.stderr
        r = ptovec("run", "--dut-cmd", f"{ORACLE_DEVICE} --edition 2026-09", "--vectors", self.v26,
                   "--results", results)
        assert r.returncode == 0, r.stdout + r.stderr
        assert f"{VECTORS} vectors: {VECTORS} matched, 0 mismatched" in r.stdout
