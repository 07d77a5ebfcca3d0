// Results files: what a device answered for every vector of a suite, keyed to the vector files
// (name, SHA-256, op, types, count per section; the record index in every record) so a results
// file of another suite, another file version, another order or a truncated one is refused.
// Two formats, version 1, documented in schemas/results-format.md: binary (`PTOVEC\0R`) and JSON
// lines. Schemas: `ptovec schema results`, `ptovec schema results-binary-header`.
#pragma once

#include <nlohmann/json.hpp>

#include <cstdio>
#include <filesystem>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "ptovec/generator/ops.hpp"
#include "ptovec/tools/device.hpp"

namespace ptovec::tools {

using generator::OpDef;
using generator::TypePair;

/// Version of both results formats (bump on any layout change).
inline constexpr int kResultsFormatVersion = 1;
/// The 8 magic bytes that open a binary results file.
inline constexpr std::string_view kResultsMagic{"PTOVEC\0R", 8};
/// Bytes of the binary results file's fixed header (before the JSON header text).
inline constexpr unsigned kResultsFixedHeaderBytes = 32;
/// The flags byte of a case the device reported unsupported (binary); JSON writes "unsupported".
inline constexpr std::uint8_t kUnsupportedFlags = 0x80;

/// One vector file's results: the file it answers and how many records it holds.
struct ResultsSection {
  std::string file;    ///< the vector file's name ("tcvt_fp16_e8m0.bin")
  std::string sha256;  ///< the vector file's SHA-256 (64 lower-case hex digits)
  const OpDef* op = nullptr;
  TypePair pair{};
  std::uint64_t count = 0;  ///< records (= the vector file's count)
  friend bool operator==(const ResultsSection&, const ResultsSection&) = default;
};

enum class ResultsFormat { Binary, Json };

/// Bytes of one binary results record of `pair`: index (u32) + out (dst storage bytes) + flags (u8).
unsigned ResultsRecordSize(TypePair pair);

/// The JSON header both formats carry: {"format","version","tool_version","device","sections":
/// [{"file","sha256","op","src","dst","count"}, ...]}; the binary one adds "record_size" to each
/// section and "data_offset".
nlohmann::ordered_json ResultsHeader(const std::vector<ResultsSection>& sections,
                                     ResultsFormat format, const std::string& device_name);

/// Writes a results file atomically (generator::AtomicFile) and streamed: the header first, then
/// the answers section by section in order. Append() may span section boundaries.
class ResultsWriter {
 public:
  /// Throws std::runtime_error when the file cannot be created.
  ResultsWriter(const std::filesystem::path& path, ResultsFormat format,
                std::vector<ResultsSection> sections, const std::string& device_name);
  ~ResultsWriter();
  ResultsWriter(const ResultsWriter&) = delete;
  ResultsWriter& operator=(const ResultsWriter&) = delete;

  /// Appends the next answers in order. An answer's word is masked to the destination's width.
  /// Throws std::logic_error when more answers come than the sections hold.
  void Append(std::span<const DeviceAnswer> answers);
  /// Checks every section is complete (std::logic_error otherwise) and renames into place.
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
  /// Reads the next out.size() answers of section `section`, which must be the current one
  /// (sections are read in order, each completely). Words are masked to the destination's width.
  void Read(std::size_t section, std::span<DeviceAnswer> out);
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
