// The sampling strategies of edition 2026-09's TCVT by value from a wide source (FP64, FP32,
// S64, U64, S32, U32) where encode's strategies do not apply (tcvt_2026_09.cpp, Plan2026_09):
// source words around the destination's edges (overflow thresholds, the subnormal/normal tie and
// the binade below the smallest subnormal of a floating destination; range ends and their .5
// ties for an integer one), windows around the destination's values and ties in every binade
// where the conversion rounds, the source's specials and (FP64) its subnormals, and uniform bits.
// An integer source into an integer type (TileConvertIntegerValue, formats.asl lines 83-95 at
// 01445483: clamp under Sat, else the low bits; no mode, no flags) takes a finite set instead:
// the words near the two types' range ends and zero, near every power of two, and a comb over
// the source's words.
#include <algorithm>
#include <cstdint>
#include <stdexcept>
#include <utility>
#include <vector>

#include "ptovec/generator/domains.hpp"
#include "ptovec/generator/sampler.hpp"
#include "ptovec/generator/tuple_set.hpp"
#include "ptovec/generator/word_set.hpp"
#include "ptovec/oracle/dyadic.hpp"
#include "ptovec/oracle/format_edges.hpp"
#include "ptovec/oracle/formats.hpp"
#include "tcvt_common.hpp"

