"""The files a run or check writes beside its report, over two files of the smoke suite and the
policy test device (tests/devices/policy_oracle_device.cpp):

  TestMismatchesFile  --mismatches holds exactly the mismatched and waived vectors, in run order;
                      --mismatches-unsupported adds the unsupported ones; check writes the same
                      files from the results; --mismatches-unsupported alone is refused.
  TestJunitPerSuite   each --junit testsuite (a vector file) carries its own vectors by verdict
                      (ptovec.vectors, .matched, .mismatched, .waived, .unsupported, .failed): as
                      worked out here, as --report-json counts that file, and adding up to the
                      run's totals.

The expected lines are worked out here from the vector files' own records and the device's
documented faults, not from ptovec.

Run by ctest (tests/cli/CMakeLists.txt) with Debian's /usr/bin/python3 -m pytest; the helper
ptovec_cli.py gives ptovec(*args) and this build's paths.
"""
import json
import os
import shutil
import xml.etree.ElementTree as ET

import pytest

from ptovec_cli import SOURCE, ClassScratch, error_of, ptovec

POLICY_DUT = os.environ.get("PTOVEC_POLICY_DUT")
SMOKE = os.path.join(SOURCE, "vectors", "smoke")
TCVT = "tcvt_fp16_e8m0.json"
ENCODE = "encode_fp32_fp16.json"
SHIFT = "shift_s32_s16.json"  # an op without controls: every case under RNE
NV_SIGNATURE = "input -normal; expected nan NV; got nan -; word same; flags -NV"


def sat_text(v):
    return "sat on" if v["sat"] else "sat off"


def unsupported_rna_lines(records):
    """{record: line less its "class"} of the device `unsupported-rna` over tcvt fp16 -> e8m0:
    the faults of two-faults there (no NV for a negative normal input, 0x80 for 1.0 under RTZ
    and RTM) and every RNA case unsupported."""
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


def rtz_rtm_verdicts(records):
    """[(record, verdict, device's word)] of the rtz-rtm fault over encode fp32 -> fp16 judged
    with --known-differences ieee754: Sat off, RTZ and RTM, an overflow answers the largest finite
    of its sign; IEEE 754 (ieee-overflow) rounds RTZ overflows and positive RTM ones so, a
    negative RTM overflow to -Inf: waived and mismatched respectively."""
    verdicts = []
    for i, v in enumerate(records):
        out = int(v["out"], 16)
        if v["sat"] or v["rmode"] not in ("RTZ", "RTM") or out & 0x7FFF != 0x7C00:
            continue
        mismatch = v["rmode"] == "RTM" and out & 0x8000 != 0
        verdicts.append((i, "mismatch" if mismatch else "waived", f"0x{out - 1:04x}"))
    return verdicts


class PolicyRuns(ClassScratch):
    """Three files of the smoke suite copied with their manifest, and runs of the policy device."""

    @classmethod
    def setup_class(cls):
        super().setup_class()
        cls.vectors = os.path.join(cls.tmp, "v")
        os.makedirs(cls.vectors)
        for name in ("manifest.json", TCVT, ENCODE, SHIFT):
            shutil.copy(os.path.join(SMOKE, name), cls.vectors)

    def records(self, name):
        with open(os.path.join(self.vectors, name)) as f:
            return json.load(f)["vectors"]

    def run(self, arg, names, *options, results=None):
        """run --dut POLICY --dut-arg ARG over the vector files NAMES; the finished command."""
        r = ptovec("run", "--dut", POLICY_DUT, "--dut-arg", arg, "--vectors",
                   *(os.path.join(self.vectors, name) for name in names), "--results",
                   results or self.path(f"{arg}.bin"), "--max-report", "0", "--quiet", *options)
        assert r.returncode in (0, 1), r.stderr
        return r


