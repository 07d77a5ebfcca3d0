// Private to ptovec_tools' gate reports (check_report.cpp, check_junit.cpp,
// check_report_json.cpp): the pieces the text report, the JUnit XML and the JSON report share.
#pragma once

#include <cstddef>
#include <cstdint>
#include <ostream>
#include <string>

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

/// The diagnosis (causes.hpp): one paragraph per cause, explained ones first (most vectors
/// first), then the coarse signatures nothing explains; nothing when no vector mismatched. With
/// `max_report` 0 only each cause's line.
void PrintCauses(std::ostream& out, const CheckReport& r, std::size_t max_report);

}  // namespace ptovec::tools::check_report_text
