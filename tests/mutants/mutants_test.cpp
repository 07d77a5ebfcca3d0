// Direct proof of the mutant catalog (tests/mutants/mutants.cpp), linked, without devices or
// files: every mutant differs from the oracle on one given case (both answers asserted exactly:
// word and flags), agrees with it on a given case of the same op where its fault does not apply,
// and agrees with it on every sampled case of the ops it does not touch. The end-to-end proof
// through `ptovec run` / `ptovec shrink` is run_mutants.py.
#include "mutants.hpp"

#include <gtest/gtest.h>

#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "ptovec/generator/suite.hpp"
#include "ptovec/generator/writers.hpp"

namespace ptovec::mutants {
namespace {

using generator::MakeCase;

struct Answer {
  oracle::Word word;
  oracle::Status flags;
};

/// One known case: `ptovec eval` arguments and the answer.
struct Known {
  std::string op, src, dst, mode;
  bool sat;
  std::vector<std::string> in;
};

struct Row {
  std::string mutant;
  Known differs;       ///< the mutant and the oracle differ here
  Answer oracle;       ///< the oracle's answer on `differs`
  Answer mutant_says;  ///< the mutant's answer on `differs`
  Known agrees;        ///< a case of the same op where the fault does not apply
  Answer agreed;       ///< both answer this
};

Case Build(const Known& k) { return MakeCase(k.op, k.src, k.dst, k.mode, k.sat, k.in); }

std::string Show(const Known& k) {
  std::ostringstream s;
  s << k.op << " " << k.src << "->" << k.dst << " " << k.mode << (k.sat ? " sat" : "");
  for (const auto& w : k.in) s << " " << w;
  return s.str();
}

// Rows of mutants_cases.inc: the first default-suite case where each mutant differs, found by
// ptovec_mutant_scan and frozen by make_cases.py (a changed oracle or mutant fails this test);
// the comment above each row gives both answers.
const std::vector<Row>& Rows() {
  static const std::vector<Row> rows = {
#include "mutants_cases.inc"
  };
  return rows;
}

TEST(MutantCatalog, MatchesTheCMakeList) {
  std::vector<std::string> cmake;
  std::stringstream list(PTOVEC_MUTANTS_CSV);
  for (std::string name; std::getline(list, name, ',');) cmake.push_back(name);
  std::vector<std::string> catalog;
  for (const MutantInfo& m : AllMutants()) catalog.emplace_back(m.name);
  EXPECT_EQ(catalog, cmake);
  EXPECT_GE(catalog.size(), 20U);
  EXPECT_EQ(std::set<std::string>(catalog.begin(), catalog.end()).size(), catalog.size());
  EXPECT_EQ(FindMutant("ties_away"), &AllMutants()[0]);
  EXPECT_EQ(FindMutant("no_such_mutant"), nullptr);
}

TEST(MutantCatalog, EveryMutantHasAKnownCase) {
  std::set<std::string> covered;
  for (const Row& r : Rows()) covered.insert(r.mutant);
  for (const MutantInfo& m : AllMutants()) {
    EXPECT_TRUE(covered.count(std::string(m.name))) << m.name << " has no row in mutants_cases.inc";
  }
}

TEST(MutantCases, DiffersWhereTheFaultApplies) {
  for (const Row& r : Rows()) {
    SCOPED_TRACE(r.mutant + ": " + Show(r.differs));
    const MutantInfo* m = FindMutant(r.mutant);
    ASSERT_NE(m, nullptr);
    const Case c = Build(r.differs);
    const Encoded expected = EvaluateOracle(c);
    const Encoded got = EvaluateMutant(*m, c);
    EXPECT_EQ(expected.word, r.oracle.word);
    EXPECT_EQ(expected.status, r.oracle.flags);
    EXPECT_EQ(got.word, r.mutant_says.word);
    EXPECT_EQ(got.status, r.mutant_says.flags);
    EXPECT_FALSE(got == expected);
  }
}

TEST(MutantCases, AgreesWhereTheFaultDoesNotApply) {
  for (const Row& r : Rows()) {
    SCOPED_TRACE(r.mutant + ": " + Show(r.agrees));
    const MutantInfo* m = FindMutant(r.mutant);
    ASSERT_NE(m, nullptr);
    const Case c = Build(r.agrees);
    const Encoded expected = EvaluateOracle(c);
    const Encoded got = EvaluateMutant(*m, c);
    EXPECT_EQ(expected.word, r.agreed.word);
    EXPECT_EQ(expected.status, r.agreed.flags);
    EXPECT_EQ(got.word, r.agreed.word);
    EXPECT_EQ(got.status, r.agreed.flags);
  }
}

bool Touches(const MutantInfo& m, const std::string& op) {
  std::stringstream list{std::string(m.ops)};
  for (std::string name; std::getline(list, name, ',');) {
    if (name == op) return true;
  }
  return false;
}

// A small sample of every default-suite pair: the op's own domain with 40 samples per sampled
// pair, and 40 evenly spread codes of each exhaustive one.
struct Sampled {
  Case c;
  Encoded expected;
};

const std::vector<Sampled>& SampleCases() {
  static const std::vector<Sampled> cases = [] {
    std::vector<Sampled> out;
    const generator::SamplingOptions sampling{7, 40};
    for (const generator::Job& job : generator::DefaultSuite()) {
      const generator::InputSet set = job.op->domain(job.pair, sampling);
      const std::uint64_t step = set.count > 40 ? set.count / 40 : 1;
      for (std::uint64_t i = 0; i < set.count; i += step) {
        for (const auto& control : generator::ControlsFor(*job.op, job.pair)) {
          Case c;
          c.op = job.op;
          c.pair = job.pair;
          c.control = control;
          c.in = set.at(i);
          out.push_back({c, EvaluateOracle(c)});
        }
      }
    }
    return out;
  }();
  return cases;
}

TEST(MutantCases, AgreesOnEverySampledCaseOfTheOpsItDoesNotTouch) {
  for (const MutantInfo& m : AllMutants()) {
    std::uint64_t checked = 0;
    std::uint64_t differing = 0;
    for (const auto& [c, expected] : SampleCases()) {
      if (Touches(m, c.op->name)) continue;
      const Encoded got = EvaluateMutant(m, c);
      ++checked;
      if (!(got == expected)) {
        ++differing;
        ADD_FAILURE() << m.name << " differs on " << generator::EvalCommand(c) << ": "
                      << generator::HexWord(got.word, c.pair.dst) << " vs "
                      << generator::HexWord(expected.word, c.pair.dst);
      }
    }
    EXPECT_GT(checked, 50U) << m.name;  // rto_as_rtz touches every op with controls
    EXPECT_EQ(differing, 0U) << m.name;
  }
}

TEST(MutantCases, EveryMutantAgreesOnMostSampledCasesOfItsOwnOps) {
  // A fault of a real kind changes a corner, not everything: at least half of the sampled cases
  // of the ops a mutant touches still agree (a random corruption would fail this).
  for (const MutantInfo& m : AllMutants()) {
    std::uint64_t checked = 0;
    std::uint64_t agreeing = 0;
    for (const auto& [c, expected] : SampleCases()) {
      if (!Touches(m, c.op->name)) continue;
      ++checked;
      if (EvaluateMutant(m, c) == expected) ++agreeing;
    }
    EXPECT_GT(checked, 0U) << m.name;
    EXPECT_GE(2 * agreeing, checked) << m.name << ": " << agreeing << " of " << checked;
  }
}

}  // namespace
}  // namespace ptovec::mutants
