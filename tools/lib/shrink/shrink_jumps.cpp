// The far moves of `ptovec shrink`'s descent (JumpSimplerMoves, shrink_internal.hpp): the sign
// and unit moves, and the jump moves that replace every word at once by one of a few options.
#include <algorithm>
#include <array>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "ptovec/generator/cases.hpp"
#include "ptovec/generator/ops.hpp"
#include "ptovec/oracle/formats.hpp"
#include "ptovec/oracle/numeric.hpp"
#include "ptovec/tools/shrink.hpp"
#include "shrink/shrink_internal.hpp"
#include "shrink/shrink_move_set.hpp"

namespace ptovec::tools::shrink_internal {

namespace {

// The floating view of slot `i` that jump moves trade values through: its value field, or the
// whole word of a floating type with sign, exponent and fraction fields; nullopt otherwise.
std::optional<WordView> FloatingViewOf(const Case& c, std::size_t i) {
  const std::vector<WordView> views = ViewsOf(c, i);
  const WordView& view = views.back();
  const oracle::FormatInfo& f = oracle::Format(view.type);
  if (!f.IsFloating() || !f.HasSignExponentFraction()) return std::nullopt;
  return view;
}

// `k` with the floating view of every slot but `i` that holds a non-zero finite value other than
// +1 set to +1, or nullopt when there is none: when slot i is the value, its multipliers taken
// out (fpatr's quant scale and LReLU parameter, TQUANT's scale); when slot i is a multiplier,
// the value and the other multipliers at +1.
std::optional<Case> OthersAtUnit(const Case& k, std::size_t i) {
  Case out = k;
  for (std::size_t j = 0; j < k.op->slots.size(); ++j) {
    const std::optional<WordView> view = j == i ? std::nullopt : FloatingViewOf(k, j);
    if (!view) continue;
    const std::optional<OddParts> p = OddPartsOf(view->type, view->Get(k.in[j]));
    if (!p || (!p->negative && p->m == 1 && p->q == 0)) continue;
    if (const std::optional<Word> one = ExactCode(view->type, false, 1, 0)) {
      out.in[j] = view->Put(k.in[j], *one);
    }
  }
  if (out.in == k.in) return std::nullopt;
  return out;
}

// SignAndUnitMoves: each word (or value field) whose value is +/- m 2^q (m odd) as m and as 1 at
// every exponent, with the other sign (a failure seen on one sign is often seen on the other at
// a simpler value), and with either sign while every other floating word or field is +1
// (OthersAtUnit: the value moved while its multipliers are taken out). Tried with the jump
// moves: offered with the local ones, these many simpler cases that mostly pass would be judged
// before a failing local move at every step.
void SignAndUnitMoves(MoveSet& set) {
  const Case& c = set.From();
  ForEachOddView(c, [&](std::size_t i, const WordView& view, const OddParts& a) {
    const auto [lo, hi] = LeadingExponentRange(view.type);
    for (const std::uint64_t s : {std::uint64_t{1}, a.m}) {
      const int bits = BitWidth(s);
      for (int leading = lo; leading <= hi; ++leading) {
        for (const bool negative : {a.negative, !a.negative}) {
          const std::optional<Word> code = ExactCode(view.type, negative, s, leading - bits + 1);
          if (!code) continue;
          Case k = c;
          k.in[i] = view.Put(c.in[i], *code);
          if (negative != a.negative) set.Offer(k);
          if (const std::optional<Case> unit = OthersAtUnit(k, i)) set.Offer(*unit);
        }
      }
      if (a.m == 1) break;
    }
  });
}

// The options of slot i's own value (an integer, or its floating view): +/-1, 2, 0.5 (one
// significant bit, exponent 0 or 1 from it), and the word's own significand cut to 1 at its
// lowest and at its leading bit.
void AddUnitWords(const Case& c, std::size_t i, std::vector<Word>& words) {
  std::optional<WordView> own = FloatingViewOf(c, i);
  const oracle::FormatInfo& f = oracle::Format(c.op->slots[i].TypeFor(c.pair));
  if (!own && !f.IsFloating()) own = ViewsOf(c, i).front();  // an integer word
  if (!own) return;
  std::vector<std::pair<bool, int>> ones;
  for (const bool negative : {false, true}) {
    for (const int q : {0, 1, -1}) ones.emplace_back(negative, q);
  }
  if (const std::optional<OddParts> a = OddPartsOf(own->type, own->Get(c.in[i]))) {
    for (const bool negative : {a->negative, !a->negative}) {
      ones.emplace_back(negative, a->q);
      ones.emplace_back(negative, a->q + BitWidth(a->m) - 1);
    }
  }
  for (const auto& [negative, q] : ones) {
    if (const auto code = ExactCode(own->type, negative, 1, q)) {
      words.push_back(own->Put(c.in[i], *code));
    }
  }
}

// The options of slot i's floating view traded with another slot's: that slot's value, and the
// product of the two when exact.
void AddTradedWords(const Case& c, std::size_t i, std::vector<Word>& words) {
  const std::optional<WordView> view = FloatingViewOf(c, i);
  if (!view) return;
  const std::optional<OddParts> a = OddPartsOf(view->type, view->Get(c.in[i]));
  for (std::size_t j = 0; j < c.op->slots.size(); ++j) {
    const std::optional<WordView> other = j == i ? std::nullopt : FloatingViewOf(c, j);
    if (!other) continue;
    const std::optional<OddParts> b = OddPartsOf(other->type, other->Get(c.in[j]));
    if (!b) continue;
    if (const auto code = ExactCode(view->type, b->negative, b->m, b->q)) {
      words.push_back(view->Put(c.in[i], *code));
    }
    if (a && BitWidth(a->m) + BitWidth(b->m) <= 64) {
      if (const auto code =
              ExactCode(view->type, a->negative != b->negative, a->m * b->m, a->q + b->q)) {
        words.push_back(view->Put(c.in[i], *code));
      }
    }
  }
}

// The words JumpMoves tries in slot i, sorted, each once (but slot_values' as listed).
std::vector<Word> JumpWords(const Case& c, std::size_t i) {
  const oracle::FormatInfo& f = oracle::Format(c.op->slots[i].TypeFor(c.pair));
  std::vector<Word> words = c.op->slot_values && !f.IsFloating() && f.width <= 8
                                ? c.op->slot_values(c.pair, i)
                                : std::vector<Word>{};
  if (!words.empty()) return words;
  words = {c.in[i], 0};
  AddUnitWords(c, i, words);
  AddTradedWords(c, i, words);
  std::sort(words.begin(), words.end());
  words.erase(std::unique(words.begin(), words.end()), words.end());
  return words;
}

using JumpPart = std::array<unsigned, 3>;  // non-zero, significant bits, exponent distance
struct JumpOption {
  Word word;
  JumpPart part;
};

// Each slot's jump options with the part of the simplicity key each adds.
std::vector<std::vector<JumpOption>> JumpOptions(const Case& c) {
  const std::size_t n = c.op->slots.size();
  std::vector<std::vector<JumpOption>> options(n);
  for (std::size_t i = 0; i < n; ++i) {
    Case probe = c;
    for (const Word w : JumpWords(c, i)) {
      probe.in[i] = w;
      const WordKey key = KeyOfSlotWord(probe, i);
      options[i].push_back({w, {key.nonzero ? 1U : 0U, key.bits, key.distance}});
    }
  }
  return options;
}

// least[i]: the least part slots i.. can add (per component; a lower bound of the rest).
std::vector<JumpPart> LeastParts(const std::vector<std::vector<JumpOption>>& options) {
  const std::size_t n = options.size();
  std::vector<JumpPart> least(n + 1, JumpPart{0, 0, 0});
  for (std::size_t i = n; i-- > 0;) {
    JumpPart low{~0U, ~0U, ~0U};
    for (const JumpOption& o : options[i]) {
      for (std::size_t k = 0; k < 3; ++k) low[k] = std::min(low[k], o.part[k]);
    }
    for (std::size_t k = 0; k < 3; ++k) least[i][k] = least[i + 1][k] + low[k];
  }
  return least;
}

// JumpMoves: every word replaced at once by one of a few options, to reach failing cases far
// from `c` (see SimplerMoves in shrink.hpp). The options of a slot of at most 8 bits that
// OpDef::slot_values lists (fpatr's modes) are those values. Those of any other slot are its
// word; zero; its value (an integer, or its floating view) set
// to +/-1, 2 or 0.5 or cut to one significant bit (its lowest or its leading one, either sign);
// and, for a slot with a floating view, that view set to the value of another slot's view or to
// the product of the two (when exact). The product moves a multiplier from one slot to another
// (fpatr: LReLU's parameter into the quant scale, with relu_mode -> 0 and relu_param -> 0 in the
// same move); the plain value carries it (fpatr: a quant scale of a mode that keeps -0 into
// LReLU's parameter, pre_quant_mode -> 0). Combinations are walked slot by slot and cut as soon
// as their non-zero words, significant bits and exponent distance can no longer come below those
// of `c`; the rest go through MoveSet::Offer (domain and controls).
void JumpMoves(MoveSet& set) {
  const Case& c = set.From();
  const std::size_t n = c.op->slots.size();
  using Part = JumpPart;
  const std::vector<std::vector<JumpOption>> options = JumpOptions(c);
  const std::vector<Part> least = LeastParts(options);
  const Part own{set.Own().nonzero, set.Own().significant_bits, set.Own().exponent_distance};
  Case k = c;
  const auto walk = [&](const auto& self, std::size_t i, Part sum) -> void {
    const Part bound{sum[0] + least[i][0], sum[1] + least[i][1], sum[2] + least[i][2]};
    if (own < bound) return;  // every completion has as many or more of each: not simpler
    if (i == n) {
      if (k.in != c.in) set.Offer(k);
      return;
    }
    for (const JumpOption& o : options[i]) {
      k.in[i] = o.word;
      self(self, i + 1, Part{sum[0] + o.part[0], sum[1] + o.part[1], sum[2] + o.part[2]});
    }
    k.in[i] = c.in[i];
  };
  walk(walk, 0, Part{0, 0, 0});
}

}  // namespace

std::vector<Case> JumpSimplerMoves(const Case& c, const generator::ControlFilter& controls,
                                   const std::vector<SimplicityKey>& local_keys) {
  MoveSet set(c, controls);
  SignAndUnitMoves(set);
  JumpMoves(set);
  return set.Sorted(kJumpMovesLimit, local_keys);
}

}  // namespace ptovec::tools::shrink_internal
