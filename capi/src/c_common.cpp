// libptovec_c's shared internals (c_common.hpp), ptovec_version and ptovec_last_error.
#include "c_common.hpp"

#include <cstddef>
#include <optional>
#include <string>
#include <utility>

namespace ptovec::capi {

namespace {
thread_local std::string last_error;
}  // namespace

ptovec_error Fail(ptovec_error error, std::string message) {
  last_error = std::move(message);
  return error;
}

std::optional<oracle::Edition> EditionOfCode(int code) {
  if (code < 0 || code >= static_cast<int>(oracle::kAllEditions.size())) return std::nullopt;
  return oracle::kAllEditions[static_cast<std::size_t>(code)];
}

ptovec_error UnknownEdition(int code) {
  std::string accepted;
  for (std::size_t k = 0; k < oracle::kAllEditions.size(); ++k) {
    if (!accepted.empty()) accepted += ", ";
    accepted += std::to_string(k) + " " + std::string(oracle::EditionName(oracle::kAllEditions[k]));
  }
  return Fail(PTOVEC_ERROR_UNKNOWN_EDITION,
              "unknown edition code " + std::to_string(code) + " (accepted: " + accepted + ")");
}

const oracle::FormatInfo* FormatOfCode(int code, oracle::Edition edition) {
  for (const oracle::FormatInfo& f : oracle::AllFormats(edition)) {
    if (static_cast<int>(f.type) == code) return &f;
  }
  return nullptr;
}

std::string TypeCodesList(oracle::Edition edition) {
  std::string out;
  for (const oracle::FormatInfo& f : oracle::AllFormats(edition)) {
    if (!out.empty()) out += ", ";
    out += std::to_string(static_cast<int>(f.type)) + " " + std::string(f.name);
  }
  return out;
}

ptovec_error Internal(const char* what) {
  try {
    return Fail(PTOVEC_ERROR_INTERNAL, std::string("internal error: ") + what);
  } catch (...) {
    return PTOVEC_ERROR_INTERNAL;  // no memory even for the message: keep the previous one
  }
}

static_assert(static_cast<int>(oracle::kAllEditions[PTOVEC_EDITION_0_58_3]) ==
                  static_cast<int>(oracle::Edition::V0_58_3) &&
              static_cast<int>(oracle::kAllEditions[PTOVEC_EDITION_2026_09]) ==
                  static_cast<int>(oracle::Edition::V2026_09));

}  // namespace ptovec::capi

PTOVEC_C_EXPORT const char* ptovec_version(void) { return PTOVEC_VERSION; }

PTOVEC_C_EXPORT const char* ptovec_last_error(void) { return ptovec::capi::last_error.c_str(); }
