// Known-difference rules, their files and built-in sets, and the Judge (known_differences.hpp).
#include "ptovec/tools/known_differences.hpp"

#include <algorithm>
#include <bit>
#include <fstream>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "gate/known_difference_rules.hpp"
#include "ptovec/generator/cases.hpp"
#include "ptovec/generator/ops.hpp"
#include "ptovec/generator/writers.hpp"
#include "ptovec/oracle/rounding.hpp"
#include "ptovec/tools/diagnosis.hpp"

namespace ptovec::tools {

namespace {

using generator::InputError;
using nlohmann::json;

using known_difference_rules::AcceptedInputClasses;
using known_difference_rules::IsFloatingClassPattern;
using known_difference_rules::KnownInputClassName;
using known_difference_rules::RuleParser;

}  // namespace

bool TypeCondition::Accepts(oracle::TileDataType t) const {
  switch (kind) {
    case Kind::Type:
      return t == type;
    case Kind::Floating:
      return oracle::Format(t).IsFloating();
    case Kind::Integer:
      return !oracle::Format(t).IsFloating();
  }
  return false;
}

bool ClassPattern::Accepts(std::string_view result_class, std::string_view expected_class,
                           bool is_got) const {
  if (name == result_class) return true;
  if (!IsFloatingClassPattern(name) || result_class.size() < 2) return false;
  const char sign = result_class[0];
  if ((sign != '+' && sign != '-') || result_class.substr(1) != name) return false;
  // In "got", an unsigned pattern takes the expected word's sign (an expected class without a
  // sign, E8M0's or a NaN, has none to take: either sign).
  if (!is_got || expected_class.empty()) return true;
  const char want = expected_class[0];
  return (want != '+' && want != '-') || want == sign;
}

bool KnownDifferenceRule::AppliesTo(const generator::OpDef& op, generator::TypePair pair) const {
  if (!ops.empty() && std::find(ops.begin(), ops.end(), &op) == ops.end()) return false;
  const auto any = [](const std::vector<TypeCondition>& conditions, oracle::TileDataType t) {
    return conditions.empty() || std::any_of(conditions.begin(), conditions.end(),
                                             [t](const TypeCondition& c) { return c.Accepts(t); });
  };
  return any(src, pair.src) && any(dst, pair.dst);
}

bool KnownDifferenceRule::AppliesTo(const generator::NumericExecutionControl& control) const {
  return ((rmodes >> static_cast<unsigned>(control.rounding_mode)) & 1U) != 0 &&
         ((sats >> (control.saturating ? 1U : 0U)) & 1U) != 0;
}

bool KnownDifferenceRule::Explains(const Case& c, std::uint8_t input_class, const Encoded& expected,
                                   const DeviceAnswer& got, const ComparePolicy& policy) const {
  if (!AppliesTo(*c.op, c.pair)) return false;
  if (c.op->uses_controls && !AppliesTo(c.control)) return false;
  if (inputs != 0 && ((inputs >> input_class) & 1U) == 0) return false;
  const oracle::Word ew = expected.word;
  const oracle::Word gw = got.result.word;
  switch (word) {
    case WordRule::Same:
      if (ew != gw) return false;
      break;
    case WordRule::Any:
      break;
    case WordRule::Shape: {
      const std::string_view ec = ResultClass(c.pair.dst, ew);
      const std::string_view gc = ResultClass(c.pair.dst, gw);
      const auto any_of = [&](const std::vector<ClassPattern>& patterns, std::string_view cls,
                              bool is_got) {
        return patterns.empty() ||
               std::any_of(patterns.begin(), patterns.end(),
                           [&](const ClassPattern& p) { return p.Accepts(cls, ec, is_got); });
      };
      if (!any_of(word_expected, ec, false) || !any_of(word_got, gc, true)) return false;
      if (!word_difference.empty()) {
        const WordDifference d = WordDifferenceOf(c.pair.dst, ew, gw);
        if (std::find(word_difference.begin(), word_difference.end(), d) == word_difference.end()) {
          return false;
        }
      }
      break;
    }
  }
  const Status mask = policy.flags;
  const Status es = expected.status;
  const Status gs = got.result.status & mask;
  switch (flags) {
    case FlagsRule::Same:
      if ((es & mask) != gs) return false;
      break;
    case FlagsRule::Any:
      break;
    case FlagsRule::Shape:
      if (flags_expected && es != *flags_expected) return false;
      if (flags_got && gs != (*flags_got & mask)) return false;
      if (flags_missing && (es & mask & ~gs) != (*flags_missing & mask)) return false;
      if (flags_extra && (gs & ~es) != (*flags_extra & mask)) return false;
      break;
  }
  return true;
}

KnownDifferences ParseKnownDifferences(const json& doc, const std::string& origin) {
  const auto refuse = [&](const std::string& what) {
    throw InputError("known differences " + origin + ": " + what);
  };
  if (!doc.is_object()) refuse("expected a JSON object");
  if (!doc.contains("format") || doc["format"] != kKnownDifferencesFormat) {
    refuse("\"format\" must be \"" + std::string(kKnownDifferencesFormat) + "\"");
  }
  if (!doc.contains("version") || (doc["version"] != 1 && doc["version"] != 2)) {
    refuse("\"version\" must be 2 (or 1, rules only; this ptovec writes version " +
           std::to_string(kKnownDifferencesVersion) + ")");
  }
  const bool v2 = doc["version"] == 2;
  for (const auto& [key, value] : doc.items()) {
    if (key != "format" && key != "version" && key != "name" && key != "description" &&
        key != "rules" && !(v2 && key == "model")) {
      refuse("unknown key \"" + key + "\" (accepted: format, version, name, description, " +
             (v2 ? "model, rules)" : "rules; \"model\" needs version 2)"));
    }
  }
  if (!doc.contains("name") || !doc["name"].is_string() || doc["name"].get<std::string>().empty() ||
      doc["name"].get<std::string>().find('/') != std::string::npos) {
    refuse("\"name\" must be a non-empty string without '/' (reports name rules <name>/<rule>)");
  }
  const bool has_model = doc.contains("model");
  if (doc.contains("rules") && (!doc["rules"].is_array() || doc["rules"].empty())) {
    refuse("\"rules\" must be a non-empty array (or left out when \"model\" is given)");
  }
  if (!has_model && !doc.contains("rules")) {
    refuse("give \"model\" (a behaviour model, docs/semantics.md) or \"rules\" (shape rules)");
  }
  KnownDifferences out;
  const std::string name = doc["name"].get<std::string>();
  if (has_model) {
    out.AddModel(name, ParseModel(doc["model"], origin));
  } else {
    out.sets.push_back(name);
  }
  if (!doc.contains("rules")) return out;
  RuleParser parser(origin, name);
  for (std::size_t i = 0; i < doc["rules"].size(); ++i) {
    KnownDifferenceRule rule = parser.Rule(doc["rules"][i], i);
    for (const KnownDifferenceRule& other : out.rules) {
      if (other.name == rule.name) refuse("two rules are named '" + rule.name + "'");
    }
    out.rules.push_back(std::move(rule));
  }
  return out;
}

namespace {

// Appends `part` (one argument's models and rules) to `out`, renumbering its model indices.
void Append(KnownDifferences& out, KnownDifferences part) {
  const std::size_t model_base = out.models.size();
  const std::size_t rule_base = out.rules.size();
  for (KnownModel& m : part.models) {
    for (std::size_t& r : m.rule) {
      if (r != kNoModel) r += rule_base;
    }
    out.models.push_back(std::move(m));
  }
  for (KnownDifferenceRule& r : part.rules) {
    if (r.model != kNoModel) r.model += model_base;
    out.rules.push_back(std::move(r));
  }
}

}  // namespace

KnownDifferences LoadKnownDifferences(const std::vector<std::string>& arguments) {
  KnownDifferences out;
  for (const std::string& argument : arguments) {
    KnownDifferences part;
    if (argument.find('/') == std::string::npos &&
        !(argument.size() > 5 && argument.substr(argument.size() - 5) == ".json")) {
      const oracle::NamedModel* model = oracle::FindBuiltinModel(argument);
      if (model == nullptr) {
        throw InputError(
            "--known-differences '" + argument +
            "' is not a built-in model (built in: " + BuiltinKnownDifferenceSetsList() +
            "; a file is named by a path with '/' or ending in .json)");
      }
      part.AddModel(argument, model->behaviour);
    } else {
      std::ifstream in(argument, std::ios::binary);
      if (!in) {
        throw InputError("--known-differences " + argument +
                         ": cannot read the file (give a readable known-differences JSON file "
                         "or a built-in model: " +
                         BuiltinKnownDifferenceSetsList() + ")");
      }
      std::stringstream buffer;
      buffer << in.rdbuf();
      json doc;
      try {
        doc = json::parse(buffer.str());
      } catch (const json::parse_error& e) {
        throw InputError("known differences " + argument + ": not JSON (" + e.what() + ")");
      }
      part = ParseKnownDifferences(doc, argument);
    }
    if (std::find(out.sets.begin(), out.sets.end(), part.sets.front()) != out.sets.end()) {
      throw InputError("--known-differences " + argument + ": a set named '" + part.sets.front() +
                       "' is already given (each set once; set names must differ)");
    }
    out.sets.push_back(part.sets.front());
    Append(out, std::move(part));
  }
  return out;
}

std::uint32_t ParseInputClasses(const std::string& text) {
  std::uint32_t out = 0;
  std::size_t start = 0;
  while (start <= text.size()) {
    std::size_t end = text.find(',', start);
    if (end == std::string::npos) end = text.size();
    const std::string name = text.substr(start, end - start);
    std::size_t k = 0;
    while (k < generator::kInputClasses && KnownInputClassName(k) != name) ++k;
    if (k == generator::kInputClasses) {
      throw InputError("--class '" + name + "' is not an input class (accepted: " +
                       AcceptedInputClasses() + ", comma-separated)");
    }
    out |= 1U << k;
    start = end + 1;
  }
  return out;
}

Verdict Judge::Of(const Case& c, std::uint8_t input_class, const Encoded& expected,
                  const DeviceAnswer& got, std::size_t* rule) const {
  if (!got.supported) return Verdict::Unsupported;
  if (Matches(expected, got)) return Verdict::Match;
  for (const KnownModel& m : known.models) {
    const oracle::ModelAnswer a =
        generator::EvaluateModel(*c.op, c.pair, c.in, c.control, m.behaviour);
    if (!ModelExplains(a, got, policy)) continue;
    if (rule) *rule = m.rule[static_cast<std::size_t>(std::countr_zero(a.applied))];
    return Verdict::Waived;
  }
  for (std::size_t k = 0; k < known.rules.size(); ++k) {
    if (known.rules[k].model == kNoModel &&
        known.rules[k].Explains(c, input_class, expected, got, policy)) {
      if (rule) *rule = k;
      return Verdict::Waived;
    }
  }
  return Verdict::Mismatch;
}

Encoded Judge::DiagnosisBaseOf(const oracle::ModelAnswer& a, const Encoded& expected) {
  return a.applied != 0 && !a.word_open ? a.result : expected;
}

Encoded Judge::DiagnosisBase(const Case& c, const Encoded& expected) const {
  if (known.models.empty()) return expected;
  return DiagnosisBaseOf(
      generator::EvaluateModel(*c.op, c.pair, c.in, c.control, known.models.front().behaviour),
      expected);
}

bool Judge::Counts(const Case& c, const Encoded& expected, const DeviceAnswer& got) const {
  if (Matches(expected, got)) return false;
  if (!got.supported && allow_unsupported) return false;
  const std::uint8_t input_class = generator::InputClassOf(*c.op, c.pair, c.in);
  if (input_classes != 0 && ((input_classes >> input_class) & 1U) == 0) return false;
  if (got.supported && Of(c, input_class, expected, got) != Verdict::Mismatch) return false;
  if (signature) {
    const Signature s = SignatureOf(c, input_class, expected, got, policy);
    if (SignatureText(*c.op, s) != *signature) return false;
  }
  if (explanation && !Explains(AllExplanations()[*explanation], c, expected, got, policy,
                               DiagnosisBase(c, expected))) {
    return false;
  }
  return true;
}

}  // namespace ptovec::tools
