// Helpers the fault models of generator/src/faults share (internal to the generator room): the
// oracle under other controls, exact values of sources, encodings of exact values, integer
// rounding, and the op lists of the catalogue's entries. Integers only.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <span>
#include <string_view>
#include <utility>

#include "ptovec/generator/faults.hpp"
#include "ptovec/oracle/fast.hpp"
#include "ptovec/oracle/formats.hpp"
#include "ptovec/oracle/matrix_postprocess.hpp"
#include "ptovec/oracle/matrix_quantization.hpp"

namespace ptovec::generator::faults {

using oracle::Dyadic;
using oracle::DyadicSignificand;
using oracle::Format;
using oracle::FormatInfo;
using oracle::NumericValueClass;
using oracle::Status;
using T = oracle::TileDataType;
using M = NumericRoundingMode;

inline constexpr Status kOF = oracle::kStatusOF;
inline constexpr Status kUF = oracle::kStatusUF;
inline constexpr Status kNX = oracle::kStatusNX;

// ---- the catalogue's op lists and segments ------------------------------------------------

inline constexpr std::array<std::string_view, 1> kOpsAffine = {"affine"};
inline constexpr std::array<std::string_view, 1> kOpsEncode = {"encode"};
inline constexpr std::array<std::string_view, 2> kOpsEncodeAffine = {"encode", "affine"};
inline constexpr std::array<std::string_view, 3> kOpsEncodeAffineTquant = {"encode", "affine",
                                                                           "tquant"};
inline constexpr std::array<std::string_view, 5> kOpsEncodeAffineTquantTcvtFpatr = {
    "encode", "affine", "tquant", "tcvt", "fpatr"};
inline constexpr std::array<std::string_view, 5> kOpsEncodeAffineTquantTdequantFpatr = {
    "encode", "affine", "tquant", "tdequant", "fpatr"};
inline constexpr std::array<std::string_view, 6> kOpsEncodeAffineTquantTdequantTcvtFpatr = {
    "encode", "affine", "tquant", "tdequant", "tcvt", "fpatr"};
inline constexpr std::array<std::string_view, 2> kOpsEncodeTdequant = {"encode", "tdequant"};
inline constexpr std::array<std::string_view, 1> kOpsFpatr = {"fpatr"};
inline constexpr std::array<std::string_view, 1> kOpsQparam = {"qparam"};
inline constexpr std::array<std::string_view, 1> kOpsShift = {"shift"};
inline constexpr std::array<std::string_view, 1> kOpsTcvt = {"tcvt"};
inline constexpr std::array<std::string_view, 1> kOpsTdequant = {"tdequant"};
inline constexpr std::array<std::string_view, 1> kOpsTquant = {"tquant"};

// ---- generic explanations (FaultModel::generic) -------------------------------------------

/// The mode `from` (nullopt: every mode) computed as `to`.
constexpr GenericExplanation ModeAsGeneric(std::optional<M> from, M to, std::string_view text) {
  GenericExplanation g;
  g.kind = GenericKind::ModeAs;
  g.from = from;
  g.to = to;
  g.text = text;
  return g;
}
/// GenericKind::SatIgnored or SatAlwaysOn.
constexpr GenericExplanation SatGeneric(GenericKind kind, std::string_view text) {
  GenericExplanation g;
  g.kind = kind;
  g.text = text;
  return g;
}
/// Double rounding through `through`.
constexpr GenericExplanation DoubleRoundingGeneric(T through, std::string_view text) {
  GenericExplanation g;
  g.kind = GenericKind::DoubleRounding;
  g.through = through;
  g.text = text;
  return g;
}
/// The behaviour model with the single deviation `deviation`.
constexpr GenericExplanation DeviationGeneric(oracle::Deviation deviation, std::string_view text) {
  GenericExplanation g;
  g.kind = GenericKind::Deviation;
  g.deviation = deviation;
  g.text = text;
  return g;
}

/// op's name is one of `ops`.
inline bool OpIn(const OpDef& op, std::span<const std::string_view> ops) {
  return std::find(ops.begin(), ops.end(), op.name) != ops.end();
}
/// op's name is `name`.
inline bool OpNamed(const OpDef& op, std::string_view name) { return op.name == name; }

/// The catalogue's segments, one per file of generator/src/faults (catalogue.cpp orders them).
std::span<const FaultModel> RoundingFaultModels();
std::span<const FaultModel> FlagFaultModels();
std::span<const FaultModel> Fp8FaultModels();
std::span<const FaultModel> E8m0FaultModels();
std::span<const FaultModel> IntegerFaultModels();
std::span<const FaultModel> QuantizationFaultModels();
std::span<const FaultModel> FpatrFaultModels();

// ---- shared helpers ----------------------------------------------------------------------

enum class OpKind : std::uint8_t { Tcvt, Encode, Shift, Qparam, Tquant, Tdequant, Affine, Other };

inline OpKind KindOf(const Case& c) {
  static const OpDef* const tcvt = generator::FindOp("tcvt");
  static const OpDef* const encode = generator::FindOp("encode");
  static const OpDef* const shift = generator::FindOp("shift");
  static const OpDef* const qparam = generator::FindOp("qparam");
  static const OpDef* const tquant = generator::FindOp("tquant");
  static const OpDef* const tdequant = generator::FindOp("tdequant");
  static const OpDef* const affine = generator::FindOp("affine");
  if (c.op == encode) return OpKind::Encode;
  if (c.op == tcvt) return OpKind::Tcvt;
  if (c.op == affine) return OpKind::Affine;
  if (c.op == tdequant) return OpKind::Tdequant;
  if (c.op == tquant) return OpKind::Tquant;
  if (c.op == shift) return OpKind::Shift;
  if (c.op == qparam) return OpKind::Qparam;
  return OpKind::Other;
}

inline Encoded Oracle(const Case& c) { return c.op->evaluate(c.pair, c.in, c.control); }

/// The oracle under other controls.
inline Encoded OracleWith(const Case& c, NumericExecutionControl control) {
  Case d = c;
  d.control = control;
  return Oracle(d);
}

/// The oracle with one rounding mode replaced by another (ops without controls unchanged).
inline Encoded OracleModeSwap(const Case& c, M from, M to) {
  if (!c.op->uses_controls || c.control.rounding_mode != from) return Oracle(c);
  return OracleWith(c, {to, c.control.saturating});
}

inline bool IsFloating(T type) { return Format(type).IsFloating(); }
inline bool IsBinary(T type) { return Format(type).kind == oracle::FormatKind::Binary; }
inline bool IsFP8(T type) { return type == T::E4M3 || type == T::HiF8; }
inline Word SignBit(T type) { return Word{1} << (Format(type).width - 1); }

inline bool IsSubnormal(NumericValueClass c) {
  return c == NumericValueClass::PositiveSubnormal || c == NumericValueClass::NegativeSubnormal;
}
inline bool IsNormal(NumericValueClass c) {
  return c == NumericValueClass::PositiveNormal || c == NumericValueClass::NegativeNormal;
}

/// The exact value of an `encode` source word (FP32, FP16, BF16, E4M3, HiF8 finite codes; S32).
inline Dyadic EncodeValue(const Case& c) {
  if (c.pair.src == T::S32) {
    return oracle::DyadicFromInteger(
        static_cast<std::int32_t>(static_cast<std::uint32_t>(c.in[0])));
  }
  return oracle::DyadicFromFiniteCode(c.pair.src, c.in[0]);
}

/// ReferenceMatrixFloatingEncoding / ReferenceMatrixIntegerEncoding of an exact value (fast
/// paths), as the destination's element-width word.
inline Encoded EncodeDyadic(const Dyadic& value, T dst, NumericExecutionControl control) {
  const Encoded r = IsFloating(dst) ? oracle::FastMatrixFloatingEncoding(value, dst, control)
                                    : oracle::FastMatrixIntegerEncoding(value, dst, control);
  return {oracle::LowBits(r.word, Format(dst).width), r.status};
}

/// TDEQUANT's exact value (v - zero_point) * scale (seed 003 lines 151-172), with the zero
/// point read as signed when `zero_point_signed` (else as the source type says).
inline Dyadic DequantValue(const Case& c, bool zero_point_signed = false) {
  const auto integer = [&](Word w, bool force_signed) -> std::int64_t {
    if (force_signed) return static_cast<std::int8_t>(static_cast<std::uint8_t>(w));
    return static_cast<std::int64_t>(oracle::NormalizeTileInteger(w, c.pair.src));
  };
  const std::int64_t difference = integer(c.in[0], false) - integer(c.in[2], zero_point_signed);
  return oracle::DyadicProduct(oracle::DyadicFromInteger(difference),
                               oracle::DyadicFromFiniteCode(T::FP32, c.in[1]));
}

/// FP32 encoding of a TDEQUANT value (ReferenceFP32FiniteEncoding, rule 1: Sat ignored).
inline Encoded DequantEncode(const Dyadic& value, NumericExecutionControl control) {
  const Encoded r = oracle::FastFP32FiniteEncoding(value, control.rounding_mode);
  return {oracle::LowBits(r.word, 32), r.status};
}

/// The largest finite code of a floating destination.
inline Word LargestFinite(T type) {
  switch (type) {
    case T::FP32:
      return 0x7f7fffff;
    case T::FP16:
      return 0x7bff;
    case T::BF16:
      return 0x7f7f;
    case T::E4M3:
      return 0x7e;
    default:
      return 0x6e;  // HiF8
  }
}

/// The exact sum a + b, enough for every rounding these mutants do (to FP32, FP8 or an integer):
/// the addends' significands are at most 64 bits; bits of the smaller one more than 120 places
/// below the larger's leading bit are jammed into one sticky bit (which keeps the sum strictly
/// inside the same interval between any two neighbours of a grid of 100 bits or coarser).
inline Dyadic DyadicSum(Dyadic a, Dyadic b) {
  if (a.significand == 0) return b;
  if (b.significand == 0) return a;
  if (oracle::DyadicLeadingExponent(a) < oracle::DyadicLeadingExponent(b)) std::swap(a, b);
  const int floor = oracle::DyadicLeadingExponent(a) - 120;
  const auto jam = [floor](Dyadic& d) {
    if (d.exponent >= floor) return;
    const int shift = floor - d.exponent;
    const DyadicSignificand kept = shift >= 128 ? 0 : d.significand >> shift;
    d.significand = kept | 1;  // the bits shifted out were not all zero (d.significand != 0)
    d.exponent = floor;
  };
  jam(a);
  jam(b);
  const int exponent = std::min(a.exponent, b.exponent);
  const DyadicSignificand ma = a.significand << (a.exponent - exponent);
  const DyadicSignificand mb = b.significand << (b.exponent - exponent);
  if (a.negative == b.negative) return {a.negative, ma + mb, exponent};
  if (ma >= mb) return {a.negative, ma - mb, exponent};
  return {b.negative, mb - ma, exponent};
}

/// The FP32 word of a finite or overflowing FastFP32FiniteEncoding result as a Dyadic.
inline Dyadic Fp32Dyadic(Word word) { return oracle::DyadicFromFiniteCode(T::FP32, word); }

inline bool Fp32IsFinite(Word word) { return ((word >> 23) & 0xff) != 0xff; }

inline bool IsUnsignedInteger(T type) {
  return !IsFloating(type) && !oracle::TileDataTypeIsSigned(type);
}

inline constexpr Word kFp32One = 0x3f800000;

/// The S16 result of MatrixShiftS32ToS16's clamp applied to an already shifted value.
inline Encoded ClampToS16(std::int64_t shifted) {
  if (shifted < -32768) return {0x8000, kOF | kNX};
  if (shifted > 32767) return {0x7fff, kOF | kNX};
  return {oracle::LowBits(static_cast<Word>(shifted), 16), 0};
}

inline constexpr Status kNV = oracle::kStatusNV;

/// The integer FloatingToInteger(x, mode) gives (exact; beyond S64 it saturates, far outside
/// every destination), with NX when x is not an integer.
struct RoundedInteger {
  std::int64_t value;
  bool inexact;
};
inline RoundedInteger RoundToInteger(const Dyadic& x, M mode) {
  const Encoded r = oracle::FastMatrixIntegerEncoding(x, T::S64, {mode, true});
  return {static_cast<std::int64_t>(r.word), (r.status & kNX) != 0};
}

/// The range ends of integer type `type` as integers (S4X2/U4X2: its 4-bit lane).
inline std::int64_t IntegerMinimum(T type) {
  return static_cast<std::int64_t>(
      oracle::NormalizeTileInteger(oracle::TileIntegerMinimum(type), type));
}
inline std::int64_t IntegerMaximum(T type) {
  return static_cast<std::int64_t>(
      oracle::NormalizeTileInteger(oracle::TileIntegerMaximum(type), type));
}

inline bool IsSignedInteger(T type) {
  return !IsFloating(type) && oracle::TileDataTypeIsSigned(type);
}

/// An encode into an integer destination (the converter the RTL unit and the simulator share).
inline bool IsIntegerEncode(const Case& c) {
  return KindOf(c) == OpKind::Encode && !IsFloating(c.pair.dst);
}

}  // namespace ptovec::generator::faults
