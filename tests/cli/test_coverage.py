#!/usr/bin/python3
"""`ptovec coverage` and the smoke suite end to end (ctest runs these by name):

  test_default_suite       the default suite (the mutants fixture's folder, --default-vectors DIR)
                           reaches every reachable class (--require-all exits 0), its JSON
                           validates against schemas/coverage.schema.json and counts every
                           vector, and --plot writes a PNG
  test_require_all, test_narrowed_controls, test_forged_vectors, test_fpatr_mode_classes,
  test_missing_lines_without_require_all
                           a narrow suite misses classes: --require-all exits 1 with one
                           "missing:" line per missing class, each a reachable one, and (default
                           scope) per pair or control of the default suite the folder lacks;
                           --scope present narrows it and says so; without --require-all the
                           `missing:` lines its count names are printed too; a file whose inputs
                           or expected results are not the oracle's is refused; fp32 -> hif8
                           without PreQuantMode 25's inexact inputs misses that mode's classes
  test_edition_2026_09     edition 2026-09's TCVT fp16 -> e4m3 reaches every class its witness table
                           shows (--scope present --require-all), counts of FP16's NaN and Inf
                           codes in its own classes; the default scope is 2026-09's default
                           suite; a mix of editions, and --edition against the files, refused
  test_smoke               `generate --suite smoke --format both` reproduces vectors/smoke byte
                           for byte, at most 25,000 vectors, covering everything

Run by ctest (tests/cli/CMakeLists.txt) with Debian's /usr/bin/python3 -m pytest; the helper
ptovec_cli.py gives ptovec(*args) and this build's paths.
"""

import json
import tempfile
from pathlib import Path

import jsonschema
import pytest

import ptovec_cli
from ptovec_cli import ptovec

SOURCE = Path(ptovec_cli.SOURCE)


def fail(message):
    pytest.fail(message, pytrace=False)


def coverage_json(vectors, tmp, *extra):
    out = Path(tmp) / "coverage.json"
    p = ptovec("coverage", "--vectors", vectors, "--quiet", "--json", out, *extra)
    return p, (json.loads(out.read_text()) if out.exists() else None)


def validate(doc):
    schema = json.loads((SOURCE / "schemas" / "coverage.schema.json").read_text())
    jsonschema.Draft202012Validator(schema).validate(doc)


def test_default_suite(default_vectors):
    vectors = default_vectors
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
        head = png.read_bytes()[:24]
        if head[:8] != b"\x89PNG\r\n\x1a\n":
            fail("--plot did not write a PNG")
        # Readable on a screen: IHDR's width and height (big-endian, bytes 16..23).
        width, height = int.from_bytes(head[16:20], "big"), int.from_bytes(head[20:24], "big")
        if width != 1600 or not 800 <= height <= 1600:
            fail(f"--plot drew {width} x {height} pixels, not 1600 wide and 800..1600 high")
        print(f"test_coverage: default suite: {doc['hit_cells']} of {doc['reachable_cells']} cells")


def default_suite_pairs():
    """The default suite's (op, src, dst)s, from `ptovec list --json`."""
    p = ptovec("list", "--json")
    if p.returncode != 0:
        fail(p.stderr)
    pairs = set()
    for op in json.loads(p.stdout):
        for pair in op["pairs"]:
            if pair["default_suite"]:
                pairs.add((op["op"], pair["src"], pair["dst"]))
    return pairs


def test_require_all():
    with tempfile.TemporaryDirectory() as tmp:
        suite = Path(tmp) / "narrow"
        g = ptovec("generate", "--op", "shift", "--samples", "3", "--out", suite, "--quiet")
        if g.returncode != 0:
            fail(g.stderr)
        # --scope present: only the one (pair, control) the folder holds, so every line names a
        # class of it.
        p, doc = coverage_json(suite, tmp, "--require-all", "--scope", "present")
        if p.returncode != 1:
            fail(f"coverage --require-all --scope present on 3 shift inputs exited "
                 f"{p.returncode}, not 1")
        validate(doc)
        missing = [line for line in p.stdout.splitlines() if line.startswith("missing: ")]
        (pair,) = doc["pairs"]
        (control,) = pair["controls"]
        expected = [f"missing: shift s32 -> s16 RNE Sat off: {name}"
                    for name, n, ok in zip(pair["classes"], control["counts"], control["reachable"])
                    if ok and n == 0]
        if not expected or missing != expected or doc["missing"] != [m[9:] for m in missing]:
            fail(f"missing lines {missing} != {expected}")
        if control["vectors"] != 3 or doc["scope"] != "present":
            fail(f"counted {control['vectors']} vectors, generated 3")
        # The default scope: every other pair of the default suite is missing as a whole.
        p, doc = coverage_json(suite, tmp, "--require-all")
        validate(doc)
        absent = sorted(f"missing: {op} {src} -> {dst}: no vectors" for op, src, dst
                        in default_suite_pairs() if op != "shift")
        got = sorted(line[:line.index(" (")] for line in p.stdout.splitlines()
                     if line.startswith("missing: ") and ": no vectors" in line)
        if p.returncode != 1 or got != absent or len(absent) < 100:
            fail(f"default scope on a shift-only folder: exit {p.returncode}, absent pairs "
                 f"{got[:3]}... ({len(got)}), expected {len(absent)}")
        if doc["hit_cells"] >= doc["reachable_cells"] // 100 or doc["scope"] != "default":
            fail(f"a shift-only folder hit {doc['hit_cells']} of {doc['reachable_cells']} cells")


