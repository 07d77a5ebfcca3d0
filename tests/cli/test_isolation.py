"""Isolated devices: a --dut library runs in a device host process; a crash, an exit or
a hang of a device (library or program) on one case is the device failing: the case is named,
counted in the report and in JUnit (<error>), the results file is marked as stopped early, and
the exit status is 1. run --keep-going goes on; shrink minimises the failing case.

The faulty devices (tests/devices/faulty_oracle_device.cpp) are the oracle but for the FP16
input 0x3c00 under RNE, on which they crash (SIGSEGV), hang or exit with status 3;
PTOVEC_FAULTY_DUT_DIR is their folder (with libptovec_test_dut_init_refuses.so).

Run by ctest (tests/cli/CMakeLists.txt) with Debian's /usr/bin/python3 -m pytest; the helper
ptovec_cli.py gives ptovec(*args) and this build's paths.
"""
import glob
import json
import os
import struct
import subprocess
import sys

from ptovec_cli import ORACLE_DUT, PTOVEC, ClassScratch, generate, subtest
from ptovec_cli import ptovec as ptovec_ci

FAULTY_DIR = os.environ.get("PTOVEC_FAULTY_DUT_DIR", "")


def faulty(kind):
    return os.path.join(FAULTY_DIR, "libptovec_test_dut_faulty_" + kind + ".so")


def ptovec(*args, timeout=120):
    return ptovec_ci(*args, timeout=timeout)


EVAL = "ptovec eval --op tcvt --src fp16 --dst e8m0 --rmode RNE 0x3c00"
CASE = "case tcvt fp16 -> e8m0, mode RNE, Sat off, inputs 0x3c00 (reproduce: " + EVAL + ")"

# A program device (schemas/dut-protocol.md) that answers every case "unsupported" but kills
# itself with SIGSEGV on the FP16 input 0x3c00 under RNE.
PROGRAM = r'''
import os, signal, sys
sys.stdout.write(sys.stdin.readline() and "ptovec-dut 1 crasher\n"); sys.stdout.flush()
for line in sys.stdin:
    t = line.split()
    if t[2] == "fp16" and t[4] == "RNE" and t[6] == "0x3c00":
        os.kill(os.getpid(), signal.SIGSEGV)
    sys.stdout.write(t[0] + " unsupported\n"); sys.stdout.flush()
'''


def results_header(path):
    """The JSON header of a binary results file and its fixed `records` field."""
    with open(path, "rb") as f:
        fixed = f.read(32)
        header = json.loads(f.read(struct.unpack("<I", fixed[12:16])[0]))
    return header, struct.unpack("<Q", fixed[16:24])[0]


def require_devices():
    """Fails (never skips) naming each device this build lacks: a build that registers these
    tests must build them (the asan build preset lists them among its targets)."""
    wanted = [faulty(kind) for kind in ("crash", "hang", "exit")]
    wanted += [os.path.join(FAULTY_DIR, "libptovec_test_dut_init_refuses.so"), ORACLE_DUT or ""]
    missing = [path or "PTOVEC_ORACLE_DUT" for path in wanted if not path or
               not os.path.exists(path)]
    assert not missing, ("devices not built (add their targets to the build preset): " +
                         ", ".join(missing))


