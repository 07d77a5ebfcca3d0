// Devices under test: a shared library implementing include/ptovec_dut.h, or a program
// speaking the line protocol of schemas/dut-protocol.md on stdin/stdout.
#pragma once

#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>

#include "ptovec/generator/cases.hpp"

namespace ptovec::tools {

using generator::Case;
using generator::Inputs;
using generator::NumericExecutionControl;
using generator::OpDef;
using generator::TypePair;
using oracle::Encoded;

/// A device failed (could not load, crashed, broke the protocol, returned PTOVEC_DUT_ERROR).
/// The message is one line naming the device and what went wrong.
class DeviceError : public std::runtime_error {
 public:
  /// The message with device text escaped (generator::EscapeText): one printable line.
  explicit DeviceError(const std::string& what) : std::runtime_error(generator::EscapeText(what)) {}
  explicit DeviceError(const char* what) : DeviceError(std::string(what)) {}
};

/// The device itself failed on a case: it crashed (a signal), exited, or gave no answer within
/// --dut-timeout. `run` counts it as an error of the gate (exit 1, JUnit <error>), `shrink` as a
/// counterexample. The message names the case (CaseText).
class DeviceFailure : public DeviceError {
 public:
  DeviceFailure(const std::string& message, const Case& failed_case, bool hung)
      : DeviceError(message), failed_case_(failed_case), hung_(hung) {}
  /// The case the device failed on (for a batch that failed as a whole: its first case).
  const Case& failed_case() const { return failed_case_; }
  /// True when the device hung (no answer in time) rather than crashed or exited.
  bool hung() const { return hung_; }

