// Shared library devices: OpenLibraryDevice (dlopen of a library implementing the DUT ABI of
// include/ptovec_dut.h, versions 1, 2 and 3).
#include <dlfcn.h>

#include <algorithm>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "device/device_text.hpp"
#include "ptovec/generator/word_text.hpp"
#include "ptovec/generator/writers.hpp"
#include "ptovec/tools/device.hpp"
#include "ptovec_dut.h"

namespace ptovec::tools {

namespace {

using generator::EvalCommand;
using generator::OpDef;
using generator::TypePair;
using oracle::TileDataType;
using oracle::Word;

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

// The case of DUT ABI versions 1 and 2: ptovec_dut_case with room for 4 inputs (version 3 has
// 5). A version 2 library takes arrays of this layout.
struct LegacyDutCase {
  const char* op;
  const char* src;
  const char* dst;
  uint8_t src_code;
  uint8_t dst_code;
  uint8_t rmode;
  uint8_t sat;
  uint32_t n_inputs;
  uint64_t inputs[4];
};
static_assert(sizeof(LegacyDutCase) + 8 == sizeof(ptovec_dut_case),
              "ptovec_dut_case is LegacyDutCase with one more input");

using AbiVersionFn = uint32_t (*)();
using LegacyEvaluateBatchFn = int (*)(const LegacyDutCase*, ptovec_dut_result*, uint8_t*, uint64_t);
using EvaluateFn = int (*)(const ptovec_dut_case*, ptovec_dut_result*);
using EvaluateBatchFn = int (*)(const ptovec_dut_case*, ptovec_dut_result*, uint8_t*, uint64_t);
using PropertiesFn = uint32_t (*)();
using NameFn = const char* (*)();
using ClockCountsFn = int (*)(uint64_t*, uint64_t*);
using LastErrorFn = const char* (*)();
using InitFn = int (*)(const char*);

// The line of a device whose ptovec_dut_init(arg) returned rc != 0: the device's own reason when
// it gives one (ptovec_dut_last_error), and what --dut-arg values are: the demo device of
// docs/bring-up.md names its four; another device's documentation names its own.
std::string RefusedToStart(const std::string& shown, const std::filesystem::path& library,
                           const std::string& arg, int rc, const char* (*last_error)()) {
  const char* why = last_error != nullptr ? last_error() : nullptr;
  const bool demo = library.filename() == "libptovec_test_dut_policy.so";
  const std::string values =
      demo ? "this demo device of docs/bring-up.md takes flagless, drop-nv, two-faults or rtz-rtm"
           : "the device's documentation names the values it takes";
  return "device " + shown + " refused to start: ptovec_dut_init(\"" + arg + "\") returned " +
         std::to_string(rc) +
         (why != nullptr && *why != '\0' ? ": " + SanitizeDeviceText(why) : std::string()) +
         (arg.empty() ? " (no --dut-arg given; " + values + ")"
                      : " (--dut-arg \"" + arg + "\" not accepted; " + values + ")");
}

class LibraryDevice final : public Device {
 public:
  LibraryDevice(const std::filesystem::path& library, const std::string& arg) {
    const std::string shown = library.string();
    CheckDeviceLibraryPath(library);
    std::error_code ec;
    // dlopen searches the library path for a name without '/': make it a path.
    const std::string path = std::filesystem::absolute(library, ec).string();
    ::dlerror();
    handle_ = ::dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (handle_ == nullptr) {
      const char* why = ::dlerror();
      throw DeviceError("cannot load device " + shown + ": not a loadable shared library (" +
                        ShortenDeviceText(why != nullptr ? why : "dlopen failed") + ")");
    }
    try {
      const auto version = reinterpret_cast<AbiVersionFn>(Symbol("ptovec_dut_abi_version", shown));
      const std::uint32_t v = version();
      if (v != 1 && v != 2 && v != 3) {
        throw DeviceError("device " + shown + " implements DUT ABI version " + std::to_string(v) +
                          ", this ptovec speaks versions 1, 2 and 3 (rebuild it against " +
                          "ptovec_dut.h)");
      }
      legacy_ = v < 3;
      if (v == 1) {
        evaluate_ = reinterpret_cast<EvaluateFn>(Symbol("ptovec_dut_evaluate", shown));
      } else {
        evaluate_batch_ =
            reinterpret_cast<EvaluateBatchFn>(Symbol("ptovec_dut_evaluate_batch", shown));
        if (auto properties =
                reinterpret_cast<PropertiesFn>(::dlsym(handle_, "ptovec_dut_properties"))) {
          thread_safe_ = (properties() & PTOVEC_DUT_THREAD_SAFE) != 0;
        }
        clock_counts_ =
            reinterpret_cast<ClockCountsFn>(::dlsym(handle_, "ptovec_dut_clock_counts"));
        last_error_ = reinterpret_cast<LastErrorFn>(::dlsym(handle_, "ptovec_dut_last_error"));
      }
      name_ = library.filename().string();
      if (auto name_fn = reinterpret_cast<NameFn>(::dlsym(handle_, "ptovec_dut_name"))) {
        const char* n = name_fn();
        if (n != nullptr && *n != '\0') name_ = SanitizeDeviceText(n);
      }
      if (auto init = reinterpret_cast<InitFn>(::dlsym(handle_, "ptovec_dut_init"))) {
        const int rc = init(arg.c_str());
        if (rc != 0) throw DeviceError(RefusedToStart(shown, library, arg, rc, last_error_));
      }
    } catch (...) {
      ::dlclose(handle_);
      throw;
    }
  }

