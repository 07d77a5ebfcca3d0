// The op registry: one entry per vector op (name, seed function, input slots, legal type pairs,
// evaluation, domain check, default input domain). `generate`, `eval`, `list`, the writers and the
// schema all derive from it, so a new op is one new file in generator/src/ops/ plus one line in
// ops.cpp's list.
#pragma once

#include <array>
#include <bit>
#include <bitset>
#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "ptovec/oracle/behaviour.hpp"
#include "ptovec/oracle/edition.hpp"
#include "ptovec/oracle/formats.hpp"
#include "ptovec/oracle/rounding.hpp"

namespace rc {
template <typename T>
class Gen;  // rapidcheck/Gen.h; OpDef::input_space returns one (include domains.hpp to call it)
}  // namespace rc

namespace ptovec::generator {

struct SampleStrategy;  // sampler.hpp: a named, weighted sampling strategy
struct DomainPlan;      // domains.hpp: how one pair's inputs are chosen

using oracle::Encoded;
using oracle::NumericExecutionControl;
using oracle::NumericRoundingMode;
using oracle::Status;
using oracle::TileDataType;
using oracle::Word;

/// The most input slots any op has.
inline constexpr std::size_t kMaxSlots = 5;

/// A source/destination type pair of an op, and which file group of it (OpDef::file_groups).
struct TypePair {
  TileDataType src;
  TileDataType dst;
  /// 0: the whole pair (what `eval`, devices, `shrink` and the op's checks take). k > 0: the
  /// k-th of the file groups OpDef::file_groups names for a pair whose files are split, e.g.
  /// fpatr s32 -> s16 into PreQuantModes 12/13 (1 control) and 19/20 (14 controls): its own
  /// domain, controls, file name, header and manifest entry.
  std::uint8_t group = 0;
  /// The whole pair (group 0).
  TypePair Whole() const { return {src, dst}; }
  friend bool operator==(const TypePair&, const TypePair&) = default;
};

/// Where an input slot's type comes from.
enum class SlotRole : std::uint8_t {
  Source,       ///< the op's --src type
  Destination,  ///< the op's --dst type
  Fixed,        ///< a fixed type (Slot::fixed_type), e.g. FP32 for a scale, FP19 for B.FPATR
};

/// One input of an op, in the order of the seed function's parameters.
struct Slot {
  std::string name;  ///< "value", "scale", "zero_point", ...
  SlotRole role;
  TileDataType fixed_type;  ///< used when role == Fixed
  std::string description;  ///< one line: what the word holds and its domain

