// Every JSON Schema `ptovec schema NAME` prints: the generator's formats (ptovec/generator/
// schema.hpp), the results files' (ptovec/tools/results_schema.hpp), the known-differences file's,
// the coverage JSON's and the JSON report's (ptovec/tools/check_report.hpp).
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace ptovec::tools {

/// The coverage JSON of `ptovec coverage --json` (schemas/coverage.schema.json).
nlohmann::ordered_json CoverageSchema();

/// The names `ptovec schema` accepts, in order: "vectors", "manifest", "eval", "binary-header",
/// "results", "results-binary-header", "known-differences", "coverage", "report".
std::vector<std::string> SchemaNames();

/// The schema called `name` (one of SchemaNames(), or "eval-line" for "eval"), or nullopt.
std::optional<nlohmann::ordered_json> SchemaByName(std::string_view name);

/// The committed file of schema `name` under schemas/ ("vectors.schema.json"); "" when unknown.
std::string SchemaFileName(std::string_view name);

}  // namespace ptovec::tools
