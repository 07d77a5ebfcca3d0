// Seed 000_93cee333e42f6460.txt, PTO-ARCH-PROFILE-MATRIX-QUANTIZATION: matrix post-process numeric
// helpers (FP19/offset parameter packing, S5/S9/S17 intermediate round-and-saturate, S32->S16
// shift, integer encoding, real -> FP32/FP16/BF16/E4M3/HiF8 encoding, FP16/BF16/E4M3/HiF8
// decoding). Each seed function is a literal transliteration of the seed function of the same
// name; the line ranges cite the seed's own line numbers.
//
// Also the two FP19 helpers the seed's parameters need (FP19FiniteValue, FP32ToFP19). They are
// NOT from a seed: they implement the FP19 row and the FP32ToFP19 paragraph of spec-notes
// section 4.
//
// ASL constrained-integer parameters (`integer {0,5,9,17}`, `integer {1..16}`, ...) are checked:
// a value outside the constraint throws SeedAssertionFailure, like a seed `assert`.
#pragma once

#include <utility>

#include "ptovec/oracle/formats.hpp"
#include "ptovec/oracle/rounding.hpp"

namespace ptovec::oracle {

// ---------------------------------------------------------------------------------------------
// FP19 (spec-notes section 4; not a seed)
// ---------------------------------------------------------------------------------------------

/// The smallest and largest positive normal FP19 codes (bits 18:0: exponent fields 1 and 254,
/// fractions 0 and 0x3FF): 2^-126 and (2 - 2^-10) * 2^127.
inline constexpr Word kFp19MinNormal = 0x00400;
inline constexpr Word kFp19MaxNormal = 0x3FBFF;

/// FP19FiniteValue(fp19), spec-notes section 4 (FP19 row), not a seed: the exact value of a
/// finite FP19 code. Input: bits 18:0 of `fp19` (higher bits ignored): bit 18 sign, bits 17:10
/// the 8-bit exponent (bias 127), bits 9:0 the 10-bit fraction f. Exponent 0 gives f * 2^-136;
/// otherwise (1 + f/1024) * 2^(e-127); a sign bit negates (-0 gives 0). An exponent field of 255
/// (Inf or NaN) throws SeedAssertionFailure.
Real FP19FiniteValue(Word fp19);

/// FP32ToFP19(fp32), spec-notes section 4, not a seed: the FP19 code (bits 18:0, upper carrier
/// bits zero) of the FP32 word in bits 31:0 of `fp32` (higher bits ignored). The 13 low fraction
/// bits are dropped with round-to-nearest-even on the raw bits (bits 31:13 plus a rounding
/// increment; a carry out of the fraction increments the exponent field, up to Inf). Any FP32 NaN
/// (quiet or signaling, either sign) becomes the quiet NaN 0x3FF00. FP32 +/-Inf gives
/// 0x3FC00/0x7FC00. No status.
Word FP32ToFP19(Word fp32);

// ---------------------------------------------------------------------------------------------
// Seed 000
// ---------------------------------------------------------------------------------------------

/// MatrixQuantParameter(fp19, offset, offset_width), seed 000 lines 11-23: the 64-bit B.FPATR
/// quantization parameter word. Bits 31:13 hold the FP19 scale (bits 18:0 of `fp19`); for
/// offset_width 5, 9 or 17 bits 41:37, 45:37 or 53:37 hold the low 5, 9 or 17 bits of `offset`;
/// width 0 stores no offset. All other bits are zero. offset_width outside {0,5,9,17} throws
/// SeedAssertionFailure.
Word MatrixQuantParameter(Word fp19, Word offset, int offset_width);

/// MatrixShiftParameter(code), seed 000 lines 25-30: the 64-bit parameter word with the 4-bit
/// shift code in bits 35:32, all other bits zero. `code` outside 0..15 throws
/// SeedAssertionFailure.
Word MatrixShiftParameter(int code);

/// MatrixQuantOffset(parameter, width), seed 000 lines 32-41: the signed offset of a parameter
/// word: 0 for width 0, else SInt of bits 41:37 (width 5, -16..15), 45:37 (width 9, -256..255)
/// or 53:37 (width 17, -65536..65535). width outside {0,5,9,17} throws SeedAssertionFailure.
Integer MatrixQuantOffset(Word parameter, int width);

/// MatrixMagnitudeRoundingMode(mode, negative), seed 000 lines 43-51: the mode to apply to the
/// magnitude of a value of the given sign: RTP and RTM swap for a negative value; every other
/// mode (and every mode for a non-negative value) is unchanged.
NumericRoundingMode MatrixMagnitudeRoundingMode(NumericRoundingMode mode, bool negative);

/// MatrixRoundMagnitude(value, mode, negative), seed 000 lines 53-66: rounds the magnitude
/// `value` (an exact non-negative real in practice) of a number whose sign is `negative` to an
/// integer. RHB on a negative number rounds ties down (toward the smaller magnitude); otherwise
/// FloatingToInteger(value, MatrixMagnitudeRoundingMode(mode, negative)).
Integer MatrixRoundMagnitude(const Real& value, NumericRoundingMode mode, bool negative);

/// MatrixRoundAndSaturateSigned(value, width, rounding_mode), seed 000 lines 68-91: rounds the
/// exact real `value` to an integer under `rounding_mode` and clamps it to the signed range of
/// `width` bits (5: -16..15, 9: -256..255, 17: -65536..65535). Result: the clamped integer and
/// status 0x14 (OF|NX) when clamped, else 0x10 (NX) when inexact, else 0. width outside
/// {5,9,17} throws SeedAssertionFailure.
std::pair<Integer, Status> MatrixRoundAndSaturateSigned(const Real& value, int width,
                                                        NumericRoundingMode rounding_mode);

/// MatrixShiftS32ToS16(value, shift), seed 000 lines 93-106: arithmetic right shift of the S32
/// in bits 31:0 of `value` (higher bits ignored) by `shift` (1..16), clamped to S16. Result: the
/// S16 sign-extended to the 64-bit carrier (0x7fff / 0xffffffffffff8000 when clamped) and status
/// 0x14 (OF|NX) when clamped, else 0 (shifted-out bits raise nothing). shift outside 1..16
/// throws SeedAssertionFailure.
Encoded MatrixShiftS32ToS16(Word value, int shift);

/// ReferenceMatrixIntegerEncoding(value, destination_type, control), seed 000 lines 108-131: the
/// exact real `value` rounded under control.rounding_mode to the integer type
/// `destination_type` (S4X2/U4X2 lane, S8..S64, U8..U64). Out of range: control.saturating
/// clamps, otherwise the low bits wrap; either way status 0x14 (OF|NX). In range: 0x10 (NX) when
/// inexact, else 0. Result word: NormalizeTileInteger of the selected integer, i.e. signed types
/// sign-extended to the 64-bit carrier (S8 -126 gives 0xffffffffffffff82), unsigned types
/// zero-extended. A non-integer destination type throws std::invalid_argument (from
/// TileIntegerMinimum).
Encoded ReferenceMatrixIntegerEncoding(const Real& value, TileDataType destination_type,
                                       NumericExecutionControl control);

/// MatrixQuantizedAffine(value, scale, offset, intermediate_width, output_type, control), seed
/// 000 lines 133-150: PreQuant. Width 0: ReferenceMatrixIntegerEncoding(value * scale + offset).
/// Width 5/9/17: MatrixRoundAndSaturateSigned(value * scale, width, mode), then
/// ReferenceMatrixIntegerEncoding(intermediate + offset); the two statuses are OR-ed. Result as
/// ReferenceMatrixIntegerEncoding. intermediate_width outside {0,5,9,17} throws
/// SeedAssertionFailure.
Encoded MatrixQuantizedAffine(const Real& value, const Real& scale, const Integer& offset,
                              int intermediate_width, TileDataType output_type,
                              NumericExecutionControl control);

/// ReferenceBinary16Encoding(value, destination_type, control), seed 000 lines 152-233: the FP16
/// or BF16 code (bits 15:0, upper carrier bits zero; bit 15 the sign) of the exact real `value`.
/// The magnitude is rounded (MatrixRoundMagnitude: RTP/RTM swap for negative values, RHB ties go
/// to the smaller magnitude for negative values). 0 gives +0 (0x0000) with no status. Overflow
/// before or after rounding gives sign | (Sat ? largest finite 0x7bff/0x7f7f : Inf 0x7c00/0x7f80)
/// with 0x14 (OF|NX) in every mode. A value below the smallest normal is rounded on the
/// subnormal grid and flagged 0x18 (UF|NX) when inexact (also when it rounds up to the smallest
/// normal); a negative value rounding to zero gives 0x8000. Otherwise 0x10 (NX) when inexact.
/// A destination other than FP16/BF16 throws SeedAssertionFailure.
Encoded ReferenceBinary16Encoding(const Real& value, TileDataType destination_type,
                                  NumericExecutionControl control);

/// ReferenceBinary16FiniteValue(value, data_type), seed 000 lines 235-261: the exact value of the
/// FP16 or BF16 code in bits 15:0 of `value` (higher bits ignored). FP16: exponent bits 14:10,
/// fraction 9:0; BF16: exponent 14:7, fraction 6:0; sign bit 15 (-0 gives 0). An all-ones
/// exponent (Inf/NaN) or a type other than FP16/BF16 throws SeedAssertionFailure.
Real ReferenceBinary16FiniteValue(Word value, TileDataType data_type);

/// ReferenceFP8FiniteValue(data_type, code), seed 000 lines 263-317: the value the seed assigns
/// to the 8-bit code in bits 7:0 of `code` (higher bits ignored) for E4M3 or HiF8. Note the seed
/// does not exclude NaN/Inf codes: E4M3 0x7F/0xFF decode as +/-480, HiF8 0x80 as 0 and
/// 0x6F/0xEF as +/-49152; callers skip those codes by value class. A type other than E4M3/HiF8
/// throws SeedAssertionFailure. Each of the 512 results is computed once by the seed's body and
/// kept (the reference stays valid for the whole program).
const Real& ReferenceFP8FiniteValue(TileDataType data_type, Word code);

/// ReferenceNearestFP8CandidateBetter(target, candidate, candidate_code, best, best_code, mode),
/// seed 000 lines 319-341: whether `candidate` (code 0..255) is nearer to `target` than `best`;
/// on an exact tie in distance: RNE prefers an even code over an odd one, RNA the larger
/// magnitude, RTO an odd code over an even one, every other mode (RHB) the larger value. Codes
/// outside 0..255 throw SeedAssertionFailure.
bool ReferenceNearestFP8CandidateBetter(const Real& target, const Real& candidate,
                                        int candidate_code, const Real& best, int best_code,
                                        NumericRoundingMode mode);

/// ReferenceFP8Encoding(value, destination_type, control), seed 000 lines 343-452: the E4M3 or
/// HiF8 code (bits 7:0, upper carrier bits zero) of the exact real `value`, by a search over all
/// 256 codes skipping NaN/Inf codes. 0 gives 0x00 with no status. |value| above the largest
/// finite (448 / 32768) overflows before rounding, in every mode, with 0x14 (OF|NX): Sat gives
/// +/-largest finite (E4M3 0x7e/0xfe, HiF8 0x6e/0xee), non-Sat gives 0x7f for E4M3 (either sign)
/// and +/-Inf 0x6f/0xef for HiF8. The first of equal candidates is kept (a zero result is 0x00).
/// RTO rounds toward zero, then, when inexact with an even code, moves to the nearest odd-coded
/// candidate away from zero. Status 0x18 (UF|NX) when inexact and |value| is below the smallest
/// normal (E4M3 2^-6, HiF8 2^-15), 0x10 (NX) when otherwise inexact, else 0. A destination
/// other than E4M3/HiF8 throws SeedAssertionFailure.
Encoded ReferenceFP8Encoding(const Real& value, TileDataType destination_type,
                             NumericExecutionControl control);

/// ReferenceMatrixFloatingEncoding(value, destination_type, control), seed 000 lines 454-472:
/// the final floating encoding of the exact real `value`. FP32: ReferenceFP32FiniteEncoding
/// (bits 31:0) and, with Sat and OF set, the Inf result replaced by sign | 0x7f7fffff (flags
/// unchanged). FP16/BF16: ReferenceBinary16Encoding. Any other type goes to ReferenceFP8Encoding,
/// which throws SeedAssertionFailure unless it is E4M3 or HiF8.
Encoded ReferenceMatrixFloatingEncoding(const Real& value, TileDataType destination_type,
                                        NumericExecutionControl control);

}  // namespace ptovec::oracle
