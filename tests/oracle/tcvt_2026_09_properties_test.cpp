// Properties of edition 2026-09's TCVT over whole code spaces, judged by the independent
// invariants of tcvt_2026_09_properties_support.hpp: every code of the 4- and 8-bit sources (E8M0,
// E6M2, RCPE6M2, the E2M1X2 and E1M2X2 lanes) to each legal destination under each legal mode
// and Sat; every FP16 and BF16 code to E8M0 against the 0.58.3 function; the raw-carrier rule of
// the pairs outside the common set; the common set's integer pairs; FP16 to FP32 and FP64 by
// value. The 16-bit sources to the packed FP4 lanes, E6M2 and E4M3 (searches over 16, 255 and 256
// codes per conversion) and to every integer type under every mode are in
// tcvt_2026_09_exhaustive_test.cpp (label proofs); here a stride of them.
#include <gtest/gtest.h>

#include <string>
#include <utility>
#include <variant>
#include <vector>

#include "ptovec/oracle/e8m0_conversion.hpp"
#include "ptovec/oracle/edition_2026_09.hpp"
#include "ptovec/oracle/formats.hpp"
#include "tcvt_2026_09_properties_support.hpp"
#include "test_support.hpp"

namespace ptovec::oracle {
namespace tcvt_2026_09_properties_test {
namespace {

using namespace tcvt_2026_09_support;  // NOLINT: the test's own helpers
using test_support::Hex;

using C = NumericValueClass;
using M = NumericRoundingMode;
using T = TileDataType;

// Every code of a narrow source (for the 4-bit lanes also with junk above bit 3) to `dst` under
// every legal control: NaN codes give the canonical NaN without status, zeros the signed zero,
// the rest the invariants; the results never decrease with the source value.
void CheckNarrowSource(T src, T dst, Word nan_code, Word canonical_nan) {
  Checker checker(std::string(Format(src).name) + " -> " + std::string(Format(dst).name));
  const unsigned width = Format(src).width;
  for (const NumericExecutionControl c : LegalControls(src, dst)) {
    std::vector<std::pair<Real, Real>> monotonic;
    for (Word code = 0; code < (Word{1} << width); ++code) {
      const std::string where = Where(src, code, dst, c);
      const Encoded e = Converted(src, dst, code, c);
      if (width == 4) {  // a lane is value[3:0]: the bits above change nothing
        checker.Expect(Converted(src, dst, code | 0x5a0, c) == e, where + ": junk above the lane");
      }
      if (code == nan_code) {
        checker.Expect(e == Encoded{canonical_nan, 0}, where + ": NaN gives the canonical NaN");
        continue;
      }
      const Real x = TileNumericFiniteValue(src, code);
      if (dst == T::FP32) {  // every value of these sources is an FP32 value: exact
        checker.Expect(TileNumericValueIsFinite(T::FP32, e.word) && e.status == 0 &&
                           TileNumericFiniteValue(T::FP32, e.word) == x,
                       where + ": exact in FP32, " + Hex(e.word) + "/" + Hex(e.status));
        checker.Expect(x != 0 || e.word == (code == 8 ? 0x80000000 : 0), where + ": signed 0");
        continue;
      }
      if (x == 0) {  // a lane's +/-0: the destination's +/-0, no status
        const Word negative_zero = DestinationRulesOf(dst).negative_zero;
        checker.Expect(e == Encoded{code == 8 ? negative_zero : 0, 0}, where + ": signed zero");
        continue;
      }
      const auto r = CheckFiniteResult(x, e, dst, c, checker, where);
      if (r) monotonic.emplace_back(x, *r);
    }
    ExpectMonotonic(std::move(monotonic), checker, Where(src, 0, dst, c));
  }
  EXPECT_EQ(checker.failures(), 0);
  EXPECT_GT(checker.checked(), 100);
}

TEST(Tcvt2026_09Properties, EveryE8M0CodeToFP16BF16AndFP32) {
  CheckNarrowSource(T::E8M0, T::FP16, 0xff, 0x7e00);
  CheckNarrowSource(T::E8M0, T::BF16, 0xff, 0x7fc0);
  CheckNarrowSource(T::E8M0, T::FP32, 0xff, 0x7fc00000);
}

TEST(Tcvt2026_09Properties, EveryE6M2AndRCPE6M2CodeToFP16AndBF16) {
  for (const T src : {T::E6M2, T::RCPE6M2}) {
    CheckNarrowSource(src, T::FP16, 0xff, 0x7e00);
    CheckNarrowSource(src, T::BF16, 0xff, 0x7fc0);
  }
}

TEST(Tcvt2026_09Properties, EveryPackedLaneToFP32FP16AndBF16) {
  for (const T src : {T::E2M1X2, T::E1M2X2}) {
    for (const T dst : {T::FP32, T::FP16, T::BF16}) CheckNarrowSource(src, dst, kNoCode, 0);
  }
}

// A narrow source converted to a destination and back gives the code again (E6M2 <-> FP16 and
// BF16, the lanes <-> FP32, FP16 and BF16), exactly, whenever the destination holds the value.
TEST(Tcvt2026_09Properties, NarrowCodesRoundTripThroughWiderTypes) {
  const std::vector<std::pair<T, T>> pairs = {
      {T::E6M2, T::FP16},   {T::E6M2, T::BF16},   {T::E2M1X2, T::FP32}, {T::E2M1X2, T::FP16},
      {T::E2M1X2, T::BF16}, {T::E1M2X2, T::FP32}, {T::E1M2X2, T::FP16}, {T::E1M2X2, T::BF16}};
  int round_trips = 0;
  for (const auto& [narrow, wide] : pairs) {
    for (const NumericExecutionControl c : LegalControls(narrow, wide)) {
      for (Word code = 0; code < (Word{1} << Format(narrow).width); ++code) {
        if (!TileNumericValueIsFinite(narrow, code)) continue;
        const Encoded there = Converted(narrow, wide, code, c);
        if (there.status != 0) continue;  // not held exactly (E6M2's smallest in FP16)
        const Encoded back = Converted(wide, narrow, there.word, c);
        EXPECT_EQ(back, (Encoded{code, 0})) << Where(narrow, code, wide, c);
        ++round_trips;
      }
    }
  }
  // E6M2 in FP16: (4 + f) * 2^(E-2) is a multiple of FP16's 2^-24 when E >= -22 (any f), and
  // for E = -24 (f = 0: 2^-24) and E = -23 (f = 0, 2: 2^-23, 3 * 2^-24); E <= 15, 0xFF is NaN:
  // 37 * 4 + 3 + 3 = 154 codes. In BF16 all 255. RNE, RNA x Sat: 4 controls. The lanes: 16
  // codes, 14 controls, 6 pairs.
  EXPECT_EQ(round_trips, 4 * (154 + 255) + 14 * 6 * 16);
}

// A stride of the FP16 and BF16 codes (every 61st, both signs, with the specials) to the packed
// lanes and E6M2; the exhaustive proofs run every code.
TEST(Tcvt2026_09Properties, StridedFP16AndBF16CodesToPackedLanesAndE6M2) {
  for (const T src : {T::FP16, T::BF16}) {
    for (const T dst : {T::E2M1X2, T::E1M2X2, T::E6M2}) {
      Checker checker(Where(src, 0, dst, {}));
      for (const NumericExecutionControl c : LegalControls(src, dst)) {
        std::vector<std::pair<Real, Real>> monotonic;
        for (Word code = 0; code < 0x10000; code += 61) {
          const Encoded e = Converted(src, dst, code, c);
          if (!TileNumericValueIsFinite(src, code)) continue;
          const Real x = TileNumericFiniteValue(src, code);
          if (dst == T::E6M2 && x <= 0) continue;  // the specials: Tcvt2026_09KnownAnswers
          const auto r = CheckFiniteResult(x, e, dst, c, checker, Where(src, code, dst, c));
          if (r) monotonic.emplace_back(x, *r);
        }
        ExpectMonotonic(std::move(monotonic), checker, Where(src, 0, dst, c));
      }
      EXPECT_EQ(checker.failures(), 0);
    }
  }
}

// TCVT to E8M0 routes to ReferenceFloatToE8M0, whose 2026-09 text is the seeds' word for word:
// Convert2026_09 equals the 0.58.3 function on every FP16 and BF16 code, mode and Sat.
TEST(Tcvt2026_09Properties, ToE8M0EqualsEdition0583OnEveryFP16AndBF16Code) {
  long compared = 0;
  for (const T src : {T::FP16, T::BF16}) {
    for (Word code = 0; code < 0x10000; ++code) {
      for (const M mode : kAllRoundingModes) {
        for (const bool sat : {false, true}) {
          const NumericExecutionControl c{mode, sat};
          ASSERT_EQ(Converted(src, T::E8M0, code, c), ReferenceFloatToE8M0(code, src, c))
              << Where(src, code, T::E8M0, c);
          ++compared;
        }
      }
    }
  }
  EXPECT_EQ(compared, 2L * 65536 * 14);
}

// FP32 words at every exponent (fractions 0, 1, half, all ones; both signs) to the packed lanes
// (invariants) and to E8M0 (the 0.58.3 function).
TEST(Tcvt2026_09Properties, FP32WordsAtEveryExponentToPackedLanesAndE8M0) {
  for (const T dst : {T::E2M1X2, T::E1M2X2}) {
    Checker checker(Where(T::FP32, 0, dst, {}));
    for (const NumericExecutionControl c : LegalControls(T::FP32, dst)) {
      for (Word exponent = 0; exponent < 255; ++exponent) {
        for (const Word fraction : {Word{0}, Word{1}, Word{0x400000}, Word{0x7fffff}}) {
          for (const Word sign : {Word{0}, Word{0x80000000}}) {
            const Word w = sign | (exponent << 23) | fraction;
            const Real x = TileNumericFiniteValue(T::FP32, w);
            const Encoded e = Converted(T::FP32, dst, w, c);
            if (x == 0) {
              checker.Expect(e == Encoded{sign != 0 ? Word{8} : Word{0}, 0},
                             Where(T::FP32, w, dst, c));
              continue;
            }
            CheckFiniteResult(x, e, dst, c, checker, Where(T::FP32, w, dst, c));
            for (const M mode : kAllRoundingModes) {
              const NumericExecutionControl e8{mode, c.saturating};
              checker.Expect(
                  Converted(T::FP32, T::E8M0, w, e8) == ReferenceFloatToE8M0(w, T::FP32, e8),
                  Where(T::FP32, w, T::E8M0, e8) + ": the 0.58.3 function's answer");
            }
          }
        }
      }
    }
    EXPECT_EQ(checker.failures(), 0);
  }
}

// The pairs outside the common set and TCVT's own routes keep the raw word (TileProfileConvert,
// formats.asl lines 122-127): every FP16 and BF16 code, status 0, to the legal destinations that
// are neither in the 12-type set with the source nor E8M0, E6M2 or a packed lane. BF16 is not in
// the 12-type set at all: every such BF16 pair is raw.
TEST(Tcvt2026_09Properties, EveryFP16AndBF16CodeKeepsItsRawWordOutsideTheCommonSet) {
  const std::vector<T> fp16_raw = {T::BF16, T::HiF8, T::TF32, T::HF32, T::E5M2,
                                   T::E3M2, T::E2M3, T::S4X2, T::U4X2};
  const std::vector<T> bf16_raw = {T::FP64, T::FP32, T::TF32, T::HF32, T::FP16, T::HiF8, T::E4M3,
                                   T::E5M2, T::E3M2, T::E2M3, T::S64,  T::S32,  T::S16,  T::S8,
                                   T::S4X2, T::U64,  T::U32,  T::U16,  T::U8,   T::U4X2};
  long checked = 0;
  for (const auto& [src, dsts] :
       {std::make_pair(T::FP16, fp16_raw), std::make_pair(T::BF16, bf16_raw)}) {
    for (const T dst : dsts) {
      for (const NumericExecutionControl c :
           {NumericExecutionControl{M::RTZ, false}, NumericExecutionControl{M::RNA, true}}) {
        for (Word code = 0; code < 0x10000; ++code) {
          const Word want = TileDataTypeIsFloating(dst) ? code : NormalizeTileInteger(code, dst);
          const Conversion2026_09 got = Convert2026_09(src, dst, code, c);
          ASSERT_TRUE(std::holds_alternative<Encoded>(got)) << static_cast<int>(dst);
          ASSERT_EQ(std::get<Encoded>(got), (Encoded{want, 0}))
              << Format(src).name << " " << Hex(code) << " -> type " << static_cast<int>(dst);
          ++checked;
        }
      }
    }
  }
  EXPECT_EQ(checked, 2L * 65536 * (9 + 20));
}

// FP16 is in the 12-type set: every FP16 code to FP32 and FP64 is exact (NaN: the canonical
// NaN, NV when signaling; +/-Inf and +/-0 kept), and to S32 and U8 under RTZ the truncated value
// (written here from the value's numerator and denominator), wrapped or clamped with OF|NX when
// out of range, NX when a fraction is dropped; NaN gives 0 with NV, Inf the range end with NV.
TEST(Tcvt2026_09Properties, EveryFP16CodeToFP32FP64AndIntegersByValue) {
  for (Word code = 0; code < 0x10000; ++code) {
    const C cls = TileNumericValueClass(T::FP16, code);
    const bool nan = NumericValueClassIsNaN(cls);
    const bool negative = (code & 0x8000) != 0;
    for (const T dst : {T::FP32, T::FP64}) {
      const NumericExecutionControl c{kAllRoundingModes[code % 7], (code & 1) != 0};
      const Encoded e = Converted(T::FP16, dst, code, c);
      const std::string where = Where(T::FP16, code, dst, c);
      if (nan) {
        const Word canonical = dst == T::FP32 ? 0x7fc00000 : 0x7ff8000000000000;
        ASSERT_EQ(e, (Encoded{canonical, cls == C::SignalingNaN ? kStatusNV : Status{0}})) << where;
      } else if (NumericValueClassIsInfinity(cls)) {
        ASSERT_EQ(e,
                  (Encoded{(negative ? Format(dst).SignBit() : 0) | Format(dst).infinity_code, 0}))
            << where;
      } else {
        ASSERT_EQ(e.status, 0) << where;
        ASSERT_EQ(TileNumericFiniteValue(dst, e.word), TileNumericFiniteValue(T::FP16, code))
            << where;
        ASSERT_EQ((e.word & Format(dst).SignBit()) != 0, negative) << where;
      }
    }
    for (const T dst : {T::S32, T::U8}) {
      for (const bool sat : {false, true}) {
        const NumericExecutionControl c{M::RTZ, sat};
        const Encoded e = Converted(T::FP16, dst, code, c);
        const std::string where = Where(T::FP16, code, dst, c);
        const Integer lo = dst == T::S32 ? Integer(-2147483648LL) : Integer(0);
        const Integer hi = dst == T::S32 ? Integer(2147483647) : Integer(255);
        if (nan) {
          ASSERT_EQ(e, (Encoded{0, kStatusNV})) << where;
          continue;
        }
        if (NumericValueClassIsInfinity(cls)) {
          ASSERT_EQ(e, (Encoded{WordOf(negative ? lo : hi) & (dst == T::U8 ? 0xff : ~Word{0}),
                                kStatusNV}))
              << where;
          continue;
        }
        const Real x = TileNumericFiniteValue(T::FP16, code);
        const Integer truncated = numerator(x) / denominator(x);  // C++ division truncates
        const bool out = truncated < lo || truncated > hi;
        const Integer selected = out && sat ? (truncated < lo ? lo : hi) : truncated;
        const Status status = out ? kStatusOFNX : Real(truncated) == x ? Status{0} : kStatusNX;
        ASSERT_EQ(e, (Encoded{NormalizeTileInteger(WordOf(selected), dst), status})) << where;
      }
    }
  }
}

// A stride of the FP16 codes (every 29th) to E4M3, by value under every mode and Sat (every code:
// tcvt_2026_09_exhaustive_test.cpp).
TEST(Tcvt2026_09Properties, StridedFP16CodesToE4M3) {
  Checker checker("fp16 -> e4m3");
  for (const NumericExecutionControl c : LegalControls(T::FP16, T::E4M3)) {
    std::vector<std::pair<Real, Real>> monotonic;
    for (Word code = 0; code < 0x10000; code += 29) {
      if (!TileNumericValueIsFinite(T::FP16, code)) continue;
      const Real x = TileNumericFiniteValue(T::FP16, code);
      const Encoded e = Converted(T::FP16, T::E4M3, code, c);
      if (x == 0) {
        checker.Expect(e == Encoded{code == 0x8000 ? Word{0x80} : Word{0}, 0},
                       Where(T::FP16, code, T::E4M3, c));
        continue;
      }
      const auto r = CheckFiniteResult(x, e, T::E4M3, c, checker, Where(T::FP16, code, T::E4M3, c));
      if (r) monotonic.emplace_back(x, *r);
    }
    ExpectMonotonic(std::move(monotonic), checker, Where(T::FP16, 0, T::E4M3, c));
  }
  EXPECT_EQ(checker.failures(), 0);
}

}  // namespace
}  // namespace tcvt_2026_09_properties_test
}  // namespace ptovec::oracle
