// `ptovec run`'s batches (RunDevice, run_device.cpp): the kept records of a vector file read a
// batch at a time, each batch split into chunks that the threads evaluate and check at once
// (ChunkEvaluator: the device's calls, --keep-going, the device's busy time), then joined and
// written in record order, so that the report and the files do not depend on the thread count.
#pragma once

#include <atomic>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <exception>
#include <mutex>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "ptovec/generator/cases.hpp"
#include "ptovec/generator/readers.hpp"
#include "ptovec/tools/check.hpp"
#include "ptovec/tools/device.hpp"

namespace ptovec::tools::run_chunks {

/// No record (Chunk::bad_flags).
inline constexpr std::size_t kNone = static_cast<std::size_t>(-1);

/// A chunk of a batch: cases one thread evaluates and checks at once, and what came of them.
struct Chunk {
  explicit Chunk(CheckAccumulator p) : part(std::move(p)) {}
  CheckAccumulator part;              ///< its answers judged (CheckAccumulator::Part)
  std::vector<std::string> failures;  ///< --keep-going: the device's failures, in order
  std::size_t bad_flags = kNone;      ///< the first record (in the batch) answered bits 7:5
  std::exception_ptr error;           ///< what it threw (a DeviceFailure, or anything else)
};

/// Kept records of one vector file on their way through the device.
struct Batch {
  std::vector<generator::VectorRecord> records;
  std::vector<std::uint64_t> indices;  ///< each record's index in its file
  std::vector<Case> cases;
  std::vector<DeviceAnswer> answers;
  std::size_t per = 0;               ///< cases per chunk
  std::size_t used = 0;              ///< chunks of this batch
  std::vector<Chunk> chunks;         ///< at least `used` (kept from batch to batch of a file)
  std::atomic<std::size_t> next{0};  ///< the next chunk a free thread takes
};

/// The device's calls for the chunks, from any thread: its thread count, the size of the batches
/// and chunks, --keep-going, and its throughput.
class ChunkEvaluator {
 public:
  ChunkEvaluator(Device& device, const RunOptions& options);

  /// Threads that evaluate chunks at once: 1 for a device that is not ThreadSafe(), else
  /// --threads (0: one per core).
  unsigned threads() const { return threads_; }
  /// Records read at once: RunOptions::batch; with several threads, four times that per thread
  /// (at most 2^18 records, unless RunOptions::batch per thread is more).
  std::size_t batch() const;
  /// Cases per chunk of a batch of `n`: eight chunks per thread (one for one thread), of
  /// RunOptions::batch cases at most and at least 256 (or RunOptions::batch if smaller), so that
  /// a small batch uses fewer threads.
  std::size_t ChunkCases(std::size_t n) const;
  /// Notes that `chunks` chunks of a batch ran (DeviceThroughput::threads).
  void NoteChunks(std::size_t chunks);

  /// Answers `cases` into `answers` (as many). With --keep-going a chunk the device fails on is
  /// evaluated again one case at a time, each case that fails alone answered unsupported and
  /// its failure appended to `failures`; without, the DeviceFailure is thrown.
  void Evaluate(std::span<const Case> cases, std::span<DeviceAnswer> answers,
                std::vector<std::string>& failures);

  /// The device's speed so far, with its clock counts.
  DeviceThroughput Throughput() const;

 private:
  void EvaluateOneByOne(std::span<const Case> cases, std::span<DeviceAnswer> answers,
                        std::vector<std::string>& failures);
  // Wall time with at least one call of the device under way.
  void Begin();
  void End();

  Device& device_;
  const bool keep_going_;
  const std::size_t part_;
  const unsigned threads_;
  std::atomic<std::uint64_t> cases_{0};
  unsigned most_threads_ = 1;
  std::mutex busy_mutex_;
  unsigned busy_ = 0;  // calls under way
  std::chrono::steady_clock::time_point busy_since_{};
  double seconds_ = 0;
};

}  // namespace ptovec::tools::run_chunks
