#!/usr/bin/python3
"""End-to-end tests of the conformance gate: `ptovec check` and `ptovec run`, exit codes 0/1/2,
report and error messages, results files written by a Python "vendor harness" from the documented
formats (schemas/results-format.md) accepted, JUnit parsed with xml.etree, results validated
against the committed JSON Schemas.

Run by ctest with Debian's /usr/bin/python3 (python3-numpy, python3-jsonschema). The ptovec binary,
the source folder and (optionally) the oracle devices come from the environment: PTOVEC,
PTOVEC_SOURCE_DIR, PTOVEC_ORACLE_DUT (the shared library), PTOVEC_ORACLE_DEVICE (the program), or
from --ptovec PATH --source DIR before the unittest arguments, e.g.
    /usr/bin/python3 tests/files/test_gate.py --ptovec build/tools/ptovec --source . -v GateCheckTest
"""
import json
import os
import shutil
import struct
import subprocess
import tempfile
import unittest
import xml.etree.ElementTree as ET



from ptovec_test_env import locate, schema_validator as _schema_validator

PTOVEC, SOURCE = locate("test_gate.py")
import sys  # noqa: E402
sys.path.insert(0, os.path.join(SOURCE, "python"))
from ptovec import files  # noqa: E402  (python/ptovec/files: the readers of results files)
ORACLE_DUT = os.environ.get("PTOVEC_ORACLE_DUT")
ORACLE_DEVICE = os.environ.get("PTOVEC_ORACLE_DEVICE")
MODES = ["RNE", "RTM", "RTP", "RTZ", "RNA", "RTO", "RHB"]


def ptovec(*args, timeout=600):
    env = dict(os.environ, CI="1")
    return subprocess.run([PTOVEC, *map(str, args)], capture_output=True, text=True,
                          timeout=timeout, env=env)


def schema_validator(file_name):
    return _schema_validator(SOURCE, file_name)


def read_json_vectors(path):
    with open(path) as f:
        return json.load(f)


def vendor_results_jsonl(folder, out, fault=None):
    """A vendor harness without ptovec's code: answers every vector of the JSON files listed in
    folder/manifest.json (here: copies the expected answer, then applies `fault`) and writes the
    JSON lines results format of schemas/results-format.md."""
    with open(os.path.join(folder, "manifest.json")) as f:
        manifest = json.load(f)
    files = [e for e in manifest["files"] if e["format"] == "bin"]
    sections = []
    lines = []
    for s, entry in enumerate(files):
        doc = read_json_vectors(os.path.join(folder, entry["path"][:-4] + ".json"))
        sections.append({"file": entry["path"], "sha256": entry["sha256"], "op": entry["op"],
                         "src": entry["src"], "dst": entry["dst"], "count": entry["count"]})
        for i, v in enumerate(doc["vectors"]):
            out_word, flags = v["out"], v["flags"]
            if fault:
                out_word, flags = fault(v, out_word, flags)
            line = {"s": s, "i": i, "flags": flags}
            if flags != "unsupported":
                line["out"] = out_word
            lines.append(json.dumps(line, separators=(",", ":")))
    header = {"format": "ptovec-results-json", "version": 1, "tool_version": "vendor-harness 1.0",
              "device": "python-vendor", "sections": sections}
    with open(out, "w") as f:
        f.write(json.dumps(header) + "\n")
        for line in lines:
            f.write(line + "\n")
    return header, lines


def vendor_results_bin(folder, out):
    """The same perfect harness, writing the binary results format of results-format.md."""
    with open(os.path.join(folder, "manifest.json")) as f:
        manifest = json.load(f)
    files = [e for e in manifest["files"] if e["format"] == "bin"]
    sections = []
    data = b""
    for entry in files:
        doc = read_json_vectors(os.path.join(folder, entry["path"][:-4] + ".json"))
        bits = 4 * (len(doc["vectors"][0]["out"]) - 2)  # hex digits of the destination's width
        dst_bytes = 1 if bits <= 8 else 2 if bits <= 16 else 4 if bits <= 32 else 8
        sections.append({"file": entry["path"], "sha256": entry["sha256"], "op": entry["op"],
                         "src": entry["src"], "dst": entry["dst"], "count": entry["count"],
                         "record_size": 4 + dst_bytes + 1})
        for i, v in enumerate(doc["vectors"]):
            data += struct.pack("<I", i & 0xFFFFFFFF)
            data += int(v["out"], 16).to_bytes(dst_bytes, "little")
            data += bytes([int(v["flags"], 16)])
    header = {"format": "ptovec-results-bin", "version": 1, "tool_version": "vendor-harness 1.0",
              "device": "python-vendor", "sections": sections}
    text = json.dumps(header).encode()
    data_offset = (32 + len(text) + 7) // 8 * 8
    text += b" " * (data_offset - 32 - len(text))
    total = sum(s["count"] for s in sections)
    fixed = b"PTOVEC\0R" + struct.pack("<HHIQQ", 1, 0, len(text), total, data_offset)
    with open(out, "wb") as f:
        f.write(fixed + text + data)
    return header


