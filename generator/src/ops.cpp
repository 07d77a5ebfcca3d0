#include "ptovec/generator/ops.hpp"

#include <algorithm>
#include <cctype>

namespace ptovec::generator {

// One declaration per op; each op's entry lives in generator/src/ops/<name>.cpp.
OpDef MakeTcvtOp();
OpDef MakeEncodeOp();
OpDef MakeShiftOp();
OpDef MakeQparamOp();
OpDef MakeTquantOp();
OpDef MakeTdequantOp();
OpDef MakeAffineOp();

const std::vector<OpDef>& AllOps() {
  static const std::vector<OpDef> ops = [] {
    std::vector<OpDef> v;
    v.push_back(MakeTcvtOp());
    v.push_back(MakeEncodeOp());
    v.push_back(MakeShiftOp());
    v.push_back(MakeQparamOp());
    v.push_back(MakeTquantOp());
    v.push_back(MakeTdequantOp());
    v.push_back(MakeAffineOp());
    return v;
  }();
  return ops;
}

const OpDef* FindOp(std::string_view name) {
  std::string lower(name);
  std::transform(lower.begin(), lower.end(), lower.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  for (const OpDef& op : AllOps()) {
    if (op.name == lower) return &op;
  }
  return nullptr;
}

std::string OpNamesList() {
  std::string out;
  for (const OpDef& op : AllOps()) {
    if (!out.empty()) out += ", ";
    out += op.name;
  }
  return out;
}

bool IsLegalPair(const OpDef& op, TypePair pair) {
  return std::find(op.legal_pairs.begin(), op.legal_pairs.end(), pair) != op.legal_pairs.end();
}

std::vector<NumericExecutionControl> ControlsFor(const OpDef& op) {
  if (!op.uses_controls) return {NumericExecutionControl{}};
  std::vector<NumericExecutionControl> controls;
  for (NumericRoundingMode mode : oracle::kAllRoundingModes) {
    controls.push_back({mode, false});
    controls.push_back({mode, true});
  }
  return controls;
}

std::uint64_t DerivedSeed(std::uint64_t seed, const OpDef& op, TypePair pair) {
  // FNV-1a over "op/src/dst", then mixed with the user's seed (splitmix64 finalizer).
  std::uint64_t h = 1469598103934665603ULL;
  const std::string key = op.name + "/" + std::string(oracle::Format(pair.src).name) + "/" +
                          std::string(oracle::Format(pair.dst).name);
  for (unsigned char c : key) {
    h ^= c;
    h *= 1099511628211ULL;
  }
  std::uint64_t z = seed + 0x9E3779B97F4A7C15ULL * (h | 1);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
  return z ^ (z >> 31);
}

}  // namespace ptovec::generator
