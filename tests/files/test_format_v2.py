#!/usr/bin/python3
"""File format version 2: control filters, shards and `ptovec merge`; version 1 still read.

- `generate --rmode/--sat` writes only those controls, listed in each header in record order; an
  op without controls keeps its one; the files validate against the committed schemas.
- `generate --shard K/N`, run as N separate processes by GNU parallel, and `ptovec merge` give
  files and a manifest byte-identical to the unsharded run's; merge refuses missing, overlapping,
  mismatched and corrupted shards with one line each.
- A version 1 file (the header of ptovec 0.1.0 before version 2: "controls": "all", no "inputs",
  no field bits) is still read: `run` passes it against the oracle device.

Run by ctest with Debian's /usr/bin/python3; PTOVEC, PTOVEC_SOURCE_DIR and PTOVEC_ORACLE_DUT come
from the environment (or --ptovec PATH --source DIR before the unittest arguments).
"""
import filecmp
import json
import os
import shutil
import struct
import subprocess
import tempfile
import unittest

import numpy as np

from ptovec_test_env import locate, schema_validator

PTOVEC, SOURCE = locate("test_format_v2.py")
ORACLE_DUT = os.environ.get("PTOVEC_ORACLE_DUT")

import sys  # noqa: E402
sys.path.insert(0, os.path.join(SOURCE, "python"))
from ptovec import files  # noqa: E402  (python/ptovec/files: the readers)

FIXED = struct.Struct("<8sHHIQQ")
MODES = ["RNE", "RTM", "RTP", "RTZ", "RNA", "RTO", "RHB"]


def ptovec(*args, cwd=None):
    env = dict(os.environ, CI="1")
    return subprocess.run([PTOVEC, *map(str, args)], capture_output=True, text=True, timeout=600,
                          env=env, cwd=cwd)


def error_of(result):
    """The one error line of a failed command (exit 2)."""
    lines = result.stderr.strip().splitlines()
    return lines[-1] if lines else ""


def read_bin_header(path):
    with open(path, "rb") as f:
        fixed = FIXED.unpack(f.read(FIXED.size))
        return fixed, json.loads(f.read(fixed[3]))


