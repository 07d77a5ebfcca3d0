// JSON Schemas (draft 2020-12) of ptovec's file formats, derived from the op registry and the
// format table, so they change exactly when an op, a slot, a legal pair or a type changes.
// `ptovec schema NAME` prints them; schemas/*.schema.json are their committed copies (a ctest
// test fails when a copy drifts from the registry).
#pragma once

#include <nlohmann/json.hpp>

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace ptovec::generator {

/// A JSON vector file (writers.hpp: JsonPreamble, AppendJsonRecord, JsonTrailer): the header
/// FileHeader writes plus "vectors", each {"in","rmode","sat","out","flags"}; per op, the legal
/// src/dst pairs, the slot count and exact-width hex words of each slot's type.
nlohmann::ordered_json VectorsSchema();

/// manifest.json (suite.cpp: GenerateSuite).
nlohmann::ordered_json ManifestSchema();

/// One line printed by `ptovec eval`: a result {"op","src","dst","rmode","sat","in","out","flags"}
/// or, with --batch, an error line {"line":N,"error":"..."}.
nlohmann::ordered_json EvalLineSchema();

/// The JSON header embedded in a binary vector file (writers.hpp: BinaryPreamble), with its
/// record layout ("record_size", "fields") and "rmode_names".
nlohmann::ordered_json BinaryHeaderSchema();

/// One line of a JSON lines results file (tools/results.hpp, schemas/results-format.md): the
/// header line {"format":"ptovec-results-json","version","tool_version","device","sections"} or a
/// result line {"s","i","out","flags"} ("flags":"unsupported" for a case the device did not
/// implement, "out" then optional).
nlohmann::ordered_json ResultsSchema();

/// The JSON header of a binary results file (`PTOVEC\0R`): the sections with "record_size".
nlohmann::ordered_json ResultsBinaryHeaderSchema();

/// The names `ptovec schema` accepts, in order: "vectors", "manifest", "eval", "binary-header",
/// "results", "results-binary-header".
std::vector<std::string> SchemaNames();

/// The schema called `name` (one of SchemaNames()), or nullopt.
std::optional<nlohmann::ordered_json> SchemaByName(std::string_view name);

/// The committed file of schema `name` under schemas/ ("vectors.schema.json"); "" when unknown.
std::string SchemaFileName(std::string_view name);

}  // namespace ptovec::generator
