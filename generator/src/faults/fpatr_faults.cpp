// The fault-model catalogue (ptovec/generator/faults.hpp), faults of the B.FPATR pipeline (op
// fpatr): the pipeline of reference/matrix-postprocess.asl lines 180-252, as the oracle's
// FastMatrixPostQuantBaseWithFlags computes it, with one fault; other ops: the oracle.
#include "fault_common.hpp"

namespace ptovec::generator::faults {

namespace {

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

/// The inputs of an fpatr case.
struct FpatrInputs {
  Word value;
  unsigned mode;
  unsigned relu;
  Word quant;
  Word relu_param;
  T out;
};

FpatrInputs FpatrInputsOf(const Case& c) {
  return {
      c.in[0],   static_cast<unsigned>(c.in[1]), static_cast<unsigned>(c.in[2]), c.in[3], c.in[4],
      c.pair.dst};
}

Encoded FpatrLowBits(T out, Encoded r) {
  return Encoded{oracle::LowBits(r.word, Format(out).width), r.status};
}

/// fpatr_rhb_from_datr: modes 25 and 28 (HiF8) computed under the B.DATR control.
Encoded FpatrDatrRounding(const Case& c, const FpatrInputs& f) {
  if (f.mode != 25 && f.mode != 28) return Oracle(c);
  const Encoded r = oracle::FastMatrixPostQuantBaseWithFlags(f.value, f.mode, f.out, f.relu,
                                                             f.quant, f.relu_param, c.control);
  return FpatrLowBits(f.out, r);
}

/// fpatr_relu_in_shift_modes: ReLU zeroes the negative accumulator; LReLU/PReLU scale it by the
/// FP19 parameter and truncate to an integer; then the shift and clamp of MatrixShiftS32ToS16.
Encoded FpatrShiftModeRelu(const Case& c, const FpatrInputs& f) {
  const auto s32 = static_cast<std::int32_t>(static_cast<std::uint32_t>(f.value));
  if (!oracle::BundleFPATRModeIsShift(f.mode) || f.relu == 0 || s32 >= 0) return Oracle(c);
  std::int64_t activated = 0;
  if (f.relu >= 2) {
    activated = RoundToInteger(oracle::DyadicProduct(
                                   oracle::DyadicFromInteger(s32),
                                   oracle::DyadicFromFiniteCode(T::FP19, f.relu_param & 0x7FFFF)),
                               M::RTZ)
                    .value;
  }
  const int shift = static_cast<int>((f.quant >> 32) & 0xF) + 1;
  return FpatrLowBits(f.out, ClampToS16(activated >> shift));
}

/// The activation stage of the pipeline: the source type and class and the multiplier (scale,
/// 0 or the ReLU parameter, by sign and ReluMode).
struct FpatrActivation {
  NumericExecutionControl control;
  T source;
  NumericValueClass source_class;
  Dyadic scale;
  Dyadic param;
  Dyadic multiplier;
};

FpatrActivation FpatrActivate(const Case& c, const FpatrInputs& f, FpatrFault fault) {
  FpatrActivation a;
  a.control = oracle::MatrixFPATREffectiveControl(f.mode, c.control);
  a.source = f.mode == 0                                         ? f.out
             : oracle::BundleFPATRModeUsesS32Accumulator(f.mode) ? T::S32
                                                                 : T::FP32;
  a.source_class = a.source == T::FP32 ? oracle::TileNumericValueClass(a.source, f.value)
                                       : NumericValueClass::PositiveNormal;
  const auto s32 = static_cast<std::int32_t>(static_cast<std::uint32_t>(f.value));
  const bool negative =
      a.source == T::S32 ? s32 < 0 : oracle::MatrixValueClassNegative(a.source_class);
  const bool scaled = oracle::BundleFPATRModeUsesScalarParameter(f.mode) ||
                      oracle::BundleFPATRModeUsesVectorParameter(f.mode);
  const Dyadic one{false, 1, 0};
  a.scale = scaled ? oracle::DyadicFromFiniteCode(T::FP19, (f.quant >> 13) & 0x7FFFF) : one;
  a.param = oracle::DyadicFromFiniteCode(T::FP19, f.relu_param & 0x7FFFF);
  if (fault == FpatrFault::LreluParamFp32) {
    a.param = oracle::DyadicFromFiniteCode(T::FP32, f.relu_param & 0xFFFFFFFF);
  }
  a.multiplier = !negative || f.relu == 0 ? a.scale : f.relu == 1 ? Dyadic{false, 0, 0} : a.param;
  if (fault == FpatrFault::ReluAfterScale && negative && f.relu >= 2) {
    a.multiplier = oracle::DyadicProduct(a.scale, a.param);
  }
  return a;
}

/// The exact source value of a case that is not special (a -Inf source: 0).
Dyadic FpatrSourceValue(const FpatrInputs& f, const FpatrActivation& a) {
  const auto s32 = static_cast<std::int32_t>(static_cast<std::uint32_t>(f.value));
  if (a.source == T::S32) return oracle::DyadicFromInteger(s32);
  if (a.source == T::U32) {
    return oracle::DyadicFromInteger(static_cast<std::int64_t>(f.value & 0xFFFFFFFF));
  }
  if (a.source_class != NumericValueClass::NegativeInfinity) {
    return oracle::DyadicFromFiniteCode(T::FP32, f.value & 0xFFFFFFFF);
  }
  return Dyadic{false, 0, 0};
}

/// The offset of the mode's width (0 without one): sign-extended, or zero-extended under
/// OffsetUnsigned.
std::int64_t FpatrOffset(const FpatrInputs& f, int width, FpatrFault fault) {
  const Word offset_field =
      width == 0 ? 0 : oracle::LowBits(f.quant >> 37, static_cast<unsigned>(width));
  return width == 0 || fault == FpatrFault::OffsetUnsigned
             ? static_cast<std::int64_t>(offset_field)
             : static_cast<std::int64_t>(
                   oracle::SignExtend(offset_field, static_cast<unsigned>(width)));
}

/// ReluAfterOffset: every sign scaled, rounded and clamped at the width, the offset added, then
/// the ReLU.
Encoded FpatrReluAfterOffsetAnswer(const FpatrInputs& f, const FpatrActivation& a,
                                   const Dyadic& source_value, int width, std::int64_t offset) {
  const auto [intermediate, flags] = oracle::FastMatrixRoundAndSaturateSigned(
      oracle::DyadicProduct(source_value, a.scale), width, a.control.rounding_mode);
  const std::int64_t sum = intermediate + offset;
  Dyadic result = oracle::DyadicFromInteger(sum);
  if (sum < 0) result = f.relu == 1 ? Dyadic{false, 0, 0} : oracle::DyadicProduct(result, a.param);
  const Encoded e = EncodeDyadic(result, f.out, a.control);
  return {e.word, static_cast<Status>(e.status | flags)};
}

/// The pipeline from the activation on (modes other than 0 without ReLU and the shift modes).
Encoded FpatrPipeline(const Case& c, const FpatrInputs& f, FpatrFault fault) {
  const FpatrActivation a = FpatrActivate(c, f, fault);
  const T out = f.out;
  const bool multiplier_zero = a.multiplier.significand == 0;
  const oracle::MatrixSpecialResult special =
      oracle::MatrixPostQuantSpecialValue(f.value, a.source, out, a.control);
  if (special.special &&
      !(a.source_class == NumericValueClass::NegativeInfinity && multiplier_zero)) {
    return FpatrLowBits(out, {special.word, special.status});
  }
  const Dyadic source_value = FpatrSourceValue(f, a);
  const Dyadic activated = oracle::DyadicProduct(source_value, a.multiplier);
  const int width = oracle::BundleFPATRModeOffsetWidth(f.mode);
  const std::int64_t offset = FpatrOffset(f, width, fault);
  if (fault != FpatrFault::SignedZeroDropped && a.source_class == NumericValueClass::NegativeZero &&
      !multiplier_zero && offset == 0 && IsFloating(out)) {
    return FpatrLowBits(out, {oracle::MatrixFloatingSignedZero(out, true), 0});
  }
  if (width != 0 && fault == FpatrFault::ReluAfterOffset && f.relu != 0) {
    return FpatrReluAfterOffsetAnswer(f, a, source_value, width, offset);
  }
  if (width != 0 && fault == FpatrFault::RoundAfterOffset) {
    // One rounding, of activated + offset, where no clamp at the width intervenes.
    const auto [intermediate, flags] =
        oracle::FastMatrixRoundAndSaturateSigned(activated, width, a.control.rounding_mode);
    if ((flags & kOF) == 0) {
      return EncodeDyadic(DyadicSum(activated, oracle::DyadicFromInteger(offset)), out, a.control);
    }
  }
  const Dyadic one{false, 1, 0};
  if (width != 0) {
    return FpatrLowBits(
        out, oracle::FastMatrixQuantizedAffine(activated, one, offset, width, out, a.control));
  }
  if (!IsFloating(out)) {
    return FpatrLowBits(out, oracle::FastMatrixIntegerEncoding(activated, out, a.control));
  }
  return FpatrLowBits(out, oracle::FastMatrixFloatingEncoding(activated, out, a.control));
}

/// The fpatr pipeline with one fault; other ops: the oracle.
Encoded FpatrWithFault(const Case& c, FpatrFault fault) {
  static const OpDef* const fpatr = FindOp("fpatr");
  if (c.op != fpatr) return Oracle(c);
  const FpatrInputs f = FpatrInputsOf(c);
  if (fault == FpatrFault::RhbFromDatr) return FpatrDatrRounding(c, f);
  if (fault == FpatrFault::ReluInShiftModes) return FpatrShiftModeRelu(c, f);
  if ((f.mode == 0 && f.relu == 0) || oracle::BundleFPATRModeIsShift(f.mode)) return Oracle(c);
  return FpatrPipeline(c, f, fault);
}

// fpatr_relu_after_scale: LReLU/PReLU applied after the scale: a negative value becomes value *
// scale * parameter. fpatr_lrelu_param_fp32: the ReLU parameter's low 32 bits read as an FP32
// word instead of FP19. fpatr_signed_zero_dropped: no -0 result for a -0 accumulator.
// fpatr_rhb_from_datr: modes 25/28 (HiF8) round under the B.DATR control instead of the fixed
// RHB.
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
Encoded FpatrReluAfterScale(const Case& c) { return FpatrWithFault(c, FpatrFault::ReluAfterScale); }
Encoded FpatrLreluParamFp32(const Case& c) { return FpatrWithFault(c, FpatrFault::LreluParamFp32); }
Encoded FpatrSignedZeroDropped(const Case& c) {
  return FpatrWithFault(c, FpatrFault::SignedZeroDropped);
}
Encoded FpatrRhbFromDatr(const Case& c) { return FpatrWithFault(c, FpatrFault::RhbFromDatr); }
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

// The models of this file, in the catalogue's order.
constexpr std::array kFpatrFaultModels = std::to_array<FaultModel>({
    {.name = "fpatr-lrelu-after-scale",
     .mutant = "fpatr_relu_after_scale",
     .models = "B.FPATR LReLU/PReLU applied after the scale (negative value * scale * parameter)",
     .affects = "fpatr, negative values under ReluMode 2 and 3 with a scale other than 1",
     .ops = kOpsFpatr,
     .kind = FaultKind::Own,
     .generic = {},
     .applies = [](const OpDef& op, TypePair) { return OpIn(op, kOpsFpatr); },
     .evaluate = FpatrReluAfterScale},
    {.name = "fpatr-lrelu-parameter-fp32",
     .mutant = "fpatr_lrelu_param_fp32",
     .models = "B.FPATR LReLU/PReLU parameter read as FP32 instead of FP19",
     .affects = "fpatr, negative values under ReluMode 2 and 3",
     .ops = kOpsFpatr,
     .kind = FaultKind::Own,
     .generic = {},
     .applies = [](const OpDef& op, TypePair) { return OpIn(op, kOpsFpatr); },
     .evaluate = FpatrLreluParamFp32},
    {.name = "fpatr-signed-zero-dropped",
     .mutant = "fpatr_signed_zero_dropped",
     .models = "B.FPATR signed-zero rule dropped: a -0 accumulator gives +0",
     .affects = "fpatr, -0 FP32 accumulators into floating types",
     .ops = kOpsFpatr,
     .kind = FaultKind::Own,
     .generic = {},
     .applies = [](const OpDef& op, TypePair) { return OpIn(op, kOpsFpatr); },
     .evaluate = FpatrSignedZeroDropped},
    {.name = "fpatr-hif8-rounding-from-datr",
     .mutant = "fpatr_rhb_from_datr",
     .models = "B.FPATR modes 25/28 (HiF8) round under the B.DATR control instead of the fixed RHB",
     .affects = "fpatr to HiF8, ties",
     .ops = kOpsFpatr,
     .kind = FaultKind::Own,
     .generic = {},
     .applies = [](const OpDef& op, TypePair) { return OpIn(op, kOpsFpatr); },
     .evaluate = FpatrRhbFromDatr},
    {.name = "fpatr-offset-unsigned",
     .mutant = "fpatr_offset_unsigned",
     .models = "B.FPATR offset field read unsigned (no sign extension)",
     .affects = "fpatr, modes with an offset, negative offsets",
     .ops = kOpsFpatr,
     .kind = FaultKind::Own,
     .generic = {},
     .applies = [](const OpDef& op, TypePair) { return OpIn(op, kOpsFpatr); },
     .evaluate = FpatrOffsetUnsigned},
    {.name = "fpatr-relu-after-offset",
     .mutant = "fpatr_relu_after_offset",
     .models = "B.FPATR ReLU applied after the offset and the clamp",
     .affects = "fpatr, modes with an offset, ReluMode 1..3, negative values",
     .ops = kOpsFpatr,
     .kind = FaultKind::Own,
     .generic = {},
     .applies = [](const OpDef& op, TypePair) { return OpIn(op, kOpsFpatr); },
     .evaluate = FpatrReluAfterOffset},
    {.name = "fpatr-round-after-offset",
     .mutant = "fpatr_round_after_offset",
     .models = "B.FPATR rounding after adding the offset instead of before",
     .affects = "fpatr, modes with an offset, non-integer scaled values",
     .ops = kOpsFpatr,
     .kind = FaultKind::Own,
     .generic = {},
     .applies = [](const OpDef& op, TypePair) { return OpIn(op, kOpsFpatr); },
     .evaluate = FpatrRoundAfterOffset},
    {.name = "fpatr-relu-in-shift-modes",
     .mutant = "fpatr_relu_in_shift_modes",
     .models = "B.FPATR ReluMode applied in the shift modes 12 and 13",
     .affects = "fpatr, modes 12 and 13, ReluMode 1..3, negative accumulators",
     .ops = kOpsFpatr,
     .kind = FaultKind::Own,
     .generic = {},
     .applies = [](const OpDef& op, TypePair) { return OpIn(op, kOpsFpatr); },
     .evaluate = FpatrReluInShiftModes},
});

}  // namespace

std::span<const FaultModel> FpatrFaultModels() { return kFpatrFaultModels; }

}  // namespace ptovec::generator::faults
