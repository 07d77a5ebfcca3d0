// ptovec list: the ops, their legal type pairs and vector counts, from the op registry.
#include <CLI/CLI.hpp>
#include <algorithm>
#include <cstdint>
#include <iostream>
#include <optional>
#include <string>
#include <vector>

#include "commands.hpp"
#include "edition_option.hpp"
#include "ptovec/generator/cases.hpp"
#include "ptovec/generator/suite.hpp"

namespace {

using namespace ptovec::generator;
namespace oracle = ptovec::oracle;

using ptovec::cli::Fail;
using ptovec::cli::kSampleCount;

// The ops and pairs `list` shows: those of --edition, narrowed by --op, --src and --dst (each
// checked by name).
struct ListFilter {
  std::string edition, op, src, dst;
};

// `list --types`: the format table (oracle/src/formats.cpp) of the edition (AllFormats(edition):
// 2026-09 adds FP64, E6M2 (code 33), RCPE6M2 (34), E2M1X2 and E1M2X2), one type a row: its name,
// its code (the TileDataType value a device gets as src_code/dst_code: the spec's 5-bit tile data
// type code, FP19 32), the spec's tile code (null for FP19, E6M2, RCPE6M2: none), the bits of one
// element, the bytes of one word in binary files and the hex digits of one word in JSON files.
int RunListTypes(bool as_json, oracle::Edition edition) {
  nlohmann::ordered_json out = nlohmann::ordered_json::array();
  for (const oracle::FormatInfo& f : oracle::AllFormats(edition)) {
    nlohmann::ordered_json type;
    type["name"] = f.name;
    type["spec_name"] = f.spec_name;
    type["code"] = static_cast<unsigned>(f.type);
    type["tile_code"] = f.tile_code >= 0 ? nlohmann::ordered_json(f.tile_code) : nullptr;
    type["width"] = f.width;
    type["storage_bytes"] = f.StorageBytes();
    type["hex_digits"] = f.HexDigits();
    type["floating"] = f.IsFloating();
    type["signed"] = oracle::TileDataTypeIsSigned(f.type);
    out.push_back(type);
  }
  if (as_json) {
    std::cout << out.dump(2) << "\n";
    return 0;
  }
  // Right-aligned columns under "code  width  bytes  hex digits".
  const auto column = [](unsigned value, std::size_t width) {
    const std::string text = std::to_string(value);
    return std::string(width - std::min(width, text.size()), ' ') + text;
  };
  // The name column: 6 wide, or one more than the longest name (rcpe6m2).
  std::size_t names = 6;
  for (const auto& t : out) names = std::max(names, t["name"].get<std::string>().size() + 1);
  std::cout << "type" << std::string(names - 4, ' ') << "code  width  bytes  hex digits\n";
  for (const auto& t : out) {
    const std::string name = t["name"].get<std::string>();
    std::cout << name << std::string(names - std::min(names, name.size()), ' ')
              << column(t["code"].get<unsigned>(), 4) << column(t["width"].get<unsigned>(), 7)
              << column(t["storage_bytes"].get<unsigned>(), 7)
              << column(t["hex_digits"].get<unsigned>(), 12)
              << (t["tile_code"].is_null() ? "  (no tile code)" : "") << "\n";
  }
  return 0;
}

// The op's input slots: name, type ("src", "dst" or a fixed type's name) and description.
nlohmann::ordered_json SlotsJson(const OpDef& op) {
  nlohmann::ordered_json slots = nlohmann::ordered_json::array();
  for (const Slot& s : op.slots) {
    std::string type = s.role == SlotRole::Source ? "src"
                       : s.role == SlotRole::Destination
                           ? "dst"
                           : std::string(oracle::Format(s.fixed_type).name);
    slots.push_back({{"name", s.name}, {"type", type}, {"description", s.description}});
  }
  return slots;
}

// "RNE RNA": the rounding modes of `controls` in mode order, "" when they hold all seven.
std::string ModesOf(const std::vector<NumericExecutionControl>& controls) {
  std::string out;
  std::size_t count = 0;
  for (const NumericRoundingMode mode : oracle::kAllRoundingModes) {
    const auto has = [mode](const NumericExecutionControl& c) { return c.rounding_mode == mode; };
    if (std::none_of(controls.begin(), controls.end(), has)) continue;
    out += (out.empty() ? "" : " ") + std::string(oracle::RoundingModeName(mode));
    ++count;
  }
  return count == oracle::kAllRoundingModes.size() ? std::string() : out;
}

// The op's legal pairs of src and dst (when given), a split pair (OpDef::file_groups) one entry
// per file group: types, group, default suite, vectors, controls and note.
nlohmann::ordered_json PairsJson(const OpDef& op, const SamplingOptions& sampling,
                                 std::optional<TileDataType> src, std::optional<TileDataType> dst) {
  nlohmann::ordered_json pairs = nlohmann::ordered_json::array();
  for (const TypePair& whole : op.legal_pairs) {
    if ((src && whole.src != *src) || (dst && whole.dst != *dst)) continue;
    for (const TypePair& p : FilePairs(op, whole)) {
      const bool in_default =
          std::find(op.default_suite_pairs.begin(), op.default_suite_pairs.end(), p) !=
          op.default_suite_pairs.end();
      nlohmann::ordered_json pair = {{"src", oracle::Format(p.src).name},
                                     {"dst", oracle::Format(p.dst).name}};
      if (p.group != 0) pair["group"] = FileGroupName(op, p);
      pair["default_suite"] = in_default;
      pair["vectors"] = VectorCount({&op, p}, sampling);
      if (op.pair_controls) {
        pair["controls"] = ControlsFor(op, p).size();
        // Editions after 0.58.3 also name the modes of a pair that does not take all seven.
        if (op.edition != oracle::kDefaultEdition) {
          if (const std::string modes = ModesOf(ControlsFor(op, p)); !modes.empty()) {
            pair["modes"] = modes;
          }
        }
      }
      if (op.pair_note) {
        if (const std::string note = op.pair_note(p); !note.empty()) pair["note"] = note;
      }
      pairs.push_back(pair);
    }
  }
  return pairs;
}

// The header of one op of the list as text: its names and seed (the seed function and lines of
// 0.58.3, the ASL function and lines of a later edition), summary, inputs and controls.
void PrintOpHeader(const nlohmann::ordered_json& entry, oracle::Edition edition) {
  const bool seeds = edition == oracle::kDefaultEdition;
  std::cout << entry["op"].get<std::string>() << "  (" << entry["instruction"].get<std::string>()
            << "; " << entry["seed_function"].get<std::string>() << (seeds ? ", seed " : ", ")
            << entry["seed_source"].get<std::string>() << ")\n    "
            << entry["summary"].get<std::string>() << "\n    inputs:";
  for (const auto& s : entry["slots"]) {
    std::cout << " " << s["name"].get<std::string>() << ":" << s["type"].get<std::string>();
  }
  const bool per_pair = !entry["pairs"].empty() && entry["pairs"][0].contains("controls");
  if (!per_pair) {
    std::cout << "; controls per input: " << entry["controls"].get<std::size_t>()
              << "\n    pairs (src -> dst: vectors; * = in the default suite):\n";
  } else if (seeds) {
    std::cout << "; controls per input: by pair (those legal for every mode of the pair or of "
                 "its file group pqm<modes>)"
              << "\n    pairs (src -> dst [file group]: vectors, controls per input; * = in the "
                 "default suite):\n";
  } else {
    std::cout << "; controls per input: by pair"
              << "\n    pairs (src -> dst [file group]: vectors, controls per input (their modes "
                 "when not all seven); * = in the default suite):\n";
  }
}

// One op of the list as text: its header and pairs; adds the vectors of its default-suite pairs
// to suite_total.
void PrintOp(const nlohmann::ordered_json& entry, oracle::Edition edition,
             std::uint64_t& suite_total) {
  PrintOpHeader(entry, edition);
  std::string note;  // one note per op, printed once after its pairs, each such pair marked
  for (const auto& p : entry["pairs"]) {
    const bool star = p["default_suite"].get<bool>();
    if (star) suite_total += p["vectors"].get<std::uint64_t>();
    std::cout << "     " << (star ? "* " : "  ") << p["src"].get<std::string>() << " -> "
              << p["dst"].get<std::string>()
              << (p.contains("group") ? " " + p["group"].get<std::string>() : std::string()) << ": "
              << p["vectors"].get<std::uint64_t>()
              << (p.contains("controls") ? ", " + std::to_string(p["controls"].get<std::size_t>())
                                         : std::string())
              << (p.contains("modes") ? " (" + p["modes"].get<std::string>() + ")" : "")
              << (p.contains("note") ? "  (raw copy, see note)" : "") << "\n";
    if (p.contains("note") && note.empty()) note = p["note"].get<std::string>();
  }
  if (note.empty()) return;
  // The note names the first such pair; say it of all of them.
  if (edition == oracle::kDefaultEdition) {
    std::cout << "    note: " << entry["op"].get<std::string>() << " to any type but e8m0 "
              << note.substr(note.find("copies ")) << "\n";
  } else {
    std::cout << "    note: each pair marked (raw copy) " << note.substr(note.find("copies "))
              << "\n";
  }
}

// The list entry of one op: names, seed, summary, slots, controls and the pairs of the filter.
nlohmann::ordered_json OpEntry(const OpDef& op, const SamplingOptions& sampling,
                               std::optional<TileDataType> src, std::optional<TileDataType> dst) {
  nlohmann::ordered_json entry;
  entry["op"] = op.name;
  entry["instruction"] = op.instruction;
  entry["seed_function"] = op.seed_function;
  entry["seed_source"] = op.seed_source;
  entry["summary"] = op.summary;
  entry["slots"] = SlotsJson(op);
  entry["controls"] = ControlsFor(op).size();
  entry["pairs"] = PairsJson(op, sampling, src, dst);
  return entry;
}

int RunList(bool as_json, const SamplingOptions& sampling, const ListFilter& filter) {
  const oracle::Edition edition = RequireEdition(filter.edition);
  if (!filter.op.empty()) RequireOp(filter.op, edition);
  std::optional<TileDataType> src;
  std::optional<TileDataType> dst;
  if (!filter.src.empty()) src = RequireType(filter.src, "--src", edition);
  if (!filter.dst.empty()) dst = RequireType(filter.dst, "--dst", edition);
  nlohmann::ordered_json out = nlohmann::ordered_json::array();
  for (const OpDef& op : AllOps(edition)) {
    if (!filter.op.empty() && op.name != filter.op) continue;
    nlohmann::ordered_json entry = OpEntry(op, sampling, src, dst);
    if (!entry["pairs"].empty()) out.push_back(entry);
  }
  const std::string name(oracle::EditionName(edition));
  if (out.empty()) {
    return Fail("no legal pair matches --op '" + filter.op + "' --src '" + filter.src +
                "' --dst '" + filter.dst + "' (`ptovec list" +
                (edition == oracle::kDefaultEdition ? "" : " --edition " + name) +
                "` shows every pair)");
  }
  // The ops the edition retired: in the whole list, after its ops.
  const bool whole = filter.op.empty() && filter.src.empty() && filter.dst.empty();
  const std::vector<RetiredOp>& retired = whole ? RetiredOps(edition) : std::vector<RetiredOp>{};
  if (as_json) {
    for (const RetiredOp& r : retired) {
      out.push_back({{"op", r.name},
                     {"instruction", r.instruction},
                     {"retired", r.reason},
                     {"pairs", nlohmann::ordered_json::array()}});
    }
    std::cout << out.dump(2) << "\n";
    return 0;
  }
  std::uint64_t suite_total = 0;
  for (const auto& entry : out) PrintOp(entry, edition, suite_total);
  for (const RetiredOp& r : retired) {
    std::cout << r.name << "  (" << r.instruction << "): not in edition " << name << ": "
              << r.reason << "\n";
  }
  std::cout << (whole ? "default suite: " : "default-suite pairs shown: ") << suite_total
            << " vectors (--samples " << sampling.samples << ")\n";
  return 0;
}

}  // namespace

