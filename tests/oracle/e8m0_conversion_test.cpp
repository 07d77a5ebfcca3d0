// Tests of seed 001 (PTO-ARCH-PROFILE-E8M0-CONVERSION): HardwareTCVTTypePairSupported,
// ReferenceE8M0HighestSetBit, ReferenceE8M0RoundExponent, ReferenceFloatToE8M0 and
// TileProfileConvert.
//
// The tables are hand-derived from the seed and spec-notes section 5 item 5. The exhaustive test
// and the properties compare with an independent formulation written here: decode the code to an
// exact rational x, find k with 2^k <= x < 2^(k+1) by comparing x with powers of two, decide the
// nearest exponent by comparing x*x with 2*4^k, then apply the mode rules.
#include "ptovec/oracle/e8m0_conversion.hpp"

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <array>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <stdexcept>
#include <string>
#include <vector>

#include "ptovec/oracle/formats.hpp"
#include "ptovec/oracle/numeric.hpp"
#include "ptovec/oracle/rounding.hpp"
#include "test_support.hpp"

namespace ptovec::oracle {
namespace e8m0_conversion_test {
namespace {

using test_support::Pow2;
using test_support::Q;

using M = NumericRoundingMode;
using T = TileDataType;

using test_support::Hex;
std::string Show(const Encoded& e) { return Hex(e.word) + "/" + Hex(e.status); }

NumericExecutionControl Control(M mode, bool sat) { return {mode, sat}; }

// ---------------------------------------------------------------------------------------------
// Type pairs.

TEST(HardwareTCVTTypePairSupported, LegalAndIllegalPairs) {
  EXPECT_TRUE(HardwareTCVTTypePairSupported(T::FP16, T::E8M0));
  EXPECT_TRUE(HardwareTCVTTypePairSupported(T::BF16, T::E8M0));
  EXPECT_TRUE(HardwareTCVTTypePairSupported(T::FP32, T::E8M0));
  for (T source : {T::E4M3, T::HiF8, T::E8M0, T::FP19, T::S8, T::U8, T::S32, T::FP64, T::TF32,
                   T::HF32, T::E5M2}) {
    EXPECT_FALSE(HardwareTCVTTypePairSupported(source, T::E8M0)) << static_cast<int>(source);
    EXPECT_FALSE(HardwareTCVTE8M0SourceTypeSupported(source)) << static_cast<int>(source);
  }
  EXPECT_TRUE(HardwareTCVTE8M0SourceTypeSupported(T::FP16));
  EXPECT_TRUE(HardwareTCVTE8M0SourceTypeSupported(T::BF16));
  EXPECT_TRUE(HardwareTCVTE8M0SourceTypeSupported(T::FP32));
  // Any pair not ending in E8M0 is accepted by this unit.
  EXPECT_TRUE(HardwareTCVTTypePairSupported(T::FP16, T::S8));
  EXPECT_TRUE(HardwareTCVTTypePairSupported(T::E4M3, T::FP32));
  EXPECT_TRUE(HardwareTCVTTypePairSupported(T::E8M0, T::FP16));
  EXPECT_TRUE(HardwareTCVTTypePairSupported(T::S8, T::U4X2));
  EXPECT_TRUE(HardwareTCVTTypePairSupported(T::FP32, T::FP32));
}

// ---------------------------------------------------------------------------------------------
// Helpers of the seed.

TEST(ReferenceE8M0HighestSetBit, Positions) {
  EXPECT_EQ(ReferenceE8M0HighestSetBit(1), 0);
  EXPECT_EQ(ReferenceE8M0HighestSetBit(2), 1);
  EXPECT_EQ(ReferenceE8M0HighestSetBit(3), 1);
  EXPECT_EQ(ReferenceE8M0HighestSetBit(0x6), 2);
  EXPECT_EQ(ReferenceE8M0HighestSetBit(0x800000), 23);
  EXPECT_EQ(ReferenceE8M0HighestSetBit(0xFFFFFF), 23);
  EXPECT_EQ(ReferenceE8M0HighestSetBit(0x8000000000000000ULL), 63);
  EXPECT_EQ(ReferenceE8M0HighestSetBit(0xFFFFFFFFFFFFFFFFULL), 63);
  EXPECT_THROW(ReferenceE8M0HighestSetBit(0), SeedAssertionFailure);
}

TEST(ReferenceE8M0RoundExponent, DirectCases) {
  using P = std::pair<int, bool>;
  // Exact powers: (exponent, TRUE) in every mode.
  for (M mode : kAllRoundingModes) {
    EXPECT_EQ(ReferenceE8M0RoundExponent(1, 5, mode), P(5, true));
    EXPECT_EQ(ReferenceE8M0RoundExponent(8, -3, mode), P(0, true));
    EXPECT_EQ(ReferenceE8M0RoundExponent(1, -149, mode), P(-149, true));
    EXPECT_EQ(ReferenceE8M0RoundExponent(0x800000, 104, mode), P(127, true));
  }
  // 3 = 1.5 * 2^1: floor 1 (odd), nearest 2.
  const std::array<int, 7> three = {2, 1, 2, 1, 2, 1, 2};
  // 5 * 2^-4 = 1.25 * 2^-2: floor -2 (even), nearest -2; RTZ goes to -1.
  const std::array<int, 7> five_sixteenths = {-2, -2, -1, -1, -2, -1, -2};
  // 3 * 2^125 = 1.5 * 2^126: the ceiling 127; 3 * 2^126: ceiling 128 is in the helper's range.
  const std::array<int, 7> top = {128, 127, 128, 127, 128, 127, 128};
  for (std::size_t m = 0; m < 7; ++m) {
    EXPECT_EQ(ReferenceE8M0RoundExponent(3, 0, kAllRoundingModes[m]), P(three[m], false));
    EXPECT_EQ(ReferenceE8M0RoundExponent(5, -4, kAllRoundingModes[m]),
              P(five_sixteenths[m], false));
    EXPECT_EQ(ReferenceE8M0RoundExponent(3, 126, kAllRoundingModes[m]), P(top[m], false));
  }
  // Domain: floor exponent outside -149..127.
  EXPECT_THROW(ReferenceE8M0RoundExponent(1, 128, M::RNE), SeedAssertionFailure);
  EXPECT_THROW(ReferenceE8M0RoundExponent(2, 127, M::RNE), SeedAssertionFailure);
  EXPECT_THROW(ReferenceE8M0RoundExponent(1, -150, M::RNE), SeedAssertionFailure);
  EXPECT_THROW(ReferenceE8M0RoundExponent(0, 0, M::RNE), SeedAssertionFailure);
}

TEST(ReferenceE8M0RoundExponent, NearestBoundaryWithWideSignificands) {
  // Up to 32 significand bits the 64-bit square is exact: floor(sqrt(2) * 2^31) = 0xB504F333.
  EXPECT_EQ(ReferenceE8M0RoundExponent(0xB504F333, -31, M::RNE), std::make_pair(0, false));
  EXPECT_EQ(ReferenceE8M0RoundExponent(0xB504F334, -31, M::RNE), std::make_pair(1, false));
  EXPECT_EQ(ReferenceE8M0RoundExponent(0xB504F333, -31, M::RHB), std::make_pair(0, false));
  EXPECT_EQ(ReferenceE8M0RoundExponent(0xB504F334, -31, M::RNA), std::make_pair(1, false));
  // Literal seed behaviour beyond 32 bits (unreachable from FP16/BF16/FP32, whose significands have
  // at most 24 bits): MultiplyWord wraps and LSL by 65 gives zero, so 2^32 + 1 (just above 1.0)
  // compares "above the boundary" and takes the ceiling. Pinned so that a change is noticed.
  EXPECT_EQ(ReferenceE8M0RoundExponent((Word{1} << 32) + 1, -32, M::RNE), std::make_pair(1, false));
}

// ---------------------------------------------------------------------------------------------
// ReferenceFloatToE8M0: hand-derived tables.

// In-range rows: the code for each mode (RNE RTM RTP RTZ RNA RTO RHB), the same with and without
// Sat, and one status (0 for an exact power, NX otherwise).
struct RangeRow {
  T type;
  Word word;
  const char* what;
  std::array<Word, 7> codes;
  Status status;
};

// Special rows: the same in every mode; Sat and non-Sat codes.
struct SpecialRow {
  T type;
  Word word;
  const char* what;
  Word sat_code;
  Word nonsat_code;
  Status status;
};

std::vector<RangeRow> RangeTable() {
  //                                                         RNE   RTM   RTP   RTZ   RNA   RTO   RHB
  return {
      // ---- FP32
      {T::FP32, 0x3F800000, "1.0", {0x7F, 0x7F, 0x7F, 0x7F, 0x7F, 0x7F, 0x7F}, 0x00},
      {T::FP32, 0x40000000, "2.0", {0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80}, 0x00},
      {T::FP32, 0x3F000000, "0.5", {0x7E, 0x7E, 0x7E, 0x7E, 0x7E, 0x7E, 0x7E}, 0x00},
      {T::FP32, 0x7F000000, "2^127", {0xFE, 0xFE, 0xFE, 0xFE, 0xFE, 0xFE, 0xFE}, 0x00},
      {T::FP32, 0x00400000, "2^-127 (subnormal)", {0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00}, 0x00},
      {T::FP32, 0x00800000, "2^-126", {0x01, 0x01, 0x01, 0x01, 0x01, 0x01, 0x01}, 0x00},
      {T::FP32, 0x3FB504F3, "just below sqrt2", {0x7F, 0x7F, 0x80, 0x7F, 0x7F, 0x80, 0x7F}, 0x10},
      {T::FP32, 0x3FB504F4, "just above sqrt2", {0x80, 0x7F, 0x80, 0x7F, 0x80, 0x80, 0x80}, 0x10},
      {T::FP32, 0x3F3504F3, "just below sqrt2/2", {0x7E, 0x7E, 0x7F, 0x7F, 0x7E, 0x7E, 0x7E}, 0x10},
      {T::FP32, 0x3F3504F4, "just above sqrt2/2", {0x7F, 0x7E, 0x7F, 0x7F, 0x7F, 0x7E, 0x7F}, 0x10},
      {T::FP32, 0x3F800001, "just above 1", {0x7F, 0x7F, 0x80, 0x7F, 0x7F, 0x80, 0x7F}, 0x10},
      {T::FP32, 0x3F7FFFFF, "just below 1", {0x7F, 0x7E, 0x7F, 0x7F, 0x7F, 0x7E, 0x7F}, 0x10},
      {T::FP32, 0x40400000, "3.0", {0x81, 0x80, 0x81, 0x80, 0x81, 0x80, 0x81}, 0x10},
      {T::FP32, 0x40A00000, "5.0", {0x81, 0x81, 0x82, 0x81, 0x81, 0x82, 0x81}, 0x10},
      {T::FP32, 0x3F400000, "0.75", {0x7F, 0x7E, 0x7F, 0x7F, 0x7F, 0x7E, 0x7F}, 0x10},
      {T::FP32, 0x3F19999A, "0.6", {0x7E, 0x7E, 0x7F, 0x7F, 0x7E, 0x7E, 0x7E}, 0x10},
      {T::FP32, 0x3E99999A, "0.3", {0x7D, 0x7D, 0x7E, 0x7E, 0x7D, 0x7E, 0x7D}, 0x10},
      {T::FP32,
       0x4B000001,
       "2^23 + 1 (odd floor 23)",
       {0x96, 0x96, 0x97, 0x96, 0x96, 0x96, 0x96},
       0x10},
      {T::FP32, 0x7EFFFFFF, "just below 2^127", {0xFE, 0xFD, 0xFE, 0xFD, 0xFE, 0xFE, 0xFE}, 0x10},
      {T::FP32,
       0x7EB504F3,
       "just below sqrt2*2^126",
       {0xFD, 0xFD, 0xFE, 0xFD, 0xFD, 0xFE, 0xFD},
       0x10},
      {T::FP32,
       0x7EB504F4,
       "just above sqrt2*2^126",
       {0xFE, 0xFD, 0xFE, 0xFD, 0xFE, 0xFE, 0xFE},
       0x10},
      {T::FP32,
       0x00600000,
       "1.5*2^-127 (subnormal)",
       {0x01, 0x00, 0x01, 0x01, 0x01, 0x00, 0x01},
       0x10},
      {T::FP32,
       0x00500000,
       "1.25*2^-127 (subnormal)",
       {0x00, 0x00, 0x01, 0x01, 0x00, 0x00, 0x00},
       0x10},
      {T::FP32,
       0x005A8279,
       "just below sqrt2*2^-127",
       {0x00, 0x00, 0x01, 0x01, 0x00, 0x00, 0x00},
       0x10},
      {T::FP32,
       0x005A827A,
       "just above sqrt2*2^-127",
       {0x01, 0x00, 0x01, 0x01, 0x01, 0x00, 0x01},
       0x10},
      {T::FP32, 0x007FFFFF, "largest subnormal", {0x01, 0x00, 0x01, 0x01, 0x01, 0x00, 0x01}, 0x10},
      {T::FP32,
       0xABCDEF013F800000ULL,
       "1.0, carrier bits above 31 set",
       {0x7F, 0x7F, 0x7F, 0x7F, 0x7F, 0x7F, 0x7F},
       0x00},
      // ---- FP16
      {T::FP16, 0x3C00, "1.0", {0x7F, 0x7F, 0x7F, 0x7F, 0x7F, 0x7F, 0x7F}, 0x00},
      {T::FP16, 0x7800, "2^15", {0x8E, 0x8E, 0x8E, 0x8E, 0x8E, 0x8E, 0x8E}, 0x00},
      {T::FP16, 0x0001, "2^-24 (subnormal)", {0x67, 0x67, 0x67, 0x67, 0x67, 0x67, 0x67}, 0x00},
      {T::FP16, 0x0400, "2^-14", {0x71, 0x71, 0x71, 0x71, 0x71, 0x71, 0x71}, 0x00},
      {T::FP16, 0x7BFF, "65504", {0x8F, 0x8E, 0x8F, 0x8E, 0x8F, 0x8E, 0x8F}, 0x10},
      {T::FP16, 0x03FF, "largest subnormal", {0x71, 0x70, 0x71, 0x71, 0x71, 0x70, 0x71}, 0x10},
      {T::FP16, 0x0003, "3*2^-24", {0x69, 0x68, 0x69, 0x69, 0x69, 0x68, 0x69}, 0x10},
      {T::FP16, 0x3DA8, "just below sqrt2", {0x7F, 0x7F, 0x80, 0x7F, 0x7F, 0x80, 0x7F}, 0x10},
      {T::FP16, 0x3DA9, "just above sqrt2", {0x80, 0x7F, 0x80, 0x7F, 0x80, 0x80, 0x80}, 0x10},
      {T::FP16, 0x39A8, "just below sqrt2/2", {0x7E, 0x7E, 0x7F, 0x7F, 0x7E, 0x7E, 0x7E}, 0x10},
      {T::FP16, 0x39A9, "just above sqrt2/2", {0x7F, 0x7E, 0x7F, 0x7F, 0x7F, 0x7E, 0x7F}, 0x10},
      {T::FP16, 0x4200, "3.0", {0x81, 0x80, 0x81, 0x80, 0x81, 0x80, 0x81}, 0x10},
      {T::FP16,
       0xFFFF3C00ULL,
       "1.0, carrier bits above 15 set",
       {0x7F, 0x7F, 0x7F, 0x7F, 0x7F, 0x7F, 0x7F},
       0x00},
      // ---- BF16
      {T::BF16, 0x3F80, "1.0", {0x7F, 0x7F, 0x7F, 0x7F, 0x7F, 0x7F, 0x7F}, 0x00},
      {T::BF16, 0x7F00, "2^127", {0xFE, 0xFE, 0xFE, 0xFE, 0xFE, 0xFE, 0xFE}, 0x00},
      {T::BF16, 0x0040, "2^-127 (subnormal)", {0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00}, 0x00},
      {T::BF16, 0x0080, "2^-126", {0x01, 0x01, 0x01, 0x01, 0x01, 0x01, 0x01}, 0x00},
      {T::BF16, 0x3FB5, "just below sqrt2", {0x7F, 0x7F, 0x80, 0x7F, 0x7F, 0x80, 0x7F}, 0x10},
      {T::BF16, 0x3FB6, "just above sqrt2", {0x80, 0x7F, 0x80, 0x7F, 0x80, 0x80, 0x80}, 0x10},
      {T::BF16, 0x0060, "1.5*2^-127 (subnormal)", {0x01, 0x00, 0x01, 0x01, 0x01, 0x00, 0x01}, 0x10},
      {T::BF16,
       0x0050,
       "1.25*2^-127 (subnormal)",
       {0x00, 0x00, 0x01, 0x01, 0x00, 0x00, 0x00},
       0x10},
      {T::BF16, 0x007F, "largest subnormal", {0x01, 0x00, 0x01, 0x01, 0x01, 0x00, 0x01}, 0x10},
      {T::BF16, 0x7EFF, "just below 2^127", {0xFE, 0xFD, 0xFE, 0xFD, 0xFE, 0xFE, 0xFE}, 0x10},
      {T::BF16, 0x3F7F, "just below 1", {0x7F, 0x7E, 0x7F, 0x7F, 0x7F, 0x7E, 0x7F}, 0x10},
  };
}

std::vector<SpecialRow> SpecialTable() {
  return {
      // NV: zero, negative, NaN (Sat or not).
      {T::FP32, 0x00000000, "+0", 0xFF, 0xFF, 0x01},
      {T::FP32, 0x80000000, "-0", 0xFF, 0xFF, 0x01},
      {T::FP32, 0xBF800000, "-1", 0xFF, 0xFF, 0x01},
      {T::FP32, 0x80000001, "negative subnormal", 0xFF, 0xFF, 0x01},
      {T::FP32, 0xFF7FFFFF, "-max", 0xFF, 0xFF, 0x01},
      {T::FP32, 0x7FC00000, "quiet NaN", 0xFF, 0xFF, 0x01},
      {T::FP32, 0x7F800001, "signaling NaN", 0xFF, 0xFF, 0x01},
      {T::FP32, 0xFFC00000, "negative quiet NaN", 0xFF, 0xFF, 0x01},
      {T::FP32, 0xFFFFFFFF, "negative NaN all ones", 0xFF, 0xFF, 0x01},
      {T::FP32, 0xFF800000, "-Inf", 0xFF, 0xFF, 0x01},
      // +Inf: OF|NX.
      {T::FP32, 0x7F800000, "+Inf", 0xFE, 0xFF, 0x14},
      // Floor exponent 127, not a power: OF|NX.
      {T::FP32, 0x7F000001, "2^127 + 1 ulp", 0xFE, 0xFF, 0x14},
      {T::FP32, 0x7F7FFFFF, "max finite", 0xFE, 0xFF, 0x14},
      {T::FP32, 0x7F3504F3, "sqrt2*2^127 below", 0xFE, 0xFF, 0x14},
      // Floor exponent below -127: UF|NX (even for exact powers of two).
      {T::FP32, 0x00000001, "2^-149", 0x00, 0xFF, 0x18},
      {T::FP32, 0x00000003, "3*2^-149", 0x00, 0xFF, 0x18},
      {T::FP32, 0x00200000, "2^-128 (exact power)", 0x00, 0xFF, 0x18},
      {T::FP32, 0x003FFFFF, "just below 2^-127", 0x00, 0xFF, 0x18},
      // FP16
      {T::FP16, 0x0000, "+0", 0xFF, 0xFF, 0x01},
      {T::FP16, 0x8000, "-0", 0xFF, 0xFF, 0x01},
      {T::FP16, 0xBC00, "-1", 0xFF, 0xFF, 0x01},
      {T::FP16, 0x8001, "negative subnormal", 0xFF, 0xFF, 0x01},
      {T::FP16, 0xFBFF, "-65504", 0xFF, 0xFF, 0x01},
      {T::FP16, 0x7E00, "quiet NaN", 0xFF, 0xFF, 0x01},
      {T::FP16, 0x7C01, "signaling NaN", 0xFF, 0xFF, 0x01},
      {T::FP16, 0xFE00, "negative quiet NaN", 0xFF, 0xFF, 0x01},
      {T::FP16, 0xFC00, "-Inf", 0xFF, 0xFF, 0x01},
      {T::FP16, 0x7C00, "+Inf", 0xFE, 0xFF, 0x14},
      // BF16
      {T::BF16, 0x0000, "+0", 0xFF, 0xFF, 0x01},
      {T::BF16, 0x8000, "-0", 0xFF, 0xFF, 0x01},
      {T::BF16, 0xBF80, "-1", 0xFF, 0xFF, 0x01},
      {T::BF16, 0x8001, "negative subnormal", 0xFF, 0xFF, 0x01},
      {T::BF16, 0x7FC0, "quiet NaN", 0xFF, 0xFF, 0x01},
      {T::BF16, 0x7F81, "signaling NaN", 0xFF, 0xFF, 0x01},
      {T::BF16, 0xFF80, "-Inf", 0xFF, 0xFF, 0x01},
      {T::BF16, 0x7F80, "+Inf", 0xFE, 0xFF, 0x14},
      {T::BF16, 0x7F7F, "max finite", 0xFE, 0xFF, 0x14},
      {T::BF16, 0x7F01, "2^127 + 1 ulp", 0xFE, 0xFF, 0x14},
      {T::BF16, 0x0001, "2^-133", 0x00, 0xFF, 0x18},
      {T::BF16, 0x0020, "2^-128 (exact power)", 0x00, 0xFF, 0x18},
      {T::BF16, 0x003F, "just below 2^-127", 0x00, 0xFF, 0x18},
  };
}

TEST(ReferenceFloatToE8M0, InRangeTableEveryModeBothSat) {
  for (const RangeRow& row : RangeTable()) {
    for (std::size_t m = 0; m < 7; ++m) {
      for (bool sat : {false, true}) {
        const M mode = kAllRoundingModes[m];
        const Encoded got = ReferenceFloatToE8M0(row.word, row.type, Control(mode, sat));
        const Encoded want{row.codes[m], row.status};
        EXPECT_EQ(got, want) << Format(row.type).name << " " << Hex(row.word) << " (" << row.what
                             << ") " << RoundingModeName(mode) << " sat " << sat << ": got "
                             << Show(got) << ", want " << Show(want);
      }
    }
  }
}

TEST(ReferenceFloatToE8M0, SpecialTableEveryModeBothSat) {
  for (const SpecialRow& row : SpecialTable()) {
    for (M mode : kAllRoundingModes) {
      for (bool sat : {false, true}) {
        const Encoded got = ReferenceFloatToE8M0(row.word, row.type, Control(mode, sat));
        const Encoded want{sat ? row.sat_code : row.nonsat_code, row.status};
        EXPECT_EQ(got, want) << Format(row.type).name << " " << Hex(row.word) << " (" << row.what
                             << ") " << RoundingModeName(mode) << " sat " << sat << ": got "
                             << Show(got) << ", want " << Show(want);
      }
    }
  }
}

TEST(ReferenceFloatToE8M0, IllegalSourcesAssert) {
  const NumericExecutionControl c;
  for (T source : {T::E4M3, T::HiF8, T::E8M0, T::FP19, T::S8, T::U8, T::FP64}) {
    EXPECT_THROW(ReferenceFloatToE8M0(0x38, source, c), SeedAssertionFailure)
        << static_cast<int>(source);
  }
}

// ---------------------------------------------------------------------------------------------
// TileProfileConvert.

TEST(TileProfileConvert, DispatchesByDestination) {
  const NumericExecutionControl rne;
  const NumericExecutionControl rtp_sat{M::RTP, true};
  // To E8M0: ReferenceFloatToE8M0.
  EXPECT_EQ(TileProfileConvert(0x3FB504F3, T::FP32, T::E8M0, rne), Encoded({0x7F, 0x10}));
  EXPECT_EQ(TileProfileConvert(0x3FB504F3, T::FP32, T::E8M0, rtp_sat), Encoded({0x80, 0x10}));
  EXPECT_EQ(TileProfileConvert(0x7C00, T::FP16, T::E8M0, rtp_sat), Encoded({0xFE, 0x14}));
  EXPECT_THROW(TileProfileConvert(0x38, T::E4M3, T::E8M0, rne), SeedAssertionFailure);
  // To an integer type: the raw word normalized, no status (no numeric conversion at all).
  EXPECT_EQ(TileProfileConvert(0x82, T::FP16, T::S8, rne), Encoded({0xFFFFFFFFFFFFFF82ULL, 0}));
  EXPECT_EQ(TileProfileConvert(0x3C00, T::FP16, T::S8, rne), Encoded({0, 0}));
  EXPECT_EQ(TileProfileConvert(0x3C00, T::FP16, T::U16, rne), Encoded({0x3C00, 0}));
  EXPECT_EQ(TileProfileConvert(0x12345678, T::FP32, T::U8, rtp_sat), Encoded({0x78, 0}));
  EXPECT_EQ(TileProfileConvert(0x7FC00000, T::FP32, T::S16, rne), Encoded({0, 0}));
  EXPECT_EQ(TileProfileConvert(0xF, T::S8, T::S4X2, rne), Encoded({0xFFFFFFFFFFFFFFFFULL, 0}));
  // To another floating type: the raw word unchanged, no status.
  EXPECT_EQ(TileProfileConvert(0x3C00, T::FP16, T::FP32, rne), Encoded({0x3C00, 0}));
  EXPECT_EQ(TileProfileConvert(0xFFFFFFFF7FC00001ULL, T::FP32, T::BF16, rtp_sat),
            Encoded({0xFFFFFFFF7FC00001ULL, 0}));
  EXPECT_EQ(TileProfileConvert(0x7F, T::E8M0, T::FP32, rne), Encoded({0x7F, 0}));
  EXPECT_EQ(TileProfileConvert(0x80, T::S8, T::HiF8, rne), Encoded({0x80, 0}));
}

TEST(TileProfileConvert, UnmodelledFloatingDestinationsKeepTheRawWord) {
  // The seed's rule covers every floating destination, including types the format table does not
  // model (FP64, E5M2, ...): TileDataTypeIsFloating must answer for them.
  const NumericExecutionControl rne;
  for (T destination :
       {T::FP64, T::TF32, T::HF32, T::E5M2, T::E3M2, T::E2M3, T::E2M1X2, T::E1M2X2, T::HiF4X2}) {
    EXPECT_EQ(TileProfileConvert(0x1234, T::FP16, destination, rne), Encoded({0x1234, 0}))
        << static_cast<int>(destination);
    EXPECT_TRUE(TileDataTypeIsFloating(destination)) << static_cast<int>(destination);
  }
}

// ---------------------------------------------------------------------------------------------
// Independent formulation (spec-notes section 5 item 5).

struct BinaryLayout {
  unsigned exponent_bits;
  unsigned fraction_bits;
  int bias;
};

BinaryLayout LayoutOf(T type) {
  if (type == T::FP16) return {5, 10, 15};
  if (type == T::BF16) return {8, 7, 127};
  return {8, 23, 127};
}

// Powers of two 2^-160 .. 2^130, for the floor search.
struct PowerTable {
  static constexpr int kLow = -160;
  static constexpr int kHigh = 130;
  std::vector<Real> powers;
  PowerTable() {
    for (int e = kLow; e <= kHigh; ++e) powers.push_back(Pow2(e));
  }
  const Real& At(int e) const { return powers[static_cast<std::size_t>(e - kLow)]; }
  // k with 2^k <= x < 2^(k+1), by binary search over direct comparisons.
  int Floor(const Real& x) const {
    int lo = kLow;   // 2^lo <= x
    int hi = kHigh;  // x < 2^hi
    while (hi - lo > 1) {
      const int mid = lo + (hi - lo) / 2;
      if (At(mid) <= x) {
        lo = mid;
      } else {
        hi = mid;
      }
    }
    return lo;
  }
};

const PowerTable& Powers() {
  static const PowerTable table;
  return table;
}

// What the conversion does with a source code, independent of mode and Sat where possible.
struct Analysis {
  enum Kind { Invalid, PositiveInfinity, Underflow, Overflow, Power, Between } kind = Invalid;
  int k = 0;                  // floor exponent for Power/Between
  bool nearer_floor = false;  // Between: x < sqrt(2) * 2^k
};

Analysis Analyse(T type, Word word) {
  const BinaryLayout l = LayoutOf(type);
  const unsigned width = 1 + l.exponent_bits + l.fraction_bits;
  const Word code = word & ((Word{1} << width) - 1);
  const bool sign = ((code >> (width - 1)) & 1) != 0;
  const Word e = (code >> l.fraction_bits) & ((Word{1} << l.exponent_bits) - 1);
  const Word f = code & ((Word{1} << l.fraction_bits) - 1);
  const Word all_ones = (Word{1} << l.exponent_bits) - 1;
  Analysis a;
  if (sign) return a;                     // negative numbers, -0, -Inf, negative NaNs
  if (e == all_ones && f != 0) return a;  // NaN
  if (e == all_ones) {
    a.kind = Analysis::PositiveInfinity;
    return a;
  }
  if (e == 0 && f == 0) return a;  // +0
  const Real fraction(Integer(f), Integer(1) << l.fraction_bits);
  const Real x = e == 0 ? fraction * Pow2(1 - l.bias)
                        : (Real(1) + fraction) * Pow2(static_cast<int>(e) - l.bias);
  const PowerTable& p = Powers();
  a.k = p.Floor(x);
  const bool power = x == p.At(a.k);
  if (a.k < -127) {
    a.kind = Analysis::Underflow;
  } else if (a.k == 127 && !power) {
    a.kind = Analysis::Overflow;
  } else if (power) {
    a.kind = Analysis::Power;
  } else {
    a.kind = Analysis::Between;
    // x vs sqrt(2) * 2^k  <=>  x*x vs 2 * 4^k (both positive). A tie is impossible.
    const Real square = x * x;
    const Real boundary = 2 * p.At(a.k) * p.At(a.k);
    if (square == boundary) throw std::logic_error("impossible E8M0 tie");
    a.nearer_floor = square < boundary;
  }
  return a;
}

Encoded Expected(const Analysis& a, M mode, bool sat) {
  switch (a.kind) {
    case Analysis::Invalid:
      return {0xFF, 0x01};
    case Analysis::PositiveInfinity:
      return {sat ? Word{0xFE} : Word{0xFF}, 0x14};
    case Analysis::Underflow:
      return {sat ? Word{0x00} : Word{0xFF}, 0x18};
    case Analysis::Overflow:
      return {sat ? Word{0xFE} : Word{0xFF}, 0x14};
    case Analysis::Power:
      return {static_cast<Word>(a.k + 127), 0x00};
    case Analysis::Between:
      break;
  }
  const int floor_e = a.k;
  const int ceil_e = a.k + 1;
  int chosen = floor_e;
  switch (mode) {
    case M::RNE:
    case M::RNA:
    case M::RHB:
      chosen = a.nearer_floor ? floor_e : ceil_e;
      break;
    case M::RTM:
      chosen = floor_e;
      break;
    case M::RTP:
      chosen = ceil_e;
      break;
    case M::RTZ:
      chosen = floor_e >= 0 ? floor_e : ceil_e;
      break;  // toward exponent zero
    case M::RTO:
      chosen = (floor_e % 2 != 0) ? floor_e : ceil_e;
      break;
  }
  if (chosen < -127 || chosen > 127) throw std::logic_error("E8M0 exponent out of range");
  return {static_cast<Word>(chosen + 127), 0x10};
}

void CheckAgainstIndependent(T type, Word word) {
  const Analysis a = Analyse(type, word);
  for (M mode : kAllRoundingModes) {
    for (bool sat : {false, true}) {
      const Encoded want = Expected(a, mode, sat);
      const Encoded got = ReferenceFloatToE8M0(word, type, Control(mode, sat));
      ASSERT_EQ(got, want) << Format(type).name << " " << Hex(word) << " " << RoundingModeName(mode)
                           << " sat " << sat << ": got " << Show(got) << ", want " << Show(want);
      ASSERT_EQ(TileProfileConvert(word, type, T::E8M0, Control(mode, sat)), want);
    }
  }
}

TEST(ReferenceFloatToE8M0, IndependentFormulationAgreesWithTables) {
  // The independent formulation is itself checked against the hand-derived tables.
  for (const RangeRow& row : RangeTable()) {
    const Analysis a = Analyse(row.type, row.word);
    for (std::size_t m = 0; m < 7; ++m) {
      for (bool sat : {false, true}) {
        EXPECT_EQ(Expected(a, kAllRoundingModes[m], sat), Encoded({row.codes[m], row.status}))
            << Format(row.type).name << " " << Hex(row.word);
      }
    }
  }
  for (const SpecialRow& row : SpecialTable()) {
    const Analysis a = Analyse(row.type, row.word);
    for (M mode : kAllRoundingModes) {
      for (bool sat : {false, true}) {
        EXPECT_EQ(Expected(a, mode, sat),
                  Encoded({sat ? row.sat_code : row.nonsat_code, row.status}))
            << Format(row.type).name << " " << Hex(row.word);
      }
    }
  }
}

TEST(ReferenceFloatToE8M0, ExhaustiveFP16AndBF16AgainstIndependentFormulation) {
  const auto start = std::chrono::steady_clock::now();
  for (T type : {T::FP16, T::BF16}) {
    int counts[6] = {0, 0, 0, 0, 0, 0};
    for (Word code = 0; code < 0x10000; ++code) {
      CheckAgainstIndependent(type, code);
      if (HasFatalFailure()) return;
      ++counts[Analyse(type, code).kind];
    }
    // Coverage of the classes the exhaustive run went through (hand-counted).
    if (type == T::FP16) {
      // Invalid: 0x8000 negative codes + 1 (+0) + 1023 positive NaNs; +Inf 1; no UF/OF in FP16.
      EXPECT_EQ(counts[Analysis::Invalid], 32768 + 1 + 1023);
      EXPECT_EQ(counts[Analysis::PositiveInfinity], 1);
      EXPECT_EQ(counts[Analysis::Underflow], 0);
      EXPECT_EQ(counts[Analysis::Overflow], 0);
      EXPECT_EQ(counts[Analysis::Power], 40);  // 2^-24 .. 2^15
    } else {
      EXPECT_EQ(counts[Analysis::Invalid], 32768 + 1 + 127);
      EXPECT_EQ(counts[Analysis::PositiveInfinity], 1);
      EXPECT_EQ(counts[Analysis::Underflow], 63);  // subnormal codes 0x0001..0x003F
      EXPECT_EQ(counts[Analysis::Overflow], 127);  // 0x7F01..0x7F7F
      EXPECT_EQ(counts[Analysis::Power], 255);     // 2^-127 .. 2^127
    }
  }
  const auto elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - start);
  RecordProperty("seconds", std::to_string(elapsed.count()));
}

RC_GTEST_PROP(ReferenceFloatToE8M0, RandomFP32WordsAgainstIndependentFormulation, ()) {
  const auto word = *rc::gen::arbitrary<std::uint32_t>();
  const Analysis a = Analyse(T::FP32, word);
  for (M mode : kAllRoundingModes) {
    for (bool sat : {false, true}) {
      RC_ASSERT(ReferenceFloatToE8M0(word, T::FP32, Control(mode, sat)) == Expected(a, mode, sat));
    }
  }
}

// FP32 words near powers of two and near sqrt(2) * 2^k, normal and subnormal.
rc::Gen<std::uint32_t> GenNearBoundaryFP32() {
  // floor(sqrt(2) * 2^j) for j = 0..22: the subnormal fraction nearest sqrt(2) * 2^(j-149).
  static const std::vector<std::uint32_t> sqrt2_fractions = [] {
    std::vector<std::uint32_t> out;
    for (int j = 0; j <= 22; ++j) {
      const Integer s = boost::multiprecision::sqrt(Integer(1) << (2 * j + 1));
      out.push_back(static_cast<std::uint32_t>(s));
    }
    return out;
  }();
  return rc::gen::oneOf(
      // Normal, near a power of two: fraction near 0 or near all ones.
      rc::gen::apply(
          [](unsigned e, int delta, bool sign) {
            const std::uint32_t fraction = delta >= 0
                                               ? static_cast<std::uint32_t>(delta)
                                               : 0x800000u - static_cast<std::uint32_t>(-delta);
            return (sign ? 0x80000000u : 0u) | (e << 23) | fraction;
          },
          rc::gen::inRange(1u, 255u), rc::gen::inRange(-3, 4),
          rc::gen::weightedElement<bool>({{9, false}, {1, true}})),
      // Normal, near sqrt(2) * 2^k: fraction 0x3504F3 +/- a few (sqrt(2) = 0x1.6A09E6...p0).
      rc::gen::apply(
          [](unsigned e, int delta) {
            return (e << 23) | static_cast<std::uint32_t>(0x3504F3 + delta);
          },
          rc::gen::inRange(1u, 255u), rc::gen::inRange(-3, 4)),
      // Subnormal, near a power of two.
      rc::gen::apply(
          [](int j, int delta) {
            const std::int64_t f = (std::int64_t{1} << j) + delta;
            return static_cast<std::uint32_t>(f < 1 ? 1 : f > 0x7FFFFF ? 0x7FFFFF : f);
          },
          rc::gen::inRange(0, 23), rc::gen::inRange(-2, 3)),
      // Subnormal, near sqrt(2) * 2^k.
      rc::gen::apply(
          [](std::size_t j, int delta) {
            const std::int64_t f = std::int64_t{sqrt2_fractions[j]} + delta;
            return static_cast<std::uint32_t>(f < 1 ? 1 : f > 0x7FFFFF ? 0x7FFFFF : f);
          },
          rc::gen::inRange<std::size_t>(0, sqrt2_fractions.size()), rc::gen::inRange(-2, 3)));
}

RC_GTEST_PROP(ReferenceFloatToE8M0, FP32NearPowersAndSqrt2AgainstIndependentFormulation, ()) {
  const auto word = *GenNearBoundaryFP32();
  const Analysis a = Analyse(T::FP32, word);
  for (M mode : kAllRoundingModes) {
    for (bool sat : {false, true}) {
      RC_ASSERT(ReferenceFloatToE8M0(word, T::FP32, Control(mode, sat)) == Expected(a, mode, sat));
      RC_ASSERT(TileProfileConvert(word, T::FP32, T::E8M0, Control(mode, sat)) ==
                Expected(a, mode, sat));
    }
  }
}

TEST(ReferenceFloatToE8M0, FP32NeighboursOfEverySqrt2BoundaryAndPower) {
  // Deterministic sweep: for every exponent field, the words around the power of two and around
  // sqrt(2) * 2^k, plus the subnormal neighbours; each compared with the independent formulation.
  for (std::uint32_t e = 1; e < 255; ++e) {
    for (std::uint32_t fraction :
         {0u, 1u, 2u, 0x7FFFFFu, 0x7FFFFEu, 0x3504F2u, 0x3504F3u, 0x3504F4u, 0x3504F5u}) {
      CheckAgainstIndependent(T::FP32, (e << 23) | fraction);
      if (HasFatalFailure()) return;
    }
  }
  for (int j = 0; j <= 22; ++j) {
    const Integer s = boost::multiprecision::sqrt(Integer(1) << (2 * j + 1));
    const std::uint32_t root = static_cast<std::uint32_t>(s);
    for (std::uint32_t f : {root - 1, root, root + 1, (1u << j) - 1, 1u << j, (1u << j) + 1}) {
      if (f == 0 || f > 0x7FFFFF) continue;
      CheckAgainstIndependent(T::FP32, f);
      if (HasFatalFailure()) return;
    }
  }
}

}  // namespace
}  // namespace e8m0_conversion_test
}  // namespace ptovec::oracle
