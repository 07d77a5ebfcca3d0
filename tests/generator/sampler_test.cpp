// The bulk sampler and the strategy sets it draws from (tuple_set.hpp, sampler.hpp).
#include "ptovec/generator/sampler.hpp"

#include <gtest/gtest.h>

#include <map>
#include <set>

#include "ptovec/generator/domains.hpp"
#include "ptovec/generator/tuple_set.hpp"

namespace ptovec::generator {
namespace sampler_test {
namespace {

TEST(WordSet, MergesSortsAndIndexes) {
  const WordSet s = WordSet::Of({{10, 12}, {1, 3}, {4, 4}, {20, 20}, {11, 15}});
  ASSERT_EQ(s.intervals(), (std::vector<WordSet::Interval>{{1, 4}, {10, 15}, {20, 20}}));
  EXPECT_EQ(s.size(), 11u);
  EXPECT_EQ(s.at(0), 1u);
  EXPECT_EQ(s.at(3), 4u);
  EXPECT_EQ(s.at(4), 10u);
  EXPECT_EQ(s.at(10), 20u);
  for (std::uint64_t i = 0; i < s.size(); ++i) EXPECT_EQ(s.index_of(s.at(i)), i);
  EXPECT_TRUE(s.contains(13));
  EXPECT_FALSE(s.contains(9));
  EXPECT_FALSE(s.contains(21));
  EXPECT_FALSE(s.contains(0));
}

TEST(WordSet, ManyIntervalsIndexBothWays) {
  // Sets of many intervals of uneven lengths (with and without the bucket index of
  // BuildLookupIndex): every index maps to the word a plain walk over the intervals gives, and
  // back.
  for (const std::uint64_t seed : {1u, 2u, 3u}) {
    std::vector<WordSet::Interval> intervals;
    Word next = seed;
    for (int k = 0; k < 3000; ++k) {
      const Word length = (next * 2654435761u >> 7) % (k % 7 == 0 ? 5000 : 9) + 1;
      intervals.emplace_back(next, next + length - 1);
      next += length + 1 + (next % 13);
    }
    const WordSet set = WordSet::Of(intervals);
    WordSet indexed = set;
    indexed.BuildLookupIndex();
    EXPECT_TRUE(indexed == set);
    ASSERT_EQ(set.intervals().size(), intervals.size());
    std::uint64_t i = 0;
    for (const auto& [lo, hi] : intervals) {
      for (Word w = lo; w <= hi; ++w, ++i) {
        ASSERT_EQ(set.at(i), w) << i;
        ASSERT_EQ(indexed.at(i), w) << i;
        ASSERT_EQ(set.index_of(w), i);
      }
    }
    EXPECT_EQ(i, set.size());
    // contains() by the value index: every interval's ends, the words just outside them, and
    // beyond the last word.
    for (const auto& [lo, hi] : intervals) {
      for (const Word w : {lo - 1, lo, hi, hi + 1}) {
        ASSERT_EQ(indexed.contains(w), set.contains(w)) << w;
      }
      ASSERT_TRUE(indexed.contains(lo));
    }
    EXPECT_FALSE(indexed.contains(intervals.back().second + 1));
    EXPECT_FALSE(indexed.contains(~Word{0}));
    // The same intervals given in pieces out of order (a few sorted runs, merged; many runs,
    // sorted) make the same set.
    std::vector<WordSet::Interval> runs(intervals.begin() + 2000, intervals.end());
    runs.insert(runs.end(), intervals.begin() + 1000, intervals.begin() + 2000);
    runs.insert(runs.end(), intervals.begin(), intervals.begin() + 1000);
    EXPECT_TRUE(WordSet::Of(runs) == set);
    std::vector<WordSet::Interval> shuffled = intervals;
    for (std::size_t k = 0; k + 1 < shuffled.size(); k += 2)
      std::swap(shuffled[k], shuffled[k + 1]);
    EXPECT_TRUE(WordSet::Of(shuffled) == set);
    // A one-slot set of boxes looks words up in pipelined groups: the same words as at().
    TupleSet tuples(Boxes::Words(set));
    tuples.BuildLookupIndex();
    std::vector<Index> index;
    for (std::uint64_t k = 0; k < 1000; ++k) index.push_back((k * 7919 + seed) % set.size());
    std::vector<Inputs> got(index.size());
    tuples.AtMany(index.data(), index.size(), got.data());
    for (std::size_t k = 0; k < index.size(); ++k) {
      ASSERT_EQ(got[k], (Inputs{set.at(static_cast<std::uint64_t>(index[k])), 0, 0, 0})) << k;
    }
  }
  // The last index of a set whose size is a power of two.
  std::vector<WordSet::Interval> pairs;
  for (Word k = 0; k < 32; ++k) pairs.emplace_back(10 * k, 10 * k + 1);
  const WordSet even = WordSet::Of(pairs);
  ASSERT_EQ(even.size(), 64u);
  EXPECT_EQ(even.at(63), 311u);
  EXPECT_EQ(even.at(0), 0u);
}

TEST(WordSet, SetAlgebraIsExact) {
  const WordSet a = WordSet::Of({{0, 9}, {20, 29}});
  const WordSet b = WordSet::Of({{5, 24}, {28, 40}});
  EXPECT_EQ(a.Minus(b).intervals(), (std::vector<WordSet::Interval>{{0, 4}, {25, 27}}));
  EXPECT_EQ(a.Intersect(b).intervals(),
            (std::vector<WordSet::Interval>{{5, 9}, {20, 24}, {28, 29}}));
  EXPECT_EQ(a.Union(b).intervals(), (std::vector<WordSet::Interval>{{0, 40}}));
  EXPECT_TRUE(a.Intersects(b));
  EXPECT_FALSE(a.Intersects(WordSet::Range(10, 19)));
  // The whole 64-bit range but one word still has a size.
  EXPECT_EQ(AllWords(64).size(), ~std::uint64_t{0});
  EXPECT_EQ(S32Range(-2, 1).intervals(),
            (std::vector<WordSet::Interval>{{0, 1}, {0xFFFFFFFEU, 0xFFFFFFFFU}}));
  EXPECT_EQ(SignedRange(-1, 0).size(), 2u);
}

TEST(Fp32Sets, OrdinalRangesAndSigns) {
  // -2 .. 2 in value order: -2 ulp, -1 ulp, -0, +0, +1 ulp, +2 ulp.
  EXPECT_EQ(Fp32OrdinalRange(-3, 2).intervals(),
            (std::vector<WordSet::Interval>{{0, 2}, {0x80000000U, 0x80000002U}}));
  EXPECT_EQ(Fp32OrdinalRange(0x7F7FFFFE, 0x7F800005).intervals(),
            (std::vector<WordSet::Interval>{{0x7F7FFFFEU, 0x7F800000U}}));
  EXPECT_EQ(WithBothSigns(WordSet::Range(0x3F800000U, 0x3F800001U)).size(), 4u);
  EXPECT_EQ(Fp32FiniteWords().size(), 2u * 0x7F800000u);
}

TEST(Boxes, DifferenceIsExactOnASmallGrid) {
  const Boxes a = Boxes::Product({WordSet::Range(0, 5), WordSet::Range(0, 5)});
  const Boxes b = Boxes::Product({WordSet::Range(2, 3), WordSet::Of({{1, 1}, {4, 9}})});
  const Boxes d = a.Minus(b);
  EXPECT_EQ(d.size(), 36u - 2u * 3u);
  std::set<std::pair<Word, Word>> seen;
  for (Index i = 0; i < d.size(); ++i) {
    const Point p = d.at(i);
    EXPECT_TRUE(a.contains(p));
    EXPECT_FALSE(b.contains(p));
    EXPECT_EQ(d.index_of(p), i);
    seen.insert({p[0], p[1]});
  }
  EXPECT_EQ(seen.size(), 30u);
  EXPECT_THROW(Boxes({Box{{WordSet::Range(0, 3)}}, Box{{WordSet::Range(3, 4)}}}),
               std::invalid_argument);
}

// Minus subtracts from each box only the boxes of the other set it meets; the pieces and their
// order must be those of subtracting the other set's boxes one at a time from every piece.
// UnionWithRest gives what DisjointUnion gives for a rest made disjoint by Minus.
TEST(Boxes, MinusKeepsThePieceOrderAndUnionWithRestIsDisjointUnion) {
  const Boxes a(
      {Box{{WordSet::Range(0, 5), WordSet::Range(0, 5), WordSet::Points({7})}},
       Box{{WordSet::Range(10, 12), WordSet::Of({{0, 2}, {6, 8}}), WordSet::Points({7})}}});
  const std::vector<Box> other = {
      Box{{WordSet::Range(2, 3), WordSet::Of({{1, 1}, {4, 9}}), WordSet::Range(0, 9)}},
      Box{{WordSet::Range(100, 200), WordSet::Range(0, 9), WordSet::Range(0, 9)}},  // meets none
      Box{{WordSet::Of({{0, 0}, {11, 11}}), WordSet::Range(0, 1), WordSet::Points({7})}},
      Box{{WordSet::Range(4, 4), WordSet::Range(0, 9), WordSet::Points({8})}},  // slot 2 apart
  };
  const Boxes d = a.Minus(Boxes(other));
  Boxes one_by_one = a;
  for (const Box& b : other) one_by_one = one_by_one.Minus(Boxes({b}));
  ASSERT_EQ(d.size(), one_by_one.size());
  EXPECT_EQ(d.size(), Index{36 - 2 * 3 - 2 + 18 - 2});
  EXPECT_EQ(d.boxes().size(), one_by_one.boxes().size());
  for (Index i = 0; i < d.size(); ++i)
    ASSERT_EQ(d.at(i), one_by_one.at(i)) << static_cast<std::uint64_t>(i);

  const Boxes earlier(other);
  const Boxes rest = a.Minus(earlier);
  const Boxes fast = earlier.UnionWithRest(rest);
  const Boxes checked = Boxes::DisjointUnion(earlier, rest);
  ASSERT_EQ(fast.size(), checked.size());
  for (Index i = 0; i < fast.size(); ++i) {
    ASSERT_EQ(fast.at(i), checked.at(i)) << static_cast<std::uint64_t>(i);
    EXPECT_EQ(fast.index_of(fast.at(i)), i);
  }
  // One slot, one box each: merged into one box, as DisjointUnion does.
  const Boxes w = Boxes::Words(WordSet::Range(1, 3));
  const Boxes merged = w.UnionWithRest(Boxes::Words(WordSet::Range(0, 9)).Minus(w));
  ASSERT_EQ(merged.boxes().size(), 1u);
  EXPECT_EQ(merged.boxes()[0].slots[0].intervals(), (std::vector<WordSet::Interval>{{0, 9}}));
}

TEST(Boxes, DisjointUnionOfTwoOneSlotSetsIsOneBox) {
  const Boxes a = Boxes::Words(WordSet::Of({{1, 3}, {20, 30}}));
  const Boxes b = Boxes::Words(WordSet::Of({{5, 9}}));
  const Boxes u = Boxes::DisjointUnion(a, b);
  ASSERT_EQ(u.boxes().size(), 1u);
  EXPECT_EQ(u.boxes()[0].slots[0].intervals(),
            (std::vector<WordSet::Interval>{{1, 3}, {5, 9}, {20, 30}}));
  EXPECT_EQ(u.size(), Index{3 + 5 + 11});
  EXPECT_THROW(Boxes::DisjointUnion(a, Boxes::Words(WordSet::Of({{9, 21}}))),
               std::invalid_argument);
  // Two slots: the boxes side by side, as the list form gives them.
  const Boxes p = Boxes::Product({WordSet::Range(0, 1), WordSet::Range(0, 1)});
  const Boxes q = Boxes::Product({WordSet::Range(2, 3), WordSet::Range(0, 1)});
  EXPECT_EQ(Boxes::DisjointUnion(p, q).boxes().size(), 2u);
  EXPECT_THROW(Boxes::DisjointUnion(p, p), std::invalid_argument);
}

TEST(IndexPermutation, IsABijectionForEverySmallSize) {
  for (std::uint64_t n : {1ull, 2ull, 3ull, 4ull, 5ull, 17ull, 255ull, 256ull, 1000ull, 4097ull}) {
    const IndexPermutation pi(n, 12345);
    std::vector<bool> hit(n);
    for (std::uint64_t i = 0; i < n; ++i) {
      const auto j = static_cast<std::uint64_t>(pi(i));
      ASSERT_LT(j, n);
      ASSERT_FALSE(hit[j]) << "n " << n << " i " << i;
      hit[j] = true;
    }
  }
  // Different keys give different orders; a 2^100 space still permutes.
  EXPECT_NE(IndexPermutation(1000, 1)(0), IndexPermutation(1000, 2)(0));
  const Index big = Index{1} << 100;
  const IndexPermutation wide(big, 7);
  EXPECT_LT(wide(big - 1), big);
  EXPECT_NE(wide(0), wide(1));
}

std::vector<Inputs> All(const Sample& s) {
  std::vector<Inputs> out(s.count());
  s.Fill(0, s.count(), out.data());
  return out;
}

TEST(Sample, QuotasFollowWeightsAndSmallStrategiesHandOn) {
  // 2 words (weight 1), 1000 words (weight 1), overlapping the first: 10 samples -> 5 + 5, but
  // the first has only 2: 2 + 8.
  const std::vector<SampleStrategy> mix = {{"two", 1, OneSlot(WordSet::Range(5, 6))},
                                           {"thousand", 1, OneSlot(WordSet::Range(0, 999))}};
  const Sample s(mix, 1, 10);
  ASSERT_EQ(s.count(), 10u);
  ASSERT_EQ(s.counts().size(), 2u);
  EXPECT_EQ(s.counts()[0].tuples, 2u);
  EXPECT_EQ(s.counts()[0].available, 2u);
  EXPECT_EQ(s.counts()[1].tuples, 8u);
  EXPECT_EQ(s.counts()[1].available, 998u);  // 5 and 6 belong to "two"
  const std::vector<Inputs> all = All(s);
  EXPECT_EQ((std::set<Word>{all[0][0], all[1][0]}), (std::set<Word>{5, 6}));
  std::set<Word> distinct;
  for (const Inputs& t : all) distinct.insert(t[0]);
  EXPECT_EQ(distinct.size(), 10u);
  // Asking for more than exists gives all of it, once.
  const Sample whole(mix, 1, 5000);
  EXPECT_EQ(whole.count(), 1000u);
  // Remainders go to the largest fractional parts: 10 by 1:1:1 is 4, 3, 3.
  const Sample thirds({{"a", 1, OneSlot(WordSet::Range(0, 99))},
                       {"b", 1, OneSlot(WordSet::Range(100, 199))},
                       {"c", 1, OneSlot(WordSet::Range(200, 299))}},
                      3, 10);
  EXPECT_EQ(thirds.counts()[0].tuples, 4u);
  EXPECT_EQ(thirds.counts()[1].tuples, 3u);
  EXPECT_EQ(thirds.counts()[2].tuples, 3u);
}

TEST(Sample, WhatAShortStrategyLeavesIsSharedByWeight) {
  // 120 samples by 1:1:2 are 30, 30, 60; "few" has 6, so its 24 go 8 to "a" and 16 to "b"
  // (1:2), not all to "a", the next in order. Parts of one strategy weigh their share of it.
  const Sample s({{"few", 1, OneSlot(WordSet::Range(0, 5))},
                  {"a", 1, OneSlot(WordSet::Range(100, 999))},
                  {"b", 2, OneSlot(WordSet::Range(1000, 9999))}},
                 3, 120);
  EXPECT_EQ(s.counts()[0].tuples, 6u);
  EXPECT_EQ(s.counts()[1].tuples, 38u);
  EXPECT_EQ(s.counts()[2].tuples, 76u);
  // When "a" runs out too (10 tuples), "b" takes all that is left.
  const Sample t({{"few", 1, OneSlot(WordSet::Range(0, 5))},
                  {"a", 1, OneSlot(WordSet::Range(100, 109))},
                  {"b", 2, OneSlot(WordSet::Range(1000, 9999))}},
                 3, 120);
  EXPECT_EQ(t.counts()[0].tuples, 6u);
  EXPECT_EQ(t.counts()[1].tuples, 10u);
  EXPECT_EQ(t.counts()[2].tuples, 104u);
  // A strategy of two parts 1:3 hands on as two strategies of weights 1/4 and 3/4 of its own.
  const Sample u(
      {{"few", 2, OneSlot(WordSet::Range(0, 1))},
       {"split",
        2,
        {{1, OneSlot(WordSet::Range(100, 999))}, {3, OneSlot(WordSet::Range(1000, 9999))}}}},
      3, 400);
  EXPECT_EQ(u.counts()[0].tuples, 2u);
  EXPECT_EQ(u.count(), 400u);
  std::uint64_t low = 0;
  const std::vector<Inputs> all = All(u);
  for (const Inputs& in : all) low += (in[0] >= 100 && in[0] <= 999) ? 1 : 0;
  // Quotas 50 and 150; the 198 "few" leaves split 2 : 6, 49.5 and 148.5, the remainder to the
  // earlier on the tie: 50 + 50 and 150 + 148.
  EXPECT_EQ(low, 100u);
}

TEST(Sample, IsDeterministicAndAnyRangeMatchesTheWhole) {
  const std::vector<SampleStrategy> mix = {{"specials", 1, OneSlot(Fp32Specials())},
                                           {"uniform", 3, OneSlot(Fp32UniformBits())}};
  const std::vector<Inputs> a = All(Sample(mix, 42, 5000));
  EXPECT_EQ(a, All(Sample(mix, 42, 5000)));
  EXPECT_NE(a, All(Sample(mix, 43, 5000)));
  const Sample s(mix, 42, 5000);
  for (const std::uint64_t begin : {0ull, 1ull, 21ull, 22ull, 2047ull, 4990ull}) {
    std::vector<Inputs> part(10);
    s.Fill(begin, 10, part.data());
    for (std::size_t k = 0; k < part.size(); ++k) EXPECT_EQ(part[k], a[begin + k]);
  }
  // All 22 specials are taken (quota 1250), the uniform strategy owns none of them.
  std::set<Inputs> distinct(a.begin(), a.end());
  EXPECT_EQ(distinct.size(), a.size());
  EXPECT_EQ(s.counts()[0].tuples, 22u);
  for (std::size_t i = 22; i < a.size(); ++i) {
    EXPECT_FALSE(Fp32Specials().contains(a[i][0])) << i;
  }
}

// A mapped strategy that is not injective (x -> x / 2): the sampler keeps one index per tuple.
TEST(Sample, MappedRepeatsAreSkipped) {
  const TupleSet halves = TupleSet::Mapped(
      Boxes::Words(WordSet::Range(0, 99)),
      [](const Point& a) {
        return Inputs{a[0] / 2, 0, 0, 0};
      },
      [](const Inputs& t, std::vector<Point>& out) {
        out.push_back(Point{2 * t[0]});
        out.push_back(Point{2 * t[0] + 1});
      });
  EXPECT_TRUE(halves.contains(Inputs{49, 0, 0, 0}));
  EXPECT_FALSE(halves.contains(Inputs{50, 0, 0, 0}));
  EXPECT_TRUE(halves.IsCanonical(6, Inputs{3, 0, 0, 0}));
  EXPECT_FALSE(halves.IsCanonical(7, Inputs{3, 0, 0, 0}));
  const Sample s({{"halves", 1, halves}, {"more", 1, OneSlot(WordSet::Range(0, 999))}}, 9, 200);
  EXPECT_EQ(s.counts()[0].tuples, 50u);  // 100 indices, 50 tuples; the rest handed on
  EXPECT_EQ(s.counts()[0].available, 50u);
  const std::vector<Inputs> all = All(s);
  std::set<Inputs> distinct(all.begin(), all.end());
  EXPECT_EQ(distinct.size(), 200u);
  for (std::size_t i = 50; i < all.size(); ++i) EXPECT_GE(all[i][0], 50u);
}

// Every strategy of every sampled pair: the tuples it builds are in the op's domain, its own
// contains() finds them, and the sample of 3000 has no repeated tuple and fills its count.
TEST(Strategies, EveryStrategyTupleIsInTheDomainAndFoundByContains) {
  for (const OpDef& op : AllOps()) {
    for (const TypePair& pair : op.default_suite_pairs) {
      const std::vector<SampleStrategy> strategies = op.strategies(pair);
      for (const SampleStrategy& s : strategies) {
        for (const WeightedSet& part : s.parts) {
          const Index size = part.set.size();
          ASSERT_GT(size, 0u) << op.name << " " << s.name;
          const IndexPermutation pi(size, 5);
          for (Index k = 0; k < 200 && k < size; ++k) {
            const Index i = pi(k);
            const Inputs t = part.set.at(i);
            ASSERT_FALSE(op.check_domain(pair, t).has_value())
                << op.name << " " << s.name << ": " << *op.check_domain(pair, t);
            ASSERT_TRUE(part.set.contains(t))
                << op.name << " " << oracle::Format(pair.src).name << "->"
                << oracle::Format(pair.dst).name << " " << s.name << " index "
                << static_cast<std::uint64_t>(i) << std::hex << " tuple " << t[0] << " " << t[1]
                << " " << t[2] << " " << t[3];
          }
        }
      }
    }
  }
}

// Strategy order: a tuple belongs to the first strategy (part) that holds it, so a part after a
// broader one would own nothing. For parts given as boxes the sampler takes the exact
// difference (a part inside earlier ones just hands its quota on, e.g. FP32 binade ends after
// the power-of-two neighbours); a walked part (mapped, or after a mapped one) skips tuples as
// it goes, so of 200 of its tuples at least 5% must be its own (neither held by an earlier part
// nor a repeat within a mapped set), or sampling it would be slow.
TEST(Strategies, EveryPartOwnsAShareOfItsTuples) {
  for (const OpDef& op : AllOps()) {
    for (const TypePair& pair : op.default_suite_pairs) {
      std::vector<TupleSet> sets;
      std::vector<std::string> names;
      for (const SampleStrategy& s : op.strategies(pair)) {
        for (const WeightedSet& p : s.parts) {
          sets.push_back(p.set);
          names.push_back(s.name);
        }
      }
      bool mapped_before = false;
      for (std::size_t k = 0; k < sets.size(); ++k) {
        const bool walked = mapped_before || !sets[k].is_boxes();
        mapped_before = mapped_before || !sets[k].is_boxes();
        if (!walked) continue;
        const IndexPermutation pi(sets[k].size(), 3);
        int own = 0;
        int tried = 0;
        for (Index j = 0; j < 200 && j < sets[k].size(); ++j, ++tried) {
          const Index i = pi(j);
          const Inputs t = sets[k].at(i);
          bool earlier = false;
          for (std::size_t e = 0; e < k && !earlier; ++e) earlier = sets[e].contains(t);
          if (!earlier && sets[k].IsCanonical(i, t)) ++own;
        }
        EXPECT_GE(own * 20, tried) << op.name << " " << oracle::Format(pair.src).name << "->"
                                   << oracle::Format(pair.dst).name << " part " << k << " ("
                                   << names[k] << "): " << own << " of " << tried;
      }
    }
  }
}

}  // namespace
}  // namespace sampler_test
}  // namespace ptovec::generator
