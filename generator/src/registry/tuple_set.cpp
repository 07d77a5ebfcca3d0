// Tuple sets (tuple_set.hpp): boxes of WordSets, their disjoint unions and set algebra, and
// TupleSet (boxes, or axes mapped through an assemble function).
#include "ptovec/generator/tuple_set.hpp"

#include <algorithm>
#include <cstdint>
#include <limits>
#include <stdexcept>

namespace ptovec::generator {

namespace {

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

}  // namespace ptovec::generator
