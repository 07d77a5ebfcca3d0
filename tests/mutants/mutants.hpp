// The mutant catalog: devices equal to the oracle except for one injected fault of a kind seen in
// real conversion hardware and software. Each mutant is built as its own shared library
// (ptovec_mutant_<name>, tests/mutants/mutant_dut.cpp implementing include/ptovec_dut.h)
// and is driven through `ptovec run` and `ptovec shrink` to prove that the default suite and the
// shrinker catch it (tests/mutants/run_mutants.py, docs/mutants.md).
//
// Every fault is built on the oracle's public fast paths (oracle/include/ptovec/oracle/fast.hpp)
// and the op registry (generator/include/ptovec/generator/ops.hpp) by transforming the inputs,
// the controls, the exact value or the result, so that it behaves like the described bug; none
// uses cpp_rational, so a mutant evaluates a case about as fast as the oracle's bulk path.
#pragma once

#include <span>
#include <string_view>

#include "ptovec/generator/cases.hpp"

namespace ptovec::mutants {

using generator::Case;
using oracle::Encoded;

/// One mutant of the catalog.
struct MutantInfo {
  std::string_view name;     ///< the library's ptovec_dut_name() and CMake suffix: "ties_away"
  std::string_view models;   ///< one line: the real bug it models
  std::string_view affects;  ///< the ops and pairs where it can differ from the oracle
  /// Where `ptovec shrink` looks for it: op, source and destination type names.
  std::string_view shrink_op;
  std::string_view shrink_src;
  std::string_view shrink_dst;
  /// The ops (comma-separated registry names) whose default-suite files can show the fault.
  std::string_view ops;
  /// Optional: `ptovec run` selection options (only --src, --dst, --rmode and --sat) narrowing
  /// the CI proof's run over the files of `ops` to a part that shows the fault, to keep its time
  /// small: "--dst e4m3", "--src s8 --rmode RNE". Empty: every vector of those files.
  std::string_view run_selection = {};
};

/// Every mutant, in a fixed order (the order of docs/mutants.md).
std::span<const MutantInfo> AllMutants();

/// The mutant named `name`, or nullptr.
const MutantInfo* FindMutant(std::string_view name);

/// The oracle's answer for a case: the op's bulk evaluation (`Case::op->evaluate`), the result
/// word as the destination's element-width encoding (low bits) and the 5-bit status.
/// Throws what the op throws for inputs outside the seed's domain.
Encoded EvaluateOracle(const Case& c);

/// The mutant's answer for the same case (same shapes as EvaluateOracle). Equal to
/// EvaluateOracle wherever the fault does not apply. `mutant` must come from AllMutants().
Encoded EvaluateMutant(const MutantInfo& mutant, const Case& c);

}  // namespace ptovec::mutants
