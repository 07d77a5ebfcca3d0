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
#include <cstdint>

#include "ptovec/generator/domains.hpp"
#include "ptovec/generator/ops.hpp"
#include "ptovec/oracle/fast.hpp"
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

Encoded EvaluateTquantReference(TypePair pair, const Inputs& in,
                                NumericExecutionControl control) {
  const Encoded r = oracle::TileProfileQuantize(in[0], in[1], in[2], pair.src, pair.dst, control);
  return {oracle::LowBits(r.word, Format(pair.dst).width), r.status};
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

std::uint32_t FieldAndFraction(std::uint32_t field, std::uint32_t fraction) {
  return (field << 23) | (fraction & 0x7FFFFFU);
}

rc::Gen<std::uint32_t> RandomFraction() { return rc::gen::inRange<std::uint32_t>(0, 1U << 23); }

// Zero points: an edge of the destination twice as often as a uniformly random code.
rc::Gen<std::uint32_t> ZeroPoint(const DestinationRange& range) {
  return rc::gen::weightedOneOf<std::uint32_t>({
      {2, rc::gen::elementOf(range.zero_point_edges)},
      {1, rc::gen::inRange<std::uint32_t>(0, 256)},
  });
}

// Any legal scale: powers of two, random normals, the largest scales and subnormals.
rc::Gen<std::uint32_t> AnyLegalScale() {
  return rc::gen::weightedOneOf<std::uint32_t>({
      {2, rc::gen::map(rc::gen::inRange(-16, 17),
                       [](int e) { return static_cast<std::uint32_t>(127 + e) << 23; })},
      {2, rc::gen::apply(FieldAndFraction, rc::gen::inRange<std::uint32_t>(1, 255),
                         RandomFraction())},
      {1, rc::gen::weightedOneOf<std::uint32_t>(
              {{1, rc::gen::element<std::uint32_t>(0x7F7FFFFFU, 0x7F000000U)},
               {1, rc::gen::apply(FieldAndFraction, rc::gen::inRange<std::uint32_t>(248, 255),
                                  RandomFraction())}})},
      {1, rc::gen::weightedOneOf<std::uint32_t>(
              {{1, rc::gen::element<std::uint32_t>(0x00000001U, 0x00400000U, 0x007FFFFFU)},
               {1, rc::gen::inRange<std::uint32_t>(1, 1U << 23)}})},
  });
}

// Twice an affine target: odd is a .5 tie, even an integer. Near the range ends and zero
// (k = -3..3, so just inside and just outside the range), or anywhere within 300 of the range.
rc::Gen<std::int64_t> TwiceTarget(const DestinationRange& range) {
  const std::vector<std::int64_t> ends = {range.minimum, range.maximum, 0};
  return rc::gen::weightedOneOf<std::int64_t>({
      {3, rc::gen::apply(
              [ends](std::size_t end, int k, int half) {
                return 2 * (ends[end] + k) + half;
              },
              rc::gen::inRange<std::size_t>(0, ends.size()), rc::gen::inRange(-3, 4),
              rc::gen::inRange(0, 2))},
      {2, rc::gen::inRange<std::int64_t>(2 * (range.minimum - 300), 2 * (range.maximum + 300) + 2)},
  });
}

// One ulp either side (or none): -1, 0, +1 with 0 twice as likely.
rc::Gen<int> UlpStep(int zero_weight) {
  return rc::gen::weightedOneOf<int>(
      {{zero_weight, rc::gen::just(0)}, {1, rc::gen::just(-1)}, {1, rc::gen::just(1)}});
}

std::vector<Strategy> TquantStrategies(TileDataType dst) {
  const DestinationRange range = RangeOf(dst);
  const bool is_signed = dst == TileDataType::S8;
  const auto zp_value = [is_signed](std::uint32_t zp) -> std::int64_t {
    const auto byte = static_cast<std::uint8_t>(zp);
    return is_signed ? std::int64_t{static_cast<std::int8_t>(byte)} : std::int64_t{byte};
  };

  // value * 2^-j + zp = t exactly (t an integer or a .5 tie): scale 2^-j, value (t - zp) * 2^j,
  // then the value (and sometimes the scale) moved one FP32 ulp either way.
  const rc::Gen<Inputs> ties_power_of_two = rc::gen::apply(
      [zp_value](std::int64_t twice_target, std::uint32_t zp, int j, int value_step,
                 int scale_step) {
        const std::int64_t n = twice_target - 2 * zp_value(zp);  // value * scale = n / 2
        const std::uint32_t value =
            Fp32Of(n < 0, static_cast<std::uint64_t>(n < 0 ? -n : n), j - 1);
        const std::uint32_t scale = static_cast<std::uint32_t>(127 - j) << 23;
        return Inputs{Fp32Step(value, value_step), Fp32Step(scale, scale_step), zp, 0};
      },
      TwiceTarget(range), ZeroPoint(range),
      rc::gen::weightedOneOf<int>({{3, rc::gen::inRange(-8, 25)}, {1, rc::gen::inRange(-100, 101)}}),
      UlpStep(2), UlpStep(6));

  // Odd scales: scale m * 2^-j (m odd, up to 24 bits), value q * 2^(j - h) (q odd), so
  // value * scale = m * q / 2^h: a tie (h = 1) or an integer (h = 0); then value +/- 1 ulp.
  const rc::Gen<Inputs> ties_odd_scale = rc::gen::apply(
      [](std::uint32_t m, std::uint32_t q_draw, int h, std::uint32_t zp, int j, int value_step) {
        const std::uint32_t q_max = std::max<std::uint32_t>(1, 1200 / m) | 1U;
        const std::int64_t q = -static_cast<std::int64_t>(q_max) + 2 * (q_draw % (q_max + 1));
        const std::uint32_t value =
            Fp32Of(q < 0, static_cast<std::uint64_t>(q < 0 ? -q : q), j - h);
        const std::uint32_t scale = Fp32Of(false, m, -j);
        return Inputs{Fp32Step(value, value_step), scale, zp, 0};
      },
      rc::gen::weightedOneOf<std::uint32_t>(
          {{3, rc::gen::map(rc::gen::inRange<std::uint32_t>(1, 2048),
                            [](std::uint32_t r) { return 2 * r + 1; })},
           {1, rc::gen::map(rc::gen::inRange<std::uint32_t>(1U << 11, 1U << 23),
                            [](std::uint32_t r) { return 2 * r + 1; })}}),
      rc::gen::arbitrary<std::uint32_t>(), rc::gen::inRange(0, 2), ZeroPoint(range),
      rc::gen::inRange(-8, 25), UlpStep(2));

  // Far outside: |value * scale| in [2^M, 2^(M+2)) with M >= 9 (>= 512, beyond any zero point),
  // mostly below 2^33 so the wrapped low 8 bits still vary.
  const rc::Gen<Inputs> far_outside = rc::gen::apply(
      [](int m, std::uint32_t split, std::uint32_t value_fraction, std::uint32_t scale_fraction,
         bool negative, std::uint32_t zp) {
        const int lo = std::max(-126, m - 127);
        const int hi = std::min(127, m + 126);
        const int scale_exponent = lo + static_cast<int>(split % static_cast<std::uint32_t>(hi - lo + 1));
        const int value_exponent = m - scale_exponent;
        const std::uint32_t value =
            FieldAndFraction(static_cast<std::uint32_t>(value_exponent + 127), value_fraction) |
            (negative ? 0x80000000U : 0U);
        const std::uint32_t scale =
            FieldAndFraction(static_cast<std::uint32_t>(scale_exponent + 127), scale_fraction);
        return Inputs{value, scale, zp, 0};
      },
      rc::gen::weightedOneOf<int>({{3, rc::gen::inRange(9, 33)}, {1, rc::gen::inRange(33, 254)}}),
      rc::gen::arbitrary<std::uint32_t>(), RandomFraction(), RandomFraction(),
      rc::gen::arbitrary<bool>(), ZeroPoint(range));

  // Specials: NaN (quiet and signaling), +/-Inf, +/-0, subnormal and extreme values, with any
  // legal scale (a subnormal value times a largest scale lands in the range).
  const rc::Gen<std::uint32_t> special_value = rc::gen::weightedOneOf<std::uint32_t>({
      {3, Fp32Specials()},
      {2, rc::gen::apply([](std::uint32_t f, bool negative) {
                           return f | (negative ? 0x80000000U : 0U);
                         },
                         rc::gen::inRange<std::uint32_t>(1, 1U << 23), rc::gen::arbitrary<bool>())},
      {1, rc::gen::apply([](std::uint32_t f, bool negative) {
                           return 0x7F800000U | f | (negative ? 0x80000000U : 0U);
                         },
                         rc::gen::inRange<std::uint32_t>(1, 1U << 23), rc::gen::arbitrary<bool>())},
  });
  const rc::Gen<Inputs> specials = rc::gen::apply(
      [](std::uint32_t value, std::uint32_t scale, std::uint32_t zp) {
        return Inputs{value, scale, zp, 0};
      },
      special_value, AnyLegalScale(), ZeroPoint(range));

  // Random values in and around the range: |value| in [2^-10, 2^10), scale in [2^-6, 2^7).
  const rc::Gen<Inputs> in_range_random = rc::gen::apply(
      [](std::uint32_t value_field, std::uint32_t value_fraction, bool negative,
         std::uint32_t scale_field, std::uint32_t scale_fraction, std::uint32_t zp) {
        return Inputs{FieldAndFraction(value_field, value_fraction) | (negative ? 0x80000000U : 0U),
                      FieldAndFraction(scale_field, scale_fraction), zp, 0};
      },
      rc::gen::inRange<std::uint32_t>(127 - 10, 127 + 10), RandomFraction(),
      rc::gen::arbitrary<bool>(), rc::gen::inRange<std::uint32_t>(127 - 6, 127 + 7),
      RandomFraction(), ZeroPoint(range));

  // Random: random finite value bits, random positive normal scale, uniformly random zero point.
  const rc::Gen<Inputs> random = rc::gen::apply(
      [](std::uint32_t value_field, std::uint32_t value_fraction, bool negative,
         std::uint32_t scale_field, std::uint32_t scale_fraction, std::uint32_t zp) {
        return Inputs{FieldAndFraction(value_field, value_fraction) | (negative ? 0x80000000U : 0U),
                      FieldAndFraction(scale_field, scale_fraction), zp, 0};
      },
      rc::gen::inRange<std::uint32_t>(0, 255), RandomFraction(), rc::gen::arbitrary<bool>(),
      rc::gen::inRange<std::uint32_t>(1, 255), RandomFraction(),
      rc::gen::inRange<std::uint32_t>(0, 256));

  return {
      {"affine_ties_and_integers_power_of_two_scale", 8, ties_power_of_two},
      {"affine_ties_and_integers_odd_scale", 3, ties_odd_scale},
      {"far_outside_range", 2, far_outside},
      {"specials", 2, specials},
      {"random_in_and_around_range", 3, in_range_random},
      {"random_finite", 2, random},
  };
}

InputSet TquantDomain(TypePair pair, const SamplingOptions& options) {
  const OpDef& op = *FindOp("tquant");
  return ListSet(SampleUnique(TquantStrategies(pair.dst), DerivedSeed(options.seed, op, pair),
                              options.samples),
                 "sampled");
}

}  // namespace

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
  op.check_domain = [](TypePair pair, const Inputs& in) -> std::optional<std::string> {
    if (auto problem = quantization::CheckScale("tquant", in[1])) return problem;
    return quantization::CheckByteWord("tquant", "zero_point", in[2], pair.dst);
  };
  op.domain = TquantDomain;
  op.input_space = [](TypePair pair) {
    return InputSpace(*FindOp("tquant"), pair, TquantStrategies(pair.dst));
  };
  op.domain_count = [](TypePair, const SamplingOptions& options) -> std::uint64_t {
    return options.samples;  // SampleUnique reaches it: the strategies' domain is far larger
  };
  return op;
}

}  // namespace ptovec::generator
