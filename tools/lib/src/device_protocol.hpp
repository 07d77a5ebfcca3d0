// The device line protocol, version 1 (schemas/dut-protocol.md): the hello words, case lines
// (CaseFormatter), tokens and words of a line, and a LineReader for a device's output. Shared by
// the program device (program_device.cpp, ptovec's side) and ptovec-oracle-device
// (tools/dut/oracle_device_main.cpp, the device's side) through the ptovec_dut_protocol library.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "ptovec/generator/cases.hpp"

namespace ptovec::tools {

/// The first word of both hello lines ("ptovec-dut 1" and "ptovec-dut 1 NAME").
inline constexpr std::string_view kHelloWord = "ptovec-dut";
/// The protocol version both sides speak, the hello lines' second word.
inline constexpr std::string_view kProtocolVersion = "1";

/// Appends "0x" and the low `digits` hex digits of `word` (lower case, zero-padded): the word
/// format of case lines and answers.
void AppendHex(std::string& out, oracle::Word word, unsigned digits);

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

/// Reads lines from a file descriptor with a 1 MiB buffer.
class LineReader {
 public:
  /// `timeout_ms` < 0: wait for input without limit.
  LineReader(int fd, int timeout_ms) : fd_(fd), timeout_ms_(timeout_ms), buffer_(1 << 20) {}
  /// The next line without its newline (a trailing CR is dropped); false at end of input, or
  /// when nothing arrived within the timeout (timed_out() is then true). A line that does not
  /// fit the buffer or lacks its newline at end of input comes with `unterminated`.
  bool Next(std::string_view& line, bool& unterminated);
  /// Sets the timeout of the following Next() calls (< 0: none).
  void SetTimeout(int timeout_ms) { timeout_ms_ = timeout_ms; }
  /// The last Next() returned false because nothing arrived within the timeout.
  bool timed_out() const { return timed_out_; }

 private:
  int fd_;
  int timeout_ms_;
  bool timed_out_ = false;
  std::vector<char> buffer_;
  std::size_t start_ = 0;
  std::size_t end_ = 0;
};

/// Splits `line` on blanks (spaces and tabs) into at most `max` (>= 1) tokens in out[0..max):
/// the last one keeps the rest of the line (without trailing blanks). Returns the count; a
/// result of `max` may therefore hide further tokens inside out[max - 1].
std::size_t Tokens(std::string_view line, std::string_view* out, std::size_t max);

/// A decimal index (the whole token, 0 .. 2^64 - 1) into `v`; false when malformed.
bool ParseDecimal(std::string_view t, std::uint64_t& v);

/// A word: "0x" (or "0X") and 1 to 16 hex digits of either case (the whole token) into `v`;
/// false when malformed.
bool ParseHexWord(std::string_view t, oracle::Word& v);

}  // namespace ptovec::tools
