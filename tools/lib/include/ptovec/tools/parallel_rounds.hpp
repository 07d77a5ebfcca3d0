// ParallelRounds: a fixed set of threads running one job per thread per round, for `run` (a
// thread-safe device on every core) and `run --exhaustive`.
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <exception>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace ptovec::tools {

/// Runs job(k) for k = 0 .. n-1 at once, k = 0 on the calling thread and the others on n - 1
/// threads kept for the whole run (no thread or allocation per round). Rethrows the first
/// exception of a round (the lowest k that threw) after every part has finished.
/// Between rounds the threads poll for a while (kSpin, yielding the core) before they sleep:
/// waking a sleeping thread costs tens of microseconds, as long as a short round of `run`.
class ParallelRounds {
 public:
  /// How long a thread polls for the next round (a worker) or the end of a round (the caller).
  static constexpr std::chrono::microseconds kSpin{200};

  explicit ParallelRounds(unsigned n) : errors_(n) {
    for (unsigned k = 1; k < n; ++k) workers_.emplace_back([this, k] { Work(k); });
  }
  ParallelRounds(const ParallelRounds&) = delete;
  ParallelRounds& operator=(const ParallelRounds&) = delete;
  ~ParallelRounds() {
    {
      std::lock_guard lock(mutex_);
      stop_ = true;
    }
    start_.notify_all();
    for (std::thread& t : workers_) t.join();
  }
  unsigned size() const { return static_cast<unsigned>(errors_.size()); }

  void Run(const std::function<void(unsigned)>& job) {
    {
      std::lock_guard lock(mutex_);
      job_ = &job;
      pending_ = size() - 1;
      ++round_;
    }
    start_.notify_all();
    Do(0);
    if (!Poll([this] { return pending_ == 0; })) {
      std::unique_lock lock(mutex_);
      done_.wait(lock, [this] { return pending_ == 0; });
    }
    for (std::exception_ptr& e : errors_) {
      if (e) {
        std::exception_ptr first = e;
        for (std::exception_ptr& x : errors_) x = nullptr;
        std::rethrow_exception(first);
      }
    }
  }

 private:
  // Whether `done` holds within kSpin.
  template <typename F>
  static bool Poll(F done) {
    const auto until = std::chrono::steady_clock::now() + kSpin;
    for (unsigned i = 1;; ++i) {
      if (done()) return true;
      if (i % 64 == 0 && std::chrono::steady_clock::now() >= until) return false;
      std::this_thread::yield();
    }
  }
  void Do(unsigned k) {
    try {
      (*job_)(k);
    } catch (...) {
      errors_[k] = std::current_exception();
    }
  }
  void Work(unsigned k) {
    std::uint64_t seen = 0;
    while (true) {
      // The round counter and the stop flag are atomics so that they can be polled; the mutex
      // orders them with the condition variables' waits, so that no wake-up is lost.
      if (!Poll([&] { return stop_ || round_ != seen; })) {
        std::unique_lock lock(mutex_);
        start_.wait(lock, [&] { return stop_ || round_ != seen; });
      }
      if (stop_) return;
      seen = round_;
      Do(k);
      if (--pending_ == 0) {
        std::lock_guard lock(mutex_);
        done_.notify_one();
      }
    }
  }

  std::vector<std::exception_ptr> errors_;
  std::vector<std::thread> workers_;
  std::mutex mutex_;
  std::condition_variable start_;
  std::condition_variable done_;
  const std::function<void(unsigned)>* job_ = nullptr;
  std::atomic<std::uint64_t> round_{0};
  std::atomic<unsigned> pending_{0};
  std::atomic<bool> stop_{false};
};

}  // namespace ptovec::tools
