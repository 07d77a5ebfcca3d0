// `ptovec run --exhaustive` (exhaustive.hpp): blocks of consecutive input codes, one block per
// thread per round; each block's expected results come from the oracle's batch path, its answers
// from the device (calls serialized unless the device is thread-safe), and its report is added to
// the run's in block order, so the report is the same whatever the thread count.
#include "ptovec/tools/exhaustive.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <ctime>
#include <functional>
#include <iostream>
#include <mutex>
#include <span>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "ptovec/generator/cases.hpp"
#include "ptovec/generator/shard.hpp"
#include "ptovec/generator/suite.hpp"
#include "ptovec/generator/word_text.hpp"
#include "ptovec/tools/parallel_rounds.hpp"

namespace ptovec::tools {

namespace {

using generator::InputError;
using generator::Inputs;
using generator::NumericExecutionControl;

// Inputs per block (one thread's share of a round), and per part of a block (see the job).
constexpr std::uint64_t kBlockInputs = 16384;
constexpr std::uint64_t kPartInputs = 256;

// One thread's buffers, reused block after block.
struct Worker {
  std::vector<Inputs> inputs;
  std::vector<std::uint64_t> positions;  // each input's code position in the run
  std::vector<Encoded> expected;
  std::vector<DeviceAnswer> answers;
  CheckReport report;
};

}  // namespace

std::uint64_t ExhaustiveCodeCount(const OpDef& op, TypePair pair) {
  if (op.slots.size() != 1) {
    throw InputError("--exhaustive enumerates ops of one input word (tcvt, encode); " + op.name +
                     " takes " + std::to_string(op.slots.size()) +
                     " inputs, whose product is sampled, not enumerated");
  }
  const unsigned width = oracle::Format(pair.src).width;
  if (width > 32) {
    throw InputError("--exhaustive enumerates sources of at most 32 bits; " +
                     std::string(oracle::Format(pair.src).name) + " has " + std::to_string(width));
  }
  return std::uint64_t{1} << width;
}

namespace {

std::string Duration(double seconds) {
  const auto s = static_cast<long long>(seconds);
  char text[32];
  std::snprintf(text, sizeof text, "%lld:%02lld:%02lld", s / 3600, s / 60 % 60, s % 60);
  return text;
}

// One exhaustive run's fixed parts, shared by its threads.
struct ExhaustiveRun {
  Device& device;
  const ExhaustiveOptions& options;
  const OpDef& op;
  TypePair pair;
  std::uint64_t codes;  // ExhaustiveCodeCount's (it throws first for an op it cannot run)
  std::vector<NumericExecutionControl> controls;
  generator::ShardRange range;
  std::string name;          // "<op>_<src>_<dst> (exhaustive)"
  std::uint64_t blocks = 0;  // blocks of kBlockInputs inputs
  std::uint64_t part_inputs = 0;
  bool serial = false;  // device calls one at a time
  std::mutex device_mutex;

  ExhaustiveRun(Device& d, const ExhaustiveOptions& o)
      : device(d),
        options(o),
        op(*o.op),
        pair(o.pair),
        codes(ExhaustiveCodeCount(op, pair)),
        controls(o.controls.ControlsOf(op, pair)) {
    range = o.shard ? generator::ShardRange::Of(o.shard->index, o.shard->of, codes)
                    : generator::ShardRange{0, 1, 0, codes};
    name = generator::JobBaseName({&op, pair}) + " (exhaustive)";
    blocks = (range.inputs + kBlockInputs - 1) / kBlockInputs;
    serial = !device.ThreadSafe();
    part_inputs = std::max<std::uint64_t>(
        kPartInputs, device.BatchCases() / std::max<std::size_t>(controls.size(), 1));
  }

  // The inputs of positions first..last inside the op's domain (encode: no NaN, Inf) into w.
  void GatherInputs(Worker& w, std::uint64_t first, std::uint64_t last) const {
    w.inputs.clear();
    w.positions.clear();
    for (std::uint64_t p = first; p < last; ++p) {
      const Inputs in{range.first_input + p, 0, 0, 0};
      if (op.check_domain(pair, in)) continue;
      w.inputs.push_back(in);
      w.positions.push_back(p);
    }
  }

  // Throws DeviceError for the first answer of w with flags beyond bit 4 (which never match an
  // expected status: looked for only in a part where something did not match).
  void CheckFlagBits(const Worker& w) const {
    const std::size_t nc = controls.size();
    for (std::size_t j = 0; j < w.answers.size(); ++j) {
      const DeviceAnswer& a = w.answers[j];
      if (a.supported && (a.result.status & ~kStatusBits) != 0) {
        Case x;
        x.op = &op;
        x.pair = pair;
        x.in = w.inputs[j / nc];
        x.control = controls[j % nc];
        throw DeviceError("device " + device.Name() + " answered flags " +
                          generator::HexStatus(a.result.status) + " for case: " +
                          generator::EvalCommand(x) + " (only bits 4:0 NV DZ OF UF NX may be set)");
      }
    }
  }

