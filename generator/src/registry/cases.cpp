// One case of an op as text (cases.hpp): words, decimal values and names parsed with one-line
// errors, MakeCase, and the eval JSON line and command of a case.
#include "ptovec/generator/cases.hpp"

#include <optional>
#include <string>

#include "ptovec/generator/word_text.hpp"
#include "ptovec/oracle/edition_2026_09_encoding.hpp"
#include "ptovec/oracle/matrix_quantization.hpp"
#include "ptovec/oracle/reference_quantization.hpp"

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
  const HexParse parsed = ParseHexDigits(digits, value);
  if (parsed == HexParse::TooWide) {
    throw InputError(std::string(slot_name) + " word " + Quoted(text) + " is too wide for " +
                     std::string(f.name) + " (" + std::to_string(f.width) + " bits: " + accepted +
                     ")");
  }
  if (parsed != HexParse::Ok) throw malformed();
  if (oracle::LowBits(value, f.width) != value) {
    throw InputError(std::string(slot_name) + " word " + Quoted(text) + " is too wide for " +
                     std::string(f.name) + " (" + std::to_string(f.width) + " bits: " + accepted +
                     ")");
  }
  return value;
}

namespace {

using oracle::Integer;
using oracle::NumericValueClass;
using oracle::Real;

// A decimal number split as sign, digits and a power of ten: text = sign * digits * 10^exponent.
struct DecimalParts {
  bool negative = false;
  Integer digits = 0;
  int exponent = 0;
};

// [+-]digits[.digits][e[+-]digits] (or .digits); nullopt for anything else.
std::optional<DecimalParts> SplitDecimal(std::string_view t) {
  DecimalParts d;
  std::size_t i = 0;
  if (i < t.size() && (t[i] == '+' || t[i] == '-')) d.negative = t[i++] == '-';
  bool any = false;
  bool point = false;
  for (; i < t.size(); ++i) {
    const char ch = t[i];
    if (ch >= '0' && ch <= '9') {
      d.digits = d.digits * 10 + (ch - '0');
      if (point) --d.exponent;
      any = true;
    } else if (ch == '.' && !point) {
      point = true;
    } else {
      break;
    }
  }
  if (!any) return std::nullopt;
  if (i < t.size() && (t[i] == 'e' || t[i] == 'E')) {
    ++i;
    bool minus = false;
    if (i < t.size() && (t[i] == '+' || t[i] == '-')) minus = t[i++] == '-';
    if (i == t.size()) return std::nullopt;
    int e = 0;
    for (; i < t.size(); ++i) {
      if (t[i] < '0' || t[i] > '9' || e > 100000) return std::nullopt;
      e = e * 10 + (t[i] - '0');
    }
    d.exponent += minus ? -e : e;
  }
  if (i != t.size()) return std::nullopt;
  return d;
}

Integer PowerOfTen(int n) {
  return boost::multiprecision::pow(Integer(10), static_cast<unsigned>(n));
}

// The one code of `type` in class `c`, when there is exactly one (infinities, negative zero).
// Types wider than 16 bits (FP32, FP64) from their row, the others by a search of their codes.
std::optional<Word> CodeOfClass(TileDataType type, NumericValueClass c) {
  const oracle::FormatInfo& f = oracle::Format(type);
  const unsigned width = f.width;
  if (width > 16) {
    if (c == NumericValueClass::PositiveInfinity && f.HasInfinities()) return f.infinity_code;
    if (c == NumericValueClass::NegativeInfinity && f.HasInfinities()) {
      return f.infinity_code | f.SignBit();
    }
    if (c == NumericValueClass::NegativeZero && f.negative_zero) return f.SignBit();
    return std::nullopt;
  }
  std::optional<Word> found;
  for (Word w = 0; w < (Word{1} << width); ++w) {
    if (oracle::TileNumericValueClass(type, w) == c) {
      if (found) return std::nullopt;
      found = w;
    }
  }
  return found;
}

// m * 2^e (m > 0) as an exact decimal, or "m*2^e" (m odd) past 30 significant digits.
std::string ExactText(bool negative, Integer m, int e) {
  while ((m & 1) == 0) {  // m odd: the value is m * 2^e in lowest terms
    m >>= 1;
    ++e;
  }
  const std::string sign = negative ? "-" : "";
  // Integer digits, with the point k places from the right: m * 2^e, or m * 5^k / 10^k for
  // e = -k.
  const int k = e < 0 ? -e : 0;
  const std::string digits =
      (e >= 0 ? Integer(m << e) : Integer(m * boost::multiprecision::pow(Integer(5), k))).str();
  if (digits.size() > 30) {
    return sign + (m == 1 ? "" : m.str() + "*") + "2^" + std::to_string(e);
  }
  if (k == 0) return sign + digits;
  const std::string padded =
      std::string(digits.size() <= static_cast<std::size_t>(k) ? k + 1 - digits.size() : 0, '0') +
      digits;
  return sign + padded.substr(0, padded.size() - k) + "." + padded.substr(padded.size() - k);
}

// The code of `type` nearest to `value` (RNE, Sat off) by ReferenceMatrixFloatingEncoding: the
// seeds' for the types of edition 0.58.3, edition 2026-09's for FP64, E6M2 and the FP4 lanes.
Encoded EncodeNearest(const Real& value, TileDataType type) {
  const NumericExecutionControl rne{oracle::NumericRoundingMode::RNE, false};
  if (type == TileDataType::FP64 || type == TileDataType::E6M2 || type == TileDataType::E2M1X2 ||
      type == TileDataType::E1M2X2) {
    return oracle::edition_2026_09::ReferenceMatrixFloatingEncoding(value, type, rne);
  }
  return oracle::ReferenceMatrixFloatingEncoding(value, type, rne);
}

}  // namespace

