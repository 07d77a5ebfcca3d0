// ExactRational: the exact rational backend of the oracle's `Real` (ASL `real`).
//
// A Boost.Multiprecision backend (plugged into boost::multiprecision::number, so `Real` keeps the
// whole number<> interface: operators, mixed arithmetic with integers and cpp_int, comparisons,
// str(), streaming), storing a numerator and a denominator as Boost cpp_int. It is exact in the
// same sense as Boost's cpp_rational: every value is the fraction numerator / denominator in
// lowest terms with a positive denominator, every operation returns the exact result in lowest
// terms, nothing is ever rounded. It differs from cpp_rational (Boost 1.74: boost::rational over
// cpp_int) only in how fast it gets there:
//  * comparisons by cross multiplication (or, for two power-of-two denominators, by one shift),
//    instead of boost::rational's continued-fraction expansion (a chain of big divisions);
//  * power-of-two denominators (every finite value of every format here is such a dyadic
//    rational, and the seeds divide only by powers of two) are tracked by their exponent, and
//    such fractions are brought to lowest terms by stripping common factors of two (a shift)
//    instead of a general gcd; any other denominator takes the general gcd path.
// tests/oracle/exact_rational_test.cpp checks every operation against Boost's cpp_rational on
// random and boundary operands, dyadic and not.
#pragma once

#include <boost/multiprecision/cpp_int.hpp>
#include <concepts>
#include <cstdint>
#include <ios>
#include <string>

namespace ptovec::oracle {

/// The integers inside an ExactRational: a Boost cpp_int with 320 bits stored inline (unbounded:
/// wider values go to the heap), expression templates off.
using ExactRationalInteger = boost::multiprecision::number<
    boost::multiprecision::cpp_int_backend<320, 0, boost::multiprecision::signed_magnitude,
                                           boost::multiprecision::unchecked,
                                           std::allocator<boost::multiprecision::limb_type>>,
    boost::multiprecision::et_off>;

/// A Boost.Multiprecision rational backend: numerator / denominator in lowest terms, denominator
/// positive (0 is 0/1). See the file comment.
class ExactRational {
 public:
  using signed_types = boost::mpl::list<long long>;
  using unsigned_types = boost::mpl::list<unsigned long long>;
  using float_types = boost::mpl::list<>;  // none: the oracle has no floating point

  ExactRational() = default;
  ExactRational(const ExactRational&) = default;
  ExactRational(ExactRational&&) noexcept = default;
  ExactRational& operator=(const ExactRational&) = default;
  ExactRational& operator=(ExactRational&&) noexcept = default;

  /// From an integer. Implicit, so a number<ExactRational> converts from integers and from a
  /// cpp_int as cpp_rational does. The cpp_int form takes exactly Boost's default
  /// cpp_int_backend (no conversion chain through it).
  ExactRational(long long value) { *this = value; }           // NOLINT
  ExactRational(unsigned long long value) { *this = value; }  // NOLINT
  template <class Backend>
  requires std::same_as<Backend, boost::multiprecision::cpp_int_backend<>> ExactRational(
      const Backend& integer) {  // NOLINT
    *this = integer;
  }

  ExactRational& operator=(long long value);
  ExactRational& operator=(unsigned long long value);
  /// "n" or "n/d" (decimal or 0x hex), as cpp_rational reads them.
  ExactRational& operator=(const char* text);
  ExactRational& operator=(const boost::multiprecision::cpp_int_backend<>& integer);

  void swap(ExactRational& other) noexcept;
  /// "n" when the denominator is 1, else "n/d" (cpp_rational's format).
  std::string str(std::streamsize digits, std::ios_base::fmtflags flags) const;
  void negate();
  /// -1, 0 or 1 as *this <, == or > other.
  int compare(const ExactRational& other) const;

  const ExactRationalInteger& numerator() const { return numerator_; }
  const ExactRationalInteger& denominator() const { return denominator_; }
  bool IsZero() const { return numerator_.is_zero(); }
  int Sign() const { return numerator_.sign(); }

  /// Sets numerator / denominator (any integers, denominator non-zero) in lowest terms.
  void Assign(ExactRationalInteger numerator, ExactRationalInteger denominator);

  void Add(const ExactRational& other);
  void Subtract(const ExactRational& other);
  void Multiply(const ExactRational& other);
  /// Throws std::overflow_error("Divide by zero.") when other is 0, as cpp_rational does.
  void Divide(const ExactRational& other);

 private:
  // Adds (sign 1) or subtracts (sign -1) other.
  void AddSigned(const ExactRational& other, int sign);
  // Brings numerator_ / denominator_ to lowest terms, sets denominator_log2_.
  void Normalize();
  // For a power-of-two denominator (denominator_log2_ set): strips the common factors of two.
  void NormalizeDyadic();

  ExactRationalInteger numerator_ = 0;
  ExactRationalInteger denominator_ = 1;
  int denominator_log2_ = 0;  ///< k when denominator_ == 2^k, else -1
};

inline void eval_add(ExactRational& result, const ExactRational& other) { result.Add(other); }
inline void eval_subtract(ExactRational& result, const ExactRational& other) {
  result.Subtract(other);
}
inline void eval_multiply(ExactRational& result, const ExactRational& other) {
  result.Multiply(other);
}
inline void eval_divide(ExactRational& result, const ExactRational& other) { result.Divide(other); }
inline bool eval_is_zero(const ExactRational& value) { return value.IsZero(); }
inline int eval_get_sign(const ExactRational& value) { return value.Sign(); }

/// Real(n, d) for two cpp_ints: n / d in lowest terms (d non-zero).
void assign_components(ExactRational& result, const boost::multiprecision::cpp_int_backend<>& n,
                       const boost::multiprecision::cpp_int_backend<>& d);
/// Real(n, d) for two integers: n / d in lowest terms (d non-zero).
void assign_components(ExactRational& result, long long n, long long d);

/// Conversion to a built-in integer (truncation toward zero, as cpp_rational).
void eval_convert_to(long long* result, const ExactRational& value);
void eval_convert_to(unsigned long long* result, const ExactRational& value);

std::size_t hash_value(const ExactRational& value);

}  // namespace ptovec::oracle

namespace boost::multiprecision {

template <>
struct number_category<ptovec::oracle::ExactRational> : public mpl::int_<number_kind_rational> {};

template <>
struct expression_template_default<ptovec::oracle::ExactRational> {
  static const expression_template_option value = et_off;
};

template <expression_template_option ET>
struct component_type<number<ptovec::oracle::ExactRational, ET>> {
  using type = cpp_int;
};

// numerator() and denominator() live beside Boost's own (for cpp_rational), so that both the
// unqualified and the boost::multiprecision:: qualified calls find them.

/// The numerator (lowest terms, sign of the value) of a number<ExactRational>, as a cpp_int.
template <expression_template_option ET>
cpp_int numerator(const number<ptovec::oracle::ExactRational, ET>& x) {
  cpp_int result;
  result.backend() = x.backend().numerator().backend();
  return result;
}

/// The denominator (lowest terms, positive) of a number<ExactRational>, as a cpp_int.
template <expression_template_option ET>
cpp_int denominator(const number<ptovec::oracle::ExactRational, ET>& x) {
  cpp_int result;
  result.backend() = x.backend().denominator().backend();
  return result;
}

}  // namespace boost::multiprecision
