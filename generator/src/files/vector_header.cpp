// The header keys that a binary and a JSON vector file share (vector_header.hpp).
#include "vector_header.hpp"

#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "ptovec/generator/framing.hpp"
#include "ptovec/generator/ops.hpp"
#include "ptovec/generator/shard.hpp"
#include "ptovec/generator/word_text.hpp"
#include "ptovec/generator/writers.hpp"
#include "ptovec/oracle/edition.hpp"
#include "ptovec/oracle/formats.hpp"

namespace ptovec::generator {

namespace {

using FailFn = std::function<void(const std::string&)>;

// The names the header gives, as it spells them.
struct HeaderNames {
  std::string op;
  std::string src;
  std::string dst;
};

std::string HeaderText(const nlohmann::ordered_json& h, const char* key, const FailFn& fail) {
  if (!h.contains(key) || !h[key].is_string()) {
    fail("has no \"" + std::string(key) + "\" text in its header");
  }
  return h[key].get<std::string>();
}

// The header's format and its file-format version.
void CheckFormatAndVersion(const nlohmann::ordered_json& h, std::string_view format,
                           VectorFileInfo& info, const FailFn& fail) {
  if (!h.is_object()) fail("has a header that is not a JSON object");
  if (HeaderText(h, "format", fail) != format) {
    fail("has header format '" + h["format"].get<std::string>() + "' (expected '" +
         std::string(format) + "')");
  }
  if (!h.contains("version") || !h["version"].is_number_integer() ||
      h["version"].get<std::int64_t>() < kOldestFileFormatVersion ||
      h["version"].get<std::int64_t>() > kFileFormatVersion) {
    fail("has format version " + (h.contains("version") ? h["version"].dump() : "(none)") +
         " (this ptovec reads versions " + std::to_string(kOldestFileFormatVersion) + " to " +
         std::to_string(kFileFormatVersion) + ")");
  }
  info.version = static_cast<int>(h["version"].get<std::int64_t>());
}

// The specification edition the file follows: its "edition" ("0.58.3", "2026-09"); a file
// without the key is of edition 0.58.3 (the files written before editions existed).
void CheckEdition(const nlohmann::ordered_json& h, VectorFileInfo& info, const FailFn& fail) {
  if (!h.contains("edition")) return;
  const std::optional<oracle::Edition> edition =
      h["edition"].is_string() ? oracle::ParseEdition(h["edition"].get<std::string>())
                               : std::nullopt;
  if (!edition) {
    fail("has \"edition\" " + h["edition"].dump() + " (accepted: " + oracle::EditionNamesList() +
         "; no key: 0.58.3)");
  }
  info.edition = *edition;
}

// The op and the pair of the file's edition, one the op accepts.
HeaderNames CheckOpAndPair(const nlohmann::ordered_json& h, VectorFileInfo& info,
                           const FailFn& fail) {
  HeaderNames names{HeaderText(h, "op", fail), "", ""};
  info.op = FindOp(names.op, info.edition);
  if (info.op == nullptr || info.op->name != names.op) {
    fail("names unknown op '" + names.op + "' (accepted in edition " +
         std::string(oracle::EditionName(info.edition)) + ": " + OpNamesList(info.edition) + ")");
  }
  names.src = HeaderText(h, "src", fail);
  names.dst = HeaderText(h, "dst", fail);
  const auto s = oracle::ParseTileDataType(names.src, info.edition);
  const auto d = oracle::ParseTileDataType(names.dst, info.edition);
  if (!s || !d) {
    fail("names unknown type '" + (!s ? names.src : names.dst) + "' (accepted in edition " +
         std::string(oracle::EditionName(info.edition)) + ": " +
         oracle::FormatNamesList(info.edition) + ")");
  }
  info.pair = {*s, *d};
  if (!IsLegalPair(*info.op, info.pair)) {
    fail("has pair " + names.src + " -> " + names.dst + ", which " + names.op +
         " does not accept (`ptovec list` shows every pair)");
  }
  return names;
}

// The file group of a split pair (OpDef::file_groups), named in the header.
void CheckGroup(const nlohmann::ordered_json& h, const HeaderNames& names, VectorFileInfo& info,
                const FailFn& fail) {
  if (!h.contains("group")) return;
  const std::vector<std::string> groups = FileGroups(*info.op, info.pair);
  const std::string group = h["group"].is_string() ? h["group"].get<std::string>() : "";
  const auto at = std::find(groups.begin(), groups.end(), group);
  if (at == groups.end()) {
    std::string list;
    for (const std::string& g : groups) list += (list.empty() ? "" : ", ") + g;
    fail("has \"group\" " + h["group"].dump() + ", which is no file group of " + names.op + " " +
         names.src + " -> " + names.dst +
         " (accepted: " + (list.empty() ? "none, the pair is one file" : list) + ")");
  }
  info.pair.group = static_cast<std::uint8_t>(at - groups.begin() + 1);
}

// Version 1: "controls" says "all" (or "none" for an op without controls); every input has
// every control of the op.
void CheckVersion1Controls(const nlohmann::ordered_json& h, VectorFileInfo& info,
                           const FailFn& fail) {
  const std::vector<NumericExecutionControl> all = ControlsFor(*info.op);
  const char* expected = info.op->uses_controls ? "all" : "none";
  if (!h.contains("controls") || h["controls"] != expected) {
    fail(std::string("has \"controls\" ") +
         (h.contains("controls") ? h["controls"].dump() : "(none)") + " (a version 1 " +
         info.op->name + " file says \"" + expected + "\")");
  }
  info.controls = all;
  if (info.count % all.size() != 0) {
    fail("has " + std::to_string(info.count) + " records, not a multiple of the " +
         std::to_string(all.size()) + " controls of each input");
  }
  info.inputs = info.count / all.size();
}

// Version 2: the controls listed, a subset of the op's in the op's order.
void CheckVersion2Controls(const nlohmann::ordered_json& h, const HeaderNames& names,
                           VectorFileInfo& info, const FailFn& fail) {
  if (!h.contains("controls")) {
    fail("has no \"controls\" list in its header (version 2 lists {\"rmode\", \"sat\"} pairs)");
  }
  try {
    info.controls = ParseControlsJson(h["controls"], *info.op);
  } catch (const std::invalid_argument& e) {
    fail(std::string("has a malformed header: ") + e.what());
  }
  // An op whose controls depend on the pair (fpatr): only the pair's own.
  const std::vector<NumericExecutionControl> of_pair = ControlsFor(*info.op, info.pair);
  for (const NumericExecutionControl& c : info.controls) {
    if (std::find(of_pair.begin(), of_pair.end(), c) == of_pair.end()) {
      const std::string group = FileGroupName(*info.op, info.pair);
      fail("lists control " + ControlsJson({c}).dump() + ", which " + names.op + " " + names.src +
           " -> " + names.dst + (group.empty() ? "" : " " + group) +
           " does not accept (accepted: " + ControlsJson(of_pair).dump() + ")");
    }
  }
}

__extension__ typedef unsigned __int128 Wide;

// A version 2 header's "shard" (sets info.shard): the inputs the file holds (info.inputs
// without one).
std::uint64_t CheckShard(const nlohmann::ordered_json& h, VectorFileInfo& info,
                         const FailFn& fail) {
  if (!h.contains("shard")) return info.inputs;
  const std::uint64_t nc = info.controls.size();
  const auto& j = h["shard"];
  const auto number = [&](const char* key) -> std::uint64_t {
    if (!j.is_object() || !j.contains(key) || !j[key].is_number_unsigned()) {
      fail("has a \"shard\" without a whole number \"" + std::string(key) + "\"");
    }
    return j[key].get<std::uint64_t>();
  };
  const std::uint64_t index = number("index");
  const std::uint64_t of = number("of");
  if (of == 0 || index >= of) {
    fail("is shard " + std::to_string(index) + " of " + std::to_string(of) +
         " (accepted: index 0..of-1)");
  }
  const ShardRange expected = ShardRange::Of(index, of, info.inputs);
  if (number("first_input") != expected.first_input || number("inputs") != expected.inputs ||
      number("first_record") != expected.first_input * nc ||
      static_cast<Wide>(number("total_records")) != static_cast<Wide>(info.inputs) * nc) {
    fail("has a \"shard\" that does not match shard " + std::to_string(index) + " of " +
         std::to_string(of) + " of " + std::to_string(info.inputs) + " inputs (expected inputs " +
         std::to_string(expected.first_input) + " + " + std::to_string(expected.inputs) + ")");
  }
  info.shard = expected;
  return expected.inputs;
}

}  // namespace

void CheckCommonHeader(const nlohmann::ordered_json& h, std::string_view format,
                       VectorFileInfo& info, const FailFn& fail) {
  CheckFormatAndVersion(h, format, info, fail);
  CheckEdition(h, info, fail);
  const HeaderNames names = CheckOpAndPair(h, info, fail);
  CheckGroup(h, names, info, fail);
  if (!h.contains("count") || !h["count"].is_number_unsigned()) {
    fail("has no record count in its header");
  }
  info.count = h["count"].get<std::uint64_t>();
  if (info.version == 1) {
    CheckVersion1Controls(h, info, fail);
    return;
  }
  CheckVersion2Controls(h, names, info, fail);
  if (!h.contains("inputs") || !h["inputs"].is_number_unsigned()) {
    fail("has no \"inputs\" count in its header");
  }
  info.inputs = h["inputs"].get<std::uint64_t>();
  const std::uint64_t nc = info.controls.size();
  const std::uint64_t held = CheckShard(h, info, fail);
  if (static_cast<Wide>(held) * nc != info.count) {
    fail("announces " + std::to_string(info.count) + " records, but " + std::to_string(held) +
         " inputs x " + std::to_string(nc) + " controls make " +
         std::to_string(static_cast<std::uint64_t>(static_cast<Wide>(held) * nc)));
  }
}

}  // namespace ptovec::generator
