#include "ptovec/tools/results.hpp"

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cstring>
#include <optional>
#include <stdexcept>

#include "ptovec/generator/cases.hpp"
#include "ptovec/generator/framing.hpp"
#include "ptovec/generator/writers.hpp"
#include "ptovec/tools/compare.hpp"
#include "report_text.hpp"

namespace ptovec::tools {

namespace {

using text::Str;

using generator::InputError;
using oracle::Status;
using oracle::TileDataType;
using oracle::Word;
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

unsigned DstBytes(TypePair pair) { return oracle::Format(pair.dst).StorageBytes(); }
unsigned DstWidth(TypePair pair) { return oracle::Format(pair.dst).width; }

std::string SectionName(const std::vector<ResultsSection>& sections, std::size_t s) {
  return "section " + Str(s) + " (" + sections[s].file + ")";
}

// The largest header a results file may have (a sanity bound: real headers are a few KiB).
constexpr std::uint64_t kMaxHeaderBytes = std::uint64_t{64} << 20;

// JSON text of `j` for messages and files; invalid UTF-8 becomes U+FFFD instead of throwing.
std::string Dump(const nlohmann::ordered_json& j) {
  return j.dump(-1, ' ', false, nlohmann::ordered_json::error_handler_t::replace);
}
std::string Dump(const nlohmann::json& j) {
  return j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

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
  if (flags.size() != 4 || flags[0] != '0' || flags[1] != 'x' ||
      flags.find_first_not_of("0123456789abcdef", 2) != std::string::npos ||
      std::stoul(flags.substr(2), nullptr, 16) > 0x1F) {
    throw InputError("flags \"" + flags +
                     "\" (accepted: 0x00..0x1f, written 0x and 2 lower-case hex digits, or "
                     "\"unsupported\")");
  }
  return static_cast<Status>(std::stoul(flags.substr(2), nullptr, 16));
}

// Parses a result line's "out" word: "0x" and 1..16 hex digits (either case).
Word ParseOut(const std::string& out, TypePair pair) {
  const oracle::FormatInfo& f = oracle::Format(pair.dst);
  if (out.size() < 3 || out.size() > 18 || out[0] != '0' || out[1] != 'x' ||
      out.find_first_not_of("0123456789abcdefABCDEF", 2) != std::string::npos) {
    throw InputError("out word \"" + out + "\" is malformed (accepted: 0x and 1..16 hex digits; " +
                     std::string(f.name) + " words are " + generator::HexWord(0, pair.dst) + ".." +
                     generator::HexWord(oracle::LowBits(~Word{0}, f.width), pair.dst) + ")");
  }
  return std::stoull(out.substr(2), nullptr, 16);
}

bool IsRegular(const std::filesystem::path& path) {
  std::error_code error;
  return std::filesystem::is_regular_file(path, error);
}

}  // namespace

unsigned ResultsRecordSize(TypePair pair, int version) {
  return (version == 1 ? 4 : 8) + DstBytes(pair) + 1;
}

ResultsSection SectionFor(const std::string& file, const std::string& sha256, const OpDef& op,
                          TypePair pair, std::uint64_t count) {
  return {file, sha256, &op, pair, count, {}};
}

J ResultsHeader(const std::vector<ResultsSection>& sections, ResultsFormat format,
                const std::string& device_name, const J& judged) {
  J h;
  h["format"] = format == ResultsFormat::Binary ? "ptovec-results-bin" : "ptovec-results-json";
  h["version"] = kResultsFormatVersion;
  h["tool_version"] = PTOVEC_VERSION;
  h["device"] = device_name;
  if (judged.is_object()) {
    for (const auto& [key, value] : judged.items()) h[key] = value;
  }
  J list = J::array();
  for (const ResultsSection& s : sections) {
    J entry;
    entry["file"] = s.file;
    entry["sha256"] = s.sha256;
    entry["op"] = s.op->name;
    entry["src"] = oracle::Format(s.pair.src).name;
    entry["dst"] = oracle::Format(s.pair.dst).name;
    entry["count"] = s.count;
    if (!s.controls.empty()) entry["controls"] = generator::ControlsJson(s.controls);
    if (format == ResultsFormat::Binary) entry["record_size"] = ResultsRecordSize(s.pair);
    list.push_back(entry);
  }
  h["sections"] = list;
  return h;
}

// ---- writer ----

// Spaces reserved at the end of the header (both formats) so that Stop() can rewrite it in place
// with "stopped" added; the reason is shortened to fit.
constexpr std::size_t kStopReserve = 512;
constexpr std::size_t kStopReasonBytes = 300;

struct ResultsWriter::Impl {
  generator::AtomicFile file;
  ResultsFormat format;
  std::vector<ResultsSection> sections;
  std::string device;
  J judged;
  std::size_t section = 0;
  std::uint64_t in_section = 0;  // records written to the current section
  std::uint64_t records = 0;     // records written in all
  std::size_t header_bytes = 0;  // the header text's room (JSON: line 1 without its newline)
  bool stopped = false;
  std::string buffer;

