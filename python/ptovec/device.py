"""A Python device under test for ``ptovec run --dut-cmd`` and ``ptovec shrink --dut-cmd``: the
line protocol of schemas/dut-protocol.md (version 1), and a launcher that lets a simulation in a
child process (a cocotb testbench, ``ptovec.cocotb.serve_device``) answer it.

Protocol
    ``ProtocolCase``      one case line: index, op, src, dst, rmode (0..6), sat, input words
    ``parse_case(line)``  a case line -> ProtocolCase (ValueError naming what is wrong)
    ``Channel``           the case lines in, the answer lines out, over two file descriptors:
                          ``hello``, non-blocking ``poll``, blocking ``wait``, ``answer``,
                          ``flush``
    ``AnswerBoard``       for a pipelined device: cases in the order the unit took them, results
                          in the same order (checked by tag), answers written in case order
                          with the cases the device does not implement among them
Launcher
    ``launch(simulate)``  the device program's main: two FIFOs in a temporary folder, named to
                          the simulation by the environment (``CASES_ENV``, ``ANSWERS_ENV``),
                          ptovec's stdin copied into the first and the second copied to ptovec's
                          stdout; the simulation's own output goes to stderr (ptovec quotes its
                          last lines when the device fails)

The simulation runs in another process because a simulator owns its process's stdin and stdout
(cocotb's log goes to stdout); ``Channel.from_environment()`` opens the FIFOs there.

Words are unsigned ints holding the type's encoding in their low bits; status bytes are ptovec's
order, bit 0 NV, 1 DZ, 2 OF, 3 UF, 4 NX.
"""
import os
import select
import shutil
import sys
import tempfile
import threading
from pathlib import Path
from collections import deque
from typing import Callable, Deque, Dict, List, NamedTuple, Optional, Tuple

from .files import RMODE_NAMES
from .stream import Case, Pair

__all__ = ["PROTOCOL_VERSION", "CASES_ENV", "ANSWERS_ENV", "ProtocolCase", "parse_case",
           "answer_line", "Channel", "AnswerBoard", "launch"]

#: The protocol version this module speaks (the hello line's number).
PROTOCOL_VERSION = 1
#: The environment variables naming the FIFOs of the case lines and of the answer lines.
CASES_ENV = "PTOVEC_DEVICE_CASES"
ANSWERS_ENV = "PTOVEC_DEVICE_ANSWERS"


class ProtocolCase(NamedTuple):
    """One case line: ``index`` (0 for the session's first case), ``op``, ``src``, ``dst``
    (ptovec's names), ``rmode`` (0 RNE .. 6 RHB, ``RMODE_NAMES``), ``sat``, ``inputs`` the input
    words in slot order and ``bits`` each one's width (4 bits a hex digit: ptovec pads every word
    to its slot type's width)."""
    index: int
    op: str
    src: str
    dst: str
    rmode: int
    sat: bool
    inputs: Tuple[int, ...]
    bits: Tuple[int, ...]


def parse_case(line: str) -> ProtocolCase:
    """``<index> <op> <src> <dst> <rmode> <sat> <in0> [<in1> ...]`` -> ProtocolCase. Raises
    ValueError quoting the line and naming the field that is not what the protocol allows."""
    fields = line.split()
    if len(fields) < 7:
        raise ValueError(f"case line {line!r} has {len(fields)} field(s); a case has at least 7 "
                         "(index op src dst rmode sat in0 ...)")
    index, op, src, dst, rmode, sat = fields[:6]
    if not index.isdigit():
        raise ValueError(f"case line {line!r}: index {index!r} is not a decimal number")
    if rmode not in RMODE_NAMES:
        raise ValueError(f"case line {line!r}: rounding mode {rmode!r} is not one of "
                         f"{' '.join(RMODE_NAMES)}")
    if sat not in ("0", "1"):
        raise ValueError(f"case line {line!r}: sat {sat!r} is not 0 or 1")
    words, bits = [], []
    for text in fields[6:]:
        digits = text[2:]
        if not text.startswith("0x") or not digits or any(
                c not in "0123456789abcdefABCDEF" for c in digits):
            raise ValueError(f"case line {line!r}: input {text!r} is not 0x and hex digits")
        words.append(int(digits, 16))
        bits.append(4 * len(digits))
    return ProtocolCase(int(index), op, src, dst, RMODE_NAMES.index(rmode), sat == "1",
                        tuple(words), tuple(bits))


def answer_line(index: int, word: Optional[int], flags: Optional[int]) -> str:
    """The answer to case ``index``: ``<index> 0x<word> 0x<flags>``, or ``<index> unsupported``
    when ``word`` is None. Raises ValueError for flags outside 0..0x1f or a negative word."""
    if word is None:
        return f"{index} unsupported"
    if word < 0 or flags is None or not 0 <= flags <= 0x1F:
        raise ValueError(f"answer to case {index}: word {word} and flags {flags} are not an "
                         "unsigned word and a status of 0..0x1f")
    return f"{index} 0x{word:x} 0x{flags:02x}"


