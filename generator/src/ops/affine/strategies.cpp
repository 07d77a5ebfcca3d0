// Op `affine`'s sampling strategies (MatrixQuantizedAffine, affine.cpp): near-target sets that
// aim value * scale at the clamp edges of the S5/S9/S17 intermediate, at the destination's range
// ends through the offset, at width 0's destination edges and at ties (power-of-two and odd
// scales, built with tie_products.hpp), then value specials and random tuples; and the uniform
// generator.
#include <algorithm>
#include <array>
#include <bit>
#include <cstdint>
#include <functional>
#include <initializer_list>
#include <memory>
#include <optional>
#include <utility>
#include <vector>

#include "../tie_products.hpp"
#include "affine.hpp"
#include "ptovec/generator/domains.hpp"
#include "ptovec/generator/ops.hpp"
#include "ptovec/generator/tuple_set.hpp"
#include "ptovec/oracle/dyadic.hpp"
#include "ptovec/oracle/exact_rational.hpp"
#include "ptovec/oracle/fast.hpp"
#include "ptovec/oracle/matrix_quantization.hpp"
#include "ptovec/oracle/numeric.hpp"

namespace ptovec::generator::affine {

namespace {

using oracle::Dyadic;
using oracle::Format;
using oracle::kFp19MaxNormal;
using oracle::kFp19MinNormal;

// Every strategy is a TupleSet (tuple_set.hpp). Four aim at a target product and are mapped
// sets over axes [width, a, offset, b, s, 0, k] (unused axes hold 0):
//  - the target p: value * scale lands on or next to p / 2 (p odd: a tie k + 1/2), p a function
//    of (width, a, offset, b) that each strategy defines, |p| < 2^23;
//  - the scale 2^s: s in -10..10 for an FP32 source, -8..-1 for an S32 source (a scale of at
//    most 1/2, so every S32 step moves the product by at most a half and each target has its
//    own values);
//  - the value: the source word just below p / (2 * scale) in value order, moved k = -1..2 steps
//    (FP32 ulps, S32 units): so exactly at the target when it is representable, and the
//    neighbours on either side.
// Their inverses read the width, offset and scale from the tuple and try the targets whose
// value lies within 3 steps (NearTargetSet). Targets beyond 2^23 (the ends of S32 and U32 at
// width 0) are reached by boxes of values around them instead (Width0DestinationEdges).

/// Targets p with |p| >= kTargetLimit are not near-target axes.
constexpr std::int64_t kTargetLimit = std::int64_t{1} << 23;

std::uint64_t Magnitude(std::int64_t x) {
  return x < 0 ? std::uint64_t{0} - static_cast<std::uint64_t>(x) : static_cast<std::uint64_t>(x);
}
Word Axis(std::int64_t v) { return static_cast<Word>(v); }

// The FP19 scale 2^s (s in -126..127: every scale exponent the strategies use).
Word Fp19PowerOfTwo(int s) { return Fp19Word(1, s).value(); }

// Every positive normal FP19 scale word.
WordSet AllNormalScales() { return WordSet::Range(kFp19MinNormal, kFp19MaxNormal); }

// The offsets of a width, as S32 words (width 0: only 0).
WordSet Offsets(int width) {
  return width == 0 ? WordSet::Points({0}) : S32Range(WidthMin(width), WidthMax(width));
}
// The offsets of a width as a signed axis.
WordSet OffsetAxis(int width) { return SignedRange(WidthMin(width), WidthMax(width)); }

// Every source value: finite FP32 words, or every S32 word.
WordSet SourceValues(TileDataType src) {
  return src == TileDataType::FP32 ? Fp32FiniteWords() : AllWords(32);
}

// A source word moved `steps` steps in value order (FP32 ulps, staying finite; S32 units,
// clamped).
Word SourceStep(TileDataType src, Word word, int steps) {
  if (src == TileDataType::S32) return S32Word(S32Of(word) + steps);
  std::uint32_t moved = Fp32Step(static_cast<std::uint32_t>(word), steps);
  if (!Fp32IsFinite(moved)) moved = Fp32Step(moved, moved >> 31 ? 1 : -1);
  return moved;
}

// The scale exponents of a near-target strategy.
WordSet ScaleExponentAxis(TileDataType src) {
  return src == TileDataType::FP32 ? SignedRange(-10, 10) : SignedRange(-8, -1);
}

// The source word just below (in value order) p * 2^(-s-1) = (p / 2) / 2^s, moved k steps;
// always finite (FP32) or clamped to S32.
Word ValueBelow(TileDataType src, std::int64_t p, int s, std::int64_t k) {
  const int shift = -s - 1;  // x = p * 2^shift
  if (src == TileDataType::FP32) {
    const std::uint32_t below = static_cast<std::uint32_t>(
        oracle::FastFP32FiniteEncoding(Dyadic{p < 0, Magnitude(p), shift}, NumericRoundingMode::RTM)
            .word);
    return SourceStep(src, below, static_cast<int>(k));
  }
  std::int64_t floor = 0;
  if (shift >= 0) {
    floor = shift >= 40 ? (p < 0 ? INT64_MIN / 4 : INT64_MAX / 4) : p * (std::int64_t{1} << shift);
  } else {
    floor = -shift >= 63 ? (p < 0 ? -1 : 0) : (p >> -shift);  // arithmetic shift: floor
  }
  return S32Word(std::clamp<std::int64_t>(floor, INT32_MIN, INT32_MAX) + k);
}

// floor(2 * value * scale) for a finite source word and an FP19 scale, when its magnitude is
// below 2^40.
std::optional<std::int64_t> FloorTwiceProduct(TileDataType src, Word value, Word scale) {
  const Dyadic product = oracle::DyadicProduct(
      ValueDyadic(src, value), oracle::DyadicFromFiniteCode(TileDataType::FP19, scale));
  if (product.significand == 0) return 0;
  const int exponent = product.exponent + 1;
  const int bits = oracle::BitLength(product.significand);
  if (bits + exponent > 40) return std::nullopt;
  oracle::DyadicSignificand magnitude = product.significand;
  bool inexact = false;
  if (exponent >= 0) {
    magnitude <<= exponent;
  } else if (-exponent >= 128) {
    inexact = true;
    magnitude = 0;
  } else {
    inexact = (magnitude & ((oracle::DyadicSignificand{1} << -exponent) - 1)) != 0;
    magnitude >>= -exponent;
  }
  const auto m = static_cast<std::int64_t>(magnitude);
  return product.negative ? -m - (inexact ? 1 : 0) : m;
}

// The position of a source word in value order (FP32 ordinal, S32 value).
std::int64_t Order(TileDataType src, Word word) {
  return src == TileDataType::FP32 ? Fp32Ordinal(static_cast<std::uint32_t>(word)) : S32Of(word);
}

// A near-target strategy: its axis boxes, the target of an axis point, and the (a, b) axes that
// give target p for a width and offset.
struct NearTarget {
  std::vector<Box> boxes;  // axes [width, a, offset, b, s, 0, k]
  std::function<std::int64_t(int width, std::int64_t a, std::int64_t offset, std::int64_t b)>
      target;
  std::function<void(int width, std::int64_t offset, std::int64_t p,
                     std::vector<std::pair<std::int64_t, std::int64_t>>& ab)>
      axes_for;
  std::int64_t p_min = 0;  // every target lies in p_min .. p_max (a quick filter for invert)
  std::int64_t p_max = 0;
  Boxes superset;  // of input tuples: every tuple it builds (a quick filter)
};

// Input tuples of one width with power-of-two scales 2^s for s in `exponents` and any value
// and offset of the width: a superset of a near-target part.
Boxes PowerOfTwoScaleTuples(TileDataType src, int width, const WordSet& exponents) {
  std::vector<Word> scales;
  for (const auto& [lo, hi] : exponents.intervals()) {
    for (Word e = lo;; ++e) {
      scales.push_back(Fp19PowerOfTwo(static_cast<int>(static_cast<std::int64_t>(e))));
      if (e == hi) break;
    }
  }
  return Boxes::Product(
      {SourceValues(src), WordSet::Points(scales), Offsets(width), WordSet::Points({Word(width)})});
}

TupleSet NearTargetSet(TileDataType src, NearTarget near) {
  auto shared = std::make_shared<const NearTarget>(std::move(near));
  const auto assemble = [src, shared](const Point& a) {
    const int width = static_cast<int>(a[0]);
    const std::int64_t offset = SignedAxisValue(a[2]);
    const std::int64_t p =
        shared->target(width, SignedAxisValue(a[1]), offset, SignedAxisValue(a[3]));
    const int s = static_cast<int>(SignedAxisValue(a[4]));
    return Inputs{ValueBelow(src, p, s, SignedAxisValue(a[6])), Fp19PowerOfTwo(s), S32Word(offset),
                  Word(width)};
  };
  const auto invert = [src, shared](const Inputs& t, std::vector<Point>& out) {
    if ((t[kScaleSlot] & 0x3FF) != 0) return;
    if (src == TileDataType::FP32 && !Fp32IsFinite(static_cast<std::uint32_t>(t[kValueSlot])))
      return;
    // The targets whose value below lies within 3 steps of this value: p between
    // floor(2 * (value - 3 steps) * scale) and floor(2 * (value + 3 steps) * scale) + 1 (many
    // targets share one value where the source is coarse, e.g. FP32 values above 2^24).
    const auto lo = FloorTwiceProduct(src, SourceStep(src, t[kValueSlot], -3), t[kScaleSlot]);
    const auto hi = FloorTwiceProduct(src, SourceStep(src, t[kValueSlot], 3), t[kScaleSlot]);
    if (!lo || !hi) return;
    const std::int64_t p_first = std::max(*lo, shared->p_min);
    const std::int64_t p_last = std::min(*hi + 1, shared->p_max);
    if (p_first > p_last || p_last - p_first > (std::int64_t{1} << 16)) return;
    const int width = static_cast<int>(t[kWidthSlot]);
    const std::int64_t offset = S32Of(t[kOffsetSlot]);
    const int biased = static_cast<int>((t[kScaleSlot] >> 10) & 0xFF);
    std::vector<std::pair<std::int64_t, std::int64_t>> ab;
    const int s = biased - 127;
    for (std::int64_t p = p_first; p <= p_last; ++p) {
      const std::int64_t k = Order(src, t[kValueSlot]) - Order(src, ValueBelow(src, p, s, 0));
      if (k < -1 || k > 2) continue;
      ab.clear();
      shared->axes_for(width, offset, p, ab);
      for (const auto& [a, b] : ab) {
        out.push_back(Point{Word(width), Axis(a), Axis(offset), Axis(b), Axis(s), 0, Axis(k)});
      }
    }
  };
  return TupleSet::Mapped(Boxes(shared->boxes), assemble, invert, shared->superset);
}

// The tie target range of a width (width 0: the destination's range): near zero, near the clamp
// edges or anywhere between, as k of the tie k + 1/2.
std::pair<std::int64_t, std::int64_t> TieTargets(int width, Range dst) {
  const Range r = width == 0 ? dst : Range{WidthMin(width), WidthMax(width)};
  const std::int64_t limit = kTargetLimit / 2 - 1;  // |2k + 1| < 2^23
  return {std::max(-limit, std::min<std::int64_t>(r.lo - 3, -4)),
          std::min(limit - 1, std::max<std::int64_t>(r.hi + 2, 3))};
}

// Strategy tie_power_of_two_scale: every tie k + 1/2 of each width's range (and a little beyond),
// a power-of-two scale, the value at (or, by k, next to) the tie; any offset. Axis a = k.
TupleSet TiePowerOfTwoScale(TypePair pair, int width) {
  const Range dst = AffineDestinationRange(pair.dst);
  NearTarget near;
  near.superset = PowerOfTwoScaleTuples(pair.src, width, ScaleExponentAxis(pair.src));
  near.p_min = INT64_MAX;
  near.p_max = INT64_MIN;
  {  // one width
    const auto [lo, hi] = TieTargets(width, dst);
    near.boxes.push_back(Box{{WordSet::Points({Word(width)}), SignedRange(lo, hi),
                              OffsetAxis(width), WordSet::Points({0}), ScaleExponentAxis(pair.src),
                              WordSet::Points({0}), SignedRange(-1, 2)}});
    near.p_min = std::min(near.p_min, 2 * lo + 1);
    near.p_max = std::max(near.p_max, 2 * hi + 1);
  }
  near.target = [](int, std::int64_t a, std::int64_t, std::int64_t) { return 2 * a + 1; };
  near.axes_for = [](int, std::int64_t, std::int64_t p, auto& ab) {
    if ((p & 1) != 0) ab.emplace_back((p - 1) / 2, 0);
  };
  return NearTargetSet(pair.src, std::move(near));
}

// Strategy intermediate_clamp_edges: products at -2^(w-1) - 1.5 .. -2^(w-1) + 1.5 and
// 2^(w-1) - 2.5 .. 2^(w-1) + 0.5 in half steps (exactly, or a source step either side), for the
// clamping widths 5, 9, 17; any offset. Axis a = p.
TupleSet IntermediateClampEdgesSteps(TypePair pair, int width, const WordSet& steps) {
  NearTarget near;
  near.superset = PowerOfTwoScaleTuples(pair.src, width, ScaleExponentAxis(pair.src));
  near.p_min = INT64_MAX;
  near.p_max = INT64_MIN;
  {  // one clamping width
    const WordSet targets =
        SignedRange(2 * WidthMin(width) - 3, 2 * WidthMin(width) + 3)
            .Union(SignedRange(2 * WidthMax(width) - 3, 2 * WidthMax(width) + 3));
    near.boxes.push_back(
        Box{{WordSet::Points({Word(width)}), targets, OffsetAxis(width), WordSet::Points({0}),
             ScaleExponentAxis(pair.src), WordSet::Points({0}), steps}});
    near.p_min = std::min(near.p_min, 2 * WidthMin(width) - 3);
    near.p_max = std::max(near.p_max, 2 * WidthMax(width) + 3);
  }
  near.target = [](int, std::int64_t a, std::int64_t, std::int64_t) { return a; };
  near.axes_for = [](int, std::int64_t, std::int64_t p, auto& ab) { ab.emplace_back(p, 0); };
  return NearTargetSet(pair.src, std::move(near));
}

// The sums (intermediate + offset) near the destination's range ends that a width can reach:
// -2..+2 around each end; when the width cannot reach them (S32, or S16 from S5), the width's own
// extremes.
std::vector<std::int64_t> OffsetSums(int width, Range d) {
  const std::int64_t wlo = WidthMin(width);
  const std::int64_t whi = WidthMax(width);
  std::vector<std::int64_t> sums;
  for (std::int64_t edge : {d.lo, d.hi}) {
    for (std::int64_t k = -2; k <= 2; ++k) {
      if (edge + k >= 2 * wlo && edge + k <= 2 * whi) sums.push_back(edge + k);
    }
  }
  if (sums.empty()) {
    for (std::int64_t k = 0; k <= 2; ++k) sums.insert(sums.end(), {2 * wlo + k, 2 * whi - k});
  }
  std::sort(sums.begin(), sums.end());
  sums.erase(std::unique(sums.begin(), sums.end()), sums.end());
  return sums;
}

// In two equal parts: the value exactly below the target (k = 0: the product exactly on it when
// representable), and one or two steps away.
TupleSet IntermediateClampEdgesExact(TypePair pair, int width) {
  return IntermediateClampEdgesSteps(pair, width, SignedRange(0, 0));
}
TupleSet IntermediateClampEdges(TypePair pair, int width) {
  return IntermediateClampEdgesSteps(pair, width, SignedRange(-1, 2).Minus(SignedRange(0, 0)));
}

// Strategy offset_over_destination: intermediate + offset near the destination's range ends,
// every offset that reaches there from a legal intermediate, the product on the intermediate
// or a half step either side. Axes a = the sum, b = the half step (-1, 0, +1):
// p = 2 * (sum - offset) + b.
TupleSet OffsetOverDestination(TypePair pair, int width) {
  const Range d = AffineDestinationRange(pair.dst);
  NearTarget near;
  near.superset = PowerOfTwoScaleTuples(pair.src, width, ScaleExponentAxis(pair.src));
  near.p_min = INT64_MAX;
  near.p_max = INT64_MIN;
  {  // one clamping width
    const std::int64_t wlo = WidthMin(width);
    const std::int64_t whi = WidthMax(width);
    for (const std::int64_t sum : OffsetSums(width, d)) {
      const std::int64_t olo = std::max(wlo, sum - whi);
      const std::int64_t ohi = std::min(whi, sum - wlo);
      if (olo > ohi) continue;
      near.boxes.push_back(
          Box{{WordSet::Points({Word(width)}), SignedRange(sum, sum), SignedRange(olo, ohi),
               SignedRange(-1, 1), ScaleExponentAxis(pair.src), WordSet::Points({0}),
               SignedRange(-1, 2)}});
      near.p_min = std::min(near.p_min, 2 * (sum - ohi) - 1);
      near.p_max = std::max(near.p_max, 2 * (sum - olo) + 1);
    }
  }
  near.target = [](int, std::int64_t a, std::int64_t offset, std::int64_t b) {
    return 2 * (a - offset) + b;
  };
  near.axes_for = [](int, std::int64_t offset, std::int64_t p, auto& ab) {
    for (std::int64_t b = -1; b <= 1; ++b) {
      if (((p - b) & 1) == 0) ab.emplace_back((p - b) / 2 + offset, b);
    }
  };
  return NearTargetSet(pair.src, std::move(near));
}

// FP32 values and scales 1 + f/1024 (f = 0..1023) whose product lies within one unit of a far
// range end E (2^31 - 1, -2^31, 2^32 - 1) without being an integer, below E and above it, so
// each rounding mode has a product that rounds to E itself (a product of an FP32 and an FP19
// value is never 2^31 - 1, a prime; its significand has at most 35 bits, so near 2^31 it lies
// on a grid of 1/8 and only a few such products exist). The first kFound of each side per edge,
// as points (one box per scale).
Boxes InexactAtFarEdges(const std::vector<std::int64_t>& edges) {
  constexpr int kFound = 3;
  std::vector<std::pair<Word, Word>> found;  // (scale, value)
  for (const std::int64_t edge : edges) {
    const oracle::Real e(edge);
    int below = 0;
    int above = 0;
    for (std::int64_t f = 0; f < 1024 && (below < kFound || above < kFound); ++f) {
      const Word scale = Fp19Word(static_cast<std::uint64_t>(1024 + f), -10).value();  // 1 + f/1024
      const oracle::Real scale_value = oracle::Real(1024 + f) * oracle::PowerOfTwo(-10);
      // The FP32 word at or below the integer part of E / scale (E * 1024 / (1024 + f)).
      const std::uint32_t centre = Fp32Bracket(oracle::Real(edge * 1024 / (1024 + f))).first;
      for (int k = -2; k <= 2; ++k) {
        const std::uint32_t v = Fp32Step(centre, k);
        if (!Fp32IsFinite(v)) continue;
        const oracle::Real product = ValueReal(TileDataType::FP32, v) * scale_value;
        const oracle::Real distance = product - e;
        if (distance == 0 || abs(distance) >= 1) continue;
        int& side = distance < 0 ? below : above;
        if (side < kFound) {
          ++side;
          found.emplace_back(scale, v);
        }
      }
    }
  }
  std::sort(found.begin(), found.end());
  std::vector<Box> boxes;
  for (std::size_t i = 0; i < found.size();) {
    std::vector<Word> values;
    const Word scale = found[i].first;
    for (; i < found.size() && found[i].first == scale; ++i) values.push_back(found[i].second);
    boxes.push_back(Box{{WordSet::Points(values), WordSet::Points({scale}), WordSet::Points({0}),
                         WordSet::Points({0})}});
  }
  return Boxes(std::move(boxes));
}

// Strategy width0_destination_edges: width 0 (offset 0), value * scale within 2 of the
// destination's range ends or of zero, in half steps (ties): exactly or a step either side.
// Targets beyond 2^23 (the ends of S32 and U32) cannot be resolved to a half step by these
// scales; for them a second part takes the values within 4 steps of the interval of the
// targets, for each power-of-two scale that keeps the value in range (FP32 2^-10..2^10, S32
// 2^0..2^4), and (FP32) a third part of products within one unit of them (InexactAtFarEdges).
std::vector<WeightedSet> Width0DestinationEdges(TypePair pair) {
  const Range d = AffineDestinationRange(pair.dst);
  const WordSet near_limit = SignedRange(-kTargetLimit + 1, kTargetLimit - 1);
  WordSet targets;
  std::vector<std::int64_t> far_edges;
  for (const std::int64_t edge : {d.lo, d.hi, std::int64_t{0}}) {
    const WordSet around = SignedRange(2 * edge - 4, 2 * edge + 4);
    targets = targets.Union(around.Intersect(near_limit));
    if (!around.Minus(near_limit).empty()) far_edges.push_back(edge);
  }
  NearTarget near;
  near.superset = PowerOfTwoScaleTuples(pair.src, 0, ScaleExponentAxis(pair.src));
  near.boxes.push_back(
      Box{{WordSet::Points({0}), targets, WordSet::Points({0}), WordSet::Points({0}),
           ScaleExponentAxis(pair.src), WordSet::Points({0}), SignedRange(-1, 2)}});
  near.p_min = -kTargetLimit;
  near.p_max = kTargetLimit;
  near.target = [](int, std::int64_t a, std::int64_t, std::int64_t) { return a; };
  near.axes_for = [](int, std::int64_t, std::int64_t p, auto& ab) { ab.emplace_back(p, 0); };
  std::vector<WeightedSet> parts = {{1, NearTargetSet(pair.src, std::move(near))}};
  if (far_edges.empty()) return parts;

  std::vector<Box> far;
  const bool fp32 = pair.src == TileDataType::FP32;
  for (int scale_exponent = fp32 ? -10 : 0; scale_exponent <= (fp32 ? 10 : 4); ++scale_exponent) {
    WordSet values;
    for (const std::int64_t edge : far_edges) {
      // value * 2^s within (edge - 2, edge + 2): value within (edge +/- 2) * 2^-s.
      const oracle::Real lo = oracle::Real(edge - 2) * oracle::PowerOfTwo(-scale_exponent);
      const oracle::Real hi = oracle::Real(edge + 2) * oracle::PowerOfTwo(-scale_exponent);
      if (fp32) {
        values = values.Union(Fp32OrdinalRange(Fp32Ordinal(Fp32Bracket(lo).first) - 4,
                                               Fp32Ordinal(Fp32Bracket(hi).second) + 4)
                                  .Intersect(Fp32FiniteWords()));
      } else {
        values = values.Union(S32Range(static_cast<std::int64_t>(oracle::RoundDown(lo)) - 4,
                                       static_cast<std::int64_t>(oracle::RoundUp(hi)) + 4));
      }
    }
    far.push_back(Box{{values, WordSet::Points({Fp19PowerOfTwo(scale_exponent)}),
                       WordSet::Points({0}), WordSet::Points({0})}});
  }
  parts.push_back({1, Boxes(std::move(far))});
  if (fp32) parts.push_back({1, InexactAtFarEdges(far_edges)});
  return parts;
}

// Strategy tie_odd_scale: scale = m_odd * 2^k (m_odd odd, 3..2047) and value = q * 2^a (q odd,
// |q| < 2^11) with a + k = -1 (IntegerTieExponent), so value * scale = q * m_odd / 2 is a tie that
// a power-of-two scale cannot give; the value then moved by -1, 0 or +1 steps. Axes
// [width, r, offset, u, a, 0, k] with m_odd = 2r + 1, q = 2u + 1 (k follows from a).
TupleSet TieOddScale(TypePair pair, int width) {
  const TileDataType src = pair.src;
  const bool fp32 = src == TileDataType::FP32;
  std::vector<Box> boxes;
  {  // one width
    boxes.push_back(Box{{WordSet::Points({Word(width)}), WordSet::Range(1, 1023), OffsetAxis(width),
                         SignedRange(-1024, 1023), fp32 ? SignedRange(-20, 10) : SignedRange(0, 19),
                         WordSet::Points({0}), SignedRange(-1, 1)}});
  }
  const auto assemble = [src](const Point& x) {
    const std::uint64_t m_odd = 2 * x[1] + 1;
    const std::int64_t q = 2 * SignedAxisValue(x[3]) + 1;
    const int a = static_cast<int>(SignedAxisValue(x[4]));
    const Word scale = Fp19Word(m_odd, IntegerTieExponent(a)).value();
    const Word value = ScaledSourceWord(src, q < 0, Magnitude(q), a).value();
    return Inputs{SourceStep(src, value, static_cast<int>(SignedAxisValue(x[6]))), scale,
                  S32Word(SignedAxisValue(x[2])), x[0]};
  };
  const auto invert = [src](const Inputs& t, std::vector<Point>& out) {
    const OddScaled scale = Fp19OddScaled(t[kScaleSlot]);
    if (scale.odd < 3) return;
    for (int k = -1; k <= 1; ++k) {
      const std::optional<OddScaled> v = SourceOddScaled(src, SourceStep(src, t[kValueSlot], -k));
      if (!v || v->exponent != IntegerTieExponent(scale.exponent)) continue;
      const std::int64_t q =
          v->negative ? -static_cast<std::int64_t>(v->odd) : static_cast<std::int64_t>(v->odd);
      out.push_back(Point{t[kWidthSlot], Axis(static_cast<std::int64_t>(scale.odd - 1) / 2),
                          Axis(S32Of(t[kOffsetSlot])), Axis((q - 1) / 2), Axis(v->exponent), 0,
                          Axis(k)});
    }
  };
  return TupleSet::Mapped(Boxes(std::move(boxes)), assemble, invert,
                          Boxes::Product({SourceValues(src), AllNormalScales(), Offsets(width),
                                          WordSet::Points({Word(width)})}));
}

// Strategy random: a random finite value, a random positive normal scale, a random width and
// offset of that width.
TupleSet RandomTuple(TypePair pair, int width) {
  std::vector<Box> boxes;
  {  // one width
    boxes.push_back(Box{{SourceValues(pair.src), AllNormalScales(), Offsets(width),
                         WordSet::Points({Word(width)})}});
  }
  return Boxes(std::move(boxes));
}

// Strategy random_moderate: scales 2^-20 .. 2^4 (any fraction) and values whose product has a
// magnitude around 2^-2 .. 2^(w+1) (width 0: the destination's width), so rounding, clamping
// and encoding all take every path; any offset. One box per (width, scale exponent).
TupleSet RandomModerate(TypePair pair, int width) {
  std::vector<Box> boxes;
  {  // one width
    const int span = width != 0 ? width : static_cast<int>(Format(pair.dst).width);
    for (int scale_exponent = -20; scale_exponent <= 4; ++scale_exponent) {
      WordSet values;
      for (int product_exponent = -2; product_exponent <= span + 1; ++product_exponent) {
        const int value_exponent = product_exponent - scale_exponent;
        if (pair.src == TileDataType::FP32) {
          const auto field = static_cast<Word>(std::clamp(value_exponent + 127, 1, 254));
          values = values.Union(WordSet::Range(field << 23, (field << 23) | 0x7FFFFF));
        } else if (value_exponent <= 0) {
          values = values.Union(S32Range(0, 1));
        } else {
          const int bits = std::min(value_exponent, 31);
          values =
              values.Union(S32Range(std::int64_t{1} << (bits - 1), (std::int64_t{1} << bits) - 1));
        }
      }
      if (pair.src == TileDataType::FP32) {
        values = WithBothSigns(values);
      } else {
        // The negative magnitudes too.
        WordSet negatives;
        for (const auto& [lo, hi] : values.intervals()) {
          negatives = negatives.Union(S32Range(-S32Of(hi), -S32Of(lo)));
        }
        values = values.Union(negatives);
      }
      const auto field = static_cast<Word>(scale_exponent + 127);
      boxes.push_back(Box{{values, WordSet::Range(field << 10, (field << 10) | 0x3FF),
                           Offsets(width), WordSet::Points({Word(width)})}});
    }
  }
  return Boxes(std::move(boxes));
}

// Strategy value_specials: zeros, subnormals, the extremes of the source, +/-1; any scale, width
// and offset.
TupleSet ValueSpecials(TypePair pair, int width) {
  const WordSet values =
      pair.src == TileDataType::FP32
          ? WordSet::Points({0x00000000U, 0x80000000U, 0x00000001U, 0x80000001U, 0x007FFFFFU,
                             0x807FFFFFU, 0x00800000U, 0x80800000U, 0x7F7FFFFFU, 0xFF7FFFFFU,
                             0x3F800000U, 0xBF800000U})
          : WordSet::Points({0x00000000U, 0x00000001U, 0xFFFFFFFFU, 0x7FFFFFFFU, 0x80000000U,
                             0x80000001U, 0x7FFFFFFEU, 0x00000002U});
  std::vector<Box> boxes;
  {  // one width
    boxes.push_back(
        Box{{values, AllNormalScales(), Offsets(width), WordSet::Points({Word(width)})}});
  }
  return Boxes(std::move(boxes));
}

// A tuple belongs to the first strategy that holds it, so the narrow strategies come first (the
// edge targets before the ties anywhere, which hold many of them) and the broadest last:
// `random` holds the whole domain.
// One equal part per width (the widths hold very different numbers of tuples: width 17 has
// 2^17 offsets, width 0 one).
std::vector<WeightedSet> PerWidth(TypePair pair, TupleSet (*build)(TypePair, int),
                                  std::initializer_list<int> widths) {
  std::vector<WeightedSet> parts;
  for (const int width : widths) parts.push_back({1, build(pair, width)});
  return parts;
}

}  // namespace

std::vector<SampleStrategy> AffineStrategies(TypePair pair) {
  const auto kAll = {0, 5, 9, 17};
  const auto kClamping = {5, 9, 17};
  return {
      {"intermediate_clamp_edges", 4,
       [&] {
         std::vector<WeightedSet> parts = PerWidth(pair, IntermediateClampEdgesExact, kClamping);
         for (WeightedSet& p : PerWidth(pair, IntermediateClampEdges, kClamping))
           parts.push_back(p);
         return parts;
       }()},
      {"offset_over_destination", 4, PerWidth(pair, OffsetOverDestination, kClamping)},
      {"width0_destination_edges", 4, Width0DestinationEdges(pair)},
      {"tie_power_of_two_scale", 5, PerWidth(pair, TiePowerOfTwoScale, kAll)},
      {"tie_odd_scale", 3, PerWidth(pair, TieOddScale, kAll)},
      {"value_specials", 1, PerWidth(pair, ValueSpecials, kAll)},
      {"random_moderate", 4, PerWidth(pair, RandomModerate, kAll)},
      {"random", 2, PerWidth(pair, RandomTuple, kAll)},
  };
}

rc::Gen<Inputs> UniformAffine(TypePair pair) {
  const bool fp32 = pair.src == TileDataType::FP32;
  return rc::gen::apply(
      [fp32](std::uint64_t value, std::uint32_t exponent, std::uint32_t fraction,
             std::pair<std::uint32_t, std::uint32_t> ow) {
        Word v = value;
        if (fp32 && !Fp32IsFinite(static_cast<std::uint32_t>(v))) v &= 0xFF7FFFFFU;
        return Inputs{v, Word{exponent} << 10 | fraction, ow.first, ow.second};
      },
      rc::gen::inRange<std::uint64_t>(0, std::uint64_t{1} << 32),
      rc::gen::inRange<std::uint32_t>(1, 255), rc::gen::inRange<std::uint32_t>(0, 1024),
      UniformOffsetAndWidth());
}

}  // namespace ptovec::generator::affine
