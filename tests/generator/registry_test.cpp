// The op registry: finding ops, controls, completeness, domains, seeds and the default suite.
// The tcvt op is tested in tcvt_op_test.cpp.
#include <gtest/gtest.h>

#include <set>

#include "ptovec/generator/ops.hpp"
#include "ptovec/generator/suite.hpp"

namespace ptovec::generator {
namespace registry_test {
namespace {

TEST(Registry, FindOpIsCaseInsensitive) {
  ASSERT_NE(FindOp("TCVT"), nullptr);
  EXPECT_EQ(FindOp("tcvt")->instruction, "TCVT");
  EXPECT_EQ(FindOp("nope"), nullptr);
}

TEST(Registry, ControlsAreSevenModesTimesSat) {
  const auto controls = ControlsFor(*FindOp("tcvt"));
  ASSERT_EQ(controls.size(), 14u);
  std::set<std::pair<int, bool>> distinct;
  for (const auto& c : controls) distinct.insert({static_cast<int>(c.rounding_mode), c.saturating});
  EXPECT_EQ(distinct.size(), 14u);
  EXPECT_EQ(controls[0].rounding_mode, NumericRoundingMode::RNE);
  EXPECT_FALSE(controls[0].saturating);
  EXPECT_TRUE(controls[1].saturating);
  EXPECT_EQ(controls[13].rounding_mode, NumericRoundingMode::RHB);
}

TEST(Registry, EveryOpIsComplete) {
  for (const OpDef& op : AllOps()) {
    SCOPED_TRACE(op.name);
    EXPECT_FALSE(op.instruction.empty());
    EXPECT_FALSE(op.seed_function.empty());
    EXPECT_NE(op.seed_source.find("lines"), std::string::npos);
    EXPECT_FALSE(op.slots.empty());
    EXPECT_LE(op.slots.size(), kMaxSlots);
    EXPECT_TRUE(op.evaluate && op.evaluate_reference && op.check_domain && op.domain &&
                op.domain_count);
    EXPECT_FALSE(op.default_suite_pairs.empty());
    for (const TypePair& p : op.default_suite_pairs) EXPECT_TRUE(IsLegalPair(op, p));
  }
}

TEST(Registry, DomainCountMatchesTheBuiltDomain) {
  const SamplingOptions sampling{3, 500};
  for (const Job& job : DefaultSuite()) {
    SCOPED_TRACE(JobBaseName(job));
    EXPECT_EQ(job.op->domain(job.pair, sampling).count, job.op->domain_count(job.pair, sampling));
  }
}

TEST(Registry, DerivedSeedsDifferPerPairAndSeed) {
  const OpDef& tcvt = *FindOp("tcvt");
  const TypePair fp16{TileDataType::FP16, TileDataType::E8M0};
  const TypePair fp32{TileDataType::FP32, TileDataType::E8M0};
  EXPECT_EQ(DerivedSeed(1, tcvt, fp16), DerivedSeed(1, tcvt, fp16));
  EXPECT_NE(DerivedSeed(1, tcvt, fp16), DerivedSeed(1, tcvt, fp32));
  EXPECT_NE(DerivedSeed(1, tcvt, fp32), DerivedSeed(2, tcvt, fp32));
}

TEST(Suite, DefaultSuiteCounts) {
  const SamplingOptions sampling{1, 100000};
  std::uint64_t total = 0;
  for (const Job& job : DefaultSuite()) {
    if (JobBaseName(job) == "tcvt_fp16_e8m0" || JobBaseName(job) == "tcvt_bf16_e8m0") {
      EXPECT_EQ(VectorCount(job, sampling), 917504u);
    }
    if (JobBaseName(job) == "tcvt_fp32_e8m0") {
      EXPECT_EQ(VectorCount(job, sampling), 1400000u);
    }
    total += VectorCount(job, sampling);
  }
  EXPECT_GE(total, 917504u * 2 + 1400000u);
}

}  // namespace
}  // namespace registry_test
}  // namespace ptovec::generator
