// Vector file readers: the binary (`PTOVEC\0B`, schemas/binary-format.md) and JSON vector files
// that writers.hpp writes, validated against the op registry and streamed record by record with
// bounded memory, hashing (SHA-256) as they read. Also the list of vector files of a folder.
#pragma once

#include <array>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "ptovec/generator/cases.hpp"
#include "ptovec/generator/ops.hpp"
#include "ptovec/generator/sha256.hpp"
#include "ptovec/generator/shard.hpp"
#include "ptovec/generator/writers.hpp"
#include "ptovec/oracle/edition.hpp"

namespace ptovec::generator {

/// One vector of a file: the case (op, pair, mode, Sat, inputs) and the expected result.
struct VectorRecord {
  Case c;
  Encoded expected{};
};

/// What a vector file's header says, checked against the registry.
struct VectorFileInfo {
  std::filesystem::path path;
  std::string name;    ///< the file name without folders ("tcvt_fp16_e8m0.bin")
  std::string format;  ///< "bin", "json" or "testfloat" (testfloat.hpp: op, pair and control
                       ///< from the file name, count from the size)
  /// The specification edition of the file: its header's "edition", 0.58.3 without one. `op`
  /// is that edition's (AllOps(edition)).
  oracle::Edition edition = oracle::kDefaultEdition;
  const OpDef* op = nullptr;
  TypePair pair{};
  std::uint64_t count = 0;  ///< records the header announces (checked against the file)
  int version = 0;          ///< the file's format version (kOldestFileFormatVersion..current)
  /// The controls each input is evaluated under, in record order: record r has control
  /// controls[r % controls.size()]. Version 1 files hold ControlsFor(op).
  std::vector<NumericExecutionControl> controls;
  /// Input tuples of the whole file (a shard file holds shard->inputs of them).
  std::uint64_t inputs = 0;
  std::optional<ShardRange> shard;  ///< set for a shard file (version 2)
  nlohmann::ordered_json header;
};

/// SHA-256 of a whole file (64 lower-case hex digits). Throws InputError when unreadable.
std::string FileSha256(const std::filesystem::path& path);

/// The largest JSON header a binary vector file may have (real ones are a few KiB).
inline constexpr std::uint64_t kMaxVectorHeaderBytes = std::uint64_t{64} << 20;

/// Streams one vector file (a regular file; pipes and devices are refused). The constructor reads
/// and validates the header (magic, version, known op, legal pair, record layout equal to
/// RecordLayout, count equal to the records the file holds for a binary file); Read() returns
/// records in file order and, at the end, checks that the file holds exactly `count` records and
/// nothing after them. Every problem throws InputError with one line naming the file and, where it
/// applies, the record, the expected and the actual value ("x.bin is truncated: the header
/// announces 917504 records (5505784 bytes) but the file has 5505780 bytes").
class VectorReader {
 public:
  explicit VectorReader(const std::filesystem::path& path);
  VectorReader(const VectorReader&) = delete;
  VectorReader& operator=(const VectorReader&) = delete;
  ~VectorReader();

  const VectorFileInfo& info() const { return info_; }
  /// Clears `out` and appends up to `max` next records; returns how many (0 once done()).
  std::size_t Read(std::vector<VectorRecord>& out, std::size_t max);
  /// The same, keeping in `out` only the records of the controls `keep` (empty: all), as a
  /// --rmode/--sat selection does, and in `positions` each one's index in the file; returns how
  /// many records were read. Every record is still checked and hashed (a binary file's others
  /// are not decoded).
  std::size_t Read(std::vector<VectorRecord>& out, std::size_t max,
                   const std::vector<NumericExecutionControl>& keep,
                   std::vector<std::uint64_t>& positions);
  /// True once every record was read and the end of the file checked.
  bool done() const { return done_; }
  /// Records read so far.
  std::uint64_t position() const { return position_; }
  /// SHA-256 of the whole file (lower-case hex); only once done().
  const std::string& sha256() const { return sha256_; }

 private:
  void OpenBinary();
  void OpenJson();
  void OpenTestFloat();
  std::size_t ReadTestFloat(std::vector<VectorRecord>& out, std::size_t max);
  // `keep`: per control of the header, whether its records are decoded into `out` (empty: all);
  // `positions` (when given) receives their indices.
  std::size_t ReadBinary(std::vector<VectorRecord>& out, std::size_t max,
                         const std::vector<bool>& keep, std::vector<std::uint64_t>* positions);
  std::size_t ReadJson(std::vector<VectorRecord>& out, std::size_t max);
  // JSON: the next line without its '\n' (valid until the next call); false at the end.
  bool NextLine(std::string_view& line);
  void Finish();
  /// "" when record `record` has the control its header's controls put there, else what differs.
  std::string ControlProblem(std::uint64_t record, NumericExecutionControl control) const;
  [[noreturn]] void Fail(const std::string& what) const;

