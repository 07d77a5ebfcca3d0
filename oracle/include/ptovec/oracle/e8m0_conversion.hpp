// Seed 001_c13013f58bb35bbc.txt, PTO-ARCH-PROFILE-E8M0-CONVERSION: TCVT to E8M0 and the reference
// TileProfileConvert. Each function is a literal transliteration of the seed function of the same
// name; the line ranges cite the seed's own line numbers.
#pragma once

#include <utility>

#include "ptovec/oracle/formats.hpp"
#include "ptovec/oracle/rounding.hpp"

namespace ptovec::oracle {

/// HardwareTCVTE8M0SourceTypeSupported(source_type), seed 001 lines 14-20: FP16, BF16 or FP32.
bool HardwareTCVTE8M0SourceTypeSupported(TileDataType source_type);

/// HardwareTCVTTypePairSupported(source, destination), seed 001 lines 22-30: to E8M0 only from
/// the supported sources; every other pair is accepted.
bool HardwareTCVTTypePairSupported(TileDataType source_type, TileDataType destination_type);

/// ReferenceE8M0HighestSetBit(significand), seed 001 lines 32-43: index 0..63 of the highest set
/// bit. A zero significand throws SeedAssertionFailure.
int ReferenceE8M0HighestSetBit(Word significand);

/// ReferenceE8M0RoundExponent(significand, exponent, mode), seed 001 lines 45-101: the base-2
/// exponent (-149..128) that significand * 2^exponent rounds to under `mode`, and whether the
/// value was an exact power of two. Throws SeedAssertionFailure outside the seed's domain
/// (floor exponent outside -149..127).
std::pair<int, bool> ReferenceE8M0RoundExponent(Word significand, int exponent,
                                                NumericRoundingMode mode);

/// ReferenceFloatToE8M0(value, source_type, control), seed 001 lines 103-152: the E8M0 code
/// (bits 7:0) of an FP16 (bits 15:0), BF16 (bits 15:0) or FP32 (bits 31:0) word, and status.
/// Throws SeedAssertionFailure for any other source type.
Encoded ReferenceFloatToE8M0(Word value, TileDataType source_type, NumericExecutionControl control);

/// TileProfileConvert(value, source, destination, control), seed 001 lines 154-168: to E8M0 by
/// ReferenceFloatToE8M0; to an integer type the raw word normalized (NormalizeTileInteger), no
/// status; to any other floating type the raw word unchanged, no status.
Encoded TileProfileConvert(Word value, TileDataType source_type, TileDataType destination_type,
                           NumericExecutionControl control);

}  // namespace ptovec::oracle
