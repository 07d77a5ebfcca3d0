// Words, status and bytes as hex text, and hex text back to words: the one place every file
// format, device protocol, report and message of ptovec writes or reads hex. JSON vector files
// and eval lines write words as "0x" + lower-case digits zero-padded to the type's width
// (schemas/binary-format.md), TestFloat-style text upper-case digits without "0x"
// (testfloat.hpp), the device protocol "0x" + lower-case digits (schemas/dut-protocol.md);
// flags are "0x00".."0x1f" (status bits 4:0, spec-notes section 3) or their names ("OF|NX").
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "ptovec/oracle/formats.hpp"
#include "ptovec/oracle/numeric.hpp"

namespace ptovec::generator {

using oracle::Status;
using oracle::TileDataType;
using oracle::Word;

/// The letters of hex digits 10..15.
enum class HexLetters { Lower, Upper };

/// Appends the low `digits` hex digits of `value`, most significant first, zero-padded, without
/// a prefix ("00ff" for value 0xFF, digits 4). `digits` from 0 to 16.
void AppendHexDigits(std::string& out, std::uint64_t value, unsigned digits,
                     HexLetters letters = HexLetters::Lower);
/// AppendHexDigits as a string.
std::string HexDigits(std::uint64_t value, unsigned digits, HexLetters letters = HexLetters::Lower);
/// Appends "0x" and the low `digits` lower-case hex digits of `value`, zero-padded: the word
/// text of device case lines and answers (schemas/dut-protocol.md).
void AppendHexWord(std::string& out, std::uint64_t value, unsigned digits);
/// "0x" + lower-case hex, zero-padded to `type`'s width (FP16 4 digits, E8M0 2, S4X2 1): the
/// word text of JSON vector files, eval lines, results files and messages.
std::string HexWord(Word word, TileDataType type);
/// "0x" + two lower-case hex digits of a status ("0x14" for OF|NX).
std::string HexStatus(Status status);
/// "0x" + the fewest lower-case hex digits of `value` ("0x0", "0x3c00"; C's "0x%llx").
std::string HexShortest(std::uint64_t value);
/// Two lower-case hex digits per byte, in order, no prefix (a SHA-256 digest's 64 digits).
std::string HexBytes(const unsigned char* bytes, std::size_t count);

/// `count` and the noun, plural unless count is 1: Counted(1, "file") is "1 file", Counted(3,
/// "file") "3 files" (nouns that take an "s").
std::string Counted(std::uint64_t count, std::string_view noun);

/// The status bits by name, "OF|NX", in bit order NV DZ OF UF NX ("bits7:5" when any of those is
/// set); "-" for none.
std::string FlagNames(Status status);

/// How hex digits parsed (ParseHexDigits).
enum class HexParse {
  Ok,
  Malformed,  ///< empty, or a character that is no hex digit
  TooWide,    ///< the digits' value exceeds 2^64 - 1
};
/// `digits` (the whole text: hex digits of either case, no prefix, no sign) into `value`, as
/// std::from_chars base 16 reads them: TooWide when the value exceeds 64 bits (whatever
/// follows), else Malformed unless every character was read.
HexParse ParseHexDigits(std::string_view digits, std::uint64_t& value);
/// A word token: "0x" (or "0X") and 1 to 16 hex digits of either case (the whole token) into
/// `value`; false when malformed (the device protocol's words and flags).
bool ParseHexWord(std::string_view token, std::uint64_t& value);
/// Flag text as JSON vector files and results files write it: exactly "0x" and two lower-case
/// hex digits, 0x00..0x1f (status bits 4:0). nullopt for anything else.
std::optional<Status> ParseFlagText(std::string_view text);

}  // namespace ptovec::generator
