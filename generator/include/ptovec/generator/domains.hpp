// Input domains: exhaustive code sets and sampled sets of named, weighted strategies.
//
// A strategy is data: a TupleSet (tuple_set.hpp), from which both the bulk sampler (sampler.hpp,
// SampledSet) and the RapidCheck generator of `ptovec shrink` and the property tests (StrategyGen,
// InputSpace) derive. Sampling is seeded and reproducible across runs, machines, threads and
// shards, and never repeats a tuple.
#pragma once

#include <rapidcheck.h>

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "ptovec/generator/ops.hpp"
#include "ptovec/generator/sampler.hpp"
#include "ptovec/generator/tuple_set.hpp"
#include "ptovec/oracle/fast.hpp"

namespace ptovec::generator {

/// --samples distinct tuples of the weighted strategies (sampler.hpp), as an InputSet of kind
/// "sampled" whose `strategies` report what each contributed.
InputSet SampledSet(std::vector<SampleStrategy> strategies, std::uint64_t seed,
                    std::uint64_t samples);

/// An InputSet over a materialized list of tuples.
InputSet ListSet(std::vector<Inputs> tuples, std::string kind);

/// Every code of an 8- or 16-bit type (NaNs, infinities, zeros and subnormals included), in code
/// order, filtered by `keep` when given. Throws std::invalid_argument for wider types.
InputSet ExhaustiveCodes(TileDataType type, const std::function<bool(Word)>& keep = {});

/// A uniformly random tuple of the set (index uniform in 0 .. size-1, then at()), no shrinks of
/// its own: the RapidCheck form of a strategy. For a mapped set the tuple at a non-canonical
/// index is a repeat of a canonical one, so the distribution is over the index space.
rc::Gen<Inputs> StrategyGen(const TupleSet& set);
/// A part chosen by weight, then StrategyGen of it.
rc::Gen<Inputs> StrategyGen(const SampleStrategy& strategy);

/// A one-slot set of words.
inline TupleSet OneSlot(WordSet words) { return Boxes::Words(std::move(words)); }

// ---- FP32 word strategies (shared by every op with an FP32 input) ----

/// NaNs (quiet and signaling, both signs), infinities, zeros, the smallest and largest subnormal
/// and normal, 1.0, -1.0, 2^-127 and 2^127: 22 words.
WordSet Fp32Specials();
/// Exact powers of two (every exponent field 1..254, and every subnormal power) and the words up
/// to 4 ulps around them (clamped to 0 .. +Inf); both signs unless `positive_only`.
WordSet Fp32PowerOfTwoNeighbours(bool positive_only);
/// The FP32 values nearest to sqrt(2) * 2^k for every k in -149..127 (normal and subnormal), and
/// up to 4 ulps around them: where nearest-mode exponent rounding changes. Both signs unless
/// `positive_only`.
WordSet Fp32Sqrt2Boundaries(bool positive_only);
/// FP32 subnormals with their highest set bit at 20..22 (floor exponent -129..-127), the words
/// within 8 of 2^-128, 2^-127 and the smallest normal: E8M0's underflow edge.
WordSet Fp32SubnormalFloorEdge();
/// The words within 4 ulps of the first, last and sqrt(2) values of the binades of 2^126 and
/// 2^127 (exponent fields 253, 254; +Inf included): the overflow edge at 2^127 and 2^128.
WordSet Fp32TopBinades();
/// The first and last word of every binade (exponent field 0..254, fraction 0 or all ones),
/// both signs.
WordSet Fp32BinadeEnds();
/// Every positive normal FP32 word (0x00800000 .. 0x7F7FFFFF): uniform exponent fields 1..254
/// and fractions, where E8M0's exponent rounding takes its ordinary path.
WordSet Fp32PositiveNormals();
/// Every 32-bit pattern.
WordSet Fp32UniformBits();

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
std::pair<std::uint32_t, std::uint32_t> Fp32Bracket(const oracle::Dyadic& x);
std::pair<std::uint32_t, std::uint32_t> Fp32Bracket(const oracle::Real& x);
/// The same for FP64 words (bits 63:0): the largest <= x and the smallest >= x, +/-Inf beyond the
/// finite range. Exact (via edition 2026-09's FastReferenceFP64FiniteEncoding, reference-
/// quantization.asl lines 121-179).
std::pair<std::uint64_t, std::uint64_t> Fp64Bracket(const oracle::Dyadic& x);
/// True for a finite FP32 word.
bool Fp32IsFinite(std::uint32_t word);

/// Exact values where encoding into `dst` changes: for FP16, BF16, E4M3 and HiF8 every finite
/// value >= 0 and every midpoint between neighbours (ties), the overflow threshold (largest
/// finite plus half its ulp) and one ulp above; for integer types the range ends, one beyond,
/// and the .5 ties around them and around zero. Sorted, non-negative values only for floating
/// types (strategies add the sign). Exact dyadics (computed without rationals: values from
/// TileNumericFiniteDecomposition, midpoints and edges by integer arithmetic). Throws
/// std::invalid_argument for FP32 (no finite anchors).
std::vector<oracle::Dyadic> DestinationAnchors(TileDataType dst);

/// Implementation edges of an integer destination (issue 27): the values half a unit either
/// side of its range ends and the ends themselves, min - 1/2, min, min + 1/2, max - 1/2, max,
/// max + 1/2 (S8: -128.5 .. 127.5), where a device's rounding must land on the most negative
/// or most positive integer from either side. Exact, increasing, signed. Throws
/// std::invalid_argument for a floating type.
std::vector<oracle::Dyadic> IntegerRangeEndAnchors(TileDataType dst);
/// For an unsigned destination of w bits the values around those that round to -2^w (non-Sat
/// wraps to 0 with OF) and to -1 (wraps to 2^w - 1): -2^w - 1/2, -2^w, -2^w + 1/2, -3/2, -1,
/// -1/2 (U16: -65536.5 .. -0.5). Exact, increasing. Throws std::invalid_argument for another
/// type.
std::vector<oracle::Dyadic> UnsignedWrapAnchors(TileDataType dst);
/// Floating destination edges (format_edges.hpp), positive (strategies add the sign): the
/// largest subnormal, the tie between it and the smallest normal, and the smallest normal
/// (SubnormalNormalTieAnchors; throws for a type without subnormals); the largest finite, the
/// nearest modes' overflow threshold and the largest finite + its ulp, where the directed modes
/// change between the largest finite and overflow (DirectedOverflowAnchors); a quarter, a half
/// and the whole of the smallest subnormal s, bounding the binade [s/2, s) below it and the
/// values far below it (BelowSmallestSubnormalAnchors).
std::vector<oracle::Dyadic> SubnormalNormalTieAnchors(TileDataType dst);
std::vector<oracle::Dyadic> DirectedOverflowAnchors(TileDataType dst);
std::vector<oracle::Dyadic> BelowSmallestSubnormalAnchors(TileDataType dst);

/// The FP32 words at, and up to max_steps ulps around, the FP32 neighbours of every anchor (both
/// signs when `signed_anchors`, else the anchors' own sign).
WordSet Fp32AroundAnchors(const std::vector<oracle::Dyadic>& anchors, int max_steps,
                          bool signed_anchors);
/// The S32 words from floor(anchor) - max_steps to floor(anchor) + max_steps + 1 for every
/// anchor (negated too when `signed_anchors`), clamped to the S32 range.
WordSet S32AroundAnchors(const std::vector<oracle::Dyadic>& anchors, int max_steps,
                         bool signed_anchors);

// ---- B.FPATR offsets (shared by qparam and affine) ----

/// Checks an offset width word (0, 5, 9 or 17) and an S32 offset word inside that width's signed
/// range (width 0: offset 0, the parameter has no offset field). nullopt when accepted, else a
/// one-line message naming the bad word and the accepted values.
std::optional<std::string> CheckOffsetAndWidth(Word offset, Word width);

/// Tuples (first, offset, width) for every word of `first` and every width 0, 5, 9, 17: with
/// `edges_only` the offsets at and next to the ends of the width's range, 0 and -1; else every
/// offset of the range (width 0: offset 0). Offsets are S32 words, widths U8 words.
Boxes WithOffsetAndWidth(const WordSet& first, bool edges_only);

// ---- The whole input space of an op, with RapidCheck shrinking (OpDef::input_space) ----

/// Shrink candidates of one element-width word of `type`, simplest first, without `word` itself
/// and without repeats. Floating types (FP32 FP16 BF16 E4M3 HiF8 FP19): 0, the word with its sign
/// cleared, the magnitude toward 0 (rc::shrink::towards, sign kept), the magnitude with one set
/// bit cleared (from the top; keeps the low bits that make a tie), then for FP32 FP16 BF16 E4M3
/// FP19 the exponent field toward 0 (fraction kept) and the fraction toward 0 (exponent kept).
/// E8M0 and unsigned integers: toward 0, then one set bit cleared. Signed integers:
/// rc::shrink::integral of the value (toward 0, negatives also offer their absolute value),
/// re-encoded at the element width.
std::vector<Word> ShrinkWord(TileDataType type, Word word);

/// Shrink candidates of an input tuple of (op, pair): slot by slot in order, the tuple with that
/// slot's word replaced by each ShrinkWord candidate, kept only when op.check_domain accepts it
/// (so a shrink never leaves the op's domain).
rc::Seq<Inputs> ShrinkInputs(const OpDef& op, TypePair pair, const Inputs& in);

/// The shrink tree of a given tuple: rc::shrinkable::shrinkRecur(in, ShrinkInputs). The tree
/// OpDef::input_space gives every generated tuple, so `shrink --from` shrinks a given case the
/// same way the property shrinks a generated one.
rc::Shrinkable<Inputs> ShrinkableInputs(const OpDef& op, TypePair pair, const Inputs& in);

/// The interesting codes of an 8- or 16-bit type, in code order: for floating types the first and
/// last code of every run of one value class (zeros, subnormal and normal ends, infinities, NaN
/// ends) and +/-1.0 (FP16, BF16, E4M3; not HiF8); for integer types 0, 1, the largest, the smallest
/// and all ones. Throws std::invalid_argument for wider types.
std::vector<Word> InterestingCodes(TileDataType type);

/// Uniform over the op's domain: each slot a uniformly random word of its type's width, redrawn
/// (up to 10,000 times, deterministically from the generator's rc::Random) until op.check_domain
/// accepts the tuple; throws rc::GenerationFailure when it never does (give InputSpace a uniform
/// of its own for such domains, e.g. affine's offset and width). No shrinks of its own.
rc::Gen<Inputs> UniformDomain(const OpDef& op, TypePair pair);

/// (offset, width) uniformly: width one of 0, 5, 9, 17, offset uniform in its signed range
/// (width 0: offset 0). Both words as S32 / U8 element-width words.
rc::Gen<std::pair<std::uint32_t, std::uint32_t>> UniformOffsetAndWidth();

/// A named, weighted RapidCheck generator (InputSpace's mix).
struct Strategy {
  std::string name;
  int weight = 1;
  rc::Gen<Inputs> gen;
};

/// The RapidCheck forms (StrategyGen) of sampling strategies.
std::vector<Strategy> StrategyGens(const std::vector<SampleStrategy>& strategies);

/// The whole input space of (op, pair) for OpDef::input_space: a weighted mix of `strategies`
/// (the op's named sampling strategies; empty for exhaustive 8/16-bit sources) plus "uniform"
/// (`uniform`, default UniformDomain) with a third of their weight; with no strategies, uniform
/// codes (weight 3) and, for one-slot ops, InterestingCodes of the source (weight 1). Each drawn
/// tuple is redrawn until op.check_domain accepts it and is given the ShrinkableInputs tree.
/// `op` must outlive the generator (registry ops do).
rc::Gen<Inputs> InputSpace(const OpDef& op, TypePair pair, std::vector<Strategy> strategies,
                           std::optional<rc::Gen<Inputs>> uniform = std::nullopt);

// ---- The domain plan: what an op declares, and what derives from it ----

/// How the inputs of one (op, pair) are chosen (OpDef::plan). One of three kinds:
/// - Exhaustive: every code of the source type (8 or 16 bits wide) that `keep` accepts (every
///   code when `keep` is empty), in code order;
/// - Sampled: `samples` distinct tuples of the named `strategies` (SampledSet), seeded by
///   DerivedSeed; `uniform` (when set) is the input space's uniform over the whole domain
///   (default UniformDomain);
/// - Custom: `build` makes the set (tdequant: every value x zero point x 12 sampled scales) and
///   `space` gives the input space's strategies (with `uniform`, when set, as its uniform).
struct DomainPlan {
  enum class Kind : std::uint8_t { Exhaustive, Sampled, Custom };
  Kind kind = Kind::Exhaustive;
  std::function<bool(Word)> keep;
  std::vector<SampleStrategy> strategies;
  std::function<rc::Gen<Inputs>()> uniform;
  std::function<InputSet(const OpDef&, TypePair, const SamplingOptions&)> build;
  std::function<std::vector<Strategy>()> space;

  static DomainPlan Exhaustive(std::function<bool(Word)> keep = {});
  static DomainPlan Sampled(std::vector<SampleStrategy> strategies,
                            std::function<rc::Gen<Inputs>()> uniform = {});
  static DomainPlan Custom(
      std::function<InputSet(const OpDef&, TypePair, const SamplingOptions&)> build,
      std::function<std::vector<Strategy>()> space);
};

/// Sets op.domain, op.domain_count, op.strategies and op.input_space from op.plan, each bound to
/// `op` itself (which must stay where it is: the registry calls this once its list is built).
/// Exhaustive: the source codes `keep` accepts, their count, no strategies, InputSpace without
/// strategies. Sampled: SampledSet of the strategies, --samples, the strategies, InputSpace of
/// their RapidCheck forms and `uniform`. Custom: `build`, its count, no strategies, InputSpace of
/// `space`. Throws std::logic_error when op.plan is empty.
void DeriveFromPlan(OpDef& op);

}  // namespace ptovec::generator
