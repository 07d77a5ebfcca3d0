// ptovec merge: join the shard folders of generate --shard (and the results of runs of them).
#include <CLI/CLI.hpp>
#include <iostream>
#include <string>
#include <vector>

#include "commands.hpp"
#include "ptovec/generator/cases.hpp"
#include "ptovec/generator/merge.hpp"
#include "ptovec/generator/suite_folder.hpp"
#include "ptovec/generator/word_text.hpp"
#include "ptovec/tools/merge_results.hpp"

namespace {

using namespace ptovec::generator;

using ptovec::cli::Fail;
using ptovec::cli::ProgressWanted;

int RunMerge(const std::vector<std::string>& folders, const std::string& out, bool quiet) {
  if (out.empty()) return Fail("--out is required (a new or empty folder for the merged suite)");
  std::vector<std::filesystem::path> paths(folders.begin(), folders.end());
  // Results files of runs of the shards are checked for presence first, so a merge that could
  // not join them writes nothing; a merge that fails later removes the --out folder it made.
  const auto results = ptovec::tools::ShardResultsFiles(paths);
  std::error_code error;
  const bool made_out = !std::filesystem::exists(out, error);
  struct RemoveOnFailure {
    std::filesystem::path folder;
    bool armed;
    ~RemoveOnFailure() {
      std::error_code ignored;
      if (armed) std::filesystem::remove_all(folder, ignored);
    }
  } guard{out, made_out};
  const auto files = MergeShards(paths, out, !quiet && ProgressWanted());
  std::uint64_t bytes = 0;
  for (const auto& f : files) bytes += f.bytes;
  std::cerr << "ptovec: merged " << folders.size() << " shard folders into "
            << ptovec::generator::Counted(files.size(), "file") << ", " << bytes
            << " bytes, and manifest.json in " << out;
  if (results) {
    const std::filesystem::path target = std::filesystem::path(out) / results->front().filename();
    ptovec::tools::MergeShardResults(paths, *results, out, target);
    std::cerr << ", and their results in " << target.string();
  }
  guard.armed = false;
  std::cerr << "\n";
  return 0;
}

}  // namespace

namespace ptovec::cli {

Command AddMergeCommand(CLI::App& app) {
  auto merge_folders = std::make_shared<std::vector<std::string>>();
  auto merge_out = std::make_shared<std::string>();
  auto merge_quiet = std::make_shared<bool>(false);
  CLI::App* merge = app.add_subcommand(
      "merge",
      "join the N shard folders of `generate --shard K/N` into the unsharded suite, "
      "byte for byte, and the results files of runs of them (one per folder) into the "
      "results of a run of that suite");
  merge->add_option("shards", *merge_folders, "the shard folders, in any order")->required();
  merge->add_option("--out", *merge_out, "output folder (new or empty)")->required();
  merge->add_flag("--quiet", *merge_quiet, "no progress on stderr");
  Command c;
  c.app = merge;
  c.run = Guarded([merge_folders, merge_out, merge_quiet] {
    return RunMerge(*merge_folders, *merge_out, *merge_quiet);
  });
  return c;
}

}  // namespace ptovec::cli
