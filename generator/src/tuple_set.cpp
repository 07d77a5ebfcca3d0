#include "ptovec/generator/tuple_set.hpp"

#include <algorithm>
#include <cstdint>
#include <limits>
#include <stdexcept>

#include "ptovec/generator/domains.hpp"

namespace ptovec::generator {

namespace {

constexpr std::uint64_t kMaxSize = ~std::uint64_t{0};

std::uint64_t CheckedAdd(std::uint64_t a, std::uint64_t b) {
  if (b > kMaxSize - a) throw std::overflow_error("word set of 2^64 or more");
  return a + b;
}

constexpr Index kMaxIndex = ~Index{0};

Index CheckedMul(Index a, Index b) {
  if (a != 0 && b > kMaxIndex / a) throw std::overflow_error("tuple set of 2^128 or more");
  return a * b;
}

Index CheckedAdd(Index a, Index b) {
  if (b > kMaxIndex - a) throw std::overflow_error("tuple set of 2^128 or more");
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

// ---- Box ----

Inputs InputsOf(const Point& p) {
  Inputs in{};
  for (std::size_t k = 0; k < in.size(); ++k) in[k] = p[k];
  return in;
}

Point PointOf(const Inputs& in) {
  Point p{};
  for (std::size_t k = 0; k < in.size(); ++k) p[k] = in[k];
  return p;
}

Index Box::size() const {
  Index n = 1;
  for (const WordSet& s : slots) n = CheckedMul(n, s.size());
  return slots.empty() ? 0 : n;
}

Point Box::at(Index i) const {
  Point t{};
  if (slots.size() == 1) {
    t[0] = slots[0].at(static_cast<std::uint64_t>(i));
    return t;
  }
  for (std::size_t k = slots.size(); k-- > 0;) {
    const std::uint64_t n = slots[k].size();
    if ((i >> 64) == 0) {  // 64-bit division when it fits
      const auto i64 = static_cast<std::uint64_t>(i);
      t[k] = slots[k].at(i64 % n);
      i = i64 / n;
    } else {
      t[k] = slots[k].at(static_cast<std::uint64_t>(i % n));
      i /= n;
    }
  }
  return t;
}

bool Box::contains(const Point& t) const {
  for (std::size_t k = 0; k < slots.size(); ++k) {
    if (!slots[k].contains(t[k])) return false;
  }
  for (std::size_t k = slots.size(); k < t.size(); ++k) {
    if (t[k] != 0) return false;
  }
  return true;
}

Index Box::index_of(const Point& t) const {
  Index i = 0;
  for (std::size_t k = 0; k < slots.size(); ++k) i = i * slots[k].size() + slots[k].index_of(t[k]);
  return i;
}

namespace {

bool BoxesIntersect(const Box& a, const Box& b) {
  // The slots of few intervals first (a mode, a parameter word): two disjoint boxes usually
  // differ there, and the large value sets are then never walked.
  constexpr std::size_t kSmall = 8;
  const auto small = [&](std::size_t k) {
    return a.slots[k].intervals().size() + b.slots[k].intervals().size() <= kSmall;
  };
  for (const bool pass_small : {true, false}) {
    for (std::size_t k = 0; k < a.slots.size(); ++k) {
      if (small(k) == pass_small && !a.slots[k].Intersects(b.slots[k])) return false;
    }
  }
  return true;
}

// a \ b as disjoint boxes: for each slot k, the part that agrees with b on slots < k and leaves
// b on slot k.
void BoxMinus(const Box& a, const Box& b, std::vector<Box>& out) {
  if (!BoxesIntersect(a, b)) {
    out.push_back(a);
    return;
  }
  // Piece k: slots before k in both (a's ∩ b's), slot k in a only (a's \ b's), slots after k
  // a's; each intersection is made once, and none for the last slot.
  const std::size_t n = a.slots.size();
  std::vector<WordSet> both;
  for (std::size_t k = 0; k < n; ++k) {
    WordSet only = a.slots[k].Minus(b.slots[k]);
    if (!only.empty()) {
      Box piece;
      piece.slots.reserve(n);
      piece.slots.insert(piece.slots.end(), both.begin(), both.end());
      piece.slots.push_back(std::move(only));
      piece.slots.insert(piece.slots.end(), a.slots.begin() + static_cast<std::ptrdiff_t>(k + 1),
                         a.slots.end());
      out.push_back(std::move(piece));
    }
    if (k + 1 < n) both.push_back(a.slots[k].Intersect(b.slots[k]));
  }
}

}  // namespace

// ---- Boxes ----

Boxes::Boxes(std::vector<Box> boxes) : Boxes(std::move(boxes), true) {}

Boxes::Boxes(std::vector<Box> boxes, bool check_overlap) {
  for (Box& b : boxes) {
    if (b.size() == 0) continue;
    if (boxes_.empty()) {
      slots_ = b.slots.size();
      if (slots_ > kMaxAxes) throw std::invalid_argument("Boxes: more than kMaxAxes coordinates");
    } else if (b.slots.size() != slots_) {
      throw std::invalid_argument("Boxes: boxes with different slot counts");
    }
    prefix_.push_back(CheckedAdd(prefix_.empty() ? 0 : prefix_.back(), b.size()));
    boxes_.push_back(std::move(b));
  }
  // The slot-0 index, when slot 0 alone separates the boxes (then they are disjoint).
  // Each box's intervals are sorted already: a few boxes' runs are merged one by one, many
  // boxes' are sorted once (the same order: no two entries are equal). (One box needs no index:
  // Find() tries it directly.)
  constexpr std::size_t kMergedBoxes = 8;
  if (boxes_.size() > 1) {
    for (std::size_t k = 0; k < boxes_.size(); ++k) {
      const auto middle = static_cast<std::ptrdiff_t>(slot0_.size());
      for (const WordSet::Interval& interval : boxes_[k].slots[0].intervals()) {
        slot0_.emplace_back(interval, k);
      }
      if (boxes_.size() <= kMergedBoxes)
        std::inplace_merge(slot0_.begin(), slot0_.begin() + middle, slot0_.end());
    }
    if (boxes_.size() > kMergedBoxes) std::sort(slot0_.begin(), slot0_.end());
  }
  bool separated = true;
  for (std::size_t k = 1; k < slot0_.size() && separated; ++k) {
    separated = slot0_[k].first.first > slot0_[k - 1].first.second;
  }
  if (!separated) {
    slot0_.clear();
    for (std::size_t a = 0; check_overlap && a < boxes_.size(); ++a) {
      for (std::size_t b = 0; b < a; ++b) {
        if (BoxesIntersect(boxes_[a], boxes_[b])) {
          throw std::invalid_argument("Boxes: overlapping boxes");
        }
      }
    }
  }
}

std::size_t Boxes::Find(const Point& t) const {
  if (!slot0_.empty()) {
    const auto it = std::upper_bound(slot0_.begin(), slot0_.end(),
                                     std::pair{WordSet::Interval{t[0], ~Word{0}}, ~std::size_t{0}});
    if (it == slot0_.begin()) return boxes_.size();
    const auto& [interval, k] = *std::prev(it);
    if (interval.second < t[0] || !boxes_[k].contains(t)) return boxes_.size();
    return k;
  }
  for (std::size_t k = 0; k < boxes_.size(); ++k) {
    if (boxes_[k].contains(t)) return k;
  }
  return boxes_.size();
}

Boxes Boxes::Words(WordSet words) {
  std::vector<Box> one(1);
  one[0].slots.push_back(std::move(words));
  return Boxes(std::move(one));
}

Boxes Boxes::Product(std::vector<WordSet> slots) { return Boxes({Box{std::move(slots)}}); }

Boxes Boxes::DisjointUnion(const std::vector<Boxes>& parts) {
  std::vector<Box> all;
  for (const Boxes& p : parts) all.insert(all.end(), p.boxes_.begin(), p.boxes_.end());
  return Boxes(std::move(all));
}

Boxes Boxes::DisjointUnion(const Boxes& a, const Boxes& b) {
  if (a.boxes_.size() != 1 || b.boxes_.size() != 1 || a.slots_ != 1 || b.slots_ != 1) {
    return DisjointUnion(std::vector<Boxes>{a, b});
  }
  const WordSet& x = a.boxes_[0].slots[0];
  const WordSet& y = b.boxes_[0].slots[0];
  if (x.Intersects(y)) throw std::invalid_argument("Boxes: overlapping boxes");
  return Words(x.Union(y));
}

Boxes Boxes::UnionWithRest(const Boxes& rest) const {
  if (boxes_.size() == 1 && rest.boxes_.size() == 1 && slots_ == 1 && rest.slots_ == 1)
    return DisjointUnion(*this, rest);
  std::vector<Box> all = boxes_;
  all.insert(all.end(), rest.boxes_.begin(), rest.boxes_.end());
  return Boxes(std::move(all), false);
}

Point Boxes::at(Index i) const {
  if (boxes_.size() == 1) return boxes_[0].at(i);
  const auto k = static_cast<std::size_t>(std::upper_bound(prefix_.begin(), prefix_.end(), i) -
                                          prefix_.begin());
  return boxes_[k].at(i - (k == 0 ? 0 : prefix_[k - 1]));
}

void Boxes::BuildLookupIndex() {
  for (Box& b : boxes_) {
    for (WordSet& w : b.slots) w.BuildLookupIndex();
  }
}

bool Boxes::contains(const Point& t) const { return Find(t) < boxes_.size(); }

Index Boxes::index_of(const Point& t) const {
  const std::size_t k = Find(t);
  if (k == boxes_.size()) throw std::invalid_argument("Boxes::index_of: tuple not in the set");
  return (k == 0 ? 0 : prefix_[k - 1]) + boxes_[k].index_of(t);
}

Boxes Boxes::Minus(const Boxes& other) const {
  if (boxes_.empty() || other.boxes_.empty()) return *this;
  if (other.slots_ != slots_) throw std::invalid_argument("Boxes::Minus: slot counts differ");
  // Box by box: a piece of box a can meet only the boxes of `other` that a meets, so those alone
  // are subtracted, in order (the pieces, and their order, are those of subtracting every box of
  // `other` from every piece in turn), and a box that meets none is copied once.
  std::vector<Box> pieces;
  std::vector<const Box*> meeting;
  for (const Box& a : boxes_) {
    meeting.clear();
    for (const Box& b : other.boxes_) {
      if (BoxesIntersect(a, b)) meeting.push_back(&b);
    }
    if (meeting.empty()) {
      pieces.push_back(a);
      continue;
    }
    std::vector<Box> current;
    BoxMinus(a, *meeting.front(), current);
    for (std::size_t i = 1; i < meeting.size(); ++i) {
      std::vector<Box> next;
      for (const Box& p : current) BoxMinus(p, *meeting[i], next);
      current = std::move(next);
    }
    for (Box& p : current) pieces.push_back(std::move(p));
  }
  // Disjoint by construction: one box's pieces differ on their first slot outside b, and the
  // boxes they come from are disjoint.
  return Boxes(std::move(pieces), false);
}

bool Boxes::Intersects(const Boxes& other) const {
  for (const Box& a : boxes_) {
    for (const Box& b : other.boxes_) {
      if (BoxesIntersect(a, b)) return true;
    }
  }
  return false;
}

// ---- TupleSet ----

TupleSet::TupleSet(Boxes boxes) : axes_(std::move(boxes)) {
  if (axes_.slot_count() > kMaxSlots) {
    throw std::invalid_argument("TupleSet: boxes of more coordinates than input slots");
  }
}

TupleSet TupleSet::Mapped(Boxes axes, AssembleFn assemble, InvertFn invert, Boxes superset) {
  TupleSet s;
  s.axes_ = std::move(axes);
  s.assemble_ = std::move(assemble);
  s.invert_ = std::move(invert);
  s.superset_ = std::move(superset);
  return s;
}

void TupleSet::BuildLookupIndex() {
  axes_.BuildLookupIndex();
  superset_.BuildLookupIndex();
}

void TupleSet::AtMany(const Index* index, std::size_t n, Inputs* out) const {
  if (assemble_ || axes_.boxes().size() != 1 || axes_.slot_count() != 1) {
    for (std::size_t k = 0; k < n; ++k) out[k] = at(index[k]);
    return;
  }
  // One slot of one box: three passes over a group, so each word's bucket and interval are
  // fetched from memory while the others' are (at() is a chain of dependent loads otherwise).
  const WordSet& words = axes_.boxes()[0].slots[0];
  constexpr std::size_t kGroup = 64;
  for (std::size_t g = 0; g < n; g += kGroup) {
    const std::size_t m = std::min(kGroup, n - g);
    for (std::size_t k = 0; k < m; ++k) words.Prefetch(static_cast<std::uint64_t>(index[g + k]), 0);
    for (std::size_t k = 0; k < m; ++k) words.Prefetch(static_cast<std::uint64_t>(index[g + k]), 1);
    for (std::size_t k = 0; k < m; ++k) {
      out[g + k] = Inputs{words.at(static_cast<std::uint64_t>(index[g + k])), 0, 0, 0};
    }
  }
}

bool TupleSet::contains(const Inputs& t) const {
  if (!assemble_) return axes_.contains(PointOf(t));
  if (superset_.size() != 0 && !superset_.contains(PointOf(t))) return false;
  thread_local std::vector<Point> candidates;
  candidates.clear();
  invert_(t, candidates);
  for (const Point& a : candidates) {
    if (axes_.contains(a) && assemble_(a) == t) return true;
  }
  return false;
}

bool TupleSet::IsCanonical(Index i, const Inputs& t) const {
  if (!assemble_) return true;
  if (superset_.size() != 0 && !superset_.contains(PointOf(t))) return true;  // not even close
  thread_local std::vector<Point> candidates;
  candidates.clear();
  invert_(t, candidates);
  for (const Point& a : candidates) {
    if (axes_.contains(a) && assemble_(a) == t && axes_.index_of(a) < i) return false;
  }
  return true;
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
