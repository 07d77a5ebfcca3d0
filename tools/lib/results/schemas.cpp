// Every JSON Schema `ptovec schema NAME` prints, by name: see ptovec/tools/schemas.hpp.
#include "ptovec/tools/schemas.hpp"

#include "ptovec/facts.h"
#include "ptovec/generator/schema.hpp"
#include "ptovec/tools/check_report.hpp"
#include "ptovec/tools/known_differences.hpp"
#include "ptovec/tools/results_schema.hpp"

namespace ptovec::tools {

nlohmann::ordered_json CoverageSchema() {
  using Json = nlohmann::ordered_json;
  const Json count = {{"type", "integer"}, {"minimum", 0}};
  const Json control = {
      {"type", "object"},
      {"description",
       "one (mode, Sat) of the pair in the report's scope: its vectors (0 for a control of "
       "the default suite the vectors lack) and, per class (in the pair's classes order), "
       "the vectors hitting it and whether a witness shows it reachable under this control"},
      {"required", Json::array({"rmode", "sat", "vectors", "counts", "reachable"})},
      {"additionalProperties", false},
      {"properties",
       {{"rmode", {{"enum", Json::array({PTOVEC_FACTS_MODE_NAMES})}}},
        {"sat", {{"type", "boolean"}}},
        {"vectors", count},
        {"counts", {{"type", "array"}, {"items", count}}},
        {"reachable", {{"type", "array"}, {"items", {{"type", "boolean"}}}}}}}};
  const Json pair = {
      {"type", "object"},
      {"required",
       Json::array({"op", "src", "dst", "default_suite", "witnesses", "classes", "controls"})},
      {"additionalProperties", false},
      {"properties",
       {{"op", {{"type", "string"}}},
        {"src", {{"type", "string"}}},
        {"dst", {{"type", "string"}}},
        {"default_suite",
         {{"type", "boolean"}, {"description", "whether the pair is one of the default suite's"}}},
        {"witnesses",
         {{"type", "boolean"},
          {"description",
           "whether the witness table covers this pair (else nothing is "
           "reachable by the table)"}}},
        {"classes",
         {{"type", "array"},
          {"description",
           "the pair's class table: the report's input and outcome classes, "
           "then the op's own"},
          {"items", {{"type", "string"}}}}},
        {"controls", {{"type", "array"}, {"items", control}}}}}};
  return {{"$schema", "https://json-schema.org/draft/2020-12/schema"},
          {"title", "ptovec coverage --json"},
          {"type", "object"},
          {"required", Json::array({"format", "version", "vectors", "scope", "pairs", "missing",
                                    "reachable_cells", "hit_cells"})},
          {"additionalProperties", false},
          {"properties",
           {{"format", {{"const", "ptovec-coverage"}}},
            {"version", {{"const", 2}}},
            {"vectors", {{"type", "array"}, {"items", {{"type", "string"}}}}},
            {"scope",
             {{"enum", Json::array({"default", "present"})},
              {"description",
               "default: every pair and control of the default suite is in the report (one "
               "the vectors lack counts as missing); present: only those the vectors hold"}}},
            {"pairs", {{"type", "array"}, {"items", pair}}},
            {"missing",
             {{"type", "array"},
              {"description",
               "what --require-all fails on, one line each: a reachable class without a "
               "vector, a control or a pair of the scope without vectors"},
              {"items", {{"type", "string"}}}}},
            {"reachable_cells", count},
            {"hit_cells", count}}}};
}

std::vector<std::string> SchemaNames() {
  return {"vectors",           "manifest", "eval",
          "binary-header",     "results",  "results-binary-header",
          "known-differences", "coverage", "report"};
}

std::optional<nlohmann::ordered_json> SchemaByName(std::string_view name) {
  if (name == "vectors") return generator::VectorsSchema();
  if (name == "manifest") return generator::ManifestSchema();
  if (name == "eval" || name == "eval-line") return generator::EvalLineSchema();
  if (name == "binary-header") return generator::BinaryHeaderSchema();
  if (name == "results") return ResultsSchema();
  if (name == "results-binary-header") return ResultsBinaryHeaderSchema();
  if (name == "coverage") return CoverageSchema();
  if (name == "known-differences") return KnownDifferencesSchema();
  if (name == "report") return ReportSchema();
  return std::nullopt;
}

std::string SchemaFileName(std::string_view name) {
  if (name == "vectors") return "vectors.schema.json";
  if (name == "manifest") return "manifest.schema.json";
  if (name == "eval" || name == "eval-line") return "eval-line.schema.json";
  if (name == "binary-header") return "binary-header.schema.json";
  if (name == "results") return "results.schema.json";
  if (name == "results-binary-header") return "results-binary-header.schema.json";
  if (name == "coverage") return "coverage.schema.json";
  if (name == "known-differences") return "known-differences.schema.json";
  if (name == "report") return "report.schema.json";
  return "";
}

}  // namespace ptovec::tools