  TileDataType TypeFor(TypePair pair) const {
    return role == SlotRole::Source        ? pair.src
           : role == SlotRole::Destination ? pair.dst
                                           : fixed_type;
  }
};

/// A floating value held in a bit field of an integer input word (OpDef::value_fields), e.g.
/// the FP19 scale in bits 31:13 of fpatr's quant_param.
struct ValueField {
  std::size_t slot = 0;  ///< the input slot whose word holds it
  unsigned low_bit = 0;  ///< the field's lowest bit; it is Format(type).width bits wide
  TileDataType type = TileDataType::FP19;
};

/// Inputs of one case: element-width words, slot by slot (only the first slots.size() are used).
using Inputs = std::array<Word, kMaxSlots>;

/// Options that shape sampled domains.
struct SamplingOptions {
  std::uint64_t seed = 1;  ///< RapidCheck seed; each (op, src, dst) derives its own from it
  std::uint64_t samples =
      100000;  ///< sampled input tuples per (op, src, dst) with a sampled domain
};

/// What one named sampling strategy contributed to a sampled input set (headers, manifests).
struct StrategyCount {
  std::string name;
  int weight = 0;
  std::uint64_t available = 0;  ///< distinct tuples it owns (not in an earlier strategy); a lower
                                ///< bound for a walked strategy (sampler.hpp) unless counted
  std::uint64_t tuples = 0;     ///< tuples taken into the sample
};

/// The input tuples of one (op, src, dst): random access so generation can be chunked, run in
/// parallel and sharded with bounded memory. `at(i)` and `fill` must be pure functions of their
/// arguments.
struct InputSet {
  std::uint64_t count = 0;
  std::string kind;  ///< "exhaustive" or "sampled" (written into headers and manifests)
  std::function<Inputs(std::uint64_t index)> at;
  /// Writes tuples begin .. begin+n-1 to out (faster than n calls of at for sampled sets).
  std::function<void(std::uint64_t begin, std::uint64_t n, Inputs* out)> fill;
  /// For sampled sets: each named strategy and what it contributed, in strategy order.
  std::vector<StrategyCount> strategies;
  /// fill when set, else at() n times.
  void Fill(std::uint64_t begin, std::uint64_t n, Inputs* out) const {
    if (fill) {
      fill(begin, n, out);
    } else {
      for (std::uint64_t k = 0; k < n; ++k) out[k] = at(begin + k);
    }
  }
};

/// Evaluates one case. Inputs are element-width words; the result word is the destination's
/// element-width encoding (low bits of the seed's carrier word). Throws
/// oracle::SeedAssertionFailure (or std::domain_error) for inputs outside the seed's domain.
using EvaluateFn = std::function<Encoded(TypePair, const Inputs&, NumericExecutionControl)>;

/// Evaluates n inputs under each of `controls`: out[i * controls.size() + c] is input i under
/// control c. The same results as `EvaluateFn` called n * controls.size() times.
using EvaluateBatchFn =
    std::function<void(TypePair, const Inputs* in, std::size_t n,
                       std::span<const NumericExecutionControl> controls, Encoded* out)>;

/// A behaviour model's answer for one case (oracle/behaviour.hpp): the result in the
/// destination's element width, the deviations that made it differ from the profile's, and
/// whether the model leaves the word open. Same domain and throws as EvaluateFn.
using EvaluateModelFn = std::function<oracle::ModelAnswer(
    TypePair, const Inputs&, NumericExecutionControl, const oracle::Behaviour&)>;

struct OpDef;

/// One outcome class of an op's coverage table (`ptovec coverage`, docs/coverage.md): a name in
/// the field's terms ("tie rounded up", "Sat clamp") and one line saying when a vector hits it.
struct OutcomeClass {
  std::string name;
  std::string description;
  /// One side of a threshold whose other side is a twin class of the same table ("rounds to the
  /// minimum from below" / "from above"): the pair holds both sides, so the smoke suite asks one
  /// input of each (SelectSmokeInputs, SmokeShortfall::TwinSide).
  bool twin_side = false;
};

/// The classes a vector hits, as bits of the whole table of its pair (coverage.hpp
/// CoverageClasses): bits 0..13 the report's input classes (VectorClass::input), 14..18 its
/// outcomes (VectorClass::outcome), bit kOpClassBit + k the op's own class k. A vector may hit
/// several. 128 bits: fpatr's table has, per PreQuantMode of a pair (up to 4), its ReluModes,
/// special accumulators and the classes of the mode's last step (up to 99 classes: FP32 ->
/// FP32, FP16, BF16, three modes of 33).
inline constexpr unsigned kClassBits = 128;
using ClassMask = std::bitset<kClassBits>;
/// The first bit of an op's own classes in a ClassMask.
inline constexpr unsigned kOpClassBit = 19;
/// The most classes an op's own table may have.
inline constexpr unsigned kMaxOpClasses = kClassBits - kOpClassBit;
/// The mask with only bit k set.
inline ClassMask ClassBit(std::size_t k) { return ClassMask{}.set(k); }
/// Calls f(k) for each set bit k of m, in increasing order (64 bits at a time).
template <typename F>
void ForEachClassBit(const ClassMask& m, F f) {
  const ClassMask low_word{~std::uint64_t{0}};
  for (unsigned base = 0; base < kClassBits; base += 64) {
    for (std::uint64_t w = ((m >> base) & low_word).to_ullong(); w != 0; w &= w - 1) {
      f(base + static_cast<unsigned>(std::countr_zero(w)));
    }
  }
}

/// Sets out[c] to the op's own classes (bit k: class k of the table, not yet shifted by
/// kOpClassBit) that input `in` hits under controls[c], given its expected result expected[c].
using ClassifyFn =
    std::function<void(const Inputs& in, std::span<const NumericExecutionControl> controls,
                       const Encoded* expected, ClassMask* out)>;

/// The two sides of the threshold of one of an op's own classes (OutcomeClassTable::thresholds):
/// e.g. tcvt's "at the sqrt(2) threshold" has the source code just below sqrt(2) * 2^k on side 0
/// and the code just above it on side 1. The smoke suite takes, for each (control, class) cell,
/// inputs from both sides when the default domain has both (coverage.hpp SelectSmokeInputs,
/// docs/coverage.md "The smoke suite"); a class without one is split by the generic side, the
/// sign of the source value (coverage.hpp kGenericSides).
struct ClassThreshold {
  std::string class_name;            ///< a class of the same table (OutcomeClass::name)
  std::array<std::string, 2> sides;  ///< what side 0 and side 1 are, in the field's terms
};

/// The op's own outcome classes for one pair and their classifier; optionally the thresholds of
/// some of them and which side of each an input lies on.
struct OutcomeClassTable {
  OutcomeClassTable() = default;
  OutcomeClassTable(std::vector<OutcomeClass> classes_, ClassifyFn classify_)
      : classes(std::move(classes_)), classify(std::move(classify_)) {}

