// Diagnosis: causes instead of symptoms. For each failing vector of a check or run the gate asks a
// catalogue of exact candidate explanations which of them reproduce the device's answer (under
// the comparison policy): flags in the reverse order; each behaviour-model deviation alone (the
// invalid-integer word under each named convention); each rounding mode computed as another, and
// every mode as one; Sat ignored or always on; no status flags, or one flag never raised; double
// rounding through FP32, BF16 or FP16; and the fault models of generator/faults.hpp that are not
// one of those generic explanations. The failing vectors with the same set of reproducing
// explanations form a cell (per triage group). The causes (causes.hpp) are first the cheapest
// exact cover of the cells by explanations consistent where they are used (gate/cover.hpp), then
// a greedy cover of what is left: again and again the explanation with the best score, the failing
// vectors not yet covered it reproduces, less the vectors the device got right that it would have
// answered otherwise (estimated from a sample of each file, mode and Sat); ties: a fault model
// before a generic explanation, then the one that could have changed the fewest of the run's
// vectors, then the catalogue's order. Each pick is a cause. Cells no explanation reproduces fall
// back to a coarse signature (op, pair, Sat, word difference, flag difference) that lists their
// triage groups. docs/bring-up.md, "Diagnosis".
//
// Cost: a failing vector of a triage group is asked every applicable explanation while the group
// has had fewer than kDiagnosisFullVectors such vectors; afterwards only the explanations that
// reproduced one of them, and all again (up to kDiagnosisFullMax per group) when none of those
// does. Once kDiagnosisStreak vectors in a row of a group and control (mode and Sat) share
// explanations that reproduce each of them, only the first of those is asked, and a vector it
// reproduces counts for them all (never for one that reproduced only some of the streak); every
// kDiagnosisCheckEvery-th vector is still asked every alive explanation, and a vector the first
// one does not reproduce ends the shortcut for that group and control. A passing vector costs
// nothing.
#pragma once

#include <array>
#include <bitset>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "ptovec/generator/cases.hpp"
#include "ptovec/generator/compare_policy.hpp"
#include "ptovec/generator/faults.hpp"
#include "ptovec/tools/device.hpp"

