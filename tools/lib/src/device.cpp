#include "ptovec/tools/device.hpp"

namespace ptovec::tools {

std::unique_ptr<Device> OpenLibraryDevice(const std::filesystem::path& library,
                                          const std::string&) {
  throw DeviceError("cannot open " + library.string() + ": device loading is not built yet");
}

std::unique_ptr<Device> OpenCommandDevice(const std::string& command_line) {
  throw DeviceError("cannot start '" + command_line + "': command devices are not built yet");
}

}  // namespace ptovec::tools