class TestIsolation(ClassScratch):
    @classmethod
    def setup_class(cls):
        require_devices()
        super().setup_class()
        cls.vectors = os.path.join(cls.tmp, "vectors")
        generate(cls.vectors, "--op", "tcvt", "--src", "fp16", "--dst", "e8m0")

    def assert_no_temporaries(self):
        assert glob.glob(os.path.join(self.tmp, "**", "*.tmp-*"), recursive=True) == []

    def assert_stopped(self, results, reason):
        header, records = results_header(results)
        assert reason in header["stopped"]["reason"]
        assert header["stopped"]["records"] == records
        assert records < header["sections"][0]["count"]

    def test_crashing_library_names_the_case(self):
        results, junit = self.path("crash.bin"), self.path("crash.xml")
        r = ptovec("run", "--dut", faulty("crash"), "--vectors", self.vectors, "--results",
                   results, "--junit", junit, "--quiet")
        assert r.returncode == 1, (r.stdout + r.stderr)
        failure = ("device faulty-oracle crashed (its host was killed by signal 11 (Segmentation "
                   "fault)) on " + CASE + " (found by replaying its batch of 4096 cases one at a "
                   "time in a fresh host)")
        assert ("DEVICE FAILED: " + failure + "\n") in r.stdout
        assert "INCOMPLETE: the device failed, the run stopped early\n" in r.stdout
        assert ", the device failed on 1 case\n" in r.stdout
        assert r.stderr == ""
        with open(junit) as f:
            xml = f.read()
        assert 'errors="1"' in xml.split("\n")[1]  # <testsuites ...>
        assert ('<error type="device-failure" message="' + failure.replace(">", "&gt;")) in xml
        self.assert_stopped(results, "crashed (its host was killed by signal 11")
        self.assert_no_temporaries()
        # The results file of the stopped run is checked as incomplete, never a pass.
        r = ptovec("check", "--vectors", self.vectors, "--results", results)
        assert r.returncode == 1, (r.stdout + r.stderr)
        assert "INCOMPLETE: the run stopped after" in r.stdout

    def test_hanging_library_times_out_on_the_case(self):
        results = self.path("hang.bin")
        r = ptovec("run", "--dut", faulty("hang"), "--dut-timeout", "0.5", "--vectors",
                   self.vectors, "--results", results, "--quiet")
        assert r.returncode == 1, (r.stdout + r.stderr)
        assert ("DEVICE FAILED: device faulty-oracle hung (no answer within 0.5 s, "
                      "--dut-timeout; killed it) on " + CASE + " (found by replaying") in r.stdout
        self.assert_stopped(results, "hung")
        self.assert_no_temporaries()

    def test_exiting_library(self):
        r = ptovec("run", "--dut", faulty("exit"), "--vectors", self.vectors, "--results",
                   self.path("exit.bin"), "--quiet")
        assert r.returncode == 1, (r.stdout + r.stderr)
        assert ("DEVICE FAILED: device faulty-oracle exited unexpectedly (its host exited "
                      "with status 3) on " + CASE) in r.stdout

    def test_exhaustive_run_names_the_case(self):
        junit = self.path("exhaustive.xml")
        r = ptovec("run", "--dut", faulty("crash"), "--exhaustive", "--op", "tcvt", "--src",
                   "fp16", "--dst", "e8m0", "--junit", junit, "--quiet")
        assert r.returncode == 1, (r.stdout + r.stderr)
        assert ("DEVICE FAILED: device faulty-oracle crashed (its host was killed by signal "
                      "11 (Segmentation fault)) on " + CASE) in r.stdout
        with open(junit) as f:
            assert f.read().count('<error type="device-failure"') == 1

    def test_the_library_is_loaded_only_in_the_host(self):
        # BF16 cases never reach the fault: the run passes. The library's static constructor logs
        # the process that loaded it: the host (not ptovec) when isolated, ptovec with
        # --in-process; once each.
        for in_process in (False, True):
            log = self.path("loads-%d.txt" % in_process)
            args = [PTOVEC, "run", "--dut", faulty("crash"), "--op", "tcvt", "--src", "bf16",
                    "--dst", "e8m0", "--quiet"] + (["--in-process"] if in_process else [])
            p = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                                 env=dict(os.environ, PTOVEC_TEST_LOAD_LOG=log))
            out, err = p.communicate(timeout=120)
            assert p.returncode == 0, (out + err)
            with open(log) as f:
                loads = [int(line) for line in f]
            with subtest(in_process=in_process):
                assert len(loads) == 1, loads
                if in_process:
                    assert loads[0] == p.pid
                else:
                    assert loads[0] != p.pid

    def test_keep_going_counts_each_failed_case(self):
        results, junit = self.path("keep.bin"), self.path("keep.xml")
        r = ptovec("run", "--dut", faulty("crash"), "--vectors", self.vectors, "--results",
                   results, "--junit", junit, "--keep-going", "--quiet")
        assert r.returncode == 1, (r.stdout + r.stderr)
        # 0x3c00 under RNE with Sat off and on: two cases, every other one answered.
        assert r.stdout.count("DEVICE FAILED: ") == 2, r.stdout
        assert ("inputs 0x3c00 (reproduce: " + EVAL + ")\n") in r.stdout
        assert ("inputs 0x3c00 (reproduce: " + EVAL.replace("RNE", "RNE --sat") + ")\n") in r.stdout
        assert ("FAIL: 0 mismatched, 2 unsupported of 917504 vectors, the device failed on "
                      "2 cases\n") in r.stdout
        with open(junit) as f:
            xml = f.read()
        assert xml.count('<error type="device-failure"') == 2
        header, records = results_header(results)
        assert "stopped" not in header
        assert records == 917504

    def test_shrink_minimises_a_crash(self):
        out = self.path("shrunk.json")
        r = ptovec("shrink", "--dut", faulty("crash"), "--op", "tcvt", "--src", "fp16", "--dst",
                   "e8m0", "--json", "--format", "json", "--out", out)
        assert r.returncode == 1, (r.stdout + r.stderr)
        cx = json.loads(r.stdout)["counterexample"]
        assert (cx["in"], cx["rmode"], cx["sat"], cx["got"]) == ({"value": "0x3c00"}, "RNE", False, "unsupported")
        assert "crashed (its host was killed by signal 11" in cx["failure"]
        assert cx["eval"] == EVAL

    def test_crashing_program_device(self):
        script = self.path("crasher.py")
        with open(script, "w") as f:
            f.write(PROGRAM)
        results, junit = self.path("program.bin"), self.path("program.xml")
        r = ptovec("run", "--dut-cmd", sys.executable + " " + script, "--vectors", self.vectors,
                   "--results", results, "--junit", junit, "--quiet")
        assert r.returncode == 1, (r.stdout + r.stderr)
        assert "DEVICE FAILED: device crasher exited before answering case " in r.stdout
        assert (": " + EVAL + " (") in r.stdout
        assert "; it was killed by signal 11" in r.stdout
        with open(junit) as f:
            assert '<error type="device-failure"' in f.read()
        self.assert_stopped(results, "exited before answering case")
        self.assert_no_temporaries()

    def test_load_errors_read_as_in_process(self):
        missing = self.path("no-such.so")
        refuses = os.path.join(FAULTY_DIR, "libptovec_test_dut_init_refuses.so")
        for lib in (missing, refuses):
            lines = []
            for mode in ([], ["--in-process"]):
                r = ptovec("run", "--dut", lib, "--vectors", self.vectors, "--results",
                           self.path("load.bin"), *mode)
                assert r.returncode == 2, (r.stdout + r.stderr)
                lines.append(r.stderr)
            assert lines[0] == lines[1]
            assert lines[0].startswith("ptovec: error: "), lines[0]

    def test_isolated_and_in_process_give_the_same_results(self):
        outputs = []
        for mode in ([], ["--in-process"]):
            results = self.path("same%d.bin" % len(outputs))
            r = ptovec("run", "--dut", ORACLE_DUT, "--vectors", self.vectors, "--results", results,
                       "--quiet", *mode)
            assert r.returncode == 0, (r.stdout + r.stderr)
            with open(results, "rb") as f:
                outputs.append((r.stdout, f.read()))
        assert outputs[0] == outputs[1]
