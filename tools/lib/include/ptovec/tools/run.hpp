// `ptovec run`'s choices before its vectors go through a device: the jobs and work folder of
// `run --op`, the vectors' generation into it, and what a results file it replaces held.
#pragma once

#include <cstdint>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "ptovec/generator/interrupts.hpp"
#include "ptovec/generator/readers.hpp"
#include "ptovec/generator/suite.hpp"
#include "ptovec/oracle/edition.hpp"

namespace ptovec::tools {

/// `ptovec run --op`: the jobs of `op` [`src`] [`dst`] as `ptovec generate` selects them (both
/// types: that legal pair, split into its file groups; else the default-suite pairs matching).
/// Throws generator::InputError for an illegal pair or no matching pair.
std::vector<generator::Job> SelectRunJobs(const std::string& op, const std::string& src,
                                          const std::string& dst,
                                          oracle::Edition edition = oracle::kDefaultEdition);

/// `ptovec run --op`: where its vectors are generated: `work`, or for a shard (`shard` not empty)
/// "<work>_shard<K>of<N>" unless `work_given`.
std::filesystem::path RunWorkFolder(const std::string& work, const std::string& shard,
                                    bool work_given);

/// The folder a run of `vectors` writes its results into by default: its first path when that is
/// a folder, else the folder holding it.
std::filesystem::path RunVectorsFolder(const generator::VectorSelection& vectors);

/// How `ptovec run --op` generates its vectors.
struct RunGeneration {
  std::string op, src, dst;  ///< the selection (SelectRunJobs)
  std::uint64_t seed = 1;
  std::uint64_t samples = 100000;
  std::string shard;  ///< "K/N", or empty
  bool progress = false;
  oracle::Edition edition = oracle::kDefaultEdition;  ///< the ops' edition (--edition)
};

/// `ptovec run --op`: creates `folder`, takes its write lock (returned: hold it until the run
/// ends), adds the selected jobs to its suite (never narrowing it) and, when exactly one pair was
/// generated, narrows `vectors` to it (also when it is not a default one). Throws
/// generator::InputError as SelectRunJobs and generate do.
std::unique_ptr<generator::FolderLock> GenerateRunVectors(const std::filesystem::path& folder,
                                                          const RunGeneration& generation,
                                                          generator::VectorSelection& vectors);

/// What the results file at `path` holds before a run replaces it, for the line saying so: ""
/// when there is none, else "the previous results, of device NAME; not kept" (or that it was no
/// readable results file).
std::string PreviousResultsNote(const std::filesystem::path& path);

}  // namespace ptovec::tools
