// The mutant devices: one per fault model of the product's catalogue
// (generator/include/ptovec/generator/faults.hpp, generator/src/faults): the oracle with one
// injected fault of a kind seen in real conversion hardware and software. Each mutant is built as
// its own shared library (ptovec_mutant_<name>, tests/mutants/mutant_dut.cpp implementing
// include/ptovec_dut.h) and is driven through `ptovec run` and `ptovec shrink` to prove that the
// default suite and the shrinker catch it (tests/mutants/run_mutants.py, docs/mutants.md).
//
// This header adapts the catalogue to the test harness: it adds where `ptovec shrink` looks for
// each fault and which part of the default suite the CI proof runs (mutants.cpp).
#pragma once

#include <span>
#include <string>
#include <string_view>

#include "ptovec/generator/cases.hpp"
#include "ptovec/generator/faults.hpp"

namespace ptovec::mutants {

using generator::Case;
using oracle::Encoded;

/// One mutant: a fault model and the harness's fields.
struct MutantInfo {
  const generator::FaultModel* fault = nullptr;  ///< the product's fault model
  std::string_view name;     ///< fault->mutant: the library's ptovec_dut_name(): "ties_away"
  std::string_view models;   ///< fault->models: one line, the real bug it models
  std::string_view affects;  ///< fault->affects: the ops and pairs where it can differ
  /// Where `ptovec shrink` looks for it: op, source and destination type names.
  std::string_view shrink_op;
  std::string_view shrink_src;
  std::string_view shrink_dst;
  /// fault->ops, comma-separated: the ops whose default-suite files can show the fault.
  std::string ops;
  /// Optional: `ptovec run` selection options (only --src, --dst, --rmode and --sat) narrowing
  /// the CI proof's run over the files of `ops` to a part that shows the fault, to keep its time
  /// small: "--dst e4m3", "--src s8 --rmode RNE". Empty: every vector of those files.
  std::string_view run_selection;
};

/// Every mutant, in the catalogue's order (generator::AllFaultModels, docs/mutants.md).
std::span<const MutantInfo> AllMutants();

/// The mutant named `name` (its mutant name), or nullptr.
const MutantInfo* FindMutant(std::string_view name);

/// The oracle's answer for a case (the op's bulk evaluation).
using generator::EvaluateOracle;

/// The mutant's answer for the same case (generator::EvaluateFault of its fault model).
Encoded EvaluateMutant(const MutantInfo& mutant, const Case& c);

}  // namespace ptovec::mutants
