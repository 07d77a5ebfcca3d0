#!/usr/bin/python3
"""Bringing up a real device end to end (docs/bring-up.md): `run`, `check` and `shrink` with
--compare, --flags, --known-differences and --allow-unsupported, the triage report and
`shrink --from --triage`, through the policy test device (tests/devices/
policy_oracle_device.cpp: flagless, drop-nv, two-faults, rtz-rtm) and the F16C example device.

Environment (set by ctest): PTOVEC, PTOVEC_SOURCE_DIR, PTOVEC_POLICY_DUT, PTOVEC_F16C_DUT (absent
on a machine without it: those tests skip), or --ptovec PATH --source DIR before the unittest
arguments.
"""
import json
import os
import re
import tempfile
import unittest
import xml.etree.ElementTree as ET

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


def f16c_usable():
    if not F16C_DUT or not os.path.exists(F16C_DUT):
        return False
    probe = ptovec("eval", "--op", "encode", "--src", "fp32", "--dst", "fp16", "0x3f800000")
    if probe.returncode != 0:
        return False
    with open("/proc/cpuinfo") as f:
        return " f16c" in f.read()


@unittest.skipUnless(POLICY_DUT, "the policy test device is not built")
class BringUpTest(unittest.TestCase):
    """A flagless model, a device dropping NV, two faults of one pair, a directed-mode fault."""

    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.TemporaryDirectory()
        cls.dir = cls.tmp.name
        # tcvt fp16 -> e8m0, every FP16 word x 14 controls: 917,504 vectors.
        r = ptovec("generate", "--op", "tcvt", "--src", "fp16", "--dst", "e8m0", "--out",
                   os.path.join(cls.dir, "suite"))
        assert r.returncode == 0, r.stderr
        cls.suite = os.path.join(cls.dir, "suite")

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def run_policy(self, arg, *options, results=None):
        results = results or os.path.join(self.dir, arg + ".bin")
        return ptovec("run", "--dut", POLICY_DUT, "--dut-arg", arg, "--in-process", "--vectors",
                      self.suite, "--results", results, "--max-report", "1", *options)

    def test_flagless_fails_then_passes_words_only(self):
        full = self.run_policy("flagless")
        self.assertEqual(full.returncode, 1, full.stdout)
        self.assertIn("916944 mismatched", full.stdout)
        self.assertRegex(full.stdout, r"\nFAIL: 916944 mismatched, 0 unsupported of 917504 "
                                      r"vectors\n$")
        results = os.path.join(self.dir, "words.bin")
        junit = os.path.join(self.dir, "words.xml")
        words = self.run_policy("flagless", "--compare", "word", "--junit", junit,
                                results=results)
        self.assertEqual(words.returncode, 0, words.stdout)
        first, last = words.stdout.splitlines()[0], words.stdout.splitlines()[-1]
        self.assertTrue(first.endswith("[words only: the status flags are not compared]"), first)
        self.assertEqual(last, "PASS (words only: the status flags are not compared)")
        header = results_header(results)
        self.assertEqual(header["compare"], "word")
        self.assertEqual(header["known_differences"], [])
        schema_validator("results-binary-header.schema.json").validate(header)
        props = {p.get("name"): p.get("value")
                 for p in ET.parse(junit).getroot().iter("property")}
        self.assertEqual(props["ptovec.compare"], "word")
        # check judges by its own options: the full policy fails the same results file.
        again = ptovec("check", "--vectors", self.suite, "--results", results)
        self.assertEqual(again.returncode, 1)
        self.assertIn("note: the run that wrote words.bin compared words only: the status flags "
                      "are not compared; this check judges by its own options", again.stdout)
        again = ptovec("check", "--vectors", self.suite, "--results", results, "--compare", "word")
        self.assertEqual(again.returncode, 0, again.stdout)
        self.assertIn("PASS (words only", again.stdout)

    def test_flag_subset_catches_a_dropped_nv(self):
        nv = self.run_policy("drop-nv", "--flags", "NV")
        self.assertEqual(nv.returncode, 1)
        self.assertIn("[word and flags NV only: DZ,OF,UF,NX not compared]", nv.stdout)
        self.assertIn("tcvt fp16 -> e8m0: input -normal; expected nan NV; got nan -; word same; "
                      "flags -NV", nv.stdout)
        others = self.run_policy("drop-nv", "--flags", "DZ,OF,UF,NX")
        self.assertEqual(others.returncode, 0, others.stdout)
        self.assertTrue(others.stdout.endswith(
            "PASS (word and flags DZ,OF,UF,NX only: NV not compared)\n"), others.stdout)
        bad = ptovec("run", "--dut", POLICY_DUT, "--vectors", self.suite, "--flags", "NV|OF")
        self.assertEqual(bad.returncode, 2)
        self.assertEqual(bad.stderr.count("\n"), 1, bad.stderr)
        self.assertIn("--flags 'NV|OF'", bad.stderr)

    def test_two_faults_two_groups_each_shrunk(self):
        results = os.path.join(self.dir, "two.bin")
        mismatches = os.path.join(self.dir, "two.jsonl")
        r = self.run_policy("two-faults", "--mismatches", mismatches, results=results)
        self.assertEqual(r.returncode, 1)
        groups = triage_lines(r.stdout)
        self.assertEqual(groups, {
            "tcvt fp16 -> e8m0: input -normal; expected nan NV; got nan -; word same; "
            "flags -NV": 430080,
            "tcvt fp16 -> e8m0: input +normal; expected +normal -; got +normal -; "
            "word 1 code farther from zero; flags same": 4,
        }, r.stdout)
        with open(mismatches) as f:
            first = json.loads(f.readline())
        self.assertEqual(first["verdict"], "mismatch")
        self.assertTrue(first["signature"].startswith("input "), first)
        shrunk = ptovec("shrink", "--dut", POLICY_DUT, "--dut-arg", "two-faults", "--in-process",
                        "--from", results, "--vectors", self.suite, "--triage", "--json",
                        timeout=900)
        self.assertEqual(shrunk.returncode, 1, shrunk.stderr)
        out = json.loads(shrunk.stdout.splitlines()[-1])
        cases = {g["signature"]: (g["counterexample"]["in"]["value"], g["counterexample"]["rmode"])
                 for g in out["results"]}
        self.assertEqual(cases, {
            "input -normal; expected nan NV; got nan -; word same; flags -NV": ("0xbc00", "RNE"),
            "input +normal; expected +normal -; got +normal -; word 1 code farther from zero; "
            "flags same": ("0x3c00", "RTM"),
        })
        # --signature alone picks one group; a bad signature is refused in one line.
        one = ptovec("shrink", "--dut", POLICY_DUT, "--dut-arg", "two-faults", "--in-process",
                     "--op", "tcvt", "--src", "fp16", "--dst", "e8m0", "--signature",
                     "input +normal; expected +normal -; got +normal -; word 1 code farther "
                     "from zero; flags same")
        self.assertEqual(one.returncode, 1, one.stderr)
        self.assertIn("  value:    0x3c00\n  rmode:    RTM\n", one.stdout)
        bad = ptovec("shrink", "--dut", POLICY_DUT, "--op", "tcvt", "--signature", "input huge")
        self.assertEqual(bad.returncode, 2)
        self.assertIn("unknown input class", bad.stderr)

    def test_shrink_reaches_the_simplest_failing_mode(self):
        r = ptovec("shrink", "--dut", POLICY_DUT, "--dut-arg", "rtz-rtm", "--in-process", "--op",
                   "encode", "--src", "fp32", "--dst", "fp16", "--seed", "3")
        self.assertEqual(r.returncode, 1, r.stderr)
        self.assertIn("  value:    0x47800000\n  rmode:    RTM\n  sat:      off\n", r.stdout)
        self.assertIn("local minimum: yes", r.stdout)
        # With --rmode RTZ the shrink stays in RTZ, also from a results file.
        only = ptovec("shrink", "--dut", POLICY_DUT, "--dut-arg", "rtz-rtm", "--in-process",
                      "--op", "encode", "--src", "fp32", "--dst", "fp16", "--rmode", "RTZ")
        self.assertIn("  value:    0x47800000\n  rmode:    RTZ\n", only.stdout)

    def test_help_lists_the_options(self):
        for command in ("run", "check", "shrink"):
            text = ptovec(command, "--help").stdout
            for option in ("--compare", "--flags", "--known-differences", "--allow-unsupported"):
                self.assertIn(option, text, command)
        text = ptovec("shrink", "--help").stdout
        for option in ("--signature", "--class", "--triage"):
            self.assertIn(option, text)

    def test_known_differences_files_are_checked(self):
        bad = os.path.join(self.dir, "bad.json")
        with open(bad, "w") as f:
            json.dump({"format": "ptovec-known-differences", "version": 1, "name": "mine",
                       "rules": [{"name": "x", "reason": "r", "word": "any", "flags": "any"}]}, f)
        r = ptovec("run", "--dut", POLICY_DUT, "--vectors", self.suite, "--known-differences", bad)
        self.assertEqual(r.returncode, 2)
        self.assertEqual(r.stderr.count("\n"), 1, r.stderr)
        self.assertIn("would waive every mismatch", r.stderr)
        r = ptovec("check", "--vectors", self.suite, "--results", bad, "--known-differences",
                   "ieee")
        self.assertEqual(r.returncode, 2)
        self.assertIn("is not a built-in set (built in: ieee754, riscv", r.stderr)
        schema = schema_validator("known-differences.schema.json")
        for name in ("ieee754", "riscv"):
            with open(os.path.join(SOURCE, "tools", "known-differences", name + ".json")) as f:
                schema.validate(json.load(f))


