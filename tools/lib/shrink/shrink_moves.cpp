// The moves of `ptovec shrink`'s descent toward the simplest case (SimplerMoves, shrink.hpp): the
// candidate set (MoveSet: strictly simpler, in the domain, under a kept control), the local moves
// that keep the rounding situation, and the sign, unit and jump moves that reach far cases.
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

namespace ptovec::tools {

namespace shrink_internal {

namespace {

// The candidate moves of one case: those strictly simpler than it, inside the op's domain and
// under a control the filter accepts, sorted simplest first.
class MoveSet {
 public:
  MoveSet(const Case& c, const generator::ControlFilter& controls)
      : c_(c),
        controls_(controls),
        own_(SimplicityOf(c)),
        all_controls_(c.op->uses_controls ? controls.ControlsOf(*c.op)
                                          : std::vector<generator::NumericExecutionControl>{}) {}

  const Case& From() const { return c_; }
  const SimplicityKey& Own() const { return own_; }

  // Offers `k` and, when its inputs alone are simpler (fewer non-zero words, significant bits
  // or exponent distance), `k` under every other selected control: a simpler value can fail
  // under another mode only.
  void Offer(const Case& k) {
    // Nothing simpler, under this control or another: skipped before the (costlier) domain check.
    const SimplicityKey key = SimplicityOf(k);
    const bool inputs_simpler = InputsPart(key) < InputsPart(own_);
    if (!(key < own_) && (all_controls_.empty() || !inputs_simpler)) return;
    if (k.op->check_domain(k.pair, k.in)) return;
    OfferOne(k);
    if (all_controls_.empty() || !inputs_simpler) return;
    for (const generator::NumericExecutionControl control : all_controls_) {
      if (control == k.control) continue;
      Case other = k;
      other.control = control;
      OfferOne(other);
    }
  }

  // The case itself under every simpler control the filter selects (the mode order's moves: any
  // simpler mode, not only the neighbours, and Sat off).
  void OfferControls() {
    for (const generator::NumericExecutionControl control : all_controls_) {
      if (control == c_.control) continue;
      Case k = c_;
      k.control = control;
      OfferOne(k);
    }
  }

  // The offered cases but those whose keys are in `judged` (sorted), simplest first, at most
  // `limit`.
  // `keys`, when given, receives the keys of the returned cases (in the same order).
  std::vector<Case> Sorted(std::size_t limit, const std::vector<SimplicityKey>& judged = {},
                           std::vector<SimplicityKey>* keys = nullptr) const {
    // Sorted by index (a key and a case are some 200 bytes each: moving them costs more than
    // comparing); equal keys are one case, kept once.
    std::vector<std::uint32_t> order(moves_.size());
    for (std::size_t i = 0; i < order.size(); ++i) order[i] = static_cast<std::uint32_t>(i);
    std::sort(order.begin(), order.end(),
              [&](std::uint32_t a, std::uint32_t b) { return moves_[a].first < moves_[b].first; });
    std::vector<Case> out;
    out.reserve(std::min(limit, order.size()));
    for (std::size_t i = 0; i < order.size() && out.size() < limit; ++i) {
      const SimplicityKey& key = moves_[order[i]].first;
      if (i > 0 && key == moves_[order[i - 1]].first) continue;
      if (std::binary_search(judged.begin(), judged.end(), key)) continue;
      out.push_back(moves_[order[i]].second);
      if (keys != nullptr) keys->push_back(key);
    }
    return out;
  }

 private:
  static std::tuple<unsigned, unsigned, unsigned> InputsPart(const SimplicityKey& k) {
    return {k.nonzero, k.significant_bits, k.exponent_distance};
  }
  void OfferOne(const Case& k) {
    if (c_.op->uses_controls && !controls_.Accepts(k.control)) return;
    SimplicityKey key = SimplicityOf(k);
    if (!(key < own_)) return;
    if (k.op->check_control && k.op->check_control(k.pair, k.in, k.control)) return;
    moves_.emplace_back(key, k);
  }

