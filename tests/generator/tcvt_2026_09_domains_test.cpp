// Edition 2026-09's TCVT from a wide source (tcvt_2026_09_domains.cpp): the strategies hold the
// words at the destination's edges, values and ties that decide the answer, and those words get
// the answers derived here by hand from ReferenceCommonConvert (reference-conversion.asl lines
// 142-176 at 01445483) and TileConvertIntegerValue (formats.asl lines 83-95).
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "ptovec/generator/domains.hpp"
#include "ptovec/generator/ops.hpp"
#include "ptovec/generator/sampler.hpp"
#include "ptovec/oracle/edition.hpp"
#include "ptovec/oracle/numeric.hpp"

namespace ptovec::generator {
namespace tcvt_2026_09_domains_test {
namespace {

using T = TileDataType;

const OpDef& Tcvt() { return *FindOp("tcvt", oracle::Edition::V2026_09); }

// The names of the strategies of the pair's plan holding `word` (empty: none does).
std::vector<std::string> Holding(TypePair pair, Word word) {
  std::vector<std::string> names;
  for (const SampleStrategy& s : Tcvt().plan(pair).strategies) {
    for (const WeightedSet& part : s.parts) {
      if (part.set.contains(Inputs{word, 0, 0, 0})) {
        names.push_back(s.name);
        break;
      }
    }
  }
  return names;
}

bool Holds(TypePair pair, Word word, const std::string& strategy) {
  for (const std::string& n : Holding(pair, word)) {
    if (n == strategy) return true;
  }
  return false;
}

Encoded Eval(TypePair pair, Word word, NumericRoundingMode mode, bool sat) {
  return Tcvt().evaluate(pair, Inputs{word, 0, 0, 0}, {mode, sat});
}

constexpr auto RNE = NumericRoundingMode::RNE;
constexpr auto RNA = NumericRoundingMode::RNA;
constexpr Status kNx = oracle::kStatusNX;
constexpr Status kOfNx = oracle::kStatusOF | oracle::kStatusNX;
constexpr Status kUfNx = oracle::kStatusUF | oracle::kStatusNX;

TEST(Tcvt2026_09Domains, Fp64ToFp16HoldsTheOverflowEdgeTiesAndSubnormals) {
  const TypePair pair{T::FP64, T::FP16};
  // 65520 = FP16's largest finite 65504 plus half its ulp 32: the nearest modes' overflow
  // threshold; 2^16 - 16 is exactly 0x40effe0000000000 in binary64.
  EXPECT_TRUE(Holds(pair, 0x40EFFE0000000000, "around_the_destination_edges"));
  EXPECT_TRUE(Holds(pair, 0x40EFFDFFFFFFFFFF, "around_the_destination_edges"));
  EXPECT_TRUE(Holds(pair, 0xC0EFFE0000000001, "around_the_destination_edges"));
  // RNE: the tie goes to the even neighbour 65536, which overflows: +Inf with OF and NX; one
  // ulp below, 65504 with NX.
  EXPECT_EQ(Eval(pair, 0x40EFFE0000000000, RNE, false), (Encoded{0x7C00, kOfNx}));
  EXPECT_EQ(Eval(pair, 0x40EFFDFFFFFFFFFF, RNE, false), (Encoded{0x7BFF, kNx}));
  // 1.5 + 2^-11 (fraction bits 51 and 41) is the tie between FP16's 1.5 (0x3e00) and
  // 1.5 + 2^-10 (0x3e01): RNE keeps the even 0x3e00, RNA goes away from zero.
  EXPECT_TRUE(Holds(pair, 0x3FF8020000000000, "values_and_ties_of_the_destination"));
  EXPECT_TRUE(Holds(pair, 0x3FF8020000000002, "values_and_ties_of_the_destination"));
  EXPECT_FALSE(Holds(pair, 0x3FF8020000000003, "values_and_ties_of_the_destination"));
  EXPECT_EQ(Eval(pair, 0x3FF8020000000000, RNE, false), (Encoded{0x3E00, kNx}));
  EXPECT_EQ(Eval(pair, 0x3FF8020000000000, RNA, false), (Encoded{0x3E01, kNx}));
  // 1.0 (a binade's end, where no window reaches) and its neighbours.
  EXPECT_TRUE(Holds(pair, 0x3FF0000000000000, "around_the_powers_of_two"));
  EXPECT_TRUE(Holds(pair, 0xBFEFFFFFFFFFFFFE, "around_the_powers_of_two"));
  // The smallest FP64 subnormal (2^-1074) is tiny and inexact: +0 under RNE with UF and NX.
  EXPECT_TRUE(Holds(pair, 0x0000000000000001, "fp64_subnormals"));
  EXPECT_EQ(Eval(pair, 0x0000000000000001, RNE, false), (Encoded{0x0000, kUfNx}));
  // The specials: +Inf stays +Inf, no flag.
  EXPECT_TRUE(Holds(pair, 0x7FF0000000000000, "source_specials"));
  EXPECT_EQ(Eval(pair, 0x7FF0000000000000, RNE, false), (Encoded{0x7C00, 0}));
}

TEST(Tcvt2026_09Domains, S64ToFp64HoldsTheTiesAbove2To53) {
  const TypePair pair{T::S64, T::FP64};
  // In [2^53, 2^54) binary64's ulp is 2: 2^53 + 3 is the tie between 2^53 + 2 (odd significand)
  // and 2^53 + 4 (even): RNE gives 2^53 + 4 = 0x4340000000000002, with NX.
  EXPECT_TRUE(Holds(pair, 0x0020000000000003, "values_and_ties_of_the_destination"));
  EXPECT_TRUE(Holds(pair, 0xFFDFFFFFFFFFFFFD, "values_and_ties_of_the_destination"));  // -(2^53+3)
  EXPECT_EQ(Eval(pair, 0x0020000000000003, RNE, false), (Encoded{0x4340000000000002, kNx}));
  EXPECT_EQ(Eval(pair, 0xFFDFFFFFFFFFFFFD, RNE, false), (Encoded{0xC340000000000002, kNx}));
  // Below 2^53 every integer is exact: no binade of its there.
  EXPECT_FALSE(Holds(pair, 0x001FFFFFFFFFFFFD, "values_and_ties_of_the_destination"));
}

TEST(Tcvt2026_09Domains, Fp64ToS32HoldsTheRangeEndsAndHalfTies) {
  const TypePair pair{T::FP64, T::S32};
  // 2^31 - 1/2 (0x41dfffffffe00000) lies half a unit above S32's largest value.
  EXPECT_TRUE(Holds(pair, 0x41DFFFFFFFE00000, "around_the_destination_edges"));
  // RNE of 2^31 - 1/2: the tie between 2^31 - 1 (odd) and 2^31 (even, out of range); under Sat
  // the result is clamped to the range end.
  const Encoded at_end = Eval(pair, 0x41DFFFFFFFE00000, RNE, true);
  EXPECT_EQ(at_end.word, 0x7FFFFFFFu);
  // 2.5 (0x4004000000000000), a .5 tie next to zero, is an edge; 6.5 (0x401a000000000000) a
  // tie inside [4, 8): RNE gives the even 6, RNA 7, both with NX.
  EXPECT_TRUE(Holds(pair, 0x4004000000000000, "around_the_destination_edges"));
  EXPECT_TRUE(Holds(pair, 0x401A000000000000, "values_and_ties_of_the_destination"));
  EXPECT_EQ(Eval(pair, 0x401A000000000000, RNE, false), (Encoded{6, kNx}));
  EXPECT_EQ(Eval(pair, 0x401A000000000000, RNA, false), (Encoded{7, kNx}));
}

TEST(Tcvt2026_09Domains, Fp32ToE2m1x2HoldsEveryLaneValueAndTie) {
  const TypePair pair{T::FP32, T::E2M1X2};
  // E2M1's positive values are 0, 0.5, 1, 1.5, 2, 3, 4, 6 (packed-conversion.asl lines 57-141):
  // 5.0 (0x40a00000) is the tie between 4 (lane 0x6, even significand) and 6 (0x7): RNE gives
  // 0x6, RNA 0x7, both NX. 7.0 (0x40e00000) is 6 plus half the last step: the overflow edge,
  // where the text gives lane 6 (4.0) with OF and NX (docs/coverage.md, the lane-6 observation).
  EXPECT_TRUE(Holds(pair, 0x40A00000, "around_the_destination_edges"));
  EXPECT_TRUE(Holds(pair, 0xC0A00001, "around_the_destination_edges"));
  EXPECT_TRUE(Holds(pair, 0x40E00000, "around_the_destination_edges"));
  EXPECT_TRUE(Holds(pair, 0x40FFFFFF, "inside_the_lane_range"));   // just below 8
  EXPECT_FALSE(Holds(pair, 0x41000001, "inside_the_lane_range"));  // above 8
  EXPECT_EQ(Eval(pair, 0x40A00000, RNE, false), (Encoded{0x6, kNx}));
  EXPECT_EQ(Eval(pair, 0x40A00000, RNA, false), (Encoded{0x7, kNx}));
  EXPECT_EQ(Eval(pair, 0x40E00000, RNE, false), (Encoded{0x6, kOfNx}));
}

TEST(Tcvt2026_09Domains, U64ToS8IsAFiniteSetAroundTheEnds) {
  const TypePair pair{T::U64, T::S8};
  const DomainPlan plan = Tcvt().plan(pair);
  ASSERT_EQ(plan.strategies.size(), 3u);
  // Within 64 of S8's 127 and of U64's 0 and 2^64 - 1 (S8's -128 and U64's negations are
  // outside U64): [0, 191] and [2^64 - 65, 2^64 - 1], 192 + 65 words.
  const TupleSet& ends = plan.strategies[0].parts[0].set;
  EXPECT_EQ(plan.strategies[0].name, "around_the_range_ends_and_zero");
  EXPECT_EQ(ends.size(), Index{257});
  EXPECT_TRUE(ends.contains(Inputs{191, 0, 0, 0}));
  EXPECT_FALSE(ends.contains(Inputs{192, 0, 0, 0}));
  EXPECT_TRUE(ends.contains(Inputs{0xFFFFFFFFFFFFFFBF, 0, 0, 0}));
  EXPECT_FALSE(ends.contains(Inputs{0xFFFFFFFFFFFFFFBE, 0, 0, 0}));
  // Every power of two and its neighbours: 2^40 + 2.
  EXPECT_TRUE(Holds(pair, (Word{1} << 40) + 2, "around_the_powers_of_two"));
  // TileConvertIntegerValue: Sat clamps to 127, else the low 8 bits; no mode, no flags.
  EXPECT_EQ(Eval(pair, 0xFFFFFFFFFFFFFFFF, RNE, false), (Encoded{0xFF, 0}));
  EXPECT_EQ(Eval(pair, 0xFFFFFFFFFFFFFFFF, RNE, true), (Encoded{0x7F, 0}));
  EXPECT_EQ(Eval(pair, 128, RNA, false), (Encoded{0x80, 0}));
  EXPECT_EQ(Eval(pair, 128, RNA, true), (Encoded{0x7F, 0}));
}

}  // namespace
}  // namespace tcvt_2026_09_domains_test
}  // namespace ptovec::generator
