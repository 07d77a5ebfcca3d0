// `ptovec run`'s streaming of vector files through a device (RunDevice): each selected vector
// file read in parts, its records of the kept controls evaluated (in parallel rounds for a
// thread-safe device), tallied (CheckAccumulator) and written to a results file.
#include <algorithm>
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

}  // namespace

using check_internal::KeepSectionRecords;

CheckReport RunDevice(Device& device, const generator::VectorSelection& vectors,
                      const RunOptions& options) {
  const std::vector<VectorSource> sources = generator::SelectVectorFiles(vectors);
  std::vector<ResultsSection> sections;
  for (const VectorSource& source : sources) {
    auto vr = generator::OpenVectorSource(source);
    const generator::VectorFileInfo& info = vr->info();
    const std::string sha = source.sha256 ? *source.sha256 : generator::FileSha256(source.path);
    ResultsSection section = SectionFor(source.name, sha, *info.op, info.pair, info.count);
    if (!options.controls.all() && info.op->uses_controls) {
      // The file's controls the filter keeps, in the file's order.
      for (const auto& c : info.controls) {
        if (options.controls.Accepts(c)) section.controls.push_back(c);
      }
      if (section.controls.empty()) {
        throw InputError("--rmode/--sat (" + options.controls.Describe() + ") keep none of the " +
                         "controls of vector file " + source.path.string());
      }
      section.count = info.count / info.controls.size() * section.controls.size();
      if (section.controls == info.controls) section.controls.clear();  // all of them
    }
    sections.push_back(std::move(section));
  }
  std::uint64_t total = 0;
  for (const ResultsSection& section : sections) total += section.count;
  if (total == 0) {
    throw InputError("--vectors " + vectors.Describe() + " holds zero vectors (nothing to run)");
  }
  nlohmann::ordered_json extra = JudgeHeader(options.judge);
  extra["vectors"] = ResultsVectorsHeader(vectors.paths, options.results);
  ResultsWriter writer(options.results, options.format, sections, device.Name(), extra);
  MismatchesFile export_file(options.mismatches);
  CheckAccumulator acc(options.max_report, export_file.Sink(), options.judge);
  std::vector<VectorRecord> records;
  std::vector<std::uint64_t> indices;
  std::vector<Case> cases;
  std::vector<DeviceAnswer> answers;
  const std::size_t part = options.batch == 0 ? 4096 : options.batch;
  // A thread-safe device gets `threads` parts of `part` cases at once, one per thread.
  const unsigned threads = !device.ThreadSafe() ? 1
                           : options.threads != 0
                               ? options.threads
                               : std::max(1U, std::thread::hardware_concurrency());
  std::optional<ParallelRounds> pool;
  if (threads > 1) pool.emplace(threads);
  const std::size_t batch = part * threads;
  std::size_t n = 0;
  std::vector<std::string> failures;  // --keep-going: the device's failures so far
  const std::function<void(unsigned)> evaluate_part = [&](unsigned k) {
    const std::size_t begin = std::min(n, k * part);
    const std::size_t end = std::min(n, begin + part);
    device.Evaluate(std::span<const Case>(cases).subspan(begin, end - begin),
                    std::span<DeviceAnswer>(answers).subspan(begin, end - begin));
  };
  try {
    for (std::size_t s = 0; s < sources.size(); ++s) {
      auto vr = generator::OpenVectorSource(sources[s]);
      acc.BeginFile(sources[s].name, *vr->info().op, vr->info().pair, sections[s].count);
      const bool filtered = !sections[s].controls.empty();
      std::uint64_t index = 0;
      std::uint64_t run = 0;
      while (!vr->done()) {
        const std::size_t read = vr->Read(records, batch);
        if (read == 0) continue;
        KeepSectionRecords(records, index, sections[s].controls, UINT64_MAX, indices);
        index += read;
        n = records.size();
        if (n == 0) continue;
        cases.resize(n);
        for (std::size_t k = 0; k < n; ++k) cases[k] = records[k].c;
        answers.assign(n, DeviceAnswer{});
        try {
          if (pool && n > part) {
            pool->Run(evaluate_part);
          } else {
            device.Evaluate(cases, answers);
          }
        } catch (const DeviceFailure&) {
          if (!options.keep_going) throw;
          // Once more one case at a time: each case that fails alone is counted and recorded
          // as unsupported.
          for (std::size_t k = 0; k < n; ++k) {
            try {
              device.Evaluate(std::span<const Case>(cases).subspan(k, 1),
                              std::span<DeviceAnswer>(answers).subspan(k, 1));
            } catch (const DeviceFailure& f) {
              answers[k] = DeviceAnswer{false, {}};
              failures.push_back(f.what());
              if (options.progress) std::cerr << "ptovec: " << f.what() << " (--keep-going)\n";
            }
          }
        }
        for (std::size_t k = 0; k < n; ++k) {
          if (answers[k].supported && (answers[k].result.status & ~kStatusBits) != 0) {
            throw DeviceError("device " + device.Name() + " answered flags " +
                              generator::HexStatus(answers[k].result.status) + " for " +
                              sources[s].name + " record " + Str(indices[k]) +
                              " (only bits 4:0 NV DZ OF UF NX may be set)");
          }
          acc.Add(indices[k], records[k], answers[k]);
        }
        writer.Append(answers, filtered ? std::span<const std::uint64_t>(indices)
                                        : std::span<const std::uint64_t>());
        run += n;
      }
      generator::CheckSourceDigest(sources[s], *vr);
      if (sections[s].sha256 != vr->sha256()) {
        throw InputError("vector file " + sources[s].path.string() + " has SHA-256 " +
                         vr->sha256() + ", expected " + sections[s].sha256 +
                         " (it changed while being run)");
      }
      if (options.progress) {
        std::cerr << "ptovec: [" << s + 1 << "/" << sources.size() << "] " << sources[s].name
                  << ": " << run << " vectors run\n";
      }
    }
  } catch (const DeviceFailure& e) {
    // The device crashed, exited or hung: a failure of the gate, reported with what was
    // answered; the results file is marked as stopped early.
    writer.Stop(e.what());
    writer.Commit();
    export_file.Commit();
    CheckReport report = acc.Finish();
    report.device = device.Name();
    report.incomplete = "the device failed, the run stopped early";
    report.notes = generator::UnverifiedCountNotes(sources);
    report.device_failures = std::move(failures);
    report.device_failures.push_back(e.what());
    return report;
  } catch (const DeviceError& e) {
    // Keep what was answered, marked as a run that stopped early (it can never pass a check).
    writer.Stop(e.what());
    writer.Commit();
    export_file.Commit();
    throw;
  }
  writer.Commit();
  export_file.Commit();
  CheckReport report = acc.Finish();
  report.device = device.Name();
  report.notes = generator::UnverifiedCountNotes(sources);
  report.device_failures = std::move(failures);
  return report;
}

}  // namespace ptovec::tools