class FormatV2Test(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.validators = {name: schema_validator(SOURCE, name + ".schema.json")
                          for name in ("vectors", "binary-header", "manifest")}

    def setUp(self):
        self.tmp = tempfile.mkdtemp(prefix="ptovec-v2-")

    def tearDown(self):
        shutil.rmtree(self.tmp, ignore_errors=True)

    def path(self, *names):
        return os.path.join(self.tmp, *names)

    def generate(self, out, *args):
        r = ptovec("generate", "--out", self.path(out), "--quiet", *args)
        self.assertEqual(r.returncode, 0, r.stderr)
        with open(self.path(out, "manifest.json")) as f:
            return json.load(f)

    def assert_valid(self, schema, document):
        errors = [e.message[:200] for e in self.validators[schema].iter_errors(document)][:3]
        self.assertEqual(errors, [], schema)

    # ---- control filters ----

    def test_control_filter_writes_only_the_chosen_controls(self):
        manifest = self.generate("f", "--op", "tcvt", "--src", "fp16", "--dst", "e8m0",
                                 "--rmode", "RTZ,RNE", "--sat", "on", "--format", "both")
        self.assert_valid("manifest", manifest)
        self.assertEqual(manifest["controls"], {"rmodes": ["RNE", "RTZ"], "sat": [True]})
        header, records = files.read_vectors(self.path("f", "tcvt_fp16_e8m0.bin"))
        self.assert_valid("binary-header", header)
        self.assertEqual(header["controls"], [{"rmode": "RNE", "sat": True},
                                              {"rmode": "RTZ", "sat": True}])
        self.assertEqual((header["inputs"], header["count"], len(records)), (65536, 131072, 131072))
        self.assertTrue((records["rmode"] == np.tile([0, 3], 65536)).all())
        self.assertTrue((records["sat"] == 1).all())
        # 0x3e00 is 1.5: RNE gives 2^1 (0x80), RTZ 2^0 (0x7f), both inexact.
        i = 0x3E00 * 2
        self.assertEqual([(int(records["out"][i + k]), int(records["flags"][i + k])) for k in (0, 1)],
                         [(0x80, 0x10), (0x7F, 0x10)])
        with open(self.path("f", "tcvt_fp16_e8m0.json")) as f:
            document = json.load(f)
        self.assert_valid("vectors", document)
        self.assertEqual(len(document["vectors"]), 131072)
        # The library reads it back and the oracle device agrees with every vector.
        if ORACLE_DUT:
            r = ptovec("run", "--dut", ORACLE_DUT, "--vectors", self.path("f"), "--quiet")
            self.assertEqual(r.returncode, 0, r.stdout + r.stderr)
            self.assertIn("1 file, 131072 vectors: 131072 matched", r.stdout)

    def test_an_op_without_controls_keeps_its_one(self):
        manifest = self.generate("s", "--op", "shift", "--samples", 100, "--rmode", "RTZ")
        header, records = files.read_vectors(self.path("s", "shift_s32_s16.bin"))
        self.assertEqual(header["controls"], [{"rmode": "RNE", "sat": False}])
        self.assertEqual(len(records), 100)
        self.assertEqual(manifest["controls"]["rmodes"], ["RTZ"])

    def test_bad_filters_and_shards_are_one_line_errors(self):
        for args, expected in (
                (["--rmode", "RTZ,RNX"], "unknown --rmode 'RNX' (accepted: RNE RTM RTP RTZ RNA RTO RHB"),
                (["--sat", "maybe"], "unknown --sat 'maybe' (accepted: off, on, both)"),
                (["--shard", "4/4"], "--shard '4/4': K must be below N (K counts from 0: 0/4 .. 3/4)"),
                (["--shard", "1"], "--shard '1' is not K/N"),
                (["--shard", "0/0"], "--shard '0/0' is not K/N")):
            r = ptovec("generate", "--op", "shift", "--out", self.path("bad"), *args)
            self.assertEqual(r.returncode, 2, args)
            self.assertIn(expected, error_of(r))
            self.assertFalse(os.path.exists(self.path("bad", "manifest.json")))

    def test_records_out_of_the_header_control_order_are_refused(self):
        self.generate("o", "--op", "tcvt", "--src", "fp16", "--dst", "e8m0", "--rmode", "RNE,RTP")
        path = self.path("o", "tcvt_fp16_e8m0.bin")
        fixed, header = read_bin_header(path)
        data = fixed[5]
        with open(path, "r+b") as f:  # record 5's rmode byte: RTP (2) where RNE (0) belongs
            f.seek(data + 5 * header["record_size"] + 2)
            f.write(bytes([0]))
            f.seek(data + 4 * header["record_size"] + 2)
            f.write(bytes([2]))
        if not ORACLE_DUT:
            self.skipTest("PTOVEC_ORACLE_DUT is not set")
        r = ptovec("run", "--dut", ORACLE_DUT, "--vectors", path, "--results", self.path("r.bin"))
        self.assertEqual(r.returncode, 2)
        self.assertIn("record 4 has control RTP Sat off where the header's controls put RNE Sat off",
                      error_of(r))

    # ---- shards and merge ----

    def test_shards_run_by_gnu_parallel_merge_to_the_unsharded_files(self):
        if shutil.which("parallel") is None:
            self.skipTest("GNU parallel is not installed (Debian: parallel)")
        selection = ["--op", "encode", "--src", "fp32", "--samples", 3000, "--format", "both",
                     "--seed", 9]
        whole = self.generate("whole", *selection)
        # Four shards, each its own process, as a job-array engine would run them.
        command = [shutil.which("parallel"), "--will-cite", "--halt", "now,fail=1", "-j", "4",
                   PTOVEC, "generate", *map(str, selection), "--quiet", "--shard", "{}/4",
                   "--out", self.path("shard{}"), ":::", "0", "1", "2", "3"]
        r = subprocess.run(command, capture_output=True, text=True, timeout=600,
                           env=dict(os.environ, CI="1"))
        self.assertEqual(r.returncode, 0, r.stderr)
        shard = self.generate_manifest("shard2")
        self.assert_valid("manifest", shard)
        self.assertEqual(shard["shard"], {"index": 2, "of": 4})
        header, records = files.read_vectors(self.path("shard2", "encode_fp32_fp16.bin"))
        self.assert_valid("binary-header", header)
        self.assertEqual(header["shard"], {"index": 2, "of": 4, "first_input": 1500, "inputs": 750,
                                           "first_record": 21000, "total_records": 42000})
        self.assertEqual(len(records), 750 * 14)
        r = ptovec("merge", self.path("shard3"), self.path("shard1"), self.path("shard0"),
                   self.path("shard2"), "--out", self.path("merged"))
        self.assertEqual(r.returncode, 0, r.stderr)
        compare = filecmp.dircmp(self.path("whole"), self.path("merged"))
        self.assertEqual((compare.left_only, compare.right_only), ([], []))
        names = sorted(os.listdir(self.path("whole")))
        self.assertEqual(len(names), 27)  # 13 pairs x (bin, json) + manifest.json
        _, mismatch, errors = filecmp.cmpfiles(self.path("whole"), self.path("merged"), names,
                                               shallow=False)
        self.assertEqual((mismatch, errors), ([], []))
        self.assertEqual(whole, self.generate_manifest("merged"))

    def test_results_of_shard_runs_merge_to_the_unsharded_runs(self):
        if shutil.which("parallel") is None:
            self.skipTest("GNU parallel is not installed (Debian: parallel)")
        if not ORACLE_DUT:
            self.skipTest("PTOVEC_ORACLE_DUT is not set")
        selection = ["--op", "tcvt", "--dst", "e8m0", "--samples", 2000, "--seed", 4]
        self.generate("whole", *selection)
        for fmt, name in (("bin", "results.bin"), ("json", "results.jsonl")):
            for folder in ["whole"] + [f"shard{k}" for k in range(3)]:
                path = self.path(folder, name)
                if os.path.exists(path):
                    os.remove(path)
            r = ptovec("run", "--dut", ORACLE_DUT, "--vectors", self.path("whole"), "--format",
                       fmt, "--rmode", "RNE,RHB", "--quiet")
            self.assertEqual(r.returncode, 0, r.stdout + r.stderr)
            # Generate and run each shard in its own process, as a job array would.
            command = [shutil.which("parallel"), "--will-cite", "--halt", "now,fail=1", "-j", "3",
                       f"'{PTOVEC}' generate {' '.join(map(str, selection))} --quiet --shard {{}}/3 "
                       f"--out '{self.path('shard')}{{}}' && '{PTOVEC}' run --dut '{ORACLE_DUT}' "
                       f"--vectors '{self.path('shard')}{{}}' --format {fmt} --rmode RNE,RHB "
                       f"--quiet", ":::", "0", "1", "2"]
            r = subprocess.run(command, capture_output=True, text=True, timeout=600,
                               env=dict(os.environ, CI="1"))
            self.assertEqual(r.returncode, 0, r.stdout + r.stderr)
            shutil.rmtree(self.path("merged"), ignore_errors=True)
            r = ptovec("merge", *[self.path(f"shard{k}") for k in (2, 0, 1)], "--out",
                       self.path("merged"))
            self.assertEqual(r.returncode, 0, r.stderr)
            self.assertIn("and their results in", r.stderr)
            self.assertTrue(filecmp.cmp(self.path("whole", name), self.path("merged", name),
                                        shallow=False), fmt)
            r = ptovec("check", "--vectors", self.path("merged"), "--results",
                       self.path("merged", name))
            self.assertEqual(r.returncode, 0, r.stdout + r.stderr)
            # FP16 and BF16 every code, FP32 2000 samples; RNE and RHB, Sat off and on.
            self.assertIn("3 files, 532288 vectors: 532288 matched", r.stdout)
            for k in range(3):
                shutil.rmtree(self.path(f"shard{k}"))
        # A shard without results while the others have theirs is refused before writing.
        for k in range(2):
            self.generate(f"s{k}", *selection, "--shard", f"{k}/2")
        r = ptovec("run", "--dut", ORACLE_DUT, "--vectors", self.path("s0"), "--quiet")
        self.assertEqual(r.returncode, 0, r.stderr)
        r = ptovec("merge", self.path("s0"), self.path("s1"), "--out", self.path("m"))
        self.assertEqual(r.returncode, 2)
        self.assertIn("shard folder " + self.path("s1") + " has no results file while others do",
                      r.stderr)
        self.assertFalse(os.path.exists(self.path("m", "manifest.json")))

    def test_run_of_one_shard_generates_and_runs_it(self):
        # `run --op ... --shard K/N` as a job array's one command: each shard generated into
        # <work>_shard<K>of<N> and run there; merged, the folders give the unsharded run's files.
        if not ORACLE_DUT:
            self.skipTest("PTOVEC_ORACLE_DUT is not set")
        selection = ["--op", "tcvt", "--src", "fp32", "--dst", "e8m0", "--samples", 3000,
                     "--seed", 5, "--rmode", "RTZ"]
        r = ptovec("run", "--dut", ORACLE_DUT, *selection, "--work", self.path("one"), "--quiet")
        self.assertEqual(r.returncode, 0, r.stdout + r.stderr)
        for k in range(2):
            r = ptovec("run", "--dut", ORACLE_DUT, *selection, "--shard", f"{k}/2", "--quiet",
                       cwd=self.tmp)
            self.assertEqual(r.returncode, 0, r.stdout + r.stderr)
            self.assertIn(f"1 file, {1500 * 2} vectors: {1500 * 2} matched", r.stdout)
        folders = [os.path.join(self.tmp, f"ptovec-run_shard{k}of2") for k in range(2)]
        r = ptovec("merge", *folders, "--out", self.path("joined"))
        self.assertEqual(r.returncode, 0, r.stderr)
        for name in ("tcvt_fp32_e8m0.bin", "manifest.json", "results.bin"):
            self.assertTrue(filecmp.cmp(self.path("one", name), self.path("joined", name),
                                        shallow=False), name)
        # --work names the shard's folder itself; --vectors and --shard do not go together.
        r = ptovec("run", "--dut", ORACLE_DUT, *selection, "--shard", "1/2", "--work",
                   self.path("mine"), "--quiet")
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertTrue(os.path.exists(self.path("mine", "results.bin")))
        r = ptovec("run", "--dut", ORACLE_DUT, "--vectors", self.path("mine"), "--shard", "1/2")
        self.assertEqual(r.returncode, 2)
        self.assertIn("--vectors of a shard folder already run just that shard", r.stderr)

    def generate_manifest(self, folder):
        with open(self.path(folder, "manifest.json")) as f:
            return json.load(f)

    def test_merge_refuses_missing_overlapping_mismatched_and_corrupt_shards(self):
        selection = ["--op", "tcvt", "--src", "fp32", "--dst", "e8m0", "--samples", 500]
        for k in range(3):
            self.generate(f"s{k}", *selection, "--shard", f"{k}/3")
        self.generate("other", *selection, "--seed", 2, "--shard", "1/3")
        self.generate("four", *selection, "--shard", "1/4")
        self.generate("plain", *selection)
        s = [self.path(f"s{k}") for k in range(3)]

        def merge_error(*folders):
            r = ptovec("merge", *folders, "--out", self.path("out"))
            self.assertEqual(r.returncode, 2, r.stderr)
            self.assertFalse(os.path.exists(self.path("out")))  # not even an empty folder
            return error_of(r)

        self.assertIn("missing shards: 1/3 (give all 3 shard folders of the run)",
                      merge_error(s[0], s[2]))
        self.assertIn(f"overlapping shards: shard 2/3 is given twice ({s[2]} and {s[2]})",
                      merge_error(s[0], s[1], s[2], s[2]))
        self.assertIn("is not from the same run as", merge_error(s[0], self.path("other"), s[2]))
        self.assertIn("split the work differently", merge_error(s[0], self.path("four"), s[2]))
        self.assertIn("is not a shard folder", merge_error(s[0], self.path("plain")))
        self.assertIn("shard folder " + self.path("nowhere") + " does not exist",
                      merge_error(s[0], s[1], self.path("nowhere")))
        # A corrupted shard file: one expected word changed, size unchanged.
        path = os.path.join(s[1], "tcvt_fp32_e8m0.bin")
        fixed, header = read_bin_header(path)
        with open(path, "r+b") as f:
            f.seek(fixed[5] + 6)  # record 0's out byte
            byte = f.read(1)[0]
            f.seek(fixed[5] + 6)
            f.write(bytes([byte ^ 1]))
        self.assertIn("its manifest says", merge_error(*s))

    def test_default_shard_folder_is_its_own(self):
        r = ptovec("generate", "--op", "shift", "--samples", 10, "--shard", "1/2", "--quiet",
                   cwd=self.tmp)
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertTrue(os.path.exists(self.path("vectors", "shift_shard1of2", "manifest.json")))

    # ---- version 1 ----

    def test_a_version_1_file_is_still_read(self):
        self.generate("v", "--op", "tcvt", "--src", "bf16", "--dst", "e8m0")
        path = self.path("v", "tcvt_bf16_e8m0.bin")
        fixed, header = read_bin_header(path)
        with open(path, "rb") as f:
            f.seek(fixed[5])
            records = f.read()
        # Rewrite the header as version 1 wrote it.
        header["version"] = 1
        header["controls"] = "all"
        del header["inputs"]
        for field in header["fields"]:
            del field["bits"]
        for slot in header["slots"]:
            del slot["bits"]
        text = json.dumps(header, separators=(",", ":")).encode()
        text += b" " * (-(FIXED.size + len(text)) % 8)
        v1 = FIXED.pack(b"PTOVEC\0B", 1, fixed[2], len(text), fixed[4], FIXED.size + len(text))
        os.makedirs(self.path("v1"))
        with open(self.path("v1", "tcvt_bf16_e8m0.bin"), "wb") as f:
            f.write(v1 + text + records)
        old_header, old_records = files.read_vectors(self.path("v1", "tcvt_bf16_e8m0.bin"))
        self.assertEqual(old_header["version"], 1)
        self.assertEqual(len(old_records), 65536 * 14)
        # Its words have no "bits": their widths come from `ptovec list --types --json`, and
        # the JSON lines are those of the version 2 file.
        widths = files.type_widths(PTOVEC)
        self.assertEqual((widths["bf16"], widths["e8m0"], widths["fp19"], widths["s4x2"]),
                         (16, 8, 19, 4))
        new_header, new_records = files.read_vectors(path)
        self.assertEqual(list(files.json_lines(old_header, old_records[:40], widths)),
                         list(files.json_lines(new_header, new_records[:40])))
        # A JSON vector file reads as the same records as its binary twin.
        self.generate("vj", "--op", "tquant", "--src", "fp32", "--dst", "s8", "--samples", 50,
                      "--format", "both")
        bin_header, bin_records = files.read_vector_file(self.path("vj", "tquant_fp32_s8.bin"))
        json_header, json_records = files.read_vector_file(self.path("vj", "tquant_fp32_s8.json"))
        self.assertEqual((json_header["count"], len(json_records)), (bin_header["count"], 700))
        for name in bin_records.dtype.names:
            self.assertTrue((json_records[name] == bin_records[name]).all(), name)
        if ORACLE_DUT:
            r = ptovec("run", "--dut", ORACLE_DUT, "--vectors",
                       self.path("v1", "tcvt_bf16_e8m0.bin"), "--results", self.path("r.bin"),
                       "--quiet")
            self.assertEqual(r.returncode, 0, r.stdout + r.stderr)
            self.assertIn("917504 vectors: 917504 matched", r.stdout)
        # A version 3 file is refused with the versions this ptovec reads.
        with open(self.path("v1", "tcvt_bf16_e8m0.bin"), "r+b") as f:
            f.seek(8)
            f.write(struct.pack("<H", 3))
        r = ptovec("check", "--vectors", self.path("v1", "tcvt_bf16_e8m0.bin"), "--results",
                   self.path("r.bin"))
        self.assertEqual(r.returncode, 2)
        self.assertIn("has format version 3 (this ptovec reads versions 1 to 2)", error_of(r))


if __name__ == "__main__":
    unittest.main()
