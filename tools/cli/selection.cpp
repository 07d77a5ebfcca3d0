// The selection options generate and diff share (selection.hpp).
#include "selection.hpp"

#include <iostream>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "commands.hpp"
#include "ptovec/generator/cases.hpp"
#include "ptovec/generator/errors.hpp"

namespace ptovec::cli {

using generator::InputError;
using generator::Job;
using generator::TileDataType;
using generator::TypePair;

void AddJobOptions(CLI::App& app, SelectionArgs& a) {
  app.add_option("--op", a.op, "only this op (" + generator::OpNamesList() + ")");
  app.add_option("--src", a.src, "only this source type");
  app.add_option("--dst", a.dst, "only this destination type");
}

void AddInputOptions(CLI::App& app, SelectionArgs& a, const std::string& smoke_out) {
  app.add_option("--seed", a.seed, "sampling seed (default 1)")->check(kWholeNumber);
  app.add_option("--samples", a.samples, "sampled input tuples per sampled pair (default 100000)")
      ->check(kSampleCount);
  app.add_option("--rmode", a.rmode,
                 "only these rounding modes, comma-separated (RNE,RTZ) or all (default all); ops "
                 "without a mode keep their one control");
  app.add_option("--sat", a.sat, "only Sat off, on, or both (default both)");
  app.add_option("--threads", a.threads,
                 "worker threads (default or 0: one per core; never changes the output)")
      ->check(kWholeNumber);
  app.add_flag("--quiet", a.quiet, "no progress on stderr");
  app.add_option("--suite", a.suite,
                 "default (every input of the default domains) or smoke: the few inputs of the "
                 "default suite, all controls of each, that hit every outcome class it reaches "
                 "twice, from both sides of the class where it can (`ptovec coverage`; the "
                 "manifest notes what cannot" +
                     smoke_out + ")");
}

std::string ListCommand(oracle::Edition edition) {
  return edition == oracle::kDefaultEdition
             ? "`ptovec list`"
             : "`ptovec list --edition " + std::string(oracle::EditionName(edition)) + "`";
}

std::vector<Job> SelectJobs(const SelectionArgs& a, oracle::Edition edition) {
  std::optional<TileDataType> src;
  std::optional<TileDataType> dst;
  if (!a.src.empty()) src = generator::RequireType(a.src, "--src", edition);
  if (!a.dst.empty()) dst = generator::RequireType(a.dst, "--dst", edition);
  std::vector<Job> jobs;
  if (!a.op.empty()) {
    const generator::OpDef& op = generator::RequireOp(a.op, edition);
    if (src && dst) {
      if (!generator::IsLegalPair(op, {*src, *dst})) {
        const std::string refusal = op.pair_refusal ? op.pair_refusal({*src, *dst}) : "";
        throw InputError(
            (refusal.empty() ? op.name + " does not accept " + a.src + " -> " + a.dst : refusal) +
            " (" + ListCommand(edition) + " shows every pair)");
      }
      for (const TypePair& p : generator::FilePairs(op, {*src, *dst})) jobs.push_back({&op, p});
      return jobs;  // a split pair: its file groups (OpDef::file_groups)
    }
    for (const TypePair& p : op.default_suite_pairs) {
      if ((!src || p.src == *src) && (!dst || p.dst == *dst)) jobs.push_back({&op, p});
    }
  } else {
    for (const Job& j : generator::DefaultSuite(edition)) {
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

std::vector<Job> KeepControlledJobs(std::vector<Job> jobs, const generator::ControlFilter& controls,
                                    const SelectionArgs& a) {
  std::vector<Job> kept;
  std::string left_out;
  for (const Job& job : jobs) {
    if (controls.ControlsOf(*job.op, job.pair).empty()) {
      left_out += (left_out.empty() ? "" : ", ") + generator::JobBaseName(job);
    } else {
      kept.push_back(job);
    }
  }
  if (a.Narrowed()) PrintPairNotes(jobs);
  if (!kept.empty() && !left_out.empty()) {
    if (!a.quiet) {
      std::cerr << "ptovec: note: left out (no control among --rmode/--sat): " << left_out << "\n";
    }
    jobs = std::move(kept);
  }
  return jobs;
}

generator::SmokeSelection SelectSmoke(const std::vector<Job>& jobs, const SelectionArgs& a,
                                      generator::GenerateOptions& options) {
  generator::SmokeSelection total;
  const auto chosen = generator::SelectSmokeInputs(jobs, {a.seed, a.samples}, a.threads);
  for (std::size_t j = 0; j < jobs.size(); ++j) {
    options.selected.push_back(
        std::make_shared<const std::vector<generator::Inputs>>(chosen[j].inputs));
    options.selection.push_back(
        generator::SmokeSelectionJson(*jobs[j].op, jobs[j].pair, chosen[j]));
    total.cells += chosen[j].cells;
    total.both_sides += chosen[j].both_sides;
    total.one_side += chosen[j].one_side;
    total.one_input += chosen[j].one_input;
    total.input_class += chosen[j].input_class;
  }
  return total;
}

void CheckInputOptions(const SelectionArgs& a) {
  if (a.samples == 0) throw InputError("--samples must be at least 1 (got 0)");
  if (!a.suite.empty() && a.suite != "default" && a.suite != "smoke") {
    throw InputError("unknown --suite '" + a.suite + "' (accepted: default, smoke)");
  }
}

}  // namespace ptovec::cli
