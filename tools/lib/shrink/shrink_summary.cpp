// What `ptovec shrink --from RESULTS` found, as the report model has it (CheckReport::shrunk):
// one ShrunkCase per start, with what kind of minimum its counterexample is.
#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "ptovec/tools/check.hpp"
#include "ptovec/tools/shrink.hpp"

namespace ptovec::tools {

std::string_view MinimumKind(const ShrinkResult& r) {
  if (!r.failed || !r.minimal) return "not reproduced";
  if (r.simplest) return "exact";
  return r.local_minimum ? "local" : "stopped";
}

std::vector<ShrunkCase> ShrunkCases(const ShrinkStarts& starts,
                                    const std::vector<ShrinkResult>& shrunk,
                                    const std::vector<std::string>& files) {
  std::vector<ShrunkCase> cases;
  for (std::size_t k = 0; k < starts.starts.size() && k < shrunk.size(); ++k) {
    const ShrinkResult& r = shrunk[k];
    ShrunkCase s;
    s.start = starts.starts[k];
    if (k < starts.causes.size()) s.cause = starts.causes[k];
    s.label = starts.labels[k].empty() ? PairName(*s.start.c.op, s.start.c.pair.Whole())
                                       : starts.labels[k];
    s.minimum = std::string(MinimumKind(r));
    if (r.failed && r.minimal) s.counterexample = *r.minimal;
    if (k < files.size()) s.file = files[k];
    cases.push_back(std::move(s));
  }
  return cases;
}

}  // namespace ptovec::tools
