"""`ptovec diff --from 0.58.3 --to 2026-09` (issue 43's migration report): the counts of changed
vectors of a pair derived here from the two editions' rules, the simplest changed case and its
two eval lines, --out's folder (vector files of 2026-09 holding the changed vectors, which the
oracle device of 2026-09 passes), --json, the gone and new rows, and the refusals.

The expected counts are computed in this file from the rules, not by ptovec:
- 0.58.3's TCVT to a type other than E8M0 copies the source word (TileProfileConvert's raw-carrier
  rule, seed 001 lines 154-168): FP16 code c gives the FP32 word c, status 0.
- 2026-09's TCVT FP16 -> FP32 is ReferenceCommonConvert (formats.asl lines 185-204 send the pair
  there): a value FP32 holds exactly (every FP16 value, +/-0 and +/-Inf included) is that value
  with status 0; a NaN gives the default NaN 0x7fc00000, with NV (status 0x01) for a signaling
  NaN (quiet bit clear) and none for a quiet one (reference-conversion.asl lines 91-104).

Run by ctest (tests/cli/CMakeLists.txt) with Debian's /usr/bin/python3 -m pytest; the helper
ptovec_cli.py gives ptovec(*args) and this build's paths.
"""
import json
import os
import struct

from ptovec_cli import (ORACLE_DUT, ClassScratch, error_of, ptovec, read_bin_header,
                        schema_validator)

FROM_TO = ["--from", "0.58.3", "--to", "2026-09"]
FP16_FP32 = ["--op", "tcvt", "--src", "fp16", "--dst", "fp32", "--rmode", "RNE", "--sat", "off"]


def answer_0_58_3(code):
    """0.58.3's (word, status) of tcvt fp16 -> fp32: the raw word."""
    return code, 0


def answer_2026_09(code):
    """2026-09's (word, status) of tcvt fp16 -> fp32: the value, NaNs to the default NaN."""
    if code & 0x7C00 == 0x7C00 and code & 0x03FF:  # NaN
        return 0x7FC00000, 0 if code & 0x0200 else 1
    value = struct.unpack("<e", struct.pack("<H", code))[0]
    return struct.unpack("<I", struct.pack("<f", value))[0], 0


def expected_fp16_fp32():
    """{changed, word, flags, unchanged} over the 65,536 FP16 codes, one control."""
    counts = dict(changed=0, word=0, flags=0, unchanged=0)
    for code in range(1 << 16):
        (w1, s1), (w2, s2) = answer_0_58_3(code), answer_2026_09(code)
        counts["word"] += w1 != w2
        counts["flags"] += s1 != s2
        counts["changed"] += (w1, s1) != (w2, s2)
        counts["unchanged"] += (w1, s1) == (w2, s2)
    return counts


def row(stdout, name):
    """The six counts of the row of pair `name` (or 'total') of a diff report."""
    for line in stdout.splitlines():
        fields = line.split()
        if fields and fields[0] == name:
            return [int(f) for f in fields[1:7]]
    raise AssertionError(f"no row {name} in:\n{stdout}")


def refused(*args):
    """The one error line of a diff that must fail with exit 2 and print no report."""
    r = ptovec("diff", *args)
    assert r.returncode == 2, (args, r.stdout, r.stderr)
    assert r.stdout == ""
    assert r.stderr.count("\n") == 1, r.stderr
    return error_of(r).removeprefix("ptovec: error: ")


