#!/usr/bin/python3
"""Clean interrupts, concurrent use and error lines safe to print.

InterruptTest: SIGINT and SIGTERM during generate, run, check and shrink remove every temporary,
leave every final file as it was (SHA-256 before and after), kill the program device, and exit
130 or 143 with one line. Each command is signalled at a point it cannot pass on its own, so the
tests do not depend on timing: generate is given 50 million samples and signalled once its third
file's temporary exists (the first two are finished but not yet renamed); run and shrink talk to
a device that never answers (--dut-timeout 0); check and run are signalled while they block
writing a large report to a pipe nobody reads (their results and --mismatches files are then
already renamed into place, and must be put back); coverage --ucis while its Python script (a
stand-in that never ends) runs.

ConcurrentUseTest: a second generate into a folder, or a run or check of it, while a generate
writes it is refused with one line naming the folder and the other process; a lock file left by
a killed process does not block; no lock file stays behind.

SafeErrorLinesTest: error lines quoting corrupted files (vector files, manifests, results files,
eval --batch lines, device output) are valid UTF-8 without control characters, the bytes shown
escaped (\\xff); and 200 seeded random byte mutations of such files keep every line so.

Run by ctest (tests/cli/CMakeLists.txt) with Debian's /usr/bin/python3 -m pytest; the helper
ptovec_cli.py gives ptovec(*args) and this build's paths.
"""
import json
import os
import random
import select
import signal
import subprocess
import tempfile
import time

import pytest

from ptovec_cli import PTOVEC, SOURCE, Scratch, snapshot, start, subtest
from ptovec_cli import ptovec as ptovec_text


SHIFT = ["--op", "shift", "--src", "s32", "--dst", "s16"]  # sampled, one control
FP16_E8M0 = ["--op", "tcvt", "--src", "fp16", "--dst", "e8m0"]
SIGNALS = [(signal.SIGINT, 130, "SIGINT"), (signal.SIGTERM, 143, "SIGTERM")]


def ptovec(*args, cwd=None, stdin=None):
    """ptovec_cli.ptovec with bytes for output (these tests read lines that may not be UTF-8)."""
    return ptovec_text(*args, timeout=600, cwd=cwd, stdin=stdin, text=False)



def wait_for(predicate, what, limit=120):
    """Polls until predicate() is true; fails the test (not a timing condition: a safety net for
    a command that never reaches the point) after `limit` seconds."""
    deadline = time.monotonic() + limit
    while not predicate():
        if time.monotonic() > deadline:
            raise AssertionError("never reached: " + what)
        time.sleep(0.005)


def stuck_device(folder):
    """A --dut-cmd that answers the hello, reads one case line, says so in READY and then never
    answers (exec sleep: same pid, which it writes to PID first)."""
    pid = os.path.join(folder, "device.pid")
    ready = os.path.join(folder, "device.ready")
    command = ("sh -c 'echo $$ > %s; read h; echo \"ptovec-dut 1 stuck\"; read c; "
               "echo x > %s; exec sleep 600'" % (pid, ready))
    return command, pid, ready


def write_results(folder, path, line=None):
    """A JSON-lines results file of folder's first file (schemas/results-format.md) whose every
    answer is out 0x0000 with flags 0x1f (wrong), or `line` (bytes) as its first answer."""
    with open(os.path.join(folder, "manifest.json")) as f:
        entry = json.load(f)["files"][0]
    header = {"format": "ptovec-results-json", "version": 1, "tool_version": "test",
              "device": "wrong", "sections": [{"file": entry["path"], "sha256": entry["sha256"],
                                               "op": entry["op"], "src": entry["src"],
                                               "dst": entry["dst"], "count": entry["count"]}]}
    with open(path, "wb") as f:
        f.write(json.dumps(header).encode() + b"\n")
        for i in range(entry["count"]):
            if i == 0 and line is not None:
                f.write(line + b"\n")
            else:
                f.write(b'{"s":0,"i":%d,"out":"0x0000","flags":"0x1f"}\n' % i)


