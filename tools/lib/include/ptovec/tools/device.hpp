// Devices under test: a shared library implementing tools/dut/include/ptovec_dut.h, or a program
// speaking the line protocol of schemas/dut-protocol.md on stdin/stdout.
#pragma once

#include <filesystem>
#include <memory>
#include <span>
#include <stdexcept>
#include <string>

#include "ptovec/generator/cases.hpp"

namespace ptovec::tools {

using generator::Case;
using oracle::Encoded;

/// A device failed (could not load, crashed, broke the protocol, returned PTOVEC_DUT_ERROR).
/// The message is one line naming the device and what went wrong.
class DeviceError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// What a device said about one case.
struct DeviceAnswer {
  bool supported = true;  ///< false: the device does not implement this case (a gate failure)
  Encoded result{};       ///< word: the low bits of the destination's width; status: bits 4:0
};

class Device {
 public:
  virtual ~Device() = default;
  /// A short name for reports: ptovec_dut_name() / the protocol's hello line, else the path.
  virtual const std::string& Name() const = 0;
  /// Evaluates cases[i] into answers[i] (same length), in order. Throws DeviceError.
  virtual void Evaluate(std::span<const Case> cases, std::span<DeviceAnswer> answers) = 0;
};

/// Loads a shared library device (dlopen), checks ptovec_dut_abi_version() and calls
/// ptovec_dut_init(arg) when exported. Throws DeviceError (missing file, missing symbol, ABI
/// version mismatch, init refused).
std::unique_ptr<Device> OpenLibraryDevice(const std::filesystem::path& library,
                                          const std::string& arg = "");

/// Starts `command_line` (split like a shell would for plain words and quotes; no expansion)
/// with pipes on stdin/stdout, exchanges the hello lines of schemas/dut-protocol.md and pipelines
/// cases to it. Throws DeviceError (cannot start, bad hello, early exit, malformed or out-of-order
/// answer).
std::unique_ptr<Device> OpenCommandDevice(const std::string& command_line);

}  // namespace ptovec::tools
