// The implementation edges of issue 27 (bugs seen in real devices: -128.5 -> -128 flagged NV,
// -65536 into U16 given 0 with NX only, the subnormal boundary off by one binade, directed-mode
// overflow, values far below the smallest subnormal): the encode and affine classes that say an
// input hit one (with the expected answers), and the strategies that hold the words at them, by
// name, in the default domain. The format edges they are built on: tests/oracle/
// format_edges_test.cpp.
#include <gtest/gtest.h>

#include <algorithm>
#include <ios>
#include <string>
#include <string_view>
#include <vector>

#include "ptovec/generator/coverage.hpp"
#include "ptovec/generator/domains.hpp"
#include "ptovec/generator/ops.hpp"
#include "ptovec/generator/sampler.hpp"

namespace ptovec::generator {
namespace implementation_edges_test {
namespace {

using T = TileDataType;
using M = NumericRoundingMode;

constexpr Word kFp19One = 0x1FC00;  // 1.0

// The classes of one input under one control, by name (the op's literal seed function gives
// the expected result), and that result.
struct Classified {
  Encoded expected;
  std::vector<std::string> names;
  bool has(std::string_view name) const {
    for (const std::string& n : names) {
      if (n == name) return true;
    }
    return false;
  }
};

Classified Classify(std::string_view op_name, TypePair pair, const Inputs& in, M mode,
                    bool sat = false) {
  const OpDef& op = *FindOp(op_name);
  const NumericExecutionControl controls[] = {{mode, sat}};
  Classified out;
  out.expected = op.evaluate_reference(pair, in, controls[0]);
  ClassMask mask = 0;
  PairClassifier(op, pair).Classify(in, controls, &out.expected, &mask);
  for (const CoverageClass& c : CoverageClasses(op, pair)) {
    if (mask.test(c.bit)) out.names.push_back(c.name);
  }
  return out;
}

Classified Encode(T src, T dst, Word value, M mode, bool sat = false) {
  return Classify("encode", {src, dst}, {value, 0, 0, 0}, mode, sat);
}

// The set of a strategy of an op's pair, by name (its parts' union: whether any part holds it).
bool StrategyHolds(std::string_view op_name, TypePair pair, std::string_view strategy,
                   const Inputs& in) {
  for (const SampleStrategy& s : FindOp(op_name)->strategies(pair)) {
    if (s.name != strategy) continue;
    for (const WeightedSet& part : s.parts) {
      if (part.set.contains(in)) return true;
    }
    return false;
  }
  ADD_FAILURE() << op_name << " has no strategy " << strategy;
  return false;
}

std::vector<std::string> StrategyNames(std::string_view op_name, TypePair pair) {
  std::vector<std::string> names;
  for (const SampleStrategy& s : FindOp(op_name)->strategies(pair)) names.push_back(s.name);
  return names;
}

// Whether the default domain (seed 1, 100,000 samples: the default suite's) holds a word.
bool DefaultDomainHolds(std::string_view op_name, TypePair pair, const Inputs& in) {
  const InputSet set = FindOp(op_name)->domain(pair, SamplingOptions{});
  std::vector<Inputs> all(set.count);
  set.Fill(0, set.count, all.data());
  for (const Inputs& t : all) {
    if (t == in) return true;
  }
  return false;
}

TEST(ImplementationEdges, RoundingOntoTheIntegerRangeEnds) {
  // -128.5 into S8: RNE and RTP give -128 (0x80) with NX only, from below; RTM -129, which
  // wraps (OF|NX) and is no longer "from below".
  const Classified rne = Encode(T::FP32, T::S8, 0xC3008000, M::RNE);
  EXPECT_EQ(rne.expected.word, 0x80u);
  EXPECT_EQ(rne.expected.status, 0x10);
  EXPECT_TRUE(rne.has("rounds to the minimum from below"));
  EXPECT_TRUE(rne.has("range end: minimum"));
  EXPECT_TRUE(rne.has("tie rounded down"));
  EXPECT_FALSE(rne.has("rounds to the minimum from above"));
  EXPECT_TRUE(Encode(T::FP32, T::S8, 0xC3008000, M::RTP).has("rounds to the minimum from below"));
  const Classified rtm = Encode(T::FP32, T::S8, 0xC3008000, M::RTM);
  EXPECT_EQ(rtm.expected.word, 0x7Fu);
  EXPECT_EQ(rtm.expected.status, 0x14);
  EXPECT_FALSE(rtm.has("rounds to the minimum from below"));
  EXPECT_TRUE(rtm.has("non-Sat wrap"));
  // -127.5 under RTM: -128 from above.
  const Classified above = Encode(T::FP32, T::S8, 0xC2FF0000, M::RTM);
  EXPECT_EQ(above.expected.word, 0x80u);
  EXPECT_EQ(above.expected.status, 0x10);
  EXPECT_TRUE(above.has("rounds to the minimum from above"));
  EXPECT_FALSE(above.has("rounds to the minimum from below"));
  // 127.5 under RTZ: 127 from above; under RNE 128, which wraps to 0x80 with OF|NX.
  const Classified max_above = Encode(T::FP32, T::S8, 0x42FF0000, M::RTZ);
  EXPECT_EQ(max_above.expected.word, 0x7Fu);
  EXPECT_EQ(max_above.expected.status, 0x10);
  EXPECT_TRUE(max_above.has("rounds to the maximum from above"));
  const Classified max_over = Encode(T::FP32, T::S8, 0x42FF0000, M::RNE);
  EXPECT_EQ(max_over.expected.word, 0x80u);
  EXPECT_EQ(max_over.expected.status, 0x14);
  EXPECT_FALSE(max_over.has("rounds to the maximum from above"));
  // 126.5 under RTP: 127 from below; under RNE 126 (even), neither.
  EXPECT_TRUE(Encode(T::FP32, T::S8, 0x42FD0000, M::RTP).has("rounds to the maximum from below"));
  EXPECT_FALSE(Encode(T::FP32, T::S8, 0x42FD0000, M::RNE).has("rounds to the maximum from below"));
  // An integer at the end is not "rounding" onto it.
  const Classified exact = Encode(T::FP32, T::S8, 0xC3000000, M::RNE);  // -128
  EXPECT_TRUE(exact.has("range end: minimum"));
  EXPECT_FALSE(exact.has("rounds to the minimum from below"));
  EXPECT_FALSE(exact.has("rounds to the minimum from above"));
}

TEST(ImplementationEdges, RoundingToMinusTwoToTheWAndMinusOneIntoUnsigned) {
  // -65536 into U16: OF|NX, word 0 under both Sat values (a device gave 0 with NX only).
  for (const bool sat : {false, true}) {
    const Classified c = Encode(T::FP32, T::U16, 0xC7800000, M::RNE, sat);
    EXPECT_EQ(c.expected.word, 0x0000u);
    EXPECT_EQ(c.expected.status, 0x14);
    EXPECT_TRUE(c.has("rounds to -2^w (unsigned)"));
    EXPECT_FALSE(c.has("rounds to -1 (unsigned)"));
  }
  // -65535.5: RNE rounds to -65536 (even), RTZ to -65535 (word 1, OF|NX).
  EXPECT_TRUE(Encode(T::FP32, T::U16, 0xC77FFF80, M::RNE).has("rounds to -2^w (unsigned)"));
  const Classified rtz = Encode(T::FP32, T::U16, 0xC77FFF80, M::RTZ);
  EXPECT_EQ(rtz.expected.word, 0x0001u);
  EXPECT_EQ(rtz.expected.status, 0x14);
  EXPECT_FALSE(rtz.has("rounds to -2^w (unsigned)"));
  // -65536.5 under RNE: -65536 again (even).
  EXPECT_TRUE(Encode(T::FP32, T::U16, 0xC7800040, M::RNE).has("rounds to -2^w (unsigned)"));
  // -0.75: RNE rounds to -1 (wraps to 0xffff with OF|NX); RTZ to 0 from below, NX only.
  const Classified minus_one = Encode(T::FP32, T::U16, 0xBF400000, M::RNE);
  EXPECT_EQ(minus_one.expected.word, 0xFFFFu);
  EXPECT_EQ(minus_one.expected.status, 0x14);
  EXPECT_TRUE(minus_one.has("rounds to -1 (unsigned)"));
  const Classified to_zero = Encode(T::FP32, T::U16, 0xBF400000, M::RTZ);
  EXPECT_EQ(to_zero.expected.word, 0x0000u);
  EXPECT_EQ(to_zero.expected.status, 0x10);
  EXPECT_TRUE(to_zero.has("rounds to the minimum from below"));
  EXPECT_FALSE(to_zero.has("rounds to -1 (unsigned)"));
  // S32 -65536 is -2^16 exactly; a signed destination has no such class.
  EXPECT_TRUE(Encode(T::S32, T::U16, 0xFFFF0000, M::RNE).has("rounds to -2^w (unsigned)"));
  EXPECT_TRUE(Encode(T::S32, T::U8, 0xFFFFFF00, M::RTZ).has("rounds to -2^w (unsigned)"));
  EXPECT_FALSE(Encode(T::S32, T::S16, 0xFFFF0000, M::RNE).has("rounds to -2^w (unsigned)"));
}

TEST(ImplementationEdges, FloatingEdgesIntoFp16) {
  // 2047 * 2^-25, the tie between 0x03ff and 0x0400: RNE up to the smallest normal, RTZ down,
  // UF|NX both (tiny before rounding).
  const Classified tie = Encode(T::FP32, T::FP16, 0x387FE000, M::RNE);
  EXPECT_EQ(tie.expected.word, 0x0400u);
  EXPECT_EQ(tie.expected.status, 0x18);
  EXPECT_TRUE(tie.has("the subnormal/normal tie"));
  EXPECT_TRUE(tie.has("exact tie rounded up"));
  EXPECT_TRUE(tie.has("rounding up to the smallest normal"));
  const Classified tie_rtz = Encode(T::FP32, T::FP16, 0x387FE000, M::RTZ);
  EXPECT_EQ(tie_rtz.expected.word, 0x03FFu);
  EXPECT_EQ(tie_rtz.expected.status, 0x18);
  EXPECT_TRUE(tie_rtz.has("the subnormal/normal tie"));
  EXPECT_FALSE(Encode(T::FP32, T::FP16, 0x387FE001, M::RNE).has("the subnormal/normal tie"));
  // 65536 = 65504 + 32, one ulp above the largest finite: RTZ overflows here (+Inf, OF|NX).
  const Classified beyond = Encode(T::FP32, T::FP16, 0x47800000, M::RTZ);
  EXPECT_EQ(beyond.expected.word, 0x7C00u);
  EXPECT_EQ(beyond.expected.status, 0x14);
  EXPECT_TRUE(beyond.has("at largest finite + one ulp"));
  // 65520 (the nearest modes' threshold) under RTZ: the largest finite without OF.
  const Classified at = Encode(T::FP32, T::FP16, 0x477FF000, M::RTZ);
  EXPECT_EQ(at.expected.word, 0x7BFFu);
  EXPECT_EQ(at.expected.status, 0x10);
  EXPECT_TRUE(at.has("largest finite at or above the overflow threshold"));
  EXPECT_FALSE(Encode(T::FP32, T::FP16, 0x477FF000, M::RNE)
                   .has("largest finite at or above the overflow threshold"));
  // 65505 under RTP overflows below the threshold; -65505 under RTM too; +65505 under RTM not.
  const Classified up = Encode(T::FP32, T::FP16, 0x477FE100, M::RTP);
  EXPECT_EQ(up.expected.word, 0x7C00u);
  EXPECT_EQ(up.expected.status, 0x14);
  EXPECT_TRUE(up.has("overflow below the overflow threshold"));
  const Classified down = Encode(T::FP32, T::FP16, 0xC77FE100, M::RTM);
  EXPECT_EQ(down.expected.word, 0xFC00u);
  EXPECT_TRUE(down.has("overflow below the overflow threshold"));
  const Classified kept = Encode(T::FP32, T::FP16, 0x477FE100, M::RTM);
  EXPECT_EQ(kept.expected.word, 0x7BFFu);
  EXPECT_EQ(kept.expected.status, 0x10);
  EXPECT_FALSE(kept.has("overflow below the overflow threshold"));
  // FP16's smallest subnormal s = 2^-24. 3 * 2^-26 (in [s/2, s)): RNE gives s, RTZ 0.
  const Classified binade = Encode(T::FP32, T::FP16, 0x33400000, M::RNE);
  EXPECT_EQ(binade.expected.word, 0x0001u);
  EXPECT_EQ(binade.expected.status, 0x18);
  EXPECT_TRUE(binade.has("in the binade below the smallest subnormal"));
  EXPECT_FALSE(binade.has("below half the smallest subnormal"));
  EXPECT_EQ(Encode(T::FP32, T::FP16, 0x33400000, M::RTZ).expected.word, 0x0000u);
  // s/2 = 2^-25 is in the binade (a tie: RNE 0, RNA s); 2^-26 below half of s (RTP gives s).
  EXPECT_TRUE(Encode(T::FP32, T::FP16, 0x33000000, M::RNE)
                  .has("in the binade below the smallest subnormal"));
  EXPECT_EQ(Encode(T::FP32, T::FP16, 0x33000000, M::RNA).expected.word, 0x0001u);
  const Classified far = Encode(T::FP32, T::FP16, 0x32800000, M::RTP);
  EXPECT_EQ(far.expected.word, 0x0001u);
  EXPECT_EQ(far.expected.status, 0x18);
  EXPECT_TRUE(far.has("below half the smallest subnormal"));
  EXPECT_FALSE(Encode(T::FP32, T::FP16, 0x33800000, M::RNE)
                   .has("in the binade below the smallest subnormal"));  // s itself
}

TEST(ImplementationEdges, AffineWrapsOfTheIntermediatePlusOffset) {
  const TypePair pair{T::FP32, T::U16};
  // Width 17: -65536 x 1.0 + 0, and -65535 x 1.0 + (-1): the sum -65536 wraps to 0 with OF|NX.
  const Classified a = Classify("affine", pair, {0xC7800000, kFp19One, 0, 17}, M::RNE);
  EXPECT_EQ(a.expected.word, 0x0000u);
  EXPECT_EQ(a.expected.status, 0x14);
  EXPECT_TRUE(a.has("dst rounds to -2^w (unsigned)"));
  EXPECT_TRUE(Classify("affine", pair, {0xC77FFF00, kFp19One, 0xFFFFFFFF, 17}, M::RNE)
                  .has("dst rounds to -2^w (unsigned)"));
  // -0.75 at width 17: RNE gives the intermediate -1 (wraps to 0xffff), RTZ 0 (no class: the
  // encoded sum is an integer, so it does not round onto the minimum "from below").
  const Classified rne = Classify("affine", pair, {0xBF400000, kFp19One, 0, 17}, M::RNE);
  EXPECT_EQ(rne.expected.word, 0xFFFFu);
  EXPECT_EQ(rne.expected.status, 0x14);
  EXPECT_TRUE(rne.has("dst rounds to -1 (unsigned)"));
  const Classified rtz = Classify("affine", pair, {0xBF400000, kFp19One, 0, 17}, M::RTZ);
  EXPECT_EQ(rtz.expected.word, 0x0000u);
  EXPECT_EQ(rtz.expected.status, 0x10);
  EXPECT_FALSE(rtz.has("dst rounds to the minimum from below"));
  EXPECT_FALSE(rtz.has("dst rounds to -1 (unsigned)"));
  // Width 0: the product itself, as encode classifies it.
  const Classified w0 = Classify("affine", pair, {0xBF400000, kFp19One, 0, 0}, M::RTZ);
  EXPECT_TRUE(w0.has("dst rounds to the minimum from below"));
  EXPECT_TRUE(Classify("affine", pair, {0xC7800000, kFp19One, 0, 0}, M::RNE)
                  .has("dst rounds to -2^w (unsigned)"));
}

TEST(ImplementationEdges, EncodeStrategiesHoldTheEdgeWords) {
  const auto holds = [](T src, T dst, std::string_view strategy, Word w) {
    return StrategyHolds("encode", {src, dst}, strategy, {w, 0, 0, 0});
  };
  // S8: -128.5, -128, -127.5, 126.5, 127, 127.5, and 4 ulps either side (not 5).
  for (const Word w : {0xC3008000u, 0xC3000000u, 0xC2FF0000u, 0x42FD0000u, 0x42FE0000u, 0x42FF0000u,
                       0xC3008004u, 0xC3007FFCu}) {
    EXPECT_TRUE(holds(T::FP32, T::S8, "fp32_rounding_to_integer_range_ends", w)) << std::hex << w;
  }
  EXPECT_FALSE(holds(T::FP32, T::S8, "fp32_rounding_to_integer_range_ends", 0xC3008005));
  // U16: -65536.5, -65536, -65535.5, -1.5, -1, -0.5.
  for (const Word w :
       {0xC7800040u, 0xC7800000u, 0xC77FFF80u, 0xBFC00000u, 0xBF800000u, 0xBF000000u}) {
    EXPECT_TRUE(holds(T::FP32, T::U16, "fp32_rounding_to_unsigned_wrap_edges", w)) << std::hex << w;
  }
  EXPECT_EQ(StrategyNames("encode", {T::FP32, T::S8}),
            (std::vector<std::string>{"fp32_finite_specials", "fp32_rounding_to_integer_range_ends",
                                      "fp32_at_and_around_range_edges_and_half_ties",
                                      "fp32_uniform_finite_bits"}));
  // FP16: the tie 2047 * 2^-25 (both signs, 4 ulps around); 65504, 65520, 65536; s = 2^-24,
  // s/2, s/4 and the comb over [s/2, s) (every 2^16-th word), but not a word between its teeth.
  for (const Word w : {0x387FE000u, 0xB87FE000u, 0x387FE004u, 0x387FDFFCu}) {
    EXPECT_TRUE(holds(T::FP32, T::FP16, "fp32_subnormal_normal_tie", w)) << std::hex << w;
  }
  for (const Word w : {0x477FE000u, 0x477FF000u, 0x47800000u, 0xC7800000u, 0x47800004u}) {
    EXPECT_TRUE(holds(T::FP32, T::FP16, "fp32_directed_overflow_thresholds", w)) << std::hex << w;
  }
  for (const Word w : {0x33800000u, 0x33000000u, 0x32800000u, 0x33010000u, 0xB3010000u}) {
    EXPECT_TRUE(holds(T::FP32, T::FP16, "fp32_binade_below_smallest_subnormal", w))
        << std::hex << w;
  }
  EXPECT_FALSE(holds(T::FP32, T::FP16, "fp32_binade_below_smallest_subnormal", 0x33008000));
  EXPECT_EQ(StrategyNames("encode", {T::FP32, T::FP16}),
            (std::vector<std::string>{
                "fp32_finite_specials", "fp32_subnormal_normal_tie",
                "fp32_directed_overflow_thresholds", "fp32_binade_below_smallest_subnormal",
                "fp32_at_and_around_destination_values_and_ties", "fp32_uniform_finite_bits"}));
  // S32: -65536, -65537, -1 into U16; 65504, 65520, 65536 and -65536 into FP16 (not BF16,
  // whose overflow edge is beyond S32).
  for (const Word w : {0xFFFF0000u, 0xFFFEFFFFu, 0xFFFFFFFFu}) {
    EXPECT_TRUE(holds(T::S32, T::U16, "s32_unsigned_wrap_edges", w)) << std::hex << w;
  }
  for (const Word w : {0x0000FFE0u, 0x0000FFF0u, 0x00010000u, 0xFFFF0000u}) {
    EXPECT_TRUE(holds(T::S32, T::FP16, "s32_directed_overflow_thresholds", w)) << std::hex << w;
  }
  EXPECT_EQ(StrategyNames("encode", {T::S32, T::BF16}),
            (std::vector<std::string>{"s32_at_and_around_destination_values_and_ties", "s32_edges",
                                      "s32_uniform_bits"}));
}

TEST(ImplementationEdges, AffineStrategiesHoldTheWrapAndFarEdgeProducts) {
  const TypePair u16{T::FP32, T::U16};
  EXPECT_TRUE(StrategyHolds("affine", u16, "unsigned_wrap_edges", {0xC7800000, kFp19One, 0, 0}));
  EXPECT_TRUE(StrategyHolds("affine", u16, "unsigned_wrap_edges", {0xC7800000, kFp19One, 0, 17}));
  // S32 -> U8 at width 9: the intermediate -256 (-512 x 0.5) + offset 0.
  EXPECT_TRUE(
      StrategyHolds("affine", {T::S32, T::U8}, "unsigned_wrap_edges", {0xFFFFFE00, 0x1F800, 0, 9}));
  // S32 values times (1 + f/1024) * 2^e within one unit of S32's and U32's maximum, not
  // integers (a power-of-two scale never gives them): 0x7fc01fef x (1 + 2/1024) =
  // 2147483646.97, 0x7f411e52 x 2 * (1 + 6/1024) = 4294967294.96, both rounding up to the maximum.
  const Inputs s32_max{0x7FC01FEF, 0x1FC02, 0, 0};
  EXPECT_TRUE(StrategyHolds("affine", {T::S32, T::S32}, "width0_destination_edges", s32_max));
  const Classified c = Classify("affine", {T::S32, T::S32}, s32_max, M::RNE);
  EXPECT_EQ(c.expected.word, 0x7FFFFFFFu);
  EXPECT_EQ(c.expected.status, 0x10);
  EXPECT_TRUE(c.has("dst rounds to the maximum from below"));
  const Inputs u32_max{0x7F411E52, 0x20006, 0, 0};
  EXPECT_TRUE(StrategyHolds("affine", {T::S32, T::U32}, "width0_destination_edges", u32_max));
  const Classified u = Classify("affine", {T::S32, T::U32}, u32_max, M::RNE);
  EXPECT_EQ(u.expected.word, 0xFFFFFFFFu);
  EXPECT_EQ(u.expected.status, 0x10);
  EXPECT_TRUE(u.has("dst rounds to the maximum from below"));
  const std::vector<std::string> signed_names = StrategyNames("affine", {T::FP32, T::S16});
  EXPECT_EQ(std::count(signed_names.begin(), signed_names.end(), "unsigned_wrap_edges"), 0);
}

// The bug report's case: the default suite had no FP32 -> U16 input rounding to -65536. Now the
// default domain holds -65536 itself, and -128.5 into S8.
TEST(ImplementationEdges, TheDefaultDomainHoldsTheReportedInputs) {
  EXPECT_TRUE(DefaultDomainHolds("encode", {T::FP32, T::U16}, {0xC7800000, 0, 0, 0}));
  EXPECT_TRUE(DefaultDomainHolds("encode", {T::FP32, T::U16}, {0xC77FFF80, 0, 0, 0}));
  EXPECT_TRUE(DefaultDomainHolds("encode", {T::FP32, T::S8}, {0xC3008000, 0, 0, 0}));
  EXPECT_TRUE(DefaultDomainHolds("encode", {T::FP32, T::FP16}, {0x387FE000, 0, 0, 0}));
}

}  // namespace
}  // namespace implementation_edges_test
}  // namespace ptovec::generator
