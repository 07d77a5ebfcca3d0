// Exhaustive proofs of edition 2026-09's TCVT from every FP16 and BF16 code to the packed FP4
// lanes (E2M1X2, E1M2X2: 14 controls) and to E6M2 (RNE and RNA x Sat), and from every FP16 code
// to E4M3 and to the eight integer types of the common set (14 controls), judged by the
// independent invariants of tcvt_2026_09_properties_support.hpp and an integer rounding written
// here, with the special inputs' answers from the ASL (tcvt-conversion.asl lines 21-53 and
// 73-104, reference-conversion.asl lines 84-140). Label `proofs` (the name says Exhaustive): the
// literal searches over 16, 255 and 256 candidate codes make these the slow ones.
#include <gtest/gtest.h>

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "ptovec/oracle/edition_2026_09.hpp"
#include "ptovec/oracle/formats.hpp"
#include "tcvt_2026_09_properties_support.hpp"
#include "test_support.hpp"

namespace ptovec::oracle {
namespace tcvt_2026_09_exhaustive_test {
namespace {

using namespace tcvt_2026_09_support;  // NOLINT: the test's own helpers

using C = NumericValueClass;
using M = NumericRoundingMode;
using T = TileDataType;

// The answer the ASL gives a non-finite or zero source (tcvt-conversion.asl lines 27-49 for the
// lanes, 78-100 for E6M2), or nullopt for a finite non-zero one (E6M2: positive only).
std::optional<Encoded> SpecialAnswer(C source_class, T dst, bool sat) {
  const bool packed = dst != T::E6M2;
  const Word largest_lane = dst == T::E2M1X2 ? 6 : 7;
  switch (source_class) {
    case C::QuietNaN:
      return Encoded{packed ? Word{0} : Word{0xff}, 0};
    case C::SignalingNaN:
      return Encoded{packed ? Word{0} : Word{0xff}, kStatusNV};
    case C::PositiveInfinity:
      return Encoded{packed ? largest_lane : (sat ? Word{0xfe} : Word{0xff}), kStatusOFNX};
    case C::NegativeInfinity:
      return packed ? Encoded{largest_lane + 8, kStatusOFNX} : Encoded{0xff, kStatusNV};
    case C::PositiveZero:
      return packed ? Encoded{0, 0} : Encoded{0, kStatusUFNX};
    case C::NegativeZero:
      return packed ? Encoded{8, 0} : Encoded{0, kStatusUFNX};
    case C::NegativeSubnormal:
    case C::NegativeNormal:
      if (!packed) return Encoded{0xff, kStatusNV};
      return std::nullopt;
    default:
      return std::nullopt;
  }
}

void CheckEveryCode(T src, T dst) {
  Checker checker(std::string(Format(src).name) + " -> " + std::string(Format(dst).name));
  for (const NumericExecutionControl c : LegalControls(src, dst)) {
    std::vector<std::pair<Real, Real>> monotonic;
    for (Word code = 0; code < 0x10000; ++code) {
      const std::string where = Where(src, code, dst, c);
      const Encoded e = Converted(src, dst, code, c);
      const auto special = SpecialAnswer(TileNumericValueClass(src, code), dst, c.saturating);
      if (special) {
        checker.Expect(e == *special, where + ": the ASL's special answer");
        continue;
      }
      const Real x = TileNumericFiniteValue(src, code);
      const auto r = CheckFiniteResult(x, e, dst, c, checker, where);
      if (r) monotonic.emplace_back(x, *r);
    }
    ExpectMonotonic(std::move(monotonic), checker, Where(src, 0, dst, c));
  }
  EXPECT_EQ(checker.failures(), 0);
  EXPECT_GT(checker.checked(), 65536);
}

TEST(Tcvt2026_09Exhaustive, EveryFP16CodeToE2M1X2) { CheckEveryCode(T::FP16, T::E2M1X2); }
TEST(Tcvt2026_09Exhaustive, EveryBF16CodeToE2M1X2) { CheckEveryCode(T::BF16, T::E2M1X2); }
TEST(Tcvt2026_09Exhaustive, EveryFP16CodeToE1M2X2) { CheckEveryCode(T::FP16, T::E1M2X2); }
TEST(Tcvt2026_09Exhaustive, EveryBF16CodeToE1M2X2) { CheckEveryCode(T::BF16, T::E1M2X2); }
TEST(Tcvt2026_09Exhaustive, EveryFP16CodeToE6M2) { CheckEveryCode(T::FP16, T::E6M2); }
TEST(Tcvt2026_09Exhaustive, EveryBF16CodeToE6M2) { CheckEveryCode(T::BF16, T::E6M2); }

// FP16 to E4M3 (common set, by value: the seeds' ReferenceFP8Encoding), half the controls each.
void CheckEveryFP16CodeToE4M3(bool sat) {
  Checker checker(std::string("fp16 -> e4m3") + (sat ? " sat" : ""));
  for (const M mode : kAllRoundingModes) {
    const NumericExecutionControl c{mode, sat};
    std::vector<std::pair<Real, Real>> monotonic;
    for (Word code = 0; code < 0x10000; ++code) {
      const std::string where = Where(T::FP16, code, T::E4M3, c);
      const Encoded e = Converted(T::FP16, T::E4M3, code, c);
      const C cls = TileNumericValueClass(T::FP16, code);
      const bool negative = (code & 0x8000) != 0;
      if (NumericValueClassIsNaN(cls)) {  // reference-conversion.asl lines 91-103
        checker.Expect(e == Encoded{0x7f, cls == C::SignalingNaN ? kStatusNV : Status{0}}, where);
      } else if (NumericValueClassIsInfinity(cls)) {  // lines 105-122: no E4M3 infinity
        checker.Expect(
            e == Encoded{sat ? (negative ? Word{0xfe} : Word{0x7e}) : Word{0x7f}, kStatusOFNX},
            where);
      } else if (NumericValueClassIsZero(cls)) {  // lines 128-138: the signed zero
        checker.Expect(e == Encoded{negative ? Word{0x80} : Word{0}, 0}, where);
      } else {
        const Real x = TileNumericFiniteValue(T::FP16, code);
        const auto r = CheckFiniteResult(x, e, T::E4M3, c, checker, where);
        if (r) monotonic.emplace_back(x, *r);
      }
    }
    ExpectMonotonic(std::move(monotonic), checker, Where(T::FP16, 0, T::E4M3, c));
  }
  EXPECT_EQ(checker.failures(), 0);
}

TEST(Tcvt2026_09Exhaustive, EveryFP16CodeToE4M3SatOff) { CheckEveryFP16CodeToE4M3(false); }
TEST(Tcvt2026_09Exhaustive, EveryFP16CodeToE4M3SatOn) { CheckEveryFP16CodeToE4M3(true); }

// x = n/d rounded to an integer under `mode`, from the spec-notes section 2 table, written here
// on the numerator and denominator: floor, then the fraction (n - floor * d) / d against 1/2.
Integer RoundedInteger(const Real& x, M mode) {
  const Integer n = numerator(x);
  const Integer d = denominator(x);  // > 0
  Integer floor = n / d;
  if (floor * d > n) floor -= 1;
  const Integer twice_rest = 2 * (n - floor * d);  // 2 * fraction * d, in [0, 2d)
  if (twice_rest == 0) return floor;
  const bool odd = (floor % 2) != 0;
  const bool below_half = twice_rest < d;
  const bool half = twice_rest == d;
  switch (mode) {
    case M::RNE:
      return below_half || (half && !odd) ? floor : floor + 1;
    case M::RTM:
      return floor;
    case M::RTP:
      return floor + 1;
    case M::RTZ:
      return x < 0 ? floor + 1 : floor;
    case M::RNA:
      return below_half || (half && x < 0) ? floor : floor + 1;
    case M::RTO:
      return odd ? floor : floor + 1;
    case M::RHB:
      return below_half ? floor : floor + 1;
  }
  return floor;
}

// FP16 to an integer type of the common set (reference-conversion.asl lines 151-164: the
// specials, else ReferenceMatrixIntegerEncoding): NaN 0 with NV, +/-Inf the range end with NV,
// else the rounded value, wrapped (or clamped with Sat) with OF|NX out of range, NX if inexact.
void CheckEveryFP16CodeToInteger(T dst) {
  const bool is_signed = TileDataTypeIsSigned(dst);
  const unsigned width = Format(dst).width;
  const Integer lo = is_signed ? -(Integer(1) << (width - 1)) : Integer(0);
  const Integer hi = is_signed ? (Integer(1) << (width - 1)) - 1 : (Integer(1) << width) - 1;
  Checker checker("fp16 -> " + std::string(Format(dst).name));
  for (const NumericExecutionControl c : LegalControls(T::FP16, dst)) {
    for (Word code = 0; code < 0x10000; ++code) {
      const std::string where = Where(T::FP16, code, dst, c);
      const Encoded e = Converted(T::FP16, dst, code, c);
      const C cls = TileNumericValueClass(T::FP16, code);
      if (NumericValueClassIsNaN(cls)) {
        checker.Expect(e == Encoded{0, kStatusNV}, where);
        continue;
      }
      if (NumericValueClassIsInfinity(cls)) {
        const Integer end = (code & 0x8000) != 0 ? lo : hi;
        checker.Expect(e == Encoded{NormalizeTileInteger(WordOf(end), dst), kStatusNV}, where);
        continue;
      }
      const Real x = TileNumericFiniteValue(T::FP16, code);
      const Integer rounded = RoundedInteger(x, c.rounding_mode);
      const bool out = rounded < lo || rounded > hi;
      const Integer selected = out && c.saturating ? (rounded < lo ? lo : hi) : rounded;
      const Status status = out ? kStatusOFNX : Real(rounded) == x ? Status{0} : kStatusNX;
      checker.Expect(e == Encoded{NormalizeTileInteger(WordOf(selected), dst), status}, where);
    }
  }
  EXPECT_EQ(checker.failures(), 0);
  EXPECT_EQ(checker.checked(), 14L * 65536);
}

TEST(Tcvt2026_09Exhaustive, EveryFP16CodeToS64AndU64) {
  CheckEveryFP16CodeToInteger(T::S64);
  CheckEveryFP16CodeToInteger(T::U64);
}
TEST(Tcvt2026_09Exhaustive, EveryFP16CodeToS32AndU32) {
  CheckEveryFP16CodeToInteger(T::S32);
  CheckEveryFP16CodeToInteger(T::U32);
}
TEST(Tcvt2026_09Exhaustive, EveryFP16CodeToS16AndU16) {
  CheckEveryFP16CodeToInteger(T::S16);
  CheckEveryFP16CodeToInteger(T::U16);
}
TEST(Tcvt2026_09Exhaustive, EveryFP16CodeToS8AndU8) {
  CheckEveryFP16CodeToInteger(T::S8);
  CheckEveryFP16CodeToInteger(T::U8);
}

}  // namespace
}  // namespace tcvt_2026_09_exhaustive_test
}  // namespace ptovec::oracle
