// `ptovec run`'s streaming of vector files through a device (RunDevice): each selected vector
// file read in parts, its records of the kept controls evaluated (in parallel rounds for a
// thread-safe device), tallied (CheckAccumulator) and written to a results file.
#include <algorithm>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <exception>
#include <filesystem>
#include <iostream>
#include <nlohmann/json.hpp>
#include <optional>
#include <span>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "gate/check_internal.hpp"
#include "ptovec/generator/cases.hpp"
#include "ptovec/generator/readers.hpp"
#include "ptovec/generator/word_text.hpp"
#include "ptovec/generator/writers.hpp"
#include "ptovec/oracle/edition.hpp"
#include "ptovec/tools/check.hpp"
#include "ptovec/tools/check_outputs.hpp"
#include "ptovec/tools/device.hpp"
#include "ptovec/tools/parallel_rounds.hpp"
#include "ptovec/tools/results.hpp"
#include "report/report_text.hpp"

namespace ptovec::tools {

namespace {

using text::Str;
using text::TypeName;

using generator::InputError;
using generator::VectorRecord;
using generator::VectorSource;

using check_internal::KeepSectionRecords;

// The results header's record of how a run judged its answers (results-format.md).
nlohmann::ordered_json JudgeHeader(const Judge& judge) {
  nlohmann::ordered_json j = nlohmann::ordered_json::object();
  j["compare"] = judge.policy.Name();
  j["known_differences"] = judge.known.sets;
  j["allow_unsupported"] = judge.allow_unsupported;
  return j;
}

// The results section of each vector file: its count, and with a control filter the file's
// controls it keeps (none listed when it keeps them all). Throws InputError when it keeps none of
// a file's controls.
std::vector<ResultsSection> RunSections(const std::vector<VectorSource>& sources,
                                        const generator::ControlFilter& controls) {
  std::vector<ResultsSection> sections;
  for (const VectorSource& source : sources) {
    auto vr = generator::OpenVectorSource(source);
    const generator::VectorFileInfo& info = vr->info();
    const std::string sha = source.sha256 ? *source.sha256 : generator::FileSha256(source.path);
    if (!sections.empty() && sections.front().op->edition != info.edition) {
      // One results file holds one edition's answers (its header's "edition").
      throw InputError("vector files " + sources.front().path.string() + " and " +
                       source.path.string() + " are of editions " +
                       std::string(oracle::EditionName(sections.front().op->edition)) + " and " +
                       std::string(oracle::EditionName(info.edition)) +
                       "; a run reads one edition (run each edition's vectors apart)");
    }
    ResultsSection section = SectionFor(source.name, sha, *info.op, info.pair, info.count);
    if (!controls.all() && info.op->uses_controls) {
      // The file's controls the filter keeps, in the file's order.
      for (const auto& c : info.controls) {
        if (controls.Accepts(c)) section.controls.push_back(c);
      }
      if (section.controls.empty()) {
        throw InputError("--rmode/--sat (" + controls.Describe() + ") keep none of the " +
                         "controls of vector file " + source.path.string());
      }
      section.count = info.count / info.controls.size() * section.controls.size();
      if (section.controls == info.controls) section.controls.clear();  // all of them
    }
    sections.push_back(std::move(section));
  }
  return sections;
}

// Throws InputError when the sections hold zero vectors.
void RequireVectors(const std::vector<ResultsSection>& sections,
                    const generator::VectorSelection& vectors) {
  std::uint64_t total = 0;
  for (const ResultsSection& section : sections) total += section.count;
  if (total == 0) {
    throw InputError("--vectors " + vectors.Describe() + " holds zero vectors (nothing to run)");
  }
}

// Fewest cases a thread's part has when a batch is split (smaller batches use fewer threads).
constexpr std::size_t kMinPart = 256;

// Evaluates the cases of a batch through the device: a thread-safe device gets the batch in
// `threads` equal parts at once, one per thread (parts of at least kMinPart cases); with
// --keep-going a batch the device fails on is evaluated again one case at a time, each case that
// fails alone counted and recorded as unsupported. Keeps the device's throughput.
class BatchEvaluator {
 public:
  BatchEvaluator(Device& device, const RunOptions& options)
      : device_(device),
        options_(options),
        part_(options.batch == 0 ? 4096 : options.batch),
        threads_(!device.ThreadSafe()   ? 1
                 : options.threads != 0 ? options.threads
                                        : std::max(1U, std::thread::hardware_concurrency())) {
    if (threads_ > 1) pool_.emplace(threads_);
  }

