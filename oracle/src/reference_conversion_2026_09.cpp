// Edition 2026-09: literal transliteration of PTO-COMMON-CONVERSION-001,
// asl/tile/model/numeric/reference-conversion.asl (commit 01445483d778b1bcfccba1641f71c20f00e39385,
// /work/shared/spec-2026-09): the 12-type common set and ReferenceCommonConvert, with the
// mx-formats.asl helpers it calls (TileNumericCanonicalNaN, HardwareNumericSignedZeroEncodings)
// and the definitions the texts call but do not contain. Read side by side with the ASL: the
// statements follow it one for one; comments give its line numbers. The functions of the file
// that are not on TCVT's path (ReferenceMatrixOrdinaryFloating*, ReferenceTileFloatingModulo,
// ReferenceTile*Finite) are not transliterated.
#include "asl.hpp"
#include "ptovec/oracle/edition_2026_09.hpp"
#include "ptovec/oracle/edition_2026_09_encoding.hpp"
#include "ptovec/oracle/matrix_quantization.hpp"
#include "ptovec/oracle/reference_quantization.hpp"

namespace ptovec::oracle::edition_2026_09 {

using asl::Field;
using C = NumericValueClass;
using T = TileDataType;

// ---------------------------------------------------------------------------------------------
// Definitions the texts call but do not contain (docs/semantics.md, "Edition 2026-09").
// ---------------------------------------------------------------------------------------------

bool TileDataTypeIsInteger(TileDataType data_type) {
  return data_type != T::FP19 && !TileDataTypeIsFloating(data_type);
}

// mx-formats.asl lines 210-227. The per-format XxxCanonicalNaN() constants are in the texts for
// E6M2 (e6m2.asl lines 55-58) and RCPE6M2 (rcpe6m2.asl lines 51-54) only; the others are
// seeds/reference/README.md's (FP32, FP16, BF16, E4M3, HiF8), spec-notes section 4's (E8M0) and,
// for FP64, the same rule (the quiet bit alone).
std::pair<bool, Word> TileNumericCanonicalNaN(TileDataType data_type) {
  switch (data_type) {
    case T::FP64:
      return {true, 0x7ff8000000000000};
    case T::FP32:
      return {true, 0x7fc00000};
    case T::FP16:
      return {true, 0x7e00};
    case T::BF16:
      return {true, 0x7fc0};
    case T::HiF8:
      return {true, 0x80};
    case T::E4M3:
      return {true, 0x7f};
    case T::E8M0:
    case T::E6M2:
    case T::RCPE6M2:
      return {true, 0xff};
    default:  // TF32, HF32, E5M2: in the ASL, with constants no text gives; others: none
      return {false, 0};
  }
}

// mx-formats.asl lines 257-302. The constants are in the texts for E2M1X2 (e2m1x2.asl lines
// 45-48) and E1M2X2 (e1m2x2.asl lines 38-41); for FP64, FP32, FP16, BF16 and E4M3 they are the
// sign bit alone (spec-notes section 5 item 0: 0x80000000, 0x8000).
std::tuple<bool, Word, Word> HardwareNumericSignedZeroEncodings(TileDataType data_type) {
  switch (data_type) {
    case T::FP64:
      return {true, 0, 0x8000000000000000};
    case T::FP32:
      return {true, 0, 0x80000000};
    case T::FP16:
    case T::BF16:
      return {true, 0, 0x8000};
    case T::E4M3:
      return {true, 0, 0x80};
    case T::E2M1X2:
    case T::E1M2X2:
      return {true, 0, 0x8};
    default:  // TF32 HF32 E5M2 E3M2 E2M3 HiF4X2: in the ASL, constants not given; others: none
      return {false, 0, 0};
  }
}

// ---------------------------------------------------------------------------------------------
// reference-conversion.asl (01445483)
// ---------------------------------------------------------------------------------------------

// Lines 12-27.
bool ReferenceCommonConversionTypeSupported(TileDataType data_type) {
  return data_type == T::FP64 || data_type == T::FP32 || data_type == T::FP16 ||
         data_type == T::E4M3 || data_type == T::S64 || data_type == T::S32 ||
         data_type == T::S16 || data_type == T::S8 || data_type == T::U64 || data_type == T::U32 ||
         data_type == T::U16 || data_type == T::U8;
}

// Lines 29-42.
Real ReferenceCommonFloatingFiniteValue(Word value, TileDataType data_type) {
  switch (data_type) {
    case T::FP64:
      return ReferenceFP64FiniteValue(value);
    case T::FP32:
      return oracle::ReferenceFP32FiniteValue(Field(value, 31, 0));
    case T::FP16:
    case T::BF16:
      return oracle::ReferenceBinary16FiniteValue(value, data_type);
    case T::E4M3:
      return oracle::ReferenceFP8FiniteValue(data_type, Field(value, 7, 0));
    default:
      SeedAssert(false, "ReferenceCommonFloatingFiniteValue: unreachable (line 40)");
      return 0;
  }
}

// Lines 44-63.
Word ReferenceCommonFloatingEndpoint(TileDataType data_type, bool negative) {
  switch (data_type) {
    case T::FP64:
      return negative ? 0xffefffffffffffff : 0x7fefffffffffffff;
    case T::FP32:
      return negative ? 0xff7fffff : 0x7f7fffff;
    case T::FP16:
      return negative ? 0xfbff : 0x7bff;
    case T::E4M3:
      return negative ? 0xfe : 0x7e;
    default:
      SeedAssert(false, "ReferenceCommonFloatingEndpoint: unreachable (line 61)");
      return 0;
  }
}

// Lines 65-82.
std::pair<bool, Word> ReferenceCommonFloatingInfinity(TileDataType data_type, bool negative) {
  switch (data_type) {
    case T::FP64:
      return {true, negative ? 0xfff0000000000000 : 0x7ff0000000000000};
    case T::FP32:
      return {true, negative ? 0xff800000 : 0x7f800000};
    case T::FP16:
      return {true, negative ? 0xfc00 : 0x7c00};
    case T::E4M3:
      return {false, 0};
    default:
      SeedAssert(false, "ReferenceCommonFloatingInfinity: unreachable (line 80)");
      return {false, 0};
  }
}

// Lines 84-140.
CommonSpecial ReferenceCommonConvertSpecial(Word value, TileDataType source_type,
                                            TileDataType destination_type,
                                            NumericExecutionControl control) {
  const C value_class = TileNumericValueClass(source_type, value);                 // line 90
  if (NumericValueClassIsNaN(value_class) || value_class == C::InvalidEncoding) {  // 91-104
    if (TileDataTypeIsFloating(destination_type)) {
      const auto [available, canonical] = TileNumericCanonicalNaN(destination_type);
      SeedAssert(available, "ReferenceCommonConvertSpecial: canonical NaN available (line 96)");
      return {true, canonical,
              value_class == C::SignalingNaN || value_class == C::InvalidEncoding ? Status{1}
                                                                                  : Status{0}};
    }
    return {true, 0, 1};
  } else if (NumericValueClassIsInfinity(value_class)) {  // lines 105-127
    const bool negative = value_class == C::NegativeInfinity;
    if (TileDataTypeIsFloating(destination_type)) {
      const auto [has_infinity, infinity] =
          ReferenceCommonFloatingInfinity(destination_type, negative);
      if (has_infinity) return {true, infinity, 0};
      if (control.saturating) {
        return {true, ReferenceCommonFloatingEndpoint(destination_type, negative), 0x14};
      }
      const auto [available, canonical] = TileNumericCanonicalNaN(destination_type);
      SeedAssert(available, "ReferenceCommonConvertSpecial: canonical NaN available (line 121)");
      return {true, canonical, 0x14};
    }
    const Word endpoint =
        negative ? TileIntegerMinimum(destination_type) : TileIntegerMaximum(destination_type);
    return {true, endpoint, 1};
  } else if (NumericValueClassIsZero(value_class) &&  // lines 128-138
             TileDataTypeIsFloating(destination_type)) {
    const auto [available, positive_zero, negative_zero] =
        HardwareNumericSignedZeroEncodings(destination_type);
    SeedAssert(available, "ReferenceCommonConvertSpecial: signed zeros available (line 132)");
    return {true, value_class == C::NegativeZero ? negative_zero : positive_zero, 0};
  }
  return {false, 0, 0};  // line 139
}

// Lines 142-176.
Encoded ReferenceCommonConvert(Word value, TileDataType source_type, TileDataType destination_type,
                               NumericExecutionControl control) {
  SeedAssert(ReferenceCommonConversionTypeSupported(source_type),  // line 148
             "ReferenceCommonConvert: ReferenceCommonConversionTypeSupported(source_type)");
  SeedAssert(ReferenceCommonConversionTypeSupported(destination_type),  // line 149
             "ReferenceCommonConvert: ReferenceCommonConversionTypeSupported(destination_type)");

  if (TileDataTypeIsFloating(source_type)) {  // lines 151-165
    const CommonSpecial special =
        ReferenceCommonConvertSpecial(value, source_type, destination_type, control);
    if (special.handled) return {special.word, special.status};

    const Real finite = ReferenceCommonFloatingFiniteValue(value, source_type);
    if (TileDataTypeIsFloating(destination_type)) {
      return edition_2026_09::ReferenceMatrixFloatingEncoding(finite, destination_type, control);
    }
    return oracle::ReferenceMatrixIntegerEncoding(finite, destination_type, control);
  }

  if (TileDataTypeIsFloating(destination_type)) {  // lines 167-171
    return edition_2026_09::ReferenceMatrixFloatingEncoding(
        Real(oracle::ReferenceIntegerValue(value, source_type)), destination_type, control);
  }
  return {TileConvertIntegerValue(value, source_type, destination_type,  // lines 172-175
                                  control.saturating),
          0};
}

}  // namespace ptovec::oracle::edition_2026_09
