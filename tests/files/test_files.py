#!/usr/bin/python3
"""End-to-end tests of ptovec's files and CLI: schemas, the numpy reader, manifests, determinism,
input errors, eval answers and interrupted runs.

Run by ctest with Debian's /usr/bin/python3 (python3-numpy, python3-jsonschema). The ptovec binary
and the source folder come from the environment (PTOVEC, PTOVEC_SOURCE_DIR) or from the options
--ptovec PATH --source DIR given before the unittest arguments, e.g.
    /usr/bin/python3 tests/files/test_files.py --ptovec build/tools/ptovec --source . -v EvalTest
"""
import hashlib
import json
import os
import signal
import subprocess
import sys
import tempfile
import time
import unittest

import numpy as np


from ptovec_test_env import locate, schema_validator  # tests/files/ptovec_test_env.py

PTOVEC, SOURCE = locate("test_files.py")
sys.path.insert(0, os.path.join(SOURCE, "python"))
from ptovec import files  # noqa: E402  (python/ptovec/files: the readers)

# The readers' command line, from the source tree.
READER = [sys.executable, "-m", "ptovec.files", "vectors"]
READER_ENV = dict(os.environ, PYTHONPATH=os.path.join(SOURCE, "python"))
MODES = ["RNE", "RTM", "RTP", "RTZ", "RNA", "RTO", "RHB"]
SCHEMA_FILES = {"vectors": "vectors.schema.json", "manifest": "manifest.schema.json",
                "eval": "eval-line.schema.json", "binary-header": "binary-header.schema.json"}
_validators = {}


def validator(name):
    if name not in _validators:
        _validators[name] = schema_validator(SOURCE, SCHEMA_FILES[name])
    return _validators[name]


def ptovec(*args, timeout=900):
    return subprocess.run([PTOVEC, *map(str, args)], capture_output=True, text=True, timeout=timeout)


def generate(out, *args):
    r = ptovec("generate", "--out", out, "--quiet", *args)
    if r.returncode != 0:
        raise AssertionError(f"ptovec generate {' '.join(map(str, args))} failed: {r.stderr}")
    with open(os.path.join(out, "manifest.json")) as f:
        return json.load(f)


def sha256(path):
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def assert_valid(test, name, document, what):
    errors = sorted(validator(name).iter_errors(document), key=lambda e: list(e.absolute_path))
    test.assertEqual([], [f"{list(e.absolute_path)}: {e.message[:300]}" for e in errors[:5]],
                     f"{what} does not match the {name} schema")


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
    test.assertEqual(names, sorted([e["path"] for e in manifest["files"]] + ["manifest.json"]),
                     "the folder holds exactly the manifest's files (no temporaries left)")
    by_base = {}
    for entry in manifest["files"]:
        path = os.path.join(folder, entry["path"])
        test.assertEqual(os.path.getsize(path), entry["bytes"], path)
        test.assertEqual(sha256(path), entry["sha256"], path)
        test.assertEqual(entry["path"], f'{entry["op"]}_{entry["src"]}_{entry["dst"]}.{entry["format"]}')
        by_base.setdefault(entry["path"].rsplit(".", 1)[0], {})[entry["format"]] = (path, entry)
    for base, formats in by_base.items():
        parsed = None
        if "json" in formats:
            path, entry = formats["json"]
            with open(path) as f:
                parsed = json.load(f)
            test.assertEqual(len(parsed["vectors"]), entry["count"], path)
            test.assertEqual(parsed["count"], entry["count"], path)
            test.assertEqual(parsed["seed"], entry["seed"], path)
            document = dict(parsed, vectors=sample_for_schema(parsed["vectors"]))
            assert_valid(test, "vectors", document, path)
        if "bin" in formats:
            path, entry = formats["bin"]
            header, records = files.read_vectors(path)
            assert_valid(test, "binary-header", header, path + " (JSON header)")
            test.assertEqual(len(records), entry["count"], path)
            test.assertEqual((header["op"], header["src"], header["dst"], header["seed"]),
                             (entry["op"], entry["src"], entry["dst"], entry["seed"]), path)
            offset = 0
            for field in header["fields"]:
                test.assertEqual(field["offset"], offset, f"{path}: fields are packed in order")
                offset += field["bytes"]
            test.assertEqual(offset, header["record_size"], path)
            test.assertEqual(header["rmode_names"], MODES, path)
        if parsed is not None and "bin" in formats:
            compare_bin_json(test, formats["bin"][0], formats["json"][0], parsed)
    return manifest


