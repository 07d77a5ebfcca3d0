// Outcome coverage (`ptovec coverage`, `generate --suite smoke`, docs/coverage.md): the class
// table of every (op, pair), made of the report's input and outcome classes (VectorClass) and the
// op's own classes (OpDef::outcome_classes); counts of the vectors of a suite hitting each class
// under each control; the witness table that shows which classes are reachable; and the greedy
// multi-cover that picks the smoke suite (smoke_selection.cpp).
#pragma once

#include <array>
#include <cstdint>
#include <map>
#include <nlohmann/json.hpp>
#include <span>
#include <string>
#include <vector>

#include "ptovec/facts.h"
#include "ptovec/generator/ops.hpp"
#include "ptovec/generator/readers.hpp"
#include "ptovec/generator/suite.hpp"
#include "ptovec/oracle/edition.hpp"

namespace ptovec::generator {

/// The generic sides of a class without a threshold of its own: side 0 a source word whose
/// sign bit is clear, side 1 one whose sign bit is set (slot 0's word, FormatInfo::SignBit: -0
/// and a NaN with the bit set are negative; an unsigned source is always on side 0).
inline const std::array<std::string, 2> kGenericSides = {"positive source", "negative source"};

/// One class of a pair's table and its bit in a ClassMask.
struct CoverageClass {
  std::string name;
  std::string description;
  unsigned bit = 0;
  /// What side 0 and side 1 of the class are (PairClassifier::Sides): the op's own threshold
  /// (OutcomeClassTable::thresholds) or kGenericSides.
  std::array<std::string, 2> sides;
  bool own_threshold = false;  ///< sides are the class's own threshold, not kGenericSides
  bool twin_side = false;      ///< OutcomeClass::twin_side of an op's own class
};

/// The class table of one pair, in order: the report's input classes of slot 0's kind (floating:
/// NumericValueClass; integer: zero, +int, -int), its five outcomes (VectorClass::outcome), then
/// op.outcome_classes(pair) (none for an op without a table of its own).
std::vector<CoverageClass> CoverageClasses(const OpDef& op, TypePair pair);

/// Classifies the vectors of one pair: the report's classes (InputClassOf, OutcomeOf) and the
/// op's own classifier, as one ClassMask per vector.
class PairClassifier {
 public:
  PairClassifier(const OpDef& op, TypePair pair);
  const std::vector<CoverageClass>& classes() const { return classes_; }
  /// out[c]: the classes input `in` hits under controls[c] with expected result expected[c].
  void Classify(const Inputs& in, std::span<const NumericExecutionControl> controls,
                const Encoded* expected, ClassMask* out) const;
  /// out[c]: bit k set when `in` (under controls[c], with expected result expected[c]) lies on
  /// side 1 of class k (CoverageClass::sides): for a class with a threshold of its own, the
  /// op's OutcomeClassTable::side; for every other class, the sign bit of slot 0's word. A bit
  /// means something only where Classify sets the class's bit.
  void Sides(const Inputs& in, std::span<const NumericExecutionControl> controls,
             const Encoded* expected, ClassMask* out) const;