  ~LibraryDevice() override { ::dlclose(handle_); }

  const std::string& Name() const override { return name_; }

  bool ThreadSafe() const override { return thread_safe_; }

  std::optional<ClockCounts> Clocks() const override {
    ClockCounts counts;
    if (clock_counts_ == nullptr || clock_counts_(&counts.cases, &counts.clocks) != 0) return {};
    return counts;
  }

  void Evaluate(std::span<const Case> cases, std::span<DeviceAnswer> answers) override {
    CheckAnswerRoom(name_, cases.size(), answers.size());
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
    CheckAnswerRoom(name_, n, answers.size());
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
    bool all_wide = n > 0;
    for (std::size_t i = 0; i < n && all_wide; ++i) all_wide = TooWide(b, i);
    if (all_wide) {
      std::fill_n(b.status.begin(), n, std::uint8_t{PTOVEC_DUT_UNSUPPORTED});
    } else if (evaluate_batch_ != nullptr) {
      CallBatch(b, n, case_at);
    } else {
      CallEach(b, n, case_at);
    }
    for (std::size_t i = 0; i < n; ++i) {
      if (TooWide(b, i)) b.status[i] = PTOVEC_DUT_UNSUPPORTED;
    }
    Collect(b, n, answers, case_at);
  }

  // A version 1 or 2 library knows 4 inputs: cases with more are unsupported (a batch of them
  // only is not passed on; in a mixed batch their answers are replaced).
  bool TooWide(const Buffers& b, std::size_t i) const { return legacy_ && b.in[i].n_inputs > 4; }

  // ptovec_dut_evaluate_batch on the first n cases; a version 1 or 2 library gets its own case
  // layout. Throws DeviceError for a return code it does not define, or ERROR with no case marked.
  template <typename CaseAt>
  void CallBatch(Buffers& b, std::size_t n, const CaseAt& case_at) {
    std::fill_n(b.status.begin(), n, std::uint8_t{PTOVEC_DUT_OK});
    int rc = PTOVEC_DUT_OK;
    if (legacy_) {
      thread_local std::vector<LegacyDutCase> legacy;
      if (legacy.size() < n) legacy.resize(n);
      for (std::size_t i = 0; i < n; ++i) {
        const ptovec_dut_case& c = b.in[i];
        legacy[i] = {c.op,       c.src,      c.dst,
                     c.src_code, c.dst_code, c.rmode,
                     c.sat,      c.n_inputs, {c.inputs[0], c.inputs[1], c.inputs[2], c.inputs[3]}};
      }
      rc = reinterpret_cast<LegacyEvaluateBatchFn>(evaluate_batch_)(legacy.data(), b.out.data(),
                                                                    b.status.data(), n);
    } else {
      rc = evaluate_batch_(b.in.data(), b.out.data(), b.status.data(), n);
    }
    if (rc != PTOVEC_DUT_OK && rc != PTOVEC_DUT_ERROR) {
      throw DeviceError("device " + name_ + " returned " + std::to_string(rc) +
                        " from ptovec_dut_evaluate_batch (accepted: 0 OK, 2 ERROR) on " +
                        std::to_string(n) + " cases starting with: " + EvalCommand(case_at(0)));
    }
    const char* why = rc == PTOVEC_DUT_ERROR && last_error_ != nullptr ? last_error_() : nullptr;
    if (why != nullptr && *why != '\0') {
      // The device's own account (a protocol failure of a pipeline fails the whole batch): not
      // the first case it marked, which did not cause it.
      throw DeviceError("device " + name_ + " failed (PTOVEC_DUT_ERROR) on a batch of " +
                        std::to_string(n) + " cases: " + SanitizeDeviceText(why));
    }
    if (rc == PTOVEC_DUT_ERROR &&
        std::find(b.status.begin(), b.status.begin() + static_cast<std::ptrdiff_t>(n),
                  std::uint8_t{PTOVEC_DUT_ERROR}) ==
            b.status.begin() + static_cast<std::ptrdiff_t>(n)) {
      throw DeviceError("device " + name_ + " failed (PTOVEC_DUT_ERROR from " +
                        "ptovec_dut_evaluate_batch, no case marked) on " + std::to_string(n) +
                        " cases starting with: " + EvalCommand(case_at(0)));
    }
  }

