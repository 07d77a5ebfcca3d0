// Known answers of edition 2026-09's TCVT (Convert2026_09 and the transliterations of
// /work/shared/spec-2026-09 it calls). Every expected word and status is derived by hand from the
// ASL (the line numbers are given) and the binary layouts; none is computed by the oracle.
#include <gtest/gtest.h>

#include <string>
#include <variant>
#include <vector>

#include "ptovec/oracle/edition_2026_09.hpp"
#include "ptovec/oracle/edition_2026_09_encoding.hpp"
#include "ptovec/oracle/formats.hpp"
#include "test_support.hpp"

namespace ptovec::oracle {
namespace tcvt_2026_09_test {
namespace {

using test_support::Hex;
using test_support::Pow2;
using test_support::Q;

using M = NumericRoundingMode;
using T = TileDataType;

constexpr NumericExecutionControl kRne{M::RNE, false};

struct Answer {
  T src;
  T dst;
  Word value;
  M mode;
  bool sat;
  Word word;
  Status status;
  const char* why;
};

void ExpectAnswers(const std::vector<Answer>& answers) {
  for (const Answer& a : answers) {
    const Conversion2026_09 got = Convert2026_09(a.src, a.dst, a.value, {a.mode, a.sat});
    const std::string where = std::string(Format(a.src).name) + " " + Hex(a.value) + " -> " +
                              std::string(Format(a.dst).name) + " " +
                              std::string(RoundingModeName(a.mode)) + (a.sat ? " sat" : "") + " (" +
                              a.why + ")";
    ASSERT_TRUE(std::holds_alternative<Encoded>(got))
        << where << ": refused: " << std::get<Refusal2026_09>(got).message;
    EXPECT_EQ(std::get<Encoded>(got), (Encoded{a.word, a.status})) << where;
  }
}

// The three answers and the rest of PTO-COMMON-CONVERSION-001's specials
// (reference-conversion.asl lines 84-140).
TEST(Tcvt2026_09KnownAnswers, CommonConversionSpecials) {
  ExpectAnswers({
      {T::FP32, T::FP16, 0x7f800000, M::RNE, false, 0x7c00, 0, "+Inf by value, no flag"},
      {T::FP32, T::FP16, 0x7f800000, M::RTZ, true, 0x7c00, 0, "an infinity is kept, Sat or not"},
      {T::FP32, T::FP16, 0xff800000, M::RNE, false, 0xfc00, 0, "-Inf"},
      {T::FP32, T::FP16, 0x80000000, M::RNE, false, 0x8000, 0, "-0 keeps its sign"},
      {T::FP32, T::FP16, 0x00000000, M::RTM, false, 0x0000, 0, "+0"},
      {T::FP32, T::S32, 0x7fc00000, M::RTZ, false, 0, kStatusNV, "NaN to an integer: 0, NV"},
      {T::FP32, T::S32, 0x7f800001, M::RTZ, true, 0, kStatusNV, "signaling NaN alike"},
      {T::FP32, T::FP16, 0x7fc00000, M::RNE, false, 0x7e00, 0, "quiet NaN: canonical, no NV"},
      {T::FP32, T::FP16, 0x7f800001, M::RNE, false, 0x7e00, kStatusNV, "signaling: NV"},
      {T::FP16, T::FP64, 0xfe00, M::RNE, false, 0x7ff8000000000000, 0, "canonical FP64 NaN"},
      {T::FP32, T::S8, 0xff800000, M::RTZ, false, 0xffffffffffffff80, kStatusNV, "-Inf: min"},
      {T::FP32, T::U16, 0x7f800000, M::RTZ, false, 0xffff, kStatusNV, "+Inf: max, NV"},
      {T::FP32, T::E4M3, 0x7f800000, M::RNE, false, 0x7f, kStatusOFNX, "no Inf: NaN"},
      {T::FP32, T::E4M3, 0xff800000, M::RNE, true, 0xfe, kStatusOFNX, "Sat: -448"},
      {T::FP64, T::E4M3, 0x8000000000000000, M::RNE, false, 0x80, 0, "-0 to E4M3"},
      {T::E4M3, T::FP16, 0x7f, M::RNE, false, 0x7e00, 0, "E4M3 NaN is quiet"},
  });
}

// Finite values by value: ReferenceMatrixFloatingEncoding / ReferenceMatrixIntegerEncoding.
TEST(Tcvt2026_09KnownAnswers, CommonConversionByValue) {
  ExpectAnswers({
      {T::FP32, T::FP16, 0x3fc00000, M::RNE, false, 0x3e00, 0, "1.5"},
      {T::FP16, T::FP32, 0x3e00, M::RNE, false, 0x3fc00000, 0, "1.5 back"},
      {T::FP32, T::FP64, 0x3f800000, M::RNE, false, 0x3ff0000000000000, 0, "1.0"},
      {T::FP64, T::FP32, 0x7fefffffffffffff, M::RTZ, false, 0x7f800000, kStatusOFNX,
       "overflow gives Inf in every mode (rule 1)"},
      {T::FP64, T::FP32, 0xffefffffffffffff, M::RNE, true, 0xff7fffff, kStatusOFNX, "Sat"},
      {T::FP64, T::FP16, 0x0000000000000001, M::RNE, false, 0x0000, kStatusUFNX, "2^-1074"},
      {T::FP64, T::FP16, 0x0000000000000001, M::RTP, false, 0x0001, kStatusUFNX, "up"},
      {T::FP64, T::FP16, 0x8000000000000001, M::RNE, false, 0x8000, kStatusUFNX, "-tiny: -0"},
      {T::S64, T::FP64, 0x0020000000000001, M::RNE, false, 0x4340000000000000, kStatusNX,
       "2^53 + 1 ties to even"},
      {T::S64, T::FP64, 0x0020000000000001, M::RNA, false, 0x4340000000000001, kStatusNX,
       "away: 2^53 + 2"},
      {T::S32, T::FP16, 0xfff0, M::RNE, false, 0x7c00, kStatusOFNX, "65520 rounds to 2^16"},
      {T::S32, T::FP16, 0xfff0, M::RTZ, false, 0x7bff, kStatusNX, "65520 down to 65504"},
      {T::E4M3, T::FP16, 0x7e, M::RNE, false, 0x5f00, 0, "448"},
      {T::FP32, T::S32, 0x40200000, M::RNE, false, 2, kStatusNX, "2.5 ties to 2"},
      {T::FP32, T::S32, 0x40200000, M::RNA, false, 3, kStatusNX, "2.5 away"},
      {T::FP32, T::S32, 0xc0200000, M::RTZ, false, 0xfffffffffffffffe, kStatusNX, "-2.5: -2"},
      {T::FP32, T::S32, 0x4f32d05e, M::RTZ, false, 0xffffffffb2d05e00, kStatusOFNX,
       "3e9 wraps, OF|NX"},
      {T::FP32, T::S32, 0x4f32d05e, M::RTZ, true, 0x7fffffff, kStatusOFNX, "Sat clamps"},
      {T::FP32, T::U8, 0xbf800000, M::RTZ, true, 0, kStatusOFNX, "-1 to U8"},
  });
}

// Integer to integer: TileConvertIntegerValue (formats.asl lines 57-95), no status ever.
TEST(Tcvt2026_09KnownAnswers, IntegerToInteger) {
  ExpectAnswers({
      {T::S8, T::U8, 0x80, M::RNE, true, 0x00, 0, "-128 clamps to 0"},
      {T::S8, T::U8, 0x80, M::RNE, false, 0x80, 0, "wraps"},
      {T::U8, T::S8, 0xff, M::RNE, true, 0x7f, 0, "255 clamps to 127"},
      {T::U8, T::S8, 0xff, M::RNE, false, 0xffffffffffffffff, 0, "-1 sign-extended"},
      {T::S16, T::S8, 0xff7f, M::RTZ, true, 0xffffffffffffff80, 0, "-129 clamps to -128"},
      {T::S32, T::U64, 0xffffffff, M::RNE, true, 0, 0, "-1 clamps to 0"},
      {T::S32, T::U64, 0xffffffff, M::RNE, false, 0xffffffffffffffff, 0, "-1 wraps"},
      {T::U64, T::S64, 0xffffffffffffffff, M::RNE, true, 0x7fffffffffffffff, 0, "clamp"},
      {T::S8, T::S4X2, 0x09, M::RNE, true, 0x7, 0, "9 clamps to 7"},
      {T::S8, T::S4X2, 0x09, M::RNE, false, 0xfffffffffffffff9, 0, "9 wraps to -7"},
  });
}

// The raw-carrier rule of TileProfileConvert (formats.asl lines 122-127) for the pairs outside
// the 12-type set (BF16, HiF8, S4X2 ... are not in it): the word, status 0. The 16-type variant
// converts FP16 <-> BF16 by value instead (docs/semantics.md, the open points).
TEST(Tcvt2026_09KnownAnswers, PairsOutsideTheCommonSetKeepTheRawWord) {
  ExpectAnswers({
      {T::FP16, T::BF16, 0x3c00, M::RNE, false, 0x3c00, 0, "raw: 0x3c00 is 1.0 in FP16"},
      {T::BF16, T::FP32, 0x3f80, M::RNE, false, 0x3f80, 0, "raw"},
      {T::FP32, T::HiF8, 0x3f800000, M::RNE, false, 0x3f800000, 0, "raw"},
      {T::FP32, T::S4X2, 0x4, M::RTZ, false, 0x4, 0, "raw, normalized"},
      {T::FP16, T::S4X2, 0xc, M::RTZ, false, 0xfffffffffffffffc, 0, "raw, sign-extended"},
  });
}

// E8M0 -> FP16/BF16/FP32 (tcvt-conversion.asl lines 140-157): 2^(c-127) encoded.
TEST(Tcvt2026_09KnownAnswers, FromE8M0) {
  ExpectAnswers({
      {T::E8M0, T::FP32, 0x7f, M::RNE, false, 0x3f800000, 0, "2^0"},
      {T::E8M0, T::FP32, 0x00, M::RNE, false, 0x00400000, 0, "2^-127: FP32 subnormal 2^22"},
      {T::E8M0, T::FP32, 0xfe, M::RNE, false, 0x7f000000, 0, "2^127"},
      {T::E8M0, T::FP32, 0xff, M::RNE, false, 0x7fc00000, 0, "NaN without NV"},
      {T::E8M0, T::FP16, 0xff, M::RTZ, true, 0x7e00, 0, "NaN"},
      {T::E8M0, T::BF16, 0xff, M::RNE, false, 0x7fc0, 0, "NaN"},
      {T::E8M0, T::FP16, 0x8e, M::RNE, false, 0x7800, 0, "2^15"},
      {T::E8M0, T::FP16, 0x8f, M::RNE, false, 0x7c00, kStatusOFNX, "2^16 overflows"},
      {T::E8M0, T::FP16, 0x8f, M::RTZ, true, 0x7bff, kStatusOFNX, "Sat"},
      {T::E8M0, T::FP16, 0x67, M::RNE, false, 0x0001, 0, "2^-24 exact"},
      {T::E8M0, T::FP16, 0x66, M::RNE, false, 0x0000, kStatusUFNX, "2^-25 ties to 0"},
      {T::E8M0, T::FP16, 0x66, M::RNA, false, 0x0001, kStatusUFNX, "2^-25 away"},
      {T::E8M0, T::FP16, 0x66, M::RHB, false, 0x0001, kStatusUFNX, "2^-25 up"},
      {T::E8M0, T::FP16, 0x00, M::RTP, false, 0x0001, kStatusUFNX, "2^-127 up"},
      {T::E8M0, T::BF16, 0x00, M::RNE, false, 0x0040, 0, "2^-127: BF16 subnormal 64"},
      {T::E8M0, T::BF16, 0xfe, M::RNE, false, 0x7f00, 0, "2^127"},
  });
}

// FP16 -> E2M1X2/E1M2X2 (tcvt-conversion.asl lines 21-53, packed-conversion.asl lines 57-141).
TEST(Tcvt2026_09KnownAnswers, ToPackedFP4) {
  ExpectAnswers({
      {T::FP16, T::E2M1X2, 0x4600, M::RNE, false, 0x7, 0, "6.0 exact"},
      {T::FP16, T::E2M1X2, 0xc600, M::RNE, false, 0xf, 0, "-6.0"},
      {T::FP16, T::E2M1X2, 0x4100, M::RNE, false, 0x4, kStatusNX, "2.5: tie to even code 4"},
      {T::FP16, T::E2M1X2, 0x4100, M::RNA, false, 0x5, kStatusNX, "2.5: away, 3.0"},
      {T::FP16, T::E2M1X2, 0xc100, M::RNE, false, 0xc, kStatusNX, "-2.5: -2.0"},
      {T::FP16, T::E2M1X2, 0xc100, M::RNA, false, 0xd, kStatusNX, "-2.5: -3.0"},
      {T::FP16, T::E2M1X2, 0x4500, M::RNE, false, 0x6, kStatusNX, "5.0: tie, 4.0"},
      {T::FP16, T::E2M1X2, 0x4500, M::RNA, false, 0x7, kStatusNX, "5.0: 6.0"},
      {T::FP16, T::E2M1X2, 0x3400, M::RNE, false, 0x0, kStatusUFNX, "0.25: tie, 0"},
      {T::FP16, T::E2M1X2, 0x3400, M::RNA, false, 0x1, kStatusUFNX, "0.25: 0.5, tiny after"},
      {T::FP16, T::E2M1X2, 0x3a00, M::RNE, false, 0x2, kStatusNX, "0.75 to 1.0: not tiny after"},
      {T::FP16, T::E2M1X2, 0xae66, M::RTZ, false, 0x8, kStatusUFNX, "-0.1: -0"},
      {T::FP16, T::E2M1X2, 0xae66, M::RTP, false, 0x8, kStatusUFNX, "-0.1 up: -0"},
      {T::FP16, T::E2M1X2, 0xae66, M::RTM, false, 0x9, kStatusUFNX, "-0.1 down: -0.5"},
      {T::FP16, T::E2M1X2, 0xae66, M::RTO, false, 0x9, kStatusUFNX, "-0 is even: -0.5"},
      {T::FP16, T::E2M1X2, 0x4700, M::RNE, true, 0x6, kStatusOFNX, "7.0: code 6 (4.0)"},
      {T::FP16, T::E2M1X2, 0xc700, M::RTZ, false, 0xe, kStatusOFNX, "-7.0: code 14"},
      {T::FP16, T::E2M1X2, 0x7c00, M::RNE, false, 0x6, kStatusOFNX, "+Inf: code 6"},
      {T::FP16, T::E2M1X2, 0xfc00, M::RNE, false, 0xe, kStatusOFNX, "-Inf: code 14"},
      {T::FP16, T::E2M1X2, 0x7e00, M::RNE, false, 0x0, 0, "quiet NaN: 0"},
      {T::FP16, T::E2M1X2, 0x7c01, M::RNE, false, 0x0, kStatusNV, "signaling NaN: 0, NV"},
      {T::FP16, T::E2M1X2, 0x8000, M::RNE, false, 0x8, 0, "-0"},
      {T::BF16, T::E2M1X2, 0x3fc0, M::RTP, false, 0x3, 0, "1.5"},
      {T::FP32, T::E2M1X2, 0x40400000, M::RTO, false, 0x5, 0, "3.0 exact"},
      {T::FP16, T::E1M2X2, 0x3000, M::RNE, false, 0x0, kStatusUFNX, "0.125: tie, 0"},
      {T::FP16, T::E1M2X2, 0x3000, M::RNA, false, 0x1, kStatusUFNX, "0.125: 0.25"},
      {T::FP16, T::E1M2X2, 0x3266, M::RNE, false, 0x1, kStatusUFNX, "0.2: tiny before"},
      {T::FP16, T::E1M2X2, 0x34cd, M::RNE, false, 0x1, kStatusNX, "0.3 to 0.25: not tiny"},
      {T::FP16, T::E1M2X2, 0x4000, M::RNE, false, 0x7, kStatusOFNX, "2.0 overflows: 1.75"},
      {T::FP16, T::E1M2X2, 0xfc00, M::RNE, false, 0xf, kStatusOFNX, "-Inf: code 15"},
  });
}

// E2M1X2/E1M2X2 lanes -> FP32/FP16/BF16 (tcvt-conversion.asl lines 55-71): every value exact.
TEST(Tcvt2026_09KnownAnswers, FromPackedFP4) {
  ExpectAnswers({
      {T::E2M1X2, T::FP32, 0x7, M::RNE, false, 0x40c00000, 0, "6.0"},
      {T::E2M1X2, T::FP32, 0xf, M::RNE, false, 0xc0c00000, 0, "-6.0"},
      {T::E2M1X2, T::FP32, 0x8, M::RNE, false, 0x80000000, 0, "-0"},
      {T::E2M1X2, T::FP16, 0x1, M::RTZ, false, 0x3800, 0, "0.5"},
      {T::E2M1X2, T::FP16, 0xa7, M::RNE, false, 0x4600, 0, "lane value[3:0] only"},
      {T::E1M2X2, T::BF16, 0x5, M::RNE, false, 0x3fa0, 0, "1.25"},
      {T::E1M2X2, T::BF16, 0xd, M::RNE, false, 0xbfa0, 0, "-1.25"},
      {T::E1M2X2, T::FP16, 0x8, M::RNE, false, 0x8000, 0, "-0"},
  });
}

// FP16/BF16 <-> E6M2 and RCPE6M2 -> FP16/BF16 (tcvt-conversion.asl lines 73-138).
TEST(Tcvt2026_09KnownAnswers, E6M2AndRCPE6M2) {
  ExpectAnswers({
      {T::FP16, T::E6M2, 0x3c00, M::RNE, false, 0xc0, 0, "1.0"},
      {T::FP16, T::E6M2, 0x3c80, M::RNE, false, 0xc0, kStatusNX, "1.125: tie, even code"},
      {T::FP16, T::E6M2, 0x3c80, M::RNA, false, 0xc1, kStatusNX, "1.125: 1.25"},
      {T::FP16, T::E6M2, 0x0001, M::RNE, false, 0x60, 0, "2^-24: exponent field 24"},
      {T::FP16, T::E6M2, 0x0000, M::RNE, false, 0x00, kStatusUFNX, "zero: code 0 (2^-48)"},
      {T::FP16, T::E6M2, 0x8000, M::RNA, true, 0x00, kStatusUFNX, "-0 alike"},
      {T::FP16, T::E6M2, 0xbc00, M::RNE, false, 0xff, kStatusNV, "negative: NaN, NV"},
      {T::FP16, T::E6M2, 0xfc00, M::RNE, true, 0xff, kStatusNV, "-Inf: NaN, NV"},
      {T::FP16, T::E6M2, 0x7c00, M::RNE, false, 0xff, kStatusOFNX, "+Inf"},
      {T::FP16, T::E6M2, 0x7c00, M::RNE, true, 0xfe, kStatusOFNX, "+Inf, Sat"},
      {T::FP16, T::E6M2, 0x7b53, M::RNA, false, 0xff, kStatusOFNX, "60000 > 49152"},
      {T::FP16, T::E6M2, 0x7b53, M::RNA, true, 0xfe, kStatusOFNX, "Sat"},
      {T::FP16, T::E6M2, 0x7e00, M::RNE, false, 0xff, 0, "quiet NaN: no NV"},
      {T::FP16, T::E6M2, 0x7d00, M::RNE, false, 0xff, kStatusNV, "signaling NaN: NV"},
      {T::BF16, T::E6M2, 0x2180, M::RNE, false, 0x00, kStatusUFNX, "2^-60: code 0, tiny"},
      {T::BF16, T::E6M2, 0x4740, M::RNE, false, 0xfe, 0, "49152 exact"},
      {T::E6M2, T::FP16, 0xc0, M::RNE, false, 0x3c00, 0, "1.0"},
      {T::E6M2, T::FP16, 0xfe, M::RNE, false, 0x7a00, 0, "49152"},
      {T::E6M2, T::FP16, 0x00, M::RNE, false, 0x0000, kStatusUFNX, "2^-48 underflows"},
      {T::E6M2, T::FP16, 0x00, M::RNA, false, 0x0000, kStatusUFNX, "far below half 2^-24"},
      {T::E6M2, T::FP16, 0xff, M::RNE, false, 0x7e00, 0, "NaN without NV"},
      {T::E6M2, T::BF16, 0x00, M::RNE, false, 0x2780, 0, "2^-48 exact in BF16"},
      {T::RCPE6M2, T::FP16, 0xc0, M::RNE, false, 0x3c00, 0, "1/1"},
      {T::RCPE6M2, T::FP16, 0xc1, M::RNE, false, 0x3a66, kStatusNX, "1/1.25 = 0.8"},
      {T::RCPE6M2, T::BF16, 0xc1, M::RNA, false, 0x3f4d, kStatusNX, "0.8 in BF16"},
      {T::RCPE6M2, T::FP16, 0x00, M::RNE, false, 0x7c00, kStatusOFNX, "2^48 overflows"},
      {T::RCPE6M2, T::FP16, 0x00, M::RNE, true, 0x7bff, kStatusOFNX, "Sat"},
      {T::RCPE6M2, T::BF16, 0xff, M::RNA, false, 0x7fc0, 0, "NaN"},
  });
}

TEST(Tcvt2026_09Refusals, IllegalPairsNameHardwareTCVTTypePairSupported) {
  const std::vector<std::pair<T, T>> illegal = {
      {T::E6M2, T::FP32},     {T::FP32, T::E6M2},   {T::BF16, T::RCPE6M2}, {T::RCPE6M2, T::FP32},
      {T::E8M0, T::S8},       {T::E8M0, T::E8M0},   {T::HiF4X2, T::FP16},  {T::FP16, T::HiF4X2},
      {T::E2M1X2, T::E1M2X2}, {T::S8, T::E2M1X2},   {T::E4M3, T::E8M0},    {T::E6M2, T::E6M2},
      {T::FP64, T::E2M1X2},   {T::E2M1X2, T::FP64}, {T::E6M2, T::E4M3},    {T::S32, T::E8M0},
  };
  for (const auto& [src, dst] : illegal) {
    EXPECT_FALSE(edition_2026_09::HardwareTCVTTypePairSupported(src, dst));
    for (const M mode : kAllRoundingModes) {
      const Conversion2026_09 got = Convert2026_09(src, dst, 0, {mode, false});
      ASSERT_TRUE(std::holds_alternative<Refusal2026_09>(got)) << static_cast<int>(src);
      EXPECT_EQ(std::get<Refusal2026_09>(got).rule, "HardwareTCVTTypePairSupported");
    }
  }
  const Refusal2026_09 r = std::get<Refusal2026_09>(Convert2026_09(T::E6M2, T::FP32, 0, kRne));
  EXPECT_EQ(r.message,
            "tcvt e6m2 -> fp32 is not a legal pair in edition 2026-09 "
            "(HardwareTCVTTypePairSupported, e8m0-conversion.asl lines 26-84 at 01445483)");
  const Refusal2026_09 hif4 = std::get<Refusal2026_09>(Convert2026_09(T::HiF4X2, T::FP16, 0, kRne));
  EXPECT_NE(hif4.message.find("tcvt hif4x2 -> fp16"), std::string::npos) << hif4.message;
  const Conversion2026_09 fp19 = Convert2026_09(T::FP19, T::FP32, 0, kRne);
  ASSERT_TRUE(std::holds_alternative<Refusal2026_09>(fp19));
  EXPECT_EQ(std::get<Refusal2026_09>(fp19).rule, "TileDataType");
}

TEST(Tcvt2026_09Refusals, E6M2PairsTakeRneAndRnaOnly) {
  const std::vector<std::pair<T, T>> pairs = {{T::FP16, T::E6M2},    {T::BF16, T::E6M2},
                                              {T::E6M2, T::FP16},    {T::E6M2, T::BF16},
                                              {T::RCPE6M2, T::FP16}, {T::RCPE6M2, T::BF16}};
  for (const auto& [src, dst] : pairs) {
    for (const M mode : kAllRoundingModes) {
      for (const bool sat : {false, true}) {
        const Conversion2026_09 got = Convert2026_09(src, dst, 0x3c, {mode, sat});
        const bool legal = mode == M::RNE || mode == M::RNA;
        EXPECT_EQ(edition_2026_09::HardwareTCVTRoundingModeSupported(src, dst, mode), legal);
        ASSERT_EQ(std::holds_alternative<Encoded>(got), legal) << RoundingModeName(mode);
        if (!legal) {
          EXPECT_EQ(std::get<Refusal2026_09>(got).rule, "HardwareTCVTRoundingModeSupported");
        }
      }
    }
  }
  EXPECT_EQ(
      std::get<Refusal2026_09>(Convert2026_09(T::FP16, T::E6M2, 0x3c00, {M::RTZ, false})).message,
      "tcvt fp16 -> e6m2 does not accept rounding mode RTZ in edition 2026-09: RNE and RNA "
      "only (HardwareTCVTRoundingModeSupported, e8m0-conversion.asl lines 86-97 at "
      "01445483)");
  // Every other legal pair takes every mode.
  for (const M mode : kAllRoundingModes) {
    EXPECT_TRUE(edition_2026_09::HardwareTCVTRoundingModeSupported(T::E8M0, T::FP16, mode));
    EXPECT_TRUE(edition_2026_09::HardwareTCVTRoundingModeSupported(T::FP16, T::E2M1X2, mode));
  }
}

TEST(Tcvt2026_09, DefaultRoundingAndLegalPairsOfTheNewTypes) {
  using edition_2026_09::InstructionContractDefaultRounding_TCVT;
  EXPECT_EQ(InstructionContractDefaultRounding_TCVT(T::FP32, T::S32), M::RTZ);
  EXPECT_EQ(InstructionContractDefaultRounding_TCVT(T::E2M1X2, T::U8), M::RTZ);
  EXPECT_EQ(InstructionContractDefaultRounding_TCVT(T::S32, T::FP32), M::RNE);
  EXPECT_EQ(InstructionContractDefaultRounding_TCVT(T::FP16, T::E6M2), M::RNE);
  EXPECT_EQ(InstructionContractDefaultRounding_TCVT(T::S8, T::U8), M::RNE);
  // The pairs with a new type, counted by hand from e8m0-conversion.asl lines 26-84 over the
  // tile data types of the table: E8M0 3 sources and 3 destinations, E6M2 2 + 2, RCPE6M2 2
  // destinations, E2M1X2 and E1M2X2 3 + 3 each.
  int with_new_type = 0;
  for (const FormatInfo& s : AllFormats2026_09()) {
    for (const FormatInfo& d : AllFormats2026_09()) {
      if (s.type == T::FP19 || d.type == T::FP19) continue;
      const bool new_type = s.type == T::E8M0 || d.type == T::E8M0 || s.type == T::E6M2 ||
                            d.type == T::E6M2 || s.type == T::RCPE6M2 || d.type == T::RCPE6M2 ||
                            s.type == T::E2M1X2 || d.type == T::E2M1X2 || s.type == T::E1M2X2 ||
                            d.type == T::E1M2X2;
      if (new_type && edition_2026_09::HardwareTCVTTypePairSupported(s.type, d.type)) {
        ++with_new_type;
      }
    }
  }
  EXPECT_EQ(with_new_type, 3 + 3 + 2 + 2 + 2 + 6 + 6);
}

// The values and helpers the texts name but do not define, as docs/semantics.md states them.
TEST(Tcvt2026_09, DefinitionsTheTextsDoNotContain) {
  using edition_2026_09::HardwareNumericSignedZeroEncodings;
  using edition_2026_09::TileNumericCanonicalNaN;
  EXPECT_EQ(TileNumericCanonicalNaN(T::FP64), std::make_pair(true, Word{0x7ff8000000000000}));
  EXPECT_EQ(TileNumericCanonicalNaN(T::E6M2), std::make_pair(true, Word{0xff}));
  EXPECT_EQ(TileNumericCanonicalNaN(T::RCPE6M2), std::make_pair(true, Word{0xff}));
  EXPECT_FALSE(TileNumericCanonicalNaN(T::S8).first);
  EXPECT_EQ(HardwareNumericSignedZeroEncodings(T::E2M1X2), std::make_tuple(true, Word{0}, Word{8}));
  EXPECT_EQ(HardwareNumericSignedZeroEncodings(T::FP64),
            std::make_tuple(true, Word{0}, Word{0x8000000000000000}));
  EXPECT_EQ(edition_2026_09::FP19PowerOfTwo(-48), Pow2(-48));
  EXPECT_EQ(edition_2026_09::ReferencePowerOfTwo(-1074), Pow2(-1074));
  EXPECT_EQ(edition_2026_09::ReferencePowerOfTwo(1023), Pow2(1023));
  EXPECT_EQ(edition_2026_09::ReferencePowerOfTwo(0), 1);
  EXPECT_THROW(edition_2026_09::ReferencePowerOfTwo(1024), SeedAssertionFailure);
  EXPECT_THROW(edition_2026_09::ReferencePowerOfTwo(-1075), SeedAssertionFailure);
  EXPECT_EQ(edition_2026_09::ReferenceE6M2Encoding(0, kRne), (Encoded{0x00, 0}));  // line 167
  EXPECT_THROW(edition_2026_09::ReferenceE6M2Encoding(-1, kRne), SeedAssertionFailure);
  EXPECT_EQ(edition_2026_09::ReferenceFP64FiniteValue(0x7fefffffffffffff),
            Real((Integer(1) << 53) - 1) * Pow2(971));
  EXPECT_EQ(edition_2026_09::E6M2FiniteValue(0xfe), Q(49152));
  EXPECT_EQ(edition_2026_09::RCPE6M2FiniteValue(0xc3), Q(4, 7));
}

}  // namespace
}  // namespace tcvt_2026_09_test
}  // namespace ptovec::oracle
