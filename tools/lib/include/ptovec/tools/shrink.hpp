// `ptovec shrink`: the RapidCheck property "device equals oracle" over an op's whole input space
// (OpDef::input_space: every named sampling strategy plus uniform), shrunk by RapidCheck's shrink
// tree to a counterexample none of whose shrink candidates fails; and the same greedy descent
// from a given case (`shrink --from RESULTS`).
#pragma once

#include <rapidcheck.h>

#include <cstdint>
#include <filesystem>
#include <iosfwd>
#include <nlohmann/json.hpp>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "ptovec/tools/device.hpp"

namespace ptovec::tools {

using generator::OpDef;
using generator::TypePair;

/// One case the device got wrong: the oracle's answer and the device's.
struct Counterexample {
  Case c;              ///< op, pair, mode, Sat, inputs (element-width words)
  Encoded expected{};  ///< the oracle (generator::EvaluateCase): word at the dst width, status
  DeviceAnswer got{};  ///< the device (word masked to the dst width), or unsupported
  /// Non-empty when the device failed on the case itself (crashed, exited or hung:
  /// DeviceFailure's message); `got` is then unsupported.
  std::string failure;
};

/// What `ShrinkProperty` runs.
struct ShrinkOptions {
  const OpDef* op = nullptr;
  std::optional<TypePair> pair;  ///< nullopt: any legal pair (shrinks toward the first)
  std::uint64_t seed = 1;        ///< rc::Random seed; the same seed gives the same run
  std::uint64_t tests = 10000;   ///< successful tests before the property counts as passed
  std::size_t batch = 256;       ///< cases per Device::Evaluate call (never changes the result)
  std::uint64_t max_shrink_steps = 100000;  ///< safety cap on accepted shrinks
  /// Only these modes and Sat values are drawn (and shrunk toward the first of them); ops
  /// without controls ignore it.
  generator::ControlFilter controls;
};

/// The outcome of a property run or of a descent from a given case.
struct ShrinkResult {
  bool failed = false;                     ///< a counterexample was found
  std::uint64_t tests = 0;                 ///< cases tested (the passing ones plus the failing one)
  std::optional<Counterexample> original;  ///< the first failing case, before shrinking
  std::optional<Counterexample> minimal;   ///< the shrunk counterexample
  std::uint64_t shrink_steps = 0;          ///< accepted shrinks (original -> minimal)
  std::uint64_t candidates_tried = 0;      ///< shrink candidates evaluated in all
  /// every shrink candidate of `minimal` agrees with the oracle (a local minimum of the shrink
  /// tree; a simpler failing case outside the tree may exist)
  bool local_minimum = false;
  std::uint64_t minimal_candidates = 0;  ///< how many candidates of `minimal` were checked
};

/// Judges cases: for each, nullopt when the device agrees with the oracle (word at the dst width
/// and status) or the oracle rejects the inputs (outside the seed's domain: never reported),
/// else the counterexample. Evaluates through `device` in one Evaluate call. Throws DeviceError.
std::vector<std::optional<Counterexample>> JudgeCases(Device& device, std::span<const Case> cases);

/// The shrink candidates of a case, simplest first: the inputs (generator::ShrinkInputs: word by
/// word toward 0, smaller exponents and fractions, kept inside the op's domain), then the mode
/// toward RNE (rc::shrink::towards), then Sat on -> off; ops without controls only the inputs.
/// The pair is kept.
rc::Seq<Case> ShrinkCase(const Case& c);

/// The shrink tree of a given case: rc::shrinkable::shrinkRecur(c, ShrinkCase). The property's
/// generator gives every generated case of a fixed pair this same tree.
rc::Shrinkable<Case> ShrinkableCase(const Case& c);

/// The property's generator: a legal pair (options.pair, or rc::gen::inRange over
/// op.legal_pairs, shrinking toward the first), inputs from op.input_space(pair), mode uniform
/// over the 7 (shrinking toward RNE) and Sat (toward off) when op.uses_controls, else RNE, off.
rc::Gen<Case> CaseGen(const OpDef& op, std::optional<TypePair> pair);

/// Runs the property "device equals oracle" for options.tests cases drawn from CaseGen with
/// rc::Random(options.seed) (size rc::kNominalSize), and on the first failure descends the shrink
/// tree as RapidCheck does (take the first failing candidate, repeat until none fails), then
/// evaluates the final case twice more and requires the same wrong answer. Deterministic for a
/// given seed and device. Throws DeviceError (also "device is not deterministic: case X gave A
/// then B" when the final case does not fail the same way again); std::invalid_argument for a
/// missing op or an illegal pair.
ShrinkResult ShrinkProperty(Device& device, const ShrinkOptions& options);

/// The same descent from a given case (ShrinkableCase(start)). result.failed is false (and
/// nothing is shrunk) when the device agrees with the oracle on `start`. Throws DeviceError (as
/// ShrinkProperty, also for a non-deterministic device).
ShrinkResult ShrinkFrom(Device& device, const Case& start, std::uint64_t max_shrink_steps = 100000);

/// Writes a counterexample as a one-vector file (the expected result is the oracle's) with the
/// generator writers, atomically: binary, or JSON when `json`. Header domain "sampled", seed
/// `seed`. Throws std::runtime_error when the file cannot be written.
void WriteCounterexampleFile(const std::filesystem::path& path, const Counterexample& cx, bool json,
                             std::uint64_t seed);

/// "shrunk-<op>-<src>-<dst>.bin" (".json" when `json`).
std::string DefaultCounterexampleFileName(const Case& c, bool json);

/// {"op","src","dst","rmode","sat","in":{slot: hex},"expected":{"out","flags"},
///  "got":{"out","flags"} or "unsupported","eval"}.
nlohmann::ordered_json CounterexampleJson(const Counterexample& cx);

/// The text report of a result: either "all N tests passed" or the counterexample block (op,
/// types, inputs by slot name in hex, rmode, sat, expected and got with flag names, the eval
/// command, tests and shrink steps, and the line "local minimum: yes (N shrink candidates
/// checked, none fails)" or "local minimum: no (...)"). A local minimum of the shrink tree, not
/// a global one: a simpler failing case may exist elsewhere in the input space.
void PrintShrinkResult(std::ostream& out, const ShrinkResult& result);

}  // namespace ptovec::tools
