// The device host's side (ptovec-device-host, tools/devices/device_host_main.cpp): RunDeviceHost
// loads the
// `--dut` library in its own process and serves each channel's requests from its own thread,
// writing answers into the shared region. See device_host.hpp for the wire.
#include <fcntl.h>
#include <signal.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cerrno>
#include <charconv>
#include <chrono>
#include <cstdint>
#include <cstring>
#include <exception>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include "device/device_host.hpp"
#include "device/subprocess.hpp"
#include "ptovec/generator/cases.hpp"
#include "ptovec/generator/ops.hpp"
#include "ptovec/tools/device.hpp"

namespace ptovec::tools {

namespace {

using generator::Case;

// Reads exactly n bytes; false at end of input or on an error.
bool ReadAll(int fd, void* p, std::size_t n) {
  auto* b = static_cast<char*>(p);
  while (n > 0) {
    const ssize_t r = ::read(fd, b, n);
    if (r < 0 && errno == EINTR) continue;
    if (r <= 0) return false;
    b += r;
    n -= static_cast<std::size_t>(r);
  }
  return true;
}

bool SendMessage(int fd, HostMessage kind, const std::string& text) {
  std::string m(8, '\0');
  const auto k = static_cast<std::uint32_t>(kind);
  const auto n = static_cast<std::uint32_t>(text.size());
  std::memcpy(m.data(), &k, 4);
  std::memcpy(m.data() + 4, &n, 4);
  m += text;
  return WriteAll(fd, m.data(), m.size());
}

// A kAnswers message's text: "CASES CLOCKS" of a clocked library (Device::Clocks), else "".
std::string ClockText(const Device& device) {
  const std::optional<ClockCounts> counts = device.Clocks();
  return counts ? std::to_string(counts->cases) + " " + std::to_string(counts->clocks) : "";
}

void Serve(Device& device, std::uint8_t* region, int request_fd, int answer_fd) {
  std::vector<Case> cases;
  std::vector<DeviceAnswer> answers;
  std::vector<generator::Inputs> inputs;
  std::vector<NumericExecutionControl> controls;
  for (;;) {
    std::uint64_t n = 0;
    if (!ReadAll(request_fd, &n, sizeof n)) return;  // the parent closed the channel
    if ((n & kProductRequest) != 0) {
      // Every input under every control of one op and pair (Device::EvaluateProduct).
      const std::size_t nc = (n >> 32) & 0x7FFFFFFF;
      const std::size_t ni = n & 0xFFFFFFFF;
      if (nc == 0 || nc + ni > kHostCapacity || ni * nc > kHostCapacity) {
        SendMessage(answer_fd, HostMessage::kError, "device host: malformed product request");
        return;
      }
      const HostCase* in = RegionCases(region);
      controls.resize(nc);
      for (std::size_t c = 0; c < nc; ++c) {
        controls[c].rounding_mode = static_cast<oracle::NumericRoundingMode>(in[c].rmode);
        controls[c].saturating = in[c].sat != 0;
      }
      inputs.resize(ni);
      for (std::size_t i = 0; i < ni; ++i) {
        for (std::size_t s = 0; s < generator::kMaxSlots; ++s) inputs[i][s] = in[nc + i].in[s];
      }
      answers.assign(ni * nc, DeviceAnswer{});
      try {
        device.EvaluateProduct(HostOp(in[0].op),
                               {static_cast<generator::TileDataType>(in[0].src),
                                static_cast<generator::TileDataType>(in[0].dst)},
                               inputs, controls, answers);
      } catch (const std::exception& e) {
        if (!SendMessage(answer_fd, HostMessage::kError, e.what())) return;
        continue;
      }
      HostAnswer* out = RegionAnswers(region);
      for (std::size_t i = 0; i < ni * nc; ++i) {
        out[i].word = answers[i].result.word;
        out[i].status = static_cast<std::uint8_t>(answers[i].result.status);
        out[i].supported = answers[i].supported ? 1 : 0;
      }
      if (!SendMessage(answer_fd, HostMessage::kAnswers, ClockText(device))) return;
      continue;
    }
    if (n > kHostCapacity) {
      SendMessage(answer_fd, HostMessage::kError, "device host: request of too many cases");
      return;
    }
    const HostCase* in = RegionCases(region);
    cases.resize(n);
    for (std::size_t i = 0; i < n; ++i) {
      Case& c = cases[i];
      c.op = &HostOp(in[i].op);
      c.pair = {static_cast<generator::TileDataType>(in[i].src),
                static_cast<generator::TileDataType>(in[i].dst)};
      c.control.rounding_mode = static_cast<oracle::NumericRoundingMode>(in[i].rmode);
      c.control.saturating = in[i].sat != 0;
      for (std::size_t s = 0; s < generator::kMaxSlots; ++s) c.in[s] = in[i].in[s];
    }
    answers.assign(n, DeviceAnswer{});
    try {
      device.Evaluate(cases, answers);
    } catch (const std::exception& e) {
      if (!SendMessage(answer_fd, HostMessage::kError, e.what())) return;
      continue;
    }
    HostAnswer* out = RegionAnswers(region);
    for (std::size_t i = 0; i < n; ++i) {
      out[i].word = answers[i].result.word;
      out[i].status = static_cast<std::uint8_t>(answers[i].result.status);
      out[i].supported = answers[i].supported ? 1 : 0;
    }
    if (!SendMessage(answer_fd, HostMessage::kAnswers, ClockText(device))) return;
  }
}

}  // namespace

int RunDeviceHost(int argc, char** argv) {
  if (argc != 4) {
    const char usage[] =
        "ptovec-device-host: started by ptovec run/shrink --dut LIB.so; not for direct use\n";
    WriteAll(2, usage, sizeof usage - 1);
    return 2;
  }
  std::size_t channels = 0;
  const std::string_view count(argv[3]);
  const auto r = std::from_chars(count.data(), count.data() + count.size(), channels);
  if (r.ec != std::errc() || channels == 0 || channels > 256 || ::fcntl(kHostMemFd, F_GETFD) < 0) {
    const char bad[] = "ptovec-device-host: bad channel count or descriptors\n";
    WriteAll(2, bad, sizeof bad - 1);
    return 2;
  }
  // Ctrl-C reaches the whole process group: ptovec handles it (and kills this host), so the host
  // must not die first and look like a crashed device.
  ::signal(SIGINT, SIG_IGN);
  // The host ends when ptovec does, even inside a library call that never returns: a watcher
  // thread exits the process once the parent is gone (the host is re-parented).
  const pid_t parent = ::getppid();
  std::thread([parent] {
    while (::getppid() == parent) std::this_thread::sleep_for(std::chrono::milliseconds(100));
    ::_exit(0);
  }).detach();
  void* m = ::mmap(nullptr, channels * kHostRegionBytes, PROT_READ | PROT_WRITE, MAP_SHARED,
                   kHostMemFd, 0);
  if (m == MAP_FAILED) return 2;
  auto* map = static_cast<std::uint8_t*>(m);
  std::unique_ptr<Device> device;
  try {
    device = OpenLibraryDevice(argv[1], argv[2]);
  } catch (const std::exception& e) {
    SendMessage(HostAnswerFd(0), HostMessage::kOpenError, e.what());
    return 0;
  }
  SendMessage(HostAnswerFd(0), HostMessage::kReady,
              std::string(device->ThreadSafe() ? "1 " : "0 ") + device->Name());
  std::vector<std::thread> threads;
  for (std::size_t k = 1; k < channels; ++k) {
    threads.emplace_back(
        [&, k] { Serve(*device, map + k * kHostRegionBytes, HostRequestFd(k), HostAnswerFd(k)); });
  }
  Serve(*device, map, HostRequestFd(0), HostAnswerFd(0));
  for (std::thread& t : threads) t.join();
  device->Close();
  return 0;
}

}  // namespace ptovec::tools
