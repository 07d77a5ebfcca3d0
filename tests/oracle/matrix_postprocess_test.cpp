// The B.FPATR post-process (matrix_postprocess.hpp): known answers derived by hand from the
// specification's text (reference/matrix-postprocess.asl, B.FPATR-modes.asl and the seed 000
// encoders they call), the PreQuantMode table and legality functions, and the proof that the
// fast form equals the literal transliteration: exhaustively over sub-spaces (every mode, ReLU
// mode, control; values aimed at every E4M3 and HiF8 value and tie, the S5/S9/S17 and S16 edges,
// specials) and by RapidCheck properties over the whole legal domain.
#include "ptovec/oracle/matrix_postprocess.hpp"

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "ptovec/oracle/matrix_quantization.hpp"
#include "ptovec/oracle/reference_quantization.hpp"
#include "test_support.hpp"

namespace ptovec::oracle {
namespace matrix_postprocess_test {
namespace {

using test_support::Hex;
using test_support::Mismatches;
using test_support::Show;
using T = TileDataType;
using M = NumericRoundingMode;

constexpr NumericExecutionControl kRne{M::RNE, false};
constexpr NumericExecutionControl kRneSat{M::RNE, true};

// FP19 words: 1.0, 0.5 (exponent fields 127, 126).
constexpr Word kOne19 = 0x1FC00;
constexpr Word kHalf19 = 0x1F800;

// A quant parameter word: the FP19 scale in bits 31:13, the offset's low `width` bits from 37.
Word Quant(Word fp19, std::int64_t offset = 0, int width = 0) {
  Word w = fp19 << 13;
  if (width != 0) w |= LowBits(static_cast<Word>(offset), static_cast<unsigned>(width)) << 37;
  return w;
}

Encoded Post(Word value, unsigned mode, unsigned relu, T out, Word quant, Word relu_param,
             NumericExecutionControl c) {
  const Encoded literal =
      TileProfileMatrixPostProcessWithFlags(value, mode, relu, 0, out, quant, relu_param, c);
  const Encoded fast =
      FastTileProfileMatrixPostProcessWithFlags(value, mode, relu, out, quant, relu_param, c);
  EXPECT_EQ(fast, literal) << "mode " << mode << " relu " << relu << " value " << Hex(value);
  return {LowBits(literal.word, Format(out).width), literal.status};
}

void ExpectPost(Word value, unsigned mode, unsigned relu, T out, Word quant, Word relu_param,
                NumericExecutionControl c, Encoded expected) {
  EXPECT_EQ(Post(value, mode, relu, out, quant, relu_param, c), expected)
      << "mode " << mode << " relu " << relu << " value " << Hex(value) << " expected "
      << Show(expected);
}

// ---- the mode table ----

TEST(BFpatrModes, TableAndOutputTypes) {
  std::vector<unsigned> legal;
  for (unsigned m = 0; m < 64; ++m) {
    if (BundleFPATRPreQuantModeLegal(m)) legal.push_back(m);
  }
  EXPECT_EQ(legal, (std::vector<unsigned>{0,  1,  2,  3,  4,  5,  12, 13, 16, 17, 18, 19, 20, 23,
                                          24, 25, 26, 27, 28, 32, 33, 34, 35, 36, 37, 38, 39}));
  EXPECT_EQ(BundleFPATROutputType(1), T::FP16);
  EXPECT_EQ(BundleFPATROutputType(3), T::S8);
  EXPECT_EQ(BundleFPATROutputType(13), T::S16);
  EXPECT_EQ(BundleFPATROutputType(39), T::BF16);
  EXPECT_EQ(BundleFPATROutputType(18), T::S4X2);
  EXPECT_EQ(BundleFPATROutputType(28), T::HiF8);
  EXPECT_EQ(BundleFPATROutputType(37), T::E4M3);
  EXPECT_EQ(BundleFPATROutputType(38), T::FP32);
  EXPECT_THROW(BundleFPATROutputType(6), SeedAssertionFailure);
  EXPECT_EQ(BundleFPATRModeOffsetWidth(18), 5);
  EXPECT_EQ(BundleFPATRModeOffsetWidth(24), 9);
  EXPECT_EQ(BundleFPATRModeOffsetWidth(20), 17);
  EXPECT_EQ(BundleFPATRModeOffsetWidth(4), 0);
  EXPECT_TRUE(BundleFPATRAccumulatorTypeLegal(0, T::U32));
  EXPECT_FALSE(BundleFPATRAccumulatorTypeLegal(1, T::S32));
  EXPECT_TRUE(BundleFPATRAccumulatorTypeLegal(35, T::S32));
  EXPECT_TRUE(BundleFPATRAccumulatorTypeLegal(34, T::FP32));
  EXPECT_FALSE(BundleFPATRModeFinalSatProgrammable(12));
  EXPECT_TRUE(BundleFPATRModeFinalSatProgrammable(1));
}

TEST(BFpatrModes, ParameterWordLegality) {
  EXPECT_TRUE(BundleFPATRQuantParameterWordLegal(2, Quant(kOne19, -1, 9)));
  EXPECT_FALSE(BundleFPATRQuantParameterWordLegal(2, Quant(kOne19) | (Word{1} << 46)));
  EXPECT_TRUE(BundleFPATRQuantParameterWordLegal(20, Quant(kOne19, -65536, 17)));
  EXPECT_FALSE(BundleFPATRQuantParameterWordLegal(20, Quant(kOne19) | (Word{1} << 54)));
  EXPECT_FALSE(BundleFPATRQuantParameterWordLegal(17, Quant(kOne19) | (Word{1} << 42)));
  EXPECT_FALSE(BundleFPATRQuantParameterWordLegal(3, Quant(kOne19) | 1));  // bits 12:0
  EXPECT_FALSE(BundleFPATRQuantParameterWordLegal(3, Quant(kOne19) | (Word{1} << 32)));  // 36:32
  EXPECT_FALSE(BundleFPATRQuantParameterWordLegal(5, Quant(0x40000 | kOne19)));          // negative
  EXPECT_FALSE(BundleFPATRQuantParameterWordLegal(5, Quant(0x003FF)));  // subnormal
  EXPECT_FALSE(BundleFPATRQuantParameterWordLegal(27, Quant(kOne19) | (Word{1} << 37)));
  EXPECT_TRUE(BundleFPATRQuantParameterWordLegal(12, Word{0xF} << 32));
  EXPECT_FALSE(BundleFPATRQuantParameterWordLegal(12, Word{1} << 36));
  EXPECT_FALSE(BundleFPATRQuantParameterWordLegal(13, 1));
  EXPECT_FALSE(BundleFPATRQuantParameterWordLegal(1, 0));  // mode 1 reads no parameter
  EXPECT_TRUE(BundleFPATRReluParameterWordLegal(0));
  EXPECT_TRUE(BundleFPATRReluParameterWordLegal(kHalf19));
  EXPECT_FALSE(BundleFPATRReluParameterWordLegal(0x40000 | kHalf19));  // negative
  EXPECT_FALSE(BundleFPATRReluParameterWordLegal(0x00001));            // subnormal
  EXPECT_FALSE(BundleFPATRReluParameterWordLegal(Word{1} << 19));
  EXPECT_FALSE(BundleFPATRReluParameterWordLegal(0x3FC00));  // +Inf
}

TEST(BFpatrModes, DatrFieldsAndEffectiveControl) {
  EXPECT_TRUE(BundleFPATRDATRFieldsLegal(1, 0, true));
  EXPECT_FALSE(BundleFPATRDATRFieldsLegal(1, DATRRoundingModeField(M::RTZ), false));
  EXPECT_FALSE(BundleFPATRDATRFieldsLegal(0, 0, true));
  EXPECT_TRUE(BundleFPATRDATRFieldsLegal(0, 0, false));
  EXPECT_FALSE(BundleFPATRDATRFieldsLegal(12, 0, true));
  EXPECT_TRUE(BundleFPATRDATRFieldsLegal(2, DATRRoundingModeField(M::RHB), true));
  EXPECT_FALSE(BundleFPATRDATRFieldsLegal(6, 0, false));
  EXPECT_EQ(DATRRoundingModeField(M::RNE), 0u);
  EXPECT_EQ(DATRRoundingModeField(M::RTM), 3u);
  EXPECT_EQ(MatrixFPATREffectiveControl(25, {M::RTZ, true}),
            (NumericExecutionControl{M::RHB, true}));
  EXPECT_EQ(MatrixFPATREffectiveControl(28, kRne), (NumericExecutionControl{M::RHB, false}));
  EXPECT_EQ(MatrixFPATREffectiveControl(1, {M::RTZ, false}), kRne);
  EXPECT_EQ(MatrixFPATREffectiveControl(2, {M::RTZ, false}),
            (NumericExecutionControl{M::RTZ, false}));
}

// ---- known answers, by hand from the specification's text ----

TEST(MatrixPostProcess, ModeZeroKeepsTheWordWithoutRelu) {
  // Lines 186-188: mode 0, ReluMode 0 returns the accumulator word unchanged with status 0, a
  // signaling NaN included.
  ExpectPost(0x7F800001, 0, 0, T::FP32, 0, 0, kRne, {0x7F800001, 0});
  ExpectPost(0xFFFFFFFF, 0, 0, T::S32, 0, 0, kRne, {0xFFFFFFFF, 0});
  // ReLU: -2.0 -> multiplier 0 -> +0; a signaling NaN -> the canonical FP32 NaN with NV.
  ExpectPost(0xC0000000, 0, 1, T::FP32, 0, 0, kRne, {0x00000000, 0});
  ExpectPost(0x7F800001, 0, 1, T::FP32, 0, 0, kRne, {0x7FC00000, 0x01});
  // LReLU with 0.5: -3.0 -> -1.5 (0xbfc00000); S32 -5 under ReLU -> 0; U32 is never negative.
  ExpectPost(0xC0400000, 0, 2, T::FP32, 0, kHalf19, kRne, {0xBFC00000, 0});
  ExpectPost(0xFFFFFFFB, 0, 1, T::S32, 0, 0, kRne, {0, 0});
  ExpectPost(0xFFFFFFFB, 0, 2, T::S32, 0, kHalf19, kRne, {0xFFFFFFFE, 0x10});  // -2.5 -> -2 NX
  ExpectPost(0xFFFFFFFF, 0, 1, T::U32, 0, 0, kRne, {0xFFFFFFFF, 0});
}

TEST(MatrixPostProcess, FixedRoundingModes) {
  // The example: -0.38397049... to FP16 under mode 1: mantissa 0x4497c8 >> 13 = 0x224
  // with remainder 0x17c8 > half: 0x225, exponent 125 - 127 + 15 = 13: 0xb625, inexact.
  ExpectPost(0xBEC497C8, 1, 0, T::FP16, 0, 0, kRne, {0xB625, 0x10});
  // Mode 1 fixes RNE whatever the control says (MatrixFPATREffectiveControl).
  ExpectPost(0xBEC497C8, 1, 0, T::FP16, 0, 0, {M::RTZ, false}, {0xB625, 0x10});
  // Mode 25 (HiF8, scalar scale 1.0) fixes RHB: 1.0625 is the tie of 1.0 (0x08) and 1.125
  // (0x09); RHB takes the larger value, RNE (the B.DATR control) would take the even 0x08.
  ExpectPost(0x3F880000, 25, 0, T::HiF8, Quant(kOne19), 0, kRne, {0x09, 0x10});
  ExpectPost(0x3F880000, 28, 0, T::HiF8, Quant(kOne19), 0, kRne, {0x09, 0x10});
  // Mode 26 (E4M3, scalar scale): 1.0625 is the tie of 1.0 (0x38) and 1.125 (0x39): RNE, 0x38.
  ExpectPost(0x3F880000, 26, 0, T::E4M3, Quant(kOne19), 0, {M::RTP, false}, {0x38, 0x10});
}

TEST(MatrixPostProcess, SignedZeroRule) {
  // Lines 236-242: a -0 accumulator with a non-zero multiplier and no offset gives -0.
  ExpectPost(0x80000000, 1, 0, T::FP16, 0, 0, kRne, {0x8000, 0});
  ExpectPost(0x80000000, 26, 0, T::E4M3, Quant(kHalf19), 0, kRne, {0x80, 0});
  ExpectPost(0x80000000, 25, 0, T::HiF8, Quant(kOne19), 0, kRne, {0x00, 0});
  ExpectPost(0x80000000, 27, 0, T::FP32, Quant(kOne19), 0, kRne, {0x80000000, 0});
  // Under ReLU the multiplier is 0: the encoders' +0.
  ExpectPost(0x80000000, 1, 1, T::FP16, 0, 0, kRne, {0x0000, 0});
  // LReLU with a +0 parameter: multiplier 0 too.
  ExpectPost(0x80000000, 16, 2, T::BF16, 0, 0, kRne, {0x0000, 0});
  // An integer destination: the seed's integer encoding of 0.
  ExpectPost(0x80000000, 23, 0, T::S8, Quant(kOne19), 0, kRne, {0x00, 0});
}

TEST(MatrixPostProcess, ReluBeforeScale) {
  // Mode 27 (FP32 -> FP32, scale 2): ReLU zeroes -3, LReLU 0.5 gives -1.5 (the ReLU parameter
  // replaces the scale for negative values), a positive value is scaled: 3 * 2 = 6.
  const Word two = Quant(0x20000);
  ExpectPost(0xC0400000, 27, 1, T::FP32, two, 0, kRne, {0x00000000, 0});
  ExpectPost(0xC0400000, 27, 2, T::FP32, two, kHalf19, kRne, {0xBFC00000, 0});
  ExpectPost(0xC0400000, 38, 3, T::FP32, two, kHalf19, kRne, {0xBFC00000, 0});
  ExpectPost(0x40400000, 27, 1, T::FP32, two, 0, kRne, {0x40C00000, 0});
  // LReLU reads FP19: 0x1F555 is 1.333... (1 + 341/1024) / 2^0 ... -> -3 * 0x1F555's value.
  // 0x1F555: exponent 125 (2^-2), fraction 0x155: (1024 + 341) / 1024 / 4 = 1365/4096;
  // -3 * 1365 / 4096 = -4095/4096 = -0.999755859375 (FP32 0xbf7ff000, exact).
  ExpectPost(0xC0400000, 27, 2, T::FP32, two, 0x1F555, kRne, {0xBF7FF000, 0});
}

TEST(MatrixPostProcess, IntermediateAndShift) {
  // Mode 2 (S32 -> S8, S9, scale 1): 300 clamps to 255 at S9 (OF|NX), + 0, then S8 overflows:
  // non-Sat wraps 255 to 0xff, Sat gives 0x7f; OF|NX.
  ExpectPost(300, 2, 0, T::S8, Quant(kOne19, 0, 9), 0, kRne, {0xFF, 0x14});
  ExpectPost(300, 2, 0, T::S8, Quant(kOne19, 0, 9), 0, kRneSat, {0x7F, 0x14});
  // 100 * 0.5 - 3 = 47 exactly; 5 * 0.5 = 2.5: RNE 2, RNA 3, + 1.
  ExpectPost(100, 3, 0, T::S8, Quant(kHalf19, -3, 9), 0, kRne, {0x2F, 0});
  ExpectPost(5, 3, 0, T::S8, Quant(kHalf19, 1, 9), 0, kRne, {0x03, 0x10});
  ExpectPost(5, 3, 0, T::S8, Quant(kHalf19, 1, 9), 0, {M::RNA, false}, {0x04, 0x10});
  // Mode 17 (S32 -> S4X2, S5): 20 clamps to 15 (OF|NX), - 1 = 14 > 7: wraps to 0xe, OF|NX.
  ExpectPost(20, 17, 0, T::S4X2, Quant(kOne19, -1, 5), 0, kRne, {0xE, 0x14});
  // Mode 19 (S32 -> S16, S17): -70000 clamps to -65536, + 65535 = -1: 0xffff, OF|NX.
  ExpectPost(static_cast<Word>(-70000) & 0xFFFFFFFF, 19, 0, T::S16, Quant(kOne19, 65535, 17), 0,
             kRne, {0xFFFF, 0x14});
  // Shift modes (spec-notes section 6): shift 1 of 0xffffffdf is 0xffef; 0x7fffffff clamps.
  // They ignore ReluMode.
  ExpectPost(0xFFFFFFDF, 12, 0, T::S16, 0, 0, kRne, {0xFFEF, 0});
  ExpectPost(0xFFFFFFDF, 13, 1, T::S16, 0, 0, kRne, {0xFFEF, 0});
  ExpectPost(0x7FFFFFFF, 12, 0, T::S16, 0, 0, kRne, {0x7FFF, 0x14});
  ExpectPost(0x00010000, 13, 0, T::S16, Word{0xF} << 32, 0, kRne, {0x0001, 0});  // shift 16
}

TEST(MatrixPostProcess, SpecialValues) {
  // +Inf to FP16: Inf with no status; Sat: largest finite with OF|NX; E4M3: the NaN with OF|NX.
  ExpectPost(0x7F800000, 1, 0, T::FP16, 0, 0, kRne, {0x7C00, 0});
  ExpectPost(0x7F800000, 1, 0, T::FP16, 0, 0, kRneSat, {0x7BFF, 0x14});
  ExpectPost(0x7F800000, 26, 0, T::E4M3, Quant(kOne19), 0, kRne, {0x7F, 0x14});
  ExpectPost(0xFF800000, 25, 0, T::HiF8, Quant(kOne19), 0, kRne, {0xEF, 0});
  // -Inf under ReLU or LReLU with a +0 parameter: multiplier 0, so not special: +0.
  ExpectPost(0xFF800000, 1, 1, T::FP16, 0, 0, kRne, {0x0000, 0});
  ExpectPost(0xFF800000, 1, 2, T::FP16, 0, 0, kRne, {0x0000, 0});
  ExpectPost(0xFF800000, 1, 2, T::FP16, 0, kHalf19, kRne, {0xFC00, 0});
  // NaN into an integer: minimum (non-Sat) or 0 (Sat), NV; Inf: minimum with NV, or the end
  // with OF|NX under Sat.
  ExpectPost(0x7FC00000, 23, 0, T::S8, Quant(kOne19), 0, kRne, {0x80, 0x01});
  ExpectPost(0x7FC00000, 23, 0, T::S8, Quant(kOne19), 0, kRneSat, {0x00, 0x01});
  ExpectPost(0x7F800000, 24, 0, T::S8, Quant(kOne19), 0, kRne, {0x80, 0x01});
  ExpectPost(0x7F800000, 24, 0, T::S8, Quant(kOne19), 0, kRneSat, {0x7F, 0x14});
  // A quiet NaN to a floating type: the canonical NaN, no status; signaling: NV.
  ExpectPost(0xFFC00001, 16, 0, T::BF16, 0, 0, kRne, {0x7FC0, 0});
  ExpectPost(0x7F800001, 37, 0, T::E4M3, Quant(kOne19), 0, kRne, {0x7F, 0x01});
  ExpectPost(0x7F800001, 37, 0, T::E4M3, Quant(kOne19), 0, kRneSat, {0x00, 0x01});
}

// ---- fast == literal ----

// The values of the exhaustive proof for an FP32 accumulator: every E4M3 and HiF8 value, their
// midpoints and one FP32 ulp around each, both signs; FP16 and BF16 overflow edges; specials.
std::vector<Word> Fp32ProofValues() {
  std::vector<Word> words = {0x00000000, 0x80000000, 0x7F800000, 0xFF800000, 0x7FC00000,
                             0xFFC00000, 0x7F800001, 0x00000001, 0x80000001, 0x00800000,
                             0x7F7FFFFF, 0xFF7FFFFF, 0x477FE000, 0x477FF000, 0x477FEFFF,
                             0x7F7F8000, 0x7F7F7FFF, 0x7F7FC000};
  std::vector<Real> values;
  for (const T t : {T::E4M3, T::HiF8}) {
    std::vector<Real> grid;
    for (Word c = 0; c < 128; ++c) {
      const NumericValueClass k = TileNumericValueClass(t, c);
      if (NumericValueClassIsNaN(k) || NumericValueClassIsInfinity(k)) continue;
      grid.push_back(TileNumericFiniteValue(t, c));
    }
    std::sort(grid.begin(), grid.end());
    for (std::size_t i = 0; i < grid.size(); ++i) {
      values.push_back(grid[i]);
      if (i + 1 < grid.size()) values.push_back((grid[i] + grid[i + 1]) / 2);
    }
  }
  for (const Real& v : values) {
    const Encoded e = ReferenceFP32FiniteEncoding(v, M::RNE);
    for (const Word w : {e.word, e.word + 1, e.word - 1}) {
      words.push_back(w & 0xFFFFFFFF);
      words.push_back((w ^ 0x80000000) & 0xFFFFFFFF);
    }
  }
  return words;
}

// S32 accumulator values: -40..40, the S5/S9/S17 edges (and twice them, for a scale of 1/2),
// the S16 edges of every shift, the S32 ends.
std::vector<Word> S32ProofValues() {
  std::vector<std::int64_t> v;
  for (std::int64_t k = -40; k <= 40; ++k) v.push_back(k);
  for (const std::int64_t e : {16, 256, 65536}) {
    for (std::int64_t k = -2; k <= 2; ++k) {
      for (const std::int64_t x : {e + k, -e + k, 2 * e + k, -2 * e + k}) v.push_back(x);
    }
  }
  for (int s = 1; s <= 16; ++s) {
    for (const std::int64_t x : {32767LL << s, 32768LL << s, -(32768LL << s), -(32769LL << s)}) {
      for (std::int64_t k = -1; k <= 1; ++k) {
        if (x + k >= INT32_MIN && x + k <= INT32_MAX) v.push_back(x + k);
      }
    }
  }
  v.push_back(INT32_MIN);
  v.push_back(INT32_MAX);
  std::vector<Word> words;
  for (const std::int64_t x : v) words.push_back(static_cast<Word>(x) & 0xFFFFFFFF);
  return words;
}

// The quant words of a mode for the proofs: scales 1, 0.5, 1.5, 2^-126 (smallest normal) and the
// largest normal; for offset modes the offset ends and 0; every shift code.
std::vector<Word> ProofQuantWords(unsigned mode) {
  if (BundleFPATRModeIsShift(mode)) {
    std::vector<Word> w;
    for (Word c = 0; c < 16; ++c) w.push_back(c << 32);
    return w;
  }
  if (!BundleFPATRModeUsesScalarParameter(mode) && !BundleFPATRModeUsesVectorParameter(mode)) {
    return {0};
  }
  const int width = BundleFPATRModeOffsetWidth(mode);
  std::vector<Word> w;
  for (const Word s : {kOne19, kHalf19, Word{0x1FE00}, Word{0x00400}, Word{0x3FBFF}}) {
    if (width == 0) {
      w.push_back(Quant(s));
      continue;
    }
    const std::int64_t hi = (std::int64_t{1} << (width - 1)) - 1;
    for (const std::int64_t o : {std::int64_t{0}, hi, -hi - 1}) w.push_back(Quant(s, o, width));
  }
  return w;
}

// Every legal mode x every ReluMode (parameters +0, 0.5, 1.0 + 2^-10) x every control x the
// proof values of its accumulator (every `stride`-th, offset by the quant word's position), with
// each mode's first `max_quants` proof quant words. Returns the comparisons made.
long ProveFastEqualsLiteral(std::size_t stride, std::size_t max_quants) {
  const std::vector<Word> fp32 = Fp32ProofValues();
  const std::vector<Word> s32 = S32ProofValues();
  Mismatches mismatches;
  for (unsigned mode = 0; mode < 64; ++mode) {
    if (!BundleFPATRPreQuantModeLegal(mode)) continue;
    for (const T acc : {T::FP32, T::S32, T::U32}) {
      if (!BundleFPATRAccumulatorTypeLegal(mode, acc)) continue;
      const T out = mode == 0 ? acc : BundleFPATROutputType(mode);
      const std::vector<Word>& values = acc == T::FP32 ? fp32 : s32;
      std::vector<Word> quants = ProofQuantWords(mode);
      if (quants.size() > max_quants) quants.resize(max_quants);
      for (std::size_t q = 0; q < quants.size(); ++q) {
        for (unsigned relu = 0; relu < 4; ++relu) {
          const std::vector<Word> params =
              relu < 2 ? std::vector<Word>{0} : std::vector<Word>{0, kHalf19, 0x1FC01};
          for (const Word rp : params) {
            for (std::size_t i = q % stride; i < values.size(); i += stride) {
              for (const M m : kAllRoundingModes) {
                for (const bool sat : {false, true}) {
                  const NumericExecutionControl c{m, sat};
                  mismatches.Check(FastTileProfileMatrixPostProcessWithFlags(values[i], mode, relu,
                                                                             out, quants[q], rp, c),
                                   TileProfileMatrixPostProcessWithFlags(values[i], mode, relu, 0,
                                                                         out, quants[q], rp, c),
                                   "mode " + std::to_string(mode) + " relu " +
                                       std::to_string(relu) + " value " + Hex(values[i]) +
                                       " quant " + Hex(quants[q]) + " relu_param " + Hex(rp));
                }
              }
            }
          }
        }
      }
    }
  }
  EXPECT_EQ(mismatches.count(), 0);
  return mismatches.checked();
}

// CI: every mode, ReluMode, parameter and control; every 16th proof value; the first two quant
// words of each mode (scales 1 and 0.5; offset 0 and the top; shifts 1 and 2).
TEST(MatrixPostProcessExhaustive, FastEqualsLiteralOnEveryModeReluAndControl) {
  EXPECT_GT(ProveFastEqualsLiteral(16, 2), 100000);
}

// Long (ctest label long): every proof value, every proof quant word (about 12 million cases;
// minutes).
TEST(MatrixPostProcessExhaustive, DISABLED_FastEqualsLiteralOnEveryProofValue) {
  EXPECT_GT(ProveFastEqualsLiteral(1, 16), 10000000);
}

// A legal case drawn over the whole domain: a legal mode and accumulator, any accumulator word
// (half the time one of moderate magnitude, so rounding and clamping matter), any positive
// normal scale, any offset of the width, any shift code, any ReLU parameter.
struct DrawnCase {
  Word value;
  unsigned mode;
  unsigned relu;
  T out;
  Word quant;
  Word relu_param;
};

rc::Gen<DrawnCase> AnyCase() {
  static const std::vector<std::pair<unsigned, T>> kModes = [] {
    std::vector<std::pair<unsigned, T>> v;
    for (unsigned m = 0; m < 64; ++m) {
      for (const T acc : {T::FP32, T::S32, T::U32}) {
        if (BundleFPATRPreQuantModeLegal(m) && BundleFPATRAccumulatorTypeLegal(m, acc)) {
          v.emplace_back(m, acc);
        }
      }
    }
    return v;
  }();
  return rc::gen::apply(
      [](std::size_t k, unsigned relu, std::uint32_t word, bool moderate, int exponent,
         std::uint32_t scale, std::uint32_t offset_bits, unsigned code, std::uint32_t rp) {
        const auto [mode, acc] = kModes[k];
        Word value = word;
        if (moderate) {
          if (acc == T::FP32) {
            value = (word & 0x807FFFFF) | (static_cast<Word>(127 + exponent) << 23);
          } else {
            value = static_cast<Word>(static_cast<std::int64_t>(static_cast<std::int32_t>(word)) >>
                                      (31 - std::min(31, std::max(1, exponent + 20)))) &
                    0xFFFFFFFF;
          }
        }
        Word quant = 0;
        if (BundleFPATRModeIsShift(mode)) {
          quant = Word{code} << 32;
        } else if (BundleFPATRModeUsesScalarParameter(mode) ||
                   BundleFPATRModeUsesVectorParameter(mode)) {
          const int width = BundleFPATRModeOffsetWidth(mode);
          quant = Quant(scale, static_cast<std::int64_t>(offset_bits), width);
        }
        return DrawnCase{value, mode,
                         relu,  mode == 0 ? acc : BundleFPATROutputType(mode),
                         quant, relu >= 2 ? Word{rp} : 0};
      },
      rc::gen::inRange<std::size_t>(0, kModes.size()), rc::gen::inRange(0U, 4U),
      rc::gen::arbitrary<std::uint32_t>(), rc::gen::arbitrary<bool>(), rc::gen::inRange(-20, 21),
      rc::gen::inRange<std::uint32_t>(0x400, 0x3FC00), rc::gen::arbitrary<std::uint32_t>(),
      rc::gen::inRange(0U, 16U),
      rc::gen::oneOf(rc::gen::just<std::uint32_t>(0),
                     rc::gen::inRange<std::uint32_t>(0x400, 0x3FC00)));
}

RC_GTEST_PROP(MatrixPostProcessProperty, FastEqualsLiteralOnTheWholeDomain, ()) {
  const DrawnCase d = *AnyCase();
  RC_ASSERT(BundleFPATRQuantParameterWordLegal(d.mode, d.quant) || d.quant == 0);
  for (const M m : kAllRoundingModes) {
    for (const bool sat : {false, true}) {
      const NumericExecutionControl c{m, sat};
      RC_ASSERT(FastTileProfileMatrixPostProcessWithFlags(d.value, d.mode, d.relu, d.out, d.quant,
                                                          d.relu_param, c) ==
                TileProfileMatrixPostProcessWithFlags(d.value, d.mode, d.relu, 0, d.out, d.quant,
                                                      d.relu_param, c));
    }
  }
}

}  // namespace
}  // namespace matrix_postprocess_test
}  // namespace ptovec::oracle
