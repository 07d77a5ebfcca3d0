// Op `affine`: MatrixQuantizedAffine (seed 000 lines 133-150), the B.FPATR PreQuant step: the
// value times an FP19 scale, rounded and clamped at an S5/S9/S17 intermediate (width 5/9/17,
// MatrixRoundAndSaturateSigned lines 68-91) or not at all (width 0), plus a signed offset, then
// integer-encoded into the destination (ReferenceMatrixIntegerEncoding lines 108-131). The flags
// of both steps are OR-ed (spec-notes section 5 item 8).
//
// Inputs: value (an FP32 or S32 word), scale (an FP19 word, bits 18:0), offset (an S32 word,
// two's complement) and width (a U8 word: 0, 5, 9 or 17). The domain follows the B.FPATR
// parameter word that MatrixQuantParameter (lines 11-23) packs: the scale is a positive normal
// FP19 (spec-notes section 4), the offset fits the width's signed field, and width 0 has no
// offset field, so its offset is 0 (MatrixQuantOffset, lines 32-41, returns 0 for width 0).
#include <algorithm>
#include <array>
#include <bit>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "ptovec/generator/domains.hpp"
#include "ptovec/generator/ops.hpp"
#include "ptovec/generator/writers.hpp"
#include "ptovec/oracle/fast.hpp"
#include "ptovec/oracle/matrix_quantization.hpp"
#include "ptovec/oracle/reference_quantization.hpp"

