#!/usr/bin/python3
"""What a newcomer met in the first hour (issue 28), each kept fixed by a test:

  CutFilesTest   a vector file passed alone is checked against the manifest beside it (a
                 TestFloat file cut at a line boundary is refused as truncated); one with no
                 manifest says its count is unverified; binary and JSON files cut anywhere are
                 refused by their own header's count
  ShrinkFromTest `shrink --from` finds the vectors the run read (the results header records
                 them), takes a section's file by name from --vectors, and its errors name its
                 own options
  RawCopyTest    `generate` and `run` of a raw-copy pair (tcvt fp16 -> e4m3) print the note
                 `list` and `eval` print, pointing at encode; a converting pair prints none
  CoverageTest   `coverage` without --require-all prints the `missing:` lines its count names
  SampleMixTest  FP32 -> E8M0's strategies keep their weights: what a short strategy leaves is
                 shared by weight among the others, and every strategy owns some tuples
  WordsTest      reports count "1 file" / "N files" and name a failing vector "vector N", as the
                 README does
  TestingPageTest docs/testing.md's table gives each label's test count of this build (only
                 when PTOVEC_BUILD_DIR names a Release build without the long tests)

Run by ctest with Debian's /usr/bin/python3; PTOVEC, PTOVEC_SOURCE_DIR and PTOVEC_ORACLE_DUT from
the environment (or --ptovec PATH --source DIR before the unittest arguments).
"""
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import unittest

from ptovec_test_env import locate

PTOVEC, SOURCE = locate("test_first_hour.py")
sys.path.insert(0, os.path.join(SOURCE, "python"))
from ptovec.files import read_results  # noqa: E402  (pure Python and numpy)
ORACLE_DUT = os.environ.get("PTOVEC_ORACLE_DUT")
FAULTY_DUT = os.environ.get("PTOVEC_FAULTY_DUT")  # the mutant e8m0_always_up
SMOKE = os.path.join(SOURCE, "vectors", "smoke")


def ptovec(*args, cwd=None):
    return subprocess.run([PTOVEC, *map(str, args)], capture_output=True, text=True, timeout=600,
                          env=dict(os.environ, CI="1"), cwd=cwd)


