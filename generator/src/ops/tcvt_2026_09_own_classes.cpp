// The outcome classes of edition 2026-09's TCVT on the pairs of ReferenceTCVTConvert
// (tcvt-conversion.asl lines 159-186 at 01445483, /work/shared/spec-2026-09): each of its
// branches' specials is a class named after its result, and the finite values get the classes
// of the encoding the branch ends in: ReferenceMatrixFloatingEncoding's (the encode list) into
// FP32, FP16 and BF16; ReferencePacked4Encoding's and ReferenceE6M2Encoding's
// (packed-conversion.asl lines 57-141 and 164-201) into a packed lane and E6M2, decided here.
// RCPE6M2's values are reciprocals, most of them not dyadic: its classes are read from the result.
// Exact arithmetic only (Dyadic, and the oracle's exact rationals for lane and E6M2 values).
#include <cstddef>
#include <optional>
#include <span>
#include <vector>

#include "outcome_classes.hpp"
#include "ptovec/generator/ops.hpp"
#include "ptovec/oracle/dyadic.hpp"
#include "ptovec/oracle/edition_2026_09_encoding.hpp"
#include "ptovec/oracle/fast_edition_2026_09.hpp"
#include "ptovec/oracle/formats.hpp"
#include "ptovec/oracle/numeric.hpp"
#include "tcvt_2026_09_classes.hpp"

