// The edge sets of the input domains (domains.hpp): FP32 specials, powers of two, sqrt(2)
// boundaries, E8M0's underflow edge and binade ends; FP32 ordinals and brackets; the anchors of
// a destination (every value and tie, the overflow threshold), its implementation edges (range
// ends and unsigned wraps, the subnormal/normal tie, the directed overflow edge, the binade below
// the smallest subnormal) and the FP32/S32 words around them; the B.FPATR offset and width check
// and sets. The format edges they aim at (smallest normal, overflow threshold, E8M0's range, the
// S5/S9/S17 ranges) are the oracle's (format_edges.hpp), which the outcome classes read too.
#include <algorithm>
#include <array>
#include <boost/multiprecision/cpp_int.hpp>
#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "ptovec/generator/domains.hpp"
#include "ptovec/generator/tuple_set.hpp"
#include "ptovec/generator/word_text.hpp"
#include "ptovec/generator/writers.hpp"
#include "ptovec/oracle/dyadic.hpp"
#include "ptovec/oracle/exact_rational.hpp"
#include "ptovec/oracle/fast.hpp"
#include "ptovec/oracle/fast_edition_2026_09.hpp"
#include "ptovec/oracle/format_edges.hpp"
#include "ptovec/oracle/numeric.hpp"
#include "ptovec/oracle/reference_quantization.hpp"

