// `ptovec shrink`: the property "device equals oracle" over an op's input space. A pair whose whole
// space is small (an exhaustive 8- or 16-bit source, at most kEnumerableCases cases) is enumerated
// in the suite's order and its simplest failing case (SimplicityKey) is found exactly; a larger
// space is sampled with RapidCheck from OpDef::input_space (the default suite's weighted
// strategies plus uniform), shrunk by RapidCheck's shrink tree and then toward the simplest case
// by moves that keep the rounding situation (SimplerMoves). The same descent runs from a given
// case (`shrink --from RESULTS`).
#pragma once

#include <rapidcheck.h>

#include <array>
#include <compare>
#include <cstdint>
#include <filesystem>
#include <iosfwd>
#include <nlohmann/json.hpp>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "ptovec/tools/check.hpp"
#include "ptovec/tools/device.hpp"
#include "ptovec/tools/known_differences.hpp"
#include "ptovec/tools/simplicity.hpp"

namespace ptovec::tools {

using generator::OpDef;
using generator::TypePair;

/// The moves the descent after the shrink tree judges at `c`, in the order it judges them: the
/// local moves, simplest first (every near move, below, and at most kLocalMovesLimit others),
/// then the jump moves that are not
/// among them, simplest first (at most kJumpMovesLimit). The descent takes the first failing one
/// (so a failing jump is taken only when no local move fails) and repeats until none fails.
/// Local moves, which keep the rounding situation: for each floating input word with sign,
/// exponent and fraction fields, each integer word and each value field
/// (OpDef::value_fields), the same significand m at every other exponent the type represents
/// exactly, normal or subnormal (the same tie and sticky pattern relative to a destination
/// grid, at another binade), and simpler significands (m's top bits, m's top and lowest set
/// bits, 2^a + 1) at every exponent; two words (or fields) at once,
/// one moved d binades up and the other d down (a product of the two, as TQUANT's value x
/// scale, keeps its value); a word made simpler (a slot of at most 8 bits to any simpler value,
/// any word to zero) with any of the other non-zero words zeroed in the same move (fpatr:
/// relu_mode 2 -> 0 with relu_param -> 0, each alone outside the domain); then ShrinkCase's
/// candidates. Jump moves: m and 1 at every exponent with the other sign, and with every other
/// floating word or field set to +1 (a multiplier taken out); every word at once from a few
/// options each (a slot
/// OpDef::slot_values lists: those values; others: the word, zero, +/-1, 2, 0.5, the value cut
/// to one significant bit, another slot's floating value, or the product of the two), which
/// reach cases no local move reaches (fpatr: a scale carried into LReLU's parameter under mode
/// 0). The local moves begin with the case itself under every simpler control (any simpler mode,
/// not only a neighbour, and Sat off), so a local minimum has no simpler failing control. Near
/// moves, judged whatever the limit: the case under every simpler control, each word's
/// significand cut to its top k bits at the same exponent (toward and away from zero, every k,
/// under every control), and its own significand at every other exponent. A
/// move whose inputs alone are simpler (fewer non-zero words, significant bits or
/// exponent distance) is also offered under every other control `controls` selects (a simpler
/// value may fail under another mode only). Only cases strictly simpler than `c`, inside the
/// op's domain and under a control `controls` accepts.
inline constexpr std::size_t kLocalMovesLimit = 20000;
inline constexpr std::size_t kJumpMovesLimit = 20000;
std::vector<Case> SimplerMoves(const Case& c, const generator::ControlFilter& controls = {});

/// Whole input spaces of at most this many input tuples are enumerated (times the controls:
/// 14 for an op with controls), not sampled.
inline constexpr std::uint64_t kEnumerableCases = std::uint64_t{1} << 22;

/// The input tuples of `pair` when its whole space is enumerable, else 0: an exhaustive domain
/// plan (every code of an 8- or 16-bit source the op accepts: its domain count), or any op whose
/// slot widths add up to at most 22 bits (2^bits tuples, those outside the op's domain skipped
/// when enumerated).
std::uint64_t EnumerableInputs(const OpDef& op, TypePair pair);

/// The whole input space of an enumerable pair in the suite's order: the op's domain for an
/// exhaustive plan (code order), else every tuple of slot words with the last slot varying
/// fastest (tuples outside the op's domain included: callers skip them with check_domain).
/// Throws std::invalid_argument when EnumerableInputs(op, pair) is 0.
generator::InputSet EnumerableSpace(const OpDef& op, TypePair pair);

/// What `ShrinkProperty` runs.
struct ShrinkOptions {
  const OpDef* op = nullptr;
  std::optional<TypePair> pair;  ///< nullopt: any legal pair (shrinks toward the first)
  std::uint64_t seed = 1;        ///< rc::Random seed; the same seed gives the same run
  std::uint64_t tests = 10000;   ///< sampled tests before the property counts as passed (an
                                 ///< enumerable pair is enumerated whatever it says)
  std::size_t batch = 256;       ///< cases per Device::Evaluate call (never changes the result)
  std::uint64_t max_shrink_steps = 100000;  ///< safety cap on accepted shrinks
  /// Only these modes and Sat values are drawn (and shrunk toward the first of them); ops
  /// without controls ignore it. An input is drawn only with a control its op accepts for it
  /// (check_control) among these: see SelectShrinkPairs.
  generator::ControlFilter controls;
  /// What counts as a failure: a mismatch under its comparison policy that no known difference
  /// waives, unsupported only without allow_unsupported, of its signature and input classes
  /// when given (a device failure always counts).
  Judge judge;
};

/// `controls` with Sat narrowed to the one `judge.signature` fixes (SignatureSat), so that a
/// shrink of one triage group keeps the group's Sat: its draws, its moves and its enumeration
/// stay under it (the mode may still move). `controls` itself when the judge has no signature
/// or its signature names no Sat (an op without controls). Throws generator::InputError when
/// `controls` keeps no control of that Sat: "--signature names sat on, but --sat keeps Sat off
/// only".
generator::ControlFilter SignatureControls(const generator::ControlFilter& controls,
                                           const Judge& judge);

/// The pairs ShrinkProperty draws from under a control filter.
struct ShrinkSelection {
  /// In search order: each pair whole when every file group of it (generator::FilePairs) holds a
  /// control the filter keeps, else only its groups that hold one (fpatr s32 -> s16 under
  /// --sat on: pqm19-20, whose modes take Sat; pqm12-13's shift modes take RNE, Sat off only):
  /// their inputs alone are drawn, and cases are reported over the whole pair.
  std::vector<TypePair> pairs;
  /// The pairs, or groups of a pair, that hold no control the filter keeps (fpatr fp32 -> fp16
  /// under --rmode RTZ: its modes round RNE only), in order.
  std::vector<TypePair> left_out;
};

/// What ShrinkProperty searches for `op` (`pair`, or every legal pair) under `controls`; ops
/// without controls keep every pair. Throws generator::InputError, one line naming the filter and
/// what the pair accepts, when no pair is left (as `generate` refuses a selection with no file
/// left): "fpatr fp32 -> fp16 holds no control that --rmode/--sat keep (RTZ; Sat off and on): it
/// accepts [{"rmode":"RNE","sat":false},{"rmode":"RNE","sat":true}]".
ShrinkSelection SelectShrinkPairs(const OpDef& op, std::optional<TypePair> pair,
                                  const generator::ControlFilter& controls);

/// "fpatr fp32 -> fp16", with a file group "fpatr s32 -> s16 pqm12-13" (as `list` names it).
std::string PairName(const OpDef& op, TypePair pair);

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
  /// How each pair was searched, in search order (ShrinkProperty; ShrinkFrom: the enumerated
  /// pair, else empty).
  struct SearchPart {
    TypePair pair{};
    bool enumerated = false;    ///< every case of the pair (else sampled)
    std::uint64_t cases = 0;    ///< cases tested (inputs x controls when enumerated)
    std::uint64_t failing = 0;  ///< failing cases (enumerated; sampled: 0 or 1, it stops)
  };
  std::vector<SearchPart> search;
  const OpDef* op = nullptr;      ///< the op searched (set when `search` is not empty)
  std::size_t sampled_pairs = 0;  ///< how many pairs the sampled part drew from
  std::uint64_t seed = 1;         ///< the sampling seed (printed with a sampled part)
  /// `minimal` is the least failing case of its pair under the simplest-case order among all of
  /// the pair's cases (an enumerated pair), not only a local minimum.
  bool simplest = false;
  std::uint64_t order_steps = 0;  ///< accepted SimplerMoves steps after the shrink tree
  /// ShrinkProperty: the pairs or groups left out because they hold no selected control
  /// (ShrinkSelection::left_out).
  std::vector<TypePair> left_out;
};

