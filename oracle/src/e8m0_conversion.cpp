// Literal transliteration of seed 001_c13013f58bb35bbc.txt (PTO-ARCH-PROFILE-E8M0-CONVERSION).
// Read side by side with the seed: the statements follow it one for one; comments give seed lines.
#include "ptovec/oracle/e8m0_conversion.hpp"

#include "asl.hpp"

namespace ptovec::oracle {

using asl::LSL;
using asl::Mod2;

// Seed 001 lines 14-20.
bool HardwareTCVTE8M0SourceTypeSupported(TileDataType source_type) {
  return source_type == TileDataType::FP16 || source_type == TileDataType::BF16 ||
         source_type == TileDataType::FP32;
}

// Seed 001 lines 22-30.
bool HardwareTCVTTypePairSupported(TileDataType source_type, TileDataType destination_type) {
  if (destination_type == TileDataType::E8M0) {
    return HardwareTCVTE8M0SourceTypeSupported(source_type);
  }
  return true;
}

// Seed 001 lines 32-43.
int ReferenceE8M0HighestSetBit(Word significand) {
  SeedAssert(significand != 0, "ReferenceE8M0HighestSetBit: !IsZero(significand)");
  int highest = 0;
  for (int position = 0; position <= 63; ++position) {
    if (((significand >> position) & 1) == 1) highest = position;
  }
  return highest;
}

// Seed 001 lines 45-101.
std::pair<int, bool> ReferenceE8M0RoundExponent(Word significand, int exponent,
                                                NumericRoundingMode mode) {
  const int highest = ReferenceE8M0HighestSetBit(significand);  // line 50
  const int floor_candidate = exponent + highest;
  SeedAssert(-149 <= floor_candidate && floor_candidate <= 127,
             "ReferenceE8M0RoundExponent: -149 <= floor_candidate <= 127");  // line 52
  const int floor_exponent = floor_candidate;
  const bool exact_power = significand == LSL(1, static_cast<unsigned>(highest));  // lines 54-55
  if (exact_power) {
    return {floor_exponent, true};
  }

  const int ceiling_exponent = floor_exponent + 1;  // line 60
  if (mode == NumericRoundingMode::RTM) {           // lines 61-75
    return {floor_exponent, false};
  } else if (mode == NumericRoundingMode::RTP) {
    return {ceiling_exponent, false};
  } else if (mode == NumericRoundingMode::RTZ) {
    if (floor_exponent < 0) {
      return {ceiling_exponent, false};
    } else {
      return {floor_exponent, false};
    }
  } else if (mode == NumericRoundingMode::RTO) {
    if (Mod2(floor_exponent) != 0) {
      return {floor_exponent, false};
    } else {
      return {ceiling_exponent, false};
    }
  }

  const Word square = asl::MultiplyWord(significand, significand);  // line 77
  const int boundary_shift = 2 * highest + 1;
  SeedAssert(boundary_shift <= 127, "ReferenceE8M0RoundExponent: boundary_shift <= 127");
  // line 80: LSL(Zeros{64} + 1, boundary_shift) in a 64-bit Word: 0 when the shift is >= 64.
  const Word boundary = LSL(1, static_cast<unsigned>(boundary_shift));
  if (square < boundary) {  // lines 83-100
    return {floor_exponent, false};
  } else if (square > boundary) {
    return {ceiling_exponent, false};
  } else if (mode == NumericRoundingMode::RNE) {
    if (Mod2(floor_exponent) == 0) {
      return {floor_exponent, false};
    } else {
      return {ceiling_exponent, false};
    }
  } else if (mode == NumericRoundingMode::RNA) {
    if (floor_exponent < 0) {
      return {floor_exponent, false};
    } else {
      return {ceiling_exponent, false};
    }
  } else {
    SeedAssert(mode == NumericRoundingMode::RHB, "ReferenceE8M0RoundExponent: mode == RHB");
    return {ceiling_exponent, false};
  }
}

// Seed 001 lines 103-152.
Encoded ReferenceFloatToE8M0(Word value, TileDataType source_type,
                             NumericExecutionControl control) {
  SeedAssert(HardwareTCVTE8M0SourceTypeSupported(source_type),
             "ReferenceFloatToE8M0: HardwareTCVTE8M0SourceTypeSupported(source_type)");
  const NumericValueClass value_class = TileNumericValueClass(source_type, value);  // line 109
  if (value_class == NumericValueClass::InvalidEncoding ||                          // 110-116
      NumericValueClassIsNaN(value_class) || NumericValueClassIsZero(value_class) ||
      value_class == NumericValueClass::NegativeInfinity ||
      value_class == NumericValueClass::NegativeNormal ||
      value_class == NumericValueClass::NegativeSubnormal) {
    return {0xff, 0x01};
  } else if (value_class == NumericValueClass::PositiveInfinity) {  // lines 117-122
    return {control.saturating ? Word{0xfe} : Word{0xff}, 0x14};
  }

  const FiniteDecomposition d = TileNumericFiniteDecomposition(source_type, value);  // 124-125
  SeedAssert(d.available && !d.negative && d.significand != 0,
             "ReferenceFloatToE8M0: available && !negative && !IsZero(significand)");
  const int highest = ReferenceE8M0HighestSetBit(d.significand);  // line 127
  const int floor_candidate = d.exponent + highest;
  SeedAssert(-149 <= floor_candidate && floor_candidate <= 127,
             "ReferenceFloatToE8M0: -149 <= floor_candidate <= 127");
  const int floor_exponent = floor_candidate;
  const bool exact_power = d.significand == LSL(1, static_cast<unsigned>(highest));  // 131-132
  if (floor_exponent < -127) {  // lines 133-137
    return {control.saturating ? Word{0} : Word{0xff}, 0x18};
  } else if (floor_exponent == 127 && !exact_power) {  // lines 138-142
    return {control.saturating ? Word{0xfe} : Word{0xff}, 0x14};
  }

  const auto [rounded_exponent, exact] =  // lines 145-146
      ReferenceE8M0RoundExponent(d.significand, d.exponent, control.rounding_mode);
  SeedAssert(-127 <= rounded_exponent && rounded_exponent <= 127,
             "ReferenceFloatToE8M0: -127 <= rounded_exponent <= 127");  // line 147
  const int code = rounded_exponent + 127;
  return {static_cast<Word>(code), static_cast<Status>(exact ? 0 : 0x10)};
}

// Seed 001 lines 154-168.
Encoded TileProfileConvert(Word value, TileDataType source_type, TileDataType destination_type,
                           NumericExecutionControl control) {
  if (destination_type == TileDataType::E8M0) {
    return ReferenceFloatToE8M0(value, source_type, control);
  } else if (!TileDataTypeIsFloating(destination_type)) {
    return {NormalizeTileInteger(value, destination_type), 0};
  }
  return {value, 0};
}

}  // namespace ptovec::oracle
