#include "suite_manifest.hpp"

#include <algorithm>
#include <filesystem>
#include <optional>
#include <string>
#include <system_error>
#include <tuple>
#include <utility>

#include "ptovec/generator/cases.hpp"
#include "ptovec/generator/domains.hpp"
#include "ptovec/generator/shard.hpp"
#include "ptovec/generator/testfloat.hpp"
#include "ptovec/generator/word_text.hpp"
#include "ptovec/generator/writers.hpp"

namespace ptovec::generator {

namespace {

// The manifest's "formats" of a run: "bin", "json", "testfloat", those written.
std::vector<std::string> FormatNames(const GenerateOptions& options) {
  std::vector<std::string> formats;
  if (options.binary) formats.push_back("bin");
  if (options.json) formats.push_back("json");
  if (options.testfloat) formats.emplace_back(kTestFloatFormat);
  return formats;
}

// True when --samples chooses the inputs of the job's file (a sampled or custom plan; an
// enumerated pair's file is the same whatever --samples says).
bool UsesSamples(const Job& job) {
  return job.op->plan(job.pair).kind != DomainPlan::Kind::Exhaustive;
}

// The names of every file the run writes.
std::vector<std::string> FilesWritten(const std::vector<Job>& jobs,
                                      const GenerateOptions& options) {
  std::vector<std::string> writing;
  for (const Job& job : jobs) {
    if (options.binary) writing.push_back(JobBaseName(job) + ".bin");
    if (options.json) writing.push_back(JobBaseName(job) + ".json");
    if (options.testfloat) {
      for (const NumericExecutionControl& c : options.controls.ControlsOf(*job.op, job.pair)) {
        writing.push_back(TestFloatFileName(*job.op, job.pair, c));
      }
    }
  }
  return writing;
}

// The folder's existing suite (nullopt: none), after refusing a file given as --out, vector
// files no manifest names, and a suite of another kind.
std::optional<Manifest> ExistingSuite(const GenerateOptions& options) {
  const std::filesystem::path& out = options.out_dir;
  std::error_code error;
  if (std::filesystem::exists(out, error) && !std::filesystem::is_directory(out, error)) {
    throw InputError(options.folder_option + " " + out.string() +
                     " is a file (expected a folder for the suite)");
  }
  const std::filesystem::path manifest_path = out / "manifest.json";
  if (!std::filesystem::exists(manifest_path, error)) {
    RefuseUnlistedVectorFiles(
        out, nullptr, options.folder_option + " folder",
        "give an empty or new " + options.folder_option + " folder, or move them away");
    return std::nullopt;
  }
  Manifest old = ReadManifest(manifest_path);
  RefuseUnlistedVectorFiles(
      out, &old, options.folder_option + " folder",
      "give an empty or new " + options.folder_option + " folder, or move them away");
  if (old.edition != options.edition) {
    // A folder holds one edition: check and run read one edition's answers from a manifest.
    throw InputError(options.folder_option + " " + out.string() + " holds a suite of edition " +
                     std::string(oracle::EditionName(old.edition)) + " (" +
                     Counted(old.files.size(), "file") + "), this run writes edition " +
                     std::string(oracle::EditionName(options.edition)) +
                     "; a folder holds one edition (give another " + options.folder_option +
                     ", or delete the folder first)");
  }
  if (old.suite != options.suite) {
    // Neither adding to nor replacing: the smoke suite over a default one would silently swap
    // a nightly suite for a per-commit one (or the reverse), under the same file names.
    throw InputError(options.folder_option + " " + out.string() + " holds the " + old.suite +
                     " suite (" + Counted(old.files.size(), "file") + "), this run writes the " +
                     options.suite + " suite; a folder holds one suite (give another " +
                     options.folder_option + ", or delete the folder first)");
  }
  return old;
}

// Every file of the old suite is rewritten: a new suite replaces it (another seed, format or
// ptovec version), but never a smaller one without a word: fewer samples, a shard, or fewer
// controls.
void RefuseNarrowerSuite(const Manifest& old, const GenerateOptions& options, bool sampled) {
  const auto narrower = [&](const std::string& what, const std::string& theirs,
                            const std::string& ours) {
    throw InputError(options.folder_option + " " + options.out_dir.string() + " holds a suite of " +
                     Counted(old.files.size(), "file") + " made with " + what + " " + theirs +
                     ", this run has " + what + " " + ours +
                     ", which would replace it by a smaller one (give another " +
                     options.folder_option + ", or delete the folder first)");
  };
  if (sampled && options.sampling.samples < old.samples) {
    narrower("--samples", std::to_string(old.samples), std::to_string(options.sampling.samples));
  }
  if (options.shard && old.shard != options.shard) {
    narrower("--shard", old.shard ? ShardName(*old.shard) : std::string("none"),
             ShardName(*options.shard));
  }
  for (const NumericRoundingMode m : oracle::kAllRoundingModes) {
    for (const bool sat : {false, true}) {
      if (old.controls.Accepts({m, sat}) && !options.controls.Accepts({m, sat})) {
        narrower("--rmode/--sat", old.controls.Describe(), options.controls.Describe());
      }
    }
  }
}

std::string ListText(const std::vector<std::string>& v) {
  std::string text;
  for (const std::string& s : v) text += (text.empty() ? "" : ",") + s;
  return text;
}

// Some files of the old suite are kept: refuses adding to a suite made with another file-format
// or tool version, seed, samples, formats, controls or shard. `samples` as EntriesToKeep's.
void RefuseMixedSuite(const Manifest& old, const GenerateOptions& options, bool sampled,
                      std::uint64_t& samples) {
  const auto refuse = [&](const std::string& what, const std::string& theirs,
                          const std::string& ours) {
    throw InputError(options.folder_option + " " + options.out_dir.string() + " holds a suite of " +
                     Counted(old.files.size(), "file") + " made with " + what + " " + theirs +
                     ", this run has " + what + " " + ours +
                     "; adding to it would mix two suites (give another " + options.folder_option +
                     ", or the suite's " + what + ")");
  };
  if (old.version != kFileFormatVersion) {
    refuse("file-format version", std::to_string(old.version), std::to_string(kFileFormatVersion));
  }
  if (old.tool_version != PTOVEC_VERSION) refuse("ptovec", old.tool_version, PTOVEC_VERSION);
  if (old.seed != options.sampling.seed) {
    refuse("--seed", std::to_string(old.seed), std::to_string(options.sampling.seed));
  }
  if (!sampled) {
    samples = old.samples;  // no file of this run depends on --samples
  } else if (old.samples != options.sampling.samples) {
    refuse("--samples", std::to_string(old.samples), std::to_string(options.sampling.samples));
  }
  const std::vector<std::string> formats = FormatNames(options);
  const auto format_name = [&](const std::vector<std::string>& f) {
    return f.size() == 2 ? std::string("both") : ListText(f);
  };
  if (old.formats != formats) refuse("--format", format_name(old.formats), format_name(formats));
  if (old.controls != options.controls) {
    refuse("--rmode/--sat", old.controls.Describe(), options.controls.Describe());
  }
  const auto shard_name = [](const std::optional<ShardSelection>& s) {
    return s ? ShardName(*s) : std::string("none");
  };
  if (old.shard != options.shard)
    refuse("--shard", shard_name(old.shard), shard_name(options.shard));
}

// The key that puts manifest entries in suite order: op, pair, format (bin, json, testfloat),
// then a testfloat file's control in the op's order.
using EntryKey = std::tuple<std::size_t, std::size_t, int, std::size_t>;
EntryKey EntryOrder(const OpDef& op, TypePair pair, const std::string& format,
                    std::optional<NumericExecutionControl> control) {
  const auto [op_index, pair_index] = SuiteOrder(op, pair);
  const int rank = format == "bin" ? 0 : format == "json" ? 1 : 2;
  std::size_t control_index = 0;
  if (control) {
    const std::vector<NumericExecutionControl> all = ControlsFor(op);
    control_index =
        static_cast<std::size_t>(std::find(all.begin(), all.end(), *control) - all.begin());
  }
  return {op_index, pair_index, rank, control_index};
}

// The suite order of a kept entry.
EntryKey KeptEntryOrder(const ManifestEntry& e, oracle::Edition edition) {
  const OpDef& op = RequireOp(e.op, edition);
  TypePair pair{RequireType(e.src, "src", edition), RequireType(e.dst, "dst", edition)};
  const std::vector<std::string> groups = FileGroups(op, pair);
  const auto group = std::find(groups.begin(), groups.end(), e.group);
  if (!e.group.empty() && group != groups.end())
    pair.group = static_cast<std::uint8_t>(group - groups.begin() + 1);
  return EntryOrder(op, pair, e.format, e.control);
}

nlohmann::ordered_json ManifestEntryJson(const GeneratedFile& g) {
  nlohmann::ordered_json e = {{"path", g.path},
                              {"format", g.format},
                              {"op", g.op->name},
                              {"src", oracle::Format(g.pair.src).name},
                              {"dst", oracle::Format(g.pair.dst).name}};
  if (g.control) {
    e["rmode"] = RoundingModeName(g.control->rounding_mode);
    e["sat"] = g.control->saturating;
  }
  if (g.pair.group != 0) e["group"] = FileGroupName(*g.op, g.pair);  // a split pair's file group
  e["domain"] = g.domain;
  e["seed"] = g.seed;
  e["inputs"] = g.inputs;
  e["count"] = g.count;
  e["bytes"] = g.bytes;
  e["sha256"] = g.sha256;
  if (!g.strategies.empty()) e["strategies"] = StrategiesJson(g.strategies);
  if (!g.selection.is_null()) e["selection"] = g.selection;
  if (g.shard) e["shard"] = {{"first_input", g.shard->first_input}, {"inputs", g.shard->inputs}};
  return e;
}

// Entries of the files kept from the folder's suite and of those just written, in suite order.
nlohmann::ordered_json ManifestFiles(const std::vector<ManifestEntry>& kept,
                                     const std::vector<GeneratedFile>& written,
                                     oracle::Edition edition) {
  std::vector<std::pair<EntryKey, nlohmann::ordered_json>> entries;
  for (const ManifestEntry& e : kept) entries.emplace_back(KeptEntryOrder(e, edition), e.json);
  for (const GeneratedFile& g : written) {
    entries.emplace_back(EntryOrder(*g.op, g.pair, g.format, g.control), ManifestEntryJson(g));
  }
  std::stable_sort(entries.begin(), entries.end(),
                   [](const auto& a, const auto& b) { return a.first < b.first; });
  nlohmann::ordered_json files = nlohmann::ordered_json::array();
  for (auto& [order, entry] : entries) files.push_back(std::move(entry));
  return files;
}

}  // namespace

std::string SuiteReplacementNote(const std::vector<Job>& jobs, const GenerateOptions& options) {
  const std::optional<Manifest> old = ExistingSuite(options);
  if (!old) return {};
  const std::vector<std::string> writing = FilesWritten(jobs, options);
  for (const ManifestEntry& e : old->files) {
    if (std::find(writing.begin(), writing.end(), e.path) == writing.end()) return {};
  }
  if (!std::any_of(jobs.begin(), jobs.end(), UsesSamples)) return {};
  std::string was, now;
  if (old->samples != options.sampling.samples) {
    was += "--samples " + std::to_string(old->samples);
    now += "--samples " + std::to_string(options.sampling.samples);
  }
  if (old->seed != options.sampling.seed) {
    was += std::string(was.empty() ? "" : ", ") + "--seed " + std::to_string(old->seed);
    now += std::string(now.empty() ? "" : ", ") + "--seed " + std::to_string(options.sampling.seed);
  }
  if (was.empty()) return {};
  return options.folder_option + " " + options.out_dir.string() + ": its suite (" +
         Counted(old->files.size(), "file") + " made with " + was +
         ") was replaced by this run's (" + now + "); the previous vectors are not kept";
}

std::vector<ManifestEntry> EntriesToKeep(const std::vector<Job>& jobs,
                                         const GenerateOptions& options, std::uint64_t& samples) {
  const std::optional<Manifest> old = ExistingSuite(options);
  if (!old) return {};
  const bool sampled = std::any_of(jobs.begin(), jobs.end(), UsesSamples);
  const std::vector<std::string> writing = FilesWritten(jobs, options);
  std::vector<ManifestEntry> keep;
  for (const ManifestEntry& e : old->files) {
    if (std::find(writing.begin(), writing.end(), e.path) == writing.end()) keep.push_back(e);
  }
  if (keep.empty()) {
    RefuseNarrowerSuite(*old, options, sampled);
  } else {
    RefuseMixedSuite(*old, options, sampled, samples);
  }
  return keep;
}

nlohmann::ordered_json ControlFilterJson(const ControlFilter& filter) {
  nlohmann::ordered_json modes = nlohmann::ordered_json::array();
  for (NumericRoundingMode m : oracle::kAllRoundingModes) {
    if (filter.modes.empty() ||
        std::find(filter.modes.begin(), filter.modes.end(), m) != filter.modes.end()) {
      modes.push_back(oracle::RoundingModeName(m));
    }
  }
  nlohmann::ordered_json sat = nlohmann::ordered_json::array();
  for (const bool value : {false, true}) {
    if (filter.sat.empty() ||
        std::find(filter.sat.begin(), filter.sat.end(), value) != filter.sat.end()) {
      sat.push_back(value);
    }
  }
  return {{"rmodes", modes}, {"sat", sat}};
}

std::unique_ptr<AtomicFile> ManifestFile(const GenerateOptions& options, std::uint64_t samples,
                                         const std::vector<ManifestEntry>& kept,
                                         const std::vector<GeneratedFile>& written) {
  nlohmann::ordered_json manifest;
  manifest["format"] = "ptovec-manifest";
  manifest["version"] = kFileFormatVersion;
  manifest["tool"] = "ptovec";
  manifest["tool_version"] = PTOVEC_VERSION;
  // Only for a later edition than 0.58.3, so 0.58.3 manifests keep their bytes.
  if (options.edition != oracle::kDefaultEdition) {
    manifest["edition"] = oracle::EditionName(options.edition);
  }
  manifest["suite"] = options.suite;
  manifest["seed"] = options.sampling.seed;
  manifest["samples"] = samples;
  manifest["formats"] = FormatNames(options);
  manifest["controls"] = ControlFilterJson(options.controls);
  if (options.shard)
    manifest["shard"] = {{"index", options.shard->index}, {"of", options.shard->of}};
  manifest["files"] = ManifestFiles(kept, written, options.edition);
  auto manifest_file = std::make_unique<AtomicFile>(options.out_dir / "manifest.json");
  manifest_file->Write(manifest.dump(2) + "\n");
  return manifest_file;
}

}  // namespace ptovec::generator
