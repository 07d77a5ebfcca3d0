#include "ptovec/generator/suite_folder.hpp"

#include <algorithm>
#include <fstream>
#include <string_view>

#include "ptovec/facts.h"
#include "ptovec/generator/cases.hpp"
#include "ptovec/generator/escape.hpp"
#include "ptovec/generator/shard.hpp"
#include "ptovec/generator/testfloat.hpp"
#include "ptovec/generator/word_text.hpp"

namespace ptovec::generator {

FileKind SniffFile(const std::filesystem::path& path) {
  std::error_code error;
  if (!std::filesystem::is_regular_file(path, error)) return FileKind::Other;
  std::ifstream in(path, std::ios::binary);
  char head[64] = {};
  in.read(head, sizeof head);
  const std::string_view text(head,
                              static_cast<std::size_t>(std::max<std::streamsize>(0, in.gcount())));
  if (text.starts_with(std::string_view(PTOVEC_FACTS_VECTOR_MAGIC, PTOVEC_FACTS_MAGIC_BYTES))) {
    return FileKind::VectorsBinary;
  }
  if (text.starts_with(std::string_view(PTOVEC_FACTS_RESULTS_MAGIC, PTOVEC_FACTS_MAGIC_BYTES))) {
    return FileKind::ResultsBinary;
  }
  if (text.starts_with("{\"format\":\"ptovec-vectors-json\"")) return FileKind::VectorsJson;
  if (text.starts_with("{\"format\":\"ptovec-results-json\"")) return FileKind::ResultsJson;
  if (ParseTestFloatFileName(path.filename().string())) return FileKind::VectorsTestFloat;
  return FileKind::Other;
}

std::vector<std::string> VectorFileNamesIn(const std::filesystem::path& folder) {
  std::vector<std::string> names;
  std::error_code error;
  if (!std::filesystem::is_directory(folder, error)) return names;
  for (const auto& entry : std::filesystem::directory_iterator(folder, error)) {
    const std::string name = entry.path().filename().string();
    if (name.find(".tmp-") != std::string::npos) continue;
    const FileKind kind = SniffFile(entry.path());
    if (kind == FileKind::VectorsBinary || kind == FileKind::VectorsJson ||
        kind == FileKind::VectorsTestFloat) {
      names.push_back(name);
    }
  }
  std::sort(names.begin(), names.end());
  return names;
}

namespace {

using OJson = nlohmann::ordered_json;

std::string Text(const OJson& o, const char* key, const char* where = "") {
  if (!o.is_object() || !o.contains(key) || !o[key].is_string()) {
    throw InputError("\"" + std::string(key) + "\"" + where + " must be text");
  }
  return o[key].get<std::string>();
}

std::uint64_t Whole(const OJson& o, const char* key, const char* where = "") {
  if (!o.is_object() || !o.contains(key) || !o[key].is_number_unsigned()) {
    throw InputError("\"" + std::string(key) + "\"" + where + " must be a whole number");
  }
  return o[key].get<std::uint64_t>();
}

// The manifest's "formats".
std::vector<std::string> ReadFormats(const OJson& j) {
  if (!j.contains("formats") || !j["formats"].is_array()) {
    throw InputError("\"formats\" must be an array");
  }
  std::vector<std::string> formats;
  for (const auto& f : j["formats"]) {
    if (!f.is_string() || (f != "bin" && f != "json" && f != kTestFloatFormat)) {
      throw InputError("\"formats\" may hold only \"bin\", \"json\" and \"testfloat\"");
    }
    formats.push_back(f.get<std::string>());
  }
  return formats;
}

// The manifest's "controls": the --rmode and --sat of the suite.
ControlFilter ReadControls(const OJson& c) {
  if (!c.is_object() || !c.contains("rmodes") || !c["rmodes"].is_array() || !c.contains("sat") ||
      !c["sat"].is_array()) {
    throw InputError("\"controls\" must be {\"rmodes\": [...], \"sat\": [...]}");
  }
  std::string modes;
  for (const auto& mode : c["rmodes"]) {
    if (!mode.is_string()) throw InputError("\"controls\" rmodes must be mode names");
    modes += (modes.empty() ? "" : ",") + mode.get<std::string>();
  }
  std::string sat = "both";
  if (c["sat"].size() == 1 && c["sat"][0].is_boolean())
    sat = c["sat"][0].get<bool>() ? "on" : "off";
  try {
    return ParseControlFilter(modes.empty() ? "none" : modes, sat);
  } catch (const std::invalid_argument& e) {
    throw InputError(std::string("\"controls\": ") + e.what());
  }
}

// The keys of the whole suite: everything but "files".
void ReadSuiteKeys(const OJson& j, Manifest& m) {
  if (!j.is_object() || !j.contains("format") || j["format"] != "ptovec-manifest") {
    throw InputError("\"format\" must be \"ptovec-manifest\"");
  }
  const std::uint64_t version = Whole(j, "version");
  if (version > 1000)
    throw InputError("\"version\" " + std::to_string(version) + " is not a version");
  m.version = static_cast<int>(version);
  m.tool_version = Text(j, "tool_version");
  if (j.contains("edition")) {
    const std::string edition = Text(j, "edition");
    const std::optional<oracle::Edition> parsed = oracle::ParseEdition(edition);
    if (!parsed) {
      throw InputError("\"edition\" \"" + edition + "\" is not an edition (accepted: " +
                       oracle::EditionNamesList() + "; no key: 0.58.3)");
    }
    m.edition = *parsed;
  }
  if (j.contains("suite")) {
    m.suite = Text(j, "suite");
    if (m.suite != "default" && m.suite != "smoke" && m.suite != "diff") {
      throw InputError("\"suite\" \"" + m.suite + "\" is not a suite (default, smoke, diff)");
    }
  }
  m.seed = Whole(j, "seed");
  m.samples = Whole(j, "samples");
  m.formats = ReadFormats(j);
  if (j.contains("controls")) m.controls = ReadControls(j["controls"]);
  if (j.contains("shard")) {
    const auto& sh = j["shard"];
    m.shard = ShardSelection{Whole(sh, "index"), Whole(sh, "of")};
    if (m.shard->of == 0 || m.shard->index >= m.shard->of) {
      throw InputError("\"shard\" index must be below of");
    }
  }
}

constexpr const char* kEntry = " of a files entry";

// A TestFloat-style file has no header: its name and its "rmode" and "sat" say what it holds.
void ReadTestFloatControl(const OJson& f, ManifestEntry& e) {
  const std::string rmode = Text(f, "rmode", kEntry);
  const auto mode = oracle::ParseRoundingMode(rmode);
  if (!mode || !f.contains("sat") || !f["sat"].is_boolean()) {
    throw InputError("testfloat file " + e.path +
                     " needs \"rmode\" (a mode name) and \"sat\" (true or false)");
  }
  e.control = NumericExecutionControl{*mode, f["sat"].get<bool>()};
}

// Refuses a testfloat file whose name does not say its op, types, group and control.
void CheckTestFloatName(const ManifestEntry& e) {
  const auto key = ParseTestFloatFileName(e.path);
  if (!key || key->op->name != e.op || oracle::Format(key->pair.src).name != e.src ||
      oracle::Format(key->pair.dst).name != e.dst ||
      FileGroupName(*key->op, key->pair) != e.group || !(key->control == *e.control)) {
    throw InputError("testfloat file " + e.path + " is not named for its op, src, dst, " +
                     "group, rmode and sat (expected " +
                     "<op>_<src>_<dst>[_<group>]_<RMODE>_sat<off|on>.tf)");
  }
}

// One entry of "files".
ManifestEntry ReadEntry(const OJson& f) {
  ManifestEntry e;
  e.path = Text(f, "path", kEntry);
  if (e.path.empty() || e.path[0] == '.' || e.path.find('/') != std::string::npos ||
      e.path.find('\\') != std::string::npos || !IsPrintableText(e.path)) {
    throw InputError("path '" + e.path +
                     "' (expected a file name of printable characters without folders)");
  }
  e.format = Text(f, "format", kEntry);
  if (e.format != "bin" && e.format != "json" && e.format != kTestFloatFormat) {
    throw InputError("format '" + e.format + "' of " + e.path +
                     " (accepted: bin, json, testfloat)");
  }
  if (e.format == kTestFloatFormat) ReadTestFloatControl(f, e);
  e.op = Text(f, "op", kEntry);
  e.src = Text(f, "src", kEntry);
  e.dst = Text(f, "dst", kEntry);
  if (f.contains("group")) e.group = Text(f, "group", kEntry);
  if (e.control) CheckTestFloatName(e);
  e.sha256 = Text(f, "sha256", kEntry);
  e.count = Whole(f, "count", kEntry);
  e.bytes = Whole(f, "bytes", kEntry);
  e.json = f;
  return e;
}

}  // namespace

Manifest ReadManifest(const std::filesystem::path& manifest_path) {
  Manifest m;
  try {
    std::ifstream in(manifest_path);
    if (!in) throw InputError("cannot read it");
    // ordered_json: an entry kept when a suite is extended is written back byte-identical.
    const OJson j = OJson::parse(in);
    ReadSuiteKeys(j, m);
    if (!j.contains("files") || !j["files"].is_array()) {
      throw InputError("\"files\" must be an array");
    }
    for (const auto& f : j["files"]) {
      ManifestEntry e = ReadEntry(f);
      for (const ManifestEntry& other : m.files) {
        if (other.path == e.path) throw InputError("file " + e.path + " is listed twice");
      }
      m.files.push_back(std::move(e));
    }
    // A manifest written before "suite" existed: its smoke suite's files have domain "selected".
    if (!j.contains("suite")) {
      for (const ManifestEntry& f : m.files) {
        if (f.json.contains("domain") && f.json["domain"] == "selected") m.suite = "smoke";
      }
    }
  } catch (const std::exception& e) {
    throw InputError("malformed manifest " + manifest_path.string() + " (" + e.what() +
                     "; expected the manifest `ptovec generate` writes)");
  }
  return m;
}

void RefuseUnlistedVectorFiles(const std::filesystem::path& folder, const Manifest* manifest,
                               const std::string& role, const std::string& advice) {
  std::vector<std::string> unlisted;
  for (const std::string& name : VectorFileNamesIn(folder)) {
    const bool listed =
        manifest != nullptr && std::any_of(manifest->files.begin(), manifest->files.end(),
                                           [&](const ManifestEntry& e) { return e.path == name; });
    if (!listed) unlisted.push_back(name);
  }
  if (unlisted.empty()) return;
  std::string names;
  for (std::size_t i = 0; i < unlisted.size() && i < 3; ++i) names += (i ? ", " : "") + unlisted[i];
  if (unlisted.size() > 3) names += " and " + std::to_string(unlisted.size() - 3) + " more";
  throw InputError(role + " " + folder.string() + " holds " +
                   Counted(unlisted.size(), "vector file") + " that " +
                   (manifest ? "its manifest.json does not name" : "no manifest.json names") +
                   " (" + names + "); " + advice);
}

std::pair<std::size_t, std::size_t> SuiteOrder(const OpDef& op, TypePair pair) {
  const auto& ops = AllOps(op.edition);
  std::size_t op_index = 0;
  while (op_index < ops.size() && &ops[op_index] != &op) ++op_index;
  const auto& suite = op.default_suite_pairs;
  const auto in_suite = std::find(suite.begin(), suite.end(), pair);
  if (in_suite != suite.end()) {
    return {op_index, static_cast<std::size_t>(in_suite - suite.begin())};
  }
  const auto& legal = op.legal_pairs;
  const auto in_legal = std::find(legal.begin(), legal.end(), pair);
  return {op_index, suite.size() + static_cast<std::size_t>(in_legal - legal.begin())};
}

}  // namespace ptovec::generator