std::optional<DecimalInput> ParseDecimalInput(std::string_view text, TileDataType type,
                                              std::string_view slot_name) {
  const oracle::FormatInfo& f = oracle::Format(type);
  const std::string quoted = Quoted(text);
  std::string lower(text);
  for (char& ch : lower) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
  const bool infinity = lower == "inf" || lower == "+inf" || lower == "-inf";
  const std::optional<DecimalParts> d = infinity ? std::nullopt : SplitDecimal(text);
  if (!infinity && !d) return std::nullopt;
  const std::string what = std::string(slot_name) + " " + quoted;
  if (type == TileDataType::E8M0 || type == TileDataType::FP19 || type == TileDataType::RCPE6M2) {
    throw InputError(what + ": " + std::string(f.name) +
                     " words are given in hex (0x...), not as decimal values");
  }
  if (infinity) {
    const auto c =
        lower[0] == '-' ? NumericValueClass::NegativeInfinity : NumericValueClass::PositiveInfinity;
    const std::optional<Word> code = f.IsFloating() ? CodeOfClass(type, c) : std::nullopt;
    if (!code) throw InputError(what + ": " + std::string(f.name) + " has no infinity");
    return DecimalInput{*code, true};
  }
  if (d->exponent > 400 || d->exponent < -400) {
    throw InputError(what + " has an exponent outside -400..400");
  }
  if (!f.IsFloating()) {
    Integer v = d->digits;
    if (d->exponent >= 0) {
      v *= PowerOfTen(d->exponent);
    } else {
      const Integer p = PowerOfTen(-d->exponent);
      if (v % p != 0) throw InputError(what + " is not an integer (" + std::string(f.name) + ")");
      v /= p;
    }
    if (d->negative) v = -v;
    const Integer lo = oracle::ReferenceIntegerValue(oracle::TileIntegerMinimum(type), type);
    const Integer hi = oracle::ReferenceIntegerValue(oracle::TileIntegerMaximum(type), type);
    if (v < lo || v > hi) {
      throw InputError(what + " is outside " + std::string(f.name) + "'s range " + lo.str() + ".." +
                       hi.str());
    }
    if (v < 0) v += Integer(1) << f.width;
    return DecimalInput{static_cast<Word>(v), true};
  }
  if (f.kind == oracle::FormatKind::UnsignedNormal && (d->negative || d->digits == 0)) {
    throw InputError(what + ": " + std::string(f.name) + " has " +
                     (d->digits == 0 ? "no zero (its smallest value, code 0x00, is 2^-48)"
                                     : "no negative values"));
  }
  if (d->digits == 0) {
    if (!d->negative) return DecimalInput{0, true};
    const std::optional<Word> code = CodeOfClass(type, NumericValueClass::NegativeZero);
    if (!code) throw InputError(what + ": " + std::string(f.name) + " has no negative zero");
    return DecimalInput{*code, true};
  }
  Real value = d->exponent >= 0 ? Real(d->digits * PowerOfTen(d->exponent))
                                : Real(d->digits) / Real(PowerOfTen(-d->exponent));
  if (d->negative) value = -value;
  const Encoded e = EncodeNearest(value, type);
  const Word code = oracle::LowBits(e.word, f.width);
  const auto c = oracle::TileNumericValueClass(type, code);
  if ((e.status & oracle::kStatusOF) != 0 || oracle::NumericValueClassIsNaN(c) ||
      oracle::NumericValueClassIsInfinity(c)) {
    throw InputError(what + " is beyond " + std::string(f.name) +
                     "'s finite range (write inf or a hex word for non-finite codes)");
  }
  const bool exact =
      !oracle::NumericValueClassIsZero(c) && oracle::TileNumericFiniteValue(type, code) == value;
  return DecimalInput{code, exact};
}

