#include "ptovec/generator/suite.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <exception>
#include <future>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <thread>
#include <tuple>

#include "ptovec/generator/atomic_file.hpp"
#include "ptovec/generator/cases.hpp"
#include "ptovec/generator/domains.hpp"
#include "ptovec/generator/interrupts.hpp"
#include "ptovec/generator/shard.hpp"
#include "ptovec/generator/suite_folder.hpp"
#include "ptovec/generator/testfloat.hpp"
#include "ptovec/generator/word_text.hpp"
#include "ptovec/generator/writers.hpp"
#include "suite_manifest.hpp"

namespace ptovec::generator {

namespace {

// Records per chunk of work (a chunk holds whole inputs, every control of each).
constexpr std::uint64_t kChunkRecords = 32768;

struct ChunkOutput {
  std::string binary;
  std::string json;
  std::vector<std::string> testfloat;  // one text per control
};

// Evaluates chunks of a job's inputs on `threads` workers and hands them to `consume` in chunk
// order. At most `window` chunks are held at once, so memory stays bounded whatever the count.
void ForEachChunkInOrder(std::uint64_t chunks, unsigned threads,
                         const std::function<void(std::uint64_t, ChunkOutput&)>& produce,
                         const std::function<void(std::uint64_t, ChunkOutput&)>& consume) {
  if (threads <= 1) {  // no hand-off between threads: produce and consume in turn, one buffer
    ChunkOutput out;
    for (std::uint64_t chunk = 0; chunk < chunks; ++chunk) {
      out.binary.clear();
      out.json.clear();
      for (std::string& text : out.testfloat) text.clear();
      produce(chunk, out);
      consume(chunk, out);
    }
    return;
  }
  const std::uint64_t window = 4 * static_cast<std::uint64_t>(threads);
  std::mutex mutex;
  std::condition_variable ready;  // a chunk finished, or the consumer advanced
  std::map<std::uint64_t, ChunkOutput> done;
  std::uint64_t next_to_claim = 0;
  std::uint64_t next_to_consume = 0;
  std::exception_ptr failure;
  bool stop = false;

  const auto worker = [&] {
    for (;;) {
      std::uint64_t chunk = 0;
      {
        std::unique_lock lock(mutex);
        ready.wait(lock, [&] {
          return stop || next_to_claim >= chunks || next_to_claim < next_to_consume + window;
        });
        if (stop || next_to_claim >= chunks) return;
        chunk = next_to_claim++;
      }
      try {
        ChunkOutput out;
        produce(chunk, out);
        std::lock_guard lock(mutex);
        done.emplace(chunk, std::move(out));
      } catch (...) {
        std::lock_guard lock(mutex);
        if (!failure) failure = std::current_exception();
        stop = true;
      }
      ready.notify_all();
    }
  };

  std::vector<std::thread> pool;
  for (unsigned i = 0; i < threads; ++i) pool.emplace_back(worker);
  try {
    for (std::uint64_t chunk = 0; chunk < chunks; ++chunk) {
      ChunkOutput out;
      {
        std::unique_lock lock(mutex);
        ready.wait(lock, [&] { return stop || done.count(chunk) != 0; });
        if (stop) break;
        out = std::move(done.at(chunk));
        done.erase(chunk);
        next_to_consume = chunk + 1;
      }
      ready.notify_all();
      consume(chunk, out);
    }
  } catch (...) {
    std::lock_guard lock(mutex);
    if (!failure) failure = std::current_exception();
    stop = true;
  }
  {
    std::lock_guard lock(mutex);
    stop = true;
  }
  ready.notify_all();
  for (std::thread& t : pool) t.join();
  if (failure) std::rethrow_exception(failure);
}

class Progress {
 public:
  Progress(bool enabled, std::string label, std::uint64_t total)
      : enabled_(enabled), label_(std::move(label)), total_(total) {}
  void Update(std::uint64_t done) {
    if (!enabled_) return;
    const auto now = std::chrono::steady_clock::now();
    if (done < total_ && now - last_ < std::chrono::milliseconds(250)) return;
    last_ = now;
    std::fprintf(stderr, "\r%s: %llu/%llu vectors (%llu%%)", label_.c_str(),
                 static_cast<unsigned long long>(done), static_cast<unsigned long long>(total_),
                 static_cast<unsigned long long>(total_ == 0 ? 100 : done * 100 / total_));
    if (done >= total_) std::fputc('\n', stderr);
    std::fflush(stderr);
  }

