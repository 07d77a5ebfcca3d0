// Diagnosis over the fault-model catalogue (ptovec/tools/diagnosis.hpp, causes.hpp): every fault
// model, run as a device over the smoke suite (vectors/smoke), is diagnosed as exactly one cause
// naming itself (a model of kind Generic: its generic explanation); two models on different
// pairs give two causes naming them (76 sampled pairs and 22 hard ones here, every pair in the
// long set), or one where the run cannot tell the two from one of them.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "ptovec/generator/faults.hpp"
#include "ptovec/tools/causes.hpp"
#include "ptovec/tools/check.hpp"

namespace ptovec::tools {
namespace {

using generator::FaultKind;
using generator::FaultModel;

// The oracle with fault `first` on the (op, pair)s it applies to, and `second` (when given) on
// the others.
class FaultDevice : public Device {
 public:
  FaultDevice(const FaultModel& first, const FaultModel* second) : first_(first), second_(second) {}
  const std::string& Name() const override { return name_; }
  void Evaluate(std::span<const Case> cases, std::span<DeviceAnswer> answers) override {
    for (std::size_t i = 0; i < cases.size(); ++i) {
      const Case& c = cases[i];
      const FaultModel* f = first_.applies(*c.op, c.pair) ? &first_ : second_;
      answers[i] = {true, f ? generator::EvaluateFault(*f, c) : generator::EvaluateOracle(c)};
    }
  }

