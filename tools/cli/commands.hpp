// The subcommands, one file each (cmd_*.cpp): each adds itself to the CLI11 app and returns the
// function main() calls when it was the one parsed.
#pragma once

#include <CLI/CLI.hpp>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "ptovec/generator/suite.hpp"

namespace ptovec::generator {
class FolderLock;
struct VectorSelection;
}  // namespace ptovec::generator

namespace ptovec::tools {
struct CheckReport;
class Device;
struct Judge;
}  // namespace ptovec::tools

namespace ptovec::cli {

/// Exit status: 0 success; 1 a checked thing failed (mismatch, eval --batch with a bad line);
/// 2 usage or input errors (unknown op/type/mode, illegal pair, malformed word, unreadable file).
inline constexpr int kExitOk = 0;
inline constexpr int kExitMismatch = 1;
inline constexpr int kExitUsage = 2;

/// Prints "ptovec: error: <message>" on stderr and returns kExitUsage.
int Fail(const std::string& message);

/// True when progress lines are wanted: stderr is a terminal and CI is unset or empty.
bool ProgressWanted();

/// A whole number without a sign (CLI11 would otherwise wrap "-1" into an unsigned option).
extern const CLI::Validator kWholeNumber;
/// --samples: 1 .. 2^32 (more distinct tuples than that is not a sample any more).
extern const CLI::Validator kSampleCount;

/// The report files of check and run: --junit, --report-json and --report-html paths ("" for
/// none).
struct ReportFiles {
  std::string junit;
  std::string report_json;
  std::string report_html;
};

/// Adds --report-json FILE to check or run, into `path` (cmd_check.cpp).
void AddReportJsonOption(CLI::App& app, std::string& path);
/// Adds --report-html FILE to check or run, into `path` (cmd_check.cpp).
void AddReportHtmlOption(CLI::App& app, std::string& path);

/// Adds --mismatches FILE and --mismatches-unsupported to check or run (cmd_check.cpp).
void AddMismatchesOptions(CLI::App& app, std::string& path, bool& unsupported);

/// Throws generator::InputError when --mismatches-unsupported is given without --mismatches.
void CheckMismatchesOptions(const std::string& path, bool unsupported);

/// Prints a check report on stdout (the first max_report mismatches in full), writes the JUnit
/// XML, the JSON report (tools::ReportJson) and its HTML page (tools/cli/report_html.py) to the
/// files given (each atomically: temporary name, then rename), and returns kExitOk (all match) or
/// kExitMismatch (cmd_check.cpp; shared by check and run).
int FinishReport(const tools::CheckReport& report, const ReportFiles& files,
                 std::size_t max_report);
/// Writes the report files of FinishReport without printing the report (cmd_check.cpp).
void WriteReportFiles(const tools::CheckReport& report, const ReportFiles& files);

/// The device options run and shrink share: --dut LIB.so [--dut-arg TEXT] | --dut-cmd "PROGRAM"
/// [--dut-timeout SECONDS] [--in-process].
struct DeviceArgs {
  std::string dut;
  std::string dut_arg;
  std::string dut_cmd;
  double dut_timeout = 60;  ///< seconds without an answer (0: no limit)
  bool in_process = false;  ///< --dut: call the library in ptovec's process (no device host)
};
/// Adds --dut, --dut-arg, --dut-cmd, --dut-timeout and --in-process to a subcommand
/// (device_options.cpp).
void AddDeviceOptions(CLI::App& app, DeviceArgs& args);
/// Throws generator::InputError unless exactly one of --dut and --dut-cmd is given and --dut-arg
/// comes with --dut only, and --dut-timeout is a finite number of seconds >= 0.
void CheckDeviceArgs(const DeviceArgs& args);
/// Opens the device the options name: a --dut library in a device host process unless
/// --in-process. Throws tools::DeviceError.
std::unique_ptr<tools::Device> OpenDevice(const DeviceArgs& args);

/// How answers are judged, options shared by run, check and shrink: --compare word+flags|word,
/// --flags NV,OF,..., --known-differences MODEL|FILE (repeatable), --allow-unsupported.
struct JudgeArgs {
  std::string compare;
  std::string flags;
  std::vector<std::string> known_differences;
  bool allow_unsupported = false;
  bool no_diagnosis = false;  // --no-diagnosis: the report lists symptom groups only
};
/// Adds the JudgeArgs options to a subcommand (device_options.cpp).
void AddJudgeOptions(CLI::App& app, JudgeArgs& args);
/// The Judge the options describe. Throws generator::InputError (one line) for a bad value.
tools::Judge MakeJudge(const JudgeArgs& args);

/// The vectors of a results file: `given` (--vectors) when not empty, else the paths its header
/// names (ResultsReader::vectors), else the results file's folder; op, src and dst unset
/// (cmd_check.cpp; `check` and `report` read results this way). A results file without a header
/// (TestFloat-style text) gives its folder. Throws generator::InputError (one line) when no
/// --vectors is given and `results` is not a file.
generator::VectorSelection VectorsOfResults(const std::vector<std::string>& given,
                                            const std::string& results);

/// Read locks (generator::FolderLock) on the folder of each --vectors path, so that no generate
/// changes a suite while check or run reads it (cmd_check.cpp). Throws generator::InputError
/// naming the folder and the other ptovec.
std::vector<std::unique_ptr<generator::FolderLock>> LockVectorFolders(
    const generator::VectorSelection& vectors);

/// `run` wrapped so that an exception it throws becomes Fail(its message): one line, exit 2.
std::function<int()> Guarded(std::function<int()> run);

/// Prints "ptovec: note: ..." on stderr once for each distinct OpDef::pair_note of `jobs` (a pair
/// whose files copy bits rather than convert values, such as tcvt fp16 -> e4m3, pointing at the
/// op that converts; `generate` and `run` print what `list` and `eval` say). Defined in
/// cmd_generate.cpp.
void PrintPairNotes(const std::vector<generator::Job>& jobs);

struct Command {
  CLI::App* app = nullptr;
  std::function<int()> run;  ///< called after parsing when app->parsed()
};

Command AddGenerateCommand(CLI::App& app);  // cmd_generate.cpp
Command AddListCommand(CLI::App& app);      // cmd_list.cpp
Command AddEvalCommand(CLI::App& app);      // cmd_eval.cpp
Command AddMergeCommand(CLI::App& app);     // cmd_merge.cpp
Command AddSchemaCommand(CLI::App& app);    // cmd_schema.cpp
Command AddCheckCommand(CLI::App& app);
Command AddRunCommand(CLI::App& app);
Command AddShrinkCommand(CLI::App& app);
Command AddCoverageCommand(CLI::App& app);  // cmd_coverage.cpp
Command AddReportCommand(CLI::App& app);    // cmd_report.cpp
Command AddDiffCommand(CLI::App& app);      // cmd_diff.cpp

}  // namespace ptovec::cli
