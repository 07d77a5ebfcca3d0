// Op `affine`'s near-target sets (strategies.cpp reads them): the machinery of the strategies
// that aim value * scale at a target product, and the axes and word sets they share.
//
// Every strategy is a TupleSet (tuple_set.hpp). Four aim at a target product and are mapped
// sets over axes [width, a, offset, b, s, 0, k] (unused axes hold 0):
//  - the target p: value * scale lands on or next to p / 2 (p odd: a tie k + 1/2), p a function
//    of (width, a, offset, b) that each strategy defines, |p| < 2^23;
//  - the scale 2^s: s in -10..10 for an FP32 source, -8..-1 for an S32 source (a scale of at
//    most 1/2, so every S32 step moves the product by at most a half and each target has its
//    own values);
//  - the value: the source word just below p / (2 * scale) in value order, moved k = -1..2 steps
//    (FP32 ulps, S32 units): so exactly at the target when it is representable, and the
//    neighbours on either side.
// Their inverses read the width, offset and scale from the tuple and try the targets whose
// value lies within 3 steps (NearTargetSet). Targets beyond 2^23 (the ends of S32 and U32 at
// width 0) are reached by boxes of values around them instead (Width0DestinationEdges).
#pragma once

#include <cstdint>
#include <functional>
#include <utility>
#include <vector>

#include "ptovec/generator/ops.hpp"
#include "ptovec/generator/tuple_set.hpp"
#include "ptovec/generator/word_set.hpp"

namespace ptovec::generator::affine {

/// Targets p with |p| >= kTargetLimit are not near-target axes.
inline constexpr std::int64_t kTargetLimit = std::int64_t{1} << 23;

/// |x| as an unsigned integer, and a signed value as a SignedRange axis word.
std::uint64_t Magnitude(std::int64_t x);
Word Axis(std::int64_t v);
/// The FP19 scale 2^s (s in -126..127: every scale exponent the strategies use).
Word Fp19PowerOfTwo(int s);
/// Every positive normal FP19 scale word.
WordSet AllNormalScales();
/// The offsets of a width, as S32 words (width 0: only 0), and as a signed axis.
WordSet Offsets(int width);
WordSet OffsetAxis(int width);
/// Every source value: finite FP32 words, or every S32 word.
WordSet SourceValues(TileDataType src);
/// A source word moved `steps` steps in value order (FP32 ulps, staying finite; S32 units,
/// clamped).
Word SourceStep(TileDataType src, Word word, int steps);
/// The scale exponents of a near-target strategy: -10..10 (FP32), -8..-1 (S32).
WordSet ScaleExponentAxis(TileDataType src);

/// A near-target strategy: its axis boxes, the target of an axis point, and the (a, b) axes that
/// give target p for a width and offset.
struct NearTarget {
  std::vector<Box> boxes;  // axes [width, a, offset, b, s, 0, k]
  std::function<std::int64_t(int width, std::int64_t a, std::int64_t offset, std::int64_t b)>
      target;
  std::function<void(int width, std::int64_t offset, std::int64_t p,
                     std::vector<std::pair<std::int64_t, std::int64_t>>& ab)>
      axes_for;
  std::int64_t p_min = 0;  // every target lies in p_min .. p_max (a quick filter for invert)
  std::int64_t p_max = 0;
  Boxes superset;  // of input tuples: every tuple it builds (a quick filter)
};

/// Input tuples of one width with power-of-two scales 2^s for s in `exponents` and any value
/// and offset of the width: a superset of a near-target part.
Boxes PowerOfTwoScaleTuples(TileDataType src, int width, const WordSet& exponents);

/// The mapped set of a near-target strategy (axes [width, a, offset, b, s, 0, k]): assembles
/// (value just below p / 2 / 2^s moved k steps, 2^s, offset, width) and inverts by the targets
/// whose value lies within 3 steps of a tuple's value.
TupleSet NearTargetSet(TileDataType src, NearTarget near);

}  // namespace ptovec::generator::affine
