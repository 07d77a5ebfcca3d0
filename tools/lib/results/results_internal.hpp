// Private to ptovec_tools' results files (results_header.cpp, results_writer.cpp,
// results_reader.cpp): the destination's record bytes and width, JSON text for messages, and the
// reader's state (ResultsReader::Impl), whose header parsing is in results_header.cpp.
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

#include "ptovec/generator/cases.hpp"
#include "ptovec/generator/framing.hpp"
#include "ptovec/generator/ops.hpp"
#include "ptovec/oracle/edition.hpp"
#include "ptovec/oracle/formats.hpp"
#include "ptovec/tools/results.hpp"

namespace ptovec::tools {

namespace results_internal {

// Storage bytes and bit width of the pair's destination words.
inline unsigned DstBytes(TypePair pair) { return oracle::Format(pair.dst).StorageBytes(); }
inline unsigned DstWidth(TypePair pair) { return oracle::Format(pair.dst).width; }

// JSON text of `j` for messages and files; invalid UTF-8 becomes U+FFFD instead of throwing.
inline std::string Dump(const nlohmann::ordered_json& j) {
  return j.dump(-1, ' ', false, nlohmann::ordered_json::error_handler_t::replace);
}
inline std::string Dump(const nlohmann::json& j) {
  return j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

}  // namespace results_internal

struct ResultsReader::Impl {
  std::filesystem::path path;
  std::FILE* file = nullptr;
  std::string format;
  std::string device;
  std::string compare;
  std::vector<std::string> known_differences;
  // The header's "vectors" as written (relative to the results file's folder).
  std::vector<std::filesystem::path> vectors;
  // The header's "compare", "known_differences", "allow_unsupported".
  nlohmann::ordered_json judged = nlohmann::ordered_json::object();
  int version = 0;
  // The header's "edition" (0.58.3 without one): the sections' ops are of it.
  oracle::Edition edition = oracle::kDefaultEdition;
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
    throw generator::InputError("results file " + path.string() + " " + what);
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

  // Reads the JSON header `h` of a file of format `expected_format` (results_header.cpp): sets
  // version, stopped, device, compare, known_differences, judged, sections and available; Fail()s
  // on anything malformed.
  void ParseHeader(const nlohmann::ordered_json& h, const std::string& expected_format);
  // ParseHeader's parts, in the order it runs them. HeaderText / HeaderWhole: o[key] as text /
  // a whole number, Fail()ing with `where` (e.g. "header section 2") and the key otherwise.
  const nlohmann::ordered_json& HeaderField(const nlohmann::ordered_json& o, const char* key,
                                            const std::string& where,
                                            bool (nlohmann::ordered_json::*is)() const noexcept,
                                            const char* wanted) const;
  std::string HeaderText(const nlohmann::ordered_json& o, const char* key,
                         const std::string& where) const;
  std::uint64_t HeaderWhole(const nlohmann::ordered_json& o, const char* key,
                            const std::string& where) const;
  void ParseFormatAndVersion(const nlohmann::ordered_json& h, const std::string& expected_format);
  void CheckHeaderKeys(const nlohmann::ordered_json& h) const;
  void ParseEdition(const nlohmann::ordered_json& h);  // "edition"
  void ParseStopped(const nlohmann::ordered_json& h);
  void ParseJudged(const nlohmann::ordered_json& h);  // "compare", "allow_unsupported", judged
  void ParseVectorPaths(const nlohmann::ordered_json& h);
  void ParseKnownDifferences(const nlohmann::ordered_json& h);
  void CheckSectionKeys(const nlohmann::ordered_json& s, const std::string& where,
                        bool binary) const;
  ResultsSection ParseSection(const nlohmann::ordered_json& s, std::size_t number,
                              bool binary) const;
  void CountAvailable();  // `available` from the sections' counts and `stopped`

  // The reader's parts (results_reader.cpp). OpenBinary / OpenJson: the header of either format
  // (the binary file's length checked against its sections); ReadBinary / ReadJson: the next
  // out.size() records of section s, the current one; JsonAnswer: one JSON line's answer, its
  // record index in record_index; IndexProblem: "" when a record's index is the one expected.
  void OpenBinary();
  void CheckBinaryLength(std::uint64_t total, std::uint64_t data_offset, std::uint64_t size) const;
  // Fail()s naming the first section the file's size cuts short (size < expected).
  void FailFirstTruncatedSection(std::uint64_t data_offset, std::uint64_t size,
                                 std::uint64_t expected) const;
  void OpenJson();
  std::string IndexProblem(bool filtered, std::uint64_t expected, std::uint64_t record_index) const;
  void ReadBinary(std::size_t s, std::span<DeviceAnswer> out, std::span<std::uint64_t> indices);
  void ReadJson(std::size_t s, std::span<DeviceAnswer> out, std::span<std::uint64_t> indices);
  DeviceAnswer JsonAnswer(std::size_t s, std::string_view text, std::uint64_t& record_index);

  void SkipEmpty() {
    while (section < sections.size() && index == available[section]) {
      ++section;
      index = 0;
      last_index = 0;
    }
  }
};

}  // namespace ptovec::tools
