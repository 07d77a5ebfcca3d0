// The one shape of the ops' own outcome-class tables (outcome_classes.hpp): a table of classes
// read into an OutcomeClassTable, and the small pieces the ops' classifiers share.
#include "outcome_classes.hpp"

#include <algorithm>
#include <cstddef>
#include <span>
#include <string>
#include <utility>
#include <vector>

namespace ptovec::generator {

OutcomeClassTable MakeOutcomeClassTable(std::span<const OwnClass> classes, ClassifyFn classify,
                                        InputClassifyFn side) {
  std::vector<OutcomeClass> names;
  std::vector<ClassThreshold> thresholds;
  for (const OwnClass& c : classes) {
    names.push_back({c.name, c.description, c.twin_side});
    if (c.sides[0] != nullptr) thresholds.push_back({c.name, {c.sides[0], c.sides[1]}});
  }
  OutcomeClassTable table{std::move(names), std::move(classify)};
  table.thresholds = std::move(thresholds);
  if (side) table.side = ForEveryControl(std::move(side));
  return table;
}

ClassifyFn ForEveryControl(InputClassifyFn classify) {
  return [classify = std::move(classify)](
             const Inputs& in, std::span<const NumericExecutionControl> controls, const Encoded*,
             ClassMask* out) { std::fill(out, out + controls.size(), classify(in)); };
}

ClassMask SpecialValueClasses(oracle::NumericValueClass vc, SpecialClassBits bits) {
  ClassMask m = 0;
  if (oracle::NumericValueClassIsNaN(vc)) m |= ClassBit(bits.nan);
  if (oracle::NumericValueClassIsInfinity(vc)) m |= ClassBit(bits.inf);
  if (oracle::NumericValueClassIsZero(vc)) m |= ClassBit(bits.zero);
  if (vc == oracle::NumericValueClass::PositiveSubnormal ||
      vc == oracle::NumericValueClass::NegativeSubnormal) {
    m |= ClassBit(bits.subnormal);
  }
  return m;
}

}  // namespace ptovec::generator
