// The conformance gate: compare a device's answers with the expected vectors (from a results
// file, `ptovec check`, or live from a Device, `ptovec run`) and tally mismatches by op, types,
// mode, Sat and kind. The reports (text, JUnit XML, JSON) are in check_report.hpp; the output
// files (--results, --junit, --report-json, --mismatches) in check_outputs.hpp.
#pragma once

#include <array>
#include <chrono>
#include <filesystem>
#include <functional>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <tuple>
#include <vector>

#include "ptovec/facts.h"
#include "ptovec/generator/readers.hpp"
#include "ptovec/generator/word_text.hpp"
#include "ptovec/oracle/edition.hpp"
#include "ptovec/tools/compare.hpp"
#include "ptovec/tools/device.hpp"
#include "ptovec/tools/diagnosis.hpp"
#include "ptovec/tools/known_differences.hpp"
#include "ptovec/tools/results.hpp"

namespace ptovec::tools {

using oracle::Status;
using oracle::TileDataType;

/// How a device answer differs from the expected one (the flags: on the compared bits).
enum class MismatchKind { Word, Flags, Both, Unsupported };

/// Known-difference rule index of a Mismatch no rule waived.
inline constexpr std::size_t kNoRule = static_cast<std::size_t>(-1);

/// "wrong word", "wrong flags", "both", "unsupported".
std::string_view MismatchKindName(MismatchKind kind);

/// Status bits by name (generator/writers.hpp).
using generator::FlagNames;

/// One vector the device got wrong (or did not support).
struct Mismatch {
  std::string file;         ///< the vector file's name
  std::size_t section = 0;  ///< its position in the run (results file section)
  std::uint64_t index = 0;  ///< the record index within the file
  Case c;                   ///< op, pair, mode, Sat, inputs
  Encoded expected{};       ///< the oracle's word (element width) and status
  DeviceAnswer got{};       ///< the device's answer (word masked to the destination width)
  MismatchKind kind = MismatchKind::Word;
  std::size_t vector_class = 0;         ///< generator::ClassOf(...).index()
  Verdict verdict = Verdict::Mismatch;  ///< Mismatch, Waived or Unsupported
  std::size_t rule = kNoRule;           ///< Waived: the rule's index in Judge::known.rules
  Signature signature;                  ///< the triage signature (compare.hpp)
  std::string rule_name;                ///< Waived: the rule's FullName()
};

/// Where CheckAccumulator sends the vectors a --mismatches file records: `call` gets each
/// mismatched and waived vector; the unsupported ones too only when `unsupported`
/// (--mismatches-unsupported), so a device that supports little costs nothing per vector.
struct MismatchSink {
  std::function<void(const Mismatch&)> call;
  bool unsupported = false;
};

/// The --mismatches file of a check or run: its path (empty: none) and whether it records the
/// unsupported vectors too (--mismatches-unsupported).
struct MismatchesOutput {
  std::filesystem::path path;
  bool unsupported = false;
};

/// The mismatches of one (op, pair, signature): one cause, however many vectors it hits.
struct TriageGroup {
  const OpDef* op = nullptr;
  TypePair pair{};  ///< the whole pair (file groups of a split pair are one pair)
  Signature signature;
  std::uint64_t count = 0;
  std::uint16_t controls = 0;  ///< bit rmode * 2 + sat: the controls it was seen under
  Mismatch first;              ///< its first vector in run order
};

/// The failing vectors of one triage group that the same explanations reproduce (diagnosis.hpp):
/// what the causes (causes.hpp) are computed from.
struct DiagnosisCell {
  ExplanationSet explains;  ///< bit k: AllExplanations()[k] reproduces each of them
  std::size_t group = 0;    ///< index in CheckReport::groups
  std::uint64_t count = 0;
  Mismatch first;  ///< the first in run order
};

/// The vectors one known-difference rule waived; for a model's deviation also where it made the
/// model's answer differ from the profile's.
struct RuleTally {
  std::uint64_t waived = 0;
  std::optional<Mismatch> first;          ///< the first in run order
  std::uint64_t differs = 0;              ///< answered vectors where the deviation applies
  std::uint64_t differs_unsupported = 0;  ///< unsupported vectors where it would
  /// Mismatches whose status is the model's but whose word the model leaves open, not waived
  /// because the policy compares words only or a subset of the flags.
  std::uint64_t open_refused = 0;
  void Add(RuleTally&& part) {
    waived += part.waived;
    differs += part.differs;
    differs_unsupported += part.differs_unsupported;
    open_refused += part.open_refused;
    if (!first) first = std::move(part.first);
  }
};

/// Counts of one (file, mode, Sat).
struct ControlTally {
  std::uint64_t total = 0;
  std::uint64_t word = 0;
  std::uint64_t flags = 0;
  std::uint64_t both = 0;
  std::uint64_t unsupported = 0;
  std::uint64_t waived = 0;        ///< mismatches a known-difference rule explains (not failed)
  std::vector<Mismatch> examples;  ///< the first few failed (kJunitExamples), for JUnit
  /// The first kDiagnosisMatchedSamples matched vectors (case and answer): where the diagnosis
  /// counts how often an explanation contradicts an answer the device got right.
  std::vector<std::pair<Case, Encoded>> matched_samples;
  std::uint64_t failed() const { return word + flags + both + unsupported; }
  /// Adds the counts of `later` (a tally of later records of the same control) and its examples
  /// while fewer than kJunitExamples are kept.
  void Add(ControlTally&& later);
};

/// Matched vectors kept per (file, mode, Sat) for the diagnosis (ControlTally::matched_samples).
inline constexpr std::size_t kDiagnosisMatchedSamples = 32;

/// Examples kept per (file, mode, Sat) for the JUnit failure text.
inline constexpr std::size_t kJunitExamples = 5;

/// Counts of one vector file; controls[rmode * 2 + sat] (index 0 only for ops without controls).
struct FileTally {
  std::string file;
  const OpDef* op = nullptr;
  TypePair pair{};
  std::uint64_t count = 0;
  std::array<ControlTally, PTOVEC_FACTS_CONTROLS> controls{};
  double seconds = 0;  ///< wall time spent on this file (JUnit `time`)
  /// Per vector class (generator::VectorClass index): {vectors, mismatched (no rule waives
  /// them), unsupported}.
  std::array<std::array<std::uint64_t, 3>, generator::kVectorClasses> classes{};
};

/// The outcome of a check or run.
/// `run`'s account of the device's speed (printed after its report).
struct DeviceThroughput {
  std::uint64_t cases = 0;  ///< cases given to the device
  /// Wall-clock seconds while at least one of its Evaluate calls was under way (run
  /// --exhaustive: its rounds, which check the answers as they go).
  double seconds = 0;
  /// The most threads that evaluated chunks of one batch at once (1 for a device that is not
  /// thread-safe; below --threads only when no batch had enough cases for them all).
  unsigned threads = 0;
  std::optional<ClockCounts> clocks;  ///< a clocked device's counts (Device::Clocks)
};

/// Where a report's answers come from, besides the device and the judge (CheckReport::device,
/// judge): the vectors as the command line named them (`--report-json` "environment").
struct ReportEnvironment {
  /// The --vectors paths as given (several: ", "-separated; run --op: its work folder); "" when
  /// the run read no vector file (run --exhaustive).
  std::string vectors;
  /// The SHA-256 of the manifest.json of the folder those paths are in (or are), when they are
  /// all of one folder and it has one.
  std::optional<std::string> manifest_sha256;
};

/// The ReportEnvironment of a run or check of `paths` (VectorSelection::paths, as given). Reads
/// the manifest of their folder (call it while the folders are locked).
ReportEnvironment VectorsEnvironment(const std::vector<std::filesystem::path>& paths);

/// One case the device got wrong: the oracle's answer and the device's.
struct Counterexample {
  Case c;              ///< op, pair, mode, Sat, inputs (element-width words)
  Encoded expected{};  ///< the oracle (generator::EvaluateCase): word at the dst width, status
  DeviceAnswer got{};  ///< the device (word masked to the dst width), or unsupported
  /// Non-empty when the device failed on the case itself (crashed, exited or hung:
  /// DeviceFailure's message); `got` is then unsupported.
  std::string failure;
};

/// A failure `shrink --from` shrank (CheckReport::shrunk): with --triage one per cause and per
/// unsupported symptom group, else one per (op, pair).
struct ShrunkCase {
  /// --triage: the cause's index in Causes(report) (unset: an unsupported group, or no --triage).
  std::optional<std::size_t> cause;
  /// What was shrunk: "cause 1 of 3: NV never raised (430080 vectors)", "unsupported group:
  /// <signature>", or without --triage "op src -> dst".
  std::string label;
  Mismatch start;  ///< the failure of the results file the shrink started from
  /// MinimumKind of the result: "exact", "local", "stopped" or "not reproduced".
  std::string minimum;
  /// The simplest failing case found (unset when the failure was not reproduced).
  std::optional<Counterexample> counterexample;
  std::string file;  ///< the counterexample file written ("" when none was)
};

struct CheckReport {
  std::string device;             ///< the device's name, when known
  ReportEnvironment environment;  ///< the vectors and their manifest (set by the command)
  std::uint64_t files = 0;
  std::uint64_t vectors = 0;
  std::uint64_t matched = 0;
  std::uint64_t mismatched = 0;  ///< wrong word, wrong flags or both, and no rule waives it
  std::uint64_t unsupported = 0;
  std::uint64_t waived = 0;                     ///< mismatches a known-difference rule explains
  std::uint64_t word = 0, flags = 0, both = 0;  ///< mismatched by kind
  /// Of `flags` (wrong flags, right word): those whose status is the expected one with its five
  /// bits in reverse order (bit 0 NX .. bit 4 NV, RISC-V fflags): a flag order not converted.
  std::uint64_t flags_reversed = 0;
  /// Of `flags_reversed`: those whose expected status has two or more bits (OF|NX, UF|NX), the
  /// only ones a reversal tells apart from a real fault (NX alone reversed is NV alone).
  std::uint64_t flags_reversed_two_bits = 0;
  std::vector<FileTally> per_file;  ///< in run order
  /// The first max_report failed vectors (mismatched; unsupported too unless allowed).
  std::vector<Mismatch> first;
  /// The policy, known differences and --allow-unsupported the answers were judged by.
  Judge judge;
  /// Per rule of judge.known.rules: what it waived.
  std::vector<RuleTally> rules;
  /// Mismatched and unsupported vectors by (op, pair, signature), in order of first sight.
  std::vector<TriageGroup> groups;
  /// The mismatched vectors (not the unsupported ones) by group and reproducing explanations.
  std::vector<DiagnosisCell> cells;
  /// Set when the results file records a run that stopped early: why, and where ("" otherwise).
  /// An incomplete run never passes.
  std::string incomplete;
  /// Set when only some controls were checked (check --rmode/--sat): which, and how many answers
  /// of other controls the results file holds that were not compared ("" otherwise).
  std::string scope;
  /// `check` of a results file whose run judged by another policy or other known differences
  /// (its header's "compare", "known_differences"): what the run used ("" otherwise). The check
  /// judges by its own options; the report says both.
  std::string run_judged;
  /// What the vectors could not verify of themselves, each a line printed after "note: "
  /// (generator::UnverifiedCountNotes: a TestFloat file passed without its manifest).
  std::vector<std::string> notes;
  /// --allow-unsupported: unsupported vectors do not fail the gate; reports say how many were
  /// skipped (JUnit `skipped`), never silently.
  bool allow_unsupported = false;
  /// `run`: each time the device itself failed (crashed, exited or hung; DeviceFailure), its
  /// message naming the case. Reported as errors (JUnit <error>); never a pass, whatever
  /// --allow-unsupported says.
  std::vector<std::string> device_failures;
  /// `run`: how fast the device answered (unset for `check`).
  std::optional<DeviceThroughput> throughput;
  /// `shrink --from`: each failure shrunk, in the order shrunk (empty for run and check).
  std::vector<ShrunkCase> shrunk;
  bool passed() const {
    return files > 0 && vectors > 0 && mismatched == 0 && (unsupported == 0 || allow_unsupported) &&
           incomplete.empty() && device_failures.empty();
  }
};

/// The specification edition of the answers a report judged: its files' (their ops' edition;
/// every file of a run or check is of one edition), 0.58.3 for a report of no file. The report's
/// environment "spec edition", JSON "spec_edition".
oracle::Edition ReportEdition(const CheckReport& r);

/// Tallies answers against expected vectors, file by file, in run order.
class CheckAccumulator {
 public:
  /// Keeps the first `max_report` mismatches in CheckReport::first; `every.call` (when given)
  /// is called with each mismatched and waived vector (verdict Waived), in order, and with each
  /// unsupported one when `every.unsupported` (--mismatches).
  /// Answers are judged by `judge` (the comparison policy and known differences); the report
  /// carries it.
  explicit CheckAccumulator(std::size_t max_report, MismatchSink every = {}, Judge judge = {});
  /// Starts the next file (section).
  void BeginFile(const std::string& file, const OpDef& op, TypePair pair, std::uint64_t count);
  /// Adds record `index` of the current file. The answer's word must already be within the
  /// destination's width (as every Device and the results readers deliver it): it is compared
  /// as it is.
  void Add(std::uint64_t index, const generator::VectorRecord& expected, const DeviceAnswer& got);
  /// The same for a case and its expected result given apart.
  void Add(std::uint64_t index, const Case& c, const Encoded& expected, const DeviceAnswer& got);
  /// The same for every input of one op and pair under every control (Device::EvaluateProduct's
  /// order): case (i, c) is record positions[i] * controls.size() + c, its expected result
  /// expected[i * controls.size() + c] and its answer got[same]. The input class is computed
  /// once per input and a matched case only counted. Returns how many cases did not match.
  std::uint64_t AddProduct(const OpDef& op, TypePair pair,
                           std::span<const generator::Inputs> inputs,
                           std::span<const std::uint64_t> positions,
                           std::span<const generator::NumericExecutionControl> controls,
                           const Encoded* expected, const DeviceAnswer* got);
  /// Mismatches kept so far (for an early stop).
  std::size_t kept() const { return report_.first.size(); }
  CheckReport Finish();

