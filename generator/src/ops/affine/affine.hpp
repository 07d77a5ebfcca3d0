// The affine op's parts (ops/affine/): its slots, the value helpers that evaluation, strategies
// and classes share, and the strategies (strategies.cpp) that affine.cpp's registry entry reads.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "ptovec/generator/domains.hpp"
#include "ptovec/generator/ops.hpp"
#include "ptovec/oracle/dyadic.hpp"
#include "ptovec/oracle/exact_rational.hpp"
#include "ptovec/oracle/format_edges.hpp"

namespace ptovec::generator::affine {

inline constexpr std::size_t kValueSlot = 0;
inline constexpr std::size_t kScaleSlot = 1;
inline constexpr std::size_t kOffsetSlot = 2;
inline constexpr std::size_t kWidthSlot = 3;

/// An S32 word's value, and the S32 word of a value (clamped to the S32 range).
std::int64_t S32Of(Word word);
Word S32Word(std::int64_t value);

/// The signed range of an intermediate of width 0, 5, 9 or 17 (width 0: 0..0).
inline std::int64_t WidthMin(int width) { return oracle::SignedFieldMinimum(width); }
inline std::int64_t WidthMax(int width) { return oracle::SignedFieldMaximum(width); }

/// An integer range lo..hi.
struct Range {
  std::int64_t lo;
  std::int64_t hi;
};
/// The destination's integer range (S4X2/U4X2: one 4-bit lane).
Range AffineDestinationRange(TileDataType dst);

/// The exact value of a finite source word (FP32 or S32), as a Dyadic and as a real.
oracle::Dyadic ValueDyadic(TileDataType src, Word value);
oracle::Real ValueReal(TileDataType src, Word value);

/// The sampling strategies of a pair (strategies.cpp).
std::vector<SampleStrategy> AffineStrategies(TypePair pair);
/// Uniform over the domain: any finite FP32 / any S32 value, any positive normal FP19 scale, a
/// uniform width and an offset uniform in its range.
rc::Gen<Inputs> UniformAffine(TypePair pair);

}  // namespace ptovec::generator::affine
