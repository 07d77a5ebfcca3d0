// TestFloat-style text (generator/testfloat.hpp, tools/testfloat_results.hpp): the flag mapping
// and file names, generated lines checked against known answers (spec-notes section 6 and the
// eval examples of docs/cli.md), determinism across thread counts, shards merged byte for byte, run
// over a TestFloat-style suite, and check of TestFloat-style results: a flipped word or flag is
// reported exactly, bad lines are refused naming the file, line and token.
#include "ptovec/generator/testfloat.hpp"

#include <gtest/gtest.h>

#include <sstream>

#include "gate_test_support.hpp"
#include "ptovec/generator/merge.hpp"
#include "ptovec/generator/readers.hpp"
#include "ptovec/generator/shard.hpp"
#include "ptovec/generator/suite_folder.hpp"
#include "ptovec/tools/check.hpp"
#include "ptovec/tools/testfloat_results.hpp"

namespace ptovec::tools {
namespace testfloat_test {
namespace {

namespace fs = std::filesystem;
using generator::FindOp;
using generator::GenerateOptions;
using generator::TestFloatFileName;
using oracle::NumericRoundingMode;
using oracle::TileDataType;
using testing::ErrorOf;
using testing::ReadAll;
using testing::WriteAll;

const generator::OpDef& Tcvt() { return *FindOp("tcvt"); }
constexpr generator::TypePair kFp16E8m0{TileDataType::FP16, TileDataType::E8M0};
constexpr oracle::NumericExecutionControl kRtzOff{NumericRoundingMode::RTZ, false};

// The line of `text` whose first token is `first` ("" when none).
std::string LineStartingWith(const std::string& text, const std::string& first) {
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) {
    if (line.rfind(first + " ", 0) == 0) return line;
  }
  return "";
}

TEST(TestFloatFlags, AreThePtovecBitsReversed) {
  // ptovec NV DZ OF UF NX = 0x01 0x02 0x04 0x08 0x10; TestFloat invalid 0x10, infinite 0x08,
  // overflow 0x04, underflow 0x02, inexact 0x01.
  EXPECT_EQ(generator::TestFloatFlags(oracle::kStatusNV), 0x10);
  EXPECT_EQ(generator::TestFloatFlags(oracle::kStatusDZ), 0x08);
  EXPECT_EQ(generator::TestFloatFlags(oracle::kStatusOF), 0x04);
  EXPECT_EQ(generator::TestFloatFlags(oracle::kStatusUF), 0x02);
  EXPECT_EQ(generator::TestFloatFlags(oracle::kStatusNX), 0x01);
  EXPECT_EQ(generator::TestFloatFlags(oracle::kStatusOFNX), 0x05);
  for (unsigned s = 0; s < 32; ++s) {
    EXPECT_EQ(generator::StatusFromTestFloatFlags(generator::TestFloatFlags(oracle::Status(s))), s);
  }
}

TEST(TestFloatNames, RoundTripAndRefuseOthers) {
  EXPECT_EQ(TestFloatFileName(Tcvt(), kFp16E8m0, kRtzOff), "tcvt_fp16_e8m0_RTZ_satoff.tf");
  const auto key = generator::ParseTestFloatFileName("tcvt_fp16_e8m0_RHB_saton.tf");
  ASSERT_TRUE(key);
  EXPECT_EQ(key->op, &Tcvt());
  EXPECT_EQ(key->pair, kFp16E8m0);
  EXPECT_EQ(key->control.rounding_mode, NumericRoundingMode::RHB);
  EXPECT_TRUE(key->control.saturating);
  for (const char* bad :
       {"tcvt_fp16_e8m0_RTZ_satoff.bin", "tcvt_fp16_e8m0_rtz_satoff.tf", "tcvt_fp16_e8m0.tf",
        "nope_fp16_e8m0_RTZ_satoff.tf", "tquant_fp16_s8_RTZ_satoff.tf",
        "shift_s32_s16_RTZ_satoff.tf", "tcvt_fp16_e8m0_RTZ_satoff_x.tf", "results.tf"}) {
    EXPECT_FALSE(generator::ParseTestFloatFileName(bad)) << bad;
  }
  EXPECT_TRUE(generator::ParseTestFloatFileName("shift_s32_s16_RNE_satoff.tf"));
}

class TestFloatSuite : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    dir_ = testing::TempDir("testfloat");
    GenerateOptions options;
    options.out_dir = dir_ / "tf";
    options.binary = false;
    options.testfloat = true;
    options.threads = 2;
    const generator::OpDef& encode = *FindOp("encode");
    generator::GenerateSuite({{&Tcvt(), kFp16E8m0},
                              {&encode, {TileDataType::FP16, TileDataType::S8}},
                              {&encode, {TileDataType::FP16, TileDataType::E4M3}},
                              {&encode, {TileDataType::FP16, TileDataType::BF16}}},
                             options);
  }
  static void TearDownTestSuite() { fs::remove_all(dir_); }
  static fs::path Tf(const std::string& name) { return dir_ / "tf" / name; }
  static inline fs::path dir_;
};

