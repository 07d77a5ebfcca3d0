// `ptovec merge`, results part: the results files of runs of the shard folders joined into the
// results file of a run of the merged suite (byte for byte what `run` writes for it).
#pragma once

#include <filesystem>
#include <optional>
#include <vector>

namespace ptovec::tools {

/// The results file directly in each shard folder (a file whose first bytes are a results
/// file's, generator::SniffFile), when every folder has exactly one; nullopt when none has any.
/// Throws generator::InputError (one line) when some folders have one and others none, or a
/// folder has several.
std::optional<std::vector<std::filesystem::path>> ShardResultsFiles(
    const std::vector<std::filesystem::path>& shard_folders);

/// Joins `results[k]` (the results of a run of shard folder `shard_folders[k]`, any order of k)
/// into `out` (a file in the merged folder `merged`, whose manifest MergeShards wrote): one
/// section per merged file, the shards' records in shard order with their indices moved to the
/// whole file's records. Checks each shard's results against its folder's manifest (files in
/// order, SHA-256, counts) and refuses, with one line, results that stopped early, of another
/// format, device or control selection than the others'.
void MergeShardResults(const std::vector<std::filesystem::path>& shard_folders,
                       const std::vector<std::filesystem::path>& results,
                       const std::filesystem::path& merged, const std::filesystem::path& out);

}  // namespace ptovec::tools
