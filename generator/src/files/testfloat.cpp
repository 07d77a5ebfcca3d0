// TestFloat-style text (testfloat.hpp): file names, lines of upper-case hex words and flags, and
// their parsers.
#include "ptovec/generator/testfloat.hpp"

#include <algorithm>
#include <vector>

#include "ptovec/generator/cases.hpp"
#include "ptovec/generator/suite.hpp"
#include "ptovec/generator/word_text.hpp"

namespace ptovec::generator {

namespace {

// The largest word of `type`, in upper-case hex at its width ("FFFF" for FP16, "7FFFF" for FP19).
std::string LargestWord(TileDataType type) {
  const oracle::FormatInfo& f = oracle::Format(type);
  std::string text;
  AppendHexDigits(text, oracle::LowBits(~Word{0}, f.width), f.HexDigits(), HexLetters::Upper);
  return text;
}

// Parses a token of exactly `digits` hex digits whose value fits `width` bits; `what` names the
// token in the message ("input 1 (value, fp16)").
Word ParseHexToken(std::string_view token, unsigned digits, unsigned width, const std::string& what,
                   const std::string& accepted) {
  Word value = 0;
  const bool ok = token.size() == digits && ParseHexDigits(token, value) == HexParse::Ok;
  if (!ok || oracle::LowBits(value, width) != value) {
    throw InputError("has a bad " + what + " token '" + std::string(token) +
                     "' (accepted: " + accepted + ")");
  }
  return value;
}

}  // namespace

std::uint8_t TestFloatFlags(Status status) {
  std::uint8_t flags = 0;
  for (unsigned bit = 0; bit < 5; ++bit) {
    if ((status >> bit) & 1U) flags |= static_cast<std::uint8_t>(1U << (4 - bit));
  }
  return flags;
}

Status StatusFromTestFloatFlags(std::uint8_t flags) {
  // The 5-bit reversal is its own inverse.
  return static_cast<Status>(TestFloatFlags(static_cast<Status>(flags)));
}

std::string TestFloatFileName(const OpDef& op, TypePair pair, NumericExecutionControl control) {
  return JobBaseName({&op, pair}) + "_" + std::string(RoundingModeName(control.rounding_mode)) +
         (control.saturating ? "_saton" : "_satoff") + std::string(kTestFloatExtension);
}

std::optional<TestFloatKey> ParseTestFloatFileName(std::string_view name) {
  if (!name.ends_with(kTestFloatExtension)) return std::nullopt;
  const std::string_view full = name;
  name.remove_suffix(kTestFloatExtension.size());
  std::vector<std::string_view> parts;
  while (parts.size() < 7) {
    const std::size_t cut = name.find('_');
    parts.push_back(name.substr(0, cut));
    if (cut == std::string_view::npos) break;
    name.remove_prefix(cut + 1);
  }
  // <op>_<src>_<dst>[_<group>]_<RMODE>_sat<off|on>: a split pair's group (OpDef::file_groups)
  // sits between the types and the mode.
  if (parts.size() != 5 && parts.size() != 6) return std::nullopt;
  const std::string_view sat = parts.back();
  const std::string_view mode_name = parts[parts.size() - 2];
  if (sat != "satoff" && sat != "saton") return std::nullopt;
  const OpDef* op = FindOp(parts[0]);
  const auto src = oracle::ParseTileDataType(parts[1]);
  const auto dst = oracle::ParseTileDataType(parts[2]);
  const auto mode = oracle::ParseRoundingMode(mode_name);
  if (op == nullptr || op->name != parts[0] || !src || !dst || !mode) return std::nullopt;
  TestFloatKey key{op, {*src, *dst}, {*mode, sat == "saton"}};
  if (!IsLegalPair(*op, key.pair)) return std::nullopt;
  if (parts.size() == 6) {
    const std::vector<std::string> groups = FileGroups(*op, key.pair);
    const auto group = std::find(groups.begin(), groups.end(), parts[3]);
    if (group == groups.end()) return std::nullopt;
    key.pair.group = static_cast<std::uint8_t>(group - groups.begin() + 1);
  }
  // The canonical spelling only (type and mode names as ptovec writes them; a split pair's files
  // always name their group).
  if (TestFloatFileName(*op, key.pair, key.control) != full) return std::nullopt;
  const std::vector<NumericExecutionControl> legal = ControlsFor(*op, key.pair);
  if (std::find(legal.begin(), legal.end(), key.control) == legal.end()) return std::nullopt;
  return key;
}

unsigned TestFloatLineBytes(const OpDef& op, TypePair pair) {
  unsigned bytes = 0;
  for (const Slot& slot : op.slots) bytes += oracle::Format(slot.TypeFor(pair)).HexDigits() + 1;
  return bytes + oracle::Format(pair.dst).HexDigits() + 1 + 2 + 1;
}

void AppendTestFloatLine(std::string& out, const OpDef& op, TypePair pair, const Inputs& in,
                         Encoded result) {
  for (std::size_t i = 0; i < op.slots.size(); ++i) {
    AppendHexDigits(out, in[i], oracle::Format(op.slots[i].TypeFor(pair)).HexDigits(),
                    HexLetters::Upper);
    out.push_back(' ');
  }
  AppendHexDigits(out, result.word, oracle::Format(pair.dst).HexDigits(), HexLetters::Upper);
  out.push_back(' ');
  AppendHexDigits(out, TestFloatFlags(result.status), 2, HexLetters::Upper);
  out.push_back('\n');
}

TestFloatLine ParseTestFloatLine(std::string_view line, const OpDef& op, TypePair pair) {
  if (line.ends_with('\r')) line.remove_suffix(1);
  const std::size_t slots = op.slots.size();
  // The layout, for messages: "value(fp16) result(e8m0) flags".
  std::string layout;
  for (const Slot& slot : op.slots) {
    layout += slot.name + "(" + std::string(oracle::Format(slot.TypeFor(pair)).name) + ") ";
  }
  layout += "result(" + std::string(oracle::Format(pair.dst).name) + ") flags";
  std::vector<std::string_view> tokens;
  for (std::size_t start = 0; tokens.size() <= slots + 2;) {
    const std::size_t space = line.find(' ', start);
    tokens.push_back(line.substr(start, space == std::string_view::npos ? space : space - start));
    if (space == std::string_view::npos) break;
    start = space + 1;
  }
  if (tokens.size() != slots + 2) {
    const bool more = tokens.size() > slots + 2;
    const std::string shown =
        line.size() > 80 ? std::string(line.substr(0, 80)) + "..." : std::string(line);
    throw InputError("has " + std::string(more ? "more than " : "") +
                     std::to_string(more ? slots + 2 : tokens.size()) + " token(s) in '" + shown +
                     "' (accepted: " + std::to_string(slots + 2) + " hex tokens separated by " +
                     "single spaces: " + layout + ")");
  }
  TestFloatLine out;
  const auto word = [&](std::size_t k, TileDataType type, const std::string& name) {
    const oracle::FormatInfo& f = oracle::Format(type);
    return ParseHexToken(tokens[k], f.HexDigits(), f.width, name + " (" + std::string(f.name) + ")",
                         std::to_string(f.HexDigits()) + " hex digits, 0.." + LargestWord(type));
  };
  for (std::size_t i = 0; i < slots; ++i) {
    out.in[i] = word(i, op.slots[i].TypeFor(pair), "input " + op.slots[i].name);
  }
  out.result.word = word(slots, pair.dst, "result");
  const Word flags = ParseHexToken(tokens[slots + 1], 2, 5, "flags",
                                   "2 hex digits, 00..1F: inexact 01, underflow 02, overflow 04, "
                                   "infinite 08, invalid 10");
  out.result.status = StatusFromTestFloatFlags(static_cast<std::uint8_t>(flags));
  return out;
}

}  // namespace ptovec::generator
