#include "ptovec/generator/writers.hpp"

#include <openssl/evp.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <stdexcept>

#include "ptovec/generator/compare_policy.hpp"
#include "ptovec/generator/interrupts.hpp"

namespace ptovec::generator {

namespace {

std::string SystemError(const std::string& what, const std::filesystem::path& path) {
  return what + " " + path.string() + ": " + std::strerror(errno);
}

}  // namespace

std::vector<RecordField> RecordLayout(const OpDef& op, TypePair pair) {
  std::vector<RecordField> fields;
  unsigned offset = 0;
  const auto add = [&](std::string name, std::string type, unsigned bytes, unsigned bits) {
    fields.push_back({std::move(name), std::move(type), offset, bytes, bits});
    offset += bytes;
  };
  for (const Slot& slot : op.slots) {
    const oracle::FormatInfo& f = oracle::Format(slot.TypeFor(pair));
    add("in." + slot.name, std::string(f.name), f.StorageBytes(), f.width);
  }
  add("rmode", "", 1, 3);
  add("sat", "", 1, 1);
  const oracle::FormatInfo& dst = oracle::Format(pair.dst);
  add("out", std::string(dst.name), dst.StorageBytes(), dst.width);
  add("flags", "", 1, 5);
  return fields;
}

unsigned RecordSize(const std::vector<RecordField>& layout) {
  unsigned size = 0;
  for (const RecordField& f : layout) size += f.bytes;
  return size;
}

nlohmann::ordered_json FieldsJson(const std::vector<RecordField>& layout, int version) {
  nlohmann::ordered_json fields = nlohmann::ordered_json::array();
  for (const RecordField& f : layout) {
    nlohmann::ordered_json field = {{"name", f.name}, {"offset", f.offset}, {"bytes", f.bytes}};
    if (version >= 2) field["bits"] = f.bits;
    if (!f.type.empty()) field["type"] = f.type;
    fields.push_back(field);
  }
  return fields;
}

nlohmann::ordered_json ControlsJson(const std::vector<NumericExecutionControl>& controls) {
  nlohmann::ordered_json out = nlohmann::ordered_json::array();
  for (const NumericExecutionControl& c : controls) {
    out.push_back({{"rmode", RoundingModeName(c.rounding_mode)}, {"sat", c.saturating}});
  }
  return out;
}

std::vector<NumericExecutionControl> ParseControlsJson(const nlohmann::ordered_json& list,
                                                       const OpDef& op) {
  const std::vector<NumericExecutionControl> all = ControlsFor(op);
  if (!list.is_array() || list.empty()) {
    throw std::invalid_argument("\"controls\" must be a non-empty array of {\"rmode\", \"sat\"}");
  }
  std::vector<NumericExecutionControl> out;
  std::size_t next = 0;  // the first of the op's controls still allowed
  for (const auto& c : list) {
    std::optional<NumericRoundingMode> mode;
    if (c.is_object() && c.size() == 2 && c.contains("rmode") && c["rmode"].is_string() &&
        c.contains("sat") && c["sat"].is_boolean()) {
      mode = oracle::ParseRoundingMode(c["rmode"].get<std::string>());
    }
    const NumericExecutionControl control{mode.value_or(NumericRoundingMode::RNE),
                                          c.is_object() && c.value("sat", false)};
    std::size_t k = next;
    while (mode && k < all.size() && !(all[k] == control)) ++k;
    if (!mode || k == all.size()) {
      throw std::invalid_argument(
          "control " + c.dump(-1, ' ', false, nlohmann::ordered_json::error_handler_t::replace) +
          " is not one of " + op.name + "'s, or is out of order or repeated (accepted: " +
          ControlsJson(all).dump() + ", in that order)");
    }
    out.push_back(control);
    next = k + 1;
  }
  return out;
}

nlohmann::ordered_json StrategiesJson(const std::vector<StrategyCount>& strategies) {
  nlohmann::ordered_json out = nlohmann::ordered_json::array();
  for (const StrategyCount& s : strategies) {
    out.push_back(
        {{"name", s.name}, {"weight", s.weight}, {"available", s.available}, {"tuples", s.tuples}});
  }
  return out;
}

ShardSelection ParseShardSelection(const std::string& text) {
  const auto bad = [&text]() {
    return std::invalid_argument("--shard '" + text +
                                 "' is not K/N (accepted: whole numbers K/N with K from 0 to "
                                 "N-1 and N from 1 to 2^32, e.g. 0/4 .. 3/4)");
  };
  const std::size_t slash = text.find('/');
  if (slash == std::string::npos) throw bad();
  const std::string k = text.substr(0, slash);
  const std::string n = text.substr(slash + 1);
  for (const std::string& part : {k, n}) {
    if (part.empty() || part.size() > 10 ||
        part.find_first_not_of("0123456789") != std::string::npos) {
      throw bad();
    }
  }
  const ShardSelection shard{std::stoull(k), std::stoull(n)};
  if (shard.of == 0 || shard.of > (std::uint64_t{1} << 32)) throw bad();
  if (shard.index >= shard.of) {
    throw std::invalid_argument("--shard '" + text + "': K must be below N (K counts from 0: " +
                                "0/" + n + " .. " + std::to_string(shard.of - 1) + "/" + n + ")");
  }
  return shard;
}

std::string ShardName(const ShardSelection& shard) {
  return std::to_string(shard.index) + "/" + std::to_string(shard.of);
}

ShardRange ShardRange::Of(std::uint64_t index, std::uint64_t of, std::uint64_t total) {
  __extension__ typedef unsigned __int128 Wide;
  const auto bound = [&](std::uint64_t k) {
    return static_cast<std::uint64_t>(static_cast<Wide>(k) * total / of);
  };
  return {index, of, bound(index), bound(index + 1) - bound(index)};
}

std::string HexWord(Word word, TileDataType type) {
  static constexpr char kDigits[] = "0123456789abcdef";
  const unsigned digits = oracle::Format(type).HexDigits();
  std::string out = "0x";
  for (unsigned i = digits; i-- > 0;) out.push_back(kDigits[(word >> (4 * i)) & 0xF]);
  return out;
}

std::string HexStatus(Status status) {
  static constexpr char kDigits[] = "0123456789abcdef";
  return std::string("0x") + kDigits[(status >> 4) & 0xF] + kDigits[status & 0xF];
}

std::string FlagNames(Status status) {
  std::string out;
  for (unsigned bit = 0; bit < kStatusBitNames.size(); ++bit) {
    if ((status >> bit) & 1U) out += (out.empty() ? "" : "|") + std::string(kStatusBitNames[bit]);
  }
  if ((status & 0xE0) != 0) out += (out.empty() ? "" : "|") + std::string("bits7:5");
  return out.empty() ? "-" : out;
}

nlohmann::ordered_json FileHeader(const FileSpec& spec, std::string_view format_name) {
  const OpDef& op = *spec.op;
  nlohmann::ordered_json h;
  h["format"] = format_name;
  h["version"] = kFileFormatVersion;
  h["tool_version"] = PTOVEC_VERSION;
  h["op"] = op.name;
  h["instruction"] = op.instruction;
  h["seed_function"] = op.seed_function;
  h["seed_source"] = op.seed_source;
  h["src"] = oracle::Format(spec.pair.src).name;
  h["dst"] = oracle::Format(spec.pair.dst).name;
  // A file group of a split pair (OpDef::file_groups): only then, so other files keep their bytes.
  if (spec.pair.group != 0) h["group"] = FileGroupName(op, spec.pair);
  nlohmann::ordered_json slots = nlohmann::ordered_json::array();
  for (const Slot& slot : op.slots) {
    const oracle::FormatInfo& f = oracle::Format(slot.TypeFor(spec.pair));
    slots.push_back({{"name", slot.name},
                     {"type", f.name},
                     {"bits", f.width},
                     {"description", slot.description}});
  }
  h["slots"] = slots;
  h["controls"] = ControlsJson(spec.controls);
  h["domain"] = spec.domain;
  h["seed"] = spec.seed;
  h["inputs"] = spec.inputs;
  h["count"] = spec.count();
  if (!spec.strategies.empty()) h["strategies"] = StrategiesJson(spec.strategies);
  if (spec.shard) {
    h["shard"] = {{"index", spec.shard->index},
                  {"of", spec.shard->of},
                  {"first_input", spec.shard->first_input},
                  {"inputs", spec.shard->inputs},
                  {"first_record", spec.first_record()},
                  {"total_records", spec.inputs * spec.controls.size()}};
  }
  return h;
}

std::string BinaryPreamble(const FileSpec& spec) {
  const std::vector<RecordField> layout = RecordLayout(*spec.op, spec.pair);
  nlohmann::ordered_json header = FileHeader(spec, "ptovec-vectors-bin");
  header["record_size"] = RecordSize(layout);
  header["fields"] = FieldsJson(layout, kFileFormatVersion);
  nlohmann::ordered_json modes = nlohmann::ordered_json::array();
  for (NumericRoundingMode m : oracle::kAllRoundingModes) modes.push_back(RoundingModeName(m));
  header["rmode_names"] = modes;
  return BinaryPreambleOf(header, RecordSize(layout), spec.count());
}

std::string BinaryPreambleOf(const nlohmann::ordered_json& header, unsigned record_size,
                             std::uint64_t count) {
  return FramedPreamble(kBinaryMagic,
                        static_cast<unsigned>(header.value("version", kFileFormatVersion)),
                        record_size, count, header.dump());
}

RecordPacker::RecordPacker(const OpDef& op, TypePair pair) {
  for (const Slot& slot : op.slots) {
    slot_bytes_.push_back(oracle::Format(slot.TypeFor(pair)).StorageBytes());
    size_ += slot_bytes_.back();
  }
  out_bytes_ = oracle::Format(pair.dst).StorageBytes();
  size_ += 3 + out_bytes_;
}

void RecordPacker::Pack(const Inputs* in, std::size_t n,
                        std::span<const NumericExecutionControl> controls, const Encoded* results,
                        std::string& out) const {
  const std::size_t before = out.size();
  out.resize(before + n * controls.size() * size_);
  auto* p = reinterpret_cast<unsigned char*>(out.data() + before);
  const auto put = [&p](Word w, unsigned bytes) {
    StoreLittleEndian(p, w, bytes);
    p += bytes;
  };
  for (std::size_t i = 0; i < n; ++i) {
    // The input part of the record is the same for every control: written once, then copied.
    unsigned char* const record_start = p;
    for (std::size_t k = 0; k < slot_bytes_.size(); ++k) put(in[i][k], slot_bytes_[k]);
    const auto head_bytes = static_cast<std::size_t>(p - record_start);
    for (std::size_t c = 0; c < controls.size(); ++c) {
      if (c > 0) {
        if (head_bytes == 4) {
          std::memcpy(p, record_start, 4);
        } else {
          std::memcpy(p, record_start, head_bytes);
        }
        p += head_bytes;
      }
      const Encoded& r = results[i * controls.size() + c];
      *p++ = static_cast<unsigned char>(controls[c].rounding_mode);
      *p++ = controls[c].saturating ? 1 : 0;
      put(r.word, out_bytes_);
      *p++ = r.status;
    }
  }
}

void AppendBinaryRecord(std::string& out, const std::vector<RecordField>& layout, const OpDef& op,
                        TypePair, const Inputs& in, NumericExecutionControl control,
                        Encoded result) {
  const std::size_t slots = op.slots.size();
  for (std::size_t i = 0; i < slots; ++i) AppendLittleEndian(out, in[i], layout[i].bytes);
  out.push_back(static_cast<char>(control.rounding_mode));
  out.push_back(static_cast<char>(control.saturating ? 1 : 0));
  AppendLittleEndian(out, result.word, layout[slots + 2].bytes);
  out.push_back(static_cast<char>(result.status));
}

std::string JsonPreamble(const FileSpec& spec) {
  std::string text = FileHeader(spec, "ptovec-vectors-json").dump();
  text.pop_back();  // the closing brace: the vectors follow
  text += ",\"vectors\":[\n";
  return text;
}

void AppendJsonRecord(std::string& out, const OpDef& op, TypePair pair, const Inputs& in,
                      NumericExecutionControl control, Encoded result, bool first) {
  // Hand-assembled for speed; every piece is a fixed-alphabet token (hex words, mode names,
  // booleans), so no escaping is ever needed. The schema test validates the result.
  if (!first) out += ",\n";
  out += "{\"in\":[";
  for (std::size_t i = 0; i < op.slots.size(); ++i) {
    if (i > 0) out += ',';
    out += '"';
    out += HexWord(in[i], op.slots[i].TypeFor(pair));
    out += '"';
  }
  out += "],\"rmode\":\"";
  out += RoundingModeName(control.rounding_mode);
  out += control.saturating ? "\",\"sat\":true,\"out\":\"" : "\",\"sat\":false,\"out\":\"";
  out += HexWord(result.word, pair.dst);
  out += "\",\"flags\":\"";
  out += HexStatus(result.status);
  out += "\"}";
}

std::string JsonTrailer() { return "\n]}\n"; }

Sha256::Sha256() {
  auto* ctx = EVP_MD_CTX_new();
  if (ctx == nullptr || EVP_DigestInit_ex(ctx, EVP_sha256(), nullptr) != 1) {
    EVP_MD_CTX_free(ctx);
    throw std::runtime_error("cannot initialise SHA-256 (OpenSSL)");
  }
  ctx_ = ctx;
}

Sha256::~Sha256() { EVP_MD_CTX_free(static_cast<EVP_MD_CTX*>(ctx_)); }

void Sha256::Update(const void* data, std::size_t bytes) {
  if (bytes > 0) EVP_DigestUpdate(static_cast<EVP_MD_CTX*>(ctx_), data, bytes);
}

std::string Sha256::HexDigest() {
  unsigned char digest[EVP_MAX_MD_SIZE];
  unsigned int length = 0;
  EVP_DigestFinal_ex(static_cast<EVP_MD_CTX*>(ctx_), digest, &length);
  static constexpr char kDigits[] = "0123456789abcdef";
  std::string hex;
  for (unsigned i = 0; i < length; ++i) {
    hex.push_back(kDigits[digest[i] >> 4]);
    hex.push_back(kDigits[digest[i] & 0xF]);
  }
  return hex;
}

AtomicFile::AtomicFile(std::filesystem::path path) : path_(std::move(path)) {
  temp_ = path_;
  temp_ += ".tmp-" + std::to_string(::getpid());
  file_ = CreateTemporary(temp_);
  if (file_ == nullptr) throw std::runtime_error(SystemError("cannot create", temp_));
}

AtomicFile::~AtomicFile() {
  if (file_ != nullptr) std::fclose(file_);
  if (!committed_) RemoveTemporary(temp_);
}

void AtomicFile::Write(std::string_view bytes) {
  if (bytes.empty()) return;
  if (finished_) throw std::logic_error("AtomicFile::Write after Finish: " + temp_.string());
  if (std::fwrite(bytes.data(), 1, bytes.size(), file_) != bytes.size()) {
    throw std::runtime_error(SystemError("cannot write", temp_));
  }
  sha_.Update(bytes.data(), bytes.size());
  bytes_ += bytes.size();
}

void AtomicFile::Overwrite(std::uint64_t offset, std::string_view bytes) {
  if (finished_ || offset + bytes.size() > bytes_) {
    throw std::logic_error("AtomicFile::Overwrite past the bytes written to " + temp_.string());
  }
  if (std::fflush(file_) != 0 ||
      ::pwrite(fileno(file_), bytes.data(), bytes.size(), static_cast<off_t>(offset)) !=
          static_cast<ssize_t>(bytes.size())) {
    throw std::runtime_error(SystemError("cannot write", temp_));
  }
  overwritten_ = true;
}

std::string AtomicFile::Finish() {
  if (finished_) return digest_;
  const bool flushed = std::fflush(file_) == 0 && ::fsync(fileno(file_)) == 0;
  const bool closed = std::fclose(file_) == 0;
  file_ = nullptr;
  finished_ = true;
  if (!flushed || !closed) throw std::runtime_error(SystemError("cannot write", temp_));
  digest_ = overwritten_ ? std::string() : sha_.HexDigest();
  return digest_;
}

std::string AtomicFile::Commit() {
  CommitAll({this});
  return digest_;
}

void AtomicFile::CommitAll(const std::vector<AtomicFile*>& files) {
  std::vector<std::pair<std::filesystem::path, std::filesystem::path>> renames;
  for (AtomicFile* f : files) {
    f->Finish();
    renames.emplace_back(f->temp_, f->path_);
  }
  CommitTemporaries(renames);
  for (AtomicFile* f : files) f->committed_ = true;
}

void WriteFileAtomically(const std::filesystem::path& path, std::string_view text) {
  AtomicFile file(path);
  file.Write(text);
  file.Commit();
}

}  // namespace ptovec::generator
