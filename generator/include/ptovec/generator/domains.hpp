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

// ---- Words around exact values (anchors): ties, edges and their neighbours ----

/// The position of an FP32 word in value order: -0 is -1, +0 is 0, +Inf 0x7F800000, -Inf
/// -0x7F800001. NaN words are outside this order (their ordinal is meaningless).
std::int64_t Fp32Ordinal(std::uint32_t word);
/// The FP32 word at an ordinal, clamped to -Inf .. +Inf.
std::uint32_t Fp32FromOrdinal(std::int64_t ordinal);
/// The FP32 word `steps` ulps away from `word` in value order (clamped at the infinities).
std::uint32_t Fp32Step(std::uint32_t word, std::int64_t steps);
/// The largest FP32 word <= x and the smallest FP32 word >= x (equal when x is an FP32 value;
/// +/-Inf beyond the finite range). Exact (via FastFP32FiniteEncoding); x must be dyadic.
std::pair<std::uint32_t, std::uint32_t> Fp32Bracket(const oracle::Real& x);
/// True for a finite FP32 word.
bool Fp32IsFinite(std::uint32_t word);

/// Exact values where encoding into `dst` changes: for FP16, BF16, E4M3 and HiF8 every finite
/// value >= 0 and every midpoint between neighbours (ties), the overflow threshold (largest
/// finite plus half its ulp) and one ulp above; for integer types the range ends, one beyond,
/// and the .5 ties around them and around zero. Sorted, non-negative values only for floating
/// types (strategies add the sign). Throws std::invalid_argument for FP32 (no finite anchors).
std::vector<oracle::Real> DestinationAnchors(TileDataType dst);

/// FP32 words at, and up to +/-max_steps ulps around, random anchors (random sign when
/// `signed_anchors`, else the anchors' own sign).
rc::Gen<std::uint32_t> Fp32AroundAnchors(const std::vector<oracle::Real>& anchors,
                                         int max_steps, bool signed_anchors);
/// S32 words at floor/ceiling of random anchors and up to +/-max_steps around them (random sign
/// when `signed_anchors`), clamped to the S32 range. Anchors beyond the range are dropped.
rc::Gen<std::uint32_t> S32AroundAnchors(const std::vector<oracle::Real>& anchors, int max_steps,
                                        bool signed_anchors);

// ---- B.FPATR offsets (shared by qparam and affine) ----

/// Checks an offset width word (0, 5, 9 or 17) and an S32 offset word inside that width's signed
/// range (width 0: offset 0, the parameter has no offset field). nullopt when accepted, else a
/// one-line message naming the bad word and the accepted values.
std::optional<std::string> CheckOffsetAndWidth(Word offset, Word width);

/// (offset, width) pairs: every width, offsets at and next to the ends of its range, 0, -1 and
/// random in-range offsets.
rc::Gen<std::pair<std::uint32_t, std::uint32_t>> OffsetAndWidth();

}  // namespace ptovec::generator
