"""ptovec in a cocotb 2 testbench: a driver and a monitor for a clocked unit's valid/ready (or
valid-only) stream, feeding ``ptovec.stream.Scoreboard`` (the cases, their expected results and
the end-of-test check; pure Python, documented there).

    from cocotb.clock import Clock
    from ptovec.cocotb import StreamDriver, StreamMonitor, reset, run_stream
    from ptovec.stream import Scoreboard, cases_from_vectors

    Clock(dut.clk, 10, unit="ns").start()
    await reset(dut.clk, dut.rst_n)
    board = Scoreboard(log=dut._log.error)
    driver = StreamDriver(dut.clk, valid=dut.in_valid, ready=dut.in_ready, tag=dut.in_tag,
                          fields={dut.in_value: lambda c: c.inputs[0],
                                  dut.in_rmode: lambda c: c.rmode, dut.in_sat: lambda c: c.sat},
                          board=board)
    monitor = StreamMonitor(dut.clk, valid=dut.out_valid, ready=dut.out_ready, tag=dut.out_tag,
                            word=dut.out_code, flags=dut.out_fflags, flag_order="riscv",
                            board=board, backpressure=0.3)
    await run_stream(driver, monitor, cases_from_vectors(["vectors/smoke/tcvt_fp16_e8m0.bin"]))
    outcome = board.finish("driven")   # ptovec check + ptovec coverage of what was driven

Timing. Both sides act once a clock, away from the rising edge: at the falling edge they write
(the driver its case and in_valid, the monitor out_ready), then in the ReadOnly phase they read
the settled signals: a case is taken when valid and ready are both 1 there (it enters at the next
rising edge), a result likewise. So the unit must register its inputs and change its outputs on
rising edges only, as a synchronous pipeline does; nothing depends on how the simulator orders
events at the edge (Icarus and Verilator behave alike). The latency is free: the scoreboard pairs
each result with the oldest outstanding case, and checks the tag when the unit returns one.

The driver keeps in_valid high while a case waits (a valid/ready source may not take a case back)
and, with ``idle``, leaves random clocks empty between cases; the monitor lowers out_ready on a
random share ``backpressure`` of the clocks. Both draw from their own seeded random.Random, so a
run repeats.

Status ports in another bit order than ptovec's (RISC-V fflags: bit 0 NX .. bit 4 NV) are named
by ``flag_order`` ("spec", "riscv", "ieee", "testfloat", "mxcsr"; ``ptovec.flags``); a unit
without a status port gives ``flags=None`` and a Scoreboard(compare="word").
"""
import random
from typing import Callable, Iterable, Mapping, Optional

from cocotb.triggers import FallingEdge, ReadOnly

from .flags import flag_order as _flag_positions
from .flags import flags_to_spec
from .stream import Case, Scoreboard

__all__ = ["StreamDriver", "StreamMonitor", "reset", "run_stream", "serve_device"]

_END = object()


def _read(handle, what: str) -> int:
    """The unsigned value of a signal; AssertionError naming it (its hierarchical path) when it
    holds X or Z."""
    value = handle.value
    try:
        return value.to_unsigned() if hasattr(value, "to_unsigned") else int(value)
    except ValueError:
        raise AssertionError(f"{what} ({_path(handle)}) is {value}: not a 0/1 value") from None


def _path(handle) -> str:
    """The hierarchical path of a cocotb 2 handle ("pipe.in_ready"). cocotb 2 has no ``name``
    property (``dut.name`` is the design's child called "name"): its public names of a handle
    are ``_path`` and ``_name``, documented as public (":meta public:" in cocotb.handle)
    despite the underscore that keeps them apart from the design's names. Any other object
    (a stand-in signal of a unit test) is named by its repr."""
    path = getattr(handle, "_path", None)
    return path if isinstance(path, str) else repr(handle)


async def reset(clk, rst, *, clocks: int = 2, active_low: bool = True) -> None:
    """Holds ``rst`` active (0 when ``active_low``) for ``clocks`` rising edges of ``clk``,
    then releases it at a falling edge."""
    await FallingEdge(clk)
    rst.value = 0 if active_low else 1
    for _ in range(clocks):
        await FallingEdge(clk)
    rst.value = 1 if active_low else 0


