// JSON Schemas (draft 2020-12) of the results files (schemas/results-format.md; ptovec/tools/
// results.hpp reads and writes them): `ptovec schema results` and `ptovec schema
// results-binary-header` print them; schemas/results.schema.json and
// schemas/results-binary-header.schema.json are their committed copies.
#pragma once

#include <nlohmann/json.hpp>

namespace ptovec::tools {

/// One line of a JSON lines results file (tools/results.hpp, schemas/results-format.md): the
/// header line {"format":"ptovec-results-json","version","tool_version","device","sections"} or a
/// result line {"s","i","out","flags"} ("flags":"unsupported" for a case the device did not
/// implement, "out" then optional).
nlohmann::ordered_json ResultsSchema();

/// The JSON header of a binary results file (`PTOVEC\0R`): the sections with "record_size".
nlohmann::ordered_json ResultsBinaryHeaderSchema();

}  // namespace ptovec::tools
