// Op `affine`: MatrixQuantizedAffine (seed 000 lines 133-150) through the registry: known answers
// through both the bulk path (evaluate) and the literal seed path (evaluate_reference), the
// domain check, the default domain's coverage, and fast == literal over the default domains.
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <chrono>
#include <map>
#include <ostream>
#include <set>

#include "ptovec/generator/cases.hpp"
#include "ptovec/generator/ops.hpp"
#include "ptovec/generator/suite.hpp"
#include "ptovec/oracle/matrix_quantization.hpp"
#include "ptovec/oracle/reference_quantization.hpp"

namespace ptovec::oracle {
[[maybe_unused]] static void PrintTo(const Encoded& e, std::ostream* os) {
  *os << "{word 0x" << std::hex << e.word << ", status 0x" << static_cast<int>(e.status) << std::dec
      << "}";
}
}  // namespace ptovec::oracle

namespace ptovec::generator {
namespace affine_op_test {
namespace {

using T = TileDataType;
using M = NumericRoundingMode;

constexpr Word kFp19One = 0x1FC00;         // 1.0: exponent field 127
constexpr Word kFp19Half = 0x1F800;        // 0.5
constexpr Word kFp19OneAndHalf = 0x1FE00;  // 1.5: fraction 512

const OpDef& Affine() {
  static const OpDef* op = FindOp("affine");
  if (op == nullptr) throw std::runtime_error("affine is not registered");
  return *op;
}

NumericExecutionControl Ctl(M mode, bool sat = false) { return {mode, sat}; }

Word S32(std::int64_t v) { return static_cast<std::uint32_t>(static_cast<std::int32_t>(v)); }

// Asserts the case is in the domain and that both paths give `expected`.
void ExpectAffine(TypePair pair, const Inputs& in, NumericExecutionControl control,
                  Encoded expected) {
  const OpDef& op = Affine();
  SCOPED_TRACE(::testing::Message()
               << "value 0x" << std::hex << in[0] << " scale 0x" << in[1] << " offset 0x" << in[2]
               << " width 0x" << in[3] << std::dec << " " << oracle::Format(pair.src).name << "->"
               << oracle::Format(pair.dst).name << " " << RoundingModeName(control.rounding_mode)
               << (control.saturating ? " Sat" : ""));
  EXPECT_EQ(op.check_domain(pair, in), std::nullopt);
  EXPECT_EQ(op.evaluate(pair, in, control), expected) << "evaluate";
  EXPECT_EQ(op.evaluate_reference(pair, in, control), expected) << "evaluate_reference";
}

// The destination integer a result word denotes.
std::int64_t DestinationInteger(Word word, TileDataType dst) {
  const oracle::FormatInfo& f = oracle::Format(dst);
  if (f.kind == oracle::FormatKind::SignedInteger) {
    return static_cast<std::int64_t>(oracle::SignExtend(word, f.width));
  }
  return static_cast<std::int64_t>(word);
}

std::pair<std::int64_t, std::int64_t> DestinationRange(TileDataType dst) {
  return {static_cast<std::int64_t>(
              oracle::ReferenceIntegerValue(oracle::TileIntegerMinimum(dst), dst)),
          static_cast<std::int64_t>(
              oracle::ReferenceIntegerValue(oracle::TileIntegerMaximum(dst), dst))};
}

// ---- registry entry ----

TEST(AffineOp, IsRegisteredWithSixteenIntegerPairsAllInTheDefaultSuite) {
  const OpDef& op = Affine();
  EXPECT_EQ(op.seed_function, "MatrixQuantizedAffine");
  EXPECT_NE(op.seed_source.find("lines 133-150"), std::string::npos);
  EXPECT_TRUE(op.uses_controls);
  EXPECT_EQ(ControlsFor(op).size(), 14u);
  ASSERT_EQ(op.legal_pairs.size(), 16u);
  EXPECT_EQ(op.default_suite_pairs, op.legal_pairs);
  for (T src : {T::FP32, T::S32}) {
    for (T dst : {T::S4X2, T::U4X2, T::S8, T::U8, T::S16, T::U16, T::S32, T::U32}) {
      EXPECT_TRUE(IsLegalPair(op, {src, dst}));
    }
  }
  EXPECT_FALSE(IsLegalPair(op, {T::FP32, T::FP16}));  // always ends in integer encoding
  EXPECT_FALSE(IsLegalPair(op, {T::S16, T::S8}));
  EXPECT_FALSE(IsLegalPair(op, {T::FP32, T::S64}));
}

TEST(AffineOp, SlotsAreValueScaleOffsetWidth) {
  const auto& slots = Affine().slots;
  ASSERT_EQ(slots.size(), 4u);
  EXPECT_EQ(slots[0].name, "value");
  EXPECT_EQ(slots[0].role, SlotRole::Source);
  EXPECT_EQ(slots[1].name, "scale");
  EXPECT_EQ(slots[1].TypeFor({T::S32, T::S8}), T::FP19);
  EXPECT_EQ(slots[2].name, "offset");
  EXPECT_EQ(slots[2].TypeFor({T::FP32, T::U8}), T::S32);
  EXPECT_NE(slots[2].description.find("width 0 only 0"), std::string::npos);
  EXPECT_EQ(slots[3].name, "width");
  EXPECT_EQ(slots[3].TypeFor({T::FP32, T::U8}), T::U8);
}

// ---- known answers ----

// Spec-notes section 6, reached through affine with offset 0 and a destination wide enough.
TEST(AffineOp, KnownAnswersOfTheSpecificationsTests) {
  // MatrixRoundAndSaturateSigned(15.5, 5, RNE) -> 15, 0x14.
  ExpectAffine({T::FP32, T::S8}, {0x41780000, kFp19One, 0, 5}, Ctl(M::RNE), {0x0f, 0x14});
  // MatrixRoundAndSaturateSigned(-16.5, 5, RNA) -> -16, 0x14.
  ExpectAffine({T::FP32, T::S8}, {0xC1840000, kFp19One, 0, 5}, Ctl(M::RNA), {0xf0, 0x14});
  // (255.75, 9, RNE) -> 255 and (-256.75, 9, RNE) -> -256, 0x14.
  ExpectAffine({T::FP32, T::S16}, {0x437FC000, kFp19One, 0, 9}, Ctl(M::RNE), {0x00ff, 0x14});
  ExpectAffine({T::FP32, T::S16}, {0xC3806000, kFp19One, 0, 9}, Ctl(M::RNE), {0xff00, 0x14});
  // (65535.4, 17, RTZ) -> 65535, 0x10 (FP32 65535.3984375).
  ExpectAffine({T::FP32, T::S32}, {0x477FFF66, kFp19One, 0, 17}, Ctl(M::RTZ), {0x0000ffff, 0x10});
  ExpectAffine({T::FP32, T::U32}, {0x477FFF66, kFp19One, 0, 17}, Ctl(M::RTZ), {0x0000ffff, 0x10});
  // (0.5, 9, RNE/RNA/RTP/RTM/RTZ) -> 0/1/1/0/0 and (-0.5, 9, ...) -> 0/-1/0/-1/0, NX.
  const M modes[5] = {M::RNE, M::RNA, M::RTP, M::RTM, M::RTZ};
  const Word positive[5] = {0x00, 0x01, 0x01, 0x00, 0x00};
  const Word negative[5] = {0x00, 0xff, 0x00, 0xff, 0x00};
  for (int i = 0; i < 5; ++i) {
    ExpectAffine({T::FP32, T::S8}, {0x3F000000, kFp19One, 0, 9}, Ctl(modes[i]),
                 {positive[i], 0x10});
    ExpectAffine({T::FP32, T::S8}, {0xBF000000, kFp19One, 0, 9}, Ctl(modes[i]),
                 {negative[i], 0x10});
  }
  // ReferenceMatrixIntegerEncoding(130.0, S8, RNE, no Sat) -> 0x82, 0x14, at width 0 and
  // after an S9 intermediate that holds 130.
  ExpectAffine({T::FP32, T::S8}, {0x43020000, kFp19One, 0, 0}, Ctl(M::RNE), {0x82, 0x14});
  ExpectAffine({T::FP32, T::S8}, {0x43020000, kFp19One, 0, 9}, Ctl(M::RNE), {0x82, 0x14});
  ExpectAffine({T::S32, T::S8}, {130, kFp19One, 0, 17}, Ctl(M::RNE), {0x82, 0x14});
  // MatrixQuantOffset(MatrixQuantParameter(FP32ToFP19(1.0), 0x1FF, 9), 9) -> -1: the offset
  // word 0xffffffff is -1 at width 9 and is added as -1.
  EXPECT_EQ(oracle::FP32ToFP19(0x3F800000), kFp19One);
  ExpectAffine({T::FP32, T::S8}, {0x40A00000, kFp19One, 0xFFFFFFFF, 9}, Ctl(M::RNE), {0x04, 0x00});
}

TEST(AffineOp, WidthFiveClampsBeforeTheOffset) {
  // 20 * 1 clamps to 15 at S5 (OF|NX), then 15 + (-16) = -1 fits S8: 0xff with 0x14.
  ExpectAffine({T::FP32, T::S8}, {0x41A00000, kFp19One, S32(-16), 5}, Ctl(M::RNE), {0xff, 0x14});
  ExpectAffine({T::FP32, T::S8}, {0x41A00000, kFp19One, S32(-16), 5}, Ctl(M::RNE, true),
               {0xff, 0x14});
  // Width 0 does not clamp: 20 + 0 = 20.
  ExpectAffine({T::FP32, T::S8}, {0x41A00000, kFp19One, 0, 0}, Ctl(M::RNE), {0x14, 0x00});
  // S32 source and a scale of 0.5: 40 * 0.5 = 20, the same.
  ExpectAffine({T::S32, T::S8}, {40, kFp19Half, S32(-16), 5}, Ctl(M::RTZ), {0xff, 0x14});
  // The low clamp: -20 -> -16 at S5, + 15 = -1.
  ExpectAffine({T::S32, T::S8}, {S32(-20), kFp19One, 15, 5}, Ctl(M::RTP), {0xff, 0x14});
  // Width 17 holds 20 exactly: 20 - 16 = 4, no flags.
  ExpectAffine({T::FP32, T::S8}, {0x41A00000, kFp19One, S32(-16), 17}, Ctl(M::RNE), {0x04, 0x00});
}

TEST(AffineOp, Width0TiesUnderAllSevenModes) {
  // Modes in kAllRoundingModes order: RNE RTM RTP RTZ RNA RTO RHB.
  const Word plus[7] = {0x02, 0x02, 0x03, 0x02, 0x03, 0x03, 0x03};
  const Word minus[7] = {0xfe, 0xfd, 0xfe, 0xfe, 0xfd, 0xfd, 0xfe};  // -2 -3 -2 -2 -3 -3 -2
  for (std::size_t i = 0; i < 7; ++i) {
    const M mode = oracle::kAllRoundingModes[i];
    for (bool sat : {false, true}) {
      ExpectAffine({T::FP32, T::S8}, {0x40200000, kFp19One, 0, 0}, Ctl(mode, sat), {plus[i], 0x10});
      ExpectAffine({T::FP32, T::S8}, {0xC0200000, kFp19One, 0, 0}, Ctl(mode, sat),
                   {minus[i], 0x10});
      // 5 * 0.5 and -5 * 0.5 from an S32 source: the same ties.
      ExpectAffine({T::S32, T::S8}, {5, kFp19Half, 0, 0}, Ctl(mode, sat), {plus[i], 0x10});
      ExpectAffine({T::S32, T::S8}, {S32(-5), kFp19Half, 0, 0}, Ctl(mode, sat), {minus[i], 0x10});
    }
  }
}

TEST(AffineOp, S4X2WrapsWithoutSatAndClampsWithSat) {
  const TypePair pair{T::FP32, T::S4X2};
  // 7.5 RNE -> 8 > 7: non-Sat keeps the low 4 bits (0x8, i.e. -8), Sat gives 7; OF|NX both.
  ExpectAffine(pair, {0x40F00000, kFp19One, 0, 0}, Ctl(M::RNE), {0x8, 0x14});
  ExpectAffine(pair, {0x40F00000, kFp19One, 0, 0}, Ctl(M::RNE, true), {0x7, 0x14});
  // 7.5 RTZ -> 7 fits: NX only, Sat irrelevant.
  ExpectAffine(pair, {0x40F00000, kFp19One, 0, 0}, Ctl(M::RTZ, true), {0x7, 0x10});
  // -9 (exact) < -8: non-Sat low 4 bits of -9 = 0x7, Sat -8 = 0x8; OF|NX both.
  ExpectAffine(pair, {0xC1100000, kFp19One, 0, 0}, Ctl(M::RNE), {0x7, 0x14});
  ExpectAffine(pair, {0xC1100000, kFp19One, 0, 0}, Ctl(M::RNE, true), {0x8, 0x14});
  // -8.5 RTP -> -8 fits; RTM -> -9 overflows.
  ExpectAffine(pair, {0xC1080000, kFp19One, 0, 0}, Ctl(M::RTP), {0x8, 0x10});
  ExpectAffine(pair, {0xC1080000, kFp19One, 0, 0}, Ctl(M::RTM), {0x7, 0x14});
  // 7.4 RNE -> 7: NX.
  ExpectAffine(pair, {0x40ECCCCD, kFp19One, 0, 0}, Ctl(M::RNE), {0x7, 0x10});
  // Through an S5 intermediate: 15 (exact, in S5) + 15 = 30 overflows S4: non-Sat 30 mod 16.
  ExpectAffine(pair, {0x41700000, kFp19One, 15, 5}, Ctl(M::RNE), {0xe, 0x14});
  ExpectAffine(pair, {0x41700000, kFp19One, 15, 5}, Ctl(M::RNE, true), {0x7, 0x14});
}

TEST(AffineOp, U4X2NegativeInput) {
  const TypePair pair{T::FP32, T::U4X2};
  // -1 < 0: non-Sat keeps the low 4 bits (0xf), Sat gives 0; OF|NX both.
  ExpectAffine(pair, {0xBF800000, kFp19One, 0, 0}, Ctl(M::RNE), {0xf, 0x14});
  ExpectAffine(pair, {0xBF800000, kFp19One, 0, 0}, Ctl(M::RNE, true), {0x0, 0x14});
  // -0.4 RNE -> 0 fits (NX); RTM -> -1 overflows.
  ExpectAffine(pair, {0xBECCCCCD, kFp19One, 0, 0}, Ctl(M::RNE), {0x0, 0x10});
  ExpectAffine(pair, {0xBECCCCCD, kFp19One, 0, 0}, Ctl(M::RTM), {0xf, 0x14});
  ExpectAffine(pair, {0xBECCCCCD, kFp19One, 0, 0}, Ctl(M::RTM, true), {0x0, 0x14});
  // Width 9: 3 + (-5) = -2 -> non-Sat 0xe, Sat 0; an S32 source.
  ExpectAffine({T::S32, T::U4X2}, {3, kFp19One, S32(-5), 9}, Ctl(M::RNE), {0xe, 0x14});
  ExpectAffine({T::S32, T::U4X2}, {3, kFp19One, S32(-5), 9}, Ctl(M::RNE, true), {0x0, 0x14});
  // 16 = 0x10: non-Sat 0x0 with OF|NX, Sat 0xf.
  ExpectAffine({T::S32, T::U4X2}, {16, kFp19One, 0, 17}, Ctl(M::RNE), {0x0, 0x14});
  ExpectAffine({T::S32, T::U4X2}, {16, kFp19One, 0, 17}, Ctl(M::RNE, true), {0xf, 0x14});
}

TEST(AffineOp, FlagsOfBothStepsAreOred) {
  // Intermediate NX only (2.5 RNE -> 2 at S9), final exact (2 + 3 = 5): 0x10.
  ExpectAffine({T::FP32, T::S8}, {0x40200000, kFp19One, 3, 9}, Ctl(M::RNE), {0x05, 0x10});
  // Intermediate OF|NX (20 -> 15 at S5), final exact: 0x14 (also above).
  ExpectAffine({T::FP32, T::S8}, {0x41A00000, kFp19One, 0, 5}, Ctl(M::RNE), {0x0f, 0x14});
  // Intermediate exact, final OF|NX: 0x14.
  ExpectAffine({T::FP32, T::S4X2}, {0x41700000, kFp19One, 8, 9}, Ctl(M::RNE), {0x7, 0x14});
  // Intermediate NX (14.5 RNE -> 14), final OF|NX (14 + 15 = 29 > 7): 0x14.
  ExpectAffine({T::FP32, T::S4X2}, {0x41680000, kFp19One, 15, 5}, Ctl(M::RNE), {0xd, 0x14});
  // Both exact: 0.
  ExpectAffine({T::FP32, T::S8}, {0x41700000, kFp19One, S32(-15), 5}, Ctl(M::RNE), {0x00, 0x00});
  // A non-power-of-two scale from an S32 source: 3 * 1.5 = 4.5 -> 4 (RNE, NX) at S9, + 255 =
  // 259 overflows U8: non-Sat 0x03, Sat 0xff, both 0x14.
  ExpectAffine({T::S32, T::U8}, {3, kFp19OneAndHalf, 255, 9}, Ctl(M::RNE), {0x03, 0x14});
  ExpectAffine({T::S32, T::U8}, {3, kFp19OneAndHalf, 255, 9}, Ctl(M::RNE, true), {0xff, 0x14});
}

TEST(AffineOp, WideDestinationsAndExtremeScales) {
  // Width 0 to S32: 2^31 overflows (non-Sat wraps to 0x80000000), Sat gives 0x7fffffff.
  ExpectAffine({T::FP32, T::S32}, {0x4F000000, kFp19One, 0, 0}, Ctl(M::RNE), {0x80000000, 0x14});
  ExpectAffine({T::FP32, T::S32}, {0x4F000000, kFp19One, 0, 0}, Ctl(M::RNE, true),
               {0x7fffffff, 0x14});
  // The largest FP32 times the largest FP19 scale at S17 clamps to 65535 (0x14).
  ExpectAffine({T::FP32, T::U16}, {0x7F7FFFFF, 0x3FBFF, 0, 17}, Ctl(M::RTZ), {0xffff, 0x14});
  // The smallest FP32 subnormal times the smallest normal FP19 scale: a tiny positive product.
  ExpectAffine({T::FP32, T::U8}, {0x00000001, 0x00400, 0, 0}, Ctl(M::RTP), {0x01, 0x10});
  ExpectAffine({T::FP32, T::U8}, {0x00000001, 0x00400, 0, 0}, Ctl(M::RNE), {0x00, 0x10});
  // -0 is 0: exact.
  ExpectAffine({T::FP32, T::S16}, {0x80000000, kFp19One, S32(-3), 5}, Ctl(M::RTM), {0xfffd, 0x00});
  // S32 minimum times 2 at width 0 into U32: negative, OF|NX; Sat gives 0.
  ExpectAffine({T::S32, T::U32}, {0x80000000, 0x20000, 0, 0}, Ctl(M::RNE), {0x00000000, 0x14});
  ExpectAffine({T::S32, T::U32}, {0x7FFFFFFF, 0x20000, 0, 0}, Ctl(M::RNE), {0xfffffffe, 0x00});
}

// ---- domain check ----

TEST(AffineOp, CheckDomainRejectsWithOneLineMessages) {
  const OpDef& op = Affine();
  const TypePair fp32{T::FP32, T::S8};
  const auto rejects = [&](TypePair pair, const Inputs& in, const std::string& needle) {
    const auto message = op.check_domain(pair, in);
    ASSERT_TRUE(message.has_value()) << needle;
    EXPECT_NE(message->find(needle), std::string::npos) << *message;
    EXPECT_EQ(message->find('\n'), std::string::npos) << *message;
  };
  rejects(fp32, {0x3F800000, 0x00000, 0, 0}, "scale 0x00000 is PositiveZero");
  rejects(fp32, {0x3F800000, 0x5FC00, 0, 0}, "scale 0x5fc00 is NegativeNormal");
  rejects(fp32, {0x3F800000, 0x00001, 0, 0}, "scale 0x00001 is PositiveSubnormal");
  rejects(fp32, {0x3F800000, 0x3FC00, 0, 0}, "scale 0x3fc00 is PositiveInfinity");
  rejects(fp32, {0x3F800000, 0x3FF00, 0, 0}, "scale 0x3ff00 is QuietNaN");
  rejects(fp32, {0x3F800000, 0x40000, 0, 0}, "positive normal fp19 scale (0x00400..0x3fbff");
  rejects(fp32, {0x3F800000, kFp19One, 0, 3}, "width 0x03 (3) is not an intermediate width");
  rejects(fp32, {0x3F800000, kFp19One, 0, 0xFF}, "accepted: 0x00, 0x05, 0x09 or 0x11");
  rejects(fp32, {0x3F800000, kFp19One, 16, 5}, "offset 0x00000010 (16) is outside");
  rejects(fp32, {0x3F800000, kFp19One, 16, 5}, "(-16..15");
  rejects(fp32, {0x3F800000, kFp19One, S32(-17), 5}, "(-17) is outside");
  rejects(fp32, {0x3F800000, kFp19One, 256, 9}, "-256..255");
  rejects(fp32, {0x3F800000, kFp19One, 65536, 17}, "-65536..65535");
  rejects(fp32, {0x3F800000, kFp19One, 1, 0}, "offset 0x00000001 (1) must be 0 at width 0");
  rejects(fp32, {0x7FC00000, kFp19One, 0, 0}, "value 0x7fc00000 is QuietNaN");
  rejects(fp32, {0x7F800001, kFp19One, 0, 0}, "is SignalingNaN");
  rejects(fp32, {0xFF800000, kFp19One, 0, 0}, "value 0xff800000 is NegativeInfinity");
  // Accepted: the ends of every range; any S32 value; FP32 zeros and subnormals.
  for (const Inputs& in : std::vector<Inputs>{{0x3F800000, 0x00400, S32(-16), 5},
                                              {0x3F800000, 0x3FBFF, 15, 5},
                                              {0x80000000, kFp19One, S32(-256), 9},
                                              {0x00000001, kFp19One, 65535, 17},
                                              {0xFF7FFFFF, kFp19One, S32(-65536), 17},
                                              {0x3F800000, kFp19One, 0, 0}}) {
    EXPECT_EQ(op.check_domain(fp32, in), std::nullopt);
  }
  EXPECT_EQ(op.check_domain({T::S32, T::U8}, {0x7FC00000, kFp19One, 0, 0}), std::nullopt);
}

TEST(AffineOp, EvalCaseFromTheCommandLineWords) {
  // Width 0: 15.5 RNE -> 16, NX.
  const Case c = MakeCase("affine", "fp32", "s8", "RNE", false,
                          {"0x41780000", "0x1fc00", "0x00000000", "0x00"});
  const Encoded r = EvaluateCase(c);
  EXPECT_EQ(r, (Encoded{0x10, 0x10}));
  EXPECT_EQ(CaseJson(c, r).dump(),
            R"({"op":"affine","src":"fp32","dst":"s8","rmode":"RNE","sat":false,)"
            R"("in":["0x41780000","0x1fc00","0x00000000","0x00"],"out":"0x10","flags":"0x10"})");
  EXPECT_EQ(EvalCommand(c),
            "ptovec eval --op affine --src fp32 --dst s8 --rmode RNE 0x41780000 0x1fc00 "
            "0x00000000 0x00");
  // Width 5: 15.5 RNE -> 16 clamps to 15, OF|NX.
  const Case c5 = MakeCase("affine", "fp32", "s8", "RNE", false,
                           {"0x41780000", "0x1fc00", "0x00000000", "0x05"});
  EXPECT_EQ(EvaluateCase(c5), (Encoded{0x0f, 0x14}));
  EXPECT_THROW(MakeCase("affine", "fp32", "s8", "RNE", false,
                        {"0x41780000", "0x00000", "0x00000000", "0x00"}),
               InputError);
  EXPECT_THROW(MakeCase("affine", "fp32", "fp16", "RNE", false,
                        {"0x41780000", "0x1fc00", "0x00000000", "0x00"}),
               InputError);
  EXPECT_THROW(MakeCase("affine", "fp32", "s8", "RNE", false,
                        {"0x41780000", "0x1fc000", "0x00000000", "0x00"}),
               InputError);  // 0x1fc000 is wider than fp19
}

// ---- default domain ----

TEST(AffineOp, DefaultDomainIsInDomainCoversEveryWidthAndItsEdges) {
  const OpDef& op = Affine();
  const SamplingOptions sampling{1, 4000};
  for (const TypePair& pair : op.default_suite_pairs) {
    SCOPED_TRACE(std::string(oracle::Format(pair.src).name) + "->" +
                 std::string(oracle::Format(pair.dst).name));
    const InputSet set = op.domain(pair, sampling);
    ASSERT_EQ(set.count, op.domain_count(pair, sampling));
    ASSERT_EQ(set.count, 4000u);
    EXPECT_EQ(set.kind, "sampled");
    std::map<Word, int> widths;
    std::map<Word, int> exact_ties;   // value * scale = k + 1/2 exactly, per width
    std::map<Word, int> clamped;      // the S5/S9/S17 intermediate clamps (RNE)
    std::map<Word, int> exact_edges;  // value * scale exactly at a clamp edge
    int final_overflow_only = 0;      // no intermediate clamp, final OF (RNE)
    int nonzero_offsets = 0;
    std::set<Inputs> distinct;
    for (std::uint64_t i = 0; i < set.count; ++i) {
      const Inputs in = set.at(i);
      distinct.insert(in);
      ASSERT_EQ(op.check_domain(pair, in), std::nullopt)
          << std::hex << in[0] << " " << in[1] << " " << in[2] << " " << in[3];
      const int width = static_cast<int>(in[3]);
      ++widths[in[3]];
      // The offset survives the parameter word: MatrixQuantOffset(MatrixQuantParameter(...)).
      const Word parameter = oracle::MatrixQuantParameter(in[1], in[2], width);
      EXPECT_EQ(oracle::MatrixQuantOffset(parameter, width),
                oracle::Integer(static_cast<std::int32_t>(in[2])));
      nonzero_offsets += in[2] != 0;
      const oracle::Real value = pair.src == T::FP32
                                     ? oracle::ReferenceFP32FiniteValue(in[0])
                                     : oracle::Real(static_cast<std::int32_t>(in[0]));
      const oracle::Real product = value * oracle::FP19FiniteValue(in[1]);
      if (denominator(product) == 2) ++exact_ties[in[3]];
      Status intermediate = 0;
      if (width != 0) {
        intermediate = oracle::MatrixRoundAndSaturateSigned(product, width, M::RNE).second;
        clamped[in[3]] += intermediate == 0x14;
        const oracle::Integer edge = oracle::Integer(1) << (width - 1);
        exact_edges[in[3]] += product == oracle::Real(-edge) || product == oracle::Real(edge - 1);
      }
      const Encoded r = op.evaluate(pair, in, Ctl(M::RNE));
      final_overflow_only += intermediate != 0x14 && r.status == 0x14;
    }
    EXPECT_EQ(distinct.size(), set.count);
    EXPECT_GT(nonzero_offsets, 400);
    for (Word w : {0, 5, 9, 17}) {
      SCOPED_TRACE(w);
      EXPECT_GT(widths[w], 400);
      EXPECT_GT(exact_ties[w], 40);
      if (w != 0) {
        EXPECT_GT(clamped[w], 40);
        EXPECT_GT(exact_edges[w], 4);
      }
    }
    EXPECT_GT(final_overflow_only, 100);
  }
}

TEST(AffineOp, DefaultDomainIsDeterministicPerSeed) {
  const OpDef& op = Affine();
  const TypePair pair{T::FP32, T::S8};
  const InputSet a = op.domain(pair, {1, 300});
  const InputSet b = op.domain(pair, {1, 300});
  const InputSet c = op.domain(pair, {2, 300});
  bool differs = false;
  for (std::uint64_t i = 0; i < 300; ++i) {
    EXPECT_EQ(a.at(i), b.at(i));
    differs = differs || a.at(i) != c.at(i);
  }
  EXPECT_TRUE(differs);
  // Each pair has its own derived seed: another pair's tuples differ.
  const InputSet other = op.domain({T::FP32, T::U8}, {1, 300});
  bool pair_differs = false;
  for (std::uint64_t i = 0; i < 300; ++i) pair_differs = pair_differs || a.at(i) != other.at(i);
  EXPECT_TRUE(pair_differs);
}

// ---- properties ----

// evaluate (FastMatrixQuantizedAffine) == evaluate_reference (the literal seed function) over
// each pair's default domain and all 14 controls.
TEST(AffineOp, FastEqualsLiteralOverEveryPairsDefaultDomain) {
  const OpDef& op = Affine();
  const SamplingOptions sampling{1, 1500};
  const auto controls = ControlsFor(op);
  std::uint64_t checked = 0;
  for (const TypePair& pair : op.default_suite_pairs) {
    const InputSet set = op.domain(pair, sampling);
    for (std::uint64_t i = 0; i < set.count; ++i) {
      const Inputs in = set.at(i);
      for (const NumericExecutionControl& control : controls) {
        const Encoded fast = op.evaluate(pair, in, control);
        const Encoded literal = op.evaluate_reference(pair, in, control);
        ASSERT_EQ(fast, literal) << EvalCommand({&op, pair, control, in});
        ++checked;
      }
    }
  }
  EXPECT_EQ(checked, 16u * 1500u * 14u);
}

// Sat never changes the status; it changes the result only when OF is set, and then the Sat
// result is the destination's minimum or maximum (the final encoding overflowed) while the
// non-Sat result is the wrapped value on the other side of the range.
TEST(AffineOp, SatChangesOnlyResultsWithOverflowAndStaysInRange) {
  const OpDef& op = Affine();
  const SamplingOptions sampling{5, 20000};
  for (const TypePair& pair : op.default_suite_pairs) {
    const auto [lo, hi] = DestinationRange(pair.dst);
    const InputSet set = op.domain(pair, sampling);
    int changed = 0;
    for (std::uint64_t i = 0; i < set.count; ++i) {
      const Inputs in = set.at(i);
      for (M mode : oracle::kAllRoundingModes) {
        const Encoded plain = op.evaluate(pair, in, Ctl(mode, false));
        const Encoded sat = op.evaluate(pair, in, Ctl(mode, true));
        ASSERT_EQ(plain.status, sat.status) << EvalCommand({&op, pair, Ctl(mode, true), in});
        const std::int64_t value = DestinationInteger(sat.word, pair.dst);
        ASSERT_GE(value, lo);
        ASSERT_LE(value, hi);
        ASSERT_EQ(oracle::LowBits(sat.word, oracle::Format(pair.dst).width), sat.word);
        if (plain.word != sat.word) {
          ++changed;
          ASSERT_EQ(sat.status & oracle::kStatusOF, oracle::kStatusOF)
              << EvalCommand({&op, pair, Ctl(mode, true), in});
          ASSERT_TRUE(value == lo || value == hi) << EvalCommand({&op, pair, Ctl(mode, true), in});
        }
      }
    }
    EXPECT_GT(changed, 0) << oracle::Format(pair.src).name << "->" << oracle::Format(pair.dst).name;
  }
}

// Any in-domain tuple (not only the default domain's): random finite value, random positive
// normal scale, random width and in-range offset, random pair and control.
RC_GTEST_PROP(AffineOp, FastEqualsLiteralOnRandomInDomainTuples, ()) {
  const OpDef& op = Affine();
  const TypePair pair = *rc::gen::elementOf(op.legal_pairs);
  Word value = *rc::gen::inRange<std::uint64_t>(0, std::uint64_t{1} << 32);
  if (pair.src == T::FP32) RC_PRE((value & 0x7F800000) != 0x7F800000);
  const Word scale = (*rc::gen::inRange<Word>(1, 255) << 10) | *rc::gen::inRange<Word>(0, 1024);
  const Word width = *rc::gen::element<Word>(0, 5, 9, 17);
  const std::int64_t half = width == 0 ? 0 : std::int64_t{1} << (width - 1);
  const std::int64_t offset = width == 0 ? 0 : *rc::gen::inRange<std::int64_t>(-half, half);
  const M mode = *rc::gen::elementOf(oracle::kAllRoundingModes);
  const bool sat = *rc::gen::arbitrary<bool>();
  const Inputs in{value, scale, S32(offset), width};
  RC_ASSERT(!op.check_domain(pair, in).has_value());
  RC_ASSERT(op.evaluate(pair, in, Ctl(mode, sat)) ==
            op.evaluate_reference(pair, in, Ctl(mode, sat)));
}

TEST(AffineOp, SuiteCountsAreSamplesTimesFourteen) {
  const SamplingOptions sampling{1, 100000};
  std::uint64_t total = 0;
  int jobs = 0;
  for (const Job& job : DefaultSuite()) {
    if (job.op->name != "affine") continue;
    ++jobs;
    EXPECT_EQ(VectorCount(job, sampling), 1400000u);
    total += VectorCount(job, sampling);
  }
  EXPECT_EQ(jobs, 16);
  EXPECT_EQ(total, 22400000u);
}

}  // namespace
}  // namespace affine_op_test
}  // namespace ptovec::generator
