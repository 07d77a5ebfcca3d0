// `ptovec diff`: every vector of one edition's selection under both editions (edition_diff.hpp).
#include "ptovec/tools/edition_diff.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <mutex>
#include <thread>
#include <utility>

#include "ptovec/tools/parallel_rounds.hpp"
#include "ptovec/tools/simplicity.hpp"

namespace ptovec::tools {

namespace {

using generator::Case;
using generator::Encoded;
using generator::Inputs;
using generator::Job;
using generator::NumericExecutionControl;
using generator::OpDef;

// Vectors per chunk of work (a chunk holds whole inputs, every control of each).
constexpr std::uint64_t kChunkVectors = 32768;

// What one job shares between its chunks.
struct JobPlan {
  const OpDef* from_op = nullptr;
  generator::InputSet inputs;
  std::vector<NumericExecutionControl> controls;       // of `to`, the filter's
  std::vector<NumericExecutionControl> from_controls;  // those of them `from` has for the pair
  std::vector<int> from_index;  // controls[c] is from_controls[from_index[c]], or -1
  std::uint64_t chunk_inputs = 1;
};

struct ChunkResult {
  std::uint64_t changed = 0, word = 0, flags = 0, unchanged = 0, fresh = 0;
  std::optional<SimplicityKey> best_key;
  Case best;
  Encoded from_answer{}, to_answer{};
  std::vector<Inputs> changed_inputs;
};

struct Chunk {
  std::size_t job = 0;
  std::uint64_t begin = 0;
  std::size_t n = 0;
};

JobPlan PlanJob(const Job& job, std::size_t j, const DiffOptions& options) {
  JobPlan plan;
  if (j < options.selected.size() && options.selected[j]) {
    const auto selected = options.selected[j];
    plan.inputs.count = selected->size();
    plan.inputs.at = [selected](std::uint64_t i) { return (*selected)[i]; };
  } else {
    plan.inputs = job.op->domain(job.pair, options.sampling);
  }
  plan.controls = options.controls.ControlsOf(*job.op, job.pair);
  const OpDef* from = generator::FindOp(job.op->name, options.from);
  if (from != nullptr && generator::IsLegalPair(*from, job.pair)) {
    plan.from_op = from;
    const auto legal = generator::ControlsFor(*from, job.pair);
    for (const NumericExecutionControl& c : plan.controls) {
      const bool has = std::find(legal.begin(), legal.end(), c) != legal.end();
      plan.from_index.push_back(has ? static_cast<int>(plan.from_controls.size()) : -1);
      if (has) plan.from_controls.push_back(c);
    }
  }
  plan.chunk_inputs =
      std::max<std::uint64_t>(1, kChunkVectors / std::max<std::size_t>(1, plan.controls.size()));
  return plan;
}

// Counts input i's vectors into r; true when one of them changed. The first changed control is
// the simplest of the input's changed vectors: controls are mode-major in NumericRoundingMode
// order, Sat off first, as SimplicityKey orders them.
bool CountInput(const JobPlan& plan, bool accepted, const Encoded* to, const Encoded* from,
                ChunkResult& r, int& first_changed) {
  first_changed = -1;
  for (std::size_t c = 0; c < plan.controls.size(); ++c) {
    const int f = accepted ? plan.from_index[c] : -1;
    if (f < 0) {
      ++r.fresh;
      continue;
    }
    const bool word = to[c].word != from[f].word;
    const bool flags = to[c].status != from[f].status;
    r.word += word ? 1 : 0;
    r.flags += flags ? 1 : 0;
    if (word || flags) {
      ++r.changed;
      if (first_changed < 0) first_changed = static_cast<int>(c);
    } else {
      ++r.unchanged;
    }
  }
  return first_changed >= 0;
}

void DiffChunk(const Job& job, const JobPlan& plan, const Chunk& chunk, bool keep, ChunkResult& r) {
  const std::size_t nc = plan.controls.size();
  std::vector<Inputs> in(chunk.n);
  plan.inputs.Fill(chunk.begin, chunk.n, in.data());
  if (plan.from_op == nullptr) {
    r.fresh = chunk.n * nc;
    return;
  }
  std::vector<Encoded> to(chunk.n * nc);
  generator::EvaluateBatch(*job.op, job.pair, in.data(), chunk.n, plan.controls, to.data());
  // The inputs `from`'s domain accepts, evaluated under its controls.
  std::vector<char> accepted(chunk.n, 1);
  std::vector<Inputs> from_in;
  from_in.reserve(chunk.n);
  for (std::size_t i = 0; i < chunk.n; ++i) {
    if (plan.from_op->check_domain && plan.from_op->check_domain(job.pair, in[i])) {
      accepted[i] = 0;
    } else {
      from_in.push_back(in[i]);
    }
  }
  const std::size_t nf = plan.from_controls.size();
  std::vector<Encoded> from(from_in.size() * nf);
  if (nf > 0 && !from_in.empty()) {
    generator::EvaluateBatch(*plan.from_op, job.pair, from_in.data(), from_in.size(),
                             plan.from_controls, from.data());
  }
  std::size_t k = 0;  // index in from_in
  for (std::size_t i = 0; i < chunk.n; ++i) {
    const Encoded* f = accepted[i] ? &from[k * nf] : nullptr;
    int first = -1;
    if (CountInput(plan, accepted[i] != 0, &to[i * nc], f, r, first)) {
      if (keep) r.changed_inputs.push_back(in[i]);
      const Case c{job.op, job.pair, plan.controls[first], in[i]};
      const SimplicityKey key = SimplicityOf(c);
      if (!r.best_key || key < *r.best_key) {
        r.best_key = key;
        r.best = c;
        r.to_answer = to[i * nc + first];
        r.from_answer = f[plan.from_index[first]];
      }
    }
    if (accepted[i]) ++k;
  }
}

// "ptovec diff: N/M vectors (P%)" on stderr, at most four times a second.
class DiffProgress {
 public:
  DiffProgress(bool enabled, std::uint64_t total) : enabled_(enabled), total_(total) {}
  void Add(std::uint64_t n) {
    const std::uint64_t done = done_ += n;
    if (!enabled_) return;
    std::unique_lock lock(mutex_, std::try_to_lock);
    if (!lock.owns_lock()) return;
    const auto now = std::chrono::steady_clock::now();
    if (done < total_ && now - last_ < std::chrono::milliseconds(250)) return;
    last_ = now;
    std::fprintf(stderr, "\rptovec diff: %llu/%llu vectors (%llu%%)",
                 static_cast<unsigned long long>(done), static_cast<unsigned long long>(total_),
                 static_cast<unsigned long long>(total_ == 0 ? 100 : done * 100 / total_));
    std::fflush(stderr);
  }
  void Finish() {
    if (enabled_) std::fputc('\n', stderr);
  }

