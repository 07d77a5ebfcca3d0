// Fast exact paths (see fast.hpp). Integers only: a value is a Dyadic (-1)^n * m * 2^e with a
// 128-bit significand m; every rounding step of a seed function is reduced to "integer part and
// where the dropped fraction lies against 1/2", which a shift and a mask give exactly.
//
// The argument that each Fast function equals its literal seed function is written next to the
// code, citing seed lines; tests/oracle/fast_*_test.cpp check it exhaustively on every 8- and
// 16-bit input and by RapidCheck properties on wider ones.
#include "ptovec/oracle/fast.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>
#include <vector>

namespace ptovec::oracle {

namespace {

using U128 = DyadicSignificand;
__extension__ typedef __int128 I128;

/// Number of trailing zero bits of a non-zero m.
int TrailingZeros(U128 m) {
  const auto low = static_cast<std::uint64_t>(m);
  if (low != 0) return __builtin_ctzll(low);
  return 64 + __builtin_ctzll(static_cast<std::uint64_t>(m >> 64));
}

/// Where a fraction g in [0, 1) lies: 0, below 1/2, exactly 1/2, above 1/2. This is all any
/// rounding mode of FloatingToInteger needs to know about the fraction (spec-notes section 2).
enum class Fraction : std::uint8_t { Zero, Below, Half, Above };

/// 1 - g for a non-zero g.
Fraction Complement(Fraction g) {
  if (g == Fraction::Below) return Fraction::Above;
  if (g == Fraction::Above) return Fraction::Below;
  return g;
}

/// m * 2^-shift = integer + fraction. For shift <= 0 the caller guarantees that m << -shift fits
/// in 128 bits (then the fraction is 0).
struct Split {
  U128 integer;
  Fraction fraction;
};

Split SplitAt(U128 m, std::int64_t shift) {
  if (shift <= 0) return {m << static_cast<unsigned>(-shift), Fraction::Zero};
  if (m == 0) return {0, Fraction::Zero};
  if (shift > 128) return {0, Fraction::Below};  // m < 2^128 <= 2^(shift-1)
  U128 integer = 0;
  U128 rest = m;
  U128 half = U128{1} << 127;
  if (shift < 128) {
    const auto s = static_cast<unsigned>(shift);
    integer = m >> s;
    rest = m & ((U128{1} << s) - 1);
    half = U128{1} << (s - 1);
  }
  const Fraction f = rest == 0      ? Fraction::Zero
                     : rest < half  ? Fraction::Below
                     : rest == half ? Fraction::Half
                                    : Fraction::Above;
  return {integer, f};
}

/// Whether |FloatingToInteger(x, mode)| = I + 1 (rather than I) for x = (-1)^negative * (I + g),
/// g described by `fraction`, I's parity `odd`. Read off the FloatingToInteger table
/// (spec-notes section 2; numeric.cpp): for x > 0 floor(x) = I, for x < 0 floor(x) = -I - 1 when
/// g > 0. RNE: nearest, tie to the even of I, I+1. RTM: floor, magnitude up for x < 0 only. RTP:
/// ceiling, magnitude up for x > 0 only. RTZ: never. RNA: tie away from zero. RTO: the odd one of
/// I, I+1. RHB: floor(x + 1/2): a tie goes to +infinity, i.e. up for x > 0 and down for x < 0.
///
/// The same function is MatrixRoundMagnitude(|x|, mode, negative) (seed 000 lines 53-66): that
/// rounds the non-negative |x| with RTP and RTM swapped when negative (lines 43-51; RTM on |x| is
/// I, RTP on |x| is I+1: the same as above) and, for negative RHB, takes I when g <= 1/2 and I+1
/// otherwise (lines 57-62: the same as above); RNE, RNA, RTZ and RTO are symmetric in the sign.
bool MagnitudeRoundsUp(bool negative, bool odd, Fraction fraction, NumericRoundingMode mode) {
  if (fraction == Fraction::Zero) return false;
  switch (mode) {
    case NumericRoundingMode::RNE:
      return fraction == Fraction::Above || (fraction == Fraction::Half && odd);
    case NumericRoundingMode::RTM:
      return negative;
    case NumericRoundingMode::RTP:
      return !negative;
    case NumericRoundingMode::RTZ:
      return false;
    case NumericRoundingMode::RNA:
      return fraction != Fraction::Below;
    case NumericRoundingMode::RTO:
      return !odd;
    case NumericRoundingMode::RHB:
      return fraction == Fraction::Above || (fraction == Fraction::Half && !negative);
  }
  return false;
}

/// |FloatingToInteger(x, mode)| from x's integer part and fraction (MagnitudeRoundsUp).
U128 RoundedMagnitude(bool negative, const Split& s, NumericRoundingMode mode) {
  const bool odd = (static_cast<std::uint64_t>(s.integer) & 1) != 0;
  return s.integer + (MagnitudeRoundsUp(negative, odd, s.fraction, mode) ? 1 : 0);
}

// ---------------------------------------------------------------------------------------------
// Wide signed integers for the integer encoders.
// ---------------------------------------------------------------------------------------------

/// An integer n, kept as: `value` = n exactly when |n| < 2^100, otherwise some integer with
/// n's sign and magnitude >= 2^99 (beyond every range an integer type can have, so comparisons
/// with type ranges are exact); `low` = n mod 2^64 exactly (what NormalizeTileInteger reads).
struct Wide {
  I128 value;
  std::uint64_t low;
};

constexpr I128 kBeyond = I128{1} << 100;

Wide WideFromMagnitude(bool negative, U128 magnitude) {
  const auto low = static_cast<std::uint64_t>(magnitude);
  const I128 value = BitLength(magnitude) > 100 ? kBeyond : static_cast<I128>(magnitude);
  if (negative) return {-value, std::uint64_t{0} - low};
  return {value, low};
}

Wide WideFromInteger(I128 n) { return {n, static_cast<std::uint64_t>(static_cast<U128>(n))}; }

/// n + k for |k| < 2^64.
Wide Add(const Wide& n, I128 k) {
  Wide out{n.value, n.low + static_cast<std::uint64_t>(static_cast<U128>(k))};
  if (n.value > -kBeyond && n.value < kBeyond) {
    out.value = n.value + k;
    if (out.value >= kBeyond) out.value = kBeyond;
    if (out.value <= -kBeyond) out.value = -kBeyond;
  }
  return out;
}

/// x = floor + fraction with fraction in [0, 1).
struct FloorSplit {
  Wide floor;
  Fraction fraction;
};

FloorSplit FloorOf(const Dyadic& x) {
  const U128 m = x.significand;
  if (m == 0) return {{0, 0}, Fraction::Zero};
  if (x.exponent >= 0) {  // an integer m * 2^e, possibly far beyond 128 bits
    const int e = x.exponent;
    const std::uint64_t low = e >= 128 ? 0 : static_cast<std::uint64_t>(m << e);
    const I128 value = BitLength(m) + static_cast<std::int64_t>(e) > 100
                           ? kBeyond
                           : static_cast<I128>(m << e);
    if (x.negative) return {{-value, std::uint64_t{0} - low}, Fraction::Zero};
    return {{value, low}, Fraction::Zero};
  }
  const Split s = SplitAt(m, -static_cast<std::int64_t>(x.exponent));
  if (!x.negative) return {WideFromMagnitude(false, s.integer), s.fraction};
  const Wide truncated = WideFromMagnitude(true, s.integer);
  if (s.fraction == Fraction::Zero) return {truncated, Fraction::Zero};
  // x = -(I + g), g > 0: floor(x) = -I - 1, fraction 1 - g.
  return {Add(truncated, -1), Complement(s.fraction)};
}

/// FloatingToInteger(F + g, mode) for an integer F and a fraction g (spec-notes section 2 and
/// numeric.cpp, case by case with lower = F): RNE tie to even, RTM F, RTP F+1, RTZ F+1 iff
/// x < 0 (iff F < 0, as g > 0), RNA tie away from zero, RTO the odd one, RHB F+1 iff g >= 1/2.
Wide RoundFloorSplit(const FloorSplit& x, NumericRoundingMode mode) {
  const Fraction g = x.fraction;
  if (g == Fraction::Zero) return x.floor;
  const bool odd = (x.floor.low & 1) != 0;
  const bool negative = x.floor.value < 0;
  bool up = false;
  switch (mode) {
    case NumericRoundingMode::RNE:
      up = g == Fraction::Above || (g == Fraction::Half && odd);
      break;
    case NumericRoundingMode::RTM:
      up = false;
      break;
    case NumericRoundingMode::RTP:
      up = true;
      break;
    case NumericRoundingMode::RTZ:
      up = negative;
      break;
    case NumericRoundingMode::RNA:
      up = g == Fraction::Above || (g == Fraction::Half && !negative);
      break;
    case NumericRoundingMode::RTO:
      up = !odd;
      break;
    case NumericRoundingMode::RHB:
      up = g != Fraction::Below;
      break;
  }
  return up ? Add(x.floor, 1) : x.floor;
}

/// The range of an integer type as exact 128-bit integers, read exactly as the seed reads it:
/// ReferenceIntegerValue(TileIntegerMinimum(T), T) and ReferenceIntegerValue(TileIntegerMaximum(T),
/// T). A non-integer type throws std::invalid_argument from TileIntegerMinimum, as in the seed.
struct IntegerRange {
  I128 minimum;
  I128 maximum;
};

IntegerRange RangeOf(TileDataType type) {
  const Word minimum = TileIntegerMinimum(type);
  const Word maximum = TileIntegerMaximum(type);
  if (TileDataTypeIsSigned(type)) {
    return {static_cast<std::int64_t>(minimum), static_cast<std::int64_t>(maximum)};
  }
  return {static_cast<I128>(minimum), static_cast<I128>(maximum)};
}

/// ReferenceMatrixIntegerEncoding (seed 000 lines 108-131) from the already rounded integer
/// (line 112) and whether it equals the value (line 125).
Encoded EncodeRoundedInteger(const Wide& rounded, bool exact, TileDataType destination_type,
                             bool saturating) {
  const IntegerRange range = RangeOf(destination_type);                        // lines 113-116
  const bool overflow = rounded.value < range.minimum || rounded.value > range.maximum;  // 117
  std::uint64_t selected = rounded.low;                                        // line 118
  if (saturating && overflow) {                                                // lines 119-123
    selected = static_cast<std::uint64_t>(static_cast<U128>(
        rounded.value < range.minimum ? range.minimum : range.maximum));
  }
  const Status flags = overflow ? 0x14 : exact ? 0 : 0x10;                     // lines 124-126
  return {NormalizeTileInteger(selected, destination_type), flags};           // lines 127-130
}

/// Bits of the significand and exponent of the leading bit of a non-zero Dyadic: 2^E <= |x| <
/// 2^(E+1). The seeds' normalisation loops (seed 003 lines 50-61, seed 000 lines 162-173) leave
/// `exponent` = min(max(E, -149), 128) and `normalized` = |x| / 2^exponent.
std::int64_t LeadingExponent(const Dyadic& x, int bits) {
  return static_cast<std::int64_t>(x.exponent) + bits - 1;
}

// ---------------------------------------------------------------------------------------------
// FP8 candidate tables (seed 000 lines 343-452).
// ---------------------------------------------------------------------------------------------

/// The finite candidates of one FP8 format, as the seed's scan sees them: every code 0..255
/// whose class is not NaN, Inf or InvalidEncoding (lines 369-373), with the value the format
/// table gives it (TileNumericFiniteDecomposition; the tests check it equals
/// ReferenceFP8FiniteValue on every such code) in units of 2^-scale_bits, sorted by value.
/// Equal values keep only the first (lowest) code: the table build checks that the only equal
/// values are E4M3's 0x00 and 0x80 (+0 and -0), and a later equal even code can never replace
/// an earlier one in the scan (see FastFP8Encoding).
struct FP8Table {
  int scale_bits = 0;
  std::int64_t maximum = 0;         ///< 448 or 32768 (line 352-353), in units
  int maximum_exponent = 0;         ///< floor(log2(maximum))
  std::int64_t minimum_normal = 0;  ///< 2^-6 or 2^-15 (lines 444-445), in units
  std::vector<std::int64_t> value;  ///< ascending, distinct
  std::vector<std::uint8_t> code;   ///< the first code of each value
  std::vector<int> odd_above;       ///< nearest index above with an odd code, or -1
  std::vector<int> odd_below;       ///< nearest index below with an odd code, or -1
};

FP8Table BuildFP8Table(TileDataType type) {
  FP8Table t;
  const bool e4m3 = type == TileDataType::E4M3;
  t.scale_bits = e4m3 ? 9 : 22;
  t.maximum = e4m3 ? std::int64_t{448} << 9 : std::int64_t{32768} << 22;
  t.maximum_exponent = e4m3 ? 8 : 15;
  t.minimum_normal = e4m3 ? std::int64_t{1} << 3 : std::int64_t{1} << 7;
  struct Entry {
    std::int64_t value;
    int code;
  };
  std::vector<Entry> entries;
  for (int code = 0; code <= 255; ++code) {
    const NumericValueClass c = TileNumericValueClass(type, static_cast<Word>(code));
    // The seed's RTO scan (lines 420-423) skips only NaN and Inf, the main scan also
    // InvalidEncoding (line 373); they agree because no E4M3/HiF8 code is InvalidEncoding.
    if (c == NumericValueClass::InvalidEncoding) {
      throw std::logic_error("FP8 table: an InvalidEncoding code");
    }
    if (NumericValueClassIsNaN(c) || NumericValueClassIsInfinity(c)) continue;
    const FiniteDecomposition d = TileNumericFiniteDecomposition(type, static_cast<Word>(code));
    const int shift = d.exponent + t.scale_bits;
    if (!d.available || shift < 0) throw std::logic_error("FP8 table: unexpected decomposition");
    const auto magnitude = static_cast<std::int64_t>(d.significand << shift);
    entries.push_back({d.negative ? -magnitude : magnitude, code});
  }
  std::stable_sort(entries.begin(), entries.end(),
                   [](const Entry& a, const Entry& b) { return a.value < b.value; });
  for (const Entry& e : entries) {
    if (!t.value.empty() && t.value.back() == e.value) {
      if (e.value != 0 || e.code % 2 != 0) {
        throw std::logic_error("FP8 table: equal candidates other than +0/-0");
      }
      continue;  // a later equal candidate (-0 after +0)
    }
    t.value.push_back(e.value);
    t.code.push_back(static_cast<std::uint8_t>(e.code));
  }
  if (t.value.back() != t.maximum || t.value.front() != -t.maximum) {
    throw std::logic_error("FP8 table: largest finite differs from the seed's constant");
  }
  const int n = static_cast<int>(t.value.size());
  t.odd_above.assign(t.value.size(), -1);
  t.odd_below.assign(t.value.size(), -1);
  int next = -1;
  for (int i = n - 1; i >= 0; --i) {
    t.odd_above[static_cast<std::size_t>(i)] = next;
    if (t.code[static_cast<std::size_t>(i)] % 2 != 0) next = i;
  }
  next = -1;
  for (int i = 0; i < n; ++i) {
    t.odd_below[static_cast<std::size_t>(i)] = next;
    if (t.code[static_cast<std::size_t>(i)] % 2 != 0) next = i;
  }
  return t;
}

const FP8Table& TableOf(TileDataType type) {
  static const FP8Table e4m3 = BuildFP8Table(TileDataType::E4M3);
  static const FP8Table hif8 = BuildFP8Table(TileDataType::HiF8);
  return type == TileDataType::E4M3 ? e4m3 : hif8;
}

/// 4 * (I + g) with g encoded 0, 1, 2, 3 for Zero, Below, Half, Above: a strictly increasing
/// code of the real I + g in which a multiple of 2 (4N or 2(N1 + N2) for integers N) compares
/// exactly as the real does (the codes 4I+1 and 4I+3 stand for open intervals holding no even
/// number).
std::int64_t QuarterCode(const Split& s) {
  return static_cast<std::int64_t>(s.integer) * 4 + static_cast<std::int64_t>(s.fraction);
}

}  // namespace

// ---------------------------------------------------------------------------------------------
// Dyadic
// ---------------------------------------------------------------------------------------------

Real ToReal(const Dyadic& d) {
  if (d.significand == 0) return Real(0);
  Integer m = static_cast<std::uint64_t>(d.significand >> 64);
  m <<= 64;
  m += static_cast<std::uint64_t>(d.significand);
  Real r = Real(m) * PowerOfTwo(d.exponent);
  if (d.negative) r = -r;
  return r;
}

Dyadic DyadicFromInteger(std::int64_t value) {
  Dyadic d;
  d.negative = value < 0;
  const auto bits = static_cast<std::uint64_t>(value);
  d.significand = d.negative ? std::uint64_t{0} - bits : bits;
  return d;
}

Dyadic DyadicFromFiniteCode(TileDataType type, Word code) {
  const FiniteDecomposition f = TileNumericFiniteDecomposition(type, code);
  if (!f.available) {
    throw std::domain_error(std::string(Format(type).name) + " code is not finite");
  }
  Dyadic d;
  d.negative = f.negative;
  d.significand = f.significand;
  d.exponent = f.exponent;
  return d;
}

std::optional<Dyadic> DyadicFromReal(const Real& value) {
  if (value == 0) return Dyadic{};
  const Integer n = numerator(value);
  const Integer den = denominator(value);
  const auto den_msb = boost::multiprecision::msb(den);
  if (boost::multiprecision::lsb(den) != den_msb) return std::nullopt;
  Integer magnitude = n < 0 ? Integer(-n) : n;
  const auto zeros = boost::multiprecision::lsb(magnitude);  // non-zero only when den == 1
  magnitude >>= zeros;
  if (boost::multiprecision::msb(magnitude) >= 128) return std::nullopt;
  const Integer mask = (Integer(1) << 64) - 1;
  Dyadic d;
  d.negative = n < 0;
  d.significand = (static_cast<U128>(static_cast<std::uint64_t>(magnitude >> 64)) << 64) |
                  static_cast<std::uint64_t>(magnitude & mask);
  d.exponent = static_cast<int>(zeros) - static_cast<int>(den_msb);
  return d;
}

Dyadic DyadicProduct(const Dyadic& a, const Dyadic& b) {
  if (a.significand == 0 || b.significand == 0) return Dyadic{};
  const int za = TrailingZeros(a.significand);
  const int zb = TrailingZeros(b.significand);
  const U128 ma = a.significand >> za;
  const U128 mb = b.significand >> zb;
  if (BitLength(ma) + BitLength(mb) > 128) {
    throw std::overflow_error("DyadicProduct: significand beyond 128 bits");
  }
  const std::int64_t exponent = static_cast<std::int64_t>(a.exponent) + za + b.exponent + zb;
  if (exponent > (std::int64_t{1} << 30) || exponent < -(std::int64_t{1} << 30)) {
    throw std::overflow_error("DyadicProduct: exponent beyond +/-2^30");
  }
  Dyadic d;
  d.negative = a.negative != b.negative;
  d.significand = ma * mb;
  d.exponent = static_cast<int>(exponent);
  return d;
}

// ---------------------------------------------------------------------------------------------
// Seed 003
// ---------------------------------------------------------------------------------------------

// ReferenceFP32FiniteEncoding, seed 003 lines 42-103. With L = bits of m and E = e + L - 1
// (2^E <= |x| < 2^(E+1)), the loops of lines 50-61 end with exponent = min(max(E, -149), 128).
// Line 64 (exponent > 127) is E > 127. Line 70 (exponent < -126) is E < -126; then line 71's
// scaled = x * 2^149 and line 72 rounds the signed value, so |rounded| is RoundedMagnitude of
// m * 2^(e+149) (< 2^23, an integer part that fits); lines 74-80 follow. Otherwise
// (-126 <= E <= 127) normalized * 2^23 = m * 2^(24-L) and lines 83-86 round the signed value:
// |rounded| is RoundedMagnitude of m * 2^(24-L), in 2^23..2^24; lines 88-102 follow. The status
// test Real(rounded) == scaled is "the fraction is zero".
Encoded FastFP32FiniteEncoding(const Dyadic& value, NumericRoundingMode rounding_mode) {
  const U128 m = value.significand;
  if (m == 0) return {0, 0};  // line 46
  const int bits = BitLength(m);
  const std::int64_t e = LeadingExponent(value, bits);
  const Word sign = value.negative ? 0x80000000 : 0;  // line 63
  if (e > 127) return {sign + 0x7f800000, 0x14};      // lines 64-68
  if (e < -126) {                                     // lines 70-81
    const Split s = SplitAt(m, -(static_cast<std::int64_t>(value.exponent) + 149));
    const U128 magnitude = RoundedMagnitude(value.negative, s, rounding_mode);
    if (magnitude == 0) return {sign, 0x18};
    return {sign + static_cast<Word>(magnitude),
            static_cast<Status>(s.fraction == Fraction::Zero ? 0 : 0x18)};
  }
  const Split s = SplitAt(m, bits - 24);  // lines 83-86
  U128 magnitude = RoundedMagnitude(value.negative, s, rounding_mode);
  std::int64_t encoded_exponent = e + 127;
  if (magnitude == 0x1000000) {  // lines 89-93
    magnitude = 0x800000;
    encoded_exponent = encoded_exponent + 1;
  }
  if (encoded_exponent >= 255) return {sign + 0x7f800000, 0x14};  // lines 94-98
  return {sign + static_cast<Word>(encoded_exponent) * 0x800000 +
              (static_cast<Word>(magnitude) - 0x800000),
          static_cast<Status>(s.fraction == Fraction::Zero ? 0 : 0x10)};  // lines 99-102
}

// TileProfileQuantize, seed 003 lines 105-149: the same assertions in the same order; then
// affine = v * s + zp with v * s an exact Dyadic (24-bit significands) and zp an integer, so
// floor(affine) = floor(v * s) + zp with the same fraction, and FloatingToInteger follows
// (RoundFloorSplit). The status is "fraction non-zero"; Sat clamps, otherwise the low bits wrap.
Encoded FastTileProfileQuantize(Word value, Word scale, Word zero_point,
                                TileDataType source_type, TileDataType destination_type,
                                NumericExecutionControl control) {
  SeedAssert(source_type == TileDataType::FP32, "TileProfileQuantize source_type == FP32");
  SeedAssert(destination_type == TileDataType::S8 || destination_type == TileDataType::U8,
             "TileProfileQuantize destination_type is S8 or U8");
  const NumericValueClass source_class = TileNumericValueClass(source_type, value);
  const NumericValueClass scale_class = TileNumericValueClass(TileDataType::FP32, scale);
  SeedAssert(!NumericValueClassIsNaN(scale_class), "TileProfileQuantize scale is not NaN");
  SeedAssert(!NumericValueClassIsInfinity(scale_class),
             "TileProfileQuantize scale is not infinite");
  SeedAssert(!NumericValueClassIsZero(scale_class), "TileProfileQuantize scale is not zero");
  const IntegerRange range = RangeOf(destination_type);
  if (NumericValueClassIsNaN(source_class)) return {0, 1};  // lines 124-125
  if (NumericValueClassIsInfinity(source_class)) {          // lines 126-133
    const I128 saturated = ((value >> 31) & 1) == 1 ? range.minimum : range.maximum;
    return {NormalizeTileInteger(static_cast<std::uint64_t>(static_cast<U128>(saturated)),
                                 destination_type),
            0x14};
  }
  const Dyadic product = DyadicProduct(DyadicFromFiniteCode(TileDataType::FP32, value),
                                       DyadicFromFiniteCode(TileDataType::FP32, scale));
  const Word zero_bits = NormalizeTileInteger(zero_point, destination_type);
  const I128 zero = TileDataTypeIsSigned(destination_type)
                        ? I128{static_cast<std::int64_t>(zero_bits)}
                        : I128{zero_bits};
  FloorSplit affine = FloorOf(product);  // lines 134-136
  affine.floor = Add(affine.floor, zero);
  const Wide rounded = RoundFloorSplit(affine, control.rounding_mode);  // line 137
  const Status flags = affine.fraction == Fraction::Zero ? 0 : 0x10;    // lines 139-140
  std::uint64_t selected = rounded.low;
  if (control.saturating) {  // lines 141-145
    if (rounded.value < range.minimum) {
      selected = static_cast<std::uint64_t>(static_cast<U128>(range.minimum));
    } else if (rounded.value > range.maximum) {
      selected = static_cast<std::uint64_t>(static_cast<U128>(range.maximum));
    }
  }
  return {NormalizeTileInteger(selected, destination_type), flags};  // lines 146-148
}

// TileProfileDequantize, seed 003 lines 151-172: the same assertions; (v - zp) * scale is an
// exact Dyadic; then FastFP32FiniteEncoding == ReferenceFP32FiniteEncoding.
Encoded FastTileProfileDequantize(Word value, Word scale, Word zero_point,
                                  TileDataType source_type, TileDataType destination_type,
                                  NumericExecutionControl control) {
  SeedAssert(source_type == TileDataType::S8 || source_type == TileDataType::U8,
             "TileProfileDequantize source_type is S8 or U8");
  SeedAssert(destination_type == TileDataType::FP32,
             "TileProfileDequantize destination_type == FP32");
  const NumericValueClass scale_class = TileNumericValueClass(TileDataType::FP32, scale);
  SeedAssert(!NumericValueClassIsNaN(scale_class), "TileProfileDequantize scale is not NaN");
  SeedAssert(!NumericValueClassIsInfinity(scale_class),
             "TileProfileDequantize scale is not infinite");
  SeedAssert(!NumericValueClassIsZero(scale_class), "TileProfileDequantize scale is not zero");
  const auto integer_value = [&](Word w) -> std::int64_t {
    const Word bits = NormalizeTileInteger(w, source_type);
    return static_cast<std::int64_t>(bits);  // S8 sign-extended, U8 zero-extended
  };
  const std::int64_t difference = integer_value(value) - integer_value(zero_point);
  const Dyadic dequantized = DyadicProduct(DyadicFromInteger(difference),
                                           DyadicFromFiniteCode(TileDataType::FP32, scale));
  return FastFP32FiniteEncoding(dequantized, control.rounding_mode);
}

// ---------------------------------------------------------------------------------------------
// Seed 000
// ---------------------------------------------------------------------------------------------

// ReferenceBinary16Encoding, seed 000 lines 152-233. With E as in FastFP32FiniteEncoding (the
// loops of lines 160-173 are those of seed 003): line 184 (exponent > 15 / 127) is E > bias;
// line 193 (exponent < -14 / -126) is E < 1 - bias, and then line 194's scaled is
// m * 2^(e - minimum_subnormal_exponent); otherwise line 210's scaled = normalized *
// fraction_scale = m * 2^(fraction_bits + 1 - L). MatrixRoundMagnitude of scaled is
// RoundedMagnitude (see MagnitudeRoundsUp). Exactness (Real(rounded) == scaled) is "the fraction
// is zero"; rounded < 0 (line 204) cannot happen.
Encoded FastBinary16Encoding(const Dyadic& value, TileDataType destination_type,
                             NumericExecutionControl control) {
  Encoded r;
  FastBinary16EncodingControls(value, destination_type, &control, 1, &r);
  return r;
}

// The derivation above, with the split (line 194 or 210) made once for every control: only
// MatrixRoundMagnitude (RoundedMagnitude) and the Sat choice of the overflow results depend on
// the control.
void FastBinary16EncodingControls(const Dyadic& value, TileDataType destination_type,
                                  const NumericExecutionControl* controls, std::size_t n,
                                  Encoded* out) {
  SeedAssert(destination_type == TileDataType::FP16 || destination_type == TileDataType::BF16,
             "ReferenceBinary16Encoding destination_type is FP16 or BF16");
  const U128 m = value.significand;
  if (m == 0) {  // line 158
    for (std::size_t k = 0; k < n; ++k) out[k] = {0, 0};
    return;
  }
  const bool bf16 = destination_type == TileDataType::BF16;
  const int fraction_bits = bf16 ? 7 : 10;              // lines 175-181
  const U128 fraction_scale = U128{1} << fraction_bits;
  const int bias = bf16 ? 127 : 15;
  const int minimum_subnormal_exponent = bf16 ? -133 : -24;
  const Word sign = value.negative ? 0x8000 : 0;  // line 182
  const auto overflow = [&](std::size_t k) -> Encoded {  // lines 184-191, 220-227
    return {sign + (controls[k].saturating ? (bf16 ? 0x7f7f : 0x7bff) : (bf16 ? 0x7f80 : 0x7c00)),
            0x14};
  };
  const int bits = BitLength(m);
  const std::int64_t e = LeadingExponent(value, bits);
  if (e > bias) {  // lines 184-191
    for (std::size_t k = 0; k < n; ++k) out[k] = overflow(k);
    return;
  }
  if (e < 1 - bias) {  // lines 193-208
    const Split s = SplitAt(
        m, static_cast<std::int64_t>(minimum_subnormal_exponent) - value.exponent);
    const Status flags = s.fraction == Fraction::Zero ? 0 : 0x18;
    for (std::size_t k = 0; k < n; ++k) {
      const U128 rounded = RoundedMagnitude(value.negative, s, controls[k].rounding_mode);
      out[k] = {sign + static_cast<Word>(rounded >= fraction_scale ? fraction_scale : rounded),
                flags};
    }
    return;
  }
  const Split s = SplitAt(m, bits - 1 - fraction_bits);  // line 210
  const Status flags = s.fraction == Fraction::Zero ? 0 : 0x10;
  for (std::size_t k = 0; k < n; ++k) {
    U128 rounded = RoundedMagnitude(value.negative, s, controls[k].rounding_mode);
    std::int64_t encoded_exponent = e + bias;  // line 213
    if (rounded == 2 * fraction_scale) {       // lines 214-219
      rounded = fraction_scale;
      encoded_exponent = encoded_exponent + 1;
    }
    if (encoded_exponent >= 2 * bias + 1) {  // lines 220-227
      out[k] = overflow(k);
      continue;
    }
    const Word encoded = static_cast<Word>(encoded_exponent) * static_cast<Word>(fraction_scale) +
                         static_cast<Word>(rounded - fraction_scale);  // lines 228-229
    out[k] = {sign + encoded, flags};
  }
}

// ReferenceFP8Encoding, seed 000 lines 343-452, on the sorted candidate table (FP8Table).
//
// Zero and overflow (lines 349-362) are tested directly: E > maximum_exponent implies
// |x| >= 2^E > maximum; otherwise T = |x| * 2^scale_bits < 2^38 and its QuarterCode compares
// exactly with 4 * maximum. Else let lo <= x <= hi be the neighbouring candidates (hi the first
// with value >= x; exact when hi == x). The scan of lines 364-410 keeps:
//   RTP: the smallest candidate >= x = hi. RTM: the largest <= x = lo.
//   RTZ/RTO: for x > 0 the largest in [0, x] = lo (0 is a candidate); for x < 0 hi.
//   RNE/RNA/RHB (ReferenceNearestFP8CandidateBetter): the nearer of lo, hi; x == a candidate is
//     distance 0 and wins. On an exact tie the scan meets the lower code A first and keeps it
//     (it is at the minimum distance), then replaces it by the higher code B iff: RNE B even and
//     A odd; RNA |B| > |A|; RHB B > A. (The dropped -0 of E4M3, code 0x80, is even and equal to
//     0x00, which is even and scanned first; it could only replace an odd-coded best at equal
//     distance under RNE, and an odd best at the distance of 0 only arises by beating 0x00,
//     which RNE never lets an odd code do. Directed modes use strict comparisons.)
//   The first of equal candidates is kept throughout (strict comparisons), which the table's
//   dedup keeps.
// RTO (lines 413-442): inexact with an even best: the odd-coded candidate nearest beyond best
// away from zero (the smallest odd-coded value > best for x > 0, the largest < best for x < 0),
// if any. Status (lines 444-451): inexact iff x is not a candidate; UF when |x| < minimum normal.
Encoded FastFP8Encoding(const Dyadic& value, TileDataType destination_type,
                        NumericExecutionControl control) {
  SeedAssert(destination_type == TileDataType::E4M3 || destination_type == TileDataType::HiF8,
             "ReferenceFP8Encoding destination_type is E4M3 or HiF8");
  const U128 m = value.significand;
  if (m == 0) return {0, 0};  // line 349
  const bool negative = value.negative;
  const bool e4m3 = destination_type == TileDataType::E4M3;
  const FP8Table& table = TableOf(destination_type);
  const auto overflowed = [&]() -> Encoded {  // lines 354-362
    const Word result = control.saturating ? (e4m3 ? (negative ? 0xfe : 0x7e)
                                                   : (negative ? 0xee : 0x6e))
                        : e4m3             ? 0x7f
                        : negative         ? 0xef
                                           : 0x6f;
    return {result, 0x14};
  };
  const int bits = BitLength(m);
  if (LeadingExponent(value, bits) > table.maximum_exponent) return overflowed();
  const Split s = SplitAt(m, -(static_cast<std::int64_t>(value.exponent) + table.scale_bits));
  const std::int64_t magnitude = QuarterCode(s);
  if (magnitude > 4 * table.maximum) return overflowed();
  const std::int64_t target = negative ? -magnitude : magnitude;

  const auto& values = table.value;
  const auto it = std::lower_bound(values.begin(), values.end(), target,
                                   [](std::int64_t v, std::int64_t t) { return 4 * v < t; });
  const auto hi = static_cast<std::size_t>(it - values.begin());
  const bool exact = 4 * values[hi] == target;
  std::size_t best = hi;
  if (!exact) {
    const std::size_t lo = hi - 1;
    switch (control.rounding_mode) {
      case NumericRoundingMode::RTP:
        best = hi;
        break;
      case NumericRoundingMode::RTM:
        best = lo;
        break;
      case NumericRoundingMode::RTZ:
      case NumericRoundingMode::RTO:
        best = negative ? hi : lo;
        break;
      case NumericRoundingMode::RNE:
      case NumericRoundingMode::RNA:
      case NumericRoundingMode::RHB: {
        const std::int64_t middle = 2 * (values[lo] + values[hi]);
        if (target < middle) {
          best = lo;
        } else if (target > middle) {
          best = hi;
        } else {
          const bool lo_first = table.code[lo] < table.code[hi];
          const std::size_t a = lo_first ? lo : hi;
          const std::size_t b = lo_first ? hi : lo;
          bool take_b = false;
          if (control.rounding_mode == NumericRoundingMode::RNE) {
            take_b = table.code[b] % 2 == 0 && table.code[a] % 2 != 0;
          } else if (control.rounding_mode == NumericRoundingMode::RNA) {
            const std::int64_t magnitude_a = values[a] < 0 ? -values[a] : values[a];
            const std::int64_t magnitude_b = values[b] < 0 ? -values[b] : values[b];
            take_b = magnitude_b > magnitude_a;
          } else {
            take_b = values[b] > values[a];
          }
          best = take_b ? b : a;
        }
        break;
      }
    }
    if (control.rounding_mode == NumericRoundingMode::RTO && table.code[best] % 2 == 0) {
      const int odd = negative ? table.odd_below[best] : table.odd_above[best];
      if (odd >= 0) best = static_cast<std::size_t>(odd);
    }
  }
  const bool underflow = !exact && magnitude < 4 * table.minimum_normal;
  return {table.code[best], static_cast<Status>(underflow ? 0x18 : !exact ? 0x10 : 0)};
}

// ReferenceMatrixFloatingEncoding, seed 000 lines 454-472, with each branch's fast form.
Encoded FastMatrixFloatingEncoding(const Dyadic& value, TileDataType destination_type,
                                   NumericExecutionControl control) {
  if (destination_type == TileDataType::FP32) {
    const Encoded r = FastFP32FiniteEncoding(value, control.rounding_mode);
    if (control.saturating && (r.status & 4) != 0) {
      return {(r.word & 0x80000000) | 0x7f7fffff, r.status};
    }
    return r;
  }
  if (destination_type == TileDataType::FP16 || destination_type == TileDataType::BF16) {
    return FastBinary16Encoding(value, destination_type, control);
  }
  return FastFP8Encoding(value, destination_type, control);
}

// ReferenceMatrixIntegerEncoding, seed 000 lines 108-131: FloatingToInteger of the Dyadic
// (FloorOf + RoundFloorSplit, exact for any exponent: the rounded integer's low 64 bits and its
// comparison with the range are exact), then EncodeRoundedInteger.
Encoded FastMatrixIntegerEncoding(const Dyadic& value, TileDataType destination_type,
                                  NumericExecutionControl control) {
  const FloorSplit x = FloorOf(value);
  return EncodeRoundedInteger(RoundFloorSplit(x, control.rounding_mode),
                              x.fraction == Fraction::Zero, destination_type,
                              control.saturating);
}

// MatrixRoundAndSaturateSigned, seed 000 lines 68-91.
std::pair<std::int64_t, Status> FastMatrixRoundAndSaturateSigned(
    const Dyadic& value, int width, NumericRoundingMode rounding_mode) {
  SeedAssert(width == 5 || width == 9 || width == 17,
             "MatrixRoundAndSaturateSigned width in {5,9,17}");
  const FloorSplit x = FloorOf(value);
  const Wide rounded = RoundFloorSplit(x, rounding_mode);  // line 73
  const I128 maximum = (I128{1} << (width - 1)) - 1;        // lines 74-79
  const I128 minimum = -maximum - 1;
  const bool overflow = rounded.value < minimum || rounded.value > maximum;  // line 80
  I128 selected = rounded.value;                                             // lines 81-84
  if (selected < minimum) {
    selected = minimum;
  } else if (selected > maximum) {
    selected = maximum;
  }
  const Status flags = overflow ? 0x14 : x.fraction != Fraction::Zero ? 0x10 : 0;  // 85-87
  return {static_cast<std::int64_t>(selected), flags};
}

// MatrixQuantizedAffine, seed 000 lines 133-150. Width 0: floor(value * scale + offset) =
// floor(value * scale) + offset with the same fraction (offset an integer), so FloatingToInteger
// of the sum is RoundFloorSplit of the shifted split; no alignment of the offset to the product's
// exponent is needed, whatever the exponents. Width 5/9/17: the intermediate is an integer, so
// intermediate + offset is exact.
Encoded FastMatrixQuantizedAffine(const Dyadic& value, const Dyadic& scale, std::int64_t offset,
                                  int intermediate_width, TileDataType output_type,
                                  NumericExecutionControl control) {
  SeedAssert(intermediate_width == 0 || intermediate_width == 5 || intermediate_width == 9 ||
                 intermediate_width == 17,
             "MatrixQuantizedAffine intermediate_width in {0,5,9,17}");
  const Dyadic product = DyadicProduct(value, scale);
  if (intermediate_width == 0) {  // lines 139-142
    FloorSplit x = FloorOf(product);
    x.floor = Add(x.floor, offset);
    return EncodeRoundedInteger(RoundFloorSplit(x, control.rounding_mode),
                                x.fraction == Fraction::Zero, output_type, control.saturating);
  }
  const auto [intermediate, intermediate_flags] =  // lines 143-146
      FastMatrixRoundAndSaturateSigned(product, intermediate_width, control.rounding_mode);
  const Encoded final_encoding =  // lines 147-148
      EncodeRoundedInteger(WideFromInteger(I128{intermediate} + offset), true, output_type,
                           control.saturating);
  return {final_encoding.word,
          static_cast<Status>(intermediate_flags | final_encoding.status)};  // line 149
}

}  // namespace ptovec::oracle
