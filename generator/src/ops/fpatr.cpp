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
#include <algorithm>
#include <array>
#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "outcome_classes.hpp"
#include "ptovec/generator/domains.hpp"
#include "ptovec/generator/ops.hpp"
#include "ptovec/generator/sampler.hpp"
#include "ptovec/generator/writers.hpp"
#include "ptovec/oracle/dyadic.hpp"
#include "ptovec/oracle/fast_reference_quantization.hpp"
#include "ptovec/oracle/formats.hpp"
#include "ptovec/oracle/matrix_postprocess.hpp"
#include "ptovec/oracle/matrix_quantization.hpp"
#include "ptovec/oracle/reference_quantization.hpp"

namespace ptovec::generator {

namespace {

using oracle::BitLength;
using oracle::Format;
using oracle::NumericValueClass;

constexpr std::size_t kValue = 0;
constexpr std::size_t kMode = 1;
constexpr std::size_t kRelu = 2;
constexpr std::size_t kQuant = 3;
constexpr std::size_t kReluParam = 4;

// FP19 words (bits 18:0): 1.0, the smallest and largest positive normals.
constexpr Word kFp19One = 0x1FC00;
using oracle::kFp19MaxNormal;
using oracle::kFp19MinNormal;

// Every legal PreQuantMode, in code order (computed once: check_domain asks on every case).
const std::vector<unsigned>& LegalModes() {
  static const std::vector<unsigned> modes = [] {
    std::vector<unsigned> m;
    for (unsigned code = 0; code < 64; ++code) {
      if (oracle::BundleFPATRPreQuantModeLegal(code)) m.push_back(code);
    }
    return m;
  }();
  return modes;
}

// The destination of `mode` with accumulator `src` (mode 0: src itself).
TileDataType DestinationOf(unsigned mode, TileDataType src) {
  return mode == 0 ? src : oracle::BundleFPATROutputType(mode);
}

// The modes of one whole (src, dst) pair, in code order.
std::vector<unsigned> WholeModesOf(TypePair pair) {
  std::vector<unsigned> out;
  for (const unsigned m : LegalModes()) {
    if (oracle::BundleFPATRAccumulatorTypeLegal(m, pair.src) &&
        DestinationOf(m, pair.src) == pair.dst)
      out.push_back(m);
  }
  return out;
}

// The controls BundleFPATRDATRFieldsLegal allows for PreQuantMode `m`, in ControlsFor order.
std::vector<NumericExecutionControl> ModeControls(unsigned m) {
  std::vector<NumericExecutionControl> out;
  for (const NumericRoundingMode mode : oracle::kAllRoundingModes) {
    for (const bool sat : {false, true}) {
      if (oracle::BundleFPATRDATRFieldsLegal(m, oracle::DATRRoundingModeField(mode), sat))
        out.push_back({mode, sat});
    }
  }
  return out;
}

// The file groups of a whole pair: its modes split by their legal controls (ModeControls), in
// the order of each group's first mode; one group when all modes share their controls.
std::vector<std::vector<unsigned>> ModeGroups(TypePair pair) {
  std::vector<std::vector<unsigned>> groups;
  std::vector<std::vector<NumericExecutionControl>> controls;
  for (const unsigned m : WholeModesOf(pair)) {
    const std::vector<NumericExecutionControl> c = ModeControls(m);
    const auto at = std::find(controls.begin(), controls.end(), c);
    if (at == controls.end()) {
      controls.push_back(c);
      groups.push_back({m});
    } else {
      groups[static_cast<std::size_t>(at - controls.begin())].push_back(m);
    }
  }
  return groups;
}

// The modes of one pair, in code order: the whole pair's (group 0) or those of its file group.
std::vector<unsigned> ModesOf(TypePair pair) {
  if (pair.group == 0) return WholeModesOf(pair);
  const std::vector<std::vector<unsigned>> groups = ModeGroups(pair);
  return pair.group <= groups.size() ? groups[pair.group - 1U] : std::vector<unsigned>{};
}

// The file groups of a pair whose modes do not share their controls: "pqm" and the modes
// ("pqm12-13", "pqm19-20"); none when they do.
std::vector<std::string> FpatrFileGroups(TypePair pair) {
  const std::vector<std::vector<unsigned>> groups = ModeGroups(pair);
  std::vector<std::string> names;
  if (groups.size() < 2) return names;
  for (const std::vector<unsigned>& g : groups) {
    std::string name = "pqm";
    for (std::size_t i = 0; i < g.size(); ++i) name += (i ? "-" : "") + std::to_string(g[i]);
    names.push_back(name);
  }
  return names;
}

// Every (accumulator, destination) pair of the table: accumulators FP32, S32, U32, each with
// its destinations in mode order.
std::vector<TypePair> FpatrPairs() {
  std::vector<TypePair> pairs;
  for (const TileDataType src : {TileDataType::FP32, TileDataType::S32, TileDataType::U32}) {
    for (const unsigned m : LegalModes()) {
      if (!oracle::BundleFPATRAccumulatorTypeLegal(m, src)) continue;
      const TypePair p{src, DestinationOf(m, src)};
      if (std::find(pairs.begin(), pairs.end(), p) == pairs.end()) pairs.push_back(p);
    }
  }
  return pairs;
}

bool ReadsQuantParameter(unsigned mode) {
  return oracle::BundleFPATRModeUsesScalarParameter(mode) ||
         oracle::BundleFPATRModeUsesVectorParameter(mode) || oracle::BundleFPATRModeIsShift(mode);
}

std::string Hex2(Word w) { return HexWord(w, TileDataType::U8); }
std::string Hex64(Word w) { return HexWord(w, TileDataType::U64); }

// ---- evaluation ----

unsigned ModeOf(const Inputs& in) { return static_cast<unsigned>(in[kMode]); }
unsigned ReluOf(const Inputs& in) { return static_cast<unsigned>(in[kRelu]); }

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

// ---- sampling ----

// The quant parameter word of `mode` with FP19 scale `fp19`, offset `offset` (its width's low
// bits from bit 37) or shift code `code` (bits 35:32).
Word QuantWord(unsigned mode, Word fp19, std::int64_t offset, unsigned code) {
  if (oracle::BundleFPATRModeIsShift(mode)) return Word{code & 0xF} << 32;
  if (!ReadsQuantParameter(mode)) return 0;
  const int width = oracle::BundleFPATRModeOffsetWidth(mode);
  Word w = (fp19 & 0x7FFFF) << 13;
  if (width != 0)
    w |= oracle::LowBits(static_cast<Word>(offset), static_cast<unsigned>(width)) << 37;
  return w;
}

// Scales: 1, 1/2, 2, 1.5, 1 + 2^-10, 2^-8, 3 * 2^-6 + ..., the smallest and largest normals.
const std::vector<Word>& EdgeScales() {
  static const std::vector<Word> s = {kFp19One, 0x1F800, 0x20000,        0x1FE00,       0x1FC01,
                                      0x1DC00,  0x1E2AB, kFp19MinNormal, kFp19MaxNormal};
  return s;
}
// ReLU parameters: +0, 1/4, 1/2, 1, 1 + 2^-10, an odd fraction, the smallest and largest normals.
const std::vector<Word>& EdgeReluParams() {
  static const std::vector<Word> s = {0,       0x1F400, 0x1F800,        kFp19One,
                                      0x1FC01, 0x1F555, kFp19MinNormal, kFp19MaxNormal};
  return s;
}

// The quant words of `mode`: each edge scale with each edge offset of its width (or every shift
// code).
WordSet QuantWords(unsigned mode, const std::vector<Word>& scales) {
  std::vector<Word> words;
  if (oracle::BundleFPATRModeIsShift(mode)) {
    for (unsigned c = 0; c < 16; ++c) words.push_back(QuantWord(mode, 0, 0, c));
  } else if (!ReadsQuantParameter(mode)) {
    words.push_back(0);
  } else {
    const int width = oracle::BundleFPATRModeOffsetWidth(mode);
    std::vector<std::int64_t> offsets = {0};
    if (width != 0) {
      const std::int64_t hi = (std::int64_t{1} << (width - 1)) - 1;
      offsets = {0, 1, -1, hi, hi - 1, -hi - 1, -hi};
    }
    for (const Word s : scales) {
      for (const std::int64_t o : offsets) words.push_back(QuantWord(mode, s, o, 0));
    }
  }
  return WordSet::Points(words);
}

// One box per (mode, ReLU group) of `values` (a set of accumulator words): ReluMode 0 and 1 with
// relu_param 0, ReluMode 2 and 3 with `relu_params`.
Boxes ModeReluBoxes(TypePair pair, const WordSet& values, const std::vector<Word>& scales,
                    const std::vector<Word>& relu_params) {
  std::vector<Box> boxes;
  for (const unsigned m : ModesOf(pair)) {
    const WordSet quant = QuantWords(m, scales);
    boxes.push_back(Box{
        {values, WordSet::Points({Word(m)}), WordSet::Range(0, 1), quant, WordSet::Points({0})}});
    boxes.push_back(Box{{values, WordSet::Points({Word(m)}), WordSet::Range(2, 3), quant,
                         WordSet::Points(relu_params)}});
  }
  return Boxes(std::move(boxes));
}

WordSet ValueSpecials(TileDataType src) {
  if (src == TileDataType::FP32) {
    return WordSet::Points({0x00000000, 0x80000000, 0x7F800000, 0xFF800000, 0x7FC00000, 0xFFC00000,
                            0x7F800001, 0xFFBFFFFF, 0x3F800000, 0xBF800000, 0x00000001, 0x80000001,
                            0x00800000, 0x80800000, 0x7F7FFFFF, 0xFF7FFFFF, 0xC0000000});
  }
  if (src == TileDataType::S32) {
    return WordSet::Points({0x00000000, 0x00000001, 0xFFFFFFFF, 0x7FFFFFFF, 0x80000000, 0x80000001,
                            0x00000002, 0xFFFFFFFE, 0x00000100, 0xFFFFFF00});
  }
  return WordSet::Points({0x00000000, 0x00000001, 0xFFFFFFFF, 0x7FFFFFFF, 0x80000000});
}

// Accumulator words whose value (times a power-of-two scale 2^s) lands at and around the edges
// of the S5/S9/S17 intermediate (+/-2^(w-1), their ties) and of the destination (the anchors of
// DestinationAnchors: every value and tie, the overflow threshold), both signs.
WordSet EdgeValues(TypePair pair) {
  std::vector<oracle::Dyadic> anchors;
  if (pair.dst != TileDataType::FP32 && pair.src != TileDataType::U32) {
    // Every anchor of the 8-bit destinations; of FP16 and BF16 (tens of thousands: building
    // their sets would cost more than the file) the lowest and highest 256 (subnormals, the
    // smallest normals, the overflow edge) and every 64th between.
    const std::vector<oracle::Dyadic> all = DestinationAnchors(pair.dst);
    for (std::size_t i = 0; i < all.size(); ++i) {
      if (all.size() <= 1024 || i < 256 || i + 256 >= all.size() || i % 64 == 0) {
        anchors.push_back(all[i]);
      }
    }
  }
  for (const int w : {5, 9, 17}) {
    for (const std::int64_t e : {std::int64_t{1} << (w - 1)}) {
      for (std::int64_t k = -2; k <= 2; ++k) {
        anchors.push_back({false, static_cast<oracle::DyadicSignificand>(2 * (e + k) + 1), -1});
        anchors.push_back({false, static_cast<oracle::DyadicSignificand>(e + k), 0});
      }
    }
  }
  if (pair.src == TileDataType::FP32) return Fp32AroundAnchors(anchors, 2, true);
  return S32AroundAnchors(anchors, 2, true);
}

// Every accumulator word of the pair's source.
WordSet AllValues(TileDataType) { return AllWords(32); }

// Negative accumulator words of moderate magnitude (FP32 exponents -30..40; S32 all negatives).
WordSet NegativeValues(TileDataType src) {
  if (src == TileDataType::FP32) return WordSet::Range(0xB0800000, 0xD3FFFFFF);
  return WordSet::Range(0x80000000, 0xFFFFFFFF);
}

// The accumulator words of one shift code c (shift c + 1): around +/-32767 * 2^shift and
// +/-32768 * 2^shift (the S16 clamp), and around 0 and -1 * 2^shift (the last bit shifted out).
Boxes ShiftEdges(TypePair pair) {
  std::vector<Box> boxes;
  for (const unsigned m : ModesOf(pair)) {
    if (!oracle::BundleFPATRModeIsShift(m)) continue;
    for (unsigned c = 0; c < 16; ++c) {
      const std::int64_t unit = std::int64_t{1} << (c + 1);
      WordSet values;
      for (const std::int64_t edge : {32767 * unit, 32768 * unit, -32768 * unit, -32769 * unit,
                                      std::int64_t{0}, -unit, unit}) {
        values = values.Union(S32Range(std::max<std::int64_t>(edge - 3, INT32_MIN),
                                       std::min<std::int64_t>(edge + 3, INT32_MAX)));
      }
      boxes.push_back(Box{{values, WordSet::Points({Word(m)}), WordSet::Range(0, 1),
                           WordSet::Points({QuantWord(m, 0, 0, c)}), WordSet::Points({0})}});
    }
  }
  return Boxes(std::move(boxes));
}

// A wider set of scales for the random strategy: every exponent 100..150 with fractions 0,
// 0x155, 0x3FF, plus the edge scales.
const std::vector<Word>& RandomScales() {
  static const std::vector<Word> s = [] {
    std::vector<Word> v = EdgeScales();
    for (Word e = 100; e <= 150; ++e) {
      for (const Word f : {Word{0}, Word{0x155}, Word{0x3FF}}) {
        const Word w = (e << 10) | f;
        if (std::find(v.begin(), v.end(), w) == v.end()) v.push_back(w);
      }
    }
    return v;
  }();
  return s;
}

// ---- exact ties after the multiplier ----
//
// MatrixPostQuantBaseWithFlags multiplies the accumulator by one FP19 value (the quant scale, or
// the ReLU parameter for a negative value under LReLU/PReLU) and rounds the exact product once,
// into the destination or (modes with an offset) the S5/S9/S17 intermediate. A rounding mode's
// tie rule shows only when that product is exactly half-way between two results, which a
// uniform draw almost never gives (an odd 24-bit significand times an odd FP19 significand).
// This strategy builds such products: with a multiplier S * 2^k (S odd, at most 11 bits) and a
// value r * 2^m (r odd), the product P * 2^(m+k), P = r * S odd, is a tie of a floating
// destination of precision p when P has exactly p + 1 bits (and lands in the normal range), and
// a tie of an integer result when m + k = -1.

// Up to n odd integers spread evenly over lo..hi (both ends when odd), increasing.
std::vector<std::uint64_t> OddSpread(std::uint64_t lo, std::uint64_t hi, std::uint64_t n) {
  lo |= 1;
  if (hi % 2 == 0) {
    if (hi == 0) return {};
    --hi;
  }
  if (lo > hi) return {};
  const std::uint64_t count = (hi - lo) / 2 + 1;
  std::vector<std::uint64_t> out;
  for (std::uint64_t i = 0; i < std::min(count, n); ++i)
    out.push_back(lo + 2 * (count <= n ? i : (count - 1) * i / (n - 1)));
  return out;
}

// Up to n integers spread evenly over lo..hi (both ends), increasing.
std::vector<int> IntSpread(int lo, int hi, int n) {
  std::vector<int> out;
  if (lo > hi) return out;
  const int count = hi - lo + 1;
  for (int i = 0; i < std::min(count, n); ++i)
    out.push_back(lo + (count <= n ? i : (count - 1) * i / (n - 1)));
  return out;
}

// The accumulator word of +/-r * 2^m (r odd) in `src` (FP32: a normal; S32: an integer), or
// nothing when that type does not hold it.
std::optional<Word> ScaledWord(TileDataType src, bool negative, std::uint64_t r, int m) {
  const int bits = BitLength(r);
  if (src == TileDataType::FP32) {
    const int e = bits - 1 + m;
    if (bits > 24 || e < -126 || e > 127) return std::nullopt;
    // A normal with at most 24 significant bits: the encoding is exact.
    return oracle::FastFP32FiniteEncoding({negative, r, m}, NumericRoundingMode::RNE).word;
  }
  if (m < 0 || bits + m > 31) return std::nullopt;
  const std::int64_t v = static_cast<std::int64_t>(r << m);
  return oracle::LowBits(static_cast<Word>(negative ? -v : v), 32);
}

// The exponents m for which `src` holds r * 2^m with r of `bits` bits (FP32: normals; S32:
// integers below 2^31), as (lowest, highest); empty when lowest > highest.
std::pair<int, int> ScaledExponents(TileDataType src, int bits) {
  if (src == TileDataType::FP32) return {-125 - bits, 128 - bits};
  return {0, 31 - bits};
}

// The FP19 word (bits 18:0) of S * 2^k (S odd, 1..11 bits), or nothing outside the normals.
std::optional<Word> Fp19Of(std::uint64_t s, int k) {
  const int e = k + BitLength(s) - 1 + 127;  // the biased exponent of S * 2^k
  if (e < 1 || e > 254) return std::nullopt;
  const Word fraction = (Word{s} << (11 - BitLength(s))) & 0x3FF;
  return (Word(e) << 10) | fraction;
}

// Where one mode's multiplied value is rounded: into an integer (an S5/S9/S17 intermediate or
// an integer destination: ties at odd halves below 2^(int_bits-1)) or into a floating
// destination (ties at precisions p over normal exponents emin..emax; HiF8's precision tapers
// from 4 to 1 bits with the exponent).
struct TieTarget {
  bool integer = false;
  int int_bits = 0;
  std::vector<int> precisions;
  int emin = 0;
  int emax = 0;
};

std::optional<TieTarget> TieTargetOf(unsigned mode, TypePair pair) {
  if (oracle::BundleFPATRModeIsShift(mode) || pair.src == TileDataType::U32) return std::nullopt;
  const int width = oracle::BundleFPATRModeOffsetWidth(mode);
  const oracle::FormatInfo& f = Format(pair.dst);
  if (width != 0) return TieTarget{true, width, {}, 0, 0};
  if (!f.IsFloating()) return TieTarget{true, static_cast<int>(f.width), {}, 0, 0};
  if (f.kind == oracle::FormatKind::HiF8) return TieTarget{false, 0, {1, 2, 3, 4}, -15, 15};
  return TieTarget{false,
                   0,
                   {static_cast<int>(f.fraction_bits) + 1},
                   1 - f.bias,
                   (1 << f.exponent_bits) - 1 - f.bias};
}

// The odd multiplier significands: 1 (a power of two), small odd ones, and 11-bit ones with
// alternating, all-ones and sparse bits.
constexpr std::array<std::uint64_t, 9> kTieSignificands = {1,     3,     5,     7,    11,
                                                           0x155, 0x555, 0x7FF, 0x401};

// The values r * 2^m whose product with S * 2^k ties (both signs when `both_signs`, else
// negative only).
std::vector<Word> TieValues(TileDataType src, const TieTarget& t, std::uint64_t s, int k,
                            bool both_signs) {
  std::vector<Word> out;
  const auto add = [&](std::uint64_t r, int m) {
    for (const bool negative : {true, false}) {
      if (!negative && !both_signs) continue;
      if (const std::optional<Word> w = ScaledWord(src, negative, r, m)) out.push_back(*w);
    }
  };
  if (t.integer) {
    const int m = -1 - k;
    const int int_bits = std::min(t.int_bits, 32);
    for (const std::uint64_t r : OddSpread(1, ((std::uint64_t{1} << int_bits) - 1) / s, 16))
      add(r, m);
    return out;
  }
  for (const int p : t.precisions) {
    if (BitLength(s) > p + 1) continue;
    const std::uint64_t lo = ((std::uint64_t{1} << p) + s - 1) / s;
    const std::uint64_t hi = ((std::uint64_t{1} << (p + 1)) - 1) / s;
    for (const std::uint64_t r : OddSpread(lo, hi, 8)) {
      // P = r * S has its top bit at p: the product's exponent is p + m + k.
      const auto [lowest, highest] = ScaledExponents(src, BitLength(r));
      for (const int m :
           IntSpread(std::max(lowest, t.emin - p - k), std::min(highest, t.emax - p - k), 4))
        add(r, m);
    }
  }
  return out;
}

// One part per mode of the pair whose multiplied value is rounded: boxes of (tie values, the
// mode, ReluMode 0-1, the multiplier as the quant scale with offsets 0 and 1) and (negative tie
// values, ReluMode 2-3, the multiplier as the ReLU parameter). Modes without a scale (0, 1, 16)
// get the ReLU parameter boxes only.
std::vector<WeightedSet> ScaledTies(TypePair pair) {
  std::vector<WeightedSet> parts;
  for (const unsigned m : ModesOf(pair)) {
    const std::optional<TieTarget> target = TieTargetOf(m, pair);
    if (!target) continue;
    std::vector<Box> boxes;
    for (const std::uint64_t s : kTieSignificands) {
      if (target->integer && BitLength(s) > target->int_bits) continue;
      std::vector<int> ks;
      if (target->integer) {
        for (const int vm : {-12, -4, -1, 0, 1, 4, 10}) ks.push_back(-1 - vm);
      } else {
        for (const int d : {-16, -8, -1, 0, 1, 8, 16}) ks.push_back(d - (BitLength(s) - 1));
      }
      for (const int k : ks) {
        const std::optional<Word> fp19 = Fp19Of(s, k);
        if (!fp19) continue;
        const std::vector<Word> both = TieValues(pair.src, *target, s, k, true);
        const std::vector<Word> negative = TieValues(pair.src, *target, s, k, false);
        const bool scaled = ReadsQuantParameter(m);
        const WordSet quant =
            scaled ? WordSet::Points({QuantWord(m, *fp19, 0, 0), QuantWord(m, *fp19, 1, 0)})
                   : WordSet::Points({0});
        if (scaled && !both.empty()) {
          boxes.push_back(Box{{WordSet::Points(both), WordSet::Points({Word(m)}),
                               WordSet::Range(0, 1), quant, WordSet::Points({0})}});
        }
        if (!negative.empty()) {
          boxes.push_back(Box{{WordSet::Points(negative), WordSet::Points({Word(m)}),
                               WordSet::Range(2, 3), quant, WordSet::Points({*fp19})}});
        }
      }
    }
    if (!boxes.empty()) parts.push_back({1, Boxes(std::move(boxes))});
  }
  return parts;
}

// What the last step of PreQuantMode `m` is (MatrixPostQuantBaseWithFlags lines 180-252): the
// S32 -> S16 shift, the S5/S9/S17 affine step, or an encoding of value x multiplier into an
// integer or floating destination.
enum class LastStep { Shift, Affine, IntegerEncode, FloatingEncode };

LastStep LastStepOf(unsigned m, TileDataType dst) {
  if (oracle::BundleFPATRModeIsShift(m)) return LastStep::Shift;
  if (oracle::BundleFPATRModeOffsetWidth(m) != 0) return LastStep::Affine;
  return Format(dst).IsFloating() ? LastStep::FloatingEncode : LastStep::IntegerEncode;
}

// ---- products at a floating destination's thresholds ----
//
// Whether value x multiplier lands just below, at or just above the overflow threshold of a
// floating destination (largest finite L, T = L + half its ulp, L + its ulp), or just below its
// smallest normal N (within half a subnormal step q, or within q), or on a subnormal, depends on
// the product's low bits: few products of a 24-bit (or S32) value and an 11-bit FP19 multiplier
// land there, and no draw finds them by chance (a review showed, for example, that every
// threshold class of FP32 -> FP32 was unreached). This strategy finds them by construction, as
// `affine`'s InexactAtFarEdges does for integer range ends: for each target t and multiplier
// S * 2^k (S odd: small ones, 11-bit ones spread evenly, and the odd divisors of T's odd
// significand, which give products exactly at T), the accumulator words next to t / (S * 2^k),
// kept when their product falls in one of the intervals (the first few per interval).

// The odd divisors of n (odd) that are at most 2047, increasing.
std::vector<std::uint64_t> OddDivisorsUpTo2047(std::uint64_t n) {
  std::vector<std::uint64_t> out;
  for (std::uint64_t d = 1; d <= 2047 && d <= n; d += 2) {
    if (n % d == 0) out.push_back(d);
  }
  return out;
}

// (multiplier FP19 word, accumulator word) pairs whose product lands in each threshold interval
// of the pair's floating destination (positive values; the strategy adds the sign).
std::vector<std::pair<Word, Word>> ThresholdProducts(TypePair pair) {
  using oracle::Real;
  const TileDataType dst = pair.dst;
  const oracle::FormatInfo& f = Format(dst);
  const auto value_of = [dst](Word code) {
    return oracle::ToReal(oracle::DyadicFromFiniteCode(dst, code));
  };
  // The largest finite L and the smallest positive normal N, and the values just below them
  // (by value: HiF8's codes are not in value order). FP32: 2^-126 and its neighbours.
  const Real largest = value_of(f.largest_finite_code);
  Real normal = oracle::PowerOfTwo(-126);
  Real below_largest = value_of(f.largest_finite_code - 1);
  Real below_normal = normal - oracle::PowerOfTwo(-149);
  if (dst != TileDataType::FP32) {
    std::optional<Real> n;
    for (Word w = 1; w < (Word{1} << f.width); ++w) {
      if (oracle::TileNumericValueClass(dst, w) != NumericValueClass::PositiveNormal) continue;
      const Real v = value_of(w);
      if (!n || v < *n) n = v;
    }
    normal = *n;
    below_largest = 0;
    below_normal = 0;
    for (Word w = 1; w < (Word{1} << f.width); ++w) {
      const NumericValueClass c = oracle::TileNumericValueClass(dst, w);
      if (c != NumericValueClass::PositiveNormal && c != NumericValueClass::PositiveSubnormal)
        continue;
      const Real v = value_of(w);
      if (v < largest && v > below_largest) below_largest = v;
      if (v < normal && v > below_normal) below_normal = v;
    }
  }
  const Real ulp = largest - below_largest;
  const Real threshold = largest + ulp / 2;
  const Real beyond = largest + ulp;
  const Real step = normal - below_normal;
  // Intervals: (L, T), T, (T, L + ulp), (N - q/2, N), (N - q, N - q/2], a subnormal k * q'.
  constexpr std::size_t kIntervals = 6;
  const auto interval = [&](const Real& x) -> std::optional<std::size_t> {
    if (x > largest && x < threshold) return 0;
    if (x == threshold) return 1;
    if (x > threshold && x < beyond) return 2;
    if (x < normal && x > normal - step / 2) return 3;
    if (x <= normal - step / 2 && x > normal - step) return 4;
    if (x > 0 && x < normal - step && denominator(Real(x / step)) == 1) return 5;
    return std::nullopt;
  };
  const oracle::Dyadic t_dyadic = *oracle::DyadicFromReal(threshold);
  const std::uint64_t t_odd = static_cast<std::uint64_t>(
      t_dyadic.significand >> std::countr_zero(static_cast<std::uint64_t>(t_dyadic.significand)));
  std::vector<std::uint64_t> significands = {1, 3, 5, 7, 9, 13, 31, 0x401, 0x555, 0x7FF};
  for (const std::uint64_t d : OddDivisorsUpTo2047(t_odd)) significands.push_back(d);
  for (const std::uint64_t d : OddSpread(1025, 2047, 24)) significands.push_back(d);
  std::sort(significands.begin(), significands.end());
  significands.erase(std::unique(significands.begin(), significands.end()), significands.end());

  const bool fp32 = pair.src == TileDataType::FP32;
  const std::vector<int> value_exponents =
      fp32 ? std::vector<int>{-24, 0, 24} : std::vector<int>{10, 25};
  constexpr int kFound = 3;
  std::array<int, kIntervals> found{};
  std::vector<std::pair<Word, Word>> out;
  for (const Real& t : {largest + ulp / 4, threshold, threshold + ulp / 4, normal - step / 4,
                        normal - step * 3 / 4, normal / 2}) {
    const oracle::Dyadic td = *oracle::DyadicFromReal(t);
    const int e_t = oracle::DyadicLeadingExponent(td);
    for (const std::uint64_t s : significands) {
      for (const int e_v : value_exponents) {
        const int k = e_t - e_v - (BitLength(s) - 1);
        const std::optional<Word> fp19 = Fp19Of(s, k);
        if (!fp19) continue;
        const Real multiplier = Real(static_cast<std::int64_t>(s)) * oracle::PowerOfTwo(k);
        const Real centre = t / multiplier;
        std::vector<Word> values;
        if (fp32) {
          // centre is not dyadic for S > 1: bracket its truncation to 2^(e_v - 40), which is
          // finer than an FP32 ulp there, so the word at or below is the same or one below.
          const Real truncated = Real(oracle::RoundDown(centre * oracle::PowerOfTwo(40 - e_v))) *
                                 oracle::PowerOfTwo(e_v - 40);
          const std::uint32_t c = Fp32Bracket(truncated).first;
          for (int d = -2; d <= 2; ++d) {
            const std::uint32_t v = Fp32Step(c, d);
            if (Fp32IsFinite(v) && (v & 0x80000000) == 0 && (v & 0x7FFFFFFF) != 0)
              values.push_back(v);
          }
        } else {
          const auto c = static_cast<std::int64_t>(oracle::RoundDown(centre));
          for (std::int64_t v = c - 2; v <= c + 2; ++v) {
            if (v >= 1 && v <= INT32_MAX) values.push_back(static_cast<Word>(v));
          }
        }
        for (const Word v : values) {
          const Real x =
              (fp32 ? oracle::ReferenceFP32FiniteValue(v) : Real(static_cast<std::int64_t>(v))) *
              multiplier;
          const std::optional<std::size_t> at = interval(x);
          if (!at || found[*at] >= kFound) continue;
          const std::pair<Word, Word> candidate{*fp19, v};
          if (std::find(out.begin(), out.end(), candidate) != out.end()) continue;
          ++found[*at];
          out.push_back(candidate);
        }
      }
    }
  }
  std::sort(out.begin(), out.end());
  return out;
}

// One part per mode whose last step encodes into the floating destination: boxes of (the
// threshold values of one multiplier, both signs, ReluMode 0, that multiplier as the quant
// scale) for modes with a scale, and (the values negated, ReluMode 2-3, the multiplier as the
// ReLU parameter) for every mode.
std::vector<WeightedSet> ThresholdsAfterScale(TypePair pair) {
  std::vector<WeightedSet> parts;
  if (!Format(pair.dst).IsFloating()) return parts;
  std::vector<unsigned> modes;
  for (const unsigned m : ModesOf(pair)) {
    if (LastStepOf(m, pair.dst) == LastStep::FloatingEncode) modes.push_back(m);
  }
  if (modes.empty()) return parts;
  const std::vector<std::pair<Word, Word>> products = ThresholdProducts(pair);
  const Word sign = pair.src == TileDataType::FP32 ? Word{0x80000000} : 0;
  const auto negate = [&](Word v) {
    return sign != 0 ? v | sign
                     : oracle::LowBits(static_cast<Word>(-static_cast<std::int64_t>(v)), 32);
  };
  for (const unsigned m : modes) {
    std::vector<Box> boxes;
    const bool scaled = oracle::BundleFPATRModeUsesScalarParameter(m) ||
                        oracle::BundleFPATRModeUsesVectorParameter(m);
    for (std::size_t i = 0; i < products.size();) {
      const Word fp19 = products[i].first;
      std::vector<Word> both;
      std::vector<Word> negative;
      for (; i < products.size() && products[i].first == fp19; ++i) {
        both.push_back(products[i].second);
        both.push_back(negate(products[i].second));
        negative.push_back(negate(products[i].second));
      }
      std::sort(both.begin(), both.end());
      std::sort(negative.begin(), negative.end());
      if (scaled) {
        boxes.push_back(
            Box{{WordSet::Points(both), WordSet::Points({Word(m)}), WordSet::Points({0}),
                 WordSet::Points({QuantWord(m, fp19, 0, 0)}), WordSet::Points({0})}});
      }
      boxes.push_back(
          Box{{WordSet::Points(negative), WordSet::Points({Word(m)}), WordSet::Range(2, 3),
               WordSet::Points({scaled ? QuantWord(m, kFp19One, 0, 0) : Word{0}}),
               WordSet::Points({fp19})}});
    }
    if (!boxes.empty()) parts.push_back({1, Boxes(std::move(boxes))});
  }
  return parts;
}

std::vector<SampleStrategy> FpatrStrategies(TypePair pair) {
  std::vector<SampleStrategy> s = {
      {"mode_relu_grid", 2,
       ModeReluBoxes(pair, ValueSpecials(pair.src), {kFp19One}, {0, kFp19One})},
      {"specials_edge_parameters", 2,
       ModeReluBoxes(pair, ValueSpecials(pair.src), EdgeScales(), EdgeReluParams())},
  };
  const Boxes shift = ShiftEdges(pair);
  if (shift.size() != 0) s.push_back({"shift_edges", 3, shift});
  s.push_back({"saturation_and_destination_edges", 4,
               ModeReluBoxes(pair, EdgeValues(pair), {kFp19One, 0x1F800, 0x20000}, {0, 0x1F800})});
  if (pair.src != TileDataType::U32) {
    s.push_back({"negative_under_relu", 3,
                 ModeReluBoxes(pair, NegativeValues(pair.src), EdgeScales(), EdgeReluParams())});
  }
  if (std::vector<WeightedSet> ties = ScaledTies(pair); !ties.empty())
    s.push_back({"ties_after_scale", 4, std::move(ties)});
  if (std::vector<WeightedSet> edges = ThresholdsAfterScale(pair); !edges.empty())
    s.push_back({"thresholds_after_scale", 3, std::move(edges)});
  s.push_back(
      {"random", 2, ModeReluBoxes(pair, AllValues(pair.src), RandomScales(), EdgeReluParams())});
  return s;
}

// fpatr's share of --samples: a tenth per pair (13 pairs; the op is one step of the suite, and
// its helpers are the ops encode, affine and shift, sampled in full).
constexpr std::uint64_t kSampleDivisor = 10;

// Uniform over the legal domain: a uniform mode of the pair, ReluMode, accumulator word, scale
// (any positive normal fp19), offset of the width, shift code and ReLU parameter.
rc::Gen<Inputs> UniformFpatr(TypePair pair) {
  const std::vector<unsigned> modes = ModesOf(pair);
  return rc::gen::apply(
      [modes](std::size_t mi, unsigned relu, std::uint32_t value, std::uint32_t scale,
              std::uint32_t offset_bits, unsigned code, std::uint32_t relu_param) {
        const unsigned m = modes[mi % modes.size()];
        const int width = oracle::BundleFPATRModeOffsetWidth(m);
        const std::int64_t offset =
            width == 0 ? 0
                       : static_cast<std::int64_t>(oracle::SignExtend(
                             oracle::LowBits(offset_bits, static_cast<unsigned>(width)),
                             static_cast<unsigned>(width)));
        const Word rp = relu >= 2 ? Word{relu_param} : 0;
        return Inputs{value, m, relu, QuantWord(m, scale, offset, code), rp};
      },
      rc::gen::inRange<std::size_t>(0, modes.size()), rc::gen::inRange(0U, 4U),
      rc::gen::arbitrary<std::uint32_t>(), rc::gen::inRange<std::uint32_t>(0x400, 0x3FC00),
      rc::gen::arbitrary<std::uint32_t>(), rc::gen::inRange(0U, 16U),
      rc::gen::oneOf(rc::gen::just<std::uint32_t>(0),
                     rc::gen::inRange<std::uint32_t>(0x400, 0x3FC00)));
}

// ---- outcome classes (ptovec coverage) ----

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
    // other than the mode's own, the final encoding's ties and rounding to zero after an
    // S5/S9/S17 intermediate (the affine classifier never sets them there: the rounding
    // happened in the intermediate), and a negative value into an unsigned destination when
    // the destination is signed.
    const int own_width = oracle::BundleFPATRModeOffsetWidth(m);
    const bool signed_dst = !Format(dst).IsFloating() && oracle::TileDataTypeIsSigned(dst);
    for (std::size_t k = 0; k < last.size(); ++k) {
      const std::string& name = last[k].name;
      const bool other_width = b.step == LastStep::Affine && name.starts_with("width ") &&
                               name != "width " + std::to_string(own_width);
      const bool after_intermediate =
          b.step == LastStep::Affine &&
          (name == "dst tie rounded up" || name == "dst tie rounded down" ||
           name == "dst rounding to zero from a non-zero value");
      const bool unsigned_only = signed_dst && name.ends_with("negative into unsigned");
      if (other_width || after_intermediate || unsigned_only) continue;
      b.last_bits.push_back({k, classes.size()});
      classes.push_back({mode + ": " + name, last[k].description + " (the mode's last step)"});
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
    std::array<ClassMask, 14> last{};  // one per control: at most 7 modes x 2 Sat
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
