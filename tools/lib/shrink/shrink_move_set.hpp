// Private to ptovec_tools' shrink moves (shrink_moves.cpp, shrink_jumps.cpp): the candidate
// moves of one case (MoveSet: strictly simpler, in the domain, under a kept control).
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <tuple>
#include <utility>
#include <vector>

#include "ptovec/generator/cases.hpp"
#include "ptovec/generator/ops.hpp"
#include "ptovec/tools/shrink.hpp"
#include "shrink/shrink_internal.hpp"

namespace ptovec::tools::shrink_internal {

// The candidate moves of one case: those strictly simpler than it, inside the op's domain and
// under a control the filter accepts, sorted simplest first.
class MoveSet {
 public:
  MoveSet(const Case& c, const generator::ControlFilter& controls)
      : c_(c),
        controls_(controls),
        own_(SimplicityOf(c)),
        all_controls_(c.op->uses_controls ? controls.ControlsOf(*c.op)
                                          : std::vector<generator::NumericExecutionControl>{}) {}

  const Case& From() const { return c_; }
  const SimplicityKey& Own() const { return own_; }

  // While set, the moves offered are near moves: Sorted returns every one of them whatever its
  // limit (the limit counts the other moves only), so the many far candidates of a wide type
  // never crowd out a simpler significand at the same exponent or a simpler control.
  void SetNear(bool near) { near_ = near; }

  // Offers `k` and, when its inputs alone are simpler (fewer non-zero words, significant bits
  // or exponent distance), `k` under every other selected control: a simpler value can fail
  // under another mode only.
  void Offer(const Case& k) {
    // Nothing simpler, under this control or another: skipped before the (costlier) domain check.
    const SimplicityKey key = SimplicityOf(k);
    const bool inputs_simpler = InputsPart(key) < InputsPart(own_);
    if (!(key < own_) && (all_controls_.empty() || !inputs_simpler)) return;
    if (k.op->check_domain(k.pair, k.in)) return;
    OfferOne(k);
    if (all_controls_.empty() || !inputs_simpler) return;
    for (const generator::NumericExecutionControl control : all_controls_) {
      if (control == k.control) continue;
      Case other = k;
      other.control = control;
      OfferOne(other);
    }
  }

  // The case itself under every simpler control the filter selects (the mode order's moves: any
  // simpler mode, not only the neighbours, and Sat off).
  void OfferControls() {
    for (const generator::NumericExecutionControl control : all_controls_) {
      if (control == c_.control) continue;
      Case k = c_;
      k.control = control;
      OfferOne(k);
    }
  }

  // The offered cases but those whose keys are in `judged` (sorted), simplest first: every near
  // move and at most `limit` others.
  // `keys`, when given, receives the keys of the returned cases (in the same order).
  std::vector<Case> Sorted(std::size_t limit, const std::vector<SimplicityKey>& judged = {},
                           std::vector<SimplicityKey>* keys = nullptr) const {
    // Sorted by index (a key and a case are some 200 bytes each: moving them costs more than
    // comparing); equal keys are one case, kept once.
    std::vector<std::uint32_t> order(moves_.size());
    for (std::size_t i = 0; i < order.size(); ++i) order[i] = static_cast<std::uint32_t>(i);
    // Equal keys: a near move first, so that the one kept of them counts as near.
    std::sort(order.begin(), order.end(), [&](std::uint32_t a, std::uint32_t b) {
      return moves_[a].first < moves_[b].first ||
             (moves_[a].first == moves_[b].first && near_of_[a] > near_of_[b]);
    });
    std::vector<Case> out;
    out.reserve(std::min(limit, order.size()));
    std::size_t others = 0;
    for (std::size_t i = 0; i < order.size(); ++i) {
      const SimplicityKey& key = moves_[order[i]].first;
      if (i > 0 && key == moves_[order[i - 1]].first) continue;
      if (std::binary_search(judged.begin(), judged.end(), key)) continue;
      if (!near_of_[order[i]] && others++ >= limit) continue;
      out.push_back(moves_[order[i]].second);
      if (keys != nullptr) keys->push_back(key);
    }
    return out;
  }

 private:
  static std::tuple<unsigned, unsigned, unsigned> InputsPart(const SimplicityKey& k) {
    return {k.nonzero, k.significant_bits, k.exponent_distance};
  }
  void OfferOne(const Case& k) {
    if (c_.op->uses_controls && !controls_.Accepts(k.control)) return;
    SimplicityKey key = SimplicityOf(k);
    if (!(key < own_)) return;
    if (k.op->check_control && k.op->check_control(k.pair, k.in, k.control)) return;
    moves_.emplace_back(key, k);
    near_of_.push_back(near_ ? 1 : 0);
  }

  const Case& c_;
  const generator::ControlFilter& controls_;
  SimplicityKey own_;
  std::vector<generator::NumericExecutionControl> all_controls_;
  std::vector<std::pair<SimplicityKey, Case>> moves_;
  std::vector<std::uint8_t> near_of_;  // 1 for a near move (SetNear), one per moves_ entry
  bool near_ = false;
};

// Calls f(i, view, parts) for each view of each slot of c whose word there is a non-zero finite
// +/- m 2^q (OddPartsOf), slot by slot, view by view.
template <typename F>
void ForEachOddView(const Case& c, F&& f) {
  for (std::size_t i = 0; i < c.op->slots.size(); ++i) {
    for (const WordView& view : ViewsOf(c, i)) {
      if (const std::optional<OddParts> a = OddPartsOf(view.type, view.Get(c.in[i]))) {
        f(i, view, *a);
      }
    }
  }
}

}  // namespace ptovec::tools::shrink_internal