def compare_bin_json(test, bin_path, json_path, parsed):
    """Record by record: the numbers read by the numpy reader equal the JSON file's, and the
    reader's text form equals the JSON file's vector lines byte for byte."""
    header, records = files.read_vectors(bin_path)
    bin_header = {k: v for k, v in header.items() if k not in ("format", "record_size", "fields", "rmode_names")}
    json_header = {k: v for k, v in parsed.items() if k not in ("format", "vectors")}
    test.assertEqual(bin_header, json_header, "the two files carry the same header")
    vectors = parsed["vectors"]
    words = [f["name"] for f in header["fields"] if f["name"].startswith("in.")]
    for slot, name in enumerate(words):
        expected = np.array([int(v["in"][slot], 16) for v in vectors], dtype=np.uint64)
        test.assertTrue(np.array_equal(records[name].astype(np.uint64), expected), f"{bin_path}: {name}")
    checks = {"rmode": [MODES.index(v["rmode"]) for v in vectors], "sat": [int(v["sat"]) for v in vectors],
              "out": [int(v["out"], 16) for v in vectors], "flags": [int(v["flags"], 16) for v in vectors]}
    for name, values in checks.items():
        test.assertTrue(np.array_equal(records[name].astype(np.uint64), np.array(values, dtype=np.uint64)),
                        f"{bin_path}: {name} differs from {json_path}")
    test.assertEqual(list(files.json_lines(header, records)), vector_lines(json_path),
                     f"{bin_path}: reader text form differs from {json_path}")


def as_e4m3_source(doc, dst, out):
    """Rewrites a tcvt fp32 -> e8m0 document as e4m3 -> dst with input 0x38 and output `out`."""
    doc.update(src="e4m3", dst=dst)
    doc["slots"][0].update(type="e4m3", bits=8)
    for vector in doc["vectors"]:
        vector.update({"in": ["0x38"], "out": out, "flags": "0x00"})


