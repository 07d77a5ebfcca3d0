#!/usr/bin/python3
"""End-to-end proof that the default suite and `ptovec shrink` catch every mutant device.

Subcommands (each exits 0 when its assertion holds, 1 when it does not, 2 on usage errors):

  generate --ptovec P --out DIR
      The default suite into DIR (`ptovec generate --out DIR --quiet`), skipped when DIR's
      manifest.json is newer than the ptovec binary (generation is deterministic).
  run --ptovec P --vectors DIR --dut LIB --name NAME --ops OPS --work WORK [--all]
      Runs the mutant over the default-suite files of OPS (comma-separated ops; --all: every file)
      with `ptovec run --max-report 1`, narrowed by the catalog's run selection when it has one
      (--src/--dst/--rmode/--sat options, e.g. "--dst e4m3"; not with --all), asserts exit status
      exactly 1 (not 0, not 2), that some vectors mismatched and none was unsupported, and
      records the totals in WORK/NAME/run.json and the run's report in WORK/NAME/report.txt
      (printed only when an assertion fails; else one line: "mutant run: NAME caught, N
      mismatches of M vectors (expected: ...)").
  shrink --ptovec P --dut LIB --name NAME --op OP [--src T --dst T] --work WORK [--tests N]
      Runs `ptovec shrink`, asserts that it found a counterexample (exit 1), that the one-vector
      file it wrote reproduces (`ptovec run` of the mutant on it exits 1, and `ptovec eval` of the
      case gives the oracle's result, different from the mutant's), and that it is minimal in the
      simplest-case order (`ptovec_mutant_scan --minimal`: for an enumerable pair no case of the
      whole pair that is simpler fails, else none of its simpler moves does). Records
      WORK/NAME/shrink.json.

  smoke --ptovec P --vectors DIR --work WORK --min-rate R LIB...
      Runs every mutant library LIB over the smoke suite DIR (`ptovec run --max-report 1`): exit
      status 1 is a kill, 0 a survivor (anything else fails). Records WORK/smoke.json ({name:
      killed}) for make_table.py, prints the kill rate, and asserts it is at least R (0.9).

Only /usr/bin/python3 and the standard library. Output paths are under WORK.
"""

import argparse
import json
import os
import re
import resource
import shlex
import subprocess
import sys
import time
from pathlib import Path


def fail(message):
    print(f"run_mutants: FAIL: {message}", file=sys.stderr)
    sys.exit(1)


def children_cpu():
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def run_command(args, **kwargs):
    print("+ " + " ".join(shlex.quote(str(a)) for a in args), file=sys.stderr)
    return subprocess.run([str(a) for a in args], capture_output=True, text=True, **kwargs)


def cmd_generate(a):
    out = Path(a.out)
    manifest = out / "manifest.json"
    ptovec = Path(a.ptovec)
    if manifest.exists() and manifest.stat().st_mtime >= ptovec.stat().st_mtime:
        print(f"run_mutants: {manifest} is up to date", file=sys.stderr)
        return 0
    start = time.time()
    p = run_command([ptovec, "generate", "--out", out, "--quiet"])
    if p.returncode != 0:
        fail(f"ptovec generate exited {p.returncode}: {p.stderr.strip()}")
    print(f"run_mutants: generated {out} in {time.time() - start:.1f} s", file=sys.stderr)
    return 0


REPORT_RE = re.compile(
    r"ptovec: (\d+) files?, (\d+) vectors?: (\d+) matched, (\d+) mismatched, (\d+) unsupported")
KIND_RE = re.compile(r"by kind: wrong word (\d+), wrong flags (\d+), both (\d+)")


def parse_report(stdout):
    m = REPORT_RE.search(stdout)
    if not m:
        fail(f"no totals line in the report:\n{stdout}")
    files, vectors, matched, mismatched, unsupported = (int(g) for g in m.groups())
    out = {"files": files, "vectors": vectors, "matched": matched, "mismatched": mismatched,
           "unsupported": unsupported}
    k = KIND_RE.search(stdout)
    if k:
        out.update({"wrong_word": int(k.group(1)), "wrong_flags": int(k.group(2)),
                    "both": int(k.group(3))})
    return out


TRIAGE_HEADER_RE = re.compile(r"^by failure signature \(triage: (\d+) symptom groups?", re.M)
TRIAGE_LINE_RE = re.compile(r"^\s+(\d+)  (\S.*)$")


