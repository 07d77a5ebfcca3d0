// The cheapest exact cover of the diagnosis cells by consistent explanations (gate/cover.hpp):
// a depth-first search that always branches on the first cell not yet covered.
#include "gate/cover.hpp"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <tuple>
#include <utility>
#include <vector>

#include "ptovec/tools/causes.hpp"
#include "ptovec/tools/diagnosis.hpp"

namespace ptovec::tools::cover {

namespace {

using PairKey = std::pair<const generator::OpDef*, generator::TypePair>;
using Bits = std::vector<std::uint64_t>;

// Whether some sampled matched vector of file `f` contradicts `e` (where `e` applies).
bool Contradicted(const Explanation& e, const FileTally& f,
                  const generator::ComparePolicy& policy) {
  return std::any_of(f.controls.begin(), f.controls.end(), [&](const ControlTally& tally) {
    return SampledContradictions(e, tally, policy) > 0;
  });
}

struct Candidate {
  std::size_t explanation = 0;
  std::vector<std::size_t> cells;  // indices in report.cells, ascending
  Bits bits;                       // the same over the cover's cell numbering
  std::uint64_t vectors = 0;
  unsigned cost = 1;
  bool generic = false;
  std::uint64_t scope = 0;
};

// Explanation k narrowed to the pairs of its support where it is consistent; nullopt when there
// are none.
std::optional<Candidate> Narrowed(std::size_t k, const CheckReport& report) {
  const Explanation& e = AllExplanations()[k];
  const generator::ComparePolicy& policy = report.judge.policy;
  const auto pair_of = [&](const FileTally& f) { return PairKey(f.op, f.pair.Whole()); };
  std::vector<PairKey> support;
  for (const DiagnosisCell& cell : report.cells) {
    const TriageGroup& g = report.groups[cell.group];
    if (cell.explains.test(k) &&
        std::find(support.begin(), support.end(), PairKey(g.op, g.pair)) == support.end()) {
      support.emplace_back(g.op, g.pair);
    }
  }
  std::vector<PairKey> contradicted;
  bool scoped = false;
  for (const FileTally& f : report.per_file) {
    const bool in_support = std::find(support.begin(), support.end(), pair_of(f)) != support.end();
    if ((in_support || !scoped) && Contradicted(e, f, policy)) {
      scoped = true;
      if (in_support) contradicted.push_back(pair_of(f));
    }
  }
  Candidate c;
  c.explanation = k;
  for (std::size_t i = 0; i < report.cells.size(); ++i) {
    const DiagnosisCell& cell = report.cells[i];
    const TriageGroup& g = report.groups[cell.group];
    if (!cell.explains.test(k) || std::find(contradicted.begin(), contradicted.end(),
                                            PairKey(g.op, g.pair)) != contradicted.end()) {
      continue;
    }
    c.cells.push_back(i);
    c.vectors += cell.count;
  }
  if (c.cells.empty()) return std::nullopt;
  c.cost = scoped ? 2 : 1;
  c.generic = e.kind != Explanation::Kind::Fault;
  c.scope = ExplanationScope(e, report);
  return c;
}

// The search's order of covers: cost, generic members, summed scope, then the members' indices.
using CoverKey = std::tuple<unsigned, unsigned, std::uint64_t, std::vector<std::size_t>>;

class Search {
 public:
  Search(std::vector<Candidate>& candidates, std::size_t cells)
      : candidates_(candidates), words_((cells + 63) / 64), by_cell_(cells) {
    for (std::size_t j = 0; j < candidates_.size(); ++j) {
      for (std::size_t b = 0; b < cells; ++b) {
        if (candidates_[j].bits[b / 64] >> (b % 64) & 1U) by_cell_[b].push_back(j);
      }
    }
    full_.assign(words_, ~std::uint64_t{0});
    if (cells % 64 != 0) full_.back() = (std::uint64_t{1} << (cells % 64)) - 1;
  }

  // The best cover's candidate indices (empty: none found within the limits).
  std::vector<std::size_t> Run() {
    std::vector<std::size_t> chosen;
    Visit(Bits(words_, 0), chosen);
    return best_ ? std::get<3>(*best_) : std::vector<std::size_t>{};
  }

