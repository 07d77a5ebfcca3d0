// What the witness search (coverage.cpp FindWitnesses) and the smoke selection
// (smoke_selection.cpp SelectSmokeInputs) share: a walk over a pair's default domain that
// classifies every input under every control of its files, and a parallel loop over pairs.
// Private to the generator library.
#pragma once

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <thread>
#include <vector>

#include "ptovec/generator/coverage.hpp"
#include "ptovec/generator/ops.hpp"
#include "ptovec/generator/suite.hpp"

namespace ptovec::generator::coverage_walk {

/// Runs f(j) for j in 0..n-1 on up to `threads` threads (0: one per hardware thread). Which
/// thread runs which j varies; callers write only to slot j of their results.
template <typename F>
void ParallelFor(std::size_t n, unsigned threads, F f) {
  if (threads == 0) threads = std::max(1U, std::thread::hardware_concurrency());
  std::atomic<std::size_t> next{0};
  const auto work = [&] {
    for (std::size_t j = next++; j < n; j = next++) f(j);
  };
  std::vector<std::thread> pool;
  for (unsigned t = 1; t < threads && t < n; ++t) pool.emplace_back(work);
  work();
  for (std::thread& t : pool) t.join();
}

/// Walks the default domain of a job in domain order, in chunks of 4,096 inputs:
/// visit(index, inputs, controls, masks, sides) for each input, masks[k] its classes under
/// controls[k] (PairClassifier::Classify) and, when `with_sides`, sides[k] the side of each of
/// them (PairClassifier::Sides; nullptr otherwise). The controls are those its files hold
/// (fpatr: those legal for its PreQuantModes, so no class is claimed under a control the mode
/// refuses).
template <typename Visit>
void WalkDomain(const Job& job, const SamplingOptions& sampling, bool with_sides, Visit visit) {
  const OpDef& op = *job.op;
  const InputSet set = op.domain(job.pair, sampling);
  const std::vector<NumericExecutionControl> controls = ControlsFor(op, job.pair);
  const std::size_t nc = controls.size();
  const PairClassifier classifier(op, job.pair);
  constexpr std::uint64_t kChunk = 4096;
  std::vector<Inputs> in(kChunk);
  std::vector<Encoded> out(kChunk * nc);
  std::vector<ClassMask> masks(nc);
  std::vector<ClassMask> sides(nc);
  for (std::uint64_t begin = 0; begin < set.count; begin += kChunk) {
    const auto n = static_cast<std::size_t>(std::min(kChunk, set.count - begin));
    set.Fill(begin, n, in.data());
    EvaluateBatch(op, job.pair, in.data(), n, controls, out.data());
    for (std::size_t i = 0; i < n; ++i) {
      classifier.Classify(in[i], controls, &out[i * nc], masks.data());
      if (with_sides) classifier.Sides(in[i], controls, &out[i * nc], sides.data());
      visit(begin + i, in[i], controls, masks.data(), with_sides ? sides.data() : nullptr);
    }
  }
}

}  // namespace ptovec::generator::coverage_walk
