// Literal transliteration of seed 003_33e68b274ac7ab62.txt
// (PTO-ARCH-PROFILE-REFERENCE-QUANTIZATION). Read side by side with the seed: the statements follow
// it one for one; comments give seed lines.
#include "ptovec/oracle/reference_quantization.hpp"

#include <array>

#include "asl.hpp"

namespace ptovec::oracle {

using asl::Field;

namespace {

// Seed 003 lines 3-14: the body of ReferencePowerOfTwo, statement for statement.
Real ReferencePowerOfTwoBody(int exponent) {
  Real result = 1;  // line 4
  if (exponent > 0) {
    for (int step = 1; step <= exponent; ++step) result = result * 2;  // lines 5-8
  } else if (exponent < 0) {
    for (int step = 1; step <= -exponent; ++step) result = result / 2;  // lines 9-12
  }
  return result;  // line 14
}

}  // namespace

// Seed 003 lines 2-15. A pure function of an exponent in -149..127: its 277 results are computed
// once, each by the seed's own loop (ReferencePowerOfTwoBody above), and kept; a call asserts the
// domain (the type `integer {-149..127}` of line 2) and returns the kept result.
const Real& ReferencePowerOfTwo(int exponent) {
  SeedAssert(-149 <= exponent && exponent <= 127, "ReferencePowerOfTwo exponent in -149..127");
  static const std::array<Real, 277> kResults = [] {
    std::array<Real, 277> results;
    for (int e = -149; e <= 127; ++e) {
      results[static_cast<std::size_t>(e + 149)] = ReferencePowerOfTwoBody(e);
    }
    return results;
  }();
  return kResults[static_cast<std::size_t>(exponent + 149)];
}

// Seed 003 lines 17-32.
Real ReferenceFP32FiniteValue(Word value) {
  const Word exponent = Field(value, 30, 23);                               // line 19
  const Word fraction = Field(value, 22, 0);                                // line 20
  SeedAssert(exponent != 255, "ReferenceFP32FiniteValue exponent != 255");  // line 21
  Real magnitude = 0;
  if (exponent == 0) {
    magnitude = Real(Integer(fraction)) * ReferencePowerOfTwo(-149);  // line 24
  } else {
    const Real significand = Real(Integer(0x800000 + fraction)) / Real(0x800000);  // line 26
    magnitude = significand * ReferencePowerOfTwo(static_cast<int>(exponent) - 127);
  }
  if (Field(value, 31, 31) == 1) return -magnitude;  // line 30
  return magnitude;
}

// Seed 003 lines 34-40.
Integer ReferenceIntegerValue(Word value, TileDataType data_type) {
  const Word normalized = NormalizeTileInteger(value, data_type);
  if (TileDataTypeIsSigned(data_type)) return Integer(static_cast<std::int64_t>(normalized));
  return Integer(normalized);
}

// Seed 003 lines 42-103.
Encoded ReferenceFP32FiniteEncoding(const Real& value, NumericRoundingMode rounding_mode) {
  if (value == 0) return {0, 0};  // line 46
  const bool negative = value < 0;
  Real normalized = negative ? Real(-value) : value;
  int exponent = 0;
  for (int step = 1; step <= 128; ++step) {  // lines 50-55
    if (normalized >= 2 && exponent < 128) {
      normalized = normalized / 2;
      exponent = exponent + 1;
    }
  }
  for (int step = 1; step <= 149; ++step) {  // lines 56-61
    if (normalized < 1 && exponent > -149) {
      normalized = normalized * 2;
      exponent = exponent - 1;
    }
  }

  const Word sign = negative ? 0x80000000 : 0;  // line 63
  if (exponent > 127) {                         // lines 64-68
    return {sign + 0x7f800000, 0x14};
  }

  if (exponent < -126) {  // lines 70-81
    const Real scaled = value / ReferencePowerOfTwo(-149);
    const Integer rounded = FloatingToInteger(scaled, rounding_mode);
    const Integer magnitude = rounded < 0 ? Integer(-rounded) : rounded;
    if (magnitude == 0) {
      return {sign, 0x18};
    }
    return {sign + WordOf(magnitude), static_cast<Status>(Real(rounded) == scaled ? 0 : 0x18)};
  }

  const Real scaled = negative ? Real(-(normalized * 0x800000))  // lines 83-85
                               : Real(normalized * 0x800000);
  const Integer rounded = FloatingToInteger(scaled, rounding_mode);
  Integer magnitude = rounded < 0 ? Integer(-rounded) : rounded;
  int encoded_exponent = exponent + 127;
  if (magnitude == 0x1000000) {  // lines 89-93
    magnitude = 0x800000;
    encoded_exponent = encoded_exponent + 1;
  }
  if (encoded_exponent >= 255) {  // lines 94-98
    return {sign + 0x7f800000, 0x14};
  }
  const Integer fraction = magnitude - 0x800000;  // line 99
  return {sign + static_cast<Word>(encoded_exponent) * 0x800000 + WordOf(fraction),
          static_cast<Status>(Real(rounded) == scaled ? 0 : 0x10)};
}

// Seed 003 lines 105-149.
Encoded TileProfileQuantize(Word value, Word scale, Word zero_point, TileDataType source_type,
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
  const Integer minimum =
      ReferenceIntegerValue(TileIntegerMinimum(destination_type), destination_type);
  const Integer maximum =
      ReferenceIntegerValue(TileIntegerMaximum(destination_type), destination_type);
  if (NumericValueClassIsNaN(source_class)) {  // lines 124-125
    return {0, 1};
  } else if (NumericValueClassIsInfinity(source_class)) {  // lines 126-133
    const Integer saturated = Field(value, 31, 31) == 1 ? minimum : maximum;
    return {NormalizeTileInteger(WordOf(saturated), destination_type), 0x14};
  }
  const Real affine = ReferenceFP32FiniteValue(Field(value, 31, 0)) *  // lines 134-136
                          ReferenceFP32FiniteValue(Field(scale, 31, 0)) +
                      Real(ReferenceIntegerValue(zero_point, destination_type));
  const Integer rounded = FloatingToInteger(affine, control.rounding_mode);
  Integer selected = rounded;
  const Status flags = Real(rounded) == affine ? 0 : 0x10;  // lines 139-140
  if (control.saturating) {                                 // lines 141-145
    if (selected < minimum) {
      selected = minimum;
    } else if (selected > maximum) {
      selected = maximum;
    }
  }
  return {NormalizeTileInteger(WordOf(selected), destination_type), flags};
}

// Seed 003 lines 151-172.
Encoded TileProfileDequantize(Word value, Word scale, Word zero_point, TileDataType source_type,
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
  const Integer source_value = ReferenceIntegerValue(value, source_type);
  const Integer zero_value = ReferenceIntegerValue(zero_point, source_type);
  const Real dequantized =
      Real(source_value - zero_value) * ReferenceFP32FiniteValue(Field(scale, 31, 0));
  return ReferenceFP32FiniteEncoding(dequantized, control.rounding_mode);
}

}  // namespace ptovec::oracle
