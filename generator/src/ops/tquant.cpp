// Op `tquant`: TileProfileQuantize (TQUANT, seed 003 lines 105-149): round(value * scale +
// zero_point) of an FP32 value into S8 or U8 under the mode (spec-notes section 5 item 6). NaN
// gives 0 with NV; +/-Inf the range end with OF|NX in both Sat settings; Sat clamps without OF,
// non-Sat wraps to 8 bits; NX iff inexact.
//
// Default domain: --samples distinct (value, scale, zero point) tuples drawn from named RapidCheck
// strategies (weighted): affine values exactly on .5 ties and integers (and one ulp either side)
// near the range ends, zero and anywhere, with power-of-two and odd scales; far outside the range;
// specials (NaN, Inf, zeros, subnormals) with every kind of scale; random values in and around
// the range; random finite values. Zero points favour the edges (-128, 127, 0 for S8; 0, 255 for
// U8). Scales stay in the legal domain: positive, finite, non-zero FP32.
#include <algorithm>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <utility>
#include <vector>

#include "outcome_classes.hpp"
#include "ptovec/generator/domains.hpp"
#include "ptovec/generator/ops.hpp"
#include "ptovec/oracle/behaviour.hpp"
#include "ptovec/oracle/dyadic.hpp"
#include "ptovec/oracle/fast.hpp"
#include "ptovec/oracle/numeric.hpp"
#include "ptovec/oracle/reference_quantization.hpp"
#include "quantization_scale.hpp"

namespace ptovec::generator {

namespace {

using oracle::Format;

Encoded EvaluateTquant(TypePair pair, const Inputs& in, NumericExecutionControl control) {
  const Encoded r =
      oracle::FastTileProfileQuantize(in[0], in[1], in[2], pair.src, pair.dst, control);
  return {oracle::LowBits(r.word, Format(pair.dst).width), r.status};
}

Encoded EvaluateTquantReference(TypePair pair, const Inputs& in, NumericExecutionControl control) {
  const Encoded r = oracle::TileProfileQuantize(in[0], in[1], in[2], pair.src, pair.dst, control);
  return {oracle::LowBits(r.word, Format(pair.dst).width), r.status};
}

// A behaviour model's TQUANT (oracle/behaviour.hpp): NaN, Inf and an out-of-range result are
// invalid float to integer conversions (invalid-integer); no-saturation wraps under Sat.
oracle::ModelAnswer EvaluateTquantModel(TypePair pair, const Inputs& in,
                                        NumericExecutionControl control,
                                        const oracle::Behaviour& behaviour) {
  return oracle::FastModelTileProfileQuantize(in[0], in[1], in[2], pair.src, pair.dst, control,
                                              behaviour);
}

oracle::ModelAnswer EvaluateTquantModelReference(TypePair pair, const Inputs& in,
                                                 NumericExecutionControl control,
                                                 const oracle::Behaviour& behaviour) {
  return oracle::ModelTileProfileQuantize(in[0], in[1], in[2], pair.src, pair.dst, control,
                                          behaviour);
}

// The destination's range and its zero-point edges (as 8-bit words).
struct DestinationRange {
  int minimum;
  int maximum;
  std::vector<std::uint32_t> zero_point_edges;
};

DestinationRange RangeOf(TileDataType dst) {
  if (dst == TileDataType::S8) return {-128, 127, {0x80, 0x7F, 0x00}};
  return {0, 255, {0x00, 0xFF}};
}

// The FP32 word of (-1)^negative * magnitude * 2^exponent, rounded to nearest even (exact for
// every caller here: at most 24 significant bits, inside the normal range).
std::uint32_t Fp32Of(bool negative, std::uint64_t magnitude, int exponent) {
  oracle::Dyadic d;
  d.negative = negative;
  d.significand = magnitude;
  d.exponent = exponent;
  return static_cast<std::uint32_t>(
      oracle::FastFP32FiniteEncoding(d, NumericRoundingMode::RNE).word);
}

using quantization::FieldAndFraction;

// Words of exponent fields lo..hi with any fraction (positive; both signs when `both_signs`).
WordSet Fields(std::uint32_t lo, std::uint32_t hi, bool both_signs) {
  const WordSet positive = WordSet::Range(FieldAndFraction(lo, 0), FieldAndFraction(hi, 0x7FFFFF));
  return both_signs ? WithBothSigns(positive) : positive;
}

// A finite non-zero FP32 word as n * 2^e with n odd (sign in n); nullopt for zeros, Inf, NaN.
std::optional<std::pair<std::int64_t, int>> OddDecomposition(Word word) {
  if (!Fp32IsFinite(static_cast<std::uint32_t>(word)) || (word & 0x7FFFFFFFU) == 0) {
    return std::nullopt;
  }
  const oracle::Dyadic d = oracle::DyadicFromFiniteCode(TileDataType::FP32, word);
  auto n = static_cast<std::uint64_t>(d.significand);
  int e = d.exponent;
  const int zeros = std::countr_zero(n);
  n >>= zeros;
  e += zeros;
  const auto magnitude = static_cast<std::int64_t>(n);
  return std::pair{d.negative ? -magnitude : magnitude, e};
}

// n * 2^k as an integer, when it is one of magnitude below 2^40.
std::optional<std::int64_t> IntegerOf(std::int64_t n, int k) {
  if (n == 0) return 0;
  if (k >= 0) {
    if (k > 40 || std::bit_width(static_cast<std::uint64_t>(n < 0 ? -n : n)) + k > 40) {
      return std::nullopt;
    }
    return n * (std::int64_t{1} << k);
  }
  return std::nullopt;  // n is odd: a negative k leaves a fraction
}

// TQUANT strategy sets. Coordinates of mapped axes are words; signed ones are two's complement
// (SignedRange). `zp_value` reads a zero point word as the destination's integer.
struct TquantSets {
  DestinationRange range;
  bool is_signed;
  std::int64_t ZeroPointValue(Word zp) const {
    const auto byte = static_cast<std::uint8_t>(zp);
    return is_signed ? std::int64_t{static_cast<std::int8_t>(byte)} : std::int64_t{byte};
  }

