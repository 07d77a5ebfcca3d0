// The conformance gate's reports of a CheckReport: the text report printed by check and run, and
// JUnit XML (--junit).
#pragma once

#include <cstddef>
#include <iosfwd>
#include <string>

#include "ptovec/tools/check.hpp"

namespace ptovec::tools {

/// Writes the text report: totals; mismatches by kind; a table by op, src, dst, mode and Sat;
/// the first `max_report` mismatches with inputs, expected, got (hex and flag names) and the
/// `ptovec eval` command; a last line "PASS" or "FAIL ...".
void PrintReport(std::ostream& out, const CheckReport& report, std::size_t max_report);

/// JUnit XML: <testsuites> with one <testsuite> per vector file and one <testcase> per (mode,
/// Sat) of it (one per file for ops without controls); a failing testcase has a <failure> with
/// counts and the first few mismatches. Text is XML-escaped.
std::string JunitXml(const CheckReport& report);

}  // namespace ptovec::tools
