// The device host: a `--dut` library loaded in a child process (ptovec-device-host) so that a
// crash or a hang of the library is the device failing, never ptovec dying. Both sides: the
// host's main loop (RunDeviceHost, device_host_server.cpp; tools/devices/device_host_main.cpp) and
// ptovec's side (device_host_process.cpp, isolated_device.cpp), and the wire format they share.
// Private to ptovec_tools.
//
// Wire: the parent creates one memfd holding `channels` regions of kHostCapacity cases and
// answers each, and two pipes per channel. The child gets the memfd as descriptor 3 and channel
// k's request pipe (read end) as 4 + 2k, its answer pipe (write end) as 5 + 2k. The host answers
// on channel 0 first with a hello message (the library's name and properties, or why it could
// not be loaded); then each channel serves requests "evaluate the first N cases of my region"
// with one message each (answers in the region, or the DeviceError text).
#pragma once

#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <vector>

#include "ptovec/generator/ops.hpp"
#include "ptovec/oracle/edition.hpp"

namespace ptovec::tools {

/// Cases per channel region: a longer batch goes to the host in parts of this size.
inline constexpr std::size_t kHostCapacity = 16384;

/// One case on the wire: the op's HostOpCode (its edition and index in that edition's
/// generator::AllOps), the type codes, mode and Sat, the input words (slots beyond the op's
/// count 0).
struct HostCase {
  std::uint16_t op = 0;
  std::uint8_t src = 0;
  std::uint8_t dst = 0;
  std::uint8_t rmode = 0;
  std::uint8_t sat = 0;
  std::uint8_t pad[2] = {};
  std::uint64_t in[generator::kMaxSlots] = {};
};

/// The wire code of an op: its edition's number (oracle::Edition) in bits 15:8, its index in
/// generator::AllOps(edition) in bits 7:0.
inline std::uint16_t HostOpCode(const generator::OpDef& op) {
  const std::vector<generator::OpDef>& ops = generator::AllOps(op.edition);
  return static_cast<std::uint16_t>((static_cast<unsigned>(op.edition) << 8) |
                                    static_cast<unsigned>(&op - ops.data()));
}

/// The op of a wire code (HostOpCode). Throws std::out_of_range for a code of no op.
inline const generator::OpDef& HostOp(std::uint16_t code) {
  const unsigned edition = code >> 8U;
  if (edition >= oracle::kAllEditions.size()) throw std::out_of_range("no edition of op code");
  return generator::AllOps(oracle::kAllEditions[edition]).at(code & 0xFFU);
}

/// One answer on the wire: the destination word (low bits of its width) and status bits 4:0.
struct HostAnswer {
  std::uint64_t word = 0;
  std::uint8_t status = 0;
  std::uint8_t supported = 0;
  std::uint8_t pad[6] = {};
};

/// A request word with this bit set is a product (Device::EvaluateProduct): bits 62:32 the
/// control count nc, bits 31:0 the input count ni; the region's first nc cases carry the op, pair
/// and controls, the next ni the inputs. Otherwise the word is the count of cases to evaluate.
inline constexpr std::uint64_t kProductRequest = std::uint64_t{1} << 63;

/// Bytes of one channel's region: kHostCapacity cases, then kHostCapacity answers.
inline constexpr std::size_t kHostRegionBytes =
    kHostCapacity * (sizeof(HostCase) + sizeof(HostAnswer));

/// The child's descriptors (see the wire above): the memfd, channel k's request pipe (read end)
/// and its answer pipe (write end).
inline constexpr int kHostMemFd = 3;
constexpr int HostRequestFd(std::size_t k) { return 4 + 2 * static_cast<int>(k); }
constexpr int HostAnswerFd(std::size_t k) { return 5 + 2 * static_cast<int>(k); }

/// A channel region's cases (the first kHostCapacity * sizeof(HostCase) bytes) and answers (the
/// rest).
inline HostCase* RegionCases(std::uint8_t* region) { return reinterpret_cast<HostCase*>(region); }
inline HostAnswer* RegionAnswers(std::uint8_t* region) {
  return reinterpret_cast<HostAnswer*>(region + kHostCapacity * sizeof(HostCase));
}

/// Message kinds the host writes on a channel's answer pipe: a uint32 kind, a uint32 length and
/// that many bytes of text.
enum class HostMessage : std::uint32_t {
  kReady = 1,      ///< hello: text "T NAME" (T '1' when thread-safe, else '0')
  kOpenError = 2,  ///< hello: the library could not be loaded; text: the DeviceError message
  kAnswers = 3,    ///< the request's answers are in the region; text "CASES CLOCKS" or ""
  kError = 4,      ///< the library failed (DeviceError); text: its message
};

/// The host's main: argv = {program, LIBRARY, ARG, CHANNELS}, descriptors as above. Loads the
/// library in this process and serves every channel from its own thread until the parent closes
/// the request pipes. Returns the exit status (0; 2 when the arguments or descriptors are wrong).
int RunDeviceHost(int argc, char** argv);

}  // namespace ptovec::tools
