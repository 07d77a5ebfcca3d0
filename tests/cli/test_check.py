"""`ptovec check`: results files written by a Python vendor harness from the documented formats
(schemas/results-format.md) pass and validate against the committed JSON Schemas; mismatches exit
1 with groups and eval commands, JUnit parsed with xml.etree; truncated, reordered, broken and
foreign results files, bad arguments, pipes and outputs that would overwrite inputs are refused
with one line (exit 2); small edges of selection and file names.

Run by ctest (tests/cli/CMakeLists.txt) with Debian's /usr/bin/python3 -m pytest; the helper
ptovec_cli.py gives ptovec(*args) and this build's paths.
"""
import json
import os
import re
import xml.etree.ElementTree as ET

from ptovec_cli import ORACLE_DUT, generate, ptovec, schema_validator
from vendor_results import GateBase, vendor_results_bin, vendor_results_jsonl


class TestCheck(GateBase):
    def test_vendor_json_lines_results_pass_and_validate(self):
        results = self.path("vendor.jsonl")
        header, lines = vendor_results_jsonl(self.vectors, results)
        assert len(lines) == 700
        junit = self.path("pass.xml")
        r = ptovec("check", "--vectors", self.vectors, "--results", results, "--junit", junit)
        assert r.returncode == 0, (r.stdout + r.stderr)
        assert ("ptovec: 1 file, 700 vectors: 700 matched, 0 mismatched, 0 unsupported "
                      "(device python-vendor)") in r.stdout
        assert r.stdout.endswith("PASS\n")
        root = ET.parse(junit).getroot()
        assert root.tag == "testsuites"
        assert (root.get("tests"), root.get("failures")) == ("14", "0")
        cases = root.findall("./testsuite/testcase")
        assert len(cases) == 14
        assert cases[5].get("name") == "RTP sat=on"
        # Every line validates against the committed results schema.
        v = schema_validator("results.schema.json")
        v.validate(header)
        for line in lines[:200]:
            v.validate(json.loads(line))
        assert not v.is_valid({"s": 0, "i": 0, "flags": "0x00"})  # out required
        assert v.is_valid({"s": 0, "i": 0, "flags": "unsupported"})
        assert not v.is_valid({"s": 0, "i": 0, "out": "0x1", "flags": "0x20"})

    def test_vendor_binary_results_pass_and_header_validates(self):
        results = self.path("vendor.bin")
        header = vendor_results_bin(self.vectors, results)
        schema_validator("results-binary-header.schema.json").validate(header)
        r = ptovec("check", "--vectors", self.vectors, "--results", results)
        assert r.returncode == 0, (r.stdout + r.stderr)
        assert "700 matched" in r.stdout

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
        assert r.returncode == 1, (r.stdout + r.stderr)
        assert "700 vectors: 600 matched, 50 mismatched, 50 unsupported" in r.stdout
        assert "by kind: wrong word 50, wrong flags 0, both 0, unsupported 50" in r.stdout
        assert re.search(r"tquant +fp32 +s8 +RTZ +on +50 +50 +0 +0 +0", r.stdout)
        # The unsupported vectors: one line for the pair, no row of the per-control table.
        assert not re.search(r"tquant +fp32 +s8 +RNE +off", r.stdout)
        assert ("\n  tquant fp32 -> s8: 50 of 700 vectors under RNE, Sat off (1 symptom group)\n"
                in r.stdout)
        assert "first 3 of 100 failed vectors (mismatched or unsupported):" in r.stdout
        assert "ptovec eval --op tquant --src fp32 --dst s8 --rmode RTZ --sat 0x" in r.stdout
        assert r.stdout.rstrip().endswith("FAIL: 50 mismatched, 50 unsupported of 700 vectors")
        # The eval command of the first wrong word reproduces the expected answer.
        first = [l.strip() for l in r.stdout.split("\n") if l.strip().startswith("ptovec eval --op tquant") and "RTZ" in l][0]
        e = ptovec(*first.split()[1:])
        assert e.returncode == 0, e.stderr
        root = ET.parse(junit).getroot()
        assert (root.get("tests"), root.get("failures")) == ("14", "2")
        # --allow-unsupported does not pass wrong words: still FAIL, the unsupported-only test
        # case is skipped.
        allowed = ptovec("check", "--vectors", self.vectors, "--results", results,
                         "--allow-unsupported", "--junit", self.path("allowed.xml"))
        assert allowed.returncode == 1
        root_allowed = ET.parse(self.path("allowed.xml")).getroot()
        assert (root_allowed.get("failures"), root_allowed.get("skipped")) == ("1", "1")
        # The first-N list holds failed vectors only: no skipped unsupported one.
        assert "first 20 of 50 failed vectors (mismatched; unsupported ones are skipped):" in allowed.stdout
        listed = allowed.stdout.split("failed vectors (mismatched;")[1]
        assert "got unsupported" not in listed
        assert ("unsupported: 50 vectors in 1 pair, skipped (--allow-unsupported) (their symptom "
                "groups are in --report-json):\n"
                "  tquant fp32 -> s8: 50 of 700 vectors under RNE, Sat off (1 symptom group)\n"
                in allowed.stdout)
        # --max-report 0: the table and the verdict, no "first 0 of ..." line.
        quiet = ptovec("check", "--vectors", self.vectors, "--results", results, "--max-report", 0)
        assert quiet.returncode == 1
        assert "first 0" not in quiet.stdout
        assert "ptovec eval" not in quiet.stdout
        failures = root.findall("./testsuite/testcase/failure")
        assert len(failures) == 2
        assert failures[0].get("message") == "50 of 50 vectors failed (wrong word 0, wrong flags 0, both 0, unsupported 50)"
        assert "ptovec eval" in failures[1].text


