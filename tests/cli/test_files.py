"""Vector files end to end: the files `generate` writes validate against the committed schemas
and agree with each other (binary, JSON, the numpy reader, its command line), counts and order,
every op's smallest pair; the schemas refuse bad documents; a vector file passed alone is checked
against the manifest beside it, and a cut or changed file is refused; a version 1 file is
still read.

Run by ctest (tests/cli/CMakeLists.txt) with Debian's /usr/bin/python3 -m pytest; the helper
ptovec_cli.py gives ptovec(*args) and this build's paths.
"""
import json
import os
import shutil
import struct
import subprocess
import sys
import tempfile

import numpy as np
import pytest

from ptovec_cli import FIXED, MODES, ORACLE_DUT, PTOVEC, SOURCE, Scratch, error_of, files, \
    generate, ptovec, read_bin_header, schema_validator, sha256, subtest


# The readers' command line, from the source tree.
READER = [sys.executable, "-m", "ptovec.files", "vectors"]
READER_ENV = dict(os.environ, PYTHONPATH=os.path.join(SOURCE, "python"))
SCHEMA_FILES = {"vectors": "vectors.schema.json", "manifest": "manifest.schema.json",
                "eval": "eval-line.schema.json", "binary-header": "binary-header.schema.json"}
_validators = {}


def validator(name):
    if name not in _validators:
        _validators[name] = schema_validator(SCHEMA_FILES[name])
    return _validators[name]


def assert_valid(test, name, document, what):
    errors = sorted(validator(name).iter_errors(document), key=lambda e: list(e.absolute_path))
    assert [] == [f"{list(e.absolute_path)}: {e.message[:300]}" for e in errors[:5]], f"{what} does not match the {name} schema"


def vector_lines(path):
    """The vector lines of a JSON vector file, as written (one object a line, no separators)."""
    with open(path) as f:
        lines = f.read().split("\n")
    if not (lines[0].endswith('"vectors":[') and lines[-2:] == ["]}", ""]):
        raise AssertionError(f"{path}: unexpected layout around the vectors")
    body = lines[1:-2]
    return [line[:-1] if i + 1 < len(body) else line for i, line in enumerate(body)]


def sample_for_schema(vectors, limit=20000):
    """Every vector of a small file; of a big one the first and last 1024 and a stride between."""
    if len(vectors) <= limit:
        return vectors
    stride = len(vectors) // (limit - 2048) + 1
    return vectors[:1024] + vectors[1024:-1024:stride] + vectors[-1024:]


def check_generated_folder(test, folder):
    """The manifest validates and matches the folder; every file validates; bin == json."""
    with open(os.path.join(folder, "manifest.json")) as f:
        manifest = json.load(f)
    assert_valid(test, "manifest", manifest, f"{folder}/manifest.json")
    names = sorted(os.listdir(folder))
    assert names == sorted([e["path"] for e in manifest["files"]] + ["manifest.json"]), "the folder holds exactly the manifest's files (no temporaries left)"
    by_base = {}
    for entry in manifest["files"]:
        path = os.path.join(folder, entry["path"])
        assert os.path.getsize(path) == entry["bytes"], path
        assert sha256(path) == entry["sha256"], path
        assert entry["path"] == f'{entry["op"]}_{entry["src"]}_{entry["dst"]}.{entry["format"]}'
        by_base.setdefault(entry["path"].rsplit(".", 1)[0], {})[entry["format"]] = (path, entry)
    for base, written in by_base.items():
        parsed = None
        if "json" in written:
            path, entry = written["json"]
            with open(path) as f:
                parsed = json.load(f)
            assert len(parsed["vectors"]) == entry["count"], path
            assert parsed["count"] == entry["count"], path
            assert parsed["seed"] == entry["seed"], path
            document = dict(parsed, vectors=sample_for_schema(parsed["vectors"]))
            assert_valid(test, "vectors", document, path)
        if "bin" in written:
            path, entry = written["bin"]
            header, records = files.read_vectors(path)
            assert_valid(test, "binary-header", header, path + " (JSON header)")
            assert len(records) == entry["count"], path
            assert (header["op"], header["src"], header["dst"], header["seed"]) == (entry["op"], entry["src"], entry["dst"], entry["seed"]), path
            offset = 0
            for field in header["fields"]:
                assert field["offset"] == offset, f"{path}: fields are packed in order"
                offset += field["bytes"]
            assert offset == header["record_size"], path
            assert header["rmode_names"] == MODES, path
        if parsed is not None and "bin" in written:
            compare_bin_json(test, written["bin"][0], written["json"][0], parsed)
    return manifest


