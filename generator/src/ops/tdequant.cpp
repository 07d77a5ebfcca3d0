// Op `tdequant`: TileProfileDequantize (TDEQUANT, seed 003 lines 151-172): (value - zero_point) *
// scale of an S8 or U8 value and zero point with an FP32 scale, encoded as FP32 by
// ReferenceFP32FiniteEncoding under the mode (spec-notes section 5 items 1, 7; Sat is ignored).
//
// Default domain: for each scale of a small seeded set (kScaleCount scales, at least one from
// every named strategy), every value x every zero point (65,536 pairs), scale-major, then value,
// then zero point. at(i) decodes i directly, so nothing of size 65,536 * K is materialized.
#include <algorithm>
#include <memory>
#include <stdexcept>

#include "ptovec/generator/domains.hpp"
#include "ptovec/generator/ops.hpp"
#include "ptovec/oracle/fast.hpp"
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
  const Encoded r =
      oracle::TileProfileDequantize(in[0], in[1], in[2], pair.src, pair.dst, control);
  return {oracle::LowBits(r.word, Format(pair.dst).width), r.status};
}

std::uint32_t FieldAndFraction(std::uint32_t field, std::uint32_t fraction) {
  return (field << 23) | (fraction & 0x7FFFFFU);
}

rc::Gen<std::uint32_t> RandomFraction() { return rc::gen::inRange<std::uint32_t>(0, 1U << 23); }

// The named scale strategies. Every one yields only legal scales (positive finite non-zero) and
// has far more than kScaleCount distinct words, so one distinct draw from each always exists.
std::vector<Strategy> ScaleStrategies() {
  // Exact powers of two 2^e: mostly moderate, sometimes anywhere in -149..127 (subnormal powers
  // included). Products with |v - zp| <= 255 are then exact unless they overflow.
  const rc::Gen<std::uint32_t> power_of_two = rc::gen::map(
      rc::gen::weightedOneOf<int>({{3, rc::gen::inRange(-16, 17)}, {1, rc::gen::inRange(-149, 128)}}),
      [](int e) -> std::uint32_t {
        if (e >= -126) return static_cast<std::uint32_t>(e + 127) << 23;
        return std::uint32_t{1} << (e + 149);  // subnormal power of two
      });
  // 24 significant bits (fraction all ones, or odd): most products need rounding.
  const rc::Gen<std::uint32_t> full_significand = rc::gen::weightedOneOf<std::uint32_t>({
      {1, rc::gen::element<std::uint32_t>(0x3FFFFFFFU, 0x4B7FFFFFU, 0x3DCCCCCDU, 0x3EAAAAABU)},
      {1, rc::gen::map(rc::gen::inRange<std::uint32_t>(100, 155),
                       [](std::uint32_t field) { return FieldAndFraction(field, 0x7FFFFF); })},
      {2, rc::gen::apply(
              [](std::uint32_t field, std::uint32_t fraction) {
                return FieldAndFraction(field, fraction | 1U);
              },
              rc::gen::inRange<std::uint32_t>(100, 155), RandomFraction())},
  });
  // Significand m = 2^23 + f with f odd and 3 * m < 2^25: 3 * m is odd with 25 bits, so
  // (v - zp) = +/-3 * 2^k (k = 0..6) gives an exact tie between two FP32 neighbours.
  const rc::Gen<std::uint32_t> ties = rc::gen::weightedOneOf<std::uint32_t>({
      {1, rc::gen::element<std::uint32_t>(0x3F800001U, 0x3F800003U, 0x40400001U)},
      {3, rc::gen::apply(
              [](std::uint32_t field, std::uint32_t half) {
                return FieldAndFraction(field, 2 * half + 1);
              },
              rc::gen::inRange<std::uint32_t>(64, 191),
              rc::gen::inRange<std::uint32_t>(0, ((1U << 23) / 3 - 1) / 2))},
  });
  // The largest scales: 255 * scale >= 2^128, so the largest |v - zp| overflows to infinity
  // (exponent fields 248..254: scale >= 2^121).
  const rc::Gen<std::uint32_t> largest = rc::gen::weightedOneOf<std::uint32_t>({
      {1, rc::gen::element<std::uint32_t>(0x7F7FFFFFU, 0x7F000000U, 0x7E800000U)},
      {1, rc::gen::apply(FieldAndFraction, rc::gen::inRange<std::uint32_t>(248, 255),
                         RandomFraction())},
  });
  // FP32 subnormal scales: every product is a multiple of 2^-149, subnormal or small normal.
  const rc::Gen<std::uint32_t> subnormal = rc::gen::weightedOneOf<std::uint32_t>({
      {1, rc::gen::element<std::uint32_t>(0x00000001U, 0x00400000U, 0x007FFFFFU)},
      {1, rc::gen::inRange<std::uint32_t>(1, 1U << 23)},
  });
  // The smallest normals (2^-126 .. 2^-122): small products are subnormal, larger ones normal.
  const rc::Gen<std::uint32_t> tiny_normal = rc::gen::weightedOneOf<std::uint32_t>({
      {1, rc::gen::just<std::uint32_t>(0x00800000U)},
      {2, rc::gen::apply(FieldAndFraction, rc::gen::inRange<std::uint32_t>(1, 5),
                         RandomFraction())},
  });
  // Random positive normals.
  const rc::Gen<std::uint32_t> random_normal =
      rc::gen::apply(FieldAndFraction, rc::gen::inRange<std::uint32_t>(1, 255), RandomFraction());
  return {
      {"scale_power_of_two", 2, OneSlot(power_of_two)},
      {"scale_full_significand", 2, OneSlot(full_significand)},
      {"scale_exact_ties", 2, OneSlot(ties)},
      {"scale_largest_overflow", 1, OneSlot(largest)},
      {"scale_subnormal", 1, OneSlot(subnormal)},
      {"scale_tiny_normal", 1, OneSlot(tiny_normal)},
      {"scale_random_normal", 3, OneSlot(random_normal)},
  };
}

