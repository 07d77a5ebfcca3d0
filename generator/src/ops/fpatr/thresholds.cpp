// Op `fpatr`'s strategy thresholds_after_scale (strategies.hpp): products value x multiplier at
// and next to a floating destination's overflow threshold and smallest normal, exactly at the
// tie between its largest subnormal and smallest normal, and in the binade below its smallest
// subnormal (the oracle's format edges, format_edges.hpp, which the outcome classes test against
// too).
#include <algorithm>
#include <array>
#include <bit>
#include <cstdint>
#include <optional>
#include <utility>
#include <vector>

#include "../tie_products.hpp"
#include "modes.hpp"
#include "ptovec/generator/domains.hpp"
#include "ptovec/generator/ops.hpp"
#include "ptovec/generator/tuple_set.hpp"
#include "ptovec/oracle/dyadic.hpp"
#include "ptovec/oracle/exact_rational.hpp"
#include "ptovec/oracle/format_edges.hpp"
#include "ptovec/oracle/formats.hpp"
#include "ptovec/oracle/matrix_postprocess.hpp"
#include "ptovec/oracle/reference_quantization.hpp"
#include "strategies.hpp"

namespace ptovec::generator::fpatr {

namespace {

using oracle::BitLength;
using oracle::Format;

// Whether value x multiplier lands just below, at or just above the overflow threshold of a
// floating destination (largest finite L, T = L + half its ulp, L + its ulp), or just below its
// smallest normal N (within half a subnormal step q, or within q; exactly N - q/2, the
// subnormal/normal tie), on a subnormal, or in [s/2, s) below the smallest subnormal s, depends on
// the product's low bits: few products of a 24-bit (or S32) value and an 11-bit FP19 multiplier
// land there, and no draw finds them by chance (a review showed, for example, that every
// threshold class of FP32 -> FP32 was unreached). This strategy finds them by construction, as
// `affine`'s InexactAtFarEdges does for integer range ends: for each target t and multiplier
// S * 2^k (S odd: small ones, 11-bit ones spread evenly, and the odd divisors of the odd
// significands of T and of the tie, which give products exactly at them), the accumulator words
// next to t / (S * 2^k), kept when their product falls in one of the intervals (the first few
// per interval).

// The odd divisors of n (odd) that are at most 2047, increasing.
std::vector<std::uint64_t> OddDivisorsUpTo2047(std::uint64_t n) {
  std::vector<std::uint64_t> out;
  for (std::uint64_t d = 1; d <= 2047 && d <= n; d += 2) {
    if (n % d == 0) out.push_back(d);
  }
  return out;
}

using oracle::Real;

// The edges of a floating destination: the largest finite L, its overflow threshold T = L + half
// its ulp and L + its ulp, and the smallest positive normal N with the step q from the value
// just below it (by value: HiF8's codes are not in value order; FP32: 2^-126 - 2^-149), from the
// oracle's format edges; the implementation edges below the normal range: the tie between the
// largest subnormal and N (N - q/2, exactly), and the smallest subnormal s.
struct DstEdges {
  Real largest, threshold, beyond, ulp, normal, step, tie, smallest;
};

// The largest positive value of `dst` below its smallest normal `normal`.
Real ValueBelowNormal(TileDataType dst, const Real& normal) {
  if (dst == TileDataType::FP32) {
    return normal - oracle::ToReal(oracle::SmallestPositiveValue(dst));
  }
  Real below_normal = 0;
  for (Word w = 1; w < (Word{1} << Format(dst).width); ++w) {
    const oracle::NumericValueClass c = oracle::TileNumericValueClass(dst, w);
    if (c != oracle::NumericValueClass::PositiveNormal &&
        c != oracle::NumericValueClass::PositiveSubnormal)
      continue;
    const Real v = oracle::ToReal(oracle::DyadicFromFiniteCode(dst, w));
    if (v < normal && v > below_normal) below_normal = v;
  }
  return below_normal;
}

DstEdges EdgesOf(TileDataType dst) {
  DstEdges e;
  e.largest = oracle::ToReal(oracle::LargestFiniteValue(dst));
  e.threshold = oracle::ToReal(oracle::OverflowThreshold(dst));
  e.beyond = oracle::ToReal(oracle::LargestFinitePlusUlp(dst));
  e.ulp = e.beyond - e.largest;
  e.normal = oracle::ToReal(oracle::SmallestNormalValue(dst));
  e.step = e.normal - ValueBelowNormal(dst, e.normal);
  e.tie = oracle::ToReal(oracle::SubnormalNormalTie(dst));
  e.smallest = oracle::ToReal(oracle::SmallestPositiveValue(dst));
  return e;
}

// Intervals: (L, T), T, (T, L + ulp), (N - q/2, N), (N - q, N - q/2], a subnormal k * q', the
// tie N - q/2, [s/2, s).
constexpr std::size_t kIntervals = 8;
std::optional<std::size_t> IntervalOf(const DstEdges& e, const Real& x) {
  if (x > e.largest && x < e.threshold) return 0;
  if (x == e.threshold) return 1;
  if (x > e.threshold && x < e.beyond) return 2;
  if (x == e.tie) return 6;
  if (x >= e.smallest / 2 && x < e.smallest) return 7;
  if (x < e.normal && x > e.normal - e.step / 2) return 3;
  if (x <= e.normal - e.step / 2 && x > e.normal - e.step) return 4;
  if (x > 0 && x < e.normal - e.step && denominator(Real(x / e.step)) == 1) return 5;
  return std::nullopt;
}

// The odd part of an exact target's significand, whose odd divisors give products exactly at
// it (T and the tie).
std::uint64_t OddPart(const Real& target) {
  const oracle::Dyadic d = *oracle::DyadicFromReal(target);
  return static_cast<std::uint64_t>(d.significand >>
                                    std::countr_zero(static_cast<std::uint64_t>(d.significand)));
}

// The odd significands S of the multipliers: small ones, the odd divisors of T's and the tie's,
// and 11-bit ones spread evenly; increasing, each once.
std::vector<std::uint64_t> MultiplierSignificands(const DstEdges& e) {
  std::vector<std::uint64_t> significands = {1, 3, 5, 7, 9, 13, 31, 0x401, 0x555, 0x7FF};
  for (const Real& exact : {e.threshold, e.tie}) {
    for (const std::uint64_t d : OddDivisorsUpTo2047(OddPart(exact))) significands.push_back(d);
  }
  for (const std::uint64_t d : OddSpread(1025, 2047, 24)) significands.push_back(d);
  std::sort(significands.begin(), significands.end());
  significands.erase(std::unique(significands.begin(), significands.end()), significands.end());
  return significands;
}

// The positive accumulator words next to `centre` (FP32 words when fp32, of binade about 2^e_v;
// else S32 values).
std::vector<Word> WordsNear(const Real& centre, bool fp32, int e_v) {
  std::vector<Word> values;
  if (fp32) {
    // centre is not dyadic for S > 1: bracket its truncation to 2^(e_v - 40), which is finer
    // than an FP32 ulp there, so the word at or below is the same or one below.
    const Real truncated = Real(oracle::RoundDown(centre * oracle::PowerOfTwo(40 - e_v))) *
                           oracle::PowerOfTwo(e_v - 40);
    const std::uint32_t c = Fp32Bracket(truncated).first;
    for (int d = -2; d <= 2; ++d) {
      const std::uint32_t v = Fp32Step(c, d);
      if (Fp32IsFinite(v) && (v & 0x80000000) == 0 && (v & 0x7FFFFFFF) != 0) values.push_back(v);
    }
  } else {
    const auto c = static_cast<std::int64_t>(oracle::RoundDown(centre));
    for (std::int64_t v = c - 2; v <= c + 2; ++v) {
      if (v >= 1 && v <= INT32_MAX) values.push_back(static_cast<Word>(v));
    }
  }
  return values;
}

// (multiplier FP19 word, accumulator word) pairs whose product lands in each threshold interval
// of the pair's floating destination (positive values; the strategy adds the sign).
std::vector<std::pair<Word, Word>> ThresholdProducts(TypePair pair) {
  const DstEdges e = EdgesOf(pair.dst);
  const std::vector<std::uint64_t> significands = MultiplierSignificands(e);
  const bool fp32 = pair.src == TileDataType::FP32;
  const std::vector<int> value_exponents =
      fp32 ? std::vector<int>{-24, 0, 24} : std::vector<int>{10, 25};
  constexpr int kFound = 3;
  std::array<int, kIntervals> found{};
  std::vector<std::pair<Word, Word>> out;
  for (const Real& t :
       {e.largest + e.ulp / 4, e.threshold, e.threshold + e.ulp / 4, e.normal - e.step / 4,
        e.normal - e.step * 3 / 4, e.normal / 2, e.tie, e.smallest * 3 / 4}) {
    const int e_t = oracle::DyadicLeadingExponent(*oracle::DyadicFromReal(t));
    for (const std::uint64_t s : significands) {
      for (const int e_v : value_exponents) {
        const int k = e_t - e_v - (BitLength(s) - 1);
        const std::optional<Word> fp19 = Fp19Word(s, k);
        if (!fp19) continue;
        const Real multiplier = Real(static_cast<std::int64_t>(s)) * oracle::PowerOfTwo(k);
        for (const Word v : WordsNear(t / multiplier, fp32, e_v)) {
          const Real x =
              (fp32 ? oracle::ReferenceFP32FiniteValue(v) : Real(static_cast<std::int64_t>(v))) *
              multiplier;
          const std::optional<std::size_t> at = IntervalOf(e, x);
          if (!at || found[*at] >= kFound) continue;
          const std::pair<Word, Word> candidate{*fp19, v};
          if (std::find(out.begin(), out.end(), candidate) != out.end()) continue;
          ++found[*at];
          out.push_back(candidate);
        }
      }
    }
  }
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace

// One part per mode whose last step encodes into the floating destination: boxes of (the
// threshold values of one multiplier, both signs, ReluMode 0, that multiplier as the quant
// scale) for modes with a scale, and (the values negated, ReluMode 2-3, the multiplier as the
// ReLU parameter) for every mode.
std::vector<WeightedSet> ThresholdsAfterScale(TypePair pair) {
  std::vector<WeightedSet> parts;
  if (!Format(pair.dst).IsFloating()) return parts;
  std::vector<unsigned> modes;
  for (const unsigned m : ModesOf(pair)) {
    if (LastStepOf(m, pair.dst) == LastStep::FloatingEncode) modes.push_back(m);
  }
  if (modes.empty()) return parts;
  const std::vector<std::pair<Word, Word>> products = ThresholdProducts(pair);
  const Word sign = pair.src == TileDataType::FP32 ? Word{0x80000000} : 0;
  const auto negate = [&](Word v) {
    return sign != 0 ? v | sign
                     : oracle::LowBits(static_cast<Word>(-static_cast<std::int64_t>(v)), 32);
  };
  for (const unsigned m : modes) {
    std::vector<Box> boxes;
    const bool scaled = oracle::BundleFPATRModeUsesScalarParameter(m) ||
                        oracle::BundleFPATRModeUsesVectorParameter(m);
    for (std::size_t i = 0; i < products.size();) {
      const Word fp19 = products[i].first;
      std::vector<Word> both;
      std::vector<Word> negative;
      for (; i < products.size() && products[i].first == fp19; ++i) {
        both.push_back(products[i].second);
        both.push_back(negate(products[i].second));
        negative.push_back(negate(products[i].second));
      }
      std::sort(both.begin(), both.end());
      std::sort(negative.begin(), negative.end());
      if (scaled) {
        boxes.push_back(
            Box{{WordSet::Points(both), WordSet::Points({Word(m)}), WordSet::Points({0}),
                 WordSet::Points({QuantWord(m, fp19, 0, 0)}), WordSet::Points({0})}});
      }
      boxes.push_back(
          Box{{WordSet::Points(negative), WordSet::Points({Word(m)}), WordSet::Range(2, 3),
               WordSet::Points({scaled ? QuantWord(m, kFp19One, 0, 0) : Word{0}}),
               WordSet::Points({fp19})}});
    }
    if (!boxes.empty()) parts.push_back({1, Boxes(std::move(boxes))});
  }
  return parts;
}

}  // namespace ptovec::generator::fpatr
