/* ptovec_host_ieee_dut: an IEEE 754 device that owes nothing to the oracle: every answer is the
 * host's own arithmetic on x86-64, under C fenv's rounding mode, with C fenv's exception flags.
 *
 *   encode fp32 -> fp16   (_Float16)f: vcvtps2ph under the MXCSR mode (built with -mf16c)
 *   encode fp16 -> fp32   (float)h: vcvtph2ps, exact
 *   encode bf16 -> fp32   the BF16 bits shifted into an FP32 word: exact by definition
 *   encode fp32/fp16/bf16 -> s32   the source as a float, then cvtss2si (_mm_cvtss_si32), which
 *                         rounds under the MXCSR mode and gives the integer indefinite
 *                         0x80000000 with FE_INVALID out of range
 *   encode s32 -> fp32    (float)i: cvtsi2ss under the mode
 *   tdequant s8/u8 -> fp32   (float)(value - zero_point) * scale: the difference is exact in
 *                         FP32, the product is one FP32 multiplication under the mode
 *
 * Rounding modes: RNE, RTM, RTP, RTZ through fesetround (FE_TONEAREST, FE_DOWNWARD, FE_UPWARD,
 * FE_TOWARDZERO); fenv has no RNA, RTO or RHB: PTOVEC_DUT_UNSUPPORTED. Status:
 * feclearexcept(FE_ALL_EXCEPT) before each conversion, fetestexcept after it: FE_INVALID -> NV,
 * FE_DIVBYZERO -> DZ, FE_OVERFLOW -> OF, FE_UNDERFLOW -> UF, FE_INEXACT -> NX. Sat is ignored
 * (IEEE 754 has no saturating conversion). Every other op and type pair answers
 * PTOVEC_DUT_UNSUPPORTED (the ABI has no list of supported pairs). No rounding is emulated: the
 * only bit manipulation is moving words into and out of floats (and BF16 -> FP32, which is
 * exactly that).
 *
 * The operands and results go through volatile objects, and the file is built with
 * -frounding-math -fsignaling-nans, so that no conversion is folded at compile time or moved
 * across fesetround, feclearexcept or fetestexcept. MXCSR is per thread, so the device is thread
 * safe; each batch restores the caller's rounding mode. ptovec_dut_init refuses to start on a CPU
 * without F16C. How it compares with the profile: docs/devices.md, "The host IEEE device".
 */
#if defined(__clang__)
#pragma STDC FENV_ACCESS ON
#endif
#include <fenv.h>
#include <immintrin.h>
#include <stdio.h>
#include <string.h>

#include "ptovec_dut.h"

#if !defined(__F16C__)
#error "host_ieee_device.c must be built with -mf16c: (_Float16) conversions are vcvtps2ph"
#endif

/* ISO C11 has no _Float16 (C23 has, through Annex X); GCC and Clang take it on x86-64. */
__extension__ typedef _Float16 Half;

static float FloatOfBits(uint32_t bits) {
  float f;
  memcpy(&f, &bits, sizeof f);
  return f;
}

static uint32_t BitsOfFloat(float f) {
  uint32_t bits;
  memcpy(&bits, &f, sizeof bits);
  return bits;
}

static Half HalfOfBits(uint16_t bits) {
  Half h;
  memcpy(&h, &bits, sizeof h);
  return h;
}

static uint16_t BitsOfHalf(Half h) {
  uint16_t bits;
  memcpy(&bits, &h, sizeof bits);
  return bits;
}

/* The fenv rounding direction of a ptovec rounding mode (0 RNE, 1 RTM, 2 RTP, 3 RTZ); -1 for the
 * modes fenv lacks (4 RNA, 5 RTO, 6 RHB). */
static int FenvRounding(uint8_t rmode) {
  switch (rmode) {
    case 0:
      return FE_TONEAREST;
    case 1:
      return FE_DOWNWARD;
    case 2:
      return FE_UPWARD;
    case 3:
      return FE_TOWARDZERO;
    default:
      return -1;
  }
}

