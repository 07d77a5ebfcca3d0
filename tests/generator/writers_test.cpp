// Writers: hex text, record layout, binary preamble, atomic files, and a generated file read back.
#include <gtest/gtest.h>

#include <fstream>
#include <iterator>

#include "ptovec/generator/suite.hpp"
#include "ptovec/generator/writers.hpp"

namespace ptovec::generator {
namespace {

std::filesystem::path TempDir(const std::string& name) {
  auto dir = std::filesystem::temp_directory_path() / ("ptovec-test-" + name + "-" +
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

TEST(Writers, HexWordIsZeroPaddedToTheTypeWidth) {
  EXPECT_EQ(HexWord(0x3C00, TileDataType::FP16), "0x3c00");
  EXPECT_EQ(HexWord(0x7F, TileDataType::E8M0), "0x7f");
  EXPECT_EQ(HexWord(0x82, TileDataType::S8), "0x82");
  EXPECT_EQ(HexWord(0x5, TileDataType::S4X2), "0x5");
  EXPECT_EQ(HexWord(0x1, TileDataType::FP32), "0x00000001");
  EXPECT_EQ(HexWord(0x3FF00, TileDataType::FP19), "0x3ff00");
  EXPECT_EQ(HexStatus(0x14), "0x14");
  EXPECT_EQ(HexStatus(0x01), "0x01");
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
  EXPECT_EQ(LittleEndian(bytes, 8, 2), 1u);    // version
  EXPECT_EQ(LittleEndian(bytes, 10, 2), 6u);   // record size
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

}  // namespace
}  // namespace ptovec::generator
