// --edition: the specification edition a command answers by (oracle/edition.hpp). `list` and
// `eval` take it so far; a command adds it with AddEditionOption and reads the text with
// generator::RequireEdition, which refuses an unknown name with one line.
#pragma once

#include <CLI/CLI.hpp>
#include <string>

#include "ptovec/oracle/edition.hpp"

namespace ptovec::cli {

/// Adds --edition NAME to `app`, into `edition` ("" when not given: the default edition).
inline CLI::Option* AddEditionOption(CLI::App& app, std::string& edition) {
  return app.add_option("--edition", edition,
                        "the specification edition: " + oracle::EditionNamesList() + " (default " +
                            std::string(oracle::EditionName(oracle::kDefaultEdition)) +
                            ", the seeds; docs/semantics.md)");
}

}  // namespace ptovec::cli
