"""The files a run or check writes beside its report, over two files of the smoke suite and the
policy test device (tests/devices/policy_oracle_device.cpp):

  TestMismatchesFile  --mismatches holds exactly the mismatched and waived vectors, in run order;
                      --mismatches-unsupported adds the unsupported ones; check writes the same
                      files from the results; --mismatches-unsupported alone is refused.

The expected lines are worked out here from the vector files' own records and the device's
documented faults, not from ptovec.

Run by ctest (tests/cli/CMakeLists.txt) with Debian's /usr/bin/python3 -m pytest; the helper
ptovec_cli.py gives ptovec(*args) and this build's paths.
"""
import json
import os
import shutil

import pytest

from ptovec_cli import SOURCE, ClassScratch, error_of, ptovec

POLICY_DUT = os.environ.get("PTOVEC_POLICY_DUT")
SMOKE = os.path.join(SOURCE, "vectors", "smoke")
TCVT = "tcvt_fp16_e8m0.json"
ENCODE = "encode_fp32_fp16.json"
NV_SIGNATURE = "input -normal; expected nan NV; got nan -; word same; flags -NV"


def sat_text(v):
    return "sat on" if v["sat"] else "sat off"


def unsupported_rna_lines(records):
    """{record: line less its "class"} of the device `unsupported-rna` over tcvt fp16 -> e8m0:
    two-faults (no NV for a negative normal input, 0x80 for 1.0 under RTZ and RTM) and every RNA
    case unsupported."""
    lines = {}
    for i, v in enumerate(records):
        x = int(v["in"][0], 16)
        common = {"file": TCVT, "record": i, "op": "tcvt", "src": "fp16", "dst": "e8m0",
                  "rmode": v["rmode"], "sat": v["sat"], "in": v["in"]}
        expected = {"out": v["out"], "flags": v["flags"]}
        if v["rmode"] == "RNA":
            lines[i] = {**common, "expected": expected, "got": "unsupported",
                        "kind": "unsupported", "verdict": "unsupported",
                        "signature": f"{sat_text(v)}; got unsupported"}
        elif x & 0x8000 and (x >> 10) & 0x1F not in (0, 0x1F) and int(v["flags"], 16) & 0x01:
            got = {"out": v["out"], "flags": f"0x{int(v['flags'], 16) & ~0x01:02x}"}
            lines[i] = {**common, "expected": expected, "got": got, "kind": "wrong flags",
                        "verdict": "mismatch", "signature": f"{sat_text(v)}; {NV_SIGNATURE}"}
        assert x != 0x3C00  # the word fault's input: not in the smoke file
    return lines


