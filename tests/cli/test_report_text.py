"""The text report's tables by pair and what `--report-json` says of them
(schemas/report-format.md): the by-pair table (every op and pair with vectors, matched, waived,
failed, unsupported, and a total row), the unsupported vectors in one line per pair with their
controls collapsed ("every mode, Sat on", "RTO RHB, both Sat", "all controls"), the environment
line; the text and the JSON agree on every number. Then `shrink --from --triage`'s summary table.

Runs: a vendor harness (vendor_results.py) answering a small generated suite unsupported under
chosen controls, checked with `ptovec check`; the policy test device (its fpatr is unsupported,
tcvt fp16 -> e8m0 misses NV) over a few files of the smoke suite with `ptovec run`.

Run by ctest (tests/cli/CMakeLists.txt) with Debian's /usr/bin/python3 -m pytest; the helper
ptovec_cli.py gives ptovec(*args) and this build's paths.
"""
import json
import os
import re

from ptovec_cli import ClassScratch, SOURCE, generate, ptovec, schema_validator, sha256
from vendor_results import read_json_vectors, vendor_results_jsonl

POLICY_DUT = os.environ.get("PTOVEC_POLICY_DUT")
SMOKE = os.path.join(SOURCE, "vectors", "smoke")
MODES = ["RNE", "RTM", "RTP", "RTZ", "RNA", "RTO", "RHB"]

# Which vectors the vendor harness answers unsupported, per destination of encode fp32 -> dst
# (v: a vector of the JSON file), and the line the report must print for them.
UNSUPPORTED = {
    "fp16": (lambda v: v["sat"], "every mode, Sat on", 1),
    "bf16": (lambda v: v["rmode"] in ("RTO", "RHB"), "RTO RHB, both Sat", 2),
    "e4m3": (lambda v: v["sat"] or v["rmode"] == "RNE", "RNE, Sat off; every mode, Sat on", 2),
    "hif8": (lambda v: v["rmode"] == "RTZ" and not v["sat"] and int(v["in"][0], 16) >> 31,
             "RTZ, Sat off", 1),
    "s8": (lambda v: True, "all controls", 2),
}


def negative_input(v):
    return int(v["in"][0], 16) >> 31 == 1


def harness_fault(entry):
    """The fault of one file: unsupported as UNSUPPORTED says (qparam: a negative input), and for
    hif8 the NX flag toggled under RNA, Sat off (mismatches)."""
    if entry["op"] == "qparam":
        unsupported = negative_input
    else:
        unsupported = UNSUPPORTED[entry["dst"]][0]

    def fault(v, out, flags):
        if unsupported(v):
            return out, "unsupported"
        if entry["dst"] == "hif8" and v["rmode"] == "RNA" and not v["sat"]:
            return out, "0x%02x" % (int(flags, 16) ^ 0x10)
        return out, flags
    return fault


def section(text, title_prefix):
    """The lines under the first line starting with `title_prefix`, up to the next unindented
    line."""
    lines = text.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith(title_prefix))
    body = []
    for line in lines[start + 1:]:
        if not line.startswith("  "):
            break
        body.append(line)
    return lines[start], body


def by_pair_table(text):
    """The by-pair table as the JSON "pairs" objects, and its total row."""
    _, body = section(text, "by pair (failed: mismatched, no rule waives them):")
    assert body[0].split() == ["op", "src", "dst", "vectors", "matched", "waived", "failed",
                               "unsupported"]
    keys = ["vectors", "matched", "waived", "failed", "unsupported"]
    rows = []
    for line in body[1:-1]:
        op, src, dst, *counts = line.split()
        rows.append({"op": op, "src": src, "dst": dst, **dict(zip(keys, map(int, counts)))})
    total = body[-1].split()
    assert total[0] == "total", body[-1]
    return rows, dict(zip(keys, map(int, total[1:])))


