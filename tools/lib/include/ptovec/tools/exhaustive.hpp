// `ptovec run --exhaustive`: every input of one (op, src, dst) streamed through a device with no
// vector file: the oracle computes each expected result as the device answers, and only counts
// and the first mismatches are kept (a per-case results file of every FP32 word would be
// hundreds of GB).
#pragma once

#include <optional>

#include "ptovec/generator/ops.hpp"
#include "ptovec/generator/shard.hpp"
#include "ptovec/generator/writers.hpp"
#include "ptovec/tools/check.hpp"
#include "ptovec/tools/device.hpp"

namespace ptovec::tools {

struct ExhaustiveOptions {
  const OpDef* op = nullptr;
  TypePair pair{};
  generator::ControlFilter controls;               ///< --rmode/--sat (default: all)
  std::optional<generator::ShardSelection> shard;  ///< this shard of the input codes
  unsigned threads = 0;  ///< 0: one per core (device calls serialized unless ThreadSafe())
  std::size_t max_report = 20;
  bool progress = false;  ///< progress with a projected finish time on stderr
  Judge judge;            ///< the comparison policy and known differences
};

/// The input codes of `pair` for `op`: every word of the source type's width (2^32 for FP32),
/// of which those outside the op's domain (encode: NaN and Inf codes) are skipped. Throws
/// generator::InputError for an op with more than one input slot (tquant, affine, ...: their
/// input space is a product of several words, sampled, not enumerated) or a source wider than
/// 32 bits.
std::uint64_t ExhaustiveCodeCount(const OpDef& op, TypePair pair);

/// Runs every input code (or the shard's range of them, ShardRange::Of over the codes) under
/// every selected control through `device` and compares with the oracle (op.evaluate_batch or
/// evaluate). The report has one file tally named "<op>_<src>_<dst> (exhaustive)"; a mismatch's
/// index is its case number (code position in the run x controls + control). The same report
/// whatever the thread count. Throws DeviceError as RunDevice does; a DeviceFailure (crash, exit,
/// hang on a case) ends the run with the report of the rounds before, incomplete, the failure in
/// device_failures.
CheckReport RunExhaustive(Device& device, const ExhaustiveOptions& options);

}  // namespace ptovec::tools
