// The outcome-class tables and the witness table (coverage.hpp): every witness, re-evaluated by
// the oracle, lands in its class under each control it claims; every class name it names is in
// its pair's table; and a few classes land where the field says they do.
#include "ptovec/generator/coverage.hpp"

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <set>
#include <string>
#include <string_view>

#include "ptovec/generator/domains.hpp"
#include "ptovec/generator/suite.hpp"
#include "ptovec/oracle/edition.hpp"

namespace ptovec::generator {
namespace coverage_test {
namespace {

// The class of `name` in a pair's table, or nullptr.
const CoverageClass* FindClass(const std::vector<CoverageClass>& classes, std::string_view name) {
  for (const CoverageClass& c : classes) {
    if (c.name == name) return &c;
  }
  return nullptr;
}

// The classes of one input under one control (evaluated by the op's literal seed function).
ClassMask ClassesOf(const OpDef& op, TypePair pair, const Inputs& in, NumericExecutionControl c) {
  const PairClassifier classifier(op, pair);
  const Encoded expected = op.evaluate_reference(pair, in, c);
  ClassMask mask = 0;
  const NumericExecutionControl controls[] = {c};
  classifier.Classify(in, controls, &expected, &mask);
  return mask;
}

// Every row of the witness table of `edition`, re-evaluated by the op's literal function, lands
// in its class under each control it claims; returns the (row, control) cells checked.
std::size_t CheckWitnesses(oracle::Edition edition) {
  std::size_t checked = 0;
  for (const Witness& w : Witnesses(edition)) {
    const OpDef* op = FindOp(w.op, edition);
    EXPECT_NE(op, nullptr) << w.op;
    if (op == nullptr) continue;
    const auto src = oracle::ParseTileDataType(w.src, edition);
    const auto dst = oracle::ParseTileDataType(w.dst, edition);
    EXPECT_TRUE(src && dst) << w.src << " " << w.dst;
    if (!src || !dst) continue;
    const TypePair pair{*src, *dst};
    const std::vector<CoverageClass> classes = CoverageClasses(*op, pair);
    const CoverageClass* c = FindClass(classes, w.class_name);
    EXPECT_NE(c, nullptr) << w.op << " " << w.src << " " << w.dst << ": " << w.class_name;
    if (c == nullptr) continue;
    const Inputs in = w.inputs;
    EXPECT_FALSE(op->check_domain(pair, in).has_value());
    for (const NumericExecutionControl control : ControlsFor(*op)) {
      if (((w.controls >> ControlSlot(control)) & 1U) == 0) continue;
      EXPECT_TRUE(ClassesOf(*op, pair, in, control).test(c->bit))
          << PairKey(*op, pair) << " " << w.class_name << " control " << ControlSlot(control);
      ++checked;
    }
  }
  return checked;
}

TEST(Coverage, EveryWitnessLandsInItsClassUnderEachControlItClaims) {
  ASSERT_GT(Witnesses().size(), 1000U);
  EXPECT_GT(CheckWitnesses(oracle::Edition::V0_58_3), Witnesses().size());
}

// The table of edition 2026-09 (coverage_witnesses_2026_09.inc): TCVT by value of every pair of
// its default suite.
TEST(Coverage, EveryWitnessOfEdition2026_09LandsInItsClass) {
  const auto witnesses = Witnesses(oracle::Edition::V2026_09);
  ASSERT_GT(witnesses.size(), 1000U);
  EXPECT_GT(CheckWitnesses(oracle::Edition::V2026_09), witnesses.size());
  // FP16 -> E4M3 (reference-conversion.asl lines 112-127): an Inf gives the largest finite
  // under Sat only, so the class's rows claim exactly the seven Sat-on slots (bit 2 * mode + 1).
  std::uint32_t controls = 0;
  for (const Witness& w : witnesses) {
    if (std::string_view(w.src) == "fp16" && std::string_view(w.dst) == "e4m3" &&
        std::string_view(w.class_name) == "Inf source under Sat: the largest finite, OF and NX")
      controls |= w.controls;
  }
  EXPECT_EQ(controls, 0x2AAAu);
}

TEST(Coverage, EveryPairOfTheDefaultSuiteHasWitnessesAndEveryOpHasATable) {
  for (const oracle::Edition edition : oracle::kAllEditions) {
    for (const Job& job : DefaultSuite(edition)) {
      const auto reach = ReachableClasses(*job.op, job.pair);
      EXPECT_NE(reach[0], 0U) << PairKey(*job.op, job.pair) << " of "
                              << oracle::EditionName(edition);
      EXPECT_TRUE(static_cast<bool>(job.op->outcome_classes)) << job.op->name;
    }
  }
}

// Classes a review found reachable although the table once called them unreachable (docs/
// coverage.md): S32's maximum as affine's destination under every control (Sat off needs a
// product within one unit of 2^31 - 1 that rounds to it, or 0x7fffffff x 1.0), and shift's zero
// input.
TEST(Coverage, RangeEndAndZeroClassesAReviewFoundAreInTheTable) {
  const auto controls_of = [](const std::string& op, const std::string& src, const std::string& dst,
                              const std::string& name) {
    std::uint32_t controls = 0;
    for (const Witness& w : Witnesses()) {
      if (w.op == op && w.src == src && w.dst == dst && w.class_name == name)
        controls |= w.controls;
    }
    return controls;
  };
  EXPECT_EQ(controls_of("affine", "fp32", "s32", "dst range end: maximum"), 0x3FFFu);
  EXPECT_EQ(controls_of("affine", "s32", "s32", "dst range end: maximum"), 0x3FFFu);
  EXPECT_EQ(controls_of("shift", "s32", "s16", "input zero"), 0x1u);
}

TEST(Coverage, FloatingEncodeClassesOfKnownValues) {
  const OpDef& op = *FindOp("encode");
  const TypePair pair{TileDataType::FP32, TileDataType::FP16};
  const auto classes = CoverageClasses(op, pair);
  const auto has = [&](Word value, NumericExecutionControl c, std::string_view name) {
    return ClassesOf(op, pair, {value, 0, 0, 0}, c).test(FindClass(classes, name)->bit);
  };
  const NumericExecutionControl rne{NumericRoundingMode::RNE, false};
  const NumericExecutionControl rne_sat{NumericRoundingMode::RNE, true};
  const NumericExecutionControl rtz{NumericRoundingMode::RTZ, false};
  // 65520 = 65504 + 16: the FP16 overflow threshold; RNE overflows, RTZ does not.
  EXPECT_TRUE(has(0x477ff000, rne, "at the overflow threshold"));
  EXPECT_TRUE(has(0x477ff000, rne, "overflow to Inf or NaN"));
  EXPECT_TRUE(has(0x477ff000, rne_sat, "overflow under Sat"));
  EXPECT_FALSE(has(0x477ff000, rtz, "overflow to Inf or NaN"));
  EXPECT_TRUE(has(0x477fe800, rne, "just below the overflow threshold"));  // 65512
  // 1 + 2^-11 is halfway between 1 and 1 + 2^-10: RNE keeps 1 (down), RTZ is not a tie rule but
  // the value is still a tie rounded down.
  EXPECT_TRUE(has(0x3f801000, rne, "exact tie rounded down"));
  EXPECT_FALSE(has(0x3f801000, rne, "exact tie rounded up"));
  // 1 + 3 * 2^-11: halfway between 1 + 2^-10 and 1 + 2^-9; RNE goes up to the even one.
  EXPECT_TRUE(has(0x3f803000, rne, "exact tie rounded up"));
  EXPECT_TRUE(has(0x3f800000, rne, "exact normal"));
  EXPECT_FALSE(has(0x3f800000, rne, "inexact normal"));
  // 2 - 2^-12 rounds up to 2 under RNE: a carry into the next binade.
  EXPECT_TRUE(has(0x3ffff000, rne, "carry into the next binade"));
  // 2^-30 is far below FP16's smallest subnormal (2^-24): RNE gives 0 with UF.
  EXPECT_TRUE(has(0x30800000, rne, "rounding to zero from a non-zero value"));
  EXPECT_TRUE(has(0x30800000, rne, "tiny and inexact (UF)"));
}

// fpatr keeps the classes of each PreQuantMode's last step apart (a review found that deleting
// every inexact PreQuantMode 25 input of fp32 -> hif8 left coverage complete when classes were
// kept per pair only), and HiF8's smallest normal is 2^-15, not its first normal code (1.0).
TEST(Coverage, FpatrClassesArePerPreQuantModeAndLastStep) {
  const OpDef& op = *FindOp("fpatr");
  const NumericExecutionControl rne{NumericRoundingMode::RNE, false};
  const NumericExecutionControl rne_sat{NumericRoundingMode::RNE, true};
  const auto has = [&](TypePair pair, const Inputs& in, NumericExecutionControl c,
                       std::string_view name) {
    const auto classes = CoverageClasses(op, pair);
    const CoverageClass* k = FindClass(classes, name);
    EXPECT_NE(k, nullptr) << name;
    return k != nullptr && ClassesOf(op, pair, in, c).test(k->bit);
  };
  const TypePair fp16{TileDataType::FP32, TileDataType::FP16};
  // Mode 1 (no scale, RNE): 65520 is FP16's overflow threshold itself.
  const Inputs at_threshold{0x477ff000, 1, 0, 0, 0};
  EXPECT_TRUE(has(fp16, at_threshold, rne, "PreQuantMode 1: at the overflow threshold"));
  EXPECT_TRUE(has(fp16, at_threshold, rne, "PreQuantMode 1: overflow to Inf or NaN"));
  EXPECT_TRUE(has(fp16, at_threshold, rne_sat, "PreQuantMode 1: overflow under Sat"));
  EXPECT_FALSE(has(fp16, at_threshold, rne, "PreQuantMode 32: at the overflow threshold"));
  // Mode 32 (scalar scale 0.5 in bits 31:13): 1 + 2^-10 times 0.5 is exact in FP16.
  const Inputs scaled{0x3f802000, 32, 0, Word{0x1F800} << 13, 0};
  EXPECT_TRUE(has(fp16, scaled, rne, "PreQuantMode 32: exact normal"));
  EXPECT_FALSE(has(fp16, scaled, rne, "PreQuantMode 1: exact normal"));
  // -1 + 2^-11 ... as a negative value under LReLU with parameter 1.0: a tie of FP16 (1 + 2^-11
  // is halfway between 1 and 1 + 2^-10), RNE keeps 1.
  const Inputs lrelu_tie{0xbf801000, 1, 2, 0, 0x1FC00};
  EXPECT_TRUE(has(fp16, lrelu_tie, rne, "PreQuantMode 1: exact tie rounded down"));
  EXPECT_TRUE(has(fp16, lrelu_tie, rne, "PreQuantMode 1: negative under LReLU/PReLU"));
  EXPECT_TRUE(has(fp16, lrelu_tie, rne, "PreQuantMode 1, ReluMode 2 (LReLU)"));

  const TypePair hif8{TileDataType::FP32, TileDataType::HiF8};
  // Mode 25 (scalar scale, RHB): 2^-15 (HiF8's smallest normal) minus 2^-40 rounds up to it;
  // 1 - 2^-24 rounding up to 1.0 is only a carry into the next binade.
  const Inputs below_normal{0x37ffffff, 25, 0, Word{0x1FC00} << 13, 0};
  EXPECT_TRUE(has(hif8, below_normal, rne, "PreQuantMode 25: rounding up to the smallest normal"));
  EXPECT_FALSE(has(hif8, below_normal, rne, "PreQuantMode 28: rounding up to the smallest normal"));
  const Inputs below_one{0x3f7fffff, 25, 0, Word{0x1FC00} << 13, 0};
  EXPECT_FALSE(has(hif8, below_one, rne, "PreQuantMode 25: rounding up to the smallest normal"));
  EXPECT_TRUE(has(hif8, below_one, rne, "PreQuantMode 25: carry into the next binade"));
  EXPECT_TRUE(has(hif8, below_one, rne, "PreQuantMode 25: inexact normal"));

  // Modes 12 (shift) and 19 (S17 affine) of S32 -> S16 have the shift's and the affine step's
  // classes; mode 19 has only its own width and no ties after its intermediate.
  const TypePair s16{TileDataType::S32, TileDataType::S16};
  const Inputs shift_half{0x1, 12, 0, 0, 0};  // shift code 0: shift 1, the dropped bit is half
  EXPECT_TRUE(has(s16, shift_half, rne, "PreQuantMode 12: dropped bits exactly half"));
  EXPECT_TRUE(has(s16, shift_half, rne, "PreQuantMode 12: shift 1"));
  const auto classes = CoverageClasses(op, s16);
  EXPECT_NE(FindClass(classes, "PreQuantMode 19: width 17"), nullptr);
  EXPECT_EQ(FindClass(classes, "PreQuantMode 19: width 5"), nullptr);
  EXPECT_EQ(FindClass(classes, "PreQuantMode 19: dst tie rounded up"), nullptr);
  EXPECT_EQ(FindClass(classes, "PreQuantMode 19: dst negative into unsigned"), nullptr);
  // 3 input and 5 status classes; per shift mode 4 ReluModes and the shift's 12 (a shift mode
  // ignores ReluMode: no negative-value classes); per affine mode 4 ReluModes, 2 negative-value
  // classes and 15 of the affine table's 22 (3 other widths, the 3 ties and rounding to zero of
  // the final encoding, negative into unsigned left out).
  EXPECT_EQ(classes.size(), 8U + 2 * (4 + 12) + 2 * (4 + 2 + 15));
  EXPECT_EQ(FindClass(classes, "PreQuantMode 12: negative under ReLU"), nullptr);
  // 3 x 0.5 = 1.5: a tie of the S17 intermediate (mode 19: scale in bits 31:13, offset 0).
  const Inputs product_tie{0x3, 19, 0, Word{0x1F800} << 13, 0};
  EXPECT_TRUE(has(s16, product_tie, rne, "PreQuantMode 19: product tie"));
  EXPECT_TRUE(has(s16, product_tie, rne, "PreQuantMode 19: width 17"));
  // RNE takes 1.5 to 2 (away from zero), RTZ to 1.
  EXPECT_TRUE(has(s16, product_tie, rne, "PreQuantMode 19: product tie rounded up"));
  EXPECT_TRUE(has(s16, product_tie, {NumericRoundingMode::RTZ, false},
                  "PreQuantMode 19: product tie rounded down"));

  // -Inf times a zero multiplier (ReLU, or LReLU with a +0 parameter) is encoded as 0; with a
  // non-zero parameter it is the special-value step's -Inf. -0 keeps its sign only with a
  // non-zero multiplier.
  const TypePair fp32{TileDataType::FP32, TileDataType::FP32};
  const Inputs minus_inf_relu{0xff800000, 27, 1, Word{0x1FC00} << 13, 0};
  const Inputs minus_inf_lrelu{0xff800000, 27, 2, Word{0x1FC00} << 13, 0x1FC00};
  EXPECT_TRUE(
      has(fp32, minus_inf_relu, rne, "PreQuantMode 27: -Inf accumulator times a zero multiplier"));
  EXPECT_FALSE(has(fp32, minus_inf_relu, rne, "PreQuantMode 27: Inf accumulator"));
  EXPECT_TRUE(has(fp32, minus_inf_relu, rne, "PreQuantMode 27: exact zero"));
  EXPECT_TRUE(has(fp32, minus_inf_lrelu, rne, "PreQuantMode 27: Inf accumulator"));
  EXPECT_TRUE(has(fp16, {0x80000000, 1, 0, 0, 0}, rne, "PreQuantMode 1: -0 accumulator kept"));
  EXPECT_TRUE(has(fp16, {0x80000000, 1, 1, 0, 0}, rne, "PreQuantMode 1: -0 accumulator made +0"));
}

TEST(Coverage, ShiftAndQparamClassesOfKnownInputs) {
  const OpDef& shift = *FindOp("shift");
  const TypePair sp{TileDataType::S32, TileDataType::S16};
  const auto sc = CoverageClasses(shift, sp);
  const auto shift_has = [&](Word v, Word s, std::string_view name) {
    return ClassesOf(shift, sp, {v, s, 0, 0}, {}).test(FindClass(sc, name)->bit);
  };
  EXPECT_TRUE(shift_has(0x1, 1, "dropped bits exactly half"));
  EXPECT_TRUE(shift_has(0x3, 2, "dropped bits above half"));
  EXPECT_TRUE(shift_has(0x40, 7, "dropped bits exactly half"));
  EXPECT_TRUE(shift_has(0x00010000, 1, "clamp high"));
  EXPECT_FALSE(shift_has(0x0000fffe, 1, "clamp high"));
  EXPECT_TRUE(shift_has(0x0000fffe, 1, "range end: maximum"));

  const OpDef& qparam = *FindOp("qparam");
  const TypePair qp{TileDataType::FP32, TileDataType::U64};
  const auto qc = CoverageClasses(qparam, qp);
  const auto q_has = [&](Word scale, std::string_view name) {
    return ClassesOf(qparam, qp, {scale, 0, 0, 0}, {}).test(FindClass(qc, name)->bit);
  };
  EXPECT_TRUE(q_has(0x3f801000, "FP19 tie kept even"));
  EXPECT_TRUE(q_has(0x3f803000, "FP19 tie rounded up to even"));
  EXPECT_TRUE(q_has(0x3fffffff, "FP19 carry into the exponent"));
  EXPECT_TRUE(q_has(0x3f800000, "FP19 exact"));
}

// The unreachable claims of the witness table (a class no witness shows under a control), probed
// on the whole input space of every pair of the default suite (op.input_space: the op's weighted
// strategies and uniform words): no drawn input lands in a class the table calls unreachable.
// Both editions' default suites (2026-09: TCVT by value, its own witness table).
RC_GTEST_PROP(CoverageProperties, NoInputHitsAClassTheWitnessTableCallsUnreachable, ()) {
  static const std::vector<Job> jobs = [] {
    std::vector<Job> all = DefaultSuite();
    for (const Job& j : DefaultSuite(oracle::Edition::V2026_09)) all.push_back(j);
    return all;
  }();
  const Job& job = *rc::gen::elementOf(jobs);
  const Inputs in = *job.op->input_space(job.pair);
  const auto reach = ReachableClasses(*job.op, job.pair);
  const PairClassifier classifier(*job.op, job.pair);
  // The controls of its files (fpatr: those legal for its PreQuantModes).
  const std::vector<NumericExecutionControl> controls = ControlsFor(*job.op, job.pair);
  std::vector<Encoded> expected(controls.size());
  EvaluateBatch(*job.op, job.pair, &in, 1, controls, expected.data());
  std::vector<ClassMask> masks(controls.size());
  classifier.Classify(in, controls, expected.data(), masks.data());
  for (std::size_t c = 0; c < controls.size(); ++c) {
    const ClassMask unexpected = masks[c] & ~reach[ControlSlot(controls[c])];
    RC_ASSERT(unexpected == 0U);
  }
}

// TDEQUANT cannot underflow (docs/coverage.md): (value - zero_point) is an integer and the scale
// a multiple of 2^-149, so a product below 2^-126 is an exact FP32 subnormal. Probed on any
// positive finite scale, every value and zero point, every control.
RC_GTEST_PROP(CoverageProperties, TdequantNeverRaisesUF, ()) {
  const OpDef& op = *FindOp("tdequant");
  const TileDataType src = *rc::gen::element(TileDataType::S8, TileDataType::U8);
  const Word scale = *rc::gen::weightedOneOf<Word>(
      {{1, rc::gen::inRange<Word>(1, 0x00800000)}, {1, rc::gen::inRange<Word>(1, 0x7F800000)}});
  const Inputs in{*rc::gen::inRange<Word>(0, 256), scale, *rc::gen::inRange<Word>(0, 256), 0};
  for (const NumericExecutionControl c : ControlsFor(op)) {
    RC_ASSERT((op.evaluate({src, TileDataType::FP32}, in, c).status & oracle::kStatusUF) == 0U);
  }
}

}  // namespace
}  // namespace coverage_test
}  // namespace ptovec::generator
