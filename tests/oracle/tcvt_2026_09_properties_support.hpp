// Independent invariants of edition 2026-09's TCVT results, shared by the property tests
// (tcvt_2026_09_properties_test.cpp) and the exhaustive proofs (tcvt_2026_09_exhaustive_test.cpp).
//
// Nothing here calls an encoder of the oracle: a result is judged against the destination's
// grid of finite values (every finite code decoded by the format table, whose decoders
// formats_2026_09_test.cpp and formats_test.cpp check against formulas) and against the rules
// the ASL states for the destination (largest finite, overflow words, when UF is raised), which
// are written out below by hand. For a finite source value x and a result that is not an
// overflow: the result is one of the two neighbours of x on the grid, the one the mode selects
// (RTP the upper, RTM the lower, RTZ the one toward zero, RTO the odd code, nearest modes the
// nearer, ties by RNE to the even code, RNA to the larger magnitude, RHB to the larger value);
// NX exactly when it is not x; UF by the destination's rule; a zero result of a non-zero x has
// x's sign (a zero source's sign is the caller's to check).
#pragma once

#include <gtest/gtest.h>

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "ptovec/oracle/edition_2026_09.hpp"
#include "ptovec/oracle/formats.hpp"
#include "test_support.hpp"

namespace ptovec::oracle::tcvt_2026_09_support {

/// Every finite code of a destination with at most 16 bits, sorted by value (+0 and -0 both).
struct Grid {
  TileDataType type;
  std::vector<std::pair<Real, Word>> points;
};

/// The grid of `type`, built once per type.
const Grid& GridOf(TileDataType type);

/// The rules of a destination, from the ASL (see DestinationRulesOf for the sources).
struct DestinationRules {
  Real largest;                ///< the largest finite magnitude
  bool overflow_iff_beyond;    ///< OF exactly when |x| > largest (else: OF implies it)
  Real overflow_certain;       ///< |x| >= this always overflows (binary formats)
  Word overflow_positive;      ///< the +overflow word without Sat
  Word overflow_negative;      ///< the -overflow word without Sat
  Word overflow_positive_sat;  ///< with Sat
  Word overflow_negative_sat;  ///< with Sat
  bool tiny_after_rounding;    ///< UF judged on the result's magnitude (else on |x|)
  Real tiny_below;             ///< UF when inexact and the judged magnitude is below this
  Word negative_zero;          ///< the -0 code (kNoCode: no zero)
};

DestinationRules DestinationRulesOf(TileDataType type);

/// Counts the checks and reports the first failures in full.
class Checker {
 public:
  explicit Checker(std::string what) : what_(std::move(what)) {}
  /// Records a failed expectation `ok` (the first 20 are reported).
  void Expect(bool ok, const std::string& detail);
  long checked() const { return checked_; }
  int failures() const { return failures_; }

 private:
  std::string what_;
  long checked_ = 0;
  int failures_ = 0;
};

/// The result of converting a finite source value `x` to grid destination `dst` under
/// `control`, judged by every invariant above. Returns the result's value when it is not an
/// overflow (for the monotonicity check), nullopt otherwise.
std::optional<Real> CheckFiniteResult(const Real& x, const Encoded& result, TileDataType dst,
                                      NumericExecutionControl control, Checker& checker,
                                      const std::string& where);

/// The legal controls of a pair (HardwareTCVTRoundingModeSupported x Sat).
std::vector<NumericExecutionControl> LegalControls(TileDataType src, TileDataType dst);

/// Convert2026_09's result, failing the test on a refusal.
Encoded Converted(TileDataType src, TileDataType dst, Word value, NumericExecutionControl c);

/// "fp16 0x3c00 -> e6m2 RNE sat".
std::string Where(TileDataType src, Word value, TileDataType dst, NumericExecutionControl c);

/// Checks that the values of `points` (source value, result value), in the order of the source
/// values, never decrease.
void ExpectMonotonic(std::vector<std::pair<Real, Real>> points, Checker& checker,
                     const std::string& where);

}  // namespace ptovec::oracle::tcvt_2026_09_support
