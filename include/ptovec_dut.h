/*
 * ptovec device-under-test (DUT) ABI, versions 1, 2 and 3: the one header a device implements so
 * that `ptovec run --dut LIB.so` and `ptovec shrink --dut LIB.so` can drive it.
 *
 * A device is a shared library (C linkage) exporting:
 *   required  uint32_t ptovec_dut_abi_version(void);  the version it implements: 1, 2 or 3
 *                                                     (PTOVEC_DUT_ABI_VERSION is 3)
 *   version 1, required:
 *             int ptovec_dut_evaluate(const ptovec_dut_case *c, ptovec_dut_result *r);
 *   versions 2 and 3, required (ptovec_dut_evaluate is then optional and unused):
 *             int ptovec_dut_evaluate_batch(const ptovec_dut_case *cases,
 *                                           ptovec_dut_result *results, uint8_t *status,
 *                                           uint64_t n);
 *   optional  const char *ptovec_dut_name(void);      a short name for reports
 *   optional  int      ptovec_dut_init(const char *arg);  called once after loading, with the
 *                                                     text of `--dut-arg` ("" if none);
 *                                                     non-zero refuses to start
 *   versions 2 and 3, optional:
 *             uint32_t ptovec_dut_properties(void);   PTOVEC_DUT_THREAD_SAFE (bit 0): ptovec may
 *                                                     call ptovec_dut_evaluate_batch from several
 *                                                     threads at once, on disjoint arrays
 *             int ptovec_dut_clock_counts(uint64_t *cases, uint64_t *clocks);
 *                                                     a clocked device (a simulated pipeline):
 *                                                     the cases its models took and the clocks
 *                                                     they ran since loading, summed over its
 *                                                     threads; returns 0 when it filled both.
 *                                                     `run` prints cases per clock from them
 *             const char *ptovec_dut_last_error(void);  why the calling thread's last
 *                                                     PTOVEC_DUT_ERROR happened (one line, or
 *                                                     NULL/""): ptovec's error quotes it instead
 *                                                     of naming the first case marked, which a
 *                                                     device failing a whole batch (a protocol
 *                                                     error of a pipeline) did not cause;
 *                                                     also quoted when ptovec_dut_init fails
 *
 * Version 1: ptovec calls ptovec_dut_evaluate from one thread at a time, once per case, in vector
 * file order. Version 2: ptovec passes n >= 1 consecutive cases of a vector file at a time; the
 * device fills results[i] and status[i] for every i (status: PTOVEC_DUT_OK, PTOVEC_DUT_UNSUPPORTED
 * or PTOVEC_DUT_ERROR, as ptovec_dut_evaluate would return for that case) and returns
 * PTOVEC_DUT_OK, or PTOVEC_DUT_ERROR when it failed (ptovec stops and names the first case whose
 * status is PTOVEC_DUT_ERROR). Without PTOVEC_DUT_THREAD_SAFE, calls come from one thread at a
 * time. The device never sees expected results. Plain C99; usable from C, C++, Rust, Zig, ...
 *
 * Version 3 is version 2 with room for 5 inputs (PTOVEC_DUT_MAX_INPUTS 5, for `fpatr`): the
 * struct below. Versions 1 and 2 were built with 4 (a ptovec_dut_case 8 bytes shorter): ptovec
 * still drives a version 2 library with arrays of that shorter layout, and a version 1 library
 * one case at a time (it reads only the fields it knows); cases of an op with more than 4 inputs
 * are reported unsupported for both without calling them. Rebuild against this header and
 * return PTOVEC_DUT_ABI_VERSION (3) to take every op.
 *
 * A case is what one line of `ptovec eval` describes (see `ptovec list` for ops, slot order and
 * legal type pairs, `ptovec list --types` for the types, and spec-notes section 1 for the codes):
 *   op        "tcvt", "encode", "shift", "qparam", "tquant", "tdequant", "affine", "fpatr"
 *             (lower case)
 *   src, dst  type names as `ptovec list --types` prints them ("fp16", "e8m0", "s4x2", ...)
 *   src_code, dst_code  the spec's 5-bit tile data type codes of src and dst, FP19 (ptovec's
 *             own, no tile code) 32: the PTOVEC_DUT_TYPE_* constants below, the "code" column
 *             of `ptovec list --types`
 *   rmode     0 RNE, 1 RTM, 2 RTP, 3 RTZ, 4 RNA, 5 RTO, 6 RHB (NumericRoundingMode order)
 *   sat       0 or 1 (NumericExecutionControl.saturating)
 *   inputs    n_inputs element-width words in the op's slot order (e.g. tquant: value, scale,
 *             zero_point); an S8 -126 is 0x82, not a sign-extended carrier
 *
 * The result is the destination's element-width encoding in the low bits of `word` (ptovec keeps
 * the low bits of the destination's width, so a sign-extended carrier is accepted too) and the
 * 5-bit status in `flags`: bit 0 NV, 1 DZ, 2 OF, 3 UF, 4 NX (bits 7:5 must be zero).
 *
 * Return PTOVEC_DUT_OK with *r filled in, PTOVEC_DUT_UNSUPPORTED when the device does not
 * implement this op, type pair, mode or Sat value (ptovec reports such cases as unsupported, which
 * fails the gate: nothing is skipped silently), or PTOVEC_DUT_ERROR when the device failed (ptovec
 * stops with an error).
 */
