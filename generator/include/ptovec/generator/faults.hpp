// The fault-model catalogue: named faults of kinds seen in real conversion hardware and software,
// each an exact alternative semantics: the oracle's bulk path (the op registry's `evaluate`, i.e.
// the proven Fast* paths of oracle/include/ptovec/oracle/fast.hpp) with one fault injected by
// transforming the inputs, the controls, the exact value or the result. Where a fault does not
// apply it answers as the oracle. The gate's diagnosis asks each model whether it reproduces a
// device's answer; tests/mutants builds one mutant device per model (docs/mutants.md) and proves
// that the default suite and the shrinker catch each one. docs/faults.md lists them.
//
// Integers only (no cpp_rational per call): a fault costs about one oracle evaluation, two at
// most.
#pragma once

#include <optional>
#include <span>
#include <string_view>

#include "ptovec/generator/cases.hpp"
#include "ptovec/generator/ops.hpp"
#include "ptovec/oracle/edition.hpp"

namespace ptovec::generator {

/// Whether a fault model is one of the generic explanations a diagnosis tries anyway (a rounding
/// mode computed as another, Sat ignored or always on, double rounding, a behaviour-model
/// deviation), so that it is not listed twice.
enum class FaultKind : std::uint8_t {
  /// A fault of its own: no generic explanation computes it.
  Own,
  /// Exactly FaultModel::generic wherever that applies (same ops, same answers): a diagnosis
  /// trying the generic explanations need not try this model.
  Generic,
  /// FaultModel::generic restricted to the ops and pairs of FaultModel::applies (the model's
  /// `affects`): where it applies it answers as the generic explanation, elsewhere as the oracle.
  /// A generic explanation reproduces each of its failures, but predicts failures elsewhere too.
  NarrowedGeneric,
};

/// What a generic explanation computes.
enum class GenericKind : std::uint8_t {
  None,            ///< a fault of its own (FaultKind::Own)
  ModeAs,          ///< the rounding mode `from` (every mode: nullopt) computed as `to`
  SatIgnored,      ///< every control computed with Sat off
  SatAlwaysOn,     ///< every control computed with Sat on
  DoubleRounding,  ///< rounded first to `through` under RNE (Sat off), then under the control
  Deviation,       ///< the behaviour model with the single oracle::Deviation `deviation`
  /// The op of edition `edition` (same name, pair and control; EditionAsOp) instead of the case's
  /// own: a device that implements another edition of the specification (0.58.3's raw-word TCVT
  /// run against 2026-09's by-value vectors, or the reverse).
  EditionAs,
};

/// The generic explanation a fault model equals (FaultKind::Generic or NarrowedGeneric).
struct GenericExplanation {
  GenericKind kind = GenericKind::None;
  std::optional<NumericRoundingMode> from;  ///< ModeAs: the mode replaced; nullopt: every mode
  NumericRoundingMode to = NumericRoundingMode::RNE;  ///< ModeAs: the mode computed instead
  TileDataType through = TileDataType::FP32;          ///< DoubleRounding: the intermediate type
  oracle::Deviation deviation = oracle::Deviation::IEEEOverflow;  ///< Deviation
  /// Deviation InvalidInteger: the word convention (never Open: an open word reproduces nothing).
  oracle::InvalidIntegerWord invalid_integer = oracle::InvalidIntegerWord::Clamp;
  /// Deviation E4M3InfNaN: the NaN word (never Open).
  oracle::NaNWord nan = oracle::NaNWord::PositiveQuiet;
  oracle::Edition edition = oracle::kDefaultEdition;  ///< EditionAs: the edition answered by
  /// One line in the report's words: "mode RNE as RNA", "Sat ignored", "deviation signed-zero".
  std::string_view text;
};

/// One fault model of the catalogue.
struct FaultModel {
  /// The product name, kebab-case in the spec's and the field's terms: "e8m0-floor-every-mode".
  std::string_view name;
  /// The mutant device's name (snake_case): its library ptovec_mutant_<mutant>, its
  /// ptovec_dut_name() and its row of docs/mutants.md: "e8m0_floor_every_mode".
  std::string_view mutant;
  std::string_view models;   ///< one line: the real bug it models
  std::string_view affects;  ///< the ops and pairs where it can differ from the oracle, in words
  /// The registry op names (OpDef::name) where it can differ from the oracle; on every other op
  /// it answers as the oracle (tests/mutants checks this on samples of the default suite).
  std::span<const std::string_view> ops;
  FaultKind kind = FaultKind::Own;
  GenericExplanation generic;  ///< kind != Own: the generic explanation it equals
  /// Cheap filter: false when the fault cannot change any answer of (op, pair) (an op outside
  /// `ops`, or a pair it does not touch); true may still agree with the oracle everywhere.
  bool (*applies)(const OpDef& op, TypePair pair) = nullptr;
  /// The faulty answer (same shapes and throws as the op's `evaluate`); use EvaluateFault.
  Encoded (*evaluate)(const Case& c) = nullptr;
};

/// Every fault model, in a fixed order (that of docs/faults.md and docs/mutants.md).
std::span<const FaultModel> AllFaultModels();

/// The fault model whose product name or mutant name is `name`, or nullptr.
const FaultModel* FindFaultModel(std::string_view name);

/// The oracle's answer for a case: `c.op->evaluate` (the result word in the destination's
/// element-width encoding, the 5-bit status). Throws what the op throws for inputs outside the
/// seed's domain.
Encoded EvaluateOracle(const Case& c);

/// The fault model's answer for `c` (same shapes and throws as EvaluateOracle): equal to
/// EvaluateOracle wherever the fault does not apply (always where `fault.applies` is false).
Encoded EvaluateFault(const FaultModel& fault, const Case& c);

/// The answer of the generic explanation `g` for `c` (same shapes as EvaluateOracle), or nullopt
/// where `g` cannot change the answer of `c`: ModeAs when c's mode is not `from` (or is `to`),
/// SatIgnored with Sat off, SatAlwaysOn with Sat on (and both for ops without controls),
/// DoubleRounding outside `encode` to a floating type coarser than `through` from another type,
/// Deviation on an op without a behaviour model (OpDef::evaluate_model), EditionAs where
/// EditionAsOp is nullptr or the inputs are outside that op's domain. DoubleRounding rounds the
/// exact value to `through` under RNE without Sat (an overflow there: nullopt), then that value
/// to the destination under c's control, the two steps' flags OR-ed (sticky hardware flags).
/// Throws what the op throws (e.g. fpatr under a control illegal for its input).
std::optional<Encoded> EvaluateGeneric(const GenericExplanation& g, const Case& c);

/// The op of `edition` that answers case `c` for an EditionAs explanation, or nullptr where it
/// cannot change c's answer: c's op is of `edition` already; `edition` has no op of that name
/// (tquant in 2026-09), or one that follows the same text (the same seed_function and
/// seed_source: encode, shift, qparam, affine and fpatr are the same rules in both editions);
/// the pair is not legal there, or the control not among that pair's controls (2026-09's E6M2
/// pairs: RNE and RNA). Cheap (the inputs are not read).
const OpDef* EditionAsOp(oracle::Edition edition, const Case& c);

/// "own", "generic", "narrowed-generic".
std::string_view FaultKindName(FaultKind kind);

}  // namespace ptovec::generator
