// The building blocks of the JSON Schemas (schema.hpp, schema_blocks.hpp): names, patterns,
// shared definitions and the header properties both vector formats share; the per-op
// conditional blocks are in schema_op_blocks.cpp, the four documents in schema_documents.cpp.
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

// Every type that is the src or dst of some legal pair of some edition, in format-table order
// (0.58.3's types, then those edition 2026-09 adds).
std::vector<std::string> PairTypeNames() {
  std::vector<std::string> names;
  for (const oracle::Edition edition : oracle::kAllEditions) {
    for (const oracle::FormatInfo& f : oracle::AllFormats(edition)) {
      bool used = false;
      for (const OpDef& op : AllOps(edition)) {
        for (const TypePair& p : op.legal_pairs) used = used || p.src == f.type || p.dst == f.type;
      }
      if (used && std::find(names.begin(), names.end(), f.name) == names.end()) {
        names.emplace_back(f.name);
      }
    }
  }
  return names;
}

std::vector<std::string> AllTypeNames() {
  std::vector<std::string> names;
  for (const oracle::Edition edition : oracle::kAllEditions) {
    for (const oracle::FormatInfo& f : oracle::AllFormats(edition)) {
      if (std::find(names.begin(), names.end(), f.name) == names.end()) names.emplace_back(f.name);
    }
  }
  return names;
}

std::vector<std::string> OpNames() {
  std::vector<std::string> names;
  for (const oracle::Edition edition : oracle::kAllEditions) {
    for (const OpDef& op : AllOps(edition)) {
      if (std::find(names.begin(), names.end(), op.name) == names.end()) names.push_back(op.name);
    }
  }
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

J EditionIf(oracle::Edition edition) {
  if (edition == oracle::kDefaultEdition) {
    return {{"properties", {{"edition", false}}}};  // no "edition": 0.58.3
  }
  return IfProperties({{"edition", std::string(oracle::EditionName(edition))}});
}

J OpIf(const OpDef& op, const std::vector<std::pair<std::string, std::string>>& more) {
  std::vector<std::pair<std::string, std::string>> consts{{"op", op.name}};
  consts.insert(consts.end(), more.begin(), more.end());
  J condition = IfProperties(consts);
  const J edition = EditionIf(op.edition);
  condition["properties"]["edition"] = edition["properties"]["edition"];
  if (edition.contains("required")) condition["required"].push_back("edition");
  return condition;
}

J EditionProperty() {
  J later = J::array();
  for (const oracle::Edition edition : oracle::kAllEditions) {
    if (edition != oracle::kDefaultEdition) later.push_back(oracle::EditionName(edition));
  }
  return {{"description",
           "the specification edition the answers follow (docs/semantics.md); absent for "
           "0.58.3, the seeds"},
          {"enum", later}};
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

namespace {

// The header's "slots": the inputs of one vector.
J SlotsProperty() {
  return {{"description", "the inputs of one vector, in the seed function's parameter order"},
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
}

// The header's "shard" of a shard file.
J ShardProperty() {
  return {
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
}

}  // namespace

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
  p["edition"] = EditionProperty();
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
  p["slots"] = SlotsProperty();
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
  p["shard"] = ShardProperty();
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

nlohmann::ordered_json SchemaEditionProperty() { return EditionProperty(); }

nlohmann::ordered_json SchemaModeNames() { return Strings(ModeNames()); }

}  // namespace ptovec::generator
