// ptovec coverage's report (ptovec/tools/coverage_report.hpp): the scope (which pairs and control
// slots are required), the JSON document and the text tables, from the generator's counts.
#include "ptovec/tools/coverage_report.hpp"

#include <algorithm>
#include <array>
#include <bit>
#include <iomanip>
#include <ostream>
#include <string>
#include <utility>
#include <vector>

#include "ptovec/generator/coverage.hpp"
#include "ptovec/generator/readers.hpp"
#include "ptovec/oracle/edition.hpp"

namespace ptovec::tools {
namespace {

using namespace ptovec::generator;
using Json = nlohmann::ordered_json;

// A pair in scope with the control slots it is required under.
struct ScopedPair {
  PairCoverage cov;
  std::uint16_t slots = 0;  // control slots in scope
  bool in_default = false;  // a pair of the default suite
};

// The pairs in scope and how much of the default suite the vectors hold.
struct Scope {
  std::vector<ScopedPair> pairs;
  std::size_t scope_controls = 0;  // (pair, control) of the default suite
  std::size_t held_controls = 0;   // of those, the ones the vectors hold
  std::size_t outside = 0;         // pairs the vectors hold outside the default suite
  oracle::Edition edition = oracle::kDefaultEdition;  // whose default suite
};

// The cells counted over every pair, and the missing lines in order.
struct Tally {
  std::vector<std::string> missing;
  std::uint64_t reachable_cells = 0;
  std::uint64_t hit_cells = 0;
};

std::string ControlLabel(std::size_t slot) {
  return std::string(oracle::RoundingModeName(oracle::kAllRoundingModes[slot / 2])) +
         (slot % 2 ? "/S" : "/-");
}

std::string SlotModeName(std::size_t slot) {
  return std::string(oracle::RoundingModeName(oracle::kAllRoundingModes[slot / 2]));
}

// The control slots under which the vectors hold a pair.
std::uint16_t PresentSlots(const PairCoverage& p) {
  std::uint16_t m = 0;
  for (std::size_t s = 0; s < kControlSlots; ++s) {
    if (p.vectors[s] != 0) m = static_cast<std::uint16_t>(m | 1U << s);
  }
  return m;
}

// The counted pair of the default suite's pair d (marking it used), or none (no vectors).
PairCoverage TakeCounted(const ScopePair& d, const std::vector<PairCoverage>& counted,
                         std::vector<bool>& used) {
  const std::string key = PairKey(*d.op, d.pair);
  PairCoverage cov{d.op, d.pair, {}, {}};
  for (std::size_t k = 0; k < counted.size(); ++k) {
    if (!used[k] && PairKey(*counted[k].op, counted[k].pair) == key) {
      cov = counted[k];
      used[k] = true;
    }
  }
  return cov;
}

// --scope default: the default suite's pairs and controls, in its order (absent ones with no
// vectors), then any other pair the vectors hold; --scope present: what the vectors hold.
Scope ScopeOf(const std::vector<PairCoverage>& counted, bool whole_default,
              oracle::Edition edition) {
  Scope scope;
  scope.edition = edition;
  std::vector<bool> used(counted.size(), false);
  for (const ScopePair& d : DefaultSuiteScope(edition)) {
    ScopedPair sp{TakeCounted(d, counted, used), d.slots, true};
    const std::uint16_t held = PresentSlots(sp.cov);
    scope.scope_controls += static_cast<std::size_t>(std::popcount(d.slots));
    scope.held_controls += static_cast<std::size_t>(std::popcount<std::uint16_t>(held & d.slots));
    if (whole_default) {
      sp.slots = static_cast<std::uint16_t>(sp.slots | held);
      scope.pairs.push_back(sp);
    } else if (held != 0) {
      sp.slots = held;
      scope.pairs.push_back(sp);
    }
  }
  for (std::size_t k = 0; k < counted.size(); ++k) {
    if (used[k]) continue;
    scope.pairs.push_back({counted[k], PresentSlots(counted[k]), false});
    ++scope.outside;
  }
  return scope;
}

// What one pair's table and JSON read: its classes, reachability and the slots in scope.
struct PairView {
  const PairCoverage& p;
  std::vector<CoverageClass> classes;
  std::array<ClassMask, kControlSlots> reach;
  std::vector<std::size_t> slots;
  std::string name;  // "op src -> dst"
  bool absent = false;
  bool has_witnesses = false;
};

PairView ViewOf(const ScopedPair& sp) {
  const PairCoverage& p = sp.cov;
  PairView v{p, CoverageClasses(*p.op, p.pair), ReachableClasses(*p.op, p.pair), {}, {}, {}, {}};
  v.has_witnesses = std::any_of(v.reach.begin(), v.reach.end(), [](ClassMask m) { return m != 0; });
  for (std::size_t s = 0; s < kControlSlots; ++s) {
    if ((sp.slots >> s) & 1U) v.slots.push_back(s);
  }
  v.name = p.op->name + " " + std::string(oracle::Format(p.pair.src).name) + " -> " +
           std::string(oracle::Format(p.pair.dst).name);
  v.absent = PresentSlots(p) == 0;
  return v;
}

// One control of a pair: its JSON object. Counts its cells into the tally, adds a missing line
// per reachable class not hit under a control the vectors hold (and one for the control when
// they hold the pair but not it), and sets control_missing to the number of reachable classes
// under a control they do not hold.
Json ControlJson(const PairView& v, std::size_t s, Tally& tally, std::size_t& control_missing) {
  Json jc;
  const std::string rmode = SlotModeName(s);
  jc["rmode"] = rmode;
  jc["sat"] = s % 2 == 1;
  jc["vectors"] = v.p.vectors[s];
  Json counts = Json::array();
  Json reachable = Json::array();
  control_missing = 0;
  for (const CoverageClass& c : v.classes) {
    const std::uint64_t n = v.p.counts[s][c.bit];
    const bool r = v.reach[s].test(c.bit);
    counts.push_back(n);
    reachable.push_back(r);
    if (!r) continue;
    ++tally.reachable_cells;
    if (n > 0) {
      ++tally.hit_cells;
    } else if (v.p.vectors[s] != 0) {
      tally.missing.push_back(v.name + " " + rmode + " Sat " + (s % 2 ? "on" : "off") + ": " +
                              c.name);
    } else {
      ++control_missing;
    }
  }
  if (v.p.vectors[s] == 0 && !v.absent) {
    tally.missing.push_back(v.name + " " + rmode + " Sat " + (s % 2 ? "on" : "off") +
                            ": no vectors (" + std::to_string(control_missing) +
                            " reachable classes; the default suite holds this control)");
  }
  jc["counts"] = counts;
  jc["reachable"] = reachable;
  return jc;
}

// One pair's JSON object, its cells counted into the tally.
Json PairJson(const ScopedPair& sp, const PairView& v, Tally& tally) {
  Json jp;
  jp["op"] = v.p.op->name;
  jp["src"] = std::string(oracle::Format(v.p.pair.src).name);
  jp["dst"] = std::string(oracle::Format(v.p.pair.dst).name);
  jp["default_suite"] = sp.in_default;
  jp["witnesses"] = v.has_witnesses;
  Json names = Json::array();
  for (const CoverageClass& c : v.classes) names.push_back(c.name);
  jp["classes"] = names;
  Json jcontrols = Json::array();
  std::size_t absent_reachable = 0;
  for (std::size_t s : v.slots) {
    std::size_t control_missing = 0;
    jcontrols.push_back(ControlJson(v, s, tally, control_missing));
    absent_reachable += control_missing;
  }
  if (v.absent) {
    tally.missing.push_back(v.name + ": no vectors (" + std::to_string(v.slots.size()) +
                            (v.slots.size() == 1 ? " control, " : " controls, ") +
                            std::to_string(absent_reachable) +
                            " reachable classes; the default suite holds this pair)");
  }
  jp["controls"] = jcontrols;
  return jp;
}

// One pair's table: a row per class, a column per control in scope; a count, MISSING (reachable,
// not hit) or '.' (no witness shows it reachable).
void PrintPairTable(const PairView& v, std::ostream& out) {
  if (v.absent) {
    out << v.name << ": no vectors (a pair of the default suite)\n";
    return;
  }
  out << v.name << (v.has_witnesses ? "" : " (no witness table for this pair)") << "\n";
  out << "  " << std::left << std::setw(40) << "class" << std::right;
  for (std::size_t s : v.slots) out << std::setw(9) << ControlLabel(s);
  out << "\n";
  for (const CoverageClass& c : v.classes) {
    out << "  " << std::left << std::setw(40) << c.name.substr(0, 39) << std::right;
    for (std::size_t s : v.slots) {
      const std::uint64_t n = v.p.counts[s][c.bit];
      const bool r = v.reach[s].test(c.bit);
      out << std::setw(9)
          << (n > 0 ? std::to_string(n)
              : r   ? std::string("MISSING")
                    : std::string("."));
    }
    out << "\n";
  }
}

// The lines after the tables: the scope, each missing class, the summary.
void PrintSummary(const CoverageRequest& request, const Scope& scope, const Tally& tally,
                  std::ostream& out) {
  out << "scope: "
      << (request.scope == "default"
              ? "the default suite's pairs and controls (--scope present: only those the "
                "vectors hold); "
              : "only the pairs and controls the vectors hold (--scope present); ")
      << "the vectors hold " << scope.held_controls << " of the default suite's "
      << (scope.edition == oracle::kDefaultEdition
              ? ""
              : "(edition " + std::string(oracle::EditionName(scope.edition)) + ") ")
      << scope.scope_controls << " (op, types, mode, Sat)"
      << (scope.outside ? " and " + std::to_string(scope.outside) + " pair(s) outside it" : "")
      << "\n";
  for (const std::string& m : tally.missing) out << "missing: " << m << "\n";
  out << "coverage: " << tally.hit_cells << " of " << tally.reachable_cells
      << " reachable (op, types, mode, Sat, class) cells hit by a vector; "
      << tally.reachable_cells - tally.hit_cells << " not hit, in " << tally.missing.size()
      << " `missing:` line(s)" << (tally.missing.empty() ? "" : " above")
      << " ('.': no witness shows the class reachable under that "
         "control)\n";
}

}  // namespace

CoverageReport ReportCoverage(const CoverageRequest& request, std::ostream& out) {
  VectorSelection selection;
  for (const std::string& v : request.vectors) selection.paths.emplace_back(v);
  selection.edition = request.edition;
  const std::vector<PairCoverage> counted = CountCoverage(selection);
  // The vectors' edition (CountCoverage reads one only), else the one asked for.
  const oracle::Edition edition =
      counted.empty() ? request.edition.value_or(oracle::kDefaultEdition) : counted[0].op->edition;
  const Scope scope = ScopeOf(counted, request.scope == "default", edition);

  CoverageReport report;
  Json& j = report.json;
  j["format"] = "ptovec-coverage";
  j["version"] = 2;
  j["vectors"] = request.vectors;
  j["scope"] = request.scope;
  Json jpairs = Json::array();
  Tally tally;
  for (const ScopedPair& sp : scope.pairs) {
    const PairView v = ViewOf(sp);
    jpairs.push_back(PairJson(sp, v, tally));
    if (!request.quiet) PrintPairTable(v, out);
  }
  j["missing"] = tally.missing;
  PrintSummary(request, scope, tally, out);
  j["pairs"] = jpairs;
  j["reachable_cells"] = tally.reachable_cells;
  j["hit_cells"] = tally.hit_cells;
  report.missing = std::move(tally.missing);
  return report;
}

}  // namespace ptovec::tools