UNSUPPORTED_LINE = re.compile(r"^  (\S+) (\S+) -> (\S+): (\d+) of (\d+) vectors?"
                              r"(?: under (.+))? \((\d+) symptom groups?\)$")


def unsupported_lines(text):
    """The unsupported lines as (op, src, dst, vectors, of, controls text or None, groups)."""
    title, body = section(text, "unsupported: ")
    parsed = []
    for line in body:
        m = UNSUPPORTED_LINE.match(line)
        assert m, line
        op, src, dst, n, of, controls, groups = m.groups()
        parsed.append((op, src, dst, int(n), int(of), controls, int(groups)))
    return title, parsed


def assert_text_and_json_agree(text, doc):
    """Every number of the by-pair table and the unsupported lines is the JSON's."""
    rows, total = by_pair_table(text)
    assert rows == doc["pairs"]
    totals = doc["totals"]
    assert total == {"vectors": totals["vectors"], "matched": totals["matched"],
                     "waived": totals["waived"], "failed": totals["mismatched"],
                     "unsupported": totals["unsupported"]}
    for key in total:
        assert sum(row[key] for row in rows) == total[key], key
    _, lines = unsupported_lines(text)
    assert lines == [(u["op"], u["src"], u["dst"], u["vectors"], u["pair_vectors"],
                      u["controls_text"], u["symptom_groups"]) for u in doc["unsupported"]]
    unsupported_of = {(p["op"], p["src"], p["dst"]): p["unsupported"] for p in doc["pairs"]}
    for u in doc["unsupported"]:
        pair = (u["op"], u["src"], u["dst"])
        assert u["vectors"] == unsupported_of[pair]
        if u["controls_text"] is not None:
            assert sum(c["vectors"] for c in u["controls"]) == u["vectors"]
        else:  # an op without controls
            assert u["controls"] == []
        groups = [g for g in doc["symptom_groups"] if (g["op"], g["src"], g["dst"]) == pair
                  and g["signature"].endswith("got unsupported")]
        assert len(groups) == u["symptom_groups"]
        assert sum(g["vectors"] for g in groups) == u["vectors"]
    assert [p for p, n in unsupported_of.items() if n] == [
        (u["op"], u["src"], u["dst"]) for u in doc["unsupported"]]


