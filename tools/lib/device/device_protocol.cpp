// The device line protocol, version 1: see device_protocol.hpp and schemas/dut-protocol.md.
#include "device/device_protocol.hpp"

#include <charconv>
#include <utility>

#include "ptovec/generator/word_text.hpp"

namespace ptovec::tools {

void CaseFormatter::Append(std::string& out, std::uint64_t index, const generator::Case& k) {
  if (k.op != op_ || !(k.pair == pair_)) {
    op_ = k.op;
    pair_ = k.pair;
    prefix_ = " " + k.op->name + " " + std::string(oracle::Format(k.pair.src).name) + " " +
              std::string(oracle::Format(k.pair.dst).name) + " ";
    digits_.clear();
    for (const generator::Slot& s : k.op->slots) {
      digits_.push_back(oracle::Format(s.TypeFor(k.pair)).HexDigits());
    }
  }
  char buf[24];
  const auto r = std::to_chars(buf, buf + sizeof buf, index);
  out.append(buf, r.ptr);
  out += prefix_;
  out += oracle::RoundingModeName(k.control.rounding_mode);
  out += k.control.saturating ? " 1" : " 0";
  for (std::size_t s = 0; s < digits_.size(); ++s) {
    out += ' ';
    generator::AppendHexWord(out, k.in[s], digits_[s]);
  }
  out += '\n';
}

generator::LineReader DeviceLineReader(int fd, int timeout_ms) {
  generator::LineReader::Options options;
  options.max_line_bytes = std::size_t{1} << 20;
  options.strip_cr = true;
  options.timeout_ms = timeout_ms;
  return generator::LineReader(fd, std::move(options));
}

bool NextDeviceLine(generator::LineReader& reader, std::string_view& line, bool& unterminated) {
  using Ending = generator::LineReader::Ending;
  Ending ending = Ending::Newline;
  if (!reader.Next(line, &ending)) return false;
  unterminated = ending != Ending::Newline;
  if (ending == Ending::TooLong) line = line.substr(0, 200);
  return true;
}

std::size_t Tokens(std::string_view line, std::string_view* out, std::size_t max) {
  std::size_t n = 0;
  std::size_t i = 0;
  while (i < line.size() && n < max) {
    while (i < line.size() && (line[i] == ' ' || line[i] == '\t')) ++i;
    if (i >= line.size()) break;
    std::size_t j = i;
    if (n + 1 == max) {
      j = line.size();
      while (j > i && (line[j - 1] == ' ' || line[j - 1] == '\t')) --j;
    } else {
      while (j < line.size() && line[j] != ' ' && line[j] != '\t') ++j;
    }
    out[n++] = line.substr(i, j - i);
    i = j;
  }
  return n;
}

bool ParseDecimal(std::string_view t, std::uint64_t& v) {
  if (t.empty()) return false;
  const auto [end, ec] = std::from_chars(t.data(), t.data() + t.size(), v);
  return ec == std::errc() && end == t.data() + t.size();
}

}  // namespace ptovec::tools
