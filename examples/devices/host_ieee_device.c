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
 *
 * Broken variants, for the gate's own tests (tests/devices/host_ieee_broken.py): --dut-arg NAME
 * plants one bug, each a one-line change of a real kind, which `--known-differences x86` must
 * not waive (no argument: the correct device). The names and bugs are in kBroken below.
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

/* The broken variants (--dut-arg). */
enum Broken {
  kCorrect,
  kNegativeZero,     /* every zero floating result is -0 (+0 sources included) */
  kZeroForInvalid,   /* an invalid float -> s32 conversion answers 0, not the indefinite */
  kUfSubnormalOnly,  /* UF only for a subnormal or zero result (not IEEE's after-rounding tiny) */
  kNxDroppedInteger, /* a float -> s32 conversion never raises NX */
  kOfWithoutNx,      /* an overflow raises OF without NX */
  kRtzAsRneFp16,     /* fp32 -> fp16 under RTZ rounds to nearest (the mode field miswired) */
  kFlagsReversed,    /* the status in RISC-V fflags order (bit 0 NX .. bit 4 NV) */
  kDequantClamps     /* a tdequant overflow gives the largest finite (a Sat the op does not have) */
};
static const char *const kBroken[] = {"",
                                      "negative-zero",
                                      "zero-for-invalid",
                                      "uf-subnormal-only",
                                      "nx-dropped-integer",
                                      "of-without-nx",
                                      "rtz-as-rne-fp16",
                                      "flags-reversed",
                                      "dequant-clamps"};
static enum Broken g_broken = kCorrect;

/* Whether `word` of the case's floating destination (FP16 or FP32) is a zero, a subnormal. */
static int IsZero(const ptovec_dut_case *c, uint32_t word) {
  return c->dst_code == PTOVEC_DUT_TYPE_FP16 ? (word & 0x7FFFu) == 0 : (word & 0x7FFFFFFFu) == 0;
}
static int IsSubnormalOrZero(const ptovec_dut_case *c, uint32_t word) {
  return c->dst_code == PTOVEC_DUT_TYPE_FP16 ? (word & 0x7C00u) == 0 : (word & 0x7F800000u) == 0;
}

/* Plants the variant's bug into a correct answer. */
static void Break(const ptovec_dut_case *c, ptovec_dut_result *r) {
  const int floating = c->dst_code == PTOVEC_DUT_TYPE_FP16 || c->dst_code == PTOVEC_DUT_TYPE_FP32;
  const uint32_t sign = c->dst_code == PTOVEC_DUT_TYPE_FP16 ? 0x8000u : 0x80000000u;
  const uint8_t nv = 0x01, of = 0x04, uf = 0x08, nx = 0x10;
  switch (g_broken) {
    case kNegativeZero:
      if (floating && IsZero(c, (uint32_t)r->word)) r->word |= sign;
      break;
    case kZeroForInvalid:
      if (c->dst_code == PTOVEC_DUT_TYPE_S32 && (r->flags & nv)) r->word = 0;
      break;
    case kUfSubnormalOnly:
      if (floating && !IsSubnormalOrZero(c, (uint32_t)r->word)) r->flags &= (uint8_t)~uf;
      break;
    case kNxDroppedInteger:
      if (c->dst_code == PTOVEC_DUT_TYPE_S32) r->flags &= (uint8_t)~nx;
      break;
    case kOfWithoutNx:
      if (r->flags & of) r->flags &= (uint8_t)~nx;
      break;
    case kFlagsReversed: {
      uint8_t reversed = 0;
      int bit;
      for (bit = 0; bit < 5; ++bit) {
        if (r->flags & (1u << bit)) reversed |= (uint8_t)(1u << (4 - bit));
      }
      r->flags = reversed;
      break;
    }
    case kDequantClamps:
      if (strcmp(c->op, "tdequant") == 0 && (r->word & 0x7FFFFFFFu) == 0x7F800000u) {
        r->word = (r->word & 0x80000000u) | 0x7F7FFFFFu;
      }
      break;
    default:
      break;
  }
}

/* One case: sets the case's rounding mode (the callers restore theirs) and converts. */
static int EvaluateOne(const ptovec_dut_case *c, ptovec_dut_result *r) {
  int rounding = FenvRounding(c->rmode);
  int status;
  if (rounding < 0) return PTOVEC_DUT_UNSUPPORTED; /* RNA, RTO, RHB: not in fenv */
  r->word = 0;
  r->flags = 0;
  if (strcmp(c->op, "encode") != 0 && strcmp(c->op, "tdequant") != 0) {
    return PTOVEC_DUT_UNSUPPORTED;
  }
  if (g_broken == kRtzAsRneFp16 && rounding == FE_TOWARDZERO &&
      c->src_code == PTOVEC_DUT_TYPE_FP32 && c->dst_code == PTOVEC_DUT_TYPE_FP16) {
    rounding = FE_TONEAREST;
  }
  if (fesetround(rounding) != 0) return PTOVEC_DUT_ERROR;
  status = c->op[0] == 'e' ? Encode(c, r) : Tdequant(c, r);
  if (status == PTOVEC_DUT_OK && g_broken != kCorrect) Break(c, r);
  return status;
}

PTOVEC_DUT_EXPORT uint32_t ptovec_dut_abi_version(void) { return PTOVEC_DUT_ABI_VERSION; }

PTOVEC_DUT_EXPORT uint32_t ptovec_dut_properties(void) { return PTOVEC_DUT_THREAD_SAFE; }

PTOVEC_DUT_EXPORT const char *ptovec_dut_name(void) { return "host-ieee"; }

PTOVEC_DUT_EXPORT int ptovec_dut_init(const char *arg) {
  size_t k;
  g_broken = kCorrect;
  if (arg != NULL && arg[0] != '\0') {
    for (k = 1; k < sizeof kBroken / sizeof kBroken[0]; ++k) {
      if (strcmp(arg, kBroken[k]) == 0) g_broken = (enum Broken)k;
    }
    if (g_broken == kCorrect) {
      fprintf(stderr,
              "ptovec_host_ieee_dut: unknown --dut-arg '%s' (accepted: none for the correct "
              "device, or a broken variant: negative-zero, zero-for-invalid, uf-subnormal-only, "
              "nx-dropped-integer, of-without-nx, rtz-as-rne-fp16, flags-reversed, "
              "dequant-clamps)\n",
              arg);
      return 1;
    }
  }
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
