// The pieces of edition 2026-09's TCVT outcome classes (Tcvt2026_09OutcomeClasses,
// outcome_classes.hpp) that its two files share: a route's plan of classes (its own rules on the
// source's value class, the control and the result; then the classes of the source's exact
// value), read into an OutcomeClassTable by TableOf. tcvt_2026_09_classes.cpp holds the common
// set, integer and E8M0 routes and the dispatch; tcvt_2026_09_own_classes.cpp the pairs of
// ReferenceTCVTConvert (tcvt-conversion.asl lines 159-186 at 01445483). Exact arithmetic only.
#pragma once

#include <functional>
#include <optional>
#include <vector>

#include "outcome_classes.hpp"
#include "ptovec/generator/ops.hpp"
#include "ptovec/oracle/dyadic.hpp"
#include "ptovec/oracle/formats.hpp"

namespace ptovec::generator::tcvt_2026_09 {

/// What a rule reads of one vector: the source's value class (PositiveNormal for an integer
/// source: rules of integer sources read none), the source word, the control, the expected
/// result and its value class in the destination (PositiveNormal for an integer destination).
struct Facts {
  oracle::NumericValueClass source;
  Word word;
  NumericExecutionControl control;
  Encoded result;
  oracle::NumericValueClass result_class;
};

/// One class of a route, hit when `hits` says so.
struct Rule {
  OwnClass cls;
  bool (*hits)(const Facts&);
};

/// A route's classes: its rules, then (when `value_of` gives the source's exact value) the
/// classes `value` finds of it, named `value_names`; `encode_sides`: the value classes are the
/// encode lists, whose thresholds WithEncodeSides adds.
struct RoutePlan {
  std::vector<Rule> rules;
  std::vector<OutcomeClass> value_names;
  ValueClassifier value;
  std::function<std::optional<oracle::Dyadic>(Word word)> value_of;
  bool encode_sides = false;
};

/// The table of `plan` for `pair`: the rules' classes, then the value classes (bits after them).
OutcomeClassTable TableOf(TypePair pair, RoutePlan plan);

/// Whether some code of source type `type` has a value class `want` accepts (every code of a
/// type of at most 16 bits is asked; FP32 and FP64 have every IEEE 754 class).
bool SourceHas(TileDataType type, bool (*want)(oracle::NumericValueClass));

/// The plan of a pair of ReferenceTCVTConvert (from E8M0, to and from packed FP4 lanes, E6M2
/// both ways, from RCPE6M2). In tcvt_2026_09_own_classes.cpp.
RoutePlan TcvtConvertPlan(TypePair pair);

/// The floating encode classifier into `dst` with edition 2026-09's encoding for neighbours
/// (FastReferenceMatrixFloatingEncoding: FP64 FP32 FP16 BF16 E4M3).
ValueClassifier FloatingClassifier2026_09(TileDataType dst);

/// Value-class tests the rules share.
inline bool IsQuietNaN(oracle::NumericValueClass c) {
  return c == oracle::NumericValueClass::QuietNaN;
}
inline bool IsSignalingNaN(oracle::NumericValueClass c) {
  return c == oracle::NumericValueClass::SignalingNaN ||
         c == oracle::NumericValueClass::InvalidEncoding;
}
inline bool IsAnyNaN(oracle::NumericValueClass c) { return IsQuietNaN(c) || IsSignalingNaN(c); }
inline bool IsPlusInf(oracle::NumericValueClass c) {
  return c == oracle::NumericValueClass::PositiveInfinity;
}
inline bool IsMinusInf(oracle::NumericValueClass c) {
  return c == oracle::NumericValueClass::NegativeInfinity;
}
inline bool IsPlusZero(oracle::NumericValueClass c) {
  return c == oracle::NumericValueClass::PositiveZero;
}
inline bool IsMinusZero(oracle::NumericValueClass c) {
  return c == oracle::NumericValueClass::NegativeZero;
}

}  // namespace ptovec::generator::tcvt_2026_09
