// Op `shift`: MatrixShiftS32ToS16 (seed 000 lines 93-106): arithmetic shift right of an S32 by
// 1..16, clamped to S16 with OF|NX. It has no rounding mode and no Sat: vectors record RNE and
// Sat off only.
#include <cstddef>
#include <cstdint>
#include <span>
#include <utility>
#include <vector>

#include "outcome_classes.hpp"
#include "ptovec/generator/domains.hpp"
#include "ptovec/generator/ops.hpp"
#include "ptovec/generator/word_text.hpp"
#include "ptovec/generator/writers.hpp"
#include "ptovec/oracle/matrix_quantization.hpp"

namespace ptovec::generator {

namespace {

using T = TileDataType;

Encoded EvaluateShift(TypePair, const Inputs& in, NumericExecutionControl) {
  const Encoded r = oracle::MatrixShiftS32ToS16(in[0], static_cast<int>(in[1]));
  return {oracle::LowBits(r.word, 16), r.status};
}

std::optional<std::string> CheckShiftDomain(TypePair, const Inputs& in) {
  if (in[1] >= 1 && in[1] <= 16) return std::nullopt;
  return "shift amount " + HexWord(in[1], T::U8) + " is outside 1..16 (accepted: 0x01..0x10)";
}

// For a shift s the S32 inputs whose result is at the S16 ends: 32767 * 2^s .. 32768 * 2^s - 1
// still gives 0x7fff exactly, 32768 * 2^s is the first that clamps; -32768 * 2^s is the lowest
// that does not clamp, one below it clamps. Words within +/-3 of those four edges, for every
// shift 1..16 (clamped to the S32 range).
TupleSet SaturationEdges() {
  std::vector<Box> boxes;
  for (std::int64_t shift = 1; shift <= 16; ++shift) {
    const std::int64_t scale = std::int64_t{1} << shift;
    WordSet values;
    for (const std::int64_t edge :
         {32767 * scale, 32768 * scale - 1, 32768 * scale, -32768 * scale}) {
      values = values.Union(S32Range(edge - 3, edge + 3));
    }
    boxes.push_back(Box{{values, WordSet::Points({static_cast<Word>(shift)})}});
  }
  return Boxes(std::move(boxes));
}

// For each shift s the S32 words whose result fits S16 without clamping: -32768 * 2^s ..
// 32768 * 2^s - 1 (all of S32 for s = 16). Uniform S32 words mostly clamp, so without this part
// the exact shifts would be a small minority of the samples.
TupleSet InRangeShift() {
  std::vector<Box> boxes;
  for (std::int64_t shift = 1; shift <= 16; ++shift) {
    const std::int64_t scale = std::int64_t{1} << shift;
    boxes.push_back(Box{{S32Range(-32768 * scale, 32768 * scale - 1),
                         WordSet::Points({static_cast<Word>(shift)})}});
  }
  return Boxes(std::move(boxes));
}

// Any S32 word with any shift 1..16.
TupleSet UniformShift() { return Boxes::Product({Fp32UniformBits(), WordSet::Range(1, 16)}); }

// The S32 ends and the words around zero (0, +/-1, +/-2) with every shift 1..16.
TupleSet SpecialValues() {
  return Boxes::Product({WordSet::Points({0, 1, 2, 0xFFFFFFFE, 0xFFFFFFFF, 0x7FFFFFFF, 0x80000000}),
                         WordSet::Range(1, 16)});
}

std::vector<SampleStrategy> ShiftStrategies() {
  return {{"special_values", 1, SpecialValues()},
          {"s16_saturation_edges", 5, SaturationEdges()},
          {"s16_in_range", 4, InRangeShift()},
          {"uniform", 2, UniformShift()}};
}

}  // namespace

// ---- outcome classes (ptovec coverage): MatrixShiftS32ToS16, ASR by 1..16 clamped to S16 ----

namespace {

enum ShiftClass : unsigned {
  kNoBitsDropped,
  kDroppedBelowHalf,
  kDroppedHalf,
  kDroppedAboveHalf,
  kClampHigh,
  kClampLow,
  kAtMaximum,
  kAtMinimum,
  kNegative,
  kAllDropped,
  kShift1,
  kShift16,
};

constexpr OwnClass kShiftClasses[] = {
    {"no bits dropped", "the low `shift` bits are 0: the shift is exact"},
    {"dropped bits below half", "0 < the dropped bits < 2^(shift-1)"},
    {"dropped bits exactly half", "the dropped bits = 2^(shift-1) (a rounding shift would add)"},
    {"dropped bits above half", "the dropped bits > 2^(shift-1)"},
    {"clamp high", "value >> shift > 32767: clamped with OF|NX"},
    {"clamp low", "value >> shift < -32768: clamped with OF|NX"},
    {"range end: maximum", "value >> shift = 32767 without clamping"},
    {"range end: minimum", "value >> shift = -32768 without clamping"},
    {"negative value", "the S32 value is negative"},
    {"every significant bit dropped", "a non-zero value shifts to 0 or -1"},
    {"shift 1", "the smallest shift"},
    {"shift 16", "the largest shift"},
};

ClassMask ClassifyShift(const Inputs& in) {
  const auto v = static_cast<std::int32_t>(static_cast<std::uint32_t>(in[0]));
  const int s = static_cast<int>(in[1]);
  const std::uint32_t dropped = static_cast<std::uint32_t>(v) & ((1U << s) - 1U);
  const std::uint32_t half = 1U << (s - 1);
  const std::int32_t shifted = v >> s;
  ClassMask m = 0;
  m |= ClassBit(dropped == 0      ? kNoBitsDropped
                : dropped < half  ? kDroppedBelowHalf
                : dropped == half ? kDroppedHalf
                                  : kDroppedAboveHalf);
  if (shifted > 32767) m |= ClassBit(kClampHigh);
  if (shifted < -32768) m |= ClassBit(kClampLow);
  if (shifted == 32767) m |= ClassBit(kAtMaximum);
  if (shifted == -32768) m |= ClassBit(kAtMinimum);
  if (v < 0) m |= ClassBit(kNegative);
  if (v != 0 && (shifted == 0 || shifted == -1)) m |= ClassBit(kAllDropped);
  if (s == 1) m |= ClassBit(kShift1);
  if (s == 16) m |= ClassBit(kShift16);
  return m;
}

}  // namespace

OutcomeClassTable ShiftOutcomeClasses(TypePair) {
  return MakeOutcomeClassTable(kShiftClasses, ForEveryControl(ClassifyShift));
}

OpDef MakeShiftOp() {
  OpDef op;
  op.name = "shift";
  op.instruction = "matrix post-process shift (S32 -> S16)";
  op.seed_function = "MatrixShiftS32ToS16";
  op.seed_source = "000_93cee333e42f6460.txt lines 93-106";
  op.summary = "ASR of an S32 by 1..16, clamped to S16 with OF|NX (no mode, no Sat)";
  op.slots = {{"value", SlotRole::Source, T::S32, "the S32 word"},
              {"shift", SlotRole::Fixed, T::U8, "the shift amount, 1..16"}};
  op.uses_controls = false;
  op.legal_pairs = {{T::S32, T::S16}};
  op.default_suite_pairs = op.legal_pairs;
  op.evaluate = EvaluateShift;
  op.evaluate_reference = EvaluateShift;  // the literal seed function is integer arithmetic
  op.check_domain = CheckShiftDomain;
  op.plan = [](TypePair) { return DomainPlan::Sampled(ShiftStrategies()); };
  op.outcome_classes = ShiftOutcomeClasses;
  return op;
}

}  // namespace ptovec::generator
