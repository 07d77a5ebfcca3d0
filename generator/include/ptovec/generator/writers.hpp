// Vector file writers: the binary format and JSON (schemas/ describes both), record encoding,
// and files that appear under their final name only when complete.
#pragma once

#include <nlohmann/json.hpp>

#include <cstdio>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "ptovec/generator/ops.hpp"

namespace ptovec::generator {

/// Version of both vector file formats and the manifest (bump on any layout change).
inline constexpr int kFileFormatVersion = 1;
/// The 8 magic bytes that open a binary vector file.
inline constexpr std::string_view kBinaryMagic{"PTOVEC\0B", 8};
/// Bytes of the binary file's fixed header (before the JSON header text).
inline constexpr unsigned kBinaryFixedHeaderBytes = 32;

/// What one vector file holds.
struct FileSpec {
  const OpDef* op = nullptr;
  TypePair pair{};
  std::string domain;  ///< "exhaustive" or "sampled"
  std::uint64_t seed = 0;     ///< the derived seed of this (op, src, dst)
  std::uint64_t count = 0;    ///< number of vectors (records)
};

/// One field of a binary record: little-endian unsigned integer of `bytes` bytes at `offset`.
struct RecordField {
  std::string name;  ///< "in.value", "rmode", "sat", "out", "flags"
  std::string type;  ///< the data type name for words ("fp16"), "" for rmode, sat and flags
  unsigned offset = 0;
  unsigned bytes = 0;
};

/// The record layout of (op, pair): each input slot (its type's storage bytes), rmode (1 byte,
/// index RNE 0 .. RHB 6), sat (1 byte, 0 or 1), out (the destination's storage bytes), flags
/// (1 byte, status bits 4:0). Packed, no padding.
std::vector<RecordField> RecordLayout(const OpDef& op, TypePair pair);
/// Sum of the layout's field bytes.
unsigned RecordSize(const std::vector<RecordField>& layout);

/// The header both formats carry (format, version, tool_version, op, instruction, seed function
/// and source, src, dst, slots with their types, controls, domain, seed, count).
nlohmann::ordered_json FileHeader(const FileSpec& spec, std::string_view format_name);

/// "0x" + lower-case hex, zero-padded to `type`'s width (FP16 4 digits, E8M0 2, S4X2 1).
std::string HexWord(Word word, TileDataType type);
/// "0x" + two lower-case hex digits of a status.
std::string HexStatus(Status status);

/// The binary file's fixed header and JSON header text, padded so records start 8-aligned.
std::string BinaryPreamble(const FileSpec& spec);
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

/// A file written under a temporary name in the same folder and renamed to its final name only
/// by Commit(); destroyed uncommitted, the temporary is removed. Computes SHA-256 as it writes.
class AtomicFile {
 public:
  /// Opens `path`'s temporary. Throws std::runtime_error naming the path on failure.
  explicit AtomicFile(std::filesystem::path path);
  AtomicFile(const AtomicFile&) = delete;
  AtomicFile& operator=(const AtomicFile&) = delete;
  ~AtomicFile();

  void Write(std::string_view bytes);
  /// Flushes, closes and renames into place. Returns the SHA-256 (lower-case hex).
  std::string Commit();
  std::uint64_t bytes() const { return bytes_; }
  const std::filesystem::path& path() const { return path_; }

 private:
  std::filesystem::path path_;
  std::filesystem::path temp_;
  std::FILE* file_ = nullptr;
  Sha256 sha_;
  std::uint64_t bytes_ = 0;
  bool committed_ = false;
};

/// Writes `text` to `path` atomically (temporary name, then rename).
void WriteFileAtomically(const std::filesystem::path& path, std::string_view text);

}  // namespace ptovec::generator
