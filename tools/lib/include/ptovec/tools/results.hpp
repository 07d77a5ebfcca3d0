// Results files: what a device answered for every vector of a suite, keyed to the vector files
// (name, SHA-256, op, types, count per section; the record index in every record) so a results
// file of another suite, another file version, another order or a truncated one is refused.
// Two formats, version 2 (version 1 still read), documented in schemas/results-format.md: binary
// (`PTOVEC\0R`) and JSON lines. Schemas: `ptovec schema results`, `ptovec schema
// results-binary-header`.
#pragma once

#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "ptovec/generator/framing.hpp"
#include "ptovec/generator/ops.hpp"
#include "ptovec/oracle/edition.hpp"
#include "ptovec/tools/device.hpp"

namespace ptovec::tools {

using generator::OpDef;
using generator::TypePair;

/// Version of both results formats that this ptovec writes (bump on any layout change). Version
/// 2 added 64-bit record indices (binary), sections of some controls only ("controls") and the
/// mark of a run that stopped early ("stopped"); the reader still reads version 1.
inline constexpr int kResultsFormatVersion = 2;
inline constexpr int kOldestResultsFormatVersion = 1;
/// The 8 magic bytes that open a binary results file.
inline constexpr std::string_view kResultsMagic{PTOVEC_FACTS_RESULTS_MAGIC,
                                                PTOVEC_FACTS_MAGIC_BYTES};
/// Bytes of the binary results file's fixed header (before the JSON header text).
inline constexpr unsigned kResultsFixedHeaderBytes = generator::kFixedHeaderBytes;
/// The header "format" of a binary results file and of a JSON lines one.
inline constexpr std::string_view kResultsBinaryFormatName{"ptovec-results-bin"};
inline constexpr std::string_view kResultsJsonFormatName{"ptovec-results-json"};
/// The flags byte of a case the device reported unsupported (binary); JSON writes "unsupported".
inline constexpr std::uint8_t kUnsupportedFlags = 0x80;

/// One vector file's results: the file it answers and how many records it holds.
struct ResultsSection {
  std::string file;    ///< the vector file's name ("tcvt_fp16_e8m0.bin")
  std::string sha256;  ///< the vector file's SHA-256 (64 lower-case hex digits)
  const OpDef* op = nullptr;
  TypePair pair{};
  std::uint64_t count = 0;  ///< records (the vector file's, or those of `controls`)
  /// Version 2: the controls whose records the section answers, in the vector file's order
  /// (a run filtered by --rmode/--sat); empty: every record of the vector file.
  std::vector<generator::NumericExecutionControl> controls;
  friend bool operator==(const ResultsSection&, const ResultsSection&) = default;
};

/// A run that stopped before answering every record (version 2 "stopped"): the records written
/// are the first `records` of the sections' records, in order.
struct ResultsStop {
  std::string reason;         ///< one line: why it stopped (the device error)
  std::uint64_t records = 0;  ///< records answered before the stop
};

enum class ResultsFormat { Binary, Json };

/// Bytes of one binary results record of `pair` in format `version`: index (version 1: u32, the
/// low 32 bits; version 2: u64) + out (dst storage bytes) + flags (u8).
unsigned ResultsRecordSize(TypePair pair, int version = kResultsFormatVersion);

/// The JSON header both formats carry: {"format","version","tool_version","device","sections":
/// [{"file","sha256","op","src","dst","count"}, ...]}; the binary one adds "record_size" to each
/// section and "data_offset". The keys of `judged` (a run's "compare", "known_differences",
/// "allow_unsupported": how the run judged the answers, and "vectors": the paths it read;
/// results-format.md) are added.
nlohmann::ordered_json ResultsHeader(const std::vector<ResultsSection>& sections,
                                     ResultsFormat format, const std::string& device_name,
                                     const nlohmann::ordered_json& judged = {});

/// The header's "vectors": each of `vectors` relative to the folder of the results file
/// `results` ("." for that folder itself), so that `shrink --from` finds them from anywhere and a
/// folder moved with its results file keeps them (results-format.md).
nlohmann::ordered_json ResultsVectorsHeader(const std::vector<std::filesystem::path>& vectors,
                                            const std::filesystem::path& results);

/// Writes a results file atomically (generator::AtomicFile) and streamed: the header first, then
/// the answers section by section in order. Append() may span section boundaries.
class ResultsWriter {
 public:
  /// Throws std::runtime_error when the file cannot be created.
  ResultsWriter(const std::filesystem::path& path, ResultsFormat format,
                std::vector<ResultsSection> sections, const std::string& device_name,
                nlohmann::ordered_json judged = {});
  ~ResultsWriter();
  ResultsWriter(const ResultsWriter&) = delete;
  ResultsWriter& operator=(const ResultsWriter&) = delete;

