#include "ptovec/generator/ops.hpp"

#include <algorithm>
#include <cctype>
#include <string>
#include <string_view>
#include <vector>

#include "ptovec/generator/domains.hpp"

namespace ptovec::generator {

// One declaration per op; each op's entry lives in generator/src/ops/<name>.cpp.
OpDef MakeTcvtOp();
OpDef MakeTcvt2026_09Op();
OpDef MakeEncodeOp();
OpDef MakeShiftOp();
OpDef MakeQparamOp();
OpDef MakeTquantOp();
OpDef MakeTdequantOp();
OpDef MakeAffineOp();
OpDef MakeFpatrOp();

namespace {

using oracle::Edition;

// The ops of one edition, in their order, each marked with the edition.
std::vector<OpDef> MakeOps(Edition edition) {
  std::vector<OpDef> v;
  if (edition == Edition::V2026_09) {
    // TCVT converts by value; TQUANT and TDEQUANT are retired (RetiredOps); the rest as in
    // 0.58.3 (docs/semantics.md, "Edition 2026-09").
    v.push_back(MakeTcvt2026_09Op());
    v.push_back(MakeEncodeOp());
    v.push_back(MakeShiftOp());
    v.push_back(MakeQparamOp());
    v.push_back(MakeAffineOp());
    v.push_back(MakeFpatrOp());
  } else {
    v.push_back(MakeTcvtOp());
    v.push_back(MakeEncodeOp());
    v.push_back(MakeShiftOp());
    v.push_back(MakeQparamOp());
    v.push_back(MakeTquantOp());
    v.push_back(MakeTdequantOp());
    v.push_back(MakeAffineOp());
    v.push_back(MakeFpatrOp());
  }
  for (OpDef& op : v) op.edition = edition;
  return v;
}

std::string Lower(std::string_view name) {
  std::string lower(name);
  std::transform(lower.begin(), lower.end(), lower.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return lower;
}

}  // namespace

const std::vector<OpDef>& AllOps() { return AllOps(oracle::kDefaultEdition); }

const std::vector<OpDef>& AllOps(Edition edition) {
  // One registry per edition, built on first use. The domain functions of each op derive from
  // its plan, bound to the op's own entry (the vector's elements keep their addresses when it is
  // moved into the static).
  static const auto build = [](Edition e) {
    std::vector<OpDef> v = MakeOps(e);
    for (OpDef& op : v) DeriveFromPlan(op);
    return v;
  };
  static const std::vector<OpDef> v0_58_3 = build(Edition::V0_58_3);
  if (edition == Edition::V0_58_3) return v0_58_3;
  static const std::vector<OpDef> v2026_09 = build(Edition::V2026_09);
  return v2026_09;
}

const OpDef* FindOp(std::string_view name) { return FindOp(name, oracle::kDefaultEdition); }

const OpDef* FindOp(std::string_view name, Edition edition) {
  const std::string lower = Lower(name);
  for (const OpDef& op : AllOps(edition)) {
    if (op.name == lower) return &op;
  }
  return nullptr;
}

std::string OpNamesList() { return OpNamesList(oracle::kDefaultEdition); }

std::string OpNamesList(Edition edition) {
  std::string out;
  for (const OpDef& op : AllOps(edition)) {
    if (!out.empty()) out += ", ";
    out += op.name;
  }
  return out;
}

const std::vector<RetiredOp>& RetiredOps(Edition edition) {
  // ADR-TILE-0013 (accepted 2026-09-03, target release 0.58.6.0; /work/shared/spec-2026-09
  // README.md): TQUANT and TDEQUANT fault from publication 0.58.5.1.
  static const std::string kAdr =
      "retired by ADR-TILE-0013 (accepted 2026-09-03): from publication 0.58.5.1 its encoding "
      "raises Fault_IllegalInstruction";
  static const std::vector<RetiredOp> none;
  static const std::vector<RetiredOp> v2026_09 = {{"tquant", "TQUANT", kAdr},
                                                  {"tdequant", "TDEQUANT", kAdr}};
  return edition == Edition::V2026_09 ? v2026_09 : none;
}

const RetiredOp* FindRetiredOp(std::string_view name, Edition edition) {
  const std::string lower = Lower(name);
  for (const RetiredOp& op : RetiredOps(edition)) {
    if (op.name == lower) return &op;
  }
  return nullptr;
}

bool IsLegalPair(const OpDef& op, TypePair pair) {
  const TypePair whole = pair.Whole();
  if (std::find(op.legal_pairs.begin(), op.legal_pairs.end(), whole) == op.legal_pairs.end())
    return false;
  return pair.group == 0 || pair.group <= FileGroups(op, whole).size();
}

std::vector<std::string> FileGroups(const OpDef& op, TypePair pair) {
  return op.file_groups ? op.file_groups(pair.Whole()) : std::vector<std::string>{};
}

std::string FileGroupName(const OpDef& op, TypePair pair) {
  const std::vector<std::string> groups = FileGroups(op, pair);
  return pair.group == 0 || pair.group > groups.size() ? std::string() : groups[pair.group - 1U];
}

std::vector<TypePair> FilePairs(const OpDef& op, TypePair pair) {
  const std::size_t n = pair.group != 0 ? 0 : FileGroups(op, pair).size();
  if (n == 0) return {pair};
  std::vector<TypePair> out;
  for (std::size_t k = 1; k <= n; ++k)
    out.push_back({pair.src, pair.dst, static_cast<std::uint8_t>(k)});
  return out;
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

std::vector<NumericExecutionControl> ControlsFor(const OpDef& op, TypePair pair) {
  return op.pair_controls ? op.pair_controls(pair) : ControlsFor(op);
}

NumericExecutionControl LegalControl(const OpDef& op, TypePair pair, const Inputs& in,
                                     NumericExecutionControl control) {
  if (!op.check_control || !op.check_control(pair, in, control)) return control;
  const NumericExecutionControl rne_sat{NumericRoundingMode::RNE, control.saturating};
  if (!op.check_control(pair, in, rne_sat)) return rne_sat;
  return NumericExecutionControl{};
}

void EvaluateBatch(const OpDef& op, TypePair pair, const Inputs* in, std::size_t n,
                   std::span<const NumericExecutionControl> controls, Encoded* out) {
  if (op.evaluate_batch) {
    op.evaluate_batch(pair, in, n, controls, out);
    return;
  }
  for (std::size_t i = 0; i < n; ++i) {
    for (const NumericExecutionControl& c : controls) *out++ = op.evaluate(pair, in[i], c);
  }
}

oracle::ModelAnswer EvaluateModel(const OpDef& op, TypePair pair, const Inputs& in,
                                  NumericExecutionControl control,
                                  const oracle::Behaviour& behaviour) {
  if (op.evaluate_model) return op.evaluate_model(pair, in, control, behaviour);
  return {op.evaluate(pair, in, control), 0, false};
}

std::uint8_t DefaultInputClass(const OpDef& op, TypePair pair, const Inputs& in) {
  const TileDataType type = op.slots.front().TypeFor(pair);
  const oracle::FormatInfo& f = oracle::Format(type);
  if (!f.IsFloating()) {
    const Word w = oracle::LowBits(in[0], f.width);
    if (w == 0) return 11;
    const bool negative = oracle::TileDataTypeIsSigned(type) && ((w >> (f.width - 1)) & 1) != 0;
    return negative ? 13 : 12;
  }
  return static_cast<std::uint8_t>(oracle::TileNumericValueClass(type, in[0]));
}

std::uint8_t InputClassOf(const OpDef& op, TypePair pair, const Inputs& in) {
  return op.input_class ? op.input_class(pair, in) : DefaultInputClass(op, pair, in);
}

std::uint8_t OutcomeOf(Status s) {
  using namespace oracle;  // kStatus*
  return (s & kStatusNV) ? 1 : (s & kStatusOF) ? 2 : (s & kStatusUF) ? 3 : (s & kStatusNX) ? 4 : 0;
}

VectorClass ClassOf(const OpDef& op, TypePair pair, const Inputs& in, Encoded expected) {
  return {InputClassOf(op, pair, in), OutcomeOf(expected.status)};
}

std::string VectorClassName(std::size_t index) {
  static constexpr const char* kInputs[kInputClasses] = {"invalid-encoding",
                                                         "+zero",
                                                         "-zero",
                                                         "+subnormal",
                                                         "-subnormal",
                                                         "+normal",
                                                         "-normal",
                                                         "+inf",
                                                         "-inf",
                                                         "qnan",
                                                         "snan",
                                                         "zero",
                                                         "+int",
                                                         "-int"};
  static constexpr const char* kOutcomeNames[kOutcomes] = {"exact", "invalid", "overflow",
                                                           "underflow", "inexact"};
  return std::string(kInputs[index / kOutcomes]) + " " + kOutcomeNames[index % kOutcomes];
}

bool ControlFilter::Accepts(NumericExecutionControl c) const {
  const bool mode_ok =
      modes.empty() || std::find(modes.begin(), modes.end(), c.rounding_mode) != modes.end();
  const bool sat_ok = sat.empty() || std::find(sat.begin(), sat.end(), c.saturating) != sat.end();
  return mode_ok && sat_ok;
}

std::vector<NumericExecutionControl> ControlFilter::Apply(
    const std::vector<NumericExecutionControl>& controls) const {
  std::vector<NumericExecutionControl> out;
  for (const NumericExecutionControl& c : controls) {
    if (Accepts(c)) out.push_back(c);
  }
  return out;
}

std::vector<NumericExecutionControl> ControlFilter::ControlsOf(const OpDef& op) const {
  return op.uses_controls ? Apply(ControlsFor(op)) : ControlsFor(op);
}

std::vector<NumericExecutionControl> ControlFilter::ControlsOf(const OpDef& op,
                                                               TypePair pair) const {
  return op.uses_controls ? Apply(ControlsFor(op, pair)) : ControlsFor(op, pair);
}

std::string ControlFilter::Describe() const {
  if (all()) return "all";
  std::string out;
  if (modes.empty()) {
    out = "every mode";
  } else {
    for (NumericRoundingMode m : modes) {
      out += (out.empty() ? "" : ",") + std::string(oracle::RoundingModeName(m));
    }
  }
  out += "; Sat ";
  out += sat.empty() ? "off and on" : sat.size() == 2 ? "off and on" : sat[0] ? "on" : "off";
  return out;
}

ControlFilter ParseControlFilter(const std::string& rmodes, const std::string& sat) {
  ControlFilter f;
  if (!rmodes.empty() && rmodes != "all") {
    std::vector<bool> chosen(oracle::kAllRoundingModes.size(), false);
    std::size_t start = 0;
    while (start <= rmodes.size()) {
      const std::size_t comma = std::min(rmodes.find(',', start), rmodes.size());
      const std::string name = rmodes.substr(start, comma - start);
      const auto mode = oracle::ParseRoundingMode(name);
      if (!mode) {
        throw std::invalid_argument("unknown --rmode '" + name +
                                    "' (accepted: RNE RTM RTP RTZ RNA RTO RHB, comma-separated, "
                                    "or all)");
      }
      chosen[static_cast<std::size_t>(*mode)] = true;
      start = comma + 1;
    }
    for (std::size_t k = 0; k < chosen.size(); ++k) {
      if (chosen[k]) f.modes.push_back(oracle::kAllRoundingModes[k]);
    }
    if (f.modes.size() == oracle::kAllRoundingModes.size()) f.modes.clear();
  }
  if (sat == "off") {
    f.sat = {false};
  } else if (sat == "on") {
    f.sat = {true};
  } else if (!sat.empty() && sat != "both") {
    throw std::invalid_argument("unknown --sat '" + sat + "' (accepted: off, on, both)");
  }
  return f;
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