 private:
  const OpDef* op_;
  TypePair pair_;
  std::vector<CoverageClass> classes_;
  OutcomeClassTable own_;
  ClassMask own_thresholds_;  ///< the bits of the classes with a threshold of their own
  Word sign_bit_ = 0;         ///< slot 0's sign bit (0 for an unsigned source)
};

/// The index 0..13 of a control (mode-major, Sat off first, as ControlsFor lists them).
inline std::size_t ControlSlot(NumericExecutionControl c) {
  return static_cast<std::size_t>(c.rounding_mode) * 2 + (c.saturating ? 1 : 0);
}
inline constexpr std::size_t kControlSlots = PTOVEC_FACTS_CONTROLS;

/// Vectors per class bit of one (op, pair, control).
using ClassCounts = std::array<std::uint64_t, kClassBits>;

/// The coverage of one (op, pair): vectors per control slot, and per class under each slot.
struct PairCoverage {
  const OpDef* op = nullptr;
  TypePair pair{};
  std::array<std::uint64_t, kControlSlots> vectors{};
  std::array<ClassCounts, kControlSlots> counts{};
};

/// Key of a pair: "op src dst".
std::string PairKey(const OpDef& op, TypePair pair);

/// Reads every vector of the selection and counts, per (op, pair, control), the vectors hitting
/// each class, in suite order. The files must be of one edition (the ops' classes are that
/// edition's): a second edition is refused with one line naming a file of each. Throws
/// InputError as VectorReader does.
std::vector<PairCoverage> CountCoverage(const VectorSelection& selection);

/// One (op, pair) of a coverage scope and the controls it holds there (bit ControlSlot).
struct ScopePair {
  const OpDef* op = nullptr;
  TypePair pair{};  ///< the whole pair (group 0)
  std::uint16_t slots = 0;
};

/// The default suite's scope, which `coverage` requires unless told `--scope present`: every
/// (op, pair) of DefaultSuite(edition), in its order, with the controls its files hold (the
/// union of ControlsFor over a split pair's file groups).
std::vector<ScopePair> DefaultSuiteScope(oracle::Edition edition = oracle::kDefaultEdition);

/// One witness: an input of a pair and the controls (bit ControlSlot) under which it hits a class.
struct Witness {
  const char* op;
  const char* src;
  const char* dst;
  const char* class_name;
  std::uint16_t controls;  ///< bit ControlSlot(c) for each control under which it hits the class
  std::array<Word, kMaxSlots> inputs;
};

/// The witness table of `edition` (generator/src/suite/coverage_witnesses.inc, written by
/// `ptovec coverage --find-witnesses F`; of 2026-09 coverage_witnesses_2026_09.inc, by
/// `ptovec coverage --find-witnesses F --edition 2026-09`): the reachable classes of every pair
/// of that edition's default suite.
std::span<const Witness> Witnesses(oracle::Edition edition = oracle::kDefaultEdition);

/// The reachable classes of a pair: per control slot, the bits some witness of the op's edition
/// (Witnesses(op.edition)) shows reachable. Empty (all zero) for a pair without witnesses.
std::array<ClassMask, kControlSlots> ReachableClasses(const OpDef& op, TypePair pair);

/// Searches the default domain of every pair of the default suite of `edition` (seed `seed`,
/// `samples` samples per sampled pair; exhaustive pairs are enumerated) for witnesses: for each
/// (pair, class), the first inputs, in domain order, that add controls under which the class is
/// hit. Returns the C++ text of the table (coverage_witnesses.inc).
std::string FindWitnesses(const SamplingOptions& sampling, unsigned threads,
                          oracle::Edition edition = oracle::kDefaultEdition);

/// Why a (control, class) cell of the smoke suite is not hit by inputs from both sides.
enum class SmokeShortfall {
  OneInput,    ///< "the default domain has one input in this cell"
  OneSide,     ///< "every input of the cell is on one side" (two inputs of that side chosen)
  InputClass,  ///< a report input class, of which one input is asked (SelectSmokeInputs)
  TwinSide,    ///< one side of a threshold whose twin class is the other: one input is asked
};

/// The reason of a SmokeShortfall, as the manifest's "selection" notes write it.
std::string SmokeShortfallReason(SmokeShortfall why);

/// The cells of one class of a pair that fall short for one reason: their controls.
struct SmokeNote {
  unsigned bit = 0;  ///< the class (CoverageClass::bit)
  SmokeShortfall why = SmokeShortfall::OneInput;
  unsigned side = 0;           ///< the side of the chosen inputs (0 or 1; CoverageClass::sides)
  std::uint16_t controls = 0;  ///< bit ControlSlot(c) of each control of such a cell
};

/// The smoke suite's inputs of one pair and what they cover.
struct SmokeSelection {
  std::vector<Inputs> inputs;  ///< the chosen inputs, in domain order
  /// The (control, class) cells the pair's default domain hits, and how the chosen inputs hit
  /// each: from both sides; two inputs of the one side every input of the cell lies on; the
  /// one input the default domain has in it; one input of a report input class or of a twin
  /// side (OutcomeClass::twin_side) whose domain has more. The last four add up to `cells`.
  std::uint64_t cells = 0;
  std::uint64_t both_sides = 0;
  std::uint64_t one_side = 0;
  std::uint64_t one_input = 0;
  std::uint64_t input_class = 0;  ///< input classes and twin sides (SmokeShortfall::InputClass,
                                  ///< TwinSide)
  /// The cells not hit from both sides, one note per (class, reason, side) with its controls,
  /// in class-bit order, then reason (SmokeShortfall order), then side.
  std::vector<SmokeNote> notes;
};

/// The smoke suite: for each job (a pair of the default suite, or a file group of one), the
/// inputs a greedy multi-cover picks from its default domain (the default suite's inputs,
/// `sampling`, under ControlsFor(op, pair)). Every (control, class) cell the domain hits asks
/// for two distinct inputs, one from each side of the class (CoverageClass::sides,
/// PairClassifier::Sides) when the domain has inputs on both; a cell of the report's input
/// classes asks for one (they are facts of the input word alone; their sign is the class's);
/// a cell whose domain has less gets all it has, and a note (SmokeSelection::notes). Each
/// chosen input credits every cell and side it hits; ties go to the earlier input in domain
/// order; redundant inputs are then pruned and pairs of inputs exchanged for one where one
/// serves. The same selection whatever `threads` (docs/coverage.md "The smoke suite").
std::vector<SmokeSelection> SelectSmokeInputs(const std::vector<Job>& jobs,
                                              const SamplingOptions& sampling, unsigned threads);

/// The manifest's "selection" object of a smoke-suite file (schemas/manifest.schema.json): the
/// cell counts and the notes, each with its class name, its controls ("all": every control of
/// the file, or the coverage report's column names "RNE/- RTZ/S"), its reason and, but for an
/// input class, the side of its inputs.
nlohmann::ordered_json SmokeSelectionJson(const OpDef& op, TypePair pair,
                                          const SmokeSelection& selection);

}  // namespace ptovec::generator
