// Ops encode, shift and qparam: known answers through the registry, bulk path == literal path on
// the default domains, and the sampled domains reach their targets.
#include <gtest/gtest.h>

#include <algorithm>
#include <set>

#include "ptovec/generator/domains.hpp"
#include "ptovec/generator/ops.hpp"
#include "ptovec/oracle/matrix_quantization.hpp"

namespace ptovec::generator {
namespace matrix_ops_test {
namespace {

using T = TileDataType;
using M = NumericRoundingMode;

Encoded Both(const char* op_name, TypePair pair, Inputs in, NumericExecutionControl control) {
  const OpDef& op = *FindOp(op_name);
  const Encoded fast = op.evaluate(pair, in, control);
  EXPECT_EQ(fast, op.evaluate_reference(pair, in, control)) << op_name;
  return fast;
}

TEST(EncodeOp, KnownAnswersOfSpecNotesSection6) {
  const NumericExecutionControl rne{M::RNE, false};
  EXPECT_EQ(Both("encode", {T::FP32, T::S8}, {0x43020000}, rne), (Encoded{0x82, 0x14}));  // 130
  EXPECT_EQ(Both("encode", {T::FP32, T::FP16}, {0x3FC00000}, rne), (Encoded{0x3E00, 0x00}));
  EXPECT_EQ(Both("encode", {T::FP32, T::E4M3}, {0x3FC00000}, rne), (Encoded{0x3C, 0x00}));
  EXPECT_EQ(Both("encode", {T::FP32, T::HiF8}, {0x3FC00000}, rne), (Encoded{0x0C, 0x00}));
  EXPECT_EQ(Both("encode", {T::FP32, T::BF16}, {0xBF808000}, {M::RHB, false}),
            (Encoded{0xBF80, 0x10}));  // -1.00390625
  EXPECT_EQ(Both("encode", {T::FP32, T::FP32}, {0x3F800000}, rne), (Encoded{0x3F800000, 0x00}));
}

TEST(EncodeOp, SectionFiveBehaviourThroughTheOp) {
  // 449 into E4M3 under RNE overflows before rounding: 0x7F non-Sat (both signs), +/-0x7E Sat.
  EXPECT_EQ(Both("encode", {T::FP32, T::E4M3}, {0x43E08000}, {M::RNE, false}),
            (Encoded{0x7F, 0x14}));
  EXPECT_EQ(Both("encode", {T::FP32, T::E4M3}, {0xC3E08000}, {M::RNE, false}),
            (Encoded{0x7F, 0x14}));
  EXPECT_EQ(Both("encode", {T::FP32, T::E4M3}, {0xC3E08000}, {M::RNE, true}),
            (Encoded{0xFE, 0x14}));
  // HiF8 overflow: +/-Inf without Sat, +/-32768 with Sat (65536 = 0x47800000).
  EXPECT_EQ(Both("encode", {T::FP32, T::HiF8}, {0xC7800000}, {M::RTZ, false}),
            (Encoded{0xEF, 0x14}));
  EXPECT_EQ(Both("encode", {T::FP32, T::HiF8}, {0x47800000}, {M::RTZ, true}),
            (Encoded{0x6E, 0x14}));
  // A negative tiny value into E4M3 gives code 0x00 (RTM: -2^-9 = 0x81) with UF|NX.
  EXPECT_EQ(Both("encode", {T::FP32, T::E4M3}, {0xA0000000}, {M::RNE, false}),
            (Encoded{0x00, 0x18}));
  EXPECT_EQ(Both("encode", {T::FP32, T::E4M3}, {0xA0000000}, {M::RTM, false}),
            (Encoded{0x81, 0x18}));
  // -0 encodes as +0 with no status.
  EXPECT_EQ(Both("encode", {T::FP16, T::BF16}, {0x8000}, {M::RTM, false}), (Encoded{0x0000, 0x00}));
  // S4X2 keeps the 4-bit lane: 8.0 overflows, wraps to 0x8 non-Sat, clamps to 0x7 with Sat.
  EXPECT_EQ(Both("encode", {T::S32, T::S4X2}, {0x00000008}, {M::RNE, false}), (Encoded{0x8, 0x14}));
  EXPECT_EQ(Both("encode", {T::S32, T::S4X2}, {0x00000008}, {M::RNE, true}), (Encoded{0x7, 0x14}));
  // S32 -> FP32 rounds above 2^24: 2^24 + 1 is a tie, RNE keeps the even 2^24.
  EXPECT_EQ(Both("encode", {T::S32, T::FP32}, {0x01000001}, {M::RNE, false}),
            (Encoded{0x4B800000, 0x10}));
  EXPECT_EQ(Both("encode", {T::S32, T::FP32}, {0x01000001}, {M::RTP, false}),
            (Encoded{0x4B800001, 0x10}));
}

TEST(EncodeOp, RejectsNonFiniteSources) {
  const OpDef& op = *FindOp("encode");
  EXPECT_TRUE(op.check_domain({T::FP16, T::FP32}, {0x7C00}).has_value());  // +Inf
  EXPECT_TRUE(op.check_domain({T::E4M3, T::FP32}, {0xFF}).has_value());    // NaN
  EXPECT_TRUE(op.check_domain({T::HiF8, T::FP32}, {0x80}).has_value());    // NaN
  EXPECT_FALSE(op.check_domain({T::HiF8, T::FP32}, {0x6E}).has_value());   // 32768
  EXPECT_FALSE(op.check_domain({T::S32, T::FP32}, {0x80000000}).has_value());
}

TEST(EncodeOp, ExhaustiveDomainsHoldEveryFiniteCode) {
  const OpDef& op = *FindOp("encode");
  const SamplingOptions s;
  EXPECT_EQ(op.domain({T::E4M3, T::FP32}, s).count, 254u);    // 256 less 2 NaNs
  EXPECT_EQ(op.domain({T::HiF8, T::FP32}, s).count, 253u);    // less NaN, +Inf, -Inf
  EXPECT_EQ(op.domain({T::FP16, T::FP32}, s).count, 63488u);  // less 2 * 1024 Inf/NaN codes
  EXPECT_EQ(op.domain({T::BF16, T::FP32}, s).count, 65280u);  // less 2 * 128
}

// The bulk path equals the literal seed functions on every sampled pair's default domain.
TEST(EncodeOp, BulkPathEqualsLiteralOnSampledDomains) {
  const OpDef& op = *FindOp("encode");
  const auto controls = ControlsFor(op);
  for (const TypePair& pair : op.default_suite_pairs) {
    if (pair.src != T::FP32 && pair.src != T::S32) continue;
    const InputSet set = op.domain(pair, {11, 120});
    for (std::uint64_t i = 0; i < set.count; ++i) {
      for (const auto& c : controls) {
        ASSERT_EQ(op.evaluate(pair, set.at(i), c), op.evaluate_reference(pair, set.at(i), c))
            << oracle::Format(pair.src).name << "->" << oracle::Format(pair.dst).name << " 0x"
            << std::hex << set.at(i)[0] << " mode " << static_cast<int>(c.rounding_mode) << " sat "
            << c.saturating;
      }
    }
  }
}

// The bulk path equals the literal one on a stride of every exhaustive pair.
TEST(EncodeOp, BulkPathEqualsLiteralOnExhaustiveDomainsStrided) {
  const OpDef& op = *FindOp("encode");
  const auto controls = ControlsFor(op);
  for (const TypePair& pair : op.default_suite_pairs) {
    if (pair.src == T::FP32 || pair.src == T::S32) continue;
    const InputSet set = op.domain(pair, {});
    const std::uint64_t stride =
        set.count > 1000 ? 331 : 3;  // ~200 codes a pair (literal FP8 search is slow)
    for (std::uint64_t i = 0; i < set.count; i += stride) {
      for (const auto& c : controls) {
        ASSERT_EQ(op.evaluate(pair, set.at(i), c), op.evaluate_reference(pair, set.at(i), c))
            << oracle::Format(pair.src).name << "->" << oracle::Format(pair.dst).name << " 0x"
            << std::hex << set.at(i)[0];
      }
    }
  }
}

// FP32 samples aimed at FP16 reach its ties: values exactly halfway between neighbours.
TEST(EncodeOp, Fp32SampleForFp16HitsTiesAndTheOverflowEdge) {
  const OpDef& op = *FindOp("encode");
  const InputSet set = op.domain({T::FP32, T::FP16}, {1, 20000});
  ASSERT_EQ(set.count, 20000u);
  int ties = 0;
  int overflow_edge = 0;
  for (std::uint64_t i = 0; i < set.count; ++i) {
    const Word w = set.at(i)[0];
    const Encoded rne = op.evaluate({T::FP32, T::FP16}, set.at(i), {M::RNE, false});
    const Encoded rna = op.evaluate({T::FP32, T::FP16}, set.at(i), {M::RNA, false});
    if (rne.word != rna.word && (rne.status & 0x04) == 0) ++ties;  // only a tie separates them
    const std::uint32_t magnitude = static_cast<std::uint32_t>(w) & 0x7FFFFFFFU;
    if (magnitude >= 0x477FEFFEU && magnitude <= 0x477FF002U) ++overflow_edge;  // 65520 +/- 2 ulps
  }
  EXPECT_GE(ties, 500);
  EXPECT_GE(overflow_edge, 1);
}

// Every finite code of E4M3, HiF8, FP16 and BF16 encodes into its own format as itself with
// status 0 (-0 as +0), under all 14 controls. Through the bulk path, which the oracle tests prove
// equal to the literal seed functions on every one of these inputs (FastExhaustive*).
TEST(EncodeOp, EveryFiniteCodeEncodesIntoItsOwnFormatExactly) {
  const OpDef& op = *FindOp("encode");
  for (T type : {T::E4M3, T::HiF8, T::FP16, T::BF16}) {
    const InputSet set = op.domain({type, type}, {});
    const unsigned width = oracle::Format(type).width;
    const Word negative_zero = Word{1} << (width - 1);
    for (std::uint64_t i = 0; i < set.count; ++i) {
      const Word code = set.at(i)[0];
      const Word expected = code == negative_zero ? 0 : code;
      for (const auto& c : ControlsFor(op)) {
        ASSERT_EQ(op.evaluate({type, type}, set.at(i), c), (Encoded{expected, 0x00}))
            << oracle::Format(type).name << " 0x" << std::hex << code;
      }
    }
  }
}

// With Sat on, encoding is monotonic: over every finite FP16 code in value order, the result's
// value never decreases, for every mode and every floating destination.
TEST(EncodeOp, SatEncodingIsMonotonicOverEveryFp16Value) {
  const OpDef& op = *FindOp("encode");
  const InputSet set = op.domain({T::FP16, T::FP32}, {});
  std::vector<std::pair<oracle::Real, Word>> values;
  for (std::uint64_t i = 0; i < set.count; ++i) {
    values.emplace_back(oracle::TileNumericFiniteValue(T::FP16, set.at(i)[0]), set.at(i)[0]);
  }
  std::sort(values.begin(), values.end());
  for (T dst : {T::BF16, T::E4M3, T::HiF8, T::FP32}) {
    for (NumericRoundingMode mode : oracle::kAllRoundingModes) {
      oracle::Real previous = -oracle::PowerOfTwo(200);
      for (const auto& [value, code] : values) {
        const Encoded r = op.evaluate({T::FP16, dst}, {code}, {mode, true});
        const oracle::Real result = oracle::TileNumericFiniteValue(dst, r.word);
        ASSERT_GE(result, previous) << oracle::Format(dst).name << " mode "
                                    << static_cast<int>(mode) << " fp16 0x" << std::hex << code;
        previous = result;
      }
    }
  }
}

TEST(ShiftOp, KnownAnswersAndDomain) {
  const NumericExecutionControl none{};
  EXPECT_EQ(Both("shift", {T::S32, T::S16}, {0xFFFFFFDF, 1}, none), (Encoded{0xFFEF, 0x00}));
  EXPECT_EQ(Both("shift", {T::S32, T::S16}, {0x7FFFFFFF, 1}, none), (Encoded{0x7FFF, 0x14}));
  EXPECT_EQ(Both("shift", {T::S32, T::S16}, {0x80000000, 16}, none), (Encoded{0x8000, 0x00}));
  EXPECT_EQ(Both("shift", {T::S32, T::S16}, {0x80000000, 15}, none), (Encoded{0x8000, 0x14}));
  const OpDef& op = *FindOp("shift");
  EXPECT_EQ(ControlsFor(op).size(), 1u);
  EXPECT_TRUE(op.check_domain({T::S32, T::S16}, {0, 0}).has_value());
  EXPECT_TRUE(op.check_domain({T::S32, T::S16}, {0, 17}).has_value());
  // Every shift's first clamping input (32768 << s) is in the default sample.
  const InputSet set = op.domain({T::S32, T::S16}, {1, 100000});
  std::set<Inputs> tuples;
  for (std::uint64_t i = 0; i < set.count; ++i) tuples.insert(set.at(i));
  for (Word s = 1; s <= 16; ++s) {
    const auto first_clamp = static_cast<std::uint32_t>(std::int64_t{32768} << s);
    EXPECT_TRUE(tuples.count(Inputs{first_clamp, s, 0, 0})) << "shift " << s;
    const auto last_exact = static_cast<std::uint32_t>((std::int64_t{32768} << s) - 1);
    EXPECT_TRUE(tuples.count(Inputs{last_exact, s, 0, 0})) << "shift " << s;
  }
}

TEST(QparamOp, KnownAnswerAndRoundTrip) {
  // MatrixQuantOffset(MatrixQuantParameter(FP32ToFP19(1.0), 0x1FF, 9), 9) = -1 (spec-notes 6):
  // through the op the offset is given as the S32 -1.
  const Encoded p = Both("qparam", {T::FP32, T::U64}, {0x3F800000, 0xFFFFFFFF, 9}, {});
  EXPECT_EQ(p.word, 0x00003FE03F800000u);
  EXPECT_EQ(oracle::MatrixQuantOffset(p.word, 9), -1);
  // FP32ToFP19 of a NaN is 0x3FF00, in bits 31:13.
  EXPECT_EQ(Both("qparam", {T::FP32, T::U64}, {0x7FC00001, 0, 0}, {}).word, Word{0x3FF00} << 13);
  const OpDef& op = *FindOp("qparam");
  const InputSet set = op.domain({T::FP32, T::U64}, {5, 5000});
  std::set<Word> widths;
  for (std::uint64_t i = 0; i < set.count; ++i) {
    const Inputs in = set.at(i);
    ASSERT_FALSE(op.check_domain({T::FP32, T::U64}, in).has_value());
    const Word word = op.evaluate({T::FP32, T::U64}, in, {}).word;
    widths.insert(in[2]);
    EXPECT_EQ(oracle::MatrixQuantOffset(word, static_cast<int>(in[2])),
              static_cast<std::int32_t>(static_cast<std::uint32_t>(in[1])));
    EXPECT_EQ((word >> 13) & 0x7FFFF, oracle::FP32ToFP19(in[0]));
  }
  EXPECT_EQ(widths, (std::set<Word>{0, 5, 9, 17}));
}

}  // namespace
}  // namespace matrix_ops_test
}  // namespace ptovec::generator
