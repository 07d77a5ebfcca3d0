// The causes of a report's failures (ptovec/tools/causes.hpp): a greedy cover of the diagnosis
// cells by explanations, then coarse signatures for what nothing explains.
#include "ptovec/tools/causes.hpp"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "gate/cover.hpp"
#include "ptovec/tools/compare.hpp"
#include "ptovec/tools/simplicity.hpp"
#include "report/report_text.hpp"

namespace ptovec::tools {

namespace {

bool Earlier(const Mismatch& a, const Mismatch& b) {
  return std::tie(a.section, a.index) < std::tie(b.section, b.index);
}

// Adds `count` vectors of group `group` to a cause.
void AddGroup(Cause& cause, std::size_t group, std::uint64_t count) {
  auto it = std::find_if(cause.groups.begin(), cause.groups.end(),
                         [group](const auto& g) { return g.first == group; });
  if (it == cause.groups.end()) {
    cause.groups.emplace_back(group, count);
  } else {
    it->second += count;
  }
}

void AddCell(Cause& cause, const DiagnosisCell& cell) {
  if (cause.count == 0 || Earlier(cell.first, cause.first)) cause.first = cell.first;
  // The simplest of the cells' first vectors (ties: the first in run order).
  if (cause.count == 0 || Simpler(cell.first.c, cause.simplest.c) ||
      (!Simpler(cause.simplest.c, cell.first.c) && Earlier(cell.first, cause.simplest))) {
    cause.simplest = cell.first;
  }
  cause.count += cell.count;
  AddGroup(cause, cell.group, cell.count);
}

// What an explanation is ranked by besides the vectors it reproduces (computed once each).
struct TieKey {
  std::uint64_t contradictions;  // ExplanationContradictions
  bool generic;                  // not a fault model
  std::uint64_t scope;           // ExplanationScope
};

// The explanation with the best score (the uncovered vectors it reproduces less those it
// contradicts) among those reproducing any; nullopt when none does.
std::optional<std::size_t> BestExplanation(const CheckReport& report,
                                           const std::vector<bool>& covered,
                                           std::vector<std::optional<TieKey>>& ties) {
  const std::span<const Explanation> all = AllExplanations();
  std::vector<std::uint64_t> counts(all.size(), 0);
  for (std::size_t i = 0; i < report.cells.size(); ++i) {
    if (covered[i]) continue;
    const ExplanationSet& set = report.cells[i].explains;
    for (std::size_t k = 0; k < all.size(); ++k) {
      if (set.test(k)) counts[k] += report.cells[i].count;
    }
  }
  // The score: vectors reproduced less the vectors it contradicts; ties: a fault model before a
  // generic explanation (it names the bug more narrowly), a smaller scope, the catalogue's order.
  const auto key = [&](std::size_t k) {
    if (!ties[k]) {
      ties[k] = TieKey{ExplanationContradictions(k, report),
                       all[k].kind != Explanation::Kind::Fault, ExplanationScope(all[k], report)};
    }
    return std::make_tuple(
        static_cast<std::int64_t>(ties[k]->contradictions) - static_cast<std::int64_t>(counts[k]),
        ties[k]->generic, ties[k]->scope);
  };
  std::optional<std::size_t> best;
  for (std::size_t k = 0; k < all.size(); ++k) {
    if (counts[k] > 0 && (!best || key(k) < key(*best))) best = k;
  }
  return best;
}

std::string CoarseText(const CheckReport& report, const Mismatch& m) {
  std::string text = std::string(m.c.op->name) + " " + text::TypeName(m.c.pair.src) + " -> " +
                     text::TypeName(m.c.pair.dst);
  if (m.c.op->uses_controls) text += m.c.control.saturating ? ", sat on" : ", sat off";
  text += ": word " + std::string(WordDifferenceName(m.signature.word));
  if (report.judge.policy.flags != 0) {
    text += "; flags " + FlagDifferenceText(m.signature.expected_flags, m.signature.got_flags);
  }
  return text;
}

}  // namespace

std::uint64_t ExplanationScope(const Explanation& e, const CheckReport& report) {
  std::uint64_t scope = 0;
  for (const FileTally& f : report.per_file) {
    for (std::size_t k = 0; k < f.controls.size(); ++k) {
      if (f.controls[k].total == 0) continue;
      Case c;
      c.op = f.op;
      c.pair = f.pair;
      c.control = {static_cast<oracle::NumericRoundingMode>(k / 2), k % 2 == 1};
      if (ExplanationApplies(e, c)) scope += f.controls[k].total;
    }
  }
  return scope;
}

std::uint64_t SampledContradictions(const Explanation& e, const ControlTally& tally,
                                    const generator::ComparePolicy& policy) {
  if (tally.matched_samples.empty() || !ExplanationApplies(e, tally.matched_samples[0].first)) {
    return 0;
  }
  // The device answered these as the oracle does: an explanation answering otherwise (as the
  // policy compares) contradicts it.
  std::uint64_t differ = 0;
  for (const auto& [c, expected] : tally.matched_samples) {
    if (ExplanationDiffers(e, c, expected, policy)) ++differ;
  }
  return differ;
}

std::uint64_t ExplanationContradictions(std::size_t k, const CheckReport& report) {
  const Explanation& e = AllExplanations()[k];
  // Its support: the (op, pair)s where it reproduces a failing vector.
  std::vector<std::pair<const generator::OpDef*, generator::TypePair>> support;
  for (const DiagnosisCell& cell : report.cells) {
    if (!cell.explains.test(k)) continue;
    const TriageGroup& g = report.groups[cell.group];
    if (std::find(support.begin(), support.end(), std::make_pair(g.op, g.pair)) == support.end()) {
      support.emplace_back(g.op, g.pair);
    }
  }
  std::uint64_t contradictions = 0;
  const generator::ComparePolicy& policy = report.judge.policy;
  for (const FileTally& f : report.per_file) {
    if (std::find(support.begin(), support.end(), std::make_pair(f.op, f.pair.Whole())) ==
        support.end()) {
      continue;
    }
    for (const ControlTally& tally : f.controls) {
      // Scaled from the samples to the slice's matched vectors.
      const std::uint64_t differ = SampledContradictions(e, tally, policy);
      if (differ == 0) continue;
      const std::uint64_t matched = tally.total - tally.failed() - tally.waived;
      contradictions += differ * matched / tally.matched_samples.size();
    }
  }
  return contradictions;
}

namespace {

// The cause of explanation k in `causes`, added when there is none yet.
Cause& CauseOf(std::vector<Cause>& causes, std::vector<ExplanationSet>& common, std::size_t k) {
  for (std::size_t i = 0; i < causes.size(); ++i) {
    if (causes[i].explanation == k) return causes[i];
  }
  Cause cause;
  cause.explanation = k;
  cause.text = AllExplanations()[k].name;
  causes.push_back(std::move(cause));
  common.emplace_back().set();
  return causes.back();
}

}  // namespace

std::vector<Cause> Causes(const CheckReport& report) {
  std::vector<Cause> causes;
  std::vector<ExplanationSet> common;  // per cause: the explanations reproducing all its cells
  std::vector<bool> covered(report.cells.size(), false);
  const auto take = [&](std::size_t k, std::size_t i) {
    Cause& cause = CauseOf(causes, common, k);
    covered[i] = true;
    common[static_cast<std::size_t>(&cause - causes.data())] &= report.cells[i].explains;
    AddCell(cause, report.cells[i]);
  };
  // First the cheapest cover by consistent explanations, then greedily for what is left.
  for (const cover::Member& m : cover::ConsistentCover(report)) {
    for (std::size_t i : m.cells) take(m.explanation, i);
  }
  std::vector<std::optional<TieKey>> ties(AllExplanations().size());
  while (const std::optional<std::size_t> best = BestExplanation(report, covered, ties)) {
    for (std::size_t i = 0; i < report.cells.size(); ++i) {
      if (!covered[i] && report.cells[i].explains.test(*best)) take(*best, i);
    }
  }
  for (std::size_t c = 0; c < causes.size(); ++c) {
    for (std::size_t k = 0; k < AllExplanations().size(); ++k) {
      if (k != causes[c].explanation && common[c].test(k)) causes[c].equally.push_back(k);
    }
  }
  std::stable_sort(causes.begin(), causes.end(),
                   [](const Cause& a, const Cause& b) { return a.count > b.count; });
  // What nothing explains, by coarse signature in order of first sight.
  std::map<std::string, std::size_t> coarse;
  for (std::size_t i = 0; i < report.cells.size(); ++i) {
    if (covered[i]) continue;
    const std::string text = CoarseText(report, report.cells[i].first);
    auto [it, added] = coarse.emplace(text, causes.size());
    if (added) {
      Cause cause;
      cause.text = text;
      causes.push_back(std::move(cause));
    }
    AddCell(causes[it->second], report.cells[i]);
  }
  for (Cause& c : causes) std::sort(c.groups.begin(), c.groups.end());
  return causes;
}

}  // namespace ptovec::tools