class TestVendorUnsupported(ClassScratch):
    """A generated suite (encode fp32 -> fp16, bf16, e4m3, hif8, s8; qparam) answered by the
    vendor harness: each pair unsupported under other controls."""

    @classmethod
    def setup_class(cls):
        super().setup_class()
        cls.vectors = os.path.join(cls.tmp, "vectors")
        for dst in UNSUPPORTED:
            generate(cls.vectors, "--op", "encode", "--src", "fp32", "--dst", dst, "--samples",
                     20, "--format", "both")
        generate(cls.vectors, "--op", "qparam", "--samples", 20, "--format", "both")
        cls.results = os.path.join(cls.tmp, "results.jsonl")
        vendor_results_jsonl(cls.vectors, cls.results, fault_of=harness_fault)
        cls.report = os.path.join(cls.tmp, "report.json")
        cls.check = ptovec("check", "--vectors", cls.vectors, "--results", cls.results,
                           "--report-json", cls.report, "--quiet", "--max-report", 0)
        with open(cls.report) as f:
            cls.doc = json.load(f)
        with open(os.path.join(cls.vectors, "manifest.json")) as f:
            cls.files = [e for e in json.load(f)["files"] if e["format"] == "bin"]

    def counts(self, entry):
        """(vectors, unsupported, mismatched) of a file, from its JSON vectors."""
        doc = read_json_vectors(os.path.join(self.vectors, entry["path"][:-4] + ".json"))
        fault = harness_fault(entry)
        unsupported = sum(fault(v, v["out"], v["flags"])[1] == "unsupported"
                          for v in doc["vectors"])
        mismatched = sum(fault(v, v["out"], v["flags"])[1] not in ("unsupported", v["flags"])
                         for v in doc["vectors"])
        return len(doc["vectors"]), unsupported, mismatched

    def test_unsupported_lines_collapse_the_controls(self):
        assert self.check.returncode == 1, self.check.stdout + self.check.stderr
        expected = []
        for entry in self.files:
            vectors, unsupported, _ = self.counts(entry)
            if entry["op"] == "qparam":  # no controls: no "under"
                expected.append(f"  qparam fp32 -> u64: {unsupported} of {vectors} vectors "
                                "(1 symptom group)")
                continue
            _, controls, groups = UNSUPPORTED[entry["dst"]]
            expected.append(f"  encode fp32 -> {entry['dst']}: {unsupported} of {vectors} vectors "
                            f"under {controls} ({groups} symptom group{'s' if groups > 1 else ''})")
        total = sum(self.counts(e)[1] for e in self.files)
        title, body = section(self.check.stdout, "unsupported: ")
        assert title == (f"unsupported: {total} vectors in 6 pairs (their symptom groups are in "
                         "--report-json):")
        assert body == expected
        # No row of unsupported vectors elsewhere: the per-control and class tables and the
        # symptom groups list the hif8 mismatches only.
        _, controls = section(self.check.stdout, "by op, types, mode and Sat")
        assert [line.split()[:5] for line in controls[1:]] == [
            ["encode", "fp32", "hif8", "RNA", "off"]]
        title, groups = section(self.check.stdout, "by failure signature")
        assert all("encode fp32 -> hif8:" in line for line in groups), groups
        unsupported = [g for g in self.doc["symptom_groups"]
                       if g["signature"].endswith("got unsupported")]
        assert len(unsupported) == 9  # 1 + 2 + 2 + 1 + 2 of encode (one per Sat), 1 of qparam
        listed = len(self.doc["symptom_groups"]) - len(unsupported)
        assert len(groups) == listed  # --max-report 0: one line each
        assert title.startswith(f"by failure signature (triage: {listed} symptom groups; 9 more "
                                "of unsupported vectors, counted by pair;")

    def test_by_pair_table_and_json_agree(self):
        rows, total = by_pair_table(self.check.stdout)
        expected = []
        for entry in self.files:
            vectors, unsupported, mismatched = self.counts(entry)
            expected.append({"op": entry["op"], "src": entry["src"], "dst": entry["dst"],
                             "vectors": vectors, "matched": vectors - unsupported - mismatched,
                             "waived": 0, "failed": mismatched, "unsupported": unsupported})
        assert rows == expected
        assert total["vectors"] == sum(e["count"] for e in self.files)
        assert_text_and_json_agree(self.check.stdout, self.doc)
        schema_validator("report.schema.json").validate(self.doc)
        # The controls of the JSON line: every (mode, Sat) with its unsupported vectors.
        e4m3 = next(u for u in self.doc["unsupported"] if u["dst"] == "e4m3")
        assert [(c["rmode"], c["sat"]) for c in e4m3["controls"]] == [("RNE", False)] + [
            (mode, True) for mode in MODES]
        qparam = next(u for u in self.doc["unsupported"] if u["op"] == "qparam")
        assert (qparam["controls"], qparam["controls_text"]) == ([], None)

    def test_environment(self):
        env = self.doc["environment"]
        assert env["spec_edition"] == "0.58.3"
        assert (env["vectors"], env["device"], env["compare"], env["known_differences"]) == (
            self.vectors, "python-vendor", "word+flags", [])
        manifest = sha256(os.path.join(self.vectors, "manifest.json"))
        assert env["manifest_sha256"] == manifest
        version = ptovec("--version").stdout.split()[-1]
        assert env["ptovec_version"] == version
        assert self.check.stdout.splitlines()[1] == (
            f"environment: ptovec {version}, spec edition 0.58.3, vectors {self.vectors} "
            f"(manifest sha256 {manifest})")


