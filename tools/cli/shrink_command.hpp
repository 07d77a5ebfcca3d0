// `ptovec shrink`'s parts shared by cmd_shrink.cpp (the property search and the command's options)
// and cmd_shrink_from.cpp (--from RESULTS): the options, the judge, the counterexample files and
// the result's JSON.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "commands.hpp"
#include "ptovec/generator/ops.hpp"
#include "ptovec/oracle/edition.hpp"
#include "ptovec/tools/compare.hpp"
#include "ptovec/tools/shrink.hpp"

namespace ptovec::cli::shrink_command {

struct ShrinkArgs {
  DeviceArgs device;
  std::string op;
  std::string src;
  std::string dst;
  std::uint64_t seed = 1;
  std::uint64_t tests = 10000;
  std::string out;
  std::string format = "bin";
  bool json = false;
  std::string from;
  std::string vectors;
  std::string rmode;
  std::string sat;
  JudgeArgs judge;
  std::string signature;  // --signature: only failures with this triage signature
  std::string classes;    // --class: only failures of these input classes
  bool triage = false;    // --from --triage: shrink one failure of each cause
  ReportFiles report;     // --from: --report-json, --report-html (the report with its shrunk cases)
  std::string edition;    // --edition as given ("": the default, or with --from the file's)
  /// The edition the names are looked up in: --edition, or with --from the results file's
  /// (set by the command before anything reads the names).
  oracle::Edition resolved_edition = oracle::kDefaultEdition;
};

/// The judge of --compare/--flags/--known-differences/--allow-unsupported, --signature (checked
/// against the op: --signature needs --op) and --class. Throws generator::InputError.
tools::Judge ShrinkJudge(const ShrinkArgs& a);

/// One line saying how failures are judged, when it is not the default ("" otherwise).
std::string JudgeLine(const tools::Judge& judge);

/// Writes the counterexample file of a result (to `out`, else its default name); returns its
/// path ("" when nothing was found). A file it replaces adds a line to `replaced`.
std::string WriteResultFile(const tools::ShrinkResult& r, const std::string& out, bool json_file,
                            std::uint64_t seed, std::vector<std::string>& replaced);

/// Prints the lines of WriteResultFile's replacements on stderr, once the command completes.
void PrintReplaced(const std::vector<std::string>& replaced);

/// A result as the --json output has it (search lines, counterexample, minimum, file).
nlohmann::ordered_json ResultJson(const tools::ShrinkResult& r, const std::string& file);

/// The pair --src/--dst name for `op`: both or neither, and legal for the op. Throws
/// generator::InputError.
std::optional<generator::TypePair> SelectedPair(const ShrinkArgs& a, const generator::OpDef& op);

/// `shrink --from RESULTS` (cmd_shrink_from.cpp): exit 0 nothing to shrink, 1 counterexamples.
int RunFrom(const ShrinkArgs& a, bool json_file);

}  // namespace ptovec::cli::shrink_command
