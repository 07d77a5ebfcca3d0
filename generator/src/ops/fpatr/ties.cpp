// Op `fpatr`'s strategy ties_after_scale (strategies.hpp): exact rounding ties of value x
// multiplier.
//
// MatrixPostQuantBaseWithFlags multiplies the accumulator by one FP19 value (the quant scale, or
// the ReLU parameter for a negative value under LReLU/PReLU) and rounds the exact product once,
// into the destination or (modes with an offset) the S5/S9/S17 intermediate. A rounding mode's
// tie rule shows only when that product is exactly half-way between two results, which a
// uniform draw almost never gives (an odd 24-bit significand times an odd FP19 significand).
// This strategy builds such products: with a multiplier S * 2^k (S odd, at most 11 bits) and a
// value r * 2^m (r odd), the product P * 2^(m+k), P = r * S odd, is a tie of a floating
// destination of precision p when P has exactly p + 1 bits (and lands in the normal range), and
// a tie of an integer result when m + k = -1.

#include <algorithm>
#include <array>
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
#include "ptovec/oracle/formats.hpp"
#include "ptovec/oracle/matrix_postprocess.hpp"
#include "strategies.hpp"

namespace ptovec::generator::fpatr {

using oracle::BitLength;
using oracle::Format;

// Up to n odd integers spread evenly over lo..hi (both ends when odd), increasing.
std::vector<std::uint64_t> OddSpread(std::uint64_t lo, std::uint64_t hi, std::uint64_t n) {
  lo |= 1;
  if (hi % 2 == 0) {
    if (hi == 0) return {};
    --hi;
  }
  if (lo > hi) return {};
  const std::uint64_t count = (hi - lo) / 2 + 1;
  std::vector<std::uint64_t> out;
  for (std::uint64_t i = 0; i < std::min(count, n); ++i)
    out.push_back(lo + 2 * (count <= n ? i : (count - 1) * i / (n - 1)));
  return out;
}

namespace {

// Up to n integers spread evenly over lo..hi (both ends), increasing.
std::vector<int> IntSpread(int lo, int hi, int n) {
  std::vector<int> out;
  if (lo > hi) return out;
  const int count = hi - lo + 1;
  for (int i = 0; i < std::min(count, n); ++i)
    out.push_back(lo + (count <= n ? i : (count - 1) * i / (n - 1)));
  return out;
}

// The exponents m for which `src` holds r * 2^m with r of `bits` bits (FP32: normals; S32:
// integers below 2^31), as (lowest, highest); empty when lowest > highest.
std::pair<int, int> ScaledExponents(TileDataType src, int bits) {
  if (src == TileDataType::FP32) return {-125 - bits, 128 - bits};
  return {0, 31 - bits};
}

// Where one mode's multiplied value is rounded: into an integer (an S5/S9/S17 intermediate or
// an integer destination: ties at odd halves below 2^(int_bits-1)) or into a floating
// destination (ties at precisions p over normal exponents emin..emax; HiF8's precision tapers
// from 4 to 1 bits with the exponent).
struct TieTarget {
  bool integer = false;
  int int_bits = 0;
  std::vector<int> precisions;
  int emin = 0;
  int emax = 0;
};

std::optional<TieTarget> TieTargetOf(unsigned mode, TypePair pair) {
  if (oracle::BundleFPATRModeIsShift(mode) || pair.src == TileDataType::U32) return std::nullopt;
  const int width = oracle::BundleFPATRModeOffsetWidth(mode);
  const oracle::FormatInfo& f = Format(pair.dst);
  if (width != 0) return TieTarget{true, width, {}, 0, 0};
  if (!f.IsFloating()) return TieTarget{true, static_cast<int>(f.width), {}, 0, 0};
  if (f.kind == oracle::FormatKind::HiF8) return TieTarget{false, 0, {1, 2, 3, 4}, -15, 15};
  return TieTarget{false,
                   0,
                   {static_cast<int>(f.fraction_bits) + 1},
                   1 - f.bias,
                   (1 << f.exponent_bits) - 1 - f.bias};
}

// The odd multiplier significands: 1 (a power of two), small odd ones, and 11-bit ones with
// alternating, all-ones and sparse bits.
constexpr std::array<std::uint64_t, 9> kTieSignificands = {1,     3,     5,     7,    11,
                                                           0x155, 0x555, 0x7FF, 0x401};

// The values r * 2^m whose product with S * 2^k ties (both signs when `both_signs`, else
// negative only).
std::vector<Word> TieValues(TileDataType src, const TieTarget& t, std::uint64_t s, int k,
                            bool both_signs) {
  std::vector<Word> out;
  const auto add = [&](std::uint64_t r, int m) {
    for (const bool negative : {true, false}) {
      if (!negative && !both_signs) continue;
      if (const std::optional<Word> w = ScaledSourceWord(src, negative, r, m)) out.push_back(*w);
    }
  };
  if (t.integer) {
    const int m = IntegerTieExponent(k);
    const int int_bits = std::min(t.int_bits, 32);
    for (const std::uint64_t r : OddSpread(1, ((std::uint64_t{1} << int_bits) - 1) / s, 16))
      add(r, m);
    return out;
  }
  for (const int p : t.precisions) {
    if (BitLength(s) > p + 1) continue;
    const std::uint64_t lo = ((std::uint64_t{1} << p) + s - 1) / s;
    const std::uint64_t hi = ((std::uint64_t{1} << (p + 1)) - 1) / s;
    for (const std::uint64_t r : OddSpread(lo, hi, 8)) {
      // P = r * S has its top bit at p: the product's exponent is p + m + k.
      const auto [lowest, highest] = ScaledExponents(src, BitLength(r));
      for (const int m :
           IntSpread(std::max(lowest, t.emin - p - k), std::min(highest, t.emax - p - k), 4))
        add(r, m);
    }
  }
  return out;
}

}  // namespace

// One part per mode of the pair whose multiplied value is rounded: boxes of (tie values, the
// mode, ReluMode 0-1, the multiplier as the quant scale with offsets 0 and 1) and (negative tie
// values, ReluMode 2-3, the multiplier as the ReLU parameter). Modes without a scale (0, 1, 16)
// get the ReLU parameter boxes only.
std::vector<WeightedSet> ScaledTies(TypePair pair) {
  std::vector<WeightedSet> parts;
  for (const unsigned m : ModesOf(pair)) {
    const std::optional<TieTarget> target = TieTargetOf(m, pair);
    if (!target) continue;
    std::vector<Box> boxes;
    for (const std::uint64_t s : kTieSignificands) {
      if (target->integer && BitLength(s) > target->int_bits) continue;
      std::vector<int> ks;
      if (target->integer) {
        for (const int vm : {-12, -4, -1, 0, 1, 4, 10}) ks.push_back(IntegerTieExponent(vm));
      } else {
        for (const int d : {-16, -8, -1, 0, 1, 8, 16}) ks.push_back(d - (BitLength(s) - 1));
      }
      for (const int k : ks) {
        const std::optional<Word> fp19 = Fp19Word(s, k);
        if (!fp19) continue;
        const std::vector<Word> both = TieValues(pair.src, *target, s, k, true);
        const std::vector<Word> negative = TieValues(pair.src, *target, s, k, false);
        const bool scaled = ReadsQuantParameter(m);
        const WordSet quant =
            scaled ? WordSet::Points({QuantWord(m, *fp19, 0, 0), QuantWord(m, *fp19, 1, 0)})
                   : WordSet::Points({0});
        if (scaled && !both.empty()) {
          boxes.push_back(Box{{WordSet::Points(both), WordSet::Points({Word(m)}),
                               WordSet::Range(0, 1), quant, WordSet::Points({0})}});
        }
        if (!negative.empty()) {
          boxes.push_back(Box{{WordSet::Points(negative), WordSet::Points({Word(m)}),
                               WordSet::Range(2, 3), quant, WordSet::Points({*fp19})}});
        }
      }
    }
    if (!boxes.empty()) parts.push_back({1, Boxes(std::move(boxes))});
  }
  return parts;
}

}  // namespace ptovec::generator::fpatr
