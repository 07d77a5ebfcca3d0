"""The oracle through the C API (``ptovec._core``, the compiled module over libptovec_c):
``eval`` (one case), ``evaluate`` (many, GIL released), ``compare`` (the gate's comparison),
``Result``, ``flag_names`` and the registry's ``version``, ``ops`` and ``input_count``. Re-exported
by the package: ``ptovec.eval`` is ``ptovec.oracle.eval`` (the package docstring gives the words,
status bits, controls and errors they share).

Each takes ``edition``, keyword-only: "0.58.3" (``DEFAULT_EDITION``, the seeds) or "2026-09" (the
newer texts: TCVT by value, the types fp64, e6m2, rcpe6m2, e2m1x2 and e1m2x2, no tquant or
tdequant; docs/semantics.md), as ``ptovec ... --edition`` takes it. ``EDITIONS`` lists them."""
from typing import NamedTuple, Sequence, Tuple, Union

import numpy as np

from . import FLAG_NAMES
from .files import DEFAULT_EDITION, EDITIONS, RMODE_NAMES

__all__ = ["Result", "RoundingMode", "CaseInputs", "BatchInputs", "EDITIONS", "DEFAULT_EDITION",
           "flag_names", "version", "ops", "input_count", "eval", "evaluate", "compare"]


#: A rounding mode: a name of RMODE_NAMES (case-insensitive) or its index 0..6.
RoundingMode = Union[str, int]
#: The input words of one case: one word (ops of one slot) or one word per slot in slot order.
CaseInputs = Union[int, Sequence[int]]
#: The input words of many cases: a 1-D array (ops of one slot), a 2-D array of shape
#: (n, slots), or one 1-D array per slot.
BatchInputs = Union[np.ndarray, Sequence[np.ndarray], Sequence[int]]


class Result(NamedTuple):
    """One case's outcome: ``word`` the result word (the destination type's encoding in its low
    bits), ``flags`` the 5 status bits (bit 0 NV .. bit 4 NX) and ``flag_names`` the names of
    the set bits in bit order (("OF", "NX") for 0x14; () for 0)."""
    word: int
    flags: int
    flag_names: Tuple[str, ...]

    def __repr__(self) -> str:
        return (f"Result(word={self.word:#x}, flags={self.flags:#04x}, "
                f"flag_names={self.flag_names!r})")


def _lib():
    """The compiled module, imported on first use (so ``ptovec.files`` works without it)."""
    try:
        from . import _core as core
    except ImportError as e:
        raise ImportError(f"ptovec: the compiled module ptovec._core is missing ({e}); install "
                          "the package: pip install . at the top of ptovec's source tree") from e
    return core


def flag_names(flags: int) -> Tuple[str, ...]:
    """The names of the status bits set in ``flags`` (bits 4:0), in bit order: 0x14 ->
    ("OF", "NX"). Raises ValueError for bits above bit 4."""
    if not 0 <= flags <= 0x1F:
        raise ValueError(f"flags {flags:#x} has bits above the 5 status bits (accepted: 0..0x1f)")
    return tuple(name for bit, name in enumerate(FLAG_NAMES) if flags >> bit & 1)


def version() -> str:
    """The version of the C library the package carries, "MAJOR.MINOR.PATCH" (the project
    version, e.g. "0.1.0")."""
    return _lib().version()


def _edition(core, edition: str) -> int:
    """The C API's code of ``edition``; ValueError naming the accepted editions for another."""
    if not isinstance(edition, str):
        raise ValueError(f"edition {edition!r} is not a string (accepted: {', '.join(EDITIONS)})")
    return core.edition_code(edition)


def ops(*, edition: str = DEFAULT_EDITION) -> Tuple[str, ...]:
    """The ops of ``ptovec list --edition EDITION``, in its order ("tcvt", "encode", ...; 2026-09
    has no tquant and tdequant). Raises ValueError for an unknown edition."""
    core = _lib()
    return tuple(core.op_names(_edition(core, edition)))


def input_count(op: str, *, edition: str = DEFAULT_EDITION) -> int:
    """The number of input words (slots) ``op`` takes (tcvt 1, shift 2, tquant 3, affine 4).
    Raises ValueError naming the accepted ops for an unknown op (and why for an op the edition
    retired), or for an unknown edition."""
    core = _lib()
    return core.op_input_count(op, _edition(core, edition))


