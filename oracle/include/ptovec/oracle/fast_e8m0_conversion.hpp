// Fast exact TCVT to E8M0 (seed 001_c13013f58bb35bbc.txt, PTO-ARCH-PROFILE-E8M0-CONVERSION).
//
// FastFloatToE8M0 computes exactly what the literal ReferenceFloatToE8M0 (e8m0_conversion.cpp,
// seed 001 lines 103-152, with ReferenceE8M0RoundExponent lines 45-101) computes: the same code
// and the same status for every word, source type and control, and the same
// SeedAssertionFailure for a source type outside the seed's domain. It uses a handful of integer
// operations (a count-leading-zeros for subnormals, one 24-bit threshold compare for the nearest
// modes) instead of the seed's bit loops, with no heap allocation and no exception on any input
// of the seed's domain.
//
// Checked equal to the literal function by tests/oracle/fast_e8m0_test.cpp: exhaustively over
// every FP16 and BF16 code x 7 rounding modes x both Sat values, by RapidCheck properties over
// FP32 words (uniform and targeted), and by an exhaustive run over all 2^32 FP32 words x 14
// controls that is disabled by default (ctest label `long`, option PTOVEC_LONG_TESTS).
#pragma once

#include <cstddef>

#include "ptovec/oracle/formats.hpp"
#include "ptovec/oracle/rounding.hpp"

namespace ptovec::oracle {

/// FastFloatToE8M0(value, source_type, control) == ReferenceFloatToE8M0(value, source_type,
/// control) (seed 001 lines 103-152).
///
/// Input: the low bits of `value` as an FP16 (bits 15:0: sign 15, exponent 14:10 bias 15,
/// fraction 9:0), BF16 (bits 15:0: sign 15, exponent 14:7 bias 127, fraction 6:0) or FP32
/// (bits 31:0: sign 31, exponent 30:23 bias 127, fraction 22:0) word; higher bits are ignored.
/// Output: the E8M0 code (bits 7:0, bias 127, 0xFF NaN) zero-extended in the carrier, and the
/// 5-bit status (spec-notes sections 3 and 5 item 5):
///  * zero, negative (including -Inf), NaN: {0xFF, NV 0x01};
///  * +Inf: {Sat ? 0xFE : 0xFF, OF|NX 0x14};
///  * floor exponent below -127 (FP32 and BF16 subnormals): {Sat ? 0x00 : 0xFF, UF|NX 0x18};
///  * floor exponent 127, not a power of two: {Sat ? 0xFE : 0xFF, OF|NX 0x14};
///  * a power of two 2^k: {k + 127, 0x00};
///  * otherwise the floor exponent k rounded under the mode (RTM k; RTP k+1; RTZ toward
///    exponent 0; RTO the odd one of k, k+1; RNE, RNA, RHB k+1 iff the value is above
///    sqrt(2) * 2^k), {exponent + 127, NX 0x10}.
/// Throws SeedAssertionFailure when source_type is not FP16, BF16 or FP32 (seed 001 line 108).
Encoded FastFloatToE8M0(Word value, TileDataType source_type, NumericExecutionControl control);

/// FastTileProfileConvert(value, source, destination, control) == TileProfileConvert(value,
/// source, destination, control) (seed 001 lines 154-168): to E8M0 by FastFloatToE8M0 (bits 7:0);
/// to an integer type the raw word normalized (NormalizeTileInteger, sign- or zero-extended from
/// the type's width), status 0; to any other floating type the raw 64-bit word unchanged,
/// status 0.
Encoded FastTileProfileConvert(Word value, TileDataType source_type, TileDataType destination_type,
                               NumericExecutionControl control);

/// out[k] = FastTileProfileConvert(value, source, destination, controls[k]) for k < n: one word
/// under several controls, the source layout chosen once (the exhaustive runs' batch form).
void FastTileProfileConvertControls(Word value, TileDataType source_type,
                                    TileDataType destination_type,
                                    const NumericExecutionControl* controls, std::size_t n,
                                    Encoded* out);

}  // namespace ptovec::oracle
