// Results files: header validation, streaming, round trips, and refusal of truncated, padded,
// corrupted, reordered and foreign files with the right one-line message. The vector file reader
// is tested in tests/generator/vector_reader_test.cpp.
#include "ptovec/tools/results.hpp"

#include <gtest/gtest.h>
#include <sys/stat.h>

#include "gate_test_support.hpp"
#include "ptovec/generator/readers.hpp"
#include "ptovec/generator/writers.hpp"
#include "ptovec/tools/check.hpp"

namespace ptovec::tools {
namespace results_test {
namespace {

using generator::VectorReader;
using testing::ErrorOf;
using testing::ReadAll;
using testing::WriteAll;

class GateFiles : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    dir_ = testing::TempDir("results");
    testing::GenerateSmallSuite(dir_);
  }
  static void TearDownTestSuite() { std::filesystem::remove_all(dir_); }
  static std::filesystem::path Bin() { return dir_ / "tquant_fp32_s8.bin"; }
  static std::filesystem::path Scratch(const std::string& name) {
    std::filesystem::create_directories(dir_ / "scratch");
    return dir_ / "scratch" / name;
  }
  static inline std::filesystem::path dir_;
};

// ---- results files ----

std::vector<DeviceAnswer> SomeAnswers(std::size_t n) {
  std::vector<DeviceAnswer> a(n);
  for (std::size_t i = 0; i < n; ++i) {
    a[i] = {i % 7 != 3,
            {static_cast<oracle::Word>((i * 37) & 0xFF), static_cast<oracle::Status>(i % 32)}};
  }
  return a;
}

TEST_F(GateFiles, ResultsRoundTripInBothFormats) {
  const OpDef& tquant = *generator::FindOp("tquant");
  const OpDef& qparam = *generator::FindOp("qparam");
  const std::vector<ResultsSection> sections = {
      SectionFor("a.bin", std::string(64, 'a'), tquant, {TileDataType::FP32, TileDataType::S8}, 10),
      SectionFor("b.bin", std::string(64, 'b'), qparam, {TileDataType::FP32, TileDataType::U64},
                 3)};
  for (ResultsFormat format : {ResultsFormat::Binary, ResultsFormat::Json}) {
    const auto p = Scratch(format == ResultsFormat::Binary ? "r.bin" : "r.jsonl");
    auto answers = SomeAnswers(13);
    answers[11].result.word = 0xFFFFFFFFFFFFFFFFu;  // u64: kept whole
    answers[2].result.word = 0xFFFFFFFFFFFFFF82u;   // s8 sign-extended carrier: kept as 0x82
    {
      ResultsWriter w(p, format, sections, "dev");
      w.Append(std::span(answers).subspan(0, 4));
      w.Append(std::span(answers).subspan(4));  // crosses the section boundary
      w.Commit();
    }
    ResultsReader r(p);
    EXPECT_EQ(r.sections(), sections);
    EXPECT_EQ(r.device(), "dev");
    std::vector<DeviceAnswer> got(10);
    r.Read(0, got);
    std::vector<DeviceAnswer> got2(3);
    r.Read(1, got2);
    r.Finish();
    got.insert(got.end(), got2.begin(), got2.end());
    for (std::size_t i = 0; i < 13; ++i) {
      EXPECT_EQ(got[i].supported, answers[i].supported) << i;
      if (!answers[i].supported) continue;
      const oracle::Word expected = i == 2 ? 0x82 : answers[i].result.word;
      EXPECT_EQ(got[i].result.word, expected) << i;
      EXPECT_EQ(got[i].result.status, answers[i].result.status) << i;
    }
  }
  // The JSON lines are the documented ones.
  const std::string text = ReadAll(Scratch("r.jsonl"));
  EXPECT_NE(text.find("\n{\"s\":0,\"i\":0,\"out\":\"0x00\",\"flags\":\"0x00\"}\n"),
            std::string::npos);
  EXPECT_NE(text.find("\n{\"s\":0,\"i\":3,\"flags\":\"unsupported\"}\n"), std::string::npos);
  EXPECT_NE(text.find("{\"s\":1,\"i\":1,\"out\":\"0xffffffffffffffff\",\"flags\":\"0x0b\"}"),
            std::string::npos);
  // Binary (version 2): 32 + header, then 10 records of 10 bytes (u64 index, S8 word, flags)
  // and 3 of 17 (u64 index, U64 word, flags).
  const std::string bin = ReadAll(Scratch("r.bin"));
  EXPECT_EQ(bin.substr(0, 8), std::string("PTOVEC\0R", 8));
  EXPECT_EQ(static_cast<unsigned char>(bin[8]), 2u);  // version
  const std::size_t data_offset =
      static_cast<unsigned char>(bin[24]) + 256u * static_cast<unsigned char>(bin[25]);
  EXPECT_EQ(bin.size(), data_offset + 10 * 10 + 3 * 17);
  EXPECT_EQ(static_cast<unsigned char>(bin[data_offset + 3 * 10]), 3u);  // record 3's index
  EXPECT_EQ(static_cast<unsigned char>(bin[data_offset + 3 * 10 + 9]), kUnsupportedFlags);
}

TEST_F(GateFiles, BrokenResultsFilesAreRefusedNamingSectionAndRecord) {
  const OpDef& tquant = *generator::FindOp("tquant");
  const std::vector<ResultsSection> sections = {SectionFor(
      "a.bin", std::string(64, 'a'), tquant, {TileDataType::FP32, TileDataType::S8}, 10)};
  const auto p = Scratch("good.bin");
  const auto j = Scratch("good.jsonl");
  for (const auto& [path, format] :
       {std::pair{p, ResultsFormat::Binary}, std::pair{j, ResultsFormat::Json}}) {
    ResultsWriter w(path, format, sections, "dev");
    const auto answers = SomeAnswers(10);
    w.Append(answers);
    w.Commit();
  }
  const auto read_all = [](const std::filesystem::path& path) {
    ResultsReader r(path);
    std::vector<DeviceAnswer> got(10);
    r.Read(0, got);
    r.Finish();
  };
  EXPECT_EQ(ErrorOf([&] { read_all(p); }), "");
  EXPECT_EQ(ErrorOf([&] { read_all(j); }), "");
  const std::string bin = ReadAll(p);
  const auto bad = Scratch("bad.bin");
  WriteAll(bad, bin.substr(0, bin.size() - 12));
  std::string e = ErrorOf([&] { read_all(bad); });
  EXPECT_NE(e.find("is truncated: section 0 (a.bin) has 8 of 10 records and a partial record 8"),
            std::string::npos)
      << e;
  WriteAll(bad, bin + "x");
  e = ErrorOf([&] { read_all(bad); });
  EXPECT_NE(e.find("has 1 extra bytes after the last record"), std::string::npos) << e;
  // Swap records 2 and 3.
  std::string swapped = bin;
  const std::size_t base = bin.size() - 10 * 10;  // records of 10 bytes
  std::swap_ranges(swapped.begin() + static_cast<std::ptrdiff_t>(base + 20),
                   swapped.begin() + static_cast<std::ptrdiff_t>(base + 30),
                   swapped.begin() + static_cast<std::ptrdiff_t>(base + 30));
  WriteAll(bad, swapped);
  e = ErrorOf([&] { read_all(bad); });
  EXPECT_NE(e.find("is out of order: section 0 (a.bin) record 2 carries index 3 (expected 2)"),
            std::string::npos)
      << e;
  std::string flags = bin;
  flags[base + 9] = 0x21;
  WriteAll(bad, flags);
  e = ErrorOf([&] { read_all(bad); });
  EXPECT_NE(e.find("record 0 has flags 0x21"), std::string::npos) << e;

  const std::string text = ReadAll(j);
  const auto badj = Scratch("bad.jsonl");
  WriteAll(badj, text.substr(0, text.rfind("{\"s\"")));
  e = ErrorOf([&] { read_all(badj); });
  EXPECT_NE(e.find("is truncated: section 0 (a.bin) ends at record 9 of 10"), std::string::npos)
      << e;
  WriteAll(badj, text + "{\"s\":0,\"i\":10,\"out\":\"0x00\",\"flags\":\"0x00\"}\n");
  e = ErrorOf([&] { read_all(badj); });
  EXPECT_NE(e.find("has extra lines: line 12"), std::string::npos) << e;
  std::string reordered = text;
  const std::size_t i4 = reordered.find("\"i\":4");
  reordered.replace(i4, 5, "\"i\":5");
  WriteAll(badj, reordered);
  e = ErrorOf([&] { read_all(badj); });
  EXPECT_NE(e.find("is out of order: line 6 holds section 0 record 5 (expected section 0 (a.bin) "
                   "record 4)"),
            std::string::npos)
      << e;
}

// A one-section JSON results file (tquant fp32 -> s8, 10 records) whose record-0 line is `line`.
std::filesystem::path JsonResultsWithLine(const std::filesystem::path& p, const std::string& line) {
  const OpDef& tquant = *generator::FindOp("tquant");
  {
    ResultsWriter w(p, ResultsFormat::Json,
                    {SectionFor("a.bin", std::string(64, 'a'), tquant,
                                {TileDataType::FP32, TileDataType::S8}, 10)},
                    "dev");
    w.Append(SomeAnswers(10));
    w.Commit();
  }
  std::string text = ReadAll(p);
  const std::size_t start = text.find('\n') + 1;
  text.replace(start, text.find('\n', start) - start, line);
  WriteAll(p, text);
  return p;
}

TEST_F(GateFiles, JsonResultNumbersMustBeWholeInRangeIndices) {
  const auto p = Scratch("numbers.jsonl");
  const auto read_all = [&] {
    ResultsReader r(p);
    std::vector<DeviceAnswer> got(10);
    r.Read(0, got);
    r.Finish();
  };
  const std::string prefix =
      "results file " + p.string() + " line 2 (section 0 (a.bin) record 0): ";
  const std::pair<std::string, std::string> cases[] = {
      {R"({"s":0,"i":1.9,"out":"0x00","flags":"0x00"})", "\"i\" 1.9 is not a whole number 0..9"},
      {R"({"s":0,"i":1e30,"out":"0x00","flags":"0x00"})", "\"i\" 1e+30 is not a whole number 0..9"},
      {R"({"s":1e30,"i":0,"out":"0x00","flags":"0x00"})", "\"s\" 1e+30 is not a whole number 0..0"},
      {R"({"s":0,"i":18446744073709551616,"out":"0x00","flags":"0x00"})",
       "\"i\" 1.8446744073709552e+19 is not a whole number 0..9"},
      {R"({"s":0.5,"i":0,"out":"0x00","flags":"0x00"})", "\"s\" 0.5 is not a whole number 0..0"},
      {R"({"s":0,"i":-0.0,"out":"0x00","flags":"0x00"})", "\"i\" -0.0 is not a whole number 0..9"},
      {R"({"s":-1,"i":0,"out":"0x00","flags":"0x00"})", "\"s\" -1 is not a whole number 0..0"},
      {R"({"s":0,"i":0,"out":"0x00","flags":"0x00","x":1})",
       "unknown key \"x\" (accepted: s, i, out, flags)"},
      {R"({"s":0,"i":0,"out":"0x00","flags":"0x1F"})",
       "flags \"0x1F\" (accepted: 0x00..0x1f, written 0x and 2 lower-case hex digits, or "
       "\"unsupported\")"},
      {R"({"s":0,"i":0,"out":"0x00","flags":"0x001"})",
       "flags \"0x001\" (accepted: 0x00..0x1f, written 0x and 2 lower-case hex digits, or "
       "\"unsupported\")"},
      {R"({"s":0,"i":0,"out":"0x00","flags":"0x20"})",
       "flags \"0x20\" (accepted: 0x00..0x1f, written 0x and 2 lower-case hex digits, or "
       "\"unsupported\")"},
      {R"({"s":0,"i":0,"out":"0x00000000000000000","flags":"0x00"})",
       "out word \"0x00000000000000000\" is malformed (accepted: 0x and 1..16 hex digits; s8 words "
       "are 0x00..0xff)"},
      {R"({"s":0,"i":0,"out":"0xzz","flags":"0x00"})",
       "out word \"0xzz\" is malformed (accepted: 0x and 1..16 hex digits; s8 words are "
       "0x00..0xff)"},
  };
  for (const auto& [line, message] : cases) {
    JsonResultsWithLine(p, line);
    EXPECT_EQ(ErrorOf(read_all), prefix + message) << line;
  }
  // Still accepted: another key order, upper-case out digits, a short out word.
  JsonResultsWithLine(p, R"({"flags":"0x00","out":"0xC6","i":0,"s":0})");
  EXPECT_EQ(ErrorOf(read_all), "");
  // A header count that is not a whole number names the key and the value.
  std::string text = ReadAll(p);
  text.replace(text.find("\"count\":10"), 10, "\"count\":4200.5");
  WriteAll(p, text);
  EXPECT_EQ(ErrorOf([&] { ResultsReader r(p); }),
            "results file " + p.string() +
                " has a malformed header section 0: \"count\" must be a whole number (got 4200.5)");
  text.replace(text.find("\"count\":4200.5"), 14, "\"count\":10,\"extra\":1");
  WriteAll(p, text);
  EXPECT_EQ(ErrorOf([&] { ResultsReader r(p); }),
            "results file " + p.string() +
                " has a malformed header section 0: unknown key \"extra\" (accepted: file, sha256, "
                "op, src, dst, count, controls)");
  text.replace(text.find("\"count\":10,\"extra\":1"), 20, "\"count\":10");
  text.replace(text.find("\"file\":\"a.bin\""), 14, "\"file\":7");
  WriteAll(p, text);
  EXPECT_EQ(ErrorOf([&] { ResultsReader r(p); }),
            "results file " + p.string() +
                " has a malformed header section 0: \"file\" must be text (got 7)");
}

TEST_F(GateFiles, PipesAndHugeHeadersAreRefused) {
  const auto fifo = Scratch("fifo");
  std::filesystem::remove(fifo);
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  EXPECT_EQ(
      ErrorOf([&] { ResultsReader r(fifo); }),
      "results file " + fifo.string() + " must be a regular file (not a folder, pipe or device)");
  EXPECT_EQ(
      ErrorOf([&] { VectorReader r(fifo); }),
      "vector file " + fifo.string() + " must be a regular file (not a folder, pipe or device)");
  // header_bytes 0xFFFFFFE0 (data offset 0x100000000, a multiple of 8): refused, no bad_alloc.
  for (const bool results : {false, true}) {
    std::string bin;
    if (results) {
      const auto r = Scratch("huge-src.bin");
      ResultsWriter w(r, ResultsFormat::Binary,
                      {SectionFor("a.bin", std::string(64, 'a'), *generator::FindOp("tquant"),
                                  {TileDataType::FP32, TileDataType::S8}, 1)},
                      "dev");
      w.Append(SomeAnswers(1));
      w.Commit();
      bin = ReadAll(r);
    } else {
      bin = ReadAll(Bin());
    }
    for (int k = 0; k < 4; ++k) bin[12 + k] = static_cast<char>(k == 0 ? 0xE0 : 0xFF);
    for (int k = 0; k < 8; ++k) bin[24 + k] = static_cast<char>(k == 4 ? 1 : 0);
    const auto bad = Scratch("huge.bin");
    WriteAll(bad, bin);
    const std::string e =
        results ? ErrorOf([&] { ResultsReader r(bad); }) : ErrorOf([&] { VectorReader r(bad); });
    EXPECT_EQ(e, std::string(results ? "results file " : "vector file ") + bad.string() +
                     " has a corrupt fixed header: header bytes 4294967264 (accepted: at most "
                     "67108864)");
  }
}

TEST_F(GateFiles, NamesThatAreNotUtf8DoNotBreakTheResultsHeader) {
  const auto p = Scratch("utf8.jsonl");
  {
    ResultsWriter w(p, ResultsFormat::Json,
                    {SectionFor("a\xFF.bin", std::string(64, 'a'), *generator::FindOp("tquant"),
                                {TileDataType::FP32, TileDataType::S8}, 1)},
                    "dev\xFE");
    w.Append(SomeAnswers(1));
    w.Commit();
  }
  ResultsReader r(p);
  EXPECT_EQ(r.sections()[0].file, "a\xEF\xBF\xBD.bin");  // U+FFFD
  EXPECT_EQ(r.device(), "dev\xEF\xBF\xBD");
}

}  // namespace
}  // namespace results_test
}  // namespace ptovec::tools
