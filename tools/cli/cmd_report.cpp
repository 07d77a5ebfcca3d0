// ptovec report: the report of a results file rendered again without the device: the HTML page,
// the JSON report and JUnit, judged as the run that wrote it judged unless told otherwise.
#include <CLI/CLI.hpp>
#include <filesystem>
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include "commands.hpp"
#include "ptovec/generator/errors.hpp"
#include "ptovec/generator/interrupts.hpp"
#include "ptovec/generator/word_text.hpp"
#include "ptovec/tools/check.hpp"
#include "ptovec/tools/check_outputs.hpp"
#include "ptovec/tools/compare.hpp"
#include "ptovec/tools/known_differences.hpp"
#include "ptovec/tools/results.hpp"

namespace ptovec::cli {

namespace {

struct ReportArgs {
  std::string results;
  std::vector<std::string> vectors;
  std::string op, src, dst;
  ReportFiles files;
  JudgeArgs judge;
  bool quiet = false;
};

// The judge of the options when any is given, else the one the results header records (the
// run's policy, known-difference sets and --allow-unsupported).
tools::Judge JudgeFor(const ReportArgs& a, const tools::ResultsReader& reader) {
  const JudgeArgs& j = a.judge;
  if (!j.compare.empty() || !j.flags.empty() || !j.known_differences.empty() ||
      j.allow_unsupported || reader.compare().empty()) {
    return MakeJudge(j);
  }
  tools::Judge judge;
  judge.policy = tools::ComparePolicyFromName(reader.compare());
  judge.known = tools::LoadKnownDifferences(reader.known_differences());
  judge.allow_unsupported = reader.judged().value("allow_unsupported", false);
  judge.diagnose = !j.no_diagnosis;
  return judge;
}

// The vectors: --vectors, else those the results header names, else the results file's folder.
generator::VectorSelection VectorsFor(const ReportArgs& a) {
  generator::VectorSelection vectors = VectorsOfResults(a.vectors, a.results);
  vectors.op = a.op;
  vectors.src = a.src;
  vectors.dst = a.dst;
  return vectors;
}

int RunReport(const ReportArgs& a) {
  const ReportFiles& f = a.files;
  if (f.junit.empty() && f.report_json.empty() && f.report_html.empty()) {
    throw generator::InputError(
        "report writes files: give --html FILE, --json FILE or --junit FILE (or several)");
  }
  std::error_code error;
  if (!std::filesystem::is_regular_file(a.results, error)) {
    throw generator::InputError("results file " + a.results +
                                " does not exist or is not a file (expected the results file "
                                "of a `ptovec run`, or of a harness: schemas/results-format.md)");
  }
  tools::Judge judge;
  generator::VectorSelection vectors;
  {
    const tools::ResultsReader reader(a.results);
    judge = JudgeFor(a, reader);
    vectors = VectorsFor(a);
  }
  const auto locks = LockVectorFolders(vectors);
  std::vector<tools::OutputFile> outputs;
  if (!f.junit.empty()) outputs.emplace_back("--junit", f.junit);
  if (!f.report_json.empty()) outputs.emplace_back("--json", f.report_json);
  if (!f.report_html.empty()) outputs.emplace_back("--html", f.report_html);
  std::vector<std::filesystem::path> inputs = tools::VectorInputFiles(vectors);
  inputs.emplace_back(a.results);
  tools::RefuseOverwritingInputs(outputs, inputs);
  for (const tools::OutputFile& output : outputs) tools::CheckOutputFolder(output);
  tools::CheckReport report =
      tools::CheckResults(vectors, a.results, 0, !a.quiet && ProgressWanted(), {}, {}, judge);
  report.environment = tools::VectorsEnvironment(vectors.paths);
  WriteReportFiles(report, f);
  if (!a.quiet) {
    std::cerr << "ptovec: " << (report.passed() ? "PASS" : "FAIL") << ", "
              << generator::Counted(report.mismatched, "mismatched vector") << " of "
              << report.vectors << "; wrote";
    for (const tools::OutputFile& output : outputs) std::cerr << " " << output.second.string();
    std::cerr << "\n";
  }
  return kExitOk;
}

}  // namespace

Command AddReportCommand(CLI::App& app) {
  auto args = std::make_shared<ReportArgs>();
  Command c;
  c.app = app.add_subcommand(
      "report",
      "render the report of a results file again, without the device: an HTML page, the JSON "
      "report, JUnit (exit 0 when written, whatever the verdict; 2 error)");
  CLI::App& r = *c.app;
  r.add_option("RESULTS", args->results, "the results file (binary or JSON lines)")->required();
  r.add_option("--vectors", args->vectors,
               "vector files or suite folders (default: those the results file's header names, "
               "else its folder)");
  r.add_option("--op", args->op, "report only this op's sections");
  r.add_option("--src", args->src, "report only sections of this source type");
  r.add_option("--dst", args->dst, "report only sections of this destination type");
  r.add_option("--html", args->files.report_html,
               "write the self-contained HTML page to FILE (tools/cli/report_html.py)");
  r.add_option("--json", args->files.report_json,
               "write the JSON report to FILE (`ptovec schema report`)");
  r.add_option("--junit", args->files.junit, "write a JUnit XML report to FILE");
  AddJudgeOptions(r, args->judge);
  r.add_flag("--quiet", args->quiet, "no progress and no summary line on stderr");
  c.run = Guarded([args] { return RunReport(*args); });
  return c;
}

}  // namespace ptovec::cli
