// Edition 2026-09: literal transliteration of asl/tile/model/numeric/tcvt-conversion.asl (commit
// 01445483d778b1bcfccba1641f71c20f00e39385, /work/shared/spec-2026-09): TCVT's own routes for
// E8M0, packed FP4 (E2M1X2, E1M2X2), E6M2 and RCPE6M2. Read side by side with the ASL: the
// statements follow it one for one; comments give its line numbers.
#include "asl.hpp"
#include "ptovec/oracle/edition_2026_09.hpp"
#include "ptovec/oracle/edition_2026_09_encoding.hpp"
#include "ptovec/oracle/matrix_quantization.hpp"
#include "ptovec/oracle/reference_quantization.hpp"

namespace ptovec::oracle::edition_2026_09 {

using asl::Field;
using C = NumericValueClass;
using T = TileDataType;

// Lines 3-9.
bool ReferenceTCVTOrdinaryFloatingSourceSupported(TileDataType data_type) {
  return data_type == T::FP32 || data_type == T::FP16 || data_type == T::BF16;
}

// Lines 11-19.
Real ReferenceTCVTOrdinaryFloatingFiniteValue(Word value, TileDataType data_type) {
  SeedAssert(ReferenceTCVTOrdinaryFloatingSourceSupported(data_type),  // line 14
             "ReferenceTCVTOrdinaryFloatingFiniteValue: source FP32, FP16 or BF16");
  if (data_type == T::FP32) {  // lines 15-17
    return oracle::ReferenceFP32FiniteValue(Field(value, 31, 0));
  }
  return oracle::ReferenceBinary16FiniteValue(value, data_type);  // line 18
}

// Lines 21-53.
Encoded ReferenceTCVTConvertPacked4(Word value, TileDataType source_type,
                                    TileDataType destination_type,
                                    NumericExecutionControl control) {
  SeedAssert(ReferenceTCVTOrdinaryFloatingSourceSupported(source_type),  // line 26
             "ReferenceTCVTConvertPacked4: source FP32, FP16 or BF16");
  const C value_class = TileNumericValueClass(source_type, value);                 // line 27
  if (NumericValueClassIsNaN(value_class) || value_class == C::InvalidEncoding) {  // 28-34
    return {0, value_class == C::SignalingNaN || value_class == C::InvalidEncoding ? Status{1}
                                                                                   : Status{0}};
  }
  if (NumericValueClassIsInfinity(value_class)) {  // lines 35-42
    const bool negative = value_class == C::NegativeInfinity;
    const int maximum_code = destination_type == T::E2M1X2 ? 6 : 7;
    return {static_cast<Word>(negative ? maximum_code + 8 : maximum_code), 0x14};
  }
  if (NumericValueClassIsZero(value_class)) {  // lines 43-49
    const auto [available, positive, negative] =
        HardwareNumericSignedZeroEncodings(destination_type);
    SeedAssert(available, "ReferenceTCVTConvertPacked4: signed zeros available (line 46)");
    return {value_class == C::NegativeZero ? negative : positive, 0};
  }
  return ReferencePacked4Encoding(  // lines 50-52
      ReferenceTCVTOrdinaryFloatingFiniteValue(value, source_type), destination_type, control);
}

// Lines 55-71.
Encoded ReferenceTCVTConvertFromPacked4(Word value, TileDataType source_type,
                                        TileDataType destination_type,
                                        NumericExecutionControl control) {
  const C value_class = TileNumericValueClass(source_type, value);  // line 60
  if (NumericValueClassIsZero(value_class)) {                       // lines 61-67
    const auto [available, positive, negative] =
        HardwareNumericSignedZeroEncodings(destination_type);
    SeedAssert(available, "ReferenceTCVTConvertFromPacked4: signed zeros available (line 64)");
    return {value_class == C::NegativeZero ? negative : positive, 0};
  }
  return edition_2026_09::ReferenceMatrixFloatingEncoding(  // lines 68-70
      ReferencePacked4FiniteValue(source_type, static_cast<int>(Field(value, 3, 0))),
      destination_type, control);
}

// Lines 73-104.
Encoded ReferenceTCVTConvertToE6M2(Word value, TileDataType source_type,
                                   NumericExecutionControl control) {
  SeedAssert(ReferenceTCVTOrdinaryFloatingSourceSupported(source_type),  // line 77
             "ReferenceTCVTConvertToE6M2: source FP32, FP16 or BF16");
  const C value_class = TileNumericValueClass(source_type, value);                 // line 78
  if (NumericValueClassIsNaN(value_class) || value_class == C::InvalidEncoding) {  // 79-85
    return {0xff, value_class == C::SignalingNaN || value_class == C::InvalidEncoding ? Status{1}
                                                                                      : Status{0}};
  }
  if (value_class == C::NegativeZero || value_class == C::PositiveZero) {  // lines 86-89
    return {0, 0x18};
  }
  if (value_class == C::NegativeInfinity || value_class == C::NegativeNormal ||  // lines 90-94
      value_class == C::NegativeSubnormal) {
    return {0xff, 1};
  }
  if (value_class == C::PositiveInfinity) {  // lines 95-100
    return {control.saturating ? Word{0xfe} : Word{0xff}, 0x14};
  }
  return ReferenceE6M2Encoding(  // lines 101-103
      ReferenceTCVTOrdinaryFloatingFiniteValue(value, source_type), control);
}

// Lines 106-121.
Encoded ReferenceTCVTConvertFromE6M2(Word value, TileDataType destination_type,
                                     NumericExecutionControl control) {
  const C value_class = TileNumericValueClass(T::E6M2, value);                     // 110-111
  if (NumericValueClassIsNaN(value_class) || value_class == C::InvalidEncoding) {  // 112-118
    const auto [available, canonical] = TileNumericCanonicalNaN(destination_type);
    SeedAssert(available, "ReferenceTCVTConvertFromE6M2: canonical NaN available (line 116)");
    return {canonical, 0};
  }
  return edition_2026_09::ReferenceMatrixFloatingEncoding(
      E6M2FiniteValue(Field(value, 7, 0)),  // lines 119-120
      destination_type, control);
}

// Lines 123-138.
Encoded ReferenceTCVTConvertFromRCPE6M2(Word value, TileDataType destination_type,
                                        NumericExecutionControl control) {
  const C value_class = TileNumericValueClass(T::RCPE6M2, value);                  // 127-128
  if (NumericValueClassIsNaN(value_class) || value_class == C::InvalidEncoding) {  // 129-135
    const auto [available, canonical] = TileNumericCanonicalNaN(destination_type);
    SeedAssert(available, "ReferenceTCVTConvertFromRCPE6M2: canonical NaN available (line 133)");
    return {canonical, 0};
  }
  return edition_2026_09::ReferenceMatrixFloatingEncoding(
      RCPE6M2FiniteValue(Field(value, 7, 0)),  // 136-137
      destination_type, control);
}

// Lines 140-157.
Encoded ReferenceTCVTConvertFromE8M0(Word value, TileDataType destination_type,
                                     NumericExecutionControl control) {
  SeedAssert(destination_type == T::FP16 || destination_type == T::BF16 ||  // lines 144-146
                 destination_type == T::FP32,
             "ReferenceTCVTConvertFromE8M0: destination FP16, BF16 or FP32");
  if (Field(value, 7, 0) == 0xff) {  // lines 147-152
    const auto [available, canonical] = TileNumericCanonicalNaN(destination_type);
    SeedAssert(available, "ReferenceTCVTConvertFromE8M0: canonical NaN available (line 150)");
    return {canonical, 0};
  }
  const int exponent = static_cast<int>(Field(value, 7, 0)) - 127;  // lines 153-154
  return edition_2026_09::ReferenceMatrixFloatingEncoding(
      ReferencePowerOfTwo(exponent),  // lines 155-156
      destination_type, control);
}

// Lines 159-186.
Encoded ReferenceTCVTConvert(Word value, TileDataType source_type, TileDataType destination_type,
                             NumericExecutionControl control) {
  if (source_type == T::E8M0) {  // lines 164-183
    return ReferenceTCVTConvertFromE8M0(value, destination_type, control);
  } else if (destination_type == T::E2M1X2 || destination_type == T::E1M2X2) {
    return ReferenceTCVTConvertPacked4(value, source_type, destination_type, control);
  } else if (source_type == T::E2M1X2 || source_type == T::E1M2X2) {
    return ReferenceTCVTConvertFromPacked4(value, source_type, destination_type, control);
  } else if (destination_type == T::E6M2) {
    return ReferenceTCVTConvertToE6M2(value, source_type, control);
  } else if (source_type == T::E6M2) {
    return ReferenceTCVTConvertFromE6M2(value, destination_type, control);
  } else if (source_type == T::RCPE6M2) {
    return ReferenceTCVTConvertFromRCPE6M2(value, destination_type, control);
  }
  return ReferenceCommonConvert(value, source_type, destination_type, control);  // 184-185
}

}  // namespace ptovec::oracle::edition_2026_09