def parse_triage(stdout):
    """The report's triage groups, in its order: [{"count": N, "signature": TEXT}, ...]."""
    header = TRIAGE_HEADER_RE.search(stdout)
    if not header:
        return []
    groups = []
    for line in stdout[header.end():].splitlines()[1:]:
        if not line.startswith(" "):
            break
        m = TRIAGE_LINE_RE.match(line)
        if m:
            groups.append({"count": int(m.group(1)), "signature": m.group(2)})
    if len(groups) != int(header.group(1)):
        fail(f"the report announces {header.group(1)} triage groups and lists {len(groups)}")
    return groups


def select_files(vectors, ops, take_all, types=None):
    """The vector files of the default suite (manifest order) whose op is in `ops` and whose
    source and destination types are the ones `types` names ({"--src": T, "--dst": T}), if any."""
    manifest = json.loads((vectors / "manifest.json").read_text())
    types = types or {}
    files = []
    for entry in manifest["files"]:
        path = entry.get("path") or entry.get("file")
        if not path.endswith(".bin"):
            continue
        if types.get("--src", entry["src"]) != entry["src"]:
            continue
        if types.get("--dst", entry["dst"]) != entry["dst"]:
            continue
        if take_all or entry["op"] in ops:
            files.append(path)
    return files


def catalog_entry(scan, name):
    """The mutant's catalog line from `ptovec_mutant_scan --list` (ops, shrink target)."""
    p = subprocess.run([scan, "--list"], capture_output=True, text=True, check=True)
    for line in p.stdout.splitlines():
        entry = json.loads(line)
        if entry["name"] == name:
            return entry
    print(f"run_mutants: error: unknown mutant '{name}' (see {scan} --list)", file=sys.stderr)
    sys.exit(2)


SELECTION_OPTIONS = ("--src", "--dst", "--rmode", "--sat")


def run_selection(text, name):
    """The catalog's run selection as `ptovec run` arguments: pairs of an option among
    SELECTION_OPTIONS and its value (otherwise exit 2 naming the selection)."""
    args = shlex.split(text)
    if len(args) % 2 or any(o not in SELECTION_OPTIONS for o in args[::2]):
        print(f"run_mutants: error: {name}: run selection '{text}' is not pairs of "
              f"{'/'.join(SELECTION_OPTIONS)} and a value", file=sys.stderr)
        sys.exit(2)
    return args


def cmd_run(a):
    vectors = Path(a.vectors)
    work = Path(a.work) / a.name
    work.mkdir(parents=True, exist_ok=True)
    entry = catalog_entry(a.scan, a.name)
    ops = [o for o in (a.ops or entry["ops"]).split(",") if o]
    selection = "" if a.all else entry.get("run_selection", "")
    selection_args = run_selection(selection, a.name)
    types = dict(zip(selection_args[::2], selection_args[1::2]))
    files = select_files(vectors, ops, a.all, types)
    if not files:
        fail(f"no default-suite files for ops {ops} {selection} in {vectors}")
    # A folder of links to the selected files: `ptovec run --vectors FOLDER` reads its *.bin.
    subset = work / ("all" if a.all else "subset")
    subset.mkdir(exist_ok=True)
    for old in subset.iterdir():
        old.unlink()
    for f in files:
        (subset / f).symlink_to((vectors / f).resolve())
    results = work / ("results-all.bin" if a.all else "results.bin")
    cpu0, wall0 = children_cpu(), time.time()
    # One thread: ctest already runs the mutants side by side on every core.
    p = run_command([a.ptovec, "run", "--dut", a.dut, "--vectors", subset, "--results", results,
                     "--max-report", "1", "--threads", "1", "--quiet"]
                    + selection_args)
    cpu, wall = children_cpu() - cpu0, time.time() - wall0
    # The run's report (its FAIL line is this test's expected outcome) goes to WORK/NAME/
    # report.txt, and to the output only when the run is not what a mutant's must be: a log of
    # scripts/test then never ends with a FAIL that is a pass.
    report_file = work / ("report-all.txt" if a.all else "report.txt")
    report_file.write_text(p.stdout)
    sys.stderr.write(p.stderr)

    def fail_showing_report(message):
        sys.stdout.write(p.stdout)
        fail(message)

    if p.returncode != 1:
        fail_showing_report(f"{a.name}: ptovec run exited {p.returncode}, expected exactly 1 "
                            "(mismatches)")
    report = parse_report(p.stdout)
    if report["mismatched"] == 0:
        fail_showing_report(f"{a.name}: exit 1 but no mismatched vector")
    if report["unsupported"] != 0:
        fail_showing_report(f"{a.name}: {report['unsupported']} unsupported vectors (a mutant "
                            "supports every case)")
    marker = "(mismatched or unsupported):\n"  # the line before the first mismatches
    # The first mismatches end where the table by pair (or the verdict) starts.
    first = (p.stdout.split(marker, 1)[1].split("\nby pair (", 1)[0].split("FAIL:", 1)[0]
             if marker in p.stdout else "")
    if not first.strip():
        fail_showing_report(f"{a.name}: the report names no first mismatch")
    # The results file (up to 1.2 GB) has served its purpose: the report is kept in run.json.
    results.unlink(missing_ok=True)
    triage = parse_triage(p.stdout)
    if not triage:
        fail_showing_report(f"{a.name}: the report has no triage group")
    record = {"mutant": a.name, "ops": ops, "all_files": a.all, "selection": selection,
              "file_names": files, **report, "triage": triage,
              "first_mismatch": first.rstrip(), "cpu_seconds": round(cpu, 1),
              "wall_seconds": round(wall, 1)}
    name = "run-all.json" if a.all else "run.json"
    (work / name).write_text(json.dumps(record, indent=1) + "\n")
    print(f"run_mutants: mutant run: {a.name} caught, {report['mismatched']} mismatches of "
          f"{report['vectors']} vectors (expected: a mutant must fail; report in {report_file}; "
          f"{cpu:.1f} s CPU)")
    return 0


