// One case of an op, as text: parsing words and names with one-line errors, and the eval JSON line.
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "ptovec/generator/errors.hpp"
#include "ptovec/generator/escape.hpp"
#include "ptovec/generator/ops.hpp"
#include "ptovec/oracle/behaviour.hpp"

namespace ptovec::generator {

/// Parses "0x..." (hex digits, either case) into a word of `type`. Throws InputError for
/// malformed text or a word wider than the type ("0x10000 is too wide for fp16 ...").
Word ParseWord(std::string_view text, TileDataType type, std::string_view slot_name);

/// An input word given as a decimal value: the code of `type` nearest to it and whether it is
/// that code's value exactly.
struct DecimalInput {
  Word code = 0;
  bool exact = true;
};

/// Parses a decimal value ("449", "-0.75", "1e-3", "-0", "inf", "-inf"; at most 400 in the
/// exponent) into a code of `type`: for floating types (FP32, FP16, BF16, E4M3, HiF8; of edition
/// 2026-09 FP64, E6M2, E2M1X2, E1M2X2 by that edition's encoder) the nearest code under RNE
/// (ReferenceMatrixFloatingEncoding, Sat off), for integer types the value itself (it must be an
/// integer in range). nullopt when `text` is not decimal syntax (then it is hex or malformed).
/// Throws InputError for a value the type cannot hold (beyond the largest finite, not an
/// integer, out of range; E6M2: zero or negative) or a type without decimal input (E8M0, FP19,
/// RCPE6M2).
std::optional<DecimalInput> ParseDecimalInput(std::string_view text, TileDataType type,
                                              std::string_view slot_name);

/// ParseWord, or a decimal value by ParseDecimalInput (what `eval` accepts). Throws InputError.
Word ParseInputWord(std::string_view text, TileDataType type, std::string_view slot_name);

/// The value a word of `type` denotes, exactly: "1.5", "-0.000122", "-0", "+Inf", "NaN", or for
/// a value with more than 30 significant decimal digits "m*2^e" (m odd: "3*2^-150", "2^-149");
/// integers in decimal ("-126"). Only the low Format(type).width bits of `word` are read.
std::string ValueText(TileDataType type, Word word);

/// Looks up an op / type / rounding mode / edition by name. Throws InputError listing the
/// accepted names; an op that `edition` retired (RetiredOps) is refused with its reason.
const OpDef& RequireOp(std::string_view name, oracle::Edition edition = oracle::kDefaultEdition);
TileDataType RequireType(std::string_view name, std::string_view option,
                         oracle::Edition edition = oracle::kDefaultEdition);
NumericRoundingMode RequireRoundingMode(std::string_view name);
/// The edition named by --edition ("0.58.3", "2026-09"); "" is the default edition.
oracle::Edition RequireEdition(std::string_view name);

/// A fully specified case.
struct Case {
  const OpDef* op = nullptr;
  TypePair pair{};
  NumericExecutionControl control{};
  Inputs in{};
};

/// Builds a case of the op of `edition` from names and input texts (ParseInputWord: hex, or
/// decimal values), checking the pair's legality (an illegal pair is refused with the op's
/// pair_refusal when it has one), the input count, each word's width, the op's domain and the
/// control. Throws InputError.
Case MakeCase(std::string_view op, std::string_view src, std::string_view dst,
              std::string_view rmode, bool sat, const std::vector<std::string>& inputs,
              oracle::Edition edition = oracle::kDefaultEdition);

/// Evaluates a case with the op's bulk path. Throws InputError when the seed rejects the inputs.
Encoded EvaluateCase(const Case& c);

/// The eval line: {"op","src","dst","rmode","sat","in","out","flags"} in that order, led by
/// "edition" when the op is not of the default edition.
nlohmann::ordered_json CaseJson(const Case& c, Encoded result);

/// What `ptovec eval` prints: CaseJson followed by the decoded values and flag names,
/// {"in_value": [ValueText of each input], "out_value": ValueText of out, "flag_names":
/// FlagNames of flags}.
nlohmann::ordered_json EvalLineJson(const Case& c, Encoded result);

/// The "model" object of an eval line (`eval --model`): a behaviour model's answer to `c`:
/// {"name", "out", "flags", "out_value", "flag_names", "deviations": the names of the
/// deviations that made it differ from the profile ([] where it is the profile's answer),
/// "word_open": the model leaves the word to the implementation (then "out" is the profile's)}.
nlohmann::ordered_json ModelLineJson(const Case& c, const std::string& name,
                                     const oracle::ModelAnswer& answer);

/// The `ptovec eval` command that reproduces a case (with --edition when the op is not of the
/// default edition).
std::string EvalCommand(const Case& c);

}  // namespace ptovec::generator