def assert_clean_line(test, stderr):
    """Every line is valid UTF-8 without control characters (tab included)."""
    text = stderr.decode("utf-8")  # raises on invalid UTF-8
    for line in text.splitlines():
        assert not any(ord(c) < 0x20 or 0x7F <= ord(c) <= 0x9F for c in line), repr(line)
    return text


class InterruptBase(Scratch):
    def temporaries(self):
        return [p for p in snapshot(self.tmp) if ".tmp-" in p or p.endswith(".ptovec.lock")]

    def assert_interrupted(self, proc, sig, code, name):
        _, err = proc.communicate(timeout=120)
        assert proc.returncode == code, err
        assert err.decode() == ("ptovec: interrupted (%s): no file was changed\n" % name)
        assert self.temporaries() == []


class TestInterrupt(InterruptBase):
    def test_generate_mid_suite_changes_nothing(self):
        out = self.path("suite")
        r = ptovec("generate", "--op", "tcvt", "--samples", 1000, "--out", out, "--quiet")
        assert r.returncode == 0, r.stderr
        before = snapshot(self.tmp)
        for sig, code, name in SIGNALS:
            with subtest(signal=name):
                # Replaces the suite (more samples); the FP16 and BF16 files are done (finished
                # temporaries) when FP32's temporary appears.
                proc = start("generate", "--op", "tcvt", "--samples", 50000000, "--threads", 1,
                             "--out", out, "--quiet")
                temp = os.path.join(out, "tcvt_fp32_e8m0.bin.tmp-%d" % proc.pid)
                wait_for(lambda: os.path.exists(temp) or proc.poll() is not None, temp)
                assert (os.path.exists(os.path.join(out, "tcvt_fp16_e8m0.bin.tmp-%d" %
                                                            proc.pid)))
                proc.send_signal(sig)
                self.assert_interrupted(proc, sig, code, name)
                assert snapshot(self.tmp) == before

    def test_generate_into_a_new_folder_leaves_no_folder(self):
        out = self.path("new", "suite")
        proc = start("generate", "--op", "tcvt", "--src", "fp32", "--dst", "e8m0", "--samples",
                     50000000, "--threads", 1, "--out", out, "--quiet")
        temp = os.path.join(out, "tcvt_fp32_e8m0.bin.tmp-%d" % proc.pid)
        wait_for(lambda: os.path.exists(temp) or proc.poll() is not None, temp)
        proc.send_signal(signal.SIGINT)
        self.assert_interrupted(proc, signal.SIGINT, 130, "SIGINT")
        assert os.listdir(self.tmp) == []

    def previous_run(self, fmt="bin"):
        """A vectors folder with the results, JUnit and mismatches files of an earlier run."""
        vectors = self.path("v")
        r = ptovec("generate", *SHIFT, "--samples", 2000, "--out", vectors, "--quiet")
        assert r.returncode == 0, r.stderr
        oracle = os.environ.get("PTOVEC_ORACLE_DEVICE")
        if oracle:
            r = ptovec("run", "--dut-cmd", oracle, "--vectors", vectors, "--format", fmt,
                       "--junit", self.path("j.xml"), "--mismatches", self.path("m.jsonl"),
                       "--quiet")
            assert r.returncode == 0, r.stderr
        else:  # stand-ins: the interrupted run must put back whatever was there
            for name in ("v/results.bin", "j.xml", "m.jsonl"):
                with open(self.path(name), "w") as f:
                    f.write("earlier " + name + "\n")
        return vectors

    def test_run_with_a_device_that_never_answers(self):
        vectors = self.previous_run()
        before = snapshot(self.tmp)
        for sig, code, name in SIGNALS:
            with subtest(signal=name):
                command, pid_file, ready = stuck_device(self.tmp)
                proc = start("run", "--dut-cmd", command, "--dut-timeout", 0, "--vectors", vectors,
                             "--junit", self.path("j.xml"), "--mismatches",
                             self.path("m.jsonl"), "--quiet")
                wait_for(lambda: os.path.exists(ready) or proc.poll() is not None, ready)
                with open(pid_file) as f:
                    device = int(f.read())
                os.unlink(pid_file)
                os.unlink(ready)
                # The results file of the earlier run stays in place until the run completes.
                results = os.path.join(vectors, "results.bin")
                assert snapshot(vectors)["results.bin"] == before[os.path.relpath(results, self.tmp)]
                proc.send_signal(sig)
                self.assert_interrupted(proc, sig, code, name)
                with pytest.raises(ProcessLookupError):  # killed and reaped
                    os.kill(device, 0)
                assert snapshot(self.tmp) == before

    def mismatching_results(self):
        """A folder of 2,000 shift vectors and a JSON-lines results file whose every flags
        word is wrong (so a report of them all is far larger than a pipe's buffer)."""
        vectors = self.path("v")
        r = ptovec("generate", *SHIFT, "--samples", 2000, "--out", vectors, "--quiet")
        assert r.returncode == 0, r.stderr
        results = self.path("wrong.jsonl")
        write_results(vectors, results)
        return vectors, results

    def test_check_while_it_prints_its_report(self):
        vectors, results = self.mismatching_results()
        for name in ("j.xml", "m.jsonl"):
            with open(self.path(name), "w") as f:
                f.write("earlier " + name + "\n")
        before = snapshot(self.tmp)
        for sig, code, name in SIGNALS:
            with subtest(signal=name):
                proc = start("check", "--vectors", vectors, "--results", results, "--junit",
                             self.path("j.xml"), "--mismatches", self.path("m.jsonl"),
                             "--max-report", 100000, "--quiet", stdout=subprocess.PIPE)
                # The report starts after the --mismatches file is renamed into place; it then
                # blocks on the full pipe before JUnit is written.
                select.select([proc.stdout], [], [], 120)
                assert snapshot(self.tmp)["m.jsonl"] != before["m.jsonl"]
                proc.send_signal(sig)
                proc.wait(timeout=120)  # stdout unread: the report stays blocked
                proc.stdout.close()
                self.assert_interrupted(proc, sig, code, name)
                assert snapshot(self.tmp) == before

    def test_check_whose_reader_goes_away(self):
        # `ptovec check ... | head -c 1`: the reader closes the pipe while check prints its
        # report. SIGPIPE must not kill check half-way: it finishes every file (JUnit too),
        # leaves no temporary and exits with the gate's own status, 1 (mismatches).
        vectors, results = self.mismatching_results()
        proc = start("check", "--vectors", vectors, "--results", results, "--junit",
                     self.path("j.xml"), "--mismatches", self.path("m.jsonl"),
                     "--max-report", 100000, "--quiet", stdout=subprocess.PIPE)
        proc.stdout.read(1)
        proc.stdout.close()
        proc.wait(timeout=120)
        err = proc.stderr.read().decode()
        proc.stderr.close()
        assert proc.returncode == 1, err
        assert err == ""
        with open(self.path("j.xml")) as f:
            assert "<testsuites" in f.read()
        assert os.path.getsize(self.path("m.jsonl")) > 100000
        assert [n for n in os.listdir(self.tmp) if ".tmp" in n] == []

    def test_run_while_it_prints_its_report(self):
        vectors, results = self.mismatching_results()
        # A device answering every case wrongly: flags 0x1f.
        device = self.path("wrong.sh")
        with open(device, "w") as f:
            f.write('read h; echo "ptovec-dut 1 wrong"\n'
                    'while read -r i rest; do echo "$i 0x0000 0x1f"; done\n')
        # The setup run must fail on every vector (exit 1), or the interrupted run below tests
        # nothing: a device that does not speak the protocol fails this test.
        r = ptovec("run", "--dut-cmd", "sh " + device, "--vectors", vectors, "--quiet")
        assert r.returncode == 1, "the shell device did not speak the protocol: " + str(r.stderr)
        before = snapshot(self.tmp)
        proc = start("run", "--dut-cmd", "sh " + device, "--vectors", vectors, "--max-report",
                     100000, "--quiet", stdout=subprocess.PIPE)
        select.select([proc.stdout], [], [], 120)
        proc.send_signal(signal.SIGTERM)
        proc.wait(timeout=120)
        proc.stdout.close()
        self.assert_interrupted(proc, signal.SIGTERM, 143, "SIGTERM")
        assert snapshot(self.tmp) == before

    def test_shrink_with_a_device_that_never_answers(self):
        counterexample = self.path("cx.bin")
        with open(counterexample, "w") as f:
            f.write("an earlier counterexample\n")
        before = snapshot(self.tmp)
        for sig, code, name in SIGNALS:
            with subtest(signal=name):
                command, pid_file, ready = stuck_device(self.tmp)
                proc = start("shrink", "--dut-cmd", command, "--dut-timeout", 0, *SHIFT, "--out",
                             counterexample)
                wait_for(lambda: os.path.exists(ready) or proc.poll() is not None, ready)
                with open(pid_file) as f:
                    device = int(f.read())
                os.unlink(pid_file)
                os.unlink(ready)
                proc.send_signal(sig)
                self.assert_interrupted(proc, sig, code, name)
                with pytest.raises(ProcessLookupError):
                    os.kill(device, 0)
                assert snapshot(self.tmp) == before


    def test_coverage_while_its_ucis_script_runs(self):
        """The JSON copy a script reads (OUT.tmp-json) is a temporary like the others, and the
        script a child like a program device: an interrupt while it runs kills it and removes
        both temporaries."""
        tcvt = os.path.join(SOURCE, "vectors", "smoke", "tcvt_fp16_e8m0.bin")
        pid_file = self.path("script.pid")
        python = self.path("slow-python")
        with open(python, "w") as f:  # stands for the Python: writes its pid, never finishes
            f.write("#!/bin/sh\necho $$ > %s.part && mv %s.part %s\nexec sleep 600\n"
                    % (pid_file, pid_file, pid_file))
        os.chmod(python, 0o755)
        before = snapshot(self.tmp)
        for sig, code, name in SIGNALS:
            with subtest(signal=name):
                proc = subprocess.Popen([PTOVEC, "coverage", "--vectors", tcvt, "--quiet",
                                         "--ucis", self.path("cover.xml")],
                                        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                                        env=dict(os.environ, CI="1", PTOVEC_PYTHON=python))
                wait_for(lambda: os.path.exists(pid_file) or proc.poll() is not None, pid_file)
                with open(pid_file) as f:
                    script = int(f.read())
                os.unlink(pid_file)
                assert [p for p in self.temporaries() if p.endswith(".tmp-json")] == [
                    "cover.xml.tmp-json"]
                proc.send_signal(sig)
                self.assert_interrupted(proc, sig, code, name)
                with pytest.raises(ProcessLookupError):  # the script was killed and reaped
                    os.kill(script, 0)
                assert snapshot(self.tmp) == before


