// Exact numbers, words and status for the ptovec oracle.
//
// Everything here is exact. ASL `real` is an exact rational (spec-notes section 1), modelled by a
// Boost.Multiprecision number over ptovec's ExactRational backend (exact_rational.hpp: numerator
// and denominator as Boost cpp_int, lowest terms; pure C++: no GMP, no MPFR). ASL `integer` is
// unbounded, modelled by cpp_int. There is no float or double anywhere in oracle/.
#pragma once

#include <boost/multiprecision/cpp_int.hpp>
#include <compare>
#include <cstdint>
#include <stdexcept>
#include <string>

#include "ptovec/facts.h"
#include "ptovec/oracle/exact_rational.hpp"

namespace ptovec::oracle {

/// The 64-bit carrier of every PTO value (PTO_XLEN = 64). A narrower type lives in the low bits.
using Word = std::uint64_t;

/// The 5-bit status of one operation: bit 0 NV, 1 DZ, 2 OF, 3 UF, 4 NX (spec-notes section 3).
using Status = std::uint8_t;

/// ASL `real`: an exact rational number (numerator / denominator in lowest terms).
using Real = boost::multiprecision::number<ExactRational, boost::multiprecision::et_off>;

/// ASL `integer`: an unbounded integer.
using Integer = boost::multiprecision::cpp_int;

// The status bits of ptovec/facts.h (include/), shared with the device ABI, the C API and Python.
inline constexpr Status kStatusNV = PTOVEC_FACTS_STATUS_NV;  ///< 0x01 invalid
inline constexpr Status kStatusDZ = PTOVEC_FACTS_STATUS_DZ;  ///< 0x02 divide by zero
inline constexpr Status kStatusOF = PTOVEC_FACTS_STATUS_OF;  ///< 0x04 overflow
inline constexpr Status kStatusUF = PTOVEC_FACTS_STATUS_UF;  ///< 0x08 underflow
inline constexpr Status kStatusNX = PTOVEC_FACTS_STATUS_NX;  ///< 0x10 inexact
/// Every status bit, bits 4:0 (NV DZ OF UF NX); bits 7:5 of a Status are never set by a seed.
inline constexpr Status kStatusAll = PTOVEC_FACTS_STATUS_ALL;
/// The two combinations the seeds produce besides single flags (spec-notes section 3).
inline constexpr Status kStatusOFNX = kStatusOF | kStatusNX;  ///< 0x14: overflow, inexact
inline constexpr Status kStatusUFNX = kStatusUF | kStatusNX;  ///< 0x18: underflow, inexact

/// A seed function's result `(Word, bits(5))`: the result word in the carrier and its status.
struct Encoded {
  Word word = 0;
  Status status = 0;
  friend bool operator==(const Encoded&, const Encoded&) = default;
};

/// ASL RoundDown: the largest integer <= x (floor).
Integer RoundDown(const Real& x);
/// ASL RoundUp: the smallest integer >= x (ceiling).
Integer RoundUp(const Real& x);
/// ASL RoundTowardsZero: x truncated toward zero.
Integer RoundTowardsZero(const Real& x);

/// 2^exponent as an exact real, for any exponent (helper for tests and fast paths; the seeds'
/// own ReferencePowerOfTwo lives in reference_quantization.hpp).
Real PowerOfTwo(int exponent);

/// The low `width` bits of `word` (width 1..64).
constexpr Word LowBits(Word word, unsigned width) {
  return width >= 64 ? word : (word & ((Word{1} << width) - 1));
}

/// Sign-extends the low `width` bits of `word` to the 64-bit carrier.
constexpr Word SignExtend(Word word, unsigned width) {
  if (width >= 64) return word;
  const Word low = LowBits(word, width);
  const Word sign = Word{1} << (width - 1);
  return (low & sign) ? (low | ~((Word{1} << width) - 1)) : low;
}

/// Thrown when a seed's `assert` fails: the input is outside the seed function's domain.
class SeedAssertionFailure : public std::domain_error {
 public:
  using std::domain_error::domain_error;
};

/// ASL `assert condition`: throws SeedAssertionFailure naming the seed assertion.
inline void SeedAssert(bool condition, const char* what) {
  if (!condition) throw SeedAssertionFailure(std::string("seed assertion failed: ") + what);
}

/// The low 64 bits of an integer in two's complement (ASL `Zeros{64} + i`).
inline Word WordOf(const Integer& i) {
  if (i >= 0) return static_cast<Word>(i & Integer(~Word{0}));
  const Integer magnitude_minus_one = -i - 1;
  return ~static_cast<Word>(magnitude_minus_one & Integer(~Word{0}));
}

}  // namespace ptovec::oracle
