// Writers: record layout, binary preamble, atomic files, shards, controls, and a generated file
// read back. Hex text is tested in word_text_test.cpp.
#include "ptovec/generator/writers.hpp"

#include <gtest/gtest.h>

#include <fstream>
#include <iterator>

#include "ptovec/generator/atomic_file.hpp"
#include "ptovec/generator/shard.hpp"
#include "ptovec/generator/suite.hpp"

namespace ptovec::generator {
namespace writers_test {
namespace {

std::filesystem::path TempDir(const std::string& name) {
  auto dir = std::filesystem::temp_directory_path() /
             ("ptovec-test-" + name + "-" +
              std::to_string(::testing::UnitTest::GetInstance()->random_seed()));
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  return dir;
}

std::string ReadAll(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

std::uint64_t LittleEndian(const std::string& bytes, std::size_t offset, unsigned n) {
  std::uint64_t v = 0;
  for (unsigned i = 0; i < n; ++i) {
    v |= static_cast<std::uint64_t>(static_cast<unsigned char>(bytes[offset + i])) << (8 * i);
  }
  return v;
}

TEST(Writers, RecordLayoutOfTcvtFp16ToE8M0) {
  const auto layout = RecordLayout(*FindOp("tcvt"), {TileDataType::FP16, TileDataType::E8M0});
  ASSERT_EQ(layout.size(), 5u);
  EXPECT_EQ(layout[0].name, "in.value");
  EXPECT_EQ(layout[0].bytes, 2u);
  EXPECT_EQ(layout[1].name, "rmode");
  EXPECT_EQ(layout[1].offset, 2u);
  EXPECT_EQ(layout[2].name, "sat");
  EXPECT_EQ(layout[3].name, "out");
  EXPECT_EQ(layout[3].offset, 4u);
  EXPECT_EQ(layout[3].bytes, 1u);
  EXPECT_EQ(layout[4].name, "flags");
  EXPECT_EQ(RecordSize(layout), 6u);
}

TEST(Writers, AtomicFileAppearsOnlyOnCommit) {
  const auto dir = TempDir("atomic");
  const auto path = dir / "x.bin";
  {
    AtomicFile f(path);
    f.Write("abc");
    EXPECT_FALSE(std::filesystem::exists(path));
  }
  EXPECT_FALSE(std::filesystem::exists(path));
  EXPECT_TRUE(std::filesystem::is_empty(dir));  // the temporary is gone too
  AtomicFile f(path);
  f.Write("abc");
  EXPECT_EQ(f.Commit(), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  EXPECT_EQ(ReadAll(path), "abc");
  std::filesystem::remove_all(dir);
}

TEST(Writers, GeneratedBinaryFileHoldsTheOracleAnswers) {
  const auto dir = TempDir("gen");
  GenerateOptions options;
  options.out_dir = dir;
  options.threads = 2;
  const Job job{FindOp("tcvt"), {TileDataType::FP16, TileDataType::E8M0}};
  const auto files = GenerateSuite({job}, options);
  ASSERT_EQ(files.size(), 1u);
  EXPECT_EQ(files[0].count, 917504u);
  const std::string bytes = ReadAll(dir / "tcvt_fp16_e8m0.bin");
  ASSERT_EQ(bytes.substr(0, 8), std::string(kBinaryMagic));
  EXPECT_EQ(LittleEndian(bytes, 8, 2), 2u);   // version
  EXPECT_EQ(LittleEndian(bytes, 10, 2), 6u);  // record size
  EXPECT_EQ(LittleEndian(bytes, 16, 8), 917504u);
  const std::uint64_t data = LittleEndian(bytes, 24, 8);
  EXPECT_EQ(data % 8, 0u);
  EXPECT_EQ(bytes.size(), data + 917504u * 6);
  // Record of input 0x3e00 (1.5) under RNE, Sat off: index 0x3e00 * 14 + 0.
  const std::size_t r = data + (0x3E00u * 14) * 6;
  EXPECT_EQ(LittleEndian(bytes, r, 2), 0x3E00u);
  EXPECT_EQ(LittleEndian(bytes, r + 2, 1), 0u);     // RNE
  EXPECT_EQ(LittleEndian(bytes, r + 3, 1), 0u);     // Sat off
  EXPECT_EQ(LittleEndian(bytes, r + 4, 1), 0x80u);  // 1.5 > sqrt(2): rounds to 2^1
  EXPECT_EQ(LittleEndian(bytes, r + 5, 1), 0x10u);  // NX
  // Input 0x7c00 (+Inf) under RTZ (mode 3) with Sat: index 0x7c00 * 14 + 7.
  const std::size_t inf = data + (0x7C00u * 14 + 7) * 6;
  EXPECT_EQ(LittleEndian(bytes, inf + 2, 1), 3u);
  EXPECT_EQ(LittleEndian(bytes, inf + 3, 1), 1u);
  EXPECT_EQ(LittleEndian(bytes, inf + 4, 1), 0xFEu);
  EXPECT_EQ(LittleEndian(bytes, inf + 5, 1), 0x14u);
  // Same options with one thread: byte-identical.
  const auto dir1 = TempDir("gen1");
  options.out_dir = dir1;
  options.threads = 1;
  const auto files1 = GenerateSuite({job}, options);
  EXPECT_EQ(files1[0].sha256, files[0].sha256);
  EXPECT_EQ(ReadAll(dir1 / "manifest.json"), ReadAll(dir / "manifest.json"));
  std::filesystem::remove_all(dir);
  std::filesystem::remove_all(dir1);
}

TEST(Shards, RangesAreContiguousCoverEveryInputAndDifferByAtMostOne) {
  for (const std::uint64_t total : {0ULL, 1ULL, 7ULL, 100000ULL, 917504ULL, (1ULL << 40) + 3}) {
    for (const std::uint64_t of : {1ULL, 2ULL, 3ULL, 8ULL, 1000ULL}) {
      std::uint64_t next = 0;
      for (std::uint64_t k = 0; k < of; ++k) {
        const ShardRange r = ShardRange::Of(k, of, total);
        EXPECT_EQ(r.first_input, next) << total << " " << k << "/" << of;
        EXPECT_LE(r.inputs, total / of + 1);
        EXPECT_GE(r.inputs, total / of);
        next += r.inputs;
      }
      EXPECT_EQ(next, total) << total << " / " << of;
    }
  }
  // 3000 inputs in 4 shards: 750 each; shard 2 starts at input 1500.
  const ShardRange r = ShardRange::Of(2, 4, 3000);
  EXPECT_EQ(r.first_input, 1500u);
  EXPECT_EQ(r.inputs, 750u);
}

TEST(Shards, ParseAcceptsKOfNFromZeroOnly) {
  EXPECT_EQ(ParseShardSelection("0/1"), (ShardSelection{0, 1}));
  EXPECT_EQ(ParseShardSelection("3/4"), (ShardSelection{3, 4}));
  EXPECT_EQ(ShardName(ParseShardSelection("17/4294967296")), "17/4294967296");
  for (const char* bad : {"4/4", "0/0", "1", "/4", "1/", "-1/4", "1/4x", "a/b", "1/4294967297",
                          "99999999999/99999999999"}) {
    EXPECT_THROW(ParseShardSelection(bad), std::invalid_argument) << bad;
  }
  try {
    ParseShardSelection("4/4");
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find(
                  "--shard '4/4': K must be below N (K counts from 0: 0/4 .. 3/4)"),
              std::string::npos);
  }
}

TEST(ControlFilters, SelectModesAndSatInTheOpsOrder) {
  const OpDef& tcvt = *FindOp("tcvt");
  const ControlFilter f = ParseControlFilter("RTZ,RNE,RTZ", "on");
  EXPECT_EQ(f.Describe(), "RNE,RTZ; Sat on");
  const auto controls = f.ControlsOf(tcvt);
  ASSERT_EQ(controls.size(), 2u);
  EXPECT_EQ(controls[0], (NumericExecutionControl{NumericRoundingMode::RNE, true}));
  EXPECT_EQ(controls[1], (NumericExecutionControl{NumericRoundingMode::RTZ, true}));
  EXPECT_EQ(ParseControlFilter("all", "both").ControlsOf(tcvt).size(), 14u);
  EXPECT_TRUE(ParseControlFilter("RNE,RTM,RTP,RTZ,RNA,RTO,RHB", "both").all());
  // An op without controls keeps its one, whatever the filter.
  const auto shift = ParseControlFilter("RTP", "on").ControlsOf(*FindOp("shift"));
  ASSERT_EQ(shift.size(), 1u);
  EXPECT_EQ(shift[0], (NumericExecutionControl{NumericRoundingMode::RNE, false}));
  EXPECT_THROW(ParseControlFilter("RNE,", "both"), std::invalid_argument);
  EXPECT_THROW(ParseControlFilter("RNE,RNX", "both"), std::invalid_argument);
  EXPECT_THROW(ParseControlFilter("all", "yes"), std::invalid_argument);
}

TEST(ControlFilters, ControlsJsonReadsBackAndRefusesWhatNoWriterWrites) {
  const OpDef& tcvt = *FindOp("tcvt");
  const auto some = ParseControlFilter("RTZ,RNE", "on").ControlsOf(tcvt);
  EXPECT_EQ(ParseControlsJson(ControlsJson(some), tcvt), some);
  EXPECT_EQ(ParseControlsJson(ControlsJson(ControlsFor(tcvt)), tcvt).size(), 14u);
  const auto bad = [&](const char* text) {
    try {
      ParseControlsJson(nlohmann::ordered_json::parse(text), tcvt);
    } catch (const std::invalid_argument& e) {
      return std::string(e.what());
    }
    return std::string();
  };
  EXPECT_NE(bad(R"([{"rmode":"RTZ","sat":false},{"rmode":"RNE","sat":false}])")
                .find("is not one of tcvt's, or is out of order or repeated"),
            std::string::npos);  // out of order
  EXPECT_NE(bad(R"([{"rmode":"RNE","sat":false},{"rmode":"RNE","sat":false}])"), "");  // twice
  EXPECT_NE(bad(R"([{"rmode":"RNX","sat":false}])"), "");
  EXPECT_NE(bad(R"([{"rmode":"RNE"}])"), "");
  EXPECT_NE(bad(R"([])").find("non-empty array"), std::string::npos);
  // An op without controls has only {RNE, off}.
  EXPECT_THROW(ParseControlsJson(nlohmann::ordered_json::parse(R"([{"rmode":"RNE","sat":true}])"),
                                 *FindOp("shift")),
               std::invalid_argument);
  EXPECT_NE(ParseControlsJson(nlohmann::ordered_json::parse(R"([{"rmode":"RNE","sat":false}])"),
                              *FindOp("shift"))
                .size(),
            0u);
}

}  // namespace
}  // namespace writers_test
}  // namespace ptovec::generator
