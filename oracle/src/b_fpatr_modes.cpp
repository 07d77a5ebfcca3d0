// Literal transliteration of ../shared/seeds/reference/B.FPATR-modes.asl (from the B.FPATR
// instruction unit): the closed PreQuantMode table and the legality of the parameter words and of
// the B.DATR fields. Read side by side with it: comments give its line numbers.
#include <initializer_list>

#include "asl.hpp"
#include "ptovec/oracle/matrix_postprocess.hpp"

namespace ptovec::oracle {

namespace {

using asl::Field;

// ASL `UInt(code)` of a bits(6) / bits(3) argument.
unsigned UInt6(unsigned code) { return code & 0x3F; }
unsigned UInt3(unsigned code) { return code & 0x7; }

bool OneOf(unsigned value, std::initializer_list<unsigned> codes) {
  for (const unsigned c : codes) {
    if (value == c) return true;
  }
  return false;
}

// FP19ScaleLegal(f) (reference/README.md): f is a positive normal FP19.
bool FP19ScaleLegal(Word f) {
  return TileNumericValueClass(TileDataType::FP19, f) == NumericValueClass::PositiveNormal;
}

// FP19ActivationParameterLegal(f) (reference/README.md): f is +0 or a positive normal FP19.
bool FP19ActivationParameterLegal(Word f) {
  const NumericValueClass c = TileNumericValueClass(TileDataType::FP19, f);
  return c == NumericValueClass::PositiveZero || c == NumericValueClass::PositiveNormal;
}

}  // namespace

// Lines 5-15.
bool BundleFPATRPreQuantModeLegal(unsigned code) {
  const unsigned value = UInt6(code);                                           // line 7
  return OneOf(value, {0,  1,  2,  3,  4,  5,  12, 13, 16, 17, 18, 19, 20, 23,  // lines 8-14
                       24, 25, 26, 27, 28, 32, 33, 34, 35, 36, 37, 38, 39});
}

// Lines 17-20.
bool BundleFPATRReluModeLegal(unsigned code) { return UInt3(code) <= 3; }  // line 19

// Lines 22-28.
bool BundleFPATRModeUsesVectorParameter(unsigned code) {
  return OneOf(UInt6(code), {2, 4, 12, 18, 20, 23, 28, 33, 36, 37, 38, 39});  // lines 24-27
}

// Lines 30-36.
bool BundleFPATRModeUsesScalarParameter(unsigned code) {
  return OneOf(UInt6(code), {3, 5, 13, 17, 19, 24, 25, 26, 27, 32, 34, 35});  // lines 32-35
}

// Lines 38-44.
bool BundleFPATRModeUsesS32Accumulator(unsigned code) {
  const unsigned value = UInt6(code);                                 // line 40
  return OneOf(value, {2, 3, 4, 5, 12, 13, 17, 18, 19, 20, 35, 39});  // lines 41-43
}

// Lines 46-51.
bool BundleFPATRModeUsesFP32Accumulator(unsigned code) {
  return BundleFPATRPreQuantModeLegal(code) &&  // lines 48-50
         UInt6(code) != 0 && !BundleFPATRModeUsesS32Accumulator(code);
}

// Lines 53-66.
bool BundleFPATRAccumulatorTypeLegal(unsigned code, TileDataType accumulator_type) {
  if (UInt6(code) == 0) {  // lines 56-59
    return accumulator_type == TileDataType::FP32 || accumulator_type == TileDataType::S32 ||
           accumulator_type == TileDataType::U32;
  }
  if (BundleFPATRModeUsesS32Accumulator(code)) {  // lines 60-61
    return accumulator_type == TileDataType::S32;
  }
  if (BundleFPATRModeUsesFP32Accumulator(code)) {  // lines 62-63
    return accumulator_type == TileDataType::FP32;
  }
  return false;  // line 65
}

// Lines 68-78.
int BundleFPATRModeOffsetWidth(unsigned code) {
  const unsigned value = UInt6(code);                            // line 71
  if (value == 17 || value == 18) return 5;                      // line 72
  if (value == 2 || value == 3 || value == 23 || value == 24) {  // lines 73-74
    return 9;
  }
  if (value == 19 || value == 20) return 17;  // line 75
  return 0;                                   // line 76
}

// Lines 80-83.
bool BundleFPATRModeIsShift(unsigned code) {
  return UInt6(code) == 12 || UInt6(code) == 13;  // line 82
}

// Lines 85-91.
bool BundleFPATRModeFixedRounding(unsigned code) {
  const unsigned value = UInt6(code);                            // line 87
  return OneOf(value, {1, 16, 25, 26, 28, 32, 33, 34, 36, 37});  // lines 88-90
}

// Lines 93-96.
bool BundleFPATRModeFinalSatProgrammable(unsigned code) {
  return UInt6(code) != 0 && !BundleFPATRModeIsShift(code);  // line 95
}

// Lines 101-134.
bool BundleFPATRQuantParameterWordLegal(unsigned code, Word value) {
  const unsigned mode = UInt6(code);  // line 104
  if (mode == 12 || mode == 13) {     // lines 105-108
    return Field(value, 31, 0) == 0 && Field(value, 63, 36) == 0;
  }
  if (mode == 17 || mode == 18) {  // lines 109-114
    return Field(value, 12, 0) == 0 && FP19ScaleLegal(Field(value, 31, 13)) &&
           Field(value, 36, 32) == 0 && Field(value, 63, 42) == 0;
  }
  if (mode == 2 || mode == 3 || mode == 23 || mode == 24) {  // lines 115-120
    return Field(value, 12, 0) == 0 && FP19ScaleLegal(Field(value, 31, 13)) &&
           Field(value, 36, 32) == 0 && Field(value, 63, 46) == 0;
  }
  if (mode == 19 || mode == 20) {  // lines 121-126
    return Field(value, 12, 0) == 0 && FP19ScaleLegal(Field(value, 31, 13)) &&
           Field(value, 36, 32) == 0 && Field(value, 63, 54) == 0;
  }
  if (BundleFPATRModeUsesScalarParameter(code) ||  // lines 127-132
      BundleFPATRModeUsesVectorParameter(code)) {
    return Field(value, 12, 0) == 0 && FP19ScaleLegal(Field(value, 31, 13)) &&
           Field(value, 63, 32) == 0;
  }
  return false;  // line 133
}

// Lines 139-143.
bool BundleFPATRReluParameterWordLegal(Word value) {
  return Field(value, 63, 19) == 0 &&  // lines 141-142
         FP19ActivationParameterLegal(Field(value, 18, 0));
}

// Lines 150-165.
bool BundleFPATRDATRFieldsLegal(unsigned pre_quant, unsigned rounding_mode, bool saturating) {
  if (!BundleFPATRPreQuantModeLegal(pre_quant)) return false;  // line 154
  if (UInt6(pre_quant) == 0) {                                 // lines 155-157
    return UInt3(rounding_mode) == 0 && !saturating;
  }
  if (BundleFPATRModeIsShift(pre_quant)) {  // lines 158-160
    return UInt3(rounding_mode) == 0 && !saturating;
  }
  if (BundleFPATRModeFixedRounding(pre_quant)) {  // lines 161-163
    return UInt3(rounding_mode) == 0;
  }
  return true;  // line 164
}

// Lines 167-181.
TileDataType BundleFPATROutputType(unsigned code) {
  const unsigned value = UInt6(code);                                 // line 169
  if (value == 0) return TileDataType::FP32;                          // line 170
  if (OneOf(value, {1, 4, 5, 32, 33})) return TileDataType::FP16;     // line 171
  if (OneOf(value, {2, 3, 23, 24})) return TileDataType::S8;          // line 172
  if (OneOf(value, {12, 13, 19, 20})) return TileDataType::S16;       // line 173
  if (OneOf(value, {16, 34, 35, 36, 39})) return TileDataType::BF16;  // line 174
  if (OneOf(value, {17, 18})) return TileDataType::S4X2;              // line 175
  if (OneOf(value, {25, 28})) return TileDataType::HiF8;              // line 176
  if (OneOf(value, {26, 37})) return TileDataType::E4M3;              // line 177
  if (OneOf(value, {27, 38})) return TileDataType::FP32;              // line 178
  SeedAssert(false, "BundleFPATROutputType: a legal PreQuantMode (line 179, unreachable)");
  return TileDataType::FP32;
}

// Not a spec function: spec-notes section 2's RMode field codes (000 default = RNE).
unsigned DATRRoundingModeField(NumericRoundingMode mode) {
  switch (mode) {
    case NumericRoundingMode::RNE:
      return 0;
    case NumericRoundingMode::RTZ:
      return 2;
    case NumericRoundingMode::RTM:
      return 3;
    case NumericRoundingMode::RTP:
      return 4;
    case NumericRoundingMode::RNA:
      return 5;
    case NumericRoundingMode::RTO:
      return 6;
    case NumericRoundingMode::RHB:
      return 7;
  }
  return 0;
}

}  // namespace ptovec::oracle