 private:
  bool enabled_;
  std::uint64_t total_;
  std::atomic<std::uint64_t> done_{0};
  std::mutex mutex_;
  std::chrono::steady_clock::time_point last_{};
};

void Merge(PairDiff& d, ChunkResult& r, std::optional<SimplicityKey>& best) {
  d.changed += r.changed;
  d.word += r.word;
  d.flags += r.flags;
  d.unchanged += r.unchanged;
  d.fresh += r.fresh;
  if (r.best_key && (!best || *r.best_key < *best)) {
    best = r.best_key;
    d.simplest = r.best;
    d.from_answer = r.from_answer;
    d.to_answer = r.to_answer;
  }
  d.changed_inputs.insert(d.changed_inputs.end(), r.changed_inputs.begin(), r.changed_inputs.end());
  r = ChunkResult{};
}

}  // namespace

std::vector<PairDiff> DiffJobs(const std::vector<Job>& jobs, const DiffOptions& options) {
  std::vector<JobPlan> plans;
  std::vector<Chunk> chunks;
  std::uint64_t total = 0;
  for (std::size_t j = 0; j < jobs.size(); ++j) {
    plans.push_back(PlanJob(jobs[j], j, options));
    const JobPlan& p = plans.back();
    for (std::uint64_t b = 0; b < p.inputs.count; b += p.chunk_inputs) {
      chunks.push_back(
          {j, b, static_cast<std::size_t>(std::min(p.chunk_inputs, p.inputs.count - b))});
    }
    total += p.inputs.count * p.controls.size();
  }
  std::vector<ChunkResult> results(chunks.size());
  DiffProgress progress(options.progress, total);
  std::atomic<std::size_t> next{0};
  std::size_t threads =
      options.threads != 0 ? options.threads : std::thread::hardware_concurrency();
  threads = std::max<std::size_t>(1, std::min(threads, chunks.size()));
  ParallelRounds rounds(static_cast<unsigned>(threads));
  rounds.Run([&](unsigned) {
    for (std::size_t k = next++; k < chunks.size(); k = next++) {
      const Chunk& c = chunks[k];
      DiffChunk(jobs[c.job], plans[c.job], c, options.keep_inputs, results[k]);
      progress.Add(c.n * plans[c.job].controls.size());
    }
  });
  progress.Finish();
  std::vector<PairDiff> diffs(jobs.size());
  std::vector<std::optional<SimplicityKey>> best(jobs.size());
  for (std::size_t j = 0; j < jobs.size(); ++j) {
    diffs[j].job = jobs[j];
    diffs[j].from_op = plans[j].from_op;
    diffs[j].vectors = plans[j].inputs.count * plans[j].controls.size();
  }
  for (std::size_t k = 0; k < chunks.size(); ++k) {
    Merge(diffs[chunks[k].job], results[k], best[chunks[k].job]);
  }
  return diffs;
}

std::vector<GonePair> GoneJobs(const std::vector<Job>& from_jobs, const std::vector<Job>& to_jobs,
                               const DiffOptions& options) {
  std::vector<GonePair> gone;
  const std::string to_name(oracle::EditionName(options.to));
  for (const Job& job : from_jobs) {
    if (options.controls.ControlsOf(*job.op, job.pair).empty()) continue;  // as --to's jobs
    const OpDef* to = generator::FindOp(job.op->name, options.to);
    GonePair g;
    g.job = job;
    if (to != nullptr && generator::IsLegalPair(*to, job.pair)) {
      const auto same = [&](const Job& t) { return t.op == to && t.pair == job.pair; };
      if (std::any_of(to_jobs.begin(), to_jobs.end(), same)) continue;
      g.reason = "a pair of " + to_name + " outside its selection (not in its default suite)";
    } else if (const auto* retired = generator::FindRetiredOp(job.op->name, options.to)) {
      g.reason = retired->reason;
    } else if (to == nullptr) {
      g.reason = "no op " + job.op->name + " in " + to_name;
    } else {
      g.reason = "not a pair of " + job.op->name + " in " + to_name;
    }
    g.vectors = job.op->domain_count(job.pair, options.sampling) *
                options.controls.ControlsOf(*job.op, job.pair).size();
    gone.push_back(std::move(g));
  }
  return gone;
}

std::string EvalLineIn(const Case& c, oracle::Edition edition) {
  Case in = c;
  if (const OpDef* op = generator::FindOp(c.op->name, edition)) in.op = op;
  std::string line = generator::EvalCommand(in);
  const std::string head = "ptovec eval ";
  if (line.rfind(head + "--edition ", 0) != 0) {
    line.insert(head.size(), "--edition " + std::string(oracle::EditionName(edition)) + " ");
  }
  return line;
}

}  // namespace ptovec::tools
