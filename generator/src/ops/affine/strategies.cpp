// Op `affine`'s sampling strategies (MatrixQuantizedAffine, affine.cpp): near-target sets
// (near_target.hpp) that aim value * scale at the clamp edges of the S5/S9/S17 intermediate, at
// the destination's range ends through the offset, at width 0's destination edges, at an
// unsigned destination's wraps to 0 and to its maximum (-2^w, -1) and at ties (power-of-two and
// odd scales, built with tie_products.hpp), then value specials and random tuples; and the
// uniform generator.
#include <algorithm>
#include <array>
#include <bit>
#include <cstdint>
#include <functional>
#include <initializer_list>
#include <optional>
#include <utility>
#include <vector>

#include "../tie_products.hpp"
#include "affine.hpp"
#include "near_target.hpp"
#include "ptovec/generator/domains.hpp"
#include "ptovec/generator/ops.hpp"
#include "ptovec/generator/sampler.hpp"
#include "ptovec/generator/tuple_set.hpp"
#include "ptovec/generator/word_set.hpp"
#include "ptovec/oracle/dyadic.hpp"
#include "ptovec/oracle/exact_rational.hpp"
#include "ptovec/oracle/formats.hpp"
#include "ptovec/oracle/matrix_quantization.hpp"
#include "ptovec/oracle/numeric.hpp"

