// FastFloatToE8M0 and FastTileProfileConvert (fast_e8m0_conversion.hpp) against the literal
// ReferenceFloatToE8M0 and TileProfileConvert of seed 001 (e8m0_conversion.hpp):
//  * known answers, hand-derived from seed 001 lines 103-152 and spec-notes section 5 item 5;
//  * every FP16 and BF16 code (also with junk above bit 15) x 7 rounding modes x both Sat;
//  * RapidCheck properties over FP32 words: uniform 64-bit carriers, and targeted words (powers
//    of two and their neighbours, sqrt(2) * 2^k neighbours, subnormals, the 2^126 and 2^127
//    binades, NaN, Inf, zeros, negative values), every mode, both Sat;
//  * every FP32 word x 14 controls, in 16 shards: disabled by default (the tests'
//    names start with DISABLED_); ctest runs them under the label `long` when the build is
//    configured with -DPTOVEC_LONG_TESTS=ON.
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <array>
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include "ptovec/oracle/e8m0_conversion.hpp"
#include "ptovec/oracle/fast_e8m0_conversion.hpp"
#include "ptovec/oracle/formats.hpp"
#include "ptovec/oracle/rounding.hpp"
#include "test_support.hpp"

namespace ptovec::oracle {
namespace fast_e8m0_test {
namespace {

using M = NumericRoundingMode;
using T = TileDataType;

using test_support::Hex;
std::string Show(const Encoded& e) { return Hex(e.word) + "/" + Hex(e.status); }

// The 14 controls: 7 modes x {Sat off, Sat on}.
constexpr std::array<NumericExecutionControl, 14> kControls = [] {
  std::array<NumericExecutionControl, 14> out{};
  for (std::size_t i = 0; i < 14; ++i) out[i] = {kAllRoundingModes[i / 2], (i % 2) == 1};
  return out;
}();

std::string Where(T type, Word word, NumericExecutionControl c) {
  return std::string(Format(type).spec_name) + " " + Hex(word) + " " +
         std::string(RoundingModeName(c.rounding_mode)) + (c.saturating ? " Sat" : "");
}

// ---------------------------------------------------------------------------------------------
// Known answers.

struct KnownAnswer {
  T type;
  Word word;
  std::array<Word, 7> codes;  // by mode RNE RTM RTP RTZ RNA RTO RHB, Sat off and on alike
  Status status;
};

// In-range words: the code by mode (Sat changes nothing), and the status.
const std::vector<KnownAnswer>& KnownAnswers() {
  static const std::vector<KnownAnswer> rows = {
      // 1.0 = 2^0: exact.
      {T::FP32, 0x3F800000, {0x7F, 0x7F, 0x7F, 0x7F, 0x7F, 0x7F, 0x7F}, 0x00},
      // 1.5: floor 0, above sqrt(2); RTZ floor (0 >= 0); RTO: 0 even -> ceiling.
      {T::FP32, 0x3FC00000, {0x80, 0x7F, 0x80, 0x7F, 0x80, 0x80, 0x80}, 0x10},
      // 0x3FB504F3 = 1.41421353... < sqrt(2): nearest modes keep the floor.
      {T::FP32, 0x3FB504F3, {0x7F, 0x7F, 0x80, 0x7F, 0x7F, 0x80, 0x7F}, 0x10},
      // 0x3FB504F4 = 1.41421366... > sqrt(2): nearest modes take the ceiling.
      {T::FP32, 0x3FB504F4, {0x80, 0x7F, 0x80, 0x7F, 0x80, 0x80, 0x80}, 0x10},
      // 0.75: floor -1 (odd); RTZ toward exponent 0 -> 0; RTO keeps -1; 0.75 > sqrt(2)/2.
      {T::FP32, 0x3F400000, {0x7F, 0x7E, 0x7F, 0x7F, 0x7F, 0x7E, 0x7F}, 0x10},
      // 3.0: floor 1 (odd), 1.5 > sqrt(2).
      {T::FP32, 0x40400000, {0x81, 0x80, 0x81, 0x80, 0x81, 0x80, 0x81}, 0x10},
      // 2^-127 (FP32 subnormal 0x00400000): exact, code 0.
      {T::FP32, 0x00400000, {0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00}, 0x00},
      // 0x00600000 = 1.5 * 2^-127: floor -127, ceiling -126.
      {T::FP32, 0x00600000, {0x01, 0x00, 0x01, 0x01, 0x01, 0x00, 0x01}, 0x10},
      // 2^127: exact, code 0xFE.
      {T::FP32, 0x7F000000, {0xFE, 0xFE, 0xFE, 0xFE, 0xFE, 0xFE, 0xFE}, 0x00},
      // 1.5 * 2^126: ceiling 127 = 0xFE is legal; RTO: 126 even -> ceiling.
      {T::FP32, 0x7EC00000, {0xFE, 0xFD, 0xFE, 0xFD, 0xFE, 0xFE, 0xFE}, 0x10},
      // FP16 2^-24 (0x0001): exact, 103.
      {T::FP16, 0x0001, {0x67, 0x67, 0x67, 0x67, 0x67, 0x67, 0x67}, 0x00},
      // FP16 3 * 2^-24 (0x0003): floor -23 (odd), 1.5 > sqrt(2).
      {T::FP16, 0x0003, {0x69, 0x68, 0x69, 0x69, 0x69, 0x68, 0x69}, 0x10},
      // FP16 65504 (0x7BFF): floor 15, just under 2^16.
      {T::FP16, 0x7BFF, {0x8F, 0x8E, 0x8F, 0x8E, 0x8F, 0x8E, 0x8F}, 0x10},
      // BF16 2^-127 (0x0040): exact, code 0.
      {T::BF16, 0x0040, {0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00}, 0x00},
      // BF16 1.0 + 2^-7 (0x3F81): below sqrt(2).
      {T::BF16, 0x3F81, {0x7F, 0x7F, 0x80, 0x7F, 0x7F, 0x80, 0x7F}, 0x10},
  };
  return rows;
}

TEST(FastFloatToE8M0, KnownAnswersEveryModeBothSat) {
  for (const KnownAnswer& row : KnownAnswers()) {
    for (std::size_t m = 0; m < 7; ++m) {
      for (const bool sat : {false, true}) {
        const NumericExecutionControl c{kAllRoundingModes[m], sat};
        const Encoded want{row.codes[m], row.status};
        EXPECT_EQ(FastFloatToE8M0(row.word, row.type, c), want)
            << Where(row.type, row.word, c) << ": " << Show(FastFloatToE8M0(row.word, row.type, c));
        EXPECT_EQ(ReferenceFloatToE8M0(row.word, row.type, c), want)
            << Where(row.type, row.word, c);
      }
    }
  }
}

struct SpecialAnswer {
  T type;
  Word word;
  Word code;
  Word sat_code;
  Status status;
};

TEST(FastFloatToE8M0, SpecialsEveryModeBothSat) {
  const std::vector<SpecialAnswer> rows = {
      {T::FP32, 0x00000000, 0xFF, 0xFF, 0x01},  // +0
      {T::FP32, 0x80000000, 0xFF, 0xFF, 0x01},  // -0
      {T::FP32, 0xBF800000, 0xFF, 0xFF, 0x01},  // -1
      {T::FP32, 0xFF800000, 0xFF, 0xFF, 0x01},  // -Inf
      {T::FP32, 0x80000001, 0xFF, 0xFF, 0x01},  // negative subnormal
      {T::FP32, 0x7FC00000, 0xFF, 0xFF, 0x01},  // quiet NaN
      {T::FP32, 0x7F800001, 0xFF, 0xFF, 0x01},  // signalling NaN
      {T::FP32, 0xFFFFFFFF, 0xFF, 0xFF, 0x01},  // negative NaN
      {T::FP32, 0x7F800000, 0xFF, 0xFE, 0x14},  // +Inf
      {T::FP32, 0x7F000001, 0xFF, 0xFE, 0x14},  // above 2^127: overflow in every mode
      {T::FP32, 0x7F7FFFFF, 0xFF, 0xFE, 0x14},  // largest finite
      {T::FP32, 0x00000001, 0xFF, 0x00, 0x18},  // 2^-149: floor below -127
      {T::FP32, 0x003FFFFF, 0xFF, 0x00, 0x18},  // just below 2^-127
      {T::BF16, 0x003F, 0xFF, 0x00, 0x18},      // BF16 largest floor -128 subnormal
      {T::BF16, 0x7F01, 0xFF, 0xFE, 0x14},      // BF16 above 2^127
      {T::BF16, 0x7F80, 0xFF, 0xFE, 0x14},      // BF16 +Inf
      {T::BF16, 0xFF80, 0xFF, 0xFF, 0x01},      // BF16 -Inf
      {T::FP16, 0x7C00, 0xFF, 0xFE, 0x14},      // FP16 +Inf
      {T::FP16, 0x7E00, 0xFF, 0xFF, 0x01},      // FP16 quiet NaN
      {T::FP16, 0x8001, 0xFF, 0xFF, 0x01},      // FP16 negative subnormal
  };
  for (const SpecialAnswer& row : rows) {
    for (const NumericExecutionControl c : kControls) {
      const Encoded want{c.saturating ? row.sat_code : row.code, row.status};
      EXPECT_EQ(FastFloatToE8M0(row.word, row.type, c), want) << Where(row.type, row.word, c);
      EXPECT_EQ(ReferenceFloatToE8M0(row.word, row.type, c), want) << Where(row.type, row.word, c);
    }
  }
}

TEST(FastFloatToE8M0, IllegalSourceTypesAssertLikeTheLiteralFunction) {
  for (const T type : {T::FP64,   T::TF32,   T::HF32, T::HiF8,   T::E4M3, T::E5M2, T::E3M2, T::E2M3,
                       T::E2M1X2, T::E1M2X2, T::E8M0, T::HiF4X2, T::S64,  T::S32,  T::S16,  T::S8,
                       T::S4X2,   T::U64,    T::U32,  T::U16,    T::U8,   T::U4X2, T::FP19}) {
    for (const NumericExecutionControl c : kControls) {
      EXPECT_THROW(FastFloatToE8M0(0x3C00, type, c), SeedAssertionFailure);
      EXPECT_THROW(ReferenceFloatToE8M0(0x3C00, type, c), SeedAssertionFailure);
      EXPECT_THROW(FastTileProfileConvert(0x3C00, type, T::E8M0, c), SeedAssertionFailure);
    }
  }
}

// ---------------------------------------------------------------------------------------------
// Every FP16 and BF16 code, every mode, both Sat.

// The carrier bits above the source width are ignored: each code is also tried with these above
// bit 15.
constexpr std::array<Word, 3> kHighJunk = {0, 0xFFFFFFFFFFFF0000, 0x5A5A0F0FC3C30000};

struct StatusCounts {
  long nv = 0, of = 0, uf = 0, exact = 0, nx = 0;
};

void Count(StatusCounts& counts, Status s) {
  switch (s) {
    case 0x01:
      ++counts.nv;
      break;
    case 0x14:
      ++counts.of;
      break;
    case 0x18:
      ++counts.uf;
      break;
    case 0x00:
      ++counts.exact;
      break;
    case 0x10:
      ++counts.nx;
      break;
    default:
      ADD_FAILURE() << "unexpected status " << Hex(s);
      break;
  }
}

StatusCounts CheckEvery16BitCode(T type) {
  StatusCounts counts;
  long mismatches = 0;
  for (Word code = 0; code < 0x10000; ++code) {
    for (const NumericExecutionControl c : kControls) {
      const Encoded literal = ReferenceFloatToE8M0(code, type, c);
      if (c.rounding_mode == M::RNE && !c.saturating) Count(counts, literal.status);
      for (const Word junk : kHighJunk) {
        const Encoded fast = FastFloatToE8M0(code | junk, type, c);
        const Encoded convert = FastTileProfileConvert(code | junk, type, T::E8M0, c);
        if (fast != literal || convert != literal) {
          if (++mismatches <= 20) {
            ADD_FAILURE() << Where(type, code | junk, c) << ": fast " << Show(fast) << " convert "
                          << Show(convert) << " literal " << Show(literal);
          }
        }
      }
    }
  }
  EXPECT_EQ(mismatches, 0);
  return counts;
}

TEST(FastFloatToE8M0, EveryFP16CodeEveryModeBothSat) {
  const StatusCounts counts = CheckEvery16BitCode(T::FP16);
  // Hand-counted: NV for 0x8000 negative codes, +0 and 1023 positive NaNs; OF only +Inf; no UF;
  // 40 powers of two 2^-24 .. 2^15; the rest inexact.
  EXPECT_EQ(counts.nv, 32768 + 1 + 1023);
  EXPECT_EQ(counts.of, 1);
  EXPECT_EQ(counts.uf, 0);
  EXPECT_EQ(counts.exact, 40);
  EXPECT_EQ(counts.nx, 65536 - 33792 - 1 - 40);
}

TEST(FastFloatToE8M0, EveryBF16CodeEveryModeBothSat) {
  const StatusCounts counts = CheckEvery16BitCode(T::BF16);
  // Hand-counted: NV for 0x8000 negative codes, +0 and 127 positive NaNs; OF for +Inf and the
  // 127 codes 0x7F01..0x7F7F; UF for the 63 subnormals 0x0001..0x003F; 255 powers of two
  // 2^-127 .. 2^127; the rest inexact.
  EXPECT_EQ(counts.nv, 32768 + 1 + 127);
  EXPECT_EQ(counts.of, 1 + 127);
  EXPECT_EQ(counts.uf, 63);
  EXPECT_EQ(counts.exact, 255);
  EXPECT_EQ(counts.nx, 65536 - 32896 - 128 - 63 - 255);
}

TEST(FastFloatToE8M0, ModeValuesOutsideTheSevenAgreeWithTheLiteralFunction) {
  // A NumericRoundingMode holds any 8-bit value. The literal function reaches its only mode
  // assertion (seed 001 line 98) on a square tie, which cannot happen, so every other value
  // rounds like the nearest modes there; the fast form must agree (and not throw).
  const std::vector<Word> words = {0x3F800000, 0x3FB504F3, 0x3FB504F4, 0x3FC00000,
                                   0x00600000, 0x00000001, 0x7F7FFFFF, 0x7F800000,
                                   0xBF800000, 0x7FC00000, 0x3E000001, 0x4B3504F3};
  for (unsigned mode = 7; mode <= 255; ++mode) {
    for (const bool sat : {false, true}) {
      const NumericExecutionControl c{static_cast<M>(mode), sat};
      const NumericExecutionControl rne{M::RNE, sat};
      for (const Word w : words) {
        ASSERT_EQ(ReferenceFloatToE8M0(w, T::FP32, c), ReferenceFloatToE8M0(w, T::FP32, rne))
            << Hex(w) << " mode " << mode;
        ASSERT_EQ(FastFloatToE8M0(w, T::FP32, c), ReferenceFloatToE8M0(w, T::FP32, c))
            << Hex(w) << " mode " << mode;
      }
    }
  }
}

TEST(FastTileProfileConvert, EveryPairAgreesWithTheLiteralFunction) {
  const std::vector<T> all = {T::FP64,   T::FP32, T::TF32, T::HF32, T::FP16,   T::BF16,   T::HiF8,
                              T::E4M3,   T::E5M2, T::E3M2, T::E2M3, T::E2M1X2, T::E1M2X2, T::E8M0,
                              T::HiF4X2, T::S64,  T::S32,  T::S16,  T::S8,     T::S4X2,   T::U64,
                              T::U32,    T::U16,  T::U8,   T::U4X2};
  const std::vector<Word> words = {0,          1,          0x7F,       0x80,
                                   0xFF,       0x3C00,     0x8000,     0xFFFF,
                                   0x3F800000, 0x80000000, 0xFFFFFFFF, 0x123456789ABCDEF0,
                                   ~Word{0}};
  long compared = 0;
  for (const T src : all) {
    for (const T dst : all) {
      if (dst == T::E8M0 && !HardwareTCVTE8M0SourceTypeSupported(src)) continue;  // asserts
      for (const Word w : words) {
        for (const NumericExecutionControl c : kControls) {
          ASSERT_EQ(FastTileProfileConvert(w, src, dst, c), TileProfileConvert(w, src, dst, c))
              << "type " << static_cast<int>(src) << " -> type " << static_cast<int>(dst) << " "
              << Hex(w);
          ++compared;
        }
      }
    }
  }
  // Spot values: integer destinations normalize, floating ones keep the word.
  const NumericExecutionControl rne{};
  EXPECT_EQ(FastTileProfileConvert(0x80, T::FP32, T::S8, rne), Encoded({0xFFFFFFFFFFFFFF80, 0}));
  EXPECT_EQ(FastTileProfileConvert(0x1FF, T::FP32, T::U8, rne), Encoded({0xFF, 0}));
  EXPECT_EQ(FastTileProfileConvert(0x123456789ABCDEF0, T::FP32, T::FP16, rne),
            Encoded({0x123456789ABCDEF0, 0}));
  EXPECT_EQ(FastTileProfileConvert(0x3F800000, T::FP32, T::E8M0, rne), Encoded({0x7F, 0}));
  EXPECT_EQ(compared, (25 * 25 - 22) * 13 * 14);
}

// ---------------------------------------------------------------------------------------------
// FP32 properties.

void CompareFP32(Word word) {
  for (const NumericExecutionControl c : kControls) {
    const Encoded literal = ReferenceFloatToE8M0(word, T::FP32, c);
    const Encoded fast = FastFloatToE8M0(word, T::FP32, c);
    if (fast != literal) {
      RC_FAIL(Where(T::FP32, word, c) + ": fast " + Show(fast) + " literal " + Show(literal));
    }
  }
}

// floor(sqrt(2) * 2^j) for j = 0..22: the subnormal fractions next to sqrt(2) * 2^(j-149).
std::uint32_t Sqrt2Fraction(int j) {
  return static_cast<std::uint32_t>(
      boost::multiprecision::sqrt(Integer(1) << static_cast<unsigned>(2 * j + 1)));
}

// A targeted FP32 word (bits 31:0).
rc::Gen<std::uint32_t> GenTargetedFP32() {
  const auto sign = rc::gen::weightedElement<std::uint32_t>({{4, 0u}, {1, 0x80000000u}});
  return rc::gen::oneOf(
      // A power of two (normal) and its neighbours: fraction near 0 or near all ones.
      rc::gen::apply(
          [](std::uint32_t s, std::uint32_t e, int delta) {
            const std::uint32_t f = delta >= 0 ? static_cast<std::uint32_t>(delta)
                                               : 0x800000u - static_cast<std::uint32_t>(-delta);
            return s | (e << 23) | f;
          },
          sign, rc::gen::inRange(1u, 255u), rc::gen::inRange(-4, 5)),
      // sqrt(2) * 2^k neighbours, normal: fraction 0x3504F3 +/- a few.
      rc::gen::apply(
          [](std::uint32_t s, std::uint32_t e, int delta) {
            return s | (e << 23) | static_cast<std::uint32_t>(0x3504F3 + delta);
          },
          sign, rc::gen::inRange(1u, 255u), rc::gen::inRange(-4, 5)),
      // Subnormal powers of two and their neighbours.
      rc::gen::apply(
          [](int j, int delta) {
            const std::int64_t f = (std::int64_t{1} << j) + delta;
            return static_cast<std::uint32_t>(f < 1 ? 1 : f > 0x7FFFFF ? 0x7FFFFF : f);
          },
          rc::gen::inRange(0, 23), rc::gen::inRange(-3, 4)),
      // Subnormal sqrt(2) * 2^k neighbours.
      rc::gen::apply(
          [](int j, int delta) {
            const std::int64_t f = std::int64_t{Sqrt2Fraction(j)} + delta;
            return static_cast<std::uint32_t>(f < 1 ? 1 : f > 0x7FFFFF ? 0x7FFFFF : f);
          },
          rc::gen::inRange(0, 23), rc::gen::inRange(-3, 4)),
      // Any subnormal, either sign.
      rc::gen::apply([](std::uint32_t s, std::uint32_t f) { return s | f; }, sign,
                     rc::gen::inRange(0u, 0x800000u)),
      // The 2^126 and 2^127 binades (exponent fields 253 and 254), any fraction.
      rc::gen::apply([](std::uint32_t e, std::uint32_t f) { return (e << 23) | f; },
                     rc::gen::inRange(253u, 255u), rc::gen::inRange(0u, 0x800000u)),
      // NaN, Inf, zeros: exponent field 255 or 0 with a fraction of 0, 1, the quiet bit, or any.
      rc::gen::apply([](std::uint32_t s, bool top,
                        std::uint32_t f) { return s | (top ? 0x7F800000u : 0u) | f; },
                     sign, rc::gen::arbitrary<bool>(),
                     rc::gen::oneOf(rc::gen::element(0u, 1u, 0x400000u, 0x7FFFFFu),
                                    rc::gen::inRange(0u, 0x800000u))),
      // Negative values, any.
      rc::gen::map(rc::gen::arbitrary<std::uint32_t>(),
                   [](std::uint32_t w) { return w | 0x80000000u; }));
}

RC_GTEST_PROP(FastFloatToE8M0, RandomFP32CarriersEveryModeBothSat, ()) {
  // 1000 words per case: any 64-bit carrier (the bits above 31 are ignored).
  const auto words =
      *rc::gen::container<std::vector<std::uint64_t>>(1000, rc::gen::arbitrary<std::uint64_t>());
  for (const std::uint64_t w : words) CompareFP32(w);
}

RC_GTEST_PROP(FastFloatToE8M0, TargetedFP32WordsEveryModeBothSat, ()) {
  const auto words = *rc::gen::container<std::vector<std::uint32_t>>(1000, GenTargetedFP32());
  for (const std::uint32_t w : words) CompareFP32(w);
}

TEST(FastFloatToE8M0, FP32NeighboursOfEveryPowerAndSqrt2Boundary) {
  // Deterministic sweep of every exponent field's boundary words (both signs) and every
  // subnormal power of two and sqrt(2) fraction with their neighbours.
  long compared = 0;
  const auto compare = [&](Word w) {
    for (const NumericExecutionControl c : kControls) {
      ASSERT_EQ(FastFloatToE8M0(w, T::FP32, c), ReferenceFloatToE8M0(w, T::FP32, c))
          << Where(T::FP32, w, c);
      ++compared;
    }
  };
  for (Word s : {Word{0}, Word{0x80000000}}) {
    for (Word e = 0; e <= 255; ++e) {
      for (Word f : {0x0u, 0x1u, 0x2u, 0x7FFFFFu, 0x7FFFFEu, 0x3504F2u, 0x3504F3u, 0x3504F4u,
                     0x3504F5u, 0x400000u}) {
        compare(s | (e << 23) | f);
      }
    }
  }
  for (int j = 0; j <= 22; ++j) {
    const Word root = Sqrt2Fraction(j);
    for (Word f :
         {root - 1, root, root + 1, (Word{1} << j) - 1, Word{1} << j, (Word{1} << j) + 1}) {
      if (f == 0 || f > 0x7FFFFF) continue;
      compare(f);
    }
  }
  EXPECT_EQ(compared, (2 * 256 * 10 + 23 * 6 - 2) * 14);  // j = 0: f = 0 and f = root - 1 = 0
}

// ---------------------------------------------------------------------------------------------
// FastTileProfileConvertControls: one word under several controls, equal to FastTileProfileConvert
// control by control (which the tests above prove equal to the literal function).

// The differences between the controls form and FastTileProfileConvert for word w.
int ControlsFormDifferences(Word w, T src, T dst,
                            const std::vector<NumericExecutionControl>& controls) {
  std::vector<Encoded> batch(controls.size());
  FastTileProfileConvertControls(w, src, dst, controls.data(), controls.size(), batch.data());
  int differences = 0;
  for (std::size_t k = 0; k < controls.size(); ++k) {
    if (batch[k] != FastTileProfileConvert(w, src, dst, controls[k])) {
      ADD_FAILURE() << Where(src, w, controls[k]) << " into " << Format(dst).spec_name;
      ++differences;
    }
  }
  return differences;
}

TEST(FastTileProfileConvertControls, EveryFP16AndBF16CodeEveryControlInAnyOrder) {
  const std::vector<NumericExecutionControl> all(kControls.begin(), kControls.end());
  const std::vector<NumericExecutionControl> reversed(kControls.rbegin(), kControls.rend());
  const std::vector<NumericExecutionControl> one = {{M::RTO, true}};
  int differences = 0;
  for (const T src : {T::FP16, T::BF16}) {
    for (Word w = 0; w < 0x10000; ++w) {
      differences += ControlsFormDifferences(w, src, T::E8M0, all);
      differences += ControlsFormDifferences(w, src, T::E8M0, reversed);
      differences += ControlsFormDifferences(w, src, T::E8M0, one);
      if (differences > 0) return;
    }
  }
  // Known answers through the controls form: FP32 1.5 (0x3FC00000) is 0x80 under RNE, 0x7F
  // under RTM; FP16 65504 (0x7BFF) is 0x8E under RTZ.
  Encoded out[2];
  const NumericExecutionControl rne_rtm[2] = {{M::RNE, false}, {M::RTM, true}};
  FastTileProfileConvertControls(0x3FC00000, T::FP32, T::E8M0, rne_rtm, 2, out);
  EXPECT_EQ(out[0], Encoded({0x80, 0x10}));
  EXPECT_EQ(out[1], Encoded({0x7F, 0x10}));
  const NumericExecutionControl rtz{M::RTZ, false};
  FastTileProfileConvertControls(0x7BFF, T::FP16, T::E8M0, &rtz, 1, out);
  EXPECT_EQ(out[0], Encoded({0x8E, 0x10}));
  EXPECT_EQ(differences, 0);
}

TEST(FastTileProfileConvertControls, RawCopyPairsAndIllegalSources) {
  const std::vector<NumericExecutionControl> all(kControls.begin(), kControls.end());
  for (const Word w : {Word{0}, Word{0x80}, Word{0x1FF}, Word{0x123456789ABCDEF0}}) {
    EXPECT_EQ(ControlsFormDifferences(w, T::FP32, T::S8, all), 0);
    EXPECT_EQ(ControlsFormDifferences(w, T::FP32, T::U8, all), 0);
    EXPECT_EQ(ControlsFormDifferences(w, T::FP32, T::FP16, all), 0);
  }
  Encoded out[1];
  EXPECT_THROW(FastTileProfileConvertControls(0x3C00, T::E4M3, T::E8M0, kControls.data(), 1, out),
               SeedAssertionFailure);
}

RC_GTEST_PROP(FastTileProfileConvertControls, RandomAndTargetedFP32WordsEveryControl, ()) {
  const std::vector<NumericExecutionControl> all(kControls.begin(), kControls.end());
  const auto words = *rc::gen::container<std::vector<std::uint32_t>>(
      500, rc::gen::oneOf(GenTargetedFP32(), rc::gen::arbitrary<std::uint32_t>()));
  for (const std::uint32_t w : words)
    RC_ASSERT(ControlsFormDifferences(w, T::FP32, T::E8M0, all) == 0);
}

// ---------------------------------------------------------------------------------------------
// Every FP32 word (long; disabled by default).

class FastFloatToE8M0Long : public testing::TestWithParam<int> {};

TEST_P(FastFloatToE8M0Long, DISABLED_EveryFP32WordEveryControl) {
  // Shard i of 16: the words with bits 31:28 == i (sign and exponent bits 7:5), so shard i < 8
  // holds exponent fields 32i .. 32i+31 and shards 8..15 only negative words.
  const int shard = GetParam();
  const Word begin = static_cast<Word>(shard) << 28;
  const Word end = begin + (Word{1} << 28);
  StatusCounts counts;
  long mismatches = 0;
  long compared = 0;
  for (Word w = begin; w < end; ++w) {
    Encoded batch[14];
    FastTileProfileConvertControls(w, T::FP32, T::E8M0, kControls.data(), kControls.size(), batch);
    for (std::size_t k = 0; k < kControls.size(); ++k) {
      const NumericExecutionControl c = kControls[k];
      const Encoded literal = ReferenceFloatToE8M0(w, T::FP32, c);
      const Encoded fast = FastFloatToE8M0(w, T::FP32, c);
      ++compared;
      if ((fast != literal || batch[k] != literal) && ++mismatches <= 20) {
        ADD_FAILURE() << Where(T::FP32, w, c) << ": fast " << Show(fast) << " controls form "
                      << Show(batch[k]) << " literal " << Show(literal);
      }
      if (c.rounding_mode == M::RNE && !c.saturating) Count(counts, literal.status);
    }
  }
  EXPECT_EQ(mismatches, 0);
  EXPECT_EQ(compared, (long{1} << 28) * 14);
  // Hand-counted statuses (RNE, no Sat). Exponent field 0: +0 NV, fractions 1 .. 2^22-1 UF,
  // 2^22 exact, the rest inexact. Fields 1..253: one exact, 2^23-1 inexact. Field 254: one
  // exact (2^127), 2^23-1 OF. Field 255: +Inf OF, 2^23-1 NaNs NV.
  const long binade = long{1} << 23;
  StatusCounts want;
  if (shard >= 8) {
    want.nv = long{1} << 28;
  } else if (shard == 0) {
    want.nv = 1;
    want.uf = (binade / 2) - 1;
    want.exact = 1 + 31;
    want.nx = (binade / 2 - 1) + 31 * (binade - 1);
  } else if (shard == 7) {
    want.exact = 31;              // fields 224 .. 254
    want.nx = 30 * (binade - 1);  // fields 224 .. 253
    want.of = (binade - 1) + 1;   // field 254 above 2^127, and +Inf
    want.nv = binade - 1;         // NaNs
  } else {
    want.exact = 32;
    want.nx = 32 * (binade - 1);
  }
  EXPECT_EQ(counts.nv, want.nv);
  EXPECT_EQ(counts.of, want.of);
  EXPECT_EQ(counts.uf, want.uf);
  EXPECT_EQ(counts.exact, want.exact);
  EXPECT_EQ(counts.nx, want.nx);
}

INSTANTIATE_TEST_SUITE_P(Long, FastFloatToE8M0Long, testing::Range(0, 16));

}  // namespace
}  // namespace fast_e8m0_test
}  // namespace ptovec::oracle