  // Records read at once (a part per thread).
  std::size_t batch() const { return part_ * threads_; }

  // Answers `cases` into `answers` (resized to match).
  void Evaluate(const std::vector<Case>& cases, std::vector<DeviceAnswer>& answers) {
    const std::size_t n = cases.size();
    answers.assign(n, DeviceAnswer{});
    const auto start = std::chrono::steady_clock::now();
    try {
      const std::size_t per = std::max((n + threads_ - 1) / threads_, std::min(part_, kMinPart));
      const unsigned parts = static_cast<unsigned>((n + per - 1) / per);
      if (pool_ && parts > 1) {
        pool_->Run([&](unsigned k) {
          const std::size_t begin = std::min(n, k * per);
          const std::size_t end = std::min(n, begin + per);
          if (begin == end) return;
          device_.Evaluate(std::span<const Case>(cases).subspan(begin, end - begin),
                           std::span<DeviceAnswer>(answers).subspan(begin, end - begin));
        });
      } else {
        device_.Evaluate(cases, answers);
      }
      throughput_.threads = std::max({throughput_.threads, parts, 1U});
    } catch (const DeviceFailure&) {
      if (!options_.keep_going) throw;
      EvaluateOneByOne(cases, answers);
    }
    throughput_.cases += n;
    throughput_.seconds +=
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  }

  // The device's speed so far, with its clock counts.
  DeviceThroughput Throughput() const {
    DeviceThroughput t = throughput_;
    t.clocks = device_.Clocks();
    return t;
  }

  std::vector<std::string> failures;  // --keep-going: the device's failures so far

 private:
  void EvaluateOneByOne(const std::vector<Case>& cases, std::vector<DeviceAnswer>& answers) {
    for (std::size_t k = 0; k < cases.size(); ++k) {
      try {
        device_.Evaluate(std::span<const Case>(cases).subspan(k, 1),
                         std::span<DeviceAnswer>(answers).subspan(k, 1));
      } catch (const DeviceFailure& f) {
        answers[k] = DeviceAnswer{false, {}};
        failures.push_back(f.what());
        if (options_.progress) std::cerr << "ptovec: " << f.what() << " (--keep-going)\n";
      }
    }
  }

  Device& device_;
  const RunOptions& options_;
  const std::size_t part_;
  const unsigned threads_;
  std::optional<ParallelRounds> pool_;
  DeviceThroughput throughput_;
};

// One run of vector files through a device into a results file (and --mismatches).
class DeviceRun {
 public:
  DeviceRun(Device& device, const generator::VectorSelection& vectors, const RunOptions& options,
            std::vector<VectorSource> sources, const std::vector<ResultsSection>& sections)
      : device_(device),
        options_(options),
        sources_(std::move(sources)),
        sections_(sections),
        writer_(options.results, options.format, sections, device.Name(),
                RunHeader(vectors, options)),
        export_file_(options.mismatches),
        acc_(options.max_report, export_file_.Sink(), options.judge),
        evaluator_(device, options) {}

  // Streams every file; a DeviceFailure ends the run with the report so far.
  CheckReport Stream() {
    try {
      for (std::size_t s = 0; s < sources_.size(); ++s) StreamFile(s);
    } catch (const DeviceFailure& e) {
      // The device crashed, exited or hung: a failure of the gate, reported with what was
      // answered; the results file is marked as stopped early.
      Stop(e.what());
      CheckReport report = Report();
      report.incomplete = "the device failed, the run stopped early";
      report.device_failures.push_back(e.what());
      return report;
    } catch (const DeviceError& e) {
      // Keep what was answered, marked as a run that stopped early (it can never pass a check).
      Stop(e.what());
      throw;
    }
    writer_.Commit();
    export_file_.Commit();
    return Report();
  }

 private:
  static nlohmann::ordered_json RunHeader(const generator::VectorSelection& vectors,
                                          const RunOptions& options) {
    nlohmann::ordered_json extra = JudgeHeader(options.judge);
    extra["vectors"] = ResultsVectorsHeader(vectors.paths, options.results);
    return extra;
  }