def _type_code(core, name: str, role: str, edition: int) -> int:
    code = core.type_code(edition, name) if isinstance(name, str) else -1
    if code < 0:
        known = [core.type_name(c, edition) for c in range(64)]
        raise ValueError(f"unknown {role} type {name!r} (accepted: "
                         f"{', '.join(n for n in known if n is not None)})")
    return code


def _controls(core, rmode: RoundingMode, sat: bool) -> Tuple[int, bool]:
    if isinstance(rmode, str):
        index = core.rounding_mode(rmode)
    elif isinstance(rmode, (int, np.integer)) and not isinstance(rmode, bool):
        index = int(rmode) if 0 <= rmode < len(RMODE_NAMES) else -1
    else:
        index = -1
    if index < 0:
        raise ValueError(f"unknown rounding mode {rmode!r} (accepted: {' '.join(RMODE_NAMES)} "
                         "or 0..6)")
    if not isinstance(sat, (bool, np.bool_)) and sat not in (0, 1):
        raise ValueError(f"sat {sat!r} is not a boolean (accepted: True, False, 0, 1)")
    return index, bool(sat)


def eval(op: str, src: str, dst: str, inputs: CaseInputs, rmode: RoundingMode = "RNE",
         sat: bool = False, *, edition: str = DEFAULT_EDITION) -> Result:
    """Evaluates one case of ``op`` from type ``src`` to type ``dst`` (names as in ``ptovec
    list``, case-insensitive) under ``rmode`` and ``sat``, exactly as ``ptovec eval`` does.

    ``inputs``: the input words in slot order (``ptovec list``'s "inputs:" line), each an int in
    the low bits of its slot's type (FP16 1.5 is 0x3E00); one int for an op of one slot.
    Returns a Result (word, flags, flag_names): ``eval("tcvt", "fp16", "e8m0", 0x3E00, "RTZ")``
    is Result(word=0x7f, flags=0x10, flag_names=("NX",)); ``eval("tcvt", "fp32", "fp16",
    0x7F800000, edition="2026-09")`` (TCVT by value) is Result(word=0x7c00, flags=0x00, ...).

    Raises ValueError with the C API's message for an unknown edition, op, type or mode, a wrong
    number of inputs, an illegal pair or control (2026-09's E6M2 pairs: RNE and RNA only), a word
    wider than its type or outside the op's domain, and for a word that is not an int in
    0..2^64-1."""
    core = _lib()
    ed = _edition(core, edition)
    words = [inputs] if isinstance(inputs, (int, np.integer)) else list(inputs)
    for word in words:
        if isinstance(word, bool) or not isinstance(word, (int, np.integer)) or \
                not 0 <= word < 1 << 64:
            raise ValueError(f"input word {word!r} is not an unsigned 64-bit integer (accepted: "
                             "ints 0..2^64-1 holding the type's encoding, e.g. 0x3e00 for FP16 "
                             "1.5)")
    rmode_index, saturate = _controls(core, rmode, sat)
    word, flags = core.evaluate_one(op, _type_code(core, src, "src", ed),
                                    _type_code(core, dst, "dst", ed), rmode_index, saturate,
                                    [int(w) for w in words], ed)
    return Result(word, flags, flag_names(flags))


def _words(array: np.ndarray, what: str) -> np.ndarray:
    """``array`` as uint64 words; ValueError naming ``what`` for anything but unsigned or
    non-negative integers."""
    if array.dtype.kind not in "ui":
        raise ValueError(f"{what} has dtype {array.dtype} (accepted: unsigned or "
                         "non-negative integer words, e.g. uint64; convert values to words first)")
    if array.dtype.kind == "i" and array.size and array.min() < 0:
        raise ValueError(f"{what} holds the negative word {array.min()} (words are "
                         "unsigned: S8 -1 is 0xff)")
    return array.astype(np.uint64, copy=False)


def _input_matrix(inputs: BatchInputs) -> np.ndarray:
    """The cases' words as a C-contiguous uint64 array of shape (n, slots)."""
    if isinstance(inputs, (list, tuple)) and any(np.ndim(c) >= 1 for c in inputs):
        columns = [_words(np.asarray(c), f"inputs: slot {i}") for i, c in enumerate(inputs)]
        if any(c.ndim != 1 for c in columns) or len({c.shape for c in columns}) != 1:
            raise ValueError("inputs: one 1-D array per slot, all of one length (got shapes "
                             f"{[c.shape for c in columns]})")
        return np.stack(columns, axis=1)
    array = np.asarray(inputs)
    if array.ndim not in (1, 2):
        raise ValueError(f"inputs: an array of {array.ndim} dimensions (accepted: a 1-D array "
                         "for an op of one slot, a 2-D array of shape (n, slots), or one 1-D "
                         "array per slot)")
    words = _words(array, "inputs: the array")
    return np.ascontiguousarray(words[:, None] if words.ndim == 1 else words)