class GateBase(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.mkdtemp(prefix="ptovec-gate-")
        cls.vectors = os.path.join(cls.tmp, "vectors")
        r = ptovec("generate", "--op", "tquant", "--src", "fp32", "--dst", "s8", "--samples", 50,
                   "--format", "both", "--out", cls.vectors, "--quiet")
        if r.returncode != 0:
            raise AssertionError(r.stderr)
        cls.other = os.path.join(cls.tmp, "other")
        r = ptovec("generate", "--op", "qparam", "--samples", 40, "--format", "both", "--out",
                   cls.other, "--quiet")
        if r.returncode != 0:
            raise AssertionError(r.stderr)

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.tmp, ignore_errors=True)

    def path(self, name):
        return os.path.join(self.tmp, name)

    def assert_usage_error(self, r, *fragments):
        self.assertEqual(r.returncode, 2, r.stdout + r.stderr)
        lines = r.stderr.strip().split("\n")
        self.assertEqual(len(lines), 1, r.stderr)
        self.assertTrue(lines[0].startswith("ptovec: error: "), r.stderr)
        for fragment in fragments:
            self.assertIn(fragment, lines[0])


class GateCheckTest(GateBase):
    def test_vendor_json_lines_results_pass_and_validate(self):
        results = self.path("vendor.jsonl")
        header, lines = vendor_results_jsonl(self.vectors, results)
        self.assertEqual(len(lines), 700)
        junit = self.path("pass.xml")
        r = ptovec("check", "--vectors", self.vectors, "--results", results, "--junit", junit)
        self.assertEqual(r.returncode, 0, r.stdout + r.stderr)
        self.assertIn("ptovec: 1 file, 700 vectors: 700 matched, 0 mismatched, 0 unsupported "
                      "(device python-vendor)", r.stdout)
        self.assertTrue(r.stdout.endswith("PASS\n"))
        root = ET.parse(junit).getroot()
        self.assertEqual(root.tag, "testsuites")
        self.assertEqual((root.get("tests"), root.get("failures")), ("14", "0"))
        cases = root.findall("./testsuite/testcase")
        self.assertEqual(len(cases), 14)
        self.assertEqual(cases[5].get("name"), "RTP sat=on")
        # Every line validates against the committed results schema.
        v = schema_validator("results.schema.json")
        v.validate(header)
        for line in lines[:200]:
            v.validate(json.loads(line))
        self.assertFalse(v.is_valid({"s": 0, "i": 0, "flags": "0x00"}))  # out required
        self.assertTrue(v.is_valid({"s": 0, "i": 0, "flags": "unsupported"}))
        self.assertFalse(v.is_valid({"s": 0, "i": 0, "out": "0x1", "flags": "0x20"}))

    def test_vendor_binary_results_pass_and_header_validates(self):
        results = self.path("vendor.bin")
        header = vendor_results_bin(self.vectors, results)
        schema_validator("results-binary-header.schema.json").validate(header)
        r = ptovec("check", "--vectors", self.vectors, "--results", results)
        self.assertEqual(r.returncode, 0, r.stdout + r.stderr)
        self.assertIn("700 matched", r.stdout)

    def test_mismatches_exit_1_with_groups_and_eval_commands(self):
        results = self.path("faulty.jsonl")

        def fault(v, out, flags):
            if v["rmode"] == "RTZ" and v["sat"]:
                return "0x%0*x" % (len(out) - 2, int(out, 16) ^ 1), flags
            if v["rmode"] == "RNE" and not v["sat"]:
                return out, "unsupported"
            return out, flags

        vendor_results_jsonl(self.vectors, results, fault)
        junit = self.path("fail.xml")
        r = ptovec("check", "--vectors", self.vectors, "--results", results, "--junit", junit,
                   "--max-report", 3)
        self.assertEqual(r.returncode, 1, r.stdout + r.stderr)
        self.assertIn("700 vectors: 600 matched, 50 mismatched, 50 unsupported", r.stdout)
        self.assertIn("by kind: wrong word 50, wrong flags 0, both 0, unsupported 50", r.stdout)
        self.assertRegex(r.stdout, r"tquant +fp32 +s8 +RTZ +on +50 +50 +0 +0 +0")
        self.assertRegex(r.stdout, r"tquant +fp32 +s8 +RNE +off +50 +0 +0 +0 +50")
        self.assertIn("first 3 of 100 failed vectors (mismatched or unsupported):", r.stdout)
        self.assertIn("ptovec eval --op tquant --src fp32 --dst s8 --rmode RTZ --sat 0x", r.stdout)
        self.assertTrue(r.stdout.rstrip().endswith("FAIL: 50 mismatched, 50 unsupported of 700 vectors"))
        # The eval command of the first wrong word reproduces the expected answer.
        first = [l.strip() for l in r.stdout.split("\n") if l.strip().startswith("ptovec eval --op tquant") and "RTZ" in l][0]
        e = ptovec(*first.split()[1:])
        self.assertEqual(e.returncode, 0, e.stderr)
        root = ET.parse(junit).getroot()
        self.assertEqual((root.get("tests"), root.get("failures")), ("14", "2"))
        # --allow-unsupported does not pass wrong words: still FAIL, the unsupported-only test
        # case is skipped.
        allowed = ptovec("check", "--vectors", self.vectors, "--results", results,
                         "--allow-unsupported", "--junit", self.path("allowed.xml"))
        self.assertEqual(allowed.returncode, 1)
        root_allowed = ET.parse(self.path("allowed.xml")).getroot()
        self.assertEqual((root_allowed.get("failures"), root_allowed.get("skipped")), ("1", "1"))
        # The first-N list holds failed vectors only: no skipped unsupported one.
        self.assertIn("first 20 of 50 failed vectors (mismatched; unsupported ones are skipped):",
                      allowed.stdout)
        listed = allowed.stdout.split("failed vectors (mismatched;")[1]
        self.assertNotIn("got unsupported", listed)
        self.assertIn("tquant fp32 -> s8: got unsupported (skipped: --allow-unsupported)",
                      allowed.stdout)
        # --max-report 0: the table and the verdict, no "first 0 of ..." line.
        quiet = ptovec("check", "--vectors", self.vectors, "--results", results, "--max-report", 0)
        self.assertEqual(quiet.returncode, 1)
        self.assertNotIn("first 0", quiet.stdout)
        self.assertNotIn("ptovec eval", quiet.stdout)
        failures = root.findall("./testsuite/testcase/failure")
        self.assertEqual(len(failures), 2)
        self.assertEqual(failures[0].get("message"),
                         "50 of 50 vectors failed (wrong word 0, wrong flags 0, both 0, unsupported 50)")
        self.assertIn("ptovec eval", failures[1].text)


