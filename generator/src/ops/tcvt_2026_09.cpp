// Op `tcvt` of edition 2026-09: TCVT by value, one element as TCVT's loop converts it
// (tile/model/numeric/formats.asl lines 185-204 at commit 01445483, /work/shared/spec-2026-09),
// answered by the oracle: `evaluate` and `evaluate_batch` by FastConvert2026_09
// (fast_edition_2026_09.hpp, integer arithmetic, proven equal by tests/oracle/fast_tcvt_2026_09_*),
// `evaluate_reference` by Convert2026_09 (edition_2026_09.hpp), the literal transliteration.
// Its pairs are those HardwareTCVTTypePairSupported accepts over the tile data types of the
// edition (every row of the format table but FP19), its modes per pair those
// HardwareTCVTRoundingModeSupported accepts (E6M2 and RCPE6M2 pairs: RNE and RNA only).
#include <cstddef>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include "outcome_classes.hpp"
#include "ptovec/generator/domains.hpp"
#include "ptovec/generator/ops.hpp"
#include "ptovec/generator/sampler.hpp"
#include "ptovec/oracle/edition_2026_09.hpp"
#include "ptovec/oracle/edition_2026_09_encoding.hpp"
#include "ptovec/oracle/fast_edition_2026_09.hpp"
#include "ptovec/oracle/formats.hpp"
#include "ptovec/oracle/numeric.hpp"
#include "tcvt_common.hpp"

