// `run --threads N` (RunDevice): the results file, the --mismatches file and the report (JSON,
// text, JUnit, causes) are byte for byte those of one thread, for a device with mismatches of
// each kind, waived and unsupported answers over a small generated suite, with and without a
// control selection, in both results formats; a device that answers bad flags stops both files at
// the same record whatever the thread count.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "gate_test_support.hpp"
#include "ptovec/generator/cases.hpp"
#include "ptovec/generator/readers.hpp"
#include "ptovec/generator/suite.hpp"
#include "ptovec/tools/causes.hpp"
#include "ptovec/tools/check.hpp"
#include "ptovec/tools/check_report.hpp"
#include "ptovec/tools/device.hpp"
#include "ptovec/tools/known_differences.hpp"
#include "ptovec/tools/results.hpp"

namespace ptovec::tools {
namespace run_threads_test {
namespace {

using oracle::NumericRoundingMode;
using testing::ReadAll;
using testing::WriteAll;

// The affine cases whose first input hashes to 3 of 8: those a device may answer flag 0x20.
bool BadFlags(const Case& c) {
  return c.op->name == "affine" && ((c.in[0] * 0x9E3779B97F4A7C15ULL) >> 61) == 3;
}

// The oracle, from any thread, wrong by mode and Sat (ops without controls are right): RTP Sat
// off a wrong word, RNA Sat on wrong flags (NX toggled), RHB Sat on both (word and OF), RTO Sat
// off unsupported, RTZ Sat on a wrong word that the rule of Judged() waives. With `bad_flags`,
// the cases of BadFlags get flag 0x20.

class FaultyDevice : public Device {
 public:
  explicit FaultyDevice(bool bad_flags = false) : bad_flags_(bad_flags) {}
  const std::string& Name() const override { return name_; }
  bool ThreadSafe() const override { return true; }
  void Evaluate(std::span<const Case> cases, std::span<DeviceAnswer> answers) override {
    for (std::size_t i = 0; i < cases.size(); ++i) {
      const Case& c = cases[i];
      DeviceAnswer& a = answers[i];
      a = {true, generator::EvaluateCase(c)};
      const auto mode = c.control.rounding_mode;
      const bool sat = c.control.saturating;
      if (mode == NumericRoundingMode::RTP && !sat) a.result.word ^= 1;
      if (mode == NumericRoundingMode::RNA && sat) a.result.status ^= oracle::kStatusNX;
      if (mode == NumericRoundingMode::RHB && sat) a.result.word ^= 1, a.result.status ^= 0x04;
      if (mode == NumericRoundingMode::RTO && !sat) a.supported = false;
      if (mode == NumericRoundingMode::RTZ && sat) a.result.word ^= 1;
      if (bad_flags_ && BadFlags(c)) a.result.status |= 0x20;
    }
  }

 private:
  std::string name_ = "faulty";
  bool bad_flags_;
};

// JUnit text with every time="<seconds>" written time="T" (the times are measured, so vary).
std::string TimesAsT(const std::string& xml) {
  return std::regex_replace(xml, std::regex(R"(time="[0-9]+\.[0-9]{3}")"), "time=\"T\"");
}

// What a run gives: its files and its report in each form.
struct RunOutputs {
  std::string results;
  std::string mismatches;
  std::string json;
  std::string text;
  std::string junit;
  std::string causes;
  CheckReport report;
};

void ExpectSameText(const std::string& a, const std::string& b, const std::string& what);

class RunThreads : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    dir_ = testing::TempDir("threads");
    // 30 sampled inputs of five pairs with controls (420 vectors each) and of qparam (30, no
    // controls), all of FP32 (8- and 16-bit sources are taken whole): one manifest, read once
    // per run.
    generator::GenerateOptions options;
    options.out_dir = dir_ / "suite";
    options.sampling = {7, 30};
    options.threads = 1;
    std::vector<generator::Job> jobs;
    for (const auto& [op, src, dst] :
         std::vector<std::tuple<const char*, oracle::TileDataType, oracle::TileDataType>>{
             {"tcvt", oracle::TileDataType::FP32, oracle::TileDataType::E8M0},
             {"encode", oracle::TileDataType::FP32, oracle::TileDataType::FP16},
             {"qparam", oracle::TileDataType::FP32, oracle::TileDataType::U64},
             {"tquant", oracle::TileDataType::FP32, oracle::TileDataType::S8},
             {"affine", oracle::TileDataType::FP32, oracle::TileDataType::S8},
             {"encode", oracle::TileDataType::FP32, oracle::TileDataType::E4M3}}) {
      jobs.push_back({generator::FindOp(op), {src, dst}});
    }
    generator::GenerateSuite(jobs, options);
  }
  static void TearDownTestSuite() { std::filesystem::remove_all(dir_); }

