// ptovec generate: vector files and manifest.json of the default suite or a selection.
#include <CLI/CLI.hpp>
#include <algorithm>
#include <iostream>
#include <string>
#include <vector>

#include "commands.hpp"
#include "edition_option.hpp"
#include "ptovec/generator/cases.hpp"
#include "ptovec/generator/coverage.hpp"
#include "ptovec/generator/shard.hpp"
#include "ptovec/generator/suite.hpp"
#include "ptovec/generator/suite_folder.hpp"
#include "ptovec/generator/word_text.hpp"
#include "selection.hpp"

namespace {

using namespace ptovec::generator;

using ptovec::cli::CheckInputOptions;
using ptovec::cli::Fail;
using ptovec::cli::KeepControlledJobs;
using ptovec::cli::ProgressWanted;
using ptovec::cli::SelectJobs;
using ptovec::cli::SelectSmoke;

// The selection options (selection.hpp, shared with diff) and generate's own.
struct GenerateArgs : ptovec::cli::SelectionArgs {
  std::string format = "bin";
  std::string out;      // default: vectors/default for the whole suite, else DefaultOutFor()
  std::string shard;    // "K/N" or empty
  std::string edition;  // --edition: "" is the default edition
};

// The default --out: the default suite's folder only for the whole default suite; a partial
// generate goes to a folder named after its selection ("vectors/tcvt_fp32_e8m0",
// "vectors/tcvt", "vectors/any_fp16_any"), so it never lands in vectors/default by accident.
// A shard goes to its own folder: "<that folder>_shard<K>of<N>" ("vectors/default_shard0of4").
std::string DefaultOutFor(const GenerateArgs& a, const std::optional<ShardSelection>& shard) {
  const auto part = [](const std::string& s) { return s.empty() ? std::string("any") : s; };
  std::string out;
  if (a.suite == "smoke" && a.op.empty() && a.src.empty() && a.dst.empty()) {
    out = "vectors/smoke";
  } else if (a.op.empty() && a.src.empty() && a.dst.empty()) {
    out = "vectors/default";
  } else if (a.src.empty() && a.dst.empty()) {
    out = "vectors/" + a.op;
  } else {
    out = "vectors/" + part(a.op) + "_" + part(a.src) + "_" + part(a.dst);
  }
  // Another edition's files never land in the default edition's folder: "vectors/default_2026-09".
  if (!a.edition.empty() &&
      a.edition != ptovec::oracle::EditionName(ptovec::oracle::kDefaultEdition)) {
    out += "_" + a.edition;
  }
  if (shard) out += "_shard" + std::to_string(shard->index) + "of" + std::to_string(shard->of);
  return out;
}

}  // namespace

void ptovec::cli::PrintPairNotes(const std::vector<Job>& jobs) {
  std::vector<std::string> printed;
  for (const Job& job : jobs) {
    if (!job.op->pair_note) continue;
    const std::string note = job.op->pair_note(job.pair);
    if (note.empty() || std::find(printed.begin(), printed.end(), note) != printed.end()) continue;
    std::cerr << "ptovec: note: " << note << "\n";
    printed.push_back(note);
  }
}