namespace ptovec::generator {

namespace {

using oracle::Format;
using oracle::FormatInfo;
using T = TileDataType;
using Route = Route2026_09;

Route RouteOf(TypePair pair) { return RouteOf2026_09(pair); }

// The oracle's answer for one element: the Encoded result in the destination's width, or the
// Refusal2026_09 naming the rule that makes the pair or the mode illegal.
// `fast` chooses FastConvert2026_09, else the literal Convert2026_09.
oracle::Conversion2026_09 Convert(TypePair pair, Word carrier, NumericExecutionControl control,
                                  bool fast = false) {
  oracle::Conversion2026_09 r =
      fast ? oracle::FastConvert2026_09(pair.src, pair.dst, carrier, control)
           : oracle::Convert2026_09(pair.src, pair.dst, carrier, control);
  if (auto* e = std::get_if<Encoded>(&r))
    e->word = oracle::LowBits(e->word, Format(pair.dst).width);
  return r;
}

// evaluate (fast) and evaluate_reference (literal): a refusal here is a caller's bug (MakeCase
// checks the pair and the control first), reported as a domain error with the refusal's line.
template <bool kFast>
Encoded EvaluateTcvt2026_09(TypePair pair, const Inputs& in, NumericExecutionControl control) {
  const oracle::Conversion2026_09 r = Convert(pair, TcvtCarrier(pair, in), control, kFast);
  if (const auto* refusal = std::get_if<oracle::Refusal2026_09>(&r)) {
    throw std::domain_error(refusal->message);
  }
  return std::get<Encoded>(r);
}

// evaluate_batch: the fast form for every input and control, the carrier read once per input.
void EvaluateTcvt2026_09Batch(TypePair pair, const Inputs* in, std::size_t n,
                              std::span<const NumericExecutionControl> controls, Encoded* out) {
  const unsigned width = Format(pair.dst).width;
  for (std::size_t i = 0; i < n; ++i) {
    const Word carrier = TcvtCarrier(pair, in[i]);
    for (const NumericExecutionControl control : controls) {
      const oracle::Conversion2026_09 r =
          oracle::FastConvert2026_09(pair.src, pair.dst, carrier, control);
      if (const auto* refusal = std::get_if<oracle::Refusal2026_09>(&r)) {
        throw std::domain_error(refusal->message);
      }
      const Encoded e = std::get<Encoded>(r);
      *out++ = {oracle::LowBits(e.word, width), e.status};
    }
  }
}

// The 14 controls (7 modes x Sat off/on, mode-major) that HardwareTCVTRoundingModeSupported
// accepts for the pair.
std::vector<NumericExecutionControl> PairControls(TypePair pair) {
  std::vector<NumericExecutionControl> controls;
  for (const NumericRoundingMode mode : oracle::kAllRoundingModes) {
    if (!oracle::edition_2026_09::HardwareTCVTRoundingModeSupported(pair.src, pair.dst, mode)) {
      continue;
    }
    controls.push_back({mode, false});
    controls.push_back({mode, true});
  }
  return controls;
}

// The tile data types of the edition: every row of the format table but FP19 (a B.FPATR
// parameter format).
std::vector<T> TileTypes() {
  std::vector<T> types;
  for (const FormatInfo& f : oracle::AllFormats2026_09()) {
    if (f.type != T::FP19) types.push_back(f.type);
  }
  return types;
}

std::string RawNote(TypePair pair) {
  return "tcvt " + std::string(Format(pair.src).name) + " -> " +
         std::string(Format(pair.dst).name) +
         " in edition 2026-09 copies the source word's bits, it does not convert the value "
         "(TileProfileConvert's raw rule, formats.asl lines 122-127 at 01445483: the pair is "
         "outside the 12-type common set of PTO-COMMON-CONVERSION-001; docs/semantics.md, "
         "edition 2026-09, open point 1)";
}

// The plan of a pair's inputs: every code of a source of at most 16 bits; an FP32 or S32 source
// converted by value into one of encode's destinations (FP32, FP16, E4M3, the integers up to 32
// bits: ReferenceCommonConvert rounds and saturates there as encode does, at the same values)
// takes encode's strategies and, from FP32, the specials encode's domain leaves out (NaNs,
// infinities); another wide source converted by value WideValueStrategies (a floating
// destination's values, ties and edges, an integer one's range ends) or, integer to integer,
// IntegerToIntegerStrategies (a finite set: range ends, powers of two, a comb); to E8M0 and the
// raw pairs TcvtPlan's.
DomainPlan Plan2026_09(TypePair pair) {
  const Route route = RouteOf(pair);
  // FP32 into a packed FP4 lane (ReferenceTCVTConvert) rounds by value too.
  const bool into_lane =
      route == Route::TCVTConvert && (pair.dst == T::E2M1X2 || pair.dst == T::E1M2X2);
  const bool by_value = route == Route::Common || route == Route::IntegerValue || into_lane;
  if (!by_value || Format(pair.src).width <= 16) return TcvtPlan(pair);
  const OpDef* encode = FindOp("encode", oracle::Edition::V0_58_3);
  if ((pair.src == T::FP32 || pair.src == T::S32) && encode != nullptr &&
      IsLegalPair(*encode, pair)) {
    std::vector<SampleStrategy> strategies = EncodeStrategies(pair);
    if (pair.src == T::FP32) strategies.push_back({"fp32_specials", 1, OneSlot(Fp32Specials())});
    return DomainPlan::Sampled(std::move(strategies));
  }
  if (route == Route::IntegerValue) return DomainPlan::Sampled(IntegerToIntegerStrategies(pair));
  return DomainPlan::Sampled(WideValueStrategies(pair));
}

}  // namespace

Route2026_09 RouteOf2026_09(TypePair pair) {
  const auto own = [](T t) {
    return t == T::E8M0 || t == T::E2M1X2 || t == T::E1M2X2 || t == T::E6M2 || t == T::RCPE6M2;
  };
  if (own(pair.src) || (own(pair.dst) && pair.dst != T::E8M0)) return Route2026_09::TCVTConvert;
  if (!oracle::TileDataTypeIsFloating(pair.src) && !oracle::TileDataTypeIsFloating(pair.dst)) {
    return Route2026_09::IntegerValue;
  }
  if (oracle::edition_2026_09::ReferenceCommonConversionTypeSupported(pair.src) &&
      oracle::edition_2026_09::ReferenceCommonConversionTypeSupported(pair.dst)) {
    return Route2026_09::Common;
  }
  return pair.dst == T::E8M0 ? Route2026_09::ToE8M0 : Route2026_09::Raw;
}

OpDef MakeTcvt2026_09Op() {
  OpDef op;
  op.name = "tcvt";
  op.instruction = "TCVT";
  op.seed_function = "TCVT's element step, TileProfileConvert";
  op.seed_source =
      "formats.asl lines 97-128 and 185-204 at 01445483 (ReferenceTCVTConvert: "
      "tcvt-conversion.asl lines 159-186; ReferenceCommonConvert: reference-conversion.asl "
      "lines 142-176)";
  op.summary =
      "TCVT by value (edition 2026-09): from E8M0, packed FP4 both ways, E6M2 both ways and from "
      "RCPE6M2 by ReferenceTCVTConvert; FP64 FP32 FP16 E4M3 and the 8- to 64-bit integers by "
      "ReferenceCommonConvert; to E8M0 by exponent rounding; other pairs the raw word";
  op.slots = {{"value", SlotRole::Source, T::FP32, "the source word (any code)"}};
  op.uses_controls = true;
  op.pair_note = [](TypePair pair) {
    return RouteOf(pair) == Route::Raw ? RawNote(pair) : std::string();
  };
  const std::vector<T> types = TileTypes();
  for (const T src : types) {
    for (const T dst : types) {
      if (!oracle::edition_2026_09::HardwareTCVTTypePairSupported(src, dst)) continue;
      op.legal_pairs.push_back({src, dst});
      // The default suite: every pair converted by value (the raw copies are 0.58.3's rule).
      if (RouteOf({src, dst}) != Route::Raw) op.default_suite_pairs.push_back({src, dst});
    }
  }
  op.pair_refusal = [](TypePair pair) {
    const oracle::Conversion2026_09 r = Convert(pair, 0, NumericExecutionControl{});
    const auto* refusal = std::get_if<oracle::Refusal2026_09>(&r);
    return refusal != nullptr ? refusal->message : std::string();
  };
  op.pair_controls = PairControls;
  op.evaluate = EvaluateTcvt2026_09<true>;
  op.evaluate_batch = EvaluateTcvt2026_09Batch;
  op.evaluate_reference = EvaluateTcvt2026_09<false>;
  op.check_domain = [](TypePair, const Inputs&) -> std::optional<std::string> {
    return std::nullopt;  // every code of the source type is in TCVT's domain
  };
  // A refusal depends on the pair and the mode only (Convert2026_09): asked of the word 0, which
  // converts at once, not of the input (a device checks every case's control).
  op.check_control = [](TypePair pair, const Inputs&,
                        NumericExecutionControl control) -> std::optional<std::string> {
    const oracle::Conversion2026_09 r = Convert(pair, 0, control);
    if (const auto* refusal = std::get_if<oracle::Refusal2026_09>(&r)) return refusal->message;
    return std::nullopt;
  };
  op.plan = Plan2026_09;
  // Per route (tcvt_2026_09_classes.cpp); to E8M0 0.58.3's (ReferenceFloatToE8M0 is the seeds').
  op.outcome_classes = Tcvt2026_09OutcomeClasses;
  return op;
}

}  // namespace ptovec::generator
