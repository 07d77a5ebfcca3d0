// RapidCheck properties: the fast exact paths (fast.hpp) equal the literal seed functions on
// wide inputs: Dyadics with random significands (1..100 bits) and exponents -300..300; values
// built next to every destination's grid (exact ties, one unit either side, boundaries such as
// the largest finite, 2^128, the smallest normal and subnormal, integer range ends); random FP32
// words as values and scales; random S32 values; FP19 scales and offsets for PreQuant.
// Every property compares every rounding mode and both Sat values per generated input.
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <array>
#include <sstream>
#include <string>
#include <vector>

#include "ptovec/oracle/fast.hpp"
#include "ptovec/oracle/matrix_quantization.hpp"
#include "ptovec/oracle/reference_quantization.hpp"
#include "test_support.hpp"

namespace ptovec::oracle {
namespace fast_properties_test {
namespace {

using test_support::Show;

using T = TileDataType;
using U128 = DyadicSignificand;
__extension__ typedef __int128 I128;

std::string Hex(U128 m) {
  std::ostringstream out;
  out << "0x" << std::hex;
  const auto high = static_cast<std::uint64_t>(m >> 64);
  if (high != 0) {
    out << high;
    out.width(16);
    out.fill('0');
  }
  out << static_cast<std::uint64_t>(m);
  return out.str();
}

int BitsOf(const Dyadic& d) {
  int n = 0;
  for (U128 m = d.significand; m != 0; m >>= 1) ++n;
  return n;
}

std::string Show(const Dyadic& d) {
  return std::string(d.negative ? "-" : "+") + Hex(d.significand) + "*2^" +
         std::to_string(d.exponent);
}

std::string Show(NumericExecutionControl c) {
  return std::string(RoundingModeName(c.rounding_mode)) + (c.saturating ? " Sat" : "");
}

// RC_GTEST_PROP with the configured number of cases (RC_PARAMS max_success, default 100) times
// `factor`: the cheap literal functions get more cases in the same time.
template <typename Testable>
void CheckScaled(Testable&& testable, int factor) {
  const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
  rc::detail::TestMetadata metadata;
  metadata.id = std::string(info->test_suite_name()) + "/" + info->name();
  metadata.description = info->name();
  rc::detail::TestParams params = rc::detail::configuration().testParams;
  params.maxSuccess *= factor;
  const auto result = rc::detail::checkTestable(std::forward<Testable>(testable), metadata, params);
  if (!result.template is<rc::detail::SuccessResult>()) {
    std::ostringstream out;
    rc::detail::printResultMessage(result, out);
    FAIL() << out.str();
  }
}

#define FAST_PROP(Suite, Name, Factor)                                   \
  void FastProp_##Suite##_##Name();                                      \
  TEST(Suite, Name) { CheckScaled(&FastProp_##Suite##_##Name, Factor); } \
  void FastProp_##Suite##_##Name()

void Same(const Encoded& fast, const Encoded& literal, const std::string& what) {
  if (!(fast == literal)) {
    RC_FAIL(what + ": fast " + Show(fast) + " literal " + Show(literal));
  }
}

// ---------------------------------------------------------------------------------------------
// Generators (called inside a property).
// ---------------------------------------------------------------------------------------------

/// A significand of exactly `bits` bits (1..127).
U128 DrawSignificand(int bits) {
  const auto high = *rc::gen::arbitrary<std::uint64_t>();
  const auto low = *rc::gen::arbitrary<std::uint64_t>();
  U128 m = (static_cast<U128>(high) << 64) | low;
  m &= (U128{1} << bits) - 1;
  return m | (U128{1} << (bits - 1));
}

/// Any Dyadic: 1..100-bit significand, exponent -300..300, either sign; sometimes zero.
Dyadic DrawDyadic() {
  Dyadic d;
  if (*rc::gen::weightedElement<bool>({{1, true}, {40, false}})) return d;
  d.negative = *rc::gen::arbitrary<bool>();
  d.significand = DrawSignificand(*rc::gen::inRange(1, 101));
  d.exponent = *rc::gen::inRange(-300, 301);
  return d;
}

/// A signed offset t for a grid spaced 2^s apart: 0, +/-1, exact ties +/-2^(s-1), one unit off a
/// tie, or anything within one spacing.
I128 DrawOffset(int s) {
  const I128 half = I128{1} << (s - 1);
  const auto sign = *rc::gen::element<I128>(1, -1);
  switch (*rc::gen::inRange(0, 6)) {
    case 0:
      return 0;
    case 1:
      return sign;
    case 2:
      return sign * half;
    case 3:
      return sign * (half + *rc::gen::element<I128>(1, -1));
    case 4:
      return sign * (2 * half - 1);
    default: {
      const auto r = *rc::gen::inRange<std::int64_t>(0, std::int64_t{1} << std::min(s, 62));
      return sign * static_cast<I128>(r);
    }
  }
}

/// base + t * 2^(base.exponent - s): a value next to `base` on a grid 2^s times finer, with the
/// sign flipped if the sum crosses zero.
Dyadic Perturb(const Dyadic& base) {
  const int s = *rc::gen::inRange(1, 41);
  I128 signed_significand = static_cast<I128>(base.significand << s);
  if (base.negative) signed_significand = -signed_significand;
  signed_significand += DrawOffset(s);
  Dyadic d;
  d.negative = signed_significand < 0;
  d.significand = static_cast<U128>(d.negative ? -signed_significand : signed_significand);
  d.exponent = base.exponent - s;
  return d;
}

Dyadic FromFinite(T type, Word code) { return DyadicFromFiniteCode(type, code); }

/// A random finite code of `type`, with boundary codes (smallest subnormal, largest subnormal,
/// smallest normal, largest finite, one) weighted up; either sign.
Word DrawFiniteCode(T type) {
  const unsigned width = Format(type).width;
  const Word sign_bit = Word{1} << (width - 1);
  std::vector<Word> boundary;
  switch (type) {
    case T::FP32:
      boundary = {0x1,      0x2,      0x3,        0x3FFFFF,   0x400000,   0x7FFFFF,   0x800000,
                  0x800001, 0xFFFFFF, 0x3F800000, 0x3FFFFFFF, 0x7F000000, 0x7F7FFFFE, 0x7F7FFFFF};
      break;
    case T::FP16:
      boundary = {0x1, 0x2, 0x3FF, 0x400, 0x401, 0x3C00, 0x7BFE, 0x7BFF};
      break;
    case T::BF16:
      boundary = {0x1, 0x2, 0x7F, 0x80, 0x81, 0x3F80, 0x7F7E, 0x7F7F};
      break;
    case T::E4M3:
      boundary = {0x1, 0x7, 0x8, 0x9, 0x38, 0x7D, 0x7E};
      break;
    default:
      boundary = {0x1, 0x2, 0x7, 0x8, 0x7E, 0x7F, 0x6D, 0x6E};
      break;  // HiF8
  }
  for (;;) {
    Word code = 0;
    if (*rc::gen::arbitrary<bool>()) {
      code = *rc::gen::elementOf(boundary);
      if (*rc::gen::arbitrary<bool>()) code |= sign_bit;
    } else {
      code = *rc::gen::inRange<Word>(0, Word{1} << width);
    }
    if (TileNumericFiniteDecomposition(type, code).available) return code;
  }
}

/// A value next to the grid of floating destination `type` (or next to the overflow threshold,
/// the power of two just above its range).
Dyadic DrawNearFloatGrid(T type) {
  Dyadic base;
  const int choice = *rc::gen::inRange(0, 10);
  if (choice == 0) {  // the first power of two beyond the format
    base.significand = 1;
    base.exponent = type == T::FP32 || type == T::BF16 ? 128
                    : type == T::FP16                  ? 16
                    : type == T::E4M3                  ? 9
                                                       : 16;
    base.negative = *rc::gen::arbitrary<bool>();
  } else {
    base = FromFinite(type, DrawFiniteCode(type));
    if (base.significand == 0) base = Dyadic{false, 1, -160};
  }
  return Perturb(base);
}

/// An integer next to an integer type's range ends (or anywhere in S32/U32), as a Dyadic,
/// perturbed on a finer grid.
Dyadic DrawNearIntegerGrid() {
  static const std::array<I128, 14> kEnds = {
      0, 1, -1, 7, -8, 15, 127, -128, 255, 32767, -32768, 65535, 2147483647, -2147483648LL};
  I128 k = 0;
  switch (*rc::gen::inRange(0, 4)) {
    case 0:
      k = *rc::gen::elementOf(kEnds);
      break;
    case 1:
      k = *rc::gen::arbitrary<std::int32_t>();
      break;
    case 2:
      k = static_cast<I128>(*rc::gen::arbitrary<std::uint32_t>());
      break;
    default:
      k = *rc::gen::element<I128>(I128{1} << 63, -(I128{1} << 63), (I128{1} << 64) - 1,
                                  (I128{1} << 63) - 1, I128{1} << 64);
  }
  k += *rc::gen::inRange(-2, 3);
  Dyadic base;
  base.negative = k < 0;
  base.significand = static_cast<U128>(k < 0 ? -k : k);
  if (base.significand == 0) return Perturb(Dyadic{false, 1, -1});
  return Perturb(base);
}

/// A value for an encoder to `type`: anything, or next to its grid.
Dyadic DrawValueFor(T type) {
  if (*rc::gen::inRange(0, 3) == 0) return DrawDyadic();
  return Format(type).IsFloating() ? DrawNearFloatGrid(type) : DrawNearIntegerGrid();
}

constexpr std::array<T, 10> kIntegerTypes = {T::S4X2, T::U4X2, T::S8,  T::U8,  T::S16,
                                             T::U16,  T::S32,  T::U32, T::S64, T::U64};

// ---------------------------------------------------------------------------------------------
// Seed 003
// ---------------------------------------------------------------------------------------------

FAST_PROP(FastFP32FiniteEncoding, EqualsLiteralOnAnyDyadic, 10) {
  const Dyadic d = DrawValueFor(T::FP32);
  const Real v = ToReal(d);
  for (const NumericRoundingMode mode : kAllRoundingModes) {
    Same(FastFP32FiniteEncoding(d, mode), ReferenceFP32FiniteEncoding(v, mode),
         Show(d) + " " + std::string(RoundingModeName(mode)));
  }
}

FAST_PROP(FastFP32FiniteEncoding, EqualsLiteralOnProductsOfFP32Words, 10) {
  const Dyadic d = DyadicProduct(FromFinite(T::FP32, DrawFiniteCode(T::FP32)),
                                 FromFinite(T::FP32, DrawFiniteCode(T::FP32)));
  const Real v = ToReal(d);
  for (const NumericRoundingMode mode : kAllRoundingModes) {
    Same(FastFP32FiniteEncoding(d, mode), ReferenceFP32FiniteEncoding(v, mode),
         Show(d) + " " + std::string(RoundingModeName(mode)));
  }
}

/// A random FP32 word: any bits, or a finite code near a boundary; sometimes NaN or Inf.
Word DrawFP32Word() {
  switch (*rc::gen::inRange(0, 4)) {
    case 0:
      return *rc::gen::arbitrary<std::uint32_t>();
    case 1:
      return *rc::gen::element<Word>(0x7F800000, 0xFF800000, 0x7FC00000, 0x7F800001, 0x80000000,
                                     0x00000000);
    default:
      return DrawFiniteCode(T::FP32);
  }
}

/// A scale in the seeds' domain (finite, non-zero; either sign): any such word, or a power of
/// two (so that value * scale + zero point lands near integers and ties).
Word DrawScaleWord() {
  if (*rc::gen::arbitrary<bool>()) {
    const auto exponent = *rc::gen::inRange<Word>(100, 140);
    return (*rc::gen::arbitrary<bool>() ? 0x80000000 : 0) | (exponent << 23);
  }
  for (;;) {
    const Word w = DrawFiniteCode(T::FP32);
    if ((w & 0x7FFFFFFF) != 0) return w;
  }
}

FAST_PROP(FastTileProfileQuantize, EqualsLiteral, 10) {
  const Word value = DrawFP32Word() | (*rc::gen::arbitrary<bool>() ? Word{0xABCD} << 32 : 0);
  const Word scale = DrawScaleWord();
  const Word zero_point = *rc::gen::arbitrary<std::uint8_t>();
  for (const T destination : {T::S8, T::U8}) {
    for (const NumericRoundingMode mode : kAllRoundingModes) {
      for (const bool sat : {false, true}) {
        const NumericExecutionControl c{mode, sat};
        std::ostringstream what;
        what << std::hex << "value 0x" << value << " scale 0x" << scale << " zp 0x" << zero_point
             << " " << Format(destination).spec_name << " " << Show(c);
        Same(FastTileProfileQuantize(value, scale, zero_point, T::FP32, destination, c),
             TileProfileQuantize(value, scale, zero_point, T::FP32, destination, c), what.str());
      }
    }
  }
}

FAST_PROP(FastTileProfileQuantize, EqualsLiteralNearIntegersAndTies, 20) {
  // value = (k + t/2^s) * 2^-j (exact in FP32: |k * 2^s + t| < 2^24) with scale 2^j: the
  // affine value lies exactly on, next to, or half-way between integers.
  const int j = *rc::gen::inRange(-20, 21);
  const Word scale = static_cast<Word>(127 + j) << 23;
  const int s = *rc::gen::inRange(1, 15);
  const I128 n = I128{*rc::gen::inRange(-400, 401)} * (I128{1} << s) + DrawOffset(s);
  Dyadic exact;
  exact.negative = n < 0;
  exact.significand = static_cast<U128>(n < 0 ? -n : n);
  exact.exponent = -s - j;
  const Word value = FastFP32FiniteEncoding(exact, NumericRoundingMode::RNE).word;
  RC_ASSERT(TileNumericFiniteValue(T::FP32, value) == ToReal(exact));
  const Word zero_point = *rc::gen::arbitrary<std::uint8_t>();
  for (const T destination : {T::S8, T::U8}) {
    for (const NumericRoundingMode mode : kAllRoundingModes) {
      for (const bool sat : {false, true}) {
        const NumericExecutionControl c{mode, sat};
        std::ostringstream what;
        what << std::hex << "value 0x" << value << " scale 0x" << scale << " zp 0x" << zero_point
             << " " << Format(destination).spec_name << " " << Show(c);
        Same(FastTileProfileQuantize(value, scale, zero_point, T::FP32, destination, c),
             TileProfileQuantize(value, scale, zero_point, T::FP32, destination, c), what.str());
      }
    }
  }
}

FAST_PROP(FastTileProfileDequantize, EqualsLiteral, 5) {
  const Word value = *rc::gen::arbitrary<std::uint16_t>();
  const Word zero_point = *rc::gen::arbitrary<std::uint16_t>();
  const Word scale = DrawScaleWord();
  for (const T source : {T::S8, T::U8}) {
    for (const NumericRoundingMode mode : kAllRoundingModes) {
      for (const bool sat : {false, true}) {
        const NumericExecutionControl c{mode, sat};
        std::ostringstream what;
        what << std::hex << "value 0x" << value << " scale 0x" << scale << " zp 0x" << zero_point
             << " " << Format(source).spec_name << " " << Show(c);
        Same(FastTileProfileDequantize(value, scale, zero_point, source, T::FP32, c),
             TileProfileDequantize(value, scale, zero_point, source, T::FP32, c), what.str());
      }
    }
  }
}

// ---------------------------------------------------------------------------------------------
// Seed 000
// ---------------------------------------------------------------------------------------------

void CheckFloating(T destination, const Dyadic& d) {
  const Real v = ToReal(d);
  for (const NumericRoundingMode mode : kAllRoundingModes) {
    for (const bool sat : {false, true}) {
      const NumericExecutionControl c{mode, sat};
      const std::string what =
          Show(d) + " -> " + std::string(Format(destination).spec_name) + " " + Show(c);
      const Encoded literal = ReferenceMatrixFloatingEncoding(v, destination, c);
      Same(FastMatrixFloatingEncoding(d, destination, c), literal, what);
      if (destination == T::FP16 || destination == T::BF16) {
        Same(FastBinary16Encoding(d, destination, c), ReferenceBinary16Encoding(v, destination, c),
             what + " (Binary16)");
      } else if (destination == T::E4M3 || destination == T::HiF8) {
        Same(FastFP8Encoding(d, destination, c), ReferenceFP8Encoding(v, destination, c),
             what + " (FP8)");
      }
    }
  }
}

FAST_PROP(FastMatrixFloatingEncoding, EqualsLiteralToFP32, 5) {
  CheckFloating(T::FP32, DrawValueFor(T::FP32));
}
FAST_PROP(FastMatrixFloatingEncoding, EqualsLiteralToFP16, 4) {
  CheckFloating(T::FP16, DrawValueFor(T::FP16));
}
FAST_PROP(FastMatrixFloatingEncoding, EqualsLiteralToBF16, 4) {
  CheckFloating(T::BF16, DrawValueFor(T::BF16));
}
FAST_PROP(FastMatrixFloatingEncoding, EqualsLiteralToE4M3, 2) {
  CheckFloating(T::E4M3, DrawValueFor(T::E4M3));
}
FAST_PROP(FastMatrixFloatingEncoding, EqualsLiteralToHiF8, 2) {
  CheckFloating(T::HiF8, DrawValueFor(T::HiF8));
}
FAST_PROP(FastMatrixFloatingEncoding, EqualsLiteralOnFP32WordsToEveryFloat, 1) {
  const Dyadic d = FromFinite(T::FP32, DrawFiniteCode(T::FP32));
  for (const T destination : {T::FP32, T::FP16, T::BF16, T::E4M3, T::HiF8}) {
    CheckFloating(destination, d);
  }
}

FAST_PROP(FastMatrixIntegerEncoding, EqualsLiteral, 30) {
  const Dyadic d = DrawValueFor(T::S32);
  const Real v = ToReal(d);
  for (const T destination : kIntegerTypes) {
    for (const NumericRoundingMode mode : kAllRoundingModes) {
      for (const bool sat : {false, true}) {
        const NumericExecutionControl c{mode, sat};
        Same(FastMatrixIntegerEncoding(d, destination, c),
             ReferenceMatrixIntegerEncoding(v, destination, c),
             Show(d) + " -> " + std::string(Format(destination).spec_name) + " " + Show(c));
      }
    }
  }
}

FAST_PROP(FastMatrixIntegerEncoding, EqualsLiteralOnFP32Words, 30) {
  const Dyadic d = FromFinite(T::FP32, DrawFiniteCode(T::FP32));
  const Real v = ToReal(d);
  for (const T destination : kIntegerTypes) {
    for (const NumericRoundingMode mode : kAllRoundingModes) {
      for (const bool sat : {false, true}) {
        const NumericExecutionControl c{mode, sat};
        Same(FastMatrixIntegerEncoding(d, destination, c),
             ReferenceMatrixIntegerEncoding(v, destination, c),
             Show(d) + " -> " + std::string(Format(destination).spec_name) + " " + Show(c));
      }
    }
  }
}

FAST_PROP(FastMatrixRoundAndSaturateSigned, EqualsLiteral, 100) {
  const Dyadic d = DrawValueFor(T::S16);
  const Real v = ToReal(d);
  for (const int width : {5, 9, 17}) {
    for (const NumericRoundingMode mode : kAllRoundingModes) {
      const auto [fast_value, fast_flags] = FastMatrixRoundAndSaturateSigned(d, width, mode);
      const auto [literal_value, literal_flags] = MatrixRoundAndSaturateSigned(v, width, mode);
      if (Integer(fast_value) != literal_value || fast_flags != literal_flags) {
        RC_FAIL(Show(d) + " width " + std::to_string(width) + " " +
                std::string(RoundingModeName(mode)) + ": fast " + std::to_string(fast_value) +
                " literal " + literal_value.str());
      }
    }
  }
}

/// A PreQuant value: a random S32 accumulator, a random FP32 word, or any Dyadic.
Dyadic DrawPreQuantValue() {
  switch (*rc::gen::inRange(0, 3)) {
    case 0:
      return DyadicFromInteger(*rc::gen::arbitrary<std::int32_t>());
    case 1:
      return FromFinite(T::FP32, DrawFiniteCode(T::FP32));
    default: {
      Dyadic d = DrawDyadic();
      if (BitsOf(d) > 64) d.significand >>= 40;
      return d;
    }
  }
}

/// A PreQuant scale: a positive normal FP19 (the B.FPATR scale), or any Dyadic of <= 64 bits.
Dyadic DrawPreQuantScale() {
  if (*rc::gen::inRange(0, 3) != 0) {
    const auto exponent = *rc::gen::inRange<Word>(1, 255);
    const auto fraction = *rc::gen::inRange<Word>(0, 1024);
    return FromFinite(T::FP19, (exponent << 10) | fraction);
  }
  Dyadic d = DrawDyadic();
  if (BitsOf(d) > 64) d.significand >>= 40;
  return d;
}

FAST_PROP(FastMatrixQuantizedAffine, EqualsLiteral, 100) {
  const Dyadic value = DrawPreQuantValue();
  const Dyadic scale = DrawPreQuantScale();
  const int width = *rc::gen::element(0, 5, 9, 17);
  const std::int64_t offset =
      *rc::gen::arbitrary<bool>()
          ? *rc::gen::inRange<std::int64_t>(-65536, 65536)
          : *rc::gen::inRange<std::int64_t>(-(std::int64_t{1} << 62), std::int64_t{1} << 62);
  const T destination = *rc::gen::elementOf(kIntegerTypes);
  const Real v = ToReal(value);
  const Real s = ToReal(scale);
  for (const NumericRoundingMode mode : kAllRoundingModes) {
    for (const bool sat : {false, true}) {
      const NumericExecutionControl c{mode, sat};
      Same(FastMatrixQuantizedAffine(value, scale, offset, width, destination, c),
           MatrixQuantizedAffine(v, s, Integer(offset), width, destination, c),
           Show(value) + " * " + Show(scale) + " + " + std::to_string(offset) + " width " +
               std::to_string(width) + " -> " + std::string(Format(destination).spec_name) + " " +
               Show(c));
    }
  }
}

}  // namespace
}  // namespace fast_properties_test
}  // namespace ptovec::oracle
