// `ptovec shrink`'s entry points: the property "device equals oracle" over the pairs a control
// filter selects (SelectShrinkPairs, ShrinkProperty: enumerable pairs enumerated, the rest sampled
// and shrunk) and the descent from a given case (ShrinkFrom). See shrink.hpp.
#include <rapidcheck.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "ptovec/generator/cases.hpp"
#include "ptovec/generator/ops.hpp"
#include "ptovec/generator/writers.hpp"
#include "ptovec/tools/compare.hpp"
#include "ptovec/tools/device.hpp"
#include "ptovec/tools/known_differences.hpp"
#include "ptovec/tools/shrink.hpp"
#include "report/report_text.hpp"
#include "shrink/shrink_internal.hpp"

namespace ptovec::tools {

namespace {

using text::TypeName;

}  // namespace

using shrink_internal::CaseGenOver;
using shrink_internal::ConfirmDeterministic;
using shrink_internal::Descend;
using shrink_internal::EnumeratePair;
using shrink_internal::KeepSimplest;

generator::ControlFilter SignatureControls(const generator::ControlFilter& controls,
                                           const Judge& judge) {
  const std::optional<bool> sat = judge.signature ? SignatureSat(*judge.signature) : std::nullopt;
  if (!sat) return controls;
  if (!controls.sat.empty() &&
      std::find(controls.sat.begin(), controls.sat.end(), *sat) == controls.sat.end()) {
    throw generator::InputError(std::string("--signature names sat ") + (*sat ? "on" : "off") +
                                ", but --sat keeps Sat " + (*sat ? "off" : "on") +
                                " only (give --sat " + (*sat ? "on" : "off") +
                                ", or no --sat: a signature's Sat is kept)");
  }
  generator::ControlFilter narrowed = controls;
  narrowed.sat = {*sat};
  return narrowed;
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
  // A signature's Sat is kept: only cases under it can have the signature.
  const generator::ControlFilter kept = SignatureControls(options.controls, options.judge);
  // The pairs (or file groups) holding a control the filter keeps.
  ShrinkSelection selection = SelectShrinkPairs(op, options.pair, kept);
  result.left_out = std::move(selection.left_out);
  const std::vector<TypePair>& pairs = selection.pairs;
  // 1. Every enumerable pair, in order: the first with a failing case ends the search.
  const std::vector<generator::NumericExecutionControl> controls = kept.ControlsOf(op);
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
  const rc::Gen<Case> gen = CaseGenOver(op, sampled, kept);
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
        Descend(device, drawn[i], *judged[i], batch, options.max_shrink_steps, kept, options.judge,
                result);
        return result;
      }
    }
  }
  finish();
  return result;
}

ShrinkResult ShrinkFrom(Device& device, const Case& start, std::uint64_t max_shrink_steps,
                        const Judge& judge, const generator::ControlFilter& given) {
  ShrinkResult result;
  result.tests = 1;
  const auto judged = JudgeCases(device, std::span<const Case>(&start, 1), judge);
  if (!judged[0]) return result;
  // A signature's Sat is kept when it is start's (a case the device failed on counts whatever
  // its signature, so start may be under the other Sat: then the filter stays as given).
  const std::optional<bool> sat = judge.signature ? SignatureSat(*judge.signature) : std::nullopt;
  const generator::ControlFilter controls =
      sat && *sat == start.control.saturating ? SignatureControls(given, judge) : given;
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

}  // namespace ptovec::tools
