// check and run: exact tallies by op, types, mode, Sat and kind for a device that is wrong on
// known cases; refusal of results from another suite or file version; the text and JUnit reports.
#include "ptovec/tools/check.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <functional>
#include <mutex>
#include <regex>
#include <set>
#include <sstream>
#include <thread>
#include <vector>

#include "gate_test_support.hpp"
#include "ptovec/generator/word_text.hpp"
#include "ptovec/tools/check_outputs.hpp"
#include "ptovec/tools/check_report.hpp"
#include "ptovec_dut.h"

namespace ptovec::tools {
namespace check_test {
namespace {

using generator::InputError;
using oracle::NumericRoundingMode;
using testing::ErrorOf;
using testing::ReadAll;
using testing::TestDevice;
using testing::WriteAll;

// RTP Sat off: wrong word; RNA Sat on: wrong flags (NX toggled); RHB Sat on: both; RTO Sat off:
// unsupported. Each is 50 of the 700 tquant vectors.
// JUnit text with every time="<seconds>" written time="T" (the times are measured, so vary).
std::string TimesAsT(const std::string& xml) {
  return std::regex_replace(xml, std::regex(R"(time="[0-9]+\.[0-9]{3}")"), "time=\"T\"");
}

void KnownFaults(const Case& c, DeviceAnswer& a) {
  const auto mode = c.control.rounding_mode;
  const bool sat = c.control.saturating;
  if (mode == NumericRoundingMode::RTP && !sat) a.result.word ^= 1;
  if (mode == NumericRoundingMode::RNA && sat) a.result.status ^= 0x10;
  if (mode == NumericRoundingMode::RHB && sat) a.result.word ^= 0x80, a.result.status ^= 0x04;
  if (mode == NumericRoundingMode::RTO && !sat) a.supported = false;
}

class Gate : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    dir_ = testing::TempDir("check");
    testing::GenerateSmallSuite(dir_);
  }
  static void TearDownTestSuite() { std::filesystem::remove_all(dir_); }
  static inline std::filesystem::path dir_;
};

void ExpectKnownFaultTallies(const CheckReport& r) {
  EXPECT_EQ(r.files, 1u);
  EXPECT_EQ(r.vectors, 700u);
  EXPECT_EQ(r.matched, 500u);
  EXPECT_EQ(r.mismatched, 150u);
  EXPECT_EQ(r.unsupported, 50u);
  EXPECT_EQ(r.word, 50u);
  EXPECT_EQ(r.flags, 50u);
  EXPECT_EQ(r.both, 50u);
  EXPECT_FALSE(r.passed());
  EXPECT_EQ(ExitStatusFor(r), 1);
  ASSERT_EQ(r.per_file.size(), 1u);
  const auto& c = r.per_file[0].controls;
  EXPECT_EQ(c[2 * 2 + 0].word, 50u);         // RTP off
  EXPECT_EQ(c[4 * 2 + 1].flags, 50u);        // RNA on
  EXPECT_EQ(c[6 * 2 + 1].both, 50u);         // RHB on
  EXPECT_EQ(c[5 * 2 + 0].unsupported, 50u);  // RTO off
  std::uint64_t failing_controls = 0;
  for (const ControlTally& t : c) {
    EXPECT_EQ(t.total, 50u);
    failing_controls += t.failed() > 0 ? 1 : 0;
  }
  EXPECT_EQ(failing_controls, 4u);
  // Input 0's records 4 (RTP off), 9 (RNA on), 10 (RTO off) come first.
  ASSERT_EQ(r.first.size(), 3u);
  EXPECT_EQ(r.first[0].index, 4u);
  EXPECT_EQ(r.first[0].kind, MismatchKind::Word);
  EXPECT_EQ(r.first[1].index, 9u);
  EXPECT_EQ(r.first[1].kind, MismatchKind::Flags);
  EXPECT_EQ(r.first[2].index, 10u);
  EXPECT_EQ(r.first[2].kind, MismatchKind::Unsupported);
  EXPECT_EQ(r.first[0].got.result.word, r.first[0].expected.word ^ 1);
  EXPECT_EQ(r.first[0].file, "tquant_fp32_s8.bin");
}

TEST_F(Gate, RunAndCheckTallyAKnownFaultyDeviceExactly) {
  for (ResultsFormat format : {ResultsFormat::Binary, ResultsFormat::Json}) {
    TestDevice device(KnownFaults);
    RunOptions options;
    options.results = dir_ / (format == ResultsFormat::Binary ? "r.bin" : "r.jsonl");
    options.format = format;
    options.max_report = 3;
    options.batch = 64;
    const CheckReport run = RunDevice(device, dir_, options);
    EXPECT_EQ(device.calls(), 700u);
    EXPECT_EQ(run.device, "test-oracle");
    ExpectKnownFaultTallies(run);
    const CheckReport check = CheckResults(dir_, options.results, 3);
    EXPECT_EQ(check.device, "test-oracle");
    ExpectKnownFaultTallies(check);
  }
  const auto mismatches = ResultsMismatches(dir_, dir_ / "r.bin", 2);
  ASSERT_EQ(mismatches.size(), 2u);
  EXPECT_EQ(mismatches[1].index, 9u);
  EXPECT_EQ(mismatches[1].c.control.rounding_mode, NumericRoundingMode::RNA);
  EXPECT_TRUE(mismatches[1].c.control.saturating);
  EXPECT_EQ(mismatches[1].got.result.status, mismatches[1].expected.status ^ 0x10);
}

TEST_F(Gate, TheOracleAsADevicePasses) {
  TestDevice device;
  RunOptions options;
  options.results = dir_ / "qparam" / "ok.bin";
  const CheckReport r = RunDevice(device, dir_ / "qparam", options);
  EXPECT_TRUE(r.passed());
  EXPECT_EQ(ExitStatusFor(r), 0);
  EXPECT_EQ(r.vectors, 30u);
  EXPECT_EQ(r.per_file[0].controls[0].total, 30u);  // no controls: all in (RNE, off)
  EXPECT_TRUE(CheckResults(dir_ / "qparam", options.results, 20).passed());
  const std::string xml = TimesAsT(JunitXml(r));
  EXPECT_NE(xml.find("<testsuites name=\"ptovec\" tests=\"1\" failures=\"0\""), std::string::npos)
      << xml;
  EXPECT_NE(xml.find("name=\"RNE sat=off (no controls)\" time=\"T\"/>"), std::string::npos) << xml;
  std::ostringstream text;
  PrintReport(text, r, 20);
  // A passing report: the totals, the environment (no vectors named: RunDevice's caller sets
  // them), the by-pair table and PASS.
  EXPECT_EQ(text.str(),
            "ptovec: 1 file, 30 vectors: 30 matched, 0 mismatched, 0 unsupported (device "
            "test-oracle)\n"
            "environment: ptovec " PTOVEC_VERSION
            ", spec edition 0.58.3\n"
            "by pair (failed: mismatched, no rule waives them):\n"
            "  op       src   dst        vectors     matched      waived      failed unsupported\n"
            "  qparam   fp32  u64             30          30           0           0           0\n"
            "  total                          30          30           0           0           0\n"
            "PASS\n");
}

// The oracle as a thread-safe device that records the threads it was called from and the size
// of each call.
class ThreadRecordingDevice : public Device {
 public:
  const std::string& Name() const override { return name_; }
  bool ThreadSafe() const override { return true; }
  void Evaluate(std::span<const Case> cases, std::span<DeviceAnswer> answers) override {
    for (std::size_t i = 0; i < cases.size(); ++i) {
      answers[i] = {true, generator::EvaluateCase(cases[i])};
    }
    std::lock_guard<std::mutex> lock(mutex_);
    threads_.insert(std::this_thread::get_id());
    calls_.push_back(cases.size());
  }
  std::size_t threads() const { return threads_.size(); }
  const std::vector<std::size_t>& calls() const { return calls_; }

