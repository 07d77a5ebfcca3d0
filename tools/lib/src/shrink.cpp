// `ptovec shrink`: the property "device equals oracle": enumeration of small pairs with the exact
// simplest failing case, RapidCheck sampling of larger ones, greedy shrinking along RapidCheck's
// shrink tree and then toward the simplest case (see shrink.hpp).
#include "ptovec/tools/shrink.hpp"

#include <algorithm>
#include <bit>
#include <memory>
#include <ostream>
#include <stdexcept>
#include <tuple>

#include "ptovec/generator/cases.hpp"
#include "ptovec/generator/domains.hpp"
#include "ptovec/generator/writers.hpp"
#include "ptovec/oracle/numeric.hpp"
#include "ptovec/tools/check.hpp"
#include "report_text.hpp"

namespace ptovec::tools {

namespace {

using text::ResultText;
using text::TypeName;

using generator::HexStatus;
using generator::HexWord;
using oracle::NumericRoundingMode;
using oracle::Word;

Word DstMask(const Case& c) { return oracle::LowBits(~Word{0}, oracle::Format(c.pair.dst).width); }

template <typename T>
std::vector<T> Drain(rc::Seq<T> seq) {
  std::vector<T> out;
  while (auto v = seq.next()) out.push_back(std::move(*v));
  return out;
}

// Pulls up to `n` shrinkables from `seq` (with their values computed once).
std::vector<rc::Shrinkable<Case>> Take(rc::Seq<rc::Shrinkable<Case>>& seq, std::size_t n) {
  std::vector<rc::Shrinkable<Case>> out;
  while (out.size() < n) {
    auto next = seq.next();
    if (!next) break;
    out.push_back(std::move(*next));
  }
  return out;
}

std::string GotText(const Counterexample& cx) {
  if (!cx.failure.empty()) return "no answer: the device failed on this case (see failure)";
  return cx.got.supported
             ? ResultText({cx.got.result.word & DstMask(cx.c), cx.got.result.status}, cx.c.pair.dst)
             : std::string("unsupported");
}

// ---- The simplest-case order ----

int BitWidth(std::uint64_t m) { return static_cast<int>(std::bit_width(m)); }

// One word's part of the key: zero or not, significant bits, |E|, sign.
struct WordKey {
  bool nonzero = false;
  unsigned bits = 0;
  unsigned distance = 0;
  bool negative = false;
};

// The key of +/- m * 2^q (m = 0: zero).
WordKey KeyOfValue(bool negative, std::uint64_t m, int q) {
  if (m == 0) return {false, 0, 0, negative};
  const int length = BitWidth(m);
  const std::uint64_t odd = m >> std::countr_zero(m);
  const int leading = q + length - 1;
  return {true, static_cast<unsigned>(BitWidth(odd)),
          static_cast<unsigned>(leading < 0 ? -leading : leading), negative};
}

WordKey KeyOfWord(oracle::TileDataType type, Word word) {
  const oracle::FormatInfo& f = oracle::Format(type);
  word = oracle::LowBits(word, f.width);
  if (!f.IsFloating()) {
    if (f.kind == oracle::FormatKind::SignedInteger) {
      const auto v = static_cast<std::int64_t>(oracle::SignExtend(word, f.width));
      const std::uint64_t magnitude =
          v < 0 ? std::uint64_t{0} - static_cast<std::uint64_t>(v) : static_cast<std::uint64_t>(v);
      return KeyOfValue(v < 0, magnitude, 0);
    }
    return KeyOfValue(false, word, 0);
  }
  const oracle::FiniteDecomposition d = oracle::TileNumericFiniteDecomposition(type, word);
  if (!d.available) return {true, f.width + 1, 1U << 16, (word & f.SignBit()) != 0};
  return KeyOfValue(d.negative || (word & f.SignBit()) != 0, d.significand, d.exponent);
}

// The floating value field of slot `i` (OpDef::value_fields), or nullptr.
const generator::ValueField* FieldOf(const OpDef& op, std::size_t i) {
  for (const generator::ValueField& f : op.value_fields) {
    if (f.slot == i) return &f;
  }
  return nullptr;
}

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

WordView FieldView(const generator::ValueField& f) {
  return {f.type, f.low_bit, oracle::Format(f.type).width};
}

// The views of slot `i`: the whole word, then its value field if it has one.
std::vector<WordView> ViewsOf(const Case& c, std::size_t i) {
  const oracle::TileDataType type = c.op->slots[i].TypeFor(c.pair);
  std::vector<WordView> views{{type, 0, oracle::Format(type).width}};
  if (const generator::ValueField* f = FieldOf(*c.op, i)) views.push_back(FieldView(*f));
  return views;
}

// The key of slot `i`'s word: KeyOfWord of its type, or for a slot with a value field the key of
// the field's value plus that of the other bits read as the slot's type.
WordKey KeyOfSlotWord(const Case& c, std::size_t i) {
  const oracle::TileDataType type = c.op->slots[i].TypeFor(c.pair);
  const generator::ValueField* f = FieldOf(*c.op, i);
  if (f == nullptr) return KeyOfWord(type, c.in[i]);
  const WordView view = FieldView(*f);
  const WordKey value = KeyOfWord(f->type, view.Get(c.in[i]));
  const WordKey rest = KeyOfWord(type, view.Put(c.in[i], 0));
  return {value.nonzero || rest.nonzero, value.bits + rest.bits, value.distance + rest.distance,
          value.negative || rest.negative};
}

// The code of +/- m * 2^q in `type` when the type holds exactly that value (m odd, non-zero),
// for the types SimplerMoves moves in: integers and floating types with sign, exponent and
// fraction fields.
std::optional<Word> ExactCode(oracle::TileDataType type, bool negative, std::uint64_t m, int q) {
  const oracle::FormatInfo& f = oracle::Format(type);
  const int length = BitWidth(m);
  if (!f.IsFloating()) {
    if (q < 0 || q + length > static_cast<int>(f.width)) return std::nullopt;
    const std::uint64_t v = m << q;
    if (f.kind == oracle::FormatKind::SignedInteger) {
      const std::uint64_t half = std::uint64_t{1} << (f.width - 1);
      if (negative ? v > half : v >= half) return std::nullopt;
      return oracle::LowBits(negative ? std::uint64_t{0} - v : v, f.width);
    }
    if (negative) return std::nullopt;
    return v;
  }
  if (!f.HasSignExponentFraction()) return std::nullopt;
  const int fb = static_cast<int>(f.fraction_bits);
  const int leading = q + length - 1;
  Word magnitude = 0;
  const int field = leading + f.bias;
  if (field >= 1) {
    if (length - 1 > fb || field >= (1 << f.exponent_bits)) return std::nullopt;
    magnitude = (static_cast<Word>(field) << fb) |
                ((static_cast<Word>(m) << (fb - (length - 1))) & oracle::LowBits(~Word{0}, fb));
  } else {
    const int shift = q - (1 - f.bias - fb);  // subnormal: value = fraction * 2^(1 - bias - fb)
    if (shift < 0 || shift + length > fb) return std::nullopt;
    magnitude = static_cast<Word>(m) << shift;
  }
  const Word code = (negative ? f.SignBit() : 0) | magnitude;
  // The decomposition confirms it (E4M3's top code is NaN, not a value).
  const oracle::FiniteDecomposition d = oracle::TileNumericFiniteDecomposition(type, code);
  if (!d.available || d.significand == 0) return std::nullopt;
  const auto sig = static_cast<std::uint64_t>(d.significand);
  if ((sig >> std::countr_zero(sig)) != m || d.exponent + std::countr_zero(sig) != q) {
    return std::nullopt;
  }
  return code;
}

// The value range of leading exponents to try for `type`.
std::pair<int, int> LeadingExponentRange(oracle::TileDataType type) {
  const oracle::FormatInfo& f = oracle::Format(type);
  if (!f.IsFloating()) return {0, static_cast<int>(f.width) - 1};
  const int fb = static_cast<int>(f.fraction_bits);
  return {1 - f.bias - fb, (1 << f.exponent_bits) - 1 - f.bias};
}

// A non-zero finite word of a type SimplerMoves moves in as +/- m * 2^q with m odd; nullopt for
// zero, Inf, NaN and the other types.
struct OddParts {
  bool negative = false;
  std::uint64_t m = 0;
  int q = 0;
};
std::optional<OddParts> OddPartsOf(oracle::TileDataType type, Word word) {
  const oracle::FormatInfo& f = oracle::Format(type);
  OddParts p;
  if (f.IsFloating()) {
    if (!f.HasSignExponentFraction()) return std::nullopt;
    const oracle::FiniteDecomposition d = oracle::TileNumericFiniteDecomposition(type, word);
    if (!d.available || d.significand == 0) return std::nullopt;
    p.negative = d.negative || (word & f.SignBit()) != 0;
    p.m = static_cast<std::uint64_t>(d.significand);
    p.q = d.exponent;
  } else {
    const Word low = oracle::LowBits(word, f.width);
    p.negative = KeyOfWord(type, word).negative;
    p.m = p.negative ? oracle::LowBits(Word{0} - low, f.width) : low;
    if (p.negative && p.m == 0) p.m = Word{1} << (f.width - 1);
    if (p.m == 0) return std::nullopt;
  }
  const int zeros = std::countr_zero(p.m);
  p.m >>= zeros;
  p.q += zeros;
  return p;
}

// ---- Enumeration ----

// Inputs per enumeration block: memory stays bounded whatever the pair.
constexpr std::size_t kEnumerationBlock = 4096;

// Keeps the least failing case under the simplest-case order.
void KeepSimplest(std::optional<Counterexample>& best, Counterexample cx) {
  if (!best || Simpler(cx.c, best->c)) best = std::move(cx);
}

// Evaluates the counterexample's case twice more (one call each) and requires the same wrong
// answer both times: a flaky device must not get a counterexample it no longer reproduces.
void ConfirmDeterministic(Device& device, const Counterexample& cx, const Judge& judge) {
  for (int round = 0; round < 2; ++round) {
    const auto again = JudgeCases(device, std::span<const Case>(&cx.c, 1), judge);
    const bool same = again[0] && again[0]->got.supported == cx.got.supported &&
                      again[0]->failure.empty() == cx.failure.empty() &&
                      (!cx.got.supported || again[0]->got.result == cx.got.result);
    if (!same) {
      const std::string then_text =
          again[0] ? GotText(*again[0]) : ResultText(cx.expected, cx.c.pair.dst) + " (correct)";
      throw DeviceError("device is not deterministic: case " + generator::EvalCommand(cx.c) +
                        " gave " + GotText(cx) + " then " + then_text);
    }
  }
}

// SimplerMoves in its two parts (defined below): the local moves, and the jump moves tried when
// no local move fails.
// LocalSimplerMoves also gives the moves' keys (sorted), which JumpSimplerMoves takes to leave
// out the cases already judged.
std::vector<Case> LocalSimplerMoves(const Case& c, const generator::ControlFilter& controls,
                                    std::vector<SimplicityKey>& keys);
std::vector<Case> JumpSimplerMoves(const Case& c, const generator::ControlFilter& controls,
                                   const std::vector<SimplicityKey>& local_keys);

// Greedy descent toward the simplest case from a failing case: the simplest failing one of its
// local SimplerMoves, or when none fails the simplest failing jump move, repeated until no move
// fails (each step is strictly simpler, so it ends). Then the final case is confirmed and
// recorded.
void OrderDescent(Device& device, Counterexample failing, std::size_t batch,
                  std::uint64_t max_steps, const generator::ControlFilter& controls,
                  const Judge& judge, ShrinkResult& result) {
  for (;;) {
    if (result.shrink_steps + result.order_steps >= max_steps) {
      result.local_minimum = false;
      break;
    }
    std::uint64_t checked = 0;
    bool moved = false;
    std::vector<SimplicityKey> local_keys;
    for (const bool jumps : {false, true}) {
      const std::vector<Case> moves = jumps ? JumpSimplerMoves(failing.c, controls, local_keys)
                                            : LocalSimplerMoves(failing.c, controls, local_keys);
      for (std::size_t first = 0; first < moves.size() && !moved; first += batch) {
        const std::size_t n = std::min(batch, moves.size() - first);
        const auto judged =
            JudgeCases(device, std::span<const Case>(moves.data() + first, n), judge);
        for (std::size_t i = 0; i < n; ++i) {
          ++checked;
          if (judged[i]) {
            failing = *judged[i];
            ++result.order_steps;
            moved = true;
            break;
          }
        }
      }
      if (moved) break;
    }
    result.candidates_tried += checked;
    if (!moved) {
      result.local_minimum = true;
      result.minimal_candidates = checked;
      break;
    }
  }
  ConfirmDeterministic(device, failing, judge);
  result.minimal = failing;
}

// Enumerates every input of an enumerable pair under every control, in the suite's order, by
// blocks (oracle: EvaluateBatch; device: EvaluateProduct). Records the pair's part of the search;
// returns the first failing case (into `first`) and the least failing one under the
// simplest-case order (into `best`).
void EnumeratePair(Device& device, const OpDef& op, TypePair pair,
                   const std::vector<generator::NumericExecutionControl>& controls,
                   const Judge& judge, ShrinkResult::SearchPart& part,
                   std::optional<Counterexample>& first, std::optional<Counterexample>& best) {
  const generator::InputSet domain = EnumerableSpace(op, pair);
  const std::size_t nc = controls.size();
  std::vector<generator::Inputs> inputs;
  std::vector<Encoded> expected;
  std::vector<DeviceAnswer> answers;
  part.pair = pair;
  part.enumerated = true;
  for (std::uint64_t begin = 0; begin < domain.count; begin += kEnumerationBlock) {
    inputs.resize(
        static_cast<std::size_t>(std::min<std::uint64_t>(kEnumerationBlock, domain.count - begin)));
    domain.Fill(begin, inputs.size(), inputs.data());
    // Tuples outside the op's domain are not cases (an exhaustive plan has none).
    std::erase_if(inputs, [&](const generator::Inputs& in) {
      return static_cast<bool>(op.check_domain(pair, in));
    });
    const std::size_t n = inputs.size();
    expected.resize(n * nc);
    generator::EvaluateBatch(op, pair, inputs.data(), n, controls, expected.data());
    answers.assign(n * nc, DeviceAnswer{});
    bool answered = true;
    try {
      device.EvaluateProduct(op, pair, inputs, controls, answers);
    } catch (const DeviceFailure&) {
      answered = false;  // judged case by case below (the device restarts as needed)
    }
    part.cases += n * nc;
    const Word mask = oracle::LowBits(~Word{0}, oracle::Format(pair.dst).width);
    const auto case_at = [&](std::size_t j) {
      return Case{&op, pair, controls[j % nc], inputs[j / nc]};
    };
    if (!answered) {
      std::vector<Case> cases;
      cases.reserve(n * nc);
      for (std::size_t j = 0; j < n * nc; ++j) cases.push_back(case_at(j));
      for (auto& judged : JudgeCases(device, cases, judge)) {
        if (!judged) continue;
        ++part.failing;
        if (!first) first = *judged;
        KeepSimplest(best, std::move(*judged));
      }
      continue;
    }
    for (std::size_t j = 0; j < n * nc; ++j) {
      DeviceAnswer got = answers[j];
      got.result.word &= mask;
      if (judge.Matches(expected[j], got)) continue;
      Counterexample cx{case_at(j), expected[j], got, {}};
      if (!judge.plain() && !judge.Counts(cx.c, expected[j], got)) continue;
      ++part.failing;
      if (!first) first = cx;
      KeepSimplest(best, std::move(cx));
    }
  }
}

// Greedy descent along the shrink tree from a failing node, as RapidCheck shrinks: take the
// first failing candidate, repeat until none fails. Candidates are judged `batch` at a time (the
// first failing one in sequence order wins, so the batch size never changes the result).
void Descend(Device& device, rc::Shrinkable<Case> current, Counterexample failing,
             std::size_t batch, std::uint64_t max_steps, const generator::ControlFilter& controls,
             const Judge& judge, ShrinkResult& result) {
  result.failed = true;
  result.original = failing;
  for (;;) {
    if (result.shrink_steps >= max_steps) {
      result.local_minimum = false;
      break;
    }
    rc::Seq<rc::Shrinkable<Case>> candidates = current.shrinks();
    std::uint64_t checked = 0;
    bool descended = false;
    for (;;) {
      std::vector<rc::Shrinkable<Case>> chunk = Take(candidates, batch);
      if (chunk.empty()) break;
      // Only controls the filter keeps (ShrinkFrom's tree offers every simpler one). A
      // Shrinkable's value is computed on each call, so each is taken once here.
      std::vector<Case> cases;
      std::vector<std::size_t> kept;
      cases.reserve(chunk.size());
      kept.reserve(chunk.size());
      for (std::size_t i = 0; i < chunk.size(); ++i) {
        Case x = chunk[i].value();
        if (x.op->uses_controls && !controls.Accepts(x.control)) continue;
        cases.push_back(std::move(x));
        kept.push_back(i);
      }
      if (cases.empty()) continue;
      const auto judged = JudgeCases(device, cases, judge);
      for (std::size_t i = 0; i < judged.size(); ++i) {
        ++checked;
        if (judged[i]) {
          current = chunk[kept[i]];
          failing = *judged[i];
          ++result.shrink_steps;
          descended = true;
          break;
        }
      }
      if (descended) break;
    }
    result.candidates_tried += checked;
    if (!descended) {
      result.local_minimum = true;
      result.minimal_candidates = checked;
      break;
    }
  }
  OrderDescent(device, failing, batch, max_steps, controls, judge, result);
}

}  // namespace

SimplicityKey SimplicityOf(const Case& c) {
  SimplicityKey key;
  for (std::size_t i = 0; i < c.op->slots.size(); ++i) {
    const WordKey w = KeyOfSlotWord(c, i);
    key.nonzero += w.nonzero;
    key.significant_bits += w.bits;
    key.exponent_distance += w.distance;
    key.negatives += w.negative;
    key.words[i] = c.in[i];
  }
  key.mode = static_cast<unsigned>(c.control.rounding_mode);
  key.sat = c.control.saturating ? 1 : 0;
  return key;
}

bool Simpler(const Case& a, const Case& b) { return SimplicityOf(a) < SimplicityOf(b); }

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

std::vector<Case> SimplerMoves(const Case& c, const generator::ControlFilter& controls) {
  std::vector<SimplicityKey> local_keys;
  std::vector<Case> moves = LocalSimplerMoves(c, controls, local_keys);
  const std::vector<Case> jumps = JumpSimplerMoves(c, controls, local_keys);
  moves.insert(moves.end(), jumps.begin(), jumps.end());
  return moves;
}

namespace {

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

}  // namespace

std::uint64_t EnumerableInputs(const OpDef& op, TypePair pair) {
  if (op.plan && op.slots.size() == 1 &&
      op.plan(pair).kind == generator::DomainPlan::Kind::Exhaustive) {
    const std::uint64_t n = op.domain_count(pair, generator::SamplingOptions{});
    return n <= kEnumerableCases ? n : 0;
  }
  // Any other space: every word of every slot, when their product is small enough.
  unsigned bits = 0;
  for (const generator::Slot& slot : op.slots) bits += oracle::Format(slot.TypeFor(pair)).width;
  return bits <= 22 && (std::uint64_t{1} << bits) <= kEnumerableCases ? std::uint64_t{1} << bits
                                                                      : 0;
}

generator::InputSet EnumerableSpace(const OpDef& op, TypePair pair) {
  if (EnumerableInputs(op, pair) == 0) {
    throw std::invalid_argument(op.name + " " + TypeName(pair.src) + " -> " + TypeName(pair.dst) +
                                " is too large to enumerate");
  }
  if (op.slots.size() == 1 && op.plan(pair).kind == generator::DomainPlan::Kind::Exhaustive) {
    return op.domain(pair, generator::SamplingOptions{});
  }
  std::vector<unsigned> widths;
  for (const generator::Slot& slot : op.slots) {
    widths.push_back(oracle::Format(slot.TypeFor(pair)).width);
  }
  generator::InputSet set;
  set.count = EnumerableInputs(op, pair);
  set.kind = "exhaustive";
  set.at = [widths](std::uint64_t i) {
    generator::Inputs in{};
    for (std::size_t k = widths.size(); k-- > 0;) {  // the last slot varies fastest
      in[k] = oracle::LowBits(i, widths[k]);
      i >>= widths[k];
    }
    return in;
  };
  return set;
}

std::vector<std::optional<Counterexample>> JudgeCases(Device& device, std::span<const Case> cases,
                                                      const Judge& judge) {
  std::vector<DeviceAnswer> answers(cases.size());
  // A case the device crashed, exited or hung on: its DeviceFailure message.
  std::vector<std::string> failures(cases.size());
  try {
    if (!cases.empty()) device.Evaluate(cases, answers);
  } catch (const DeviceFailure& f) {
    // Each case alone (the device restarts as needed); the case named by f is not run again.
    const auto same = [](const Case& a, const Case& b) {
      return a.op == b.op && a.pair == b.pair && a.control == b.control && a.in == b.in;
    };
    for (std::size_t i = 0; i < cases.size(); ++i) {
      if (same(cases[i], f.failed_case())) {
        failures[i] = f.what();
        answers[i] = DeviceAnswer{false, {}};
        continue;
      }
      try {
        device.Evaluate(cases.subspan(i, 1), std::span<DeviceAnswer>(answers).subspan(i, 1));
      } catch (const DeviceFailure& g) {
        failures[i] = g.what();
        answers[i] = DeviceAnswer{false, {}};
      }
    }
  }
  std::vector<std::optional<Counterexample>> out(cases.size());
  for (std::size_t i = 0; i < cases.size(); ++i) {
    const Case& c = cases[i];
    Encoded expected{};
    try {
      if (c.op->check_domain(c.pair, c.in)) continue;  // outside the op's domain: never reported
      expected = generator::EvaluateCase(c);
    } catch (const std::exception&) {
      continue;  // the oracle rejects the inputs: not a counterexample
    }
    DeviceAnswer got = answers[i];
    got.result.word &= DstMask(c);
    // A case the device failed on (crash, exit, hang) is always a counterexample.
    if (failures[i].empty() && !judge.Counts(c, expected, got)) continue;
    out[i] = Counterexample{c, expected, got, std::move(failures[i])};
  }
  return out;
}

rc::Seq<Case> ShrinkCase(const Case& c) {
  std::vector<Case> out;
  for (const generator::Inputs& in : Drain(generator::ShrinkInputs(*c.op, c.pair, c.in))) {
    Case k = c;
    k.in = in;
    k.control = generator::LegalControl(*c.op, c.pair, k.in, k.control);
    out.push_back(k);
  }
  if (c.op->uses_controls) {
    // Every simpler mode (RNE first), not only rc::shrink::towards' halving steps: a case that
    // fails under RTZ and RTM must reach RTM.
    const int mode = static_cast<int>(c.control.rounding_mode);
    for (int m = 0; m < mode; ++m) {
      Case k = c;
      k.control.rounding_mode = static_cast<NumericRoundingMode>(m);
      if (!c.op->check_control || !c.op->check_control(k.pair, k.in, k.control)) out.push_back(k);
    }
    if (c.control.saturating) {
      Case k = c;
      k.control.saturating = false;
      if (!c.op->check_control || !c.op->check_control(k.pair, k.in, k.control)) out.push_back(k);
    }
  }
  return rc::seq::fromContainer(std::move(out));
}

rc::Shrinkable<Case> ShrinkableCase(const Case& c) {
  return rc::shrinkable::shrinkRecur(c, [](const Case& x) { return ShrinkCase(x); });
}

namespace {

// The control a drawn case is evaluated under: the drawn one when the op accepts it for the
// inputs, else LegalControl's choice (RNE with the drawn Sat, else RNE, Sat off) when the filter
// keeps it, else the first of the kept controls (`kept`, in ControlsFor order) the inputs accept.
generator::NumericExecutionControl DrawnControl(
    const OpDef& op, TypePair pair, const generator::Inputs& in,
    generator::NumericExecutionControl drawn, const generator::ControlFilter& filter,
    const std::vector<generator::NumericExecutionControl>& kept) {
  if (!op.check_control) return drawn;
  const auto legal = [&](generator::NumericExecutionControl c) {
    return !op.check_control(pair, in, c);
  };
  if (legal(drawn)) return drawn;
  const generator::NumericExecutionControl fallback = generator::LegalControl(op, pair, in, drawn);
  if (filter.Accepts(fallback) && legal(fallback)) return fallback;
  for (const generator::NumericExecutionControl c : kept) {
    if (legal(c)) return c;
  }
  // SelectShrinkPairs draws only pairs and groups holding a kept control for every input.
  throw std::logic_error("shrink: no control --rmode/--sat keep is legal for " +
                         generator::EvalCommand(Case{&op, pair, drawn, in}));
}

// The property's generator over `pairs` (one: that pair; several: an index shrinking toward the
// first). A file group's inputs are drawn from its own input space and reported over the whole
// pair.
rc::Gen<Case> CaseGenOver(const OpDef& op, std::vector<TypePair> pairs_in,
                          const generator::ControlFilter& filter) {
  const OpDef* op_ptr = &op;
  // The drawable modes and Sat values, in order: inRange over their positions shrinks toward the
  // first (RNE, Sat off when kept).
  auto modes = std::make_shared<std::vector<NumericRoundingMode>>(filter.modes);
  if (modes->empty())
    modes->assign(oracle::kAllRoundingModes.begin(), oracle::kAllRoundingModes.end());
  auto sats = std::make_shared<std::vector<bool>>(filter.sat);
  if (sats->empty()) *sats = {false, true};
  const auto controls = std::make_shared<
      const std::pair<generator::ControlFilter, std::vector<generator::NumericExecutionControl>>>(
      filter, filter.ControlsOf(op));
  // One pair: inputs from the op's input space (its own shrink tree: generator::ShrinkInputs),
  // then the mode (inRange shrinks toward RNE) and Sat (toward off). rc::gen::tuple shrinks the
  // inputs first, then the mode, then Sat: the same tree as ShrinkableCase.
  const auto for_pair = [op_ptr, modes, sats, controls](TypePair p) -> rc::Gen<Case> {
    const rc::Gen<generator::Inputs> inputs = op_ptr->input_space(p);
    const TypePair whole = p.Whole();
    if (!op_ptr->uses_controls) {
      return rc::gen::map(inputs, [op_ptr, whole](const generator::Inputs& in) {
        return Case{op_ptr, whole, {}, in};
      });
    }
    return rc::gen::map(
        rc::gen::tuple(inputs, rc::gen::inRange(0, static_cast<int>(modes->size())),
                       rc::gen::inRange(0, static_cast<int>(sats->size()))),
        [op_ptr, whole, modes, sats, controls](const std::tuple<generator::Inputs, int, int>& t) {
          Case c{op_ptr, whole, {}, std::get<0>(t)};
          c.control.rounding_mode = (*modes)[static_cast<std::size_t>(std::get<1>(t))];
          c.control.saturating = (*sats)[static_cast<std::size_t>(std::get<2>(t))];
          // fpatr: a control the inputs' PreQuantMode refuses becomes one it takes.
          c.control =
              DrawnControl(*op_ptr, whole, c.in, c.control, controls->first, controls->second);
          return c;
        });
  };
  if (pairs_in.size() == 1) return for_pair(pairs_in.front());
  // Building an input space can be costly (destination anchors, interesting codes): each pair's
  // generator is built once, when first drawn.
  const auto pairs = std::make_shared<const std::vector<TypePair>>(std::move(pairs_in));
  const auto cache = std::make_shared<std::vector<std::optional<rc::Gen<Case>>>>(pairs->size());
  return rc::gen::mapcat(rc::gen::inRange<std::size_t>(0, pairs->size()),
                         [pairs, cache, for_pair](std::size_t i) {
                           auto& slot = (*cache)[i];
                           if (!slot) slot = for_pair((*pairs)[i]);
                           return *slot;
                         });
}

}  // namespace

rc::Gen<Case> CaseGen(const OpDef& op, std::optional<TypePair> pair,
                      const generator::ControlFilter& filter) {
  return CaseGenOver(op, pair ? std::vector<TypePair>{*pair} : op.legal_pairs, filter);
}

std::string PairName(const OpDef& op, TypePair pair) {
  const std::string group = generator::FileGroupName(op, pair);
  return op.name + " " + TypeName(pair.src) + " -> " + TypeName(pair.dst) +
         (group.empty() ? "" : " " + group);
}

ShrinkSelection SelectShrinkPairs(const OpDef& op, std::optional<TypePair> pair,
                                  const generator::ControlFilter& controls) {
  ShrinkSelection selection;
  const std::vector<TypePair> pairs = pair ? std::vector<TypePair>{*pair} : op.legal_pairs;
  if (!op.uses_controls || controls.all()) {
    selection.pairs = pairs;
    return selection;
  }
  // What the pairs accept, for the refusal: every control some group of them holds.
  std::vector<generator::NumericExecutionControl> accepted;
  for (const TypePair p : pairs) {
    const std::vector<TypePair> groups = generator::FilePairs(op, p);
    std::vector<TypePair> kept;
    for (const TypePair g : groups) {
      for (const generator::NumericExecutionControl c : generator::ControlsFor(op, g)) {
        if (std::find(accepted.begin(), accepted.end(), c) == accepted.end()) accepted.push_back(c);
      }
      if (controls.ControlsOf(op, g).empty()) {
        selection.left_out.push_back(g);
      } else {
        kept.push_back(g);
      }
    }
    if (kept.size() == groups.size()) {
      selection.pairs.push_back(p);  // every group: the whole pair, as without a filter
    } else {
      selection.pairs.insert(selection.pairs.end(), kept.begin(), kept.end());
    }
  }
  if (selection.pairs.empty()) {
    // In ControlsFor order.
    std::vector<generator::NumericExecutionControl> ordered;
    for (const generator::NumericExecutionControl c : generator::ControlsFor(op)) {
      if (std::find(accepted.begin(), accepted.end(), c) != accepted.end()) ordered.push_back(c);
    }
    const std::string what = pair ? PairName(op, *pair) : "no pair of " + op.name;
    throw generator::InputError((pair ? what + " holds no control" : what + " holds a control") +
                                " that --rmode/--sat keep (" + controls.Describe() +
                                "): " + (pair ? "it accepts " : "they accept ") +
                                generator::ControlsJson(ordered).dump());
  }
  return selection;
}

ShrinkResult ShrinkProperty(Device& device, const ShrinkOptions& options) {
  if (options.op == nullptr) throw std::invalid_argument("ShrinkProperty: no op");
  const OpDef& op = *options.op;
  if (options.pair && !generator::IsLegalPair(op, *options.pair)) {
    throw std::invalid_argument(op.name + " does not accept " + TypeName(options.pair->src) +
                                " -> " + TypeName(options.pair->dst));
  }
  const std::size_t batch = std::max<std::size_t>(1, options.batch);
  ShrinkResult result;
  result.op = &op;
  result.seed = options.seed;
  // The pairs (or file groups) holding a control the filter keeps.
  ShrinkSelection selection = SelectShrinkPairs(op, options.pair, options.controls);
  result.left_out = std::move(selection.left_out);
  const std::vector<TypePair>& pairs = selection.pairs;
  // 1. Every enumerable pair, in order: the first with a failing case ends the search.
  const std::vector<generator::NumericExecutionControl> controls = options.controls.ControlsOf(op);
  std::vector<TypePair> sampled;
  for (const TypePair pair : pairs) {
    if (EnumerableInputs(op, pair) == 0) {
      sampled.push_back(pair);
      continue;
    }
    ShrinkResult::SearchPart part;
    std::optional<Counterexample> first;
    std::optional<Counterexample> best;
    EnumeratePair(device, op, pair, controls, options.judge, part, first, best);
    result.search.push_back(part);
    result.tests += part.cases;
    if (best) {
      result.failed = true;
      result.original = first;
      result.simplest = true;
      result.local_minimum = true;
      ConfirmDeterministic(device, *best, options.judge);
      result.minimal = best;
      return result;
    }
  }
  if (sampled.empty()) return result;
  // 2. The rest sampled from their input spaces, then shrunk.
  result.sampled_pairs = sampled.size();
  const rc::Gen<Case> gen = CaseGenOver(op, sampled, options.controls);
  rc::Random random(options.seed);
  ShrinkResult::SearchPart part;
  part.pair = sampled.size() == 1 ? sampled.front() : TypePair{};
  std::uint64_t tests = 0;
  const auto finish = [&] {
    part.cases = tests;
    result.tests += tests;
    result.search.push_back(part);
  };
  while (tests < options.tests) {
    const std::size_t n =
        static_cast<std::size_t>(std::min<std::uint64_t>(batch, options.tests - tests));
    std::vector<rc::Shrinkable<Case>> drawn;
    std::vector<Case> cases;
    drawn.reserve(n);
    cases.reserve(n);
    for (std::size_t i = 0; i < n; ++i) {
      drawn.push_back(gen(random.split(), rc::kNominalSize));
      cases.push_back(drawn.back().value());
    }
    const auto judged = JudgeCases(device, cases, options.judge);
    for (std::size_t i = 0; i < n; ++i) {
      ++tests;
      if (judged[i]) {
        part.failing = 1;
        finish();
        Descend(device, drawn[i], *judged[i], batch, options.max_shrink_steps, options.controls,
                options.judge, result);
        return result;
      }
    }
  }
  finish();
  return result;
}

ShrinkResult ShrinkFrom(Device& device, const Case& start, std::uint64_t max_shrink_steps,
                        const Judge& judge, const generator::ControlFilter& controls) {
  ShrinkResult result;
  result.tests = 1;
  const auto judged = JudgeCases(device, std::span<const Case>(&start, 1), judge);
  if (!judged[0]) return result;
  if (EnumerableInputs(*start.op, start.pair) > 0) {
    // The whole pair under every control: its least failing case (start is one of them).
    ShrinkResult::SearchPart part;
    std::optional<Counterexample> first;
    std::optional<Counterexample> best;
    EnumeratePair(device, *start.op, start.pair,
                  start.op->uses_controls ? controls.ControlsOf(*start.op)
                                          : generator::ControlsFor(*start.op),
                  judge, part, first, best);
    KeepSimplest(best, *judged[0]);
    result.tests += part.cases;
    result.search.push_back(part);
    result.op = start.op;
    result.failed = true;
    result.original = *judged[0];
    result.simplest = true;
    result.local_minimum = true;
    ConfirmDeterministic(device, *best, judge);
    result.minimal = best;
    return result;
  }
  Descend(device, ShrinkableCase(start), *judged[0], 64, max_shrink_steps, controls, judge, result);
  return result;
}

void WriteCounterexampleFile(const std::filesystem::path& path, const Counterexample& cx, bool json,
                             std::uint64_t seed) {
  const Case& c = cx.c;
  generator::FileSpec spec;
  spec.op = c.op;
  spec.pair = c.pair;
  spec.domain = "sampled";
  spec.seed = seed;
  spec.controls = {c.control};  // one input under its own control: one record
  spec.inputs = 1;
  std::string text;
  if (json) {
    text = generator::JsonPreamble(spec);
    generator::AppendJsonRecord(text, *c.op, c.pair, c.in, c.control, cx.expected, true);
    text += generator::JsonTrailer();
  } else {
    text = generator::BinaryPreamble(spec);
    generator::AppendBinaryRecord(text, generator::RecordLayout(*c.op, c.pair), *c.op, c.pair, c.in,
                                  c.control, cx.expected);
  }
  generator::WriteFileAtomically(path, text);
}

std::string DefaultCounterexampleFileName(const Case& c, bool json) {
  return "shrunk-" + c.op->name + "-" + TypeName(c.pair.src) + "-" + TypeName(c.pair.dst) +
         (json ? ".json" : ".bin");
}

nlohmann::ordered_json CounterexampleJson(const Counterexample& cx) {
  const Case& c = cx.c;
  nlohmann::ordered_json j;
  j["op"] = c.op->name;
  j["src"] = TypeName(c.pair.src);
  j["dst"] = TypeName(c.pair.dst);
  j["rmode"] = oracle::RoundingModeName(c.control.rounding_mode);
  j["sat"] = c.control.saturating;
  nlohmann::ordered_json in;
  for (std::size_t i = 0; i < c.op->slots.size(); ++i) {
    in[c.op->slots[i].name] = HexWord(c.in[i], c.op->slots[i].TypeFor(c.pair));
  }
  j["in"] = in;
  j["expected"] = {{"out", HexWord(cx.expected.word, c.pair.dst)},
                   {"flags", HexStatus(cx.expected.status)}};
  if (cx.got.supported) {
    j["got"] = {{"out", HexWord(cx.got.result.word & DstMask(c), c.pair.dst)},
                {"flags", HexStatus(cx.got.result.status)}};
  } else {
    j["got"] = "unsupported";
  }
  if (!cx.failure.empty()) j["failure"] = cx.failure;
  j["eval"] = generator::EvalCommand(c);
  return j;
}

namespace {

// 917504 -> "917,504".
std::string Thousands(std::uint64_t n) {
  std::string digits = std::to_string(n);
  for (int i = static_cast<int>(digits.size()) - 3; i > 0; i -= 3) {
    digits.insert(static_cast<std::size_t>(i), ",");
  }
  return digits;
}

}  // namespace

std::string SearchLine(const ShrinkResult& result, const ShrinkResult::SearchPart& part) {
  const OpDef& op = *result.op;
  const std::size_t sampled_pairs = result.sampled_pairs;
  const std::string fails = part.failing == 0 ? std::string("none fails")
                            : part.enumerated ? Thousands(part.failing) + " fail"
                                              : std::string("one fails");
  if (part.enumerated) {
    return "enumerated all " + Thousands(part.cases) + " cases of " + PairName(op, part.pair) +
           ": " + fails;
  }
  const std::string what = sampled_pairs == 1
                               ? PairName(op, part.pair)
                               : op.name + " (" + std::to_string(sampled_pairs) + " sampled pairs)";
  return "sampled " + Thousands(part.cases) + " cases of " + what +
         " with the default suite's strategies (seed " + std::to_string(result.seed) +
         "): " + fails;
}

std::vector<std::string> SearchLines(const ShrinkResult& result) {
  std::vector<std::string> lines;
  if (result.op == nullptr) return lines;
  const auto& parts = result.search;
  for (std::size_t i = 0; i < parts.size();) {
    // A run of enumerated pairs with no failure: one line.
    std::size_t j = i;
    std::uint64_t cases = 0;
    while (j < parts.size() && parts[j].enumerated && parts[j].failing == 0)
      cases += parts[j++].cases;
    if (j - i >= 2) {
      const auto name = [](TypePair p) { return TypeName(p.src) + " -> " + TypeName(p.dst); };
      lines.push_back("enumerated all " + Thousands(cases) + " cases of " + std::to_string(j - i) +
                      " pairs of " + result.op->name + " (" + name(parts[i].pair) + " .. " +
                      name(parts[j - 1].pair) + "): none fails");
      i = j;
      continue;
    }
    lines.push_back(SearchLine(result, parts[i]));
    ++i;
  }
  return lines;
}

void PrintShrinkResult(std::ostream& out, const ShrinkResult& result) {
  for (const std::string& line : SearchLines(result)) out << line << "\n";
  if (!result.failed || !result.minimal) {
    out << "all " << result.tests << " tests passed\n";
    return;
  }
  const Counterexample& cx = *result.minimal;
  const Case& c = cx.c;
  if (result.simplest) {
    const std::uint64_t failing = result.search.empty() ? 0 : result.search.back().failing;
    out << "simplest of all " << Thousands(failing) << " failing cases, after "
        << Thousands(result.tests) << " test(s)\n";
  } else {
    out << "counterexample after " << result.tests << " test(s), " << result.shrink_steps
        << " shrink step(s), " << result.order_steps << " simplifying step(s), "
        << result.candidates_tried << " candidate(s) tried\n";
  }
  out << "  op:       " << c.op->name << " " << TypeName(c.pair.src) << " -> "
      << TypeName(c.pair.dst) << "\n";
  for (std::size_t i = 0; i < c.op->slots.size(); ++i) {
    const std::string label = c.op->slots[i].name + ":";
    out << "  " << label << std::string(label.size() < 10 ? 10 - label.size() : 1, ' ')
        << HexWord(c.in[i], c.op->slots[i].TypeFor(c.pair)) << "\n";
  }
  out << "  rmode:    " << oracle::RoundingModeName(c.control.rounding_mode) << "\n";
  out << "  sat:      " << (c.control.saturating ? "on" : "off") << "\n";
  out << "  expected: " << ResultText(cx.expected, c.pair.dst) << "\n";
  out << "  got:      " << GotText(cx) << "\n";
  if (!cx.failure.empty()) out << "  failure:  " << cx.failure << "\n";
  out << "  eval:     " << generator::EvalCommand(c) << "\n";
  out << "minimised in the order: " << kSimplestOrderName << "\n";
  if (result.simplest) {
    out << "simplest: yes (the least of every failing case of the pair)\n";
  } else if (result.local_minimum) {
    out << "local minimum: yes (" << result.minimal_candidates
        << " simpler moves checked, none fails)\n";
  } else {
    out << "local minimum: no (stopped after " << result.shrink_steps + result.order_steps
        << " steps)\n";
  }
}

}  // namespace ptovec::tools
