#!/usr/bin/python3
"""Bringing up a real device end to end (docs/bring-up.md): `run`, `check` and `shrink` with
--compare, --flags, --known-differences and --allow-unsupported, the triage report and
`shrink --from --triage`, through the policy test device (tests/devices/
policy_oracle_device.cpp: flagless, drop-nv, two-faults, rtz-rtm) and the F16C example device.

Run by ctest (tests/cli/CMakeLists.txt) with Debian's /usr/bin/python3 -m pytest; the helper
ptovec_cli.py gives ptovec(*args) and this build's paths (the
policy test device; the F16C device, whose tests exit 77, ctest's skip, on a CPU without F16C).
"""
import json
import os
import re
import tempfile
import xml.etree.ElementTree as ET

import pytest

from ptovec_cli import SOURCE, ptovec, schema_validator

POLICY_DUT = os.environ.get("PTOVEC_POLICY_DUT")
F16C_DUT = os.environ.get("PTOVEC_F16C_DUT")


def results_header(path):
    """The JSON header of a binary results file (schemas/results-format.md)."""
    with open(path, "rb") as f:
        data = f.read(1 << 16)
    start = data.index(b"{")
    return json.JSONDecoder().raw_decode(data[start:].decode("utf-8", "replace"))[0]


def triage_lines(report):
    """{signature line: count} of a report's triage section."""
    out = {}
    section = False
    for line in report.splitlines():
        if line.startswith("by failure signature"):
            section = True
            continue
        if section:
            m = re.match(r"^ {2}\s*(\d+)  (\S+ \S+ -> \S+): (.*)$", line)
            if m:
                out[m.group(2) + ": " + m.group(3)] = int(m.group(1))
            elif not line.startswith("                "):
                section = False
    return out


# The exit status of a run whose CPU lacks F16C: ctest's SKIP_RETURN_CODE of
# ptovec_bring_up_f16c (tests/cli/CMakeLists.txt), so ctest reports the test as not run.
NO_F16C_STATUS = 77


def require_f16c():
    """Ends the run with NO_F16C_STATUS on a CPU without F16C (the only skip); fails when the
    device is not built or the probe (one vector through it) fails."""
    with open("/proc/cpuinfo") as f:
        if " f16c" not in f.read():
            pytest.exit("this CPU has no F16C", returncode=NO_F16C_STATUS)
    assert F16C_DUT and os.path.exists(F16C_DUT), f"the F16C device is not built: {F16C_DUT}"
    probe = ptovec("eval", "--op", "encode", "--src", "fp32", "--dst", "fp16", "0x3f800000")
    assert probe.returncode == 0, probe.stderr


