// ptovec's side of one started device host process (device_host.hpp has the wire): starting it
// with its shared memory and channels, a channel's messages and requests, and its end. Used by
// the isolated library device (isolated_device.cpp). Private to ptovec_tools.
#pragma once

#include <sys/types.h>

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <mutex>
#include <string>
#include <vector>

#include "device/device_host.hpp"

namespace ptovec::tools {

/// What a waitpid status says about a host that ended: "was killed by signal 11 (Segmentation
/// fault)", "exited with status 3".
std::string EndText(int status);

/// One started device host: its process, shared memory and channels.
class Host {
 public:
  /// Starts `program` (ptovec-device-host) on `library` with `arg` and `channels` channels.
  /// Throws DeviceError naming the library and what failed; nothing is left open or running then.
  Host(const std::string& program, const std::string& library, const std::string& arg,
       std::size_t channels);
  ~Host();

  Host(const Host&) = delete;
  Host& operator=(const Host&) = delete;

  std::size_t channels() const { return channels_; }
  std::uint8_t* Region(std::size_t k) { return map_ + k * kHostRegionBytes; }

  enum class Outcome { kMessage, kEnded, kHung };

  /// Waits up to `timeout_s` (0: no limit) for channel k's next message.
  Outcome Receive(std::size_t k, double timeout_s, HostMessage& kind, std::string& text);

  /// Asks channel k to evaluate the first n cases of its region; false if the host has gone.
  bool Request(std::size_t k, std::uint64_t n);

  /// Kills the host (once) and returns how it ended ("was killed by signal 11 (...)").
  std::string End(bool hung);

  bool dead() const { return dead_; }
  void MarkDead() { dead_ = true; }

  std::vector<bool>& busy() { return busy_; }

 private:
  // The constructor's parts: the shared memory of every channel's region; each channel's two
  // pipes (returns the child's descriptors in target order: memfd, then each channel's request
  // read end and answer write end); the process (fork and exec, an exec failure reported back).
  void MapRegions(const std::string& library);
  std::vector<int> OpenChannels(const std::string& library);
  void Spawn(const std::string& program, const std::string& library, const std::string& arg,
             std::vector<int>& child_fds);
  void Kill();
  void Release();

  std::size_t channels_;
  std::vector<bool> busy_;
  std::size_t bytes_ = 0;
  int memfd_ = -1;
  std::uint8_t* map_ = nullptr;
  std::vector<int> request_;
  std::vector<int> answer_;
  pid_t pid_ = -1;
  std::mutex end_mutex_;
  bool ended_ = false;
  bool ended_by_us_ = false;
  std::atomic<bool> dead_{false};
  int status_ = 0;
};

}  // namespace ptovec::tools
