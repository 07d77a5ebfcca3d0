/* ptovec/facts.h: the facts every side of ptovec shares, written once (issue 39). Plain C99
 * macros, nothing to link: the device ABI (ptovec_dut.h) and the C API (ptovec/ptovec.h) define
 * their public constants from them, the oracle, generator and tools read them, and the Python
 * package's python/ptovec/_facts.py is generated from them (tests/tools/facts_test.cpp fails,
 * printing the text to copy, when it differs; it also checks the copies the docs keep).
 *
 * The values are a stable interface: vector and results files, devices and the C API rely on
 * them.
 */
#ifndef PTOVEC_FACTS_H
#define PTOVEC_FACTS_H

/* The 5-bit status of one operation (spec-notes section 3), the specification's order: bit 0 NV
 * (invalid), 1 DZ (divide by zero), 2 OF (overflow), 3 UF (underflow), 4 NX (inexact). */
#define PTOVEC_FACTS_STATUS_NV 0x01u
#define PTOVEC_FACTS_STATUS_DZ 0x02u
#define PTOVEC_FACTS_STATUS_OF 0x04u
#define PTOVEC_FACTS_STATUS_UF 0x08u
#define PTOVEC_FACTS_STATUS_NX 0x10u
#define PTOVEC_FACTS_STATUS_ALL 0x1Fu
#define PTOVEC_FACTS_STATUS_BITS 5
/* The names of bits 0 .. 4, an initializer list. */
#define PTOVEC_FACTS_STATUS_NAMES "NV", "DZ", "OF", "UF", "NX"

/* Rounding modes in NumericRoundingMode's order (spec-notes section 2): the mode index of
 * ptovec's files, devices and the C API (not the 3-bit bundle RMode field encoding). */
#define PTOVEC_FACTS_RNE 0
#define PTOVEC_FACTS_RTM 1
#define PTOVEC_FACTS_RTP 2
#define PTOVEC_FACTS_RTZ 3
#define PTOVEC_FACTS_RNA 4
#define PTOVEC_FACTS_RTO 5
#define PTOVEC_FACTS_RHB 6
#define PTOVEC_FACTS_MODES 7
/* The names of modes 0 .. 6, an initializer list. */
#define PTOVEC_FACTS_MODE_NAMES "RNE", "RTM", "RTP", "RTZ", "RNA", "RTO", "RHB"

/* The controls of an op that takes them: every mode with Sat off and on (a vector file lists
 * them mode-major, Sat off first). An op without controls has one (RNE, Sat off). */
#define PTOVEC_FACTS_CONTROLS (PTOVEC_FACTS_MODES * 2)

/* Flag orders: the bit order of a status port (docs/devices.md, "Flag order"). SPEC, the
 * specification's: bit 0 NV .. bit 4 NX. RISCV (RISC-V fflags, SoftFloat, TestFloat): the
 * reverse, bit 0 NX .. bit 4 NV. MXCSR, x86's bits 5:0 PE UE OE ZE DE IE (DE dropped). */
#define PTOVEC_FACTS_FLAG_ORDER_SPEC 0
#define PTOVEC_FACTS_FLAG_ORDER_RISCV 1
#define PTOVEC_FACTS_FLAG_ORDER_MXCSR 2
#define PTOVEC_FACTS_FLAG_ORDERS 3
/* clang-format off */
/* The port bit of NV, DZ, OF, UF and NX in each order, indexed by order: an initializer of a
 * [PTOVEC_FACTS_FLAG_ORDERS][PTOVEC_FACTS_STATUS_BITS] array. */
#define PTOVEC_FACTS_FLAG_ORDER_BITS \
  {0, 1, 2, 3, 4},                   \
  {4, 3, 2, 1, 0},                   \
  {0, 2, 3, 4, 5}
/* The accepted order names (lower case; matched case-insensitively) and their orders, as
 * X(name, order) for each, in the order error messages list them. */
#define PTOVEC_FACTS_FLAG_ORDER_NAMES(X)           \
  X("spec", PTOVEC_FACTS_FLAG_ORDER_SPEC)          \
  X("riscv", PTOVEC_FACTS_FLAG_ORDER_RISCV)        \
  X("ieee", PTOVEC_FACTS_FLAG_ORDER_RISCV)         \
  X("softfloat", PTOVEC_FACTS_FLAG_ORDER_RISCV)    \
  X("testfloat", PTOVEC_FACTS_FLAG_ORDER_RISCV)    \
  X("mxcsr", PTOVEC_FACTS_FLAG_ORDER_MXCSR)
/* clang-format on */

/* The first 8 bytes of a binary vector file and of a binary results file
 * (schemas/binary-format.md, schemas/results-format.md). */
#define PTOVEC_FACTS_VECTOR_MAGIC "PTOVEC\0B"
#define PTOVEC_FACTS_RESULTS_MAGIC "PTOVEC\0R"
#define PTOVEC_FACTS_MAGIC_BYTES 8

/* The comparison policy's names (`ptovec check`'s first line, results header "compare", the C
 * API's ptovec_compare_policy): every status bit compared, none, or the prefix followed by status
 * bit names (PTOVEC_FACTS_STATUS_NAMES, case-insensitive) joined by the separator. */
#define PTOVEC_FACTS_POLICY_ALL "word+flags"
#define PTOVEC_FACTS_POLICY_WORD "word"
#define PTOVEC_FACTS_POLICY_SOME "word+flags:"
#define PTOVEC_FACTS_POLICY_SEPARATOR ","

#endif /* PTOVEC_FACTS_H */
