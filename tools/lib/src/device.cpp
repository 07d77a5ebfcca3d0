// Devices under test: OpenLibraryDevice (dlopen, tools/dut/include/ptovec_dut.h) and
// OpenCommandDevice (a program speaking the line protocol of schemas/dut-protocol.md).
#include "ptovec/tools/device.hpp"

#include <dlfcn.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <cerrno>
#include <charconv>
#include <chrono>
#include <condition_variable>
#include <cstring>
#include <deque>
#include <mutex>
#include <thread>
#include <vector>

#include "ptovec/generator/writers.hpp"
#include "ptovec_dut.h"

namespace ptovec::tools {

namespace {

using generator::EvalCommand;
using generator::OpDef;
using generator::TypePair;
using oracle::TileDataType;
using oracle::Word;

constexpr Word kFlagsMask = 0x1F;

// NUL-terminated type names for the ABI's src/dst pointers (the format table holds string_views).
const char* TypeNameCString(TileDataType type) {
  static const std::vector<std::pair<TileDataType, std::string>> names = [] {
    std::vector<std::pair<TileDataType, std::string>> v;
    for (const oracle::FormatInfo& f : oracle::AllFormats()) v.emplace_back(f.type, f.name);
    return v;
  }();
  for (const auto& [t, n] : names) {
    if (t == type) return n.c_str();
  }
  return "";
}

// Invalid UTF-8 bytes become '?'; control characters become `control` (or are dropped when it
// is '\0').
std::string Sanitize(std::string_view text, char control) {
  std::string out;
  out.reserve(text.size());
  const auto* p = reinterpret_cast<const unsigned char*>(text.data());
  const std::size_t n = text.size();
  for (std::size_t i = 0; i < n;) {
    const unsigned char b = p[i];
    if (b < 0x20 || b == 0x7F) {
      if (control != '\0') out.push_back(control);
      ++i;
      continue;
    }
    if (b < 0x80) {
      out.push_back(static_cast<char>(b));
      ++i;
      continue;
    }
    // A well-formed multi-byte sequence (no overlongs, no surrogates, at most U+10FFFF)?
    std::size_t len = 0;
    unsigned char lo = 0x80, hi = 0xBF;
    if (b >= 0xC2 && b <= 0xDF) {
      len = 2;
    } else if (b >= 0xE0 && b <= 0xEF) {
      len = 3;
      if (b == 0xE0) lo = 0xA0;
      if (b == 0xED) hi = 0x9F;
    } else if (b >= 0xF0 && b <= 0xF4) {
      len = 4;
      if (b == 0xF0) lo = 0x90;
      if (b == 0xF4) hi = 0x8F;
    }
    bool ok = len > 0 && i + len <= n;
    for (std::size_t k = 1; ok && k < len; ++k) {
      const unsigned char c = p[i + k];
      ok = k == 1 ? (c >= lo && c <= hi) : (c >= 0x80 && c <= 0xBF);
    }
    if (ok) {
      out.append(text.substr(i, len));
      i += len;
    } else {
      out.push_back('?');
      ++i;
    }
  }
  return out;
}

// Device text quoted in an error message: at most `max` bytes, control characters dropped and
// invalid UTF-8 replaced, so the message stays one line.
std::string Shorten(std::string_view text, std::size_t max = 200) {
  std::string s = Sanitize(text.substr(0, max), '\0');
  if (text.size() > max) s += "...";
  return s;
}

// ---------------------------------------------------------------------------------------------
// Shared library devices.

using AbiVersionFn = uint32_t (*)();
using EvaluateFn = int (*)(const ptovec_dut_case*, ptovec_dut_result*);
using EvaluateBatchFn = int (*)(const ptovec_dut_case*, ptovec_dut_result*, uint8_t*, uint64_t);
using PropertiesFn = uint32_t (*)();
using NameFn = const char* (*)();
using InitFn = int (*)(const char*);

class LibraryDevice final : public Device {
 public:
  LibraryDevice(const std::filesystem::path& library, const std::string& arg) {
    const std::string shown = library.string();
    std::error_code ec;
    if (!std::filesystem::exists(library, ec)) {
      throw DeviceError("cannot load device " + shown + ": no such file");
    }
    if (std::filesystem::is_directory(library, ec)) {
      throw DeviceError("cannot load device " + shown + ": it is a directory, not a shared library");
    }
    // dlopen searches the library path for a name without '/': make it a path.
    const std::string path = std::filesystem::absolute(library, ec).string();
    ::dlerror();
    handle_ = ::dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (handle_ == nullptr) {
      const char* why = ::dlerror();
      throw DeviceError("cannot load device " + shown + ": not a loadable shared library (" +
                        Shorten(why != nullptr ? why : "dlopen failed") + ")");
    }
    try {
      const auto version = reinterpret_cast<AbiVersionFn>(Symbol("ptovec_dut_abi_version", shown));
      const std::uint32_t v = version();
      if (v != 1 && v != 2) {
        throw DeviceError("device " + shown + " implements DUT ABI version " + std::to_string(v) +
                          ", this ptovec speaks versions 1 and 2 (rebuild it against " +
                          "ptovec_dut.h)");
      }
      if (v == 1) {
        evaluate_ = reinterpret_cast<EvaluateFn>(Symbol("ptovec_dut_evaluate", shown));
      } else {
        evaluate_batch_ =
            reinterpret_cast<EvaluateBatchFn>(Symbol("ptovec_dut_evaluate_batch", shown));
        if (auto properties = reinterpret_cast<PropertiesFn>(::dlsym(handle_, "ptovec_dut_properties"))) {
          thread_safe_ = (properties() & PTOVEC_DUT_THREAD_SAFE) != 0;
        }
      }
      name_ = library.filename().string();
      if (auto name_fn = reinterpret_cast<NameFn>(::dlsym(handle_, "ptovec_dut_name"))) {
        const char* n = name_fn();
        if (n != nullptr && *n != '\0') name_ = SanitizeDeviceText(n);
      }
      if (auto init = reinterpret_cast<InitFn>(::dlsym(handle_, "ptovec_dut_init"))) {
        const int rc = init(arg.c_str());
        if (rc != 0) {
          throw DeviceError("device " + shown + " refused to start: ptovec_dut_init(\"" + arg +
                            "\") returned " + std::to_string(rc));
        }
      }
    } catch (...) {
      ::dlclose(handle_);
      throw;
    }
  }

