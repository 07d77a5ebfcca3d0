// ExactRational: exact rational arithmetic on cpp_int numerators and denominators (see the header).
#include "ptovec/oracle/exact_rational.hpp"

#include <algorithm>
#include <bit>
#include <cstring>
#include <stdexcept>
#include <utility>

namespace ptovec::oracle {

namespace {

using boost::multiprecision::limb_type;

// The index of the lowest set bit of |x| (x != 0), read from the limbs (Boost's lsb() refuses
// negative values; the magnitude's bits are what we want).
unsigned LowestSetBit(const ExactRationalInteger& x) {
  const auto& backend = x.backend();
  const limb_type* limbs = backend.limbs();
  unsigned index = 0;
  while (limbs[index] == 0) ++index;
  return index * static_cast<unsigned>(sizeof(limb_type) * 8) +
         static_cast<unsigned>(std::countr_zero(limbs[index]));
}

// x >> shift for an x whose low `shift` bits are zero (exact for either sign): the magnitude is
// shifted (Boost's >> on a negative value floors through an increment and a decrement).
void ShiftOutZeros(ExactRationalInteger& x, unsigned shift) {
  const bool negative = x.sign() < 0;
  if (negative) x.backend().negate();
  x >>= shift;
  if (negative) x.backend().negate();
}

// k when x == 2^k (x > 0), else -1.
int PowerOfTwoExponent(const ExactRationalInteger& x) {
  const unsigned low = boost::multiprecision::lsb(x);
  return low == boost::multiprecision::msb(x) ? static_cast<int>(low) : -1;
}

int CompareIntegers(const ExactRationalInteger& a, const ExactRationalInteger& b) {
  const int c = a.compare(b);
  return c < 0 ? -1 : c > 0 ? 1 : 0;
}

}  // namespace

ExactRational& ExactRational::operator=(long long value) {
  numerator_ = value;
  denominator_ = 1;
  denominator_log2_ = 0;
  return *this;
}

ExactRational& ExactRational::operator=(unsigned long long value) {
  numerator_ = value;
  denominator_ = 1;
  denominator_log2_ = 0;
  return *this;
}

ExactRational& ExactRational::operator=(const boost::multiprecision::cpp_int_backend<>& integer) {
  numerator_.backend() = integer;
  denominator_ = 1;
  denominator_log2_ = 0;
  return *this;
}

ExactRational& ExactRational::operator=(const char* text) {
  const char* slash = std::strchr(text, '/');
  if (slash == nullptr) {
    Assign(ExactRationalInteger(text), ExactRationalInteger(1));
  } else {
    Assign(ExactRationalInteger(std::string(text, slash)), ExactRationalInteger(slash + 1));
  }
  return *this;
}

void ExactRational::swap(ExactRational& other) noexcept {
  numerator_.swap(other.numerator_);
  denominator_.swap(other.denominator_);
  std::swap(denominator_log2_, other.denominator_log2_);
}

std::string ExactRational::str(std::streamsize digits, std::ios_base::fmtflags flags) const {
  std::string out = numerator_.str(digits, flags);
  if (denominator_log2_ != 0) {
    out += '/';
    out += denominator_.str(digits, flags);
  }
  return out;
}

void ExactRational::negate() { numerator_.backend().negate(); }

int ExactRational::compare(const ExactRational& other) const {
  const int sign = Sign();
  const int other_sign = other.Sign();
  if (sign != other_sign) return sign < other_sign ? -1 : 1;
  if (sign == 0) return 0;
  const int a = denominator_log2_;
  const int b = other.denominator_log2_;
  if (a == b && a >= 0) return CompareIntegers(numerator_, other.numerator_);
  if (a >= 0 && b >= 0) {  // n1 / 2^a vs n2 / 2^b
    if (a > b) {
      return CompareIntegers(
          numerator_, ExactRationalInteger(other.numerator_ << static_cast<unsigned>(a - b)));
    }
    return CompareIntegers(ExactRationalInteger(numerator_ << static_cast<unsigned>(b - a)),
                           other.numerator_);
  }
  return CompareIntegers(ExactRationalInteger(numerator_ * other.denominator_),
                         ExactRationalInteger(other.numerator_ * denominator_));
}

void ExactRational::Assign(ExactRationalInteger numerator, ExactRationalInteger denominator) {
  if (denominator.is_zero()) throw std::overflow_error("Divide by zero.");
  numerator_ = std::move(numerator);
  denominator_ = std::move(denominator);
  Normalize();
}

void ExactRational::Normalize() {
  if (denominator_.sign() < 0) {
    numerator_.backend().negate();
    denominator_.backend().negate();
  }
  if (numerator_.is_zero()) {
    denominator_ = 1;
    denominator_log2_ = 0;
    return;
  }
  denominator_log2_ = PowerOfTwoExponent(denominator_);
  if (denominator_log2_ >= 0) {
    NormalizeDyadic();
    return;
  }
  ExactRationalInteger magnitude = numerator_;
  if (magnitude.sign() < 0) magnitude.backend().negate();
  const ExactRationalInteger divisor = boost::multiprecision::gcd(magnitude, denominator_);
  if (divisor != 1) {
    numerator_ /= divisor;  // exact
    denominator_ /= divisor;
  }
  denominator_log2_ = PowerOfTwoExponent(denominator_);
}

void ExactRational::NormalizeDyadic() {
  if (denominator_log2_ == 0) return;
  if (numerator_.is_zero()) {
    denominator_ = 1;
    denominator_log2_ = 0;
    return;
  }
  const unsigned shift =
      std::min(LowestSetBit(numerator_), static_cast<unsigned>(denominator_log2_));
  if (shift == 0) return;
  ShiftOutZeros(numerator_, shift);
  denominator_ >>= shift;
  denominator_log2_ -= static_cast<int>(shift);
}

void ExactRational::AddSigned(const ExactRational& other, int sign) {
  if (&other == this) {
    const ExactRational copy = other;
    AddSigned(copy, sign);
    return;
  }
  const int a = denominator_log2_;
  const int b = other.denominator_log2_;
  if (a >= 0 && b >= 0) {  // n1 / 2^a +/- n2 / 2^b over the larger power of two
    if (a == b) {
      if (sign > 0)
        numerator_ += other.numerator_;
      else
        numerator_ -= other.numerator_;
    } else if (a > b) {
      const ExactRationalInteger aligned = other.numerator_ << static_cast<unsigned>(a - b);
      if (sign > 0)
        numerator_ += aligned;
      else
        numerator_ -= aligned;
    } else {
      numerator_ <<= static_cast<unsigned>(b - a);
      if (sign > 0)
        numerator_ += other.numerator_;
      else
        numerator_ -= other.numerator_;
      denominator_ = other.denominator_;
      denominator_log2_ = b;
    }
    NormalizeDyadic();
    return;
  }
  numerator_ *= other.denominator_;
  const ExactRationalInteger cross = other.numerator_ * denominator_;
  if (sign > 0)
    numerator_ += cross;
  else
    numerator_ -= cross;
  denominator_ *= other.denominator_;
  Normalize();
}

void ExactRational::Add(const ExactRational& other) { AddSigned(other, 1); }

void ExactRational::Subtract(const ExactRational& other) { AddSigned(other, -1); }

void ExactRational::Multiply(const ExactRational& other) {
  if (&other == this) {
    const ExactRational copy = other;
    Multiply(copy);
    return;
  }
  numerator_ *= other.numerator_;
  if (denominator_log2_ >= 0 && other.denominator_log2_ >= 0) {
    denominator_ <<= static_cast<unsigned>(other.denominator_log2_);
    denominator_log2_ += other.denominator_log2_;
    NormalizeDyadic();
    return;
  }
  denominator_ *= other.denominator_;
  Normalize();
}

void ExactRational::Divide(const ExactRational& other) {
  if (other.IsZero()) throw std::overflow_error("Divide by zero.");
  if (&other == this) {
    *this = 1ll;
    return;
  }
  numerator_ *= other.denominator_;
  denominator_ *= other.numerator_;
  Normalize();
}

void assign_components(ExactRational& result, const boost::multiprecision::cpp_int_backend<>& n,
                       const boost::multiprecision::cpp_int_backend<>& d) {
  ExactRationalInteger numerator;
  ExactRationalInteger denominator;
  numerator.backend() = n;
  denominator.backend() = d;
  result.Assign(std::move(numerator), std::move(denominator));
}

void assign_components(ExactRational& result, long long n, long long d) {
  result.Assign(ExactRationalInteger(n), ExactRationalInteger(d));
}

void eval_convert_to(long long* result, const ExactRational& value) {
  const ExactRationalInteger truncated = value.numerator() / value.denominator();
  *result = truncated.convert_to<long long>();
}

void eval_convert_to(unsigned long long* result, const ExactRational& value) {
  const ExactRationalInteger truncated = value.numerator() / value.denominator();
  *result = truncated.convert_to<unsigned long long>();
}

std::size_t hash_value(const ExactRational& value) {
  std::size_t seed = boost::multiprecision::hash_value(value.numerator());
  boost::hash_combine(seed, boost::multiprecision::hash_value(value.denominator()));
  return seed;
}

}  // namespace ptovec::oracle
