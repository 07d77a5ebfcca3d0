// The moves of `ptovec shrink`'s descent toward the simplest case (SimplerMoves, shrink.hpp): the
// local moves that keep the rounding situation (the sign, unit and jump moves that reach far
// cases are in shrink_jumps.cpp; the candidate set, MoveSet, in shrink_move_set.hpp).
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

namespace ptovec::tools {

namespace shrink_internal {

namespace {

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

// `m` (odd) and the simpler significands near it: m itself (another binade), its top bits, its
// top and lowest set bits (the sticky bit kept), 2^a + 1 (a tie or sticky bit a places below the
// leading one), 1; sorted, each once.
std::vector<std::uint64_t> SimplerSignificands(std::uint64_t m) {
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
  return significands;
}

// The odd significand and sign of view `view` of slot `i` (a floating value's significand, an
// integer's magnitude), or nullopt when it has none to simplify (not finite, zero, or a floating
// format without sign, exponent and fraction).
std::optional<std::pair<std::uint64_t, bool>> OddSignificandOf(const Case& c, std::size_t i,
                                                               const WordView& view) {
  const oracle::TileDataType type = view.type;
  const oracle::FormatInfo& f = oracle::Format(type);
  if (f.IsFloating() && !f.HasSignExponentFraction()) return std::nullopt;
  const Word word = view.Get(c.in[i]);
  std::uint64_t m = 0;
  bool negative = false;
  if (f.IsFloating()) {
    const oracle::FiniteDecomposition d = oracle::TileNumericFiniteDecomposition(type, word);
    if (!d.available) return std::nullopt;
    m = static_cast<std::uint64_t>(d.significand);
    negative = d.negative || (word & f.SignBit()) != 0;
  } else {
    const WordKey w = KeyOfWord(type, word);
    negative = w.negative;
    m = negative ? oracle::LowBits(Word{0} - word, f.width) : word;
    if (negative && m == 0) m = Word{1} << (f.width - 1);
  }
  if (m == 0) return std::nullopt;
  return std::make_pair(m >> std::countr_zero(m), negative);
}

// Each word (or view) with a simpler significand, same sign, at every leading exponent (its own
// significand at every other binade as near moves: MoveSet::SetNear).
void SignificandMoves(MoveSet& set) {
  const Case& c = set.From();
  for (std::size_t i = 0; i < c.op->slots.size(); ++i) {
    for (const WordView& view : ViewsOf(c, i)) {
      const auto odd = OddSignificandOf(c, i, view);
      if (!odd) continue;
      const auto [m, negative] = *odd;
      const Word word = view.Get(c.in[i]);
      const auto [lo, hi] = LeadingExponentRange(view.type);
      for (const std::uint64_t s : SimplerSignificands(m)) {
        // The same significand at another binade keeps the rounding situation: a near move.
        set.SetNear(s == m);
        const int bits = BitWidth(s);
        for (int leading = lo; leading <= hi; ++leading) {
          const std::optional<Word> code = ExactCode(view.type, negative, s, leading - bits + 1);
          if (!code || *code == word) continue;
          Case k = c;
          k.in[i] = view.Put(c.in[i], *code);
          set.Offer(k);
        }
      }
    }
  }
  set.SetNear(false);
}

// Near moves: each word (or view) +/- m 2^q with a shorter significand at the same exponent, its
// top k bits (m >> j) rounded toward and away from zero ((m >> j) + 1: into the next binade when
// m >> j is all ones), each k. -128.0000076 (FP32 0xc3000001, 24 bits) reaches -128.5 (9 bits),
// the shortest value of its binade that still rounds the same way, which a move to every
// binade's short significands cannot reach in a wide type before its limit (MoveSet::SetNear).
void ShortSignificandMoves(MoveSet& set) {
  const Case& c = set.From();
  ForEachOddView(c, [&](std::size_t i, const WordView& view, const OddParts& a) {
    for (int j = 1; j < BitWidth(a.m); ++j) {
      for (const std::uint64_t top : {a.m >> j, (a.m >> j) + 1}) {
        const int zeros = std::countr_zero(top);
        const std::optional<Word> code =
            ExactCode(view.type, a.negative, top >> zeros, a.q + j + zeros);
        if (!code) continue;
        Case k = c;
        k.in[i] = view.Put(c.in[i], *code);
        set.Offer(k);
      }
    }
  });
}

// Two words at once, one binade up and the other down by as many (m_i 2^(q_i + d), m_j 2^(q_j
// - d)): a product of the two, as TQUANT's value x scale, keeps its value and its rounding.
void BinadeTradeMoves(MoveSet& set) {
  const Case& c = set.From();
  ForEachOddView(c, [&](std::size_t i, const WordView& va, const OddParts& a) {
    for (std::size_t j = i + 1; j < c.op->slots.size(); ++j) {
      for (const WordView& vb : ViewsOf(c, j)) {
        const std::optional<OddParts> b = OddPartsOf(vb.type, vb.Get(c.in[j]));
        if (!b) continue;
        for (int d = -320; d <= 320; ++d) {
          if (d == 0) continue;
          const std::optional<Word> wi = ExactCode(va.type, a.negative, a.m, a.q + d);
          if (!wi) continue;
          const std::optional<Word> wj = ExactCode(vb.type, b->negative, b->m, b->q - d);
          if (!wj) continue;
          Case k = c;
          k.in[i] = va.Put(c.in[i], *wi);
          k.in[j] = vb.Put(c.in[j], *wj);
          set.Offer(k);
        }
      }
    }
  });
}

// A word some binades down or up while a small unsigned slot (a shift amount) moves by as
// many: m 2^(q + d) >> (s + d) keeps the dropped bits of m 2^q >> s, so a rounding situation
// can reach its simplest shift (1) in one move.
void ShiftTradeMoves(MoveSet& set) {
  const Case& c = set.From();
  ForEachOddView(c, [&](std::size_t i, const WordView& va, const OddParts& a) {
    for (std::size_t j = 0; j < c.op->slots.size(); ++j) {
      const oracle::FormatInfo& fj = oracle::Format(c.op->slots[j].TypeFor(c.pair));
      if (j == i || fj.kind != oracle::FormatKind::UnsignedInteger || fj.width > 8) continue;
      const auto s = static_cast<int>(oracle::LowBits(c.in[j], fj.width));
      for (int d = -s; d <= 64 && s + d < (1 << fj.width); ++d) {
        if (d == 0) continue;
        const std::optional<Word> wi = ExactCode(va.type, a.negative, a.m, a.q + d);
        if (!wi) continue;
        Case k = c;
        k.in[i] = va.Put(c.in[i], *wi);
        k.in[j] = static_cast<Word>(s + d);
        set.Offer(k);
      }
    }
  });
}

// The simpler values of slot i that ZeroingMoves tries: a small slot's (such as a mode's)
// simpler values, any other non-zero word's zero.
std::vector<Word> SimplerSlotValues(const Case& c, std::size_t i) {
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
  return values;
}

// One word made simpler (a small slot, such as a mode, to any simpler value; any word to
// zero) with other non-zero words zeroed where the op's domain then requires it: fpatr's
// relu_mode 2 -> 0 takes relu_param to 0 in the same move, and a pre_quant_mode that reads no
// quant parameter takes quant_param to 0 (each word alone would leave the domain). Every
// subset of the other non-zero words is tried and check_domain (in MoveSet::Offer) keeps the
// legal ones, unless the check refuses the new value with the same line whether the other words
// are kept or all zeroed (the value itself is outside the domain: an illegal mode).
void ZeroingMoves(MoveSet& set) {
  const Case& c = set.From();
  for (std::size_t i = 0; i < c.op->slots.size(); ++i) {
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
    for (const Word v : SimplerSlotValues(c, i)) {
      const Case alone = with(v, 0);
      const std::optional<std::string> refused = c.op->check_domain(alone.pair, alone.in);
      if (!refused) {
        set.Offer(alone);
        continue;
      }
      if (others.empty()) continue;
      const Case zeroed = with(v, all);
      if (c.op->check_domain(zeroed.pair, zeroed.in) == refused) continue;
      for (std::size_t subset = 1; subset <= all; ++subset) {
        set.Offer(with(v, subset));
      }
    }
  }
}

// LocalMoves: the moves near `c` (see SimplerMoves in shrink.hpp).
void LocalMoves(MoveSet& set) {
  SignificandMoves(set);
  BinadeTradeMoves(set);
  ShiftTradeMoves(set);
  ZeroingMoves(set);
  for (const Case& k : Drain(ShrinkCase(set.From()))) set.Offer(k);
}

}  // namespace

std::vector<Case> LocalSimplerMoves(const Case& c, const generator::ControlFilter& controls,
                                    std::vector<SimplicityKey>& keys) {
  MoveSet set(c, controls);
  // Near moves first, each judged whatever the limit: the case under every simpler control, and
  // shorter significands at the same exponent under every control.
  set.SetNear(true);
  set.OfferControls();
  ShortSignificandMoves(set);
  set.SetNear(false);
  LocalMoves(set);
  keys.clear();
  return set.Sorted(kLocalMovesLimit, {}, &keys);
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
