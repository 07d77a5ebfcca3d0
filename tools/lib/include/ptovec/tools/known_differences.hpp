// Known differences: what a device does on purpose where it differs from the profile, and the
// Judge that applies the comparison policy and them to every answer of run, check and shrink.
// First of all behaviour models (oracle/behaviour.hpp): the built-in `ieee754`, `riscv`, `x86`
// and `arm`, or a file's composition of deviations; a model waives a mismatch only where the
// device's answer equals the model's exactly. Shape rules over output classes stay as a last
// resort in files. The file format is schemas/known-differences-format.md (`ptovec schema
// known-differences`).
#pragma once

#include <array>
#include <cstdint>
#include <limits>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "ptovec/generator/cases.hpp"
#include "ptovec/generator/ops.hpp"
#include "ptovec/oracle/behaviour.hpp"
#include "ptovec/oracle/formats.hpp"
#include "ptovec/oracle/numeric.hpp"
#include "ptovec/tools/compare.hpp"
#include "ptovec/tools/device.hpp"

namespace ptovec::tools {

/// Format name and version of a known-differences file.
inline constexpr std::string_view kKnownDifferencesFormat = "ptovec-known-differences";
/// The version this ptovec writes and reads (2: "model"); version 1 files (rules only) are read.
inline constexpr int kKnownDifferencesVersion = 2;

/// KnownDifferenceRule::model of a shape rule (not a model's deviation).
inline constexpr std::size_t kNoModel = std::numeric_limits<std::size_t>::max();

/// A type condition of a rule: one type, or every floating ("float") or integer ("integer") type.
struct TypeCondition {
  enum class Kind : std::uint8_t { Type, Floating, Integer } kind = Kind::Type;
  oracle::TileDataType type{};
  bool Accepts(oracle::TileDataType t) const;
};

/// A result-class pattern of a rule's "word" condition: a ResultClass name ("+inf", "-0",
/// "max"), or a floating class without its sign ("inf", "largest", "normal", "subnormal", "0"):
/// in "expected" either sign, in "got" the sign of the expected word.
struct ClassPattern {
  std::string name;  ///< as written
  bool Accepts(std::string_view result_class, std::string_view expected_class, bool is_got) const;
};

/// One entry of the waiver list: a behaviour model's deviation (model != kNoModel: the Judge asks
/// the model, the conditions below are unused), or a shape rule. For a shape rule every
/// condition given must hold for a mismatch to be waived; a missing condition
/// holds always. A rule applies to a vector when its op, types, mode and Sat conditions hold
/// (whether it then explains a mismatch or not): a rule that applies to vectors of a run but
/// explains none of them is stale (the report lists it).
struct KnownDifferenceRule {
  std::string set;     ///< the file's "name" (a built-in set's name)
  std::string name;    ///< unique within the set
  std::string reason;  ///< why the device differs (one sentence or more)
  std::string see;     ///< a reference (spec-notes section, standard clause), may be empty
  std::size_t model = kNoModel;   ///< a model deviation: the index in KnownDifferences::models
  oracle::Deviation deviation{};  ///< which deviation, when model != kNoModel
  std::vector<const generator::OpDef*> ops;  ///< empty: every op
  std::vector<TypeCondition> src, dst;       ///< empty: every type
  std::uint8_t rmodes = 0x7F;                ///< bit k: NumericRoundingMode k
  std::uint8_t sats = 3;                     ///< bit 0: Sat off, bit 1: Sat on
  std::uint32_t inputs = 0;  ///< bit k: input class k (generator::InputClassOf); 0 any
  /// "word": Same (the words are equal), Any (not looked at), or Shape (the patterns below).
  enum class WordRule : std::uint8_t { Same, Any, Shape } word = WordRule::Same;
  std::vector<ClassPattern> word_expected, word_got;  ///< any of (empty: any class)
  std::vector<WordDifference> word_difference;        ///< any of (empty: any)
  /// "flags": Same (equal on the compared bits), Any, or Shape (each given one must hold).
  enum class FlagsRule : std::uint8_t { Same, Any, Shape } flags = FlagsRule::Same;
  std::optional<Status> flags_expected;  ///< the oracle's whole status equals this
  std::optional<Status> flags_got;       ///< the device's status equals this on the compared bits
  std::optional<Status> flags_missing;   ///< compared bits expected but not raised: exactly these
  std::optional<Status> flags_extra;     ///< compared bits raised but not expected: exactly these