  std::vector<OutcomeClass> classes;  ///< at most kMaxOpClasses
  ClassifyFn classify;                ///< empty when classes is empty
  /// The classes that have a threshold of their own (by name), with the names of its sides.
  std::vector<ClassThreshold> thresholds;
  /// Set when `thresholds` is not empty: out[c] gets bit k (not shifted by kOpClassBit) when
  /// input `in`, under controls[c] with result expected[c], lies on side 1 of class k's
  /// threshold. Only the bits of classes in `thresholds` that the input hits are read; it is a
  /// function of the input's exact value (and the result), like `classify`.
  ClassifyFn side;
};

/// A selection of controls (rounding modes and Sat values), as --rmode and --sat give it.
struct ControlFilter {
  std::vector<NumericRoundingMode> modes;  ///< the selected modes, in mode order; empty: all
  std::vector<bool> sat;                   ///< the selected Sat values (false first); empty: both
  bool all() const { return modes.empty() && sat.empty(); }
  bool Accepts(NumericExecutionControl c) const;
  /// The controls of `controls` it accepts, in their order.
  std::vector<NumericExecutionControl> Apply(
      const std::vector<NumericExecutionControl>& controls) const;
  /// The controls a file of `op` holds under this filter: the accepted ones of ControlsFor(op)
  /// for an op with controls; an op without controls keeps its one {RNE, off} (no mode applies
  /// to it, so no filter narrows it).
  std::vector<NumericExecutionControl> ControlsOf(const OpDef& op) const;
  /// The controls a file of (op, pair) holds under this filter: the accepted ones of
  /// ControlsFor(op, pair) (an op without controls keeps its one {RNE, off}).
  std::vector<NumericExecutionControl> ControlsOf(const OpDef& op, TypePair pair) const;
  /// "all" or e.g. "RNE,RTZ; Sat off".
  std::string Describe() const;
  friend bool operator==(const ControlFilter&, const ControlFilter&) = default;
};

/// Parses --rmode (comma-separated mode names, or "all") and --sat ("off", "on" or "both").
/// Throws std::invalid_argument with one line naming the bad value and what is accepted.
ControlFilter ParseControlFilter(const std::string& rmodes, const std::string& sat);

/// Checks inputs against the op's domain before evaluation: nullopt when accepted, otherwise a
/// one-line message naming the bad value and what is accepted.
using CheckDomainFn = std::function<std::optional<std::string>(TypePair, const Inputs&)>;

/// Checks a control against one input tuple (OpDef::check_control): nullopt when the control is
/// legal for these inputs, otherwise a one-line message naming the control and what is accepted.
using CheckControlFn =
    std::function<std::optional<std::string>(TypePair, const Inputs&, NumericExecutionControl)>;

/// The domain plan of one pair (domains.hpp DomainPlan): every source code, or named strategies.
using DomainPlanFn = std::function<DomainPlan(TypePair)>;

/// Builds the default input domain of one pair.
using DomainFn = std::function<InputSet(TypePair, const SamplingOptions&)>;

/// The number of input tuples DomainFn would build, without building it.
using DomainCountFn = std::function<std::uint64_t(TypePair, const SamplingOptions&)>;

/// The op's whole input space for one legal pair, as a RapidCheck generator (for `ptovec shrink`):
/// a mix of the op's named sampling strategies (exhaustive 8/16-bit sources: uniform codes and
/// the interesting codes) and a uniform strategy over the whole domain. Every value it yields, and
/// every shrink candidate of its shrink tree (domains.hpp ShrinkInputs: words toward 0, smaller
/// exponents and fractions), is accepted by check_domain. Built by domains.hpp InputSpace.
using InputSpaceFn = std::function<rc::Gen<Inputs>(TypePair)>;

/// One op of the registry.
struct OpDef {
  /// The edition whose registry holds this entry (AllOps(edition)); an op whose rules did not
  /// change has one entry per edition, each built by the same Make function.
  oracle::Edition edition = oracle::kDefaultEdition;
  std::string name;           ///< CLI name: "tcvt"
  std::string instruction;    ///< the spec's instruction or helper: "TCVT"
  std::string seed_function;  ///< "TileProfileConvert"
  std::string seed_source;    ///< "001_c13013f58bb35bbc.txt lines 154-168"
  std::string summary;        ///< one line for `list` and the schema
  /// The class of an input tuple for reports (VectorClass::value): by default the value class
  /// of slot 0 (DefaultInputClass); an op may define its own.
  std::function<std::uint8_t(TypePair, const Inputs&)> input_class;
  /// A caution shown wherever a pair is offered (`list`, `eval`) when the pair's behaviour reads
  /// like a bug but is the seed's rule (tcvt to non-E8M0 types copies the word); "" for none.
  std::function<std::string(TypePair)> pair_note;
  std::vector<Slot> slots;
  /// Optional: floating values held in bit fields of integer slots (at most one per slot).
  /// `shrink` orders such a word by the field's value and moves the field by binades and
  /// significands as it does a floating word (tools shrink.hpp SimplicityKey, SimplerMoves).
  std::vector<ValueField> value_fields;
  /// Optional: the values slot `i` (an integer word of at most 8 bits: a mode) takes somewhere in
  /// the pair's domain, in increasing order (fpatr: the pair's PreQuantModes, ReluMode 0..3).
  /// `shrink` tries these as the slot's values in its jump moves and its simpler values. Unset,
  /// or empty for a slot: jump moves treat the slot as any integer word (a zero point, a shift),
  /// and its simpler values are every value of its width.
  std::function<std::vector<Word>(TypePair, std::size_t slot)> slot_values;
  /// false: the op has no rounding mode and no Sat; its vectors record RNE and Sat off only.
  bool uses_controls = true;
  std::vector<TypePair> legal_pairs;  ///< every pair `eval` and `generate --op` accept
  /// Optional: the one-line reason the op's rule gives for refusing a pair that is not in
  /// legal_pairs (tcvt of 2026-09: the Refusal2026_09 of HardwareTCVTTypePairSupported). Unset:
  /// MakeCase says only that the pair is not accepted.
  std::function<std::string(TypePair)> pair_refusal;
  std::vector<TypePair> default_suite_pairs;  ///< the pairs of the default suite
  EvaluateFn evaluate;                        ///< the bulk path (may be a proven-equal fast path)
  EvaluateFn evaluate_reference;              ///< the literal seed transliteration
  /// A faster batch form of `evaluate` (optional; EvaluateBatch falls back to `evaluate`).
  EvaluateBatchFn evaluate_batch;
  /// Optional, for an op where a behaviour model's deviations can apply (encode, tdequant): the
  /// model's answer, fast form and literal form (proven equal by tests/generator). Unset: every
  /// model answers as the profile (EvaluateModel).
  EvaluateModelFn evaluate_model;
  EvaluateModelFn evaluate_model_reference;
  CheckDomainFn check_domain;
  /// Optional, for an op whose legal controls depend on its inputs (fpatr: the B.DATR fields
  /// BundleFPATRDATRFieldsLegal allows for the input's PreQuantMode). Unset: every control of
  /// ControlsFor(op) is legal for every input. `eval` refuses an illegal control with its line;
  /// `shrink` draws and shrinks legal controls only (LegalControl).
  CheckControlFn check_control;
  /// Optional: the controls every input of one pair's domain is legal under, so its files hold
  /// inputs x these controls (ControlsFor(op, pair); docs/architecture.md "Controls that depend on
  /// the input"). Unset: ControlsFor(op) for every pair.
  std::function<std::vector<NumericExecutionControl>(TypePair)> pair_controls;
  /// Optional: the names of the file groups of a pair whose inputs do not share one set of legal
  /// controls (fpatr s32 -> s16: "pqm12-13", "pqm19-20"); group k of the pair is TypePair{src,
  /// dst, k} (1-based), with its own plan and pair_controls. Empty for a pair kept in one file.
  /// The default suite, `generate` and `run` write a split pair's groups (FilePairs), one file
  /// set each, named "<op>_<src>_<dst>_<group>" with "group" in header and manifest.
  std::function<std::vector<std::string>(TypePair)> file_groups;
  /// What the op declares about its inputs: one plan per pair (domains.hpp DomainPlan). The four
  /// members below derive from it when the registry is built (DeriveFromPlan); an op sets
  /// none of them itself.
  DomainPlanFn plan;
  DomainFn domain;
  DomainCountFn domain_count;
  InputSpaceFn input_space;  ///< the whole input space with RapidCheck shrinking (see above)
  /// The named strategies of a sampled pair's default domain, in order (empty for a pair whose
  /// domain is exhaustive; tdequant: empty, its values and zero points are exhaustive and its
  /// scales come from its own scale strategies). Include sampler.hpp to call it.
  std::function<std::vector<SampleStrategy>(TypePair)> strategies;
  /// The op's own outcome classes of a pair (coverage.hpp), beside the report's input and
  /// outcome classes that every op has; unset: only those (an op without a table of its own).
  std::function<OutcomeClassTable(TypePair)> outcome_classes;
};

/// Every op of edition 0.58.3 (the default), in a fixed order.
const std::vector<OpDef>& AllOps();
/// Every op of `edition`, in a fixed order (0.58.3: AllOps(); 2026-09: tcvt by value, encode,
/// shift, qparam, affine and fpatr as in 0.58.3, no tquant or tdequant).
const std::vector<OpDef>& AllOps(oracle::Edition edition);

/// The op of edition 0.58.3 named `name` (case-insensitive), or nullptr.
const OpDef* FindOp(std::string_view name);
/// The op of `edition` named `name` (case-insensitive), or nullptr.
const OpDef* FindOp(std::string_view name, oracle::Edition edition);

/// "tcvt, encode, ..." (the ops of edition 0.58.3) for error messages.
std::string OpNamesList();
/// The names of the ops of `edition`, comma-separated.
std::string OpNamesList(oracle::Edition edition);

/// An op of an earlier edition that `edition` retired: its name and why, in one line.
struct RetiredOp {
  std::string name;         ///< "tquant"
  std::string instruction;  ///< "TQUANT"
  std::string reason;       ///< "retired by ADR-TILE-0013 ...: from publication 0.58.5.1 ..."
};
/// The ops of earlier editions that `edition` no longer has (2026-09: tquant and tdequant).
const std::vector<RetiredOp>& RetiredOps(oracle::Edition edition);
/// The retired op of `edition` named `name` (case-insensitive), or nullptr.
const RetiredOp* FindRetiredOp(std::string_view name, oracle::Edition edition);

/// True when `pair` is one of op.legal_pairs, or a file group (1 to the number of
/// op.file_groups) of one of them.
bool IsLegalPair(const OpDef& op, TypePair pair);

/// The names of the file groups of `pair` (op.file_groups of its whole pair; empty when unset or
/// the pair is kept in one file).
std::vector<std::string> FileGroups(const OpDef& op, TypePair pair);
/// The name of pair.group ("" for group 0 or an unknown group).
std::string FileGroupName(const OpDef& op, TypePair pair);
/// The pairs whose files make up `pair`'s: its file groups {src, dst, 1..n} when op splits it,
/// else {pair}.
std::vector<TypePair> FilePairs(const OpDef& op, TypePair pair);

/// How a vector is classed in reports ("every subnormal is wrong"): the class of its input (by
/// default the value class of the first input, sign included: +zero, -subnormal, +inf, qnan, or
/// for an integer input zero, +int, -int) and the outcome its expected status says (invalid for
/// NV, overflow for OF, underflow for UF, inexact for NX, else exact; the first that applies).
struct VectorClass {
  std::uint8_t input = 0;     ///< 0 .. kInputClasses - 1
  std::uint8_t outcome = 0;   ///< 0 .. kOutcomes - 1
  std::size_t index() const;  ///< input * kOutcomes + outcome
};
inline constexpr std::size_t kInputClasses = 14;
inline constexpr std::size_t kOutcomes = 5;
inline constexpr std::size_t kVectorClasses = kInputClasses * kOutcomes;
inline std::size_t VectorClass::index() const { return input * kOutcomes + outcome; }
/// The input class of slot 0's word: NumericValueClass order for floating types (0 invalid
/// encoding .. 10 signaling NaN: qnan, snan), 11 zero, 12 +int, 13 -int for
/// integer types.
std::uint8_t DefaultInputClass(const OpDef& op, TypePair pair, const Inputs& in);
/// The input class of a case: op.input_class, or DefaultInputClass.
std::uint8_t InputClassOf(const OpDef& op, TypePair pair, const Inputs& in);
/// The outcome class of an expected status (see VectorClass).
std::uint8_t OutcomeOf(Status status);
/// The class of a case with its expected result: {InputClassOf, OutcomeOf(expected.status)}.
VectorClass ClassOf(const OpDef& op, TypePair pair, const Inputs& in, Encoded expected);
/// "+subnormal inexact", "zero exact", "nan invalid", ...
std::string VectorClassName(std::size_t index);

/// op.evaluate_batch when the op has one, else op.evaluate for every input and control.
void EvaluateBatch(const OpDef& op, TypePair pair, const Inputs* in, std::size_t n,
                   std::span<const NumericExecutionControl> controls, Encoded* out);

/// op.evaluate_model when the op has one, else the profile's answer with no deviation applied.
oracle::ModelAnswer EvaluateModel(const OpDef& op, TypePair pair, const Inputs& in,
                                  NumericExecutionControl control,
                                  const oracle::Behaviour& behaviour);

/// The controls every input is evaluated under: all 7 modes x Sat off/on (mode-major, Sat off
/// first) when op.uses_controls, else just {RNE, off}.
std::vector<NumericExecutionControl> ControlsFor(const OpDef& op);

/// The controls the files of (op, pair) hold: op.pair_controls(pair) when set, else
/// ControlsFor(op); always a subset of ControlsFor(op) in its order.
std::vector<NumericExecutionControl> ControlsFor(const OpDef& op, TypePair pair);

/// `control` when op.check_control accepts it for `in` (or the op has none); otherwise the first
/// of {RNE, control's Sat}, {RNE, off} that it accepts (for generators that draw the control
/// apart from the inputs: shrink).
NumericExecutionControl LegalControl(const OpDef& op, TypePair pair, const Inputs& in,
                                     NumericExecutionControl control);

/// The seed of one (op, src, dst) derived from the user's seed, so a file does not depend on
/// which other files are generated alongside it.
std::uint64_t DerivedSeed(std::uint64_t seed, const OpDef& op, TypePair pair);

}  // namespace ptovec::generator