class GeneratedFilesTest(unittest.TestCase):
    """Generate small suites in both formats; validate; read back; compare; count."""

    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.TemporaryDirectory(prefix="ptovec-files-")
        cls.suite = os.path.join(cls.tmp.name, "suite")
        cls.manifest = generate(cls.suite, "--op", "tcvt", "--dst", "e8m0", "--samples", 2000, "--format", "both")

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def path(self, name):
        return os.path.join(self.suite, name)

    def test_suite_files_validate_and_agree(self):
        check_generated_folder(self, self.suite)
        self.assertEqual(sorted(e["path"] for e in self.manifest["files"]),
                         sorted(f"tcvt_{s}_e8m0.{x}" for s in ("fp16", "bf16", "fp32") for x in ("bin", "json")))
        self.assertEqual((self.manifest["seed"], self.manifest["samples"], self.manifest["formats"]),
                         (1, 2000, ["bin", "json"]))

    def test_counts_and_order(self):
        for src, count, domain in (("fp16", 65536 * 14, "exhaustive"), ("bf16", 65536 * 14, "exhaustive"),
                                   ("fp32", 2000 * 14, "sampled")):
            header, records = files.read_vectors(self.path(f"tcvt_{src}_e8m0.bin"))
            self.assertEqual((header["count"], len(records), header["domain"]), (count, count, domain), src)
            self.assertEqual(header["controls"], [{"rmode": m, "sat": s} for m in header["rmode_names"]
                                                  for s in (False, True)])
            self.assertEqual(header["inputs"] * 14, count)
            self.assertEqual(([f["bits"] for f in header["fields"]]), [{"fp32": 32}.get(src, 16), 3, 1, 8, 5])
            rows = records.reshape(-1, 14)
            self.assertTrue((rows["rmode"] == np.repeat(np.arange(7), 2)).all(), f"{src}: mode-major")
            self.assertTrue((rows["sat"] == np.tile([0, 1], 7)).all(), f"{src}: Sat off, then on")
            self.assertTrue((rows["in.value"] == rows["in.value"][:, :1]).all(), f"{src}: one input per row")
            if domain == "exhaustive":
                self.assertTrue((rows["in.value"][:, 0] == np.arange(65536)).all(), f"{src}: code order")
            else:
                self.assertEqual(len(np.unique(rows["in.value"][:, 0])), 2000, "distinct samples")
        with open(self.path("manifest.json")) as f:
            counts = {e["path"]: e["count"] for e in json.load(f)["files"]}
        self.assertEqual(counts["tcvt_fp16_e8m0.json"], 917504)
        self.assertEqual(counts["tcvt_bf16_e8m0.json"], 917504)
        self.assertEqual(counts["tcvt_fp32_e8m0.json"], 28000)

    def test_every_op_smallest_pair(self):
        """One pair of every registered op (the one with the fewest vectors): both formats (only
        .bin past 300000 vectors, then a sample of its records is validated in JSON form), and
        records re-evaluated by `ptovec eval --batch`."""
        r = ptovec("list", "--json", "--samples", 300)
        self.assertEqual(r.returncode, 0, r.stderr)
        for op in json.loads(r.stdout):
            # A pair kept in one file (a split pair's groups are test_file_groups.py's).
            pair = min((p for p in op["pairs"] if "group" not in p), key=lambda p: p["vectors"])
            with self.subTest(op=op["op"], src=pair["src"], dst=pair["dst"]):
                out = os.path.join(self.tmp.name, f'op-{op["op"]}')
                formats = ["bin", "json"] if pair["vectors"] <= 300000 else ["bin"]
                manifest = generate(out, "--op", op["op"], "--src", pair["src"], "--dst", pair["dst"],
                                    "--samples", 300, "--format", "both" if len(formats) == 2 else "bin")
                self.assertEqual([e["count"] for e in manifest["files"]], [pair["vectors"]] * len(formats))
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
                        self.assertFalse(validator("vectors").is_valid(bad), f"{op['op']}: {change}")
                self.check_eval_agrees(out, header, document["vectors"][::10])

    def check_eval_agrees(self, folder, header, vectors):
        batch = os.path.join(folder, "cases.txt")
        with open(batch, "w") as f:
            for v in vectors:
                f.write(f'--op {header["op"]} --src {header["src"]} --dst {header["dst"]} --rmode {v["rmode"]}'
                        f'{" --sat" if v["sat"] else ""} {" ".join(v["in"])}\n')
        r = ptovec("eval", "--batch", batch)
        os.remove(batch)
        self.assertEqual(r.returncode, 0, r.stdout[:1000] + r.stderr)
        got = [json.loads(line) for line in r.stdout.splitlines()]
        self.assertEqual([(g["in"], g["rmode"], g["sat"], g["out"], g["flags"]) for g in got],
                         [(v["in"], v["rmode"], v["sat"], v["out"], v["flags"]) for v in vectors])

    def test_more_tcvt_types(self):
        """Raw-carrier pairs: 1-digit, 8-digit and 16-digit words, exhaustive and sampled."""
        for src, dst in (("s8", "fp32"), ("fp32", "s4x2"), ("s4x2", "u64"), ("u64", "hif8")):
            with self.subTest(src=src, dst=dst):
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
            self.assertFalse(v.is_valid(mutated(change)), f"the vectors schema accepts: {what}")
        # The legal pair e4m3 -> fp32, written the same way, is accepted: the pair is what failed.
        assert_valid(self, "vectors", mutated(lambda d: as_e4m3_source(d, "fp32", "0x00000038")),
                     "an e4m3 -> fp32 file")
        header, _ = files.read_vectors(self.path("tcvt_fp32_e8m0.bin"))
        hv = validator("binary-header")
        self.assertTrue(hv.is_valid(header))
        for what, change in {"out 2 bytes": lambda h: h["fields"][3].update(bytes=2),
                             "in 2 bytes": lambda h: h["fields"][0].update(bytes=2),
                             "rmode with a type": lambda h: h["fields"][1].update(type="u8"),
                             "modes reordered": lambda h: h.update(rmode_names=sorted(MODES))}.items():
            doc = json.loads(json.dumps(header))
            change(doc)
            self.assertFalse(hv.is_valid(doc), f"the binary-header schema accepts: {what}")
        with open(self.path("manifest.json")) as f:
            manifest = json.load(f)
        mv = validator("manifest")
        for what, change in {"upper-case sha256": lambda m: m["files"][0].update(sha256=m["files"][0]["sha256"].upper()),
                             "bin entry named .json": lambda m: m["files"][0].update(path="tcvt_fp16_e8m0.json"),
                             "samples 0": lambda m: m.update(samples=0)}.items():
            doc = json.loads(json.dumps(manifest))
            change(doc)
            self.assertFalse(mv.is_valid(doc), f"the manifest schema accepts: {what}")

    def test_reader_script(self):
        path = self.path("tcvt_fp32_e8m0.bin")
        r = subprocess.run(READER + [path, "-n", "3"], capture_output=True, text=True,
                           env=READER_ENV)
        self.assertEqual(r.returncode, 0, r.stderr)
        lines = r.stdout.splitlines()
        self.assertIn("op=tcvt src=fp32 dst=e8m0", lines[0])
        self.assertEqual(len(lines), 4)
        self.assertTrue(all(json.loads(line)["index"] == i for i, line in enumerate(lines[1:])))
        r = subprocess.run(READER + ["--json", path], capture_output=True, text=True,
                           env=READER_ENV)
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertEqual(r.stdout.splitlines(), vector_lines(self.path("tcvt_fp32_e8m0.json")))
        # `--json | head -n 2`: the reader stops quietly when the pipe closes.
        r = subprocess.run(f"'{sys.executable}' -m ptovec.files vectors --json '{path}' | head -n 2",
                           shell=True, env=READER_ENV,
                           capture_output=True, text=True)
        self.assertEqual((len(r.stdout.splitlines()), r.stderr), (2, ""))
        # Without numpy: one line saying what to install, exit status 1, no traceback.
        r = subprocess.run([sys.executable, "-c", "import runpy, sys; sys.modules['numpy'] = None; "
                            "sys.argv = ['-m', 'vectors', 'x']; "
                            "runpy.run_module('ptovec.files', run_name='__main__', alter_sys=True)"],
                           capture_output=True, text=True, env=READER_ENV)
        self.assertEqual(r.returncode, 1)
        self.assertEqual(r.stderr.strip(), "ptovec: needs numpy (Debian: apt install "
                                           "python3-numpy; PyPI: pip install numpy)")

    def test_reader_refuses_truncated_and_foreign_files(self):
        source = self.path("tcvt_fp32_e8m0.bin")
        size = os.path.getsize(source)
        with open(source, "rb") as f:
            data = f.read()
        cases = {"one byte short": data[:-1], "half a record short": data[:-3], "header only": data[:40],
                 "one byte long": data + b"\0", "bad magic": b"PTOVEC\0X" + data[8:], "empty": b""}
        for what, content in cases.items():
            with self.subTest(what):
                path = os.path.join(self.tmp.name, "broken.bin")
                with open(path, "wb") as f:
                    f.write(content)
                r = subprocess.run(READER + [path], capture_output=True, text=True, env=READER_ENV)
                self.assertEqual(r.returncode, 2, what)
                self.assertEqual(r.stdout, "")
                self.assertEqual(len(r.stderr.splitlines()), 1, r.stderr)
                self.assertTrue(r.stderr.startswith("ptovec.files: error: "), r.stderr)
                if what.startswith("one byte") or what.startswith("half"):
                    self.assertIn(f"{len(content)} bytes, expected {size}", r.stderr)
                with self.assertRaises(files.VectorFileError):
                    files.read_vectors(path)


