// The gate's judging of a real device (compare.hpp, known_differences.hpp): comparison policies,
// result classes and word differences, triage signatures, known-difference rules and the
// built-in sets, and how run, the reports and shrink honour them.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <sstream>
#include <string>

#include "gate_test_support.hpp"
#include "ptovec/generator/cases.hpp"
#include "ptovec/tools/check.hpp"
#include "ptovec/tools/check_report.hpp"
#include "ptovec/tools/compare.hpp"
#include "ptovec/tools/exhaustive.hpp"
#include "ptovec/tools/known_differences.hpp"
#include "ptovec/tools/shrink.hpp"

namespace ptovec::tools {
namespace {

using generator::Case;
using oracle::NumericRoundingMode;
using oracle::TileDataType;
using testing::ErrorOf;
using testing::TestDevice;

constexpr Status kNV = oracle::kStatusNV;
constexpr Status kOF = oracle::kStatusOF;
constexpr Status kUF = oracle::kStatusUF;
constexpr Status kNX = oracle::kStatusNX;

Case EncodeFp32Fp16(oracle::Word value, NumericRoundingMode mode, bool sat = false) {
  Case c;
  c.op = generator::FindOp("encode");
  c.pair = {TileDataType::FP32, TileDataType::FP16};
  c.control = {mode, sat};
  c.in = {value, 0, 0, 0, 0};
  return c;
}

TEST(ComparePolicy, NamesParseAndRefuse) {
  EXPECT_EQ(ParseComparePolicy("", "").Name(), "word+flags");
  EXPECT_TRUE(ParseComparePolicy("word+flags", "").full());
  EXPECT_EQ(ParseComparePolicy("word", "").flags, 0);
  EXPECT_EQ(ParseComparePolicy("word", "").Describe(),
            "words only: the status flags are not compared");
  const ComparePolicy nv_of = ParseComparePolicy("", "of,NV");
  EXPECT_EQ(nv_of.flags, kNV | kOF);
  EXPECT_EQ(nv_of.Name(), "word+flags:NV,OF");
  EXPECT_EQ(ComparePolicyFromName("word+flags:NV,OF"), nv_of);
  EXPECT_EQ(ErrorOf([] { ParseComparePolicy("flags", ""); }),
            "unknown --compare 'flags' (accepted: word+flags, word)");
  EXPECT_NE(ErrorOf([] { ParseComparePolicy("", "NV,XX"); }).find("--flags 'NV,XX'"),
            std::string::npos);
  EXPECT_NE(ErrorOf([] { ParseComparePolicy("word", "NV"); }).find("compares none"),
            std::string::npos);
}

TEST(ResultClass, FloatingAndIntegerClasses) {
  EXPECT_EQ(ResultClass(TileDataType::FP16, 0x7c00), "+inf");
  EXPECT_EQ(ResultClass(TileDataType::FP16, 0xfbff), "-largest");
  EXPECT_EQ(ResultClass(TileDataType::FP16, 0x8000), "-0");
  EXPECT_EQ(ResultClass(TileDataType::FP16, 0x0001), "+subnormal");
  EXPECT_EQ(ResultClass(TileDataType::FP16, 0x7e00), "nan");
  EXPECT_EQ(ResultClass(TileDataType::E8M0, 0xfe), "+largest");
  EXPECT_EQ(ResultClass(TileDataType::S8, 0x80), "min");
  EXPECT_EQ(ResultClass(TileDataType::S8, 0x7f), "max");
  EXPECT_EQ(ResultClass(TileDataType::S8, 0xff), "-int");
  EXPECT_EQ(ResultClass(TileDataType::U8, 0x00), "0");
  EXPECT_EQ(WordDifferenceOf(TileDataType::FP16, 0x7c00, 0x7bff), WordDifference::OneNearer);
  EXPECT_EQ(WordDifferenceOf(TileDataType::FP16, 0x0000, 0x8000), WordDifference::Sign);
  EXPECT_EQ(WordDifferenceOf(TileDataType::FP16, 0x3c00, 0x3e00), WordDifference::Farther);
  EXPECT_EQ(WordDifferenceOf(TileDataType::S8, 0x80, 0x81), WordDifference::OneAbove);
  EXPECT_EQ(WordDifferenceOf(TileDataType::FP16, 0x3c00, 0x7e00), WordDifference::Other);
}

TEST(Signature, TextAndItsCheck) {
  const Case c = EncodeFp32Fp16(0x7f7fffff, NumericRoundingMode::RTZ);
  const Encoded expected{0x7c00, static_cast<Status>(kOF | kNX)};
  const DeviceAnswer got{true, {0x7bff, static_cast<Status>(kOF | kNX)}};
  const Signature s = SignatureOf(c, expected, got, ComparePolicy{});
  const std::string text = SignatureText(*c.op, s);
  EXPECT_EQ(text,
            "sat off; input +normal; expected +inf OF|NX; got +largest OF|NX; word 1 code nearer "
            "zero; flags same");
  EXPECT_EQ(CheckSignatureText(*c.op,
                               "sat off; input  +normal; expected +inf OF|NX; got +largest OF|NX; "
                               "word 1 code nearer zero; flags same"),
            text);
  EXPECT_EQ(SignatureSat(text), false);
  EXPECT_NE(ErrorOf([&] {
              CheckSignatureText(*c.op, "sat off; input +normal; expected +huge OF|NX");
            }).find("unknown result class '+huge'"),
            std::string::npos);
  // A partial --flags mask shows the compared flags (here NV only: none of them set).
  const Signature nv_only = SignatureOf(c, expected, got, ParseComparePolicy("", "NV"));
  EXPECT_EQ(SignatureText(*c.op, nv_only),
            "sat off; input +normal; expected +inf -; got +largest -; word 1 code nearer zero; "
            "flags same");
  // Unsupported answers: one group per pair and Sat.
  const std::string unsupported =
      SignatureText(*c.op, SignatureOf(c, expected, DeviceAnswer{false, {}}, ComparePolicy{}));
  EXPECT_EQ(unsupported, "sat off; got unsupported");
  EXPECT_EQ(CheckSignatureText(*c.op, "sat off; got unsupported"), "sat off; got unsupported");
  // An op without controls names no Sat (shift: RNE, Sat off only).
  Case shift;
  shift.op = generator::FindOp("shift");
  shift.pair = {TileDataType::S32, TileDataType::S16};
  shift.in = {0x00010000, 0x01, 0, 0, 0};
  const Encoded clamped{0x7fff, static_cast<Status>(kOF | kNX)};
  const std::string shift_text = SignatureText(
      *shift.op, SignatureOf(shift, clamped, DeviceAnswer{true, {0x7fff, 0}}, ComparePolicy{}));
  EXPECT_EQ(shift_text, "input +int; expected max OF|NX; got max -; word same; flags -OF|NX");
  EXPECT_EQ(CheckSignatureText(*shift.op, shift_text), shift_text);
  EXPECT_EQ(SignatureSat(shift_text), std::nullopt);
  EXPECT_EQ(ErrorOf([&] { CheckSignatureText(*shift.op, "sat off; " + shift_text); }),
            "--signature part 'sat off': shift has no controls: its signatures name no Sat (give "
            "a signature as a report's triage line prints it, e.g. 'input +normal; expected +inf "
            "OF|NX; got +largest OF|NX; word 1 code nearer zero; flags same')");
}

// Sat is part of the signature of an op with controls: one fault under Sat on and one under
// Sat off are two groups, each text naming its Sat; a text without it is refused in one line.
TEST(Signature, SatOnAndSatOffAreTwoGroups) {
  const Encoded expected{0x7c00, static_cast<Status>(kOF | kNX)};
  const DeviceAnswer got{true, {0x7bff, static_cast<Status>(kOF | kNX)}};
  const Case off = EncodeFp32Fp16(0x7f7fffff, NumericRoundingMode::RTZ, false);
  const Case on = EncodeFp32Fp16(0x7f7fffff, NumericRoundingMode::RTZ, true);
  const Signature s_off = SignatureOf(off, expected, got, ComparePolicy{});
  const Signature s_on = SignatureOf(on, expected, got, ComparePolicy{});
  EXPECT_EQ(s_off.sat, 0);
  EXPECT_EQ(s_on.sat, 1);
  EXPECT_NE(s_off, s_on);
  // The mode stays out: RTM and RTZ under Sat off are one signature.
  EXPECT_EQ(SignatureOf(EncodeFp32Fp16(0x7f7fffff, NumericRoundingMode::RTM), expected, got,
                        ComparePolicy{}),
            s_off);
  const std::string on_text = SignatureText(*on.op, s_on);
  EXPECT_EQ(on_text,
            "sat on; input +normal; expected +inf OF|NX; got +largest OF|NX; word 1 code nearer "
            "zero; flags same");
  EXPECT_EQ(CheckSignatureText(*on.op, on_text), on_text);
  EXPECT_EQ(SignatureSat(on_text), true);
  // Tallied: two groups, each under its own Sat.
  CheckAccumulator acc(0, {}, Judge{});
  acc.BeginFile("encode_fp32_fp16.bin", *off.op, off.pair, 2);
  acc.Add(0, off, expected, got);
  acc.Add(1, on, expected, got);
  const CheckReport r = acc.Finish();
  ASSERT_EQ(r.groups.size(), 2U);
  EXPECT_EQ(SignatureText(*r.groups[0].op, r.groups[0].signature), SignatureText(*off.op, s_off));
  EXPECT_EQ(SignatureText(*r.groups[1].op, r.groups[1].signature), on_text);
  std::ostringstream report;
  PrintReport(report, r, 1);
  EXPECT_NE(report.str().find("           1  encode fp32 -> fp16: sat on; input +normal; "
                              "expected +inf OF|NX; got +largest OF|NX; word 1 code nearer zero; "
                              "flags same\n                group #2 under RTZ on; first "
                              "encode_fp32_fp16.bin vector 1\n"),
            std::string::npos)
      << report.str();
  // A signature without its Sat (the text before Sat was part of it) is refused.
  EXPECT_EQ(ErrorOf([&] {
              CheckSignatureText(*on.op,
                                 "input +normal; expected +inf OF|NX; got +largest OF|NX; word 1 "
                                 "code nearer zero; flags same");
            }),
            "--signature part 'input +normal': expected 'sat on' or 'sat off' here (encode has "
            "controls: its signatures name the Sat of their mismatches) (give a signature as a "
            "report's triage line prints it, e.g. 'sat off; input +normal; expected +inf OF|NX; "
            "got +largest OF|NX; word 1 code nearer zero; flags same')");
  EXPECT_NE(ErrorOf([&] {
              CheckSignatureText(*on.op, "sat maybe; got unsupported");
            }).find("--signature part 'sat maybe': expected 'sat on' or 'sat off' here"),
            std::string::npos);
}

// A policy that compares no flag (--compare word) gives a signature without flags: neither the
// results' flags nor a flag difference, which would be unknown. CheckSignatureText takes it.
TEST(Signature, WordsOnlyHasNoFlags) {
  const Case c = EncodeFp32Fp16(0x7f7fffff, NumericRoundingMode::RTZ);
  const Encoded expected{0x7c00, static_cast<Status>(kOF | kNX)};
  const DeviceAnswer got{true, {0x7bff, 0}};
  const ComparePolicy words = ParseComparePolicy("word", "");
  const Signature s = SignatureOf(c, expected, got, words);
  EXPECT_EQ(s.compared_flags, 0);
  EXPECT_NE(s, SignatureOf(c, expected, got, ComparePolicy{}));
  const std::string text = SignatureText(*c.op, s);
  EXPECT_EQ(text, "sat off; input +normal; expected +inf; got +largest; word 1 code nearer zero");
  EXPECT_EQ(CheckSignatureText(*c.op, text), text);
  // The judge of such a signature counts the case under the same policy.
  Judge judge;
  judge.policy = words;
  judge.signature = CheckSignatureText(*c.op, text);
  EXPECT_TRUE(judge.Counts(c, expected, got));
  // Flags on one result only, or a flag difference after flagless results, are refused.
  EXPECT_NE(ErrorOf([&] {
              CheckSignatureText(*c.op,
                                 "sat off; input +normal; expected +inf; got +largest OF|NX; "
                                 "word 1 code nearer zero");
            }).find("--signature part 'got +largest OF|NX': the expected result has no flags"),
            std::string::npos);
  EXPECT_NE(ErrorOf([&] {
              CheckSignatureText(*c.op,
                                 "sat off; input +normal; expected +inf OF|NX; got +largest; "
                                 "word 1 code nearer zero; flags -OF|NX");
            }).find("--signature part 'got +largest': expected a result class and its flags"),
            std::string::npos);
  EXPECT_NE(ErrorOf([&] {
              CheckSignatureText(*c.op,
                                 "sat off; input +normal; expected +inf; got +largest; word 1 "
                                 "code nearer zero; flags same");
            }).find("--signature part 'flags same': a signature whose results have no flags"),
            std::string::npos);
}

// fpatr signatures start with the named slots (pre_quant_mode, relu_mode): every cause of the
// real devices was in one of them.
TEST(Signature, FpatrSplitsByPreQuantModeAndReluMode) {
  Case c;
  c.op = generator::FindOp("fpatr");
  c.pair = {TileDataType::FP32, TileDataType::FP32};
  c.in = {0x3f800000, 0, 1, 0, 0};
  const Encoded expected{0x3f800000, 0};
  const DeviceAnswer got{true, {0xbf800000, 0}};
  EXPECT_EQ(SignatureText(*c.op, SignatureOf(c, expected, got, ComparePolicy{})),
            "pre_quant_mode 0; relu_mode 1; sat off; input +normal; expected +normal -; got "
            "-normal -; word sign; flags same");
}

// shrink --class: only failures whose first input is of the given classes count.
TEST(ShrinkJudge, ClassFilterKeepsOnlyThoseInputs) {
  Judge judge;
  judge.input_classes = ParseInputClasses("+normal,+subnormal");
  const Encoded inf{0x7c00, static_cast<Status>(kOF | kNX)};
  const DeviceAnswer largest{true, {0x7bff, static_cast<Status>(kOF | kNX)}};
  EXPECT_TRUE(judge.Counts(EncodeFp32Fp16(0x7f7fffff, NumericRoundingMode::RNE), inf, largest));
  const Encoded minus_inf{0xfc00, static_cast<Status>(kOF | kNX)};
  const DeviceAnswer minus_largest{true, {0xfbff, static_cast<Status>(kOF | kNX)}};
  EXPECT_FALSE(
      judge.Counts(EncodeFp32Fp16(0xff7fffff, NumericRoundingMode::RNE), minus_inf, minus_largest));
  EXPECT_NE(ErrorOf([] {
              ParseInputClasses("+normal,positive");
            }).find("--class 'positive' is not an input class (accepted: invalid-encoding, +zero"),
            std::string::npos);
}

// The verdict of `judge` on answer `a` to case `c`, and the name of the entry that waived it.
std::pair<Verdict, std::string> VerdictOf(const Judge& judge, const Case& c, const Encoded& e,
                                          const DeviceAnswer& a) {
  std::size_t rule = kNoRule;
  const Verdict v = judge.Of(c, generator::InputClassOf(*c.op, c.pair, c.in), e, a, &rule);
  return {v, rule == kNoRule ? std::string() : judge.known.rules[rule].FullName()};
}

Case Make(const char* op, TileDataType src, TileDataType dst, oracle::Word value,
          NumericRoundingMode mode, bool sat = false) {
  Case c;
  c.op = generator::FindOp(op);
  c.pair = {src, dst};
  c.control = {mode, sat};
  c.in = {value, 0, 0, 0, 0};
  return c;
}

// A model waives a mismatch only where the device gives the model's exact answer (issue 40's
// cases): IEEE overflow by direction (RTO included), -0 kept only for a -0 source, tininess
// after rounding only where rounding leaves the tiny range.
TEST(KnownDifferences, BuiltinModelsWaiveOnlyTheirExactAnswer) {
  const KnownDifferences ieee = LoadKnownDifferences({"ieee754"});
  ASSERT_EQ(ieee.sets, std::vector<std::string>{"ieee754"});
  ASSERT_EQ(ieee.models.size(), 1U);
  EXPECT_EQ(ieee.rules.size(), 5U);                           // its deviations
  EXPECT_EQ(LoadKnownDifferences({"arm"}).rules.size(), 4U);  // tininess before rounding
  Judge judge;
  judge.known = ieee;
  const Status of_nx = static_cast<Status>(kOF | kNX);
  const Encoded inf{0x7c00, of_nx};
  const DeviceAnswer largest{true, {0x7bff, of_nx}};
  const auto verdict = [&](const Case& c, const Encoded& e, const DeviceAnswer& a) {
    return VerdictOf(judge, c, e, a);
  };
  EXPECT_EQ(verdict(EncodeFp32Fp16(0x7f7fffff, NumericRoundingMode::RTZ), inf, largest),
            std::make_pair(Verdict::Waived, std::string("ieee754/ieee-overflow")));
  EXPECT_EQ(verdict(EncodeFp32Fp16(0x7f7fffff, NumericRoundingMode::RNE), inf, largest).first,
            Verdict::Mismatch);
  // Round to odd never gives Inf in IEEE 754: bf16 0x4780 (65536) into FP16.
  EXPECT_EQ(verdict(Make("encode", TileDataType::BF16, TileDataType::FP16, 0x4780,
                         NumericRoundingMode::RTO),
                    inf, largest)
                .second,
            "ieee754/ieee-overflow");
  // RTM: only a positive value overflows to the largest; -largest for -Inf is a bug, and so is
  // the largest without OF, or a sign flip.
  const Encoded minus_inf{0xfc00, of_nx};
  EXPECT_EQ(verdict(EncodeFp32Fp16(0xff7fffff, NumericRoundingMode::RTM), minus_inf,
                    DeviceAnswer{true, {0xfbff, of_nx}})
                .first,
            Verdict::Mismatch);
  EXPECT_EQ(verdict(EncodeFp32Fp16(0x7f7fffff, NumericRoundingMode::RTZ), inf,
                    DeviceAnswer{true, {0x7bff, kNX}})
                .first,
            Verdict::Mismatch);
  EXPECT_EQ(verdict(EncodeFp32Fp16(0x7f7fffff, NumericRoundingMode::RTZ), inf,
                    DeviceAnswer{true, {0xfbff, of_nx}})
                .first,
            Verdict::Mismatch);
  // -0 kept for a -0 source; -0 for a +0 source is a bug (a device answering -0 for every zero).
  EXPECT_EQ(verdict(EncodeFp32Fp16(0x80000000, NumericRoundingMode::RNE), Encoded{0x0000, 0},
                    DeviceAnswer{true, {0x8000, 0}})
                .second,
            "ieee754/signed-zero");
  EXPECT_EQ(verdict(EncodeFp32Fp16(0x00000000, NumericRoundingMode::RNE), Encoded{0x0000, 0},
                    DeviceAnswer{true, {0x8000, 0}})
                .first,
            Verdict::Mismatch);
  // After rounding: -(2^-14 - 2^-37) under RTM rounds out of the tiny range (waived); 0x387fe003
  // under RNE stays tiny at FP16's precision, so UF is IEEE's too (a device raising UF only for
  // subnormal results fails).
  const Encoded uf_nx{0x8400, static_cast<Status>(kUF | kNX)};
  EXPECT_EQ(verdict(EncodeFp32Fp16(0xb87ffffe, NumericRoundingMode::RTM), uf_nx,
                    DeviceAnswer{true, {0x8400, kNX}})
                .second,
            "ieee754/tininess-after-rounding");
  EXPECT_EQ(
      verdict(EncodeFp32Fp16(0x387fe003, NumericRoundingMode::RNE),
              Encoded{0x0400, static_cast<Status>(kUF | kNX)}, DeviceAnswer{true, {0x0400, kNX}})
          .first,
      Verdict::Mismatch);
}

// RISC-V clamps an out-of-range conversion with NV: INT_MIN below range, not 0. Words the model
// leaves open (ieee754's invalid integers) waive nothing under --compare word.
TEST(KnownDifferences, InvalidIntegerWordsAndOpenWords) {
  Judge riscv;
  riscv.known = LoadKnownDifferences({"riscv"});
  const Case low =
      Make("encode", TileDataType::FP32, TileDataType::S32, 0xff7fffff, NumericRoundingMode::RNE);
  const Encoded expected = generator::EvaluateCase(low);
  EXPECT_EQ(VerdictOf(riscv, low, expected, DeviceAnswer{true, {0x80000000, kNV}}),
            std::make_pair(Verdict::Waived, std::string("riscv/invalid-integer")));
  EXPECT_EQ(VerdictOf(riscv, low, expected, DeviceAnswer{true, {0, kNV}}).first, Verdict::Mismatch);
  Judge ieee;
  ieee.known = LoadKnownDifferences({"ieee754"});
  EXPECT_EQ(VerdictOf(ieee, low, expected, DeviceAnswer{true, {0x12345678, kNV}}).first,
            Verdict::Waived);
  EXPECT_EQ(VerdictOf(ieee, low, expected, DeviceAnswer{true, {0x12345678, kOF}}).first,
            Verdict::Mismatch);
  // S4X2 always clamping (expected the wrapped 0x8, got 0x7) under --compare word: the open word
  // waives nothing; x86's indefinite word is compared.
  ieee.policy = ParseComparePolicy("word", "");
  const Case s4 =
      Make("encode", TileDataType::FP32, TileDataType::S4X2, 0x41000000, NumericRoundingMode::RNE);
  const Encoded e4 = generator::EvaluateCase(s4);
  ASSERT_EQ(e4.word, 0x8U);
  EXPECT_EQ(VerdictOf(ieee, s4, e4, DeviceAnswer{true, {0x7, 0}}).first, Verdict::Mismatch);
  Judge x86;
  x86.known = LoadKnownDifferences({"x86"});
  EXPECT_EQ(VerdictOf(x86, s4, e4, DeviceAnswer{true, {0x8, kNV}}).second,
            "x86/invalid-integer");  // the indefinite -8 with NV
  x86.policy = ieee.policy;
  EXPECT_EQ(VerdictOf(x86, s4, e4, DeviceAnswer{true, {0x7, 0}}).first, Verdict::Mismatch);
}

// Shape rules (a file's "rules", the last resort): a floating class without its sign in `got`
// takes "the sign of the expected word" (schemas/known-differences-format.md).
TEST(KnownDifferences, UnsignedGotClassTakesTheExpectedWordsSign) {
  Judge judge;
  judge.known = ParseKnownDifferences(
      nlohmann::json::parse(R"({"format":"ptovec-known-differences","version":2,"name":"t",)"
                            R"("rules":[{"name":"rtz","reason":"r","dst":"float","rmode":"RTZ",)"
                            R"("word":{"expected":"inf","got":"largest"},"flags":"same"}]})"),
      "t.json");
  const Status of_nx = static_cast<Status>(kOF | kNX);
  const auto verdict = [&](oracle::Word value, oracle::Word expected, oracle::Word got) {
    const Case c = EncodeFp32Fp16(value, NumericRoundingMode::RTZ);
    return judge.Of(c, generator::InputClassOf(*c.op, c.pair, c.in), Encoded{expected, of_nx},
                    DeviceAnswer{true, {got, of_nx}});
  };
  EXPECT_EQ(verdict(0x7f7fffff, 0x7c00, 0x7bff), Verdict::Waived);    // +Inf, +largest
  EXPECT_EQ(verdict(0xff7fffff, 0xfc00, 0xfbff), Verdict::Waived);    // -Inf, -largest
  EXPECT_EQ(verdict(0x7f7fffff, 0x7c00, 0xfbff), Verdict::Mismatch);  // +Inf, -largest
  EXPECT_EQ(verdict(0xff7fffff, 0xfc00, 0x7bff), Verdict::Mismatch);  // -Inf, +largest
}

TEST(KnownDifferences, RefusesRulesThatWaiveEverythingOrNothing) {
  const auto parse = [](const std::string& rules) {
    return ErrorOf([&] {
      ParseKnownDifferences(nlohmann::json::parse(R"({"format":"ptovec-known-differences",)"
                                                  R"("version":1,"name":"t","rules":[)" +
                                                  rules + "]}"),
                            "t.json");
    });
  };
  EXPECT_NE(parse(R"({"name":"a","reason":"r","word":"any","flags":"any"})")
                .find("would waive every mismatch"),
            std::string::npos);
  EXPECT_NE(parse(R"({"name":"a","reason":"r"})").find("explain no mismatch"), std::string::npos);
  EXPECT_NE(parse(R"({"name":"a","word":"any"})").find("needs a \"reason\""), std::string::npos);
  EXPECT_NE(parse(R"({"name":"a","reason":"r","word":{"got":"huge"}})").find("'huge'"),
            std::string::npos);
  EXPECT_NE(parse(R"({"name":"a","reason":"r","rmode":"RXX","word":"any"})").find("rmode 'RXX'"),
            std::string::npos);
  EXPECT_NE(
      parse(R"({"name":"a","reason":"r","colour":1,"word":"any"})").find("unknown key \"colour\""),
      std::string::npos);
  EXPECT_EQ(ErrorOf([] { LoadKnownDifferences({"ieee"}); }),
            "--known-differences 'ieee' is not a built-in model (built in: ieee754, riscv, x86, "
            "arm; a file is named by a path with '/' or ending in .json)");
  EXPECT_NE(ErrorOf([] {
              LoadKnownDifferences({"ieee754", "ieee754"});
            }).find("already given"),
            std::string::npos);
}

// A file's "model": a base and changes; bad names are refused with one line.
TEST(KnownDifferences, FileModelsCompose) {
  const auto load = [](const std::string& model) {
    return ParseKnownDifferences(
        nlohmann::json::parse(R"({"format":"ptovec-known-differences","version":2,"name":"m",)"
                              R"("model":)" +
                              model + "}"),
        "m.json");
  };
  const KnownDifferences before =
      load(R"({"base":"ieee754","remove":"tininess-after-rounding","invalid-integer":"clamp"})");
  ASSERT_EQ(before.models.size(), 1U);
  EXPECT_FALSE(before.models[0].behaviour.Has(oracle::Deviation::TininessAfterRounding));
  EXPECT_EQ(before.models[0].behaviour.invalid_integer, oracle::InvalidIntegerWord::Clamp);
  EXPECT_EQ(before.rules.size(), 4U);
  EXPECT_EQ(before.rules[0].FullName(), "m/ieee-overflow");
  EXPECT_TRUE(load(R"({"base":"profile","add":["e4m3-inf-nan"]})")
                  .models[0]
                  .behaviour.Has(oracle::Deviation::E4M3InfNaN));
  EXPECT_EQ(ErrorOf([&] { load(R"({"base":"profile","add":["e4m3"]})"); }),
            "known differences m.json: \"model\": \"add\": 'e4m3' is not a deviation (accepted: "
            "ieee-overflow, no-saturation, signed-zero, tininess-after-rounding, invalid-integer, "
            "e4m3-inf-nan)");
  EXPECT_NE(ErrorOf([&] { load(R"("ieee")"); })
                .find("base 'ieee' is not a model (accepted: "
                      "profile, ieee754, riscv, x86, arm)"),
            std::string::npos);
  EXPECT_NE(ErrorOf([&] { load(R"({"base":"profile"})"); }).find("no deviation left"),
            std::string::npos);
}

// A flagless model fails the default gate and passes words only; the report says so.
TEST(JudgedRun, FlaglessDevicePassesWordsOnlyAndSaysSo) {
  TestDevice flagless([](const Case&, DeviceAnswer& a) { a.result.status = 0; });
  ExhaustiveOptions options;
  options.op = generator::FindOp("tcvt");
  options.pair = {TileDataType::FP16, TileDataType::E8M0};
  options.controls = generator::ParseControlFilter("RNE,RTZ", "off");
  options.threads = 1;
  const CheckReport full = RunExhaustive(flagless, options);
  EXPECT_FALSE(full.passed());
  EXPECT_EQ(full.vectors, 2U * 65536U);
  options.judge.policy = ParseComparePolicy("word", "");
  const CheckReport words = RunExhaustive(flagless, options);
  EXPECT_TRUE(words.passed());
  std::ostringstream text;
  PrintReport(text, words, 5);
  EXPECT_NE(text.str().find("\nPASS (words only: the status flags are not compared)\n"),
            std::string::npos)
      << text.str();
  const std::string junit = JunitXml(words);
  EXPECT_NE(junit.find("<property name=\"ptovec.compare\" value=\"word\"/>"), std::string::npos);
}

// --flags NV catches a device that drops only NV; the other bits are ignored.
TEST(JudgedRun, FlagSubsetCatchesADroppedNv) {
  TestDevice no_nv([](const Case&, DeviceAnswer& a) {
    a.result.status = static_cast<Status>(a.result.status & ~kNV);
  });
  ExhaustiveOptions options;
  options.op = generator::FindOp("tcvt");
  options.pair = {TileDataType::FP16, TileDataType::E8M0};
  options.controls = generator::ParseControlFilter("RNE", "off");
  options.threads = 1;
  options.judge.policy = ParseComparePolicy("", "NV");
  const CheckReport nv = RunExhaustive(no_nv, options);
  // NV is raised by +0, by every code with the sign bit set (-0, -subnormal, -normal, -Inf and
  // the negative NaNs: 32768) and by the positive NaNs (0x7c01..0x7fff: 1023), one control each.
  EXPECT_FALSE(nv.passed());
  EXPECT_EQ(nv.mismatched, nv.flags);
  EXPECT_EQ(nv.mismatched, 1U + 32768U + 1023U);
  options.judge.policy = ParseComparePolicy("", "OF,UF,NX");
  EXPECT_TRUE(RunExhaustive(no_nv, options).passed());
}

// Two faults on one pair: NV missing for every negative normal input (430,080 vectors) and a
// wrong word for 1.0 under RTZ and RTM (four vectors); each is its own triage group and shrinks
// to its own simplest case.
bool NegativeNormalFp16(oracle::Word w) {
  const oracle::Word exponent = (w >> 10) & 0x1f;
  return (w & 0x8000) != 0 && exponent != 0 && exponent != 0x1f;
}

TEST(Triage, TwoFaultsTwoGroupsEachShrunkApart) {
  const auto fault = [](const Case& c, DeviceAnswer& a) {
    if (NegativeNormalFp16(c.in[0])) a.result.status = static_cast<Status>(a.result.status & ~kNV);
    if (c.in[0] == 0x3c00 && (c.control.rounding_mode == NumericRoundingMode::RTZ ||
                              c.control.rounding_mode == NumericRoundingMode::RTM)) {
      a.result.word = 0x80;
    }
  };
  TestDevice device(fault);
  ExhaustiveOptions options;
  options.op = generator::FindOp("tcvt");
  options.pair = {TileDataType::FP16, TileDataType::E8M0};
  options.threads = 1;
  const CheckReport r = RunExhaustive(device, options);
  // Each fault under Sat off and under Sat on: four groups.
  ASSERT_EQ(r.groups.size(), 4U);
  const auto group = [&](WordDifference word, bool sat) {
    const auto it = std::find_if(r.groups.begin(), r.groups.end(), [&](const TriageGroup& g) {
      return g.signature.word == word && g.signature.sat == (sat ? 1 : 0);
    });
    EXPECT_NE(it, r.groups.end());
    return it == r.groups.end() ? r.groups.front() : *it;
  };
  const TriageGroup nv_group = group(WordDifference::Same, false);
  EXPECT_EQ(nv_group.count, 215040U);
  EXPECT_EQ(group(WordDifference::Same, true).count, 215040U);
  EXPECT_EQ(SignatureText(*nv_group.op, nv_group.signature),
            "sat off; input -normal; expected nan NV; got nan -; word same; flags -NV");
  const TriageGroup word_group = group(WordDifference::OneFarther, false);
  const TriageGroup word_on_group = group(WordDifference::OneFarther, true);
  EXPECT_EQ(word_group.count, 2U);
  EXPECT_EQ(word_on_group.count, 2U);
  const std::string word_on = SignatureText(*word_on_group.op, word_on_group.signature);
  EXPECT_EQ(word_on,
            "sat on; input +normal; expected +normal -; got +normal -; word 1 code farther from "
            "zero; flags same");
  std::ostringstream text;
  PrintReport(text, r, 1);
  EXPECT_NE(text.str().find("           2  tcvt fp16 -> e8m0: sat off; input +normal; expected "
                            "+normal -; got +normal -; word 1 code farther from zero; flags same\n"
                            "                group #1 under RTM off, RTZ off;"),
            std::string::npos)
      << text.str();
  EXPECT_NE(text.str().find("      215040  tcvt fp16 -> e8m0: sat on; input -normal; expected nan "
                            "NV; got nan -; word same; flags -NV\n"
                            "                group #4 under every mode, Sat on;"),
            std::string::npos)
      << text.str();
  // Shrunk apart: the word group reaches 1.0 under RTM, Sat off; the NX group its own case.
  Judge judge;
  judge.signature = SignatureText(*word_group.op, word_group.signature);
  const ShrinkResult word = ShrinkFrom(device, word_group.first.c, 100000, judge);
  ASSERT_TRUE(word.minimal);
  EXPECT_EQ(word.minimal->c.in[0], 0x3c00U);
  EXPECT_EQ(word.minimal->c.control.rounding_mode, NumericRoundingMode::RTM);
  EXPECT_FALSE(word.minimal->c.control.saturating);
  // The Sat-on group keeps its Sat (Sat off would be simpler, and fails too, but is the other
  // group): its pair is enumerated under the 7 modes of Sat on only.
  judge.signature = word_on;
  const ShrinkResult on = ShrinkFrom(device, word_on_group.first.c, 100000, judge);
  ASSERT_TRUE(on.minimal);
  EXPECT_EQ(on.minimal->c.in[0], 0x3c00U);
  EXPECT_EQ(on.minimal->c.control.rounding_mode, NumericRoundingMode::RTM);
  EXPECT_TRUE(on.minimal->c.control.saturating);
  EXPECT_EQ(SignatureText(*on.minimal->c.op, SignatureOf(on.minimal->c, on.minimal->expected,
                                                         on.minimal->got, judge.policy)),
            word_on);
  ASSERT_EQ(on.search.size(), 1U);
  EXPECT_EQ(on.search[0].cases, 65536U * 7);
  EXPECT_EQ(on.search[0].failing, 2U);
  judge.signature = SignatureText(*nv_group.op, nv_group.signature);
  const ShrinkResult nv = ShrinkFrom(device, nv_group.first.c, 100000, judge);
  ASSERT_TRUE(nv.minimal);
  EXPECT_EQ(nv.minimal->c.in[0], 0xbc00U);  // -1.0, RNE, Sat off
  EXPECT_EQ(nv.minimal->c.control.rounding_mode, NumericRoundingMode::RNE);
  // The property with the Sat-on signature draws and enumerates under Sat on only; with --sat
  // off it is refused before any case runs.
  ShrinkOptions options_on;
  options_on.op = generator::FindOp("tcvt");
  options_on.pair = TypePair{TileDataType::FP16, TileDataType::E8M0};
  options_on.judge.signature = word_on;
  const ShrinkResult property = ShrinkProperty(device, options_on);
  ASSERT_TRUE(property.minimal);
  EXPECT_TRUE(property.minimal->c.control.saturating);
  EXPECT_EQ(property.minimal->c.control.rounding_mode, NumericRoundingMode::RTM);
  EXPECT_EQ(property.search.at(0).cases, 65536U * 7);
  options_on.controls = generator::ParseControlFilter("", "off");
  EXPECT_EQ(ErrorOf([&] { ShrinkProperty(device, options_on); }),
            "--signature names sat on, but --sat keeps Sat off only (give --sat on, or no --sat: "
            "a signature's Sat is kept)");
}

// Every triage group keeps its full lines (its controls and first vector, its `ptovec eval`
// line) however many groups there are; --max-report 0 prints only counts and signatures.
TEST(Triage, EveryGroupOfMoreThanFiftyHasItsEvalLine) {
  CheckAccumulator acc(0, {}, Judge{});
  const Case one = EncodeFp32Fp16(0x3f800000, NumericRoundingMode::RNE);
  acc.BeginFile("encode_fp32_fp16.bin", *one.op, one.pair, 62);
  // 1.0 is exact (0x3c00, no flag); each wrong status under each Sat is a group of its own.
  std::uint64_t index = 0;
  for (Status flags = 1; flags < 32; ++flags) {
    for (const bool sat : {false, true}) {
      const Case c = EncodeFp32Fp16(0x3f800000, NumericRoundingMode::RNE, sat);
      acc.Add(index++, c, Encoded{0x3c00, 0}, DeviceAnswer{true, {0x3c00, flags}});
    }
  }
  const CheckReport r = acc.Finish();
  ASSERT_EQ(r.groups.size(), 62U);
  std::ostringstream text;
  PrintReport(text, r, 20);
  const std::string report = text.str();
  const auto count = [](const std::string& all, const std::string& what) {
    std::size_t n = 0;
    for (std::size_t at = all.find(what); at != std::string::npos; at = all.find(what, at + 1)) {
      ++n;
    }
    return n;
  };
  EXPECT_NE(report.find("triage: 62 symptom groups;"), std::string::npos) << report;
  EXPECT_EQ(count(report, "\n                ptovec eval --op encode"), 62U) << report;
  EXPECT_EQ(count(report, "\n                group #"), 62U) << report;
  // The last group, past the 50th, in full.
  EXPECT_NE(
      report.find("           1  encode fp32 -> fp16: sat on; input +normal; expected "
                  "+normal -; got +normal NV|DZ|OF|UF|NX; word same; flags +NV|DZ|OF|UF|NX\n"
                  "                group #62 under RNE on; first encode_fp32_fp16.bin vector 61\n"
                  "                ptovec eval --op encode --src fp32 --dst fp16 --rmode RNE "
                  "--sat 0x3f800000\n"),
      std::string::npos)
      << report;
  std::ostringstream quiet;
  PrintReport(quiet, r, 0);
  EXPECT_EQ(count(quiet.str(), "ptovec eval"), 0U) << quiet.str();
  EXPECT_EQ(count(quiet.str(), "  encode fp32 -> fp16: sat "), 62U) << quiet.str();
}

// The device fails under RTZ and RTM for FP32 -> FP16 overflow (the largest finite instead of
// Inf, Sat off); from RTZ 0x47800000 and with every seed from 1 to 20 the shrink ends at RTM
// 0x47800000, the simplest failing mode, and says it is a local minimum truthfully.
TEST(ShrinkModes, RtzAndRtmFailureEndsAtTheSimplestFailingMode) {
  TestDevice device([](const Case& c, DeviceAnswer& a) {
    if ((a.result.word & 0x7fff) == 0x7c00 && !c.control.saturating &&
        (c.control.rounding_mode == NumericRoundingMode::RTZ ||
         c.control.rounding_mode == NumericRoundingMode::RTM)) {
      a.result.word -= 1;
    }
  });
  const ShrinkResult from =
      ShrinkFrom(device, EncodeFp32Fp16(0x47800000, NumericRoundingMode::RTZ));
  ASSERT_TRUE(from.minimal);
  EXPECT_EQ(from.minimal->c.control.rounding_mode, NumericRoundingMode::RTM);
  EXPECT_EQ(from.minimal->c.in[0], 0x47800000U);
  EXPECT_TRUE(from.local_minimum);
  // The moves of the minimum include every simpler control of the same input.
  const std::vector<Case> moves = SimplerMoves(from.minimal->c);
  EXPECT_NE(std::find_if(moves.begin(), moves.end(),
                         [](const Case& m) {
                           return m.in[0] == 0x47800000 &&
                                  m.control.rounding_mode == NumericRoundingMode::RNE;
                         }),
            moves.end());
  for (std::uint64_t seed = 1; seed <= 20; ++seed) {
    ShrinkOptions options;
    options.op = generator::FindOp("encode");
    options.pair = TypePair{TileDataType::FP32, TileDataType::FP16};
    options.seed = seed;
    const ShrinkResult r = ShrinkProperty(device, options);
    ASSERT_TRUE(r.minimal) << "seed " << seed;
    EXPECT_EQ(r.minimal->c.control.rounding_mode, NumericRoundingMode::RTM) << "seed " << seed;
    EXPECT_EQ(r.minimal->c.in[0], 0x47800000U) << "seed " << seed;
    EXPECT_FALSE(r.minimal->c.control.saturating) << "seed " << seed;
  }
}

// Unsupported answers are never a counterexample under allow_unsupported, and a known
// difference is never one either.
TEST(ShrinkJudge, UnsupportedAndWaivedAreNotCounterexamples) {
  // IEEE-like: the largest finite under RTZ overflow, RNA/RTO/RHB unsupported.
  TestDevice device([](const Case& c, DeviceAnswer& a) {
    const auto mode = c.control.rounding_mode;
    if (mode == NumericRoundingMode::RNA || mode == NumericRoundingMode::RTO ||
        mode == NumericRoundingMode::RHB) {
      a = DeviceAnswer{false, {}};
      return;
    }
    if ((a.result.word & 0x7fff) == 0x7c00 && !c.control.saturating &&
        mode == NumericRoundingMode::RTZ) {
      a.result.word -= 1;
    }
  });
  ShrinkOptions options;
  options.op = generator::FindOp("encode");
  options.pair = TypePair{TileDataType::FP32, TileDataType::FP16};
  const ShrinkResult plain = ShrinkProperty(device, options);
  ASSERT_TRUE(plain.minimal);
  EXPECT_FALSE(plain.minimal->got.supported);  // the simplest failure is an unsupported mode
  options.judge.allow_unsupported = true;
  const ShrinkResult allowed = ShrinkProperty(device, options);
  ASSERT_TRUE(allowed.minimal);
  EXPECT_TRUE(allowed.minimal->got.supported);
  EXPECT_EQ(allowed.minimal->c.control.rounding_mode, NumericRoundingMode::RTZ);
  options.judge.known = LoadKnownDifferences({"ieee754"});
  const ShrinkResult waived = ShrinkProperty(device, options);
  EXPECT_FALSE(waived.failed);
}

// The report counts each deviation's waivers and where it differs from the profile; one that
// never differs on an answered vector is stale.
TEST(KnownDifferences, ReportCountsDeviationsAndListsStaleOnes) {
  Judge judge;
  judge.known = LoadKnownDifferences({"ieee754"});
  const generator::OpDef& encode = *generator::FindOp("encode");
  // -0 kept (waived), 1.0 and the largest FP32 right (RNE: Inf, as IEEE), then the largest
  // under RTZ answered with the profile's Inf: ieee-overflow differs there, not followed.
  CheckAccumulator acc(5, {}, judge);
  acc.BeginFile("encode_fp32_fp16.bin", encode, {TileDataType::FP32, TileDataType::FP16}, 4);
  for (const oracle::Word w : {0x80000000U, 0x3f800000U, 0x7f7fffffU, 0x7f7fffffU}) {
    const Case c = EncodeFp32Fp16(w, NumericRoundingMode::RNE);
    DeviceAnswer got{true, generator::EvaluateCase(c)};
    if (w == 0x80000000U) got.result.word = 0x8000;
    acc.Add(0, c, generator::EvaluateCase(c), got);
  }
  const CheckReport r = acc.Finish();
  EXPECT_TRUE(r.passed());
  EXPECT_EQ(r.waived, 1U);
  std::ostringstream text;
  PrintReport(text, r, 5);
  const std::string t = text.str();
  EXPECT_NE(t.find("4 vectors: 3 matched, 1 waived, 0 mismatched"), std::string::npos) << t;
  EXPECT_NE(t.find("           1  ieee754/signed-zero: "), std::string::npos) << t;
  EXPECT_NE(t.find("(differs from the profile on 1 answered vectors)"), std::string::npos) << t;
  EXPECT_NE(t.find("  stale: ieee754/tininess-after-rounding never differs from the profile on "
                   "an answered vector"),
            std::string::npos)
      << t;
  EXPECT_NE(t.find("PASS with 1 mismatches waived by known differences (ieee754)"),
            std::string::npos)
      << t;
}

// A deviation that differs where the device kept the profile's answer is "not followed".
TEST(KnownDifferences, ReportNamesADeviationTheDeviceDoesNotFollow) {
  Judge judge;
  judge.known = LoadKnownDifferences({"ieee754"});
  CheckAccumulator acc(5, {}, judge);
  acc.BeginFile("f.bin", *generator::FindOp("encode"), {TileDataType::FP32, TileDataType::FP16}, 1);
  const Case c = EncodeFp32Fp16(0x7f7fffffU, NumericRoundingMode::RTZ);
  acc.Add(0, c, generator::EvaluateCase(c), DeviceAnswer{true, generator::EvaluateCase(c)});
  std::ostringstream text;
  PrintReport(text, acc.Finish(), 5);
  EXPECT_NE(text.str().find("  not followed: ieee754/ieee-overflow differs from the profile on 1 "
                            "answered vectors; the device gave another answer on every one"),
            std::string::npos)
      << text.str();
}

}  // namespace
}  // namespace ptovec::tools
