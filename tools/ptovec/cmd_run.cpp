// ptovec run: stream vectors through a device under test (a shared library or a program), write
// a results file and report as `check` does.
#include <iostream>

#include "commands.hpp"
#include "ptovec/generator/cases.hpp"
#include "ptovec/generator/suite.hpp"
#include "ptovec/tools/check.hpp"
#include "ptovec/tools/device.hpp"

namespace ptovec::cli {

namespace {

struct RunArgs {
  std::string dut;
  std::string dut_arg;
  std::string dut_cmd;
  std::string vectors;
  std::string op;
  std::string src;
  std::string dst;
  std::uint64_t seed = 1;
  std::uint64_t samples = 100000;
  std::string work = "ptovec-run";
  std::string results;
  std::string format = "bin";
  std::string junit;
  std::size_t max_report = 20;
  bool quiet = false;
  bool generation_options = false;  // --seed, --samples or --work given
};

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
    return {{&op, {*src, *dst}}};
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

int Run(const RunArgs& a) {
  using generator::InputError;
  if (a.dut.empty() == a.dut_cmd.empty()) {
    throw InputError("give exactly one of --dut LIB.so and --dut-cmd \"PROGRAM ARGS\"");
  }
  if (!a.dut_arg.empty() && a.dut.empty()) throw InputError("--dut-arg goes with --dut only");
  if (a.vectors.empty() == a.op.empty()) {
    throw InputError("give exactly one of --vectors PATH and --op OP");
  }
  if (a.op.empty() && (!a.src.empty() || !a.dst.empty() || a.generation_options)) {
    throw InputError("--src, --dst, --seed, --samples and --work go with --op (--vectors files "
                     "are already generated)");
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
  const bool progress = !a.quiet && ProgressWanted();

  std::filesystem::path vectors = a.vectors;
  std::filesystem::path folder;
  if (!a.op.empty()) {
    const std::vector<generator::Job> jobs = SelectJobs(a);
    generator::GenerateOptions options;
    options.out_dir = a.work;
    options.sampling = {a.seed, a.samples};
    options.progress = progress;
    generator::GenerateSuite(jobs, options);
    vectors = a.work;
    folder = a.work;
  } else {
    std::error_code error;
    folder = std::filesystem::is_directory(vectors, error) ? vectors : vectors.parent_path();
  }
  tools::RunOptions options;
  options.results = a.results.empty()
                        ? folder / (format == tools::ResultsFormat::Binary ? "results.bin"
                                                                           : "results.jsonl")
                        : std::filesystem::path(a.results);
  options.format = format;
  options.max_report = a.max_report;
  options.progress = progress;
  // Open the device last: a bad argument never starts it.
  std::unique_ptr<tools::Device> device = a.dut.empty() ? tools::OpenCommandDevice(a.dut_cmd)
                                                        : tools::OpenLibraryDevice(a.dut, a.dut_arg);
  const tools::CheckReport report = tools::RunDevice(*device, vectors, options);
  if (progress) std::cerr << "ptovec: results written to " << options.results.string() << "\n";
  return FinishReport(report, a.junit, a.max_report);
}

}  // namespace

Command AddRunCommand(CLI::App& app) {
  auto args = std::make_shared<RunArgs>();
  Command c;
  c.app = app.add_subcommand(
      "run", "stream vectors through a device under test, write a results file and check it "
             "(exit 0 all match, 1 mismatch, 2 error)");
  CLI::App& r = *c.app;
  r.add_option("--dut", args->dut, "the device: a shared library implementing ptovec_dut.h");
  r.add_option("--dut-arg", args->dut_arg, "text passed to the library's ptovec_dut_init");
  r.add_option("--dut-cmd", args->dut_cmd,
               "the device: a program speaking schemas/dut-protocol.md on stdin/stdout");
  r.add_option("--vectors", args->vectors,
               "a vector file, or a folder (its manifest.json, else its *.bin / *.json)");
  r.add_option("--op", args->op, "generate this op's vectors first (like `ptovec generate`)");
  r.add_option("--src", args->src, "with --op: only this source type");
  r.add_option("--dst", args->dst, "with --op: only this destination type");
  CLI::Option* seed =
      r.add_option("--seed", args->seed, "with --op: sampling seed (default 1)")->check(kWholeNumber);
  CLI::Option* samples =
      r.add_option("--samples", args->samples, "with --op: samples per sampled pair (default 100000)")
          ->check(kWholeNumber);
  CLI::Option* work =
      r.add_option("--work", args->work, "with --op: folder for the vectors (default ptovec-run)");
  r.add_option("--results", args->results,
               "results file to write (default <vectors or work folder>/results.bin, or "
               "results.jsonl with --format json)");
  r.add_option("--format", args->format, "results format: bin or json (default bin)");
  r.add_option("--junit", args->junit, "also write a JUnit XML report to FILE");
  r.add_option("--max-report", args->max_report, "mismatches to print in full (default 20)")
      ->check(kWholeNumber);
  r.add_flag("--quiet", args->quiet, "no progress on stderr");
  c.run = [args, seed, samples, work] {
    try {
      args->generation_options = seed->count() + samples->count() + work->count() > 0;
      return Run(*args);
    } catch (const std::exception& e) {
      return Fail(e.what());
    }
  };
  return c;
}

}  // namespace ptovec::cli
