// Word sets (word_set.hpp): WordSet's interval algebra and index, and the FP32 and integer word
// sets strategies are built from.
#include "ptovec/generator/word_set.hpp"

#include <algorithm>
#include <cstdint>
#include <stdexcept>

#include "ptovec/generator/domains.hpp"

namespace ptovec::generator {

namespace {

constexpr std::uint64_t kMaxSize = ~std::uint64_t{0};

std::uint64_t CheckedAdd(std::uint64_t a, std::uint64_t b) {
  if (b > kMaxSize - a) throw std::overflow_error("word set of 2^64 or more");
  return a + b;
}

}  // namespace

// ---- WordSet ----

namespace {

// Sorts `v`; a vector made of a few sorted runs (the usual case: sets built piece by piece in
// order) is merged run by run instead.
template <typename T>
void SortRuns(std::vector<T>& v) {
  std::vector<std::size_t> ends;
  for (std::size_t k = 1; k < v.size(); ++k) {
    if (v[k] < v[k - 1]) {
      ends.push_back(k);
      if (ends.size() > 8) {
        std::sort(v.begin(), v.end());
        return;
      }
    }
  }
  ends.push_back(v.size());
  for (std::size_t r = 0; r + 1 < ends.size(); ++r) {  // runs before ends[r] are merged already
    std::inplace_merge(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(ends[r]),
                       v.begin() + static_cast<std::ptrdiff_t>(ends[r + 1]));
  }
}

}  // namespace

WordSet WordSet::Of(std::vector<Interval> intervals) {
  SortRuns(intervals);
  WordSet s;
  for (const auto& [lo, hi] : intervals) {
    if (lo > hi) continue;
    if (!s.intervals_.empty() && (s.intervals_.back().second == std::numeric_limits<Word>::max() ||
                                  lo <= s.intervals_.back().second + 1)) {
      s.intervals_.back().second = std::max(s.intervals_.back().second, hi);
    } else {
      s.intervals_.emplace_back(lo, hi);
    }
  }
  std::uint64_t total = 0;
  s.prefix_.reserve(s.intervals_.size());
  for (const auto& [lo, hi] : s.intervals_) {
    if (hi - lo == kMaxSize) throw std::overflow_error("word set of 2^64 words");
    total = CheckedAdd(total, hi - lo + 1);
    s.prefix_.push_back(total);
  }
  return s;
}

void WordSet::BuildLookupIndex() {
  // About one bucket per interval: the bucket of index i narrows at()'s search to the intervals
  // that overlap it (usually one or two).
  const std::size_t n = intervals_.size();
  if (n <= 16 || n >= (std::size_t{1} << 31) || !bucket_.empty()) return;
  const std::uint64_t total = size();
  while ((total >> shift_) > 2 * n) ++shift_;
  const std::uint64_t buckets = (total >> shift_) + 1;
  bucket_.resize(static_cast<std::size_t>(buckets) + 1);
  std::size_t k = 0;
  for (std::uint64_t b = 0; b < buckets; ++b) {
    while (k + 1 < n && prefix_[k] <= (b << shift_)) ++k;  // holds index b << shift_
    bucket_[static_cast<std::size_t>(b)] = static_cast<std::uint32_t>(k);
  }
  bucket_[static_cast<std::size_t>(buckets)] = static_cast<std::uint32_t>(n - 1);
  entries_.resize(n);
  for (std::size_t e = 0; e < n; ++e)
    entries_[e] = {e == 0 ? 0 : prefix_[e - 1], intervals_[e].first};
  // By word value, for contains(): vbucket_[b] is the first interval ending at or after word
  // b << vshift_ (about one bucket per interval again; the last bucket's end is n - 1).
  const Word top = intervals_.back().second;
  while ((top >> vshift_) > 2 * n) ++vshift_;
  const std::size_t vbuckets = static_cast<std::size_t>(top >> vshift_) + 1;
  vbucket_.resize(vbuckets + 1);
  std::size_t v = 0;
  for (std::size_t b = 0; b < vbuckets; ++b) {
    const Word first_word = static_cast<Word>(b) << vshift_;
    while (v < n && intervals_[v].second < first_word) ++v;
    vbucket_[b] = static_cast<std::uint32_t>(v);
  }
  vbucket_[vbuckets] = static_cast<std::uint32_t>(n - 1);
}

WordSet WordSet::Range(Word lo, Word hi) { return Of({{lo, hi}}); }

WordSet WordSet::Points(std::initializer_list<Word> words) {
  return Points(std::vector<Word>(words));
}

WordSet WordSet::Points(const std::vector<Word>& words) {
  std::vector<Interval> intervals;
  intervals.reserve(words.size());
  for (Word w : words) intervals.emplace_back(w, w);
  return Of(std::move(intervals));
}

Word WordSet::at(std::uint64_t i) const {
  if (!bucket_.empty()) {  // the interval holding i is between those of the bucket ends
    const auto b = static_cast<std::size_t>(i >> shift_);
    std::size_t k = bucket_[b];
    const std::size_t last = bucket_[b + 1];
    while (k < last && entries_[k + 1].start <= i) ++k;
    return entries_[k].lo + (i - entries_[k].start);
  }
  const auto k = static_cast<std::size_t>(std::upper_bound(prefix_.begin(), prefix_.end(), i) -
                                          prefix_.begin());
  const std::uint64_t before = k == 0 ? 0 : prefix_[k - 1];
  return intervals_[k].first + (i - before);
}

bool WordSet::contains(Word w) const {
  if (!vbucket_.empty()) {  // the interval that may hold w is between those of w's bucket ends
    if (w > intervals_.back().second) return false;
    const auto b = static_cast<std::size_t>(w >> vshift_);
    std::size_t k = vbucket_[b];
    const std::size_t end = vbucket_[b + 1];
    while (k < end && intervals_[k].second < w) ++k;
    return intervals_[k].first <= w;
  }
  const auto it = std::upper_bound(intervals_.begin(), intervals_.end(), Interval{w, ~Word{0}});
  return it != intervals_.begin() && std::prev(it)->second >= w;
}

std::uint64_t WordSet::index_of(Word w) const {
  const auto it = std::upper_bound(intervals_.begin(), intervals_.end(), Interval{w, ~Word{0}});
  const auto k = static_cast<std::size_t>(it - intervals_.begin()) - 1;
  return (k == 0 ? 0 : prefix_[k - 1]) + (w - intervals_[k].first);
}

WordSet WordSet::Union(const WordSet& other) const {
  std::vector<Interval> all = intervals_;
  all.insert(all.end(), other.intervals_.begin(), other.intervals_.end());
  return Of(std::move(all));
}

WordSet WordSet::Intersect(const WordSet& other) const {
  std::vector<Interval> out;
  std::size_t i = 0;
  std::size_t j = 0;
  while (i < intervals_.size() && j < other.intervals_.size()) {
    const Word lo = std::max(intervals_[i].first, other.intervals_[j].first);
    const Word hi = std::min(intervals_[i].second, other.intervals_[j].second);
    if (lo <= hi) out.emplace_back(lo, hi);
    if (intervals_[i].second < other.intervals_[j].second) {
      ++i;
    } else {
      ++j;
    }
  }
  return Of(std::move(out));
}

bool WordSet::Intersects(const WordSet& other) const {
  std::size_t i = 0;
  std::size_t j = 0;
  while (i < intervals_.size() && j < other.intervals_.size()) {
    if (std::max(intervals_[i].first, other.intervals_[j].first) <=
        std::min(intervals_[i].second, other.intervals_[j].second)) {
      return true;
    }
    if (intervals_[i].second < other.intervals_[j].second) {
      ++i;
    } else {
      ++j;
    }
  }
  return false;
}

WordSet WordSet::Minus(const WordSet& other) const {
  std::vector<Interval> out;
  std::size_t j = 0;
  for (auto [lo, hi] : intervals_) {
    while (j < other.intervals_.size() && other.intervals_[j].second < lo) ++j;
    std::size_t k = j;
    bool done = false;
    while (k < other.intervals_.size() && other.intervals_[k].first <= hi) {
      const auto [olo, ohi] = other.intervals_[k];
      if (olo > lo) out.emplace_back(lo, olo - 1);
      if (ohi >= hi) {
        done = true;
        break;
      }
      lo = ohi + 1;
      ++k;
    }
    if (!done) out.emplace_back(lo, hi);
  }
  return Of(std::move(out));
}

// ---- FP32 words ----

WordSet Fp32OrdinalRange(std::int64_t lo, std::int64_t hi) {
  std::vector<WordSet::Interval> out;
  AppendFp32OrdinalRange(lo, hi, out);
  return WordSet::Of(std::move(out));
}

void AppendFp32OrdinalRange(std::int64_t lo, std::int64_t hi, std::vector<WordSet::Interval>& out) {
  constexpr std::int64_t kInf = 0x7F800000;
  lo = std::max<std::int64_t>(lo, -kInf - 1);
  hi = std::min<std::int64_t>(hi, kInf);
  if (lo > hi) return;
  if (hi >= 0)
    out.emplace_back(Fp32FromOrdinal(std::max<std::int64_t>(lo, 0)), Fp32FromOrdinal(hi));
  if (lo < 0) {
    // Negative ordinals -1 (-0) .. -n map to words 0x80000000 .. 0x80000000 + n - 1, reversed.
    const std::int64_t top = std::min<std::int64_t>(hi, -1);
    out.emplace_back(Fp32FromOrdinal(top), Fp32FromOrdinal(lo));
  }
}

WordSet WithBothSigns(const WordSet& words) {
  std::vector<WordSet::Interval> out = words.intervals();
  for (const auto& [lo, hi] : words.intervals()) {
    // Flipping bit 31 maps an interval within one sign half onto an interval.
    if ((lo >> 31) == (hi >> 31)) {
      out.emplace_back(lo ^ 0x80000000U, hi ^ 0x80000000U);
    } else {
      out.emplace_back(lo ^ 0x80000000U, 0xFFFFFFFFU);
      out.emplace_back(0, hi ^ 0x80000000U);
    }
  }
  return WordSet::Of(std::move(out));
}

WordSet Fp32FiniteWords() {
  return WordSet::Of({{0x00000000U, 0x7F7FFFFFU}, {0x80000000U, 0xFF7FFFFFU}});
}

WordSet AllWords(unsigned width) {
  return WordSet::Range(0, width >= 64 ? ~Word{0} - 1 : (Word{1} << width) - 1);
}

WordSet SignedRange(std::int64_t lo, std::int64_t hi) {
  if (lo > hi) return {};
  const auto word = [](std::int64_t v) { return static_cast<Word>(v); };
  if (lo >= 0 || hi < 0) return WordSet::Range(word(lo), word(hi));
  return WordSet::Of({{0, word(hi)}, {word(lo), ~Word{0}}});
}

WordSet S32Range(std::int64_t lo, std::int64_t hi) {
  lo = std::max<std::int64_t>(lo, INT32_MIN);
  hi = std::min<std::int64_t>(hi, INT32_MAX);
  if (lo > hi) return {};
  const auto word = [](std::int64_t v) {
    return static_cast<Word>(static_cast<std::uint32_t>(static_cast<std::int32_t>(v)));
  };
  if (lo >= 0 || hi < 0) return WordSet::Range(word(lo), word(hi));
  return WordSet::Of({{0, word(hi)}, {word(lo), 0xFFFFFFFFU}});
}

}  // namespace ptovec::generator