def test_fpatr_mode_classes():
    """The review's case: fp32 -> hif8 without the inexact results of PreQuantMode 25 (its mode 28
    still has them) fails --require-all on PreQuantMode 25's own inexact classes."""
    with tempfile.TemporaryDirectory() as tmp:
        suite = Path(tmp) / "hif8"
        g = ptovec("generate", "--op", "fpatr", "--src", "fp32", "--dst", "hif8", "--format",
                   "json", "--out", suite, "--quiet")
        if g.returncode != 0:
            fail(g.stderr)
        (suite / "manifest.json").unlink()
        path = suite / "fpatr_fp32_hif8.json"
        head, *records = path.read_text().split("\n")
        records = [r for r in records if r.startswith("{")]
        parsed = [json.loads(r.rstrip(",")) for r in records]
        # Records come input by input, both controls (RNE Sat off, on) of an input in a row;
        # drop every input of mode 25 whose result is inexact under either.
        drop = {tuple(r["in"]) for r in parsed
                if r["in"][1] == "0x19" and int(r["flags"], 16) & 0x10}
        kept = [r for r, j in zip(records, parsed) if tuple(j["in"]) not in drop]
        if not drop or len(kept) == len(records):
            fail("no inexact PreQuantMode 25 input in fp32 -> hif8")
        header = json.loads(head + "]}")
        header["inputs"] -= len(drop)
        header["count"] = len(kept)
        text = json.dumps(header, separators=(",", ":"))[:-2] + "\n"
        text += ",\n".join(r.rstrip(",") for r in kept) + "\n]}"
        path.write_text(text)
        p = ptovec("coverage", "--vectors", suite, "--quiet", "--require-all", "--scope",
                   "present")
        missing = [line for line in p.stdout.splitlines() if line.startswith("missing: ")]
        want = "missing: fpatr fp32 -> hif8 RNE Sat off: PreQuantMode 25: inexact normal"
        if p.returncode != 1 or want not in missing or any("PreQuantMode 28" in m
                                                             for m in missing):
            fail(f"fp32 -> hif8 without inexact mode-25 inputs: exit {p.returncode}, "
                 f"{missing[:8]} {p.stderr}")


def test_narrowed_controls():
    """A folder of one control of one pair (generate --rmode RNE --sat off) is not a pass: the
    pair's other 13 controls are missing, each on its own line, and the scope line says what
    was required. --scope present accepts it and says so."""
    with tempfile.TemporaryDirectory() as tmp:
        suite = Path(tmp) / "rne"
        g = ptovec("generate", "--op", "encode", "--src", "fp16", "--dst", "e4m3", "--rmode",
                   "RNE", "--sat", "off", "--out", suite, "--quiet")
        if g.returncode != 0:
            fail(g.stderr)
        p, doc = coverage_json(suite, tmp, "--require-all")
        lines = p.stdout.splitlines()
        controls = [line for line in lines if line.startswith("missing: encode fp16 -> e4m3 ")]
        if p.returncode != 1 or len(controls) != 13 or not all(
                ": no vectors (" in line for line in controls):
            fail(f"RNE-only encode fp16 -> e4m3: exit {p.returncode}, lines {controls}")
        if "missing: encode fp16 -> e4m3 RTZ Sat on: no vectors" not in [
                line[:line.index(" (")] for line in controls]:
            fail(f"no line for RTZ Sat on: {controls}")
        if not any(line.startswith("scope: the default suite's pairs and controls")
                   and "the vectors hold 1 of the default suite's" in line for line in lines):
            fail(f"no scope line: {lines[-5:]}")
        p, doc = coverage_json(suite, tmp, "--require-all", "--scope", "present")
        if p.returncode != 0 or doc["missing"] or doc["hit_cells"] != doc["reachable_cells"]:
            fail(f"--scope present on RNE-only encode fp16 -> e4m3 exited {p.returncode}")
        if not any("(--scope present)" in line for line in p.stdout.splitlines()):
            fail(f"--scope present does not say so: {p.stdout}")
        bad = ptovec("coverage", "--vectors", suite, "--scope", "all")
        if bad.returncode != 2 or bad.stderr.count("\n") != 1 or "--scope all" not in bad.stderr:
            fail(f"--scope all: exit {bad.returncode}, {bad.stderr!r}")


