// The B.FPATR PreQuantMode table as op `fpatr` reads it (modes.hpp): legal modes, pairs, file
// groups, controls, the quant parameter word and the last step, from the oracle's BundleFPATR*
// functions (oracle/include/ptovec/oracle/matrix_postprocess.hpp).
#include "modes.hpp"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "ptovec/oracle/formats.hpp"
#include "ptovec/oracle/matrix_postprocess.hpp"
#include "ptovec/oracle/numeric.hpp"

namespace ptovec::generator::fpatr {

using oracle::Format;

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

LastStep LastStepOf(unsigned m, TileDataType dst) {
  if (oracle::BundleFPATRModeIsShift(m)) return LastStep::Shift;
  if (oracle::BundleFPATRModeOffsetWidth(m) != 0) return LastStep::Affine;
  return Format(dst).IsFloating() ? LastStep::FloatingEncode : LastStep::IntegerEncode;
}

}  // namespace ptovec::generator::fpatr
