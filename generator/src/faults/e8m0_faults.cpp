// The fault-model catalogue (ptovec/generator/faults.hpp), faults of the E8M0 exponent conversion
// (tcvt to E8M0). Each fault is one function `Encoded F(const Case&)`: the oracle's bulk path with
// the fault injected; where the fault does not apply it returns the oracle's answer unchanged. Each
// comment: the bug modelled, where it was seen, the ops and pairs it affects.
#include "fault_common.hpp"

namespace ptovec::generator::faults {

namespace {

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

// The models of this file, in the catalogue's order.
constexpr std::array kE8m0FaultModels = std::to_array<FaultModel>({
    {.name = "e8m0-ceiling-every-mode",
     .mutant = "e8m0_always_up",
     .models = "E8M0 always rounds a non-power-of-two up (ceiling in every mode)",
     .affects = "tcvt to E8M0",
     .ops = kOpsTcvt,
     .kind = FaultKind::NarrowedGeneric,
     .generic = ModeAsGeneric(std::nullopt, M::RTP, "every mode as RTP (tcvt to E8M0)"),
     .applies = [](const OpDef& op,
                   TypePair p) { return OpIn(op, kOpsTcvt) && (p.dst == T::E8M0); },
     .evaluate = E8M0AlwaysUp},
    {.name = "e8m0-arithmetic-midpoint-threshold",
     .mutant = "e8m0_threshold_1_5",
     .models = "E8M0 nearest-mode threshold 1.5 instead of sqrt(2)",
     .affects = "tcvt to E8M0, RNE RNA RHB",
     .ops = kOpsTcvt,
     .kind = FaultKind::Own,
     .generic = {},
     .applies = [](const OpDef& op,
                   TypePair p) { return OpIn(op, kOpsTcvt) && (p.dst == T::E8M0); },
     .evaluate = E8M0Threshold15},
    {.name = "e8m0-rtz-as-rtm",
     .mutant = "e8m0_rtz_as_floor",
     .models = "E8M0 RTZ rounds the exponent down instead of toward zero",
     .affects = "tcvt to E8M0, RTZ, values below 1",
     .ops = kOpsTcvt,
     .kind = FaultKind::NarrowedGeneric,
     .generic = ModeAsGeneric(M::RTZ, M::RTM, "mode RTZ as RTM (tcvt to E8M0)"),
     .applies = [](const OpDef& op,
                   TypePair p) { return OpIn(op, kOpsTcvt) && (p.dst == T::E8M0); },
     .evaluate = E8M0RtzAsFloor},
    {.name = "e8m0-sqrt2-top-8-bits",
     .mutant = "e8m0_sqrt2_top8",
     .models = "E8M0 RNA/RHB compare with sqrt(2) on the top 8 significand bits",
     .affects = "tcvt to E8M0, RNA RHB, significands in (sqrt(2), 182/128)",
     .ops = kOpsTcvt,
     .kind = FaultKind::Own,
     .generic = {},
     .applies = [](const OpDef& op,
                   TypePair p) { return OpIn(op, kOpsTcvt) && (p.dst == T::E8M0); },
     .evaluate = E8M0Sqrt2Top8},
    {.name = "e8m0-floor-every-mode",
     .mutant = "e8m0_floor_every_mode",
     .models = "E8M0 takes the floor exponent in every mode",
     .affects = "tcvt to E8M0, every mode but RTM, non-powers of two",
     .ops = kOpsTcvt,
     .kind = FaultKind::NarrowedGeneric,
     .generic = ModeAsGeneric(std::nullopt, M::RTM, "every mode as RTM (tcvt to E8M0)"),
     .applies = [](const OpDef& op,
                   TypePair p) { return OpIn(op, kOpsTcvt) && (p.dst == T::E8M0); },
     .evaluate = E8M0FloorEveryMode},
    {.name = "e8m0-specials-given-exponent",
     .mutant = "e8m0_specials_given_exponent",
     .models = "E8M0 of NaN, zero and negative inputs given an exponent instead of 0xFF with NV",
     .affects = "tcvt to E8M0, NaN, zero and negative sources",
     .ops = kOpsTcvt,
     .kind = FaultKind::Own,
     .generic = {},
     .applies = [](const OpDef& op,
                   TypePair p) { return OpIn(op, kOpsTcvt) && (p.dst == T::E8M0); },
     .evaluate = E8M0SpecialsGivenExponent},
    {.name = "e8m0-sign-leaks-into-exponent",
     .mutant = "e8m0_sign_leaks_into_exponent",
     .models = "E8M0: the sign bit leaks into the exponent field (no NV for negative inputs)",
     .affects = "tcvt to E8M0, negative finite sources",
     .ops = kOpsTcvt,
     .kind = FaultKind::Own,
     .generic = {},
     .applies = [](const OpDef& op,
                   TypePair p) { return OpIn(op, kOpsTcvt) && (p.dst == T::E8M0); },
     .evaluate = E8M0SignLeaksIntoExponent},
});

}  // namespace

std::span<const FaultModel> E8m0FaultModels() { return kE8m0FaultModels; }

}  // namespace ptovec::generator::faults
