// `ptovec merge`: joins the shard folders of one sharded `generate` (--shard 0/N .. N-1/N, each
// run anywhere: a Slurm array task, a Kubernetes indexed job, a CI matrix leg) into the files the
// unsharded run writes, byte for byte, with their manifest.json.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

namespace ptovec::generator {

/// One merged file.
struct MergedFile {
  std::string path;         ///< file name in the output folder
  std::uint64_t count = 0;  ///< records
  std::uint64_t bytes = 0;
  std::string sha256;  ///< lower-case hex
};

/// Reads the N shard folders (any order), checks them and writes `out`/<file> for every file
/// their manifests name, then `out`/manifest.json, each under a temporary name renamed when
/// complete. Every shard file is read in full and checked (header, shard range, records, size
/// and SHA-256 against its manifest) before it is used.
///
/// Throws InputError with one line for: a folder without a shard manifest; shards of different
/// runs (file-format or tool version, seed, samples, formats, controls, N, or the files listed
/// differ); the same shard twice ("overlapping"); shards missing (naming each K/N); a vector file
/// a manifest does not name; a shard file that is corrupt or differs from its manifest; an `out`
/// that holds vector files or a manifest, or is one of the shard folders.
std::vector<MergedFile> MergeShards(const std::vector<std::filesystem::path>& shard_folders,
                                    const std::filesystem::path& out, bool progress);

}  // namespace ptovec::generator