/* The raised fenv exceptions as ptovec's status (bit 0 NV, 1 DZ, 2 OF, 3 UF, 4 NX). */
static uint8_t StatusOfFenv(int raised) {
  return (uint8_t)(((raised & FE_INVALID) ? PTOVEC_DUT_FLAG_NV : 0) |
                   ((raised & FE_DIVBYZERO) ? PTOVEC_DUT_FLAG_DZ : 0) |
                   ((raised & FE_OVERFLOW) ? PTOVEC_DUT_FLAG_OF : 0) |
                   ((raised & FE_UNDERFLOW) ? PTOVEC_DUT_FLAG_UF : 0) |
                   ((raised & FE_INEXACT) ? PTOVEC_DUT_FLAG_NX : 0));
}

/* Each conversion below: the operand is read from a volatile after feclearexcept, the result is
 * written to a volatile before fetestexcept; *flags gets the status it raised. */

static uint16_t Fp32ToFp16(float value, uint8_t *flags) {
  volatile float in = value;
  volatile Half out;
  feclearexcept(FE_ALL_EXCEPT);
  out = (Half)in;
  *flags = StatusOfFenv(fetestexcept(FE_ALL_EXCEPT));
  return BitsOfHalf(out);
}

static uint32_t Fp16ToFp32(uint16_t bits, uint8_t *flags) {
  volatile Half in = HalfOfBits(bits);
  volatile float out;
  feclearexcept(FE_ALL_EXCEPT);
  out = (float)in;
  *flags = StatusOfFenv(fetestexcept(FE_ALL_EXCEPT));
  return BitsOfFloat(out);
}

static uint32_t FloatToS32(float value, uint8_t *flags) {
  volatile float in = value;
  volatile int32_t out;
  feclearexcept(FE_ALL_EXCEPT);
  out = _mm_cvtss_si32(_mm_set_ss(in));
  *flags = StatusOfFenv(fetestexcept(FE_ALL_EXCEPT));
  return (uint32_t)out;
}

static uint32_t S32ToFp32(int32_t value, uint8_t *flags) {
  volatile int32_t in = value;
  volatile float out;
  feclearexcept(FE_ALL_EXCEPT);
  out = (float)in;
  *flags = StatusOfFenv(fetestexcept(FE_ALL_EXCEPT));
  return BitsOfFloat(out);
}

/* (value - zero_point) * scale: the difference (|d| <= 255) is exact in FP32; one rounding. */
static uint32_t Dequantize(int32_t value, int32_t zero_point, float scale, uint8_t *flags) {
  volatile float difference = (float)(value - zero_point);
  volatile float factor = scale;
  volatile float out;
  feclearexcept(FE_ALL_EXCEPT);
  out = difference * factor;
  *flags = StatusOfFenv(fetestexcept(FE_ALL_EXCEPT));
  return BitsOfFloat(out);
}

/* A floating source as the float it equals: FP32 as is, FP16 through vcvtph2ps (exact), BF16 as
 * the high half of an FP32 word (exact). 0 when the code is not a floating source. */
static int FloatSource(uint8_t code, uint64_t word, float *value) {
  uint8_t ignored;
  switch (code) {
    case PTOVEC_DUT_TYPE_FP32:
      *value = FloatOfBits((uint32_t)word);
      return 1;
    case PTOVEC_DUT_TYPE_FP16:
      *value = FloatOfBits(Fp16ToFp32((uint16_t)word, &ignored));
      return 1;
    case PTOVEC_DUT_TYPE_BF16:
      *value = FloatOfBits((uint32_t)(word & 0xFFFFu) << 16);
      return 1;
    default:
      return 0;
  }
}

/* encode: the pairs of the header comment. */
static int Encode(const ptovec_dut_case *c, ptovec_dut_result *r) {
  const uint64_t w = c->inputs[0];
  float value;
  if (c->n_inputs != 1) return PTOVEC_DUT_UNSUPPORTED;
  if (c->dst_code == PTOVEC_DUT_TYPE_FP32) {
    if (c->src_code == PTOVEC_DUT_TYPE_FP16) {
      r->word = Fp16ToFp32((uint16_t)w, &r->flags);
    } else if (c->src_code == PTOVEC_DUT_TYPE_BF16) {
      r->word = (uint32_t)(w & 0xFFFFu) << 16; /* every BF16 value is an FP32 value */
      r->flags = 0;
    } else if (c->src_code == PTOVEC_DUT_TYPE_S32) {
      r->word = S32ToFp32((int32_t)(uint32_t)w, &r->flags);
    } else {
      return PTOVEC_DUT_UNSUPPORTED;
    }
    return PTOVEC_DUT_OK;
  }
  if (c->src_code == PTOVEC_DUT_TYPE_FP32 && c->dst_code == PTOVEC_DUT_TYPE_FP16) {
    r->word = Fp32ToFp16(FloatOfBits((uint32_t)w), &r->flags);
    return PTOVEC_DUT_OK;
  }
  if (c->dst_code == PTOVEC_DUT_TYPE_S32 && FloatSource(c->src_code, w, &value)) {
    r->word = FloatToS32(value, &r->flags);
    return PTOVEC_DUT_OK;
  }
  return PTOVEC_DUT_UNSUPPORTED;
}

