// Devices under test: the Device base (EvaluateProduct through Evaluate) and the device text
// helpers shared by the device kinds (library_device.cpp: OpenLibraryDevice; program_device.cpp:
// OpenCommandDevice).
#include "ptovec/tools/device.hpp"

#include <vector>

#include "device/device_text.hpp"
#include "ptovec/generator/escape.hpp"

namespace ptovec::tools {

std::string ShortenDeviceText(std::string_view text, std::size_t max) {
  std::string s = generator::EscapeText(text.substr(0, max));
  if (text.size() > max) s += "...";
  return s;
}

std::string SanitizeDeviceText(std::string_view text) { return generator::EscapeText(text); }

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

void CheckDeviceLibraryPath(const std::filesystem::path& library) {
  std::error_code ec;
  if (!std::filesystem::exists(library, ec)) {
    throw DeviceError("cannot load device " + library.string() + ": no such file");
  }
  if (std::filesystem::is_directory(library, ec)) {
    throw DeviceError("cannot load device " + library.string() +
                      ": it is a directory, not a shared library");
  }
}

void CheckAnswerRoom(const std::string& device, std::size_t cases, std::size_t answers) {
  if (answers != cases) {
    throw DeviceError("device " + device + ": " + std::to_string(cases) + " cases but room for " +
                      std::to_string(answers) + " answers");
  }
}

}  // namespace ptovec::tools
