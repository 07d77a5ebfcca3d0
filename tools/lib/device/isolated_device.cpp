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
#include <optional>
#include <span>
#include <sstream>
#include <string>
#include <system_error>
#include <thread>
#include <utility>
#include <vector>

#include "device/device_host.hpp"
#include "device/device_host_process.hpp"
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

// "crashed (its host was killed by signal 11 (...))" or "exited unexpectedly (its host exited
// with status 3)" for a host's EndText.
std::string CrashText(const std::string& ended) {
  return (ended.rfind("exited", 0) == 0 ? "exited unexpectedly (its host " : "crashed (its host ") +
         ended + ")";
}

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
  std::optional<ClockCounts> Clocks() const override {
    std::lock_guard<std::mutex> lock(clocks_mutex_);
    return clocks_;
  }

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

  // Keeps the latest "CASES CLOCKS" of a kAnswers message (the counts only grow within a host).
  void NoteClocks(const std::string& text) {
    ClockCounts counts;
    std::istringstream in(text);
    if (!(in >> counts.cases >> counts.clocks)) return;
    std::lock_guard<std::mutex> lock(clocks_mutex_);
    if (!clocks_ || counts.clocks > clocks_->clocks) clocks_ = counts;
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
    std::uint8_t* region = host.Region(k);
    HostCase* out = RegionCases(region);
    const generator::OpDef* last_op = nullptr;
    std::uint16_t op_index = 0;
    for (std::size_t i = 0; i < cases.size(); ++i) {
      const Case& c = cases[i];
      if (c.op != last_op) {
        last_op = c.op;
        op_index = HostOpCode(*c.op);
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
      h.op = HostOpCode(op);
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
    if (!text.empty()) NoteClocks(text);
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
  mutable std::mutex clocks_mutex_;
  std::optional<ClockCounts> clocks_;  // the latest a host reported
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
