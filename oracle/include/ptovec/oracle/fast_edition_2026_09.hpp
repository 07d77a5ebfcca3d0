// Fast exact form of edition 2026-09's TCVT (edition_2026_09.hpp): FastConvert2026_09 computes
// exactly what the literal Convert2026_09 computes (the same word and status, the same
// Refusal2026_09 for an illegal pair or mode) with fixed-width integer arithmetic on Dyadic
// values instead of the literal functions' exact rationals and candidate searches. Every route
// is fast: the common set (FP64 FP32 FP16 E4M3, S/U 8..64), integer to integer, to E8M0 (the
// seeds' FastFloatToE8M0: ReferenceFloatToE8M0's text is the seeds'), from E8M0, E6M2 both
// ways, from RCPE6M2, packed FP4 both ways and the raw words. The 2026-09 encoders that have a
// seeds' namesake with the same text (ReferenceFP32FiniteEncoding, ReferenceBinary16Encoding,
// ReferenceFP8Encoding, ReferenceMatrixIntegerEncoding) are the seeds' fast forms
// (fast_matrix_quantization.hpp, fast_reference_quantization.hpp).
//
// fast_encoding_2026_09.cpp and fast_tcvt_2026_09.cpp give the argument beside the code, citing
// the ASL lines; tests/oracle/fast_tcvt_2026_09_exhaustive_test.cpp checks fast == literal on
// every code of every source type of at most 16 bits x every legal control of every legal pair,
// and tests/oracle/fast_tcvt_2026_09_properties_test.cpp by RapidCheck properties over FP32 and
// FP64 words aimed at every destination's edges.
#pragma once

#include "ptovec/oracle/dyadic.hpp"
#include "ptovec/oracle/edition_2026_09.hpp"
#include "ptovec/oracle/formats.hpp"
#include "ptovec/oracle/rounding.hpp"

namespace ptovec::oracle {

/// FastConvert2026_09(src, dst, value, control) == Convert2026_09(src, dst, value, control).
Conversion2026_09 FastConvert2026_09(TileDataType source_type, TileDataType destination_type,
                                     Word value, NumericExecutionControl control);

namespace edition_2026_09 {

/// == ReferenceFP64FiniteEncoding(ToReal(value), mode) (reference-quantization.asl lines
/// 121-179): FastFP32FiniteEncoding's steps at binary64's widths.
Encoded FastReferenceFP64FiniteEncoding(const Dyadic& value, NumericRoundingMode rounding_mode);

/// == ReferencePacked4Encoding(ToReal(value), T, control) (packed-conversion.asl lines 57-141):
/// the ASL's search over the 16 lane codes, run on an exact integer proxy of the value.
Encoded FastReferencePacked4Encoding(const Dyadic& value, TileDataType destination_type,
                                     NumericExecutionControl control);

/// == ReferenceE6M2Encoding(ToReal(value), control) (packed-conversion.asl lines 164-201): the
/// nearest code found by one split at the value's 2-bit fraction instead of a 255-code search.
Encoded FastReferenceE6M2Encoding(const Dyadic& value, NumericExecutionControl control);

/// == ReferenceMatrixFloatingEncoding(ToReal(value), T, control) (matrix-quantization.asl
/// lines 454-489), each branch by its fast form.
Encoded FastReferenceMatrixFloatingEncoding(const Dyadic& value, TileDataType destination_type,
                                            NumericExecutionControl control);

/// == TCVTConvertElement(value, source, destination, control) (formats.asl lines 185-204), for
/// every pair HardwareTCVTTypePairSupported accepts.
Encoded FastTCVTConvertElement(Word source_value, TileDataType source_operation_type,
                               TileDataType destination_type, NumericExecutionControl control);

}  // namespace edition_2026_09
}  // namespace ptovec::oracle
