// Fast exact paths for bulk vector generation: the umbrella header of the fast forms.
//
// Every function named Fast<Name> computes exactly what the literal seed transliteration <Name>
// computes (same result word, same status, same SeedAssertionFailure on the seed's domain
// assertions), using only fixed-width integer arithmetic on dyadic rationals instead of the
// literal functions' exact-rational (Real) loops. "Proven" means: derived step by step from the
// seed function (the comments in the .cpp files give the argument, citing seed lines) and
// checked against the literal function by the tests in tests/oracle/fast_*_test.cpp,
// exhaustively over every 8- and 16-bit input x every rounding mode x both Sat values, and by
// RapidCheck properties over wider inputs.
//
// One concern per header:
//   dyadic.hpp                      the Dyadic values (conversions, exact product);
//   fast_reference_quantization.hpp seed 003: FastFP32FiniteEncoding, FastTileProfileQuantize,
//                                   FastTileProfileDequantize;
//   fast_matrix_quantization.hpp    seed 000: FastBinary16Encoding, FastFP8Encoding,
//                                   FastMatrixFloating/IntegerEncoding,
//                                   FastMatrixRoundAndSaturateSigned, FastMatrixQuantizedAffine;
//   fast_e8m0_conversion.hpp        seed 001: FastFloatToE8M0, FastTileProfileConvert;
//   fast_edition_2026_09.hpp        edition 2026-09's TCVT: FastConvert2026_09 and its encoders.
// The rounding core they share is private (oracle/src/rounding_core.hpp).
//
// Integers only: no float or double (unsigned __int128 for the significands).
#pragma once

#include "ptovec/oracle/dyadic.hpp"
#include "ptovec/oracle/fast_e8m0_conversion.hpp"
#include "ptovec/oracle/fast_edition_2026_09.hpp"
#include "ptovec/oracle/fast_matrix_quantization.hpp"
#include "ptovec/oracle/fast_reference_quantization.hpp"