TEST_F(TestFloatSuite, LinesHoldKnownAnswers) {
  // Upper-case hex at each type's width, flags in TestFloat's order.
  const std::string rtz = ReadAll(Tf("tcvt_fp16_e8m0_RTZ_satoff.tf"));
  EXPECT_EQ(LineStartingWith(rtz, "3C00"), "3C00 7F 00");    // 1.0 -> 2^0, exact
  EXPECT_EQ(LineStartingWith(rtz, "3E00"), "3E00 7F 01");    // 1.5 -> 2^0 toward zero, inexact
  EXPECT_EQ(rtz.size(), 65536u * 11);                        // every FP16 code, 11 bytes a line
  EXPECT_EQ(rtz.substr(0, 22), "0000 FF 10\n0001 67 00\n");  // +0: NaN, invalid; 2^-24 -> 2^-24
  // spec-notes section 6: ReferenceMatrixIntegerEncoding(130.0, S8, RNE, no Sat) = 0x82, OF|NX.
  EXPECT_EQ(LineStartingWith(ReadAll(Tf("encode_fp16_s8_RNE_satoff.tf")), "5810"), "5810 82 05");
  // ReferenceMatrixFloatingEncoding(1.5, E4M3, RNE) = 0x3C, exact.
  EXPECT_EQ(LineStartingWith(ReadAll(Tf("encode_fp16_e4m3_RNE_satoff.tf")), "3E00"), "3E00 3C 00");
  // ReferenceMatrixFloatingEncoding(-1.00390625, BF16, RHB) = 0xBF80, NX.
  EXPECT_EQ(LineStartingWith(ReadAll(Tf("encode_fp16_bf16_RHB_satoff.tf")), "BC04"),
            "BC04 BF80 01");
}

TEST_F(TestFloatSuite, ManifestListsEveryFileWithItsControl) {
  const generator::Manifest m = generator::ReadManifest(dir_ / "tf" / "manifest.json");
  ASSERT_EQ(m.formats, std::vector<std::string>{"testfloat"});
  ASSERT_EQ(m.files.size(), 4u * 14);
  const generator::ManifestEntry& e = m.files[6];  // RNE, RTM, RTP off and on, then RTZ off
  EXPECT_EQ(e.path, "tcvt_fp16_e8m0_RTZ_satoff.tf");
  EXPECT_EQ(e.format, "testfloat");
  ASSERT_TRUE(e.control);
  EXPECT_TRUE(*e.control == kRtzOff);
  EXPECT_EQ(e.count, 65536u);
  EXPECT_EQ(e.bytes, 65536u * 11);
  EXPECT_EQ(e.sha256, generator::FileSha256(Tf(e.path)));
  // A file no manifest names is refused, as for the other formats.
  fs::copy_file(Tf(e.path), dir_ / "tf" / "tcvt_bf16_e8m0_RTZ_satoff.tf");
  EXPECT_NE(ErrorOf([] {
              generator::ListVectorFiles(dir_ / "tf");
            }).find("holds 1 vector file that its manifest.json does not name"),
            std::string::npos);
  fs::remove(dir_ / "tf" / "tcvt_bf16_e8m0_RTZ_satoff.tf");
}

