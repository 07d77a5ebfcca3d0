// The implementation edges of issue 27 (bugs seen in real devices: -128.5 -> -128 flagged NV,
// -65536 into U16 given 0 with NX only, the subnormal boundary off by one binade, directed-mode
// overflow, values far below the smallest subnormal): the encode and affine classes that say an
// input hit one (with the expected answers), and the strategies that hold the words at them, by
// name, in the default domain. The format edges they are built on: tests/oracle/
// format_edges_test.cpp.
#include <gtest/gtest.h>

#include <algorithm>
#include <ios>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
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

// One worked case: an input of an op's pair under one control, the expected word and status
// where the row gives them (the literal seed function's), the classes it must hit and those it
// must not.
struct Worked {
  const char* note;
  std::string_view op;
  TypePair pair;
  Inputs in;
  M mode;
  bool sat;
  std::optional<Word> word;
  std::optional<unsigned> status;
  std::vector<std::string_view> has;
  std::vector<std::string_view> lacks;
};

constexpr std::nullopt_t kAny = std::nullopt;  // the row does not assert it

Worked W(const char* note, std::string_view op, TypePair pair, const Inputs& in, M mode, bool sat,
         std::optional<Word> word, std::optional<unsigned> status,
         std::vector<std::string_view> has, std::vector<std::string_view> lacks) {
  return {note, op, pair, in, mode, sat, word, status, std::move(has), std::move(lacks)};
}

Inputs Value(Word w) { return {w, 0, 0, 0}; }

void ExpectWorked(const std::vector<Worked>& rows) {
  for (const Worked& r : rows) {
    SCOPED_TRACE(::testing::Message() << r.op << " 0x" << std::hex << r.in[0] << ": " << r.note);
    const Classified c = Classify(r.op, r.pair, r.in, r.mode, r.sat);
    if (r.word) {
      EXPECT_EQ(c.expected.word, *r.word);
    }
    if (r.status) {
      EXPECT_EQ(c.expected.status, *r.status);
    }
    for (std::string_view name : r.has) EXPECT_TRUE(c.has(name)) << name;
    for (std::string_view name : r.lacks) EXPECT_FALSE(c.has(name)) << name;
  }
}

constexpr std::string_view kMinBelow = "rounds to the minimum from below";
constexpr std::string_view kMinAbove = "rounds to the minimum from above";
constexpr std::string_view kMaxAbove = "rounds to the maximum from above";
constexpr std::string_view kMaxBelow = "rounds to the maximum from below";
constexpr std::string_view kWrap2w = "rounds to -2^w (unsigned)";
constexpr std::string_view kWrapMinusOne = "rounds to -1 (unsigned)";

TEST(ImplementationEdges, RoundingOntoTheIntegerRangeEnds) {
  const TypePair s8{T::FP32, T::S8};
  ExpectWorked({
      W("-128.5 RNE: -128 from below, NX only", "encode", s8, Value(0xC3008000), M::RNE, false,
        0x80, 0x10, {kMinBelow, "range end: minimum", "tie rounded down"}, {kMinAbove}),
      W("-128.5 RTP: -128 from below", "encode", s8, Value(0xC3008000), M::RTP, false, kAny, kAny,
        {kMinBelow}, {}),
      W("-128.5 RTM: -129 wraps (OF|NX), not from below", "encode", s8, Value(0xC3008000), M::RTM,
        false, 0x7F, 0x14, {"non-Sat wrap"}, {kMinBelow}),
      W("-127.5 RTM: -128 from above", "encode", s8, Value(0xC2FF0000), M::RTM, false, 0x80, 0x10,
        {kMinAbove}, {kMinBelow}),
      W("127.5 RTZ: 127 from above", "encode", s8, Value(0x42FF0000), M::RTZ, false, 0x7F, 0x10,
        {kMaxAbove}, {}),
      W("127.5 RNE: 128 wraps to 0x80 (OF|NX)", "encode", s8, Value(0x42FF0000), M::RNE, false,
        0x80, 0x14, {}, {kMaxAbove}),
      W("126.5 RTP: 127 from below", "encode", s8, Value(0x42FD0000), M::RTP, false, kAny, kAny,
        {kMaxBelow}, {}),
      W("126.5 RNE: 126 (even)", "encode", s8, Value(0x42FD0000), M::RNE, false, kAny, kAny, {},
        {kMaxBelow}),
      W("-128 exactly: at the end, not rounding onto it", "encode", s8, Value(0xC3000000), M::RNE,
        false, kAny, kAny, {"range end: minimum"}, {kMinBelow, kMinAbove}),
  });
}

