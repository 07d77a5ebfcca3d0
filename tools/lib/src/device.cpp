// Devices under test: the Device base (EvaluateProduct through Evaluate) and the device text
// helpers shared by the device kinds (library_device.cpp: OpenLibraryDevice; program_device.cpp:
// OpenCommandDevice).
#include "ptovec/tools/device.hpp"

#include <vector>

#include "device_text.hpp"

namespace ptovec::tools {

namespace {

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

}  // namespace

std::string ShortenDeviceText(std::string_view text, std::size_t max) {
  std::string s = Sanitize(text.substr(0, max), '\0');
  if (text.size() > max) s += "...";
  return s;
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
