// EscapeText: bytes quoted from files in messages stay printable UTF-8 on one line.
#include "ptovec/generator/escape.hpp"

#include <gtest/gtest.h>

#include <string>

#include "ptovec/generator/cases.hpp"

namespace ptovec::generator {
namespace escape_test {
namespace {

TEST(EscapeText, KeepsPrintableUtf8AndBackslashes) {
  EXPECT_EQ(EscapeText("fp16 0x3c00 caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80 a\\b"),
            "fp16 0x3c00 caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80 a\\b");
  EXPECT_TRUE(IsPrintableText("caf\xc3\xa9"));
  EXPECT_EQ(EscapeText(""), "");
}

TEST(EscapeText, EscapesControlsAndIllFormedBytes) {
  EXPECT_EQ(EscapeText(std::string("a\0b", 3)), "a\\x00b");
  EXPECT_EQ(EscapeText("tab\there\nnew\rline\x1b[31m\x7f"),
            "tab\\x09here\\x0anew\\x0dline\\x1b[31m\\x7f");
  EXPECT_EQ(EscapeText("\xff\xfe"), "\\xff\\xfe");
  EXPECT_EQ(EscapeText("\x80"), "\\x80");                             // a stray continuation byte
  EXPECT_EQ(EscapeText("\xc0\xaf"), "\\xc0\\xaf");                    // overlong '/'
  EXPECT_EQ(EscapeText("\xed\xa0\x80"), "\\xed\\xa0\\x80");           // a surrogate
  EXPECT_EQ(EscapeText("\xf4\x90\x80\x80"), "\\xf4\\x90\\x80\\x80");  // above U+10FFFF
  EXPECT_EQ(EscapeText("ok\xe2\x82"), "ok\\xe2\\x82");                // truncated at the end
  EXPECT_FALSE(IsPrintableText("\xff"));
}

TEST(EscapeText, EscapesC1ControlsSeparatorsAndBidiOverrides) {
  EXPECT_EQ(EscapeText("\xc2\x85"), "\\u0085");
  EXPECT_EQ(EscapeText("a\xe2\x80\xa8"
                       "b\xe2\x80\xa9"),
            "a\\u2028b\\u2029");
  EXPECT_EQ(EscapeText("\xe2\x80\xae"
                       "evil\xe2\x81\xa6"),
            "\\u202eevil\\u2066");
}

TEST(EscapeText, IsIdempotent) {
  const std::string once = EscapeText("x\xff\x01\xc2\x85y");
  EXPECT_EQ(once, "x\\xff\\x01\\u0085y");
  EXPECT_EQ(EscapeText(once), once);
  EXPECT_TRUE(IsPrintableText(once));
}

TEST(EscapeText, InputErrorMessagesAreEscaped) {
  EXPECT_STREQ(InputError("bad word '\xff\x0a'").what(), "bad word '\\xff\\x0a'");
}

}  // namespace
}  // namespace escape_test
}  // namespace ptovec::generator
