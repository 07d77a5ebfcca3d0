// Edition 2026-09: the decoders, encoders and common-conversion helpers that its TCVT calls
// (edition_2026_09.hpp has the TCVT dispatch and the public Convert2026_09). Each function is a
// literal transliteration of the ASL function of the same name in /work/shared/spec-2026-09;
// comments in oracle/src/*_2026_09.cpp cite file, commit and lines.
//
// Functions whose 2026-09 text is the seeds' are not repeated here: the 2026-09 code calls the
// seeds' transliterations (matrix_quantization.hpp: ReferenceBinary16Encoding,
// ReferenceBinary16FiniteValue, ReferenceFP8FiniteValue, ReferenceFP8Encoding,
// ReferenceMatrixIntegerEncoding, MatrixRoundMagnitude; reference_quantization.hpp:
// ReferenceFP32FiniteValue, ReferenceFP32FiniteEncoding, ReferenceIntegerValue).
// ReferencePowerOfTwo and ReferenceMatrixFloatingEncoding changed and are written here again.
#pragma once

#include <tuple>
#include <utility>

#include "ptovec/oracle/formats.hpp"
#include "ptovec/oracle/rounding.hpp"

namespace ptovec::oracle::edition_2026_09 {

// ---------------------------------------------------------------------------------------------
// The definitions the texts call but do not contain (docs/semantics.md, "Edition 2026-09").
// ---------------------------------------------------------------------------------------------

/// TileDataTypeIsInteger(T): the integer tile types (S64..S4X2, U64..U4X2).
bool TileDataTypeIsInteger(TileDataType data_type);

/// FP19PowerOfTwo(exponent): called by E6M2FiniteValue (e6m2.asl line 46), defined in none of
/// the texts; taken as the exact 2^exponent (its domain there is -48..15).
Real FP19PowerOfTwo(int exponent);

/// TileNumericCanonicalNaN(T), mx-formats.asl (no commit) lines 210-227: (available, the
/// canonical quiet NaN). FP64 0x7FF8000000000000, FP32 0x7FC00000, FP16 0x7E00, BF16 0x7FC0,
/// HiF8 0x80, E4M3 0x7F, E8M0 / E6M2 / RCPE6M2 0xFF (the per-format constants other than E6M2's
/// and RCPE6M2's are not in the texts: seeds/reference/README.md's, FP64's by the same rule).
/// Types without a row in the format table: unavailable.
std::pair<bool, Word> TileNumericCanonicalNaN(TileDataType data_type);

/// HardwareNumericSignedZeroEncodings(T), mx-formats.asl lines 257-302: (available, +0, -0):
/// the sign bit alone for FP64, FP32, FP16, BF16, E4M3, E2M1X2 and E1M2X2 (only the last two's
/// constants are in the texts); unavailable for the others here.
std::tuple<bool, Word, Word> HardwareNumericSignedZeroEncodings(TileDataType data_type);

// ---------------------------------------------------------------------------------------------
// Format values (asl/arch/data-types/formats).
// ---------------------------------------------------------------------------------------------

/// E6M2FiniteValue(value), e6m2.asl (c72ff36) lines 41-47: (4 + value[1:0])/4 *
/// 2^(value[7:2] - 48). value[7:0] == 0xFF throws SeedAssertionFailure. Each of the 255 results
/// is computed once by the ASL's body and kept.
const Real& E6M2FiniteValue(Word value);

/// RCPE6M2FiniteValue(value), rcpe6m2.asl (f372ad9) lines 29-33: 1 / E6M2FiniteValue(value).
Real RCPE6M2FiniteValue(Word value);

// ---------------------------------------------------------------------------------------------
// asl/scalar/model/fsu/reference-quantization.asl (279744b).
// ---------------------------------------------------------------------------------------------

/// ReferencePowerOfTwo(exponent), lines 2-16: 2^exponent by binary exponentiation, domain
/// -1074..1023 (the seeds' version: -149..127 by repeated doubling). Each result is computed
/// once by the ASL's loop and kept. Outside the domain: SeedAssertionFailure.
const Real& ReferencePowerOfTwo(int exponent);

/// ReferenceFP64FiniteValue(value), lines 35-52: the exact value of a finite FP64 word. An
/// exponent field of 2047 throws SeedAssertionFailure.
Real ReferenceFP64FiniteValue(Word value);

/// ReferenceFP64FiniteEncoding(value, mode), lines 121-179: the FP64 word of an exact real:
/// ReferenceFP32FiniteEncoding's rules at binary64's widths (Inf with OF|NX on overflow in
/// every mode, UF|NX when tiny and inexact, 0 gives +0).
Encoded ReferenceFP64FiniteEncoding(const Real& value, NumericRoundingMode rounding_mode);

// ---------------------------------------------------------------------------------------------
// asl/tile/model/execution/matrix-quantization.asl (279744b).
// ---------------------------------------------------------------------------------------------

/// ReferenceMatrixFloatingEncoding(value, destination, control), lines 454-489: the seeds'
/// version (FP32 with Sat, FP16/BF16, else FP8) plus FP64 (with Sat: sign | 0x7FEFFFFFFFFFFFFF
/// on overflow), E2M1X2/E1M2X2 (ReferencePacked4Encoding) and E6M2 (ReferenceE6M2Encoding).
Encoded ReferenceMatrixFloatingEncoding(const Real& value, TileDataType destination_type,
                                        NumericExecutionControl control);

// ---------------------------------------------------------------------------------------------
// asl/tile/model/numeric/packed-conversion.asl (01445483).
// ---------------------------------------------------------------------------------------------

/// ReferencePacked4FiniteValue(T, code), lines 3-27: lane code 0..15 of E2M1X2 (0 0.5 1 1.5 2 3
/// 4 6) or E1M2X2 (code/4), codes 8..15 negated. Other types or codes: SeedAssertionFailure.
/// Each of the 32 results is computed once by the ASL's body and kept.
const Real& ReferencePacked4FiniteValue(TileDataType data_type, int code);

/// ReferencePacked4CandidateBetter(target, candidate, code, best, code, mode), lines 29-55:
/// nearer wins; equally near: two zeros for a negative target prefer -0 (code >= 8), RNE an even
/// code, RNA the larger magnitude, RTO an odd code, other modes the larger value.
bool ReferencePacked4CandidateBetter(const Real& target, const Real& candidate, int candidate_code,
                                     const Real& best, int best_code, NumericRoundingMode mode);

/// ReferencePacked4Encoding(value, destination, control), lines 57-141: the lane code (0..15) of
/// an exact real by a search over the 16 codes. |value| above the largest (6, 1.75) gives code 6
/// / 14 (E2M1X2: 4.0, not 6.0) or 7 / 15 (E1M2X2) with OF|NX in every mode, Sat or not. UF|NX
/// when inexact and, for E2M1X2, the result's magnitude is below 1 (after rounding), for E1M2X2
/// the value's magnitude is below 0.25 (before rounding); else NX when inexact.
Encoded ReferencePacked4Encoding(const Real& value, TileDataType destination_type,
                                 NumericExecutionControl control);

/// ReferenceE6M2CandidateBetter(target, candidate, code, best, code, mode), lines 143-162: nearer
/// wins; equally near: RNE an even code, every other mode the larger value.
bool ReferenceE6M2CandidateBetter(const Real& target, const Real& candidate, int candidate_code,
                                  const Real& best, int best_code, NumericRoundingMode mode);

/// ReferenceE6M2Encoding(value, control), lines 164-201: the E6M2 code of an exact real >= 0 by
/// a nearest search over codes 0..254 (the mode only breaks ties). 0 gives code 0x00 (2^-48)
/// with no status; above 1.5 * 2^15: Sat ? 0xFE : 0xFF with OF|NX; UF|NX when inexact and the
/// value is below 2^-48; else NX when inexact. A negative value: SeedAssertionFailure.
Encoded ReferenceE6M2Encoding(const Real& value, NumericExecutionControl control);

// ---------------------------------------------------------------------------------------------
// asl/tile/model/numeric/reference-conversion.asl (01445483): PTO-COMMON-CONVERSION-001 over the
// 12-type set FP64 FP32 FP16 E4M3 S64 S32 S16 S8 U64 U32 U16 U8.
// ---------------------------------------------------------------------------------------------

/// ReferenceCommonConversionTypeSupported(T), lines 12-27: T is one of the 12 types.
bool ReferenceCommonConversionTypeSupported(TileDataType data_type);

/// ReferenceCommonFloatingFiniteValue(value, T), lines 29-42: the exact value of a finite FP64,
/// FP32, FP16, BF16 or E4M3 word. Other types: SeedAssertionFailure (`unreachable`).
Real ReferenceCommonFloatingFiniteValue(Word value, TileDataType data_type);

/// ReferenceCommonFloatingEndpoint(T, negative), lines 44-63: the largest finite of FP64, FP32,
/// FP16 or E4M3 with the sign.
Word ReferenceCommonFloatingEndpoint(TileDataType data_type, bool negative);

/// ReferenceCommonFloatingInfinity(T, negative), lines 65-82: (has infinity, the infinity) of
/// FP64, FP32, FP16; E4M3 has none.
std::pair<bool, Word> ReferenceCommonFloatingInfinity(TileDataType data_type, bool negative);

/// The result of ReferenceCommonConvertSpecial: (handled, word, status).
struct CommonSpecial {
  bool handled = false;
  Word word = 0;
  Status status = 0;
  friend bool operator==(const CommonSpecial&, const CommonSpecial&) = default;
};

/// ReferenceCommonConvertSpecial(value, source, destination, control), lines 84-140: NaN: the
/// canonical NaN (NV when signaling) or, to an integer, 0 with NV; Inf: the infinity, or Sat ?
/// endpoint : canonical NaN with OF|NX (E4M3), or to an integer its minimum/maximum with NV;
/// +/-0 to a floating type: the signed zero. Anything else is not handled.
CommonSpecial ReferenceCommonConvertSpecial(Word value, TileDataType source_type,
                                            TileDataType destination_type,
                                            NumericExecutionControl control);

/// ReferenceCommonConvert(value, source, destination, control), lines 142-176: floating
/// sources: the specials, else the exact value encoded by ReferenceMatrixFloatingEncoding or
/// ReferenceMatrixIntegerEncoding; integer sources: to floating by value, to integer by
/// TileConvertIntegerValue with control.saturating. Both types must be in the 12-type set.
Encoded ReferenceCommonConvert(Word value, TileDataType source_type, TileDataType destination_type,
                               NumericExecutionControl control);

}  // namespace ptovec::oracle::edition_2026_09
