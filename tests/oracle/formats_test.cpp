// Tests of the format table (spec-notes sections 1 and 4): value classes, exact values of the
// boundary codes, decompositions, integer normalization and range ends.
//
// Expected values are written out by hand from spec-notes section 4; the exhaustive checks compare
// against decoders written here independently (the HiF8/E4M3 one follows seed 000's
// ReferenceFP8FiniteValue, lines 263-317, with its (1 + m/8) * 2^e arithmetic).
#include "ptovec/oracle/formats.hpp"

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <cstdint>
#include <cstdio>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

#include "ptovec/oracle/numeric.hpp"
#include "test_support.hpp"

namespace ptovec::oracle {
namespace formats_test {
namespace {

using test_support::Pow2;
using test_support::Q;

using C = NumericValueClass;
using T = TileDataType;

struct ClassRow {
  T type;
  Word code;
  C expected;
};

struct ValueRow {
  T type;
  Word code;
  Real expected;
};

using test_support::Hex;

// ---------------------------------------------------------------------------------------------
// The table itself.

TEST(FormatTable, RowsCodesWidthsAndNames) {
  struct Row {
    T type;
    const char* name;
    const char* spec_name;
    int tile_code;
    unsigned width;
    bool floating;
    bool is_signed;
  };
  const std::vector<Row> rows = {
      {T::FP32, "fp32", "FP32", 1, 32, true, false},  {T::FP16, "fp16", "FP16", 4, 16, true, false},
      {T::BF16, "bf16", "BF16", 5, 16, true, false},  {T::HiF8, "hif8", "HiF8", 6, 8, true, false},
      {T::E4M3, "e4m3", "E4M3", 7, 8, true, false},   {T::E8M0, "e8m0", "E8M0", 13, 8, true, false},
      {T::FP19, "fp19", "FP19", -1, 19, true, false}, {T::S64, "s64", "S64", 16, 64, false, true},
      {T::S32, "s32", "S32", 17, 32, false, true},    {T::S16, "s16", "S16", 18, 16, false, true},
      {T::S8, "s8", "S8", 19, 8, false, true},        {T::S4X2, "s4x2", "S4X2", 20, 4, false, true},
      {T::U64, "u64", "U64", 24, 64, false, false},   {T::U32, "u32", "U32", 25, 32, false, false},
      {T::U16, "u16", "U16", 26, 16, false, false},   {T::U8, "u8", "U8", 27, 8, false, false},
      {T::U4X2, "u4x2", "U4X2", 28, 4, false, false},
  };
  EXPECT_EQ(AllFormats().size(), rows.size());
  for (const Row& r : rows) {
    const FormatInfo& f = Format(r.type);
    EXPECT_EQ(f.type, r.type);
    EXPECT_EQ(f.name, r.name);
    EXPECT_EQ(f.spec_name, r.spec_name);
    EXPECT_EQ(f.tile_code, r.tile_code) << r.name;
    if (r.tile_code >= 0) {
      EXPECT_EQ(static_cast<int>(r.type), r.tile_code) << r.name;
    }
    EXPECT_EQ(f.width, r.width) << r.name;
    EXPECT_EQ(f.IsFloating(), r.floating) << r.name;
    EXPECT_EQ(TileDataTypeIsFloating(r.type), r.floating) << r.name;
    EXPECT_EQ(TileDataTypeIsSigned(r.type), r.is_signed) << r.name;
    EXPECT_EQ(ParseTileDataType(r.name), r.type) << r.name;
    EXPECT_EQ(ParseTileDataType(r.spec_name), r.type) << r.spec_name;
  }
  // Binary layouts.
  EXPECT_EQ(Format(T::FP32).exponent_bits, 8U);
  EXPECT_EQ(Format(T::FP32).fraction_bits, 23U);
  EXPECT_EQ(Format(T::FP32).bias, 127);
  EXPECT_EQ(Format(T::FP16).exponent_bits, 5U);
  EXPECT_EQ(Format(T::FP16).fraction_bits, 10U);
  EXPECT_EQ(Format(T::FP16).bias, 15);
  EXPECT_EQ(Format(T::BF16).exponent_bits, 8U);
  EXPECT_EQ(Format(T::BF16).fraction_bits, 7U);
  EXPECT_EQ(Format(T::FP19).exponent_bits, 8U);
  EXPECT_EQ(Format(T::FP19).fraction_bits, 10U);
  EXPECT_EQ(Format(T::FP19).bias, 127);
  EXPECT_EQ(Format(T::E8M0).bias, 127);
  // Storage and hex digits.
  EXPECT_EQ(Format(T::S4X2).StorageBytes(), 1U);
  EXPECT_EQ(Format(T::S4X2).HexDigits(), 1U);
  EXPECT_EQ(Format(T::FP19).StorageBytes(), 4U);
  EXPECT_EQ(Format(T::FP19).HexDigits(), 5U);
  EXPECT_EQ(Format(T::FP16).StorageBytes(), 2U);
  EXPECT_EQ(Format(T::FP16).HexDigits(), 4U);
  EXPECT_EQ(Format(T::U64).StorageBytes(), 8U);
  EXPECT_EQ(Format(T::FP32).HexDigits(), 8U);
}

// The non-finite codes, negative zero and largest finite of each floating row, written out by
// hand from spec-notes section 4, and checked against the value classes: the row's codes have
// the classes they claim, and (for formats of at most 19 bits, every code) no other code is an
// infinity, and no finite code is larger than the largest finite.
TEST(FormatTable, NonFiniteCodesNegativeZeroAndLargestFinite) {
  struct Row {
    T type;
    FormatKind kind;
    Word sign_bit;
    bool negative_zero;
    Word nan_code;
    Word infinity_code;
    Word largest_finite_code;
  };
  const std::vector<Row> rows = {
      {T::FP32, FormatKind::Binary, 0x80000000, true, kNoCode, 0x7F800000, 0x7F7FFFFF},
      {T::FP16, FormatKind::Binary, 0x8000, true, kNoCode, 0x7C00, 0x7BFF},
      {T::BF16, FormatKind::Binary, 0x8000, true, kNoCode, 0x7F80, 0x7F7F},
      {T::FP19, FormatKind::Binary, 0x40000, true, kNoCode, 0x3FC00, 0x3FBFF},
      {T::E4M3, FormatKind::BinaryFN, 0x80, true, 0x7F, kNoCode, 0x7E},
      {T::HiF8, FormatKind::HiF8, 0x80, false, 0x80, 0x6F, 0x6E},
      {T::E8M0, FormatKind::E8M0, 0, false, 0xFF, kNoCode, 0xFE},
  };
  for (const Row& r : rows) {
    const FormatInfo& f = Format(r.type);
    const std::string name(f.name);
    EXPECT_EQ(f.kind, r.kind) << name;
    EXPECT_EQ(f.SignBit(), r.sign_bit) << name;
    EXPECT_EQ(f.negative_zero, r.negative_zero) << name;
    EXPECT_EQ(f.nan_code, r.nan_code) << name;
    EXPECT_EQ(f.infinity_code, r.infinity_code) << name;
    EXPECT_EQ(f.HasInfinities(), r.infinity_code != kNoCode) << name;
    EXPECT_EQ(f.largest_finite_code, r.largest_finite_code) << name;
    EXPECT_EQ(f.HasSignExponentFraction(),
              r.kind == FormatKind::Binary || r.kind == FormatKind::BinaryFN)
        << name;
    if (r.nan_code != kNoCode) {
      EXPECT_EQ(TileNumericValueClass(r.type, r.nan_code), C::QuietNaN) << name;
    }
    if (r.kind == FormatKind::BinaryFN) {  // S.1..1.1..1 with either sign
      EXPECT_EQ(TileNumericValueClass(r.type, r.sign_bit | r.nan_code), C::QuietNaN) << name;
    }
    if (r.infinity_code != kNoCode) {
      EXPECT_EQ(TileNumericValueClass(r.type, r.infinity_code), C::PositiveInfinity) << name;
      EXPECT_EQ(TileNumericValueClass(r.type, r.sign_bit | r.infinity_code), C::NegativeInfinity)
          << name;
    }
    if (r.sign_bit != 0) {
      const C zero_with_sign = TileNumericValueClass(r.type, r.sign_bit);
      EXPECT_EQ(zero_with_sign == C::NegativeZero, r.negative_zero) << name;
    }
    const Real largest = TileNumericFiniteValue(r.type, r.largest_finite_code);
    if (f.width > 19) continue;
    for (Word code = 0; code < (Word{1} << f.width); ++code) {
      const C c = TileNumericValueClass(r.type, code);
      if (NumericValueClassIsInfinity(c)) {
        EXPECT_TRUE(code == r.infinity_code || code == (r.sign_bit | r.infinity_code))
            << name << " " << code;
      } else if (!NumericValueClassIsNaN(c)) {
        EXPECT_LE(TileNumericFiniteValue(r.type, code), largest) << name << " " << code;
      }
    }
  }
}

TEST(FormatTable, TileDataTypeIsFloatingForEveryTileCode) {
  // Answered for every tile data type, modelled or not (seed 001 TileProfileConvert needs it).
  for (int code = 0; code <= 14; ++code) {
    EXPECT_TRUE(TileDataTypeIsFloating(static_cast<T>(code))) << code;
  }
  for (int code : {16, 17, 18, 19, 20, 24, 25, 26, 27, 28}) {
    EXPECT_FALSE(TileDataTypeIsFloating(static_cast<T>(code))) << code;
  }
  EXPECT_TRUE(TileDataTypeIsFloating(T::FP19));
  // Not a tile data type at all.
  EXPECT_THROW(TileDataTypeIsFloating(static_cast<T>(15)), std::invalid_argument);
  EXPECT_THROW(TileDataTypeIsFloating(static_cast<T>(31)), std::invalid_argument);
}

TEST(FormatTable, UnmodelledTypesAndNames) {
  for (T t : {T::TF32, T::HF32, T::E5M2, T::E3M2, T::E2M3, T::HiF4X2}) {
    EXPECT_THROW(Format(t), std::invalid_argument) << static_cast<int>(t);
  }
  // The types edition 2026-09 adds have rows (formats_2026_09_test.cpp), but the names of
  // edition 0.58.3 (the default) do not include them.
  for (const char* name : {"FP64", "e6m2", "rcpe6m2", "e2m1x2", "E1M2X2"}) {
    EXPECT_EQ(ParseTileDataType(name), std::nullopt) << name;
  }
  EXPECT_EQ(ParseTileDataType("e5m2"), std::nullopt);
  EXPECT_EQ(ParseTileDataType(""), std::nullopt);
  EXPECT_EQ(ParseTileDataType("fp1"), std::nullopt);
  EXPECT_EQ(ParseTileDataType("HIF8"), T::HiF8);
  const std::string list = FormatNamesList();
  EXPECT_NE(list.find("fp32"), std::string::npos);
  EXPECT_NE(list.find("u4x2"), std::string::npos);
  EXPECT_NE(list.find("hif8"), std::string::npos);
  EXPECT_EQ(list.find("fp64"), std::string::npos);
  EXPECT_EQ(list.find("e6m2"), std::string::npos);
}

TEST(FormatTable, ValueClassPredicatesAndNames) {
  EXPECT_TRUE(NumericValueClassIsNaN(C::QuietNaN));
  EXPECT_TRUE(NumericValueClassIsNaN(C::SignalingNaN));
  EXPECT_FALSE(NumericValueClassIsNaN(C::PositiveInfinity));
  EXPECT_FALSE(NumericValueClassIsNaN(C::InvalidEncoding));
  EXPECT_TRUE(NumericValueClassIsZero(C::PositiveZero));
  EXPECT_TRUE(NumericValueClassIsZero(C::NegativeZero));
  EXPECT_FALSE(NumericValueClassIsZero(C::PositiveSubnormal));
  EXPECT_TRUE(NumericValueClassIsInfinity(C::PositiveInfinity));
  EXPECT_TRUE(NumericValueClassIsInfinity(C::NegativeInfinity));
  EXPECT_FALSE(NumericValueClassIsInfinity(C::NegativeNormal));
  EXPECT_EQ(NumericValueClassName(C::InvalidEncoding), "InvalidEncoding");
  EXPECT_EQ(NumericValueClassName(C::NegativeSubnormal), "NegativeSubnormal");
  EXPECT_EQ(NumericValueClassName(C::SignalingNaN), "SignalingNaN");
}

// ---------------------------------------------------------------------------------------------
// Value classes of boundary codes.

TEST(FormatClasses, BoundaryCodes) {
  const std::vector<ClassRow> rows = {
      // FP32
      {T::FP32, 0x00000000, C::PositiveZero},
      {T::FP32, 0x80000000, C::NegativeZero},
      {T::FP32, 0x00000001, C::PositiveSubnormal},
      {T::FP32, 0x007FFFFF, C::PositiveSubnormal},
      {T::FP32, 0x80000001, C::NegativeSubnormal},
      {T::FP32, 0x00800000, C::PositiveNormal},
      {T::FP32, 0x7F7FFFFF, C::PositiveNormal},
      {T::FP32, 0xFF7FFFFF, C::NegativeNormal},
      {T::FP32, 0x7F800000, C::PositiveInfinity},
      {T::FP32, 0xFF800000, C::NegativeInfinity},
      {T::FP32, 0x7FC00000, C::QuietNaN},
      {T::FP32, 0xFFC00000, C::QuietNaN},
      {T::FP32, 0x7FFFFFFF, C::QuietNaN},
      {T::FP32, 0x7F800001, C::SignalingNaN},
      {T::FP32, 0x7FBFFFFF, C::SignalingNaN},
      {T::FP32, 0xFF800001, C::SignalingNaN},
      {T::FP32, 0xFFFFFFFF00000000ULL, C::PositiveZero},  // carrier bits above 32 ignored
      {T::FP32, 0x123456787F800000ULL, C::PositiveInfinity},
      // FP16
      {T::FP16, 0x0000, C::PositiveZero},
      {T::FP16, 0x8000, C::NegativeZero},
      {T::FP16, 0x0001, C::PositiveSubnormal},
      {T::FP16, 0x03FF, C::PositiveSubnormal},
      {T::FP16, 0x8001, C::NegativeSubnormal},
      {T::FP16, 0x0400, C::PositiveNormal},
      {T::FP16, 0x7BFF, C::PositiveNormal},
      {T::FP16, 0xFBFF, C::NegativeNormal},
      {T::FP16, 0x7C00, C::PositiveInfinity},
      {T::FP16, 0xFC00, C::NegativeInfinity},
      {T::FP16, 0x7E00, C::QuietNaN},
      {T::FP16, 0xFE00, C::QuietNaN},
      {T::FP16, 0x7C01, C::SignalingNaN},
      {T::FP16, 0x7DFF, C::SignalingNaN},
      {T::FP16, 0xFFFF7C00ULL, C::PositiveInfinity},  // bits above 16 ignored
      // BF16
      {T::BF16, 0x0000, C::PositiveZero},
      {T::BF16, 0x8000, C::NegativeZero},
      {T::BF16, 0x0001, C::PositiveSubnormal},
      {T::BF16, 0x007F, C::PositiveSubnormal},
      {T::BF16, 0x0080, C::PositiveNormal},
      {T::BF16, 0x7F7F, C::PositiveNormal},
      {T::BF16, 0xBF80, C::NegativeNormal},
      {T::BF16, 0x7F80, C::PositiveInfinity},
      {T::BF16, 0xFF80, C::NegativeInfinity},
      {T::BF16, 0x7FC0, C::QuietNaN},
      {T::BF16, 0x7F81, C::SignalingNaN},
      {T::BF16, 0x7FBF, C::SignalingNaN},
      // E4M3 (OCP FN: no infinities)
      {T::E4M3, 0x00, C::PositiveZero},
      {T::E4M3, 0x80, C::NegativeZero},
      {T::E4M3, 0x01, C::PositiveSubnormal},
      {T::E4M3, 0x07, C::PositiveSubnormal},
      {T::E4M3, 0x87, C::NegativeSubnormal},
      {T::E4M3, 0x08, C::PositiveNormal},
      {T::E4M3, 0x78, C::PositiveNormal},
      {T::E4M3, 0x7E, C::PositiveNormal},
      {T::E4M3, 0xFE, C::NegativeNormal},
      {T::E4M3, 0x7F, C::QuietNaN},
      {T::E4M3, 0xFF, C::QuietNaN},
      // HiF8
      {T::HiF8, 0x00, C::PositiveZero},
      {T::HiF8, 0x80, C::QuietNaN},
      {T::HiF8, 0x6F, C::PositiveInfinity},
      {T::HiF8, 0xEF, C::NegativeInfinity},
      {T::HiF8, 0x01, C::PositiveSubnormal},
      {T::HiF8, 0x07, C::PositiveSubnormal},
      {T::HiF8, 0x81, C::NegativeSubnormal},
      {T::HiF8, 0x87, C::NegativeSubnormal},
      {T::HiF8, 0x08, C::PositiveNormal},
      {T::HiF8, 0x0C, C::PositiveNormal},
      {T::HiF8, 0x6E, C::PositiveNormal},
      {T::HiF8, 0x7E, C::PositiveNormal},
      {T::HiF8, 0x7F, C::PositiveNormal},
      {T::HiF8, 0xEE, C::NegativeNormal},
      {T::HiF8, 0x88, C::NegativeNormal},
      // E8M0
      {T::E8M0, 0x00, C::PositiveNormal},
      {T::E8M0, 0x7F, C::PositiveNormal},
      {T::E8M0, 0xFE, C::PositiveNormal},
      {T::E8M0, 0xFF, C::QuietNaN},
      // FP19: sign bit 18, exponent 17:10, fraction 9:0
      {T::FP19, 0x00000, C::PositiveZero},
      {T::FP19, 0x40000, C::NegativeZero},
      {T::FP19, 0x00001, C::PositiveSubnormal},
      {T::FP19, 0x003FF, C::PositiveSubnormal},
      {T::FP19, 0x40001, C::NegativeSubnormal},
      {T::FP19, 0x00400, C::PositiveNormal},
      {T::FP19, 0x1FC00, C::PositiveNormal},
      {T::FP19, 0x3FBFF, C::PositiveNormal},
      {T::FP19, 0x5FC00, C::NegativeNormal},
      {T::FP19, 0x3FC00, C::PositiveInfinity},
      {T::FP19, 0x7FC00, C::NegativeInfinity},
      {T::FP19, 0x3FE00, C::QuietNaN},
      {T::FP19, 0x3FF00, C::QuietNaN},
      {T::FP19, 0x3FC01, C::SignalingNaN},
      {T::FP19, 0x3FDFF, C::SignalingNaN},
      {T::FP19, 0x81FC00, C::PositiveNormal},  // bit 23 is above the 19-bit width
  };
  for (const ClassRow& r : rows) {
    EXPECT_EQ(TileNumericValueClass(r.type, r.code), r.expected)
        << Format(r.type).name << " " << Hex(r.code) << ": got "
        << NumericValueClassName(TileNumericValueClass(r.type, r.code)) << ", want "
        << NumericValueClassName(r.expected);
  }
}

TEST(FormatClasses, IntegerTypesHaveNoValueClass) {
  for (T t : {T::S8, T::U8, T::S4X2, T::U4X2, T::S16, T::U16, T::S32, T::U32, T::S64, T::U64}) {
    EXPECT_EQ(TileNumericValueClass(t, 0), C::InvalidEncoding);
    EXPECT_EQ(TileNumericValueClass(t, 0x7F), C::InvalidEncoding);
    EXPECT_FALSE(TileNumericFiniteDecomposition(t, 1).available);
    EXPECT_THROW(TileNumericFiniteValue(t, 1), std::domain_error);
  }
}

// ---------------------------------------------------------------------------------------------
// Exact values of boundary codes.

TEST(FormatValues, BoundaryCodes) {
  const std::vector<ValueRow> rows = {
      // FP32
      {T::FP32, 0x00000000, Q(0)},
      {T::FP32, 0x80000000, Q(0)},
      {T::FP32, 0x00000001, Pow2(-149)},
      {T::FP32, 0x80000001, -Pow2(-149)},
      {T::FP32, 0x007FFFFF, Q(0x7FFFFF) * Pow2(-149)},
      {T::FP32, 0x00800000, Pow2(-126)},
      {T::FP32, 0x00400000, Pow2(-127)},
      {T::FP32, 0x3F800000, Q(1)},
      {T::FP32, 0xBF800000, Q(-1)},
      {T::FP32, 0x3FC00000, Q(3, 2)},
      {T::FP32, 0x40490FDB, Q(13176795) * Pow2(-22)},
      {T::FP32, 0x7F000000, Pow2(127)},
      {T::FP32, 0x7F7FFFFF, Q(0xFFFFFF) * Pow2(104)},
      {T::FP32, 0xFF7FFFFF, -Q(0xFFFFFF) * Pow2(104)},
      {T::FP32, 0xABCD00003F800000ULL, Q(1)},
      // FP16
      {T::FP16, 0x7BFF, Q(65504)},
      {T::FP16, 0xFBFF, Q(-65504)},
      {T::FP16, 0x0001, Pow2(-24)},
      {T::FP16, 0x8001, -Pow2(-24)},
      {T::FP16, 0x03FF, Q(1023) * Pow2(-24)},
      {T::FP16, 0x0400, Pow2(-14)},
      {T::FP16, 0x3C00, Q(1)},
      {T::FP16, 0x3E00, Q(3, 2)},
      {T::FP16, 0x3555, Q(1365) * Pow2(-12)},
      {T::FP16, 0xC000, Q(-2)},
      {T::FP16, 0x8000, Q(0)},
      // BF16
      {T::BF16, 0x3F80, Q(1)},
      {T::BF16, 0xBF80, Q(-1)},
      {T::BF16, 0x7F7F, Q(255) * Pow2(120)},
      {T::BF16, 0x0001, Pow2(-133)},
      {T::BF16, 0x007F, Q(127) * Pow2(-133)},
      {T::BF16, 0x0040, Pow2(-127)},
      {T::BF16, 0x0080, Pow2(-126)},
      {T::BF16, 0x3FB5, Q(181, 128)},
      // E4M3
      {T::E4M3, 0x7E, Q(448)},
      {T::E4M3, 0xFE, Q(-448)},
      {T::E4M3, 0x00, Q(0)},
      {T::E4M3, 0x80, Q(0)},
      {T::E4M3, 0x01, Pow2(-9)},
      {T::E4M3, 0x81, -Pow2(-9)},
      {T::E4M3, 0x07, Q(7, 512)},
      {T::E4M3, 0x08, Pow2(-6)},
      {T::E4M3, 0x38, Q(1)},
      {T::E4M3, 0x3C, Q(3, 2)},
      {T::E4M3, 0x77, Q(240)},
      {T::E4M3, 0x78, Q(256)},
      // HiF8
      {T::HiF8, 0x6E, Q(32768)},
      {T::HiF8, 0xEE, Q(-32768)},
      {T::HiF8, 0x7E, Pow2(-15)},
      {T::HiF8, 0x7F, Q(3) * Pow2(-16)},
      {T::HiF8, 0x01, Pow2(-22)},
      {T::HiF8, 0x81, -Pow2(-22)},
      {T::HiF8, 0x07, Pow2(-16)},
      {T::HiF8, 0x08, Q(1)},
      {T::HiF8, 0x0C, Q(3, 2)},
      {T::HiF8, 0x0F, Q(15, 8)},
      {T::HiF8, 0x10, Q(2)},
      {T::HiF8, 0x17, Q(15, 4)},
      {T::HiF8, 0x18, Q(1, 2)},
      {T::HiF8, 0x20, Q(4)},
      {T::HiF8, 0x28, Q(8)},
      {T::HiF8, 0x30, Q(1, 4)},
      {T::HiF8, 0x38, Q(1, 8)},
      {T::HiF8, 0x40, Q(16)},
      {T::HiF8, 0x4C, Q(128)},
      {T::HiF8, 0x50, Q(1, 16)},
      {T::HiF8, 0x5F, Q(7, 512)},
      {T::HiF8, 0x60, Q(256)},
      {T::HiF8, 0x61, Q(384)},
      {T::HiF8, 0x70, Q(1, 256)},
      {T::HiF8, 0x00, Q(0)},
      // E8M0
      {T::E8M0, 0x7F, Q(1)},
      {T::E8M0, 0x80, Q(2)},
      {T::E8M0, 0x7E, Q(1, 2)},
      {T::E8M0, 0xFE, Pow2(127)},
      {T::E8M0, 0x00, Pow2(-127)},
      // FP19
      {T::FP19, 0x1FC00, Q(1)},
      {T::FP19, 0x5FC00, Q(-1)},
      {T::FP19, 0x1FE00, Q(3, 2)},
      {T::FP19, 0x3FBFF, Q(2047) * Pow2(117)},
      {T::FP19, 0x00001, Pow2(-136)},
      {T::FP19, 0x003FF, Q(1023) * Pow2(-136)},
      {T::FP19, 0x00400, Pow2(-126)},
      {T::FP19, 0x40000, Q(0)},
      {T::FP19, 0x81FC00, Q(1)},
  };
  for (const ValueRow& r : rows) {
    EXPECT_EQ(TileNumericFiniteValue(r.type, r.code), r.expected)
        << Format(r.type).name << " " << Hex(r.code);
  }
}

TEST(FormatValues, NonFiniteCodesAreNotAvailable) {
  const std::vector<std::pair<T, Word>> rows = {
      {T::FP32, 0x7F800000}, {T::FP32, 0xFF800000}, {T::FP32, 0x7FC00000}, {T::FP32, 0x7F800001},
      {T::FP16, 0x7C00},     {T::FP16, 0x7E00},     {T::FP16, 0x7C01},     {T::BF16, 0x7F80},
      {T::BF16, 0xFFC0},     {T::E4M3, 0x7F},       {T::E4M3, 0xFF},       {T::HiF8, 0x80},
      {T::HiF8, 0x6F},       {T::HiF8, 0xEF},       {T::E8M0, 0xFF},       {T::FP19, 0x3FC00},
      {T::FP19, 0x3FF00},
  };
  for (const auto& [type, code] : rows) {
    EXPECT_FALSE(TileNumericFiniteDecomposition(type, code).available)
        << Format(type).name << " " << Hex(code);
    EXPECT_THROW(TileNumericFiniteValue(type, code), std::domain_error)
        << Format(type).name << " " << Hex(code);
  }
}

TEST(FormatValues, DecompositionIsTheRawSignificand) {
  struct Row {
    T type;
    Word code;
    bool negative;
    Word significand;
    int exponent;
  };
  const std::vector<Row> rows = {
      {T::FP32, 0x00000001, false, 1, -149},
      {T::FP32, 0x80000003, true, 3, -149},
      {T::FP32, 0x3F800000, false, 0x800000, -23},
      {T::FP32, 0x7F7FFFFF, false, 0xFFFFFF, 104},
      {T::FP16, 0x0001, false, 1, -24},
      {T::FP16, 0x3C00, false, 0x400, -10},
      {T::FP16, 0x7BFF, false, 0x7FF, 5},
      {T::BF16, 0x0001, false, 1, -133},
      {T::BF16, 0x3F80, false, 0x80, -7},
      {T::BF16, 0xFF7F, true, 0xFF, 120},
      {T::E8M0, 0x00, false, 1, -127},
      {T::E8M0, 0xFE, false, 1, 127},
      {T::E4M3, 0x7E, false, 14, 5},
      {T::E4M3, 0x01, false, 1, -9},
      {T::FP19, 0x00001, false, 1, -136},
      {T::FP19, 0x1FC00, false, 0x400, -10},
  };
  for (const Row& r : rows) {
    const FiniteDecomposition d = TileNumericFiniteDecomposition(r.type, r.code);
    EXPECT_TRUE(d.available) << Format(r.type).name << " " << Hex(r.code);
    EXPECT_EQ(d.negative, r.negative) << Format(r.type).name << " " << Hex(r.code);
    EXPECT_EQ(d.significand, r.significand) << Format(r.type).name << " " << Hex(r.code);
    EXPECT_EQ(d.exponent, r.exponent) << Format(r.type).name << " " << Hex(r.code);
  }
  // Zeros: available, significand 0; -0 keeps its sign bit in the decomposition.
  const FiniteDecomposition negative_zero = TileNumericFiniteDecomposition(T::FP16, 0x8000);
  EXPECT_TRUE(negative_zero.available);
  EXPECT_TRUE(negative_zero.negative);
  EXPECT_EQ(negative_zero.significand, 0U);
  const FiniteDecomposition hif8_zero = TileNumericFiniteDecomposition(T::HiF8, 0x00);
  EXPECT_TRUE(hif8_zero.available);
  EXPECT_EQ(hif8_zero.significand, 0U);
}

// ---------------------------------------------------------------------------------------------
// Exhaustive comparisons with independent decoders.

// Seed 000 ReferenceFP8FiniteValue, re-derived here in its own arithmetic (lines 263-317).
Real SeedFP8Value(T type, unsigned code) {
  const bool negative = (code & 0x80) != 0;
  Real magnitude = 0;
  if (type == T::E4M3) {
    const unsigned exponent = (code >> 3) & 0xF;
    const unsigned fraction = code & 7;
    if (exponent == 0) {
      magnitude = Q(fraction) * Pow2(-9);
    } else {
      magnitude = (Q(1) + Q(fraction, 8)) * Pow2(static_cast<int>(exponent) - 7);
    }
  } else {
    const unsigned body = code & 0x7F;
    const auto bits = [&](unsigned hi, unsigned lo) {
      return (code >> lo) & ((1U << (hi - lo + 1)) - 1);
    };
    if (body <= 7) {
      magnitude = body == 0 ? Q(0) : Pow2(static_cast<int>(body) - 23);
    } else if (body <= 15) {
      magnitude = Q(1) + Q(body - 8, 8);
    } else if (body <= 31) {
      const int e = bits(3, 3) == 0 ? 1 : -1;
      magnitude = (Q(1) + Q(bits(2, 0), 8)) * Pow2(e);
    } else if (body <= 63) {
      const int absolute = 2 + static_cast<int>(bits(3, 3));
      const int e = bits(4, 3) < 2 ? absolute : -absolute;
      magnitude = (Q(1) + Q(bits(2, 0), 8)) * Pow2(e);
    } else if (body <= 95) {
      const int absolute = 4 + static_cast<int>(bits(3, 2));
      const int e = bits(4, 2) < 4 ? absolute : -absolute;
      magnitude = (Q(1) + Q(bits(1, 0), 4)) * Pow2(e);
    } else {
      const int absolute = 8 + static_cast<int>(bits(3, 1));
      const int e = bits(4, 1) < 8 ? absolute : -absolute;
      magnitude = (Q(1) + Q(bits(0, 0), 2)) * Pow2(e);
    }
  }
  return negative ? Real(-magnitude) : magnitude;
}

TEST(FormatExhaustive, E4M3AndHiF8AgainstSeed000Decoder) {
  for (T type : {T::E4M3, T::HiF8}) {
    std::set<Real> positive_values;
    int finite = 0;
    for (unsigned code = 0; code < 256; ++code) {
      const C c = TileNumericValueClass(type, code);
      const bool special =
          type == T::E4M3 ? (code & 0x7F) == 0x7F : (code == 0x80 || code == 0x6F || code == 0xEF);
      EXPECT_EQ(NumericValueClassIsNaN(c) || NumericValueClassIsInfinity(c), special)
          << Format(type).name << " " << Hex(code);
      if (special) continue;
      ++finite;
      const Real expected = SeedFP8Value(type, code);
      EXPECT_EQ(TileNumericFiniteValue(type, code), expected)
          << Format(type).name << " " << Hex(code);
      // Class is consistent with the value: sign, zero, subnormal below the smallest normal.
      const Real smallest_normal = type == T::E4M3 ? Pow2(-6) : Pow2(-15);
      const Real magnitude = expected < 0 ? Real(-expected) : expected;
      if (expected == 0) {
        EXPECT_TRUE(NumericValueClassIsZero(c)) << Hex(code);
      } else if (magnitude < smallest_normal) {
        EXPECT_EQ(c, expected > 0 ? C::PositiveSubnormal : C::NegativeSubnormal) << Hex(code);
      } else {
        EXPECT_EQ(c, expected > 0 ? C::PositiveNormal : C::NegativeNormal) << Hex(code);
      }
      if (expected > 0) positive_values.insert(expected);
    }
    // Every positive code denotes a distinct value.
    EXPECT_EQ(finite, type == T::E4M3 ? 254 : 253) << Format(type).name;
    EXPECT_EQ(positive_values.size(), 126U) << Format(type).name;
    EXPECT_EQ(*positive_values.rbegin(), type == T::E4M3 ? Q(448) : Q(32768));
    EXPECT_EQ(*positive_values.begin(), type == T::E4M3 ? Pow2(-9) : Pow2(-22));
  }
}

// Binary format decoder written from the spec-notes layout column, with its own arithmetic.
struct BinaryLayout {
  unsigned exponent_bits;
  unsigned fraction_bits;
  int bias;
};

// Returns true and the value for finite codes; false for Inf/NaN. `c` receives the class.
bool DecodeBinary(const BinaryLayout& l, Word code, Real& value, C& c) {
  const unsigned width = 1 + l.exponent_bits + l.fraction_bits;
  const bool negative = ((code >> (width - 1)) & 1) != 0;
  const Word e = (code >> l.fraction_bits) & ((Word{1} << l.exponent_bits) - 1);
  const Word f = code & ((Word{1} << l.fraction_bits) - 1);
  if (e == (Word{1} << l.exponent_bits) - 1) {
    if (f == 0) {
      c = negative ? C::NegativeInfinity : C::PositiveInfinity;
    } else {
      c = (f >> (l.fraction_bits - 1)) != 0 ? C::QuietNaN : C::SignalingNaN;
    }
    return false;
  }
  const Real fraction = Real(Integer(f), Integer(1) << l.fraction_bits);
  Real magnitude;
  if (e == 0) {
    magnitude = fraction * Pow2(1 - l.bias);
    c = f == 0 ? (negative ? C::NegativeZero : C::PositiveZero)
               : (negative ? C::NegativeSubnormal : C::PositiveSubnormal);
  } else {
    magnitude = (1 + fraction) * Pow2(static_cast<int>(e) - l.bias);
    c = negative ? C::NegativeNormal : C::PositiveNormal;
  }
  value = negative ? Real(-magnitude) : magnitude;
  return true;
}

void CheckBinaryCode(T type, const BinaryLayout& l, Word code) {
  Real expected;
  C expected_class{};
  const bool finite = DecodeBinary(l, code, expected, expected_class);
  ASSERT_EQ(TileNumericValueClass(type, code), expected_class)
      << Format(type).name << " " << Hex(code);
  if (finite) {
    ASSERT_EQ(TileNumericFiniteValue(type, code), expected)
        << Format(type).name << " " << Hex(code);
  } else {
    ASSERT_FALSE(TileNumericFiniteDecomposition(type, code).available) << Hex(code);
  }
}

TEST(FormatExhaustive, EveryFP16AndBF16CodeAgainstLayoutDecoder) {
  for (Word code = 0; code < 0x10000; ++code) {
    CheckBinaryCode(T::FP16, {5, 10, 15}, code);
    CheckBinaryCode(T::BF16, {8, 7, 127}, code);
  }
}

TEST(FormatExhaustive, FP19EveryExponentAgainstLayoutDecoder) {
  // Every sign and exponent field with the boundary fractions (the full 2^19 sweep is slow with
  // rationals; the random property below covers the rest).
  for (Word sign = 0; sign < 2; ++sign) {
    for (Word exponent = 0; exponent < 256; ++exponent) {
      for (Word fraction : {0x000, 0x001, 0x002, 0x155, 0x1FF, 0x200, 0x201, 0x2AA, 0x3FE, 0x3FF}) {
        CheckBinaryCode(T::FP19, {8, 10, 127}, (sign << 18) | (exponent << 10) | fraction);
        if (HasFatalFailure()) return;
      }
    }
  }
}

RC_GTEST_PROP(FormatExhaustive, RandomFP19CodesAgainstLayoutDecoder, ()) {
  const auto code = *rc::gen::inRange<std::uint32_t>(0, 1u << 19);
  const auto high = *rc::gen::inRange<std::uint32_t>(0, 1u << 13);
  Real expected;
  C expected_class{};
  const bool finite = DecodeBinary({8, 10, 127}, code, expected, expected_class);
  const Word carrier = (Word{high} << 19) | code;  // bits above the 19-bit width are ignored
  RC_ASSERT(TileNumericValueClass(T::FP19, carrier) == expected_class);
  if (finite) RC_ASSERT(TileNumericFiniteValue(T::FP19, carrier) == expected);
}

TEST(FormatExhaustive, EveryE8M0Code) {
  for (Word code = 0; code < 255; ++code) {
    EXPECT_EQ(TileNumericValueClass(T::E8M0, code), C::PositiveNormal);
    EXPECT_EQ(TileNumericFiniteValue(T::E8M0, code), Pow2(static_cast<int>(code) - 127));
  }
}

RC_GTEST_PROP(FormatExhaustive, RandomFP32WordsAgainstLayoutDecoder, ()) {
  const auto code = *rc::gen::arbitrary<std::uint32_t>();
  const auto high = *rc::gen::arbitrary<std::uint32_t>();
  const Word carrier = (Word{high} << 32) | code;
  Real expected;
  C expected_class{};
  const bool finite = DecodeBinary({8, 23, 127}, code, expected, expected_class);
  RC_ASSERT(TileNumericValueClass(T::FP32, carrier) == expected_class);
  if (finite) RC_ASSERT(TileNumericFiniteValue(T::FP32, carrier) == expected);
}

// ---------------------------------------------------------------------------------------------
// Integers: NormalizeTileInteger, TileIntegerMinimum, TileIntegerMaximum.

TEST(TileIntegers, NormalizeKnownWords) {
  struct Row {
    T type;
    Word input;
    Word expected;
  };
  const std::vector<Row> rows = {
      {T::S8, 0x82, 0xFFFFFFFFFFFFFF82ULL},  // S8 -126 (spec-notes section 1)
      {T::S8, 0x7F, 0x7F},
      {T::S8, 0x17F, 0x7F},
      {T::S8, 0xFFFFFFFFFFFFFF82ULL, 0xFFFFFFFFFFFFFF82ULL},
      {T::S8, 0x12345680, 0xFFFFFFFFFFFFFF80ULL},
      {T::U8, 0x82, 0x82},
      {T::U8, 0xFFFFFFFFFFFFFF82ULL, 0x82},
      {T::U8, 0x1FF, 0xFF},
      {T::S4X2, 0x8, 0xFFFFFFFFFFFFFFF8ULL},
      {T::S4X2, 0xF, 0xFFFFFFFFFFFFFFFFULL},
      {T::S4X2, 0x7, 0x7},
      {T::S4X2, 0xF7, 0x7},
      {T::S4X2, 0x78, 0xFFFFFFFFFFFFFFF8ULL},
      {T::U4X2, 0xF7, 0x7},
      {T::U4X2, 0xFF, 0xF},
      {T::U4X2, 0x10, 0x0},
      {T::S16, 0x8000, 0xFFFFFFFFFFFF8000ULL},
      {T::S16, 0x17FFF, 0x7FFF},
      {T::S16, 0xFFEF, 0xFFFFFFFFFFFFFFEFULL},
      {T::U16, 0x18000, 0x8000},
      {T::U16, 0xFFFFFFFFFFFFFFFFULL, 0xFFFF},
      {T::S32, 0x80000000, 0xFFFFFFFF80000000ULL},
      {T::S32, 0x17FFFFFFFULL, 0x7FFFFFFF},
      {T::U32, 0x1FFFFFFFFULL, 0xFFFFFFFF},
      {T::U32, 0x80000000, 0x80000000},
      {T::S64, 0x8000000000000000ULL, 0x8000000000000000ULL},
      {T::U64, 0xFFFFFFFFFFFFFFFFULL, 0xFFFFFFFFFFFFFFFFULL},
  };
  for (const Row& r : rows) {
    EXPECT_EQ(NormalizeTileInteger(r.input, r.type), r.expected)
        << Format(r.type).name << " " << Hex(r.input);
  }
}

TEST(TileIntegers, MinimumAndMaximum) {
  struct Row {
    T type;
    Word minimum;
    Word maximum;
  };
  const std::vector<Row> rows = {
      {T::S4X2, 0xFFFFFFFFFFFFFFF8ULL, 0x7},
      {T::U4X2, 0x0, 0xF},
      {T::S8, 0xFFFFFFFFFFFFFF80ULL, 0x7F},
      {T::U8, 0x0, 0xFF},
      {T::S16, 0xFFFFFFFFFFFF8000ULL, 0x7FFF},
      {T::U16, 0x0, 0xFFFF},
      {T::S32, 0xFFFFFFFF80000000ULL, 0x7FFFFFFF},
      {T::U32, 0x0, 0xFFFFFFFF},
      {T::S64, 0x8000000000000000ULL, 0x7FFFFFFFFFFFFFFFULL},
      {T::U64, 0x0, 0xFFFFFFFFFFFFFFFFULL},
  };
  for (const Row& r : rows) {
    EXPECT_EQ(TileIntegerMinimum(r.type), r.minimum) << Format(r.type).name;
    EXPECT_EQ(TileIntegerMaximum(r.type), r.maximum) << Format(r.type).name;
    // Range ends are already normalized.
    EXPECT_EQ(NormalizeTileInteger(r.minimum, r.type), r.minimum) << Format(r.type).name;
    EXPECT_EQ(NormalizeTileInteger(r.maximum, r.type), r.maximum) << Format(r.type).name;
  }
  for (T t : {T::FP32, T::FP16, T::E8M0, T::HiF8, T::FP19}) {
    EXPECT_THROW(TileIntegerMinimum(t), std::invalid_argument) << Format(t).name;
    EXPECT_THROW(TileIntegerMaximum(t), std::invalid_argument) << Format(t).name;
  }
}

TEST(TileIntegers, NormalizeIsSignOrZeroExtensionOfLowBitsForEveryByte) {
  for (Word v = 0; v < 0x200; ++v) {
    const Word low8 = v & 0xFF;
    const Word s8 = low8 >= 0x80 ? (low8 | 0xFFFFFFFFFFFFFF00ULL) : low8;
    EXPECT_EQ(NormalizeTileInteger(v, T::S8), s8) << Hex(v);
    EXPECT_EQ(NormalizeTileInteger(v, T::U8), low8) << Hex(v);
    const Word low4 = v & 0xF;
    const Word s4 = low4 >= 0x8 ? (low4 | 0xFFFFFFFFFFFFFFF0ULL) : low4;
    EXPECT_EQ(NormalizeTileInteger(v, T::S4X2), s4) << Hex(v);
    EXPECT_EQ(NormalizeTileInteger(v, T::U4X2), low4) << Hex(v);
  }
}

}  // namespace
}  // namespace formats_test
}  // namespace ptovec::oracle
