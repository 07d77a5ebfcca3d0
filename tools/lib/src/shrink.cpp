// `ptovec shrink`: RapidCheck property "device equals oracle" and greedy shrinking along
// RapidCheck's shrink tree (see shrink.hpp).
#include "ptovec/tools/shrink.hpp"

#include <algorithm>
#include <memory>
#include <ostream>
#include <stdexcept>

#include "ptovec/generator/domains.hpp"
#include "ptovec/generator/writers.hpp"
#include "ptovec/oracle/numeric.hpp"
#include "ptovec/tools/check.hpp"

namespace ptovec::tools {

namespace {

using generator::HexStatus;
using generator::HexWord;
using oracle::NumericRoundingMode;
using oracle::Word;

std::string TypeName(oracle::TileDataType t) { return std::string(oracle::Format(t).name); }

Word DstMask(const Case& c) { return oracle::LowBits(~Word{0}, oracle::Format(c.pair.dst).width); }

std::string ResultText(Encoded r, oracle::TileDataType dst) {
  return HexWord(r.word, dst) + " flags " + HexStatus(r.status) + " (" + FlagNames(r.status) + ")";
}

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

// Evaluates the counterexample's case twice more (one call each) and requires the same wrong
// answer both times: a flaky device must not get a counterexample it no longer reproduces.
void ConfirmDeterministic(Device& device, const Counterexample& cx) {
  for (int round = 0; round < 2; ++round) {
    const auto again = JudgeCases(device, std::span<const Case>(&cx.c, 1));
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

// Greedy descent along the shrink tree from a failing node, as RapidCheck shrinks: take the
// first failing candidate, repeat until none fails. Candidates are judged `batch` at a time (the
// first failing one in sequence order wins, so the batch size never changes the result).
void Descend(Device& device, rc::Shrinkable<Case> current, Counterexample failing,
             std::size_t batch, std::uint64_t max_steps, ShrinkResult& result) {
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
      std::vector<Case> cases;
      cases.reserve(chunk.size());
      for (const auto& s : chunk) cases.push_back(s.value());
      const auto judged = JudgeCases(device, cases);
      for (std::size_t i = 0; i < judged.size(); ++i) {
        ++checked;
        if (judged[i]) {
          current = chunk[i];
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
  ConfirmDeterministic(device, failing);
  result.minimal = failing;
}

}  // namespace

std::vector<std::optional<Counterexample>> JudgeCases(Device& device, std::span<const Case> cases) {
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
    if (got.supported && got.result.word == expected.word && got.result.status == expected.status) {
      continue;
    }
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
    const int mode = static_cast<int>(c.control.rounding_mode);
    for (int m : Drain(rc::shrink::towards(mode, 0))) {
      Case k = c;
      k.control.rounding_mode = static_cast<NumericRoundingMode>(m);
      out.push_back(k);
    }
    if (c.control.saturating) {
      Case k = c;
      k.control.saturating = false;
      out.push_back(k);
    }
  }
  return rc::seq::fromContainer(std::move(out));
}

rc::Shrinkable<Case> ShrinkableCase(const Case& c) {
  return rc::shrinkable::shrinkRecur(c, [](const Case& x) { return ShrinkCase(x); });
}

rc::Gen<Case> CaseGen(const OpDef& op, std::optional<TypePair> pair,
                      const generator::ControlFilter& filter) {
  const OpDef* op_ptr = &op;
  // The drawable modes and Sat values, in order: inRange over their positions shrinks toward the
  // first (RNE, Sat off when kept).
  auto modes = std::make_shared<std::vector<NumericRoundingMode>>(filter.modes);
  if (modes->empty())
    modes->assign(oracle::kAllRoundingModes.begin(), oracle::kAllRoundingModes.end());
  auto sats = std::make_shared<std::vector<bool>>(filter.sat);
  if (sats->empty()) *sats = {false, true};
  // One pair: inputs from the op's input space (its own shrink tree: generator::ShrinkInputs),
  // then the mode (inRange shrinks toward RNE) and Sat (toward off). rc::gen::tuple shrinks the
  // inputs first, then the mode, then Sat: the same tree as ShrinkableCase.
  const auto for_pair = [op_ptr, modes, sats](TypePair p) -> rc::Gen<Case> {
    const rc::Gen<generator::Inputs> inputs = op_ptr->input_space(p);
    if (!op_ptr->uses_controls) {
      return rc::gen::map(inputs, [op_ptr, p](const generator::Inputs& in) {
        return Case{op_ptr, p, {}, in};
      });
    }
    return rc::gen::map(rc::gen::tuple(inputs, rc::gen::inRange(0, static_cast<int>(modes->size())),
                                       rc::gen::inRange(0, static_cast<int>(sats->size()))),
                        [op_ptr, p, modes, sats](const std::tuple<generator::Inputs, int, int>& t) {
                          Case c{op_ptr, p, {}, std::get<0>(t)};
                          c.control.rounding_mode =
                              (*modes)[static_cast<std::size_t>(std::get<1>(t))];
                          c.control.saturating = (*sats)[static_cast<std::size_t>(std::get<2>(t))];
                          // fpatr: a control the inputs' PreQuantMode refuses becomes RNE.
                          c.control = generator::LegalControl(*op_ptr, p, c.in, c.control);
                          return c;
                        });
  };
  if (pair) return for_pair(*pair);
  // Building an input space can be costly (destination anchors, interesting codes): each pair's
  // generator is built once, when first drawn.
  const auto pairs = std::make_shared<const std::vector<TypePair>>(op.legal_pairs);
  const auto cache = std::make_shared<std::vector<std::optional<rc::Gen<Case>>>>(pairs->size());
  return rc::gen::mapcat(rc::gen::inRange<std::size_t>(0, pairs->size()),
                         [pairs, cache, for_pair](std::size_t i) {
                           auto& slot = (*cache)[i];
                           if (!slot) slot = for_pair((*pairs)[i]);
                           return *slot;
                         });
}

ShrinkResult ShrinkProperty(Device& device, const ShrinkOptions& options) {
  if (options.op == nullptr) throw std::invalid_argument("ShrinkProperty: no op");
  const OpDef& op = *options.op;
  if (options.pair && !generator::IsLegalPair(op, *options.pair)) {
    throw std::invalid_argument(op.name + " does not accept " + TypeName(options.pair->src) +
                                " -> " + TypeName(options.pair->dst));
  }
  const std::size_t batch = std::max<std::size_t>(1, options.batch);
  const rc::Gen<Case> gen = CaseGen(op, options.pair, options.controls);
  rc::Random random(options.seed);
  ShrinkResult result;
  while (result.tests < options.tests) {
    const std::size_t n =
        static_cast<std::size_t>(std::min<std::uint64_t>(batch, options.tests - result.tests));
    std::vector<rc::Shrinkable<Case>> drawn;
    std::vector<Case> cases;
    drawn.reserve(n);
    cases.reserve(n);
    for (std::size_t i = 0; i < n; ++i) {
      drawn.push_back(gen(random.split(), rc::kNominalSize));
      cases.push_back(drawn.back().value());
    }
    const auto judged = JudgeCases(device, cases);
    for (std::size_t i = 0; i < n; ++i) {
      ++result.tests;
      if (judged[i]) {
        Descend(device, drawn[i], *judged[i], batch, options.max_shrink_steps, result);
        return result;
      }
    }
  }
  return result;
}

ShrinkResult ShrinkFrom(Device& device, const Case& start, std::uint64_t max_shrink_steps) {
  ShrinkResult result;
  result.tests = 1;
  const auto judged = JudgeCases(device, std::span<const Case>(&start, 1));
  if (!judged[0]) return result;
  Descend(device, ShrinkableCase(start), *judged[0], 64, max_shrink_steps, result);
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

void PrintShrinkResult(std::ostream& out, const ShrinkResult& result) {
  if (!result.failed || !result.minimal) {
    out << "all " << result.tests << " tests passed\n";
    return;
  }
  const Counterexample& cx = *result.minimal;
  const Case& c = cx.c;
  out << "counterexample after " << result.tests << " test(s), " << result.shrink_steps
      << " shrink step(s), " << result.candidates_tried << " candidate(s) tried\n";
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
  if (result.local_minimum) {
    out << "local minimum: yes (" << result.minimal_candidates
        << " shrink candidates checked, none fails)\n";
  } else {
    out << "local minimum: no (stopped after " << result.shrink_steps << " shrink steps)\n";
  }
}

}  // namespace ptovec::tools