  ~LibraryDevice() override { ::dlclose(handle_); }

  const std::string& Name() const override { return name_; }

  bool ThreadSafe() const override { return thread_safe_; }

  void Evaluate(std::span<const Case> cases, std::span<DeviceAnswer> answers) override {
    if (answers.size() != cases.size()) {
      throw DeviceError("device " + name_ + ": " + std::to_string(cases.size()) +
                        " cases but room for " + std::to_string(answers.size()) + " answers");
    }
    const std::size_t n = cases.size();
    Buffers& b = BuffersFor(n);
    b.layout.filled = 0;  // these cases overwrite EvaluateProduct's layout
    const OpDef* last_op = nullptr;
    TypePair last_pair{};
    ptovec_dut_case c{};
    for (std::size_t i = 0; i < n; ++i) {
      const Case& k = cases[i];
      if (k.op != last_op || !(k.pair == last_pair)) {
        last_op = k.op;
        last_pair = k.pair;
        c = PairCase(*k.op, k.pair);
      }
      c.rmode = static_cast<std::uint8_t>(k.control.rounding_mode);
      c.sat = k.control.saturating ? 1 : 0;
      for (std::size_t s = 0; s < generator::kMaxSlots; ++s) c.inputs[s] = k.in[s];
      b.in[i] = c;
    }
    CallAndCollect(n, answers, [&](std::size_t i) { return cases[i]; });
  }

