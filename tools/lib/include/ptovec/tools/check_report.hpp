// The conformance gate's reports of a CheckReport: the text report printed by check and run,
// JUnit XML (--junit) and the whole report as JSON (--report-json, schemas/report-format.md).
#pragma once

#include <cstddef>
#include <iosfwd>
#include <nlohmann/json.hpp>
#include <string>

#include "ptovec/tools/check.hpp"

namespace ptovec::tools {

/// Writes the text report: totals; mismatches by kind; a table by op, src, dst, mode and Sat;
/// the first `max_report` mismatches with inputs, expected, got (hex and flag names) and the
/// `ptovec eval` command; a last line "PASS" or "FAIL ...".
void PrintReport(std::ostream& out, const CheckReport& report, std::size_t max_report);

/// JUnit XML: <testsuites> with one <testsuite> per vector file and one <testcase> per (mode,
/// Sat) of it (one per file for ops without controls); a failing testcase has a <failure> with
/// counts and the first few mismatches. Each file's <testsuite> has <properties>: how the run
/// judged (ptovec.compare, ptovec.compare.description, ptovec.known_differences,
/// ptovec.allow_unsupported) and the file's vectors (ptovec.vectors, .matched, .mismatched,
/// .waived, .unsupported, .failed), which add up over the suites to the run's totals. Text is
/// XML-escaped.
std::string JunitXml(const CheckReport& report);

/// The version of the JSON report ReportJson writes ("version").
inline constexpr int kReportJsonVersion = 1;

/// The whole report as one JSON document (`--report-json`; schemas/report-format.md, `ptovec
/// schema report`): "format" "ptovec-report", "version", "device" (null when unknown), "passed",
/// "compare" (the policy's name) and "compare_description", "known_differences" (set names),
/// "allow_unsupported", "totals" (vector counts), "causes" (Causes(), in the text report's order),
/// "symptom_groups" (every triage group, "group" its 1-based number as the text report's "group
/// #N"), "per_control" (per file, mode and Sat with vectors), "known_difference_rules", and
/// "incomplete", "scope", "run_judged" (null when unset), "device_failures", "notes". Every
/// failed vector named ("first") carries its file, record index, `ptovec eval` line object
/// (generator::EvalLineJson with the expected result) and the device's answer (AnswerJson). Counts
/// are vectors; nothing depends on --max-report.
nlohmann::ordered_json ReportJson(const CheckReport& report);

/// The JSON Schema (draft 2020-12) of ReportJson's document (`ptovec schema report`,
/// schemas/report.schema.json); its "$defs" hold the eval line's (eval-line.schema.json).
nlohmann::ordered_json ReportSchema();

}  // namespace ptovec::tools
