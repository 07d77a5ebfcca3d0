// The outcome classes of edition 2026-09's TCVT (Tcvt2026_09OutcomeClasses, outcome_classes.hpp),
// one plan per route of RouteOf2026_09 (tcvt_common.hpp); the texts are /work/shared/spec-2026-09
// at commit 01445483 (docs/semantics.md, edition 2026-09):
// - Common (ReferenceCommonConvert, reference-conversion.asl lines 142-176): a floating source's
//   NaN, Inf and signed zero are ReferenceCommonConvertSpecial's (lines 84-140), each a class
//   named after its result; every other value is ReferenceMatrixFloatingEncoding's or
//   ReferenceMatrixIntegerEncoding's, so the encode lists (encode_classes.cpp) classify it, with
//   the 2026-09 encoding (FP64 too) for the neighbours and encode's thresholds.
// - IntegerValue (TileConvertIntegerValue, formats.asl lines 57-95): in range, Sat clamps to a
//   range end, wraps without Sat, and the source values at and next to the range ends.
// - ToE8M0: 0.58.3's TcvtOutcomeClasses (ReferenceFloatToE8M0 is the seeds' text).
// - TCVTConvert: tcvt_2026_09_own_classes.cpp. Raw: no own classes.
// Every decision is exact: value classes, words, Dyadic and integer comparisons.
#include "tcvt_2026_09_classes.hpp"

#include <array>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <span>
#include <utility>
#include <vector>

#include "outcome_classes.hpp"
#include "ptovec/facts.h"
#include "ptovec/generator/ops.hpp"
#include "ptovec/oracle/dyadic.hpp"
#include "ptovec/oracle/fast_edition_2026_09.hpp"
#include "ptovec/oracle/formats.hpp"
#include "ptovec/oracle/numeric.hpp"
#include "tcvt_common.hpp"