class Scratch(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.mkdtemp(prefix="ptovec-first-hour-")
        self.addCleanup(shutil.rmtree, self.tmp, True)

    def path(self, *parts):
        return os.path.join(self.tmp, *parts)

    def generate(self, folder, *args):
        r = ptovec("generate", "--op", "tcvt", "--src", "fp16", "--dst", "e8m0", "--rmode", "RTZ",
                   "--sat", "off", "--out", self.path(folder), "--quiet", *args)
        self.assertEqual(r.returncode, 0, r.stderr)
        return self.path(folder)


@unittest.skipUnless(ORACLE_DUT, "PTOVEC_ORACLE_DUT is not set")
class CutFilesTest(Scratch):
    TF = "tcvt_fp16_e8m0_RTZ_satoff.tf"

    def cut_lines(self, path, keep):
        with open(path) as f:
            lines = f.readlines()
        self.assertEqual(len(lines), 65536)
        with open(path, "w") as f:
            f.writelines(lines[:keep])

    def run_alone(self, path):
        return ptovec("run", "--dut", ORACLE_DUT, "--vectors", path, "--results",
                      self.path("results.bin"), "--max-report", "0")

    def test_a_cut_testfloat_file_beside_its_manifest_is_refused(self):
        folder = self.generate("tf", "--format", "testfloat")
        self.cut_lines(os.path.join(folder, self.TF), 40000)
        r = self.run_alone(os.path.join(folder, self.TF))
        self.assertEqual(r.returncode, 2, r.stdout + r.stderr)
        self.assertEqual(r.stderr.strip(), "ptovec: error: vector file "
                         f"{folder}/{self.TF} has 440000 bytes, {folder}/manifest.json says 720896 "
                         "(truncated)")

    def test_a_testfloat_file_without_its_manifest_says_its_count_is_unverified(self):
        folder = self.generate("tf", "--format", "testfloat")
        os.mkdir(self.path("alone"))
        alone = self.path("alone", self.TF)
        shutil.copy(os.path.join(folder, self.TF), alone)
        self.cut_lines(alone, 40000)
        for r in (self.run_alone(alone),
                  ptovec("check", "--vectors", alone, "--results", self.path("results.bin"))):
            self.assertEqual(r.returncode, 0, r.stdout + r.stderr)
            self.assertIn(f"note: {alone} is a TestFloat file with no manifest.json entry beside "
                          "it: its 40000 vectors are counted from its size, unverified", r.stdout)
            self.assertEqual(r.stdout.splitlines()[-1], "PASS")
        # The whole file beside its manifest: verified, no note.
        r = self.run_alone(os.path.join(folder, self.TF))
        self.assertEqual(r.returncode, 0, r.stdout + r.stderr)
        self.assertNotIn("note:", r.stdout)
        self.assertIn("65536 vectors: 65536 matched", r.stdout)

    def test_a_changed_file_beside_its_manifest_fails_its_digest(self):
        folder = self.generate("tf", "--format", "testfloat")
        path = os.path.join(folder, self.TF)
        with open(path, "r+b") as f:  # same size, one hex digit of an expected word changed
            first = f.readline()
            f.seek(len(first) - 2)
            digit = f.read(1)
            f.seek(len(first) - 2)
            f.write(b"0" if digit != b"0" else b"1")
        r = self.run_alone(path)
        self.assertEqual(r.returncode, 2, r.stdout + r.stderr)
        self.assertIn(f"vector file {path} has SHA-256 ", r.stderr)
        self.assertIn("(the file was changed)", r.stderr)

    def test_cut_binary_and_json_files_are_refused_by_their_header(self):
        for fmt, name, cut, message in [
                ("bin", "tcvt_fp16_e8m0.bin", 300000, "is truncated: the header announces 65536 "
                 "records"),
                ("json", "tcvt_fp16_e8m0.json", None, "is truncated: the header announces 65536 "
                 "vectors, the file ends after 29999 without the closing ]}")]:
            folder = self.generate(fmt, "--format", fmt)
            os.mkdir(self.path(fmt + "-alone"))
            alone = self.path(fmt + "-alone", name)
            with open(os.path.join(folder, name), "rb") as f:
                data = f.read()
            with open(alone, "wb") as f:
                f.write(data[:cut] if cut else b"".join(data.splitlines(True)[:30000]))
            r = self.run_alone(alone)
            self.assertEqual(r.returncode, 2, r.stdout + r.stderr)
            self.assertIn(f"vector file {alone} {message}", r.stderr)


@unittest.skipUnless(FAULTY_DUT, "PTOVEC_FAULTY_DUT is not set")
class ShrinkFromTest(Scratch):
    """The run: the e8m0_always_up mutant over the smoke suite's tcvt files (3 of its 118), the
    results file written away from the suite."""

    def setUp(self):
        super().setUp()
        self.results = self.path("results", "r.bin")
        os.mkdir(self.path("results"))
        r = ptovec("run", "--dut", FAULTY_DUT, "--vectors", SMOKE, "--op", "tcvt", "--results",
                   self.results, "--max-report", "0")
        self.assertEqual(r.returncode, 1, r.stdout + r.stderr)
        os.mkdir(self.path("elsewhere"))

    def shrink(self, *args):
        return ptovec("shrink", "--dut", FAULTY_DUT, "--from", *args, "--json",
                      cwd=self.path("elsewhere"))

    def assert_three_shrunk(self, r):
        self.assertEqual(r.returncode, 1, r.stdout + r.stderr)
        result = json.loads(r.stdout)
        self.assertEqual([x["file_in_results"] for x in result["results"]],
                         ["tcvt_fp16_e8m0.bin", "tcvt_bf16_e8m0.bin", "tcvt_fp32_e8m0.bin"])
        # Always rounding up: 1.5 toward minus infinity gives 2^1 (0x80) instead of 2^0 (0x7f).
        self.assertEqual(result["results"][0]["counterexample"]["eval"],
                         "ptovec eval --op tcvt --src fp16 --dst e8m0 --rmode RTM 0x3e00")
        self.assertEqual(result["results"][0]["counterexample"]["got"],
                         {"out": "0x80", "flags": "0x10"})

    def test_the_results_header_names_the_vectors_and_shrink_finds_them(self):
        header, _ = read_results(self.results)
        self.assertEqual(header["vectors"],
                         [os.path.relpath(SMOKE, os.path.dirname(self.results))])
        self.assert_three_shrunk(self.shrink(self.results))

    def test_vectors_folder_of_a_run_of_part_of_it(self):
        self.assert_three_shrunk(self.shrink(self.results, "--vectors", SMOKE, "--op", "tcvt"))
        self.assert_three_shrunk(self.shrink(self.results, "--vectors", SMOKE))

    def test_errors_name_shrinks_options(self):
        r = self.shrink("/nonexistent/results.bin")
        self.assertEqual(r.returncode, 2)
        self.assertEqual(r.stderr.strip(), "ptovec: error: --from /nonexistent/results.bin does "
                         "not exist (expected the results file of a `ptovec run`)")
        r = self.shrink(self.results, "--vectors", self.tmp)
        self.assertEqual(r.returncode, 2)
        self.assertEqual(r.stderr.strip(), f"ptovec: error: --from {self.results} answers vector "
                         f"file tcvt_fp16_e8m0.bin, which is not in --vectors {self.tmp}: give "
                         "shrink --vectors the folder or file the run read")


@unittest.skipUnless(ORACLE_DUT, "PTOVEC_ORACLE_DUT is not set")
class RawCopyTest(Scratch):
    NOTE = ("ptovec: note: tcvt to e4m3 copies the source word's bits, it does not convert the "
            "value (TileProfileConvert's raw-carrier rule, seed 001 lines 154-168; spec-notes "
            "section 5 item 9); for conversion by value use --op encode")

    def test_generate_and_run_of_a_raw_copy_pair_say_so(self):
        r = ptovec("generate", "--op", "tcvt", "--src", "fp16", "--dst", "e4m3", "--rmode", "RNE",
                   "--sat", "off", "--out", self.path("g"), "--quiet")
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertEqual(r.stderr.splitlines().count(self.NOTE), 1, r.stderr)
        r = ptovec("eval", "--op", "tcvt", "--src", "fp16", "--dst", "e4m3", "0x3c00")
        self.assertIn(self.NOTE, r.stderr.splitlines())  # the same words as eval's
        for extra in (["--work", self.path("w")], ["--vectors", self.path("g")]):
            r = ptovec("run", "--dut", ORACLE_DUT, "--op", "tcvt", "--src", "fp16", "--dst", "e4m3",
                       "--max-report", "0", "--quiet", *extra)
            self.assertEqual(r.returncode, 0, r.stdout + r.stderr)
            self.assertEqual(r.stderr.splitlines().count(self.NOTE), 1, r.stderr)

    def test_a_converting_pair_has_no_note(self):
        self.generate("e8m0")
        r = ptovec("run", "--dut", ORACLE_DUT, "--op", "tcvt", "--vectors", self.path("e8m0"),
                   "--max-report", "0", "--quiet")
        self.assertEqual(r.returncode, 0, r.stdout + r.stderr)
        self.assertNotIn("note:", r.stderr)


class CoverageTest(Scratch):
    def test_the_missing_lines_are_printed_without_require_all(self):
        r = ptovec("generate", "--op", "tcvt", "--src", "fp32", "--dst", "e8m0", "--rmode", "RTZ",
                   "--sat", "off", "--samples", 3, "--out", self.path("few"), "--quiet")
        self.assertEqual(r.returncode, 0, r.stderr)
        folder = self.path("few")
        for extra, status in (([], 0), (["--require-all"], 1)):
            r = ptovec("coverage", "--vectors", folder, "--scope", "present", *extra)
            self.assertEqual(r.returncode, status, r.stdout + r.stderr)
            lines = r.stdout.splitlines()
            missing = [line for line in lines if line.startswith("missing: ")]
            self.assertGreater(len(missing), 0)
            self.assertTrue(all(m.startswith("missing: tcvt fp32 -> e8m0 RTZ Sat off: ")
                                for m in missing), missing)
            self.assertIn(f"in {len(missing)} `missing:` line(s) above", lines[-1])


class SampleMixTest(Scratch):
    def test_fp32_e8m0_weights_hold_among_the_strategies_with_tuples_left(self):
        r = ptovec("generate", "--op", "tcvt", "--src", "fp32", "--dst", "e8m0", "--rmode", "RTZ",
                   "--sat", "off", "--samples", 24000, "--out", self.path("mix"), "--quiet")
        self.assertEqual(r.returncode, 0, r.stderr)
        with open(self.path("mix", "manifest.json")) as f:
            strategies = json.load(f)["files"][0]["strategies"]
        by_name = {s["name"]: s for s in strategies}
        self.assertEqual(sum(s["tuples"] for s in strategies), 24000)
        for s in strategies:
            self.assertGreater(s["tuples"], 0, s)
        # The small sets give all they have; the three large ones share the rest 3 : 4 : 4
        # (before, the subnormal edge, first in order, took it all).
        for name in ("fp32_specials", "fp32_power_of_two_neighbours", "fp32_sqrt2_boundaries",
                     "fp32_top_binades"):
            self.assertEqual(by_name[name]["tuples"], by_name[name]["available"], name)
        edge = by_name["fp32_subnormal_floor_edge"]["tuples"]
        normals = by_name["fp32_positive_normals"]["tuples"]
        uniform = by_name["fp32_uniform_bits"]["tuples"]
        self.assertLessEqual(abs(normals - uniform), 1)
        self.assertLessEqual(abs(4 * edge - 3 * normals), 4)
        self.assertGreater(normals, 4000)


@unittest.skipUnless(FAULTY_DUT, "PTOVEC_FAULTY_DUT is not set")
class WordsTest(Scratch):
    def test_one_file_and_vector_n(self):
        folder = self.generate("e8m0")
        r = ptovec("run", "--dut", FAULTY_DUT, "--vectors", folder, "--max-report", 1,
                   "--results", self.path("r.bin"))
        self.assertEqual(r.returncode, 1, r.stdout + r.stderr)
        self.assertRegex(r.stdout, r"(?m)^ptovec: 1 file, 65536 vectors: \d+ matched, ")
        self.assertRegex(r.stdout, r"(?m)^  tcvt_fp16_e8m0\.bin vector \d+: tcvt fp16 -> e8m0 RTZ ")
        self.assertRegex(r.stdout, r"(?m)first tcvt_fp16_e8m0\.bin vector \d+$")
        self.assertNotIn("file(s)", r.stdout)
        self.assertNotIn(" record ", r.stdout)
        r = ptovec("generate", "--op", "shift", "--samples", 1, "--out", self.path("one"))
        self.assertIn("ptovec: wrote 1 file, 1 vector, ", r.stderr)


class TestingPageTest(unittest.TestCase):
    BUILD = os.environ.get("PTOVEC_BUILD_DIR")

    @unittest.skipUnless(BUILD, "PTOVEC_BUILD_DIR is not set (not a Release build)")
    def test_label_counts_are_this_builds(self):
        with open(os.path.join(SOURCE, "docs", "testing.md")) as f:
            rows = re.findall(r"^\| `([a-z]+)` \| (\d+) \|", f.read(), re.M)
        self.assertGreaterEqual(len(rows), 10)
        for label, count in rows:
            r = subprocess.run(["ctest", "--test-dir", self.BUILD, "-N", "-L", f"^{label}$"],
                               capture_output=True, text=True, timeout=120)
            total = re.search(r"Total Tests: (\d+)", r.stdout)
            self.assertIsNotNone(total, r.stdout + r.stderr)
            self.assertEqual(int(total.group(1)), int(count),
                             f"docs/testing.md says label {label} has {count} tests, "
                             f"ctest -N -L ^{label}$ lists {total.group(1)}")


if __name__ == "__main__":
    unittest.main()
