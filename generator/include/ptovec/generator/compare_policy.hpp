// The comparison policy: which status bits are compared with the result word when a device's
// answer is checked against the oracle's. One definition for the gate (`--compare`, `--flags`,
// tools/compare.hpp), the results header, the C API (ptovec_compare_policy, ptovec_compare) and
// the Python package (ptovec.compare).
#pragma once

#include <array>
#include <optional>
#include <string>
#include <string_view>

#include "ptovec/facts.h"
#include "ptovec/oracle/formats.hpp"
#include "ptovec/oracle/numeric.hpp"

namespace ptovec::generator {

/// The names of status bits 0..4, in the specification's order (spec-notes section 3).
inline constexpr std::array<std::string_view, PTOVEC_FACTS_STATUS_BITS> kStatusBitNames{
    PTOVEC_FACTS_STATUS_NAMES};

/// What is compared: the result word always, and the status bits of `flags` (bit 0 NV .. bit 4
/// NX, spec-notes section 3). The default compares all five; "word" none (a device without a
/// status register); "word+flags:NV,OF,UF" those (a device that raises only some).
struct ComparePolicy {
  oracle::Status flags = oracle::kStatusAll;
  /// Every status bit is compared (the default, the only policy a plain PASS stands for).
  bool full() const { return flags == oracle::kStatusAll; }
  /// The policy's name: "word+flags", "word" or "word+flags:NV,OF,UF" (bit order; results
  /// headers, JUnit properties, ComparePolicyFromName).
  std::string Name() const;
  /// One phrase for reports: "word and flags", "words only: the status flags are not
  /// compared", "word and flags NV,OF,UF only: DZ,NX not compared".
  std::string Describe() const;
  /// Whether the compared status bits agree; bits 7:5 are always compared (no expected status
  /// has them), so a status that sets them never agrees.
  bool FlagsMatch(oracle::Status expected, oracle::Status got) const {
    return ((expected ^ got) & (flags | static_cast<oracle::Status>(~oracle::kStatusAll))) == 0;
  }
  /// Whether an answer (`got_word`, `got_status`) matches the expected one for destination
  /// `dst`: the low Format(dst).width bits of the words are equal and so are the compared status
  /// bits. Bits 7:5 of `got_status` are always compared (no expected status has them), so an
  /// answer that sets them never matches.
  bool Matches(oracle::TileDataType dst, oracle::Word expected_word, oracle::Status expected_status,
               oracle::Word got_word, oracle::Status got_status) const;
  friend bool operator==(const ComparePolicy&, const ComparePolicy&) = default;
};

/// Parses the CLI's --compare ("word+flags", the default when empty, or "word") and --flags
/// (status bit names, comma-separated, case-insensitive: NV DZ OF UF NX; empty: not given).
/// Throws InputError with one line naming the bad value and what is accepted, also for --flags
/// together with --compare word.
ComparePolicy ParseComparePolicy(const std::string& compare, const std::string& flags);

/// The inverse of ComparePolicy::Name: "word+flags", "word", or "word+flags:" and bit names
/// (comma-separated, case-insensitive). Throws InputError naming the bad text and what is
/// accepted.
ComparePolicy ComparePolicyFromName(const std::string& name);

/// Status bits from their names: "OF|NX", "OF,NX", "-" or "" for none (case-insensitive).
/// nullopt when a name is not one of NV DZ OF UF NX.
std::optional<oracle::Status> ParseFlagNames(std::string_view text);

/// "NV,OF,UF": the names of the bits 4:0 of `flags`, comma-separated, in bit order ("" for none).
std::string CommaFlagNames(oracle::Status flags);

}  // namespace ptovec::generator
