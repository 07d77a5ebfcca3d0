// Vector file writers (writers.hpp): record layouts, the header both formats carry, binary
// preambles and records, JSON preambles and records.
#include "ptovec/generator/writers.hpp"

#include <cstring>
#include <stdexcept>
#include <utility>

#include "ptovec/generator/word_text.hpp"

namespace ptovec::generator {

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

nlohmann::ordered_json FileHeader(const FileSpec& spec, std::string_view format_name) {
  const OpDef& op = *spec.op;
  nlohmann::ordered_json h;
  h["format"] = format_name;
  h["version"] = kFileFormatVersion;
  h["tool_version"] = PTOVEC_VERSION;
  // The edition the answers follow: only for a later edition than 0.58.3, so 0.58.3 files keep
  // their bytes (no key: 0.58.3).
  if (op.edition != oracle::kDefaultEdition) h["edition"] = oracle::EditionName(op.edition);
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

}  // namespace ptovec::generator
