// The fast form of TileProfileMatrixPostProcessWithFlags (matrix_postprocess.cpp, a literal
// transliteration of ../shared/seeds/reference/matrix-postprocess.asl lines 180-265): the same
// steps in the same order, with Dyadic values (exact: a dyadic significand and a power-of-two
// exponent) instead of exact rationals, and the fast seed 000 encoders of
// fast_matrix_quantization.cpp, each proven equal to its literal form
// (tests/oracle/fast_*_test.cpp). The steps that involve no rational (the mode table,
// MatrixPostQuantSpecialValue, MatrixShiftS32ToS16, MatrixFPATREffectiveControl) are the literal
// functions themselves. Why each replacement is exact:
//  - every source value (an S32, a U32 or a finite FP32) and every FP19 multiplier is a dyadic,
//    so value * multiplier is one exactly (DyadicProduct, at most 32 x 11 significand bits);
//  - `multiplier == 0.0` is a zero significand;
//  - MatrixQuantOffset(q, 0) is 0, so `activated + Real(offset)` at width 0 is `activated`;
//  - MatrixQuantizedAffine(activated, 1.0, offset, width, ...) is FastMatrixQuantizedAffine with
//    the Dyadic 1, and MatrixEncodeReal is FastMatrixIntegerEncoding or
//    FastMatrixFloatingEncoding by the same integer/floating test.
// tests/oracle/fast_matrix_postprocess_test.cpp checks the equality exhaustively over sub-spaces
// and by RapidCheck properties.
#include <cstdint>

#include "asl.hpp"
#include "ptovec/oracle/dyadic.hpp"
#include "ptovec/oracle/fast_matrix_quantization.hpp"
#include "ptovec/oracle/matrix_postprocess.hpp"
#include "ptovec/oracle/matrix_quantization.hpp"

namespace ptovec::oracle {

namespace {

using asl::Field;

bool IsInteger(TileDataType t) { return !TileDataTypeIsFloating(t) && t != TileDataType::FP19; }

}  // namespace

Encoded FastTileProfileMatrixPostProcessWithFlags(Word value, unsigned pre_quant_mode,
                                                  unsigned relu_mode, TileDataType output_type,
                                                  Word quant_param, Word relu_param,
                                                  NumericExecutionControl control) {
  return FastMatrixPostQuantBaseWithFlags(value, pre_quant_mode, output_type, relu_mode,
                                          quant_param, relu_param,
                                          MatrixFPATREffectiveControl(pre_quant_mode, control));
}

Encoded FastMatrixPostQuantBaseWithFlags(Word value, unsigned pre_quant_mode,
                                         TileDataType output_type, unsigned relu_mode,
                                         Word quant_param, Word relu_param,
                                         NumericExecutionControl control) {
  const unsigned mode = pre_quant_mode & 0x3F;
  const unsigned relu = relu_mode & 7;
  if (mode == 0 && relu == 0) return {value, 0};
  if (BundleFPATRModeIsShift(mode)) {
    return MatrixShiftS32ToS16(Field(value, 31, 0),
                               static_cast<int>(Field(quant_param, 35, 32)) + 1);
  }
  const TileDataType source_type = mode == 0                                 ? output_type
                                   : BundleFPATRModeUsesS32Accumulator(mode) ? TileDataType::S32
                                                                             : TileDataType::FP32;
  const NumericValueClass source_class = source_type == TileDataType::FP32
                                             ? TileNumericValueClass(source_type, value)
                                             : NumericValueClass::PositiveNormal;
  const auto s32 = static_cast<std::int32_t>(static_cast<std::uint32_t>(value));
  const bool source_negative =
      source_type == TileDataType::S32 ? s32 < 0 : MatrixValueClassNegative(source_class);
  const bool scaled =
      BundleFPATRModeUsesScalarParameter(mode) || BundleFPATRModeUsesVectorParameter(mode);
  const Dyadic scale = scaled ? DyadicFromFiniteCode(TileDataType::FP19, Field(quant_param, 31, 13))
                              : Dyadic{false, 1, 0};
  const Dyadic multiplier =
      !source_negative || relu == 0 ? scale
      : relu == 1                   ? Dyadic{false, 0, 0}
                  : DyadicFromFiniteCode(TileDataType::FP19, Field(relu_param, 18, 0));
  const bool multiplier_zero = multiplier.significand == 0;
  const MatrixSpecialResult special =
      MatrixPostQuantSpecialValue(value, source_type, output_type, control);
  if (special.special &&
      !(source_class == NumericValueClass::NegativeInfinity && multiplier_zero)) {
    return {special.word, special.status};
  }
  Dyadic source_value{false, 0, 0};
  if (source_type == TileDataType::S32) {
    source_value = DyadicFromInteger(s32);
  } else if (source_type == TileDataType::U32) {
    source_value = DyadicFromInteger(static_cast<std::int64_t>(Field(value, 31, 0)));
  } else if (source_class != NumericValueClass::NegativeInfinity) {
    source_value = DyadicFromFiniteCode(TileDataType::FP32, Field(value, 31, 0));
  }
  const Dyadic activated = DyadicProduct(source_value, multiplier);
  const int width = BundleFPATRModeOffsetWidth(mode);
  const Integer offset_big = MatrixQuantOffset(quant_param, width);
  const auto offset = static_cast<std::int64_t>(offset_big);
  if (source_class == NumericValueClass::NegativeZero && !multiplier_zero && offset == 0 &&
      TileDataTypeIsFloating(output_type)) {
    return {MatrixFloatingSignedZero(output_type, true), 0};
  }
  if (width != 0) {
    return FastMatrixQuantizedAffine(activated, Dyadic{false, 1, 0}, offset, width, output_type,
                                     control);
  }
  if (IsInteger(output_type)) return FastMatrixIntegerEncoding(activated, output_type, control);
  return FastMatrixFloatingEncoding(activated, output_type, control);
}

}  // namespace ptovec::oracle
