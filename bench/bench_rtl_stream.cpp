// Google Benchmark: the streaming harness (include/ptovec_dut_stream.hpp) over the
// verilated pipelined unit examples/rtl/ptovec_tcvt_e8m0_pipe.sv (3 stages, valid/ready, tag), as
// examples/rtl/stream_example's device drives it: batches of every FP16 code to E8M0 under RNE, one
// model per thread.
//   cases_per_clock  cases sent per clock while the batch runs (1.0 is a full pipeline; reset
//                    clocks excluded): the harness's own share of throughput
//   items_per_second cases per second (wall clock, all threads together): the simulator's
//   arg              out_ready percent (100: no back-pressure; 70: random back-pressure)
// Threads 1 and 2: the ratio of their items_per_second is what a second core gives.
// Run: build/bench/ptovec_bench_rtl_stream [--benchmark_min_time=0.5]
#include <benchmark/benchmark.h>

#include <cstdint>
#include <vector>

#include "bench_statistics.hpp"
#include "pipe_ports.hpp"

namespace {

void BM_StreamPipeFp16ToE8m0(benchmark::State& state) {
  std::vector<ptovec_dut_case> cases(1 << 16);
  for (std::size_t i = 0; i < cases.size(); ++i) {
    ptovec_dut_case& c = cases[i];
    c = ptovec_dut_case{};
    c.op = "tcvt";
    c.src = "fp16";
    c.dst = "e8m0";
    c.src_code = PTOVEC_DUT_TYPE_FP16;
    c.dst_code = PTOVEC_DUT_TYPE_E8M0;
    c.n_inputs = 1;
    c.inputs[0] = i;
  }
  std::vector<ptovec_dut_result> results(cases.size());
  std::vector<std::uint8_t> status(cases.size());
  ptovec_dut::StreamConfig config = ptovec_pipe::PipeConfig();
  config.out_ready_percent = static_cast<unsigned>(state.range(0));
  config.seed = 1 + static_cast<std::uint64_t>(state.thread_index());
  ptovec_dut::StreamHarness<ptovec_pipe::PipePorts> harness(config);
  const std::uint64_t cycles0 = harness.cycles(), sent0 = harness.sent();
  for (auto _ : state) {
    if (harness.EvaluateBatch(cases.data(), results.data(), status.data(), cases.size()) !=
        PTOVEC_DUT_OK) {
      state.SkipWithError(harness.last_error().c_str());
      break;
    }
    benchmark::DoNotOptimize(results.data());
  }
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * cases.size()));
  state.counters["cases_per_clock"] = benchmark::Counter(
      static_cast<double>(harness.sent() - sent0) / static_cast<double>(harness.cycles() - cycles0),
      benchmark::Counter::kAvgThreads);
}
BENCHMARK(BM_StreamPipeFp16ToE8m0)
    ->Arg(100)
    ->Arg(70)
    ->Threads(1)
    ->Threads(2)
    ->ComputeStatistics("min", ptovec::bench::Least)
    ->UseRealTime();

}  // namespace

BENCHMARK_MAIN();