namespace ptovec::tools {

/// One candidate explanation of a device's failures.
struct Explanation {
  enum class Kind : std::uint8_t {
    FlagsReversed,  ///< the right word, the status's five bits in reverse order (NX .. NV)
    FlagsDropped,   ///< the right word, the status without the bits of `dropped`
    Generic,        ///< generator::EvaluateGeneric(generic)
    Fault,          ///< generator::EvaluateFault(*fault) where fault->applies
  };
  Kind kind = Kind::Generic;
  generator::GenericExplanation generic;         ///< Kind::Generic
  const generator::FaultModel* fault = nullptr;  ///< Kind::Fault
  oracle::Status dropped = 0;                    ///< Kind::FlagsDropped: the flags never raised
  /// The report's words: "flags in reverse order (NX .. NV, RISC-V fflags)", "no status flags
  /// (every status 0)", "NV never raised", "mode RTO as RTZ",
  /// "every mode as RTZ", "Sat ignored", "double rounding through FP16", "deviation
  /// ieee-overflow", "deviation invalid-integer (clamp)", "fault e8m0-floor-every-mode".
  std::string name;
};

/// The most explanations a catalogue may hold (the width of an ExplanationSet).
inline constexpr std::size_t kMaxExplanations = 256;
/// Bit k: AllExplanations()[k] reproduces the answer.
using ExplanationSet = std::bitset<kMaxExplanations>;

/// Every candidate explanation, in the fixed order ties are broken by (the simplest first): flags
/// reversed, no flags, each flag never raised, the deviations, Sat, one mode as another, every mode
/// as one, double rounding, then the fault models of kind Own and NarrowedGeneric in catalogue
/// order (those of kind Generic are their generic explanation, already listed).
std::span<const Explanation> AllExplanations();

/// Cheap: whether `e` can change the answer of some case of (c.op, c.pair, c.control) (its
/// inputs are not read). False, for instance, for a mode-as explanation of another mode.
bool ExplanationApplies(const Explanation& e, const Case& c);

/// Whether `e` reproduces `got` for case `c` (oracle answer `expected`) as `policy` compares:
/// false where `e` does not apply or answers as the oracle does, or when its evaluation throws.
/// The flag explanations (flags reversed, flags dropped) transform `base` instead of `expected`:
/// the answer of the known-difference model the run is judged with, where it differs from the
/// profile (Judge::DiagnosisBase), so that a device that follows the model but drops NX is "NX
/// never raised" on the model's overflows too.
bool Explains(const Explanation& e, const Case& c, const Encoded& expected, const DeviceAnswer& got,
              const generator::ComparePolicy& policy, const Encoded& base);
inline bool Explains(const Explanation& e, const Case& c, const Encoded& expected,
                     const DeviceAnswer& got, const generator::ComparePolicy& policy) {
  return Explains(e, c, expected, got, policy, expected);
}

/// Whether `e` answers case `c` otherwise than the oracle's `expected` as `policy` compares (false
/// where it does not apply, or its evaluation throws).
bool ExplanationDiffers(const Explanation& e, const Case& c, const Encoded& expected,
                        const generator::ComparePolicy& policy);

/// Failing vectors of a triage group asked every applicable explanation before the group's
/// explanations are narrowed to those that reproduced one of them.
inline constexpr std::uint32_t kDiagnosisFullVectors = 8;
/// The most vectors per triage group asked every applicable explanation.
inline constexpr std::uint32_t kDiagnosisFullMax = 64;

/// Vectors in a row of a triage group with the same reproducing set before only the set's first
/// explanation is asked (the header's "Cost").
inline constexpr std::uint32_t kDiagnosisStreak = 256;
/// During that shortcut, one vector in this many is still asked every explanation of the set.
inline constexpr std::uint64_t kDiagnosisCheckEvery = 16;

/// Asks the explanations about the failing vectors of each triage group (adaptively: the header's
/// "Cost"). Not thread-safe: one per accumulator.
class Diagnoser {
 public:
  /// The explanations that reproduce `got` for failing case `c` of triage group `group`.
  /// `base`: as Explains takes it.
  ExplanationSet Ask(std::size_t group, const Case& c, const Encoded& expected,
                     const DeviceAnswer& got, const generator::ComparePolicy& policy,
                     const Encoded& base);

 private:
  struct Alive {
    std::uint16_t id;        // index in AllExplanations()
    std::uint16_t controls;  // bit mode * 2 + Sat: the controls of the group's pair it applies to
  };
  // Per control (mode * 2 + Sat) of a group: the shortcut of the header's "Cost".
  struct Streak {
    ExplanationSet common;    // the explanations every vector of the streak was reproduced by
    std::uint32_t count = 0;  // vectors in a row that share at least one explanation
    std::uint64_t asked = 0;  // vectors asked since the shortcut began
    bool shortcut = false;    // only the set's first explanation is asked
    std::size_t lead = 0;     // the first explanation of `common` (the shortcut asks it alone)
  };
  struct Group {
    std::vector<Alive> alive;  // explanations that reproduced a vector of the group
    std::uint32_t full = 0;    // vectors asked every applicable explanation
    std::array<Streak, 14> streaks{};
  };
  ExplanationSet AskAlive(Group& g, const Case& c, const Encoded& expected, const DeviceAnswer& got,
                          const generator::ComparePolicy& policy, const Encoded& base);
  ExplanationSet AskAll(Group& g, const Case& c, const Encoded& expected, const DeviceAnswer& got,
                        const generator::ComparePolicy& policy, const Encoded& base);
  std::vector<Group> groups_;
};

}  // namespace ptovec::tools
