// libFuzzer target: the device side of the line protocol (schemas/dut-protocol.md): the lines
// ptovec-oracle-device reads (hello, then case lines), each answered by OracleDeviceServer. A
// line that ends the session must throw OracleDeviceFatal; every other line gets one answer line.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

#include "oracle_device_server.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  ptovec::dut::OracleDeviceServer server("fuzz");
  std::string out;
  try {
    for (std::size_t start = 0; start < text.size();) {
      const std::size_t end = text.find('\n', start);
      if (end == std::string_view::npos) break;  // the device refuses an unterminated line
      const std::size_t before = out.size();
      server.Line(text.substr(start, end - start), out);
      // Exactly one answer line per line read.
      if (out.size() <= before || out.back() != '\n' || out.find('\n', before) != out.size() - 1) {
        std::abort();
      }
      start = end + 1;
    }
  } catch (const ptovec::dut::OracleDeviceFatal&) {
  }
  return 0;
}
