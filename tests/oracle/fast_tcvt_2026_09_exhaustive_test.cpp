// Exhaustive proof that FastConvert2026_09 (fast_edition_2026_09.hpp) equals the literal
// Convert2026_09 (edition_2026_09.hpp): for every source type of at most 16 bits (E8M0, E6M2,
// RCPE6M2, the packed FP4 and integer pairs, E4M3, HiF8, FP16, BF16, S8/U8, S16/U16, ...), every
// destination of a legal pair, every control HardwareTCVTRoundingModeSupported accepts (7 modes x
// Sat, E6M2 and RCPE6M2 pairs RNE and RNA x Sat) and every source code: the same word and status.
// Label `proofs` (the names say Exhaustive). The 16-bit sources are split by destination (one
// test each) so that ctest can spread them; see docs/testing.md for the times.
#include <gtest/gtest.h>

#include <cstddef>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include "ptovec/oracle/edition_2026_09.hpp"
#include "ptovec/oracle/fast_edition_2026_09.hpp"
#include "ptovec/oracle/formats.hpp"
#include "ptovec/oracle/numeric.hpp"
#include "test_support.hpp"

namespace ptovec::oracle {
namespace fast_tcvt_2026_09_exhaustive_test {
namespace {

using test_support::Hex;
using test_support::Mismatches;
using T = TileDataType;

// The tile data types of edition 2026-09: every row of its format table but FP19.
std::vector<T> TileTypes() {
  std::vector<T> types;
  for (const FormatInfo& f : AllFormats2026_09()) {
    if (f.type != T::FP19) types.push_back(f.type);
  }
  return types;
}

// The controls of a legal pair: every mode HardwareTCVTRoundingModeSupported accepts x Sat.
std::vector<NumericExecutionControl> LegalControls(T src, T dst) {
  std::vector<NumericExecutionControl> controls;
  for (const NumericRoundingMode mode : kAllRoundingModes) {
    if (!edition_2026_09::HardwareTCVTRoundingModeSupported(src, dst, mode)) continue;
    controls.push_back({mode, false});
    controls.push_back({mode, true});
  }
  return controls;
}

std::string What(T src, Word code, T dst, NumericExecutionControl c) {
  return std::string(Format(src).name) + " " + Hex(code) + " -> " + std::string(Format(dst).name) +
         " " + std::string(RoundingModeName(c.rounding_mode)) + (c.saturating ? " sat" : "");
}

// The literal answer, which must be a conversion (the pair and mode are legal).
Encoded Literal(T src, T dst, Word code, NumericExecutionControl c) {
  const Conversion2026_09 r = Convert2026_09(src, dst, code, c);
  if (const auto* e = std::get_if<Encoded>(&r)) return *e;
  ADD_FAILURE() << What(src, code, dst, c) << ": the literal form refuses a legal pair and mode";
  return {};
}

// Every code of `src` to `dst` under every legal control: fast == literal.
//
// With `reuse`, the literal form is called with Sat on only when its answer with Sat off has OF
// (or for an integer-to-integer pair), and otherwise the Sat-off answer stands for it: sound
// because every literal function on a path with a floating type reads control.saturating only
// in a branch that returns OF: reference-quantization.asl's FP64/FP32 Sat clamp
// (matrix-quantization.asl lines 458-477) and the seeds' binary16 and FP8 encoders (seed 000
// lines 185/221, 355), ReferenceMatrixIntegerEncoding (seed 000 lines 117-126),
// ReferenceCommonConvertSpecial's E4M3 infinity (reference-conversion.asl lines 113-122), the
// E6M2 encoder and +Inf (packed-conversion.asl lines 170-175, tcvt-conversion.asl lines 95-100)
// and ReferenceFloatToE8M0 (seed 001, OF|NX and UF|NX: see below); the packed FP4 lanes never
// read it. ReferenceFloatToE8M0 also reads it on underflow (UF|NX, Sat ? 0x00 : 0xFF), so
// `reuse` is not used for E8M0 destinations. Without `reuse` (the long test) every call is made.
void CheckPair(T src, T dst, bool reuse, Mismatches& mismatches) {
  const Word codes = Word{1} << Format(src).width;
  const bool integers = !TileDataTypeIsFloating(src) && !TileDataTypeIsFloating(dst);
  const bool may_reuse = reuse && !integers && dst != T::E8M0;
  const std::vector<NumericExecutionControl> controls = LegalControls(src, dst);
  for (Word code = 0; code < codes; ++code) {
    for (std::size_t k = 0; k + 1 < controls.size(); k += 2) {
      const NumericExecutionControl off = controls[k];
      const NumericExecutionControl on = controls[k + 1];
      const Encoded literal_off = Literal(src, dst, code, off);
      const Encoded literal_on = may_reuse && (literal_off.status & kStatusOF) == 0
                                     ? literal_off
                                     : Literal(src, dst, code, on);
      for (const auto& [c, literal] : {std::pair{off, literal_off}, std::pair{on, literal_on}}) {
        const Conversion2026_09 fast = FastConvert2026_09(src, dst, code, c);
        const auto* e = std::get_if<Encoded>(&fast);
        if (e == nullptr) {
          ADD_FAILURE() << What(src, code, dst, c) << ": the fast form refuses";
          continue;
        }
        mismatches.Check(*e, literal, *e == literal ? std::string() : What(src, code, dst, c));
      }
    }
  }
}

// The legal destinations of `src`.
std::vector<T> Destinations(T src) {
  std::vector<T> out;
  for (const T dst : TileTypes()) {
    if (edition_2026_09::HardwareTCVTTypePairSupported(src, dst)) out.push_back(dst);
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// Sources of at most 8 bits: one test per source, every destination.
// ---------------------------------------------------------------------------------------------

class FastTcvt2026_09Exhaustive8 : public testing::TestWithParam<T> {};

TEST_P(FastTcvt2026_09Exhaustive8, EveryCodeEveryDestinationEveryControl) {
  Mismatches mismatches;
  for (const T dst : Destinations(GetParam())) CheckPair(GetParam(), dst, false, mismatches);
  EXPECT_EQ(mismatches.count(), 0);
  EXPECT_GT(mismatches.checked(), 0);
}

std::vector<T> NarrowSources() {
  std::vector<T> out;
  for (const T t : TileTypes()) {
    if (Format(t).width <= 8 && !Destinations(t).empty()) out.push_back(t);
  }
  return out;
}

INSTANTIATE_TEST_SUITE_P(Sources, FastTcvt2026_09Exhaustive8, testing::ValuesIn(NarrowSources()),
                         [](const testing::TestParamInfo<T>& p) {
                           return std::string(Format(p.param).name);
                         });

// ---------------------------------------------------------------------------------------------
// 16-bit sources: one test per (source, destination) pair.
// ---------------------------------------------------------------------------------------------

struct Pair16 {
  T src;
  T dst;
};

class FastTcvt2026_09Exhaustive16 : public testing::TestWithParam<Pair16> {};

TEST_P(FastTcvt2026_09Exhaustive16, EveryCodeEveryControl) {
  Mismatches mismatches;
  CheckPair(GetParam().src, GetParam().dst, true, mismatches);
  EXPECT_EQ(mismatches.count(), 0);
  EXPECT_EQ(mismatches.checked(),
            65536L * static_cast<long>(LegalControls(GetParam().src, GetParam().dst).size()));
}

// The same with the literal form called for every control (no reuse): label `long`.
TEST_P(FastTcvt2026_09Exhaustive16, DISABLED_EveryCodeEveryControlEveryLiteralCall) {
  Mismatches mismatches;
  CheckPair(GetParam().src, GetParam().dst, false, mismatches);
  EXPECT_EQ(mismatches.count(), 0);
  EXPECT_EQ(mismatches.checked(),
            65536L * static_cast<long>(LegalControls(GetParam().src, GetParam().dst).size()));
}

std::vector<Pair16> Pairs16() {
  std::vector<Pair16> out;
  for (const T src : TileTypes()) {
    if (Format(src).width != 16) continue;
    for (const T dst : Destinations(src)) out.push_back({src, dst});
  }
  return out;
}

INSTANTIATE_TEST_SUITE_P(Pairs, FastTcvt2026_09Exhaustive16, testing::ValuesIn(Pairs16()),
                         [](const testing::TestParamInfo<Pair16>& p) {
                           return std::string(Format(p.param.src).name) + "_" +
                                  std::string(Format(p.param.dst).name);
                         });

}  // namespace
}  // namespace fast_tcvt_2026_09_exhaustive_test
}  // namespace ptovec::oracle
