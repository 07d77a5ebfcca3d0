"""The pipelined unit (examples/rtl/ptovec_tcvt_e8m0_pipe.sv) as a ptovec device through cocotb 2: the
test ``serve`` answers the line protocol of the session ptovec opened (``ptovec run --dut-cmd``
or ``ptovec shrink --dut-cmd`` of examples/rtl/cocotb/pipe_device.py, which starts this simulation with
ptovec.device.launch), driving each case through the unit with ptovec.cocotb's driver and
monitor. TCVT from FP32, FP16 and BF16 to E8M0 is driven; every other case is answered
``unsupported``.
"""
import cocotb

from cocotb_pipe import SRC_TYPE_CODES, start_unit
from ptovec.cocotb import serve_device
from ptovec.device import AnswerBoard, Channel


def implemented(case):
    """The cases the unit computes: TCVT to E8M0 from the source types it decodes."""
    return case.op == "tcvt" and case.dst == "e8m0" and case.src in SRC_TYPE_CODES


@cocotb.test()
async def serve(dut):
    """Answers ptovec's session until ptovec closes it."""
    channel = Channel.from_environment()
    board = AnswerBoard(channel)
    driver, monitor = await start_unit(dut, board)
    served = await serve_device(driver, monitor, channel, accepts=implemented,
                                name="ptovec_tcvt_e8m0_pipe through cocotb")
    dut._log.info("served %d case(s) in %d clocks", served, driver.clocks)
