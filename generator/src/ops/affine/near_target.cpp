// Op `affine`'s near-target sets (near_target.hpp): the value just below a target product, the
// inverse that finds the targets near a tuple, and the word sets the strategies share.
#include "near_target.hpp"

#include <algorithm>
#include <cstdint>
#include <memory>
#include <optional>
#include <utility>
#include <vector>

#include "../tie_products.hpp"
#include "affine.hpp"
#include "ptovec/generator/domains.hpp"
#include "ptovec/generator/ops.hpp"
#include "ptovec/generator/tuple_set.hpp"
#include "ptovec/generator/word_set.hpp"
#include "ptovec/oracle/dyadic.hpp"
#include "ptovec/oracle/fast.hpp"
#include "ptovec/oracle/matrix_quantization.hpp"
#include "ptovec/oracle/numeric.hpp"

namespace ptovec::generator::affine {

using oracle::Dyadic;
using oracle::kFp19MaxNormal;
using oracle::kFp19MinNormal;

namespace {

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

}  // namespace

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

}  // namespace ptovec::generator::affine
