// What op `tcvt` of edition 0.58.3 (tcvt.cpp) and of edition 2026-09 (tcvt_2026_09.cpp) share:
// the carrier of a source word and the plan of a pair's inputs; and encode's strategies
// (encode.cpp), which 2026-09's TCVT by value takes for its FP32 and S32 sources.
#pragma once

#include <vector>

#include "ptovec/generator/domains.hpp"
#include "ptovec/generator/ops.hpp"
#include "ptovec/generator/sampler.hpp"

namespace ptovec::generator {

/// The carrier of the source word in[0]: the sign extension of a signed integer source
/// (spec-notes section 1), else the word (a vector holds the element-width encoding).
Word TcvtCarrier(TypePair pair, const Inputs& in);

/// The rule of formats.asl (01445483) that answers a legal pair of edition 2026-09's TCVT:
/// TCVT's element step (lines 185-204) sends the E8M0, packed FP4, E6M2 and RCPE6M2 pairs to
/// ReferenceTCVTConvert, the rest to TileConvertValue (lines 130-144): integer to integer by
/// TileConvertIntegerValue, else TileProfileConvert (lines 97-128): both types in the 12-type
/// common set by ReferenceCommonConvert, to E8M0 by ReferenceFloatToE8M0, else the raw word
/// (lines 122-127).
enum class Route2026_09 { TCVTConvert, IntegerValue, Common, ToE8M0, Raw };
/// The route of a legal pair of edition 2026-09's TCVT. In tcvt_2026_09.cpp.
Route2026_09 RouteOf2026_09(TypePair pair);

/// Every code of a source of at most 16 bits; FP32 to E8M0 by the strategies of exponent
/// rounding; other wide sources by their edges (0, all ones, the top bit) and uniform bits.
DomainPlan TcvtPlan(TypePair pair);

/// encode's sampling strategies of an FP32 or S32 source into one of encode's destinations
/// (FP32, FP16, BF16, E4M3, HiF8, the integers up to 32 bits): the finite specials, the
/// destination's values and ties, its overflow and underflow edges and range ends, uniform bits.
/// Finite source values only. In encode.cpp.
std::vector<SampleStrategy> EncodeStrategies(TypePair pair);

/// Edition 2026-09's TCVT by value from a wide source (FP64, FP32, S64, U64, S32, U32) into a
/// floating type or, from a floating source, an integer type: the source's specials, its words
/// within 2 steps of the destination's edges (EdgeAnchors: overflow thresholds, subnormal/normal
/// tie, the binade below the smallest subnormal; integer range ends and .5 ties), of its values
/// and ties in every binade where the conversion rounds, FP64's subnormals, uniform bits. In
/// tcvt_2026_09_domains.cpp.
std::vector<SampleStrategy> WideValueStrategies(TypePair pair);
/// Edition 2026-09's TCVT from a 32- or 64-bit integer type into an integer type
/// (TileConvertIntegerValue): a finite set, the source words within 64 of both types' range ends
/// and of zero, within 2 of every power of two (both signs), and 4096 words spread over the
/// source's words. In tcvt_2026_09_domains.cpp.
std::vector<SampleStrategy> IntegerToIntegerStrategies(TypePair pair);

}  // namespace ptovec::generator
