// The causes of a check's or run's failures (diagnosis.hpp): what the report leads with.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "ptovec/tools/check.hpp"

namespace ptovec::tools {

/// One cause: the failing vectors one explanation accounts for, or, where no explanation
/// reproduces them, those of one coarse signature.
struct Cause {
  /// Index in AllExplanations(); nullopt: nothing explains these vectors.
  std::optional<std::size_t> explanation;
  /// The explanation's name, or the coarse signature "<op> <src> -> <dst>, sat on|off: word
  /// <difference>[; flags <difference>]" (no Sat part for an op without controls; no flags part
  /// when the policy compares no flag).
  std::string text;
  std::uint64_t count = 0;  ///< failing vectors
  /// Its triage groups (indices in CheckReport::groups) with the vectors of each it accounts for,
  /// in the groups' order.
  std::vector<std::pair<std::size_t, std::uint64_t>> groups;
  Mismatch first;  ///< its first vector in run order
  /// The simplest (simplicity.hpp, Simpler; ties: the first in run order) of the first vectors
  /// of its diagnosis cells, one per symptom group and set of reproducing explanations: a
  /// simple case at no cost per vector; `ptovec shrink --triage` searches for the simplest.
  Mismatch simplest;
  /// Other explanations that reproduce every one of its vectors too (they explain them equally;
  /// the cause names the one that could have changed the fewest of the run's vectors).
  std::vector<std::size_t> equally;
};

/// The causes of report.cells: explained causes by the cheapest cover with consistent
/// explanations (gate/cover.hpp), then a greedy cover of what is left (diagnosis.hpp), most vectors
/// first, then the unexplained coarse signatures in order of first sight.
std::vector<Cause> Causes(const CheckReport& report);

/// About how many vectors the device got right explanation `k` (index in AllExplanations())
/// answers otherwise (as the policy compares) on its support, the (op, pair)s where it reproduces
/// a failing vector (a cause is an explanation narrowed to where it was seen): per (file, mode,
/// Sat) of those, the share of its sampled matched vectors (ControlTally::matched_samples) that
/// it answers otherwise, times its matched vectors. The cover ranks an explanation by the vectors
/// it reproduces less this.
std::uint64_t ExplanationContradictions(std::size_t k, const CheckReport& report);

/// How many of one (file, mode, Sat) slice's sampled matched vectors (ControlTally::
/// matched_samples) explanation `e` answers otherwise as `policy` compares (0 where it does not
/// apply): the contradictions ExplanationContradictions scales and the cover (gate/cover.cpp)
/// tests.
std::uint64_t SampledContradictions(const Explanation& e, const ControlTally& tally,
                                    const generator::ComparePolicy& policy);

/// How many of the run's vectors `e` could have changed (ExplanationApplies over each file's
/// per-control tallies): the tie-break of the cover.
std::uint64_t ExplanationScope(const Explanation& e, const CheckReport& report);

}  // namespace ptovec::tools