  // The judge of every run: the ieee754 model (its deviations counted on every answer) and a
  // rule that waives RTZ Sat on's wrong words.
  static Judge Judged() {
    const std::filesystem::path rule = dir_ / "rtz.json";
    WriteAll(rule, R"({"format":"ptovec-known-differences","version":2,"name":"t","rules":[)"
                   R"({"name":"rtz-word","reason":"test","rmode":"RTZ","sat":"on",)"
                   R"("word":"any","flags":"same"}]})");
    Judge judge;
    judge.known = LoadKnownDifferences({"ieee754", rule.string()});
    return judge;
  }

  // A run of Suite() through `device` on `threads` threads, chunks of `batch` cases at most.
  static RunOutputs Run(Device& device, unsigned threads, const std::string& rmode = "",
                        ResultsFormat format = ResultsFormat::Binary, std::size_t batch = 64) {
    RunOptions options;
    options.results = dir_ / ("results." + std::to_string(threads));
    options.format = format;
    options.batch = batch;
    options.threads = threads;
    options.max_report = 7;
    options.controls = generator::ParseControlFilter(rmode, "");
    options.mismatches = {dir_ / ("mismatches." + std::to_string(threads)), true};
    options.judge = Judged();
    RunOutputs out;
    out.report = RunDevice(device, Suite(), options);
    out.results = ReadAll(options.results);
    out.mismatches = ReadAll(options.mismatches.path);
    out.json = ReportJson(out.report).dump(1);
    std::ostringstream text;
    PrintReport(text, out.report, options.max_report);
    out.text = text.str();
    out.junit = TimesAsT(JunitXml(out.report));
    for (const Cause& c : Causes(out.report)) out.causes += c.text + "\n";
    return out;
  }

  static generator::VectorSelection Suite() { return generator::VectorSelection(dir_ / "suite"); }

  // Every output of `threads` threads equals that of `one`.
  static void ExpectSame(const RunOutputs& one, const RunOutputs& threads) {
    ExpectSameText(one.results, threads.results, "the results files");
    ExpectSameText(one.mismatches, threads.mismatches, "the --mismatches files");
    ExpectSameText(one.json, threads.json, "the JSON reports");
    ExpectSameText(one.text, threads.text, "the text reports");
    ExpectSameText(one.junit, threads.junit, "the JUnit reports");
    ExpectSameText(one.causes, threads.causes, "the causes");
  }

