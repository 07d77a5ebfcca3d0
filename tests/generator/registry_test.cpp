// The op registry: finding ops, controls, completeness, domains, seeds and the default suite.
// The tcvt op is tested in tcvt_op_test.cpp.
#include <gtest/gtest.h>

#include <cstdint>
#include <map>
#include <set>
#include <string>

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
  std::map<std::string, std::uint64_t> counts;
  std::uint64_t total = 0;
  for (const Job& job : DefaultSuite()) {
    const std::uint64_t n = VectorCount(job, sampling);
    EXPECT_TRUE(counts.emplace(JobBaseName(job), n).second) << JobBaseName(job);
    total += n;
  }
  // Every file of the default suite with its vectors (docs/ops.md has the suite's sizes): a
  // changed domain, a new pair or a lost one changes this list.
  const std::map<std::string, std::uint64_t> expected{
      {"affine_fp32_s16", 1400000},
      {"affine_fp32_s32", 1400000},
      {"affine_fp32_s4x2", 1400000},
      {"affine_fp32_s8", 1400000},
      {"affine_fp32_u16", 1400000},
      {"affine_fp32_u32", 1400000},
      {"affine_fp32_u4x2", 1400000},
      {"affine_fp32_u8", 1400000},
      {"affine_s32_s16", 1400000},
      {"affine_s32_s32", 1400000},
      {"affine_s32_s4x2", 1400000},
      {"affine_s32_s8", 1400000},
      {"affine_s32_u16", 1400000},
      {"affine_s32_u32", 1400000},
      {"affine_s32_u4x2", 1400000},
      {"affine_s32_u8", 1400000},
      {"encode_bf16_bf16", 913920},
      {"encode_bf16_e4m3", 913920},
      {"encode_bf16_fp16", 913920},
      {"encode_bf16_fp32", 913920},
      {"encode_bf16_hif8", 913920},
      {"encode_bf16_s16", 913920},
      {"encode_bf16_s32", 913920},
      {"encode_bf16_s4x2", 913920},
      {"encode_bf16_s8", 913920},
      {"encode_bf16_u16", 913920},
      {"encode_bf16_u32", 913920},
      {"encode_bf16_u4x2", 913920},
      {"encode_bf16_u8", 913920},
      {"encode_e4m3_bf16", 3556},
      {"encode_e4m3_e4m3", 3556},
      {"encode_e4m3_fp16", 3556},
      {"encode_e4m3_fp32", 3556},
      {"encode_e4m3_hif8", 3556},
      {"encode_e4m3_s16", 3556},
      {"encode_e4m3_s32", 3556},
      {"encode_e4m3_s4x2", 3556},
      {"encode_e4m3_s8", 3556},
      {"encode_e4m3_u16", 3556},
      {"encode_e4m3_u32", 3556},
      {"encode_e4m3_u4x2", 3556},
      {"encode_e4m3_u8", 3556},
      {"encode_fp16_bf16", 888832},
      {"encode_fp16_e4m3", 888832},
      {"encode_fp16_fp16", 888832},
      {"encode_fp16_fp32", 888832},
      {"encode_fp16_hif8", 888832},
      {"encode_fp16_s16", 888832},
      {"encode_fp16_s32", 888832},
      {"encode_fp16_s4x2", 888832},
      {"encode_fp16_s8", 888832},
      {"encode_fp16_u16", 888832},
      {"encode_fp16_u32", 888832},
      {"encode_fp16_u4x2", 888832},
      {"encode_fp16_u8", 888832},
      {"encode_fp32_bf16", 1400000},
      {"encode_fp32_e4m3", 1400000},
      {"encode_fp32_fp16", 1400000},
      {"encode_fp32_fp32", 1400000},
      {"encode_fp32_hif8", 1400000},
      {"encode_fp32_s16", 1400000},
      {"encode_fp32_s32", 1400000},
      {"encode_fp32_s4x2", 1400000},
      {"encode_fp32_s8", 1400000},
      {"encode_fp32_u16", 1400000},
      {"encode_fp32_u32", 1400000},
      {"encode_fp32_u4x2", 1400000},
      {"encode_fp32_u8", 1400000},
      {"encode_hif8_bf16", 3542},
      {"encode_hif8_e4m3", 3542},
      {"encode_hif8_fp16", 3542},
      {"encode_hif8_fp32", 3542},
      {"encode_hif8_hif8", 3542},
      {"encode_hif8_s16", 3542},
      {"encode_hif8_s32", 3542},
      {"encode_hif8_s4x2", 3542},
      {"encode_hif8_s8", 3542},
      {"encode_hif8_u16", 3542},
      {"encode_hif8_u32", 3542},
      {"encode_hif8_u4x2", 3542},
      {"encode_hif8_u8", 3542},
      {"encode_s32_bf16", 1400000},
      {"encode_s32_e4m3", 1400000},
      {"encode_s32_fp16", 1400000},
      {"encode_s32_fp32", 1400000},
      {"encode_s32_hif8", 1400000},
      {"encode_s32_s16", 1400000},
      {"encode_s32_s32", 1400000},
      {"encode_s32_s4x2", 1400000},
      {"encode_s32_s8", 1400000},
      {"encode_s32_u16", 1400000},
      {"encode_s32_u32", 1400000},
      {"encode_s32_u4x2", 1400000},
      {"encode_s32_u8", 1400000},
      {"fpatr_fp32_bf16", 20000},
      {"fpatr_fp32_e4m3", 20000},
      {"fpatr_fp32_fp16", 20000},
      {"fpatr_fp32_fp32_pqm0", 10000},
      {"fpatr_fp32_fp32_pqm27-38", 140000},
      {"fpatr_fp32_hif8", 20000},
      {"fpatr_fp32_s8", 140000},
      {"fpatr_s32_bf16", 140000},
      {"fpatr_s32_fp16", 140000},
      {"fpatr_s32_s16_pqm12-13", 10000},
      {"fpatr_s32_s16_pqm19-20", 140000},
      {"fpatr_s32_s32", 10000},
      {"fpatr_s32_s4x2", 140000},
      {"fpatr_s32_s8", 140000},
      {"fpatr_u32_u32", 10000},
      {"qparam_fp32_u64", 100000},
      {"shift_s32_s16", 100000},
      {"tcvt_bf16_e8m0", 917504},
      {"tcvt_fp16_e8m0", 917504},
      {"tcvt_fp32_e8m0", 1400000},
      {"tdequant_s8_fp32", 11010048},
      {"tdequant_u8_fp32", 11010048},
      {"tquant_fp32_s8", 1400000},
      {"tquant_fp32_u8", 1400000},
  };
  EXPECT_EQ(counts, expected);
  EXPECT_EQ(counts.size(), 118u);
  EXPECT_EQ(total, 111683154u);  // docs/ops.md: 118 files, 111,683,154 vectors
}

}  // namespace
}  // namespace registry_test
}  // namespace ptovec::generator
