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
// fraction bits, bias, negative zero, NaN code, +Inf code, largest finite code.
constexpr std::array<FormatInfo, 17> kFormats = {{
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
}};

// The field formats' rows agree with their layout: 1 + exponent + fraction bits fill the width;
// Binary: +Inf is the all-ones exponent field, the largest finite the code below it; BinaryFN:
// the NaN magnitude is all ones, the largest finite the code below it, no infinities.
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

}  // namespace

std::span<const FormatInfo> AllFormats() { return kFormats; }

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
  const std::string lower = Lower(name);
  for (const auto& f : kFormats) {
    if (lower == f.name) return f.type;
  }
  return std::nullopt;
}

std::string FormatNamesList() {
  std::string out;
  for (const auto& f : kFormats) {
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
      return bits == f.nan_code ? C::QuietNaN : C::PositiveNormal;
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
  FiniteDecomposition d;
  d.available = true;
  d.negative = (bits & f.SignBit()) != 0;
  switch (f.kind) {
    case K::Binary:
    case K::BinaryFN: {  // subnormal f * 2^(1-bias-F), normal (2^F + f) * 2^(e-bias-F)
      const Word exponent = (bits & ~f.SignBit()) >> f.fraction_bits;
      const Word fraction = LowBits(bits, f.fraction_bits);
      const int fraction_bits = static_cast<int>(f.fraction_bits);
      if (exponent == 0) {
        d.significand = fraction;
        d.exponent = 1 - f.bias - fraction_bits;
      } else {
        d.significand = (Word{1} << f.fraction_bits) + fraction;
        d.exponent = static_cast<int>(exponent) - f.bias - fraction_bits;
      }
      return d;
    }
    case K::HiF8: {
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
    case K::E8M0:  // 2^(c-bias)
      d.significand = 1;
      d.exponent = static_cast<int>(bits) - f.bias;
      return d;
    case K::SignedInteger:
    case K::UnsignedInteger:
      return {};
  }
  return {};
}

Real TileNumericFiniteValue(TileDataType type, Word value) {
  const FiniteDecomposition d = TileNumericFiniteDecomposition(type, value);
  if (!d.available) {
    throw std::domain_error(std::string(Format(type).name) + " code is not finite");
  }
  Real magnitude = Real(Integer(d.significand)) * PowerOfTwo(d.exponent);
  return d.negative ? Real(-magnitude) : magnitude;
}

// Defined for every TileDataType, modelled by the table or not: seed 001's TileProfileConvert asks
// it of any destination (FP64, E5M2, ... keep the raw word), so it must not throw for them.
// Tile codes 0..14 (and FP19) are floating; 16..28 are integers (spec-notes section 1).
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
