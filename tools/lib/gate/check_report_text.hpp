// Private to ptovec_tools' gate reports (check_report.cpp, check_junit.cpp,
// check_report_json.cpp): the pieces the text report, the JUnit XML and the JSON report share.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

#include "ptovec/facts.h"
#include "ptovec/tools/check.hpp"
#include "ptovec/tools/known_differences.hpp"

namespace ptovec::tools::check_report_text {

/// The controls of a file of an op that takes them (ptovec/facts.h); one otherwise.
constexpr std::size_t kControls = PTOVEC_FACTS_CONTROLS;

/// The rounding mode name of control slot `control` (mode = slot / 2).
std::string ModeName(std::size_t control);

/// A failed vector in two lines and its `ptovec eval` line, the later ones indented by `indent`.
std::string MismatchText(const Mismatch& m, const std::string& indent);

/// The vectors of the report that rule `r`'s op, types, mode and Sat conditions cover (a shape
/// rule that waived none of them is stale).
std::uint64_t RuleScope(const CheckReport& report, const KnownDifferenceRule& r);

/// The known-difference sets of the report's judge, comma-separated.
std::string SetsText(const CheckReport& r);

/// The counts of one (op, pair) of a report: its files' tallies summed (a split pair's file
/// groups are one pair).
struct PairTally {
  const OpDef* op = nullptr;
  TypePair pair{};  ///< the whole pair
  std::uint64_t vectors = 0;
  std::uint64_t matched = 0;
  std::uint64_t waived = 0;
  std::uint64_t failed = 0;  ///< mismatched: no rule waives them
  std::uint64_t unsupported = 0;
  /// Unsupported vectors per control slot (rmode * 2 + sat; slot 0 for an op without controls).
  std::array<std::uint64_t, kControls> control_unsupported{};
  std::size_t unsupported_groups = 0;  ///< symptom groups of unsupported vectors
};

/// Every (op, pair) of the report in run order (of first sight).
std::vector<PairTally> PairTallies(const CheckReport& r);

/// The control slots holding unsupported vectors of a pair (bit rmode * 2 + sat).
std::uint16_t UnsupportedControls(const PairTally& p);

/// A set of control slots (bit rmode * 2 + sat), collapsed: "all controls" (all 14), "every mode,
/// Sat on", "RTO RHB, both Sat", "RNE, Sat off; every mode, Sat on".
std::string ControlSetText(std::uint16_t controls);

/// The unsupported vectors, one line per pair: how many of its vectors, under which controls,
/// in how many symptom groups; nothing when none was unsupported.
void PrintUnsupportedByPair(std::ostream& out, const CheckReport& r);

/// Every (op, pair) in run order with its vectors, matched, waived, failed and unsupported, and a
/// total row.
void PrintByPair(std::ostream& out, const CheckReport& r);

/// The diagnosis (causes.hpp): one paragraph per cause, explained ones first (most vectors
/// first), then the coarse signatures nothing explains; nothing when no vector mismatched. With
/// `max_report` 0 only each cause's line.
void PrintCauses(std::ostream& out, const CheckReport& r, std::size_t max_report);

}  // namespace ptovec::tools::check_report_text
