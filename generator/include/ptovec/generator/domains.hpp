// Input domains: exhaustive code sets and RapidCheck sampling strategies.
//
// A sampled domain is a weighted mix of named strategies, each an rc::Gen built from small
// combinators. Sampling is seeded (rc::Random(seed)), reproducible across runs and machines, and
// deduplicated in first-drawn order.
#pragma once

#include <rapidcheck.h>

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "ptovec/generator/ops.hpp"

namespace ptovec::generator {

/// One named sampling strategy: a generator of input tuples and its weight in the mix.
struct Strategy {
  std::string name;
  int weight = 1;
  rc::Gen<Inputs> gen;
};

/// Draws `count` distinct input tuples from the weighted mix of `strategies` with rc::Random(seed).
/// Deterministic: the same strategies, seed and count give the same tuples in the same order.
/// Stops early (returning fewer) only when the mix cannot produce more distinct tuples within
/// 64 * count + 4096 draws (a domain smaller than count).
std::vector<Inputs> SampleUnique(const std::vector<Strategy>& strategies, std::uint64_t seed,
                                 std::uint64_t count);

/// An InputSet over a materialized list of tuples.
InputSet ListSet(std::vector<Inputs> tuples, std::string kind);

/// Every code of an 8- or 16-bit type (NaNs, infinities, zeros and subnormals included), in code
/// order, filtered by `keep` when given. Throws std::invalid_argument for wider types.
InputSet ExhaustiveCodes(TileDataType type, const std::function<bool(Word)>& keep = {});

/// Lifts a generator of one word into a generator of a one-slot tuple.
rc::Gen<Inputs> OneSlot(rc::Gen<std::uint32_t> word);

// ---- FP32 word strategies (shared by every op with an FP32 input) ----

/// NaNs (quiet and signaling, both signs), infinities, zeros, the smallest and largest subnormal
/// and normal, 1.0, -1.0.
rc::Gen<std::uint32_t> Fp32Specials();
/// Exact powers of two (every exponent field 0..254, and every subnormal power) and up to
/// +/-4 ulps around them; random sign.
rc::Gen<std::uint32_t> Fp32PowerOfTwoNeighbours(bool positive_only);
/// The FP32 values nearest to sqrt(2) * 2^k for every k in -149..127 (normal and subnormal), and
/// up to +/-4 ulps around them: where nearest-mode exponent rounding changes.
rc::Gen<std::uint32_t> Fp32Sqrt2Boundaries(bool positive_only);
/// FP32 subnormals with their highest set bit at 20..22 (floor exponent -129..-127) and the
/// smallest normals: E8M0's underflow edge.
rc::Gen<std::uint32_t> Fp32SubnormalFloorEdge();
/// Values in the binades of 2^126 and 2^127 (exponent fields 253, 254) near their first, last
/// and sqrt(2) values, plus +Inf: the overflow edge at 2^127 and 2^128.
rc::Gen<std::uint32_t> Fp32TopBinades();
/// The first and last value of a random binade (fraction 0 or all ones); random sign.
rc::Gen<std::uint32_t> Fp32BinadeEnds();
/// Uniformly random 32-bit patterns.
rc::Gen<std::uint32_t> Fp32UniformBits();

/// floor(sqrt(2) * 2^j) for 0 <= j <= 62, computed exactly with integer square roots.
std::uint64_t FloorSqrt2Scaled(int j);

}  // namespace ptovec::generator
