// Private to ptovec_tools' shrink (tools/lib/shrink_*.cpp): what the shrink files share. The
// word keys and views of the simplest-case order (shrink_order.cpp), the two halves of
// SimplerMoves (shrink_moves.cpp), the enumeration of a pair (shrink_enumerate.cpp), the descent
// along the shrink tree and the order (shrink_search.cpp), the property's generator
// (shrink_generators.cpp) and a counterexample's "got" text (shrink_output.cpp).
#pragma once

#include <rapidcheck.h>

#include <bit>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "ptovec/generator/cases.hpp"
#include "ptovec/generator/ops.hpp"
#include "ptovec/oracle/formats.hpp"
#include "ptovec/oracle/numeric.hpp"
#include "ptovec/tools/device.hpp"
#include "ptovec/tools/known_differences.hpp"
#include "ptovec/tools/shrink.hpp"

namespace ptovec::tools::shrink_internal {

using oracle::Word;

// The mask of `c`'s destination width.
inline Word DstMask(const Case& c) {
  return oracle::LowBits(~Word{0}, oracle::Format(c.pair.dst).width);
}

// Every element of `seq`, in order.
template <typename T>
std::vector<T> Drain(rc::Seq<T> seq) {
  std::vector<T> out;
  while (auto v = seq.next()) out.push_back(std::move(*v));
  return out;
}

inline int BitWidth(std::uint64_t m) { return static_cast<int>(std::bit_width(m)); }

// ---- The simplest-case order (shrink_order.cpp) ----

// One word's part of the key: zero or not, significant bits, |E|, sign.
struct WordKey {
  bool nonzero = false;
  unsigned bits = 0;
  unsigned distance = 0;
  bool negative = false;
};

// The key of a word read as `type`.
WordKey KeyOfWord(oracle::TileDataType type, Word word);

// How the order and the moves read an input word: the whole word as its slot's type, or a
// floating value in a bit field of it (OpDef::value_fields).
struct WordView {
  oracle::TileDataType type{};
  unsigned low_bit = 0;
  unsigned width = 0;
  Word Get(Word word) const { return oracle::LowBits(word >> low_bit, width); }
  // `word` with the view's bits replaced by `code`.
  Word Put(Word word, Word code) const {
    const Word mask = oracle::LowBits(~Word{0}, width) << low_bit;
    return (word & ~mask) | ((code << low_bit) & mask);
  }
};

// The views of slot `i`: the whole word, then its value field if it has one.
std::vector<WordView> ViewsOf(const Case& c, std::size_t i);

// The key of slot `i`'s word: KeyOfWord of its type, or for a slot with a value field the key of
// the field's value plus that of the other bits read as the slot's type.
WordKey KeyOfSlotWord(const Case& c, std::size_t i);

// The code of +/- m * 2^q in `type` when the type holds exactly that value (m odd, non-zero),
// for the types SimplerMoves moves in: integers and floating types with sign, exponent and
// fraction fields.
std::optional<Word> ExactCode(oracle::TileDataType type, bool negative, std::uint64_t m, int q);

// The value range of leading exponents to try for `type`.
std::pair<int, int> LeadingExponentRange(oracle::TileDataType type);

// A non-zero finite word of a type SimplerMoves moves in as +/- m * 2^q with m odd; nullopt for
// zero, Inf, NaN and the other types.
struct OddParts {
  bool negative = false;
  std::uint64_t m = 0;
  int q = 0;
};
std::optional<OddParts> OddPartsOf(oracle::TileDataType type, Word word);

// ---- SimplerMoves in its two parts (shrink_moves.cpp, shrink_jumps.cpp) ----

// The local moves, and the jump moves tried when no local move fails.
// LocalSimplerMoves also gives the moves' keys (sorted), which JumpSimplerMoves takes to leave
// out the cases already judged.
std::vector<Case> LocalSimplerMoves(const Case& c, const generator::ControlFilter& controls,
                                    std::vector<SimplicityKey>& keys);
std::vector<Case> JumpSimplerMoves(const Case& c, const generator::ControlFilter& controls,
                                   const std::vector<SimplicityKey>& local_keys);

// ---- Enumeration (shrink_enumerate.cpp) ----

// Keeps the least failing case under the simplest-case order.
void KeepSimplest(std::optional<Counterexample>& best, Counterexample cx);

// Enumerates every input of an enumerable pair under every control, in the suite's order, by
// blocks (oracle: EvaluateBatch; device: EvaluateProduct). Records the pair's part of the search;
// returns the first failing case (into `first`) and the least failing one under the
// simplest-case order (into `best`).
void EnumeratePair(Device& device, const OpDef& op, TypePair pair,
                   const std::vector<generator::NumericExecutionControl>& controls,
                   const Judge& judge, ShrinkResult::SearchPart& part,
                   std::optional<Counterexample>& first, std::optional<Counterexample>& best);

// ---- The descent (shrink_search.cpp) ----

// Evaluates the counterexample's case twice more (one call each) and requires the same wrong
// answer both times: a flaky device must not get a counterexample it no longer reproduces.
void ConfirmDeterministic(Device& device, const Counterexample& cx, const Judge& judge);

// Greedy descent along the shrink tree from a failing node, as RapidCheck shrinks: take the
// first failing candidate, repeat until none fails. Candidates are judged `batch` at a time (the
// first failing one in sequence order wins, so the batch size never changes the result).
// Then the greedy descent toward the simplest case (SimplerMoves: the simplest failing move,
// repeated until none fails), and the final case is confirmed (ConfirmDeterministic) and recorded
// in `result`.
void Descend(Device& device, rc::Shrinkable<Case> current, Counterexample failing,
             std::size_t batch, std::uint64_t max_steps, const generator::ControlFilter& controls,
             const Judge& judge, ShrinkResult& result);

// ---- The property's generator (shrink_generators.cpp) ----

// The property's generator over `pairs_in` (one: that pair; several: an index shrinking toward
// the first). A file group's inputs are drawn from its own input space and reported over the
// whole pair.
rc::Gen<Case> CaseGenOver(const OpDef& op, std::vector<TypePair> pairs_in,
                          const generator::ControlFilter& filter);

// ---- Report text (shrink_output.cpp) ----

// The device's answer in a counterexample: the result word with its status, "unsupported", or
// that the device failed on the case.
std::string GotText(const Counterexample& cx);

}  // namespace ptovec::tools::shrink_internal
