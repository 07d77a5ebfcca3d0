// The four JSON Schema documents of the generator's file formats (schema.hpp): JSON vector files,
// manifest.json, eval lines and the binary header, built from schema_blocks.hpp.
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "ptovec/generator/ops.hpp"
#include "ptovec/generator/schema.hpp"
#include "ptovec/generator/writers.hpp"
#include "schema_blocks.hpp"

namespace ptovec::generator {

using namespace schema_blocks;

nlohmann::ordered_json VectorsSchema() {
  J s = Document("vectors.schema.json", "ptovec JSON vector file",
                 "One (op, src, dst): the header of writers.cpp's FileHeader and every vector. "
                 "count equals the number of vectors; they are ordered input by input, each "
                 "input repeated under every control of \"controls\", in that order. Words are "
                 "element-width encodings (see "
                 "binary-format.md). Derived from the op registry by `ptovec schema vectors`.");
  s["type"] = "object";
  J required = HeaderRequired();
  required.push_back("vectors");
  s["required"] = required;
  s["additionalProperties"] = false;
  J props = HeaderProperties("ptovec-vectors-json");
  props["vectors"] = {{"type", "array"}, {"items", {{"$ref", "#/$defs/vector"}}}};
  s["properties"] = props;
  s["allOf"] = OpBlocks(Doc::Vectors);
  J defs = CommonDefs();
  AddHeaderDefs(defs);
  defs["vector"] = {
      {"description", "one vector: the inputs in slot order, the controls, the result"},
      {"type", "object"},
      {"required", J::array({"in", "rmode", "sat", "out", "flags"})},
      {"additionalProperties", false},
      {"properties",
       {{"in",
         {{"type", "array"},
          {"minItems", 1},
          {"maxItems", kMaxSlots},
          {"items", {{"$ref", "#/$defs/word"}}}}},
        {"rmode", {{"$ref", "#/$defs/rmode"}}},
        {"sat", {{"type", "boolean"}}},
        {"out", {{"$ref", "#/$defs/word"}}},
        {"flags", {{"$ref", "#/$defs/flags"}}}}}};
  s["$defs"] = defs;
  return s;
}

namespace {

// The manifest's top-level properties.
J ManifestProperties() {
  J p = J::object();
  p["format"] = {{"const", "ptovec-manifest"}};
  p["version"] = {{"const", kFileFormatVersion}};
  p["tool"] = {{"const", "ptovec"}};
  p["tool_version"] = {{"type", "string"}, {"pattern", "^[0-9]+\\.[0-9]+\\.[0-9]+"}};
  p["edition"] = EditionProperty();
  p["suite"] = {{"description",
                 "the --suite given to generate: default (every input of the default domains) "
                 "or smoke (the inputs chosen to reach every outcome class); diff: the "
                 "inputs whose answer changed from another edition (`ptovec diff --out`); a "
                 "folder holds one suite"},
                {"enum", J::array({"default", "smoke", "diff"})}};
  p["seed"] = {{"description", "the --seed given to generate"}, {"$ref", "#/$defs/uint64"}};
  p["samples"] = {{"description", "the --samples given to generate"},
                  {"type", "integer"},
                  {"minimum", 1},
                  {"maximum", std::numeric_limits<std::uint64_t>::max()}};
  p["formats"] = {{"type", "array"},
                  {"minItems", 1},
                  {"maxItems", 3},
                  {"uniqueItems", true},
                  {"items", {{"enum", J::array({"bin", "json", "testfloat"})}}}};
  p["controls"] = {{"description",
                    "the --rmode and --sat given to generate: the modes and Sat values kept "
                    "(every file holds those of its op's controls, in the op's order)"},
                   {"type", "object"},
                   {"required", J::array({"rmodes", "sat"})},
                   {"additionalProperties", false},
                   {"properties",
                    {{"rmodes",
                      {{"type", "array"},
                       {"minItems", 1},
                       {"uniqueItems", true},
                       {"items", {{"enum", Strings(ModeNames())}}}}},
                     {"sat",
                      {{"type", "array"},
                       {"minItems", 1},
                       {"maxItems", 2},
                       {"uniqueItems", true},
                       {"items", {{"type", "boolean"}}}}}}}};
  p["shard"] = {{"description",
                 "set in a shard folder (generate --shard K/N, K from 0): every "
                 "file holds only that shard; `ptovec merge` joins the shards"},
                {"type", "object"},
                {"required", J::array({"index", "of"})},
                {"additionalProperties", false},
                {"properties",
                 {{"index", {{"$ref", "#/$defs/uint64"}}},
                  {"of",
                   {{"type", "integer"},
                    {"minimum", 1},
                    {"maximum", std::numeric_limits<std::uint64_t>::max()}}}}}};
  p["files"] = {{"type", "array"}, {"items", {{"$ref", "#/$defs/file"}}}};
  return p;
}

// The conditions on a manifest file entry: a path of its format (only a testfloat file has a
// control) and of its op, with a pair of the op.
J ManifestFileBlocks() {
  J file_blocks = J::array();
  // Only a testfloat file has "rmode" and "sat" (its one control, named in its path:
  // schemas/testfloat-format.md).
  const J has_control = {{"anyOf", J::array({{{"required", J::array({"rmode"})}},
                                             {{"required", J::array({"sat"})}}})}};
  for (const char* format : {"bin", "json"}) {
    J then = {{"properties", {{"path", {{"pattern", "\\." + std::string(format) + "$"}}}}},
              {"not", has_control}};
    file_blocks.push_back(Block(IfProperties({{"format", format}}), then));
  }
  std::string modes;
  for (const std::string& m : ModeNames()) modes += (modes.empty() ? "" : "|") + m;
  J testfloat_path = {
      {"pattern", "^[a-z0-9]+_[a-z0-9]+_[a-z0-9]+_(" + modes + ")_sat(off|on)\\.tf$"}};
  J testfloat = {{"required", J::array({"rmode", "sat"})},
                 {"properties", {{"path", testfloat_path}}}};
  file_blocks.push_back(Block(IfProperties({{"format", "testfloat"}}), testfloat));
  return file_blocks;
}

// The manifest's conditions per edition: its entries' ops and pairs are of the manifest's
// "edition" (absent: 0.58.3), each entry with a path of its op and a pair of the op.
J ManifestEditionBlocks() {
  J blocks = J::array();
  for (const oracle::Edition edition : oracle::kAllEditions) {
    J op_blocks = J::array();
    for (const OpDef& op : AllOps(edition)) {
      J then = {{"properties", {{"path", {{"pattern", "^" + op.name + "_"}}}}},
                {"anyOf", PairAlternatives(op)}};
      op_blocks.push_back(Block(IfProperties({{"op", op.name}}), then));
    }
    blocks.push_back(Block(EditionIf(edition),
                           {{"properties", {{"files", {{"items", {{"allOf", op_blocks}}}}}}}}));
  }
  return blocks;
}

// A smoke-suite file entry's "selection".
J SelectionSchema() {
  return {{"description",
           "a smoke-suite file (of a binary and JSON pair, the binary one): the (control, class) "
           "cells its pair's default domain hits and "
           "how the chosen inputs hit them (both_sides: inputs from both sides of the class; "
           "one_side: two inputs, every input of the cell being on one side; one_input: the "
           "one input the default domain has in the cell; input_class: one input of a report "
           "input class, or of a class that is one side of a threshold whose twin class is the "
           "other, of which one is asked), and one note per class, reason and side for "
           "the last three kinds"},
          {"type", "object"},
          {"required",
           J::array({"cells", "both_sides", "one_side", "one_input", "input_class", "notes"})},
          {"additionalProperties", false},
          {"properties",
           {{"cells", {{"$ref", "#/$defs/uint64"}}},
            {"both_sides", {{"$ref", "#/$defs/uint64"}}},
            {"one_side", {{"$ref", "#/$defs/uint64"}}},
            {"one_input", {{"$ref", "#/$defs/uint64"}}},
            {"input_class", {{"$ref", "#/$defs/uint64"}}},
            {"notes",
             {{"type", "array"},
              {"items",
               {{"type", "object"},
                {"required", J::array({"class", "controls", "reason"})},
                {"additionalProperties", false},
                {"properties",
                 {{"class", {{"description", "the class name"}, {"type", "string"}}},
                  {"controls",
                   {{"description",
                     "\"all\" (every control of the file), or the controls of the cells as "
                     "the coverage report names its columns (\"RNE/- RTZ/S\")"},
                    {"type", "string"},
                    {"pattern", "^(all|[A-Z]{3}/[-S]( [A-Z]{3}/[-S])*)$"}}},
                  {"reason",
                   {{"enum", J::array({"the default domain has one input in this cell",
                                       "every input of the cell is on one side",
                                       "an input class (of slot 0's word alone): one input is "
                                       "asked of it",
                                       "one side of a threshold whose twin class is the other "
                                       "(from below / from above): one input is asked of it"})}}},
                  {"side",
                   {{"description",
                     "the side the cell's inputs lie on (the class's own threshold, or "
                     "\"positive source\" / \"negative source\"); not for an input class or a twin "
                     "side"},
                    {"type", "string"}}}}}}}}}}}};
}

// One entry of the manifest's "files".
J ManifestFileSchema() {
  const J file_blocks = ManifestFileBlocks();
  return {
      {"type", "object"},
      {"required", J::array({"path", "format", "op", "src", "dst", "domain", "seed", "inputs",
                             "count", "bytes", "sha256"})},
      {"additionalProperties", false},
      {"properties",
       {{"path",
         {{"description",
           "file name relative to the manifest's folder: <op>_<src>_<dst>.<format>, or "
           "<op>_<src>_<dst>_<group>.<format> for a file group of a split pair, "
           "<op>_<src>_<dst>[_<group>]_<RMODE>_sat<off|on>.tf for a testfloat file"},
          {"type", "string"},
          {"pattern",
           "^[a-z0-9]+_[a-z0-9]+_[a-z0-9]+(_[a-z0-9-]+)?(\\.(bin|json)|_[A-Z]+_sat(off|on)\\.tf)"
           "$"}}},
        {"format", {{"enum", J::array({"bin", "json", "testfloat"})}}},
        {"rmode",
         {{"description", "a testfloat file's rounding mode (its one control)"},
          {"enum", Strings(ModeNames())}}},
        {"sat", {{"description", "a testfloat file's Sat (its one control)"}, {"type", "boolean"}}},
        {"op", {{"enum", Strings(OpNames())}}},
        {"src", {{"enum", Strings(PairTypeNames())}}},
        {"dst", {{"enum", Strings(PairTypeNames())}}},
        {"group",
         {{"description", "the file group of a split pair (the file header's group)"},
          {"type", "string"},
          {"pattern", "^[a-z0-9-]+$"}}},
        {"domain", {{"enum", J::array({"exhaustive", "sampled", "selected"})}}},
        {"seed",
         {{"description", "the derived seed in the file's header"}, {"$ref", "#/$defs/uint64"}}},
        {"inputs",
         {{"description", "input tuples of the whole file (its header's inputs)"},
          {"$ref", "#/$defs/uint64"}}},
        {"count", {{"description", "vectors in the file"}, {"$ref", "#/$defs/uint64"}}},
        {"strategies",
         {{"description", "a sampled file's strategies (as in its header)"},
          {"type", "array"},
          {"items", {{"$ref", "#/$defs/strategy"}}}}},
        {"selection", SelectionSchema()},
        {"shard",
         {{"description", "in a shard folder: the inputs of the whole file this one holds"},
          {"type", "object"},
          {"required", J::array({"first_input", "inputs"})},
          {"additionalProperties", false},
          {"properties",
           {{"first_input", {{"$ref", "#/$defs/uint64"}}},
            {"inputs", {{"$ref", "#/$defs/uint64"}}}}}}},
        {"bytes", {{"description", "file size in bytes"}, {"$ref", "#/$defs/uint64"}}},
        {"sha256",
         {{"description", "SHA-256 of the whole file, lower-case hex"},
          {"type", "string"},
          {"pattern", "^[0-9a-f]{64}$"}}}}},
      {"allOf", file_blocks}};
}

}  // namespace

nlohmann::ordered_json ManifestSchema() {
  J s = Document("manifest.schema.json", "ptovec manifest.json",
                 "Written last by `ptovec generate` into its output folder: the options and one "
                 "entry per vector file, with its size and SHA-256.");
  s["type"] = "object";
  s["required"] = J::array({"format", "version", "tool", "tool_version", "suite", "seed", "samples",
                            "formats", "controls", "files"});
  s["additionalProperties"] = false;
  s["properties"] = ManifestProperties();
  s["allOf"] = ManifestEditionBlocks();
  J defs = J::object();
  defs["uint64"] = Uint64();
  AddHeaderDefs(defs);
  defs.erase("control");
  defs["file"] = ManifestFileSchema();
  s["$defs"] = defs;
  return s;
}

nlohmann::ordered_json EvalLineSchema() {
  J s = Document("eval-line.schema.json", "one line of `ptovec eval` output",
                 "Each line is one JSON object: a result, with its keys in the order (edition, "
                 "for an edition after 0.58.3) op, src, dst, rmode, sat, in, out, flags, "
                 "in_value, out_value, flag_names; or, with "
                 "--batch, an error for one input line (then the exit status is 1).");
  s["oneOf"] = J::array({{{"$ref", "#/$defs/result"}}, {{"$ref", "#/$defs/error"}}});
  J defs = CommonDefs();
  J result = J::object();
  result["type"] = "object";
  result["required"] = J::array({"op", "src", "dst", "rmode", "sat", "in", "out", "flags",
                                 "in_value", "out_value", "flag_names"});
  result["additionalProperties"] = false;
  const J value = {
      {"description",
       "the exact value a word denotes: a decimal (\"1.5\", \"-0.000122\", \"-0\", "
       "\"-126\"), \"m*2^e\" or \"2^e\" past 30 significant digits (m odd), "
       "\"+Inf\", \"-Inf\" or \"NaN\""},
      {"type", "string"},
      {"pattern", "^(-?[0-9]+(\\.[0-9]+)?|-?([0-9]+\\*)?2\\^-?[0-9]+|[+-]Inf|NaN|invalid)$"}};
  result["properties"] = {
      {"edition", EditionProperty()},
      {"op", {{"enum", Strings(OpNames())}}},
      {"src", {{"enum", Strings(PairTypeNames())}}},
      {"dst", {{"enum", Strings(PairTypeNames())}}},
      {"rmode", {{"$ref", "#/$defs/rmode"}}},
      {"sat", {{"type", "boolean"}}},
      {"in",
       {{"type", "array"},
        {"minItems", 1},
        {"maxItems", kMaxSlots},
        {"items", {{"$ref", "#/$defs/word"}}}}},
      {"out", {{"$ref", "#/$defs/word"}}},
      {"flags", {{"$ref", "#/$defs/flags"}}},
      {"in_value", {{"type", "array"}, {"minItems", 1}, {"maxItems", kMaxSlots}, {"items", value}}},
      {"out_value", value},
      {"flag_names",
       {{"description", "the flags by name in bit order, NV|DZ|OF|UF|NX, or - for none"},
        {"type", "string"},
        {"pattern", "^(-|(NV|DZ|OF|UF|NX)(\\|(DZ|OF|UF|NX))*)$"}}}};
  result["allOf"] = OpBlocks(Doc::EvalResult);
  defs["result"] = result;
  defs["error"] = {{"description", "--batch: input line `line` (1-based) could not be evaluated"},
                   {"type", "object"},
                   {"required", J::array({"line", "error"})},
                   {"additionalProperties", false},
                   {"properties",
                    {{"line", {{"type", "integer"}, {"minimum", 1}}},
                     {"error", {{"type", "string"}, {"minLength", 1}}}}}};
  s["$defs"] = defs;
  return s;
}

nlohmann::ordered_json BinaryHeaderSchema() {
  J s = Document("binary-header.schema.json", "the JSON header of a ptovec binary vector file",
                 "The UTF-8 JSON text that follows the 32-byte fixed header of a .bin file "
                 "(binary-format.md); it may be followed by spaces up to the data offset. The "
                 "record layout is \"fields\": packed little-endian unsigned integers, in order.");
  s["type"] = "object";
  J required = HeaderRequired();
  for (const char* key : {"record_size", "fields", "rmode_names"}) required.push_back(key);
  s["required"] = required;
  s["additionalProperties"] = false;
  J props = HeaderProperties("ptovec-vectors-bin");
  props["record_size"] = {{"description", "bytes of one record: the sum of the fields' bytes"},
                          {"type", "integer"},
                          {"minimum", 5},
                          {"maximum", 65535}};
  props["fields"] = {
      {"description",
       "the record layout: one field per input slot (\"in.<slot>\"), then rmode, sat, out, "
       "flags; contiguous from offset 0, no padding"},
      {"type", "array"},
      {"minItems", 5},
      {"items",
       {{"type", "object"},
        {"required", J::array({"name", "offset", "bytes", "bits"})},
        {"additionalProperties", false},
        {"properties",
         {{"name",
           {{"type", "string"}, {"pattern", "^(in\\.[a-z][a-z0-9_]*|rmode|sat|out|flags)$"}}},
          {"offset", {{"type", "integer"}, {"minimum", 0}}},
          {"bytes", {{"enum", J::array({1, 2, 4, 8})}}},
          {"bits",
           {{"description",
             "the bits used, from bit 0 (the rest are zero): the type's width for "
             "words, 3 for rmode, 1 for sat, 5 for flags"},
            {"type", "integer"},
            {"minimum", 1},
            {"maximum", 64}}},
          {"type",
           {{"description",
             "the data type of a word field (in.*, out); absent for rmode, sat, flags"},
            {"$ref", "#/$defs/type_name"}}}}}}}};
  props["rmode_names"] = {{"description", "rmode byte value i means rmode_names[i]"},
                          {"const", Strings(ModeNames())}};
  s["properties"] = props;
  s["allOf"] = OpBlocks(Doc::BinaryHeader);
  J defs = CommonDefs();
  for (const char* unused : {"word", "rmode", "flags"}) defs.erase(unused);
  AddHeaderDefs(defs);
  s["$defs"] = defs;
  return s;
}

}  // namespace ptovec::generator
