// ptovec run: stream vectors through a device under test (a shared library or a program), write
// a results file and report as `check` does.
#include <exception>
#include <filesystem>
#include <iostream>
#include <string>
#include <system_error>
#include <vector>

#include "commands.hpp"
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
  std::string mismatches;
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
};

// What the results file at `path` holds before the run replaces it, for the line saying so: ""
// when there is none, else "the previous results, of device NAME; not kept".
std::string PreviousResults(const std::filesystem::path& path) {
  std::error_code error;
  if (!std::filesystem::exists(std::filesystem::symlink_status(path, error))) return {};
  std::string device;
  try {
    device = tools::ResultsReader(path).device();
  } catch (const std::exception&) {
    return "it was not a readable results file; not kept";
  }
  return "the previous results" + (device.empty() ? std::string() : ", of device " + device) +
         "; not kept";
}

// The jobs of --op [--src] [--dst], as `ptovec generate` selects them.
std::vector<generator::Job> SelectJobs(const RunArgs& a) {
  using generator::InputError;
  const generator::OpDef& op = generator::RequireOp(a.op);
  std::optional<generator::TileDataType> src;
  std::optional<generator::TileDataType> dst;
  if (!a.src.empty()) src = generator::RequireType(a.src, "--src");
  if (!a.dst.empty()) dst = generator::RequireType(a.dst, "--dst");
  if (src && dst) {
    if (!generator::IsLegalPair(op, {*src, *dst})) {
      throw InputError(op.name + " does not accept " + a.src + " -> " + a.dst +
                       " (`ptovec list` shows every pair)");
    }
    // A split pair: its file groups (OpDef::file_groups).
    std::vector<generator::Job> jobs;
    for (const generator::TypePair& p : generator::FilePairs(op, {*src, *dst}))
      jobs.push_back({&op, p});
    return jobs;
  }
  std::vector<generator::Job> jobs;
  for (const generator::TypePair& p : op.default_suite_pairs) {
    if ((!src || p.src == *src) && (!dst || p.dst == *dst)) jobs.push_back({&op, p});
  }
  if (jobs.empty()) {
    throw InputError("no default-suite pair of " + op.name + " matches --src '" + a.src +
                     "' --dst '" + a.dst + "' (give both to pick any legal pair; `ptovec list`)");
  }
  return jobs;
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
  if (!a.mismatches.empty()) {
    throw InputError(
        "--mismatches goes with runs of vector files; --exhaustive reports the "
        "first --max-report mismatches (raise it, or shrink --from them)");
  }
  tools::ExhaustiveOptions options;
  options.op = &generator::RequireOp(a.op);
  options.pair = {generator::RequireType(a.src, "--src"), generator::RequireType(a.dst, "--dst")};
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
  if (!a.junit.empty()) {
    const tools::OutputFile junit{"--junit", a.junit};
    tools::CheckOutputFolder(junit);
  }
  std::unique_ptr<tools::Device> device = OpenDevice(a.device);
  tools::CheckReport report = tools::RunExhaustive(*device, options);
  device->Close();
  return FinishReport(report, a.junit, a.max_report);
}

