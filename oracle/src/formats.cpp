#include "ptovec/oracle/formats.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <stdexcept>

namespace ptovec::oracle {

namespace {

using K = FormatKind;
using T = TileDataType;

constexpr Word kNo = kNoCode;

// The format table (spec-notes sections 1 and 4): layout, non-finite codes and largest finite of
// every modelled type. Columns: type, name, spec name, tile code, width, kind, exponent bits,
// fraction bits, bias, negative zero, NaN code, +Inf code, largest finite code. The first
// kEdition0583Rows rows are the types of edition 0.58.3 (AllFormats); the last five are the
// types edition 2026-09 adds (AllFormats2026_09; docs/semantics.md, "Edition 2026-09"):
//  * FP64: IEEE binary64 (the layouts of mx-formats.asl lines 58-61 and 2026-09
//    reference-quantization.asl lines 35-52, ReferenceFP64FiniteValue).
//  * E6M2: e6m2.asl (c72ff36) lines 13-58: unsigned, 6-bit exponent (bias 48), 2-bit fraction,
//    hidden one, no zero; 0xFF quiet NaN, 0xFE the largest finite (1.5 * 2^15).
//  * RCPE6M2: rcpe6m2.asl (f372ad9) lines 13-54: the codes of E6M2, each the reciprocal of E6M2's
//    value; 0xFF quiet NaN; 0x00 (1 / 2^-48) the largest finite.
//  * E2M1X2: e2m1x2.asl (0e52309) lines 5-48: one 4-bit lane, sign bit 3, 2-bit exponent (bias
//    1), 1-bit fraction, subnormal 0.5; every code finite; 0x7 (6.0) the largest.
//  * E1M2X2: e1m2x2.asl lines 5-41: one 4-bit lane, sign bit 3, magnitude bits 2:0 in quarters
//    (E1M2X2FiniteDecomposition: magnitude * 2^-2); every non-zero code normal; 0x7 (1.75) the
//    largest. The ASL descriptor counts 3 fraction bits (the whole magnitude); the row keeps 2,
//    the bits below the binary point, which is what the decomposition scales by.
constexpr std::size_t kEdition0583Rows = 17;
constexpr std::array<FormatInfo, 22> kFormats = {{
    {T::FP32, "fp32", "FP32", 1, 32, K::Binary, 8, 23, 127, true, kNo, 0x7F800000, 0x7F7FFFFF},
    {T::FP16, "fp16", "FP16", 4, 16, K::Binary, 5, 10, 15, true, kNo, 0x7C00, 0x7BFF},
    {T::BF16, "bf16", "BF16", 5, 16, K::Binary, 8, 7, 127, true, kNo, 0x7F80, 0x7F7F},
    {T::HiF8, "hif8", "HiF8", 6, 8, K::HiF8, 0, 0, 0, false, 0x80, 0x6F, 0x6E},
    {T::E4M3, "e4m3", "E4M3", 7, 8, K::BinaryFN, 4, 3, 7, true, 0x7F, kNo, 0x7E},
    {T::E8M0, "e8m0", "E8M0", 13, 8, K::E8M0, 8, 0, 127, false, 0xFF, kNo, 0xFE},
    {T::FP19, "fp19", "FP19", -1, 19, K::Binary, 8, 10, 127, true, kNo, 0x3FC00, 0x3FBFF},
    {T::S64, "s64", "S64", 16, 64, K::SignedInteger, 0, 0, 0, false, kNo, kNo, kNo},
    {T::S32, "s32", "S32", 17, 32, K::SignedInteger, 0, 0, 0, false, kNo, kNo, kNo},
    {T::S16, "s16", "S16", 18, 16, K::SignedInteger, 0, 0, 0, false, kNo, kNo, kNo},
    {T::S8, "s8", "S8", 19, 8, K::SignedInteger, 0, 0, 0, false, kNo, kNo, kNo},
    {T::S4X2, "s4x2", "S4X2", 20, 4, K::SignedInteger, 0, 0, 0, false, kNo, kNo, kNo},
    {T::U64, "u64", "U64", 24, 64, K::UnsignedInteger, 0, 0, 0, false, kNo, kNo, kNo},
    {T::U32, "u32", "U32", 25, 32, K::UnsignedInteger, 0, 0, 0, false, kNo, kNo, kNo},
    {T::U16, "u16", "U16", 26, 16, K::UnsignedInteger, 0, 0, 0, false, kNo, kNo, kNo},
    {T::U8, "u8", "U8", 27, 8, K::UnsignedInteger, 0, 0, 0, false, kNo, kNo, kNo},
    {T::U4X2, "u4x2", "U4X2", 28, 4, K::UnsignedInteger, 0, 0, 0, false, kNo, kNo, kNo},
    {T::FP64, "fp64", "FP64", 0, 64, K::Binary, 11, 52, 1023, true, kNo, 0x7FF0000000000000,
     0x7FEFFFFFFFFFFFFF},
    {T::E6M2, "e6m2", "E6M2", -1, 8, K::UnsignedNormal, 6, 2, 48, false, 0xFF, kNo, 0xFE},
    {T::RCPE6M2, "rcpe6m2", "RCPE6M2", -1, 8, K::ReciprocalE6M2, 6, 2, 48, false, 0xFF, kNo, 0x00},
    {T::E2M1X2, "e2m1x2", "E2M1X2", 11, 4, K::BinaryFinite, 2, 1, 1, true, kNo, kNo, 0x7},
    {T::E1M2X2, "e1m2x2", "E1M2X2", 12, 4, K::FixedPoint, 0, 2, 0, true, kNo, kNo, 0x7},
}};

// The field formats' rows agree with their layout: 1 + exponent + fraction bits fill the width;
// Binary: +Inf is the all-ones exponent field, the largest finite the code below it; BinaryFN:
// the NaN magnitude is all ones, the largest finite the code below it, no infinities;
// BinaryFinite: no NaN, no infinities, the largest finite the all-ones magnitude.
constexpr bool FieldRowConsistent(const FormatInfo& f) {
  if (!f.HasSignExponentFraction()) return true;
  const Word all_ones_exponent = ((Word{1} << f.exponent_bits) - 1) << f.fraction_bits;
  const bool layout = f.width == 1 + f.exponent_bits + f.fraction_bits &&
                      f.bias == (1 << (f.exponent_bits - 1)) - 1 && f.negative_zero;
  if (f.kind == K::Binary) {
    return layout && f.nan_code == kNoCode && f.infinity_code == all_ones_exponent &&
           f.largest_finite_code == all_ones_exponent - 1;
  }
  const Word all_ones = (Word{1} << (f.width - 1)) - 1;
  if (f.kind == K::BinaryFinite) {
    return layout && f.nan_code == kNoCode && !f.HasInfinities() &&
           f.largest_finite_code == all_ones;
  }
  return layout && f.nan_code == all_ones && !f.HasInfinities() &&
         f.largest_finite_code == all_ones - 1;
}
static_assert(std::all_of(kFormats.begin(), kFormats.end(), FieldRowConsistent));

std::string Lower(std::string_view s) {
  std::string out(s);
  std::transform(out.begin(), out.end(), out.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return out;
}

using C = NumericValueClass;

C Signed(bool negative, C positive, C negative_class) {
  return negative ? negative_class : positive;
}

// TileNumericValueClass of a Binary or BinaryFN code (`bits`: the low f.width bits).
C FieldsValueClass(const FormatInfo& f, Word bits) {
  const bool negative = (bits & f.SignBit()) != 0;
  const Word magnitude = bits & ~f.SignBit();
  const Word exponent = magnitude >> f.fraction_bits;
  const Word fraction = LowBits(bits, f.fraction_bits);
  if (f.HasInfinities() && magnitude >= f.infinity_code) {  // the all-ones exponent field
    if (magnitude == f.infinity_code) {
      return Signed(negative, C::PositiveInfinity, C::NegativeInfinity);
    }
    const bool quiet = ((fraction >> (f.fraction_bits - 1)) & 1) != 0;
    return quiet ? C::QuietNaN : C::SignalingNaN;
  }
  if (magnitude == f.nan_code) return C::QuietNaN;
  if (exponent == 0) {
    if (fraction == 0) {
      return Signed(negative && f.negative_zero, C::PositiveZero, C::NegativeZero);
    }
    return Signed(negative, C::PositiveSubnormal, C::NegativeSubnormal);
  }
  return Signed(negative, C::PositiveNormal, C::NegativeNormal);
}

// TileNumericValueClass of a HiF8 code: the row's NaN and infinity codes, then the layout's own
// rule (spec-notes section 4): body 0 is the only zero (the sign bit with it is the NaN), bodies
// 1..7 are subnormal, the rest normal.
C HiF8ValueClass(const FormatInfo& f, Word bits) {
  if (bits == f.nan_code) return C::QuietNaN;
  const bool negative = (bits & f.SignBit()) != 0;
  const Word body = bits & ~f.SignBit();
  if (body == f.infinity_code) return Signed(negative, C::PositiveInfinity, C::NegativeInfinity);
  if (body == 0) return Signed(negative && f.negative_zero, C::PositiveZero, C::NegativeZero);
  if (body <= 7) return Signed(negative, C::PositiveSubnormal, C::NegativeSubnormal);
  return Signed(negative, C::PositiveNormal, C::NegativeNormal);
}

// TileNumericValueClass of a FixedPoint code (ClassifyE1M2X2, e1m2x2.asl lines 32-36): a zero
// magnitude is a signed zero, anything else normal.
C FixedPointValueClass(const FormatInfo& f, Word bits) {
  const bool negative = (bits & f.SignBit()) != 0;
  if ((bits & ~f.SignBit()) == 0) {
    return Signed(negative && f.negative_zero, C::PositiveZero, C::NegativeZero);
  }
  return Signed(negative, C::PositiveNormal, C::NegativeNormal);
}

// TileNumericFiniteDecomposition of a finite code of a field kind (Binary, BinaryFN,
// BinaryFinite): subnormal f * 2^(1-bias-F), normal (2^F + f) * 2^(e-bias-F).
FiniteDecomposition FieldsDecomposition(const FormatInfo& f, Word bits) {
  FiniteDecomposition d{true, (bits & f.SignBit()) != 0, 0, 0};
  const Word exponent = (bits & ~f.SignBit()) >> f.fraction_bits;
  const Word fraction = LowBits(bits, f.fraction_bits);
  const int fraction_bits = static_cast<int>(f.fraction_bits);
  if (exponent == 0) {
    d.significand = fraction;
    // E2M1X2FiniteDecomposition (e2m1x2.asl lines 27-29) gives its zero the exponent 0.
    d.exponent = f.kind == K::BinaryFinite && fraction == 0 ? 0 : 1 - f.bias - fraction_bits;
  } else {
    d.significand = (Word{1} << f.fraction_bits) + fraction;
    d.exponent = static_cast<int>(exponent) - f.bias - fraction_bits;
  }
  return d;
}

// TileNumericFiniteDecomposition of a HiF8 code (spec-notes section 4, the dot field).
FiniteDecomposition HiF8Decomposition(const FormatInfo& f, Word bits) {
  FiniteDecomposition d{true, (bits & f.SignBit()) != 0, 0, 0};
  const Word body = bits & ~f.SignBit();
  const auto bit = [&](unsigned i) { return static_cast<int>((bits >> i) & 1); };
  if (body == 0) {
    d.significand = 0;
    d.exponent = 0;
  } else if (body <= 7) {  // 2^(body-23)
    d.significand = 1;
    d.exponent = static_cast<int>(body) - 23;
  } else if (body <= 15) {  // 1 + (body-8)/8 = body/8
    d.significand = body;
    d.exponent = -3;
  } else if (body <= 31) {  // exponent +/-1, 3 mantissa bits
    const int exponent = bit(3) == 0 ? 1 : -1;
    d.significand = 8 + (bits & 7);
    d.exponent = exponent - 3;
  } else if (body <= 63) {  // exponent +/-(2..3), 3 mantissa bits
    const int code = static_cast<int>((bits >> 3) & 3);
    const int absolute = 2 + bit(3);
    d.significand = 8 + (bits & 7);
    d.exponent = (code < 2 ? absolute : -absolute) - 3;
  } else if (body <= 95) {  // exponent +/-(4..7), 2 mantissa bits
    const int code = static_cast<int>((bits >> 2) & 7);
    const int absolute = 4 + static_cast<int>((bits >> 2) & 3);
    d.significand = 4 + (bits & 3);
    d.exponent = (code < 4 ? absolute : -absolute) - 2;
  } else {  // exponent +/-(8..15), 1 mantissa bit
    const int code = static_cast<int>((bits >> 1) & 15);
    const int absolute = 8 + static_cast<int>((bits >> 1) & 7);
    d.significand = 2 + (bits & 1);
    d.exponent = (code < 8 ? absolute : -absolute) - 1;
  }
  return d;
}

}  // namespace

std::span<const FormatInfo> AllFormats() {
  return std::span<const FormatInfo>(kFormats).first(kEdition0583Rows);
}

std::span<const FormatInfo> AllFormats2026_09() { return kFormats; }

std::span<const FormatInfo> AllFormats(Edition edition) {
  return edition == Edition::V2026_09 ? AllFormats2026_09() : AllFormats();
}

namespace detail {

// kFormats by type code, built at compile time (constant-initialized: usable from any static
// initializer).
constexpr std::array<const FormatInfo*, kFormatCodes> kFormatByCodeTable = [] {
  std::array<const FormatInfo*, kFormatCodes> rows{};
  for (const FormatInfo& f : kFormats) rows[static_cast<std::size_t>(f.type)] = &f;
  return rows;
}();
const std::array<const FormatInfo*, kFormatCodes>& kFormatByCode = kFormatByCodeTable;

void UnmodelledFormat(TileDataType type) {
  throw std::invalid_argument("data type code " + std::to_string(static_cast<int>(type)) +
                              " is not modelled by ptovec (accepted: " + FormatNamesList() + ")");
}

}  // namespace detail

std::optional<TileDataType> ParseTileDataType(std::string_view name) {
  return ParseTileDataType(name, Edition::V0_58_3);
}

std::optional<TileDataType> ParseTileDataType(std::string_view name, Edition edition) {
  const std::string lower = Lower(name);
  for (const auto& f : AllFormats(edition)) {
    if (lower == f.name) return f.type;
  }
  return std::nullopt;
}

std::string FormatNamesList() { return FormatNamesList(Edition::V0_58_3); }

std::string FormatNamesList(Edition edition) {
  std::string out;
  for (const auto& f : AllFormats(edition)) {
    if (!out.empty()) out += ", ";
    out += f.name;
  }
  return out;
}

bool NumericValueClassIsNaN(NumericValueClass c) {
  return c == NumericValueClass::QuietNaN || c == NumericValueClass::SignalingNaN;
}
bool NumericValueClassIsZero(NumericValueClass c) {
  return c == NumericValueClass::PositiveZero || c == NumericValueClass::NegativeZero;
}
bool NumericValueClassIsInfinity(NumericValueClass c) {
  return c == NumericValueClass::PositiveInfinity || c == NumericValueClass::NegativeInfinity;
}

bool TileNumericValueIsFinite(TileDataType type, Word value) {
  const NumericValueClass c = TileNumericValueClass(type, value);
  return c != NumericValueClass::InvalidEncoding && !NumericValueClassIsNaN(c) &&
         !NumericValueClassIsInfinity(c);
}

std::string_view NumericValueClassName(NumericValueClass c) {
  static constexpr std::array<std::string_view, 11> kNames = {
      "InvalidEncoding",   "PositiveZero",   "NegativeZero",   "PositiveSubnormal",
      "NegativeSubnormal", "PositiveNormal", "NegativeNormal", "PositiveInfinity",
      "NegativeInfinity",  "QuietNaN",       "SignalingNaN"};
  return kNames.at(static_cast<std::size_t>(c));
}

NumericValueClass TileNumericValueClass(TileDataType type, Word value) {
  const FormatInfo& f = Format(type);
  const Word bits = LowBits(value, f.width);
  switch (f.kind) {
    case K::Binary:
    case K::BinaryFN:
      return FieldsValueClass(f, bits);
    case K::HiF8:
      return HiF8ValueClass(f, bits);
    case K::E8M0:
    case K::UnsignedNormal:  // ClassifyE6M2, e6m2.asl lines 49-53
    case K::ReciprocalE6M2:  // ClassifyRCPE6M2, rcpe6m2.asl lines 45-49
      return bits == f.nan_code ? C::QuietNaN : C::PositiveNormal;
    case K::BinaryFinite:  // ClassifyE2M1X2, e2m1x2.asl lines 38-43
      return FieldsValueClass(f, bits);
    case K::FixedPoint:
      return FixedPointValueClass(f, bits);
    case K::SignedInteger:
    case K::UnsignedInteger:
      return C::InvalidEncoding;
  }
  return C::InvalidEncoding;
}

FiniteDecomposition TileNumericFiniteDecomposition(TileDataType type, Word value) {
  const FormatInfo& f = Format(type);
  const NumericValueClass c = TileNumericValueClass(type, value);
  if (c == NumericValueClass::InvalidEncoding || NumericValueClassIsNaN(c) ||
      NumericValueClassIsInfinity(c)) {
    return {};
  }
  const Word bits = LowBits(value, f.width);
  const bool negative = (bits & f.SignBit()) != 0;
  const auto fraction_bits = static_cast<int>(f.fraction_bits);
  switch (f.kind) {
    case K::Binary:
    case K::BinaryFN:
    case K::BinaryFinite:  // E2M1X2FiniteDecomposition, e2m1x2.asl lines 21-37
      return FieldsDecomposition(f, bits);
    case K::HiF8:
      return HiF8Decomposition(f, bits);
    case K::E8M0:  // 2^(c-bias)
      return {true, false, 1, static_cast<int>(bits) - f.bias};
    case K::FixedPoint: {  // E1M2X2FiniteDecomposition, e1m2x2.asl lines 21-31
      const Word magnitude = bits & ~f.SignBit();
      return {true, negative, magnitude, magnitude == 0 ? 0 : -fraction_bits};
    }
    case K::UnsignedNormal: {  // E6M2FiniteDecomposition, e6m2.asl lines 29-39
      const int exponent = static_cast<int>(bits >> f.fraction_bits) - f.bias;
      return {true, false, (Word{1} << f.fraction_bits) + LowBits(bits, f.fraction_bits),
              exponent - fraction_bits};
    }
    case K::ReciprocalE6M2:  // RCPE6M2FiniteDecomposition, rcpe6m2.asl lines 35-43
    case K::SignedInteger:
    case K::UnsignedInteger:
      return {};
  }
  return {};
}

Real TileNumericFiniteValue(TileDataType type, Word value) {
  if (Format(type).kind == K::ReciprocalE6M2 && TileNumericValueIsFinite(type, value)) {
    return Real(1) / TileNumericFiniteValue(TileDataType::E6M2, value);  // rcpe6m2.asl 29-33
  }
  const FiniteDecomposition d = TileNumericFiniteDecomposition(type, value);
  if (!d.available) {
    throw std::domain_error(std::string(Format(type).name) + " code is not finite");
  }
  Real magnitude = Real(Integer(d.significand)) * PowerOfTwo(d.exponent);
  return d.negative ? Real(-magnitude) : magnitude;
}

// Defined for every TileDataType, modelled by the table or not: seed 001's TileProfileConvert asks
// it of any destination (FP64, E5M2, ... keep the raw word), so it must not throw for them.
// Tile codes 0..14 (and FP19, E6M2, RCPE6M2) are floating; 16..28 are integers (spec-notes
// section 1).
bool TileDataTypeIsFloating(TileDataType type) {
  switch (type) {
    case T::FP64:
    case T::FP32:
    case T::TF32:
    case T::HF32:
    case T::FP16:
    case T::BF16:
    case T::HiF8:
    case T::E4M3:
    case T::E5M2:
    case T::E3M2:
    case T::E2M3:
    case T::E2M1X2:
    case T::E1M2X2:
    case T::E8M0:
    case T::HiF4X2:
    case T::FP19:
    case T::E6M2:
    case T::RCPE6M2:
      return true;
    case T::S64:
    case T::S32:
    case T::S16:
    case T::S8:
    case T::S4X2:
    case T::U64:
    case T::U32:
    case T::U16:
    case T::U8:
    case T::U4X2:
      return false;
  }
  return Format(type).IsFloating();  // not an enumerator: throws std::invalid_argument
}

bool TileDataTypeIsSigned(TileDataType type) { return Format(type).kind == K::SignedInteger; }

Word NormalizeTileInteger(Word value, TileDataType type) {
  const FormatInfo& f = Format(type);
  if (f.kind == K::SignedInteger) return SignExtend(value, f.width);
  return LowBits(value, f.width);
}

Word TileIntegerMinimum(TileDataType type) {
  const FormatInfo& f = Format(type);
  if (f.kind == K::SignedInteger) return SignExtend(Word{1} << (f.width - 1), f.width);
  if (f.kind == K::UnsignedInteger) return 0;
  throw std::invalid_argument(std::string(f.name) + " is not an integer type");
}

Word TileIntegerMaximum(TileDataType type) {
  const FormatInfo& f = Format(type);
  if (f.kind == K::SignedInteger) return LowBits(~Word{0}, f.width - 1);
  if (f.kind == K::UnsignedInteger) return LowBits(~Word{0}, f.width);
  throw std::invalid_argument(std::string(f.name) + " is not an integer type");
}

}  // namespace ptovec::oracle
