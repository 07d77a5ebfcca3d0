// The manifest side of GenerateSuite (suite.cpp): which entries of a folder's existing suite a
// run keeps, after checking that adding to that suite is safe, and the manifest written at the
// end with the kept and the new entries in suite order.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "ptovec/generator/atomic_file.hpp"
#include "ptovec/generator/suite.hpp"
#include "ptovec/generator/suite_folder.hpp"

namespace ptovec::generator {

/// The manifest entries of `out_dir`'s existing suite that this run keeps (the files it does not
/// rewrite), after checking that adding to that suite is safe. Refuses (InputError, before any
/// file is written) a folder with vector files no manifest names, and a suite that this run
/// would only partly rewrite when it was made with another file-format or tool version, seed,
/// samples or formats: adding to it would mix two suites in one manifest.
/// `samples` (in: this run's --samples) comes back as the suite's: the folder's when this run
/// adds only enumerated files to it.
std::vector<ManifestEntry> EntriesToKeep(const std::vector<Job>& jobs,
                                         const GenerateOptions& options, std::uint64_t& samples);

/// The manifest of the run (its suite's `samples`): the entries `kept` and those `written`, in
/// suite order, as a file not yet committed.
std::unique_ptr<AtomicFile> ManifestFile(const GenerateOptions& options, std::uint64_t samples,
                                         const std::vector<ManifestEntry>& kept,
                                         const std::vector<GeneratedFile>& written);

}  // namespace ptovec::generator
