#!/usr/bin/python3
"""`ptovec coverage` and the smoke suite end to end (issue 13 sections 1 and 2).

  test_coverage.py default VECTORS   the default suite (the mutants fixture's folder) reaches every
                                     reachable class (--require-all exits 0), its JSON validates
                                     against schemas/coverage.schema.json and counts every vector,
                                     and --plot writes a PNG
  test_coverage.py require-all       a narrow suite misses classes: --require-all exits 1 with one
                                     "missing:" line per missing class, each a reachable one
  test_coverage.py smoke             `generate --suite smoke --format both` reproduces vectors/smoke
                                     byte for byte, at most 25,000 vectors, covering everything

Environment: PTOVEC (the binary) and PTOVEC_SOURCE_DIR. Debian's python3 with jsonschema.
"""

import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

import jsonschema

PTOVEC = os.environ["PTOVEC"]
SOURCE = Path(os.environ["PTOVEC_SOURCE_DIR"])


def fail(message):
    print(f"test_coverage: FAIL: {message}", file=sys.stderr)
    sys.exit(1)


def ptovec(*args):
    return subprocess.run([PTOVEC, *map(str, args)], capture_output=True, text=True)


def coverage_json(vectors, tmp, *extra):
    out = Path(tmp) / "coverage.json"
    p = ptovec("coverage", "--vectors", vectors, "--quiet", "--json", out, *extra)
    return p, (json.loads(out.read_text()) if out.exists() else None)


def validate(doc):
    schema = json.loads((SOURCE / "schemas" / "coverage.schema.json").read_text())
    jsonschema.Draft202012Validator(schema).validate(doc)


def test_default(vectors):
    with tempfile.TemporaryDirectory() as tmp:
        png = Path(tmp) / "heat.png"
        p, doc = coverage_json(vectors, tmp, "--require-all", "--plot", png)
        if p.returncode != 0:
            fail(f"coverage --require-all on {vectors} exited {p.returncode}:\n{p.stdout}{p.stderr}")
        validate(doc)
        if doc["hit_cells"] != doc["reachable_cells"] or doc["reachable_cells"] < 20000:
            fail(f"hit {doc['hit_cells']} of {doc['reachable_cells']} reachable cells")
        manifest = json.loads((Path(vectors) / "manifest.json").read_text())
        total = sum(f["count"] for f in manifest["files"] if f["format"] == "bin")
        counted = sum(c["vectors"] for pair in doc["pairs"] for c in pair["controls"])
        if counted != total:
            fail(f"coverage counted {counted} vectors, the manifest lists {total}")
        if png.read_bytes()[:8] != b"\x89PNG\r\n\x1a\n":
            fail("--plot did not write a PNG")
        print(f"test_coverage: default suite: {doc['hit_cells']} of {doc['reachable_cells']} cells")


def test_require_all():
    with tempfile.TemporaryDirectory() as tmp:
        suite = Path(tmp) / "narrow"
        g = ptovec("generate", "--op", "shift", "--samples", "3", "--out", suite, "--quiet")
        if g.returncode != 0:
            fail(g.stderr)
        p, doc = coverage_json(suite, tmp, "--require-all")
        if p.returncode != 1:
            fail(f"coverage --require-all on 3 shift inputs exited {p.returncode}, not 1")
        validate(doc)
        missing = [line for line in p.stdout.splitlines() if line.startswith("missing: ")]
        (pair,) = doc["pairs"]
        (control,) = pair["controls"]
        expected = [f"missing: shift s32 -> s16 RNE Sat off: {name}"
                    for name, n, ok in zip(pair["classes"], control["counts"], control["reachable"])
                    if ok and n == 0]
        if not expected or missing != expected:
            fail(f"missing lines {missing} != {expected}")
        if control["vectors"] != 3:
            fail(f"counted {control['vectors']} vectors, generated 3")


def test_smoke():
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "smoke"
        p = ptovec("generate", "--suite", "smoke", "--format", "both", "--out", out, "--quiet")
        if p.returncode != 0:
            fail(p.stderr)
        committed = SOURCE / "vectors" / "smoke"
        names = sorted(f.name for f in committed.iterdir())
        if sorted(f.name for f in out.iterdir()) != names:
            fail("vectors/smoke holds other files than generate --suite smoke writes")
        for name in names:
            if (out / name).read_bytes() != (committed / name).read_bytes():
                fail(f"vectors/smoke/{name} differs from a new `ptovec generate --suite smoke "
                     "--format both` (regenerate it: tools/regenerate-smoke)")
        manifest = json.loads((out / "manifest.json").read_text())
        vectors = sum(f["count"] for f in manifest["files"] if f["format"] == "bin")
        if vectors > 25000:
            fail(f"the smoke suite has {vectors} vectors, more than 25,000")
        c, doc = coverage_json(out, tmp, "--require-all")
        if c.returncode != 0:
            fail(f"the smoke suite misses classes:\n{c.stdout}")
        print(f"test_coverage: smoke suite: {vectors} vectors, {doc['hit_cells']} cells")


def main():
    if len(sys.argv) < 2 or sys.argv[1] not in ("default", "require-all", "smoke"):
        print(__doc__, file=sys.stderr)
        return 2
    if sys.argv[1] == "default":
        test_default(sys.argv[2])
    elif sys.argv[1] == "require-all":
        test_require_all()
    else:
        test_smoke()
    return 0


if __name__ == "__main__":
    sys.exit(main())
