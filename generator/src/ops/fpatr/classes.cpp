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

namespace {

constexpr const char* kReluNames[4] = {"none", "ReLU", "LReLU", "PReLU"};

// The classes of one PreQuantMode of the pair within the pair's table.
struct Block {
  unsigned mode;
  LastStep step;
  std::size_t first;     // bit of "ReluMode 0"
  std::size_t specials;  // bit of the first special accumulator class
  // (class of the last step's own table, bit in this table) of the classes kept.
  std::vector<std::pair<std::size_t, std::size_t>> last_bits;
};

// The mode with each ReluMode ("PreQuantMode 25, ReluMode 2 (LReLU)").
void AddReluClasses(unsigned m, std::vector<OutcomeClass>& classes) {
  const std::string mode = "PreQuantMode " + std::to_string(m);
  for (unsigned r = 0; r < 4; ++r) {
    classes.push_back(
        {mode + ", ReluMode " + std::to_string(r) + " (" + kReluNames[r] + ")",
         "pre_quant_mode " + std::to_string(m) + " with relu_mode " + std::to_string(r)});
  }
}

// The special FP32 accumulators: NaN, Inf and -0 (-0 kept only into a floating destination: an
// integer destination has no -0).
struct SpecialAccumulatorClass {
  const char* name;
  const char* description;
  bool floating_dst_only;
};
constexpr SpecialAccumulatorClass kSpecialAccumulators[] = {
    {"NaN accumulator", "a NaN value (the destination's NaN or NV)", false},
    {"Inf accumulator", "+Inf, or -Inf with a non-zero multiplier: the special-value step's answer",
     false},
    {"-Inf accumulator times a zero multiplier",
     "-Inf under ReLU, or under LReLU/PReLU with a +0 parameter: encoded as 0 "
     "(matrix-postprocess.asl lines 216-220)",
     false},
    {"-0 accumulator kept",
     "the signed-zero rule: -0 in, -0 out (a non-zero multiplier, no offset, a floating "
     "destination)",
     true},
    {"-0 accumulator made +0",
     "-0 in with a zero multiplier, an offset or an integer destination: encoded as 0", false},
};

void AddSpecialAccumulatorClasses(const std::string& mode, TileDataType dst,
                                  std::vector<OutcomeClass>& classes) {
  for (const SpecialAccumulatorClass& c : kSpecialAccumulators) {
    if (c.floating_dst_only && !Format(dst).IsFloating()) continue;
    classes.push_back({mode + ": " + c.name, c.description});
  }
}

// Left out of mode m's last-step classes, as no input of the mode can hit them by their
// definition: the affine widths other than the mode's own, the final encoding's ties, rounding
// to zero and rounding onto a range end after an S5/S9/S17 intermediate (the affine classifier
// never sets them there: the rounding happened in the intermediate), and a negative value into
// an unsigned destination, or one rounding to -1 or -2^w there, when the destination is signed.
bool LeftOut(unsigned m, LastStep step, TileDataType dst, const std::string& name) {
  const int own_width = oracle::BundleFPATRModeOffsetWidth(m);
  const bool signed_dst = !Format(dst).IsFloating() && oracle::TileDataTypeIsSigned(dst);
  const bool other_width = step == LastStep::Affine && name.starts_with("width ") &&
                           name != "width " + std::to_string(own_width);
  const bool after_intermediate =
      step == LastStep::Affine && (name == "dst tie rounded up" || name == "dst tie rounded down" ||
                                   name == "dst rounding to zero from a non-zero value" ||
                                   name.starts_with("dst rounds to the minimum from") ||
                                   name.starts_with("dst rounds to the maximum from"));
  const bool unsigned_only =
      signed_dst && (name.ends_with("negative into unsigned") || name.ends_with("(unsigned)"));
  return other_width || after_intermediate || unsigned_only;
}

// The classes of the last step's own table that mode b.mode can hit, named after the mode.
void AddLastStepClasses(Block& b, TileDataType dst, const std::vector<OutcomeClass>& last,
                        std::vector<OutcomeClass>& classes) {
  const std::string mode = "PreQuantMode " + std::to_string(b.mode);
  for (std::size_t k = 0; k < last.size(); ++k) {
    if (LeftOut(b.mode, b.step, dst, last[k].name)) continue;
    b.last_bits.push_back({k, classes.size()});
    classes.push_back({mode + ": " + last[k].name, last[k].description + " (the mode's last step)",
                       last[k].twin_side});
  }
}

// What the classifier reads of the accumulator of `in` under its ReluMode `relu`.
struct Accumulator {
  Word value;
  bool negative_bit;  // the sign bit of a signed accumulator
  bool all_ones;      // an FP32 accumulator's exponent is all ones
  bool nan;
  bool inf;
  bool negative;  // negative and not a NaN
  // MatrixSelectedMultiplier is 0 for a negative value (-0 and -Inf included) under ReLU, or
  // under LReLU/PReLU with a +0 parameter.
  bool multiplier_zero;
};

Accumulator ReadAccumulator(TileDataType src, const Inputs& in, unsigned relu) {
  const bool floating = Format(src).IsFloating();
  const bool is_signed = floating || oracle::TileDataTypeIsSigned(src);
  Accumulator a{};
  a.value = in[kValue];
  a.negative_bit = ((a.value >> (Format(src).width - 1)) & 1) != 0 && is_signed;
  a.all_ones = floating && ((a.value >> 23) & 0xFF) == 0xFF;
  a.nan = a.all_ones && (a.value & 0x7FFFFF) != 0;
  a.inf = a.all_ones && (a.value & 0x7FFFFF) == 0;
  a.negative = a.negative_bit && !a.nan;
  a.multiplier_zero =
      a.negative && (relu == 1 || ((relu == 2 || relu == 3) && (in[kReluParam] & 0x7FFFF) == 0));
  return a;
}

// fpatr's classifier: the block of the input's mode, its ReluMode, special accumulators and
// negative values, then the classes the last step's own classifier gives its value.
class FpatrClassifier {
 public:
  FpatrClassifier(TypePair pair, std::vector<Block> blocks, ClassifyFn shift, ClassifyFn affine)
      : src_(pair.src),
        dst_(pair.dst),
        floating_(Format(pair.src).IsFloating()),
        is_signed_(floating_ || oracle::TileDataTypeIsSigned(pair.src)),
        blocks_(std::move(blocks)),
        shift_(std::move(shift)),
        affine_(std::move(affine)),
        encode_(Format(pair.dst).IsFloating() ? FloatingEncodeClassifier(pair.dst)
                                              : IntegerEncodeClassifier(pair.dst)) {}

