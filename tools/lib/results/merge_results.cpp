// `ptovec merge`, results part (merge_results.hpp).
#include "ptovec/tools/merge_results.hpp"

#include <algorithm>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <span>
#include <string>
#include <vector>

#include "ptovec/generator/cases.hpp"
#include "ptovec/generator/readers.hpp"
#include "ptovec/generator/shard.hpp"
#include "ptovec/generator/suite_folder.hpp"
#include "ptovec/oracle/edition.hpp"
#include "ptovec/tools/results.hpp"
#include "report/report_text.hpp"

namespace ptovec::tools {

namespace {

using text::Str;

namespace fs = std::filesystem;
using generator::InputError;

}  // namespace

std::optional<std::vector<fs::path>> ShardResultsFiles(const std::vector<fs::path>& folders) {
  std::vector<fs::path> found;
  std::vector<std::string> without;
  for (const fs::path& folder : folders) {
    std::vector<fs::path> here;
    std::error_code error;
    if (!fs::is_directory(folder, error)) {
      throw InputError("shard folder " + folder.string() + " does not exist or is not a folder");
    }
    for (const auto& entry : fs::directory_iterator(folder, error)) {
      const std::string name = entry.path().filename().string();
      if (name.find(".tmp-") != std::string::npos) continue;
      const generator::FileKind kind = generator::SniffFile(entry.path());
      if (kind == generator::FileKind::ResultsBinary || kind == generator::FileKind::ResultsJson) {
        here.push_back(entry.path());
      }
    }
    if (here.size() > 1) {
      std::sort(here.begin(), here.end());
      throw InputError("shard folder " + folder.string() + " holds " + Str(here.size()) +
                       " results files (" + here[0].filename().string() + ", " +
                       here[1].filename().string() +
                       "); merge joins one per shard: move the "
                       "others away");
    }
    if (here.empty()) {
      without.push_back(folder.string());
    } else {
      found.push_back(here.front());
    }
  }
  if (found.empty()) return std::nullopt;
  if (!without.empty()) {
    throw InputError("shard folder " + without.front() + " has no results file while others do " +
                     "(run every shard, or move the results files away to merge only vectors)");
  }
  return found;
}

namespace {

// One shard of a merge, in shard order: its folder, manifest and results reader.
struct Shard {
  fs::path folder;
  generator::Manifest manifest;
  std::unique_ptr<ResultsReader> reader;
};
using Shards = std::map<std::uint64_t, Shard>;

// "results file FILE of shard K/N", for error lines.
std::string ShardText(const Shard& s, const fs::path& file) {
  return "results file " + file.string() + " of shard " +
         (s.manifest.shard ? generator::ShardName(*s.manifest.shard) : std::string("?"));
}

// Throws InputError unless the shard's results are of the first shard's run (stopped: never;
// format, device and judging the same) and answer the merged suite's files, section by section,
// as the first shard's do. Adds each section's count to counts.
void CheckShardResults(const Shard& shard, const fs::path& file, const Shard& first,
                       const std::vector<generator::VectorSource>& sources,
                       std::vector<std::uint64_t>& counts) {
  const ResultsReader& r = *shard.reader;
  if (r.stopped()) {
    throw InputError(ShardText(shard, file) + " is of a run that stopped early (" +
                     r.stopped()->reason + "); run that shard again");
  }
  if (r.format() != first.reader->format() || r.device() != first.reader->device()) {
    throw InputError(ShardText(shard, file) + " is " + r.format() + " from device '" + r.device() +
                     "', the first shard's " + first.reader->format() + " from '" +
                     first.reader->device() + "' (merge joins one run's shards)");
  }
  if (r.edition() != first.reader->edition()) {
    throw InputError(ShardText(shard, file) + " is of edition " +
                     std::string(oracle::EditionName(r.edition())) + ", the first shard's of " +
                     std::string(oracle::EditionName(first.reader->edition())) +
                     " (merge joins one run's shards)");
  }
  if (r.judged() != first.reader->judged()) {
    throw InputError(ShardText(shard, file) + " was judged " + r.judged().dump() +
                     ", the first shard's " + first.reader->judged().dump() +
                     " (merge joins one run's shards: the same --compare, --flags, "
                     "--known-differences and --allow-unsupported)");
  }
  if (r.sections().size() != sources.size()) {
    throw InputError(ShardText(shard, file) + " has " + Str(r.sections().size()) +
                     " sections, the merged suite " + Str(sources.size()) +
                     " files (results of a run of part of the shard?)");
  }
  for (std::size_t s = 0; s < sources.size(); ++s) {
    const ResultsSection& section = r.sections()[s];
    const auto entry =
        std::find_if(shard.manifest.files.begin(), shard.manifest.files.end(),
                     [&](const generator::ManifestEntry& e) { return e.path == section.file; });
    if (section.file != sources[s].name || entry == shard.manifest.files.end() ||
        entry->sha256 != section.sha256 ||
        section.controls != first.reader->sections()[s].controls) {
      throw InputError(ShardText(shard, file) + " section " + Str(s) + " (" + section.file +
                       ") does not answer the shard's " + sources[s].name +
                       " as the other shards' results do (another file, version or --rmode/--sat)");
    }
    counts[s] += section.count;
  }
}

// Section s's answers of every shard, in shard order, their record indices moved to the merged
// file's (each shard file's first record is its first input times the controls).
void CopySection(Shards& by_index, std::size_t s, const generator::VectorSource& source,
                 bool filtered, ResultsWriter& writer) {
  std::vector<DeviceAnswer> answers;
  std::vector<std::uint64_t> indices;
  for (auto& [index, shard] : by_index) {
    generator::VectorReader vectors(shard.folder / source.name);
    const generator::VectorFileInfo& info = vectors.info();
    const std::uint64_t offset = info.shard ? info.shard->first_input * info.controls.size() : 0;
    std::uint64_t left = shard.reader->RecordsIn(s);
    while (left > 0) {
      const auto n = static_cast<std::size_t>(std::min<std::uint64_t>(left, 1 << 16));
      answers.resize(n);
      indices.resize(n);
      shard.reader->Read(s, answers, indices);
      for (std::uint64_t& i : indices) i += offset;
      writer.Append(answers, filtered ? std::span<const std::uint64_t>(indices)
                                      : std::span<const std::uint64_t>());
      left -= n;
    }
  }
}

}  // namespace

void MergeShardResults(const std::vector<fs::path>& folders, const std::vector<fs::path>& results,
                       const fs::path& merged, const fs::path& out) {
  Shards by_index;
  for (std::size_t k = 0; k < folders.size(); ++k) {
    generator::Manifest m = generator::ReadManifest(folders[k] / "manifest.json");
    const std::uint64_t index = m.shard ? m.shard->index : 0;
    by_index[index] = Shard{folders[k], std::move(m), std::make_unique<ResultsReader>(results[k])};
  }
  // The files a run of the merged folder answers, in run order.
  const std::vector<generator::VectorSource> sources =
      generator::SelectVectorFiles(generator::VectorSelection(merged));
  const Shard& first = by_index.begin()->second;
  std::vector<std::uint64_t> counts(sources.size(), 0);
  for (auto& [index, shard] : by_index) {
    const fs::path file = results[static_cast<std::size_t>(
        std::find(folders.begin(), folders.end(), shard.folder) - folders.begin())];
    CheckShardResults(shard, file, first, sources, counts);
  }
  std::vector<ResultsSection> sections;
  for (std::size_t s = 0; s < sources.size(); ++s) {
    ResultsSection section = first.reader->sections()[s];
    section.sha256 = *sources[s].sha256;
    section.count = counts[s];
    sections.push_back(std::move(section));
  }
  nlohmann::ordered_json header_keys = first.reader->judged();
  header_keys["vectors"] = ResultsVectorsHeader({merged}, out);  // as a run of the merged folder
  ResultsWriter writer(
      out, first.reader->format() == "bin" ? ResultsFormat::Binary : ResultsFormat::Json, sections,
      first.reader->device(), header_keys);
  for (std::size_t s = 0; s < sources.size(); ++s) {
    CopySection(by_index, s, sources[s], !sections[s].controls.empty(), writer);
  }
  for (auto& [index, shard] : by_index) shard.reader->Finish();
  writer.Commit();
}

}  // namespace ptovec::tools
