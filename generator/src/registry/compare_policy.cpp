// The comparison policy (compare_policy.hpp): its names, its parsers and the match test.
#include "ptovec/generator/compare_policy.hpp"

#include <algorithm>
#include <cctype>

#include "ptovec/facts.h"
#include "ptovec/generator/errors.hpp"

namespace ptovec::generator {

namespace {

using oracle::Status;

std::string_view TrimSpaces(std::string_view text) {
  const auto first = text.find_first_not_of(' ');
  if (first == std::string_view::npos) return {};
  return text.substr(first, text.find_last_not_of(' ') - first + 1);
}

bool EqualIgnoringCase(std::string_view a, std::string_view b) {
  return std::equal(a.begin(), a.end(), b.begin(), b.end(), [](char x, char y) {
    return std::toupper(static_cast<unsigned char>(x)) ==
           std::toupper(static_cast<unsigned char>(y));
  });
}

constexpr std::string_view kBitsAccepted = "NV, DZ, OF, UF, NX, comma-separated";

// The policy names (ptovec/facts.h): every bit, none, and the prefix of some bits.
constexpr std::string_view kPolicyAll = PTOVEC_FACTS_POLICY_ALL;
constexpr std::string_view kPolicyWord = PTOVEC_FACTS_POLICY_WORD;
constexpr std::string_view kPolicySome = PTOVEC_FACTS_POLICY_SOME;
constexpr char kPolicySeparator = PTOVEC_FACTS_POLICY_SEPARATOR[0];

}  // namespace

std::string CommaFlagNames(Status flags) {
  std::string out;
  for (std::size_t bit = 0; bit < kStatusBitNames.size(); ++bit) {
    if ((flags >> bit) & 1U) {
      if (!out.empty()) out += kPolicySeparator;
      out += kStatusBitNames[bit];
    }
  }
  return out;
}

std::string ComparePolicy::Name() const {
  if (full()) return std::string(kPolicyAll);
  if (flags == 0) return std::string(kPolicyWord);
  return std::string(kPolicySome) + CommaFlagNames(flags);
}

std::string ComparePolicy::Describe() const {
  if (full()) return "word and flags";
  if (flags == 0) return "words only: the status flags are not compared";
  return "word and flags " + CommaFlagNames(flags) +
         " only: " + CommaFlagNames(oracle::kStatusAll & ~flags) + " not compared";
}

bool ComparePolicy::Matches(oracle::TileDataType dst, oracle::Word expected_word,
                            Status expected_status, oracle::Word got_word,
                            Status got_status) const {
  const unsigned width = oracle::Format(dst).width;
  return oracle::LowBits(expected_word ^ got_word, width) == 0 &&
         FlagsMatch(expected_status, got_status);
}

std::optional<Status> ParseFlagNames(std::string_view text) {
  const std::string_view t = TrimSpaces(text);
  if (t.empty() || t == "-") return Status{0};
  Status out = 0;
  std::size_t start = 0;
  while (start <= t.size()) {
    std::size_t end = t.find_first_of("|,", start);
    if (end == std::string_view::npos) end = t.size();
    const std::string_view name = TrimSpaces(t.substr(start, end - start));
    const auto it =
        std::find_if(kStatusBitNames.begin(), kStatusBitNames.end(),
                     [&](std::string_view bit) { return EqualIgnoringCase(bit, name); });
    if (it == kStatusBitNames.end()) return std::nullopt;
    out = static_cast<Status>(out | (1U << (it - kStatusBitNames.begin())));
    start = end + 1;
  }
  return out;
}

ComparePolicy ParseComparePolicy(const std::string& compare, const std::string& flags) {
  ComparePolicy policy;
  if (compare == kPolicyWord) {
    if (!flags.empty()) {
      throw InputError("--flags " + flags +
                       " picks the status bits compared with the word, but --compare word "
                       "compares none (give one of them)");
    }
    policy.flags = 0;
    return policy;
  }
  if (!compare.empty() && compare != kPolicyAll) {
    throw InputError("unknown --compare '" + compare + "' (accepted: word+flags, word)");
  }
  if (!flags.empty()) {
    const std::optional<Status> bits = ParseFlagNames(flags);
    if (!bits || *bits == 0 || flags.find('|') != std::string::npos) {
      throw InputError("--flags '" + flags +
                       "': not a list of status bits (accepted: " + std::string(kBitsAccepted) +
                       ", e.g. --flags NV,OF,UF; --compare word for none)");
    }
    policy.flags = *bits;
  }
  return policy;
}

ComparePolicy ComparePolicyFromName(const std::string& name) {
  ComparePolicy policy;
  if (name == kPolicyAll) return policy;
  if (name == kPolicyWord) {
    policy.flags = 0;
    return policy;
  }
  if (name.starts_with(kPolicySome)) {
    const std::string bits = name.substr(kPolicySome.size());
    const std::optional<Status> parsed = ParseFlagNames(bits);
    if (parsed && *parsed != 0 && bits.find('|') == std::string::npos) {
      policy.flags = *parsed;
      return policy;
    }
  }
  throw InputError("unknown comparison policy '" + name +
                   "' (accepted: word+flags, word, or word+flags: followed by status bits " +
                   std::string(kBitsAccepted) + ", e.g. word+flags:NV,OF)");
}

}  // namespace ptovec::generator
