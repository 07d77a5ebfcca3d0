// Hex text of words, status and bytes, flag names, and the hex parsers (word_text.hpp).
#include "ptovec/generator/word_text.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <string>

namespace ptovec::generator {
namespace word_text_test {
namespace {

TEST(WordText, HexWordIsZeroPaddedToTheTypeWidth) {
  EXPECT_EQ(HexWord(0x3C00, TileDataType::FP16), "0x3c00");
  EXPECT_EQ(HexWord(0x7F, TileDataType::E8M0), "0x7f");
  EXPECT_EQ(HexWord(0x82, TileDataType::S8), "0x82");
  EXPECT_EQ(HexWord(0x5, TileDataType::S4X2), "0x5");
  EXPECT_EQ(HexWord(0x1, TileDataType::FP32), "0x00000001");
  EXPECT_EQ(HexWord(0x3FF00, TileDataType::FP19), "0x3ff00");
  EXPECT_EQ(HexStatus(0x14), "0x14");
  EXPECT_EQ(HexStatus(0x01), "0x01");
}

TEST(WordText, DigitsPrefixesAndLetters) {
  std::string out = "x";
  AppendHexDigits(out, 0xABCDEF, 4);
  EXPECT_EQ(out, "xcdef");
  AppendHexDigits(out, 0x7FFFF, 5, HexLetters::Upper);
  EXPECT_EQ(out, "xcdef7FFFF");
  EXPECT_EQ(HexDigits(0xA, 2), "0a");
  EXPECT_EQ(HexDigits(~std::uint64_t{0}, 16, HexLetters::Upper), "FFFFFFFFFFFFFFFF");
  std::string word;
  AppendHexWord(word, 0x3, 4);
  EXPECT_EQ(word, "0x0003");
  EXPECT_EQ(HexShortest(0), "0x0");
  EXPECT_EQ(HexShortest(0x3C00), "0x3c00");
  EXPECT_EQ(HexShortest(~std::uint64_t{0}), "0xffffffffffffffff");
  const unsigned char bytes[] = {0x00, 0x0F, 0xBA, 0xFF};
  EXPECT_EQ(HexBytes(bytes, 4), "000fbaff");
  EXPECT_EQ(HexBytes(bytes, 0), "");
}

TEST(WordText, FlagNamesInBitOrder) {
  EXPECT_EQ(FlagNames(0x14), "OF|NX");
  EXPECT_EQ(FlagNames(0x00), "-");
  EXPECT_EQ(FlagNames(0x1F), "NV|DZ|OF|UF|NX");
  EXPECT_EQ(FlagNames(0x21), "NV|bits7:5");
}

TEST(WordText, ParseHexDigitsAsFromChars) {
  std::uint64_t v = 0;
  EXPECT_EQ(ParseHexDigits("3c00", v), HexParse::Ok);
  EXPECT_EQ(v, 0x3C00u);
  EXPECT_EQ(ParseHexDigits("FfFf", v), HexParse::Ok);
  EXPECT_EQ(v, 0xFFFFu);
  EXPECT_EQ(ParseHexDigits("ffffffffffffffff", v), HexParse::Ok);
  EXPECT_EQ(ParseHexDigits("10000000000000000", v), HexParse::TooWide);
  EXPECT_EQ(ParseHexDigits("10000000000000000zz", v), HexParse::TooWide);
  for (const char* bad : {"", "0x1", "-1", "+1", "1g", " 1", "1 "}) {
    EXPECT_EQ(ParseHexDigits(bad, v), HexParse::Malformed) << bad;
  }
}

TEST(WordText, ParseHexWordTakesAPrefixAndOneToSixteenDigits) {
  std::uint64_t v = 0;
  EXPECT_TRUE(ParseHexWord("0x1f", v));
  EXPECT_EQ(v, 0x1Fu);
  EXPECT_TRUE(ParseHexWord("0XABC", v));
  EXPECT_EQ(v, 0xABCu);
  EXPECT_TRUE(ParseHexWord("0x0000000000000001", v));
  for (const char* bad : {"0x", "1f", "0x00000000000000001", "0xg", "x1f", "0x-1"}) {
    EXPECT_FALSE(ParseHexWord(bad, v)) << bad;
  }
}

TEST(WordText, ParseFlagTextTakesTwoLowerCaseDigitsUpTo1f) {
  EXPECT_EQ(ParseFlagText("0x00"), Status{0});
  EXPECT_EQ(ParseFlagText("0x1f"), Status{0x1F});
  for (const char* bad : {"0x20", "0x1F", "0X1f", "0x1", "0x001", "1f", "0xzz", "0x-1"}) {
    EXPECT_EQ(ParseFlagText(bad), std::nullopt) << bad;
  }
}

}  // namespace
}  // namespace word_text_test
}  // namespace ptovec::generator
