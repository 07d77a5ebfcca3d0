#!/usr/bin/python3
"""The F16C example device (examples/devices/f16c_device.c, vcvtps2ph) through the gate, with the
x86 behaviour model (docs/f16c.md, docs/semantics.md "Behaviour models").

Generates `encode fp32 -> fp16` vectors (JSON), then:

  1. `ptovec run` without known differences must exit 1;
  2. `ptovec run --known-differences x86 --allow-unsupported --mismatches M.jsonl
     --mismatches-unsupported` must exit 0
     (PASS), every vector the first run failed being waived by the model or unsupported;
  3. every waived vector is classified again by its shape, independently of the model, and the
     class must be the one of the deviation that waived it:

       x86/ieee-overflow            overflow-directed: profile +/-Inf in every mode; IEEE RTZ (and
                                    RTM for x > 0, RTP for x < 0) the largest finite, OF|NX both
       x86/no-saturation            overflow-sat: profile's Sat gives the largest finite; IEEE has
                                    no Sat (+/-Inf), OF|NX both
       x86/signed-zero              negative-zero: -0 encodes as +0 in the profile, 0x8000 in IEEE
       x86/tininess-after-rounding  underflow-tininess: the same word, profile UF|NX, device NX

     and unsupported must be exactly the RNA, RTO and RHB vectors (vcvtps2ph has only RNE RTM RTP
     RTZ). The two overflow classes must not be empty (the sampled strategies hold the overflow
     thresholds).

Prints the class table of docs/f16c.md (count and first example per class). Exit 77 (ctest
SKIP_RETURN_CODE) only on a CPU without F16C.

Usage: f16c_gate.py PTOVEC LIBPTOVEC_F16C_DUT WORKDIR [SAMPLES]
"""
import json
import os
import platform
import shutil
import subprocess
import sys

SKIP = 77
CLASS_OF_RULE = {
    "x86/ieee-overflow": "overflow-directed",
    "x86/no-saturation": "overflow-sat",
    "x86/signed-zero": "negative-zero",
    "x86/tininess-after-rounding": "underflow-tininess",
}


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
    """The shape of a disagreement between the profile and IEEE hardware (no model involved)."""
    sign = want_out & 0x8000
    if value == 0x80000000 and want_out == 0 and got_out == 0x8000 and got_flags == want_flags:
        return "negative-zero"
    if want_flags & 0x04 and got_flags == want_flags:
        if not sat and want_out == sign | 0x7C00 and got_out == sign | 0x7BFF:
            return "overflow-directed"
        if sat and want_out == sign | 0x7BFF and got_out == sign | 0x7C00:
            return "overflow-sat"
    if want_flags & 0x08 and got_out == want_out and got_flags == want_flags & ~0x08:
        return "underflow-tininess"
    return "other"


def run(ptovec, lib, vector_file, *options):
    return subprocess.run([ptovec, "run", "--dut", lib, "--vectors", vector_file,
                           "--max-report", "0", *options],
                          stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def tally(mismatches, records):
    """{class: count}, {class: example} of the model run's --mismatches lines, and failures."""
    counts, examples, failures = {}, {}, []
    for line in mismatches:
        m = json.loads(line)
        v = records[m["record"]]
        example = (f"--rmode {v['rmode']}{' --sat' if v['sat'] else ''} {v['in'][0]}: profile "
                   f"{v['out']} {v['flags']}")
        if m["verdict"] == "unsupported":
            k = "unsupported"
            if v["rmode"] not in ("RNA", "RTO", "RHB"):
                failures.append(f"unsupported under {v['rmode']}: {example}")
        else:
            got = m["got"]
            example += f", f16c {got['out']} {got['flags']}"
            k = classify(int(v["in"][0], 16), v["sat"], int(v["out"], 16), int(v["flags"], 16),
                         int(got["out"], 16) & 0xFFFF, int(got["flags"], 16))
            if m["verdict"] != "waived" or CLASS_OF_RULE.get(m.get("rule")) != k:
                failures.append(f"{m['verdict']} by {m.get('rule')} but shaped {k}: {example}")
            k = f"{m.get('rule')} ({k})"
        counts[k] = counts.get(k, 0) + 1
        examples.setdefault(k, example)
    return counts, examples, failures


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
    with open(vector_file) as f:
        records = json.load(f)["vectors"]
    failures = []
    bare = run(ptovec, lib, vector_file, "--quiet")
    if bare.returncode != 1:
        failures.append(f"without known differences run exited {bare.returncode}, expected 1")
    mismatches = os.path.join(work, "mismatches.jsonl")
    model = run(ptovec, lib, vector_file, "--known-differences", "x86", "--allow-unsupported",
                "--mismatches", mismatches, "--mismatches-unsupported")
    if model.returncode != 0 or "\nPASS with " not in model.stdout:
        failures.append(f"with --known-differences x86 run exited {model.returncode}, expected 0 "
                        f"(PASS)\n{model.stdout}{model.stderr}")
    with open(mismatches) as f:
        counts, examples, shape_failures = tally(f, records)
    failures += shape_failures[:10]
    disagree = sum(counts.values())
    print(f"{len(records)} vectors, {len(records) - disagree} agree")
    for k in sorted(counts):
        print(f"  {k:50} {counts[k]:8}  e.g. {examples[k]}")
    if counts.get("unsupported") != len(records) * 6 // 14:
        failures.append("unsupported should be exactly the RNA, RTO and RHB vectors")
    for rule in ("x86/ieee-overflow", "x86/no-saturation"):
        if not counts.get(f"{rule} ({CLASS_OF_RULE[rule]})"):
            failures.append(f"{rule} waived nothing (the default domain has overflow thresholds)")
    answered = disagree - counts.get("unsupported", 0)
    if f"{answered} mismatched, {counts.get('unsupported', 0)} unsupported" not in bare.stdout:
        failures.append("the run without known differences does not fail exactly the vectors the "
                        "model waived:\n" + bare.stdout)
    for f in failures:
        print("FAIL:", f)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
