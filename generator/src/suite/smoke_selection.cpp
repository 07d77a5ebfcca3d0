// The smoke suite's selection (coverage.hpp SelectSmokeInputs, docs/coverage.md "The smoke
// suite"): per pair, a greedy multi-cover of the (control, class) cells its default domain hits,
// asking of each cell two distinct inputs, one from each side of the class (PairClassifier::
// Sides) when the domain has both (one input of a report input class); then redundant inputs
// pruned and pairs of inputs exchanged for one; and notes on the cells short of that demand.
#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <map>
#include <queue>
#include <set>
#include <stdexcept>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "coverage_walk.hpp"
#include "ptovec/generator/coverage.hpp"

namespace ptovec::generator {

namespace {

// How many inputs per (cell, side), at most, pass 1 keeps as candidates: the first ones in
// domain order. Two meet every cell's demand; more let the greedy find inputs that serve
// several cells at once (measured on the classes before the implementation edges: 3 per side
// gave 23,575 vectors, 16 gave 22,896, 64 gave 22,797; docs/coverage.md "The smoke suite").
constexpr std::uint8_t kCandidatesPerSide = 64;

using SlotMasks = std::array<ClassMask, kControlSlots>;

// One input kept by pass 1: its classes under each control slot, and for each of them whether
// the input lies on side 1 (a subset of hits).
struct Candidate {
  Inputs in;
  SlotMasks hits{};
  SlotMasks sides{};
};

// Per (control slot, class bit): how many distinct inputs of the domain lie on each side
// (capped at kCandidatesPerSide) and how many inputs the cell asks for.
struct Cell {
  std::array<std::uint8_t, 2> seen{};
  std::uint8_t asks = 2;  // 1 for the report's input classes
  bool Hit() const { return seen[0] + seen[1] > 0; }
  // Inputs the cell needs: what it asks, or all the domain has.
  unsigned Needed() const { return std::min<unsigned>(asks, seen[0] + seen[1]); }
  // Whether the cell needs an input from each side.
  bool BothSides() const { return asks == 2 && seen[0] > 0 && seen[1] > 0; }
  // Whether chosen inputs n0 on side 0 and n1 on side 1 meet the cell's demand.
  bool Met(unsigned n0, unsigned n1) const {
    return BothSides() ? n0 > 0 && n1 > 0 : n0 + n1 >= Needed();
  }
};

using Cells = std::array<std::array<Cell, kClassBits>, kControlSlots>;

// Chosen inputs per (control slot, class bit) and side.
class Tally {
 public:
  Tally() : n_(kControlSlots) {}
  void Add(const Candidate& c, int delta) {
    for (std::size_t s = 0; s < kControlSlots; ++s) {
      ForEachClassBit(c.hits[s], [&](unsigned bit) {
        std::uint16_t& n = n_[s][bit][c.sides[s].test(bit) ? 1 : 0];
        n = static_cast<std::uint16_t>(n + delta);
      });
    }
  }
  unsigned At(std::size_t s, unsigned bit, unsigned side) const { return n_[s][bit][side]; }

