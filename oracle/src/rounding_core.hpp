// The exact rounding core the fast forms share (private to oracle/src): a Dyadic's integer part
// and where its dropped fraction lies against 1/2 (SplitAt), how every rounding mode turns that
// into an integer (MagnitudeRoundsUp, RoundedMagnitude for magnitudes, FloorOf and
// RoundFloorSplit for signed values), wide signed integers that compare exactly with any integer
// type's range (Wide), and the integer encoder the seeds' integer results end in
// (EncodeRoundedInteger). Integers only: every rounding step of a seed function is reduced to
// "integer part and fraction class", which a shift and a mask give exactly.
//
// Everything here is inline: these are the innermost steps of every fast encoder (bulk
// generation calls them billions of times), and fast_matrix_quantization.cpp and
// fast_reference_quantization.cpp both use them.
#pragma once

#include <cstdint>

#include "ptovec/oracle/dyadic.hpp"
#include "ptovec/oracle/formats.hpp"
#include "ptovec/oracle/rounding.hpp"

namespace ptovec::oracle::rounding_core {

/// A 128-bit unsigned integer (a Dyadic's significand).
using U128 = DyadicSignificand;
/// A 128-bit signed integer (a GCC/Clang extension).
__extension__ typedef __int128 I128;

/// Where a fraction g in [0, 1) lies: 0, below 1/2, exactly 1/2, above 1/2. This is all any
/// rounding mode of FloatingToInteger needs to know about the fraction (spec-notes section 2).
enum class Fraction : std::uint8_t { Zero, Below, Half, Above };

/// 1 - g for a non-zero g.
inline Fraction Complement(Fraction g) {
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

inline Split SplitAt(U128 m, std::int64_t shift) {
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
inline bool MagnitudeRoundsUp(bool negative, bool odd, Fraction fraction,
                              NumericRoundingMode mode) {
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
inline U128 RoundedMagnitude(bool negative, const Split& s, NumericRoundingMode mode) {
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

inline constexpr I128 kBeyond = I128{1} << 100;

inline Wide WideFromMagnitude(bool negative, U128 magnitude) {
  const auto low = static_cast<std::uint64_t>(magnitude);
  const I128 value = BitLength(magnitude) > 100 ? kBeyond : static_cast<I128>(magnitude);
  if (negative) return {-value, std::uint64_t{0} - low};
  return {value, low};
}

inline Wide WideFromInteger(I128 n) {
  return {n, static_cast<std::uint64_t>(static_cast<U128>(n))};
}

/// n + k for |k| < 2^64.
inline Wide Add(const Wide& n, I128 k) {
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

inline FloorSplit FloorOf(const Dyadic& x) {
  const U128 m = x.significand;
  if (m == 0) return {{0, 0}, Fraction::Zero};
  if (x.exponent >= 0) {  // an integer m * 2^e, possibly far beyond 128 bits
    const int e = x.exponent;
    const std::uint64_t low = e >= 128 ? 0 : static_cast<std::uint64_t>(m << e);
    const I128 value =
        BitLength(m) + static_cast<std::int64_t>(e) > 100 ? kBeyond : static_cast<I128>(m << e);
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
inline Wide RoundFloorSplit(const FloorSplit& x, NumericRoundingMode mode) {
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

inline IntegerRange RangeOf(TileDataType type) {
  const Word minimum = TileIntegerMinimum(type);
  const Word maximum = TileIntegerMaximum(type);
  if (TileDataTypeIsSigned(type)) {
    return {static_cast<std::int64_t>(minimum), static_cast<std::int64_t>(maximum)};
  }
  return {static_cast<I128>(minimum), static_cast<I128>(maximum)};
}

/// ReferenceMatrixIntegerEncoding (seed 000 lines 108-131) from the already rounded integer
/// (line 112) and whether it equals the value (line 125).
inline Encoded EncodeRoundedInteger(const Wide& rounded, bool exact, TileDataType destination_type,
                                    bool saturating) {
  const IntegerRange range = RangeOf(destination_type);  // lines 113-116
  const bool overflow = rounded.value < range.minimum || rounded.value > range.maximum;  // 117
  std::uint64_t selected = rounded.low;                                                  // line 118
  if (saturating && overflow) {  // lines 119-123
    selected = static_cast<std::uint64_t>(
        static_cast<U128>(rounded.value < range.minimum ? range.minimum : range.maximum));
  }
  const Status flags = overflow ? kStatusOFNX : exact ? Status{0} : kStatusNX;  // lines 124-126
  return {NormalizeTileInteger(selected, destination_type), flags};             // lines 127-130
}

/// E, the exponent of the leading bit of a non-zero Dyadic x whose significand has `bits` bits
/// (BitLength): 2^E <= |x| < 2^(E+1). The seeds' normalisation loops (seed 003 lines 50-61,
/// seed 000 lines 162-173) leave `exponent` = min(max(E, -149), 128) and `normalized` =
/// |x| / 2^exponent.
inline std::int64_t LeadingExponent(const Dyadic& x, int bits) {
  return static_cast<std::int64_t>(x.exponent) + bits - 1;
}

}  // namespace ptovec::oracle::rounding_core
