// Vector file writers: the binary format and JSON (schemas/ describes both), record encoding,
// and files that appear under their final name only when complete.
#pragma once

#include <cstdio>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "ptovec/generator/framing.hpp"
#include "ptovec/generator/ops.hpp"

namespace ptovec::generator {

/// Version of both vector file formats and the manifest that this ptovec writes (bump on any
/// layout change). Version 2 (schemas/binary-format.md) added each field's bit width, the
/// explicit list of controls, the number of inputs, the strategies of a sampled file and shard
/// files; the readers still read version 1.
inline constexpr int kFileFormatVersion = 2;
/// The oldest version the readers accept.
inline constexpr int kOldestFileFormatVersion = 1;
/// The 8 magic bytes that open a binary vector file.
inline constexpr std::string_view kBinaryMagic{"PTOVEC\0B", 8};
/// Bytes of the binary file's fixed header (before the JSON header text; framing.hpp).
inline constexpr unsigned kBinaryFixedHeaderBytes = kFixedHeaderBytes;

/// Which part of a whole file a shard file holds: shard `index` of `of` (0-based) takes inputs
/// floor(index * inputs / of) up to floor((index + 1) * inputs / of) of the whole file, with all
/// their controls; so its records are a contiguous range of the whole file's.
struct ShardRange {
  std::uint64_t index = 0;
  std::uint64_t of = 1;
  std::uint64_t first_input = 0;
  std::uint64_t inputs = 0;  ///< inputs in this shard
  /// The range of shard `index` of `of` over `total` inputs.
  static ShardRange Of(std::uint64_t index, std::uint64_t of, std::uint64_t total);
};

/// Shard `index` of `of` (0-based) of a run, as --shard K/N selects it.
struct ShardSelection {
  std::uint64_t index = 0;
  std::uint64_t of = 1;
  friend bool operator==(const ShardSelection&, const ShardSelection&) = default;
};

/// Parses --shard "K/N": shard K (0-based, K < N) of N, N from 1 to 2^32. Throws
/// std::invalid_argument with one line naming the bad text and what is accepted.
ShardSelection ParseShardSelection(const std::string& text);
/// "K/N".
std::string ShardName(const ShardSelection& shard);

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

/// "0x" + lower-case hex, zero-padded to `type`'s width (FP16 4 digits, E8M0 2, S4X2 1).
std::string HexWord(Word word, TileDataType type);
/// "0x" + two lower-case hex digits of a status.
std::string HexStatus(Status status);
/// The status bits by name, "OF|NX", in bit order NV DZ OF UF NX ("bits7:5" when any of those is
/// set); "-" for none.
std::string FlagNames(Status status);

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

/// SHA-256 of the bytes given so far (OpenSSL EVP), as lower-case hex.
class Sha256 {
 public:
  Sha256();
  Sha256(const Sha256&) = delete;
  Sha256& operator=(const Sha256&) = delete;
  ~Sha256();
  void Update(const void* data, std::size_t bytes);
  /// The digest (64 lower-case hex digits); the object cannot be updated afterwards.
  std::string HexDigest();

 private:
  void* ctx_ = nullptr;  // EVP_MD_CTX
};

/// A file written under a temporary name in the same folder (`PATH.tmp-PID`) and renamed to its
/// final name only by Commit() (or CommitAll()); destroyed uncommitted, the temporary is removed.
/// Computes SHA-256 as it writes. The temporary is registered for interrupts (interrupts.hpp):
/// SIGINT or SIGTERM removes it, and undoes the commit of a file already renamed into place.
class AtomicFile {
 public:
  /// Opens `path`'s temporary. Throws std::runtime_error naming the path on failure.
  explicit AtomicFile(std::filesystem::path path);
  AtomicFile(const AtomicFile&) = delete;
  AtomicFile& operator=(const AtomicFile&) = delete;
  ~AtomicFile();

  void Write(std::string_view bytes);
  /// Replaces bytes already written, at `offset` (same length; a header rewritten in place).
  /// Throws std::logic_error past the bytes written, std::runtime_error on a write error.
  void Overwrite(std::uint64_t offset, std::string_view bytes);
  /// Flushes, syncs and closes the temporary, keeping it under its temporary name (no more
  /// writes). Returns the SHA-256 (lower-case hex), or "" when Overwrite() was used (the digest
  /// of the streamed bytes no longer describes the file). Throws std::runtime_error on a write
  /// error. Called again, returns the same digest.
  std::string Finish();
  /// Finish(), then renames into place. Returns Finish()'s digest.
  std::string Commit();
  /// Finishes every file and renames them all into place in the order given, as one step with
  /// respect to SIGINT and SIGTERM (put the manifest that names the others last): a suite is
  /// replaced whole or not at all.
  static void CommitAll(const std::vector<AtomicFile*>& files);
  std::uint64_t bytes() const { return bytes_; }
  const std::filesystem::path& path() const { return path_; }

 private:
  std::filesystem::path path_;
  std::filesystem::path temp_;
  std::FILE* file_ = nullptr;
  Sha256 sha_;
  std::string digest_;
  std::uint64_t bytes_ = 0;
  bool finished_ = false;
  bool committed_ = false;
  bool overwritten_ = false;
};

/// Writes `text` to `path` atomically (temporary name, then rename).
void WriteFileAtomically(const std::filesystem::path& path, std::string_view text);

}  // namespace ptovec::generator
