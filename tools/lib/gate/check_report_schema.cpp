// The JSON Schema of the JSON report (ReportSchema; `ptovec schema report`,
// schemas/report.schema.json, schemas/report-format.md), built from the generator's schema blocks
// and the eval line's definitions (ptovec/generator/schema.hpp), with the explanation names of the
// diagnosis catalogue (diagnosis.hpp).
#include <nlohmann/json.hpp>
#include <string>

#include "ptovec/generator/schema.hpp"
#include "ptovec/tools/check_report.hpp"
#include "ptovec/tools/diagnosis.hpp"

namespace ptovec::tools {

namespace {

using J = nlohmann::ordered_json;

const J kCount = {{"$ref", "#/$defs/uint64"}};
const J kString = {{"type", "string"}};
const J kNullableString = {{"type", J::array({"string", "null"})}};

// An object of exactly these properties, all required.
J Closed(const std::string& description, const J& properties) {
  J required = J::array();
  for (const auto& [key, value] : properties.items()) required.push_back(key);
  return {{"description", description},
          {"type", "object"},
          {"required", required},
          {"additionalProperties", false},
          {"properties", properties}};
}

// A string property with a description.
J Described(J schema, const std::string& description) {
  schema["description"] = description;
  return schema;
}

// "explanation": the catalogue's names (AllExplanations()).
J ExplanationName() {
  J names = J::array();
  for (const Explanation& e : AllExplanations()) names.push_back(e.name);
  return {
      {"description", "an explanation of the diagnosis catalogue (docs/bring-up.md, Diagnosis)"},
      {"enum", names}};
}

J MismatchDef() {
  const J got = {
      {"description",
       "the device's answer: its word at the destination's width and its status (hex, as the "
       "--mismatches lines give them), or \"unsupported\""},
      {"oneOf", J::array({Closed("an answer",
                                 {{"out", {{"$ref", "#/$defs/word"}}},
                                  {"flags", {{"type", "string"}, {"pattern", "^0x[0-9a-f]{2}$"}}}}),
                          {{"const", "unsupported"}}})}};
  return Closed(
      "a failed (or waived) vector",
      {{"file", Described(kString, "the vector file's name")},
       {"index", Described(kCount, "the record index within the file (0-based)")},
       {"eval_line",
        {{"description",
          "the case and its expected result as `ptovec eval` prints them "
          "(eval-line.schema.json): op, src, dst, rmode, sat, in, out, flags, "
          "in_value, out_value, flag_names"},
         {"$ref", "#/$defs/result"}}},
       {"got", got},
       {"kind", {{"enum", J::array({"wrong word", "wrong flags", "both", "unsupported"})}}},
       {"verdict", {{"enum", J::array({"mismatch", "waived", "unsupported"})}}},
       {"class", Described(kString, "the input class and outcome (the report's by-class table)")}});
}

J CauseDef() {
  const J group = Closed("a symptom group of the cause",
                         {{"group", Described({{"type", "integer"}, {"minimum", 1}},
                                              "the symptom group's number (group #N)")},
                          {"vectors", Described(kCount, "of its vectors, those of this cause")}});
  J explanation = ExplanationName();
  explanation["description"] = "the explanation, or null when none reproduces these vectors";
  explanation["enum"].push_back(nullptr);
  return Closed("one cause of the failures (the text report's \"cause N\")",
                {{"explanation", explanation},
                 {"text", Described(kString,
                                    "the explanation's name; for an unexplained cause the coarse "
                                    "signature: op, pair, Sat, word and flag differences")},
                 {"vectors", Described(kCount, "failing vectors the cause accounts for")},
                 {"symptom_groups", {{"type", "array"}, {"minItems", 1}, {"items", group}}},
                 {"explained_as_well_by",
                  {{"description", "other explanations that reproduce every one of its vectors"},
                   {"type", "array"},
                   {"items", ExplanationName()}}},
                 {"models", Described(kNullableString,
                                      "a fault model's explanation: what it models (else null)")},
                 {"first", {{"$ref", "#/$defs/mismatch"}}},
                 {"eval", Described(kString, "the `ptovec eval` command of its first vector")},
                 {"simplest", {{"$ref", "#/$defs/mismatch"}}},
                 {"simplest_eval",
                  Described(kString,
                            "the `ptovec eval` command of the simplest of the first vectors of "
                            "its symptom groups (the shrink order; `ptovec shrink --triage` "
                            "searches further)")}});
}

J GroupDef() {
  const J control = Closed(
      "a mode and Sat", {{"rmode", {{"$ref", "#/$defs/rmode"}}}, {"sat", {{"type", "boolean"}}}});
  return Closed(
      "one symptom (triage) group: the failures of one op, pair and signature",
      {{"group", Described({{"type", "integer"}, {"minimum", 1}},
                           "its number, 1-based in order of first sight (group #N)")},
       {"op", {{"enum", generator::SchemaOpNames()}}},
       {"src", {{"$ref", "#/$defs/type_name"}}},
       {"dst", {{"$ref", "#/$defs/type_name"}}},
       {"signature", Described(kString, "the signature text (`ptovec shrink --signature`)")},
       {"vectors", kCount},
       {"skipped", Described({{"type", "boolean"}},
                             "unsupported vectors that do not fail (--allow-unsupported)")},
       {"controls",
        {{"description",
          "the modes and Sats it was seen under ([]: an op without "
          "controls)"},
         {"type", "array"},
         {"items", control}}},
       {"first", {{"$ref", "#/$defs/mismatch"}}},
       {"eval", Described(kString, "the `ptovec eval` command of its first vector")}});
}

J PerControlDef() {
  const J nullable_rmode = {{"oneOf", J::array({{{"$ref", "#/$defs/rmode"}}, {{"type", "null"}}})}};
  return Closed("the vectors of one file under one mode and Sat",
                {{"file", kString},
                 {"op", {{"enum", generator::SchemaOpNames()}}},
                 {"src", {{"$ref", "#/$defs/type_name"}}},
                 {"dst", {{"$ref", "#/$defs/type_name"}}},
                 {"rmode", Described(nullable_rmode, "null for an op without controls")},
                 {"sat", {{"type", J::array({"boolean", "null"})}}},
                 {"vectors", kCount},
                 {"word", kCount},
                 {"flags", kCount},
                 {"both", kCount},
                 {"unsupported", kCount},
                 {"waived", kCount}});
}

J PairDef() {
  return Closed(
      "one op and pair (a split pair's file groups together), in run order; each count summed over "
      "the pairs is the totals' (failed: mismatched)",
      {{"op", {{"enum", generator::SchemaOpNames()}}},
       {"src", {{"$ref", "#/$defs/type_name"}}},
       {"dst", {{"$ref", "#/$defs/type_name"}}},
       {"vectors", kCount},
       {"matched", kCount},
       {"waived", kCount},
       {"failed", Described(kCount, "mismatched: no rule waives them (not the unsupported)")},
       {"unsupported", kCount}});
}

J UnsupportedDef() {
  const J control =
      Closed("a mode and Sat with unsupported vectors", {{"rmode", {{"$ref", "#/$defs/rmode"}}},
                                                         {"sat", {{"type", "boolean"}}},
                                                         {"vectors", kCount}});
  return Closed(
      "the unsupported vectors of one op and pair (the text report's line)",
      {{"op", {{"enum", generator::SchemaOpNames()}}},
       {"src", {{"$ref", "#/$defs/type_name"}}},
       {"dst", {{"$ref", "#/$defs/type_name"}}},
       {"vectors", Described(kCount, "its unsupported vectors")},
       {"pair_vectors", Described(kCount, "all its vectors")},
       {"controls",
        {{"description",
          "the modes and Sats with unsupported vectors ([]: an op without controls)"},
         {"type", "array"},
         {"items", control}}},
       {"controls_text",
        Described(kNullableString,
                  "those controls as the text report collapses them: \"all controls\", "
                  "\"every mode, Sat on\", \"RTO RHB, both Sat\" (null: an op without controls)")},
       {"symptom_groups", Described(kCount, "its symptom groups of unsupported vectors")}});
}

J PerClassDef() {
  return Closed("the vectors of one file whose first input is of one class and outcome",
                {{"file", kString},
                 {"op", {{"enum", generator::SchemaOpNames()}}},
                 {"src", {{"$ref", "#/$defs/type_name"}}},
                 {"dst", {{"$ref", "#/$defs/type_name"}}},
                 {"class", Described(kString, "the input class and outcome (\"-normal invalid\")")},
                 {"vectors", kCount},
                 {"mismatched", kCount},
                 {"unsupported", kCount}});
}

J EnvironmentDef() {
  const J strings = {{"type", "array"}, {"items", kString}};
  return Closed(
      "what the answers were checked with",
      {{"ptovec_version", Described(kString, "the ptovec that wrote the report")},
       {"spec_edition", Described(kString,
                                  "the specification edition of the answers checked, the "
                                  "vectors' (0.58.3 or 2026-09; docs/semantics.md)")},
       {"vectors", Described(kNullableString,
                             "the --vectors paths as given (several: \", \"-separated; run --op: "
                             "its work folder); null for run --exhaustive")},
       {"manifest_sha256",
        Described({{"oneOf", J::array({{{"type", "string"}, {"pattern", "^[0-9a-f]{64}$"}},
                                       {{"type", "null"}}})}},
                  "SHA-256 of the manifest.json of the vectors' folder (null: none, or several "
                  "folders)")},
       {"device", kNullableString},
       {"compare", kString},
       {"known_differences", strings}});
}

J RuleDef() {
  const J nullable_count = {{"oneOf", J::array({kCount, {{"type", "null"}}})}};
  return Closed(
      "one known-difference rule: a model's deviation or a shape rule",
      {{"name", Described(kString, "set/name")},
       {"set", kString},
       {"reason", kString},
       {"model", Described({{"type", "boolean"}}, "a behaviour model's deviation")},
       {"status", {{"enum", J::array({"waived", "stale", "not followed", "not applicable"})}}},
       {"waived", kCount},
       {"differs",
        Described(nullable_count, "a deviation: answered vectors where it changes the answer")},
       {"differs_unsupported", nullable_count},
       {"open_refused", nullable_count},
       {"scope", Described(nullable_count, "a shape rule: the run's vectors it covers")},
       {"first", {{"oneOf", J::array({{{"$ref", "#/$defs/mismatch"}}, {{"type", "null"}}})}}}});
}

J ShrunkDef() {
  const J got = MismatchDef()["properties"]["got"];
  const J counterexample = Closed(
      "the simplest failing case the shrink found",
      {{"eval_line",
        {{"description", "the case and its expected result (as a mismatch's)"},
         {"$ref", "#/$defs/result"}}},
       {"got", got},
       {"eval", Described(kString, "its `ptovec eval` command")},
       {"failure", Described(kNullableString, "the device's failure on it (crash, exit, hang)")}});
  return Closed(
      "a failure `ptovec shrink --from` shrank (with --triage: one per cause and unsupported "
      "group)",
      {{"number", Described({{"type", "integer"}, {"minimum", 1}},
                            "its number (as in shrunk-<op>-<src>-<dst>-N.bin)")},
       {"cause", Described({{"oneOf", J::array({{{"type", "integer"}, {"minimum", 1}},
                                                {{"type", "null"}}})}},
                           "the number of its cause in \"causes\" (null: an unsupported group, "
                           "or no --triage)")},
       {"label", Described(kString, "what was shrunk: the cause, the unsupported group or pair")},
       {"minimum", {{"enum", J::array({"exact", "local", "stopped", "not reproduced"})}}},
       {"start", {{"$ref", "#/$defs/mismatch"}}},
       {"counterexample", {{"oneOf", J::array({counterexample, {{"type", "null"}}})}}},
       {"file", Described(kNullableString, "the counterexample file written")}});
}

J TotalsDef() {
  J props = J::object();
  for (const char* key : {"files", "vectors", "matched", "mismatched", "waived", "unsupported",
                          "word", "flags", "both", "flags_reversed", "flags_reversed_two_bits"}) {
    props[key] = kCount;
  }
  return Closed("the run's counts (files, vectors)", props);
}

J ReportProperties() {
  const J strings = {{"type", "array"}, {"items", kString}};
  const auto array_of = [](const char* def) {
    return J{{"type", "array"}, {"items", {{"$ref", std::string("#/$defs/") + def}}}};
  };
  return {
      {"format", {{"const", "ptovec-report"}}},
      {"version", {{"const", kReportJsonVersion}}},
      {"device", Described(kNullableString, "the device's name (null when unknown)")},
      {"passed", {{"type", "boolean"}}},
      {"compare",
       {{"description", "the comparison policy: word+flags, word or word+flags:NV,OF,..."},
        {"type", "string"},
        {"pattern", "^(word\\+flags|word|word\\+flags:(NV|DZ|OF|UF|NX)(,(NV|DZ|OF|UF|NX))*)$"}}},
      {"compare_description", kString},
      {"known_differences", Described(strings, "the --known-differences sets, in order")},
      {"allow_unsupported", {{"type", "boolean"}}},
      {"environment", {{"$ref", "#/$defs/environment"}}},
      {"totals", {{"$ref", "#/$defs/totals"}}},
      {"pairs", array_of("pair")},
      {"unsupported", array_of("unsupported")},
      {"causes", array_of("cause")},
      {"symptom_groups", array_of("group")},
      {"per_control", array_of("per_control")},
      {"per_class", array_of("per_class")},
      {"known_difference_rules", array_of("rule")},
      {"incomplete", Described(kNullableString, "why and where a run stopped early")},
      {"scope", Described(kNullableString, "check --rmode/--sat: what was left out")},
      {"run_judged", Described(kNullableString, "check: the run's own policy, when another")},
      {"device_failures", Described(strings, "each time the device crashed, exited or hung")},
      {"notes", strings},
      {"shrunk", Described(array_of("shrunk"), "shrink --from: each failure shrunk (else empty)")}};
}

}  // namespace

nlohmann::ordered_json ReportSchema() {
  J s = generator::SchemaDocument(
      "report.schema.json", "ptovec run/check --report-json",
      "The whole report of a check or run (report-format.md): its environment, totals, the counts "
      "per pair, the unsupported vectors by pair, the causes of the failures (the diagnosis), "
      "every "
      "symptom (triage) group, the counts per file, mode and Sat and per input class, and the "
      "known-difference rules. Counts are vectors.");
  const J properties = ReportProperties();
  J required = J::array();
  for (const auto& [key, value] : properties.items()) required.push_back(key);
  s["type"] = "object";
  s["required"] = required;
  s["additionalProperties"] = false;
  s["properties"] = properties;
  J defs = generator::EvalLineSchema()["$defs"];
  defs.erase("error");
  defs["totals"] = TotalsDef();
  defs["mismatch"] = MismatchDef();
  defs["cause"] = CauseDef();
  defs["group"] = GroupDef();
  defs["per_control"] = PerControlDef();
  defs["environment"] = EnvironmentDef();
  defs["pair"] = PairDef();
  defs["unsupported"] = UnsupportedDef();
  defs["per_class"] = PerClassDef();
  defs["rule"] = RuleDef();
  defs["shrunk"] = ShrunkDef();
  s["$defs"] = defs;
  return s;
}

}  // namespace ptovec::tools