def test_forged_vectors():
    """Coverage counts vectors only as the oracle has them: a file whose expected result or
    input was edited is refused with one line naming the file and vector."""
    with tempfile.TemporaryDirectory() as tmp:
        suite = Path(tmp) / "forged"
        g = ptovec("generate", "--op", "tcvt", "--src", "fp16", "--dst", "e8m0", "--rmode",
                   "RNE", "--sat", "off", "--format", "json", "--out", suite, "--quiet")
        if g.returncode != 0:
            fail(g.stderr)
        (suite / "manifest.json").unlink()  # a manifest's digest would refuse it earlier
        path = suite / "tcvt_fp16_e8m0.json"
        lines = path.read_text().split("\n")
        # 0x0001 (2^-24) to E8M0 is 0x67 (2^-24); the file now claims 0x68.
        if '"in":["0x0001"]' not in lines[2] or '"out":"0x67"' not in lines[2]:
            fail(f"unexpected record 2: {lines[2]}")
        lines[2] = lines[2].replace('"out":"0x67"', '"out":"0x68"')
        path.write_text("\n".join(lines))
        p = ptovec("coverage", "--vectors", suite, "--quiet", "--scope", "present")
        want = (f"{path}: vector 2 expects 0x68 status 0x00 but the oracle gives 0x67 status "
                "0x00 (ptovec eval --op tcvt --src fp16 --dst e8m0 --rmode RNE 0x0001)")
        if p.returncode != 2 or want not in p.stderr or p.stderr.count("\n") != 1:
            fail(f"forged expected word: exit {p.returncode}, {p.stderr!r}")

        # The JSON twin of a binary file (a --format both folder) is read and checked too.
        both = Path(tmp) / "both"
        g = ptovec("generate", "--op", "tcvt", "--src", "fp16", "--dst", "e8m0", "--rmode",
                   "RNE", "--sat", "off", "--format", "both", "--out", both, "--quiet")
        if g.returncode != 0:
            fail(g.stderr)
        (both / "manifest.json").unlink()
        twin = both / "tcvt_fp16_e8m0.json"
        lines = twin.read_text().split("\n")
        lines[2] = lines[2].replace('"out":"0x67"', '"out":"0x68"')
        twin.write_text("\n".join(lines))
        p = ptovec("coverage", "--vectors", both, "--quiet", "--scope", "present")
        if p.returncode != 2 or f"{twin} holds other records than" not in p.stderr:
            fail(f"edited JSON twin: exit {p.returncode}, {p.stderr!r}")
        # A twin with a vector fewer (its header count fixed) holds other records.
        lines = twin.read_text().split("\n")
        lines[2] = lines[2].replace('"out":"0x68"', '"out":"0x67"')
        header = json.loads(lines[0] + "]}")
        header["count"] -= 1
        header["inputs"] -= 1
        body = [r.rstrip(",") for r in lines[1:] if r.startswith("{")][:-1]
        twin.write_text(json.dumps(header, separators=(",", ":"))[:-2] + "\n" +
                        ",\n".join(body) + "\n]}")
        p = ptovec("coverage", "--vectors", both, "--quiet", "--scope", "present")
        if p.returncode != 2 or "holds other records than" not in p.stderr:
            fail(f"JSON twin with a vector fewer: exit {p.returncode}, {p.stderr!r}")

        g = ptovec("generate", "--op", "fpatr", "--src", "fp32", "--dst", "fp16", "--samples",
                   "3", "--format", "json", "--out", Path(tmp) / "fpatr", "--quiet")
        if g.returncode != 0:
            fail(g.stderr)
        (Path(tmp) / "fpatr" / "manifest.json").unlink()
        path = Path(tmp) / "fpatr" / "fpatr_fp32_fp16.json"
        lines = path.read_text().split("\n")
        record = json.loads(lines[1].rstrip(","))
        record["in"][2] = "0x07"  # ReluMode 7 does not exist
        lines[1] = json.dumps(record, separators=(",", ":")) + ","
        path.write_text("\n".join(lines))
        p = ptovec("coverage", "--vectors", path.parent, "--quiet", "--scope", "present")
        if (p.returncode != 2 or f"{path}: vector 1 has inputs outside the fpatr domain "
                "(relu_mode 0x07 is not a legal ReluMode" not in p.stderr):
            fail(f"ReluMode 7: exit {p.returncode}, {p.stderr!r}")


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
                     "--format both` (regenerate it: scripts/regenerate-smoke)")
        manifest = json.loads((out / "manifest.json").read_text())
        vectors = sum(f["count"] for f in manifest["files"] if f["format"] == "bin")
        if vectors > 25000:
            fail(f"the smoke suite has {vectors} vectors, more than 25,000")
        c, doc = coverage_json(out, tmp, "--require-all")
        if c.returncode != 0:
            fail(f"the smoke suite misses classes:\n{c.stdout}")
        print(f"test_coverage: smoke suite: {vectors} vectors, {doc['hit_cells']} cells")


