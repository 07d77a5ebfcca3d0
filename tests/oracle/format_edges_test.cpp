// The format edges (format_edges.hpp) and the Dyadic helpers they use, against values worked out
// by hand from the format rows (spec-notes sections 1 and 4).
#include "ptovec/oracle/format_edges.hpp"

#include <gtest/gtest.h>

#include <stdexcept>

#include "ptovec/oracle/dyadic.hpp"
#include "ptovec/oracle/formats.hpp"

namespace ptovec::oracle {
namespace {

Real R(const Dyadic& d) { return ToReal(d); }

TEST(FormatEdges, Fp32) {
  EXPECT_EQ(R(SmallestPositiveValue(TileDataType::FP32)), PowerOfTwo(-149));
  EXPECT_EQ(R(SmallestNormalValue(TileDataType::FP32)), PowerOfTwo(-126));
  const Real largest = (Real(2) - PowerOfTwo(-23)) * PowerOfTwo(127);
  EXPECT_EQ(R(LargestFiniteValue(TileDataType::FP32)), largest);
  EXPECT_EQ(R(BelowLargestFiniteValue(TileDataType::FP32)), largest - PowerOfTwo(104));
  EXPECT_EQ(R(OverflowThreshold(TileDataType::FP32)), largest + PowerOfTwo(103));
  EXPECT_EQ(R(LargestFinitePlusUlp(TileDataType::FP32)), PowerOfTwo(128));
}

TEST(FormatEdges, NarrowFormats) {
  // E4M3: largest 448 (0x7E), ulp 32, smallest normal 2^-6, smallest subnormal 2^-9.
  EXPECT_EQ(R(LargestFiniteValue(TileDataType::E4M3)), Real(448));
  EXPECT_EQ(R(OverflowThreshold(TileDataType::E4M3)), Real(464));
  EXPECT_EQ(R(LargestFinitePlusUlp(TileDataType::E4M3)), Real(480));
  EXPECT_EQ(R(SmallestNormalValue(TileDataType::E4M3)), PowerOfTwo(-6));
  EXPECT_EQ(R(SmallestPositiveValue(TileDataType::E4M3)), PowerOfTwo(-9));
  // FP16: largest 65504, threshold 65520; smallest normal 2^-14.
  EXPECT_EQ(R(OverflowThreshold(TileDataType::FP16)), Real(65520));
  EXPECT_EQ(R(SmallestNormalValue(TileDataType::FP16)), PowerOfTwo(-14));
  // HiF8: the smallest normal 2^-15 found by value (its code is not the least normal code).
  EXPECT_EQ(R(SmallestNormalValue(TileDataType::HiF8)), PowerOfTwo(-15));
  // E8M0: 2^-127 .. 2^127.
  EXPECT_EQ(R(SmallestPositiveValue(TileDataType::E8M0)), PowerOfTwo(-127));
  EXPECT_EQ(R(LargestFiniteValue(TileDataType::E8M0)), PowerOfTwo(127));
  EXPECT_THROW(SmallestNormalValue(TileDataType::S32), std::invalid_argument);
}

// The largest subnormal and the subnormal/normal tie (the implementation edges of issue 27).
TEST(FormatEdges, BelowTheNormalRange) {
  EXPECT_EQ(R(LargestSubnormalValue(TileDataType::FP32)), Real(0x7FFFFF) * PowerOfTwo(-149));
  EXPECT_EQ(R(SubnormalNormalTie(TileDataType::FP32)), Real(0xFFFFFF) * PowerOfTwo(-150));
  EXPECT_EQ(R(LargestSubnormalValue(TileDataType::FP16)), Real(1023) * PowerOfTwo(-24));
  EXPECT_EQ(R(SubnormalNormalTie(TileDataType::FP16)), Real(2047) * PowerOfTwo(-25));
  EXPECT_EQ(R(SubnormalNormalTie(TileDataType::BF16)), Real(255) * PowerOfTwo(-134));
  EXPECT_EQ(R(LargestSubnormalValue(TileDataType::E4M3)), Real(7) * PowerOfTwo(-9));
  EXPECT_EQ(R(SubnormalNormalTie(TileDataType::E4M3)), Real(15) * PowerOfTwo(-10));
  // HiF8: subnormals 2^-22 .. 2^-16 (bodies 1..7), smallest normal 2^-15 by value.
  EXPECT_EQ(R(LargestSubnormalValue(TileDataType::HiF8)), PowerOfTwo(-16));
  EXPECT_EQ(R(SubnormalNormalTie(TileDataType::HiF8)), Real(3) * PowerOfTwo(-17));
  EXPECT_THROW(LargestSubnormalValue(TileDataType::E8M0), std::invalid_argument);
  EXPECT_THROW(SubnormalNormalTie(TileDataType::S8), std::invalid_argument);
}

TEST(FormatEdges, SignedFields) {
  EXPECT_EQ(SignedFieldMinimum(0), 0);
  EXPECT_EQ(SignedFieldMaximum(0), 0);
  EXPECT_EQ(SignedFieldMinimum(5), -16);
  EXPECT_EQ(SignedFieldMaximum(5), 15);
  EXPECT_EQ(SignedFieldMinimum(9), -256);
  EXPECT_EQ(SignedFieldMaximum(9), 255);
  EXPECT_EQ(SignedFieldMinimum(17), -65536);
  EXPECT_EQ(SignedFieldMaximum(17), 65535);
}

TEST(Dyadic, CompareLowExponentNormalized) {
  const Dyadic minus_three{true, 3, 0};
  const Dyadic two{false, 4, -1};
  EXPECT_EQ(DyadicCompare(minus_three, two), -1);
  EXPECT_EQ(DyadicCompare(two, minus_three), 1);
  EXPECT_EQ(DyadicCompare(Dyadic{true, 0, 5}, Dyadic{}), 0);  // -0 == +0
  EXPECT_EQ(DyadicLowExponent(Dyadic{false, 12, -3}), -1);    // 12 * 2^-3 = 1.5
  const Dyadic n = DyadicNormalized(Dyadic{true, 12, -3});
  EXPECT_TRUE(n.negative);
  EXPECT_EQ(static_cast<unsigned>(n.significand), 3u);
  EXPECT_EQ(n.exponent, -1);
  EXPECT_EQ(R(DyadicPowerOfTwo(-3)), PowerOfTwo(-3));
}

}  // namespace
}  // namespace ptovec::oracle