namespace ptovec::generator::affine {

namespace {

using oracle::Format;

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

// Strategy offset_over_destination: intermediate + offset near the destination's range ends
// (OffsetSums; unsigned_wrap_edges: near -2^w), every offset that reaches there from a legal
// intermediate, the product on the intermediate or a half step either side. Axes a = the sum,
// b = the half step (-1, 0, +1): p = 2 * (sum - offset) + b.
TupleSet OffsetOverSums(TypePair pair, int width, const std::vector<std::int64_t>& sums) {
  NearTarget near;
  near.superset = PowerOfTwoScaleTuples(pair.src, width, ScaleExponentAxis(pair.src));
  near.p_min = INT64_MAX;
  near.p_max = INT64_MIN;
  {  // one clamping width
    const std::int64_t wlo = WidthMin(width);
    const std::int64_t whi = WidthMax(width);
    for (const std::int64_t sum : sums) {
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
TupleSet OffsetOverDestination(TypePair pair, int width) {
  return OffsetOverSums(pair, width, OffsetSums(width, AffineDestinationRange(pair.dst)));
}

// Source values and scales (1 + f/1024) * 2^e (f = 0..1023) whose product lies within one unit
// of a far range end E (2^31 - 1, -2^31, 2^32 - 1, or -2^32 of unsigned_wrap_edges) without
// being an integer, below E and above it, so each rounding mode has a product that rounds to E
// itself, from either side (a product of an FP32 and an FP19 value is never 2^31 - 1, a prime;
// its significand has at most 35 bits, so near 2^31 it lies on a grid of 1/8 and only a few such
// products exist). e is 0, or 1 for an S32 source and an edge beyond S32 (its value E / scale
// must be an S32). The first kFound of each side per edge, as points (one box per scale).
Boxes InexactAtFarEdges(TileDataType src, const std::vector<std::int64_t>& edges) {
  constexpr int kFound = 3;
  const bool fp32 = src == TileDataType::FP32;
  std::vector<std::pair<Word, Word>> found;  // (scale, value)
  for (const std::int64_t edge : edges) {
    const oracle::Real e(edge);
    const int e2 = !fp32 && (edge > INT32_MAX || edge < INT32_MIN) ? 1 : 0;
    int below = 0;
    int above = 0;
    for (std::int64_t f = 0; f < 1024 && (below < kFound || above < kFound); ++f) {
      // (1 + f/1024) * 2^e2
      const Word scale = Fp19Word(static_cast<std::uint64_t>(1024 + f), e2 - 10).value();
      const oracle::Real scale_value = oracle::Real(1024 + f) * oracle::PowerOfTwo(e2 - 10);
      // The source word at or below the integer part of E / scale (E * 1024 / (1024 + f) / 2^e2).
      const std::int64_t quotient = edge * 1024 / ((1024 + f) << e2);
      const Word centre =
          fp32 ? Word{Fp32Bracket(oracle::Real(quotient)).first} : S32Word(quotient);
      for (int k = -2; k <= 2; ++k) {
        const Word v = SourceStep(src, centre, k);
        const oracle::Real product = ValueReal(src, v) * scale_value;
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
  found.erase(std::unique(found.begin(), found.end()), found.end());
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
// destination's range ends or of zero (unsigned_wrap_edges: of -2^w), in half steps (ties):
// exactly or a step either side. Targets beyond 2^23 (the ends of S32 and U32, -2^32) cannot be
// resolved to a half step by these scales; for them a second part takes the values within 4
// steps of the interval of the targets, for each power-of-two scale that keeps the value in
// range (FP32 2^-10..2^10, S32 2^0..2^4), and a third part of products within one unit of them
// (InexactAtFarEdges).
std::vector<WeightedSet> Width0Edges(TypePair pair, const std::vector<std::int64_t>& edges) {
  const WordSet near_limit = SignedRange(-kTargetLimit + 1, kTargetLimit - 1);
  WordSet targets;
  std::vector<std::int64_t> far_edges;
  for (const std::int64_t edge : edges) {
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
  std::vector<WeightedSet> parts;
  if (!targets.empty()) parts.push_back({1, NearTargetSet(pair.src, std::move(near))});
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
  parts.push_back({1, InexactAtFarEdges(pair.src, far_edges)});
  return parts;
}

std::vector<WeightedSet> Width0DestinationEdges(TypePair pair) {
  const Range d = AffineDestinationRange(pair.dst);
  return Width0Edges(pair, {d.lo, d.hi, 0});
}

// Strategy unsigned_wrap_edges (an unsigned destination of w bits): value * scale, or the
// intermediate + offset, around -2^w, which wraps to 0 with OF|NX (a device gave 0 with NX
// only for an FP32 -> U16 value rounding to -65536); at width 0 as width0_destination_edges
// aims at the range ends, at width 5/9/17 as offset_over_destination, every width whose sums
// reach it (U4X2 -16: all; U8 -256: 9, 17; U16 -65536: 17; U32 -2^32: width 0 only). The
// values around -1 are offset_over_destination's and width0_destination_edges' already.
std::vector<WeightedSet> UnsignedWrapEdges(TypePair pair) {
  const std::int64_t wrap = -(std::int64_t{1} << Format(pair.dst).width);
  std::vector<WeightedSet> parts = Width0Edges(pair, {wrap});
  for (const int width : {5, 9, 17}) {
    std::vector<std::int64_t> sums;
    for (std::int64_t k = -2; k <= 2; ++k) {
      if (wrap + k >= 2 * WidthMin(width) && wrap + k <= 2 * WidthMax(width)) {
        sums.push_back(wrap + k);
      }
    }
    if (!sums.empty()) parts.push_back({1, OffsetOverSums(pair, width, sums)});
  }
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
  std::vector<SampleStrategy> s = {
      {"intermediate_clamp_edges", 4,
       [&] {
         std::vector<WeightedSet> parts = PerWidth(pair, IntermediateClampEdgesExact, kClamping);
         for (WeightedSet& p : PerWidth(pair, IntermediateClampEdges, kClamping))
           parts.push_back(p);
         return parts;
       }()},
      {"offset_over_destination", 4, PerWidth(pair, OffsetOverDestination, kClamping)},
      {"width0_destination_edges", 4, Width0DestinationEdges(pair)},
  };
  if (Format(pair.dst).kind == oracle::FormatKind::UnsignedInteger) {
    s.push_back({"unsigned_wrap_edges", 2, UnsignedWrapEdges(pair)});
  }
  s.push_back({"tie_power_of_two_scale", 5, PerWidth(pair, TiePowerOfTwoScale, kAll)});
  s.push_back({"tie_odd_scale", 3, PerWidth(pair, TieOddScale, kAll)});
  s.push_back({"value_specials", 1, PerWidth(pair, ValueSpecials, kAll)});
  s.push_back({"random_moderate", 4, PerWidth(pair, RandomModerate, kAll)});
  s.push_back({"random", 2, PerWidth(pair, RandomTuple, kAll)});
  return s;
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