class TestPolicyDevice(ClassScratch):
    """The policy test device (two-faults) over smoke files: fpatr unsupported (a split pair
    among them), tcvt fp16 -> e8m0 without NV for negative normal inputs."""

    FILES = ["tcvt_fp16_e8m0.bin", "fpatr_fp32_fp32_pqm0.bin", "fpatr_fp32_fp32_pqm27-38.bin",
             "fpatr_fp32_fp16.bin", "fpatr_u32_u32.bin", "encode_fp32_fp16.bin"]

    @classmethod
    def setup_class(cls):
        super().setup_class()
        assert POLICY_DUT, "the policy test device is not built (PTOVEC_POLICY_DUT)"
        cls.report = os.path.join(cls.tmp, "report.json")
        cls.results = os.path.join(cls.tmp, "results.bin")
        cls.run = ptovec("run", "--dut", POLICY_DUT, "--dut-arg", "two-faults", "--vectors",
                         *[os.path.join(SMOKE, f) for f in cls.FILES], "--results", cls.results,
                         "--report-json", cls.report, "--quiet", "--max-report", 1)
        with open(cls.report) as f:
            cls.doc = json.load(f)
        with open(os.path.join(SMOKE, "manifest.json")) as f:
            cls.count = {e["path"]: e["count"] for e in json.load(f)["files"]}

    def test_text_and_json_agree(self):
        assert self.run.returncode == 1, self.run.stdout + self.run.stderr
        assert_text_and_json_agree(self.run.stdout, self.doc)
        rows, _ = by_pair_table(self.run.stdout)
        # One row per pair in run order, the two files of fpatr fp32 -> fp32 together.
        assert [(r["op"], r["src"], r["dst"], r["vectors"]) for r in rows] == [
            ("tcvt", "fp16", "e8m0", self.count["tcvt_fp16_e8m0.bin"]),
            ("fpatr", "fp32", "fp32", self.count["fpatr_fp32_fp32_pqm0.bin"] +
             self.count["fpatr_fp32_fp32_pqm27-38.bin"]),
            ("fpatr", "fp32", "fp16", self.count["fpatr_fp32_fp16.bin"]),
            ("fpatr", "u32", "u32", self.count["fpatr_u32_u32.bin"]),
            ("encode", "fp32", "fp16", self.count["encode_fp32_fp16.bin"])]
        # Every fpatr vector unsupported; pqm0 runs RNE, Sat off only, pqm27-38 every control.
        _, lines = unsupported_lines(self.run.stdout)
        assert [(op, src, dst, n == of, controls) for op, src, dst, n, of, controls, _ in lines] == [
            ("fpatr", "fp32", "fp32", True, "all controls"),
            ("fpatr", "fp32", "fp16", True, "RNE, both Sat"),
            ("fpatr", "u32", "u32", True, "RNE, Sat off")]
        env = self.doc["environment"]
        assert env["vectors"] == ", ".join(os.path.join(SMOKE, f) for f in self.FILES)
        assert env["manifest_sha256"] == sha256(os.path.join(SMOKE, "manifest.json"))


