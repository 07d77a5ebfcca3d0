// The outcome classes of edition 2026-09's TCVT (Tcvt2026_09OutcomeClasses), one test per route,
// on inputs whose class and result are derived by hand from the ASL of
// /work/shared/spec-2026-09 (commit 01445483): reference-conversion.asl (ReferenceCommonConvert
// lines 142-176, its specials lines 84-140), formats.asl (TileConvertIntegerValue lines 57-95),
// tcvt-conversion.asl (ReferenceTCVTConvert lines 159-186) and packed-conversion.asl.
#include <gtest/gtest.h>

#include <string>
#include <string_view>
#include <vector>

#include "ptovec/generator/coverage.hpp"
#include "ptovec/generator/ops.hpp"
#include "ptovec/oracle/edition.hpp"
#include "ptovec/oracle/numeric.hpp"

namespace ptovec::generator {
namespace tcvt_2026_09_classes_test {
namespace {

using T = TileDataType;
constexpr NumericExecutionControl kRne{NumericRoundingMode::RNE, false};
constexpr NumericExecutionControl kRneSat{NumericRoundingMode::RNE, true};
constexpr NumericExecutionControl kRna{NumericRoundingMode::RNA, false};

const OpDef& Tcvt() { return *FindOp("tcvt", oracle::Edition::V2026_09); }

bool InTable(TypePair pair, std::string_view name) {
  for (const CoverageClass& c : CoverageClasses(Tcvt(), pair)) {
    if (c.name == name) return true;
  }
  return false;
}

// One conversion: the oracle's (literal) result and whether it lands in class `name`.
struct Landing {
  Encoded result;
  bool hit = false;
};

Landing Classify(TypePair pair, Word word, NumericExecutionControl control, std::string_view name) {
  const OpDef& op = Tcvt();
  const PairClassifier classifier(op, pair);
  const Inputs in{word, 0, 0, 0};
  Landing l{op.evaluate_reference(pair, in, control), false};
  ClassMask mask;
  const NumericExecutionControl controls[] = {control};
  classifier.Classify(in, controls, &l.result, &mask);
  for (const CoverageClass& c : classifier.classes()) {
    if (c.name == name) l.hit = mask.test(c.bit);
  }
  EXPECT_TRUE(InTable(pair, name)) << name;
  return l;
}

// Common route, floating source (reference-conversion.asl lines 160-170): the finite value is
// ReferenceMatrixFloatingEncoding's, so encode's classes hold; the specials are lines 84-140.
TEST(Tcvt2026_09Classes, CommonRouteFloatingSource) {
  const TypePair f32_f16{T::FP32, T::FP16};
  // 65520 = 65504 + 16, FP16's overflow threshold: RNE overflows to +Inf with OF|NX.
  Landing l = Classify(f32_f16, 0x477ff000, kRne, "at the overflow threshold");
  EXPECT_TRUE(l.hit);
  EXPECT_EQ(l.result.word, 0x7c00u);
  EXPECT_EQ(l.result.status, oracle::kStatusOFNX);
  EXPECT_TRUE(Classify(f32_f16, 0x477ff000, kRne, "overflow to Inf or NaN").hit);
  // Sat keeps encode's meaning: 70000 under RNE with Sat gives the largest finite 0x7BFF, OF|NX
  // (ReferenceMatrixFloatingEncoding, reached by lines 160-161); 500 into E4M3 without Sat its NaN.
  l = Classify(f32_f16, 0x4788b800, kRneSat, "overflow under Sat");
  EXPECT_TRUE(l.hit);
  EXPECT_EQ(l.result.word, 0x7bffu);
  EXPECT_EQ(l.result.status, oracle::kStatusOFNX);
  l = Classify({T::FP32, T::E4M3}, 0x43fa0000, kRne, "overflow to Inf or NaN");
  EXPECT_TRUE(l.hit);
  EXPECT_EQ(l.result.word, 0x7fu);
  // +Inf into FP16 (lines 105-111): +Inf, no status.
  l = Classify(f32_f16, 0x7f800000, kRne, "+Inf source: +Inf");
  EXPECT_TRUE(l.hit);
  EXPECT_EQ(l.result.word, 0x7c00u);
  EXPECT_EQ(l.result.status, 0u);
  // -0 (lines 128-138): -0, no status.
  l = Classify(f32_f16, 0x80000000, kRne, "-0 source: -0");
  EXPECT_TRUE(l.hit);
  EXPECT_EQ(l.result.word, 0x8000u);
  // A signaling NaN (lines 91-104): the canonical NaN with NV; a quiet one without.
  l = Classify(f32_f16, 0x7f800001, kRne, "signaling NaN source: the canonical NaN with NV");
  EXPECT_TRUE(l.hit);
  EXPECT_EQ(l.result.status, oracle::kStatusNV);
  EXPECT_FALSE(
      Classify(f32_f16, 0x7fc00000, kRne, "signaling NaN source: the canonical NaN with NV").hit);
  // E4M3 has no Inf (lines 112-127): under Sat the largest finite 0x7E, else its NaN 0x7F,
  // both with OF|NX.
  const TypePair f16_e4m3{T::FP16, T::E4M3};
  l = Classify(f16_e4m3, 0x7c00, kRneSat, "Inf source under Sat: the largest finite, OF and NX");
  EXPECT_TRUE(l.hit);
  EXPECT_EQ(l.result.word, 0x7eu);
  EXPECT_EQ(l.result.status, oracle::kStatusOFNX);
  l = Classify(f16_e4m3, 0x7c00, kRne, "Inf source without Sat: the NaN, OF and NX");
  EXPECT_TRUE(l.hit);
  EXPECT_EQ(l.result.word, 0x7fu);
  // E4M3 has no Inf: the +Inf class is not in its table.
  EXPECT_FALSE(InTable(f16_e4m3, "+Inf source: +Inf"));
}

// Common route into an integer (lines 91-104 and 122-126, then ReferenceMatrixIntegerEncoding).
TEST(Tcvt2026_09Classes, CommonRouteIntegerDestination) {
  const TypePair f32_s32{T::FP32, T::S32};
  Landing l = Classify(f32_s32, 0x7fc00000, kRne, "NaN source: 0 with NV");
  EXPECT_TRUE(l.hit);
  EXPECT_EQ(l.result.word, 0u);
  EXPECT_EQ(l.result.status, oracle::kStatusNV);
  l = Classify(f32_s32, 0xff800000, kRne, "-Inf source: the minimum with NV");
  EXPECT_TRUE(l.hit);
  EXPECT_EQ(l.result.word, 0x80000000u);
  EXPECT_EQ(l.result.status, oracle::kStatusNV);
  // 2.5 is a tie: RNE rounds it down to 2 (inexact), RNA up to 3.
  EXPECT_TRUE(Classify(f32_s32, 0x40200000, kRne, "tie rounded down").hit);
  EXPECT_TRUE(Classify(f32_s32, 0x40200000, kRna, "tie rounded up").hit);
  // -2^64 (FP64 0xC3F0000000000000) into U64 without Sat: it rounds to -2^w, OF, wraps to 0.
  const TypePair f64_u64{T::FP64, T::U64};
  l = Classify(f64_u64, 0xC3F0000000000000, kRne, "rounds to -2^w (unsigned)");
  EXPECT_TRUE(l.hit);
  EXPECT_EQ(l.result.word, 0u);
  EXPECT_TRUE(Classify(f64_u64, 0xC3F0000000000000, kRne, "non-Sat wrap").hit);
  // 2^64 (FP64 0x43F0000000000000) is above U64's maximum 2^64 - 1 (no int64): Sat clamps it.
  EXPECT_TRUE(Classify(f64_u64, 0x43F0000000000000, kRneSat, "Sat clamp").hit);
  EXPECT_TRUE(Classify(f64_u64, 0x43F0000000000000, kRneSat, "range end: maximum").hit);
}

// Common route from a 64-bit integer: 2^53 + 1 lies halfway between the FP64 values 2^53 and
// 2^53 + 2; RNE gives the even 2^53 (NX), RNA 2^53 + 2. U64's 2^64 - 1 into FP32 rounds to 2^64.
TEST(Tcvt2026_09Classes, CommonRouteIntegerSource) {
  const TypePair s64_f64{T::S64, T::FP64};
  Landing l = Classify(s64_f64, 0x20000000000001, kRne, "exact tie rounded down");
  EXPECT_TRUE(l.hit);
  EXPECT_EQ(l.result.word, 0x4340000000000000u);
  EXPECT_TRUE(Classify(s64_f64, 0x20000000000001, kRna, "exact tie rounded up").hit);
  EXPECT_TRUE(Classify(s64_f64, 0x20000000000000, kRne, "exact").hit);
  const TypePair u64_f32{T::U64, T::FP32};
  l = Classify(u64_f32, ~Word{0}, kRne, "carry into the next binade");
  EXPECT_TRUE(l.hit);
  EXPECT_EQ(l.result.word, 0x5f800000u);  // 2^64
}

// IntegerValue route (formats.asl lines 57-95): Sat clamps, no Sat wraps, status 0.
TEST(Tcvt2026_09Classes, IntegerValueRoute) {
  const TypePair s32_s8{T::S32, T::S8};
  Landing l = Classify(s32_s8, 300, kRneSat, "Sat: clamped to the maximum");
  EXPECT_TRUE(l.hit);
  EXPECT_EQ(l.result.word, 0x7fu);
  EXPECT_EQ(l.result.status, 0u);
  l = Classify(s32_s8, 300, kRne, "no Sat: wrapped modulo 2^w");
  EXPECT_TRUE(l.hit);
  EXPECT_EQ(l.result.word, 44u);  // 300 - 256
  EXPECT_TRUE(Classify(s32_s8, 128, kRne, "the maximum + 1").hit);
  EXPECT_TRUE(Classify(s32_s8, 0xffffff7f, kRne, "the minimum - 1").hit);  // -129
  EXPECT_TRUE(Classify(s32_s8, 127, kRneSat, "in range: the value kept").hit);
  const TypePair s32_u8{T::S32, T::U8};
  l = Classify(s32_u8, 0xffffffff, kRneSat, "Sat: clamped to the minimum");  // -1
  EXPECT_TRUE(l.hit);
  EXPECT_EQ(l.result.word, 0u);
  EXPECT_TRUE(Classify(s32_u8, 0xffffffff, kRneSat, "negative into unsigned").hit);
  // S8 -> S32: the source range lies inside; nothing clamps or wraps.
  EXPECT_FALSE(InTable({T::S8, T::S32}, "Sat: clamped to the maximum"));
  EXPECT_FALSE(InTable({T::S8, T::S32}, "no Sat: wrapped modulo 2^w"));
}

// ReferenceTCVTConvert's branches (tcvt-conversion.asl lines 21-157).
TEST(Tcvt2026_09Classes, TcvtConvertRoute) {
  // From E8M0 (lines 140-157): 0xFF the canonical NaN without NV; 2^16 overflows FP16.
  Landing l = Classify({T::E8M0, T::FP16}, 0xff, kRne, "0xFF: the canonical NaN, no status");
  EXPECT_TRUE(l.hit);
  EXPECT_EQ(l.result.status, 0u);
  EXPECT_TRUE(Classify({T::E8M0, T::FP16}, 127 + 16, kRne, "at largest finite + one ulp").hit);
  // To E2M1X2 (lines 21-53; packed-conversion.asl lines 57-141): 7 > 6 gives lane 6 (4.0)
  // with OF|NX; 2.5 is the tie of lanes 4 (2) and 5 (3): RNE gives the even lane 4.
  const TypePair f32_e2m1{T::FP32, T::E2M1X2};
  l = Classify(f32_e2m1, 0x40e00000, kRne, "above the largest lane value: lane 6 or 7, OF and NX");
  EXPECT_TRUE(l.hit);
  EXPECT_EQ(l.result.word, 6u);
  EXPECT_EQ(l.result.status, oracle::kStatusOFNX);
  EXPECT_TRUE(Classify(f32_e2m1, 0x40200000, kRne, "lane tie rounded down").hit);
  EXPECT_TRUE(Classify(f32_e2m1, 0x40200000, kRna, "lane tie rounded up").hit);
  EXPECT_TRUE(Classify(f32_e2m1, 0x80000000, kRne, "-0 source: lane -0").hit);
  // From E2M1X2 (lines 55-71): lane 8 is -0.
  EXPECT_TRUE(Classify({T::E2M1X2, T::FP32}, 0x8, kRne, "-0 lane: -0").hit);
  // To E6M2 (lines 73-104; packed-conversion.asl lines 164-201): -1 gives 0xFF with NV, +0
  // code 0x00 with UF|NX; 1.125 is the tie of 1 (0xC0) and 1.25 (0xC1).
  const TypePair f16_e6m2{T::FP16, T::E6M2};
  l = Classify(f16_e6m2, 0xbc00, kRne, "negative source: 0xFF with NV");
  EXPECT_TRUE(l.hit);
  EXPECT_EQ(l.result.word, 0xffu);
  EXPECT_EQ(l.result.status, oracle::kStatusNV);
  l = Classify(f16_e6m2, 0x0000, kRne, "zero source: 0x00 with UF and NX");
  EXPECT_TRUE(l.hit);
  EXPECT_EQ(l.result.status, oracle::kStatusUFNX);
  EXPECT_TRUE(Classify(f16_e6m2, 0x3c80, kRne, "E6M2 tie rounded down").hit);
  EXPECT_TRUE(Classify(f16_e6m2, 0x3c80, kRna, "E6M2 tie rounded up").hit);
  EXPECT_TRUE(Classify(f16_e6m2, 0x3c00, kRne, "E6M2 exact").hit);
  // From E6M2 and RCPE6M2 (lines 106-138): 0xC0 is 1; RCPE6M2 0xC1 is 1/1.25 = 0.8, inexact.
  EXPECT_TRUE(Classify({T::E6M2, T::FP16}, 0xc0, kRne, "exact normal").hit);
  l = Classify({T::RCPE6M2, T::FP16}, 0xc1, kRne, "reciprocal inexact (NX without UF or OF)");
  EXPECT_TRUE(l.hit);
  EXPECT_EQ(l.result.status, oracle::kStatusNX);
}

// To E8M0 the seeds' classes (ReferenceFloatToE8M0); a raw pair has none of its own.
TEST(Tcvt2026_09Classes, ToE8M0AndRawRoutes) {
  EXPECT_TRUE(Classify({T::FP32, T::E8M0}, 0x3f800000, kRne, "exact power of two").hit);
  const TypePair raw{T::BF16, T::FP32};
  ASSERT_TRUE(Tcvt().outcome_classes(raw).classes.empty());
}

}  // namespace
}  // namespace tcvt_2026_09_classes_test
}  // namespace ptovec::generator
