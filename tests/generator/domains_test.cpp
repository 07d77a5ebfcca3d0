// Input domains: exhaustive sets, RapidCheck sampling strategies and their targets.
#include <gtest/gtest.h>

#include <set>

#include "ptovec/generator/domains.hpp"
#include "ptovec/oracle/e8m0_conversion.hpp"

namespace ptovec::generator {
namespace {

std::vector<std::uint32_t> Draw(const rc::Gen<std::uint32_t>& gen, int n, std::uint64_t seed = 7) {
  rc::Random random(seed);
  std::vector<std::uint32_t> out;
  for (int i = 0; i < n; ++i) {
    rc::Random r = random.split();
    out.push_back(gen(r, rc::kNominalSize).value());
  }
  return out;
}

TEST(Domains, FloorSqrt2ScaledIsExact) {
  EXPECT_EQ(FloorSqrt2Scaled(0), 1u);
  EXPECT_EQ(FloorSqrt2Scaled(1), 2u);           // sqrt(8) = 2.83
  EXPECT_EQ(FloorSqrt2Scaled(23), 0xB504F3u);   // FP32 0x3FB504F3 is just below sqrt(2)
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
  const InputSet e4m3_finite = ExhaustiveCodes(TileDataType::E4M3, [](Word w) {
    return (w & 0x7F) != 0x7F;
  });
  EXPECT_EQ(e4m3_finite.count, 254u);
  EXPECT_THROW(ExhaustiveCodes(TileDataType::FP32), std::invalid_argument);
}

TEST(Domains, SampleUniqueIsDeterministicAndDistinct) {
  const std::vector<Strategy> mix = {{"uniform", 3, OneSlot(Fp32UniformBits())},
                                     {"specials", 1, OneSlot(Fp32Specials())}};
  const auto a = SampleUnique(mix, 42, 5000);
  const auto b = SampleUnique(mix, 42, 5000);
  const auto c = SampleUnique(mix, 43, 5000);
  ASSERT_EQ(a.size(), 5000u);
  EXPECT_EQ(a, b);
  EXPECT_NE(a, c);
  std::set<Inputs> distinct(a.begin(), a.end());
  EXPECT_EQ(distinct.size(), a.size());
  // The 22 specials are a small domain: all of them turn up among 5000 draws of weight 1/4.
  std::size_t specials = 0;
  for (std::uint32_t w : {0x7F800000U, 0xFF800000U, 0x7FC00000U, 0x7F800001U, 0x80000000U}) {
    specials += distinct.count(Inputs{w, 0, 0, 0});
  }
  EXPECT_EQ(specials, 5u);
}

TEST(Domains, SampleUniqueStopsAtASmallDomain) {
  const std::vector<Strategy> tiny = {{"two", 1, rc::gen::element(Inputs{1, 0, 0, 0},
                                                                  Inputs{2, 0, 0, 0})}};
  EXPECT_EQ(SampleUnique(tiny, 1, 10).size(), 2u);
}

TEST(Domains, Sqrt2BoundariesStayWithinFourUlpsOfTheBoundary) {
  for (std::uint32_t w : Draw(Fp32Sqrt2Boundaries(true), 3000)) {
    ASSERT_EQ(w & 0x80000000U, 0u);
    const std::uint32_t exponent = w >> 23;
    bool near = false;
    for (int k = -149; k <= 127 && !near; ++k) {
      const std::uint32_t anchor =
          k >= -126 ? (static_cast<std::uint32_t>(k + 127) << 23) | 0x3504F3U
                    : static_cast<std::uint32_t>(FloorSqrt2Scaled(k + 149));
      const std::int64_t distance = static_cast<std::int64_t>(w) - anchor;
      near = distance >= -4 && distance <= 4;
    }
    EXPECT_TRUE(near) << std::hex << w << " exponent " << exponent;
  }
}

TEST(Domains, SubnormalFloorEdgeStaysNearTheE8M0UnderflowEdge) {
  for (std::uint32_t w : Draw(Fp32SubnormalFloorEdge(), 3000)) {
    EXPECT_LE(w, 0x00800008U) << std::hex << w;
    EXPECT_GE(w, 0x00100000U) << std::hex << w;
  }
}

TEST(Domains, TopBinadesStayInTheTopTwoBinades) {
  for (std::uint32_t w : Draw(Fp32TopBinades(), 3000)) {
    EXPECT_GE(w, (253U << 23) - 4) << std::hex << w;
    EXPECT_LE(w, 0x7F800000U) << std::hex << w;
  }
}

TEST(Domains, PowerOfTwoNeighboursAreWithinFourUlpsOfAPower) {
  for (std::uint32_t w : Draw(Fp32PowerOfTwoNeighbours(true), 3000)) {
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
}

// The FP32 -> E8M0 sample must reach the places where conversion can go wrong.
TEST(Domains, Fp32ToE8M0SampleHitsEveryTarget) {
  const OpDef& tcvt = *FindOp("tcvt");
  const TypePair pair{TileDataType::FP32, TileDataType::E8M0};
  const InputSet set = tcvt.domain(pair, {1, 20000});
  ASSERT_EQ(set.count, 20000u);
  std::set<std::uint32_t> words;
  for (std::uint64_t i = 0; i < set.count; ++i) words.insert(static_cast<std::uint32_t>(set.at(i)[0]));

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
}  // namespace ptovec::generator