def test_missing_lines_without_require_all(tmp_path):
    """`coverage` without --require-all prints the `missing:` lines its count names."""
    folder = tmp_path / "few"
    r = ptovec("generate", "--op", "tcvt", "--src", "fp32", "--dst", "e8m0", "--rmode", "RTZ",
               "--sat", "off", "--samples", 3, "--out", folder, "--quiet")
    assert r.returncode == 0, r.stderr
    for extra, status in (([], 0), (["--require-all"], 1)):
        r = ptovec("coverage", "--vectors", folder, "--scope", "present", *extra)
        assert r.returncode == status, r.stdout + r.stderr
        lines = r.stdout.splitlines()
        missing = [line for line in lines if line.startswith("missing: ")]
        assert len(missing) > 0
        assert all(m.startswith("missing: tcvt fp32 -> e8m0 RTZ Sat off: ") for m in missing), \
            missing
        assert f"in {len(missing)} `missing:` line(s) above" in lines[-1]


def test_edition_2026_09(tmp_path):
    """Edition 2026-09's TCVT by value has classes of its own: a folder of fp16 -> e4m3 reaches
    every class its witness table shows (--scope present --require-all exits 0), with the counts
    of FP16's NaN codes; a mix of editions and --edition against the files are refused."""
    folder = tmp_path / "e4m3"
    r = ptovec("generate", "--edition", "2026-09", "--op", "tcvt", "--src", "fp16", "--dst",
               "e4m3", "--out", folder, "--quiet")
    assert r.returncode == 0, r.stderr
    p, doc = coverage_json(folder, tmp_path, "--require-all", "--scope", "present")
    assert p.returncode == 0, p.stdout + p.stderr
    validate(doc)
    (pair,) = doc["pairs"]
    assert len(pair["controls"]) == 14
    rne = next(c for c in pair["controls"] if c["rmode"] == "RNE" and not c["sat"])
    counts = dict(zip(pair["classes"], rne["counts"]))
    # FP16 NaNs: exponent 31, fraction non-zero; quiet with fraction bit 9 set (2 x 512), the
    # other 2 x 511 signaling (reference-conversion.asl lines 91-104: canonical NaN, NV).
    assert counts["NaN source: the canonical NaN"] == 1024
    assert counts["signaling NaN source: the canonical NaN with NV"] == 1022
    # E4M3 has no Inf (lines 112-127): +-Inf without Sat give the NaN, not the largest finite.
    assert counts["Inf source without Sat: the NaN, OF and NX"] == 2
    assert counts["Inf source under Sat: the largest finite, OF and NX"] == 0
    assert doc["hit_cells"] == doc["reachable_cells"] > 300
    # The default scope is 2026-09's default suite: its other pairs are missing as a whole.
    p = ptovec("coverage", "--vectors", folder, "--quiet")
    assert "missing: tcvt fp32 -> fp16: no vectors" in p.stdout, p.stdout[-2000:]
    assert "of the default suite's (edition 2026-09)" in p.stdout
    # One edition at a time.
    old = tmp_path / "old"
    r = ptovec("generate", "--op", "tcvt", "--src", "fp16", "--dst", "e8m0", "--out", old,
               "--quiet")
    assert r.returncode == 0, r.stderr
    p = ptovec("coverage", "--vectors", folder / "tcvt_fp16_e4m3.bin", old / "tcvt_fp16_e8m0.bin")
    assert p.returncode != 0
    assert p.stderr.strip() == (
        f"ptovec: error: coverage reads the vectors of one edition at a time: "
        f"{folder}/tcvt_fp16_e4m3.bin is of edition 2026-09, {old}/tcvt_fp16_e8m0.bin of "
        "edition 0.58.3 (select one with --edition)"), p.stderr
    p = ptovec("coverage", "--vectors", folder, "--edition", "0.58.3")
    assert p.returncode != 0 and "2026-09" in p.stderr and "0.58.3" in p.stderr, p.stderr
