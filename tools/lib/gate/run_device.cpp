// `ptovec run`'s streaming of vector files through a device (RunDevice): each selected vector
// file read in batches, its records of the kept controls evaluated and checked in chunks (by
// every thread for a thread-safe device), tallied (CheckAccumulator) and written to a results
// file in record order.
#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <exception>
#include <filesystem>
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "gate/run_chunks.hpp"
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

using run_chunks::Batch;
using run_chunks::Chunk;
using run_chunks::kNone;

// One run of vector files through a device into a results file (and --mismatches). A file's
// kept records go a batch at a time, in rounds: in round r the threads evaluate and check the
// chunks of batch r (each chunk into its own part of the accumulator) while the first thread,
// before it takes chunks too, joins batch r - 1 into the accumulator and writes its answers,
// then reads batch r + 1. The joins go in record order, so the report and the files are those of
// one thread.
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
        evaluator_(device, options) {
    if (evaluator_.threads() > 1) pool_.emplace(evaluator_.threads());
  }

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

  // Source `s` through the device, batch by batch, its answers checked, tallied and written.
  void StreamFile(std::size_t s) {
    file_ = s;
    reader_ = generator::OpenVectorSource(sources_[s]);
    acc_.BeginFile(sources_[s].name, *reader_->info().op, reader_->info().pair, sections_[s].count);
    run_ = 0;
    for (Batch* b : {&batches_[0], &batches_[1]}) b->chunks.clear();  // parts of the last file
    Batch* cur = &batches_[0];
    Batch* prev = nullptr;
    ReadBatch(*cur);
    while (!cur->records.empty()) {
      Batch* next = cur == &batches_[0] ? &batches_[1] : &batches_[0];  // prev's, once joined
      Round(*cur, prev, *next);
      prev = cur;
      cur = next;
    }
    if (prev != nullptr) FinishBatch(*prev);
    generator::CheckSourceDigest(sources_[s], *reader_);
    if (sections_[s].sha256 != reader_->sha256()) {
      throw InputError("vector file " + sources_[s].path.string() + " has SHA-256 " +
                       reader_->sha256() + ", expected " + sections_[s].sha256 +
                       " (it changed while being run)");
    }
    if (options_.progress) {
      std::cerr << "ptovec: [" << s + 1 << "/" << sources_.size() << "] " << sources_[s].name
                << ": " << run_ << " vectors run\n";
    }
  }

  // The next kept records of the current file into `b` (empty at its end): up to a batch. One
  // thread gathers them until they fill one, so that a control selection (a fraction of each part
  // read) still makes calls of RunOptions::batch cases. Several threads take what one part read
  // keeps: the file's first batch, read before any thread has work, stays that small, and the
  // kept records still make chunks for every thread (ChunkCases).
  void ReadBatch(Batch& b) {
    b.records.clear();
    b.indices.clear();
    const std::size_t batch = evaluator_.batch();
    while (!reader_->done() && b.records.size() < batch &&
           (b.records.empty() || evaluator_.threads() == 1)) {
      if (reader_->Read(read_, batch, sections_[file_].controls, read_indices_) == 0) continue;
      if (b.records.empty()) {  // (read_ then takes the batch's old room)
        b.records.swap(read_);
        b.indices.swap(read_indices_);
      } else {
        b.records.insert(b.records.end(), read_.begin(), read_.end());
        b.indices.insert(b.indices.end(), read_indices_.begin(), read_indices_.end());
      }
    }
  }

  // Batch `cur` evaluated and checked by the threads while the first one joins and writes
  // `prev` (when given) and reads `next`. Throws what a run one record at a time would have
  // thrown first: what joining `prev` threw, then a device failure of `cur`, then flags with
  // bits 7:5 (after joining the records of `cur` before it), then what reading threw.
  void Round(Batch& cur, Batch* prev, Batch& next) {
    PrepareChunks(cur);
    std::exception_ptr finish_error;
    std::exception_ptr read_error;
    const auto job = [&](unsigned k) {
      if (k == 0) {
        try {
          if (prev != nullptr) FinishBatch(*prev);
        } catch (...) {
          finish_error = std::current_exception();
        }
        try {
          if (!finish_error) ReadBatch(next);
        } catch (...) {
          read_error = std::current_exception();
        }
      }
      if (k < cur.used) RunChunk(cur, k);
      for (std::size_t c = cur.next++; c < cur.used; c = cur.next++) RunChunk(cur, c);
    };
    if (pool_) {
      pool_->Run(job);
    } else {
      job(0);
    }
    if (finish_error) std::rethrow_exception(finish_error);
    for (std::size_t c = 0; c < cur.used; ++c) {
      if (cur.chunks[c].error) std::rethrow_exception(cur.chunks[c].error);
    }
    for (std::size_t c = 0; c < cur.used; ++c) {
      if (cur.chunks[c].bad_flags != kNone) FinishBatch(cur);  // throws at the bad answer
    }
    if (read_error) std::rethrow_exception(read_error);
  }

  // Splits `b` into chunks (each with its part of the accumulator) before a round.
  void PrepareChunks(Batch& b) {
    const std::size_t n = b.records.size();
    b.per = evaluator_.ChunkCases(n);
    b.used = (n + b.per - 1) / b.per;
    while (b.chunks.size() < b.used) b.chunks.emplace_back(acc_.Part());
    for (std::size_t c = 0; c < b.used; ++c) {
      b.chunks[c].bad_flags = kNone;
      b.chunks[c].error = nullptr;
    }
    b.cases.resize(n);
    b.answers.resize(n);
    // Thread k takes chunk k first (so every thread with a chunk calls the device), then any.
    b.next = std::min<std::size_t>(b.used, evaluator_.threads());
    evaluator_.NoteChunks(b.used);
  }

  // Chunk `c` of `b` (on any thread): evaluated and its answers checked into its part, up to an
  // answer with flags of bits 7:5; what it throws is kept for Round.
  void RunChunk(Batch& b, std::size_t c) {
    Chunk& chunk = b.chunks[c];
    const std::size_t begin = c * b.per;
    const std::size_t end = std::min(b.records.size(), begin + b.per);
    try {
      for (std::size_t k = begin; k < end; ++k) b.cases[k] = b.records[k].c;
      evaluator_.Evaluate(std::span<const Case>(b.cases).subspan(begin, end - begin),
                          std::span<DeviceAnswer>(b.answers).subspan(begin, end - begin),
                          chunk.failures);
      for (std::size_t k = begin; k < end; ++k) {
        if (b.answers[k].supported && (b.answers[k].result.status & ~kStatusBits) != 0) {
          chunk.bad_flags = k;
          return;
        }
        chunk.part.Add(b.indices[k], b.records[k], b.answers[k]);
      }
    } catch (...) {
      chunk.error = std::current_exception();
    }
  }

  // Joins the chunks of `b` into the accumulator in order and writes their answers. At a chunk's
  // answer with flags of bits 7:5 it writes the answers before it (as the chunks before it and
  // its records before it were joined) and throws DeviceError: the results file and the
  // --mismatches file then stop at that record, whatever the thread count.
  void FinishBatch(Batch& b) {
    for (std::size_t c = 0; c < b.used; ++c) {
      Chunk& chunk = b.chunks[c];
      acc_.Join(chunk.part);
      for (std::string& f : chunk.failures) {
        if (options_.progress) std::cerr << "ptovec: " << f << " (--keep-going)\n";
        failures_.push_back(std::move(f));
      }
      chunk.failures.clear();
      if (chunk.bad_flags != kNone) {
        const std::size_t k = chunk.bad_flags;
        WriteAnswers(b, k);
        throw DeviceError("device " + device_.Name() + " answered flags " +
                          generator::HexStatus(b.answers[k].result.status) + " for " +
                          sources_[file_].name + " record " + Str(b.indices[k]) +
                          " (only bits 4:0 NV DZ OF UF NX may be set)");
      }
    }
    WriteAnswers(b, b.records.size());
    run_ += b.records.size();
    b.records.clear();
    b.indices.clear();
    b.used = 0;
  }

  // The first `n` answers of `b` into the results file.
  void WriteAnswers(const Batch& b, std::size_t n) {
    const bool filtered = !sections_[file_].controls.empty();
    writer_.Append(std::span<const DeviceAnswer>(b.answers).first(n),
                   filtered ? std::span<const std::uint64_t>(b.indices).first(n)
                            : std::span<const std::uint64_t>());
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
    report.device_failures = std::move(failures_);
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
  run_chunks::ChunkEvaluator evaluator_;
  std::optional<ParallelRounds> pool_;
  std::vector<std::string> failures_;  // --keep-going: the device's failures so far
  // The file being run: its index in sources_, its reader, its records run so far.
  std::size_t file_ = 0;
  std::unique_ptr<generator::VectorReader> reader_;
  std::uint64_t run_ = 0;
  std::vector<VectorRecord> read_;  // the kept records of a part read, and their indices
  std::vector<std::uint64_t> read_indices_;
  std::array<Batch, 2> batches_;
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
