// The comparison policy, result classes, word differences and triage signatures (compare.hpp).
#include "ptovec/tools/compare.hpp"

#include <algorithm>
#include <array>
#include <bit>
#include <cctype>
#include <optional>
#include <sstream>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "ptovec/generator/word_text.hpp"
#include "ptovec/generator/writers.hpp"

namespace ptovec::tools {

namespace {

using generator::InputError;
using oracle::FormatInfo;
using oracle::FormatKind;
using oracle::NumericValueClass;
using oracle::TileDataType;
using oracle::Word;
__extension__ using Int128 = __int128;
__extension__ using UInt128 = unsigned __int128;

std::string Trim(std::string_view text) {
  const auto first = text.find_first_not_of(' ');
  if (first == std::string_view::npos) return {};
  const auto last = text.find_last_not_of(' ');
  return std::string(text.substr(first, last - first + 1));
}

// A magnitude's rank among the magnitudes of a floating type, increasing with the value (+Inf
// above the largest finite). Binary, BinaryFN and E8M0 codes increase with their magnitude bits;
// HiF8's prefix-coded layout does not, so its 128 magnitudes are ranked once by value.
int MagnitudeRank(const FormatInfo& f, Word magnitude) {
  if (f.kind != FormatKind::HiF8) return static_cast<int>(magnitude);
  static const std::array<int, 128> kRanks = [] {
    std::array<Word, 128> codes{};
    for (Word m = 0; m < 128; ++m) codes[m] = m;
    const auto value_less = [](Word a, Word b) {
      const auto key = [](Word m) -> std::pair<int, UInt128> {
        if (m == oracle::Format(TileDataType::HiF8).infinity_code) return {1 << 20, 0};
        const oracle::FiniteDecomposition d =
            oracle::TileNumericFiniteDecomposition(TileDataType::HiF8, m);
        if (!d.available || d.significand == 0) return {-(1 << 20), 0};
        // Compared by the leading exponent, then by the significand aligned to 64 bits.
        const int width = static_cast<int>(std::bit_width(d.significand));
        const UInt128 aligned = static_cast<UInt128>(d.significand) << (64 - width);
        return {d.exponent + width - 1, aligned};
      };
      return key(a) < key(b);
    };
    std::stable_sort(codes.begin(), codes.end(), value_less);
    std::array<int, 128> ranks{};
    for (int r = 0; r < 128; ++r) ranks[codes[static_cast<std::size_t>(r)]] = r;
    return ranks;
  }();
  return kRanks[magnitude & 0x7F];
}

// The integer a word of integer type `type` denotes.
Int128 IntegerValue(TileDataType type, Word word) {
  const FormatInfo& f = oracle::Format(type);
  const Word bits = oracle::LowBits(word, f.width);
  if (f.kind == FormatKind::SignedInteger) {
    return static_cast<Int128>(static_cast<std::int64_t>(oracle::SignExtend(bits, f.width)));
  }
  return static_cast<Int128>(bits);
}

// Every name ResultClass gives, for --signature checks.
bool IsResultClassName(std::string_view name) {
  static constexpr std::array<std::string_view, 17> kNames{
      "+0",       "-0",       "+subnormal", "-subnormal", "+normal", "-normal",
      "+largest", "-largest", "+inf",       "-inf",       "nan",     "invalid",
      "0",        "min",      "max",        "+int",       "-int"};
  return std::find(kNames.begin(), kNames.end(), name) != kNames.end();
}

}  // namespace

std::string FlagDifferenceText(Status expected, Status got) {
  const Status missing = expected & ~got;
  const Status extra = got & ~expected;
  if (missing == 0 && extra == 0) return "same";
  std::string out;
  if (missing) out += "-" + generator::FlagNames(missing);
  if (extra) out += (out.empty() ? "+" : " +") + generator::FlagNames(extra);
  return out;
}

namespace {

constexpr std::array<WordDifference, 11> kWordDifferences{
    WordDifference::Same,       WordDifference::Sign,     WordDifference::OneNearer,
    WordDifference::OneFarther, WordDifference::Nearer,   WordDifference::Farther,
    WordDifference::OneBelow,   WordDifference::OneAbove, WordDifference::Below,
    WordDifference::Above,      WordDifference::Other};

}  // namespace

std::string_view ResultClass(TileDataType type, Word word) {
  const FormatInfo& f = oracle::Format(type);
  const Word bits = oracle::LowBits(word, f.width);
  if (!f.IsFloating()) {
    if (bits == oracle::LowBits(oracle::TileIntegerMinimum(type), f.width) && bits != 0) {
      return "min";
    }
    if (bits == oracle::LowBits(oracle::TileIntegerMaximum(type), f.width)) return "max";
    if (bits == 0) return "0";
    return IntegerValue(type, bits) < 0 ? "-int" : "+int";
  }
  const bool negative = (bits & f.SignBit()) != 0;
  switch (oracle::TileNumericValueClass(type, bits)) {
    case NumericValueClass::PositiveZero:
      return "+0";
    case NumericValueClass::NegativeZero:
      return "-0";
    case NumericValueClass::PositiveSubnormal:
      return "+subnormal";
    case NumericValueClass::NegativeSubnormal:
      return "-subnormal";
    case NumericValueClass::PositiveNormal:
    case NumericValueClass::NegativeNormal:
      if ((bits & ~f.SignBit()) == f.largest_finite_code) return negative ? "-largest" : "+largest";
      return negative ? "-normal" : "+normal";
    case NumericValueClass::PositiveInfinity:
      return "+inf";
    case NumericValueClass::NegativeInfinity:
      return "-inf";
    case NumericValueClass::QuietNaN:
    case NumericValueClass::SignalingNaN:
      return "nan";
    case NumericValueClass::InvalidEncoding:
      break;
  }
  return "invalid";
}

std::string_view WordDifferenceName(WordDifference d) {
  switch (d) {
    case WordDifference::Same:
      return "same";
    case WordDifference::Sign:
      return "sign";
    case WordDifference::OneNearer:
      return "1 code nearer zero";
    case WordDifference::OneFarther:
      return "1 code farther from zero";
    case WordDifference::Nearer:
      return "nearer zero";
    case WordDifference::Farther:
      return "farther from zero";
    case WordDifference::OneBelow:
      return "1 below";
    case WordDifference::OneAbove:
      return "1 above";
    case WordDifference::Below:
      return "below";
    case WordDifference::Above:
      return "above";
    case WordDifference::Other:
      break;
  }
  return "other";
}

WordDifference WordDifferenceOf(TileDataType type, Word expected, Word got) {
  const FormatInfo& f = oracle::Format(type);
  const Word e = oracle::LowBits(expected, f.width);
  const Word g = oracle::LowBits(got, f.width);
  if (e == g) return WordDifference::Same;
  if (!f.IsFloating()) {
    const Int128 d = IntegerValue(type, g) - IntegerValue(type, e);
    return d == 1    ? WordDifference::OneAbove
           : d == -1 ? WordDifference::OneBelow
           : d > 0   ? WordDifference::Above
                     : WordDifference::Below;
  }
  const auto ordered = [&](Word w) {
    const NumericValueClass c = oracle::TileNumericValueClass(type, w);
    return !oracle::NumericValueClassIsNaN(c) && c != NumericValueClass::InvalidEncoding;
  };
  if (!ordered(e) || !ordered(g)) return WordDifference::Other;
  const Word sign = f.SignBit();
  const int re = MagnitudeRank(f, e & ~sign);
  const int rg = MagnitudeRank(f, g & ~sign);
  if ((e & sign) != (g & sign)) return re == rg ? WordDifference::Sign : WordDifference::Other;
  const int d = rg - re;
  return d == 1    ? WordDifference::OneFarther
         : d == -1 ? WordDifference::OneNearer
         : d > 0   ? WordDifference::Farther
                   : WordDifference::Nearer;
}

std::string InputClassName(std::size_t k) {
  const std::string full = generator::VectorClassName(k * generator::kOutcomes);
  return full.substr(0, full.find(' '));
}

Signature SignatureOf(const Case& c, const oracle::Encoded& expected, const DeviceAnswer& got,
                      const ComparePolicy& policy) {
  return SignatureOf(c, generator::InputClassOf(*c.op, c.pair, c.in), expected, got, policy);
}

Signature SignatureOf(const Case& c, std::uint8_t input_class, const oracle::Encoded& expected,
                      const DeviceAnswer& got, const ComparePolicy& policy) {
  Signature s;
  const generator::OpDef& op = *c.op;
  if (op.uses_controls) s.sat = c.control.saturating ? 1 : 0;
  s.compared_flags = policy.flags;
  if (op.slot_values) {
    for (std::size_t i = 0; i < op.slots.size(); ++i) {
      if (!op.slot_values(c.pair.Whole(), i).empty()) {
        s.named[i] = static_cast<std::int32_t>(c.in[i]);
      }
    }
  }
  if (!got.supported) {
    // One group per pair (and named slots, and Sat) whatever the inputs: a device that does not
    // implement a mode or a pair has one cause (under each Sat, as for any other signature).
    s.input_class = kAnyInputClass;
    s.got_class = "unsupported";
    s.word = WordDifference::Other;
    return s;
  }
  s.input_class = input_class;
  s.expected_class = ResultClass(c.pair.dst, expected.word);
  s.expected_flags = expected.status & policy.flags;
  s.got_class = ResultClass(c.pair.dst, got.result.word);
  s.got_flags = got.result.status & policy.flags;
  s.word = WordDifferenceOf(c.pair.dst, expected.word, got.result.word);
  return s;
}

std::string SignatureText(const generator::OpDef& op, const Signature& s) {
  std::string out;
  for (std::size_t i = 0; i < op.slots.size() && i < s.named.size(); ++i) {
    if (s.named[i] >= 0) out += op.slots[i].name + " " + std::to_string(s.named[i]) + "; ";
  }
  if (s.sat >= 0) out += s.sat ? "sat on; " : "sat off; ";
  if (s.got_class == "unsupported") return out + "got unsupported";
  // No flags at all when the policy compares none (--compare word): they would be unknown.
  const bool flags = s.compared_flags != 0;
  out += "input " + InputClassName(s.input_class) + "; expected " + std::string(s.expected_class);
  if (flags) out += " " + generator::FlagNames(s.expected_flags);
  out += "; got " + std::string(s.got_class);
  if (flags) out += " " + generator::FlagNames(s.got_flags);
  out += "; word " + std::string(WordDifferenceName(s.word));
  if (flags) out += "; flags " + FlagDifferenceText(s.expected_flags, s.got_flags);
  return out;
}

std::optional<bool> SignatureSat(std::string_view text) {
  for (std::size_t start = 0; start <= text.size();) {
    std::size_t end = text.find(';', start);
    if (end == std::string_view::npos) end = text.size();
    const std::string part = Trim(text.substr(start, end - start));
    if (part == "sat on") return true;
    if (part == "sat off") return false;
    start = end + 1;
  }
  return std::nullopt;
}

namespace {

// Reads a --signature text part by part (parts split at ';', spaces folded), building its
// canonical form; every refusal is an InputError naming the part.
class SignatureTextReader {
 public:
  SignatureTextReader(const generator::OpDef& op, const std::string& text) : op_(op) {
    std::string folded;
    for (const char ch : text) {
      if (ch == ' ' && (folded.empty() || folded.back() == ' ')) continue;
      folded += ch;
    }
    for (std::size_t start = 0; start <= folded.size();) {
      std::size_t end = folded.find(';', start);
      if (end == std::string::npos) end = folded.size();
      parts_.push_back(Trim(std::string_view(folded).substr(start, end - start)));
      start = end + 1;
    }
  }