def compare_bin_json(test, bin_path, json_path, parsed):
    """Record by record: the numbers read by the numpy reader equal the JSON file's, and the
    reader's text form equals the JSON file's vector lines byte for byte."""
    header, records = files.read_vectors(bin_path)
    bin_header = {k: v for k, v in header.items() if k not in ("format", "record_size", "fields", "rmode_names")}
    json_header = {k: v for k, v in parsed.items() if k not in ("format", "vectors")}
    assert bin_header == json_header, "the two files carry the same header"
    vectors = parsed["vectors"]
    words = [f["name"] for f in header["fields"] if f["name"].startswith("in.")]
    for slot, name in enumerate(words):
        expected = np.array([int(v["in"][slot], 16) for v in vectors], dtype=np.uint64)
        assert np.array_equal(records[name].astype(np.uint64), expected), f"{bin_path}: {name}"
    checks = {"rmode": [MODES.index(v["rmode"]) for v in vectors], "sat": [int(v["sat"]) for v in vectors],
              "out": [int(v["out"], 16) for v in vectors], "flags": [int(v["flags"], 16) for v in vectors]}
    for name, values in checks.items():
        assert np.array_equal(records[name].astype(np.uint64), np.array(values, dtype=np.uint64)), f"{bin_path}: {name} differs from {json_path}"
    assert list(files.json_lines(header, records)) == vector_lines(json_path), f"{bin_path}: reader text form differs from {json_path}"


def as_e4m3_source(doc, dst, out):
    """Rewrites a tcvt fp32 -> e8m0 document as e4m3 -> dst with input 0x38 and output `out`."""
    doc.update(src="e4m3", dst=dst)
    doc["slots"][0].update(type="e4m3", bits=8)
    for vector in doc["vectors"]:
        vector.update({"in": ["0x38"], "out": out, "flags": "0x00"})


