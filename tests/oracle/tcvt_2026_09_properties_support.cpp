#include "tcvt_2026_09_properties_support.hpp"

#include <algorithm>
#include <map>
#include <variant>

namespace ptovec::oracle::tcvt_2026_09_support {

using test_support::Hex;
using test_support::Pow2;
using test_support::Q;

using M = NumericRoundingMode;
using T = TileDataType;

const Grid& GridOf(TileDataType type) {
  static std::map<TileDataType, Grid> grids;
  const auto found = grids.find(type);
  if (found != grids.end()) return found->second;
  Grid g{type, {}};
  const unsigned width = Format(type).width;
  for (Word code = 0; code < (Word{1} << width); ++code) {
    if (TileNumericValueIsFinite(type, code))
      g.points.emplace_back(TileNumericFiniteValue(type, code), code);
  }
  std::stable_sort(g.points.begin(), g.points.end(),
                   [](const auto& a, const auto& b) { return a.first < b.first; });
  return grids.emplace(type, std::move(g)).first->second;
}

// Written out by hand:
//  FP16, BF16: the seeds' ReferenceBinary16Encoding (seed 000 lines 152-233, spec-notes section 5
//    item 3): overflow before or after rounding, Sat ? largest : Inf; tiny before rounding
//    (below the smallest normal).
//  FP32: seed 003 ReferenceFP32FiniteEncoding with 2026-09's Sat (matrix-quantization.asl lines
//    470-477), likewise.
//  E2M1X2, E1M2X2: packed-conversion.asl lines 66-75 and 130-136: OF exactly beyond 6 / 1.75,
//    codes 6/14 (E2M1X2: 4.0, not 6.0) and 7/15 whatever Sat says; E2M1X2 tiny after rounding
//    (below 1), E1M2X2 before (below 0.25).
//  E6M2: packed-conversion.asl lines 169-175 and 196: OF exactly beyond 1.5 * 2^15, Sat ? 0xFE :
//    0xFF; tiny before rounding, below 2^-48; no zero.
//  E4M3: the seeds' ReferenceFP8Encoding (seed 000 lines 343-452, spec-notes section 5 item 4):
//    OF exactly beyond 448, Sat ? +/-0x7E : 0x7F for both signs; tiny before rounding, below
//    2^-6; a zero result is 0x00 whatever the sign (the "-0 code" is 0x00).
DestinationRules DestinationRulesOf(TileDataType type) {
  switch (type) {
    case T::FP16:
      return {65504, false, Pow2(16), 0x7c00, 0xfc00, 0x7bff, 0xfbff, false, Pow2(-14), 0x8000};
    case T::BF16:
      return {Q(255) * Pow2(120), false, Pow2(128), 0x7f80, 0xff80, 0x7f7f, 0xff7f, false,
              Pow2(-126),         0x8000};
    case T::FP32:
      return {Real((Integer(1) << 24) - 1) * Pow2(104),
              false,
              Pow2(128),
              0x7f800000,
              0xff800000,
              0x7f7fffff,
              0xff7fffff,
              false,
              Pow2(-126),
              0x80000000};
    case T::E2M1X2:
      return {6, true, 0, 0x6, 0xe, 0x6, 0xe, true, 1, 0x8};
    case T::E1M2X2:
      return {Q(7, 4), true, 0, 0x7, 0xf, 0x7, 0xf, false, Q(1, 4), 0x8};
    case T::E6M2:
      return {49152, true, 0, 0xff, 0xff, 0xfe, 0xfe, false, Pow2(-48), kNoCode};
    case T::E4M3:
      return {448, true, 0, 0x7f, 0x7f, 0x7e, 0xfe, false, Pow2(-6), 0x00};
    default:
      ADD_FAILURE() << "no rules for type " << static_cast<int>(type);
      return {};
  }
}

void Checker::Expect(bool ok, const std::string& detail) {
  ++checked_;
  if (ok) return;
  if (++failures_ <= 20) ADD_FAILURE() << what_ << ": " << detail;
}

namespace {

Real Abs(const Real& x) { return x < 0 ? Real(-x) : x; }

// The two neighbours of x on the grid: the largest value <= x and the smallest >= x, with the
// code of each (for a zero, the first of +0 and -0 in the grid: +0; the sign is checked apart).
struct Neighbours {
  std::optional<std::pair<Real, Word>> lower, upper;
};

Neighbours NeighboursOf(const Grid& g, const Real& x) {
  Neighbours n;
  const auto above = std::upper_bound(g.points.begin(), g.points.end(), x,
                                      [](const Real& v, const auto& p) { return v < p.first; });
  if (above != g.points.begin()) n.lower = *(above - 1);
  const auto at_or_above =
      std::lower_bound(g.points.begin(), g.points.end(), x,
                       [](const auto& p, const Real& v) { return p.first < v; });
  if (at_or_above != g.points.end()) n.upper = *at_or_above;
  return n;
}

// The mode's choice between the neighbours of an inexact x (the rules of the file comment).
void CheckModeChoice(const Real& x, const Real& r, Word word, const Neighbours& n, M mode,
                     Checker& checker, const std::string& where) {
  const bool is_lower = n.lower && r == n.lower->first;
  const std::optional<Real> other =
      is_lower ? (n.upper ? std::optional<Real>(n.upper->first) : std::nullopt)
               : (n.lower ? std::optional<Real>(n.lower->first) : std::nullopt);
  switch (mode) {
    case M::RTP:
      return checker.Expect(r > x, where + ": RTP gives the upper neighbour");
    case M::RTM:
      return checker.Expect(r < x, where + ": RTM gives the lower neighbour");
    case M::RTZ:
      return checker.Expect(Abs(r) < Abs(x), where + ": RTZ gives the neighbour toward zero");
    case M::RTO:
      return checker.Expect((word & 1) == 1, where + ": RTO gives the odd code");
    default:
      break;
  }
  if (!other) return;
  const Real mine = Abs(r - x);
  const Real theirs = Abs(*other - x);
  checker.Expect(mine <= theirs, where + ": a nearest mode gives the nearer neighbour");
  if (mine != theirs) return;
  if (mode == M::RNE) checker.Expect((word & 1) == 0, where + ": RNE tie to the even code");
  if (mode == M::RNA) checker.Expect(Abs(r) > Abs(*other), where + ": RNA tie away from zero");
  if (mode == M::RHB) checker.Expect(r > *other, where + ": RHB tie toward +infinity");
}

}  // namespace

std::optional<Real> CheckFiniteResult(const Real& x, const Encoded& result, TileDataType dst,
                                      NumericExecutionControl control, Checker& checker,
                                      const std::string& where) {
  const DestinationRules rules = DestinationRulesOf(dst);
  const std::string at = where + " = " + Hex(result.word) + "/" + Hex(result.status);
  const bool overflow = (result.status & kStatusOF) != 0;
  if (rules.overflow_iff_beyond) {
    checker.Expect(overflow == (Abs(x) > rules.largest), at + ": OF exactly beyond the largest");
  } else {
    if (Abs(x) >= rules.overflow_certain) checker.Expect(overflow, at + ": must overflow");
    if (overflow) checker.Expect(Abs(x) > rules.largest, at + ": OF within range");
  }
  if (overflow) {
    const bool negative = x < 0;
    const Word want = control.saturating
                          ? (negative ? rules.overflow_negative_sat : rules.overflow_positive_sat)
                          : (negative ? rules.overflow_negative : rules.overflow_positive);
    checker.Expect(result == Encoded{want, kStatusOFNX}, at + ": overflow word " + Hex(want));
    return std::nullopt;
  }
  const Word element = LowBits(result.word, Format(dst).width);
  checker.Expect(element == result.word && TileNumericValueIsFinite(dst, result.word),
                 at + ": a finite code of the destination");
  if (!TileNumericValueIsFinite(dst, element)) return std::nullopt;
  const Real r = TileNumericFiniteValue(dst, element);
  const Neighbours n = NeighboursOf(GridOf(dst), x);
  const bool neighbour = (n.lower && r == n.lower->first) || (n.upper && r == n.upper->first);
  checker.Expect(neighbour, at + ": one of the two neighbours of the value");
  const bool exact = r == x;
  checker.Expect((result.status & ~(kStatusUF | kStatusNX)) == 0, at + ": only UF and NX");
  checker.Expect(((result.status & kStatusNX) != 0) == !exact, at + ": NX exactly when inexact");
  const Real judged = rules.tiny_after_rounding ? Abs(r) : Abs(x);
  checker.Expect(((result.status & kStatusUF) != 0) == (!exact && judged < rules.tiny_below),
                 at + ": UF by the destination's rule");
  if (r == 0 && x != 0 && rules.negative_zero != kNoCode) {
    checker.Expect(element == (x < 0 ? rules.negative_zero : 0), at + ": a zero has x's sign");
  }
  if (!exact && neighbour) CheckModeChoice(x, r, element, n, control.rounding_mode, checker, at);
  return r;
}

std::vector<NumericExecutionControl> LegalControls(TileDataType src, TileDataType dst) {
  std::vector<NumericExecutionControl> out;
  for (const M mode : kAllRoundingModes) {
    if (!edition_2026_09::HardwareTCVTRoundingModeSupported(src, dst, mode)) continue;
    out.push_back({mode, false});
    out.push_back({mode, true});
  }
  return out;
}

Encoded Converted(TileDataType src, TileDataType dst, Word value, NumericExecutionControl c) {
  const Conversion2026_09 got = Convert2026_09(src, dst, value, c);
  if (const auto* refusal = std::get_if<Refusal2026_09>(&got)) {
    ADD_FAILURE() << Where(src, value, dst, c) << ": refused: " << refusal->message;
    return {};
  }
  return std::get<Encoded>(got);
}

std::string Where(TileDataType src, Word value, TileDataType dst, NumericExecutionControl c) {
  return std::string(Format(src).name) + " " + Hex(value) + " -> " + std::string(Format(dst).name) +
         " " + std::string(RoundingModeName(c.rounding_mode)) + (c.saturating ? " sat" : "");
}

void ExpectMonotonic(std::vector<std::pair<Real, Real>> points, Checker& checker,
                     const std::string& where) {
  std::stable_sort(points.begin(), points.end(),
                   [](const auto& a, const auto& b) { return a.first < b.first; });
  for (std::size_t i = 1; i < points.size(); ++i) {
    checker.Expect(points[i - 1].second <= points[i].second,
                   where + ": the result decreases between source values " +
                       points[i - 1].first.str() + " and " + points[i].first.str());
  }
}

}  // namespace ptovec::oracle::tcvt_2026_09_support
