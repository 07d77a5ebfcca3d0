// Program devices: OpenCommandDevice (a program speaking the line protocol of
// schemas/dut-protocol.md on its stdin and stdout). Cases are written by the calling thread, or
// for large batches by a writer thread, while the calling thread reads the answers; a second
// thread collects the device's stderr for error messages.
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <charconv>
#include <chrono>
#include <condition_variable>
#include <cstring>
#include <deque>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "device/device_protocol.hpp"
#include "device/device_text.hpp"
#include "device/subprocess.hpp"
#include "ptovec/generator/word_text.hpp"
#include "ptovec/generator/writers.hpp"
#include "ptovec/tools/device.hpp"

namespace ptovec::tools {

namespace {

using generator::EvalCommand;
using oracle::Word;

class CommandDevice final : public Device {
 public:
  CommandDevice(const std::string& command_line, const CommandDeviceOptions& options)
      : command_line_(command_line), options_(options) {
    const std::vector<std::string> argv = SplitCommandLine(command_line);
    if (argv.empty()) throw DeviceError("cannot start device: the command line is empty");
    name_ = argv[0];
    IgnoreSigpipe();
    int stop[2] = {-1, -1};  // wakes the stderr thread when the device is cleaned up
    if (::pipe2(stop, O_CLOEXEC) != 0) {
      throw DeviceError("cannot start '" + command_line + "': pipe: " + std::strerror(errno));
    }
    try {
      const ChildProcess child = StartChild(argv, command_line);
      pid_ = child.pid;
      to_device_ = child.to_child;
      from_device_ = child.from_child;
      err_fd_ = child.child_stderr;
    } catch (...) {
      CloseFd(stop[0]);
      CloseFd(stop[1]);
      throw;
    }
    stop_read_ = stop[0];
    stop_write_ = stop[1];
    stderr_thread_ = std::thread([this] { CollectStderr(); });
    reader_ =
        std::make_unique<generator::LineReader>(DeviceLineReader(from_device_, AnswerTimeoutMs()));
    try {
      Hello();
    } catch (...) {
      if (!exited_) ::kill(pid_, SIGKILL);
      WaitFor(std::chrono::seconds(10));
      Cleanup();
      throw;
    }
  }

  const std::string& Name() const override { return name_; }

  ~CommandDevice() override {
    StopWriter();
    if (to_device_ >= 0) CloseFd(to_device_);  // end of input: the device exits 0
    if (pid_ > 0) {
      if (!WaitFor(GraceMs())) {
        ::kill(pid_, SIGKILL);
        WaitFor(std::chrono::seconds(10));
      }
    }
    Cleanup();
  }

  void Close() override {
    if (closed_ || broken_) return;
    closed_ = true;
    StopWriter();
    CloseFd(to_device_);
    // Everything up to end of output, then the exit, within the grace period.
    const auto grace = GraceMs();
    const auto deadline = std::chrono::steady_clock::now() + grace;
    reader_->SetTimeout(static_cast<int>(grace.count()));
    std::string_view line;
    bool unterminated = false;
    const std::string last = next_index_ == 0
                                 ? std::string("no case was sent")
                                 : "the last case was " + std::to_string(next_index_ - 1);
    if (NextDeviceLine(*reader_, line, unterminated)) {
      Fail("wrote '" + ShortenDeviceText(line) + "' after its last answer (" + last +
               "; nothing may follow the last answer)",
           0, 0);
    }
    const std::string no_exit = "did not exit within " + Seconds(options_.exit_grace) +
                                " s after its input ended (" + last + ")";
    if (reader_->timed_out()) Fail(no_exit, 0, 0, true);
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
        deadline - std::chrono::steady_clock::now());
    if (!WaitFor(std::max(left, std::chrono::milliseconds(0)))) Fail(no_exit, 0, 0, true);
    if (!WIFEXITED(exit_status_) || WEXITSTATUS(exit_status_) != 0) {
      Fail("failed after its input ended (" + last + "; a device must exit with status 0)", 0, 0);
    }
  }