 private:
  std::string name_ = "thread-recorder";
  std::mutex mutex_;
  std::set<std::thread::id> threads_;
  std::vector<std::size_t> calls_;
};

// `run --threads 2` with and without --rmode: every thread gets chunks of the batches. (A control
// selection used to leave the parts it read too short to split, so one thread ran.)
TEST_F(Gate, AControlSelectedRunUsesTheThreadsAskedFor) {
  struct Selection {
    const char* rmode;
    std::uint64_t vectors;
    std::vector<std::size_t> calls;
  };
  // Batches of 512 records read (64 x 2 threads x 4 chunks), in chunks of `batch` (64) cases at
  // most and at least: the first batch keeps 74 RNE vectors (37 inputs x Sat off and on), two
  // chunks (64, 10), the second 26 (13 inputs); all 700 are 8 chunks of 64, then 64, 64 and 60.
  for (const Selection& s : {Selection{"RNE", 100, {64, 26, 10}},
                             Selection{"", 700, {64, 64, 64, 64, 64, 64, 64, 64, 64, 64, 60}}}) {
    SCOPED_TRACE(s.rmode);
    ThreadRecordingDevice device;
    RunOptions options;
    options.results = dir_ / "threads.bin";
    options.batch = 64;
    options.threads = 2;
    options.controls = generator::ParseControlFilter(s.rmode, "");
    const CheckReport r = RunDevice(device, dir_, options);
    EXPECT_TRUE(r.passed());
    EXPECT_EQ(r.vectors, s.vectors);
    EXPECT_EQ(device.threads(), 2u);
    std::vector<std::size_t> calls = device.calls();
    std::sort(calls.begin(), calls.end(), std::greater<>());
    EXPECT_EQ(calls, s.calls);
    ASSERT_TRUE(r.throughput.has_value());
    EXPECT_EQ(r.throughput->cases, s.vectors);
    EXPECT_EQ(r.throughput->threads, 2u);
    EXPECT_FALSE(r.throughput->clocks.has_value());  // not a clocked device
  }
  // --threads 1: one thread, whatever the selection.
  ThreadRecordingDevice device;
  RunOptions options;
  options.results = dir_ / "threads.bin";
  options.batch = 64;
  options.threads = 1;
  options.controls = generator::ParseControlFilter("RNE", "");
  const CheckReport r = RunDevice(device, dir_, options);
  EXPECT_EQ(device.threads(), 1u);
  EXPECT_EQ(r.throughput->threads, 1u);
}

// A device whose status port is in RISC-V order (bit 0 NX .. bit 4 NV) copied straight through.
TEST_F(Gate, FlagsInReverseOrderGetAHint) {
  TestDevice device([](const Case&, DeviceAnswer& a) {
    a.result.status =
        ptovec_dut_flags_from_spec(a.result.status, PTOVEC_DUT_FLAG_ORDER_RISCV) & 0x1Fu;
  });
  RunOptions options;
  options.results = dir_ / "reversed.bin";
  const CheckReport r = RunDevice(device, dir_, options);
  // Only 0x00 and 0x04 (OF alone) are their own reverse among the seeds' statuses.
  EXPECT_EQ(r.vectors, 700u);
  EXPECT_EQ(r.word, 0u);
  EXPECT_EQ(r.both, 0u);
  EXPECT_EQ(r.matched + r.flags, 700u);
  EXPECT_EQ(r.flags, 546u);  // the 154 others are exact, in range: status 0x00
  EXPECT_EQ(r.flags_reversed, r.flags);
  // This file's statuses have one flag at most: no two-flag status tells a reversal from a fault
  // that swaps NX and NV (tests/rtl/test_rtl_dut.py has the E8M0 unit's OF|NX and UF|NX too).
  EXPECT_EQ(r.flags_reversed_two_bits, 0u);
  std::ostringstream text;
  PrintReport(text, r, 0);
  EXPECT_NE(
      text.str().find("hint: " + std::to_string(r.flags) + " of the " + std::to_string(r.flags) +
                      " wrong-flags vectors hold the expected flags in reverse order"),
      std::string::npos)
      << text.str();
  // The same from the results file, and none for faults that are not a reversal.
  EXPECT_EQ(CheckResults(dir_, options.results, 0).flags_reversed, r.flags);
  TestDevice toggled(KnownFaults);
  RunOptions plain;
  plain.results = dir_ / "toggled.bin";
  const CheckReport t = RunDevice(toggled, dir_, plain);
  EXPECT_EQ(t.flags, 50u);
  EXPECT_EQ(t.flags_reversed, 0u);
  std::ostringstream other;
  PrintReport(other, t, 0);
  EXPECT_EQ(other.str().find("hint:"), std::string::npos) << other.str();
  // NV where NX alone is expected (a range test made before rounding) is NX reversed as well,
  // but no flag order: without a two-bit status reversed, no hint.
  TestDevice nv_for_nx([](const Case&, DeviceAnswer& a) {
    if (a.result.status == oracle::kStatusNX) a.result.status = oracle::kStatusNV;
  });
  RunOptions nv;
  nv.results = dir_ / "nv.bin";
  const CheckReport n = RunDevice(nv_for_nx, dir_, nv);
  EXPECT_GT(n.flags, 0u);
  EXPECT_EQ(n.flags_reversed, n.flags);
  EXPECT_EQ(n.flags_reversed_two_bits, 0u);
  std::ostringstream nv_text;
  PrintReport(nv_text, n, 0);
  EXPECT_NE(nv_text.str().find("in reverse order (bit 0 NX .. bit 4 NV, as RISC-V fflags), but "
                               "each has one flag only (NV for NX, or NX for NV)"),
            std::string::npos)
      << nv_text.str();
  EXPECT_EQ(nv_text.str().find("convert the device's status to ptovec's order"), std::string::npos)
      << nv_text.str();
}

TEST_F(Gate, ResultsOfAnotherSuiteOrFileVersionAreRefused) {
  TestDevice device;
  RunOptions options;
  options.results = dir_ / "tq.jsonl";
  options.format = ResultsFormat::Json;
  RunDevice(device, dir_, options);
  std::string e = ErrorOf([&] { CheckResults(dir_ / "qparam", options.results, 20); });
  EXPECT_NE(e.find("results section 0 (tquant_fp32_s8.bin) does not match the vectors: file "
                   "tquant_fp32_s8.bin in the results, qparam_fp32_u64.bin"),
            std::string::npos)
      << e;
  // Another SHA-256 in the header.
  std::string text = ReadAll(options.results);
  const std::size_t sha = text.find("\"sha256\":\"") + 10;
  text[sha] = text[sha] == '0' ? '1' : '0';
  const auto forged = dir_ / "forged.jsonl";
  WriteAll(forged, text);
  e = ErrorOf([&] { CheckResults(dir_, forged, 20); });
  EXPECT_NE(e.find("does not match the vectors: SHA-256"), std::string::npos) << e;
  // The same file without a manifest: the SHA-256 is compared once the file is read.
  const auto plain = dir_ / "plain";
  std::filesystem::create_directories(plain);
  std::filesystem::copy_file(dir_ / "tquant_fp32_s8.bin", plain / "tquant_fp32_s8.bin",
                             std::filesystem::copy_options::overwrite_existing);
  e = ErrorOf([&] { CheckResults(plain, forged, 20); });
  EXPECT_NE(e.find("does not match the vectors: SHA-256"), std::string::npos) << e;
  EXPECT_EQ(ErrorOf([&] { CheckResults(plain, options.results, 20); }), "");
}

TEST_F(Gate, AVectorFileChangedSinceItsManifestIsRefused) {
  const auto copy = dir_ / "changed";
  std::filesystem::create_directories(copy);
  std::filesystem::copy_file(dir_ / "manifest.json", copy / "manifest.json",
                             std::filesystem::copy_options::overwrite_existing);
  std::string bytes = ReadAll(dir_ / "tquant_fp32_s8.bin");
  bytes[bytes.size() - 1] = static_cast<char>(bytes.back() ^ 0x10);  // the last record's flags
  WriteAll(copy / "tquant_fp32_s8.bin", bytes);
  std::filesystem::copy_file(dir_ / "tquant_fp32_s8.json", copy / "tquant_fp32_s8.json",
                             std::filesystem::copy_options::overwrite_existing);
  TestDevice device;
  RunOptions options;
  options.results = copy / "r.bin";
  const std::string e = ErrorOf([&] { RunDevice(device, copy, options); });
  EXPECT_NE(e.find("tquant_fp32_s8.bin has SHA-256 "), std::string::npos) << e;
  EXPECT_NE(e.find(", its manifest says "), std::string::npos) << e;
  EXPECT_FALSE(std::filesystem::exists(options.results));
}

TEST_F(Gate, ReportAndJunitNameTheFailures) {
  TestDevice device(KnownFaults);
  RunOptions options;
  options.results = dir_ / "faulty.bin";
  options.max_report = 2;
  const CheckReport r = RunDevice(device, dir_, options);
  std::ostringstream text;
  PrintReport(text, r, 2);
  const std::string out = text.str();
  EXPECT_NE(out.find("ptovec: 1 file, 700 vectors: 500 matched, 150 mismatched, 50 unsupported"),
            std::string::npos)
      << out;
  EXPECT_NE(out.find("by kind: wrong word 50, wrong flags 50, both 50, unsupported 50"),
            std::string::npos)
      << out;
  EXPECT_NE(out.find("  tquant   fp32  s8    RTP   off            50          50           0"),
            std::string::npos)
      << out;
  EXPECT_NE(out.find("first 2 of 200 failed vectors (mismatched or unsupported):"),
            std::string::npos)
      << out;
  EXPECT_NE(out.find("ptovec eval --op tquant --src fp32 --dst s8 --rmode RTP "), std::string::npos)
      << out;
  EXPECT_NE(out.find("[wrong word]"), std::string::npos) << out;
  EXPECT_NE(out.find("FAIL: 150 mismatched, 50 unsupported of 700 vectors"), std::string::npos);
  const std::string xml = TimesAsT(JunitXml(r));
  EXPECT_NE(xml.find("<testsuites name=\"ptovec\" tests=\"14\" failures=\"4\""), std::string::npos);
  EXPECT_NE(xml.find("<testsuite name=\"tquant_fp32_s8.bin\" tests=\"14\" failures=\"4\""),
            std::string::npos);
  EXPECT_NE(xml.find("<testcase classname=\"ptovec.tquant_fp32_s8\" name=\"RTO sat=off\" "
                     "time=\"T\">\n      <failure type=\"mismatch\" message=\"50 of 50 vectors "
                     "failed (wrong word 0, wrong flags 0, both 0, unsupported 50)\">"),
            std::string::npos)
      << xml;
  EXPECT_NE(xml.find("name=\"RNE sat=off\" time=\"T\"/>"), std::string::npos);
  EXPECT_NE(xml.find("-&gt; s8"), std::string::npos);  // escaped "->"
  EXPECT_EQ(xml.find("-> s8"), std::string::npos);
}

TEST_F(Gate, FlagsAboveBitFourAreADeviceError) {
  TestDevice device([](const Case&, DeviceAnswer& a) { a.result.status |= 0x20; });
  RunOptions options;
  options.results = dir_ / "never.bin";
  try {
    RunDevice(device, dir_ / "qparam", options);
    FAIL() << "no DeviceError";
  } catch (const DeviceError& e) {
    EXPECT_NE(std::string(e.what()).find("qparam_fp32_u64.bin record 0"), std::string::npos);
  }
  // The results file is kept, marked as a run that stopped early with no record answered.
  ResultsReader reader(options.results);
  ASSERT_TRUE(reader.stopped().has_value());
  EXPECT_EQ(reader.stopped()->records, 0u);
  EXPECT_NE(reader.stopped()->reason.find("answered flags 0x20 for qparam_fp32_u64.bin record 0"),
            std::string::npos);
  // check reads it as incomplete: it never passes.
  const CheckReport report = CheckResults(dir_ / "qparam", options.results, 5);
  EXPECT_FALSE(report.passed());
  EXPECT_EQ(report.vectors, 0u);
  EXPECT_NE(report.incomplete.find("the run stopped after 0 of"), std::string::npos);
  EXPECT_EQ(ExitStatusFor(report), 1);
}

TEST_F(Gate, JunitReplacesWhatXmlDoesNotAllow) {
  generator::VectorReader reader(dir_ / "tquant_fp32_s8.bin");
  std::vector<generator::VectorRecord> records;
  reader.Read(records, 1);
  CheckAccumulator acc(5);
  // U+FFFF, a lone 0xFF byte, a control character, a truncated sequence; é is kept.
  acc.BeginFile(
      "a\xEF\xBF\xBF"
      "b\xFF"
      "c\x01"
      "d\xC3\xA9"
      "e\xE2\x82.bin",
      *records[0].c.op, records[0].c.pair, 1);
  DeviceAnswer wrong{true, records[0].expected};
  wrong.result.word ^= 1;
  acc.Add(0, records[0], wrong);
  const std::string xml = JunitXml(acc.Finish());
  EXPECT_NE(xml.find("<testsuite name=\"a?b?c?d\xC3\xA9"
                     "e??.bin\""),
            std::string::npos)
      << xml;
  EXPECT_NE(xml.find("classname=\"ptovec.a?b?c?d\xC3\xA9"
                     "e??\""),
            std::string::npos)
      << xml;
  EXPECT_EQ(xml.find("\xEF\xBF\xBF"), std::string::npos);
  EXPECT_EQ(xml.find('\xFF'), std::string::npos);
}

TEST_F(Gate, OutputsThatAreInputsOrEachOtherAreRefused) {
  const auto inputs = VectorInputFiles(dir_);
  ASSERT_EQ(inputs.size(), 2u);  // the binary file and the manifest
  const auto vector_file = dir_ / "tquant_fp32_s8.bin";
  EXPECT_EQ(ErrorOf([&] {
              RefuseOverwritingInputs({{"--results", dir_ / "." / "tquant_fp32_s8.bin"}}, inputs);
            }),
            "--results " + (dir_ / "." / "tquant_fp32_s8.bin").string() + " is an input file (" +
                vector_file.string() +
                "); give an output path that is not a vector, manifest or "
                "results file read by this command");
  EXPECT_NE(ErrorOf([&] {
              RefuseOverwritingInputs({{"--junit", dir_ / "manifest.json"}}, inputs);
            }).find("--junit " + (dir_ / "manifest.json").string() + " is an input file"),
            std::string::npos);
  EXPECT_EQ(ErrorOf([&] {
              RefuseOverwritingInputs(
                  {{"--results", dir_ / "same.out"}, {"--junit", dir_ / "x" / ".." / "same.out"}},
                  {});
            }),
            "--junit " + (dir_ / "x" / ".." / "same.out").string() +
                " is also the --results file; give the two outputs different paths");
  EXPECT_EQ(ErrorOf([&] {
              RefuseOverwritingInputs({{"--results", dir_ / "r2.bin"}}, inputs);
            }),
            "");
  EXPECT_EQ(ErrorOf([&] {
              CheckOutputFolder({"--junit", "/nonexistent/dir/j.xml"});
            }),
            "--junit /nonexistent/dir/j.xml: its folder /nonexistent/dir does not exist (create it "
            "first)");
  EXPECT_EQ(ErrorOf([&] {
              CheckOutputFolder({"--junit", dir_});
            }),
            "--junit " + dir_.string() + " is a folder (expected a file path)");
}

TEST_F(Gate, ASectionOfAnotherOpNamesBothPairs) {
  TestDevice device;
  RunOptions options;
  options.results = dir_ / "op.jsonl";
  options.format = ResultsFormat::Json;
  RunDevice(device, dir_, options);
  std::string text = ReadAll(options.results);
  text.replace(text.find("\"op\":\"tquant\""), 13, "\"op\":\"encode\"");
  WriteAll(options.results, text);
  const std::string e = ErrorOf([&] { CheckResults(dir_, options.results, 20); });
  EXPECT_NE(e.find("does not match the vectors: op encode fp32 -> s8 in the results, tquant fp32 "
                   "-> s8 in "),
            std::string::npos)
      << e;
}

TEST(GateNames, FlagNamesAndKinds) {
  EXPECT_EQ(FlagNames(0x14), "OF|NX");
  EXPECT_EQ(FlagNames(0x01), "NV");
  EXPECT_EQ(FlagNames(0x00), "-");
  EXPECT_EQ(FlagNames(0x1F), "NV|DZ|OF|UF|NX");
  EXPECT_EQ(MismatchKindName(MismatchKind::Both), "both");
  EXPECT_FALSE(CheckReport{}.passed());  // zero vectors never pass
}

}  // namespace
}  // namespace check_test
}  // namespace ptovec::tools