class StreamDriver:
    """Offers cases on an input stream, one a clock when the unit is ready.

    ``clk`` the clock; ``valid`` the input-valid signal; ``ready`` the unit's input-ready (None:
    a valid-only input, every offered case is taken); ``tag`` a signal the unit returns with the
    result (None: order is checked by count only); ``fields`` {signal: function of a Case giving
    its value} (e.g. ``{dut.in_value: lambda c: c.inputs[0], dut.in_rmode: lambda c: c.rmode}``);
    ``board`` the Scoreboard told of each case taken; ``idle`` the chance (0..1) of an empty clock
    before each case; ``seed`` of the idle draws.

    Raises ValueError for ``idle`` outside [0, 1)."""

    def __init__(self, clk, *, valid, fields: Mapping[object, Callable[[Case], int]],
                 board: Scoreboard, ready=None, tag=None, idle: float = 0.0, seed: int = 1):
        if not 0.0 <= idle < 1.0:
            raise ValueError(f"idle {idle} is not a probability below 1 (accepted: 0 <= idle < 1)")
        self.clk, self.valid, self.ready, self.tag = clk, valid, ready, tag
        self.fields = list(fields.items())
        self.board = board
        self.idle = idle
        self.rng = random.Random(seed)
        self.tag_mask = (1 << len(tag)) - 1 if tag is not None else 0
        self.taken = 0
        self.clocks = 0

    async def drive(self, cases: Iterable[Optional[Case]]) -> int:
        """Offers every case of ``cases`` in order until the unit took each; returns how many.
        A live source may yield None when it has no case yet: that clock stays empty, and the
        source is asked again at the next. Leaves valid low."""
        it = iter(cases)
        current = next(it, _END)
        offering = False
        self.valid.value = 0
        while current is not _END:
            await FallingEdge(self.clk)
            self.clocks += 1
            if current is None:  # a live source with no case yet: an empty clock
                self.valid.value = 0
                await ReadOnly()
                current = next(it, _END)
                continue
            if not offering and (self.idle == 0.0 or self.rng.random() >= self.idle):
                for handle, value_of in self.fields:
                    handle.value = int(value_of(current))
                if self.tag is not None:
                    self.tag.value = self.taken & self.tag_mask
                self.valid.value = 1
                offering = True
            elif not offering:
                self.valid.value = 0
            await ReadOnly()
            if offering and (self.ready is None or _read(self.ready, "in_ready") == 1):
                self.board.expect(current, self.taken & self.tag_mask
                                  if self.tag is not None else None)
                self.taken += 1
                offering = False
                current = next(it, _END)
        await FallingEdge(self.clk)
        self.valid.value = 0
        return self.taken


class StreamMonitor:
    """Takes results off an output stream and hands them to the scoreboard.

    ``valid`` the output-valid signal; ``ready`` the output-ready the monitor drives (None: a
    valid-only output, no back-pressure); ``tag`` the returned tag (None: none); ``word`` the
    result word; ``flags`` the status port (None: the unit has none, flags read as 0; use
    Scoreboard(compare="word")) in bit order ``flag_order``; ``supported`` a signal that is 0 for
    a case the unit does not implement (None: every case is); ``backpressure`` the chance (0..1)
    of holding ready low on a clock; ``seed`` of those draws.

    Raises ValueError for an unknown flag order, ``backpressure`` outside [0, 1), or no flags
    port with a scoreboard that compares status bits."""

    def __init__(self, clk, *, valid, word, board: Scoreboard, ready=None, tag=None,
                 flags=None, flag_order: str = "spec", supported=None,
                 backpressure: float = 0.0, seed: int = 2):
        if not 0.0 <= backpressure < 1.0:
            raise ValueError(f"backpressure {backpressure} is not a probability below 1 "
                             "(accepted: 0 <= backpressure < 1)")
        _flag_positions(flag_order)  # ValueError naming the accepted orders
        if flags is None and board.flags_mask != 0:
            raise ValueError("the unit has no status port (flags=None) but the scoreboard "
                             f"compares status bits ({board.compare}): use "
                             "Scoreboard(compare='word')")
        self.clk, self.valid, self.ready, self.tag = clk, valid, ready, tag
        self.word, self.flags, self.supported = word, flags, supported
        self.order = flag_order
        self.board = board
        self.backpressure = backpressure
        self.rng = random.Random(seed)
        self.received = 0

    async def monitor(self) -> None:
        """Runs until cancelled (``run_stream`` starts and stops it)."""
        while True:
            await FallingEdge(self.clk)
            if self.ready is not None:
                self.ready.value = 0 if (self.backpressure and
                                         self.rng.random() < self.backpressure) else 1
            await ReadOnly()
            if _read(self.valid, "out_valid") != 1 or (
                    self.ready is not None and _read(self.ready, "out_ready") != 1):
                continue
            self.received += 1
            tag = _read(self.tag, "out_tag") if self.tag is not None else None
            if self.supported is not None and _read(self.supported, "supported") != 1:
                self.board.observe(None, None, tag)
                continue
            status = (flags_to_spec(_read(self.flags, "flags"), self.order)
                      if self.flags is not None else 0)
            self.board.observe(_read(self.word, "word"), status, tag)


