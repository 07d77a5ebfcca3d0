"""The cocotb 2 testbench of examples/rtl/ptovec_tcvt_e8m0_pipe.sv (TCVT to E8M0 behind STAGES register
stages, valid/ready, a tag, fflags in RISC-V order), built from ptovec.cocotb and
ptovec.stream: cases streamed one a clock with random idle clocks and back-pressure, every result
checked in order by tag, then `ptovec check` and `ptovec coverage` of what was driven.

Run by examples/rtl/cocotb/run_cocotb.py (Icarus Verilog or Verilator through cocotb_tools.runner);
configured by the environment:
  PTOVEC                  the ptovec program (check, coverage, eval --batch)
  PTOVEC_COCOTB_VECTORS   vector files or suite folders, os.pathsep-separated (tcvt -> e8m0
                          files are taken; others skipped)
  PTOVEC_COCOTB_LIMIT     vectors in all (0: every record; N: evenly spaced, ptovec.stream)
  PTOVEC_COCOTB_WORK      folder for the driven files, the results and report.json
  PTOVEC_COCOTB_BACKPRESSURE, PTOVEC_COCOTB_IDLE  chances of a stalled / empty clock (0.3, 0.1)

Tests: stream_vectors (the vector files) and stream_evaluate (FP32 words around the binade
ends under every control, expected results computed on the fly). Each writes its part of
report.json and fails listing the first mismatches with their `ptovec eval` lines.
"""
import json
import os
from pathlib import Path

import cocotb
from cocotb.clock import Clock

from ptovec.cocotb import StreamDriver, StreamMonitor, reset, run_stream
from ptovec.stream import Scoreboard, cases_from_evaluate, cases_from_vectors

#: The unit's in_src_type codes (TileDataType, spec-notes section 1).
SRC_TYPE_CODES = {"fp32": 1, "fp16": 4, "bf16": 5}


def work() -> Path:
    return Path(os.environ.get("PTOVEC_COCOTB_WORK", "cocotb-work")).resolve()


async def start_unit(dut, board):
    """Starts the clock, resets the unit and returns its (StreamDriver, StreamMonitor) on
    ``board``, with the idle and back-pressure chances of the environment."""
    Clock(dut.clk, 10, unit="ns").start()
    dut.in_valid.value = 0
    dut.out_ready.value = 0
    await reset(dut.clk, dut.rst_n)
    driver = StreamDriver(
        dut.clk, valid=dut.in_valid, ready=dut.in_ready, tag=dut.in_tag, board=board,
        idle=float(os.environ.get("PTOVEC_COCOTB_IDLE", "0.1")),
        fields={dut.in_src_type: lambda c: SRC_TYPE_CODES[c.pair.src],
                dut.in_value: lambda c: c.inputs[0], dut.in_rmode: lambda c: c.rmode,
                dut.in_sat: lambda c: c.sat})
    monitor = StreamMonitor(
        dut.clk, valid=dut.out_valid, ready=dut.out_ready, tag=dut.out_tag, word=dut.out_code,
        flags=dut.out_fflags, flag_order="riscv", supported=dut.out_supported, board=board,
        backpressure=float(os.environ.get("PTOVEC_COCOTB_BACKPRESSURE", "0.3")))
    return driver, monitor


async def stream(dut, cases, name):
    """Streams ``cases`` through the unit; writes report.json's entry ``name``; asserts."""
    board = Scoreboard(log=dut._log.error, device="ptovec_tcvt_e8m0_pipe")
    driver, monitor = await start_unit(dut, board)
    taken = await run_stream(driver, monitor, cases)
    dut._log.info("%s: %d cases in %d clocks; %s", name, taken, driver.clocks, board.summary())
    outcome = board.finish(work() / name, ptovec=os.environ.get("PTOVEC"))
    dut._log.info("ptovec check of the driven vectors (exit %d):\n%s", outcome.exit_code,
                  outcome.report)
    dut._log.info("ptovec coverage of the driven vectors:\n%s", outcome.coverage)
    report = work() / "report.json"
    entries = json.loads(report.read_text()) if report.exists() else {}
    entries[name] = {
        "taken": taken, "clocks": driver.clocks, "checked": board.checked,
        "matched": board.matched, "mismatched": board.mismatched,
        "unsupported": board.unsupported, "order_errors": board.order_errors,
        "first": [{"line": m.line(), "eval": m.case.eval_line(), "rmode": m.case.rmode,
                   "expected": m.case.word, "got": m.word, "expected_flags": m.case.flags,
                   "got_flags": m.flags} for m in board.first],
        "check_exit": outcome.exit_code, "check_report": outcome.report,
        "coverage": outcome.coverage_json, "files": len(list(outcome.folder.glob("driven_*")))}
    report.write_text(json.dumps(entries, indent=1))
    assert board.mismatched == 0 and board.order_errors == 0 and board.unsupported == 0, (
        f"{board.summary()}; the first:\n  " + "\n  ".join(m.line() for m in board.first))
    assert outcome.exit_code == 0, outcome.report


@cocotb.test()
async def stream_vectors(dut):
    """The selected records of PTOVEC_COCOTB_VECTORS' tcvt -> e8m0 files."""
    paths = [p for p in os.environ["PTOVEC_COCOTB_VECTORS"].split(os.pathsep) if p]
    cases = cases_from_vectors(paths, op="tcvt", dst="e8m0",
                               limit=int(os.environ.get("PTOVEC_COCOTB_LIMIT", "0")),
                               ptovec=os.environ.get("PTOVEC"))
    await stream(dut, cases, "vectors")


@cocotb.test()
async def stream_evaluate(dut):
    """FP32 words at and beside every binade end (and +-0, inf, NaN) under all 14 controls,
    expected results from ptovec's oracle on the fly."""
    words = [0, 0x80000000, 0x7F800000, 0xFF800000, 0x7FC00000, 0x00000001, 0x007FFFFF]
    for e in range(1, 255):
        for m in (0, 1, 0x3FFFFF, 0x400000, 0x400001, 0x7FFFFF):
            words.append(e << 23 | m)
    cases = cases_from_evaluate("tcvt", "fp32", "e8m0", words, ptovec=os.environ.get("PTOVEC"),
                                work=work() / "evaluate-template")
    await stream(dut, cases, "evaluate")