namespace ptovec::generator {

namespace tcvt_2026_09 {

using oracle::NumericValueClass;
using T = TileDataType;

namespace {

// The value classes (bit k: NumericValueClass k) some code of `type` has: every code of a type of
// at most 16 bits is asked; FP32 and FP64 have every IEEE 754 class. Asked once per type.
std::uint32_t ValueClassesOf(TileDataType type) {
  const oracle::FormatInfo& f = oracle::Format(type);
  if (!f.IsFloating()) return 0;
  std::uint32_t classes = 0;
  if (f.width > 16) {
    for (const NumericValueClass c :
         {NumericValueClass::PositiveZero, NumericValueClass::NegativeZero,
          NumericValueClass::PositiveSubnormal, NumericValueClass::NegativeSubnormal,
          NumericValueClass::PositiveNormal, NumericValueClass::NegativeNormal,
          NumericValueClass::PositiveInfinity, NumericValueClass::NegativeInfinity,
          NumericValueClass::QuietNaN, NumericValueClass::SignalingNaN}) {
      classes |= 1U << static_cast<unsigned>(c);
    }
    return classes;
  }
  for (Word w = 0; w < (Word{1} << f.width); ++w) {
    classes |= 1U << static_cast<unsigned>(oracle::TileNumericValueClass(type, w));
  }
  return classes;
}

}  // namespace

bool SourceHas(TileDataType type, bool (*want)(NumericValueClass)) {
  static const std::map<TileDataType, std::uint32_t> kClasses = [] {
    std::map<TileDataType, std::uint32_t> m;
    for (const oracle::FormatInfo& f : oracle::AllFormats2026_09())
      m[f.type] = ValueClassesOf(f.type);
    return m;
  }();
  const auto it = kClasses.find(type);
  if (it == kClasses.end()) return false;
  for (unsigned k = 0; k <= static_cast<unsigned>(NumericValueClass::SignalingNaN); ++k) {
    if (((it->second >> k) & 1U) != 0 && want(static_cast<NumericValueClass>(k))) return true;
  }
  return false;
}

ValueClassifier FloatingClassifier2026_09(TileDataType dst) {
  return FloatingEncodeClassifier(
      dst, [](const oracle::Dyadic& x, TileDataType t, NumericExecutionControl c) {
        return oracle::edition_2026_09::FastReferenceMatrixFloatingEncoding(x, t, c);
      });
}

OutcomeClassTable TableOf(TypePair pair, RoutePlan plan) {
  std::vector<OwnClass> own;
  for (const Rule& r : plan.rules) own.push_back(r.cls);
  for (const OutcomeClass& c : plan.value_names) {
    own.push_back({c.name.c_str(), c.description.c_str(), {nullptr, nullptr}, c.twin_side});
  }
  const std::size_t offset = plan.rules.size();
  const bool src_floating = oracle::Format(pair.src).IsFloating();
  const bool dst_floating = oracle::Format(pair.dst).IsFloating();
  const auto shared = std::make_shared<const RoutePlan>(plan);
  ClassifyFn classify = [shared, pair, offset, src_floating, dst_floating](
                            const Inputs& in, std::span<const NumericExecutionControl> controls,
                            const Encoded* expected, ClassMask* out) {
    const Word word = TcvtCarrier(pair, in);
    const NumericValueClass vc = src_floating ? oracle::TileNumericValueClass(pair.src, word)
                                              : NumericValueClass::PositiveNormal;
    for (std::size_t c = 0; c < controls.size(); ++c) {
      const Facts f{vc, word, controls[c], expected[c],
                    dst_floating ? oracle::TileNumericValueClass(pair.dst, expected[c].word)
                                 : NumericValueClass::PositiveNormal};
      ClassMask m;
      for (std::size_t k = 0; k < shared->rules.size(); ++k) {
        if (shared->rules[k].hits(f)) m.set(k);
      }
      out[c] = m;
    }
    const std::optional<oracle::Dyadic> x =
        shared->value_of ? shared->value_of(word) : std::nullopt;
    if (!x) return;
    std::array<ClassMask, PTOVEC_FACTS_CONTROLS> value{};
    shared->value(*x, controls, expected, value.data());
    for (std::size_t c = 0; c < controls.size(); ++c) out[c] |= value[c] << offset;
  };
  OutcomeClassTable table = MakeOutcomeClassTable(own, std::move(classify));
  if (!plan.encode_sides) return table;
  return WithEncodeSides(pair, std::move(table),
                         [pair, value_of = plan.value_of](const Inputs& in) {
                           return value_of(TcvtCarrier(pair, in));
                         });
}

namespace {

// ---- Common: ReferenceCommonConvert (reference-conversion.asl lines 84-176) ----

// A floating source into a floating destination: ReferenceCommonConvertSpecial's NaN (lines
// 91-104), Inf (105-127: the destination's Inf, or E4M3's largest finite under Sat, else its
// NaN, both with OF|NX) and zeros (128-138: the signed zero).
void AddFloatingSpecials(TypePair pair, std::vector<Rule>& rules) {
  const T src = pair.src;
  if (SourceHas(src, IsQuietNaN)) {
    rules.push_back({{"NaN source: the canonical NaN",
                      "a quiet NaN gives the destination's canonical NaN, no status"},
                     [](const Facts& f) { return IsQuietNaN(f.source); }});
  }
  if (SourceHas(src, IsSignalingNaN)) {
    rules.push_back({{"signaling NaN source: the canonical NaN with NV",
                      "a signaling NaN (or invalid encoding) gives the canonical NaN and NV"},
                     [](const Facts& f) { return IsSignalingNaN(f.source); }});
  }
  const bool has_inf = SourceHas(src, IsPlusInf);
  if (has_inf && pair.dst != T::E4M3) {
    rules.push_back({{"+Inf source: +Inf", "+Inf gives the destination's +Inf, no status"},
                     [](const Facts& f) { return IsPlusInf(f.source); }});
    rules.push_back({{"-Inf source: -Inf", "-Inf gives the destination's -Inf, no status"},
                     [](const Facts& f) { return IsMinusInf(f.source); }});
  } else if (has_inf) {
    rules.push_back(
        {{"Inf source under Sat: the largest finite, OF and NX",
          "E4M3 has no Inf: under Sat an Inf gives the largest finite of its sign (0x7E, 0xFE)"},
         [](const Facts& f) {
           return (IsPlusInf(f.source) || IsMinusInf(f.source)) && f.control.saturating;
         }});
    rules.push_back({{"Inf source without Sat: the NaN, OF and NX",
                      "E4M3 has no Inf: without Sat an Inf gives its canonical NaN"},
                     [](const Facts& f) {
                       return (IsPlusInf(f.source) || IsMinusInf(f.source)) &&
                              !f.control.saturating;
                     }});
  }
  if (SourceHas(src, IsPlusZero)) {
    rules.push_back({{"+0 source: +0", "+0 gives the destination's +0, no status"},
                     [](const Facts& f) { return IsPlusZero(f.source); }});
  }
  if (SourceHas(src, IsMinusZero)) {
    rules.push_back({{"-0 source: -0", "-0 gives the destination's -0, no status"},
                     [](const Facts& f) { return IsMinusZero(f.source); }});
  }
}

// A floating source into an integer destination: NaN gives 0 with NV (lines 91-104), an Inf the
// range end of its sign with NV (lines 122-126); -0 is the finite value 0 (line 170).
void AddIntegerSpecials(TypePair pair, std::vector<Rule>& rules) {
  const T src = pair.src;
  if (SourceHas(src, IsAnyNaN)) {
    rules.push_back({{"NaN source: 0 with NV", "a NaN (quiet or signaling) gives 0 and NV"},
                     [](const Facts& f) { return IsAnyNaN(f.source); }});
  }
  if (SourceHas(src, IsPlusInf)) {
    rules.push_back({{"+Inf source: the maximum with NV", "+Inf gives the destination's maximum"},
                     [](const Facts& f) { return IsPlusInf(f.source); }});
    rules.push_back({{"-Inf source: the minimum with NV", "-Inf gives the destination's minimum"},
                     [](const Facts& f) { return IsMinusInf(f.source); }});
  }
  if (SourceHas(src, IsMinusZero)) {
    rules.push_back({{"-0 source: 0", "-0 is the value 0: the integer 0, no status"},
                     [](const Facts& f) { return IsMinusZero(f.source); }});
  }
}

// Into FP64 (whose format edges the oracle does not describe: no overflow or underflow is
// possible from a common-set source) the classes of ReferenceFP64FiniteEncoding's rounding:
// exactness and ties, a tie found as the midpoint of the value's neighbours (the encodings
// rounded toward and away from zero).
enum Fp64Class : unsigned { kFp64Zero, kFp64Exact, kFp64Inexact, kFp64TieUp, kFp64TieDown };

std::vector<OutcomeClass> Fp64ClassNames() {
  return {{"exact zero", "the result is a zero and NX is clear"},
          {"exact", "the result is non-zero and NX is clear"},
          {"inexact", "the value is rounded (NX): a 64-bit integer of more than 53 bits"},
          {"exact tie rounded up",
           "the value is halfway between two FP64 values and rounds away "
           "from zero"},
          {"exact tie rounded down",
           "the value is halfway between two FP64 values and rounds "
           "toward zero"}};
}

void ClassifyFp64(const oracle::Dyadic& x, std::span<const NumericExecutionControl> controls,
                  const Encoded* expected, ClassMask* out) {
  using oracle::edition_2026_09::FastReferenceMatrixFloatingEncoding;
  const Encoded toward =
      FastReferenceMatrixFloatingEncoding(x, T::FP64, {NumericRoundingMode::RTZ, false});
  const Encoded away = FastReferenceMatrixFloatingEncoding(
      x, T::FP64, {x.negative ? NumericRoundingMode::RTM : NumericRoundingMode::RTP, false});
  const oracle::Real value = oracle::ToReal(x);
  const bool tie =
      (toward.status & oracle::kStatusNX) != 0 &&
      value * 2 == oracle::ToReal(oracle::DyadicFromFiniteCode(T::FP64, toward.word)) +
                       oracle::ToReal(oracle::DyadicFromFiniteCode(T::FP64, away.word));
  for (std::size_t c = 0; c < controls.size(); ++c) {
    const Encoded r = expected[c];
    const oracle::Dyadic result = oracle::DyadicFromFiniteCode(T::FP64, r.word);
    ClassMask m;
    const bool exact = (r.status & oracle::kStatusNX) == 0;
    if (exact) m.set(result.significand == 0 ? kFp64Zero : kFp64Exact);
    if (!exact) m.set(kFp64Inexact);
    if (tie) m.set(oracle::DyadicCompareMagnitude(result, x) > 0 ? kFp64TieUp : kFp64TieDown);
    out[c] = m;
  }
}

RoutePlan CommonPlan(TypePair pair) {
  RoutePlan plan;
  const T src = pair.src;
  const T dst = pair.dst;
  const bool src_floating = oracle::Format(src).IsFloating();
  const bool dst_floating = oracle::Format(dst).IsFloating();
  if (src_floating) {
    if (dst_floating) {
      AddFloatingSpecials(pair, plan.rules);
    } else {
      AddIntegerSpecials(pair, plan.rules);
    }
  }
  // The value the encoding is asked of (lines 160-176): a finite source's (a zero only into an
  // integer type: into a floating one it is a special), an integer's.
  plan.value_of = [src, src_floating, dst_floating](Word w) -> std::optional<oracle::Dyadic> {
    if (!src_floating) return ExactWordValue(src, w);
    const NumericValueClass vc = oracle::TileNumericValueClass(src, w);
    if (IsAnyNaN(vc) || IsPlusInf(vc) || IsMinusInf(vc)) return std::nullopt;
    if (dst_floating && oracle::NumericValueClassIsZero(vc)) return std::nullopt;
    return ExactWordValue(src, w);
  };
  if (dst == T::FP64) {
    plan.value_names = Fp64ClassNames();
    plan.value = ClassifyFp64;
    return plan;
  }
  plan.value_names = dst_floating ? FloatingEncodeClassNames() : IntegerEncodeClassNames();
  plan.value = dst_floating ? FloatingClassifier2026_09(dst) : IntegerEncodeClassifier(dst);
  plan.encode_sides = true;
  return plan;
}

// ---- IntegerValue: TileConvertIntegerValue (formats.asl lines 57-95) ----

__extension__ typedef __int128 Wide;

Wide ValueOf(T type, Word w) {
  const oracle::FormatInfo& f = oracle::Format(type);
  const Word low = oracle::LowBits(w, f.width);
  if (f.kind == oracle::FormatKind::UnsignedInteger) return static_cast<Wide>(low);
  return static_cast<Wide>(static_cast<std::int64_t>(oracle::SignExtend(low, f.width)));
}

struct Ranges {
  Wide lo, hi;    // the destination's
  Wide slo, shi;  // the source's
};

Ranges RangesOf(TypePair pair) {
  return {ValueOf(pair.dst, oracle::TileIntegerMinimum(pair.dst)),
          ValueOf(pair.dst, oracle::TileIntegerMaximum(pair.dst)),
          ValueOf(pair.src, oracle::TileIntegerMinimum(pair.src)),
          ValueOf(pair.src, oracle::TileIntegerMaximum(pair.src))};
}

// The classes of an integer to integer pair: one rule per class the ranges allow (a pair whose
// source range lies inside the destination's has no clamp, wrap or edge-beyond classes).
// Statuses are always 0 (TileConvertValue, formats.asl lines 138-143).
OutcomeClassTable IntegerValueClasses(TypePair pair) {
  const Ranges r = RangesOf(pair);
  struct Class {
    bool present;
    OwnClass cls;
    std::function<bool(Wide, bool)> hits;  // the source value, Sat
  };
  const std::vector<Class> all = {
      {true,
       {"in range: the value kept", "the source value is in the destination's range"},
       [r](Wide v, bool) { return v >= r.lo && v <= r.hi; }},
      {r.shi > r.hi,
       {"Sat: clamped to the maximum", "value > the maximum, Sat on: the maximum (lines 66-76)"},
       [r](Wide v, bool sat) { return sat && v > r.hi; }},
      {r.slo < r.lo,
       {"Sat: clamped to the minimum",
        "value < the minimum, Sat on: the minimum (a negative value into an unsigned type: 0)"},
       [r](Wide v, bool sat) { return sat && v < r.lo; }},
      {r.shi > r.hi || r.slo < r.lo,
       {"no Sat: wrapped modulo 2^w",
        "value out of range, Sat off: its low w bits (NormalizeTileInteger, lines 93-94)"},
       [r](Wide v, bool sat) { return !sat && (v < r.lo || v > r.hi); }},
      {r.slo < 0 && r.lo == 0,
       {"negative into unsigned", "a negative value into an unsigned destination"},
       [](Wide v, bool) { return v < 0; }},
      {r.shi > r.hi,
       {"the maximum + 1", "value = the destination's maximum + 1"},
       [r](Wide v, bool) { return v == r.hi + 1; }},
      {r.slo < r.lo,
       {"the minimum - 1", "value = the destination's minimum - 1"},
       [r](Wide v, bool) { return v == r.lo - 1; }},
      {r.shi >= r.hi,
       {"at the maximum", "value = the destination's maximum"},
       [r](Wide v, bool) { return v == r.hi; }},
      {r.slo <= r.lo,
       {"at the minimum", "value = the destination's minimum"},
       [r](Wide v, bool) { return v == r.lo; }},
  };
  std::vector<OwnClass> own;
  std::vector<std::function<bool(Wide, bool)>> hits;
  for (const Class& c : all) {
    if (!c.present) continue;
    own.push_back(c.cls);
    hits.push_back(c.hits);
  }
  const T src = pair.src;
  return MakeOutcomeClassTable(
      own, [src, hits](const Inputs& in, std::span<const NumericExecutionControl> controls,
                       const Encoded*, ClassMask* out) {
        const Wide v = ValueOf(src, in[0]);
        for (std::size_t c = 0; c < controls.size(); ++c) {
          ClassMask m;
          for (std::size_t k = 0; k < hits.size(); ++k) {
            if (hits[k](v, controls[c].saturating)) m.set(k);
          }
          out[c] = m;
        }
      });
}

}  // namespace
}  // namespace tcvt_2026_09

OutcomeClassTable Tcvt2026_09OutcomeClasses(TypePair pair) {
  switch (RouteOf2026_09(pair)) {
    case Route2026_09::ToE8M0:
      return TcvtOutcomeClasses(pair);
    case Route2026_09::Common:
      return tcvt_2026_09::TableOf(pair, tcvt_2026_09::CommonPlan(pair));
    case Route2026_09::IntegerValue:
      return tcvt_2026_09::IntegerValueClasses(pair);
    case Route2026_09::TCVTConvert:
      return tcvt_2026_09::TableOf(pair, tcvt_2026_09::TcvtConvertPlan(pair));
    case Route2026_09::Raw:
      break;
  }
  return {};
}

}  // namespace ptovec::generator
