// The fault-model catalogue (ptovec/generator/faults.hpp), faults of integer destinations: the S32
// -> S16 shift, affine, Sat bounds, out-of-range float to integer. Each fault is one function
// `Encoded F(const Case&)`: the oracle's bulk path with the fault injected; where the fault does
// not apply it returns the oracle's answer unchanged. Each comment: the bug modelled, where it was
// seen, the ops and pairs it affects.
#include "fault_common.hpp"

namespace ptovec::generator::faults {

namespace {

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

// The models of this file, in the catalogue's order.
constexpr std::array kIntegerFaultModels =
    std::to_array<FaultModel>(
        {
            {.name = "shift-clamp-without-of",
             .mutant = "shift_of_missing",
             .models = "shift clamps to S16 without OF|NX",
             .affects = "shift, clamped results",
             .ops = kOpsShift,
             .kind = FaultKind::Own,
             .generic = {},
             .applies = [](const OpDef& op, TypePair) { return OpIn(op, kOpsShift); },
             .evaluate = ShiftOFMissing},
            {.name = "shift-logical",
             .mutant = "shift_logical",
             .models = "logical instead of arithmetic shift right",
             .affects = "shift, negative values",
             .ops = kOpsShift,
             .kind = FaultKind::Own,
             .generic = {},
             .applies = [](const OpDef& op, TypePair) { return OpIn(op, kOpsShift); },
             .evaluate = ShiftLogical},
            {.name = "affine-width-17-as-16",
             .mutant = "affine_width17_as_16",
             .models = "affine width 17 intermediate clamped as 16 bits",
             .affects = "affine, width 17",
             .ops = kOpsAffine,
             .kind = FaultKind::Own,
             .generic = {},
             .applies = [](const OpDef& op, TypePair) { return OpIn(op, kOpsAffine); },
             .evaluate = AffineWidth17As16},
            {.name = "shift-rounds",
             .mutant = "shift_rounds",
             .models = "S32 -> S16 shift adds 2^(shift-1) (rounds) instead of truncating",
             .affects = "shift, dropped bits at least half",
             .ops = kOpsShift,
             .kind = FaultKind::Own,
             .generic = {},
             .applies = [](const OpDef& op, TypePair) { return OpIn(op, kOpsShift); },
             .evaluate = ShiftRounds},
            {.name = "shift-wraps",
             .mutant = "shift_wraps",
             .models = "S32 -> S16 shift wraps to 16 bits instead of saturating",
             .affects = "shift, results outside S16",
             .ops = kOpsShift,
             .kind = FaultKind::Own,
             .generic = {},
             .applies = [](const OpDef& op, TypePair) { return OpIn(op, kOpsShift); },
             .evaluate = ShiftWraps},
            {.name = "sat-limits-zero",
             .mutant = "sat_limits_zero",
             .models = "Sat bounds from an unspecialised limits table: every Sat clamp gives 0",
             .affects = "encode, affine, tquant, Sat, out-of-range results",
             .ops = kOpsEncodeAffineTquant,
             .kind = FaultKind::Own,
             .generic = {},
             .applies = [](const OpDef& op, TypePair) { return OpIn(op, kOpsEncodeAffineTquant); },
             .evaluate = SatLimitsZero},
            {.name = "s4x2-u4x2-always-clamped",
             .mutant = "narrow_int_always_clamped",
             .models = "S4X2/U4X2 destinations always clamped (Sat ignored when off)",
             .affects = "encode and affine to S4X2 and U4X2, non-Sat overflow",
             .ops = kOpsEncodeAffine,
             .kind = FaultKind::NarrowedGeneric,
             .generic = SatGeneric(
                 GenericKind::SatAlwaysOn, "Sat always on (encode and affine to S4X2 and U4X2)"),
             .applies =
                 [](const OpDef& op, TypePair p) {
                   return OpIn(op, kOpsEncodeAffine) && (p.dst == T::S4X2 || p.dst == T::U4X2);
                 },
             .evaluate = NarrowIntAlwaysClamped},
            {.name = "sat-clamp-in-source-type",
             .mutant = "sat_clamp_in_source_float",
             .models =
                 "Sat clamp done in the source float type (INT32_MAX rounds to 2^31, then wraps)",
             .affects = "encode from a float to S16/U16/S32/U32, Sat, positive overflow",
             .ops = kOpsEncode,
             .kind = FaultKind::Own,
             .generic = {},
             .applies =
                 [](const OpDef& op, TypePair p) {
                   return OpIn(op, kOpsEncode) && (IsFloating(p.src) && !IsFloating(p.dst));
                 },
             .evaluate = SatClampInSourceFloat},
            {.name = "float-to-int-host-indefinite",
             .mutant = "float_to_int_host_undefined",
             .models = "out-of-range float-to-integer left to the host (x86 gives 0x80000000)",
             .affects = "encode from FP32/BF16 to S16/U16/S32/U32, non-Sat, |value| >= 2^31",
             .ops = kOpsEncode,
             .kind = FaultKind::Own,
             .generic = {},
             .applies =
                 [](const OpDef& op, TypePair p) {
                   return OpIn(op, kOpsEncode) && (IsFloating(p.src) && !IsFloating(p.dst));
                 },
             .evaluate = FloatToIntHostUndefined},
        });

}  // namespace

std::span<const FaultModel> IntegerFaultModels() { return kIntegerFaultModels; }

}  // namespace ptovec::generator::faults