  void operator()(const Inputs& in, std::span<const NumericExecutionControl> controls,
                  const Encoded* expected, ClassMask* out) const {
    const unsigned mode = ModeOf(in);
    const unsigned relu = ReluOf(in);
    const auto at = std::find_if(blocks_.begin(), blocks_.end(),
                                 [mode](const Block& b) { return b.mode == mode; });
    std::fill(out, out + controls.size(), ClassMask{});
    if (at == blocks_.end() || relu >= 4) return;
    const Accumulator a = ReadAccumulator(src_, in, relu);
    std::fill(out, out + controls.size(), AccumulatorClasses(*at, a, in));
    // The last step's classes. A NaN accumulator and an Inf one (but -Inf times a zero
    // multiplier, which the pipeline encodes as 0) are answered by the special-value step.
    if (a.nan || (a.inf && !a.multiplier_zero)) return;
    std::array<ClassMask, PTOVEC_FACTS_CONTROLS> last{};  // one per control
    const std::size_t n = std::min(controls.size(), last.size());
    ClassifyLastStep(at->step, a, in, controls.first(n), expected, last.data());
    for (std::size_t c = 0; c < n; ++c) {
      for (const auto& [own, bit] : at->last_bits) {
        if (last[c].test(own)) out[c].set(bit);
      }
    }
  }

 private:
  // The ReluMode, special accumulator and negative value classes of block b.
  ClassMask AccumulatorClasses(const Block& b, const Accumulator& a, const Inputs& in) const {
    const unsigned relu = ReluOf(in);
    ClassMask mask = ClassBit(b.first + relu);
    std::size_t k = b.specials;
    if (floating_) {
      const int w = oracle::BundleFPATRModeOffsetWidth(b.mode);
      const bool offset = w != 0 && oracle::MatrixQuantOffset(in[kQuant], w) != 0;
      if (a.nan) mask |= ClassBit(k);
      if (a.inf && !(a.negative && a.multiplier_zero)) mask |= ClassBit(k + 1);
      if (a.inf && a.negative && a.multiplier_zero) mask |= ClassBit(k + 2);
      const bool floating_dst = Format(dst_).IsFloating();
      if (a.value == 0x80000000) {
        const bool kept = !a.multiplier_zero && !offset && floating_dst;
        mask |= ClassBit(kept ? k + 3 : floating_dst ? k + 4 : k + 3);
      }
      k += floating_dst ? 5 : 4;
    }
    const bool nonzero_negative =
        a.negative_bit && (floating_ ? (a.value & 0x7FFFFFFF) != 0 && !a.all_ones : true);
    if (is_signed_ && nonzero_negative && b.step != LastStep::Shift) {
      if (relu == 1) mask |= ClassBit(k);
      if (relu == 2 || relu == 3) mask |= ClassBit(k + 1);
    }
    return mask;
  }