@pytest.mark.skipif(not POLICY_DUT, reason="no PTOVEC_POLICY_DUT")
class TestMismatchesFile(ClassScratch):
    @classmethod
    def setup_class(cls):
        super().setup_class()
        cls.vectors = os.path.join(cls.tmp, "v")
        os.makedirs(cls.vectors)
        for name in ("manifest.json", TCVT, ENCODE):
            shutil.copy(os.path.join(SMOKE, name), cls.vectors)

    def records(self, name):
        with open(os.path.join(self.vectors, name)) as f:
            return json.load(f)["vectors"]

    def run(self, arg, name, *options):
        """run --dut POLICY --dut-arg ARG over vector file NAME; the status and stdout."""
        r = ptovec("run", "--dut", POLICY_DUT, "--dut-arg", arg, "--vectors",
                   os.path.join(self.vectors, name), "--results", self.path(f"{arg}.bin"),
                   "--max-report", "0", "--quiet", *options)
        assert r.returncode in (0, 1), r.stderr
        return r

    def lines(self, name):
        with open(self.path(name)) as f:
            text = f.read()
        assert text == "" or text.endswith("\n")
        return text, [json.loads(line) for line in text.splitlines()]

    def test_failures_only_unless_unsupported_asked(self):
        expected = unsupported_rna_lines(self.records(TCVT))
        # The smoke file's -normal input (0x8400) under the 12 modes but RNA; 2 modes x 14 inputs.
        assert sum(e["verdict"] == "mismatch" for e in expected.values()) == 12
        assert sum(e["verdict"] == "unsupported" for e in expected.values()) == 28
        r = self.run("unsupported-rna", TCVT, "--mismatches", self.path("m.jsonl"))
        assert "FAIL: 12 mismatched, 28 unsupported of 196 vectors" in r.stdout, r.stdout
        r = self.run("unsupported-rna", TCVT, "--mismatches", self.path("mu.jsonl"),
                     "--mismatches-unsupported")
        assert "FAIL: 12 mismatched, 28 unsupported of 196 vectors" in r.stdout, r.stdout
        failed_text, failed = self.lines("m.jsonl")
        every_text, every = self.lines("mu.jsonl")
        assert len(failed) == 12 and len(every) == 40
        for line in every:
            vector_class = line.pop("class")
            assert line["in"] != ["0x8400"] or vector_class == "-normal invalid", line
        assert every == [expected[i] for i in sorted(expected)]
        # Without --mismatches-unsupported: the same lines, byte for byte, less the unsupported.
        assert failed_text.splitlines() == [
            line for line in every_text.splitlines() if '"verdict":"unsupported"' not in line]
        # check writes the same two files from the results file.
        for option, name, text in (((), "c.jsonl", failed_text),
                                   (("--mismatches-unsupported",), "cu.jsonl", every_text)):
            c = ptovec("check", "--vectors", os.path.join(self.vectors, TCVT), "--results",
                       self.path("unsupported-rna.bin"), "--mismatches", self.path(name),
                       "--quiet", *option)
            assert c.returncode == 1, c.stderr
            assert self.lines(name)[0] == text

    def test_waived_vectors_are_recorded(self):
        # rtz-rtm: encode fp32 -> fp16, Sat off, RTZ and RTM: an overflow answers the largest
        # finite of its sign; IEEE 754 (ieee-overflow) rounds RTZ overflows and positive RTM
        # ones so, a negative RTM overflow to -Inf: waived and mismatched respectively.
        want = []
        for i, v in enumerate(self.records(ENCODE)):
            out = int(v["out"], 16)
            if v["sat"] or v["rmode"] not in ("RTZ", "RTM") or out & 0x7FFF != 0x7C00:
                continue
            mismatch = v["rmode"] == "RTM" and out & 0x8000 != 0
            want.append((i, "mismatch" if mismatch else "waived", f"0x{out - 1:04x}"))
        assert [w[1] for w in want].count("waived") > 0 and len(want) > 4
        r = self.run("rtz-rtm", ENCODE, "--known-differences", "ieee754", "--mismatches",
                     self.path("w.jsonl"))
        waived = [w for w in want if w[1] == "waived"]
        assert (f"{len(want) - len(waived)} mismatched, 0 unsupported of "
                f"{len(self.records(ENCODE))} vectors ({len(waived)} more waived") in r.stdout
        _, lines = self.lines("w.jsonl")
        assert [(m["record"], m["verdict"], m["got"]["out"]) for m in lines] == want
        for m in lines:
            assert (m.get("rule"), "signature" in m) == (
                ("ieee754/ieee-overflow", False) if m["verdict"] == "waived" else (None, True))

    def test_mismatches_unsupported_alone_is_refused(self):
        tcvt = os.path.join(self.vectors, TCVT)
        for command in (["run", "--dut", POLICY_DUT, "--dut-arg", "two-faults", "--vectors", tcvt,
                         "--results", self.path("x.bin")],
                        ["check", "--vectors", tcvt, "--results", self.path("x.bin")],
                        ["run", "--dut", POLICY_DUT, "--dut-arg", "two-faults", "--exhaustive",
                         "--op", "tcvt", "--src", "fp16", "--dst", "e8m0"]):
            r = ptovec(*command, "--mismatches-unsupported")
            assert r.returncode == 2, r.stdout + r.stderr
            assert "--mismatches-unsupported" in error_of(r), r.stderr
            assert r.stderr.count("\n") == 1, r.stderr
        assert not os.path.exists(self.path("x.bin"))
