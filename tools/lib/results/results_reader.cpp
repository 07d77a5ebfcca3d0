// Reading a results file (ResultsReader), either format told apart by its magic: the binary
// fixed header and record bytes checked against the sections, JSON result lines (a fast path for
// the canonical line, else parsed as JSON), record order and flags checked as they are read.
#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <exception>
#include <filesystem>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <system_error>
#include <utility>
#include <vector>

#include "ptovec/generator/cases.hpp"
#include "ptovec/generator/framing.hpp"
#include "ptovec/generator/word_text.hpp"
#include "ptovec/generator/writers.hpp"
#include "ptovec/oracle/formats.hpp"
#include "ptovec/oracle/numeric.hpp"
#include "ptovec/tools/results.hpp"
#include "report/report_text.hpp"
#include "results/results_internal.hpp"

namespace ptovec::tools {

namespace {

using text::Str;

using generator::InputError;
using oracle::Status;
using oracle::Word;
using results_internal::DstBytes;
using results_internal::DstWidth;
using results_internal::Dump;
using J = nlohmann::ordered_json;

// One JSON result line's fields.
struct ResultLine {
  std::uint64_t s = 0;
  std::uint64_t i = 0;
  std::optional<std::string> out;
  std::string flags;
};

// The fast path for the canonical line ResultsWriter writes, {"s":N,"i":N,"out":"0x..",
// "flags":"0x.."} or {"s":N,"i":N,"flags":"unsupported"}, with no spaces. false: parse it as JSON.
bool ParseCanonicalResultLine(std::string_view t, ResultLine& line) {
  const auto literal = [&](std::string_view lit) {
    if (!t.starts_with(lit)) return false;
    t.remove_prefix(lit.size());
    return true;
  };
  const auto number = [&](std::uint64_t& v) {
    const auto [end, error] = std::from_chars(t.data(), t.data() + t.size(), v);
    if (error != std::errc() || end == t.data() || (t[0] == '0' && end - t.data() > 1))
      return false;
    t.remove_prefix(static_cast<std::size_t>(end - t.data()));
    return true;
  };
  const auto string = [&](std::string& v) {
    const std::size_t close = t.find('"');
    if (close == std::string_view::npos ||
        t.substr(0, close).find('\\') != std::string_view::npos) {
      return false;
    }
    v.assign(t.substr(0, close));
    t.remove_prefix(close + 1);
    return true;
  };
  if (!literal("{\"s\":") || !number(line.s) || !literal(",\"i\":") || !number(line.i))
    return false;
  if (literal(",\"out\":\"")) {
    std::string out;
    if (!string(out)) return false;
    line.out = std::move(out);
  }
  return literal(",\"flags\":\"") && string(line.flags) && t == "}";
}

std::string SectionName(const std::vector<ResultsSection>& sections, std::size_t s) {
  return "section " + Str(s) + " (" + sections[s].file + ")";
}

// The largest header a results file may have (a sanity bound: real headers are a few KiB).
constexpr std::uint64_t kMaxHeaderBytes = std::uint64_t{64} << 20;

// `j[key]` as a whole number below `limit`; throws InputError naming the key and the value.
template <typename Json>
std::uint64_t WholeBelow(const Json& j, const char* key, std::uint64_t limit) {
  if (!j.contains(key)) throw InputError("has no \"" + std::string(key) + "\"");
  const auto& v = j[key];
  if (!v.is_number_unsigned() || v.template get<std::uint64_t>() >= limit) {
    throw InputError("\"" + std::string(key) + "\" " + Dump(v) + " is not a whole number 0.." +
                     Str(limit - 1));
  }
  return v.template get<std::uint64_t>();
}

// Checks a result line's "flags" text: "0x" and two lower-case hex digits up to 0x1f.
Status ParseFlags(const std::string& flags) {
  const std::optional<Status> status = generator::ParseFlagText(flags);
  if (!status) {
    throw InputError("flags \"" + flags +
                     "\" (accepted: 0x00..0x1f, written 0x and 2 lower-case hex digits, or "
                     "\"unsupported\")");
  }
  return *status;
}

// Parses a result line's "out" word: "0x" (lower-case x) and 1..16 hex digits (either case).
Word ParseOut(const std::string& out, TypePair pair) {
  const oracle::FormatInfo& f = oracle::Format(pair.dst);
  Word value = 0;
  if (out.size() < 2 || out[1] != 'x' || !generator::ParseHexWord(out, value)) {
    throw InputError("out word \"" + out + "\" is malformed (accepted: 0x and 1..16 hex digits; " +
                     std::string(f.name) + " words are " + generator::HexWord(0, pair.dst) + ".." +
                     generator::HexWord(oracle::LowBits(~Word{0}, f.width), pair.dst) + ")");
  }
  return value;
}

// One JSON result line: the canonical line on its fast path, else parsed as JSON with its keys,
// "s" below `sections` and "i" below `index_limit`, checked. Throws InputError or a JSON error.
ResultLine ParseResultLine(std::string_view text, std::uint64_t sections,
                           std::uint64_t index_limit) {
  ResultLine line;
  if (ParseCanonicalResultLine(text, line)) return line;
  const auto j = nlohmann::json::parse(text);  // another key order or spacing
  if (!j.is_object()) throw InputError("is not a JSON object");
  for (const auto& item : j.items()) {
    const std::string& key = item.key();
    if (key != "s" && key != "i" && key != "out" && key != "flags") {
      throw InputError("unknown key \"" + key + "\" (accepted: s, i, out, flags)");
    }
  }
  line.s = WholeBelow(j, "s", sections);
  line.i = WholeBelow(j, "i", index_limit);
  if (!j.contains("flags") || !j["flags"].is_string()) {
    throw InputError("\"flags\" must be text (0x00..0x1f or \"unsupported\")");
  }
  line.flags = j["flags"].get<std::string>();
  if (j.contains("out")) {
    if (!j["out"].is_string()) throw InputError("\"out\" must be text (0x and hex digits)");
    line.out = j["out"].get<std::string>();
  }
  return line;
}

bool IsRegular(const std::filesystem::path& path) {
  std::error_code error;
  return std::filesystem::is_regular_file(path, error);
}

}  // namespace

void ResultsReader::Impl::OpenBinary() {
  static constexpr generator::FramedFileKind kKind{
      "results file",        kResultsMagic,   kOldestResultsFormatVersion,
      kResultsFormatVersion, kMaxHeaderBytes, generator::FramedFileKind::Wording::Results};
  const generator::FramedHeader framed = generator::ReadFramedHeader(file, path, kKind);
  version = framed.fixed.version;
  ParseHeader(framed.json, std::string(kResultsBinaryFormatName));
  CheckBinaryLength(framed.fixed.count, framed.fixed.data_offset, framed.file_size);
}

void ResultsReader::Impl::CheckBinaryLength(std::uint64_t total, std::uint64_t data_offset,
                                            std::uint64_t size) const {
  std::uint64_t sum = 0;
  std::uint64_t expected = data_offset;
  bool too_big = false;  // the sections need more bytes than any file has (and may overflow)
  for (std::size_t k = 0; k < sections.size(); ++k) {
    const std::uint64_t bytes = ResultsRecordSize(sections[k].pair, version);
    const std::uint64_t count = available[k];
    if (too_big || count > size / bytes || expected > size) {
      too_big = true;
      continue;
    }
    sum += count;
    expected += count * bytes;
  }
  if (too_big) {
    Fail("is truncated: its header announces more records than its " + Str(size) +
         " bytes can hold");
  }
  if (sum != total) {
    Fail("has a corrupt header: the fixed header says " + Str(total) +
         " records, the sections add up to " + Str(sum));
  }
  if (size < expected) FailFirstTruncatedSection(data_offset, size, expected);
  if (size > expected) {
    Fail("has " + Str(size - expected) + " extra bytes after the last record (expected " +
         Str(expected) + " bytes in all)");
  }
}

void ResultsReader::Impl::FailFirstTruncatedSection(std::uint64_t data_offset, std::uint64_t size,
                                                    std::uint64_t expected) const {
  std::uint64_t at = data_offset;
  for (std::size_t s = 0; s < sections.size(); ++s) {
    const std::uint64_t bytes = ResultsRecordSize(sections[s].pair, version);
    if (size < at + available[s] * bytes) {
      const std::uint64_t whole = (size - at) / bytes;
      Fail("is truncated: " + SectionName(sections, s) + " has " + Str(whole) + " of " +
           Str(available[s]) + " records" +
           ((size - at) % bytes != 0 ? " and a partial record " + Str(whole) : "") + " (file " +
           Str(size) + " bytes, expected " + Str(expected) + ")");
    }
    at += available[s] * bytes;
  }
}

void ResultsReader::Impl::OpenJson() {
  std::string_view first;
  NextLine(first);
  J header;
  try {
    header = J::parse(std::string(first));
  } catch (const std::exception&) {
    Fail("line 1 is not a JSON header (expected {\"format\":\"" +
         std::string(kResultsJsonFormatName) + "\",...})");
  }
  ParseHeader(header, std::string(kResultsJsonFormatName));
}

ResultsReader::ResultsReader(const std::filesystem::path& path) : impl_(std::make_unique<Impl>()) {
  Impl& r = *impl_;
  r.path = path;
  if (std::error_code error; std::filesystem::exists(path, error) && !IsRegular(path)) {
    throw InputError("results file " + path.string() + " must be a regular file (not a folder, " +
                     "pipe or device)");
  }
  r.file = std::fopen(path.c_str(), "rb");
  if (r.file == nullptr) {
    throw InputError("cannot read results file " + path.string() + ": " + std::strerror(errno));
  }
  const std::string start = generator::PeekStart(r.file, kResultsMagic.size());
  if (start == kResultsMagic) {
    r.format = "bin";
    r.OpenBinary();
  } else if (start.starts_with('{')) {
    r.format = "json";
    r.OpenJson();
  } else {
    r.Fail(
        "is not a ptovec results file (expected the binary magic PTOVEC\\0R, a JSON lines "
        "file starting with '{', or TestFloat-style text starting with a hex digit)");
  }
  r.SkipEmpty();
}

ResultsReader::~ResultsReader() = default;

const std::vector<ResultsSection>& ResultsReader::sections() const { return impl_->sections; }
const std::string& ResultsReader::format() const { return impl_->format; }
const std::string& ResultsReader::device() const { return impl_->device; }
const std::string& ResultsReader::compare() const { return impl_->compare; }
const nlohmann::ordered_json& ResultsReader::judged() const { return impl_->judged; }
const std::vector<std::string>& ResultsReader::known_differences() const {
  return impl_->known_differences;
}
std::vector<std::filesystem::path> ResultsReader::vectors() const {
  std::vector<std::filesystem::path> out;
  for (const std::filesystem::path& p : impl_->vectors) {
    out.push_back(p.is_absolute() ? p : (impl_->path.parent_path() / p).lexically_normal());
  }
  return out;
}
int ResultsReader::version() const { return impl_->version; }
oracle::Edition ResultsReader::edition() const { return impl_->edition; }
const std::optional<ResultsStop>& ResultsReader::stopped() const { return impl_->stopped; }
std::uint64_t ResultsReader::RecordsIn(std::size_t section) const {
  return impl_->available.at(section);
}

// Record `expected`'s index: consecutive from 0 (version 1 keeps the low 32 bits in binary), or
// increasing in a section of some controls (`filtered`). A message, "" when right.
std::string ResultsReader::Impl::IndexProblem(bool filtered, std::uint64_t expected,
                                              std::uint64_t record_index) const {
  if (!filtered) {
    const std::uint64_t want = version == 1 && format == "bin" ? expected & 0xFFFFFFFFu : expected;
    return record_index == want ? "" : " (expected " + Str(want) + ")";
  }
  if (expected > 0 && record_index <= last_index) {
    return " (expected more than the previous record's " + Str(last_index) + ")";
  }
  return "";
}

void ResultsReader::Impl::ReadBinary(std::size_t s, std::span<DeviceAnswer> out,
                                     std::span<std::uint64_t> indices) {
  const bool filtered = !sections[s].controls.empty();
  const TypePair pair = sections[s].pair;
  const unsigned bytes = ResultsRecordSize(pair, version);
  const unsigned index_bytes = version == 1 ? 4 : 8;
  const unsigned dst_bytes = DstBytes(pair);
  buffer.resize(out.size() * bytes);
  const std::size_t got = std::fread(buffer.data(), 1, buffer.size(), file);
  if (got != buffer.size()) {
    Fail("is truncated: " + SectionName(sections, s) + " ends at record " +
         Str(index + got / bytes) + " of " + Str(available[s]));
  }
  const auto* p = reinterpret_cast<const unsigned char*>(buffer.data());
  for (std::size_t k = 0; k < out.size(); ++k, p += bytes) {
    const std::uint64_t expected = index + k;
    const std::uint64_t record_index = generator::LoadLittleEndian(p, index_bytes);
    if (const std::string problem = IndexProblem(filtered, expected, record_index);
        !problem.empty()) {
      Fail("is out of order: " + SectionName(sections, s) + " record " + Str(expected) +
           " carries index " + Str(record_index) + problem);
    }
    last_index = record_index;
    if (!indices.empty()) indices[k] = filtered ? record_index : expected;
    const unsigned flags = p[index_bytes + dst_bytes];
    if (flags == kUnsupportedFlags) {
      out[k] = DeviceAnswer{false, {}};
    } else if (flags > 0x1F) {
      Fail(SectionName(sections, s) + " record " + Str(expected) + " has flags " +
           generator::HexStatus(static_cast<Status>(flags)) +
           " (accepted: 0x00..0x1f, or 0x80 unsupported)");
    } else {
      const Word word = generator::LoadLittleEndian(p + index_bytes, dst_bytes);
      out[k] =
          DeviceAnswer{true, {oracle::LowBits(word, DstWidth(pair)), static_cast<Status>(flags)}};
    }
  }
  index += out.size();
}

DeviceAnswer ResultsReader::Impl::JsonAnswer(std::size_t s, std::string_view text,
                                             std::uint64_t& record_index) {
  const bool filtered = !sections[s].controls.empty();
  const std::uint64_t expected = index;
  const ResultLine parsed =
      ParseResultLine(text, sections.size(), filtered ? UINT64_MAX : sections[s].count);
  if (parsed.s != s || !IndexProblem(filtered, expected, parsed.i).empty()) {
    Fail("is out of order: line " + Str(line()) + " holds section " + Str(parsed.s) + " record " +
         Str(parsed.i) + " (expected " + SectionName(sections, s) + " record " +
         (filtered ? "index above " + Str(last_index) : Str(expected)) + ")");
  }
  last_index = parsed.i;
  record_index = parsed.i;
  if (parsed.flags == "unsupported") return DeviceAnswer{false, {}};
  const Status status = ParseFlags(parsed.flags);
  if (!parsed.out) throw InputError("no \"out\" word (required unless unsupported)");
  const TypePair pair = sections[s].pair;
  const Word value = ParseOut(*parsed.out, pair);
  return DeviceAnswer{true, {oracle::LowBits(value, DstWidth(pair)), static_cast<Status>(status)}};
}

void ResultsReader::Impl::ReadJson(std::size_t s, std::span<DeviceAnswer> out,
                                   std::span<std::uint64_t> indices) {
  std::string_view text;
  for (std::size_t k = 0; k < out.size(); ++k) {
    const std::uint64_t expected = index;
    const auto where = [&] {
      return "line " + Str(line()) + " (" + SectionName(sections, s) + " record " + Str(expected);
    };
    if (!NextLine(text)) {
      Fail("is truncated: " + SectionName(sections, s) + " ends at record " + Str(expected) +
           " of " + Str(available[s]));
    }
    try {
      std::uint64_t record_index = 0;
      out[k] = JsonAnswer(s, text, record_index);
      if (!indices.empty()) indices[k] = record_index;
    } catch (const InputError& e) {
      if (std::string_view(e.what()).starts_with("results file")) throw;
      Fail(where() + "): " + e.what());
    } catch (const std::exception& e) {
      Fail(where() + ") is malformed: " + e.what());
    }
    ++index;
  }
}

void ResultsReader::Read(std::size_t section, std::span<DeviceAnswer> out,
                         std::span<std::uint64_t> indices) {
  Impl& r = *impl_;
  if (out.empty()) return;
  if (!indices.empty() && indices.size() != out.size()) {
    throw std::logic_error("ResultsReader::Read: indices and answers differ in number");
  }
  r.SkipEmpty();
  if (section != r.section || r.index + out.size() > r.available[section]) {
    throw std::logic_error("ResultsReader::Read: sections must be read in order");
  }
  if (r.format == "bin") {
    r.ReadBinary(section, out, indices);
  } else {
    r.ReadJson(section, out, indices);
  }
}

void ResultsReader::Finish() {
  Impl& r = *impl_;
  r.SkipEmpty();
  if (r.section != r.sections.size()) {
    r.Fail("was not read to its end (" + SectionName(r.sections, r.section) + ")");
  }
  if (r.format == "bin") {
    char extra = 0;
    if (std::fread(&extra, 1, 1, r.file) != 0) r.Fail("has extra bytes after the last record");
    return;
  }
  std::string_view text;
  while (r.NextLine(text)) {
    if (text.find_first_not_of(" \t\r") != std::string::npos) {
      r.Fail("has extra lines: line " + Str(r.line()) + " follows the last record of the last " +
             "section");
    }
  }
}

}  // namespace ptovec::tools
