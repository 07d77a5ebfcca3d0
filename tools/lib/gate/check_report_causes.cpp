// The text report's diagnosis (check_report_text::PrintCauses): the causes of the failures,
// each with its first vector's `ptovec eval` line and its triage groups.
#include <cstddef>
#include <ostream>
#include <string>
#include <vector>

#include "gate/check_report_text.hpp"
#include "ptovec/generator/cases.hpp"
#include "ptovec/generator/word_text.hpp"
#include "ptovec/tools/causes.hpp"

namespace ptovec::tools::check_report_text {

namespace {
// A cause's triage groups listed by number (the triage list below has every group in full).
constexpr std::size_t kGroupsListed = 12;
}  // namespace

void PrintCauses(std::ostream& out, const CheckReport& r, std::size_t max_report) {
  const std::vector<Cause> causes = Causes(r);
  if (causes.empty()) return;
  std::uint64_t explained = 0;
  std::size_t explanations = 0;
  for (const Cause& c : causes) {
    if (!c.explanation) continue;
    explained += c.count;
    ++explanations;
  }
  out << "diagnosis: " << generator::Counted(causes.size(), "cause") << " of " << r.mismatched
      << " mismatched " << (r.mismatched == 1 ? "vector" : "vectors") << " ("
      << generator::Counted(explained, "vector") << " explained by "
      << generator::Counted(explanations, "explanation")
      << "; `ptovec shrink --triage` shrinks one vector of each cause):\n";
  for (std::size_t i = 0; i < causes.size(); ++i) {
    const Cause& c = causes[i];
    out << "  cause " << i + 1 << ": " << (c.explanation ? "" : "unexplained: ") << c.text << ": "
        << generator::Counted(c.count, "vector") << " in "
        << generator::Counted(c.groups.size(), "symptom group") << "\n";
    if (max_report == 0) continue;
    if (c.explanation) {
      const Explanation& e = AllExplanations()[*c.explanation];
      if (e.fault) out << "    models: " << e.fault->models << "\n";
    }
    if (!c.equally.empty()) {
      out << "    explained as well by:";
      for (std::size_t k = 0; k < c.equally.size(); ++k) {
        out << (k ? ", " : " ") << AllExplanations()[c.equally[k]].name;
      }
      out << "\n";
    }
    out << "    first: " << c.first.file << " vector " << c.first.index << "\n";
    out << "    " << generator::EvalCommand(c.first.c) << "\n";
    out << "    symptom groups (vectors):";
    for (std::size_t k = 0; k < c.groups.size() && k < kGroupsListed; ++k) {
      out << (k ? ", " : " ") << "#" << c.groups[k].first + 1 << " (" << c.groups[k].second << ")";
    }
    if (c.groups.size() > kGroupsListed)
      out << " and " << c.groups.size() - kGroupsListed << " more";
    out << "\n";
  }
}

}  // namespace ptovec::tools::check_report_text