def eval_line(counterexample):
    """The eval JSON line of a shrink counterexample (inputs in slot order)."""
    c = counterexample
    return {"op": c["op"], "src": c["src"], "dst": c["dst"], "rmode": c["rmode"],
            "sat": c["sat"], "in": list(c["in"].values())}


def cmd_shrink(a):
    work = Path(a.work) / a.name
    work.mkdir(parents=True, exist_ok=True)
    entry = catalog_entry(a.scan, a.name)
    op = a.op or entry["shrink"]["op"]
    src = a.src or (entry["shrink"]["src"] if not a.op else "")
    dst = a.dst or (entry["shrink"]["dst"] if not a.op else "")
    tests = a.tests or entry.get("shrink_tests") or 0
    one_vector = work / "shrunk.bin"
    args = [a.ptovec, "shrink", "--dut", a.dut, "--op", op, "--seed", a.seed, "--out", one_vector,
            "--json"]
    if src:
        args += ["--src", src, "--dst", dst]
    if tests:
        args += ["--tests", tests]
    cpu0, wall0 = children_cpu(), time.time()
    p = run_command(args)
    sys.stderr.write(p.stderr)
    if p.returncode != 1:
        fail(f"{a.name}: ptovec shrink exited {p.returncode}, expected 1 (a counterexample): "
             f"{p.stdout.strip()[:400]}")
    result = json.loads(p.stdout.strip().splitlines()[-1])
    cx = result.get("counterexample")
    if not cx:
        fail(f"{a.name}: shrink exited 1 without a counterexample")
    if "got" not in cx or not isinstance(cx["got"], dict):
        fail(f"{a.name}: the counterexample is unsupported, not a wrong answer: {cx}")
    if not result.get("minimal"):
        fail(f"{a.name}: shrink says its counterexample is not a local minimum")
    line = eval_line(cx)
    # 1. It reproduces: the oracle (`ptovec eval`) gives the expected answer, not the device's.
    e = run_command([a.ptovec, "eval", "--op", line["op"], "--src", line["src"], "--dst",
                     line["dst"], "--rmode", line["rmode"]] + (["--sat"] if line["sat"] else [])
                    + line["in"])
    if e.returncode != 0:
        fail(f"{a.name}: ptovec eval of the counterexample exited {e.returncode}: {e.stderr}")
    oracle = json.loads(e.stdout.strip().splitlines()[-1])
    if (oracle["out"], oracle["flags"]) != (cx["expected"]["out"], cx["expected"]["flags"]):
        fail(f"{a.name}: eval gives {oracle['out']}/{oracle['flags']}, shrink expected "
             f"{cx['expected']}")
    if (oracle["out"], oracle["flags"]) == (cx["got"]["out"], cx["got"]["flags"]):
        fail(f"{a.name}: the device's answer equals the oracle's: not a counterexample")
    # 2. The one-vector file fails the gate with this device (exit exactly 1).
    r = run_command([a.ptovec, "run", "--dut", a.dut, "--vectors", one_vector, "--results",
                     work / "shrunk-results.bin", "--max-report", "1", "--quiet"])
    if r.returncode != 1:
        fail(f"{a.name}: ptovec run on {one_vector} exited {r.returncode}, expected 1")
    one = parse_report(r.stdout)
    if (one["vectors"], one["mismatched"]) != (1, 1):
        fail(f"{a.name}: the one-vector file gave {one}")
    # 3. It is minimal in the simplest-case order, checked independently of shrink's own claim:
    #    for an enumerable pair no simpler case of the whole pair fails (the least failing case),
    #    else none of its simpler moves does.
    m = run_command([a.scan, "--mutant", a.name, "--minimal", json.dumps(line)])
    sys.stderr.write(m.stdout)
    if m.returncode != 0:
        fail(f"{a.name}: a simpler case than the counterexample still fails: {m.stdout.strip()}")
    minimal = json.loads(m.stdout)
    if minimal.get("enumerated") and not result.get("simplest"):
        fail(f"{a.name}: the pair is enumerable but shrink did not report its simplest case")
    cpu, wall = children_cpu() - cpu0, time.time() - wall0
    record = {"mutant": a.name, "found": True, "minimal": True, "case": {**line, **cx["expected"]},
              "got_out": cx["got"]["out"], "got_flags": cx["got"]["flags"], "eval": cx["eval"],
              "tests_run": result.get("tests_run"), "shrink_steps": result.get("shrink_steps"),
              "shrinks_checked": minimal["shrinks"], "original": result.get("original"),
              "simplest": bool(result.get("simplest")), "search": result.get("search"),
              "cpu_seconds": round(cpu, 1), "wall_seconds": round(wall, 1)}
    (work / "shrink.json").write_text(json.dumps(record, indent=1) + "\n")
    print(f"run_mutants: {a.name}: shrunk to {cx['eval']} -> expected "
          f"{cx['expected']['out']}/{cx['expected']['flags']}, got {cx['got']['out']}/"
          f"{cx['got']['flags']} ({result.get('tests_run')} tests, "
          f"{result.get('shrink_steps')} shrink steps, {minimal['shrinks']} simpler cases "
          f"agree{', the simplest of the enumerated pair' if result.get('simplest') else ''}; "
          f"{cpu:.1f} s CPU)")
    return 0