 private:
  std::vector<std::array<std::array<std::uint16_t, 2>, kClassBits>> n_;
};

// Pass 1: the first kCandidatesPerSide distinct inputs of each (cell, side), in domain order,
// and per cell how many distinct inputs of each side the domain has (capped).
std::vector<Candidate> Candidates(const Job& job, const SamplingOptions& sampling, Cells& cells) {
  std::vector<Candidate> candidates;
  std::set<Inputs> kept;  // a repeat of a kept input (a sampled domain may draw one twice) adds
                          // nothing; a repeat of an input not kept finds its cells full again
  SlotMasks full0{};      // cells whose side 0 (1) already has kCandidatesPerSide inputs
  SlotMasks full1{};
  coverage_walk::WalkDomain(
      job, sampling, true,
      [&](std::uint64_t, const Inputs& in, const std::vector<NumericExecutionControl>& controls,
          const ClassMask* masks, const ClassMask* sides) {
        bool fresh = false;
        for (std::size_t k = 0; k < controls.size() && !fresh; ++k) {
          const std::size_t s = ControlSlot(controls[k]);
          fresh = ((masks[k] & ~sides[k] & ~full0[s]) | (masks[k] & sides[k] & ~full1[s])).any();
        }
        if (!fresh || !kept.insert(in).second) return;
        Candidate c{in, {}, {}};
        for (std::size_t k = 0; k < controls.size(); ++k) {
          const std::size_t s = ControlSlot(controls[k]);
          c.hits[s] = masks[k];
          c.sides[s] = masks[k] & sides[k];
          ForEachClassBit(masks[k], [&](unsigned bit) {
            const unsigned side = sides[k].test(bit) ? 1 : 0;
            std::uint8_t& seen = cells[s][bit].seen[side];
            if (seen < kCandidatesPerSide && ++seen == kCandidatesPerSide) {
              (side == 0 ? full0 : full1)[s].set(bit);
            }
          });
        }
        candidates.push_back(c);
      });
  return candidates;
}

// Pass 2: the greedy multi-cover. A chosen input on side d of a cell still serves it while the
// cell lacks side d (a cell needing both sides) or lacks inputs (any other cell); the gain of a
// candidate is the number of cells it would serve. Lazily: a gain only falls as others are
// chosen, so a stale gain bounds the fresh one, and the top of the queue (largest gain, then
// the earliest candidate) is taken once its gain is fresh: the same choices as recomputing
// every gain each round.
std::vector<std::size_t> Greedy(const std::vector<Candidate>& candidates, const Cells& cells) {
  Tally tally;
  SlotMasks want0{};
  SlotMasks want1{};
  const auto update = [&](std::size_t s, unsigned bit) {
    const Cell& cell = cells[s][bit];
    const unsigned n0 = tally.At(s, bit, 0);
    const unsigned n1 = tally.At(s, bit, 1);
    const bool met = cell.Met(n0, n1);
    want0[s][bit] = !met && cell.seen[0] > 0 && (!cell.BothSides() || n0 == 0);
    want1[s][bit] = !met && cell.seen[1] > 0 && (!cell.BothSides() || n1 == 0);
  };
  for (std::size_t s = 0; s < kControlSlots; ++s) {
    for (unsigned bit = 0; bit < kClassBits; ++bit) update(s, bit);
  }
  const auto gain = [&](const Candidate& c) {
    std::uint64_t g = 0;
    for (std::size_t s = 0; s < kControlSlots; ++s) {
      g += ((c.hits[s] & ~c.sides[s] & want0[s]) | (c.sides[s] & want1[s])).count();
    }
    return g;
  };
  using Entry = std::pair<std::uint64_t, std::size_t>;  // gain, candidate index
  const auto later = [](const Entry& a, const Entry& b) {
    return a.first != b.first ? a.first < b.first : a.second > b.second;
  };
  std::priority_queue<Entry, std::vector<Entry>, decltype(later)> queue(later);
  for (std::size_t k = 0; k < candidates.size(); ++k) {
    if (const std::uint64_t g = gain(candidates[k]); g > 0) queue.push({g, k});
  }
  std::vector<std::size_t> chosen;
  while (!queue.empty()) {
    const Entry top = queue.top();
    queue.pop();
    const std::uint64_t g = gain(candidates[top.second]);
    if (g == 0) continue;
    if (g < top.first) {
      queue.push({g, top.second});
      continue;
    }
    const Candidate& c = candidates[top.second];
    chosen.push_back(top.second);
    tally.Add(c, 1);
    for (std::size_t s = 0; s < kControlSlots; ++s) {
      ForEachClassBit(c.hits[s], [&](unsigned bit) { update(s, bit); });
    }
  }
  return chosen;
}

// Pass 3: an input chosen early may have become redundant once later ones came: in reverse
// order of choice, drops each input without which every cell still has its demand.
void Prune(const std::vector<Candidate>& candidates, const Cells& cells,
           std::vector<std::size_t>& chosen) {
  Tally tally;
  for (std::size_t k : chosen) tally.Add(candidates[k], 1);
  std::vector<bool> dropped(chosen.size(), false);
  for (std::size_t i = chosen.size(); i-- > 0;) {
    const Candidate& c = candidates[chosen[i]];
    bool needed = false;
    for (std::size_t s = 0; s < kControlSlots && !needed; ++s) {
      ForEachClassBit(c.hits[s], [&](unsigned bit) {
        const unsigned side = c.sides[s].test(bit) ? 1 : 0;
        const unsigned n0 = tally.At(s, bit, 0) - (side == 0 ? 1U : 0U);
        const unsigned n1 = tally.At(s, bit, 1) - (side == 1 ? 1U : 0U);
        if (!cells[s][bit].Met(n0, n1)) needed = true;
      });
    }
    if (needed) continue;
    dropped[i] = true;
    tally.Add(c, -1);
  }
  std::vector<std::size_t> kept;
  for (std::size_t i = 0; i < chosen.size(); ++i) {
    if (!dropped[i]) kept.push_back(chosen[i]);
  }
  chosen = std::move(kept);
}

// Pass 4: replaces two chosen inputs by one candidate that serves every cell the two leave
// short, until no such exchange is left (pairs in order of choice, candidates in domain order:
// the first exchange found is made, then the search starts again).
void Exchange(const std::vector<Candidate>& candidates, const Cells& cells,
              std::vector<std::size_t>& chosen) {
  Tally tally;
  for (std::size_t k : chosen) tally.Add(candidates[k], 1);
  std::vector<bool> in_chosen(candidates.size(), false);
  for (std::size_t k : chosen) in_chosen[k] = true;
  for (bool exchanged = true; exchanged;) {
    exchanged = false;
    for (std::size_t a = 0; a < chosen.size() && !exchanged; ++a) {
      for (std::size_t b = a + 1; b < chosen.size() && !exchanged; ++b) {
        const Candidate& ca = candidates[chosen[a]];
        const Candidate& cb = candidates[chosen[b]];
        tally.Add(ca, -1);
        tally.Add(cb, -1);
        // What the one replacement must hit: per slot, cells wanting side 0, side 1, either.
        SlotMasks need0{};
        SlotMasks need1{};
        SlotMasks need_any{};
        bool possible = true;
        for (std::size_t s = 0; s < kControlSlots && possible; ++s) {
          ForEachClassBit(ca.hits[s] | cb.hits[s], [&](unsigned bit) {
            const Cell& cell = cells[s][bit];
            const unsigned n0 = tally.At(s, bit, 0);
            const unsigned n1 = tally.At(s, bit, 1);
            if (cell.Met(n0, n1)) return;
            if (cell.BothSides()) {
              if (n0 == 0 && n1 == 0) possible = false;  // one input has one side
              (n0 == 0 ? need0 : need1)[s].set(bit);
            } else if (n0 + n1 + 1 < cell.Needed()) {
              possible = false;
            } else {
              need_any[s].set(bit);
            }
          });
        }
        std::size_t found = candidates.size();
        for (std::size_t k = 0; k < candidates.size() && possible; ++k) {
          if (in_chosen[k]) continue;
          const Candidate& c = candidates[k];
          bool fits = true;
          for (std::size_t s = 0; s < kControlSlots && fits; ++s) {
            fits = (need0[s] & ~(c.hits[s] & ~c.sides[s])).none() &&
                   (need1[s] & ~c.sides[s]).none() && (need_any[s] & ~c.hits[s]).none();
          }
          if (fits) {
            found = k;
            break;
          }
        }
        if (found == candidates.size()) {
          tally.Add(ca, 1);
          tally.Add(cb, 1);
          continue;
        }
        in_chosen[chosen[a]] = in_chosen[chosen[b]] = false;
        in_chosen[found] = true;
        tally.Add(candidates[found], 1);
        chosen.erase(chosen.begin() + static_cast<std::ptrdiff_t>(b));
        chosen[a] = found;
        exchanged = true;
      }
    }
  }
}

SmokeSelection Select(const Job& job, const SamplingOptions& sampling) {
  Cells cells{};
  const std::vector<Candidate> candidates = Candidates(job, sampling, cells);
  // The report's input classes are facts of slot 0's word alone, which every outcome cell's
  // inputs share, and their sign is the class's own: one input is asked of each.
  for (auto& slot : cells) {
    for (unsigned bit = 0; bit < kInputClasses; ++bit) slot[bit].asks = 1;
  }
  // A class that is one side of a threshold, whose twin class is the other ("rounds to the
  // minimum from below" / "from above"): the pair holds both sides, so each asks one input.
  for (const CoverageClass& c : CoverageClasses(*job.op, job.pair.Whole())) {
    if (!c.twin_side) continue;
    for (auto& slot : cells) slot[c.bit].asks = 1;
  }
  std::vector<std::size_t> chosen = Greedy(candidates, cells);
  Prune(candidates, cells, chosen);
  Exchange(candidates, cells, chosen);
  Prune(candidates, cells, chosen);
  std::sort(chosen.begin(), chosen.end());  // candidates are in domain order
  SmokeSelection result;
  Tally tally;
  for (std::size_t k : chosen) {
    result.inputs.push_back(candidates[k].in);
    tally.Add(candidates[k], 1);
  }
  // The account of every cell, and one note per (class, reason, side) on those short of two
  // inputs from both sides.
  std::map<std::tuple<unsigned, SmokeShortfall, unsigned>, std::uint16_t> notes;
  for (std::size_t s = 0; s < kControlSlots; ++s) {
    for (unsigned bit = 0; bit < kClassBits; ++bit) {
      const Cell& cell = cells[s][bit];
      if (!cell.Hit()) continue;
      ++result.cells;
      const unsigned n0 = tally.At(s, bit, 0);
      const unsigned n1 = tally.At(s, bit, 1);
      if (!cell.Met(n0, n1)) {
        throw std::logic_error("SelectSmokeInputs: a cell left short of its demand");
      }
      if (n0 > 0 && n1 > 0) {
        ++result.both_sides;
        continue;
      }
      SmokeShortfall why =
          bit < kInputClasses ? SmokeShortfall::InputClass : SmokeShortfall::TwinSide;
      if (cell.seen[0] + cell.seen[1] == 1) {
        why = SmokeShortfall::OneInput;
      } else if (n0 + n1 >= 2 && (cell.seen[0] == 0 || cell.seen[1] == 0)) {
        why = SmokeShortfall::OneSide;
      }
      ++(why == SmokeShortfall::OneInput  ? result.one_input
         : why == SmokeShortfall::OneSide ? result.one_side
                                          : result.input_class);
      std::uint16_t& controls = notes[{bit, why, n1 > 0 ? 1U : 0U}];
      controls = static_cast<std::uint16_t>(controls | 1U << s);
    }
  }
  for (const auto& [key, controls] : notes) {
    result.notes.push_back({std::get<0>(key), std::get<1>(key), std::get<2>(key), controls});
  }
  return result;
}

// The coverage report's column name of a control slot: "RNE/-" (Sat off), "RNE/S" (Sat on).
std::string SlotLabel(std::size_t slot) {
  return std::string(oracle::RoundingModeName(oracle::kAllRoundingModes[slot / 2])) +
         (slot % 2 != 0 ? "/S" : "/-");
}

}  // namespace

std::string SmokeShortfallReason(SmokeShortfall why) {
  switch (why) {
    case SmokeShortfall::OneInput:
      return "the default domain has one input in this cell";
    case SmokeShortfall::OneSide:
      return "every input of the cell is on one side";
    case SmokeShortfall::TwinSide:
      return "one side of a threshold whose twin class is the other (from below / from above): "
             "one input is asked of it";
    case SmokeShortfall::InputClass:
      break;
  }
  return "an input class (of slot 0's word alone): one input is asked of it";
}

std::vector<SmokeSelection> SelectSmokeInputs(const std::vector<Job>& jobs,
                                              const SamplingOptions& sampling, unsigned threads) {
  std::vector<SmokeSelection> result(jobs.size());
  coverage_walk::ParallelFor(jobs.size(), threads,
                             [&](std::size_t j) { result[j] = Select(jobs[j], sampling); });
  return result;
}

nlohmann::ordered_json SmokeSelectionJson(const OpDef& op, TypePair pair,
                                          const SmokeSelection& selection) {
  const std::vector<CoverageClass> classes = CoverageClasses(op, pair);
  std::uint16_t all = 0;
  for (NumericExecutionControl c : ControlsFor(op, pair)) {
    all = static_cast<std::uint16_t>(all | 1U << ControlSlot(c));
  }
  nlohmann::ordered_json notes = nlohmann::ordered_json::array();
  for (const SmokeNote& n : selection.notes) {
    const auto k = std::find_if(classes.begin(), classes.end(),
                                [&](const CoverageClass& c) { return c.bit == n.bit; });
    if (k == classes.end()) throw std::logic_error("SmokeSelectionJson: a class bit not in table");
    std::string controls;
    if (n.controls == all) {
      controls = "all";
    } else {
      for (std::size_t s = 0; s < kControlSlots; ++s) {
        if (((n.controls >> s) & 1U) != 0) controls += (controls.empty() ? "" : " ") + SlotLabel(s);
      }
    }
    nlohmann::ordered_json note = {
        {"class", k->name}, {"controls", controls}, {"reason", SmokeShortfallReason(n.why)}};
    if (n.why != SmokeShortfall::InputClass && n.why != SmokeShortfall::TwinSide)
      note["side"] = k->sides[n.side];
    notes.push_back(note);
  }
  return {{"cells", selection.cells},
          {"both_sides", selection.both_sides},
          {"one_side", selection.one_side},
          {"one_input", selection.one_input},
          {"input_class", selection.input_class},
          {"notes", notes}};
}

}  // namespace ptovec::generator
