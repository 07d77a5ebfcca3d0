// The JSON Schema of a known-differences file (known_differences.hpp; `ptovec schema
// known-differences`, schemas/known-differences.schema.json). The reader (known_differences.cpp)
// checks the same rules and more (names of ops, types and classes) with one-line errors.
#include <nlohmann/json.hpp>

#include "ptovec/tools/known_differences.hpp"

namespace ptovec::tools {

namespace {

using J = nlohmann::ordered_json;

// "model": a model's name, or a base with deviations added or removed and parameters.
J ModelSchema() {
  J deviation_names = {{"type", "string"},
                       {"description",
                        "a deviation: ieee-overflow, no-saturation, signed-zero, "
                        "tininess-after-rounding, invalid-integer, e4m3-inf-nan"}};
  return {
      {"description",
       "a behaviour model (docs/semantics.md, 'Behaviour models'): a model's name (profile, "
       "ieee754, riscv, x86, arm), or a base with deviations added or removed and parameters"},
      {"oneOf",
       J::array(
           {{{"type", "string"}},
            {{"type", "object"},
             {"additionalProperties", false},
             {"required", J::array({"base"})},
             {"properties",
              {{"base", {{"type", "string"}}},
               {"add",
                {{"oneOf",
                  J::array({deviation_names, {{"type", "array"}, {"items", deviation_names}}})}}},
               {"remove",
                {{"oneOf",
                  J::array({deviation_names, {{"type", "array"}, {"items", deviation_names}}})}}},
               {"invalid-integer",
                {{"enum", J::array({"open", "clamp", "indefinite", "clamp-nan-zero"})}}},
               {"nan", {{"enum", J::array({"open", "positive-quiet", "negative-quiet"})}}}}}}})}};
}

}  // namespace

nlohmann::ordered_json KnownDifferencesSchema() {
  const J names = {
      {"oneOf", J::array({{{"type", "string"}},
                          {{"type", "array"}, {"minItems", 1}, {"items", {{"type", "string"}}}}})}};
  const J flags = {{"type", "string"},
                   {"description", "status flags joined by '|' (NV DZ OF UF NX), '-' for none"},
                   {"pattern", "^(-|(NV|DZ|OF|UF|NX)(\\|(NV|DZ|OF|UF|NX))*)$"}};
  J classes = names;
  classes["description"] =
      "result classes, any of: +0 -0 +subnormal -subnormal +normal -normal +largest -largest "
      "+inf -inf nan invalid, or 0 subnormal normal largest inf of either sign (in \"got\": the "
      "expected word's sign); integers 0 min max +int -int";
  J word = {
      {"description",
       "how the device's word differs: \"same\" (equal, the default), \"any\" (not looked at), "
       "or the classes of the expected and device words and the kind of difference"},
      {"oneOf",
       J::array({{{"enum", J::array({"same", "any"})}},
                 {{"type", "object"},
                  {"additionalProperties", false},
                  {"minProperties", 1},
                  {"properties",
                   {{"expected", classes},
                    {"got", classes},
                    {"difference",
                     {{"description",
                       "any of: same, sign, 1 code nearer zero, 1 code farther from zero, "
                       "nearer zero, farther from zero, 1 below, 1 above, below, above, other"},
                      {"oneOf", names["oneOf"]}}}}}}})}};
  J flag_shape = {
      {"description",
       "how the device's status differs: \"same\" (equal on the compared bits, the "
       "default), \"any\", or conditions that must all hold: the oracle's status, "
       "the device's (compared bits), the compared bits missing, the extra ones"},
      {"oneOf",
       J::array(
           {{{"enum", J::array({"same", "any"})}},
            {{"type", "object"},
             {"additionalProperties", false},
             {"minProperties", 1},
             {"properties",
              {{"expected", flags}, {"got", flags}, {"missing", flags}, {"extra", flags}}}}})}};
  J rule = {{"type", "object"},
            {"additionalProperties", false},
            {"required", J::array({"name", "reason"})},
            {"properties",
             {{"name", {{"type", "string"}, {"minLength", 1}}},
              {"reason", {{"type", "string"}, {"minLength", 1}}},
              {"see", {{"type", "string"}}},
              {"op", names},
              {"src", names},
              {"dst", names},
              {"rmode", names},
              {"sat", {{"enum", J::array({"off", "on", "both"})}}},
              {"input", names},
              {"word", word},
              {"flags", flag_shape}}}};
  const J model = ModelSchema();
  J s;
  s["$schema"] = "https://json-schema.org/draft/2020-12/schema";
  s["title"] = "ptovec known differences";
  s["description"] =
      "What a device does on purpose where it differs from the profile: a behaviour model, "
      "and shape rules as a last resort (schemas/known-differences-format.md)";
  s["type"] = "object";
  s["additionalProperties"] = false;
  s["required"] = J::array({"format", "version", "name"});
  s["anyOf"] = J::array({{{"required", J::array({"model"})}}, {{"required", J::array({"rules"})}}});
  s["properties"] = {{"format", {{"const", std::string(kKnownDifferencesFormat)}}},
                     {"version", {{"enum", J::array({1, kKnownDifferencesVersion})}}},
                     {"name", {{"type", "string"}, {"minLength", 1}, {"pattern", "^[^/]+$"}}},
                     {"description", {{"type", "string"}}},
                     {"model", model},
                     {"rules", {{"type", "array"}, {"minItems", 1}, {"items", rule}}}};
  return s;
}

}  // namespace ptovec::tools
