// Format edges (see format_edges.hpp): the range-end values of each floating format, found by
// value from its codes (the formats up to 16 bits are searched once; FP32 and FP19 are Binary,
// whose codes are in value order) and computed with exact Dyadic arithmetic.
#include "ptovec/oracle/format_edges.hpp"

#include <array>
#include <cstddef>
#include <optional>
#include <stdexcept>
#include <string>

namespace ptovec::oracle {

namespace {

struct Edges {
  Dyadic smallest_positive;
  Dyadic smallest_normal;
  std::optional<Dyadic> largest_subnormal;  // none for a format without subnormals (E8M0)
  Dyadic largest;
  Dyadic below_largest;
};

const FormatInfo& Floating(TileDataType type) {
  const FormatInfo& f = Format(type);
  if (!f.IsFloating()) {
    throw std::invalid_argument("format edges: " + std::string(f.name) + " is not a floating type");
  }
  return f;
}

Edges FindEdges(TileDataType type) {
  const FormatInfo& f = Floating(type);
  Edges e;
  e.largest = DyadicNormalized(DyadicFromFiniteCode(type, f.largest_finite_code));
  if (f.width > 16) {  // Binary: positive codes are in value order
    e.smallest_positive = DyadicNormalized(DyadicFromFiniteCode(type, 1));
    e.smallest_normal = DyadicPowerOfTwo(1 - f.bias);
    e.largest_subnormal = DyadicNormalized(
        DyadicFromFiniteCode(type, (Word{1} << f.fraction_bits) - 1));  // fraction all ones
    e.below_largest = DyadicNormalized(DyadicFromFiniteCode(type, f.largest_finite_code - 1));
    return e;
  }
  std::optional<Dyadic> positive;
  std::optional<Dyadic> normal;
  std::optional<Dyadic> below;
  std::optional<Dyadic> subnormal;
  for (Word w = 0; w < (Word{1} << f.width); ++w) {
    if (!TileNumericValueIsFinite(type, w)) continue;
    const Dyadic v = DyadicFromFiniteCode(type, w);
    if (v.negative || v.significand == 0) continue;
    if (!positive || DyadicCompareMagnitude(v, *positive) < 0) positive = v;
    if (TileNumericValueClass(type, w) == NumericValueClass::PositiveNormal &&
        (!normal || DyadicCompareMagnitude(v, *normal) < 0)) {
      normal = v;
    }
    if (TileNumericValueClass(type, w) == NumericValueClass::PositiveSubnormal &&
        (!subnormal || DyadicCompareMagnitude(v, *subnormal) > 0)) {
      subnormal = v;
    }
    if (DyadicCompareMagnitude(v, e.largest) < 0 &&
        (!below || DyadicCompareMagnitude(v, *below) > 0)) {
      below = v;
    }
  }
  e.smallest_positive = DyadicNormalized(*positive);
  e.smallest_normal = normal ? DyadicNormalized(*normal) : DyadicPowerOfTwo(1 - f.bias);
  e.below_largest = DyadicNormalized(*below);
  if (subnormal) e.largest_subnormal = DyadicNormalized(*subnormal);
  return e;
}

// The edges of every floating type, computed once (callers ask per case).
const Edges& EdgesOf(TileDataType type) {
  static const std::array<std::optional<Edges>, detail::kFormatCodes> table = [] {
    std::array<std::optional<Edges>, detail::kFormatCodes> t{};
    for (const FormatInfo& f : AllFormats()) {
      if (f.IsFloating()) t[static_cast<std::size_t>(f.type)] = FindEdges(f.type);
    }
    return t;
  }();
  Floating(type);
  return *table[static_cast<std::size_t>(type)];
}

// L * a - P * b at the exponent of their alignment, then times 2^shift (L > P > 0, their
// exponents close: two neighbouring values of one format).
Dyadic Combine(const Dyadic& l, int a, const Dyadic& p, int b, int shift) {
  const int e = l.exponent < p.exponent ? l.exponent : p.exponent;
  const DyadicSignificand lw = l.significand << (l.exponent - e);
  const DyadicSignificand pw = p.significand << (p.exponent - e);
  return DyadicNormalized(
      {false, lw * static_cast<unsigned>(a) - pw * static_cast<unsigned>(b), e + shift});
}

}  // namespace

Dyadic SmallestPositiveValue(TileDataType type) { return EdgesOf(type).smallest_positive; }
Dyadic SmallestNormalValue(TileDataType type) { return EdgesOf(type).smallest_normal; }
Dyadic LargestFiniteValue(TileDataType type) { return EdgesOf(type).largest; }

Dyadic LargestSubnormalValue(TileDataType type) {
  const Edges& e = EdgesOf(type);
  if (!e.largest_subnormal) {
    throw std::invalid_argument("format edges: " + std::string(Format(type).name) +
                                " has no subnormal values");
  }
  return *e.largest_subnormal;
}

Dyadic SubnormalNormalTie(TileDataType type) {
  return DyadicMagnitudeMidpoint(LargestSubnormalValue(type), EdgesOf(type).smallest_normal);
}

Dyadic BelowLargestFiniteValue(TileDataType type) { return EdgesOf(type).below_largest; }

Dyadic OverflowThreshold(TileDataType type) {
  const Edges& e = EdgesOf(type);
  return Combine(e.largest, 3, e.below_largest, 1, -1);
}

Dyadic LargestFinitePlusUlp(TileDataType type) {
  const Edges& e = EdgesOf(type);
  return Combine(e.largest, 2, e.below_largest, 1, 0);
}

}  // namespace ptovec::oracle
