// Op `fpatr`: the B.FPATR matrix post-process of one accumulator element,
// TileProfileMatrixPostProcessWithFlags (../shared/seeds/reference/matrix-postprocess.asl lines
// 254-265, oracle/include/ptovec/oracle/matrix_postprocess.hpp), with the PreQuantMode table of
// B.FPATR-modes.asl.
//
// Inputs, in this order: value (the accumulator word: fp32, s32, or for PreQuantMode 0 also u32),
// pre_quant_mode (u8), relu_mode (u8), quant_param (u64), relu_param (u64). The destination is
// BundleFPATROutputType(PreQuantMode), except for mode 0, which keeps the accumulator's own type
// (reference/README.md). The domain holds legal combinations only (check_domain): a legal mode
// for the accumulator type and destination, ReluMode 0..3, a quant parameter word that passes
// BundleFPATRQuantParameterWordLegal for the modes that read one (scalar or vector scale, shift)
// and is zero otherwise, a ReLU parameter word that passes BundleFPATRReluParameterWordLegal for
// ReluMode 2 and 3 and is zero otherwise. The legal controls depend on the mode
// (BundleFPATRDATRFieldsLegal: check_control); a pair's files hold the controls legal for every
// mode of that pair (pair_controls; docs/architecture.md, "Controls that depend on the input").
// The vector records the control as given; the op applies MatrixFPATREffectiveControl.
//
// This file: evaluation, the domain and control checks and the registry entry; the mode table is
// in modes.cpp, the strategies in strategies.cpp, ties.cpp and thresholds.cpp, the outcome
// classes in classes.cpp.
#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "../outcome_classes.hpp"
#include "modes.hpp"
#include "ptovec/generator/domains.hpp"
#include "ptovec/generator/ops.hpp"
#include "ptovec/generator/word_text.hpp"
#include "ptovec/generator/writers.hpp"
#include "ptovec/oracle/fast.hpp"
#include "ptovec/oracle/formats.hpp"
#include "ptovec/oracle/matrix_postprocess.hpp"
#include "ptovec/oracle/matrix_quantization.hpp"
#include "ptovec/oracle/numeric.hpp"
#include "strategies.hpp"

