"""Editions in files (issue 43, second slice): `generate --edition 2026-09` writes that edition's
vector files and manifest with "edition": "2026-09", the readers take them back (type names of
2026-09 included) and refuse an unknown edition, run and check carry the edition into results
files, reports and JUnit and refuse a results file of another edition than its vectors, a folder
or a merge never mixes editions; edition 0.58.3's files stay byte for byte what they were.

The expected answers of the 2026-09 records are derived by hand from the ASL (files of commit
01445483 unless said otherwise, as in test_edition.py), never computed by ptovec.

Run by ctest (tests/cli/CMakeLists.txt) with Debian's /usr/bin/python3 -m pytest; the helper
ptovec_cli.py gives ptovec(*args) and this build's paths.
"""
import json
import os
import shutil

import pytest
from ptovec_cli import (ORACLE_DUT, SOURCE, ClassScratch, error_of, files, generate, ptovec,
                        read_bin_header, schema_validator, sha256)

ED = ["--edition", "2026-09"]
RUN_2026_09 = ["--dut", ORACLE_DUT, "--dut-arg", "edition=2026-09"]


def json_file(path):
    """(header, records) of a JSON vector file."""
    with open(path) as f:
        whole = json.load(f)
    return {k: v for k, v in whole.items() if k != "vectors"}, whole["vectors"]


def record(records, word, rmode="RNE", sat=False):
    """(out, flags) of the record of input `word` under (rmode, sat)."""
    for r in records:
        if r["in"] == [word] and r["rmode"] == rmode and r["sat"] == sat:
            return r["out"], r["flags"]
    raise AssertionError(f"no record of {word} {rmode} sat {sat}")


def refused(*args):
    """The one error line of a command that must fail with exit 2."""
    r = ptovec(*args)
    assert r.returncode == 2, (args, r.stdout, r.stderr)
    return error_of(r)


