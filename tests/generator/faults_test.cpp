// The fault-model catalogue (ptovec/generator/faults.hpp): its names, op lists, filters and kinds,
// and docs/faults.md's table, which must be the catalogue's (FaultTableMarkdown below). What each
// fault computes is proven by tests/mutants (ptovec_mutants_tests, label mutants).
#include "ptovec/generator/faults.hpp"

#include <gtest/gtest.h>

#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string>

#include "ptovec/generator/ops.hpp"

namespace ptovec::generator {
namespace faults_test {
namespace {

bool IsKebab(std::string_view s) {
  if (s.empty() || s.front() == '-' || s.back() == '-') return false;
  for (char ch : s) {
    if (!((ch >= 'a' && ch <= 'z') || (ch >= '0' && ch <= '9') || ch == '-')) return false;
  }
  return true;
}

bool IsSnake(std::string_view s) {
  if (s.empty()) return false;
  for (char ch : s) {
    if (!((ch >= 'a' && ch <= 'z') || (ch >= '0' && ch <= '9') || ch == '_')) return false;
  }
  return true;
}

TEST(FaultCatalogue, NamesAreUniqueAndFound) {
  const auto all = AllFaultModels();
  ASSERT_EQ(all.size(), 76U);
  std::set<std::string_view> names;
  std::set<std::string_view> mutants;
  for (const FaultModel& f : all) {
    SCOPED_TRACE(std::string(f.name));
    EXPECT_TRUE(IsKebab(f.name));
    EXPECT_TRUE(IsSnake(f.mutant));
    EXPECT_TRUE(names.insert(f.name).second);
    EXPECT_TRUE(mutants.insert(f.mutant).second);
    EXPECT_EQ(FindFaultModel(f.name), &f);
    EXPECT_EQ(FindFaultModel(f.mutant), &f);
    EXPECT_FALSE(f.models.empty());
    EXPECT_FALSE(f.affects.empty());
    EXPECT_NE(f.applies, nullptr);
    EXPECT_NE(f.evaluate, nullptr);
  }
  EXPECT_EQ(all[0].name, "rne-as-rna");
  EXPECT_EQ(all[0].mutant, "ties_away");
  EXPECT_EQ(FindFaultModel("e8m0-floor-every-mode")->mutant, "e8m0_floor_every_mode");
  EXPECT_EQ(FindFaultModel("no-such-fault"), nullptr);
}

TEST(FaultCatalogue, OpsAreRegistryOpsAndBoundTheFilter) {
  for (const FaultModel& f : AllFaultModels()) {
    SCOPED_TRACE(std::string(f.name));
    ASSERT_FALSE(f.ops.empty());
    std::set<std::string_view> ops(f.ops.begin(), f.ops.end());
    EXPECT_EQ(ops.size(), f.ops.size());
    for (std::string_view op : f.ops) EXPECT_NE(FindOp(op), nullptr) << op;
    bool applies_somewhere = false;
    for (const OpDef& op : AllOps()) {
      for (const TypePair& pair : op.legal_pairs) {
        const bool applies = f.applies(op, pair);
        if (!ops.count(op.name)) {
          EXPECT_FALSE(applies) << op.name;
        }
        applies_somewhere = applies_somewhere || applies;
      }
    }
    EXPECT_TRUE(applies_somewhere);
  }
  const FaultModel& e4m3 = *FindFaultModel("e4m3-truncation");
  const OpDef& encode = *FindOp("encode");
  EXPECT_TRUE(e4m3.applies(encode, {TileDataType::FP16, TileDataType::E4M3}));
  EXPECT_FALSE(e4m3.applies(encode, {TileDataType::FP16, TileDataType::HiF8}));
  EXPECT_FALSE(e4m3.applies(*FindOp("tcvt"), {TileDataType::FP16, TileDataType::E8M0}));
}

TEST(FaultCatalogue, KindsNameTheirGenericExplanation) {
  std::map<FaultKind, int> counts;
  for (const FaultModel& f : AllFaultModels()) {
    SCOPED_TRACE(std::string(f.name));
    ++counts[f.kind];
    EXPECT_EQ(f.kind == FaultKind::Own, f.generic.kind == GenericKind::None);
    EXPECT_EQ(f.kind == FaultKind::Own, f.generic.text.empty());
  }
  EXPECT_EQ(counts[FaultKind::Own], 58);
  EXPECT_EQ(counts[FaultKind::Generic], 6);
  EXPECT_EQ(counts[FaultKind::NarrowedGeneric], 12);
  const FaultModel& ties = *FindFaultModel("rne-as-rna");
  EXPECT_EQ(ties.kind, FaultKind::Generic);
  EXPECT_EQ(ties.generic.kind, GenericKind::ModeAs);
  EXPECT_EQ(ties.generic.from, NumericRoundingMode::RNE);
  EXPECT_EQ(ties.generic.to, NumericRoundingMode::RNA);
  EXPECT_EQ(ties.generic.text, "mode RNE as RNA");
  const FaultModel& floor = *FindFaultModel("e8m0-floor-every-mode");
  EXPECT_EQ(floor.kind, FaultKind::NarrowedGeneric);
  EXPECT_FALSE(floor.generic.from.has_value());
  EXPECT_EQ(floor.generic.to, NumericRoundingMode::RTM);
  EXPECT_EQ(FindFaultModel("negative-zero-kept")->generic.deviation, oracle::Deviation::SignedZero);
  EXPECT_EQ(FaultKindName(FaultKind::NarrowedGeneric), "narrowed-generic");
}

/// `text` with its pipes escaped for a Markdown table cell ("OF|NX" -> "OF\\|NX").
std::string Cell(std::string_view text) {
  std::string out;
  for (char ch : text) {
    if (ch == '|') out += '\\';
    out += ch;
  }
  return out;
}

/// The table docs/faults.md holds between its markers: one row per fault model, in order.
std::string FaultTableMarkdown() {
  std::ostringstream s;
  s << "| name | mutant | kind | generic explanation | ops | what it models |\n";
  s << "|---|---|---|---|---|---|\n";
  for (const FaultModel& f : AllFaultModels()) {
    std::string ops;
    for (std::string_view op : f.ops) ops += (ops.empty() ? "" : ", ") + std::string(op);
    s << "| `" << f.name << "` | `" << f.mutant << "` | " << FaultKindName(f.kind) << " | "
      << (f.generic.text.empty() ? "-" : f.generic.text) << " | " << ops << " | " << Cell(f.models)
      << " |\n";
  }
  return s.str();
}

TEST(FaultCatalogue, DocsTable) {
  std::ifstream in(std::string(PTOVEC_TEST_SOURCE_DIR) + "/docs/faults.md");
  ASSERT_TRUE(in) << "docs/faults.md is missing";
  std::stringstream text;
  text << in.rdbuf();
  const std::string doc = text.str();
  const std::string begin = "<!-- fault table: begin -->\n";
  const std::string end = "<!-- fault table: end -->";
  const auto b = doc.find(begin);
  const auto e = doc.find(end);
  ASSERT_NE(b, std::string::npos);
  ASSERT_NE(e, std::string::npos);
  const std::string table = doc.substr(b + begin.size(), e - b - begin.size());
  EXPECT_EQ(table, FaultTableMarkdown())
      << "docs/faults.md's table is not the catalogue's: replace it by the expected text above";
}

}  // namespace
}  // namespace faults_test
}  // namespace ptovec::generator