def evaluate(op: str, src: str, dst: str, inputs: BatchInputs, rmode: RoundingMode = "RNE",
             sat: bool = False, *, edition: str = DEFAULT_EDITION) -> Tuple[np.ndarray, np.ndarray]:
    """Evaluates many cases of one op, type pair and control at once, through the C API's batch
    call (ptovec_evaluate_batch) with the GIL released; case i gives what ``eval`` gives for
    case i.

    ``inputs``: the cases' input words (see ``eval``), as a 1-D array for an op of one slot, a
    2-D array of shape (n, slots), or a list with one 1-D array per slot (all of length n).
    Any unsigned or non-negative integer dtype is accepted (copied to uint64 when it is not a
    C-contiguous uint64 array).

    Returns (words, flags): ``words`` a uint64 array of n result words, ``flags`` a uint8 array
    of n status bytes (bit 0 NV .. bit 4 NX).

    Raises ValueError with the C API's message (see ``eval``; for a bad word "case N: " names
    the first bad case, and no result is returned), and for inputs that are not integer words
    or not of the accepted shapes."""
    core = _lib()
    ed = _edition(core, edition)
    matrix = _input_matrix(inputs)
    rmode_index, saturate = _controls(core, rmode, sat)
    return core.evaluate_batch(op, _type_code(core, src, "src", ed),
                               _type_code(core, dst, "dst", ed), rmode_index, saturate, matrix, ed)


def _status_bytes(array, what: str) -> np.ndarray:
    """``array`` as int64 status values; ValueError naming ``what`` for anything but integers
    0..2^63-1 (values above 0x1f are kept: they never match)."""
    values = np.asarray(array)
    if values.dtype.kind not in "ui" or (values.dtype.kind == "i" and values.size
                                          and values.min() < 0):
        raise ValueError(f"{what}: status bytes must be non-negative integers (bit 0 NV .. bit 4 "
                         f"NX), got dtype {values.dtype}")
    return values.astype(np.uint64, copy=False)


def compare(dst: str, expected_words, expected_flags, got_words, got_flags, *,
            policy: str = "word+flags", edition: str = DEFAULT_EDITION) -> np.ndarray:
    """Which answers of a device match the expected ones, as the gate compares them
    (ptovec_compare of the C API, `ptovec check --compare/--flags`): the low bits of the
    destination type's width of the words are equal, and so are the status bits the policy
    compares; bits 7:5 (and above) of a got status are always compared, so a status that sets
    them never matches.

    ``dst``: the destination type name of ``edition`` ("e8m0", "fp16", ...; "fp64" in
    2026-09). ``expected_words``,
    ``got_words``: integer arrays (or scalars) of result words; ``expected_flags``,
    ``got_flags``: integer arrays of status bytes (bit 0 NV .. bit 4 NX); all broadcast to one
    shape, e.g. the two arrays ``evaluate`` returns and a device's two arrays.
    ``policy``: "word+flags" (the default, every status bit), "word" (no status bit: a device
    without a status register) or "word+flags:" followed by bit names ("word+flags:NV,OF").
    Known differences (``--known-differences``) are the gate's, not this function's.

    Returns a numpy bool array of the broadcast shape (True: match). Raises ValueError for an
    unknown type or policy (the C API's message) and for words or statuses that are not
    non-negative integers."""
    core = _lib()
    ed = _edition(core, edition)
    width = core.type_width(ed, _type_code(core, dst, "dst", ed))
    if not isinstance(policy, str):
        raise ValueError(f"policy {policy!r} is not a string (accepted: word+flags, word, "
                         "word+flags:NV,OF, ...)")
    compared = np.uint64(core.compare_policy(policy) | ~0x1f & 0xffffffffffffffff)
    mask = np.uint64((1 << width) - 1)
    expected = _words(np.asarray(expected_words), "expected_words")
    got = _words(np.asarray(got_words), "got_words")
    words_match = ((expected ^ got) & mask) == 0
    flags_match = ((_status_bytes(expected_flags, "expected_flags")
                    ^ _status_bytes(got_flags, "got_flags")) & compared) == 0
    return np.asarray(words_match & flags_match)
