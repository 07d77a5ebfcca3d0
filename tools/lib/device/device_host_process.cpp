// ptovec's side of one device host process (Host, device_host_process.hpp): the memfd of the
// channels' regions, the pipes, fork and exec of ptovec-device-host, messages read with a
// deadline, and the host's end.
#include "device/device_host_process.hpp"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <string>
#include <vector>

#include "device/subprocess.hpp"
#include "ptovec/generator/interrupts.hpp"
#include "ptovec/tools/device.hpp"

namespace ptovec::tools {

namespace {

// The child's side of Host::Spawn, between fork and exec (only async-signal-safe calls): its
// descriptors onto their targets, stdin from /dev/null (devnull), then exec; an exec failure's
// errno goes to exec_status_fd.
[[noreturn]] void ExecHostChild(pid_t parent, char* const* argv, const std::vector<int>& child_fds,
                                int exec_status_fd, int devnull, int high) {
  if (::getppid() != parent) ::_exit(127);
  // ptovec blocks SIGINT and SIGTERM in its threads (generator/interrupts.hpp) and a signal
  // mask survives exec: the host gets the default (it then ignores SIGINT itself).
  sigset_t none;
  sigemptyset(&none);
  ::sigprocmask(SIG_SETMASK, &none, nullptr);
  ::signal(SIGPIPE, SIG_DFL);  // ignored by ptovec, and SIG_IGN survives exec
  // Move every descriptor above the targets first (the copies close on exec), then onto its
  // target (dup2 clears close-on-exec).
  const int status_fd = ::fcntl(exec_status_fd, F_DUPFD_CLOEXEC, high);
  const int null_fd = devnull >= 0 ? ::fcntl(devnull, F_DUPFD_CLOEXEC, high) : -1;
  int moved[1 + 2 * 256];
  const std::size_t nfds = std::min<std::size_t>(child_fds.size(), 1 + 2 * 256);
  for (std::size_t j = 0; j < nfds; ++j) {
    moved[j] = ::fcntl(child_fds[j], F_DUPFD_CLOEXEC, high);
  }
  for (std::size_t j = 0; j < nfds; ++j) ::dup2(moved[j], kHostMemFd + static_cast<int>(j));
  if (null_fd >= 0) ::dup2(null_fd, 0);
  ::execv(argv[0], argv);
  const int e = errno;
  if (status_fd >= 0) {
    [[maybe_unused]] const ssize_t w = ::write(status_fd, &e, sizeof e);
  }
  ::_exit(127);
}

}  // namespace

std::string EndText(int status) {
  if (WIFSIGNALED(status)) {
    const int sig = WTERMSIG(status);
    const char* name = ::strsignal(sig);
    return "was killed by signal " + std::to_string(sig) +
           (name != nullptr ? " (" + std::string(name) + ")" : std::string());
  }
  if (WIFEXITED(status)) return "exited with status " + std::to_string(WEXITSTATUS(status));
  return "ended";
}

Host::Host(const std::string& program, const std::string& library, const std::string& arg,
           std::size_t channels)
    : channels_(channels), busy_(channels, false) {
  IgnoreSigpipe();
  MapRegions(library);
  std::vector<int> child_fds = OpenChannels(library);
  Spawn(program, library, arg, child_fds);
}

void Host::MapRegions(const std::string& library) {
  bytes_ = channels_ * kHostRegionBytes;
  memfd_ = ::memfd_create("ptovec-device-host", MFD_CLOEXEC);
  if (memfd_ < 0 || ::ftruncate(memfd_, static_cast<off_t>(bytes_)) != 0) {
    const int e = errno;
    CloseFd(memfd_);
    throw DeviceError("cannot start the device host for " + library +
                      ": shared memory: " + std::strerror(e));
  }
  void* m = ::mmap(nullptr, bytes_, PROT_READ | PROT_WRITE, MAP_SHARED, memfd_, 0);
  if (m == MAP_FAILED) {
    const int e = errno;
    CloseFd(memfd_);
    throw DeviceError("cannot start the device host for " + library +
                      ": mmap: " + std::strerror(e));
  }
  map_ = static_cast<std::uint8_t*>(m);
}

std::vector<int> Host::OpenChannels(const std::string& library) {
  std::vector<int> child_fds{memfd_};
  for (std::size_t k = 0; k < channels_; ++k) {
    int req[2] = {-1, -1};
    int ans[2] = {-1, -1};
    if (::pipe2(req, O_CLOEXEC) != 0 || ::pipe2(ans, O_CLOEXEC) != 0) {
      const int e = errno;
      for (int* p : {req, ans}) {
        CloseFd(p[0]);
        CloseFd(p[1]);
      }
      for (std::size_t j = 1; j < child_fds.size(); ++j) CloseFd(child_fds[j]);
      Release();
      throw DeviceError("cannot start the device host for " + library +
                        ": pipe: " + std::strerror(e));
    }
    child_fds.push_back(req[0]);
    child_fds.push_back(ans[1]);
    request_.push_back(req[1]);
    answer_.push_back(ans[0]);
  }
  return child_fds;
}

void Host::Spawn(const std::string& program, const std::string& library, const std::string& arg,
                 std::vector<int>& child_fds) {
  const std::string count = std::to_string(channels_);
  std::vector<char*> argv{const_cast<char*>(program.c_str()), const_cast<char*>(library.c_str()),
                          const_cast<char*>(arg.c_str()), const_cast<char*>(count.c_str()),
                          nullptr};
  int exec_status[2] = {-1, -1};
  if (::pipe2(exec_status, O_CLOEXEC) != 0) exec_status[0] = exec_status[1] = -1;
  const int devnull = ::open("/dev/null", O_RDONLY | O_CLOEXEC);
  const pid_t parent = ::getpid();
  const int high = 16 + static_cast<int>(child_fds.size()) + 3 + 2 * static_cast<int>(channels_);
  // Registered before an interrupt can look (an interrupt kills and reaps it; WaitForExit
  // unregisters it). No PR_SET_PDEATHSIG: it fires when the forking *thread* ends, and a host
  // restarted by a worker thread would be killed with that thread; the host watches its parent
  // instead (RunDeviceHost).
  generator::ChildStart registration;
  pid_ = ::fork();
  if (pid_ == 0) ExecHostChild(parent, argv.data(), child_fds, exec_status[1], devnull, high);
  const int fork_errno = errno;
  registration.Started(pid_);
  if (devnull >= 0) ::close(devnull);
  for (std::size_t j = 1; j < child_fds.size(); ++j) CloseFd(child_fds[j]);
  CloseFd(exec_status[1]);
  const int exec_errno = pid_ > 0 && exec_status[0] >= 0 ? ReadExecErrno(exec_status[0]) : 0;
  CloseFd(exec_status[0]);
  if (pid_ < 0 || exec_errno != 0) {
    const int e = pid_ < 0 ? fork_errno : exec_errno;
    if (pid_ > 0) Kill();
    pid_ = -1;
    for (int& fd : request_) CloseFd(fd);
    for (int& fd : answer_) CloseFd(fd);
    Release();
    throw DeviceError("cannot start the device host " + program + " for " + library + ": " +
                      std::strerror(e) +
                      " (ptovec-device-host belongs next to ptovec; --in-process loads the "
                      "library without it)");
  }
}

Host::~Host() {
  for (int& fd : request_) CloseFd(fd);  // end of requests: the host exits
  if (pid_ > 0 && !ended_) {
    if (!WaitForExit(pid_, std::chrono::milliseconds(2000), status_)) {
      ::kill(pid_, SIGKILL);
      WaitForExit(pid_, std::chrono::seconds(10), status_);
    }
  }
  for (int& fd : answer_) CloseFd(fd);
  Release();
}

Host::Outcome Host::Receive(std::size_t k, double timeout_s, HostMessage& kind, std::string& text) {
  const auto deadline =
      std::chrono::steady_clock::now() +
      std::chrono::milliseconds(static_cast<std::int64_t>(timeout_s * 1000.0 + 0.5));
  char header[8];
  std::size_t got = 0;
  std::size_t need = sizeof header;
  text.clear();
  std::uint32_t length = 0;
  bool in_text = false;
  for (;;) {
    int wait_ms = -1;
    if (timeout_s > 0) {
      const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
          deadline - std::chrono::steady_clock::now());
      if (left.count() <= 0) return Outcome::kHung;
      wait_ms = static_cast<int>(std::min<std::int64_t>(left.count() + 1, 1 << 30));
    }
    pollfd p{answer_[k], POLLIN, 0};
    const int r = ::poll(&p, 1, wait_ms);
    if (r < 0 && errno == EINTR) continue;
    if (r == 0) continue;  // the deadline check above decides
    if (r < 0) return Outcome::kEnded;
    char buf[4096];
    const std::size_t want = std::min(sizeof buf, need - got);
    const ssize_t n = ::read(answer_[k], in_text ? buf : header + got, in_text ? want : need - got);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return Outcome::kEnded;
    if (in_text) text.append(buf, static_cast<std::size_t>(n));
    got += static_cast<std::size_t>(n);
    if (got < need) continue;
    if (!in_text) {
      std::uint32_t k32 = 0;
      std::memcpy(&k32, header, 4);
      std::memcpy(&length, header + 4, 4);
      kind = static_cast<HostMessage>(k32);
      if (length == 0) return Outcome::kMessage;
      in_text = true;
      got = 0;
      need = length;
    } else {
      return Outcome::kMessage;
    }
  }
}

bool Host::Request(std::size_t k, std::uint64_t n) {
  return WriteAll(request_[k], reinterpret_cast<const char*>(&n), sizeof n);
}

std::string Host::End(bool hung) {
  std::lock_guard<std::mutex> lock(end_mutex_);
  if (!ended_) {
    ended_by_us_ = hung;
    if (!hung && WaitForExit(pid_, std::chrono::milliseconds(2000), status_)) {
      ended_ = true;
    } else {
      ::kill(pid_, SIGKILL);
      ended_ = WaitForExit(pid_, std::chrono::seconds(10), status_);
    }
    dead_ = true;
  }
  return ended_by_us_ ? std::string("was killed by ptovec") : EndText(status_);
}

void Host::Kill() {
  ::kill(pid_, SIGKILL);
  int s = 0;
  WaitForExit(pid_, std::chrono::seconds(10), s);
}

void Host::Release() {
  if (map_ != nullptr) ::munmap(map_, bytes_);
  map_ = nullptr;
  CloseFd(memfd_);
}

}  // namespace ptovec::tools
