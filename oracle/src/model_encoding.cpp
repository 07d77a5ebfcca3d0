// Behaviour models, literal form (behaviour.hpp): the seed's encoders on exact reals, then each
// deviation's exact facts computed in Real arithmetic as its defining clause states them.
#include <vector>

#include "ptovec/oracle/behaviour.hpp"
#include "ptovec/oracle/matrix_quantization.hpp"
#include "ptovec/oracle/reference_quantization.hpp"

namespace ptovec::oracle {

namespace {

using T = TileDataType;
using M = NumericRoundingMode;

Encoded ElementWidth(const Encoded& r, T type) {
  return {LowBits(r.word, Format(type).width), r.status};
}

// IEEE 754-2019 7.5, tininess after rounding: |value| (< 2^emin, the profile raised UF) rounded
// under `mode` to the format's precision p with an unbounded exponent range lies below 2^emin.
// Below 2^(emin-1) every such rounding stays at or below 2^(emin-1); in [2^(emin-1), 2^emin)
// the spacing is 2^(emin-p) and the magnitude rounds as the profile rounds magnitudes
// (MatrixRoundMagnitude, seed 000 lines 53-66: RTP and RTM by the sign).
bool TinyAfterRounding(const Real& value, T type, M mode) {
  const FormatInfo& f = Format(type);
  const int emin = 1 - f.bias;
  const int precision = static_cast<int>(f.fraction_bits) + 1;
  const bool negative = value < 0;
  const Real magnitude = negative ? Real(-value) : value;
  if (magnitude < PowerOfTwo(emin - 1)) return true;
  const Real spacing = PowerOfTwo(emin - precision);
  const Integer rounded = MatrixRoundMagnitude(magnitude / spacing, mode, negative);
  return Real(rounded) * spacing < PowerOfTwo(emin);
}

// The E4M3 codes whose exponent field (bits 6:3) is below 15, with the seed's values
// (ReferenceFP8FiniteValue), in code order.
struct Candidate {
  int code;
  Real value;
};

const std::vector<Candidate>& E4M3InfNaNCandidates() {
  static const std::vector<Candidate> candidates = [] {
    std::vector<Candidate> out;
    for (int code = 0; code <= 255; ++code) {
      if ((code & 0x78) == 0x78) continue;
      out.push_back({code, ReferenceFP8FiniteValue(T::E4M3, static_cast<Word>(code))});
    }
    return out;
  }();
  return candidates;
}

// The candidate a nearest mode picks between below <= value <= above (spec-notes 5.4): the
// nearer; on a tie RNE the even code, RNA the larger magnitude, RHB the larger value.
const Candidate* Nearest(const Real& value, const Candidate* below, const Candidate* above, M mode,
                         bool negative) {
  const Real to_below = value - below->value;
  const Real to_above = above->value - value;
  if (to_below != to_above) return to_below < to_above ? below : above;
  if (below == above) return below;
  if (mode == M::RNE) return below->code % 2 == 0 ? below : above;
  if (mode == M::RNA) return negative ? below : above;
  return above;
}

// Round to odd (spec-notes 5.4): toward zero, then, when inexact with an even code, the nearest
// odd-coded candidate beyond it, away from zero.
const Candidate* OddAway(const Real& value, const Candidate* chosen, bool negative) {
  if (chosen->value == value || chosen->code % 2 != 0) return chosen;
  const Candidate* odd = chosen;
  for (const Candidate& c : E4M3InfNaNCandidates()) {
    const bool beyond = negative ? c.value < chosen->value : c.value > chosen->value;
    if (c.code % 2 == 0 || !beyond) continue;
    if (odd == chosen || (negative ? c.value > odd->value : c.value < odd->value)) odd = &c;
  }
  return odd;
}

}  // namespace

Encoded ModelE4M3InfNaNEncoding(const Real& value, NumericExecutionControl control) {
  if (value == 0) return {0, 0};
  const bool negative = value < 0;
  const Real magnitude = negative ? Real(-value) : value;
  const Word sign = negative ? 0x80 : 0;
  if (magnitude > 240) return {sign | (control.saturating ? 0x77 : 0x78), kStatusOFNX};
  // The nearest candidates at or below and at or above the value (the first code of a value).
  const Candidate* below = nullptr;
  const Candidate* above = nullptr;
  for (const Candidate& c : E4M3InfNaNCandidates()) {
    if (c.value <= value && (below == nullptr || c.value > below->value)) below = &c;
    if (c.value >= value && (above == nullptr || c.value < above->value)) above = &c;
  }
  const M mode = control.rounding_mode;
  const Candidate* toward_zero = negative ? above : below;
  const Candidate* chosen = mode == M::RTP   ? above
                            : mode == M::RTM ? below
                            : mode == M::RTZ ? toward_zero
                            : mode == M::RTO ? OddAway(value, toward_zero, negative)
                                             : Nearest(value, below, above, mode, negative);
  const bool inexact = chosen->value != value;
  const bool tiny = magnitude < PowerOfTwo(-6);
  return {static_cast<Word>(chosen->code), inexact ? (tiny ? kStatusUFNX : kStatusNX) : Status{0}};
}

ModelAnswer ModelMatrixFloatingEncoding(const Real& value, bool negative_zero,
                                        TileDataType destination_type,
                                        NumericExecutionControl control,
                                        const Behaviour& behaviour) {
  const Encoded profile = ElementWidth(
      ReferenceMatrixFloatingEncoding(value, destination_type, control), destination_type);
  const Encoded base = destination_type == T::E4M3 && behaviour.Has(Deviation::E4M3InfNaN)
                           ? ModelE4M3InfNaNEncoding(value, control)
                           : profile;
  FloatingFacts facts;
  facts.zero = value == 0;
  facts.negative = facts.zero ? negative_zero : value < 0;
  if ((base.status & kStatusUF) != 0 && behaviour.Has(Deviation::TininessAfterRounding)) {
    facts.tiny_after_rounding = TinyAfterRounding(value, destination_type, control.rounding_mode);
  }
  return ApplyFloatingDeviations(profile, base, facts, destination_type, control, behaviour);
}

ModelAnswer ModelMatrixIntegerEncoding(const Real& value, bool from_floating,
                                       TileDataType destination_type,
                                       NumericExecutionControl control,
                                       const Behaviour& behaviour) {
  const Encoded profile = ElementWidth(
      ReferenceMatrixIntegerEncoding(value, destination_type, control), destination_type);
  const NumericExecutionControl effective = ModelControl(control, behaviour);
  const Encoded base =
      effective == control
          ? profile
          : ElementWidth(ReferenceMatrixIntegerEncoding(value, destination_type, effective),
                         destination_type);
  return ApplyIntegerDeviations(profile, base, value < 0, from_floating, destination_type,
                                behaviour);
}

ModelAnswer ModelTileProfileQuantize(Word value, Word scale, Word zero_point,
                                     TileDataType source_type, TileDataType destination_type,
                                     NumericExecutionControl control, const Behaviour& behaviour) {
  const auto element = [&](NumericExecutionControl c) {
    return ElementWidth(
        TileProfileQuantize(value, scale, zero_point, source_type, destination_type, c),
        destination_type);
  };
  const Encoded profile = element(control);
  const NumericExecutionControl effective = ModelControl(control, behaviour);
  const Encoded base = effective == control ? profile : element(effective);
  QuantizeFacts facts;
  const NumericValueClass c = TileNumericValueClass(TileDataType::FP32, value);
  if (NumericValueClassIsNaN(c) || NumericValueClassIsInfinity(c)) {
    facts.kind = NumericValueClassIsNaN(c) ? ModelSourceKind::NaN : ModelSourceKind::Infinity;
    facts.negative = ((value >> 31) & 1) != 0;
  } else {  // seed 003 lines 134-138: the exact affine value, rounded, against the range
    const Real affine = ReferenceFP32FiniteValue(value) * ReferenceFP32FiniteValue(scale) +
                        Real(ReferenceIntegerValue(zero_point, destination_type));
    const Integer rounded = FloatingToInteger(affine, control.rounding_mode);
    facts.negative = rounded < 0;
    facts.out_of_range =
        rounded < ReferenceIntegerValue(TileIntegerMinimum(destination_type), destination_type) ||
        rounded > ReferenceIntegerValue(TileIntegerMaximum(destination_type), destination_type);
  }
  return ApplyQuantizeDeviations(profile, base, facts, destination_type, behaviour);
}

}  // namespace ptovec::oracle