  // value * 2^-j + zp = t/2 exactly (t = twice the target: odd is a .5 tie, even an integer):
  // scale 2^-j, value (t - 2 zp) * 2^(j-1), then the value and the scale each moved by the
  // steps (-1, 0 or +1 FP32 ulp). Axes (t, zp, j, value step, scale step); the parts below pick
  // their sets of each.
  TupleSet TiesPowerOfTwoScale(const WordSet& twice_targets, const WordSet& zero_points,
                               const WordSet& exponents, const WordSet& steps) const {
    Boxes axes = Boxes::Product({twice_targets, zero_points, exponents, steps, steps});
    const TquantSets self = *this;
    const auto assemble = [self](const Point& a) {
      const std::int64_t n = SignedAxisValue(a[0]) - 2 * self.ZeroPointValue(a[1]);
      const int j = static_cast<int>(SignedAxisValue(a[2]));
      const std::uint32_t value = Fp32Of(n < 0, static_cast<std::uint64_t>(n < 0 ? -n : n), j - 1);
      const std::uint32_t scale = static_cast<std::uint32_t>(127 - j) << 23;
      return Inputs{Fp32Step(value, SignedAxisValue(a[3])), Fp32Step(scale, SignedAxisValue(a[4])),
                    a[1], 0};
    };
    const auto invert = [self](const Inputs& t, std::vector<Point>& out) {
      for (int scale_step = -1; scale_step <= 1; ++scale_step) {
        const std::uint32_t scale = Fp32Step(static_cast<std::uint32_t>(t[1]), -scale_step);
        const std::uint32_t field = scale >> 23;
        if ((scale & 0x7FFFFFU) != 0 || field == 0 || field >= 255) continue;
        const int j = 127 - static_cast<int>(field);
        for (int value_step = -1; value_step <= 1; ++value_step) {
          const std::uint32_t value = Fp32Step(static_cast<std::uint32_t>(t[0]), -value_step);
          std::optional<std::int64_t> n = 0;
          if ((value & 0x7FFFFFFFU) != 0) {
            const auto odd = OddDecomposition(value);
            if (!odd) continue;
            n = IntegerOf(odd->first, odd->second - (j - 1));
            if (!n) continue;
          }
          const std::int64_t twice = *n + 2 * self.ZeroPointValue(t[2]);
          out.push_back(Point{static_cast<Word>(twice), t[2], static_cast<Word>(std::int64_t{j}),
                              static_cast<Word>(std::int64_t{value_step}),
                              static_cast<Word>(std::int64_t{scale_step})});
        }
      }
    };
    return TupleSet::Mapped(std::move(axes), assemble, invert);
  }

