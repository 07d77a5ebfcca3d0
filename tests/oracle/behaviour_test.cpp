// Behaviour models (oracle/behaviour.hpp): known answers of every deviation and built-in model,
// and the proof that the fast forms equal the literal forms: E4M3InfNaN's encoder and the
// tininess-after-rounding facts over every FP16 and BF16 value x every mode x Sat, and the whole
// model encoders over every E4M3 and HiF8 code x every destination x control x model.
#include "ptovec/oracle/behaviour.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "ptovec/oracle/dyadic.hpp"
#include "ptovec/oracle/matrix_quantization.hpp"
#include "ptovec/oracle/reference_quantization.hpp"
#include "test_support.hpp"

namespace ptovec::oracle {
namespace behaviour_test {
namespace {

using test_support::Hex;
using T = TileDataType;
using M = NumericRoundingMode;

const Behaviour& Model(std::string_view name) {
  const NamedModel* m = FindBuiltinModel(name);
  if (m == nullptr) throw std::logic_error("no model");
  return m->behaviour;
}

Behaviour Only(Deviation d) { return {DeviationBit(d), InvalidIntegerWord::Open, NaNWord::Open}; }

// The fast model encoding of a finite source code.
ModelAnswer Encode(T src, Word code, T dst, M mode, bool sat, const Behaviour& b) {
  const Dyadic v = DyadicFromFiniteCode(src, code);
  const bool negative = (code & Format(src).SignBit()) != 0;
  if (Format(dst).IsFloating())
    return FastModelMatrixFloatingEncoding(v, negative, dst, {mode, sat}, b);
  return FastModelMatrixIntegerEncoding(v, true, dst, {mode, sat}, b);
}

constexpr DeviationSet Bit(Deviation d) { return DeviationBit(d); }

TEST(BehaviourModels, CatalogueNamesAndCompositions) {
  EXPECT_EQ(DeviationNamesList(),
            "ieee-overflow, no-saturation, signed-zero, tininess-after-rounding, "
            "invalid-integer, e4m3-inf-nan");
  ASSERT_EQ(BuiltinModels().size(), 4U);
  EXPECT_TRUE(Model("ieee754").Has(Deviation::TininessAfterRounding));
  EXPECT_FALSE(Model("arm").Has(Deviation::TininessAfterRounding));  // Arm: before rounding
  EXPECT_EQ(Model("riscv").invalid_integer, InvalidIntegerWord::Clamp);
  EXPECT_EQ(Model("x86").invalid_integer, InvalidIntegerWord::Indefinite);
  EXPECT_EQ(Model("arm").invalid_integer, InvalidIntegerWord::ClampNaNZero);
  EXPECT_EQ(ParseDeviation("signed-zero"), Deviation::SignedZero);
  EXPECT_EQ(ParseDeviation("signed_zero"), std::nullopt);
}

// Round-to-odd overflow: IEEE 754 never rounds to Inf in RTO (issue 40: bf16 0x4780 = 65536).
TEST(BehaviourModels, IEEEOverflowByDirection) {
  const Behaviour& ieee = Model("ieee754");
  EXPECT_EQ(Encode(T::BF16, 0x4780, T::FP16, M::RNE, false, ieee).result, (Encoded{0x7c00, 0x14}));
  const ModelAnswer rto = Encode(T::BF16, 0x4780, T::FP16, M::RTO, false, ieee);
  EXPECT_EQ(rto.result, (Encoded{0x7bff, 0x14}));
  EXPECT_EQ(rto.applied, Bit(Deviation::IEEEOverflow));
  EXPECT_EQ(Encode(T::BF16, 0xc780, T::FP16, M::RTP, false, ieee).result, (Encoded{0xfbff, 0x14}));
  EXPECT_EQ(Encode(T::BF16, 0xc780, T::FP16, M::RTM, false, ieee).result, (Encoded{0xfc00, 0x14}));
  EXPECT_EQ(Encode(T::BF16, 0x4780, T::FP16, M::RTM, false, ieee).result, (Encoded{0x7bff, 0x14}));
  EXPECT_EQ(Encode(T::BF16, 0x4780, T::HiF8, M::RTZ, false, ieee).result, (Encoded{0x6e, 0x14}));
  // E4M3 has no Inf: an RNE overflow stays the profile's 0x7F; RTZ gives the largest finite.
  EXPECT_EQ(Encode(T::BF16, 0x43e1, T::E4M3, M::RNE, false, ieee).result, (Encoded{0x7f, 0x14}));
  EXPECT_EQ(Encode(T::BF16, 0xc3e1, T::E4M3, M::RTZ, false, ieee).result, (Encoded{0xfe, 0x14}));
}

// No saturation: Sat's largest finite becomes the non-Sat overflow; with ieee-overflow under
// RTZ the two steps cancel and the answer is the profile's (nothing applied).
TEST(BehaviourModels, NoSaturation) {
  const Behaviour& ieee = Model("ieee754");
  const ModelAnswer rne = Encode(T::BF16, 0x4780, T::FP16, M::RNE, true, ieee);
  EXPECT_EQ(rne.result, (Encoded{0x7c00, 0x14}));
  EXPECT_EQ(rne.applied, Bit(Deviation::NoSaturation));
  const ModelAnswer rtz = Encode(T::BF16, 0x4780, T::FP16, M::RTZ, true, ieee);
  EXPECT_EQ(rtz.result, (Encoded{0x7bff, 0x14}));
  EXPECT_EQ(rtz.applied, 0);
  // Integers: S8 300 under Sat clamps to 0x7f in the profile, wraps (0x2c) without Sat.
  EXPECT_EQ(Encode(T::FP16, 0x5cb0, T::S8, M::RNE, true, Only(Deviation::NoSaturation)).result,
            (Encoded{0x2c, 0x14}));
}

TEST(BehaviourModels, SignedZero) {
  const Behaviour sz = Only(Deviation::SignedZero);
  EXPECT_EQ(Encode(T::FP16, 0x8000, T::FP32, M::RNE, false, sz).result, (Encoded{0x80000000, 0}));
  EXPECT_EQ(Encode(T::FP16, 0x8000, T::FP32, M::RNE, false, {}).result, (Encoded{0, 0}));
  EXPECT_EQ(Encode(T::FP16, 0x0000, T::FP32, M::RNE, false, sz).result, (Encoded{0, 0}));
  // E4M3: a negative value rounding to zero (-2^-11, below half the smallest subnormal 2^-9).
  EXPECT_EQ(Encode(T::FP16, 0x9000, T::E4M3, M::RNE, false, {}).result, (Encoded{0x00, 0x18}));
  EXPECT_EQ(Encode(T::FP16, 0x9000, T::E4M3, M::RNE, false, sz).result, (Encoded{0x80, 0x18}));
  // HiF8 has no -0 (0x80 is its NaN): unchanged.
  EXPECT_EQ(Encode(T::FP16, 0x8000, T::HiF8, M::RNE, false, sz).result, (Encoded{0x00, 0}));
}

// IEEE 754 7.5 after rounding: FP32 0x387ff000 is 2^-14 - 2^-26, a tie at FP16's precision
// with unbounded exponent (2047.5 * 2^-25) that RNE rounds to 2^-14: not tiny. 0x387fe003 rounds
// to 2047 * 2^-25 < 2^-14: tiny, UF kept although the result is the smallest normal.
TEST(BehaviourModels, TininessAfterRounding) {
  const Behaviour after = Only(Deviation::TininessAfterRounding);
  EXPECT_EQ(Encode(T::FP32, 0x387ff000, T::FP16, M::RNE, false, {}).result, (Encoded{0x400, 0x18}));
  EXPECT_EQ(Encode(T::FP32, 0x387ff000, T::FP16, M::RNE, false, after).result,
            (Encoded{0x400, 0x10}));
  EXPECT_EQ(Encode(T::FP32, 0x387fe003, T::FP16, M::RNE, false, after).result,
            (Encoded{0x400, 0x18}));
  // RTZ never rounds up: tiny. A subnormal result stays UF|NX.
  EXPECT_EQ(Encode(T::FP32, 0x387ff000, T::FP16, M::RTZ, false, after).result,
            (Encoded{0x3ff, 0x18}));
  // E4M3 (p = 4, emin = -6): FP16 0x23c0 is 1.9375 * 2^-7 = 15.5 * 2^-10, a tie at spacing
  // 2^-10 that RNE rounds to 16 * 2^-10 = 2^-6: not tiny (the profile: 7.75 * 2^-9 rounds to the
  // smallest normal 0x08 with UF|NX).
  EXPECT_EQ(Encode(T::FP16, 0x23c0, T::E4M3, M::RNE, false, after).result, (Encoded{0x08, 0x10}));
  EXPECT_EQ(Encode(T::FP16, 0x23c0, T::E4M3, M::RNE, false, {}).result, (Encoded{0x08, 0x18}));
}

TEST(BehaviourModels, InvalidIntegerConventions) {
  // FP32 -3.4e38 (0xff7fffff) into S32: below range.
  const Dyadic low = DyadicFromFiniteCode(T::FP32, 0xff7fffff);
  const Dyadic high = DyadicFromFiniteCode(T::FP32, 0x7f7fffff);
  const auto s32 = [&](const Dyadic& v, std::string_view model) {
    return FastModelMatrixIntegerEncoding(v, true, T::S32, {M::RNE, false}, Model(model));
  };
  EXPECT_EQ(s32(low, "riscv").result, (Encoded{0x80000000, 0x01}));
  EXPECT_EQ(s32(high, "riscv").result, (Encoded{0x7fffffff, 0x01}));
  EXPECT_EQ(s32(high, "x86").result, (Encoded{0x80000000, 0x01}));
  EXPECT_EQ(s32(high, "arm").result, (Encoded{0x7fffffff, 0x01}));
  const ModelAnswer open = s32(low, "ieee754");
  EXPECT_EQ(open.result.status, 0x01);
  EXPECT_TRUE(open.word_open);
  // Unsigned: x86's indefinite is all ones, RISC-V clamps a negative value to 0.
  const auto u8 = [&](std::string_view model) {
    return FastModelMatrixIntegerEncoding(low, true, T::U8, {M::RNE, true}, Model(model)).result;
  };
  EXPECT_EQ(u8("x86"), (Encoded{0xff, 0x01}));
  EXPECT_EQ(u8("riscv"), (Encoded{0x00, 0x01}));
  // An integer source is not a float to integer conversion: the profile's OF|NX stays.
  EXPECT_EQ(FastModelMatrixIntegerEncoding(DyadicFromInteger(300), false, T::S8, {M::RNE, false},
                                           Model("riscv"))
                .result,
            (Encoded{0x2c, 0x14}));
}

TEST(BehaviourModels, SpecialSources) {
  const Behaviour& riscv = Model("riscv");
  Behaviour b = riscv;
  b.deviations |= Bit(Deviation::E4M3InfNaN);
  const ModelSource inf = ModelSourceOf(T::E4M3, 0xf8, b);
  EXPECT_EQ(inf.kind, ModelSourceKind::Infinity);
  EXPECT_TRUE(inf.negative);
  EXPECT_EQ(ModelSourceOf(T::E4M3, 0x79, b).kind, ModelSourceKind::NaN);
  EXPECT_EQ(ModelSourceOf(T::E4M3, 0x78, riscv).kind, ModelSourceKind::Finite);  // 256
  EXPECT_EQ(ModelSpecialEncoding(inf, T::FP16, b).result, (Encoded{0xfc00, 0}));
  EXPECT_EQ(ModelSpecialEncoding({ModelSourceKind::NaN, true}, T::FP32, b).result,
            (Encoded{0x7fc00000, 0}));
  Behaviour x86 = Model("x86");
  x86.deviations |= Bit(Deviation::E4M3InfNaN);
  EXPECT_EQ(ModelSpecialEncoding({ModelSourceKind::NaN, false}, T::BF16, x86).result,
            (Encoded{0xffc0, 0}));
  EXPECT_EQ(ModelSpecialEncoding({ModelSourceKind::NaN, false}, T::S8, b).result,
            (Encoded{0x7f, 0x01}));
  Behaviour arm = Model("arm");
  EXPECT_EQ(ModelSpecialEncoding({ModelSourceKind::NaN, false}, T::S8, arm).result,
            (Encoded{0x00, 0x01}));
}

TEST(BehaviourModels, E4M3InfNaNEncoding) {
  const Behaviour b = Only(Deviation::E4M3InfNaN);
  // 248 (FP16 0x5bc0): above 240, overflows; the profile rounds it to 256 (0x78) with NX.
  EXPECT_EQ(Encode(T::FP16, 0x5bc0, T::E4M3, M::RNE, false, {}).result, (Encoded{0x78, 0x10}));
  EXPECT_EQ(Encode(T::FP16, 0x5bc0, T::E4M3, M::RNE, false, b).result, (Encoded{0x78, 0x14}));
  EXPECT_EQ(Encode(T::FP16, 0xdbc0, T::E4M3, M::RNE, true, b).result, (Encoded{0xf7, 0x14}));
  EXPECT_EQ(Encode(T::FP16, 0x5b80, T::E4M3, M::RNE, false, b).result, (Encoded{0x77, 0}));
}

// x86 detects tininess after rounding (BF16: 2^-126 - 2^-134 rounds to 2^-126 under RNE), also
// into FP16 (F16C: docs/f16c.md).
TEST(BehaviourModels, X86TininessAfterRounding) {
  const Behaviour& x86 = Model("x86");
  EXPECT_EQ(Encode(T::FP32, 0x007fff80, T::BF16, M::RNE, false, x86).result,
            (Encoded{0x0080, 0x10}));
  EXPECT_EQ(Encode(T::FP32, 0x007fff80, T::BF16, M::RNE, false, {}).result,
            (Encoded{0x0080, 0x18}));
  EXPECT_EQ(Encode(T::FP32, 0xb87ffffd, T::FP16, M::RNE, false, x86).result,
            (Encoded{0x8400, 0x10}));
  EXPECT_EQ(Encode(T::FP32, 0xc77fefff, T::FP16, M::RNE, false, x86).result,
            (Encoded{0xfbff, 0x10}));
}

// ---- fast == literal --------------------------------------------------------------------------

std::vector<Behaviour> ProofBehaviours() {
  std::vector<Behaviour> out;
  for (const DeviationInfo& d : AllDeviations()) out.push_back(Only(d.deviation));
  for (const NamedModel& m : BuiltinModels()) out.push_back(m.behaviour);
  Behaviour all{0x3f, InvalidIntegerWord::Clamp, NaNWord::PositiveQuiet};
  out.push_back(all);
  return out;
}

constexpr T kDestinations[] = {T::FP32, T::FP16, T::BF16, T::E4M3, T::HiF8, T::S4X2, T::U4X2,
                               T::S8,   T::U8,   T::S16,  T::U16,  T::S32,  T::U32};

// Every finite E4M3 and HiF8 code into every destination, every control, every proof behaviour.
TEST(BehaviourModelsExhaustive, EightBitSourcesFastEqualsLiteral) {
  int mismatches = 0;
  for (const T src : {T::E4M3, T::HiF8}) {
    for (Word code = 0; code < 0x100; ++code) {
      if (!TileNumericValueIsFinite(src, code)) continue;
      const Dyadic v = DyadicFromFiniteCode(src, code);
      const Real r = ToReal(v);
      const bool negative = (code & 0x80) != 0;
      for (const T dst : kDestinations) {
        const bool floating = Format(dst).IsFloating();
        for (const M mode : kAllRoundingModes) {
          for (const bool sat : {false, true}) {
            for (const Behaviour& b : ProofBehaviours()) {
              const ModelAnswer fast =
                  floating ? FastModelMatrixFloatingEncoding(v, negative, dst, {mode, sat}, b)
                           : FastModelMatrixIntegerEncoding(v, true, dst, {mode, sat}, b);
              const ModelAnswer literal =
                  floating ? ModelMatrixFloatingEncoding(r, negative, dst, {mode, sat}, b)
                           : ModelMatrixIntegerEncoding(r, true, dst, {mode, sat}, b);
              if (!(fast == literal) && ++mismatches <= 10) {
                ADD_FAILURE() << Format(src).name << " " << Hex(code) << " -> " << Format(dst).name
                              << " " << RoundingModeName(mode) << (sat ? " Sat" : "")
                              << " deviations " << int(b.deviations);
              }
            }
          }
        }
      }
    }
  }
  EXPECT_EQ(mismatches, 0);
}

// Every FP16 or BF16 code (one source per test): the E4M3 encoder with Inf and NaN codes (Sat
// off; Sat on differs only above 240, where both forms return the same constant), and the
// tininess facts through the whole floating model with only tininess-after-rounding.
class BehaviourModelsExhaustive16 : public testing::TestWithParam<T> {};

TEST_P(BehaviourModelsExhaustive16, E4M3InfNaNAndTininessFastEqualsLiteral) {
  const T src = GetParam();
  const Behaviour after = Only(Deviation::TininessAfterRounding);
  int mismatches = 0;
  for (Word code = 0; code < 0x10000; ++code) {
    if (!TileNumericValueIsFinite(src, code)) continue;
    const Dyadic v = DyadicFromFiniteCode(src, code);
    const Real r = ToReal(v);
    for (const M mode : kAllRoundingModes) {
      const NumericExecutionControl c{mode, false};
      if (!(FastModelE4M3InfNaNEncoding(v, c) == ModelE4M3InfNaNEncoding(r, c)) &&
          ++mismatches <= 10) {
        ADD_FAILURE() << "e4m3-inf-nan " << Hex(code) << " " << RoundingModeName(mode);
      }
      for (const T dst : {T::FP32, T::FP16, T::BF16, T::E4M3}) {
        if (dst == src) continue;
        const ModelAnswer fast = FastModelMatrixFloatingEncoding(v, false, dst, c, after);
        if (fast.applied == 0 && (fast.result.status & kStatusUF) == 0) continue;  // no fact read
        if (!(fast == ModelMatrixFloatingEncoding(r, false, dst, c, after)) && ++mismatches <= 10) {
          ADD_FAILURE() << "tininess " << Hex(code) << " -> " << Format(dst).name << " "
                        << RoundingModeName(mode);
        }
      }
    }
  }
  EXPECT_EQ(mismatches, 0);
}

INSTANTIATE_TEST_SUITE_P(Sources, BehaviourModelsExhaustive16, testing::Values(T::FP16, T::BF16),
                         [](const testing::TestParamInfo<T>& p) {
                           return std::string(Format(p.param).spec_name);
                         });

}  // namespace
}  // namespace behaviour_test
}  // namespace ptovec::oracle
