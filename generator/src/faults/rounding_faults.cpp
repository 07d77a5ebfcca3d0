// The fault-model catalogue (ptovec/generator/faults.hpp), rounding faults: a mode computed as
// another, the rounder's sticky bit, clamping, Sat, double rounding. Each fault is one function
// `Encoded F(const Case&)`: the oracle's bulk path with the fault injected; where the fault does
// not apply it returns the oracle's answer unchanged. Each comment: the bug modelled, where it was
// seen, the ops and pairs it affects.
#include "fault_common.hpp"

namespace ptovec::generator::faults {

namespace {

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

// The models of this file, in the catalogue's order.
constexpr std::array kRoundingFaultModels = std::to_array<FaultModel>({
    {.name = "rne-as-rna",
     .mutant = "ties_away",
     .models = "RNE ties resolved away from zero (an RNA rounder wired for RNE)",
     .affects = "every op with controls: RNE ties",
     .ops = kOpsEncodeAffineTquantTdequantFpatr,
     .kind = FaultKind::Generic,
     .generic = ModeAsGeneric(M::RNE, M::RNA, "mode RNE as RNA"),
     .applies = [](const OpDef& op,
                   TypePair) { return OpIn(op, kOpsEncodeAffineTquantTdequantFpatr); },
     .evaluate = TiesAway},
    {.name = "sticky-bit-dropped",
     .mutant = "sticky_dropped",
     .models = "sticky bit below the rounding position dropped (guard bit only)",
     .affects = "encode to FP32/FP16/BF16, tdequant",
     .ops = kOpsEncodeTdequant,
     .kind = FaultKind::Own,
     .generic = {},
     .applies =
         [](const OpDef& op, TypePair p) {
           return OpIn(op, kOpsEncodeTdequant) && (!OpNamed(op, "encode") || IsBinary(p.dst));
         },
     .evaluate = StickyDropped},
    {.name = "clamp-before-rounding",
     .mutant = "clamp_before_round",
     .models = "input clamped to the largest finite before rounding (no OF, no Inf)",
     .affects = "encode to every floating type",
     .ops = kOpsEncode,
     .kind = FaultKind::Own,
     .generic = {},
     .applies = [](const OpDef& op,
                   TypePair p) { return OpIn(op, kOpsEncode) && (IsFloating(p.dst)); },
     .evaluate = ClampBeforeRound},
    {.name = "sat-ignored",
     .mutant = "sat_ignored",
     .models = "Sat ignored: every case runs as non-Sat",
     .affects = "encode, affine, tquant, tcvt to E8M0 under Sat",
     .ops = kOpsEncodeAffineTquantTcvtFpatr,
     .kind = FaultKind::Generic,
     .generic = SatGeneric(GenericKind::SatIgnored, "Sat ignored"),
     .applies = [](const OpDef& op, TypePair) { return OpIn(op, kOpsEncodeAffineTquantTcvtFpatr); },
     .evaluate = SatIgnored},
    {.name = "non-sat-overflow-largest-finite",
     .mutant = "nonsat_overflow_max_finite",
     .models = "non-Sat floating overflow gives the largest finite instead of Inf or NaN",
     .affects = "encode to every floating type, non-Sat overflow",
     .ops = kOpsEncode,
     .kind = FaultKind::NarrowedGeneric,
     .generic = SatGeneric(GenericKind::SatAlwaysOn, "Sat always on (encode to floating types)"),
     .applies = [](const OpDef& op,
                   TypePair p) { return OpIn(op, kOpsEncode) && (IsFloating(p.dst)); },
     .evaluate = NonSatOverflowMaxFinite},
    {.name = "subnormal-rounding-position-off-by-one",
     .mutant = "subnormal_position_off_by_one",
     .models = "subnormal rounding position one bit too high (rounds to 2 subnormal units)",
     .affects = "encode to FP32/FP16/BF16, tdequant, tiny values",
     .ops = kOpsEncodeTdequant,
     .kind = FaultKind::Own,
     .generic = {},
     .applies =
         [](const OpDef& op, TypePair p) {
           return OpIn(op, kOpsEncodeTdequant) && (!OpNamed(op, "encode") || IsBinary(p.dst));
         },
     .evaluate = SubnormalPositionOffByOne},
    {.name = "double-rounding-through-fp16",
     .mutant = "double_rounding_fp16",
     .models = "double rounding: FP32 -> FP16 (RNE) -> FP8 under the mode",
     .affects = "encode to E4M3 and HiF8",
     .ops = kOpsEncode,
     .kind = FaultKind::NarrowedGeneric,
     .generic =
         DoubleRoundingGeneric(T::FP16, "double rounding through FP16 (encode to E4M3 and HiF8)"),
     .applies = [](const OpDef& op, TypePair p) { return OpIn(op, kOpsEncode) && (IsFP8(p.dst)); },
     .evaluate = DoubleRoundingFP16},
    {.name = "double-rounding-through-bf16",
     .mutant = "double_rounding_bf16",
     .models = "double rounding: FP32 -> BF16 (RNE) -> FP8 under the mode",
     .affects = "encode to E4M3 and HiF8",
     .ops = kOpsEncode,
     .kind = FaultKind::NarrowedGeneric,
     .generic =
         DoubleRoundingGeneric(T::BF16, "double rounding through BF16 (encode to E4M3 and HiF8)"),
     .applies = [](const OpDef& op, TypePair p) { return OpIn(op, kOpsEncode) && (IsFP8(p.dst)); },
     .evaluate = DoubleRoundingBF16},
    {.name = "rto-as-rtz",
     .mutant = "rto_as_rtz",
     .models = "RTO treated as RTZ (no jamming into the last place)",
     .affects = "every op with controls, RTO",
     .ops = kOpsEncodeAffineTquantTdequantTcvtFpatr,
     .kind = FaultKind::Generic,
     .generic = ModeAsGeneric(M::RTO, M::RTZ, "mode RTO as RTZ"),
     .applies = [](const OpDef& op,
                   TypePair) { return OpIn(op, kOpsEncodeAffineTquantTdequantTcvtFpatr); },
     .evaluate = RtoAsRtz},
    {.name = "rhb-as-rna",
     .mutant = "rhb_as_rna",
     .models = "RHB treated as RNA: negative ties go away from zero",
     .affects = "every op with controls, RHB negative ties",
     .ops = kOpsEncodeAffineTquantTdequantFpatr,
     .kind = FaultKind::Generic,
     .generic = ModeAsGeneric(M::RHB, M::RNA, "mode RHB as RNA"),
     .applies = [](const OpDef& op,
                   TypePair) { return OpIn(op, kOpsEncodeAffineTquantTdequantFpatr); },
     .evaluate = RhbAsRna},
    {.name = "rtp-rtm-not-swapped-for-negatives",
     .mutant = "rtp_rtm_swapped_negative",
     .models = "RTP/RTM not swapped for negative magnitudes (sign-magnitude rounder)",
     .affects = "encode, negative values, RTP and RTM",
     .ops = kOpsEncode,
     .kind = FaultKind::Own,
     .generic = {},
     .applies = [](const OpDef& op, TypePair) { return OpIn(op, kOpsEncode); },
     .evaluate = RtpRtmSwappedNegative},
    {.name = "bf16-truncation",
     .mutant = "bf16_truncation",
     .models = "BF16 by truncation (low bits dropped) when RNE is requested",
     .affects = "encode to BF16, RNE",
     .ops = kOpsEncode,
     .kind = FaultKind::NarrowedGeneric,
     .generic = ModeAsGeneric(M::RNE, M::RTZ, "mode RNE as RTZ (encode to BF16)"),
     .applies = [](const OpDef& op,
                   TypePair p) { return OpIn(op, kOpsEncode) && (p.dst == T::BF16); },
     .evaluate = Bf16Truncation},
    {.name = "rna-as-rne",
     .mutant = "rna_as_rne",
     .models = "RNA treated as RNE (ties to even instead of away)",
     .affects = "every op with controls, RNA ties",
     .ops = kOpsEncodeAffineTquantTdequantFpatr,
     .kind = FaultKind::Generic,
     .generic = ModeAsGeneric(M::RNA, M::RNE, "mode RNA as RNE"),
     .applies = [](const OpDef& op,
                   TypePair) { return OpIn(op, kOpsEncodeAffineTquantTdequantFpatr); },
     .evaluate = RnaAsRne},
    {.name = "mode-ignored-rne",
     .mutant = "mode_ignored_rne",
     .models = "the rounding mode ignored: every mode rounds as RNE",
     .affects = "encode, float and integer destinations, every mode but RNE",
     .ops = kOpsEncode,
     .kind = FaultKind::NarrowedGeneric,
     .generic = ModeAsGeneric(std::nullopt, M::RNE, "every mode as RNE (encode)"),
     .applies = [](const OpDef& op, TypePair) { return OpIn(op, kOpsEncode); },
     .evaluate = ModeIgnoredRne},
    {.name = "mode-ignored-rtz",
     .mutant = "mode_ignored_rtz",
     .models = "the rounding mode ignored: every mode truncates (RTZ)",
     .affects = "encode, float and integer destinations, every mode but RTZ",
     .ops = kOpsEncode,
     .kind = FaultKind::NarrowedGeneric,
     .generic = ModeAsGeneric(std::nullopt, M::RTZ, "every mode as RTZ (encode)"),
     .applies = [](const OpDef& op, TypePair) { return OpIn(op, kOpsEncode); },
     .evaluate = ModeIgnoredRtz},
    {.name = "rto-as-round-half-odd",
     .mutant = "rto_half_to_odd",
     .models = "RTO as round-half-to-odd (nearest, ties to odd) instead of sticky round-to-odd",
     .affects = "encode, RTO, inexact values off a tie",
     .ops = kOpsEncode,
     .kind = FaultKind::Own,
     .generic = {},
     .applies = [](const OpDef& op, TypePair) { return OpIn(op, kOpsEncode); },
     .evaluate = RtoHalfToOdd},
});

}  // namespace

std::span<const FaultModel> RoundingFaultModels() { return kRoundingFaultModels; }

}  // namespace ptovec::generator::faults
