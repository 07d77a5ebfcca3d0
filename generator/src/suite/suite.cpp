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

// The manifest's "formats" of a run: "bin", "json", "testfloat", those written.
std::vector<std::string> FormatNames(const GenerateOptions& options) {
  std::vector<std::string> formats;
  if (options.binary) formats.push_back("bin");
  if (options.json) formats.push_back("json");
  if (options.testfloat) formats.emplace_back(kTestFloatFormat);
  return formats;
}

// True when --samples chooses the inputs of the job's file (a sampled or custom plan; an
// enumerated pair's file is the same whatever --samples says).
bool UsesSamples(const Job& job) {
  return job.op->plan(job.pair).kind != DomainPlan::Kind::Exhaustive;
}

// The manifest entries of `out_dir`'s existing suite that this run keeps (the files it does not
// rewrite), after checking that adding to that suite is safe. Refuses (InputError, before any
// file is written) a folder with vector files no manifest names, and a suite that this run
// would only partly rewrite when it was made with another file-format or tool version, seed,
// samples or formats: adding to it would mix two suites in one manifest.
// `samples` (in: this run's --samples) comes back as the suite's: the folder's when this run adds
// only enumerated files to it.
std::vector<ManifestEntry> EntriesToKeep(const std::vector<Job>& jobs,
                                         const GenerateOptions& options, std::uint64_t& samples) {
  const std::filesystem::path& out = options.out_dir;
  std::error_code error;
  if (std::filesystem::exists(out, error) && !std::filesystem::is_directory(out, error)) {
    throw InputError("--out " + out.string() + " is a file (expected a folder for the suite)");
  }
  const std::filesystem::path manifest_path = out / "manifest.json";
  if (!std::filesystem::exists(manifest_path, error)) {
    RefuseUnlistedVectorFiles(out, nullptr, "--out folder",
                              "give an empty or new --out folder, or move them away");
    return {};
  }
  const Manifest old = ReadManifest(manifest_path);
  RefuseUnlistedVectorFiles(out, &old, "--out folder",
                            "give an empty or new --out folder, or move them away");
  if (old.suite != options.suite) {
    // Neither adding to nor replacing: the smoke suite over a default one would silently swap
    // a nightly suite for a per-commit one (or the reverse), under the same file names.
    throw InputError("--out " + out.string() + " holds the " + old.suite + " suite (" +
                     Counted(old.files.size(), "file") + "), this run writes the " + options.suite +
                     " suite; a folder holds one suite (give another --out, or "
                     "delete the folder first)");
  }
  const bool sampled = std::any_of(jobs.begin(), jobs.end(), UsesSamples);
  std::vector<std::string> writing;
  for (const Job& job : jobs) {
    if (options.binary) writing.push_back(JobBaseName(job) + ".bin");
    if (options.json) writing.push_back(JobBaseName(job) + ".json");
    if (options.testfloat) {
      for (const NumericExecutionControl& c : options.controls.ControlsOf(*job.op, job.pair)) {
        writing.push_back(TestFloatFileName(*job.op, job.pair, c));
      }
    }
  }
  std::vector<ManifestEntry> keep;
  for (const ManifestEntry& e : old.files) {
    if (std::find(writing.begin(), writing.end(), e.path) == writing.end()) keep.push_back(e);
  }
  if (keep.empty()) {
    // Every file of the old suite is rewritten: a new suite replaces it (another seed, format or
    // ptovec version), but never a smaller one without a word: fewer samples, a shard, or fewer
    // controls.
    const auto narrower = [&](const std::string& what, const std::string& theirs,
                              const std::string& ours) {
      throw InputError("--out " + out.string() + " holds a suite of " +
                       Counted(old.files.size(), "file") + " made with " + what + " " + theirs +
                       ", this run has " + what + " " + ours +
                       ", which would replace it by a smaller one (give another --out, or delete "
                       "the folder first)");
    };
    if (sampled && options.sampling.samples < old.samples) {
      narrower("--samples", std::to_string(old.samples), std::to_string(options.sampling.samples));
    }
    if (options.shard && old.shard != options.shard) {
      narrower("--shard", old.shard ? ShardName(*old.shard) : std::string("none"),
               ShardName(*options.shard));
    }
    for (const NumericRoundingMode m : oracle::kAllRoundingModes) {
      for (const bool sat : {false, true}) {
        if (old.controls.Accepts({m, sat}) && !options.controls.Accepts({m, sat})) {
          narrower("--rmode/--sat", old.controls.Describe(), options.controls.Describe());
        }
      }
    }
    return keep;
  }
  const std::vector<std::string> formats = FormatNames(options);
  const auto refuse = [&](const std::string& what, const std::string& theirs,
                          const std::string& ours) {
    throw InputError(
        "--out " + out.string() + " holds a suite of " + Counted(old.files.size(), "file") +
        " made with " + what + " " + theirs + ", this run has " + what + " " + ours +
        "; adding to it would mix two suites (give another --out, or the suite's " + what + ")");
  };
  const auto list = [](const std::vector<std::string>& v) {
    std::string text;
    for (const std::string& s : v) text += (text.empty() ? "" : ",") + s;
    return text;
  };
  if (old.version != kFileFormatVersion) {
    refuse("file-format version", std::to_string(old.version), std::to_string(kFileFormatVersion));
  }
  if (old.tool_version != PTOVEC_VERSION) refuse("ptovec", old.tool_version, PTOVEC_VERSION);
  if (old.seed != options.sampling.seed) {
    refuse("--seed", std::to_string(old.seed), std::to_string(options.sampling.seed));
  }
  if (!sampled) {
    samples = old.samples;  // no file of this run depends on --samples
  } else if (old.samples != options.sampling.samples) {
    refuse("--samples", std::to_string(old.samples), std::to_string(options.sampling.samples));
  }
  const auto format_name = [&](const std::vector<std::string>& f) {
    return f.size() == 2 ? std::string("both") : list(f);
  };
  if (old.formats != formats) refuse("--format", format_name(old.formats), format_name(formats));
  if (old.controls != options.controls) {
    refuse("--rmode/--sat", old.controls.Describe(), options.controls.Describe());
  }
  const auto shard_name = [](const std::optional<ShardSelection>& s) {
    return s ? ShardName(*s) : std::string("none");
  };
  if (old.shard != options.shard)
    refuse("--shard", shard_name(old.shard), shard_name(options.shard));
  return keep;
}

