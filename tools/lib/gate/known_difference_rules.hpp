// Private to ptovec_tools' known differences (known_differences.cpp, known_difference_rules.cpp):
// reading one rule of a known-difference document, and the class names rules and --input accept.
#pragma once

#include <cstddef>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "ptovec/tools/known_differences.hpp"

namespace ptovec::tools::known_difference_rules {

/// The name of input class k as rules write it.
std::string KnownInputClassName(std::size_t k);
/// Every input class name, comma-separated (for error lines).
std::string AcceptedInputClasses();
/// A floating class a rule may give without its sign ("inf", "largest", "normal", ...).
bool IsFloatingClassPattern(std::string_view name);

/// Reads the rules of one document of set `set`; every error is an InputError naming `origin`,
/// the rule and what is wrong.
class RuleParser {
 public:
  RuleParser(std::string origin, std::string set);

  /// Rule `index` of the document.
  KnownDifferenceRule Rule(const nlohmann::json& r, std::size_t index) const;

 private:
  [[noreturn]] void Refuse(const std::string& where, const std::string& what) const;
  // A string or an array of strings, as a list.
  std::vector<std::string> Strings(const nlohmann::json& value, const std::string& where) const;
  std::optional<Status> Flags(const nlohmann::json& value, const std::string& where) const;
  // Rule's parts, each reading its key (when present) into `rule`; `where` names the rule.
  void CheckKeys(const nlohmann::json& r, const std::string& where) const;
  std::string NameAndReason(const nlohmann::json& r, std::string where,
                            KnownDifferenceRule& rule) const;  // returns where with the name
  void Ops(const nlohmann::json& r, const std::string& where, KnownDifferenceRule& rule) const;
  void Types(const nlohmann::json& r, const char* key, const std::string& where,
             std::vector<TypeCondition>& out) const;
  void Controls(const nlohmann::json& r, const std::string& where,
                KnownDifferenceRule& rule) const;  // "rmode" and "sat"
  std::uint32_t ParseOneInputClass(const std::string& name, const std::string& where) const;
  // "same" or "any" into `kind` (true: nothing more to read); else Shape, `v` refused (with
  // `accepted`) unless it is a non-empty object of conditions.
  template <typename Kind>
  bool SameOrAny(const nlohmann::json& v, const std::string& where, const char* accepted,
                 Kind& kind) const;
  void WordCondition(const nlohmann::json& w, const std::string& where,
                     KnownDifferenceRule& rule) const;
  void FlagsCondition(const nlohmann::json& f, const std::string& where,
                      KnownDifferenceRule& rule) const;
  // Refuses a rule that would waive every mismatch or none.
  void RefuseVacuous(const std::string& where, const KnownDifferenceRule& rule) const;

  std::string origin_;
  std::string set_;
};

}  // namespace ptovec::tools::known_difference_rules
