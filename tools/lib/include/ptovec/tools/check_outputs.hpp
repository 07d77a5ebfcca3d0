// The output files of check and run: the --mismatches file (one JSON line per failed or waived
// vector, and per unsupported one with --mismatches-unsupported),
// and the rules every output path follows (--results, --junit, --report-json, --mismatches):
// never one of the command's inputs or another output, its folder checked before any work. An
// existing file is never removed early: the new one replaces it when the command completes, and a
// command that fails (exit 2) leaves it as it was (generator/interrupts.hpp, UndoFileChanges).
#pragma once

#include <filesystem>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "ptovec/generator/atomic_file.hpp"
#include "ptovec/generator/writers.hpp"
#include "ptovec/tools/check.hpp"

namespace ptovec::tools {

/// The device's answer as a --mismatches line and the JSON report (ReportJson) give it:
/// {"out": HexWord at `dst`'s width, "flags": HexStatus}, or the string "unsupported".
nlohmann::ordered_json AnswerJson(const DeviceAnswer& got, oracle::TileDataType dst);

/// A verdict as the JSON outputs name it: "match", "mismatch", "waived" or "unsupported".
std::string_view VerdictName(Verdict verdict);

/// One mismatch as a line of a --mismatches file: {"file","record","op","src","dst","rmode",
/// "sat","in":[words],"class","expected":{"out","flags"},"got":{"out","flags"} or
/// "unsupported","kind"} (JSON, one object, no newline).
std::string MismatchJsonLine(const Mismatch& m);

/// The --mismatches file: MismatchJsonLine lines, written under a temporary name
/// (generator::AtomicFile) and renamed into place by Commit(). Without a path it does nothing.
class MismatchesFile {
 public:
  /// `output.path` empty: no file. Throws std::runtime_error when the temporary cannot be opened.
  explicit MismatchesFile(const MismatchesOutput& output);
  /// A CheckAccumulator sink appending each vector it gets as one line (unsupported ones only
  /// when output.unsupported); empty without a file.
  MismatchSink Sink();
  /// Writes what is buffered and renames the file into place (after a complete run or an early
  /// stop alike). Throws std::runtime_error on a write error.
  void Commit();

 private:
  void Flush();
  std::optional<generator::AtomicFile> file_;
  bool unsupported_ = false;
  std::string buffer_;
};

/// An output file of check or run: the option that names it ("--results", "--junit") and its path.
using OutputFile = std::pair<std::string, std::filesystem::path>;

/// The files a check or run reads from `vectors`: every selected vector file
/// (generator::SelectVectorFiles) and, for each folder, its manifest.json. Throws as
/// SelectVectorFiles does.
std::vector<std::filesystem::path> VectorInputFiles(const generator::VectorSelection& vectors);

/// Throws generator::InputError when an output is one of `inputs` or an earlier output (the same
/// file by std::filesystem::equivalent, or the same absolute normalized path), so no command
/// overwrites what it reads.
void RefuseOverwritingInputs(const std::vector<OutputFile>& outputs,
                             const std::vector<std::filesystem::path>& inputs);

/// Throws generator::InputError unless the output's folder exists and is writable and the path
/// is not a folder (checked before any work, so a report is never printed for an unwritable file).
void CheckOutputFolder(const OutputFile& output);

}  // namespace ptovec::tools