/// Judges cases: for each, nullopt when the answer is no failure by `judge` (the device agrees
/// with the oracle on the word and the compared status bits, a known difference waives it, it
/// is unsupported and allowed, or it lacks the judge's signature or input class) or the oracle
/// rejects the inputs (outside the seed's domain: never reported), else the counterexample. A
/// case the device failed on (crashed, exited, hung) is always one. Evaluates through `device`
/// in one Evaluate call. Throws DeviceError.
std::vector<std::optional<Counterexample>> JudgeCases(Device& device, std::span<const Case> cases,
                                                      const Judge& judge = {});

/// The shrink candidates of a case, simplest first: the inputs (generator::ShrinkInputs: word by
/// word toward 0, smaller exponents and fractions, kept inside the op's domain), then every
/// simpler mode (RNE first), then Sat on -> off; ops without controls only the inputs.
/// The pair is kept.
rc::Seq<Case> ShrinkCase(const Case& c);

/// The shrink tree of a given case: rc::shrinkable::shrinkRecur(c, ShrinkCase). The property's
/// generator gives every generated case of a fixed pair this same tree.
rc::Shrinkable<Case> ShrinkableCase(const Case& c);

/// The property's generator: a legal pair (options.pair, or rc::gen::inRange over
/// op.legal_pairs, shrinking toward the first), inputs from op.input_space(pair), mode uniform
/// over the 7, or those `controls` keeps (shrinking toward the first: RNE), and Sat (toward off)
/// when op.uses_controls, else RNE, off. A control check_control refuses for the drawn inputs
/// becomes LegalControl's when `controls` keeps it, else the first kept control the inputs
/// accept (the pairs must hold one for every input: SelectShrinkPairs).
rc::Gen<Case> CaseGen(const OpDef& op, std::optional<TypePair> pair,
                      const generator::ControlFilter& controls = {});

