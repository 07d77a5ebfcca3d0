// Op `fpatr`'s sampling strategies (strategies.hpp): every mode with every ReluMode over the
// accumulator specials, edge scales and ReLU parameters, the shift modes' clamp edges, values at
// the S5/S9/S17 and destination edges, negative values under ReLU, the ties and thresholds
// after the multiplier (ties.cpp, thresholds.cpp) and random tuples; and the uniform generator.
#include "strategies.hpp"

#include <algorithm>
#include <cstdint>
#include <utility>
#include <vector>

#include "modes.hpp"
#include "ptovec/generator/domains.hpp"
#include "ptovec/generator/ops.hpp"
#include "ptovec/generator/sampler.hpp"
#include "ptovec/generator/tuple_set.hpp"
#include "ptovec/oracle/dyadic.hpp"
#include "ptovec/oracle/format_edges.hpp"
#include "ptovec/oracle/matrix_postprocess.hpp"
#include "ptovec/oracle/matrix_quantization.hpp"
#include "ptovec/oracle/numeric.hpp"

namespace ptovec::generator::fpatr {

namespace {

using oracle::kFp19MaxNormal;
using oracle::kFp19MinNormal;

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

}  // namespace

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

}  // namespace ptovec::generator::fpatr
