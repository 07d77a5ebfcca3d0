// Seed 003_33e68b274ac7ab62.txt, PTO-ARCH-PROFILE-REFERENCE-QUANTIZATION: exact FP32 decode and
// encode under every mode, TQUANT and TDEQUANT. Each function is a literal transliteration of the
// seed function of the same name; the line ranges cite the seed's own line numbers.
#pragma once

#include "ptovec/oracle/formats.hpp"
#include "ptovec/oracle/rounding.hpp"

namespace ptovec::oracle {

/// ReferencePowerOfTwo(exponent), seed 003 lines 2-15: 2^exponent as an exact real, by repeated
/// doubling or halving. Domain -149..127; outside it throws SeedAssertionFailure. Each of the 277
/// results is computed once by the seed's loop and kept (the reference stays valid for the whole
/// program).
const Real& ReferencePowerOfTwo(int exponent);

/// ReferenceFP32FiniteValue(value), seed 003 lines 17-32: the exact value of a finite FP32 word
/// (bits 31:0 of `value`; higher bits ignored). An exponent field of 255 (Inf/NaN) throws
/// SeedAssertionFailure.
Real ReferenceFP32FiniteValue(Word value);

/// ReferenceIntegerValue(value, data_type), seed 003 lines 34-40: the integer denoted by the
/// normalized low bits of `value` for integer type `data_type` (signed or unsigned).
Integer ReferenceIntegerValue(Word value, TileDataType data_type);

/// ReferenceFP32FiniteEncoding(value, rounding_mode), seed 003 lines 42-103: the FP32 word
/// (bits 31:0, upper carrier bits zero) of an exact real under `rounding_mode`, and its status.
/// |value| >= 2^128 or a carry past the largest finite gives +/-Inf with OF|NX in every mode;
/// tiny-before-rounding inexact results give UF|NX; 0 gives +0 with no status.
Encoded ReferenceFP32FiniteEncoding(const Real& value, NumericRoundingMode rounding_mode);

/// TileProfileQuantize (TQUANT), seed 003 lines 105-149: FP32 `value` (bits 31:0) times FP32
/// `scale` plus the integer `zero_point` of `destination_type`, rounded to S8 or U8. Result: the
/// normalized destination word (sign-extended for S8) and status. Throws SeedAssertionFailure
/// when source is not FP32, destination not S8/U8, or scale is NaN, infinite or zero.
Encoded TileProfileQuantize(Word value, Word scale, Word zero_point, TileDataType source_type,
                            TileDataType destination_type, NumericExecutionControl control);

/// TileProfileDequantize (TDEQUANT), seed 003 lines 151-172: (value - zero_point) * scale of an
/// S8 or U8 `value` and `zero_point` with FP32 `scale`, encoded by ReferenceFP32FiniteEncoding
/// (Sat is ignored). Throws SeedAssertionFailure on the seed's domain assertions.
Encoded TileProfileDequantize(Word value, Word scale, Word zero_point, TileDataType source_type,
                              TileDataType destination_type, NumericExecutionControl control);

}  // namespace ptovec::oracle