/* tdequant s8/u8 -> fp32: inputs value, FP32 scale, zero point (both of the source type). */
static int Tdequant(const ptovec_dut_case *c, ptovec_dut_result *r) {
  int32_t value, zero_point;
  if (c->n_inputs != 3 || c->dst_code != PTOVEC_DUT_TYPE_FP32) return PTOVEC_DUT_UNSUPPORTED;
  if (c->src_code == PTOVEC_DUT_TYPE_S8) {
    value = (int8_t)(uint8_t)c->inputs[0];
    zero_point = (int8_t)(uint8_t)c->inputs[2];
  } else if (c->src_code == PTOVEC_DUT_TYPE_U8) {
    value = (uint8_t)c->inputs[0];
    zero_point = (uint8_t)c->inputs[2];
  } else {
    return PTOVEC_DUT_UNSUPPORTED;
  }
  r->word = Dequantize(value, zero_point, FloatOfBits((uint32_t)c->inputs[1]), &r->flags);
  return PTOVEC_DUT_OK;
}

/* One case: sets the case's rounding mode (the callers restore theirs) and converts. */
static int EvaluateOne(const ptovec_dut_case *c, ptovec_dut_result *r) {
  const int rounding = FenvRounding(c->rmode);
  if (rounding < 0) return PTOVEC_DUT_UNSUPPORTED; /* RNA, RTO, RHB: not in fenv */
  r->word = 0;
  r->flags = 0;
  if (strcmp(c->op, "encode") != 0 && strcmp(c->op, "tdequant") != 0) {
    return PTOVEC_DUT_UNSUPPORTED;
  }
  if (fesetround(rounding) != 0) return PTOVEC_DUT_ERROR;
  return c->op[0] == 'e' ? Encode(c, r) : Tdequant(c, r);
}

PTOVEC_DUT_EXPORT uint32_t ptovec_dut_abi_version(void) { return PTOVEC_DUT_ABI_VERSION; }

PTOVEC_DUT_EXPORT uint32_t ptovec_dut_properties(void) { return PTOVEC_DUT_THREAD_SAFE; }

PTOVEC_DUT_EXPORT const char *ptovec_dut_name(void) { return "host-ieee"; }

PTOVEC_DUT_EXPORT int ptovec_dut_init(const char *arg) {
  (void)arg;
  __builtin_cpu_init();
  if (!__builtin_cpu_supports("f16c")) {
    fprintf(stderr, "ptovec_host_ieee_dut: this CPU has no F16C (vcvtps2ph); cannot start\n");
    return 1;
  }
  return 0;
}

PTOVEC_DUT_EXPORT int ptovec_dut_evaluate(const ptovec_dut_case *c, ptovec_dut_result *r) {
  const int saved = fegetround();
  const int status = EvaluateOne(c, r);
  fesetround(saved);
  return status;
}

PTOVEC_DUT_EXPORT int ptovec_dut_evaluate_batch(const ptovec_dut_case *cases,
                                                ptovec_dut_result *results, uint8_t *status,
                                                uint64_t n) {
  const int saved = fegetround();
  int failed = 0;
  uint64_t i;
  for (i = 0; i < n; ++i) {
    status[i] = (uint8_t)EvaluateOne(&cases[i], &results[i]);
    if (status[i] == PTOVEC_DUT_ERROR) failed = 1;
  }
  fesetround(saved);
  return failed ? PTOVEC_DUT_ERROR : PTOVEC_DUT_OK;
}
