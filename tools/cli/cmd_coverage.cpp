// ptovec coverage: how many vectors of a suite hit each outcome class of each (op, types, mode,
// Sat); a table on stdout, JSON (--json, schemas/coverage.schema.json), a heat map (--plot, by
// tools/cli/coverage_heatmap.py with matplotlib), a UCIS database (--ucis, by
// tools/cli/coverage_ucis.py with pyucis), and --require-all.
#include <CLI/CLI.hpp>
#include <filesystem>
#include <iostream>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "commands.hpp"
#include "edition_option.hpp"
#include "ptovec/generator/atomic_file.hpp"
#include "ptovec/generator/cases.hpp"
#include "ptovec/generator/coverage.hpp"
#include "ptovec/oracle/edition.hpp"
#include "ptovec/tools/check_outputs.hpp"
#include "ptovec/tools/coverage_report.hpp"
#include "scripts.hpp"

namespace {

using namespace ptovec::generator;
using ptovec::cli::Fail;
using ptovec::cli::kSampleCount;
using ptovec::cli::kWholeNumber;

struct CoverageArgs {
  std::vector<std::string> vectors;
  std::string json;
  std::string plot;
  std::string ucis;
  bool require_all = false;
  bool quiet = false;
  std::string find_witnesses;
  std::string scope = "default";
  std::uint64_t seed = 2;
  std::uint64_t samples = 300000;  // what scripts/regenerate-smoke uses
  unsigned threads = 0;
  std::string edition;  // --edition: "" is the vectors' edition (--find-witnesses: the default)
};

int RunCoverage(const CoverageArgs& a) {
  std::optional<ptovec::oracle::Edition> edition;
  if (!a.edition.empty()) edition = RequireEdition(a.edition);
  if (!a.find_witnesses.empty()) {
    AtomicFile out(a.find_witnesses);
    out.Write(FindWitnesses({a.seed, a.samples}, a.threads,
                            edition.value_or(ptovec::oracle::kDefaultEdition)));
    out.Commit();
    std::cerr << "ptovec: wrote the witness table to " << a.find_witnesses << "\n";
    return 0;
  }
  if (a.vectors.empty()) return Fail("coverage needs --vectors DIR (a suite folder or files)");
  if (!a.ucis.empty()) ptovec::tools::CheckOutputFolder({"--ucis", a.ucis});
  if (a.scope != "default" && a.scope != "present") {
    return Fail("--scope " + a.scope +
                " is not a scope; accepted: default (every pair and control of the default "
                "suite), present (only those the vectors hold)");
  }
  const ptovec::tools::CoverageReport report =
      ptovec::tools::ReportCoverage({a.vectors, a.scope, a.quiet, edition}, std::cout);
  if (!a.json.empty()) {
    AtomicFile out(a.json);
    out.Write(report.json.dump(1) + "\n");
    out.Commit();
  }
  if (!a.plot.empty()) {
    // The heat map PNG, drawn by the heat map script from the JSON.
    ptovec::cli::DrawFromJson("coverage_heatmap.py", report.json.dump() + "\n", a.plot);
  }
  if (!a.ucis.empty()) {
    // The UCIS database, built by the UCIS script with pyucis from the JSON.
    ptovec::cli::WriteUcisFromJson(report.json.dump() + "\n", a.ucis);
  }
  if (a.require_all && !report.missing.empty()) return ptovec::cli::kExitMismatch;
  return 0;
}

}  // namespace

namespace ptovec::cli {

Command AddCoverageCommand(CLI::App& app) {
  auto args = std::make_shared<CoverageArgs>();
  CLI::App* cov = app.add_subcommand(
      "coverage",
      "count the vectors of a suite hitting each outcome class of each (op, types, mode, Sat)");
  cov->add_option("--vectors", args->vectors, "suite folders or vector files");
  cov->add_option("--json", args->json, "also write the counts as JSON (ptovec schema coverage)");
  cov->add_option("--plot", args->plot,
                  "also draw a heat map PNG (a panel per op: its classes x the modes; 1600 pixels "
                  "wide; needs python3-matplotlib)");
  cov->add_option("--ucis", args->ucis,
                  "also write the counts as a UCIS XML database (a covergroup per op and types, "
                  "a coverpoint per mode and Sat, a bin per outcome class; built with pyucis by "
                  "the Python of PTOVEC_PYTHON, else the source tree's .venv, else python3)");
  cov->add_flag("--require-all", args->require_all,
                "exit 1, one line per class, when a reachable class has no vector");
  cov->add_option("--scope", args->scope,
                  "what --require-all requires: default (every pair and control of the default "
                  "suite; absent ones are missing) or present (only those the vectors hold)");
  cov->add_flag("--quiet", args->quiet, "only the summary line (and missing classes)");
  cov->add_option("--find-witnesses", args->find_witnesses,
                  "instead: search the default domains for witnesses and write the witness "
                  "table (generator/src/suite/coverage_witnesses.inc; of --edition 2026-09 "
                  "coverage_witnesses_2026_09.inc) to this file");
  ptovec::cli::AddEditionOption(*cov, args->edition)
      ->description(
          "the specification edition: " + ptovec::oracle::EditionNamesList() +
          "; with --vectors only files of it are read (without: the files' one edition, a mix "
          "is refused), with --find-witnesses its default suite is searched (default " +
          std::string(ptovec::oracle::EditionName(ptovec::oracle::kDefaultEdition)) + ")");
  cov->add_option("--seed", args->seed, "--find-witnesses: sampling seed (default 2)")
      ->check(kWholeNumber);
  cov->add_option(
         "--samples", args->samples,
         "--find-witnesses: samples per sampled pair (default 300000, as scripts/regenerate-smoke)")
      ->check(kSampleCount);
  cov->add_option("--threads", args->threads, "--find-witnesses: worker threads")
      ->check(kWholeNumber);
  Command c;
  c.app = cov;
  c.run = Guarded([args] { return RunCoverage(*args); });
  return c;
}

}  // namespace ptovec::cli
