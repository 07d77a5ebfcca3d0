// Suite folders: a manifest.json and the vector files it names. The rules that keep a folder
// whole, so a gate can never pass while silently checking only part of it:
//  - a vector file is recognised by its first bytes (binary magic `PTOVEC\0B`, or a JSON vector
//    header), whatever its name; results files, JUnit reports and other files beside it do not
//    count, nor do the temporaries (`*.tmp-*`) of a write in progress;
//  - a folder with a manifest must hold no vector file the manifest does not name
//    (check, run and generate refuse it);
//  - `generate` into a folder that holds a suite either replaces it (when it rewrites every file
//    the manifest names) or adds to it (same file-format version, tool version, seed, samples and
//    formats; anything else is refused before a byte is written), and never mixes or swaps the
//    default and the smoke suite (the manifest's "suite").
#pragma once

#include <cstdint>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "ptovec/generator/ops.hpp"
#include "ptovec/generator/shard.hpp"
#include "ptovec/generator/writers.hpp"
#include "ptovec/oracle/edition.hpp"

namespace ptovec::generator {

/// What a file's first bytes say it is.
enum class FileKind {
  Other,          ///< anything else, also an unreadable file or a folder
  VectorsBinary,  ///< starts with the 8 bytes `PTOVEC\0B` (schemas/binary-format.md)
  VectorsJson,    ///< starts with `{"format":"ptovec-vectors-json"`
  /// TestFloat-style text (testfloat.hpp), which has no header: a regular file whose name
  /// ParseTestFloatFileName accepts, whatever its bytes.
  VectorsTestFloat,
  ResultsBinary,  ///< starts with `PTOVEC\0R` (schemas/results-format.md)
  ResultsJson,    ///< starts with `{"format":"ptovec-results-json"`
};

/// Reads at most the first 64 bytes of `path`. Never throws.
FileKind SniffFile(const std::filesystem::path& path);

/// The names (no folders) of the vector files directly in `folder` (FileKind VectorsBinary or
/// VectorsJson), sorted; names containing ".tmp-" (a write in progress) are skipped. Empty when
/// `folder` is not a folder.
std::vector<std::string> VectorFileNamesIn(const std::filesystem::path& folder);

/// One entry of a manifest's "files" array (schemas/manifest.schema.json).
struct ManifestEntry {
  std::string path;    ///< file name relative to the manifest's folder, no folders
  std::string format;  ///< "bin", "json" or "testfloat"
  std::string op, src, dst;
  /// A "testfloat" file's control ("rmode" and "sat"; testfloat.hpp).
  std::optional<NumericExecutionControl> control;
  std::string group;            ///< the file group of a split pair (OpDef::file_groups), or ""
  std::uint64_t count = 0;      ///< records
  std::uint64_t bytes = 0;      ///< file size
  std::string sha256;           ///< 64 lower-case hex digits
  nlohmann::ordered_json json;  ///< the entry as written, kept verbatim when a suite is extended
  std::string Stem() const { return path.substr(0, path.rfind('.')); }
};

/// A parsed manifest.json.
struct Manifest {
  int version = 0;  ///< file-format version
  std::string tool_version;
  /// The specification edition of every file of the suite: "edition" ("2026-09"); a manifest
  /// without the key is of 0.58.3. A folder holds one edition.
  oracle::Edition edition = oracle::kDefaultEdition;
  /// "default" or "smoke" (GenerateOptions::suite). A manifest written before the key existed:
  /// "smoke" when a file's domain is "selected" (only the smoke suite's are), else "default".
  std::string suite = "default";
  std::uint64_t seed = 0;
  std::uint64_t samples = 0;
  std::vector<std::string> formats;     ///< "bin", "json", "testfloat"
  ControlFilter controls;               ///< version 2 "controls" (version 1: all)
  std::optional<ShardSelection> shard;  ///< version 2 "shard" of a shard folder
  std::vector<ManifestEntry> files;     ///< in manifest order; names unique
};

/// Reads `manifest_path`. Throws InputError with one line ("malformed manifest PATH (what;
/// expected the manifest `ptovec generate` writes)") for unreadable or malformed text, a missing
/// or mistyped key, a path with folders, or a name listed twice.
Manifest ReadManifest(const std::filesystem::path& manifest_path);

/// Throws InputError when `folder` holds vector files that its manifest (when `manifest` is
/// given) does not name, or any vector file at all when it has no manifest and
/// `require_manifest`. `role` starts the message ("--vectors folder", "--out folder").
void RefuseUnlistedVectorFiles(const std::filesystem::path& folder, const Manifest* manifest,
                               const std::string& role, const std::string& advice);

/// The canonical position of (op, pair) in a suite: registry order of ops, then the op's
/// default-suite pairs in order, then its other legal pairs in order. Manifests list files in
/// this order (bin before json), so a suite built in several `generate` calls has the same
/// manifest as one built in a single call.
std::pair<std::size_t, std::size_t> SuiteOrder(const OpDef& op, TypePair pair);

}  // namespace ptovec::generator
