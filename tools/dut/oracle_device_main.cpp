// ptovec-oracle-device: the exact oracle as a program speaking the line protocol of
// schemas/dut-protocol.md (version 1) on stdin/stdout, so `ptovec run --dut-cmd` can be proven
// with it. Reads large blocks, answers every complete line, and flushes its answers before each
// read so a peer waiting for them never deadlocks.
//
// Usage: ptovec-oracle-device [--name NAME]   (NAME goes into the hello line; default
// ptovec-oracle). Exit 0 at end of input, 2 on a protocol error (one line on stderr).
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <string>
#include <string_view>
#include <vector>

#include "device_protocol.hpp"
#include "oracle_dut.hpp"
#include "ptovec/oracle/rounding.hpp"

namespace {

using ptovec::dut::ResolvedPair;
using ptovec::tools::AppendHex;
using ptovec::tools::kHelloWord;
using ptovec::tools::kProtocolVersion;
using ptovec::tools::ParseDecimal;
using ptovec::tools::ParseHexWord;
using ptovec::tools::Tokens;

[[noreturn]] void Die(const std::string& message) {
  std::fprintf(stderr, "ptovec-oracle-device: error: %s\n", message.c_str());
  std::exit(2);
}

void WriteAll(std::string& out) {
  const char* p = out.data();
  std::size_t left = out.size();
  while (left > 0) {
    const ssize_t n = ::write(1, p, left);
    if (n < 0) {
      if (errno == EINTR) continue;
      Die(std::string("cannot write answers: ") + std::strerror(errno));
    }
    p += n;
    left -= static_cast<std::size_t>(n);
  }
  out.clear();
}

class Server {
 public:
  explicit Server(std::string name) : name_(std::move(name)) {}

  // One protocol line (without its newline); appends the answer to out.
  void Line(std::string_view line, std::string& out) {
    ++line_number_;
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    if (!hello_done_) {
      std::string_view t[3];
      const std::size_t n = Tokens(line, t, 3);  // 3: more than the two words of the hello
      if (n != 2 || t[0] != kHelloWord) {
        Die("expected the hello line 'ptovec-dut 1', got '" + std::string(line) + "'");
      }
      if (t[1] != kProtocolVersion) {
        Die("protocol version " + std::string(t[1]) + " is not supported (1 is)");
      }
      out += std::string(kHelloWord) + " " + std::string(kProtocolVersion) + " " + name_ + "\n";
      hello_done_ = true;
      return;
    }
    // One token more than a case line has: n == kMaxTokens + 1 means too many fields.
    constexpr std::size_t kMaxTokens = 6 + ptovec::generator::kMaxSlots;
    std::string_view t[kMaxTokens + 1];
    const std::size_t n = Tokens(line, t, kMaxTokens + 1);
    if (n == 0) Die("line " + std::to_string(line_number_) + " is empty");
    std::uint64_t index = 0;
    if (!ParseDecimal(t[0], index)) {
      Die("line " + std::to_string(line_number_) + ": malformed index '" + std::string(t[0]) + "'");
    }
    const auto error = [&](const std::string& why) {
      out.append(t[0]);
      out += " error ";
      out += why;
      out += '\n';
    };
    if (n < 7 || n > kMaxTokens) {
      return error("expected <index> <op> <src> <dst> <rmode> <sat> <inputs...>");
    }
    // op src dst: cached as one text.
    const std::string_view key(t[1].data(),
                               static_cast<std::size_t>(t[3].data() + t[3].size() - t[1].data()));
    if (key != key_) {
      key_.assign(key);
      pair_rc_ = PTOVEC_DUT_UNSUPPORTED;
      const auto src = ptovec::oracle::ParseTileDataType(t[2]);
      const auto dst = ptovec::oracle::ParseTileDataType(t[3]);
      if (src && dst) {
        pair_rc_ =
            ptovec::dut::ResolvePair(t[1], static_cast<int>(*src), static_cast<int>(*dst), pair_);
      }
    }
    if (pair_rc_ != PTOVEC_DUT_OK) {
      out.append(t[0]);
      out += " unsupported\n";
      return;
    }
    ptovec_dut_case c{};
    c.op = pair_.op->name.c_str();
    c.src_code = static_cast<std::uint8_t>(pair_.pair.src);
    c.dst_code = static_cast<std::uint8_t>(pair_.pair.dst);
    const auto mode = ParseMode(t[4]);
    if (mode < 0) return error("unknown rmode '" + std::string(t[4]) + "'");
    c.rmode = static_cast<std::uint8_t>(mode);
    if (t[5] != "0" && t[5] != "1") return error("sat '" + std::string(t[5]) + "' is not 0 or 1");
    c.sat = t[5] == "1" ? 1 : 0;
    c.n_inputs = static_cast<std::uint32_t>(n - 6);
    for (std::size_t i = 6; i < n; ++i) {
      if (!ParseHexWord(t[i], c.inputs[i - 6])) {
        return error("malformed input word '" + std::string(t[i]) + "'");
      }
    }
    ptovec::generator::Case k;
    std::string why;
    const int rc = ptovec::dut::ToCase(c, k, &why);
    if (rc == PTOVEC_DUT_UNSUPPORTED) {
      out.append(t[0]);
      out += " unsupported\n";
      return;
    }
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
    AppendHex(out, ptovec::oracle::LowBits(e.word, f.width), f.HexDigits());
    out += ' ';
    AppendHex(out, e.status, 2);
    out += '\n';
  }

 private:
  static int ParseMode(std::string_view name) {
    static constexpr std::string_view kNames[] = {"RNE", "RTM", "RTP", "RTZ", "RNA", "RTO", "RHB"};
    for (int i = 0; i < 7; ++i) {
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

}  // namespace

int main(int argc, char** argv) {
  std::string name = "ptovec-oracle";
  for (int i = 1; i < argc; ++i) {
    const std::string_view a = argv[i];
    if (a == "--name" && i + 1 < argc) {
      name = argv[++i];
    } else {
      Die("unknown argument '" + std::string(a) + "' (accepted: --name NAME)");
    }
  }
  Server server(name);
  std::vector<char> buffer(1 << 20);
  std::size_t have = 0;
  std::string out;
  out.reserve(1 << 20);
  for (;;) {
    const ssize_t n = ::read(0, buffer.data() + have, buffer.size() - have);
    if (n < 0) {
      if (errno == EINTR) continue;
      Die(std::string("cannot read cases: ") + std::strerror(errno));
    }
    if (n == 0) break;
    have += static_cast<std::size_t>(n);
    std::size_t start = 0;
    for (;;) {
      const void* nl = std::memchr(buffer.data() + start, '\n', have - start);
      if (nl == nullptr) break;
      const std::size_t end =
          static_cast<std::size_t>(static_cast<const char*>(nl) - buffer.data());
      server.Line(std::string_view(buffer.data() + start, end - start), out);
      start = end + 1;
    }
    std::memmove(buffer.data(), buffer.data() + start, have - start);
    have -= start;
    if (have == buffer.size())
      Die("a line is longer than " + std::to_string(buffer.size()) + " bytes");
    WriteAll(out);  // before the next (possibly blocking) read
  }
  if (have > 0) Die("input ends inside a line (no final newline)");
  WriteAll(out);
  return 0;
}