namespace ptovec::generator {

namespace {

using oracle::Dyadic;
using oracle::FormatInfo;
using T = TileDataType;
__extension__ typedef __int128 I128;
__extension__ typedef unsigned __int128 U128;

// A source type's words in value order. A floating source's ordinal of a word is its magnitude
// code (the word without its sign) for a positive word and -code - 1 for a negative one (-0 is
// -1); an integer source's ordinal is its value.
struct Source {
  explicit Source(T type) : f(oracle::Format(type)) {}
  const FormatInfo& f;
  bool Floating() const { return f.IsFloating(); }
  bool Signed() const { return f.kind == oracle::FormatKind::SignedInteger; }
  Word Mask() const { return f.width >= 64 ? ~Word{0} : (Word{1} << f.width) - 1; }
  // The code of +Inf (a floating source) or the largest value (an integer one).
  I128 MaxOrdinal() const {
    if (Floating())
      return static_cast<I128>(static_cast<U128>(Mask() >> 1) >> f.fraction_bits)
             << f.fraction_bits;
    return Signed() ? (I128{1} << (f.width - 1)) - 1 : (I128{1} << f.width) - 1;
  }
  I128 MinOrdinal() const {
    if (Floating()) return -MaxOrdinal() - 1;
    return Signed() ? -(I128{1} << (f.width - 1)) : 0;
  }
  // The ordinal of a floating source's word.
  I128 OrdinalOf(Word w) const {
    const Word magnitude = w & ~f.SignBit();
    return (w & f.SignBit()) != 0 ? -static_cast<I128>(magnitude) - 1
                                  : static_cast<I128>(magnitude);
  }
  Word WordAt(I128 ordinal) const {
    ordinal = std::clamp(ordinal, MinOrdinal(), MaxOrdinal());
    if (Floating() && ordinal < 0) return f.SignBit() | static_cast<Word>(-ordinal - 1);
    return static_cast<Word>(ordinal) & Mask();
  }
};

// floor(|x|) of a dyadic, and whether |x| is an integer; |x| below 2^100 (callers clamp).
std::pair<U128, bool> FloorMagnitude(const Dyadic& x) {
  if (x.exponent >= 0) return {x.significand << x.exponent, true};
  if (x.exponent <= -128) return {0, x.significand == 0};
  const U128 low = x.significand & ((U128{1} << -x.exponent) - 1);
  return {x.significand >> -x.exponent, low == 0};
}

// The ordinals of the largest source value <= x and the smallest >= x, clamped to the source's
// range (beyond it: the range end and, for a floating source, the infinity).
std::pair<I128, I128> Bracket(const Source& s, const Dyadic& x) {
  if (x.significand == 0) return {0, 0};
  if (s.Floating()) {
    // The neighbours in value order are the oracle's encodings toward -Inf and +Inf. Only the
    // wide floating sources (FP32, FP64) are bracketed: narrower ones are enumerated.
    std::pair<Word, Word> words;
    if (s.f.type == T::FP32) {
      words = Fp32Bracket(x);
    } else if (s.f.type == T::FP64) {
      words = Fp64Bracket(x);
    } else {
      throw std::logic_error("Bracket: a floating source of at most 16 bits is enumerated");
    }
    return {s.OrdinalOf(words.first), s.OrdinalOf(words.second)};
  }
  if (oracle::DyadicLeadingExponent(x) >= 100)
    return x.negative ? std::pair{s.MinOrdinal(), s.MinOrdinal()}
                      : std::pair{s.MaxOrdinal(), s.MaxOrdinal()};
  const auto [n, exact] = FloorMagnitude(x);
  const I128 lo = static_cast<I128>(n);
  const I128 hi = lo + (exact ? 0 : 1);
  return x.negative ? std::pair{-hi, -lo} : std::pair{lo, hi};
}

// The source words from `steps` below to `steps` above the bracket of each anchor and of its
// negation (for a signed or floating source), within the source's range.
WordSet NearAnchors(T src, const std::vector<Dyadic>& anchors, int steps) {
  const Source s(src);
  std::vector<WordSet::Interval> words;
  for (const Dyadic& a : anchors) {
    for (const bool negative : {false, true}) {
      if (negative && s.MinOrdinal() == 0) continue;
      Dyadic x = a;
      x.negative = negative != a.negative;
      const auto [lo, hi] = Bracket(s, x);
      const I128 first = std::max(lo - steps, s.MinOrdinal());
      const I128 last = std::min(hi + steps, s.MaxOrdinal());
      // Split at ordinal 0, where a floating source's words turn from the sign half.
      for (const auto& [a0, a1] : {std::pair{first, std::min<I128>(last, -1)},
                                   std::pair{std::max<I128>(first, 0), last}}) {
        if (a0 > a1) continue;
        const Word w0 = s.WordAt(a0);
        const Word w1 = s.WordAt(a1);
        words.emplace_back(std::min(w0, w1), std::max(w0, w1));
      }
    }
  }
  return WordSet::Of(std::move(words));
}

bool IsLane(T t) { return t == T::E2M1X2 || t == T::E1M2X2; }

// A packed FP4 lane's 16 codes: every value and tie (DestinationAnchors' values and midpoints),
// and above the largest value L the nearest modes' overflow threshold L + (L - M) and L + 2 (L -
// M), M the tie below L (E2M1X2: 7 and 8; E1M2X2: 1.875 and 2).
std::vector<Dyadic> LaneAnchors(T dst) {
  std::vector<Dyadic> anchors;
  for (const Dyadic& a : DestinationAnchors(dst)) {
    if (a.significand != 0 || anchors.empty()) anchors.push_back(a);
  }
  std::sort(anchors.begin(), anchors.end(),
            [](const Dyadic& a, const Dyadic& b) { return oracle::DyadicCompare(a, b) < 0; });
  const Dyadic largest = anchors.back();
  const Dyadic tie = anchors[anchors.size() - 2];
  const int e = std::min(largest.exponent, tie.exponent);
  const U128 l = largest.significand << (largest.exponent - e);
  const U128 m = tie.significand << (tie.exponent - e);
  anchors.push_back({false, l + (l - m), e});
  anchors.push_back({false, l + 2 * (l - m), e});
  return anchors;
}

// The edge anchors of a destination: a floating one's overflow thresholds, subnormal/normal tie
// and the binade below its smallest subnormal; an integer one's range ends, one beyond, and the
// .5 ties around them and zero (DestinationAnchors); a packed lane's every value and tie
// (LaneAnchors). None for FP64, whose edges no narrower
// source reaches (its largest integers are far below its overflow threshold).
std::vector<Dyadic> EdgeAnchors(T dst) {
  if (dst == T::FP64) return {};
  if (IsLane(dst)) return LaneAnchors(dst);
  if (!oracle::Format(dst).IsFloating()) return DestinationAnchors(dst);
  std::vector<Dyadic> anchors = DirectedOverflowAnchors(dst);
  for (const auto& more : {SubnormalNormalTieAnchors(dst), BelowSmallestSubnormalAnchors(dst)}) {
    anchors.insert(anchors.end(), more.begin(), more.end());
  }
  return anchors;
}

// One binade of the source where converting into the destination rounds: its codes (magnitude
// codes of a floating source, magnitudes of an integer one) [lo, hi), and d, the number of low
// code bits below the destination's unit there (1 <= d).
struct Binade {
  int e;
  U128 lo;
  U128 hi;
  int d;
};

// The binades 2^e <= |x| < 2^(e+1) of the source's finite range where the destination's unit
// (2^q: 1 for an integer destination; 2^(max(e, emin) - p + 1) for a floating one of precision
// p) is more than one source step, with at least three units in the binade.
std::vector<Binade> RoundingBinades(T src, T dst) {
  if (IsLane(dst)) return {};  // EdgeAnchors holds every lane value and tie
  const Source s(src);
  const FormatInfo& d = oracle::Format(dst);
  std::vector<Binade> out;
  const int p = static_cast<int>(d.fraction_bits) + 1;
  const int demin = 1 - d.bias;
  // The binade of the largest finite value (format_edges.hpp has no FP64 row: 2^1023's).
  const int top = !d.IsFloating()  ? static_cast<int>(d.width)
                  : dst == T::FP64 ? 1023
                                   : oracle::DyadicLeadingExponent(oracle::LargestFiniteValue(dst));
  const int bottom = d.IsFloating() ? demin - p + 1 : 0;
  const int fraction = static_cast<int>(s.f.fraction_bits);
  const int semin = s.Floating() ? 1 - s.f.bias : 0;
  const int semax = s.Floating() ? static_cast<int>(s.MaxOrdinal() >> fraction) - 1 - s.f.bias
                                 : static_cast<int>(s.f.width) - (s.Signed() ? 2 : 1);
  for (int e = std::max(bottom, semin); e <= std::min(top, semax); ++e) {
    const int q = d.IsFloating() ? std::max(e, demin) - p + 1 : 0;
    const int step = s.Floating() ? e - fraction : 0;  // the source's ulp exponent there
    const int low_bits = q - step;
    if (low_bits < 1 || (s.Floating() ? low_bits > fraction : low_bits > e - 2)) continue;
    const U128 lo = s.Floating() ? static_cast<U128>(e - semin + 1) << fraction : U128{1} << e;
    const U128 hi = s.Floating() ? lo + (U128{1} << fraction) : U128{1} << (e + 1);
    out.push_back({e, lo, hi, low_bits});
  }
  return out;
}

// The source words within 2 steps of the destination's values and ties in every rounding binade
// (RoundingBinades), both signs: axes (sign, binade, unit, centre, offset), the code
// unit * 2^d + centre * 2^(d-1) + offset (centre 0: a value of the destination, 1: a tie;
// offset -2..2). Units at a binade's ends are left out, so a window never leaves its binade
// (the edges' strategy holds the powers of two). Empty when no binade rounds.
std::vector<SampleStrategy> ValueWindows(T src, const std::vector<Binade>& binades, int weight) {
  std::vector<Box> boxes;
  for (std::size_t b = 0; b < binades.size(); ++b) {
    const Binade& n = binades[b];
    const U128 first = (n.lo >> n.d) + 1;
    const U128 last = (n.hi >> n.d) - 2;
    if (first > last) continue;
    boxes.push_back(Box{{WordSet::Range(0, Source(src).MinOrdinal() < 0 ? 1 : 0),
                         WordSet::Points({static_cast<Word>(b)}),
                         WordSet::Range(static_cast<Word>(first), static_cast<Word>(last)),
                         WordSet::Range(0, 1), SignedRange(-2, 2)}});
  }
  if (boxes.empty()) return {};
  const auto code_of = [binades](const Point& a) {
    const Binade& n = binades[a[1]];
    return static_cast<I128>(static_cast<U128>(a[2]) << n.d) +
           static_cast<I128>(a[3]) * (I128{1} << (n.d - 1)) + SignedAxisValue(a[4]);
  };
  const auto assemble = [src, code_of](const Point& a) {
    const I128 code = code_of(a);
    const Source s(src);
    const I128 ordinal = a[0] == 0 ? code : (s.Floating() ? -code - 1 : -code);
    return Inputs{s.WordAt(ordinal), 0, 0, 0};
  };
  const auto invert = [src, binades](const Inputs& t, std::vector<Point>& out) {
    const Source s(src);
    const Word w = t[0] & s.Mask();
    const bool negative =
        s.Floating() ? (w & s.f.SignBit()) != 0 : s.Signed() && (w & s.f.SignBit()) != 0;
    I128 code = s.Floating() ? static_cast<I128>(w & ~s.f.SignBit()) : static_cast<I128>(w);
    if (!s.Floating() && negative) code = (I128{1} << s.f.width) - code;
    for (std::size_t b = 0; b < binades.size(); ++b) {
      const Binade& n = binades[b];
      if (code < static_cast<I128>(n.lo) || code >= static_cast<I128>(n.hi)) continue;
      const I128 half = I128{1} << (n.d - 1);
      for (I128 unit = ((code - half - 2) >> n.d); unit <= ((code + 2) >> n.d); ++unit) {
        for (Word centre = 0; centre <= 1; ++centre) {
          const I128 offset = code - (unit << n.d) - static_cast<I128>(centre) * half;
          if (offset < -2 || offset > 2) continue;
          if (unit <= static_cast<I128>(n.lo >> n.d) || unit + 2 > static_cast<I128>(n.hi >> n.d))
            continue;  // a unit at the binade's ends: not an axis point
          out.push_back(Point{negative ? Word{1} : Word{0}, static_cast<Word>(b),
                              static_cast<Word>(unit), centre,
                              static_cast<Word>(static_cast<std::int64_t>(offset))});
        }
      }
    }
  };
  return {{"values_and_ties_of_the_destination", weight,
           TupleSet::Mapped(Boxes(std::move(boxes)), assemble, invert)}};
}

// A floating source's specials: zeros, infinities, NaNs (quiet and signaling, both signs, the
// largest payload), the subnormal and normal range ends, 1 and -1 (FP32: Fp32Specials). An
// integer source's: 0, 1, 2, the range ends and their neighbours, all ones.
WordSet Specials(T src) {
  if (src == T::FP32) return Fp32Specials();
  const Source s(src);
  std::vector<Word> w;
  for (const I128 o : {I128{0}, I128{1}, I128{2}, I128{-1}, I128{-2}, s.MinOrdinal(),
                       s.MinOrdinal() + 1, s.MaxOrdinal(), s.MaxOrdinal() - 1}) {
    w.push_back(s.WordAt(o));
  }
  w.push_back(s.Mask());
  if (s.Floating()) {
    const int fraction = static_cast<int>(s.f.fraction_bits);
    const Word inf = static_cast<Word>(s.MaxOrdinal());
    const Word one = static_cast<Word>(s.f.bias) << fraction;
    for (const Word m : {inf, inf | Word{1} << (fraction - 1), inf | 1, s.Mask() >> 1,
                         Word{1} << fraction, (Word{1} << fraction) - 1, inf - 1, one}) {
      w.push_back(m);
      w.push_back(m | s.f.SignBit());
    }
  }
  return WordSet::Points(w);
}

}  // namespace

std::vector<SampleStrategy> WideValueStrategies(TypePair pair) {
  const T src = pair.src;
  const Source s(src);
  std::vector<SampleStrategy> out;
  out.push_back({"source_specials", 1, OneSlot(Specials(src))});
  const std::vector<Dyadic> edges = EdgeAnchors(pair.dst);
  if (!edges.empty()) {
    out.push_back({"around_the_destination_edges", 3, OneSlot(NearAnchors(src, edges, 2))});
  }
  if (IsLane(pair.dst) && s.Floating()) {
    // Every source word of magnitude up to the lane's L + 2 (L - M): its values between the ties.
    const Word top = s.WordAt(Bracket(s, edges.back()).second);
    out.push_back({"inside_the_lane_range", 6,
                   OneSlot(WordSet::Of({{0, top}, {s.f.SignBit(), s.f.SignBit() | top}}))});
  }
  const std::vector<Binade> binades = RoundingBinades(src, pair.dst);
  for (SampleStrategy& w : ValueWindows(src, binades, 6)) out.push_back(std::move(w));
  // The binades' ends, which the windows leave out: every power of two that starts one.
  std::vector<Dyadic> powers;
  for (const Binade& b : binades) powers.push_back({false, 1, b.e});
  if (!powers.empty()) {
    out.push_back({"around_the_powers_of_two", 1, OneSlot(NearAnchors(src, powers, 2))});
  }
  if (src == T::FP64) {
    const Word subnormals = (Word{1} << 52) - 1;
    out.push_back(
        {"fp64_subnormals", 1,
         OneSlot(WordSet::Of({{1, subnormals}, {s.f.SignBit() | 1, s.f.SignBit() | subnormals}}))});
  }
  out.push_back({"uniform_bits", 3, OneSlot(AllWords(s.f.width))});
  return out;
}

std::vector<SampleStrategy> IntegerToIntegerStrategies(TypePair pair) {
  const Source s(pair.src);
  const Source d(pair.dst);
  const auto value = [](I128 v) { return Dyadic{v < 0, static_cast<U128>(v < 0 ? -v : v), 0}; };
  const std::vector<Dyadic> ends = {value(d.MinOrdinal()), value(d.MaxOrdinal()),
                                    value(s.MinOrdinal()), value(s.MaxOrdinal()), value(0)};
  std::vector<Dyadic> powers;
  for (unsigned k = 0; k < s.f.width; ++k) powers.push_back({false, 1, static_cast<int>(k)});
  // 4096 words spread over the source's words, each with its own low bits (a multiplicative
  // hash of its index), so that wrapping keeps differing bits.
  constexpr unsigned kCombBits = 12;
  const unsigned gap = s.f.width - kCombBits;
  std::vector<Word> comb;
  for (Word i = 0; i < (Word{1} << kCombBits); ++i) {
    comb.push_back((i << gap) | ((i * 0x9E3779B97F4A7C15ULL) & ((Word{1} << gap) - 1)));
  }
  return {{"around_the_range_ends_and_zero", 4, OneSlot(NearAnchors(pair.src, ends, 64))},
          {"around_the_powers_of_two", 2, OneSlot(NearAnchors(pair.src, powers, 2))},
          {"comb_over_the_words", 2, OneSlot(WordSet::Points(comb))}};
}

}  // namespace ptovec::generator
