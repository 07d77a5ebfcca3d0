// Google Benchmark: `ptovec run` (tools::RunDevice) over the pipelined unit
// examples/rtl/ptovec_tcvt_e8m0_pipe.sv behind the streaming harness (the stream example's device,
// libptovec_bench_pipe_dut.so, loaded in process), on every FP16 -> E8M0 vector of the default
// suite (65,536 codes x 14 controls), with random back-pressure (out_ready on 70% of clocks).
//   arg 0  threads (--threads): 1 or 2
//   arg 1  0: every control; 1: a control selection (--rmode RNE,RTZ --sat off: 2 of the 14)
//   items_per_second   vectors run per second, the whole run (reading, checking, writing)
//   device_per_second  vectors per second inside the device's calls (what `run` prints)
//   cases_per_clock    the harness's cases per clock (what `run` prints for a stream device)
//   CPU                the process's CPU time (every thread) per run: CPU / Time is how many of
//                      the threads were busy on average, whatever the machine's speed
// Two threads against one: the ratio of the two rows' items_per_second (and device_per_second)
// of the same selection. The vectors and the results file go to TMPDIR (default /tmp): the
// results file's commit waits for the disk (fsync), the same time on one thread or two, which
// TMPDIR=/dev/shm (memory) leaves out.
// On a shared machine one run's time varies by a quarter either way (other guests of the host):
// take many short repetitions, interleaved, and compare the `_min` rows' real time (the runs least
// disturbed; `_median` is printed too):
//   TMPDIR=/dev/shm build/bench/ptovec_bench_run_threads --benchmark_min_time=0.2
//     --benchmark_repetitions=30 --benchmark_enable_random_interleaving=true
//     --benchmark_report_aggregates_only=true
// Run: build/bench/ptovec_bench_run_threads [--benchmark_min_time=1]
#include <benchmark/benchmark.h>

#include <cstdint>
#include <filesystem>
#include <memory>
#include <string>

#include "bench_statistics.hpp"
#include "ptovec/generator/suite.hpp"
#include "ptovec/tools/check.hpp"
#include "ptovec/tools/device.hpp"
#include "ptovec/tools/run.hpp"

namespace {

namespace fs = std::filesystem;
using namespace ptovec;

// The vectors, generated once into a temporary folder.
const fs::path& Vectors() {
  static const fs::path folder = [] {
    const fs::path dir = fs::temp_directory_path() / "ptovec-bench-run-threads";
    fs::remove_all(dir);
    generator::GenerateOptions options;
    options.out_dir = dir;
    generator::GenerateSuite(tools::SelectRunJobs("tcvt", "fp16", "e8m0"), options);
    return dir;
  }();
  return folder;
}

void BM_RunPipeFp16ToE8m0(benchmark::State& state) {
  static const std::unique_ptr<tools::Device> device =
      tools::OpenLibraryDevice(PTOVEC_BENCH_PIPE_DUT, "out_ready_percent=70,seed=3");
  generator::VectorSelection vectors;
  vectors.paths = {Vectors()};
  tools::RunOptions options;
  options.results = Vectors().parent_path() / "ptovec-bench-run-threads.bin";
  options.threads = static_cast<unsigned>(state.range(0));
  if (state.range(1) != 0) options.controls = generator::ParseControlFilter("RNE,RTZ", "off");
  std::uint64_t run = 0;
  double device_seconds = 0;
  const auto before = device->Clocks();
  for (auto _ : state) {
    const tools::CheckReport report = tools::RunDevice(*device, vectors, options);
    if (!report.passed() || !report.throughput) {
      state.SkipWithError("the run did not pass");
      break;
    }
    run += report.vectors;
    device_seconds += report.throughput->seconds;
  }
  const auto after = device->Clocks();
  state.SetItemsProcessed(static_cast<std::int64_t>(run));
  state.counters["device_per_second"] = static_cast<double>(run) / device_seconds;
  if (before && after && after->clocks > before->clocks) {
    state.counters["cases_per_clock"] = static_cast<double>(after->cases - before->cases) /
                                        static_cast<double>(after->clocks - before->clocks);
  }
}
BENCHMARK(BM_RunPipeFp16ToE8m0)
    ->ArgsProduct({{1, 2}, {0, 1}})
    ->ArgNames({"threads", "selection"})
    ->ComputeStatistics("min", ptovec::bench::Least)
    ->MeasureProcessCPUTime()
    ->UseRealTime()
    ->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
