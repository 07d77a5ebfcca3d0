// JSON Schemas (draft 2020-12) of the generator's file formats (vector files, manifests, eval
// lines, binary headers), derived from the op registry and the format table, so they change
// exactly when an op, a slot, a legal pair or a type changes. The results files' schemas are in
// ptovec/tools/results_schema.hpp, built from the blocks below. `ptovec schema NAME` prints them
// all (ptovec/tools/schemas.hpp); schemas/*.schema.json are their committed copies (a ctest test,
// tests/cli/check_schemas.cmake, fails when a copy drifts from the registry).
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

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

/// Building blocks for the schemas of formats defined elsewhere (the results files,
/// tools/lib/results/results_schema.cpp), so every schema shares one head and one set of
/// definitions:

/// A schema document's head: "$schema" (draft 2020-12), "$id"
/// (https://ptovec.invalid/schemas/ + `file`), "title", "description".
nlohmann::ordered_json SchemaDocument(std::string_view file, std::string_view title,
                                      std::string_view description);

/// The "$defs" the documents share: "uint64", "type_name" (every format-table name), "word"
/// (0x + lower-case hex), "rmode" (the mode names) and "flags" (0x00..0x1f, bits 4:0).
nlohmann::ordered_json CommonSchemaDefs();

/// An unsigned 64-bit integer: {"type":"integer","minimum":0,"maximum":2^64 - 1}.
nlohmann::ordered_json Uint64Schema();

/// The op names of every edition's registry, in registry order (a JSON array for "enum").
nlohmann::ordered_json SchemaOpNames();

/// Every type that is the src or dst of some legal pair, in format-table order (a JSON array).
nlohmann::ordered_json SchemaPairTypeNames();

/// The "edition" key's schema: the editions after 0.58.3 by name (absent: 0.58.3).
nlohmann::ordered_json SchemaEditionProperty();

/// The rounding mode names, RNE .. RHB (spec-notes section 2; a JSON array).
nlohmann::ordered_json SchemaModeNames();

}  // namespace ptovec::generator