namespace ptovec::generator::tcvt_2026_09 {

namespace {

using oracle::NumericValueClass;
using oracle::Real;
using T = TileDataType;
namespace ed = oracle::edition_2026_09;

constexpr oracle::Status kOFNX = oracle::kStatusOF | oracle::kStatusNX;

bool Has(oracle::Status s, oracle::Status bits) { return (s & bits) == bits; }

// The NaN rules of a source whose NaN gives the word `what` ("lane 0", "0xFF"): quiet without
// status, signaling with NV.
void AddNaNRules(T src, const char* quiet, const char* signaling, std::vector<Rule>& rules) {
  if (SourceHas(src, IsQuietNaN))
    rules.push_back({{quiet, "a quiet NaN source, no status"},
                     [](const Facts& f) { return IsQuietNaN(f.source); }});
  if (SourceHas(src, IsSignalingNaN))
    rules.push_back({{signaling, "a signaling NaN source (or invalid encoding), NV"},
                     [](const Facts& f) { return IsSignalingNaN(f.source); }});
}

// ---- from E8M0 (ReferenceTCVTConvertFromE8M0, lines 140-157) ----

RoutePlan FromE8M0Plan(TypePair pair) {
  RoutePlan plan;
  plan.rules.push_back({{"0xFF: the canonical NaN, no status",
                         "E8M0's 0xFF gives the destination's canonical NaN without NV"},
                        [](const Facts& f) { return (f.word & 0xFF) == 0xFF; }});
  plan.value_of = [](Word w) -> std::optional<oracle::Dyadic> {
    if ((w & 0xFF) == 0xFF) return std::nullopt;
    return oracle::DyadicPowerOfTwo(static_cast<int>(w & 0xFF) - 127);
  };
  plan.value_names = FloatingEncodeClassNames();
  plan.value = FloatingClassifier2026_09(pair.dst);
  plan.encode_sides = true;
  return plan;
}

// ---- to a packed FP4 lane (ReferenceTCVTConvertPacked4, lines 21-53) ----

const Real& LaneValue(T lane_type, Word w) {
  return ed::ReferencePacked4FiniteValue(lane_type, static_cast<int>(w & 15));
}

enum LaneClass : unsigned {
  kLaneExact,
  kLaneInexact,
  kLaneUF,
  kLaneOF,
  kLaneZero,
  kLaneUp,
  kLaneDown
};

std::vector<OutcomeClass> LaneClassNames() {
  return {
      {"lane exact", "the value is a lane value: no status"},
      {"lane inexact (NX without UF)", "the value is rounded to a lane, NX only"},
      {"lane tiny and inexact (UF)", "UF and NX: a rounded value below the smallest normal lane"},
      {"above the largest lane value: lane 6 or 7, OF and NX",
       "|value| > the largest lane value (E2M1X2 6, E1M2X2 1.75): lane 6 of E2M1X2 (4, not 6) "
       "or 7 of E1M2X2 (1.75), 14 or 15 when negative, Sat or not (packed-conversion.asl lines "
       "68-75)"},
      {"lane rounding to zero from a non-zero value", "a non-zero value gives lane +0 or -0"},
      {"lane tie rounded up", "the value is halfway between two lanes and rounds away from zero"},
      {"lane tie rounded down", "the value is halfway between two lanes and rounds toward zero"},
  };
}

// ReferencePacked4Encoding's classes of x (finite, non-zero): the status and the lane; a tie
// when x is the midpoint of its neighbours (the encodings rounded toward and away from zero).
ValueClassifier LaneClassifier(T lane_type) {
  return [lane_type](const oracle::Dyadic& x, std::span<const NumericExecutionControl> controls,
                     const Encoded* expected, ClassMask* out) {
    const Encoded toward =
        ed::FastReferencePacked4Encoding(x, lane_type, {NumericRoundingMode::RTZ, false});
    const Encoded away = ed::FastReferencePacked4Encoding(
        x, lane_type, {x.negative ? NumericRoundingMode::RTM : NumericRoundingMode::RTP, false});
    const Real value = oracle::ToReal(x);
    const bool tie =
        (toward.status & oracle::kStatusOF) == 0 && (toward.status & oracle::kStatusNX) != 0 &&
        value * 2 == LaneValue(lane_type, toward.word) + LaneValue(lane_type, away.word);
    for (std::size_t c = 0; c < controls.size(); ++c) {
      const Encoded r = expected[c];
      ClassMask m;
      if (r.status == 0) m.set(kLaneExact);
      if (r.status == oracle::kStatusNX) m.set(kLaneInexact);
      if ((r.status & oracle::kStatusUF) != 0) m.set(kLaneUF);
      if (Has(r.status, kOFNX)) m.set(kLaneOF);
      if ((r.word & 7) == 0) m.set(kLaneZero);
      if (tie && (r.status & oracle::kStatusOF) == 0) {
        const Real result = LaneValue(lane_type, r.word);
        const bool up = x.negative ? result < value : result > value;
        m.set(up ? kLaneUp : kLaneDown);
      }
      out[c] = m;
    }
  };
}

RoutePlan ToPacked4Plan(TypePair pair) {
  RoutePlan plan;
  const T src = pair.src;
  AddNaNRules(src, "NaN source: lane 0", "signaling NaN source: lane 0 with NV", plan.rules);
  plan.rules.push_back({{"+Inf source: lane 6 or 7, OF and NX",
                         "+Inf gives lane 6 (E2M1X2: 4, not its largest 6) or 7 (E1M2X2: 1.75), "
                         "Sat or not"},
                        [](const Facts& f) { return IsPlusInf(f.source); }});
  plan.rules.push_back({{"-Inf source: lane 14 or 15, OF and NX",
                         "-Inf gives lane 14 (E2M1X2: -4) or 15 (E1M2X2: -1.75), Sat or not"},
                        [](const Facts& f) { return IsMinusInf(f.source); }});
  plan.rules.push_back({{"+0 source: lane +0", "+0 gives lane 0, no status"},
                        [](const Facts& f) { return IsPlusZero(f.source); }});
  plan.rules.push_back({{"-0 source: lane -0", "-0 gives lane 8, no status"},
                        [](const Facts& f) { return IsMinusZero(f.source); }});
  plan.value_of = [src](Word w) -> std::optional<oracle::Dyadic> {
    const NumericValueClass vc = oracle::TileNumericValueClass(src, w);
    if (IsAnyNaN(vc) || IsPlusInf(vc) || IsMinusInf(vc) || oracle::NumericValueClassIsZero(vc))
      return std::nullopt;
    return oracle::DyadicFromFiniteCode(src, w);
  };
  plan.value_names = LaneClassNames();
  plan.value = LaneClassifier(pair.dst);
  return plan;
}

// ---- from a packed FP4 lane (ReferenceTCVTConvertFromPacked4, lines 55-71) ----

RoutePlan FromPacked4Plan(TypePair pair) {
  RoutePlan plan;
  const T src = pair.src;
  plan.rules.push_back({{"+0 lane: +0", "lane +0 gives the destination's +0, no status"},
                        [](const Facts& f) { return IsPlusZero(f.source); }});
  plan.rules.push_back({{"-0 lane: -0", "lane -0 gives the destination's -0, no status"},
                        [](const Facts& f) { return IsMinusZero(f.source); }});
  plan.value_of = [src](Word w) -> std::optional<oracle::Dyadic> {
    if (oracle::NumericValueClassIsZero(oracle::TileNumericValueClass(src, w))) return std::nullopt;
    return oracle::DyadicFromReal(LaneValue(src, w));
  };
  plan.value_names = FloatingEncodeClassNames();
  plan.value = FloatingClassifier2026_09(pair.dst);
  plan.encode_sides = true;
  return plan;
}

// ---- to E6M2 (ReferenceTCVTConvertToE6M2, lines 73-104; ReferenceE6M2Encoding) ----

enum E6M2Class : unsigned { kE6Exact, kE6Inexact, kE6UF, kE6SatOF, kE6OF, kE6Up, kE6Down };

std::vector<OutcomeClass> E6M2ClassNames() {
  return {
      {"E6M2 exact", "the value is an E6M2 value: no status"},
      {"E6M2 inexact (NX without UF)", "the value is rounded to an E6M2 code, NX only"},
      {"below the smallest E6M2 value: UF and NX",
       "0 < value < 2^-48, E6M2's smallest (code 0x00): rounded, UF and NX"},
      {"overflow under Sat: 0xFE, OF and NX", "value > E6M2's largest, Sat on: code 0xFE"},
      {"overflow without Sat: 0xFF, OF and NX", "value > E6M2's largest, Sat off: the NaN 0xFF"},
      {"E6M2 tie rounded up", "the value is halfway between two codes and rounds up"},
      {"E6M2 tie rounded down", "the value is halfway between two codes and rounds down"},
  };
}

// ReferenceE6M2Encoding's classes of x > 0: the status; a tie when x is the midpoint of the
// code it rounds to and that code's neighbour on x's side (codes 0..254 rise with the value).
void ClassifyE6M2(const oracle::Dyadic& x, std::span<const NumericExecutionControl> controls,
                  const Encoded* expected, ClassMask* out) {
  const Real value = oracle::ToReal(x);
  for (std::size_t c = 0; c < controls.size(); ++c) {
    const Encoded r = expected[c];
    ClassMask m;
    if (r.status == 0) m.set(kE6Exact);
    if (r.status == oracle::kStatusNX) m.set(kE6Inexact);
    if ((r.status & oracle::kStatusUF) != 0) m.set(kE6UF);
    if (Has(r.status, kOFNX)) m.set(controls[c].saturating ? kE6SatOF : kE6OF);
    const Word code = r.word & 0xFF;
    if (r.status == oracle::kStatusNX && code != 0xFF) {
      const Real& v = ed::E6M2FiniteValue(code);
      const bool above = v > value;
      if ((above && code > 0) || (!above && code < 254)) {
        const Word other = above ? code - 1 : code + 1;
        if (value * 2 == v + ed::E6M2FiniteValue(other)) m.set(above ? kE6Up : kE6Down);
      }
    }
    out[c] = m;
  }
}

bool IsNegativeNonZero(NumericValueClass c) {
  return c == NumericValueClass::NegativeInfinity || c == NumericValueClass::NegativeNormal ||
         c == NumericValueClass::NegativeSubnormal;
}

RoutePlan ToE6M2Plan(TypePair pair) {
  RoutePlan plan;
  const T src = pair.src;
  AddNaNRules(src, "NaN source: 0xFF", "signaling NaN source: 0xFF with NV", plan.rules);
  plan.rules.push_back({{"zero source: 0x00 with UF and NX",
                         "+0 or -0 gives code 0x00 (2^-48: E6M2 has no zero) with UF and NX"},
                        [](const Facts& f) { return oracle::NumericValueClassIsZero(f.source); }});
  plan.rules.push_back({{"negative source: 0xFF with NV",
                         "a negative value or -Inf gives the NaN 0xFF with NV (E6M2 is unsigned)"},
                        [](const Facts& f) { return IsNegativeNonZero(f.source); }});
  plan.rules.push_back(
      {{"+Inf source under Sat: 0xFE, OF and NX", "+Inf, Sat on: code 0xFE"},
       [](const Facts& f) { return IsPlusInf(f.source) && f.control.saturating; }});
  plan.rules.push_back(
      {{"+Inf source without Sat: 0xFF, OF and NX", "+Inf, Sat off: 0xFF"},
       [](const Facts& f) { return IsPlusInf(f.source) && !f.control.saturating; }});
  plan.value_of = [src](Word w) -> std::optional<oracle::Dyadic> {
    const NumericValueClass vc = oracle::TileNumericValueClass(src, w);
    if (vc != NumericValueClass::PositiveNormal && vc != NumericValueClass::PositiveSubnormal)
      return std::nullopt;
    return oracle::DyadicFromFiniteCode(src, w);
  };
  plan.value_names = E6M2ClassNames();
  plan.value = ClassifyE6M2;
  return plan;
}

// ---- from E6M2 and RCPE6M2 (lines 106-138) ----

RoutePlan FromE6M2Plan(TypePair pair) {
  RoutePlan plan;
  plan.rules.push_back({{"0xFF: the canonical NaN, no status",
                         "E6M2's NaN 0xFF gives the destination's canonical NaN without NV"},
                        [](const Facts& f) { return IsAnyNaN(f.source); }});
  plan.value_of = [](Word w) -> std::optional<oracle::Dyadic> {
    if (IsAnyNaN(oracle::TileNumericValueClass(T::E6M2, w))) return std::nullopt;
    return oracle::DyadicFromReal(ed::E6M2FiniteValue(w & 0xFF));
  };
  plan.value_names = FloatingEncodeClassNames();
  plan.value = FloatingClassifier2026_09(pair.dst);
  plan.encode_sides = true;
  return plan;
}

// RCPE6M2's value 1 / ((4 + m) / 4 * 2^e) is dyadic only for m = 0 (4/5, 4/6 and 4/7 are not):
// its classes are read from the status and the result of ReferenceMatrixFloatingEncoding.
RoutePlan FromRcpE6M2Plan(TypePair) {
  RoutePlan plan;
  plan.rules = {
      {{"0xFF: the canonical NaN, no status", "RCPE6M2's NaN 0xFF gives the canonical NaN"},
       [](const Facts& f) { return IsAnyNaN(f.source); }},
      {{"reciprocal exact", "the reciprocal is a destination value: no status"},
       [](const Facts& f) { return !IsAnyNaN(f.source) && f.result.status == 0; }},
      {{"reciprocal inexact (NX without UF or OF)", "the reciprocal is rounded, NX only"},
       [](const Facts& f) { return f.result.status == oracle::kStatusNX; }},
      {{"reciprocal tiny and inexact (UF)", "the rounded reciprocal is tiny: UF and NX"},
       [](const Facts& f) { return (f.result.status & oracle::kStatusUF) != 0; }},
      {{"reciprocal overflow to Inf", "OF and NX, Sat off: +Inf"},
       [](const Facts& f) { return Has(f.result.status, kOFNX) && !f.control.saturating; }},
      {{"reciprocal overflow under Sat", "OF and NX, Sat on: the largest finite"},
       [](const Facts& f) { return Has(f.result.status, kOFNX) && f.control.saturating; }},
      {{"reciprocal rounding to zero", "the reciprocal gives +0"},
       [](const Facts& f) {
         return !IsAnyNaN(f.source) && oracle::NumericValueClassIsZero(f.result_class);
       }},
  };
  return plan;
}

}  // namespace

RoutePlan TcvtConvertPlan(TypePair pair) {
  // The dispatch of ReferenceTCVTConvert (lines 159-186), in its order.
  if (pair.src == T::E8M0) return FromE8M0Plan(pair);
  if (pair.dst == T::E2M1X2 || pair.dst == T::E1M2X2) return ToPacked4Plan(pair);
  if (pair.src == T::E2M1X2 || pair.src == T::E1M2X2) return FromPacked4Plan(pair);
  if (pair.dst == T::E6M2) return ToE6M2Plan(pair);
  if (pair.src == T::E6M2) return FromE6M2Plan(pair);
  return FromRcpE6M2Plan(pair);
}

}  // namespace ptovec::generator::tcvt_2026_09
