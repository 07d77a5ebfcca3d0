// The diagnosis's catalogue of candidate explanations and the adaptive asking of them
// (ptovec/tools/diagnosis.hpp). The cover that turns answers into causes is in causes.cpp.
#include "ptovec/tools/diagnosis.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <cstddef>
#include <cstdint>
#include <exception>
#include <optional>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "ptovec/generator/writers.hpp"
#include "ptovec/oracle/behaviour.hpp"
#include "ptovec/oracle/edition.hpp"
#include "ptovec/oracle/formats.hpp"
#include "ptovec/oracle/rounding.hpp"
#include "ptovec_dut.h"

namespace ptovec::tools {

namespace {

using generator::GenericExplanation;
using generator::GenericKind;
using oracle::Deviation;
using oracle::NumericRoundingMode;

constexpr std::array<NumericRoundingMode, 7> kModes = {
    NumericRoundingMode::RNE, NumericRoundingMode::RTM, NumericRoundingMode::RTP,
    NumericRoundingMode::RTZ, NumericRoundingMode::RNA, NumericRoundingMode::RTO,
    NumericRoundingMode::RHB};

std::string Upper(std::string_view s) {
  std::string u(s);
  for (char& ch : u) ch = static_cast<char>(std::toupper(static_cast<unsigned char>(ch)));
  return u;
}

Explanation Generic(GenericExplanation g, std::string name) {
  Explanation e;
  e.kind = Explanation::Kind::Generic;
  e.generic = g;
  e.name = std::move(name);
  return e;
}

void AddDeviations(std::vector<Explanation>& all) {
  for (const oracle::DeviationInfo& d : oracle::AllDeviations()) {
    GenericExplanation g;
    g.kind = GenericKind::Deviation;
    g.deviation = d.deviation;
    const std::string name = "deviation " + std::string(d.name);
    if (d.deviation == Deviation::InvalidInteger) {
      for (const auto w :
           {oracle::InvalidIntegerWord::Clamp, oracle::InvalidIntegerWord::Indefinite,
            oracle::InvalidIntegerWord::ClampNaNZero}) {
        g.invalid_integer = w;
        all.push_back(
            Generic(g, name + " (" + std::string(oracle::InvalidIntegerWordName(w)) + ")"));
      }
    } else if (d.deviation == Deviation::E4M3InfNaN) {
      for (const auto w : {oracle::NaNWord::PositiveQuiet, oracle::NaNWord::NegativeQuiet}) {
        g.nan = w;
        all.push_back(Generic(g, name + " (NaN " + std::string(oracle::NaNWordName(w)) + ")"));
      }
    } else {
      all.push_back(Generic(g, name));
    }
  }
}

void AddControls(std::vector<Explanation>& all) {
  GenericExplanation sat;
  sat.kind = GenericKind::SatIgnored;
  all.push_back(Generic(sat, "Sat ignored"));
  sat.kind = GenericKind::SatAlwaysOn;
  all.push_back(Generic(sat, "Sat always on"));
  for (const NumericRoundingMode from : kModes) {
    for (const NumericRoundingMode to : kModes) {
      if (from == to) continue;
      GenericExplanation g;
      g.kind = GenericKind::ModeAs;
      g.from = from;
      g.to = to;
      all.push_back(Generic(g, "mode " + std::string(oracle::RoundingModeName(from)) + " as " +
                                   std::string(oracle::RoundingModeName(to))));
    }
  }
  for (const NumericRoundingMode to : kModes) {
    GenericExplanation g;
    g.kind = GenericKind::ModeAs;
    g.to = to;
    all.push_back(Generic(g, "every mode as " + std::string(oracle::RoundingModeName(to))));
  }
  for (const auto through :
       {oracle::TileDataType::FP32, oracle::TileDataType::BF16, oracle::TileDataType::FP16}) {
    GenericExplanation g;
    g.kind = GenericKind::DoubleRounding;
    g.through = through;
    all.push_back(Generic(g, "double rounding through " + Upper(oracle::Format(through).name)));
  }
  for (const oracle::Edition edition : oracle::kAllEditions) {
    GenericExplanation g;
    g.kind = GenericKind::EditionAs;
    g.edition = edition;
    all.push_back(Generic(g, "the rules of edition " + std::string(oracle::EditionName(edition))));
  }
}

std::vector<Explanation> BuildCatalogue() {
  std::vector<Explanation> all;
  Explanation reversed;
  reversed.kind = Explanation::Kind::FlagsReversed;
  reversed.name = "flags in reverse order (NX .. NV, RISC-V fflags)";
  all.push_back(reversed);
  Explanation flagless;
  flagless.kind = Explanation::Kind::FlagsDropped;
  flagless.dropped = 0x1F;
  flagless.name = "no status flags (every status 0)";
  all.push_back(flagless);
  for (unsigned bit = 0; bit < 5; ++bit) {
    Explanation never;
    never.kind = Explanation::Kind::FlagsDropped;
    never.dropped = static_cast<oracle::Status>(1U << bit);
    never.name = generator::FlagNames(never.dropped) + " never raised";
    all.push_back(never);
  }
  AddDeviations(all);
  AddControls(all);
  for (const generator::FaultModel& f : generator::AllFaultModels()) {
    if (f.kind == generator::FaultKind::Generic) continue;
    Explanation e;
    e.kind = Explanation::Kind::Fault;
    e.fault = &f;
    e.name = "fault " + std::string(f.name);
    all.push_back(std::move(e));
  }
  return all;
}

}  // namespace

std::span<const Explanation> AllExplanations() {
  static const std::vector<Explanation> all = [] {
    std::vector<Explanation> v = BuildCatalogue();
    if (v.size() > kMaxExplanations) std::terminate();  // kMaxExplanations must grow with it
    return v;
  }();
  return all;
}

bool ExplanationApplies(const Explanation& e, const Case& c) {
  switch (e.kind) {
    case Explanation::Kind::FlagsReversed:
    case Explanation::Kind::FlagsDropped:
      return true;
    case Explanation::Kind::Fault:
      return e.fault->applies(*c.op, c.pair);
    case Explanation::Kind::Generic:
      break;
  }
  const GenericExplanation& g = e.generic;
  const NumericRoundingMode mode = c.control.rounding_mode;
  switch (g.kind) {
    case GenericKind::ModeAs:
      return c.op->uses_controls && mode != g.to && (!g.from || mode == *g.from);
    case GenericKind::SatIgnored:
      return c.op->uses_controls && c.control.saturating;
    case GenericKind::SatAlwaysOn:
      return c.op->uses_controls && !c.control.saturating;
    case GenericKind::DoubleRounding:
      return c.op->name == "encode" && oracle::Format(c.pair.dst).IsFloating() &&
             c.pair.src != g.through && c.pair.dst != g.through &&
             oracle::Format(g.through).fraction_bits > oracle::Format(c.pair.dst).fraction_bits;
    case GenericKind::Deviation:
      return static_cast<bool>(c.op->evaluate_model);
    case GenericKind::EditionAs:
      return generator::EditionAsOp(g.edition, c) != nullptr;
    case GenericKind::None:
      break;
  }
  return false;
}

namespace {

// The answer of `e` for `c`, which it applies to, or nullopt when its evaluation throws (e.g.
// fpatr under a control its input does not allow).
std::optional<Encoded> ApplicableAnswer(const Explanation& e, const Case& c,
                                        const Encoded& expected, const Encoded& base) {
  try {
    switch (e.kind) {
      case Explanation::Kind::FlagsReversed:
        return Encoded{base.word,
                       ptovec_dut_flags_to_spec(base.status, PTOVEC_DUT_FLAG_ORDER_RISCV)};
      case Explanation::Kind::FlagsDropped:
        return Encoded{base.word, static_cast<oracle::Status>(base.status & ~e.dropped)};
      case Explanation::Kind::Fault:
        return generator::EvaluateFault(*e.fault, c);
      case Explanation::Kind::Generic:
        return generator::EvaluateGeneric(e.generic, c).value_or(expected);
    }
  } catch (const std::exception&) {
    return std::nullopt;
  }
  return expected;
}

// Whether answer `a` (of an explanation) reproduces `got` and differs from the oracle's.
bool Reproduces(const std::optional<Encoded>& a, const Encoded& expected, const DeviceAnswer& got,
                const generator::ComparePolicy& policy) {
  return got.supported && a && !(*a == expected) && a->word == got.result.word &&
         policy.FlagsMatch(a->status, got.result.status);
}

// The control slot (mode * 2 + Sat) of a case.
unsigned ControlSlot(const Case& c) {
  return static_cast<unsigned>(c.control.rounding_mode) * 2 + (c.control.saturating ? 1U : 0U);
}

}  // namespace

bool Explains(const Explanation& e, const Case& c, const Encoded& expected, const DeviceAnswer& got,
              const generator::ComparePolicy& policy, const Encoded& base) {
  return got.supported && ExplanationApplies(e, c) &&
         Reproduces(ApplicableAnswer(e, c, expected, base), expected, got, policy);
}

bool ExplanationDiffers(const Explanation& e, const Case& c, const Encoded& expected,
                        const generator::ComparePolicy& policy) {
  if (!ExplanationApplies(e, c)) return false;
  const std::optional<Encoded> a = ApplicableAnswer(e, c, expected, expected);
  return a && (a->word != expected.word || !policy.FlagsMatch(a->status, expected.status));
}

ExplanationSet Diagnoser::AskAll(Group& g, const Case& c, const Encoded& expected,
                                 const DeviceAnswer& got, const generator::ComparePolicy& policy,
                                 const Encoded& base) {
  ++g.full;
  ExplanationSet found;
  const std::span<const Explanation> all = AllExplanations();
  for (std::size_t k = 0; k < all.size(); ++k) {
    if (!Explains(all[k], c, expected, got, policy, base)) continue;
    found.set(k);
    const auto id = static_cast<std::uint16_t>(k);
    if (std::any_of(g.alive.begin(), g.alive.end(), [id](const Alive& a) { return a.id == id; })) {
      continue;
    }
    // The controls of the group's (op, pair) it applies to, asked once.
    Alive added{id, 0};
    Case at = c;
    for (unsigned slot = 0; slot < 14; ++slot) {
      at.control = {static_cast<oracle::NumericRoundingMode>(slot / 2), slot % 2 == 1};
      if (ExplanationApplies(all[k], at)) added.controls |= static_cast<std::uint16_t>(1U << slot);
    }
    g.alive.push_back(added);
  }
  return found;
}

ExplanationSet Diagnoser::AskAlive(Group& g, const Case& c, const Encoded& expected,
                                   const DeviceAnswer& got, const generator::ComparePolicy& policy,
                                   const Encoded& base) {
  ExplanationSet found;
  const std::span<const Explanation> all = AllExplanations();
  const unsigned slot = ControlSlot(c);
  for (const Alive& a : g.alive) {
    if (((a.controls >> slot) & 1U) != 0 &&
        Reproduces(ApplicableAnswer(all[a.id], c, expected, base), expected, got, policy)) {
      found.set(a.id);
    }
  }
  if (found.none() && g.full < kDiagnosisFullMax) {
    return AskAll(g, c, expected, got, policy, base);
  }
  return found;
}

ExplanationSet Diagnoser::Ask(std::size_t group, const Case& c, const Encoded& expected,
                              const DeviceAnswer& got, const generator::ComparePolicy& policy,
                              const Encoded& base) {
  if (groups_.size() <= group) groups_.resize(group + 1);
  Group& g = groups_[group];
  if (g.full < kDiagnosisFullVectors) return AskAll(g, c, expected, got, policy, base);
  Streak& streak = g.streaks[ControlSlot(c)];
  if (streak.shortcut && ++streak.asked % kDiagnosisCheckEvery != 0) {
    // The streak's first explanation alone (it applies to this control, as it reproduced the
    // streak's vectors); where it does not reproduce, the shortcut ends.
    if (Reproduces(ApplicableAnswer(AllExplanations()[streak.lead], c, expected, base), expected,
                   got, policy)) {
      return streak.common;
    }
    streak.shortcut = false;
  }
  const ExplanationSet found = AskAlive(g, c, expected, got, policy, base);
  if ((found & streak.common).any()) {
    streak.common &= found;
    if (++streak.count >= kDiagnosisStreak && !streak.shortcut) {
      streak.shortcut = true;
      streak.asked = 0;
      streak.lead = 0;
      while (!streak.common.test(streak.lead)) ++streak.lead;
    }
  } else {
    streak.common = found;
    streak.count = 1;
    streak.shortcut = false;
  }
  return found;
}

}  // namespace ptovec::tools
