// Fast exact forms of seed 000_93cee333e42f6460.txt (PTO-ARCH-PROFILE-MATRIX-QUANTIZATION): the
// FP16/BF16 and FP8 encoders, the floating and integer final encodings, the S5/S9/S17
// round-and-saturate and PreQuant. Each Fast<Name> computes exactly what the literal <Name> of
// matrix_quantization.hpp computes (same word, same status, same SeedAssertionFailure on the
// seed's domain assertions) with fixed-width integer arithmetic on Dyadic values;
// fast_matrix_quantization.cpp gives the argument beside the code, citing seed lines, and
// tests/oracle/fast_*_test.cpp check it exhaustively over every 8- and 16-bit input x every
// rounding mode x both Sat values, and by RapidCheck properties over wider inputs.
#pragma once

#include <cstddef>
#include <cstdint>
#include <utility>

#include "ptovec/oracle/dyadic.hpp"
#include "ptovec/oracle/formats.hpp"
#include "ptovec/oracle/rounding.hpp"

namespace ptovec::oracle {

/// FastBinary16Encoding(value, T, control) == ReferenceBinary16Encoding(ToReal(value), T, control)
/// (seed 000 lines 152-233): FP16 or BF16 code (bits 15:0) and status. Throws
/// SeedAssertionFailure for another destination type.
Encoded FastBinary16Encoding(const Dyadic& value, TileDataType destination_type,
                             NumericExecutionControl control);

/// out[k] = FastBinary16Encoding(value, T, controls[k]) for k < n: the one value under several
/// controls, split once (FastBinary16Encoding is this with n = 1).
void FastBinary16EncodingControls(const Dyadic& value, TileDataType destination_type,
                                  const NumericExecutionControl* controls, std::size_t n,
                                  Encoded* out);

/// FastFP8Encoding(value, T, control) == ReferenceFP8Encoding(ToReal(value), T, control)
/// (seed 000 lines 343-452): E4M3 or HiF8 code (bits 7:0) and status, by binary search in a
/// sorted table of the finite candidates instead of the seed's scan of all 256 codes. Throws
/// SeedAssertionFailure for another destination type.
Encoded FastFP8Encoding(const Dyadic& value, TileDataType destination_type,
                        NumericExecutionControl control);

/// FastMatrixFloatingEncoding(value, T, control) ==
/// ReferenceMatrixFloatingEncoding(ToReal(value), T, control) (seed 000 lines 454-472).
Encoded FastMatrixFloatingEncoding(const Dyadic& value, TileDataType destination_type,
                                   NumericExecutionControl control);

/// FastMatrixIntegerEncoding(value, T, control) ==
/// ReferenceMatrixIntegerEncoding(ToReal(value), T, control) (seed 000 lines 108-131), for every
/// integer type T (S4X2/U4X2 lane .. S64/U64). Throws std::invalid_argument for a non-integer T.
Encoded FastMatrixIntegerEncoding(const Dyadic& value, TileDataType destination_type,
                                  NumericExecutionControl control);

/// FastMatrixRoundAndSaturateSigned(value, width, mode) ==
/// MatrixRoundAndSaturateSigned(ToReal(value), width, mode) (seed 000 lines 68-91): the clamped
/// integer and status. width outside {5,9,17} throws SeedAssertionFailure.
std::pair<std::int64_t, Status> FastMatrixRoundAndSaturateSigned(const Dyadic& value, int width,
                                                                 NumericRoundingMode rounding_mode);

/// FastMatrixQuantizedAffine(value, scale, offset, width, T, control) ==
/// MatrixQuantizedAffine(ToReal(value), ToReal(scale), Integer(offset), width, T, control)
/// (seed 000 lines 133-150). value * scale is formed exactly (DyadicProduct: throws
/// std::overflow_error beyond a 128-bit significand); any exponents, however large or small.
/// intermediate_width outside {0,5,9,17} throws SeedAssertionFailure.
Encoded FastMatrixQuantizedAffine(const Dyadic& value, const Dyadic& scale, std::int64_t offset,
                                  int intermediate_width, TileDataType output_type,
                                  NumericExecutionControl control);

}  // namespace ptovec::oracle