class TestBringUp:
    """A flagless model, a device dropping NV, two faults of one pair, a directed-mode fault."""

    @classmethod
    def setup_class(cls):
        assert POLICY_DUT, "the policy test device is not built (PTOVEC_POLICY_DUT)"
        cls.tmp = tempfile.TemporaryDirectory()
        cls.dir = cls.tmp.name
        # tcvt fp16 -> e8m0, every FP16 word x 14 controls: 917,504 vectors.
        r = ptovec("generate", "--op", "tcvt", "--src", "fp16", "--dst", "e8m0", "--out",
                   os.path.join(cls.dir, "suite"))
        assert r.returncode == 0, r.stderr
        cls.suite = os.path.join(cls.dir, "suite")

    @classmethod
    def teardown_class(cls):
        cls.tmp.cleanup()

    def run_policy(self, arg, *options, results=None):
        results = results or os.path.join(self.dir, arg + ".bin")
        return ptovec("run", "--dut", POLICY_DUT, "--dut-arg", arg, "--in-process", "--vectors",
                      self.suite, "--results", results, "--max-report", "1", *options)

    def test_flagless_fails_then_passes_words_only(self):
        full = self.run_policy("flagless")
        assert full.returncode == 1, full.stdout
        assert "916944 mismatched" in full.stdout
        assert re.search((r"\nFAIL: 916944 mismatched, 0 unsupported of 917504 "
                                      r"vectors\n$"), full.stdout)
        results = os.path.join(self.dir, "words.bin")
        junit = os.path.join(self.dir, "words.xml")
        words = self.run_policy("flagless", "--compare", "word", "--junit", junit,
                                results=results)
        assert words.returncode == 0, words.stdout
        first, last = words.stdout.splitlines()[0], words.stdout.splitlines()[-1]
        assert first.endswith("[words only: the status flags are not compared]"), first
        assert last == "PASS (words only: the status flags are not compared)"
        header = results_header(results)
        assert header["compare"] == "word"
        assert header["known_differences"] == []
        schema_validator("results-binary-header.schema.json").validate(header)
        props = {p.get("name"): p.get("value")
                 for p in ET.parse(junit).getroot().iter("property")}
        assert props["ptovec.compare"] == "word"
        # check judges by its own options: the full policy fails the same results file.
        again = ptovec("check", "--vectors", self.suite, "--results", results)
        assert again.returncode == 1
        assert ("note: the run that wrote words.bin compared words only: the status flags "
                      "are not compared; this check judges by its own options") in again.stdout
        again = ptovec("check", "--vectors", self.suite, "--results", results, "--compare", "word")
        assert again.returncode == 0, again.stdout
        assert "PASS (words only" in again.stdout

    def test_flag_subset_catches_a_dropped_nv(self):
        nv = self.run_policy("drop-nv", "--flags", "NV")
        assert nv.returncode == 1
        assert "[word and flags NV only: DZ,OF,UF,NX not compared]" in nv.stdout
        assert ("tcvt fp16 -> e8m0: sat off; input -normal; expected nan NV; got nan -; "
                "word same; flags -NV") in nv.stdout
        others = self.run_policy("drop-nv", "--flags", "DZ,OF,UF,NX")
        assert others.returncode == 0, others.stdout
        assert (others.stdout.endswith(
            "PASS (word and flags DZ,OF,UF,NX only: NV not compared)\n")), others.stdout
        bad = ptovec("run", "--dut", POLICY_DUT, "--vectors", self.suite, "--flags", "NV|OF")
        assert bad.returncode == 2
        assert bad.stderr.count("\n") == 1, bad.stderr
        assert "--flags 'NV|OF'" in bad.stderr

    def test_two_faults_three_causes_four_groups_each_cause_shrunk(self):
        results = os.path.join(self.dir, "two.bin")
        mismatches = os.path.join(self.dir, "two.jsonl")
        r = self.run_policy("two-faults", "--mismatches", mismatches, results=results)
        assert r.returncode == 1
        groups = triage_lines(r.stdout)
        # Each fault under Sat off and under Sat on: a group of its own each.
        assert groups == ({
            "tcvt fp16 -> e8m0: sat off; input -normal; expected nan NV; got nan -; word same; "
            "flags -NV": 215040,
            "tcvt fp16 -> e8m0: sat on; input -normal; expected nan NV; got nan -; word same; "
            "flags -NV": 215040,
            "tcvt fp16 -> e8m0: sat off; input +normal; expected +normal -; got +normal -; "
            "word 1 code farther from zero; flags same": 2,
            "tcvt fp16 -> e8m0: sat on; input +normal; expected +normal -; got +normal -; "
            "word 1 code farther from zero; flags same": 2,
        }), r.stdout
        # The report leads with the causes: the NV fault's two groups are one explained cause;
        # the word fault, which no explanation reproduces, a coarse signature per Sat.
        causes = re.findall(r"^  cause (\d+): (.*): (\d+) vectors? in (\d+) symptom groups?$",
                            r.stdout, re.M)
        assert causes == [
            ("1", "NV never raised", "430080", "2"),
            ("2", "unexplained: tcvt fp16 -> e8m0, sat off: word 1 code farther from zero; "
                  "flags same", "2", "1"),
            ("3", "unexplained: tcvt fp16 -> e8m0, sat on: word 1 code farther from zero; "
                  "flags same", "2", "1"),
        ], r.stdout
        assert "    symptom groups (vectors): #3 (215040), #4 (215040)\n" in r.stdout
        assert r.stdout.index("diagnosis: 3 causes") < r.stdout.index("by failure signature")
        with open(mismatches) as f:
            first = json.loads(f.readline())
        assert first["verdict"] == "mismatch"
        assert first["signature"].startswith("sat off; input "), first
        shrunk = ptovec("shrink", "--dut", POLICY_DUT, "--dut-arg", "two-faults", "--in-process",
                        "--from", results, "--vectors", self.suite, "--triage", "--json",
                        timeout=900)
        assert shrunk.returncode == 1, shrunk.stderr
        out = json.loads(shrunk.stdout.splitlines()[-1])
        cases = {g["triage"]: (g["counterexample"]["in"]["value"], g["counterexample"]["rmode"],
                               g["counterexample"]["sat"])
                 for g in out["results"]}
        # One case per cause: the NV cause (its two symptom groups) once; the unexplained word
        # fault per Sat, each shrunk under its own Sat (Sat off is simpler, but Sat on keeps on).
        assert cases == ({
            "cause 1 of 3: NV never raised (430080 vectors)": ("0xbc00", "RNE", False),
            "cause 2 of 3: unexplained: tcvt fp16 -> e8m0, sat off: word 1 code farther from "
            "zero; flags same (2 vectors)": ("0x3c00", "RTM", False),
            "cause 3 of 3: unexplained: tcvt fp16 -> e8m0, sat on: word 1 code farther from "
            "zero; flags same (2 vectors)": ("0x3c00", "RTM", True),
        })
        # --signature alone picks one group; a bad signature is refused in one line.
        one = ptovec("shrink", "--dut", POLICY_DUT, "--dut-arg", "two-faults", "--in-process",
                     "--op", "tcvt", "--src", "fp16", "--dst", "e8m0", "--signature",
                     "sat on; input +normal; expected +normal -; got +normal -; word 1 code "
                     "farther from zero; flags same")
        assert one.returncode == 1, one.stderr
        assert "  value:    0x3c00\n  rmode:    RTM\n  sat:      on\n" in one.stdout
        # The shrink keeps the signature's Sat: --sat off contradicts it.
        off = ptovec("shrink", "--dut", POLICY_DUT, "--dut-arg", "two-faults", "--in-process",
                     "--op", "tcvt", "--src", "fp16", "--dst", "e8m0", "--sat", "off",
                     "--signature", "sat on; input +normal; expected +normal -; got +normal -; "
                     "word 1 code farther from zero; flags same")
        assert off.returncode == 2
        assert off.stderr.count("\n") == 1, off.stderr
        assert "--signature names sat on, but --sat keeps Sat off only" in off.stderr
        bad = ptovec("shrink", "--dut", POLICY_DUT, "--op", "tcvt", "--signature",
                     "sat off; input huge")
        assert bad.returncode == 2
        assert "unknown input class" in bad.stderr
        # A signature of before Sat was part of it names the part and what is accepted.
        old = ptovec("shrink", "--dut", POLICY_DUT, "--op", "tcvt", "--signature",
                     "input -normal; expected nan NV; got nan -; word same; flags -NV")
        assert old.returncode == 2
        assert ("--signature part 'input -normal': expected 'sat on' or 'sat off' here"
                in old.stderr), old.stderr

    def test_words_only_signatures_show_no_flags(self):
        # Under --compare word no flag is compared: the triage lines show none (the NV fault is
        # not a failure then), and shrink takes such a line with the same policy.
        results = os.path.join(self.dir, "two-words.bin")
        r = self.run_policy("two-faults", "--compare", "word", results=results)
        assert r.returncode == 1, r.stdout
        assert triage_lines(r.stdout) == ({
            "tcvt fp16 -> e8m0: sat off; input +normal; expected +normal; got +normal; "
            "word 1 code farther from zero": 2,
            "tcvt fp16 -> e8m0: sat on; input +normal; expected +normal; got +normal; "
            "word 1 code farther from zero": 2,
        }), r.stdout
        one = ptovec("shrink", "--dut", POLICY_DUT, "--dut-arg", "two-faults", "--in-process",
                     "--compare", "word", "--signature",
                     "tcvt fp16 -> e8m0: sat off; input +normal; expected +normal; got +normal; "
                     "word 1 code farther from zero")
        assert one.returncode == 1, one.stderr
        assert "  value:    0x3c00\n  rmode:    RTM\n  sat:      off\n" in one.stdout

    def test_shrink_reaches_the_simplest_failing_mode(self):
        r = ptovec("shrink", "--dut", POLICY_DUT, "--dut-arg", "rtz-rtm", "--in-process", "--op",
                   "encode", "--src", "fp32", "--dst", "fp16", "--seed", "3")
        assert r.returncode == 1, r.stderr
        assert "  value:    0x47800000\n  rmode:    RTM\n  sat:      off\n" in r.stdout
        assert "local minimum: yes" in r.stdout
        # With --rmode RTZ the shrink stays in RTZ, also from a results file.
        only = ptovec("shrink", "--dut", POLICY_DUT, "--dut-arg", "rtz-rtm", "--in-process",
                      "--op", "encode", "--src", "fp32", "--dst", "fp16", "--rmode", "RTZ")
        assert "  value:    0x47800000\n  rmode:    RTZ\n" in only.stdout

    def test_every_section_of_the_page_runs(self):
        # docs/bring-up.md's flows are ```sh blocks (run in order in one folder by ctest
        # ptovec_bring_up_page), never transcripts that could drift from what ptovec prints.
        with open(os.path.join(SOURCE, "docs", "bring-up.md")) as f:
            page = f.read()
        sections = re.split(r"\n## ", page)
        titles = ("1. A model without status bits", "2. An IEEE 754, RISC-V, x86 or Arm unit",
                  "3. A device that implements part of a pair",
                  "Diagnosis: causes, not symptoms", "Triage: symptom groups",
                  "Shrink each cause apart")
        for title in titles:
            body = [x for x in sections if x.startswith(title)]
            assert len(body) == 1, title
            assert "\n```sh\n" in body[0], f"section {title!r} has no ```sh block"
            assert "\n```\n$ " not in body[0], f"section {title!r} has a transcript"
        assert "build/tests/devices/libptovec_test_dut_policy.so --dut-arg" in page

    def test_help_lists_the_options(self):
        for command in ("run", "check", "shrink"):
            text = ptovec(command, "--help").stdout
            for option in ("--compare", "--flags", "--known-differences", "--allow-unsupported"):
                assert option in text, command
        text = ptovec("shrink", "--help").stdout
        for option in ("--signature", "--class", "--triage"):
            assert option in text

    def test_known_differences_files_are_checked(self):
        bad = os.path.join(self.dir, "bad.json")
        with open(bad, "w") as f:
            json.dump({"format": "ptovec-known-differences", "version": 1, "name": "mine",
                       "rules": [{"name": "x", "reason": "r", "word": "any", "flags": "any"}]}, f)
        r = ptovec("run", "--dut", POLICY_DUT, "--vectors", self.suite, "--known-differences", bad)
        assert r.returncode == 2
        assert r.stderr.count("\n") == 1, r.stderr
        assert "would waive every mismatch" in r.stderr
        r = ptovec("check", "--vectors", self.suite, "--results", bad, "--known-differences",
                   "ieee")
        assert r.returncode == 2
        assert r.stderr == ("ptovec: error: --known-differences 'ieee' is not a built-in model "
                            "(built in: ieee754, riscv, x86, arm; a file is named by a path with "
                            "'/' or ending in .json)\n"), r.stderr
        # The example compositions of tools/known-differences/ are valid files whose models load.
        schema = schema_validator("known-differences.schema.json")
        for name in ("ieee754-tininess-before-rounding", "riscv-e4m3-inf-nan"):
            path = os.path.join(SOURCE, "tools", "known-differences", name + ".json")
            with open(path) as f:
                doc = json.load(f)
            schema.validate(doc)
            assert doc["version"] == 2 and doc["name"] == name
            r = ptovec("eval", "--op", "encode", "--src", "fp32", "--dst", "fp16", "0x387fffff",
                       "--model", path)
            assert r.returncode == 0, r.stderr
            model = json.loads(r.stdout)["model"]
            assert model["name"] == name
            # 2^-14 - 2^-38 rounds to the smallest normal: UF only when tiny before rounding.
            assert (model["flags"], model["deviations"]) == (
                ("0x18", []) if name.startswith("ieee754") else ("0x10", ["tininess-after-rounding"]))


