// Op `qparam`: B.FPATR parameter packing. An FP32 scale is narrowed by FP32ToFP19 (spec-notes
// section 4) and packed with a signed offset by MatrixQuantParameter (seed 000 lines 11-23); the
// vector's result is the 64-bit parameter word, from which MatrixQuantOffset (lines 32-41)
// recovers the offset. No rounding mode and no Sat: vectors record RNE and Sat off only.
#include "ptovec/generator/domains.hpp"
#include "ptovec/generator/ops.hpp"
#include "ptovec/generator/writers.hpp"
#include "ptovec/oracle/matrix_quantization.hpp"

namespace ptovec::generator {

namespace {

using T = TileDataType;

// The signed range of an offset field of `width` bits; width 0 has no field (offset 0).
std::pair<std::int64_t, std::int64_t> OffsetRange(Word width) {
  if (width == 0) return {0, 0};
  const std::int64_t half = std::int64_t{1} << (width - 1);
  return {-half, half - 1};
}


Encoded EvaluateQparam(TypePair, const Inputs& in, NumericExecutionControl) {
  const Word fp19 = oracle::FP32ToFP19(in[0]);
  return {oracle::MatrixQuantParameter(fp19, oracle::SignExtend(in[1], 32),
                                       static_cast<int>(in[2])),
          0};
}

}  // namespace

/// Offsets at and next to the ends of each width's range, and random ones: (offset, width).
rc::Gen<std::pair<std::uint32_t, std::uint32_t>> OffsetAndWidth() {
  return rc::gen::apply(
      [](int which, int edge, std::uint64_t random) {
        const Word widths[4] = {0, 5, 9, 17};
        const Word width = widths[which];
        const auto [lo, hi] = OffsetRange(width);
        const std::int64_t choices[6] = {lo, hi, 0, -1 < lo ? 0 : -1, lo + 1 > hi ? hi : lo + 1,
                                         lo + static_cast<std::int64_t>(
                                                  random % static_cast<std::uint64_t>(hi - lo + 1))};
        return std::pair<std::uint32_t, std::uint32_t>{
            static_cast<std::uint32_t>(static_cast<std::int32_t>(choices[edge])),
            static_cast<std::uint32_t>(width)};
      },
      rc::gen::inRange(0, 4), rc::gen::inRange(0, 6), rc::gen::arbitrary<std::uint64_t>());
}

namespace {

// FP32 words whose low 13 fraction bits sit at, just below and just above the FP19 rounding
// tie (0x1000), with bit 13 even or odd, and fractions of all ones (the carry into the exponent).
rc::Gen<std::uint32_t> Fp19RoundingEdges() {
  return rc::gen::apply(
      [](std::uint32_t sign_exponent, std::uint32_t kept, int low) {
        const std::uint32_t lows[6] = {0x0FFF, 0x1000, 0x1001, 0x0000, 0x1FFF, 0x0001};
        return (sign_exponent << 23) | ((kept & 0x3FF) << 13) | lows[low];
      },
      rc::gen::inRange<std::uint32_t>(0, 512), rc::gen::element<std::uint32_t>(0, 1, 0x3FE, 0x3FF,
                                                                                 0x155, 0x2AA),
      rc::gen::inRange(0, 6));
}

rc::Gen<Inputs> QparamTuples(rc::Gen<std::uint32_t> scale) {
  return rc::gen::apply(
      [](std::uint32_t s, std::pair<std::uint32_t, std::uint32_t> ow) {
        return Inputs{s, ow.first, ow.second, 0};
      },
      std::move(scale), OffsetAndWidth());
}

}  // namespace

OpDef MakeQparamOp() {
  OpDef op;
  op.name = "qparam";
  op.instruction = "B.FPATR parameter packing";
  op.seed_function = "MatrixQuantParameter(FP32ToFP19(scale), offset, width)";
  op.seed_source =
      "000_93cee333e42f6460.txt lines 11-23 (MatrixQuantOffset lines 32-41); FP32ToFP19 "
      "spec-notes section 4";
  op.summary =
      "FP32 scale -> FP19 (RNE on the raw bits, NaN -> 0x3ff00) packed with a signed offset into "
      "the 64-bit parameter word (no mode, no Sat)";
  op.slots = {
      {"scale", SlotRole::Source, T::FP32, "any FP32 word (FP32ToFP19 narrows it)"},
      {"offset", SlotRole::Fixed, T::S32,
       "the signed offset, inside the width's range (width 0: offset 0, there is no field)"},
      {"width", SlotRole::Fixed, T::U8, "the offset width: 0, 5, 9 or 17"}};
  op.uses_controls = false;
  op.legal_pairs = {{T::FP32, T::U64}};
  op.default_suite_pairs = op.legal_pairs;
  op.evaluate = EvaluateQparam;
  op.evaluate_reference = EvaluateQparam;  // literal seed functions, integer arithmetic only
  op.check_domain = [](TypePair, const Inputs& in) { return CheckOffsetAndWidth(in[1], in[2]); };
  op.domain = [](TypePair pair, const SamplingOptions& options) {
    const std::vector<Strategy> strategies = {
        {"fp19_rounding_edges", 5, QparamTuples(Fp19RoundingEdges())},
        {"fp32_specials", 1, QparamTuples(Fp32Specials())},
        {"fp32_uniform_bits", 4, QparamTuples(Fp32UniformBits())}};
    return ListSet(SampleUnique(strategies, DerivedSeed(options.seed, *FindOp("qparam"), pair),
                                options.samples),
                   "sampled");
  };
  op.domain_count = [](TypePair, const SamplingOptions& options) { return options.samples; };
  op.input_space = [](TypePair pair) {
    const std::vector<Strategy> strategies = {
        {"fp19_rounding_edges", 5, QparamTuples(Fp19RoundingEdges())},
        {"fp32_specials", 1, QparamTuples(Fp32Specials())},
        {"fp32_uniform_bits", 4, QparamTuples(Fp32UniformBits())}};
    // Uniform over the domain: any FP32 scale, a uniform width and an offset uniform in its range.
    const rc::Gen<Inputs> uniform = rc::gen::apply(
        [](std::uint64_t s, std::pair<std::uint32_t, std::uint32_t> ow) {
          return Inputs{s, ow.first, ow.second, 0};
        },
        rc::gen::inRange<std::uint64_t>(0, std::uint64_t{1} << 32), UniformOffsetAndWidth());
    return InputSpace(*FindOp("qparam"), pair, strategies, uniform);
  };
  return op;
}

}  // namespace ptovec::generator