  // ptovec_dut_evaluate on each of the first n cases (but those too wide).
  template <typename CaseAt>
  void CallEach(Buffers& b, std::size_t n, const CaseAt& case_at) {
    for (std::size_t i = 0; i < n; ++i) {
      if (TooWide(b, i)) {
        b.status[i] = PTOVEC_DUT_UNSUPPORTED;
        continue;
      }
      const int rc = evaluate_(&b.in[i], &b.out[i]);
      if (rc < PTOVEC_DUT_OK || rc > PTOVEC_DUT_ERROR) {
        throw DeviceError("device " + name_ + " returned " + std::to_string(rc) +
                          " from ptovec_dut_evaluate (accepted: 0 OK, 1 UNSUPPORTED, 2 ERROR) " +
                          "on case: " + EvalCommand(case_at(i)));
      }
      b.status[i] = static_cast<std::uint8_t>(rc);
    }
  }

  // The first n results and statuses as answers, words masked to their destination's width.
  // Throws DeviceError for an ERROR status, a status it does not define, or flags beyond bit 4.
  template <typename CaseAt>
  void Collect(const Buffers& b, std::size_t n, std::span<DeviceAnswer> answers,
               const CaseAt& case_at) const {
    Word dst_mask = 0;
    int mask_code = -1;
    const ptovec_dut_case* const in = b.in.data();
    const ptovec_dut_result* const out = b.out.data();
    const std::uint8_t* const status = b.status.data();
    DeviceAnswer* const answer = answers.data();
    for (std::size_t i = 0; i < n; ++i) {
      if (in[i].dst_code != mask_code) {
        mask_code = in[i].dst_code;
        dst_mask = oracle::LowBits(~Word{0},
                                   oracle::Format(static_cast<TileDataType>(in[i].dst_code)).width);
      }
      DeviceAnswer& a = answer[i];
      const ptovec_dut_result& r = out[i];
      if (status[i] == PTOVEC_DUT_OK) {
        if ((r.flags & ~Word{kStatusBits}) != 0) {
          throw DeviceError("device " + name_ + " returned flags " + generator::HexStatus(r.flags) +
                            " with bits 7:5 set (only NV DZ OF UF NX, 0x00..0x1f) on case: " +
                            EvalCommand(case_at(i)));
        }
        a.supported = true;
        a.result = {r.word & dst_mask, r.flags};
      } else if (status[i] == PTOVEC_DUT_UNSUPPORTED) {
        a.supported = false;
        a.result = {};
      } else if (status[i] == PTOVEC_DUT_ERROR) {
        throw DeviceError("device " + name_ +
                          " failed (PTOVEC_DUT_ERROR) on case: " + EvalCommand(case_at(i)));
      } else {
        throw DeviceError("device " + name_ + " returned " + std::to_string(status[i]) +
                          " as a case's status from ptovec_dut_evaluate_batch (accepted: 0 OK, "
                          "1 UNSUPPORTED, 2 ERROR) on case: " +
                          EvalCommand(case_at(i)));
      }
    }
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
  EvaluateBatchFn evaluate_batch_ = nullptr;  // versions 2 and 3
  bool legacy_ = false;                       // versions 1 and 2: 4 inputs per case
  bool thread_safe_ = false;
  ClockCountsFn clock_counts_ = nullptr;  // optional, versions 2 and 3
  LastErrorFn last_error_ = nullptr;      // optional, versions 2 and 3
  std::string name_;
};

}  // namespace

std::unique_ptr<Device> OpenLibraryDevice(const std::filesystem::path& library,
                                          const std::string& arg) {
  return std::make_unique<LibraryDevice>(library, arg);
}

}  // namespace ptovec::tools