def cmd_smoke(a):
    killed = {}
    for lib in a.libs:
        name = Path(lib).stem.removeprefix("libptovec_mutant_")
        results = Path(a.work) / "smoke-results" / f"{name}.bin"  # not beside the vectors
        results.parent.mkdir(parents=True, exist_ok=True)
        p = run_command([a.ptovec, "run", "--vectors", a.vectors, "--dut", lib, "--max-report", "1",
                         "--results", results])
        if p.returncode not in (0, 1):
            fail(f"{name}: ptovec run exited {p.returncode}: {p.stderr.strip()}")
        killed[name] = p.returncode == 1
    work = Path(a.work)
    work.mkdir(parents=True, exist_ok=True)
    (work / "smoke.json").write_text(json.dumps(killed, indent=1, sort_keys=True) + "\n")
    rate = sum(killed.values()) / len(killed)
    survivors = sorted(n for n, k in killed.items() if not k)
    print(f"run_mutants: the smoke suite kills {sum(killed.values())} of {len(killed)} mutants "
          f"({100 * rate:.1f}%); survivors: {', '.join(survivors) or 'none'}")
    if rate < a.min_rate:
        fail(f"kill rate {rate:.3f} is below {a.min_rate}")
    return 0


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    g = sub.add_parser("generate")
    g.add_argument("--ptovec", required=True)
    g.add_argument("--out", required=True)
    r = sub.add_parser("run")
    r.add_argument("--ptovec", required=True)
    r.add_argument("--vectors", required=True)
    r.add_argument("--dut", required=True)
    r.add_argument("--name", required=True)
    r.add_argument("--ops", default="", help="default: the mutant's ops from --scan --list")
    r.add_argument("--scan", required=True, help="the ptovec_mutant_scan binary")
    r.add_argument("--work", required=True)
    r.add_argument("--all", action="store_true")
    s = sub.add_parser("shrink")
    s.add_argument("--ptovec", required=True)
    s.add_argument("--dut", required=True)
    s.add_argument("--name", required=True)
    s.add_argument("--scan", required=True, help="the ptovec_mutant_scan binary")
    s.add_argument("--op", default="", help="default: the mutant's shrink target from --scan")
    s.add_argument("--src", default="")
    s.add_argument("--dst", default="")
    s.add_argument("--work", required=True)
    s.add_argument("--tests", type=int, default=0, help="default: shrink's own (10000)")
    s.add_argument("--seed", type=int, default=1)
    m = sub.add_parser("smoke")
    m.add_argument("--ptovec", required=True)
    m.add_argument("--vectors", required=True)
    m.add_argument("--work", required=True)
    m.add_argument("--min-rate", type=float, default=0.9)
    m.add_argument("libs", nargs="+")
    a = parser.parse_args()
    if a.command == "smoke":
        return cmd_smoke(a)
    if a.command == "generate":
        return cmd_generate(a)
    if a.command == "run":
        return cmd_run(a)
    return cmd_shrink(a)


if __name__ == "__main__":
    sys.exit(main())
