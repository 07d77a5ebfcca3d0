// Rounding modes, execution control and FloatingToInteger (spec-notes section 2).
#pragma once

#include <array>
#include <optional>
#include <string_view>

#include "ptovec/oracle/numeric.hpp"

namespace ptovec::oracle {

/// NumericRoundingMode, in the specification's order. The enumerator value is the index used by
/// ptovec's binary files (RNE 0 .. RHB 6); it is NOT the 3-bit bundle RMode field encoding.
/// The values are ptovec/facts.h's (PTOVEC_FACTS_RNE ..), shared with the C API and Python.
enum class NumericRoundingMode : std::uint8_t {
  RNE = PTOVEC_FACTS_RNE,
  RTM = PTOVEC_FACTS_RTM,
  RTP = PTOVEC_FACTS_RTP,
  RTZ = PTOVEC_FACTS_RTZ,
  RNA = PTOVEC_FACTS_RNA,
  RTO = PTOVEC_FACTS_RTO,
  RHB = PTOVEC_FACTS_RHB
};

inline constexpr std::array<NumericRoundingMode, PTOVEC_FACTS_MODES> kAllRoundingModes = {
    NumericRoundingMode::RNE, NumericRoundingMode::RTM, NumericRoundingMode::RTP,
    NumericRoundingMode::RTZ, NumericRoundingMode::RNA, NumericRoundingMode::RTO,
    NumericRoundingMode::RHB};

/// "RNE" .. "RHB".
std::string_view RoundingModeName(NumericRoundingMode mode);
/// Parses a mode name, case-insensitive ("rne", "RNE"); nullopt when unknown.
std::optional<NumericRoundingMode> ParseRoundingMode(std::string_view name);
/// The accepted names, for error messages: "RNE, RTM, RTP, RTZ, RNA, RTO, RHB".
std::string_view RoundingModeNamesList();

/// NumericExecutionControl {rounding_mode, saturating}; default {RNE, false}.
struct NumericExecutionControl {
  NumericRoundingMode rounding_mode = NumericRoundingMode::RNE;
  bool saturating = false;
  friend bool operator==(const NumericExecutionControl&, const NumericExecutionControl&) = default;
};

/// FloatingToInteger(x, mode): the integer x rounds to under `mode` (spec-notes section 2 table).
/// RNE ties to even, RTM floor, RTP ceiling, RTZ truncation, RNA ties away from zero, RTO the odd
/// neighbour when inexact, RHB floor(x + 1/2).
Integer FloatingToInteger(const Real& x, NumericRoundingMode mode);

}  // namespace ptovec::oracle
