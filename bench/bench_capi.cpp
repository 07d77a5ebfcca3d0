// Google Benchmark: the C API (ptovec/ptovec.h, libptovec_c.so) on tcvt FP16 -> E8M0 under RNE,
// one case per ptovec_evaluate call against ptovec_evaluate_batch over all 65,536 FP16 codes.
// items_per_second is cases per second. Run: ptovec_bench_capi [--benchmark_filter=...]
#include <benchmark/benchmark.h>

#include <cstdint>
#include <vector>

#include "ptovec/ptovec.h"

namespace {

std::vector<std::uint64_t> EveryFp16Code() {
  std::vector<std::uint64_t> in(1 << 16);
  for (std::size_t i = 0; i < in.size(); ++i) in[i] = i;
  return in;
}

void BM_CApiSingle(benchmark::State& state) {
  const auto in = EveryFp16Code();
  const int fp16 = ptovec_type_code("fp16"), e8m0 = ptovec_type_code("e8m0");
  std::size_t i = 0;
  for (auto _ : state) {
    ptovec_result r;
    if (ptovec_evaluate("tcvt", fp16, e8m0, PTOVEC_RNE, 0, &in[i], 1, &r) != PTOVEC_OK) {
      state.SkipWithError(ptovec_last_error());
      break;
    }
    benchmark::DoNotOptimize(r);
    i = (i + 1) & 0xffff;
  }
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations()));
}
BENCHMARK(BM_CApiSingle);

void BM_CApiBatch(benchmark::State& state) {
  const auto in = EveryFp16Code();
  std::vector<ptovec_result> out(in.size());
  const int fp16 = ptovec_type_code("fp16"), e8m0 = ptovec_type_code("e8m0");
  for (auto _ : state) {
    if (ptovec_evaluate_batch("tcvt", fp16, e8m0, PTOVEC_RNE, 0, in.data(), 1, in.size(),
                              out.data(), nullptr) != PTOVEC_OK) {
      state.SkipWithError(ptovec_last_error());
      break;
    }
    benchmark::DoNotOptimize(out.data());
  }
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * in.size()));
}
BENCHMARK(BM_CApiBatch);

// encode FP32 -> FP16 (a sampled domain in the suite): the value path of matrix post-processing.
void BM_CApiBatchEncodeFp32ToFp16(benchmark::State& state) {
  std::vector<std::uint64_t> in(1 << 16);
  for (std::size_t i = 0; i < in.size(); ++i) in[i] = 0x3f800000u + (i << 7);  // finite values
  std::vector<ptovec_result> out(in.size());
  const int fp32 = ptovec_type_code("fp32"), fp16 = ptovec_type_code("fp16");
  for (auto _ : state) {
    if (ptovec_evaluate_batch("encode", fp32, fp16, PTOVEC_RNE, 0, in.data(), 1, in.size(),
                              out.data(), nullptr) != PTOVEC_OK) {
      state.SkipWithError(ptovec_last_error());
      break;
    }
    benchmark::DoNotOptimize(out.data());
  }
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * in.size()));
}
BENCHMARK(BM_CApiBatchEncodeFp32ToFp16);

}  // namespace

BENCHMARK_MAIN();
