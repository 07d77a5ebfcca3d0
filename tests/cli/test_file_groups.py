#!/usr/bin/python3
"""File groups of a split pair (OpDef::file_groups; docs/architecture.md, "Controls that depend on
the input"): fpatr s32 -> s16 holds the shift modes 12/13 (RNE, Sat off only) beside modes 19/20
(all 14 controls), so its files are split into pqm12-13 and pqm19-20, each with every control its
modes accept. Checked end to end: `generate` writes both groups with their controls, names and
"group" in header and manifest; `shrink --rmode` draws only the groups holding a selected
control and refuses a pair with none; `list` shows them; the readers, `run` and `check` take them; the
committed JSON Schemas (python3-jsonschema) accept them and refuse a header that lists a control
its pair or group does not allow, an unknown group, or a group on a pair kept in one file.

Run by ctest (tests/cli/CMakeLists.txt) with Debian's /usr/bin/python3 -m pytest; the helper
ptovec_cli.py gives ptovec(*args) and this build's paths (the oracle
device).
"""
import json
import os
import struct
import tempfile

from ptovec_cli import MODES, PTOVEC, ptovec, schema_validator

ALL_CONTROLS = [{"rmode": m, "sat": s} for m in MODES for s in (False, True)]
RNE_OFF = [{"rmode": "RNE", "sat": False}]


def binary_header(path):
    """The JSON header of a binary vector file (schemas/binary-format.md: header_bytes at offset
    12 of the 32-byte fixed header, the JSON text after it)."""
    with open(path, "rb") as f:
        fixed = f.read(32)
        text = f.read(struct.unpack_from("<I", fixed, 12)[0])
    return json.loads(text)