 private:
  Case failed_case_;
  bool hung_;
};

/// "tcvt fp16 -> e8m0, mode RNE, Sat off, inputs 0x3c00 (reproduce: ptovec eval ...)":
/// op, types, mode, Sat, the input words at their slots' widths, and the eval line.
std::string CaseText(const Case& c);

/// The status bits a device may answer, bits 4:0 (NV DZ OF UF NX, spec-notes section 3); an
/// answer with any of bits 7:5 set is a device error.
inline constexpr oracle::Status kStatusBits = oracle::kStatusAll;

/// What a device said about one case.
struct DeviceAnswer {
  bool supported = true;  ///< false: the device does not implement this case (a gate failure)
  Encoded result{};       ///< word: the low bits of the destination's width; status: bits 4:0
};

/// What a clocked device's models did since it was loaded (ptovec_dut_clock_counts): the cases
/// they took and the clocks they ran, summed over the device's threads.
struct ClockCounts {
  std::uint64_t cases = 0;
  std::uint64_t clocks = 0;
};

class Device {
 public:
  virtual ~Device() = default;
  /// A short name for reports: ptovec_dut_name() / the protocol's hello line, else the path.
  virtual const std::string& Name() const = 0;
  /// Evaluates cases[i] into answers[i] (same length), in order. Throws DeviceError.
  virtual void Evaluate(std::span<const Case> cases, std::span<DeviceAnswer> answers) = 0;
  /// Evaluates every input under every control of one op and pair: answers[i * controls.size()
  /// + c] for inputs[i] under controls[c] (answers.size() == inputs.size() * controls.size()),
  /// as Evaluate would for those cases in that order. The default builds the cases and calls
  /// Evaluate; a library device fills its ABI cases directly. Throws DeviceError.
  virtual void EvaluateProduct(const OpDef& op, TypePair pair, std::span<const Inputs> inputs,
                               std::span<const NumericExecutionControl> controls,
                               std::span<DeviceAnswer> answers);
  /// True when Evaluate may be called from several threads at once on disjoint spans (a DUT ABI
  /// version 2 library declaring PTOVEC_DUT_THREAD_SAFE); `run` then evaluates on every core.
  virtual bool ThreadSafe() const { return false; }
  /// Cases per Evaluate or EvaluateProduct call that this device takes best (a device in another
  /// process: as many as one round trip carries), or 0 for no preference. Callers that split
  /// their work (run --exhaustive) make their parts at least this large.
  virtual std::size_t BatchCases() const { return 0; }
  /// A clocked device's counts so far (a library exporting ptovec_dut_clock_counts, in process
  /// or isolated: as of its last answer), else nothing.
  virtual std::optional<ClockCounts> Clocks() const { return std::nullopt; }
  /// Ends the session and checks how the device ended: a program device gets end of input, must
  /// write nothing more and exit with status 0 within its grace period. Throws DeviceError
  /// otherwise. Call it once after the last Evaluate; destroying a device without Close() ends
  /// it without checks. Library devices: nothing to check.
  virtual void Close() {}
};

/// Limits for program devices.
struct CommandDeviceOptions {
  /// Seconds without any answer line while cases are outstanding (also for the hello line)
  /// before the device counts as hung: DeviceError naming the case and the timeout. 0: no limit.
  double answer_timeout = 60;
  /// Seconds a device may take to exit after its stdin is closed (Close()), else it is killed.
  double exit_grace = 10;
};

/// Loads a shared library device (dlopen), checks ptovec_dut_abi_version() (1: one case per
/// ptovec_dut_evaluate call; 2 and 3: ptovec_dut_evaluate_batch, and ptovec_dut_properties when
/// exported; 3 has room for 5 inputs per case) and calls ptovec_dut_init(arg) when exported.
/// When a batch fails (PTOVEC_DUT_ERROR) and the library exports ptovec_dut_last_error with a
/// text, the DeviceError quotes that text instead of naming the first case marked; Clocks() calls
/// ptovec_dut_clock_counts when exported.
/// Evaluate reuses per-thread buffers (no allocation per call once warm). Throws DeviceError
/// (missing file, missing symbol, ABI version not 1, 2 or 3, init refused).
std::unique_ptr<Device> OpenLibraryDevice(const std::filesystem::path& library,
                                          const std::string& arg = "");

/// How an isolated library device runs its device host.
struct IsolatedDeviceOptions {
  /// Seconds a batch (and, when replayed, each case alone) may take, and the library's loading,
  /// before the device counts as hung (--dut-timeout). 0: no limit.
  double timeout = 60;
  /// The host executable; empty: ptovec-device-host next to the running executable.
  std::filesystem::path host_program;
};

/// Loads a shared library device in a child process (ptovec-device-host) and evaluates cases
/// through it in batches of up to 16384 (kHostCapacity) in shared memory, so a crash, an exit or a
/// hang of the library cannot take ptovec down. It answers as OpenLibraryDevice would (name, thread
/// safety, unsupported cases, the same DeviceError texts for loading and PTOVEC_DUT_ERROR). A batch
/// that crashes, exits or exceeds options.timeout is replayed one case at a time in a fresh host:
/// the case that fails alone is thrown as DeviceFailure (a batch that only took too long as a whole
/// gets the replay's answers). The next Evaluate starts a new host. Throws DeviceError (cannot
/// load, cannot start the host) and DeviceFailure (crash, exit or hang while loading or on a
/// case).
std::unique_ptr<Device> OpenIsolatedLibraryDevice(const std::filesystem::path& library,
                                                  const std::string& arg,
                                                  const IsolatedDeviceOptions& options);

/// Starts `command_line` (split like a shell would for plain words and quotes; no expansion)
/// with pipes on stdin/stdout, exchanges the hello lines of schemas/dut-protocol.md and pipelines
/// cases to it. Throws DeviceError (cannot start, bad hello, early exit, malformed or out-of-order
/// answer, no answer within options.answer_timeout). The device gets SIGKILL when the thread
/// that opened it exits (Linux PR_SET_PDEATHSIG), so it never outlives a killed ptovec.
std::unique_ptr<Device> OpenCommandDevice(const std::string& command_line,
                                          const CommandDeviceOptions& options = {});

/// Device text made safe to quote on one line: invalid UTF-8 bytes and control characters
/// (NUL, BEL, CR, ESC, DEL, ...) are escaped (generator::EscapeText: `\xff`, `\x1b`).
std::string SanitizeDeviceText(std::string_view text);

}  // namespace ptovec::tools
