// Fast exact paths for bulk vector generation.
//
// Every function here named Fast<Name> computes exactly what the literal seed transliteration
// <Name> computes (same result word, same status, same SeedAssertionFailure on the seed's domain
// assertions), using only fixed-width integer arithmetic on dyadic rationals instead of the
// literal functions' exact-rational (Real) loops. "Proven" means: derived step by step from the
// seed function (the comments in fast.cpp give the argument, citing seed lines) and checked
// against the literal function by the tests in tests/oracle/fast_*_test.cpp, exhaustively over
// every 8- and 16-bit input x every rounding mode x both Sat values, and by RapidCheck
// properties over wider inputs.
//
// Integers only: no float or double (unsigned __int128 for the significands).
#pragma once

#include <cstddef>

#include <cstdint>
#include <optional>
#include <utility>

#include "ptovec/oracle/formats.hpp"
#include "ptovec/oracle/rounding.hpp"

namespace ptovec::oracle {

/// The significand type of a Dyadic: an unsigned 128-bit integer (a GCC/Clang extension).
__extension__ typedef unsigned __int128 DyadicSignificand;

/// The number of significant bits of m (0 for 0): the bit width of a 128-bit word.
inline int BitLength(DyadicSignificand m) {
  const auto high = static_cast<std::uint64_t>(m >> 64);
  if (high != 0) return 128 - __builtin_clzll(high);
  const auto low = static_cast<std::uint64_t>(m);
  return low == 0 ? 0 : 64 - __builtin_clzll(low);
}

/// An exact dyadic rational: (-1)^negative * significand * 2^exponent. Every finite code of every
/// floating format ptovec models, every integer up to 128 bits and every product of two of them
/// is a Dyadic. A zero significand is the value 0 whatever `negative` and `exponent` say.
struct Dyadic {
  bool negative = false;
  DyadicSignificand significand = 0;
  int exponent = 0;
};

/// The exact value of `d` as an ASL real (for tests and for callers of the literal functions).
Real ToReal(const Dyadic& d);

/// The Dyadic of a signed 64-bit integer.
Dyadic DyadicFromInteger(std::int64_t value);

/// The Dyadic of a finite code of floating type `type` (FP32, FP16, BF16, FP19, E4M3, HiF8, E8M0;
/// the low Format(type).width bits of `code`), from TileNumericFiniteDecomposition. A -0 code
/// gives 0. Throws std::domain_error for Inf, NaN or an integer type.
Dyadic DyadicFromFiniteCode(TileDataType type, Word code);

/// The Dyadic of an exact real, when it is one: the denominator a power of two and the odd part
/// of the numerator at most 128 bits. nullopt otherwise.
std::optional<Dyadic> DyadicFromReal(const Real& value);

/// The exact product a * b. Trailing zero bits of the significands are moved into the exponent
/// first; throws std::overflow_error if the product's significand still needs more than 128
/// bits (never for two significands of at most 64 bits each) or its exponent leaves +/-2^30.
Dyadic DyadicProduct(const Dyadic& a, const Dyadic& b);

/// FastFP32FiniteEncoding(value, mode) == ReferenceFP32FiniteEncoding(ToReal(value), mode)
/// (seed 003 lines 42-103): the FP32 word (bits 31:0) and status. Rounds the signed value;
/// |value| >= 2^128 or a carry past the largest finite gives +/-Inf with 0x14 in every mode;
/// below 2^-126 the value is rounded on the 2^-149 grid with 0x18 when inexact (a negative value
/// rounding to zero gives 0x80000000 with 0x18).
Encoded FastFP32FiniteEncoding(const Dyadic& value, NumericRoundingMode rounding_mode);

/// FastTileProfileQuantize(...) == TileProfileQuantize(...) (seed 003 lines 105-149), same
/// arguments, same result, same SeedAssertionFailure outside the seed's domain.
Encoded FastTileProfileQuantize(Word value, Word scale, Word zero_point,
                                TileDataType source_type, TileDataType destination_type,
                                NumericExecutionControl control);

/// FastTileProfileDequantize(...) == TileProfileDequantize(...) (seed 003 lines 151-172), same
/// arguments, same result, same SeedAssertionFailure outside the seed's domain.
Encoded FastTileProfileDequantize(Word value, Word scale, Word zero_point,
                                  TileDataType source_type, TileDataType destination_type,
                                  NumericExecutionControl control);

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
std::pair<std::int64_t, Status> FastMatrixRoundAndSaturateSigned(
    const Dyadic& value, int width, NumericRoundingMode rounding_mode);

/// FastMatrixQuantizedAffine(value, scale, offset, width, T, control) ==
/// MatrixQuantizedAffine(ToReal(value), ToReal(scale), Integer(offset), width, T, control)
/// (seed 000 lines 133-150). value * scale is formed exactly (DyadicProduct: throws
/// std::overflow_error beyond a 128-bit significand); any exponents, however large or small.
/// intermediate_width outside {0,5,9,17} throws SeedAssertionFailure.
Encoded FastMatrixQuantizedAffine(const Dyadic& value, const Dyadic& scale, std::int64_t offset,
                                  int intermediate_width, TileDataType output_type,
                                  NumericExecutionControl control);

}  // namespace ptovec::oracle