  static inline std::filesystem::path dir_;
};

// Expects `a` == `b`, else names their first differing line (never a diff of the whole text:
// gtest's would take more memory than the machine has).
void ExpectSameText(const std::string& a, const std::string& b, const std::string& what) {
  if (a == b) return;
  std::istringstream in_a(a);
  std::istringstream in_b(b);
  std::string line_a;
  std::string line_b;
  std::size_t line = 1;
  while (std::getline(in_a, line_a) && std::getline(in_b, line_b) && line_a == line_b) ++line;
  const auto shown = [](const std::string& text) {
    std::string out = text.substr(0, 300);
    for (char& ch : out) {
      if (static_cast<unsigned char>(ch) < 0x20 || static_cast<unsigned char>(ch) > 0x7e) ch = '.';
    }
    return out;
  };
  ADD_FAILURE() << what << " differ at line " << line << ":\n  " << shown(line_a) << "\n  "
                << shown(line_b);
}

TEST_F(RunThreads, EveryOutputIsThatOfOneThread) {
  FaultyDevice device;
  // One thread, each file in one part: the answers checked in record order.
  const RunOutputs one = Run(device, 1, "", ResultsFormat::Binary, 1 << 20);
  // The run has every verdict, in several chunks of every file, and diagnoses its mismatches.
  const CheckReport& r = one.report;
  ASSERT_TRUE(r.throughput.has_value());
  EXPECT_EQ(r.throughput->threads, 1U);
  EXPECT_EQ(r.files, 6U);
  EXPECT_EQ(r.vectors, 5U * 420U + 30U);
  EXPECT_GT(r.mismatched, 0U);
  EXPECT_GT(r.word, 0U);
  EXPECT_GT(r.flags, 0U);
  EXPECT_GT(r.both, 0U);
  EXPECT_GT(r.unsupported, 0U);
  EXPECT_GT(r.waived, 0U);
  EXPECT_EQ(r.first.size(), 7U);
  EXPECT_GT(r.groups.size(), 10U);
  EXPECT_FALSE(r.cells.empty());
  EXPECT_FALSE(one.causes.empty());
  // Every RTZ Sat on answer is waived and every RTO Sat off one unsupported: as many as those
  // controls' vectors.
  std::uint64_t rtz_on = 0;
  std::uint64_t rtz_waived = 0;
  std::uint64_t rto_off = 0;
  for (const FileTally& f : r.per_file) {
    if (!f.op->uses_controls) continue;
    const ControlTally& rtz =
        f.controls[static_cast<std::size_t>(NumericRoundingMode::RTZ) * 2 + 1];
    rtz_on += rtz.total;
    rtz_waived += rtz.waived;
    rto_off += f.controls[static_cast<std::size_t>(NumericRoundingMode::RTO) * 2].total;
  }
  EXPECT_GT(rtz_on, 100U);
  EXPECT_EQ(rtz_waived, rtz_on);  // by the rule, or by the model where it answers so
  EXPECT_EQ(r.unsupported, rto_off);
  // `check` of its results file: the same report, the same --mismatches file.
  const std::filesystem::path mismatches = dir_ / "check.jsonl";
  const CheckReport check =
      CheckResults(Suite(), dir_ / "results.1", 7, false, {mismatches, true}, {}, Judged());
  ExpectSameText(ReportJson(check).dump(1), one.json, "check's and run's JSON reports");
  ExpectSameText(ReadAll(mismatches), one.mismatches, "check's and run's --mismatches files");
  // Chunks of 64 cases at most on 2 and 3 threads.
  for (unsigned threads : {2U, 3U}) {
    SCOPED_TRACE(threads);
    const RunOutputs many = Run(device, threads);
    EXPECT_EQ(many.report.throughput->threads, threads);
    ExpectSame(one, many);
  }
}

TEST_F(RunThreads, AControlSelectionAndJsonResultsToo) {
  FaultyDevice device;
  const RunOutputs one = Run(device, 1, "RTP,RNA,RTZ,RTO", ResultsFormat::Json, 1 << 20);
  EXPECT_GT(one.report.mismatched, 0U);
  EXPECT_GT(one.report.unsupported, 0U);
  EXPECT_GT(one.report.waived, 0U);
  const RunOutputs two = Run(device, 2, "RTP,RNA,RTZ,RTO", ResultsFormat::Json);
  EXPECT_EQ(two.report.throughput->threads, 2U);
  ExpectSame(one, two);
}

// Flags with bits 7:5 stop the run at the first such answer: both files hold every record before
// it, however many threads evaluated the chunks around it.
// The records of Suite() before the first that BadFlags takes, and its index in its file.
std::pair<std::uint64_t, std::uint64_t> FirstBadFlags(const generator::VectorSelection& suite) {
  std::uint64_t before = 0;
  std::vector<generator::VectorRecord> records;
  for (const generator::VectorSource& source : generator::SelectVectorFiles(suite)) {
    const auto reader = generator::OpenVectorSource(source);
    std::uint64_t index = 0;
    while (reader->Read(records, 1000) > 0) {
      for (const generator::VectorRecord& r : records) {
        if (BadFlags(r.c)) return {before, index};
        ++before;
        ++index;
      }
    }
  }
  return {before, 0};
}

TEST_F(RunThreads, BadFlagsStopEveryFileAtTheSameRecord) {
  // The first is in a later file, past the first chunks of 64 of its file.
  const auto [stop, in_file] = FirstBadFlags(Suite());
  EXPECT_GT(in_file, 128U);
  EXPECT_GT(stop, 768U);  // past the first batch of three threads (64 x 3 x 4 records)
  FaultyDevice device(true);
  std::vector<std::string> results;
  std::vector<std::string> mismatches;
  for (unsigned threads : {1U, 2U, 3U}) {
    RunOptions options;
    options.results = dir_ / "stopped.bin";
    options.batch = 64;
    options.threads = threads;
    options.mismatches = {dir_ / "stopped.jsonl", false};
    options.judge.diagnose = false;  // (no report to compare: the diagnosis would only cost)
    std::string error;
    try {
      RunDevice(device, Suite(), options);
    } catch (const DeviceError& e) {
      error = e.what();
    }
    EXPECT_NE(error.find("answered flags 0x"), std::string::npos) << error;
    ResultsReader reader(options.results);
    ASSERT_TRUE(reader.stopped().has_value());
    EXPECT_EQ(reader.stopped()->records, stop);
    results.push_back(ReadAll(options.results));
    mismatches.push_back(ReadAll(options.mismatches.path));
  }
  EXPECT_FALSE(mismatches[0].empty());
  for (std::size_t k = 1; k < results.size(); ++k) {
    ExpectSameText(results[0], results[k], "the stopped results files");
    ExpectSameText(mismatches[0], mismatches[k], "the stopped --mismatches files");
  }
}

}  // namespace
}  // namespace run_threads_test
}  // namespace ptovec::tools