  void EvaluateProduct(const OpDef& op, TypePair pair, std::span<const Inputs> inputs,
                       std::span<const NumericExecutionControl> controls,
                       std::span<DeviceAnswer> answers) override {
    const std::size_t nc = controls.size();
    const std::size_t n = inputs.size() * nc;
    if (answers.size() != n) {
      throw DeviceError("device " + name_ + ": " + std::to_string(n) + " cases but room for " +
                        std::to_string(answers.size()) + " answers");
    }
    Buffers& b = BuffersFor(n);
    ptovec_dut_case* const in = b.in.data();
    // The cases of one op, pair and control list differ only in their inputs: the other fields
    // stay in the buffer from the last such call, and only the inputs are written.
    ProductLayout& layout = b.layout;
    if (layout.op != &op || !(layout.pair == pair) || layout.controls.size() != nc ||
        !std::equal(controls.begin(), controls.end(), layout.controls.begin())) {
      layout.op = &op;
      layout.pair = pair;
      layout.controls.assign(controls.begin(), controls.end());
      layout.filled = 0;
    }
    if (layout.filled < n) {
      ptovec_dut_case c = PairCase(op, pair);
      for (std::size_t j = layout.filled; j < n; ++j) {
        c.rmode = static_cast<std::uint8_t>(controls[j % nc].rounding_mode);
        c.sat = controls[j % nc].saturating ? 1 : 0;
        in[j] = c;
      }
      layout.filled = n;
    }
    const std::size_t slots = op.slots.size();
    for (std::size_t i = 0; i < inputs.size(); ++i) {
      ptovec_dut_case* const row = in + i * nc;
      for (std::size_t k = 0; k < nc; ++k) {
        for (std::size_t s = 0; s < slots; ++s) row[k].inputs[s] = inputs[i][s];
      }
    }
    CallAndCollect(n, answers, [&](std::size_t j) {
      Case k;
      k.op = &op;
      k.pair = pair;
      k.in = inputs[j / nc];
      k.control = controls[j % nc];
      return k;
    });
  }

 private:
  // What EvaluateProduct left in the first `filled` ABI cases besides their inputs: op, pair
  // and the control of case j (controls[j % controls.size()]), inputs beyond the op's slots 0.
  struct ProductLayout {
    const OpDef* op = nullptr;
    TypePair pair{};
    std::vector<NumericExecutionControl> controls;
    std::size_t filled = 0;
  };
  // Per-thread ABI buffers, reused from call to call.
  struct Buffers {
    std::vector<ptovec_dut_case> in;
    std::vector<ptovec_dut_result> out;
    std::vector<std::uint8_t> status;
    ProductLayout layout;
  };
  static Buffers& BuffersFor(std::size_t n) {
    thread_local Buffers b;
    if (b.in.size() < n) {
      b.in.resize(n);
      b.out.resize(n);
      b.status.resize(n);
      b.layout.filled = 0;  // the cases may have moved
    }
    return b;
  }

  // An ABI case of op and pair with its inputs, mode and Sat still to set.
  static ptovec_dut_case PairCase(const OpDef& op, TypePair pair) {
    ptovec_dut_case c{};
    c.op = op.name.c_str();
    c.src = TypeNameCString(pair.src);
    c.dst = TypeNameCString(pair.dst);
    c.src_code = static_cast<std::uint8_t>(pair.src);
    c.dst_code = static_cast<std::uint8_t>(pair.dst);
    c.n_inputs = static_cast<std::uint32_t>(op.slots.size());
    return c;
  }

