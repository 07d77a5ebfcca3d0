// Edition 2026-09: literal transliteration of the conversion dispatch of
// asl/tile/model/numeric/formats.asl and of the TCVT legality of e8m0-conversion.asl (both commit
// 01445483d778b1bcfccba1641f71c20f00e39385), with TCVT.asl's default rounding (279744be), in
// /work/shared/spec-2026-09; and Convert2026_09, the public entry (edition_2026_09.hpp). Read
// side by side with the ASL: comments give its line numbers.
#include <cstdint>
#include <string>

#include "ptovec/oracle/e8m0_conversion.hpp"
#include "ptovec/oracle/edition_2026_09.hpp"
#include "ptovec/oracle/edition_2026_09_encoding.hpp"

namespace ptovec::oracle {

namespace edition_2026_09 {

using T = TileDataType;

// ---------------------------------------------------------------------------------------------
// e8m0-conversion.asl (01445483)
// ---------------------------------------------------------------------------------------------

namespace {

bool Packed4(TileDataType t) { return t == T::E2M1X2 || t == T::E1M2X2; }
bool Ordinary(TileDataType t) { return t == T::FP32 || t == T::FP16 || t == T::BF16; }

}  // namespace

// Lines 26-84. The packed operands of lines 63-76 are written with two small predicates:
// Packed4 (E2M1X2 or E1M2X2) and Ordinary (FP32, FP16 or BF16).
bool HardwareTCVTTypePairSupported(TileDataType source_type, TileDataType destination_type) {
  if (source_type == T::HiF4X2 || destination_type == T::HiF4X2) {  // lines 34-37
    return false;
  }
  if (destination_type == T::RCPE6M2) {  // lines 38-40
    return false;
  }
  if (source_type == T::RCPE6M2) {  // lines 41-44
    return destination_type == T::FP16 || destination_type == T::BF16;
  }
  if (source_type == T::E8M0) {  // lines 45-49
    return destination_type == T::FP16 || destination_type == T::BF16 ||
           destination_type == T::FP32;
  }
  if (source_type == T::E6M2 || destination_type == T::E6M2) {  // lines 50-58
    return (source_type == T::E6M2 &&
            (destination_type == T::FP16 || destination_type == T::BF16)) ||
           (destination_type == T::E6M2 && (source_type == T::FP16 || source_type == T::BF16));
  }
  if (Packed4(source_type) || Packed4(destination_type)) {  // lines 59-79
    const bool source_ok = Packed4(source_type) || Ordinary(source_type);
    const bool destination_ok = Packed4(destination_type) || Ordinary(destination_type);
    const bool source_packed = Packed4(source_type);
    const bool destination_packed = Packed4(destination_type);
    return source_ok && destination_ok && source_packed != destination_packed;
  }
  if (destination_type == T::E8M0) {  // lines 80-82
    return HardwareTCVTE8M0SourceTypeSupported(source_type);
  }
  return true;  // line 83
}

// Lines 86-97.
bool HardwareTCVTRoundingModeSupported(TileDataType source_type, TileDataType destination_type,
                                       NumericRoundingMode mode) {
  if (source_type == T::E6M2 || destination_type == T::E6M2 || source_type == T::RCPE6M2) {
    return mode == NumericRoundingMode::RNE || mode == NumericRoundingMode::RNA;
  }
  return true;
}

// TCVT.asl (279744b) lines 64-73.
NumericRoundingMode InstructionContractDefaultRounding_TCVT(TileDataType source_type,
                                                            TileDataType destination_type) {
  if (TileDataTypeIsFloating(source_type) && TileDataTypeIsInteger(destination_type)) {
    return NumericRoundingMode::RTZ;
  }
  return NumericRoundingMode::RNE;
}

// ---------------------------------------------------------------------------------------------
// tile/model/numeric/formats.asl (01445483). NormalizeTileInteger, TileIntegerMinimum and
// TileIntegerMaximum (lines 4-55) are the format table's (formats.hpp), which give the same
// words for every integer type, the only types these functions are called with here.
// ---------------------------------------------------------------------------------------------

// Lines 57-81.
Word TileConvertIntegerSaturating(Word value, TileDataType source_type,
                                  TileDataType destination_type) {
  SeedAssert(TileDataTypeIsInteger(source_type), "TileConvertIntegerSaturating: integer source");
  SeedAssert(TileDataTypeIsInteger(destination_type),
             "TileConvertIntegerSaturating: integer destination");
  const Word source = NormalizeTileInteger(value, source_type);  // line 64
  const Word minimum = TileIntegerMinimum(destination_type);     // line 65
  const Word maximum = TileIntegerMaximum(destination_type);     // line 66
  const auto SInt = [](Word w) { return static_cast<std::int64_t>(w); };
  if (TileDataTypeIsSigned(source_type)) {  // lines 67-79
    if (!TileDataTypeIsSigned(destination_type) && SInt(source) < 0) {
      return minimum;
    }
    if (TileDataTypeIsSigned(destination_type)) {
      if (SInt(source) < SInt(minimum)) return minimum;
      if (SInt(source) > SInt(maximum)) return maximum;
    } else if (source > maximum) {
      return maximum;
    }
  } else if (source > maximum) {
    return maximum;
  }
  return NormalizeTileInteger(source, destination_type);  // line 80
}

// Lines 83-95.
Word TileConvertIntegerValue(Word value, TileDataType source_type, TileDataType destination_type,
                             bool saturating) {
  if (saturating) {
    return TileConvertIntegerSaturating(value, source_type, destination_type);
  }
  return NormalizeTileInteger(NormalizeTileInteger(value, source_type), destination_type);
}

// Lines 97-128. ReferenceFloatToE8M0 (line 121) is the seeds' function, word for word the same.
Encoded TileProfileConvert(Word value, TileDataType source_type, TileDataType destination_type,
                           NumericExecutionControl control) {
  if (Packed4(source_type) || Packed4(destination_type) ||  // lines 106-115
      source_type == T::E6M2 || destination_type == T::E6M2 || source_type == T::RCPE6M2) {
    return ReferenceTCVTConvert(value, source_type, destination_type, control);
  }
  if (ReferenceCommonConversionTypeSupported(source_type) &&  // lines 116-126
      ReferenceCommonConversionTypeSupported(destination_type)) {
    return ReferenceCommonConvert(value, source_type, destination_type, control);
  } else if (destination_type == T::E8M0) {
    return oracle::ReferenceFloatToE8M0(value, source_type, control);
  } else if (!TileDataTypeIsFloating(destination_type)) {
    return {NormalizeTileInteger(value, destination_type), 0};
  }
  return {value, 0};  // line 127
}

// Lines 130-144.
Encoded TileConvertValue(Word value, TileDataType source_type, TileDataType destination_type,
                         NumericExecutionControl control) {
  if (TileDataTypeIsFloating(source_type) || TileDataTypeIsFloating(destination_type)) {
    return edition_2026_09::TileProfileConvert(value, source_type, destination_type, control);
  }
  return {TileConvertIntegerValue(value, source_type, destination_type, control.saturating), 0};
}

// Lines 185-204: the loop body of TCVT (lines 156-213) for one element.
Encoded TCVTConvertElement(Word source_value, TileDataType source_operation_type,
                           TileDataType destination_type, NumericExecutionControl control) {
  if ((source_operation_type == T::E8M0 || Packed4(source_operation_type) ||  // lines 189-198
       Packed4(destination_type) || source_operation_type == T::E6M2 ||
       destination_type == T::E6M2 || source_operation_type == T::RCPE6M2) &&
      edition_2026_09::HardwareTCVTTypePairSupported(source_operation_type, destination_type)) {
    return ReferenceTCVTConvert(source_value, source_operation_type, destination_type, control);
  }
  return TileConvertValue(source_value, source_operation_type, destination_type, control);
}

}  // namespace edition_2026_09

// ---------------------------------------------------------------------------------------------
// Convert2026_09
// ---------------------------------------------------------------------------------------------

namespace {

// The lower-case name of a type (the format table's, or the specification's for the types
// without a row).
std::string TypeName(TileDataType type) {
  const auto code = static_cast<std::size_t>(type);
  if (code < detail::kFormatCodes && detail::kFormatByCode[code] != nullptr) {
    return std::string(detail::kFormatByCode[code]->name);
  }
  switch (type) {
    case TileDataType::TF32:
      return "tf32";
    case TileDataType::HF32:
      return "hf32";
    case TileDataType::E5M2:
      return "e5m2";
    case TileDataType::E3M2:
      return "e3m2";
    case TileDataType::E2M3:
      return "e2m3";
    case TileDataType::HiF4X2:
      return "hif4x2";
    default:
      return "type code " + std::to_string(code);
  }
}

}  // namespace

Conversion2026_09 Convert2026_09(TileDataType source_type, TileDataType destination_type,
                                 Word value, NumericExecutionControl control) {
  const auto pair = [&] {
    return "tcvt " + TypeName(source_type) + " -> " + TypeName(destination_type);
  };
  if (source_type == TileDataType::FP19 || destination_type == TileDataType::FP19) {
    return Refusal2026_09{"TileDataType",
                          pair() + ": fp19 is a B.FPATR parameter format, not a tile data type"};
  }
  if (!edition_2026_09::HardwareTCVTTypePairSupported(source_type, destination_type)) {
    return Refusal2026_09{
        "HardwareTCVTTypePairSupported",
        pair() +
            " is not a legal pair in edition 2026-09 (HardwareTCVTTypePairSupported, "
            "e8m0-conversion.asl lines 26-84 at 01445483)"};
  }
  if (!edition_2026_09::HardwareTCVTRoundingModeSupported(source_type, destination_type,
                                                          control.rounding_mode)) {
    return Refusal2026_09{
        "HardwareTCVTRoundingModeSupported",
        pair() + " does not accept rounding mode " +
            std::string(RoundingModeName(control.rounding_mode)) +
            " in edition 2026-09: RNE and RNA only (HardwareTCVTRoundingModeSupported, "
            "e8m0-conversion.asl lines 86-97 at 01445483)"};
  }
  return edition_2026_09::TCVTConvertElement(value, source_type, destination_type, control);
}

}  // namespace ptovec::oracle