  void Evaluate(std::span<const Case> cases, std::span<DeviceAnswer> answers) override {
    CheckAnswerRoom(name_, cases.size(), answers.size());
    if (broken_) throw DeviceError("device " + name_ + " is unusable after an earlier error");
    if (closed_) throw DeviceError("device " + name_ + " was closed");
    if (cases.empty()) return;
    const std::uint64_t base = next_index_;
    next_index_ += cases.size();
    // Small batches fit the pipe (at least one 4 KiB page): write them here. Larger ones from a
    // thread, so a device that answers while reading never deadlocks on full pipes.
    write_failed_ = false;
    {
      std::string text;
      std::size_t i = 0;
      for (; i < cases.size() && text.size() < 3000; ++i) {
        formatter_.Append(text, base + i, cases[i]);
      }
      if (i == cases.size() && text.size() <= 4096) {
        if (!WriteAll(to_device_, text.data(), text.size())) write_failed_ = true;
      } else {
        writer_ = std::thread([this, cases, base] {
          CaseFormatter f;
          std::string chunk;
          chunk.reserve(1 << 17);
          for (std::size_t j = 0; j < cases.size(); ++j) {
            f.Append(chunk, base + j, cases[j]);
            if (chunk.size() >= (1 << 16) || j + 1 == cases.size()) {
              if (!WriteAll(to_device_, chunk.data(), chunk.size())) {
                write_failed_ = true;
                return;
              }
              chunk.clear();
            }
          }
        });
      }
    }
    try {
      ReadAnswers(cases, answers, base);
    } catch (...) {
      StopWriter();
      throw;
    }
    if (writer_.joinable()) writer_.join();
  }

 private:
  // Exchanges the hello lines (schemas/dut-protocol.md).
  void Hello() {
    const std::string hello = std::string(kHelloWord) + " " + std::string(kProtocolVersion) + "\n";
    WriteAll(to_device_, hello.data(), hello.size());  // an EPIPE shows up as EOF below
    std::string_view line;
    bool unterminated = false;
    if (!NextDeviceLine(*reader_, line, unterminated)) {
      if (reader_->timed_out()) {
        Fail("sent no hello line within " + Seconds(options_.answer_timeout) +
                 " s (--dut-timeout; a device must flush stdout after each line it writes)",
             0, 0, true);
      }
      Fail("exited before its hello line", 0, 0);
    }
    std::string_view t[3];
    const std::size_t n = Tokens(line, t, 3);
    if (unterminated || n < 2 || t[0] != kHelloWord) {
      Fail("answered the hello with '" + ShortenDeviceText(line) +
               "' (expected 'ptovec-dut 1 NAME', schemas/dut-protocol.md)",
           0, 0);
    }
    if (t[1] != kProtocolVersion) {
      Fail("speaks line protocol version " + ShortenDeviceText(t[1], 20) +
               ", this ptovec speaks version 1",
           0, 0);
    }
    if (n == 3 && !t[2].empty()) name_ = SanitizeDeviceText(t[2]);
  }

