// The building blocks of the JSON Schemas (schema.hpp, schema_blocks.hpp): names, patterns,
// shared definitions, the header properties both vector formats share and the per-op
// conditional blocks; the four documents built from them are in schema_documents.cpp.
#include "schema_blocks.hpp"

#include <algorithm>
#include <cstdint>
#include <limits>
#include <string>
#include <utility>
#include <vector>

#include "ptovec/facts.h"
#include "ptovec/generator/ops.hpp"
#include "ptovec/generator/schema.hpp"
#include "ptovec/generator/writers.hpp"

namespace ptovec::generator {

namespace schema_blocks {

constexpr std::string_view kDraft = "https://json-schema.org/draft/2020-12/schema";
constexpr std::string_view kIdBase = "https://ptovec.invalid/schemas/";

std::string TypeName(TileDataType type) { return std::string(oracle::Format(type).name); }

// "^0x" + exactly the type's hex digits (JSON words are zero-padded to the width); a width that is
// not a multiple of 4 (FP19) limits the leading digit.
std::string HexPattern(TileDataType type) {
  const oracle::FormatInfo& f = oracle::Format(type);
  const unsigned digits = f.HexDigits();
  const unsigned top_bits = f.width % 4;
  std::string pattern = "^0x";
  unsigned rest = digits;
  if (top_bits != 0) {
    pattern += "[0-" + std::to_string((1U << top_bits) - 1) + "]";
    --rest;
  }
  if (rest == 1) pattern += "[0-9a-f]";
  if (rest > 1) pattern += "[0-9a-f]{" + std::to_string(rest) + "}";
  return pattern + "$";
}

J Strings(const std::vector<std::string>& items) {
  J out = J::array();
  for (const std::string& s : items) out.push_back(s);
  return out;
}

// Every type that is the src or dst of some legal pair, in format-table order.
std::vector<std::string> PairTypeNames() {
  std::vector<std::string> names;
  for (const oracle::FormatInfo& f : oracle::AllFormats()) {
    bool used = false;
    for (const OpDef& op : AllOps()) {
      for (const TypePair& p : op.legal_pairs) used = used || p.src == f.type || p.dst == f.type;
    }
    if (used) names.emplace_back(f.name);
  }
  return names;
}

std::vector<std::string> AllTypeNames() {
  std::vector<std::string> names;
  for (const oracle::FormatInfo& f : oracle::AllFormats()) names.emplace_back(f.name);
  return names;
}

std::vector<std::string> OpNames() {
  std::vector<std::string> names;
  for (const OpDef& op : AllOps()) names.push_back(op.name);
  return names;
}

std::vector<std::string> ModeNames() {
  std::vector<std::string> names;
  for (NumericRoundingMode m : oracle::kAllRoundingModes) names.emplace_back(RoundingModeName(m));
  return names;
}

// Types in order of first appearance as src (or dst) among the op's legal pairs.
std::vector<TileDataType> SrcTypes(const OpDef& op) {
  std::vector<TileDataType> out;
  for (const TypePair& p : op.legal_pairs) {
    if (std::find(out.begin(), out.end(), p.src) == out.end()) out.push_back(p.src);
  }
  return out;
}
std::vector<TileDataType> DstTypes(const OpDef& op) {
  std::vector<TileDataType> out;
  for (const TypePair& p : op.legal_pairs) {
    if (std::find(out.begin(), out.end(), p.dst) == out.end()) out.push_back(p.dst);
  }
  return out;
}

J EnumOrConst(const std::vector<std::string>& values) {
  if (values.size() == 1) return {{"const", values.front()}};
  return {{"enum", Strings(values)}};
}

// The op's legal pairs as alternatives: sources with the same set of destinations share one.
J PairAlternatives(const OpDef& op) {
  std::vector<std::pair<std::vector<std::string>, std::vector<std::string>>> groups;  // srcs, dsts
  for (TileDataType src : SrcTypes(op)) {
    std::vector<std::string> dsts;
    for (const TypePair& p : op.legal_pairs) {
      if (p.src == src) dsts.push_back(TypeName(p.dst));
    }
    auto it =
        std::find_if(groups.begin(), groups.end(), [&](const auto& g) { return g.second == dsts; });
    if (it == groups.end()) {
      groups.push_back({{TypeName(src)}, dsts});
    } else {
      it->first.push_back(TypeName(src));
    }
  }
  J alternatives = J::array();
  for (const auto& [srcs, dsts] : groups) {
    alternatives.push_back(
        {{"properties", {{"src", EnumOrConst(srcs)}, {"dst", EnumOrConst(dsts)}}}});
  }
  return alternatives;
}

J IfProperties(const std::vector<std::pair<std::string, std::string>>& consts) {
  J properties = J::object();
  J required = J::array();
  for (const auto& [key, value] : consts) {
    properties[key] = {{"const", value}};
    required.push_back(key);
  }
  return {{"properties", properties}, {"required", required}};
}

J Block(J condition, J then) { return {{"if", std::move(condition)}, {"then", std::move(then)}}; }

J Uint64() {
  return {
      {"type", "integer"}, {"minimum", 0}, {"maximum", std::numeric_limits<std::uint64_t>::max()}};
}

J CommonDefs() {
  J defs = J::object();
  defs["uint64"] = Uint64();
  defs["type_name"] = {{"description", "a data type name of the format table"},
                       {"enum", Strings(AllTypeNames())}};
  defs["word"] = {{"description",
                   "an element-width encoding: 0x + lower-case hex digits, zero-padded to the "
                   "type's width (fp32 8 digits, fp16/bf16 4, 8-bit types 2, s4x2/u4x2 1); "
                   "signed integers are not sign-extended (s8 -126 is 0x82)"},
                  {"type", "string"},
                  {"pattern", "^0x[0-9a-f]+$"}};
  defs["rmode"] = {{"description",
                    "rounding mode name (spec-notes section 2); the binary format stores its "
                    "index in this order, RNE 0 .. RHB 6"},
                   {"enum", Strings(ModeNames())}};
  defs["flags"] = {{"description",
                    "status flags of the one operation, bits 4:0: NV 0x01, DZ 0x02, OF 0x04, "
                    "UF 0x08, NX 0x10"},
                   {"type", "string"},
                   {"pattern", "^0x[0-1][0-9a-f]$"}};
  return defs;
}

// The header keys FileHeader writes, shared by the JSON vector file and the binary header.
J HeaderProperties(std::string_view format_name) {
  J p = J::object();
  p["format"] = {{"const", format_name}};
  p["version"] = {{"description",
                   "file format version (bumped on any layout change); this schema describes "
                   "version 2, which ptovec writes (its readers also read version 1)"},
                  {"const", kFileFormatVersion}};
  p["tool_version"] = {{"description", "the ptovec version that wrote the file"},
                       {"type", "string"},
                       {"pattern", "^[0-9]+\\.[0-9]+\\.[0-9]+"}};
  p["op"] = {{"description", "the op (`ptovec list`)"}, {"enum", Strings(OpNames())}};
  p["instruction"] = {{"type", "string"}};
  p["seed_function"] = {{"description", "the specification function the vectors evaluate"},
                        {"type", "string"}};
  p["seed_source"] = {{"description", "where that function is in the seeds"}, {"type", "string"}};
  p["src"] = {{"description", "source type"}, {"enum", Strings(PairTypeNames())}};
  p["dst"] = {{"description", "destination type"}, {"enum", Strings(PairTypeNames())}};
  p["group"] = {{"description",
                 "the file group of a pair whose inputs do not share one set of legal controls "
                 "(fpatr: pqm and the PreQuantModes, e.g. pqm12-13); absent for a pair kept in "
                 "one file"},
                {"type", "string"},
                {"pattern", "^[a-z0-9-]+$"}};
  p["slots"] = {{"description", "the inputs of one vector, in the seed function's parameter order"},
                {"type", "array"},
                {"minItems", 1},
                {"maxItems", kMaxSlots},
                {"items",
                 {{"type", "object"},
                  {"required", J::array({"name", "type", "bits", "description"})},
                  {"additionalProperties", false},
                  {"properties",
                   {{"name", {{"type", "string"}, {"pattern", "^[a-z][a-z0-9_]*$"}}},
                    {"type", {{"$ref", "#/$defs/type_name"}}},
                    {"bits",
                     {{"description", "the type's width in bits"},
                      {"type", "integer"},
                      {"minimum", 1},
                      {"maximum", 64}}},
                    {"description", {{"type", "string"}}}}}}}};
  p["controls"] = {
      {"description",
       "the controls every input is evaluated under, in record order: record r has control "
       "controls[r mod len(controls)]. All of an op's (the 7 rounding modes x Sat off/on, "
       "mode-major, Sat off first; only RNE, Sat off for an op without controls) or those a "
       "--rmode/--sat filter kept, in that order"},
      {"type", "array"},
      {"minItems", 1},
      {"maxItems", PTOVEC_FACTS_CONTROLS},
      {"uniqueItems", true},
      {"items", {{"$ref", "#/$defs/control"}}}};
  p["domain"] = {{"description",
                  "exhaustive: every code of the inputs; sampled: seeded samples; selected: "
                  "inputs picked from the default domain (the smoke suite)"},
                 {"enum", J::array({"exhaustive", "sampled", "selected"})}};
  p["seed"] = {{"description", "the sampling seed derived for this (op, src, dst)"},
               {"$ref", "#/$defs/uint64"}};
  p["inputs"] = {{"description",
                  "input tuples of the whole file (a shard file holds "
                  "shard.inputs of them)"},
                 {"$ref", "#/$defs/uint64"}};
  p["count"] = {{"description",
                 "the number of vectors (records) in this file: inputs (or "
                 "shard.inputs) x len(controls)"},
                {"$ref", "#/$defs/uint64"}};
  p["strategies"] = {{"description", "a sampled file's strategies, in sampling order"},
                     {"type", "array"},
                     {"items", {{"$ref", "#/$defs/strategy"}}}};
  p["shard"] = {
      {"description",
       "set in a shard file (generate --shard K/N): shard `index` of `of` (0-based) holds inputs "
       "first_input .. first_input + inputs - 1 of the whole file, first_input = floor(index * "
       "whole inputs / of); its records are records first_record .. of the whole file's "
       "total_records"},
      {"type", "object"},
      {"required",
       J::array({"index", "of", "first_input", "inputs", "first_record", "total_records"})},
      {"additionalProperties", false},
      {"properties",
       {{"index", {{"$ref", "#/$defs/uint64"}}},
        {"of",
         {{"type", "integer"},
          {"minimum", 1},
          {"maximum", std::numeric_limits<std::uint64_t>::max()}}},
        {"first_input", {{"$ref", "#/$defs/uint64"}}},
        {"inputs", {{"$ref", "#/$defs/uint64"}}},
        {"first_record", {{"$ref", "#/$defs/uint64"}}},
        {"total_records", {{"$ref", "#/$defs/uint64"}}}}}};
  return p;
}

// The definitions HeaderProperties refers to, added to a header document's $defs.
void AddHeaderDefs(J& defs) {
  defs["control"] = {
      {"description", "one control: a rounding mode and the Sat flag"},
      {"type", "object"},
      {"required", J::array({"rmode", "sat"})},
      {"additionalProperties", false},
      {"properties",
       {{"rmode", {{"enum", Strings(ModeNames())}}}, {"sat", {{"type", "boolean"}}}}}};
  defs["strategy"] = {
      {"description",
       "one sampling strategy: its weight, the distinct tuples it owns (not in an earlier "
       "strategy; a lower bound for a strategy sampled by walking) and those taken into the file"},
      {"type", "object"},
      {"required", J::array({"name", "weight", "available", "tuples"})},
      {"additionalProperties", false},
      {"properties",
       {{"name", {{"type", "string"}, {"pattern", "^[a-z0-9_]+$"}}},
        {"weight", {{"type", "integer"}, {"minimum", 0}}},
        {"available", {{"$ref", "#/$defs/uint64"}}},
        {"tuples", {{"$ref", "#/$defs/uint64"}}}}}};
}

J HeaderRequired() {
  return J::array({"format", "version", "tool_version", "op", "instruction", "seed_function",
                   "seed_source", "src", "dst", "slots", "controls", "domain", "seed", "inputs",
                   "count"});
}

// prefixItems of length `length` with `set(i)` at the positions it answers (others {}), added to
// `target` only when it constrains something.
template <typename Fn>
void AddPrefix(J& target, std::size_t length, Fn set) {
  J items = J::array();
  bool any = false;
  for (std::size_t i = 0; i < length; ++i) {
    J item = set(i);
    any = any || !item.is_null();
    items.push_back(item.is_null() ? J::object() : item);
  }
  if (any) target["prefixItems"] = items;
}

// For an op whose controls depend on the pair (OpDef::pair_controls): one block per pair, and
// per file group of a split pair (OpDef::file_groups), that holds "controls" to those
// ControlsFor(op, pair) gives and "group" to the pair's group names (absent for a pair kept in
// one file; a split pair's file without a group holds the controls of every mode of the pair).
void PairControlBlocks(const OpDef& op, J& blocks) {
  for (const TypePair& whole : op.legal_pairs) {
    const std::vector<std::string> groups = FileGroups(op, whole);
    const J pair_if =
        IfProperties({{"op", op.name}, {"src", TypeName(whole.src)}, {"dst", TypeName(whole.dst)}});
    const auto controls = [&](TypePair pair) {
      J allowed = J::array();
      for (const J& c : ControlsJson(ControlsFor(op, pair))) allowed.push_back(c);
      return J{{"controls", {{"items", {{"enum", allowed}}}}}};
    };
    if (groups.empty()) {
      blocks.push_back(Block(pair_if, {{"properties", controls(whole)},
                                       {"not", {{"required", J::array({"group"})}}}}));
      continue;
    }
    J whole_if = pair_if;
    whole_if["not"] = {{"required", J::array({"group"})}};
    blocks.push_back(Block(whole_if, {{"properties", controls(whole)}}));
    blocks.push_back(Block(pair_if, {{"properties", {{"group", {{"enum", Strings(groups)}}}}}}));
    for (const TypePair& pair : FilePairs(op, whole)) {
      J group_if = pair_if;
      group_if["properties"]["group"] = {{"const", FileGroupName(op, pair)}};
      group_if["required"].push_back("group");
      blocks.push_back(Block(group_if, {{"properties", controls(pair)}}));
    }
  }
}

// The conditional blocks of one document kind, for each op: one keyed by the op (header fields,
// slot names, fixed-type slots, the legal pairs), one per src type (the words of Source slots)
// and one per dst type (the record's shape and the words of Destination slots and "out"). The
// per-record constraints sit only in the src and dst blocks, so a validator walks the vectors of
// a file at most three times.
J OpBlocks(Doc doc) {
  J blocks = J::array();
  for (const OpDef& op : AllOps()) {
    const std::size_t n = op.slots.size();
    const bool has_header = doc != Doc::EvalResult;

    // ---- the op ----
    J props = J::object();
    if (has_header) {
      props["instruction"] = {{"const", op.instruction}};
      props["seed_function"] = {{"const", op.seed_function}};
      J slots = {{"minItems", n}, {"maxItems", n}};
      AddPrefix(slots, n, [&](std::size_t i) {
        const Slot& s = op.slots[i];
        J item = {{"properties", {{"name", {{"const", s.name}}}}}};
        if (s.role == SlotRole::Fixed) {
          item["properties"]["type"] = {{"const", TypeName(s.fixed_type)}};
          item["properties"]["bits"] = {{"const", oracle::Format(s.fixed_type).width}};
        }
        return item;
      });
      props["slots"] = slots;
      if (!op.uses_controls) props["controls"] = {{"const", ControlsJson(ControlsFor(op))}};
    }
    if (doc == Doc::BinaryHeader) {
      J fields = {{"minItems", n + 4}, {"maxItems", n + 4}};
      AddPrefix(fields, n + 4, [&](std::size_t i) {
        J item = J::object();
        if (i < n) {
          const Slot& s = op.slots[i];
          item["properties"]["name"] = {{"const", "in." + s.name}};
          if (s.role == SlotRole::Fixed) {
            item["properties"]["type"] = {{"const", TypeName(s.fixed_type)}};
            item["properties"]["bytes"] = {{"const", oracle::Format(s.fixed_type).StorageBytes()}};
            item["properties"]["bits"] = {{"const", oracle::Format(s.fixed_type).width}};
          }
          item["required"] = J::array({"type"});
        } else if (i == n + 2) {
          item["properties"]["name"] = {{"const", "out"}};
          item["required"] = J::array({"type"});
        } else {
          item["properties"]["name"] = {{"const", i == n ? "rmode" : i == n + 1 ? "sat" : "flags"}};
          item["properties"]["bytes"] = {{"const", 1}};
          item["properties"]["bits"] = {{"const", i == n ? 3 : i == n + 1 ? 1 : 5}};
          item["not"] = {{"required", J::array({"type"})}};
        }
        if (i == 0) item["properties"]["offset"] = {{"const", 0}};
        return item;
      });
      props["fields"] = fields;
    }
    J then = J::object();
    then["description"] = op.name + ": " + op.summary;
    if (!props.empty()) then["properties"] = props;
    then["anyOf"] = PairAlternatives(op);
    if (has_header && !op.file_groups) then["not"] = {{"required", J::array({"group"})}};
    blocks.push_back(Block(IfProperties({{"op", op.name}}), then));
    if (has_header && op.pair_controls) PairControlBlocks(op, blocks);

    // ---- per src type and per dst type ----
    for (const bool is_src : {true, false}) {
      const SlotRole role = is_src ? SlotRole::Source : SlotRole::Destination;
      const bool any_slot = std::any_of(op.slots.begin(), op.slots.end(),
                                        [&](const Slot& s) { return s.role == role; });
      if (is_src && !any_slot) continue;  // (dst blocks always constrain "out")
      for (TileDataType type : is_src ? SrcTypes(op) : DstTypes(op)) {
        const std::string name = TypeName(type);
        const unsigned bytes = oracle::Format(type).StorageBytes();
        J p = J::object();
        if (has_header && any_slot) {
          J slots = J::object();
          AddPrefix(slots, n, [&](std::size_t i) {
            return op.slots[i].role == role
                       ? J{{"properties",
                            {{"type", {{"const", name}}},
                             {"bits", {{"const", oracle::Format(type).width}}}}}}
                       : J();
          });
          p["slots"] = slots;
        }
        if (doc == Doc::BinaryHeader) {
          J fields = J::object();
          AddPrefix(fields, is_src ? n : n + 3, [&](std::size_t i) {
            const bool word = i < n ? op.slots[i].role == role : i == n + 2;
            return word ? J{{"properties",
                             {{"type", {{"const", name}}},
                              {"bytes", {{"const", bytes}}},
                              {"bits", {{"const", oracle::Format(type).width}}}}}}
                        : J();
          });
          p["fields"] = fields;
        } else {
          // One record: its words of this type; the dst block also carries the record's shape.
          J rp = J::object();
          J in = J::object();
          if (!is_src) {
            in["minItems"] = n;
            in["maxItems"] = n;
          }
          AddPrefix(in, n, [&](std::size_t i) {
            const Slot& s = op.slots[i];
            if (s.role == role) return J{{"pattern", HexPattern(type)}};
            if (!is_src && s.role == SlotRole::Fixed)
              return J{{"pattern", HexPattern(s.fixed_type)}};
            return J();
          });
          rp["in"] = in;
          if (!is_src) {
            if (!op.uses_controls) {
              rp["rmode"] = {{"const", "RNE"}};
              rp["sat"] = {{"const", false}};
            }
            rp["out"] = {{"pattern", HexPattern(type)}};
          }
          if (doc == Doc::Vectors) {
            p["vectors"] = {{"items", {{"properties", rp}}}};
          } else {
            for (auto it = rp.begin(); it != rp.end(); ++it) p[it.key()] = it.value();
          }
        }
        blocks.push_back(Block(IfProperties({{"op", op.name}, {is_src ? "src" : "dst", name}}),
                               {{"properties", p}}));
      }
    }
  }
  return blocks;
}

J Document(std::string_view file, std::string_view title, std::string_view description) {
  J s = J::object();
  s["$schema"] = kDraft;
  s["$id"] = std::string(kIdBase) + std::string(file);
  s["title"] = title;
  s["description"] = description;
  return s;
}

}  // namespace schema_blocks

using namespace schema_blocks;

nlohmann::ordered_json SchemaDocument(std::string_view file, std::string_view title,
                                      std::string_view description) {
  return Document(file, title, description);
}

nlohmann::ordered_json CommonSchemaDefs() { return CommonDefs(); }

nlohmann::ordered_json Uint64Schema() { return Uint64(); }

nlohmann::ordered_json SchemaOpNames() { return Strings(OpNames()); }

nlohmann::ordered_json SchemaPairTypeNames() { return Strings(PairTypeNames()); }

nlohmann::ordered_json SchemaModeNames() { return Strings(ModeNames()); }

}  // namespace ptovec::generator