  /// The op, types, mode and Sat conditions.
  bool AppliesTo(const generator::OpDef& op, generator::TypePair pair) const;
  bool AppliesTo(const generator::NumericExecutionControl& control) const;
  /// Whether the rule explains a mismatch (expected != got under `policy`) of case `c`, whose
  /// input class is `input_class`. `got` must be supported.
  bool Explains(const Case& c, std::uint8_t input_class, const Encoded& expected,
                const DeviceAnswer& got, const ComparePolicy& policy) const;
  /// "x86/ieee-overflow" (set/name), how reports name it.
  std::string FullName() const { return set + "/" + name; }
};

/// A behaviour model of --known-differences: a built-in model or a file's "model".
struct KnownModel {
  std::string name;  ///< the set's name ("ieee754", a file's "name")
  oracle::Behaviour behaviour;
  /// The index in KnownDifferences::rules of each deviation's entry (kNoModel when the model
  /// does not have it).
  std::array<std::size_t, oracle::kDeviationCount> rule{};
};

/// Every --known-differences argument, in order: models and shape rules.
struct KnownDifferences {
  std::vector<std::string> sets;  ///< each argument's set name, in order
  std::vector<KnownModel> models;
  std::vector<KnownDifferenceRule> rules;  ///< each model's deviations, then each file's rules
  bool empty() const { return rules.empty(); }
  /// Adds model `m` (named `set`) and one rule entry per deviation it has.
  void AddModel(const std::string& set, const oracle::Behaviour& behaviour);
};

/// The names of the built-in models ("ieee754", "riscv", "x86", "arm").
std::vector<std::string> BuiltinKnownDifferenceSets();
/// The same, comma-separated, for error lines: "ieee754, riscv, x86, arm".
std::string BuiltinKnownDifferenceSetsList();

/// Reads a file's "model" (a model name, or {"base", "add", "remove", "invalid-integer",
/// "nan"}); throws generator::InputError naming `origin` and the bad field.
oracle::Behaviour ParseModel(const nlohmann::json& model, const std::string& origin);

/// Whether a model's answer explains the device's: the answer differs from the profile's, the
/// word equals (an open word: not compared, and then only under a full policy: under --compare
/// word or --flags an open word waives nothing) and the compared status bits equal.
bool ModelExplains(const oracle::ModelAnswer& model, const DeviceAnswer& got,
                   const ComparePolicy& policy);

/// Parses one known-differences document (already read as JSON); `origin` names it in errors.
/// Throws generator::InputError with one line naming the origin, the rule and the bad field.
KnownDifferences ParseKnownDifferences(const nlohmann::json& doc, const std::string& origin);

/// Loads each argument of --known-differences: a built-in set's name, or a path (containing
/// '/' or ending in ".json") of a known-differences file. Rules keep argument order; a set given
/// twice, or two sets with one name, are refused. Throws generator::InputError.
KnownDifferences LoadKnownDifferences(const std::vector<std::string>& arguments);

/// The JSON Schema (draft 2020-12) of a known-differences file (`ptovec schema
/// known-differences`).
nlohmann::ordered_json KnownDifferencesSchema();

/// What the gate makes of one answer.
enum class Verdict : std::uint8_t {
  Match,        ///< the word and the compared status bits agree
  Waived,       ///< a mismatch a known-difference rule explains
  Mismatch,     ///< a mismatch no rule explains: fails the gate
  Unsupported,  ///< the device did not answer (fails unless --allow-unsupported)
};

/// The comparison policy and known differences of a run, check or shrink, and for shrink the
/// failure it minimises (--signature, --class).
struct Judge {
  ComparePolicy policy;
  KnownDifferences known;
  bool allow_unsupported = false;  ///< unsupported answers do not fail (and never shrink)
  /// shrink only: a failure counts only with this signature (SignatureText), when set.
  std::optional<std::string> signature;
  /// Whether a check or run diagnoses its mismatches (diagnosis.hpp: the report's causes);
  /// --no-diagnosis turns it off (the report then has no causes; a passing run costs the same).
  bool diagnose = true;
  /// shrink only (--triage): a failure counts only when this explanation (an index in
  /// AllExplanations(), diagnosis.hpp) reproduces it, when set.
  std::optional<std::size_t> explanation;
  /// shrink only: a failure counts only when its input class is one of these (bit k: class k;
  /// 0: any) (--class).
  std::uint32_t input_classes = 0;

  /// What the diagnosis transforms for its flag explanations (flags reversed, a flag never
  /// raised): the answer of the first known-difference model where it differs from the profile
  /// and names its word, else `expected` (the oracle's answer for `c`).
  Encoded DiagnosisBase(const Case& c, const Encoded& expected) const;
  /// The same from the first model's answer `a` already computed.
  static Encoded DiagnosisBaseOf(const oracle::ModelAnswer& a, const Encoded& expected);

  /// The fast test: supported, same word (devices' words arrive cut to the destination's width)
  /// and the same compared status bits (ComparePolicy::FlagsMatch: bits 7:5 always compared).
  bool Matches(const Encoded& expected, const DeviceAnswer& got) const {
    return got.supported && got.result.word == expected.word &&
           policy.FlagsMatch(expected.status, got.result.status);
  }
  /// The verdict on `got` for case `c` (input class `input_class`); `rule` receives the index in
  /// known.rules of the entry that waived it: the first model that explains it (its lowest
  /// applied deviation), else the first shape rule.
  Verdict Of(const Case& c, std::uint8_t input_class, const Encoded& expected,
             const DeviceAnswer& got, std::size_t* rule = nullptr) const;
  /// shrink: whether the answer is a counterexample to minimise: a Mismatch (or an Unsupported
  /// answer without allow_unsupported) that has `signature` and an input class of
  /// `input_classes` when those are set.
  bool Counts(const Case& c, const Encoded& expected, const DeviceAnswer& got) const;
  /// Nothing but the default: every status bit, no rules, no filter.
  bool plain() const {
    return policy.full() && known.empty() && !allow_unsupported && !signature && !explanation &&
           input_classes == 0;
  }
};

/// Parses --class values for shrink: input class names as reports print them ("+normal",
/// "-subnormal", "qnan", ...), comma-separated. Throws generator::InputError naming the bad one
/// and the accepted names.
std::uint32_t ParseInputClasses(const std::string& text);

}  // namespace ptovec::tools
