// Op `tdequant`: TileProfileDequantize (TDEQUANT, seed 003 lines 151-172): (value - zero_point) *
// scale of an S8 or U8 value and zero point with an FP32 scale, encoded as FP32 by
// ReferenceFP32FiniteEncoding under the mode (spec-notes section 5 items 1, 7; Sat is ignored).
//
// Default domain: for each scale of a small seeded set (kScaleCount scales, at least one from
// every named strategy), every value x every zero point (65,536 pairs), scale-major, then value,
// then zero point. at(i) decodes i directly, so nothing of size 65,536 * K is materialized.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <span>
#include <stdexcept>
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

/// Scales per (src, dst) pair in the default domain.
constexpr std::size_t kScaleCount = 12;
/// Value x zero point pairs per scale.
constexpr std::uint64_t kPairsPerScale = 65536;

Encoded EvaluateTdequant(TypePair pair, const Inputs& in, NumericExecutionControl control) {
  const Encoded r =
      oracle::FastTileProfileDequantize(in[0], in[1], in[2], pair.src, pair.dst, control);
  return {oracle::LowBits(r.word, Format(pair.dst).width), r.status};
}

Encoded EvaluateTdequantReference(TypePair pair, const Inputs& in,
                                  NumericExecutionControl control) {
  const Encoded r = oracle::TileProfileDequantize(in[0], in[1], in[2], pair.src, pair.dst, control);
  return {oracle::LowBits(r.word, Format(pair.dst).width), r.status};
}

// A behaviour model's TDEQUANT: the seed's exact (value - zero_point) * scale (lines 164-171),
// encoded by the model's FP32 encoder under {mode, Sat off}: the profile ignores Sat here
// (ReferenceFP32FiniteEncoding, spec-notes 5.7), so ieee-overflow applies under either Sat and
// no-saturation never does. A zero product takes the scale's sign (signed-zero: the difference
// is an integer, +0, times the scale).
oracle::Dyadic DequantDyadic(TypePair pair, const Inputs& in) {
  const auto integer = [&](Word w) {
    return static_cast<std::int64_t>(oracle::NormalizeTileInteger(w, pair.src));
  };
  return oracle::DyadicProduct(oracle::DyadicFromInteger(integer(in[0]) - integer(in[2])),
                               oracle::DyadicFromFiniteCode(TileDataType::FP32, in[1]));
}

bool ScaleNegative(const Inputs& in) { return ((in[1] >> 31) & 1) != 0; }

oracle::ModelAnswer EvaluateTdequantModel(TypePair pair, const Inputs& in,
                                          NumericExecutionControl control,
                                          const oracle::Behaviour& behaviour) {
  (void)EvaluateTdequant(pair, in, control);  // the seed's domain assertions
  return oracle::FastModelMatrixFloatingEncoding(DequantDyadic(pair, in), ScaleNegative(in),
                                                 TileDataType::FP32, {control.rounding_mode, false},
                                                 behaviour);
}

oracle::ModelAnswer EvaluateTdequantModelReference(TypePair pair, const Inputs& in,
                                                   NumericExecutionControl control,
                                                   const oracle::Behaviour& behaviour) {
  (void)EvaluateTdequantReference(pair, in, control);
  const oracle::Real value = oracle::Real(oracle::ReferenceIntegerValue(in[0], pair.src) -
                                          oracle::ReferenceIntegerValue(in[2], pair.src)) *
                             oracle::ReferenceFP32FiniteValue(in[1]);
  return oracle::ModelMatrixFloatingEncoding(value, ScaleNegative(in), TileDataType::FP32,
                                             {control.rounding_mode, false}, behaviour);
}

using quantization::FieldAndFraction;

// Positive FP32 words with exponent fields lo..hi and any fraction.
WordSet Fields(std::uint32_t lo, std::uint32_t hi) {
  return WordSet::Range(FieldAndFraction(lo, 0), FieldAndFraction(hi, 0x7FFFFF));
}

// Positive FP32 words with exponent fields lo..hi and an odd fraction f = 2 * half + 1 with
// half < halves, as a mapped set: axes (field, half).
TupleSet OddFractions(std::uint32_t lo, std::uint32_t hi, std::uint32_t halves,
                      const std::vector<std::uint32_t>& extra) {
  std::vector<Box> boxes = {Box{{WordSet::Range(lo, hi), WordSet::Range(0, halves - 1)}}};
  // Extra words as points of their own (field 0 marks them; no field 0 is in lo..hi).
  std::vector<Word> extra_words(extra.begin(), extra.end());
  if (!extra.empty()) boxes.push_back(Box{{WordSet::Points({0}), WordSet::Points(extra_words)}});
  const auto assemble = [](const Point& a) {
    const Word word = a[0] == 0 ? a[1]
                                : FieldAndFraction(static_cast<std::uint32_t>(a[0]),
                                                   2 * static_cast<std::uint32_t>(a[1]) + 1);
    return Inputs{word, 0, 0, 0};
  };
  const auto invert = [](const Inputs& t, std::vector<Point>& out) {
    out.push_back(Point{0, t[0]});
    out.push_back(Point{(t[0] >> 23) & 0xFF, ((t[0] & 0x7FFFFF) - 1) / 2});
  };
  return TupleSet::Mapped(Boxes(std::move(boxes)), assemble, invert);
}