class GateErrorsTest(GateBase):
    def good_jsonl(self):
        results = self.path("good.jsonl")
        if not os.path.exists(results):
            vendor_results_jsonl(self.vectors, results)
        with open(results) as f:
            return f.read().split("\n")

    def write(self, name, lines):
        p = self.path(name)
        with open(p, "w") as f:
            f.write("\n".join(lines))
        return p

    def test_truncated_reordered_extra_and_foreign_results_are_refused(self):
        lines = self.good_jsonl()  # header, 700 results, ""
        r = ptovec("check", "--vectors", self.vectors, "--results", self.write("t.jsonl", lines[:-2] + [""]))
        self.assert_usage_error(r, "is truncated: section 0 (tquant_fp32_s8.bin) ends at record 699 of 700")
        swapped = lines[:]
        swapped[3], swapped[4] = swapped[4], swapped[3]
        r = ptovec("check", "--vectors", self.vectors, "--results", self.write("o.jsonl", swapped))
        self.assert_usage_error(r, "is out of order: line 4 holds section 0 record 3",
                                "expected section 0 (tquant_fp32_s8.bin) record 2")
        extra = lines[:-1] + [lines[-2], ""]
        r = ptovec("check", "--vectors", self.vectors, "--results", self.write("e.jsonl", extra))
        self.assert_usage_error(r, "has extra lines: line 702")
        r = ptovec("check", "--vectors", self.other, "--results", self.path("good.jsonl"))
        self.assert_usage_error(r, "does not match the vectors: file tquant_fp32_s8.bin in the results, qparam_fp32_u64.bin")
        header = json.loads(lines[0])
        header["sections"][0]["sha256"] = "0" * 64
        r = ptovec("check", "--vectors", self.vectors, "--results",
                   self.write("s.jsonl", [json.dumps(header)] + lines[1:]))
        self.assert_usage_error(r, "does not match the vectors: SHA-256 " + "0" * 64)
        header = json.loads(lines[0])
        header["sections"][0]["count"] = 699
        r = ptovec("check", "--vectors", self.vectors, "--results",
                   self.write("c.jsonl", [json.dumps(header)] + lines[1:]))
        self.assert_usage_error(r, "does not match the vectors: count 699 in the results, 700")

    def test_broken_binary_results_are_refused(self):
        results = self.path("good.bin")
        vendor_results_bin(self.vectors, results)
        with open(results, "rb") as f:
            data = f.read()
        cut = self.path("cut.bin")
        with open(cut, "wb") as f:
            f.write(data[:-3])
        r = ptovec("check", "--vectors", self.vectors, "--results", cut)
        self.assert_usage_error(r, "is truncated: section 0 (tquant_fp32_s8.bin) has 699 of 700 records and a partial record 699")
        with open(cut, "wb") as f:
            f.write(data + b"\0")
        r = ptovec("check", "--vectors", self.vectors, "--results", cut)
        self.assert_usage_error(r, "has 1 extra bytes after the last record")

    def test_bad_arguments_and_files(self):
        r = ptovec("check", "--vectors", self.path("nope"), "--results", self.path("nope.bin"))
        self.assert_usage_error(r, "does not exist")
        r = ptovec("check", "--vectors", self.vectors, "--results", self.path("nope.bin"))
        self.assert_usage_error(r, "cannot read results file")
        r = ptovec("check", "--vectors", self.vectors)
        self.assert_usage_error(r, "--results")
        empty = self.path("empty")
        os.makedirs(empty, exist_ok=True)
        r = ptovec("check", "--vectors", empty, "--results", self.path("good.jsonl"))
        self.assert_usage_error(r, "holds no manifest.json")
        garbage = self.path("garbage.bin")
        with open(garbage, "wb") as f:
            f.write(b"hello")
        r = ptovec("check", "--vectors", self.vectors, "--results", garbage)
        self.assert_usage_error(r, "is not a ptovec results file")
        r = ptovec("run", "--vectors", self.vectors)
        self.assert_usage_error(r, "give exactly one of --dut LIB.so and --dut-cmd")
        r = ptovec("run", "--dut", self.path("missing.so"))
        self.assert_usage_error(r, "give --vectors PATH (a suite folder or vector file), or --op OP")
        r = ptovec("run", "--dut", self.path("missing.so"), "--vectors", self.vectors, "--samples", 5)
        self.assert_usage_error(r, "--seed, --samples and --work go with --op")
        r = ptovec("run", "--dut", self.path("missing.so"), "--vectors", self.vectors, "--format", "xml")
        self.assert_usage_error(r, "unknown --format 'xml' (accepted: bin, json)")
        r = ptovec("run", "--dut", self.path("missing.so"), "--vectors", self.vectors)
        self.assert_usage_error(r, "missing.so")
        self.assertFalse(os.path.exists(os.path.join(self.vectors, "results.bin")))

    def test_outputs_never_overwrite_inputs_or_each_other(self):
        vector_file = os.path.join(self.vectors, "tquant_fp32_s8.bin")
        size = os.path.getsize(vector_file)
        missing = self.path("missing.so")
        r = ptovec("run", "--dut", missing, "--vectors", self.vectors, "--results", vector_file)
        self.assert_usage_error(r, "--results " + vector_file + " is an input file (" + vector_file + ")")
        manifest = os.path.join(self.vectors, "manifest.json")
        r = ptovec("run", "--dut", missing, "--vectors", self.vectors, "--results", self.path("x.bin"),
                   "--junit", manifest)
        self.assert_usage_error(r, "--junit " + manifest + " is an input file")
        same = self.path("same.out")
        r = ptovec("run", "--dut", missing, "--vectors", self.vectors, "--results", same, "--junit", same)
        self.assert_usage_error(r, "--junit " + same + " is also the --results file")
        self.good_jsonl()
        good = self.path("good.jsonl")
        r = ptovec("check", "--vectors", self.vectors, "--results", good, "--junit", good)
        self.assert_usage_error(r, "--junit " + good + " is an input file (" + good + ")")
        r = ptovec("check", "--vectors", self.vectors, "--results", good, "--junit", vector_file)
        self.assert_usage_error(r, "--junit " + vector_file + " is an input file")
        self.assertEqual(os.path.getsize(vector_file), size)
        r = ptovec("check", "--vectors", self.vectors, "--results", good, "--junit", "/nonexistent/dir/j.xml")
        self.assert_usage_error(r, "--junit /nonexistent/dir/j.xml: its folder /nonexistent/dir does not exist")
        self.assertEqual(r.stdout, "")  # no PASS before the error

    def test_a_failed_run_keeps_the_previous_report(self):
        # An error (exit 2) changes no file (docs/cli.md, "Outputs"; tests/cli/test_outputs_kept.py).
        results, junit = self.path("earlier.bin"), self.path("earlier.xml")
        for p in (results, junit):
            with open(p, "w") as f:
                f.write("old passing report")
        r = ptovec("run", "--dut", self.path("missing.so"), "--vectors", self.vectors,
                   "--results", results, "--junit", junit)
        self.assert_usage_error(r, "missing.so")
        for p in (results, junit):
            with open(p) as f:
                self.assertEqual(f.read(), "old passing report")

    def test_pipes_are_refused(self):
        self.good_jsonl()
        fifo = self.path("fifo")
        if not os.path.exists(fifo):
            os.mkfifo(fifo)
        r = ptovec("check", "--vectors", self.vectors, "--results", fifo)
        self.assert_usage_error(r, "results file " + fifo + " must be a regular file (not a folder, pipe or device)")
        r = ptovec("check", "--vectors", fifo, "--results", self.path("good.jsonl"))
        self.assert_usage_error(r, "vector file " + fifo + " must be a regular file")

    def test_eval_batch_without_cases(self):
        empty = self.path("empty.txt")
        open(empty, "w").close()
        for source in (empty, "/dev/null"):
            r = ptovec("eval", "--batch", source)
            self.assert_usage_error(r, "no cases in --batch " + source +
                                    " (expected one line of eval arguments per case; blank and # "
                                    "lines are skipped)")
        r = ptovec("eval", "--batch", self.tmp)
        self.assert_usage_error(r, "--batch " + self.tmp + " is a directory")
        lines = self.write("help.txt", ["--help", "-h"])
        r = ptovec("eval", "--batch", lines)
        self.assertEqual(r.returncode, 1, r.stdout + r.stderr)
        self.assertEqual([json.loads(l) for l in r.stdout.splitlines()],
                         [{"line": n, "error": "--help is not a case (expected the arguments of `ptovec eval`)"}
                          for n in (1, 2)])


