#!/usr/bin/python3
"""Broken variants of the host IEEE device (examples/devices/host_ieee_device.c, --dut-arg NAME)
through the gate with `--known-differences x86`: each plants one bug of a real kind, and none may
be waived by the model. Over the smoke suite (vectors/smoke), each run must FAIL (exit 1); where
the diagnosis names the bug, the report's causes must be exactly the ones listed here.

Exit 77 (ctest SKIP_RETURN_CODE) only on a CPU without F16C.

Usage: host_ieee_broken.py PTOVEC LIBPTOVEC_HOST_IEEE_DUT SMOKE_VECTORS WORKDIR
"""
import os
import re
import subprocess
import sys

from f16c_gate import cpu_has_f16c  # tests/devices, beside this script

SKIP = 77
# Variant -> the report's causes (text, vectors), in order; None: the causes are the coarse
# signatures of what no explanation reproduces (checked: every cause is unexplained).
EXPECTED = {
    # The three: -0 for every zero (+0 sources included), 0 instead of the indefinite
    # for an invalid integer, UF only for a subnormal or zero result.
    "negative-zero": None,
    "zero-for-invalid": None,
    "uf-subnormal-only": [("fault tininess-on-delivered-result", 8)],
    # Five more.
    "nx-dropped-integer": [("fault nx-missing-integer", 144)],
    "of-without-nx": [("NX never raised", 80)],
    # The mode and fault explanations are the profile's with one change, not the model's: where
    # x86 differs from the profile too (its overflow and tininess), nothing reproduces the answer.
    "rtz-as-rne-fp16": [
        ("mode RTZ as RNE", 8), ("Sat ignored", 3),
        ("unexplained: encode fp32 -> fp16, sat off: word 1 code farther from zero; flags -UF", 2),
        ("unexplained: encode fp32 -> fp16, sat on: word 1 code farther from zero; flags -UF", 2),
        ("unexplained: encode fp32 -> fp16, sat on: word 1 code farther from zero; flags +OF", 4)],
    "flags-reversed": [("flags in reverse order (NX .. NV, RISC-V fflags)", 520)],
    "dequant-clamps": [
        ("fault tdequant-reads-sat", 8),
        ("unexplained: tdequant s8 -> fp32, sat off: word 1 code nearer zero; flags same", 4),
        ("unexplained: tdequant u8 -> fp32, sat off: word 1 code nearer zero; flags same", 4)],
}
CAUSE = re.compile(r"^  cause \d+: (.*): (\d+) vectors? in \d+ symptom groups?$", re.M)


def main():
    ptovec, dut, smoke, work = sys.argv[1:5]
    os.makedirs(work, exist_ok=True)
    if not cpu_has_f16c():
        print("host_ieee_broken: this CPU has no F16C: skipped")
        return SKIP
    failures = []
    for variant, expected in EXPECTED.items():
        r = subprocess.run([ptovec, "run", "--dut", dut, "--dut-arg", variant, "--vectors", smoke,
                            "--results", os.path.join(work, variant + ".bin"),
                            "--known-differences", "x86", "--allow-unsupported",
                            "--max-report", "0"], capture_output=True, text=True, timeout=300)
        causes = [(text, int(n)) for text, n in CAUSE.findall(r.stdout)]
        if r.returncode != 1 or "\nFAIL: " not in r.stdout:
            failures.append(f"{variant}: exit {r.returncode}, expected 1 (FAIL)\n{r.stdout}")
        elif expected is None and not (causes and all(t.startswith("unexplained: ")
                                                      for t, _ in causes)):
            failures.append(f"{variant}: causes {causes}, expected only unexplained ones")
        elif expected is not None and causes != expected:
            failures.append(f"{variant}: causes {causes}, expected {expected}")
        else:
            print(f"host_ieee_broken: {variant}: FAIL as it must ({len(causes)} causes)")
    for f in failures:
        print(f"host_ieee_broken: {f}", file=sys.stderr)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
