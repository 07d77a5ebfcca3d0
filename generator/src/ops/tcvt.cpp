// Op `tcvt`: TileProfileConvert (seed 001 lines 154-168). To E8M0 it is ReferenceFloatToE8M0
// (lines 103-152); to other types the raw-carrier rule (spec-notes section 5 item 9). Bulk
// evaluation uses the fast exact form FastTileProfileConvert (fast_e8m0_conversion.hpp, proven
// equal by tests/oracle/fast_e8m0_test.cpp); evaluate_reference the literal one.
#include "outcome_classes.hpp"
#include "ptovec/generator/domains.hpp"
#include "ptovec/generator/ops.hpp"
#include "ptovec/oracle/e8m0_conversion.hpp"
#include "ptovec/oracle/fast_e8m0_conversion.hpp"

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
      {"fp32_binade_ends", 2, OneSlot(Fp32BinadeEnds())},
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