class TestF16cKnownDifferences:
    """Real IEEE hardware: the F16C device passes with the x86 behaviour model alone, every
    difference waived by a named deviation; without it, or with a model that detects tininess
    before rounding (arm), it fails (docs/f16c.md)."""

    @classmethod
    def setup_class(cls):
        require_f16c()
        cls.tmp = tempfile.TemporaryDirectory()
        cls.work = os.path.join(cls.tmp.name, "work")
        r = ptovec("generate", "--op", "encode", "--src", "fp32", "--dst", "fp16", "--samples",
                   "3000", "--out", cls.work)
        assert r.returncode == 0, r.stderr

    @classmethod
    def teardown_class(cls):
        cls.tmp.cleanup()

    def run_f16c(self, *options):
        return ptovec("run", "--dut", F16C_DUT, "--vectors", self.work, "--allow-unsupported",
                      "--max-report", "0", *options)

    def test_x86_model_explains_every_difference(self):
        bare = self.run_f16c()
        assert bare.returncode == 1, bare.stdout
        assert bare.stdout.splitlines()[-1] == (
            "FAIL: 1660 mismatched, 18000 unsupported of 42000 vectors"), bare.stdout
        r = self.run_f16c("--known-differences", "x86")
        assert r.returncode == 0, r.stdout
        waived = {m.group(2): int(m.group(1)) for m in re.finditer(
            r"\n +(\d+)  (x86/[a-z-]+): .* \(differs from the profile on \d+ answered vectors\)",
            r.stdout)}
        assert waived == {"x86/ieee-overflow": 776, "x86/no-saturation": 828,
                          "x86/signed-zero": 8, "x86/tininess-after-rounding": 48}, r.stdout
        assert ("  stale: x86/invalid-integer never differs from the profile on an answered "
                "vector") in r.stdout
        assert r.stdout.splitlines()[-1] == (
            "PASS with 1660 mismatches waived by known differences (x86), 18000 unsupported "
            "vectors skipped (--allow-unsupported): 22340 of 42000 vectors checked and matched")

    def test_tininess_before_rounding_fails(self):
        # arm detects tininess before rounding: the 48 values that round up to the smallest
        # normal keep the profile's UF, which vcvtps2ph does not raise.
        r = self.run_f16c("--known-differences", "arm")
        assert r.returncode == 1, r.stdout
        failing = {k: v for k, v in triage_lines(r.stdout).items() if "(skipped" not in k}
        assert failing == {
            "encode fp32 -> fp16: sat off; input -normal; expected -normal UF|NX; got -normal "
            "NX; word same; flags -UF": 12,
            "encode fp32 -> fp16: sat on; input -normal; expected -normal UF|NX; got -normal "
            "NX; word same; flags -UF": 12,
            "encode fp32 -> fp16: sat off; input +normal; expected +normal UF|NX; got +normal "
            "NX; word same; flags -UF": 12,
            "encode fp32 -> fp16: sat on; input +normal; expected +normal UF|NX; got +normal "
            "NX; word same; flags -UF": 12,
        }, r.stdout

    def test_a_stale_rule_is_listed(self):
        stale = os.path.join(self.tmp.name, "stale.json")
        with open(stale, "w") as f:
            json.dump({"format": "ptovec-known-differences", "version": 1, "name": "old",
                       "rules": [{"name": "nv-on-overflow", "reason": "fixed in rev B",
                                  "op": "encode", "dst": "fp16",
                                  "flags": {"expected": "OF|NX", "got": "NV"}}]}, f)
        r = self.run_f16c("--known-differences", stale)
        assert ("  stale rule: old/nv-on-overflow (covers 42000 vectors of this run, "
                      "explains none)") in r.stdout

    def test_shrink_never_lands_on_unsupported(self):
        r = ptovec("shrink", "--dut", F16C_DUT, "--op", "encode", "--src", "fp32", "--dst",
                   "fp16", "--allow-unsupported", "--known-differences", "arm")
        assert r.returncode == 1, r.stderr
        tail = r.stdout.split("counterexample after")[1]
        assert "unsupported" not in tail
        assert ("  value:    0x387ff000\n  rmode:    RNE\n  sat:      off\n"
                "  expected: 0x0400 flags 0x18 (UF|NX)\n  got:      0x0400 flags 0x10 (NX)\n") in tail
        passing = ptovec("shrink", "--dut", F16C_DUT, "--op", "encode", "--src", "fp32", "--dst",
                         "fp16", "--allow-unsupported", "--known-differences", "x86")
        assert passing.returncode == 0, passing.stdout + passing.stderr
        results = os.path.join(self.tmp.name, "f16c.bin")
        self.run_f16c("--results", results)
        start = ptovec("shrink", "--dut", F16C_DUT, "--from", results, "--vectors", self.work,
                       "--allow-unsupported")
        assert start.returncode == 1, start.stderr
        assert "got:      unsupported" not in start.stdout
