// Exhaustive checks of the fast TDEQUANT / TQUANT / PreQuant paths against the literal seed
// functions:
//  * FastTileProfileDequantize: every (value, zero point) pair of S8 and of U8 (65536 each) x all
//    7 modes x both Sat, for each of a set of scales (powers of two, 24-bit significands that
//    create exact ties, a carry to 2^128, the largest scale 0x7F7FFFFF, subnormal scales such as
//    0x00000001 and 0x00400000, negative scales). The literal TileProfileDequantize reads the
//    pair only through source_value - zero_value (seed 003 lines 165-168) and never reads Sat
//    (lines 169-171 pass only the rounding mode), so it is called once per (type, difference,
//    mode) on one representative pair; every pair and both Sat values go through the fast form.
//    The same test checks the reuse itself: the literal on 48 other pairs per type (both Sat)
//    equals its representative.
//  * FastTileProfileQuantize: every BF16-valued FP32 input (code << 16: all 65536, NaN and Inf
//    included) x all 7 modes x both Sat, for a set of scales, with the destination (S8/U8) and
//    the zero point cycling with a hash of the code. (Random FP32 words: fast_properties_test.)
//  * FastMatrixQuantizedAffine: every S16 accumulator value x widths 0/5/9/17 x all 7 modes x
//    both Sat, for a set of FP19 scales, offsets and output types cycling with the value.
//  * FastMatrixRoundAndSaturateSigned: every S16 code / 16 (fractions, ties) x widths x modes.
#include <gtest/gtest.h>

#include <sstream>
#include <string>
#include <vector>

#include "ptovec/oracle/fast.hpp"
#include "ptovec/oracle/matrix_quantization.hpp"
#include "ptovec/oracle/reference_quantization.hpp"
#include "test_support.hpp"