async def run_stream(driver: StreamDriver, monitor: StreamMonitor, cases: Iterable[Case], *,
                     drain_clocks: int = 1000) -> int:
    """Drives ``cases`` through the unit and waits for every result (``driver.board``: a
    Scoreboard, or any object with its ``expect``, ``observe``, ``outstanding``, ``oldest`` and
    ``flags_mask``, such as a UVM analysis-port adapter, examples/rtl/cocotb/pyuvm_pipe.py): the monitor runs
    meanwhile; after the last case is taken, up to ``drain_clocks`` clocks pass without a
    result before the unit is declared stuck. Returns the number of cases taken. Raises
    AssertionError naming the outstanding cases when the unit stops answering."""
    import cocotb
    task = cocotb.start_soon(monitor.monitor())
    try:
        taken = await driver.drive(cases)
        board = driver.board
        quiet = 0
        seen = monitor.received
        while board.outstanding:
            await FallingEdge(driver.clk)
            quiet = 0 if monitor.received != seen else quiet + 1
            seen = monitor.received
            if quiet > drain_clocks:
                oldest = board.oldest()
                raise AssertionError(
                    f"{board.outstanding} case(s) outstanding and no result for {drain_clocks} "
                    f"clocks (the oldest: {oldest.describe() if oldest else '?'}): the unit "
                    "lost or holds results")
        return taken
    finally:
        task.cancel()


async def serve_device(driver: StreamDriver, monitor: StreamMonitor, channel, *, name: str,
                       accepts: Callable = lambda case: True, drain_clocks: int = 1000) -> int:
    """Makes the unit a ptovec device: answers the session of ``channel`` (a
    ``ptovec.device.Channel``, usually ``Channel.from_environment()`` in a simulation that
    ``ptovec.device.launch`` started for ``ptovec run --dut-cmd`` or ``ptovec shrink --dut-cmd``)
    until ptovec ends it. ``driver`` and ``monitor`` share ``driver.board``, a
    ``ptovec.device.AnswerBoard`` of the same channel; ``name`` names the device in ptovec's
    reports; ``accepts(protocol_case)`` is False for the cases the unit does not implement (they
    are answered ``unsupported`` without being driven).

    The pipeline stays full while ptovec streams cases (``run``), and a case is answered as soon
    as its result is out when ptovec sends one at a time (``shrink``); while no case waits and
    none is outstanding the simulation blocks in ``channel.wait()`` (simulated time stands
    still). A unit that stops answering gets its oldest case answered ``error`` (ptovec then stops
    quoting it) and raises AssertionError. Returns the number of cases answered."""
    from .device import parse_case
    board = driver.board
    channel.hello(name)

    def source():
        while True:
            lines = channel.poll()
            if lines is None:
                return
            if not lines:
                channel.flush()
                if board.outstanding == 0:
                    channel.wait()
                else:
                    yield None
                continue
            for line in lines:
                pc = parse_case(line)
                if accepts(pc):
                    yield board.case_of(pc)
                else:
                    board.skip(pc)

    try:
        await run_stream(driver, monitor, source(), drain_clocks=drain_clocks)
    except AssertionError as failure:
        board.fail_oldest(f"the simulation failed: {failure}")
        channel.close()
        raise
    channel.close()
    return board.served