class Channel:
    """The device's side of a session: case lines read from ``fd_in``, answer lines written to
    ``fd_out`` (file descriptors; ``fd_in`` is made non-blocking).

    ``hello(name)`` reads ptovec's hello and answers it; ``poll()`` returns the complete case
    lines that have arrived (possibly none) without waiting, or None once ptovec closed its side
    and every line was returned; ``wait()`` blocks until more input (or the end) arrives;
    ``answer(line)`` queues an answer and ``flush()`` writes the queue: a device must flush
    before it waits (ptovec may wait for every answer before it sends more)."""

    def __init__(self, fd_in: int, fd_out: int):
        self.fd_in, self.fd_out = fd_in, fd_out
        os.set_blocking(fd_in, False)
        self._ready: List[str] = []  # complete lines read with the hello, not yet returned
        self._pending = b""
        self._ended = False
        self._out: List[str] = []

    @classmethod
    def from_environment(cls) -> "Channel":
        """Opens the FIFOs ``launch`` named in CASES_ENV and ANSWERS_ENV. Raises KeyError
        naming the variable when the process was not started by ``launch``."""
        for name in (CASES_ENV, ANSWERS_ENV):
            if name not in os.environ:
                raise KeyError(f"{name} is not set: this simulation was not started by "
                               "ptovec.device.launch (a --dut-cmd device program)")
        fd_in = os.open(os.environ[CASES_ENV], os.O_RDONLY)
        fd_out = os.open(os.environ[ANSWERS_ENV], os.O_WRONLY)
        return cls(fd_in, fd_out)

    def poll(self) -> Optional[List[str]]:
        lines, self._ready = self._ready, []
        while not self._ended:
            try:
                chunk = os.read(self.fd_in, 1 << 20)
            except BlockingIOError:
                break
            if not chunk:
                self._ended = True
                break
            parts = (self._pending + chunk).split(b"\n")
            self._pending = parts.pop()
            lines.extend(p.decode("ascii", "replace").rstrip("\r") for p in parts)
        if self._ended and not lines:
            if self._pending:
                raise ValueError(f"ptovec's input ends inside a line: {self._pending[:80]!r}")
            return None
        return lines

    def wait(self) -> None:
        if not self._ended:
            select.select([self.fd_in], [], [])

    def hello(self, name: str) -> None:
        """Reads ``ptovec-dut 1`` and answers ``ptovec-dut 1 NAME``. Raises ValueError for another
        first line or version, EOFError when ptovec closed the session before its hello."""
        while True:
            lines = self.poll()
            if lines is None:
                raise EOFError("ptovec closed the session before its hello line")
            if lines:
                break
            self.wait()
        first, rest = lines[0], lines[1:]
        if first.split() != ["ptovec-dut", str(PROTOCOL_VERSION)]:
            raise ValueError(f"the first line is {first!r}, not ptovec's hello "
                             f"'ptovec-dut {PROTOCOL_VERSION}'")
        self._ready = rest
        self.answer(f"ptovec-dut {PROTOCOL_VERSION} {name}")
        self.flush()

    def answer(self, line: str) -> None:
        self._out.append(line)
        if len(self._out) >= 4096:
            self.flush()

    def flush(self) -> None:
        data = "".join(line + "\n" for line in self._out).encode("ascii")
        self._out.clear()
        view = memoryview(data)
        while view:
            view = view[os.write(self.fd_out, view):]

    def close(self) -> None:
        """Writes what is queued and closes both descriptors."""
        self.flush()
        os.close(self.fd_out)
        os.close(self.fd_in)


