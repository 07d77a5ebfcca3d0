// The Dyadic helpers of fast.hpp, the candidate values the fast FP8 encoder is built from, the
// known answers of spec-notes section 6 through the fast paths, and the seeds' domain errors.
#include <gtest/gtest.h>

#include <limits>
#include <stdexcept>

#include "ptovec/oracle/fast.hpp"
#include "ptovec/oracle/matrix_quantization.hpp"
#include "ptovec/oracle/reference_quantization.hpp"
#include "test_support.hpp"

namespace ptovec::oracle {

namespace fast_basics_test {
namespace {

using T = TileDataType;
using M = NumericRoundingMode;
using U128 = DyadicSignificand;

Dyadic D(bool negative, U128 significand, int exponent) {
  return {negative, significand, exponent};
}

Dyadic FromReal(const Real& r) {
  const auto d = DyadicFromReal(r);
  EXPECT_TRUE(d.has_value());
  return d.value_or(Dyadic{});
}

Real Frac(std::int64_t num, std::int64_t den) { return Real(Integer(num), Integer(den)); }

// ---------------------------------------------------------------------------------------------
// Dyadic helpers
// ---------------------------------------------------------------------------------------------

TEST(FastDyadic, ToRealOfSimpleValues) {
  EXPECT_EQ(ToReal(D(false, 0, 5)), Real(0));
  EXPECT_EQ(ToReal(D(true, 0, -5)), Real(0));
  EXPECT_EQ(ToReal(D(false, 3, -1)), Frac(3, 2));
  EXPECT_EQ(ToReal(D(true, 5, 3)), Real(-40));
  EXPECT_EQ(ToReal(D(false, U128{1} << 127, -127)), Real(1));
  EXPECT_EQ(ToReal(D(false, ~U128{0}, 0)), Real((Integer(1) << 128) - 1));
  EXPECT_EQ(ToReal(D(false, 1, -300)), PowerOfTwo(-300));
}

TEST(FastDyadic, LeadingExponentAndMagnitudeComparison) {
  EXPECT_EQ(DyadicLeadingExponent({false, 1, 0}), 0);
  EXPECT_EQ(DyadicLeadingExponent({false, 3, -24}), -23);  // FP16 0x0003: 3 * 2^-24
  EXPECT_EQ(DyadicLeadingExponent({true, DyadicSignificand{1} << 100, -3}), 97);
  // 1.5 = 3 * 2^-1 against 1.5 = 6 * 2^-2 (equal), 1.25, -2 and the zeros.
  EXPECT_EQ(DyadicCompareMagnitude({false, 3, -1}, {true, 6, -2}), 0);
  EXPECT_EQ(DyadicCompareMagnitude({false, 5, -2}, {false, 3, -1}), -1);
  EXPECT_EQ(DyadicCompareMagnitude({true, 1, 1}, {false, 3, -1}), 1);
  EXPECT_EQ(DyadicCompareMagnitude({true, 0, 7}, {false, 0, -3}), 0);
  EXPECT_EQ(DyadicCompareMagnitude({false, 0, 0}, {false, 1, -149}), -1);
  // Same leading exponent, far apart exponents: 2^100 + 1 against 2^100.
  EXPECT_EQ(DyadicCompareMagnitude({false, (DyadicSignificand{1} << 100) + 1, 0}, {false, 1, 100}),
            1);
}

TEST(FastDyadic, FromIntegerCoversTheInt64Range) {
  for (const std::int64_t v :
       {std::int64_t{0}, std::int64_t{1}, std::int64_t{-1}, std::int64_t{130}, std::int64_t{-65536},
        std::numeric_limits<std::int64_t>::max(), std::numeric_limits<std::int64_t>::min()}) {
    EXPECT_EQ(ToReal(DyadicFromInteger(v)), Real(Integer(v))) << v;
  }
}

TEST(FastDyadic, FromFiniteCodeEqualsTheFormatTableOnEvery8And16BitCode) {
  for (const T type : {T::FP16, T::BF16, T::E4M3, T::HiF8, T::E8M0}) {
    const Word end = Word{1} << Format(type).width;
    for (Word code = 0; code < end; ++code) {
      if (!TileNumericFiniteDecomposition(type, code).available) {
        EXPECT_THROW(DyadicFromFiniteCode(type, code), std::domain_error);
        continue;
      }
      ASSERT_EQ(ToReal(DyadicFromFiniteCode(type, code)), TileNumericFiniteValue(type, code))
          << Format(type).name << " " << code;
    }
  }
  EXPECT_THROW(DyadicFromFiniteCode(T::S8, 1), std::domain_error);
}

// The fast FP8 encoder's candidate table is built from TileNumericFiniteDecomposition; the seed
// scans ReferenceFP8FiniteValue. They agree on every candidate code (NaN/Inf skipped by both).
TEST(FastDyadic, FP8CandidatesEqualTheSeedsDecoder) {
  for (const T type : {T::E4M3, T::HiF8}) {
    for (Word code = 0; code < 256; ++code) {
      const NumericValueClass c = TileNumericValueClass(type, code);
      if (NumericValueClassIsNaN(c) || NumericValueClassIsInfinity(c)) continue;
      ASSERT_EQ(ToReal(DyadicFromFiniteCode(type, code)), ReferenceFP8FiniteValue(type, code))
          << Format(type).name << " " << code;
    }
  }
}

TEST(FastDyadic, Binary16AndFP32CodesEqualTheSeedsDecoders) {
  for (const T type : {T::FP16, T::BF16}) {
    for (Word code = 0; code < 0x10000; ++code) {
      if (!TileNumericFiniteDecomposition(type, code).available) continue;
      ASSERT_EQ(ToReal(DyadicFromFiniteCode(type, code)), ReferenceBinary16FiniteValue(code, type))
          << Format(type).name << " " << code;
    }
  }
  for (Word hi = 0; hi < 0x10000; hi += 0x7) {  // FP32: a spread of exponents and fractions
    for (const Word low : {Word{0}, Word{1}, Word{0x5555}, Word{0xFFFF}}) {
      const Word code = (hi << 16) | low;
      if (((code >> 23) & 0xFF) == 0xFF) continue;
      ASSERT_EQ(ToReal(DyadicFromFiniteCode(T::FP32, code)), ReferenceFP32FiniteValue(code))
          << code;
    }
  }
}

TEST(FastDyadic, FromRealRoundTripsAndRejectsNonDyadics) {
  for (const Dyadic d : {D(false, 3, -1), D(true, 5, 3), D(false, ~U128{0}, -200),
                         D(true, U128{1} << 100, 40), D(false, 1, -1074)}) {
    const auto back = DyadicFromReal(ToReal(d));
    ASSERT_TRUE(back.has_value());
    EXPECT_EQ(ToReal(*back), ToReal(d));
  }
  EXPECT_EQ(ToReal(FromReal(Real(0))), Real(0));
  EXPECT_FALSE(DyadicFromReal(Frac(1, 3)).has_value());
  EXPECT_EQ(ToReal(FromReal(Real(Integer(1) << 300))), PowerOfTwo(300));
  EXPECT_FALSE(DyadicFromReal(Real((Integer(1) << 128) + 1)).has_value());
}

TEST(FastDyadic, ProductIsExactAndRefusesMoreThan128Bits) {
  const Dyadic a = D(true, (U128{1} << 64) - 1, -10);
  const Dyadic b = D(false, (U128{1} << 64) - 3, 7);
  EXPECT_EQ(ToReal(DyadicProduct(a, b)), ToReal(a) * ToReal(b));
  // Trailing zeros do not count.
  const Dyadic c = D(false, U128{3} << 100, 0);
  EXPECT_EQ(ToReal(DyadicProduct(c, c)), ToReal(c) * ToReal(c));
  EXPECT_EQ(ToReal(DyadicProduct(D(false, 0, 9), a)), Real(0));
  const Dyadic wide = D(false, (U128{1} << 100) + 1, 0);
  EXPECT_THROW(DyadicProduct(wide, wide), std::overflow_error);
}

TEST(FastDyadic, MagnitudeMidpointIsExactAndTakesNoSign) {
  // FP16's overflow threshold 65520 and 65536: 65528.
  EXPECT_EQ(ToReal(DyadicMagnitudeMidpoint(D(false, 4095, 4), D(false, 1, 16))), Real(65528));
  // Signs are dropped: (|-3 * 2^-3| + |5 * 2^-1|) / 2 = 23/16.
  EXPECT_EQ(ToReal(DyadicMagnitudeMidpoint(D(true, 3, -3), D(false, 5, -1))), Frac(23, 16));
  // Half of one value when the other is 0; the result is normalized.
  const Dyadic half = DyadicMagnitudeMidpoint(D(false, 12, -20), D(false, 0, 0));
  EXPECT_EQ(ToReal(half), Real(3) * PowerOfTwo(-19));
  EXPECT_EQ(half.significand, U128{3});
  EXPECT_EQ(half.exponent, -19);
  EXPECT_EQ(ToReal(DyadicMagnitudeMidpoint(D(false, 0, 3), D(true, 0, -3))), Real(0));
  EXPECT_THROW(DyadicMagnitudeMidpoint(D(false, 1, 200), D(false, 1, 0)), std::overflow_error);
}

// ---------------------------------------------------------------------------------------------
// Known answers (spec-notes section 6) through the fast paths.
// ---------------------------------------------------------------------------------------------

TEST(FastKnownAnswers, SpecNotesSection6) {
  const NumericExecutionControl rne{M::RNE, false};
  const Encoded s8 = FastMatrixIntegerEncoding(FromReal(Real(130)), T::S8, rne);
  EXPECT_EQ(LowBits(s8.word, 8), Word{0x82});
  EXPECT_EQ(s8.word, Word{0xFFFFFFFFFFFFFF82});
  EXPECT_EQ(s8.status, 0x14);
  EXPECT_EQ(FastMatrixFloatingEncoding(FromReal(Frac(3, 2)), T::FP16, rne), (Encoded{0x3E00, 0}));
  EXPECT_EQ(FastMatrixFloatingEncoding(FromReal(Frac(3, 2)), T::E4M3, rne), (Encoded{0x3C, 0}));
  EXPECT_EQ(FastMatrixFloatingEncoding(FromReal(Frac(3, 2)), T::HiF8, rne), (Encoded{0x0C, 0}));
  EXPECT_EQ(FastMatrixFloatingEncoding(FromReal(-Frac(257, 256)), T::BF16, {M::RHB, false}),
            (Encoded{0xBF80, 0x10}));
  EXPECT_EQ(FastFP32FiniteEncoding(FromReal(Real(1)), M::RNE), (Encoded{0x3F800000, 0}));

  using Pair = std::pair<std::int64_t, Status>;
  EXPECT_EQ(FastMatrixRoundAndSaturateSigned(FromReal(Frac(31, 2)), 5, M::RNE), Pair(15, 0x14));
  EXPECT_EQ(FastMatrixRoundAndSaturateSigned(FromReal(-Frac(33, 2)), 5, M::RNA), Pair(-16, 0x14));
  EXPECT_EQ(FastMatrixRoundAndSaturateSigned(FromReal(Frac(1023, 4)), 9, M::RNE), Pair(255, 0x14));
  EXPECT_EQ(FastMatrixRoundAndSaturateSigned(FromReal(-Frac(1027, 4)), 9, M::RNE),
            Pair(-256, 0x14));
  // 65535.4 is not dyadic; 65535.375 rounds the same way under RTZ.
  EXPECT_EQ(FastMatrixRoundAndSaturateSigned(FromReal(Frac(524283, 8)), 17, M::RTZ),
            Pair(65535, 0x10));
  const M modes[] = {M::RNE, M::RNA, M::RTP, M::RTM, M::RTZ};
  const std::int64_t plus_half[] = {0, 1, 1, 0, 0};
  const std::int64_t minus_half[] = {0, -1, 0, -1, 0};
  for (int i = 0; i < 5; ++i) {
    EXPECT_EQ(FastMatrixRoundAndSaturateSigned(FromReal(Frac(1, 2)), 9, modes[i]).first,
              plus_half[i]);
    EXPECT_EQ(FastMatrixRoundAndSaturateSigned(FromReal(-Frac(1, 2)), 9, modes[i]).first,
              minus_half[i]);
  }
}

// Hand-derived behaviour of spec-notes section 5 through the fast paths.
TEST(FastKnownAnswers, SpecNotesSection5) {
  const NumericExecutionControl rne{M::RNE, false};
  // 0: a value has no sign of zero.
  EXPECT_EQ(FastMatrixFloatingEncoding(D(true, 0, 0), T::FP16, rne), (Encoded{0, 0}));
  // Negative values rounding to zero keep their sign in FP32/FP16/BF16 with UF|NX.
  EXPECT_EQ(FastFP32FiniteEncoding(D(true, 1, -151), M::RNE), (Encoded{0x80000000, 0x18}));
  EXPECT_EQ(FastBinary16Encoding(D(true, 1, -26), T::FP16, rne), (Encoded{0x8000, 0x18}));
  // 1: 2^128 and carries past the largest finite give Inf in every mode, RTZ included.
  EXPECT_EQ(FastFP32FiniteEncoding(D(false, 1, 128), M::RTZ), (Encoded{0x7F800000, 0x14}));
  EXPECT_EQ(FastFP32FiniteEncoding(D(true, (U128{1} << 25) - 1, 103), M::RNE),
            (Encoded{0xFF800000, 0x14}));
  EXPECT_EQ(FastMatrixFloatingEncoding(D(true, 1, 128), T::FP32, {M::RTZ, true}),
            (Encoded{0xFF7FFFFF, 0x14}));
  // 2: tiny before rounding: rounding up to the smallest normal is still UF|NX.
  EXPECT_EQ(FastFP32FiniteEncoding(D(false, (U128{1} << 24) - 1, -150), M::RNE),
            (Encoded{0x00800000, 0x18}));
  // 3: FP16 rounds the magnitude: RTP on a negative value truncates the magnitude.
  EXPECT_EQ(FastBinary16Encoding(D(true, 2049, -11), T::FP16, {M::RTP, false}),
            (Encoded{0xBC00, 0x10}));
  EXPECT_EQ(FastBinary16Encoding(D(false, 1, 16), T::FP16, {M::RTZ, true}),
            (Encoded{0x7BFF, 0x14}));
  // 4: E4M3/HiF8: 449 overflows under RNE; a zero result is 0x00 for a negative input; RTO.
  EXPECT_EQ(FastFP8Encoding(D(false, 449, 0), T::E4M3, rne), (Encoded{0x7F, 0x14}));
  EXPECT_EQ(FastFP8Encoding(D(true, 449, 0), T::E4M3, rne), (Encoded{0x7F, 0x14}));
  EXPECT_EQ(FastFP8Encoding(D(true, 449, 0), T::E4M3, {M::RNE, true}), (Encoded{0xFE, 0x14}));
  EXPECT_EQ(FastFP8Encoding(D(true, 1, 16), T::HiF8, rne), (Encoded{0xEF, 0x14}));
  EXPECT_EQ(FastFP8Encoding(D(true, 1, -12), T::E4M3, rne), (Encoded{0x00, 0x18}));
  EXPECT_EQ(FastFP8Encoding(D(true, 1, -12), T::E4M3, {M::RTO, false}), (Encoded{0x81, 0x18}));
  // 6: TQUANT: NaN gives 0 with NV; -Inf the minimum with OF|NX whatever Sat says.
  EXPECT_EQ(FastTileProfileQuantize(0x7FC00000, 0x3F800000, 0, T::FP32, T::S8, rne),
            (Encoded{0, 0x01}));
  EXPECT_EQ(FastTileProfileQuantize(0xFF800000, 0x3F800000, 0, T::FP32, T::S8, rne),
            (Encoded{0xFFFFFFFFFFFFFF80, 0x14}));
  // Non-Sat wraps: 200 to S8 is -56, NX clear.
  EXPECT_EQ(FastTileProfileQuantize(0x43480000, 0x3F800000, 0, T::FP32, T::S8, rne),
            (Encoded{0xFFFFFFFFFFFFFFC8, 0}));
  EXPECT_EQ(FastTileProfileQuantize(0x43480000, 0x3F800000, 0, T::FP32, T::S8, {M::RNE, true}),
            (Encoded{0x7F, 0}));
  // 7: TDEQUANT: (3 - 1) * 0.5 = 1.
  EXPECT_EQ(FastTileProfileDequantize(3, 0x3F000000, 1, T::S8, T::FP32, rne),
            (Encoded{0x3F800000, 0}));
}

// ---------------------------------------------------------------------------------------------
// Domain errors: the same exception type as the literal function.
// ---------------------------------------------------------------------------------------------

TEST(FastDomain, SeedAssertionsAreReproduced) {
  const NumericExecutionControl rne{M::RNE, false};
  const Dyadic one = D(false, 1, 0);
  for (const Word bad_scale :
       {Word{0x7FC00000}, Word{0x7F800000}, Word{0xFF800000}, Word{0}, Word{0x80000000}}) {
    EXPECT_THROW(FastTileProfileQuantize(0x3F800000, bad_scale, 0, T::FP32, T::S8, rne),
                 SeedAssertionFailure);
    EXPECT_THROW(TileProfileQuantize(0x3F800000, bad_scale, 0, T::FP32, T::S8, rne),
                 SeedAssertionFailure);
    EXPECT_THROW(FastTileProfileDequantize(1, bad_scale, 0, T::S8, T::FP32, rne),
                 SeedAssertionFailure);
    EXPECT_THROW(TileProfileDequantize(1, bad_scale, 0, T::S8, T::FP32, rne), SeedAssertionFailure);
  }
  EXPECT_THROW(FastTileProfileQuantize(0, 0x3F800000, 0, T::FP16, T::S8, rne),
               SeedAssertionFailure);
  EXPECT_THROW(FastTileProfileQuantize(0, 0x3F800000, 0, T::FP32, T::S16, rne),
               SeedAssertionFailure);
  EXPECT_THROW(FastTileProfileDequantize(0, 0x3F800000, 0, T::S16, T::FP32, rne),
               SeedAssertionFailure);
  EXPECT_THROW(FastTileProfileDequantize(0, 0x3F800000, 0, T::S8, T::FP16, rne),
               SeedAssertionFailure);
  EXPECT_THROW(FastBinary16Encoding(one, T::E4M3, rne), SeedAssertionFailure);
  EXPECT_THROW(ReferenceBinary16Encoding(Real(1), T::E4M3, rne), SeedAssertionFailure);
  EXPECT_THROW(FastFP8Encoding(one, T::FP16, rne), SeedAssertionFailure);
  EXPECT_THROW(FastMatrixFloatingEncoding(one, T::S8, rne), SeedAssertionFailure);
  EXPECT_THROW(ReferenceMatrixFloatingEncoding(Real(1), T::S8, rne), SeedAssertionFailure);
  EXPECT_THROW(FastMatrixIntegerEncoding(one, T::FP32, rne), std::invalid_argument);
  EXPECT_THROW(ReferenceMatrixIntegerEncoding(Real(1), T::FP32, rne), std::invalid_argument);
  EXPECT_THROW(FastMatrixRoundAndSaturateSigned(one, 8, M::RNE), SeedAssertionFailure);
  EXPECT_THROW(FastMatrixQuantizedAffine(one, one, 0, 3, T::S8, rne), SeedAssertionFailure);
  EXPECT_THROW(MatrixQuantizedAffine(Real(1), Real(1), 0, 3, T::S8, rne), SeedAssertionFailure);
}

}  // namespace
}  // namespace fast_basics_test
}  // namespace ptovec::oracle
