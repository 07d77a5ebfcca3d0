// The fault-model catalogue (ptovec/generator/faults.hpp), faults of the E4M3 and HiF8 encoders and
// decoders. Each fault is one function `Encoded F(const Case&)`: the oracle's bulk path with the
// fault injected; where the fault does not apply it returns the oracle's answer unchanged. Each
// comment: the bug modelled, where it was seen, the ops and pairs it affects.
#include "fault_common.hpp"

namespace ptovec::generator::faults {

namespace {

// e4m3_neg_overflow_ff: a negative non-Sat E4M3 overflow returns 0xFF (the sign bit OR-ed onto
// the NaN pattern) instead of the profile's 0x7F for both signs. encode to E4M3, negative values
// above 448 in magnitude (FP32, FP16, BF16, S32 sources).
Encoded E4M3NegativeOverflowFF(const Case& c) {
  Encoded r = Oracle(c);
  if (KindOf(c) == OpKind::Encode && c.pair.dst == T::E4M3 && !c.control.saturating &&
      (r.status & kOF) != 0 && EncodeValue(c).negative) {
    r.word = 0xff;
  }
  return r;
}

// fp8_overflow_after_rounding: E4M3/HiF8 overflow judged after rounding (IEEE style) instead of
// on the exact magnitude (spec-notes section 5 item 4): a magnitude a little above 448 (32768)
// that rounds to it under the mode returns the largest finite with NX instead of overflowing.
// encode to E4M3 and HiF8.
Encoded Fp8OverflowAfterRounding(const Case& c) {
  Encoded r = Oracle(c);
  if (KindOf(c) != OpKind::Encode || !IsFP8(c.pair.dst) || (r.status & kOF) == 0) return r;
  const bool e4m3 = c.pair.dst == T::E4M3;
  const int last_place = e4m3 ? 5 : 14;  // 448 = 14 * 2^5; 32768 = 2 * 2^14
  const std::int64_t largest_units = e4m3 ? 14 : 2;
  Dyadic units = EncodeValue(c);
  units.exponent -= last_place;
  const Encoded rounded = oracle::FastMatrixIntegerEncoding(units, T::S32, c.control);
  if ((rounded.status & kOF) != 0) return r;
  const auto n = static_cast<std::int64_t>(rounded.word);
  if (n != largest_units && n != -largest_units) return r;
  const Word largest = LargestFinite(c.pair.dst);
  return {n < 0 ? (largest | 0x80) : largest, kNX};
}

// hif8_overflow_nan: a non-Sat HiF8 overflow returns the NaN code 0x80 (the E4M3 habit of
// "overflow is NaN" carried over) instead of +/-Inf 0x6F/0xEF. encode to HiF8.
Encoded Hif8OverflowNaN(const Case& c) {
  Encoded r = Oracle(c);
  if (KindOf(c) == OpKind::Encode && c.pair.dst == T::HiF8 && !c.control.saturating &&
      (r.status & kOF) != 0) {
    r.word = 0x80;
  }
  return r;
}

// hif8_exponent_sign_misread: the HiF8 decoder reads the exponent sign bit with the wrong
// polarity (bit 3 of the 001x dot field, bit 4 of the 01xx/10xx/11xx fields), so 2^e decodes as
// 2^-e. encode from HiF8, every destination. A misread code that lands on Inf (0x7F -> 0x6F)
// overflows the destination.
Encoded Hif8ExponentSignMisread(const Case& c) {
  if (KindOf(c) != OpKind::Encode || c.pair.src != T::HiF8) return Oracle(c);
  const Word body = c.in[0] & 0x7f;
  const Word dot = body >> 3;
  Word flip = 0;
  if (dot == 2 || dot == 3) {
    flip = 0x08;
  } else if (dot >= 4) {
    flip = 0x10;
  }
  const Word misread = c.in[0] ^ flip;
  const NumericValueClass cls = oracle::TileNumericValueClass(T::HiF8, misread);
  if (oracle::NumericValueClassIsInfinity(cls) || oracle::NumericValueClassIsNaN(cls)) {
    Dyadic huge{(misread & 0x80) != 0, 1, 1000};
    return EncodeDyadic(huge, c.pair.dst, c.control);
  }
  Case d = c;
  d.in[0] = misread;
  return Oracle(d);
}

// fp8_tiny_shift_wraps: the FP8 encoder denormalises a tiny value by shifting the source's 24-bit
// FP32 significand right by (14 - exponent) places in a 32-bit register; for values below 2^-17
// the amount is 32 or more and the shifter uses it modulo 32 (x86's SHR masks the count to 5
// bits; the C shift is undefined), so a value far below the smallest E4M3 subnormal (2^-9) comes
// out as a non-zero code made of the significand's high bits (packed as `sign | bits` in 8
// bits). Models the "float to fp8/half returns garbage for very small inputs" reports against
// converters that skip the "shift >= width: result 0" check. Flags stay the oracle's (the
// tininess logic sees the exponent). encode to E4M3 from FP32, BF16 and FP16 (widened to FP32
// first), values below 2^-17.
Encoded Fp8TinyShiftWraps(const Case& c) {
  Encoded r = Oracle(c);
  if (KindOf(c) != OpKind::Encode || c.pair.dst != T::E4M3 || !IsBinary(c.pair.src)) return r;
  const Dyadic value = EncodeValue(c);
  if (value.significand == 0) return r;
  // The FP32 form: |value| = M * 2^(E - 23), M < 2^24 (the hidden bit included), E >= -126.
  const int exponent = std::max(oracle::DyadicLeadingExponent(value), -126);
  const int shift = 14 - exponent;  // |value| / 2^-9 = M >> shift
  if (shift < 32) return r;
  const int lowest = exponent - 23;  // the exponent of M's last bit
  const DyadicSignificand m = value.exponent >= lowest
                                  ? value.significand << (value.exponent - lowest)
                                  : value.significand >> (lowest - value.exponent);
  const Dyadic wrapped{value.negative, m, -(shift & 31)};
  const Encoded rounded =
      oracle::FastMatrixIntegerEncoding(wrapped, T::S64, {c.control.rounding_mode, false});
  const auto n = static_cast<std::int64_t>(rounded.word);
  const Word magnitude = static_cast<Word>(n < 0 ? -n : n);
  r.word = ((value.negative ? 0x80 : 0) | magnitude) & 0xff;
  return r;
}

// e4m3_top_binade_saturates: the E4M3 encoder treats the top exponent field (15) as reserved for
// Inf/NaN, as IEEE-style formats and E5M2 do, where OCP E4M3 (FN) uses it for finite values up to
// 448; so every result in the top binade (256 to 448, codes 0x78..0x7E) is an overflow: 0x7F
// (NaN) with OF|NX, or under Sat the "largest finite" 240 (0x77) with OF|NX. Models the reports
// of FP8 E4M3 conversions that clip at 240 (E5M2/IEEE logic reused for E4M3). encode to E4M3.
Encoded E4M3TopBinadeSaturates(const Case& c) {
  const Encoded r = Oracle(c);
  if (KindOf(c) != OpKind::Encode || c.pair.dst != T::E4M3) return r;
  const Word body = r.word & 0x7f;
  if (body < 0x78 || body > 0x7e) return r;
  const Word sign = r.word & 0x80;
  return {c.control.saturating ? (sign | 0x77) : Word{0x7f}, kOF | kNX};
}

// e4m3_mantissa_carry_lost: rounding up a mantissa of 111 gives 1000, whose carry should
// increment the exponent; the encoder keeps the three low bits (000) and the old exponent, so the
// result drops to the bottom of its binade (1.9375 under RNE becomes 1.0 instead of 2.0). Models
// the "rounding overflow into the exponent not handled" reports of hand-written FP8 and bfloat
// packers. encode to E4M3, normal results that round up across a binade boundary.
Encoded E4M3MantissaCarryLost(const Case& c) {
  const Encoded r = Oracle(c);
  if (KindOf(c) != OpKind::Encode || c.pair.dst != T::E4M3 || (r.status & kOF) != 0) return r;
  const Encoded truncated = OracleWith(c, {M::RTZ, c.control.saturating});
  const Word t = truncated.word & 0x7f;
  if ((truncated.status & kOF) != 0 || (t & 0x7) != 0x7 || (t >> 3) == 0 ||
      (r.word & 0x7f) != t + 1) {
    return r;
  }
  return {(r.word & 0x80) | (t & 0x78), r.status};
}

// hif8_encode_band_sign_flipped: the HiF8 encoder writes the exponent sign of one band (the
// 4-bit-exponent band, |exponent| 4..7, 2 mantissa bits, codes 0x40..0x5F of the body) with
// the wrong polarity, so 2^e is stored as 2^-e (16 encodes as 1/16). The encode-side twin of
// hif8_exponent_sign_misread (a decoder fault on HiF8 sources). Models the "wrong exponent sign
// in one HiF8/tapered-format band" reports of table-driven encoders. encode to HiF8, results of
// magnitude in [16, 256) or [2^-7, 2^-3).
Encoded Hif8EncodeBandSignFlipped(const Case& c) {
  Encoded r = Oracle(c);
  if (KindOf(c) != OpKind::Encode || c.pair.dst != T::HiF8) return r;
  const Word body = r.word & 0x7f;
  if (body >= 0x40 && body <= 0x5f) r.word ^= 0x10;
  return r;
}

// e4m3_truncates: the E4M3 converter truncates (drops the fraction bits beyond 3) in every mode:
// the simulator's bit-slicing FP8 packer. encode to E4M3, every mode but RTZ, inexact values.
Encoded E4M3Truncates(const Case& c) {
  if (KindOf(c) != OpKind::Encode || c.pair.dst != T::E4M3) return Oracle(c);
  return OracleWith(c, {M::RTZ, c.control.saturating});
}

/// |x| rounded under the mode at 4 significant bits of binade `leading` (x in [2^leading,
/// 2^(leading+1))): the significand n in 8..16 of n * 2^(leading - 3) and whether it was inexact.
RoundedInteger RoundFourBits(const Dyadic& x, int leading, M mode) {
  Dyadic units = x;
  units.exponent += 3 - leading;
  RoundedInteger n = RoundToInteger(units, mode);
  n.value = n.value < 0 ? -n.value : n.value;
  return n;
}

// e4m3_subnormal_boundary_low: the E4M3 encoder's subnormal test is one binade off: values in
// [2^-7, 2^-6), the top subnormal binade, take the normal path with an exponent field of
// 7 + (-7) = 0, so their code is the sign and the 3 rounded fraction bits alone: 2^-7 comes out
// as 0x00 (flushed to zero), 1.5 * 2^-7 as 0x04 (2^-7), without UF. encode to E4M3, values in
// [2^-7, 2^-6) that do not round up to 2^-6.
Encoded E4M3SubnormalBoundaryLow(const Case& c) {
  const Encoded r = Oracle(c);
  if (KindOf(c) != OpKind::Encode || c.pair.dst != T::E4M3) return r;
  const Dyadic x = EncodeValue(c);
  if (x.significand == 0 || oracle::DyadicLeadingExponent(x) != -7) return r;
  const RoundedInteger n = RoundFourBits(x, -7, c.control.rounding_mode);
  if (n.value == 16) return r;  // carries to 2^-6 = 0x08: the normal path gets that right
  return {(x.negative ? Word{0x80} : Word{0}) | static_cast<Word>(n.value - 8),
          n.inexact ? kNX : Status{0}};
}

// e4m3_exponent_wraps: the E4M3 encoder has no overflow test: a magnitude above 448 is rounded to
// 4 significant bits and its biased exponent written modulo 16, so 512 (2^9, field 16) becomes
// 0x00 and 480 the NaN pattern 0x7F, with NX only when inexact, Sat or not. encode to E4M3,
// magnitudes above 448.
Encoded E4M3ExponentWraps(const Case& c) {
  const Encoded r = Oracle(c);
  if (KindOf(c) != OpKind::Encode || c.pair.dst != T::E4M3 || (r.status & kOF) == 0) return r;
  const Dyadic x = EncodeValue(c);
  int leading = oracle::DyadicLeadingExponent(x);
  RoundedInteger n = RoundFourBits(x, leading, c.control.rounding_mode);
  if (n.value == 16) n.value = 8, ++leading;
  const auto field = static_cast<Word>((leading + 7) & 15);
  return {(x.negative ? Word{0x80} : Word{0}) | field << 3 | static_cast<Word>(n.value - 8),
          n.inexact ? kNX : Status{0}};
}

// hif8_dot_mantissa_width: the HiF8 decoder assembles every normal significand as 1.mmm with 3
// fraction bits, right for the 0001, 001x and 01xx dot fields but not for the two shortest-
// mantissa fields, 10xx (2 mantissa bits) and 11xx (1 bit): their mantissa m is read as m/8
// instead of m/4 or m/2 (0x41 = 2^4 * 1.25 decodes as 2^4 * 1.125). The simulator's HiF8 table
// was wrong for two dot fields. encode from HiF8, codes with a non-zero mantissa in those fields.
Encoded Hif8DotMantissaWidth(const Case& c) {
  if (KindOf(c) != OpKind::Encode || c.pair.src != T::HiF8) return Oracle(c);
  const Word body = c.in[0] & 0x7f;
  if (body < 0x40 || !oracle::TileNumericValueIsFinite(T::HiF8, c.in[0])) return Oracle(c);
  const Word mantissa = body >= 0x60 ? (body & 0x1) : (body & 0x3);
  const Dyadic right = EncodeValue(c);
  const Dyadic misread{right.negative, 8 + mantissa, oracle::DyadicLeadingExponent(right) - 3};
  return EncodeDyadic(misread, c.pair.dst, c.control);
}

// The models of this file, in the catalogue's order.
constexpr std::array kFp8FaultModels = std::to_array<FaultModel>({
    {.name = "e4m3-negative-overflow-0xff",
     .mutant = "e4m3_neg_overflow_ff",
     .models = "negative non-Sat E4M3 overflow gives 0xFF instead of 0x7F",
     .affects = "encode to E4M3, negative overflow",
     .ops = kOpsEncode,
     .kind = FaultKind::Own,
     .generic = {},
     .applies = [](const OpDef& op,
                   TypePair p) { return OpIn(op, kOpsEncode) && (p.dst == T::E4M3); },
     .evaluate = E4M3NegativeOverflowFF},
    {.name = "hif8-decoder-exponent-sign-inverted",
     .mutant = "hif8_exponent_sign_misread",
     .models = "HiF8 decoder reads the exponent sign bit inverted",
     .affects = "encode from HiF8",
     .ops = kOpsEncode,
     .kind = FaultKind::Own,
     .generic = {},
     .applies = [](const OpDef& op,
                   TypePair p) { return OpIn(op, kOpsEncode) && (p.src == T::HiF8); },
     .evaluate = Hif8ExponentSignMisread},
    {.name = "fp8-overflow-after-rounding",
     .mutant = "fp8_overflow_after_rounding",
     .models = "E4M3/HiF8 overflow judged after rounding (449 -> 448 under RNE)",
     .affects = "encode to E4M3 and HiF8",
     .ops = kOpsEncode,
     .kind = FaultKind::Own,
     .generic = {},
     .applies = [](const OpDef& op, TypePair p) { return OpIn(op, kOpsEncode) && (IsFP8(p.dst)); },
     .evaluate = Fp8OverflowAfterRounding},
    {.name = "hif8-overflow-nan",
     .mutant = "hif8_overflow_nan",
     .models = "non-Sat HiF8 overflow gives NaN 0x80 instead of +/-Inf",
     .affects = "encode to HiF8, non-Sat overflow",
     .ops = kOpsEncode,
     .kind = FaultKind::Own,
     .generic = {},
     .applies = [](const OpDef& op,
                   TypePair p) { return OpIn(op, kOpsEncode) && (p.dst == T::HiF8); },
     .evaluate = Hif8OverflowNaN},
    {.name = "e4m3-tiny-shift-modulo-32",
     .mutant = "fp8_tiny_shift_wraps",
     .models = "E4M3 denormalising shift taken modulo 32: values below 2^-17 give non-zero codes",
     .affects = "encode to E4M3 from FP32/BF16/FP16, values below 2^-17",
     .ops = kOpsEncode,
     .kind = FaultKind::Own,
     .generic = {},
     .applies =
         [](const OpDef& op, TypePair p) {
           return OpIn(op, kOpsEncode) && (p.dst == T::E4M3 && IsBinary(p.src));
         },
     .evaluate = Fp8TinyShiftWraps},
    {.name = "e4m3-top-exponent-reserved",
     .mutant = "e4m3_top_binade_saturates",
     .models = "E4M3 top exponent treated as reserved: 256..448 overflow (0x7F, Sat 240)",
     .affects = "encode to E4M3, results 256..448",
     .ops = kOpsEncode,
     .kind = FaultKind::Own,
     .generic = {},
     .applies = [](const OpDef& op,
                   TypePair p) { return OpIn(op, kOpsEncode) && (p.dst == T::E4M3); },
     .evaluate = E4M3TopBinadeSaturates},
    {.name = "e4m3-mantissa-carry-lost",
     .mutant = "e4m3_mantissa_carry_lost",
     .models = "E4M3 mantissa carry on rounding up lost (1.9375 becomes 1.0)",
     .affects = "encode to E4M3, rounding up across a binade",
     .ops = kOpsEncode,
     .kind = FaultKind::Own,
     .generic = {},
     .applies = [](const OpDef& op,
                   TypePair p) { return OpIn(op, kOpsEncode) && (p.dst == T::E4M3); },
     .evaluate = E4M3MantissaCarryLost},
    {.name = "hif8-encoder-band-sign-inverted",
     .mutant = "hif8_encode_band_sign_flipped",
     .models = "HiF8 encoder writes the exponent sign of the |e| = 4..7 band inverted",
     .affects = "encode to HiF8, results in [16, 256) and [2^-7, 2^-3)",
     .ops = kOpsEncode,
     .kind = FaultKind::Own,
     .generic = {},
     .applies = [](const OpDef& op,
                   TypePair p) { return OpIn(op, kOpsEncode) && (p.dst == T::HiF8); },
     .evaluate = Hif8EncodeBandSignFlipped},
    {.name = "e4m3-truncation",
     .mutant = "e4m3_truncates",
     .models = "E4M3 conversion truncates instead of rounding, in every mode",
     .affects = "encode to E4M3, every mode but RTZ, inexact values",
     .ops = kOpsEncode,
     .kind = FaultKind::NarrowedGeneric,
     .generic = ModeAsGeneric(std::nullopt, M::RTZ, "every mode as RTZ (encode to E4M3)"),
     .applies = [](const OpDef& op,
                   TypePair p) { return OpIn(op, kOpsEncode) && (p.dst == T::E4M3); },
     .evaluate = E4M3Truncates},
    {.name = "e4m3-subnormal-boundary-low",
     .mutant = "e4m3_subnormal_boundary_low",
     .models =
         "E4M3 subnormal boundary one binade low: [2^-7, 2^-6) on the normal path (2^-7 -> 0)",
     .affects = "encode to E4M3, values in [2^-7, 2^-6)",
     .ops = kOpsEncode,
     .kind = FaultKind::Own,
     .generic = {},
     .applies = [](const OpDef& op,
                   TypePair p) { return OpIn(op, kOpsEncode) && (p.dst == T::E4M3); },
     .evaluate = E4M3SubnormalBoundaryLow},
    {.name = "e4m3-exponent-wraps",
     .mutant = "e4m3_exponent_wraps",
     .models = "E4M3 overflow not detected: the biased exponent wraps modulo 16 (512 -> 0x00)",
     .affects = "encode to E4M3, magnitudes above 448",
     .ops = kOpsEncode,
     .kind = FaultKind::Own,
     .generic = {},
     .applies = [](const OpDef& op,
                   TypePair p) { return OpIn(op, kOpsEncode) && (p.dst == T::E4M3); },
     .evaluate = E4M3ExponentWraps},
    {.name = "hif8-dot-field-mantissa-width",
     .mutant = "hif8_dot_mantissa_width",
     .models = "HiF8 decoder reads the 10xx and 11xx dot fields' mantissa as 3 bits wide",
     .affects = "encode from HiF8, dot fields 10xx and 11xx",
     .ops = kOpsEncode,
     .kind = FaultKind::Own,
     .generic = {},
     .applies = [](const OpDef& op,
                   TypePair p) { return OpIn(op, kOpsEncode) && (p.src == T::HiF8); },
     .evaluate = Hif8DotMantissaWidth},
});

}  // namespace

std::span<const FaultModel> Fp8FaultModels() { return kFp8FaultModels; }

}  // namespace ptovec::generator::faults