class TestGeneratedFiles:
    """Generate small suites in both formats; validate; read back; compare; count."""

    @classmethod
    def setup_class(cls):
        cls.tmp = tempfile.TemporaryDirectory(prefix="ptovec-files-")
        cls.suite = os.path.join(cls.tmp.name, "suite")
        cls.manifest = generate(cls.suite, "--op", "tcvt", "--dst", "e8m0", "--samples", 2000, "--format", "both")

    @classmethod
    def teardown_class(cls):
        cls.tmp.cleanup()

    def path(self, name):
        return os.path.join(self.suite, name)

    def test_suite_files_validate_and_agree(self):
        check_generated_folder(self, self.suite)
        assert sorted(e["path"] for e in self.manifest["files"]) == sorted(f"tcvt_{s}_e8m0.{x}" for s in ("fp16", "bf16", "fp32") for x in ("bin", "json"))
        assert (self.manifest["seed"], self.manifest["samples"], self.manifest["formats"]) == (1, 2000, ["bin", "json"])

    def test_counts_and_order(self):
        for src, count, domain in (("fp16", 65536 * 14, "exhaustive"), ("bf16", 65536 * 14, "exhaustive"),
                                   ("fp32", 2000 * 14, "sampled")):
            header, records = files.read_vectors(self.path(f"tcvt_{src}_e8m0.bin"))
            assert (header["count"], len(records), header["domain"]) == (count, count, domain), src
            assert header["controls"] == ([{"rmode": m, "sat": s} for m in header["rmode_names"]
                                                  for s in (False, True)])
            assert (header["inputs"] * 14) == count
            assert ([f["bits"] for f in header["fields"]]) == [{"fp32": 32}.get(src, 16), 3, 1, 8, 5]
            rows = records.reshape(-1, 14)
            assert (rows["rmode"] == np.repeat(np.arange(7), 2)).all(), f"{src}: mode-major"
            assert (rows["sat"] == np.tile([0, 1], 7)).all(), f"{src}: Sat off, then on"
            assert (rows["in.value"] == rows["in.value"][:, :1]).all(), f"{src}: one input per row"
            if domain == "exhaustive":
                assert (rows["in.value"][:, 0] == np.arange(65536)).all(), f"{src}: code order"
            else:
                assert len(np.unique(rows["in.value"][:, 0])) == 2000, "distinct samples"
        with open(self.path("manifest.json")) as f:
            counts = {e["path"]: e["count"] for e in json.load(f)["files"]}
        assert counts["tcvt_fp16_e8m0.json"] == 917504
        assert counts["tcvt_bf16_e8m0.json"] == 917504
        assert counts["tcvt_fp32_e8m0.json"] == 28000

    def test_every_op_smallest_pair(self):
        """One pair of every registered op (the one with the fewest vectors): both formats (only
        .bin past 300000 vectors, then a sample of its records is validated in JSON form), and
        records re-evaluated by `ptovec eval --batch`."""
        r = ptovec("list", "--json", "--samples", 300)
        assert r.returncode == 0, r.stderr
        for op in json.loads(r.stdout):
            # A pair kept in one file (a split pair's groups are test_file_groups.py's).
            pair = min((p for p in op["pairs"] if "group" not in p), key=lambda p: p["vectors"])
            with subtest(op=op["op"], src=pair["src"], dst=pair["dst"]):
                out = os.path.join(self.tmp.name, f'op-{op["op"]}')
                formats = ["bin", "json"] if pair["vectors"] <= 300000 else ["bin"]
                manifest = generate(out, "--op", op["op"], "--src", pair["src"], "--dst", pair["dst"],
                                    "--samples", 300, "--format", "both" if len(formats) == 2 else "bin")
                assert [e["count"] for e in manifest["files"]] == ([pair["vectors"]] * len(formats))
                check_generated_folder(self, out)
                header, records = files.read_vectors(
                    os.path.join(out, f'{op["op"]}_{pair["src"]}_{pair["dst"]}.bin'))
                picked = records[np.unique(np.linspace(0, len(records) - 1, 2000).astype(np.int64))]
                lines = list(files.json_lines(header, picked))
                document = {k: v for k, v in header.items() if k not in ("record_size", "fields", "rmode_names")}
                document.update(format="ptovec-vectors-json", vectors=[json.loads(x) for x in lines])
                assert_valid(self, "vectors", document, f"records of {out} in JSON form")
                if header["controls"] == "none":  # the schema allows RNE, Sat off only
                    for change in ({"rmode": "RTZ"}, {"sat": True}):
                        bad = json.loads(json.dumps(document))
                        bad["vectors"][0].update(change)
                        assert not validator("vectors").is_valid(bad), f"{op['op']}: {change}"
                self.check_eval_agrees(out, header, document["vectors"][::10])

    def check_eval_agrees(self, folder, header, vectors):
        batch = os.path.join(folder, "cases.txt")
        with open(batch, "w") as f:
            for v in vectors:
                f.write(f'--op {header["op"]} --src {header["src"]} --dst {header["dst"]} --rmode {v["rmode"]}'
                        f'{" --sat" if v["sat"] else ""} {" ".join(v["in"])}\n')
        r = ptovec("eval", "--batch", batch)
        os.remove(batch)
        assert r.returncode == 0, (r.stdout[:1000] + r.stderr)
        got = [json.loads(line) for line in r.stdout.splitlines()]
        assert [(g["in"], g["rmode"], g["sat"], g["out"], g["flags"]) for g in got] == [(v["in"], v["rmode"], v["sat"], v["out"], v["flags"]) for v in vectors]

    def test_more_tcvt_types(self):
        """Raw-carrier pairs: 1-digit, 8-digit and 16-digit words, exhaustive and sampled."""
        for src, dst in (("s8", "fp32"), ("fp32", "s4x2"), ("s4x2", "u64"), ("u64", "hif8")):
            with subtest(src=src, dst=dst):
                out = os.path.join(self.tmp.name, f"tcvt-{src}-{dst}")
                generate(out, "--op", "tcvt", "--src", src, "--dst", dst, "--samples", 500, "--format", "both")
                check_generated_folder(self, out)

    def test_schemas_reject_bad_documents(self):
        with open(self.path("tcvt_fp32_e8m0.json")) as f:
            good = json.load(f)
        good["vectors"] = good["vectors"][:28]
        assert_valid(self, "vectors", good, "the unmodified sample")
        v = validator("vectors")

        def mutated(change):
            doc = json.loads(json.dumps(good))
            change(doc)
            return doc
        bad = {
            "out too wide for e8m0": lambda d: d["vectors"][0].update(out="0x0ff"),
            "in too narrow for fp32": lambda d: d["vectors"][1].update({"in": ["0x3c00"]}),
            "upper-case hex": lambda d: d["vectors"][1].update({"in": ["0x3F800000"]}),
            "flags bit 5": lambda d: d["vectors"][2].update(flags="0x20"),
            "unknown mode": lambda d: d["vectors"][3].update(rmode="RXX"),
            "two inputs": lambda d: d["vectors"][4]["in"].append("0x00000000"),
            "extra key": lambda d: d["vectors"][5].update(note="x"),
            "illegal pair e4m3 -> e8m0": lambda d: as_e4m3_source(d, "e8m0", "0x7f"),
            "unknown op": lambda d: d.update(op="tadd"),
            "missing count": lambda d: d.pop("count"),
            "wrong format": lambda d: d.update(format="ptovec-vectors-bin"),
            "slot type not src": lambda d: d["slots"][0].update(type="fp16"),
        }
        for what, change in bad.items():
            assert not v.is_valid(mutated(change)), f"the vectors schema accepts: {what}"
        # The legal pair e4m3 -> fp32, written the same way, is accepted: the pair is what failed.
        assert_valid(self, "vectors", mutated(lambda d: as_e4m3_source(d, "fp32", "0x00000038")),
                     "an e4m3 -> fp32 file")
        header, _ = files.read_vectors(self.path("tcvt_fp32_e8m0.bin"))
        hv = validator("binary-header")
        assert hv.is_valid(header)
        for what, change in {"out 2 bytes": lambda h: h["fields"][3].update(bytes=2),
                             "in 2 bytes": lambda h: h["fields"][0].update(bytes=2),
                             "rmode with a type": lambda h: h["fields"][1].update(type="u8"),
                             "modes reordered": lambda h: h.update(rmode_names=sorted(MODES))}.items():
            doc = json.loads(json.dumps(header))
            change(doc)
            assert not hv.is_valid(doc), f"the binary-header schema accepts: {what}"
        with open(self.path("manifest.json")) as f:
            manifest = json.load(f)
        mv = validator("manifest")
        for what, change in {"upper-case sha256": lambda m: m["files"][0].update(sha256=m["files"][0]["sha256"].upper()),
                             "bin entry named .json": lambda m: m["files"][0].update(path="tcvt_fp16_e8m0.json"),
                             "samples 0": lambda m: m.update(samples=0)}.items():
            doc = json.loads(json.dumps(manifest))
            change(doc)
            assert not mv.is_valid(doc), f"the manifest schema accepts: {what}"

    def test_reader_script(self):
        path = self.path("tcvt_fp32_e8m0.bin")
        r = subprocess.run(READER + [path, "-n", "3"], capture_output=True, text=True,
                           env=READER_ENV)
        assert r.returncode == 0, r.stderr
        lines = r.stdout.splitlines()
        assert "op=tcvt src=fp32 dst=e8m0" in lines[0]
        assert len(lines) == 4
        assert all(json.loads(line)["index"] == i for i, line in enumerate(lines[1:]))
        r = subprocess.run(READER + ["--json", path], capture_output=True, text=True,
                           env=READER_ENV)
        assert r.returncode == 0, r.stderr
        assert r.stdout.splitlines() == vector_lines(self.path("tcvt_fp32_e8m0.json"))
        # `--json | head -n 2`: the reader stops quietly when the pipe closes.
        r = subprocess.run(f"'{sys.executable}' -m ptovec.files vectors --json '{path}' | head -n 2",
                           shell=True, env=READER_ENV,
                           capture_output=True, text=True)
        assert (len(r.stdout.splitlines()), r.stderr) == (2, "")
        # Without numpy: one line saying what to install, exit status 1, no traceback.
        r = subprocess.run([sys.executable, "-c", "import runpy, sys; sys.modules['numpy'] = None; "
                            "sys.argv = ['-m', 'vectors', 'x']; "
                            "runpy.run_module('ptovec.files', run_name='__main__', alter_sys=True)"],
                           capture_output=True, text=True, env=READER_ENV)
        assert r.returncode == 1
        assert r.stderr.strip() == ("ptovec: needs numpy (Debian: apt install "
                                           "python3-numpy; PyPI: pip install numpy)")

    def test_reader_refuses_truncated_and_foreign_files(self):
        source = self.path("tcvt_fp32_e8m0.bin")
        size = os.path.getsize(source)
        with open(source, "rb") as f:
            data = f.read()
        cases = {"one byte short": data[:-1], "half a record short": data[:-3], "header only": data[:40],
                 "one byte long": data + b"\0", "bad magic": b"PTOVEC\0X" + data[8:], "empty": b""}
        for what, content in cases.items():
            with subtest(what):
                path = os.path.join(self.tmp.name, "broken.bin")
                with open(path, "wb") as f:
                    f.write(content)
                r = subprocess.run(READER + [path], capture_output=True, text=True, env=READER_ENV)
                assert r.returncode == 2, what
                assert r.stdout == ""
                assert len(r.stderr.splitlines()) == 1, r.stderr
                assert r.stderr.startswith("ptovec.files: error: "), r.stderr
                if what.startswith("one byte") or what.startswith("half"):
                    assert f"{len(content)} bytes, expected {size}" in r.stderr
                with pytest.raises(files.VectorFileError):
                    files.read_vectors(path)


