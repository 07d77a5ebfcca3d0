// Text pieces shared by ptovec_tools' reports and error lines (private to the library): type
// names, a result word with its status, counts and JUnit seconds.
#pragma once

#include <cstdint>
#include <cstdio>
#include <string>

#include "ptovec/generator/cases.hpp"
#include "ptovec/generator/word_text.hpp"
#include "ptovec/generator/writers.hpp"
#include "ptovec/oracle/formats.hpp"

namespace ptovec::tools::text {

/// The spec's name of a tile data type ("fp16", "e8m0", "s32"...).
inline std::string TypeName(oracle::TileDataType t) { return std::string(oracle::Format(t).name); }

/// A decimal count.
inline std::string Str(std::uint64_t v) { return std::to_string(v); }

/// "WORD flags 0xSS (NAMES)": the result word at `dst`'s width in hex, then the 5-bit status
/// (NV DZ OF UF NX, bits 0..4) in hex and by name, e.g. "0x7f flags 0x10 (NX)".
inline std::string ResultText(const generator::Encoded& e, oracle::TileDataType dst) {
  return generator::HexWord(e.word, dst) + " flags " + generator::HexStatus(e.status) + " (" +
         generator::FlagNames(e.status) + ")";
}

/// Seconds with millisecond digits, as JUnit's time attribute and the reports give them
/// ("12.345").
inline std::string Seconds(double seconds) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.3f", seconds);
  return buffer;
}

}  // namespace ptovec::tools::text