@pytest.mark.skipif(not POLICY_DUT, reason="no PTOVEC_POLICY_DUT")
class TestMismatchesFile(PolicyRuns):
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
        r = self.run("unsupported-rna", [TCVT], "--mismatches", self.path("m.jsonl"))
        assert "FAIL: 12 mismatched, 28 unsupported of 196 vectors" in r.stdout, r.stdout
        r = self.run("unsupported-rna", [TCVT], "--mismatches", self.path("mu.jsonl"),
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
        want = rtz_rtm_verdicts(self.records(ENCODE))
        assert [w[1] for w in want].count("waived") > 0 and len(want) > 4
        r = self.run("rtz-rtm", [ENCODE], "--known-differences", "ieee754", "--mismatches",
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


def expected_counts(name, records):
    """The vectors of file NAME by verdict under the device `unsupported-rna` judged with
    --known-differences ieee754, worked out from its records."""
    unsupported = sum(v["rmode"] == "RNA" for v in records) if name != SHIFT else 0
    if name == TCVT:
        verdicts = [e["verdict"] for e in unsupported_rna_lines(records).values()]
    elif name == ENCODE:
        verdicts = [verdict for _, verdict, _ in rtz_rtm_verdicts(records)]
    else:
        verdicts = []
    counts = {"vectors": len(records), "mismatched": verdicts.count("mismatch"),
              "waived": verdicts.count("waived"), "unsupported": unsupported}
    counts["matched"] = len(records) - counts["mismatched"] - counts["waived"] - unsupported
    return counts


@pytest.mark.skipif(not POLICY_DUT, reason="no PTOVEC_POLICY_DUT")
class TestJunitPerSuite(PolicyRuns):
    NAMES = [TCVT, ENCODE, SHIFT]
    VERDICTS = ["vectors", "matched", "mismatched", "waived", "unsupported"]

    def suites(self, junit):
        """{testsuite name: ({ptovec.* property: value}, tests, failures, skipped, testcases,
        testcases with a <failure>, with <skipped>)}."""
        out = {}
        for suite in ET.parse(junit).getroot().iter("testsuite"):
            props = {p.get("name"): p.get("value") for p in suite.iter("property")}
            cases = suite.findall("testcase")
            out[suite.get("name")] = (
                props, int(suite.get("tests")), int(suite.get("failures")),
                int(suite.get("skipped")), len(cases),
                sum(c.find("failure") is not None for c in cases),
                sum(c.find("skipped") is not None for c in cases))
        return out

    def run_with_reports(self, tag, *options):
        junit, report = self.path(f"{tag}.xml"), self.path(f"{tag}.json")
        self.run("unsupported-rna", self.NAMES, "--known-differences", "ieee754", "--junit", junit,
                 "--report-json", report, *options, results=self.path(f"{tag}.bin"))
        with open(report) as f:
            return self.suites(junit), json.load(f)

    def check(self, suites, report, allow_unsupported):
        assert list(suites) == self.NAMES
        per_file = {name: dict.fromkeys(self.VERDICTS, 0) for name in self.NAMES}
        for row in report["per_control"]:
            counts = per_file[row["file"]]
            for key in ("vectors", "waived", "unsupported"):
                counts[key] += row[key]
            counts["mismatched"] += row["word"] + row["flags"] + row["both"]
        for counts in per_file.values():
            counts["matched"] = (counts["vectors"] - counts["mismatched"] - counts["waived"]
                                 - counts["unsupported"])
        for name, (props, tests, failures, skipped, cases, failing, skips) in suites.items():
            want = expected_counts(name, self.records(name))
            got = {key: int(props[f"ptovec.{key}"]) for key in self.VERDICTS}
            assert got == want == per_file[name], name
            failed = want["mismatched"] + (0 if allow_unsupported else want["unsupported"])
            assert int(props["ptovec.failed"]) == failed, name
            assert (tests, failures, skipped) == (cases, failing, skips), name
            assert props["ptovec.allow_unsupported"] == str(allow_unsupported).lower()
        for key in self.VERDICTS:
            assert sum(int(p[f"ptovec.{key}"]) for p, *_ in suites.values()) == \
                report["totals"][key], key

    def test_each_suite_counts_its_own_vectors(self):
        suites, report = self.run_with_reports("gate")
        self.check(suites, report, False)
        # Each verdict in some suite and not in every one: no run total copied into each suite.
        props = {name: suite[0] for name, suite in suites.items()}
        assert [props[n]["ptovec.waived"] for n in self.NAMES] == ["0", "4", "0"]
        assert [props[n]["ptovec.unsupported"] for n in self.NAMES] == ["28", "54", "0"]
        assert [props[n]["ptovec.mismatched"] for n in self.NAMES] == ["12", "6", "0"]
        # A test case per mode and Sat; the failing ones: tcvt's 14, encode's RTM Sat off and RNA.
        assert [suites[n][1:3] for n in self.NAMES] == [(14, 14), (14, 3), (1, 0)]

    def test_allow_unsupported_leaves_them_out_of_failed(self):
        suites, report = self.run_with_reports("allowed", "--allow-unsupported")
        self.check(suites, report, True)
        # tcvt's RNA cases skipped, the other 12 failing; encode's RNA skipped, RTM Sat off failing.
        assert [suites[n][2:4] for n in self.NAMES] == [(12, 2), (1, 2), (0, 0)]
