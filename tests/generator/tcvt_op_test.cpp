// The tcvt op: its legal pairs (HardwareTCVTTypePairSupported), the element-width words it
// evaluates to, and its bulk path against the literal one.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <vector>

#include "ptovec/generator/ops.hpp"
#include "ptovec/oracle/edition.hpp"

namespace ptovec::generator {
namespace tcvt_op_test {
namespace {

TEST(Tcvt, LegalPairsFollowHardwareTCVTTypePairSupported) {
  const OpDef& tcvt = *FindOp("tcvt");
  EXPECT_TRUE(IsLegalPair(tcvt, {TileDataType::FP16, TileDataType::E8M0}));
  EXPECT_TRUE(IsLegalPair(tcvt, {TileDataType::BF16, TileDataType::E8M0}));
  EXPECT_TRUE(IsLegalPair(tcvt, {TileDataType::FP32, TileDataType::E8M0}));
  EXPECT_FALSE(IsLegalPair(tcvt, {TileDataType::E4M3, TileDataType::E8M0}));
  EXPECT_FALSE(IsLegalPair(tcvt, {TileDataType::S8, TileDataType::E8M0}));
  EXPECT_TRUE(IsLegalPair(tcvt, {TileDataType::FP32, TileDataType::S8}));
  EXPECT_FALSE(IsLegalPair(tcvt, {TileDataType::FP19, TileDataType::FP32}));  // not a tile type
  EXPECT_EQ(tcvt.default_suite_pairs.size(), 3u);
}

TEST(Tcvt, EvaluatesToElementWidthWords) {
  const OpDef& tcvt = *FindOp("tcvt");
  const NumericExecutionControl rtz{NumericRoundingMode::RTZ, false};
  EXPECT_EQ(tcvt.evaluate({TileDataType::FP16, TileDataType::E8M0}, {0x3C00}, rtz),
            (Encoded{0x7F, 0x00}));
  // Raw-carrier rule: integer destinations normalize, the vector keeps the element width.
  EXPECT_EQ(tcvt.evaluate({TileDataType::FP32, TileDataType::S8}, {0x12345682}, rtz),
            (Encoded{0x82, 0x00}));
  EXPECT_EQ(tcvt.evaluate({TileDataType::FP16, TileDataType::BF16}, {0xABCD}, rtz),
            (Encoded{0xABCD, 0x00}));
  // A signed source's carrier is its sign extension: S8 -126 (0x82) widens to S64 -126.
  EXPECT_EQ(tcvt.evaluate({TileDataType::S8, TileDataType::S64}, {0x82}, rtz),
            (Encoded{0xFFFFFFFFFFFFFF82, 0x00}));
  EXPECT_EQ(tcvt.evaluate({TileDataType::S4X2, TileDataType::S8}, {0xF}, rtz),
            (Encoded{0xFF, 0x00}));
  EXPECT_EQ(tcvt.evaluate({TileDataType::U8, TileDataType::U16}, {0x82}, rtz),
            (Encoded{0x0082, 0x00}));
}

// The bulk path (FastTileProfileConvert) equals the literal one (TileProfileConvert) on every code
// of the 16-bit E8M0 pairs, on the sampled FP32 -> E8M0 domain, and on raw-carrier pairs.
TEST(Tcvt, BulkPathEqualsLiteral) {
  const OpDef& tcvt = *FindOp("tcvt");
  const auto controls = ControlsFor(tcvt);
  std::uint64_t compared = 0;
  for (const TypePair pair : {TypePair{TileDataType::FP16, TileDataType::E8M0},
                              TypePair{TileDataType::BF16, TileDataType::E8M0},
                              TypePair{TileDataType::FP32, TileDataType::E8M0},
                              TypePair{TileDataType::S8, TileDataType::S64},
                              TypePair{TileDataType::FP32, TileDataType::U16},
                              TypePair{TileDataType::E4M3, TileDataType::FP32}}) {
    const InputSet set = tcvt.domain(pair, {5, 2000});
    for (std::uint64_t i = 0; i < set.count; ++i) {
      for (const auto& c : controls) {
        ASSERT_EQ(tcvt.evaluate(pair, set.at(i), c), tcvt.evaluate_reference(pair, set.at(i), c))
            << oracle::Format(pair.src).name << "->" << oracle::Format(pair.dst).name << " 0x"
            << std::hex << set.at(i)[0] << " mode " << static_cast<int>(c.rounding_mode) << " sat "
            << c.saturating;
        ++compared;
      }
    }
  }
  // 65536 codes for each 16-bit source, 2000 FP32 samples, 256 S8, 2000 FP32, 256 E4M3; 14 each.
  EXPECT_EQ(compared, (2 * 65536u + 2000u + 256u + 2000u + 256u) * 14u);
}

// Edition 2026-09's tcvt: evaluate and evaluate_batch (FastConvert2026_09) equal
// evaluate_reference (the literal Convert2026_09) on every legal pair, on the first 64 inputs of
// its domain under each of the pair's controls; known words pin the three.
TEST(Tcvt, Edition2026_09FastAndBatchEqualLiteralOnEveryPair) {
  const OpDef& tcvt = *FindOp("tcvt", oracle::Edition::V2026_09);
  std::uint64_t compared = 0;
  for (const TypePair pair : tcvt.legal_pairs) {
    const auto controls = ControlsFor(tcvt, pair);
    const InputSet set = tcvt.domain(pair, {5, 64});
    const std::uint64_t n = std::min<std::uint64_t>(set.count, 64);
    std::vector<Inputs> inputs;
    for (std::uint64_t i = 0; i < n; ++i) inputs.push_back(set.at(i));
    std::vector<Encoded> batch(inputs.size() * controls.size());
    EvaluateBatch(tcvt, pair, inputs.data(), inputs.size(), controls, batch.data());
    for (std::size_t i = 0; i < inputs.size(); ++i) {
      for (std::size_t c = 0; c < controls.size(); ++c) {
        const Encoded literal = tcvt.evaluate_reference(pair, inputs[i], controls[c]);
        ASSERT_EQ(tcvt.evaluate(pair, inputs[i], controls[c]), literal)
            << oracle::Format(pair.src).name << "->" << oracle::Format(pair.dst).name;
        ASSERT_EQ(batch[i * controls.size() + c], literal)
            << oracle::Format(pair.src).name << "->" << oracle::Format(pair.dst).name;
        ++compared;
      }
    }
  }
  EXPECT_GT(compared, 10000u);
  // FP16 1.125 to E6M2 under RNA: 1.25 (0xc1) with NX (docs/semantics.md's example); FP64 1 + 2^-52
  // to FP32 under RTP: 1 + 2^-23 with NX.
  const NumericExecutionControl rna{NumericRoundingMode::RNA, false};
  const NumericExecutionControl rtp{NumericRoundingMode::RTP, false};
  EXPECT_EQ(tcvt.evaluate({TileDataType::FP16, TileDataType::E6M2}, {0x3c80}, rna),
            (Encoded{0xc1, 0x10}));
  EXPECT_EQ(tcvt.evaluate({TileDataType::FP64, TileDataType::FP32}, {0x3ff0000000000001}, rtp),
            (Encoded{0x3f800001, 0x10}));
}

}  // namespace
}  // namespace tcvt_op_test
}  // namespace ptovec::generator
