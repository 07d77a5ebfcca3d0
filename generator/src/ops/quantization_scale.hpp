// Shared by ops `tquant` and `tdequant` (generator/src/ops/tquant.cpp, tdequant.cpp): the legal
// domain of the FP32 scale (spec-notes section 5 item 6) and the 8-bit word check.
// Internal to the generator library (not an installed header).
#pragma once

#include <charconv>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "ptovec/generator/ops.hpp"
#include "ptovec/generator/word_text.hpp"
#include "ptovec/generator/writers.hpp"

namespace ptovec::generator::quantization {

/// The accepted scale words: positive, finite, non-zero FP32 (subnormals allowed).
inline constexpr std::uint32_t kSmallestScale = 0x00000001U;
inline constexpr std::uint32_t kLargestScale = 0x7F7FFFFFU;

/// True when `scale` (bits 31:0 of the word) is in TQUANT/TDEQUANT's legal scale domain.
inline bool ScaleIsLegal(Word scale) { return scale >= kSmallestScale && scale <= kLargestScale; }

/// nullopt for a legal scale word; otherwise the one-line message for `eval`, e.g.
/// "tquant scale 0x00000000 is zero; accepted: a positive finite non-zero fp32
/// (0x00000001..0x7f7fffff)".
inline std::optional<std::string> CheckScale(std::string_view op_name, Word scale) {
  if (ScaleIsLegal(scale)) return std::nullopt;
  const std::uint32_t word = static_cast<std::uint32_t>(scale);
  const bool negative = (word & 0x80000000U) != 0;
  const std::uint32_t magnitude = word & 0x7FFFFFFFU;
  std::string what;
  if (scale > 0xFFFFFFFFU) {
    what = "is wider than 32 bits";
  } else if (magnitude == 0) {
    what = negative ? "is negative zero" : "is zero";
  } else if (magnitude > 0x7F800000U) {
    what = (word & 0x00400000U) != 0 ? "is a quiet NaN" : "is a signaling NaN";
  } else if (magnitude == 0x7F800000U) {
    what = negative ? "is -infinity" : "is +infinity";
  } else {
    what = "is negative";
  }
  return std::string(op_name) + " scale " + HexWord(scale & 0xFFFFFFFFU, TileDataType::FP32) + " " +
         what + "; accepted: a positive finite non-zero fp32 (" +
         HexWord(kSmallestScale, TileDataType::FP32) + ".." +
         HexWord(kLargestScale, TileDataType::FP32) + ")";
}

/// nullopt when `word` fits the 8-bit integer type `type`; otherwise a one-line message.
inline std::optional<std::string> CheckByteWord(std::string_view op_name, std::string_view slot,
                                                Word word, TileDataType type) {
  if (word <= 0xFF) return std::nullopt;
  char digits[17] = {};
  const auto end = std::to_chars(digits, digits + 16, word, 16).ptr;
  return std::string(op_name) + " " + std::string(slot) + " word 0x" + std::string(digits, end) +
         " is too wide for " + std::string(oracle::Format(type).name) +
         " (accepted: " + HexWord(0, type) + ".." + HexWord(0xFF, type) + ")";
}

/// The FP32 word with exponent field `field` (bits 30:23) and fraction `fraction` (its low 23
/// bits; bits 22:0), sign 0.
inline std::uint32_t FieldAndFraction(std::uint32_t field, std::uint32_t fraction) {
  return (field << 23) | (fraction & 0x7FFFFFU);
}

}  // namespace ptovec::generator::quantization