#ifndef PTOVEC_DUT_H
#define PTOVEC_DUT_H

#include <stdint.h>

#include "ptovec/facts.h"

#ifdef __cplusplus
extern "C" {
#endif

#define PTOVEC_DUT_ABI_VERSION 3u
#define PTOVEC_DUT_MAX_INPUTS 5
#define PTOVEC_DUT_THREAD_SAFE 0x1u

enum { PTOVEC_DUT_OK = 0, PTOVEC_DUT_UNSUPPORTED = 1, PTOVEC_DUT_ERROR = 2 };

/* The type codes of src_code and dst_code, one per type of `ptovec list --types` (a test,
 * tests/tools/dut_header_test.cpp, checks them against ptovec's format table). */
enum {
  PTOVEC_DUT_TYPE_FP32 = 1,
  PTOVEC_DUT_TYPE_FP16 = 4,
  PTOVEC_DUT_TYPE_BF16 = 5,
  PTOVEC_DUT_TYPE_HIF8 = 6,
  PTOVEC_DUT_TYPE_E4M3 = 7,
  PTOVEC_DUT_TYPE_E8M0 = 13,
  PTOVEC_DUT_TYPE_S64 = 16,
  PTOVEC_DUT_TYPE_S32 = 17,
  PTOVEC_DUT_TYPE_S16 = 18,
  PTOVEC_DUT_TYPE_S8 = 19,
  PTOVEC_DUT_TYPE_S4X2 = 20,
  PTOVEC_DUT_TYPE_U64 = 24,
  PTOVEC_DUT_TYPE_U32 = 25,
  PTOVEC_DUT_TYPE_U16 = 26,
  PTOVEC_DUT_TYPE_U8 = 27,
  PTOVEC_DUT_TYPE_U4X2 = 28,
  PTOVEC_DUT_TYPE_FP19 = 32
};

/* Flag orders. ptovec's status (ptovec_dut_result.flags, vector and results files, the C API,
 * `ptovec eval`) is in the specification's order, PTOVEC_DUT_FLAG_ORDER_SPEC: bit 0 NV, 1 DZ,
 * 2 OF, 3 UF, 4 NX. RISC-V fflags, SoftFloat's and TestFloat's flags and most FPU status ports
 * use the reverse, PTOVEC_DUT_FLAG_ORDER_RISCV (also ..._IEEE, the same order): bit 0 NX, 1 UF,
 * 2 OF, 3 DZ, 4 NV. x86 MXCSR bits 5:0 are PE UE OE ZE DE IE, PTOVEC_DUT_FLAG_ORDER_MXCSR (its DE,
 * the denormal-operand flag, has no counterpart and is dropped). Copying a RISC-V port straight
 * into `flags` swaps NV with NX and DZ with UF: convert with ptovec_dut_flags_to_spec.
 * docs/devices.md has the table. */
#define PTOVEC_DUT_FLAG_NV PTOVEC_FACTS_STATUS_NV
#define PTOVEC_DUT_FLAG_DZ PTOVEC_FACTS_STATUS_DZ
#define PTOVEC_DUT_FLAG_OF PTOVEC_FACTS_STATUS_OF
#define PTOVEC_DUT_FLAG_UF PTOVEC_FACTS_STATUS_UF
#define PTOVEC_DUT_FLAG_NX PTOVEC_FACTS_STATUS_NX
enum {
  PTOVEC_DUT_FLAG_ORDER_SPEC = PTOVEC_FACTS_FLAG_ORDER_SPEC,
  PTOVEC_DUT_FLAG_ORDER_RISCV = PTOVEC_FACTS_FLAG_ORDER_RISCV,
  PTOVEC_DUT_FLAG_ORDER_IEEE = PTOVEC_FACTS_FLAG_ORDER_RISCV,
  PTOVEC_DUT_FLAG_ORDER_MXCSR = PTOVEC_FACTS_FLAG_ORDER_MXCSR
};

/* The PTOVEC_DUT_FLAG_ORDER_* of an order's name, case-insensitive: "spec"; "riscv", "ieee",
 * "softfloat" or "testfloat"; "mxcsr" (PTOVEC_FACTS_FLAG_ORDER_NAMES). -1 for any other name (or
 * NULL). The names the C API's ptovec_flag_order_code and the streaming harness's --dut-arg
 * flag_order accept. */
static inline int ptovec_dut_flag_order_code(const char *name) {
#define PTOVEC_DUT_ORDER_ROW(text, code) {text, code},
  static const struct {
    const char *name;
    int order;
  } kOrders[] = {PTOVEC_FACTS_FLAG_ORDER_NAMES(PTOVEC_DUT_ORDER_ROW)};
#undef PTOVEC_DUT_ORDER_ROW
  unsigned i;
  if (name == 0) return -1;
  for (i = 0; i < sizeof kOrders / sizeof kOrders[0]; ++i) {
    const char *a = name, *b = kOrders[i].name;
    while (*a != '\0' && (*a == *b || (*a >= 'A' && *a <= 'Z' && *a - 'A' + 'a' == *b))) ++a, ++b;
    if (*a == '\0' && *b == '\0') return kOrders[i].order;
  }
  return -1;
}

/* The port bit of NV, DZ, OF, UF and NX in flag order `order` (PTOVEC_FACTS_FLAG_ORDER_BITS);
 * NULL for an unknown order. */
static inline const unsigned char *ptovec_dut_flag_order_bits(int order) {
  static const unsigned char kBits[PTOVEC_FACTS_FLAG_ORDERS][PTOVEC_FACTS_STATUS_BITS] = {
      PTOVEC_FACTS_FLAG_ORDER_BITS};
  if (order < 0 || order >= PTOVEC_FACTS_FLAG_ORDERS) return 0;
  return kBits[order];
}

/* The 5-bit status in the specification's order (bit 0 NV .. bit 4 NX) of a port's bits in
 * `order` (a PTOVEC_DUT_FLAG_ORDER_*; bits above the order's flags are ignored). An unknown order
 * gives 0xFF, which no status is. */
static inline uint8_t ptovec_dut_flags_to_spec(uint32_t bits, int order) {
  const unsigned char *at = ptovec_dut_flag_order_bits(order);
  uint8_t out = 0;
  unsigned i;
  if (at == 0) return 0xFFu;
  for (i = 0; i < PTOVEC_FACTS_STATUS_BITS; ++i) out |= (uint8_t)(((bits >> at[i]) & 1u) << i);
  return out;
}

/* The port bits in `order` of a status in the specification's order (bits 4:0; bits 7:5 are
 * ignored); MXCSR's DE stays 0. An unknown order gives 0xFFFFFFFF. */
static inline uint32_t ptovec_dut_flags_from_spec(uint8_t flags, int order) {
  const unsigned char *at = ptovec_dut_flag_order_bits(order);
  uint32_t out = 0;
  unsigned i;
  if (at == 0) return 0xFFFFFFFFu;
  for (i = 0; i < PTOVEC_FACTS_STATUS_BITS; ++i) out |= (uint32_t)((flags >> i) & 1u) << at[i];
  return out;
}

typedef struct ptovec_dut_case {
  const char *op;
  const char *src;
  const char *dst;
  uint8_t src_code;
  uint8_t dst_code;
  uint8_t rmode;
  uint8_t sat;
  uint32_t n_inputs;
  uint64_t inputs[PTOVEC_DUT_MAX_INPUTS];
} ptovec_dut_case;

typedef struct ptovec_dut_result {
  uint64_t word;
  uint8_t flags;
} ptovec_dut_result;

/* The device's functions are exported whatever the build's default visibility (a device built
 * with -fvisibility=hidden, as ptovec_add_dut does, still exports them): the attribute on these
 * declarations carries to the device's definitions. */
#if defined(__GNUC__) || defined(__clang__)
#define PTOVEC_DUT_EXPORT __attribute__((visibility("default")))
#else
#define PTOVEC_DUT_EXPORT
#endif

PTOVEC_DUT_EXPORT uint32_t ptovec_dut_abi_version(void);
PTOVEC_DUT_EXPORT int ptovec_dut_evaluate(const ptovec_dut_case *c, ptovec_dut_result *r);
PTOVEC_DUT_EXPORT int ptovec_dut_evaluate_batch(const ptovec_dut_case *cases,
                                                ptovec_dut_result *results, uint8_t *status,
                                                uint64_t n);
PTOVEC_DUT_EXPORT uint32_t ptovec_dut_properties(void);
PTOVEC_DUT_EXPORT const char *ptovec_dut_name(void);
PTOVEC_DUT_EXPORT int ptovec_dut_init(const char *arg);
PTOVEC_DUT_EXPORT int ptovec_dut_clock_counts(uint64_t *cases, uint64_t *clocks);
PTOVEC_DUT_EXPORT const char *ptovec_dut_last_error(void);

#ifdef __cplusplus
}
#endif

#endif /* PTOVEC_DUT_H */
