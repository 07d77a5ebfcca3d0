// Device text quoted in ptovec's messages (private to ptovec_tools; SanitizeDeviceText is public,
// ptovec/tools/device.hpp).
#pragma once

#include <cstddef>
#include <filesystem>
#include <string>
#include <string_view>

namespace ptovec::tools {

/// Device text quoted in an error message: at most `max` bytes (then "..."), control characters
/// and invalid UTF-8 bytes escaped (generator::EscapeText), so the message stays one line.
std::string ShortenDeviceText(std::string_view text, std::size_t max = 200);

/// Refuses a --dut path that cannot be a library before anything is loaded or started: throws
/// DeviceError "cannot load device PATH: no such file" or "...: it is a directory, not a shared
/// library" (the same messages in-process and isolated).
void CheckDeviceLibraryPath(const std::filesystem::path& library);

/// Throws DeviceError "device NAME: C cases but room for A answers" unless cases == answers
/// (every device kind's Evaluate and EvaluateProduct check their spans with it).
void CheckAnswerRoom(const std::string& device, std::size_t cases, std::size_t answers);

}  // namespace ptovec::tools
