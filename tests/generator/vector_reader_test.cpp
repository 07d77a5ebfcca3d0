// The vector file reader (VectorReader) and the folder listing: binary and JSON files read the
// same records, the reader hashes the whole file, truncated, padded, corrupt and foreign files and
// manifests that do not match their files are refused with the right one-line message.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <nlohmann/json.hpp>

#include "file_test_support.hpp"
#include "ptovec/generator/cases.hpp"
#include "ptovec/generator/readers.hpp"
#include "ptovec/generator/suite.hpp"
#include "ptovec/generator/writers.hpp"

namespace ptovec::generator {
namespace vector_reader_test {
namespace {

using oracle::TileDataType;

using testing::ErrorOf;
using testing::ReadAll;
using testing::WriteAll;

/// tquant fp32 -> s8, 50 sampled inputs x 14 controls = 700 vectors, binary and JSON, with a
/// manifest, in a fresh temporary folder.
class VectorReaderFiles : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    dir_ = std::filesystem::temp_directory_path() /
           ("ptovec-vector-reader-" + std::to_string(::getpid()));
    std::filesystem::remove_all(dir_);
    std::filesystem::create_directories(dir_);
    GenerateOptions options;
    options.out_dir = dir_;
    options.binary = true;
    options.json = true;
    options.sampling = {7, 50};
    options.threads = 1;
    GenerateSuite({{FindOp("tquant"), {TileDataType::FP32, TileDataType::S8}}}, options);
  }
  static void TearDownTestSuite() { std::filesystem::remove_all(dir_); }
  static std::filesystem::path Bin() { return dir_ / "tquant_fp32_s8.bin"; }
  static std::filesystem::path Json() { return dir_ / "tquant_fp32_s8.json"; }
  static std::filesystem::path Scratch(const std::string& name) {
    std::filesystem::create_directories(dir_ / "scratch");
    return dir_ / "scratch" / name;
  }
  static std::vector<VectorRecord> ReadEverything(const std::filesystem::path& p,
                                                  std::size_t batch = 64) {
    VectorReader r(p);
    std::vector<VectorRecord> all;
    std::vector<VectorRecord> part;
    while (!r.done()) {
      r.Read(part, batch);
      all.insert(all.end(), part.begin(), part.end());
    }
    return all;
  }
  static inline std::filesystem::path dir_;
};

TEST_F(VectorReaderFiles, BinaryAndJsonReadTheSameRecordsTheOracleGives) {
  const auto bin = ReadEverything(Bin(), 100);
  const auto json = ReadEverything(Json(), 33);
  ASSERT_EQ(bin.size(), 700u);
  ASSERT_EQ(json.size(), 700u);
  for (std::size_t i = 0; i < bin.size(); ++i) {
    EXPECT_EQ(bin[i].c.in, json[i].c.in) << i;
    EXPECT_EQ(bin[i].expected, json[i].expected) << i;
    EXPECT_EQ(bin[i].c.control.rounding_mode, json[i].c.control.rounding_mode) << i;
    EXPECT_EQ(bin[i].expected, EvaluateCase(bin[i].c)) << i;
  }
  // Mode-major order, Sat off first: record 5 is (RTP, on) of input 0.
  EXPECT_EQ(bin[5].c.control.rounding_mode, oracle::NumericRoundingMode::RTP);
  EXPECT_TRUE(bin[5].c.control.saturating);
  EXPECT_EQ(bin[14].c.in[0], bin[15].c.in[0]);
}

TEST_F(VectorReaderFiles, JsonVectorsInAnotherKeyOrderOrSpacingReadTheSame) {
  std::string text = ReadAll(Json());
  const std::size_t first = text.find("\n{\"in\":[") + 1;
  const std::size_t end = text.find('}', first);
  auto vector = nlohmann::ordered_json::parse(text.substr(first, end + 1 - first));
  nlohmann::ordered_json reordered;
  for (const char* key : {"flags", "out", "sat", "rmode", "in"}) reordered[key] = vector[key];
  std::string line = reordered.dump();
  line.insert(1, " ");
  text.replace(first, end + 1 - first, line);
  const auto p = Scratch("reordered.json");
  WriteAll(p, text);
  const auto bin = ReadEverything(Bin());
  const auto json = ReadEverything(p);
  ASSERT_EQ(json.size(), 700u);
  EXPECT_EQ(json[0].c.in, bin[0].c.in);
  EXPECT_EQ(json[0].expected, bin[0].expected);
  EXPECT_EQ(json[0].c.control.saturating, bin[0].c.control.saturating);
}

TEST_F(VectorReaderFiles, ReaderHashesTheWholeFile) {
  VectorReader r(Bin());
  std::vector<VectorRecord> part;
  while (!r.done()) r.Read(part, 1000);
  EXPECT_EQ(r.sha256(), FileSha256(Bin()));
  EXPECT_EQ(r.sha256().size(), 64u);
  const auto manifest = nlohmann::json::parse(ReadAll(dir_ / "manifest.json"));
  EXPECT_EQ(r.sha256(), manifest["files"][0]["sha256"]);
}

// Read with controls to keep (a --rmode/--sat selection): the records of those controls with their
// indices, in both formats, and a binary file's other records still checked and hashed.
TEST_F(VectorReaderFiles, ReadKeepsTheRecordsOfTheControlsAsked) {
  const std::vector<NumericExecutionControl> keep = {{oracle::NumericRoundingMode::RTZ, false},
                                                     {oracle::NumericRoundingMode::RNA, true}};
  const auto all = ReadEverything(Bin());
  for (const auto& path : {Bin(), Json()}) {
    SCOPED_TRACE(path.string());
    VectorReader r(path);
    std::vector<VectorRecord> part;
    std::vector<std::uint64_t> positions;
    std::vector<std::uint64_t> kept;
    std::uint64_t read = 0;
    while (!r.done()) {
      read += r.Read(part, 64, keep, positions);
      ASSERT_EQ(part.size(), positions.size());
      for (std::size_t k = 0; k < part.size(); ++k) {
        EXPECT_EQ(part[k].c.in, all[positions[k]].c.in);
        EXPECT_EQ(part[k].expected, all[positions[k]].expected);
        EXPECT_EQ(part[k].c.control, all[positions[k]].c.control);
      }
      kept.insert(kept.end(), positions.begin(), positions.end());
    }
    EXPECT_EQ(read, 700u);
    EXPECT_EQ(r.sha256(), FileSha256(path));
    // Controls are mode-major, Sat off first: (RTZ, off) is record 6 of each input, (RNA, on) 9.
    ASSERT_EQ(kept.size(), 100u);
    for (std::size_t k = 0; k < kept.size(); ++k) EXPECT_EQ(kept[k], k / 2 * 14 + (k % 2 ? 9 : 6));
  }
  // No control to keep: every record.
  VectorReader r(Bin());
  std::vector<VectorRecord> part;
  std::vector<std::uint64_t> positions;
  EXPECT_EQ(r.Read(part, 30, {}, positions), 30u);
  EXPECT_EQ(part.size(), 30u);
  EXPECT_EQ(positions.back(), 29u);
  // A corrupt record of a control not kept is refused all the same.
  std::string bad = ReadAll(Bin());
  const std::size_t data_offset =
      static_cast<unsigned char>(bad[24]) + 256u * static_cast<unsigned char>(bad[25]);
  const auto layout = RecordLayout(*FindOp("tquant"), {TileDataType::FP32, TileDataType::S8});
  bad[data_offset + 14 * RecordSize(layout) + layout[3].offset] = 9;  // record 14: (RNE, off)
  const auto p = Scratch("kept_tquant_fp32_s8.bin");
  WriteAll(p, bad);
  const std::string e = ErrorOf([&] {
    VectorReader c(p);
    while (!c.done()) c.Read(part, 64, keep, positions);
  });
  EXPECT_NE(e.find("record 14 is corrupt: rmode 9"), std::string::npos) << e;
}

TEST_F(VectorReaderFiles, TruncatedPaddedAndCorruptBinaryFilesAreRefused) {
  const std::string bytes = ReadAll(Bin());
  const auto p = Scratch("tquant_fp32_s8.bin");
  WriteAll(p, bytes.substr(0, bytes.size() - 3));
  std::string e = ErrorOf([&] { VectorReader r(p); });
  EXPECT_NE(e.find("is truncated: the header announces 700 records"), std::string::npos) << e;
  EXPECT_NE(e.find("699 whole records and a partial one"), std::string::npos) << e;
  EXPECT_NE(e.find(p.string()), std::string::npos) << e;

  WriteAll(p, bytes + std::string(9, '\0'));
  e = ErrorOf([&] { VectorReader r(p); });
  EXPECT_NE(e.find("has extra bytes: the header announces 700 records"), std::string::npos) << e;

  std::string bad = bytes;
  bad[7] = 'X';
  WriteAll(p, bad);
  e = ErrorOf([&] { VectorReader r(p); });
  EXPECT_NE(e.find("is not a ptovec vector file"), std::string::npos) << e;

  bad = bytes;
  bad[33] = '#';  // inside the JSON header
  WriteAll(p, bad);
  e = ErrorOf([&] { VectorReader r(p); });
  EXPECT_NE(e.find("JSON header that does not parse"), std::string::npos) << e;

  bad = bytes;
  bad[16] = static_cast<char>(bad[16] + 1);  // fixed-header count 701
  WriteAll(p, bad);
  e = ErrorOf([&] { VectorReader r(p); });
  EXPECT_NE(e.find("fixed header says 701 records, the JSON header 700"), std::string::npos) << e;

  bad = bytes;
  const std::size_t op = bad.find("\"op\":\"tquant\"");
  ASSERT_NE(op, std::string::npos);
  bad.replace(op, 13, "\"op\":\"tquanx\"");
  WriteAll(p, bad);
  e = ErrorOf([&] { VectorReader r(p); });
  EXPECT_NE(e.find("names unknown op 'tquanx'"), std::string::npos) << e;

  bad = bytes;
  const std::size_t dst = bad.find("\"dst\":\"s8\"");
  ASSERT_NE(dst, std::string::npos);
  bad.replace(dst, 10, "\"dst\":\"u8\"");  // a legal pair, but the fields still say s8
  WriteAll(p, bad);
  e = ErrorOf([&] { VectorReader r(p); });
  EXPECT_NE(e.find("has a record layout (\"fields\") that differs from the registry's"),
            std::string::npos)
      << e;

  bad = bytes;
  const std::size_t data_offset =
      static_cast<unsigned char>(bytes[24]) + 256u * static_cast<unsigned char>(bytes[25]);
  const auto layout = RecordLayout(*FindOp("tquant"), {TileDataType::FP32, TileDataType::S8});
  const unsigned size = RecordSize(layout);
  bad[data_offset + 14 * size + layout[3].offset] = 9;  // the rmode byte of record 14
  WriteAll(p, bad);
  e = ErrorOf([&] { ReadEverything(p); });
  EXPECT_NE(e.find("record 14 is corrupt: rmode 9"), std::string::npos) << e;
}

TEST_F(VectorReaderFiles, TruncatedAndPaddedJsonFilesAreRefused) {
  const std::string text = ReadAll(Json());
  const auto p = Scratch("tquant_fp32_s8.json");
  // Drop the last vector line (and keep the closing "]}").
  const std::size_t last = text.rfind("\n{");
  WriteAll(p, text.substr(0, last) + "\n]}\n");
  std::string e = ErrorOf([&] { ReadEverything(p); });
  EXPECT_NE(e.find("is truncated: the header announces 700 vectors but the file has 699"),
            std::string::npos)
      << e;
  // Cut in the middle of a line.
  WriteAll(p, text.substr(0, text.size() / 2));
  e = ErrorOf([&] { ReadEverything(p); });
  EXPECT_NE(e.find("is malformed"), std::string::npos) << e;
  // One vector more than announced.
  const std::size_t close = text.rfind("\n]}");
  const std::size_t prev = text.rfind("\n{", close - 1);
  WriteAll(p, text.substr(0, close) + "," + text.substr(prev, close - prev) + text.substr(close));
  e = ErrorOf([&] { ReadEverything(p); });
  EXPECT_NE(e.find("has extra vectors: the header announces 700 but line 702"), std::string::npos)
      << e;
}

TEST_F(VectorReaderFiles, FolderListingUsesTheManifestAndChecksIt) {
  const auto sources = ListVectorFiles(dir_);
  ASSERT_EQ(sources.size(), 1u);  // binary only, though the manifest lists the JSON file too
  EXPECT_EQ(sources[0].name, "tquant_fp32_s8.bin");
  EXPECT_EQ(*sources[0].count, 700u);
  // A folder without manifest: *.bin sorted by name.
  const auto plain = Scratch("plain");
  std::filesystem::create_directories(plain);
  EXPECT_NE(ErrorOf([&] { ListVectorFiles(plain); }).find("holds no manifest.json"),
            std::string::npos);
  std::filesystem::copy_file(Bin(), plain / "b.bin");
  std::filesystem::copy_file(Bin(), plain / "a.bin");
  WriteAll(plain / "results.bin", std::string("PTOVEC\0R", 8) + std::string(24, '\0'));
  const auto listed = ListVectorFiles(plain);
  ASSERT_EQ(listed.size(), 2u);
  EXPECT_EQ(listed[0].name, "a.bin");
  EXPECT_FALSE(listed[0].sha256.has_value());
  // A manifest naming a missing file.
  const auto broken = Scratch("broken");
  std::filesystem::create_directories(broken);
  std::filesystem::copy_file(dir_ / "manifest.json", broken / "manifest.json");
  EXPECT_NE(ErrorOf([&] { ListVectorFiles(broken); }).find("is missing"), std::string::npos);
  EXPECT_NE(ErrorOf([&] { ListVectorFiles(dir_ / "nope"); }).find("does not exist"),
            std::string::npos);
}

TEST_F(VectorReaderFiles, ManifestEntriesMustMatchTheirFilesAndBeListedOnce) {
  const auto folder = Scratch("manifest-copy");
  std::filesystem::remove_all(folder);
  std::filesystem::create_directories(folder);
  for (const char* name : {"tquant_fp32_s8.bin", "tquant_fp32_s8.json", "manifest.json"}) {
    std::filesystem::copy_file(dir_ / name, folder / name);
  }
  const std::string original = ReadAll(folder / "manifest.json");
  auto manifest = nlohmann::ordered_json::parse(original);
  const auto open_all = [&] {
    for (const auto& source : ListVectorFiles(folder)) {
      OpenVectorSource(source);
    }
  };
  EXPECT_EQ(ErrorOf(open_all), "");
  auto twice = manifest;
  for (const auto& f : manifest["files"]) twice["files"].push_back(f);
  WriteAll(folder / "manifest.json", twice.dump());
  EXPECT_EQ(ErrorOf(open_all), "malformed manifest " + (folder / "manifest.json").string() +
                                   " (file tquant_fp32_s8.bin is listed twice; expected the "
                                   "manifest `ptovec generate` writes)");
  auto untyped = manifest;
  untyped["files"][0]["sha256"] = 5;
  WriteAll(folder / "manifest.json", untyped.dump());
  EXPECT_EQ(ErrorOf(open_all), "malformed manifest " + (folder / "manifest.json").string() +
                                   " (\"sha256\" of a files entry must be text; expected the "
                                   "manifest `ptovec generate` writes)");
  for (const auto& [key, value] : {std::pair{"op", "encode"}, std::pair{"dst", "u8"}}) {
    auto changed = manifest;
    for (auto& f : changed["files"]) f[key] = value;
    WriteAll(folder / "manifest.json", changed.dump());
    EXPECT_EQ(ErrorOf(open_all), "vector file " + (folder / "tquant_fp32_s8.bin").string() +
                                     " has " + key + " '" +
                                     (std::string(key) == "op" ? "tquant" : "s8") +
                                     "', its manifest says '" + value + "'");
  }
}

}  // namespace
}  // namespace vector_reader_test
}  // namespace ptovec::generator
