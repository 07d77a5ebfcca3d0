// The thresholds inside encode's classes (OutcomeClassTable::thresholds, outcome_classes.hpp
// WithEncodeSides): the halves of the intervals next to a floating destination's overflow
// threshold, and where a non-zero value rounding to zero lies against half the smallest step.
// Kept apart from encode_classes.cpp and found by class name, so the classifiers there can
// change without touching the sides. Exact Dyadic arithmetic only.
#include <array>
#include <cstddef>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "outcome_classes.hpp"
#include "ptovec/oracle/dyadic.hpp"
#include "ptovec/oracle/format_edges.hpp"
#include "ptovec/oracle/formats.hpp"

namespace ptovec::generator {

namespace {

// The index of class `name` in `classes`, or classes.size().
std::size_t IndexOf(const std::vector<OutcomeClass>& classes, const std::string& name) {
  for (std::size_t k = 0; k < classes.size(); ++k) {
    if (classes[k].name == name) return k;
  }
  return classes.size();
}

// One threshold: the class it splits, its sides, and the value from which side 1 starts (side
// 1 holds |x| >= from).
struct Split {
  std::string class_name;
  std::array<std::string, 2> sides;
  oracle::Dyadic from;
};

std::vector<Split> SplitsFor(TileDataType dst) {
  if (!oracle::Format(dst).IsFloating()) {
    // The values ReferenceMatrixIntegerEncoding takes to 0: below 1/2 every mode but the
    // directed ones away from zero does; from 1/2 only a mode rounding toward zero (or RNE's
    // tie at exactly 1/2).
    return {{"rounding to zero from a non-zero value",
             {"|value| below 1/2", "|value| at or above 1/2"},
             oracle::DyadicPowerOfTwo(-1)}};
  }
  const oracle::Dyadic largest = oracle::LargestFiniteValue(dst);
  const oracle::Dyadic threshold = oracle::OverflowThreshold(dst);
  const oracle::Dyadic beyond = oracle::LargestFinitePlusUlp(dst);
  const oracle::Dyadic smallest = oracle::SmallestPositiveValue(dst);
  return {// A device comparing with the threshold on too few bits errs next to it.
          {"just below the overflow threshold",
           {"lower half: toward the largest finite", "upper half: toward the threshold"},
           oracle::DyadicMagnitudeMidpoint(largest, threshold)},
          {"just above the overflow threshold",
           {"lower half: toward the threshold", "upper half: toward the largest finite + ulp"},
           oracle::DyadicMagnitudeMidpoint(threshold, beyond)},
          // Far below the smallest step a denormalising shift can wrap (mutant
          // fp8_tiny_shift_wraps); next to half of it the nearest modes change their answer.
          {"rounding to zero from a non-zero value",
           {"|value| below half the smallest positive value",
            "|value| at or above half the smallest positive value"},
           oracle::DyadicMagnitudeMidpoint(smallest, oracle::Dyadic{})}};
}

}  // namespace

OutcomeClassTable WithEncodeSides(
    TypePair pair, OutcomeClassTable table,
    std::function<std::optional<oracle::Dyadic>(const Inputs&)> value) {
  const std::vector<Split> splits = SplitsFor(pair.dst);
  std::vector<std::pair<std::size_t, oracle::Dyadic>> at;  // class index, side 1 from
  for (const Split& s : splits) {
    const std::size_t k = IndexOf(table.classes, s.class_name);
    if (k == table.classes.size() || k >= kMaxOpClasses) continue;  // not in this table
    table.thresholds.push_back({s.class_name, s.sides});
    at.emplace_back(k, s.from);
  }
  if (at.empty()) return table;
  if (!value) {
    value = [src = pair.src](const Inputs& in) -> std::optional<oracle::Dyadic> {
      return ExactWordValue(src, in[0]);
    };
  }
  table.side = [value, at](const Inputs& in, std::span<const NumericExecutionControl> controls,
                           const Encoded*, ClassMask* out) {
    const std::optional<oracle::Dyadic> x = value(in);
    ClassMask m = 0;
    for (const auto& [k, from] : at) {
      if (x && oracle::DyadicCompareMagnitude(*x, from) >= 0) m.set(k);
    }
    for (std::size_t c = 0; c < controls.size(); ++c) out[c] = m;
  };
  return table;
}

}  // namespace ptovec::generator