  Impl(const std::filesystem::path& path, ResultsFormat f, std::vector<ResultsSection> s,
       std::string d, J j)
      : file(path), format(f), sections(std::move(s)), device(std::move(d)), judged(std::move(j)) {}

  void SkipEmpty() {
    while (section < sections.size() && in_section == sections[section].count) {
      ++section;
      in_section = 0;
    }
  }

  // The header text padded with spaces to `room` bytes (0: the natural size plus the reserve).
  std::string HeaderText(const std::optional<ResultsStop>& stop, std::size_t room) const {
    J header = ResultsHeader(sections, format, device, judged);
    if (stop) header["stopped"] = {{"reason", stop->reason}, {"records", stop->records}};
    std::string text = Dump(header);  // names with invalid UTF-8 become U+FFFD, never throw
    if (room == 0) room = text.size() + kStopReserve;
    if (text.size() > room) throw std::logic_error("ResultsWriter: header outgrew its room");
    text.append(room - text.size(), ' ');
    return text;
  }
};

ResultsWriter::ResultsWriter(const std::filesystem::path& path, ResultsFormat format,
                             std::vector<ResultsSection> sections, const std::string& device_name,
                             nlohmann::ordered_json judged)
    : impl_(std::make_unique<Impl>(path, format, std::move(sections), device_name,
                                   std::move(judged))) {
  std::string text = impl_->HeaderText(std::nullopt, 0);
  if (format == ResultsFormat::Json) {
    impl_->header_bytes = text.size();
    impl_->file.Write(text + "\n");
  } else {
    std::uint64_t total = 0;
    for (const ResultsSection& s : impl_->sections) total += s.count;
    const std::string preamble =
        generator::FramedPreamble(kResultsMagic, kResultsFormatVersion, 0, total, text);
    impl_->header_bytes = preamble.size() - kResultsFixedHeaderBytes;
    impl_->file.Write(preamble);
  }
  impl_->SkipEmpty();
}

ResultsWriter::~ResultsWriter() = default;

void ResultsWriter::Append(std::span<const DeviceAnswer> answers,
                           std::span<const std::uint64_t> indices) {
  Impl& w = *impl_;
  if (w.stopped) throw std::logic_error("ResultsWriter: Append after Stop");
  if (!indices.empty() && indices.size() != answers.size()) {
    throw std::logic_error("ResultsWriter: indices and answers differ in number");
  }
  std::string& out = w.buffer;
  out.clear();
  for (std::size_t k = 0; k < answers.size(); ++k) {
    const DeviceAnswer& a = answers[k];
    w.SkipEmpty();
    if (w.section >= w.sections.size()) {
      throw std::logic_error("ResultsWriter: more answers than the sections hold");
    }
    if (indices.empty() && !w.sections[w.section].controls.empty()) {
      throw std::logic_error("ResultsWriter: a section with controls needs record indices");
    }
    const std::uint64_t index = indices.empty() ? w.in_section : indices[k];
    const TypePair pair = w.sections[w.section].pair;
    const Word word = oracle::LowBits(a.result.word, DstWidth(pair));
    if (w.format == ResultsFormat::Binary) {
      generator::AppendLittleEndian(out, index, 8);
      generator::AppendLittleEndian(out, a.supported ? word : 0, DstBytes(pair));
      out.push_back(static_cast<char>(a.supported ? a.result.status : kUnsupportedFlags));
    } else {
      out += "{\"s\":" + Str(w.section) + ",\"i\":" + Str(index);
      if (a.supported) {
        out += ",\"out\":\"" + generator::HexWord(word, pair.dst) + "\",\"flags\":\"" +
               generator::HexStatus(a.result.status) + "\"}\n";
      } else {
        out += ",\"flags\":\"unsupported\"}\n";
      }
    }
    ++w.in_section;
    ++w.records;
  }
  w.file.Write(out);
}

void ResultsWriter::Stop(const std::string& reason) {
  Impl& w = *impl_;
  if (w.stopped) return;
  w.stopped = true;
  std::string shown = reason.substr(0, kStopReasonBytes);
  std::replace(shown.begin(), shown.end(), '\n', ' ');
  const std::string text = w.HeaderText(ResultsStop{shown, w.records}, w.header_bytes);
  if (w.format == ResultsFormat::Json) {
    w.file.Overwrite(0, text);
  } else {
    std::string total;
    generator::AppendLittleEndian(total, w.records, 8);
    w.file.Overwrite(generator::kFixedHeaderCountOffset, total);
    w.file.Overwrite(kResultsFixedHeaderBytes, text);
  }
}

void ResultsWriter::Commit() {
  impl_->SkipEmpty();
  if (!impl_->stopped && impl_->section != impl_->sections.size()) {
    throw std::logic_error("ResultsWriter: section " + Str(impl_->section) + " is incomplete (" +
                           Str(impl_->in_section) + " of " +
                           Str(impl_->sections[impl_->section].count) + ")");
  }
  impl_->file.Commit();
}

// ---- reader ----

struct ResultsReader::Impl {
  std::filesystem::path path;
  std::FILE* file = nullptr;
  std::string format;
  std::string device;
  std::string compare;
  std::vector<std::string> known_differences;
  J judged = J::object();  // the header's "compare", "known_differences", "allow_unsupported"
  int version = 0;
  std::optional<ResultsStop> stopped;
  std::vector<ResultsSection> sections;
  std::vector<std::uint64_t> available;  // records of each section present in the file
  std::size_t section = 0;
  std::uint64_t index = 0;       // records of the current section read
  std::uint64_t last_index = 0;  // the last record index read in the current section
  std::unique_ptr<generator::LineReader> lines;  // JSON
  std::string buffer;                            // binary: records