  // Calls the device on the first n ABI cases of this thread's buffers and turns its results
  // into answers; case_at(i) gives case i (for error messages and the destination width).
  template <typename CaseAt>
  void CallAndCollect(std::size_t n, std::span<DeviceAnswer> answers, const CaseAt& case_at) {
    Buffers& b = BuffersFor(n);
    std::fill_n(b.out.begin(), n, ptovec_dut_result{0, 0});
    if (evaluate_batch_ != nullptr) {
      std::fill_n(b.status.begin(), n, std::uint8_t{PTOVEC_DUT_OK});
      const int rc = evaluate_batch_(b.in.data(), b.out.data(), b.status.data(), n);
      if (rc != PTOVEC_DUT_OK && rc != PTOVEC_DUT_ERROR) {
        throw DeviceError("device " + name_ + " returned " + std::to_string(rc) +
                          " from ptovec_dut_evaluate_batch (accepted: 0 OK, 2 ERROR) on " +
                          std::to_string(n) + " cases starting with: " + EvalCommand(case_at(0)));
      }
      if (rc == PTOVEC_DUT_ERROR &&
          std::find(b.status.begin(), b.status.begin() + static_cast<std::ptrdiff_t>(n),
                    std::uint8_t{PTOVEC_DUT_ERROR}) ==
              b.status.begin() + static_cast<std::ptrdiff_t>(n)) {
        throw DeviceError("device " + name_ + " failed (PTOVEC_DUT_ERROR from " +
                          "ptovec_dut_evaluate_batch, no case marked) on " + std::to_string(n) +
                          " cases starting with: " + EvalCommand(case_at(0)));
      }
    } else {
      for (std::size_t i = 0; i < n; ++i) {
        const int rc = evaluate_(&b.in[i], &b.out[i]);
        if (rc < PTOVEC_DUT_OK || rc > PTOVEC_DUT_ERROR) {
          throw DeviceError("device " + name_ + " returned " + std::to_string(rc) +
                            " from ptovec_dut_evaluate (accepted: 0 OK, 1 UNSUPPORTED, 2 ERROR) " +
                            "on case: " + EvalCommand(case_at(i)));
        }
        b.status[i] = static_cast<std::uint8_t>(rc);
      }
    }
    Word dst_mask = 0;
    int mask_code = -1;
    const ptovec_dut_case* const in = b.in.data();
    const ptovec_dut_result* const out = b.out.data();
    const std::uint8_t* const status = b.status.data();
    DeviceAnswer* const answer = answers.data();
    for (std::size_t i = 0; i < n; ++i) {
      if (in[i].dst_code != mask_code) {
        mask_code = in[i].dst_code;
        dst_mask = oracle::LowBits(
            ~Word{0}, oracle::Format(static_cast<TileDataType>(in[i].dst_code)).width);
      }
      DeviceAnswer& a = answer[i];
      const ptovec_dut_result& r = out[i];
      if (status[i] == PTOVEC_DUT_OK) {
        if ((r.flags & ~kFlagsMask) != 0) {
          throw DeviceError("device " + name_ + " returned flags " + HexByte(r.flags) +
                            " with bits 7:5 set (only NV DZ OF UF NX, 0x00..0x1f) on case: " +
                            EvalCommand(case_at(i)));
        }
        a.supported = true;
        a.result = {r.word & dst_mask, r.flags};
      } else if (status[i] == PTOVEC_DUT_UNSUPPORTED) {
        a.supported = false;
        a.result = {};
      } else if (status[i] == PTOVEC_DUT_ERROR) {
        throw DeviceError("device " + name_ + " failed (PTOVEC_DUT_ERROR) on case: " +
                          EvalCommand(case_at(i)));
      } else {
        throw DeviceError("device " + name_ + " returned " + std::to_string(status[i]) +
                          " as a case's status from ptovec_dut_evaluate_batch (accepted: 0 OK, "
                          "1 UNSUPPORTED, 2 ERROR) on case: " + EvalCommand(case_at(i)));
      }
    }
  }

  static std::string HexByte(unsigned v) {
    static constexpr char kDigits[] = "0123456789abcdef";
    return std::string("0x") + kDigits[(v >> 4) & 0xF] + kDigits[v & 0xF];
  }

  void* Symbol(const char* name, const std::string& shown) {
    void* s = ::dlsym(handle_, name);
    if (s == nullptr) {
      throw DeviceError("device " + shown + " does not export " + name +
                        " (required by ptovec_dut.h)");
    }
    return s;
  }