  const Case& c_;
  const generator::ControlFilter& controls_;
  SimplicityKey own_;
  std::vector<generator::NumericExecutionControl> all_controls_;
  std::vector<std::pair<SimplicityKey, Case>> moves_;
};

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

// The values a slot of at most 8 bits takes in the pair's domain (OpDef::slot_values), or every
// value of its width.
std::vector<Word> SmallSlotValues(const Case& c, std::size_t i, unsigned width) {
  std::vector<Word> values;
  if (c.op->slot_values) values = c.op->slot_values(c.pair, i);
  if (values.empty()) {
    for (Word v = 0; v < (Word{1} << width); ++v) values.push_back(v);
  }
  return values;
}

// LocalMoves: the moves near `c` (see SimplerMoves in shrink.hpp).
void LocalMoves(MoveSet& set) {
  const Case& c = set.From();
  const auto offer = [&](const Case& k) { set.Offer(k); };
  for (std::size_t i = 0; i < c.op->slots.size(); ++i) {
    for (const WordView& view : ViewsOf(c, i)) {
      const oracle::TileDataType type = view.type;
      const oracle::FormatInfo& f = oracle::Format(type);
      if (f.IsFloating() && !f.HasSignExponentFraction()) continue;
      const Word word = view.Get(c.in[i]);
      const oracle::FiniteDecomposition d = f.IsFloating()
                                                ? oracle::TileNumericFiniteDecomposition(type, word)
                                                : oracle::FiniteDecomposition{};
      std::uint64_t m = 0;
      bool negative = false;
      if (f.IsFloating()) {
        if (!d.available) continue;
        m = static_cast<std::uint64_t>(d.significand);
        negative = d.negative || (word & f.SignBit()) != 0;
      } else {
        const WordKey w = KeyOfWord(type, word);
        negative = w.negative;
        m = negative ? oracle::LowBits(Word{0} - word, f.width) : word;
        if (negative && m == 0) m = Word{1} << (f.width - 1);
      }
      if (m == 0) continue;
      m >>= std::countr_zero(m);
      // Simpler significands: m itself (another binade), its top bits, its top and lowest set
      // bits (the sticky bit kept), 2^a + 1 (a tie or sticky bit a places below the leading
      // one), 1.
      std::vector<std::uint64_t> significands{m, 1};
      const int length = BitWidth(m);
      for (int j = 1; j < length; ++j) {
        const std::uint64_t top = m >> j;
        significands.push_back(top >> std::countr_zero(top));
        significands.push_back((top << j) | 1);
        significands.push_back((std::uint64_t{1} << j) | 1);
      }
      std::sort(significands.begin(), significands.end());
      significands.erase(std::unique(significands.begin(), significands.end()), significands.end());
      const auto [lo, hi] = LeadingExponentRange(type);
      for (const std::uint64_t s : significands) {
        const int bits = BitWidth(s);
        for (int leading = lo; leading <= hi; ++leading) {
          const std::optional<Word> code = ExactCode(type, negative, s, leading - bits + 1);
          if (!code || *code == word) continue;
          Case k = c;
          k.in[i] = view.Put(c.in[i], *code);
          offer(k);
        }
      }
    }
  }
  // Two words at once, one binade up and the other down by as many (m_i 2^(q_i + d), m_j 2^(q_j
  // - d)): a product of the two, as TQUANT's value x scale, keeps its value and its rounding.
  for (std::size_t i = 0; i < c.op->slots.size(); ++i) {
    for (const WordView& va : ViewsOf(c, i)) {
      const std::optional<OddParts> a = OddPartsOf(va.type, va.Get(c.in[i]));
      if (!a) continue;
      for (std::size_t j = i + 1; j < c.op->slots.size(); ++j) {
        for (const WordView& vb : ViewsOf(c, j)) {
          const std::optional<OddParts> b = OddPartsOf(vb.type, vb.Get(c.in[j]));
          if (!b) continue;
          for (int d = -320; d <= 320; ++d) {
            if (d == 0) continue;
            const std::optional<Word> wi = ExactCode(va.type, a->negative, a->m, a->q + d);
            if (!wi) continue;
            const std::optional<Word> wj = ExactCode(vb.type, b->negative, b->m, b->q - d);
            if (!wj) continue;
            Case k = c;
            k.in[i] = va.Put(c.in[i], *wi);
            k.in[j] = vb.Put(c.in[j], *wj);
            offer(k);
          }
        }
      }
    }
  }
  // A word some binades down or up while a small unsigned slot (a shift amount) moves by as
  // many: m 2^(q + d) >> (s + d) keeps the dropped bits of m 2^q >> s, so a rounding situation
  // can reach its simplest shift (1) in one move.
  for (std::size_t i = 0; i < c.op->slots.size(); ++i) {
    for (const WordView& va : ViewsOf(c, i)) {
      const std::optional<OddParts> a = OddPartsOf(va.type, va.Get(c.in[i]));
      if (!a) continue;
      for (std::size_t j = 0; j < c.op->slots.size(); ++j) {
        const oracle::FormatInfo& fj = oracle::Format(c.op->slots[j].TypeFor(c.pair));
        if (j == i || fj.kind != oracle::FormatKind::UnsignedInteger || fj.width > 8) continue;
        const auto s = static_cast<int>(oracle::LowBits(c.in[j], fj.width));
        for (int d = -s; d <= 64 && s + d < (1 << fj.width); ++d) {
          if (d == 0) continue;
          const std::optional<Word> wi = ExactCode(va.type, a->negative, a->m, a->q + d);
          if (!wi) continue;
          Case k = c;
          k.in[i] = va.Put(c.in[i], *wi);
          k.in[j] = static_cast<Word>(s + d);
          offer(k);
        }
      }
    }
  }
  // One word made simpler (a small slot, such as a mode, to any simpler value; any word to
  // zero) with other non-zero words zeroed where the op's domain then requires it: fpatr's
  // relu_mode 2 -> 0 takes relu_param to 0 in the same move, and a pre_quant_mode that reads no
  // quant parameter takes quant_param to 0 (each word alone would leave the domain). Every
  // subset of the other non-zero words is tried and check_domain (in `offer`) keeps the legal
  // ones, unless the check refuses the new value with the same line whether the other words are
  // kept or all zeroed (the value itself is outside the domain: an illegal mode).
  for (std::size_t i = 0; i < c.op->slots.size(); ++i) {
    const oracle::TileDataType type = c.op->slots[i].TypeFor(c.pair);
    const oracle::FormatInfo& f = oracle::Format(type);
    const WordKey current = KeyOfSlotWord(c, i);
    const auto word_part = [](const WordKey& w) {
      return std::make_tuple(w.nonzero, w.bits, w.distance);
    };
    std::vector<Word> values;
    if (!f.IsFloating() && f.width <= 8) {
      for (const Word v : SmallSlotValues(c, i, f.width)) {
        if (word_part(KeyOfWord(type, v)) < word_part(current)) values.push_back(v);
      }
    } else if (current.nonzero) {
      values.push_back(0);
    }
    std::vector<std::size_t> others;
    for (std::size_t j = 0; j < c.op->slots.size(); ++j) {
      if (j != i && c.in[j] != 0) others.push_back(j);
    }
    const std::size_t all = (std::size_t{1} << others.size()) - 1;
    const auto with = [&](Word v, std::size_t subset) {
      Case k = c;
      k.in[i] = v;
      for (std::size_t b = 0; b < others.size(); ++b) {
        if ((subset >> b) & 1) k.in[others[b]] = 0;
      }
      return k;
    };
    for (const Word v : values) {
      const Case alone = with(v, 0);
      const std::optional<std::string> refused = c.op->check_domain(alone.pair, alone.in);
      if (!refused) {
        offer(alone);
        continue;
      }
      if (others.empty()) continue;
      const Case zeroed = with(v, all);
      if (c.op->check_domain(zeroed.pair, zeroed.in) == refused) continue;
      for (std::size_t subset = 1; subset <= all; ++subset) {
        offer(with(v, subset));
      }
    }
  }
  for (const Case& k : Drain(ShrinkCase(c))) offer(k);
}

// SignAndUnitMoves: each word (or value field) whose value is +/- m 2^q (m odd) as m and as 1 at
// every exponent, with the other sign (a failure seen on one sign is often seen on the other at
// a simpler value), and with either sign while every other floating word or field is +1
// (OthersAtUnit: the value moved while its multipliers are taken out). Tried with the jump
// moves: offered with the local ones, these many simpler cases that mostly pass would be judged
// before a failing local move at every step.
void SignAndUnitMoves(MoveSet& set) {
  const Case& c = set.From();
  for (std::size_t i = 0; i < c.op->slots.size(); ++i) {
    for (const WordView& view : ViewsOf(c, i)) {
      const std::optional<OddParts> a = OddPartsOf(view.type, view.Get(c.in[i]));
      if (!a) continue;
      const auto [lo, hi] = LeadingExponentRange(view.type);
      for (const std::uint64_t s : {std::uint64_t{1}, a->m}) {
        const int bits = BitWidth(s);
        for (int leading = lo; leading <= hi; ++leading) {
          for (const bool negative : {a->negative, !a->negative}) {
            const std::optional<Word> code = ExactCode(view.type, negative, s, leading - bits + 1);
            if (!code) continue;
            Case k = c;
            k.in[i] = view.Put(c.in[i], *code);
            if (negative != a->negative) set.Offer(k);
            if (const std::optional<Case> unit = OthersAtUnit(k, i)) set.Offer(*unit);
          }
        }
        if (a->m == 1) break;
      }
    }
  }
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
  using Part = std::array<unsigned, 3>;  // non-zero, significant bits, exponent distance
  struct Option {
    Word word;
    Part part;
  };
  std::vector<std::vector<Option>> options(n);
  for (std::size_t i = 0; i < n; ++i) {
    const oracle::TileDataType type = c.op->slots[i].TypeFor(c.pair);
    const oracle::FormatInfo& f = oracle::Format(type);
    std::vector<Word> words = c.op->slot_values && !f.IsFloating() && f.width <= 8
                                  ? c.op->slot_values(c.pair, i)
                                  : std::vector<Word>{};
    if (words.empty()) {
      words = {c.in[i], 0};
      std::optional<WordView> own = FloatingViewOf(c, i);
      if (!own && !f.IsFloating()) own = ViewsOf(c, i).front();  // an integer word
      if (own) {
        // The simplest values: +/-1, 2, 0.5 (one significant bit, exponent 0 or 1 from it), and
        // the word's own significand cut to 1 at its lowest and at its leading bit.
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
      if (const std::optional<WordView> view = FloatingViewOf(c, i)) {
        const std::optional<OddParts> a = OddPartsOf(view->type, view->Get(c.in[i]));
        for (std::size_t j = 0; j < n; ++j) {
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
      std::sort(words.begin(), words.end());
      words.erase(std::unique(words.begin(), words.end()), words.end());
    }
    Case probe = c;
    for (const Word w : words) {
      probe.in[i] = w;
      const WordKey key = KeyOfSlotWord(probe, i);
      options[i].push_back({w, {key.nonzero ? 1U : 0U, key.bits, key.distance}});
    }
  }
  // least[i]: the least part slots i.. can add (per component; a lower bound of the rest).
  std::vector<Part> least(n + 1, Part{0, 0, 0});
  for (std::size_t i = n; i-- > 0;) {
    Part low{~0U, ~0U, ~0U};
    for (const Option& o : options[i]) {
      for (std::size_t k = 0; k < 3; ++k) low[k] = std::min(low[k], o.part[k]);
    }
    for (std::size_t k = 0; k < 3; ++k) least[i][k] = least[i + 1][k] + low[k];
  }
  const Part own{set.Own().nonzero, set.Own().significant_bits, set.Own().exponent_distance};
  Case k = c;
  const auto walk = [&](const auto& self, std::size_t i, Part sum) -> void {
    const Part bound{sum[0] + least[i][0], sum[1] + least[i][1], sum[2] + least[i][2]};
    if (own < bound) return;  // every completion has as many or more of each: not simpler
    if (i == n) {
      if (k.in != c.in) set.Offer(k);
      return;
    }
    for (const Option& o : options[i]) {
      k.in[i] = o.word;
      self(self, i + 1, Part{sum[0] + o.part[0], sum[1] + o.part[1], sum[2] + o.part[2]});
    }
    k.in[i] = c.in[i];
  };
  walk(walk, 0, Part{0, 0, 0});
}

}  // namespace

std::vector<Case> LocalSimplerMoves(const Case& c, const generator::ControlFilter& controls,
                                    std::vector<SimplicityKey>& keys) {
  MoveSet set(c, controls);
  set.OfferControls();
  LocalMoves(set);
  keys.clear();
  return set.Sorted(kLocalMovesLimit, {}, &keys);
}

std::vector<Case> JumpSimplerMoves(const Case& c, const generator::ControlFilter& controls,
                                   const std::vector<SimplicityKey>& local_keys) {
  MoveSet set(c, controls);
  SignAndUnitMoves(set);
  JumpMoves(set);
  return set.Sorted(kJumpMovesLimit, local_keys);
}

}  // namespace shrink_internal

using shrink_internal::JumpSimplerMoves;
using shrink_internal::LocalSimplerMoves;

std::vector<Case> SimplerMoves(const Case& c, const generator::ControlFilter& controls) {
  std::vector<SimplicityKey> local_keys;
  std::vector<Case> moves = LocalSimplerMoves(c, controls, local_keys);
  const std::vector<Case> jumps = JumpSimplerMoves(c, controls, local_keys);
  moves.insert(moves.end(), jumps.begin(), jumps.end());
  return moves;
}

}  // namespace ptovec::tools
