#include "ptovec/generator/cases.hpp"

#include <charconv>

#include "ptovec/generator/writers.hpp"

namespace ptovec::generator {

namespace {
std::string Quoted(std::string_view s) { return "'" + std::string(s) + "'"; }
}  // namespace

Word ParseWord(std::string_view text, TileDataType type, std::string_view slot_name) {
  const oracle::FormatInfo& f = oracle::Format(type);
  const std::string accepted =
      HexWord(0, type) + ".." + HexWord(oracle::LowBits(~Word{0}, f.width), type);
  const auto malformed = [&] {
    return InputError("malformed " + std::string(slot_name) + " word " + Quoted(text) +
                      " (expected 0x followed by hex digits, " + std::string(f.name) + " accepts " +
                      accepted + ")");
  };
  if (text.size() < 3 || text[0] != '0' || (text[1] != 'x' && text[1] != 'X')) throw malformed();
  const std::string_view digits = text.substr(2);
  Word value = 0;
  const auto [end, error] = std::from_chars(digits.data(), digits.data() + digits.size(), value, 16);
  if (error == std::errc::result_out_of_range) {
    throw InputError(std::string(slot_name) + " word " + Quoted(text) + " is too wide for " +
                     std::string(f.name) + " (" + std::to_string(f.width) + " bits: " + accepted +
                     ")");
  }
  if (error != std::errc() || end != digits.data() + digits.size()) throw malformed();
  if (oracle::LowBits(value, f.width) != value) {
    throw InputError(std::string(slot_name) + " word " + Quoted(text) + " is too wide for " +
                     std::string(f.name) + " (" + std::to_string(f.width) + " bits: " + accepted +
                     ")");
  }
  return value;
}

const OpDef& RequireOp(std::string_view name) {
  const OpDef* op = FindOp(name);
  if (op == nullptr) {
    throw InputError("unknown op " + Quoted(name) + " (accepted: " + OpNamesList() + ")");
  }
  return *op;
}

TileDataType RequireType(std::string_view name, std::string_view option) {
  const auto type = oracle::ParseTileDataType(name);
  if (!type) {
    throw InputError("unknown type " + Quoted(name) + " for " + std::string(option) +
                     " (accepted: " + oracle::FormatNamesList() + ")");
  }
  return *type;
}

NumericRoundingMode RequireRoundingMode(std::string_view name) {
  const auto mode = oracle::ParseRoundingMode(name);
  if (!mode) {
    throw InputError("unknown rounding mode " + Quoted(name) + " (accepted: " +
                     std::string(oracle::RoundingModeNamesList()) + ")");
  }
  return *mode;
}

namespace {
std::string LegalPairsFrom(const OpDef& op, TileDataType src) {
  std::string out;
  for (const TypePair& p : op.legal_pairs) {
    if (p.src != src) continue;
    if (!out.empty()) out += ", ";
    out += oracle::Format(p.dst).name;
  }
  return out;
}
}  // namespace

Case MakeCase(std::string_view op_name, std::string_view src, std::string_view dst,
              std::string_view rmode, bool sat, const std::vector<std::string>& inputs) {
  Case c;
  c.op = &RequireOp(op_name);
  c.pair = {RequireType(src, "--src"), RequireType(dst, "--dst")};
  if (!IsLegalPair(*c.op, c.pair)) {
    const std::string from = LegalPairsFrom(*c.op, c.pair.src);
    throw InputError(c.op->name + " does not accept " + std::string(src) + " -> " +
                     std::string(dst) + " (" +
                     (from.empty() ? "no destination accepts --src " + std::string(src)
                                   : "--dst accepted for " + std::string(src) + ": " + from) +
                     "; `ptovec list` shows every pair)");
  }
  c.control = {RequireRoundingMode(rmode), sat};
  if (!c.op->uses_controls && (c.control.rounding_mode != NumericRoundingMode::RNE || sat)) {
    // Its vectors record RNE, Sat off: echoing another mode or Sat would describe no vector.
    std::string drop;
    if (c.control.rounding_mode != NumericRoundingMode::RNE) drop = "--rmode " + std::string(rmode);
    if (sat) drop += (drop.empty() ? "" : " and ") + std::string("--sat");
    throw InputError(c.op->name + " has no rounding mode and no Sat (its vectors record RNE, Sat " +
                     "off): drop " + drop);
  }
  const std::vector<Slot>& slots = c.op->slots;
  if (inputs.size() != slots.size()) {
    std::string names;
    for (const Slot& s : slots) names += (names.empty() ? "" : ", ") + s.name;
    throw InputError(c.op->name + " takes " + std::to_string(slots.size()) + " input" +
                     (slots.size() == 1 ? "" : "s") + " (" + names + "), got " +
                     std::to_string(inputs.size()));
  }
  for (std::size_t i = 0; i < slots.size(); ++i) {
    c.in[i] = ParseWord(inputs[i], slots[i].TypeFor(c.pair), slots[i].name);
  }
  if (auto problem = c.op->check_domain(c.pair, c.in)) throw InputError(*problem);
  return c;
}

Encoded EvaluateCase(const Case& c) {
  try {
    return c.op->evaluate(c.pair, c.in, c.control);
  } catch (const std::domain_error& e) {
    throw InputError(c.op->name + ": input outside the seed's domain: " + e.what());
  }
}

nlohmann::ordered_json CaseJson(const Case& c, Encoded result) {
  nlohmann::ordered_json j;
  j["op"] = c.op->name;
  j["src"] = oracle::Format(c.pair.src).name;
  j["dst"] = oracle::Format(c.pair.dst).name;
  j["rmode"] = RoundingModeName(c.control.rounding_mode);
  j["sat"] = c.control.saturating;
  nlohmann::ordered_json in = nlohmann::ordered_json::array();
  for (std::size_t i = 0; i < c.op->slots.size(); ++i) {
    in.push_back(HexWord(c.in[i], c.op->slots[i].TypeFor(c.pair)));
  }
  j["in"] = in;
  j["out"] = HexWord(result.word, c.pair.dst);
  j["flags"] = HexStatus(result.status);
  return j;
}

std::string EvalCommand(const Case& c) {
  std::string cmd = "ptovec eval --op " + c.op->name + " --src " +
                    std::string(oracle::Format(c.pair.src).name) + " --dst " +
                    std::string(oracle::Format(c.pair.dst).name) + " --rmode " +
                    std::string(RoundingModeName(c.control.rounding_mode));
  if (c.control.saturating) cmd += " --sat";
  for (std::size_t i = 0; i < c.op->slots.size(); ++i) {
    cmd += " " + HexWord(c.in[i], c.op->slots[i].TypeFor(c.pair));
  }
  return cmd;
}

}  // namespace ptovec::generator