class SmallEdgesTest(GateBase):
    """The first-hour issue's small edges: each message says what to do."""

    def test_a_section_naming_a_path_says_to_use_the_bare_name(self):
        results = self.path("fullpath.jsonl")
        vendor_results_jsonl(self.vectors, results)
        with open(results) as f:
            lines = f.read().split("\n")
        header = json.loads(lines[0])
        header["sections"][0]["file"] = os.path.join(self.vectors, "tquant_fp32_s8.bin")
        with open(results, "w") as f:
            f.write("\n".join([json.dumps(header)] + lines[1:]))
        r = ptovec("check", "--vectors", self.vectors, "--results", results)
        self.assert_usage_error(r, "(a section names its vector file by its bare name, as "
                                   "manifest.json's path does)")

    def test_check_can_gate_some_controls_of_a_full_results_file(self):
        # A device wrong only under RTM with Sat on: a full results file fails, its RTZ part and
        # its Sat-off part pass and say what they left out, its RTM part fails.
        def rtm_sat_wrong(v, out_word, flags):
            if v["rmode"] == "RTM" and v["sat"]:
                return out_word, "0x1f"
            return out_word, flags
        results = self.path("controls.jsonl")
        vendor_results_jsonl(self.vectors, results, rtm_sat_wrong)
        check = ["check", "--vectors", self.vectors, "--results", results]
        self.assertEqual(ptovec(*check).returncode, 1)
        r = ptovec(*check, "--rmode", "RTZ")
        self.assertEqual(r.returncode, 0, r.stdout + r.stderr)
        self.assertIn("ptovec: 1 file, 100 vectors: 100 matched", r.stdout)
        self.assertIn("scope: checked only the vectors of RTZ; Sat off and on (600 answers of other "
                      "controls in the results file were not compared)", r.stdout)
        self.assertEqual(ptovec(*check, "--sat", "off").returncode, 0)
        r = ptovec(*check, "--rmode", "RTM,RNE")
        self.assertEqual(r.returncode, 1, r.stdout)
        self.assertIn("FAIL: 50 mismatched, 0 unsupported of 200 vectors", r.stdout)
        r = ptovec(*check, "--rmode", "RTX")
        self.assert_usage_error(r, "unknown --rmode 'RTX'")

    def test_several_vector_paths_need_a_results_file(self):
        r = ptovec("run", "--dut", self.path("missing.so"), "--vectors", self.vectors, self.other)
        self.assert_usage_error(r, "several --vectors paths: give --results FILE")

    def test_schema_takes_the_file_names_too(self):
        a, b = ptovec("schema", "eval"), ptovec("schema", "eval-line")
        self.assertEqual((a.returncode, b.returncode), (0, 0))
        self.assertEqual(a.stdout, b.stdout)

    def test_a_device_that_does_not_flush_is_told_so(self):
        # Says its hello only when its input ends (as a device whose stdout is block-buffered).
        r = ptovec("run", "--dut-cmd", "sh -c 'cat >/dev/null; echo ptovec-dut 1 lazy'",
                   "--dut-timeout", "0.5", "--vectors", self.vectors,
                   "--results", self.path("lazy.bin"))
        self.assert_usage_error(r, "sent no hello line within 0.5 s (--dut-timeout; a device must "
                                   "flush stdout after each line it writes)")