class DeterminismTest(unittest.TestCase):
    """Same seed: byte-identical files and manifest, whatever the thread count. Other seed: other
    samples."""

    def test_seed_and_threads(self):
        with tempfile.TemporaryDirectory(prefix="ptovec-determinism-") as tmp:
            runs = {"default": [], "again": [], "threads1": ["--threads", 1], "threads2": ["--threads", 2],
                    "seed2": ["--threads", 2, "--seed", 2]}
            for name, extra in runs.items():
                generate(os.path.join(tmp, name), "--op", "tcvt", "--dst", "e8m0", "--samples", 2000,
                         "--format", "both", *(extra if "--seed" in extra else extra + ["--seed", 1]))
            ref = os.path.join(tmp, "default")
            names = sorted(os.listdir(ref))
            self.assertEqual(len(names), 7)
            for name in ("again", "threads1", "threads2"):
                other = os.path.join(tmp, name)
                self.assertEqual(sorted(os.listdir(other)), names)
                for file in names:
                    self.assertEqual(sha256(os.path.join(ref, file)), sha256(os.path.join(other, file)),
                                     f"{name}/{file} differs from default/{file}")
            other = os.path.join(tmp, "seed2")
            for fmt in ("bin", "json"):
                self.assertNotEqual(sha256(os.path.join(ref, f"tcvt_fp32_e8m0.{fmt}")),
                                    sha256(os.path.join(other, f"tcvt_fp32_e8m0.{fmt}")))
            _, a = files.read_vectors(os.path.join(ref, "tcvt_fp32_e8m0.bin"))
            _, b = files.read_vectors(os.path.join(other, "tcvt_fp32_e8m0.bin"))
            self.assertFalse(np.array_equal(a["in.value"], b["in.value"]), "seed 2 draws other samples")
            # Exhaustive files do not depend on the seed except for the header's derived seed.
            _, a = files.read_vectors(os.path.join(ref, "tcvt_fp16_e8m0.bin"))
            _, b = files.read_vectors(os.path.join(other, "tcvt_fp16_e8m0.bin"))
            self.assertTrue(np.array_equal(a, b))


