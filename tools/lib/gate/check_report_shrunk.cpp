// The report's shrunk cases (CheckReport::shrunk, set by `ptovec shrink --from`) as text: the
// table that ends `shrink --from --triage` and the text report (PrintShrunkSummary).
#include <algorithm>
#include <array>
#include <cstddef>
#include <ostream>
#include <string>
#include <vector>

#include "ptovec/generator/cases.hpp"
#include "ptovec/generator/ops.hpp"
#include "ptovec/generator/word_text.hpp"
#include "ptovec/oracle/numeric.hpp"
#include "ptovec/tools/check.hpp"
#include "ptovec/tools/check_report.hpp"
#include "ptovec/tools/shrink.hpp"

namespace ptovec::tools {

namespace {

constexpr std::size_t kColumns = 7;
using Row = std::array<std::string, kColumns>;

// A row of the table: the case's number, the minimum's kind, the pair, the counterexample's mode,
// Sat and inputs (dashes when nothing was reproduced) and the label.
Row SummaryRow(std::size_t k, const ShrunkCase& s) {
  const generator::Case& c = s.counterexample ? s.counterexample->c : s.start.c;
  Row row{
      std::to_string(k + 1), s.minimum, PairName(*c.op, c.pair.Whole()), "-", "-", "-", s.label};
  if (!s.counterexample) return row;
  row[3] = oracle::RoundingModeName(c.control.rounding_mode);
  row[4] = c.op->uses_controls ? (c.control.saturating ? "on" : "off") : "-";
  row[5].clear();
  for (std::size_t i = 0; i < c.op->slots.size(); ++i) {
    row[5] += (i == 0 ? "" : " ") + generator::HexWord(c.in[i], c.op->slots[i].TypeFor(c.pair));
  }
  return row;
}

}  // namespace

void PrintShrunkSummary(std::ostream& out, const std::vector<ShrunkCase>& shrunk) {
  if (shrunk.empty()) return;
  std::vector<Row> rows{{"#", "minimum", "op and pair", "rmode", "sat", "inputs", "cause"}};
  for (std::size_t k = 0; k < shrunk.size(); ++k) rows.push_back(SummaryRow(k, shrunk[k]));
  std::array<std::size_t, kColumns> width{};
  for (const Row& row : rows) {
    for (std::size_t i = 0; i < kColumns; ++i) width[i] = std::max(width[i], row[i].size());
  }
  out << "summary (#: as in shrunk-<op>-<src>-<dst>-#.bin; minimum: exact = the least failing "
         "case of the whole pair, enumerated; local = a local minimum of the sampled search, no "
         "simpler move fails; stopped = the step limit came first):\n";
  for (const Row& row : rows) {
    out << "  " << std::string(width[0] - row[0].size(), ' ') << row[0];
    for (std::size_t i = 1; i + 1 < kColumns; ++i) {
      out << "  " << row[i] << std::string(width[i] - row[i].size(), ' ');
    }
    out << "  " << row[kColumns - 1] << "\n";
  }
}

}  // namespace ptovec::tools