// The named scale strategies. Every one yields only legal scales (positive finite non-zero) and
// has far more than kScaleCount distinct words, so one distinct draw from each always exists.
std::vector<SampleStrategy> ScaleStrategies() {
  // Exact powers of two 2^-16 .. 2^16: products with |v - zp| <= 255 are then exact. (The
  // extreme powers are in scale_subnormal and scale_largest_overflow.)
  std::vector<Word> powers;
  for (int e = -16; e <= 16; ++e) powers.push_back(static_cast<Word>(e + 127) << 23);
  // 24 significant bits (fraction all ones, or odd): most products need rounding.
  std::vector<Word> all_ones;
  for (std::uint32_t field = 100; field < 155; ++field) {
    all_ones.push_back(FieldAndFraction(field, 0x7FFFFF));
  }
  std::vector<std::uint32_t> full_extra = {0x3FFFFFFFU, 0x4B7FFFFFU, 0x3DCCCCCDU, 0x3EAAAAABU};
  // Significand m = 2^23 + f with f odd and 3 * m < 2^25: 3 * m is odd with 25 bits, so
  // (v - zp) = +/-3 * 2^k (k = 0..6) gives an exact tie between two FP32 neighbours.
  return {
      {"scale_power_of_two", 2, OneSlot(WordSet::Points(powers))},
      {"scale_full_significand", 2, OddFractions(100, 154, 1U << 22, full_extra)},
      {"scale_exact_ties", 2,
       OddFractions(64, 190, ((1U << 23) / 3 - 1) / 2, {0x3F800001U, 0x3F800003U, 0x40400001U})},
      // The largest scales: 255 * scale >= 2^128, so the largest |v - zp| overflows to infinity
      // (exponent fields 248..254: scale >= 2^121).
      {"scale_largest_overflow", 1, OneSlot(Fields(248, 254))},
      // FP32 subnormal scales: every product is a multiple of 2^-149, subnormal or small normal.
      {"scale_subnormal", 1, OneSlot(WordSet::Range(1, (1U << 23) - 1))},
      // The smallest normals (2^-126 .. 2^-122): small products are subnormal, larger ones normal.
      {"scale_tiny_normal", 1, OneSlot(Fields(1, 4))},
      // Random positive normals.
      {"scale_random_normal", 3, OneSlot(Fields(1, 254))},
  };
}

// The scale set of one pair: kScaleCount distinct scales from the strategies, their quotas
// following the weights (which add up to kScaleCount, so each strategy gives its weight).
std::vector<std::uint32_t> ScaleSet(std::uint64_t seed) {
  const InputSet sample = SampledSet(ScaleStrategies(), seed, kScaleCount);
  std::vector<std::uint32_t> scales;
  for (std::uint64_t i = 0; i < sample.count; ++i) {
    scales.push_back(static_cast<std::uint32_t>(sample.at(i)[0]));
  }
  if (scales.size() != kScaleCount) {
    throw std::logic_error("tdequant: the scale strategies produced " +
                           std::to_string(scales.size()) + " distinct scales, expected " +
                           std::to_string(kScaleCount));
  }
  for (std::uint32_t s : scales) {
    if (!quantization::ScaleIsLegal(s)) throw std::logic_error("tdequant: illegal scale drawn");
  }
  return scales;
}

InputSet TdequantDomain(const OpDef& op, TypePair pair, const SamplingOptions& options) {
  auto scales = std::make_shared<const std::vector<std::uint32_t>>(
      ScaleSet(DerivedSeed(options.seed, op, pair)));
  InputSet set;
  set.count = kPairsPerScale * scales->size();
  set.kind = "sampled";  // values x zero points exhaustive, scales sampled
  set.at = [scales](std::uint64_t i) {
    return Inputs{(i >> 8) & 0xFF, (*scales)[static_cast<std::size_t>(i >> 16)], i & 0xFF, 0};
  };
  return set;
}