  // Source `s` through the device, part by part, its answers checked, tallied and written.
  void StreamFile(std::size_t s) {
    auto vr = generator::OpenVectorSource(sources_[s]);
    acc_.BeginFile(sources_[s].name, *vr->info().op, vr->info().pair, sections_[s].count);
    std::uint64_t index = 0;
    std::uint64_t run = 0;
    records_.clear();
    indices_.clear();
    // The kept records gather until they fill a batch, so a control selection (a fraction of
    // each part read) still gives every thread its part.
    while (!vr->done()) {
      const std::size_t read = vr->Read(read_, evaluator_.batch());
      if (read == 0) continue;
      KeepSectionRecords(read_, index, sections_[s].controls, UINT64_MAX, read_indices_);
      index += read;
      if (records_.empty()) {
        records_.swap(read_);
        indices_.swap(read_indices_);
      } else {
        records_.insert(records_.end(), read_.begin(), read_.end());
        indices_.insert(indices_.end(), read_indices_.begin(), read_indices_.end());
      }
      if (records_.size() < evaluator_.batch()) continue;
      run += RunRecords(s);
    }
    if (!records_.empty()) run += RunRecords(s);
    generator::CheckSourceDigest(sources_[s], *vr);
    if (sections_[s].sha256 != vr->sha256()) {
      throw InputError("vector file " + sources_[s].path.string() + " has SHA-256 " + vr->sha256() +
                       ", expected " + sections_[s].sha256 + " (it changed while being run)");
    }
    if (options_.progress) {
      std::cerr << "ptovec: [" << s + 1 << "/" << sources_.size() << "] " << sources_[s].name
                << ": " << run << " vectors run\n";
    }
  }

  // The kept records of a part of source `s`: evaluated, checked, tallied and written, then
  // cleared; returns how many there were.
  std::size_t RunRecords(std::size_t s) {
    const std::size_t n = records_.size();
    cases_.resize(n);
    for (std::size_t k = 0; k < n; ++k) cases_[k] = records_[k].c;
    evaluator_.Evaluate(cases_, answers_);
    for (std::size_t k = 0; k < n; ++k) {
      if (answers_[k].supported && (answers_[k].result.status & ~kStatusBits) != 0) {
        throw DeviceError("device " + device_.Name() + " answered flags " +
                          generator::HexStatus(answers_[k].result.status) + " for " +
                          sources_[s].name + " record " + Str(indices_[k]) +
                          " (only bits 4:0 NV DZ OF UF NX may be set)");
      }
      acc_.Add(indices_[k], records_[k], answers_[k]);
    }
    const bool filtered = !sections_[s].controls.empty();
    writer_.Append(answers_, filtered ? std::span<const std::uint64_t>(indices_)
                                      : std::span<const std::uint64_t>());
    records_.clear();
    indices_.clear();
    return n;
  }

  // Marks the results file as stopped early by `why` and commits both outputs.
  void Stop(const std::string& why) {
    writer_.Stop(why);
    writer_.Commit();
    export_file_.Commit();
  }

  CheckReport Report() {
    CheckReport report = acc_.Finish();
    report.device = device_.Name();
    report.notes = generator::UnverifiedCountNotes(sources_);
    report.device_failures = std::move(evaluator_.failures);
    report.throughput = evaluator_.Throughput();
    return report;
  }

  Device& device_;
  const RunOptions& options_;
  const std::vector<VectorSource> sources_;
  const std::vector<ResultsSection>& sections_;
  ResultsWriter writer_;
  MismatchesFile export_file_;
  CheckAccumulator acc_;
  BatchEvaluator evaluator_;
  std::vector<VectorRecord> read_;  // a part as read
  std::vector<std::uint64_t> read_indices_;
  std::vector<VectorRecord> records_;  // kept records waiting for the device
  std::vector<std::uint64_t> indices_;
  std::vector<Case> cases_;
  std::vector<DeviceAnswer> answers_;
};

}  // namespace

CheckReport RunDevice(Device& device, const generator::VectorSelection& vectors,
                      const RunOptions& options) {
  std::vector<VectorSource> sources = generator::SelectVectorFiles(vectors);
  const std::vector<ResultsSection> sections = RunSections(sources, options.controls);
  RequireVectors(sections, vectors);
  DeviceRun run(device, vectors, options, std::move(sources), sections);
  return run.Stream();
}

}  // namespace ptovec::tools
