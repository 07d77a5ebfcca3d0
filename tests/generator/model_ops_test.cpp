// Behaviour models at the ops (OpDef::evaluate_model): the fast form equals the literal form on
// sampled default-suite inputs of every pair of every op that has one, under every control and
// every built-in model and single deviation; known answers of tdequant, whose overflow ignores
// Sat, and of encode's E4M3 sources under e4m3-inf-nan.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "ptovec/generator/ops.hpp"
#include "ptovec/oracle/behaviour.hpp"

namespace ptovec::generator {
namespace model_ops_test {
namespace {

using oracle::Behaviour;
using oracle::Deviation;
using oracle::ModelAnswer;
using M = oracle::NumericRoundingMode;
using T = TileDataType;

std::vector<Behaviour> Behaviours() {
  std::vector<Behaviour> out;
  for (const oracle::NamedModel& m : oracle::BuiltinModels()) out.push_back(m.behaviour);
  for (const oracle::DeviationInfo& d : oracle::AllDeviations()) {
    out.push_back({oracle::DeviationBit(d.deviation), oracle::InvalidIntegerWord::Clamp,
                   oracle::NaNWord::PositiveQuiet});
  }
  return out;
}

TEST(ModelOps, FastEqualsLiteralOverSampledInputs) {
  const SamplingOptions sampling{7, 400};
  std::vector<std::string> modelled;
  for (const OpDef& op : AllOps()) {
    if (!op.evaluate_model) continue;
    ASSERT_TRUE(op.evaluate_model_reference) << op.name;
    modelled.push_back(op.name);
    for (const TypePair& pair : op.default_suite_pairs) {
      const InputSet set = op.domain(pair, sampling);
      const std::uint64_t step = set.count > 120 ? set.count / 120 : 1;
      int mismatches = 0;
      for (std::uint64_t i = 0; i < set.count; i += step) {
        const Inputs in = set.at(i);
        for (const NumericExecutionControl c : ControlsFor(op, pair)) {
          for (const Behaviour& b : Behaviours()) {
            const ModelAnswer fast = op.evaluate_model(pair, in, c, b);
            const ModelAnswer literal = op.evaluate_model_reference(pair, in, c, b);
            if (!(fast == literal) && ++mismatches <= 5) {
              ADD_FAILURE() << op.name << " " << oracle::Format(pair.src).name << " -> "
                            << oracle::Format(pair.dst).name << " input " << in[0] << " "
                            << oracle::RoundingModeName(c.rounding_mode) << " deviations "
                            << int(b.deviations);
            }
            // A model answers as the profile where none of its deviations applied.
            if (fast.applied == 0 && !fast.word_open) {
              EXPECT_EQ(fast.result, op.evaluate(pair, in, c));
            }
          }
        }
      }
      EXPECT_EQ(mismatches, 0) << op.name;
    }
  }
  EXPECT_EQ(modelled, (std::vector<std::string>{"encode", "tquant", "tdequant"}));
}

TEST(ModelOps, TdequantOverflowIgnoresSatInEveryModel) {
  const OpDef& op = *FindOp("tdequant");
  const TypePair pair{T::S8, T::FP32};
  // (127 - (-128)) * 0x7f7fffff overflows FP32; under RTZ IEEE gives the largest finite, with
  // Sat on as well (the profile's TDEQUANT reads no Sat).
  const Inputs in{0x7f, 0x7f7fffff, 0x80, 0, 0};
  const oracle::Behaviour& ieee = oracle::FindBuiltinModel("ieee754")->behaviour;
  for (const bool sat : {false, true}) {
    EXPECT_EQ(op.evaluate(pair, in, {M::RTZ, sat}), (Encoded{0x7f800000, 0x14}));
    EXPECT_EQ(op.evaluate_model(pair, in, {M::RTZ, sat}, ieee).result, (Encoded{0x7f7fffff, 0x14}));
  }
}

// TQUANT: NaN gives 0 with NV in the profile; RISC-V's maximum, Arm's 0, x86's indefinite; an
// out-of-range result clamps silently under Sat in the profile and raises NV in a model.
TEST(ModelOps, TquantInvalidIntegers) {
  const OpDef& op = *FindOp("tquant");
  const TypePair pair{T::FP32, T::S8};
  const Inputs nan{0x7fc00000, 0x3f800000, 0, 0, 0};
  const auto model = [&](const char* name, const Inputs& in, NumericExecutionControl c) {
    return op.evaluate_model(pair, in, c, oracle::FindBuiltinModel(name)->behaviour).result;
  };
  EXPECT_EQ(op.evaluate(pair, nan, {}), (Encoded{0x00, 0x01}));
  EXPECT_EQ(model("riscv", nan, {}), (Encoded{0x7f, 0x01}));
  EXPECT_EQ(model("arm", nan, {}), (Encoded{0x00, 0x01}));
  EXPECT_EQ(model("x86", nan, {}), (Encoded{0x80, 0x01}));
  const Inputs big{0x43480000, 0x3f800000, 0, 0, 0};  // 200 * 1 + 0 > 127
  EXPECT_EQ(op.evaluate(pair, big, {M::RNE, true}), (Encoded{0x7f, 0x00}));
  EXPECT_EQ(model("riscv", big, {M::RNE, true}), (Encoded{0x7f, 0x01}));
  EXPECT_EQ(model("x86", big, {M::RNE, false}), (Encoded{0x80, 0x01}));
  const Inputs inf{0xff800000, 0x3f800000, 0, 0, 0};
  EXPECT_EQ(op.evaluate(pair, inf, {}), (Encoded{0x80, 0x14}));
  EXPECT_EQ(model("riscv", inf, {}), (Encoded{0x80, 0x01}));
}

TEST(ModelOps, EncodeE4M3InfNaNSources) {
  const OpDef& op = *FindOp("encode");
  Behaviour b = oracle::FindBuiltinModel("riscv")->behaviour;
  b.deviations |= oracle::DeviationBit(Deviation::E4M3InfNaN);
  // E4M3 0x78 is 256 in the profile, +Inf with e4m3-inf-nan; 0x7e is NaN: RISC-V's canonical NaN
  // into FP32, the maximum (and NV) into S32.
  EXPECT_EQ(op.evaluate({T::E4M3, T::FP32}, {0x78, 0, 0, 0, 0}, {}), (Encoded{0x43800000, 0}));
  EXPECT_EQ(op.evaluate_model({T::E4M3, T::FP32}, {0x78, 0, 0, 0, 0}, {}, b).result,
            (Encoded{0x7f800000, 0}));
  EXPECT_EQ(op.evaluate_model({T::E4M3, T::FP32}, {0x7e, 0, 0, 0, 0}, {}, b).result,
            (Encoded{0x7fc00000, 0}));
  EXPECT_EQ(op.evaluate_model({T::E4M3, T::S32}, {0xfe, 0, 0, 0, 0}, {}, b).result,
            (Encoded{0x7fffffff, 0x01}));
}

}  // namespace
}  // namespace model_ops_test
}  // namespace ptovec::generator