  // The own classes of the last step (shift, affine or encode) of the value it is given.
  void ClassifyLastStep(LastStep step, const Accumulator& a, const Inputs& in,
                        std::span<const NumericExecutionControl> controls, const Encoded* expected,
                        ClassMask* last) const {
    const unsigned mode = ModeOf(in);
    const unsigned relu = ReluOf(in);
    const Word scale_code = oracle::BundleFPATRModeUsesScalarParameter(mode) ||
                                    oracle::BundleFPATRModeUsesVectorParameter(mode)
                                ? ((in[kQuant] >> 13) & 0x7FFFF)
                                : kFp19One;
    const Word multiplier = !a.negative || relu == 0 ? scale_code
                            : relu == 1              ? Word{0}
                                                     : (in[kReluParam] & 0x7FFFF);
    const Word source = a.inf ? Word{0} : a.value;  // -Inf x 0 is 0
    if (step == LastStep::Shift) {
      shift_(Inputs{a.value, ((in[kQuant] >> 32) & 0xF) + 1}, controls, expected, last);
    } else if (step == LastStep::Affine) {
      const int w = oracle::BundleFPATRModeOffsetWidth(mode);
      const auto offset = static_cast<std::int64_t>(oracle::MatrixQuantOffset(in[kQuant], w));
      affine_(Inputs{source, multiplier, oracle::LowBits(static_cast<Word>(offset), 32),
                     static_cast<Word>(w)},
              controls, expected, last);
    } else {
      encode_(oracle::DyadicProduct(SourceValue(source),
                                    oracle::DyadicFromFiniteCode(TileDataType::FP19, multiplier)),
              controls, expected, last);
    }
  }

  // The exact value of an accumulator word (an FP32 word is finite here).
  oracle::Dyadic SourceValue(Word source) const {
    if (floating_) return oracle::DyadicFromFiniteCode(TileDataType::FP32, source);
    if (src_ == TileDataType::U32) {
      return oracle::DyadicFromInteger(static_cast<std::int64_t>(source & 0xFFFFFFFF));
    }
    return oracle::DyadicFromInteger(static_cast<std::int32_t>(static_cast<std::uint32_t>(source)));
  }

  TileDataType src_;
  TileDataType dst_;
  bool floating_;
  bool is_signed_;
  std::vector<Block> blocks_;
  ClassifyFn shift_;
  ClassifyFn affine_;
  ValueClassifier encode_;
};

}  // namespace

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
  const bool floating = Format(pair.src).IsFloating();
  const bool is_signed = floating || oracle::TileDataTypeIsSigned(pair.src);
  std::vector<Block> blocks;
  std::vector<OutcomeClass> classes;
  OutcomeClassTable shift_table = ShiftOutcomeClasses(pair);
  OutcomeClassTable affine_table = AffineOutcomeClasses(TypePair{pair.src, pair.dst});
  for (const unsigned m : WholeModesOf(pair)) {  // one table for all its file groups
    const std::string mode = "PreQuantMode " + std::to_string(m);
    Block b{m, LastStepOf(m, pair.dst), classes.size(), 0, {}};
    AddReluClasses(m, classes);
    b.specials = classes.size();
    if (floating) AddSpecialAccumulatorClasses(mode, pair.dst, classes);
    if (is_signed && b.step != LastStep::Shift) {  // the shift modes ignore ReluMode
      classes.push_back(
          {mode + ": negative under ReLU", "a negative value with relu_mode 1 (clamped to 0)"});
      classes.push_back({mode + ": negative under LReLU/PReLU",
                         "a negative value with relu_mode 2 or 3 (multiplied by the parameter)"});
    }
    AddLastStepClasses(b, pair.dst,
                       b.step == LastStep::Shift            ? shift_table.classes
                       : b.step == LastStep::Affine         ? affine_table.classes
                       : b.step == LastStep::FloatingEncode ? FloatingEncodeClassNames()
                                                            : IntegerEncodeClassNames(),
                       classes);
    blocks.push_back(std::move(b));
  }
  if (classes.size() > kMaxOpClasses) {
    throw std::logic_error("fpatr: the class table of a pair has more than kMaxOpClasses classes");
  }
  return {std::move(classes),
          FpatrClassifier(pair, std::move(blocks), std::move(shift_table.classify),
                          std::move(affine_table.classify))};
}

}  // namespace ptovec::generator
