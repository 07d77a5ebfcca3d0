// Sets of words: sorted, disjoint closed intervals with an index (WordSet), the coordinates of
// the tuple sets of tuple_set.hpp; and the word sets strategies are built from (FP32 words by
// value-order ordinal, both signs, finite FP32 words, all words of a width, signed ranges).
#pragma once

#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <utility>
#include <vector>

#include "ptovec/oracle/numeric.hpp"

namespace ptovec::generator {

using oracle::Word;

/// A set of words: sorted, disjoint, non-adjacent closed intervals [lo, hi].
class WordSet {
 public:
  using Interval = std::pair<Word, Word>;

  WordSet() = default;
  /// The union of `intervals` (any order, overlapping or adjacent; each lo <= hi).
  static WordSet Of(std::vector<Interval> intervals);
  /// lo .. hi inclusive (empty when lo > hi).
  static WordSet Range(Word lo, Word hi);
  /// The given words.
  static WordSet Points(std::initializer_list<Word> words);
  static WordSet Points(const std::vector<Word>& words);

  /// Number of words. Throws std::overflow_error from Of() when it would not fit 64 bits.
  std::uint64_t size() const { return prefix_.empty() ? 0 : prefix_.back(); }
  bool empty() const { return intervals_.empty(); }
  /// The i-th word in increasing order (i < size()).
  Word at(std::uint64_t i) const;
  /// Builds the indexes that make at() and contains() of a set of many intervals bucket lookups
  /// instead of binary searches (the sampler does this for the sets it reads; results are the
  /// same).
  void BuildLookupIndex();
  /// Hints for a pipelined at(i) of a large set (no effect on results): Prefetch(i, 0) asks for
  /// i's bucket, Prefetch(i, 1) (once that arrived) for its interval.
  void Prefetch(std::uint64_t i, int stage) const {
    if (bucket_.empty()) return;
    const auto b = static_cast<std::size_t>(i >> shift_);
    if (stage == 0) {
      __builtin_prefetch(&bucket_[b]);
    } else {
      __builtin_prefetch(&entries_[bucket_[b]]);
    }
  }
  bool contains(Word w) const;
  /// The position of `w` in increasing order; w must be contained.
  std::uint64_t index_of(Word w) const;
  WordSet Union(const WordSet& other) const;
  /// True when the two sets share a word (no allocation).
  bool Intersects(const WordSet& other) const;
  WordSet Intersect(const WordSet& other) const;
  WordSet Minus(const WordSet& other) const;
  const std::vector<Interval>& intervals() const { return intervals_; }
  friend bool operator==(const WordSet& a, const WordSet& b) {
    return a.intervals_ == b.intervals_;
  }

 private:
  std::vector<Interval> intervals_;
  std::vector<std::uint64_t> prefix_;  // prefix_[k]: words in intervals 0..k
  // BuildLookupIndex(), for sets of many intervals: a coarse index so at() searches a few
  // intervals, not all: bucket_[b] is the interval holding word index b << shift_.
  std::vector<std::uint32_t> bucket_;
  unsigned shift_ = 0;
  // With the bucket index: each interval's first word index and first word, side by side, so
  // at() touches one bucket and (usually) one cache line of entries.
  struct Entry {
    std::uint64_t start = 0;
    Word lo = 0;
  };
  std::vector<Entry> entries_;
  std::vector<std::uint32_t> vbucket_;  // by word value (see BuildLookupIndex)
  unsigned vshift_ = 0;
};

// ---- FP32 words as sets ----

/// The FP32 words whose value-order ordinals (domains.hpp Fp32Ordinal) lie in lo .. hi,
/// clamped to -Inf .. +Inf.
WordSet Fp32OrdinalRange(std::int64_t lo, std::int64_t hi);
/// Fp32OrdinalRange(lo, hi)'s intervals appended to `out` (for building a union in one go).
void AppendFp32OrdinalRange(std::int64_t lo, std::int64_t hi, std::vector<WordSet::Interval>& out);
/// `words` and their negations (sign bit flipped).
WordSet WithBothSigns(const WordSet& words);
/// Every finite FP32 word (both signs).
WordSet Fp32FiniteWords();
/// Every word of `width` bits (64: every word but all ones, so the size fits 64 bits).
WordSet AllWords(unsigned width);
/// The value of a point on a SignedRange axis: the 64-bit word read as two's complement.
inline std::int64_t SignedAxisValue(Word axis) { return static_cast<std::int64_t>(axis); }
/// lo .. hi as two's-complement 64-bit words (an axis of signed values).
WordSet SignedRange(std::int64_t lo, std::int64_t hi);
/// lo .. hi as S32 element-width words (values of a signed 32-bit slot).
WordSet S32Range(std::int64_t lo, std::int64_t hi);

}  // namespace ptovec::generator