namespace ptovec::cli {

Command AddListCommand(CLI::App& app) {
  auto list_json = std::make_shared<bool>(false);
  auto list_samples = std::make_shared<std::uint64_t>(100000);
  CLI::App* list = app.add_subcommand("list", "ops, legal type pairs and vector counts");
  list->add_flag("--json", *list_json, "machine-readable output");
  auto list_types = std::make_shared<bool>(false);
  CLI::Option* types =
      list->add_flag("--types", *list_types,
                     "the data types instead: name, code, bits, bytes in binary files, hex digits");
  auto list_filter = std::make_shared<ListFilter>();
  AddEditionOption(*list, list_filter->edition);
  list->add_option("--op", list_filter->op, "only this op")->excludes(types);
  list->add_option("--src", list_filter->src, "only pairs from this source type")->excludes(types);
  list->add_option("--dst", list_filter->dst, "only pairs to this destination type")
      ->excludes(types);
  list->add_option("--samples", *list_samples, "samples assumed for sampled pairs (default 100000)")
      ->check(kSampleCount);
  Command c;
  c.app = list;
  c.run = Guarded([list_json, list_samples, list_filter, list_types] {
    if (*list_types) return RunListTypes(*list_json, RequireEdition(list_filter->edition));
    return RunList(*list_json, {1, *list_samples}, *list_filter);
  });
  return c;
}

}  // namespace ptovec::cli