class TestDiffFp16Fp32(ClassScratch):
    """tcvt fp16 -> fp32 under RNE, Sat off: every code but +0 changes its word."""

    @classmethod
    def setup_class(cls):
        super().setup_class()
        cls.out = os.path.join(cls.tmp, "changed")
        cls.json = os.path.join(cls.tmp, "diff.json")
        cls.r = ptovec("diff", *FROM_TO, *FP16_FP32, "--out", cls.out, "--json", cls.json)

    def test_counts_equal_those_derived_from_the_rules(self):
        assert self.r.returncode == 0, self.r.stderr
        e = expected_fp16_fp32()
        # Derived by hand too: +0 alone keeps its word; the 2 * 511 signaling NaNs gain NV.
        assert (e["changed"], e["word"], e["flags"], e["unchanged"]) == (65535, 65535, 1022, 1)
        want = [65536, e["changed"], e["word"], e["flags"], e["unchanged"], 0]
        assert row(self.r.stdout, "tcvt_fp16_fp32") == want
        assert row(self.r.stdout, "total") == want

    def test_simplest_case_is_minus_zero_and_its_eval_lines_reproduce_both_answers(self):
        # The one changed input whose value is zero (shrink's order: fewest non-zero inputs
        # first) is -0, 0x8000; RNE and Sat off are the first control.
        lines = self.r.stdout.splitlines()
        i = next(k for k, line in enumerate(lines) if "simplest changed" in line)
        assert lines[i].strip() == (
            "simplest changed: in 0x8000 RNE Sat off: 0.58.3 out 0x00008000 flags 0x00 (-), "
            "2026-09 out 0x80000000 flags 0x00 (-)")
        wanted = {"0.58.3": ("0x00008000", "0x00"), "2026-09": ("0x80000000", "0x00")}
        for line, edition in zip(lines[i + 1:i + 3], ["0.58.3", "2026-09"]):
            words = line.split()
            assert words[:4] == ["ptovec", "eval", "--edition", edition], line
            r = ptovec(*words[1:])
            assert r.returncode == 0, r.stderr
            got = json.loads(r.stdout.splitlines()[0])
            assert (got["in"], got["rmode"], got["sat"]) == (["0x8000"], "RNE", False)
            assert (got["out"], got["flags"]) == wanted[edition]

    def test_json_report_says_what_the_text_says(self):
        with open(self.json) as f:
            report = json.load(f)
        assert (report["from"], report["to"], report["gone"]) == ("0.58.3", "2026-09", [])
        (pair,) = report["pairs"]
        assert [pair[k] for k in ("name", "status", "vectors", "changed", "word", "flags",
                                  "unchanged", "new")] == [
            "tcvt_fp16_fp32", "compared", 65536, 65535, 65535, 1022, 1, 0]
        assert report["total"] == {"vectors": 65536, "changed": 65535, "word": 65535,
                                   "flags": 1022, "unchanged": 1, "new": 0}
        assert report["controls"] == {"rmodes": ["RNE"], "sat": [False]}
        simplest = pair["simplest"]
        assert simplest["in"] == ["0x8000"]
        assert simplest["from"] == {"out": "0x00008000", "flags": "0x00"}
        assert simplest["to"] == {"out": "0x80000000", "flags": "0x00"}
        assert simplest["eval_to"] == (
            "ptovec eval --edition 2026-09 --op tcvt --src fp16 --dst fp32 --rmode RNE 0x8000")

    def test_out_holds_the_changed_vectors_of_2026_09_which_its_oracle_passes(self):
        with open(os.path.join(self.out, "manifest.json")) as f:
            manifest = json.load(f)
        assert (manifest["edition"], manifest["suite"]) == ("2026-09", "diff")
        assert list(schema_validator("manifest.schema.json").iter_errors(manifest)) == []
        (entry,) = manifest["files"]
        assert (entry["path"], entry["count"], entry["domain"]) == ("tcvt_fp16_fp32.bin", 65535,
                                                                     "selected")
        _, header = read_bin_header(os.path.join(self.out, "tcvt_fp16_fp32.bin"))
        assert (header["edition"], header["count"]) == ("2026-09", 65535)
        assert "ptovec: wrote 1 file, 65535 vectors and manifest.json to" in self.r.stderr
        r = ptovec("run", "--dut", ORACLE_DUT, "--dut-arg", "edition=2026-09", "--vectors",
                   self.out)
        assert r.returncode == 0, r.stdout + r.stderr
        assert "PASS" in r.stdout


class TestDiffRows:
    """Unchanged, new and gone pairs, determinism, the refusals."""

    def test_fp16_to_e8m0_is_unchanged(self):
        # Both editions take an E8M0 destination by exponent rounding (0.58.3's
        # ReferenceFloatToE8M0; 2026-09's TCVT routes the pair to the same rule).
        r = ptovec("diff", *FROM_TO, "--op", "tcvt", "--src", "fp16", "--dst", "e8m0", "--rmode",
                   "RTZ", "--sat", "off")
        assert r.returncode == 0, r.stderr
        assert row(r.stdout, "tcvt_fp16_e8m0") == [65536, 0, 0, 0, 65536, 0]
        assert "simplest" not in r.stdout

    def test_a_pair_new_in_2026_09_is_all_new(self):
        # E6M2 is not a type of 0.58.3: every vector of fp16 -> e6m2 (65,536 codes, RNE Sat off)
        # is new.
        r = ptovec("diff", *FROM_TO, "--op", "tcvt", "--src", "fp16", "--dst", "e6m2", "--rmode",
                   "RNE", "--sat", "off")
        assert r.returncode == 0, r.stderr
        assert row(r.stdout, "tcvt_fp16_e6m2") == [65536, 0, 0, 0, 0, 65536]
        assert "(new: not in 0.58.3)" in r.stdout

    def test_retired_tquant_is_listed_gone_with_its_vectors(self):
        # 0.58.3's default suite has tquant fp32 -> u8 (retired in 2026-09): 7 sampled tuples
        # under one control are 7 vectors.
        args = [*FROM_TO, "--src", "fp32", "--dst", "u8", "--samples", "7", "--rmode", "RNE",
                "--sat", "off"]
        r = ptovec("diff", *args, "--threads", "1")
        assert r.returncode == 0, r.stderr
        gone = [line for line in r.stdout.splitlines() if line.startswith("tquant_fp32_u8")]
        assert len(gone) == 1 and gone[0].split()[1] == "7", r.stdout
        assert "gone: retired by ADR-TILE-0013" in gone[0]
        assert "gone: 1 pair of 0.58.3's selection, 7 vectors" in r.stdout
        assert ptovec("diff", *args, "--threads", "2").stdout == r.stdout  # threads change nothing

    def test_refusals(self):
        assert refused("--from", "0.58.4", "--to", "2026-09") == (
            "unknown --from '0.58.4' (accepted: 0.58.3, 2026-09)")
        assert refused("--from", "0.58.3", "--to", "2027") == (
            "unknown --to '2027' (accepted: 0.58.3, 2026-09)")
        assert refused("--from", "2026-09", "--to", "2026-09") == (
            "--from and --to are both 2026-09 (give two different editions: 0.58.3, 2026-09)")
        assert "no pair of the default suite matches --src 'e6m2' --dst 's8'" in refused(
            *FROM_TO, "--src", "e6m2", "--dst", "s8")
        assert "tquant" in refused(*FROM_TO, "--op", "tquant")
        assert "--to" in refused("--from", "0.58.3")