 private:
  bool enabled_;
  std::string label_;
  std::uint64_t total_;
  std::chrono::steady_clock::time_point last_{};
};

}  // namespace

std::vector<Job> DefaultSuite() { return DefaultSuite(oracle::kDefaultEdition); }

std::vector<Job> DefaultSuite(oracle::Edition edition) {
  std::vector<Job> jobs;
  for (const OpDef& op : AllOps(edition)) {
    for (TypePair pair : op.default_suite_pairs) jobs.push_back({&op, pair});
  }
  return jobs;
}

std::string JobBaseName(const Job& job) {
  const std::string group = FileGroupName(*job.op, job.pair);
  return job.op->name + "_" + std::string(oracle::Format(job.pair.src).name) + "_" +
         std::string(oracle::Format(job.pair.dst).name) + (group.empty() ? "" : "_" + group);
}

std::uint64_t VectorCount(const Job& job, const SamplingOptions& sampling) {
  return job.op->domain_count(job.pair, sampling) * ControlsFor(*job.op, job.pair).size();
}

namespace {

// The inputs of job j: the options' selected inputs, or the job's domain.
InputSet JobInputs(const std::vector<Job>& jobs, const GenerateOptions& options, std::size_t j) {
  if (j < options.selected.size() && options.selected[j]) {
    const auto selected = options.selected[j];
    InputSet set;
    set.count = selected->size();
    set.kind = "selected";
    set.at = [selected](std::uint64_t i) { return (*selected)[i]; };
    return set;
  }
  return jobs[j].op->domain(jobs[j].pair, options.sampling);
}

// The header fields of the job's files; refuses a job that --rmode/--sat leave no control.
FileSpec JobFileSpec(const Job& job, const InputSet& inputs, const GenerateOptions& options) {
  const OpDef& op = *job.op;
  const TypePair pair = job.pair;
  FileSpec spec;
  spec.op = &op;
  spec.pair = pair;
  spec.domain = inputs.kind;
  spec.seed = DerivedSeed(options.sampling.seed, op, pair);
  spec.controls = options.controls.ControlsOf(op, pair);
  if (spec.controls.empty()) {
    throw InputError(JobBaseName(job) + " holds no control that --rmode/--sat keep: " + op.name +
                     " " + std::string(oracle::Format(pair.src).name) + " -> " +
                     std::string(oracle::Format(pair.dst).name) + " accepts " +
                     ControlsJson(ControlsFor(op, pair)).dump());
  }
  spec.inputs = inputs.count;
  spec.strategies = inputs.strategies;
  if (options.shard) {
    spec.shard = ShardRange::Of(options.shard->index, options.shard->of, inputs.count);
  }
  return spec;
}

// The files of one job being written: binary, JSON, a TestFloat file per control (in
// spec.controls order), those the options ask for.
struct JobFiles {
  std::unique_ptr<AtomicFile> binary;
  std::unique_ptr<AtomicFile> json;
  std::vector<std::unique_ptr<AtomicFile>> testfloat;
};

JobFiles OpenJobFiles(const FileSpec& spec, const std::string& base,
                      const GenerateOptions& options) {
  JobFiles files;
  if (options.binary) {
    files.binary = std::make_unique<AtomicFile>(options.out_dir / (base + ".bin"));
    files.binary->Write(BinaryPreamble(spec));
  }
  if (options.json) {
    files.json = std::make_unique<AtomicFile>(options.out_dir / (base + ".json"));
    files.json->Write(JsonPreamble(spec));
  }
  if (options.testfloat) {
    for (const NumericExecutionControl& c : spec.controls) {
      files.testfloat.push_back(std::make_unique<AtomicFile>(
          options.out_dir / TestFloatFileName(*spec.op, spec.pair, c)));
    }
  }
  return files;
}

// Evaluates inputs[begin, begin + n) of the job's file (its first input at `first_input`)
// under every control and packs the records of the files being written into `out`.
void ProduceChunk(const FileSpec& spec, const InputSet& inputs, const RecordPacker& packer,
                  const JobFiles& files, std::uint64_t first_input, std::uint64_t begin,
                  std::size_t n, ChunkOutput& out) {
  const OpDef& op = *spec.op;
  const TypePair pair = spec.pair;
  const std::size_t nc = spec.controls.size();
  // Per-thread scratch kept from chunk to chunk (no allocation per chunk).
  thread_local std::vector<Inputs> in;
  thread_local std::vector<Encoded> results;
  in.resize(n);
  inputs.Fill(first_input + begin, n, in.data());
  results.resize(n * nc);
  EvaluateBatch(op, pair, in.data(), n, spec.controls, results.data());
  if (files.binary) {
    out.binary.reserve(n * nc * packer.record_size());
    packer.Pack(in.data(), n, spec.controls, results.data(), out.binary);
  }
  if (files.json) {
    for (std::size_t i = 0; i < n; ++i) {
      for (std::size_t c = 0; c < nc; ++c) {
        AppendJsonRecord(out.json, op, pair, in[i], spec.controls[c], results[i * nc + c],
                         begin + i == 0 && c == 0);
      }
    }
  }
  if (!files.testfloat.empty()) {
    out.testfloat.resize(nc);
    for (std::size_t c = 0; c < nc; ++c) {
      out.testfloat[c].reserve(n * TestFloatLineBytes(op, pair));
      for (std::size_t i = 0; i < n; ++i) {
        AppendTestFloatLine(out.testfloat[c], op, pair, in[i], results[i * nc + c]);
      }
    }
  }
}

// Writes every record of the job's files (its inputs, or the shard's of them) in chunks on
// `threads` workers, showing progress under `base`.
void WriteRecords(const FileSpec& spec, const InputSet& inputs, const JobFiles& files,
                  const std::string& base, unsigned threads, bool show_progress) {
  const std::uint64_t first_input = spec.shard ? spec.shard->first_input : 0;
  const std::uint64_t input_count = spec.shard ? spec.shard->inputs : inputs.count;
  const RecordPacker packer(*spec.op, spec.pair);
  const std::size_t nc = spec.controls.size();
  const std::uint64_t chunk_inputs =
      std::max<std::uint64_t>(1, kChunkRecords / std::max<std::size_t>(nc, 1));
  const std::uint64_t chunks = (input_count + chunk_inputs - 1) / chunk_inputs;
  Progress progress(show_progress, base, spec.count());
  ForEachChunkInOrder(
      chunks, threads,
      [&](std::uint64_t chunk, ChunkOutput& out) {
        const std::uint64_t begin = chunk * chunk_inputs;
        const auto n =
            static_cast<std::size_t>(std::min(input_count, begin + chunk_inputs) - begin);
        ProduceChunk(spec, inputs, packer, files, first_input, begin, n, out);
      },
      [&](std::uint64_t chunk, ChunkOutput& out) {
        if (files.binary) files.binary->Write(out.binary);
        if (files.json) files.json->Write(out.json);
        for (std::size_t c = 0; c < files.testfloat.size(); ++c) {
          files.testfloat[c]->Write(out.testfloat[c]);
        }
        const std::uint64_t end = std::min(input_count, (chunk + 1) * chunk_inputs);
        progress.Update(end * nc);
      });
  if (chunks == 0) progress.Update(0);
}

// Finishes the job's files and records them in `written` (their manifest entries) and
// `pending` (renamed into place at the end). `selection` is the job's selection note, if any.
void FinishJobFiles(JobFiles& files, const FileSpec& spec, const std::string& base,
                    const nlohmann::ordered_json* selection, bool binary_written,
                    std::vector<GeneratedFile>& written,
                    std::vector<std::unique_ptr<AtomicFile>>& pending) {
  const std::size_t nc = spec.controls.size();
  const auto record = [&](std::unique_ptr<AtomicFile>& file, const std::string& format,
                          const std::string& name,
                          std::optional<NumericExecutionControl> control = std::nullopt) {
    GeneratedFile g;
    g.path = name;
    g.format = format;
    g.op = spec.op;
    g.pair = spec.pair;
    g.control = control;
    g.domain = spec.domain;
    g.seed = spec.seed;
    g.count = control ? spec.count() / nc : spec.count();
    g.inputs = spec.inputs;
    g.shard = spec.shard;
    g.strategies = spec.strategies;
    // The selection once per file set: on the binary file, or on each file without one.
    if (selection != nullptr && (format == "bin" || !binary_written)) g.selection = *selection;
    g.sha256 = file->Finish();
    g.bytes = file->bytes();
    written.push_back(std::move(g));
    pending.push_back(std::move(file));
  };
  if (files.binary) record(files.binary, "bin", base + ".bin");
  if (files.json) {
    files.json->Write(JsonTrailer());
    record(files.json, "json", base + ".json");
  }
  for (std::size_t c = 0; c < files.testfloat.size(); ++c) {
    record(files.testfloat[c], std::string(kTestFloatFormat),
           TestFloatFileName(*spec.op, spec.pair, spec.controls[c]), spec.controls[c]);
  }
}

}  // namespace

std::vector<GeneratedFile> GenerateSuite(const std::vector<Job>& jobs,
                                         const GenerateOptions& options) {
  // One writer of a folder at a time (a second generate or a run reading it is refused), and
  // nothing in it is changed until every file is complete: the vector files stay temporaries
  // until the end, then they and the manifest are renamed into place as one step (CommitAll), so
  // an interrupt or a crash never leaves new files beside an old manifest.
  for (const Job& job : jobs) {
    if (job.op->edition != options.edition) {
      throw std::invalid_argument("GenerateSuite: " + JobBaseName(job) + " is of edition " +
                                  std::string(oracle::EditionName(job.op->edition)) +
                                  ", the options' edition is " +
                                  std::string(oracle::EditionName(options.edition)));
    }
  }
  std::error_code exists_error;
  if (!std::filesystem::exists(options.out_dir, exists_error)) {
    std::uint64_t ignored = options.sampling.samples;
    EntriesToKeep(jobs, options, ignored);  // refuses a file given as --out before a folder
    CreateFolders(options.out_dir);
  }
  const FolderLock lock(options.out_dir, FolderLock::Mode::Write, "generate",
                        options.folder_option + " folder");
  std::uint64_t suite_samples = options.sampling.samples;
  const std::vector<ManifestEntry> kept = EntriesToKeep(jobs, options, suite_samples);
  const unsigned threads =
      options.threads != 0 ? options.threads : std::max(1U, std::thread::hardware_concurrency());
  std::vector<GeneratedFile> written;
  std::vector<std::unique_ptr<AtomicFile>> pending;  // finished, renamed together at the end

  // With several threads, the next file's input set (its strategy sets: tens of milliseconds
  // for a sampled pair) is built while this file is generated; with one thread, in turn. Either
  // way the same sets, so the same files.
  const auto domain_of = [&](std::size_t j) { return JobInputs(jobs, options, j); };
  std::future<InputSet> next;
  if (threads > 1 && !jobs.empty()) next = std::async(std::launch::async, domain_of, 0);
  for (std::size_t j = 0; j < jobs.size(); ++j) {
    const InputSet inputs = threads > 1 ? next.get() : domain_of(j);
    if (threads > 1 && j + 1 < jobs.size()) next = std::async(std::launch::async, domain_of, j + 1);
    const FileSpec spec = JobFileSpec(jobs[j], inputs, options);
    const std::string base = JobBaseName(jobs[j]);
    JobFiles files = OpenJobFiles(spec, base, options);
    WriteRecords(spec, inputs, files, base, threads, options.progress);
    FinishJobFiles(files, spec, base,
                   j < options.selection.size() ? &options.selection[j] : nullptr, options.binary,
                   written, pending);
  }

  const std::unique_ptr<AtomicFile> manifest_file =
      ManifestFile(options, suite_samples, kept, written);
  std::vector<AtomicFile*> all;
  for (const auto& file : pending) all.push_back(file.get());
  all.push_back(manifest_file.get());
  AtomicFile::CommitAll(all);
  return written;
}

}  // namespace ptovec::generator
