// The format table: every data type ptovec knows, its layout, value classes and exact values.
//
// One table (kFormats in formats.cpp) that every layer reads: the oracle's decoders, the
// generator's domains, the writers' field widths and the CLI's type names. Source: spec-notes
// sections 1 and 4 (definitions the seeds call but do not contain).
#pragma once

#include <array>
#include <cstddef>
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "ptovec/oracle/edition.hpp"
#include "ptovec/oracle/numeric.hpp"

namespace ptovec::oracle {

/// TileDataType with the specification's 5-bit tile data type codes (spec-notes section 1).
/// FP19 is a parameter format (B.FPATR scale) with no tile code; it gets 32, outside the 5-bit
/// range, so it can never be mistaken for one. E6M2 and RCPE6M2 (edition 2026-09: "newly
/// allocated scale identities", e8m0-conversion.asl line 31) have tile codes the texts of that
/// edition do not give (docs/semantics.md, "Edition 2026-09"); they get 33 and 34, outside the
/// 5-bit range for the same reason.
enum class TileDataType : std::uint8_t {
  FP64 = 0,
  FP32 = 1,
  TF32 = 2,
  HF32 = 3,
  FP16 = 4,
  BF16 = 5,
  HiF8 = 6,
  E4M3 = 7,
  E5M2 = 8,
  E3M2 = 9,
  E2M3 = 10,
  E2M1X2 = 11,
  E1M2X2 = 12,
  E8M0 = 13,
  HiF4X2 = 14,
  S64 = 16,
  S32 = 17,
  S16 = 18,
  S8 = 19,
  S4X2 = 20,
  U64 = 24,
  U32 = 25,
  U16 = 26,
  U8 = 27,
  U4X2 = 28,
  FP19 = 32,
  E6M2 = 33,
  RCPE6M2 = 34,
};

/// How a format's codes are read: which decoder, and which rule marks the non-finite codes (the
/// codes themselves are in the row, FormatInfo).
enum class FormatKind : std::uint8_t {
  /// Sign, exponent and fraction fields (IEEE-like: FP32, FP16, BF16, FP19). The codes above
  /// +Inf in magnitude (an all-ones exponent field with a non-zero fraction) are NaN, quiet when
  /// the fraction's top bit is set, else signaling.
  Binary,
  /// Sign, exponent and fraction fields, OCP "FN" (finite and NaN: E4M3): no infinities; the
  /// magnitude nan_code (all-ones exponent and fraction) is quiet NaN with either sign, the rest
  /// of the all-ones exponent field is normal.
  BinaryFN,
  HiF8,             ///< tapered prefix-coded layout (spec-notes section 4); NaN and Inf as listed
  E8M0,             ///< exponent only: no sign, no fraction, no zero; nan_code is the NaN
  SignedInteger,    ///< two's complement
  UnsignedInteger,  ///< unsigned
  /// Sign, exponent and fraction fields with every code finite: no infinities, no NaN; exponent
  /// field 0 is zero or subnormal (E2M1X2, one 4-bit lane: e2m1x2.asl).
  BinaryFinite,
  /// Sign and a magnitude of width - 1 bits, fraction_bits of them below the binary point:
  /// value (-1)^s * magnitude * 2^-fraction_bits; every non-zero code normal (E1M2X2, one 4-bit
  /// lane: e1m2x2.asl).
  FixedPoint,
  /// No sign; exponent and fraction fields with a hidden leading one and no zero: code c is
  /// (1 + f/2^F) * 2^(e - bias); nan_code is the NaN (E6M2: e6m2.asl).
  UnsignedNormal,
  /// The codes of E6M2, each denoting the exact reciprocal of E6M2's value (RCPE6M2:
  /// rcpe6m2.asl); nan_code is the NaN. Its values are not dyadic: no finite decomposition.
  ReciprocalE6M2,
};

/// A code field of FormatInfo that the format does not have (no infinities, no single NaN code).
inline constexpr Word kNoCode = ~Word{0};

/// One row of the format table. Widths are in bits of the element-width encoding; codes are the
/// low `width` bits, positive ones (a negative one adds SignBit()).
struct FormatInfo {
  TileDataType type;
  std::string_view name;       ///< ptovec's lower-case name ("fp16", "s4x2")
  std::string_view spec_name;  ///< the specification's name ("FP16", "S4X2")
  int tile_code;   ///< 5-bit tile data type code, -1 for FP19, E6M2, RCPE6M2 (none known)
  unsigned width;  ///< bits of one element (S4X2, U4X2, E2M1X2, E1M2X2: 4, one lane)
  FormatKind kind;
  /// The exponent field (the field kinds, UnsignedNormal, ReciprocalE6M2; E8M0: all 8 bits),
  /// else 0.
  unsigned exponent_bits;
  /// The fraction field below it (the field kinds, UnsignedNormal, ReciprocalE6M2; FixedPoint:
  /// the magnitude bits below the binary point), else 0.
  unsigned fraction_bits;
  /// Value exponent = field - bias (the field kinds, UnsignedNormal, ReciprocalE6M2, E8M0),
  /// else 0.
  int bias;
  bool negative_zero;  ///< whether SignBit() with a zero magnitude is -0 (HiF8: it is NaN)
  /// BinaryFN: the NaN magnitude; HiF8, E8M0, UnsignedNormal, ReciprocalE6M2: the NaN; else
  /// kNoCode.
  Word nan_code;
  Word infinity_code;        ///< +Inf (-Inf adds SignBit()); kNoCode without infinities
  Word largest_finite_code;  ///< the largest finite value; kNoCode for integer types

