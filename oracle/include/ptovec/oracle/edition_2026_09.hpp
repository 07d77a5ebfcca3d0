// Edition 2026-09 of the PTO specification: TCVT by value. The texts are
// /work/shared/spec-2026-09 (its README.md says which file comes from which commit; where they
// disagree, commit 01445483 and its 12-type common set are followed). docs/semantics.md, section
// "Edition 2026-09", lists every function with its file and commit, and the
// open points.
//
// The public entry is Convert2026_09: one TCVT element of edition 2026-09, or a refusal naming
// the rule when the pair or the mode is not legal. The functions of namespace edition_2026_09
// are literal transliterations of the ASL function of the same name (edition_2026_09_encoding.hpp
// has the encoders and decoders they call); comments in oracle/src/*_2026_09.cpp cite file,
// commit and lines. Where the ASL of 2026-09 calls a function whose text is the seeds' (0.58.3),
// the seeds' transliteration is called (ReferenceFloatToE8M0, ReferenceBinary16Encoding, ...):
// nothing is written twice. Where a 2026-09 function has a seeds' namesake (TileProfileConvert,
// HardwareTCVTTypePairSupported, ReferenceMatrixFloatingEncoding, ReferencePowerOfTwo), calls to
// the 2026-09 one are written edition_2026_09::Name (argument-dependent lookup would find both)
// and calls to the seeds' one oracle::Name.
#pragma once

#include <string>
#include <variant>

#include "ptovec/oracle/formats.hpp"
#include "ptovec/oracle/rounding.hpp"

