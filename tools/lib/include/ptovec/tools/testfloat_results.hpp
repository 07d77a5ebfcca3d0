// Device results in TestFloat-style text (generator/testfloat.hpp): what a harness written for
// Berkeley TestFloat writes back for testfloat_ver (TestFloat 3e, doc/testfloat_ver.html "Input
// Format"), one line per vector: the input words, the device's result word and its flags in
// TestFloat's bit order, in hex, separated by single spaces. `ptovec check --results FILE` reads
// such a file when it starts with neither a binary nor a JSON results header.
#pragma once

#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <memory>

#include "ptovec/generator/framing.hpp"
#include "ptovec/generator/testfloat.hpp"

namespace ptovec::tools {

/// The longest line accepted, its '\n' included (a real one is at most 5 x 16 + 21 bytes).
inline constexpr std::size_t kMaxTestFloatLineBytes = 4096;

/// True when `path` is a regular file that starts with a hex digit (and not like a binary
/// results file, `PTOVEC\0R`): check then reads it as TestFloat-style text. Never throws.
bool IsTestFloatResultsFile(const std::filesystem::path& path);

/// Streams the lines of a TestFloat-style results file. Every problem throws generator::InputError
/// with one line naming the file, the line number, the bad token (escaped) and what is accepted.
class TestFloatResultsReader {
 public:
  /// Opens `path` (a regular file; pipes, devices and folders are refused).
  explicit TestFloatResultsReader(const std::filesystem::path& path);
  ~TestFloatResultsReader();
  TestFloatResultsReader(const TestFloatResultsReader&) = delete;
  TestFloatResultsReader& operator=(const TestFloatResultsReader&) = delete;

  /// Parses the next line as a line of (op, pair) (generator::ParseTestFloatLine) into `out`;
  /// false at the end of the file.
  bool Next(const generator::OpDef& op, generator::TypePair pair, generator::TestFloatLine& out);
  /// The 1-based number of the line Next last returned (0 before the first).
  std::uint64_t line_number() const;
  /// Throws when anything but the end of the file follows the last line read.
  void Finish();

 private:
  [[noreturn]] void Fail(const std::string& what) const;
  std::filesystem::path path_;
  std::FILE* file_ = nullptr;
  std::unique_ptr<generator::LineReader> lines_;
};

}  // namespace ptovec::tools
