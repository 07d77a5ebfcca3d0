// Tests of seed 003 (PTO-ARCH-PROFILE-REFERENCE-QUANTIZATION): ReferencePowerOfTwo,
// ReferenceFP32FiniteValue, ReferenceIntegerValue, ReferenceFP32FiniteEncoding, TileProfileQuantize
// and TileProfileDequantize.
//
// Every table row is derived by hand from the seed text and spec-notes sections 5 and 6; the
// property tests compare against an independent formulation written here (direct quantum
// arithmetic instead of the seed's normalization loops).
#include "ptovec/oracle/reference_quantization.hpp"

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <array>
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include "ptovec/oracle/formats.hpp"
#include "ptovec/oracle/numeric.hpp"
#include "ptovec/oracle/rounding.hpp"
#include "test_support.hpp"

namespace ptovec::oracle {
namespace reference_quantization_test {
namespace {

using test_support::Pow2;
using test_support::Q;

using M = NumericRoundingMode;
using T = TileDataType;

using test_support::Hex;

std::string Show(const Encoded& e) { return Hex(e.word) + "/" + Hex(e.status); }

// Exact value of an FP32 word, written independently of the oracle (layout arithmetic).
Real F32(std::uint32_t w) {
  const unsigned e = (w >> 23) & 0xFF;
  const std::uint32_t f = w & 0x7FFFFF;
  Real magnitude = e == 0 ? Real(Integer(f)) * Pow2(-149)
                          : Real(Integer(f | 0x800000u)) * Pow2(static_cast<int>(e) - 150);
  return (w >> 31) != 0 ? Real(-magnitude) : magnitude;
}

constexpr Word kInf = 0x7F800000;
constexpr Word kNegInf = 0xFF800000;
constexpr Word kMax = 0x7F7FFFFF;

// ---------------------------------------------------------------------------------------------
// ReferencePowerOfTwo, ReferenceFP32FiniteValue, ReferenceIntegerValue.

TEST(ReferencePowerOfTwo, DomainEndsAndAssertions) {
  EXPECT_EQ(ReferencePowerOfTwo(-149), Real(Integer(1), Integer(1) << 149));
  EXPECT_EQ(ReferencePowerOfTwo(0), Q(1));
  EXPECT_EQ(ReferencePowerOfTwo(127), Real(Integer(1) << 127));
  EXPECT_EQ(ReferencePowerOfTwo(1), Q(2));
  EXPECT_EQ(ReferencePowerOfTwo(-1), Q(1, 2));
  EXPECT_EQ(ReferencePowerOfTwo(-126), Pow2(-126));
  for (int e = -149; e <= 127; ++e) EXPECT_EQ(ReferencePowerOfTwo(e), Pow2(e)) << e;
  EXPECT_THROW(ReferencePowerOfTwo(-150), SeedAssertionFailure);
  EXPECT_THROW(ReferencePowerOfTwo(128), SeedAssertionFailure);
  EXPECT_THROW(ReferencePowerOfTwo(-1000), SeedAssertionFailure);
  EXPECT_THROW(ReferencePowerOfTwo(1000), SeedAssertionFailure);
}

TEST(ReferenceFP32FiniteValue, BoundaryWords) {
  struct Row {
    Word word;
    Real expected;
  };
  const std::vector<Row> rows = {
      {0x00000000, Q(0)},
      {0x80000000, Q(0)},
      {0x00000001, Pow2(-149)},
      {0x80000001, -Pow2(-149)},
      {0x00000003, Q(3) * Pow2(-149)},
      {0x007FFFFF, Q(0x7FFFFF) * Pow2(-149)},
      {0x00800000, Pow2(-126)},
      {0x00800001, Q(0x800001) * Pow2(-149)},
      {0x00400000, Pow2(-127)},
      {0x3F800000, Q(1)},
      {0xBF800000, Q(-1)},
      {0x3F800001, Q(1) + Pow2(-23)},
      {0x3FFFFFFF, Q(2) - Pow2(-23)},
      {0x40200000, Q(5, 2)},
      {0xC0200000, Q(-5, 2)},
      {0x3EAAAAAB, Q(0xAAAAAB) * Pow2(-25)},
      {0x7F000000, Pow2(127)},
      {0x7F7FFFFF, Pow2(128) - Pow2(104)},
      {0xFF7FFFFF, Pow2(104) - Pow2(128)},
      {0xFFFFFFFF3F800000ULL, Q(1)},  // bits above 31 ignored
      {0x1000000000000001ULL, Pow2(-149)},
  };
  for (const Row& r : rows) {
    EXPECT_EQ(ReferenceFP32FiniteValue(r.word), r.expected) << Hex(r.word);
  }
  for (Word w : {Word{0x7F800000}, Word{0xFF800000}, Word{0x7FC00000}, Word{0x7F800001},
                 Word{0xFFFFFFFF}, Word{0x7FFFFFFF}}) {
    EXPECT_THROW(ReferenceFP32FiniteValue(w), SeedAssertionFailure) << Hex(w);
  }
}

RC_GTEST_PROP(ReferenceFP32FiniteValue, AgreesWithLayoutDecoderAndFormatTable, ()) {
  const auto w = *rc::gen::suchThat(rc::gen::arbitrary<std::uint32_t>(),
                                    [](std::uint32_t x) { return ((x >> 23) & 0xFF) != 0xFF; });
  RC_ASSERT(ReferenceFP32FiniteValue(w) == F32(w));
  RC_ASSERT(ReferenceFP32FiniteValue(w) == TileNumericFiniteValue(T::FP32, w));
}

TEST(ReferenceIntegerValue, SignedAndUnsigned) {
  EXPECT_EQ(ReferenceIntegerValue(0x82, T::S8), Integer(-126));
  EXPECT_EQ(ReferenceIntegerValue(0xFFFFFFFFFFFFFF82ULL, T::S8), Integer(-126));
  EXPECT_EQ(ReferenceIntegerValue(0x82, T::U8), Integer(130));
  EXPECT_EQ(ReferenceIntegerValue(0x182, T::U8), Integer(130));
  EXPECT_EQ(ReferenceIntegerValue(0x7F, T::S8), Integer(127));
  EXPECT_EQ(ReferenceIntegerValue(0x80, T::S8), Integer(-128));
  EXPECT_EQ(ReferenceIntegerValue(0xF, T::S4X2), Integer(-1));
  EXPECT_EQ(ReferenceIntegerValue(0xF, T::U4X2), Integer(15));
  EXPECT_EQ(ReferenceIntegerValue(0x8000, T::S16), Integer(-32768));
  EXPECT_EQ(ReferenceIntegerValue(0xFFFFFFFF, T::U32), Integer(4294967295LL));
  EXPECT_EQ(ReferenceIntegerValue(0xFFFFFFFF, T::S32), Integer(-1));
  EXPECT_EQ(ReferenceIntegerValue(0xFFFFFFFFFFFFFFFFULL, T::U64), (Integer(1) << 64) - 1);
  EXPECT_EQ(ReferenceIntegerValue(0x8000000000000000ULL, T::S64), -(Integer(1) << 63));
}

// ---------------------------------------------------------------------------------------------
// ReferenceFP32FiniteEncoding: hand-derived table, every mode.

struct EncodingRow {
  std::string label;
  Real x;
  std::array<Encoded, 7> expected;  // RNE RTM RTP RTZ RNA RTO RHB
};

// Helper: the same status for every mode.
std::array<Encoded, 7> Words(std::array<Word, 7> words, Status status) {
  std::array<Encoded, 7> out;
  for (std::size_t i = 0; i < 7; ++i) out[i] = {words[i], status};
  return out;
}
std::array<Encoded, 7> Same(Word word, Status status) {
  return Words({word, word, word, word, word, word, word}, status);
}

std::vector<EncodingRow> EncodingTable() {
  const Real one = 1;
  const Real max = Pow2(128) - Pow2(104);  // 0x7F7FFFFF
  const Real tiny = Pow2(-149);
  const Real ulp1 = Pow2(-23);  // ulp of [1, 2)
  const Encoded inf{kInf, 0x14};
  const Encoded ninf{kNegInf, 0x14};
  const Encoded maxnx{kMax, 0x10};
  const Encoded nmaxnx{0xFF7FFFFF, 0x10};
  //                                                       RNE         RTM         RTP         RTZ
  //                                                       RNA         RTO         RHB
  return {
      // Spec-notes section 6 known answer, and exact values.
      {"1.0", one, Same(0x3F800000, 0x00)},
      {"0", Q(0), Same(0x00000000, 0x00)},
      {"-1.5", Q(-3, 2), Same(0xBFC00000, 0x00)},
      {"2^127", Pow2(127), Same(0x7F000000, 0x00)},
      {"-2^127", -Pow2(127), Same(0xFF000000, 0x00)},
      {"max finite", max, Same(kMax, 0x00)},
      {"-max finite", -max, Same(0xFF7FFFFF, 0x00)},
      {"2^-126", Pow2(-126), Same(0x00800000, 0x00)},
      {"-2^-126", -Pow2(-126), Same(0x80800000, 0x00)},
      // Ties between two normal FP32 numbers.
      {"1 + 2^-24 (tie 0x3F800000/01)", one + ulp1 / 2,
       Words({0x3F800000, 0x3F800000, 0x3F800001, 0x3F800000, 0x3F800001, 0x3F800001, 0x3F800001},
             0x10)},
      {"1 + 3*2^-24 (tie 01/02)", one + 3 * ulp1 / 2,
       Words({0x3F800002, 0x3F800001, 0x3F800002, 0x3F800001, 0x3F800002, 0x3F800001, 0x3F800002},
             0x10)},
      {"-(1 + 2^-24) (negative tie)", -(one + ulp1 / 2),
       Words({0xBF800000, 0xBF800001, 0xBF800000, 0xBF800000, 0xBF800001, 0xBF800001, 0xBF800000},
             0x10)},
      {"-(1 + 3*2^-24) (negative tie, odd below)", -(one + 3 * ulp1 / 2),
       Words({0xBF800002, 0xBF800002, 0xBF800001, 0xBF800001, 0xBF800002, 0xBF800001, 0xBF800001},
             0x10)},
      // One above / one below a tie.
      {"1 + 2^-24 + 2^-30", one + ulp1 / 2 + Pow2(-30),
       Words({0x3F800001, 0x3F800000, 0x3F800001, 0x3F800000, 0x3F800001, 0x3F800001, 0x3F800001},
             0x10)},
      {"1 + 2^-24 - 2^-30", one + ulp1 / 2 - Pow2(-30),
       Words({0x3F800000, 0x3F800000, 0x3F800001, 0x3F800000, 0x3F800000, 0x3F800001, 0x3F800000},
             0x10)},
      {"-(1 + 2^-24 + 2^-30)", -(one + ulp1 / 2 + Pow2(-30)),
       Words({0xBF800001, 0xBF800001, 0xBF800000, 0xBF800000, 0xBF800001, 0xBF800001, 0xBF800001},
             0x10)},
      {"-(1 + 2^-24 - 2^-30)", -(one + ulp1 / 2 - Pow2(-30)),
       Words({0xBF800000, 0xBF800001, 0xBF800000, 0xBF800000, 0xBF800000, 0xBF800001, 0xBF800000},
             0x10)},
      {"1/3", Q(1, 3),
       Words({0x3EAAAAAB, 0x3EAAAAAA, 0x3EAAAAAB, 0x3EAAAAAA, 0x3EAAAAAB, 0x3EAAAAAB, 0x3EAAAAAB},
             0x10)},
      {"-1/3", Q(-1, 3),
       Words({0xBEAAAAAB, 0xBEAAAAAB, 0xBEAAAAAA, 0xBEAAAAAA, 0xBEAAAAAB, 0xBEAAAAAB, 0xBEAAAAAB},
             0x10)},
      {"1/10", Q(1, 10),
       Words({0x3DCCCCCD, 0x3DCCCCCC, 0x3DCCCCCD, 0x3DCCCCCC, 0x3DCCCCCD, 0x3DCCCCCD, 0x3DCCCCCD},
             0x10)},
      // Carry into the next binade.
      {"2 - 2^-24 (carry to 2.0)", Q(2) - ulp1 / 2,
       Words({0x40000000, 0x3FFFFFFF, 0x40000000, 0x3FFFFFFF, 0x40000000, 0x3FFFFFFF, 0x40000000},
             0x10)},
      {"-(2 - 2^-24)", -(Q(2) - ulp1 / 2),
       Words({0xC0000000, 0xC0000000, 0xBFFFFFFF, 0xBFFFFFFF, 0xC0000000, 0xBFFFFFFF, 0xBFFFFFFF},
             0x10)},
      // 2^128 and beyond: Inf with OF|NX in every mode, RTZ and RTM included.
      {"2^128", Pow2(128), Same(kInf, 0x14)},
      {"-2^128", -Pow2(128), Same(kNegInf, 0x14)},
      {"2^128 + 1", Pow2(128) + 1, Same(kInf, 0x14)},
      {"3 * 2^127", 3 * Pow2(127), Same(kInf, 0x14)},
      {"-3 * 2^127", -3 * Pow2(127), Same(kNegInf, 0x14)},
      {"2^129", Pow2(129), Same(kInf, 0x14)},
      {"2^300", Pow2(300), Same(kInf, 0x14)},
      {"-2^300 - 1/3", -Pow2(300) - Q(1, 3), Same(kNegInf, 0x14)},
      // Carry past the largest finite.
      {"max + half ulp (tie, even is 2^24)",
       max + Pow2(103),
       {inf, maxnx, inf, maxnx, inf, maxnx, inf}},
      {"max + quarter ulp", max + Pow2(102), {maxnx, maxnx, inf, maxnx, maxnx, maxnx, maxnx}},
      {"2^128 - 2^100 (above max + half ulp)",
       Pow2(128) - Pow2(100),
       {inf, maxnx, inf, maxnx, inf, maxnx, inf}},
      {"2^128 - 2^-200", Pow2(128) - Pow2(-200), {inf, maxnx, inf, maxnx, inf, maxnx, inf}},
      {"-(max + half ulp)", -(max + Pow2(103)), {ninf, ninf, nmaxnx, nmaxnx, ninf, nmaxnx, nmaxnx}},
      {"-(max + quarter ulp)",
       -(max + Pow2(102)),
       {nmaxnx, ninf, nmaxnx, nmaxnx, nmaxnx, nmaxnx, nmaxnx}},
      // Exact subnormals: no flags.
      {"2^-149", tiny, Same(0x00000001, 0x00)},
      {"-2^-149", -tiny, Same(0x80000001, 0x00)},
      {"3 * 2^-149", 3 * tiny, Same(0x00000003, 0x00)},
      {"0x7FFFFF * 2^-149", 0x7FFFFF * tiny, Same(0x007FFFFF, 0x00)},
      {"2^-127", Pow2(-127), Same(0x00400000, 0x00)},
      {"-2^-127", -Pow2(-127), Same(0x80400000, 0x00)},
      // Inexact subnormals: UF|NX.
      {"2.5 * 2^-149", Q(5, 2) * tiny,
       Words({0x00000002, 0x00000002, 0x00000003, 0x00000002, 0x00000003, 0x00000003, 0x00000003},
             0x18)},
      {"-2.5 * 2^-149", Q(-5, 2) * tiny,
       Words({0x80000002, 0x80000003, 0x80000002, 0x80000002, 0x80000003, 0x80000003, 0x80000002},
             0x18)},
      {"1.5 * 2^-149", Q(3, 2) * tiny,
       Words({0x00000002, 0x00000001, 0x00000002, 0x00000001, 0x00000002, 0x00000001, 0x00000002},
             0x18)},
      {"-1.5 * 2^-149", Q(-3, 2) * tiny,
       Words({0x80000002, 0x80000002, 0x80000001, 0x80000001, 0x80000002, 0x80000001, 0x80000001},
             0x18)},
      {"(2^22 + 1/3) * 2^-149", (Pow2(22) + Q(1, 3)) * tiny,
       Words({0x00400000, 0x00400000, 0x00400001, 0x00400000, 0x00400000, 0x00400001, 0x00400000},
             0x18)},
      // Below 2^-149: rounds to zero (sign kept) or to the smallest subnormal.
      {"2^-150 (tie with zero)", Pow2(-150),
       Words({0x00000000, 0x00000000, 0x00000001, 0x00000000, 0x00000001, 0x00000001, 0x00000001},
             0x18)},
      {"-2^-150", -Pow2(-150),
       Words({0x80000000, 0x80000001, 0x80000000, 0x80000000, 0x80000001, 0x80000001, 0x80000000},
             0x18)},
      {"3 * 2^-151", 3 * Pow2(-151),
       Words({0x00000001, 0x00000000, 0x00000001, 0x00000000, 0x00000001, 0x00000001, 0x00000001},
             0x18)},
      {"2^-160", Pow2(-160),
       Words({0x00000000, 0x00000000, 0x00000001, 0x00000000, 0x00000000, 0x00000001, 0x00000000},
             0x18)},
      {"-2^-160", -Pow2(-160),
       Words({0x80000000, 0x80000001, 0x80000000, 0x80000000, 0x80000000, 0x80000001, 0x80000000},
             0x18)},
      {"2^-1000", Pow2(-1000),
       Words({0x00000000, 0x00000000, 0x00000001, 0x00000000, 0x00000000, 0x00000001, 0x00000000},
             0x18)},
      {"-2^-1000", -Pow2(-1000),
       Words({0x80000000, 0x80000001, 0x80000000, 0x80000000, 0x80000000, 0x80000001, 0x80000000},
             0x18)},
      // Tiny before rounding: below 2^-126, rounding up to the smallest normal keeps UF|NX.
      {"2^-126 - 2^-150 (tie)", Pow2(-126) - Pow2(-150),
       Words({0x00800000, 0x007FFFFF, 0x00800000, 0x007FFFFF, 0x00800000, 0x007FFFFF, 0x00800000},
             0x18)},
      {"2^-126 - 2^-151", Pow2(-126) - Pow2(-151),
       Words({0x00800000, 0x007FFFFF, 0x00800000, 0x007FFFFF, 0x00800000, 0x007FFFFF, 0x00800000},
             0x18)},
      {"-(2^-126 - 2^-150)", -(Pow2(-126) - Pow2(-150)),
       Words({0x80800000, 0x80800000, 0x807FFFFF, 0x807FFFFF, 0x80800000, 0x807FFFFF, 0x807FFFFF},
             0x18)},
      // Just above the smallest normal: inexact but not tiny, NX only.
      {"2^-126 + 2^-150", Pow2(-126) + Pow2(-150),
       Words({0x00800000, 0x00800000, 0x00800001, 0x00800000, 0x00800001, 0x00800001, 0x00800001},
             0x10)},
  };
}

TEST(ReferenceFP32FiniteEncoding, KnownAnswerOneRNE) {
  EXPECT_EQ(ReferenceFP32FiniteEncoding(Q(1), M::RNE), Encoded({0x3F800000, 0x00}));
}

TEST(ReferenceFP32FiniteEncoding, HandDerivedTableEveryMode) {
  for (const EncodingRow& row : EncodingTable()) {
    for (std::size_t m = 0; m < 7; ++m) {
      const Encoded got = ReferenceFP32FiniteEncoding(row.x, kAllRoundingModes[m]);
      EXPECT_EQ(got, row.expected[m])
          << row.label << " mode " << RoundingModeName(kAllRoundingModes[m]) << ": got "
          << Show(got) << ", want " << Show(row.expected[m]);
    }
  }
}

TEST(ReferenceFP32FiniteEncoding, UpperCarrierBitsAreZero) {
  for (M mode : kAllRoundingModes) {
    EXPECT_EQ(ReferenceFP32FiniteEncoding(Q(-1), mode).word >> 32, 0U);
    EXPECT_EQ(ReferenceFP32FiniteEncoding(-Pow2(200), mode).word >> 32, 0U);
    EXPECT_EQ(ReferenceFP32FiniteEncoding(-Pow2(-200), mode).word >> 32, 0U);
  }
}

// Round-trip: every finite FP32 word encodes back to itself exactly, in every mode; -0 -> +0.
void CheckRoundTrip(std::uint32_t w) {
  const Real value = ReferenceFP32FiniteValue(w);
  const Word expected = w == 0x80000000u ? 0 : w;
  for (M mode : kAllRoundingModes) {
    const Encoded got = ReferenceFP32FiniteEncoding(value, mode);
    RC_ASSERT(got.word == expected);
    RC_ASSERT(got.status == Status{0});
  }
}

RC_GTEST_PROP(ReferenceFP32FiniteEncoding, RoundTripsEveryFiniteWord, ()) {
  const auto w = *rc::gen::suchThat(rc::gen::arbitrary<std::uint32_t>(),
                                    [](std::uint32_t x) { return ((x >> 23) & 0xFF) != 0xFF; });
  CheckRoundTrip(w);
}

TEST(ReferenceFP32FiniteEncoding, RoundTripsBoundaryWords) {
  for (std::uint32_t w : {0x00000000u, 0x80000000u, 0x00000001u, 0x80000001u, 0x007FFFFFu,
                          0x00800000u, 0x00800001u, 0x3F800000u, 0x3FFFFFFFu, 0x7F7FFFFFu,
                          0xFF7FFFFFu, 0x7F000000u, 0x00400000u, 0x807FFFFFu}) {
    const Real value = ReferenceFP32FiniteValue(w);
    const Word expected = w == 0x80000000u ? 0 : w;
    for (M mode : kAllRoundingModes) {
      EXPECT_EQ(ReferenceFP32FiniteEncoding(value, mode), Encoded({expected, 0}))
          << Hex(w) << " " << RoundingModeName(mode);
    }
  }
}

// ---------------------------------------------------------------------------------------------
// Independent formulation of ReferenceFP32FiniteEncoding (spec-notes section 5 items 0-2):
// round x / quantum to an integer by choosing between the two neighbours directly, where the
// quantum is 2^-149 below 2^-126 and 2^(floor(log2|x|) - 23) above.

// floor(log2 a) for a > 0, by comparing with powers of two.
int FloorLog2(const Real& a) {
  // Rough start from bit lengths, then correct by direct comparison.
  const Integer n = numerator(a);
  const Integer d = denominator(a);
  int k = static_cast<int>(msb(n)) - static_cast<int>(msb(d));
  while (Pow2(k) > a) --k;
  while (Pow2(k + 1) <= a) ++k;
  return k;
}

Integer ChooseNeighbour(const Real& t, M mode) {
  // lo <= t < lo + 1, found from the integer part.
  Integer lo = numerator(t) / denominator(t);
  if (Real(lo) > t) lo -= 1;
  if (Real(lo) == t) return lo;
  const Integer hi = lo + 1;
  const Real below = t - Real(lo);
  const Real above = Real(hi) - t;
  const bool lo_is_even = lo % 2 == 0;
  switch (mode) {
    case M::RTM:
      return lo;
    case M::RTP:
      return hi;
    case M::RTZ:
      return t > 0 ? lo : hi;
    case M::RTO:
      return lo_is_even ? hi : lo;
    case M::RNE:
      if (below != above) return below < above ? lo : hi;
      return lo_is_even ? lo : hi;
    case M::RNA:
      if (below != above) return below < above ? lo : hi;
      return t > 0 ? hi : lo;
    case M::RHB:
      if (below != above) return below < above ? lo : hi;
      return hi;
  }
  return lo;
}

Encoded IndependentFP32Encoding(const Real& x, M mode) {
  if (x == 0) return {0, 0};
  const bool negative = x < 0;
  const Real a = negative ? Real(-x) : x;
  const Word sign = negative ? 0x80000000u : 0u;
  if (a >= Pow2(128)) return {sign | kInf, 0x14};
  const bool tiny = a < Pow2(-126);
  const int quantum_exponent = tiny ? -149 : FloorLog2(a) - 23;
  const Real quantum = Pow2(quantum_exponent);
  const Integer n = ChooseNeighbour(x / quantum, mode);
  const bool exact = Real(n) * quantum == x;
  const Status status = exact ? 0 : (tiny ? 0x18 : 0x10);
  const Integer magnitude = n < 0 ? Integer(-n) : n;
  const Real result = Real(magnitude) * quantum;
  if (result >= Pow2(128)) return {sign | kInf, 0x14};
  if (result < Pow2(-126)) {
    // Still subnormal (or zero): the code is the count of 2^-149.
    return {sign | static_cast<Word>(magnitude), status};
  }
  const int e = FloorLog2(result);
  const Integer significand = numerator(result / Pow2(e - 23));  // in [2^23, 2^24)
  const Word fraction = static_cast<Word>(significand) - 0x800000u;
  return {sign | (static_cast<Word>(e + 127) << 23) | fraction, status};
}

TEST(ReferenceFP32FiniteEncoding, IndependentFormulationAgreesWithTable) {
  // Guards the independent formulation itself against the hand-derived table.
  for (const EncodingRow& row : EncodingTable()) {
    for (std::size_t m = 0; m < 7; ++m) {
      const Encoded got = IndependentFP32Encoding(row.x, kAllRoundingModes[m]);
      EXPECT_EQ(got, row.expected[m]) << row.label << " " << RoundingModeName(kAllRoundingModes[m])
                                      << ": independent gives " << Show(got);
    }
  }
}

// Random reals: m * 2^e / d, and points on a quarter-ulp grid around random FP32 words.
rc::Gen<Real> GenReal() {
  return rc::gen::oneOf(
      rc::gen::apply(
          [](std::int64_t m, int e, int d) { return Real(Integer(m), Integer(d)) * Pow2(e); },
          rc::gen::inRange<std::int64_t>(-(std::int64_t{1} << 40), std::int64_t{1} << 40),
          rc::gen::inRange(-190, 140), rc::gen::element(1, 1, 3, 5, 7, 1023)),
      rc::gen::apply(
          [](std::uint32_t w, int quarter) {
            const unsigned e = (w >> 23) & 0xFF;
            const Real ulp = Pow2(static_cast<int>(e == 0 ? 1 : e) - 150);
            return F32(w) + Real(Integer(quarter), Integer(4)) * ulp;
          },
          rc::gen::suchThat(rc::gen::arbitrary<std::uint32_t>(),
                            [](std::uint32_t x) { return ((x >> 23) & 0xFF) != 0xFF; }),
          rc::gen::inRange(-6, 7)));
}

// Near the extremes: the subnormal/normal boundary, the largest finite (carry to Inf), and zero.
rc::Gen<Real> GenRealNearExtremes() {
  return rc::gen::apply(
      [](std::uint32_t f, int quarter, bool negative, int region) {
        const std::uint32_t w = region == 0   ? (0x007FFFFCu + (f & 0x7))
                                : region == 1 ? (0x7F7FFFFFu - (f & 0x1))
                                              : (f & 0x1F);
        const unsigned e = (w >> 23) & 0xFF;
        const Real ulp = Pow2(static_cast<int>(e == 0 ? 1 : e) - 150);
        const Real x = F32(w) + Real(Integer(quarter), Integer(4)) * ulp;
        return negative ? Real(-x) : x;
      },
      rc::gen::arbitrary<std::uint32_t>(), rc::gen::inRange(-6, 7), rc::gen::arbitrary<bool>(),
      rc::gen::inRange(0, 3));
}

RC_GTEST_PROP(ReferenceFP32FiniteEncoding, AgreesWithIndependentFormulation, ()) {
  const Real x = *GenReal();
  for (M mode : kAllRoundingModes) {
    const Encoded got = ReferenceFP32FiniteEncoding(x, mode);
    const Encoded want = IndependentFP32Encoding(x, mode);
    RC_ASSERT(got == want);
  }
}

RC_GTEST_PROP(ReferenceFP32FiniteEncoding, AgreesWithIndependentFormulationNearExtremes, ()) {
  const Real x = *GenRealNearExtremes();
  for (M mode : kAllRoundingModes) {
    RC_ASSERT(ReferenceFP32FiniteEncoding(x, mode) == IndependentFP32Encoding(x, mode));
  }
}

// ---------------------------------------------------------------------------------------------
// TileProfileQuantize (TQUANT).

constexpr Word kOne = 0x3F800000;
constexpr Word kHalf = 0x3F000000;
constexpr Word kTwo = 0x40000000;
constexpr Word kFP32NaN = 0x7FC00000;
constexpr Word kFP32sNaN = 0x7F800001;

NumericExecutionControl Control(M mode, bool sat) { return {mode, sat}; }

Word S8Word(long long v) {
  return static_cast<Word>(static_cast<std::int64_t>(static_cast<std::int8_t>(v)));
}

TEST(TileProfileQuantize, TiesUnderEveryModeWithZeroPoints0And3) {
  struct Row {
    const char* label;
    Word value;
    Word scale;
    long long zero_point;
    std::array<long long, 7> expected;  // RNE RTM RTP RTZ RNA RTO RHB
  };
  const std::vector<Row> rows = {
      // value * scale = 2.5
      {"2.5 * 1 + 0", 0x40200000, kOne, 0, {2, 2, 3, 2, 3, 3, 3}},
      {"5 * 0.5 + 0", 0x40A00000, kHalf, 0, {2, 2, 3, 2, 3, 3, 3}},
      {"2.5 * 1 + 3", 0x40200000, kOne, 3, {6, 5, 6, 5, 6, 5, 6}},
      // -2.5
      {"-2.5 * 1 + 0", 0xC0200000, kOne, 0, {-2, -3, -2, -2, -3, -3, -2}},
      {"-1.25 * 2 + 0", 0xBFA00000, kTwo, 0, {-2, -3, -2, -2, -3, -3, -2}},
      {"2.5 * -1 + 0", 0x40200000, 0xBF800000, 0, {-2, -3, -2, -2, -3, -3, -2}},
      {"-2.5 * 1 + 3", 0xC0200000, kOne, 3, {0, 0, 1, 0, 1, 1, 1}},
      // 0.5
      {"0.5 * 1 + 0", kHalf, kOne, 0, {0, 0, 1, 0, 1, 1, 1}},
      {"1 * 0.5 + 0", kOne, kHalf, 0, {0, 0, 1, 0, 1, 1, 1}},
      {"0.5 * 1 + 3", kHalf, kOne, 3, {4, 3, 4, 3, 4, 3, 4}},
      // -0.5
      {"-0.5 * 1 + 0", 0xBF000000, kOne, 0, {0, -1, 0, 0, -1, -1, 0}},
      {"-0.5 * 1 + 3", 0xBF000000, kOne, 3, {2, 2, 3, 2, 3, 3, 3}},
      // zero point -3 (0xFD), 0.5 -> -2.5
      {"0.5 * 1 - 3", kHalf, kOne, -3, {-2, -3, -2, -2, -3, -3, -2}},
      // Non-tie inexact: 1/3-ish (0x3EAAAAAB * 3 = 1 + 2^-24 ... > 1)
      {"0x3EAAAAAB * 3 + 0", 0x3EAAAAAB, 0x40400000, 0, {1, 1, 2, 1, 1, 1, 1}},
  };
  for (const Row& r : rows) {
    for (bool sat : {false, true}) {
      for (std::size_t m = 0; m < 7; ++m) {
        const M mode = kAllRoundingModes[m];
        const Encoded got = TileProfileQuantize(r.value, r.scale, S8Word(r.zero_point), T::FP32,
                                                T::S8, Control(mode, sat));
        EXPECT_EQ(got, Encoded({S8Word(r.expected[m]), 0x10}))
            << r.label << " " << RoundingModeName(mode) << " sat " << sat << ": got " << Show(got);
      }
    }
  }
}

TEST(TileProfileQuantize, ExactResultsHaveNoStatus) {
  for (M mode : kAllRoundingModes) {
    for (bool sat : {false, true}) {
      EXPECT_EQ(TileProfileQuantize(0x40400000, kTwo, 1, T::FP32, T::S8, Control(mode, sat)),
                Encoded({7, 0}));  // 3 * 2 + 1
      EXPECT_EQ(TileProfileQuantize(0x80000000, kOne, 0, T::FP32, T::S8, Control(mode, sat)),
                Encoded({0, 0}));  // -0
      EXPECT_EQ(TileProfileQuantize(0xC2FC0000, kOne, 0, T::FP32, T::S8, Control(mode, sat)),
                Encoded({0xFFFFFFFFFFFFFF82ULL, 0}));  // -126
      EXPECT_EQ(TileProfileQuantize(0x43000000, kOne, 0, T::FP32, T::U8, Control(mode, sat)),
                Encoded({0x80, 0}));  // 128 to U8
    }
  }
}

TEST(TileProfileQuantize, SatClampsWithoutOverflowNonSatWraps) {
  const Word k200 = 0x43480000;
  const Word km200 = 0xC3480000;
  const Word k300 = 0x43960000;
  for (M mode : kAllRoundingModes) {
    // 200 to S8: exact, so no status at all.
    EXPECT_EQ(TileProfileQuantize(k200, kOne, 0, T::FP32, T::S8, Control(mode, true)),
              Encoded({0x7F, 0}))
        << RoundingModeName(mode);
    EXPECT_EQ(TileProfileQuantize(k200, kOne, 0, T::FP32, T::S8, Control(mode, false)),
              Encoded({0xFFFFFFFFFFFFFFC8ULL, 0}))
        << RoundingModeName(mode);
    // -200 to S8: Sat -128, non-Sat -200 mod 256 = 56.
    EXPECT_EQ(TileProfileQuantize(km200, kOne, 0, T::FP32, T::S8, Control(mode, true)),
              Encoded({0xFFFFFFFFFFFFFF80ULL, 0}));
    EXPECT_EQ(TileProfileQuantize(km200, kOne, 0, T::FP32, T::S8, Control(mode, false)),
              Encoded({0x38, 0}));
    // 300 to U8: Sat 255, non-Sat 300 - 256 = 44.
    EXPECT_EQ(TileProfileQuantize(k300, kOne, 0, T::FP32, T::U8, Control(mode, true)),
              Encoded({0xFF, 0}));
    EXPECT_EQ(TileProfileQuantize(k300, kOne, 0, T::FP32, T::U8, Control(mode, false)),
              Encoded({0x2C, 0}));
    // -1 to U8: Sat 0, non-Sat 0xFF.
    EXPECT_EQ(TileProfileQuantize(0xBF800000, kOne, 0, T::FP32, T::U8, Control(mode, true)),
              Encoded({0, 0}));
    EXPECT_EQ(TileProfileQuantize(0xBF800000, kOne, 0, T::FP32, T::U8, Control(mode, false)),
              Encoded({0xFF, 0}));
    // 100 + zero point 100 = 200 to S8.
    EXPECT_EQ(TileProfileQuantize(0x42C80000, kOne, 100, T::FP32, T::S8, Control(mode, true)),
              Encoded({0x7F, 0}));
  }
  // 127.5 to S8: inexact; RNE gives 128, which Sat clamps to 127 and non-Sat wraps to -128.
  EXPECT_EQ(TileProfileQuantize(0x42FF0000, kOne, 0, T::FP32, T::S8, Control(M::RNE, true)),
            Encoded({0x7F, 0x10}));
  EXPECT_EQ(TileProfileQuantize(0x42FF0000, kOne, 0, T::FP32, T::S8, Control(M::RNE, false)),
            Encoded({0xFFFFFFFFFFFFFF80ULL, 0x10}));
  EXPECT_EQ(TileProfileQuantize(0x42FF0000, kOne, 0, T::FP32, T::S8, Control(M::RTZ, false)),
            Encoded({0x7F, 0x10}));
  // Huge finite: 2^100 to S8 non-Sat wraps to 0 (2^100 mod 256), Sat 127.
  EXPECT_EQ(TileProfileQuantize(0x71800000, kOne, 0, T::FP32, T::S8, Control(M::RNE, false)),
            Encoded({0, 0}));
  EXPECT_EQ(TileProfileQuantize(0x71800000, kOne, 0, T::FP32, T::S8, Control(M::RNE, true)),
            Encoded({0x7F, 0}));
}

TEST(TileProfileQuantize, NaNAndInfinity) {
  for (M mode : kAllRoundingModes) {
    for (bool sat : {false, true}) {
      const NumericExecutionControl c = Control(mode, sat);
      for (Word nan : {kFP32NaN, kFP32sNaN, Word{0xFFC00000}, Word{0xFFFFFFFF}}) {
        EXPECT_EQ(TileProfileQuantize(nan, kOne, 0, T::FP32, T::S8, c), Encoded({0, 0x01}));
        EXPECT_EQ(TileProfileQuantize(nan, kOne, 5, T::FP32, T::U8, c), Encoded({0, 0x01}));
      }
      EXPECT_EQ(TileProfileQuantize(kInf, kOne, 0, T::FP32, T::S8, c), Encoded({0x7F, 0x14}));
      EXPECT_EQ(TileProfileQuantize(kNegInf, kOne, 0, T::FP32, T::S8, c),
                Encoded({0xFFFFFFFFFFFFFF80ULL, 0x14}));
      EXPECT_EQ(TileProfileQuantize(kInf, kOne, 0, T::FP32, T::U8, c), Encoded({0xFF, 0x14}));
      EXPECT_EQ(TileProfileQuantize(kNegInf, kOne, 0, T::FP32, T::U8, c), Encoded({0x00, 0x14}));
      // The sign of the infinity decides, not the sign of the scale.
      EXPECT_EQ(TileProfileQuantize(kInf, 0xBF800000, 0, T::FP32, T::S8, c), Encoded({0x7F, 0x14}));
    }
  }
}

TEST(TileProfileQuantize, SubnormalScaleAndValues) {
  // 2^100 * 2^-149 = 2^-49: rounds to 0 except where the mode rounds up.
  const std::array<long long, 7> expected = {0, 0, 1, 0, 0, 1, 0};
  for (std::size_t m = 0; m < 7; ++m) {
    EXPECT_EQ(TileProfileQuantize(0x71800000, 0x00000001, 0, T::FP32, T::S8,
                                  Control(kAllRoundingModes[m], false)),
              Encoded({S8Word(expected[m]), 0x10}));
  }
  // A subnormal source times a normal scale.
  EXPECT_EQ(TileProfileQuantize(0x80000001, kOne, 0, T::FP32, T::S8, Control(M::RTM, false)),
            Encoded({0xFFFFFFFFFFFFFFFFULL, 0x10}));
}

TEST(TileProfileQuantize, SeedAssertions) {
  const NumericExecutionControl c;
  for (Word bad_scale : {Word{0x00000000}, Word{0x80000000}, kFP32NaN, kFP32sNaN, kInf, kNegInf}) {
    EXPECT_THROW(TileProfileQuantize(kOne, bad_scale, 0, T::FP32, T::S8, c), SeedAssertionFailure)
        << Hex(bad_scale);
    // The scale is checked before the source's NaN test.
    EXPECT_THROW(TileProfileQuantize(kFP32NaN, bad_scale, 0, T::FP32, T::U8, c),
                 SeedAssertionFailure);
  }
  EXPECT_THROW(TileProfileQuantize(kOne, kOne, 0, T::FP16, T::S8, c), SeedAssertionFailure);
  EXPECT_THROW(TileProfileQuantize(kOne, kOne, 0, T::FP32, T::S16, c), SeedAssertionFailure);
  EXPECT_THROW(TileProfileQuantize(kOne, kOne, 0, T::FP32, T::FP16, c), SeedAssertionFailure);
  EXPECT_THROW(TileProfileQuantize(kOne, kOne, 0, T::FP32, T::S4X2, c), SeedAssertionFailure);
  // Negative and subnormal scales are inside the seed's domain.
  EXPECT_NO_THROW(TileProfileQuantize(kOne, 0xBF800000, 0, T::FP32, T::S8, c));
  EXPECT_NO_THROW(TileProfileQuantize(kOne, 0x00000001, 0, T::FP32, T::S8, c));
}

TEST(TileProfileQuantize, ZeroPointIsNormalizedToTheDestination) {
  // 0x1FD as S8 zero point is -3; as U8 it is 253.
  EXPECT_EQ(TileProfileQuantize(kOne, kOne, 0x1FD, T::FP32, T::S8, Control(M::RNE, false)),
            Encoded({0xFFFFFFFFFFFFFFFEULL, 0}));
  EXPECT_EQ(TileProfileQuantize(kOne, kOne, 0x1FD, T::FP32, T::U8, Control(M::RNE, false)),
            Encoded({0xFE, 0}));
  EXPECT_EQ(TileProfileQuantize(0x40A00000, kOne, 0x1FD, T::FP32, T::U8, Control(M::RNE, true)),
            Encoded({0xFF, 0}));  // 5 + 253 = 258 clamps
}

// Independent formulation over random inputs.
RC_GTEST_PROP(TileProfileQuantize, AgreesWithIndependentFormulation, ()) {
  const auto finite = [](std::uint32_t x) { return ((x >> 23) & 0xFF) != 0xFF; };
  const auto value = *rc::gen::oneOf(
      rc::gen::arbitrary<std::uint32_t>(),
      rc::gen::map(rc::gen::inRange(-600, 600), [](int quarter) {
        // Exact quarters: FP32 word of quarter/4 (small enough to be exact).
        const Real q = Q(quarter, 4);
        return static_cast<std::uint32_t>(ReferenceFP32FiniteEncoding(q, M::RNE).word);
      }));
  const auto scale = *rc::gen::suchThat(
      rc::gen::oneOf(
          rc::gen::arbitrary<std::uint32_t>(),
          rc::gen::element<std::uint32_t>(0x3F800000u, 0x3F000000u, 0x40000000u, 0x3E800000u,
                                          0xBF800000u, 0x3FC00000u, 0x00000001u)),
      [&](std::uint32_t s) { return finite(s) && (s & 0x7FFFFFFFu) != 0; });
  const bool is_signed = *rc::gen::arbitrary<bool>();
  const T destination = is_signed ? T::S8 : T::U8;
  const auto zp_byte = *rc::gen::inRange<int>(0, 256);
  const bool sat = *rc::gen::arbitrary<bool>();
  const M mode = *rc::gen::elementOf(kAllRoundingModes);
  const Encoded got = TileProfileQuantize(value, scale, static_cast<Word>(zp_byte), T::FP32,
                                          destination, Control(mode, sat));
  const long long zp = is_signed && zp_byte >= 128 ? zp_byte - 256 : zp_byte;
  const long long lo = is_signed ? -128 : 0;
  const long long hi = is_signed ? 127 : 255;
  const unsigned e = (value >> 23) & 0xFF;
  Encoded want;
  if (e == 0xFF && (value & 0x7FFFFF) != 0) {
    want = {0, 0x01};
  } else if (e == 0xFF) {
    want = {
        is_signed ? S8Word((value >> 31) ? lo : hi) : static_cast<Word>((value >> 31) ? lo : hi),
        0x14};
  } else {
    const Real affine = F32(value) * F32(scale) + zp;
    const Integer r = ChooseNeighbour(affine, mode);
    const Status status = Real(r) == affine ? 0 : 0x10;
    Integer selected = r;
    if (sat) selected = selected < lo ? Integer(lo) : selected > hi ? Integer(hi) : selected;
    // Wrap to 8 bits: the mathematical residue modulo 256 in 0..255.
    Integer residue = selected % 256;
    if (residue < 0) residue += 256;
    const long long byte = static_cast<long long>(residue);
    const Word word = is_signed ? S8Word(byte >= 128 ? byte - 256 : byte) : static_cast<Word>(byte);
    want = {word, status};
  }
  RC_ASSERT(got == want);
}

// ---------------------------------------------------------------------------------------------
// TileProfileDequantize (TDEQUANT).

TEST(TileProfileDequantize, HandDerived) {
  for (M mode : kAllRoundingModes) {
    for (bool sat : {false, true}) {
      const NumericExecutionControl c = Control(mode, sat);
      // S8 -126, zero point 0, scale 1 -> -126.0.
      EXPECT_EQ(TileProfileDequantize(0x82, kOne, 0, T::S8, T::FP32, c), Encoded({0xC2FC0000, 0}));
      // U8 0x82 = 130 -> 130.0 = 0x43020000.
      EXPECT_EQ(TileProfileDequantize(0x82, kOne, 0, T::U8, T::FP32, c), Encoded({0x43020000, 0}));
      // (5 - 3) * 0.5 = 1.
      EXPECT_EQ(TileProfileDequantize(5, kHalf, 3, T::S8, T::FP32, c), Encoded({kOne, 0}));
      // value == zero point -> +0 even with a negative scale.
      EXPECT_EQ(TileProfileDequantize(0xFD, 0xBF800000, 0xFD, T::S8, T::FP32, c), Encoded({0, 0}));
      // (0 - 1) * -1 = 1; a negative scale flips the sign.
      EXPECT_EQ(TileProfileDequantize(0, 0xBF800000, 1, T::U8, T::FP32, c), Encoded({kOne, 0}));
      // Overflow: 255 * max finite -> Inf with OF|NX in every mode; Sat is ignored.
      EXPECT_EQ(TileProfileDequantize(0x7F, kMax, 0x80, T::S8, T::FP32, c), Encoded({kInf, 0x14}));
      EXPECT_EQ(TileProfileDequantize(0x80, kMax, 0x7F, T::S8, T::FP32, c),
                Encoded({kNegInf, 0x14}));
      EXPECT_EQ(TileProfileDequantize(0xFF, kMax, 0x00, T::U8, T::FP32, c), Encoded({kInf, 0x14}));
      // 2 * 2^127 = 2^128: overflows in every mode.
      EXPECT_EQ(TileProfileDequantize(2, 0x7F000000, 0, T::S8, T::FP32, c), Encoded({kInf, 0x14}));
      // Exact subnormal results carry no flags.
      EXPECT_EQ(TileProfileDequantize(3, 0x00000001, 0, T::S8, T::FP32, c),
                Encoded({0x00000003, 0}));
      EXPECT_EQ(TileProfileDequantize(0xFD, 0x00000001, 0, T::S8, T::FP32, c),
                Encoded({0x80000003, 0}));
      EXPECT_EQ(TileProfileDequantize(0xFF, 0x00000003, 0x7F, T::U8, T::FP32, c),
                Encoded({0x00000180, 0}));  // 128 * 3 * 2^-149
    }
  }
}

TEST(TileProfileDequantize, InexactUnderEveryMode) {
  // 3 * (2 - 2^-23) = 6 - 3 * 2^-23: scaled significand 12582911.25.
  const std::array<Word, 7> pos = {0x40BFFFFF, 0x40BFFFFF, 0x40C00000, 0x40BFFFFF,
                                   0x40BFFFFF, 0x40BFFFFF, 0x40BFFFFF};
  // -3 * (2 - 2^-23): the seed rounds the signed value, so RTP/RTM swap roles.
  const std::array<Word, 7> neg = {0xC0BFFFFF, 0xC0C00000, 0xC0BFFFFF, 0xC0BFFFFF,
                                   0xC0BFFFFF, 0xC0BFFFFF, 0xC0BFFFFF};
  // 3 * (1 + 2^-23 + ...): 0x3F800001 * 3 = 3 + 3 * 2^-23, in [2, 4): ulp 2^-22 -> 1.5 ulp tie.
  const std::array<Word, 7> tie = {0x40400002, 0x40400001, 0x40400002, 0x40400001,
                                   0x40400002, 0x40400001, 0x40400002};
  const std::array<Word, 7> ntie = {0xC0400002, 0xC0400002, 0xC0400001, 0xC0400001,
                                    0xC0400002, 0xC0400001, 0xC0400001};
  for (std::size_t m = 0; m < 7; ++m) {
    const M mode = kAllRoundingModes[m];
    for (bool sat : {false, true}) {
      const NumericExecutionControl c = Control(mode, sat);
      EXPECT_EQ(TileProfileDequantize(3, 0x3FFFFFFF, 0, T::S8, T::FP32, c), Encoded({pos[m], 0x10}))
          << RoundingModeName(mode);
      EXPECT_EQ(TileProfileDequantize(0xFD, 0x3FFFFFFF, 0, T::S8, T::FP32, c),
                Encoded({neg[m], 0x10}))
          << RoundingModeName(mode);
      EXPECT_EQ(TileProfileDequantize(3, 0x3F800001, 0, T::U8, T::FP32, c), Encoded({tie[m], 0x10}))
          << RoundingModeName(mode);
      EXPECT_EQ(TileProfileDequantize(0, 0x3F800001, 3, T::U8, T::FP32, c),
                Encoded({ntie[m], 0x10}))
          << RoundingModeName(mode);
    }
  }
}

TEST(TileProfileDequantize, SeedAssertions) {
  const NumericExecutionControl c;
  for (Word bad_scale : {Word{0x00000000}, Word{0x80000000}, kFP32NaN, kFP32sNaN, kInf, kNegInf}) {
    EXPECT_THROW(TileProfileDequantize(1, bad_scale, 0, T::S8, T::FP32, c), SeedAssertionFailure)
        << Hex(bad_scale);
  }
  EXPECT_THROW(TileProfileDequantize(1, kOne, 0, T::S16, T::FP32, c), SeedAssertionFailure);
  EXPECT_THROW(TileProfileDequantize(1, kOne, 0, T::FP32, T::FP32, c), SeedAssertionFailure);
  EXPECT_THROW(TileProfileDequantize(1, kOne, 0, T::S8, T::FP16, c), SeedAssertionFailure);
}

RC_GTEST_PROP(TileProfileDequantize, AgreesWithIndependentFormulation, ()) {
  const auto scale = *rc::gen::suchThat(rc::gen::arbitrary<std::uint32_t>(), [](std::uint32_t s) {
    return ((s >> 23) & 0xFF) != 0xFF && (s & 0x7FFFFFFFu) != 0;
  });
  const bool is_signed = *rc::gen::arbitrary<bool>();
  const auto v = *rc::gen::inRange<int>(0, 256);
  const auto zp = *rc::gen::inRange<int>(0, 256);
  const M mode = *rc::gen::elementOf(kAllRoundingModes);
  const bool sat = *rc::gen::arbitrary<bool>();
  const T source = is_signed ? T::S8 : T::U8;
  const long long sv = is_signed && v >= 128 ? v - 256 : v;
  const long long sz = is_signed && zp >= 128 ? zp - 256 : zp;
  const Encoded got = TileProfileDequantize(static_cast<Word>(v), scale, static_cast<Word>(zp),
                                            source, T::FP32, Control(mode, sat));
  const Encoded want = IndependentFP32Encoding(Real(Integer(sv - sz)) * F32(scale), mode);
  RC_ASSERT(got == want);
  // An integer times an FP32 value is a multiple of 2^-149: a subnormal result is always exact,
  // so TDEQUANT never raises UF.
  RC_ASSERT((got.status & kStatusUF) == 0);
}

}  // namespace
}  // namespace reference_quantization_test
}  // namespace ptovec::oracle