  /// Appends the next answers in order. An answer's word is masked to the destination's width.
  /// `indices` gives each answer's record index in its vector file (required for a section with
  /// controls, whose indices skip the other controls' records; empty: consecutive from 0).
  /// Throws std::logic_error when more answers come than the sections hold.
  void Append(std::span<const DeviceAnswer> answers, std::span<const std::uint64_t> indices = {});
  /// Marks the file as a run that stopped early (`reason`, one line, shortened to 300 bytes):
  /// the header is rewritten in place with "stopped", and Commit() then accepts unfinished
  /// sections.
  void Stop(const std::string& reason);
  /// Checks every section is complete unless stopped (std::logic_error otherwise) and renames
  /// into place.
  void Commit();

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

/// Reads a results file (either format, told apart by the magic), checking its structure as it
/// goes. Every problem throws generator::InputError with one line naming the results file, the
/// section and record, and what was expected: a bad magic or header, a truncated file (fewer
/// records than the header says, or a partial record), extra bytes or lines, an out-of-order
/// record (index not the next one), flags with bits 7:5 set (other than 0x80 unsupported).
class ResultsReader {
 public:
  explicit ResultsReader(const std::filesystem::path& path);
  ~ResultsReader();
  ResultsReader(const ResultsReader&) = delete;
  ResultsReader& operator=(const ResultsReader&) = delete;

  const std::vector<ResultsSection>& sections() const;
  /// "bin" or "json".
  const std::string& format() const;
  /// The device name the header records ("" when none).
  const std::string& device() const;
  /// The comparison policy the run that wrote it used ("compare": "word", ...; "" when the
  /// header has none, as before version 2 or from another harness).
  const std::string& compare() const;
  /// The known-difference sets the run used (header "known_differences"; empty when none).
  const std::vector<std::string>& known_differences() const;
  /// The header's "compare", "known_differences" and "allow_unsupported" as written (an object,
  /// empty when the header has none of them), for ResultsWriter's `judged` (merge).
  const nlohmann::ordered_json& judged() const;
  /// The vector paths the run read (header "vectors", written relative to the results file's
  /// folder), resolved against that folder; empty when the header has none (a results file of
  /// another harness, of `merge`, or of a version before it).
  std::vector<std::filesystem::path> vectors() const;
  /// The file's format version (1 or 2).
  int version() const;
  /// The specification edition of the vectors the run answered (header "edition"; 0.58.3
  /// without one). The sections' ops are of it.
  oracle::Edition edition() const;
  /// Set when the run stopped early: then only stopped()->records records follow, the first of
  /// the sections' records in order.
  const std::optional<ResultsStop>& stopped() const;
  /// Records of section `section` present in the file (its count, or fewer after a stop).
  std::uint64_t RecordsIn(std::size_t section) const;
  /// Reads the next out.size() answers of section `section`, which must be the current one
  /// (sections are read in order, each completely). Words are masked to the destination's width.
  /// `indices` (same size, when given) receives each record's index in its vector file: for a
  /// section without controls they are checked to be consecutive from 0, for one with controls
  /// to increase (the caller checks them against the vector file).
  void Read(std::size_t section, std::span<DeviceAnswer> out,
            std::span<std::uint64_t> indices = {});
  /// Checks that nothing follows the last record of the last section.
  void Finish();

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

/// The section that describes a vector file, for a results header.
ResultsSection SectionFor(const std::string& file, const std::string& sha256, const OpDef& op,
                          TypePair pair, std::uint64_t count);

}  // namespace ptovec::tools