class TestConcurrentUse(InterruptBase):
    def test_a_folder_being_generated_is_refused_to_others(self):
        out = self.path("suite")
        writer = start("generate", "--op", "tcvt", "--src", "fp32", "--dst", "e8m0", "--samples",
                       50000000, "--threads", 1, "--out", out, "--quiet")
        temp = os.path.join(out, "tcvt_fp32_e8m0.bin.tmp-%d" % writer.pid)
        wait_for(lambda: os.path.exists(temp) or writer.poll() is not None, temp)
        holder = "(pid %d, ptovec generate, writing)" % writer.pid
        try:
            cases = [
                (["generate", *SHIFT, "--samples", 1000, "--out", out], "--out folder"),
                (["check", "--vectors", out, "--results", self.path("r.jsonl")],
                 "--vectors folder"),
                (["run", "--dut-cmd", "true", "--vectors", out], "--vectors folder"),
                (["run", "--dut-cmd", "true", *SHIFT, "--samples", 1000, "--work", out],
                 "--work folder"),
            ]
            for args, role in cases:
                with subtest(command=args[0], role=role):
                    r = ptovec(*args, "--quiet")
                    assert r.returncode == 2, r.stderr
                    assert r.stderr.decode() == ("ptovec: error: %s %s is in use by another ptovec %s; wait for it to "
                        "finish, or use another folder\n" % (role, out, holder))
        finally:
            writer.send_signal(signal.SIGTERM)
            writer.communicate(timeout=120)
        assert writer.returncode == 143
        assert self.temporaries() == []

    def test_a_stale_lock_file_does_not_block_and_none_stays(self):
        out = self.path("suite")
        os.makedirs(out)
        with open(os.path.join(out, ".ptovec.lock"), "w") as f:
            f.write("pid 1, ptovec generate, writing\n")  # its holder was killed: no flock
        r = ptovec("generate", *SHIFT, "--samples", 1000, "--out", out, "--quiet")
        assert r.returncode == 0, r.stderr
        r = ptovec("check", "--vectors", out, "--results", self.path("none.jsonl"))
        assert r.returncode == 2  # no results file: but it read the folder
        assert sorted(os.listdir(out)) == ["manifest.json", "shift_s32_s16.bin"]