  // Reads one answer line per case into answers, in order, checking index, word width and
  // flags; any other line, a missing answer or a timeout ends the device through Fail.
  void ReadAnswers(std::span<const Case> cases, std::span<DeviceAnswer> answers,
                   std::uint64_t base) {
    for (std::size_t i = 0; i < cases.size(); ++i) {
      const Case& k = cases[i];
      std::string_view line;
      bool unterminated = false;
      if (!NextDeviceLine(*reader_, line, unterminated)) {
        if (reader_->timed_out()) {
          Fail("gave no answer to case " + std::to_string(base + i) + " (" + EvalCommand(k) +
                   ") within " + Seconds(options_.answer_timeout) +
                   " s (--dut-timeout; does the device flush stdout after its answers?)",
               i, cases.size(), true, &k);
        }
        Fail("exited before answering case " + std::to_string(base + i) + ": " + EvalCommand(k), i,
             cases.size(), false, &k);
      }
      const auto bad = [&](const std::string& what) {
        Fail("answered case " + std::to_string(base + i) + " (" + EvalCommand(k) + ") with '" +
                 ShortenDeviceText(line) + "': " + what,
             i, cases.size());
      };
      if (unterminated) bad("the line has no newline (or exceeds 1 MiB)");
      std::string_view t[4];
      const std::size_t n = Tokens(line, t, 3);
      std::uint64_t index = 0;
      if (n == 0 || !ParseDecimal(t[0], index)) bad("expected '<index> <out> <flags>'");
      if (index != base + i) {
        bad("wrong index " + std::string(t[0]) + " (expected " + std::to_string(base + i) +
            "; answers come one per case, in order)");
      }
      DeviceAnswer& a = answers[i];
      if (n >= 2 && t[1] == "unsupported") {
        if (n != 2) bad("nothing may follow 'unsupported'");
        a.supported = false;
        a.result = {};
        continue;
      }
      if (n >= 2 && t[1] == "error") {
        Fail("reported an error on case " + std::to_string(base + i) + " (" + EvalCommand(k) +
                 "): " + ShortenDeviceText(n == 3 ? t[2] : std::string_view("(no reason given)")),
             i, cases.size());
      }
      if (n != 3) {
        bad("expected '<index> <out> <flags>', '<index> unsupported' or '<index> error TEXT'");
      }
      Word word = 0;
      Word flags = 0;
      if (!generator::ParseHexWord(t[1], word))
        bad("malformed word (expected 0x and 1 to 16 hex digits)");
      if (!generator::ParseHexWord(t[2], flags)) bad("malformed flags (expected 0x00..0x1f)");
      const oracle::FormatInfo& f = oracle::Format(k.pair.dst);
      if (oracle::LowBits(word, f.width) != word) {
        bad("word too wide for " + std::string(f.name) + " (" + std::to_string(f.width) + " bits)");
      }
      if ((flags & ~Word{kStatusBits}) != 0) {
        bad("flags beyond NV DZ OF UF NX (accepted 0x00..0x1f)");
      }
      a.supported = true;
      a.result = {word, static_cast<oracle::Status>(flags)};
    }
  }

  // Throws the DeviceError for a device that stopped behaving; adds its exit status when it has
  // exited, and its last stderr lines.
  // `kill_now`: a hung device is killed at once instead of given 2 s to exit.
  // `failed`: the case the device crashed, exited or hung on (DeviceFailure), else DeviceError.
  [[noreturn]] void Fail(const std::string& what, std::size_t answered, std::size_t total,
                         bool kill_now = false, const Case* failed = nullptr) {
    broken_ = true;
    std::string message = "device " + name_ + " " + what;
    if (total > 0) {
      message += " (" + std::to_string(answered) + " of " + std::to_string(total) +
                 " answers of this batch received)";
    }
    const bool stopped = StopWriter();
    if (stopped) message += "; killed it to stop writing";
    CloseFd(to_device_);
    if (pid_ > 0) {
      const std::chrono::milliseconds wait(stopped ? 10000 : kill_now ? 0 : 2000);
      if (!WaitFor(wait)) {
        ::kill(pid_, SIGKILL);
        WaitFor(std::chrono::seconds(10));
        message += "; killed it";
      }
    }
    if (exited_) {
      if (WIFEXITED(exit_status_)) {
        message += "; it exited with status " + std::to_string(WEXITSTATUS(exit_status_));
      } else if (WIFSIGNALED(exit_status_)) {
        message += "; it was killed by signal " + std::to_string(WTERMSIG(exit_status_));
      }
    }
    const std::string tail = StderrTail();
    if (!tail.empty()) message += "; its stderr ends: " + tail;
    if (failed != nullptr) throw DeviceFailure(message, *failed, kill_now);
    throw DeviceError(message);
  }

  // Stops a running writer thread before its descriptor is closed: a device that has not exited
  // within 200 ms is killed, so the writer's blocked write fails with EPIPE. True if killed.
  bool StopWriter() {
    if (!writer_.joinable()) return false;
    bool killed = false;
    if (pid_ > 0 && !WaitFor(std::chrono::milliseconds(200))) {
      ::kill(pid_, SIGKILL);
      killed = true;
    }
    writer_.join();
    return killed;
  }