TEST_F(TestFloatSuite, SameBytesWhateverTheThreadsAndShardsMergeByteForByte) {
  GenerateOptions options;
  options.binary = false;
  options.testfloat = true;
  options.controls = generator::ParseControlFilter("RTZ,RNA", "both");
  const std::vector<generator::Job> jobs{{&Tcvt(), kFp16E8m0}};
  options.out_dir = dir_ / "one";
  options.threads = 1;
  generator::GenerateSuite(jobs, options);
  options.threads = 2;
  std::vector<fs::path> shards;
  for (std::uint64_t k = 0; k < 3; ++k) {
    options.shard = generator::ShardSelection{k, 3};
    shards.push_back(dir_ / ("shard" + std::to_string(k)));
    options.out_dir = shards.back();
    generator::GenerateSuite(jobs, options);
  }
  generator::MergeShards({shards[2], shards[0], shards[1]}, dir_ / "merged", false);
  for (const char* name : {"tcvt_fp16_e8m0_RTZ_satoff.tf", "tcvt_fp16_e8m0_RNA_saton.tf"}) {
    EXPECT_EQ(ReadAll(dir_ / "one" / name), ReadAll(Tf(name))) << name;
    EXPECT_EQ(ReadAll(dir_ / "merged" / name), ReadAll(Tf(name))) << name;
  }
  EXPECT_EQ(ReadAll(dir_ / "merged" / "manifest.json"), ReadAll(dir_ / "one" / "manifest.json"));
}

TEST_F(TestFloatSuite, RunOverATestFloatSuitePasses) {
  testing::TestDevice device;
  RunOptions options;
  options.results = dir_ / "run-results.bin";
  generator::VectorSelection selection(dir_ / "tf");
  selection.op = "tcvt";
  const CheckReport report = RunDevice(device, selection, options);
  EXPECT_TRUE(report.passed());
  EXPECT_EQ(report.files, 14u);
  EXPECT_EQ(report.vectors, 14u * 65536);
}

TEST_F(TestFloatSuite, CheckReportsExactlyTheFlippedWordAndFlags) {
  std::string results = ReadAll(Tf("tcvt_fp16_e8m0_RTZ_satoff.tf"));
  const std::size_t at = results.find("3E00 7F 01\n");
  ASSERT_NE(at, std::string::npos);
  results.replace(at, 10, "3e00 7e 01");  // wrong word (lower case is accepted, as by TestFloat)
  const std::size_t flags_at = results.find("3C00 7F 00\n");
  results.replace(flags_at, 10, "3C00 7F 04");  // wrong flags: overflow (TestFloat's 0x04)
  WriteAll(dir_ / "device.txt", results);
  const CheckReport report =
      CheckResults(Tf("tcvt_fp16_e8m0_RTZ_satoff.tf"), dir_ / "device.txt", 20);
  EXPECT_EQ(report.vectors, 65536u);
  EXPECT_EQ(report.mismatched, 2u);
  EXPECT_EQ(report.word, 1u);
  EXPECT_EQ(report.flags, 1u);
  ASSERT_EQ(report.first.size(), 2u);
  EXPECT_EQ(report.first[0].index, 0x3C00u);
  EXPECT_EQ(report.first[0].kind, MismatchKind::Flags);
  EXPECT_EQ(report.first[0].got.result.status, oracle::kStatusOF);
  EXPECT_EQ(report.first[1].index, 0x3E00u);
  EXPECT_EQ(report.first[1].kind, MismatchKind::Word);
  EXPECT_EQ(report.first[1].got.result.word, 0x7Eu);
  EXPECT_EQ(report.first[1].expected.status, oracle::kStatusNX);
}

TEST_F(TestFloatSuite, CheckAgainstABinarySuiteTakesEachControlInTurn) {
  // A binary file of 4 controls (RTZ and RNA, Sat off and on: kept small for the asan pass).
  const generator::ControlFilter four = generator::ParseControlFilter("RTZ,RNA", "both");
  GenerateOptions options;
  options.out_dir = dir_ / "bin";
  options.threads = 2;
  options.controls = four;
  generator::GenerateSuite({{&Tcvt(), kFp16E8m0}}, options);
  // The TestFloat files of those controls, in manifest order, answer the binary file's controls.
  std::string all;
  int files = 0;
  for (const generator::ManifestEntry& e :
       generator::ReadManifest(dir_ / "tf" / "manifest.json").files) {
    if (e.op != "tcvt" || !e.control) continue;
    const bool kept = (e.control->rounding_mode == oracle::NumericRoundingMode::RTZ ||
                       e.control->rounding_mode == oracle::NumericRoundingMode::RNA);
    if (kept) {
      all += ReadAll(Tf(e.path));
      ++files;
    }
  }
  ASSERT_EQ(files, 4);
  WriteAll(dir_ / "all.txt", all);
  const CheckReport report = CheckResults(dir_ / "bin", dir_ / "all.txt", 20);
  EXPECT_TRUE(report.passed());
  EXPECT_EQ(report.vectors, 4u * 65536);
  // One control of the binary file, selected with --rmode/--sat.
  const CheckReport one = CheckResults(dir_ / "bin", Tf("tcvt_fp16_e8m0_RTZ_satoff.tf"), 20, false,
                                       {}, generator::ParseControlFilter("RTZ", "off"));
  EXPECT_TRUE(one.passed());
  EXPECT_EQ(one.vectors, 65536u);
  EXPECT_NE(one.scope.find("RTZ"), std::string::npos);
  // RTZ's answers checked as RNA's: the same inputs, so the words and flags that differ fail.
  const CheckReport wrong = CheckResults(dir_ / "bin", Tf("tcvt_fp16_e8m0_RTZ_satoff.tf"), 20,
                                         false, {}, generator::ParseControlFilter("RNA", "off"));
  EXPECT_FALSE(wrong.passed());
  EXPECT_GT(wrong.mismatched, 0u);
}

