// Dyadic: the exact values the fast forms compute with, (-1)^negative * m * 2^e with a 128-bit
// significand m. Every finite code of every floating format ptovec models, every integer up to
// 128 bits and every product of two of them is one. Integers only: no float or double.
#pragma once

#include <cstdint>
#include <optional>

#include "ptovec/oracle/formats.hpp"

namespace ptovec::oracle {

/// The significand type of a Dyadic: an unsigned 128-bit integer (a GCC/Clang extension).
__extension__ typedef unsigned __int128 DyadicSignificand;

/// The number of significant bits of m (0 for 0): the bit width of a 128-bit word.
inline int BitLength(DyadicSignificand m) {
  const auto high = static_cast<std::uint64_t>(m >> 64);
  if (high != 0) return 128 - __builtin_clzll(high);
  const auto low = static_cast<std::uint64_t>(m);
  return low == 0 ? 0 : 64 - __builtin_clzll(low);
}

/// An exact dyadic rational: (-1)^negative * significand * 2^exponent. Every finite code of every
/// floating format ptovec models, every integer up to 128 bits and every product of two of them
/// is a Dyadic. A zero significand is the value 0 whatever `negative` and `exponent` say.
struct Dyadic {
  bool negative = false;
  DyadicSignificand significand = 0;
  int exponent = 0;
};

/// E with 2^E <= |d| < 2^(E+1) (floor(log2 |d|)), for a non-zero d.
inline int DyadicLeadingExponent(const Dyadic& d) {
  return d.exponent + BitLength(d.significand) - 1;
}

/// The sign of |a| - |b|: -1, 0 or 1, exactly (zeros of either sign compare equal).
int DyadicCompareMagnitude(const Dyadic& a, const Dyadic& b);

/// The sign of a - b: -1, 0 or 1, exactly (zeros of either sign compare equal).
int DyadicCompare(const Dyadic& a, const Dyadic& b);

/// The exponent of the lowest set bit of a non-zero d: d.exponent plus the significand's trailing
/// zero bits (-1 for an integer + 1/2, >= 0 for an integer).
int DyadicLowExponent(const Dyadic& d);

/// d with the significand's trailing zero bits moved into the exponent (the odd significand); a
/// zero gives Dyadic{} (+0, exponent 0).
Dyadic DyadicNormalized(Dyadic d);

/// 2^exponent.
inline Dyadic DyadicPowerOfTwo(int exponent) { return {false, 1, exponent}; }

/// The exact value of `d` as an ASL real (for tests and for callers of the literal functions).
Real ToReal(const Dyadic& d);

/// The Dyadic of a signed 64-bit integer.
Dyadic DyadicFromInteger(std::int64_t value);

/// The Dyadic of a finite code of floating type `type` (FP32, FP16, BF16, FP19, E4M3, HiF8, E8M0;
/// the low Format(type).width bits of `code`), from TileNumericFiniteDecomposition. A -0 code
/// gives 0. Throws std::domain_error for Inf, NaN or an integer type.
Dyadic DyadicFromFiniteCode(TileDataType type, Word code);

/// The Dyadic of an exact real, when it is one: the denominator a power of two and the odd part
/// of the numerator at most 128 bits. nullopt otherwise.
std::optional<Dyadic> DyadicFromReal(const Real& value);

/// The exact product a * b. Trailing zero bits of the significands are moved into the exponent
/// first; throws std::overflow_error if the product's significand still needs more than 128
/// bits (never for two significands of at most 64 bits each) or its exponent leaves +/-2^30.
Dyadic DyadicProduct(const Dyadic& a, const Dyadic& b);

/// The exact midpoint of two magnitudes, (|a| + |b|) / 2, normalized (positive, or 0). Throws
/// std::overflow_error when the two, aligned at the lower of their low exponents, need more
/// than 127 bits (their leading bits more than about 2^100 apart; never for neighbouring edges
/// of one format).
Dyadic DyadicMagnitudeMidpoint(const Dyadic& a, const Dyadic& b);

}  // namespace ptovec::oracle