// The input space's strategies: each named scale strategy with a value and a zero point that are
// an edge code (0, 1, 0x7f, 0x80, 0xff) a quarter of the time, else uniform codes.
std::vector<Strategy> TdequantStrategies() {
  const auto code = [] {
    return rc::gen::weightedOneOf<std::uint32_t>(
        {{1, rc::gen::element<std::uint32_t>(0x00, 0x01, 0x7F, 0x80, 0xFF)},
         {3, rc::gen::inRange<std::uint32_t>(0, 256)}});
  };
  std::vector<Strategy> out;
  for (const Strategy& scale : StrategyGens(ScaleStrategies())) {
    out.push_back({scale.name, scale.weight,
                   rc::gen::apply(
                       [](std::uint32_t value, const Inputs& s, std::uint32_t zp) {
                         return Inputs{value, s[0], zp, 0};
                       },
                       code(), scale.gen, code())});
  }
  return out;
}

}  // namespace

// ---- outcome classes (ptovec coverage): TileProfileDequantize, (value - zero_point) * scale
// encoded as FP32 ----

namespace {

enum TdequantClass : unsigned {
  kZeroDifference,
  kNegativeDifference,
  kWideDifference,
  kExactNormal,
  kExactSubnormal,
  kInexact,
  kTieUp,
  kTieDown,
  kOverflow,
  kTinyInexact,
  kSubnormalScale,
  kValueAtMinimum,
  kValueAtMaximum,
  kZeroPointAtMinimum,
  kZeroPointAtMaximum,
};

constexpr OwnClass kTdequantClasses[] = {
    {"zero difference", "value = zero_point: the result is +0"},
    {"negative difference", "value < zero_point"},
    {"difference beyond the source type",
     "value - zero_point is outside the source type's range (it would wrap in 8 bits)"},
    {"exact normal", "the result is a normal FP32 and NX is clear"},
    {"exact subnormal", "the result is a subnormal FP32 and NX is clear"},
    {"inexact", "the product is rounded to FP32 (NX without OF)"},
    {"exact tie rounded up",
     "the product is halfway between two FP32 values and rounds away "
     "from zero"},
    {"exact tie rounded down",
     "the product is halfway between two FP32 values and rounds "
     "toward zero"},
    {"overflow to Inf (OF)", "OF is raised"},
    {"tiny and inexact (UF)", "UF is raised"},
    {"subnormal scale", "the scale is an FP32 subnormal"},
    {"value at the minimum", "the value is the source type's minimum (-128 or 0)"},
    {"value at the maximum", "the value is the source type's maximum (127 or 255)"},
    {"zero point at the minimum", "the zero point is the source type's minimum (-128 or 0)"},
    {"zero point at the maximum", "the zero point is the source type's maximum (127 or 255)"},
};

// The classes of the input: the difference value - zero_point, the scale, the range ends.
ClassMask TdequantInputClasses(TileDataType src, const Inputs& in, std::int64_t diff) {
  ClassMask m = 0;
  if (diff == 0) m |= ClassBit(kZeroDifference);
  if (diff < 0) m |= ClassBit(kNegativeDifference);
  const std::int64_t lo = IntegerTypeMinimum(src);
  const std::int64_t hi = IntegerTypeMaximum(src);
  if (diff < lo || diff > hi) m |= ClassBit(kWideDifference);
  if (oracle::TileNumericValueClass(TileDataType::FP32, in[1]) ==
      oracle::NumericValueClass::PositiveSubnormal) {
    m |= ClassBit(kSubnormalScale);
  }
  if (IntegerWordValue(src, in[0]) == lo) m |= ClassBit(kValueAtMinimum);
  if (IntegerWordValue(src, in[0]) == hi) m |= ClassBit(kValueAtMaximum);
  if (IntegerWordValue(src, in[2]) == lo) m |= ClassBit(kZeroPointAtMinimum);
  if (IntegerWordValue(src, in[2]) == hi) m |= ClassBit(kZeroPointAtMaximum);
  return m;
}

// Whether the non-zero product p lies halfway between two FP32 values.
bool IsFp32Tie(const oracle::Dyadic& p) {
  if (p.significand == 0) return false;
  // The FP32 quantum at p: 2^(top - 23) for a normal, 2^-149 below 2^-126.
  const int quantum = std::max(oracle::DyadicLeadingExponent(p) - 23, -149);
  return oracle::DyadicLowExponent(p) == quantum - 1;
}

// The classes of FP32 result r of the product p (a tie when `tie`).
ClassMask TdequantResultClasses(const oracle::Dyadic& p, bool tie, Encoded r) {
  ClassMask m = 0;
  const oracle::NumericValueClass vc = oracle::TileNumericValueClass(TileDataType::FP32, r.word);
  const bool exact = (r.status & oracle::kStatusNX) == 0;
  if (exact && (vc == oracle::NumericValueClass::PositiveNormal ||
                vc == oracle::NumericValueClass::NegativeNormal)) {
    m |= ClassBit(kExactNormal);
  }
  if (exact && (vc == oracle::NumericValueClass::PositiveSubnormal ||
                vc == oracle::NumericValueClass::NegativeSubnormal)) {
    m |= ClassBit(kExactSubnormal);
  }
  if (!exact && (r.status & oracle::kStatusOF) == 0) m |= ClassBit(kInexact);
  if ((r.status & oracle::kStatusOF) != 0) m |= ClassBit(kOverflow);
  if ((r.status & oracle::kStatusUF) != 0) m |= ClassBit(kTinyInexact);
  if (tie && oracle::TileNumericValueIsFinite(TileDataType::FP32, r.word)) {
    const int cmp =
        oracle::DyadicCompareMagnitude(oracle::DyadicFromFiniteCode(TileDataType::FP32, r.word), p);
    m |= ClassBit(cmp > 0 ? kTieUp : kTieDown);
  }
  return m;
}

void ClassifyTdequant(TileDataType src, const Inputs& in,
                      std::span<const NumericExecutionControl> controls, const Encoded* expected,
                      ClassMask* out) {
  const std::int64_t diff = IntegerWordValue(src, in[0]) - IntegerWordValue(src, in[2]);
  const ClassMask common = TdequantInputClasses(src, in, diff);
  const oracle::Dyadic p = oracle::DyadicProduct(
      oracle::DyadicFromInteger(diff), oracle::DyadicFromFiniteCode(TileDataType::FP32, in[1]));
  const bool tie = IsFp32Tie(p);
  for (std::size_t c = 0; c < controls.size(); ++c) {
    out[c] = common | TdequantResultClasses(p, tie, expected[c]);
  }
}

}  // namespace

