// Words, status and bytes as hex text and back (word_text.hpp).
#include "ptovec/generator/word_text.hpp"

#include <charconv>
#include <system_error>

#include "ptovec/generator/compare_policy.hpp"

namespace ptovec::generator {

namespace {

constexpr char kLowerDigits[] = "0123456789abcdef";
constexpr char kUpperDigits[] = "0123456789ABCDEF";

}  // namespace

void AppendHexDigits(std::string& out, std::uint64_t value, unsigned digits, HexLetters letters) {
  const char* const table = letters == HexLetters::Upper ? kUpperDigits : kLowerDigits;
  for (unsigned i = digits; i-- > 0;) out.push_back(table[(value >> (4 * i)) & 0xF]);
}

std::string HexDigits(std::uint64_t value, unsigned digits, HexLetters letters) {
  std::string out;
  AppendHexDigits(out, value, digits, letters);
  return out;
}

void AppendHexWord(std::string& out, std::uint64_t value, unsigned digits) {
  out += "0x";
  AppendHexDigits(out, value, digits);
}

std::string HexWord(Word word, TileDataType type) {
  std::string out;
  AppendHexWord(out, word, oracle::Format(type).HexDigits());
  return out;
}

std::string HexStatus(Status status) {
  std::string out;
  AppendHexWord(out, status, 2);
  return out;
}

std::string HexShortest(std::uint64_t value) {
  unsigned digits = 1;
  while (digits < 16 && (value >> (4 * digits)) != 0) ++digits;
  std::string out;
  AppendHexWord(out, value, digits);
  return out;
}

std::string HexBytes(const unsigned char* bytes, std::size_t count) {
  std::string out;
  out.reserve(2 * count);
  for (std::size_t i = 0; i < count; ++i) AppendHexDigits(out, bytes[i], 2);
  return out;
}

std::string Counted(std::uint64_t count, std::string_view noun) {
  return std::to_string(count) + " " + std::string(noun) + (count == 1 ? "" : "s");
}

std::string FlagNames(Status status) {
  std::string out;
  for (unsigned bit = 0; bit < kStatusBitNames.size(); ++bit) {
    if ((status >> bit) & 1U) out += (out.empty() ? "" : "|") + std::string(kStatusBitNames[bit]);
  }
  if ((status & 0xE0) != 0) out += (out.empty() ? "" : "|") + std::string("bits7:5");
  return out.empty() ? "-" : out;
}

HexParse ParseHexDigits(std::string_view digits, std::uint64_t& value) {
  const char* const last = digits.data() + digits.size();
  const auto [end, error] = std::from_chars(digits.data(), last, value, 16);
  if (error == std::errc::result_out_of_range) return HexParse::TooWide;
  if (error != std::errc() || end != last) return HexParse::Malformed;
  return HexParse::Ok;
}

bool ParseHexWord(std::string_view token, std::uint64_t& value) {
  if (token.size() < 3 || token.size() > 18 || token[0] != '0' ||
      (token[1] != 'x' && token[1] != 'X')) {
    return false;
  }
  return ParseHexDigits(token.substr(2), value) == HexParse::Ok;
}

std::optional<Status> ParseFlagText(std::string_view text) {
  if (text.size() != 4 || text[0] != '0' || text[1] != 'x' ||
      text.find_first_not_of(kLowerDigits, 2) != std::string_view::npos) {
    return std::nullopt;
  }
  std::uint64_t value = 0;
  ParseHexDigits(text.substr(2), value);
  if (value > 0x1F) return std::nullopt;
  return static_cast<Status>(value);
}

}  // namespace ptovec::generator
