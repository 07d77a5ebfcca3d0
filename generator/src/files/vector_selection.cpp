// Which vector files a check or run reads (readers.hpp): the files of a path (a file, a suite
// folder with or without manifest.json), a selection of them by op and types, and each one
// opened and checked against its manifest entry.
#include <algorithm>
#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <system_error>
#include <utility>
#include <vector>

#include "ptovec/generator/cases.hpp"
#include "ptovec/generator/readers.hpp"
#include "ptovec/generator/suite_folder.hpp"
#include "ptovec/oracle/edition.hpp"

namespace ptovec::generator {

namespace {

// A source of a manifest's entry: its digest, count, size and kind to verify.
VectorSource ListedSource(const std::filesystem::path& path, const ManifestEntry& e, bool twin,
                          oracle::Edition edition) {
  return {path,    e.path,  e.sha256,
          e.count, e.bytes, std::array<std::string, 4>{e.op, e.src, e.dst, e.format},
          twin,    edition};
}

// Throws InputError when a listed file is missing or its size is not the manifest's.
void CheckListedSize(const VectorSource& s, const std::filesystem::path& manifest_path) {
  std::error_code error;
  if (!std::filesystem::is_regular_file(s.path, error)) {
    throw InputError("vector file " + s.path.string() + " listed in " + manifest_path.string() +
                     " is missing");
  }
  const std::uint64_t size = std::filesystem::file_size(s.path, error);
  if (size != *s.bytes) {
    throw InputError("vector file " + s.path.string() + " has " + std::to_string(size) +
                     " bytes, " + manifest_path.string() + " says " + std::to_string(*s.bytes) +
                     (size < *s.bytes ? " (truncated)" : ""));
  }
}

}  // namespace

namespace {

// A file given alone, checked against the manifest beside it when that lists it (a suite's file
// keeps its digest, count and size wherever it is passed from).
VectorSource LoneFileSource(const std::filesystem::path& path) {
  std::error_code error;
  const std::string name = path.filename().string();
  const std::filesystem::path manifest_path = path.parent_path() / "manifest.json";
  if (std::filesystem::is_regular_file(manifest_path, error)) {
    const Manifest manifest = ReadManifest(manifest_path);
    for (const ManifestEntry& e : manifest.files) {
      if (e.path != name) continue;
      VectorSource source = ListedSource(path, e, false, manifest.edition);
      CheckListedSize(source, manifest_path);
      return source;
    }
  }
  return {path, name, std::nullopt, std::nullopt, std::nullopt, std::nullopt, false, std::nullopt};
}

// Of a file stored in both formats ((stem, name) pairs in order), the binary one is read (with
// `twins`, the other one right after it, marked as its twin): (name, twin) pairs.
std::vector<std::pair<std::string, bool>> PreferBinary(
    const std::vector<std::pair<std::string, std::string>>& names, bool twins) {
  std::vector<std::string> chosen;  // per stem: the name chosen; a stem's .bin wins
  std::vector<std::string> stems;
  std::vector<std::string> others;  // per stem: the name not chosen, or ""
  for (const auto& [stem, name] : names) {
    const auto at = std::find(stems.begin(), stems.end(), stem);
    if (at == stems.end()) {
      stems.push_back(stem);
      chosen.push_back(name);
      others.emplace_back();
    } else {
      const auto k = static_cast<std::size_t>(at - stems.begin());
      if (name.ends_with(".bin")) {
        others[k] = chosen[k];
        chosen[k] = name;
      } else {
        others[k] = name;
      }
    }
  }
  std::vector<std::pair<std::string, bool>> out;
  for (std::size_t k = 0; k < chosen.size(); ++k) {
    out.emplace_back(chosen[k], false);
    if (twins && !others[k].empty()) out.emplace_back(others[k], true);
  }
  return out;
}

// The files a folder's manifest lists.
std::vector<VectorSource> ManifestSources(const std::filesystem::path& path,
                                          const std::filesystem::path& manifest_path, bool twins) {
  const Manifest manifest = ReadManifest(manifest_path);
  RefuseUnlistedVectorFiles(path, &manifest, "--vectors folder",
                            "the gate would skip them. Add them with `ptovec generate --out " +
                                path.string() + "` (same seed and samples) or move them away");
  std::vector<std::pair<std::string, std::string>> names;
  for (const ManifestEntry& e : manifest.files) names.emplace_back(e.Stem(), e.path);
  std::vector<VectorSource> sources;
  for (const auto& listed : PreferBinary(names, twins)) {
    const std::string& name = listed.first;
    const auto e = std::find_if(manifest.files.begin(), manifest.files.end(),
                                [&](const ManifestEntry& m) { return m.path == name; });
    sources.push_back(ListedSource(path / name, *e, listed.second, manifest.edition));
  }
  for (const VectorSource& s : sources) CheckListedSize(s, manifest_path);
  if (sources.empty()) {
    throw InputError(manifest_path.string() + " lists no vector files (nothing to check)");
  }
  return sources;
}

// No manifest: every vector file in the folder, by name.
std::vector<VectorSource> FolderSources(const std::filesystem::path& path, bool twins) {
  std::vector<std::pair<std::string, std::string>> names;
  for (const std::string& name : VectorFileNamesIn(path)) {
    names.emplace_back(name.substr(0, name.rfind('.')), name);
  }
  std::vector<VectorSource> sources;
  for (const auto& [name, twin] : PreferBinary(names, twins)) {
    sources.push_back({path / name, name, std::nullopt, std::nullopt, std::nullopt, std::nullopt,
                       twin, std::nullopt});
  }
  if (sources.empty()) {
    throw InputError("--vectors folder " + path.string() + " holds no manifest.json and no " +
                     "vector file (nothing to check)");
  }
  return sources;
}

}  // namespace

std::vector<VectorSource> ListVectorFiles(const std::filesystem::path& path, bool twins) {
  std::error_code error;
  if (!std::filesystem::exists(path, error)) {
    throw InputError("--vectors " + path.string() + " does not exist (expected a vector file or " +
                     "a folder of them)");
  }
  if (!std::filesystem::is_directory(path, error)) return {LoneFileSource(path)};
  const std::filesystem::path manifest_path = path / "manifest.json";
  if (std::filesystem::exists(manifest_path, error)) {
    return ManifestSources(path, manifest_path, twins);
  }
  return FolderSources(path, twins);
}

namespace {

// Refuses --op/--src/--dst names of no edition (of the selection's edition when it has one).
void RequireSelectionNames(const VectorSelection& selection) {
  const auto require = [&](oracle::Edition edition) {
    if (!selection.op.empty()) RequireOp(selection.op, edition);
    if (!selection.src.empty()) RequireType(selection.src, "--src", edition);
    if (!selection.dst.empty()) RequireType(selection.dst, "--dst", edition);
  };
  if (selection.edition) return require(*selection.edition);
  for (const oracle::Edition edition : oracle::kAllEditions) {
    if (edition == oracle::kDefaultEdition) continue;
    try {
      return require(edition);
    } catch (const InputError&) {
    }
  }
  require(oracle::kDefaultEdition);  // of no edition: the default edition's refusal
}

// Refuses a source of another edition than `edition` (--edition).
void RefuseOtherEdition(const VectorSource& source, oracle::Edition edition) {
  const oracle::Edition actual =
      source.edition ? *source.edition : VectorReader(source.path).info().edition;
  if (actual != edition) {
    throw InputError("vector file " + source.path.string() + " is of edition " +
                     std::string(oracle::EditionName(actual)) + ", --edition says " +
                     std::string(oracle::EditionName(edition)));
  }
}

}  // namespace

std::string VectorSelection::Describe() const {
  std::string out;
  for (const auto& p : paths) out += (out.empty() ? "" : ", ") + p.string();
  std::string filter;
  if (!op.empty()) filter += "op " + op;
  if (!src.empty()) filter += (filter.empty() ? "" : ", ") + std::string("src ") + src;
  if (!dst.empty()) filter += (filter.empty() ? "" : ", ") + std::string("dst ") + dst;
  return filter.empty() ? out : out + " (" + filter + ")";
}

std::vector<VectorSource> SelectVectorFiles(const VectorSelection& selection) {
  if (selection.paths.empty()) throw InputError("no --vectors path given");
  RequireSelectionNames(selection);
  std::vector<VectorSource> chosen;
  for (const std::filesystem::path& path : selection.paths) {
    for (VectorSource& source : ListVectorFiles(path, selection.twins)) {
      for (const VectorSource& other : chosen) {
        std::error_code error;
        if (std::filesystem::equivalent(other.path, source.path, error)) {
          throw InputError("vector file " + source.path.string() + " is given twice (also as " +
                           other.path.string() + ")");
        }
      }
      std::array<std::string, 3> kind;
      if (source.kind) {
        kind = {(*source.kind)[0], (*source.kind)[1], (*source.kind)[2]};
      } else if (selection.filtered()) {
        const VectorReader reader(source.path);
        kind = {reader.info().op->name, std::string(oracle::Format(reader.info().pair.src).name),
                std::string(oracle::Format(reader.info().pair.dst).name)};
      }
      if ((selection.op.empty() || kind[0] == selection.op) &&
          (selection.src.empty() || kind[1] == selection.src) &&
          (selection.dst.empty() || kind[2] == selection.dst)) {
        if (selection.edition) RefuseOtherEdition(source, *selection.edition);
        chosen.push_back(std::move(source));
      }
    }
  }
  if (chosen.empty()) {
    throw InputError("no vector file of " + selection.Describe() +
                     " matches the selection (`ptovec list` shows each op's pairs)");
  }
  return chosen;
}

std::unique_ptr<VectorReader> OpenVectorSource(const VectorSource& source) {
  auto reader = std::make_unique<VectorReader>(source.path);
  if (source.count && *source.count != reader->info().count) {
    throw InputError("vector file " + source.path.string() + " announces " +
                     std::to_string(reader->info().count) + " records, its manifest " +
                     std::to_string(*source.count));
  }
  if (source.edition && *source.edition != reader->info().edition) {
    throw InputError("vector file " + source.path.string() + " is of edition " +
                     std::string(oracle::EditionName(reader->info().edition)) +
                     ", its manifest says " + std::string(oracle::EditionName(*source.edition)));
  }
  if (source.kind) {
    const VectorFileInfo& info = reader->info();
    const std::array<std::string, 4> actual{
        info.op->name, std::string(oracle::Format(info.pair.src).name),
        std::string(oracle::Format(info.pair.dst).name), info.format};
    static constexpr const char* kKeys[] = {"op", "src", "dst", "format"};
    for (std::size_t k = 0; k < actual.size(); ++k) {
      if ((*source.kind)[k] != actual[k]) {
        throw InputError("vector file " + source.path.string() + " has " + kKeys[k] + " '" +
                         actual[k] + "', its manifest says '" + (*source.kind)[k] + "'");
      }
    }
  }
  return reader;
}

std::vector<std::string> UnverifiedCountNotes(const std::vector<VectorSource>& sources) {
  std::vector<std::string> notes;
  for (const VectorSource& source : sources) {
    if (source.count) continue;  // listed in a manifest: count and size verified
    // Only a TestFloat-style file (named *.tf) lacks a header announcing its count; the others
    // are not opened again.
    if (source.path.extension() != ".tf") continue;
    const VectorReader reader(source.path);
    if (reader.info().format != "testfloat") continue;
    notes.push_back(source.path.string() + " is a TestFloat file with no manifest.json entry " +
                    "beside it: its " + std::to_string(reader.info().count) + " vectors are " +
                    "counted from its size, unverified (a file cut at a line boundary reads as " +
                    "a shorter one); keep the suite's manifest.json beside it, or pass the folder");
  }
  return notes;
}

void CheckSourceDigest(const VectorSource& source, const VectorReader& reader) {
  if (source.sha256 && *source.sha256 != reader.sha256()) {
    throw InputError("vector file " + source.path.string() + " has SHA-256 " + reader.sha256() +
                     ", its manifest says " + *source.sha256 + " (the file was changed)");
  }
}

}  // namespace ptovec::generator
