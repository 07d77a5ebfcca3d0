// One case of an op, as text: parsing words and names with one-line errors, and the eval JSON line.
#pragma once

#include <nlohmann/json.hpp>

#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "ptovec/generator/ops.hpp"

namespace ptovec::generator {

/// Bad user input: the message is one line naming the bad value and what is accepted.
class InputError : public std::invalid_argument {
 public:
  using std::invalid_argument::invalid_argument;
};

/// Parses "0x..." (hex digits, either case) into a word of `type`. Throws InputError for
/// malformed text or a word wider than the type ("0x10000 is too wide for fp16 ...").
Word ParseWord(std::string_view text, TileDataType type, std::string_view slot_name);

/// Looks up an op / type / rounding mode by name. Throws InputError listing the accepted names.
const OpDef& RequireOp(std::string_view name);
TileDataType RequireType(std::string_view name, std::string_view option);
NumericRoundingMode RequireRoundingMode(std::string_view name);

/// A fully specified case.
struct Case {
  const OpDef* op = nullptr;
  TypePair pair{};
  NumericExecutionControl control{};
  Inputs in{};
};

/// Builds a case from names and input texts, checking the pair's legality, the input count, each
/// word's width and the op's domain. Throws InputError.
Case MakeCase(std::string_view op, std::string_view src, std::string_view dst,
              std::string_view rmode, bool sat, const std::vector<std::string>& inputs);

/// Evaluates a case with the op's bulk path. Throws InputError when the seed rejects the inputs.
Encoded EvaluateCase(const Case& c);

/// The eval line: {"op","src","dst","rmode","sat","in","out","flags"} in that order.
nlohmann::ordered_json CaseJson(const Case& c, Encoded result);

/// The `ptovec eval` command that reproduces a case.
std::string EvalCommand(const Case& c);

}  // namespace ptovec::generator
