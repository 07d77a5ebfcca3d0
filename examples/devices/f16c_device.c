/* ptovec_f16c_dut: an example device built on real IEEE 754 hardware, the x86 F16C instruction
 * vcvtps2ph (_mm_cvtps_ph), for one op: `encode --src fp32 --dst fp16` in RNE, RTM, RTP, RTZ.
 *
 * The rounding mode goes in the instruction's immediate (0 RNE, 1 RTM, 2 RTP, 3 RTZ, no MXCSR
 * override); the status comes from MXCSR, cleared before and read after each conversion:
 * IE -> NV, OE -> OF, UE -> UF, PE -> NX (ZE -> DZ for completeness; DE is ignored). Sat is
 * ignored: IEEE 754 has no saturating conversion. Other ops, pairs and modes (RNA RTO RHB) answer
 * PTOVEC_DUT_UNSUPPORTED. ptovec_dut_init refuses to start on a CPU without F16C.
 *
 * Run it through the gate to see where IEEE hardware and the profile disagree: docs/f16c.md.
 */
#include <immintrin.h>
#include <stdio.h>
#include <string.h>

#include "ptovec_dut.h"

#define EXPORT __attribute__((visibility("default")))

enum { kMxcsrIE = 0x01, kMxcsrZE = 0x04, kMxcsrOE = 0x08, kMxcsrUE = 0x10, kMxcsrPE = 0x20 };
enum { kFlagsMask = 0x3F };

/* Converts one FP32 word to FP16 with vcvtps2ph under `mode` (0 RNE, 1 RTM, 2 RTP, 3 RTZ) and
 * returns the FP16 word; *mxcsr_flags gets the MXCSR exception flags (bits 5:0) it raised. */
__attribute__((target("f16c"))) static uint16_t ConvertF16C(uint32_t bits, unsigned mode,
                                                            unsigned *mxcsr_flags) {
  float value;
  memcpy(&value, &bits, sizeof value);
  const unsigned saved = _mm_getcsr();
  _mm_setcsr(saved & ~(unsigned)kFlagsMask);
  /* The compiler sees _mm_cvtps_ph as a pure function of its operand: reading the operand from a
   * volatile in each case keeps it from running the conversions of other modes speculatively
   * (GCC 12 -O2 if-converts the switch into up to four vcvtps2ph, whose MXCSR flags then add up:
   * RNE raised the flags of RTM, RTP and RTZ too). */
  volatile __m128 v = _mm_set_ss(value);
  __m128i h;
  switch (mode) {
    case 0:
      h = _mm_cvtps_ph(v, _MM_FROUND_TO_NEAREST_INT);
      break;
    case 1:
      h = _mm_cvtps_ph(v, _MM_FROUND_TO_NEG_INF);
      break;
    case 2:
      h = _mm_cvtps_ph(v, _MM_FROUND_TO_POS_INF);
      break;
    default:
      h = _mm_cvtps_ph(v, _MM_FROUND_TO_ZERO);
      break;
  }
  const unsigned after = _mm_getcsr();
  _mm_setcsr(saved);
  *mxcsr_flags = after & (unsigned)kFlagsMask;
  return (uint16_t)_mm_extract_epi16(h, 0);
}

/* A version 1 device (one case per call), which ptovec still accepts. */
EXPORT uint32_t ptovec_dut_abi_version(void) { return 1u; }

EXPORT const char *ptovec_dut_name(void) { return "f16c-vcvtps2ph"; }

EXPORT int ptovec_dut_init(const char *arg) {
  (void)arg;
  __builtin_cpu_init();
  if (!__builtin_cpu_supports("f16c")) {
    fprintf(stderr, "ptovec_f16c_dut: this CPU has no F16C (vcvtps2ph); cannot start\n");
    return 1;
  }
  return 0;
}

EXPORT int ptovec_dut_evaluate(const ptovec_dut_case *c, ptovec_dut_result *r) {
  /* Tile codes: FP32 1, FP16 4. */
  if (strcmp(c->op, "encode") != 0 || c->src_code != 1 || c->dst_code != 4 || c->n_inputs != 1) {
    return PTOVEC_DUT_UNSUPPORTED;
  }
  if (c->rmode > 3) return PTOVEC_DUT_UNSUPPORTED; /* RNA, RTO, RHB: not in vcvtps2ph */
  unsigned mxcsr = 0;
  r->word = ConvertF16C((uint32_t)c->inputs[0], c->rmode, &mxcsr);
  r->flags = (uint8_t)(((mxcsr & kMxcsrIE) ? 0x01 : 0) | ((mxcsr & kMxcsrZE) ? 0x02 : 0) |
                       ((mxcsr & kMxcsrOE) ? 0x04 : 0) | ((mxcsr & kMxcsrUE) ? 0x08 : 0) |
                       ((mxcsr & kMxcsrPE) ? 0x10 : 0));
  return PTOVEC_DUT_OK;
}