  constexpr bool IsFloating() const {
    return kind != FormatKind::SignedInteger && kind != FormatKind::UnsignedInteger;
  }
  /// Whether the codes split into sign, exponent and fraction fields (Binary, BinaryFN,
  /// BinaryFinite).
  constexpr bool HasSignExponentFraction() const {
    return kind == FormatKind::Binary || kind == FormatKind::BinaryFN ||
           kind == FormatKind::BinaryFinite;
  }
  /// Whether the format has a sign bit (the top bit of the element).
  constexpr bool HasSign() const {
    return kind != FormatKind::E8M0 && kind != FormatKind::UnsignedInteger &&
           kind != FormatKind::UnsignedNormal && kind != FormatKind::ReciprocalE6M2;
  }
  /// The sign bit (two's complement for signed integers), 0 for the unsigned formats (E8M0,
  /// E6M2, RCPE6M2, unsigned integers).
  constexpr Word SignBit() const { return HasSign() ? Word{1} << (width - 1) : 0; }
  /// Whether the format has +/-Inf codes.
  constexpr bool HasInfinities() const { return infinity_code != kNoCode; }
  /// Bytes of one element in ptovec's binary files (1, 2, 4 or 8).
  constexpr unsigned StorageBytes() const {
    return width <= 8 ? 1 : width <= 16 ? 2 : width <= 32 ? 4 : 8;
  }
  /// Hex digits of one element in ptovec's JSON ("0x3c00": 4 for FP16, 1 for S4X2).
  constexpr unsigned HexDigits() const { return (width + 3) / 4; }
};

/// The types of edition 0.58.3 (the default edition, the seeds): FP32 FP16 BF16 HiF8 E4M3 E8M0
/// FP19 and the integer types, the first 17 rows of the table. Everything that lists types for
/// the default edition (type names, schemas, `list`, devices) reads these.
std::span<const FormatInfo> AllFormats();

/// Every row of the table: edition 0.58.3's types, then the five that edition 2026-09 adds
/// (FP64, E6M2, RCPE6M2, E2M1X2, E1M2X2). Format() finds every one of them.
std::span<const FormatInfo> AllFormats2026_09();

/// The types of `edition`: AllFormats() for 0.58.3, AllFormats2026_09() for 2026-09.
std::span<const FormatInfo> AllFormats(Edition edition);

namespace detail {
inline constexpr std::size_t kFormatCodes = 64;  // type codes are below this
/// The format table's rows by type code (nullptr: not modelled).
extern const std::array<const FormatInfo*, kFormatCodes>& kFormatByCode;
[[noreturn]] void UnmodelledFormat(TileDataType type);
}  // namespace detail

/// The row of `type` (a table lookup, inline: it is on every hot path), of either edition. Throws
/// std::invalid_argument for a type the table does not model (TF32, HF32, E5M2, E3M2, E2M3,
/// HiF4X2).
inline const FormatInfo& Format(TileDataType type) {
  const auto code = static_cast<std::size_t>(type);
  if (code < detail::kFormatCodes && detail::kFormatByCode[code] != nullptr) {
    return *detail::kFormatByCode[code];
  }
  detail::UnmodelledFormat(type);
}

/// Parses a type name of edition 0.58.3 (AllFormats), case-insensitive ("fp16", "FP16", "hif8");
/// nullopt when unknown.
std::optional<TileDataType> ParseTileDataType(std::string_view name);
/// Parses a type name of `edition` (AllFormats(edition)), case-insensitive.
std::optional<TileDataType> ParseTileDataType(std::string_view name, Edition edition);

/// Comma-separated lower-case names of the types of edition 0.58.3 (AllFormats), for error
/// messages.
std::string FormatNamesList();
/// Comma-separated lower-case names of the types of `edition` (AllFormats(edition)).
std::string FormatNamesList(Edition edition);

/// NumericValueClass (spec-notes section 4).
enum class NumericValueClass : std::uint8_t {
  InvalidEncoding,
  PositiveZero,
  NegativeZero,
  PositiveSubnormal,
  NegativeSubnormal,
  PositiveNormal,
  NegativeNormal,
  PositiveInfinity,
  NegativeInfinity,
  QuietNaN,
  SignalingNaN,
};

bool NumericValueClassIsNaN(NumericValueClass c);
bool NumericValueClassIsZero(NumericValueClass c);
bool NumericValueClassIsInfinity(NumericValueClass c);
std::string_view NumericValueClassName(NumericValueClass c);

/// TileNumericValueClass(T, value): the class of the low Format(T).width bits of `value`.
/// Defined for floating types; integer types answer InvalidEncoding.
NumericValueClass TileNumericValueClass(TileDataType type, Word value);

/// True when the low Format(T).width bits of `value` are a finite code of floating type `type`
/// (zero, subnormal or normal: neither Inf, NaN nor InvalidEncoding); false for integer types.
bool TileNumericValueIsFinite(TileDataType type, Word value);

/// TileNumericFiniteDecomposition's result: value = (-1)^negative * significand * 2^exponent.
struct FiniteDecomposition {
  bool available = false;
  bool negative = false;
  Word significand = 0;
  int exponent = 0;
};

/// TileNumericFiniteDecomposition(T, v) (spec-notes section 4): available for every finite code
/// of FP64, FP32, FP16, BF16, FP19, E4M3, HiF8, E8M0, E6M2, E2M1X2 and E1M2X2; unavailable for
/// Inf, NaN, integer types and RCPE6M2 (rcpe6m2.asl lines 35-43: its values are not dyadic).
/// The significand is the raw one (not normalized): FP32 subnormal f gives (f, -149). E2M1X2 and
/// E1M2X2 zero give (0, 0) as their ASL decompositions do.
FiniteDecomposition TileNumericFiniteDecomposition(TileDataType type, Word value);

/// The exact value of a finite code (from TileNumericFiniteDecomposition; RCPE6M2: 1 over the
/// E6M2 value of the same code, rcpe6m2.asl lines 29-33). Throws std::domain_error for a
/// non-finite code or an integer type.
Real TileNumericFiniteValue(TileDataType type, Word value);

/// TileDataTypeIsFloating(T).
bool TileDataTypeIsFloating(TileDataType type);
/// TileDataTypeIsSigned(T): true for the signed integer types.
bool TileDataTypeIsSigned(TileDataType type);

/// NormalizeTileInteger(v, T): T's low bits, sign- or zero-extended to the carrier.
Word NormalizeTileInteger(Word value, TileDataType type);
/// TileIntegerMinimum(T) / TileIntegerMaximum(T): the range ends as normalized words.
Word TileIntegerMinimum(TileDataType type);
Word TileIntegerMaximum(TileDataType type);

}  // namespace ptovec::oracle
