"""`ptovec run`: the oracle devices (library and program) pass; a filtered run lists its controls;
a run that stops early is recorded as incomplete; program devices that fail at exit or hang are
errors; run --op generates into its work folder; reports count "1 file" / "N files" and name a
failing vector "vector N", as the README does.

Run by ctest (tests/cli/CMakeLists.txt) with Debian's /usr/bin/python3 -m pytest; the helper
ptovec_cli.py gives ptovec(*args) and this build's paths.
"""
import json
import os
import re
import struct
import xml.etree.ElementTree as ET

import pytest

from ptovec_cli import ALWAYS_UP, ORACLE_DEVICE, ORACLE_DUT, Scratch, files, ptovec, \
    schema_validator
from vendor_results import GateBase


@pytest.mark.skipif(not (ORACLE_DUT or ORACLE_DEVICE),
                    reason="no oracle device built (PTOVEC_ORACLE_DUT)")
class TestRun(GateBase):
    def run_and_check(self, device_args, fmt):
        results = self.path("run." + fmt)
        junit = self.path("run.xml")
        r = ptovec("run", *device_args, "--vectors", self.vectors, "--results", results,
                   "--format", fmt, "--junit", junit)
        assert r.returncode == 0, (r.stdout + r.stderr)
        assert "700 vectors: 700 matched, 0 mismatched, 0 unsupported" in r.stdout
        r = ptovec("check", "--vectors", self.vectors, "--results", results)
        assert r.returncode == 0, (r.stdout + r.stderr)
        root = ET.parse(junit).getroot()
        assert (root.get("tests"), root.get("failures")) == ("14", "0")
        return results

    @pytest.mark.skipif(not ORACLE_DUT, reason="no PTOVEC_ORACLE_DUT")
    def test_oracle_library_passes(self):
        results = self.run_and_check(["--dut", ORACLE_DUT], "bin")
        with open(results, "rb") as f:
            assert f.read(8) == b"PTOVEC\0R"
        results = self.run_and_check(["--dut", ORACLE_DUT], "json")
        v = schema_validator("results.schema.json")
        with open(results) as f:
            for line in f.read().split("\n")[:100]:
                if line:
                    v.validate(json.loads(line))

    def test_run_prints_the_devices_throughput_unless_quiet(self):
        # The oracle library is not clocked: no cases per clock. The 700 vectors are one batch,
        # split in chunks of 256, 256 and 188 (chunks have at least 256 cases): both threads.
        results = self.path("throughput.bin")
        r = ptovec("run", "--dut", ORACLE_DUT, "--vectors", self.vectors, "--results", results,
                   "--threads", "2")
        assert r.returncode == 0, (r.stdout + r.stderr)
        lines = [line for line in r.stderr.splitlines() if "vectors/s" in line]
        assert len(lines) == 1, r.stderr
        assert re.fullmatch(r"ptovec: device ptovec-oracle: 700 vectors in [0-9]+\.[0-9]{3} s "
                            r"\([0-9]+ vectors/s on 2 threads\)", lines[0]), lines
        r = ptovec("run", "--dut", ORACLE_DUT, "--vectors", self.vectors, "--results", results,
                   "--threads", "2", "--quiet")
        assert r.returncode == 0, (r.stdout + r.stderr)
        assert "vectors/s" not in r.stderr

    @pytest.mark.skipif(not ORACLE_DUT, reason="no PTOVEC_ORACLE_DUT")
    def test_a_filtered_run_lists_its_controls(self):
        results, junit = self.path("filtered.jsonl"), self.path("filtered.xml")
        r = ptovec("run", "--dut", ORACLE_DUT, "--vectors", self.vectors, "--results", results,
                   "--format", "json", "--rmode", "RTZ,RNE", "--sat", "off", "--junit", junit)
        assert r.returncode == 0, (r.stdout + r.stderr)
        assert "100 vectors: 100 matched" in r.stdout  # 50 inputs x (RNE, RTZ) Sat off
        with open(results) as f:
            lines = [json.loads(line) for line in f if line.strip()]
        v = schema_validator("results.schema.json")
        for line in lines[:20]:
            v.validate(line)
        section = lines[0]["sections"][0]
        assert (lines[0]["version"], section["count"], section["controls"]) == (2, 100, [{"rmode": "RNE", "sat": False}, {"rmode": "RTZ", "sat": False}])
        # Each index is the vector file's record: input k's RNE-off record is 14k, RTZ-off 14k + 6.
        assert [x["i"] for x in lines[1:7]] == [0, 6, 14, 20, 28, 34]
        root = ET.parse(junit).getroot()
        assert (root.get("tests"), root.get("failures")) == ("2", "0")
        r = ptovec("check", "--vectors", self.vectors, "--results", results)
        assert r.returncode == 0, (r.stdout + r.stderr)
        assert "100 vectors: 100 matched" in r.stdout
        # The Python reader of results files gives the same records.
        header, sections = files.read_results(results)
        assert header["sections"][0]["count"] == 100
        assert sections[0]["index"][:4].tolist() == [0, 6, 14, 20]
        assert [f"0x{w:02x}" for w in sections[0]["out"][:3].tolist()] == [x["out"] for x in lines[1:4]]
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
        assert r.returncode == 0, (r.stdout + r.stderr)
        r = ptovec("check", "--vectors", self.vectors, "--results", results)
        assert r.returncode == 0, (r.stdout + r.stderr)
        assert "350 vectors: 350 matched" in r.stdout
        header, sections = files.read_results(results)
        assert (header["version"], len(sections[0])) == (2, 350)
        assert sections[0]["index"][:3].tolist() == [1, 3, 5]  # Sat on: odd records

    @pytest.mark.skipif(not ORACLE_DEVICE, reason="no PTOVEC_ORACLE_DEVICE")
    def test_a_run_that_stops_early_is_recorded_as_incomplete(self):
        # 5600 vectors go to the device in batches of 4096. The device (through `sed -u 4097q`)
        # answers its hello and the first batch, then falls silent: the device failed at the
        # second batch (exit 1, the failure in the report), and its results file keeps the 4096
        # answers, marked as stopped.
        vectors = self.path("stop-vectors")
        r = ptovec("generate", "--op", "tquant", "--src", "fp32", "--dst", "s8", "--samples", 400,
                   "--out", vectors, "--quiet")
        assert r.returncode == 0, r.stderr
        results, junit = self.path("stopped.bin"), self.path("stopped.xml")
        r = ptovec("run", "--dut-cmd", "sh -c '" + ORACLE_DEVICE + " | sed -u 4097q'",
                   "--dut-timeout", 1, "--vectors", vectors, "--results", results)
        assert r.returncode == 1, (r.stdout + r.stderr)
        assert "DEVICE FAILED: device " in r.stdout
        assert "answer" in r.stdout
        assert "case 4096" in r.stdout  # no answer in time, or exited (timing decides)
        with open(results, "rb") as f:
            fixed = f.read(32)
            header = json.loads(f.read(struct.unpack("<I", fixed[12:16])[0]))
        assert struct.unpack("<Q", fixed[16:24])[0] == 4096
        assert header["stopped"]["records"] == 4096
        _, sections = files.read_results(results)
        assert (len(sections[0]), int(sections[0]["index"][-1])) == (4096, 4095)
        assert "case 4096" in header["stopped"]["reason"]
        schema_validator("results-binary-header.schema.json").validate(header)
        r = ptovec("check", "--vectors", vectors, "--results", results, "--junit", junit)
        assert r.returncode == 1, (r.stdout + r.stderr)
        assert "4096 vectors: 4096 matched, 0 mismatched" in r.stdout
        assert "INCOMPLETE: the run stopped after 4096 of 5600 records: device" in r.stdout
        assert "FAIL: 0 mismatched, 0 unsupported of 4096 vectors checked (incomplete run)" in r.stdout
        with open(junit) as f:
            assert 'failure type="incomplete"' in f.read()

    @pytest.mark.skipif(not ORACLE_DEVICE, reason="no PTOVEC_ORACLE_DEVICE")
    def test_oracle_program_passes(self):
        self.run_and_check(["--dut-cmd", ORACLE_DEVICE], "bin")

    @pytest.mark.skipif(not ORACLE_DEVICE, reason="no PTOVEC_ORACLE_DEVICE")
    def test_program_device_that_fails_at_exit_is_an_error(self):
        # Every answer is right, but the device exits 1 with a sanitizer report: exit 2, no report.
        results = self.path("asan.bin")
        r = ptovec("run", "--dut-cmd",
                   "sh -c '" + ORACLE_DEVICE + "; echo ERROR: AddressSanitizer >&2; exit 1'",
                   "--vectors", self.vectors, "--results", results)
        self.assert_usage_error(r, "failed after its input ended (the last case was 699; a device "
                                "must exit with status 0); it exited with status 1; its stderr "
                                "ends: ERROR: AddressSanitizer")
        assert not os.path.exists(results)

    def test_hanging_program_device_times_out(self):
        r = ptovec("run", "--dut-cmd", "sh -c 'echo ptovec-dut 1 hang; sleep 60'",
                   "--dut-timeout", 1, "--vectors", self.vectors, "--results",
                   self.path("hang.bin"), timeout=30)
        # A hung device is the device failing (exit 1, named in the report), not a usage error.
        assert r.returncode == 1, (r.stdout + r.stderr)
        for fragment in ("DEVICE FAILED: device hang gave no answer to case 0 (ptovec eval --op "
                         "tquant", "within 1 s (--dut-timeout; does the device flush stdout "
                         "after its answers?)", "killed it"):
            assert fragment in r.stdout

    @pytest.mark.skipif(not ORACLE_DEVICE, reason="no PTOVEC_ORACLE_DEVICE")
    def test_shrink_from_a_selection_the_results_do_not_hold(self):
        results = self.path("for-shrink.bin")
        r = ptovec("run", "--dut-cmd", ORACLE_DEVICE, "--vectors", self.vectors, "--results",
                   results)
        assert r.returncode == 0, (r.stdout + r.stderr)
        r = ptovec("shrink", "--dut-cmd", ORACLE_DEVICE, "--from", results, "--vectors",
                   self.vectors, "--op", "shift", "--src", "s32", "--dst", "s16")
        self.assert_usage_error(r, "no section for shift s32 -> s16 in " + results +
                                " (sections: tquant fp32 -> s8)")
        r = ptovec("shrink", "--dut-cmd", ORACLE_DEVICE, "--from", results, "--vectors",
                   self.vectors, "--op", "tquant", "--src", "fp32", "--dst", "s64")
        self.assert_usage_error(r, "tquant does not accept fp32 -> s64")

    @pytest.mark.skipif(not ORACLE_DUT, reason="no PTOVEC_ORACLE_DUT")
    def test_run_generates_with_op_into_work(self):
        work = self.path("work")
        r = ptovec("run", "--dut", ORACLE_DUT, "--op", "qparam", "--samples", 25, "--work", work)
        assert r.returncode == 0, (r.stdout + r.stderr)
        assert "25 vectors: 25 matched" in r.stdout
        assert os.path.exists(os.path.join(work, "results.bin"))
        assert os.path.exists(os.path.join(work, "qparam_fp32_u64.bin"))


@pytest.mark.skipif(not ALWAYS_UP, reason="PTOVEC_MUTANT_E8M0_ALWAYS_UP is not set")
class TestWords(Scratch):
    def test_one_file_and_vector_n(self):
        folder = self.generate_fp16_e8m0("e8m0")
        r = ptovec("run", "--dut", ALWAYS_UP, "--vectors", folder, "--max-report", 1,
                   "--results", self.path("r.bin"))
        assert r.returncode == 1, (r.stdout + r.stderr)
        assert re.search(r"(?m)^ptovec: 1 file, 65536 vectors: \d+ matched, ", r.stdout)
        assert re.search(r"(?m)^  tcvt_fp16_e8m0\.bin vector \d+: tcvt fp16 -> e8m0 RTZ ", r.stdout)
        assert re.search(r"(?m)first tcvt_fp16_e8m0\.bin vector \d+$", r.stdout)
        assert "file(s)" not in r.stdout
        assert " record " not in r.stdout
        r = ptovec("generate", "--op", "shift", "--samples", 1, "--out", self.path("one"))
        assert "ptovec: wrote 1 file, 1 vector, " in r.stderr
