// Behaviour models, fast form (behaviour.hpp): the proven Fast* encoders on Dyadic values, then
// the deviations' exact facts in integer arithmetic. Each step states why it equals the literal
// form (model_encoding.cpp); tests/oracle/behaviour_test.cpp checks it exhaustively.
#include "ptovec/oracle/behaviour.hpp"
#include "ptovec/oracle/fast_matrix_quantization.hpp"
#include "ptovec/oracle/fast_reference_quantization.hpp"
#include "rounding_core.hpp"

namespace ptovec::oracle {

namespace {

using namespace rounding_core;
using T = TileDataType;
using M = NumericRoundingMode;

Encoded FastElementWidth(const Encoded& r, T type) {
  return {LowBits(r.word, Format(type).width), r.status};
}

// TinyAfterRounding of model_encoding.cpp on |value| = m * 2^x: the leading exponent below
// emin - 1 is the literal's first case; otherwise |value| / 2^(emin-p) = m * 2^-(emin-p-x) is
// split into integer part and fraction class (exact: |value| < 2^emin, so a left shift keeps it
// below 2^p) and rounded as MatrixRoundMagnitude rounds (MagnitudeRoundsUp, rounding_core.hpp);
// n * 2^(emin-p) < 2^emin is n < 2^p.
bool TinyAfterRounding(const Dyadic& value, T type, M mode) {
  const FormatInfo& f = Format(type);
  const int emin = 1 - f.bias;
  const int precision = static_cast<int>(f.fraction_bits) + 1;
  if (DyadicLeadingExponent(value) < emin - 1) return true;
  const Split s = SplitAt(value.significand, static_cast<std::int64_t>(emin - precision) -
                                                 static_cast<std::int64_t>(value.exponent));
  return RoundedMagnitude(value.negative, s, mode) < (U128{1} << precision);
}

}  // namespace

Encoded FastModelE4M3InfNaNEncoding(const Dyadic& value, NumericExecutionControl control) {
  // Above 240 both overflow alike. At or below it every candidate the literal search may pick
  // lies in [-240, 240], where the E4M3InfNaN candidates are exactly the profile's (codes
  // 0x78-0x7E and 0xF8-0xFE hold 256..448 in magnitude), with the same values, codes and the
  // same rules for ties, RTO and UF (spec-notes 5.4), so FastFP8Encoding gives the same code.
  if (DyadicCompareMagnitude(value, Dyadic{false, 240, 0}) > 0) {
    const Word sign = value.negative ? 0x80 : 0;
    return {sign | (control.saturating ? 0x77 : 0x78), kStatusOFNX};
  }
  return FastFP8Encoding(value, T::E4M3, control);
}

ModelAnswer FastModelMatrixFloatingEncoding(const Dyadic& value, bool negative_zero,
                                            TileDataType destination_type,
                                            NumericExecutionControl control,
                                            const Behaviour& behaviour) {
  const Encoded profile = FastElementWidth(
      FastMatrixFloatingEncoding(value, destination_type, control), destination_type);
  const Encoded base = destination_type == T::E4M3 && behaviour.Has(Deviation::E4M3InfNaN)
                           ? FastModelE4M3InfNaNEncoding(value, control)
                           : profile;
  FloatingFacts facts;
  facts.zero = value.significand == 0;
  facts.negative = facts.zero ? negative_zero : value.negative;
  if ((base.status & kStatusUF) != 0 && behaviour.Has(Deviation::TininessAfterRounding)) {
    facts.tiny_after_rounding = TinyAfterRounding(value, destination_type, control.rounding_mode);
  }
  return ApplyFloatingDeviations(profile, base, facts, destination_type, control, behaviour);
}

ModelAnswer FastModelMatrixIntegerEncoding(const Dyadic& value, bool from_floating,
                                           TileDataType destination_type,
                                           NumericExecutionControl control,
                                           const Behaviour& behaviour) {
  const Encoded profile = FastElementWidth(
      FastMatrixIntegerEncoding(value, destination_type, control), destination_type);
  const NumericExecutionControl effective = ModelControl(control, behaviour);
  const Encoded base =
      effective == control
          ? profile
          : FastElementWidth(FastMatrixIntegerEncoding(value, destination_type, effective),
                             destination_type);
  const bool negative = value.negative && value.significand != 0;
  return ApplyIntegerDeviations(profile, base, negative, from_floating, destination_type,
                                behaviour);
}

// The rounded affine value as FastTileProfileQuantize computes it (seed 003 lines 134-137:
// floor and fraction of the exact product, the zero point added to the floor, then the mode),
// compared with the range exactly (Wide, rounding_core.hpp).
ModelAnswer FastModelTileProfileQuantize(Word value, Word scale, Word zero_point,
                                         TileDataType source_type, TileDataType destination_type,
                                         NumericExecutionControl control,
                                         const Behaviour& behaviour) {
  const auto element = [&](NumericExecutionControl c) {
    return FastElementWidth(
        FastTileProfileQuantize(value, scale, zero_point, source_type, destination_type, c),
        destination_type);
  };
  const Encoded profile = element(control);
  const NumericExecutionControl effective = ModelControl(control, behaviour);
  const Encoded base = effective == control ? profile : element(effective);
  QuantizeFacts facts;
  const NumericValueClass c = TileNumericValueClass(T::FP32, value);
  if (NumericValueClassIsNaN(c) || NumericValueClassIsInfinity(c)) {
    facts.kind = NumericValueClassIsNaN(c) ? ModelSourceKind::NaN : ModelSourceKind::Infinity;
    facts.negative = ((value >> 31) & 1) != 0;
  } else {
    const Dyadic product =
        DyadicProduct(DyadicFromFiniteCode(T::FP32, value), DyadicFromFiniteCode(T::FP32, scale));
    const Word zero_bits = NormalizeTileInteger(zero_point, destination_type);
    const I128 zero = TileDataTypeIsSigned(destination_type)
                          ? I128{static_cast<std::int64_t>(zero_bits)}
                          : I128{zero_bits};
    FloorSplit affine = FloorOf(product);
    affine.floor = Add(affine.floor, zero);
    const Wide rounded = RoundFloorSplit(affine, control.rounding_mode);
    const IntegerRange range = RangeOf(destination_type);
    facts.negative = rounded.value < 0;
    facts.out_of_range = rounded.value < range.minimum || rounded.value > range.maximum;
  }
  return ApplyQuantizeDeviations(profile, base, facts, destination_type, behaviour);
}

}  // namespace ptovec::oracle
