// ptovec schema: print the JSON Schema of a file format.
#include <CLI/CLI.hpp>
#include <iostream>
#include <string>
#include <vector>

#include "commands.hpp"
#include "ptovec/generator/cases.hpp"
#include "ptovec/tools/schemas.hpp"

namespace {

using ptovec::tools::SchemaByName;
using ptovec::tools::SchemaNames;

using ptovec::cli::Fail;

int RunSchema(const std::string& name) {
  const auto schema = SchemaByName(name);
  if (!schema) {
    std::string names;
    for (const std::string& n : SchemaNames()) names += (names.empty() ? "" : ", ") + n;
    return Fail("unknown schema '" + name + "' (accepted: " + names + ")");
  }
  std::cout << schema->dump(2) << "\n";
  return 0;
}

}  // namespace

namespace ptovec::cli {

Command AddSchemaCommand(CLI::App& app) {
  auto schema_name = std::make_shared<std::string>();
  CLI::App* schema = app.add_subcommand(
      "schema", "print the JSON Schema of a file format (schemas/*.schema.json are copies)");
  schema
      ->add_option(
          "name", *schema_name,
          "vectors, manifest, eval, binary-header, results, results-binary-header, coverage, "
          "known-differences or report")
      ->required();
  Command c;
  c.app = schema;
  c.run = Guarded([schema_name] { return RunSchema(*schema_name); });
  return c;
}

}  // namespace ptovec::cli
