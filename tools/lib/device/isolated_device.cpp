// Isolated library devices, ptovec's side of the device host (OpenIsolatedLibraryDevice): starting,
// talking to and ending a ptovec-device-host process (Host), the device that spreads batches over
// its channels and replays a failed batch case by case to name the case (IsolatedDevice), and the
// case text of its failures (CaseText). See device_host.hpp for the wire.
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <charconv>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <memory>
#include <mutex>
#include <span>
#include <string>
#include <system_error>
#include <thread>
#include <utility>
#include <vector>

#include "device/device_host.hpp"
#include "device/device_text.hpp"
#include "device/subprocess.hpp"
#include "ptovec/generator/cases.hpp"
#include "ptovec/generator/interrupts.hpp"
#include "ptovec/generator/ops.hpp"
#include "ptovec/generator/word_text.hpp"
#include "ptovec/generator/writers.hpp"
#include "ptovec/oracle/formats.hpp"
#include "ptovec/tools/device.hpp"

namespace ptovec::tools {

namespace {

using generator::Case;
using generator::EvalCommand;

std::string TimeoutText(double s) {
  char buf[32];
  const auto r = std::to_chars(buf, buf + sizeof buf, s);
  return std::string(buf, r.ptr);
}

// What a waitpid status says about a host that ended: "was killed by signal 11 (Segmentation
// fault)", "exited with status 3".
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

// "crashed (its host was killed by signal 11 (...))" or "exited unexpectedly (its host exited
// with status 3)" for a host's EndText.
std::string CrashText(const std::string& ended) {
  return (ended.rfind("exited", 0) == 0 ? "exited unexpectedly (its host " : "crashed (its host ") +
         ended + ")";
}

// One started device host: its process, shared memory and channels.
class Host {
 public:
  Host(const std::string& program, const std::string& library, const std::string& arg,
       std::size_t channels)
      : channels_(channels), busy_(channels, false) {
    IgnoreSigpipe();
    bytes_ = channels * kHostRegionBytes;
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
    // The child's descriptors, in target order: memfd, then each channel's request (read end)
    // and answer (write end).
    std::vector<int> child_fds{memfd_};
    for (std::size_t k = 0; k < channels; ++k) {
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
    const std::string count = std::to_string(channels);
    std::vector<char*> argv{const_cast<char*>(program.c_str()), const_cast<char*>(library.c_str()),
                            const_cast<char*>(arg.c_str()), const_cast<char*>(count.c_str()),
                            nullptr};
    int exec_status[2] = {-1, -1};
    if (::pipe2(exec_status, O_CLOEXEC) != 0) exec_status[0] = exec_status[1] = -1;
    const int devnull = ::open("/dev/null", O_RDONLY | O_CLOEXEC);
    const pid_t parent = ::getpid();
    const int high = 16 + static_cast<int>(child_fds.size()) + 3 + 2 * static_cast<int>(channels);
    // Registered before an interrupt can look (an interrupt kills and reaps it; WaitForExit
    // unregisters it). No PR_SET_PDEATHSIG: it fires when the forking *thread* ends, and a host
    // restarted by a worker thread would be killed with that thread; the host watches its parent
    // instead (RunDeviceHost).
    generator::ChildStart registration;
    pid_ = ::fork();
    if (pid_ == 0) {  // only async-signal-safe calls from here
      if (::getppid() != parent) ::_exit(127);
      // ptovec blocks SIGINT and SIGTERM in its threads (generator/interrupts.hpp) and a signal
      // mask survives exec: the host gets the default (it then ignores SIGINT itself).
      sigset_t none;
      sigemptyset(&none);
      ::sigprocmask(SIG_SETMASK, &none, nullptr);
      ::signal(SIGPIPE, SIG_DFL);  // ignored by ptovec, and SIG_IGN survives exec
      // Move every descriptor above the targets first (the copies close on exec), then onto its
      // target (dup2 clears close-on-exec).
      const int status_fd = ::fcntl(exec_status[1], F_DUPFD_CLOEXEC, high);
      const int null_fd = devnull >= 0 ? ::fcntl(devnull, F_DUPFD_CLOEXEC, high) : -1;
      int moved[1 + 2 * 256];
      const std::size_t nfds = std::min<std::size_t>(child_fds.size(), 1 + 2 * 256);
      for (std::size_t j = 0; j < nfds; ++j) {
        moved[j] = ::fcntl(child_fds[j], F_DUPFD_CLOEXEC, high);
      }
      for (std::size_t j = 0; j < nfds; ++j) ::dup2(moved[j], kHostMemFd + static_cast<int>(j));
      if (null_fd >= 0) ::dup2(null_fd, 0);
      ::execv(argv[0], argv.data());
      const int e = errno;
      if (status_fd >= 0) {
        [[maybe_unused]] const ssize_t w = ::write(status_fd, &e, sizeof e);
      }
      ::_exit(127);
    }
    const int fork_errno = errno;
    registration.Started(pid_);
    if (devnull >= 0) ::close(devnull);
    for (std::size_t j = 1; j < child_fds.size(); ++j) CloseFd(child_fds[j]);
    CloseFd(exec_status[1]);
    int exec_errno = 0;
    if (pid_ > 0 && exec_status[0] >= 0) {
      ssize_t r = 0;
      do {
        r = ::read(exec_status[0], &exec_errno, sizeof exec_errno);
      } while (r < 0 && errno == EINTR);
      if (r != static_cast<ssize_t>(sizeof exec_errno)) exec_errno = 0;
    }
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

  ~Host() {
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

  Host(const Host&) = delete;
  Host& operator=(const Host&) = delete;

  std::size_t channels() const { return channels_; }
  std::uint8_t* Region(std::size_t k) { return map_ + k * kHostRegionBytes; }

  enum class Outcome { kMessage, kEnded, kHung };

  /// Waits up to `timeout_s` (0: no limit) for channel k's next message.
  Outcome Receive(std::size_t k, double timeout_s, HostMessage& kind, std::string& text) {
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
      const ssize_t n =
          ::read(answer_[k], in_text ? buf : header + got, in_text ? want : need - got);
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

  /// Asks channel k to evaluate the first n cases of its region; false if the host has gone.
  bool Request(std::size_t k, std::uint64_t n) {
    return WriteAll(request_[k], reinterpret_cast<const char*>(&n), sizeof n);
  }

  /// Kills the host (once) and returns how it ended ("was killed by signal 11 (...)").
  std::string End(bool hung) {
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

  bool dead() const { return dead_; }
  void MarkDead() { dead_ = true; }

  std::vector<bool>& busy() { return busy_; }

 private:
  void Kill() {
    ::kill(pid_, SIGKILL);
    int s = 0;
    WaitForExit(pid_, std::chrono::seconds(10), s);
  }
  void Release() {
    if (map_ != nullptr) ::munmap(map_, bytes_);
    map_ = nullptr;
    CloseFd(memfd_);
  }

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

class IsolatedDevice final : public Device {
 public:
  IsolatedDevice(const std::filesystem::path& library, const std::string& arg,
                 const IsolatedDeviceOptions& options)
      : library_(library.string()), arg_(arg), options_(options) {
    CheckDeviceLibraryPath(library);  // as the in-process loader does, before starting anything
    program_ = options.host_program.empty() ? DefaultHostProgram() : options.host_program.string();
    name_ = library.filename().string();
    // The first host answers with the library's name and properties; a thread-safe library
    // then gets one channel per core.
    std::unique_ptr<Host> probe = Start(1, &thread_safe_);
    channels_ =
        thread_safe_ ? std::clamp<std::size_t>(std::thread::hardware_concurrency(), 1, 64) : 1;
    host_ = channels_ == 1 ? std::shared_ptr<Host>(std::move(probe)) : nullptr;
  }

  const std::string& Name() const override { return name_; }
  bool ThreadSafe() const override { return thread_safe_; }
  std::size_t BatchCases() const override { return kHostCapacity; }

  void Evaluate(std::span<const Case> cases, std::span<DeviceAnswer> answers) override {
    CheckAnswerRoom(name_, cases.size(), answers.size());
    for (std::size_t begin = 0; begin < cases.size(); begin += kHostCapacity) {
      const std::size_t n = std::min(kHostCapacity, cases.size() - begin);
      EvaluatePart(cases.subspan(begin, n), answers.subspan(begin, n));
    }
  }

 private:
  static std::string DefaultHostProgram() {
    std::error_code ec;
    const std::filesystem::path self = std::filesystem::read_symlink("/proc/self/exe", ec);
    return (self.parent_path() / "ptovec-device-host").string();
  }

  // Starts a host of `channels` channels and reads its hello; sets *thread_safe when given.
  std::unique_ptr<Host> Start(std::size_t channels, bool* thread_safe) {
    auto host = std::make_unique<Host>(program_, library_, arg_, channels);
    HostMessage kind{};
    std::string text;
    const Host::Outcome o = host->Receive(0, options_.timeout, kind, text);
    if (o == Host::Outcome::kHung) {
      host->End(true);
      throw DeviceError("device " + library_ + " did not finish loading within " +
                        TimeoutText(options_.timeout) + " s (--dut-timeout); killed it");
    }
    if (o == Host::Outcome::kEnded) {
      throw DeviceError("device " + library_ + " " + host->End(false) +
                        " while loading (ptovec_dut_init or a library constructor)");
    }
    if (kind == HostMessage::kOpenError) throw DeviceError(text);
    if (kind != HostMessage::kReady || text.size() < 2) {
      throw DeviceError("device host for " + library_ + " answered its hello with kind " +
                        std::to_string(static_cast<std::uint32_t>(kind)));
    }
    if (thread_safe != nullptr) {
      *thread_safe = text[0] == '1';
      name_ = text.substr(2);
    }
    return host;
  }

  // A channel of the current host (started or restarted as needed).
  std::pair<std::shared_ptr<Host>, std::size_t> Acquire() {
    std::unique_lock<std::mutex> lock(mutex_);
    for (;;) {
      if (!host_ || host_->dead()) host_ = std::shared_ptr<Host>(Start(channels_, nullptr));
      std::vector<bool>& busy = host_->busy();
      for (std::size_t k = 0; k < busy.size(); ++k) {
        if (!busy[k]) {
          busy[k] = true;
          return {host_, k};
        }
      }
      cv_.wait(lock);
    }
  }

  void Free(const std::shared_ptr<Host>& host, std::size_t k) {
    std::lock_guard<std::mutex> lock(mutex_);
    host->busy()[k] = false;
    cv_.notify_all();
  }

  enum class PartResult { kDone, kEnded, kHung };

  // Evaluates cases (at most kHostCapacity) on channel k of host.
  PartResult Exchange(Host& host, std::size_t k, std::span<const Case> cases,
                      std::span<DeviceAnswer> answers, std::string& ended) {
    const std::vector<generator::OpDef>& ops = generator::AllOps();
    std::uint8_t* region = host.Region(k);
    HostCase* out = RegionCases(region);
    const generator::OpDef* last_op = nullptr;
    std::uint16_t op_index = 0;
    for (std::size_t i = 0; i < cases.size(); ++i) {
      const Case& c = cases[i];
      if (c.op != last_op) {
        last_op = c.op;
        op_index = static_cast<std::uint16_t>(c.op - ops.data());
      }
      HostCase& h = out[i];
      h.op = op_index;
      h.src = static_cast<std::uint8_t>(c.pair.src);
      h.dst = static_cast<std::uint8_t>(c.pair.dst);
      h.rmode = static_cast<std::uint8_t>(c.control.rounding_mode);
      h.sat = c.control.saturating ? 1 : 0;
      for (std::size_t s = 0; s < generator::kMaxSlots; ++s) h.in[s] = c.in[s];
    }
    return Roundtrip(host, k, cases.size(), answers, ended);
  }

  // Evaluates every input of `inputs` under every control (at most kHostCapacity answers, inputs
  // and controls together at most kHostCapacity cases) on channel k of host: the controls go in
  // the region's first cases, the inputs after them.
  PartResult ExchangeProduct(Host& host, std::size_t k, const OpDef& op, TypePair pair,
                             std::span<const Inputs> inputs,
                             std::span<const NumericExecutionControl> controls,
                             std::span<DeviceAnswer> answers, std::string& ended) {
    HostCase* out = RegionCases(host.Region(k));
    const std::size_t nc = controls.size();
    for (std::size_t c = 0; c < nc; ++c) {
      HostCase& h = out[c];
      h.op = static_cast<std::uint16_t>(&op - generator::AllOps().data());
      h.src = static_cast<std::uint8_t>(pair.src);
      h.dst = static_cast<std::uint8_t>(pair.dst);
      h.rmode = static_cast<std::uint8_t>(controls[c].rounding_mode);
      h.sat = controls[c].saturating ? 1 : 0;
    }
    for (std::size_t i = 0; i < inputs.size(); ++i) {
      for (std::size_t s = 0; s < generator::kMaxSlots; ++s) out[nc + i].in[s] = inputs[i][s];
    }
    const std::uint64_t request = kProductRequest | (std::uint64_t{nc} << 32) | inputs.size();
    return Roundtrip(host, k, request, answers, ended);
  }

  // Sends `request` on channel k and waits for its answers (answers.size() of them).
  PartResult Roundtrip(Host& host, std::size_t k, std::uint64_t request,
                       std::span<DeviceAnswer> answers, std::string& ended) {
    std::uint8_t* region = host.Region(k);
    HostMessage kind{};
    std::string text;
    if (!host.Request(k, request)) {
      ended = host.End(false);
      return PartResult::kEnded;
    }
    const Host::Outcome o = host.Receive(k, options_.timeout, kind, text);
    if (o == Host::Outcome::kHung) {
      ended = host.End(true);
      return PartResult::kHung;
    }
    if (o == Host::Outcome::kEnded) {
      ended = host.End(false);
      return PartResult::kEnded;
    }
    if (kind == HostMessage::kError) throw DeviceError(text);
    if (kind != HostMessage::kAnswers) {
      host.MarkDead();
      throw DeviceError("device host for " + name_ + " sent message kind " +
                        std::to_string(static_cast<std::uint32_t>(kind)));
    }
    const HostAnswer* in = RegionAnswers(region);
    for (std::size_t i = 0; i < answers.size(); ++i) {
      answers[i].supported = in[i].supported != 0;
      answers[i].result = {in[i].word, static_cast<oracle::Status>(in[i].status)};
    }
    return PartResult::kDone;
  }

  void EvaluateProduct(const OpDef& op, TypePair pair, std::span<const Inputs> inputs,
                       std::span<const NumericExecutionControl> controls,
                       std::span<DeviceAnswer> answers) override {
    const std::size_t nc = controls.size();
    CheckAnswerRoom(name_, inputs.size() * nc, answers.size());
    if (nc == 0 || nc > kHostCapacity / 2) {
      Device::EvaluateProduct(op, pair, inputs, controls, answers);
      return;
    }
    const std::size_t per = std::min(kHostCapacity - nc, kHostCapacity / nc);
    for (std::size_t begin = 0; begin < inputs.size(); begin += per) {
      const std::size_t n = std::min(per, inputs.size() - begin);
      const std::span<const Inputs> part = inputs.subspan(begin, n);
      const std::span<DeviceAnswer> part_answers = answers.subspan(begin * nc, n * nc);
      auto [host, k] = Acquire();
      std::string ended;
      PartResult r = PartResult::kDone;
      try {
        r = ExchangeProduct(*host, k, op, pair, part, controls, part_answers, ended);
      } catch (...) {
        Free(host, k);
        throw;
      }
      Free(host, k);
      if (r == PartResult::kDone) continue;
      std::vector<Case> cases;
      cases.reserve(n * nc);
      for (const Inputs& in : part) {
        for (const NumericExecutionControl& control : controls)
          cases.push_back({&op, pair, control, in});
      }
      Replay(cases, part_answers, r, ended);
    }
  }

  void EvaluatePart(std::span<const Case> cases, std::span<DeviceAnswer> answers) {
    auto [host, k] = Acquire();
    std::string ended;
    PartResult r = PartResult::kDone;
    try {
      r = Exchange(*host, k, cases, answers, ended);
    } catch (...) {
      Free(host, k);
      throw;
    }
    Free(host, k);
    if (r == PartResult::kDone) return;
    Replay(cases, answers, r, ended);
  }

  // A part whose host crashed, exited or hung: its cases one at a time in a fresh host of one
  // channel, to name the case. A part that only hung as a whole (every case answers within the
  // limit alone) takes the answers of the replay.
  void Replay(std::span<const Case> cases, std::span<DeviceAnswer> answers, PartResult first,
              const std::string& first_end) {
    std::unique_ptr<Host> host = Start(1, nullptr);
    for (std::size_t i = 0; i < cases.size(); ++i) {
      std::string ended;
      const PartResult r = Exchange(*host, 0, cases.subspan(i, 1), answers.subspan(i, 1), ended);
      if (r == PartResult::kDone) continue;
      const std::string what = r == PartResult::kHung
                                   ? "hung (no answer within " + TimeoutText(options_.timeout) +
                                         " s, --dut-timeout; killed it)"
                                   : CrashText(ended);
      throw DeviceFailure("device " + name_ + " " + what + " on case " + CaseText(cases[i]) +
                              (cases.size() > 1 ? " (found by replaying its batch of " +
                                                      std::to_string(cases.size()) +
                                                      " cases one at a time in a fresh host)"
                                                : std::string()),
                          cases[i], r == PartResult::kHung);
    }
    if (first == PartResult::kHung) return;
    throw DeviceFailure("device " + name_ + " " + CrashText(first_end) + " on a batch of " +
                            std::to_string(cases.size()) + " cases starting with case " +
                            CaseText(cases[0]) +
                            "; replayed one at a time in a fresh host none of them failed (the "
                            "crash depends on earlier cases or is not deterministic)",
                        cases[0], false);
  }

  std::string library_;
  std::string arg_;
  IsolatedDeviceOptions options_;
  std::string program_;
  std::string name_;
  bool thread_safe_ = false;
  std::size_t channels_ = 1;
  std::mutex mutex_;
  std::condition_variable cv_;
  std::shared_ptr<Host> host_;
};

}  // namespace

std::string CaseText(const Case& c) {
  std::string s = c.op->name + " " + std::string(oracle::Format(c.pair.src).name) + " -> " +
                  std::string(oracle::Format(c.pair.dst).name) + ", mode " +
                  std::string(oracle::RoundingModeName(c.control.rounding_mode)) + ", Sat " +
                  (c.control.saturating ? "on" : "off") + ", inputs";
  for (std::size_t i = 0; i < c.op->slots.size(); ++i) {
    s += " " + generator::HexWord(c.in[i], c.op->slots[i].TypeFor(c.pair));
  }
  return s + " (reproduce: " + EvalCommand(c) + ")";
}

std::unique_ptr<Device> OpenIsolatedLibraryDevice(const std::filesystem::path& library,
                                                  const std::string& arg,
                                                  const IsolatedDeviceOptions& options) {
  return std::make_unique<IsolatedDevice>(library, arg, options);
}

}  // namespace ptovec::tools
