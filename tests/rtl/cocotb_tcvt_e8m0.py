"""The cocotb test of rtl/ptovec_tcvt_e8m0.sv: streams ptovec binary vector files (TCVT to E8M0,
read with python/ptovec/files.py) into the unit and compares every output with the vector's
expected E8M0 code and status.

Run by tests/rtl/run_cocotb.py through cocotb's runner (Icarus Verilog); configured by the
environment:
  PTOVEC_COCOTB_VECTORS  the vector files, separated by os.pathsep (tcvt <fp16|bf16|fp32> -> e8m0)
  PTOVEC_COCOTB_LIMIT    vectors to stream in all: 0 every record of every file; otherwise a
                         deterministic slice, the same number from each file at evenly spaced
                         records (record floor(i * count / n) for i < n)
  PTOVEC_COCOTB_REPORT   a JSON file written at the end: checked, mismatches, seconds, and the
                         first mismatches (the ones the failure lists)

The test fails listing the first mismatches, each with its op, input, mode, Sat, expected and got
words and status, and the `ptovec eval` line that reproduces it.
"""
import json
import os
import time

import cocotb
from cocotb.triggers import Timer

from ptovec.files import RMODE_NAMES, read_vectors

#: The source types the unit takes, by their TileDataType code (spec-notes section 1).
SRC_TYPE_CODES = {"fp32": 1, "fp16": 4, "bf16": 5}
#: Mismatches listed in full in the failure message and the report.
FIRST_MISMATCHES = 10
#: The hex digits of a source word by type.
SRC_DIGITS = {"fp32": 8, "fp16": 4, "bf16": 4}


def slice_indices(count, wanted):
    """The records of a file of ``count`` records to stream: all when ``wanted`` is 0 or at least
    ``count``, else ``wanted`` evenly spaced ones (floor(i * count / wanted) for i < wanted)."""
    if wanted == 0 or wanted >= count:
        return range(count)
    return [i * count // wanted for i in range(wanted)]


def describe(header, src, record):
    """One mismatch as a dict: op, src, dst, value, rmode, sat, expected and got (hex) and the
    `ptovec eval` line of the case."""
    value = f"0x{int(record['value']):0{SRC_DIGITS[src]}x}"
    rmode = RMODE_NAMES[record["rmode"]]
    sat = " --sat" if record["sat"] else ""
    return {
        "op": header["op"], "src": src, "dst": header["dst"], "value": value, "rmode": rmode,
        "sat": bool(record["sat"]), "expected": f"0x{record['expected']:02x}",
        "expected_flags": f"0x{record['expected_flags']:02x}", "got": f"0x{record['got']:02x}",
        "got_flags": f"0x{record['got_flags']:02x}",
        "eval": f"ptovec eval --op {header['op']} --src {src} --dst {header['dst']} "
                f"--rmode {rmode}{sat} {value}"}


def line(m):
    """A mismatch dict of describe() as one report line."""
    return (f"{m['op']} {m['src']} -> {m['dst']} {m['rmode']} sat={'on' if m['sat'] else 'off'} "
            f"value={m['value']}: expected {m['expected']} flags {m['expected_flags']}, got "
            f"{m['got']} flags {m['got_flags']}\n    {m['eval']}")


@cocotb.test()
async def stream_vectors(dut):
    """Every selected vector through the unit; fails listing the first mismatches."""
    paths = [p for p in os.environ["PTOVEC_COCOTB_VECTORS"].split(os.pathsep) if p]
    limit = int(os.environ.get("PTOVEC_COCOTB_LIMIT", "0"))
    per_file = [limit // len(paths) + (1 if i < limit % len(paths) else 0)
                for i in range(len(paths))] if limit else [0] * len(paths)
    checked = 0
    mismatches = 0
    first = []
    started = time.perf_counter()
    for path, wanted in zip(paths, per_file):
        header, records = read_vectors(path)
        src = header["src"]
        assert header["op"] == "tcvt" and header["dst"] == "e8m0" and src in SRC_TYPE_CODES, (
            f"{path}: a tcvt fp16/bf16/fp32 -> e8m0 file is needed, not {header['op']} "
            f"{src} -> {header['dst']}")
        value_field = [f["name"] for f in header["fields"] if f["name"].startswith("in.")][0]
        values = records[value_field]
        rmodes = records["rmode"]
        sats = records["sat"]
        outs = records["out"]
        flags = records["flags"]
        dut.src_type.value = SRC_TYPE_CODES[src]
        for i in slice_indices(len(records), wanted):
            dut.value.value = int(values[i])
            dut.rmode.value = int(rmodes[i])
            dut.sat.value = int(sats[i])
            await Timer(1, "ns")
            code = dut.code.value.integer
            status = dut.status.value.integer
            checked += 1
            if dut.supported.value.integer != 1 or code != outs[i] or status != flags[i]:
                mismatches += 1
                if len(first) < FIRST_MISMATCHES:
                    first.append(describe(header, src, {
                        "value": values[i], "rmode": int(rmodes[i]), "sat": int(sats[i]),
                        "expected": int(outs[i]), "expected_flags": int(flags[i]), "got": code,
                        "got_flags": status}))
    seconds = time.perf_counter() - started
    dut._log.info("%d vectors in %.2f s: %.0f vectors/s, %d mismatched", checked, seconds,
                  checked / seconds if seconds else 0.0, mismatches)
    report = os.environ.get("PTOVEC_COCOTB_REPORT")
    if report:
        with open(report + ".tmp", "w") as f:
            json.dump({"checked": checked, "mismatches": mismatches, "seconds": seconds,
                       "first": first}, f, indent=1)
        os.replace(report + ".tmp", report)
    assert mismatches == 0, (f"{mismatches} of {checked} vectors mismatched; the first "
                             f"{len(first)}:\n  " + "\n  ".join(line(m) for m in first))
