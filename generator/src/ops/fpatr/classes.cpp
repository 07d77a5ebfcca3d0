// Op `fpatr`'s outcome classes (FpatrOutcomeClasses, outcome_classes.hpp): per PreQuantMode of
// the pair, the ReluModes, the special accumulators and the classes of the mode's last step (the
// shift, affine or encode op's own classifier on the exact value it is given).
#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "../outcome_classes.hpp"
#include "modes.hpp"
#include "ptovec/facts.h"
#include "ptovec/generator/ops.hpp"
#include "ptovec/oracle/dyadic.hpp"
#include "ptovec/oracle/formats.hpp"
#include "ptovec/oracle/matrix_postprocess.hpp"
#include "ptovec/oracle/matrix_quantization.hpp"
#include "ptovec/oracle/numeric.hpp"

namespace ptovec::generator {

using namespace fpatr;  // NOLINT(google-build-using-namespace): the op's own parts
using oracle::Format;

// fpatr's own classes for one pair, one block per PreQuantMode of the pair (in code order), so
// that coverage is kept per mode as the issue asks:
//  - the mode with each ReluMode ("PreQuantMode 25, ReluMode 2 (LReLU)");
//  - the accumulators the pipeline treats apart: NaN, Inf and -0 (FP32 accumulators), a
//    negative value under ReLU (clamped to 0) and under LReLU/PReLU (multiplied by the ReLU
//    parameter) (signed accumulators);
//  - the classes of the mode's last step, on the exact value it is given: the shift op's
//    classes (modes 12, 13), the affine op's (widths 5/9/17: modes 2, 3, 17-20, 23, 24; value x
//    the selected multiplier, the mode's offset and width), else the encode op's integer or
//    floating classes of value x multiplier (a NaN or Inf accumulator, which the special-value
//    step answers, has none of them).
// Every class of a block is named "PreQuantMode m: ..." after the op it comes from.
OutcomeClassTable FpatrOutcomeClasses(TypePair pair) {
  const std::vector<unsigned> modes = WholeModesOf(pair);  // one table for all its file groups
  const TileDataType src = pair.src;
  const TileDataType dst = pair.dst;
  const bool floating = Format(src).IsFloating();
  const bool is_signed = floating || oracle::TileDataTypeIsSigned(src);
  static constexpr const char* kReluNames[4] = {"none", "ReLU", "LReLU", "PReLU"};
  struct Block {
    unsigned mode;
    LastStep step;
    std::size_t first;     // bit of "ReluMode 0"
    std::size_t specials;  // bit of the first special accumulator class
    // (class of the last step's own table, bit in this table) of the classes kept.
    std::vector<std::pair<std::size_t, std::size_t>> last_bits;
  };
  std::vector<Block> blocks;
  std::vector<OutcomeClass> classes;
  const OutcomeClassTable shift_table = ShiftOutcomeClasses(pair);
  const OutcomeClassTable affine_table = AffineOutcomeClasses(TypePair{src, dst});
  for (const unsigned m : modes) {
    const std::string mode = "PreQuantMode " + std::to_string(m);
    Block b{m, LastStepOf(m, dst), classes.size(), 0, {}};
    for (unsigned r = 0; r < 4; ++r) {
      classes.push_back(
          {mode + ", ReluMode " + std::to_string(r) + " (" + kReluNames[r] + ")",
           "pre_quant_mode " + std::to_string(m) + " with relu_mode " + std::to_string(r)});
    }
    b.specials = classes.size();
    if (floating) {
      classes.push_back({mode + ": NaN accumulator", "a NaN value (the destination's NaN or NV)"});
      classes.push_back({mode + ": Inf accumulator",
                         "+Inf, or -Inf with a non-zero multiplier: the special-value step's "
                         "answer"});
      classes.push_back({mode + ": -Inf accumulator times a zero multiplier",
                         "-Inf under ReLU, or under LReLU/PReLU with a +0 parameter: encoded as "
                         "0 (matrix-postprocess.asl lines 216-220)"});
      if (Format(dst).IsFloating()) {  // an integer destination has no -0
        classes.push_back({mode + ": -0 accumulator kept",
                           "the signed-zero rule: -0 in, -0 out (a non-zero multiplier, no "
                           "offset, a floating destination)"});
      }
      classes.push_back({mode + ": -0 accumulator made +0",
                         "-0 in with a zero multiplier, an offset or an integer destination: "
                         "encoded as 0"});
    }
    if (is_signed && b.step != LastStep::Shift) {  // the shift modes ignore ReluMode
      classes.push_back(
          {mode + ": negative under ReLU", "a negative value with relu_mode 1 (clamped to 0)"});
      classes.push_back({mode + ": negative under LReLU/PReLU",
                         "a negative value with relu_mode 2 or 3 (multiplied by the parameter)"});
    }
    const std::vector<OutcomeClass> last = b.step == LastStep::Shift    ? shift_table.classes
                                           : b.step == LastStep::Affine ? affine_table.classes
                                           : b.step == LastStep::FloatingEncode
                                               ? FloatingEncodeClassNames()
                                               : IntegerEncodeClassNames();
    // Left out, as no input of the mode can hit them by their definition: the affine widths
    // other than the mode's own, the final encoding's ties, rounding to zero and rounding onto
    // a range end after an S5/S9/S17 intermediate (the affine classifier never sets them there:
    // the rounding happened in the intermediate), and a negative value into an unsigned
    // destination, or one rounding to -1 or -2^w there, when the destination is signed.
    const int own_width = oracle::BundleFPATRModeOffsetWidth(m);
    const bool signed_dst = !Format(dst).IsFloating() && oracle::TileDataTypeIsSigned(dst);
    for (std::size_t k = 0; k < last.size(); ++k) {
      const std::string& name = last[k].name;
      const bool other_width = b.step == LastStep::Affine && name.starts_with("width ") &&
                               name != "width " + std::to_string(own_width);
      const bool after_intermediate =
          b.step == LastStep::Affine &&
          (name == "dst tie rounded up" || name == "dst tie rounded down" ||
           name == "dst rounding to zero from a non-zero value" ||
           name.starts_with("dst rounds to the minimum from") ||
           name.starts_with("dst rounds to the maximum from"));
      const bool unsigned_only =
          signed_dst && (name.ends_with("negative into unsigned") || name.ends_with("(unsigned)"));
      if (other_width || after_intermediate || unsigned_only) continue;
      b.last_bits.push_back({k, classes.size()});
      classes.push_back(
          {mode + ": " + name, last[k].description + " (the mode's last step)", last[k].twin_side});
    }
    blocks.push_back(b);
  }
  if (classes.size() > kMaxOpClasses) {
    throw std::logic_error("fpatr: the class table of a pair has more than kMaxOpClasses classes");
  }
  const ValueClassifier encode =
      Format(dst).IsFloating() ? FloatingEncodeClassifier(dst) : IntegerEncodeClassifier(dst);
  auto classify = [blocks, floating, is_signed, src, dst, shift = shift_table.classify,
                   affine = affine_table.classify,
                   encode](const Inputs& in, std::span<const NumericExecutionControl> controls,
                           const Encoded* expected, ClassMask* out) {
    const unsigned mode = ModeOf(in);
    const unsigned relu = ReluOf(in);
    const auto at = std::find_if(blocks.begin(), blocks.end(),
                                 [mode](const Block& b) { return b.mode == mode; });
    std::fill(out, out + controls.size(), ClassMask{});
    if (at == blocks.end() || relu >= 4) return;
    const Block& b = *at;
    ClassMask mask = ClassBit(b.first + relu);
    const Word value = in[kValue];
    const unsigned width = Format(src).width;
    const bool negative_bit = ((value >> (width - 1)) & 1) != 0 && is_signed;
    const bool all_ones = floating && ((value >> 23) & 0xFF) == 0xFF;
    const bool nan = all_ones && (value & 0x7FFFFF) != 0;
    const bool inf = all_ones && (value & 0x7FFFFF) == 0;
    // MatrixSelectedMultiplier is 0 for a negative value (-0 and -Inf included) under ReLU, or
    // under LReLU/PReLU with a +0 parameter.
    const bool negative = negative_bit && !nan;
    const bool multiplier_zero =
        negative && (relu == 1 || ((relu == 2 || relu == 3) && (in[kReluParam] & 0x7FFFF) == 0));
    std::size_t k = b.specials;
    if (floating) {
      const int w = oracle::BundleFPATRModeOffsetWidth(mode);
      const bool offset = w != 0 && oracle::MatrixQuantOffset(in[kQuant], w) != 0;
      if (nan) mask |= ClassBit(k);
      if (inf && !(negative && multiplier_zero)) mask |= ClassBit(k + 1);
      if (inf && negative && multiplier_zero) mask |= ClassBit(k + 2);
      const bool floating_dst = Format(dst).IsFloating();
      if (value == 0x80000000) {
        const bool kept = !multiplier_zero && !offset && floating_dst;
        mask |= ClassBit(kept ? k + 3 : floating_dst ? k + 4 : k + 3);
      }
      k += floating_dst ? 5 : 4;
    }
    const bool nonzero_negative =
        negative_bit && (floating ? (value & 0x7FFFFFFF) != 0 && !all_ones : true);
    if (is_signed && nonzero_negative && b.step != LastStep::Shift) {
      if (relu == 1) mask |= ClassBit(k);
      if (relu == 2 || relu == 3) mask |= ClassBit(k + 1);
    }
    for (std::size_t c = 0; c < controls.size(); ++c) out[c] = mask;
    // The last step's classes. A NaN accumulator and an Inf one (but -Inf times a zero
    // multiplier, which the pipeline encodes as 0) are answered by the special-value step.
    if (nan || (inf && !multiplier_zero)) return;
    std::array<ClassMask, PTOVEC_FACTS_CONTROLS>
        last{};  // one per control: at most 7 modes x 2 Sat
    const std::size_t n = std::min(controls.size(), last.size());
    const Word scale_code = oracle::BundleFPATRModeUsesScalarParameter(mode) ||
                                    oracle::BundleFPATRModeUsesVectorParameter(mode)
                                ? ((in[kQuant] >> 13) & 0x7FFFF)
                                : kFp19One;
    const Word multiplier = !negative || relu == 0 ? scale_code
                            : relu == 1            ? Word{0}
                                                   : (in[kReluParam] & 0x7FFFF);
    const Word source = inf ? Word{0} : value;  // -Inf x 0 is 0
    if (b.step == LastStep::Shift) {
      shift(Inputs{value, ((in[kQuant] >> 32) & 0xF) + 1}, controls.first(n), expected,
            last.data());
    } else if (b.step == LastStep::Affine) {
      const int w = oracle::BundleFPATRModeOffsetWidth(mode);
      const auto offset = static_cast<std::int64_t>(oracle::MatrixQuantOffset(in[kQuant], w));
      affine(Inputs{source, multiplier, oracle::LowBits(static_cast<Word>(offset), 32),
                    static_cast<Word>(w)},
             controls.first(n), expected, last.data());
    } else {
      const oracle::Dyadic x = oracle::DyadicProduct(
          floating ? oracle::DyadicFromFiniteCode(TileDataType::FP32, source)
          : src == TileDataType::U32
              ? oracle::DyadicFromInteger(static_cast<std::int64_t>(source & 0xFFFFFFFF))
              : oracle::DyadicFromInteger(
                    static_cast<std::int32_t>(static_cast<std::uint32_t>(source))),
          oracle::DyadicFromFiniteCode(TileDataType::FP19, multiplier));
      encode(x, controls.first(n), expected, last.data());
    }
    for (std::size_t c = 0; c < n; ++c) {
      for (const auto& [own, bit] : b.last_bits) {
        if (last[c].test(own)) out[c].set(bit);
      }
    }
  };
  return {std::move(classes), std::move(classify)};
}

}  // namespace ptovec::generator