@unittest.skipUnless(ORACLE_DUT or ORACLE_DEVICE, "no oracle device built (PTOVEC_ORACLE_DUT)")
class GateRunTest(GateBase):
    def run_and_check(self, device_args, fmt):
        results = self.path("run." + fmt)
        junit = self.path("run.xml")
        r = ptovec("run", *device_args, "--vectors", self.vectors, "--results", results,
                   "--format", fmt, "--junit", junit)
        self.assertEqual(r.returncode, 0, r.stdout + r.stderr)
        self.assertIn("700 vectors: 700 matched, 0 mismatched, 0 unsupported", r.stdout)
        r = ptovec("check", "--vectors", self.vectors, "--results", results)
        self.assertEqual(r.returncode, 0, r.stdout + r.stderr)
        root = ET.parse(junit).getroot()
        self.assertEqual((root.get("tests"), root.get("failures")), ("14", "0"))
        return results

    @unittest.skipUnless(ORACLE_DUT, "no PTOVEC_ORACLE_DUT")
    def test_oracle_library_passes(self):
        results = self.run_and_check(["--dut", ORACLE_DUT], "bin")
        with open(results, "rb") as f:
            self.assertEqual(f.read(8), b"PTOVEC\0R")
        results = self.run_and_check(["--dut", ORACLE_DUT], "json")
        v = schema_validator("results.schema.json")
        with open(results) as f:
            for line in f.read().split("\n")[:100]:
                if line:
                    v.validate(json.loads(line))

    @unittest.skipUnless(ORACLE_DUT, "no PTOVEC_ORACLE_DUT")
    def test_a_filtered_run_lists_its_controls(self):
        results, junit = self.path("filtered.jsonl"), self.path("filtered.xml")
        r = ptovec("run", "--dut", ORACLE_DUT, "--vectors", self.vectors, "--results", results,
                   "--format", "json", "--rmode", "RTZ,RNE", "--sat", "off", "--junit", junit)
        self.assertEqual(r.returncode, 0, r.stdout + r.stderr)
        self.assertIn("100 vectors: 100 matched", r.stdout)  # 50 inputs x (RNE, RTZ) Sat off
        with open(results) as f:
            lines = [json.loads(line) for line in f if line.strip()]
        v = schema_validator("results.schema.json")
        for line in lines[:20]:
            v.validate(line)
        section = lines[0]["sections"][0]
        self.assertEqual((lines[0]["version"], section["count"], section["controls"]),
                         (2, 100, [{"rmode": "RNE", "sat": False}, {"rmode": "RTZ", "sat": False}]))
        # Each index is the vector file's record: input k's RNE-off record is 14k, RTZ-off 14k + 6.
        self.assertEqual([x["i"] for x in lines[1:7]], [0, 6, 14, 20, 28, 34])
        root = ET.parse(junit).getroot()
        self.assertEqual((root.get("tests"), root.get("failures")), ("2", "0"))
        r = ptovec("check", "--vectors", self.vectors, "--results", results)
        self.assertEqual(r.returncode, 0, r.stdout + r.stderr)
        self.assertIn("100 vectors: 100 matched", r.stdout)
        # The Python reader of results files gives the same records.
        header, sections = files.read_results(results)
        self.assertEqual(header["sections"][0]["count"], 100)
        self.assertEqual(sections[0]["index"][:4].tolist(), [0, 6, 14, 20])
        self.assertEqual([f"0x{w:02x}" for w in sections[0]["out"][:3].tolist()],
                         [x["out"] for x in lines[1:4]])
        # An answer moved to another record of the file is refused.
        with open(results) as f:
            text = f.read()
        bad = self.path("filtered-bad.jsonl")
        with open(bad, "w") as f:
            f.write(text.replace('{"s":0,"i":6,', '{"s":0,"i":7,', 1))
        r = ptovec("check", "--vectors", self.vectors, "--results", bad)
        self.assert_usage_error(r, "section 0 (tquant_fp32_s8.bin) answers record 7 where the "
                                   "vector file's next record of its controls is 6")
        # Binary results of a filtered run check too.
        results = self.path("filtered.bin")
        r = ptovec("run", "--dut", ORACLE_DUT, "--vectors", self.vectors, "--results", results,
                   "--sat", "on")
        self.assertEqual(r.returncode, 0, r.stdout + r.stderr)
        r = ptovec("check", "--vectors", self.vectors, "--results", results)
        self.assertEqual(r.returncode, 0, r.stdout + r.stderr)
        self.assertIn("350 vectors: 350 matched", r.stdout)
        header, sections = files.read_results(results)
        self.assertEqual((header["version"], len(sections[0])), (2, 350))
        self.assertEqual(sections[0]["index"][:3].tolist(), [1, 3, 5])  # Sat on: odd records

    @unittest.skipUnless(ORACLE_DEVICE, "no PTOVEC_ORACLE_DEVICE")
    def test_a_run_that_stops_early_is_recorded_as_incomplete(self):
        # 5600 vectors go to the device in batches of 4096. The device (through `sed -u 4097q`)
        # answers its hello and the first batch, then falls silent: the device failed at the
        # second batch (exit 1, the failure in the report), and its results file keeps the 4096
        # answers, marked as stopped.
        vectors = self.path("stop-vectors")
        r = ptovec("generate", "--op", "tquant", "--src", "fp32", "--dst", "s8", "--samples", 400,
                   "--out", vectors, "--quiet")
        self.assertEqual(r.returncode, 0, r.stderr)
        results, junit = self.path("stopped.bin"), self.path("stopped.xml")
        r = ptovec("run", "--dut-cmd", "sh -c '" + ORACLE_DEVICE + " | sed -u 4097q'",
                   "--dut-timeout", 1, "--vectors", vectors, "--results", results)
        self.assertEqual(r.returncode, 1, r.stdout + r.stderr)
        self.assertIn("DEVICE FAILED: device ", r.stdout)
        self.assertIn("answer", r.stdout)
        self.assertIn("case 4096", r.stdout)  # no answer in time, or exited (timing decides)
        with open(results, "rb") as f:
            fixed = f.read(32)
            header = json.loads(f.read(struct.unpack("<I", fixed[12:16])[0]))
        self.assertEqual(struct.unpack("<Q", fixed[16:24])[0], 4096)
        self.assertEqual(header["stopped"]["records"], 4096)
        _, sections = files.read_results(results)
        self.assertEqual((len(sections[0]), int(sections[0]["index"][-1])), (4096, 4095))
        self.assertIn("case 4096", header["stopped"]["reason"])
        schema_validator("results-binary-header.schema.json").validate(header)
        r = ptovec("check", "--vectors", vectors, "--results", results, "--junit", junit)
        self.assertEqual(r.returncode, 1, r.stdout + r.stderr)
        self.assertIn("4096 vectors: 4096 matched, 0 mismatched", r.stdout)
        self.assertIn("INCOMPLETE: the run stopped after 4096 of 5600 records: device", r.stdout)
        self.assertIn("FAIL: 0 mismatched, 0 unsupported of 4096 vectors checked (incomplete run)",
                      r.stdout)
        with open(junit) as f:
            self.assertIn('failure type="incomplete"', f.read())

    @unittest.skipUnless(ORACLE_DEVICE, "no PTOVEC_ORACLE_DEVICE")
    def test_oracle_program_passes(self):
        self.run_and_check(["--dut-cmd", ORACLE_DEVICE], "bin")

    @unittest.skipUnless(ORACLE_DEVICE, "no PTOVEC_ORACLE_DEVICE")
    def test_program_device_that_fails_at_exit_is_an_error(self):
        # Every answer is right, but the device exits 1 with a sanitizer report: exit 2, no report.
        results = self.path("asan.bin")
        r = ptovec("run", "--dut-cmd",
                   "sh -c '" + ORACLE_DEVICE + "; echo ERROR: AddressSanitizer >&2; exit 1'",
                   "--vectors", self.vectors, "--results", results)
        self.assert_usage_error(r, "failed after its input ended (the last case was 699; a device "
                                "must exit with status 0); it exited with status 1; its stderr "
                                "ends: ERROR: AddressSanitizer")
        self.assertFalse(os.path.exists(results))

    def test_hanging_program_device_times_out(self):
        r = ptovec("run", "--dut-cmd", "sh -c 'echo ptovec-dut 1 hang; sleep 60'",
                   "--dut-timeout", 1, "--vectors", self.vectors, "--results",
                   self.path("hang.bin"), timeout=30)
        # A hung device is the device failing (exit 1, named in the report), not a usage error.
        self.assertEqual(r.returncode, 1, r.stdout + r.stderr)
        for fragment in ("DEVICE FAILED: device hang gave no answer to case 0 (ptovec eval --op "
                         "tquant", "within 1 s (--dut-timeout; does the device flush stdout "
                         "after its answers?)", "killed it"):
            self.assertIn(fragment, r.stdout)

    @unittest.skipUnless(ORACLE_DEVICE, "no PTOVEC_ORACLE_DEVICE")
    def test_shrink_from_a_selection_the_results_do_not_hold(self):
        results = self.path("for-shrink.bin")
        r = ptovec("run", "--dut-cmd", ORACLE_DEVICE, "--vectors", self.vectors, "--results",
                   results)
        self.assertEqual(r.returncode, 0, r.stdout + r.stderr)
        r = ptovec("shrink", "--dut-cmd", ORACLE_DEVICE, "--from", results, "--vectors",
                   self.vectors, "--op", "shift", "--src", "s32", "--dst", "s16")
        self.assert_usage_error(r, "no section for shift s32 -> s16 in " + results +
                                " (sections: tquant fp32 -> s8)")
        r = ptovec("shrink", "--dut-cmd", ORACLE_DEVICE, "--from", results, "--vectors",
                   self.vectors, "--op", "tquant", "--src", "fp32", "--dst", "s64")
        self.assert_usage_error(r, "tquant does not accept fp32 -> s64")

    @unittest.skipUnless(ORACLE_DUT, "no PTOVEC_ORACLE_DUT")
    def test_run_generates_with_op_into_work(self):
        work = self.path("work")
        r = ptovec("run", "--dut", ORACLE_DUT, "--op", "qparam", "--samples", 25, "--work", work)
        self.assertEqual(r.returncode, 0, r.stdout + r.stderr)
        self.assertIn("25 vectors: 25 matched", r.stdout)
        self.assertTrue(os.path.exists(os.path.join(work, "results.bin")))
        self.assertTrue(os.path.exists(os.path.join(work, "qparam_fp32_u64.bin")))


if __name__ == "__main__":
    unittest.main()
