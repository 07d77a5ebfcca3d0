// ptovec run: stream vectors through a device under test (a shared library or a program), write
// a results file and report as `check` does.
#include <cstdio>
#include <exception>
#include <filesystem>
#include <iostream>
#include <string>
#include <system_error>
#include <vector>

#include "commands.hpp"
#include "edition_option.hpp"
#include "ptovec/generator/cases.hpp"
#include "ptovec/generator/interrupts.hpp"
#include "ptovec/generator/readers.hpp"
#include "ptovec/generator/shard.hpp"
#include "ptovec/generator/suite.hpp"
#include "ptovec/tools/check.hpp"
#include "ptovec/tools/check_outputs.hpp"
#include "ptovec/tools/device.hpp"
#include "ptovec/tools/exhaustive.hpp"
#include "ptovec/tools/known_differences.hpp"
#include "ptovec/tools/results.hpp"
#include "ptovec/tools/run.hpp"

namespace ptovec::cli {

namespace {

struct RunArgs {
  DeviceArgs device;
  std::vector<std::string> vectors;
  std::string op;
  std::string src;
  std::string dst;
  std::uint64_t seed = 1;
  std::uint64_t samples = 100000;
  std::string work = "ptovec-run";
  std::string results;
  std::string format = "bin";
  std::string junit;
  std::string report_json;
  std::string report_html;
  std::string mismatches;
  bool mismatches_unsupported = false;
  std::size_t max_report = 20;
  unsigned threads = 0;
  bool exhaustive = false;
  JudgeArgs judge;
  std::string rmode;  // --exhaustive: "all" when empty
  std::string sat;
  std::string shard;
  bool quiet = false;
  bool keep_going = false;
  bool generation_options = false;  // --seed, --samples or --work given
  bool work_given = false;
  std::string edition;  // --edition: "" any edition of --vectors, the default one for --op
};

// "device NAME: N vectors in S s (R vectors/s on T threads); C cases per clock (K cases in M
// clocks)": the device's throughput, the last part for a clocked device only.
std::string ThroughputLine(const std::string& device, const tools::DeviceThroughput& t) {
  char line[320];
  const double rate = t.seconds > 0 ? static_cast<double>(t.cases) / t.seconds : 0;
  std::snprintf(line, sizeof line, "device %s: %llu %s in %.3f s (%.0f vectors/s on %u %s)",
                device.c_str(), static_cast<unsigned long long>(t.cases),
                t.cases == 1 ? "vector" : "vectors", t.seconds, rate, t.threads,
                t.threads == 1 ? "thread" : "threads");
  std::string text = line;
  if (t.clocks && t.clocks->clocks > 0) {
    std::snprintf(line, sizeof line, "; %.4f cases per clock (%llu cases in %llu clocks)",
                  static_cast<double>(t.clocks->cases) / static_cast<double>(t.clocks->clocks),
                  static_cast<unsigned long long>(t.clocks->cases),
                  static_cast<unsigned long long>(t.clocks->clocks));
    text += line;
  }
  return text;
}

// The throughput line on stderr, unless --quiet.
void PrintThroughput(const RunArgs& a, const tools::CheckReport& report) {
  if (!a.quiet && report.throughput) {
    std::cerr << "ptovec: " << ThroughputLine(report.device, *report.throughput) << "\n";
  }
}

// run --exhaustive: every input code of one pair, no vector file, no results file.
int RunExhaustive(const RunArgs& a) {
  using generator::InputError;
  if (!a.vectors.empty() || a.generation_options || !a.results.empty() || a.format != "bin") {
    throw InputError(
        "--exhaustive takes its inputs from --op/--src/--dst and writes no results "
        "file (no --vectors, --seed, --samples, --work, --results or --format)");
  }
  if (a.op.empty() || a.src.empty() || a.dst.empty()) {
    throw InputError("--exhaustive needs --op, --src and --dst (one pair; `ptovec list`)");
  }
  if (!a.mismatches.empty() || a.mismatches_unsupported) {
    throw InputError(
        "--mismatches and --mismatches-unsupported go with runs of vector files; --exhaustive "
        "reports the "
        "first --max-report mismatches (raise it, or shrink --from them)");
  }
  tools::ExhaustiveOptions options;
  const oracle::Edition edition = generator::RequireEdition(a.edition);
  options.op = &generator::RequireOp(a.op, edition);
  options.pair = {generator::RequireType(a.src, "--src", edition),
                  generator::RequireType(a.dst, "--dst", edition)};
  if (!generator::IsLegalPair(*options.op, options.pair)) {
    throw InputError(options.op->name + " does not accept " + a.src + " -> " + a.dst +
                     " (`ptovec list` shows every pair)");
  }
  tools::ExhaustiveCodeCount(*options.op, options.pair);  // refuses multi-input ops first
  options.controls = generator::ParseControlFilter(a.rmode, a.sat);
  if (!a.shard.empty()) options.shard = generator::ParseShardSelection(a.shard);
  options.threads = a.threads;
  options.max_report = a.max_report;
  options.progress = !a.quiet && ProgressWanted();
  options.judge = MakeJudge(a.judge);
  std::vector<tools::OutputFile> outputs;
  if (!a.junit.empty()) outputs.emplace_back("--junit", a.junit);
  if (!a.report_json.empty()) outputs.emplace_back("--report-json", a.report_json);
  if (!a.report_html.empty()) outputs.emplace_back("--report-html", a.report_html);
  tools::RefuseOverwritingInputs(outputs, {});  // the two outputs differ
  for (const tools::OutputFile& output : outputs) tools::CheckOutputFolder(output);
  std::unique_ptr<tools::Device> device = OpenDevice(a.device);
  tools::CheckReport report = tools::RunExhaustive(*device, options);
  device->Close();
  const int status = FinishReport(report, {a.junit, a.report_json, a.report_html}, a.max_report);
  PrintThroughput(a, report);
  return status;
}

// Throws InputError for options of a run of vector files that do not go together.
void CheckRunArgs(const RunArgs& a) {
  using generator::InputError;
  if (!a.shard.empty() && !a.vectors.empty()) {
    throw InputError(
        "--shard goes with --op (generate shard K/N and run it) or --exhaustive; "
        "--vectors of a shard folder already run just that shard");
  }
  if (a.vectors.empty() && a.op.empty()) {
    throw InputError(
        "give --vectors PATH (a suite folder or vector file), or --op OP to "
        "generate that op's vectors first");
  }
  if (!a.vectors.empty() && a.generation_options) {
    throw InputError(
        "--seed, --samples and --work go with --op and no --vectors (--vectors "
        "files are already generated; there --op, --src and --dst select files)");
  }
  CheckMismatchesOptions(a.mismatches, a.mismatches_unsupported);
}

tools::ResultsFormat ResultsFormatOf(const std::string& format) {
  if (format == "bin") return tools::ResultsFormat::Binary;
  if (format == "json") return tools::ResultsFormat::Json;
  throw generator::InputError("unknown --format '" + format + "' (accepted: bin, json)");
}

// The vectors of the run: --vectors, or the work folder --op generates into, with --op, --src
// and --dst selecting files.
generator::VectorSelection RunSelection(const RunArgs& a) {
  generator::VectorSelection vectors;
  vectors.op = a.op;
  vectors.src = a.src;
  vectors.dst = a.dst;
  if (!a.edition.empty()) vectors.edition = generator::RequireEdition(a.edition);
  if (!a.vectors.empty()) {
    for (const std::string& v : a.vectors) vectors.paths.emplace_back(v);
  } else {
    // Another edition's vectors get their own default work folder ("ptovec-run_2026-09").
    const bool other_edition =
        !a.edition.empty() && vectors.edition != oracle::kDefaultEdition && !a.work_given;
    vectors.paths = {tools::RunWorkFolder(other_edition ? a.work + "_" + a.edition : a.work,
                                          a.shard, a.work_given)};
  }
  return vectors;
}

// Throws InputError unless every output's folder is writable and no output is an input.
void CheckOutputs(const std::vector<tools::OutputFile>& outputs,
                  const generator::VectorSelection& vectors) {
  for (const tools::OutputFile& output : outputs) tools::CheckOutputFolder(output);
  tools::RefuseOverwritingInputs(outputs, tools::VectorInputFiles(vectors));
}

// Prints the notes of the selected files' pairs (when a pair is chosen: if its files copy bits).
void PrintSelectedPairNotes(const generator::VectorSelection& vectors) {
  std::vector<generator::Job> pairs;
  for (const generator::VectorSource& source : generator::SelectVectorFiles(vectors)) {
    const generator::VectorReader reader(source.path);
    pairs.push_back({reader.info().op, reader.info().pair});
  }
  PrintPairNotes(pairs);
}

// Opens the device last (a bad argument never starts it), runs the vectors through it, reports
// (with the device's throughput unless --quiet) and says which results file it replaced.
int RunThroughDevice(const RunArgs& a, const generator::VectorSelection& vectors,
                     const tools::RunOptions& options, const std::string& previous) {
  std::unique_ptr<tools::Device> device = OpenDevice(a.device);
  tools::CheckReport report = tools::RunDevice(*device, vectors, options);
  device->Close();  // a program device must exit 0 after its last answer
  report.environment = tools::VectorsEnvironment(vectors.paths);
  if (options.progress) {
    std::cerr << "ptovec: results written to " << options.results.string() << "\n";
  }
  const int status = FinishReport(report, {a.junit, a.report_json, a.report_html}, a.max_report);
  PrintThroughput(a, report);
  if (!previous.empty()) {
    std::cerr << "ptovec: replaced " << options.results.string() << " (" << previous << ")\n";
  }
  return status;
}

int Run(const RunArgs& a) {
  using generator::InputError;
  CheckDeviceArgs(a.device);
  if (a.exhaustive) return RunExhaustive(a);
  CheckRunArgs(a);
  const tools::ResultsFormat format = ResultsFormatOf(a.format);
  if (a.samples == 0) throw InputError("--samples must be at least 1 (got 0)");
  tools::RunOptions options;
  options.controls = generator::ParseControlFilter(a.rmode, a.sat);
  options.progress = !a.quiet && ProgressWanted();
  options.judge = MakeJudge(a.judge);
  const bool generating = a.vectors.empty();
  generator::VectorSelection vectors = RunSelection(a);
  const std::filesystem::path folder =
      generating ? vectors.paths.front() : tools::RunVectorsFolder(vectors);
  if (a.results.empty() && a.vectors.size() > 1) {
    throw InputError(
        "several --vectors paths: give --results FILE (a results file of them all "
        "belongs in no one of their folders)");
  }
  options.results =
      a.results.empty()
          ? folder / (format == tools::ResultsFormat::Binary ? "results.bin" : "results.jsonl")
          : std::filesystem::path(a.results);
  std::vector<tools::OutputFile> outputs{{"--results", options.results}};
  if (!a.junit.empty()) outputs.emplace_back("--junit", a.junit);
  if (!a.report_json.empty()) outputs.emplace_back("--report-json", a.report_json);
  if (!a.report_html.empty()) outputs.emplace_back("--report-html", a.report_html);
  if (!a.mismatches.empty()) outputs.emplace_back("--mismatches", a.mismatches);
  tools::RefuseOverwritingInputs(outputs, {});  // the outputs differ
  // No generate changes the suite while it is read (refused at once, naming the other ptovec).
  std::vector<std::unique_ptr<generator::FolderLock>> locks;
  if (!generating) {
    locks = LockVectorFolders(vectors);
    CheckOutputs(outputs, vectors);
  }
  // The outputs are replaced only when the run completes (exit 0 or 1): an error (exit 2) puts
  // back every file (main.cpp), so until then the previous results stay where they are.
  const std::string previous = tools::PreviousResultsNote(options.results);
  std::unique_ptr<generator::FolderLock> work_lock;  // held until the run ends
  if (generating) {
    work_lock = tools::GenerateRunVectors(folder,
                                          {a.op, a.src, a.dst, a.seed, a.samples, a.shard,
                                           options.progress, generator::RequireEdition(a.edition)},
                                          vectors);
    locks = LockVectorFolders(vectors);  // covered by the work folder's lock
    CheckOutputs(outputs, vectors);
  }
  options.format = format;
  options.mismatches = {a.mismatches, a.mismatches_unsupported};
  options.max_report = a.max_report;
  options.threads = a.threads;
  options.keep_going = a.keep_going;
  if (!a.op.empty() || vectors.filtered()) PrintSelectedPairNotes(vectors);
  return RunThroughDevice(a, vectors, options, previous);
}

}  // namespace

Command AddRunCommand(CLI::App& app) {
  auto args = std::make_shared<RunArgs>();
  Command c;
  c.app = app.add_subcommand(
      "run",
      "stream vectors through a device under test, write a results file and check it "
      "(exit 0 all match, 1 mismatch, 2 error)");
  CLI::App& r = *c.app;
  AddDeviceOptions(r, args->device);
  r.add_option("--vectors", args->vectors,
               "vector files or suite folders (a folder: every file its manifest.json names; "
               "several paths run in the order given)");
  r.add_option("--op", args->op,
               "with --vectors: run only this op's files; without: generate this op's vectors "
               "into --work first (like `ptovec generate`) and run them");
  r.add_option("--src", args->src, "run only files of this source type");
  r.add_option("--dst", args->dst, "run only files of this destination type");
  CLI::Option* seed = r.add_option("--seed", args->seed, "with --op: sampling seed (default 1)")
                          ->check(kWholeNumber);
  CLI::Option* samples = r.add_option("--samples", args->samples,
                                      "with --op: samples per sampled pair (default 100000)")
                             ->check(kWholeNumber);
  CLI::Option* work =
      r.add_option("--work", args->work, "with --op: folder for the vectors (default ptovec-run)");
  r.add_option("--results", args->results,
               "results file to write (default <vectors or work folder>/results.bin, or "
               "results.jsonl with --format json)");
  r.add_option("--format", args->format, "results format: bin or json (default bin)");
  r.add_option("--junit", args->junit,
               "also write a JUnit XML report to FILE (every output replaces the previous one "
               "only when the run completes: an error, exit 2, leaves them all as they were)");
  AddReportJsonOption(r, args->report_json);
  AddReportHtmlOption(r, args->report_html);
  r.add_option("--max-report", args->max_report, "mismatches to print in full (default 20)")
      ->check(kWholeNumber);
  r.add_option(
       "--threads", args->threads,
       "threads evaluating at once when the device declares itself thread-safe (DUT ABI "
       "version 2, PTOVEC_DUT_THREAD_SAFE; default or 0: one per core; never changes the results)")
      ->check(kWholeNumber);
  r.add_flag("--exhaustive", args->exhaustive,
             "every input code of --op/--src/--dst (a one-input op; every FP32 word for fp32) "
             "through the device, checked against the oracle as it goes: counts and mismatches "
             "only, no vector or results file");
  r.add_option("--rmode", args->rmode,
               "only the vectors of these modes (RNE,RTZ or all); the results file's sections "
               "say which, and check reads them so");
  r.add_option("--sat", args->sat, "only the vectors of Sat off, on or both");
  r.add_option("--shard", args->shard,
               "only shard K/N (K from 0): with --op, generate that shard of the files (into "
               "<work>_shard<K>of<N> unless --work is given) and run it (`ptovec merge` joins "
               "the N folders, results files too, into the unsharded run's); with --exhaustive, "
               "that shard of the input codes");
  AddMismatchesOptions(r, args->mismatches, args->mismatches_unsupported);
  AddJudgeOptions(r, args->judge);
  r.add_flag("--keep-going", args->keep_going,
             "after the device crashes, exits or hangs on a case, restart it and go on (each "
             "such case is counted as a device failure and recorded as unsupported; the gate "
             "fails); without it the run stops there, exit 1");
  r.add_flag("--quiet", args->quiet, "no progress on stderr");
  AddEditionOption(r, args->edition)
      ->description(
          "the specification edition: with --op, generate and run that edition's "
          "vectors (default 0.58.3); with --vectors, require theirs to be of it "
          "(default: the files' own); " +
          oracle::EditionNamesList());
  c.run = [args, seed, samples, work] {
    try {
      args->generation_options = seed->count() + samples->count() + work->count() > 0;
      args->work_given = work->count() > 0;
      return Run(*args);
    } catch (const std::exception& e) {
      return Fail(e.what());
    }
  };
  return c;
}

}  // namespace ptovec::cli