namespace ptovec::generator {

namespace {

using oracle::Dyadic;
using oracle::Format;
using oracle::NumericValueClass;

constexpr std::size_t kValue = 0;
constexpr std::size_t kScale = 1;
constexpr std::size_t kOffset = 2;
constexpr std::size_t kWidth = 3;

constexpr std::array<TileDataType, 2> kSources = {TileDataType::FP32, TileDataType::S32};
constexpr std::array<TileDataType, 8> kDestinations = {
    TileDataType::S4X2, TileDataType::U4X2, TileDataType::S8,  TileDataType::U8,
    TileDataType::S16,  TileDataType::U16,  TileDataType::S32, TileDataType::U32};

// The smallest and largest positive normal FP19 codes (exponent fields 1 and 254).
constexpr Word kFp19MinNormal = 0x00400;
constexpr Word kFp19MaxNormal = 0x3FBFF;

std::int64_t S32Of(Word word) {
  return static_cast<std::int32_t>(static_cast<std::uint32_t>(word));
}
Word S32Word(std::int64_t value) {
  return static_cast<std::uint32_t>(
      static_cast<std::int32_t>(std::clamp<std::int64_t>(value, INT32_MIN, INT32_MAX)));
}

std::int64_t WidthMin(int width) { return width == 0 ? 0 : -(std::int64_t{1} << (width - 1)); }
std::int64_t WidthMax(int width) { return width == 0 ? 0 : (std::int64_t{1} << (width - 1)) - 1; }

// The destination's integer range (S4X2/U4X2: one 4-bit lane).
struct Range {
  std::int64_t lo;
  std::int64_t hi;
};
Range DestinationRange(TileDataType dst) {
  const oracle::FormatInfo& f = Format(dst);
  if (f.kind == oracle::FormatKind::SignedInteger) {
    return {-(std::int64_t{1} << (f.width - 1)), (std::int64_t{1} << (f.width - 1)) - 1};
  }
  return {0, (std::int64_t{1} << f.width) - 1};
}

// ---- evaluation ----

Dyadic ValueDyadic(TileDataType src, Word value) {
  if (src == TileDataType::S32) return oracle::DyadicFromInteger(S32Of(value));
  return oracle::DyadicFromFiniteCode(TileDataType::FP32, value);
}

oracle::Real ValueReal(TileDataType src, Word value) {
  if (src == TileDataType::S32) {
    return oracle::Real(oracle::ReferenceIntegerValue(value, TileDataType::S32));
  }
  return oracle::ReferenceFP32FiniteValue(value);
}

Encoded EvaluateAffine(TypePair pair, const Inputs& in, NumericExecutionControl control) {
  const Encoded r = oracle::FastMatrixQuantizedAffine(
      ValueDyadic(pair.src, in[kValue]),
      oracle::DyadicFromFiniteCode(TileDataType::FP19, in[kScale]), S32Of(in[kOffset]),
      static_cast<int>(in[kWidth]), pair.dst, control);
  return {oracle::LowBits(r.word, Format(pair.dst).width), r.status};
}

Encoded EvaluateAffineReference(TypePair pair, const Inputs& in, NumericExecutionControl control) {
  const Encoded r = oracle::MatrixQuantizedAffine(
      ValueReal(pair.src, in[kValue]), oracle::FP19FiniteValue(in[kScale]),
      oracle::Integer(S32Of(in[kOffset])), static_cast<int>(in[kWidth]), pair.dst, control);
  return {oracle::LowBits(r.word, Format(pair.dst).width), r.status};
}

std::optional<std::string> CheckAffineDomain(TypePair pair, const Inputs& in) {
  if (pair.src == TileDataType::FP32) {
    const NumericValueClass c = oracle::TileNumericValueClass(TileDataType::FP32, in[kValue]);
    if (oracle::NumericValueClassIsNaN(c) || oracle::NumericValueClassIsInfinity(c)) {
      return "value " + HexWord(in[kValue], TileDataType::FP32) + " is " +
             std::string(oracle::NumericValueClassName(c)) +
             "; affine accepts a finite fp32 value (zeros, subnormals and normals of either sign)";
    }
  }
  const NumericValueClass scale_class =
      oracle::TileNumericValueClass(TileDataType::FP19, in[kScale]);
  if (scale_class != NumericValueClass::PositiveNormal) {
    return "scale " + HexWord(in[kScale], TileDataType::FP19) + " is " +
           std::string(oracle::NumericValueClassName(scale_class)) +
           "; affine accepts a positive normal fp19 scale (" +
           HexWord(kFp19MinNormal, TileDataType::FP19) + ".." +
           HexWord(kFp19MaxNormal, TileDataType::FP19) +
           ": sign 0, exponent field 1..254; the B.FPATR rule)";
  }
  return CheckOffsetAndWidth(in[kOffset], in[kWidth]);
}

// ---- sampling ----

// The choices of one draw. Each strategy draws 64 bits from RapidCheck (so the mix is seeded by
// rc::Random and reproducible) and splits them into its choices with splitmix64.
class Choices {
 public:
  explicit Choices(std::uint64_t seed) : state_(seed) {}
  std::uint64_t Next() {
    std::uint64_t z = (state_ += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
  }
  /// Uniform in lo..hi (inclusive).
  std::int64_t Int(std::int64_t lo, std::int64_t hi) {
    const auto span = static_cast<std::uint64_t>(hi - lo) + 1;
    return lo + static_cast<std::int64_t>(span == 0 ? Next() : Next() % span);
  }
  bool Bool() { return (Next() & 1) != 0; }
  /// -1, 0, 0 or +1: a step to a neighbour or (half the time) none.
  int Step() { return std::array{-1, 0, 0, 1}[static_cast<std::size_t>(Int(0, 3))]; }

 private:
  std::uint64_t state_;
};

rc::Gen<Inputs> FromChoices(std::function<Inputs(Choices&)> build) {
  return rc::gen::apply(
      [build](std::uint64_t high, std::uint64_t low) {
        Choices c((high << 32) | low);
        return build(c);
      },
      rc::gen::inRange<std::uint64_t>(0, std::uint64_t{1} << 32),
      rc::gen::inRange<std::uint64_t>(0, std::uint64_t{1} << 32));
}

int BitLength(std::uint64_t x) { return 64 - std::countl_zero(x); }
std::uint64_t Magnitude(std::int64_t x) {
  return x < 0 ? std::uint64_t{0} - static_cast<std::uint64_t>(x) : static_cast<std::uint64_t>(x);
}

int PickWidth(Choices& c) { return std::array{0, 5, 9, 17}[static_cast<std::size_t>(c.Int(0, 3))]; }
int PickClampingWidth(Choices& c) {
  return std::array{5, 9, 17}[static_cast<std::size_t>(c.Int(0, 2))];
}

// An offset for `width`: 0, uniform in the width's range, or at its ends (width 0: always 0).
Word PickOffset(Choices& c, int width) {
  if (width == 0) return 0;
  const std::int64_t lo = WidthMin(width);
  const std::int64_t hi = WidthMax(width);
  switch (c.Int(0, 4)) {
    case 0: return 0;
    case 1:
    case 2: return S32Word(c.Int(lo, hi));
    case 3: return S32Word(lo + c.Int(0, 1));
    default: return S32Word(hi - c.Int(0, 1));
  }
}

Word Fp19Scale(int biased_exponent, std::int64_t fraction) {
  return (static_cast<Word>(std::clamp(biased_exponent, 1, 254)) << 10) |
         static_cast<Word>(fraction & 0x3FF);
}

// A scale for a product near p/2: a power of two half the time, else a random significand; the
// exponent keeps the source value well resolved (FP32: scale 2^-10..2^11; S32: |value| around
// 2^18..2^30, so a one-step change of the value moves the product by a small fraction).
Word ScaleForTarget(TileDataType src, std::int64_t p, Choices& c) {
  int exponent = 0;
  if (src == TileDataType::FP32) {
    exponent = static_cast<int>(c.Int(-10, 10));
  } else {
    exponent = std::max(BitLength(Magnitude(p)), 1) - 31 + static_cast<int>(c.Int(0, 12));
  }
  const std::int64_t fraction = c.Bool() ? 0 : c.Int(0, 1023);
  return Fp19Scale(exponent + 127, fraction);
}

// The FP32 words just below and just above |x| for x = (p / m) * 2^k, p > 0, m in 1..2047.
// With q = floor(p * 2^64 / m), the significand q has more than 53 bits, so no FP32 value lies
// strictly between q * 2^(k-64) and (q+1) * 2^(k-64): rounding those down and up brackets x.
std::pair<std::uint32_t, std::uint32_t> Fp32MagnitudeBracket(std::uint64_t p, std::uint64_t m,
                                                             int k) {
  const oracle::DyadicSignificand n = static_cast<oracle::DyadicSignificand>(p) << 64;
  const oracle::DyadicSignificand q = n / m;
  const bool exact = n % m == 0;
  const auto down = static_cast<std::uint32_t>(
      oracle::FastFP32FiniteEncoding(Dyadic{false, q, k - 64}, NumericRoundingMode::RTM).word);
  const auto up = static_cast<std::uint32_t>(
      oracle::FastFP32FiniteEncoding(Dyadic{false, exact ? q : q + 1, k - 64},
                                     NumericRoundingMode::RTP)
          .word);
  const auto finite = [](std::uint32_t w) { return Fp32IsFinite(w) ? w : 0x7F7FFFFFU; };
  return {finite(down), finite(up)};
}

// floor and ceiling of |x| for x = (p / m) * 2^k, p >= 0, m in 1..2047, capped at 2^33.
std::pair<std::int64_t, std::int64_t> IntegerMagnitudeBracket(std::uint64_t p, std::uint64_t m,
                                                              int k) {
  constexpr std::int64_t kCap = std::int64_t{1} << 33;
  if (p == 0) return {0, 0};
  oracle::DyadicSignificand floor = 0;
  bool exact = false;
  if (k >= 0) {
    if (k >= 63) return {kCap, kCap};
    const oracle::DyadicSignificand n = static_cast<oracle::DyadicSignificand>(p) << k;
    floor = n / m;
    exact = n % m == 0;
  } else {
    if (-k >= 63) return {0, 1};
    const oracle::DyadicSignificand d = static_cast<oracle::DyadicSignificand>(m) << -k;
    floor = p / d;
    exact = p % d == 0;
  }
  const auto cap = [](oracle::DyadicSignificand v) {
    return v > static_cast<oracle::DyadicSignificand>(kCap) ? kCap : static_cast<std::int64_t>(v);
  };
  return {cap(floor), cap(exact ? floor : floor + 1)};
}

// A source word near (p/2) / scale: the source value just below (or, `upper`, just above) it,
// moved `steps` source steps (FP32 ulps, S32 units); always finite.
Word SourceNear(TileDataType src, std::int64_t p, Word scale, bool upper, int steps) {
  const std::uint64_t m = 1024 + (scale & 0x3FF);
  const int k = -1 - (static_cast<int>((scale >> 10) & 0xFF) - 137);  // x = (p/m) * 2^k
  const bool negative = p < 0;
  const std::uint64_t magnitude = Magnitude(p);
  if (src == TileDataType::FP32) {
    std::uint32_t word = 0;
    if (magnitude != 0) {
      const auto [down, up] = Fp32MagnitudeBracket(magnitude, m, k);
      // Below x is the smaller magnitude for x > 0 and the larger one for x < 0.
      word = (upper != negative) ? up : down;
      if (negative) word |= 0x80000000U;
    }
    word = Fp32Step(word, steps);
    if (!Fp32IsFinite(word)) word = Fp32Step(word, word >> 31 ? 1 : -1);
    return word;
  }
  const auto [down, up] = IntegerMagnitudeBracket(magnitude, m, k);
  const std::int64_t value = negative ? -(upper ? down : up) : (upper ? up : down);
  return S32Word(value + steps);
}

// The exact FP32 or S32 word of q * 2^a (|q| < 2^24 for FP32; an integer below 2^31 for S32).
Word SourceExact(TileDataType src, std::int64_t q, int a) {
  if (src == TileDataType::S32) return S32Word(q * (std::int64_t{1} << a));
  return oracle::FastFP32FiniteEncoding(Dyadic{q < 0, Magnitude(q), a}, NumericRoundingMode::RNE)
      .word;
}

Word SourceStep(TileDataType src, Word word, int steps) {
  if (src == TileDataType::S32) return S32Word(S32Of(word) + steps);
  std::uint32_t moved = Fp32Step(static_cast<std::uint32_t>(word), steps);
  if (!Fp32IsFinite(moved)) moved = Fp32Step(moved, moved >> 31 ? 1 : -1);
  return moved;
}

// 2k+1 for a tie k + 1/2 near zero, near the clamp edges of `width` (width 0: near the
// destination's range ends) or anywhere in that range.
std::int64_t TieTarget(Choices& c, int width, Range dst) {
  const Range r = width == 0 ? dst : Range{WidthMin(width), WidthMax(width)};
  std::int64_t k = 0;
  switch (c.Int(0, 3)) {
    case 0: k = c.Int(-4, 3); break;
    case 1: k = r.lo + c.Int(-3, 2); break;
    case 2: k = r.hi + c.Int(-3, 2); break;
    default: k = c.Int(r.lo - 2, r.hi + 2); break;
  }
  return 2 * k + 1;
}

// Strategy tie_power_of_two_scale: scale = 2^-j, value = (2k+1) * 2^(j-1), so value * scale is
// exactly the tie k + 1/2; then a step of the value to either neighbour half the time.
Inputs TiePowerOfTwoScale(TypePair pair, Choices& c) {
  const int width = PickWidth(c);
  const std::int64_t p = TieTarget(c, width, DestinationRange(pair.dst));
  const int bits = BitLength(Magnitude(p));
  Word value = 0;
  Word scale = 0;
  if (pair.src == TileDataType::FP32 && bits <= 24) {
    const int j = static_cast<int>(c.Int(-10, 20));
    scale = Fp19Scale(127 - j, 0);
    value = SourceExact(pair.src, p, j - 1);
  } else if (pair.src == TileDataType::S32 && bits <= 31) {
    const int j = static_cast<int>(c.Int(1, 32 - bits));
    scale = Fp19Scale(127 - j, 0);
    value = SourceExact(pair.src, p, j - 1);
  } else {  // not exactly reachable with a power-of-two scale: the nearest source values
    scale = ScaleForTarget(pair.src, p, c);
    value = SourceNear(pair.src, p, scale, c.Bool(), 0);
  }
  return {SourceStep(pair.src, value, c.Step()), scale, PickOffset(c, width), Word(width)};
}

// Strategy tie_odd_scale: scale = m * 2^s with a significand m = m_odd * 2^t whose odd part is
// above 1, value = q * 2^a with q odd and a + s + t = -1, so value * scale = q * m_odd / 2 is a
// tie; q * m_odd is the odd integer nearest the target. Reaches ties a power-of-two scale cannot
// (FP32 values near 2^31, S32 values near 2^32).
Inputs TieOddScale(TypePair pair, Choices& c) {
  const int width = PickWidth(c);
  const std::int64_t p = TieTarget(c, width, DestinationRange(pair.dst));
  const std::uint64_t magnitude = Magnitude(p);
  const bool fp32 = pair.src == TileDataType::FP32;
  const unsigned q_bits = fp32 ? 23 : 30;
  const std::uint64_t lo = std::max<std::uint64_t>(3, (magnitude >> q_bits) + 1) | 1;
  const std::uint64_t hi = std::max<std::uint64_t>(lo, std::min<std::uint64_t>(2047, magnitude));
  const std::uint64_t m_odd = static_cast<std::uint64_t>(c.Int(static_cast<std::int64_t>(lo),
                                                               static_cast<std::int64_t>(hi))) |
                              1;
  const int t = 11 - BitLength(m_odd);  // m = m_odd * 2^t in 1024..2047
  const std::uint64_t m = m_odd << t;
  // The odd q nearest p / m_odd.
  std::uint64_t q_magnitude = (2 * magnitude + m_odd) / (2 * m_odd);
  if (q_magnitude % 2 == 0) {
    q_magnitude = q_magnitude * m_odd < magnitude ? q_magnitude + 1 : q_magnitude - 1;
  }
  if (q_magnitude == 0) q_magnitude = 1;
  const std::int64_t q =
      p < 0 ? -static_cast<std::int64_t>(q_magnitude) : static_cast<std::int64_t>(q_magnitude);
  const int a = fp32 ? static_cast<int>(c.Int(-20, 10))
                     : static_cast<int>(c.Int(0, std::max(0, 31 - BitLength(q_magnitude))));
  const int s = -1 - t - a;  // scale = m * 2^s, biased exponent s + 137
  const Word scale = Fp19Scale(s + 137, static_cast<std::int64_t>(m) - 1024);
  const Word value = SourceExact(pair.src, q, a);
  return {SourceStep(pair.src, value, c.Step()), scale, PickOffset(c, width), Word(width)};
}

// The source value whose product with a scale lands on or next to p/2.
Word ValueNear(TypePair pair, std::int64_t p, Word scale, Choices& c) {
  return SourceNear(pair.src, p, scale, c.Bool(), c.Step());
}

// Strategy intermediate_clamp_edges: products at -2^(w-1) - 1.5 .. -2^(w-1) + 1.5 and
// 2^(w-1) - 2.5 .. 2^(w-1) + 0.5 in half steps (exactly, or one source step either side).
Inputs IntermediateClampEdges(TypePair pair, Choices& c) {
  const int width = PickClampingWidth(c);
  const std::int64_t edge = c.Bool() ? WidthMin(width) : WidthMax(width);
  const std::int64_t p = 2 * edge + c.Int(-3, 3);
  const Word scale = ScaleForTarget(pair.src, p, c);
  return {ValueNear(pair, p, scale, c), scale, PickOffset(c, width), Word(width)};
}

// Strategy offset_over_destination: intermediate + offset near the destination's range ends
// (-2..+2 around them), the offset at either end of what reaches there or anywhere between;
// when the width cannot reach the destination's ends (S32, or S16 from S5), the sum is near the
// width's own extremes (both at their ends).
Inputs OffsetOverDestination(TypePair pair, Choices& c) {
  const int width = PickClampingWidth(c);
  const std::int64_t wlo = WidthMin(width);
  const std::int64_t whi = WidthMax(width);
  const Range d = DestinationRange(pair.dst);
  std::vector<std::int64_t> sums;
  for (std::int64_t edge : {d.lo, d.hi}) {
    for (std::int64_t k = -2; k <= 2; ++k) {
      if (edge + k >= 2 * wlo && edge + k <= 2 * whi) sums.push_back(edge + k);
    }
  }
  if (sums.empty()) {
    for (std::int64_t k = 0; k <= 2; ++k) sums.insert(sums.end(), {2 * wlo + k, 2 * whi - k});
  }
  const std::int64_t sum = sums[static_cast<std::size_t>(c.Int(0, std::int64_t(sums.size()) - 1))];
  const std::int64_t olo = std::max(wlo, sum - whi);
  const std::int64_t ohi = std::min(whi, sum - wlo);
  const std::int64_t choice = c.Int(0, 2);
  const std::int64_t offset = choice == 0 ? olo : choice == 1 ? ohi : c.Int(olo, ohi);
  const std::int64_t intermediate = sum - offset;
  const std::int64_t p = 2 * intermediate + c.Step();
  const Word scale = ScaleForTarget(pair.src, p, c);
  return {ValueNear(pair, p, scale, c), scale, S32Word(offset), Word(width)};
}

// Strategy width0_destination_edges: width 0 (offset 0), value * scale within 2 of the
// destination's range ends or of zero, in half steps (ties), exactly or one step either side.
Inputs Width0DestinationEdges(TypePair pair, Choices& c) {
  const Range d = DestinationRange(pair.dst);
  const std::int64_t pick = c.Int(0, 4);
  const std::int64_t edge = pick <= 1 ? d.lo : pick <= 3 ? d.hi : 0;
  const std::int64_t p = 2 * edge + c.Int(-4, 4);
  const Word scale = ScaleForTarget(pair.src, p, c);
  return {ValueNear(pair, p, scale, c), scale, 0, 0};
}

// Strategy random: a random finite value, a random positive normal scale (any exponent), a
// random width and a random offset of that width.
Inputs RandomTuple(TypePair pair, Choices& c) {
  const int width = PickWidth(c);
  Word value = c.Next() & 0xFFFFFFFFU;
  if (pair.src == TileDataType::FP32 && !Fp32IsFinite(static_cast<std::uint32_t>(value))) {
    value ^= 0x00800000U;  // exponent field 255 -> 254
  }
  const Word scale = Fp19Scale(static_cast<int>(c.Int(1, 254)), c.Int(0, 1023));
  const Word offset = width == 0 ? 0 : S32Word(c.Int(WidthMin(width), WidthMax(width)));
  return {value, scale, offset, Word(width)};
}

// Strategy random_moderate: random values and scales whose product has a magnitude around
// 2^-2 .. 2^(w+1) (width 0: the destination's width), so rounding, clamping and encoding all
// take every path; a random offset.
Inputs RandomModerate(TypePair pair, Choices& c) {
  const int width = PickWidth(c);
  const int span = width != 0 ? width : static_cast<int>(Format(pair.dst).width);
  const int scale_exponent = static_cast<int>(c.Int(-20, 4));
  const Word scale = Fp19Scale(scale_exponent + 127, c.Int(0, 1023));
  const int product_exponent = static_cast<int>(c.Int(-2, span + 1));
  const int value_exponent = product_exponent - scale_exponent;
  const bool negative = c.Bool();
  Word value = 0;
  if (pair.src == TileDataType::FP32) {
    value = (static_cast<Word>(std::clamp(value_exponent + 127, 1, 254)) << 23) |
            static_cast<Word>(c.Int(0, 0x7FFFFF));
    if (negative) value |= 0x80000000U;
  } else {
    std::int64_t magnitude = 0;
    if (value_exponent <= 0) {
      magnitude = c.Int(0, 1);
    } else {
      const int bits = std::min(value_exponent, 31);
      magnitude = c.Int(std::int64_t{1} << (bits - 1), (std::int64_t{1} << bits) - 1);
    }
    value = S32Word(negative ? -magnitude : magnitude);
  }
  return {value, scale, PickOffset(c, width), Word(width)};
}

// Strategy value_specials: zeros, subnormals, the extremes of the source, +/-1; random scale,
// width and offset.
Inputs ValueSpecials(TypePair pair, Choices& c) {
  static constexpr std::array<std::uint32_t, 12> kFp32 = {
      0x00000000U, 0x80000000U, 0x00000001U, 0x80000001U, 0x007FFFFFU, 0x807FFFFFU,
      0x00800000U, 0x80800000U, 0x7F7FFFFFU, 0xFF7FFFFFU, 0x3F800000U, 0xBF800000U};
  static constexpr std::array<std::uint32_t, 8> kS32 = {0x00000000U, 0x00000001U, 0xFFFFFFFFU,
                                                        0x7FFFFFFFU, 0x80000000U, 0x80000001U,
                                                        0x7FFFFFFEU, 0x00000002U};
  const int width = PickWidth(c);
  const Word value =
      pair.src == TileDataType::FP32
          ? kFp32[static_cast<std::size_t>(c.Int(0, static_cast<std::int64_t>(kFp32.size()) - 1))]
          : kS32[static_cast<std::size_t>(c.Int(0, static_cast<std::int64_t>(kS32.size()) - 1))];
  const int scale_exponent =
      c.Bool() ? static_cast<int>(c.Int(1, 254)) : 127 + static_cast<int>(c.Int(-4, 4));
  const Word scale = Fp19Scale(scale_exponent, c.Bool() ? 0 : c.Int(0, 1023));
  return {value, scale, PickOffset(c, width), Word(width)};
}

std::vector<Strategy> AffineStrategies(TypePair pair) {
  const auto make = [pair](Inputs (*build)(TypePair, Choices&)) {
    return FromChoices([pair, build](Choices& c) { return build(pair, c); });
  };
  return {
      {"tie_power_of_two_scale", 5, make(TiePowerOfTwoScale)},
      {"tie_odd_scale", 3, make(TieOddScale)},
      {"intermediate_clamp_edges", 4, make(IntermediateClampEdges)},
      {"offset_over_destination", 4, make(OffsetOverDestination)},
      {"width0_destination_edges", 4, make(Width0DestinationEdges)},
      {"random", 2, make(RandomTuple)},
      {"random_moderate", 4, make(RandomModerate)},
      {"value_specials", 1, make(ValueSpecials)},
  };
}

}  // namespace

OpDef MakeAffineOp() {
  OpDef op;
  op.name = "affine";
  op.instruction = "B.FPATR PreQuant";
  op.seed_function = "MatrixQuantizedAffine";
  op.seed_source =
      "000_93cee333e42f6460.txt lines 133-150 (MatrixRoundAndSaturateSigned lines 68-91, "
      "ReferenceMatrixIntegerEncoding lines 108-131)";
  op.summary =
      "B.FPATR PreQuant: value * FP19 scale, rounded and clamped to S5/S9/S17 (width 5/9/17; "
      "not at width 0), plus the signed offset, integer-encoded into dst; flags of both steps "
      "OR-ed";
  op.slots = {
      {"value", SlotRole::Source, TileDataType::FP32,
       "the value: a finite src word (fp32: NaN and Inf rejected; s32: any two's complement word)"},
      {"scale", SlotRole::Fixed, TileDataType::FP19,
       "the B.FPATR scale: an fp19 word (bits 18:0), a positive normal 0x00400..0x3fbff"},
      {"offset", SlotRole::Fixed, TileDataType::S32,
       "the signed offset, two's complement: width 5 -16..15, 9 -256..255, 17 -65536..65535; "
       "width 0 only 0 (a width-0 parameter word has no offset field)"},
      {"width", SlotRole::Fixed, TileDataType::U8,
       "the intermediate width: 0 (no intermediate), 5, 9 or 17 (round and clamp to S5/S9/S17)"},
  };
  op.uses_controls = true;
  for (TileDataType src : kSources) {
    for (TileDataType dst : kDestinations) op.legal_pairs.push_back({src, dst});
  }
  op.default_suite_pairs = op.legal_pairs;
  op.evaluate = EvaluateAffine;
  op.evaluate_reference = EvaluateAffineReference;
  op.check_domain = CheckAffineDomain;
  op.domain = [](TypePair pair, const SamplingOptions& options) {
    const std::uint64_t seed = DerivedSeed(options.seed, *FindOp("affine"), pair);
    return ListSet(SampleUnique(AffineStrategies(pair), seed, options.samples), "sampled");
  };
  op.domain_count = [](TypePair, const SamplingOptions& options) -> std::uint64_t {
    return options.samples;
  };
  op.input_space = [](TypePair pair) {
    // Uniform over the domain: any finite FP32 / any S32 value, any positive normal FP19 scale,
    // a uniform width and an offset uniform in its range.
    const bool fp32 = pair.src == TileDataType::FP32;
    const rc::Gen<Inputs> uniform = rc::gen::apply(
        [fp32](std::uint64_t value, std::uint32_t exponent, std::uint32_t fraction,
               std::pair<std::uint32_t, std::uint32_t> ow) {
          Word v = value;
          if (fp32 && !Fp32IsFinite(static_cast<std::uint32_t>(v))) v &= 0xFF7FFFFFU;
          return Inputs{v, Word{exponent} << 10 | fraction, ow.first, ow.second};
        },
        rc::gen::inRange<std::uint64_t>(0, std::uint64_t{1} << 32),
        rc::gen::inRange<std::uint32_t>(1, 255), rc::gen::inRange<std::uint32_t>(0, 1024),
        UniformOffsetAndWidth());
    return InputSpace(*FindOp("affine"), pair, AffineStrategies(pair), uniform);
  };
  return op;
}

}  // namespace ptovec::generator
