// The fault-model catalogue (ptovec/generator/faults.hpp), faults of the status flags and of zero
// and subnormal handling. Each fault is one function `Encoded F(const Case&)`: the oracle's bulk
// path with the fault injected; where the fault does not apply it returns the oracle's answer
// unchanged. Each comment: the bug modelled, where it was seen, the ops and pairs it affects.
#include "fault_common.hpp"

namespace ptovec::generator::faults {

namespace {

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

// The models of this file, in the catalogue's order.
constexpr std::array kFlagFaultModels = std::to_array<FaultModel>({
    {.name = "negative-zero-kept",
     .mutant = "negative_zero_kept",
     .models = "the source sign kept on a zero result (-0) where the profile gives +0",
     .affects =
         "encode from -0 codes to FP32/FP16/BF16/E4M3; negative values rounding to 0 in E4M3",
     .ops = kOpsEncode,
     .kind = FaultKind::Generic,
     .generic = DeviationGeneric(oracle::Deviation::SignedZero, "deviation signed-zero"),
     .applies =
         [](const OpDef& op, TypePair p) {
           return OpIn(op, kOpsEncode) &&
                  (IsFloating(p.src) && IsFloating(p.dst) && p.dst != T::HiF8);
         },
     .evaluate = NegativeZeroKept},
    {.name = "tininess-on-delivered-result",
     .mutant = "underflow_after_rounding",
     .models =
         "tininess judged after rounding: a value rounding up to the smallest normal has no UF",
     .affects = "encode to every floating type, tdequant",
     .ops = kOpsEncodeTdequant,
     .kind = FaultKind::Own,
     .generic = {},
     .applies =
         [](const OpDef& op, TypePair p) {
           return OpIn(op, kOpsEncodeTdequant) && (!OpNamed(op, "encode") || IsFloating(p.dst));
         },
     .evaluate = UnderflowAfterRounding},
    {.name = "s8-wrap-without-of",
     .mutant = "s8_wrap_without_of",
     .models = "non-Sat S8 wrap without OF (NX only)",
     .affects = "encode and affine to S8, non-Sat overflow",
     .ops = kOpsEncodeAffine,
     .kind = FaultKind::Own,
     .generic = {},
     .applies = [](const OpDef& op,
                   TypePair p) { return OpIn(op, kOpsEncodeAffine) && (p.dst == T::S8); },
     .evaluate = S8WrapWithoutOF},
    {.name = "uf-on-exact-subnormal",
     .mutant = "uf_on_exact_subnormal",
     .models = "UF raised for an exact subnormal result",
     .affects = "encode to every floating type, tdequant",
     .ops = kOpsEncodeTdequant,
     .kind = FaultKind::Own,
     .generic = {},
     .applies =
         [](const OpDef& op, TypePair p) {
           return OpIn(op, kOpsEncodeTdequant) && (!OpNamed(op, "encode") || IsFloating(p.dst));
         },
     .evaluate = UfOnExactSubnormal},
    {.name = "nx-missing-integer",
     .mutant = "nx_missing_integer",
     .models = "NX missing on inexact in-range integer encodes",
     .affects = "encode to integer types, affine",
     .ops = kOpsEncodeAffine,
     .kind = FaultKind::Own,
     .generic = {},
     .applies =
         [](const OpDef& op, TypePair p) {
           return OpIn(op, kOpsEncodeAffine) && (!OpNamed(op, "encode") || !IsFloating(p.dst));
         },
     .evaluate = NxMissingInteger},
    {.name = "ftz-subnormal-results",
     .mutant = "ftz_subnormal_results",
     .models = "flush-to-zero of subnormal results (UF|NX)",
     .affects = "encode to every floating type, tdequant",
     .ops = kOpsEncodeTdequant,
     .kind = FaultKind::Own,
     .generic = {},
     .applies =
         [](const OpDef& op, TypePair p) {
           return OpIn(op, kOpsEncodeTdequant) && (!OpNamed(op, "encode") || IsFloating(p.dst));
         },
     .evaluate = FtzSubnormalResults},
    {.name = "daz-subnormal-inputs",
     .mutant = "daz_subnormal_inputs",
     .models = "denormals-are-zero: subnormal sources read as 0",
     .affects = "encode from every floating source",
     .ops = kOpsEncode,
     .kind = FaultKind::Own,
     .generic = {},
     .applies = [](const OpDef& op,
                   TypePair p) { return OpIn(op, kOpsEncode) && (IsFloating(p.src)); },
     .evaluate = DazSubnormalInputs},
    {.name = "uf-without-nx",
     .mutant = "uf_without_nx",
     .models = "UF raised without NX on an inexact tiny result",
     .affects = "encode to every floating type",
     .ops = kOpsEncode,
     .kind = FaultKind::Own,
     .generic = {},
     .applies = [](const OpDef& op,
                   TypePair p) { return OpIn(op, kOpsEncode) && (IsFloating(p.dst)); },
     .evaluate = UfWithoutNx},
    {.name = "sat-overflow-without-of",
     .mutant = "sat_overflow_of_dropped",
     .models = "Sat clamps a floating overflow to the largest finite with NX only (OF dropped)",
     .affects = "encode to every floating type, Sat overflow",
     .ops = kOpsEncode,
     .kind = FaultKind::Own,
     .generic = {},
     .applies = [](const OpDef& op,
                   TypePair p) { return OpIn(op, kOpsEncode) && (IsFloating(p.dst)); },
     .evaluate = SatOverflowOFDropped},
    {.name = "unsigned-negative-nx-only",
     .mutant = "unsigned_negative_nx_only",
     .models = "negative value into an unsigned destination raises NX without OF",
     .affects = "encode and affine to unsigned types, values rounding below 0",
     .ops = kOpsEncodeAffine,
     .kind = FaultKind::Own,
     .generic = {},
     .applies = [](const OpDef& op,
                   TypePair p) { return OpIn(op, kOpsEncodeAffine) && (IsUnsignedInteger(p.dst)); },
     .evaluate = UnsignedNegativeNxOnly},
    {.name = "int-to-fp16-overflow-nv",
     .mutant = "int_to_fp16_overflow_nv",
     .models = "integer to FP16 overflow flagged NV|NX instead of OF|NX",
     .affects = "encode S32 -> FP16, overflow",
     .ops = kOpsEncode,
     .kind = FaultKind::Own,
     .generic = {},
     .applies =
         [](const OpDef& op, TypePair p) {
           return OpIn(op, kOpsEncode) && (p.src == T::S32 && p.dst == T::FP16);
         },
     .evaluate = IntToFp16OverflowNv},
    {.name = "most-negative-integer-nv",
     .mutant = "most_negative_integer_nv",
     .models = "a value rounding to the most negative integer (-128.5 -> -128) flagged NV",
     .affects = "encode from a float to S4X2/S8/S16/S32, values just below the minimum",
     .ops = kOpsEncode,
     .kind = FaultKind::Own,
     .generic = {},
     .applies =
         [](const OpDef& op, TypePair p) {
           return OpIn(op, kOpsEncode) && (IsFloating(p.src) && IsSignedInteger(p.dst));
         },
     .evaluate = MostNegativeIntegerNv},
    {.name = "unsigned-minus-2w-nx-only",
     .mutant = "unsigned_minus_2w_nx_only",
     .models = "a negative value rounding to -2^w for an unsigned target: 0 with NX (OF missing)",
     .affects = "encode and affine to U4X2/U8/U16/U32, values rounding to exactly -2^w",
     .ops = kOpsEncodeAffine,
     .kind = FaultKind::Own,
     .generic = {},
     .applies = [](const OpDef& op,
                   TypePair p) { return OpIn(op, kOpsEncodeAffine) && (IsUnsignedInteger(p.dst)); },
     .evaluate = UnsignedMinus2wNxOnly},
});

}  // namespace

std::span<const FaultModel> FlagFaultModels() { return kFlagFaultModels; }

}  // namespace ptovec::generator::faults
