// Literal transliteration of ../shared/seeds/reference/matrix-postprocess.asl (unit
// PTO-ARCH-PROFILE-MATRIX-POSTPROCESS): the B.FPATR post-process of one accumulator element.
// Read side by side with it: the statements follow it one for one; comments give its line
// numbers. The seed helpers it calls are the literal ones of matrix_quantization.cpp (seed 000)
// and reference_quantization.cpp (seed 003).
#include "ptovec/oracle/matrix_postprocess.hpp"

#include "asl.hpp"
#include "ptovec/oracle/matrix_quantization.hpp"
#include "ptovec/oracle/reference_quantization.hpp"

namespace ptovec::oracle {

namespace {

using asl::Field;

// HardwareNumericCanonicalNaNResult(T) (reference/README.md): (available, the canonical quiet
// NaN) for FP32, FP16, BF16, E4M3 and HiF8; unavailable for any other type.
std::pair<bool, Word> HardwareNumericCanonicalNaNResult(TileDataType data_type) {
  switch (data_type) {
    case TileDataType::FP32:
      return {true, 0x7FC00000};
    case TileDataType::FP16:
      return {true, 0x7E00};
    case TileDataType::BF16:
      return {true, 0x7FC0};
    case TileDataType::E4M3:
      return {true, 0x7F};
    case TileDataType::HiF8:
      return {true, 0x80};
    default:
      return {false, 0};
  }
}

// TileDataTypeIsInteger(T): every non-floating tile type of ptovec's table.
bool TileDataTypeIsInteger(TileDataType data_type) {
  return !TileDataTypeIsFloating(data_type) && data_type != TileDataType::FP19;
}

}  // namespace

// Lines 11-23.
Word MatrixFloatingSignedZero(TileDataType data_type, bool negative) {
  if (!negative) return 0;  // line 14
  switch (data_type) {      // lines 15-22
    case TileDataType::FP32:
      return 0x80000000;
    case TileDataType::FP16:
    case TileDataType::BF16:
      return 0x8000;
    case TileDataType::E4M3:
      return 0x80;
    case TileDataType::HiF8:
      return 0;
    default:
      return 0;
  }
}

// Lines 25-47.
Word MatrixFloatingInfinity(TileDataType data_type, bool negative) {
  switch (data_type) {
    case TileDataType::FP32:  // lines 29-31
      return negative ? 0xff800000 : 0x7f800000;
    case TileDataType::FP16:  // lines 32-34
      return negative ? 0xfc00 : 0x7c00;
    case TileDataType::BF16:  // lines 35-37
      return negative ? 0xff80 : 0x7f80;
    case TileDataType::HiF8:  // lines 38-40
      return negative ? 0xef : 0x6f;
    default: {  // lines 41-45
      const auto [available, quiet_nan] = HardwareNumericCanonicalNaNResult(data_type);
      SeedAssert(available, "MatrixFloatingInfinity: a canonical NaN is available (line 44)");
      return quiet_nan;
    }
  }
}

// Lines 49-70.
Word MatrixFloatingLargestFinite(TileDataType data_type, bool negative) {
  switch (data_type) {
    case TileDataType::FP32:  // lines 53-55
      return negative ? 0xff7fffff : 0x7f7fffff;
    case TileDataType::FP16:  // lines 56-58
      return negative ? 0xfbff : 0x7bff;
    case TileDataType::BF16:  // lines 59-61
      return negative ? 0xff7f : 0x7f7f;
    case TileDataType::E4M3:  // lines 62-64
      return negative ? 0xfe : 0x7e;
    case TileDataType::HiF8:  // lines 65-67
      return negative ? 0xee : 0x6e;
    default:
      SeedAssert(false, "MatrixFloatingLargestFinite: a floating type (line 68, unreachable)");
      return 0;
  }
}

// Lines 72-80.
Encoded MatrixEncodeReal(const Real& value, TileDataType data_type,
                         NumericExecutionControl control) {
  if (TileDataTypeIsInteger(data_type)) {  // lines 76-78
    return ReferenceMatrixIntegerEncoding(value, data_type, control);
  }
  return ReferenceMatrixFloatingEncoding(value, data_type, control);  // line 79
}

// Lines 82-134.
MatrixSpecialResult MatrixPostQuantSpecialValue(Word value, TileDataType source_type,
                                                TileDataType destination_type,
                                                NumericExecutionControl control) {
  if (!TileDataTypeIsFloating(source_type)) return {false, 0, 0};                   // lines 88-90
  const NumericValueClass value_class = TileNumericValueClass(source_type, value);  // line 91
  if (NumericValueClassIsNaN(value_class)) {                                        // line 92
    if (TileDataTypeIsInteger(destination_type)) {                                  // lines 93-98
      return {true, control.saturating ? Word{0} : TileIntegerMinimum(destination_type), 1};
    }
    if (control.saturating) {  // lines 99-103
      return {true, 0, Status(value_class == NumericValueClass::SignalingNaN ? 1 : 0)};
    }
    const auto [available, quiet_nan] =
        HardwareNumericCanonicalNaNResult(destination_type);  // lines 104-105
    SeedAssert(available, "MatrixPostQuantSpecialValue: a canonical NaN (line 106)");
    return {true, quiet_nan,  // lines 107-109
            Status(value_class == NumericValueClass::SignalingNaN ? 1 : 0)};
  }
  if (NumericValueClassIsInfinity(value_class)) {                              // line 110
    const bool negative = value_class == NumericValueClass::NegativeInfinity;  // line 111
    if (TileDataTypeIsInteger(destination_type)) {                             // lines 112-121
      const Word endpoint = !control.saturating ? TileIntegerMinimum(destination_type)
                            : negative          ? TileIntegerMinimum(destination_type)
                                                : TileIntegerMaximum(destination_type);
      return {true, endpoint, Status(control.saturating ? 0x14 : 1)};
    }
    if (control.saturating) {  // lines 122-125
      return {true, MatrixFloatingLargestFinite(destination_type, negative), 0x14};
    }
    return {true, MatrixFloatingInfinity(destination_type, negative),  // lines 126-130
            Status(destination_type == TileDataType::E4M3 ? 0x14 : 0)};
  }
  return {false, 0, 0};  // line 133
}

// Lines 136-143.
bool MatrixValueClassNegative(NumericValueClass value_class) {
  return value_class == NumericValueClass::NegativeNormal ||  // lines 139-142
         value_class == NumericValueClass::NegativeSubnormal ||
         value_class == NumericValueClass::NegativeInfinity ||
         value_class == NumericValueClass::NegativeZero;
}

// Lines 145-155.
Real MatrixSelectedMultiplier(bool source_negative, unsigned relu_mode, const Real& quant_scale,
                              Word relu_param) {
  if (!source_negative || (relu_mode & 7) == 0) {  // lines 149-150
    return quant_scale;
  }
  if ((relu_mode & 7) == 1) return Real(0);          // lines 151-152
  return FP19FiniteValue(Field(relu_param, 18, 0));  // line 154
}

// Lines 157-164.
std::pair<Real, Status> MatrixActivationWithFlags(const Real& value, bool source_negative,
                                                  unsigned relu_mode, const Real& quant_scale,
                                                  Word relu_param) {
  const Real multiplier =  // lines 161-162
      MatrixSelectedMultiplier(source_negative, relu_mode, quant_scale, relu_param);
  return {value * multiplier, 0};  // line 163
}

// Lines 166-178.
NumericExecutionControl MatrixFPATREffectiveControl(unsigned pre_quant_mode,
                                                    NumericExecutionControl control) {
  NumericExecutionControl result = control;     // line 170
  const unsigned mode = pre_quant_mode & 0x3F;  // line 171
  if (mode == 25 || mode == 28) {               // lines 172-173
    result.rounding_mode = NumericRoundingMode::RHB;
  } else if (BundleFPATRModeFixedRounding(pre_quant_mode)) {  // lines 174-175
    result.rounding_mode = NumericRoundingMode::RNE;
  }
  return result;  // line 177
}

// Lines 180-252.
Encoded MatrixPostQuantBaseWithFlags(Word value, unsigned pre_quant_mode, TileDataType output_type,
                                     unsigned relu_mode, Word quant_param, Word relu_param,
                                     NumericExecutionControl control) {
  if ((pre_quant_mode & 0x3F) == 0 && (relu_mode & 7) == 0) {  // lines 186-188
    return {value, 0};
  }
  if (BundleFPATRModeIsShift(pre_quant_mode)) {                          // lines 189-193
    const int shift = static_cast<int>(Field(quant_param, 35, 32)) + 1;  // line 190
    return MatrixShiftS32ToS16(Field(value, 31, 0), shift);              // lines 191-192
  }

  const TileDataType source_type =  // lines 195-197
      (pre_quant_mode & 0x3F) == 0                        ? output_type
      : BundleFPATRModeUsesS32Accumulator(pre_quant_mode) ? TileDataType::S32
                                                          : TileDataType::FP32;
  const NumericValueClass source_class =  // lines 198-201
      source_type == TileDataType::FP32 ? TileNumericValueClass(source_type, value)
                                        : NumericValueClass::PositiveNormal;
  const bool source_negative =  // lines 202-205
      source_type == TileDataType::S32 ? asl::SIntField(value, 31, 0) < 0
                                       : MatrixValueClassNegative(source_class);
  const Real scale = BundleFPATRModeUsesScalarParameter(pre_quant_mode) ||  // lines 206-210
                             BundleFPATRModeUsesVectorParameter(pre_quant_mode)
                         ? FP19FiniteValue(Field(quant_param, 31, 13))
                         : Real(1);
  const Real multiplier =  // lines 211-212
      MatrixSelectedMultiplier(source_negative, relu_mode, scale, relu_param);
  const MatrixSpecialResult special =  // lines 213-215
      MatrixPostQuantSpecialValue(value, source_type, output_type, control);
  if (special.special &&  // lines 216-220
      !(source_class == NumericValueClass::NegativeInfinity && multiplier == 0)) {
    return {special.word, special.status};
  }

  const Real source_value =  // lines 222-229
      source_type == TileDataType::S32   ? Real(asl::SIntField(value, 31, 0))
      : source_type == TileDataType::U32 ? Real(Integer(Field(value, 31, 0)))
      : source_class == NumericValueClass::NegativeInfinity
          ? Real(0)
          : ReferenceFP32FiniteValue(Field(value, 31, 0));
  const auto [activated, activation_flags] = MatrixActivationWithFlags(  // lines 230-231
      source_value, source_negative, relu_mode, scale, relu_param);
  const Integer offset =  // lines 232-233
      MatrixQuantOffset(quant_param, BundleFPATRModeOffsetWidth(pre_quant_mode));
  const int intermediate_width = BundleFPATRModeOffsetWidth(pre_quant_mode);  // lines 234-235
  if (source_class == NumericValueClass::NegativeZero &&                      // lines 236-242
      multiplier != 0 && offset == 0 && TileDataTypeIsFloating(output_type)) {
    return {MatrixFloatingSignedZero(output_type, true), activation_flags};
  }
  if (intermediate_width != 0) {  // lines 243-248
    const Encoded encoded =
        MatrixQuantizedAffine(activated, Real(1), offset, intermediate_width, output_type, control);
    return {encoded.word, Status(activation_flags | encoded.status)};
  }
  const Encoded encoded =  // lines 249-251
      MatrixEncodeReal(activated + Real(offset), output_type, control);
  return {encoded.word, Status(activation_flags | encoded.status)};
}

// Lines 254-265.
Encoded TileProfileMatrixPostProcessWithFlags(Word value, unsigned pre_quant_mode,
                                              unsigned relu_mode, unsigned /*group_n_code*/,
                                              TileDataType output_type, Word quant_param,
                                              Word relu_param, NumericExecutionControl control) {
  const NumericExecutionControl effective_control =  // lines 260-261
      MatrixFPATREffectiveControl(pre_quant_mode, control);
  return MatrixPostQuantBaseWithFlags(value, pre_quant_mode, output_type,  // lines 262-264
                                      relu_mode, quant_param, relu_param, effective_control);
}

}  // namespace ptovec::oracle