  /// An accumulator for later records of the current file added apart from this one (another
  /// thread may Add to it meanwhile): it counts every answer and keeps the matched samples; the
  /// answers that did not match wait, in order, for Join.
  CheckAccumulator Part() const;
  /// Adds `part` (made by Part(), holding the records after those added so far, in order): its
  /// counts, then each answer of it that did not match, exactly as Add would have (first
  /// mismatches, triage groups, diagnosis, waiving rules, the `every` sink). The report is the
  /// same however the records were split into parts. Leaves `part` empty for the next records.
  void Join(CheckAccumulator& part);

 private:
  // An answer that did not match, as Add judged it.
  struct Judged {
    std::uint64_t index;
    Case c;
    Encoded expected;
    DeviceAnswer got;
    MismatchKind kind;
    std::size_t vector_class;
    Verdict verdict;
    std::size_t rule;  // Waived: the rule's index in the judge's known.rules
    std::uint8_t input_class;
    Encoded base;  // Judge::DiagnosisBase of the answer
  };
  void EndFile();  // sets the current file's seconds
  // The Mismatch of a judged answer in the current file.
  Mismatch MismatchOf(const Judged& j, std::size_t rule, Signature signature,
                      std::string rule_name) const;
  // A waived answer: its rule's first kept, each passed to every_.
  void AddWaived(const Judged& j);
  // Each model's answer for an answer of `verdict`: where its deviations apply, and mismatches
  // an open word left unwaived.
  // Returns the first model's Judge::DiagnosisBaseOf (each model is evaluated once per answer).
  Encoded TallyModels(const Case& c, const Encoded& expected, Verdict verdict,
                      const DeviceAnswer& got);
  // The counts of an answer that did not match (whatever the order answers come in).
  void CountFailure(const Judged& j, ControlTally& tally);
  // The rest, which depends on the answers before it: AddWaived or AddFailure.
  void Record(const Judged& j, ControlTally& tally);
  // A mismatched or unsupported answer: its triage group, its diagnosis, the first mismatches
  // and the JUnit examples.
  void AddFailure(const Judged& j, ControlTally& tally);
  std::size_t max_report_;
  // Part(): answers that did not match wait in `deferred_` for Join instead of being recorded.
  bool defer_ = false;
  std::vector<Judged> deferred_;
  // The input class of the last case added (a record's controls share their input).
  const generator::OpDef* class_op_ = nullptr;
  generator::TypePair class_pair_{};
  generator::Inputs class_in_{};
  std::uint8_t input_class_ = 0;
  MismatchSink every_;
  CheckReport report_;
  Diagnoser diagnoser_;
  // Per triage group: its cells' explanation sets and indices in report_.cells.
  std::vector<std::vector<std::pair<ExplanationSet, std::size_t>>> cells_of_;
  // The diagnosis of a mismatch of group `group`.
  void Diagnose(const Judged& j, std::size_t group, const Signature& signature);
  std::map<std::tuple<const OpDef*, oracle::TileDataType, oracle::TileDataType, Signature>,
           std::size_t>
      group_of_;  // index in report_.groups
  std::chrono::steady_clock::time_point file_start_{};
};

/// Adds the totals of `part` (vectors, matched, mismatched by kind, unsupported, waived) to
/// `total`'s.
void AddCounts(CheckReport& total, const CheckReport& part);
/// Adds the counts of `part` (later records of the same file) to `total`: by vector class and by
/// control (ControlTally::Add).
void AddFileCounts(FileTally& total, FileTally&& part);

/// Adds `part` (a report of later records of the same run) to `total`: counts summed, tallies of
/// a file already in `total` merged (JUnit examples up to kJunitExamples), others appended,
/// mismatches appended up to `max_report`.
void AppendReport(CheckReport& total, CheckReport&& part, std::size_t max_report);

/// `ptovec check`: compares the results file `results` with the selected vector files of
/// `vectors` (generator::SelectVectorFiles). The results file's sections must match the
/// vector files one for one, in order (file name, SHA-256, op, src, dst, count); then every
/// record is compared. Throws generator::InputError (one line) for any file problem: unreadable,
/// malformed, truncated, extra bytes, out-of-order records, sections of another suite or file.
/// Progress lines (per file) go to stderr when `progress`.
/// With `mismatches` (a path), every mismatched and waived vector (and unsupported one when
/// mismatches.unsupported) is written to it as a line of MismatchJsonLine, in order (the file is
/// written under a temporary name and renamed when the check completes).
/// With a `controls` filter (not all()), only the records of the controls it accepts are
/// compared (ops without controls: all of theirs); the others are still read and their order
/// checked, counted in report.scope. Throws InputError when the filter keeps no record.
CheckReport CheckResults(const generator::VectorSelection& vectors,
                         const std::filesystem::path& results, std::size_t max_report,
                         bool progress = false, const MismatchesOutput& mismatches = {},
                         const generator::ControlFilter& controls = {}, const Judge& judge = {});

/// For `ptovec shrink --from`: the first `limit` failed vectors of a results file against its
/// vectors as `judge` sees them (mismatches no rule waives; unsupported ones unless
/// judge.allow_unsupported), only those of `controls`, each with its generator::Case, the
/// expected Encoded, the device's answer, the vector file name and record index. Stops reading
/// at `limit`. Throws as CheckResults does.
std::vector<Mismatch> ResultsMismatches(const generator::VectorSelection& vectors,
                                        const std::filesystem::path& results, std::size_t limit,
                                        const Judge& judge = {},
                                        const generator::ControlFilter& controls = {});

struct RunOptions {
  std::filesystem::path results;  ///< the results file to write
  ResultsFormat format = ResultsFormat::Binary;
  std::size_t max_report = 20;
  std::size_t batch = 4096;  ///< cases per Device::Evaluate call (at most)
  /// Only the records of these controls (--rmode/--sat); results sections then list them.
  generator::ControlFilter controls;
  /// Threads calling Device::Evaluate at once when the device is ThreadSafe() (0: one per core);
  /// the results file and report are the same whatever the count.
  unsigned threads = 0;
  /// When its path is set, every mismatched and waived vector (and unsupported one when
  /// mismatches.unsupported) as a line of MismatchJsonLine (JSON lines), written under a
  /// temporary name and renamed at the end (also after an early stop).
  MismatchesOutput mismatches;
  bool progress = false;  ///< a line per file on stderr
  /// After the device fails on a case (DeviceFailure: crash, exit, hang), go on: the batch is
  /// evaluated again one case at a time (the device restarted as needed), each failed case is
  /// counted in CheckReport::device_failures and written to the results file as unsupported.
  bool keep_going = false;
  /// How answers are judged: the comparison policy, known differences, --allow-unsupported.
  Judge judge;
};

/// `ptovec run`: streams every selected vector file of `vectors` through `device` in batches,
/// writes the results file (atomically) and returns the report `check` would give for it. With a
/// control filter only the records of the kept controls go to the device, and each section lists
/// its controls. Throws generator::InputError for vector file problems and DeviceError when the
/// device fails or answers flags with bits 7:5 set; then the results file is still written,
/// marked as stopped early (results-format.md), with the answers so far. A DeviceFailure (the
/// device crashed, exited or hung) is not thrown: the results file is marked as stopped the same
/// way and the report returned, incomplete, with the failure in device_failures (unless
/// options.keep_going).
CheckReport RunDevice(Device& device, const generator::VectorSelection& vectors,
                      const RunOptions& options);

/// 0 when the report passed, 1 otherwise (cli::kExitOk / kExitMismatch).
int ExitStatusFor(const CheckReport& report);

}  // namespace ptovec::tools