namespace ptovec::oracle {
namespace fast_quantization_test {
namespace {

using test_support::Mismatches;
using test_support::Show;

using T = TileDataType;

std::string Hex(Word w) {
  std::ostringstream out;
  out << "0x" << std::hex << w;
  return out.str();
}

// ---------------------------------------------------------------------------------------------
// TDEQUANT
// ---------------------------------------------------------------------------------------------

constexpr Word kDequantScales[] = {
    0x3F800000,  // 1
    0x3F000000,  // 0.5
    0x4B000000,  // 2^23
    0x3F800001,  // 1 + 2^-23: odd differences >= 3 give 25-bit products, exact ties
    0x3FC00001,  // 1.5 + 2^-23: ties as well
    0x3FFFFFFF,  // 2 - 2^-23: 24-bit significand of ones
    0x3EAAAAAB,  // ~1/3
    0x4B7FFFFF,  // 2^24 - 1
    0x7B810101,  // 0x1010101 * 2^96: 255 * it = (2^32 - 1) * 2^96, a carry to 2^128
    0x7F000000,  // 2^127: overflow from |difference| 2 up
    0x7F7FFFFF,  // the largest finite scale
    0x00000001,  // 2^-149, the smallest subnormal
    0x00000003,  // 3 * 2^-149
    0x00400000,  // 2^-127
    0x007FFFFF,  // the largest subnormal
    0x00800000,  // the smallest normal
    0x00800001,  // the smallest normal + 1 ulp
    0xBF800000,  // -1 (the seed only asserts finite, non-zero)
    0xBFC00001,  // -(1.5 + 2^-23)
    0x80000001,  // -2^-149
};

class FastDequantizeExhaustive : public testing::TestWithParam<Word> {};

TEST_P(FastDequantizeExhaustive, EveryPairEveryModeBothSat) {
  const Word scale = GetParam();
  Mismatches m;
  for (const T source : {T::S8, T::U8}) {
    const bool is_signed = source == T::S8;
    const auto integer = [&](Word w) {
      return static_cast<int>(static_cast<std::int64_t>(NormalizeTileInteger(w, source)));
    };
    // The literal result for each difference and mode, from one representative pair.
    std::vector<std::array<Encoded, 7>> expected(511);
    std::vector<bool> seen(511, false);
    for (Word v = 0; v < 256; ++v) {
      for (Word zp = 0; zp < 256; ++zp) {
        const int difference = integer(v) - integer(zp);
        const auto index = static_cast<std::size_t>(difference + 255);
        if (seen[index]) continue;
        seen[index] = true;
        for (std::size_t i = 0; i < 7; ++i) {
          expected[index][i] =
              TileProfileDequantize(v, scale, zp, source, T::FP32, {kAllRoundingModes[i], false});
        }
      }
    }
    // The reuse: the literal on other pairs (both Sat) equals the representative's result.
    std::uint64_t state = 0x2545F4914F6CDD1Dull ^ scale;
    for (int k = 0; k < 48; ++k) {
      state ^= state << 13;
      state ^= state >> 7;
      state ^= state << 17;
      const Word v = state & 0xFF;
      const Word zp = (state >> 8) & 0xFF;
      const std::size_t i = (state >> 16) % 7;
      const auto index = static_cast<std::size_t>(integer(v) - integer(zp) + 255);
      for (const bool sat : {false, true}) {
        m.Check(TileProfileDequantize(v, scale, zp, source, T::FP32, {kAllRoundingModes[i], sat}),
                expected[index][i], "literal reuse " + Hex(v) + " " + Hex(zp));
      }
    }
    // Every pair, mode and Sat through the fast form.
    for (Word v = 0; v < 256; ++v) {
      for (Word zp = 0; zp < 256; ++zp) {
        const auto index = static_cast<std::size_t>(integer(v) - integer(zp) + 255);
        for (std::size_t i = 0; i < 7; ++i) {
          for (const bool sat : {false, true}) {
            const NumericExecutionControl c{kAllRoundingModes[i], sat};
            // Upper carrier bits are ignored: vary them with the pair.
            const Word value = v | (is_signed ? (zp << 8) : (Word{0xFF} << 56));
            const Encoded fast = FastTileProfileDequantize(value, scale, zp, source, T::FP32, c);
            if (!(fast == expected[index][i])) {
              m.Check(fast, expected[index][i],
                      std::string(Format(source).spec_name) + " " + Hex(v) + " zp " + Hex(zp) +
                          " scale " + Hex(scale) + " " +
                          std::string(RoundingModeName(c.rounding_mode)) + (sat ? " Sat" : ""));
            }
          }
        }
      }
    }
  }
  EXPECT_EQ(m.count(), 0) << "out of " << m.checked();
}

INSTANTIATE_TEST_SUITE_P(Fast, FastDequantizeExhaustive, testing::ValuesIn(kDequantScales),
                         [](const testing::TestParamInfo<Word>& p) {
                           std::ostringstream out;
                           out << "Scale" << std::hex << std::uppercase << p.param;
                           return out.str();
                         });

// ---------------------------------------------------------------------------------------------
// TQUANT
// ---------------------------------------------------------------------------------------------

constexpr Word kQuantScales[] = {
    0x41000000,  // 8: BF16 fractions become integers and halves
    0x3F800001,  // 1 + 2^-23
    0xC0400000,  // -3 (the seed only asserts finite, non-zero)
    0x7F7FFFFF,  // the largest finite: wrap-around and clamping
};

struct QuantizeShard {
  Word scale;
  Word half;  ///< codes with bit 15 equal to this (two tests per scale, about 30 s each)
};

void PrintTo(const QuantizeShard& s, std::ostream* os) {
  *os << "scale " << Hex(s.scale) << (s.half == 0 ? ", sign bit clear" : ", sign bit set");
}

std::vector<QuantizeShard> QuantizeShards() {
  std::vector<QuantizeShard> shards;
  for (const Word scale : kQuantScales) {
    for (const Word half : {Word{0}, Word{1}}) shards.push_back({scale, half});
  }
  return shards;
}

class FastQuantizeExhaustive : public testing::TestWithParam<QuantizeShard> {};

TEST_P(FastQuantizeExhaustive, EveryBF16ValuedInputEveryModeBothSat) {
  const Word scale = GetParam().scale;
  Mismatches m;
  for (Word code = GetParam().half << 15; code < (GetParam().half + 1) << 15; ++code) {
    const Word value = code << 16;
    // The destination and zero point cycle with a hash of the code.
    const Word hash = (code * 0x9E3779B1u) >> 7;
    const T destination = (hash & 1) != 0 ? T::S8 : T::U8;
    const Word zero_point = (hash >> 1) & 0xFF;
    for (const NumericRoundingMode mode : kAllRoundingModes) {
      for (const bool sat : {false, true}) {
        const NumericExecutionControl c{mode, sat};
        m.Check(FastTileProfileQuantize(value, scale, zero_point, T::FP32, destination, c),
                TileProfileQuantize(value, scale, zero_point, T::FP32, destination, c),
                Hex(value) + " * " + Hex(scale) + " + zp " + Hex(zero_point) + " " +
                    std::string(Format(destination).spec_name) + " " +
                    std::string(RoundingModeName(mode)) + (sat ? " Sat" : ""));
      }
    }
  }
  EXPECT_EQ(m.count(), 0) << "out of " << m.checked();
}

INSTANTIATE_TEST_SUITE_P(Fast, FastQuantizeExhaustive, testing::ValuesIn(QuantizeShards()),
                         [](const testing::TestParamInfo<QuantizeShard>& p) {
                           std::ostringstream out;
                           out << "Scale" << std::hex << std::uppercase << p.param.scale
                               << (p.param.half == 0 ? "_Positive" : "_Negative");
                           return out.str();
                         });

// ---------------------------------------------------------------------------------------------
// PreQuant (MatrixQuantizedAffine) and MatrixRoundAndSaturateSigned
// ---------------------------------------------------------------------------------------------

constexpr Word kFP19Scales[] = {
    0x1FC00,  // 1.0
    0x1F600,  // 0.375 = 1.5 * 2^-2: halves and quarters
    0x1FC01,  // 1 + 2^-10
    0x1EA80,  // 1.625 * 2^-5: fractions in 1/64 steps
    0x233FF,  // (2 - 2^-10) * 2^13: overflows every intermediate width
};

constexpr T kAffineOutputs[] = {T::S8,   T::U8,  T::S16, T::U16, T::S4X2,
                                T::U4X2, T::S32, T::U32, T::S8,  T::U8};
constexpr std::int64_t kOffsets[] = {0, 1, -1, 100, -65536, 65535, 7, -8, 255, -256, 3};

class FastAffineExhaustive : public testing::TestWithParam<Word> {};

TEST_P(FastAffineExhaustive, EveryS16ValueEveryWidthModeAndSat) {
  const Word fp19 = GetParam();
  const Dyadic scale = DyadicFromFiniteCode(T::FP19, fp19);
  const Real scale_real = FP19FiniteValue(fp19);
  ASSERT_EQ(ToReal(scale), scale_real);
  Mismatches m;
  for (Word code = 0; code < 0x10000; ++code) {
    const auto s16 = static_cast<std::int64_t>(SignExtend(code, 16));
    const Dyadic value = DyadicFromInteger(s16);
    const Real value_real{Integer(s16)};
    const T output = kAffineOutputs[code % 10];
    const std::int64_t offset = kOffsets[code % 11];
    for (const int width : {0, 5, 9, 17}) {
      for (const NumericRoundingMode mode : kAllRoundingModes) {
        for (const bool sat : {false, true}) {
          const NumericExecutionControl c{mode, sat};
          m.Check(FastMatrixQuantizedAffine(value, scale, offset, width, output, c),
                  MatrixQuantizedAffine(value_real, scale_real, Integer(offset), width, output, c),
                  std::to_string(s16) + " * fp19 " + Hex(fp19) + " + " + std::to_string(offset) +
                      " width " + std::to_string(width) + " " +
                      std::string(Format(output).spec_name) + " " +
                      std::string(RoundingModeName(mode)) + (sat ? " Sat" : ""));
        }
      }
    }
  }
  EXPECT_EQ(m.count(), 0) << "out of " << m.checked();
}

INSTANTIATE_TEST_SUITE_P(Fast, FastAffineExhaustive, testing::ValuesIn(kFP19Scales),
                         [](const testing::TestParamInfo<Word>& p) {
                           std::ostringstream out;
                           out << "FP19" << std::hex << std::uppercase << p.param;
                           return out.str();
                         });

TEST(FastMatrixRoundAndSaturateSignedExhaustive, EveryS16Over16EveryWidthAndMode) {
  int failures = 0;
  for (Word code = 0; code < 0x10000; ++code) {
    const auto s16 = static_cast<std::int64_t>(SignExtend(code, 16));
    Dyadic value = DyadicFromInteger(s16);
    value.exponent = -4;
    const Real value_real = ToReal(value);
    for (const int width : {5, 9, 17}) {
      for (const NumericRoundingMode mode : kAllRoundingModes) {
        const auto [fast_value, fast_flags] = FastMatrixRoundAndSaturateSigned(value, width, mode);
        const auto [literal_value, literal_flags] =
            MatrixRoundAndSaturateSigned(value_real, width, mode);
        if ((Integer(fast_value) != literal_value || fast_flags != literal_flags) &&
            ++failures <= 20) {
          ADD_FAILURE() << s16 << "/16 width " << width << " " << RoundingModeName(mode)
                        << ": fast " << fast_value << " literal " << literal_value;
        }
      }
    }
  }
  EXPECT_EQ(failures, 0);
}

}  // namespace
}  // namespace fast_quantization_test
}  // namespace ptovec::oracle
