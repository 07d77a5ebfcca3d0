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

int BitLength(DyadicSignificand m) {
  const auto high = static_cast<std::uint64_t>(m >> 64);
  if (high != 0) return 128 - __builtin_clzll(high);
  const auto low = static_cast<std::uint64_t>(m);
  return low != 0 ? 64 - __builtin_clzll(low) : 0;
}

/// E with 2^E <= |d| < 2^(E+1), for a non-zero d.
int LeadingExponent(const Dyadic& d) { return d.exponent + BitLength(d.significand) - 1; }

/// Sign of |a| - |b| (-1, 0, 1), exactly.
int CompareMagnitude(const Dyadic& a, const Dyadic& b) {
  if (a.significand == 0 || b.significand == 0) {
    return (a.significand != 0) - (b.significand != 0);
  }
  const int la = LeadingExponent(a);
  const int lb = LeadingExponent(b);
  if (la != lb) return la < lb ? -1 : 1;
  // Same leading exponent: align on the smaller exponent (the shifted one keeps <= 128 bits).
  DyadicSignificand ma = a.significand;
  DyadicSignificand mb = b.significand;
  if (a.exponent > b.exponent) ma <<= (a.exponent - b.exponent);
  if (b.exponent > a.exponent) mb <<= (b.exponent - a.exponent);
  return ma < mb ? -1 : ma > mb ? 1 : 0;
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
  const int last_place =
      std::max(LeadingExponent(v) - static_cast<int>(f.fraction_bits), minimum_subnormal);
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
  if (CompareMagnitude(value, largest) <= 0) return Oracle(c);
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
    if (value.significand == 0 || LeadingExponent(value) >= 1 - Format(c.pair.dst).bias) {
      return Oracle(c);
    }
    return SubnormalOffByOne(value, c.pair.dst, c.control, false);
  }
  if (kind == OpKind::Tdequant) {
    const Dyadic value = DequantValue(c);
    if (value.significand == 0 || LeadingExponent(value) >= -126) return Oracle(c);
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

// ---- the B.FPATR pipeline (op fpatr) --------------------------------------------------------

enum class FpatrFault : std::uint8_t {
  ReluAfterScale,     // a negative value under LReLU/PReLU: value * scale * param
  LreluParamFp32,     // the ReLU parameter's low 32 bits read as an FP32 word
  SignedZeroDropped,  // no -0 result for a -0 accumulator
  RhbFromDatr,        // modes 25/28 round under the B.DATR control instead of RHB
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
  const auto low = [out](Encoded r) {
    return Encoded{oracle::LowBits(r.word, Format(out).width), r.status};
  };
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
  const std::int64_t offset = width == 0
                                  ? 0
                                  : static_cast<std::int64_t>(oracle::SignExtend(
                                        oracle::LowBits(quant >> 37, static_cast<unsigned>(width)),
                                        static_cast<unsigned>(width)));
  if (fault != FpatrFault::SignedZeroDropped && source_class == NumericValueClass::NegativeZero &&
      !multiplier_zero && offset == 0 && IsFloating(out)) {
    return low({oracle::MatrixFloatingSignedZero(out, true), 0});
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

using MutantFn = Encoded (*)(const Case&);

struct Entry {
  MutantInfo info;
  MutantFn fn;
};

// name, models, affects, shrink op/src/dst, ops with default-suite files that can show it.
constexpr std::array kCatalog = {
    Entry{{"ties_away", "RNE ties resolved away from zero (an RNA rounder wired for RNE)",
           "every op with controls: RNE ties", "encode", "fp16", "e4m3",
           "encode,affine,tquant,tdequant,fpatr"},
          TiesAway},
    Entry{{"sticky_dropped", "sticky bit below the rounding position dropped (guard bit only)",
           "encode to FP32/FP16/BF16, tdequant", "encode", "fp32", "fp16", "encode,tdequant"},
          StickyDropped},
    Entry{{"clamp_before_round",
           "input clamped to the largest finite before rounding (no OF, no Inf)",
           "encode to every floating type", "encode", "fp16", "e4m3", "encode"},
          ClampBeforeRound},
    Entry{{"sat_ignored", "Sat ignored: every case runs as non-Sat",
           "encode, affine, tquant, tcvt to E8M0 under Sat", "encode", "fp16", "s8",
           "encode,affine,tquant,tcvt,fpatr"},
          SatIgnored},
    Entry{{"nonsat_overflow_max_finite",
           "non-Sat floating overflow gives the largest finite instead of Inf or NaN",
           "encode to every floating type, non-Sat overflow", "encode", "fp16", "e4m3", "encode"},
          NonSatOverflowMaxFinite},
    Entry{{"e4m3_neg_overflow_ff", "negative non-Sat E4M3 overflow gives 0xFF instead of 0x7F",
           "encode to E4M3, negative overflow", "encode", "fp16", "e4m3", "encode"},
          E4M3NegativeOverflowFF},
    Entry{{"negative_zero_kept",
           "the source sign kept on a zero result (-0) where the profile gives +0",
           "encode from -0 codes to FP32/FP16/BF16/E4M3; negative values rounding to 0 in E4M3",
           "encode", "fp16", "e4m3", "encode"},
          NegativeZeroKept},
    Entry{{"underflow_after_rounding",
           "tininess judged after rounding: a value rounding up to the smallest normal has no UF",
           "encode to every floating type, tdequant", "encode", "fp16", "e4m3", "encode,tdequant"},
          UnderflowAfterRounding},
    Entry{{"subnormal_position_off_by_one",
           "subnormal rounding position one bit too high (rounds to 2 subnormal units)",
           "encode to FP32/FP16/BF16, tdequant, tiny values", "encode", "fp32", "fp16",
           "encode,tdequant"},
          SubnormalPositionOffByOne},
    Entry{{"double_rounding_fp16", "double rounding: FP32 -> FP16 (RNE) -> FP8 under the mode",
           "encode to E4M3 and HiF8", "encode", "fp32", "e4m3", "encode"},
          DoubleRoundingFP16},
    Entry{{"double_rounding_bf16", "double rounding: FP32 -> BF16 (RNE) -> FP8 under the mode",
           "encode to E4M3 and HiF8", "encode", "fp32", "e4m3", "encode"},
          DoubleRoundingBF16},
    Entry{{"e8m0_always_up", "E8M0 always rounds a non-power-of-two up (ceiling in every mode)",
           "tcvt to E8M0", "tcvt", "fp16", "e8m0", "tcvt"},
          E8M0AlwaysUp},
    Entry{{"rto_as_rtz", "RTO treated as RTZ (no jamming into the last place)",
           "every op with controls, RTO", "encode", "fp16", "e4m3",
           "encode,affine,tquant,tdequant,tcvt,fpatr"},
          RtoAsRtz},
    Entry{{"rhb_as_rna", "RHB treated as RNA: negative ties go away from zero",
           "every op with controls, RHB negative ties", "encode", "fp16", "e4m3",
           "encode,affine,tquant,tdequant,fpatr"},
          RhbAsRna},
    Entry{{"s8_wrap_without_of", "non-Sat S8 wrap without OF (NX only)",
           "encode and affine to S8, non-Sat overflow", "encode", "fp16", "s8", "encode,affine"},
          S8WrapWithoutOF},
    Entry{{"tquant_of_under_sat", "TQUANT sets OF|NX when Sat clamps",
           "tquant, Sat, out-of-range results", "tquant", "fp32", "s8", "tquant"},
          TquantOFUnderSat},
    Entry{{"tdequant_reads_sat", "TDEQUANT reads Sat: overflow gives +/-0x7F7FFFFF instead of Inf",
           "tdequant, Sat, overflow", "tdequant", "s8", "fp32", "tdequant"},
          TdequantReadsSat},
    Entry{{"hif8_exponent_sign_misread", "HiF8 decoder reads the exponent sign bit inverted",
           "encode from HiF8", "encode", "hif8", "fp32", "encode"},
          Hif8ExponentSignMisread},
    Entry{{"rtp_rtm_swapped_negative",
           "RTP/RTM not swapped for negative magnitudes (sign-magnitude rounder)",
           "encode, negative values, RTP and RTM", "encode", "fp16", "e4m3", "encode"},
          RtpRtmSwappedNegative},
    Entry{{"uf_on_exact_subnormal", "UF raised for an exact subnormal result",
           "encode to every floating type, tdequant", "encode", "hif8", "fp16", "encode,tdequant"},
          UfOnExactSubnormal},
    Entry{{"nx_missing_integer", "NX missing on inexact in-range integer encodes",
           "encode to integer types, affine", "encode", "fp16", "s8", "encode,affine"},
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
           "encode to every floating type, tdequant", "encode", "fp32", "fp16", "encode,tdequant"},
          FtzSubnormalResults},
    Entry{{"daz_subnormal_inputs", "denormals-are-zero: subnormal sources read as 0",
           "encode from every floating source", "encode", "fp16", "fp32", "encode"},
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
