#!/usr/bin/python3
"""Writes docs/mutants.md from the records of real mutant runs (run_mutants.py run / shrink).

  ctest --test-dir build -L mutants                    # writes build/tests/mutants/work/*/
  /usr/bin/python3 tests/mutants/make_table.py \\
      --scan build/tests/mutants/ptovec_mutant_scan \\
      --work build/tests/mutants/work --out docs/mutants.md

The catalog (names, what each models, which ops) comes from `ptovec_mutant_scan --list`, the
numbers from WORK/<mutant>/run.json (or run-all.json, a run over every file, when present) and
WORK/<mutant>/shrink.json. A mutant without records is listed as "not run", never as killed.
The output is written via a temporary name and renamed when complete.
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

HEADER = """# Mutant devices: proof that the gate and the shrinker catch real bugs

Each mutant is a device library (`build/tests/mutants/libptovec_mutant_<name>.so`, built by
`tests/mutants` from one fault model of the product's catalogue, [faults.md](faults.md),
`generator/src/faults/`) equal to the oracle except for one injected fault of a kind seen in real
conversion hardware or software. The source comment of each fault says which bug it models and
which ops and pairs it affects. The proof:

- `ptovec_mutants_tests` (GoogleTest, label `mutants`): for every mutant one case where it must
  differ from the oracle (both answers asserted exactly), one where it must agree, and agreement on
  every sampled case of the ops it does not touch.
- `mutant_run_<name>` (ctest, label `mutants`): `ptovec run --dut <mutant> --vectors <default
  suite files of the ops it touches> --max-report 1` must exit exactly 1 (a mismatch; 0 or 2 fail
  the test). The other files cannot differ: the mutant returns the oracle's answer on them, which
  the GoogleTest above checks on samples. To keep CI time small, a catalogue entry may narrow the
  run to a part of those files that shows its fault (its `run_selection`: `ptovec run` options
  `--src`, `--dst`, `--rmode`, `--sat`, shown in the table, e.g. `--dst e4m3`); `run_mutants.py
  run --all` runs a mutant over every file instead.
- `mutant_shrink_<name>`: `ptovec shrink --dut <mutant> --op OP --src T --dst T --json` must
  exit 1 with a counterexample that shrink itself reports as minimal; the driver
  (`tests/mutants/run_mutants.py`) re-checks that it reproduces (`ptovec eval` gives the expected
  answer, the mutant's differs; `ptovec run` of the mutant on the one-vector file shrink wrote
  exits 1) and, independently of shrink (`ptovec_mutant_scan --minimal`), that it is minimal in
  the simplest-case order (docs/shrinking.md, "The simplest case"): when the target pair is
  enumerable (an 8- or 16-bit source), the scan enumerates every case of the pair and no simpler
  one fails, i.e. it is the least failing case of the pair; otherwise none of its simpler moves
  (`tools::SimplerMoves`) fails.

The default suite is generated once into `build/vectors-default` by the fixture test
`mutants_default_suite` (skipped when its manifest is newer than `ptovec`). The `ptovec run`
processes of all mutants took {cpu} CPU minutes together on the 2-core development machine
(recorded per mutant in `work/<name>/run.json`); the shrinks a few CPU seconds.

`ptovec_mutant_scan --shrink-seeds 20` runs `shrink`'s search (in process, 10,000 sampled
tests) with seeds 1 to 20 on every sampled default-suite pair of each mutant's ops where the
mutant differs from the oracle: 600 (mutant, pair)s of the 76 mutants, 12,000 runs, 308 CPU
seconds (183 s wall with `--threads 2`), 0 of them passing (measured after the mutants of real
implementations and the implementation-edge strategies were added). Every run finds the mutant,
the slowest within 3,643 tests (`rhb_as_rna` on encode fp32 -> u4x2). `unsigned_minus_2w_nx_only`
was missed by 35 runs of encode fp32 -> u4x2/u8 and affine -> u8 before the strategies aimed at
values rounding to -2^w, and its FP32 -> U16 and U32 pairs had no such input at all. Until
`fpatr` got its strategy `ties_after_scale` (accumulators whose product with the FP19 scale or the
LReLU/PReLU parameter is an exact tie of the destination or of the S5/S9/S17 intermediate), 9
runs of the three tie-direction mutants on `fpatr` pairs missed; they now take at most 698 tests.
The whole scan is in the long set (`scripts/test --long`); CI runs it for 7 of the mutants
(`mutants_shrink_seeds_1_to_20_sample`, 300 runs), for the tie-direction ones on the `fpatr` pairs
(`mutants_shrink_seeds_1_to_20_fpatr_ties`, 440 runs) and for four of the mutants of real
implementations (`mutants_shrink_seeds_1_to_20_implementation_edges`, 400 runs).