class TestFileGroups:
    @classmethod
    def setup_class(cls):
        cls.tmp = tempfile.TemporaryDirectory(prefix="ptovec-groups-")
        cls.out = os.path.join(cls.tmp.name, "s32_s16")
        r = ptovec("generate", "--op", "fpatr", "--src", "s32", "--dst", "s16", "--samples", 1000,
                   "--format", "both", "--out", cls.out, "--quiet")
        assert r.returncode == 0, r.stderr
        with open(os.path.join(cls.out, "manifest.json")) as f:
            cls.manifest = json.load(f)
        cls.vectors = schema_validator("vectors.schema.json")
        cls.headers = schema_validator("binary-header.schema.json")
        cls.manifests = schema_validator("manifest.schema.json")

    @classmethod
    def teardown_class(cls):
        cls.tmp.cleanup()

    def document(self, name):
        with open(os.path.join(self.out, name)) as f:
            return json.load(f)

    def test_generate_writes_each_group_with_its_controls(self):
        entries = [(e["path"], e["group"], e["inputs"], e["count"]) for e in self.manifest["files"]]
        # 1000 samples: a tenth per file; pqm12-13 under 1 control, pqm19-20 under 14.
        assert entries == ([
            ("fpatr_s32_s16_pqm12-13.bin", "pqm12-13", 100, 100),
            ("fpatr_s32_s16_pqm12-13.json", "pqm12-13", 100, 100),
            ("fpatr_s32_s16_pqm19-20.bin", "pqm19-20", 100, 1400),
            ("fpatr_s32_s16_pqm19-20.json", "pqm19-20", 100, 1400)])
        shift = self.document("fpatr_s32_s16_pqm12-13.json")
        scaled = self.document("fpatr_s32_s16_pqm19-20.json")
        assert (shift["group"], shift["controls"]) == ("pqm12-13", RNE_OFF)
        assert (scaled["group"], scaled["controls"]) == ("pqm19-20", ALL_CONTROLS)
        # Each file holds its group's PreQuantModes only (slot 1), and both of them.
        assert {v["in"][1] for v in shift["vectors"]} == {"0x0c", "0x0d"}
        assert {v["in"][1] for v in scaled["vectors"]} == {"0x13", "0x14"}
        assert {(v["rmode"], v["sat"]) for v in scaled["vectors"]} == {(c["rmode"], c["sat"]) for c in ALL_CONTROLS}

    def test_generate_leaves_out_a_group_without_the_selected_controls(self):
        # --rmode RTZ: pqm12-13 (shift modes) takes RNE only, so only pqm19-20 is written, with
        # a note naming the file left out; a selection of the RNE-only group alone is refused.
        out = os.path.join(self.tmp.name, "rtz")
        r = ptovec("generate", "--op", "fpatr", "--src", "s32", "--dst", "s16", "--samples", 100,
                   "--rmode", "RTZ", "--out", out)
        assert r.returncode == 0, r.stderr
        assert ("ptovec: note: left out (no control among --rmode/--sat): "
                      "fpatr_s32_s16_pqm12-13\n") in r.stderr
        assert sorted(os.listdir(out)) == ["fpatr_s32_s16_pqm19-20.bin", "manifest.json"]
        header = binary_header(os.path.join(out, "fpatr_s32_s16_pqm19-20.bin"))
        assert header["controls"] == ([{"rmode": "RTZ", "sat": False},
                                              {"rmode": "RTZ", "sat": True}])
        r = ptovec("generate", "--op", "fpatr", "--src", "fp32", "--dst", "fp16", "--samples", 100,
                   "--rmode", "RTZ", "--out", os.path.join(self.tmp.name, "none"))
        assert r.returncode == 2, r.stderr
        assert "holds no control that --rmode/--sat keep" in r.stderr

    def test_shrink_draws_only_the_groups_with_the_selected_controls(self):
        # shrink --rmode RTZ: pqm12-13's shift modes take RNE only, so only pqm19-20's inputs are
        # drawn, with a note naming the group left out (as generate leaves its file out).
        oracle = os.environ.get("PTOVEC_ORACLE_DUT") or os.path.join(
            os.path.dirname(PTOVEC), "devices", "libptovec_oracle_dut.so")
        r = ptovec("shrink", "--dut", oracle, "--op", "fpatr", "--src", "s32", "--dst", "s16",
                   "--rmode", "RTZ", "--tests", 200, "--json")
        assert r.returncode == 0, r.stderr
        assert r.stderr == ("ptovec: note: left out (no control among --rmode/--sat): "
                                   "fpatr s32 -> s16 pqm12-13\n")
        result = json.loads(r.stdout)
        assert result["left_out"] == ["fpatr s32 -> s16 pqm12-13"]
        assert [(p["group"], p["cases"], p["failing"]) for p in result["search"]] == [("pqm19-20", 200, 0)]
        # fp32 -> fp16: every mode takes RNE only. Refused with one line before the device is
        # opened (this one does not exist), exit 2, nothing on stdout.
        r = ptovec("shrink", "--dut", os.path.join(self.tmp.name, "no-such-device.so"),
                   "--op", "fpatr", "--src", "fp32", "--dst", "fp16", "--rmode", "RTZ")
        assert r.returncode == 2, r.stderr
        assert r.stdout == ""
        assert r.stderr == ("ptovec: error: fpatr fp32 -> fp16 holds no control that --rmode/--sat "
                         "keep (RTZ; Sat off and on): it accepts "
                         '[{"rmode":"RNE","sat":false},{"rmode":"RNE","sat":true}]\n')

    def test_list_shows_the_groups(self):
        r = ptovec("list", "--op", "fpatr", "--src", "s32", "--dst", "s16", "--json")
        assert r.returncode == 0, r.stderr
        pairs = json.loads(r.stdout)[0]["pairs"]
        assert [(p["group"], p["controls"], p["vectors"]) for p in pairs] == [("pqm12-13", 1, 10000), ("pqm19-20", 14, 140000)]

    def test_run_and_check_take_the_groups(self):
        oracle = os.environ.get("PTOVEC_ORACLE_DUT") or os.path.join(
            os.path.dirname(PTOVEC), "devices", "libptovec_oracle_dut.so")
        results = os.path.join(self.tmp.name, "results.bin")
        r = ptovec("run", "--dut", oracle, "--vectors", self.out, "--results", results)
        assert r.returncode == 0, (r.stdout + r.stderr)
        assert "1500 vectors: 1500 matched, 0 mismatched" in r.stdout
        r = ptovec("check", "--vectors", self.out, "--results", results)
        assert r.returncode == 0, (r.stdout + r.stderr)

    def test_schemas_accept_the_groups(self):
        for name in ("fpatr_s32_s16_pqm12-13.json", "fpatr_s32_s16_pqm19-20.json"):
            errors = [e.message for e in self.vectors.iter_errors(self.document(name))]
            assert errors == [], name
        errors = [e.message for e in self.manifests.iter_errors(self.manifest)]
        assert errors == []

    def test_schemas_refuse_controls_the_pair_or_group_does_not_allow(self):
        def refused(doc, what, binary=None):
            assert not self.vectors.is_valid(doc), f"the vectors schema accepts: {what}"
            if binary:  # the same change in the binary file's header
                header = binary_header(os.path.join(self.out, binary))
                assert self.headers.is_valid(header), binary
                for key in ("controls", "group"):
                    if key in doc:
                        header[key] = doc[key]
                    else:
                        header.pop(key, None)
                assert not self.headers.is_valid(header), f"the header schema accepts: {what}"

        def changed(name, **fields):
            doc = self.document(name)
            doc["vectors"] = doc["vectors"][:1]
            doc.update(fields)
            return doc

        rtz = [{"rmode": "RNE", "sat": False}, {"rmode": "RTZ", "sat": False}]
        refused(changed("fpatr_s32_s16_pqm12-13.json", controls=rtz), "pqm12-13 with RTZ",
                "fpatr_s32_s16_pqm12-13.bin")
        refused(changed("fpatr_s32_s16_pqm12-13.json", group="pqm19-21"), "an unknown group",
                "fpatr_s32_s16_pqm12-13.bin")
        whole = changed("fpatr_s32_s16_pqm19-20.json")
        del whole["group"]  # the whole pair: only the controls of every mode (RNE, Sat off)
        refused(whole, "s32 -> s16 without a group under 14 controls", "fpatr_s32_s16_pqm19-20.bin")
        # fp32 -> fp16: modes 1-2 have fixed rounding (RNE with either Sat).
        r = ptovec("generate", "--op", "fpatr", "--src", "fp32", "--dst", "fp16", "--samples", 10,
                   "--format", "json", "--out", os.path.join(self.tmp.name, "fp16"), "--quiet")
        assert r.returncode == 0, r.stderr
        with open(os.path.join(self.tmp.name, "fp16", "fpatr_fp32_fp16.json")) as f:
            fp16 = json.load(f)
        assert self.vectors.is_valid(fp16)
        assert fp16["controls"] == ([{"rmode": "RNE", "sat": False},
                                            {"rmode": "RNE", "sat": True}])
        refused(dict(fp16, controls=[{"rmode": "RTZ", "sat": False}]), "fp32 -> fp16 under RTZ")
        refused(dict(fp16, group="pqm1-2"), "a group on a pair kept in one file")
        # The readers refuse such a file with one line (its header's controls edited in place).
        bad = os.path.join(self.tmp.name, "bad.json")
        with open(os.path.join(self.out, "fpatr_s32_s16_pqm12-13.json")) as f:
            text = f.read()
        with open(bad, "w") as f:
            f.write(text.replace('"controls":[{"rmode":"RNE","sat":false}]',
                                 '"controls":[{"rmode":"RTZ","sat":false}]', 1))
        r = ptovec("coverage", "--vectors", bad, "--quiet")
        assert r.returncode == 2
        assert ('lists control [{"rmode":"RTZ","sat":false}], which fpatr s32 -> s16 '
                      'pqm12-13 does not accept (accepted: [{"rmode":"RNE","sat":false}])') in r.stderr
