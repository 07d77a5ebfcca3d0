// Batch evaluation (OpDef::evaluate_batch, EvaluateBatch) equals `evaluate` called once per input
// and control: exhaustively for encode from every 8- and 16-bit source code into every
// destination and for tcvt from every 16-bit-or-narrower source code, and on sampled inputs of
// every default-suite pair of the ops with a batch path (encode and tcvt; the other ops'
// EvaluateBatch is evaluate itself), under all 14 controls and under a filtered subset in another
// order of Sat.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "ptovec/generator/ops.hpp"
#include "ptovec/generator/word_text.hpp"
#include "ptovec/generator/writers.hpp"

namespace ptovec::generator {
namespace encode_batch_test {
namespace {

using T = TileDataType;

// The number of (input, control) results where EvaluateBatch differs from evaluate.
std::uint64_t BatchDifferences(const OpDef& op, TypePair pair, const std::vector<Inputs>& inputs,
                               const std::vector<NumericExecutionControl>& controls) {
  std::vector<Encoded> batch(inputs.size() * controls.size());
  EvaluateBatch(op, pair, inputs.data(), inputs.size(), controls, batch.data());
  std::uint64_t differences = 0;
  for (std::size_t i = 0; i < inputs.size(); ++i) {
    for (std::size_t c = 0; c < controls.size(); ++c) {
      const Encoded one = op.evaluate(pair, inputs[i], controls[c]);
      if (!(batch[i * controls.size() + c] == one)) {
        if (++differences <= 5) {
          ADD_FAILURE() << op.name << " " << HexWord(inputs[i][0], pair.src) << " control " << c;
        }
      }
    }
  }
  return differences;
}

TEST(EncodeBatch, EqualsEvaluateOnEveryNarrowSourceCode) {
  const OpDef& op = *FindOp("encode");
  std::uint64_t checked = 0;
  for (const TypePair& pair : op.legal_pairs) {
    if (pair.src == T::FP32 || pair.src == T::S32) continue;
    std::vector<Inputs> inputs;
    const unsigned width = oracle::Format(pair.src).width;
    for (Word code = 0; code < (Word{1} << width); ++code) {
      if (!op.check_domain(pair, Inputs{code, 0, 0, 0})) inputs.push_back(Inputs{code, 0, 0, 0});
    }
    EXPECT_EQ(BatchDifferences(op, pair, inputs, ControlsFor(op)), 0u);
    checked += inputs.size();
  }
  // Every finite E4M3 (254) and HiF8 code, every finite FP16 and BF16 code, into 13 types each.
  EXPECT_GT(checked, 13u * (63488 + 65280));
}

TEST(TcvtBatch, EqualsEvaluateOnEveryNarrowSourceCode) {
  const OpDef& op = *FindOp("tcvt");
  std::uint64_t checked = 0;
  for (const TypePair& pair : op.legal_pairs) {
    const unsigned width = oracle::Format(pair.src).width;
    if (width > 16) continue;
    std::vector<Inputs> inputs;
    for (Word code = 0; code < (Word{1} << width); ++code) inputs.push_back(Inputs{code, 0, 0, 0});
    EXPECT_EQ(BatchDifferences(op, pair, inputs, ControlsFor(op)), 0u);
    checked += inputs.size();
  }
  // FP16 and BF16 into E8M0 at least: every code of each.
  EXPECT_GE(checked, 2u * 65536);
}

TEST(EvaluateBatch, EqualsEvaluateOnSampledInputsOfEveryBatchedOp) {
  const SamplingOptions sampling{5, 3000};
  std::vector<NumericExecutionControl> sat_first;  // a filtered, reordered list: Sat on first
  for (const auto m : {oracle::NumericRoundingMode::RTP, oracle::NumericRoundingMode::RNE}) {
    sat_first.push_back({m, true});
    sat_first.push_back({m, false});
  }
  // Only the ops with a batch path (OpDef::evaluate_batch): for the others EvaluateBatch calls
  // evaluate itself, and comparing it with evaluate would test nothing.
  std::vector<std::string> batched;
  for (const OpDef& op : AllOps()) {
    if (!op.evaluate_batch) continue;
    batched.push_back(op.name);
    for (const TypePair& pair : op.default_suite_pairs) {
      const InputSet set = op.domain(pair, sampling);
      std::vector<Inputs> inputs;
      const std::uint64_t step = set.count > 3000 ? set.count / 3000 : 1;
      for (std::uint64_t i = 0; i < set.count; i += step) inputs.push_back(set.at(i));
      EXPECT_EQ(BatchDifferences(op, pair, inputs, ControlsFor(op)), 0u) << op.name;
      if (op.uses_controls) {
        EXPECT_EQ(BatchDifferences(op, pair, inputs, sat_first), 0u);
      }
    }
  }
  // The ops with a batch path: a new one is compared here as soon as it has one.
  EXPECT_EQ(batched, (std::vector<std::string>{"tcvt", "encode"}));
}

}  // namespace
}  // namespace encode_batch_test
}  // namespace ptovec::generator