class TestCheckErrors(GateBase):
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
        assert not os.path.exists(os.path.join(self.vectors, "results.bin"))

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
        assert os.path.getsize(vector_file) == size
        r = ptovec("check", "--vectors", self.vectors, "--results", good, "--junit", "/nonexistent/dir/j.xml")
        self.assert_usage_error(r, "--junit /nonexistent/dir/j.xml: its folder /nonexistent/dir does not exist")
        assert r.stdout == ""  # no PASS before the error

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
                assert f.read() == "old passing report"

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
        assert r.returncode == 1, (r.stdout + r.stderr)
        assert [json.loads(l) for l in r.stdout.splitlines()] == ([{"line": n, "error": "--help is not a case (expected the arguments of `ptovec eval`)"}
                          for n in (1, 2)])


class TestCheckEdges(GateBase):
    """Small edges: each message says what to do."""

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
        assert ptovec(*check).returncode == 1
        r = ptovec(*check, "--rmode", "RTZ")
        assert r.returncode == 0, (r.stdout + r.stderr)
        assert "ptovec: 1 file, 100 vectors: 100 matched" in r.stdout
        assert ("scope: checked only the vectors of RTZ; Sat off and on (600 answers of other "
                      "controls in the results file were not compared)") in r.stdout
        assert ptovec(*check, "--sat", "off").returncode == 0
        r = ptovec(*check, "--rmode", "RTM,RNE")
        assert r.returncode == 1, r.stdout
        assert "FAIL: 50 mismatched, 0 unsupported of 200 vectors" in r.stdout
        r = ptovec(*check, "--rmode", "RTX")
        self.assert_usage_error(r, "unknown --rmode 'RTX'")

    def test_a_selection_checks_its_sections_of_a_whole_suite_results_file(self):
        # A run over 13 pairs (encode fp32 -> every type), then check of one of them: the
        # selection takes its sections (by file name), in binary and JSON lines, and says so.
        suite = self.path("wide")
        generate(suite, "--op", "encode", "--src", "fp32", "--samples", 20)
        for fmt, name in (("bin", "wide.bin"), ("json", "wide.jsonl")):
            results = self.path(name)
            r = ptovec("run", "--dut", ORACLE_DUT, "--vectors", suite, "--results", results,
                       "--format", fmt, "--quiet")
            assert r.returncode == 0, (r.stdout + r.stderr)
            r = ptovec("check", "--vectors", suite, "--results", results, "--src", "fp32",
                       "--dst", "bf16")
            assert r.returncode == 0, (r.stdout + r.stderr)
            assert "ptovec: 1 file, 280 vectors: 280 matched, 0 mismatched" in r.stdout
            assert (f"\nnote: checked 1 section of 13 in {name}, those of {suite} (src fp32, dst "
                    "bf16)\n") in r.stdout
            # Without --vectors: those the results file's header names (as `report` and
            # `shrink --from` find them; a newcomer's check was refused for want of --vectors).
            r = ptovec("check", "--results", results, "--src", "fp32", "--dst", "bf16")
            assert r.returncode == 0, (r.stdout + r.stderr)
            assert "ptovec: 1 file, 280 vectors: 280 matched, 0 mismatched" in r.stdout
        # The answers come from the selected section: a wrong bf16 section fails --dst bf16 only.
        with open(self.path("wide.jsonl")) as f:
            lines = f.read().splitlines()
        header = json.loads(lines[0])
        bf16 = [k for k, x in enumerate(header["sections"]) if x["file"] == "encode_fp32_bf16.bin"]
        assert len(bf16) == 1
        for k in range(1, len(lines)):
            record = json.loads(lines[k])
            if record["s"] == bf16[0]:
                record["flags"] = "0x1f"
                lines[k] = json.dumps(record)
        with open(self.path("wrong.jsonl"), "w") as f:
            f.write("\n".join(lines) + "\n")
        check = ["check", "--vectors", suite, "--results", self.path("wrong.jsonl")]
        r = ptovec(*check, "--dst", "bf16", "--max-report", 0)
        assert r.returncode == 1, (r.stdout + r.stderr)
        assert "FAIL: 280 mismatched, 0 unsupported of 280 vectors" in r.stdout
        r = ptovec(*check, "--dst", "fp16")
        assert r.returncode == 0, (r.stdout + r.stderr)
        assert "280 matched" in r.stdout

    def test_without_vectors_a_missing_results_file_is_named(self):
        missing = self.path("none.bin")
        r = ptovec("check", "--results", missing)
        assert r.returncode == 2
        assert r.stderr == (f"ptovec: error: results file {missing} does not exist or is not a "
                            "file (expected the results file of a `ptovec run`, or of a harness: "
                            "schemas/results-format.md)\n")

    def test_several_vector_paths_need_a_results_file(self):
        r = ptovec("run", "--dut", self.path("missing.so"), "--vectors", self.vectors, self.other)
        self.assert_usage_error(r, "several --vectors paths: give --results FILE")

    def test_schema_takes_the_file_names_too(self):
        a, b = ptovec("schema", "eval"), ptovec("schema", "eval-line")
        assert (a.returncode, b.returncode) == (0, 0)
        assert a.stdout == b.stdout

    def test_a_device_that_does_not_flush_is_told_so(self):
        # Says its hello only when its input ends (as a device whose stdout is block-buffered).
        r = ptovec("run", "--dut-cmd", "sh -c 'cat >/dev/null; echo ptovec-dut 1 lazy'",
                   "--dut-timeout", "0.5", "--vectors", self.vectors,
                   "--results", self.path("lazy.bin"))
        self.assert_usage_error(r, "sent no hello line within 0.5 s (--dut-timeout; a device must "
                                   "flush stdout after each line it writes)")
