// The mutant catalog (see mutants.hpp). Each mutant is one function `Encoded F(const Case&)`:
// the oracle's bulk path (the op registry's `evaluate`, i.e. the proven Fast* paths of
// oracle/include/ptovec/oracle/fast.hpp) with one fault injected by transforming the inputs, the
// controls, the exact value or the result the way the modelled hardware/software bug does. Where
// the fault does not apply, the function returns the oracle's answer unchanged.
//
// Integers only (no cpp_rational per call): every mutant costs about one oracle evaluation, two
// at most, so a mutant runs the 110M-vector default suite about as fast as the oracle device.
#include "mutants.hpp"

#include <algorithm>
#include <array>
#include <cstdint>
#include <utility>

#include "ptovec/oracle/fast.hpp"
#include "ptovec/oracle/formats.hpp"
#include "ptovec/oracle/matrix_postprocess.hpp"
#include "ptovec/oracle/matrix_quantization.hpp"

namespace ptovec::mutants {

namespace {

using generator::OpDef;
using oracle::Dyadic;
using oracle::DyadicSignificand;
using oracle::Format;
using oracle::FormatInfo;
using oracle::NumericExecutionControl;
using oracle::NumericRoundingMode;
using oracle::NumericValueClass;
using oracle::Status;
using oracle::Word;
using T = oracle::TileDataType;
using M = NumericRoundingMode;

constexpr Status kOF = oracle::kStatusOF;
constexpr Status kUF = oracle::kStatusUF;
constexpr Status kNX = oracle::kStatusNX;

// ---- shared helpers ----------------------------------------------------------------------

enum class OpKind : std::uint8_t { Tcvt, Encode, Shift, Qparam, Tquant, Tdequant, Affine, Other };

OpKind KindOf(const Case& c) {
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

Encoded Oracle(const Case& c) { return c.op->evaluate(c.pair, c.in, c.control); }

/// The oracle under other controls.
Encoded OracleWith(const Case& c, NumericExecutionControl control) {
  Case d = c;
  d.control = control;
  return Oracle(d);
}

/// The oracle with one rounding mode replaced by another (ops without controls unchanged).
Encoded OracleModeSwap(const Case& c, M from, M to) {
  if (!c.op->uses_controls || c.control.rounding_mode != from) return Oracle(c);
  return OracleWith(c, {to, c.control.saturating});
}

bool IsFloating(T type) { return Format(type).IsFloating(); }
bool IsBinary(T type) { return Format(type).kind == oracle::FormatKind::Binary; }
bool IsFP8(T type) { return type == T::E4M3 || type == T::HiF8; }
Word SignBit(T type) { return Word{1} << (Format(type).width - 1); }

bool IsSubnormal(NumericValueClass c) {
  return c == NumericValueClass::PositiveSubnormal || c == NumericValueClass::NegativeSubnormal;
}
bool IsNormal(NumericValueClass c) {
  return c == NumericValueClass::PositiveNormal || c == NumericValueClass::NegativeNormal;
}

/// The exact value of an `encode` source word (FP32, FP16, BF16, E4M3, HiF8 finite codes; S32).
Dyadic EncodeValue(const Case& c) {
  if (c.pair.src == T::S32) {
    return oracle::DyadicFromInteger(
        static_cast<std::int32_t>(static_cast<std::uint32_t>(c.in[0])));
  }
  return oracle::DyadicFromFiniteCode(c.pair.src, c.in[0]);
}

/// ReferenceMatrixFloatingEncoding / ReferenceMatrixIntegerEncoding of an exact value (fast
/// paths), as the destination's element-width word.
Encoded EncodeDyadic(const Dyadic& value, T dst, NumericExecutionControl control) {
  const Encoded r = IsFloating(dst) ? oracle::FastMatrixFloatingEncoding(value, dst, control)
                                    : oracle::FastMatrixIntegerEncoding(value, dst, control);
  return {oracle::LowBits(r.word, Format(dst).width), r.status};
}

/// TDEQUANT's exact value (v - zero_point) * scale (seed 003 lines 151-172), with the zero
/// point read as signed when `zero_point_signed` (else as the source type says).
Dyadic DequantValue(const Case& c, bool zero_point_signed = false) {
  const auto integer = [&](Word w, bool force_signed) -> std::int64_t {
    if (force_signed) return static_cast<std::int8_t>(static_cast<std::uint8_t>(w));
    return static_cast<std::int64_t>(oracle::NormalizeTileInteger(w, c.pair.src));
  };
  const std::int64_t difference = integer(c.in[0], false) - integer(c.in[2], zero_point_signed);
  return oracle::DyadicProduct(oracle::DyadicFromInteger(difference),
                               oracle::DyadicFromFiniteCode(T::FP32, c.in[1]));
}

/// FP32 encoding of a TDEQUANT value (ReferenceFP32FiniteEncoding, rule 1: Sat ignored).
Encoded DequantEncode(const Dyadic& value, NumericExecutionControl control) {
  const Encoded r = oracle::FastFP32FiniteEncoding(value, control.rounding_mode);
  return {oracle::LowBits(r.word, 32), r.status};
}

/// The largest finite code of a floating destination.
Word LargestFinite(T type) {
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

// ---- the mutants -------------------------------------------------------------------------
//
// Each comment: the bug modelled, where it was seen, the ops/pairs it affects.

// ties_away: the nearest-mode rounder resolves ties away from zero for RNE (an RNA rounder wired
// for both, as in converters that implement only "round half away"). Every op with controls;
// visible on exact ties: encode (all pairs), affine, tquant, tdequant.
Encoded TiesAway(const Case& c) { return OracleModeSwap(c, M::RNE, M::RNA); }

// rna_as_rne: the opposite wiring: RNA decoded as RNE (the mode field's 101 and 001 aliased).
// Every op with controls; visible on ties whose even neighbour is the smaller magnitude.
Encoded RnaAsRne(const Case& c) { return OracleModeSwap(c, M::RNA, M::RNE); }

// sticky_dropped: the rounder looks at the guard bit only; the sticky OR of the bits below the
// rounding position is lost (a classic narrowing-datapath bug). Above-half fractions become
// ties, below-half ones become exact (no NX, no directed-mode increment). encode to FP32, FP16,
// BF16 (inexact sources: FP32, S32, FP16 -> BF16, BF16 -> FP16) and tdequant.
Dyadic DropSticky(Dyadic v, T dst) {
  if (v.significand == 0) return v;
  const FormatInfo& f = Format(dst);
  const int minimum_subnormal = 1 - f.bias - static_cast<int>(f.fraction_bits);
  const int last_place = std::max(
      oracle::DyadicLeadingExponent(v) - static_cast<int>(f.fraction_bits), minimum_subnormal);
  const int guard = last_place - 1;
  if (v.exponent < guard) {
    const int shift = guard - v.exponent;
    v.significand = shift >= 128 ? 0 : v.significand >> shift;
    v.exponent = guard;
  }
  return v;
}
Encoded StickyDropped(const Case& c) {
  switch (KindOf(c)) {
    case OpKind::Encode:
      if (!IsBinary(c.pair.dst)) return Oracle(c);
      return EncodeDyadic(DropSticky(EncodeValue(c), c.pair.dst), c.pair.dst, c.control);
    case OpKind::Tdequant:
      return DequantEncode(DropSticky(DequantValue(c), T::FP32), c.control);
    default:
      return Oracle(c);
  }
}

// clamp_before_round: the input is clamped to the largest finite magnitude before rounding (a
// saturating front end), so values beyond it come out as the largest finite with no OF and no
// NX, Sat or not, and a carry past the largest finite never happens. encode to every floating
// type (FP16 and BF16 from FP32, E4M3 and HiF8 from FP32, FP16, BF16, S32; FP32 from nothing in
// range: no source exceeds it).
Encoded ClampBeforeRound(const Case& c) {
  if (KindOf(c) != OpKind::Encode || !IsFloating(c.pair.dst)) return Oracle(c);
  const Dyadic value = EncodeValue(c);
  Dyadic largest = oracle::DyadicFromFiniteCode(c.pair.dst, LargestFinite(c.pair.dst));
  if (oracle::DyadicCompareMagnitude(value, largest) <= 0) return Oracle(c);
  largest.negative = value.negative;
  return EncodeDyadic(largest, c.pair.dst, c.control);
}

// sat_ignored: the Sat bit of the execution control is not wired to the datapath: every case runs
// as non-Sat. encode (overflowing integer and floating pairs), affine, tquant, tcvt to E8M0
// (+Inf, overflow and underflow codes).
Encoded SatIgnored(const Case& c) {
  if (!c.op->uses_controls || !c.control.saturating) return Oracle(c);
  return OracleWith(c, {c.control.rounding_mode, false});
}

// nonsat_overflow_max_finite: without Sat, an overflowing floating encode returns the largest
// finite (what Sat gives) instead of Inf (FP32, FP16, BF16, HiF8) or NaN 0x7F (E4M3): the
// "saturate always" shortcut of many FP8 converters. encode to every floating type.
Encoded NonSatOverflowMaxFinite(const Case& c) {
  const Encoded r = Oracle(c);
  if (KindOf(c) != OpKind::Encode || !IsFloating(c.pair.dst) || c.control.saturating ||
      (r.status & kOF) == 0) {
    return r;
  }
  return OracleWith(c, {c.control.rounding_mode, true});
}

// e4m3_neg_overflow_ff: a negative non-Sat E4M3 overflow returns 0xFF (the sign bit OR-ed onto
// the NaN pattern) instead of the profile's 0x7F for both signs. encode to E4M3, negative values
// above 448 in magnitude (FP32, FP16, BF16, S32 sources).
Encoded E4M3NegativeOverflowFF(const Case& c) {
  Encoded r = Oracle(c);
  if (KindOf(c) == OpKind::Encode && c.pair.dst == T::E4M3 && !c.control.saturating &&
      (r.status & kOF) != 0 && EncodeValue(c).negative) {
    r.word = 0xff;
  }
  return r;
}

// negative_zero_kept: the sign of the source is copied to a zero result (IEEE's -0 semantics),
// where the profile's reals have no signed zero: -0 sources encode as +0, and a negative FP8
// value that rounds to zero is code 0x00. encode from every floating source with the sign bit
// set, to FP32, FP16, BF16 (the -0 codes) and E4M3 (-0 codes and negative values rounding to 0).
Encoded NegativeZeroKept(const Case& c) {
  Encoded r = Oracle(c);
  if (KindOf(c) != OpKind::Encode || !IsFloating(c.pair.src) || c.pair.dst == T::HiF8 ||
      !IsFloating(c.pair.dst)) {
    return r;
  }
  if ((c.in[0] & SignBit(c.pair.src)) != 0 && r.word == 0) r.word = SignBit(c.pair.dst);
  return r;
}

// underflow_after_rounding: tininess is judged on the delivered result instead of the exact
// value, so a value below the smallest normal that rounds up to it gets NX without UF (IEEE's
// "after rounding" option, which the profile does not take: spec-notes section 5 item 2).
// encode to every floating type, tdequant.
Encoded UnderflowAfterRounding(const Case& c) {
  Encoded r = Oracle(c);
  const OpKind kind = KindOf(c);
  if (!(kind == OpKind::Encode && IsFloating(c.pair.dst)) && kind != OpKind::Tdequant) return r;
  if ((r.status & kUF) != 0 && IsNormal(oracle::TileNumericValueClass(c.pair.dst, r.word))) {
    r.status = static_cast<Status>(r.status & ~kUF);
  }
  return r;
}

// subnormal_position_off_by_one: in the subnormal range the rounding position is one bit too
// high (the denormalising shift counts from the hidden bit one place too far), so tiny results
// are rounded to a multiple of two subnormal units. encode to FP32, FP16, BF16 and tdequant,
// values below the smallest normal.
Encoded SubnormalOffByOne(const Dyadic& value, T dst, NumericExecutionControl control,
                          bool dequant) {
  Dyadic half = value;
  half.exponent -= 1;
  const Encoded r = dequant ? DequantEncode(half, control) : EncodeDyadic(half, dst, control);
  const Word sign = r.word & SignBit(dst);
  const Word magnitude = r.word & ~SignBit(dst);
  return {sign | (magnitude << 1), r.status};
}
Encoded SubnormalPositionOffByOne(const Case& c) {
  const OpKind kind = KindOf(c);
  if (kind == OpKind::Encode && IsBinary(c.pair.dst)) {
    const Dyadic value = EncodeValue(c);
    if (value.significand == 0 ||
        oracle::DyadicLeadingExponent(value) >= 1 - Format(c.pair.dst).bias) {
      return Oracle(c);
    }
    return SubnormalOffByOne(value, c.pair.dst, c.control, false);
  }
  if (kind == OpKind::Tdequant) {
    const Dyadic value = DequantValue(c);
    if (value.significand == 0 || oracle::DyadicLeadingExponent(value) >= -126) return Oracle(c);
    return SubnormalOffByOne(value, T::FP32, c.control, true);
  }
  return Oracle(c);
}

// double_rounding_fp16 / double_rounding_bf16: the FP8 converter is FP32 -> FP16 (or BF16) with
// RNE, then FP16 (BF16) -> FP8 under the requested mode: two roundings, so a value just off an
// FP8 tie is first rounded onto the tie and then resolved the wrong way (and directed modes lose
// the bits below the intermediate's precision); the flags of both steps are OR-ed, as sticky
// hardware flags would be. encode to E4M3 and HiF8 from FP32 and S32 (and from BF16 via FP16,
// FP16 via BF16).
Encoded DoubleRounding(const Case& c, T intermediate) {
  if (KindOf(c) != OpKind::Encode || !IsFP8(c.pair.dst)) return Oracle(c);
  const Dyadic value = EncodeValue(c);
  const Encoded first = oracle::FastBinary16Encoding(value, intermediate, {M::RNE, false});
  if ((first.status & kOF) != 0) return Oracle(c);  // beyond FP16: beyond FP8 as well
  const Dyadic narrowed = oracle::DyadicFromFiniteCode(intermediate, first.word);
  const Encoded second = oracle::FastFP8Encoding(narrowed, c.pair.dst, c.control);
  // Hardware flags are sticky: both conversions' flags are OR-ed.
  return {second.word, static_cast<Status>(second.status | first.status)};
}
Encoded DoubleRoundingFP16(const Case& c) { return DoubleRounding(c, T::FP16); }
Encoded DoubleRoundingBF16(const Case& c) { return DoubleRounding(c, T::BF16); }

// e8m0_always_up: the E8M0 exponent rounder always takes the ceiling of a non-power-of-two
// (a "round up to cover the block maximum" scale computation, MX-style, whatever the mode).
// tcvt FP16, BF16, FP32 -> E8M0 in RNE, RTM, RTZ (positive exponents), RNA, RTO, RHB.
Encoded E8M0AlwaysUp(const Case& c) {
  if (KindOf(c) != OpKind::Tcvt || c.pair.dst != T::E8M0) return Oracle(c);
  return OracleWith(c, {M::RTP, c.control.saturating});
}

// e8m0_rtz_as_floor: E8M0 RTZ rounds the exponent down (toward -infinity) instead of toward zero,
// wrong for values below 1 (negative exponents). tcvt to E8M0, RTZ.
Encoded E8M0RtzAsFloor(const Case& c) {
  if (KindOf(c) != OpKind::Tcvt || c.pair.dst != T::E8M0) return Oracle(c);
  return OracleModeSwap(c, M::RTZ, M::RTM);
}

// e8m0_threshold_1_5: the nearest-mode E8M0 exponent rounding compares the significand with 1.5
// (the arithmetic midpoint of 2^k and 2^(k+1)) instead of sqrt(2) (the geometric one the
// profile uses), so significands in [sqrt(2), 1.5) round down. tcvt to E8M0, RNE RNA RHB.
Encoded E8M0Threshold15(const Case& c) {
  Encoded r = Oracle(c);
  const M mode = c.control.rounding_mode;
  if (KindOf(c) != OpKind::Tcvt || c.pair.dst != T::E8M0 || r.status != kNX ||
      !(mode == M::RNE || mode == M::RNA || mode == M::RHB)) {
    return r;
  }
  const oracle::FiniteDecomposition d = oracle::TileNumericFiniteDecomposition(c.pair.src, c.in[0]);
  const int highest = 63 - __builtin_clzll(d.significand);
  const int floor_exponent = d.exponent + highest;
  const bool up = 2 * d.significand >= (Word{3} << highest);
  r.word = static_cast<Word>(floor_exponent + 127 + (up ? 1 : 0));
  return r;
}

// e8m0_sqrt2_top8: the nearest-mode E8M0 exponent rounding of the RNA and RHB paths compares
// only the top 8 significand bits (the leading one and 7 fraction bits, truncated) with sqrt(2)
// truncated to 8 bits (181/128) and rounds up only above it, so significands in (sqrt(2),
// 182/128) round down although they are above sqrt(2) (issue 13's first example: 856 of the
// 917,504 FP16 -> E8M0 cases). tcvt to E8M0, RNA and RHB: for FP16 sources the significands
// 0b10110101001 .. 0b10110101111 of every binade and the subnormals 363, 725, 726 and 727
// (x 2^-24).
Encoded E8M0Sqrt2Top8(const Case& c) {
  Encoded r = Oracle(c);
  const M mode = c.control.rounding_mode;
  if (KindOf(c) != OpKind::Tcvt || c.pair.dst != T::E8M0 || r.status != kNX ||
      !(mode == M::RNA || mode == M::RHB)) {
    return r;
  }
  const oracle::FiniteDecomposition d = oracle::TileNumericFiniteDecomposition(c.pair.src, c.in[0]);
  const int highest = 63 - __builtin_clzll(d.significand);
  const int floor_exponent = d.exponent + highest;
  const Word top8 = highest >= 7 ? d.significand >> (highest - 7) : d.significand << (7 - highest);
  const bool up = top8 > 181;  // floor(sqrt(2) * 2^7) = 181
  r.word = static_cast<Word>(floor_exponent + 127 + (up ? 1 : 0));
  return r;
}

// rto_as_rtz: round-to-odd is decoded as truncation (no jamming of the sticky bit into the last
// place). Every op with controls; visible whenever the truncated result is even and inexact.
Encoded RtoAsRtz(const Case& c) { return OracleModeSwap(c, M::RTO, M::RTZ); }

// rhb_as_rna: round-half-biased (ties toward +infinity) implemented as round-half-away (ties
// away from zero): the two agree except on negative ties, where RHB takes the smaller magnitude.
// Every op with controls; negative ties of encode, affine, tquant, tdequant.
Encoded RhbAsRna(const Case& c) { return OracleModeSwap(c, M::RHB, M::RNA); }

// rtp_rtm_swapped_negative: a sign-magnitude rounder rounds |x| with RTP/RTM unchanged for
// negative x (the profile's MatrixRoundMagnitude swaps them, seed 000 lines 43-51), so negative
// values round the wrong way. encode, every pair, negative inexact values under RTP and RTM.
Encoded RtpRtmSwappedNegative(const Case& c) {
  if (KindOf(c) != OpKind::Encode) return Oracle(c);
  const M mode = c.control.rounding_mode;
  if ((mode != M::RTP && mode != M::RTM) || !EncodeValue(c).negative) return Oracle(c);
  return OracleWith(c, {mode == M::RTP ? M::RTM : M::RTP, c.control.saturating});
}

// bf16_truncation: FP32 -> BF16 by dropping the low 16 bits (the common software shortcut) when
// RNE is requested. encode to BF16 from FP32, S32 and FP16, RNE.
Encoded Bf16Truncation(const Case& c) {
  if (KindOf(c) != OpKind::Encode || c.pair.dst != T::BF16) return Oracle(c);
  return OracleModeSwap(c, M::RNE, M::RTZ);
}

// s8_wrap_without_of: a non-Sat S8 encode wraps correctly but forgets OF (only NX is raised, as
// if the wrap were a rounding). encode to S8, affine to S8, non-Sat overflow.
Encoded S8WrapWithoutOF(const Case& c) {
  Encoded r = Oracle(c);
  const OpKind kind = KindOf(c);
  if ((kind == OpKind::Encode || kind == OpKind::Affine) && c.pair.dst == T::S8 &&
      !c.control.saturating) {
    r.status = static_cast<Status>(r.status & ~kOF);
  }
  return r;
}

// nx_missing_integer: integer encodes never raise NX for a rounded in-range result (the integer
// path has no inexact detection). encode to every integer type, affine.
Encoded NxMissingInteger(const Case& c) {
  Encoded r = Oracle(c);
  const OpKind kind = KindOf(c);
  if (((kind == OpKind::Encode && !IsFloating(c.pair.dst)) || kind == OpKind::Affine) &&
      r.status == kNX) {
    r.status = 0;
  }
  return r;
}

// uf_on_exact_subnormal: an exact subnormal result raises UF (IEEE's trapping-underflow rule
// leaking into the untrapped flag), where the profile raises nothing. encode to every floating
// type (e.g. HiF8 subnormals into FP16, FP16 subnormals into FP32), tdequant.
Encoded UfOnExactSubnormal(const Case& c) {
  Encoded r = Oracle(c);
  const OpKind kind = KindOf(c);
  if (!(kind == OpKind::Encode && IsFloating(c.pair.dst)) && kind != OpKind::Tdequant) return r;
  if (r.status == 0 && IsSubnormal(oracle::TileNumericValueClass(c.pair.dst, r.word))) {
    r.status = kUF;
  }
  return r;
}

// ftz_subnormal_results: flush-to-zero: a subnormal result becomes zero (signed for the binary
// formats, 0x00 for FP8) with UF|NX. encode to every floating type, tdequant.
Encoded FtzSubnormalResults(const Case& c) {
  Encoded r = Oracle(c);
  const OpKind kind = KindOf(c);
  if (!(kind == OpKind::Encode && IsFloating(c.pair.dst)) && kind != OpKind::Tdequant) return r;
  if (IsSubnormal(oracle::TileNumericValueClass(c.pair.dst, r.word))) {
    r.word = IsFP8(c.pair.dst) ? 0 : (r.word & SignBit(c.pair.dst));
    r.status = kUF | kNX;
  }
  return r;
}

// daz_subnormal_inputs: denormals-are-zero: a subnormal source is read as zero. encode from
// FP32, FP16, BF16, E4M3 and HiF8 subnormal codes, every destination.
Encoded DazSubnormalInputs(const Case& c) {
  if (KindOf(c) != OpKind::Encode || !IsFloating(c.pair.src) ||
      !IsSubnormal(oracle::TileNumericValueClass(c.pair.src, c.in[0]))) {
    return Oracle(c);
  }
  return EncodeDyadic(Dyadic{}, c.pair.dst, c.control);
}

// fp8_overflow_after_rounding: E4M3/HiF8 overflow judged after rounding (IEEE style) instead of
// on the exact magnitude (spec-notes section 5 item 4): a magnitude a little above 448 (32768)
// that rounds to it under the mode returns the largest finite with NX instead of overflowing.
// encode to E4M3 and HiF8.
Encoded Fp8OverflowAfterRounding(const Case& c) {
  Encoded r = Oracle(c);
  if (KindOf(c) != OpKind::Encode || !IsFP8(c.pair.dst) || (r.status & kOF) == 0) return r;
  const bool e4m3 = c.pair.dst == T::E4M3;
  const int last_place = e4m3 ? 5 : 14;  // 448 = 14 * 2^5; 32768 = 2 * 2^14
  const std::int64_t largest_units = e4m3 ? 14 : 2;
  Dyadic units = EncodeValue(c);
  units.exponent -= last_place;
  const Encoded rounded = oracle::FastMatrixIntegerEncoding(units, T::S32, c.control);
  if ((rounded.status & kOF) != 0) return r;
  const auto n = static_cast<std::int64_t>(rounded.word);
  if (n != largest_units && n != -largest_units) return r;
  const Word largest = LargestFinite(c.pair.dst);
  return {n < 0 ? (largest | 0x80) : largest, kNX};
}

// hif8_overflow_nan: a non-Sat HiF8 overflow returns the NaN code 0x80 (the E4M3 habit of
// "overflow is NaN" carried over) instead of +/-Inf 0x6F/0xEF. encode to HiF8.
Encoded Hif8OverflowNaN(const Case& c) {
  Encoded r = Oracle(c);
  if (KindOf(c) == OpKind::Encode && c.pair.dst == T::HiF8 && !c.control.saturating &&
      (r.status & kOF) != 0) {
    r.word = 0x80;
  }
  return r;
}

// hif8_exponent_sign_misread: the HiF8 decoder reads the exponent sign bit with the wrong
// polarity (bit 3 of the 001x dot field, bit 4 of the 01xx/10xx/11xx fields), so 2^e decodes as
// 2^-e. encode from HiF8, every destination. A misread code that lands on Inf (0x7F -> 0x6F)
// overflows the destination.
Encoded Hif8ExponentSignMisread(const Case& c) {
  if (KindOf(c) != OpKind::Encode || c.pair.src != T::HiF8) return Oracle(c);
  const Word body = c.in[0] & 0x7f;
  const Word dot = body >> 3;
  Word flip = 0;
  if (dot == 2 || dot == 3) {
    flip = 0x08;
  } else if (dot >= 4) {
    flip = 0x10;
  }
  const Word misread = c.in[0] ^ flip;
  const NumericValueClass cls = oracle::TileNumericValueClass(T::HiF8, misread);
  if (oracle::NumericValueClassIsInfinity(cls) || oracle::NumericValueClassIsNaN(cls)) {
    Dyadic huge{(misread & 0x80) != 0, 1, 1000};
    return EncodeDyadic(huge, c.pair.dst, c.control);
  }
  Case d = c;
  d.in[0] = misread;
  return Oracle(d);
}

// tquant_of_under_sat: TQUANT raises OF|NX when Sat clamps an out-of-range result (the
// matrix-encoder rule of spec-notes section 5 item 8 applied to TQUANT, whose Sat clamps
// silently: item 6). tquant FP32 -> S8/U8, Sat, finite values out of range.
Encoded TquantOFUnderSat(const Case& c) {
  Encoded r = Oracle(c);
  if (KindOf(c) != OpKind::Tquant || !c.control.saturating) return r;
  const NumericValueClass cls = oracle::TileNumericValueClass(T::FP32, c.in[0]);
  if (oracle::NumericValueClassIsNaN(cls) || oracle::NumericValueClassIsInfinity(cls)) return r;
  const std::int64_t zero_point =
      static_cast<std::int64_t>(oracle::NormalizeTileInteger(c.in[2], c.pair.dst));
  const Encoded affine = oracle::FastMatrixQuantizedAffine(
      oracle::DyadicFromFiniteCode(T::FP32, c.in[0]),
      oracle::DyadicFromFiniteCode(T::FP32, c.in[1]), zero_point, 0, c.pair.dst, c.control);
  if ((affine.status & kOF) != 0) r.status = static_cast<Status>(r.status | kOF | kNX);
  return r;
}

// tquant_nonsat_saturates: TQUANT always clamps (Sat forced on): non-Sat results that should wrap
// to 8 bits saturate instead. tquant, non-Sat, out-of-range results.
Encoded TquantNonSatSaturates(const Case& c) {
  if (KindOf(c) != OpKind::Tquant || c.control.saturating) return Oracle(c);
  return OracleWith(c, {c.control.rounding_mode, true});
}

// tdequant_reads_sat: TDEQUANT honours Sat like the matrix FP32 encoder (overflow gives
// +/-0x7F7FFFFF) where the profile ignores Sat (spec-notes section 5 item 7). tdequant, Sat,
// overflowing (v - zp) * scale.
Encoded TdequantReadsSat(const Case& c) {
  Encoded r = Oracle(c);
  if (KindOf(c) == OpKind::Tdequant && c.control.saturating && (r.status & kOF) != 0) {
    r.word = (r.word & 0x80000000) | 0x7f7fffff;
  }
  return r;
}

// tdequant_u8_zero_point_signed: the U8 zero point is sign-extended (read as S8), so zero points
// 0x80..0xFF are taken as -128..-1. tdequant U8 -> FP32.
Encoded TdequantU8ZeroPointSigned(const Case& c) {
  if (KindOf(c) != OpKind::Tdequant || c.pair.src != T::U8) return Oracle(c);
  return DequantEncode(DequantValue(c, true), c.control);
}

// shift_of_missing: MatrixShiftS32ToS16 clamps to S16 but raises no OF|NX. shift, results out of
// S16 range.
Encoded ShiftOFMissing(const Case& c) {
  Encoded r = Oracle(c);
  if (KindOf(c) == OpKind::Shift) r.status = 0;
  return r;
}

// shift_logical: the right shift is logical instead of arithmetic, so negative S32 values become
// large positives and clamp to 0x7FFF. shift, negative values.
Encoded ShiftLogical(const Case& c) {
  if (KindOf(c) != OpKind::Shift) return Oracle(c);
  const auto value = static_cast<std::uint32_t>(c.in[0]);
  const std::uint32_t shifted = value >> static_cast<unsigned>(c.in[1]);
  if (shifted > 0x7fff) return {0x7fff, kOF | kNX};
  return {shifted, 0};
}

// affine_width17_as_16: the S17 intermediate of MatrixQuantizedAffine is clamped to S16 (a 16-bit
// register where the spec has 17 bits): products in [2^15, 2^16) clamp to 32767 (and below
// -32768 to -32768) with OF|NX. affine, width 17.
Encoded AffineWidth17As16(const Case& c) {
  if (KindOf(c) != OpKind::Affine || c.in[3] != 17) return Oracle(c);
  const Dyadic value = c.pair.src == T::S32 ? oracle::DyadicFromInteger(static_cast<std::int32_t>(
                                                  static_cast<std::uint32_t>(c.in[0])))
                                            : oracle::DyadicFromFiniteCode(T::FP32, c.in[0]);
  const Dyadic product =
      oracle::DyadicProduct(value, oracle::DyadicFromFiniteCode(T::FP19, c.in[1]));
  auto [intermediate, flags] =
      oracle::FastMatrixRoundAndSaturateSigned(product, 17, c.control.rounding_mode);
  if (intermediate > 32767 || intermediate < -32768) {
    intermediate = intermediate > 0 ? 32767 : -32768;
    flags = static_cast<Status>(flags | kOF | kNX);
  }
  const std::int64_t offset = static_cast<std::int32_t>(static_cast<std::uint32_t>(c.in[2]));
  const Encoded r =
      EncodeDyadic(oracle::DyadicFromInteger(intermediate + offset), c.pair.dst, c.control);
  return {r.word, static_cast<Status>(r.status | flags)};
}

// fp19_scale_truncated: FP32ToFP19 truncates the 13 low fraction bits instead of rounding to
// nearest even (spec-notes section 4). qparam, scales whose dropped bits are above half or a
// tie with an odd kept part.
Encoded Fp19ScaleTruncated(const Case& c) {
  if (KindOf(c) != OpKind::Qparam) return Oracle(c);
  const Word bits = oracle::LowBits(c.in[0], 32);
  const bool nan = ((bits >> 23) & 0xff) == 0xff && (bits & 0x7fffff) != 0;
  const Word fp19 = nan ? 0x3ff00 : bits >> 13;
  return {oracle::MatrixQuantParameter(fp19, oracle::SignExtend(c.in[1], 32),
                                       static_cast<int>(c.in[2])),
          0};
}

// ---- issue 13 section 4: more fault kinds ------------------------------------------------

/// The exact sum a + b, enough for every rounding these mutants do (to FP32, FP8 or an integer):
/// the addends' significands are at most 64 bits; bits of the smaller one more than 120 places
/// below the larger's leading bit are jammed into one sticky bit (which keeps the sum strictly
/// inside the same interval between any two neighbours of a grid of 100 bits or coarser).
Dyadic DyadicSum(Dyadic a, Dyadic b) {
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
Dyadic Fp32Dyadic(Word word) { return oracle::DyadicFromFiniteCode(T::FP32, word); }

bool Fp32IsFinite(Word word) { return ((word >> 23) & 0xff) != 0xff; }

bool IsUnsignedInteger(T type) { return !IsFloating(type) && !oracle::TileDataTypeIsSigned(type); }

constexpr Word kFp32One = 0x3f800000;

// fp8_tiny_shift_wraps: the FP8 encoder denormalises a tiny value by shifting the source's 24-bit
// FP32 significand right by (14 - exponent) places in a 32-bit register; for values below 2^-17
// the amount is 32 or more and the shifter uses it modulo 32 (x86's SHR masks the count to 5
// bits; the C shift is undefined), so a value far below the smallest E4M3 subnormal (2^-9) comes
// out as a non-zero code made of the significand's high bits (packed as `sign | bits` in 8
// bits). Models the "float to fp8/half returns garbage for very small inputs" reports against
// converters that skip the "shift >= width: result 0" check. Flags stay the oracle's (the
// tininess logic sees the exponent). encode to E4M3 from FP32, BF16 and FP16 (widened to FP32
// first), values below 2^-17.
Encoded Fp8TinyShiftWraps(const Case& c) {
  Encoded r = Oracle(c);
  if (KindOf(c) != OpKind::Encode || c.pair.dst != T::E4M3 || !IsBinary(c.pair.src)) return r;
  const Dyadic value = EncodeValue(c);
  if (value.significand == 0) return r;
  // The FP32 form: |value| = M * 2^(E - 23), M < 2^24 (the hidden bit included), E >= -126.
  const int exponent = std::max(oracle::DyadicLeadingExponent(value), -126);
  const int shift = 14 - exponent;  // |value| / 2^-9 = M >> shift
  if (shift < 32) return r;
  const int lowest = exponent - 23;  // the exponent of M's last bit
  const DyadicSignificand m = value.exponent >= lowest
                                  ? value.significand << (value.exponent - lowest)
                                  : value.significand >> (lowest - value.exponent);
  const Dyadic wrapped{value.negative, m, -(shift & 31)};
  const Encoded rounded =
      oracle::FastMatrixIntegerEncoding(wrapped, T::S64, {c.control.rounding_mode, false});
  const auto n = static_cast<std::int64_t>(rounded.word);
  const Word magnitude = static_cast<Word>(n < 0 ? -n : n);
  r.word = ((value.negative ? 0x80 : 0) | magnitude) & 0xff;
  return r;
}

// e4m3_top_binade_saturates: the E4M3 encoder treats the top exponent field (15) as reserved for
// Inf/NaN, as IEEE-style formats and E5M2 do, where OCP E4M3 (FN) uses it for finite values up to
// 448; so every result in the top binade (256 to 448, codes 0x78..0x7E) is an overflow: 0x7F
// (NaN) with OF|NX, or under Sat the "largest finite" 240 (0x77) with OF|NX. Models the reports
// of FP8 E4M3 conversions that clip at 240 (E5M2/IEEE logic reused for E4M3). encode to E4M3.
Encoded E4M3TopBinadeSaturates(const Case& c) {
  const Encoded r = Oracle(c);
  if (KindOf(c) != OpKind::Encode || c.pair.dst != T::E4M3) return r;
  const Word body = r.word & 0x7f;
  if (body < 0x78 || body > 0x7e) return r;
  const Word sign = r.word & 0x80;
  return {c.control.saturating ? (sign | 0x77) : Word{0x7f}, kOF | kNX};
}

// e4m3_mantissa_carry_lost: rounding up a mantissa of 111 gives 1000, whose carry should
// increment the exponent; the encoder keeps the three low bits (000) and the old exponent, so the
// result drops to the bottom of its binade (1.9375 under RNE becomes 1.0 instead of 2.0). Models
// the "rounding overflow into the exponent not handled" reports of hand-written FP8 and bfloat
// packers. encode to E4M3, normal results that round up across a binade boundary.
Encoded E4M3MantissaCarryLost(const Case& c) {
  const Encoded r = Oracle(c);
  if (KindOf(c) != OpKind::Encode || c.pair.dst != T::E4M3 || (r.status & kOF) != 0) return r;
  const Encoded truncated = OracleWith(c, {M::RTZ, c.control.saturating});
  const Word t = truncated.word & 0x7f;
  if ((truncated.status & kOF) != 0 || (t & 0x7) != 0x7 || (t >> 3) == 0 ||
      (r.word & 0x7f) != t + 1) {
    return r;
  }
  return {(r.word & 0x80) | (t & 0x78), r.status};
}

// uf_without_nx: an inexact tiny result raises UF alone; the underflow path returns before the
// inexact flag is set (the profile, like IEEE 754's untrapped underflow, raises UF only together
// with NX: 0x18). Models the "underflow flag without inexact" reports of soft-float and FP8
// emulation code. encode to every floating type. (TDEQUANT cannot underflow inexactly: (v - zp)
// x scale is an integer multiple of 2^-149, exact whenever it is below 2^-126.)
Encoded UfWithoutNx(const Case& c) {
  Encoded r = Oracle(c);
  if (KindOf(c) != OpKind::Encode || !IsFloating(c.pair.dst)) return r;
  if ((r.status & kUF) != 0) r.status = static_cast<Status>(r.status & ~kNX);
  return r;
}

// sat_overflow_of_dropped: under Sat a floating overflow is clamped to the largest finite value
// with NX only: the saturating path forgets OF (spec-notes section 5 item 8 wants OF|NX). Models
// the "saturating convert does not report overflow" reports. encode to FP16, BF16, E4M3, HiF8
// (and FP32, which no source overflows), Sat.
Encoded SatOverflowOFDropped(const Case& c) {
  Encoded r = Oracle(c);
  if (KindOf(c) != OpKind::Encode || !IsFloating(c.pair.dst) || !c.control.saturating) return r;
  r.status = static_cast<Status>(r.status & ~kOF);
  return r;
}

/// TQUANT of the FP32 word `value` with scale 1.0 and the case's zero point: the seed's rounding,
/// Sat clamp or wrap and flags applied to value + zero point (value any FP32 word, Inf included).
Encoded TquantOfWord(const Case& c, Word value) {
  Case d = c;
  d.in[0] = value;
  d.in[1] = kFp32One;
  return Oracle(d);
}

// tquant_clamp_before_zero_point: under Sat, TQUANT's saturation stage sits before the zero-point
// adder: value * scale is clamped to the destination's range, then the zero point is added and
// the sum rounded and clamped again, so a product outside the range that the zero point would
// bring back in comes out wrong (S8: 200 + (-100) gives 27 instead of 100). Models the
// "quantize clamps before adding zero_point" reports of quantization kernels. tquant, Sat,
// finite products outside the destination's range.
Encoded TquantClampBeforeZeroPoint(const Case& c) {
  if (KindOf(c) != OpKind::Tquant || !c.control.saturating) return Oracle(c);
  const NumericValueClass cls = oracle::TileNumericValueClass(T::FP32, c.in[0]);
  if (oracle::NumericValueClassIsNaN(cls) || oracle::NumericValueClassIsInfinity(cls)) {
    return Oracle(c);
  }
  const Dyadic product = oracle::DyadicProduct(Fp32Dyadic(c.in[0]), Fp32Dyadic(c.in[1]));
  const bool u8 = c.pair.dst == T::U8;
  Word clamped = 0;  // the range end as an FP32 word
  if (product.significand != 0 && product.negative &&
      (u8 || oracle::DyadicCompareMagnitude(product, oracle::DyadicFromInteger(128)) > 0)) {
    clamped = u8 ? 0x00000000 : 0xc3000000;  // 0.0 or -128.0
  } else if (product.significand != 0 && !product.negative &&
             oracle::DyadicCompareMagnitude(product, oracle::DyadicFromInteger(u8 ? 255 : 127)) >
                 0) {
    clamped = u8 ? 0x437f0000 : 0x42fe0000;  // 255.0 or 127.0
  } else {
    return Oracle(c);
  }
  return TquantOfWord(c, clamped);
}

// tquant_product_rounded_fp32: TQUANT computes value * scale as an FP32 multiply (rounded to
// nearest even, the FPU default) and adds the zero point to that, rounding twice where the seed
// rounds value * scale + zero point once: a product just off an integer or a .5 tie is first
// rounded onto it (RNE then resolves the tie, directed modes lose the fraction). The multiply's
// NX is OR-ed into the flags; a product beyond FP32 is +/-Inf and quantizes as an infinite
// value does. Models the "quantize_per_tensor differs from the reference by one" reports of
// float-multiply-then-round kernels. tquant, products with more than 24 significant bits.
Encoded TquantProductRoundedFp32(const Case& c) {
  if (KindOf(c) != OpKind::Tquant) return Oracle(c);
  const NumericValueClass cls = oracle::TileNumericValueClass(T::FP32, c.in[0]);
  if (oracle::NumericValueClassIsNaN(cls) || oracle::NumericValueClassIsInfinity(cls)) {
    return Oracle(c);
  }
  const Encoded product = oracle::FastFP32FiniteEncoding(
      oracle::DyadicProduct(Fp32Dyadic(c.in[0]), Fp32Dyadic(c.in[1])), M::RNE);
  const Encoded r = TquantOfWord(c, oracle::LowBits(product.word, 32));
  return {r.word, static_cast<Status>(r.status | (product.status & kNX))};
}

// tdequant_two_products: TDEQUANT computes value * scale - zero_point * scale (two FP32
// products, then their FP32 difference, each rounded under the mode) instead of rounding
// (value - zero_point) * scale once; the flags of the three operations are OR-ed, an infinite
// product propagates (Inf - Inf is the default NaN 0x7FC00000 with NV). Models the "distributed
// the scale over the subtraction" reports of dequantize kernels. tdequant, products with more
// than 24 significant bits (most scales).
Encoded TdequantTwoProducts(const Case& c) {
  if (KindOf(c) != OpKind::Tdequant) return Oracle(c);
  const auto integer = [&](Word w) {
    return static_cast<std::int64_t>(oracle::NormalizeTileInteger(w, c.pair.src));
  };
  const Dyadic scale = Fp32Dyadic(c.in[1]);
  const M mode = c.control.rounding_mode;
  const Encoded p = oracle::FastFP32FiniteEncoding(
      oracle::DyadicProduct(oracle::DyadicFromInteger(integer(c.in[0])), scale), mode);
  const Encoded q = oracle::FastFP32FiniteEncoding(
      oracle::DyadicProduct(oracle::DyadicFromInteger(integer(c.in[2])), scale), mode);
  const Word pw = oracle::LowBits(p.word, 32);
  const Word qw = oracle::LowBits(q.word, 32);
  const auto flags = static_cast<Status>(p.status | q.status);
  if (!Fp32IsFinite(pw) || !Fp32IsFinite(qw)) {
    if (Fp32IsFinite(qw)) return {pw, flags};                             // Inf - finite
    if (Fp32IsFinite(pw)) return {qw ^ 0x80000000, flags};                // finite - Inf
    if (pw != qw) return {pw, flags};                                     // Inf - (-Inf)
    return {0x7fc00000, static_cast<Status>(flags | oracle::kStatusNV)};  // Inf - Inf
  }
  Dyadic negated_q = Fp32Dyadic(qw);
  negated_q.negative = !negated_q.negative;
  const Encoded d = DequantEncode(DyadicSum(Fp32Dyadic(pw), negated_q), c.control);
  return {d.word, static_cast<Status>(d.status | flags)};
}

// tdequant_difference_8bit: TDEQUANT forms value - zero_point in an 8-bit register of the source
// type, so differences outside it wrap (S8: 100 - (-100) = 200 becomes -56; U8: 10 - 20 becomes
// 246) before the scaling. Models the "int8 subtraction overflow in dequantize" reports (the
// difference needs 9 bits). tdequant, differences outside the source's range.
Encoded TdequantDifference8Bit(const Case& c) {
  if (KindOf(c) != OpKind::Tdequant) return Oracle(c);
  const auto integer = [&](Word w) {
    return static_cast<std::int64_t>(oracle::NormalizeTileInteger(w, c.pair.src));
  };
  const std::int64_t difference = integer(c.in[0]) - integer(c.in[2]);
  const auto wrapped = static_cast<std::int64_t>(
      oracle::NormalizeTileInteger(static_cast<Word>(difference), c.pair.src));
  return DequantEncode(
      oracle::DyadicProduct(oracle::DyadicFromInteger(wrapped), Fp32Dyadic(c.in[1])), c.control);
}

/// The exact value an integer-destination op hands to ReferenceMatrixIntegerEncoding, and the
/// flags raised before it: encode (the source's value) and affine (value * scale + offset for
/// width 0, else the S5/S9/S17 intermediate + offset with MatrixRoundAndSaturateSigned's flags).
struct IntegerEncodeInput {
  Dyadic value;
  Status before = 0;
};
IntegerEncodeInput IntegerInput(const Case& c) {
  if (KindOf(c) == OpKind::Encode) return {EncodeValue(c), 0};
  const Dyadic value = c.pair.src == T::S32 ? oracle::DyadicFromInteger(static_cast<std::int32_t>(
                                                  static_cast<std::uint32_t>(c.in[0])))
                                            : Fp32Dyadic(c.in[0]);
  const Dyadic product =
      oracle::DyadicProduct(value, oracle::DyadicFromFiniteCode(T::FP19, c.in[1]));
  const Dyadic offset =
      oracle::DyadicFromInteger(static_cast<std::int32_t>(static_cast<std::uint32_t>(c.in[2])));
  const int width = static_cast<int>(c.in[3]);
  if (width == 0) return {DyadicSum(product, offset), 0};
  const auto [intermediate, flags] =
      oracle::FastMatrixRoundAndSaturateSigned(product, width, c.control.rounding_mode);
  return {DyadicSum(oracle::DyadicFromInteger(intermediate), offset), flags};
}

// unsigned_negative_nx_only: a value that rounds to a negative integer is encoded into an
// unsigned destination (clamped to 0 under Sat, wrapped otherwise) with NX only: the unsigned
// path treats the sign as a rounding loss instead of an overflow (the seed: OF|NX). Models the
// "negative float to unsigned conversion does not raise overflow/invalid" reports. encode and
// affine to U4X2, U8, U16, U32, values rounding below 0.
Encoded UnsignedNegativeNxOnly(const Case& c) {
  Encoded r = Oracle(c);
  const OpKind kind = KindOf(c);
  if ((kind != OpKind::Encode && kind != OpKind::Affine) || !IsUnsignedInteger(c.pair.dst)) {
    return r;
  }
  const IntegerEncodeInput input = IntegerInput(c);
  if (!input.value.negative || input.value.significand == 0) return r;
  // FloatingToInteger's result is negative exactly when the signed S64 encode's word is (a value
  // beyond S64 is far below 0 and clamps to its minimum).
  const Encoded rounded =
      oracle::FastMatrixIntegerEncoding(input.value, T::S64, {c.control.rounding_mode, true});
  if (static_cast<std::int64_t>(rounded.word) >= 0) return r;
  r.status = static_cast<Status>(input.before | kNX);
  return r;
}

/// The S16 result of MatrixShiftS32ToS16's clamp applied to an already shifted value.
Encoded ClampToS16(std::int64_t shifted) {
  if (shifted < -32768) return {0x8000, kOF | kNX};
  if (shifted > 32767) return {0x7fff, kOF | kNX};
  return {oracle::LowBits(static_cast<Word>(shifted), 16), 0};
}

// shift_rounds: the S32 -> S16 shift adds 2^(shift-1) before shifting (round half up, the
// "rounding narrowing shift" of SIMD ISAs, e.g. a fixed-point rounding mode register left at
// round-to-nearest-up) where MatrixShiftS32ToS16 truncates (seed 000 lines 93-106: ASR). Models
// the "narrowing shift uses the wrong rounding mode" reports. shift, values whose dropped bits are
// at least half.
Encoded ShiftRounds(const Case& c) {
  if (KindOf(c) != OpKind::Shift) return Oracle(c);
  const std::int64_t value = static_cast<std::int32_t>(static_cast<std::uint32_t>(c.in[0]));
  const auto shift = static_cast<int>(c.in[1]);
  return ClampToS16((value + (std::int64_t{1} << (shift - 1))) >> shift);
}

// shift_wraps: the S32 -> S16 shift keeps the low 16 bits of the shifted value without clamping
// or flags (the non-saturating narrowing shift used where the saturating one is needed). Models
// the "narrowing conversion wraps instead of saturating" reports. shift, results outside S16.
Encoded ShiftWraps(const Case& c) {
  if (KindOf(c) != OpKind::Shift) return Oracle(c);
  const std::int64_t value = static_cast<std::int32_t>(static_cast<std::uint32_t>(c.in[0]));
  return {oracle::LowBits(static_cast<Word>(value >> static_cast<int>(c.in[1])), 16), 0};
}

// hif8_encode_band_sign_flipped: the HiF8 encoder writes the exponent sign of one band (the
// 4-bit-exponent band, |exponent| 4..7, 2 mantissa bits, codes 0x40..0x5F of the body) with
// the wrong polarity, so 2^e is stored as 2^-e (16 encodes as 1/16). The encode-side twin of
// hif8_exponent_sign_misread (a decoder fault on HiF8 sources). Models the "wrong exponent sign
// in one HiF8/tapered-format band" reports of table-driven encoders. encode to HiF8, results of
// magnitude in [16, 256) or [2^-7, 2^-3).
Encoded Hif8EncodeBandSignFlipped(const Case& c) {
  Encoded r = Oracle(c);
  if (KindOf(c) != OpKind::Encode || c.pair.dst != T::HiF8) return r;
  const Word body = r.word & 0x7f;
  if (body >= 0x40 && body <= 0x5f) r.word ^= 0x10;
  return r;
}
// ---- issue 27: bug kinds seen in two real implementations ----------------------------------
//
// A C++ simulator of a PTO tile library's CPU backend (no status register) and an open-source
// RISC-V FPU in RTL, both gated by ptovec as a new user would. Each mutant below is one kind of
// bug seen there, written as a fault of its own (the kind, not the implementations' code).

constexpr Status kNV = oracle::kStatusNV;

/// The integer FloatingToInteger(x, mode) gives (exact; beyond S64 it saturates, far outside
/// every destination), with NX when x is not an integer.
struct RoundedInteger {
  std::int64_t value;
  bool inexact;
};
RoundedInteger RoundToInteger(const Dyadic& x, M mode) {
  const Encoded r = oracle::FastMatrixIntegerEncoding(x, T::S64, {mode, true});
  return {static_cast<std::int64_t>(r.word), (r.status & kNX) != 0};
}

/// The range ends of integer type `type` as integers (S4X2/U4X2: its 4-bit lane).
std::int64_t IntegerMinimum(T type) {
  return static_cast<std::int64_t>(
      oracle::NormalizeTileInteger(oracle::TileIntegerMinimum(type), type));
}
std::int64_t IntegerMaximum(T type) {
  return static_cast<std::int64_t>(
      oracle::NormalizeTileInteger(oracle::TileIntegerMaximum(type), type));
}

bool IsSignedInteger(T type) { return !IsFloating(type) && oracle::TileDataTypeIsSigned(type); }

/// An encode into an integer destination (the converter the RTL unit and the simulator share).
bool IsIntegerEncode(const Case& c) {
  return KindOf(c) == OpKind::Encode && !IsFloating(c.pair.dst);
}

// mode_ignored_rne / mode_ignored_rtz: the converter's rounding-mode input is not wired (the
// simulator rounds with the host's default, the RTL unit with a constant), so every mode behaves
// as RNE, or as RTZ (a C cast). encode, float and integer destinations, every mode but the one
// kept.
Encoded ModeIgnored(const Case& c, M kept) {
  if (KindOf(c) != OpKind::Encode) return Oracle(c);
  return OracleWith(c, {kept, c.control.saturating});
}
Encoded ModeIgnoredRne(const Case& c) { return ModeIgnored(c, M::RNE); }
Encoded ModeIgnoredRtz(const Case& c) { return ModeIgnored(c, M::RTZ); }

// rto_half_to_odd: RTO implemented as round-half-to-odd (nearest, a tie to the odd neighbour)
// instead of the sticky round-to-odd of spec-notes section 2 (an inexact value always takes the
// odd one of its two neighbours): a value off a tie rounds to nearest, even when that neighbour
// is even. encode, RTO, inexact values that are not ties.
Encoded RtoHalfToOdd(const Case& c) {
  if (KindOf(c) != OpKind::Encode || c.control.rounding_mode != M::RTO) return Oracle(c);
  const Encoded r = Oracle(c);
  if ((r.status & (kNX | kOF)) != kNX) return r;  // exact, or beyond the range: no tie question
  const Dyadic x = EncodeValue(c);
  bool tie = false;
  if (!IsFloating(c.pair.dst)) {
    tie = oracle::DyadicLowExponent(x) == -1;
  } else {
    // The two neighbours of x: toward zero and away from it (Sat off); a tie is their midpoint.
    const NumericExecutionControl away{x.negative ? M::RTM : M::RTP, false};
    const Encoded lo = OracleWith(c, {M::RTZ, false});
    const Encoded hi = OracleWith(c, away);
    if ((lo.status & kOF) != 0 || (hi.status & kOF) != 0) return r;
    Dyadic sum = DyadicSum(oracle::DyadicFromFiniteCode(c.pair.dst, lo.word),
                           oracle::DyadicFromFiniteCode(c.pair.dst, hi.word));
    Dyadic twice = x;
    twice.exponent += 1;
    sum.negative = false;
    twice.negative = false;
    tie = oracle::DyadicCompareMagnitude(sum, twice) == 0;
  }
  return tie ? r : OracleWith(c, {M::RNE, c.control.saturating});
}

// e8m0_floor_every_mode: the E8M0 scale is the floor of the base-2 exponent (the biased exponent
// field read off the source, an RTM) whatever the mode: the simulator's "extract the exponent"
// shortcut. tcvt to E8M0, every mode but RTM, inputs that are not powers of two.
Encoded E8M0FloorEveryMode(const Case& c) {
  if (KindOf(c) != OpKind::Tcvt || c.pair.dst != T::E8M0) return Oracle(c);
  return OracleWith(c, {M::RTM, c.control.saturating});
}

// e8m0_specials_given_exponent: the E8M0 converter has no special-value path in front of the
// exponent rounding: a negative input is converted as its magnitude (no NV), a zero as a value
// below 2^-127 (Sat ? 0x00 : 0xFF with UF|NX, the tiny path), a NaN as an infinity (its exponent
// field is all ones: Sat ? 0xFE : 0xFF with OF|NX), where the profile gives 0xFF with NV to all
// three (spec-notes section 5 item 5). tcvt to E8M0, zero, negative and NaN sources.
Encoded E8M0SpecialsGivenExponent(const Case& c) {
  if (KindOf(c) != OpKind::Tcvt || c.pair.dst != T::E8M0) return Oracle(c);
  const NumericValueClass cls = oracle::TileNumericValueClass(c.pair.src, c.in[0]);
  const bool sat = c.control.saturating;
  if (oracle::NumericValueClassIsNaN(cls)) return {sat ? Word{0xfe} : Word{0xff}, kOF | kNX};
  if (oracle::NumericValueClassIsZero(cls)) return {sat ? Word{0x00} : Word{0xff}, kUF | kNX};
  const Word sign = SignBit(c.pair.src);
  if ((c.in[0] & sign) == 0 || oracle::NumericValueClassIsInfinity(cls)) return Oracle(c);
  Case magnitude = c;
  magnitude.in[0] = c.in[0] & ~sign;
  return Oracle(magnitude);
}

// e8m0_sign_leaks_into_exponent: the exponent field is extracted with a mask one bit too wide,
// so the sign bit of a negative input lands above the field's top bit: the biased exponent grows
// by 2^(exponent bits) (FP16: +32; BF16 and FP32: +256, beyond E8M0) and no NV is raised. A
// negative finite source then converts as its magnitude times 2^32 (FP16: the code 32 higher),
// or overflows (Sat ? 0xFE : 0xFF with OF|NX). tcvt to E8M0, negative finite non-zero sources.
Encoded E8M0SignLeaksIntoExponent(const Case& c) {
  if (KindOf(c) != OpKind::Tcvt || c.pair.dst != T::E8M0) return Oracle(c);
  const NumericValueClass cls = oracle::TileNumericValueClass(c.pair.src, c.in[0]);
  const Word sign = SignBit(c.pair.src);
  if ((c.in[0] & sign) == 0 || !oracle::TileNumericValueIsFinite(c.pair.src, c.in[0]) ||
      oracle::NumericValueClassIsZero(cls)) {
    return Oracle(c);
  }
  const Encoded overflow{c.control.saturating ? Word{0xfe} : Word{0xff}, kOF | kNX};
  if (c.pair.src != T::FP16) return overflow;
  Case magnitude = c;
  magnitude.in[0] = c.in[0] & ~sign;
  Encoded r = Oracle(magnitude);  // FP16 magnitudes are in E8M0's range: no OF, no UF
  r.word += 32;
  return r.word > 0xfe ? overflow : r;
}

// e4m3_truncates: the E4M3 converter truncates (drops the fraction bits beyond 3) in every mode:
// the simulator's bit-slicing FP8 packer. encode to E4M3, every mode but RTZ, inexact values.
Encoded E4M3Truncates(const Case& c) {
  if (KindOf(c) != OpKind::Encode || c.pair.dst != T::E4M3) return Oracle(c);
  return OracleWith(c, {M::RTZ, c.control.saturating});
}

/// |x| rounded under the mode at 4 significant bits of binade `leading` (x in [2^leading,
/// 2^(leading+1))): the significand n in 8..16 of n * 2^(leading - 3) and whether it was inexact.
RoundedInteger RoundFourBits(const Dyadic& x, int leading, M mode) {
  Dyadic units = x;
  units.exponent += 3 - leading;
  RoundedInteger n = RoundToInteger(units, mode);
  n.value = n.value < 0 ? -n.value : n.value;
  return n;
}

// e4m3_subnormal_boundary_low: the E4M3 encoder's subnormal test is one binade off: values in
// [2^-7, 2^-6), the top subnormal binade, take the normal path with an exponent field of
// 7 + (-7) = 0, so their code is the sign and the 3 rounded fraction bits alone: 2^-7 comes out
// as 0x00 (flushed to zero), 1.5 * 2^-7 as 0x04 (2^-7), without UF. encode to E4M3, values in
// [2^-7, 2^-6) that do not round up to 2^-6.
Encoded E4M3SubnormalBoundaryLow(const Case& c) {
  const Encoded r = Oracle(c);
  if (KindOf(c) != OpKind::Encode || c.pair.dst != T::E4M3) return r;
  const Dyadic x = EncodeValue(c);
  if (x.significand == 0 || oracle::DyadicLeadingExponent(x) != -7) return r;
  const RoundedInteger n = RoundFourBits(x, -7, c.control.rounding_mode);
  if (n.value == 16) return r;  // carries to 2^-6 = 0x08: the normal path gets that right
  return {(x.negative ? Word{0x80} : Word{0}) | static_cast<Word>(n.value - 8),
          n.inexact ? kNX : Status{0}};
}

// e4m3_exponent_wraps: the E4M3 encoder has no overflow test: a magnitude above 448 is rounded to
// 4 significant bits and its biased exponent written modulo 16, so 512 (2^9, field 16) becomes
// 0x00 and 480 the NaN pattern 0x7F, with NX only when inexact, Sat or not. encode to E4M3,
// magnitudes above 448.
Encoded E4M3ExponentWraps(const Case& c) {
  const Encoded r = Oracle(c);
  if (KindOf(c) != OpKind::Encode || c.pair.dst != T::E4M3 || (r.status & kOF) == 0) return r;
  const Dyadic x = EncodeValue(c);
  int leading = oracle::DyadicLeadingExponent(x);
  RoundedInteger n = RoundFourBits(x, leading, c.control.rounding_mode);
  if (n.value == 16) n.value = 8, ++leading;
  const auto field = static_cast<Word>((leading + 7) & 15);
  return {(x.negative ? Word{0x80} : Word{0}) | field << 3 | static_cast<Word>(n.value - 8),
          n.inexact ? kNX : Status{0}};
}

// hif8_dot_mantissa_width: the HiF8 decoder assembles every normal significand as 1.mmm with 3
// fraction bits, right for the 0001, 001x and 01xx dot fields but not for the two shortest-
// mantissa fields, 10xx (2 mantissa bits) and 11xx (1 bit): their mantissa m is read as m/8
// instead of m/4 or m/2 (0x41 = 2^4 * 1.25 decodes as 2^4 * 1.125). The simulator's HiF8 table
// was wrong for two dot fields. encode from HiF8, codes with a non-zero mantissa in those fields.
Encoded Hif8DotMantissaWidth(const Case& c) {
  if (KindOf(c) != OpKind::Encode || c.pair.src != T::HiF8) return Oracle(c);
  const Word body = c.in[0] & 0x7f;
  if (body < 0x40 || !oracle::TileNumericValueIsFinite(T::HiF8, c.in[0])) return Oracle(c);
  const Word mantissa = body >= 0x60 ? (body & 0x1) : (body & 0x3);
  const Dyadic right = EncodeValue(c);
  const Dyadic misread{right.negative, 8 + mantissa, oracle::DyadicLeadingExponent(right) - 3};
  return EncodeDyadic(misread, c.pair.dst, c.control);
}

// sat_limits_zero: the saturation bounds come from a limits table that has no entry for the
// destination type (an unspecialised std::numeric_limits<T>::max() and lowest() are T(), 0), so
// every clamp under Sat gives 0: an integer or floating encode, an affine result and a TQUANT
// result (finite values out of range and +/-Inf). Flags stay right. encode, affine, tquant, Sat.
Encoded SatLimitsZero(const Case& c) {
  Encoded r = Oracle(c);
  if (!c.control.saturating) return r;
  const OpKind kind = KindOf(c);
  if (kind == OpKind::Encode || kind == OpKind::Affine) {
    if ((r.status & kOF) != 0) r.word = 0;
    return r;
  }
  if (kind != OpKind::Tquant) return r;
  const NumericValueClass cls = oracle::TileNumericValueClass(T::FP32, c.in[0]);
  if (oracle::NumericValueClassIsNaN(cls)) return r;
  if (oracle::NumericValueClassIsInfinity(cls)) return {0, r.status};
  const auto zero_point =
      static_cast<std::int64_t>(oracle::NormalizeTileInteger(c.in[2], c.pair.dst));
  const Encoded unclamped = oracle::FastMatrixQuantizedAffine(
      Fp32Dyadic(c.in[0]), Fp32Dyadic(c.in[1]), zero_point, 0, c.pair.dst, c.control);
  if ((unclamped.status & kOF) != 0) r.word = 0;
  return r;
}

// narrow_int_always_clamped: the 4-bit lanes (S4X2, U4X2) are produced by a clamp to the lane's
// range whatever Sat says (the simulator packs them through a saturating helper), so a non-Sat
// out-of-range result saturates instead of wrapping to 4 bits. encode and affine to S4X2 and
// U4X2, non-Sat, out-of-range results.
Encoded NarrowIntAlwaysClamped(const Case& c) {
  const Encoded r = Oracle(c);
  const OpKind kind = KindOf(c);
  if ((kind != OpKind::Encode && kind != OpKind::Affine) || c.control.saturating ||
      (c.pair.dst != T::S4X2 && c.pair.dst != T::U4X2) || (r.status & kOF) == 0) {
    return r;
  }
  return OracleWith(c, {c.control.rounding_mode, true});
}

// sat_clamp_in_source_float: the Sat clamp is done in the source's floating type: the upper bound
// is first converted to that type (RNE), then the clamped value converted to the integer, which
// wraps when the bound did not fit (INT32_MAX becomes 2^31 in FP32 and BF16, then 0x80000000;
// INT16_MAX becomes 32768 in FP16). Flags stay right. encode from FP32, FP16, BF16, E4M3 and
// HiF8 to an integer type whose maximum the source cannot hold exactly, Sat, positive overflow.
Encoded SatClampInSourceFloat(const Case& c) {
  const Encoded r = Oracle(c);
  if (!IsIntegerEncode(c) || !IsFloating(c.pair.src) || !c.control.saturating ||
      (r.status & kOF) == 0 || EncodeValue(c).negative) {
    return r;
  }
  const Encoded bound = oracle::FastMatrixFloatingEncoding(
      oracle::DyadicFromInteger(IntegerMaximum(c.pair.dst)), c.pair.src, {M::RNE, false});
  if ((bound.status & kOF) != 0) return r;  // the bound overflows the source: no such clamp
  const Word bound_word = oracle::LowBits(bound.word, Format(c.pair.src).width);
  const Encoded wrapped = EncodeDyadic(oracle::DyadicFromFiniteCode(c.pair.src, bound_word),
                                       c.pair.dst, {c.control.rounding_mode, false});
  return {wrapped.word, r.status};
}

// float_to_int_host_undefined: without Sat, an out-of-range float-to-integer result is left to
// the host's conversion to a 32-bit int (undefined in C; x86's CVTTSS2SI gives the "integer
// indefinite" 0x80000000 when the rounded value does not fit in 32 bits), whose low bits are
// kept, where the profile wraps the exact integer. Flags stay right. encode from FP32 and BF16
// (the sources reaching 2^31) to every integer type, non-Sat, |rounded value| >= 2^31 (visible
// where the exact wrap has non-zero low bits: S16, U16, S32, U32).
Encoded FloatToIntHostUndefined(const Case& c) {
  const Encoded r = Oracle(c);
  if (!IsIntegerEncode(c) || !IsFloating(c.pair.src) || c.control.saturating ||
      (r.status & kOF) == 0) {
    return r;
  }
  const std::int64_t n = RoundToInteger(EncodeValue(c), c.control.rounding_mode).value;
  if (n >= INT32_MIN && n <= INT32_MAX) return r;
  return {oracle::LowBits(0x80000000, Format(c.pair.dst).width), r.status};
}

// tquant_fp32_sum_rounded: TQUANT computed with the host's float arithmetic, value * scale +
// zero_point in FP32 (the product and then the sum each rounded to nearest even), and only then
// rounded to the integer under the mode: a sum rounded onto a .5 tie (0.49999997 + 100 is
// 100.5 in FP32) is resolved the wrong way. The roundings' NX is OR-ed in. tquant, products whose
// sum with the zero point needs more than 24 bits.
Encoded TquantFp32SumRounded(const Case& c) {
  if (KindOf(c) != OpKind::Tquant) return Oracle(c);
  const NumericValueClass cls = oracle::TileNumericValueClass(T::FP32, c.in[0]);
  if (oracle::NumericValueClassIsNaN(cls) || oracle::NumericValueClassIsInfinity(cls)) {
    return Oracle(c);
  }
  const Encoded product = oracle::FastFP32FiniteEncoding(
      oracle::DyadicProduct(Fp32Dyadic(c.in[0]), Fp32Dyadic(c.in[1])), M::RNE);
  Word sum_word = oracle::LowBits(product.word, 32);
  Status flags = product.status & kNX;
  if (Fp32IsFinite(sum_word)) {
    const auto zero_point =
        static_cast<std::int64_t>(oracle::NormalizeTileInteger(c.in[2], c.pair.dst));
    const Encoded sum = oracle::FastFP32FiniteEncoding(
        DyadicSum(Fp32Dyadic(sum_word), oracle::DyadicFromInteger(zero_point)), M::RNE);
    sum_word = oracle::LowBits(sum.word, 32);
    flags = static_cast<Status>(flags | (sum.status & kNX));
  }
  Case d = c;
  d.in[0] = sum_word;
  d.in[1] = kFp32One;
  d.in[2] = 0;
  const Encoded r = Oracle(d);
  return {r.word, static_cast<Status>(r.status | flags)};
}

// int_to_fp16_overflow_nv: an integer source that overflows FP16 (S32 magnitudes of 65520 and
// more) is flagged NV|NX instead of OF|NX (the RTL unit's integer-to-float path reuses its
// invalid-conversion flag). The word is right. encode S32 -> FP16, overflow.
Encoded IntToFp16OverflowNv(const Case& c) {
  Encoded r = Oracle(c);
  if (KindOf(c) == OpKind::Encode && c.pair.src == T::S32 && c.pair.dst == T::FP16 &&
      (r.status & kOF) != 0) {
    r.status = static_cast<Status>((r.status & ~kOF) | kNV);
  }
  return r;
}

// most_negative_integer_nv: the range test of a float-to-signed-integer conversion is made on the
// value before rounding, so a value below the most negative integer that rounds to it (-128.5
// under RNE into S8 gives -128) is flagged NV, as an out-of-range input is in RISC-V, instead of
// NX. The word is right. encode from a floating type to S4X2, S8, S16, S32, values in
// (minimum - 1, minimum) rounding to the minimum.
Encoded MostNegativeIntegerNv(const Case& c) {
  Encoded r = Oracle(c);
  if (!IsIntegerEncode(c) || !IsFloating(c.pair.src) || !IsSignedInteger(c.pair.dst) ||
      (r.status & kOF) != 0) {
    return r;
  }
  const Dyadic x = EncodeValue(c);
  const Dyadic minimum = oracle::DyadicFromInteger(IntegerMinimum(c.pair.dst));
  if (oracle::DyadicCompare(x, minimum) < 0) r.status = kNV;
  return r;
}

// unsigned_minus_2w_nx_only: into an unsigned type of w bits, a value that rounds to -2^w (e.g.
// -65536 for U16) wraps to 0 (Sat clamps to 0 as well), and the RTL unit's overflow test, made
// on a (w+1)-bit two's-complement result whose low w bits are 0, takes it for a zero: 0 with NX
// instead of OF|NX. Values rounding further down are caught by the wider bits. encode and affine
// to U4X2, U8, U16, U32, values rounding to exactly -2^w.
Encoded UnsignedMinus2wNxOnly(const Case& c) {
  Encoded r = Oracle(c);
  const OpKind kind = KindOf(c);
  if ((kind != OpKind::Encode && kind != OpKind::Affine) || !IsUnsignedInteger(c.pair.dst)) {
    return r;
  }
  const IntegerEncodeInput input = IntegerInput(c);
  const std::int64_t n = RoundToInteger(input.value, c.control.rounding_mode).value;
  const std::int64_t lane = IntegerMaximum(c.pair.dst) + 1;  // 2^w
  if (n != -lane) return r;
  r.status = static_cast<Status>(input.before | kNX);
  return r;
}

// fp19_nan_payload_truncated: FP32ToFP19 rounds a NaN scale's raw bits like a finite value's
// (round to nearest even on the 13 dropped bits) instead of giving the canonical 0x3FF00: a NaN
// whose payload sits only in the dropped bits becomes an FP19 infinity (0x7F800001 -> 0x3FC00),
// one with payload above them a non-canonical NaN. qparam, NaN scales.
Encoded Fp19NanPayloadTruncated(const Case& c) {
  if (KindOf(c) != OpKind::Qparam) return Oracle(c);
  const Word bits = oracle::LowBits(c.in[0], 32);
  const bool nan = ((bits >> 23) & 0xff) == 0xff && (bits & 0x7fffff) != 0;
  if (!nan) return Oracle(c);
  const Word dropped = bits & 0x1fff;
  Word fp19 = bits >> 13;
  if (dropped > 0x1000 || (dropped == 0x1000 && (fp19 & 1) != 0)) ++fp19;
  return {oracle::MatrixQuantParameter(fp19 & 0x7ffff, oracle::SignExtend(c.in[1], 32),
                                       static_cast<int>(c.in[2])),
          0};
}

// ---- the B.FPATR pipeline (op fpatr) --------------------------------------------------------

enum class FpatrFault : std::uint8_t {
  ReluAfterScale,     // a negative value under LReLU/PReLU: value * scale * param
  LreluParamFp32,     // the ReLU parameter's low 32 bits read as an FP32 word
  SignedZeroDropped,  // no -0 result for a -0 accumulator
  RhbFromDatr,        // modes 25/28 round under the B.DATR control instead of RHB
  OffsetUnsigned,     // the offset field zero-extended instead of sign-extended
  ReluAfterOffset,    // ReLU/LReLU/PReLU applied to the sum after the intermediate and offset
  RoundAfterOffset,   // the offset added before the S5/S9/S17 rounding instead of after it
  ReluInShiftModes,   // ReluMode applied to negative accumulators of the shift modes 12 and 13
};

/// The fpatr pipeline (reference/matrix-postprocess.asl lines 180-252, as the oracle's
/// FastMatrixPostQuantBaseWithFlags computes it) with one fault; other ops: the oracle.
Encoded FpatrWithFault(const Case& c, FpatrFault fault) {
  static const OpDef* const fpatr = generator::FindOp("fpatr");
  if (c.op != fpatr) return Oracle(c);
  const Word value = c.in[0];
  const auto mode = static_cast<unsigned>(c.in[1]);
  const auto relu = static_cast<unsigned>(c.in[2]);
  const Word quant = c.in[3];
  const Word relu_param = c.in[4];
  const T out = c.pair.dst;
  if (fault == FpatrFault::RhbFromDatr) {
    if (mode != 25 && mode != 28) return Oracle(c);
    const Encoded r = oracle::FastMatrixPostQuantBaseWithFlags(value, mode, out, relu, quant,
                                                               relu_param, c.control);
    return {oracle::LowBits(r.word, Format(out).width), r.status};
  }
  const auto low = [out](Encoded r) {
    return Encoded{oracle::LowBits(r.word, Format(out).width), r.status};
  };
  if (fault == FpatrFault::ReluInShiftModes) {
    const auto s32 = static_cast<std::int32_t>(static_cast<std::uint32_t>(value));
    if (!oracle::BundleFPATRModeIsShift(mode) || relu == 0 || s32 >= 0) return Oracle(c);
    // ReLU zeroes the negative accumulator; LReLU/PReLU scale it by the FP19 parameter and
    // truncate to an integer; then the shift and clamp of MatrixShiftS32ToS16.
    std::int64_t activated = 0;
    if (relu >= 2) {
      activated = RoundToInteger(oracle::DyadicProduct(
                                     oracle::DyadicFromInteger(s32),
                                     oracle::DyadicFromFiniteCode(T::FP19, relu_param & 0x7FFFF)),
                                 M::RTZ)
                      .value;
    }
    const int shift = static_cast<int>((quant >> 32) & 0xF) + 1;
    return low(ClampToS16(activated >> shift));
  }
  if ((mode == 0 && relu == 0) || oracle::BundleFPATRModeIsShift(mode)) return Oracle(c);
  const NumericExecutionControl control = oracle::MatrixFPATREffectiveControl(mode, c.control);
  const T source = mode == 0                                         ? out
                   : oracle::BundleFPATRModeUsesS32Accumulator(mode) ? T::S32
                                                                     : T::FP32;
  const NumericValueClass source_class = source == T::FP32
                                             ? oracle::TileNumericValueClass(source, value)
                                             : NumericValueClass::PositiveNormal;
  const auto s32 = static_cast<std::int32_t>(static_cast<std::uint32_t>(value));
  const bool negative = source == T::S32 ? s32 < 0 : oracle::MatrixValueClassNegative(source_class);
  const bool scaled = oracle::BundleFPATRModeUsesScalarParameter(mode) ||
                      oracle::BundleFPATRModeUsesVectorParameter(mode);
  const Dyadic one{false, 1, 0};
  const Dyadic scale =
      scaled ? oracle::DyadicFromFiniteCode(T::FP19, (quant >> 13) & 0x7FFFF) : one;
  Dyadic param = oracle::DyadicFromFiniteCode(T::FP19, relu_param & 0x7FFFF);
  if (fault == FpatrFault::LreluParamFp32) {
    param = oracle::DyadicFromFiniteCode(T::FP32, relu_param & 0xFFFFFFFF);
  }
  Dyadic multiplier = !negative || relu == 0 ? scale : relu == 1 ? Dyadic{false, 0, 0} : param;
  if (fault == FpatrFault::ReluAfterScale && negative && relu >= 2) {
    multiplier = oracle::DyadicProduct(scale, param);
  }
  const bool multiplier_zero = multiplier.significand == 0;
  const oracle::MatrixSpecialResult special =
      oracle::MatrixPostQuantSpecialValue(value, source, out, control);
  if (special.special &&
      !(source_class == NumericValueClass::NegativeInfinity && multiplier_zero)) {
    return low({special.word, special.status});
  }
  Dyadic source_value{false, 0, 0};
  if (source == T::S32) {
    source_value = oracle::DyadicFromInteger(s32);
  } else if (source == T::U32) {
    source_value = oracle::DyadicFromInteger(static_cast<std::int64_t>(value & 0xFFFFFFFF));
  } else if (source_class != NumericValueClass::NegativeInfinity) {
    source_value = oracle::DyadicFromFiniteCode(T::FP32, value & 0xFFFFFFFF);
  }
  const Dyadic activated = oracle::DyadicProduct(source_value, multiplier);
  const int width = oracle::BundleFPATRModeOffsetWidth(mode);
  const Word offset_field =
      width == 0 ? 0 : oracle::LowBits(quant >> 37, static_cast<unsigned>(width));
  const std::int64_t offset = width == 0 || fault == FpatrFault::OffsetUnsigned
                                  ? static_cast<std::int64_t>(offset_field)
                                  : static_cast<std::int64_t>(oracle::SignExtend(
                                        offset_field, static_cast<unsigned>(width)));
  if (fault != FpatrFault::SignedZeroDropped && source_class == NumericValueClass::NegativeZero &&
      !multiplier_zero && offset == 0 && IsFloating(out)) {
    return low({oracle::MatrixFloatingSignedZero(out, true), 0});
  }
  if (width != 0 && fault == FpatrFault::ReluAfterOffset && relu != 0) {
    // Every sign scaled, rounded and clamped at the width, the offset added, then the ReLU.
    const auto [intermediate, flags] = oracle::FastMatrixRoundAndSaturateSigned(
        oracle::DyadicProduct(source_value, scale), width, control.rounding_mode);
    const std::int64_t sum = intermediate + offset;
    Dyadic result = oracle::DyadicFromInteger(sum);
    if (sum < 0) result = relu == 1 ? Dyadic{false, 0, 0} : oracle::DyadicProduct(result, param);
    const Encoded e = EncodeDyadic(result, out, control);
    return {e.word, static_cast<Status>(e.status | flags)};
  }
  if (width != 0 && fault == FpatrFault::RoundAfterOffset) {
    // One rounding, of activated + offset, where no clamp at the width intervenes.
    const auto [intermediate, flags] =
        oracle::FastMatrixRoundAndSaturateSigned(activated, width, control.rounding_mode);
    if ((flags & kOF) == 0) {
      return EncodeDyadic(DyadicSum(activated, oracle::DyadicFromInteger(offset)), out, control);
    }
  }
  if (width != 0) {
    return low(oracle::FastMatrixQuantizedAffine(activated, one, offset, width, out, control));
  }
  if (!IsFloating(out)) return low(oracle::FastMatrixIntegerEncoding(activated, out, control));
  return low(oracle::FastMatrixFloatingEncoding(activated, out, control));
}

Encoded FpatrReluAfterScale(const Case& c) { return FpatrWithFault(c, FpatrFault::ReluAfterScale); }
Encoded FpatrLreluParamFp32(const Case& c) { return FpatrWithFault(c, FpatrFault::LreluParamFp32); }
Encoded FpatrSignedZeroDropped(const Case& c) {
  return FpatrWithFault(c, FpatrFault::SignedZeroDropped);
}
Encoded FpatrRhbFromDatr(const Case& c) { return FpatrWithFault(c, FpatrFault::RhbFromDatr); }
// fpatr_offset_unsigned: the B.FPATR offset field (quant_param bits 37 up, 5, 9 or 17 bits) is
// read unsigned, where MatrixQuantOffset sign-extends it: -1 in 9 bits is taken as 511. The
// simulator's sign-blind offset. fpatr, modes with an offset width, negative offsets.
// fpatr_relu_after_offset: ReLU/LReLU/PReLU applied at the end, to value * scale rounded and
// clamped at the width plus the offset, instead of to the accumulator before the scale
// (reference/matrix-postprocess.asl lines 225-241). fpatr, modes with an offset width, ReluMode
// 1..3, negative accumulators or negative sums.
// fpatr_round_after_offset: the offset is added to the exact activated value and the sum rounded
// once, where MatrixQuantizedAffine rounds value * scale at the width first and then adds the
// offset (spec-notes section 5 item 8): a tie or a directed mode resolves differently (2.5 + 1
// under RNE gives 4, not 3). fpatr, modes with an offset width, non-integer activated values.
// fpatr_relu_in_shift_modes: ReluMode acts in the S32 -> S16 shift modes 12 and 13, which the
// pipeline returns before any activation (lines 187-191): a negative accumulator becomes 0 under
// ReLU, or the accumulator times the parameter (truncated) under LReLU/PReLU, before the shift.
// fpatr, modes 12 and 13, ReluMode 1..3, negative accumulators.
Encoded FpatrOffsetUnsigned(const Case& c) { return FpatrWithFault(c, FpatrFault::OffsetUnsigned); }
Encoded FpatrReluAfterOffset(const Case& c) {
  return FpatrWithFault(c, FpatrFault::ReluAfterOffset);
}
Encoded FpatrRoundAfterOffset(const Case& c) {
  return FpatrWithFault(c, FpatrFault::RoundAfterOffset);
}
Encoded FpatrReluInShiftModes(const Case& c) {
  return FpatrWithFault(c, FpatrFault::ReluInShiftModes);
}

using MutantFn = Encoded (*)(const Case&);

struct Entry {
  MutantInfo info;
  MutantFn fn;
};

// name, models, affects, shrink op/src/dst, ops with default-suite files that can show it.
constexpr std::array kCatalog = {
    Entry{{"ties_away", "RNE ties resolved away from zero (an RNA rounder wired for RNE)",
           "every op with controls: RNE ties", "encode", "fp16", "e4m3",
           "encode,affine,tquant,tdequant,fpatr", "--rmode RNE"},
          TiesAway},
    Entry{{"sticky_dropped", "sticky bit below the rounding position dropped (guard bit only)",
           "encode to FP32/FP16/BF16, tdequant", "encode", "fp32", "fp16", "encode,tdequant",
           "--dst fp16"},
          StickyDropped},
    Entry{{"clamp_before_round",
           "input clamped to the largest finite before rounding (no OF, no Inf)",
           "encode to every floating type", "encode", "fp16", "e4m3", "encode", "--dst e4m3"},
          ClampBeforeRound},
    Entry{{"sat_ignored", "Sat ignored: every case runs as non-Sat",
           "encode, affine, tquant, tcvt to E8M0 under Sat", "encode", "fp16", "s8",
           "encode,affine,tquant,tcvt,fpatr", "--src fp16 --sat on"},
          SatIgnored},
    Entry{{"nonsat_overflow_max_finite",
           "non-Sat floating overflow gives the largest finite instead of Inf or NaN",
           "encode to every floating type, non-Sat overflow", "encode", "fp16", "e4m3", "encode",
           "--dst e4m3 --sat off"},
          NonSatOverflowMaxFinite},
    Entry{{"e4m3_neg_overflow_ff", "negative non-Sat E4M3 overflow gives 0xFF instead of 0x7F",
           "encode to E4M3, negative overflow", "encode", "fp16", "e4m3", "encode",
           "--dst e4m3 --sat off"},
          E4M3NegativeOverflowFF},
    Entry{{"negative_zero_kept",
           "the source sign kept on a zero result (-0) where the profile gives +0",
           "encode from -0 codes to FP32/FP16/BF16/E4M3; negative values rounding to 0 in E4M3",
           "encode", "fp16", "e4m3", "encode", "--dst e4m3"},
          NegativeZeroKept},
    Entry{{"underflow_after_rounding",
           "tininess judged after rounding: a value rounding up to the smallest normal has no UF",
           "encode to every floating type, tdequant", "encode", "fp16", "e4m3", "encode,tdequant",
           "--dst e4m3"},
          UnderflowAfterRounding},
    Entry{{"subnormal_position_off_by_one",
           "subnormal rounding position one bit too high (rounds to 2 subnormal units)",
           "encode to FP32/FP16/BF16, tdequant, tiny values", "encode", "fp32", "fp16",
           "encode,tdequant", "--dst fp16"},
          SubnormalPositionOffByOne},
    Entry{{"double_rounding_fp16", "double rounding: FP32 -> FP16 (RNE) -> FP8 under the mode",
           "encode to E4M3 and HiF8", "encode", "fp32", "e4m3", "encode", "--dst e4m3"},
          DoubleRoundingFP16},
    Entry{{"double_rounding_bf16", "double rounding: FP32 -> BF16 (RNE) -> FP8 under the mode",
           "encode to E4M3 and HiF8", "encode", "fp32", "e4m3", "encode", "--dst e4m3"},
          DoubleRoundingBF16},
    Entry{{"e8m0_always_up", "E8M0 always rounds a non-power-of-two up (ceiling in every mode)",
           "tcvt to E8M0", "tcvt", "fp16", "e8m0", "tcvt"},
          E8M0AlwaysUp},
    Entry{{"rto_as_rtz", "RTO treated as RTZ (no jamming into the last place)",
           "every op with controls, RTO", "encode", "fp16", "e4m3",
           "encode,affine,tquant,tdequant,tcvt,fpatr", "--src fp16 --rmode RTO"},
          RtoAsRtz},
    Entry{{"rhb_as_rna", "RHB treated as RNA: negative ties go away from zero",
           "every op with controls, RHB negative ties", "encode", "fp16", "e4m3",
           "encode,affine,tquant,tdequant,fpatr", "--src fp16 --rmode RHB"},
          RhbAsRna},
    Entry{{"s8_wrap_without_of", "non-Sat S8 wrap without OF (NX only)",
           "encode and affine to S8, non-Sat overflow", "encode", "fp16", "s8", "encode,affine",
           "--dst s8 --sat off"},
          S8WrapWithoutOF},
    Entry{{"tquant_of_under_sat", "TQUANT sets OF|NX when Sat clamps",
           "tquant, Sat, out-of-range results", "tquant", "fp32", "s8", "tquant"},
          TquantOFUnderSat},
    Entry{{"tdequant_reads_sat", "TDEQUANT reads Sat: overflow gives +/-0x7F7FFFFF instead of Inf",
           "tdequant, Sat, overflow", "tdequant", "s8", "fp32", "tdequant"},
          TdequantReadsSat},
    Entry{{"hif8_exponent_sign_misread", "HiF8 decoder reads the exponent sign bit inverted",
           "encode from HiF8", "encode", "hif8", "fp32", "encode", "--src hif8"},
          Hif8ExponentSignMisread},
    Entry{{"rtp_rtm_swapped_negative",
           "RTP/RTM not swapped for negative magnitudes (sign-magnitude rounder)",
           "encode, negative values, RTP and RTM", "encode", "fp16", "e4m3", "encode",
           "--dst e4m3 --rmode RTP,RTM"},
          RtpRtmSwappedNegative},
    Entry{{"uf_on_exact_subnormal", "UF raised for an exact subnormal result",
           "encode to every floating type, tdequant", "encode", "hif8", "fp16", "encode,tdequant",
           "--dst fp16"},
          UfOnExactSubnormal},
    Entry{{"nx_missing_integer", "NX missing on inexact in-range integer encodes",
           "encode to integer types, affine", "encode", "fp16", "s8", "encode,affine", "--dst s8"},
          NxMissingInteger},
    Entry{{"shift_of_missing", "shift clamps to S16 without OF|NX", "shift, clamped results",
           "shift", "s32", "s16", "shift"},
          ShiftOFMissing},
    Entry{{"shift_logical", "logical instead of arithmetic shift right", "shift, negative values",
           "shift", "s32", "s16", "shift"},
          ShiftLogical},
    Entry{{"affine_width17_as_16", "affine width 17 intermediate clamped as 16 bits",
           "affine, width 17", "affine", "fp32", "s32", "affine"},
          AffineWidth17As16},
    Entry{{"tquant_nonsat_saturates", "TQUANT non-Sat saturates instead of wrapping",
           "tquant, non-Sat, out-of-range results", "tquant", "fp32", "s8", "tquant"},
          TquantNonSatSaturates},
    Entry{{"e8m0_threshold_1_5", "E8M0 nearest-mode threshold 1.5 instead of sqrt(2)",
           "tcvt to E8M0, RNE RNA RHB", "tcvt", "fp16", "e8m0", "tcvt"},
          E8M0Threshold15},
    Entry{{"e8m0_rtz_as_floor", "E8M0 RTZ rounds the exponent down instead of toward zero",
           "tcvt to E8M0, RTZ, values below 1", "tcvt", "fp16", "e8m0", "tcvt"},
          E8M0RtzAsFloor},
    Entry{{"fp19_scale_truncated", "FP32ToFP19 truncates instead of rounding to nearest even",
           "qparam", "qparam", "fp32", "u64", "qparam"},
          Fp19ScaleTruncated},
    Entry{{"ftz_subnormal_results", "flush-to-zero of subnormal results (UF|NX)",
           "encode to every floating type, tdequant", "encode", "fp32", "fp16", "encode,tdequant",
           "--dst fp16"},
          FtzSubnormalResults},
    Entry{{"daz_subnormal_inputs", "denormals-are-zero: subnormal sources read as 0",
           "encode from every floating source", "encode", "fp16", "fp32", "encode",
           "--src fp16 --dst fp32"},
          DazSubnormalInputs},
    Entry{{"fp8_overflow_after_rounding",
           "E4M3/HiF8 overflow judged after rounding (449 -> 448 under RNE)",
           "encode to E4M3 and HiF8", "encode", "fp16", "hif8", "encode"},
          Fp8OverflowAfterRounding},
    Entry{{"hif8_overflow_nan", "non-Sat HiF8 overflow gives NaN 0x80 instead of +/-Inf",
           "encode to HiF8, non-Sat overflow", "encode", "fp16", "hif8", "encode"},
          Hif8OverflowNaN},
    Entry{{"bf16_truncation", "BF16 by truncation (low bits dropped) when RNE is requested",
           "encode to BF16, RNE", "encode", "fp32", "bf16", "encode"},
          Bf16Truncation},
    Entry{{"tdequant_u8_zero_point_signed", "TDEQUANT U8 zero point sign-extended (read as S8)",
           "tdequant U8 -> FP32, zero points 0x80..0xFF", "tdequant", "u8", "fp32", "tdequant"},
          TdequantU8ZeroPointSigned},
    Entry{{"rna_as_rne", "RNA treated as RNE (ties to even instead of away)",
           "every op with controls, RNA ties", "encode", "fp16", "e4m3",
           "encode,affine,tquant,tdequant,fpatr"},
          RnaAsRne},
    Entry{{"fp8_tiny_shift_wraps",
           "E4M3 denormalising shift taken modulo 32: values below 2^-17 give non-zero codes",
           "encode to E4M3 from FP32/BF16/FP16, values below 2^-17", "encode", "fp32", "e4m3",
           "encode", "--dst e4m3"},
          Fp8TinyShiftWraps},
    Entry{{"e4m3_top_binade_saturates",
           "E4M3 top exponent treated as reserved: 256..448 overflow (0x7F, Sat 240)",
           "encode to E4M3, results 256..448", "encode", "fp16", "e4m3", "encode", "--dst e4m3"},
          E4M3TopBinadeSaturates},
    Entry{
        {"e4m3_mantissa_carry_lost", "E4M3 mantissa carry on rounding up lost (1.9375 becomes 1.0)",
         "encode to E4M3, rounding up across a binade", "encode", "fp16", "e4m3", "encode",
         "--dst e4m3"},
        E4M3MantissaCarryLost},
    Entry{{"uf_without_nx", "UF raised without NX on an inexact tiny result",
           "encode to every floating type", "encode", "fp16", "e4m3", "encode", "--dst e4m3"},
          UfWithoutNx},
    Entry{{"sat_overflow_of_dropped",
           "Sat clamps a floating overflow to the largest finite with NX only (OF dropped)",
           "encode to every floating type, Sat overflow", "encode", "fp16", "e4m3", "encode",
           "--dst e4m3 --sat on"},
          SatOverflowOFDropped},
    Entry{{"tquant_clamp_before_zero_point",
           "TQUANT under Sat clamps value x scale to the range before adding the zero point",
           "tquant, Sat, products outside the destination range", "tquant", "fp32", "s8", "tquant",
           "--dst s8 --sat on"},
          TquantClampBeforeZeroPoint},
    Entry{{"tquant_product_rounded_fp32",
           "TQUANT rounds value x scale to FP32 (RNE) before adding the zero point",
           "tquant, products just off an integer or a tie", "tquant", "fp32", "s8", "tquant",
           "--dst s8"},
          TquantProductRoundedFp32},
    Entry{
        {"tdequant_two_products", "TDEQUANT computes v x scale - zp x scale (three FP32 roundings)",
         "tdequant, inexact products", "tdequant", "s8", "fp32", "tdequant",
         "--src s8 --rmode RNE"},
        TdequantTwoProducts},
    Entry{{"tdequant_difference_8bit", "TDEQUANT forms v - zp in 8 bits (wraps)",
           "tdequant, differences outside the source range", "tdequant", "s8", "fp32", "tdequant",
           "--src s8 --rmode RNE"},
          TdequantDifference8Bit},
    Entry{{"unsigned_negative_nx_only",
           "negative value into an unsigned destination raises NX without OF",
           "encode and affine to unsigned types, values rounding below 0", "encode", "fp16", "u8",
           "encode,affine", "--dst u8"},
          UnsignedNegativeNxOnly},
    Entry{{"shift_rounds", "S32 -> S16 shift adds 2^(shift-1) (rounds) instead of truncating",
           "shift, dropped bits at least half", "shift", "s32", "s16", "shift"},
          ShiftRounds},
    Entry{{"shift_wraps", "S32 -> S16 shift wraps to 16 bits instead of saturating",
           "shift, results outside S16", "shift", "s32", "s16", "shift"},
          ShiftWraps},
    Entry{{"hif8_encode_band_sign_flipped",
           "HiF8 encoder writes the exponent sign of the |e| = 4..7 band inverted",
           "encode to HiF8, results in [16, 256) and [2^-7, 2^-3)", "encode", "fp16", "hif8",
           "encode", "--dst hif8"},
          Hif8EncodeBandSignFlipped},
    Entry{{"e8m0_sqrt2_top8", "E8M0 RNA/RHB compare with sqrt(2) on the top 8 significand bits",
           "tcvt to E8M0, RNA RHB, significands in (sqrt(2), 182/128)", "tcvt", "fp16", "e8m0",
           "tcvt"},
          E8M0Sqrt2Top8},
    Entry{{"fpatr_relu_after_scale",
           "B.FPATR LReLU/PReLU applied after the scale (negative value * scale * parameter)",
           "fpatr, negative values under ReluMode 2 and 3 with a scale other than 1", "fpatr",
           "fp32", "fp32", "fpatr"},
          FpatrReluAfterScale},
    Entry{{"fpatr_lrelu_param_fp32", "B.FPATR LReLU/PReLU parameter read as FP32 instead of FP19",
           "fpatr, negative values under ReluMode 2 and 3", "fpatr", "fp32", "fp16", "fpatr"},
          FpatrLreluParamFp32},
    Entry{
        {"fpatr_signed_zero_dropped", "B.FPATR signed-zero rule dropped: a -0 accumulator gives +0",
         "fpatr, -0 FP32 accumulators into floating types", "fpatr", "fp32", "fp16", "fpatr"},
        FpatrSignedZeroDropped},
    Entry{{"fpatr_rhb_from_datr",
           "B.FPATR modes 25/28 (HiF8) round under the B.DATR control instead of the fixed RHB",
           "fpatr to HiF8, ties", "fpatr", "fp32", "hif8", "fpatr"},
          FpatrRhbFromDatr},
    // issue 27: bug kinds seen in a C++ simulator and an RTL FPU
    Entry{{"mode_ignored_rne", "the rounding mode ignored: every mode rounds as RNE",
           "encode, float and integer destinations, every mode but RNE", "encode", "fp16", "e4m3",
           "encode", "--src fp16 --rmode RTZ"},
          ModeIgnoredRne},
    Entry{{"mode_ignored_rtz", "the rounding mode ignored: every mode truncates (RTZ)",
           "encode, float and integer destinations, every mode but RTZ", "encode", "fp16", "e4m3",
           "encode", "--src fp16 --rmode RNE"},
          ModeIgnoredRtz},
    Entry{{"rto_half_to_odd",
           "RTO as round-half-to-odd (nearest, ties to odd) instead of sticky round-to-odd",
           "encode, RTO, inexact values off a tie", "encode", "fp16", "e4m3", "encode",
           "--src fp16 --rmode RTO"},
          RtoHalfToOdd},
    Entry{{"e8m0_floor_every_mode", "E8M0 takes the floor exponent in every mode",
           "tcvt to E8M0, every mode but RTM, non-powers of two", "tcvt", "fp16", "e8m0", "tcvt",
           "--src fp16"},
          E8M0FloorEveryMode},
    Entry{{"e8m0_specials_given_exponent",
           "E8M0 of NaN, zero and negative inputs given an exponent instead of 0xFF with NV",
           "tcvt to E8M0, NaN, zero and negative sources", "tcvt", "fp16", "e8m0", "tcvt",
           "--src fp16"},
          E8M0SpecialsGivenExponent},
    Entry{{"e8m0_sign_leaks_into_exponent",
           "E8M0: the sign bit leaks into the exponent field (no NV for negative inputs)",
           "tcvt to E8M0, negative finite sources", "tcvt", "fp16", "e8m0", "tcvt", "--src fp16"},
          E8M0SignLeaksIntoExponent},
    Entry{{"e4m3_truncates", "E4M3 conversion truncates instead of rounding, in every mode",
           "encode to E4M3, every mode but RTZ, inexact values", "encode", "fp16", "e4m3", "encode",
           "--src fp16 --dst e4m3"},
          E4M3Truncates},
    Entry{{"e4m3_subnormal_boundary_low",
           "E4M3 subnormal boundary one binade low: [2^-7, 2^-6) on the normal path (2^-7 -> 0)",
           "encode to E4M3, values in [2^-7, 2^-6)", "encode", "fp16", "e4m3", "encode",
           "--src fp16 --dst e4m3"},
          E4M3SubnormalBoundaryLow},
    Entry{{"e4m3_exponent_wraps",
           "E4M3 overflow not detected: the biased exponent wraps modulo 16 (512 -> 0x00)",
           "encode to E4M3, magnitudes above 448", "encode", "fp16", "e4m3", "encode",
           "--src fp16 --dst e4m3"},
          E4M3ExponentWraps},
    Entry{{"hif8_dot_mantissa_width",
           "HiF8 decoder reads the 10xx and 11xx dot fields' mantissa as 3 bits wide",
           "encode from HiF8, dot fields 10xx and 11xx", "encode", "hif8", "fp32", "encode",
           "--src hif8"},
          Hif8DotMantissaWidth},
    Entry{{"sat_limits_zero",
           "Sat bounds from an unspecialised limits table: every Sat clamp gives 0",
           "encode, affine, tquant, Sat, out-of-range results", "encode", "fp16", "s8",
           "encode,affine,tquant", "--src fp16 --sat on"},
          SatLimitsZero},
    Entry{{"narrow_int_always_clamped",
           "S4X2/U4X2 destinations always clamped (Sat ignored when off)",
           "encode and affine to S4X2 and U4X2, non-Sat overflow", "encode", "fp16", "s4x2",
           "encode,affine", "--src fp16 --sat off"},
          NarrowIntAlwaysClamped},
    Entry{{"sat_clamp_in_source_float",
           "Sat clamp done in the source float type (INT32_MAX rounds to 2^31, then wraps)",
           "encode from a float to S16/U16/S32/U32, Sat, positive overflow", "encode", "fp16",
           "s16", "encode", "--src fp16 --sat on"},
          SatClampInSourceFloat},
    Entry{{"float_to_int_host_undefined",
           "out-of-range float-to-integer left to the host (x86 gives 0x80000000)",
           "encode from FP32/BF16 to S16/U16/S32/U32, non-Sat, |value| >= 2^31", "encode", "bf16",
           "s32", "encode", "--src bf16 --sat off"},
          FloatToIntHostUndefined},
    Entry{{"tquant_fp32_sum_rounded",
           "TQUANT computes value x scale + zero point in FP32 (RNE twice), then rounds",
           "tquant, sums needing more than 24 bits", "tquant", "fp32", "s8", "tquant"},
          TquantFp32SumRounded},
    Entry{{"fpatr_offset_unsigned", "B.FPATR offset field read unsigned (no sign extension)",
           "fpatr, modes with an offset, negative offsets", "fpatr", "s32", "s8", "fpatr"},
          FpatrOffsetUnsigned},
    Entry{{"fpatr_relu_after_offset", "B.FPATR ReLU applied after the offset and the clamp",
           "fpatr, modes with an offset, ReluMode 1..3, negative values", "fpatr", "s32", "s8",
           "fpatr"},
          FpatrReluAfterOffset},
    Entry{
        {"fpatr_round_after_offset", "B.FPATR rounding after adding the offset instead of before",
         "fpatr, modes with an offset, non-integer scaled values", "fpatr", "fp32", "s8", "fpatr"},
        FpatrRoundAfterOffset},
    Entry{{"fpatr_relu_in_shift_modes", "B.FPATR ReluMode applied in the shift modes 12 and 13",
           "fpatr, modes 12 and 13, ReluMode 1..3, negative accumulators", "fpatr", "s32", "s16",
           "fpatr"},
          FpatrReluInShiftModes},
    Entry{
        {"int_to_fp16_overflow_nv", "integer to FP16 overflow flagged NV|NX instead of OF|NX",
         "encode S32 -> FP16, overflow", "encode", "s32", "fp16", "encode", "--src s32 --dst fp16"},
        IntToFp16OverflowNv},
    Entry{{"most_negative_integer_nv",
           "a value rounding to the most negative integer (-128.5 -> -128) flagged NV",
           "encode from a float to S4X2/S8/S16/S32, values just below the minimum", "encode",
           "fp16", "s8", "encode", "--src fp16"},
          MostNegativeIntegerNv},
    Entry{{"unsigned_minus_2w_nx_only",
           "a negative value rounding to -2^w for an unsigned target: 0 with NX (OF missing)",
           "encode and affine to U4X2/U8/U16/U32, values rounding to exactly -2^w", "encode",
           "fp32", "u16", "encode,affine", "--dst u16"},
          UnsignedMinus2wNxOnly},
    Entry{{"fp19_nan_payload_truncated",
           "FP32ToFP19 rounds a NaN's raw bits (payload in the dropped bits: Inf)",
           "qparam, NaN scales", "qparam", "fp32", "u64", "qparam"},
          Fp19NanPayloadTruncated},
};

const std::array<MutantInfo, kCatalog.size()>& Infos() {
  static const std::array<MutantInfo, kCatalog.size()> infos = [] {
    std::array<MutantInfo, kCatalog.size()> out{};
    for (std::size_t i = 0; i < kCatalog.size(); ++i) out[i] = kCatalog[i].info;
    return out;
  }();
  return infos;
}

}  // namespace

std::span<const MutantInfo> AllMutants() { return Infos(); }

const MutantInfo* FindMutant(std::string_view name) {
  for (const MutantInfo& m : Infos()) {
    if (m.name == name) return &m;
  }
  return nullptr;
}

Encoded EvaluateOracle(const Case& c) { return Oracle(c); }

Encoded EvaluateMutant(const MutantInfo& mutant, const Case& c) {
  const auto index = static_cast<std::size_t>(&mutant - Infos().data());
  return kCatalog.at(index).fn(c);
}

}  // namespace ptovec::mutants
