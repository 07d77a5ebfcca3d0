"""Flag orders: the bit order of a status port, and conversion to and from ptovec's (pure Python
and numpy; no compiled module needed, so a cocotb testbench can use it from the source tree).

ptovec's status, the specification's order ("spec"): bit 0 NV, 1 DZ, 2 OF, 3 UF, 4 NX. RISC-V
fflags, SoftFloat and TestFloat use the reverse ("riscv", also "ieee", "softfloat", "testfloat"):
bit 0 NX, 1 UF, 2 OF, 3 DZ, 4 NV. x86 MXCSR ("mxcsr") has bits 5:0 PE UE OE ZE DE IE; its DE
(denormal operand) has no counterpart and is dropped. A RISC-V port copied straight into a ptovec
status swaps NV with NX and DZ with UF. The same table as ptovec_dut.h's ptovec_dut_flags_to_spec
and the C API's ptovec_flags_to_spec (docs/devices.md, "Flag order"): include/ptovec/facts.h's,
whose copy python/ptovec/_facts.py is generated.

    flags_to_spec(0x01, "riscv")   # 0x10 (NX)
    flags_from_spec(0x14, "riscv") # 0x05 (OF|NX in fflags)
"""
from typing import Dict, Tuple, Union

import numpy as np

from . import _facts

__all__ = ["FLAG_ORDERS", "flag_order", "flags_to_spec", "flags_from_spec"]

#: The accepted order names and the bit each of ptovec's NV DZ OF UF NX sits at in that order
#: (ptovec._facts, generated from include/ptovec/facts.h).
FLAG_ORDERS: Dict[str, Tuple[int, int, int, int, int]] = _facts.FLAG_ORDERS

Bits = Union[int, np.ndarray]


def flag_order(name: str) -> Tuple[int, int, int, int, int]:
    """The positions of NV DZ OF UF NX in the order called ``name`` (case-insensitive). Raises
    ValueError naming the accepted names."""
    key = str(name).lower()
    if key not in FLAG_ORDERS:
        raise ValueError(f"unknown flag order {name!r}: accepted {', '.join(FLAG_ORDERS)}")
    return FLAG_ORDERS[key]


def flags_to_spec(bits: Bits, order: str = "riscv") -> Bits:
    """A port's status ``bits`` in flag order ``order`` as ptovec's 5-bit status (bit 0 NV ..
    bit 4 NX). ``bits`` is an int or a numpy array of unsigned integers (the result has its
    type); bits of no flag of the order are ignored."""
    positions = flag_order(order)
    out = bits & 0  # an int 0, or zeros of the array's shape and type
    for spec_bit, port_bit in enumerate(positions):
        out = out | (((bits >> port_bit) & 1) << spec_bit)
    return out


def flags_from_spec(status: Bits, order: str = "riscv") -> Bits:
    """ptovec's status (bits 4:0; higher bits ignored) as a port's bits in flag order ``order``
    (MXCSR's DE 0). ``status`` is an int or a numpy array of unsigned integers."""
    positions = flag_order(order)
    out = status & 0
    for spec_bit, port_bit in enumerate(positions):
        out = out | (((status >> spec_bit) & 1) << port_bit)
    return out
