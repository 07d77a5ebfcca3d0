// Format edges: the values at the ends of a format's ranges, each a function of the format's row
// (FormatInfo, formats.hpp), exact (Dyadic or integer; no float or double). The generator's
// sampling strategies aim at them and its outcome classes test against them, both reading this
// one definition: the smallest positive value, the largest subnormal, the smallest normal and the
// tie between those two, the largest finite value, the overflow threshold (largest finite + half
// its ulp) and one ulp beyond it, and the signed ranges of the B.FPATR S5/S9/S17 intermediates
// and offsets.
#pragma once

#include <cstdint>

#include "ptovec/oracle/dyadic.hpp"
#include "ptovec/oracle/formats.hpp"

namespace ptovec::oracle {

/// The smallest positive finite value of floating type `type`, by value (E8M0: 2^-127, its code
/// 0x00; FP32: 2^-149). Throws std::invalid_argument for an integer type.
Dyadic SmallestPositiveValue(TileDataType type);

/// The smallest positive normal value of floating type `type`: the least value of a code
/// TileNumericValueClass calls PositiveNormal (FP32 and FP19: 2^-126). By value, not by code:
/// HiF8's codes are not in value order (0x08 is 1.0; its smallest normal 2^-15 has a larger
/// code). Types without normals (E8M0) give 2^(1 - bias). Throws std::invalid_argument for an
/// integer type.
Dyadic SmallestNormalValue(TileDataType type);

/// The largest positive subnormal value of floating type `type`: the largest value below
/// SmallestNormalValue(type), by value (FP32: (2^23 - 1) * 2^-149; FP16: 1023 * 2^-24; E4M3:
/// 7 * 2^-9; HiF8: 2^-16), normalized. Throws std::invalid_argument for a type without
/// subnormals (E8M0) or an integer type.
Dyadic LargestSubnormalValue(TileDataType type);

/// The tie between the largest subnormal and the smallest normal, (LargestSubnormalValue +
/// SmallestNormalValue) / 2, normalized (FP32: (2^24 - 1) * 2^-150; FP16: 2047 * 2^-25; E4M3:
/// 15 * 2^-10; HiF8: 3 * 2^-17): the one tie whose rounding up carries a subnormal into the
/// normal range. Throws as LargestSubnormalValue.
Dyadic SubnormalNormalTie(TileDataType type);

/// The largest finite value of floating type `type` (code largest_finite_code), normalized.
Dyadic LargestFiniteValue(TileDataType type);

/// The largest finite value below LargestFiniteValue(type), by value, normalized.
Dyadic BelowLargestFiniteValue(TileDataType type);

/// The overflow threshold of the nearest modes: largest finite + half its ulp, (3 L - P) / 2 with
/// L = LargestFiniteValue and P = BelowLargestFiniteValue; normalized.
Dyadic OverflowThreshold(TileDataType type);

/// Largest finite + its ulp, 2 L - P (the first value a wider format would round to); normalized.
Dyadic LargestFinitePlusUlp(TileDataType type);

/// The signed range of a B.FPATR intermediate or offset field of `width` bits (5: -16..15,
/// 9: -256..255, 17: -65536..65535; MatrixRoundAndSaturateSigned, MatrixQuantOffset); width 0
/// (no intermediate, no offset field) gives 0..0. For width in 0..63.
constexpr std::int64_t SignedFieldMinimum(int width) {
  return width == 0 ? 0 : -(std::int64_t{1} << (width - 1));
}
constexpr std::int64_t SignedFieldMaximum(int width) {
  return width == 0 ? 0 : (std::int64_t{1} << (width - 1)) - 1;
}

}  // namespace ptovec::oracle