  ~Impl() {
    if (file != nullptr) std::fclose(file);
  }

  [[noreturn]] void Fail(const std::string& what) const {
    throw InputError("results file " + path.string() + " " + what);
  }

  // JSON: the next line without its '\n' (valid until the next call); false at the end.
  bool NextLine(std::string_view& out) {
    if (!lines) {
      lines = std::make_unique<generator::LineReader>(file, generator::LineReader::Options{});
    }
    return lines->Next(out);
  }
  // JSON: the number of the line last read.
  std::uint64_t line() const { return lines ? lines->line_number() : 0; }

  void ParseHeader(const J& h, const std::string& expected_format) {
    std::string where = "header";
    // h[key] of an object as text / whole number, naming the key when it is missing or another
    // type.
    const auto text = [&](const J& o, const char* key) {
      if (!o.contains(key) || !o[key].is_string()) {
        Fail("has a malformed " + where + ": \"" + key + "\" must be text (got " +
             (o.contains(key) ? Dump(o[key]) : std::string("nothing")) + ")");
      }
      return o[key].get<std::string>();
    };
    const auto whole = [&](const J& o, const char* key) {
      if (!o.contains(key) || !o[key].is_number_unsigned()) {
        Fail("has a malformed " + where + ": \"" + key + "\" must be a whole number (got " +
             (o.contains(key) ? Dump(o[key]) : std::string("nothing")) + ")");
      }
      return o[key].get<std::uint64_t>();
    };
    if (!h.is_object()) Fail("has a header that is not a JSON object");
    if (text(h, "format") != expected_format) {
      Fail("has header format " + Dump(h["format"]) + " (expected \"" + expected_format + "\")");
    }
    if (!h.contains("version") || !h["version"].is_number_unsigned() ||
        h["version"].get<std::uint64_t>() < kOldestResultsFormatVersion ||
        h["version"].get<std::uint64_t>() > kResultsFormatVersion) {
      Fail("has format version " + (h.contains("version") ? Dump(h["version"]) : "(none)") +
           " (this ptovec reads versions " + Str(kOldestResultsFormatVersion) + " to " +
           Str(kResultsFormatVersion) + ")");
    }
    if (version != 0 && h["version"].get<std::uint64_t>() != static_cast<std::uint64_t>(version)) {
      Fail("has a corrupt header: the fixed header says version " + Str(version) +
           ", the JSON header " + Dump(h["version"]));
    }
    version = static_cast<int>(h["version"].get<std::uint64_t>());
    for (const auto& item : h.items()) {
      const std::string& key = item.key();
      const bool judged_key =
          key == "compare" || key == "known_differences" || key == "allow_unsupported";
      if (key != "format" && key != "version" && key != "tool_version" && key != "device" &&
          key != "sections" && !(version >= 2 && (key == "stopped" || judged_key))) {
        Fail("has a malformed header: unknown key \"" + key + "\" (accepted: format, version, " +
             "tool_version, device, sections" +
             (version >= 2 ? ", stopped, compare, known_differences, allow_unsupported)" : ")"));
      }
    }
    if (h.contains("stopped")) {
      where = "header \"stopped\"";
      const J& st = h["stopped"];
      if (!st.is_object() || st.size() != 2) {
        Fail("has a malformed header: \"stopped\" must be {\"reason\": text, \"records\": n}");
      }
      stopped = ResultsStop{text(st, "reason"), whole(st, "records")};
      where = "header";
    }
    if (h.contains("device")) device = text(h, "device");
    for (const char* key : {"compare", "known_differences", "allow_unsupported"}) {
      if (h.contains(key)) judged[key] = h[key];
    }
    if (h.contains("allow_unsupported") && !h["allow_unsupported"].is_boolean()) {
      Fail("has a malformed header: \"allow_unsupported\" must be true or false");
    }
    if (h.contains("compare")) {
      where = "header \"compare\"";
      compare = text(h, "compare");
      try {
        ComparePolicyFromName(compare);
      } catch (const generator::InputError& e) {
        Fail("has a malformed header: " + std::string(e.what()));
      }
      where = "header";
    }
    if (h.contains("known_differences")) {
      const J& kd = h["known_differences"];
      if (!kd.is_array())
        Fail("has a malformed header: \"known_differences\" must be an array of set names");
      for (const J& n : kd) {
        if (!n.is_string())
          Fail("has a malformed header: \"known_differences\" must be an array of set names");
        known_differences.push_back(n.get<std::string>());
      }
    }
    if (!h.contains("sections") || !h["sections"].is_array()) {
      Fail("has a malformed header: \"sections\" must be an array");
    }
    const bool binary = expected_format == "ptovec-results-bin";
    std::size_t number = 0;
    for (const auto& s : h["sections"]) {
      where = "header section " + Str(number);
      if (!s.is_object()) Fail("has a malformed " + where + ": not a JSON object");
      for (const auto& item : s.items()) {
        const std::string& key = item.key();
        if (key != "file" && key != "sha256" && key != "op" && key != "src" && key != "dst" &&
            key != "count" && !(binary && key == "record_size") &&
            !(version >= 2 && key == "controls")) {
          Fail("has a malformed " + where + ": unknown key \"" + key + "\" (accepted: file, " +
               "sha256, op, src, dst, count" + (version >= 2 ? ", controls" : "") +
               (binary ? ", record_size)" : ")"));
        }
      }
      ResultsSection r;
      r.file = text(s, "file");
      r.sha256 = text(s, "sha256");
      const std::string op = text(s, "op");
      r.op = generator::FindOp(op);
      if (r.op == nullptr) {
        Fail("section " + Str(number) + " names unknown op '" + op +
             "' (accepted: " + generator::OpNamesList() + ")");
      }
      const std::string src = text(s, "src");
      const std::string dst = text(s, "dst");
      try {
        r.pair = {generator::RequireType(src, "src"), generator::RequireType(dst, "dst")};
      } catch (const InputError& e) {
        Fail("section " + Str(number) + ": " + e.what());
      }
      if (!generator::IsLegalPair(*r.op, r.pair)) {
        Fail("section " + Str(number) + " has a pair " + op + " does not accept");
      }
      r.count = whole(s, "count");
      if (s.contains("controls")) {
        try {
          r.controls = generator::ParseControlsJson(s["controls"], *r.op);
        } catch (const std::invalid_argument& e) {
          Fail("has a malformed " + where + ": " + e.what());
        }
      }
      if (binary && whole(s, "record_size") != ResultsRecordSize(r.pair, version)) {
        Fail("section " + Str(number) + " has record_size " + Dump(s["record_size"]) +
             " (expected " + Str(ResultsRecordSize(r.pair, version)) + ")");
      }
      sections.push_back(r);
      ++number;
    }
    // The records present: every section's count, or, after a stop, the first stopped->records.
    std::uint64_t sum = 0;
    for (const ResultsSection& sec : sections) {
      sum = sum + sec.count < sum ? UINT64_MAX : sum + sec.count;
    }
    if (stopped && stopped->records > sum) {
      Fail("has a malformed header: \"stopped\" records " + Str(stopped->records) +
           " exceeds the sections' " + Str(sum));
    }
    std::uint64_t left = stopped ? stopped->records : sum;
    for (const ResultsSection& sec : sections) {
      available.push_back(std::min(left, sec.count));
      left -= available.back();
    }
  }

