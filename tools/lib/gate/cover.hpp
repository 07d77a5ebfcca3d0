// The first stage of the causes (causes.cpp): the cheapest exact cover of the diagnosis cells
// by explanations each consistent with the device where it is used.
#pragma once

#include <cstddef>
#include <vector>

#include "ptovec/tools/check.hpp"

namespace ptovec::tools::cover {

/// One member of the cover: an explanation (index in AllExplanations()) and the cells
/// (indices in CheckReport::cells) it takes, in the order members should become causes.
struct Member {
  std::size_t explanation = 0;
  std::vector<std::size_t> cells;
};

/// The cheapest cover of the cells that some consistent explanation reproduces. An explanation
/// is consistent on an (op, pair) of its support when none of that pair's sampled matched
/// vectors (ControlTally::matched_samples) contradicts it; it is used only there. A member costs
/// 1, and 1 more when it is scoped: contradicted on some other (op, pair) of the run where it
/// applies (a claim about some pairs, not about the device). Among covers of equal cost: fewer
/// generic explanations, then the smaller summed ExplanationScope, then catalogue order. At
/// most kMaxMembers members and kMaxNodes search steps: beyond them the best cover found so far,
/// or none (every cell then goes to the greedy stage).
std::vector<Member> ConsistentCover(const CheckReport& report);

inline constexpr std::size_t kMaxMembers = 6;
inline constexpr std::size_t kMaxNodes = 200000;

}  // namespace ptovec::tools::cover
