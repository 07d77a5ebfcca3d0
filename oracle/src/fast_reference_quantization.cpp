// Fast exact forms of seed 003 (see fast_reference_quantization.hpp), on the rounding core
// (rounding_core.hpp). The argument that each equals its literal seed function is written next
// to the code, citing seed lines.
#include "ptovec/oracle/fast_reference_quantization.hpp"

#include "rounding_core.hpp"

namespace ptovec::oracle {

using namespace rounding_core;

// ReferenceFP32FiniteEncoding, seed 003 lines 42-103. With L = bits of m and E = e + L - 1
// (2^E <= |x| < 2^(E+1)), the loops of lines 50-61 end with exponent = min(max(E, -149), 128).
// Line 64 (exponent > 127) is E > 127. Line 70 (exponent < -126) is E < -126; then line 71's
// scaled = x * 2^149 and line 72 rounds the signed value, so |rounded| is RoundedMagnitude of
// m * 2^(e+149) (< 2^23, an integer part that fits); lines 74-80 follow. Otherwise
// (-126 <= E <= 127) normalized * 2^23 = m * 2^(24-L) and lines 83-86 round the signed value:
// |rounded| is RoundedMagnitude of m * 2^(24-L), in 2^23..2^24; lines 88-102 follow. The status
// test Real(rounded) == scaled is "the fraction is zero".
Encoded FastFP32FiniteEncoding(const Dyadic& value, NumericRoundingMode rounding_mode) {
  const U128 m = value.significand;
  if (m == 0) return {0, 0};  // line 46
  const int bits = BitLength(m);
  const std::int64_t e = LeadingExponent(value, bits);
  const Word sign = value.negative ? 0x80000000 : 0;     // line 63
  if (e > 127) return {sign + 0x7f800000, kStatusOFNX};  // lines 64-68
  if (e < -126) {                                        // lines 70-81
    const Split s = SplitAt(m, -(static_cast<std::int64_t>(value.exponent) + 149));
    const U128 magnitude = RoundedMagnitude(value.negative, s, rounding_mode);
    if (magnitude == 0) return {sign, kStatusUFNX};
    return {sign + static_cast<Word>(magnitude),
            s.fraction == Fraction::Zero ? Status{0} : kStatusUFNX};
  }
  const Split s = SplitAt(m, bits - 24);  // lines 83-86
  U128 magnitude = RoundedMagnitude(value.negative, s, rounding_mode);
  std::int64_t encoded_exponent = e + 127;
  if (magnitude == 0x1000000) {  // lines 89-93
    magnitude = 0x800000;
    encoded_exponent = encoded_exponent + 1;
  }
  if (encoded_exponent >= 255) return {sign + 0x7f800000, kStatusOFNX};  // lines 94-98
  return {sign + static_cast<Word>(encoded_exponent) * 0x800000 +
              (static_cast<Word>(magnitude) - 0x800000),
          s.fraction == Fraction::Zero ? Status{0} : kStatusNX};  // lines 99-102
}

// TileProfileQuantize, seed 003 lines 105-149: the same assertions in the same order; then
// affine = v * s + zp with v * s an exact Dyadic (24-bit significands) and zp an integer, so
// floor(affine) = floor(v * s) + zp with the same fraction, and FloatingToInteger follows
// (RoundFloorSplit). The status is "fraction non-zero"; Sat clamps, otherwise the low bits wrap.
Encoded FastTileProfileQuantize(Word value, Word scale, Word zero_point, TileDataType source_type,
                                TileDataType destination_type, NumericExecutionControl control) {
  SeedAssert(source_type == TileDataType::FP32, "TileProfileQuantize source_type == FP32");
  SeedAssert(destination_type == TileDataType::S8 || destination_type == TileDataType::U8,
             "TileProfileQuantize destination_type is S8 or U8");
  const NumericValueClass source_class = TileNumericValueClass(source_type, value);
  const NumericValueClass scale_class = TileNumericValueClass(TileDataType::FP32, scale);
  SeedAssert(!NumericValueClassIsNaN(scale_class), "TileProfileQuantize scale is not NaN");
  SeedAssert(!NumericValueClassIsInfinity(scale_class),
             "TileProfileQuantize scale is not infinite");
  SeedAssert(!NumericValueClassIsZero(scale_class), "TileProfileQuantize scale is not zero");
  const IntegerRange range = RangeOf(destination_type);
  if (NumericValueClassIsNaN(source_class)) return {0, kStatusNV};  // lines 124-125
  if (NumericValueClassIsInfinity(source_class)) {                  // lines 126-133
    const I128 saturated = ((value >> 31) & 1) == 1 ? range.minimum : range.maximum;
    return {NormalizeTileInteger(static_cast<std::uint64_t>(static_cast<U128>(saturated)),
                                 destination_type),
            kStatusOFNX};
  }
  const Dyadic product = DyadicProduct(DyadicFromFiniteCode(TileDataType::FP32, value),
                                       DyadicFromFiniteCode(TileDataType::FP32, scale));
  const Word zero_bits = NormalizeTileInteger(zero_point, destination_type);
  const I128 zero = TileDataTypeIsSigned(destination_type)
                        ? I128{static_cast<std::int64_t>(zero_bits)}
                        : I128{zero_bits};
  FloorSplit affine = FloorOf(product);  // lines 134-136
  affine.floor = Add(affine.floor, zero);
  const Wide rounded = RoundFloorSplit(affine, control.rounding_mode);             // line 137
  const Status flags = affine.fraction == Fraction::Zero ? Status{0} : kStatusNX;  // lines 139-140
  std::uint64_t selected = rounded.low;
  if (control.saturating) {  // lines 141-145
    if (rounded.value < range.minimum) {
      selected = static_cast<std::uint64_t>(static_cast<U128>(range.minimum));
    } else if (rounded.value > range.maximum) {
      selected = static_cast<std::uint64_t>(static_cast<U128>(range.maximum));
    }
  }
  return {NormalizeTileInteger(selected, destination_type), flags};  // lines 146-148
}

// TileProfileDequantize, seed 003 lines 151-172: the same assertions; (v - zp) * scale is an
// exact Dyadic; then FastFP32FiniteEncoding == ReferenceFP32FiniteEncoding.
Encoded FastTileProfileDequantize(Word value, Word scale, Word zero_point, TileDataType source_type,
                                  TileDataType destination_type, NumericExecutionControl control) {
  SeedAssert(source_type == TileDataType::S8 || source_type == TileDataType::U8,
             "TileProfileDequantize source_type is S8 or U8");
  SeedAssert(destination_type == TileDataType::FP32,
             "TileProfileDequantize destination_type == FP32");
  const NumericValueClass scale_class = TileNumericValueClass(TileDataType::FP32, scale);
  SeedAssert(!NumericValueClassIsNaN(scale_class), "TileProfileDequantize scale is not NaN");
  SeedAssert(!NumericValueClassIsInfinity(scale_class),
             "TileProfileDequantize scale is not infinite");
  SeedAssert(!NumericValueClassIsZero(scale_class), "TileProfileDequantize scale is not zero");
  const auto integer_value = [&](Word w) -> std::int64_t {
    const Word bits = NormalizeTileInteger(w, source_type);
    return static_cast<std::int64_t>(bits);  // S8 sign-extended, U8 zero-extended
  };
  const std::int64_t difference = integer_value(value) - integer_value(zero_point);
  const Dyadic dequantized =
      DyadicProduct(DyadicFromInteger(difference), DyadicFromFiniteCode(TileDataType::FP32, scale));
  return FastFP32FiniteEncoding(dequantized, control.rounding_mode);
}

}  // namespace ptovec::oracle