  [[noreturn]] void Refuse(const std::string& part, const std::string& what) const {
    throw InputError("--signature part '" + part + "': " + what +
                     " (give a signature as a report's triage line prints it, e.g. '" +
                     (op_.uses_controls ? "sat off; " : "") +
                     "input +normal; expected +inf OF|NX; got +largest OF|NX; word 1 code nearer "
                     "zero; flags same')");
  }

  // Named slots first, in slot order ("<slot> <decimal>", an op with slot values only).
  void NamedSlots() {
    for (std::size_t i = 0; i < op_.slots.size() && k_ < parts_.size(); ++i) {
      const std::string prefix = op_.slots[i].name + " ";
      if (parts_[k_].rfind(prefix, 0) != 0) continue;
      const std::string value = parts_[k_].substr(prefix.size());
      if (!op_.slot_values || value.empty() ||
          value.find_first_not_of("0123456789") != std::string::npos) {
        Refuse(parts_[k_], "a named slot takes a decimal value, and " + op_.name + " names " +
                               (op_.slot_values ? "only its mode slots" : "none"));
      }
      canonical_ += parts_[k_] + "; ";
      ++k_;
    }
  }

  // "sat on" or "sat off" next, for an op with controls only.
  void Sat() {
    const std::string part = k_ < parts_.size() ? parts_[k_] : std::string();
    if (!op_.uses_controls) {
      if (part.rfind("sat", 0) == 0) {
        Refuse(part, op_.name + " has no controls: its signatures name no Sat");
      }
      return;
    }
    if (part != "sat on" && part != "sat off") {
      Refuse(part, "expected 'sat on' or 'sat off' here (" + op_.name +
                       " has controls: its signatures name the Sat of their mismatches)");
    }
    canonical_ += part + "; ";
    ++k_;
  }

