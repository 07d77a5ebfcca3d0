// `ptovec merge` (merge.hpp): shard folders -> the unsharded suite, byte for byte.
//
// A shard file (writers.hpp ShardRange) holds a contiguous range of the whole file's inputs with
// all their controls, so the whole file is the header of the unsharded run followed by the
// shards' records in shard order. The whole header is the shard's header without "shard" and
// with the whole record count (FileHeader writes every other key the same for every shard);
// records are re-encoded by the same writers from the records the reader checked, so every
// merged byte comes from the code that writes unsharded files.
#include "ptovec/generator/merge.hpp"

#include <algorithm>
#include <fstream>
#include <iostream>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>

#include "ptovec/generator/atomic_file.hpp"
#include "ptovec/generator/cases.hpp"
#include "ptovec/generator/interrupts.hpp"
#include "ptovec/generator/readers.hpp"
#include "ptovec/generator/shard.hpp"
#include "ptovec/generator/suite_folder.hpp"
#include "ptovec/generator/testfloat.hpp"
#include "ptovec/generator/writers.hpp"
#include "ptovec/oracle/edition.hpp"

namespace ptovec::generator {

namespace {

namespace fs = std::filesystem;
using Json = nlohmann::ordered_json;

struct Shard {
  fs::path folder;
  Manifest manifest;
  Json json;  // the manifest as written
};

Shard ReadShard(const fs::path& folder) {
  const fs::path manifest_path = folder / "manifest.json";
  if (!fs::is_regular_file(manifest_path)) {
    throw InputError("shard folder " + folder.string() +
                     " has no manifest.json (give the --out folders of `generate --shard K/N`)");
  }
  Shard s{folder, ReadManifest(manifest_path), {}};
  std::ifstream in(manifest_path);
  s.json = Json::parse(in);  // ReadManifest has already parsed and checked it
  if (!s.manifest.shard) {
    throw InputError("folder " + folder.string() +
                     " is not a shard folder (its manifest has no \"shard\"; it was generated "
                     "without --shard)");
  }
  RefuseUnlistedVectorFiles(folder, &s.manifest, "shard folder",
                            "a shard folder must hold only the files its manifest names");
  return s;
}

// The manifest without what differs between shards: "shard" and each file's shard, count, bytes
// and sha256.
Json RunIdentity(const Json& manifest) {
  Json j = manifest;
  j.erase("shard");
  for (auto& f : j["files"]) {
    for (const char* key : {"shard", "count", "bytes", "sha256"}) f.erase(key);
  }
  return j;
}

std::string Describe(const Shard& s) {
  return ShardName(*s.manifest.shard) + " (" + s.folder.string() + ")";
}

// Checks that the shards are one run's 0/N .. N-1/N; returns them in shard order.
std::vector<const Shard*> Ordered(const std::vector<Shard>& shards) {
  const Shard& first = shards.front();
  const std::uint64_t of = first.manifest.shard->of;
  const Json identity = RunIdentity(first.json);
  std::map<std::uint64_t, const Shard*> by_index;
  for (const Shard& s : shards) {
    if (s.manifest.shard->of != of) {
      throw InputError("mismatched shards: " + Describe(first) + " and " + Describe(s) +
                       " split the work differently (every shard must come from --shard K/" +
                       std::to_string(of) + ")");
    }
    if (s.manifest.edition != first.manifest.edition) {
      throw InputError("mismatched shards: " + Describe(s) + " is of edition " +
                       std::string(oracle::EditionName(s.manifest.edition)) + ", " +
                       Describe(first) + " of edition " +
                       std::string(oracle::EditionName(first.manifest.edition)) +
                       " (merge joins one run's shards)");
    }
    if (RunIdentity(s.json) != identity) {
      throw InputError("mismatched shards: " + Describe(s) + " is not from the same run as " +
                       Describe(first) +
                       " (its version, seed, samples, formats, controls or files differ)");
    }
    const auto [it, inserted] = by_index.emplace(s.manifest.shard->index, &s);
    if (!inserted) {
      throw InputError("overlapping shards: shard " + ShardName(*s.manifest.shard) +
                       " is given twice (" + it->second->folder.string() + " and " +
                       s.folder.string() + ")");
    }
  }
  std::string missing;
  for (std::uint64_t k = 0; k < of && missing.size() < 200; ++k) {
    if (!by_index.contains(k)) {
      missing += (missing.empty() ? "" : ", ") + ShardName({k, of});
    }
  }
  if (!missing.empty()) {
    throw InputError("missing shards: " + missing + " (give all " + std::to_string(of) +
                     " shard folders of the run)");
  }
  std::vector<const Shard*> ordered;
  for (const auto& [k, s] : by_index) ordered.push_back(s);
  return ordered;
}

// Writes the whole file `name` from the shards' files of that name.
// The file is left finished under its temporary name in `pending` (renamed with the manifest).
// Where shard `shard`'s part of a merged file starts (its first record), as its vector file's
// header says (`listed` its manifest entry; a testfloat file, without a header: the entry's
// "shard" range).
std::uint64_t ShardFirstRecord(const Shard& shard, const ManifestEntry& listed,
                               const VectorFileInfo& info, const fs::path& path, bool testfloat) {
  if (testfloat) {
    const Json& range = listed.json.contains("shard") ? listed.json["shard"] : Json();
    if (!range.is_object() || !range.contains("first_input") ||
        !range["first_input"].is_number_unsigned()) {
      throw InputError("the manifest of shard folder " + shard.folder.string() +
                       " gives testfloat file " + listed.path +
                       " no \"shard\" {\"first_input\", \"inputs\"} range");
    }
    return range["first_input"].get<std::uint64_t>();
  }
  if (!info.shard || info.shard->index != shard.manifest.shard->index ||
      info.shard->of != shard.manifest.shard->of) {
    throw InputError("vector file " + path.string() + " is not shard " +
                     ShardName(*shard.manifest.shard) + " as its folder's manifest says");
  }
  return info.shard->first_input * info.controls.size();
}

// The header of the merged file of the first shard's `info`: the whole file's, without "shard"
// (a binary file's preamble when `layout` is set, else the JSON file's opening).
std::string MergedPreamble(const VectorFileInfo& info,
                           const std::optional<std::vector<RecordField>>& layout) {
  Json header = info.header;
  header.erase("shard");
  header["count"] = info.inputs * info.controls.size();
  if (layout)
    return BinaryPreambleOf(header, RecordSize(*layout), info.inputs * info.controls.size());
  std::string text = header.dump();
  text.pop_back();
  text += ",\"vectors\":[\n";
  return text;
}

MergedFile MergeFile(const std::vector<const Shard*>& shards, const ManifestEntry& entry,
                     const fs::path& out, std::vector<std::unique_ptr<AtomicFile>>& pending) {
  const fs::path target = out / entry.path;
  pending.push_back(std::make_unique<AtomicFile>(target));
  AtomicFile& file = *pending.back();
  std::optional<std::vector<RecordField>> layout;
  const bool binary = entry.format == "bin";
  // A TestFloat-style file has no header: the whole file is the shards' lines, in shard order,
  // and each shard's range is its manifest entry's "shard".
  const bool testfloat = entry.format == kTestFloatFormat;
  std::uint64_t written = 0;
  std::vector<VectorRecord> records;
  std::string buffer;
  for (std::size_t k = 0; k < shards.size(); ++k) {
    const fs::path path = shards[k]->folder / entry.path;
    const auto listed =
        std::find_if(shards[k]->manifest.files.begin(), shards[k]->manifest.files.end(),
                     [&](const ManifestEntry& e) { return e.path == entry.path; });
    VectorReader reader(path);
    const VectorFileInfo& info = reader.info();
    const std::uint64_t first_record = ShardFirstRecord(*shards[k], *listed, info, path, testfloat);
    if (first_record != written) {
      throw InputError("vector file " + path.string() + " starts at record " +
                       std::to_string(first_record) + ", but the shards before it end at record " +
                       std::to_string(written));
    }
    if (k == 0 && !testfloat) {
      if (binary) layout = RecordLayout(*info.op, info.pair);
      buffer = MergedPreamble(info, layout);
    }
    while (reader.Read(records, 1 << 16) > 0) {
      for (const VectorRecord& r : records) {
        if (binary) {
          AppendBinaryRecord(buffer, *layout, *info.op, info.pair, r.c.in, r.c.control, r.expected);
        } else if (testfloat) {
          AppendTestFloatLine(buffer, *info.op, info.pair, r.c.in, r.expected);
        } else {
          AppendJsonRecord(buffer, *info.op, info.pair, r.c.in, r.c.control, r.expected,
                           written == 0);
        }
        ++written;
      }
      file.Write(buffer);
      buffer.clear();
    }
    if (reader.sha256() != listed->sha256) {
      throw InputError("vector file " + path.string() + " has SHA-256 " + reader.sha256() +
                       ", its manifest says " + listed->sha256 + " (changed since it was written)");
    }
  }
  if (!binary && !testfloat) buffer += JsonTrailer();
  file.Write(buffer);
  MergedFile merged{entry.path, written, 0, ""};
  merged.sha256 = file.Finish();
  merged.bytes = file.bytes();
  return merged;
}

}  // namespace

std::vector<MergedFile> MergeShards(const std::vector<fs::path>& shard_folders, const fs::path& out,
                                    bool progress) {
  if (shard_folders.empty()) throw InputError("no shard folders given");
  std::vector<std::unique_ptr<FolderLock>> locks;  // no shard folder changes while it is read
  for (const fs::path& folder : shard_folders) {
    locks.push_back(
        std::make_unique<FolderLock>(folder, FolderLock::Mode::Read, "merge", "shard folder"));
  }
  std::vector<Shard> shards;
  for (const fs::path& folder : shard_folders) shards.push_back(ReadShard(folder));
  const std::vector<const Shard*> ordered = Ordered(shards);

  std::error_code error;
  for (const Shard& s : shards) {
    if (fs::exists(out) && fs::equivalent(out, s.folder, error)) {
      throw InputError("--out " + out.string() + " is shard folder " + Describe(s) +
                       " (give a new or empty folder)");
    }
  }
  if (fs::exists(out / "manifest.json") || !VectorFileNamesIn(out).empty()) {
    throw InputError("--out " + out.string() +
                     " already holds a suite or vector files (give a new or empty folder)");
  }
  try {
    CreateFolders(out);
  } catch (const fs::filesystem_error& e) {
    throw InputError("cannot create --out " + out.string() + ": " + e.code().message());
  }
  const FolderLock out_lock(out, FolderLock::Mode::Write, "merge", "--out folder");
  if (fs::exists(out / "manifest.json") || !VectorFileNamesIn(out).empty()) {
    throw InputError("--out " + out.string() +
                     " already holds a suite or vector files (give a new or empty folder)");
  }

  Json manifest = ordered.front()->json;
  manifest.erase("shard");
  Json files = Json::array();
  std::vector<MergedFile> merged;
  std::vector<std::unique_ptr<AtomicFile>> pending;
  const auto& entries = ordered.front()->manifest.files;
  for (std::size_t i = 0; i < entries.size(); ++i) {
    if (progress) {
      std::cerr << "ptovec merge: " << entries[i].path << " (" << i + 1 << "/" << entries.size()
                << ")\n";
    }
    merged.push_back(MergeFile(ordered, entries[i], out, pending));
    Json entry = entries[i].json;
    entry.erase("shard");
    entry["count"] = merged.back().count;
    entry["bytes"] = merged.back().bytes;
    entry["sha256"] = merged.back().sha256;
    files.push_back(entry);
  }
  manifest["files"] = files;
  pending.push_back(std::make_unique<AtomicFile>(out / "manifest.json"));
  pending.back()->Write(manifest.dump(2) + "\n");
  std::vector<AtomicFile*> all;
  for (const auto& file : pending) all.push_back(file.get());
  AtomicFile::CommitAll(all);  // the files, then the manifest that names them, as one step
  return merged;
}

}  // namespace ptovec::generator
