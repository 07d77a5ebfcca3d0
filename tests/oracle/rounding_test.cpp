// Tests of the exact-number helpers and FloatingToInteger (spec-notes sections 1 and 2).
//
// Every expectation below is hand-derived from the spec-notes section 2 table; the property tests
// compare against independent characterisations (distance bounds, parity), never against the
// implementation itself.
#include "ptovec/oracle/rounding.hpp"

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "ptovec/oracle/numeric.hpp"
#include "test_support.hpp"

namespace ptovec::oracle {
namespace rounding_test {
namespace {

using test_support::Pow2;
using test_support::Q;

using M = NumericRoundingMode;

// One row: x and the expected FloatingToInteger result in the order RNE RTM RTP RTZ RNA RTO RHB.
struct RoundingRow {
  const char* label;
  Real x;
  std::array<long long, 7> expected;
};

std::vector<RoundingRow> RoundingTable() {
  //                                 RNE RTM RTP RTZ RNA RTO RHB
  return {
      {"2.5", Q(5, 2), {2, 2, 3, 2, 3, 3, 3}},
      {"-2.5", Q(-5, 2), {-2, -3, -2, -2, -3, -3, -2}},
      {"0.5", Q(1, 2), {0, 0, 1, 0, 1, 1, 1}},
      {"-0.5", Q(-1, 2), {0, -1, 0, 0, -1, -1, 0}},
      {"1.5", Q(3, 2), {2, 1, 2, 1, 2, 1, 2}},
      {"-1.5", Q(-3, 2), {-2, -2, -1, -1, -2, -1, -1}},
      {"3.5", Q(7, 2), {4, 3, 4, 3, 4, 3, 4}},
      {"-3.5", Q(-7, 2), {-4, -4, -3, -3, -4, -3, -3}},
      {"3", Q(3), {3, 3, 3, 3, 3, 3, 3}},
      {"-3", Q(-3), {-3, -3, -3, -3, -3, -3, -3}},
      {"0", Q(0), {0, 0, 0, 0, 0, 0, 0}},
      {"2.25", Q(9, 4), {2, 2, 3, 2, 2, 3, 2}},
      {"-2.25", Q(-9, 4), {-2, -3, -2, -2, -2, -3, -2}},
      {"2.75", Q(11, 4), {3, 2, 3, 2, 3, 3, 3}},
      {"-2.75", Q(-11, 4), {-3, -3, -2, -2, -3, -3, -3}},
      {"1/3", Q(1, 3), {0, 0, 1, 0, 0, 1, 0}},
      {"-1/3", Q(-1, 3), {0, -1, 0, 0, 0, -1, 0}},
      {"2/3", Q(2, 3), {1, 0, 1, 0, 1, 1, 1}},
      {"-2/3", Q(-2, 3), {-1, -1, 0, 0, -1, -1, -1}},
      {"0.75", Q(3, 4), {1, 0, 1, 0, 1, 1, 1}},
      {"-0.25", Q(-1, 4), {0, -1, 0, 0, 0, -1, 0}},
      {"4.5", Q(9, 2), {4, 4, 5, 4, 5, 5, 5}},
      {"-4.5", Q(-9, 2), {-4, -5, -4, -4, -5, -5, -4}},
      {"7/2^20 (tiny positive)", Q(7, 1 << 20), {0, 0, 1, 0, 0, 1, 0}},
      {"-7/2^20 (tiny negative)", Q(-7, 1 << 20), {0, -1, 0, 0, 0, -1, 0}},
      {"127.5", Q(255, 2), {128, 127, 128, 127, 128, 127, 128}},
      {"-128.5", Q(-257, 2), {-128, -129, -128, -128, -129, -129, -128}},
  };
}

TEST(FloatingToInteger, HandDerivedTableAllModes) {
  for (const RoundingRow& row : RoundingTable()) {
    for (std::size_t m = 0; m < kAllRoundingModes.size(); ++m) {
      const M mode = kAllRoundingModes[m];
      EXPECT_EQ(FloatingToInteger(row.x, mode), Integer(row.expected[m]))
          << "x = " << row.label << ", mode " << RoundingModeName(mode);
    }
  }
}

TEST(FloatingToInteger, LargeMagnitudeTies) {
  // x = 2^70 + 1/2 and its negation: beyond any machine integer.
  const Integer big = Integer(1) << 70;
  const Real pos = Real(big) + Q(1, 2);
  const Real neg = -pos;
  const std::array<Integer, 7> pos_expected = {big, big, big + 1, big, big + 1, big + 1, big + 1};
  const std::array<Integer, 7> neg_expected = {-big,     -big - 1, -big, -big,
                                               -big - 1, -big - 1, -big};
  for (std::size_t m = 0; m < 7; ++m) {
    EXPECT_EQ(FloatingToInteger(pos, kAllRoundingModes[m]), pos_expected[m])
        << RoundingModeName(kAllRoundingModes[m]);
    EXPECT_EQ(FloatingToInteger(neg, kAllRoundingModes[m]), neg_expected[m])
        << RoundingModeName(kAllRoundingModes[m]);
  }
  // An odd large integer plus a half: RNE goes up to the even neighbour, RTO stays on the odd one.
  const Real odd_tie = Real(big + 1) + Q(1, 2);
  EXPECT_EQ(FloatingToInteger(odd_tie, M::RNE), big + 2);
  EXPECT_EQ(FloatingToInteger(odd_tie, M::RTO), big + 1);
}

TEST(FloatingToInteger, IntegersAreFixedPointsInEveryMode) {
  for (long long i : {-1000001LL, -129LL, -2LL, -1LL, 0LL, 1LL, 2LL, 255LL, 65536LL}) {
    for (M mode : kAllRoundingModes) {
      EXPECT_EQ(FloatingToInteger(Q(i), mode), Integer(i)) << i << " " << RoundingModeName(mode);
    }
  }
}

// Independent characterisation of each mode, checked on random rationals.
RC_GTEST_PROP(FloatingToInteger, MatchesModeDefinitionOnRandomRationals, ()) {
  const auto n = *rc::gen::inRange<std::int64_t>(-1000000000LL, 1000000000LL);
  const auto d = *rc::gen::element<std::int64_t>(1, 2, 3, 4, 5, 7, 8, 10, 16, 1024, 999983);
  const Real x = Real(Integer(n), Integer(d));
  const Real half = Q(1, 2);
  for (M mode : kAllRoundingModes) {
    const Integer r = FloatingToInteger(x, mode);
    const Real rr = Real(r);
    const Real distance = rr > x ? Real(rr - x) : Real(x - rr);
    RC_ASSERT(distance < 1);
    const bool exact = rr == x;
    const bool integral = (n % d) == 0;
    RC_ASSERT(exact == integral);
    switch (mode) {
      case M::RTM:
        RC_ASSERT(rr <= x);
        break;
      case M::RTP:
        RC_ASSERT(rr >= x);
        break;
      case M::RTZ:
        RC_ASSERT((x >= 0 && rr <= x && rr >= 0) || (x < 0 && rr >= x && rr <= 0));
        break;
      case M::RTO:
        if (!integral) RC_ASSERT(r % 2 != 0);
        break;
      case M::RNE:
      case M::RNA:
      case M::RHB: {
        RC_ASSERT(distance <= half);
        if (distance == half) {
          if (mode == M::RNE) RC_ASSERT(r % 2 == 0);
          if (mode == M::RNA) RC_ASSERT((x > 0 && rr > x) || (x < 0 && rr < x));
          if (mode == M::RHB) RC_ASSERT(rr > x);
        }
        break;
      }
    }
  }
}

TEST(RoundHelpers, RoundDownRoundUpRoundTowardsZero) {
  struct Row {
    Real x;
    long long down, up, toward_zero;
  };
  const std::vector<Row> rows = {
      {Q(-5, 2), -3, -2, -2},
      {Q(5, 2), 2, 3, 2},
      {Q(-3), -3, -3, -3},
      {Q(3), 3, 3, 3},
      {Q(-1, 3), -1, 0, 0},
      {Q(1, 3), 0, 1, 0},
      {Q(-7, 3), -3, -2, -2},
      {Q(7, 2), 3, 4, 3},
      {Q(0), 0, 0, 0},
      {Q(-1, 1000000), -1, 0, 0},
      {Q(-999999, 1000000), -1, 0, 0},
  };
  for (const Row& r : rows) {
    EXPECT_EQ(RoundDown(r.x), Integer(r.down)) << r.x;
    EXPECT_EQ(RoundUp(r.x), Integer(r.up)) << r.x;
    EXPECT_EQ(RoundTowardsZero(r.x), Integer(r.toward_zero)) << r.x;
  }
  const Integer big = Integer(1) << 100;
  EXPECT_EQ(RoundDown(-Real(big) - Q(1, 3)), -big - 1);
  EXPECT_EQ(RoundUp(-Real(big) - Q(1, 3)), -big);
  EXPECT_EQ(RoundTowardsZero(-Real(big) - Q(1, 3)), -big);
}

TEST(RoundingModes, OrderNamesAndParsing) {
  const std::array<const char*, 7> names = {"RNE", "RTM", "RTP", "RTZ", "RNA", "RTO", "RHB"};
  ASSERT_EQ(kAllRoundingModes.size(), 7U);
  for (std::size_t i = 0; i < 7; ++i) {
    EXPECT_EQ(static_cast<std::size_t>(kAllRoundingModes[i]), i);
    EXPECT_EQ(RoundingModeName(kAllRoundingModes[i]), names[i]);
    EXPECT_EQ(ParseRoundingMode(names[i]), kAllRoundingModes[i]);
  }
  EXPECT_EQ(static_cast<int>(M::RNE), 0);
  EXPECT_EQ(static_cast<int>(M::RHB), 6);
  EXPECT_EQ(ParseRoundingMode("rne"), M::RNE);
  EXPECT_EQ(ParseRoundingMode("rTz"), M::RTZ);
  EXPECT_EQ(ParseRoundingMode("rhb"), M::RHB);
  EXPECT_EQ(ParseRoundingMode(""), std::nullopt);
  EXPECT_EQ(ParseRoundingMode("RN"), std::nullopt);
  EXPECT_EQ(ParseRoundingMode("RNEX"), std::nullopt);
  EXPECT_EQ(ParseRoundingMode(" RNE"), std::nullopt);
  EXPECT_EQ(ParseRoundingMode("RTN"), std::nullopt);
  EXPECT_EQ(RoundingModeNamesList(), "RNE, RTM, RTP, RTZ, RNA, RTO, RHB");
}

TEST(RoundingModes, ExecutionControlDefault) {
  const NumericExecutionControl control;
  EXPECT_EQ(control.rounding_mode, M::RNE);
  EXPECT_FALSE(control.saturating);
}

TEST(Numeric, StatusBits) {
  EXPECT_EQ(kStatusNV, 0x01);
  EXPECT_EQ(kStatusDZ, 0x02);
  EXPECT_EQ(kStatusOF, 0x04);
  EXPECT_EQ(kStatusUF, 0x08);
  EXPECT_EQ(kStatusNX, 0x10);
  EXPECT_EQ(Encoded({1, 2}), Encoded({1, 2}));
  EXPECT_NE(Encoded({1, 2}), Encoded({1, 3}));
  EXPECT_NE(Encoded({1, 2}), Encoded({0, 2}));
}

TEST(Numeric, PowerOfTwoIsExact) {
  EXPECT_EQ(PowerOfTwo(0), Q(1));
  EXPECT_EQ(PowerOfTwo(1), Q(2));
  EXPECT_EQ(PowerOfTwo(-1), Q(1, 2));
  EXPECT_EQ(PowerOfTwo(62), Q(1LL << 62));
  EXPECT_EQ(PowerOfTwo(-62), Q(1, 1LL << 62));
  EXPECT_EQ(PowerOfTwo(200), Real(Integer(1) << 200));
  EXPECT_EQ(PowerOfTwo(-1074) * PowerOfTwo(1074), Q(1));
  for (int e = -300; e <= 300; e += 7) EXPECT_EQ(PowerOfTwo(e), Pow2(e)) << e;
}

TEST(Numeric, LowBitsAndSignExtend) {
  EXPECT_EQ(LowBits(0xFFFFFFFFFFFFFFFFULL, 4), 0xFULL);
  EXPECT_EQ(LowBits(0x123456789ABCDEF0ULL, 8), 0xF0ULL);
  EXPECT_EQ(LowBits(0x123456789ABCDEF0ULL, 64), 0x123456789ABCDEF0ULL);
  EXPECT_EQ(LowBits(0x123456789ABCDEF0ULL, 1), 0ULL);
  EXPECT_EQ(SignExtend(0x82, 8), 0xFFFFFFFFFFFFFF82ULL);
  EXPECT_EQ(SignExtend(0x7F, 8), 0x7FULL);
  EXPECT_EQ(SignExtend(0xAB82, 8), 0xFFFFFFFFFFFFFF82ULL);
  EXPECT_EQ(SignExtend(0x8, 4), 0xFFFFFFFFFFFFFFF8ULL);
  EXPECT_EQ(SignExtend(0x17, 4), 0x7ULL);
  EXPECT_EQ(SignExtend(0x80000000, 32), 0xFFFFFFFF80000000ULL);
  EXPECT_EQ(SignExtend(0x8000000000000000ULL, 64), 0x8000000000000000ULL);
}

TEST(Numeric, WordOfIsTwosComplementLow64Bits) {
  EXPECT_EQ(WordOf(Integer(0)), 0ULL);
  EXPECT_EQ(WordOf(Integer(-1)), 0xFFFFFFFFFFFFFFFFULL);
  EXPECT_EQ(WordOf(Integer(-126)), 0xFFFFFFFFFFFFFF82ULL);
  EXPECT_EQ(WordOf(Integer(200)), 200ULL);
  EXPECT_EQ(WordOf((Integer(1) << 64) + 5), 5ULL);
  EXPECT_EQ(WordOf(-(Integer(1) << 64) - 1), 0xFFFFFFFFFFFFFFFFULL);
  EXPECT_EQ(WordOf(-(Integer(1) << 63)), 0x8000000000000000ULL);
}

}  // namespace
}  // namespace rounding_test
}  // namespace ptovec::oracle
