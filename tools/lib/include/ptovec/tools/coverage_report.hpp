// ptovec coverage's report: how many vectors of a suite hit each outcome class of each (op, types,
// mode, Sat), within a scope (the default suite's pairs and controls, or what the vectors hold).
#pragma once

#include <cstdint>
#include <iosfwd>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "ptovec/oracle/edition.hpp"

namespace ptovec::tools {

/// What coverage counts and requires.
struct CoverageRequest {
  std::vector<std::string> vectors;  ///< suite folders or vector files
  std::string scope = "default";     ///< "default" (the default suite's pairs and controls; absent
                                     ///< ones are missing) or "present" (what the vectors hold)
  bool quiet = false;                ///< no table per pair: only the summary and missing lines
  /// --edition: only vectors of this edition (a file of another is refused); nullopt: the
  /// vectors' one edition (a mix is refused). The default suite and the witnesses are the
  /// vectors' edition's (this one when no vector is read).
  std::optional<oracle::Edition> edition;
};

/// The counts: the --json document (schemas/coverage.schema.json) and the missing lines.
struct CoverageReport {
  nlohmann::ordered_json json;
  std::vector<std::string> missing;  ///< one line per reachable class, control or pair not hit
};

/// Counts the vectors of `request` and prints on `out` a table per pair (unless quiet), the scope
/// line, a `missing:` line per missing class and the summary. Throws generator::InputError for
/// unreadable vectors.
CoverageReport ReportCoverage(const CoverageRequest& request, std::ostream& out);

}  // namespace ptovec::tools
