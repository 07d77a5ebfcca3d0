#include "ptovec/tools/testfloat_results.hpp"

#include <cctype>
#include <cerrno>
#include <cstring>

#include "ptovec/generator/cases.hpp"
#include "ptovec/tools/results.hpp"

namespace ptovec::tools {

using generator::InputError;

bool IsTestFloatResultsFile(const std::filesystem::path& path) {
  std::error_code error;
  if (!std::filesystem::is_regular_file(path, error)) return false;
  std::FILE* f = std::fopen(path.c_str(), "rb");
  if (f == nullptr) return false;
  const std::string start = generator::PeekStart(f, kResultsMagic.size());
  std::fclose(f);
  return start != kResultsMagic && !start.empty() &&
         std::isxdigit(static_cast<unsigned char>(start[0]));
}

TestFloatResultsReader::TestFloatResultsReader(const std::filesystem::path& path) : path_(path) {
  std::error_code error;
  if (std::filesystem::exists(path, error) && !std::filesystem::is_regular_file(path, error)) {
    throw InputError("results file " + path.string() + " must be a regular file (not a folder, " +
                     "pipe or device)");
  }
  file_ = std::fopen(path.c_str(), "rb");
  if (file_ == nullptr) {
    throw InputError("cannot read results file " + path.string() + ": " + std::strerror(errno));
  }
  generator::LineReader::Options options;
  options.max_line_bytes = kMaxTestFloatLineBytes;
  lines_ = std::make_unique<generator::LineReader>(file_, options);
}

TestFloatResultsReader::~TestFloatResultsReader() {
  if (file_ != nullptr) std::fclose(file_);
}

void TestFloatResultsReader::Fail(const std::string& what) const {
  throw InputError("results file " + path_.string() + " (TestFloat-style text) line " +
                   std::to_string(line_number()) + " " + what);
}

std::uint64_t TestFloatResultsReader::line_number() const { return lines_->line_number(); }

bool TestFloatResultsReader::Next(const generator::OpDef& op, generator::TypePair pair,
                                  generator::TestFloatLine& out) {
  std::string_view line;
  generator::LineReader::Ending ending{};
  if (!lines_->Next(line, &ending)) return false;
  if (ending == generator::LineReader::Ending::TooLong) {
    Fail("is longer than " + std::to_string(kMaxTestFloatLineBytes - 1) +
         " bytes (accepted: the input words, the result and the flags in hex, one line a vector)");
  }
  try {
    out = generator::ParseTestFloatLine(line, op, pair);
  } catch (const InputError& e) {
    Fail(std::string("(") + op.name + " " + std::string(oracle::Format(pair.src).name) + " -> " +
         std::string(oracle::Format(pair.dst).name) + ") " + e.what());
  }
  return true;
}

void TestFloatResultsReader::Finish() {
  std::string_view line;
  if (lines_->Next(line)) {
    Fail(
        "follows the last vector of the selection (accepted: one line per selected vector, "
        "nothing after; '" +
        std::string(line.substr(0, 80)) + "')");
  }
}

}  // namespace ptovec::tools
