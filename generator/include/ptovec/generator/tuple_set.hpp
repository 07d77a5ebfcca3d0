// Finite sets of input tuples with an index: the data every sampling strategy is defined by.
// (Their coordinates are WordSets, word_set.hpp.)
//
// A strategy is one TupleSet. Its index space 0 .. size()-1 maps one to one onto its tuples
// (at() is injective), and contains() tells membership. Both the RapidCheck generator of a
// strategy (a uniform index, then at(); domains.hpp StrategyGen) and the bulk sampler (a keyed
// permutation of the index space; sampler.hpp) derive from the same set, so a strategy is
// written once.
//
// Two kinds:
//  - boxes: a disjoint union of products of WordSets (one WordSet per input slot). Difference,
//    intersection and membership are exact interval arithmetic, so overlaps between strategies
//    are removed structurally (no de-duplication memory).
//  - mapped: boxes of "axes" (the strategy's own choices) and an assemble function that builds the
//    tuple from them, plus an invert function listing the axis tuples that could have built a
//    given tuple (contains() checks each by assembling it again). assemble must be injective on
//    the axes; tests check at/invert round trips.
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <initializer_list>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "ptovec/generator/ops.hpp"
#include "ptovec/generator/word_set.hpp"

namespace ptovec::generator {

/// An index into a tuple set: up to 128 bits (a product of slots can exceed 2^64, e.g. every
/// affine tuple: 2^32 values x 2^18 scales x 2^17 offsets).
__extension__ typedef unsigned __int128 Index;

/// The most coordinates of a point of a Box: input slots, or a mapped strategy's axes.
inline constexpr std::size_t kMaxAxes = 8;
/// A point of a box: one word per coordinate (unused coordinates 0).
using Point = std::array<Word, kMaxAxes>;

/// The first kMaxSlots coordinates of a point as an input tuple, and back.
Inputs InputsOf(const Point& p);
Point PointOf(const Inputs& in);

/// A product of one WordSet per coordinate (coordinates beyond `slots` are the word 0).
struct Box {
  std::vector<WordSet> slots;
  Index size() const;
  /// Mixed radix, coordinate 0 most significant.
  Point at(Index i) const;
  bool contains(const Point& t) const;
  Index index_of(const Point& t) const;
};

/// A disjoint union of boxes of the same slot count.
class Boxes {
 public:
  Boxes() = default;
  /// Throws std::invalid_argument when two boxes overlap or slot counts differ; empty boxes are
  /// dropped.
  explicit Boxes(std::vector<Box> boxes);
  /// A one-slot set.
  static Boxes Words(WordSet words);
  /// The product of one set per slot.
  static Boxes Product(std::vector<WordSet> slots);
  /// The disjoint union of several Boxes (throws std::invalid_argument when they overlap).
  static Boxes DisjointUnion(const std::vector<Boxes>& parts);
  /// The same for two. Two one-box sets of one slot make one box of the union of their words
  /// (so membership is one search, and nothing is copied but the words).
  static Boxes DisjointUnion(const Boxes& a, const Boxes& b);
  /// DisjointUnion(*this, rest) for a `rest` disjoint from this set by construction (the result
  /// of some set's Minus(*this)), without the overlap check (which costs a comparison of every
  /// pair of boxes). Passing a `rest` that overlaps this set is a mistake this does not catch.
  Boxes UnionWithRest(const Boxes& rest) const;

  Index size() const { return prefix_.empty() ? 0 : prefix_.back(); }
  std::size_t slot_count() const { return slots_; }
  Point at(Index i) const;
  bool contains(const Point& t) const;
  Index index_of(const Point& t) const;
  /// WordSet::BuildLookupIndex() of every slot of every box.
  void BuildLookupIndex();
  /// this \ other (exact; a disjoint union of boxes again).
  Boxes Minus(const Boxes& other) const;
  bool Intersects(const Boxes& other) const;
  const std::vector<Box>& boxes() const { return boxes_; }

 private:
  // The constructor, with the pairwise overlap check or without it (for results disjoint by
  // construction).
  Boxes(std::vector<Box> boxes, bool check_overlap);
  // The box holding a point, or boxes_.size(): by the slot-0 index when slot 0 separates the
  // boxes, else by trying each.
  std::size_t Find(const Point& t) const;

  std::vector<Box> boxes_;
  std::vector<Index> prefix_;
  std::size_t slots_ = 0;
  // When the boxes' slot-0 sets are disjoint: every slot-0 interval with its box, sorted.
  std::vector<std::pair<WordSet::Interval, std::size_t>> slot0_;
};

/// One sampling strategy's set: boxes of input tuples, or boxes of axes mapped through assemble.
class TupleSet {
 public:
  /// Appends to `out` every axis point that assemble might map to `t` (a superset is fine; each
  /// is checked by assembling it again).
  using InvertFn = std::function<void(const Inputs& t, std::vector<Point>& out)>;
  using AssembleFn = std::function<Inputs(const Point& axes)>;

  TupleSet() = default;
  /// A set given directly as boxes of input tuples (at most kMaxSlots coordinates).
  TupleSet(Boxes boxes);  // NOLINT: implicit, the common case
  /// assemble(axes.at(i)) for i < axes.size(). assemble need not be injective, but invert must
  /// list every axis point that assembles to a given tuple: the sampler keeps an index only when
  /// no smaller index gives the same tuple (IsCanonical), so no tuple repeats.
  /// `superset` (boxes of input tuples holding every tuple assemble builds; empty: none) is a
  /// quick filter for contains() and IsCanonical().
  static TupleSet Mapped(Boxes axes, AssembleFn assemble, InvertFn invert, Boxes superset = {});

  /// Size of the index space (for a mapped set an upper bound of its distinct tuples).
  Index size() const { return axes_.size(); }
  Inputs at(Index i) const { return assemble_ ? assemble_(axes_.at(i)) : InputsOf(axes_.at(i)); }
  /// out[k] = at(index[k]) for k < n; for a one-slot set of boxes the lookups are pipelined
  /// (memory latency overlapped), the results the same.
  void AtMany(const Index* index, std::size_t n, Inputs* out) const;
  /// WordSet::BuildLookupIndex() of every set of the boxes (or axes).
  void BuildLookupIndex();
  bool contains(const Inputs& t) const;
  /// True unless a smaller index gives the same tuple t = at(i) (always true for boxes).
  bool IsCanonical(Index i, const Inputs& t) const;
  bool is_boxes() const { return !assemble_; }
  /// The boxes (is_boxes()) or the axes (mapped).
  const Boxes& boxes() const { return axes_; }

 private:
  Boxes axes_;
  AssembleFn assemble_;
  InvertFn invert_;
  Boxes superset_;
};

}  // namespace ptovec::generator