  // Odd scales: scale m * 2^-j (m odd, 3 .. 2^24-1, j = -8..24), value q * 2^(j - h) (q odd,
  // |q| up to about 1200 / m), so value * scale = m * q / 2^h: a tie (h = 1) or an integer
  // (h = 0); then the value moved by the step. Axes (r, i, h, zp, j, value step) with m = 2r + 1
  // and q = -q_max + 2i, q_max = max(1, 1200 / m) | 1 (one box per small m).
  static std::int64_t QMax(std::int64_t m) { return std::max<std::int64_t>(1, 1200 / m) | 1; }
  TupleSet TiesOddScale(const WordSet& zp, const WordSet& step) const {
    std::vector<Box> boxes;
    const WordSet common_h = WordSet::Range(0, 1);
    const WordSet j = SignedRange(-8, 24);
    for (Word r = 1; 2 * r + 1 <= 1200; ++r) {
      const auto q_max = static_cast<Word>(QMax(static_cast<std::int64_t>(2 * r + 1)));
      boxes.push_back(Box{{WordSet::Points({r}), WordSet::Range(0, q_max), common_h, zp, j, step}});
    }
    boxes.push_back(Box{
        {WordSet::Range(600, (Word{1} << 23) - 1), WordSet::Range(0, 1), common_h, zp, j, step}});
    const auto assemble = [](const Point& a) {
      const std::int64_t m = 2 * static_cast<std::int64_t>(a[0]) + 1;
      const std::int64_t q = -QMax(m) + 2 * static_cast<std::int64_t>(a[1]);
      const int jj = static_cast<int>(SignedAxisValue(a[4]));
      const std::uint32_t value =
          Fp32Of(q < 0, static_cast<std::uint64_t>(q < 0 ? -q : q), jj - static_cast<int>(a[2]));
      const std::uint32_t scale = Fp32Of(false, static_cast<std::uint64_t>(m), -jj);
      return Inputs{Fp32Step(value, SignedAxisValue(a[5])), scale, a[3], 0};
    };
    const auto invert = [](const Inputs& t, std::vector<Point>& out) {
      const auto scale = OddDecomposition(t[1]);
      if (!scale || scale->first < 3) return;
      const std::int64_t m = scale->first;
      const int jj = -scale->second;
      for (int value_step = -1; value_step <= 1; ++value_step) {
        const auto value =
            OddDecomposition(Fp32Step(static_cast<std::uint32_t>(t[0]), -value_step));
        if (!value) continue;
        const int h = jj - value->second;
        if (h < 0 || h > 1) continue;
        const std::int64_t i = (value->first + QMax(m)) / 2;
        out.push_back(Point{static_cast<Word>((m - 1) / 2), static_cast<Word>(i),
                            static_cast<Word>(h), t[2], static_cast<Word>(std::int64_t{jj}),
                            static_cast<Word>(std::int64_t{value_step})});
      }
    };
    return TupleSet::Mapped(Boxes(std::move(boxes)), assemble, invert);
  }

