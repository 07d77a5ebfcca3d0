// The bulk sampler: --samples distinct input tuples of one (op, src, dst) from its named, weighted
// strategies, with memory that does not grow with the sample count and no RapidCheck machinery
// (no shrink trees, no per-sample allocation, no de-duplication set).
//
// How a sample is drawn (deterministic in the seed, independent of threads and shards):
//  1. Quotas: strategy s gets floor(samples * weight_s / total weight) tuples, the remainder going
//     one each to the largest fractional parts (earlier strategy first on a tie); a strategy's
//     quota is shared among its weighted parts the same way. Below, "strategy" means a part.
//  2. Overlaps: a tuple belongs to the first strategy (in order) whose set contains it. For
//     strategies given as boxes this is exact set difference, computed once; for a mapped
//     strategy, or one after a mapped strategy, a tuple that an earlier strategy contains (or,
//     within a mapped set, that a smaller index also gives) is skipped as it comes.
//  3. Handing on: a strategy with fewer tuples than its quota gives all it has; what is left is
//     shared among the strategies that still have tuples by their weights (as in 1, again after
//     each round in which one of them runs out), so their proportions hold.
//  4. Order: strategy after strategy; within strategy s, its j-th tuple is element pi_s(j) of its
//     (remaining) index space, pi_s a keyed pseudo-random permutation (a Feistel network with
//     cycle walking), so no tuple repeats and any position is reached without drawing the ones
//     before it (mapped strategies: from the nearest checkpoint, every kCheckpoint tuples).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "ptovec/generator/tuple_set.hpp"

namespace ptovec::generator {

/// A keyed pseudo-random permutation of 0 .. n-1 (n up to 2^128 - 1): a 4-round Feistel network
/// over the smallest power of four >= n, cycle-walking values >= n back in (fewer than 4 steps
/// on average).
class IndexPermutation {
 public:
  IndexPermutation() = default;
  IndexPermutation(Index n, std::uint64_t key);
  Index operator()(Index i) const;
  Index size() const { return n_; }

 private:
  Index Encrypt(Index x) const;
  Index n_ = 0;
  unsigned half_bits_ = 0;
  std::uint64_t keys_[4] = {};
};

/// A part of a strategy and its weight within it.
struct WeightedSet {
  int weight = 1;
  TupleSet set;
};

/// One named strategy of a sampled domain: one set, or weighted parts (a strategy's quota is
/// shared among its parts by their weights, as the sample's among strategies; a tuple in two
/// parts belongs to the first).
struct SampleStrategy {
  std::string name;
  int weight = 1;
  std::vector<WeightedSet> parts;
  SampleStrategy(std::string name_, int weight_, TupleSet set)
      : name(std::move(name_)), weight(weight_), parts{{1, std::move(set)}} {}
  SampleStrategy(std::string name_, int weight_, std::vector<WeightedSet> parts_)
      : name(std::move(name_)), weight(weight_), parts(std::move(parts_)) {}
};

/// A sample of distinct tuples (see the file comment).
class Sample {
 public:
  /// Throws std::invalid_argument for no strategies or a weight below 1, std::logic_error when
  /// a walked strategy finds kMaxMisses tuples in a row that it does not own.
  Sample(std::vector<SampleStrategy> strategies, std::uint64_t seed, std::uint64_t samples);
  /// Tuples in the sample (samples, or fewer when the strategies hold fewer).
  std::uint64_t count() const { return count_; }
  const std::vector<StrategyCount>& counts() const { return counts_; }
  /// Writes tuples begin .. begin+n-1 (begin + n <= count()) to out.
  void Fill(std::uint64_t begin, std::uint64_t n, Inputs* out) const;
  Inputs at(std::uint64_t i) const;

  /// Tuples between checkpoints of a walked strategy.
  static constexpr std::uint64_t kCheckpoint = 512;
  /// Rejected tuples in a row after which a walked strategy is a mistake (std::logic_error).
  static constexpr std::uint64_t kMaxMisses = std::uint64_t{1} << 20;

 private:
  struct Part {
    TupleSet set;       // boxes: what remains after earlier strategies
    bool walk = false;  // skip tuples of earlier strategies (and repeats) as they come
    IndexPermutation permutation;
    std::uint64_t first = 0;  // position of its first tuple in the sample
    std::uint64_t taken = 0;
    // walk state: the next permutation position, tuples accepted so far, whether the set is
    // used up, and the permutation position of every kCheckpoint-th accepted tuple
    Index next = 0;
    std::uint64_t accepted = 0;
    bool exhausted = false;
    std::vector<Index> checkpoints;
  };
  // The quota of each part (by strategy weight, then part weight within its strategy) and its
  // weight in the whole mix, by which what short parts leave is shared again.
  struct Quotas {
    std::vector<std::uint64_t> quota;
    std::vector<std::uint64_t> hand_on;
  };
  // The weight of each strategy; throws std::invalid_argument for none or a bad one.
  static std::vector<std::uint64_t> StrategyWeights(const std::vector<SampleStrategy>& strategies);
  // Moves every part's set into sets_ (owner_ its strategy, counts_ a row per strategy) and
  // returns the parts' quotas of `samples`.
  Quotas TakeStrategies(std::vector<SampleStrategy> strategies, std::uint64_t samples);
  // parts_: what each part owns, its lookup index and permutation.
  void BuildParts(std::uint64_t seed);
  // Takes each part's quota, then shares what short parts leave among the others.
  void TakeQuotas(const Quotas& quotas);
  // Each part's first position in the sample, count_, and the strategies' counts.
  void CountTaken();
  // Up to `wanted` tuples of strategy s (walking on as needed); returns how many it has.
  std::uint64_t Take(std::size_t s, std::uint64_t wanted);
  // True when strategy s may give more tuples than it has taken so far.
  bool HasMore(std::size_t s) const;
  // True when index `index` of strategy s's set gives a tuple it owns (not an earlier strategy's,
  // not a repeat within a mapped set); the tuple goes to *tuple when given.
  bool Accepted(std::size_t s, Index index, Inputs* tuple = nullptr) const;

  std::uint64_t serial_ = 0;        // unique per Sample in this process
  std::vector<TupleSet> sets_;      // every part of every strategy, in order
  std::vector<std::size_t> owner_;  // the strategy of each part
  std::vector<Part> parts_;
  std::vector<StrategyCount> counts_;
  std::uint64_t count_ = 0;
};

}  // namespace ptovec::generator