Regenerate this page from real runs (the long set runs these commands:
`tests/cli/test_docs_commands.py --long`):

```sh long
cmake --build build --target ptovec ptovec_mutants ptovec_mutant_scan
ctest --test-dir build -L mutants
/usr/bin/python3 tests/mutants/make_table.py --scan build/tests/mutants/ptovec_mutant_scan \\
    --work build/tests/mutants/work --out docs/mutants.md
```

"""

# Issue 13 section 4's fault kinds and the mutant of each (the B.FPATR pipeline kinds come with
# the fpatr op).
KINDS = """
## Further fault kinds of conversion hardware

| fault kind | mutant |
|---|---|
| a tiny FP32 input far below the smallest FP8 subnormal rounds to a non-zero code (a shift amount that wraps) | `fp8_tiny_shift_wraps` |
| E4M3 values in the top binade (256 to 448) saturate early | `e4m3_top_binade_saturates` |
| the carry out of the E4M3 mantissa on rounding up is lost (1.9375 becomes 1.0) | `e4m3_mantissa_carry_lost` |
| UF raised without NX on an inexact tiny result | `uf_without_nx` (encode only: TDEQUANT cannot underflow inexactly, (v - zp) x scale being an integer multiple of 2^-149) |
| OF dropped when Sat clamps a floating overflow to the largest finite | `sat_overflow_of_dropped` |
| TQUANT clamps value x scale to the integer range before adding the zero point | `tquant_clamp_before_zero_point` (under Sat: the saturation stage placed before the zero-point adder) |
| TQUANT rounds value x scale to FP32 before adding the zero point (double rounding) | `tquant_product_rounded_fp32` |
| TDEQUANT computes v x scale - zp x scale (two roundings) | `tdequant_two_products` |
| TDEQUANT computes v - zp in 8 bits (wraps) | `tdequant_difference_8bit` |
| a negative value into an unsigned destination raises NX without OF | `unsigned_negative_nx_only` |
| the S32 -> S16 shift rounds (adds 2^(shift-1)) instead of truncating | `shift_rounds` |
| the S32 -> S16 shift wraps instead of saturating | `shift_wraps` |
| FP32 -> FP19 scale packing truncates instead of rounding to nearest even | `fp19_scale_truncated` (already in the catalogue: the same kind) |
| a HiF8 exponent band encoded with the wrong exponent sign | `hif8_encode_band_sign_flipped` (encode side; `hif8_exponent_sign_misread` is the decoder's twin) |

The default suite kills each of them without a new strategy. During development each was also
found by `ptovec shrink --seed K`, for every K from 1 to 20, on every sampled pair it affects
(the FP32 and S32 sources of encode and affine, tquant, tdequant, shift).
## Bug kinds seen in two real implementations

Two implementations that nobody here wrote, gated as a new user would: a C++ simulator of a PTO
tile library's CPU backend (no status register) and an open-source RISC-V FPU in RTL. Each kind
of bug seen there is a mutant (the kind, written as a fault of its own):

| bug kind | mutant |
|---|---|
| the rounding mode ignored: every mode behaves as RNE, or as RTZ | `mode_ignored_rne`, `mode_ignored_rtz` |
| RTO implemented as round-half-to-odd instead of sticky round-to-odd | `rto_half_to_odd` |
| E8M0 taken as the floor exponent in every mode | `e8m0_floor_every_mode` |
| E8M0 of NaN, zero and negative inputs given an exponent instead of 0xFF with NV | `e8m0_specials_given_exponent` |
| E8M0: the sign bit leaking into the exponent | `e8m0_sign_leaks_into_exponent` |
| E4M3 conversion truncating instead of rounding | `e4m3_truncates` |
| the E4M3 subnormal boundary off by one binade (2^-7 flushed to zero) | `e4m3_subnormal_boundary_low` |
| E4M3 exponent wrap-around on overflow | `e4m3_exponent_wraps` |
| a HiF8 decoder using the wrong mantissa width for the dot fields with the fewest mantissa bits | `hif8_dot_mantissa_width` |
| saturation range from an unspecialised limits table (every Sat result 0) | `sat_limits_zero` |
| S4 and other narrow integer destinations always clamped (Sat ignored when off) | `narrow_int_always_clamped` (the 4-bit lanes S4X2, U4X2) |
| the Sat clamp done in the source floating type (INT32_MAX rounds to 2^31, then wraps) | `sat_clamp_in_source_float` |
| out-of-range float-to-integer left to the host's undefined conversion | `float_to_int_host_undefined` (x86's 0x80000000) |
| TQUANT rounding the FP32 product first and then the sum (double rounding) | `tquant_fp32_sum_rounded` (`tquant_product_rounded_fp32`, in the table above, rounds the product only) |
| the S32 -> S16 shift truncating to 16 bits before clamping (the clamp never acts) | `shift_wraps` (already in the catalogue: keeping the shifted value's low 16 bits is that kind; no second mutant with the same answers) |
| the B.FPATR offset field read unsigned | `fpatr_offset_unsigned` |
| ReLU applied after the offset and clamp | `fpatr_relu_after_offset` |
| rounding after adding the offset instead of before | `fpatr_round_after_offset` |
| ReluMode applied in the shift modes | `fpatr_relu_in_shift_modes` |
| (RTL) integer to FP16 overflow flagged NV\|NX instead of OF\|NX | `int_to_fp16_overflow_nv` |
| (RTL) a value rounding to the most negative integer (-128.5 -> -128) flagged NV | `most_negative_integer_nv` |
| (RTL) a negative value rounding to -2^w for an unsigned target given 0 with NX | `unsigned_minus_2w_nx_only` |
| (outside review) FP19 narrowing of a NaN scale rounding its raw bits | `fp19_nan_payload_truncated` |

The triage column is the largest group of the `ptovec run` report's triage by failure
signature, with its vector count and the number of groups: what a user bringing up a device
with that bug reads first.
"""


def load(path):
    try:
        return json.loads(Path(path).read_text())
    except FileNotFoundError:
        return None


def cell(text):
    """A Markdown table cell: '|' (as in OF|NX) escaped."""
    return text.replace("|", "\\|")


def triage_text(run):
    """The largest triage group of a run (the first of the largest, in the report's order), its
    vector count and the number of groups."""
    groups = (run or {}).get("triage")
    if not groups:
        return "not run"
    largest = max(groups, key=lambda g: g["count"])  # max keeps the first of equal counts
    count = f"{len(groups)} groups" if len(groups) > 1 else "1 group"
    return f"`{largest['signature']}` ({largest['count']:,} vectors; {count})"


def shrunk_text(s):
    if not s:
        return "not run"
    if not s.get("found"):
        return "**none found**"
    c = s["case"]
    ins = " ".join(c["in"])
    sat = " sat" if c.get("sat") else ""
    return (f"`{c['op']} {c['src']}->{c['dst']} {c['rmode']}{sat} {ins}`: expected "
            f"`{c['out']}/{c['flags']}`, got `{s['got_out']}/{s['got_flags']}`")


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--scan", required=True, help="the ptovec_mutant_scan binary (for --list)")
    p.add_argument("--work", required=True)
    p.add_argument("--out", required=True)
    p.add_argument("--vectors", help="the default suite the runs read (for its total; default: "
                   "the build folder's vectors-default, three levels above --work)")
    a = p.parse_args()
    catalog = [json.loads(line) for line in
               subprocess.run([a.scan, "--list"], check=True, capture_output=True,
                              text=True).stdout.splitlines() if line.strip()]
    work = Path(a.work)
    default_manifest = load(Path(a.vectors or work.resolve().parents[2] / "vectors-default") /
                            "manifest.json")
    total_vectors = sum(f["count"] for f in default_manifest["files"]
                        if f["format"] == "bin") if default_manifest else 0
    smoke = load(work / "smoke.json") or {}  # run_mutants.py smoke: {name: killed}
    smoke_manifest = load(Path(__file__).resolve().parents[2] / "vectors" / "smoke" /
                          "manifest.json")
    smoke_vectors = sum(f["count"] for f in smoke_manifest["files"]
                        if f["format"] == "bin") if smoke_manifest else 0
    rows = []
    killed = shrunk = 0
    cpu = 0.0
    for m in catalog:
        run = load(work / m["name"] / "run-all.json") or load(work / m["name"] / "run.json")
        shrink = load(work / m["name"] / "shrink.json")
        if run:
            cpu += run.get("cpu_seconds", 0)
            killed += 1 if run["mismatched"] > 0 else 0
            selection = f", `{run['selection']}`" if run.get("selection") else ""
            failed = (f"{run['mismatched']:,} of {run['vectors']:,} "
                      f"({run['files']} files{', all' if run.get('all_files') else ''}"
                      f"{selection})")
        else:
            failed = "not run"
        if shrink:
            cpu += shrink.get("cpu_seconds", 0)
            shrunk += 1 if shrink.get("found") and shrink.get("minimal") else 0
        smoke_cell = ("killed" if smoke[m["name"]] else "**survived**") if m["name"] in smoke \
            else "not run"
        cells = [f"`{m['name']}`", m["models"], m["affects"], failed, triage_text(run),
                 smoke_cell, shrunk_text(shrink)]
        rows.append("| " + " | ".join(cell(c) for c in cells) + " |")
    out = [HEADER.replace("{cpu}", f"{cpu / 60:.1f}")]
    out.append(f"**{killed} of {len(catalog)} mutants killed by the default suite; "
               f"{shrunk} of {len(catalog)} shrunk to a counterexample minimal in the "
               f"simplest-case order.**\n")
    smoke_killed = sum(1 for m in catalog if smoke.get(m["name"]))
    out.append(f"**The smoke suite (`vectors/smoke`, {smoke_vectors:,} vectors) kills "
               f"{smoke_killed} of the whole catalogue's {len(catalog)} mutants "
               f"({100 * smoke_killed / max(len(catalog), 1):.0f}%)** (`mutants_smoke_kill_rate`: "
               "`ptovec run` of every mutant over the whole smoke suite).\n")
    out.append("Vectors failed: mismatches reported by `ptovec run` over the default-suite files of "
               "the ops the mutant touches (the files column, narrowed by the run selection "
               "where one is shown); every other file of the "
               f"{total_vectors:,} vectors returns the oracle's answer. Shrunk counterexample: op, "
               "types, mode, Sat, inputs in slot order, expected (oracle) and got (mutant) as "
               "word/flags; `ptovec eval` with the same arguments reproduces the expected side.\n")
    out.append("| mutant | models | affects | vectors failed (`ptovec run`) | triage group | "
               "smoke suite | shrunk counterexample (`ptovec shrink`) |")
    out.append("|---|---|---|---|---|---|---|")
    out.extend(rows)
    out.append(KINDS)
    text = "\n".join(out)
    target = Path(a.out)
    fd, tmp = tempfile.mkstemp(dir=target.parent, prefix=".mutants.md.")
    with os.fdopen(fd, "w") as f:
        f.write(text)
    os.replace(tmp, target)
    print(f"make_table: {target}: {killed}/{len(catalog)} killed, {shrunk} shrunk")
    return 0


if __name__ == "__main__":
    sys.exit(main())