  void* handle_ = nullptr;
  EvaluateFn evaluate_ = nullptr;             // version 1
  EvaluateBatchFn evaluate_batch_ = nullptr;  // version 2
  bool thread_safe_ = false;
  std::string name_;
};

// ---------------------------------------------------------------------------------------------
// Program devices.

// Splits a command line like a POSIX shell splits plain words: blanks separate words; '...'
// is literal; "..." allows \" \\ \$ \` escapes; a backslash outside quotes escapes the next
// character. No expansion of any kind.
std::vector<std::string> SplitCommandLine(const std::string& line) {
  std::vector<std::string> words;
  std::string word;
  bool in_word = false;
  for (std::size_t i = 0; i < line.size(); ++i) {
    const char ch = line[i];
    if (ch == ' ' || ch == '\t' || ch == '\n') {
      if (in_word) words.push_back(std::move(word));
      word.clear();
      in_word = false;
    } else if (ch == '\'') {
      const std::size_t end = line.find('\'', i + 1);
      if (end == std::string::npos) {
        throw DeviceError("cannot start '" + line + "': unterminated single quote");
      }
      word.append(line, i + 1, end - i - 1);
      in_word = true;
      i = end;
    } else if (ch == '"') {
      in_word = true;
      std::size_t j = i + 1;
      for (; j < line.size() && line[j] != '"'; ++j) {
        if (line[j] == '\\' && j + 1 < line.size() &&
            std::strchr("\"\\$`", line[j + 1]) != nullptr) {
          ++j;
        }
        word.push_back(line[j]);
      }
      if (j >= line.size()) {
        throw DeviceError("cannot start '" + line + "': unterminated double quote");
      }
      i = j;
    } else if (ch == '\\') {
      if (i + 1 >= line.size()) {
        throw DeviceError("cannot start '" + line + "': trailing backslash");
      }
      word.push_back(line[++i]);
      in_word = true;
    } else {
      word.push_back(ch);
      in_word = true;
    }
  }
  if (in_word) words.push_back(std::move(word));
  return words;
}

// Writing to a device that has exited must give EPIPE, not kill ptovec.
void IgnoreSigpipe() {
  static std::once_flag once;
  std::call_once(once, [] {
    struct sigaction current {};
    if (::sigaction(SIGPIPE, nullptr, &current) == 0 && current.sa_handler == SIG_DFL) {
      struct sigaction ignore {};
      ignore.sa_handler = SIG_IGN;
      sigemptyset(&ignore.sa_mask);
      ::sigaction(SIGPIPE, &ignore, nullptr);
    }
  });
}

void CloseFd(int& fd) {
  if (fd >= 0) ::close(fd);
  fd = -1;
}

// Writes all bytes; false on an error (EPIPE when the device has gone).
bool WriteAll(int fd, const char* p, std::size_t n) {
  while (n > 0) {
    const ssize_t w = ::write(fd, p, n);
    if (w < 0) {
      if (errno == EINTR) continue;
      return false;
    }
    p += w;
    n -= static_cast<std::size_t>(w);
  }
  return true;
}

void AppendHex(std::string& out, Word word, unsigned digits) {
  static constexpr char kDigits[] = "0123456789abcdef";
  out += "0x";
  for (unsigned i = digits; i-- > 0;) out.push_back(kDigits[(word >> (4 * i)) & 0xF]);
}

// Formats protocol case lines, caching the "op src dst " text of the last pair.
class CaseFormatter {
 public:
  void Append(std::string& out, std::uint64_t index, const Case& k) {
    if (k.op != op_ || !(k.pair == pair_)) {
      op_ = k.op;
      pair_ = k.pair;
      prefix_ = " " + k.op->name + " " + std::string(oracle::Format(k.pair.src).name) + " " +
                std::string(oracle::Format(k.pair.dst).name) + " ";
      digits_.clear();
      for (const generator::Slot& s : k.op->slots) {
        digits_.push_back(oracle::Format(s.TypeFor(k.pair)).HexDigits());
      }
    }
    char buf[24];
    const auto r = std::to_chars(buf, buf + sizeof buf, index);
    out.append(buf, r.ptr);
    out += prefix_;
    out += oracle::RoundingModeName(k.control.rounding_mode);
    out += k.control.saturating ? " 1" : " 0";
    for (std::size_t s = 0; s < digits_.size(); ++s) {
      out += ' ';
      AppendHex(out, k.in[s], digits_[s]);
    }
    out += '\n';
  }