 private:
  const FaultModel& first_;
  const FaultModel* second_;
  std::string name_ = "fault models";  // one name: results files compare byte for byte
};

// The name the diagnosis gives fault model `f` as a cause.
std::string CauseName(const FaultModel& f) {
  if (f.kind == FaultKind::Generic) return std::string(f.generic.text);
  return "fault " + std::string(f.name);
}

CheckReport RunOverSmoke(Device& device) {
  static int run = 0;
  const std::filesystem::path results =
      std::filesystem::path(::testing::TempDir()) / ("diagnosis_" + std::to_string(run++) + ".bin");
  RunOptions options;
  options.results = results;
  options.threads = 1;
  CheckReport report = RunDevice(
      device, generator::VectorSelection(PTOVEC_TEST_SOURCE_DIR "/vectors/smoke"), options);
  std::filesystem::remove(results);
  return report;
}

std::vector<std::string> CauseTexts(const CheckReport& report) {
  std::vector<std::string> texts;
  for (const Cause& c : Causes(report)) texts.push_back(c.text);
  return texts;
}

class EachFaultModel : public ::testing::TestWithParam<std::size_t> {};

TEST_P(EachFaultModel, IsOneCauseNamingItself) {
  const FaultModel& f = generator::AllFaultModels()[GetParam()];
  FaultDevice device(f, nullptr);
  const CheckReport report = RunOverSmoke(device);
  ASSERT_GT(report.mismatched, 0U) << f.name << ": the smoke suite catches every fault model";
  const std::vector<Cause> causes = Causes(report);
  ASSERT_EQ(CauseTexts(report), std::vector<std::string>{CauseName(f)}) << f.name;
  EXPECT_EQ(causes[0].count, report.mismatched) << f.name;
  std::uint64_t in_groups = 0;
  for (const auto& [group, count] : causes[0].groups) in_groups += count;
  EXPECT_EQ(in_groups, report.mismatched) << f.name;
}

INSTANTIATE_TEST_SUITE_P(Catalogue, EachFaultModel,
                         ::testing::Range<std::size_t>(0, generator::AllFaultModels().size()),
                         [](const ::testing::TestParamInfo<std::size_t>& p) {
                           return std::string(generator::AllFaultModels()[p.param].mutant);
                         });

// Model `first` on the pairs it applies to, `second` on the others: two causes, each naming its
// model, when the second fails there at all.
// The (op, pair)s where a model alone fails some vector of the smoke suite (each run once).
const std::vector<std::pair<const generator::OpDef*, generator::TypePair>>& FailingPairs(
    const FaultModel& f) {
  static std::map<const FaultModel*,
                  std::vector<std::pair<const generator::OpDef*, generator::TypePair>>>
      known;
  auto it = known.find(&f);
  if (it != known.end()) return it->second;
  FaultDevice alone(f, nullptr);
  std::vector<std::pair<const generator::OpDef*, generator::TypePair>> pairs;
  for (const DiagnosisCell& cell : RunOverSmoke(alone).cells) {
    pairs.emplace_back(cell.first.c.op, cell.first.c.pair);
  }
  return known.emplace(&f, std::move(pairs)).first->second;
}

// The results file of `device` over the smoke suite.
std::string AnswersOverSmoke(Device& device) {
  const std::filesystem::path results =
      std::filesystem::path(::testing::TempDir()) / "diagnosis_answers.bin";
  RunOptions options;
  options.results = results;
  options.threads = 1;
  RunDevice(device, generator::VectorSelection(PTOVEC_TEST_SOURCE_DIR "/vectors/smoke"), options);
  std::ifstream in(results, std::ios::binary);
  std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  std::filesystem::remove(results);
  return bytes;
}

// Whether the causes are `want`, one each: a cause names its model, or lists it among the
// explanations that reproduce each of its vectors equally (the run cannot tell them apart).
void ExpectCauses(const CheckReport& report, std::vector<std::string> want,
                  const std::string& what) {
  const std::vector<Cause> causes = Causes(report);
  std::vector<std::string> got = CauseTexts(report);
  ASSERT_EQ(causes.size(), want.size()) << what << ": " << ::testing::PrintToString(got);
  for (const Cause& c : causes) {
    auto it = std::find(want.begin(), want.end(), c.text);
    for (std::size_t k : c.equally) {
      if (it == want.end()) it = std::find(want.begin(), want.end(), AllExplanations()[k].name);
    }
    ASSERT_NE(it, want.end()) << what << ": " << c.text << " of " << ::testing::PrintToString(got);
    want.erase(it);
  }
}

void ExpectTwoCauses(const FaultModel& first, const FaultModel& second) {
  FaultDevice both(first, &second);
  const CheckReport report = RunOverSmoke(both);
  std::vector<std::string> want{CauseName(first), CauseName(second)};
  // Where the second model fails only on pairs the first one covers, it is not seen.
  const auto& second_fails = FailingPairs(second);
  if (std::none_of(second_fails.begin(), second_fails.end(),
                   [&](const auto& p) { return !first.applies(*p.first, p.second); })) {
    want.pop_back();
  } else {
    // Where the second model alone answers every vector as the two do, the first is not seen
    // (e4m3-truncation is mode-ignored-rtz on E4M3).
    FaultDevice alone(second, nullptr);
    if (AnswersOverSmoke(alone) == AnswersOverSmoke(both)) want.erase(want.begin());
  }
  ExpectCauses(report, want, std::string(first.name) + " + " + std::string(second.name));
}

// Model i with model (7 i + 3) mod n: 76 of the catalogue's pairs (every pair: the long test
// below).
class TwoFaultModels : public ::testing::TestWithParam<std::size_t> {};

TEST_P(TwoFaultModels, AreTwoCauses) {
  const std::span<const FaultModel> all = generator::AllFaultModels();
  ExpectTwoCauses(all[GetParam()], all[(7 * GetParam() + 3) % all.size()]);
}

// Every ordered pair of distinct models (5,700 runs over the smoke suite, about half an hour):
// ctest label long.
TEST(DiagnosisLong, DISABLED_EveryTwoFaultModelsAreTwoCauses) {
  const std::span<const FaultModel> all = generator::AllFaultModels();
  for (std::size_t i = 0; i < all.size(); ++i) {
    for (std::size_t j = 0; j < all.size(); ++j) {
      if (i != j) ExpectTwoCauses(all[i], all[j]);
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Catalogue, TwoFaultModels,
                         ::testing::Range<std::size_t>(0, generator::AllFaultModels().size()),
                         [](const ::testing::TestParamInfo<std::size_t>& p) {
                           const auto all = generator::AllFaultModels();
                           return std::string(all[p.param].mutant) + "_with_" +
                                  std::string(all[(7 * p.param + 3) % all.size()].mutant);
                         });

// Pairs where the greedy cover alone (the explanation reproducing the most failing vectors first)
// gave other causes: "Sat always on" for two Sat faults, coincidental mode substitutions for a
// second fault's vectors, one model named for another that the run cannot tell apart.
const std::pair<std::string_view, std::string_view> kHardPairs[] = {
    {"non-sat-overflow-largest-finite", "tquant-non-sat-saturates"},
    {"non-sat-overflow-largest-finite", "s4x2-u4x2-always-clamped"},
    {"double-rounding-through-fp16", "sat-overflow-without-of"},
    {"double-rounding-through-bf16", "sat-overflow-without-of"},
    {"rtp-rtm-not-swapped-for-negatives", "unsigned-negative-nx-only"},
    {"tquant-non-sat-saturates", "non-sat-overflow-largest-finite"},
    {"tquant-non-sat-saturates", "s4x2-u4x2-always-clamped"},
    {"daz-subnormal-inputs", "sticky-bit-dropped"},
    {"daz-subnormal-inputs", "double-rounding-through-bf16"},
    {"fp8-overflow-after-rounding", "sat-overflow-without-of"},
    {"bf16-truncation", "mode-ignored-rtz"},
    {"bf16-truncation", "hif8-dot-field-mantissa-width"},
    {"e4m3-tiny-shift-modulo-32", "double-rounding-through-fp16"},
    {"e4m3-tiny-shift-modulo-32", "e4m3-truncation"},
    {"fpatr-lrelu-after-scale", "mode-ignored-rne"},
    {"mode-ignored-rne", "unsigned-negative-nx-only"},
    {"mode-ignored-rne", "fpatr-lrelu-after-scale"},
    {"mode-ignored-rtz", "unsigned-negative-nx-only"},
    {"e4m3-truncation", "mode-ignored-rtz"},
    {"hif8-dot-field-mantissa-width", "bf16-truncation"},
    {"s4x2-u4x2-always-clamped", "non-sat-overflow-largest-finite"},
    {"s4x2-u4x2-always-clamped", "tquant-non-sat-saturates"}};

const FaultModel& ModelNamed(std::string_view name) {
  for (const FaultModel& f : generator::AllFaultModels()) {
    if (f.name == name) return f;
  }
  throw std::invalid_argument("no fault model " + std::string(name));
}

class HardFaultModelPairs : public ::testing::TestWithParam<std::size_t> {};

TEST_P(HardFaultModelPairs, AreTwoCauses) {
  ExpectTwoCauses(ModelNamed(kHardPairs[GetParam()].first),
                  ModelNamed(kHardPairs[GetParam()].second));
}

INSTANTIATE_TEST_SUITE_P(Catalogue, HardFaultModelPairs,
                         ::testing::Range<std::size_t>(0, std::size(kHardPairs)),
                         [](const ::testing::TestParamInfo<std::size_t>& p) {
                           std::string name = std::string(kHardPairs[p.param].first) + "_with_" +
                                              std::string(kHardPairs[p.param].second);
                           std::replace(name.begin(), name.end(), '-', '_');
                           return name;
                         });

}  // namespace
}  // namespace ptovec::tools