class TestFiles2026_09(ClassScratch):
    """Vector files, manifests and results of edition 2026-09."""

    @classmethod
    def setup_class(cls):
        super().setup_class()
        cls.e8m0 = os.path.join(cls.tmp, "e8m0")
        cls.manifest = generate(cls.e8m0, *ED, "--op", "tcvt", "--src", "e8m0", "--dst", "fp32",
                                "--format", "both")
        cls.new_types = os.path.join(cls.tmp, "new_types")
        for src, dst in (("e6m2", "fp16"), ("rcpe6m2", "bf16"), ("e2m1x2", "fp32")):
            generate(cls.new_types, *ED, "--op", "tcvt", "--src", src, "--dst", dst,
                     "--format", "json")

    def test_headers_and_manifest_name_the_edition(self):
        assert self.manifest["edition"] == "2026-09"
        assert list(self.manifest)[:6] == ["format", "version", "tool", "tool_version", "edition",
                                           "suite"]
        _, header = read_bin_header(os.path.join(self.e8m0, "tcvt_e8m0_fp32.bin"))
        assert header["edition"] == "2026-09"
        header, _ = json_file(os.path.join(self.e8m0, "tcvt_e8m0_fp32.json"))
        assert header["edition"] == "2026-09" and list(header)[3] == "edition"

    def test_records_hold_the_hand_derived_answers(self):
        # E8M0 -> FP32: ReferenceTCVTConvertFromE8M0, tcvt-conversion.asl lines 140-157: code c
        # is 2^(c - 127). 0x80 is 2^1: FP32 0x40000000; 0x00 is 2^-127, FP32's subnormal
        # 0x00400000 exactly, no flag; 0xff is the canonical NaN 0x7fc00000 with no NV (lines
        # 147-152). Every mode and Sat gives the same (the values are exact).
        _, records = json_file(os.path.join(self.e8m0, "tcvt_e8m0_fp32.json"))
        for rmode, sat in (("RNE", False), ("RTZ", True)):
            assert record(records, "0x80", rmode, sat) == ("0x40000000", "0x00")
            assert record(records, "0x00", rmode, sat) == ("0x00400000", "0x00")
            assert record(records, "0xff", rmode, sat) == ("0x7fc00000", "0x00")
        # E2M1X2 -> FP32: a lane is one 4-bit code (e2m1x2.asl: 0x7 is exponent 3, fraction 1:
        # 1.5 * 2^(3 - 1) = 6; 0xf is -6): FP32 6.0 is 0x40c00000.
        _, records = json_file(os.path.join(self.new_types, "tcvt_e2m1x2_fp32.json"))
        assert record(records, "0x7") == ("0x40c00000", "0x00")
        assert record(records, "0xf") == ("0xc0c00000", "0x00")

    def test_records_equal_eval_batch_of_their_inputs(self):
        # `eval --edition 2026-09 --batch` over every record of the new types' files gives the
        # file's answers, and the JSON files read back with their 2026-09 type names.
        for name in ("tcvt_e6m2_fp16.json", "tcvt_rcpe6m2_bf16.json", "tcvt_e2m1x2_fp32.json"):
            header, records = json_file(os.path.join(self.new_types, name))
            lines = "".join(
                f"--op tcvt --src {header['src']} --dst {header['dst']} --rmode {r['rmode']}"
                f"{' --sat' if r['sat'] else ''} {r['in'][0]}\n" for r in records)
            r = ptovec("eval", *ED, "--batch", "-", stdin=lines)
            assert r.returncode == 0, r.stderr
            got = [json.loads(line) for line in r.stdout.splitlines()]
            assert [(g["out"], g["flags"]) for g in got] == [(x["out"], x["flags"])
                                                             for x in records], name
            assert {g["edition"] for g in got} == {"2026-09"}
        header, _ = json_file(os.path.join(self.new_types, "tcvt_e6m2_fp16.json"))
        assert header["controls"] == [{"rmode": "RNE", "sat": False}, {"rmode": "RNE", "sat": True},
                                      {"rmode": "RNA", "sat": False}, {"rmode": "RNA", "sat": True}]

    def test_files_match_their_schemas(self):
        vectors = schema_validator("vectors.schema.json")
        for name in ("tcvt_e6m2_fp16.json", "tcvt_e2m1x2_fp32.json"):
            with open(os.path.join(self.new_types, name)) as f:
                vectors.validate(json.load(f))
        with open(os.path.join(self.new_types, "manifest.json")) as f:
            schema_validator("manifest.schema.json").validate(json.load(f))
        line = json.loads(ptovec("eval", *ED, "--op", "tcvt", "--src", "e6m2", "--dst", "fp16",
                                 "0xc1").stdout)
        schema_validator("eval-line.schema.json").validate(line)

    def test_oracle_device_of_the_edition_passes_and_reports_carry_it(self):
        out = os.path.join(self.tmp, "run")
        os.makedirs(out, exist_ok=True)
        junit, report = os.path.join(out, "j.xml"), os.path.join(out, "r.json")
        results = os.path.join(out, "results.bin")
        r = ptovec("run", *RUN_2026_09, "--vectors", self.new_types, "--results", results,
                   "--junit", junit, "--report-json", report)
        assert r.returncode == 0, r.stdout + r.stderr
        assert "environment: ptovec " in r.stdout and ", spec edition 2026-09, " in r.stdout
        _, header = read_bin_header(results)
        assert header["edition"] == "2026-09"
        # The Python reader takes the edition from the file and refuses another one asked for.
        assert files.edition_of(files.read_results(results, edition="2026-09")[0]) == "2026-09"
        with pytest.raises(files.ResultsFileError, match="is of edition 2026-09, edition= says "
                                                         "0.58.3"):
            files.read_results(results, edition="0.58.3")
        with open(report) as f:
            assert json.load(f)["environment"]["spec_edition"] == "2026-09"
        with open(junit) as f:
            assert f.read().count('<property name="ptovec.edition" value="2026-09"/>') == 3
        r = ptovec("check", "--vectors", self.new_types, "--results", results)
        assert r.returncode == 0, r.stdout + r.stderr

    def test_oracle_device_without_the_edition_answers_0_58_3(self):
        # The device ABI carries no edition: the oracle device answers 0.58.3's rules unless told
        # `--dut-arg edition=2026-09`; 0.58.3 has no E6M2, so every vector is unsupported.
        r = ptovec("run", "--dut", ORACLE_DUT, "--vectors", self.new_types, "--op", "tcvt",
                   "--src", "e6m2", "--results", os.path.join(self.tmp, "plain.bin"))
        assert r.returncode == 1
        assert "1024 vectors: 0 matched, 0 mismatched, 1024 unsupported" in r.stdout

    def test_run_op_generates_the_edition(self):
        work = os.path.join(self.tmp, "work")
        r = ptovec("run", *RUN_2026_09, *ED, "--op", "tcvt", "--src", "e8m0", "--dst", "fp16",
                   "--work", work, "--quiet")
        assert r.returncode == 0, r.stdout + r.stderr
        with open(os.path.join(work, "manifest.json")) as f:
            assert json.load(f)["edition"] == "2026-09"

    def test_results_of_another_edition_are_refused(self):
        plain = os.path.join(self.tmp, "plain_e8m0")
        generate(plain, "--op", "tcvt", "--src", "e8m0", "--dst", "fp32")
        results = os.path.join(self.tmp, "r26.bin")
        assert ptovec("run", *RUN_2026_09, "--vectors", self.e8m0, "--results", results,
                      "--quiet").returncode == 0
        assert refused("check", "--vectors", plain, "--results", results) == (
            f"ptovec: error: results file {results} is of edition 2026-09, vector file "
            f"{plain}/tcvt_e8m0_fp32.bin of edition 0.58.3 (check results against the vectors "
            "of the edition they were run on)")
        assert refused("check", "--vectors", self.e8m0, "--results", results, "--edition",
                       "0.58.3") == (f"ptovec: error: vector file {self.e8m0}/tcvt_e8m0_fp32.bin"
                                     " is of edition 2026-09, --edition says 0.58.3")

    def test_a_folder_holds_one_edition(self):
        assert refused("generate", "--op", "tcvt", "--src", "e8m0", "--dst", "fp16", "--out",
                       self.e8m0, "--quiet") == (
            f"ptovec: error: --out {self.e8m0} holds a suite of edition 2026-09 (2 files), this "
            "run writes edition 0.58.3; a folder holds one edition (give another --out, or "
            "delete the folder first)")

    def test_unknown_editions_are_refused(self):
        bad = os.path.join(self.tmp, "bad")
        os.makedirs(bad, exist_ok=True)
        with open(os.path.join(self.new_types, "tcvt_e6m2_fp16.json")) as f:
            text = f.read().replace('"edition":"2026-09"', '"edition":"2099-01"', 1)
        with open(os.path.join(bad, "t.json"), "w") as f:
            f.write(text)
        assert refused("run", "--dut", ORACLE_DUT, "--vectors", os.path.join(bad, "t.json"),
                       "--results", os.path.join(bad, "r.bin")) == (
            f"ptovec: error: vector file {bad}/t.json has \"edition\" \"2099-01\" (accepted: "
            "0.58.3, 2026-09; no key: 0.58.3)")
        copy = os.path.join(self.tmp, "bad_manifest")
        shutil.copytree(self.new_types, copy)
        with open(os.path.join(copy, "manifest.json")) as f:
            manifest = f.read().replace('"edition": "2026-09"', '"edition": "2099-01"')
        with open(os.path.join(copy, "manifest.json"), "w") as f:
            f.write(manifest)
        assert '("edition" "2099-01" is not an edition (accepted: 0.58.3, 2026-09; no key: ' \
               "0.58.3);" in refused("coverage", "--vectors", copy)

    def test_testfloat_and_merge_refuse_the_edition(self):
        assert refused("generate", *ED, "--op", "tcvt", "--src", "e8m0", "--dst", "fp32",
                       "--format", "testfloat", "--out", os.path.join(self.tmp, "tf")) == (
            "ptovec: error: --format testfloat is of edition 0.58.3 only (its files have no "
            "header to record --edition 2026-09); accepted with --edition 2026-09: bin, json, "
            "both")
        shard0, shard1 = os.path.join(self.tmp, "s0"), os.path.join(self.tmp, "s1")
        generate(shard0, "--op", "tcvt", "--src", "e8m0", "--dst", "fp32", "--shard", "0/2")
        generate(shard1, *ED, "--op", "tcvt", "--src", "e8m0", "--dst", "fp32", "--shard", "1/2")
        assert refused("merge", shard0, shard1, "--out", os.path.join(self.tmp, "m")) == (
            f"ptovec: error: mismatched shards: 1/2 ({shard1}) is of edition 2026-09, 0/2 "
            f"({shard0}) of edition 0.58.3 (merge joins one run's shards)")