  // Waits for the child to exit (polling, so a device that never exits cannot hang ptovec).
  bool WaitFor(std::chrono::milliseconds limit) {
    if (pid_ <= 0 || exited_) return exited_;
    if (WaitForExit(pid_, limit, exit_status_)) exited_ = true;
    return exited_;
  }

  // The stderr thread: keeps the device's last 3 stderr lines (300 bytes each) for Fail's
  // message, until end of stderr or a byte on the stop pipe (Cleanup).
  void CollectStderr() {
    std::string partial;
    char buf[4096];
    for (;;) {
      pollfd fds[2] = {{err_fd_, POLLIN, 0}, {stop_read_, POLLIN, 0}};
      const int r = ::poll(fds, 2, -1);
      if (r < 0) {
        if (errno == EINTR) continue;
        break;
      }
      if (fds[1].revents != 0) break;
      const ssize_t n = ::read(err_fd_, buf, sizeof buf);
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) break;
      std::lock_guard<std::mutex> lock(stderr_mutex_);
      for (ssize_t j = 0; j < n; ++j) {
        if (buf[j] == '\n') {
          PushStderrLine(std::move(partial));
          partial.clear();
        } else if (partial.size() < 300) {
          partial.push_back(buf[j]);
        }
      }
    }
    std::lock_guard<std::mutex> lock(stderr_mutex_);
    if (!partial.empty()) PushStderrLine(std::move(partial));
    stderr_done_ = true;
    stderr_cv_.notify_all();
  }

  void PushStderrLine(std::string line) {
    if (line.empty()) return;
    stderr_tail_.push_back(std::move(line));
    if (stderr_tail_.size() > 3) stderr_tail_.pop_front();
  }

  std::string StderrTail() {
    std::unique_lock<std::mutex> lock(stderr_mutex_);
    if (exited_) {
      stderr_cv_.wait_for(lock, std::chrono::seconds(1), [this] { return stderr_done_; });
    }
    std::string out;
    for (const std::string& l : stderr_tail_) {
      out += (out.empty() ? "" : " | ") + ShortenDeviceText(l);
    }
    return out;
  }

  void Cleanup() {
    if (stderr_thread_.joinable()) {
      const char c = 0;
      WriteAll(stop_write_, &c, 1);
      stderr_thread_.join();
    }
    CloseFd(to_device_);
    CloseFd(from_device_);
    CloseFd(err_fd_);
    CloseFd(stop_read_);
    CloseFd(stop_write_);
  }

  int AnswerTimeoutMs() const {
    return options_.answer_timeout > 0 ? static_cast<int>(options_.answer_timeout * 1000.0 + 0.5)
                                       : -1;
  }

  std::chrono::milliseconds GraceMs() const {
    return std::chrono::milliseconds(
        static_cast<std::int64_t>(std::max(0.0, options_.exit_grace) * 1000.0 + 0.5));
  }

  // Seconds as the user wrote them: 60, 0.5.
  static std::string Seconds(double s) {
    char buf[32];
    const auto r = std::to_chars(buf, buf + sizeof buf, s);
    return std::string(buf, r.ptr);
  }

  std::string command_line_;
  CommandDeviceOptions options_;
  bool closed_ = false;
  std::string name_;
  pid_t pid_ = -1;
  bool exited_ = false;
  int exit_status_ = 0;
  int to_device_ = -1;
  int from_device_ = -1;
  int err_fd_ = -1;
  int stop_read_ = -1;
  int stop_write_ = -1;
  bool broken_ = false;
  std::uint64_t next_index_ = 0;
  std::thread writer_;                     // the current batch's writer, when it needs one
  std::atomic<bool> write_failed_{false};  // the device stopped reading (EPIPE)
  CaseFormatter formatter_;
  std::unique_ptr<generator::LineReader> reader_;
  std::thread stderr_thread_;
  std::mutex stderr_mutex_;
  std::condition_variable stderr_cv_;
  std::deque<std::string> stderr_tail_;
  bool stderr_done_ = false;
};

}  // namespace

std::unique_ptr<Device> OpenCommandDevice(const std::string& command_line,
                                          const CommandDeviceOptions& options) {
  return std::make_unique<CommandDevice>(command_line, options);
}

}  // namespace ptovec::tools
