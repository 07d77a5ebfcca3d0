// The fault-model catalogue (ptovec/generator/faults.hpp), faults of TQUANT, TDEQUANT and the FP19
// scale of qparam. Each fault is one function `Encoded F(const Case&)`: the oracle's bulk path with
// the fault injected; where the fault does not apply it returns the oracle's answer unchanged. Each
// comment: the bug modelled, where it was seen, the ops and pairs it affects.
#include "fault_common.hpp"

namespace ptovec::generator::faults {

namespace {

// tquant_of_under_sat: TQUANT raises OF|NX when Sat clamps an out-of-range result (the
// matrix-encoder rule of spec-notes section 5 item 8 applied to TQUANT, whose Sat clamps
// silently: item 6). tquant FP32 -> S8/U8, Sat, finite values out of range.
Encoded TquantOFUnderSat(const Case& c) {
  Encoded r = Oracle(c);
  if (KindOf(c) != OpKind::Tquant || !c.control.saturating) return r;
  const NumericValueClass cls = oracle::TileNumericValueClass(T::FP32, c.in[0]);
  if (oracle::NumericValueClassIsNaN(cls) || oracle::NumericValueClassIsInfinity(cls)) return r;
  const std::int64_t zero_point =
      static_cast<std::int64_t>(oracle::NormalizeTileInteger(c.in[2], c.pair.dst));
  const Encoded affine = oracle::FastMatrixQuantizedAffine(
      oracle::DyadicFromFiniteCode(T::FP32, c.in[0]),
      oracle::DyadicFromFiniteCode(T::FP32, c.in[1]), zero_point, 0, c.pair.dst, c.control);
  if ((affine.status & kOF) != 0) r.status = static_cast<Status>(r.status | kOF | kNX);
  return r;
}

// tquant_nonsat_saturates: TQUANT always clamps (Sat forced on): non-Sat results that should wrap
// to 8 bits saturate instead. tquant, non-Sat, out-of-range results.
Encoded TquantNonSatSaturates(const Case& c) {
  if (KindOf(c) != OpKind::Tquant || c.control.saturating) return Oracle(c);
  return OracleWith(c, {c.control.rounding_mode, true});
}

// tdequant_reads_sat: TDEQUANT honours Sat like the matrix FP32 encoder (overflow gives
// +/-0x7F7FFFFF) where the profile ignores Sat (spec-notes section 5 item 7). tdequant, Sat,
// overflowing (v - zp) * scale.
Encoded TdequantReadsSat(const Case& c) {
  Encoded r = Oracle(c);
  if (KindOf(c) == OpKind::Tdequant && c.control.saturating && (r.status & kOF) != 0) {
    r.word = (r.word & 0x80000000) | 0x7f7fffff;
  }
  return r;
}

// tdequant_u8_zero_point_signed: the U8 zero point is sign-extended (read as S8), so zero points
// 0x80..0xFF are taken as -128..-1. tdequant U8 -> FP32.
Encoded TdequantU8ZeroPointSigned(const Case& c) {
  if (KindOf(c) != OpKind::Tdequant || c.pair.src != T::U8) return Oracle(c);
  return DequantEncode(DequantValue(c, true), c.control);
}

// fp19_scale_truncated: FP32ToFP19 truncates the 13 low fraction bits instead of rounding to
// nearest even (spec-notes section 4). qparam, scales whose dropped bits are above half or a
// tie with an odd kept part.
Encoded Fp19ScaleTruncated(const Case& c) {
  if (KindOf(c) != OpKind::Qparam) return Oracle(c);
  const Word bits = oracle::LowBits(c.in[0], 32);
  const bool nan = ((bits >> 23) & 0xff) == 0xff && (bits & 0x7fffff) != 0;
  const Word fp19 = nan ? 0x3ff00 : bits >> 13;
  return {oracle::MatrixQuantParameter(fp19, oracle::SignExtend(c.in[1], 32),
                                       static_cast<int>(c.in[2])),
          0};
}

/// TQUANT of the FP32 word `value` with scale 1.0 and the case's zero point: the seed's rounding,
/// Sat clamp or wrap and flags applied to value + zero point (value any FP32 word, Inf included).
Encoded TquantOfWord(const Case& c, Word value) {
  Case d = c;
  d.in[0] = value;
  d.in[1] = kFp32One;
  return Oracle(d);
}

// tquant_clamp_before_zero_point: under Sat, TQUANT's saturation stage sits before the zero-point
// adder: value * scale is clamped to the destination's range, then the zero point is added and
// the sum rounded and clamped again, so a product outside the range that the zero point would
// bring back in comes out wrong (S8: 200 + (-100) gives 27 instead of 100). Models the
// "quantize clamps before adding zero_point" reports of quantization kernels. tquant, Sat,
// finite products outside the destination's range.
Encoded TquantClampBeforeZeroPoint(const Case& c) {
  if (KindOf(c) != OpKind::Tquant || !c.control.saturating) return Oracle(c);
  const NumericValueClass cls = oracle::TileNumericValueClass(T::FP32, c.in[0]);
  if (oracle::NumericValueClassIsNaN(cls) || oracle::NumericValueClassIsInfinity(cls)) {
    return Oracle(c);
  }
  const Dyadic product = oracle::DyadicProduct(Fp32Dyadic(c.in[0]), Fp32Dyadic(c.in[1]));
  const bool u8 = c.pair.dst == T::U8;
  Word clamped = 0;  // the range end as an FP32 word
  if (product.significand != 0 && product.negative &&
      (u8 || oracle::DyadicCompareMagnitude(product, oracle::DyadicFromInteger(128)) > 0)) {
    clamped = u8 ? 0x00000000 : 0xc3000000;  // 0.0 or -128.0
  } else if (product.significand != 0 && !product.negative &&
             oracle::DyadicCompareMagnitude(product, oracle::DyadicFromInteger(u8 ? 255 : 127)) >
                 0) {
    clamped = u8 ? 0x437f0000 : 0x42fe0000;  // 255.0 or 127.0
  } else {
    return Oracle(c);
  }
  return TquantOfWord(c, clamped);
}

// tquant_product_rounded_fp32: TQUANT computes value * scale as an FP32 multiply (rounded to
// nearest even, the FPU default) and adds the zero point to that, rounding twice where the seed
// rounds value * scale + zero point once: a product just off an integer or a .5 tie is first
// rounded onto it (RNE then resolves the tie, directed modes lose the fraction). The multiply's
// NX is OR-ed into the flags; a product beyond FP32 is +/-Inf and quantizes as an infinite
// value does. Models the "quantize_per_tensor differs from the reference by one" reports of
// float-multiply-then-round kernels. tquant, products with more than 24 significant bits.
Encoded TquantProductRoundedFp32(const Case& c) {
  if (KindOf(c) != OpKind::Tquant) return Oracle(c);
  const NumericValueClass cls = oracle::TileNumericValueClass(T::FP32, c.in[0]);
  if (oracle::NumericValueClassIsNaN(cls) || oracle::NumericValueClassIsInfinity(cls)) {
    return Oracle(c);
  }
  const Encoded product = oracle::FastFP32FiniteEncoding(
      oracle::DyadicProduct(Fp32Dyadic(c.in[0]), Fp32Dyadic(c.in[1])), M::RNE);
  const Encoded r = TquantOfWord(c, oracle::LowBits(product.word, 32));
  return {r.word, static_cast<Status>(r.status | (product.status & kNX))};
}

// tdequant_two_products: TDEQUANT computes value * scale - zero_point * scale (two FP32
// products, then their FP32 difference, each rounded under the mode) instead of rounding
// (value - zero_point) * scale once; the flags of the three operations are OR-ed, an infinite
// product propagates (Inf - Inf is the default NaN 0x7FC00000 with NV). Models the "distributed
// the scale over the subtraction" reports of dequantize kernels. tdequant, products with more
// than 24 significant bits (most scales).
Encoded TdequantTwoProducts(const Case& c) {
  if (KindOf(c) != OpKind::Tdequant) return Oracle(c);
  const auto integer = [&](Word w) {
    return static_cast<std::int64_t>(oracle::NormalizeTileInteger(w, c.pair.src));
  };
  const Dyadic scale = Fp32Dyadic(c.in[1]);
  const M mode = c.control.rounding_mode;
  const Encoded p = oracle::FastFP32FiniteEncoding(
      oracle::DyadicProduct(oracle::DyadicFromInteger(integer(c.in[0])), scale), mode);
  const Encoded q = oracle::FastFP32FiniteEncoding(
      oracle::DyadicProduct(oracle::DyadicFromInteger(integer(c.in[2])), scale), mode);
  const Word pw = oracle::LowBits(p.word, 32);
  const Word qw = oracle::LowBits(q.word, 32);
  const auto flags = static_cast<Status>(p.status | q.status);
  if (!Fp32IsFinite(pw) || !Fp32IsFinite(qw)) {
    if (Fp32IsFinite(qw)) return {pw, flags};                             // Inf - finite
    if (Fp32IsFinite(pw)) return {qw ^ 0x80000000, flags};                // finite - Inf
    if (pw != qw) return {pw, flags};                                     // Inf - (-Inf)
    return {0x7fc00000, static_cast<Status>(flags | oracle::kStatusNV)};  // Inf - Inf
  }
  Dyadic negated_q = Fp32Dyadic(qw);
  negated_q.negative = !negated_q.negative;
  const Encoded d = DequantEncode(DyadicSum(Fp32Dyadic(pw), negated_q), c.control);
  return {d.word, static_cast<Status>(d.status | flags)};
}

// tdequant_difference_8bit: TDEQUANT forms value - zero_point in an 8-bit register of the source
// type, so differences outside it wrap (S8: 100 - (-100) = 200 becomes -56; U8: 10 - 20 becomes
// 246) before the scaling. Models the "int8 subtraction overflow in dequantize" reports (the
// difference needs 9 bits). tdequant, differences outside the source's range.
Encoded TdequantDifference8Bit(const Case& c) {
  if (KindOf(c) != OpKind::Tdequant) return Oracle(c);
  const auto integer = [&](Word w) {
    return static_cast<std::int64_t>(oracle::NormalizeTileInteger(w, c.pair.src));
  };
  const std::int64_t difference = integer(c.in[0]) - integer(c.in[2]);
  const auto wrapped = static_cast<std::int64_t>(
      oracle::NormalizeTileInteger(static_cast<Word>(difference), c.pair.src));
  return DequantEncode(
      oracle::DyadicProduct(oracle::DyadicFromInteger(wrapped), Fp32Dyadic(c.in[1])), c.control);
}

// tquant_fp32_sum_rounded: TQUANT computed with the host's float arithmetic, value * scale +
// zero_point in FP32 (the product and then the sum each rounded to nearest even), and only then
// rounded to the integer under the mode: a sum rounded onto a .5 tie (0.49999997 + 100 is
// 100.5 in FP32) is resolved the wrong way. The roundings' NX is OR-ed in. tquant, products whose
// sum with the zero point needs more than 24 bits.
Encoded TquantFp32SumRounded(const Case& c) {
  if (KindOf(c) != OpKind::Tquant) return Oracle(c);
  const NumericValueClass cls = oracle::TileNumericValueClass(T::FP32, c.in[0]);
  if (oracle::NumericValueClassIsNaN(cls) || oracle::NumericValueClassIsInfinity(cls)) {
    return Oracle(c);
  }
  const Encoded product = oracle::FastFP32FiniteEncoding(
      oracle::DyadicProduct(Fp32Dyadic(c.in[0]), Fp32Dyadic(c.in[1])), M::RNE);
  Word sum_word = oracle::LowBits(product.word, 32);
  Status flags = product.status & kNX;
  if (Fp32IsFinite(sum_word)) {
    const auto zero_point =
        static_cast<std::int64_t>(oracle::NormalizeTileInteger(c.in[2], c.pair.dst));
    const Encoded sum = oracle::FastFP32FiniteEncoding(
        DyadicSum(Fp32Dyadic(sum_word), oracle::DyadicFromInteger(zero_point)), M::RNE);
    sum_word = oracle::LowBits(sum.word, 32);
    flags = static_cast<Status>(flags | (sum.status & kNX));
  }
  Case d = c;
  d.in[0] = sum_word;
  d.in[1] = kFp32One;
  d.in[2] = 0;
  const Encoded r = Oracle(d);
  return {r.word, static_cast<Status>(r.status | flags)};
}

// fp19_nan_payload_truncated: FP32ToFP19 rounds a NaN scale's raw bits like a finite value's
// (round to nearest even on the 13 dropped bits) instead of giving the canonical 0x3FF00: a NaN
// whose payload sits only in the dropped bits becomes an FP19 infinity (0x7F800001 -> 0x3FC00),
// one with payload above them a non-canonical NaN. qparam, NaN scales.
Encoded Fp19NanPayloadTruncated(const Case& c) {
  if (KindOf(c) != OpKind::Qparam) return Oracle(c);
  const Word bits = oracle::LowBits(c.in[0], 32);
  const bool nan = ((bits >> 23) & 0xff) == 0xff && (bits & 0x7fffff) != 0;
  if (!nan) return Oracle(c);
  const Word dropped = bits & 0x1fff;
  Word fp19 = bits >> 13;
  if (dropped > 0x1000 || (dropped == 0x1000 && (fp19 & 1) != 0)) ++fp19;
  return {oracle::MatrixQuantParameter(fp19 & 0x7ffff, oracle::SignExtend(c.in[1], 32),
                                       static_cast<int>(c.in[2])),
          0};
}

// The models of this file, in the catalogue's order.
constexpr std::array kQuantizationFaultModels = std::to_array<FaultModel>({
    {.name = "tquant-of-under-sat",
     .mutant = "tquant_of_under_sat",
     .models = "TQUANT sets OF|NX when Sat clamps",
     .affects = "tquant, Sat, out-of-range results",
     .ops = kOpsTquant,
     .kind = FaultKind::Own,
     .generic = {},
     .applies = [](const OpDef& op, TypePair) { return OpIn(op, kOpsTquant); },
     .evaluate = TquantOFUnderSat},
    {.name = "tdequant-reads-sat",
     .mutant = "tdequant_reads_sat",
     .models = "TDEQUANT reads Sat: overflow gives +/-0x7F7FFFFF instead of Inf",
     .affects = "tdequant, Sat, overflow",
     .ops = kOpsTdequant,
     .kind = FaultKind::Own,
     .generic = {},
     .applies = [](const OpDef& op, TypePair) { return OpIn(op, kOpsTdequant); },
     .evaluate = TdequantReadsSat},
    {.name = "tquant-non-sat-saturates",
     .mutant = "tquant_nonsat_saturates",
     .models = "TQUANT non-Sat saturates instead of wrapping",
     .affects = "tquant, non-Sat, out-of-range results",
     .ops = kOpsTquant,
     .kind = FaultKind::NarrowedGeneric,
     .generic = SatGeneric(GenericKind::SatAlwaysOn, "Sat always on (tquant)"),
     .applies = [](const OpDef& op, TypePair) { return OpIn(op, kOpsTquant); },
     .evaluate = TquantNonSatSaturates},
    {.name = "fp19-scale-truncated",
     .mutant = "fp19_scale_truncated",
     .models = "FP32ToFP19 truncates instead of rounding to nearest even",
     .affects = "qparam",
     .ops = kOpsQparam,
     .kind = FaultKind::Own,
     .generic = {},
     .applies = [](const OpDef& op, TypePair) { return OpIn(op, kOpsQparam); },
     .evaluate = Fp19ScaleTruncated},
    {.name = "tdequant-u8-zero-point-sign-extended",
     .mutant = "tdequant_u8_zero_point_signed",
     .models = "TDEQUANT U8 zero point sign-extended (read as S8)",
     .affects = "tdequant U8 -> FP32, zero points 0x80..0xFF",
     .ops = kOpsTdequant,
     .kind = FaultKind::Own,
     .generic = {},
     .applies = [](const OpDef& op,
                   TypePair p) { return OpIn(op, kOpsTdequant) && (p.src == T::U8); },
     .evaluate = TdequantU8ZeroPointSigned},
    {.name = "tquant-clamp-before-zero-point",
     .mutant = "tquant_clamp_before_zero_point",
     .models = "TQUANT under Sat clamps value x scale to the range before adding the zero point",
     .affects = "tquant, Sat, products outside the destination range",
     .ops = kOpsTquant,
     .kind = FaultKind::Own,
     .generic = {},
     .applies = [](const OpDef& op, TypePair) { return OpIn(op, kOpsTquant); },
     .evaluate = TquantClampBeforeZeroPoint},
    {.name = "tquant-product-rounded-fp32",
     .mutant = "tquant_product_rounded_fp32",
     .models = "TQUANT rounds value x scale to FP32 (RNE) before adding the zero point",
     .affects = "tquant, products just off an integer or a tie",
     .ops = kOpsTquant,
     .kind = FaultKind::Own,
     .generic = {},
     .applies = [](const OpDef& op, TypePair) { return OpIn(op, kOpsTquant); },
     .evaluate = TquantProductRoundedFp32},
    {.name = "tdequant-two-products",
     .mutant = "tdequant_two_products",
     .models = "TDEQUANT computes v x scale - zp x scale (three FP32 roundings)",
     .affects = "tdequant, inexact products",
     .ops = kOpsTdequant,
     .kind = FaultKind::Own,
     .generic = {},
     .applies = [](const OpDef& op, TypePair) { return OpIn(op, kOpsTdequant); },
     .evaluate = TdequantTwoProducts},
    {.name = "tdequant-difference-8-bit",
     .mutant = "tdequant_difference_8bit",
     .models = "TDEQUANT forms v - zp in 8 bits (wraps)",
     .affects = "tdequant, differences outside the source range",
     .ops = kOpsTdequant,
     .kind = FaultKind::Own,
     .generic = {},
     .applies = [](const OpDef& op, TypePair) { return OpIn(op, kOpsTdequant); },
     .evaluate = TdequantDifference8Bit},
    {.name = "tquant-fp32-sum-rounded",
     .mutant = "tquant_fp32_sum_rounded",
     .models = "TQUANT computes value x scale + zero point in FP32 (RNE twice), then rounds",
     .affects = "tquant, sums needing more than 24 bits",
     .ops = kOpsTquant,
     .kind = FaultKind::Own,
     .generic = {},
     .applies = [](const OpDef& op, TypePair) { return OpIn(op, kOpsTquant); },
     .evaluate = TquantFp32SumRounded},
    {.name = "fp19-nan-payload-rounded",
     .mutant = "fp19_nan_payload_truncated",
     .models = "FP32ToFP19 rounds a NaN's raw bits (payload in the dropped bits: Inf)",
     .affects = "qparam, NaN scales",
     .ops = kOpsQparam,
     .kind = FaultKind::Own,
     .generic = {},
     .applies = [](const OpDef& op, TypePair) { return OpIn(op, kOpsQparam); },
     .evaluate = Fp19NanPayloadTruncated},
});

}  // namespace

std::span<const FaultModel> QuantizationFaultModels() { return kQuantizationFaultModels; }

}  // namespace ptovec::generator::faults