@unittest.skipUnless(f16c_usable(), "no F16C device or CPU")
class F16cKnownDifferencesTest(unittest.TestCase):
    """Real IEEE hardware: the F16C device passes with ieee754 but for its quirk (docs/f16c.md)."""

    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.TemporaryDirectory()
        cls.work = os.path.join(cls.tmp.name, "work")
        r = ptovec("generate", "--op", "encode", "--src", "fp32", "--dst", "fp16", "--samples",
                   "3000", "--out", cls.work)
        assert r.returncode == 0, r.stderr

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def run_f16c(self, *options):
        return ptovec("run", "--dut", F16C_DUT, "--vectors", self.work, "--allow-unsupported",
                      "--max-report", "0", *options)

    def test_ieee754_explains_all_but_the_quirk(self):
        r = self.run_f16c("--known-differences", "ieee754")
        self.assertEqual(r.returncode, 1, r.stdout)
        failing = {k: v for k, v in triage_lines(r.stdout).items() if "(skipped" not in k}
        # Only the overflow flag raised before rounding: +OF on a largest-finite result.
        self.assertTrue(failing, r.stdout)
        for signature in failing:
            self.assertRegex(signature, r"expected [+-]largest NX; got [+-]largest OF\|NX; "
                                        r"word same; flags \+OF$")
        for rule in ("negative-zero-kept", "overflow-rtz-largest", "no-saturation-inf"):
            self.assertRegex(r.stdout, r"\n +[1-9]\d*  ieee754/" + rule + ": ")
        self.assertIn("not applicable to the vectors of this run (op, types, mode or Sat): "
                      "ieee754/integer-out-of-range-invalid", r.stdout)
        quirk = os.path.join(SOURCE, "examples", "devices", "f16c-known-differences.json")
        both = self.run_f16c("--known-differences", "ieee754", "--known-differences", quirk)
        self.assertEqual(both.returncode, 0, both.stdout)
        self.assertRegex(both.stdout, r"\n +[1-9]\d*  f16c/overflow-flag-before-rounding: ")
        self.assertRegex(both.stdout.splitlines()[-1],
                         r"^PASS with \d+ mismatches waived by known differences \(ieee754, "
                         r"f16c\), \d+ unsupported vectors skipped \(--allow-unsupported\)")

    def test_a_stale_rule_is_listed(self):
        stale = os.path.join(self.tmp.name, "stale.json")
        with open(stale, "w") as f:
            json.dump({"format": "ptovec-known-differences", "version": 1, "name": "old",
                       "rules": [{"name": "nv-on-overflow", "reason": "fixed in rev B",
                                  "op": "encode", "dst": "fp16",
                                  "flags": {"expected": "OF|NX", "got": "NV"}}]}, f)
        r = self.run_f16c("--known-differences", stale)
        self.assertIn("  stale rule: old/nv-on-overflow (covers 42000 vectors of this run, "
                      "explains none)", r.stdout)

    def test_shrink_never_lands_on_unsupported(self):
        r = ptovec("shrink", "--dut", F16C_DUT, "--op", "encode", "--src", "fp32", "--dst",
                   "fp16", "--allow-unsupported", "--known-differences", "ieee754")
        self.assertEqual(r.returncode, 1, r.stderr)
        self.assertNotIn("unsupported", r.stdout.split("counterexample after")[1])
        self.assertRegex(r.stdout, r"  got:      0x[0-9a-f]{4} flags 0x14 \(OF\|NX\)")
        results = os.path.join(self.tmp.name, "f16c.bin")
        self.run_f16c("--results", results)
        start = ptovec("shrink", "--dut", F16C_DUT, "--from", results, "--vectors", self.work,
                       "--allow-unsupported")
        self.assertEqual(start.returncode, 1, start.stderr)
        self.assertNotIn("got:      unsupported", start.stdout)


if __name__ == "__main__":
    unittest.main()
