// The generic explanations of the fault-model catalogue (ptovec/generator/faults.hpp,
// EvaluateGeneric): a rounding mode computed as another, Sat ignored or always on, double
// rounding through a wider floating type, one behaviour-model deviation. The gate's diagnosis
// asks each of them, beside the catalogue's own fault models, whether it reproduces a device's
// answer. Integers only.
#include <algorithm>
#include <optional>
#include <vector>

#include "fault_common.hpp"
#include "ptovec/oracle/behaviour.hpp"

namespace ptovec::generator {

namespace {

using faults::EncodeDyadic;
using faults::EncodeValue;
using faults::IsFloating;
using faults::KindOf;
using faults::OpKind;
using faults::OracleWith;

std::optional<Encoded> ModeAsAnswer(const GenericExplanation& g, const Case& c) {
  const NumericRoundingMode mode = c.control.rounding_mode;
  if (!c.op->uses_controls || mode == g.to || (g.from && mode != *g.from)) return std::nullopt;
  return OracleWith(c, {g.to, c.control.saturating});
}

std::optional<Encoded> SatAnswer(const Case& c, bool saturating) {
  if (!c.op->uses_controls || c.control.saturating == saturating) return std::nullopt;
  return OracleWith(c, {c.control.rounding_mode, saturating});
}

std::optional<Encoded> DoubleRoundingAnswer(TileDataType through, const Case& c) {
  if (KindOf(c) != OpKind::Encode || !IsFloating(c.pair.dst) || c.pair.src == through ||
      c.pair.dst == through ||
      oracle::Format(through).fraction_bits <= oracle::Format(c.pair.dst).fraction_bits) {
    return std::nullopt;
  }
  const oracle::Dyadic value = EncodeValue(c);
  const Encoded first = EncodeDyadic(value, through, {NumericRoundingMode::RNE, false});
  if ((first.status & oracle::kStatusOF) != 0) return std::nullopt;
  const Encoded second =
      EncodeDyadic(oracle::DyadicFromFiniteCode(through, first.word), c.pair.dst, c.control);
  return Encoded{second.word, static_cast<oracle::Status>(second.status | first.status)};
}

std::optional<Encoded> DeviationAnswer(const GenericExplanation& g, const Case& c) {
  if (!c.op->evaluate_model) return std::nullopt;
  oracle::Behaviour behaviour;
  behaviour.deviations = oracle::DeviationBit(g.deviation);
  behaviour.invalid_integer = g.invalid_integer;
  behaviour.nan = g.nan;
  const oracle::ModelAnswer a = EvaluateModel(*c.op, c.pair, c.in, c.control, behaviour);
  if (a.applied == 0 || a.word_open) return std::nullopt;
  return a.result;
}

std::optional<Encoded> EditionAsAnswer(oracle::Edition edition, const Case& c) {
  const OpDef* other = EditionAsOp(edition, c);
  if (other == nullptr) return std::nullopt;
  Case d = c;
  d.op = other;
  if (other->check_domain && other->check_domain(d.pair, d.in)) return std::nullopt;
  if (other->check_control && other->check_control(d.pair, d.in, d.control)) return std::nullopt;
  return EvaluateOracle(d);
}

}  // namespace

const OpDef* EditionAsOp(oracle::Edition edition, const Case& c) {
  if (c.op->edition == edition) return nullptr;
  const OpDef* other = FindOp(c.op->name, edition);
  if (other == nullptr || !IsLegalPair(*other, c.pair)) return nullptr;
  if (other->seed_function == c.op->seed_function && other->seed_source == c.op->seed_source) {
    return nullptr;  // the same text in both editions: the same answers
  }
  if (other->pair_controls) {
    const std::vector<NumericExecutionControl> controls = ControlsFor(*other, c.pair);
    if (std::find(controls.begin(), controls.end(), c.control) == controls.end()) return nullptr;
  }
  return other;
}

std::optional<Encoded> EvaluateGeneric(const GenericExplanation& g, const Case& c) {
  switch (g.kind) {
    case GenericKind::ModeAs:
      return ModeAsAnswer(g, c);
    case GenericKind::SatIgnored:
      return SatAnswer(c, false);
    case GenericKind::SatAlwaysOn:
      return SatAnswer(c, true);
    case GenericKind::DoubleRounding:
      return DoubleRoundingAnswer(g.through, c);
    case GenericKind::Deviation:
      return DeviationAnswer(g, c);
    case GenericKind::EditionAs:
      return EditionAsAnswer(g.edition, c);
    case GenericKind::None:
      break;
  }
  return std::nullopt;
}

}  // namespace ptovec::generator