TEST(ImplementationEdges, RoundingToMinusTwoToTheWAndMinusOneIntoUnsigned) {
  const TypePair u16{T::FP32, T::U16};
  ExpectWorked({
      // A device gave 0 with NX only.
      W("-65536: OF|NX, word 0, Sat off", "encode", u16, Value(0xC7800000), M::RNE, false, 0x0000,
        0x14, {kWrap2w}, {kWrapMinusOne}),
      W("-65536: OF|NX, word 0, Sat on", "encode", u16, Value(0xC7800000), M::RNE, true, 0x0000,
        0x14, {kWrap2w}, {kWrapMinusOne}),
      W("-65535.5 RNE: -65536 (even)", "encode", u16, Value(0xC77FFF80), M::RNE, false, kAny, kAny,
        {kWrap2w}, {}),
      W("-65535.5 RTZ: -65535 (word 1, OF|NX)", "encode", u16, Value(0xC77FFF80), M::RTZ, false,
        0x0001, 0x14, {}, {kWrap2w}),
      W("-65536.5 RNE: -65536 (even)", "encode", u16, Value(0xC7800040), M::RNE, false, kAny, kAny,
        {kWrap2w}, {}),
      W("-0.75 RNE: -1, wraps to 0xffff (OF|NX)", "encode", u16, Value(0xBF400000), M::RNE, false,
        0xFFFF, 0x14, {kWrapMinusOne}, {}),
      W("-0.75 RTZ: 0 from below, NX only", "encode", u16, Value(0xBF400000), M::RTZ, false, 0x0000,
        0x10, {kMinBelow}, {kWrapMinusOne}),
      W("S32 -65536 = -2^16 exactly", "encode", {T::S32, T::U16}, Value(0xFFFF0000), M::RNE, false,
        kAny, kAny, {kWrap2w}, {}),
      W("S32 -256 = -2^8 exactly", "encode", {T::S32, T::U8}, Value(0xFFFFFF00), M::RTZ, false,
        kAny, kAny, {kWrap2w}, {}),
      W("a signed destination has no such class", "encode", {T::S32, T::S16}, Value(0xFFFF0000),
        M::RNE, false, kAny, kAny, {}, {kWrap2w}),
  });
}