Word ParseInputWord(std::string_view text, TileDataType type, std::string_view slot_name) {
  if (text.size() >= 2 && text[0] == '0' && (text[1] == 'x' || text[1] == 'X')) {
    return ParseWord(text, type, slot_name);
  }
  if (const auto d = ParseDecimalInput(text, type, slot_name)) return d->code;
  return ParseWord(text, type, slot_name);  // malformed: ParseWord's message
}

std::string ValueText(TileDataType type, Word word) {
  const oracle::FormatInfo& f = oracle::Format(type);
  word = oracle::LowBits(word, f.width);
  if (!f.IsFloating()) return oracle::ReferenceIntegerValue(word, type).str();
  switch (oracle::TileNumericValueClass(type, word)) {
    case NumericValueClass::PositiveZero:
      return "0";
    case NumericValueClass::NegativeZero:
      return "-0";
    case NumericValueClass::PositiveInfinity:
      return "+Inf";
    case NumericValueClass::NegativeInfinity:
      return "-Inf";
    case NumericValueClass::QuietNaN:
    case NumericValueClass::SignalingNaN:
      return "NaN";
    case NumericValueClass::InvalidEncoding:
      return "invalid";
    default:
      break;
  }
  if (type == TileDataType::RCPE6M2) {  // 1 over E6M2's value of the same code (not dyadic)
    const std::string e6m2 = ValueText(TileDataType::E6M2, word);
    return "1/" + (e6m2.find('*') == std::string::npos ? e6m2 : "(" + e6m2 + ")");
  }
  const oracle::FiniteDecomposition d = oracle::TileNumericFiniteDecomposition(type, word);
  return ExactText(d.negative, Integer(d.significand), d.exponent);
}

const OpDef& RequireOp(std::string_view name, oracle::Edition edition) {
  const OpDef* op = FindOp(name, edition);
  if (op != nullptr) return *op;
  const std::string accepted = "accepted: " + OpNamesList(edition);
  if (const RetiredOp* retired = FindRetiredOp(name, edition)) {
    throw InputError("op " + Quoted(name) + " (" + retired->instruction + ") is not in edition " +
                     std::string(oracle::EditionName(edition)) + ": " + retired->reason + " (" +
                     accepted + ")");
  }
  throw InputError("unknown op " + Quoted(name) + " (" + accepted + ")");
}

TileDataType RequireType(std::string_view name, std::string_view option, oracle::Edition edition) {
  const auto type = oracle::ParseTileDataType(name, edition);
  if (type) return *type;
  std::string hint;
  for (const oracle::Edition other : oracle::kAllEditions) {
    if (other != edition && oracle::ParseTileDataType(name, other)) {
      hint = "; " + std::string(name) + " is a type of edition " +
             std::string(oracle::EditionName(other)) + ": --edition " +
             std::string(oracle::EditionName(other));
      break;
    }
  }
  throw InputError("unknown type " + Quoted(name) + " for " + std::string(option) +
                   " (accepted: " + oracle::FormatNamesList(edition) + hint + ")");
}

oracle::Edition RequireEdition(std::string_view name) {
  if (name.empty()) return oracle::kDefaultEdition;
  const auto edition = oracle::ParseEdition(name);
  if (!edition) {
    throw InputError("unknown --edition " + Quoted(name) +
                     " (accepted: " + oracle::EditionNamesList() + ")");
  }
  return *edition;
}

