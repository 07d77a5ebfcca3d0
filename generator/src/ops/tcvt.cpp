// Op `tcvt`: TileProfileConvert (seed 001 lines 154-168). To E8M0 it is ReferenceFloatToE8M0
// (lines 103-152); to other types the raw-carrier rule (spec-notes section 5 item 9). Bulk
// evaluation uses the fast exact form FastTileProfileConvert (fast_e8m0_conversion.hpp, proven
// equal by tests/oracle/fast_e8m0_test.cpp); evaluate_reference the literal one.
#include <array>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "outcome_classes.hpp"
#include "ptovec/generator/domains.hpp"
#include "ptovec/generator/ops.hpp"
#include "ptovec/oracle/dyadic.hpp"
#include "ptovec/oracle/e8m0_conversion.hpp"
#include "ptovec/oracle/fast_e8m0_conversion.hpp"
#include "ptovec/oracle/format_edges.hpp"
#include "ptovec/oracle/numeric.hpp"
#include "tcvt_common.hpp"

namespace ptovec::generator {

using oracle::Format;
using oracle::FormatInfo;

// The vector holds the element-width encoding; the carrier of a signed integer source is its
// sign extension (spec-notes section 1), of any other type the zero extension.
Word TcvtCarrier(TypePair pair, const Inputs& in) {
  return oracle::TileDataTypeIsSigned(pair.src) ? oracle::NormalizeTileInteger(in[0], pair.src)
                                                : in[0];
}

namespace {

// Bulk evaluation: the fast exact form.
Encoded EvaluateTcvt(TypePair pair, const Inputs& in, NumericExecutionControl control) {
  const Encoded r =
      oracle::FastTileProfileConvert(TcvtCarrier(pair, in), pair.src, pair.dst, control);
  return {oracle::LowBits(r.word, Format(pair.dst).width), r.status};
}

// The batch form of EvaluateTcvt: the carrier and source layout once per input
// (FastTileProfileConvertControls), the width once per batch.
void EvaluateTcvtBatch(TypePair pair, const Inputs* in, std::size_t n,
                       std::span<const NumericExecutionControl> controls, Encoded* out) {
  const unsigned width = Format(pair.dst).width;
  const std::size_t nc = controls.size();
  for (std::size_t i = 0; i < n; ++i, out += nc) {
    oracle::FastTileProfileConvertControls(TcvtCarrier(pair, in[i]), pair.src, pair.dst,
                                           controls.data(), nc, out);
    for (std::size_t c = 0; c < nc; ++c) out[c].word = oracle::LowBits(out[c].word, width);
  }
}

// The literal seed function.
Encoded EvaluateTcvtReference(TypePair pair, const Inputs& in, NumericExecutionControl control) {
  const Encoded r = oracle::TileProfileConvert(TcvtCarrier(pair, in), pair.src, pair.dst, control);
  return {oracle::LowBits(r.word, Format(pair.dst).width), r.status};
}

// Sampled strategies for FP32 -> E8M0: where exponent rounding, underflow and overflow change.
std::vector<SampleStrategy> Fp32ToE8M0Strategies() {
  return {
      {"fp32_specials", 2, OneSlot(Fp32Specials())},
      {"fp32_power_of_two_neighbours", 4, OneSlot(Fp32PowerOfTwoNeighbours(false))},
      {"fp32_sqrt2_boundaries", 6, OneSlot(Fp32Sqrt2Boundaries(false))},
      {"fp32_subnormal_floor_edge", 3, OneSlot(Fp32SubnormalFloorEdge())},
      {"fp32_top_binades", 3, OneSlot(Fp32TopBinades())},
      {"fp32_positive_normals", 4, OneSlot(Fp32PositiveNormals())},
      {"fp32_uniform_bits", 4, OneSlot(Fp32UniformBits())},
  };
}

// Raw-carrier pairs from a wide source: zero, all ones and the top bit, and uniform bits of the
// source width (for 64-bit sources every word but all ones, which is an edge).
std::vector<SampleStrategy> WideRawStrategies(const FormatInfo& src) {
  const unsigned width = src.width;
  const Word all_ones = oracle::LowBits(~Word{0}, width);
  return {
      {"edges", 1, OneSlot(WordSet::Points({0, all_ones, Word{1} << (width - 1)}))},
      {"uniform_bits", 9, OneSlot(AllWords(width))},
  };
}

}  // namespace

// Every code of an 8/16-bit source; FP32 to E8M0 by its strategies, other wide sources by raw
// bits.
DomainPlan TcvtPlan(TypePair pair) {
  const FormatInfo& src = Format(pair.src);
  if (src.width <= 16) return DomainPlan::Exhaustive();
  if (pair.dst == TileDataType::E8M0) return DomainPlan::Sampled(Fp32ToE8M0Strategies());
  return DomainPlan::Sampled(WideRawStrategies(src));
}

// ---- outcome classes (ptovec coverage): ReferenceFloatToE8M0 (to E8M0); other pairs copy the word
// and have no own classes ----

namespace {

enum TcvtClass : unsigned {
  kPower,
  kDown,
  kUp,
  kSqrt2,
  kNaN,
  kInf,
  kZero,
  kNegative,
  kSubnormal,
  kTiny,
  kOverflow
};

// The threshold of the nearest modes, sqrt(2) * 2^k, splits the rounded classes: a device
// comparing with sqrt(2) on too few bits (mutant e8m0_sqrt2_top8) fails only on one side.
constexpr std::array<const char*, 2> kSqrt2Sides = {"significand below sqrt(2)",
                                                    "significand above sqrt(2)"};

constexpr OwnClass kTcvtClasses[] = {
    {"exact power of two", "a positive power of two: the result is exact (no NX)"},
    {"rounded down", "NX and the result is below the value", kSqrt2Sides},
    {"rounded up", "NX and the result is above the value", kSqrt2Sides},
    {"at the sqrt(2) threshold",
     "the value is the source code just below or just above sqrt(2) * 2^k, where nearest "
     "modes change exponent",
     kSqrt2Sides},
    {"NaN input (NV)", "a NaN source"},
    {"Inf input", "+Inf or -Inf"},
    {"zero input", "+0 or -0"},
    {"negative input", "a negative finite non-zero source"},
    {"subnormal input", "a subnormal source"},
    {"tiny: below 2^-127", "0 < |value| < 2^-127, the smallest E8M0 value"},
    {"overflow (OF)", "OF is raised"},
};

// The p-bit significand m of a finite non-zero word beside the floor of sqrt(2) * 2^(p-1)
// (irrational: never equal), the boundaries the strategies aim at (FloorSqrt2Scaled,
// Fp32Sqrt2Boundaries); nullopt for p = 1 (m = 1 lies below) or p over 63.
struct Sqrt2Neighbour {
  std::uint64_t significand;
  std::uint64_t floor;
};
std::optional<Sqrt2Neighbour> BesideSqrt2(TileDataType src, Word w) {
  const oracle::FiniteDecomposition f = oracle::TileNumericFiniteDecomposition(src, w);
  const auto p = static_cast<int>(std::bit_width(f.significand));
  if (p <= 1 || p > 63) return std::nullopt;
  return Sqrt2Neighbour{f.significand, FloorSqrt2Scaled(p - 1)};
}

bool IsFiniteNonZero(TileDataType src, Word w) {
  return oracle::TileNumericValueIsFinite(src, w) &&
         !oracle::NumericValueClassIsZero(oracle::TileNumericValueClass(src, w));
}

// The classes of a finite non-zero source word w of value x.
ClassMask FiniteSourceClasses(TileDataType src, Word w, const oracle::Dyadic& x) {
  ClassMask m = 0;
  if (x.negative) m |= ClassBit(kNegative);
  if (oracle::DyadicCompareMagnitude(x, oracle::SmallestPositiveValue(TileDataType::E8M0)) < 0) {
    m |= ClassBit(kTiny);  // below 2^-127
  }
  const std::optional<Sqrt2Neighbour> n = BesideSqrt2(src, w);
  if (n && (n->significand == n->floor || n->significand == n->floor + 1)) m |= ClassBit(kSqrt2);
  return m;
}

// The classes of result r of the source value x (nullopt: not finite and non-zero).
ClassMask ResultClasses(const std::optional<oracle::Dyadic>& x, Encoded r) {
  ClassMask m = 0;
  if ((r.status & oracle::kStatusOF) != 0) m |= ClassBit(kOverflow);
  if (x && !x->negative && oracle::TileNumericValueIsFinite(TileDataType::E8M0, r.word)) {
    const int cmp = oracle::DyadicCompareMagnitude(
        oracle::DyadicFromFiniteCode(TileDataType::E8M0, r.word), *x);
    if ((r.status & oracle::kStatusNX) == 0 && cmp == 0) m |= ClassBit(kPower);
    if ((r.status & oracle::kStatusNX) != 0 && cmp < 0) m |= ClassBit(kDown);
    if ((r.status & oracle::kStatusNX) != 0 && cmp > 0) m |= ClassBit(kUp);
  }
  return m;
}

void ClassifyTcvt(TileDataType src, const Inputs& in,
                  std::span<const NumericExecutionControl> controls, const Encoded* expected,
                  ClassMask* out) {
  ClassMask common = SpecialValueClasses(oracle::TileNumericValueClass(src, in[0]),
                                         {kNaN, kInf, kZero, kSubnormal});
  std::optional<oracle::Dyadic> x;
  if (IsFiniteNonZero(src, in[0])) {
    x = oracle::DyadicFromFiniteCode(src, in[0]);
    common |= FiniteSourceClasses(src, in[0], *x);
  }
  for (std::size_t c = 0; c < controls.size(); ++c) out[c] = common | ResultClasses(x, expected[c]);
}

// Side 1: a significand above sqrt(2) * 2^(p-1).
ClassMask TcvtSides(TileDataType src, const Inputs& in) {
  if (!IsFiniteNonZero(src, in[0])) return 0;
  const std::optional<Sqrt2Neighbour> n = BesideSqrt2(src, in[0]);
  if (!n || n->significand <= n->floor) return 0;
  return ClassBit(kDown) | ClassBit(kUp) | ClassBit(kSqrt2);
}

}  // namespace

OutcomeClassTable TcvtOutcomeClasses(TypePair pair) {
  if (pair.dst != TileDataType::E8M0 || !oracle::Format(pair.src).IsFloating()) return {};
  const TileDataType src = pair.src;
  return MakeOutcomeClassTable(kTcvtClasses, std::bind_front(ClassifyTcvt, src),
                               [src](const Inputs& in) { return TcvtSides(src, in); });
}

OpDef MakeTcvtOp() {
  OpDef op;
  op.name = "tcvt";
  op.instruction = "TCVT";
  op.seed_function = "TileProfileConvert";
  op.seed_source = "001_c13013f58bb35bbc.txt lines 154-168 (ReferenceFloatToE8M0 lines 103-152)";
  op.summary =
      "TCVT: to E8M0 by exponent rounding under the mode and Sat; to other types the raw word "
      "(integer destinations normalized), status 0";
  op.slots = {{"value", SlotRole::Source, TileDataType::FP32, "the source word (any code)"}};
  op.uses_controls = true;
  op.pair_note = [](TypePair pair) -> std::string {
    if (pair.dst == TileDataType::E8M0) return "";
    return "tcvt to " + std::string(Format(pair.dst).name) +
           " copies the source word's bits, it does not convert the value (TileProfileConvert's "
           "raw-carrier rule, seed 001 lines 154-168; spec-notes section 5 item 9); for "
           "conversion by value use --op encode";
  };
  for (const FormatInfo& src : oracle::AllFormats()) {
    for (const FormatInfo& dst : oracle::AllFormats()) {
      if (src.tile_code < 0 || dst.tile_code < 0) continue;  // FP19 is not a tile data type
      if (oracle::HardwareTCVTTypePairSupported(src.type, dst.type)) {
        op.legal_pairs.push_back({src.type, dst.type});
      }
    }
  }
  op.default_suite_pairs = {{TileDataType::FP16, TileDataType::E8M0},
                            {TileDataType::BF16, TileDataType::E8M0},
                            {TileDataType::FP32, TileDataType::E8M0}};
  op.evaluate = EvaluateTcvt;
  op.evaluate_batch = EvaluateTcvtBatch;
  op.evaluate_reference = EvaluateTcvtReference;
  op.check_domain = [](TypePair, const Inputs&) -> std::optional<std::string> {
    return std::nullopt;  // every code of the source type is in TCVT's domain
  };
  op.plan = TcvtPlan;
  op.outcome_classes = TcvtOutcomeClasses;
  return op;
}

}  // namespace ptovec::generator
