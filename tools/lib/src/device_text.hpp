// Device text quoted in ptovec's messages (private to ptovec_tools; SanitizeDeviceText is public,
// ptovec/tools/device.hpp).
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace ptovec::tools {

/// Device text quoted in an error message: at most `max` bytes (then "..."), control characters
/// and invalid UTF-8 bytes escaped (generator::EscapeText), so the message stays one line.
std::string ShortenDeviceText(std::string_view text, std::size_t max = 200);

}  // namespace ptovec::tools
