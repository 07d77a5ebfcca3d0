"""ptovec for Python: the exact oracle of the PTO ISA's numeric profile, its vector files and its
generator.

    import ptovec
    ptovec.eval("tcvt", "fp16", "e8m0", 0x3E00, rmode="RTZ")     # Result(word=0x7f, flags=0x10, ...)
    words, flags = ptovec.evaluate("tcvt", "fp16", "e8m0", np.arange(65536, dtype=np.uint64))
    header, records = ptovec.read_vectors("vectors/default/tcvt_fp16_e8m0.bin")
    ptovec.generate("out", op="tcvt", src="fp16", dst="e8m0")     # as `ptovec generate`

``eval`` and ``evaluate`` call ptovec's C API (libptovec_c.so.0, include/ptovec/ptovec.h) through
the compiled module ``ptovec._core``: the same op registry, domain checks and one-line error
messages as ``ptovec eval``. ``generate`` runs the ``ptovec`` program the package carries
(``executable()``), so its files are the command line's, byte for byte. ``read_vectors`` and the
other readers are ``ptovec.files`` (pure Python and numpy; they work without the compiled module,
as ``python -m ptovec.files`` runs them from the source tree).

The modules, by concern (this file only imports and re-exports them):
    ptovec.oracle    eval, evaluate, compare, Result, flag_names, version, ops, input_count
    ptovec.program   executable, generate (the ptovec program the package carries)
    ptovec.files     the vector and results file readers (read_vectors, read_vector_file, ...)
    ptovec.flags     flag orders (flags_to_spec, flags_from_spec, FLAG_ORDERS)
    ptovec.stream, ptovec.cocotb, ptovec.device   testbenches and devices (docs/rtl.md)

Words. Every input and result is an unsigned integer holding the type's encoding in its low bits
(``ptovec list --types`` gives each type's width: FP32 32, FP16 and BF16 16, E8M0, E4M3, HiF8, S8
and U8 8, FP19 19, S4X2 and U4X2 4, ...); bits above the width must be zero. Integer types are two's
complement in their width (S8 -126 is 0x82).

Status flags. The 5 status bits of one operation: bit 0 NV (invalid), 1 DZ (divide by zero),
2 OF (overflow), 3 UF (underflow), 4 NX (inexact) (``FLAG_NAMES``; spec-notes section 3).
RISC-V fflags and TestFloat use the reverse order: ``flags_to_spec(bits, "riscv")`` and
``flags_from_spec`` convert (``ptovec.flags``).

Controls. ``rmode`` is a rounding mode name (``RMODE_NAMES``: RNE RTM RTP RTZ RNA RTO RHB,
case-insensitive) or its index 0..6; ``sat`` selects saturation. Ops without controls (shift,
qparam) take only RNE with Sat off.

Editions. Every function takes ``edition`` (keyword): "0.58.3" (``DEFAULT_EDITION``, the seeds)
or "2026-09" (the newer texts: TCVT by value, the types fp64, e6m2, rcpe6m2, e2m1x2, e1m2x2, no
tquant or tdequant; docs/semantics.md), as ``ptovec --edition`` does: ``ptovec.eval("tcvt",
"fp32", "fp16", 0x7F800000, edition="2026-09")`` is +Inf, 0x7c00, no flag. The readers take the
edition from the file (``edition_of(header)``) and refuse one they do not know, or another than
their ``edition=`` argument.

Errors. Bad input (an unknown op, type or mode, a wrong number of input slots, an illegal pair or
control, a word wider than its type, an input outside the seed function's domain) raises
ValueError with the C API's message, the line ``ptovec eval`` prints after "ptovec: error: ".
"""
import sys

try:
    import numpy as np  # noqa: F401  (only to fail early, with one line, without it)
except ImportError as _error:
    _NEEDS_NUMPY = "ptovec: needs numpy (Debian: apt install python3-numpy; PyPI: pip install numpy)"
    if sys.argv[:1] == ["-m"]:  # python -m ptovec.files ...: one line and exit 1, no traceback
        sys.exit(_NEEDS_NUMPY)
    raise ImportError(_NEEDS_NUMPY) from _error

#: The status bits by bit index: bit 0 NV .. bit 4 NX (generated from include/ptovec/facts.h).
from ._facts import FLAG_NAMES  # noqa: E402

from . import files  # noqa: E402  (after the numpy guard and FLAG_NAMES, which .oracle imports)
from .files import (DEFAULT_EDITION, EDITIONS, RMODE_NAMES, edition_of,  # noqa: E402
                    read_vector_file, read_vectors)
from .flags import FLAG_ORDERS, flags_from_spec, flags_to_spec  # noqa: E402
from .oracle import (BatchInputs, CaseInputs, Result, RoundingMode, compare,  # noqa: E402
                     eval, evaluate, flag_names, input_count, ops, version)
from .program import executable, generate  # noqa: E402

__all__ = ["FLAG_NAMES", "FLAG_ORDERS", "flags_from_spec", "flags_to_spec", "RMODE_NAMES", "Result", "compare", "eval", "evaluate", "flag_names", "generate",
           "EDITIONS", "DEFAULT_EDITION", "edition_of",
           "read_vectors", "read_vector_file", "executable", "version", "ops", "input_count",
           "files"]
