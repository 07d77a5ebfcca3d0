// Fast exact form of edition 2026-09's TCVT dispatch (fast_edition_2026_09.hpp): the functions of
// tile_conversion_2026_09.cpp, tcvt_2026_09.cpp and reference_conversion_2026_09.cpp with the
// same branches in the same order, where each exact value is a Dyadic (or, for RCPE6M2, an exact
// integer proxy) and each encoder its fast form. The branches that compute no value (legality,
// the specials of NaN, Inf and zero, integer to integer, the raw words) call the literal
// functions themselves: they use no rationals. Integers only.
#include <cstdint>
#include <variant>

#include "asl.hpp"
#include "ptovec/oracle/edition_2026_09.hpp"
#include "ptovec/oracle/edition_2026_09_encoding.hpp"
#include "ptovec/oracle/fast_e8m0_conversion.hpp"
#include "ptovec/oracle/fast_edition_2026_09.hpp"
#include "ptovec/oracle/fast_matrix_quantization.hpp"
#include "rounding_core.hpp"

namespace ptovec::oracle {

namespace edition_2026_09 {

namespace {

using asl::Field;
using C = NumericValueClass;
using T = TileDataType;
using rounding_core::U128;

bool Packed4(T t) { return t == T::E2M1X2 || t == T::E1M2X2; }

// The exact value of a finite FP64 word (ReferenceFP64FiniteValue, reference-quantization.asl
// lines 35-52): fraction * 2^-1074 for a zero exponent field, else (2^52 + fraction) * 2^(e-1075).
Dyadic FP64Value(Word value) {
  const Word exponent = Field(value, 62, 52);
  const Word fraction = Field(value, 51, 0);
  SeedAssert(exponent != 2047, "ReferenceFP64FiniteValue: exponent != 2047");
  if (exponent == 0) return {Field(value, 63, 63) == 1, fraction, -1074};
  return {Field(value, 63, 63) == 1, (Word{1} << 52) + fraction, static_cast<int>(exponent) - 1075};
}

// ReferenceCommonFloatingFiniteValue, reference-conversion.asl lines 29-42.
Dyadic CommonFloatingValue(Word value, T type) {
  if (type == T::FP64) return FP64Value(value);
  SeedAssert(type == T::FP32 || type == T::FP16 || type == T::BF16 || type == T::E4M3,
             "ReferenceCommonFloatingFiniteValue: unreachable (line 40)");
  return DyadicFromFiniteCode(type, value);
}

// ReferenceIntegerValue (seed 003 lines 34-40): the low bits read signed or unsigned.
Dyadic IntegerValue(Word value, T type) {
  const Word bits = NormalizeTileInteger(value, type);
  if (TileDataTypeIsSigned(type) && static_cast<std::int64_t>(bits) < 0) {
    return {true, U128{Word{0} - bits}, 0};
  }
  return {false, U128{bits}, 0};
}

// E6M2FiniteValue (e6m2.asl lines 41-47): (4 + c[1:0]) * 2^(c[7:2] - 50).
Dyadic E6M2Value(Word code) {
  SeedAssert(Field(code, 7, 0) != 0xFF, "E6M2FiniteValue: value != Ones{8}");
  return {false, 4 + Field(code, 1, 0), static_cast<int>(Field(code, 7, 2)) - 50};
}

// RCPE6M2FiniteValue (rcpe6m2.asl lines 29-33) = 4 / (4 + q) * 2^(48 - k) for the code's q =
// c[1:0], k = c[7:2]. For q = 0 the Dyadic 2^(48-k). Otherwise not a dyadic: the proxy
// (2 floor(2^66 * 4 / (4+q)) + 1) * 2^(48 - k - 67) lies strictly between the two neighbouring
// multiples of 2^(48-k-66) around the value, in the value's binade (4/(4+q) * 2^66 is no power of
// two), so every comparison with a dyadic of at most 66 significant bits in that binade, and
// with every multiple of 2^-24 (FP16's and BF16's smallest steps, the only destinations: the
// value is at least 2^-16), has the same answer: the FP16 and BF16 encoders round it the same,
// inexact both ways.
Dyadic RCPE6M2Value(Word code) {
  SeedAssert(Field(code, 7, 0) != 0xFF, "RCPE6M2FiniteValue: value != Ones{8}");
  const int k = static_cast<int>(Field(code, 7, 2));
  const Word q = Field(code, 1, 0);
  if (q == 0) return DyadicPowerOfTwo(48 - k);
  const U128 numerator = U128{4} << 66;
  return {false, 2 * (numerator / (4 + q)) + 1, 48 - k - 67};
}

// ReferencePacked4FiniteValue (packed-conversion.asl lines 3-27) of a lane code.
Dyadic Packed4Value(T type, Word code) {
  static constexpr Word kE2M1Halves[8] = {0, 1, 2, 3, 4, 6, 8, 12};
  const bool negative = code >= 8;
  const Word magnitude = negative ? code - 8 : code;
  if (type == T::E2M1X2) return {negative, kE2M1Halves[magnitude], -1};
  return {negative, magnitude, -2};
}

// tcvt-conversion.asl lines 21-53.
Encoded ConvertPacked4(Word value, T source_type, T destination_type,
                       NumericExecutionControl control) {
  SeedAssert(ReferenceTCVTOrdinaryFloatingSourceSupported(source_type),
             "ReferenceTCVTConvertPacked4: source FP32, FP16 or BF16");
  const C value_class = TileNumericValueClass(source_type, value);
  if (NumericValueClassIsNaN(value_class) || NumericValueClassIsInfinity(value_class) ||
      NumericValueClassIsZero(value_class) || value_class == C::InvalidEncoding) {
    return ReferenceTCVTConvertPacked4(value, source_type, destination_type, control);
  }
  return FastReferencePacked4Encoding(DyadicFromFiniteCode(source_type, value), destination_type,
                                      control);
}

// tcvt-conversion.asl lines 55-71.
Encoded ConvertFromPacked4(Word value, T source_type, T destination_type,
                           NumericExecutionControl control) {
  if (NumericValueClassIsZero(TileNumericValueClass(source_type, value))) {
    return ReferenceTCVTConvertFromPacked4(value, source_type, destination_type, control);
  }
  return FastReferenceMatrixFloatingEncoding(Packed4Value(source_type, Field(value, 3, 0)),
                                             destination_type, control);
}

// tcvt-conversion.asl lines 73-104: the specials are the literal's; a positive finite value
// goes to the E6M2 encoder.
Encoded ConvertToE6M2(Word value, T source_type, NumericExecutionControl control) {
  const C value_class = TileNumericValueClass(source_type, value);
  if (value_class != C::PositiveNormal && value_class != C::PositiveSubnormal) {
    return ReferenceTCVTConvertToE6M2(value, source_type, control);
  }
  SeedAssert(ReferenceTCVTOrdinaryFloatingSourceSupported(source_type),
             "ReferenceTCVTConvertToE6M2: source FP32, FP16 or BF16");
  return FastReferenceE6M2Encoding(DyadicFromFiniteCode(source_type, value), control);
}

// tcvt-conversion.asl lines 106-157: E6M2, RCPE6M2 and E8M0 sources; their NaN codes are the
// literal's (the canonical NaN, status 0).
Encoded ConvertFromCode8(Word value, T source_type, T destination_type,
                         NumericExecutionControl control) {
  if (source_type == T::E8M0) {
    SeedAssert(
        destination_type == T::FP16 || destination_type == T::BF16 || destination_type == T::FP32,
        "ReferenceTCVTConvertFromE8M0: destination FP16, BF16 or FP32");
    if (Field(value, 7, 0) == 0xff)
      return ReferenceTCVTConvertFromE8M0(value, destination_type, control);
    return FastReferenceMatrixFloatingEncoding(
        DyadicPowerOfTwo(static_cast<int>(Field(value, 7, 0)) - 127), destination_type, control);
  }
  const C value_class = TileNumericValueClass(source_type, value);
  if (NumericValueClassIsNaN(value_class) || value_class == C::InvalidEncoding) {
    return source_type == T::E6M2
               ? ReferenceTCVTConvertFromE6M2(value, destination_type, control)
               : ReferenceTCVTConvertFromRCPE6M2(value, destination_type, control);
  }
  const Dyadic v = source_type == T::E6M2 ? E6M2Value(value) : RCPE6M2Value(value);
  return FastReferenceMatrixFloatingEncoding(v, destination_type, control);
}

// ReferenceCommonConvert, reference-conversion.asl lines 142-176.
Encoded FastReferenceCommonConvert(Word value, T source_type, T destination_type,
                                   NumericExecutionControl control) {
  SeedAssert(ReferenceCommonConversionTypeSupported(source_type),
             "ReferenceCommonConvert: ReferenceCommonConversionTypeSupported(source_type)");
  SeedAssert(ReferenceCommonConversionTypeSupported(destination_type),
             "ReferenceCommonConvert: ReferenceCommonConversionTypeSupported(destination_type)");
  if (TileDataTypeIsFloating(source_type)) {  // lines 151-165
    const CommonSpecial special =
        ReferenceCommonConvertSpecial(value, source_type, destination_type, control);
    if (special.handled) return {special.word, special.status};
    const Dyadic finite = CommonFloatingValue(value, source_type);
    if (TileDataTypeIsFloating(destination_type)) {
      return FastReferenceMatrixFloatingEncoding(finite, destination_type, control);
    }
    return oracle::FastMatrixIntegerEncoding(finite, destination_type, control);
  }
  if (TileDataTypeIsFloating(destination_type)) {  // lines 167-171
    return FastReferenceMatrixFloatingEncoding(IntegerValue(value, source_type), destination_type,
                                               control);
  }
  return {TileConvertIntegerValue(value, source_type, destination_type,  // lines 172-175
                                  control.saturating),
          0};
}

// ReferenceTCVTConvert, tcvt-conversion.asl lines 159-186.
Encoded FastReferenceTCVTConvert(Word value, T source_type, T destination_type,
                                 NumericExecutionControl control) {
  if (source_type == T::E8M0) {  // lines 164-183
    return ConvertFromCode8(value, source_type, destination_type, control);
  } else if (Packed4(destination_type)) {
    return ConvertPacked4(value, source_type, destination_type, control);
  } else if (Packed4(source_type)) {
    return ConvertFromPacked4(value, source_type, destination_type, control);
  } else if (destination_type == T::E6M2) {
    return ConvertToE6M2(value, source_type, control);
  } else if (source_type == T::E6M2 || source_type == T::RCPE6M2) {
    return ConvertFromCode8(value, source_type, destination_type, control);
  }
  return FastReferenceCommonConvert(value, source_type, destination_type, control);  // 184-185
}

// TileProfileConvert, formats.asl lines 97-128.
Encoded ProfileConvert(Word value, T source_type, T destination_type,
                       NumericExecutionControl control) {
  if (Packed4(source_type) || Packed4(destination_type) ||  // lines 106-115
      source_type == T::E6M2 || destination_type == T::E6M2 || source_type == T::RCPE6M2) {
    return FastReferenceTCVTConvert(value, source_type, destination_type, control);
  }
  if (ReferenceCommonConversionTypeSupported(source_type) &&  // lines 116-126
      ReferenceCommonConversionTypeSupported(destination_type)) {
    return FastReferenceCommonConvert(value, source_type, destination_type, control);
  } else if (destination_type == T::E8M0) {
    return oracle::FastFloatToE8M0(value, source_type, control);
  }
  return edition_2026_09::TileProfileConvert(value, source_type, destination_type, control);
}

}  // namespace

// formats.asl lines 185-204 (TCVTConvertElement) and 130-144 (TileConvertValue).
Encoded FastTCVTConvertElement(Word source_value, TileDataType source_operation_type,
                               TileDataType destination_type, NumericExecutionControl control) {
  const T s = source_operation_type;
  const T d = destination_type;
  if ((s == T::E8M0 || Packed4(s) || Packed4(d) || s == T::E6M2 || d == T::E6M2 ||
       s == T::RCPE6M2) &&
      edition_2026_09::HardwareTCVTTypePairSupported(s, d)) {
    return FastReferenceTCVTConvert(source_value, s, d, control);
  }
  if (TileDataTypeIsFloating(s) || TileDataTypeIsFloating(d)) {
    return ProfileConvert(source_value, s, d, control);
  }
  return {TileConvertIntegerValue(source_value, s, d, control.saturating), 0};
}

}  // namespace edition_2026_09

Conversion2026_09 FastConvert2026_09(TileDataType source_type, TileDataType destination_type,
                                     Word value, NumericExecutionControl control) {
  if (source_type == TileDataType::FP19 || destination_type == TileDataType::FP19 ||
      !edition_2026_09::HardwareTCVTTypePairSupported(source_type, destination_type) ||
      !edition_2026_09::HardwareTCVTRoundingModeSupported(source_type, destination_type,
                                                          control.rounding_mode)) {
    return Convert2026_09(source_type, destination_type, value, control);  // the refusal
  }
  return edition_2026_09::FastTCVTConvertElement(value, source_type, destination_type, control);
}

}  // namespace ptovec::oracle
