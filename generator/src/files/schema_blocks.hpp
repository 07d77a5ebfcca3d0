// The building blocks the JSON Schema documents share (schema_blocks.cpp), for
// schema_documents.cpp; internal to the generator (the public blocks are in schema.hpp).
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "ptovec/generator/ops.hpp"

namespace ptovec::generator::schema_blocks {

using J = nlohmann::ordered_json;

/// The type's name ("fp16").
std::string TypeName(TileDataType type);
/// "^0x" + exactly the type's hex digits (a width not a multiple of 4 limits the leading digit).
std::string HexPattern(TileDataType type);
/// Types in order of first appearance as src (or dst) among the op's legal pairs.
std::vector<TileDataType> SrcTypes(const OpDef& op);
std::vector<TileDataType> DstTypes(const OpDef& op);
/// The strings as a JSON array.
J Strings(const std::vector<std::string>& items);
/// Every type that is the src or dst of some legal pair, in format-table order.
std::vector<std::string> PairTypeNames();
/// The op names of every edition's registry, in registry order (0.58.3's, then those another
/// edition adds).
std::vector<std::string> OpNames();
/// The rounding mode names, RNE .. RHB.
std::vector<std::string> ModeNames();
/// An op's legal pairs as "anyOf" alternatives {"properties": {"src", "dst"}}: sources with the
/// same set of destinations share one.
J PairAlternatives(const OpDef& op);
/// {"properties": {key: {"const": value}, ...}, "required": [key, ...]}: an "if" condition.
J IfProperties(const std::vector<std::pair<std::string, std::string>>& consts);
/// IfProperties of "op" (and `more`) for the op of its edition: an op of edition 0.58.3 where
/// the object has no "edition", another's where "edition" is its edition.
J OpIf(const OpDef& op, const std::vector<std::pair<std::string, std::string>>& more = {});
/// An "if" condition on the object's "edition": absent for 0.58.3, else that name.
J EditionIf(oracle::Edition edition);
/// The "edition" key of a file, manifest, results header or eval line: the editions after
/// 0.58.3 by name (absent: 0.58.3).
J EditionProperty();
/// {"if": condition, "then": then}.
J Block(J condition, J then);
/// An unsigned 64-bit integer: {"type":"integer","minimum":0,"maximum":2^64 - 1}.
J Uint64();
/// The "$defs" every document shares: "uint64", "type_name", "word", "rmode", "flags".
J CommonDefs();
/// The header keys FileHeader writes (writers.hpp), shared by the JSON vector file and the
/// binary header; "format" is `format_name`.
J HeaderProperties(std::string_view format_name);
/// The definitions HeaderProperties refers to, added to a header document's $defs.
void AddHeaderDefs(J& defs);
/// The header keys every vector file header holds, for "required".
J HeaderRequired();

/// The document kinds OpBlocks (schema_op_blocks.cpp) builds conditional blocks for.
enum class Doc { Vectors, EvalResult, BinaryHeader };
/// The conditional blocks ("allOf") of one document kind, for each op: one keyed by the op
/// (header fields, slot names, fixed-type slots, the legal pairs), one per src type and one per
/// dst type.
J OpBlocks(Doc doc);
/// The ops' blocks of one edition only (the manifest's entries, whose edition is the manifest's).
J OpBlocks(Doc doc, oracle::Edition edition);
/// A schema document's head: "$schema" (draft 2020-12), "$id"
/// (https://ptovec.invalid/schemas/ + `file`), "title", "description".
J Document(std::string_view file, std::string_view title, std::string_view description);

}  // namespace ptovec::generator::schema_blocks
