// JSON Schemas of the results files (schemas/results-format.md; written by results_writer.cpp,
// read by results_reader.cpp), built from the generator's schema blocks
// (ptovec/generator/schema.hpp).
#include "ptovec/tools/results_schema.hpp"

#include <string>

#include "ptovec/facts.h"
#include "ptovec/generator/schema.hpp"
#include "ptovec/tools/results.hpp"

namespace ptovec::tools {

namespace {

using J = nlohmann::ordered_json;

// Version 2's properties of a run (written by `ptovec run`): how it judged, what it read, and
// where it stopped early.
void AddRunProperties(J& p) {
  p["compare"] = {
      {"description",
       "version 2, written by `ptovec run`: the comparison policy the run judged by: "
       "word+flags (every status bit), word (words only), or word+flags:NV,OF,... "
       "(those status bits only)"},
      {"type", "string"},
      {"pattern", "^(word\\+flags|word|word\\+flags:(NV|DZ|OF|UF|NX)(,(NV|DZ|OF|UF|NX))*)$"}};
  p["known_differences"] = {{"description",
                             "version 2, written by `ptovec run`: the known-difference sets "
                             "(--known-differences) whose rules waived mismatches, in order"},
                            {"type", "array"},
                            {"items", {{"type", "string"}}}};
  p["allow_unsupported"] = {{"description",
                             "version 2, written by `ptovec run`: unsupported answers did not "
                             "fail the run (--allow-unsupported)"},
                            {"type", "boolean"}};
  p["vectors"] = {{"description",
                   "version 2, written by `ptovec run`: the --vectors paths the run read, each "
                   "relative to the results file's folder ('.': that folder), so that `ptovec "
                   "shrink --from` finds them"},
                  {"type", "array"},
                  {"items", {{"type", "string"}, {"minLength", 1}}}};
  p["stopped"] = {{"description",
                   "version 2: the run stopped early (a device error): only the first `records` "
                   "of the sections' records follow, and check reports the run as incomplete"},
                  {"type", "object"},
                  {"required", J::array({"reason", "records"})},
                  {"additionalProperties", false},
                  {"properties",
                   {{"reason", {{"type", "string"}}}, {"records", {{"$ref", "#/$defs/uint64"}}}}}};
}

// One section of the header (the items of "sections"): a vector file and its records.
J SectionSchema(bool binary) {
  J section_props = {
      {"file",
       {{"description", "the vector file's name (no folders), as in manifest.json's path"},
        {"type", "string"},
        {"minLength", 1}}},
      {"sha256",
       {{"description", "SHA-256 of the whole vector file, lower-case hex"},
        {"type", "string"},
        {"pattern", "^[0-9a-f]{64}$"}}},
      {"op", {{"enum", generator::SchemaOpNames()}}},
      {"src", {{"enum", generator::SchemaPairTypeNames()}}},
      {"dst", {{"enum", generator::SchemaPairTypeNames()}}},
      {"count",
       {{"description",
         "records of the section: the vectors of the file, or those of "
         "its controls"},
        {"$ref", "#/$defs/uint64"}}},
      {"controls",
       {{"description",
         "version 2: the section answers only the file's records of these controls (a run "
         "filtered by --rmode/--sat), in the file's order; record indices then skip the others"},
        {"type", "array"},
        {"minItems", 1},
        {"maxItems", PTOVEC_FACTS_CONTROLS},
        {"items",
         {{"type", "object"},
          {"required", J::array({"rmode", "sat"})},
          {"additionalProperties", false},
          {"properties",
           {{"rmode", {{"enum", generator::SchemaModeNames()}}},
            {"sat", {{"type", "boolean"}}}}}}}}}};
  J section_required = J::array({"file", "sha256", "op", "src", "dst", "count"});
  if (binary) {
    section_props["record_size"] = {
        {"description",
         "bytes of one record: the index (version 2: 8 bytes; version 1: 4) + dst "
         "storage bytes + 1 (flags)"},
        {"enum", J::array({6, 7, 9, 10, 11, 13, 17})}};
    section_required.push_back("record_size");
  }
  return {{"type", "object"},
          {"required", section_required},
          {"additionalProperties", false},
          {"properties", section_props}};
}

// The header of a results file (both formats): one section per vector file, in run order.
J ResultsHeaderSchema(bool binary) {
  J h = J::object();
  h["type"] = "object";
  h["required"] = J::array({"format", "version", "tool_version", "sections"});
  h["additionalProperties"] = false;
  J p = J::object();
  p["format"] = {
      {"const", std::string(binary ? kResultsBinaryFormatName : kResultsJsonFormatName)}};
  p["version"] = {{"description",
                   "results format version (bumped on any layout change): ptovec writes 2 and "
                   "reads 1 and 2; version 1 has no \"controls\" or \"stopped\" and binary "
                   "indices of 4 bytes"},
                  {"enum", J::array({1, 2})}};
  p["tool_version"] = {{"description", "the ptovec version (or the vendor harness) that wrote it"},
                       {"type", "string"}};
  p["edition"] = generator::SchemaEditionProperty();
  p["device"] = {{"description", "the device's name, for reports (may be empty)"},
                 {"type", "string"}};
  AddRunProperties(p);
  p["sections"] = {{"description",
                    "one per vector file, in run order; records follow in the "
                    "same order"},
                   {"type", "array"},
                   {"minItems", 1},
                   {"items", SectionSchema(binary)}};
  h["properties"] = p;
  return h;
}

}  // namespace

nlohmann::ordered_json ResultsSchema() {
  J s = generator::SchemaDocument(
      "results.schema.json", "one line of a ptovec JSON lines results file",
      "Line 1 is the header (the vector files answered, in order); every other line is "
      "one result, in the order of the vector files and their records: section s, "
      "record index i (from 0 within the section), the device's word and flags, or "
      "flags \"unsupported\". See results-format.md.");
  s["oneOf"] = J::array({{{"$ref", "#/$defs/header"}}, {{"$ref", "#/$defs/result"}}});
  J defs = generator::CommonSchemaDefs();
  for (const char* unused : {"type_name", "rmode"}) defs.erase(unused);
  defs["header"] = ResultsHeaderSchema(false);
  defs["result"] = {
      {"type", "object"},
      {"required", J::array({"s", "i", "flags"})},
      {"additionalProperties", false},
      {"properties",
       {{"s",
         {{"description", "section number (0-based) in the header's sections"},
          {"type", "integer"},
          {"minimum", 0}}},
        {"i",
         {{"description",
           "the record's index in its vector file (0-based): consecutive "
           "from 0, or, in a section with controls, increasing over the "
           "records of those controls"},
          {"$ref", "#/$defs/uint64"}}},
        {"out",
         {{"description",
           "the device's result word (bits above the destination's width "
           "are ignored)"},
          {"$ref", "#/$defs/word"}}},
        {"flags",
         {{"oneOf", J::array({{{"$ref", "#/$defs/flags"}}, {{"const", "unsupported"}}})}}}}},
      {"if", {{"properties", {{"flags", {{"const", "unsupported"}}}}}}},
      {"else", {{"required", J::array({"out"})}}}};
  s["$defs"] = defs;
  return s;
}

nlohmann::ordered_json ResultsBinaryHeaderSchema() {
  J s = generator::SchemaDocument(
      "results-binary-header.schema.json", "the JSON header of a ptovec binary results file",
      "The UTF-8 JSON text that follows the 32-byte fixed header of a binary results "
      "file (magic PTOVEC\\0R, results-format.md), padded with spaces to the data "
      "offset. Records follow section by section: index (version 2: u64 LE; version "
      "1: u32 LE, low 32 bits), out (dst storage bytes LE), flags (u8; 0x80 "
      "unsupported).");
  J h = ResultsHeaderSchema(true);
  for (auto it = h.begin(); it != h.end(); ++it) s[it.key()] = it.value();
  J defs = J::object();
  defs["uint64"] = generator::Uint64Schema();
  s["$defs"] = defs;
  return s;
}

}  // namespace ptovec::tools