class CliErrorsTest(unittest.TestCase):
    """Bad input: one line on stderr naming the bad value, exit 2, nothing written."""

    def check(self, args, *named):
        with tempfile.TemporaryDirectory(prefix="ptovec-errors-") as tmp:
            out = os.path.join(tmp, "out")
            full = [a.replace("OUT", out) for a in args]
            r = ptovec(*full)
            self.assertEqual(r.returncode, 2, f"{full}: {r.stderr}")
            self.assertEqual(r.stdout, "", full)
            self.assertTrue(r.stderr.endswith("\n") and r.stderr.count("\n") == 1, f"{full}: {r.stderr!r}")
            self.assertTrue(r.stderr.startswith("ptovec: error: "), r.stderr)
            for value in named:
                self.assertIn(value, r.stderr, full)
            self.assertFalse(os.path.exists(out), f"{full} created its output folder")

    def test_generate_errors(self):
        gen = ["generate", "--out", "OUT", "--quiet"]
        self.check(gen + ["--op", "nosuchop"], "'nosuchop'", "tcvt")
        self.check(gen + ["--op", "tcvt", "--src", "fp17", "--dst", "e8m0"], "'fp17'", "fp16")
        self.check(gen + ["--op", "tcvt", "--src", "fp16", "--dst", "e9m0"], "'e9m0'")
        self.check(gen + ["--op", "tcvt", "--src", "e4m3", "--dst", "e8m0"], "e4m3", "e8m0")
        self.check(gen + ["--op", "tcvt", "--format", "xml"], "'xml'", "both")
        self.check(gen + ["--op", "tcvt", "--samples", "0"], "--samples", "0")

    def test_eval_errors(self):
        ev = ["eval", "--op", "tcvt", "--src", "fp16", "--dst", "e8m0"]
        self.check(["eval", "--op", "nosuchop", "--src", "fp16", "--dst", "e8m0", "0x3c00"], "'nosuchop'")
        self.check(["eval", "--op", "tcvt", "--src", "fp17", "--dst", "e8m0", "0x3c00"], "'fp17'")
        self.check(ev + ["--rmode", "RXX", "0x3c00"], "'RXX'", "RNE")
        self.check(["eval", "--op", "tcvt", "--src", "e4m3", "--dst", "e8m0", "0x38"], "e4m3", "e8m0")
        self.check(ev + ["0xzz"], "'0xzz'")
        self.check(ev + ["3c00"], "'3c00'")
        self.check(ev + ["0x10000"], "'0x10000'", "fp16")
        self.check(ev + ["0x3c00", "0xzz"], "'0xzz'")  # a bad word prints nothing, not even the good one
        self.check(ev, "input")

    def test_list_filters_by_op_and_types(self):
        r = ptovec("list", "--op", "tcvt", "--dst", "e8m0")
        self.assertEqual(r.returncode, 0, r.stderr)
        pairs = [l.strip() for l in r.stdout.splitlines() if l.strip().startswith(("*", "fp", "bf"))]
        self.assertEqual(pairs, ["* fp32 -> e8m0: 1400000", "* fp16 -> e8m0: 917504",
                                 "* bf16 -> e8m0: 917504"])  # TCVT converts to E8M0 from these
        self.assertNotIn("encode", r.stdout)
        listing = json.loads(ptovec("list", "--json", "--src", "s32").stdout)
        self.assertTrue(all(p["src"] == "s32" for op in listing for p in op["pairs"]))
        self.assertIn("encode", [op["op"] for op in listing])
        self.check(["list", "--op", "tcvtx"], "'tcvtx'")
        self.check(["list", "--op", "shift", "--dst", "e8m0"], "no legal pair matches")

    def test_eval_controls_of_an_op_without_controls(self):
        """An op whose vectors are all RNE, Sat off refuses another --rmode or --sat."""
        r = ptovec("list", "--json")
        self.assertEqual(r.returncode, 0, r.stderr)
        ops = [op for op in json.loads(r.stdout) if op["controls"] == 1]
        for op in ops:
            pair = op["pairs"][0]
            zeros = ["0x0"] * len(op["slots"])
            base = ["eval", "--op", op["op"], "--src", pair["src"], "--dst", pair["dst"]]
            with self.subTest(op=op["op"]):
                self.check(base + ["--rmode", "RTZ"] + zeros, "--rmode RTZ", op["op"])
                self.check(base + ["--sat"] + zeros, "--sat", op["op"])


