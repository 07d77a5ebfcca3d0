// The JSON Schema of a known-differences file (known_differences.hpp; `ptovec schema
// known-differences`, schemas/known-differences.schema.json). The reader (known_differences.cpp)
// checks the same rules and more (names of ops, types and classes) with one-line errors.
#include <nlohmann/json.hpp>

#include "ptovec/tools/known_differences.hpp"

namespace ptovec::tools {

nlohmann::ordered_json KnownDifferencesSchema() {
  using J = nlohmann::ordered_json;
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
  J s;
  s["$schema"] = "https://json-schema.org/draft/2020-12/schema";
  s["title"] = "ptovec known differences";
  s["description"] =
      "Named, reasoned rules that waive the mismatches a device has on purpose "
      "(schemas/known-differences-format.md)";
  s["type"] = "object";
  s["additionalProperties"] = false;
  s["required"] = J::array({"format", "version", "name", "rules"});
  s["properties"] = {{"format", {{"const", std::string(kKnownDifferencesFormat)}}},
                     {"version", {{"const", kKnownDifferencesVersion}}},
                     {"name", {{"type", "string"}, {"minLength", 1}, {"pattern", "^[^/]+$"}}},
                     {"description", {{"type", "string"}}},
                     {"rules", {{"type", "array"}, {"minItems", 1}, {"items", rule}}}};
  return s;
}

}  // namespace ptovec::tools
