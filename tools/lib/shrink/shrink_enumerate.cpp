// Enumeration of small input spaces for `ptovec shrink`: which pairs are enumerable
// (EnumerableInputs), their whole space in the suite's order (EnumerableSpace), and the pass over
// every case of a pair under every control that finds its least failing case (EnumeratePair).
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <stdexcept>
#include <utility>
#include <vector>

#include "ptovec/generator/cases.hpp"
#include "ptovec/generator/domains.hpp"
#include "ptovec/generator/ops.hpp"
#include "ptovec/oracle/formats.hpp"
#include "ptovec/oracle/numeric.hpp"
#include "ptovec/tools/device.hpp"
#include "ptovec/tools/known_differences.hpp"
#include "ptovec/tools/shrink.hpp"
#include "report/report_text.hpp"
#include "shrink/shrink_internal.hpp"

namespace ptovec::tools {

namespace {

using text::TypeName;

}  // namespace

namespace shrink_internal {

namespace {

// Inputs per enumeration block: memory stays bounded whatever the pair.
constexpr std::size_t kEnumerationBlock = 4096;

}  // namespace

void KeepSimplest(std::optional<Counterexample>& best, Counterexample cx) {
  if (!best || Simpler(cx.c, best->c)) best = std::move(cx);
}

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

}  // namespace shrink_internal

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

}  // namespace ptovec::tools