namespace ptovec::oracle {

/// Why Convert2026_09 does not convert: `rule` is the ASL function (or "TileDataType") that
/// refuses, `message` one line naming the pair or mode and what is accepted.
struct Refusal2026_09 {
  std::string rule;
  std::string message;
  friend bool operator==(const Refusal2026_09&, const Refusal2026_09&) = default;
};

/// An Encoded {word, status} or a Refusal2026_09.
using Conversion2026_09 = std::variant<Encoded, Refusal2026_09>;

/// TCVT of one element in edition 2026-09: `value` (the source word in its carrier) of
/// `source_type` converted to `destination_type` under the resolved `control` (the caller
/// resolves RMode 0 by edition_2026_09::InstructionContractDefaultRounding_TCVT). Refused (rule
/// named) when the pair is not legal (HardwareTCVTTypePairSupported), when the mode is not
/// (HardwareTCVTRoundingModeSupported: E6M2 and RCPE6M2 pairs take RNE and RNA only), or when a
/// type is not a tile data type (FP19). Otherwise edition_2026_09::TCVTConvertElement.
Conversion2026_09 Convert2026_09(TileDataType source_type, TileDataType destination_type,
                                 Word value, NumericExecutionControl control);

namespace edition_2026_09 {

// ---------------------------------------------------------------------------------------------
// e8m0-conversion.asl (01445483): legality. ReferenceE8M0HighestSetBit, ReferenceE8M0RoundExponent
// and ReferenceFloatToE8M0 are the seeds' text word for word: e8m0_conversion.hpp's.
// ---------------------------------------------------------------------------------------------

/// HardwareTCVTTypePairSupported(source, destination), e8m0-conversion.asl lines 26-84: never
/// HiF4X2, never to RCPE6M2; RCPE6M2 -> FP16/BF16; E8M0 -> FP16/BF16/FP32; E6M2 <-> FP16/BF16;
/// E2M1X2/E1M2X2 <-> FP32/FP16/BF16 (one side packed, the other not); to E8M0 from FP16, BF16,
/// FP32; every other pair TRUE.
bool HardwareTCVTTypePairSupported(TileDataType source_type, TileDataType destination_type);

/// HardwareTCVTRoundingModeSupported(source, destination, mode), lines 86-97: a pair with E6M2
/// (either side) or an RCPE6M2 source takes RNE and RNA only; every other pair every mode.
bool HardwareTCVTRoundingModeSupported(TileDataType source_type, TileDataType destination_type,
                                       NumericRoundingMode mode);

/// InstructionContractDefaultRounding_TCVT(source, destination), TCVT.asl (279744b) lines 64-73:
/// the mode RMode 0 selects: RTZ from a floating to an integer type, RNE otherwise.
NumericRoundingMode InstructionContractDefaultRounding_TCVT(TileDataType source_type,
                                                            TileDataType destination_type);

// ---------------------------------------------------------------------------------------------
// tile/model/numeric/formats.asl (01445483): the conversion dispatch.
// ---------------------------------------------------------------------------------------------

/// TileConvertIntegerSaturating(value, source, destination), formats.asl lines 57-81: the
/// source integer clamped to the destination's range (a negative signed source to an unsigned
/// destination gives 0), normalized. Both types must be integer types (SeedAssertionFailure).
Word TileConvertIntegerSaturating(Word value, TileDataType source_type,
                                  TileDataType destination_type);

/// TileConvertIntegerValue(value, source, destination, saturating), lines 83-95: saturating by
/// TileConvertIntegerSaturating, else the source normalized, then normalized to the destination
/// (wraps).
Word TileConvertIntegerValue(Word value, TileDataType source_type, TileDataType destination_type,
                             bool saturating);

/// TileProfileConvert(value, source, destination, control), lines 97-128 (edition 2026-09): the
/// packed FP4, E6M2 and RCPE6M2 pairs by ReferenceTCVTConvert; both types in the common set by
/// ReferenceCommonConvert; to E8M0 by ReferenceFloatToE8M0; to another integer type the raw word
/// normalized, to another floating type the raw word, status 0.
Encoded TileProfileConvert(Word value, TileDataType source_type, TileDataType destination_type,
                           NumericExecutionControl control);

/// TileConvertValue(value, source, destination, control), lines 130-144: TileProfileConvert
/// when either type is floating, else TileConvertIntegerValue with control.saturating, status 0.
Encoded TileConvertValue(Word value, TileDataType source_type, TileDataType destination_type,
                         NumericExecutionControl control);

/// The conversion of one element by TCVT, lines 185-204 (the body of TCVT's loop, with
/// source_operation_type and result.data_type as parameters): E8M0, packed FP4, E6M2 and
/// RCPE6M2 pairs that HardwareTCVTTypePairSupported accepts by ReferenceTCVTConvert, every other
/// pair by TileConvertValue. It does not check legality: Convert2026_09 does.
Encoded TCVTConvertElement(Word source_value, TileDataType source_operation_type,
                           TileDataType destination_type, NumericExecutionControl control);

// ---------------------------------------------------------------------------------------------
// tcvt-conversion.asl (01445483).
// ---------------------------------------------------------------------------------------------

/// ReferenceTCVTOrdinaryFloatingSourceSupported(T), lines 3-9: FP32, FP16 or BF16.
bool ReferenceTCVTOrdinaryFloatingSourceSupported(TileDataType data_type);

/// ReferenceTCVTOrdinaryFloatingFiniteValue(value, T), lines 11-19: the exact value of a finite
/// FP32 (bits 31:0), FP16 or BF16 (bits 15:0) word.
Real ReferenceTCVTOrdinaryFloatingFiniteValue(Word value, TileDataType data_type);

/// ReferenceTCVTConvertPacked4(value, source, destination, control), lines 21-53: an FP32,
/// FP16 or BF16 word to one E2M1X2 or E1M2X2 lane: NaN 0 (NV when signaling), +/-Inf the lane
/// code 6/14 (E2M1X2) or 7/15 (E1M2X2) with OF|NX, +/-0 the lane's +/-0, else
/// ReferencePacked4Encoding of the value.
Encoded ReferenceTCVTConvertPacked4(Word value, TileDataType source_type,
                                    TileDataType destination_type, NumericExecutionControl control);

/// ReferenceTCVTConvertFromPacked4(value, source, destination, control), lines 55-71: one lane
/// (bits 3:0) of E2M1X2 or E1M2X2 to FP32/FP16/BF16: +/-0 the destination's +/-0, else
/// ReferenceMatrixFloatingEncoding of the lane's value.
Encoded ReferenceTCVTConvertFromPacked4(Word value, TileDataType source_type,
                                        TileDataType destination_type,
                                        NumericExecutionControl control);

/// ReferenceTCVTConvertToE6M2(value, source, control), lines 73-104: FP32/FP16/BF16 to E6M2:
/// NaN 0xFF (NV when signaling), +/-0 code 0x00 with UF|NX, negative (and -Inf) 0xFF with NV,
/// +Inf Sat ? 0xFE : 0xFF with OF|NX, else ReferenceE6M2Encoding.
Encoded ReferenceTCVTConvertToE6M2(Word value, TileDataType source_type,
                                   NumericExecutionControl control);

/// ReferenceTCVTConvertFromE6M2(value, destination, control), lines 106-121: 0xFF the
/// destination's canonical NaN (no status), else ReferenceMatrixFloatingEncoding of its value.
Encoded ReferenceTCVTConvertFromE6M2(Word value, TileDataType destination_type,
                                     NumericExecutionControl control);

/// ReferenceTCVTConvertFromRCPE6M2(value, destination, control), lines 123-138: as
/// ReferenceTCVTConvertFromE6M2 with the reciprocal value (one rounding of the exact rational).
Encoded ReferenceTCVTConvertFromRCPE6M2(Word value, TileDataType destination_type,
                                        NumericExecutionControl control);

/// ReferenceTCVTConvertFromE8M0(value, destination, control), lines 140-157: E8M0 (bits 7:0) to
/// FP16, BF16 or FP32: 0xFF the canonical NaN without NV, code c the encoding of 2^(c-127).
Encoded ReferenceTCVTConvertFromE8M0(Word value, TileDataType destination_type,
                                     NumericExecutionControl control);

/// ReferenceTCVTConvert(value, source, destination, control), lines 159-186: the dispatch of the
/// above; any other pair by ReferenceCommonConvert.
Encoded ReferenceTCVTConvert(Word value, TileDataType source_type, TileDataType destination_type,
                             NumericExecutionControl control);

}  // namespace edition_2026_09
}  // namespace ptovec::oracle
