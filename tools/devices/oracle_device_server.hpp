// The protocol side of ptovec-oracle-device (oracle_device_main.cpp): one case line of
// schemas/dut-protocol.md in, its answer out. In a header of its own so the libFuzzer target
// tests/fuzz/fuzz_device_cases.cpp drives it without a process.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>

#include "device/device_protocol.hpp"
#include "oracle_dut.hpp"
#include "ptovec/facts.h"
#include "ptovec/generator/word_text.hpp"
#include "ptovec/oracle/edition.hpp"
#include "ptovec/oracle/formats.hpp"
#include "ptovec/oracle/rounding.hpp"

namespace ptovec::dut {

/// A protocol error that ends the device (exit 2 with this one line on stderr).
class OracleDeviceFatal : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

using ptovec::generator::AppendHexWord;
using ptovec::generator::ParseHexWord;
using ptovec::tools::kHelloWord;
using ptovec::tools::kProtocolVersion;
using ptovec::tools::ParseDecimal;
using ptovec::tools::Tokens;

/// The oracle answering the protocol's lines in order: the hello line first, then case lines.
class OracleDeviceServer {
 public:
  explicit OracleDeviceServer(std::string name) : name_(std::move(name)) {}

  /// One protocol line (without its newline); appends the answer (or the hello reply) to out.
  /// A case the device cannot take is answered "<index> error ..." or "<index> unsupported";
  /// a line that ends the session (bad hello, malformed index, empty line) throws
  /// OracleDeviceFatal.
  void Line(std::string_view line, std::string& out) {
    ++line_number_;
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    if (!hello_done_) return Hello(line, out);
    std::string_view t[kMaxTokens + 1];
    const std::size_t n = Tokens(line, t, kMaxTokens + 1);
    if (n == 0) throw OracleDeviceFatal("line " + std::to_string(line_number_) + " is empty");
    std::uint64_t index = 0;
    if (!ParseDecimal(t[0], index)) {
      throw OracleDeviceFatal("line " + std::to_string(line_number_) + ": malformed index '" +
                              std::string(t[0]) + "'");
    }
    AnswerCase(t, n, out);
  }

 private:
  // One token more than a case line has: n == kMaxTokens + 1 means too many fields.
  static constexpr std::size_t kMaxTokens = 6 + ptovec::generator::kMaxSlots;

  // The hello line: answered with the device's name, else OracleDeviceFatal.
  void Hello(std::string_view line, std::string& out) {
    std::string_view t[3];
    const std::size_t n = Tokens(line, t, 3);  // 3: more than the two words of the hello
    if (n != 2 || t[0] != kHelloWord) {
      throw OracleDeviceFatal("expected the hello line 'ptovec-dut 1', got '" + std::string(line) +
                              "'");
    }
    if (t[1] != kProtocolVersion) {
      throw OracleDeviceFatal("protocol version " + std::string(t[1]) + " is not supported (1 is)");
    }
    out += std::string(kHelloWord) + " " + std::string(kProtocolVersion) + " " + name_ + "\n";
    hello_done_ = true;
  }

  // The case line's n tokens t (its index t[0] well-formed): appends "<index> WORD STATUS",
  // "<index> unsupported" or "<index> error WHY".
  void AnswerCase(const std::string_view* t, std::size_t n, std::string& out) {
    const auto error = [&](const std::string& why) {
      out.append(t[0]);
      out += " error ";
      out += why;
      out += '\n';
    };
    const auto unsupported = [&] {
      out.append(t[0]);
      out += " unsupported\n";
    };
    if (n < 7 || n > kMaxTokens) {
      return error("expected <index> <op> <src> <dst> <rmode> <sat> <inputs...>");
    }
    if (!PairSupported(t)) return unsupported();
    ptovec_dut_case c{};
    if (const std::string why = ParseCase(t, n, c); !why.empty()) return error(why);
    ptovec::generator::Case k;
    std::string why;
    const int rc = ptovec::dut::ToCase(c, k, &why);
    if (rc == PTOVEC_DUT_UNSUPPORTED) return unsupported();
    if (rc != PTOVEC_DUT_OK) return error(why);
    ptovec::oracle::Encoded e;
    try {
      e = k.op->evaluate(k.pair, k.in, k.control);
    } catch (const std::exception& ex) {
      return error(std::string("oracle: ") + ex.what());
    }
    const auto& f = ptovec::oracle::Format(k.pair.dst);
    out.append(t[0]);
    out += ' ';
    AppendHexWord(out, ptovec::oracle::LowBits(e.word, f.width), f.HexDigits());
    out += ' ';
    AppendHexWord(out, e.status, 2);
    out += '\n';
  }

  // Whether the oracle takes the line's op src dst (t[1..3]), resolved once per distinct text.
  bool PairSupported(const std::string_view* t) {
    const std::string_view key(t[1].data(),
                               static_cast<std::size_t>(t[3].data() + t[3].size() - t[1].data()));
    if (key != key_) {
      key_.assign(key);
      pair_rc_ = PTOVEC_DUT_UNSUPPORTED;
      const auto edition = ptovec::dut::OracleEdition();  // the device's (--edition)
      const auto src = ptovec::oracle::ParseTileDataType(t[2], edition);
      const auto dst = ptovec::oracle::ParseTileDataType(t[3], edition);
      if (src && dst) {
        pair_rc_ =
            ptovec::dut::ResolvePair(t[1], static_cast<int>(*src), static_cast<int>(*dst), pair_);
      }
    }
    return pair_rc_ == PTOVEC_DUT_OK;
  }

  // The ABI case of the line (the resolved pair, rmode, sat, input words); "" or the error.
  std::string ParseCase(const std::string_view* t, std::size_t n, ptovec_dut_case& c) const {
    c.op = pair_.op->name.c_str();
    c.src_code = static_cast<std::uint8_t>(pair_.pair.src);
    c.dst_code = static_cast<std::uint8_t>(pair_.pair.dst);
    const auto mode = ParseMode(t[4]);
    if (mode < 0) return "unknown rmode '" + std::string(t[4]) + "'";
    c.rmode = static_cast<std::uint8_t>(mode);
    if (t[5] != "0" && t[5] != "1") return "sat '" + std::string(t[5]) + "' is not 0 or 1";
    c.sat = t[5] == "1" ? 1 : 0;
    c.n_inputs = static_cast<std::uint32_t>(n - 6);
    for (std::size_t i = 6; i < n; ++i) {
      if (!ParseHexWord(t[i], c.inputs[i - 6])) {
        return "malformed input word '" + std::string(t[i]) + "'";
      }
    }
    return {};
  }

  static int ParseMode(std::string_view name) {
    static constexpr std::string_view kNames[] = {PTOVEC_FACTS_MODE_NAMES};
    for (int i = 0; i < PTOVEC_FACTS_MODES; ++i) {
      if (name == kNames[i]) return i;
    }
    const auto m = ptovec::oracle::ParseRoundingMode(name);
    return m ? static_cast<int>(*m) : -1;
  }

  std::string name_;
  bool hello_done_ = false;
  std::uint64_t line_number_ = 0;
  std::string key_;
  int pair_rc_ = PTOVEC_DUT_UNSUPPORTED;
  ResolvedPair pair_;
};

}  // namespace ptovec::dut