 private:
  const OpDef* op_ = nullptr;
  TypePair pair_{};
  std::string prefix_;
  std::vector<unsigned> digits_;
};

// Reads lines from a file descriptor with a large buffer.
class LineReader {
 public:
  /// `timeout_ms` < 0: wait for input without limit.
  LineReader(int fd, int timeout_ms) : fd_(fd), timeout_ms_(timeout_ms), buffer_(1 << 20) {}
  /// The next line without its newline (a trailing CR is dropped); false at end of input, or
  /// when nothing arrived within the timeout (timed_out() is then true). A line that does not
  /// fit the buffer or lacks its newline at end of input comes with `unterminated`.
  bool Next(std::string_view& line, bool& unterminated) {
    unterminated = false;
    timed_out_ = false;
    for (;;) {
      if (const void* nl = std::memchr(buffer_.data() + start_, '\n', end_ - start_)) {
        const std::size_t e = static_cast<std::size_t>(static_cast<const char*>(nl) -
                                                       buffer_.data());
        line = std::string_view(buffer_.data() + start_, e - start_);
        if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
        start_ = e + 1;
        return true;
      }
      if (start_ > 0) {
        std::memmove(buffer_.data(), buffer_.data() + start_, end_ - start_);
        end_ -= start_;
        start_ = 0;
      }
      if (end_ == buffer_.size()) {
        line = std::string_view(buffer_.data(), 200);
        unterminated = true;  // too long
        return true;
      }
      if (timeout_ms_ >= 0) {
        pollfd pfd{fd_, POLLIN, 0};
        const int r = ::poll(&pfd, 1, timeout_ms_);
        if (r < 0 && errno == EINTR) continue;
        if (r == 0) {
          timed_out_ = true;
          return false;
        }
      }
      const ssize_t n = ::read(fd_, buffer_.data() + end_, buffer_.size() - end_);
      if (n < 0) {
        if (errno == EINTR) continue;
        return false;
      }
      if (n == 0) {
        if (end_ > start_) {  // a last line without newline: report it as such
          line = std::string_view(buffer_.data() + start_, end_ - start_);
          start_ = end_;
          unterminated = true;
          return true;
        }
        return false;
      }
      end_ += static_cast<std::size_t>(n);
    }
  }
  /// Sets the timeout of the following Next() calls (< 0: none).
  void SetTimeout(int timeout_ms) { timeout_ms_ = timeout_ms; }
  /// The last Next() returned false because nothing arrived within the timeout.
  bool timed_out() const { return timed_out_; }

