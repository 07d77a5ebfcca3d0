// Edition 2026-09: literal transliteration of the functions of
// asl/scalar/model/fsu/reference-quantization.asl and
// asl/tile/model/execution/matrix-quantization.asl (both commit
// 279744be4351dd1d5f5d88e893c1954352d26f4b, /work/shared/spec-2026-09) whose text differs from the
// seeds': ReferencePowerOfTwo (wider domain, another loop), the new FP64 pair and
// ReferenceMatrixFloatingEncoding (FP64, packed FP4 and E6M2 destinations added). Read side by
// side with them: comments give the ASL's line numbers. The functions these files share word for
// word with the seeds are the seeds' transliterations (reference_quantization.cpp,
// matrix_quantization.cpp), called from here.
#include <array>

#include "asl.hpp"
#include "ptovec/oracle/edition_2026_09_encoding.hpp"
#include "ptovec/oracle/matrix_quantization.hpp"
#include "ptovec/oracle/reference_quantization.hpp"

namespace ptovec::oracle::edition_2026_09 {

using asl::Field;

namespace {

// reference-quantization.asl lines 2-16, the body of ReferencePowerOfTwo, statement for
// statement (binary exponentiation).
Real ReferencePowerOfTwoBody(int exponent) {
  Real result = 1;                                                         // line 4
  const bool negative = exponent < 0;                                      // line 5
  int remaining = negative ? -exponent : exponent;                         // lines 6-8
  Real factor = negative ? Real(1) / 2 : Real(2);                          // line 9
  for (int iteration = 0; remaining > 0 && iteration < 11; ++iteration) {  // line 10: looplimit
    if (remaining % 2 == 1) result = result * factor;                      // line 11
    factor = factor * factor;                                              // line 12
    remaining = remaining / 2;  // line 13: DIVRM of a non-negative
  }
  SeedAssert(remaining == 0, "ReferencePowerOfTwo: the loop ends within its looplimit 11");
  return result;  // line 15
}

constexpr int kPowerMinimum = -1074;
constexpr int kPowerCount = 1023 - kPowerMinimum + 1;

}  // namespace

// reference-quantization.asl lines 2-16. A pure function of an exponent in -1074..1023 (the type
// of line 2): its 2098 results are computed once, each by the ASL's loop, and kept.
const Real& ReferencePowerOfTwo(int exponent) {
  SeedAssert(kPowerMinimum <= exponent && exponent <= 1023,
             "ReferencePowerOfTwo: exponent in -1074..1023");
  static const std::array<Real, kPowerCount>* const kResults = [] {
    auto* results = new std::array<Real, kPowerCount>;  // kept for the whole program
    for (int e = kPowerMinimum; e <= 1023; ++e) {
      (*results)[static_cast<std::size_t>(e - kPowerMinimum)] = ReferencePowerOfTwoBody(e);
    }
    return results;
  }();
  return (*kResults)[static_cast<std::size_t>(exponent - kPowerMinimum)];
}

// reference-quantization.asl lines 35-52.
Real ReferenceFP64FiniteValue(Word value) {
  const Word exponent = Field(value, 62, 52);                                  // line 37
  const Word fraction = Field(value, 51, 0);                                   // line 38
  SeedAssert(exponent != 2047, "ReferenceFP64FiniteValue: exponent != 2047");  // line 39
  Real magnitude = 0;                                                          // line 40
  if (exponent == 0) {                                                         // lines 41-49
    magnitude = Real(Integer(fraction)) * ReferencePowerOfTwo(-1074);
  } else {
    const Real significand =
        Real(Integer(0x10000000000000 + fraction)) / Real(Integer(0x10000000000000));
    magnitude = significand * ReferencePowerOfTwo(static_cast<int>(exponent) - 1023);
  }
  if (Field(value, 63, 63) == 1) return -magnitude;  // line 50
  return magnitude;                                  // line 51
}

// reference-quantization.asl lines 121-179.
Encoded ReferenceFP64FiniteEncoding(const Real& value, NumericRoundingMode rounding_mode) {
  if (value == 0) return {0, 0};  // line 125
  const bool negative = value < 0;
  Real normalized = negative ? Real(-value) : value;
  int exponent = 0;
  while (normalized >= 2 && exponent < 1024) {  // lines 129-132
    normalized = normalized / 2;
    exponent = exponent + 1;
  }
  while (normalized < 1 && exponent > -1074) {  // lines 133-136
    normalized = normalized * 2;
    exponent = exponent - 1;
  }

  const Word sign = negative ? 0x8000000000000000 : 0;  // line 138
  if (exponent > 1023) {                                // lines 139-143
    return {sign + 0x7ff0000000000000, 0x14};
  }

  if (exponent < -1022) {  // lines 145-156
    const Real scaled = value / ReferencePowerOfTwo(-1074);
    const Integer rounded = FloatingToInteger(scaled, rounding_mode);
    const Integer magnitude = rounded < 0 ? Integer(-rounded) : rounded;
    if (magnitude == 0) {
      return {sign, 0x18};
    }
    return {sign + WordOf(magnitude), static_cast<Status>(Real(rounded) == scaled ? 0 : 0x18)};
  }

  const Real scaled = negative ? Real(-(normalized * Real(Integer(0x10000000000000))))  // 158-160
                               : Real(normalized * Real(Integer(0x10000000000000)));
  const Integer rounded = FloatingToInteger(scaled, rounding_mode);  // line 161
  Integer magnitude = rounded < 0 ? Integer(-rounded) : rounded;     // line 162
  int encoded_exponent = exponent + 1023;                            // line 163
  if (magnitude == Integer(0x20000000000000)) {                      // lines 164-168
    magnitude = Integer(0x10000000000000);
    encoded_exponent = encoded_exponent + 1;
  }
  if (encoded_exponent >= 2047) {  // lines 169-173
    return {sign + 0x7ff0000000000000, 0x14};
  }
  const Integer fraction = magnitude - Integer(0x10000000000000);  // line 174
  return {sign + static_cast<Word>(encoded_exponent) * 0x10000000000000 + WordOf(fraction),
          static_cast<Status>(Real(rounded) == scaled ? 0 : 0x10)};  // lines 175-178
}

// matrix-quantization.asl (279744b) lines 454-489.
Encoded ReferenceMatrixFloatingEncoding(const Real& value, TileDataType destination_type,
                                        NumericExecutionControl control) {
  if (destination_type == TileDataType::FP64) {  // lines 458-469
    const Encoded encoded = ReferenceFP64FiniteEncoding(value, control.rounding_mode);
    if (control.saturating && (encoded.status & 4) != 0) {
      const Word sign = encoded.word & 0x8000000000000000;
      return {sign | 0x7fefffffffffffff, encoded.status};
    }
    return encoded;
  } else if (destination_type == TileDataType::FP32) {  // lines 470-477
    const Encoded encoded = oracle::ReferenceFP32FiniteEncoding(value, control.rounding_mode);
    if (control.saturating && (encoded.status & 4) != 0) {
      const Word sign = encoded.word & 0x80000000;
      return {sign | 0x7f7fffff, encoded.status};
    }
    return encoded;
  } else if (destination_type == TileDataType::FP16 ||  // lines 478-480
             destination_type == TileDataType::BF16) {
    return oracle::ReferenceBinary16Encoding(value, destination_type, control);
  } else if (destination_type == TileDataType::E2M1X2 ||  // lines 481-483
             destination_type == TileDataType::E1M2X2) {
    return ReferencePacked4Encoding(value, destination_type, control);
  } else if (destination_type == TileDataType::E6M2) {  // lines 484-485
    return ReferenceE6M2Encoding(value, control);
  } else {  // lines 486-487
    return oracle::ReferenceFP8Encoding(value, destination_type, control);
  }
}

}  // namespace ptovec::oracle::edition_2026_09
