// ptovec check: compare a device's results file with the expected vectors.
#include <exception>
#include <filesystem>
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <system_error>
#include <vector>

#include "commands.hpp"
#include "edition_option.hpp"
#include "ptovec/generator/atomic_file.hpp"
#include "ptovec/generator/cases.hpp"
#include "ptovec/generator/errors.hpp"
#include "ptovec/generator/interrupts.hpp"
#include "ptovec/generator/writers.hpp"
#include "ptovec/tools/check.hpp"
#include "ptovec/tools/check_outputs.hpp"
#include "ptovec/tools/check_report.hpp"
#include "ptovec/tools/known_differences.hpp"
#include "ptovec/tools/results.hpp"
#include "scripts.hpp"

namespace ptovec::cli {

namespace {

struct CheckArgs {
  std::vector<std::string> vectors;
  std::string op, src, dst;
  std::string results;
  std::string junit;
  std::string report_json;
  std::string report_html;
  std::string mismatches;
  bool mismatches_unsupported = false;
  std::string rmode, sat;
  std::size_t max_report = 20;
  JudgeArgs judge;
  bool quiet = false;
  std::string edition;  // --edition: "" any (the results' and the vectors' must agree)
};

}  // namespace

generator::VectorSelection VectorsOfResults(const std::vector<std::string>& given,
                                            const std::string& results) {
  generator::VectorSelection vectors;
  for (const std::string& v : given) vectors.paths.emplace_back(v);
  if (!vectors.paths.empty()) return vectors;
  std::error_code error;
  if (!std::filesystem::is_regular_file(results, error)) {
    throw generator::InputError("results file " + results +
                                " does not exist or is not a file (expected the results file "
                                "of a `ptovec run`, or of a harness: schemas/results-format.md)");
  }
  try {
    vectors.paths = tools::ResultsReader(results).vectors();
  } catch (const std::exception&) {
    // Not a results file with a header (TestFloat-style text, or no file): its folder, where
    // the reading of the results then says what is wrong.
  }
  if (vectors.paths.empty()) {
    const std::filesystem::path folder = std::filesystem::path(results).parent_path();
    vectors.paths.push_back(folder.empty() ? std::filesystem::path(".") : folder);
  }
  return vectors;
}

std::vector<std::unique_ptr<generator::FolderLock>> LockVectorFolders(
    const generator::VectorSelection& vectors) {
  std::vector<std::unique_ptr<generator::FolderLock>> locks;
  for (const std::filesystem::path& path : vectors.paths) {
    std::error_code error;
    const std::filesystem::path folder =
        std::filesystem::is_directory(path, error) ? path : path.parent_path();
    locks.push_back(std::make_unique<generator::FolderLock>(
        folder, generator::FolderLock::Mode::Read, "read", "--vectors folder"));
  }
  return locks;
}

void AddReportJsonOption(CLI::App& app, std::string& path) {
  app.add_option("--report-json", path,
                 "also write the whole report as JSON to FILE: totals, causes, symptom groups, "
                 "counts per mode and Sat, known-difference rules (`ptovec schema report`, "
                 "schemas/report-format.md)");
}

void AddReportHtmlOption(CLI::App& app, std::string& path) {
  app.add_option("--report-html", path,
                 "also write the report as one self-contained HTML page to FILE (causes, heat "
                 "map of failures by pair x mode x Sat, per-pair totals, filters; drawn from the "
                 "JSON report by tools/cli/report_html.py with python3-matplotlib)");
}

void WriteReportFiles(const tools::CheckReport& report, const ReportFiles& files) {
  if (!files.junit.empty()) generator::WriteFileAtomically(files.junit, tools::JunitXml(report));
  if (files.report_json.empty() && files.report_html.empty()) return;
  const std::string json = tools::ReportJson(report).dump(
                               2, ' ', false, nlohmann::ordered_json::error_handler_t::replace) +
                           "\n";
  if (!files.report_json.empty()) generator::WriteFileAtomically(files.report_json, json);
  if (!files.report_html.empty()) DrawFromJson("report_html.py", json, files.report_html);
}

void AddMismatchesOptions(CLI::App& app, std::string& path, bool& unsupported) {
  app.add_option("--mismatches", path,
                 "write every mismatched or waived vector to FILE as JSON lines (inputs, mode, "
                 "Sat, input class, expected, got, kind, verdict, rule, signature)");
  app.add_flag("--mismatches-unsupported", unsupported,
               "also write every unsupported vector to the --mismatches file (one line each: "
               "for a device that supports little, a large file)");
}

void CheckMismatchesOptions(const std::string& path, bool unsupported) {
  if (unsupported && path.empty()) {
    throw generator::InputError(
        "--mismatches-unsupported goes with --mismatches FILE (the file it adds the "
        "unsupported vectors to)");
  }
}

/// Prints the report, writes the JUnit, JSON and HTML reports when asked, and returns 0 (all
/// match) or 1.
int FinishReport(const tools::CheckReport& report, const ReportFiles& files,
                 std::size_t max_report) {
  tools::PrintReport(std::cout, report, max_report);
  std::cout.flush();
  WriteReportFiles(report, files);
  return tools::ExitStatusFor(report);
}

Command AddCheckCommand(CLI::App& app) {
  auto args = std::make_shared<CheckArgs>();
  Command c;
  c.app = app.add_subcommand(
      "check",
      "compare a device's results file with the expected vectors (exit 0 all match, 1 "
      "mismatch, 2 file error)");
  c.app->add_option("--vectors", args->vectors,
                    "vector files or suite folders (a folder: every file its manifest.json "
                    "names), in the order the results file has them (default: those the results "
                    "file's header names, else the results file's folder)");
  c.app->add_option("--op", args->op,
                    "check only this op's files (as the run selected them; of a results file "
                    "of more files, the sections of the selected ones)");
  c.app->add_option("--src", args->src, "check only files of this source type");
  c.app->add_option("--dst", args->dst, "check only files of this destination type");
  c.app
      ->add_option("--results", args->results,
                   "the device's results file (binary or JSON lines; schemas/results-format.md), "
                   "or TestFloat-style text: one line per selected vector, each vector file's "
                   "controls in turn (schemas/binary-format.md)")
      ->required();
  c.app->add_option("--junit", args->junit, "also write a JUnit XML report to FILE");
  AddReportJsonOption(*c.app, args->report_json);
  AddReportHtmlOption(*c.app, args->report_html);
  c.app->add_option("--max-report", args->max_report, "mismatches to print in full (default 20)")
      ->check(kWholeNumber);
  c.app->add_option("--rmode", args->rmode,
                    "check only the vectors of these rounding modes (RNE,RTZ or all) of the "
                    "results file; the report says what was left out");
  c.app->add_option("--sat", args->sat, "check only the vectors of Sat off, on or both");
  AddMismatchesOptions(*c.app, args->mismatches, args->mismatches_unsupported);
  AddJudgeOptions(*c.app, args->judge);
  c.app->add_flag("--quiet", args->quiet, "no progress on stderr");
  AddEditionOption(*c.app, args->edition)
      ->description(
          "require the vectors to be of this edition (default: the files' own; a "
          "results file of another edition than its vectors is refused either way): " +
          oracle::EditionNamesList());
  c.run = [args] {
    try {
      const tools::Judge judge = MakeJudge(args->judge);
      CheckMismatchesOptions(args->mismatches, args->mismatches_unsupported);
      const generator::ControlFilter controls = generator::ParseControlFilter(
          args->rmode.empty() ? "all" : args->rmode, args->sat.empty() ? "both" : args->sat);
      generator::VectorSelection vectors = VectorsOfResults(args->vectors, args->results);
      vectors.op = args->op;
      vectors.src = args->src;
      vectors.dst = args->dst;
      if (!args->edition.empty()) vectors.edition = generator::RequireEdition(args->edition);
      // No generate changes the suite while it is read (refused at once, naming the other ptovec).
      const auto locks = LockVectorFolders(vectors);
      std::vector<tools::OutputFile> outputs;
      if (!args->junit.empty()) outputs.emplace_back("--junit", args->junit);
      if (!args->report_json.empty()) outputs.emplace_back("--report-json", args->report_json);
      if (!args->report_html.empty()) outputs.emplace_back("--report-html", args->report_html);
      if (!args->mismatches.empty()) outputs.emplace_back("--mismatches", args->mismatches);
      if (!outputs.empty()) {
        // Before any work: never print a verdict and then fail to write the report, never
        // overwrite an input.
        std::vector<std::filesystem::path> inputs = tools::VectorInputFiles(vectors);
        inputs.emplace_back(args->results);
        tools::RefuseOverwritingInputs(outputs, inputs);
        for (const tools::OutputFile& output : outputs) tools::CheckOutputFolder(output);
      }
      tools::CheckReport report = tools::CheckResults(
          vectors, args->results, args->max_report, !args->quiet && ProgressWanted(),
          {args->mismatches, args->mismatches_unsupported}, controls, judge);
      report.environment = tools::VectorsEnvironment(vectors.paths);
      return FinishReport(report, {args->junit, args->report_json, args->report_html},
                          args->max_report);
    } catch (const std::exception& e) {
      return Fail(e.what());
    }
  };
  return c;
}

}  // namespace ptovec::cli