class TestFiles0_58_3Unchanged(ClassScratch):
    """Edition 0.58.3 (the default) writes no "edition": its files are byte for byte today's."""

    def test_smoke_pair_is_the_committed_file(self):
        # vectors/smoke is `generate --suite smoke --format both` (scripts/regenerate-smoke); one
        # pair's smoke selection is the pair's own, so its files are the committed ones.
        out = os.path.join(self.tmp, "smoke")
        manifest = generate(out, "--suite", "smoke", "--op", "tcvt", "--src", "fp16", "--dst",
                            "e8m0", "--format", "both")
        assert "edition" not in manifest
        for name in ("tcvt_fp16_e8m0.bin", "tcvt_fp16_e8m0.json"):
            assert sha256(os.path.join(out, name)) == sha256(
                os.path.join(SOURCE, "vectors", "smoke", name)), name

    def test_results_have_no_edition_and_reports_say_0_58_3(self):
        junit = os.path.join(self.tmp, "j.xml")
        results = os.path.join(self.tmp, "r.bin")
        smoke = os.path.join(SOURCE, "vectors", "smoke", "tcvt_fp16_e8m0.bin")
        r = ptovec("run", "--dut", ORACLE_DUT, "--vectors", smoke, "--results", results,
                   "--junit", junit)
        assert r.returncode == 0, r.stdout + r.stderr
        assert ", spec edition 0.58.3, " in r.stdout
        _, header = read_bin_header(results)
        assert "edition" not in header
        with open(junit) as f:
            assert '<property name="ptovec.edition" value="0.58.3"/>' in f.read()


