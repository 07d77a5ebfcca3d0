// Google Benchmark: what the diagnosis (tools/lib/include/ptovec/tools/diagnosis.hpp, the report's
// causes) costs `ptovec run` (tools::RunDevice: reading, device, checking, results file) over every
// TCVT -> E8M0 vector of the default suite (FP16 and BF16 sources exhaustively, FP32 sampled:
// 3,235,008 vectors), in process, one thread:
//   arg 0  the device: 0 the oracle (a passing run); 1 the fault model e8m0-ceiling-every-mode
//          (the mutant e8m0_always_up: 750,258 vectors fail, in 16 symptom groups)
//   arg 1  0: --no-diagnosis (the report as it was before causes); 1: diagnosed
//   items_per_second   vectors run per second
//   mismatched         the run's mismatched vectors
// The cost is the ratio of the two rows of one device (issue 40: at most 1.25 on the failing
// device, 1.00 on the passing one).
// Run: build/bench/ptovec_bench_diagnosis [--benchmark_min_time=1]
#include <benchmark/benchmark.h>

#include <cstdint>
#include <filesystem>
#include <span>
#include <string>

#include "ptovec/generator/faults.hpp"
#include "ptovec/generator/suite.hpp"
#include "ptovec/tools/causes.hpp"
#include "ptovec/tools/check.hpp"
#include "ptovec/tools/device.hpp"
#include "ptovec/tools/run.hpp"

namespace {

namespace fs = std::filesystem;
using namespace ptovec;

// The vectors, generated once into a temporary folder.
const fs::path& Vectors() {
  static const fs::path folder = [] {
    const fs::path dir = fs::temp_directory_path() / "ptovec-bench-diagnosis";
    fs::remove_all(dir);
    generator::GenerateOptions options;
    options.out_dir = dir;
    generator::GenerateSuite(tools::SelectRunJobs("tcvt", "", "e8m0"), options);
    return dir;
  }();
  return folder;
}

// The oracle, or the oracle with one fault model, in process.
class FaultDevice : public tools::Device {
 public:
  explicit FaultDevice(const generator::FaultModel* fault) : fault_(fault) {}
  const std::string& Name() const override { return name_; }
  void Evaluate(std::span<const generator::Case> cases,
                std::span<tools::DeviceAnswer> answers) override {
    for (std::size_t i = 0; i < cases.size(); ++i) {
      answers[i] = {true, fault_ ? generator::EvaluateFault(*fault_, cases[i])
                                 : generator::EvaluateOracle(cases[i])};
    }
  }

 private:
  const generator::FaultModel* fault_;
  std::string name_ = "bench-fault";
};

void BM_RunDiagnosis(benchmark::State& state) {
  FaultDevice device(state.range(0) != 0 ? generator::FindFaultModel("e8m0-ceiling-every-mode")
                                         : nullptr);
  generator::VectorSelection vectors;
  vectors.paths = {Vectors()};
  tools::RunOptions options;
  options.results = Vectors().parent_path() / "ptovec-bench-diagnosis.bin";
  options.threads = 1;
  options.judge.diagnose = state.range(1) != 0;
  std::uint64_t run = 0;
  std::uint64_t mismatched = 0;
  std::size_t causes = 0;
  for (auto _ : state) {
    const tools::CheckReport report = tools::RunDevice(device, vectors, options);
    causes = tools::Causes(report).size();  // what the text report computes
    mismatched = report.mismatched;
    run += report.vectors;
  }
  state.SetItemsProcessed(static_cast<std::int64_t>(run));
  state.counters["mismatched"] = static_cast<double>(mismatched);
  state.counters["causes"] = static_cast<double>(causes);
  fs::remove(options.results);
}
BENCHMARK(BM_RunDiagnosis)
    ->ArgsProduct({{0, 1}, {0, 1}})
    ->ArgNames({"faulty", "diagnosed"})
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();

}  // namespace

BENCHMARK_MAIN();