TEST(ImplementationEdges, FloatingEdgesIntoFp16) {
  const TypePair fp16{T::FP32, T::FP16};
  constexpr std::string_view kTie = "the subnormal/normal tie";
  constexpr std::string_view kAtOrAbove = "largest finite at or above the overflow threshold";
  constexpr std::string_view kOverflowBelow = "overflow below the overflow threshold";
  constexpr std::string_view kBinade = "in the binade below the smallest subnormal";
  constexpr std::string_view kBelowHalf = "below half the smallest subnormal";
  ExpectWorked({
      // 2047 * 2^-25, the tie between 0x03ff and 0x0400 (UF|NX: tiny before rounding).
      W("the tie, RNE: up to the smallest normal", "encode", fp16, Value(0x387FE000), M::RNE, false,
        0x0400, 0x18, {kTie, "exact tie rounded up", "rounding up to the smallest normal"}, {}),
      W("the tie, RTZ: down", "encode", fp16, Value(0x387FE000), M::RTZ, false, 0x03FF, 0x18,
        {kTie}, {}),
      W("one FP32 ulp above the tie", "encode", fp16, Value(0x387FE001), M::RNE, false, kAny, kAny,
        {}, {kTie}),
      W("65536 = 65504 + 32, RTZ: overflows (+Inf, OF|NX)", "encode", fp16, Value(0x47800000),
        M::RTZ, false, 0x7C00, 0x14, {"at largest finite + one ulp"}, {}),
      W("65520 (the nearest modes' threshold) RTZ: the largest finite, no OF", "encode", fp16,
        Value(0x477FF000), M::RTZ, false, 0x7BFF, 0x10, {kAtOrAbove}, {}),
      W("65520 RNE: overflows", "encode", fp16, Value(0x477FF000), M::RNE, false, kAny, kAny, {},
        {kAtOrAbove}),
      W("65505 RTP: overflows below the threshold", "encode", fp16, Value(0x477FE100), M::RTP,
        false, 0x7C00, 0x14, {kOverflowBelow}, {}),
      W("-65505 RTM: overflows below the threshold", "encode", fp16, Value(0xC77FE100), M::RTM,
        false, 0xFC00, kAny, {kOverflowBelow}, {}),
      W("65505 RTM: the largest finite", "encode", fp16, Value(0x477FE100), M::RTM, false, 0x7BFF,
        0x10, {}, {kOverflowBelow}),
      // FP16's smallest subnormal s = 2^-24.
      W("3 * 2^-26, in [s/2, s), RNE: s", "encode", fp16, Value(0x33400000), M::RNE, false, 0x0001,
        0x18, {kBinade}, {kBelowHalf}),
      W("3 * 2^-26 RTZ: 0", "encode", fp16, Value(0x33400000), M::RTZ, false, 0x0000, kAny, {}, {}),
      W("s/2 = 2^-25 is in the binade (a tie: RNE 0)", "encode", fp16, Value(0x33000000), M::RNE,
        false, kAny, kAny, {kBinade}, {}),
      W("s/2 RNA: s", "encode", fp16, Value(0x33000000), M::RNA, false, 0x0001, kAny, {}, {}),
      W("2^-26, below half of s, RTP: s", "encode", fp16, Value(0x32800000), M::RTP, false, 0x0001,
        0x18, {kBelowHalf}, {}),
      W("s itself", "encode", fp16, Value(0x33800000), M::RNE, false, kAny, kAny, {}, {kBinade}),
  });
}

TEST(ImplementationEdges, AffineWrapsOfTheIntermediatePlusOffset) {
  const TypePair u16{T::FP32, T::U16};
  ExpectWorked({
      // Width 17: the sum -65536 wraps to 0 with OF|NX.
      W("-65536 x 1.0 + 0", "affine", u16, {0xC7800000, kFp19One, 0, 17}, M::RNE, false, 0x0000,
        0x14, {"dst rounds to -2^w (unsigned)"}, {}),
      W("-65535 x 1.0 + (-1)", "affine", u16, {0xC77FFF00, kFp19One, 0xFFFFFFFF, 17}, M::RNE, false,
        kAny, kAny, {"dst rounds to -2^w (unsigned)"}, {}),
      W("-0.75 width 17 RNE: the intermediate -1 wraps to 0xffff", "affine", u16,
        {0xBF400000, kFp19One, 0, 17}, M::RNE, false, 0xFFFF, 0x14, {"dst rounds to -1 (unsigned)"},
        {}),
      // The encoded sum is an integer, so it does not round onto the minimum "from below".
      W("-0.75 width 17 RTZ: 0, no class", "affine", u16, {0xBF400000, kFp19One, 0, 17}, M::RTZ,
        false, 0x0000, 0x10, {},
        {"dst rounds to the minimum from below", "dst rounds to -1 (unsigned)"}),
      // Width 0: the product itself, as encode classifies it.
      W("-0.75 width 0 RTZ", "affine", u16, {0xBF400000, kFp19One, 0, 0}, M::RTZ, false, kAny, kAny,
        {"dst rounds to the minimum from below"}, {}),
      W("-65536 width 0 RNE", "affine", u16, {0xC7800000, kFp19One, 0, 0}, M::RNE, false, kAny,
        kAny, {"dst rounds to -2^w (unsigned)"}, {}),
  });
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
  const Inputs u32_max{0x7F411E52, 0x20006, 0, 0};
  EXPECT_TRUE(StrategyHolds("affine", {T::S32, T::U32}, "width0_destination_edges", u32_max));
  ExpectWorked({
      W("S32's maximum from below", "affine", {T::S32, T::S32}, s32_max, M::RNE, false, 0x7FFFFFFF,
        0x10, {"dst rounds to the maximum from below"}, {}),
      W("U32's maximum from below", "affine", {T::S32, T::U32}, u32_max, M::RNE, false, 0xFFFFFFFF,
        0x10, {"dst rounds to the maximum from below"}, {}),
  });
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