namespace ptovec::generator {

namespace {

using namespace fpatr;  // NOLINT(google-build-using-namespace): the op's own parts
using oracle::Format;

std::string Hex2(Word w) { return HexWord(w, TileDataType::U8); }
std::string Hex64(Word w) { return HexWord(w, TileDataType::U64); }

// ---- evaluation ----

Encoded EvaluateFpatr(TypePair pair, const Inputs& in, NumericExecutionControl control) {
  const Encoded r = oracle::FastTileProfileMatrixPostProcessWithFlags(
      in[kValue], ModeOf(in), ReluOf(in), pair.dst, in[kQuant], in[kReluParam], control);
  return {oracle::LowBits(r.word, Format(pair.dst).width), r.status};
}

Encoded EvaluateFpatrReference(TypePair pair, const Inputs& in, NumericExecutionControl control) {
  const Encoded r = oracle::TileProfileMatrixPostProcessWithFlags(
      in[kValue], ModeOf(in), ReluOf(in), 0, pair.dst, in[kQuant], in[kReluParam], control);
  return {oracle::LowBits(r.word, Format(pair.dst).width), r.status};
}

std::string ModesText(TypePair pair) {
  std::string s;
  for (const unsigned m : ModesOf(pair)) s += (s.empty() ? "" : ", ") + std::to_string(m);
  return s;
}

// Bit m set: PreQuantMode m belongs to `pair` (ModesOf), for every pair and file group of the
// table, computed once (check_domain asks on every case, shrink on every candidate).
std::uint64_t ModeMask(TypePair pair) {
  static const std::vector<std::pair<TypePair, std::uint64_t>> masks = [] {
    std::vector<std::pair<TypePair, std::uint64_t>> out;
    for (const TypePair whole : FpatrPairs()) {
      // Group 0, the whole pair, then each of ModeGroups (one for a pair kept in one file).
      const std::size_t groups = ModeGroups(whole).size();
      for (std::size_t k = 0; k <= groups; ++k) {
        const TypePair p{whole.src, whole.dst, static_cast<std::uint8_t>(k)};
        std::uint64_t mask = 0;
        for (const unsigned m : ModesOf(p)) mask |= std::uint64_t{1} << m;
        out.emplace_back(p, mask);
      }
    }
    return out;
  }();
  for (const auto& [p, mask] : masks) {
    if (p == pair) return mask;
  }
  return 0;
}

// The values pre_quant_mode and relu_mode take in the pair's domain (OpDef::slot_values).
std::vector<Word> FpatrSlotValues(TypePair pair, std::size_t slot) {
  std::vector<Word> out;
  if (slot == kMode) {
    const std::uint64_t mask = ModeMask(pair);
    for (unsigned m = 0; m < 64; ++m) {
      if ((mask >> m) & 1) out.push_back(m);
    }
  } else if (slot == kRelu) {
    out = {0, 1, 2, 3};
  }
  return out;
}

// Why `mode` is not a PreQuantMode of `pair` (ModeMask has no bit for it).
std::string ModeRefusal(TypePair pair, Word mode) {
  const std::string types =
      std::string(Format(pair.src).name) + " -> " + std::string(Format(pair.dst).name);
  if (mode > 63 || !oracle::BundleFPATRPreQuantModeLegal(static_cast<unsigned>(mode))) {
    return "pre_quant_mode " + Hex2(mode) +
           " is not a legal B.FPATR PreQuantMode (BundleFPATRPreQuantModeLegal); " + types +
           " accepts " + ModesText(pair.Whole());
  }
  const auto m = static_cast<unsigned>(mode);
  if (!oracle::BundleFPATRAccumulatorTypeLegal(m, pair.src) ||
      DestinationOf(m, pair.src) != pair.dst) {
    return "pre_quant_mode " + Hex2(mode) + " (" + std::to_string(m) + ") does not take " + types +
           " (its accumulator and output type differ); " + types + " accepts " +
           ModesText(pair.Whole());
  }
  return "pre_quant_mode " + Hex2(mode) + " (" + std::to_string(m) + ") is not in file group " +
         FpatrFileGroups(pair)[pair.group - 1U] + " of " + types + "; it accepts " +
         ModesText(pair);
}

std::optional<std::string> CheckFpatrDomain(TypePair pair, const Inputs& in) {
  const Word mode = in[kMode];
  if (mode > 63 || ((ModeMask(pair) >> mode) & 1) == 0) return ModeRefusal(pair, mode);
  const auto m = static_cast<unsigned>(mode);
  if (in[kRelu] > 3) {
    return "relu_mode " + Hex2(in[kRelu]) +
           " is not a legal ReluMode (BundleFPATRReluModeLegal): accepted 0x00 none, 0x01 ReLU, "
           "0x02 LReLU, 0x03 PReLU";
  }
  if (ReadsQuantParameter(m)) {
    if (!oracle::BundleFPATRQuantParameterWordLegal(m, in[kQuant])) {
      return "quant_param " + Hex64(in[kQuant]) + " fails BundleFPATRQuantParameterWordLegal for " +
             "pre_quant_mode " + std::to_string(m) +
             (oracle::BundleFPATRModeIsShift(m)
                  ? " (a shift mode: only bits 35:32, the shift minus one, may be set)"
                  : " (bits 31:13 a positive normal fp19 scale, bits 12:0 zero" +
                        std::string(
                            oracle::BundleFPATRModeOffsetWidth(m) != 0
                                ? ", bits 36:32 zero, the S" +
                                      std::to_string(oracle::BundleFPATRModeOffsetWidth(m)) +
                                      " offset from bit 37, nothing above)"
                                : ", nothing above bit 31)"));
    }
  } else if (in[kQuant] != 0) {
    return "quant_param " + Hex64(in[kQuant]) + ": pre_quant_mode " + std::to_string(m) +
           " reads no quant parameter; accepted 0x0000000000000000";
  }
  if (in[kRelu] >= 2) {
    if (!oracle::BundleFPATRReluParameterWordLegal(in[kReluParam])) {
      return "relu_param " + Hex64(in[kReluParam]) +
             " fails BundleFPATRReluParameterWordLegal (bits 18:0 +0 or a positive normal fp19 "
             "0x00400..0x3fbff, nothing above)";
    }
  } else if (in[kReluParam] != 0) {
    return "relu_param " + Hex64(in[kReluParam]) + ": relu_mode " + std::to_string(in[kRelu]) +
           " reads no ReLU parameter; accepted 0x0000000000000000";
  }
  return std::nullopt;
}

std::optional<std::string> CheckFpatrControl(TypePair, const Inputs& in,
                                             NumericExecutionControl control) {
  const unsigned m = ModeOf(in);
  if (oracle::BundleFPATRDATRFieldsLegal(m, oracle::DATRRoundingModeField(control.rounding_mode),
                                         control.saturating)) {
    return std::nullopt;
  }
  const std::string given = "--rmode " +
                            std::string(oracle::RoundingModeName(control.rounding_mode)) +
                            (control.saturating ? " --sat on" : "");
  if (m == 0 || oracle::BundleFPATRModeIsShift(m)) {
    return "pre_quant_mode " + std::to_string(m) +
           (m == 0 ? " (no conversion)" : " (a shift mode)") +
           " takes the B.DATR defaults only (BundleFPATRDATRFieldsLegal): " + given +
           " is refused; accepted --rmode RNE --sat off";
  }
  return "pre_quant_mode " + std::to_string(m) + " has fixed rounding (" +
         (m == 25 || m == 28 ? "RHB" : "RNE") +
         "; BundleFPATRDATRFieldsLegal: the B.DATR RMode must be the default): " + given +
         " is refused; accepted --rmode RNE with --sat off or on";
}

// The controls legal for every mode of the pair (of its file group), in ControlsFor order.
std::vector<NumericExecutionControl> FpatrPairControls(TypePair pair) {
  const std::vector<unsigned> modes = ModesOf(pair);
  if (modes.empty()) return {};
  std::vector<NumericExecutionControl> out = ModeControls(modes.front());
  for (const unsigned m : modes) {
    const std::vector<NumericExecutionControl> legal = ModeControls(m);
    std::erase_if(out, [&](NumericExecutionControl c) {
      return std::find(legal.begin(), legal.end(), c) == legal.end();
    });
  }
  return out;
}

// fpatr's share of --samples: a tenth per pair (13 pairs; the op is one step of the suite, and
// its helpers are the ops encode, affine and shift, sampled in full).
constexpr std::uint64_t kSampleDivisor = 10;

}  // namespace

OpDef MakeFpatrOp() {
  OpDef op;
  op.name = "fpatr";
  op.instruction = "B.FPATR";
  op.seed_function = "TileProfileMatrixPostProcessWithFlags";
  op.seed_source =
      "reference/matrix-postprocess.asl lines 180-265 (PreQuantMode table: "
      "reference/B.FPATR-modes.asl lines 5-181)";
  op.summary =
      "B.FPATR matrix post-process of one accumulator element: the PreQuantMode's scale (FP19), "
      "ReLU/LReLU/PReLU multiplier, signed zero, S5/S9/S17 affine, shift or direct encoding into "
      "BundleFPATROutputType(mode) (mode 0: dst = src); rounding per "
      "MatrixFPATREffectiveControl";
  op.slots = {
      {"value", SlotRole::Source, TileDataType::FP32,
       "the accumulator word (fp32 any code, NaN and Inf included; s32, u32 any word)"},
      {"pre_quant_mode", SlotRole::Fixed, TileDataType::U8,
       "the B.FPATR PreQuantMode (6 bits): a legal mode whose accumulator type is src and whose "
       "output type is dst (mode 0: dst = src)"},
      {"relu_mode", SlotRole::Fixed, TileDataType::U8,
       "the ReluMode: 0 none, 1 ReLU, 2 scalar LReLU, 3 vector PReLU"},
      {"quant_param", SlotRole::Fixed, TileDataType::U64,
       "the 64-bit quant parameter word: BundleFPATRQuantParameterWordLegal for modes with a scale "
       "(fp19 in bits 31:13, S5/S9/S17 offset from bit 37) or a shift (bits 35:32); 0 otherwise"},
      {"relu_param", SlotRole::Fixed, TileDataType::U64,
       "the ReLU parameter word: fp19 +0 or positive normal in bits 18:0 for ReluMode 2 and 3; 0 "
       "otherwise"},
  };
  // The FP19 scale and the FP19 LReLU/PReLU parameter: `shrink` moves them toward 1.0.
  op.value_fields = {{kQuant, 13, TileDataType::FP19}, {kReluParam, 0, TileDataType::FP19}};
  op.uses_controls = true;
  op.legal_pairs = FpatrPairs();
  // The default suite holds every legal control of every mode: a pair whose modes differ in
  // their controls is there as its file groups.
  for (const TypePair pair : op.legal_pairs) {
    const std::size_t groups = FpatrFileGroups(pair).size();
    for (std::size_t k = groups == 0 ? 0 : 1; k <= groups; ++k)
      op.default_suite_pairs.push_back({pair.src, pair.dst, static_cast<std::uint8_t>(k)});
  }
  op.evaluate = EvaluateFpatr;
  op.evaluate_reference = EvaluateFpatrReference;
  op.check_domain = CheckFpatrDomain;
  op.check_control = CheckFpatrControl;
  op.slot_values = FpatrSlotValues;
  op.pair_controls = FpatrPairControls;
  op.file_groups = FpatrFileGroups;
  op.outcome_classes = FpatrOutcomeClasses;
  op.plan = [](TypePair pair) {
    DomainPlan plan = DomainPlan::Custom(
        [pair](const OpDef& self, TypePair, const SamplingOptions& options) {
          return SampledSet(FpatrStrategies(pair), DerivedSeed(options.seed, self, pair),
                            std::max<std::uint64_t>(1, options.samples / kSampleDivisor));
        },
        [pair] { return StrategyGens(FpatrStrategies(pair)); });
    plan.uniform = [pair] { return UniformFpatr(pair); };
    return plan;
  };
  return op;
}

}  // namespace ptovec::generator
