// Printable text (escape.hpp): ill-formed UTF-8, controls and invisible code points escaped.
#include "ptovec/generator/escape.hpp"

#include <cstdint>

#include "ptovec/generator/word_text.hpp"

namespace ptovec::generator {

namespace {

// The length of the well-formed UTF-8 sequence at p[0..n) (Unicode Table 3-7: no overlongs,
// no surrogates, at most U+10FFFF) and its code point; 0 when ill-formed. p[0] >= 0x80.
std::size_t SequenceAt(const unsigned char* p, std::size_t n, std::uint32_t& code) {
  const unsigned char b = p[0];
  std::size_t len = 0;
  unsigned char lo = 0x80, hi = 0xBF;
  if (b >= 0xC2 && b <= 0xDF) {
    len = 2;
    code = b & 0x1Fu;
  } else if (b >= 0xE0 && b <= 0xEF) {
    len = 3;
    code = b & 0x0Fu;
    if (b == 0xE0) lo = 0xA0;
    if (b == 0xED) hi = 0x9F;
  } else if (b >= 0xF0 && b <= 0xF4) {
    len = 4;
    code = b & 0x07u;
    if (b == 0xF0) lo = 0x90;
    if (b == 0xF4) hi = 0x8F;
  }
  if (len == 0 || len > n) return 0;
  for (std::size_t k = 1; k < len; ++k) {
    const unsigned char c = p[k];
    if (k == 1 ? (c < lo || c > hi) : (c < 0x80 || c > 0xBF)) return 0;
    code = (code << 6) | (c & 0x3Fu);
  }
  return len;
}

// Code points that are valid but must not reach a log line as they are.
bool IsUnprintable(std::uint32_t code) {
  return (code >= 0x80 && code <= 0x9F) || code == 0x2028 || code == 0x2029 ||
         (code >= 0x202A && code <= 0x202E) || (code >= 0x2066 && code <= 0x2069);
}

// Scans `bytes`; calls keep(i, len) for printable runs' pieces and escape(text) for the rest.
template <typename Keep, typename Escape>
void Scan(std::string_view bytes, Keep keep, Escape escape) {
  const auto* p = reinterpret_cast<const unsigned char*>(bytes.data());
  const std::size_t n = bytes.size();
  for (std::size_t i = 0; i < n;) {
    const unsigned char b = p[i];
    if (b >= 0x20 && b < 0x7F) {
      keep(i, 1);
      ++i;
      continue;
    }
    if (b < 0x80) {  // C0 control or DEL
      escape("\\x" + HexDigits(b, 2));
      ++i;
      continue;
    }
    std::uint32_t code = 0;
    const std::size_t len = SequenceAt(p + i, n - i, code);
    if (len == 0) {
      escape("\\x" + HexDigits(b, 2));
      ++i;
    } else if (IsUnprintable(code)) {
      escape("\\u" + HexDigits(code, 4));
      i += len;
    } else {
      keep(i, len);
      i += len;
    }
  }
}

}  // namespace

std::string EscapeText(std::string_view bytes) {
  std::string out;
  out.reserve(bytes.size());
  Scan(
      bytes, [&](std::size_t i, std::size_t len) { out.append(bytes.substr(i, len)); },
      [&](const std::string& text) { out += text; });
  return out;
}

bool IsPrintableText(std::string_view bytes) {
  bool printable = true;
  Scan(
      bytes, [](std::size_t, std::size_t) {}, [&](const std::string&) { printable = false; });
  return printable;
}

}  // namespace ptovec::generator
