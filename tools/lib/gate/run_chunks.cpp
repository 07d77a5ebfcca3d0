// `ptovec run`'s device calls for the chunks of its batches (run_chunks.hpp).
#include "gate/run_chunks.hpp"

#include <algorithm>
#include <chrono>
#include <cstddef>
#include <mutex>
#include <span>
#include <string>
#include <thread>
#include <vector>

#include "ptovec/tools/check.hpp"
#include "ptovec/tools/device.hpp"

namespace ptovec::tools::run_chunks {

namespace {

// Fewest cases a chunk has when a batch is split (smaller batches use fewer threads).
constexpr std::size_t kMinPart = 256;
// Records read per thread for a batch of several threads, in RunOptions::batch.
constexpr std::size_t kPartsPerThread = 4;
// Chunks per thread of a full batch: the threads take them as they come free, so the thread that
// also joins, writes and reads (run_device.cpp) takes fewer than the others, and a round ends
// with the last small chunks.
constexpr std::size_t kChunksPerThread = 8;
// Most records of a batch of several threads, unless RunOptions::batch per thread is more (two
// batches are held at once); with many threads the chunks are smaller instead.
constexpr std::size_t kMaxBatch = std::size_t{1} << 18;

}  // namespace

ChunkEvaluator::ChunkEvaluator(Device& device, const RunOptions& options)
    : device_(device),
      keep_going_(options.keep_going),
      part_(options.batch == 0 ? 4096 : options.batch),
      threads_(!device.ThreadSafe()   ? 1
               : options.threads != 0 ? options.threads
                                      : std::max(1U, std::thread::hardware_concurrency())) {}

std::size_t ChunkEvaluator::batch() const {
  if (threads_ == 1) return part_;
  return std::min(part_ * threads_ * kPartsPerThread, std::max(part_ * threads_, kMaxBatch));
}

std::size_t ChunkEvaluator::ChunkCases(std::size_t n) const {
  const std::size_t pieces = threads_ == 1 ? 1 : threads_ * kChunksPerThread;
  return std::clamp((n + pieces - 1) / pieces, std::min(part_, kMinPart), part_);
}

void ChunkEvaluator::NoteChunks(std::size_t chunks) {
  most_threads_ =
      std::max(most_threads_, static_cast<unsigned>(std::min<std::size_t>(chunks, threads_)));
}

void ChunkEvaluator::Begin() {
  std::lock_guard lock(busy_mutex_);
  if (busy_++ == 0) busy_since_ = std::chrono::steady_clock::now();
}

void ChunkEvaluator::End() {
  std::lock_guard lock(busy_mutex_);
  if (--busy_ == 0) {
    seconds_ +=
        std::chrono::duration<double>(std::chrono::steady_clock::now() - busy_since_).count();
  }
}

void ChunkEvaluator::Evaluate(std::span<const Case> cases, std::span<DeviceAnswer> answers,
                              std::vector<std::string>& failures) {
  std::fill(answers.begin(), answers.end(), DeviceAnswer{});
  struct Busy {
    ChunkEvaluator& e;
    explicit Busy(ChunkEvaluator& evaluator) : e(evaluator) { e.Begin(); }
    ~Busy() { e.End(); }
    Busy(const Busy&) = delete;
    Busy& operator=(const Busy&) = delete;
  } busy(*this);
  try {
    device_.Evaluate(cases, answers);
  } catch (const DeviceFailure&) {
    if (!keep_going_) throw;
    EvaluateOneByOne(cases, answers, failures);
  }
  cases_ += cases.size();
}

void ChunkEvaluator::EvaluateOneByOne(std::span<const Case> cases, std::span<DeviceAnswer> answers,
                                      std::vector<std::string>& failures) {
  for (std::size_t k = 0; k < cases.size(); ++k) {
    try {
      device_.Evaluate(cases.subspan(k, 1), answers.subspan(k, 1));
    } catch (const DeviceFailure& f) {
      answers[k] = DeviceAnswer{false, {}};
      failures.push_back(f.what());
    }
  }
}

DeviceThroughput ChunkEvaluator::Throughput() const {
  DeviceThroughput t;
  t.cases = cases_;
  t.seconds = seconds_;
  t.threads = most_threads_;
  t.clocks = device_.Clocks();
  return t;
}

}  // namespace ptovec::tools::run_chunks
