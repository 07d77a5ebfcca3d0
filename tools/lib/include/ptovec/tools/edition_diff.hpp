// `ptovec diff --from E1 --to E2`: the vectors of E2's selection evaluated under both editions,
// counted by what changed (docs/cli.md "diff"), with the simplest changed case of each pair.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "ptovec/generator/cases.hpp"
#include "ptovec/generator/ops.hpp"
#include "ptovec/generator/suite.hpp"
#include "ptovec/oracle/edition.hpp"

namespace ptovec::tools {

struct DiffOptions {
  oracle::Edition from = oracle::kDefaultEdition;
  oracle::Edition to = oracle::kDefaultEdition;
  generator::SamplingOptions sampling;
  generator::ControlFilter controls;  ///< --rmode/--sat: the controls of each job's vectors
  /// When not empty, one per job: its inputs (the smoke suite's), else the job's default domain.
  std::vector<std::shared_ptr<const std::vector<generator::Inputs>>> selected;
  unsigned threads = 0;      ///< 0: one per hardware thread; never changes the result
  bool progress = false;     ///< a progress line on stderr
  bool keep_inputs = false;  ///< fill PairDiff::changed_inputs
};

/// One job of the `to` edition's selection.
struct PairDiff {
  generator::Job job;                         ///< of the `to` edition
  const generator::OpDef* from_op = nullptr;  ///< nullptr: the op or the pair is new in `to`
  std::uint64_t vectors = 0;                  ///< inputs x controls of the job
  std::uint64_t changed = 0;                  ///< the word or the flags differ
  std::uint64_t word = 0;                     ///< the word differs (flags may differ too)
  std::uint64_t flags = 0;                    ///< the flags differ (the word may differ too)
  std::uint64_t unchanged = 0;                ///< word and flags equal
  /// Vectors `from` has no answer for: the op or pair is new, the control is not one of the
  /// pair's in `from`, or `from`'s domain refuses the input.
  std::uint64_t fresh = 0;
  /// The simplest changed case (SimplicityOf), as a case of `to`, and both answers.
  std::optional<generator::Case> simplest;
  generator::Encoded from_answer{};
  generator::Encoded to_answer{};
  /// The inputs with at least one changed vector, in domain order (DiffOptions::keep_inputs).
  std::vector<generator::Inputs> changed_inputs;
};

/// A job of the `from` edition's selection that `to` does not have.
struct GonePair {
  generator::Job job;         ///< of the `from` edition
  std::string reason;         ///< "retired: ..." or "not a pair of <op> in <to>"
  std::uint64_t vectors = 0;  ///< inputs x controls (the filter's) of its default domain
};

/// Evaluates every vector of `jobs` (of options.to) under both editions, on options.threads.
std::vector<PairDiff> DiffJobs(const std::vector<generator::Job>& jobs, const DiffOptions& options);

/// The jobs of `from_jobs` (of options.from, the same selection options) that `to_jobs` (of
/// options.to) lacks: the op retired or missing in `to`, the pair not legal there, or a legal
/// pair of `to` that its selection does not hold (a pair its default suite dropped).
std::vector<GonePair> GoneJobs(const std::vector<generator::Job>& from_jobs,
                               const std::vector<generator::Job>& to_jobs,
                               const DiffOptions& options);

/// The `ptovec eval` line that reproduces case `c` in `edition`, always with --edition.
std::string EvalLineIn(const generator::Case& c, oracle::Edition edition);

}  // namespace ptovec::tools
