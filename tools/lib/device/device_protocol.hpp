// The device line protocol, version 1 (schemas/dut-protocol.md): the hello words, case lines
// (CaseFormatter), tokens and words of a line, and a LineReader for a device's output. Shared by
// the program device (program_device.cpp, ptovec's side) and ptovec-oracle-device
// (tools/devices/oracle_device_main.cpp, the device's side) through the ptovec_dut_protocol
// library.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "ptovec/generator/cases.hpp"
#include "ptovec/generator/framing.hpp"

namespace ptovec::tools {

/// The first word of both hello lines ("ptovec-dut 1" and "ptovec-dut 1 NAME").
inline constexpr std::string_view kHelloWord = "ptovec-dut";
/// The protocol version both sides speak, the hello lines' second word.
inline constexpr std::string_view kProtocolVersion = "1";

// Words in case lines and answers are "0x" and lower-case hex digits zero-padded to the type's
// width (generator::AppendHexWord, word_text.hpp); a word or flags token is read by
// generator::ParseHexWord.

/// Formats case lines "<index> <op> <src> <dst> <rmode> <sat> <in0> [<in1> ...]\n": each input
/// zero-padded to its slot type's width, as `ptovec eval` prints it. Caches the "op src dst "
/// text and the slot widths of the last op and pair.
class CaseFormatter {
 public:
  /// Appends the line of case `k` (k.op set) with index `index` (decimal) to `out`.
  void Append(std::string& out, std::uint64_t index, const generator::Case& k);

 private:
  const generator::OpDef* op_ = nullptr;
  generator::TypePair pair_{};
  std::string prefix_;
  std::vector<unsigned> digits_;
};

/// The device's answer stream (generator::LineReader over a descriptor): lines of at most 1 MiB
/// with their newline, a CR before the newline dropped, `timeout_ms` (< 0: none) per Next.
generator::LineReader DeviceLineReader(int fd, int timeout_ms);

/// The next answer line of `reader` (see generator::LineReader::Next): `unterminated` when the
/// line lacks its newline at the end of the input or exceeds 1 MiB (then only its first 200
/// bytes are returned, for the error message). False at the end of input or on a timeout.
bool NextDeviceLine(generator::LineReader& reader, std::string_view& line, bool& unterminated);

/// Splits `line` on blanks (spaces and tabs) into at most `max` (>= 1) tokens in out[0..max):
/// the last one keeps the rest of the line (without trailing blanks). Returns the count; a
/// result of `max` may therefore hide further tokens inside out[max - 1].
std::size_t Tokens(std::string_view line, std::string_view* out, std::size_t max);

/// A decimal index (the whole token, 0 .. 2^64 - 1) into `v`; false when malformed.
bool ParseDecimal(std::string_view t, std::uint64_t& v);

}  // namespace ptovec::tools
