// Every JSON Schema `ptovec schema NAME` prints, by name: see ptovec/tools/schemas.hpp.
#include "ptovec/tools/schemas.hpp"

#include "ptovec/generator/schema.hpp"
#include "ptovec/tools/results_schema.hpp"

namespace ptovec::tools {

std::vector<std::string> SchemaNames() {
  return {"vectors", "manifest", "eval", "binary-header", "results", "results-binary-header"};
}

std::optional<nlohmann::ordered_json> SchemaByName(std::string_view name) {
  if (name == "vectors") return generator::VectorsSchema();
  if (name == "manifest") return generator::ManifestSchema();
  if (name == "eval" || name == "eval-line") return generator::EvalLineSchema();
  if (name == "binary-header") return generator::BinaryHeaderSchema();
  if (name == "results") return ResultsSchema();
  if (name == "results-binary-header") return ResultsBinaryHeaderSchema();
  return std::nullopt;
}

std::string SchemaFileName(std::string_view name) {
  if (name == "vectors") return "vectors.schema.json";
  if (name == "manifest") return "manifest.schema.json";
  if (name == "eval" || name == "eval-line") return "eval-line.schema.json";
  if (name == "binary-header") return "binary-header.schema.json";
  if (name == "results") return "results.schema.json";
  if (name == "results-binary-header") return "results-binary-header.schema.json";
  return "";
}

}  // namespace ptovec::tools
