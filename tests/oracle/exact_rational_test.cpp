// The oracle's Real (number<ExactRational>, exact_rational.hpp) against Boost's cpp_rational:
// known answers, and RapidCheck properties that every operation the oracle uses (construction,
// +, -, *, / and their compound and self-aliased forms, negation, comparisons with reals,
// integers and cpp_ints, numerator, denominator, str) gives exactly cpp_rational's result, on
// dyadic operands (power-of-two denominators, the oracle's common case) and on any others.
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <sstream>
#include <stdexcept>
#include <string>

#include "ptovec/oracle/numeric.hpp"

namespace ptovec::oracle {
namespace exact_rational_test {
namespace {

using boost::multiprecision::cpp_rational;

// The (numerator, denominator) of each, as strings, for exact comparison and readable failures.
std::string Parts(const Real& x) { return numerator(x).str() + " / " + denominator(x).str(); }
std::string Parts(const cpp_rational& x) {
  return boost::multiprecision::numerator(x).str() + " / " +
         boost::multiprecision::denominator(x).str();
}

TEST(ExactRational, KnownAnswers) {
  EXPECT_EQ(Parts(Real(Integer(-6), Integer(-4))), "3 / 2");
  EXPECT_EQ(Parts(Real(Integer(6), Integer(-4))), "-3 / 2");
  EXPECT_EQ(Parts(Real(2, -4)), "-1 / 2");
  EXPECT_EQ(Parts(Real(0, -7)), "0 / 1");
  EXPECT_EQ(Parts(Real(Integer(12), Integer(9))), "4 / 3");
  EXPECT_EQ(Parts(Real(Integer(1) << 200, Integer(1) << 210)), "1 / 1024");
  EXPECT_EQ(Real(3, 4).str(), "3/4");
  EXPECT_EQ(Real(-5).str(), "-5");
  EXPECT_EQ(Real(0).str(), "0");
  EXPECT_EQ(Real("12/8").str(), "3/2");
  std::ostringstream out;
  out << Real(-7, 3);
  EXPECT_EQ(out.str(), "-7/3");

  EXPECT_EQ(Real(1, 2) + Real(1, 3), Real(5, 6));
  EXPECT_EQ(Real(1, 2) - Real(3, 4), Real(-1, 4));
  EXPECT_EQ(Real(3, 4) * Real(2, 3), Real(1, 2));
  EXPECT_EQ(Real(3, 4) / Real(-3, 8), Real(-2));
  EXPECT_EQ(Real(5, 8) + Real(3, 8), Real(1));
  EXPECT_EQ(Parts(Real(5, 8) + Real(3, 8)), "1 / 1");
  EXPECT_EQ(Parts(Real(1, 3) * 3), "1 / 1");
  EXPECT_TRUE(Real(1, 3) < Real(1, 2));
  EXPECT_TRUE(Real(3, 8) < Real(5, 8));
  EXPECT_TRUE(Real(-3, 8) > Real(-5, 8));
  EXPECT_TRUE(Real(5, 7) > Real(3, 7));
  EXPECT_TRUE(Real(-1, 3) > Real(-1, 2));
  EXPECT_TRUE(Real(7, 2) > 3);
  EXPECT_TRUE(Real(7, 2) < 4);
  EXPECT_TRUE(Real(-7, 2) < -3);
  EXPECT_TRUE(Real(6, 2) == 3);
  EXPECT_TRUE(Real(1, 3) != Real(1, 2));
  EXPECT_TRUE(Real(1, 1024) > Real(0));
  EXPECT_TRUE(Real(Integer(1), Integer(1) << 149) < Real(Integer(1), Integer(1) << 148));

  Real x(3, 8);
  x += x;
  EXPECT_EQ(x, Real(3, 4));
  x *= x;
  EXPECT_EQ(x, Real(9, 16));
  Real& alias_x = x;  // the same object, through a reference (no -Wself-assign)
  x -= alias_x;
  EXPECT_EQ(Parts(x), "0 / 1");
  Real y(5, 7);
  Real& alias_y = y;
  y /= alias_y;
  EXPECT_EQ(Parts(y), "1 / 1");
  EXPECT_THROW(Real(1) / Real(0), std::overflow_error);
  EXPECT_THROW(Real(Integer(1), Integer(0)), std::overflow_error);
}

// ---------------------------------------------------------------------------------------------
// Properties against cpp_rational.

// A random integer of up to `bits` bits, either sign.
Integer DrawInteger(int max_bits) {
  const int bits = *rc::gen::inRange(0, max_bits + 1);
  Integer n = 0;
  for (int i = 0; i < bits; i += 32) {
    n <<= 32;
    n += *rc::gen::arbitrary<std::uint32_t>();
  }
  if (bits > 0) n &= (Integer(1) << bits) - 1;
  if (*rc::gen::arbitrary<bool>()) n = -n;
  return n;
}

// A positive denominator: a power of two (half the time), a small odd multiple of one, or any.
Integer DrawDenominator() {
  switch (*rc::gen::inRange(0, 4)) {
    case 0:
    case 1:
      return Integer(1) << *rc::gen::inRange(0, 320);
    case 2:
      return Integer(*rc::gen::element(3, 5, 7, 9, 3 * 1024, 6)) << *rc::gen::inRange(0, 40);
    default: {
      Integer d = DrawInteger(200);
      if (d < 0) d = -d;
      return d == 0 ? Integer(1) : d;
    }
  }
}

struct Pair {
  Real real;
  cpp_rational reference;
};

Pair DrawPair() {
  const Integer n = *rc::gen::inRange(0, 8) == 0 ? Integer(0) : DrawInteger(400);
  const Integer d = DrawDenominator();
  return {Real(n, d), cpp_rational(n, d)};
}

// Operand draws per RapidCheck case (100 cases by default).
constexpr int kDrawsPerCase = 40;

void Same(const Real& got, const cpp_rational& want, const std::string& what) {
  if (Parts(got) != Parts(want)) {
    RC_FAIL(what + ": got " + Parts(got) + ", want " + Parts(want));
  }
}

RC_GTEST_PROP(ExactRational, ConstructionMatchesCppRational, ()) {
  for (int draw = 0; draw < kDrawsPerCase; ++draw) {
    const Pair a = DrawPair();
    Same(a.real, a.reference, "construction");
    RC_ASSERT(a.real.str() == a.reference.str());
    Same(-a.real, -a.reference, "negation");
    const long long i = *rc::gen::arbitrary<long long>();
    Same(Real(i), cpp_rational(i), "from long long");
    const Integer big = DrawInteger(300);
    Same(Real(big), cpp_rational(big), "from cpp_int");
  }
}

RC_GTEST_PROP(ExactRational, ArithmeticMatchesCppRational, ()) {
  for (int draw = 0; draw < kDrawsPerCase; ++draw) {
    const Pair a = DrawPair();
    const Pair b = DrawPair();
    Same(a.real + b.real, a.reference + b.reference, "a + b");
    Same(a.real - b.real, a.reference - b.reference, "a - b");
    Same(a.real * b.real, a.reference * b.reference, "a * b");
    if (b.reference != 0) {
      Same(a.real / b.real, a.reference / b.reference, "a / b");
    } else {
      RC_ASSERT_THROWS_AS(a.real / b.real, std::overflow_error);
    }
    Real c = a.real;
    c += b.real;
    Same(c, a.reference + b.reference, "a += b");
    c = a.real;
    c -= b.real;
    Same(c, a.reference - b.reference, "a -= b");
    c = a.real;
    c *= b.real;
    Same(c, a.reference * b.reference, "a *= b");
    // Self-aliased compound assignments (-= and /= through a reference: the same object).
    Real& alias_c = c;
    c = a.real;
    c += c;
    Same(c, a.reference + a.reference, "a += a");
    c = a.real;
    c -= alias_c;
    Same(c, cpp_rational(0), "a -= a");
    c = a.real;
    c *= c;
    Same(c, a.reference * a.reference, "a *= a");
    if (a.reference != 0) {
      c = a.real;
      c /= alias_c;
      Same(c, cpp_rational(1), "a /= a");
    }
    // With integers and cpp_ints on either side.
    const long long i = *rc::gen::inRange<long long>(-1000000, 1000000);
    const Integer big = DrawInteger(150);
    Same(a.real + i, a.reference + i, "a + i");
    Same(i - a.real, i - a.reference, "i - a");
    Same(a.real * i, a.reference * i, "a * i");
    if (i != 0) Same(a.real / i, a.reference / i, "a / i");
    Same(a.real * Real(big), a.reference * cpp_rational(big), "a * big");
    Same(Real(big) - a.real, cpp_rational(big) - a.reference, "big - a");
  }
}

RC_GTEST_PROP(ExactRational, ComparisonsMatchCppRational, ()) {
  for (int draw = 0; draw < kDrawsPerCase; ++draw) {
    const Pair a = DrawPair();
    // b: an independent value, or a near a (equal, or one unit of a's denominator off).
    Pair b = DrawPair();
    switch (*rc::gen::inRange(0, 3)) {
      case 0:
        b = a;
        break;
      case 1: {
        const Integer d = boost::multiprecision::denominator(a.reference);
        // One or two units off: two keeps an odd numerator odd, so the denominators stay equal.
        const Integer n =
            boost::multiprecision::numerator(a.reference) + *rc::gen::element(-2, -1, 1, 2);
        b = {Real(n, d), cpp_rational(n, d)};
        break;
      }
      default:
        break;
    }
    RC_ASSERT((a.real < b.real) == (a.reference < b.reference));
    RC_ASSERT((a.real <= b.real) == (a.reference <= b.reference));
    RC_ASSERT((a.real > b.real) == (a.reference > b.reference));
    RC_ASSERT((a.real >= b.real) == (a.reference >= b.reference));
    RC_ASSERT((a.real == b.real) == (a.reference == b.reference));
    RC_ASSERT((a.real != b.real) == (a.reference != b.reference));
    const long long i =
        *rc::gen::element<long long>(0, 1, -1, 2, -2, 448, 32768, *rc::gen::arbitrary<long long>());
    RC_ASSERT((a.real < i) == (a.reference < i));
    RC_ASSERT((a.real > i) == (a.reference > i));
    RC_ASSERT((a.real == i) == (a.reference == i));
    RC_ASSERT((i < a.real) == (i < a.reference));
    const unsigned long long u = *rc::gen::arbitrary<unsigned long long>();
    RC_ASSERT((a.real < u) == (a.reference < u));
    RC_ASSERT((a.real == u) == (a.reference == u));
    const Integer big = DrawInteger(300);
    RC_ASSERT((a.real < Real(big)) == (a.reference < cpp_rational(big)));
    RC_ASSERT((a.real == Real(big)) == (a.reference == cpp_rational(big)));
  }
}

}  // namespace
}  // namespace exact_rational_test
}  // namespace ptovec::oracle