int Run(const RunArgs& a) {
  using generator::InputError;
  CheckDeviceArgs(a.device);
  if (a.exhaustive) return RunExhaustive(a);
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
  tools::ResultsFormat format;
  if (a.format == "bin") {
    format = tools::ResultsFormat::Binary;
  } else if (a.format == "json") {
    format = tools::ResultsFormat::Json;
  } else {
    throw InputError("unknown --format '" + a.format + "' (accepted: bin, json)");
  }
  if (a.samples == 0) throw InputError("--samples must be at least 1 (got 0)");
  const generator::ControlFilter controls = generator::ParseControlFilter(a.rmode, a.sat);
  const bool progress = !a.quiet && ProgressWanted();
  tools::Judge judge = MakeJudge(a.judge);

  const bool generating = a.vectors.empty();
  generator::VectorSelection vectors;
  vectors.op = a.op;
  vectors.src = a.src;
  vectors.dst = a.dst;
  std::filesystem::path folder;
  if (!generating) {
    for (const std::string& v : a.vectors) vectors.paths.emplace_back(v);
    std::error_code error;
    const std::filesystem::path& first = vectors.paths.front();
    folder = std::filesystem::is_directory(first, error) ? first : first.parent_path();
  } else {
    folder = a.work;
    // A shard goes to its own folder, "<work>_shard<K>of<N>", unless --work names one.
    if (!a.shard.empty() && !a.work_given) {
      const generator::ShardSelection shard = generator::ParseShardSelection(a.shard);
      folder += "_shard" + std::to_string(shard.index) + "of" + std::to_string(shard.of);
    }
    vectors.paths = {folder};
  }
  if (a.results.empty() && a.vectors.size() > 1) {
    throw InputError(
        "several --vectors paths: give --results FILE (a results file of them all "
        "belongs in no one of their folders)");
  }
  tools::RunOptions options;
  options.results =
      a.results.empty()
          ? folder / (format == tools::ResultsFormat::Binary ? "results.bin" : "results.jsonl")
          : std::filesystem::path(a.results);
  std::vector<tools::OutputFile> outputs{{"--results", options.results}};
  if (!a.junit.empty()) outputs.emplace_back("--junit", a.junit);
  if (!a.mismatches.empty()) outputs.emplace_back("--mismatches", a.mismatches);
  options.mismatches = a.mismatches;
  tools::RefuseOverwritingInputs(outputs, {});  // the two outputs differ
  // No generate changes the suite while it is read (refused at once, naming the other ptovec).
  std::vector<std::unique_ptr<generator::FolderLock>> locks;
  if (!generating) {
    locks = LockVectorFolders(vectors);
    for (const tools::OutputFile& output : outputs) tools::CheckOutputFolder(output);
    tools::RefuseOverwritingInputs(outputs, tools::VectorInputFiles(vectors));
  }
  // The outputs are replaced only when the run completes (exit 0 or 1): an error (exit 2) puts
  // back every file (main.cpp), so until then the previous results stay where they are.
  const std::string previous = PreviousResults(options.results);
  std::unique_ptr<generator::FolderLock> work_lock;  // held until the run ends
  if (generating) {
    generator::CreateFolders(folder);
    work_lock = std::make_unique<generator::FolderLock>(folder, generator::FolderLock::Mode::Write,
                                                        "run", "--work folder");
    // Added to the work folder's suite (never narrowing it); the run then selects the files of
    // --op/--src/--dst from it.
    const std::vector<generator::Job> jobs = SelectJobs(a);
    generator::GenerateOptions generate;
    generate.out_dir = folder;
    generate.sampling = {a.seed, a.samples};
    if (!a.shard.empty()) generate.shard = generator::ParseShardSelection(a.shard);
    generate.progress = progress;
    generator::GenerateSuite(jobs, generate);
    locks = LockVectorFolders(vectors);  // covered by the work folder's lock
    if (jobs.size() == 1) {  // exactly the pair generated, also when it is not a default one
      vectors.src = std::string(oracle::Format(jobs[0].pair.src).name);
      vectors.dst = std::string(oracle::Format(jobs[0].pair.dst).name);
    }
    for (const tools::OutputFile& output : outputs) tools::CheckOutputFolder(output);
    tools::RefuseOverwritingInputs(outputs, tools::VectorInputFiles(vectors));
  }
  options.format = format;
  options.controls = controls;
  options.max_report = a.max_report;
  options.threads = a.threads;
  options.progress = progress;
  options.keep_going = a.keep_going;
  options.judge = std::move(judge);
  if (!a.op.empty() || vectors.filtered()) {  // a pair chosen: say if its files copy bits
    std::vector<generator::Job> pairs;
    for (const generator::VectorSource& source : generator::SelectVectorFiles(vectors)) {
      const generator::VectorReader reader(source.path);
      pairs.push_back({reader.info().op, reader.info().pair});
    }
    PrintPairNotes(pairs);
  }
  // Open the device last: a bad argument never starts it.
  std::unique_ptr<tools::Device> device = OpenDevice(a.device);
  tools::CheckReport report = tools::RunDevice(*device, vectors, options);
  device->Close();  // a program device must exit 0 after its last answer
  if (progress) std::cerr << "ptovec: results written to " << options.results.string() << "\n";
  const int status = FinishReport(report, a.junit, a.max_report);
  if (!previous.empty()) {
    std::cerr << "ptovec: replaced " << options.results.string() << " (" << previous << ")\n";
  }
  return status;
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
  r.add_option("--max-report", args->max_report, "mismatches to print in full (default 20)")
      ->check(kWholeNumber);
  r.add_option("--threads", args->threads,
               "threads evaluating at once when the device declares itself thread-safe (DUT ABI "
               "version 2, PTOVEC_DUT_THREAD_SAFE; default: all cores; never changes the results)")
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
  r.add_option("--mismatches", args->mismatches,
               "write every mismatched, waived or unsupported vector to FILE as JSON lines "
               "(inputs, mode, Sat, input class, expected, got, kind, verdict, rule, signature)");
  AddJudgeOptions(r, args->judge);
  r.add_flag("--keep-going", args->keep_going,
             "after the device crashes, exits or hangs on a case, restart it and go on (each "
             "such case is counted as a device failure and recorded as unsupported; the gate "
             "fails); without it the run stops there, exit 1");
  r.add_flag("--quiet", args->quiet, "no progress on stderr");
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
