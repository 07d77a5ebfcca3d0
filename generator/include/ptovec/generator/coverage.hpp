// Outcome coverage (`ptovec coverage`, `generate --suite smoke`, docs/coverage.md): the class
// table of every (op, pair), made of the report's input and outcome classes (VectorClass) and the
// op's own classes (OpDef::outcome_classes); counts of the vectors of a suite hitting each class
// under each control; the witness table that shows which classes are reachable; and the greedy
// set cover that picks the smoke suite.
#pragma once

#include <array>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "ptovec/generator/ops.hpp"
#include "ptovec/generator/readers.hpp"
#include "ptovec/generator/suite.hpp"

namespace ptovec::generator {

/// One class of a pair's table and its bit in a ClassMask.
struct CoverageClass {
  std::string name;
  std::string description;
  unsigned bit = 0;
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

 private:
  const OpDef* op_;
  TypePair pair_;
  std::vector<CoverageClass> classes_;
  OutcomeClassTable own_;
};

/// The index 0..13 of a control (mode-major, Sat off first, as ControlsFor lists them).
inline std::size_t ControlSlot(NumericExecutionControl c) {
  return static_cast<std::size_t>(c.rounding_mode) * 2 + (c.saturating ? 1 : 0);
}
inline constexpr std::size_t kControlSlots = 14;

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
/// each class, in suite order. Throws InputError as VectorReader does.
std::vector<PairCoverage> CountCoverage(const VectorSelection& selection);

/// One (op, pair) of a coverage scope and the controls it holds there (bit ControlSlot).
struct ScopePair {
  const OpDef* op = nullptr;
  TypePair pair{};  ///< the whole pair (group 0)
  std::uint16_t slots = 0;
};

/// The default suite's scope, which `coverage` requires unless told `--scope present`: every
/// (op, pair) of DefaultSuite(), in its order, with the controls its files hold (the union of
/// ControlsFor over a split pair's file groups).
std::vector<ScopePair> DefaultSuiteScope();

/// One witness: an input of a pair and the controls (bit ControlSlot) under which it hits a class.
struct Witness {
  const char* op;
  const char* src;
  const char* dst;
  const char* class_name;
  std::uint16_t controls;  ///< bit ControlSlot(c) for each control under which it hits the class
  std::array<Word, kMaxSlots> inputs;
};

/// The witness table (generator/src/coverage_witnesses.inc, written by `ptovec coverage
/// --find-witnesses`): the reachable classes of every pair of the default suite.
std::span<const Witness> Witnesses();

/// The reachable classes of a pair: per control slot, the bits some witness shows reachable.
/// Empty (all zero) for a pair without witnesses.
std::array<ClassMask, kControlSlots> ReachableClasses(const OpDef& op, TypePair pair);

/// Searches the default domain of every pair of the default suite (seed `seed`, `samples`
/// samples per sampled pair; exhaustive pairs are enumerated) for witnesses: for each (pair,
/// class), the first inputs, in domain order, that add controls under which the class is hit.
/// Returns the C++ text of the table (coverage_witnesses.inc).
std::string FindWitnesses(const SamplingOptions& sampling, unsigned threads);

/// The smoke suite: for each pair of the default suite, the inputs (in domain order) that a greedy
/// set cover picks from its default domain (the default suite's inputs, `sampling`) so that
/// every (control, class) that the default suite hits is hit by one of them.
std::vector<std::vector<Inputs>> SelectSmokeInputs(const std::vector<Job>& jobs,
                                                   const SamplingOptions& sampling,
                                                   unsigned threads);

}  // namespace ptovec::generator
