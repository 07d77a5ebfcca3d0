// The B.FPATR matrix post-process of one accumulator element, from the specification's reference
// units beyond the seeds (../shared/seeds/reference/, read its README):
//  - matrix-postprocess.asl, unit PTO-ARCH-PROFILE-MATRIX-POSTPROCESS:
//    TileProfileMatrixPostProcessWithFlags and its helpers (effective rounding control, shift
//    modes, special values, ReLU / LReLU / PReLU multiplier, signed zero, S5/S9/S17 affine or
//    direct encoding);
//  - B.FPATR-modes.asl, from the B.FPATR instruction unit: the closed PreQuantMode table and the
//    legality of the parameter words and of the B.DATR rounding/Sat fields per mode.
// Each function is a literal transliteration of the ASL function of the same name; the comments
// of oracle/src/matrix_postprocess.cpp and b_fpatr_modes.cpp cite the file's line numbers (the
// first line of each file is line 1). The seed helpers they call are those of
// matrix_quantization.hpp (seed 000) and reference_quantization.hpp (seed 003).
//
// Definitions that neither file contains follow reference/README.md:
// HardwareNumericCanonicalNaNResult (FP32 0x7FC00000, FP16 0x7E00, BF16 0x7FC0, E4M3 0x7F, HiF8
// 0x80), FP19ScaleLegal (a positive normal FP19), FP19ActivationParameterLegal (+0 or a positive
// normal FP19).
#pragma once

#include <utility>

#include "ptovec/oracle/formats.hpp"
#include "ptovec/oracle/rounding.hpp"