namespace {

// Sets options' file formats from --format; false for a format it does not know.
bool ApplyFormat(const std::string& format, GenerateOptions& options) {
  if (format == "bin") {
    options.binary = true, options.json = false;
  } else if (format == "json") {
    options.binary = false, options.json = true;
  } else if (format == "both") {
    options.binary = true, options.json = true;
  } else if (format == "testfloat") {
    options.binary = false, options.testfloat = true;
  } else {
    return false;
  }
  return true;
}

// "ptovec: wrote N files, N vectors, N bytes, and manifest.json to OUT" (vectors of the first
// format written), and the suite's file count when it now has more.
void PrintWritten(const std::vector<GeneratedFile>& files, const GenerateOptions& options,
                  const std::string& out) {
  std::uint64_t vectors = 0;
  std::uint64_t bytes = 0;
  for (const auto& f : files) {
    bytes += f.bytes;
    if (f.format == (options.binary ? "bin" : options.json ? "json" : "testfloat")) {
      vectors += f.count;
    }
  }
  std::cerr << "ptovec: wrote " << Counted(files.size(), "file") << ", "
            << Counted(vectors, "vector") << ", " << bytes << " bytes, and manifest.json to "
            << out;
  const std::size_t listed = ReadManifest(options.out_dir / "manifest.json").files.size();
  if (listed > files.size()) {
    std::cerr << " (the suite there now has " << listed << " files)";
  }
  std::cerr << "\n";
}

int RunGenerate(const GenerateArgs& a) {
  GenerateOptions options;
  if (!ApplyFormat(a.format, options)) {
    return Fail("unknown --format '" + a.format + "' (accepted: bin, json, both, testfloat)");
  }
  CheckInputOptions(a);
  options.edition = RequireEdition(a.edition);
  if (options.testfloat && options.edition != ptovec::oracle::kDefaultEdition) {
    // TestFloat-style files have no header to record the edition in.
    return Fail(
        "--format testfloat is of edition 0.58.3 only (its files have no header to "
        "record --edition " +
        a.edition + "); accepted with --edition " + a.edition + ": bin, json, both");
  }
  options.controls = ParseControlFilter(a.rmode, a.sat);
  if (!a.shard.empty()) options.shard = ParseShardSelection(a.shard);
  const std::vector<Job> jobs =
      KeepControlledJobs(SelectJobs(a, options.edition), options.controls, a);
  SmokeSelection total;  // the cell counts of every pair, for the line after the files
  if (a.suite == "smoke") total = SelectSmoke(jobs, a, options);
  const std::string out = a.out.empty() ? DefaultOutFor(a, options.shard) : a.out;
  options.out_dir = out;
  options.suite = a.suite == "smoke" ? "smoke" : "default";
  options.sampling = {a.seed, a.samples};
  options.threads = a.threads;
  options.progress = !a.quiet && ProgressWanted();
  const std::string replaced = SuiteReplacementNote(jobs, options);
  const auto files = GenerateSuite(jobs, options);
  if (!replaced.empty()) std::cerr << "ptovec: note: " << replaced << "\n";
  if (a.suite == "smoke" && !a.quiet) {
    std::cerr << "ptovec: smoke selection: " << total.cells
              << " (pair, control, class) cells: " << total.both_sides
              << " hit by inputs from both sides of the class, " << total.one_side
              << " by two inputs of the one side its inputs have, " << total.one_input
              << " by the one input the default domain has, " << total.input_class
              << " (input classes and twin sides) by one input (manifest.json \"selection\" notes "
                 "the last three)\n";
  }
  PrintWritten(files, options, out);
  return 0;
}

}  // namespace

namespace ptovec::cli {

Command AddGenerateCommand(CLI::App& app) {
  auto gen = std::make_shared<GenerateArgs>();
  CLI::App* generate = app.add_subcommand(
      "generate", "write vector files and manifest.json (with no --op: the whole default suite)");
  AddJobOptions(*generate, *gen);
  generate->add_option("--format", gen->format,
                       "bin, json, both (default bin), or testfloat: TestFloat-style text, one "
                       "file per op, pair, mode and Sat (<op>_<src>_<dst>_<RMODE>_sat<off|on>.tf)");
  generate->add_option("--out", gen->out,
                       "output folder (default vectors/default for the whole default suite, "
                       "else vectors/<op>_<src>_<dst> of the selection); a folder holding a "
                       "suite is added to, never narrowed");
  generate->add_option("--shard", gen->shard,
                       "write only shard K/N (K from 0) of every file, into its own folder "
                       "(default <out>_shard<K>of<N>); `ptovec merge` joins the N folders into "
                       "the unsharded files, byte for byte");
  AddInputOptions(*generate, *gen, "; default --out vectors/smoke");
  AddEditionOption(*generate, gen->edition);
  Command c;
  c.app = generate;
  c.run = Guarded([gen] { return RunGenerate(*gen); });
  return c;
}

}  // namespace ptovec::cli