namespace ptovec::tools {
namespace check_test {
namespace {

// A device wrong on every positive subnormal FP16 input (codes 0x0001..0x03ff) of TCVT to E8M0:
// the report's class table shows both +subnormal rows failing in full, and --mismatches lists
// each failing vector once, in order, with its class.
TEST(MismatchClasses, EverySubnormalWrongIsVisibleAndExported) {
  const auto dir = testing::TempDir("classes");
  generator::GenerateOptions generate;
  generate.out_dir = dir;
  generator::GenerateSuite({{generator::FindOp("tcvt"), {TileDataType::FP16, TileDataType::E8M0}}},
                           generate);
  TestDevice device([](const Case& c, DeviceAnswer& a) {
    if (c.in[0] >= 0x0001 && c.in[0] <= 0x03FF) a.result.word ^= 1;
  });
  RunOptions options;
  options.results = dir / "r.bin";
  options.mismatches.path = dir / "mismatches.jsonl";
  const CheckReport r = RunDevice(device, dir, options);
  EXPECT_EQ(r.mismatched, 1023u * 14);
  const auto& classes = r.per_file.at(0).classes;
  std::uint64_t failed = 0;
  for (std::size_t k = 0; k < classes.size(); ++k) {
    const std::string name = generator::VectorClassName(k);
    failed += classes[k][1];
    if (name.starts_with("+subnormal ")) {
      EXPECT_EQ(classes[k][1], classes[k][0]) << name;  // every one
    } else {
      EXPECT_EQ(classes[k][1], 0u) << name;
    }
  }
  EXPECT_EQ(failed, 1023u * 14);
  // 2^-24 .. 2^-15 (ten powers of two) are exact in E8M0 under every control: 140 vectors.
  const std::size_t subnormal_exact = generator::VectorClass{3, 0}.index();
  EXPECT_EQ(classes[subnormal_exact][0], 140u);
  std::ostringstream text;
  PrintReport(text, r, 0);
  EXPECT_NE(text.str().find("+subnormal exact                 140         140  (every one)"),
            std::string::npos)
      << text.str();
  const std::string lines = ReadAll(options.mismatches.path);
  EXPECT_EQ(static_cast<std::uint64_t>(std::count(lines.begin(), lines.end(), '\n')), 1023u * 14);
  EXPECT_EQ(lines.substr(0, lines.find('\n')),
            R"({"file":"tcvt_fp16_e8m0.bin","record":14,"op":"tcvt","src":"fp16","dst":"e8m0",)"
            R"("rmode":"RNE","sat":false,"in":["0x0001"],"class":"+subnormal exact",)"
            R"("expected":{"out":"0x67","flags":"0x00"},"got":{"out":"0x66","flags":"0x00"},)"
            R"("kind":"wrong word","verdict":"mismatch","signature":"sat off; input +subnormal; )"
            R"(expected +normal -; got +normal -; word 1 code nearer zero; flags same"})");
  // check writes the same file from the results.
  const auto again = dir / "again.jsonl";
  CheckResults(dir, options.results, 5, false, {again});
  EXPECT_EQ(ReadAll(again), lines);
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace check_test
}  // namespace ptovec::tools
