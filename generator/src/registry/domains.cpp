// Input domains (domains.hpp): sampled sets and RapidCheck generators of strategies, listed and
// exhaustive sets, and the whole input space of an op with word shrinking and uniform draws. The
// edge sets the strategies aim at are in domain_edges.cpp.
#include "ptovec/generator/domains.hpp"

#include <algorithm>
#include <array>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "ptovec/generator/ops.hpp"
#include "ptovec/generator/sampler.hpp"
#include "ptovec/oracle/format_edges.hpp"
#include "ptovec/oracle/formats.hpp"
#include "ptovec/oracle/numeric.hpp"

namespace ptovec::generator {

namespace {}  // namespace

InputSet SampledSet(std::vector<SampleStrategy> strategies, std::uint64_t seed,
                    std::uint64_t samples) {
  auto sample = std::make_shared<const Sample>(std::move(strategies), seed, samples);
  InputSet set;
  set.count = sample->count();
  set.kind = "sampled";
  set.strategies = sample->counts();
  set.at = [sample](std::uint64_t i) { return sample->at(i); };
  set.fill = [sample](std::uint64_t begin, std::uint64_t n, Inputs* out) {
    sample->Fill(begin, n, out);
  };
  return set;
}

rc::Gen<Inputs> StrategyGen(const TupleSet& set) {
  auto shared = std::make_shared<const TupleSet>(set);
  if (set.size() == 0) throw std::invalid_argument("StrategyGen: empty strategy");
  // A uniform 128-bit draw reduced modulo the size (the bias is below 2^-64 for every set here).
  // inRange is uniform over its range whatever RapidCheck's size parameter is.
  const auto word = rc::gen::inRange<std::uint64_t>(0, ~std::uint64_t{0});
  return rc::gen::apply(
      [shared](std::uint64_t high, std::uint64_t low) {
        return shared->at(((static_cast<Index>(high) << 64) | low) % shared->size());
      },
      word, word);
}

rc::Gen<Inputs> StrategyGen(const SampleStrategy& strategy) {
  if (strategy.parts.size() == 1) return StrategyGen(strategy.parts[0].set);
  // A part by weight, then a uniform tuple of it (rc::gen::weightedOneOf takes only an
  // initializer list, so the same is built from inRange and mapcat).
  auto parts = std::make_shared<std::vector<std::pair<int, rc::Gen<Inputs>>>>();
  int total = 0;
  for (const WeightedSet& p : strategy.parts) {
    parts->emplace_back(p.weight, StrategyGen(p.set));
    total += p.weight;
  }
  return rc::gen::mapcat(rc::gen::inRange(0, total), [parts](int ticket) {
    for (const auto& [weight, gen] : *parts) {
      if (ticket < weight) return gen;
      ticket -= weight;
    }
    return parts->back().second;
  });
}

std::vector<Strategy> StrategyGens(const std::vector<SampleStrategy>& strategies) {
  std::vector<Strategy> out;
  for (const SampleStrategy& s : strategies) out.push_back({s.name, s.weight, StrategyGen(s)});
  return out;
}

InputSet ListSet(std::vector<Inputs> tuples, std::string kind) {
  auto shared = std::make_shared<const std::vector<Inputs>>(std::move(tuples));
  InputSet set;
  set.count = shared->size();
  set.kind = std::move(kind);
  set.at = [shared](std::uint64_t i) { return (*shared)[static_cast<std::size_t>(i)]; };
  return set;
}

InputSet ExhaustiveCodes(TileDataType type, const std::function<bool(Word)>& keep) {
  const oracle::FormatInfo& f = oracle::Format(type);
  if (f.width > 16) {
    throw std::invalid_argument(std::string(f.name) + " is too wide to enumerate (" +
                                std::to_string(f.width) + " bits; at most 16)");
  }
  std::vector<Inputs> codes;
  for (Word code = 0; code < (Word{1} << f.width); ++code) {
    if (!keep || keep(code)) codes.push_back(Inputs{code, 0, 0, 0});
  }
  return ListSet(std::move(codes), "exhaustive");
}

// ---- The whole input space of an op, with RapidCheck shrinking ----

namespace {

// Every value of a RapidCheck sequence, in order.
template <typename T>
std::vector<T> Drain(rc::Seq<T> seq) {
  std::vector<T> out;
  while (auto v = seq.next()) out.push_back(std::move(*v));
  return out;
}

}  // namespace

std::vector<Word> ShrinkWord(TileDataType type, Word word) {
  const oracle::FormatInfo& f = oracle::Format(type);
  const unsigned width = f.width;
  std::vector<Word> out;
  const auto add = [&out, word](Word w) {
    if (w != word && std::find(out.begin(), out.end(), w) == out.end()) out.push_back(w);
  };
  if (f.kind == oracle::FormatKind::SignedInteger) {
    const auto value = static_cast<std::int64_t>(oracle::SignExtend(word, width));
    for (const std::int64_t& v : Drain(rc::shrink::integral(value))) {
      add(oracle::LowBits(static_cast<Word>(v), width));
    }
  } else if (f.SignBit() == 0) {  // unsigned integers, E8M0
    for (const Word& v : Drain(rc::shrink::towards<Word>(word, 0))) add(v);
    for (unsigned bit = width; bit-- > 0;) {
      if ((word >> bit) & 1) add(word & ~(Word{1} << bit));
    }
  } else {  // sign-magnitude floating types
    const Word sign = word & f.SignBit();
    const Word magnitude = word & oracle::LowBits(~Word{0}, width - 1);
    add(0);
    if (sign != 0) add(magnitude);
    for (const Word& m : Drain(rc::shrink::towards<Word>(magnitude, 0))) {
      add(sign | m);
    }
    // One set bit of the magnitude cleared, from the top: keeps the low bits that make a tie
    // or an edge while the rest simplifies.
    for (unsigned bit = width - 1; bit-- > 0;) {
      if ((magnitude >> bit) & 1) add(sign | (magnitude & ~(Word{1} << bit)));
    }
    if (f.HasSignExponentFraction()) {  // the exponent and the fraction fields, each on its own
      const unsigned fraction_bits = f.fraction_bits;
      const Word fraction_mask = oracle::LowBits(~Word{0}, fraction_bits);
      const Word exponent = magnitude >> fraction_bits;
      const Word fraction = magnitude & fraction_mask;
      for (const Word& e : Drain(rc::shrink::towards<Word>(exponent, 0))) {
        add(sign | (e << fraction_bits) | fraction);
      }
      for (const Word& m : Drain(rc::shrink::towards<Word>(fraction, 0))) {
        add(sign | (exponent << fraction_bits) | m);
      }
    }
  }
  return out;
}

rc::Seq<Inputs> ShrinkInputs(const OpDef& op, TypePair pair, const Inputs& in) {
  std::vector<Inputs> out;
  for (std::size_t i = 0; i < op.slots.size(); ++i) {
    for (Word w : ShrinkWord(op.slots[i].TypeFor(pair), in[i])) {
      Inputs candidate = in;
      candidate[i] = w;
      if (!op.check_domain(pair, candidate)) out.push_back(candidate);
    }
  }
  return rc::seq::fromContainer(std::move(out));
}

rc::Shrinkable<Inputs> ShrinkableInputs(const OpDef& op, TypePair pair, const Inputs& in) {
  const OpDef* op_ptr = &op;
  return rc::shrinkable::shrinkRecur(
      in, [op_ptr, pair](const Inputs& x) { return ShrinkInputs(*op_ptr, pair, x); });
}

std::vector<Word> InterestingCodes(TileDataType type) {
  const oracle::FormatInfo& f = oracle::Format(type);
  if (f.width > 16) {
    throw std::invalid_argument("InterestingCodes: " + std::string(f.name) +
                                " is wider than 16 bits");
  }
  const Word count = Word{1} << f.width;
  std::vector<Word> out;
  if (!f.IsFloating()) {
    const Word all_ones = count - 1;
    const bool is_signed = f.kind == oracle::FormatKind::SignedInteger;
    const Word largest = is_signed ? all_ones >> 1 : all_ones;
    const Word smallest = is_signed ? largest + 1 : 0;
    for (Word w : {Word{0}, Word{1}, largest, smallest, all_ones}) {
      if (std::find(out.begin(), out.end(), w) == out.end()) out.push_back(w);
    }
    std::sort(out.begin(), out.end());
    return out;
  }
  Word one = count;                                                                     // none
  if (f.HasSignExponentFraction()) one = static_cast<Word>(f.bias) << f.fraction_bits;  // 1.0
  for (Word w = 0; w < count; ++w) {
    const auto c = oracle::TileNumericValueClass(type, w);
    const bool first = w == 0 || oracle::TileNumericValueClass(type, w - 1) != c;
    const bool last = w + 1 == count || oracle::TileNumericValueClass(type, w + 1) != c;
    const bool is_one = one != count && (w & (count / 2 - 1)) == one;
    if (first || last || is_one) out.push_back(w);
  }
  return out;
}

rc::Gen<Inputs> UniformDomain(const OpDef& op, TypePair pair) {
  const OpDef* op_ptr = &op;
  return rc::Gen<Inputs>([op_ptr, pair](const rc::Random& random, int) {
    rc::Random r = random;
    for (int attempt = 0; attempt < 10000; ++attempt) {
      Inputs in{};
      for (std::size_t i = 0; i < op_ptr->slots.size(); ++i) {
        in[i] = oracle::LowBits(r.next(), oracle::Format(op_ptr->slots[i].TypeFor(pair)).width);
      }
      if (!op_ptr->check_domain(pair, in)) return rc::shrinkable::just(in);
    }
    throw rc::GenerationFailure("uniform: no tuple of " + op_ptr->name +
                                " in its domain after 10000 draws");
  });
}

rc::Gen<std::pair<std::uint32_t, std::uint32_t>> UniformOffsetAndWidth() {
  return rc::gen::apply(
      [](int width_index, std::uint64_t random) {
        const int width = std::array{0, 5, 9, 17}[static_cast<std::size_t>(width_index)];
        if (width == 0) return std::pair<std::uint32_t, std::uint32_t>{0, 0};
        const std::int64_t lo = oracle::SignedFieldMinimum(width);
        const std::int64_t offset =
            lo + static_cast<std::int64_t>(random % (std::uint64_t{1} << width));
        return std::pair<std::uint32_t, std::uint32_t>{
            static_cast<std::uint32_t>(static_cast<std::int32_t>(offset)),
            static_cast<std::uint32_t>(width)};
      },
      rc::gen::inRange(0, 4), rc::gen::inRange<std::uint64_t>(0, std::uint64_t{1} << 32));
}

rc::Gen<Inputs> InputSpace(const OpDef& op, TypePair pair, std::vector<Strategy> strategies,
                           std::optional<rc::Gen<Inputs>> uniform) {
  const rc::Gen<Inputs> uniform_gen = uniform ? *uniform : UniformDomain(op, pair);
  if (strategies.empty()) {
    strategies.push_back({"uniform_codes", 3, uniform_gen});
    if (op.slots.size() == 1 && oracle::Format(pair.src).width <= 16) {
      std::vector<Word> codes = InterestingCodes(pair.src);
      std::vector<Inputs> tuples;
      for (Word w : codes) {
        const Inputs in{w, 0, 0, 0};
        if (!op.check_domain(pair, in)) tuples.push_back(in);
      }
      if (!tuples.empty()) {
        strategies.push_back({"interesting_codes", 1, rc::gen::elementOf(std::move(tuples))});
      }
    }
  } else {
    int total = 0;
    for (const Strategy& s : strategies) total += s.weight;
    strategies.push_back({"uniform", std::max(1, total / 3), uniform_gen});
  }
  int total = 0;
  for (const Strategy& s : strategies) total += s.weight;
  auto shared = std::make_shared<const std::vector<Strategy>>(std::move(strategies));
  const rc::Gen<Inputs> mix = rc::gen::mapcat(rc::gen::inRange(0, total), [shared](int ticket) {
    for (const Strategy& s : *shared) {
      if (ticket < s.weight) return s.gen;
      ticket -= s.weight;
    }
    return shared->back().gen;
  });
  const OpDef* op_ptr = &op;
  return rc::Gen<Inputs>([op_ptr, pair, mix](const rc::Random& random, int size) {
    rc::Random r = random;
    for (int attempt = 0; attempt < 1000; ++attempt) {
      const Inputs in = mix(r.split(), size).value();
      if (!op_ptr->check_domain(pair, in)) return ShrinkableInputs(*op_ptr, pair, in);
    }
    throw rc::GenerationFailure("input space of " + op_ptr->name +
                                ": no tuple in its domain after 1000 draws");
  });
}

}  // namespace ptovec::generator