  // Positions first..last: expected results, the device's answers, tallied into acc.
  void RunPart(Worker& w, CheckAccumulator& acc, std::uint64_t first, std::uint64_t last) {
    const std::size_t nc = controls.size();
    GatherInputs(w, first, last);
    const std::size_t n = w.inputs.size();
    w.expected.resize(n * nc);
    generator::EvaluateBatch(op, pair, w.inputs.data(), n, controls, w.expected.data());
    w.answers.assign(n * nc, DeviceAnswer{});
    const std::span<const Inputs> inputs(w.inputs.data(), n);
    if (serial) {
      const std::lock_guard lock(device_mutex);
      device.EvaluateProduct(op, pair, inputs, controls, w.answers);
    } else {
      device.EvaluateProduct(op, pair, inputs, controls, w.answers);
    }
    const std::uint64_t unmatched = acc.AddProduct(op, pair, inputs, w.positions, controls,
                                                   w.expected.data(), w.answers.data());
    if (unmatched > 0) CheckFlagBits(w);
  }

  // Block `block` into w.report (empty past the last block). The block in parts small enough
  // that a part's cases, answers and expected results stay in cache between the oracle, the
  // device and the tally; a device in another process (the device host) gets parts as large as
  // one of its round trips carries.
  void RunBlock(Worker& w, std::uint64_t block) {
    w.report = {};
    if (block >= blocks) return;
    const std::uint64_t block_first = block * kBlockInputs;
    const std::uint64_t block_last = std::min(range.inputs, block_first + kBlockInputs);
    CheckAccumulator acc(options.max_report, {}, options.judge);
    acc.BeginFile(name, op, pair, 0);
    for (std::uint64_t first = block_first; first < block_last; first += part_inputs) {
      RunPart(w, acc, first, std::min(block_last, first + part_inputs));
    }
    w.report = acc.Finish();
  }

  // The progress line after the rounds up to round_end (blocks), with a projected finish.
  void ShowProgress(std::uint64_t round_end, std::uint64_t vectors, double seconds) const {
    const std::uint64_t done = std::min(blocks, round_end) * kBlockInputs;
    const double fraction =
        static_cast<double>(std::min(done, range.inputs)) / static_cast<double>(range.inputs);
    const double left = seconds / fraction - seconds;
    const std::time_t finish = std::time(nullptr) + static_cast<std::time_t>(left);
    char clock[16];
    std::strftime(clock, sizeof clock, "%H:%M:%S", std::localtime(&finish));
    std::cerr << "\rptovec: " << name << ": " << static_cast<int>(fraction * 1000) / 10.0 << "% of "
              << range.inputs << " inputs, "
              << static_cast<std::uint64_t>(static_cast<double>(vectors) / seconds)
              << " cases/s, finish in " << Duration(left) << " (at " << clock << ")   "
              << std::flush;
  }
};

// The report of the rounds before a device failure (exit 1).
CheckReport StoppedByDeviceFailure(CheckReport total, const Device& device,
                                   const DeviceFailure& e) {
  total.device = device.Name();
  total.incomplete = "the device failed, the run stopped early";
  total.device_failures.push_back(e.what());
  if (!total.per_file.empty()) total.per_file.front().count = total.vectors;
  return total;
}

}  // namespace

CheckReport RunExhaustive(Device& device, const ExhaustiveOptions& options) {
  ExhaustiveRun run(device, options);
  const unsigned threads =
      options.threads != 0 ? options.threads : std::max(1U, std::thread::hardware_concurrency());
  std::vector<Worker> workers(threads);
  std::uint64_t round_first = 0;  // the first block of the current round
  const std::function<void(unsigned)> job = [&](unsigned k) {
    run.RunBlock(workers[k], round_first + k);
  };

  CheckReport total = CheckAccumulator(0, {}, options.judge).Finish();  // judged as the parts
  ParallelRounds pool(threads);
  const auto start = std::chrono::steady_clock::now();
  auto last_shown = start;
  for (round_first = 0; round_first < run.blocks; round_first += threads) {
    try {
      pool.Run(job);
    } catch (const DeviceFailure& e) {
      // The device crashed, exited or hung on a case.
      return StoppedByDeviceFailure(std::move(total), device, e);
    }
    for (Worker& w : workers) AppendReport(total, std::move(w.report), options.max_report);
    const auto now = std::chrono::steady_clock::now();
    if (options.progress && now - last_shown >= std::chrono::seconds(1)) {
      last_shown = now;
      run.ShowProgress(round_first + threads, total.vectors,
                       std::chrono::duration<double>(now - start).count());
    }
  }
  if (options.progress) std::cerr << "\n";
  if (total.vectors == 0) {
    throw InputError("--exhaustive " + run.name +
                     (options.shard ? " shard " + generator::ShardName(*options.shard) : "") +
                     " has no input inside the op's domain (nothing to run)");
  }
  total.per_file.front().count = total.vectors;
  total.device = device.Name();
  DeviceThroughput& t = total.throughput.emplace();
  t.cases = total.vectors;
  t.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  t.threads =
      device.ThreadSafe() ? static_cast<unsigned>(std::min<std::uint64_t>(threads, run.blocks)) : 1;
  t.clocks = device.Clocks();
  return total;
}

}  // namespace ptovec::tools
