// Op `qparam`: B.FPATR parameter packing. An FP32 scale is narrowed by FP32ToFP19 (spec-notes
// section 4) and packed with a signed offset by MatrixQuantParameter (seed 000 lines 11-23); the
// vector's result is the 64-bit parameter word, from which MatrixQuantOffset (lines 32-41)
// recovers the offset. No rounding mode and no Sat: vectors record RNE and Sat off only.
#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "outcome_classes.hpp"
#include "ptovec/generator/domains.hpp"
#include "ptovec/generator/ops.hpp"
#include "ptovec/generator/writers.hpp"
#include "ptovec/oracle/format_edges.hpp"
#include "ptovec/oracle/matrix_quantization.hpp"
#include "ptovec/oracle/numeric.hpp"

namespace ptovec::generator {

namespace {

using T = TileDataType;

Encoded EvaluateQparam(TypePair, const Inputs& in, NumericExecutionControl) {
  const Word fp19 = oracle::FP32ToFP19(in[0]);
  return {
      oracle::MatrixQuantParameter(fp19, oracle::SignExtend(in[1], 32), static_cast<int>(in[2])),
      0};
}

// FP32 words whose low 13 fraction bits sit at, just below and just above the FP19 rounding
// tie (0x1000), with bit 13 even or odd, and fractions of all ones (the carry into the exponent):
// sign and exponent (9 bits) x the kept fraction bits 22:13 (six patterns) x the low bits (six).
WordSet Fp19RoundingEdges() {
  std::vector<Word> words;
  for (std::uint32_t sign_exponent = 0; sign_exponent < 512; ++sign_exponent) {
    for (std::uint32_t kept : {0U, 1U, 0x3FEU, 0x3FFU, 0x155U, 0x2AAU}) {
      for (std::uint32_t low : {0x0FFFU, 0x1000U, 0x1001U, 0x0000U, 0x1FFFU, 0x0001U}) {
        words.push_back((sign_exponent << 23) | (kept << 13) | low);
      }
    }
  }
  return WordSet::Points(words);
}

// Scales at the FP19 rounding edges and FP32 specials with the offsets at the ends of each
// width's range; any FP32 word with any offset.
std::vector<SampleStrategy> QparamStrategies() {
  return {{"fp19_rounding_edges", 5, WithOffsetAndWidth(Fp19RoundingEdges(), true)},
          {"fp32_specials", 1, WithOffsetAndWidth(Fp32Specials(), true)},
          {"fp32_uniform_bits", 4, WithOffsetAndWidth(Fp32UniformBits(), false)}};
}

// Uniform over the domain: any FP32 scale, a uniform width and an offset uniform in its range.
rc::Gen<Inputs> UniformQparam() {
  return rc::gen::apply(
      [](std::uint64_t s, std::pair<std::uint32_t, std::uint32_t> ow) {
        return Inputs{s, ow.first, ow.second, 0};
      },
      rc::gen::inRange<std::uint64_t>(0, std::uint64_t{1} << 32), UniformOffsetAndWidth());
}

}  // namespace

// ---- outcome classes (ptovec coverage): MatrixQuantParameter(FP32ToFP19(scale), offset, width)
// ----

namespace {

enum QparamClass : unsigned {
  kExact,
  kDown,
  kUp,
  kTieEven,
  kTieUp,
  kCarry,
  kWidth0,
  kWidth5,
  kWidth9,
  kWidth17,
  kNegativeOffset,
  kOffsetMinimum,
  kOffsetMaximum,
  kNaN,
};

// Sides of FP32ToFP19's thresholds: how far the 13 dropped bits lie from the half point 0x1000
// (a rounder that reads only the top dropped bits errs next to it); whether a carry out of the
// fraction reaches the Inf exponent; whether a NaN's payload survives in the kept bits (a NaN
// with its payload only in the dropped bits becomes the Inf code when truncated).
constexpr std::array<const char*, 2> kNearHalf = {
    "more than a quarter FP19 ulp from the half point",
    "within a quarter FP19 ulp of the half point"};

constexpr OwnClass kQparamClasses[] = {
    {"FP19 exact", "the 13 dropped fraction bits are 0"},
    {"FP19 rounded down", "the dropped bits are below half", kNearHalf},
    {"FP19 rounded up", "the dropped bits are above half", kNearHalf},
    {"FP19 tie kept even", "the dropped bits are exactly half and bit 13 is 0"},
    {"FP19 tie rounded up to even", "the dropped bits are exactly half and bit 13 is 1"},
    {"FP19 carry into the exponent",
     "rounding up a fraction of all ones (bits 22:13)",
     {"into a finite exponent", "into the Inf exponent"}},
    {"width 0", "no offset field"},
    {"width 5", "a 5-bit offset"},
    {"width 9", "a 9-bit offset"},
    {"width 17", "a 17-bit offset"},
    {"negative offset", "the offset is negative"},
    {"offset at the width's minimum", "offset = -2^(width-1)"},
    {"offset at the width's maximum", "offset = 2^(width-1) - 1"},
    {"NaN scale",
     "a NaN FP32 scale (FP32ToFP19 gives 0x3ff00)",
     {"payload in the kept fraction bits 22:13", "payload only in the dropped bits 12:0"}},
};

// FP32ToFP19's rounding of scale word w: NaN, or how the 13 dropped bits round (and a carry).
ClassMask Fp19RoundingClasses(std::uint32_t w) {
  if (oracle::NumericValueClassIsNaN(oracle::TileNumericValueClass(TileDataType::FP32, w))) {
    return ClassBit(kNaN);
  }
  const std::uint32_t low = w & 0x1FFFU;
  const bool odd = ((w >> 13) & 1U) != 0;
  ClassMask m = ClassBit(low == 0        ? kExact
                         : low < 0x1000U ? kDown
                         : low > 0x1000U ? kUp
                         : odd           ? kTieUp
                                         : kTieEven);
  const bool rounds_up = low > 0x1000U || (low == 0x1000U && odd);
  if (rounds_up && ((w >> 13) & 0x3FFU) == 0x3FFU) m |= ClassBit(kCarry);
  return m;
}

// The width and where the offset lies in its range.
ClassMask OffsetClasses(Word offset_word, Word width_word) {
  const int width = static_cast<int>(width_word);
  ClassMask m = ClassBit(width == 0   ? kWidth0
                         : width == 5 ? kWidth5
                         : width == 9 ? kWidth9
                                      : kWidth17);
  const auto offset = static_cast<std::int64_t>(oracle::SignExtend(offset_word, 32));
  if (offset < 0) m |= ClassBit(kNegativeOffset);
  if (width != 0 && offset == oracle::SignedFieldMinimum(width)) m |= ClassBit(kOffsetMinimum);
  if (width != 0 && offset == oracle::SignedFieldMaximum(width)) m |= ClassBit(kOffsetMaximum);
  return m;
}

ClassMask ClassifyQparam(const Inputs& in) {
  return Fp19RoundingClasses(static_cast<std::uint32_t>(in[0])) | OffsetClasses(in[1], in[2]);
}

ClassMask QparamSides(const Inputs& in) {
  const auto w = static_cast<std::uint32_t>(in[0]);
  const std::uint32_t low = w & 0x1FFFU;
  ClassMask m = 0;
  const std::uint32_t from_half = low > 0x1000U ? low - 0x1000U : 0x1000U - low;
  if (from_half < 0x800U) m |= ClassBit(kDown) | ClassBit(kUp);
  if (((w >> 23) & 0xFFU) == 0xFEU) m |= ClassBit(kCarry);
  if ((w & 0x7FE000U) == 0) m |= ClassBit(kNaN);
  return m;
}

}  // namespace

OutcomeClassTable QparamOutcomeClasses(TypePair) {
  return MakeOutcomeClassTable(kQparamClasses, ForEveryControl(ClassifyQparam), QparamSides);
}

OpDef MakeQparamOp() {
  OpDef op;
  op.name = "qparam";
  op.instruction = "B.FPATR parameter packing";
  op.seed_function = "MatrixQuantParameter(FP32ToFP19(scale), offset, width)";
  op.seed_source =
      "000_93cee333e42f6460.txt lines 11-23 (MatrixQuantOffset lines 32-41); FP32ToFP19 "
      "spec-notes section 4";
  op.summary =
      "FP32 scale -> FP19 (RNE on the raw bits, NaN -> 0x3ff00) packed with a signed offset into "
      "the 64-bit parameter word (no mode, no Sat)";
  op.slots = {
      {"scale", SlotRole::Source, T::FP32, "any FP32 word (FP32ToFP19 narrows it)"},
      {"offset", SlotRole::Fixed, T::S32,
       "the signed offset, inside the width's range (width 0: offset 0, there is no field)"},
      {"width", SlotRole::Fixed, T::U8, "the offset width: 0, 5, 9 or 17"}};
  op.uses_controls = false;
  op.legal_pairs = {{T::FP32, T::U64}};
  op.default_suite_pairs = op.legal_pairs;
  op.evaluate = EvaluateQparam;
  op.evaluate_reference = EvaluateQparam;  // literal seed functions, integer arithmetic only
  op.check_domain = [](TypePair, const Inputs& in) { return CheckOffsetAndWidth(in[1], in[2]); };
  op.plan = [](TypePair) { return DomainPlan::Sampled(QparamStrategies(), UniformQparam); };
  op.outcome_classes = QparamOutcomeClasses;
  return op;
}

}  // namespace ptovec::generator
