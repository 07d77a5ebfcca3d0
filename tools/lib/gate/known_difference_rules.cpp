// One rule of a known-difference document (RuleParser, known_difference_rules.hpp): its keys,
// name and reason, op, type, control and input conditions, and its word and flags conditions.
#include "gate/known_difference_rules.hpp"

#include <algorithm>
#include <string>
#include <utility>
#include <vector>

#include "ptovec/generator/cases.hpp"
#include "ptovec/generator/ops.hpp"
#include "ptovec/generator/writers.hpp"
#include "ptovec/oracle/rounding.hpp"

namespace ptovec::tools::known_difference_rules {

namespace {

using generator::InputError;
using nlohmann::json;

bool IsResultClass(std::string_view name) {
  static constexpr std::string_view kNames[] = {
      "+0",       "-0",       "+subnormal", "-subnormal", "+normal", "-normal",
      "+largest", "-largest", "+inf",       "-inf",       "nan",     "invalid",
      "0",        "min",      "max",        "+int",       "-int"};
  return std::find(std::begin(kNames), std::end(kNames), name) != std::end(kNames);
}

std::string_view DifferenceNameAt(std::size_t k) {
  return WordDifferenceName(static_cast<WordDifference>(k));
}

constexpr std::size_t kWordDifferenceCount = static_cast<std::size_t>(WordDifference::Other) + 1;

}  // namespace

std::string KnownInputClassName(std::size_t k) { return InputClassName(k); }

std::string AcceptedInputClasses() {
  std::string out;
  for (std::size_t k = 0; k < generator::kInputClasses; ++k) {
    out += (k ? ", " : "") + KnownInputClassName(k);
  }
  return out;
}

bool IsFloatingClassPattern(std::string_view name) {
  return name == "inf" || name == "largest" || name == "normal" || name == "subnormal" ||
         name == "0";
}

RuleParser::RuleParser(std::string origin, std::string set)
    : origin_(std::move(origin)), set_(std::move(set)) {}

void RuleParser::Refuse(const std::string& where, const std::string& what) const {
  throw InputError("known differences " + origin_ + ": " + where + ": " + what);
}

std::vector<std::string> RuleParser::Strings(const json& value, const std::string& where) const {
  std::vector<std::string> out;
  if (value.is_string()) {
    out.push_back(value.get<std::string>());
  } else if (value.is_array() && !value.empty()) {
    for (const json& v : value) {
      if (!v.is_string()) Refuse(where, "expected strings, got " + v.dump());
      out.push_back(v.get<std::string>());
    }
  } else {
    Refuse(where, "expected a string or a non-empty array of strings, got " + value.dump());
  }
  return out;
}

std::optional<Status> RuleParser::Flags(const json& value, const std::string& where) const {
  if (!value.is_string()) Refuse(where, "expected flag names such as \"OF|NX\" or \"-\"");
  const std::optional<Status> bits = ParseFlagNames(value.get<std::string>());
  if (!bits) {
    Refuse(where,
           "'" + value.get<std::string>() +
               "' is not a set of status flags (NV DZ OF UF NX joined by '|', '-' for none)");
  }
  return bits;
}

KnownDifferenceRule RuleParser::Rule(const json& r, std::size_t index) const {
  std::string where = "rule " + std::to_string(index);
  if (!r.is_object()) Refuse(where, "a rule is an object");
  CheckKeys(r, where);
  KnownDifferenceRule rule;
  rule.set = set_;
  where = NameAndReason(r, where, rule);
  Ops(r, where, rule);
  Types(r, "src", where, rule.src);
  Types(r, "dst", where, rule.dst);
  Controls(r, where, rule);
  if (r.contains("input")) {
    for (const std::string& name : Strings(r["input"], where + " input")) {
      rule.inputs |= ParseOneInputClass(name, where);
    }
  }
  if (r.contains("word")) WordCondition(r["word"], where, rule);
  if (r.contains("flags")) FlagsCondition(r["flags"], where, rule);
  RefuseVacuous(where, rule);
  return rule;
}

void RuleParser::CheckKeys(const json& r, const std::string& where) const {
  static const std::vector<std::string> kKeys{"name",  "reason", "see",   "op",   "src",  "dst",
                                              "rmode", "sat",    "input", "word", "flags"};
  for (const auto& [key, value] : r.items()) {
    if (std::find(kKeys.begin(), kKeys.end(), key) == kKeys.end()) {
      Refuse(where, "unknown key \"" + key +
                        "\" (accepted: name, reason, see, op, src, dst, "
                        "rmode, sat, input, word, flags)");
    }
  }
}

std::string RuleParser::NameAndReason(const json& r, std::string where,
                                      KnownDifferenceRule& rule) const {
  if (!r.contains("name") || !r["name"].is_string() || r["name"].get<std::string>().empty()) {
    Refuse(where, "every rule needs a \"name\" (a non-empty string)");
  }
  rule.name = r["name"].get<std::string>();
  where += " (" + rule.name + ")";
  if (!r.contains("reason") || !r["reason"].is_string() || r["reason"].get<std::string>().empty()) {
    Refuse(where, "every rule needs a \"reason\" saying why the device differs");
  }
  rule.reason = r["reason"].get<std::string>();
  if (r.contains("see")) {
    if (!r["see"].is_string()) Refuse(where, "\"see\" is a string");
    rule.see = r["see"].get<std::string>();
  }
  return where;
}

void RuleParser::Ops(const json& r, const std::string& where, KnownDifferenceRule& rule) const {
  if (!r.contains("op")) return;
  for (const std::string& name : Strings(r["op"], where + " op")) {
    const generator::OpDef* op = generator::FindOp(name);
    if (op == nullptr) Refuse(where, "unknown op '" + name + "' (`ptovec list` names them)");
    rule.ops.push_back(op);
  }
}

void RuleParser::Types(const json& r, const char* key, const std::string& where,
                       std::vector<TypeCondition>& out) const {
  if (!r.contains(key)) return;
  for (const std::string& name : Strings(r[key], where + " " + key)) {
    TypeCondition t;
    if (name == "float") {
      t.kind = TypeCondition::Kind::Floating;
    } else if (name == "integer") {
      t.kind = TypeCondition::Kind::Integer;
    } else if (const auto type = oracle::ParseTileDataType(name)) {
      t.type = *type;
    } else {
      Refuse(where,
             std::string(key) + " '" + name + "' is not a type name, \"float\" or \"integer\"");
    }
    out.push_back(t);
  }
}

void RuleParser::Controls(const json& r, const std::string& where,
                          KnownDifferenceRule& rule) const {
  if (r.contains("rmode")) {
    rule.rmodes = 0;
    for (const std::string& name : Strings(r["rmode"], where + " rmode")) {
      const auto mode = oracle::ParseRoundingMode(name);
      if (!mode) Refuse(where, "rmode '" + name + "' (accepted: RNE RTM RTP RTZ RNA RTO RHB)");
      rule.rmodes |= static_cast<std::uint8_t>(1U << static_cast<unsigned>(*mode));
    }
  }
  if (r.contains("sat")) {
    const json& s = r["sat"];
    const std::string v = s.is_string() ? s.get<std::string>() : std::string();
    if (v == "off") {
      rule.sats = 1;
    } else if (v == "on") {
      rule.sats = 2;
    } else if (v == "both") {
      rule.sats = 3;
    } else {
      Refuse(where, "sat " + s.dump() + " (accepted: \"off\", \"on\", \"both\")");
    }
  }
}

void RuleParser::RefuseVacuous(const std::string& where, const KnownDifferenceRule& rule) const {
  if (rule.word == KnownDifferenceRule::WordRule::Any &&
      rule.flags == KnownDifferenceRule::FlagsRule::Any) {
    Refuse(where,
           "\"word\": \"any\" with \"flags\": \"any\" would waive every mismatch "
           "(say which difference the rule explains)");
  }
  if (rule.word == KnownDifferenceRule::WordRule::Same &&
      rule.flags == KnownDifferenceRule::FlagsRule::Same) {
    Refuse(where,
           "\"word\" and \"flags\" both \"same\" (the defaults) explain no mismatch "
           "(say which difference the rule explains)");
  }
}

std::uint32_t RuleParser::ParseOneInputClass(const std::string& name,
                                             const std::string& where) const {
  for (std::size_t k = 0; k < generator::kInputClasses; ++k) {
    if (KnownInputClassName(k) == name) return 1U << k;
  }
  Refuse(where, "input class '" + name + "' (accepted: " + AcceptedInputClasses() + ")");
}

template <typename Kind>
bool RuleParser::SameOrAny(const json& v, const std::string& where, const char* accepted,
                           Kind& kind) const {
  if (v == "same") {
    kind = Kind::Same;
    return true;
  }
  if (v == "any") {
    kind = Kind::Any;
    return true;
  }
  if (!v.is_object() || v.empty()) Refuse(where, accepted);
  kind = Kind::Shape;
  return false;
}

void RuleParser::WordCondition(const json& w, const std::string& where,
                               KnownDifferenceRule& rule) const {
  if (SameOrAny(w, where,
                "\"word\" is \"same\", \"any\" or an object of \"expected\", \"got\", "
                "\"difference\"",
                rule.word)) {
    return;
  }
  for (const auto& [key, value] : w.items()) {
    if (key == "expected" || key == "got") {
      for (const std::string& name : Strings(value, where + " word." + key)) {
        if (!IsResultClass(name) && !IsFloatingClassPattern(name)) {
          Refuse(where, "word." + key + " '" + name +
                            "' is not a result class (+0 -0 +subnormal -subnormal +normal "
                            "-normal +largest -largest +inf -inf nan invalid; 0 subnormal "
                            "normal largest inf either sign; integers 0 min max +int -int)");
        }
        (key == "expected" ? rule.word_expected : rule.word_got).push_back({name});
      }
    } else if (key == "difference") {
      for (const std::string& name : Strings(value, where + " word.difference")) {
        std::size_t k = 0;
        while (k < kWordDifferenceCount && DifferenceNameAt(k) != name) ++k;
        if (k == kWordDifferenceCount) {
          std::string names;
          for (std::size_t i = 0; i < kWordDifferenceCount; ++i) {
            names += (i ? ", " : "") + std::string(DifferenceNameAt(i));
          }
          Refuse(where, "word.difference '" + name + "' (accepted: " + names + ")");
        }
        rule.word_difference.push_back(static_cast<WordDifference>(k));
      }
    } else {
      Refuse(where, "unknown key word." + key + " (accepted: expected, got, difference)");
    }
  }
}

void RuleParser::FlagsCondition(const json& f, const std::string& where,
                                KnownDifferenceRule& rule) const {
  if (SameOrAny(f, where,
                "\"flags\" is \"same\", \"any\" or an object of \"expected\", \"got\", "
                "\"missing\", \"extra\"",
                rule.flags)) {
    return;
  }
  for (const auto& [key, value] : f.items()) {
    if (key == "expected") {
      rule.flags_expected = Flags(value, where + " flags.expected");
    } else if (key == "got") {
      rule.flags_got = Flags(value, where + " flags.got");
    } else if (key == "missing") {
      rule.flags_missing = Flags(value, where + " flags.missing");
    } else if (key == "extra") {
      rule.flags_extra = Flags(value, where + " flags.extra");
    } else {
      Refuse(where, "unknown key flags." + key + " (accepted: expected, got, missing, extra)");
    }
  }
}

}  // namespace ptovec::tools::known_difference_rules