class EvalTest(unittest.TestCase):
    def eval_lines(self, *args, code=0):
        r = ptovec("eval", *args)
        self.assertEqual(r.returncode, code, r.stderr)
        lines = r.stdout.splitlines()
        for line in lines:
            assert_valid(self, "eval", json.loads(line), f"eval line {line}")
        return lines

    def answer(self, src, rmode, word, sat=False):
        args = ["--op", "tcvt", "--src", src, "--dst", "e8m0", "--rmode", rmode, word] + (["--sat"] if sat else [])
        (line,) = self.eval_lines(*args)
        result = json.loads(line)
        self.assertEqual((result["src"], result["rmode"], result["sat"], result["in"]), (src, rmode, sat, [word]))
        return result["out"], result["flags"]

    def test_known_answers(self):
        self.assertEqual(self.answer("fp16", "RTZ", "0x3c00"), ("0x7f", "0x00"))
        self.assertEqual(self.answer("fp16", "RNE", "0x3e00"), ("0x80", "0x10"))  # 1.5 > sqrt(2): up
        self.assertEqual(self.answer("fp16", "RTZ", "0x3e00"), ("0x7f", "0x10"))
        self.assertEqual(self.answer("bf16", "RNE", "0x7f80", sat=True), ("0xfe", "0x14"))
        self.assertEqual(self.answer("bf16", "RNE", "0x7f80"), ("0xff", "0x14"))
        self.assertEqual(self.answer("fp16", "RNE", "0x0000"), ("0xff", "0x01"))

    def test_raw_copy_pairs_say_so(self):
        # tcvt to a type other than E8M0 copies bits: 449.0 (0x43e08000) into e4m3 is its low byte.
        r = ptovec("eval", "--op", "tcvt", "--src", "fp32", "--dst", "e4m3", "0x43e08000")
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertEqual(json.loads(r.stdout)["out"], "0x00")
        self.assertIn("ptovec: note: tcvt to e4m3 copies the source word's bits", r.stderr)
        self.assertIn("use --op encode", r.stderr)
        r = ptovec("eval", "--op", "tcvt", "--src", "fp32", "--dst", "e8m0", "0x43e08000")
        self.assertEqual(r.stderr, "")
        # encode converts the value: 449 overflows E4M3 (largest 448) under every mode.
        r = ptovec("eval", "--op", "encode", "--src", "fp32", "--dst", "e4m3", "0x43e08000")
        self.assertEqual((json.loads(r.stdout)["out"], json.loads(r.stdout)["flags"]), ("0x7f", "0x14"))
        listing = json.loads(ptovec("list", "--json").stdout)
        tcvt = next(op for op in listing if op["op"] == "tcvt")
        noted = {(p["src"], p["dst"]) for p in tcvt["pairs"] if "note" in p}
        self.assertEqual(noted, {(p["src"], p["dst"]) for p in tcvt["pairs"] if p["dst"] != "e8m0"})
        self.assertTrue(all("note" not in p for op in listing if op["op"] != "tcvt" for p in op["pairs"]))
        self.assertIn("note: tcvt to any type but e8m0 copies the source word's bits",
                      ptovec("list").stdout)
        self.assertIn("use --op encode", ptovec("eval", "--help").stdout)

    def test_key_order_and_text(self):
        (line,) = self.eval_lines("--op", "tcvt", "--src", "fp16", "--dst", "e8m0", "--rmode", "RTZ", "0x3c00")
        self.assertEqual(line, '{"op":"tcvt","src":"fp16","dst":"e8m0","rmode":"RTZ","sat":false,'
                               '"in":["0x3c00"],"out":"0x7f","flags":"0x00","in_value":["1"],'
                               '"out_value":"1","flag_names":"-"}')
        keys = json.loads(line, object_pairs_hook=lambda pairs: [k for k, _ in pairs])
        self.assertEqual(keys, ["op", "src", "dst", "rmode", "sat", "in", "out", "flags",
                                "in_value", "out_value", "flag_names"])
        lines = self.eval_lines("--op", "tcvt", "--src", "fp16", "--dst", "e8m0", "0x3C00", "0x1", "0xffff")
        self.assertEqual([json.loads(x)["in"] for x in lines], [["0x3c00"], ["0x0001"], ["0xffff"]])

    def test_decimal_inputs_decoded_values_and_flag_names(self):
        def one(*args):
            (line,) = self.eval_lines(*args)
            return json.loads(line)
        # 449 into E4M3 overflows under every mode: NaN without Sat, 448 with it.
        r = one("--op", "encode", "--src", "fp32", "--dst", "e4m3", "449")
        self.assertEqual((r["in"], r["in_value"], r["out"], r["out_value"], r["flag_names"]),
                         (["0x43e08000"], ["449"], "0x7f", "NaN", "OF|NX"))
        # E8M0 RTZ of 0.75 is 1.0 (toward exponent 0); RTM 0.5.
        r = one("--op", "tcvt", "--src", "fp32", "--dst", "e8m0", "--rmode", "RTZ", "0.75")
        self.assertEqual((r["in"], r["out_value"], r["flag_names"]), (["0x3f400000"], "1", "NX"))
        # Integers, negative zero, infinity, exponents; an exact value past 30 digits as m*2^e.
        self.assertEqual(one("--op", "encode", "--src", "s32", "--dst", "s8", "-300")["in"], ["0xfffffed4"])
        self.assertEqual(one("--op", "encode", "--src", "s32", "--dst", "s8", "-1.5e2")["in_value"], ["-150"])
        self.assertEqual(one("--op", "encode", "--src", "fp16", "--dst", "e4m3", "-0")["in"], ["0x8000"])
        self.assertEqual(one("--op", "tcvt", "--src", "fp16", "--dst", "e8m0", "inf")["in_value"], ["+Inf"])
        self.assertEqual(one("--op", "tcvt", "--src", "fp32", "--dst", "e8m0", "0x00000003")["in_value"],
                         ["3*2^-149"])
        self.assertEqual(one("--op", "tcvt", "--src", "fp32", "--dst", "e8m0", "0x00000001")["in_value"],
                         ["2^-149"])
        self.assertEqual(one("--op", "encode", "--src", "fp32", "--dst", "bf16", "0x7f400000")["in_value"],
                         ["3*2^126"])  # 1.5 * 2^127: 39 digits
        self.assertEqual(one("--op", "encode", "--src", "fp32", "--dst", "bf16", "65504")["in_value"],
                         ["65504"])
        self.assertEqual(one("--op", "encode", "--src", "fp16", "--dst", "fp32", "0x0001")["in_value"],
                         ["0.000000059604644775390625"])
        # A decimal that is no code's value: the nearest code (RNE), and a note on stderr.
        r = ptovec("eval", "--op", "encode", "--src", "fp16", "--dst", "e4m3", "0.1")
        self.assertEqual(json.loads(r.stdout)["in"], ["0x2e66"])
        self.assertIn("note: 0.1 is not exactly a value of fp16; it is taken as the nearest (RNE) "
                      "0x2e66 = 0.0999755859375", r.stderr)
        self.assertNotIn("note", ptovec("eval", "--op", "encode", "--src", "fp16", "--dst", "e4m3", "0.5").stderr)
        # Values a type cannot hold are refused with one line.
        for args, message in [
                (("--src", "fp16", "--dst", "e4m3", "1e6"), "value '1e6' is beyond fp16's finite range"),
                (("--src", "e4m3", "--dst", "fp16", "inf"), "value 'inf': e4m3 has no infinity"),
                (("--src", "s32", "--dst", "s8", "0.5"), "value '0.5' is not an integer (s32)"),
                (("--src", "s32", "--dst", "s8", "3000000000"), "outside s32's range -2147483648..2147483647"),
                (("--src", "fp16", "--dst", "e4m3", "1.2.3"), "malformed value word '1.2.3'")]:
            r = ptovec("eval", "--op", "encode", *args)
            self.assertEqual(r.returncode, 2, args)
            self.assertIn(message, r.stderr)
            self.assertEqual(len(r.stderr.strip().splitlines()), 1, r.stderr)

    def test_sat_both_and_every_mode(self):
        lines = [json.loads(x) for x in self.eval_lines(
            "--op", "encode", "--src", "fp32", "--dst", "e4m3", "--sat", "both", "449")]
        self.assertEqual([(x["sat"], x["out"]) for x in lines], [(False, "0x7f"), (True, "0x7e")])
        lines = [json.loads(x) for x in self.eval_lines(
            "--op", "tcvt", "--src", "fp16", "--dst", "e8m0", "--rmode", "all", "--sat", "both", "1.5")]
        self.assertEqual([(x["rmode"], x["sat"]) for x in lines],
                         [(m, s) for m in ["RNE", "RTM", "RTP", "RTZ", "RNA", "RTO", "RHB"] for s in (False, True)])
        self.assertEqual([x["out"] for x in lines][::2], ["0x80", "0x7f", "0x80", "0x7f", "0x80", "0x80", "0x80"])
        lines = [json.loads(x) for x in self.eval_lines(
            "--op", "tcvt", "--src", "fp16", "--dst", "e8m0", "--sat", "off", "1.5")]
        self.assertEqual([x["sat"] for x in lines], [False])
        r = ptovec("eval", "--op", "tcvt", "--src", "fp16", "--dst", "e8m0", "both", "1.5")
        self.assertEqual(r.returncode, 2)
        self.assertIn("'both' is a Sat value, not an input word: write --sat both", r.stderr)

    def test_batch_error_lines(self):
        with tempfile.TemporaryDirectory(prefix="ptovec-batch-") as tmp:
            batch = os.path.join(tmp, "cases.txt")
            with open(batch, "w") as f:
                f.write("--op tcvt --src fp16 --dst e8m0 --rmode RTZ 0x3c00\n"
                        "--op tcvt --src fp16 --dst e8m0 0xzz\n"
                        "\n"
                        "--op tcvt --src e4m3 --dst e8m0 0x38\n"
                        "--op tcvt --src bf16 --dst e8m0 --sat 0x7f80\n"
                        "  # a comment, skipped\n"
                        "    ptovec eval --op tcvt --src fp16 --dst e8m0 --rmode RTZ 0x3e00\n"
                        "build/tools/ptovec eval --op tcvt --src fp16 --dst e8m0 --rmode all 0x3e00\n")
            lines = [json.loads(x) for x in self.eval_lines("--batch", batch, code=1)]
        # Blank and comment lines are skipped; a report's reproduce line (with or without a path
        # before ptovec) is a case; --rmode all gives one line per mode.
        self.assertEqual(len(lines), 4 + 1 + 7)
        self.assertEqual((lines[0]["out"], lines[3]["out"], lines[3]["flags"]), ("0x7f", "0xfe", "0x14"))
        self.assertEqual([x.get("line") for x in lines[:4]], [None, 2, 4, None])
        self.assertIn("'0xzz'", lines[1]["error"])
        self.assertIn("e4m3", lines[2]["error"])
        for x in lines[1:3]:
            self.assertEqual(list(x), ["line", "error"])
        self.assertEqual((lines[4]["rmode"], lines[4]["out"]), ("RTZ", "0x7f"))
        self.assertEqual([(x["rmode"], x["out"]) for x in lines[5:]],
                         [("RNE", "0x80"), ("RTM", "0x7f"), ("RTP", "0x80"), ("RTZ", "0x7f"),
                          ("RNA", "0x80"), ("RTO", "0x80"), ("RHB", "0x80")])

    def test_eval_agrees_with_files(self):
        """A few records of the exhaustive FP16 file, re-evaluated by `ptovec eval --batch`."""
        with tempfile.TemporaryDirectory(prefix="ptovec-evalfile-") as tmp:
            generate(tmp, "--op", "tcvt", "--src", "fp16", "--dst", "e8m0")
            header, records = files.read_vectors(os.path.join(tmp, "tcvt_fp16_e8m0.bin"))
            picked = records[np.random.default_rng(7).choice(len(records), 300, replace=False)]
            batch = os.path.join(tmp, "cases.txt")
            with open(batch, "w") as f:
                for r in picked:
                    f.write(f"--op tcvt --src fp16 --dst e8m0 --rmode {MODES[r['rmode']]}"
                            f"{' --sat' if r['sat'] else ''} 0x{int(r['in.value']):04x}\n")
            lines = [json.loads(x) for x in self.eval_lines("--batch", batch)]
        self.assertEqual([(int(x["out"], 16), int(x["flags"], 16)) for x in lines],
                         [(int(r["out"]), int(r["flags"])) for r in picked])


