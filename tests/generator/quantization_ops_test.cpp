// Ops `tquant` (TileProfileQuantize, seed 003 lines 105-149) and `tdequant`
// (TileProfileDequantize, seed 003 lines 151-172): hand-derived values under every mode, checked
// through both the op's evaluate (fast path) and evaluate_reference (literal seed function);
// properties against an independent cpp_rational computation; the default domains.
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <array>
#include <map>
#include <set>
#include <sstream>

#include "ptovec/generator/cases.hpp"
#include "ptovec/generator/domains.hpp"
#include "ptovec/generator/ops.hpp"
#include "ptovec/generator/suite.hpp"

namespace ptovec::generator {
namespace quantization_ops_test {
namespace {

using oracle::Integer;
// The model computes on Boost's own cpp_rational, independently of the oracle's Real
// (ExactRational).
using Real = boost::multiprecision::cpp_rational;
using M = NumericRoundingMode;
using T = TileDataType;

constexpr TypePair kFp32ToS8{T::FP32, T::S8};
constexpr TypePair kFp32ToU8{T::FP32, T::U8};
constexpr TypePair kS8ToFp32{T::S8, T::FP32};
constexpr TypePair kU8ToFp32{T::U8, T::FP32};

const OpDef& Tquant() { return *FindOp("tquant"); }
const OpDef& Tdequant() { return *FindOp("tdequant"); }

std::string Hex(Word w) {
  std::ostringstream out;
  out << "0x" << std::hex << w;
  return out.str();
}

std::string Describe(const OpDef& op, TypePair pair, const Inputs& in, NumericExecutionControl c) {
  std::ostringstream out;
  out << op.name << " " << oracle::Format(pair.src).name << "->" << oracle::Format(pair.dst).name
      << " " << RoundingModeName(c.rounding_mode) << (c.saturating ? " Sat" : "") << " in "
      << Hex(in[0]) << " " << Hex(in[1]) << " " << Hex(in[2]);
  return out.str();
}

// Evaluates through the fast path and the literal seed function; they must agree.
Encoded Both(const OpDef& op, TypePair pair, const Inputs& in, NumericExecutionControl c) {
  const Encoded fast = op.evaluate(pair, in, c);
  const Encoded literal = op.evaluate_reference(pair, in, c);
  EXPECT_EQ(fast, literal) << Describe(op, pair, in, c) << ": fast {" << Hex(fast.word) << ", "
                           << Hex(fast.status) << "} literal {" << Hex(literal.word) << ", "
                           << Hex(literal.status) << "}";
  return fast;
}

// ---- An independent model: FP32 decoding, rounding and clamping on cpp_rational ----

Real Pow2(int e) { return e >= 0 ? Real(Integer(1) << e) : Real(Integer(1), Integer(1) << -e); }

bool Fp32Finite(std::uint32_t w) { return (w & 0x7F800000U) != 0x7F800000U; }

Real DecodeFp32(std::uint32_t w) {
  const std::uint32_t field = (w >> 23) & 0xFF;
  const std::uint32_t fraction = w & 0x7FFFFF;
  const std::int64_t significand = field == 0 ? fraction : (fraction | 0x800000U);
  const int exponent = field == 0 ? -149 : static_cast<int>(field) - 150;
  Real magnitude(significand);
  magnitude *= Pow2(exponent);
  return (w & 0x80000000U) != 0 ? Real(-magnitude) : magnitude;
}

Integer Floor(const Real& x) {
  const Integer n = boost::multiprecision::numerator(x);
  const Integer d = boost::multiprecision::denominator(x);  // > 0
  Integer q = n / d;                                        // truncates toward zero
  if (n < 0 && q * d != n) q -= 1;
  return q;
}

Integer RoundIndependently(const Real& x, M mode) {
  const Integer f = Floor(x);
  const Real frac = x - Real(f);
  const Real half(1, 2);
  switch (mode) {
    case M::RNE:
      if (frac < half) return f;
      if (frac > half) return f + 1;
      return (f % 2 == 0) ? f : Integer(f + 1);
    case M::RTM:
      return f;
    case M::RTP:
      return frac == 0 ? f : Integer(f + 1);
    case M::RTZ:
      return (x >= 0 || frac == 0) ? f : Integer(f + 1);
    case M::RNA:
      if (frac < half) return f;
      if (frac > half) return f + 1;
      return x > 0 ? Integer(f + 1) : f;
    case M::RTO:
      if (frac == 0) return f;
      return (f % 2 != 0) ? f : Integer(f + 1);
    case M::RHB:
      return frac >= half ? Integer(f + 1) : f;
  }
  return f;
}

int ZeroPointValue(Word zp, T type) {
  return type == T::S8 ? static_cast<int>(static_cast<std::int8_t>(zp & 0xFF))
                       : static_cast<int>(zp & 0xFF);
}

Word ByteOf(const Integer& i) {  // low 8 bits, two's complement
  Integer m = i % 256;
  if (m < 0) m += 256;
  return static_cast<Word>(m);
}

NumericExecutionControl Ctl(M mode, bool sat = false) { return {mode, sat}; }

// ---- TQUANT: hand-derived values ----

// value * 1.0 + zp for value +/-2.5, +/-0.5 and zp 0, 3: affine values -2.5, -0.5, 0.5, 2.5
// (zp 0) and 0.5, 2.5, 3.5, 5.5 (zp 3). Expected integers per mode (spec-notes section 2):
//           -2.5 -0.5  0.5  2.5  3.5  5.5
//   RNE      -2    0    0    2    4    6   ties to even
//   RTM      -3   -1    0    2    3    5   floor
//   RTP      -2    0    1    3    4    6   ceiling
//   RTZ      -2    0    0    2    3    5   truncation
//   RNA      -3   -1    1    3    4    6   ties away from zero
//   RTO      -3   -1    1    3    3    5   the odd neighbour
//   RHB      -2    0    1    3    4    6   floor(x + 1/2)
struct TieRow {
  M mode;
  std::array<int, 6> expected;  // for affine -2.5, -0.5, 0.5, 2.5, 3.5, 5.5
};
constexpr std::array<TieRow, 7> kTieTable = {{
    {M::RNE, {-2, 0, 0, 2, 4, 6}},
    {M::RTM, {-3, -1, 0, 2, 3, 5}},
    {M::RTP, {-2, 0, 1, 3, 4, 6}},
    {M::RTZ, {-2, 0, 0, 2, 3, 5}},
    {M::RNA, {-3, -1, 1, 3, 4, 6}},
    {M::RTO, {-3, -1, 1, 3, 3, 5}},
    {M::RHB, {-2, 0, 1, 3, 4, 6}},
}};

std::size_t AffineColumn(int twice_affine) {
  switch (twice_affine) {
    case -5:
      return 0;
    case -1:
      return 1;
    case 1:
      return 2;
    case 5:
      return 3;
    case 7:
      return 4;
    case 11:
      return 5;
    default:
      ADD_FAILURE() << "no column for " << twice_affine;
      return 0;
  }
}

TEST(Tquant, TiesUnderEveryModeWithZeroPoints0And3) {
  struct Value {
    Word word;
    int twice;
  };
  const std::array<Value, 4> values = {{{0x40200000, 5},     // 2.5
                                        {0xC0200000, -5},    // -2.5
                                        {0x3F000000, 1},     // 0.5
                                        {0xBF000000, -1}}};  // -0.5
  constexpr Word kOne = 0x3F800000;
  int checked = 0;
  for (const TieRow& row : kTieTable) {
    for (const Value& v : values) {
      for (const int zp : {0, 3}) {
        const std::size_t column = AffineColumn(v.twice + 2 * zp);
        const int expected = row.expected[column];
        for (const bool sat : {false, true}) {
          // S8: every affine value and result is in range: Sat and non-Sat agree.
          EXPECT_EQ(Both(Tquant(), kFp32ToS8, {v.word, kOne, Word(zp)}, Ctl(row.mode, sat)),
                    (Encoded{static_cast<Word>(expected) & 0xFF, 0x10}))
              << RoundingModeName(row.mode) << " value " << Hex(v.word) << " zp " << zp;
          // U8: a negative result clamps to 0 under Sat and wraps otherwise.
          const Word u8 = expected >= 0 ? static_cast<Word>(expected)
                          : sat         ? 0
                                        : static_cast<Word>(expected + 256);
          EXPECT_EQ(Both(Tquant(), kFp32ToU8, {v.word, kOne, Word(zp)}, Ctl(row.mode, sat)),
                    (Encoded{u8, 0x10}))
              << RoundingModeName(row.mode) << " value " << Hex(v.word) << " zp " << zp;
          ++checked;
        }
      }
    }
  }
  EXPECT_EQ(checked, 7 * 4 * 2 * 2);
}

TEST(Tquant, NamedTiesFromTheIssue) {
  // 2.5 -> RNE 2, RTM 2, RTP 3, RTZ 2, RNA 3, RTO 3, RHB 3;
  // -2.5 -> RNE -2, RTM -3, RTP -2, RTZ -2, RNA -3, RTO -3, RHB -2 (S8 words).
  const std::map<M, std::pair<Word, Word>> expected = {
      {M::RNE, {0x02, 0xFE}}, {M::RTM, {0x02, 0xFD}}, {M::RTP, {0x03, 0xFE}},
      {M::RTZ, {0x02, 0xFE}}, {M::RNA, {0x03, 0xFD}}, {M::RTO, {0x03, 0xFD}},
      {M::RHB, {0x03, 0xFE}}};
  for (const auto& [mode, words] : expected) {
    EXPECT_EQ(Both(Tquant(), kFp32ToS8, {0x40200000, 0x3F800000, 0}, Ctl(mode)).word, words.first);
    EXPECT_EQ(Both(Tquant(), kFp32ToS8, {0xC0200000, 0x3F800000, 0}, Ctl(mode)).word, words.second);
  }
}

TEST(Tquant, SatClampsWithoutOverflowAndNonSatWraps) {
  // 200.0 to S8: non-Sat wraps to 0xc8 (exact: status 0); Sat clamps to 0x7f without OF.
  EXPECT_EQ(Both(Tquant(), kFp32ToS8, {0x43480000, 0x3F800000, 0}, Ctl(M::RNE)),
            (Encoded{0xC8, 0x00}));
  EXPECT_EQ(Both(Tquant(), kFp32ToS8, {0x43480000, 0x3F800000, 0}, Ctl(M::RNE, true)),
            (Encoded{0x7F, 0x00}));
  // 200.5 (0x43488000) to S8 under RNE: 200 -> 0xc8 / 0x7f, inexact.
  EXPECT_EQ(Both(Tquant(), kFp32ToS8, {0x43488000, 0x3F800000, 0}, Ctl(M::RNE)),
            (Encoded{0xC8, 0x10}));
  EXPECT_EQ(Both(Tquant(), kFp32ToS8, {0x43488000, 0x3F800000, 0}, Ctl(M::RNE, true)),
            (Encoded{0x7F, 0x10}));
  // -300.0 to U8: -300 mod 256 = 212 (0xd4); Sat 0x00.
  EXPECT_EQ(Both(Tquant(), kFp32ToU8, {0xC3960000, 0x3F800000, 0}, Ctl(M::RTZ)),
            (Encoded{0xD4, 0x00}));
  EXPECT_EQ(Both(Tquant(), kFp32ToU8, {0xC3960000, 0x3F800000, 0}, Ctl(M::RTZ, true)),
            (Encoded{0x00, 0x00}));
  // -126 is stored as the element-width word 0x82 (not the carrier 0xffffffffffffff82):
  // -63.0 * 2.0 + 0.
  EXPECT_EQ(Both(Tquant(), kFp32ToS8, {0xC27C0000, 0x40000000, 0}, Ctl(M::RNE)),
            (Encoded{0x82, 0x00}));
  // Zero point edge: 1.0 * 1.0 + 127 = 128: non-Sat 0x80 (-128), Sat 0x7f.
  EXPECT_EQ(Both(Tquant(), kFp32ToS8, {0x3F800000, 0x3F800000, 0x7F}, Ctl(M::RNE)),
            (Encoded{0x80, 0x00}));
  EXPECT_EQ(Both(Tquant(), kFp32ToS8, {0x3F800000, 0x3F800000, 0x7F}, Ctl(M::RNE, true)),
            (Encoded{0x7F, 0x00}));
  // -1.0 + (-128) = -129: non-Sat 0x7f, Sat 0x80.
  EXPECT_EQ(Both(Tquant(), kFp32ToS8, {0xBF800000, 0x3F800000, 0x80}, Ctl(M::RNE)),
            (Encoded{0x7F, 0x00}));
  EXPECT_EQ(Both(Tquant(), kFp32ToS8, {0xBF800000, 0x3F800000, 0x80}, Ctl(M::RNE, true)),
            (Encoded{0x80, 0x00}));
  // Huge finite values never raise OF in either Sat setting (status 0x00 or 0x10 only).
  for (const Word value : {Word{0x7F7FFFFF}, Word{0xFF7FFFFF}, Word{0x4F000001}, Word{0x43488000},
                           Word{0xC3960000}, Word{0x00000001}}) {
    for (const TypePair pair : {kFp32ToS8, kFp32ToU8}) {
      for (const M mode : oracle::kAllRoundingModes) {
        for (const bool sat : {false, true}) {
          const Encoded r = Both(Tquant(), pair, {value, 0x3FC00000, 0x7F}, Ctl(mode, sat));
          EXPECT_TRUE(r.status == 0x00 || r.status == 0x10) << Hex(value) << " " << Hex(r.status);
          if (sat && value == 0x7F7FFFFF) {
            EXPECT_EQ(r.word, pair.dst == T::S8 ? 0x7Fu : 0xFFu);
          }
          if (sat && value == 0xFF7FFFFF) {
            EXPECT_EQ(r.word, pair.dst == T::S8 ? 0x80u : 0x00u);
          }
        }
      }
    }
  }
}

TEST(Tquant, NaNGivesZeroWithInvalid) {
  for (const Word nan : {Word{0x7FC00000}, Word{0xFFC00000}, Word{0x7FFFFFFF}, Word{0x7F800001},
                         Word{0xFF800001}, Word{0x7FBFFFFF}}) {
    for (const TypePair pair : {kFp32ToS8, kFp32ToU8}) {
      for (const Word zp : {Word{0x00}, Word{0x05}, Word{0x7F}, Word{0x80}, Word{0xFF}}) {
        for (const M mode : oracle::kAllRoundingModes) {
          for (const bool sat : {false, true}) {
            EXPECT_EQ(Both(Tquant(), pair, {nan, 0x3F800000, zp}, Ctl(mode, sat)),
                      (Encoded{0x00, 0x01}));
          }
        }
      }
    }
  }
}

TEST(Tquant, InfinityGivesTheRangeEndWithOverflowInBothSatSettings) {
  for (const M mode : oracle::kAllRoundingModes) {
    for (const bool sat : {false, true}) {
      for (const Word zp : {Word{0x00}, Word{0x7F}, Word{0x80}, Word{0xFF}}) {
        for (const Word scale : {Word{0x3F800000}, Word{0x00000001}, Word{0x7F7FFFFF}}) {
          EXPECT_EQ(Both(Tquant(), kFp32ToS8, {0x7F800000, scale, zp}, Ctl(mode, sat)),
                    (Encoded{0x7F, 0x14}));
          EXPECT_EQ(Both(Tquant(), kFp32ToS8, {0xFF800000, scale, zp}, Ctl(mode, sat)),
                    (Encoded{0x80, 0x14}));
          EXPECT_EQ(Both(Tquant(), kFp32ToU8, {0x7F800000, scale, zp}, Ctl(mode, sat)),
                    (Encoded{0xFF, 0x14}));
          EXPECT_EQ(Both(Tquant(), kFp32ToU8, {0xFF800000, scale, zp}, Ctl(mode, sat)),
                    (Encoded{0x00, 0x14}));
        }
      }
    }
  }
}

TEST(Tquant, ZerosAndSubnormals) {
  for (const M mode : oracle::kAllRoundingModes) {
    // +/-0 * s + 3 = 3 exactly.
    EXPECT_EQ(Both(Tquant(), kFp32ToS8, {0x80000000, 0x3F800000, 3}, Ctl(mode)),
              (Encoded{0x03, 0x00}));
    EXPECT_EQ(Both(Tquant(), kFp32ToS8, {0x00000000, 0x7F7FFFFF, 3}, Ctl(mode)),
              (Encoded{0x03, 0x00}));
  }
  // 2^-149 * 1.0 + 0: tiny positive, inexact: RTP 1, RTM 0, RNE 0, RTO 1.
  EXPECT_EQ(Both(Tquant(), kFp32ToS8, {0x00000001, 0x3F800000, 0}, Ctl(M::RTP)),
            (Encoded{0x01, 0x10}));
  EXPECT_EQ(Both(Tquant(), kFp32ToS8, {0x00000001, 0x3F800000, 0}, Ctl(M::RTM)),
            (Encoded{0x00, 0x10}));
  EXPECT_EQ(Both(Tquant(), kFp32ToS8, {0x80000001, 0x3F800000, 0}, Ctl(M::RTM)),
            (Encoded{0xFF, 0x10}));
  EXPECT_EQ(Both(Tquant(), kFp32ToS8, {0x00000001, 0x3F800000, 0}, Ctl(M::RTO)),
            (Encoded{0x01, 0x10}));
  // A subnormal value times a largest scale: 0x00400000 (2^-127) * 0x7F000000 (2^127) = 1.
  EXPECT_EQ(Both(Tquant(), kFp32ToU8, {0x00400000, 0x7F000000, 0xFF}, Ctl(M::RNE)),
            (Encoded{0x00, 0x00}));  // 1 + 255 = 256 wraps to 0
  EXPECT_EQ(Both(Tquant(), kFp32ToU8, {0x00400000, 0x7F000000, 0xFF}, Ctl(M::RNE, true)),
            (Encoded{0xFF, 0x00}));
}

// ---- TDEQUANT: hand-derived values ----

TEST(Tdequant, ExactProducts) {
  for (const M mode : oracle::kAllRoundingModes) {
    for (const bool sat : {false, true}) {
      // (5 - 3) * 1.5 = 3.0 (0x40400000); (-128 - 127) * 0.5 = -127.5 (0xc2ff0000).
      EXPECT_EQ(Both(Tdequant(), kS8ToFp32, {0x05, 0x3FC00000, 0x03}, Ctl(mode, sat)),
                (Encoded{0x40400000, 0x00}));
      EXPECT_EQ(Both(Tdequant(), kS8ToFp32, {0x80, 0x3F000000, 0x7F}, Ctl(mode, sat)),
                (Encoded{0xC2FF0000, 0x00}));
      // U8: (0 - 255) * 0.5 = -127.5; v == zp gives +0.
      EXPECT_EQ(Both(Tdequant(), kU8ToFp32, {0x00, 0x3F000000, 0xFF}, Ctl(mode, sat)),
                (Encoded{0xC2FF0000, 0x00}));
      EXPECT_EQ(Both(Tdequant(), kU8ToFp32, {0x80, 0x3F000000, 0x80}, Ctl(mode, sat)),
                (Encoded{0x00000000, 0x00}));
    }
  }
}

TEST(Tdequant, RoundingAndTiesUnderEveryMode) {
  // 3 * (1 + 2^-23) = 3 + 3 * 2^-23: the FP32 neighbours are 3 + 2^-22 and 3 + 2^-21 (ulp 2^-22
  // at [2, 4)), and 3 + 3 * 2^-23 is exactly half-way: a tie between 0x40400001 and 0x40400002.
  const std::map<M, Word> positive = {
      {M::RNE, 0x40400002}, {M::RTM, 0x40400001}, {M::RTP, 0x40400002}, {M::RTZ, 0x40400001},
      {M::RNA, 0x40400002}, {M::RTO, 0x40400001}, {M::RHB, 0x40400002}};
  // -3 * (1 + 2^-23): RTM/RTP swap roles, RNA away from zero, RHB toward +infinity.
  const std::map<M, Word> negative = {
      {M::RNE, 0xC0400002}, {M::RTM, 0xC0400002}, {M::RTP, 0xC0400001}, {M::RTZ, 0xC0400001},
      {M::RNA, 0xC0400002}, {M::RTO, 0xC0400001}, {M::RHB, 0xC0400001}};
  for (const bool sat : {false, true}) {
    for (const auto& [mode, word] : positive) {
      EXPECT_EQ(Both(Tdequant(), kS8ToFp32, {0x03, 0x3F800001, 0x00}, Ctl(mode, sat)),
                (Encoded{word, 0x10}))
          << RoundingModeName(mode);
      EXPECT_EQ(Both(Tdequant(), kU8ToFp32, {0x05, 0x3F800001, 0x02}, Ctl(mode, sat)),
                (Encoded{word, 0x10}))
          << RoundingModeName(mode);
    }
    for (const auto& [mode, word] : negative) {
      EXPECT_EQ(Both(Tdequant(), kS8ToFp32, {0x00, 0x3F800001, 0x03}, Ctl(mode, sat)),
                (Encoded{word, 0x10}))
          << RoundingModeName(mode);
    }
  }
}

TEST(Tdequant, OverflowToInfinityInEveryMode) {
  for (const M mode : oracle::kAllRoundingModes) {
    for (const bool sat : {false, true}) {
      // 255 * max finite and -128 * max finite overflow to +/-Inf with OF|NX, RTZ and RTM too.
      EXPECT_EQ(Both(Tdequant(), kU8ToFp32, {0xFF, 0x7F7FFFFF, 0x00}, Ctl(mode, sat)),
                (Encoded{0x7F800000, 0x14}));
      EXPECT_EQ(Both(Tdequant(), kS8ToFp32, {0x80, 0x7F7FFFFF, 0x00}, Ctl(mode, sat)),
                (Encoded{0xFF800000, 0x14}));
      // (-127 - 127) * 2^127 = -254 * 2^127 < -2^128.
      EXPECT_EQ(Both(Tdequant(), kS8ToFp32, {0x81, 0x7F000000, 0x7F}, Ctl(mode, sat)),
                (Encoded{0xFF800000, 0x14}));
      // 2 * 2^127 = 2^128 exactly: overflows (>= 2^128) although exact.
      EXPECT_EQ(Both(Tdequant(), kU8ToFp32, {0x02, 0x7F000000, 0x00}, Ctl(mode, sat)),
                (Encoded{0x7F800000, 0x14}));
      // 1 * max finite: exact, no overflow.
      EXPECT_EQ(Both(Tdequant(), kU8ToFp32, {0x01, 0x7F7FFFFF, 0x00}, Ctl(mode, sat)),
                (Encoded{0x7F7FFFFF, 0x00}));
    }
  }
}

TEST(Tdequant, SubnormalResultsAreExactSoNeverUnderflow) {
  // Every product (v - zp) * scale is an integer multiple of 2^-149 (the scale is), so a
  // subnormal result is always exact: status 0x00, never UF|NX (0x18) in TDEQUANT.
  for (const M mode : oracle::kAllRoundingModes) {
    EXPECT_EQ(Both(Tdequant(), kS8ToFp32, {0x01, 0x00000001, 0x00}, Ctl(mode)),
              (Encoded{0x00000001, 0x00}));
    EXPECT_EQ(Both(Tdequant(), kS8ToFp32, {0x80, 0x00000001, 0x00}, Ctl(mode)),
              (Encoded{0x80000080, 0x00}));
    // 255 * 0x007FFFFF = 255 * (2^23 - 1) * 2^-149: normal (>= 2^-126), exact? 255 * (2^23 - 1)
    // has 31 bits, so it rounds: inexact normal result, NX only.
    const Encoded r = Both(Tdequant(), kU8ToFp32, {0xFF, 0x007FFFFF, 0x00}, Ctl(mode));
    EXPECT_EQ(r.status, 0x10);
    // 3 * 2^-127 (0x00400000) = 1.5 * 2^-126: the exact normal 0x00c00000.
    EXPECT_EQ(Both(Tdequant(), kU8ToFp32, {0x03, 0x00400000, 0x00}, Ctl(mode)),
              (Encoded{0x00C00000, 0x00}));
  }
  for (Word v = 0; v < 256; ++v) {
    for (Word zp = 0; zp < 256; zp += 17) {
      for (const Word scale :
           {Word{0x00000001}, Word{0x00400000}, Word{0x007FFFFF}, Word{0x00012345}}) {
        const Encoded r = Tdequant().evaluate(kS8ToFp32, {v, scale, zp}, Ctl(M::RNE));
        EXPECT_EQ(r.status & 0x08, 0) << Hex(v) << " " << Hex(scale) << " " << Hex(zp);
      }
    }
  }
}

// ---- check_domain and the CLI path ----

TEST(QuantizationOps, CheckDomainRejectsIllegalScales) {
  const std::map<Word, std::string> bad = {
      {0x00000000,
       "tquant scale 0x00000000 is zero; accepted: a positive finite non-zero fp32 "
       "(0x00000001..0x7f7fffff)"},
      {0x80000000,
       "tquant scale 0x80000000 is negative zero; accepted: a positive finite "
       "non-zero fp32 (0x00000001..0x7f7fffff)"},
      {0xBF800000,
       "tquant scale 0xbf800000 is negative; accepted: a positive finite non-zero "
       "fp32 (0x00000001..0x7f7fffff)"},
      {0x80000001,
       "tquant scale 0x80000001 is negative; accepted: a positive finite non-zero "
       "fp32 (0x00000001..0x7f7fffff)"},
      {0x7FC00000,
       "tquant scale 0x7fc00000 is a quiet NaN; accepted: a positive finite non-zero "
       "fp32 (0x00000001..0x7f7fffff)"},
      {0x7F800001,
       "tquant scale 0x7f800001 is a signaling NaN; accepted: a positive finite "
       "non-zero fp32 (0x00000001..0x7f7fffff)"},
      {0x7F800000,
       "tquant scale 0x7f800000 is +infinity; accepted: a positive finite non-zero "
       "fp32 (0x00000001..0x7f7fffff)"},
      {0xFF800000,
       "tquant scale 0xff800000 is -infinity; accepted: a positive finite non-zero "
       "fp32 (0x00000001..0x7f7fffff)"},
  };
  for (const auto& [scale, message] : bad) {
    const auto problem = Tquant().check_domain(kFp32ToS8, {0x3F800000, scale, 0});
    ASSERT_TRUE(problem.has_value()) << Hex(scale);
    EXPECT_EQ(*problem, message);
    const auto dequant = Tdequant().check_domain(kU8ToFp32, {0x01, scale, 0});
    ASSERT_TRUE(dequant.has_value()) << Hex(scale);
    EXPECT_EQ(dequant->rfind("tdequant scale ", 0), 0u) << *dequant;
    EXPECT_EQ(dequant->find('\n'), std::string::npos);
  }
  for (const Word scale :
       {Word{0x00000001}, Word{0x007FFFFF}, Word{0x00800000}, Word{0x3F800000}, Word{0x7F7FFFFF}}) {
    EXPECT_FALSE(Tquant().check_domain(kFp32ToU8, {0x7FC00000, scale, 0xFF}).has_value());
    EXPECT_FALSE(Tdequant().check_domain(kS8ToFp32, {0x80, scale, 0x7F}).has_value());
  }
  // The value of tquant may be any FP32 code (NaN and Inf included).
  EXPECT_FALSE(Tquant().check_domain(kFp32ToS8, {0xFF800000, 0x3F800000, 0x80}).has_value());
}

TEST(QuantizationOps, EvalCasesFromTheCommandLine) {
  const Case q =
      MakeCase("tquant", "fp32", "s8", "RNE", false, {"0x40200000", "0x3f800000", "0x00"});
  const nlohmann::ordered_json qj = CaseJson(q, EvaluateCase(q));
  EXPECT_EQ(qj["out"], "0x02");
  EXPECT_EQ(qj["flags"], "0x10");
  const Case d = MakeCase("tdequant", "u8", "fp32", "RTZ", false, {"0xff", "0x7f7fffff", "0x00"});
  const nlohmann::ordered_json dj = CaseJson(d, EvaluateCase(d));
  EXPECT_EQ(dj["out"], "0x7f800000");
  EXPECT_EQ(dj["flags"], "0x14");
  EXPECT_EQ(EvalCommand(d),
            "ptovec eval --op tdequant --src u8 --dst fp32 --rmode RTZ 0xff "
            "0x7f7fffff 0x00");
  try {
    MakeCase("tquant", "fp32", "s8", "RNE", false, {"0x40200000", "0x00000000", "0x00"});
    ADD_FAILURE() << "a zero scale was accepted";
  } catch (const InputError& e) {
    EXPECT_EQ(std::string(e.what()),
              "tquant scale 0x00000000 is zero; accepted: a positive finite non-zero fp32 "
              "(0x00000001..0x7f7fffff)");
  }
  EXPECT_THROW(MakeCase("tquant", "fp32", "s16", "RNE", false, {"0x0", "0x3f800000", "0x0"}),
               InputError);
  EXPECT_THROW(MakeCase("tdequant", "s8", "fp32", "RNE", false, {"0x100", "0x3f800000", "0x0"}),
               InputError);
  EXPECT_THROW(MakeCase("tdequant", "s8", "fp32", "RNE", false, {"0x1", "0xbf800000", "0x0"}),
               InputError);
}

TEST(QuantizationOps, Registry) {
  EXPECT_EQ(Tquant().instruction, "TQUANT");
  EXPECT_EQ(Tdequant().instruction, "TDEQUANT");
  EXPECT_EQ(Tquant().slots.size(), 3u);
  EXPECT_EQ(Tdequant().slots.size(), 3u);
  EXPECT_EQ(Tquant().slots[2].TypeFor(kFp32ToU8), T::U8);    // zero point: destination type
  EXPECT_EQ(Tdequant().slots[2].TypeFor(kS8ToFp32), T::S8);  // zero point: source type
  EXPECT_EQ(Tquant().slots[1].TypeFor(kFp32ToS8), T::FP32);
  EXPECT_EQ(ControlsFor(Tquant()).size(), 14u);
  EXPECT_EQ(ControlsFor(Tdequant()).size(), 14u);
  EXPECT_EQ(Tquant().default_suite_pairs, (std::vector<TypePair>{kFp32ToS8, kFp32ToU8}));
  EXPECT_EQ(Tdequant().default_suite_pairs, (std::vector<TypePair>{kS8ToFp32, kU8ToFp32}));
  EXPECT_FALSE(IsLegalPair(Tquant(), {T::FP16, T::S8}));
  EXPECT_FALSE(IsLegalPair(Tdequant(), {T::S16, T::FP32}));
  const SamplingOptions sampling{5, 700};
  for (const OpDef* op : {&Tquant(), &Tdequant()}) {
    for (const TypePair pair : op->default_suite_pairs) {
      EXPECT_EQ(op->domain(pair, sampling).count, op->domain_count(pair, sampling));
    }
  }
  EXPECT_EQ(Tquant().domain_count(kFp32ToS8, sampling), 700u);
  EXPECT_EQ(Tdequant().domain_count(kS8ToFp32, sampling), 65536u * 12);
}

// ---- Default domains ----

bool IsPowerOfTwo(std::uint32_t w) {
  const std::uint32_t field = w >> 23;
  const std::uint32_t fraction = w & 0x7FFFFF;
  return field == 0 ? (fraction != 0 && (fraction & (fraction - 1)) == 0) : fraction == 0;
}

TEST(TdequantDomain, ScaleSetHasEveryKindAndCount65536TimesK) {
  for (std::uint64_t seed = 1; seed <= 40; ++seed) {
    for (const TypePair pair : {kS8ToFp32, kU8ToFp32}) {
      SCOPED_TRACE("seed " + std::to_string(seed) + " " +
                   std::string(oracle::Format(pair.src).name));
      const InputSet set = Tdequant().domain(pair, {seed, 100000});
      ASSERT_EQ(set.count % 65536, 0u);
      const std::uint64_t k = set.count / 65536;
      EXPECT_EQ(k, 12u);
      EXPECT_EQ(set.kind, "sampled");
      std::set<std::uint32_t> scales;
      bool power_of_two = false, subnormal = false, overflow = false, full = false;
      for (std::uint64_t s = 0; s < k; ++s) {
        const auto w = static_cast<std::uint32_t>(set.at(s * 65536)[1]);
        scales.insert(w);
        EXPECT_FALSE(Tdequant().check_domain(pair, {0, w, 0}).has_value()) << Hex(w);
        power_of_two |= IsPowerOfTwo(w);
        subnormal |= (w >> 23) == 0;
        overflow |= Real(255) * DecodeFp32(w) >= Pow2(128);
        full |= (w & 1) != 0 && (w >> 23) != 0;  // 24 significant bits
      }
      EXPECT_EQ(scales.size(), k);
      EXPECT_TRUE(power_of_two);
      EXPECT_TRUE(subnormal);
      EXPECT_TRUE(overflow);
      EXPECT_TRUE(full);
      // Scale-major, then value, then zero point; at(i) is a pure function of i.
      for (const std::uint64_t i :
           std::vector<std::uint64_t>{0, 1, 255, 256, 65535, 65536, 300001, set.count - 1}) {
        const Inputs a = set.at(i);
        EXPECT_EQ(a, set.at(i));
        EXPECT_EQ(a[0], (i >> 8) & 0xFF);
        EXPECT_EQ(a[2], i & 0xFF);
        EXPECT_EQ(a[1], set.at((i >> 16) << 16)[1]);
      }
      // Reproducible.
      EXPECT_EQ(Tdequant().domain(pair, {seed, 7}).at(set.count - 1), set.at(set.count - 1));
    }
  }
}

TEST(TquantDomain, SampleHasTiesForEveryZeroPointEdgeAndEverySpecial) {
  for (const TypePair pair : {kFp32ToS8, kFp32ToU8}) {
    SCOPED_TRACE(oracle::Format(pair.dst).name);
    const InputSet set = Tquant().domain(pair, {1, 20000});
    ASSERT_EQ(set.count, 20000u);
    EXPECT_EQ(set.kind, "sampled");
    const std::vector<Word> edges =
        pair.dst == T::S8 ? std::vector<Word>{0x80, 0x7F, 0x00} : std::vector<Word>{0x00, 0xFF};
    std::map<Word, int> ties_per_edge;
    std::map<Word, int> integers_per_edge;
    std::map<Word, int> ties_near_min_per_edge;  // x * scale + zp = k + 0.5 within 3 of the ends
    std::map<Word, int> ties_near_max_per_edge;
    int ties_near_min = 0, ties_near_max = 0, beyond = 0;
    std::set<std::string> classes;
    const int lo = pair.dst == T::S8 ? -128 : 0;
    const int hi = pair.dst == T::S8 ? 127 : 255;
    for (std::uint64_t i = 0; i < set.count; ++i) {
      const Inputs in = set.at(i);
      ASSERT_FALSE(Tquant().check_domain(pair, in).has_value());
      const auto value = static_cast<std::uint32_t>(in[0]);
      classes.insert(std::string(
          oracle::NumericValueClassName(oracle::TileNumericValueClass(T::FP32, value))));
      if (!Fp32Finite(value)) continue;
      const Real affine = DecodeFp32(value) * DecodeFp32(static_cast<std::uint32_t>(in[1])) +
                          Real(ZeroPointValue(in[2], pair.dst));
      const Real twice = affine * 2;
      const bool on_half_grid = boost::multiprecision::denominator(twice) == 1;
      if (on_half_grid) {
        const Integer t = boost::multiprecision::numerator(twice);
        const bool tie = t % 2 != 0;
        const bool near_min = tie && t >= 2 * (lo - 3) && t <= 2 * (lo + 3);
        const bool near_max = tie && t >= 2 * (hi - 3) && t <= 2 * (hi + 3);
        if (std::find(edges.begin(), edges.end(), in[2]) != edges.end()) {
          (tie ? ties_per_edge : integers_per_edge)[in[2]]++;
          if (near_min) ties_near_min_per_edge[in[2]]++;
          if (near_max) ties_near_max_per_edge[in[2]]++;
        }
        if (near_min) ++ties_near_min;
        if (near_max) ++ties_near_max;
      }
      if (affine > Real(hi + 1000) || affine < Real(lo - 1000)) ++beyond;
    }
    for (const Word edge : edges) {
      EXPECT_GT(ties_per_edge[edge], 50) << "zero point " << Hex(edge);
      EXPECT_GT(integers_per_edge[edge], 50) << "zero point " << Hex(edge);
      EXPECT_GT(ties_near_min_per_edge[edge], 20) << "zero point " << Hex(edge);
      EXPECT_GT(ties_near_max_per_edge[edge], 20) << "zero point " << Hex(edge);
    }
    EXPECT_GT(ties_near_min, 50);
    EXPECT_GT(ties_near_max, 50);
    EXPECT_GT(beyond, 500);
    for (const char* c : {"QuietNaN", "SignalingNaN", "PositiveInfinity", "NegativeInfinity",
                          "PositiveZero", "NegativeZero", "PositiveSubnormal", "NegativeSubnormal",
                          "PositiveNormal", "NegativeNormal"}) {
      EXPECT_EQ(classes.count(c), 1u) << c;
    }
  }
}

// evaluate (fast) == evaluate_reference (literal) over tuples of the default domains (1500 per
// pair, 3000 per op), all 14 controls.
constexpr std::uint64_t kLiteralTuplesPerPair = 1500;

TEST(QuantizationOps, TquantFastEqualsLiteralOverTheDefaultDomain) {
  std::uint64_t compared = 0;
  for (const TypePair pair : {kFp32ToS8, kFp32ToU8}) {
    const InputSet set = Tquant().domain(pair, {11, kLiteralTuplesPerPair});
    ASSERT_EQ(set.count, kLiteralTuplesPerPair);
    for (std::uint64_t i = 0; i < set.count; ++i) {
      const Inputs in = set.at(i);
      for (const NumericExecutionControl c : ControlsFor(Tquant())) {
        const Encoded fast = Tquant().evaluate(pair, in, c);
        const Encoded literal = Tquant().evaluate_reference(pair, in, c);
        ASSERT_EQ(fast, literal) << Describe(Tquant(), pair, in, c);
        ++compared;
      }
    }
  }
  EXPECT_EQ(compared, 2 * kLiteralTuplesPerPair * 14);
}

TEST(QuantizationOps, TdequantFastEqualsLiteralOverTheDefaultDomain) {
  std::uint64_t compared = 0;
  for (const TypePair pair : {kS8ToFp32, kU8ToFp32}) {
    const InputSet set = Tdequant().domain(pair, {11, 1});
    // Indices spread over every scale by a linear congruential walk modulo the count; the first
    // 12 visit (scale k, value k, zero point 0) so every scale is covered.
    std::set<Word> scales;
    std::uint64_t i = 12345;
    for (std::uint64_t n = 0; n < kLiteralTuplesPerPair; ++n) {
      i = n < 12 ? n * 65536 + n * 256
                 : (i * 6364136223846793005ULL + 1442695040888963407ULL) % set.count;
      const Inputs in = set.at(i);
      scales.insert(in[1]);
      for (const NumericExecutionControl c : ControlsFor(Tdequant())) {
        const Encoded fast = Tdequant().evaluate(pair, in, c);
        const Encoded literal = Tdequant().evaluate_reference(pair, in, c);
        ASSERT_EQ(fast, literal) << Describe(Tdequant(), pair, in, c);
        ++compared;
      }
    }
    EXPECT_EQ(scales.size(), 12u);
  }
  EXPECT_EQ(compared, 2 * kLiteralTuplesPerPair * 14);
}

// ---- Properties ----

rc::Gen<std::uint32_t> LegalScale() {
  return rc::gen::weightedOneOf<std::uint32_t>({
      {3, rc::gen::map(rc::gen::inRange(-12, 13),
                       [](int e) { return static_cast<std::uint32_t>(127 + e) << 23; })},
      {3, rc::gen::inRange<std::uint32_t>((127 - 8) << 23, (127 + 8) << 23)},
      {1, rc::gen::inRange<std::uint32_t>(1, 0x7F800000)},
  });
}

rc::Gen<std::uint32_t> FiniteValue() {
  return rc::gen::weightedOneOf<std::uint32_t>({
      // |x| in [2^-4, 2^10): around the destination ranges.
      {3, rc::gen::inRange<std::uint32_t>((127 - 4) << 23, (127 + 10) << 23)},
      {2, rc::gen::map(rc::gen::inRange<std::uint32_t>((127 - 4) << 23, (127 + 10) << 23),
                       [](std::uint32_t w) { return w | 0x80000000U; })},
      // Any finite value.
      {1, rc::gen::inRange<std::uint32_t>(0, 0x7F800000)},
      {1, rc::gen::map(rc::gen::inRange<std::uint32_t>(0, 0x7F800000),
                       [](std::uint32_t w) { return w | 0x80000000U; })},
  });
}

// With Sat, TQUANT equals clamp(round(x * scale + zp)) computed independently on cpp_rational;
// without Sat its low 8 bits; NX iff inexact; never OF.
RC_GTEST_PROP(TquantProperties, MatchesAnIndependentRationalModel, ()) {
  const std::uint32_t value = *FiniteValue();
  const std::uint32_t scale = *LegalScale();
  const Word zp = *rc::gen::inRange<Word>(0, 256);
  const T dst = *rc::gen::element(T::S8, T::U8);
  const int lo = dst == T::S8 ? -128 : 0;
  const int hi = dst == T::S8 ? 127 : 255;
  const Real affine = DecodeFp32(value) * DecodeFp32(scale) + Real(ZeroPointValue(zp, dst));
  for (const M mode : oracle::kAllRoundingModes) {
    const Integer rounded = RoundIndependently(affine, mode);
    const Integer clamped = rounded < lo ? Integer(lo) : rounded > hi ? Integer(hi) : rounded;
    const Status status = Real(rounded) == affine ? 0x00 : 0x10;
    const Inputs in{value, scale, zp, 0};
    const Encoded sat = Tquant().evaluate({T::FP32, dst}, in, {mode, true});
    const Encoded wrap = Tquant().evaluate({T::FP32, dst}, in, {mode, false});
    RC_ASSERT(sat == (Encoded{ByteOf(clamped), status}));
    RC_ASSERT(wrap == (Encoded{ByteOf(rounded), status}));
    RC_ASSERT(sat == Tquant().evaluate_reference({T::FP32, dst}, in, {mode, true}));
    RC_ASSERT(wrap == Tquant().evaluate_reference({T::FP32, dst}, in, {mode, false}));
  }
}

// For a fixed scale and zero point, TQUANT with Sat is monotonic in the value (signed order for
// S8), infinities included.
RC_GTEST_PROP(TquantProperties, SatIsMonotonicInTheValue, ()) {
  const auto draw_value = [] {
    return *rc::gen::weightedOneOf<std::uint32_t>(
        {{6, FiniteValue()},
         {1, rc::gen::element<std::uint32_t>(0x7F800000U, 0xFF800000U, 0x00000000U, 0x80000000U)}});
  };
  std::uint32_t a = draw_value();
  std::uint32_t b = *rc::gen::weightedOneOf<std::uint32_t>(
      {{1, rc::gen::just(a)},  // close neighbours: a few ulps apart
       {2, rc::gen::map(rc::gen::inRange(-3, 4), [a](int d) { return Fp32Step(a, d); })},
       {2, rc::gen::just(draw_value())}});
  if (Fp32Ordinal(b) < Fp32Ordinal(a)) std::swap(a, b);
  const std::uint32_t scale = *LegalScale();
  const Word zp = *rc::gen::inRange<Word>(0, 256);
  for (const T dst : {T::S8, T::U8}) {
    for (const M mode : oracle::kAllRoundingModes) {
      const Encoded ra = Tquant().evaluate({T::FP32, dst}, {a, scale, zp}, {mode, true});
      const Encoded rb = Tquant().evaluate({T::FP32, dst}, {b, scale, zp}, {mode, true});
      const int ia = ZeroPointValue(ra.word, dst);
      const int ib = ZeroPointValue(rb.word, dst);
      RC_ASSERT(ia <= ib);
    }
  }
}

// TDEQUANT is exact (status 0, the word built here by hand) whenever (v - zp) * scale has at most
// 24 significant bits and is below 2^128; otherwise it rounds (NX) or overflows (OF|NX).
RC_GTEST_PROP(TdequantProperties, ExactWhenTheProductFitsFp32, ()) {
  const T src = *rc::gen::element(T::S8, T::U8);
  const Word v = *rc::gen::inRange<Word>(0, 256);
  const Word zp = *rc::gen::inRange<Word>(0, 256);
  // Scales with few significant bits (the top `kept` fraction bits), any exponent.
  const std::uint32_t field =
      *rc::gen::weightedOneOf<std::uint32_t>({{4, rc::gen::inRange<std::uint32_t>(100, 155)},
                                              {1, rc::gen::inRange<std::uint32_t>(0, 255)}});
  // The significand then has exactly kept + 1 bits (the lowest kept fraction bit is set), so
  // the product fits 24 bits for small `kept` and needs rounding for most large ones.
  const int kept =
      *rc::gen::weightedOneOf<int>({{1, rc::gen::inRange(0, 17)}, {1, rc::gen::inRange(17, 24)}});
  const std::uint32_t fraction_mask = ((1U << kept) - 1) << (23 - kept);  // kept 0..23
  const std::uint32_t lowest_kept = kept == 0 ? 0 : 1U << (23 - kept);
  std::uint32_t scale =
      (field << 23) |
      ((*rc::gen::inRange<std::uint32_t>(0, 1U << 23) & fraction_mask) | lowest_kept);
  if (scale == 0) scale = 1;
  const std::int64_t d = ZeroPointValue(v, src) - ZeroPointValue(zp, src);
  const std::uint32_t f = scale >> 23;
  std::uint64_t magnitude = static_cast<std::uint64_t>(d < 0 ? -d : d) *
                            (f == 0 ? (scale & 0x7FFFFF) : ((scale & 0x7FFFFF) | 0x800000));
  int exponent = f == 0 ? -149 : static_cast<int>(f) - 150;
  Encoded expected{0, 0};
  bool fits = true;
  if (magnitude != 0) {
    while ((magnitude & 1) == 0) magnitude >>= 1, ++exponent;
    int bits = 0;
    for (std::uint64_t m = magnitude; m != 0; m >>= 1) ++bits;
    fits = bits <= 24 && exponent + bits <= 128;  // value < 2^(exponent + bits) <= 2^128
    if (fits) {
      const Word sign = d < 0 ? 0x80000000U : 0;
      if (exponent + bits <= -126) {  // below 2^-126: subnormal, on the 2^-149 grid
        expected = {sign | (magnitude << (exponent + 149)), 0};
      } else {
        const int shift = 24 - bits;
        const std::uint64_t significand = magnitude << shift;  // in [2^23, 2^24)
        const int e = exponent - shift;                        // value = significand * 2^e
        expected = {sign | (static_cast<Word>(e + 150) << 23) | (significand - 0x800000), 0};
      }
    }
  }
  RC_TAG(fits ? "fits" : "rounds or overflows");
  for (const NumericExecutionControl c : ControlsFor(Tdequant())) {
    const Encoded r = Tdequant().evaluate({src, T::FP32}, {v, scale, zp}, c);
    RC_ASSERT(r == Tdequant().evaluate_reference({src, T::FP32}, {v, scale, zp}, c));
    if (fits) {
      RC_ASSERT(r == expected);
    } else {
      RC_ASSERT(r.status == 0x10 || r.status == 0x14);
    }
  }
}

}  // namespace
}  // namespace quantization_ops_test
}  // namespace ptovec::generator