@pytest.mark.skipif(not ORACLE_DUT, reason="PTOVEC_ORACLE_DUT is not set")
class TestCutFiles(Scratch):
    TF = "tcvt_fp16_e8m0_RTZ_satoff.tf"

    def cut_lines(self, path, keep):
        with open(path) as f:
            lines = f.readlines()
        assert len(lines) == 65536
        with open(path, "w") as f:
            f.writelines(lines[:keep])

    def run_alone(self, path):
        return ptovec("run", "--dut", ORACLE_DUT, "--vectors", path, "--results",
                      self.path("results.bin"), "--max-report", "0")

    def test_a_cut_testfloat_file_beside_its_manifest_is_refused(self):
        folder = self.generate_fp16_e8m0("tf", "--format", "testfloat")
        self.cut_lines(os.path.join(folder, self.TF), 40000)
        r = self.run_alone(os.path.join(folder, self.TF))
        assert r.returncode == 2, (r.stdout + r.stderr)
        assert r.stderr.strip() == ("ptovec: error: vector file "
                         f"{folder}/{self.TF} has 440000 bytes, {folder}/manifest.json says 720896 "
                         "(truncated)")

    def test_a_testfloat_file_without_its_manifest_says_its_count_is_unverified(self):
        folder = self.generate_fp16_e8m0("tf", "--format", "testfloat")
        os.mkdir(self.path("alone"))
        alone = self.path("alone", self.TF)
        shutil.copy(os.path.join(folder, self.TF), alone)
        self.cut_lines(alone, 40000)
        for r in (self.run_alone(alone),
                  ptovec("check", "--vectors", alone, "--results", self.path("results.bin"))):
            assert r.returncode == 0, (r.stdout + r.stderr)
            assert (f"note: {alone} is a TestFloat file with no manifest.json entry beside "
                          "it: its 40000 vectors are counted from its size, unverified") in r.stdout
            assert r.stdout.splitlines()[-1] == "PASS"
        # The whole file beside its manifest: verified, no note.
        r = self.run_alone(os.path.join(folder, self.TF))
        assert r.returncode == 0, (r.stdout + r.stderr)
        assert "note:" not in r.stdout
        assert "65536 vectors: 65536 matched" in r.stdout

    def test_a_changed_file_beside_its_manifest_fails_its_digest(self):
        folder = self.generate_fp16_e8m0("tf", "--format", "testfloat")
        path = os.path.join(folder, self.TF)
        with open(path, "r+b") as f:  # same size, one hex digit of an expected word changed
            first = f.readline()
            f.seek(len(first) - 2)
            digit = f.read(1)
            f.seek(len(first) - 2)
            f.write(b"0" if digit != b"0" else b"1")
        r = self.run_alone(path)
        assert r.returncode == 2, (r.stdout + r.stderr)
        assert f"vector file {path} has SHA-256 " in r.stderr
        assert "(the file was changed)" in r.stderr

    def test_cut_binary_and_json_files_are_refused_by_their_header(self):
        for fmt, name, cut, message in [
                ("bin", "tcvt_fp16_e8m0.bin", 300000, "is truncated: the header announces 65536 "
                 "records"),
                ("json", "tcvt_fp16_e8m0.json", None, "is truncated: the header announces 65536 "
                 "vectors, the file ends after 29999 without the closing ]}")]:
            folder = self.generate_fp16_e8m0(fmt, "--format", fmt)
            os.mkdir(self.path(fmt + "-alone"))
            alone = self.path(fmt + "-alone", name)
            with open(os.path.join(folder, name), "rb") as f:
                data = f.read()
            with open(alone, "wb") as f:
                f.write(data[:cut] if cut else b"".join(data.splitlines(True)[:30000]))
            r = self.run_alone(alone)
            assert r.returncode == 2, (r.stdout + r.stderr)
            assert f"vector file {alone} {message}" in r.stderr


