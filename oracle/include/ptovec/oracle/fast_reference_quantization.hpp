// Fast exact forms of seed 003_33e68b274ac7ab62.txt (PTO-ARCH-PROFILE-REFERENCE-QUANTIZATION):
// the FP32 encoder, TQUANT and TDEQUANT. Each Fast<Name> computes exactly what the literal
// <Name> of reference_quantization.hpp computes (same word, same status, same
// SeedAssertionFailure on the seed's domain assertions) with fixed-width integer arithmetic on
// Dyadic values; fast_reference_quantization.cpp gives the argument beside the code, citing seed
// lines, and tests/oracle/fast_*_test.cpp check it (exhaustively where the inputs are 8 or 16
// bits, by RapidCheck properties over FP32 words).
#pragma once

#include "ptovec/oracle/dyadic.hpp"
#include "ptovec/oracle/formats.hpp"
#include "ptovec/oracle/rounding.hpp"

namespace ptovec::oracle {

/// FastFP32FiniteEncoding(value, mode) == ReferenceFP32FiniteEncoding(ToReal(value), mode)
/// (seed 003 lines 42-103): the FP32 word (bits 31:0) and status. Rounds the signed value;
/// |value| >= 2^128 or a carry past the largest finite gives +/-Inf with 0x14 in every mode;
/// below 2^-126 the value is rounded on the 2^-149 grid with 0x18 when inexact (a negative value
/// rounding to zero gives 0x80000000 with 0x18).
Encoded FastFP32FiniteEncoding(const Dyadic& value, NumericRoundingMode rounding_mode);

/// FastTileProfileQuantize(...) == TileProfileQuantize(...) (seed 003 lines 105-149), same
/// arguments, same result, same SeedAssertionFailure outside the seed's domain.
Encoded FastTileProfileQuantize(Word value, Word scale, Word zero_point, TileDataType source_type,
                                TileDataType destination_type, NumericExecutionControl control);

/// FastTileProfileDequantize(...) == TileProfileDequantize(...) (seed 003 lines 151-172), same
/// arguments, same result, same SeedAssertionFailure outside the seed's domain.
Encoded FastTileProfileDequantize(Word value, Word scale, Word zero_point, TileDataType source_type,
                                  TileDataType destination_type, NumericExecutionControl control);

}  // namespace ptovec::oracle
