// The RapidCheck side of `ptovec shrink`: the shrink candidates of a case (ShrinkCase), its shrink
// tree (ShrinkableCase), and the property's generator over one pair or several (CaseGen), with the
// control a drawn case is evaluated under.
#include <rapidcheck.h>

#include <cstddef>
#include <memory>
#include <optional>
#include <stdexcept>
#include <tuple>
#include <utility>
#include <vector>

#include "ptovec/generator/cases.hpp"
#include "ptovec/generator/domains.hpp"
#include "ptovec/generator/ops.hpp"
#include "ptovec/oracle/numeric.hpp"
#include "ptovec/tools/shrink.hpp"
#include "shrink/shrink_internal.hpp"

namespace ptovec::tools {

namespace {

using oracle::NumericRoundingMode;

}  // namespace

using shrink_internal::Drain;

rc::Seq<Case> ShrinkCase(const Case& c) {
  std::vector<Case> out;
  for (const generator::Inputs& in : Drain(generator::ShrinkInputs(*c.op, c.pair, c.in))) {
    Case k = c;
    k.in = in;
    k.control = generator::LegalControl(*c.op, c.pair, k.in, k.control);
    out.push_back(k);
  }
  if (c.op->uses_controls) {
    // Every simpler mode (RNE first), not only rc::shrink::towards' halving steps: a case that
    // fails under RTZ and RTM must reach RTM.
    const int mode = static_cast<int>(c.control.rounding_mode);
    for (int m = 0; m < mode; ++m) {
      Case k = c;
      k.control.rounding_mode = static_cast<NumericRoundingMode>(m);
      if (!c.op->check_control || !c.op->check_control(k.pair, k.in, k.control)) out.push_back(k);
    }
    if (c.control.saturating) {
      Case k = c;
      k.control.saturating = false;
      if (!c.op->check_control || !c.op->check_control(k.pair, k.in, k.control)) out.push_back(k);
    }
  }
  return rc::seq::fromContainer(std::move(out));
}

rc::Shrinkable<Case> ShrinkableCase(const Case& c) {
  return rc::shrinkable::shrinkRecur(c, [](const Case& x) { return ShrinkCase(x); });
}

namespace shrink_internal {

namespace {

// The control a drawn case is evaluated under: the drawn one when the op accepts it for the
// inputs, else LegalControl's choice (RNE with the drawn Sat, else RNE, Sat off) when the filter
// keeps it, else the first of the kept controls (`kept`, in ControlsFor order) the inputs accept.
generator::NumericExecutionControl DrawnControl(
    const OpDef& op, TypePair pair, const generator::Inputs& in,
    generator::NumericExecutionControl drawn, const generator::ControlFilter& filter,
    const std::vector<generator::NumericExecutionControl>& kept) {
  if (!op.check_control) return drawn;
  const auto legal = [&](generator::NumericExecutionControl c) {
    return !op.check_control(pair, in, c);
  };
  if (legal(drawn)) return drawn;
  const generator::NumericExecutionControl fallback = generator::LegalControl(op, pair, in, drawn);
  if (filter.Accepts(fallback) && legal(fallback)) return fallback;
  for (const generator::NumericExecutionControl c : kept) {
    if (legal(c)) return c;
  }
  // SelectShrinkPairs draws only pairs and groups holding a kept control for every input.
  throw std::logic_error("shrink: no control --rmode/--sat keep is legal for " +
                         generator::EvalCommand(Case{&op, pair, drawn, in}));
}

}  // namespace

rc::Gen<Case> CaseGenOver(const OpDef& op, std::vector<TypePair> pairs_in,
                          const generator::ControlFilter& filter) {
  const OpDef* op_ptr = &op;
  // The drawable modes and Sat values, in order: inRange over their positions shrinks toward the
  // first (RNE, Sat off when kept).
  auto modes = std::make_shared<std::vector<NumericRoundingMode>>(filter.modes);
  if (modes->empty())
    modes->assign(oracle::kAllRoundingModes.begin(), oracle::kAllRoundingModes.end());
  auto sats = std::make_shared<std::vector<bool>>(filter.sat);
  if (sats->empty()) *sats = {false, true};
  const auto controls = std::make_shared<
      const std::pair<generator::ControlFilter, std::vector<generator::NumericExecutionControl>>>(
      filter, filter.ControlsOf(op));
  // One pair: inputs from the op's input space (its own shrink tree: generator::ShrinkInputs),
  // then the mode (inRange shrinks toward RNE) and Sat (toward off). rc::gen::tuple shrinks the
  // inputs first, then the mode, then Sat: the same tree as ShrinkableCase.
  const auto for_pair = [op_ptr, modes, sats, controls](TypePair p) -> rc::Gen<Case> {
    const rc::Gen<generator::Inputs> inputs = op_ptr->input_space(p);
    const TypePair whole = p.Whole();
    if (!op_ptr->uses_controls) {
      return rc::gen::map(inputs, [op_ptr, whole](const generator::Inputs& in) {
        return Case{op_ptr, whole, {}, in};
      });
    }
    return rc::gen::map(
        rc::gen::tuple(inputs, rc::gen::inRange(0, static_cast<int>(modes->size())),
                       rc::gen::inRange(0, static_cast<int>(sats->size()))),
        [op_ptr, whole, modes, sats, controls](const std::tuple<generator::Inputs, int, int>& t) {
          Case c{op_ptr, whole, {}, std::get<0>(t)};
          c.control.rounding_mode = (*modes)[static_cast<std::size_t>(std::get<1>(t))];
          c.control.saturating = (*sats)[static_cast<std::size_t>(std::get<2>(t))];
          // fpatr: a control the inputs' PreQuantMode refuses becomes one it takes.
          c.control =
              DrawnControl(*op_ptr, whole, c.in, c.control, controls->first, controls->second);
          return c;
        });
  };
  if (pairs_in.size() == 1) return for_pair(pairs_in.front());
  // Building an input space can be costly (destination anchors, interesting codes): each pair's
  // generator is built once, when first drawn.
  const auto pairs = std::make_shared<const std::vector<TypePair>>(std::move(pairs_in));
  const auto cache = std::make_shared<std::vector<std::optional<rc::Gen<Case>>>>(pairs->size());
  return rc::gen::mapcat(rc::gen::inRange<std::size_t>(0, pairs->size()),
                         [pairs, cache, for_pair](std::size_t i) {
                           auto& slot = (*cache)[i];
                           if (!slot) slot = for_pair((*pairs)[i]);
                           return *slot;
                         });
}

}  // namespace shrink_internal

using shrink_internal::CaseGenOver;

rc::Gen<Case> CaseGen(const OpDef& op, std::optional<TypePair> pair,
                      const generator::ControlFilter& filter) {
  return CaseGenOver(op, pair ? std::vector<TypePair>{*pair} : op.legal_pairs, filter);
}

}  // namespace ptovec::tools
