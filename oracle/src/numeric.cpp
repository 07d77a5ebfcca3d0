#include "ptovec/oracle/numeric.hpp"

#include <algorithm>
#include <cctype>
#include <string>

#include "ptovec/facts.h"
#include "ptovec/oracle/rounding.hpp"

namespace ptovec::oracle {

Integer RoundDown(const Real& x) {
  const Integer n = numerator(x);
  const Integer d = denominator(x);  // always > 0
  Integer q = n / d;                 // truncates toward zero
  if (n < 0 && q * d != n) --q;
  return q;
}

Integer RoundUp(const Real& x) {
  const Integer n = numerator(x);
  const Integer d = denominator(x);
  Integer q = n / d;
  if (n > 0 && q * d != n) ++q;
  return q;
}

Integer RoundTowardsZero(const Real& x) { return numerator(x) / denominator(x); }

Real PowerOfTwo(int exponent) {
  Integer one = 1;
  if (exponent >= 0) return Real(one << exponent);
  return Real(one, one << (-exponent));
}

namespace {
constexpr std::array<std::string_view, PTOVEC_FACTS_MODES> kModeNames = {PTOVEC_FACTS_MODE_NAMES};

std::string JoinedModeNames() {
  std::string out;
  for (const std::string_view name : kModeNames)
    out += (out.empty() ? "" : ", ") + std::string(name);
  return out;
}
}  // namespace

std::string_view RoundingModeName(NumericRoundingMode mode) {
  return kModeNames.at(static_cast<std::size_t>(mode));
}

std::optional<NumericRoundingMode> ParseRoundingMode(std::string_view name) {
  std::string upper(name);
  std::transform(upper.begin(), upper.end(), upper.begin(),
                 [](unsigned char c) { return static_cast<char>(std::toupper(c)); });
  for (std::size_t i = 0; i < kModeNames.size(); ++i) {
    if (upper == kModeNames[i]) return static_cast<NumericRoundingMode>(i);
  }
  return std::nullopt;
}

std::string_view RoundingModeNamesList() {
  static const std::string names = JoinedModeNames();
  return names;
}

// spec-notes section 2, the FloatingToInteger table.
Integer FloatingToInteger(const Real& x, NumericRoundingMode mode) {
  const Integer lower = RoundDown(x);
  const Real fraction = x - Real(lower);
  if (fraction == 0) return lower;
  const Real half(1, 2);
  switch (mode) {
    case NumericRoundingMode::RNE:
      if (fraction < half) return lower;
      if (fraction > half) return lower + 1;
      return (lower % 2 == 0) ? lower : lower + 1;
    case NumericRoundingMode::RTM:
      return lower;
    case NumericRoundingMode::RTP:
      return lower + 1;
    case NumericRoundingMode::RTZ:
      return x < 0 ? lower + 1 : lower;
    case NumericRoundingMode::RNA:
      if (fraction < half) return lower;
      if (fraction > half) return lower + 1;
      return x < 0 ? lower : lower + 1;
    case NumericRoundingMode::RTO:
      return (lower % 2 != 0) ? lower : lower + 1;
    case NumericRoundingMode::RHB:
      return RoundDown(x + half);
  }
  return lower;
}

}  // namespace ptovec::oracle