  // The last part is "got unsupported": the canonical text ends with it.
  bool Unsupported() const { return k_ + 1 == parts_.size() && parts_[k_] == "got unsupported"; }

  // The next part's value after "<key> ".
  std::string Take(const std::string& key) {
    if (k_ >= parts_.size() || parts_[k_].rfind(key + " ", 0) != 0) {
      Refuse(k_ < parts_.size() ? parts_[k_] : std::string(), "expected '" + key + " ...' here");
    }
    return parts_[k_++].substr(key.size() + 1);
  }

  void Input() {
    const std::string input = Take("input");
    bool known_input = false;
    for (std::size_t c = 0; c < generator::kInputClasses; ++c) {
      known_input = known_input || InputClassName(c) == input;
    }
    if (!known_input) Refuse("input " + input, "unknown input class");
    canonical_ += "input " + input;
  }

  // "<class> <flags>" of expected or got, or "<class>" alone in a signature without flags
  // (--compare word); `flagged` says which form expected took (unset for expected itself).
  // Returns the flags, nullopt for the form without.
  std::optional<Status> Result(const std::string& key, std::optional<bool> flagged) {
    const std::string value = Take(key);
    const auto space = value.find(' ');
    const std::string cls = value.substr(0, space);
    if (!IsResultClassName(cls)) Refuse(key + " " + value, "unknown result class '" + cls + "'");
    if (flagged && *flagged != (space != std::string::npos)) {
      Refuse(key + " " + value,
             *flagged ? "expected a result class and its flags ('OF|NX', '-' for none), as the "
                        "expected result has them"
                      : "the expected result has no flags (a signature of --compare word), so "
                        "this one has none either");
    }
    if (space == std::string::npos) {
      canonical_ += "; " + key + " " + cls;
      return std::nullopt;
    }
    const std::optional<Status> bits = ParseFlagNames(value.substr(space + 1));
    if (!bits || value.find(',') != std::string::npos) {
      Refuse(key + " " + value,
             "expected a result class and its flags ('OF|NX', '-' for none), or the class alone "
             "in a signature without flags");
    }
    canonical_ += "; " + key + " " + cls + " " + generator::FlagNames(*bits);
    return bits;
  }

