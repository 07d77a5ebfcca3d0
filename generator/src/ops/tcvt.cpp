// Op `tcvt`: TileProfileConvert (seed 001 lines 154-168). To E8M0 it is ReferenceFloatToE8M0
// (lines 103-152); to other types the raw-carrier rule (spec-notes section 5 item 9). Bulk
// evaluation uses the fast exact form FastTileProfileConvert (fast_e8m0_conversion.hpp, proven
// equal by tests/oracle/fast_e8m0_test.cpp); evaluate_reference the literal one.
#include <array>
#include <bit>
#include <cstddef>
#include <cstdint>
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

namespace ptovec::generator {

namespace {

using oracle::Format;
using oracle::FormatInfo;

// The vector holds the element-width encoding; the carrier of a signed integer source is its
// sign extension (spec-notes section 1), of any other type the zero extension.
Word TcvtCarrier(TypePair pair, const Inputs& in) {
  return oracle::TileDataTypeIsSigned(pair.src) ? oracle::NormalizeTileInteger(in[0], pair.src)
                                                : in[0];
}

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

// Every code of an 8/16-bit source; FP32 to E8M0 by its strategies, other wide sources by raw
// bits.
DomainPlan TcvtPlan(TypePair pair) {
  const FormatInfo& src = Format(pair.src);
  if (src.width <= 16) return DomainPlan::Exhaustive();
  if (pair.dst == TileDataType::E8M0) return DomainPlan::Sampled(Fp32ToE8M0Strategies());
  return DomainPlan::Sampled(WideRawStrategies(src));
}

}  // namespace

// ---- outcome classes (ptovec coverage): ReferenceFloatToE8M0 (to E8M0); other pairs copy the word
// and have no own classes ----

OutcomeClassTable TcvtOutcomeClasses(TypePair pair) {
  if (pair.dst != TileDataType::E8M0 || !oracle::Format(pair.src).IsFloating()) return {};
  enum : unsigned {
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
  std::vector<OutcomeClass> names = {
      {"exact power of two", "a positive power of two: the result is exact (no NX)"},
      {"rounded down", "NX and the result is below the value"},
      {"rounded up", "NX and the result is above the value"},
      {"at the sqrt(2) threshold",
       "the value is the source code just below or just above sqrt(2) * 2^k, where nearest "
       "modes change exponent"},
      {"NaN input (NV)", "a NaN source"},
      {"Inf input", "+Inf or -Inf"},
      {"zero input", "+0 or -0"},
      {"negative input", "a negative finite non-zero source"},
      {"subnormal input", "a subnormal source"},
      {"tiny: below 2^-127", "0 < |value| < 2^-127, the smallest E8M0 value"},
      {"overflow (OF)", "OF is raised"},
  };
  const TileDataType src = pair.src;
  OutcomeClassTable table{
      std::move(names), [src](const Inputs& in, std::span<const NumericExecutionControl> controls,
                              const Encoded* expected, ClassMask* out) {
        const oracle::NumericValueClass vc = oracle::TileNumericValueClass(src, in[0]);
        ClassMask common = 0;
        std::optional<oracle::Dyadic> x;
        if (oracle::NumericValueClassIsNaN(vc)) common |= ClassBit(kNaN);
        if (oracle::NumericValueClassIsInfinity(vc)) common |= ClassBit(kInf);
        if (oracle::NumericValueClassIsZero(vc)) common |= ClassBit(kZero);
        if (vc == oracle::NumericValueClass::PositiveSubnormal ||
            vc == oracle::NumericValueClass::NegativeSubnormal) {
          common |= ClassBit(kSubnormal);
        }
        if (oracle::TileNumericValueIsFinite(src, in[0]) && !oracle::NumericValueClassIsZero(vc)) {
          x = oracle::DyadicFromFiniteCode(src, in[0]);
          if (x->negative) common |= ClassBit(kNegative);
          if (oracle::DyadicCompareMagnitude(
                  *x, oracle::SmallestPositiveValue(TileDataType::E8M0)) < 0) {
            common |= ClassBit(kTiny);  // below 2^-127
          }
          // A p-bit significand m next to sqrt(2) * 2^(p-1) (irrational: never equal), the
          // boundaries the strategies aim at (FloorSqrt2Scaled, Fp32Sqrt2Boundaries).
          const oracle::FiniteDecomposition f = oracle::TileNumericFiniteDecomposition(src, in[0]);
          const auto p = static_cast<int>(std::bit_width(f.significand));
          if (p > 1 && p <= 63) {
            const std::uint64_t below = FloorSqrt2Scaled(p - 1);
            if (f.significand == below || f.significand == below + 1) common |= ClassBit(kSqrt2);
          }
        }
        for (std::size_t c = 0; c < controls.size(); ++c) {
          const Encoded r = expected[c];
          ClassMask m = common;
          if ((r.status & oracle::kStatusOF) != 0) m |= ClassBit(kOverflow);
          if (x && !x->negative && oracle::TileNumericValueIsFinite(TileDataType::E8M0, r.word)) {
            const int cmp = oracle::DyadicCompareMagnitude(
                oracle::DyadicFromFiniteCode(TileDataType::E8M0, r.word), *x);
            if ((r.status & oracle::kStatusNX) == 0 && cmp == 0) m |= ClassBit(kPower);
            if ((r.status & oracle::kStatusNX) != 0 && cmp < 0) m |= ClassBit(kDown);
            if ((r.status & oracle::kStatusNX) != 0 && cmp > 0) m |= ClassBit(kUp);
          }
          out[c] = m;
        }
      }};
  // The threshold of the nearest modes, sqrt(2) * 2^k, splits the rounded classes: a device
  // comparing with sqrt(2) on too few bits (mutant e8m0_sqrt2_top8) fails only on one side.
  const std::array<std::string, 2> sqrt2_sides = {"significand below sqrt(2)",
                                                  "significand above sqrt(2)"};
  table.thresholds = {{"rounded down", sqrt2_sides},
                      {"rounded up", sqrt2_sides},
                      {"at the sqrt(2) threshold", sqrt2_sides}};
  table.side = [src](const Inputs& in, std::span<const NumericExecutionControl> controls,
                     const Encoded*, ClassMask* out) {
    ClassMask above = 0;
    if (oracle::TileNumericValueIsFinite(src, in[0]) &&
        !oracle::NumericValueClassIsZero(oracle::TileNumericValueClass(src, in[0]))) {
      // A p-bit significand m lies above sqrt(2) * 2^(p-1) when it exceeds the floor of it
      // (sqrt(2) * 2^(p-1) is irrational: never equal); m = 1 (p = 1) lies below.
      const oracle::FiniteDecomposition f = oracle::TileNumericFiniteDecomposition(src, in[0]);
      const auto p = static_cast<int>(std::bit_width(f.significand));
      if (p > 1 && p <= 63 && f.significand > FloorSqrt2Scaled(p - 1)) {
        above = ClassBit(kDown) | ClassBit(kUp) | ClassBit(kSqrt2);
      }
    }
    for (std::size_t c = 0; c < controls.size(); ++c) out[c] = above;
  };
  return table;
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
