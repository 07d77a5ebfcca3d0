// The conformance gate's reports of a CheckReport: the text report printed by check and run,
// JUnit XML (--junit) and the whole report as JSON (--report-json, schemas/report-format.md).
#pragma once

#include <cstddef>
#include <iosfwd>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "ptovec/tools/check.hpp"

namespace ptovec::tools {

/// Writes the text report: totals; the environment (ptovec's version, the spec edition, the
/// vectors and their manifest's SHA-256); known differences; when something failed the causes,
/// the failures by kind, the mismatches by op, src, dst, mode and Sat, the unsupported vectors in
/// one line per pair (controls collapsed), the mismatches by input class, the symptom groups of
/// mismatches and the first `max_report` failed vectors with inputs, expected, got (hex and flag
/// names) and the `ptovec eval` command; always a table by pair with a total row; notes; a last
/// line "PASS" or "FAIL ...".
void PrintReport(std::ostream& out, const CheckReport& report, std::size_t max_report);

/// The shrunk cases of a report (CheckReport::shrunk; nothing when empty): a header line, then one
/// row per case with its number (k + 1, as in a --triage counterexample file's name), its minimum
/// (exact, local, stopped, not reproduced), the pair, the counterexample's mode, Sat and inputs in
/// hex (dashes when not reproduced) and its label; each column but the last padded to its widest
/// cell. The table that ends `shrink --from --triage`, and the text report's last section.
void PrintShrunkSummary(std::ostream& out, const std::vector<ShrunkCase>& shrunk);

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
/// "allow_unsupported", "environment" (CheckReport::environment, ptovec's version, the spec
/// edition, the device and judge), "totals" (vector counts), "pairs" (the text's table by pair),
/// "unsupported" (its unsupported lines, with each control's count), "causes" (Causes(), in the
/// text report's order), "symptom_groups" (every triage group, "group" its 1-based number as the
/// text report's "group #N"), "per_control" (per file, mode and Sat with vectors), "per_class"
/// (per file and input class with a failure), "known_difference_rules", and
/// "incomplete", "scope", "run_judged" (null when unset), "device_failures", "notes", and
/// "shrunk" (CheckReport::shrunk: each case's number, cause number or null, label, minimum, start,
/// counterexample with its eval line and the device's answer or null, file or null; empty for run
/// and check). Every
/// failed vector named ("first") carries its file, record index, `ptovec eval` line object
/// (generator::EvalLineJson with the expected result) and the device's answer (AnswerJson). Counts
/// are vectors; nothing depends on --max-report.
nlohmann::ordered_json ReportJson(const CheckReport& report);

/// The JSON Schema (draft 2020-12) of ReportJson's document (`ptovec schema report`,
/// schemas/report.schema.json); its "$defs" hold the eval line's (eval-line.schema.json).
nlohmann::ordered_json ReportSchema();

}  // namespace ptovec::tools