class TestFormatVersion(Scratch):
    """A version 1 file (the header of ptovec 0.1.0 before version 2: "controls": "all", no
    "inputs", no field bits) is still read: `run` passes it against the oracle device; a version
    3 file is refused."""

    def test_a_version_1_file_is_still_read(self):
        self.generate("v", "--op", "tcvt", "--src", "bf16", "--dst", "e8m0")
        path = self.path("v", "tcvt_bf16_e8m0.bin")
        fixed, header = read_bin_header(path)
        with open(path, "rb") as f:
            f.seek(fixed[5])
            records = f.read()
        # Rewrite the header as version 1 wrote it.
        header["version"] = 1
        header["controls"] = "all"
        del header["inputs"]
        for field in header["fields"]:
            del field["bits"]
        for slot in header["slots"]:
            del slot["bits"]
        text = json.dumps(header, separators=(",", ":")).encode()
        text += b" " * (-(FIXED.size + len(text)) % 8)
        v1 = FIXED.pack(b"PTOVEC\0B", 1, fixed[2], len(text), fixed[4], FIXED.size + len(text))
        os.makedirs(self.path("v1"))
        with open(self.path("v1", "tcvt_bf16_e8m0.bin"), "wb") as f:
            f.write(v1 + text + records)
        old_header, old_records = files.read_vectors(self.path("v1", "tcvt_bf16_e8m0.bin"))
        assert old_header["version"] == 1
        assert len(old_records) == (65536 * 14)
        # Its words have no "bits": their widths come from `ptovec list --types --json`, and
        # the JSON lines are those of the version 2 file.
        widths = files.type_widths(PTOVEC)
        assert (widths["bf16"], widths["e8m0"], widths["fp19"], widths["s4x2"]) == (16, 8, 19, 4)
        new_header, new_records = files.read_vectors(path)
        assert list(files.json_lines(old_header, old_records[:40], widths)) == list(files.json_lines(new_header, new_records[:40]))
        # A JSON vector file reads as the same records as its binary twin.
        self.generate("vj", "--op", "tquant", "--src", "fp32", "--dst", "s8", "--samples", 50,
                      "--format", "both")
        bin_header, bin_records = files.read_vector_file(self.path("vj", "tquant_fp32_s8.bin"))
        json_header, json_records = files.read_vector_file(self.path("vj", "tquant_fp32_s8.json"))
        assert (json_header["count"], len(json_records)) == (bin_header["count"], 700)
        for name in bin_records.dtype.names:
            assert (json_records[name] == bin_records[name]).all(), name
        if ORACLE_DUT:
            r = ptovec("run", "--dut", ORACLE_DUT, "--vectors",
                       self.path("v1", "tcvt_bf16_e8m0.bin"), "--results", self.path("r.bin"),
                       "--quiet")
            assert r.returncode == 0, (r.stdout + r.stderr)
            assert "917504 vectors: 917504 matched" in r.stdout
        # A version 3 file is refused with the versions this ptovec reads.
        with open(self.path("v1", "tcvt_bf16_e8m0.bin"), "r+b") as f:
            f.seek(8)
            f.write(struct.pack("<H", 3))
        r = ptovec("check", "--vectors", self.path("v1", "tcvt_bf16_e8m0.bin"), "--results",
                   self.path("r.bin"))
        assert r.returncode == 2
        assert "has format version 3 (this ptovec reads versions 1 to 2)" in error_of(r)