  VectorFileInfo info_;
  std::FILE* file_ = nullptr;
  std::unique_ptr<Sha256> sha_;
  std::vector<RecordField> layout_;
  unsigned record_size_ = 0;
  unsigned line_bytes_ = 0;  // TestFloat-style text: bytes of every line
  std::uint64_t position_ = 0;
  bool done_ = false;
  std::string sha256_;
  std::string buffer_;                 // binary: records
  std::unique_ptr<LineReader> lines_;  // JSON (digesting what it reads)
};

/// One vector file of a PATH given to check/run.
struct VectorSource {
  std::filesystem::path path;
  std::string name;                    ///< file name as the results file records it
  std::optional<std::string> sha256;   ///< from manifest.json, verified while reading
  std::optional<std::uint64_t> count;  ///< from manifest.json, verified against the header
  std::optional<std::uint64_t> bytes;  ///< from manifest.json, verified before reading
  /// From manifest.json: op, src, dst and format ("bin"/"json"), verified against the header.
  std::optional<std::array<std::string, 4>> kind;
  /// The other format of the file listed just before it (VectorSelection::twins): read only to
  /// check that it holds the same records.
  bool twin = false;
  /// From manifest.json: the suite's edition, verified against the header's.
  std::optional<oracle::Edition> edition;
};

/// The vector files of `path`: a file is itself, checked against the manifest.json beside it
/// when that lists it (digest, count, size and kind, as in its folder); a folder with
/// manifest.json is every file it
/// lists, in its order, each required to exist with the manifest's size (of a file listed in
/// both formats, the binary one); a folder without a manifest is every vector file in it
/// (suite_folder.hpp: recognised by its first bytes, whatever its name), sorted by name, the
/// binary one of a file present in both formats. Throws InputError for a missing path, a
/// malformed manifest, a folder holding vector files its manifest does not name (a suite is
/// never checked in part without saying so), a listed file that is missing or has another
/// size, or zero files.
std::vector<VectorSource> ListVectorFiles(const std::filesystem::path& path, bool twins = false);

/// A selection of the vector files of one or more paths (each a file or a suite folder).
struct VectorSelection {
  VectorSelection() = default;
  /// Every vector file of one path.
  VectorSelection(std::filesystem::path path) : paths{std::move(path)} {}  // NOLINT: implicit
  std::vector<std::filesystem::path> paths;                                ///< --vectors, in order
  std::string op;   ///< only this op ("" any)
  std::string src;  ///< only this source type name ("" any)
  std::string dst;  ///< only this destination type name ("" any)
  /// Also list, right after a binary file, its JSON twin of the same folder (VectorSource::twin),
  /// which is otherwise not read (`coverage` checks it).
  bool twins = false;
  /// Only vectors of this edition (--edition): a file of another is refused, not skipped.
  /// nullopt: any edition (op and type names of any edition are accepted).
  std::optional<oracle::Edition> edition;
  bool filtered() const { return !op.empty() || !src.empty() || !dst.empty(); }
  /// "vectors/default", "a, b", plus " (op tcvt, src fp16)" when filtered.
  std::string Describe() const;
};

/// The vector files of every path (ListVectorFiles), in order, that match the selection (op and
/// types read from the manifest, else from the file's header). Throws InputError as
/// ListVectorFiles does, for an unknown op or type name, a file given twice, or a selection
/// that matches no file (naming the paths), or, with selection.edition, a file of another
/// edition.
std::vector<VectorSource> SelectVectorFiles(const VectorSelection& selection);

/// Opens a source and checks it against what the manifest says (count, op, src, dst, format;
/// size was checked by
/// ListVectorFiles). The manifest's SHA-256 is checked by CheckSourceDigest once read.
std::unique_ptr<VectorReader> OpenVectorSource(const VectorSource& source);

/// For each TestFloat-style file of `sources` that no manifest lists (its count comes from its
/// size, so a file cut at a line boundary cannot be told from a shorter one): a report note
/// saying the count is unverified and how to verify it. Binary and JSON files announce their
/// count in their header (the reader checks it) and get none. Throws InputError as VectorReader.
std::vector<std::string> UnverifiedCountNotes(const std::vector<VectorSource>& sources);

/// Throws InputError when the reader's SHA-256 (done() required) differs from the manifest's.
void CheckSourceDigest(const VectorSource& source, const VectorReader& reader);

}  // namespace ptovec::generator
