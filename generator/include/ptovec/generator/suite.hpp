// Suite generation: evaluate every input of each (op, src, dst) under its controls, in parallel
// chunks, and stream the records in order into vector files plus a manifest.json.
#pragma once

#include <filesystem>
#include <functional>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "ptovec/generator/ops.hpp"
#include "ptovec/generator/shard.hpp"
#include "ptovec/generator/writers.hpp"

namespace ptovec::generator {

/// One (op, src, dst) to generate.
struct Job {
  const OpDef* op = nullptr;
  TypePair pair{};
};

/// The default suite: every op's default_suite_pairs, in registry order (of edition 0.58.3).
std::vector<Job> DefaultSuite();
/// The default suite of `edition`: every op of AllOps(edition), its default_suite_pairs.
std::vector<Job> DefaultSuite(oracle::Edition edition);

struct GenerateOptions {
  std::filesystem::path out_dir = "vectors/default";
  /// The option that named out_dir, for error lines ("--out"; `ptovec run --op`: "--work").
  std::string folder_option = "--out";
  /// The manifest's "suite": "default" (the op's default domains) or "smoke" (`selected` holds
  /// the inputs coverage.hpp SelectSmokeInputs picks). A folder holds one suite: generate
  /// refuses to add to or replace a folder's suite of another kind.
  std::string suite = "default";
  /// The specification edition of the jobs' ops (OpDef::edition), written as the manifest's
  /// "edition" when not 0.58.3. A folder holds one edition: generate refuses a folder whose
  /// manifest names another.
  oracle::Edition edition = oracle::kDefaultEdition;
  bool binary = true;
  bool json = false;
  /// TestFloat-style text (testfloat.hpp): one file per (op, pair, control), named
  /// TestFloatFileName.
  bool testfloat = false;
  SamplingOptions sampling;
  /// The controls each file holds: controls.ControlsOf(op) (an op without controls keeps its
  /// one control whatever the filter).
  ControlFilter controls;
  /// Write only this shard of every file (shard files; `ptovec merge` joins them).
  std::optional<ShardSelection> shard;
  unsigned threads = 0;   ///< 0: one per hardware thread. Never changes the bytes written.
  bool progress = false;  ///< progress lines on stderr
  /// When not empty, one per job: job j's inputs are selected[j] (domain "selected", e.g. the
  /// smoke suite's, picked from the default domain by coverage.hpp SelectSmokeInputs) instead
  /// of op->domain's.
  std::vector<std::shared_ptr<const std::vector<Inputs>>> selected;
  /// When not empty, one per job: the manifest's "selection" of job j's binary file (of each
  /// of its files when no binary one is written): the smoke suite's cell counts and notes
  /// (coverage.hpp SmokeSelectionJson); null for none.
  std::vector<nlohmann::ordered_json> selection;
};

/// One file written.
struct GeneratedFile {
  std::string path;    ///< relative to out_dir
  std::string format;  ///< "bin", "json" or "testfloat"
  const OpDef* op = nullptr;
  TypePair pair{};
  std::string domain;
  std::uint64_t seed = 0;
  /// A "testfloat" file's one control (the others hold every control of the file's header).
  std::optional<NumericExecutionControl> control;
  std::uint64_t count = 0;   ///< records in the file
  std::uint64_t inputs = 0;  ///< input tuples of the whole file
  std::optional<ShardRange> shard;
  std::vector<StrategyCount> strategies;
  nlohmann::ordered_json selection;  ///< GenerateOptions::selection of its job, or null
  std::uint64_t bytes = 0;
  std::string sha256;
};

/// The base file name of a job: "<op>_<src>_<dst>" ("tcvt_fp16_e8m0").
std::string JobBaseName(const Job& job);

/// The manifest's "controls" of a filter: {"rmodes": [names], "sat": [false, true]} (every
/// selected value listed).
nlohmann::ordered_json ControlFilterJson(const ControlFilter& filter);

/// The number of vectors a job produces with these options (builds its input domain).
std::uint64_t VectorCount(const Job& job, const SamplingOptions& sampling);

/// What generating `jobs` with `options` does to the folder's existing suite, for a note on
/// stderr: when it rewrites every file of a suite made with another --samples or --seed (of a
/// sampled file), "--work s8: its suite (1 file made with --samples 1000) was replaced by this
/// run's (--samples 2000); the previous vectors are not kept"; "" when there is no suite, the run
/// adds to it, or writes the same inputs again. Call before GenerateSuite. Throws InputError as
/// GenerateSuite does for a folder it refuses.
std::string SuiteReplacementNote(const std::vector<Job>& jobs, const GenerateOptions& options);

/// Generates the jobs' files into options.out_dir (created if missing) and writes its
/// manifest.json last. Every file appears under its final name only when complete.
///
/// A folder that already holds a suite is never narrowed (suite_folder.hpp): when this run
/// rewrites every file its manifest names, the new manifest names only the new files; otherwise
/// the new files are added to the suite (a file of the same name is replaced) and the manifest
/// names them all, in suite order (SuiteOrder), which requires the same file-format version,
/// tool version, seed, samples and formats. Throws InputError, before writing anything, for a
/// folder holding vector files that no manifest names, a malformed manifest, or a suite that
/// cannot be extended; std::runtime_error on I/O failure (nothing half-written is left under a
/// final name).
std::vector<GeneratedFile> GenerateSuite(const std::vector<Job>& jobs,
                                         const GenerateOptions& options);

}  // namespace ptovec::generator