  // "word <difference>" and, with flags, "flags <difference>", which must be that of the flags
  // given.
  void WordAndFlags(std::optional<Status> expected_flags, std::optional<Status> got_flags) {
    const std::string word = Take("word");
    const bool known_word =
        std::any_of(kWordDifferences.begin(), kWordDifferences.end(),
                    [&](WordDifference d) { return WordDifferenceName(d) == word; });
    if (!known_word) Refuse("word " + word, "unknown word difference");
    canonical_ += "; word " + word;
    if (!expected_flags || !got_flags) {
      if (k_ < parts_.size() && parts_[k_].rfind("flags", 0) == 0) {
        Refuse(parts_[k_],
               "a signature whose results have no flags (--compare word) has no "
               "flag difference");
      }
      return;
    }
    const std::string flags = Take("flags");
    const std::string want = FlagDifferenceText(*expected_flags, *got_flags);
    if (flags != want) {
      Refuse("flags " + flags,
             "the flag difference of these expected and got flags is '" + want + "'");
    }
    canonical_ += "; flags " + flags;
  }

  // The canonical text, refusing any part left over.
  std::string Finish() const {
    if (k_ != parts_.size()) Refuse(parts_[k_], "nothing may follow here");
    return canonical_;
  }
  const std::string& canonical() const { return canonical_; }

 private:
  const generator::OpDef& op_;
  std::vector<std::string> parts_;
  std::size_t k_ = 0;
  std::string canonical_;
};

}  // namespace

std::string CheckSignatureText(const generator::OpDef& op, const std::string& text) {
  SignatureTextReader reader(op, text);
  reader.NamedSlots();
  reader.Sat();
  if (reader.Unsupported()) return reader.canonical() + "got unsupported";
  reader.Input();
  const std::optional<Status> expected_flags = reader.Result("expected", std::nullopt);
  const std::optional<Status> got_flags = reader.Result("got", expected_flags.has_value());
  reader.WordAndFlags(expected_flags, got_flags);
  return reader.Finish();
}

}  // namespace ptovec::tools