std::uint64_t SubSeed(std::uint64_t seed, std::uint64_t k) {
  std::uint64_t z = seed + 0x9E3779B97F4A7C15ULL * (k + 1);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
  return z ^ (z >> 31);
}

// The scale set of one pair: first one distinct draw from every strategy (each from its own
// sub-seed), then distinct draws from the weighted mix until kScaleCount. Deterministic in seed.
std::vector<std::uint32_t> ScaleSet(std::uint64_t seed) {
  const std::vector<Strategy> strategies = ScaleStrategies();
  std::vector<std::uint32_t> scales;
  // Appends the draws not yet in the set, in order, until the set has `limit` scales.
  const auto add_new = [&scales](const std::vector<Inputs>& draws, std::size_t limit) {
    for (const Inputs& d : draws) {
      if (scales.size() >= limit) return;
      const auto w = static_cast<std::uint32_t>(d[0]);
      if (std::find(scales.begin(), scales.end(), w) == scales.end()) scales.push_back(w);
    }
  };
  for (std::size_t k = 0; k < strategies.size(); ++k) {
    const std::size_t before = scales.size();
    add_new(SampleUnique({strategies[k]}, SubSeed(seed, k), strategies.size() + 1),
                  before + 1);
  }
  add_new(SampleUnique(strategies, seed, kScaleCount + strategies.size()), kScaleCount);
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

InputSet TdequantDomain(TypePair pair, const SamplingOptions& options) {
  const OpDef& op = *FindOp("tdequant");
  auto scales =
      std::make_shared<const std::vector<std::uint32_t>>(ScaleSet(DerivedSeed(options.seed, op, pair)));
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
  for (const Strategy& scale : ScaleStrategies()) {
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

OpDef MakeTdequantOp() {
  OpDef op;
  op.name = "tdequant";
  op.instruction = "TDEQUANT";
  op.seed_function = "TileProfileDequantize";
  op.seed_source = "003_33e68b274ac7ab62.txt lines 151-172 (ReferenceFP32FiniteEncoding lines 42-103)";
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
  op.check_domain = [](TypePair pair, const Inputs& in) -> std::optional<std::string> {
    if (auto problem = quantization::CheckByteWord("tdequant", "value", in[0], pair.src)) {
      return problem;
    }
    if (auto problem = quantization::CheckScale("tdequant", in[1])) return problem;
    return quantization::CheckByteWord("tdequant", "zero_point", in[2], pair.src);
  };
  op.domain = TdequantDomain;
  op.domain_count = [](TypePair pair, const SamplingOptions& options) -> std::uint64_t {
    return TdequantDomain(pair, options).count;  // builds only the 12-scale set
  };
  op.input_space = [](TypePair pair) {
    return InputSpace(*FindOp("tdequant"), pair, TdequantStrategies());
  };
  return op;
}

}  // namespace ptovec::generator
