"""`ptovec run` and `ptovec check` with --report-json FILE: the whole report as one JSON document
(schemas/report-format.md) that validates against `ptovec schema report` and its committed copy,
with the causes of the diagnosis, every symptom group and the known-difference rules; written
for a failing run as for a passing one, the same by `check` of the run's results; its path
checked like the other outputs.

Run by ctest (tests/cli/CMakeLists.txt) with Debian's /usr/bin/python3 -m pytest; the helper
ptovec_cli.py gives ptovec(*args) and this build's paths (the policy test device,
tests/devices/policy_oracle_device.cpp, and the oracle library device).
"""
import json
import os
import tempfile

from jsonschema import Draft202012Validator

from ptovec_cli import ORACLE_DUT, ptovec, schema_validator, sha256

POLICY_DUT = os.environ.get("PTOVEC_POLICY_DUT")

TWO_FAULTS = ("--dut", POLICY_DUT, "--dut-arg", "two-faults", "--in-process")


def printed_schema():
    """A Draft 2020-12 validator of what `ptovec schema report` prints, the schema checked."""
    r = ptovec("schema", "report")
    assert r.returncode == 0, r.stderr
    schema = json.loads(r.stdout)
    Draft202012Validator.check_schema(schema)
    return Draft202012Validator(schema)


def load(path):
    with open(path) as f:
        return json.load(f)


