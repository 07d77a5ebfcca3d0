#!/usr/bin/python3
"""The host IEEE device (examples/devices/host_ieee_device.c: C fenv, _Float16, cvtss2si) through
the gate with the x86 behaviour model.

Generates every pair the device implements (the FP16 and BF16 sources exhaustively, FP32 and S32
sources SAMPLES inputs, TDEQUANT every value x zero point x the 12 sampled scales) and two pairs
it does not (encode fp32 -> bf16, s32 -> fp16), then:

  1. `ptovec run --known-differences x86 --allow-unsupported` must exit 0 (PASS), with no
     mismatch, and its JSON report (--report-json) must count unsupported vectors under exactly
     the RNA, RTO and RHB controls of the implemented pairs and every control of the others, each
     wholly unsupported;
  2. the same run without --known-differences must exit 1, with as many mismatches as the first
     run waived (every difference from the profile is the model's, none is waived twice).

Exit 77 (ctest SKIP_RETURN_CODE) only on a CPU without F16C. The work folder (about 1 GB: 330 MB
of vectors and two results files) is removed when the test passes.

Usage: host_ieee_gate.py PTOVEC LIBPTOVEC_HOST_IEEE_DUT WORKDIR [SAMPLES]
"""
import json
import os
import re
import shutil
import subprocess
import sys

from f16c_gate import cpu_has_f16c  # tests/devices, beside this script

SKIP = 77
IMPLEMENTED = [("encode", "fp32", "fp16"), ("encode", "fp16", "fp32"), ("encode", "bf16", "fp32"),
               ("encode", "fp32", "s32"), ("encode", "fp16", "s32"), ("encode", "bf16", "s32"),
               ("encode", "s32", "fp32"), ("tdequant", "s8", "fp32"), ("tdequant", "u8", "fp32")]
NOT_IMPLEMENTED = [("encode", "fp32", "bf16"), ("encode", "s32", "fp16")]
MODES = ("RNE", "RTM", "RTP", "RTZ", "RNA", "RTO", "RHB")
NOT_IN_FENV = ("RNA", "RTO", "RHB")


def expected_unsupported():
    rows = set()
    for op, src, dst in IMPLEMENTED:
        rows |= {(op, src, dst, m, s) for m in NOT_IN_FENV for s in ("off", "on")}
    for op, src, dst in NOT_IMPLEMENTED:
        rows |= {(op, src, dst, m, s) for m in MODES for s in ("off", "on")}
    return rows


def control_rows(report_json):
    """The controls with a failed vector in the JSON report's "per_control": (op, src, dst, mode,
    sat) -> (vectors, word, flags, both, unsupported)."""
    with open(report_json) as f:
        per_control = json.load(f)["per_control"]
    rows = {}
    for c in per_control:
        counts = (c["vectors"], c["word"], c["flags"], c["both"], c["unsupported"])
        if sum(counts[1:]) > 0:
            key = (c["op"], c["src"], c["dst"], c["rmode"], "on" if c["sat"] else "off")
            rows[key] = counts
    return rows


def run(ptovec, lib, vectors, extra):
    return subprocess.run([ptovec, "run", "--dut", lib, "--vectors", vectors, "--allow-unsupported",
                           "--max-report", "0", "--quiet", *extra],
                          stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def check_model_run(r, report_json):
    """Failures of the run with the x86 model: exit 0, no mismatch, unsupported where expected
    (its JSON report `report_json`)."""
    failures = []
    if r.returncode != 0 or "\nPASS with " not in r.stdout:
        failures.append(f"with --known-differences x86: exit {r.returncode}, expected 0 (PASS)")
    summary = re.search(r"(\d+) vectors: (\d+) matched, (\d+) waived, (\d+) mismatched, "
                        r"(\d+) unsupported", r.stdout)
    if summary is None or int(summary.group(4)) != 0:
        failures.append("with --known-differences x86: mismatches left")
    rows = control_rows(report_json) if os.path.exists(report_json) else {}
    want = expected_unsupported()
    if want - set(rows):
        failures.append(f"controls not unsupported: {sorted(want - set(rows))}")
    for key, (vectors, word, flags, both, unsupported) in sorted(rows.items()):
        wrong = word + flags + both
        if key not in want:
            failures.append(f"{' '.join(key)}: {wrong} wrong and {unsupported} unsupported of "
                            f"{vectors} (expected every vector answered and right)")
        elif wrong or unsupported != vectors or vectors == 0:
            failures.append(f"{' '.join(key)}: {unsupported} of {vectors} unsupported, {wrong} "
                            f"wrong (expected all unsupported)")
    return failures, (int(summary.group(3)) if summary else -1)


def main():
    ptovec, lib, work = sys.argv[1:4]
    samples = sys.argv[4] if len(sys.argv) > 4 else "2000"
    if not cpu_has_f16c():
        print("SKIP: this CPU has no F16C (vcvtps2ph)")
        return SKIP
    shutil.rmtree(work, ignore_errors=True)
    vectors = os.path.join(work, "v")
    for op, src, dst in IMPLEMENTED + NOT_IMPLEMENTED:
        subprocess.run([ptovec, "generate", "--op", op, "--src", src, "--dst", dst, "--samples",
                        samples, "--out", vectors, "--quiet"], check=True)
    report_json = os.path.join(work, "x86.json")
    with_model = run(ptovec, lib, vectors, ["--known-differences", "x86", "--results",
                                            os.path.join(work, "x86.bin"), "--report-json",
                                            report_json])
    print(with_model.stdout.split("\nby pair")[0])
    failures, waived = check_model_run(with_model, report_json)
    profile = run(ptovec, lib, vectors, ["--results", os.path.join(work, "profile.bin")])
    mismatched = re.search(r"FAIL: (\d+) mismatched", profile.stdout)
    if profile.returncode != 1 or mismatched is None:
        failures.append(f"without --known-differences: exit {profile.returncode}, expected 1 "
                        f"(FAIL)\n{profile.stdout[-2000:]}{profile.stderr}")
    elif int(mismatched.group(1)) != waived:
        failures.append(f"without --known-differences: {mismatched.group(1)} mismatched, but "
                        f"the x86 model waived {waived}")
    for f in failures:
        print("FAIL:", f)
    if failures:
        print(with_model.stdout[-4000:], with_model.stderr)
        return 1
    print(f"PASS: the x86 model explains all {waived} differences from the profile")
    shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
