// Op `fpatr`'s sampling strategies (ops/fpatr/): the grid of modes and ReLU modes over special
// and edge values (strategies.cpp), exact ties after the multiplier (ties.cpp) and products at a
// floating destination's thresholds (thresholds.cpp), and the uniform generator.
#pragma once

#include <cstdint>
#include <vector>

#include "ptovec/generator/domains.hpp"
#include "ptovec/generator/ops.hpp"

namespace ptovec::generator::fpatr {

/// Every sampling strategy of a pair (or file group), narrowest first.
std::vector<SampleStrategy> FpatrStrategies(TypePair pair);
/// Uniform over the legal domain: a uniform mode of the pair, ReluMode, accumulator word, scale
/// (any positive normal fp19), offset of the width, shift code and ReLU parameter.
rc::Gen<Inputs> UniformFpatr(TypePair pair);

/// Strategy ties_after_scale (ties.cpp): one part per mode of the pair whose multiplied value is
/// rounded, with values and multipliers whose exact product is a tie of the mode's rounding.
std::vector<WeightedSet> ScaledTies(TypePair pair);
/// Strategy thresholds_after_scale (thresholds.cpp): one part per mode whose last step encodes
/// into the floating destination, with products at and next to its overflow threshold and
/// smallest normal.
std::vector<WeightedSet> ThresholdsAfterScale(TypePair pair);

/// Up to n odd integers spread evenly over lo..hi (both ends when odd), increasing.
std::vector<std::uint64_t> OddSpread(std::uint64_t lo, std::uint64_t hi, std::uint64_t n);

}  // namespace ptovec::generator::fpatr