namespace ptovec::oracle {

// ---------------------------------------------------------------------------------------------
// B.FPATR-modes.asl: the PreQuantMode table. `code` is the 6-bit PreQuantMode (bits 5:0 of the
// argument; higher bits ignored), `relu` the 3-bit ReluMode.
// ---------------------------------------------------------------------------------------------

/// BundleFPATRPreQuantModeLegal(code), B.FPATR-modes.asl lines 5-15: code is one of 0-5, 12, 13,
/// 16-20, 23-28, 32-39.
bool BundleFPATRPreQuantModeLegal(unsigned code);
/// BundleFPATRReluModeLegal(code), lines 17-20: ReluMode 0..3 (0 none, 1 ReLU, 2 scalar LReLU,
/// 3 vector PReLU).
bool BundleFPATRReluModeLegal(unsigned code);
/// BundleFPATRModeUsesVectorParameter(code), lines 22-28: modes 2 4 12 18 20 23 28 33 36-39.
bool BundleFPATRModeUsesVectorParameter(unsigned code);
/// BundleFPATRModeUsesScalarParameter(code), lines 30-36: modes 3 5 13 17 19 24-27 32 34 35.
bool BundleFPATRModeUsesScalarParameter(unsigned code);
/// BundleFPATRModeUsesS32Accumulator(code), lines 38-44: modes 2-5 12 13 17-20 35 39.
bool BundleFPATRModeUsesS32Accumulator(unsigned code);
/// BundleFPATRModeUsesFP32Accumulator(code), lines 46-51: a legal non-zero mode without an S32
/// accumulator.
bool BundleFPATRModeUsesFP32Accumulator(unsigned code);
/// BundleFPATRAccumulatorTypeLegal(code, T), lines 53-66: mode 0 takes FP32, S32 or U32; the
/// other legal modes S32 or FP32 as the table says.
bool BundleFPATRAccumulatorTypeLegal(unsigned code, TileDataType accumulator_type);
/// BundleFPATRModeOffsetWidth(code), lines 68-78: the S5/S9/S17 intermediate width (bits): 5
/// for modes 17 18, 9 for 2 3 23 24, 17 for 19 20, else 0 (no intermediate, no offset).
int BundleFPATRModeOffsetWidth(unsigned code);
/// BundleFPATRModeIsShift(code), lines 80-83: the S32 -> S16 shift modes 12 and 13.
bool BundleFPATRModeIsShift(unsigned code);
/// BundleFPATRModeFixedRounding(code), lines 85-91: modes 1 16 25 26 28 32 33 34 36 37, whose
/// rounding is fixed (RHB for 25 and 28, RNE for the others: MatrixFPATREffectiveControl).
bool BundleFPATRModeFixedRounding(unsigned code);
/// BundleFPATRModeFinalSatProgrammable(code), lines 93-96: every non-zero mode but the shifts.
bool BundleFPATRModeFinalSatProgrammable(unsigned code);
/// BundleFPATRQuantParameterWordLegal(code, value), lines 101-134: the 64-bit quant parameter
/// word `value` for mode `code`. Shift modes: only bits 35:32 (shift - 1) may be set. Offset
/// modes (width 5/9/17): bits 12:0 zero, bits 31:13 an FP19ScaleLegal scale, bits 36:32 zero
/// and the offset field 41:37 / 45:37 / 53:37, nothing above. Other scalar/vector modes: the
/// FP19 scale in bits 31:13 and nothing else. Modes that read no parameter: false (the word is
/// not read; the op requires it to be zero).
bool BundleFPATRQuantParameterWordLegal(unsigned code, Word value);
/// BundleFPATRReluParameterWordLegal(value), lines 139-143: bits 63:19 zero and bits 18:0 +0 or
/// a positive normal FP19 (FP19ActivationParameterLegal).
bool BundleFPATRReluParameterWordLegal(Word value);
/// BundleFPATRDATRFieldsLegal(pre_quant, rounding_mode, saturating), lines 150-165: the B.DATR
/// RMode field (3 bits: 000 the default, RNE; see DATRRoundingModeField) and Sat allowed with
/// `pre_quant`. Mode 0 and the shift modes: RMode 000 and Sat off only; fixed-rounding modes:
/// RMode 000, either Sat; other legal modes: anything. An illegal mode: false.
bool BundleFPATRDATRFieldsLegal(unsigned pre_quant, unsigned rounding_mode, bool saturating);
/// BundleFPATROutputType(code), lines 167-181: the destination type of a legal mode (mode 0:
/// FP32; the op keeps the accumulator's own type for mode 0, reference/README.md). An illegal
/// code throws SeedAssertionFailure (ASL `unreachable`).
TileDataType BundleFPATROutputType(unsigned code);

/// The B.DATR RMode field (spec-notes section 2: 000 operation default (RNE), 001 RNE, 010 RTZ,
/// 011 RTM, 100 RTP, 101 RNA, 110 RTO, 111 RHB) that ptovec records for a control's mode: RNE is
/// recorded as the default 000 (a vector holds the control, not the field; the field 001 is the
/// same rounding), the others as their codes 2..7. Not a spec function: the bridge from
/// NumericExecutionControl to BundleFPATRDATRFieldsLegal's field.
unsigned DATRRoundingModeField(NumericRoundingMode mode);

// ---------------------------------------------------------------------------------------------
// matrix-postprocess.asl, unit PTO-ARCH-PROFILE-MATRIX-POSTPROCESS
// ---------------------------------------------------------------------------------------------

/// MatrixFloatingSignedZero(T, negative), matrix-postprocess.asl lines 11-23: +0 (0) or the -0
/// code of FP32 (0x80000000), FP16/BF16 (0x8000), E4M3 (0x80); HiF8 and others 0.
Word MatrixFloatingSignedZero(TileDataType data_type, bool negative);
/// MatrixFloatingInfinity(T, negative), lines 25-47: +/-Inf of FP32, FP16, BF16, HiF8; for any
/// other type (E4M3) the canonical quiet NaN (0x7F for E4M3).
Word MatrixFloatingInfinity(TileDataType data_type, bool negative);
/// MatrixFloatingLargestFinite(T, negative), lines 49-70: +/- the largest finite code of FP32,
/// FP16, BF16, E4M3, HiF8. Another type throws SeedAssertionFailure (`unreachable`).
Word MatrixFloatingLargestFinite(TileDataType data_type, bool negative);
/// MatrixEncodeReal(value, T, control), lines 72-80: ReferenceMatrixIntegerEncoding for an
/// integer T, else ReferenceMatrixFloatingEncoding (seed 000).
Encoded MatrixEncodeReal(const Real& value, TileDataType data_type,
                         NumericExecutionControl control);

/// MatrixPostQuantSpecialValue's result: whether the source is special (NaN or Inf of a floating
/// source), its result word and status.
struct MatrixSpecialResult {
  bool special = false;
  Word word = 0;
  Status status = 0;
};
/// MatrixPostQuantSpecialValue(value, source_type, destination_type, control), lines 82-134:
/// for a floating source, NaN gives (integer destination) Sat ? 0 : minimum with NV, or
/// (floating) Sat ? 0 : canonical quiet NaN with NV for a signaling NaN only; Inf gives
/// (integer) Sat ? the signed end : minimum with Sat ? OF|NX : NV, or (floating) Sat ? signed
/// largest finite with OF|NX : signed Inf (E4M3: the NaN 0x7F with OF|NX, else no status).
/// Anything else: not special.
MatrixSpecialResult MatrixPostQuantSpecialValue(Word value, TileDataType source_type,
                                                TileDataType destination_type,
                                                NumericExecutionControl control);
/// MatrixValueClassNegative(class), lines 136-143: negative normal, subnormal, infinity or zero.
bool MatrixValueClassNegative(NumericValueClass value_class);
/// MatrixSelectedMultiplier(source_negative, relu_mode, quant_scale, relu_param), lines
/// 145-155: the scale for a non-negative source or ReluMode 0; 0 for a negative source under
/// ReLU (1); FP19FiniteValue(relu_param[18:0]) for a negative source under LReLU/PReLU (2, 3).
Real MatrixSelectedMultiplier(bool source_negative, unsigned relu_mode, const Real& quant_scale,
                              Word relu_param);
/// MatrixActivationWithFlags(value, source_negative, relu_mode, quant_scale, relu_param), lines
/// 157-164: value times the selected multiplier, exactly; status 0.
std::pair<Real, Status> MatrixActivationWithFlags(const Real& value, bool source_negative,
                                                  unsigned relu_mode, const Real& quant_scale,
                                                  Word relu_param);
/// MatrixFPATREffectiveControl(pre_quant_mode, control), lines 166-178: RHB for modes 25 and 28,
/// RNE for the other fixed-rounding modes, else the control unchanged (Sat always kept).
NumericExecutionControl MatrixFPATREffectiveControl(unsigned pre_quant_mode,
                                                    NumericExecutionControl control);
/// MatrixPostQuantBaseWithFlags(value, pre_quant_mode, output_type, relu_mode, quant_param,
/// relu_param, control), lines 180-252: the pipeline under an already effective control.
/// `value` is the accumulator word (bits 31:0 are read), `output_type` the destination (for mode
/// 0 the accumulator's own type: FP32, S32 or U32). Result: the destination's code in the 64-bit
/// carrier (signed integers sign-extended, as the seed helpers return them) and the status.
/// Outside the legal domain the seed's assertions throw SeedAssertionFailure.
Encoded MatrixPostQuantBaseWithFlags(Word value, unsigned pre_quant_mode, TileDataType output_type,
                                     unsigned relu_mode, Word quant_param, Word relu_param,
                                     NumericExecutionControl control);
/// TileProfileMatrixPostProcessWithFlags(value, pre_quant_mode, relu_mode, group_n_code,
/// output_type, quant_param, relu_param, control), lines 254-265: the B.FPATR post-process of
/// one accumulator element: MatrixPostQuantBaseWithFlags under
/// MatrixFPATREffectiveControl(pre_quant_mode, control). group_n_code (4 bits) does not affect
/// the numeric result.
Encoded TileProfileMatrixPostProcessWithFlags(Word value, unsigned pre_quant_mode,
                                              unsigned relu_mode, unsigned group_n_code,
                                              TileDataType output_type, Word quant_param,
                                              Word relu_param, NumericExecutionControl control);

/// The fast form: exactly TileProfileMatrixPostProcessWithFlags (same word, same status, same
/// exceptions on the legal domain), computed on Dyadic values with the fast encoders of
/// fast_matrix_quantization.hpp (proven equal to the seed 000 encoders) instead of exact
/// rationals. tests/oracle/fast_matrix_postprocess_test.cpp checks the equality exhaustively on
/// small sub-spaces and by RapidCheck properties.
Encoded FastTileProfileMatrixPostProcessWithFlags(Word value, unsigned pre_quant_mode,
                                                  unsigned relu_mode, TileDataType output_type,
                                                  Word quant_param, Word relu_param,
                                                  NumericExecutionControl control);

/// The fast form of MatrixPostQuantBaseWithFlags (the pipeline under an already effective
/// control): FastTileProfileMatrixPostProcessWithFlags is this under
/// MatrixFPATREffectiveControl(pre_quant_mode, control). Exposed for fault models (the mutant
/// devices of tests/mutants) that take another control.
Encoded FastMatrixPostQuantBaseWithFlags(Word value, unsigned pre_quant_mode,
                                         TileDataType output_type, unsigned relu_mode,
                                         Word quant_param, Word relu_param,
                                         NumericExecutionControl control);

}  // namespace ptovec::oracle