namespace ptovec::generator {

namespace {

// The words within `steps` of a non-negative FP32 magnitude pattern, clamped to 0 .. +Inf.
WordSet Around(std::uint32_t magnitude, int steps) {
  const std::int64_t m = magnitude;
  return WordSet::Range(static_cast<Word>(std::max<std::int64_t>(0, m - steps)),
                        static_cast<Word>(std::min<std::int64_t>(0x7F800000, m + steps)));
}

WordSet Signed(const WordSet& magnitudes, bool positive_only) {
  return positive_only ? magnitudes : WithBothSigns(magnitudes);
}

// The FP32 word of a positive value FP32 holds exactly (a format edge).
std::uint32_t Fp32WordOf(const oracle::Dyadic& d) {
  return static_cast<std::uint32_t>(
      oracle::FastFP32FiniteEncoding(d, NumericRoundingMode::RNE).word);
}

// E8M0's range ends 2^-127 and 2^127 and FP32's smallest normal 2^-126, as FP32 words.
std::uint32_t Fp32E8M0Smallest() {
  return Fp32WordOf(oracle::SmallestPositiveValue(TileDataType::E8M0));
}
std::uint32_t Fp32E8M0Largest() {
  return Fp32WordOf(oracle::LargestFiniteValue(TileDataType::E8M0));
}
std::uint32_t Fp32SmallestNormal() {
  return Fp32WordOf(oracle::SmallestNormalValue(TileDataType::FP32));
}

}  // namespace

std::uint64_t FloorSqrt2Scaled(int j) {
  if (j < 0 || j > 62) throw std::invalid_argument("FloorSqrt2Scaled: j outside 0..62");
  // Computed once (the tcvt outcome classes ask on every case).
  static const std::array<std::uint64_t, 63> table = [] {
    std::array<std::uint64_t, 63> t{};
    for (int i = 0; i <= 62; ++i) {
      const boost::multiprecision::cpp_int square = boost::multiprecision::cpp_int(1)
                                                    << (2 * i + 1);
      t[static_cast<std::size_t>(i)] =
          static_cast<std::uint64_t>(boost::multiprecision::sqrt(square));
    }
    return t;
  }();
  return table[static_cast<std::size_t>(j)];
}

WordSet Fp32Specials() {
  return WordSet::Points({
      0x00000000U,        0x80000000U,                                  // +0, -0
      0x7F800000U,        0xFF800000U,                                  // +Inf, -Inf
      0x7FC00000U,        0xFFC00000U,       0x7FFFFFFFU,               // quiet NaNs
      0x7F800001U,        0xFF800001U,       0x7FBFFFFFU,               // signaling NaNs
      0x00000001U,        0x80000001U,       0x007FFFFFU, 0x807FFFFFU,  // subnormal ends
      0x00800000U,        0x80800000U,       0x7F7FFFFFU, 0xFF7FFFFFU,  // normal ends
      0x3F800000U,        0xBF800000U,                                  // 1, -1
      Fp32E8M0Smallest(), Fp32E8M0Largest(),  // 2^-127, 2^127 (E8M0's range)
  });
}

WordSet Fp32PowerOfTwoNeighbours(bool positive_only) {
  // Exponent fields 1..254 with fraction 0, and the subnormal powers 2^-149..2^-127.
  std::vector<WordSet::Interval> words;
  const auto add = [&words](std::uint32_t power) {
    const WordSet near = Around(power, 4);
    words.insert(words.end(), near.intervals().begin(), near.intervals().end());
  };
  for (std::uint32_t e = 1; e < 255; ++e) add(e << 23);
  for (std::uint32_t bit = 0; bit < 23; ++bit) add(std::uint32_t{1} << bit);
  return Signed(WordSet::Of(std::move(words)), positive_only);
}

WordSet Fp32Sqrt2Boundaries(bool positive_only) {
  // k = -149..127; the FP32 value floor(sqrt(2) * 2^k) in FP32 resolution, then +/-4 ulps.
  std::vector<WordSet::Interval> words;
  const auto fraction = static_cast<std::uint32_t>(FloorSqrt2Scaled(23) - (std::uint64_t{1} << 23));
  for (int k = -149; k <= 127; ++k) {
    // Subnormal: sqrt(2) * 2^k = f * 2^-149 with f = sqrt(2) * 2^(k+149), k + 149 in 0..22.
    const std::uint32_t nearest = k >= -126 ? (static_cast<std::uint32_t>(k + 127) << 23) | fraction
                                            : static_cast<std::uint32_t>(FloorSqrt2Scaled(k + 149));
    const WordSet near = Around(nearest, 4);
    words.insert(words.end(), near.intervals().begin(), near.intervals().end());
  }
  return Signed(WordSet::Of(std::move(words)), positive_only);
}

WordSet Fp32SubnormalFloorEdge() {
  // Highest set bit 20..22 (floor exponent -129..-127), and around 2^-127 (0x00400000, E8M0's
  // smallest value), 2^-128 (0x00200000) and the smallest normal (0x00800000).
  return WordSet::Range(1U << 20, (1U << 23) - 1)
      .Union(Around(Fp32E8M0Smallest(), 8))
      .Union(Around(Fp32E8M0Smallest() / 2, 8))
      .Union(Around(Fp32SmallestNormal(), 8));
}

WordSet Fp32TopBinades() {
  const auto sqrt2_fraction =
      static_cast<std::uint32_t>(FloorSqrt2Scaled(23) - (std::uint64_t{1} << 23));
  WordSet out;
  for (std::uint32_t field : {253U, 254U}) {
    for (std::uint32_t anchor : {0U, 0x7FFFFFU, sqrt2_fraction}) {
      out = out.Union(Around((field << 23) | anchor, 4));
    }
  }
  return out;
}

WordSet Fp32BinadeEnds() {
  std::vector<Word> words;
  for (std::uint32_t e = 0; e < 255; ++e) {
    for (std::uint32_t fraction : {0U, 0x7FFFFFU}) words.push_back((e << 23) | fraction);
  }
  return WithBothSigns(WordSet::Points(words));
}

WordSet Fp32PositiveNormals() { return WordSet::Range(0x00800000U, 0x7F7FFFFFU); }

WordSet Fp32UniformBits() { return AllWords(32); }

std::int64_t Fp32Ordinal(std::uint32_t word) {
  if ((word & 0x80000000U) != 0) return -static_cast<std::int64_t>(word & 0x7FFFFFFFU) - 1;
  return static_cast<std::int64_t>(word);
}

std::uint32_t Fp32FromOrdinal(std::int64_t ordinal) {
  constexpr std::int64_t kInf = 0x7F800000;
  ordinal = std::clamp<std::int64_t>(ordinal, -kInf - 1, kInf);
  if (ordinal >= 0) return static_cast<std::uint32_t>(ordinal);
  return 0x80000000U | static_cast<std::uint32_t>(-(ordinal + 1));
}

std::uint32_t Fp32Step(std::uint32_t word, std::int64_t steps) {
  return Fp32FromOrdinal(Fp32Ordinal(word) + steps);
}

bool Fp32IsFinite(std::uint32_t word) { return (word & 0x7F800000U) != 0x7F800000U; }

namespace {

using oracle::Dyadic;
using U128 = oracle::DyadicSignificand;
__extension__ typedef __int128 I128;

// Non-negative dyadics a, b with leading exponents at most 60 apart (or a zero) as integers at
// one exponent: a = A * 2^e, b = B * 2^e.
struct Aligned {
  U128 a;
  U128 b;
  int e;
};
Aligned Align(const Dyadic& a, const Dyadic& b) {
  if (a.significand == 0) return {0, b.significand, b.exponent};
  if (b.significand == 0) return {a.significand, 0, a.exponent};
  const int e = std::min(a.exponent, b.exponent);
  return {a.significand << (a.exponent - e), b.significand << (b.exponent - e), e};
}

}  // namespace

std::pair<std::uint32_t, std::uint32_t> Fp32Bracket(const oracle::Dyadic& x) {
  // At and beyond 2^128 the seed's encoder gives Inf in every mode; the neighbours in value order
  // are the largest finite and Inf.
  if (x.significand != 0 && oracle::DyadicLeadingExponent(x) >= 128) {
    return x.negative ? std::pair<std::uint32_t, std::uint32_t>{0xFF800000U, 0xFF7FFFFFU}
                      : std::pair<std::uint32_t, std::uint32_t>{0x7F7FFFFFU, 0x7F800000U};
  }
  const auto lo =
      static_cast<std::uint32_t>(oracle::FastFP32FiniteEncoding(x, NumericRoundingMode::RTM).word);
  const auto hi =
      static_cast<std::uint32_t>(oracle::FastFP32FiniteEncoding(x, NumericRoundingMode::RTP).word);
  return {lo, hi};
}

std::pair<std::uint64_t, std::uint64_t> Fp64Bracket(const oracle::Dyadic& x) {
  // At and beyond 2^1024 (past the largest finite FP64 value) the neighbours are the largest
  // finite and Inf, as for Fp32Bracket at 2^128.
  if (x.significand != 0 && oracle::DyadicLeadingExponent(x) >= 1024) {
    return x.negative
               ? std::pair<std::uint64_t, std::uint64_t>{0xFFF0000000000000U, 0xFFEFFFFFFFFFFFFFU}
               : std::pair<std::uint64_t, std::uint64_t>{0x7FEFFFFFFFFFFFFFU, 0x7FF0000000000000U};
  }
  using oracle::edition_2026_09::FastReferenceFP64FiniteEncoding;
  return {
      static_cast<std::uint64_t>(FastReferenceFP64FiniteEncoding(x, NumericRoundingMode::RTM).word),
      static_cast<std::uint64_t>(
          FastReferenceFP64FiniteEncoding(x, NumericRoundingMode::RTP).word)};
}

std::pair<std::uint32_t, std::uint32_t> Fp32Bracket(const oracle::Real& x) {
  const auto d = oracle::DyadicFromReal(x);
  if (!d) {
    // Beyond 2^128 a dyadic may not fit a Dyadic's 128-bit significand: bracket by the limit.
    static const oracle::Real limit = oracle::PowerOfTwo(128);
    if (x >= limit) return {0x7F7FFFFFU, 0x7F800000U};
    if (x <= -limit) return {0xFF800000U, 0xFF7FFFFFU};
    throw std::invalid_argument("Fp32Bracket: the anchor is not a dyadic rational");
  }
  return Fp32Bracket(*d);
}

std::vector<oracle::Dyadic> DestinationAnchors(TileDataType dst) {
  const oracle::FormatInfo& f = oracle::Format(dst);
  std::vector<Dyadic> anchors;
  if (!f.IsFloating()) {
    const auto wide = [](const oracle::Integer& v) {  // |v| < 2^64
      return v < 0 ? -static_cast<I128>(static_cast<std::uint64_t>(-v))
                   : static_cast<I128>(static_cast<std::uint64_t>(v));
    };
    const I128 lo = wide(oracle::ReferenceIntegerValue(oracle::TileIntegerMinimum(dst), dst));
    const I128 hi = wide(oracle::ReferenceIntegerValue(oracle::TileIntegerMaximum(dst), dst));
    // Each edge + k and edge + k + 1/2 (= (2(edge + k) + 1) / 2), sorted and without repeats.
    std::vector<I128> halves;  // anchors in units of 1/2
    for (const I128 edge : {lo, hi, I128{0}}) {
      for (int k = -2; k <= 2; ++k) {
        halves.push_back(2 * (edge + k));
        halves.push_back(2 * (edge + k) + 1);
      }
    }
    std::sort(halves.begin(), halves.end());
    halves.erase(std::unique(halves.begin(), halves.end()), halves.end());
    for (const I128 h : halves) {
      anchors.push_back({h < 0, static_cast<U128>(h < 0 ? -h : h), -1});
    }
    return anchors;
  }
  if (f.width > 16) {
    throw std::invalid_argument(std::string(f.name) + " has no finite anchor table");
  }
  std::vector<Dyadic> values;
  for (Word code = 0; code < (Word{1} << f.width); ++code) {
    const auto d = oracle::TileNumericFiniteDecomposition(dst, code);
    if (d.available && !d.negative) values.push_back({false, d.significand, d.exponent});
  }
  // Codes of the usual formats come in increasing value already (no sort then).
  const auto below = [](const Dyadic& a, const Dyadic& b) {
    return oracle::DyadicCompareMagnitude(a, b) < 0;
  };
  if (!std::is_sorted(values.begin(), values.end(), below)) {
    std::stable_sort(values.begin(), values.end(), below);
  }
  values.erase(std::unique(values.begin(), values.end(),
                           [](const Dyadic& a, const Dyadic& b) {
                             return oracle::DyadicCompareMagnitude(a, b) == 0;
                           }),
               values.end());
  for (std::size_t i = 0; i < values.size(); ++i) {
    anchors.push_back(values[i]);
    if (i + 1 < values.size()) {  // the midpoint (a + b) / 2
      const Aligned x = Align(values[i], values[i + 1]);
      anchors.push_back({false, x.a + x.b, x.e - 1});
    }
  }
  // Overflow: the largest finite plus half its ulp (the nearest-mode threshold) and one ulp.
  anchors.push_back(oracle::OverflowThreshold(dst));
  anchors.push_back(oracle::LargestFinitePlusUlp(dst));
  return anchors;
}

namespace {

// A half-integer h / 2 (h in units of 1/2) as a Dyadic.
Dyadic Halves(I128 h) { return {h < 0, static_cast<U128>(h < 0 ? -h : h), -1}; }

const oracle::FormatInfo& IntegerDestination(TileDataType dst) {
  const oracle::FormatInfo& f = oracle::Format(dst);
  if (f.IsFloating()) {
    throw std::invalid_argument(std::string(f.name) + " is not an integer destination");
  }
  return f;
}

}  // namespace

std::vector<oracle::Dyadic> IntegerRangeEndAnchors(TileDataType dst) {
  const oracle::FormatInfo& f = IntegerDestination(dst);
  const bool is_signed = f.kind == oracle::FormatKind::SignedInteger;
  const I128 lo = is_signed ? -(I128{1} << (f.width - 1)) : I128{0};
  const I128 hi = is_signed ? (I128{1} << (f.width - 1)) - 1 : (I128{1} << f.width) - 1;
  std::vector<Dyadic> anchors;
  for (const I128 end : {lo, hi}) {
    for (const I128 h : {2 * end - 1, 2 * end, 2 * end + 1}) anchors.push_back(Halves(h));
  }
  return anchors;
}

std::vector<oracle::Dyadic> UnsignedWrapAnchors(TileDataType dst) {
  const oracle::FormatInfo& f = IntegerDestination(dst);
  if (f.kind != oracle::FormatKind::UnsignedInteger) {
    throw std::invalid_argument(std::string(f.name) + " is not an unsigned destination");
  }
  const I128 wrap = -(I128{1} << f.width);
  std::vector<Dyadic> anchors;
  for (const I128 h : {2 * wrap - 1, 2 * wrap, 2 * wrap + 1, I128{-3}, I128{-2}, I128{-1}}) {
    anchors.push_back(Halves(h));
  }
  return anchors;
}

std::vector<oracle::Dyadic> SubnormalNormalTieAnchors(TileDataType dst) {
  return {oracle::LargestSubnormalValue(dst), oracle::SubnormalNormalTie(dst),
          oracle::SmallestNormalValue(dst)};
}

std::vector<oracle::Dyadic> DirectedOverflowAnchors(TileDataType dst) {
  return {oracle::LargestFiniteValue(dst), oracle::OverflowThreshold(dst),
          oracle::LargestFinitePlusUlp(dst)};
}

std::vector<oracle::Dyadic> BelowSmallestSubnormalAnchors(TileDataType dst) {
  const Dyadic s = oracle::SmallestPositiveValue(dst);
  return {{false, s.significand, s.exponent - 2}, {false, s.significand, s.exponent - 1}, s};
}

WordSet Fp32AroundAnchors(const std::vector<oracle::Dyadic>& anchors, int max_steps,
                          bool signed_anchors) {
  std::vector<WordSet::Interval> words;
  for (const Dyadic& a : anchors) {
    const auto [lo, hi] = Fp32Bracket(a);
    AppendFp32OrdinalRange(Fp32Ordinal(lo) - max_steps, Fp32Ordinal(hi) + max_steps, words);
  }
  const WordSet set = WordSet::Of(std::move(words));
  return signed_anchors ? WithBothSigns(set) : set;
}

WordSet S32AroundAnchors(const std::vector<oracle::Dyadic>& anchors, int max_steps,
                         bool signed_anchors) {
  std::vector<WordSet::Interval> words;
  bool any = false;
  for (const Dyadic& a : anchors) {
    // floor(a), when it is within INT32_MIN - 1 .. INT32_MAX (|a| < 2^40 at least).
    if (a.significand != 0 && oracle::DyadicLeadingExponent(a) >= 40) continue;
    I128 magnitude_floor = 0;
    bool fraction = false;
    if (a.exponent >= 0) {
      magnitude_floor = static_cast<I128>(a.significand << a.exponent);
    } else if (a.exponent > -128) {
      magnitude_floor = static_cast<I128>(a.significand >> -a.exponent);
      fraction = (a.significand & ((U128{1} << -a.exponent) - 1)) != 0;
    } else {
      fraction = a.significand != 0;
    }
    const I128 f = a.negative ? -magnitude_floor - (fraction ? 1 : 0) : magnitude_floor;
    if (f < I128{INT32_MIN} - 1 || f > INT32_MAX) continue;
    any = true;
    const auto v = static_cast<std::int64_t>(f);
    std::vector<std::pair<std::int64_t, std::int64_t>> ranges = {
        {v - max_steps, v + max_steps + 1}};
    if (signed_anchors) ranges.emplace_back(-(v + max_steps + 1), -(v - max_steps));
    for (const auto& [a_lo, a_hi] : ranges) {
      const WordSet near = S32Range(a_lo, a_hi);
      words.insert(words.end(), near.intervals().begin(), near.intervals().end());
    }
  }
  if (!any) throw std::invalid_argument("S32AroundAnchors: no anchor in S32 range");
  return WordSet::Of(std::move(words));
}

std::optional<std::string> CheckOffsetAndWidth(Word offset_word, Word width) {
  if (width != 0 && width != 5 && width != 9 && width != 17) {
    return "width " + HexWord(width, TileDataType::U8) + " (" + std::to_string(width) +
           ") is not an intermediate width; accepted: 0x00, 0x05, 0x09 or 0x11 (0, 5, 9 or 17)";
  }
  const auto offset = static_cast<std::int64_t>(static_cast<std::int32_t>(offset_word));
  const std::string offset_text =
      "offset " + HexWord(offset_word, TileDataType::S32) + " (" + std::to_string(offset) + ")";
  if (width == 0) {
    if (offset == 0) return std::nullopt;
    return offset_text +
           " must be 0 at width 0 (a width-0 B.FPATR parameter word has no offset field)";
  }
  const std::int64_t lo = oracle::SignedFieldMinimum(static_cast<int>(width));
  const std::int64_t hi = oracle::SignedFieldMaximum(static_cast<int>(width));
  if (offset >= lo && offset <= hi) return std::nullopt;
  return offset_text + " is outside the signed range of width " + std::to_string(width) + " (" +
         std::to_string(lo) + ".." + std::to_string(hi) + ": " +
         HexWord(static_cast<std::uint32_t>(static_cast<std::int32_t>(lo)), TileDataType::S32) +
         ".." + HexWord(static_cast<std::uint32_t>(hi), TileDataType::S32) + ")";
}

Boxes WithOffsetAndWidth(const WordSet& first, bool edges_only) {
  std::vector<Box> boxes;
  const auto s32 = [](std::int64_t v) {
    return static_cast<Word>(static_cast<std::uint32_t>(static_cast<std::int32_t>(v)));
  };
  for (const Word width : {Word{0}, Word{5}, Word{9}, Word{17}}) {
    WordSet offsets = WordSet::Points({0});
    if (width != 0) {
      const std::int64_t lo = oracle::SignedFieldMinimum(static_cast<int>(width));
      const std::int64_t hi = oracle::SignedFieldMaximum(static_cast<int>(width));
      offsets = edges_only ? WordSet::Points({s32(lo), s32(lo + 1), s32(-1), s32(0), s32(hi)})
                           : S32Range(lo, hi);
    }
    boxes.push_back(Box{{first, offsets, WordSet::Points({width})}});
  }
  return Boxes(std::move(boxes));
}

}  // namespace ptovec::generator
