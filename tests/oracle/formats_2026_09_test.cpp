// Tests of the format table's rows for the types edition 2026-09 adds: FP64, E6M2, RCPE6M2,
// E2M1X2 and E1M2X2 (one 4-bit lane each). Expected values are written out by hand from the
// ASL of /work/shared/spec-2026-09 (e6m2.asl, rcpe6m2.asl, e2m1x2.asl, e1m2x2.asl, the table
// of ReferencePacked4FiniteValue in packed-conversion.asl lines 3-27) and IEEE binary64; the
// exhaustive checks compare every code against formulas written here.
#include <gtest/gtest.h>

#include <map>
#include <string>
#include <vector>

#include "ptovec/oracle/formats.hpp"
#include "ptovec/oracle/numeric.hpp"
#include "test_support.hpp"

namespace ptovec::oracle {
namespace formats_2026_09_test {
namespace {

using test_support::Hex;
using test_support::Pow2;
using test_support::Q;

using C = NumericValueClass;
using T = TileDataType;

TEST(FormatTable2026_09, TheFiveRowsFollowEdition0583sRows) {
  const auto old_rows = AllFormats();
  const auto all_rows = AllFormats2026_09();
  ASSERT_EQ(old_rows.size(), 17U);
  ASSERT_EQ(all_rows.size(), 22U);
  for (std::size_t i = 0; i < old_rows.size(); ++i) {
    EXPECT_EQ(&old_rows[i], &all_rows[i]) << i;  // a prefix: edition 0.58.3's order unchanged
  }
  const std::vector<T> added = {T::FP64, T::E6M2, T::RCPE6M2, T::E2M1X2, T::E1M2X2};
  for (std::size_t i = 0; i < added.size(); ++i) {
    EXPECT_EQ(all_rows[17 + i].type, added[i]) << i;
    EXPECT_EQ(&Format(added[i]), &all_rows[17 + i]) << i;
    EXPECT_TRUE(TileDataTypeIsFloating(added[i])) << i;
    EXPECT_TRUE(Format(added[i]).IsFloating()) << i;
    EXPECT_FALSE(TileDataTypeIsSigned(added[i])) << i;
  }
}

TEST(FormatTable2026_09, RowsCodesWidthsAndLayouts) {
  struct Row {
    T type;
    const char* name;
    int tile_code;
    int code;
    unsigned width;
    FormatKind kind;
    Word sign_bit;
    Word nan_code;
    Word infinity_code;
    Word largest_finite_code;
  };
  const std::vector<Row> rows = {
      {T::FP64, "fp64", 0, 0, 64, FormatKind::Binary, Word{1} << 63, kNoCode, 0x7FF0000000000000,
       0x7FEFFFFFFFFFFFFF},
      {T::E6M2, "e6m2", -1, 33, 8, FormatKind::UnsignedNormal, 0, 0xFF, kNoCode, 0xFE},
      {T::RCPE6M2, "rcpe6m2", -1, 34, 8, FormatKind::ReciprocalE6M2, 0, 0xFF, kNoCode, 0x00},
      {T::E2M1X2, "e2m1x2", 11, 11, 4, FormatKind::BinaryFinite, 0x8, kNoCode, kNoCode, 0x7},
      {T::E1M2X2, "e1m2x2", 12, 12, 4, FormatKind::FixedPoint, 0x8, kNoCode, kNoCode, 0x7},
  };
  for (const Row& r : rows) {
    const FormatInfo& f = Format(r.type);
    EXPECT_EQ(f.name, r.name);
    EXPECT_EQ(f.tile_code, r.tile_code) << r.name;
    EXPECT_EQ(static_cast<int>(f.type), r.code) << r.name;
    EXPECT_EQ(f.width, r.width) << r.name;
    EXPECT_EQ(f.kind, r.kind) << r.name;
    EXPECT_EQ(f.SignBit(), r.sign_bit) << r.name;
    EXPECT_EQ(f.nan_code, r.nan_code) << r.name;
    EXPECT_EQ(f.infinity_code, r.infinity_code) << r.name;
    EXPECT_EQ(f.largest_finite_code, r.largest_finite_code) << r.name;
  }
  EXPECT_EQ(Format(T::FP64).exponent_bits, 11U);
  EXPECT_EQ(Format(T::FP64).fraction_bits, 52U);
  EXPECT_EQ(Format(T::FP64).bias, 1023);
  EXPECT_EQ(Format(T::E6M2).exponent_bits, 6U);
  EXPECT_EQ(Format(T::E6M2).fraction_bits, 2U);
  EXPECT_EQ(Format(T::E6M2).bias, 48);
  EXPECT_EQ(Format(T::E2M1X2).bias, 1);
  EXPECT_EQ(Format(T::E2M1X2).StorageBytes(), 1U);
  EXPECT_EQ(Format(T::E2M1X2).HexDigits(), 1U);
  EXPECT_EQ(Format(T::FP64).StorageBytes(), 8U);
  EXPECT_EQ(Format(T::FP64).HexDigits(), 16U);
}

struct Case {
  T type;
  Word code;
  C value_class;
  Real value;  // unused for NaN and Inf
};

// Hand-checked codes: the ASL's own formulas evaluated by hand.
std::vector<Case> HandCheckedCodes() {
  return {
      // E2M1X2: ReferencePacked4FiniteValue's table (packed-conversion.asl lines 12-21).
      {T::E2M1X2, 0x0, C::PositiveZero, 0},
      {T::E2M1X2, 0x8, C::NegativeZero, 0},
      {T::E2M1X2, 0x1, C::PositiveSubnormal, Q(1, 2)},
      {T::E2M1X2, 0x9, C::NegativeSubnormal, Q(-1, 2)},
      {T::E2M1X2, 0x2, C::PositiveNormal, 1},
      {T::E2M1X2, 0x3, C::PositiveNormal, Q(3, 2)},
      {T::E2M1X2, 0x4, C::PositiveNormal, 2},
      {T::E2M1X2, 0x5, C::PositiveNormal, 3},
      {T::E2M1X2, 0x6, C::PositiveNormal, 4},
      {T::E2M1X2, 0x7, C::PositiveNormal, 6},
      {T::E2M1X2, 0xF, C::NegativeNormal, -6},
      {T::E2M1X2, 0xA, C::NegativeNormal, -1},
      {T::E2M1X2, 0xF7, C::PositiveNormal, 6},  // a lane is value[3:0]: bits above ignored
      // E1M2X2: magnitude / 4 (packed-conversion.asl line 23; e1m2x2.asl lines 24-30).
      {T::E1M2X2, 0x0, C::PositiveZero, 0},
      {T::E1M2X2, 0x8, C::NegativeZero, 0},
      {T::E1M2X2, 0x1, C::PositiveNormal, Q(1, 4)},
      {T::E1M2X2, 0x4, C::PositiveNormal, 1},
      {T::E1M2X2, 0x7, C::PositiveNormal, Q(7, 4)},
      {T::E1M2X2, 0xF, C::NegativeNormal, Q(-7, 4)},
      {T::E1M2X2, 0x9, C::NegativeNormal, Q(-1, 4)},
      // E6M2: (4 + c[1:0])/4 * 2^(c[7:2] - 48) (e6m2.asl lines 41-47); 0xFF quiet NaN.
      {T::E6M2, 0x00, C::PositiveNormal, Pow2(-48)},
      {T::E6M2, 0x01, C::PositiveNormal, Q(5, 4) * Pow2(-48)},
      {T::E6M2, 0x03, C::PositiveNormal, Q(7, 4) * Pow2(-48)},
      {T::E6M2, 0xBF, C::PositiveNormal, Q(7, 8)},
      {T::E6M2, 0xC0, C::PositiveNormal, 1},
      {T::E6M2, 0xC1, C::PositiveNormal, Q(5, 4)},
      {T::E6M2, 0xFC, C::PositiveNormal, 32768},
      {T::E6M2, 0xFD, C::PositiveNormal, 40960},
      {T::E6M2, 0xFE, C::PositiveNormal, 49152},
      {T::E6M2, 0xFF, C::QuietNaN, 0},
      // RCPE6M2: 1 / E6M2 (rcpe6m2.asl lines 29-33).
      {T::RCPE6M2, 0x00, C::PositiveNormal, Pow2(48)},
      {T::RCPE6M2, 0xC0, C::PositiveNormal, 1},
      {T::RCPE6M2, 0xC1, C::PositiveNormal, Q(4, 5)},
      {T::RCPE6M2, 0xC3, C::PositiveNormal, Q(4, 7)},
      {T::RCPE6M2, 0xFE, C::PositiveNormal, Q(1, 49152)},
      {T::RCPE6M2, 0xFF, C::QuietNaN, 0},
      // FP64: IEEE binary64.
      {T::FP64, 0x3FF0000000000000, C::PositiveNormal, 1},
      {T::FP64, 0xC000000000000000, C::NegativeNormal, -2},
      {T::FP64, 0x0000000000000001, C::PositiveSubnormal, Pow2(-1074)},
      {T::FP64, 0x000FFFFFFFFFFFFF, C::PositiveSubnormal,
       Real((Integer(1) << 52) - 1) * Pow2(-1074)},
      {T::FP64, 0x0010000000000000, C::PositiveNormal, Pow2(-1022)},
      {T::FP64, 0x7FEFFFFFFFFFFFFF, C::PositiveNormal, Real((Integer(1) << 53) - 1) * Pow2(971)},
      {T::FP64, 0x8000000000000000, C::NegativeZero, 0},
      {T::FP64, 0x7FF0000000000000, C::PositiveInfinity, 0},
      {T::FP64, 0xFFF0000000000000, C::NegativeInfinity, 0},
      {T::FP64, 0x7FF8000000000000, C::QuietNaN, 0},
      {T::FP64, 0x7FF0000000000001, C::SignalingNaN, 0},
  };
}

TEST(FormatTable2026_09, HandCheckedCodesClassesAndValues) {
  for (const Case& c : HandCheckedCodes()) {
    const std::string where = std::string(Format(c.type).name) + " " + Hex(c.code);
    EXPECT_EQ(TileNumericValueClass(c.type, c.code), c.value_class) << where;
    if (NumericValueClassIsNaN(c.value_class) || NumericValueClassIsInfinity(c.value_class)) {
      EXPECT_FALSE(TileNumericValueIsFinite(c.type, c.code)) << where;
      EXPECT_FALSE(TileNumericFiniteDecomposition(c.type, c.code).available) << where;
      EXPECT_THROW(TileNumericFiniteValue(c.type, c.code), std::domain_error) << where;
    } else {
      EXPECT_TRUE(TileNumericValueIsFinite(c.type, c.code)) << where;
      EXPECT_EQ(TileNumericFiniteValue(c.type, c.code), c.value) << where;
    }
  }
}

TEST(FormatTable2026_09, DecompositionsAreTheAslOnes) {
  struct Row {
    T type;
    Word code;
    bool negative;
    Word significand;
    int exponent;
  };
  const std::vector<Row> rows = {
      {T::E2M1X2, 0x0, false, 0, 0},
      {T::E2M1X2, 0x8, true, 0, 0},  // lines 27-29
      {T::E2M1X2, 0x1, false, 1, -1},
      {T::E2M1X2, 0x7, false, 3, 1},  // lines 30-35
      {T::E2M1X2, 0xA, true, 2, -1},
      {T::E1M2X2, 0x0, false, 0, 0},  // e1m2x2 lines 26-28
      {T::E1M2X2, 0xD, true, 5, -2},
      {T::E6M2, 0x00, false, 4, -50},  // e6m2 lines 35-38
      {T::E6M2, 0xC1, false, 5, -2},
      {T::E6M2, 0xFE, false, 6, 13},
      {T::FP64, 0x3FF0000000000000, false, Word{1} << 52, -52},
      {T::FP64, 0x8000000000000001, true, 1, -1074},
  };
  for (const Row& r : rows) {
    const FiniteDecomposition d = TileNumericFiniteDecomposition(r.type, r.code);
    const std::string where = std::string(Format(r.type).name) + " " + Hex(r.code);
    EXPECT_TRUE(d.available) << where;
    EXPECT_EQ(d.negative, r.negative) << where;
    EXPECT_EQ(d.significand, r.significand) << where;
    EXPECT_EQ(d.exponent, r.exponent) << where;
  }
  // RCPE6M2FiniteDecomposition is unavailable for every code (rcpe6m2.asl lines 35-43).
  for (Word code = 0; code < 256; ++code) {
    EXPECT_FALSE(TileNumericFiniteDecomposition(T::RCPE6M2, code).available) << code;
  }
}

// Every code of the 4- and 8-bit formats: its value by a formula written here, its class, its
// decomposition, and the round trip value -> code (no two finite codes but +/-0 share a value).
Real ExpectedValue(T type, Word code) {
  const Word c = LowBits(code, Format(type).width);
  switch (type) {
    case T::E2M1X2: {
      static const Real kTable[8] = {0, Q(1, 2), 1, Q(3, 2), 2, 3, 4, 6};
      return (c & 8) != 0 ? Real(-kTable[c & 7]) : kTable[c & 7];
    }
    case T::E1M2X2:
      return Q((c & 8) != 0 ? -static_cast<long long>(c & 7) : static_cast<long long>(c & 7), 4);
    case T::E6M2:
      return Q(static_cast<long long>(4 + (c & 3)), 4) * Pow2(static_cast<int>(c >> 2) - 48);
    default:  // RCPE6M2
      return Q(4, static_cast<long long>(4 + (c & 3))) * Pow2(48 - static_cast<int>(c >> 2));
  }
}

TEST(FormatTable2026_09, EveryNarrowCodeDecodesAndRoundTrips) {
  for (const T type : {T::E2M1X2, T::E1M2X2, T::E6M2, T::RCPE6M2}) {
    const FormatInfo& f = Format(type);
    std::map<Real, Word> code_of_value;
    for (Word code = 0; code < (Word{1} << f.width); ++code) {
      const std::string where = std::string(f.name) + " " + Hex(code);
      const bool nan_code = f.width == 8 && code == 0xFF;
      EXPECT_EQ(TileNumericValueIsFinite(type, code), !nan_code) << where;
      if (nan_code) {
        EXPECT_EQ(TileNumericValueClass(type, code), C::QuietNaN) << where;
        continue;
      }
      const Real value = TileNumericFiniteValue(type, code);
      EXPECT_EQ(value, ExpectedValue(type, code)) << where;
      // Carrier bits above the element are ignored.
      EXPECT_EQ(TileNumericFiniteValue(type, code | ~LowBits(~Word{0}, f.width)), value) << where;
      const FiniteDecomposition d = TileNumericFiniteDecomposition(type, code);
      EXPECT_EQ(d.available, type != T::RCPE6M2) << where;
      if (d.available) {
        const Real magnitude = Real(Integer(d.significand)) * Pow2(d.exponent);
        EXPECT_EQ(d.negative ? Real(-magnitude) : magnitude, value) << where;
      }
      const C c = TileNumericValueClass(type, code);
      EXPECT_EQ(NumericValueClassIsZero(c), value == 0) << where;
      if (value == 0) continue;
      const auto [it, fresh] = code_of_value.emplace(value, code);
      EXPECT_TRUE(fresh) << where << " has the value of " << Hex(it->second);
    }
  }
}

TEST(FormatTable2026_09, NarrowCodesAreOrderedLikeTheirValues) {
  // E6M2: increasing in the code; RCPE6M2: decreasing; the packed lanes: increasing in the
  // magnitude code, negated by the sign bit.
  for (Word code = 0; code + 1 < 0xFF; ++code) {
    EXPECT_LT(TileNumericFiniteValue(T::E6M2, code), TileNumericFiniteValue(T::E6M2, code + 1));
    EXPECT_GT(TileNumericFiniteValue(T::RCPE6M2, code),
              TileNumericFiniteValue(T::RCPE6M2, code + 1));
    EXPECT_EQ(TileNumericFiniteValue(T::E6M2, code) * TileNumericFiniteValue(T::RCPE6M2, code), 1);
  }
  for (const T type : {T::E2M1X2, T::E1M2X2}) {
    for (Word code = 0; code < 7; ++code) {
      EXPECT_LT(TileNumericFiniteValue(type, code), TileNumericFiniteValue(type, code + 1));
      EXPECT_EQ(TileNumericFiniteValue(type, code | 8), -TileNumericFiniteValue(type, code));
    }
  }
  // E2M1X2 has exactly the subnormals 0x1 and 0x9; E1M2X2 none.
  for (Word code = 0; code < 16; ++code) {
    const C e2m1 = TileNumericValueClass(T::E2M1X2, code);
    const bool subnormal = e2m1 == C::PositiveSubnormal || e2m1 == C::NegativeSubnormal;
    EXPECT_EQ(subnormal, code == 0x1 || code == 0x9) << code;
    const C e1m2 = TileNumericValueClass(T::E1M2X2, code);
    EXPECT_NE(e1m2, C::PositiveSubnormal) << code;
    EXPECT_NE(e1m2, C::NegativeSubnormal) << code;
  }
}

TEST(FormatTable2026_09, Fp64CodesAroundEveryBinadeEdge) {
  // sign * (2^52 + f) * 2^(e - 1075) for normal e, f * 2^-1074 for e = 0: every exponent field,
  // with the fractions 0, 1 and all ones, both signs.
  for (Word e = 0; e < 2047; ++e) {
    for (const Word f : {Word{0}, Word{1}, (Word{1} << 52) - 1}) {
      for (const Word sign : {Word{0}, Word{1} << 63}) {
        const Word code = sign | (e << 52) | f;
        const Real magnitude =
            e == 0 ? Real(Integer(f)) * Pow2(-1074)
                   : Real((Integer(1) << 52) + f) * Pow2(static_cast<int>(e) - 1075);
        const Real want = sign != 0 ? Real(-magnitude) : magnitude;
        ASSERT_EQ(TileNumericFiniteValue(T::FP64, code), want) << Hex(code);
        const C c = TileNumericValueClass(T::FP64, code);
        const bool subnormal = c == C::PositiveSubnormal || c == C::NegativeSubnormal;
        ASSERT_EQ(subnormal, e == 0 && f != 0) << Hex(code);
      }
    }
  }
}

}  // namespace
}  // namespace formats_2026_09_test
}  // namespace ptovec::oracle