NumericRoundingMode RequireRoundingMode(std::string_view name) {
  const auto mode = oracle::ParseRoundingMode(name);
  if (!mode) {
    throw InputError("unknown rounding mode " + Quoted(name) +
                     " (accepted: " + std::string(oracle::RoundingModeNamesList()) + ")");
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
              std::string_view rmode, bool sat, const std::vector<std::string>& inputs,
              oracle::Edition edition) {
  Case c;
  c.op = &RequireOp(op_name, edition);
  c.pair = {RequireType(src, "--src", edition), RequireType(dst, "--dst", edition)};
  if (!IsLegalPair(*c.op, c.pair)) {
    const std::string from = LegalPairsFrom(*c.op, c.pair.src);
    const std::string accepted = from.empty()
                                     ? "no destination accepts --src " + std::string(src)
                                     : "--dst accepted for " + std::string(src) + ": " + from;
    const std::string list =
        edition == oracle::kDefaultEdition
            ? "`ptovec list`"
            : "`ptovec list --edition " + std::string(oracle::EditionName(edition)) + "`";
    const std::string refusal = c.op->pair_refusal ? c.op->pair_refusal(c.pair) : "";
    if (!refusal.empty())
      throw InputError(refusal + "; " + accepted + "; " + list + " shows every pair");
    throw InputError(c.op->name + " does not accept " + std::string(src) + " -> " +
                     std::string(dst) + " (" + accepted + "; " + list + " shows every pair)");
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
    c.in[i] = ParseInputWord(inputs[i], slots[i].TypeFor(c.pair), slots[i].name);
  }
  if (auto problem = c.op->check_domain(c.pair, c.in)) throw InputError(*problem);
  if (c.op->check_control) {
    if (auto problem = c.op->check_control(c.pair, c.in, c.control)) throw InputError(*problem);
  }
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
  if (c.op->edition != oracle::kDefaultEdition) j["edition"] = oracle::EditionName(c.op->edition);
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

nlohmann::ordered_json EvalLineJson(const Case& c, Encoded result) {
  nlohmann::ordered_json j = CaseJson(c, result);
  nlohmann::ordered_json values = nlohmann::ordered_json::array();
  for (std::size_t i = 0; i < c.op->slots.size(); ++i) {
    values.push_back(ValueText(c.op->slots[i].TypeFor(c.pair), c.in[i]));
  }
  j["in_value"] = values;
  j["out_value"] = ValueText(c.pair.dst, result.word);
  j["flag_names"] = FlagNames(result.status);
  return j;
}

nlohmann::ordered_json ModelLineJson(const Case& c, const std::string& name,
                                     const oracle::ModelAnswer& answer) {
  nlohmann::ordered_json j;
  j["name"] = name;
  j["out"] = HexWord(answer.result.word, c.pair.dst);
  j["flags"] = HexStatus(answer.result.status);
  j["out_value"] = ValueText(c.pair.dst, answer.result.word);
  j["flag_names"] = FlagNames(answer.result.status);
  nlohmann::ordered_json deviations = nlohmann::ordered_json::array();
  for (const oracle::DeviationInfo& d : oracle::AllDeviations()) {
    if ((answer.applied & oracle::DeviationBit(d.deviation)) != 0) deviations.push_back(d.name);
  }
  j["deviations"] = deviations;
  j["word_open"] = answer.word_open;
  return j;
}

std::string EvalCommand(const Case& c) {
  std::string cmd = "ptovec eval ";
  if (c.op->edition != oracle::kDefaultEdition) {
    cmd += "--edition " + std::string(oracle::EditionName(c.op->edition)) + " ";
  }
  cmd += "--op " + c.op->name + " --src " + std::string(oracle::Format(c.pair.src).name) +
         " --dst " + std::string(oracle::Format(c.pair.dst).name) + " --rmode " +
         std::string(RoundingModeName(c.control.rounding_mode));
  if (c.control.saturating) cmd += " --sat";
  for (std::size_t i = 0; i < c.op->slots.size(); ++i) {
    cmd += " " + HexWord(c.in[i], c.op->slots[i].TypeFor(c.pair));
  }
  return cmd;
}

}  // namespace ptovec::generator