  void SkipEmpty() {
    while (section < sections.size() && index == available[section]) {
      ++section;
      index = 0;
      last_index = 0;
    }
  }
};

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
    static constexpr generator::FramedFileKind kKind{
        "results file",        kResultsMagic,   kOldestResultsFormatVersion,
        kResultsFormatVersion, kMaxHeaderBytes, generator::FramedFileKind::Wording::Results};
    const generator::FramedHeader framed = generator::ReadFramedHeader(r.file, path, kKind);
    r.version = framed.fixed.version;
    const std::uint64_t total = framed.fixed.count;
    const std::uint64_t data_offset = framed.fixed.data_offset;
    const std::uint64_t size = framed.file_size;
    const J& header = framed.json;
    r.ParseHeader(header, "ptovec-results-bin");
    std::uint64_t sum = 0;
    std::uint64_t expected = data_offset;
    bool too_big = false;  // the sections need more bytes than any file has (and may overflow)
    for (std::size_t k = 0; k < r.sections.size(); ++k) {
      const std::uint64_t bytes = ResultsRecordSize(r.sections[k].pair, r.version);
      const std::uint64_t count = r.available[k];
      if (too_big || count > size / bytes || expected > size) {
        too_big = true;
        continue;
      }
      sum += count;
      expected += count * bytes;
    }
    if (too_big) {
      r.Fail("is truncated: its header announces more records than its " + Str(size) +
             " bytes can hold");
    }
    if (sum != total) {
      r.Fail("has a corrupt header: the fixed header says " + Str(total) +
             " records, the sections add up to " + Str(sum));
    }
    if (size < expected) {
      // Name the first record that is missing or partial.
      std::uint64_t at = data_offset;
      for (std::size_t s = 0; s < r.sections.size(); ++s) {
        const std::uint64_t bytes = ResultsRecordSize(r.sections[s].pair, r.version);
        if (size < at + r.available[s] * bytes) {
          const std::uint64_t whole = (size - at) / bytes;
          r.Fail("is truncated: " + SectionName(r.sections, s) + " has " + Str(whole) + " of " +
                 Str(r.available[s]) + " records" +
                 ((size - at) % bytes != 0 ? " and a partial record " + Str(whole) : "") +
                 " (file " + Str(size) + " bytes, expected " + Str(expected) + ")");
        }
        at += r.available[s] * bytes;
      }
    }
    if (size > expected) {
      r.Fail("has " + Str(size - expected) + " extra bytes after the last record (expected " +
             Str(expected) + " bytes in all)");
    }
  } else if (start.starts_with('{')) {
    r.format = "json";
    std::string_view first;
    r.NextLine(first);
    J header;
    try {
      header = J::parse(std::string(first));
    } catch (const std::exception&) {
      r.Fail("line 1 is not a JSON header (expected {\"format\":\"ptovec-results-json\",...})");
    }
    r.ParseHeader(header, "ptovec-results-json");
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
int ResultsReader::version() const { return impl_->version; }
const std::optional<ResultsStop>& ResultsReader::stopped() const { return impl_->stopped; }
std::uint64_t ResultsReader::RecordsIn(std::size_t section) const {
  return impl_->available.at(section);
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
  const bool filtered = !r.sections[section].controls.empty();
  // Checks record k's index: consecutive from 0 (version 1 keeps the low 32 bits in binary), or
  // increasing in a section of some controls. Returns a message, "" when right.
  const auto index_problem = [&](std::uint64_t expected, std::uint64_t index) -> std::string {
    if (!filtered) {
      const std::uint64_t want =
          r.version == 1 && r.format == "bin" ? expected & 0xFFFFFFFFu : expected;
      return index == want ? "" : " (expected " + Str(want) + ")";
    }
    if (expected > 0 && index <= r.last_index) {
      return " (expected more than the previous record's " + Str(r.last_index) + ")";
    }
    return "";
  };
  const TypePair pair = r.sections[section].pair;
  const unsigned width = DstWidth(pair);
  const auto name = [&] { return SectionName(r.sections, section); };
  if (r.format == "bin") {
    const unsigned bytes = ResultsRecordSize(pair, r.version);
    const unsigned index_bytes = r.version == 1 ? 4 : 8;
    const unsigned dst_bytes = DstBytes(pair);
    r.buffer.resize(out.size() * bytes);
    const std::size_t got = std::fread(r.buffer.data(), 1, r.buffer.size(), r.file);
    if (got != r.buffer.size()) {
      r.Fail("is truncated: " + name() + " ends at record " + Str(r.index + got / bytes) + " of " +
             Str(r.available[section]));
    }
    const auto* p = reinterpret_cast<const unsigned char*>(r.buffer.data());
    for (std::size_t k = 0; k < out.size(); ++k, p += bytes) {
      const std::uint64_t expected = r.index + k;
      const std::uint64_t index = generator::LoadLittleEndian(p, index_bytes);
      if (const std::string problem = index_problem(expected, index); !problem.empty()) {
        r.Fail("is out of order: " + name() + " record " + Str(expected) + " carries index " +
               Str(index) + problem);
      }
      r.last_index = index;
      if (!indices.empty()) indices[k] = filtered ? index : expected;
      const unsigned flags = p[index_bytes + dst_bytes];
      DeviceAnswer& a = out[k];
      if (flags == kUnsupportedFlags) {
        a = DeviceAnswer{false, {}};
      } else if (flags > 0x1F) {
        r.Fail(name() + " record " + Str(expected) + " has flags 0x" + [&] {
          char t[3];
          std::snprintf(t, sizeof t, "%02x", flags);
          return std::string(t);
        }() + " (accepted: 0x00..0x1f, or 0x80 unsupported)");
      } else {
        const Word word = generator::LoadLittleEndian(p + index_bytes, dst_bytes);
        a = DeviceAnswer{true, {oracle::LowBits(word, width), static_cast<Status>(flags)}};
      }
    }
    r.index += out.size();
    return;
  }
  std::string_view text;
  for (std::size_t k = 0; k < out.size(); ++k) {
    const std::uint64_t expected = r.index;
    if (!r.NextLine(text)) {
      r.Fail("is truncated: " + name() + " ends at record " + Str(expected) + " of " +
             Str(r.available[section]));
    }
    DeviceAnswer& a = out[k];
    try {
      ResultLine line;
      if (!ParseCanonicalResultLine(text, line)) {  // another key order or spacing
        const auto j = nlohmann::json::parse(text);
        if (!j.is_object()) throw InputError("is not a JSON object");
        for (const auto& item : j.items()) {
          const std::string& key = item.key();
          if (key != "s" && key != "i" && key != "out" && key != "flags") {
            throw InputError("unknown key \"" + key + "\" (accepted: s, i, out, flags)");
          }
        }
        line.s = WholeBelow(j, "s", r.sections.size());
        line.i = WholeBelow(j, "i", filtered ? UINT64_MAX : r.sections[section].count);
        if (!j.contains("flags") || !j["flags"].is_string()) {
          throw InputError("\"flags\" must be text (0x00..0x1f or \"unsupported\")");
        }
        line.flags = j["flags"].get<std::string>();
        if (j.contains("out")) {
          if (!j["out"].is_string()) throw InputError("\"out\" must be text (0x and hex digits)");
          line.out = j["out"].get<std::string>();
        }
      }
      if (line.s != section || !index_problem(expected, line.i).empty()) {
        r.Fail("is out of order: line " + Str(r.line()) + " holds section " + Str(line.s) +
               " record " + Str(line.i) + " (expected " + name() + " record " +
               (filtered ? "index above " + Str(r.last_index) : Str(expected)) + ")");
      }
      r.last_index = line.i;
      if (!indices.empty()) indices[k] = line.i;
      if (line.flags == "unsupported") {
        a = DeviceAnswer{false, {}};
      } else {
        const Status status = ParseFlags(line.flags);
        if (!line.out) throw InputError("no \"out\" word (required unless unsupported)");
        const Word value = ParseOut(*line.out, pair);
        a = DeviceAnswer{true, {oracle::LowBits(value, width), static_cast<Status>(status)}};
      }
    } catch (const InputError& e) {
      if (std::string_view(e.what()).starts_with("results file")) throw;
      r.Fail("line " + Str(r.line()) + " (" + name() + " record " + Str(expected) +
             "): " + e.what());
    } catch (const std::exception& e) {
      r.Fail("line " + Str(r.line()) + " (" + name() + " record " + Str(expected) +
             ") is malformed: " + e.what());
    }
    ++r.index;
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