class TestStrategies2026_09(ClassScratch):
    """An FP32 source converted by value takes encode's strategies: the destination's edges."""

    def test_fp32_to_fp16_holds_the_overflow_edge_and_the_specials(self):
        out = os.path.join(self.tmp, "fp32_fp16")
        manifest = generate(out, *ED, "--op", "tcvt", "--src", "fp32", "--dst", "fp16",
                            "--samples", "2000", "--rmode", "RNE", "--sat", "off",
                            "--format", "json")
        names = [s["name"] for s in manifest["files"][0]["strategies"]]
        assert "fp32_directed_overflow_thresholds" in names and "fp32_specials" in names, names
        _, records = json_file(os.path.join(out, "tcvt_fp32_fp16.json"))
        # By hand (ReferenceCommonConvert, RNE, Sat off): 65504 is FP16's largest finite
        # (0x7bff, exact); 65520 = 65504 + 16, half of its ulp 32, is a tie to even whose even
        # neighbour is 65536: overflow to +Inf with OF|NX; just below it, 65519.996..., NX only.
        assert record(records, "0x477fe000") == ("0x7bff", "0x00")
        assert record(records, "0x477ff000") == ("0x7c00", "0x14")
        assert record(records, "0x477fefff") == ("0x7bff", "0x10")
        # The specials encode's domain leaves out: +Inf stays +Inf, a quiet NaN is FP16's NaN.
        assert record(records, "0x7f800000") == ("0x7c00", "0x00")
