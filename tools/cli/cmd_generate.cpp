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

namespace {

using namespace ptovec::generator;

using ptovec::cli::Fail;
using ptovec::cli::kSampleCount;
using ptovec::cli::kWholeNumber;
using ptovec::cli::ProgressWanted;

struct GenerateArgs {
  std::string op;
  std::string src;
  std::string dst;
  std::string format = "bin";
  std::string out;  // default: vectors/default for the whole suite, else DefaultOutFor()
  std::uint64_t seed = 1;
  std::uint64_t samples = 100000;
  std::string rmode = "all";
  std::string sat = "both";
  std::string shard;  // "K/N" or empty
  unsigned threads = 0;
  bool quiet = false;
  std::string suite;    // "" (the default domains) or "smoke"
  std::string edition;  // --edition: "" is the default edition
};

// "`ptovec list`", with --edition E when not the default edition.
std::string ListCommand(ptovec::oracle::Edition edition) {
  return edition == ptovec::oracle::kDefaultEdition
             ? "`ptovec list`"
             : "`ptovec list --edition " + std::string(ptovec::oracle::EditionName(edition)) + "`";
}

std::vector<Job> SelectJobs(const GenerateArgs& a, ptovec::oracle::Edition edition) {
  std::optional<TileDataType> src;
  std::optional<TileDataType> dst;
  if (!a.src.empty()) src = RequireType(a.src, "--src", edition);
  if (!a.dst.empty()) dst = RequireType(a.dst, "--dst", edition);
  std::vector<Job> jobs;
  if (!a.op.empty()) {
    const OpDef& op = RequireOp(a.op, edition);
    if (src && dst) {
      if (!IsLegalPair(op, {*src, *dst})) {
        const std::string refusal = op.pair_refusal ? op.pair_refusal({*src, *dst}) : "";
        throw InputError(
            (refusal.empty() ? op.name + " does not accept " + a.src + " -> " + a.dst : refusal) +
            " (" + ListCommand(edition) + " shows every pair)");
      }
      for (const TypePair& p : FilePairs(op, {*src, *dst})) jobs.push_back({&op, p});
      return jobs;  // a split pair: its file groups (OpDef::file_groups)
    }
    for (const TypePair& p : op.default_suite_pairs) {
      if ((!src || p.src == *src) && (!dst || p.dst == *dst)) jobs.push_back({&op, p});
    }
  } else {
    for (const Job& j : DefaultSuite(edition)) {
      if ((!src || j.pair.src == *src) && (!dst || j.pair.dst == *dst)) jobs.push_back(j);
    }
  }
  if (jobs.empty()) {
    throw InputError("no pair of the default suite matches --src '" + a.src + "' --dst '" + a.dst +
                     "' (give both --src and --dst to pick any legal pair; " +
                     ListCommand(edition) + ")");
  }
  return jobs;
}

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

// The jobs without the files none of whose controls --rmode/--sat keep (an fpatr group whose
// modes take RNE only, beside one that takes every mode), with a note; a selection left with no
// file at all is kept whole and refused by GenerateSuite (which names the file and what it
// accepts). Prints the pair notes of a selection by --op/--src/--dst.
std::vector<Job> KeepControlledJobs(std::vector<Job> jobs, const GenerateOptions& options,
                                    const GenerateArgs& a) {
  std::vector<Job> kept;
  std::string left_out;
  for (const Job& job : jobs) {
    if (options.controls.ControlsOf(*job.op, job.pair).empty()) {
      left_out += (left_out.empty() ? "" : ", ") + JobBaseName(job);
    } else {
      kept.push_back(job);
    }
  }
  if (!a.op.empty() || !a.src.empty() || !a.dst.empty()) ptovec::cli::PrintPairNotes(jobs);
  if (!kept.empty() && !left_out.empty()) {
    if (!a.quiet) {
      std::cerr << "ptovec: note: left out (no control among --rmode/--sat): " << left_out << "\n";
    }
    jobs = std::move(kept);
  }
  return jobs;
}

// --suite smoke: the inputs a greedy multi-cover picks from each pair's default domain (the
// default suite's inputs with this seed and --samples) so that every (control, class) the
// default suite hits is hit by two inputs from both sides of the class where the domain has them
// (coverage.hpp SelectSmokeInputs); the manifest's "selection" notes the cells that cannot.
// Returns the cell counts of every pair, for the line after the files.
SmokeSelection SelectSmoke(const std::vector<Job>& jobs, const GenerateArgs& a,
                           GenerateOptions& options) {
  SmokeSelection total;
  const auto chosen = SelectSmokeInputs(jobs, {a.seed, a.samples}, a.threads);
  for (std::size_t j = 0; j < jobs.size(); ++j) {
    options.selected.push_back(std::make_shared<const std::vector<Inputs>>(chosen[j].inputs));
    options.selection.push_back(SmokeSelectionJson(*jobs[j].op, jobs[j].pair, chosen[j]));
    total.cells += chosen[j].cells;
    total.both_sides += chosen[j].both_sides;
    total.one_side += chosen[j].one_side;
    total.one_input += chosen[j].one_input;
    total.input_class += chosen[j].input_class;
  }
  return total;
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
  if (a.samples == 0) return Fail("--samples must be at least 1 (got 0)");
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
  const std::vector<Job> jobs = KeepControlledJobs(SelectJobs(a, options.edition), options, a);
  SmokeSelection total;  // the cell counts of every pair, for the line after the files
  if (a.suite == "smoke") {
    total = SelectSmoke(jobs, a, options);
  } else if (!a.suite.empty() && a.suite != "default") {
    return Fail("unknown --suite '" + a.suite + "' (accepted: default, smoke)");
  }
  const std::string out = a.out.empty() ? DefaultOutFor(a, options.shard) : a.out;
  options.out_dir = out;
  options.suite = a.suite == "smoke" ? "smoke" : "default";
  options.sampling = {a.seed, a.samples};
  options.threads = a.threads;
  options.progress = !a.quiet && ProgressWanted();
  const auto files = GenerateSuite(jobs, options);
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
  generate->add_option("--op", gen->op, "only this op (" + OpNamesList() + ")");
  generate->add_option("--src", gen->src, "only this source type");
  generate->add_option("--dst", gen->dst, "only this destination type");
  generate->add_option("--format", gen->format,
                       "bin, json, both (default bin), or testfloat: TestFloat-style text, one "
                       "file per op, pair, mode and Sat (<op>_<src>_<dst>_<RMODE>_sat<off|on>.tf)");
  generate->add_option("--out", gen->out,
                       "output folder (default vectors/default for the whole default suite, "
                       "else vectors/<op>_<src>_<dst> of the selection); a folder holding a "
                       "suite is added to, never narrowed");
  generate->add_option("--seed", gen->seed, "sampling seed (default 1)")->check(kWholeNumber);
  generate
      ->add_option("--samples", gen->samples,
                   "sampled input tuples per sampled pair (default 100000)")
      ->check(kSampleCount);
  generate->add_option("--rmode", gen->rmode,
                       "only these rounding modes, comma-separated (RNE,RTZ) or all (default "
                       "all); ops without a mode keep their one control");
  generate->add_option("--sat", gen->sat, "only Sat off, on, or both (default both)");
  generate->add_option("--shard", gen->shard,
                       "write only shard K/N (K from 0) of every file, into its own folder "
                       "(default <out>_shard<K>of<N>); `ptovec merge` joins the N folders into "
                       "the unsharded files, byte for byte");
  generate
      ->add_option("--threads", gen->threads,
                   "worker threads (default: all cores; never changes the output)")
      ->check(kWholeNumber);
  generate->add_flag("--quiet", gen->quiet, "no progress on stderr");
  generate->add_option("--suite", gen->suite,
                       "default (every input of the default domains) or smoke: the few inputs of "
                       "the default suite, all controls of each, that hit every outcome class "
                       "it reaches twice, from both sides of the class where it can "
                       "(`ptovec coverage`; the manifest notes what cannot; default --out "
                       "vectors/smoke)");
  AddEditionOption(*generate, gen->edition);
  Command c;
  c.app = generate;
  c.run = Guarded([gen] { return RunGenerate(*gen); });
  return c;
}

}  // namespace ptovec::cli
