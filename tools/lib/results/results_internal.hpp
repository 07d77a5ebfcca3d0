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
#include <string>
#include <string_view>
#include <vector>

#include "ptovec/generator/cases.hpp"
#include "ptovec/generator/framing.hpp"
#include "ptovec/generator/ops.hpp"
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

  void SkipEmpty() {
    while (section < sections.size() && index == available[section]) {
      ++section;
      index = 0;
      last_index = 0;
    }
  }
};

}  // namespace ptovec::tools