  // Far outside: |value * scale| in [2^M, 2^(M+2)) for M = 9..60 (>= 512, beyond any zero point;
  // up to 2^60, so the wrapped low 8 bits still vary for the smaller M): scale exponent e any that
  // keeps both exponents normal, value exponent M - e, any fractions, either sign, any zero point.
  // Axes (M, e, value fraction, scale fraction, sign, zp), one box per M.
  TupleSet FarOutside() const {
    std::vector<Box> boxes;
    for (std::int64_t m = 9; m <= 60; ++m) {
      boxes.push_back(Box{
          {WordSet::Points({static_cast<Word>(m)}),
           SignedRange(std::max<std::int64_t>(-126, m - 127), std::min<std::int64_t>(127, m + 126)),
           WordSet::Range(0, 0x7FFFFF), WordSet::Range(0, 0x7FFFFF), WordSet::Range(0, 1),
           WordSet::Range(0, 255)}});
    }
    const auto assemble = [](const Point& a) {
      const std::int64_t e = SignedAxisValue(a[1]);
      const std::int64_t value_exponent = static_cast<std::int64_t>(a[0]) - e;
      const std::uint32_t value = FieldAndFraction(static_cast<std::uint32_t>(value_exponent + 127),
                                                   static_cast<std::uint32_t>(a[2])) |
                                  (a[4] != 0 ? 0x80000000U : 0U);
      const std::uint32_t scale =
          FieldAndFraction(static_cast<std::uint32_t>(e + 127), static_cast<std::uint32_t>(a[3]));
      return Inputs{value, scale, a[5], 0};
    };
    const auto invert = [](const Inputs& t, std::vector<Point>& out) {
      const std::int64_t value_exponent = static_cast<std::int64_t>((t[0] >> 23) & 0xFF) - 127;
      const std::int64_t e = static_cast<std::int64_t>((t[1] >> 23) & 0xFF) - 127;
      out.push_back(Point{static_cast<Word>(value_exponent + e), static_cast<Word>(e),
                          t[0] & 0x7FFFFF, t[1] & 0x7FFFFF, (t[0] >> 31) & 1, t[2]});
    };
    return TupleSet::Mapped(Boxes(std::move(boxes)), assemble, invert);
  }
};

// Every legal scale: positive, finite, non-zero FP32 (subnormals included).
WordSet AnyLegalScale() {
  return WordSet::Range(quantization::kSmallestScale, quantization::kLargestScale);
}

std::vector<SampleStrategy> TquantStrategies(TileDataType dst) {
  const TquantSets sets{RangeOf(dst), dst == TileDataType::S8};
  const WordSet zero_points = WordSet::Range(0, 255);
  // Specials: NaN (quiet and signaling, every payload), +/-Inf, +/-0, subnormal and extreme
  // values, with any legal scale (a subnormal value times a largest scale lands in the range).
  const WordSet subnormals = WithBothSigns(WordSet::Range(1, (1U << 23) - 1));
  const WordSet nan_payloads = WithBothSigns(WordSet::Range(0x7F800001U, 0x7FFFFFFFU));
  // The zero points at the destination's edges (-128, 127, 0 for S8; 0, 255 for U8), and all.
  std::vector<Word> edge_words;
  for (std::uint32_t w : sets.range.zero_point_edges) edge_words.push_back(w);
  const WordSet zp_edges = WordSet::Points(edge_words);
  // Twice a target near the range ends and zero (3 either side), or anywhere within 300.
  WordSet near_ends;
  for (const std::int64_t end :
       {std::int64_t{sets.range.minimum}, std::int64_t{sets.range.maximum}, std::int64_t{0}}) {
    near_ends = near_ends.Union(SignedRange(2 * (end - 3), 2 * (end + 3) + 1));
  }
  const WordSet anywhere =
      SignedRange(2 * (sets.range.minimum - 300), 2 * (sets.range.maximum + 300) + 1);
  const WordSet exact = SignedRange(0, 0);
  const WordSet stepped = SignedRange(-1, 1);
  const WordSet j_moderate = SignedRange(-8, 24);
  // The mapped (tie) strategies come first: the broad boxes after them would own their tuples.
  // Parts: exact ties (no ulp step) near the ends with edge zero points most, then anywhere,
  // then one ulp either side (the value, the scale or both), wide scale exponents last.
  return {
      {"affine_ties_and_integers_power_of_two_scale", 8,
       std::vector<WeightedSet>{
           {3, sets.TiesPowerOfTwoScale(near_ends, zp_edges, j_moderate, exact)},
           {2, sets.TiesPowerOfTwoScale(anywhere, zp_edges, j_moderate, exact)},
           {1, sets.TiesPowerOfTwoScale(anywhere, zero_points, j_moderate, exact)},
           {3, sets.TiesPowerOfTwoScale(near_ends, zp_edges, j_moderate, stepped)},
           {3, sets.TiesPowerOfTwoScale(anywhere, zero_points, SignedRange(-100, 100), stepped)}}},
      {"affine_ties_and_integers_odd_scale", 3,
       std::vector<WeightedSet>{{2, sets.TiesOddScale(zp_edges, exact)},
                                {1, sets.TiesOddScale(zero_points, exact)},
                                {2, sets.TiesOddScale(zero_points, stepped)}}},
      {"far_outside_range", 2, sets.FarOutside()},
      {"specials", 2,
       std::vector<WeightedSet>{{3, Boxes::Product({Fp32Specials(), AnyLegalScale(), zero_points})},
                                {2, Boxes::Product({subnormals, AnyLegalScale(), zero_points})},
                                {1, Boxes::Product({nan_payloads, AnyLegalScale(), zero_points})}}},
      // |value| in [2^-10, 2^10), scale in [2^-6, 2^7).
      {"random_in_and_around_range", 3,
       Boxes::Product(
           {Fields(127 - 10, 127 + 9, true), Fields(127 - 6, 127 + 6, false), zero_points})},
      // Any finite value, any positive normal scale, any zero point.
      {"random_finite", 2,
       Boxes::Product({Fields(0, 254, true), Fields(1, 254, false), zero_points})},
  };
}

}  // namespace

// ---- outcome classes (ptovec coverage): TileProfileQuantize, round(value * scale + zero_point)
// into S8/U8 ----

namespace {

enum TquantClass : unsigned {
  kNaN,
  kInf,
  kZero,
  kSubnormal,
  kExact,
  kInexact,
  kTie,
  kClamp,
  kWrap,
  kBackInRange,
  kPushedOut,
  kWideProduct,
  kAtMinimum,
  kAtMaximum,
  kNegativeIntoUnsigned
};

constexpr OwnClass kTquantClasses[] = {
    {"NaN value (NV)", "a NaN value"},
    {"Inf value", "+Inf or -Inf"},
    {"zero value", "+0 or -0"},
    {"subnormal value", "a subnormal FP32 value"},
    {"exact", "value * scale + zero_point is an integer in range"},
    {"inexact in range", "rounded (NX) without leaving the range"},
    {"tie", "value * scale + zero_point is exactly an integer + 1/2"},
    {"Sat clamp", "value * scale + zero_point is outside the range, Sat on"},
    {"non-Sat wrap", "value * scale + zero_point is outside the range, Sat off"},
    {"zero point brings it into range",
     "value * scale is outside the destination range but value * scale + zero_point is in it"},
    {"zero point pushes it out of range",
     "value * scale is inside the destination range but value * scale + zero_point is not"},
    {"product wider than FP32",
     "value * scale needs more than 24 significant bits (one more rounding would change it)"},
    {"range end: minimum", "the result is the destination's minimum"},
    {"range end: maximum", "the result is the destination's maximum"},
    {"negative into unsigned", "value * scale + zero_point < 0 into U8"},
};

// The classes of the exact product p = value * scale against the range [lo, hi] of `dst` and
// the zero point zp; `outside` gets whether p + zp is outside the range.
ClassMask ProductClasses(TileDataType dst, const oracle::Dyadic& p, std::int64_t zp,
                         bool& outside) {
  const std::int64_t lo = IntegerTypeMinimum(dst);
  const std::int64_t hi = IntegerTypeMaximum(dst);
  ClassMask m = 0;
  const bool product_outside = oracle::DyadicCompare(p, oracle::DyadicFromInteger(lo)) < 0 ||
                               oracle::DyadicCompare(p, oracle::DyadicFromInteger(hi)) > 0;
  outside = oracle::DyadicCompare(p, oracle::DyadicFromInteger(lo - zp)) < 0 ||
            oracle::DyadicCompare(p, oracle::DyadicFromInteger(hi - zp)) > 0;
  if (product_outside && !outside) m |= ClassBit(kBackInRange);
  if (!product_outside && outside) m |= ClassBit(kPushedOut);
  if (p.significand != 0) {
    if (oracle::DyadicLowExponent(p) == -1) m |= ClassBit(kTie);
    if (oracle::BitLength(oracle::DyadicNormalized(p).significand) > 24) {
      m |= ClassBit(kWideProduct);
    }
  }
  if (dst == TileDataType::U8 && oracle::DyadicCompare(p, oracle::DyadicFromInteger(-zp)) < 0) {
    m |= ClassBit(kNegativeIntoUnsigned);
  }
  return m;
}

// The classes of result r under control c of a finite (or not) value whose p + zp is `outside`.
ClassMask TquantResultClasses(TileDataType dst, bool finite, bool outside,
                              NumericExecutionControl control, Encoded r) {
  ClassMask m = 0;
  if (finite && !outside) m |= ClassBit((r.status & oracle::kStatusNX) != 0 ? kInexact : kExact);
  if (finite && outside) m |= ClassBit(control.saturating ? kClamp : kWrap);
  const std::int64_t v = IntegerWordValue(dst, r.word);
  if (v == IntegerTypeMinimum(dst)) m |= ClassBit(kAtMinimum);
  if (v == IntegerTypeMaximum(dst)) m |= ClassBit(kAtMaximum);
  return m;
}

void ClassifyTquant(TileDataType dst, const Inputs& in,
                    std::span<const NumericExecutionControl> controls, const Encoded* expected,
                    ClassMask* out) {
  ClassMask common = SpecialValueClasses(oracle::TileNumericValueClass(TileDataType::FP32, in[0]),
                                         {kNaN, kInf, kZero, kSubnormal});
  const bool finite = oracle::TileNumericValueIsFinite(TileDataType::FP32, in[0]);
  bool outside = false;
  if (finite) {
    const oracle::Dyadic p =
        oracle::DyadicProduct(oracle::DyadicFromFiniteCode(TileDataType::FP32, in[0]),
                              oracle::DyadicFromFiniteCode(TileDataType::FP32, in[1]));
    common |= ProductClasses(dst, p, IntegerWordValue(dst, in[2]), outside);
  }
  for (std::size_t c = 0; c < controls.size(); ++c) {
    out[c] = common | TquantResultClasses(dst, finite, outside, controls[c], expected[c]);
  }
}

}  // namespace

OutcomeClassTable TquantOutcomeClasses(TypePair pair) {
  return MakeOutcomeClassTable(kTquantClasses, std::bind_front(ClassifyTquant, pair.dst));
}

OpDef MakeTquantOp() {
  OpDef op;
  op.name = "tquant";
  op.instruction = "TQUANT";
  op.seed_function = "TileProfileQuantize";
  op.seed_source = "003_33e68b274ac7ab62.txt lines 105-149";
  op.summary =
      "TQUANT: round(value * scale + zero_point) of an FP32 value to S8/U8 under the mode; Sat "
      "clamps (no OF), non-Sat wraps; NaN gives 0 with NV, +/-Inf the range end with OF|NX";
  op.slots = {
      {"value", SlotRole::Source, TileDataType::FP32,
       "the fp32 value (any code: NaN, Inf, zeros and subnormals included)"},
      {"scale", SlotRole::Fixed, TileDataType::FP32,
       "positive finite non-zero fp32 scale (0x00000001..0x7f7fffff, subnormals allowed)"},
      {"zero_point", SlotRole::Destination, TileDataType::FP32,
       "the zero point, a value of the destination type (any s8/u8 code)"},
  };
  op.uses_controls = true;
  op.legal_pairs = {{TileDataType::FP32, TileDataType::S8}, {TileDataType::FP32, TileDataType::U8}};
  op.default_suite_pairs = op.legal_pairs;
  op.evaluate = EvaluateTquant;
  op.evaluate_reference = EvaluateTquantReference;
  op.evaluate_model = EvaluateTquantModel;
  op.evaluate_model_reference = EvaluateTquantModelReference;
  op.check_domain = [](TypePair pair, const Inputs& in) -> std::optional<std::string> {
    if (auto problem = quantization::CheckScale("tquant", in[1])) return problem;
    return quantization::CheckByteWord("tquant", "zero_point", in[2], pair.dst);
  };
  op.plan = [](TypePair pair) { return DomainPlan::Sampled(TquantStrategies(pair.dst)); };
  op.outcome_classes = TquantOutcomeClasses;
  return op;
}

}  // namespace ptovec::generator