class TestReportJson:
    @classmethod
    def setup_class(cls):
        assert POLICY_DUT, "the policy test device is not built (PTOVEC_POLICY_DUT)"
        cls.tmp = tempfile.TemporaryDirectory()
        cls.dir = cls.tmp.name
        cls.work = os.path.join(cls.dir, "work")
        cls.report = os.path.join(cls.dir, "run.json")
        # tcvt fp16 -> e8m0, every FP16 word x 14 controls (917,504 vectors), generated first.
        cls.run = ptovec("run", *TWO_FAULTS, "--op", "tcvt", "--src", "fp16", "--dst", "e8m0",
                         "--work", cls.work, "--quiet", "--max-report", "0", "--report-json",
                         cls.report)

    @classmethod
    def teardown_class(cls):
        cls.tmp.cleanup()

    def test_failing_run_report_validates_and_names_its_causes(self):
        assert self.run.returncode == 1, self.run.stdout + self.run.stderr
        doc = load(self.report)
        printed_schema().validate(doc)
        schema_validator("report.schema.json").validate(doc)
        assert (doc["format"], doc["version"], doc["device"]) == ("ptovec-report", 1,
                                                                 "policy-oracle")
        assert doc["passed"] is False
        assert doc["compare"] == "word+flags"
        assert doc["totals"] == {"files": 1, "vectors": 917504, "matched": 487420,
                                 "mismatched": 430084, "waived": 0, "unsupported": 0, "word": 4,
                                 "flags": 430080, "both": 0, "flags_reversed": 0,
                                 "flags_reversed_two_bits": 0}
        # The environment: the work folder --op generated into, its manifest.
        env = doc["environment"]
        assert (env["vectors"], env["manifest_sha256"], env["spec_edition"]) == (
            self.work, sha256(os.path.join(self.work, "manifest.json")), "0.58.3")
        assert (env["device"], env["compare"], env["known_differences"]) == (
            "policy-oracle", "word+flags", [])
        # The one pair, its counts the totals'; nothing unsupported.
        assert doc["pairs"] == [{"op": "tcvt", "src": "fp16", "dst": "e8m0", "vectors": 917504,
                                 "matched": 487420, "waived": 0, "failed": 430084,
                                 "unsupported": 0}]
        assert doc["unsupported"] == []
        causes = doc["causes"]
        assert [(c["explanation"], c["vectors"], len(c["symptom_groups"])) for c in causes] == [
            ("NV never raised", 430080, 2), (None, 2, 1), (None, 2, 1)]
        nv = causes[0]
        assert nv["symptom_groups"] == [{"group": 3, "vectors": 215040},
                                        {"group": 4, "vectors": 215040}]
        assert nv["explained_as_well_by"] == ["no status flags (every status 0)"]
        assert nv["first"]["file"] == "tcvt_fp16_e8m0.bin"
        assert nv["first"]["index"] == 473088
        assert nv["first"]["eval_line"]["in"] == ["0x8400"]
        assert (nv["first"]["eval_line"]["flags"], nv["first"]["got"]) == (
            "0x01", {"out": "0xff", "flags": "0x00"})
        assert nv["eval"] == "ptovec eval --op tcvt --src fp16 --dst e8m0 --rmode RNE 0x8400"
        assert [c["text"] for c in causes[1:]] == [
            "tcvt fp16 -> e8m0, sat off: word 1 code farther from zero; flags same",
            "tcvt fp16 -> e8m0, sat on: word 1 code farther from zero; flags same"]
        assert [c["symptom_groups"] for c in causes[1:]] == [[{"group": 1, "vectors": 2}],
                                                              [{"group": 2, "vectors": 2}]]
        assert causes[2]["eval"] == ("ptovec eval --op tcvt --src fp16 --dst e8m0 --rmode RTM "
                                     "--sat 0x3c00")
        # The groups are the text report's, numbered alike, in full though --max-report is 0.
        groups = doc["symptom_groups"]
        assert [(g["group"], g["vectors"]) for g in groups] == [(1, 2), (2, 2), (3, 215040),
                                                                 (4, 215040)]
        assert groups[0]["controls"] == [{"rmode": "RTM", "sat": False},
                                         {"rmode": "RTZ", "sat": False}]
        for g in groups:
            assert (f"{g['vectors']:>12}  tcvt fp16 -> e8m0: {g['signature']}\n"
                    in self.run.stdout), g
        assert len(doc["per_control"]) == 14
        assert sum(row["flags"] for row in doc["per_control"]) == 430080
        # The eval line of a cause is what `ptovec eval` prints for its command.
        r = ptovec(*nv["eval"].split()[1:])
        assert r.returncode == 0, r.stderr
        assert json.loads(r.stdout) == nv["first"]["eval_line"]

    def test_check_of_the_results_writes_the_same_report(self):
        report = os.path.join(self.dir, "check.json")
        r = ptovec("check", "--vectors", self.work, "--results",
                   os.path.join(self.work, "results.bin"), "--quiet", "--report-json", report)
        assert r.returncode == 1, r.stdout + r.stderr
        assert load(report) == load(self.report)

    def test_exhaustive_run_writes_the_same_causes(self):
        report = os.path.join(self.dir, "exhaustive.json")
        r = ptovec("run", *TWO_FAULTS, "--exhaustive", "--op", "tcvt", "--src", "fp16", "--dst",
                   "e8m0", "--quiet", "--report-json", report)
        assert r.returncode == 1, r.stdout + r.stderr
        doc = load(report)
        printed_schema().validate(doc)
        # The same report but for the file name, which is the pair's: every code, no file, and
        # so no vectors in its environment.
        assert doc["causes"][0]["first"]["file"] == "tcvt_fp16_e8m0 (exhaustive)"
        assert (doc["environment"]["vectors"], doc["environment"]["manifest_sha256"]) == (
            None, None)
        text = json.dumps(doc).replace('"tcvt_fp16_e8m0 (exhaustive)"', '"tcvt_fp16_e8m0.bin"')
        run = load(self.report)
        run["environment"].update(vectors=None, manifest_sha256=None)
        assert json.loads(text) == run

    def test_passing_run_with_known_differences(self):
        assert ORACLE_DUT, "the oracle device is not built (PTOVEC_ORACLE_DUT)"
        report = os.path.join(self.dir, "pass.json")
        r = ptovec("run", "--dut", ORACLE_DUT, "--vectors", self.work, "--results",
                   os.path.join(self.dir, "oracle.bin"), "--known-differences", "ieee754",
                   "--quiet", "--report-json", report)
        assert r.returncode == 0, r.stdout + r.stderr
        doc = load(report)
        printed_schema().validate(doc)
        assert (doc["passed"], doc["device"], doc["known_differences"]) == (
            True, "ptovec-oracle", ["ieee754"])
        assert (doc["causes"], doc["symptom_groups"]) == ([], [])
        assert doc["totals"]["matched"] == 917504
        rules = {rule["name"]: rule for rule in doc["known_difference_rules"]}
        assert rules, doc["known_difference_rules"]
        # The oracle follows no deviation: each is stale or not followed, none waived anything.
        assert {rule["status"] for rule in rules.values()} <= {"stale", "not followed"}
        assert all(rule["waived"] == 0 and rule["model"] for rule in rules.values())

    def test_report_json_path_is_checked_before_any_work(self):
        missing = os.path.join(self.dir, "no-such-folder", "r.json")
        r = ptovec("check", "--vectors", self.work, "--results",
                   os.path.join(self.work, "results.bin"), "--report-json", missing)
        assert r.returncode == 2
        assert r.stderr == (f"ptovec: error: --report-json {missing}: its folder "
                            f"{os.path.dirname(missing)} does not exist (create it first)\n")
        same = os.path.join(self.dir, "same.out")
        r = ptovec("run", *TWO_FAULTS, "--vectors", self.work, "--results", same,
                   "--report-json", same)
        assert r.returncode == 2
        assert r.stderr == (f"ptovec: error: --report-json {same} is also the --results file; "
                            "give the two outputs different paths\n")
        assert not os.path.exists(same)
