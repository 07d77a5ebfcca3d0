#!/usr/bin/python3
"""The F16C example device (examples/devices/f16c_device.c, vcvtps2ph) through the gate.

Generates `encode fp32 -> fp16` vectors (JSON), runs `ptovec run --dut libptovec_f16c_dut.so`,
and classifies every disagreement between IEEE hardware and the profile (docs/f16c.md):

  unsupported         RNA RTO RHB: vcvtps2ph has only RNE RTM RTP RTZ
  overflow-directed   spec-notes 5 rules 1/3: profile +/-Inf in every mode; IEEE RTZ (and RTM for
                      x > 0, RTP for x < 0) gives the largest finite, same flags OF|NX
  overflow-sat        rule 3: Sat gives the largest finite; IEEE has no Sat (+/-Inf)
  overflow-flag-only  the word is the largest finite in both, profile NX, hardware OF|NX
  underflow-tininess  rule 2: tiny before rounding (profile UF|NX) vs after (NX); none on x86
  negative-zero       rule 0: -0 encodes as +0 in the profile, IEEE keeps 0x8000

Fails on any other disagreement, or when run exits other than 1. Exit 77 (ctest
SKIP_RETURN_CODE) on a CPU without F16C.

Usage: f16c_gate.py PTOVEC LIBPTOVEC_F16C_DUT WORKDIR [SAMPLES]
"""
import json
import os
import platform
import shutil
import subprocess
import sys

SKIP = 77


def cpu_has_f16c():
    if platform.machine() not in ("x86_64", "AMD64", "amd64"):
        return False
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("flags"):
                    return "f16c" in line.split()
    except OSError:
        pass
    return False


def classify(value, sat, want_out, want_flags, got_out, got_flags):
    if got_flags == "unsupported":
        return "unsupported"
    got_out, got_flags = int(got_out, 16) & 0xFFFF, int(got_flags, 16)
    sign = want_out & 0x8000
    if value == 0x80000000 and want_out == 0 and got_out == 0x8000 and got_flags == want_flags:
        return "negative-zero"
    if want_flags & 0x04 and got_flags == want_flags:
        if not sat and want_out == sign | 0x7C00 and got_out == sign | 0x7BFF:
            return "overflow-directed"
        if sat and want_out == sign | 0x7BFF and got_out == sign | 0x7C00:
            return "overflow-sat"
    if (want_out == sign | 0x7BFF and want_flags == 0x10 and got_out == want_out
            and got_flags == 0x14):
        return "overflow-flag-only"
    if want_flags & 0x08 and got_out == want_out and got_flags == want_flags & ~0x08:
        return "underflow-tininess"
    return "other"


def main():
    ptovec, lib, work = sys.argv[1:4]
    samples = sys.argv[4] if len(sys.argv) > 4 else "3000"
    if not cpu_has_f16c():
        print("SKIP: this CPU has no F16C (vcvtps2ph)")
        return SKIP
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    vectors = os.path.join(work, "v")
    subprocess.run([ptovec, "generate", "--op", "encode", "--src", "fp32", "--dst", "fp16",
                    "--samples", samples, "--format", "json", "--out", vectors, "--quiet"],
                   check=True)
    vector_file = os.path.join(vectors, "encode_fp32_fp16.json")
    results = os.path.join(work, "results.jsonl")
    run = subprocess.run([ptovec, "run", "--dut", lib, "--vectors", vector_file, "--results",
                          results, "--format", "json", "--max-report", "0", "--quiet"],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    if run.returncode != 1:
        print(f"FAIL: ptovec run exited {run.returncode}, expected 1\n{run.stdout}{run.stderr}")
        return 1
    with open(vector_file) as f:
        records = json.load(f)["vectors"]
    with open(results) as f:
        header = json.loads(f.readline())
        answers = [json.loads(line) for line in f]
    assert header["device"] == "f16c-vcvtps2ph", header
    assert len(answers) == len(records), (len(answers), len(records))
    counts, examples, agree = {}, {}, 0
    for i, (v, a) in enumerate(zip(records, answers)):
        assert a["i"] == i
        want_out, want_flags = int(v["out"], 16), int(v["flags"], 16)
        if a["flags"] != "unsupported" and int(a["out"], 16) & 0xFFFF == want_out \
                and int(a["flags"], 16) == want_flags:
            agree += 1
            continue
        k = classify(int(v["in"][0], 16), v["sat"], want_out, want_flags, a.get("out", ""),
                     a["flags"])
        counts[k] = counts.get(k, 0) + 1
        examples.setdefault(k, f"--rmode {v['rmode']}{' --sat' if v['sat'] else ''} "
                               f"{v['in'][0]}: profile {v['out']} {v['flags']}, f16c "
                               f"{a.get('out', '')} {a['flags']}")
    print(f"{len(records)} vectors, {agree} agree")
    for k in sorted(counts):
        print(f"  {k:19} {counts[k]:8}  e.g. {examples[k]}")
    failures = []
    if counts.get("other"):
        failures.append(f"{counts['other']} unexplained disagreements, e.g. {examples['other']}")
    if counts.get("unsupported") != len(records) * 6 // 14:
        failures.append("unsupported should be exactly the RNA, RTO and RHB vectors")
    for k in ("overflow-directed", "overflow-sat"):
        if not counts.get(k):
            failures.append(f"no {k} disagreement (the default domain has overflow thresholds)")
    if run.stdout.find(f"{sum(counts.values()) - counts.get('unsupported', 0)} mismatched") < 0:
        failures.append("ptovec run's summary disagrees with the results file:\n" + run.stdout)
    for f in failures:
        print("FAIL:", f)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