 private:
  int fd_;
  int timeout_ms_;
  bool timed_out_ = false;
  std::vector<char> buffer_;
  std::size_t start_ = 0;
  std::size_t end_ = 0;
};

// Splits on blanks into at most `max` tokens (the last one keeps the rest of the line).
std::size_t Tokens(std::string_view line, std::string_view* out, std::size_t max) {
  std::size_t n = 0;
  std::size_t i = 0;
  while (i < line.size() && n < max) {
    while (i < line.size() && (line[i] == ' ' || line[i] == '\t')) ++i;
    if (i >= line.size()) break;
    std::size_t j = i;
    if (n + 1 == max) {
      j = line.size();
      while (j > i && (line[j - 1] == ' ' || line[j - 1] == '\t')) --j;
    } else {
      while (j < line.size() && line[j] != ' ' && line[j] != '\t') ++j;
    }
    out[n++] = line.substr(i, j - i);
    i = j;
  }
  return n;
}

bool ParseDecimal(std::string_view t, std::uint64_t& v) {
  if (t.empty()) return false;
  const auto [end, ec] = std::from_chars(t.data(), t.data() + t.size(), v);
  return ec == std::errc() && end == t.data() + t.size();
}

// "0x" + 1..16 hex digits.
bool ParseHexWord(std::string_view t, Word& v) {
  if (t.size() < 3 || t.size() > 18 || t[0] != '0' || (t[1] != 'x' && t[1] != 'X')) return false;
  const auto [end, ec] = std::from_chars(t.data() + 2, t.data() + t.size(), v, 16);
  return ec == std::errc() && end == t.data() + t.size();
}

class CommandDevice final : public Device {
 public:
  CommandDevice(const std::string& command_line, const CommandDeviceOptions& options)
      : command_line_(command_line), options_(options) {
    const std::vector<std::string> argv = SplitCommandLine(command_line);
    if (argv.empty()) throw DeviceError("cannot start device: the command line is empty");
    name_ = argv[0];
    IgnoreSigpipe();
    int in[2] = {-1, -1};
    int out[2] = {-1, -1};
    int err[2] = {-1, -1};
    int stop[2] = {-1, -1};
    int exec_status[2] = {-1, -1};  // the child writes errno here when exec fails
    if (::pipe2(in, O_CLOEXEC) != 0 || ::pipe2(out, O_CLOEXEC) != 0 ||
        ::pipe2(err, O_CLOEXEC) != 0 || ::pipe2(stop, O_CLOEXEC) != 0 ||
        ::pipe2(exec_status, O_CLOEXEC) != 0) {
      const int e = errno;
      for (int* p : {in, out, err, stop, exec_status}) {
        CloseFd(p[0]);
        CloseFd(p[1]);
      }
      throw DeviceError("cannot start '" + command_line + "': pipe: " + std::strerror(e));
    }
    std::vector<char*> args;
    for (const std::string& a : argv) args.push_back(const_cast<char*>(a.c_str()));
    args.push_back(nullptr);
    // fork + exec rather than posix_spawn: the child asks for SIGKILL when its parent goes
    // (PR_SET_PDEATHSIG), so a killed ptovec leaves no device running. Only async-signal-safe
    // calls in the child.
    const pid_t parent = ::getpid();
    int rc = 0;
    pid_ = ::fork();
    if (pid_ == 0) {
      ::prctl(PR_SET_PDEATHSIG, SIGKILL);
      if (::getppid() != parent) ::_exit(127);  // the parent is already gone
      if (::dup2(in[0], 0) < 0 || ::dup2(out[1], 1) < 0 || ::dup2(err[1], 2) < 0) {
        const int e = errno;
        [[maybe_unused]] const ssize_t w = ::write(exec_status[1], &e, sizeof e);
        ::_exit(127);
      }
      ::execvp(args[0], args.data());
      const int e = errno;
      [[maybe_unused]] const ssize_t w = ::write(exec_status[1], &e, sizeof e);
      ::_exit(127);
    }
    CloseFd(exec_status[1]);
    if (pid_ < 0) {
      rc = errno;
    } else {
      int e = 0;
      ssize_t r = 0;
      do {
        r = ::read(exec_status[0], &e, sizeof e);
      } while (r < 0 && errno == EINTR);
      if (r == static_cast<ssize_t>(sizeof e)) {  // exec failed: reap the child
        rc = e;
        int status = 0;
        while (::waitpid(pid_, &status, 0) < 0 && errno == EINTR) {
        }
      }
    }
    CloseFd(exec_status[0]);
    CloseFd(in[0]);
    CloseFd(out[1]);
    CloseFd(err[1]);
    to_device_ = in[1];
    from_device_ = out[0];
    err_fd_ = err[0];
    stop_read_ = stop[0];
    stop_write_ = stop[1];
    if (rc != 0) {
      pid_ = -1;
      Cleanup();
      throw DeviceError("cannot start '" + command_line + "': " + argv[0] + ": " +
                        std::strerror(rc));
    }
    stderr_thread_ = std::thread([this] { CollectStderr(); });
    reader_ = std::make_unique<LineReader>(from_device_, AnswerTimeoutMs());
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

 private:
  // Exchanges the hello lines (schemas/dut-protocol.md).
  void Hello() {
    const std::string hello = "ptovec-dut 1\n";
    WriteAll(to_device_, hello.data(), hello.size());  // an EPIPE shows up as EOF below
    std::string_view line;
    bool unterminated = false;
    if (!reader_->Next(line, unterminated)) {
      if (reader_->timed_out()) {
        Fail("sent no hello line within " + Seconds(options_.answer_timeout) +
                 " s (--dut-timeout; a device must flush stdout after each line it writes)",
             0, 0, true);
      }
      Fail("exited before its hello line", 0, 0);
    }
    std::string_view t[3];
    const std::size_t n = Tokens(line, t, 3);
    if (unterminated || n < 2 || t[0] != "ptovec-dut") {
      Fail("answered the hello with '" + Shorten(line) +
               "' (expected 'ptovec-dut 1 NAME', schemas/dut-protocol.md)",
           0, 0);
    }
    if (t[1] != "1") {
      Fail("speaks line protocol version " + Shorten(t[1], 20) +
               ", this ptovec speaks version 1",
           0, 0);
    }
    if (n == 3 && !t[2].empty()) name_ = SanitizeDeviceText(t[2]);
  }

 public:

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
    const std::string last =
        next_index_ == 0 ? std::string("no case was sent")
                         : "the last case was " + std::to_string(next_index_ - 1);
    if (reader_->Next(line, unterminated)) {
      Fail("wrote '" + Shorten(line) + "' after its last answer (" + last +
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
      Fail("failed after its input ended (" + last + "; a device must exit with status 0)", 0,
           0);
    }
  }

  void Evaluate(std::span<const Case> cases, std::span<DeviceAnswer> answers) override {
    if (answers.size() != cases.size()) {
      throw DeviceError("device " + name_ + ": " + std::to_string(cases.size()) +
                        " cases but room for " + std::to_string(answers.size()) + " answers");
    }
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
  void ReadAnswers(std::span<const Case> cases, std::span<DeviceAnswer> answers,
                   std::uint64_t base) {
    for (std::size_t i = 0; i < cases.size(); ++i) {
      const Case& k = cases[i];
      std::string_view line;
      bool unterminated = false;
      if (!reader_->Next(line, unterminated)) {
        if (reader_->timed_out()) {
          Fail("gave no answer to case " + std::to_string(base + i) + " (" + EvalCommand(k) +
                   ") within " + Seconds(options_.answer_timeout) +
                   " s (--dut-timeout; does the device flush stdout after its answers?)",
               i, cases.size(), true);
        }
        Fail("exited before answering case " + std::to_string(base + i) + ": " + EvalCommand(k),
             i, cases.size());
      }
      const auto bad = [&](const std::string& what) {
        Fail("answered case " + std::to_string(base + i) + " (" + EvalCommand(k) + ") with '" +
                 Shorten(line) + "': " + what,
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
                 "): " + Shorten(n == 3 ? t[2] : std::string_view("(no reason given)")),
             i, cases.size());
      }
      if (n != 3) bad("expected '<index> <out> <flags>', '<index> unsupported' or '<index> error TEXT'");
      Word word = 0;
      Word flags = 0;
      if (!ParseHexWord(t[1], word)) bad("malformed word (expected 0x and 1 to 16 hex digits)");
      if (!ParseHexWord(t[2], flags)) bad("malformed flags (expected 0x00..0x1f)");
      const oracle::FormatInfo& f = oracle::Format(k.pair.dst);
      if (oracle::LowBits(word, f.width) != word) {
        bad("word too wide for " + std::string(f.name) + " (" + std::to_string(f.width) +
            " bits)");
      }
      if ((flags & ~kFlagsMask) != 0) bad("flags beyond NV DZ OF UF NX (accepted 0x00..0x1f)");
      a.supported = true;
      a.result = {word, static_cast<oracle::Status>(flags)};
    }
  }

  // Throws the DeviceError for a device that stopped behaving; adds its exit status when it has
  // exited, and its last stderr lines.
  // `kill_now`: a hung device is killed at once instead of given 2 s to exit.
  [[noreturn]] void Fail(const std::string& what, std::size_t answered, std::size_t total,
                         bool kill_now = false) {
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
    const auto deadline = std::chrono::steady_clock::now() + limit;
    for (;;) {
      int status = 0;
      const pid_t r = ::waitpid(pid_, &status, WNOHANG);
      if (r == pid_) {
        exited_ = true;
        exit_status_ = status;
        return true;
      }
      if (r < 0 && errno != EINTR) return false;
      if (std::chrono::steady_clock::now() >= deadline) return false;
      std::this_thread::sleep_for(std::chrono::milliseconds(2));
    }
  }

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
    for (const std::string& l : stderr_tail_) out += (out.empty() ? "" : " | ") + Shorten(l);
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
  std::unique_ptr<LineReader> reader_;
  std::thread stderr_thread_;
  std::mutex stderr_mutex_;
  std::condition_variable stderr_cv_;
  std::deque<std::string> stderr_tail_;
  bool stderr_done_ = false;
};

}  // namespace

std::unique_ptr<Device> OpenLibraryDevice(const std::filesystem::path& library,
                                          const std::string& arg) {
  return std::make_unique<LibraryDevice>(library, arg);
}

std::unique_ptr<Device> OpenCommandDevice(const std::string& command_line,
                                          const CommandDeviceOptions& options) {
  return std::make_unique<CommandDevice>(command_line, options);
}

std::string SanitizeDeviceText(std::string_view text) { return Sanitize(text, '?'); }

void Device::EvaluateProduct(const OpDef& op, TypePair pair, std::span<const Inputs> inputs,
                             std::span<const NumericExecutionControl> controls,
                             std::span<DeviceAnswer> answers) {
  thread_local std::vector<Case> cases;
  cases.clear();
  for (const Inputs& in : inputs) {
    for (const NumericExecutionControl& control : controls) {
      Case k;
      k.op = &op;
      k.pair = pair;
      k.in = in;
      k.control = control;
      cases.push_back(k);
    }
  }
  Evaluate(cases, answers);
}

}  // namespace ptovec::tools