class InterruptedRunTest(unittest.TestCase):
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
            self.assertIsNone(process.poll(), "the run ended before it was killed: make it bigger")
        finally:
            process.send_signal(signal.SIGKILL)
            process.wait()
        self.assertEqual(process.returncode, -signal.SIGKILL)
        names = os.listdir(out) if os.path.isdir(out) else []
        # The folder's lock file stays after SIGKILL (nothing can remove it); unlocked, it blocks
        # no one (test_interrupts.py ConcurrentUseTest) and is no vector file.
        finals = [n for n in names if ".tmp-" not in n and n != ".ptovec.lock"]
        self.assertEqual(finals, [], "a killed run left files under final names")
        return names

    def test_kill(self):
        with tempfile.TemporaryDirectory(prefix="ptovec-kill-") as tmp:
            self.run_and_kill(os.path.join(tmp, "early"), wait_for_temporary=False)
            names = self.run_and_kill(os.path.join(tmp, "writing"), wait_for_temporary=True)
            temporaries = [n for n in names if n.startswith("tcvt_fp32_e8m0.json.tmp-")]
            self.assertEqual(len(temporaries), 1, names)
            self.assertGreater(os.path.getsize(os.path.join(tmp, "writing", temporaries[0])), 0)


if __name__ == "__main__":
    unittest.main()
