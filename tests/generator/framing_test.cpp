// File framing (generator/framing.hpp): the fixed header written and read back with its checks,
// little-endian helpers, and the line reader over a file and over a pipe.
#include "ptovec/generator/framing.hpp"

#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <string>
#include <vector>

#include "ptovec/generator/cases.hpp"

namespace ptovec::generator {
namespace framing_test {
namespace {

constexpr std::string_view kMagic{"PTOVEC\0T", 8};

std::filesystem::path TempFile(const std::string& name, const std::string& bytes) {
  const auto path = std::filesystem::temp_directory_path() /
                    ("ptovec-framing-" + name + "-" + std::to_string(::getpid()));
  std::ofstream(path, std::ios::binary) << bytes;
  return path;
}

TEST(Framing, LittleEndianRoundTrip) {
  unsigned char b[8] = {};
  StoreLittleEndian(b, 0x0102030405060708ULL, 8);
  EXPECT_EQ(b[0], 0x08);
  EXPECT_EQ(b[7], 0x01);
  EXPECT_EQ(LoadLittleEndian(b, 8), 0x0102030405060708ULL);
  StoreLittleEndian(b, 0xABCDEF, 3);  // a width without a fixed-size copy
  EXPECT_EQ(LoadLittleEndian(b, 3), 0xABCDEFU);
  std::string s;
  AppendLittleEndian(s, 0x3c00, 2);
  EXPECT_EQ(s, std::string("\x00\x3c", 2));
}

TEST(Framing, PreambleIsTheFixedHeaderAndThePaddedText) {
  const std::string text = R"({"a":1})";  // 7 bytes: 32 + 7 pads to 40
  const std::string p = FramedPreamble(kMagic, 2, 6, 1234, text);
  ASSERT_EQ(p.size(), 40U);
  const FixedHeader f = DecodeFixedHeader(reinterpret_cast<const unsigned char*>(p.data()));
  EXPECT_EQ(std::string_view(f.magic.data(), 8), kMagic);
  EXPECT_EQ(f.version, 2);
  EXPECT_EQ(f.record_size, 6);
  EXPECT_EQ(f.header_bytes, 8U);
  EXPECT_EQ(f.count, 1234U);
  EXPECT_EQ(f.data_offset, 40U);
  EXPECT_EQ(p.substr(32), text + " ");
  const auto again = EncodeFixedHeader(f);
  EXPECT_EQ(std::string(reinterpret_cast<const char*>(again.data()), 32), p.substr(0, 32));
}

std::string ReadError(const std::string& bytes, FramedFileKind::Wording wording) {
  const auto path = TempFile("read", bytes);
  std::FILE* f = std::fopen(path.c_str(), "rb");
  const FramedFileKind kind{"test file", kMagic, 1, 2, 1000, wording};
  std::string error;
  try {
    const FramedHeader h = ReadFramedHeader(f, path, kind);
    EXPECT_EQ(std::ftell(f), static_cast<long>(h.fixed.data_offset));
    EXPECT_EQ(h.json["a"], 1);
  } catch (const InputError& e) {
    error = e.what();
    error = error.substr(error.find(path.filename().string()) + path.filename().string().size());
  }
  std::fclose(f);
  std::filesystem::remove(path);
  return error;
}

TEST(Framing, ReadChecksTheFixedHeaderWithEachKindsWording) {
  using W = FramedFileKind::Wording;
  const std::string good = FramedPreamble(kMagic, 2, 6, 0, R"({"a":1})");
  EXPECT_EQ(ReadError(good, W::Vectors), "");
  EXPECT_EQ(ReadError(good.substr(0, 20), W::Vectors),
            " is truncated: shorter than the 32-byte fixed header");
  EXPECT_EQ(ReadError(good.substr(0, 20), W::Results),
            " is truncated: shorter than its 32-byte fixed header");
  EXPECT_EQ(ReadError(FramedPreamble(kMagic, 3, 6, 0, "{}"), W::Vectors),
            " has format version 3 (this ptovec reads versions 1 to 2)");
  std::string bad = good;
  bad[24] = 41;  // data_offset 41
  EXPECT_EQ(ReadError(bad, W::Vectors),
            " has a corrupt fixed header: data offset 41 (expected "
            "32 + header bytes 8, a multiple of 8)");
  EXPECT_EQ(ReadError(bad, W::Results),
            " has a corrupt fixed header: data offset 41, header "
            "bytes 8");
  EXPECT_EQ(ReadError(good.substr(0, 36), W::Vectors),
            " is truncated: its header needs 40 bytes but the file has 36");
  EXPECT_EQ(ReadError(good.substr(0, 36), W::Results),
            " is truncated inside its header: header bytes 8 need 40 bytes but the file has 36");
  EXPECT_EQ(ReadError(FramedPreamble(kMagic, 2, 6, 0, std::string(1001, ' ')), W::Vectors),
            " has a corrupt fixed header: header bytes 1008 (accepted: at most 1000)");
  EXPECT_EQ(ReadError(FramedPreamble(kMagic, 2, 6, 0, "{nope"), W::Vectors),
            " has a JSON header that does not parse (corrupt header)");
}

TEST(Framing, LineReaderOverAFileGrowsAndDigests) {
  const std::string long_line(3 << 20, 'x');  // past the 1 MiB first buffer
  const std::string bytes = "a\r\n\n" + long_line + "\nlast";
  const auto path = TempFile("lines", bytes);
  std::FILE* f = std::fopen(path.c_str(), "rb");
  std::string digested;
  LineReader reader(f, {.on_read = [&](std::string_view b) { digested += b; }});
  std::vector<std::string> lines;
  std::vector<LineReader::Ending> endings;
  std::string_view line;
  LineReader::Ending ending{};
  while (reader.Next(line, &ending)) {
    lines.emplace_back(line);
    endings.push_back(ending);
  }
  EXPECT_EQ(lines, (std::vector<std::string>{"a\r", "", long_line, "last"}));
  EXPECT_EQ(endings.back(), LineReader::Ending::EndOfInput);
  EXPECT_EQ(endings.front(), LineReader::Ending::Newline);
  EXPECT_EQ(reader.line_number(), 4U);
  EXPECT_EQ(digested, bytes);
  std::fclose(f);
  std::filesystem::remove(path);
}

TEST(Framing, LineReaderOverAPipeLimitsStripsAndTimesOut) {
  int fds[2];
  ASSERT_EQ(::pipe(fds), 0);
  LineReader reader(fds[0],
                    {.max_line_bytes = 8, .strip_cr = true, .timeout_ms = 50, .on_read = {}});
  std::string_view line;
  LineReader::Ending ending{};
  EXPECT_FALSE(reader.Next(line, &ending));  // nothing written yet
  EXPECT_TRUE(reader.timed_out());
  const std::string sent = "ok 1\r\n0123456789\n";
  ASSERT_EQ(::write(fds[1], sent.data(), sent.size()), static_cast<ssize_t>(sent.size()));
  ASSERT_TRUE(reader.Next(line, &ending));
  EXPECT_EQ(std::string(line), "ok 1");
  EXPECT_EQ(ending, LineReader::Ending::Newline);
  ASSERT_TRUE(reader.Next(line, &ending));  // 11 bytes with its newline: more than 8
  EXPECT_EQ(ending, LineReader::Ending::TooLong);
  EXPECT_EQ(std::string(line), "01234567");
  EXPECT_EQ(reader.line_number(), 1U);
  ::close(fds[1]);
  reader.SetTimeout(-1);
  int fds2[2];
  ASSERT_EQ(::pipe(fds2), 0);
  LineReader tail(fds2[0],
                  {.max_line_bytes = 8, .strip_cr = false, .timeout_ms = -1, .on_read = {}});
  ASSERT_EQ(::write(fds2[1], "x\r", 2), 2);
  ::close(fds2[1]);
  ASSERT_TRUE(tail.Next(line, &ending));
  EXPECT_EQ(std::string(line), "x\r");
  EXPECT_EQ(ending, LineReader::Ending::EndOfInput);
  EXPECT_FALSE(tail.Next(line, &ending));
  EXPECT_FALSE(tail.timed_out());
  ::close(fds[0]);
  ::close(fds2[0]);
}

}  // namespace
}  // namespace framing_test
}  // namespace ptovec::generator
