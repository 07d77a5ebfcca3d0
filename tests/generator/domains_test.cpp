// Input domains: exhaustive sets, RapidCheck sampling strategies and their targets.
#include "ptovec/generator/domains.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <set>
#include <utility>

#include "ptovec/oracle/dyadic.hpp"
#include "ptovec/oracle/e8m0_conversion.hpp"

namespace ptovec::generator {
namespace domains_test {
namespace {

TEST(Domains, FloorSqrt2ScaledIsExact) {
  EXPECT_EQ(FloorSqrt2Scaled(0), 1u);
  EXPECT_EQ(FloorSqrt2Scaled(1), 2u);                     // sqrt(8) = 2.83
  EXPECT_EQ(FloorSqrt2Scaled(23), 0xB504F3u);             // FP32 0x3FB504F3 is just below sqrt(2)
  EXPECT_EQ(FloorSqrt2Scaled(62), 6521908912666391106u);  // floor(sqrt(2) * 2^62)
  EXPECT_THROW(FloorSqrt2Scaled(63), std::invalid_argument);
}

TEST(Domains, ExhaustiveCodesCoverEveryCode) {
  const InputSet fp16 = ExhaustiveCodes(TileDataType::FP16);
  EXPECT_EQ(fp16.count, 65536u);
  EXPECT_EQ(fp16.kind, "exhaustive");
  EXPECT_EQ(fp16.at(0)[0], 0x0000u);
  EXPECT_EQ(fp16.at(0x7C00)[0], 0x7C00u);
  EXPECT_EQ(fp16.at(65535)[0], 0xFFFFu);
  const InputSet e4m3_finite =
      ExhaustiveCodes(TileDataType::E4M3, [](Word w) { return (w & 0x7F) != 0x7F; });
  EXPECT_EQ(e4m3_finite.count, 254u);
  EXPECT_THROW(ExhaustiveCodes(TileDataType::FP32), std::invalid_argument);
}

// Every word of a set, in order.
std::vector<std::uint32_t> Words(const WordSet& set) {
  std::vector<std::uint32_t> out;
  for (const auto& [lo, hi] : set.intervals()) {
    for (Word w = lo; w <= hi; ++w) out.push_back(static_cast<std::uint32_t>(w));
  }
  return out;
}

TEST(Domains, Fp32SpecialsAreTheTwentyTwoWords) {
  const WordSet s = Fp32Specials();
  EXPECT_EQ(s.size(), 22u);
  for (std::uint32_t w : {0x00000000U, 0x80000000U, 0x7F800000U, 0xFF800000U, 0x7FC00000U,
                          0x7F800001U, 0x00400000U, 0x7F000000U, 0x3F800000U, 0xBF800000U}) {
    EXPECT_TRUE(s.contains(w)) << std::hex << w;
  }
  EXPECT_FALSE(s.contains(0x3F800001U));
}

TEST(Domains, Sqrt2BoundariesAreTheWordsWithinFourUlpsOfTheBoundary) {
  const WordSet s = Fp32Sqrt2Boundaries(true);
  // 277 boundaries (k = -149..127), 9 words each; the ones of the smallest subnormal k overlap.
  EXPECT_GT(s.size(), 2400u);
  EXPECT_LE(s.size(), 277u * 9u);
  for (std::uint32_t w : Words(s)) {
    ASSERT_EQ(w & 0x80000000U, 0u);
    bool near = false;
    for (int k = -149; k <= 127 && !near; ++k) {
      const std::uint32_t anchor = k >= -126
                                       ? (static_cast<std::uint32_t>(k + 127) << 23) | 0x3504F3U
                                       : static_cast<std::uint32_t>(FloorSqrt2Scaled(k + 149));
      const std::int64_t distance = static_cast<std::int64_t>(w) - anchor;
      near = distance >= -4 && distance <= 4;
    }
    EXPECT_TRUE(near) << std::hex << w;
  }
  EXPECT_TRUE(s.contains(0x3FB504F3U));  // just below sqrt(2)
  EXPECT_TRUE(s.contains(0x3FB504F7U));
  EXPECT_FALSE(s.contains(0x3FB504F8U));
  EXPECT_EQ(Fp32Sqrt2Boundaries(false).size(), 2 * s.size());
}

TEST(Domains, SubnormalFloorEdgeIsTheE8M0UnderflowEdge) {
  const WordSet s = Fp32SubnormalFloorEdge();
  // Highest set bit 20..22 from 0x00100000, the 2^-128 and 2^-127 neighbourhoods inside it, up
  // to the smallest normal + 8.
  EXPECT_EQ(s.intervals().size(), 1u);
  EXPECT_EQ(s.intervals().front().first, 0x00100000U);
  EXPECT_EQ(s.intervals().back().second, 0x00800008U);
  EXPECT_FALSE(s.contains(0x000FFFFFU));
  EXPECT_FALSE(s.contains(0x00800009U));
}

TEST(Domains, TopBinadesAreTheWordsAroundTheTopTwoBinadesAnchors) {
  const WordSet s = Fp32TopBinades();
  // 9 words around each of 2^126, sqrt(2) * 2^126, 2^127, sqrt(2) * 2^127; the last word of
  // binade 253 and the first of 254 are 1 apart, so their 9 + 9 merge into 10; the last word of
  // binade 254 has 4 below and only +Inf above: 6. 9 + 9 + 10 + 9 + 6 = 43.
  EXPECT_EQ(s.size(), 43u);
  EXPECT_TRUE(s.contains(0x7F800000U));
  for (std::uint32_t w : Words(s)) {
    EXPECT_GE(w, (253U << 23) - 4) << std::hex << w;
    EXPECT_LE(w, 0x7F800000U) << std::hex << w;
  }
}

TEST(Domains, PowerOfTwoNeighboursAreWithinFourUlpsOfAPower) {
  const WordSet s = Fp32PowerOfTwoNeighbours(true);
  for (std::uint32_t w : Words(s)) {
    bool near = false;
    for (std::uint32_t e = 1; e < 255 && !near; ++e) {
      const std::int64_t d = static_cast<std::int64_t>(w) - (e << 23);
      near = d >= -4 && d <= 4;
    }
    for (std::uint32_t bit = 0; bit < 23 && !near; ++bit) {
      const std::int64_t d = static_cast<std::int64_t>(w) - (1U << bit);
      near = d >= -4 && d <= 4;
    }
    EXPECT_TRUE(near) << std::hex << w;
  }
  EXPECT_TRUE(s.contains(0x3F800000U));
  EXPECT_TRUE(s.contains(0x3F7FFFFCU));
  EXPECT_FALSE(s.contains(0x3F7FFFFBU));
  EXPECT_TRUE(s.contains(0));  // 2^-149 - 1 ulp
}

TEST(Domains, AnchorNeighbourhoodsAreExact) {
  // E4M3 anchors: every finite value >= 0 and every midpoint; 1.0 is a value, 1.0625 a midpoint.
  const WordSet s = Fp32AroundAnchors(DestinationAnchors(TileDataType::E4M3), 2, true);
  for (std::uint32_t w : {0x3F800000U, 0x3F7FFFFEU, 0x3F800002U, 0x3F880000U, 0xBF880002U}) {
    EXPECT_TRUE(s.contains(w)) << std::hex << w;
  }
  EXPECT_FALSE(s.contains(0x3F800003U));
  EXPECT_FALSE(s.contains(0x3F7FFFFDU));
  const WordSet integers = S32AroundAnchors(DestinationAnchors(TileDataType::S8), 2, false);
  // The S8 anchors reach 129.5: floor 129, + 2 steps + 1 = 132.
  EXPECT_TRUE(integers.contains(0x7F + 5));
  EXPECT_FALSE(integers.contains(0x7F + 6));
  EXPECT_TRUE(integers.contains(0xFFFFFF7EU));  // -130 = floor(-128) - 2
}

// The FP32 -> E8M0 sample must reach the places where conversion can go wrong.
// Hand-derived neighbours: 1 + 2^-30 lies between FP32 1.0 (0x3F800000) and its successor, and
// 1 + 2^-60 between FP64 1.0 (0x3FF0000000000000) and its; half the smallest subnormal between +0
// and it; 2^128 and 2^1024 past the largest finite value (the neighbours are it and Inf).
TEST(Domains, BracketsAreTheNeighbouringWordsInValueOrder) {
  using oracle::Dyadic;
  using P32 = std::pair<std::uint32_t, std::uint32_t>;
  using P64 = std::pair<std::uint64_t, std::uint64_t>;
  const Dyadic one{false, 1, 0};
  const Dyadic above32{false, (oracle::DyadicSignificand{1} << 30) + 1, -30};
  const Dyadic above64{false, (oracle::DyadicSignificand{1} << 60) + 1, -60};
  EXPECT_EQ(Fp32Bracket(one), (P32{0x3F800000U, 0x3F800000U}));
  EXPECT_EQ(Fp32Bracket(above32), (P32{0x3F800000U, 0x3F800001U}));
  EXPECT_EQ(Fp32Bracket(Dyadic{true, above32.significand, -30}), (P32{0xBF800001U, 0xBF800000U}));
  EXPECT_EQ(Fp32Bracket(Dyadic{false, 1, -150}), (P32{0U, 1U}));
  EXPECT_EQ(Fp32Bracket(Dyadic{false, 1, 128}), (P32{0x7F7FFFFFU, 0x7F800000U}));
  EXPECT_EQ(Fp64Bracket(one), (P64{0x3FF0000000000000U, 0x3FF0000000000000U}));
  EXPECT_EQ(Fp64Bracket(above64), (P64{0x3FF0000000000000U, 0x3FF0000000000001U}));
  EXPECT_EQ(Fp64Bracket(Dyadic{true, above64.significand, -60}),
            (P64{0xBFF0000000000001U, 0xBFF0000000000000U}));
  EXPECT_EQ(Fp64Bracket(Dyadic{false, 1, -1075}), (P64{0U, 1U}));
  EXPECT_EQ(Fp64Bracket(Dyadic{false, 1, 1024}), (P64{0x7FEFFFFFFFFFFFFFU, 0x7FF0000000000000U}));
  EXPECT_EQ(Fp64Bracket(Dyadic{true, 3, 1023}), (P64{0xFFF0000000000000U, 0xFFEFFFFFFFFFFFFFU}));
}

TEST(Domains, Fp32ToE8M0SampleHitsEveryTarget) {
  const OpDef& tcvt = *FindOp("tcvt");
  const TypePair pair{TileDataType::FP32, TileDataType::E8M0};
  const InputSet set = tcvt.domain(pair, {1, 20000});
  ASSERT_EQ(set.count, 20000u);
  std::set<std::uint32_t> words;
  for (std::uint64_t i = 0; i < set.count; ++i)
    words.insert(static_cast<std::uint32_t>(set.at(i)[0]));

  // Both sides of sqrt(2) * 2^k for many k: RNE changes its answer between them.
  int boundary_pairs = 0;
  for (std::uint32_t e = 1; e < 254; ++e) {  // binade 254 (2^127) overflows on both sides
    const std::uint32_t below = (e << 23) | 0x3504F3U;
    if (words.count(below) && words.count(below + 1)) {
      const auto lo = oracle::ReferenceFloatToE8M0(below, TileDataType::FP32, {});
      const auto hi = oracle::ReferenceFloatToE8M0(below + 1, TileDataType::FP32, {});
      EXPECT_EQ(hi.word, lo.word + 1);
      ++boundary_pairs;
    }
  }
  EXPECT_GE(boundary_pairs, 40);
  // Every status the op can give, and both Sat endpoints.
  std::set<Status> statuses;
  for (std::uint32_t w : words) {
    statuses.insert(oracle::ReferenceFloatToE8M0(w, TileDataType::FP32, {}).status);
  }
  EXPECT_EQ(statuses, (std::set<Status>{0x00, 0x01, 0x10, 0x14, 0x18}));
  EXPECT_TRUE(words.count(0x00400000U));  // 2^-127, the smallest E8M0 value
  EXPECT_TRUE(words.count(0x7F000000U));  // 2^127, the largest
  EXPECT_TRUE(words.count(0x7F800000U));  // +Inf
}

}  // namespace
}  // namespace domains_test
}  // namespace ptovec::generator
