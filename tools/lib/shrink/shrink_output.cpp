// What `ptovec shrink` writes: the counterexample as a one-vector file (WriteCounterexampleFile)
// and as JSON (CounterexampleJson), pair names, the search lines and the text report
// (PrintShrinkResult).
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <ostream>
#include <string>
#include <vector>

#include "ptovec/generator/atomic_file.hpp"
#include "ptovec/generator/cases.hpp"
#include "ptovec/generator/ops.hpp"
#include "ptovec/generator/word_text.hpp"
#include "ptovec/generator/writers.hpp"
#include "ptovec/oracle/formats.hpp"
#include "ptovec/tools/shrink.hpp"
#include "report/report_text.hpp"
#include "shrink/shrink_internal.hpp"

namespace ptovec::tools {

namespace {

using text::ResultText;
using text::TypeName;

using generator::HexStatus;
using generator::HexWord;

// 917504 -> "917,504".
std::string Thousands(std::uint64_t n) {
  std::string digits = std::to_string(n);
  for (int i = static_cast<int>(digits.size()) - 3; i > 0; i -= 3) {
    digits.insert(static_cast<std::size_t>(i), ",");
  }
  return digits;
}

}  // namespace

namespace shrink_internal {

std::string GotText(const Counterexample& cx) {
  if (!cx.failure.empty()) return "no answer: the device failed on this case (see failure)";
  return cx.got.supported
             ? ResultText({cx.got.result.word & DstMask(cx.c), cx.got.result.status}, cx.c.pair.dst)
             : std::string("unsupported");
}

}  // namespace shrink_internal

using shrink_internal::DstMask;
using shrink_internal::GotText;

std::string PairName(const OpDef& op, TypePair pair) {
  const std::string group = generator::FileGroupName(op, pair);
  return op.name + " " + TypeName(pair.src) + " -> " + TypeName(pair.dst) +
         (group.empty() ? "" : " " + group);
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
