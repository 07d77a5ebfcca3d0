// RapidCheck properties: FastConvert2026_09 equals the literal Convert2026_09 on FP32 and FP64
// source words (too many to enumerate), for every legal destination and every legal control per
// generated word; and the two refuse the same illegal pairs and modes with the same words.
// The words are aimed at the edges (see EdgeValue): every destination's largest finite, the
// midpoint above it and the next power of two (the overflow thresholds), its smallest normal and
// subnormal and half of those, ties and near-ties at its precision; integer boundaries 2^k,
// 2^k +/- 1 and 2^k +/- 1/2 (k up to 64); FP32/FP64 subnormals, +/-0, +/-Inf and NaN payloads;
// each word also moved by -2..2 units in the last place.
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <array>
#include <cstdint>
#include <string>
#include <variant>
#include <vector>

#include "ptovec/oracle/edition_2026_09.hpp"
#include "ptovec/oracle/fast_edition_2026_09.hpp"
#include "ptovec/oracle/formats.hpp"
#include "test_support.hpp"

namespace ptovec::oracle {
namespace fast_tcvt_2026_09_properties_test {
namespace {

using test_support::Hex;
using test_support::Show;
using T = TileDataType;

// A destination's grid: precision p (significand bits), smallest and largest normal exponents.
struct Grid {
  int precision;
  int minimum_exponent;
  int maximum_exponent;
};

// FP64 FP32 FP16 BF16 E4M3 (largest 1.75 * 2^8, taken as the 3-bit grid's) E6M2, E2M1 and E1M2
// lanes (E1M2 as a 3-bit grid from 1/4 to 1.75).
constexpr std::array<Grid, 8> kGrids = {{{53, -1022, 1023},
                                         {24, -126, 127},
                                         {11, -14, 15},
                                         {8, -126, 127},
                                         {4, -6, 8},
                                         {3, -48, 15},
                                         {2, 0, 2},
                                         {3, -2, 0}}};

struct Value {
  bool negative;
  std::uint64_t significand;  // 1 .. 2^63
  int exponent;
};

// A value at an edge of one grid or of the integers (significands of at most 60 bits).
Value EdgeValue() {
  const bool negative = *rc::gen::arbitrary<bool>();
  const Grid g = *rc::gen::elementOf(kGrids);
  const int p = g.precision > 52 ? 52 : g.precision;
  const std::uint64_t top = std::uint64_t{1} << p;
  switch (*rc::gen::inRange(0, 9)) {
    case 0:  // the largest finite
      return {negative, top - 1, g.maximum_exponent - p + 1};
    case 1:  // the midpoint above it
      return {negative, 2 * top - 1, g.maximum_exponent - p};
    case 2:  // the next power of two
      return {negative, 1, g.maximum_exponent + 1};
    case 3:  // the smallest normal, the smallest subnormal step, half of it
      return {negative, 1, g.minimum_exponent - *rc::gen::inRange(0, p + 1)};
    case 4: {  // a tie at the grid's precision, at any exponent of its range
      const std::uint64_t r = *rc::gen::inRange<std::uint64_t>(top / 2, top);
      const int e = *rc::gen::inRange(g.minimum_exponent - p, g.maximum_exponent + 1);
      return {negative, 2 * r + 1, e - p};
    }
    case 5: {  // 2^k, 2^k +/- 1, 2^k +/- 1/2
      const int k = *rc::gen::inRange(0, 65);
      const auto offset = *rc::gen::element<std::int64_t>(0, 1, -1, 2, -2);
      if (k >= 62) return {negative, 1, k};
      return {negative, (std::uint64_t{1} << (k + 1)) + static_cast<std::uint64_t>(offset), -1};
    }
    default: {  // a random significand at a random exponent of the grid's range
      const auto s = *rc::gen::inRange<std::uint64_t>(1, std::uint64_t{1} << 60);
      return {negative, s, *rc::gen::inRange(g.minimum_exponent - 60, g.maximum_exponent + 1)};
    }
  }
}

// The word of a binary format (f fraction bits, bias b, w bits) nearest below |value| (the
// significand truncated), Inf above the range, a subnormal or 0 below it; a zero value (EdgeValue's
// 2^k - 1 at k = 0 is one) gives the signed zero.
Word BinaryWord(const Value& v, int f, int bias, int width) {
  const Word sign = v.negative ? Word{1} << (width - 1) : 0;
  if (v.significand == 0) return sign;  // (clz of 0 is undefined)
  int bits = 64 - __builtin_clzll(v.significand);
  int e = v.exponent + bits - 1;
  const Word exponent_ones = (Word{1} << (width - 1 - f)) - 1;
  if (e > bias) return sign | (exponent_ones << f);
  const int lsb = e < 1 - bias ? 1 - bias - f : e - f;  // the exponent of the last place
  const int shift = lsb - v.exponent;
  Word m = shift >= 64 ? 0 : shift >= 0 ? v.significand >> shift : v.significand << -shift;
  if (e < 1 - bias) return sign | m;
  return sign | (static_cast<Word>(e + bias) << f) | (m - (Word{1} << f));
}

// A source word of FP32 (width 32) or FP64 (width 64) aimed at an edge.
Word SourceWord(int width) {
  const int f = width == 32 ? 23 : 52;
  const int bias = width == 32 ? 127 : 1023;
  const Word mask = width == 64 ? ~Word{0} : (Word{1} << width) - 1;
  const Word sign = Word{1} << (width - 1);
  const Word infinity = ((Word{1} << (width - 1 - f)) - 1) << f;
  Word word = 0;
  switch (*rc::gen::inRange(0, 8)) {
    case 0:  // any word
      word = *rc::gen::arbitrary<Word>() & mask;
      break;
    case 1:  // a subnormal
      word = *rc::gen::inRange<Word>(0, Word{1} << f);
      break;
    case 2:  // +/-0, +/-Inf or a NaN with any payload
      word =
          *rc::gen::element<Word>(0, infinity, infinity | *rc::gen::inRange<Word>(1, Word{1} << f));
      break;
    default:
      word = BinaryWord(EdgeValue(), f, bias, width);
  }
  if (*rc::gen::arbitrary<bool>()) word |= sign;
  return (word + static_cast<Word>(*rc::gen::inRange(-2, 3))) & mask;
}

// The tile data types of the edition but FP19, and the legal controls of a pair.
std::vector<T> TileTypes() {
  std::vector<T> types;
  for (const FormatInfo& f : AllFormats2026_09()) {
    if (f.type != T::FP19) types.push_back(f.type);
  }
  return types;
}

// Every legal destination and control of `src` on `word`: fast == literal.
void CheckWord(T src, Word word) {
  for (const T dst : TileTypes()) {
    if (!edition_2026_09::HardwareTCVTTypePairSupported(src, dst)) continue;
    for (const NumericRoundingMode mode : kAllRoundingModes) {
      if (!edition_2026_09::HardwareTCVTRoundingModeSupported(src, dst, mode)) continue;
      for (const bool sat : {false, true}) {
        const NumericExecutionControl c{mode, sat};
        const Conversion2026_09 fast = FastConvert2026_09(src, dst, word, c);
        const Conversion2026_09 literal = Convert2026_09(src, dst, word, c);
        RC_ASSERT(std::holds_alternative<Encoded>(literal));
        RC_ASSERT(std::holds_alternative<Encoded>(fast));
        if (std::get<Encoded>(fast) != std::get<Encoded>(literal)) {
          RC_FAIL(std::string(Format(src).name) + " " + Hex(word) + " -> " +
                  std::string(Format(dst).name) + " " + std::string(RoundingModeName(mode)) +
                  (sat ? " sat" : "") + ": fast " + Show(std::get<Encoded>(fast)) + " literal " +
                  Show(std::get<Encoded>(literal)));
        }
      }
    }
  }
}

// An S32/U32/S64/U64 word: 2^k + d or -(2^k + d) for a small d (the carries of every narrower
// destination's rounding), a random significand shifted to any position, or any word.
Word IntegerWord(int width) {
  const Word mask = width == 64 ? ~Word{0} : (Word{1} << width) - 1;
  Word word = 0;
  switch (*rc::gen::inRange(0, 3)) {
    case 0: {
      const int k = *rc::gen::inRange(0, width);
      word = (Word{1} << k) + static_cast<Word>(*rc::gen::inRange(-3, 4));
      break;
    }
    case 1:
      word = *rc::gen::inRange<Word>(1, Word{1} << 24) << *rc::gen::inRange(0, width - 1);
      break;
    default:
      word = *rc::gen::arbitrary<Word>();
  }
  if (*rc::gen::arbitrary<bool>()) word = Word{0} - word;
  return word & mask;
}

// Each case checks kWordsPerCase words (RapidCheck's 100 cases: 2,000 words per source type).
constexpr int kWordsPerCase = 20;

RC_GTEST_PROP(FastTcvt2026_09Properties, FP32WordsAtTheEdgesEveryDestination, ()) {
  for (int i = 0; i < kWordsPerCase; ++i) CheckWord(T::FP32, SourceWord(32));
}

RC_GTEST_PROP(FastTcvt2026_09Properties, FP64WordsAtTheEdgesEveryDestination, ()) {
  for (int i = 0; i < kWordsPerCase; ++i) CheckWord(T::FP64, SourceWord(64));
}

RC_GTEST_PROP(FastTcvt2026_09Properties, WideIntegerWordsEveryDestination, ()) {
  for (int i = 0; i < kWordsPerCase; ++i) {
    const T src = *rc::gen::element(T::S32, T::U32, T::S64, T::U64);
    CheckWord(src, IntegerWord(Format(src).width));
  }
}

// Every ordered pair of the format table's types (FP19 included) and HiF4X2 (no row), every mode
// and Sat: the same refusal (rule and message) or the same conversion of a few words.
TEST(FastTcvt2026_09Properties, SameRefusalsAndAnswersForEveryPairAndMode) {
  std::vector<T> types;
  for (const FormatInfo& f : AllFormats2026_09()) types.push_back(f.type);
  types.push_back(T::HiF4X2);
  int refusals = 0;
  for (const T src : types) {
    for (const T dst : types) {
      for (const NumericRoundingMode mode : kAllRoundingModes) {
        for (const bool sat : {false, true}) {
          for (const Word word : {Word{0}, Word{1}, Word{0x3c00}, Word{0x3f800000}}) {
            const NumericExecutionControl c{mode, sat};
            const Conversion2026_09 fast = FastConvert2026_09(src, dst, word, c);
            EXPECT_EQ(fast, Convert2026_09(src, dst, word, c))
                << Format(src).name << " -> " << Format(dst).name << " " << Hex(word);
            refusals += std::holds_alternative<Refusal2026_09>(fast) ? 1 : 0;
          }
        }
      }
    }
  }
  EXPECT_GT(refusals, 0);
}

}  // namespace
}  // namespace fast_tcvt_2026_09_properties_test
}  // namespace ptovec::oracle
