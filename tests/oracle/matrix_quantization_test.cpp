// Tests of seed 000 (PTO-ARCH-PROFILE-MATRIX-QUANTIZATION) and the FP19 helpers of spec-notes
// section 4: the known answers of spec-notes section 6, hand-derived cases of spec-notes section 5,
// decoder agreement with the format table, exhaustive round-trip identities, and RapidCheck
// properties over exact reals built from random FP32 words.
#include "ptovec/oracle/matrix_quantization.hpp"

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <optional>
#include <ostream>
#include <vector>

#include "ptovec/oracle/formats.hpp"
#include "ptovec/oracle/reference_quantization.hpp"
#include "test_support.hpp"

namespace ptovec::oracle {

// Readable failure messages for Encoded (internal linkage: other test files may print it too).
namespace matrix_quantization_test {
namespace {

using M = NumericRoundingMode;
using T = TileDataType;

NumericExecutionControl Ctl(M mode, bool saturating = false) { return {mode, saturating}; }

Real Frac(std::int64_t num, std::int64_t den) { return Real(Integer(num), Integer(den)); }

Real P2(int e) { return PowerOfTwo(e); }

constexpr std::array<T, 4> kSmallFloatTypes = {T::FP16, T::BF16, T::E4M3, T::HiF8};

bool IsFP8(T type) { return type == T::E4M3 || type == T::HiF8; }

// The value of a result code of FP16/BF16/E4M3/HiF8 decoded by the seed's own decoders, or
// nullopt for an Inf/NaN code.
std::optional<Real> DecodeSmall(T type, Word word) {
  const NumericValueClass c = TileNumericValueClass(type, word);
  if (NumericValueClassIsNaN(c) || NumericValueClassIsInfinity(c)) return std::nullopt;
  if (IsFP8(type)) return ReferenceFP8FiniteValue(type, word);
  return ReferenceBinary16FiniteValue(word, type);
}

// The finite codes of a format, in code order.
std::vector<Word> FiniteCodes(T type) {
  std::vector<Word> codes;
  const Word count = Word{1} << Format(type).width;
  for (Word code = 0; code < count; ++code) {
    const NumericValueClass c = TileNumericValueClass(type, code);
    if (!NumericValueClassIsNaN(c) && !NumericValueClassIsInfinity(c)) codes.push_back(code);
  }
  return codes;
}

// The code the encoders must give back for a finite code: a -0 source encodes to +0.
Word ExpectedIdentityCode(T type, Word code) {
  return NumericValueClassIsZero(TileNumericValueClass(type, code)) ? Word{0} : code;
}

// ---------------------------------------------------------------------------------------------
// Known answers: spec-notes section 6 (the specification's own tests)
// ---------------------------------------------------------------------------------------------

TEST(MatrixQuantizationKnownAnswer, IntegerEncoding130IntoS8) {
  const Encoded e = ReferenceMatrixIntegerEncoding(Real(130), T::S8, Ctl(M::RNE));
  EXPECT_EQ(e.word, Word{0xffffffffffffff82});  // S8 -126 in the carrier
  EXPECT_EQ(LowBits(e.word, 8), Word{0x82});
  EXPECT_EQ(e.status, Status{0x14});
}

TEST(MatrixQuantizationKnownAnswer, FloatingEncoding) {
  EXPECT_EQ(ReferenceMatrixFloatingEncoding(Frac(3, 2), T::FP16, Ctl(M::RNE)),
            (Encoded{0x3E00, 0x00}));
  EXPECT_EQ(ReferenceMatrixFloatingEncoding(Frac(3, 2), T::E4M3, Ctl(M::RNE)),
            (Encoded{0x3C, 0x00}));
  EXPECT_EQ(ReferenceMatrixFloatingEncoding(Frac(3, 2), T::HiF8, Ctl(M::RNE)),
            (Encoded{0x0C, 0x00}));
  // -1.00390625 = -(1 + 2^-8)
  EXPECT_EQ(ReferenceMatrixFloatingEncoding(Frac(-257, 256), T::BF16, Ctl(M::RHB)),
            (Encoded{0xBF80, 0x10}));
}

TEST(MatrixQuantizationKnownAnswer, RoundAndSaturateSigned) {
  using P = std::pair<Integer, Status>;
  EXPECT_EQ(MatrixRoundAndSaturateSigned(Frac(31, 2), 5, M::RNE), P(15, 0x14));
  EXPECT_EQ(MatrixRoundAndSaturateSigned(Frac(-33, 2), 5, M::RNA), P(-16, 0x14));
  EXPECT_EQ(MatrixRoundAndSaturateSigned(Frac(1023, 4), 9, M::RNE), P(255, 0x14));
  EXPECT_EQ(MatrixRoundAndSaturateSigned(Frac(-1027, 4), 9, M::RNE), P(-256, 0x14));
  EXPECT_EQ(MatrixRoundAndSaturateSigned(Frac(655354, 10), 17, M::RTZ), P(65535, 0x10));
  // 0.5 and -0.5 at width 9: the table gives the values; both are inexact (NX).
  const Real half = Frac(1, 2);
  EXPECT_EQ(MatrixRoundAndSaturateSigned(half, 9, M::RNE), P(0, 0x10));
  EXPECT_EQ(MatrixRoundAndSaturateSigned(half, 9, M::RNA), P(1, 0x10));
  EXPECT_EQ(MatrixRoundAndSaturateSigned(half, 9, M::RTP), P(1, 0x10));
  EXPECT_EQ(MatrixRoundAndSaturateSigned(half, 9, M::RTM), P(0, 0x10));
  EXPECT_EQ(MatrixRoundAndSaturateSigned(half, 9, M::RTZ), P(0, 0x10));
  EXPECT_EQ(MatrixRoundAndSaturateSigned(-half, 9, M::RNE), P(0, 0x10));
  EXPECT_EQ(MatrixRoundAndSaturateSigned(-half, 9, M::RNA), P(-1, 0x10));
  EXPECT_EQ(MatrixRoundAndSaturateSigned(-half, 9, M::RTP), P(0, 0x10));
  EXPECT_EQ(MatrixRoundAndSaturateSigned(-half, 9, M::RTM), P(-1, 0x10));
  EXPECT_EQ(MatrixRoundAndSaturateSigned(-half, 9, M::RTZ), P(0, 0x10));
}

TEST(MatrixQuantizationKnownAnswer, ShiftS32ToS16) {
  const Encoded a = MatrixShiftS32ToS16(0xFFFFFFDF, 1);
  EXPECT_EQ(LowBits(a.word, 16), Word{0xFFEF});
  EXPECT_EQ(a, (Encoded{0xFFFFFFFFFFFFFFEF, 0x00}));  // S16 -17 sign-extended in the carrier
  EXPECT_EQ(MatrixShiftS32ToS16(0x7FFFFFFF, 1), (Encoded{0x7FFF, 0x14}));
}

TEST(MatrixQuantizationKnownAnswer, QuantOffsetOfPackedParameter) {
  EXPECT_EQ(MatrixQuantOffset(MatrixQuantParameter(FP32ToFP19(0x3F800000), 0x1FF, 9), 9),
            Integer(-1));
}

// ---------------------------------------------------------------------------------------------
// FP19 (spec-notes section 4)
// ---------------------------------------------------------------------------------------------

TEST(FP19, FP32ToFP19KnownWords) {
  EXPECT_EQ(FP32ToFP19(0x3F800000), Word{0x1FC00});          // 1.0
  EXPECT_EQ(FP32ToFP19(0xBF800000), Word{0x5FC00});          // -1.0
  EXPECT_EQ(FP32ToFP19(0x00000000), Word{0x00000});          // +0
  EXPECT_EQ(FP32ToFP19(0x80000000), Word{0x40000});          // -0
  EXPECT_EQ(FP32ToFP19(0x7F800000), Word{0x3FC00});          // +Inf
  EXPECT_EQ(FP32ToFP19(0xFF800000), Word{0x7FC00});          // -Inf
  EXPECT_EQ(FP32ToFP19(0xFFFFFFFF3F800000), Word{0x1FC00});  // carrier bits above 31 ignored
  // Round to nearest even on the 13 dropped bits.
  EXPECT_EQ(FP32ToFP19(0x3F800FFF), Word{0x1FC00});  // below half: down
  EXPECT_EQ(FP32ToFP19(0x3F801000), Word{0x1FC00});  // tie, kept part even: down
  EXPECT_EQ(FP32ToFP19(0x3F801001), Word{0x1FC01});  // above half: up
  EXPECT_EQ(FP32ToFP19(0x3F803000), Word{0x1FC02});  // tie, kept part odd: up to even
  EXPECT_EQ(FP32ToFP19(0x3FFFF000), Word{0x20000});  // carry into the exponent: 2.0
  EXPECT_EQ(FP32ToFP19(0x7F7FFFFF), Word{0x3FC00});  // largest FP32 finite carries to +Inf
  EXPECT_EQ(FP32ToFP19(0xFF7FFFFF), Word{0x7FC00});  // and to -Inf
  EXPECT_EQ(FP32ToFP19(0x007FFFFF), Word{0x00400});  // largest subnormal carries to min normal
  EXPECT_EQ(FP32ToFP19(0x00001000), Word{0x00000});  // half the smallest FP19 subnormal: even
  EXPECT_EQ(FP32ToFP19(0x00003000), Word{0x00002});
}

TEST(FP19, FP32ToFP19EveryNaNBecomesCanonicalQuietNaN) {
  for (const Word w : {Word{0x7FC00000}, Word{0xFFC00000}, Word{0x7F800001}, Word{0xFF800001},
                       Word{0x7FFFFFFF}, Word{0xFFFFFFFF}, Word{0x7F801FFF}, Word{0x7FBFFFFF}}) {
    EXPECT_EQ(FP32ToFP19(w), Word{0x3FF00}) << std::hex << w;
  }
  EXPECT_EQ(TileNumericValueClass(T::FP19, 0x3FF00), NumericValueClass::QuietNaN);
}

TEST(FP19, FiniteValueKnownCodes) {
  EXPECT_EQ(FP19FiniteValue(0x1FC00), Real(1));
  EXPECT_EQ(FP19FiniteValue(0x5FC00), Real(-1));
  EXPECT_EQ(FP19FiniteValue(0x00000), Real(0));
  EXPECT_EQ(FP19FiniteValue(0x40000), Real(0));
  EXPECT_EQ(FP19FiniteValue(0x00001), P2(-136));
  EXPECT_EQ(FP19FiniteValue(0x003FF), Real(1023) * P2(-136));
  EXPECT_EQ(FP19FiniteValue(0x00400), P2(-126));
  EXPECT_EQ(FP19FiniteValue(0x3FBFF), (Real(2) - P2(-10)) * P2(127));
  EXPECT_EQ(FP19FiniteValue(0x1FE00), Frac(3, 2));
  EXPECT_EQ(FP19FiniteValue(0xFFFFFFFFFFF9FC00), Real(1));       // bits above 18 ignored
  EXPECT_THROW(FP19FiniteValue(0x3FC00), SeedAssertionFailure);  // +Inf
  EXPECT_THROW(FP19FiniteValue(0x7FC00), SeedAssertionFailure);  // -Inf
  EXPECT_THROW(FP19FiniteValue(0x3FF00), SeedAssertionFailure);  // NaN
}

TEST(FP19, FiniteValueAgreesWithFormatTableForEveryCode) {
  int checked = 0;
  for (Word code = 0; code < (Word{1} << 19); ++code) {
    if (((code >> 10) & 0xFF) == 0xFF) {
      EXPECT_THROW(FP19FiniteValue(code), SeedAssertionFailure);
      continue;
    }
    ASSERT_EQ(FP19FiniteValue(code), TileNumericFiniteValue(T::FP19, code)) << std::hex << code;
    ++checked;
  }
  EXPECT_EQ(checked, (1 << 19) - 2 * 1024);
}

TEST(FP19, FP32ToFP19IsExactOnRepresentableWords) {
  // Every FP19 finite code c has the FP32 word c << 13 with the same value; FP32ToFP19 must
  // return c exactly.
  for (Word code = 0; code < (Word{1} << 19); code += 7) {
    if (((code >> 10) & 0xFF) == 0xFF) continue;
    const Word fp32 = code << 13;
    ASSERT_EQ(FP32ToFP19(fp32), code);
    ASSERT_EQ(FP19FiniteValue(code), ReferenceFP32FiniteValue(fp32));
  }
}

RC_GTEST_PROP(FP19Property, FP32ToFP19RoundsToNearestEven, (std::uint32_t raw)) {
  const Word fp32 = raw;
  RC_PRE(((fp32 >> 23) & 0xFF) != 0xFF);
  const Real x = ReferenceFP32FiniteValue(fp32);
  const Word result = FP32ToFP19(fp32);
  const Word truncated = fp32 >> 13;
  RC_ASSERT(result == truncated || result == truncated + 1);
  // The two neighbours, with the one above possibly Inf (no finite value).
  const Real down = FP19FiniteValue(truncated);
  const NumericValueClass up_class = TileNumericValueClass(T::FP19, truncated + 1);
  const Real distance_down = x >= down ? Real(x - down) : Real(down - x);
  if (NumericValueClassIsInfinity(up_class)) {
    // Past the largest finite: the rounding is done on the raw bits, so Inf is the "up" neighbour
    // at 2^128.
    const Real up = P2(128) * ((fp32 >> 31) ? Real(-1) : Real(1));
    const Real distance_up = x >= up ? Real(x - up) : Real(up - x);
    RC_ASSERT(
        (result == truncated + 1) ==
        (distance_up < distance_down || (distance_up == distance_down && (truncated & 1) == 1)));
    return;
  }
  const Real up = FP19FiniteValue(truncated + 1);
  const Real distance_up = x >= up ? Real(x - up) : Real(up - x);
  if (distance_down < distance_up) {
    RC_ASSERT(result == truncated);
  } else if (distance_up < distance_down) {
    RC_ASSERT(result == truncated + 1);
  } else {
    RC_ASSERT((result & 1) == 0);
  }
}

// ---------------------------------------------------------------------------------------------
// Parameter packing (seed 000 lines 11-41)
// ---------------------------------------------------------------------------------------------

TEST(MatrixQuantizationParameters, QuantParameterLayout) {
  EXPECT_EQ(MatrixQuantParameter(0x1FC00, 0x1FF, 9), Word{0x00003FE03F800000});
  EXPECT_EQ(MatrixQuantParameter(0x1FC00, 0x1FF, 0), Word{0x000000003F800000});
  EXPECT_EQ(MatrixQuantParameter(0x7FFFF, 0, 0), Word{0x00000000FFFFE000});
  EXPECT_EQ(MatrixQuantParameter(0xFFFFFFFFFFFFFFFF, 0xFFFFFFFFFFFFFFFF, 5),
            Word{0x000003E0FFFFE000});
  EXPECT_EQ(MatrixQuantParameter(0, 0xFFFFFFFFFFFFFFFF, 9), Word{0x00003FE000000000});
  EXPECT_EQ(MatrixQuantParameter(0, 0xFFFFFFFFFFFFFFFF, 17), Word{0x003FFFE000000000});
  EXPECT_THROW(MatrixQuantParameter(0, 0, 8), SeedAssertionFailure);
}

TEST(MatrixQuantizationParameters, QuantOffsetSignedFields) {
  EXPECT_EQ(MatrixQuantOffset(MatrixQuantParameter(0x1FC00, 0x0F, 5), 5), Integer(15));
  EXPECT_EQ(MatrixQuantOffset(MatrixQuantParameter(0x1FC00, 0x10, 5), 5), Integer(-16));
  EXPECT_EQ(MatrixQuantOffset(MatrixQuantParameter(0x1FC00, 0x1F, 5), 5), Integer(-1));
  EXPECT_EQ(MatrixQuantOffset(MatrixQuantParameter(0x1FC00, 0xFF, 9), 9), Integer(255));
  EXPECT_EQ(MatrixQuantOffset(MatrixQuantParameter(0x1FC00, 0x100, 9), 9), Integer(-256));
  EXPECT_EQ(MatrixQuantOffset(MatrixQuantParameter(0x1FC00, 0xFFFF, 17), 17), Integer(65535));
  EXPECT_EQ(MatrixQuantOffset(MatrixQuantParameter(0x1FC00, 0x10000, 17), 17), Integer(-65536));
  EXPECT_EQ(MatrixQuantOffset(MatrixQuantParameter(0x1FC00, 0x1FFFF, 17), 17), Integer(-1));
  EXPECT_EQ(MatrixQuantOffset(0xFFFFFFFFFFFFFFFF, 0), Integer(0));
  // A narrower width reads only its own bits of a wider field.
  EXPECT_EQ(MatrixQuantOffset(MatrixQuantParameter(0, 0x0F, 17), 5), Integer(15));
  EXPECT_THROW(MatrixQuantOffset(0, 4), SeedAssertionFailure);
}

TEST(MatrixQuantizationParameters, ShiftParameterLayout) {
  EXPECT_EQ(MatrixShiftParameter(0), Word{0});
  EXPECT_EQ(MatrixShiftParameter(1), Word{0x100000000});
  EXPECT_EQ(MatrixShiftParameter(15), Word{0xF00000000});
  EXPECT_THROW(MatrixShiftParameter(16), SeedAssertionFailure);
  EXPECT_THROW(MatrixShiftParameter(-1), SeedAssertionFailure);
}

// ---------------------------------------------------------------------------------------------
// Rounding helpers (seed 000 lines 43-91)
// ---------------------------------------------------------------------------------------------

TEST(MatrixQuantizationRounding, MagnitudeRoundingModeSwapsOnlyDirectedModesForNegatives) {
  for (const M mode : kAllRoundingModes) {
    EXPECT_EQ(MatrixMagnitudeRoundingMode(mode, false), mode);
  }
  EXPECT_EQ(MatrixMagnitudeRoundingMode(M::RTP, true), M::RTM);
  EXPECT_EQ(MatrixMagnitudeRoundingMode(M::RTM, true), M::RTP);
  for (const M mode : {M::RNE, M::RTZ, M::RNA, M::RTO, M::RHB}) {
    EXPECT_EQ(MatrixMagnitudeRoundingMode(mode, true), mode);
  }
}

TEST(MatrixQuantizationRounding, RoundMagnitude) {
  // RHB on a negative number: a tie goes to the smaller magnitude; otherwise nearest.
  EXPECT_EQ(MatrixRoundMagnitude(Frac(5, 2), M::RHB, true), Integer(2));
  EXPECT_EQ(MatrixRoundMagnitude(Frac(5, 2), M::RHB, false), Integer(3));
  EXPECT_EQ(MatrixRoundMagnitude(Frac(51, 20), M::RHB, true), Integer(3));
  EXPECT_EQ(MatrixRoundMagnitude(Frac(49, 20), M::RHB, true), Integer(2));
  EXPECT_EQ(MatrixRoundMagnitude(Real(7), M::RHB, true), Integer(7));
  // RTP/RTM swap for negatives (rounding the magnitude).
  EXPECT_EQ(MatrixRoundMagnitude(Frac(5, 2), M::RTP, true), Integer(2));
  EXPECT_EQ(MatrixRoundMagnitude(Frac(5, 2), M::RTM, true), Integer(3));
  EXPECT_EQ(MatrixRoundMagnitude(Frac(5, 2), M::RTP, false), Integer(3));
  EXPECT_EQ(MatrixRoundMagnitude(Frac(5, 2), M::RTM, false), Integer(2));
  EXPECT_EQ(MatrixRoundMagnitude(Frac(5, 2), M::RNE, true), Integer(2));
  EXPECT_EQ(MatrixRoundMagnitude(Frac(5, 2), M::RNA, true), Integer(3));
  EXPECT_EQ(MatrixRoundMagnitude(Frac(5, 2), M::RTO, true), Integer(3));
  EXPECT_EQ(MatrixRoundMagnitude(Frac(5, 2), M::RTZ, true), Integer(2));
}

TEST(MatrixQuantizationRounding, RoundAndSaturateSignedBounds) {
  using P = std::pair<Integer, Status>;
  EXPECT_EQ(MatrixRoundAndSaturateSigned(Real(15), 5, M::RNE), P(15, 0x00));
  EXPECT_EQ(MatrixRoundAndSaturateSigned(Real(-16), 5, M::RNE), P(-16, 0x00));
  EXPECT_EQ(MatrixRoundAndSaturateSigned(Real(16), 5, M::RNE), P(15, 0x14));
  EXPECT_EQ(MatrixRoundAndSaturateSigned(Real(-17), 5, M::RNE), P(-16, 0x14));
  EXPECT_EQ(MatrixRoundAndSaturateSigned(Frac(-33, 2), 5, M::RNE), P(-16, 0x10));  // to even
  EXPECT_EQ(MatrixRoundAndSaturateSigned(Frac(-33, 2), 5, M::RHB), P(-16, 0x10));  // toward +inf
  EXPECT_EQ(MatrixRoundAndSaturateSigned(Frac(-33, 2), 5, M::RTO), P(-16, 0x14));  // -17 clamped
  EXPECT_EQ(MatrixRoundAndSaturateSigned(Real(65535), 17, M::RNE), P(65535, 0x00));
  EXPECT_EQ(MatrixRoundAndSaturateSigned(Real(-65537), 17, M::RTZ), P(-65536, 0x14));
  EXPECT_EQ(MatrixRoundAndSaturateSigned(Frac(1, 3), 9, M::RTO), P(1, 0x10));
  EXPECT_EQ(MatrixRoundAndSaturateSigned(Real(Integer(1) << 100), 17, M::RNE), P(65535, 0x14));
  EXPECT_THROW(MatrixRoundAndSaturateSigned(Real(0), 8, M::RNE), SeedAssertionFailure);
  EXPECT_THROW(MatrixRoundAndSaturateSigned(Real(0), 0, M::RNE), SeedAssertionFailure);
}

TEST(MatrixQuantizationShift, ShiftS32ToS16Cases) {
  EXPECT_EQ(MatrixShiftS32ToS16(0x80000000, 1), (Encoded{0xffffffffffff8000, 0x14}));
  EXPECT_EQ(MatrixShiftS32ToS16(0x80000000, 16), (Encoded{0xffffffffffff8000, 0x00}));
  EXPECT_EQ(MatrixShiftS32ToS16(0x7FFFFFFF, 16), (Encoded{0x7FFF, 0x00}));
  EXPECT_EQ(MatrixShiftS32ToS16(0x7FFFFFFF, 15), (Encoded{0x7FFF, 0x14}));
  EXPECT_EQ(MatrixShiftS32ToS16(0x00010000, 1), (Encoded{0x7FFF, 0x14}));  // 32768
  EXPECT_EQ(MatrixShiftS32ToS16(0x0000FFFF, 1), (Encoded{0x7FFF, 0x00}));  // 32767, 1 lost
  EXPECT_EQ(MatrixShiftS32ToS16(0xFFFF0000, 1), (Encoded{0xffffffffffff8000, 0x00}));
  EXPECT_EQ(MatrixShiftS32ToS16(0xFFFEFFFF, 1), (Encoded{0xffffffffffff8000, 0x14}));
  EXPECT_EQ(MatrixShiftS32ToS16(0xFFFFFFFF, 16), (Encoded{0xffffffffffffffff, 0x00}));  // -1
  EXPECT_EQ(MatrixShiftS32ToS16(0x00000001, 1), (Encoded{0, 0x00}));  // bits shifted out: no NX
  EXPECT_EQ(MatrixShiftS32ToS16(0x12345678FFFFFFDF, 1), (Encoded{0xFFFFFFFFFFFFFFEF, 0x00}));
  EXPECT_THROW(MatrixShiftS32ToS16(0, 0), SeedAssertionFailure);
  EXPECT_THROW(MatrixShiftS32ToS16(0, 17), SeedAssertionFailure);
}

RC_GTEST_PROP(MatrixQuantizationProperty, ShiftIsFloorDivisionClampedToS16,
              (std::uint32_t raw, unsigned shift_seed)) {
  const int shift = static_cast<int>(shift_seed % 16) + 1;
  const Encoded e = MatrixShiftS32ToS16(raw, shift);
  const Integer exact = RoundDown(Real(Integer(static_cast<std::int32_t>(raw))) / P2(shift));
  if (exact > 32767) {
    RC_ASSERT(e == (Encoded{0x7FFF, 0x14}));
  } else if (exact < -32768) {
    RC_ASSERT(e == (Encoded{0xffffffffffff8000, 0x14}));
  } else {
    RC_ASSERT(e.status == Status{0});
    RC_ASSERT(Integer(static_cast<std::int64_t>(e.word)) == exact);
  }
}

// ---------------------------------------------------------------------------------------------
// Integer encoding and PreQuant affine (seed 000 lines 108-150)
// ---------------------------------------------------------------------------------------------

TEST(MatrixQuantizationInteger, IntegerEncodingCases) {
  EXPECT_EQ(ReferenceMatrixIntegerEncoding(Real(130), T::S8, Ctl(M::RNE, true)),
            (Encoded{0x7F, 0x14}));
  EXPECT_EQ(ReferenceMatrixIntegerEncoding(Real(-129), T::S8, Ctl(M::RNE, true)),
            (Encoded{0xffffffffffffff80, 0x14}));
  EXPECT_EQ(ReferenceMatrixIntegerEncoding(Real(-129), T::S8, Ctl(M::RNE)),
            (Encoded{0x7F, 0x14}));  // wraps
  EXPECT_EQ(ReferenceMatrixIntegerEncoding(Real(-1), T::U8, Ctl(M::RNE)), (Encoded{0xFF, 0x14}));
  EXPECT_EQ(ReferenceMatrixIntegerEncoding(Real(-1), T::U8, Ctl(M::RNE, true)),
            (Encoded{0x00, 0x14}));
  EXPECT_EQ(ReferenceMatrixIntegerEncoding(Frac(5, 2), T::S8, Ctl(M::RNE)), (Encoded{2, 0x10}));
  EXPECT_EQ(ReferenceMatrixIntegerEncoding(Frac(5, 2), T::S8, Ctl(M::RNA)), (Encoded{3, 0x10}));
  EXPECT_EQ(ReferenceMatrixIntegerEncoding(Frac(-5, 2), T::S8, Ctl(M::RHB)),
            (Encoded{0xfffffffffffffffe, 0x10}));  // -2: RHB is floor(x + 1/2) here
  EXPECT_EQ(ReferenceMatrixIntegerEncoding(Real(-128), T::S8, Ctl(M::RNE)),
            (Encoded{0xffffffffffffff80, 0x00}));
  EXPECT_EQ(ReferenceMatrixIntegerEncoding(Real(8), T::S4X2, Ctl(M::RNE)),
            (Encoded{0xfffffffffffffff8, 0x14}));
  EXPECT_EQ(ReferenceMatrixIntegerEncoding(Real(8), T::S4X2, Ctl(M::RNE, true)),
            (Encoded{0x7, 0x14}));
  EXPECT_EQ(ReferenceMatrixIntegerEncoding(Real(16), T::U4X2, Ctl(M::RNE)), (Encoded{0, 0x14}));
  EXPECT_EQ(ReferenceMatrixIntegerEncoding(Real(65535), T::U16, Ctl(M::RNE)),
            (Encoded{0xFFFF, 0x00}));
  EXPECT_EQ(ReferenceMatrixIntegerEncoding(Real(32768), T::S16, Ctl(M::RTZ)),
            (Encoded{0xffffffffffff8000, 0x14}));
  EXPECT_EQ(ReferenceMatrixIntegerEncoding(Real(Integer(1) << 63), T::S64, Ctl(M::RNE, true)),
            (Encoded{0x7fffffffffffffff, 0x14}));
  EXPECT_EQ(ReferenceMatrixIntegerEncoding(Real(Integer(1) << 64), T::U64, Ctl(M::RNE)),
            (Encoded{0, 0x14}));
  EXPECT_EQ(ReferenceMatrixIntegerEncoding(Real(-(Integer(1) << 31)), T::S32, Ctl(M::RNE)),
            (Encoded{0xffffffff80000000, 0x00}));
  EXPECT_THROW(ReferenceMatrixIntegerEncoding(Real(1), T::FP16, Ctl(M::RNE)),
               std::invalid_argument);
}

TEST(MatrixQuantizationInteger, QuantizedAffine) {
  // Width 0: value * scale + offset, encoded once.
  EXPECT_EQ(MatrixQuantizedAffine(Real(10), Frac(3, 2), Integer(3), 0, T::S8, Ctl(M::RNE)),
            (Encoded{18, 0x00}));
  EXPECT_EQ(MatrixQuantizedAffine(Real(20), Real(1), Integer(-3), 0, T::S8, Ctl(M::RNE)),
            (Encoded{17, 0x00}));
  // Width 5: 20 clamps to 15 (OF|NX) before the offset; 15 + 3 = 18 then fits S8.
  EXPECT_EQ(MatrixQuantizedAffine(Real(20), Real(1), Integer(3), 5, T::S8, Ctl(M::RNE)),
            (Encoded{18, 0x14}));
  // Width 9: 2.5 rounds to 2 (NX), 2 - 1 = 1.
  EXPECT_EQ(MatrixQuantizedAffine(Frac(5, 2), Real(1), Integer(-1), 9, T::S8, Ctl(M::RNE)),
            (Encoded{1, 0x10}));
  // Width 0 rounds after adding the offset: 2.5 - 1 = 1.5 rounds to 2 under RNE.
  EXPECT_EQ(MatrixQuantizedAffine(Frac(5, 2), Real(1), Integer(-1), 0, T::S8, Ctl(M::RNE)),
            (Encoded{2, 0x10}));
  // Width 17 then a final overflow: 65535 + 100 does not fit S16.
  EXPECT_EQ(MatrixQuantizedAffine(Real(65535), Real(1), Integer(100), 17, T::S16, Ctl(M::RNE)),
            (Encoded{99, 0x14}));  // 65635 wraps to 99
  EXPECT_EQ(
      MatrixQuantizedAffine(Real(65535), Real(1), Integer(100), 17, T::S16, Ctl(M::RNE, true)),
      (Encoded{0x7FFF, 0x14}));
  // Negative intermediate clamp, into U8 with Sat.
  EXPECT_EQ(MatrixQuantizedAffine(Real(-300), Real(1), Integer(10), 9, T::U8, Ctl(M::RTZ, true)),
            (Encoded{0, 0x14}));
  // Flags of both steps are OR-ed: intermediate NX, final OF|NX.
  EXPECT_EQ(MatrixQuantizedAffine(Frac(301, 2), Real(1), Integer(0), 9, T::S8, Ctl(M::RNE)),
            (Encoded{0xffffffffffffff96, 0x14}));  // 150 wraps to -106
  // A scale taken from an FP19 parameter, an offset from the packed parameter word.
  const Word parameter = MatrixQuantParameter(FP32ToFP19(0x3F000000), 0x1FE, 9);  // 0.5, -2
  const Integer offset = MatrixQuantOffset(parameter, 9);
  const Real scale = FP19FiniteValue(LowBits(parameter >> 13, 19));
  EXPECT_EQ(offset, Integer(-2));
  EXPECT_EQ(scale, Frac(1, 2));
  EXPECT_EQ(MatrixQuantizedAffine(Real(7), scale, offset, 9, T::S8, Ctl(M::RNE)),
            (Encoded{2, 0x10}));  // 3.5 -> 4, 4 - 2 = 2
  EXPECT_THROW(MatrixQuantizedAffine(Real(1), Real(1), Integer(0), 3, T::S8, Ctl(M::RNE)),
               SeedAssertionFailure);
}

// ---------------------------------------------------------------------------------------------
// Floating encoding: hand-derived cases of spec-notes section 5
// ---------------------------------------------------------------------------------------------

TEST(MatrixQuantizationFloating, ZeroEncodesAsPositiveZeroEverywhere) {
  for (const T type : {T::FP32, T::FP16, T::BF16, T::E4M3, T::HiF8}) {
    for (const M mode : kAllRoundingModes) {
      for (const bool sat : {false, true}) {
        EXPECT_EQ(ReferenceMatrixFloatingEncoding(Real(0), type, Ctl(mode, sat)), (Encoded{0, 0}));
      }
    }
  }
}

TEST(MatrixQuantizationFloating, E4M3OverflowBeforeRoundingInEveryMode) {
  for (const M mode : kAllRoundingModes) {
    // 449 is above the largest finite 448: overflow even under RNE/RTZ/RTM.
    EXPECT_EQ(ReferenceFP8Encoding(Real(449), T::E4M3, Ctl(mode)), (Encoded{0x7F, 0x14}));
    EXPECT_EQ(ReferenceFP8Encoding(Real(449), T::E4M3, Ctl(mode, true)), (Encoded{0x7E, 0x14}));
    EXPECT_EQ(ReferenceFP8Encoding(Real(-449), T::E4M3, Ctl(mode)), (Encoded{0x7F, 0x14}));
    EXPECT_EQ(ReferenceFP8Encoding(Real(-449), T::E4M3, Ctl(mode, true)), (Encoded{0xFE, 0x14}));
    EXPECT_EQ(ReferenceFP8Encoding(Frac(897, 2), T::E4M3, Ctl(mode)), (Encoded{0x7F, 0x14}));
    // 448 itself is exact.
    EXPECT_EQ(ReferenceFP8Encoding(Real(448), T::E4M3, Ctl(mode)), (Encoded{0x7E, 0x00}));
    EXPECT_EQ(ReferenceFP8Encoding(Real(-448), T::E4M3, Ctl(mode, true)), (Encoded{0xFE, 0x00}));
  }
  // Just below 448: RTP rounds up to 448 without overflow.
  EXPECT_EQ(ReferenceFP8Encoding(Real(447), T::E4M3, Ctl(M::RTP)), (Encoded{0x7E, 0x10}));
  EXPECT_EQ(ReferenceFP8Encoding(Real(447), T::E4M3, Ctl(M::RTZ)), (Encoded{0x7D, 0x10}));
}

TEST(MatrixQuantizationFloating, HiF8OverflowBeforeRoundingInEveryMode) {
  for (const M mode : kAllRoundingModes) {
    EXPECT_EQ(ReferenceFP8Encoding(Real(32769), T::HiF8, Ctl(mode)), (Encoded{0x6F, 0x14}));
    EXPECT_EQ(ReferenceFP8Encoding(Real(-32769), T::HiF8, Ctl(mode)), (Encoded{0xEF, 0x14}));
    EXPECT_EQ(ReferenceFP8Encoding(Real(32769), T::HiF8, Ctl(mode, true)), (Encoded{0x6E, 0x14}));
    EXPECT_EQ(ReferenceFP8Encoding(Real(-32769), T::HiF8, Ctl(mode, true)), (Encoded{0xEE, 0x14}));
    EXPECT_EQ(ReferenceFP8Encoding(Real(32768), T::HiF8, Ctl(mode)), (Encoded{0x6E, 0x00}));
    EXPECT_EQ(ReferenceFP8Encoding(Real(-32768), T::HiF8, Ctl(mode)), (Encoded{0xEE, 0x00}));
  }
}

TEST(MatrixQuantizationFloating, NegativeTinyIntoE4M3) {
  // -2^-12 is below half the smallest subnormal 2^-9.
  const Real tiny = -P2(-12);
  for (const M mode : {M::RNE, M::RTP, M::RTZ, M::RNA, M::RHB}) {
    for (const bool sat : {false, true}) {
      EXPECT_EQ(ReferenceFP8Encoding(tiny, T::E4M3, Ctl(mode, sat)), (Encoded{0x00, 0x18}))
          << RoundingModeName(mode);
    }
  }
  EXPECT_EQ(ReferenceFP8Encoding(tiny, T::E4M3, Ctl(M::RTM)), (Encoded{0x81, 0x18}));
  EXPECT_EQ(ReferenceFP8Encoding(tiny, T::E4M3, Ctl(M::RTO)), (Encoded{0x81, 0x18}));
  // Positive tiny: RTP and RTO give the smallest subnormal, the others +0.
  EXPECT_EQ(ReferenceFP8Encoding(P2(-12), T::E4M3, Ctl(M::RTP)), (Encoded{0x01, 0x18}));
  EXPECT_EQ(ReferenceFP8Encoding(P2(-12), T::E4M3, Ctl(M::RTO)), (Encoded{0x01, 0x18}));
  EXPECT_EQ(ReferenceFP8Encoding(P2(-12), T::E4M3, Ctl(M::RTM)), (Encoded{0x00, 0x18}));
  // A negative value rounding to the tie at half the smallest subnormal: RNE keeps 0x00 (even),
  // RNA takes the larger magnitude, RHB the larger value (0).
  EXPECT_EQ(ReferenceFP8Encoding(-P2(-10), T::E4M3, Ctl(M::RNE)), (Encoded{0x00, 0x18}));
  EXPECT_EQ(ReferenceFP8Encoding(-P2(-10), T::E4M3, Ctl(M::RNA)), (Encoded{0x81, 0x18}));
  EXPECT_EQ(ReferenceFP8Encoding(-P2(-10), T::E4M3, Ctl(M::RHB)), (Encoded{0x00, 0x18}));
  EXPECT_EQ(ReferenceFP8Encoding(P2(-10), T::E4M3, Ctl(M::RHB)), (Encoded{0x01, 0x18}));
}

TEST(MatrixQuantizationFloating, NegativeTinyIntoHiF8) {
  const Real tiny = -P2(-25);  // below half the smallest subnormal 2^-22
  for (const M mode : {M::RNE, M::RTP, M::RTZ, M::RNA, M::RHB}) {
    EXPECT_EQ(ReferenceFP8Encoding(tiny, T::HiF8, Ctl(mode)), (Encoded{0x00, 0x18}));
  }
  EXPECT_EQ(ReferenceFP8Encoding(tiny, T::HiF8, Ctl(M::RTM)), (Encoded{0x81, 0x18}));
  EXPECT_EQ(ReferenceFP8Encoding(tiny, T::HiF8, Ctl(M::RTO)), (Encoded{0x81, 0x18}));
}

TEST(MatrixQuantizationFloating, FP8NearestTiesAndRTO) {
  // 1.5625 is halfway between 0x3C (1.5) and 0x3D (1.625).
  const Real tie = Frac(25, 16);
  EXPECT_EQ(ReferenceFP8Encoding(tie, T::E4M3, Ctl(M::RNE)), (Encoded{0x3C, 0x10}));
  EXPECT_EQ(ReferenceFP8Encoding(tie, T::E4M3, Ctl(M::RNA)), (Encoded{0x3D, 0x10}));
  EXPECT_EQ(ReferenceFP8Encoding(tie, T::E4M3, Ctl(M::RHB)), (Encoded{0x3D, 0x10}));
  EXPECT_EQ(ReferenceFP8Encoding(tie, T::E4M3, Ctl(M::RTZ)), (Encoded{0x3C, 0x10}));
  EXPECT_EQ(ReferenceFP8Encoding(tie, T::E4M3, Ctl(M::RTO)), (Encoded{0x3D, 0x10}));
  EXPECT_EQ(ReferenceFP8Encoding(-tie, T::E4M3, Ctl(M::RNE)), (Encoded{0xBC, 0x10}));
  EXPECT_EQ(ReferenceFP8Encoding(-tie, T::E4M3, Ctl(M::RNA)), (Encoded{0xBD, 0x10}));
  EXPECT_EQ(ReferenceFP8Encoding(-tie, T::E4M3, Ctl(M::RHB)), (Encoded{0xBC, 0x10}));
  EXPECT_EQ(ReferenceFP8Encoding(-tie, T::E4M3, Ctl(M::RTP)), (Encoded{0xBC, 0x10}));
  EXPECT_EQ(ReferenceFP8Encoding(-tie, T::E4M3, Ctl(M::RTM)), (Encoded{0xBD, 0x10}));
  EXPECT_EQ(ReferenceFP8Encoding(-tie, T::E4M3, Ctl(M::RTO)), (Encoded{0xBD, 0x10}));
  // RTO with an odd truncation stays: 1.6875 truncates to 0x3D (1.625).
  EXPECT_EQ(ReferenceFP8Encoding(Frac(27, 16), T::E4M3, Ctl(M::RTO)), (Encoded{0x3D, 0x10}));
  // HiF8 RTO: 2.1 truncates to 0x10 (2.0, even), the nearest odd code above is 0x11 (2.25).
  EXPECT_EQ(ReferenceFP8Encoding(Frac(21, 10), T::HiF8, Ctl(M::RTZ)), (Encoded{0x10, 0x10}));
  EXPECT_EQ(ReferenceFP8Encoding(Frac(21, 10), T::HiF8, Ctl(M::RTO)), (Encoded{0x11, 0x10}));
  // HiF8 ties: 1.0625 is halfway between 0x08 (1.0) and 0x09 (1.125).
  EXPECT_EQ(ReferenceFP8Encoding(Frac(17, 16), T::HiF8, Ctl(M::RNE)), (Encoded{0x08, 0x10}));
  EXPECT_EQ(ReferenceFP8Encoding(Frac(17, 16), T::HiF8, Ctl(M::RNA)), (Encoded{0x09, 0x10}));
  EXPECT_EQ(ReferenceFP8Encoding(Frac(-17, 16), T::HiF8, Ctl(M::RHB)), (Encoded{0x88, 0x10}));
}

TEST(MatrixQuantizationFloating, Binary16Overflow) {
  for (const M mode : kAllRoundingModes) {
    // 2^16 overflows FP16 before rounding in every mode; 2^128 overflows BF16.
    EXPECT_EQ(ReferenceBinary16Encoding(P2(16), T::FP16, Ctl(mode)), (Encoded{0x7C00, 0x14}));
    EXPECT_EQ(ReferenceBinary16Encoding(P2(16), T::FP16, Ctl(mode, true)), (Encoded{0x7BFF, 0x14}));
    EXPECT_EQ(ReferenceBinary16Encoding(-P2(16), T::FP16, Ctl(mode)), (Encoded{0xFC00, 0x14}));
    EXPECT_EQ(ReferenceBinary16Encoding(-P2(16), T::FP16, Ctl(mode, true)),
              (Encoded{0xFBFF, 0x14}));
    EXPECT_EQ(ReferenceBinary16Encoding(Real(P2(127)) * 2, T::BF16, Ctl(mode)),
              (Encoded{0x7F80, 0x14}));
    EXPECT_EQ(ReferenceBinary16Encoding(-Real(P2(127)) * 2, T::BF16, Ctl(mode, true)),
              (Encoded{0xFF7F, 0x14}));
    EXPECT_EQ(ReferenceBinary16Encoding(Real(P2(127)) * 4, T::BF16, Ctl(mode, true)),
              (Encoded{0x7F7F, 0x14}));
  }
  // 65520 is halfway between 65504 (0x7BFF) and 2^16: overflow after rounding under RNE.
  EXPECT_EQ(ReferenceBinary16Encoding(Real(65520), T::FP16, Ctl(M::RNE)), (Encoded{0x7C00, 0x14}));
  EXPECT_EQ(ReferenceBinary16Encoding(Real(65520), T::FP16, Ctl(M::RNE, true)),
            (Encoded{0x7BFF, 0x14}));
  EXPECT_EQ(ReferenceBinary16Encoding(Real(65520), T::FP16, Ctl(M::RTZ)), (Encoded{0x7BFF, 0x10}));
  EXPECT_EQ(ReferenceBinary16Encoding(Real(-65520), T::FP16, Ctl(M::RTP)), (Encoded{0xFBFF, 0x10}));
  EXPECT_EQ(ReferenceBinary16Encoding(Real(-65520), T::FP16, Ctl(M::RTM)), (Encoded{0xFC00, 0x14}));
  EXPECT_EQ(ReferenceBinary16Encoding(Real(-65520), T::FP16, Ctl(M::RHB)),
            (Encoded{0xFBFF, 0x10}));  // negative tie: smaller magnitude
  EXPECT_EQ(ReferenceBinary16Encoding(Real(65520), T::FP16, Ctl(M::RHB)), (Encoded{0x7C00, 0x14}));
  EXPECT_EQ(ReferenceBinary16Encoding(Real(65505), T::FP16, Ctl(M::RTP)), (Encoded{0x7C00, 0x14}));
  EXPECT_EQ(ReferenceBinary16Encoding(Real(65504), T::FP16, Ctl(M::RTP)), (Encoded{0x7BFF, 0x00}));
}

TEST(MatrixQuantizationFloating, FP32SatReplacesInfinity) {
  const Real big = Real(P2(127)) * 2;
  EXPECT_EQ(ReferenceMatrixFloatingEncoding(big, T::FP32, Ctl(M::RTZ)),
            (Encoded{0x7F800000, 0x14}));
  EXPECT_EQ(ReferenceMatrixFloatingEncoding(big, T::FP32, Ctl(M::RTZ, true)),
            (Encoded{0x7F7FFFFF, 0x14}));
  EXPECT_EQ(ReferenceMatrixFloatingEncoding(-big, T::FP32, Ctl(M::RNE, true)),
            (Encoded{0xFF7FFFFF, 0x14}));
  EXPECT_EQ(ReferenceMatrixFloatingEncoding(Real(1), T::FP32, Ctl(M::RNE)),
            (Encoded{0x3F800000, 0x00}));
  EXPECT_EQ(ReferenceMatrixFloatingEncoding(-Real(1), T::FP32, Ctl(M::RNE, true)),
            (Encoded{0xBF800000, 0x00}));
}

TEST(MatrixQuantizationFloating, TinyBeforeRoundingUnderflow) {
  // Just below the smallest normal, rounding up to it: smallest-normal code with UF|NX.
  EXPECT_EQ(ReferenceBinary16Encoding(P2(-14) - P2(-26), T::FP16, Ctl(M::RNE)),
            (Encoded{0x0400, 0x18}));
  EXPECT_EQ(ReferenceBinary16Encoding(-(P2(-14) - P2(-26)), T::FP16, Ctl(M::RNE)),
            (Encoded{0x8400, 0x18}));
  EXPECT_EQ(ReferenceBinary16Encoding(P2(-126) - P2(-136), T::BF16, Ctl(M::RNE)),
            (Encoded{0x0080, 0x18}));
  EXPECT_EQ(ReferenceFP8Encoding(P2(-6) - P2(-12), T::E4M3, Ctl(M::RNE)), (Encoded{0x08, 0x18}));
  EXPECT_EQ(ReferenceFP8Encoding(P2(-15) - P2(-20), T::HiF8, Ctl(M::RNE)), (Encoded{0x7E, 0x18}));
  EXPECT_EQ(ReferenceMatrixFloatingEncoding(P2(-126) - P2(-160), T::FP32, Ctl(M::RNE)),
            (Encoded{0x00800000, 0x18}));
  // The smallest normal itself is exact.
  EXPECT_EQ(ReferenceBinary16Encoding(P2(-14), T::FP16, Ctl(M::RNE)), (Encoded{0x0400, 0x00}));
  EXPECT_EQ(ReferenceFP8Encoding(P2(-15), T::HiF8, Ctl(M::RNE)), (Encoded{0x7E, 0x00}));
  // Exact subnormals carry no flags.
  EXPECT_EQ(ReferenceBinary16Encoding(P2(-24), T::FP16, Ctl(M::RNE)), (Encoded{0x0001, 0x00}));
  EXPECT_EQ(ReferenceBinary16Encoding(-P2(-133), T::BF16, Ctl(M::RTZ)), (Encoded{0x8001, 0x00}));
  EXPECT_EQ(ReferenceFP8Encoding(P2(-9), T::E4M3, Ctl(M::RNE)), (Encoded{0x01, 0x00}));
  EXPECT_EQ(ReferenceFP8Encoding(P2(-22), T::HiF8, Ctl(M::RNE)), (Encoded{0x01, 0x00}));
  // Inexact normal results: NX only.
  EXPECT_EQ(ReferenceBinary16Encoding(P2(-14) + P2(-30), T::FP16, Ctl(M::RNE)),
            (Encoded{0x0400, 0x10}));
  EXPECT_EQ(ReferenceFP8Encoding(P2(-6) + P2(-12), T::E4M3, Ctl(M::RNE)), (Encoded{0x08, 0x10}));
  // A negative FP16/BF16 value rounding to zero keeps its sign.
  EXPECT_EQ(ReferenceBinary16Encoding(-P2(-26), T::FP16, Ctl(M::RNE)), (Encoded{0x8000, 0x18}));
  EXPECT_EQ(ReferenceBinary16Encoding(-P2(-26), T::FP16, Ctl(M::RTP)), (Encoded{0x8000, 0x18}));
  EXPECT_EQ(ReferenceBinary16Encoding(-P2(-26), T::FP16, Ctl(M::RTM)), (Encoded{0x8001, 0x18}));
  EXPECT_EQ(ReferenceBinary16Encoding(-P2(-140), T::BF16, Ctl(M::RTZ)), (Encoded{0x8000, 0x18}));
  EXPECT_EQ(ReferenceBinary16Encoding(P2(-140), T::BF16, Ctl(M::RTO)), (Encoded{0x0001, 0x18}));
  // Far below the subnormal range (the normalizing loop stops at -149).
  EXPECT_EQ(ReferenceBinary16Encoding(P2(-400), T::BF16, Ctl(M::RTP)), (Encoded{0x0001, 0x18}));
  EXPECT_EQ(ReferenceBinary16Encoding(-P2(-400), T::FP16, Ctl(M::RNE)), (Encoded{0x8000, 0x18}));
}

TEST(MatrixQuantizationFloating, Binary16RHBNegativeTieTakesSmallerMagnitude) {
  // 1 + 2^-11 is halfway between 0x3C00 and 0x3C01.
  const Real tie = Real(1) + P2(-11);
  EXPECT_EQ(ReferenceBinary16Encoding(tie, T::FP16, Ctl(M::RHB)), (Encoded{0x3C01, 0x10}));
  EXPECT_EQ(ReferenceBinary16Encoding(-tie, T::FP16, Ctl(M::RHB)), (Encoded{0xBC00, 0x10}));
  EXPECT_EQ(ReferenceBinary16Encoding(-tie, T::FP16, Ctl(M::RNA)), (Encoded{0xBC01, 0x10}));
  EXPECT_EQ(ReferenceBinary16Encoding(-tie, T::FP16, Ctl(M::RNE)), (Encoded{0xBC00, 0x10}));
  EXPECT_EQ(ReferenceBinary16Encoding(-tie, T::FP16, Ctl(M::RTO)), (Encoded{0xBC01, 0x10}));
  EXPECT_EQ(ReferenceBinary16Encoding(-tie, T::FP16, Ctl(M::RTP)), (Encoded{0xBC00, 0x10}));
  EXPECT_EQ(ReferenceBinary16Encoding(-tie, T::FP16, Ctl(M::RTM)), (Encoded{0xBC01, 0x10}));
  // Subnormal tie: 2.5 * 2^-24.
  const Real sub_tie = Frac(5, 2) * P2(-24);
  EXPECT_EQ(ReferenceBinary16Encoding(sub_tie, T::FP16, Ctl(M::RHB)), (Encoded{0x0003, 0x18}));
  EXPECT_EQ(ReferenceBinary16Encoding(-sub_tie, T::FP16, Ctl(M::RHB)), (Encoded{0x8002, 0x18}));
  // A tie that carries into the next binade: (2 - 2^-11) between 0x3FFF and 0x4000.
  const Real carry_tie = Real(2) - P2(-11);
  EXPECT_EQ(ReferenceBinary16Encoding(carry_tie, T::FP16, Ctl(M::RNE)), (Encoded{0x4000, 0x10}));
  EXPECT_EQ(ReferenceBinary16Encoding(-carry_tie, T::FP16, Ctl(M::RHB)), (Encoded{0xBFFF, 0x10}));
}

TEST(MatrixQuantizationFloating, AssertionsOnWrongTypes) {
  EXPECT_THROW(ReferenceBinary16Encoding(Real(1), T::E4M3, Ctl(M::RNE)), SeedAssertionFailure);
  EXPECT_THROW(ReferenceFP8Encoding(Real(1), T::FP16, Ctl(M::RNE)), SeedAssertionFailure);
  EXPECT_THROW(ReferenceMatrixFloatingEncoding(Real(1), T::E8M0, Ctl(M::RNE)),
               SeedAssertionFailure);
  EXPECT_THROW(ReferenceMatrixFloatingEncoding(Real(1), T::S8, Ctl(M::RNE)), SeedAssertionFailure);
  EXPECT_THROW(ReferenceBinary16FiniteValue(0x7C00, T::FP16), SeedAssertionFailure);
  EXPECT_THROW(ReferenceBinary16FiniteValue(0xFF80, T::BF16), SeedAssertionFailure);
  EXPECT_THROW(ReferenceBinary16FiniteValue(0x3C00, T::FP32), SeedAssertionFailure);
  EXPECT_THROW(ReferenceFP8FiniteValue(T::FP16, 0x3C), SeedAssertionFailure);
  EXPECT_THROW(ReferenceNearestFP8CandidateBetter(Real(0), Real(0), 256, Real(0), 0, M::RNE),
               SeedAssertionFailure);
}

TEST(MatrixQuantizationFloating, NearestCandidateBetterTieRules) {
  const Real target = Frac(25, 16);
  const Real lo = Frac(3, 2);
  const Real hi = Frac(13, 8);
  EXPECT_TRUE(ReferenceNearestFP8CandidateBetter(target, lo, 0x3C, hi, 0x3D, M::RNE));
  EXPECT_FALSE(ReferenceNearestFP8CandidateBetter(target, hi, 0x3D, lo, 0x3C, M::RNE));
  EXPECT_TRUE(ReferenceNearestFP8CandidateBetter(target, hi, 0x3D, lo, 0x3C, M::RNA));
  EXPECT_TRUE(ReferenceNearestFP8CandidateBetter(target, hi, 0x3D, lo, 0x3C, M::RTO));
  EXPECT_TRUE(ReferenceNearestFP8CandidateBetter(target, hi, 0x3D, lo, 0x3C, M::RHB));
  EXPECT_FALSE(ReferenceNearestFP8CandidateBetter(target, lo, 0x3C, hi, 0x3D, M::RHB));
  EXPECT_TRUE(ReferenceNearestFP8CandidateBetter(Frac(3, 2), lo, 0x3C, hi, 0x3D, M::RHB));
  // Negative tie under RNA: the larger magnitude (the more negative value).
  EXPECT_TRUE(ReferenceNearestFP8CandidateBetter(-target, -hi, 0xBD, -lo, 0xBC, M::RNA));
  EXPECT_FALSE(ReferenceNearestFP8CandidateBetter(-target, -hi, 0xBD, -lo, 0xBC, M::RHB));
}

// ---------------------------------------------------------------------------------------------
// Decoders agree with the format table
// ---------------------------------------------------------------------------------------------

TEST(MatrixQuantizationDecode, FP8FiniteValueAgreesWithFormatTable) {
  for (const T type : {T::E4M3, T::HiF8}) {
    int finite = 0;
    for (Word code = 0; code < 256; ++code) {
      const NumericValueClass c = TileNumericValueClass(type, code);
      if (NumericValueClassIsNaN(c) || NumericValueClassIsInfinity(c)) continue;
      ++finite;
      EXPECT_EQ(ReferenceFP8FiniteValue(type, code), TileNumericFiniteValue(type, code))
          << Format(type).name << " code " << std::hex << code;
    }
    EXPECT_EQ(finite, type == T::E4M3 ? 254 : 253);
  }
  // The non-finite codes are exactly the documented ones.
  EXPECT_TRUE(NumericValueClassIsNaN(TileNumericValueClass(T::E4M3, 0x7F)));
  EXPECT_TRUE(NumericValueClassIsNaN(TileNumericValueClass(T::E4M3, 0xFF)));
  EXPECT_TRUE(NumericValueClassIsNaN(TileNumericValueClass(T::HiF8, 0x80)));
  EXPECT_EQ(TileNumericValueClass(T::HiF8, 0x6F), NumericValueClass::PositiveInfinity);
  EXPECT_EQ(TileNumericValueClass(T::HiF8, 0xEF), NumericValueClass::NegativeInfinity);
  // What the seed's decoder says for those codes (callers skip them by class).
  EXPECT_EQ(ReferenceFP8FiniteValue(T::E4M3, 0x7F), Real(480));
  EXPECT_EQ(ReferenceFP8FiniteValue(T::E4M3, 0xFF), Real(-480));
  EXPECT_EQ(ReferenceFP8FiniteValue(T::HiF8, 0x80), Real(0));
  EXPECT_EQ(ReferenceFP8FiniteValue(T::HiF8, 0x6F), Real(49152));
  EXPECT_EQ(ReferenceFP8FiniteValue(T::HiF8, 0xEF), Real(-49152));
  // Landmarks of spec-notes section 4.
  EXPECT_EQ(ReferenceFP8FiniteValue(T::E4M3, 0x7E), Real(448));
  EXPECT_EQ(ReferenceFP8FiniteValue(T::E4M3, 0x01), P2(-9));
  EXPECT_EQ(ReferenceFP8FiniteValue(T::E4M3, 0x08), P2(-6));
  EXPECT_EQ(ReferenceFP8FiniteValue(T::HiF8, 0x6E), Real(32768));
  EXPECT_EQ(ReferenceFP8FiniteValue(T::HiF8, 0x7E), P2(-15));
  EXPECT_EQ(ReferenceFP8FiniteValue(T::HiF8, 0x01), P2(-22));
  EXPECT_EQ(ReferenceFP8FiniteValue(T::HiF8, 0x07), P2(-16));
  EXPECT_EQ(ReferenceFP8FiniteValue(T::HiF8, 0x08), Real(1));
  EXPECT_EQ(ReferenceFP8FiniteValue(T::HiF8, 0x18), Frac(1, 2));
  EXPECT_EQ(ReferenceFP8FiniteValue(T::HiF8, 0x8C), Frac(-3, 2));
  EXPECT_EQ(ReferenceFP8FiniteValue(T::HiF8, 0xFFFFFFFFFFFFFF0C), Frac(3, 2));  // bits 7:0 only
}

TEST(MatrixQuantizationDecode, Binary16FiniteValueAgreesWithFormatTable) {
  for (const T type : {T::FP16, T::BF16}) {
    int finite = 0;
    for (Word code = 0; code < 0x10000; ++code) {
      const NumericValueClass c = TileNumericValueClass(type, code);
      if (NumericValueClassIsNaN(c) || NumericValueClassIsInfinity(c)) {
        EXPECT_THROW(ReferenceBinary16FiniteValue(code, type), SeedAssertionFailure);
        continue;
      }
      ++finite;
      ASSERT_EQ(ReferenceBinary16FiniteValue(code, type), TileNumericFiniteValue(type, code))
          << Format(type).name << " code " << std::hex << code;
    }
    EXPECT_EQ(finite, type == T::FP16 ? 0x10000 - 2 * 1024 : 0x10000 - 2 * 128);
  }
  EXPECT_EQ(ReferenceBinary16FiniteValue(0x7BFF, T::FP16), Real(65504));
  EXPECT_EQ(ReferenceBinary16FiniteValue(0x0001, T::FP16), P2(-24));
  EXPECT_EQ(ReferenceBinary16FiniteValue(0x0001, T::BF16), P2(-133));
  EXPECT_EQ(ReferenceBinary16FiniteValue(0x8000, T::BF16), Real(0));
  EXPECT_EQ(ReferenceBinary16FiniteValue(0xFFFFFFFFFFFF3C00, T::FP16), Real(1));  // bits 15:0
}

// ---------------------------------------------------------------------------------------------
// Identity: every finite code's value encodes to itself, exactly, in all 7 modes x 2 Sat
// ---------------------------------------------------------------------------------------------

TEST(MatrixQuantizationIdentity, FP8EveryFiniteCodeEveryModeAndSat) {
  for (const T type : {T::E4M3, T::HiF8}) {
    for (const Word code : FiniteCodes(type)) {
      const Real value = ReferenceFP8FiniteValue(type, code);
      const Encoded expected{ExpectedIdentityCode(type, code), 0};
      for (const M mode : kAllRoundingModes) {
        for (const bool sat : {false, true}) {
          ASSERT_EQ(ReferenceMatrixFloatingEncoding(value, type, Ctl(mode, sat)), expected)
              << Format(type).name << " code " << std::hex << code << " " << RoundingModeName(mode)
              << " sat " << sat;
        }
      }
    }
  }
}

// FP16/BF16 identity. Measured (Release, this machine): the exhaustive loop over every finite FP16
// and BF16 code x 7 modes x 2 Sat (about 1.8 million literal encodings, each running the seed's
// 128 + 149 step normalizing loops on exact rationals) takes about 160 s of CPU, well over the
// 60 s budget. So the default suite covers it with (a) every boundary code below, exhaustively
// over modes and Sat, and (b) a RapidCheck property over random codes. The exhaustive loop is
// kept as a DISABLED_ test (run it with --gtest_also_run_disabled_tests); it passed when written.

void ExpectBinary16Identity(T type, Word code) {
  const Real value = ReferenceBinary16FiniteValue(code, type);
  const Encoded expected{ExpectedIdentityCode(type, code), 0};
  for (const M mode : kAllRoundingModes) {
    for (const bool sat : {false, true}) {
      ASSERT_EQ(ReferenceMatrixFloatingEncoding(value, type, Ctl(mode, sat)), expected)
          << Format(type).name << " code " << std::hex << code << " " << RoundingModeName(mode)
          << " sat " << sat;
    }
  }
}

// Boundary codes of FP16/BF16: for both signs and every finite exponent field (0 = zero and
// subnormals), the fractions 0, 1, 2, half, all-ones - 1 and all-ones: zeros, the smallest and
// largest subnormals, the smallest normal, every power of two, every binade's last code and the
// largest finite.
std::vector<Word> Binary16BoundaryCodes(T type) {
  const unsigned fraction_bits = type == T::BF16 ? 7 : 10;
  const Word fraction_max = (Word{1} << fraction_bits) - 1;
  const Word exponent_max = type == T::BF16 ? 255 : 31;
  std::vector<Word> codes;
  for (const Word sign : {Word{0}, Word{0x8000}}) {
    for (Word exponent = 0; exponent < exponent_max; ++exponent) {
      for (const Word fraction :
           {Word{0}, Word{1}, Word{2}, (fraction_max + 1) / 2, fraction_max - 1, fraction_max}) {
        codes.push_back(sign | (exponent << fraction_bits) | fraction);
      }
    }
  }
  return codes;
}

TEST(MatrixQuantizationIdentity, Binary16BoundaryCodesEveryModeAndSat) {
  for (const T type : {T::FP16, T::BF16}) {
    for (const Word code : Binary16BoundaryCodes(type)) {
      ExpectBinary16Identity(type, code);
      if (HasFatalFailure()) return;
    }
  }
}

RC_GTEST_PROP(MatrixQuantizationProperty, Binary16RandomFiniteCodeEncodesToItself,
              (std::uint16_t raw, bool bf16)) {
  const T type = bf16 ? T::BF16 : T::FP16;
  const Word code = raw;
  const NumericValueClass c = TileNumericValueClass(type, code);
  RC_PRE(!NumericValueClassIsNaN(c) && !NumericValueClassIsInfinity(c));
  const Real value = ReferenceBinary16FiniteValue(code, type);
  const Encoded expected{ExpectedIdentityCode(type, code), 0};
  for (const M mode : kAllRoundingModes) {
    for (const bool sat : {false, true}) {
      RC_ASSERT(ReferenceMatrixFloatingEncoding(value, type, Ctl(mode, sat)) == expected);
    }
  }
}

TEST(MatrixQuantizationIdentity, DISABLED_Binary16EveryFiniteCodeEveryModeAndSat) {
  // Exhaustive: every finite FP16 and BF16 code, 7 modes x 2 Sat (about 160 s of CPU).
  for (const T type : {T::FP16, T::BF16}) {
    for (const Word code : FiniteCodes(type)) {
      ExpectBinary16Identity(type, code);
      if (HasFatalFailure()) return;
    }
  }
}

// ---------------------------------------------------------------------------------------------
// Properties over exact reals built from random FP32 words
// ---------------------------------------------------------------------------------------------

// A finite FP32 word, focused on the exponents where FP16/BF16/E4M3/HiF8 live (and their
// overflow and underflow edges) half of the time, with few fraction bits a quarter of the time
// (to reach ties exactly).
rc::Gen<std::uint32_t> FiniteFP32Words() {
  const auto any = rc::gen::suchThat(rc::gen::arbitrary<std::uint32_t>(),
                                     [](std::uint32_t w) { return ((w >> 23) & 0xFF) != 0xFF; });
  const auto focused = rc::gen::apply(
      [](bool negative, std::uint32_t exponent, std::uint32_t fraction, unsigned keep) {
        const std::uint32_t mask = ~((std::uint32_t{1} << (23 - keep % 24)) - 1) & 0x7FFFFF;
        const std::uint32_t kept = keep % 2 == 0 ? fraction & 0x7FFFFF : fraction & mask;
        return (negative ? 0x80000000u : 0u) | (exponent << 23) | kept;
      },
      rc::gen::arbitrary<bool>(), rc::gen::inRange<std::uint32_t>(96, 160),
      rc::gen::arbitrary<std::uint32_t>(), rc::gen::inRange<unsigned>(0, 24));
  return rc::gen::weightedOneOf<std::uint32_t>({{1, any}, {3, focused}});
}

// Value of an encoder result or nullopt (Inf/NaN result).
struct Outcome {
  Encoded encoded;
  std::optional<Real> value;
};

Outcome EncodeSmall(const Real& x, T type, M mode, bool sat) {
  const Encoded e = ReferenceMatrixFloatingEncoding(x, type, Ctl(mode, sat));
  return {e, DecodeSmall(type, e.word)};
}

bool HasOF(const Encoded& e) { return (e.status & kStatusOF) != 0; }

Real Abs(const Real& x) { return x < 0 ? Real(-x) : x; }

RC_GTEST_PROP(MatrixQuantizationProperty, DirectedModesBracketTheValue, ()) {
  const std::uint32_t w = *FiniteFP32Words();
  const Real x = ReferenceFP32FiniteValue(w);
  for (const T type : kSmallFloatTypes) {
    const Outcome down = EncodeSmall(x, type, M::RTM, false);
    const Outcome up = EncodeSmall(x, type, M::RTP, false);
    if (!HasOF(down.encoded)) {
      RC_ASSERT(down.value.has_value());
      RC_ASSERT(*down.value <= x);
    }
    if (!HasOF(up.encoded)) {
      RC_ASSERT(up.value.has_value());
      RC_ASSERT(x <= *up.value);
    }
  }
}

RC_GTEST_PROP(MatrixQuantizationProperty, RTZNeverIncreasesMagnitudeWithoutOverflow, ()) {
  // With OF set (|x| beyond the format) the seed returns Inf or the largest finite, so the claim
  // is about results without OF.
  const std::uint32_t w = *FiniteFP32Words();
  const Real x = ReferenceFP32FiniteValue(w);
  for (const T type : kSmallFloatTypes) {
    for (const bool sat : {false, true}) {
      const Outcome o = EncodeSmall(x, type, M::RTZ, sat);
      if (HasOF(o.encoded)) continue;
      RC_ASSERT(o.value.has_value());
      RC_ASSERT(Abs(*o.value) <= Abs(x));
      // Truncation never flips the sign of a non-zero result.
      RC_ASSERT(*o.value == 0 || ((*o.value < 0) == (x < 0)));
    }
  }
}

RC_GTEST_PROP(MatrixQuantizationProperty, SatChangesOnlyOverflowedResults, ()) {
  const std::uint32_t w = *FiniteFP32Words();
  const Real x = ReferenceFP32FiniteValue(w);
  for (const T type : {T::FP32, T::FP16, T::BF16, T::E4M3, T::HiF8}) {
    for (const M mode : kAllRoundingModes) {
      const Encoded plain = ReferenceMatrixFloatingEncoding(x, type, Ctl(mode, false));
      const Encoded sat = ReferenceMatrixFloatingEncoding(x, type, Ctl(mode, true));
      RC_ASSERT(plain.status == sat.status);
      if (!HasOF(plain)) RC_ASSERT(plain.word == sat.word);
      if (HasOF(plain)) {
        RC_ASSERT(plain.status == Status{0x14});
        // Sat gives a finite code, non-Sat an Inf (or E4M3's NaN 0x7F).
        const NumericValueClass sat_class = TileNumericValueClass(type, sat.word);
        RC_ASSERT(!NumericValueClassIsNaN(sat_class) && !NumericValueClassIsInfinity(sat_class));
        const NumericValueClass plain_class = TileNumericValueClass(type, plain.word);
        RC_ASSERT(NumericValueClassIsNaN(plain_class) || NumericValueClassIsInfinity(plain_class));
      }
    }
  }
}

RC_GTEST_PROP(MatrixQuantizationProperty, InexactExactlyWhenValueChanges, ()) {
  const std::uint32_t w = *FiniteFP32Words();
  const Real x = ReferenceFP32FiniteValue(w);
  for (const T type : kSmallFloatTypes) {
    for (const M mode : kAllRoundingModes) {
      for (const bool sat : {false, true}) {
        const Outcome o = EncodeSmall(x, type, mode, sat);
        const bool nx = (o.encoded.status & kStatusNX) != 0;
        const bool changed = !o.value.has_value() || *o.value != x;
        RC_ASSERT(nx == changed);
        // The only statuses the seed produces here.
        RC_ASSERT(o.encoded.status == 0 || o.encoded.status == 0x10 || o.encoded.status == 0x14 ||
                  o.encoded.status == 0x18);
        // No -0 result from a value that is not negative.
        if (x >= 0) RC_ASSERT(o.encoded.word < (IsFP8(type) ? Word{0x80} : Word{0x8000}));
      }
    }
  }
}

RC_GTEST_PROP(MatrixQuantizationProperty, NearestModesPickANearestCandidate, ()) {
  // RNE/RNA/RHB results (no overflow) are at least as near to x as the RTM and RTP results.
  const std::uint32_t w = *FiniteFP32Words();
  const Real x = ReferenceFP32FiniteValue(w);
  for (const T type : kSmallFloatTypes) {
    const Outcome down = EncodeSmall(x, type, M::RTM, true);
    const Outcome up = EncodeSmall(x, type, M::RTP, true);
    if (HasOF(down.encoded) || HasOF(up.encoded)) continue;
    const Real best = std::min(Abs(*down.value - x), Abs(*up.value - x));
    for (const M mode : {M::RNE, M::RNA, M::RHB}) {
      const Outcome o = EncodeSmall(x, type, mode, true);
      if (HasOF(o.encoded)) continue;
      RC_ASSERT(Abs(*o.value - x) == best);
    }
  }
}

}  // namespace
}  // namespace matrix_quantization_test
}  // namespace ptovec::oracle