class AnswerBoard:
    """Answers a session's cases in order while a pipelined unit computes them: the board
    ``ptovec.cocotb``'s StreamDriver and StreamMonitor are given in ``serve_device`` (it has the
    Scoreboard's ``expect``, ``observe``, ``outstanding``, ``oldest`` and ``flags_mask``).

    ``channel`` the session; ``flags`` False for a unit without a status port (every answer's
    status is then 0x00: gate it with ``--compare word``). ``case_of(pc)`` gives the Case the
    driver offers for a ProtocolCase; ``skip(pc)`` answers one the unit does not implement
    (``unsupported``) in its place among the others. A result whose tag is not its case's raises
    AssertionError naming both (``serve_device`` answers the case with an ``error`` line)."""

    def __init__(self, channel: Channel, *, flags: bool = True):
        self.channel = channel
        self.flags_mask = 0x1F if flags else 0
        self.compare = "word+flags" if flags else "word"
        self._order: Deque[list] = deque()    # [index, answer or None], in case order
        self._waiting: Deque[tuple] = deque()  # (entry, case, tag) taken, no result yet
        self._pairs: Dict[tuple, Pair] = {}
        self.served = 0

    def case_of(self, pc: "ProtocolCase") -> Case:
        key = (pc.op, pc.src, pc.dst, pc.bits)
        pair = self._pairs.get(key)
        if pair is None:
            pair = self._pairs[key] = Pair(pc.op, pc.src, pc.dst, "", pc.bits, 0, {},
                                           "ptovec-dut")
        return Case(pc.inputs, pc.rmode, pc.sat, 0, 0, pair, pc.index)

    def skip(self, pc: "ProtocolCase") -> None:
        self._order.append([pc.index, f"{pc.index} unsupported"])
        self._release()

    def expect(self, case: Case, tag: Optional[int] = None) -> None:
        entry = [case.index, None]
        self._order.append(entry)
        self._waiting.append((entry, case, tag))

    @property
    def outstanding(self) -> int:
        return len(self._waiting)

    def oldest(self) -> Optional[Case]:
        return self._waiting[0][1] if self._waiting else None

    def observe(self, word: Optional[int], flags: Optional[int],
                tag: Optional[int] = None) -> None:
        if not self._waiting:
            raise AssertionError(f"a result (word {word}, tag {tag}) arrived with no case "
                                 "outstanding")
        entry, case, sent = self._waiting[0]
        if tag is not None and sent is not None and tag != sent:
            raise AssertionError(f"the result for case {case.index} ({case.describe()}) came "
                                 f"back with tag {tag}, not its tag {sent}: out of order")
        self._waiting.popleft()
        entry[1] = answer_line(case.index, word, (flags or 0) & self.flags_mask
                               if word is not None else None)
        self._release()

    def fail_oldest(self, why: str) -> None:
        """Answers the oldest case without a result with ``error WHY`` (ptovec stops and quotes
        it), after the answers before it."""
        if self._waiting:
            entry = self._waiting[0][0]
            entry[1] = f"{entry[0]} error {' '.join(why.split())}"
            self._release()

    def _release(self) -> None:
        while self._order and self._order[0][1] is not None:
            self.channel.answer(self._order.popleft()[1])
            self.served += 1


def _copy(source: int, path: Path, to_fifo: bool) -> None:
    """Copies ``source`` (a descriptor) into the FIFO ``path`` or the FIFO into it, to the end."""
    fifo = os.open(path, os.O_WRONLY if to_fifo else os.O_RDONLY)
    src, dst = (source, fifo) if to_fifo else (fifo, source)
    try:
        while True:
            chunk = os.read(src, 1 << 20)
            if not chunk:
                break
            view = memoryview(chunk)
            while view:
                view = view[os.write(dst, view):]
    except BrokenPipeError:
        pass  # the other side ended: the simulation, or ptovec, reports why
    finally:
        os.close(fifo)


def launch(simulate: Callable[[Dict[str, str]], int]) -> int:
    """The main of a ``--dut-cmd`` program whose device is a simulation in a child process.

    Makes the two FIFOs, starts the copies (stdin -> cases, answers -> stdout) in threads, points
    this process's stdout at stderr while ``simulate(env)`` runs (its children inherit that, so
    a simulator's output cannot corrupt the answers), and returns ``simulate``'s value (the exit
    status: 0 when the simulation ended normally). ``env`` holds CASES_ENV and ANSWERS_ENV, for
    the simulation's environment. A simulation that never opens the FIFOs (it failed to start)
    leaves ptovec's side closed, so ptovec reports the device's exit and its stderr."""
    folder = Path(tempfile.mkdtemp(prefix="ptovec-device-"))
    cases, answers = folder / "cases", folder / "answers"
    os.mkfifo(cases)
    os.mkfifo(answers)
    sys.stdout.flush()
    stdout = os.dup(1)
    os.dup2(2, 1)
    stdin = os.dup(0)
    null = os.open(os.devnull, os.O_RDONLY)
    os.dup2(null, 0)
    os.close(null)
    feed = threading.Thread(target=_copy, args=(stdin, cases, True), daemon=True)
    back = threading.Thread(target=_copy, args=(stdout, answers, False), daemon=True)
    feed.start()
    back.start()
    try:
        status = simulate({CASES_ENV: str(cases), ANSWERS_ENV: str(answers)})
    finally:
        # Ends a copy still waiting in open() because the simulation never opened its FIFO: the
        # other end opened and closed at once (ENXIO when nobody waits: nothing to end).
        for path, mode in ((answers, os.O_WRONLY), (cases, os.O_RDONLY)):
            try:
                os.close(os.open(path, mode | os.O_NONBLOCK))
            except OSError:
                pass
        back.join(timeout=10)
        os.close(stdout)
        shutil.rmtree(folder, ignore_errors=True)
    return status
