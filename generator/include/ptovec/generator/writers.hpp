// Vector file writers: the binary format and JSON (schemas/ describes both), their headers and
// record encoding. Files that appear under their final name only when complete are in
// atomic_file.hpp, SHA-256 in sha256.hpp, shards in shard.hpp, hex text in word_text.hpp.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "ptovec/generator/framing.hpp"
#include "ptovec/generator/ops.hpp"
#include "ptovec/generator/shard.hpp"
// Included for the files that reached these names through this header before they had their own
// (atomic files, SHA-256, hex and flag text); such files should include them directly.
#include "ptovec/generator/atomic_file.hpp"  // IWYU pragma: export
#include "ptovec/generator/sha256.hpp"       // IWYU pragma: export
#include "ptovec/generator/word_text.hpp"    // IWYU pragma: export

namespace ptovec::generator {

/// Version of both vector file formats and the manifest that this ptovec writes (bump on any
/// layout change). Version 2 (schemas/binary-format.md) added each field's bit width, the
/// explicit list of controls, the number of inputs, the strategies of a sampled file and shard
/// files; the readers still read version 1.
inline constexpr int kFileFormatVersion = 2;
/// The oldest version the readers accept.
inline constexpr int kOldestFileFormatVersion = 1;
/// The 8 magic bytes that open a binary vector file.
inline constexpr std::string_view kBinaryMagic{PTOVEC_FACTS_VECTOR_MAGIC, PTOVEC_FACTS_MAGIC_BYTES};
/// Bytes of the binary file's fixed header (before the JSON header text; framing.hpp).
inline constexpr unsigned kBinaryFixedHeaderBytes = kFixedHeaderBytes;

/// What one vector file holds.
struct FileSpec {
  const OpDef* op = nullptr;
  TypePair pair{};
  std::string domain;      ///< "exhaustive" or "sampled"
  std::uint64_t seed = 0;  ///< the derived seed of this (op, src, dst)
  /// The controls every input is evaluated under, in record order (ControlsFor(op), or those of
  /// them a filter selected).
  std::vector<NumericExecutionControl> controls;
  std::uint64_t inputs = 0;               ///< input tuples of the whole file
  std::vector<StrategyCount> strategies;  ///< a sampled file's strategies (empty: exhaustive)
  std::optional<ShardRange> shard;        ///< set in a shard file
  /// Records in this file: (the shard's or the whole file's) inputs x controls.
  std::uint64_t count() const { return (shard ? shard->inputs : inputs) * controls.size(); }
  /// Index of this file's first record in the whole file.
  std::uint64_t first_record() const { return shard ? shard->first_input * controls.size() : 0; }
};

/// One field of a binary record: little-endian unsigned integer of `bytes` bytes at `offset`,
/// of which the low `bits` bits are used.
struct RecordField {
  std::string name;  ///< "in.value", "rmode", "sat", "out", "flags"
  std::string type;  ///< the data type name for words ("fp16"), "" for rmode, sat and flags
  unsigned offset = 0;
  unsigned bytes = 0;
  unsigned bits = 0;  ///< the type's width for words, 3 for rmode, 1 for sat, 5 for flags
};

/// The record layout of (op, pair): each input slot (its type's storage bytes), rmode (1 byte,
/// index RNE 0 .. RHB 6), sat (1 byte, 0 or 1), out (the destination's storage bytes), flags
/// (1 byte, status bits 4:0). Packed, no padding.
std::vector<RecordField> RecordLayout(const OpDef& op, TypePair pair);
/// Sum of the layout's field bytes.
unsigned RecordSize(const std::vector<RecordField>& layout);
/// The "fields" array of a binary header of `version` (2 adds "bits" to each field).
nlohmann::ordered_json FieldsJson(const std::vector<RecordField>& layout, int version);
/// The "controls" array of a version-2 header: [{"rmode":"RNE","sat":false}, ...].
nlohmann::ordered_json ControlsJson(const std::vector<NumericExecutionControl>& controls);
/// The inverse, checked: a non-empty array of {"rmode": name, "sat": bool}, each one of
/// ControlsFor(op), in that order, none twice (vector headers and results sections). Throws
/// std::invalid_argument naming the bad entry and what is accepted.
std::vector<NumericExecutionControl> ParseControlsJson(const nlohmann::ordered_json& list,
                                                       const OpDef& op);

/// The "strategies" array of a sampled file's header and manifest entry: [{"name", "weight",
/// "available", "tuples"}, ...] (StrategyCount's fields).
nlohmann::ordered_json StrategiesJson(const std::vector<StrategyCount>& strategies);

/// The header both formats carry (format, version, tool_version, op, instruction, seed function
/// and source, src, dst, slots with their types and bits, controls, domain, seed, inputs, count,
/// strategies of a sampled file, shard of a shard file).
nlohmann::ordered_json FileHeader(const FileSpec& spec, std::string_view format_name);

/// Packs binary records of one (op, pair) fast: no allocation per record.
class RecordPacker {
 public:
  RecordPacker(const OpDef& op, TypePair pair);
  unsigned record_size() const { return size_; }
  /// Appends n * controls.size() records to `out`: input i under control c (input-major) with
  /// results[i * controls.size() + c].
  void Pack(const Inputs* in, std::size_t n, std::span<const NumericExecutionControl> controls,
            const Encoded* results, std::string& out) const;

 private:
  std::vector<unsigned> slot_bytes_;
  unsigned out_bytes_ = 0;
  unsigned size_ = 0;
};

/// The binary file's fixed header and JSON header text, padded so records start 8-aligned.
std::string BinaryPreamble(const FileSpec& spec);
/// The same for a given JSON header (used by `merge`, which rebuilds a whole file's header).
std::string BinaryPreambleOf(const nlohmann::ordered_json& header, unsigned record_size,
                             std::uint64_t count);
/// Appends one packed little-endian record.
void AppendBinaryRecord(std::string& out, const std::vector<RecordField>& layout, const OpDef& op,
                        TypePair pair, const Inputs& in, NumericExecutionControl control,
                        Encoded result);

/// The JSON file's opening text, up to and including `"vectors":[`.
std::string JsonPreamble(const FileSpec& spec);
/// One vector object {"in":[...],"rmode":..,"sat":..,"out":..,"flags":..} on its own line,
/// preceded by "," unless it is the first.
void AppendJsonRecord(std::string& out, const OpDef& op, TypePair pair, const Inputs& in,
                      NumericExecutionControl control, Encoded result, bool first);
/// The JSON file's closing text.
std::string JsonTrailer();

}  // namespace ptovec::generator