def mutate(data, rng):
    data = bytearray(data)
    for _ in range(rng.randint(1, 4)):
        kind = rng.randrange(3)
        at = rng.randrange(len(data))
        if kind == 0:
            data[at] = rng.choice([0x00, 0x07, 0x0a, 0x1b, 0x7f, 0x80, 0xc0, 0xff, rng.randrange(256)])
        elif kind == 1:
            data[at:at] = bytes(rng.choice([0xff, 0xfe, 0x1b, 0x0d, 0xc3]) for _ in range(3))
        else:
            del data[at:at + rng.randint(1, 8)]
    return bytes(data)


class TestSafeErrorLines(InterruptBase):
    def suite(self, fmt):
        out = self.path("suite-" + fmt)
        r = ptovec("generate", *SHIFT, "--samples", 200, "--format", fmt, "--out", out, "--quiet")
        assert r.returncode == 0, r.stderr
        return out

    def refused(self, *args, stdin=None):
        r = ptovec(*args, stdin=stdin)
        assert r.returncode != 0
        assert_clean_line(self, r.stdout)
        return assert_clean_line(self, r.stderr)

    def test_corrupted_files_are_quoted_escaped(self):
        # A JSON vector file whose header names an op with raw bytes and control characters.
        folder = self.suite("json")
        path = os.path.join(folder, "shift_s32_s16.json")
        with open(path, "rb") as f:
            text = f.read()
        os.makedirs(self.path("bad"))
        bad = self.path("bad", "shift_s32_s16.json")  # the name the results file expects
        with open(bad, "wb") as f:
            f.write(text.replace(b'"op":"shift"', b'"op":"sh\\u001b[31m\\u0007ift"', 1))
        results = self.path("r.jsonl")
        write_results(folder, results)
        err = self.refused("check", "--vectors", bad, "--results", results)
        assert "names unknown op 'sh\\x1b[31m\\x07ift'" in err
        with open(bad, "wb") as f:  # raw bytes in the first vector's out word
            f.write(text.replace(b'"out":"0x', b'"out":"0x\xff\xfe', 1))
        err = self.refused("check", "--vectors", bad, "--results", results)
        assert "0x\\xff\\xfe" in err
        # A manifest naming a file with an escape sequence in its name.
        manifest = os.path.join(folder, "manifest.json")
        with open(manifest) as f:
            m = json.load(f)
        m["files"][0]["path"] = "shift\u001b[2J.json"
        with open(manifest, "w") as f:
            json.dump(m, f)
        err = self.refused("check", "--vectors", folder, "--results", results)
        assert ("path 'shift\\x1b[2J.json' (expected a file name of printable characters "
                      "without folders)") in err
        # Raw bytes where JSON is expected: nlohmann_json's own message quotes them.
        with open(manifest, "wb") as f:
            f.write(b'{"format": \xff\xfe\x1b}')
        err = self.refused("check", "--vectors", folder, "--results", results)
        assert "last read: '\"format\": \\xff'" in err
        # An eval --batch line.
        r = ptovec("eval", "--batch", "-", stdin=b"--op sh\xffift\x1b --src fp16 --dst e8m0 0x3c00\n")
        assert r.returncode == 1
        line = assert_clean_line(self, r.stdout)
        assert "sh\\\\xffift\\\\x1b" in line  # JSON-escaped backslash

    def test_results_file_and_device_text_are_escaped(self):
        folder = self.suite("bin")
        results = self.path("r.jsonl")
        write_results(folder, results, b'{"s":0,"i":0,"out":"0x\xff\x1b","flags":"0x00"}')
        err = self.refused("check", "--vectors", folder, "--results", results)
        assert 'out word "0x\\xff\\x1b" is malformed' in err
        device = "sh -c 'read h; printf \"ptovec-dut 1 d\\377\\n\"; read c; printf \"\\033[31mno\\377\\n\"'"
        err = self.refused("run", "--dut-cmd", device, "--vectors", folder, "--quiet")
        assert "\\x1b[31mno\\xff" in err

    def test_random_mutations_give_clean_lines(self):
        rng = random.Random(12)
        bin_folder = self.suite("bin")
        json_folder = self.suite("json")
        seeds = {
            "bin": os.path.join(bin_folder, "shift_s32_s16.bin"),
            "json": os.path.join(json_folder, "shift_s32_s16.json"),
            "manifest": os.path.join(json_folder, "manifest.json"),
        }
        originals = {}
        for key, path in seeds.items():
            with open(path, "rb") as f:
                originals[key] = f.read()
        results = self.path("r.jsonl")
        write_results(bin_folder, results)
        with open(results, "rb") as f:
            originals["results"] = f.read()
        refused = 0
        for n in range(200):
            key = sorted(originals)[n % len(originals)]
            data = mutate(originals[key], rng)
            if key == "results":
                target = self.path("mutated.jsonl")
                with open(target, "wb") as f:
                    f.write(data)
                args = ["check", "--vectors", bin_folder, "--results", target]
            else:
                with open(seeds[key], "wb") as f:
                    f.write(data)
                args = ["check", "--vectors", bin_folder if key == "bin" else json_folder,
                        "--results", results]
            r = ptovec(*args)
            assert_clean_line(self, r.stderr)
            assert_clean_line(self, r.stdout)
            refused += r.returncode == 2
            if key != "results":
                with open(seeds[key], "wb") as f:
                    f.write(originals[key])
        assert refused > 100



