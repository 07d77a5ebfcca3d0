// The descent of `ptovec shrink` from a failing case: judging cases (JudgeCases), the greedy
// descent along RapidCheck's shrink tree, then toward the simplest case by SimplerMoves, and the
// check that the final case fails the same way again.
#include <rapidcheck.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <exception>
#include <optional>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "ptovec/generator/cases.hpp"
#include "ptovec/generator/ops.hpp"
#include "ptovec/tools/device.hpp"
#include "ptovec/tools/known_differences.hpp"
#include "ptovec/tools/shrink.hpp"
#include "report/report_text.hpp"
#include "shrink/shrink_internal.hpp"

namespace ptovec::tools {

namespace {

using text::ResultText;

}  // namespace

namespace shrink_internal {

namespace {

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

}  // namespace

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

}  // namespace shrink_internal

using shrink_internal::DstMask;

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

}  // namespace ptovec::tools
