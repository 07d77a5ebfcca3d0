"""A pyuvm (UVM in Python, on cocotb 2) environment for examples/rtl/ptovec_tcvt_e8m0_pipe.sv: an agent
whose ptovec.cocotb driver and monitor publish every accepted case and every result on analysis
ports, and a UVM scoreboard component that pairs them from two analysis FIFOs with
ptovec.stream.Scoreboard and, in its check phase, runs `ptovec check` and `ptovec coverage` of
what was driven.

Run with cocotb_pipe.py by examples/rtl/cocotb/run_cocotb.py (same environment: PTOVEC,
PTOVEC_COCOTB_VECTORS, PTOVEC_COCOTB_WORK); it streams 2,000 evenly spaced records of the E8M0
files and writes report.json's entry "pyuvm".
"""
import json
import os
from collections import deque
from pathlib import Path

import cocotb
import pyuvm
from cocotb.clock import Clock
from pyuvm import uvm_analysis_port, uvm_component, uvm_env, uvm_test, uvm_tlm_analysis_fifo

from ptovec.cocotb import StreamDriver, StreamMonitor, reset, run_stream
from ptovec.stream import Scoreboard, cases_from_vectors

SRC_TYPE_CODES = {"fp32": 1, "fp16": 4, "bf16": 5}
#: Records streamed by the UVM test, evenly spaced over the files.
CASES = 2000


class AnalysisTap:
    """Stands where a Scoreboard stands for the driver and monitor (expect, observe,
    outstanding, oldest, flags_mask) and publishes instead: each case the unit took as
    (tag, case) on ``expected``, each result as (tag, word, flags) on ``actual``."""
    flags_mask = 0x1F

    def __init__(self, expected: uvm_analysis_port, actual: uvm_analysis_port):
        self.expected, self.actual = expected, actual
        self.pending = deque()

    def expect(self, case, tag=None):
        self.pending.append(case)
        self.expected.write((tag, case))

    def observe(self, word, flags, tag=None):
        self.pending.popleft()
        self.actual.write((tag, word, flags))

    @property
    def outstanding(self):
        return len(self.pending)

    def oldest(self):
        return self.pending[0] if self.pending else None


class PipeAgent(uvm_component):
    """Drives and monitors the unit's two streams (run phase)."""

    def build_phase(self):
        self.expected_ap = uvm_analysis_port("expected_ap", self)
        self.actual_ap = uvm_analysis_port("actual_ap", self)

    async def run_phase(self):
        self.raise_objection()
        dut = cocotb.top
        Clock(dut.clk, 10, unit="ns").start()
        dut.in_valid.value = 0
        dut.out_ready.value = 0
        await reset(dut.clk, dut.rst_n)
        tap = AnalysisTap(self.expected_ap, self.actual_ap)
        driver = StreamDriver(
            dut.clk, valid=dut.in_valid, ready=dut.in_ready, tag=dut.in_tag, board=tap,
            idle=0.1, fields={dut.in_src_type: lambda c: SRC_TYPE_CODES[c.pair.src],
                              dut.in_value: lambda c: c.inputs[0],
                              dut.in_rmode: lambda c: c.rmode, dut.in_sat: lambda c: c.sat})
        monitor = StreamMonitor(
            dut.clk, valid=dut.out_valid, ready=dut.out_ready, tag=dut.out_tag,
            word=dut.out_code, flags=dut.out_fflags, flag_order="riscv",
            supported=dut.out_supported, board=tap, backpressure=0.3)
        paths = [p for p in os.environ["PTOVEC_COCOTB_VECTORS"].split(os.pathsep) if p]
        self.taken = await run_stream(driver, monitor, cases_from_vectors(
            paths, op="tcvt", dst="e8m0", limit=CASES, ptovec=os.environ.get("PTOVEC")))
        self.clocks = driver.clocks
        self.drop_objection()


class PtovecScoreboard(uvm_component):
    """Pairs the agent's cases and results (two analysis FIFOs) in order in a ptovec
    Scoreboard; the check phase judges them and fails on any mismatch."""

    def build_phase(self):
        self.expected_fifo = uvm_tlm_analysis_fifo("expected_fifo", self)
        self.actual_fifo = uvm_tlm_analysis_fifo("actual_fifo", self)
        self.expected_export = self.expected_fifo.analysis_export
        self.actual_export = self.actual_fifo.analysis_export
        self.board = Scoreboard(log=self.logger.error, device="ptovec_tcvt_e8m0_pipe (pyuvm)")

    def check_phase(self):
        while True:
            got, result = self.actual_fifo.try_get()
            if not got:
                break
            had, (tag, case) = self.expected_fifo.try_get()
            assert had, "a result with no case taken"
            self.board.expect(case, tag)
            self.board.observe(result[1], result[2], result[0])
        work = Path(os.environ.get("PTOVEC_COCOTB_WORK", "cocotb-work")).resolve()
        outcome = self.board.finish(work / "pyuvm", ptovec=os.environ.get("PTOVEC"))
        self.logger.info("%s; ptovec check (exit %d):\n%s", self.board.summary(),
                         outcome.exit_code, outcome.report)
        report = work / "report.json"
        entries = json.loads(report.read_text()) if report.exists() else {}
        b = self.board
        entries["pyuvm"] = {"checked": b.checked, "matched": b.matched,
                            "mismatched": b.mismatched, "order_errors": b.order_errors,
                            "unsupported": b.unsupported, "check_exit": outcome.exit_code,
                            "check_report": outcome.report}
        report.write_text(json.dumps(entries, indent=1))
        assert b.mismatched == 0 and b.order_errors == 0 and b.unsupported == 0, b.summary()


class PipeEnv(uvm_env):
    def build_phase(self):
        self.agent = PipeAgent("agent", self)
        self.scoreboard = PtovecScoreboard("scoreboard", self)

    def connect_phase(self):
        self.agent.expected_ap.connect(self.scoreboard.expected_export)
        self.agent.actual_ap.connect(self.scoreboard.actual_export)


@pyuvm.test()
class PipeTest(uvm_test):
    """The pyuvm environment over 2,000 records of the E8M0 files."""

    def build_phase(self):
        self.env = PipeEnv("env", self)