/// Runs the property "device equals oracle" over SelectShrinkPairs(op, options.pair,
/// SignatureControls(options.controls, options.judge)) (the controls below are those: a
/// signature's Sat is kept; a pair, or group, holding no selected control is not searched: see
/// result.left_out). First every enumerable pair (options.pair, or each
/// enumerable legal pair in registry order; EnumerableInputs) is enumerated in the suite's order
/// (its domain's order, every selected control of an input before the next input), by blocks
/// through generator::EvaluateBatch and Device::EvaluateProduct; the first pair with a failing
/// case ends the search, and its result is the least failing case under the simplest-case order
/// (result.simplest). Otherwise (a pair that is not enumerable, or no failure in the enumerable
/// pairs of an any-pair run) options.tests cases are drawn from CaseGen over the remaining
/// pairs with rc::Random(options.seed) (size rc::kNominalSize); on the first failure it descends
/// the shrink tree as RapidCheck does (take the first failing candidate, repeat until none
/// fails), then SimplerMoves (take the simplest failing move, repeat until none fails). The final
/// case is evaluated twice more and must give the same wrong answer. Deterministic for a given
/// seed and device. Throws DeviceError (also "device is not deterministic: case X gave A
/// then B" when the final case does not fail the same way again); std::invalid_argument for a
/// missing op or an illegal pair; generator::InputError when the filter leaves no pair. Every
/// drawn and reported case's control is one options.controls keeps and check_control accepts.
ShrinkResult ShrinkProperty(Device& device, const ShrinkOptions& options);

/// From a given case: when its pair is enumerable, the pair is enumerated under every control and
/// the result is its least failing case in the simplest-case order (result.simplest; start itself
/// when nothing simpler fails); otherwise the same descent as ShrinkProperty
/// (ShrinkableCase(start), then SimplerMoves). result.failed is false (and nothing is searched)
/// when `start` is no failure by `judge`. Only controls `controls` accepts are moved to (start's
/// own must be one), and with a signature that names start's Sat only controls of that Sat
/// (SignatureControls). Throws DeviceError (as ShrinkProperty, also for a non-deterministic
/// device).
ShrinkResult ShrinkFrom(Device& device, const Case& start, std::uint64_t max_shrink_steps = 100000,
                        const Judge& judge = {}, const generator::ControlFilter& controls = {});

/// `shrink --from RESULTS`: the vector files a results file answers, one per section in its
/// order, each taken by name from `vectors` (--vectors: a folder, or the file itself) when given,
/// else from the paths the results header records (`ptovec run` writes them), else from the
/// results file's folder. Throws generator::InputError (one line) when the results file is
/// missing or a section's file is not found.
generator::VectorSelection ShrinkFromVectors(const std::filesystem::path& results,
                                             const std::string& vectors);

/// Which failures of a results file `shrink --from` starts from.
struct ShrinkFromFilter {
  const OpDef* op = nullptr;                   ///< --op: only this op's
  std::optional<generator::TileDataType> src;  ///< --src: only of this source type
  std::optional<generator::TileDataType> dst;  ///< --dst: only of this destination type
  bool triage = false;  ///< --triage: the first failure of each triage group, not of each pair
  bool filtered() const { return op != nullptr || src || dst; }
};

