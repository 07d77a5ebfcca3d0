// ptovec-oracle-device: the exact oracle as a program speaking the line protocol of
// schemas/dut-protocol.md (version 1) on stdin/stdout, so `ptovec run --dut-cmd` can be proven
// with it. Reads large blocks, answers every complete line, and flushes its answers before each
// read so a peer waiting for them never deadlocks.
//
// Usage: ptovec-oracle-device [--name NAME] [--edition EDITION]   (NAME goes into the hello line;
// default ptovec-oracle. EDITION: the specification edition it answers by, 0.58.3 (default) or
// 2026-09, as the library device's `--dut-arg edition=2026-09`). Exit 0 at end of input, 2 on a
// protocol error or a bad argument (one line on stderr).
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <string_view>
#include <vector>

#include "oracle_device_server.hpp"
#include "oracle_dut.hpp"
#include "ptovec/oracle/edition.hpp"

namespace {

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

}  // namespace

int main(int argc, char** argv) {
  std::string name = "ptovec-oracle";
  for (int i = 1; i < argc; ++i) {
    const std::string_view a = argv[i];
    if (a == "--name" && i + 1 < argc) {
      name = argv[++i];
    } else if (a == "--edition" && i + 1 < argc) {
      const std::string edition = argv[++i];
      if (ptovec::dut::SetOracleEdition(("edition=" + edition).c_str()) != 0) {
        Die("unknown --edition '" + edition + "' (accepted: " + ptovec::oracle::EditionNamesList() +
            ")");
      }
    } else {
      Die("unknown argument '" + std::string(a) + "' (accepted: --name NAME, --edition EDITION)");
    }
  }
  ptovec::dut::OracleDeviceServer server(name);
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
      try {
        server.Line(std::string_view(buffer.data() + start, end - start), out);
      } catch (const ptovec::dut::OracleDeviceFatal& e) {
        Die(e.what());
      }
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
