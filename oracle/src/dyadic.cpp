// Dyadic (see dyadic.hpp): conversions to and from ASL reals, codes and integers, the exact
// product and the exact midpoint of two magnitudes.
#include "ptovec/oracle/dyadic.hpp"

#include <stdexcept>
#include <string>

namespace ptovec::oracle {

namespace {

/// Number of trailing zero bits of a non-zero m.
int TrailingZeros(DyadicSignificand m) {
  const auto low = static_cast<std::uint64_t>(m);
  if (low != 0) return __builtin_ctzll(low);
  return 64 + __builtin_ctzll(static_cast<std::uint64_t>(m >> 64));
}

}  // namespace

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
  const auto high = static_cast<std::uint64_t>(magnitude >> 64);
  d.significand =
      (static_cast<DyadicSignificand>(high) << 64) | static_cast<std::uint64_t>(magnitude & mask);
  d.exponent = static_cast<int>(zeros) - static_cast<int>(den_msb);
  return d;
}

int DyadicCompareMagnitude(const Dyadic& a, const Dyadic& b) {
  if (a.significand == 0 || b.significand == 0) {
    return (a.significand != 0) - (b.significand != 0);
  }
  const int la = DyadicLeadingExponent(a);
  const int lb = DyadicLeadingExponent(b);
  if (la != lb) return la < lb ? -1 : 1;
  // Same leading exponent: align on the smaller exponent (the shifted one keeps <= 128 bits).
  DyadicSignificand ma = a.significand;
  DyadicSignificand mb = b.significand;
  if (a.exponent > b.exponent) ma <<= (a.exponent - b.exponent);
  if (b.exponent > a.exponent) mb <<= (b.exponent - a.exponent);
  return ma < mb ? -1 : ma > mb ? 1 : 0;
}

int DyadicCompare(const Dyadic& a, const Dyadic& b) {
  const bool na = a.negative && a.significand != 0;
  const bool nb = b.negative && b.significand != 0;
  if (na != nb) return na ? -1 : 1;
  const int m = DyadicCompareMagnitude(a, b);
  return na ? -m : m;
}

int DyadicLowExponent(const Dyadic& d) { return d.exponent + TrailingZeros(d.significand); }

Dyadic DyadicNormalized(Dyadic d) {
  if (d.significand == 0) return {};
  const int zeros = TrailingZeros(d.significand);
  d.significand >>= zeros;
  d.exponent += zeros;
  return d;
}

Dyadic DyadicProduct(const Dyadic& a, const Dyadic& b) {
  if (a.significand == 0 || b.significand == 0) return Dyadic{};
  const int za = TrailingZeros(a.significand);
  const int zb = TrailingZeros(b.significand);
  const DyadicSignificand ma = a.significand >> za;
  const DyadicSignificand mb = b.significand >> zb;
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

Dyadic DyadicMagnitudeMidpoint(const Dyadic& a, const Dyadic& b) {
  const Dyadic x = DyadicNormalized(a);
  const Dyadic y = DyadicNormalized(b);
  if (x.significand == 0) return DyadicNormalized({false, y.significand, y.exponent - 1});
  if (y.significand == 0) return DyadicNormalized({false, x.significand, x.exponent - 1});
  const int e = x.exponent < y.exponent ? x.exponent : y.exponent;
  const int xs = x.exponent - e;
  const int ys = y.exponent - e;
  if (BitLength(x.significand) + xs > 126 || BitLength(y.significand) + ys > 126) {
    throw std::overflow_error("DyadicMagnitudeMidpoint: the two values are too far apart");
  }
  return DyadicNormalized({false, (x.significand << xs) + (y.significand << ys), e - 1});
}

}  // namespace ptovec::oracle