class TestInterruptedRun:
    """SIGKILL during a big run leaves only .tmp- files, never a whole-looking final name."""

    def run_and_kill(self, out, wait_for_temporary):
        process = subprocess.Popen([PTOVEC, "generate", "--op", "tcvt", "--src", "fp32", "--dst", "e8m0",
                                    "--samples", "1000000", "--format", "json", "--out", out, "--quiet"],
                                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        try:
            if wait_for_temporary:
                deadline = time.monotonic() + 600
                while time.monotonic() < deadline and process.poll() is None:
                    names = os.listdir(out) if os.path.isdir(out) else []
                    if any(".tmp-" in n and os.path.getsize(os.path.join(out, n)) > (1 << 20) for n in names):
                        break  # the temporary is being written
                    time.sleep(0.05)
            else:
                time.sleep(0.3)
            assert process.poll() is None, "the run ended before it was killed: make it bigger"
        finally:
            process.send_signal(signal.SIGKILL)
            process.wait()
        assert process.returncode == (-signal.SIGKILL)
        names = os.listdir(out) if os.path.isdir(out) else []
        # The folder's lock file stays after SIGKILL (nothing can remove it); unlocked, it blocks
        # no one (ConcurrentUseTest above) and is no vector file.
        finals = [n for n in names if ".tmp-" not in n and n != ".ptovec.lock"]
        assert finals == [], "a killed run left files under final names"
        return names

    def test_kill(self):
        with tempfile.TemporaryDirectory(prefix="ptovec-kill-") as tmp:
            self.run_and_kill(os.path.join(tmp, "early"), wait_for_temporary=False)
            names = self.run_and_kill(os.path.join(tmp, "writing"), wait_for_temporary=True)
            temporaries = [n for n in names if n.startswith("tcvt_fp32_e8m0.json.tmp-")]
            assert len(temporaries) == 1, names
            assert os.path.getsize(os.path.join(tmp, "writing", temporaries[0])) > 0
