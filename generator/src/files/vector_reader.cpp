// VectorReader (readers.hpp): one vector file of any of the three formats (binary, JSON,
// TestFloat-style text) opened, its header checked against the registry, and its records
// streamed and checked; JSON lines as AppendJsonRecord writes them parsed on a fast path. Also
// FileSha256.
#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <cstring>
#include <functional>
#include <optional>
#include <system_error>
#include <vector>

#include "ptovec/generator/cases.hpp"
#include "ptovec/generator/framing.hpp"
#include "ptovec/generator/readers.hpp"
#include "ptovec/generator/sha256.hpp"
#include "ptovec/generator/shard.hpp"
#include "ptovec/generator/testfloat.hpp"
#include "ptovec/generator/word_text.hpp"
#include "ptovec/generator/writers.hpp"
#include "vector_header.hpp"

namespace ptovec::generator {

namespace {

constexpr std::size_t kChunkBytes = 1 << 20;

std::string Str(std::uint64_t v) { return std::to_string(v); }

// The fields of one JSON vector line.
struct JsonVector {
  std::vector<std::string> in;
  std::string rmode;
  bool sat = false;
  std::string out;
  std::string flags;
};

// The fast path for a line exactly as AppendJsonRecord writes it:
// {"in":["0x..",...],"rmode":"RNE","sat":false,"out":"0x..","flags":"0x.."}. false: parse as JSON.
bool ParseCanonicalVector(std::string_view t, JsonVector& v) {
  const auto literal = [&](std::string_view lit) {
    if (!t.starts_with(lit)) return false;
    t.remove_prefix(lit.size());
    return true;
  };
  const auto string = [&](std::string& out) {
    const std::size_t close = t.find('"');
    if (close == std::string_view::npos ||
        t.substr(0, close).find('\\') != std::string_view::npos) {
      return false;
    }
    out.assign(t.substr(0, close));
    t.remove_prefix(close + 1);
    return true;
  };
  if (!literal("{\"in\":[")) return false;
  while (true) {
    if (!literal("\"")) return false;
    v.in.emplace_back();
    if (!string(v.in.back())) return false;
    if (literal("]")) break;
    if (!literal(",") || v.in.size() > kMaxSlots) return false;
  }
  if (!literal(",\"rmode\":\"") || !string(v.rmode)) return false;
  if (literal(",\"sat\":true")) {
    v.sat = true;
  } else if (!literal(",\"sat\":false")) {
    return false;
  }
  return literal(",\"out\":\"") && string(v.out) && literal(",\"flags\":\"") && string(v.flags) &&
         t == "}";
}

}  // namespace

std::string FileSha256(const std::filesystem::path& path) {
  std::FILE* f = std::fopen(path.c_str(), "rb");
  if (f == nullptr) {
    throw InputError("cannot read " + path.string() + ": " + std::strerror(errno));
  }
  Sha256 sha;
  std::string buffer(kChunkBytes, '\0');
  std::size_t n = 0;
  while ((n = std::fread(buffer.data(), 1, buffer.size(), f)) > 0) sha.Update(buffer.data(), n);
  const bool failed = std::ferror(f) != 0;
  std::fclose(f);
  if (failed) throw InputError("cannot read " + path.string());
  return sha.HexDigest();
}

// ---- VectorReader ----

VectorReader::VectorReader(const std::filesystem::path& path) {
  info_.path = path;
  info_.name = path.filename().string();
  std::error_code error;
  if (std::filesystem::exists(path, error) && !std::filesystem::is_regular_file(path, error)) {
    Fail("must be a regular file (not a folder, pipe or device)");
  }
  file_ = std::fopen(path.c_str(), "rb");
  if (file_ == nullptr) {
    throw InputError("cannot read vector file " + path.string() + ": " + std::strerror(errno));
  }
  // A constructor that throws runs no destructor: close the file here (found by fuzzing: every
  // refused file kept its descriptor open).
  try {
    sha_ = std::make_unique<Sha256>();
    const std::string start = PeekStart(file_, kBinaryMagic.size());
    if (start == kBinaryMagic) {
      info_.format = "bin";
      OpenBinary();
    } else if (start.starts_with('{')) {
      info_.format = "json";
      OpenJson();
    } else if (ParseTestFloatFileName(info_.name)) {
      info_.format = std::string(kTestFloatFormat);
      OpenTestFloat();
    } else {
      Fail(
          "is not a ptovec vector file (expected the binary magic PTOVEC\\0B, a JSON vector "
          "file starting with '{', or TestFloat-style text named "
          "<op>_<src>_<dst>_<RMODE>_sat<off|on>.tf)");
    }
  } catch (...) {
    std::fclose(file_);
    file_ = nullptr;
    throw;
  }
}

VectorReader::~VectorReader() {
  if (file_ != nullptr) std::fclose(file_);
}

void VectorReader::Fail(const std::string& what) const {
  throw InputError("vector file " + info_.path.string() + " " + what);
}

void VectorReader::OpenBinary() {
  static constexpr FramedFileKind kKind{
      "vector file",      kBinaryMagic,          kOldestFileFormatVersion,
      kFileFormatVersion, kMaxVectorHeaderBytes, FramedFileKind::Wording::Vectors};
  FramedHeader framed = ReadFramedHeader(file_, info_.path, kKind);
  sha_->Update(framed.fixed_bytes.data(), framed.fixed_bytes.size());
  sha_->Update(framed.text.data(), framed.text.size());
  info_.header = std::move(framed.json);
  const std::uint64_t version = framed.fixed.version;
  const std::uint64_t record_size = framed.fixed.record_size;
  const std::uint64_t count = framed.fixed.count;
  const std::uint64_t data_offset = framed.fixed.data_offset;
  const std::uint64_t size = framed.file_size;
  const auto fail = [this](const std::string& what) { Fail(what); };
  CheckCommonHeader(info_.header, "ptovec-vectors-bin", info_, fail);
  if (info_.count != count) {
    Fail("has a corrupt header: the fixed header says " + Str(count) +
         " records, the JSON header " + Str(info_.count));
  }
  if (static_cast<std::uint64_t>(info_.version) != version) {
    Fail("has a corrupt header: the fixed header says version " + Str(version) +
         ", the JSON header version " + Str(info_.version));
  }
  layout_ = RecordLayout(*info_.op, info_.pair);
  record_size_ = RecordSize(layout_);
  if (record_size != record_size_ || !info_.header.contains("record_size") ||
      info_.header["record_size"] != record_size_) {
    Fail("has record size " + Str(record_size) + " (" + info_.op->name + " " +
         info_.header["src"].get<std::string>() + " -> " + info_.header["dst"].get<std::string>() +
         " records have " + Str(record_size_) + " bytes)");
  }
  const nlohmann::ordered_json fields = FieldsJson(layout_, info_.version);
  if (!info_.header.contains("fields") || info_.header["fields"] != fields) {
    Fail("has a record layout (\"fields\") that differs from the registry's: expected " +
         fields.dump());
  }
  if (count > (UINT64_MAX - data_offset) / record_size_) {  // more bytes than any file has
    Fail("is truncated: the header announces " + Str(count) + " records of " + Str(record_size_) +
         " bytes but the file has " + Str(size) + " bytes");
  }
  const std::uint64_t expected = data_offset + count * record_size_;
  if (size != expected) {
    const std::uint64_t whole = (size - data_offset) / record_size_;
    Fail(std::string(size < expected ? "is truncated" : "has extra bytes") +
         ": the header announces " + Str(count) + " records (" + Str(expected) +
         " bytes) but the file has " + Str(size) + " bytes (" + Str(whole) + " whole records" +
         ((size - data_offset) % record_size_ != 0 ? " and a partial one)" : ")"));
  }
}

std::size_t VectorReader::ReadBinary(std::vector<VectorRecord>& out, std::size_t max,
                                     const std::vector<bool>& keep,
                                     std::vector<std::uint64_t>* positions) {
  const std::uint64_t n64 = std::min<std::uint64_t>(max, info_.count - position_);
  const auto n = static_cast<std::size_t>(n64);
  buffer_.resize(n * record_size_);
  if (std::fread(buffer_.data(), 1, buffer_.size(), file_) != buffer_.size()) {
    Fail("is truncated at record " + Str(position_) + " (it changed while being read?)");
  }
  sha_->Update(buffer_.data(), buffer_.size());
  const OpDef& op = *info_.op;
  const std::size_t slots = op.slots.size();
  const auto* p = reinterpret_cast<const unsigned char*>(buffer_.data());
  // The header's control of each record: they repeat in the header's order.
  std::size_t control = static_cast<std::size_t>(position_ % info_.controls.size());
  out.reserve(out.size() + n);
  for (std::size_t r = 0; r < n; ++r, p += record_size_) {
    const unsigned rmode = p[layout_[slots].offset];
    const unsigned sat = p[layout_[slots + 1].offset];
    const unsigned status = p[layout_[slots + 3].offset];
    if (rmode > 6 || sat > 1 || (!op.uses_controls && (rmode != 0 || sat != 0)) || status > 0x1F) {
      Fail("record " + Str(position_ + r) + " is corrupt: rmode " + Str(rmode) + ", sat " +
           Str(sat) + ", flags " + Str(status) +
           " (accepted: rmode 0..6, sat 0..1, flags 0x00..0x1f; RNE, Sat off for " + op.name + ")");
    }
    const NumericExecutionControl c{static_cast<NumericRoundingMode>(rmode), sat == 1};
    if (!(c == info_.controls[control])) {
      Fail("record " + Str(position_ + r) + " " + ControlProblem(position_ + r, c));
    }
    const bool kept = keep.empty() || keep[control];
    if (++control == info_.controls.size()) control = 0;
    if (!kept) continue;  // checked, not decoded
    VectorRecord rec;
    rec.c.op = &op;
    rec.c.pair = info_.pair;
    rec.c.control = c;
    for (std::size_t i = 0; i < slots; ++i) {
      rec.c.in[i] = LoadLittleEndian(p + layout_[i].offset, layout_[i].bytes);
    }
    rec.expected.word = LoadLittleEndian(p + layout_[slots + 2].offset, layout_[slots + 2].bytes);
    rec.expected.status = static_cast<oracle::Status>(status);
    out.push_back(rec);
    if (positions != nullptr) positions->push_back(position_ + r);
  }
  position_ += n;
  if (position_ == info_.count) Finish();
  return n;
}

void VectorReader::OpenJson() {
  std::string_view line;
  if (!NextLine(line)) Fail("is empty");
  constexpr std::string_view kOpen = ",\"vectors\":[";
  if (line.size() < kOpen.size() ||
      line.compare(line.size() - kOpen.size(), kOpen.size(), kOpen) != 0) {
    Fail(
        "line 1 is not a ptovec JSON vector header (expected a header ending in "
        "\"vectors\":[ on the first line)");
  }
  try {
    info_.header = nlohmann::ordered_json::parse(
        std::string(line.substr(0, line.size() - kOpen.size())) + "}");
  } catch (const nlohmann::json::exception&) {
    Fail("has a header (line 1) that does not parse");
  }
  const auto fail = [this](const std::string& what) { Fail(what); };
  CheckCommonHeader(info_.header, "ptovec-vectors-json", info_, fail);
}

void VectorReader::OpenTestFloat() {
  const TestFloatKey key = *ParseTestFloatFileName(info_.name);
  info_.op = key.op;
  info_.pair = key.pair;
  info_.controls = {key.control};
  info_.version = kFileFormatVersion;
  line_bytes_ = TestFloatLineBytes(*key.op, key.pair);
  std::error_code error;
  const std::uint64_t size = std::filesystem::file_size(info_.path, error);
  if (error) Fail("cannot be sized: " + error.message());
  if (size % line_bytes_ != 0) {
    Fail("is truncated or malformed: its " + Str(size) + " bytes are not a whole number of " +
         Str(line_bytes_) + "-byte lines (each line of " + key.op->name + " " +
         std::string(oracle::Format(key.pair.src).name) + " -> " +
         std::string(oracle::Format(key.pair.dst).name) + " has " + Str(line_bytes_) +
         " bytes: the words in hex at their widths, the flags, spaces and '\\n'; " +
         Str(size / line_bytes_) + " whole lines)");
  }
  info_.count = size / line_bytes_;
  info_.inputs = info_.count;
  info_.header = {{"format", "ptovec-vectors-testfloat"},
                  {"op", key.op->name},
                  {"src", oracle::Format(key.pair.src).name},
                  {"dst", oracle::Format(key.pair.dst).name},
                  {"rmode", RoundingModeName(key.control.rounding_mode)},
                  {"sat", key.control.saturating},
                  {"count", info_.count}};
}

std::size_t VectorReader::ReadTestFloat(std::vector<VectorRecord>& out, std::size_t max) {
  const auto n = static_cast<std::size_t>(std::min<std::uint64_t>(max, info_.count - position_));
  buffer_.resize(n * line_bytes_);
  if (std::fread(buffer_.data(), 1, buffer_.size(), file_) != buffer_.size()) {
    Fail("is truncated at line " + Str(position_ + 1) + " (it changed while being read?)");
  }
  sha_->Update(buffer_.data(), buffer_.size());
  for (std::size_t r = 0; r < n; ++r) {
    const std::string_view line(buffer_.data() + r * line_bytes_, line_bytes_);
    const std::uint64_t number = position_ + r + 1;
    VectorRecord rec;
    rec.c.op = info_.op;
    rec.c.pair = info_.pair;
    rec.c.control = info_.controls[0];
    try {
      if (line.back() != '\n') {
        throw InputError("does not end with '\\n' after " + Str(line_bytes_ - 1) +
                         " bytes (every line of this file has the same length)");
      }
      const TestFloatLine parsed =
          ParseTestFloatLine(line.substr(0, line.size() - 1), *info_.op, info_.pair);
      rec.c.in = parsed.in;
      rec.expected = parsed.result;
    } catch (const InputError& e) {
      Fail("line " + Str(number) + " " + e.what());
    }
    out.push_back(rec);
  }
  position_ += n;
  if (position_ == info_.count) Finish();
  return n;
}

bool VectorReader::NextLine(std::string_view& line) {
  if (!lines_) {
    lines_ = std::make_unique<LineReader>(
        file_, LineReader::Options{.on_read = [this](std::string_view bytes) {
          sha_->Update(bytes.data(), bytes.size());
        }});
  }
  return lines_->Next(line);
}

std::size_t VectorReader::ReadJson(std::vector<VectorRecord>& out, std::size_t max) {
  const OpDef& op = *info_.op;
  const std::size_t slots = op.slots.size();
  std::string_view line;
  std::size_t n = 0;
  while (n < max && !done_) {
    if (!NextLine(line)) {
      Fail("is truncated: the header announces " + Str(info_.count) + " vectors, the file ends " +
           "after " + Str(position_) + " without the closing ]}");
    }
    if (line.empty() && position_ == info_.count) continue;  // "\n]}" after the last vector
    if (line == "]}") {
      if (position_ != info_.count) {
        Fail("is truncated: the header announces " + Str(info_.count) + " vectors but the file " +
             "has " + Str(position_));
      }
      Finish();
      break;
    }
    if (position_ == info_.count) {
      Fail("has extra vectors: the header announces " + Str(info_.count) + " but line " +
           Str(lines_->line_number()) + " holds another (expected the closing ]})");
    }
    std::string_view body = line;
    if (!body.empty() && body.back() == ',') body.remove_suffix(1);
    VectorRecord rec;
    rec.c.op = &op;
    rec.c.pair = info_.pair;
    try {
      JsonVector v;
      if (!ParseCanonicalVector(body, v)) {  // not as AppendJsonRecord writes it: full JSON
        const auto j = nlohmann::json::parse(body);
        const auto& in = j.at("in");
        if (!in.is_array()) throw InputError("\"in\" must be an array");
        for (const auto& w : in) v.in.push_back(w.get<std::string>());
        v.rmode = j.at("rmode").get<std::string>();
        v.sat = j.at("sat").get<bool>();
        v.out = j.at("out").get<std::string>();
        v.flags = j.at("flags").get<std::string>();
      }
      if (v.in.size() != slots) throw InputError("\"in\" must hold " + Str(slots) + " words");
      for (std::size_t i = 0; i < slots; ++i) {
        rec.c.in[i] = ParseWord(v.in[i], op.slots[i].TypeFor(info_.pair), op.slots[i].name);
      }
      rec.c.control = {RequireRoundingMode(v.rmode), v.sat};
      if (!op.uses_controls &&
          (rec.c.control.rounding_mode != NumericRoundingMode::RNE || rec.c.control.saturating)) {
        throw InputError(op.name + " vectors are RNE, Sat off");
      }
      if (const std::string problem = ControlProblem(position_, rec.c.control); !problem.empty()) {
        throw InputError(problem);
      }
      rec.expected.word = ParseWord(v.out, info_.pair.dst, "out");
      const std::optional<Status> flags = ParseFlagText(v.flags);
      if (!flags) throw InputError("flags '" + v.flags + "' (accepted: 0x00..0x1f)");
      rec.expected.status = *flags;
    } catch (const std::exception& e) {
      Fail("line " + Str(lines_->line_number()) + " (vector " + Str(position_) +
           ") is malformed: " + e.what());
    }
    out.push_back(rec);
    ++position_;
    ++n;
  }
  return n;
}

std::string VectorReader::ControlProblem(std::uint64_t record,
                                         NumericExecutionControl control) const {
  const NumericExecutionControl& expected = info_.controls[record % info_.controls.size()];
  if (control == expected) return {};
  return "has control " + std::string(RoundingModeName(control.rounding_mode)) + " Sat " +
         (control.saturating ? "on" : "off") + " where the header's controls put " +
         std::string(RoundingModeName(expected.rounding_mode)) + " Sat " +
         (expected.saturating ? "on" : "off");
}

std::size_t VectorReader::Read(std::vector<VectorRecord>& out, std::size_t max) {
  out.clear();
  if (done_ || max == 0) return 0;
  if (info_.format == "bin") return ReadBinary(out, max, {}, nullptr);
  return info_.format == "json" ? ReadJson(out, max) : ReadTestFloat(out, max);
}

std::size_t VectorReader::Read(std::vector<VectorRecord>& out, std::size_t max,
                               const std::vector<NumericExecutionControl>& keep,
                               std::vector<std::uint64_t>& positions) {
  positions.clear();
  const auto kept = [&](const NumericExecutionControl& c) {
    return keep.empty() || std::find(keep.begin(), keep.end(), c) != keep.end();
  };
  if (info_.format == "bin" && !done_ && max != 0) {
    out.clear();
    std::vector<bool> slots;  // per control of the header: kept
    for (const NumericExecutionControl& c : info_.controls) slots.push_back(kept(c));
    return ReadBinary(out, max, slots, &positions);
  }
  const std::uint64_t first = position_;
  const std::size_t n = Read(out, max);
  std::size_t k = 0;
  for (std::size_t r = 0; r < out.size(); ++r) {
    if (!kept(out[r].c.control)) continue;
    if (k != r) out[k] = out[r];
    positions.push_back(first + r);
    ++k;
  }
  out.resize(k);
  return n;
}

void VectorReader::Finish() {
  if (info_.format == "json") {
    std::string_view rest;
    while (NextLine(rest)) {
      if (!rest.empty()) {
        Fail("has text after the closing ]} at line " + Str(lines_->line_number()));
      }
    }
  } else {
    char extra = 0;
    if (std::fread(&extra, 1, 1, file_) != 0) Fail("grew while being read (extra bytes)");
  }
  done_ = true;
  sha256_ = sha_->HexDigest();
  std::fclose(file_);
  file_ = nullptr;
}

}  // namespace ptovec::generator