class TestTriageSummary(ClassScratch):
    """`shrink --from --triage` ends with one table: a row per cause and unsupported group."""

    def test_summary_rows(self):
        assert POLICY_DUT, "the policy test device is not built (PTOVEC_POLICY_DUT)"
        results = self.path("results.bin")
        device = ("--dut", POLICY_DUT, "--dut-arg", "two-faults")
        r = ptovec("run", *device, "--vectors", os.path.join(SMOKE, "tcvt_fp16_e8m0.bin"),
                   os.path.join(SMOKE, "fpatr_u32_u32.bin"), "--results", results, "--quiet")
        assert r.returncode == 1, r.stdout + r.stderr
        report = self.path("shrunk.json")
        r = ptovec("shrink", *device, "--from", results, "--triage", "--report-json", report,
                   cwd=self.tmp)
        assert r.returncode == 1, r.stdout + r.stderr
        lines = r.stdout.splitlines()
        start = next(i for i, line in enumerate(lines) if line.startswith("summary ("))
        zeros = "0x0000000000000000 0x0000000000000000"
        # NV never raised: the least failing case of the enumerated pair is -1.0 under RNE, Sat
        # off. fpatr is unsupported whatever its inputs: each group's simplest case is all zeros
        # but its relu_mode, under RNE, Sat off, found by the sampled search (a local minimum).
        rows = [
            ("1", "exact", "tcvt fp16 -> e8m0", "RNE", "off", "0xbc00",
             "cause 1 of 1: NV never raised (14 vectors)"),
        ] + [(str(k + 2), "local", "fpatr u32 -> u32", "RNE", "off",
              f"0x00000000 0x00 0x0{relu} {zeros}",
              f"unsupported group: pre_quant_mode 0; relu_mode {relu}; sat off; got unsupported")
             for k, relu in enumerate([1, 0, 2, 3])]
        header = ("#", "minimum", "op and pair", "rmode", "sat", "inputs", "cause")
        widths = [max(len(row[i]) for row in [header] + rows) for i in range(6)]
        expected = ["  " + "  ".join([row[0].rjust(widths[0])] +
                                     [row[i].ljust(widths[i]) for i in range(1, 6)] + [row[6]])
                    for row in [header] + rows]
        assert lines[start + 1:] == expected
        names = ["shrunk-tcvt-fp16-e8m0-1.bin"] + [f"shrunk-fpatr-u32-u32-{k}.bin" for k in (2, 3, 4, 5)]
        assert all(os.path.exists(self.path(name)) for name in names)
        # The report model's shrunk cases (--report-json) are the table's rows, one for one.
        with open(report) as f:
            doc = json.load(f)
        schema_validator("report.schema.json").validate(doc)
        assert [c["text"] for c in doc["causes"]] == ["NV never raised"]
        shrunk = doc["shrunk"]
        assert [(str(x["number"]), x["minimum"], x["label"], x["file"]) for x in shrunk] == [
            (row[0], row[1], row[6], name) for row, name in zip(rows, names)]
        assert [x["cause"] for x in shrunk] == [1, None, None, None, None]
        for x, row in zip(shrunk, rows):
            line = x["counterexample"]["eval_line"]
            assert (f"{line['op']} {line['src']} -> {line['dst']}", line["rmode"],
                    "on" if line["sat"] else "off", " ".join(line["in"])) == row[2:6]
        # NV never raised: -1.0 gives NaN (0xff) with NV; the device leaves NV out. The start is
        # the results file's first failure of the cause, an unsupported group's is its first.
        first = shrunk[0]
        assert first["counterexample"]["eval"] == (
            "ptovec eval --op tcvt --src fp16 --dst e8m0 --rmode RNE 0xbc00")
        assert (first["counterexample"]["eval_line"]["out"], first["counterexample"]["eval_line"]
                ["flags"], first["counterexample"]["got"]) == ("0xff", "0x01",
                                                               {"out": "0xff", "flags": "0x00"})
        assert first["start"] == doc["causes"][0]["first"]
        assert [x["counterexample"]["got"] for x in shrunk[1:]] == ["unsupported"] * 4
        assert (doc["totals"]["mismatched"], doc["device"]) == (14, "policy-oracle")

    def test_report_files_need_from(self):
        r = ptovec("shrink", "--dut", POLICY_DUT, "--op", "tcvt", "--report-json",
                   self.path("x.json"))
        assert r.returncode == 2
        assert r.stderr.strip().splitlines()[-1].endswith(
            "--report-json goes with --from RESULTS (the report of a results file with its shrunk "
            "cases)")
        assert not os.path.exists(self.path("x.json"))
