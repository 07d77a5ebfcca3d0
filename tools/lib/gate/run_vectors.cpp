// `ptovec run`'s choices before its vectors go through a device (run.hpp): the jobs and work
// folder of `run --op`, the vectors' generation into it, and what a replaced results file held.
#include <exception>
#include <filesystem>
#include <iostream>
#include <memory>
#include <optional>
#include <string>
#include <system_error>
#include <vector>

#include "ptovec/generator/cases.hpp"
#include "ptovec/generator/interrupts.hpp"
#include "ptovec/generator/readers.hpp"
#include "ptovec/generator/shard.hpp"
#include "ptovec/generator/suite.hpp"
#include "ptovec/oracle/edition.hpp"
#include "ptovec/tools/results.hpp"
#include "ptovec/tools/run.hpp"

namespace ptovec::tools {

std::vector<generator::Job> SelectRunJobs(const std::string& op_name, const std::string& src_name,
                                          const std::string& dst_name, oracle::Edition edition) {
  using generator::InputError;
  const generator::OpDef& op = generator::RequireOp(op_name, edition);
  std::optional<generator::TileDataType> src;
  std::optional<generator::TileDataType> dst;
  if (!src_name.empty()) src = generator::RequireType(src_name, "--src", edition);
  if (!dst_name.empty()) dst = generator::RequireType(dst_name, "--dst", edition);
  std::vector<generator::Job> jobs;
  if (src && dst) {
    if (!generator::IsLegalPair(op, {*src, *dst})) {
      const std::string refusal = op.pair_refusal ? op.pair_refusal({*src, *dst}) : "";
      throw InputError((refusal.empty()
                            ? op.name + " does not accept " + src_name + " -> " + dst_name
                            : refusal) +
                       " (`ptovec list" +
                       (edition == oracle::kDefaultEdition
                            ? std::string()
                            : " --edition " + std::string(oracle::EditionName(edition))) +
                       "` shows every pair)");
    }
    // A split pair: its file groups (OpDef::file_groups).
    for (const generator::TypePair& p : generator::FilePairs(op, {*src, *dst}))
      jobs.push_back({&op, p});
    return jobs;
  }
  for (const generator::TypePair& p : op.default_suite_pairs) {
    if ((!src || p.src == *src) && (!dst || p.dst == *dst)) jobs.push_back({&op, p});
  }
  if (jobs.empty()) {
    throw InputError("no default-suite pair of " + op.name + " matches --src '" + src_name +
                     "' --dst '" + dst_name +
                     "' (give both to pick any legal pair; `ptovec list`)");
  }
  return jobs;
}

std::filesystem::path RunWorkFolder(const std::string& work, const std::string& shard,
                                    bool work_given) {
  std::filesystem::path folder = work;
  // A shard goes to its own folder, "<work>_shard<K>of<N>", unless --work names one.
  if (!shard.empty() && !work_given) {
    const generator::ShardSelection selection = generator::ParseShardSelection(shard);
    folder += "_shard" + std::to_string(selection.index) + "of" + std::to_string(selection.of);
  }
  return folder;
}

std::filesystem::path RunVectorsFolder(const generator::VectorSelection& vectors) {
  std::error_code error;
  const std::filesystem::path& first = vectors.paths.front();
  return std::filesystem::is_directory(first, error) ? first : first.parent_path();
}

std::unique_ptr<generator::FolderLock> GenerateRunVectors(const std::filesystem::path& folder,
                                                          const RunGeneration& generation,
                                                          generator::VectorSelection& vectors) {
  generator::CreateFolders(folder);
  auto lock = std::make_unique<generator::FolderLock>(folder, generator::FolderLock::Mode::Write,
                                                      "run", "--work folder");
  // Added to the work folder's suite (never narrowing it); the run then selects the files of
  // --op/--src/--dst from it.
  const std::vector<generator::Job> jobs =
      SelectRunJobs(generation.op, generation.src, generation.dst, generation.edition);
  generator::GenerateOptions generate;
  generate.edition = generation.edition;
  generate.out_dir = folder;
  generate.folder_option = "--work";
  generate.sampling = {generation.seed, generation.samples};
  if (!generation.shard.empty()) generate.shard = generator::ParseShardSelection(generation.shard);
  generate.progress = generation.progress;
  const std::string replaced = generator::SuiteReplacementNote(jobs, generate);
  generator::GenerateSuite(jobs, generate);
  if (!replaced.empty()) std::cerr << "ptovec: note: " << replaced << "\n";
  if (jobs.size() == 1) {  // exactly the pair generated, also when it is not a default one
    vectors.src = std::string(oracle::Format(jobs[0].pair.src).name);
    vectors.dst = std::string(oracle::Format(jobs[0].pair.dst).name);
  }
  return lock;
}

std::string PreviousResultsNote(const std::filesystem::path& path) {
  std::error_code error;
  if (!std::filesystem::exists(std::filesystem::symlink_status(path, error))) return {};
  std::string device;
  try {
    device = ResultsReader(path).device();
  } catch (const std::exception&) {
    return "it was not a readable results file; not kept";
  }
  return "the previous results" + (device.empty() ? std::string() : ", of device " + device) +
         "; not kept";
}

}  // namespace ptovec::tools