 private:
  void Visit(const Bits& covered, std::vector<std::size_t>& chosen) {
    if (++nodes_ > kMaxNodes) return;
    std::size_t word = 0;
    while (word < words_ && covered[word] == full_[word]) ++word;
    if (word == words_) return Offer(chosen);
    unsigned cost = 0;
    for (std::size_t j : chosen) cost += candidates_[j].cost;
    if (chosen.size() == kMaxMembers || (best_ && cost + 1 > std::get<0>(*best_))) return;
    const std::uint64_t open = full_[word] & ~covered[word];
    const std::size_t cell = word * 64 + static_cast<std::size_t>(__builtin_ctzll(open));
    for (std::size_t j : by_cell_[cell]) {
      Bits next = covered;
      for (std::size_t w = 0; w < words_; ++w) next[w] |= candidates_[j].bits[w];
      chosen.push_back(j);
      Visit(next, chosen);
      chosen.pop_back();
    }
  }

  void Offer(const std::vector<std::size_t>& chosen) {
    CoverKey key{0, 0, 0, {}};
    for (std::size_t j : chosen) {
      std::get<0>(key) += candidates_[j].cost;
      std::get<1>(key) += candidates_[j].generic ? 1 : 0;
      std::get<2>(key) += candidates_[j].scope;
      std::get<3>(key).push_back(j);
    }
    std::sort(std::get<3>(key).begin(), std::get<3>(key).end());
    if (!best_ || key < *best_) best_ = std::move(key);
  }

  std::vector<Candidate>& candidates_;
  std::size_t words_;
  std::vector<std::vector<std::size_t>> by_cell_;  // the candidates reproducing each cell
  Bits full_;
  std::optional<CoverKey> best_;
  std::size_t nodes_ = 0;
};

// The cover's members as causes: repeatedly the member taking the most vectors not yet taken
// (ties: a fault model, the smaller scope, catalogue order), each with those cells.
std::vector<Member> Assign(const std::vector<Candidate>& members, std::size_t cells,
                           const CheckReport& report) {
  std::vector<bool> taken(cells, false);
  std::vector<bool> used(members.size(), false);
  std::vector<Member> out;
  for (std::size_t round = 0; round < members.size(); ++round) {
    std::optional<std::size_t> best;
    std::uint64_t best_count = 0;
    for (std::size_t j = 0; j < members.size(); ++j) {
      if (used[j]) continue;
      std::uint64_t count = 0;
      for (std::size_t i : members[j].cells) count += taken[i] ? 0 : report.cells[i].count;
      const auto rank = [&](std::size_t x, std::uint64_t n) {
        return std::make_tuple(~n, members[x].generic, members[x].scope, members[x].explanation);
      };
      if (!best || rank(j, count) < rank(*best, best_count)) {
        best = j;
        best_count = count;
      }
    }
    used[*best] = true;
    if (best_count == 0) continue;
    Member m{members[*best].explanation, {}};
    for (std::size_t i : members[*best].cells) {
      if (!taken[i]) m.cells.push_back(i);
      taken[i] = true;
    }
    out.push_back(std::move(m));
  }
  return out;
}

}  // namespace

std::vector<Member> ConsistentCover(const CheckReport& report) {
  std::vector<Candidate> candidates;
  ExplanationSet any;
  for (const DiagnosisCell& cell : report.cells) any |= cell.explains;
  for (std::size_t k = 0; k < AllExplanations().size(); ++k) {
    if (!any.test(k)) continue;
    if (std::optional<Candidate> c = Narrowed(k, report)) candidates.push_back(std::move(*c));
  }
  // Number the cells some candidate takes.
  std::vector<std::optional<std::size_t>> bit(report.cells.size());
  std::size_t cells = 0;
  for (const Candidate& c : candidates) {
    for (std::size_t i : c.cells) {
      if (!bit[i]) bit[i] = cells++;
    }
  }
  if (cells == 0) return {};
  for (Candidate& c : candidates) {
    c.bits.assign((cells + 63) / 64, 0);
    for (std::size_t i : c.cells) c.bits[*bit[i] / 64] |= std::uint64_t{1} << (*bit[i] % 64);
  }
  const std::vector<std::size_t> chosen = Search(candidates, cells).Run();
  std::vector<Candidate> members;
  for (std::size_t j : chosen) members.push_back(candidates[j]);
  return Assign(members, report.cells.size(), report);
}

}  // namespace ptovec::tools::cover