OutcomeClassTable TdequantOutcomeClasses(TypePair pair) {
  return MakeOutcomeClassTable(kTdequantClasses, std::bind_front(ClassifyTdequant, pair.src));
}

OpDef MakeTdequantOp() {
  OpDef op;
  op.name = "tdequant";
  op.instruction = "TDEQUANT";
  op.seed_function = "TileProfileDequantize";
  op.seed_source =
      "003_33e68b274ac7ab62.txt lines 151-172 (ReferenceFP32FiniteEncoding lines 42-103)";
  op.summary =
      "TDEQUANT: (value - zero_point) * scale of S8/U8 inputs encoded as FP32 under the mode "
      "(|x| >= 2^128 or a carry past the largest finite gives +/-Inf with OF|NX in every mode); "
      "Sat has no effect";
  op.slots = {
      {"value", SlotRole::Source, TileDataType::FP32,
       "the quantized value (any s8/u8 code); default domain: every code"},
      {"scale", SlotRole::Fixed, TileDataType::FP32,
       "positive finite non-zero fp32 scale (0x00000001..0x7f7fffff, subnormals allowed); default "
       "domain: 12 seeded scales per pair, at least one from each named strategy: a power of two, "
       "a 24-significant-bit scale (products need rounding), a scale giving exact ties, a largest "
       "scale whose products overflow to infinity (>= 2^121), a subnormal, one of the smallest "
       "normals, a random positive normal"},
      {"zero_point", SlotRole::Source, TileDataType::FP32,
       "the zero point, a value of the source type (any s8/u8 code); default domain: every code"},
  };
  op.uses_controls = true;
  op.legal_pairs = {{TileDataType::S8, TileDataType::FP32}, {TileDataType::U8, TileDataType::FP32}};
  op.default_suite_pairs = op.legal_pairs;
  op.evaluate = EvaluateTdequant;
  op.evaluate_reference = EvaluateTdequantReference;
  op.evaluate_model = EvaluateTdequantModel;
  op.evaluate_model_reference = EvaluateTdequantModelReference;
  op.check_domain = [](TypePair pair, const Inputs& in) -> std::optional<std::string> {
    if (auto problem = quantization::CheckByteWord("tdequant", "value", in[0], pair.src)) {
      return problem;
    }
    if (auto problem = quantization::CheckScale("tdequant", in[1])) return problem;
    return quantization::CheckByteWord("tdequant", "zero_point", in[2], pair.src);
  };
  op.plan = [](TypePair) { return DomainPlan::Custom(TdequantDomain, TdequantStrategies); };
  op.outcome_classes = TdequantOutcomeClasses;
  return op;
}

}  // namespace ptovec::generator
