// Text from files and devices quoted in messages, made safe to print in a CI log.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace ptovec::generator {

/// `bytes` with everything that is not printable UTF-8 escaped, so a message quoting a corrupted
/// file stays one line of valid UTF-8 without control characters. Each byte of an ill-formed
/// UTF-8 sequence (a stray continuation byte, an overlong form, a surrogate, a code point above
/// U+10FFFF, a truncated sequence) becomes `\xHH`, as do the C0 controls (0x00-0x1F, tab and
/// newline included) and DEL; the C1 controls (U+0080-U+009F), the line and paragraph
/// separators (U+2028, U+2029) and the bidirectional overrides and isolates (U+202A-U+202E,
/// U+2066-U+2069) become `\uHHHH`. Backslashes are kept as they are (like Python's
/// "backslashreplace"), so escaping is idempotent: escaped text is returned unchanged.
std::string EscapeText(std::string_view bytes);

/// True when EscapeText(bytes) == bytes (printable UTF-8 only).
bool IsPrintableText(std::string_view bytes);

}  // namespace ptovec::generator