/// The failures `shrink --from` shrinks, as the judge sees them, in results order.
struct ShrinkStarts {
  CheckReport report;  ///< the results file checked against its vectors
  /// The first failure of each (op, pair), or with --triage of each cause (causes.hpp) and of
  /// each unsupported symptom group.
  std::vector<Mismatch> starts;
  /// Per start, with --triage: the signature text its failures must have (an unexplained cause:
  /// its first vector's symptom group; an unsupported group), for the start's judge.
  std::vector<std::optional<std::string>> signatures;
  /// Per start, with --triage: the explanation its failures must be reproduced by (an explained
  /// cause), for the start's judge (Judge::explanation).
  std::vector<std::optional<std::size_t>> explanations;
  /// Per start, with --triage: its cause's index in Causes(report) (unset: an unsupported group).
  std::vector<std::optional<std::size_t>> causes;
  /// Per start, with --triage: what it shrinks, "cause 1 of 3: NV never raised (430080 vectors)"
  /// or "unsupported group: <signature>".
  std::vector<std::string> labels;
  std::uint64_t failures = 0;  ///< mismatches, and unsupported answers unless allowed
};

/// Checks `results` against `vectors` under `judge` and `controls` and picks the starts: the
/// first failure of each (op, pair) (a wrong answer before an unsupported one of its pair), or
/// with filter.triage of each cause and of each unsupported group; an unsupported record is a
/// start only without
/// judge.allow_unsupported. Throws generator::InputError when a filter selects no section of the
/// results file at all ("no section for ... in ... (sections: ...)").
ShrinkStarts FindShrinkStarts(const generator::VectorSelection& vectors,
                              const std::filesystem::path& results, const ShrinkFromFilter& filter,
                              const Judge& judge, const generator::ControlFilter& controls);

/// ShrinkFrom of each start over its whole pair (a split pair's file group bounds a file, not
/// the search), under `judge` narrowed to the start's signature when it has one; then closes
/// the device (a device that fails at its end is an error, whatever it answered). Throws
/// generator::InputError when no start is reproduced, DeviceError as ShrinkFrom does.
std::vector<ShrinkResult> ShrinkEachStart(Device& device, const ShrinkStarts& starts,
                                          const std::filesystem::path& results, const Judge& judge,
                                          const generator::ControlFilter& controls);

/// What kind of minimum a result's counterexample is: "exact" (result.simplest: the least failing
/// case of its enumerated pair), "local" (result.local_minimum: no simpler move fails, in a
/// sampled search), "stopped" (the step limit came first) or "not reproduced" (nothing failed).
std::string_view MinimumKind(const ShrinkResult& result);

/// The report model's account of each start (CheckReport::shrunk, PrintShrunkSummary): start k's
/// cause, label (its pair's name, PairName, without --triage), the start itself, MinimumKind of
/// `shrunk[k]`, its counterexample when reproduced and `files[k]`, the file written for it.
std::vector<ShrunkCase> ShrunkCases(const ShrinkStarts& starts,
                                    const std::vector<ShrinkResult>& shrunk,
                                    const std::vector<std::string>& files);

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

/// One line of the search: "enumerated all 917,504 cases of tcvt fp16 -> e8m0: 856 fail", or
/// "sampled 1,000 cases of encode fp32 -> e4m3 with the default suite's strategies (seed 1): none
/// fails" (several sampled pairs: "tcvt (9 sampled pairs)"). result.op must be set.
std::string SearchLine(const ShrinkResult& result, const ShrinkResult::SearchPart& part);

/// The search lines of a result: SearchLine of each part, except that a run of two or more
/// enumerated pairs without a failure is one line ("enumerated all 57,161,768 cases of 140 pairs
/// of tcvt (fp16 -> fp32 .. u4x2 -> u4x2): none fails"). Empty when result.op is not set.
std::vector<std::string> SearchLines(const ShrinkResult& result);

/// The text report of a result: the search lines (SearchLines), then either "all N tests passed"
/// or the counterexample block (op, types, inputs by slot name in hex, rmode, sat, expected and
/// got with flag names, the eval command, tests and steps), the line "minimised in the order:
/// <kSimplestOrderName>", and "simplest: yes (...)" for an enumerated pair (the least failing
/// case of the whole pair), else "local minimum: yes (N simpler moves checked, none fails)" or
/// "local minimum: no (...)" (a simpler failing case may exist elsewhere in a sampled space).
void PrintShrinkResult(std::ostream& out, const ShrinkResult& result);

}  // namespace ptovec::tools