// The key that puts manifest entries in suite order: op, pair, format (bin, json, testfloat),
// then a testfloat file's control in the op's order.
using EntryKey = std::tuple<std::size_t, std::size_t, int, std::size_t>;
EntryKey EntryOrder(const OpDef& op, TypePair pair, const std::string& format,
                    std::optional<NumericExecutionControl> control) {
  const auto [op_index, pair_index] = SuiteOrder(op, pair);
  const int rank = format == "bin" ? 0 : format == "json" ? 1 : 2;
  std::size_t control_index = 0;
  if (control) {
    const std::vector<NumericExecutionControl> all = ControlsFor(op);
    control_index =
        static_cast<std::size_t>(std::find(all.begin(), all.end(), *control) - all.begin());
  }
  return {op_index, pair_index, rank, control_index};
}

}  // namespace

std::vector<Job> DefaultSuite() {
  std::vector<Job> jobs;
  for (const OpDef& op : AllOps()) {
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

nlohmann::ordered_json ManifestEntryJson(const GeneratedFile& g) {
  nlohmann::ordered_json e = {{"path", g.path},
                              {"format", g.format},
                              {"op", g.op->name},
                              {"src", oracle::Format(g.pair.src).name},
                              {"dst", oracle::Format(g.pair.dst).name}};
  if (g.control) {
    e["rmode"] = RoundingModeName(g.control->rounding_mode);
    e["sat"] = g.control->saturating;
  }
  if (g.pair.group != 0) e["group"] = FileGroupName(*g.op, g.pair);  // a split pair's file group
  e["domain"] = g.domain;
  e["seed"] = g.seed;
  e["inputs"] = g.inputs;
  e["count"] = g.count;
  e["bytes"] = g.bytes;
  e["sha256"] = g.sha256;
  if (!g.strategies.empty()) e["strategies"] = StrategiesJson(g.strategies);
  if (!g.selection.is_null()) e["selection"] = g.selection;
  if (g.shard) e["shard"] = {{"first_input", g.shard->first_input}, {"inputs", g.shard->inputs}};
  return e;
}

}  // namespace

nlohmann::ordered_json ControlFilterJson(const ControlFilter& filter) {
  nlohmann::ordered_json modes = nlohmann::ordered_json::array();
  for (NumericRoundingMode m : oracle::kAllRoundingModes) {
    if (filter.modes.empty() ||
        std::find(filter.modes.begin(), filter.modes.end(), m) != filter.modes.end()) {
      modes.push_back(oracle::RoundingModeName(m));
    }
  }
  nlohmann::ordered_json sat = nlohmann::ordered_json::array();
  for (const bool value : {false, true}) {
    if (filter.sat.empty() ||
        std::find(filter.sat.begin(), filter.sat.end(), value) != filter.sat.end()) {
      sat.push_back(value);
    }
  }
  return {{"rmodes", modes}, {"sat", sat}};
}

std::vector<GeneratedFile> GenerateSuite(const std::vector<Job>& jobs,
                                         const GenerateOptions& options) {
  // One writer of a folder at a time (a second generate or a run reading it is refused), and
  // nothing in it is changed until every file is complete: the vector files stay temporaries
  // until the end, then they and the manifest are renamed into place as one step (CommitAll), so
  // an interrupt or a crash never leaves new files beside an old manifest.
  std::error_code exists_error;
  if (!std::filesystem::exists(options.out_dir, exists_error)) {
    std::uint64_t ignored = options.sampling.samples;
    EntriesToKeep(jobs, options, ignored);  // refuses a file given as --out before a folder
    CreateFolders(options.out_dir);
  }
  const FolderLock lock(options.out_dir, FolderLock::Mode::Write, "generate", "--out folder");
  std::uint64_t suite_samples = options.sampling.samples;
  const std::vector<ManifestEntry> kept = EntriesToKeep(jobs, options, suite_samples);
  const unsigned threads =
      options.threads != 0 ? options.threads : std::max(1U, std::thread::hardware_concurrency());
  std::vector<GeneratedFile> written;
  std::vector<std::unique_ptr<AtomicFile>> pending;  // finished, renamed together at the end

  // With several threads, the next file's input set (its strategy sets: tens of milliseconds
  // for a sampled pair) is built while this file is generated; with one thread, in turn. Either
  // way the same sets, so the same files.
  const auto domain_of = [&](std::size_t j) {
    if (j < options.selected.size() && options.selected[j]) {
      const auto selected = options.selected[j];
      InputSet set;
      set.count = selected->size();
      set.kind = "selected";
      set.at = [selected](std::uint64_t i) { return (*selected)[i]; };
      return set;
    }
    return jobs[j].op->domain(jobs[j].pair, options.sampling);
  };
  std::future<InputSet> next;
  if (threads > 1 && !jobs.empty()) next = std::async(std::launch::async, domain_of, 0);
  for (std::size_t j = 0; j < jobs.size(); ++j) {
    const Job& job = jobs[j];
    const OpDef& op = *job.op;
    const TypePair pair = job.pair;
    const InputSet inputs = threads > 1 ? next.get() : domain_of(j);
    if (threads > 1 && j + 1 < jobs.size()) next = std::async(std::launch::async, domain_of, j + 1);
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
    std::uint64_t first_input = 0;
    std::uint64_t input_count = inputs.count;
    if (options.shard) {
      spec.shard = ShardRange::Of(options.shard->index, options.shard->of, inputs.count);
      first_input = spec.shard->first_input;
      input_count = spec.shard->inputs;
    }
    const std::string base = JobBaseName(job);
    const RecordPacker packer(op, pair);
    const std::size_t nc = spec.controls.size();

    std::unique_ptr<AtomicFile> binary;
    std::unique_ptr<AtomicFile> json;
    if (options.binary) {
      binary = std::make_unique<AtomicFile>(options.out_dir / (base + ".bin"));
      binary->Write(BinaryPreamble(spec));
    }
    if (options.json) {
      json = std::make_unique<AtomicFile>(options.out_dir / (base + ".json"));
      json->Write(JsonPreamble(spec));
    }
    std::vector<std::unique_ptr<AtomicFile>> testfloat;  // one per control, in spec.controls order
    if (options.testfloat) {
      for (const NumericExecutionControl& c : spec.controls) {
        testfloat.push_back(
            std::make_unique<AtomicFile>(options.out_dir / TestFloatFileName(op, pair, c)));
      }
    }

    const std::uint64_t chunk_inputs =
        std::max<std::uint64_t>(1, kChunkRecords / std::max<std::size_t>(nc, 1));
    const std::uint64_t chunks = (input_count + chunk_inputs - 1) / chunk_inputs;
    Progress progress(options.progress, base, spec.count());
    ForEachChunkInOrder(
        chunks, threads,
        [&](std::uint64_t chunk, ChunkOutput& out) {
          const std::uint64_t begin = chunk * chunk_inputs;
          const auto n =
              static_cast<std::size_t>(std::min(input_count, begin + chunk_inputs) - begin);
          // Per-thread scratch kept from chunk to chunk (no allocation per chunk).
          thread_local std::vector<Inputs> in;
          thread_local std::vector<Encoded> results;
          in.resize(n);
          inputs.Fill(first_input + begin, n, in.data());
          results.resize(n * nc);
          EvaluateBatch(op, pair, in.data(), n, spec.controls, results.data());
          if (binary) {
            out.binary.reserve(n * nc * packer.record_size());
            packer.Pack(in.data(), n, spec.controls, results.data(), out.binary);
          }
          if (json) {
            for (std::size_t i = 0; i < n; ++i) {
              for (std::size_t c = 0; c < nc; ++c) {
                AppendJsonRecord(out.json, op, pair, in[i], spec.controls[c], results[i * nc + c],
                                 begin + i == 0 && c == 0);
              }
            }
          }
          if (!testfloat.empty()) {
            out.testfloat.resize(nc);
            for (std::size_t c = 0; c < nc; ++c) {
              out.testfloat[c].reserve(n * TestFloatLineBytes(op, pair));
              for (std::size_t i = 0; i < n; ++i) {
                AppendTestFloatLine(out.testfloat[c], op, pair, in[i], results[i * nc + c]);
              }
            }
          }
        },
        [&](std::uint64_t chunk, ChunkOutput& out) {
          if (binary) binary->Write(out.binary);
          if (json) json->Write(out.json);
          for (std::size_t c = 0; c < testfloat.size(); ++c) testfloat[c]->Write(out.testfloat[c]);
          const std::uint64_t end = std::min(input_count, (chunk + 1) * chunk_inputs);
          progress.Update(end * nc);
        });
    if (chunks == 0) progress.Update(0);

    const auto record = [&](std::unique_ptr<AtomicFile>& file, const std::string& format,
                            const std::string& name,
                            std::optional<NumericExecutionControl> control = std::nullopt) {
      GeneratedFile g;
      g.path = name;
      g.format = format;
      g.op = &op;
      g.pair = pair;
      g.control = control;
      g.domain = inputs.kind;
      g.seed = spec.seed;
      g.count = control ? spec.count() / nc : spec.count();
      g.inputs = spec.inputs;
      g.shard = spec.shard;
      g.strategies = spec.strategies;
      // The selection once per file set: on the binary file, or on each file without one.
      if (j < options.selection.size() && (format == "bin" || !options.binary)) {
        g.selection = options.selection[j];
      }
      g.sha256 = file->Finish();
      g.bytes = file->bytes();
      written.push_back(std::move(g));
      pending.push_back(std::move(file));
    };
    if (binary) record(binary, "bin", base + ".bin");
    if (json) {
      json->Write(JsonTrailer());
      record(json, "json", base + ".json");
    }
    for (std::size_t c = 0; c < testfloat.size(); ++c) {
      record(testfloat[c], std::string(kTestFloatFormat),
             TestFloatFileName(op, pair, spec.controls[c]), spec.controls[c]);
    }
  }

  nlohmann::ordered_json manifest;
  manifest["format"] = "ptovec-manifest";
  manifest["version"] = kFileFormatVersion;
  manifest["tool"] = "ptovec";
  manifest["tool_version"] = PTOVEC_VERSION;
  manifest["suite"] = options.suite;
  manifest["seed"] = options.sampling.seed;
  manifest["samples"] = suite_samples;
  manifest["formats"] = FormatNames(options);
  manifest["controls"] = ControlFilterJson(options.controls);
  if (options.shard)
    manifest["shard"] = {{"index", options.shard->index}, {"of", options.shard->of}};
  // Entries of the files kept from the folder's suite and of those just written, in suite order.
  std::vector<std::pair<EntryKey, nlohmann::ordered_json>> entries;
  for (const ManifestEntry& e : kept) {
    const OpDef& op = RequireOp(e.op);
    TypePair pair{RequireType(e.src, "src"), RequireType(e.dst, "dst")};
    const std::vector<std::string> groups = FileGroups(op, pair);
    const auto group = std::find(groups.begin(), groups.end(), e.group);
    if (!e.group.empty() && group != groups.end())
      pair.group = static_cast<std::uint8_t>(group - groups.begin() + 1);
    entries.emplace_back(EntryOrder(op, pair, e.format, e.control), e.json);
  }
  for (const GeneratedFile& g : written) {
    entries.emplace_back(EntryOrder(*g.op, g.pair, g.format, g.control), ManifestEntryJson(g));
  }
  std::stable_sort(entries.begin(), entries.end(),
                   [](const auto& a, const auto& b) { return a.first < b.first; });
  nlohmann::ordered_json files = nlohmann::ordered_json::array();
  for (auto& [order, entry] : entries) files.push_back(std::move(entry));
  manifest["files"] = files;
  auto manifest_file = std::make_unique<AtomicFile>(options.out_dir / "manifest.json");
  manifest_file->Write(manifest.dump(2) + "\n");
  std::vector<AtomicFile*> all;
  for (const auto& file : pending) all.push_back(file.get());
  all.push_back(manifest_file.get());
  AtomicFile::CommitAll(all);
  return written;
}

}  // namespace ptovec::generator