TEST_F(TestFloatSuite, BadLinesAreRefusedNamingFileLineAndToken) {
  const std::string good = ReadAll(Tf("tcvt_fp16_e8m0_RTZ_satoff.tf"));
  const auto error_for = [&](const std::string& third_line) {
    const std::string text = good.substr(0, 22) + third_line + good.substr(33);
    WriteAll(dir_ / "bad.txt", text);
    return ErrorOf([] { CheckResults(Tf("tcvt_fp16_e8m0_RTZ_satoff.tf"), dir_ / "bad.txt", 20); });
  };
  ASSERT_EQ(good.substr(22, 11), "0002 68 00\n");
  EXPECT_EQ(
      error_for("0002 0G 00\n"),
      "results file " + (dir_ / "bad.txt").string() +
          " (TestFloat-style text) line 3 (tcvt fp16 -> e8m0) has a bad result (e8m0) token '0G' "
          "(accepted: 2 hex digits, 0..FF)");
  EXPECT_NE(error_for("0002 00 20\n").find("bad flags token '20' (accepted: 2 hex digits, 00..1F"),
            std::string::npos);
  EXPECT_NE(error_for("0002 000 00\n").find("bad result (e8m0) token '000'"), std::string::npos);
  EXPECT_NE(error_for("0002 00\n").find("line 3 (tcvt fp16 -> e8m0) has 2 token(s) in '0002 00'"),
            std::string::npos);
  EXPECT_NE(error_for("0002  00 00\n").find("has more than 3 token(s)"), std::string::npos);
  EXPECT_NE(error_for("0002 00 00\x1b\n").find("'00\\x1b'"), std::string::npos);
  EXPECT_NE(error_for("0003 68 00\n")
                .find("line 3 answers inputs 0x0003 where vector file "
                      "tcvt_fp16_e8m0_RTZ_satoff.tf record 2 (RTZ, Sat off) has 0x0002"),
            std::string::npos);
  // A line more or less than the vectors.
  WriteAll(dir_ / "bad.txt", good + "0000 00 00\n");
  EXPECT_NE(ErrorOf([] {
              CheckResults(Tf("tcvt_fp16_e8m0_RTZ_satoff.tf"), dir_ / "bad.txt", 20);
            }).find("line 65537 follows the last vector"),
            std::string::npos);
  WriteAll(dir_ / "bad.txt", good.substr(0, good.size() - 11));
  EXPECT_NE(ErrorOf([] {
              CheckResults(Tf("tcvt_fp16_e8m0_RTZ_satoff.tf"), dir_ / "bad.txt", 20);
            }).find("ends after line 65535"),
            std::string::npos);
  // The vector file itself: a changed byte is named with its line.
  std::string vectors = good;
  vectors[22 + 5] = 'x';
  WriteAll(dir_ / "tcvt_fp16_e8m0_RTZ_satoff.tf", vectors);
  EXPECT_NE(ErrorOf([] {
              generator::VectorReader reader(dir_ / "tcvt_fp16_e8m0_RTZ_satoff.tf");
              std::vector<generator::VectorRecord> records;
              while (reader.Read(records, 100) > 0) {
              }
            }).find("line 3 has a bad result (e8m0) token 'x8'"),
            std::string::npos);
  WriteAll(dir_ / "tcvt_fp16_e8m0_RTZ_satoff.tf", good.substr(1));
  EXPECT_NE(ErrorOf([] {
              generator::VectorReader reader(dir_ / "tcvt_fp16_e8m0_RTZ_satoff.tf");
            }).find("are not a whole number of 11-byte lines"),
            std::string::npos);
}

}  // namespace
}  // namespace testfloat_test
}  // namespace ptovec::tools
