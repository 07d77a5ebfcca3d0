// The gate's judging of a real device (compare.hpp, known_differences.hpp): comparison policies,
// result classes and word differences, triage signatures, known-difference rules and the
// built-in sets, and how run, the reports and shrink honour them.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
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
            "input +normal; expected +inf OF|NX; got +largest OF|NX; word 1 code nearer zero; "
            "flags same");
  EXPECT_EQ(CheckSignatureText(*c.op,
                               "input  +normal; expected +inf OF|NX; got +largest OF|NX; "
                               "word 1 code nearer zero; flags same"),
            text);
  EXPECT_NE(ErrorOf([&] {
              CheckSignatureText(*c.op, "input +normal; expected +huge OF|NX");
            }).find("unknown result class '+huge'"),
            std::string::npos);
  // Flags masked by the policy: a words-only signature has none.
  const Signature words = SignatureOf(c, expected, got, ParseComparePolicy("word", ""));
  EXPECT_EQ(SignatureText(*c.op, words),
            "input +normal; expected +inf -; got +largest -; word 1 code nearer zero; flags same");
  // Unsupported answers: one group per pair.
  EXPECT_EQ(
      SignatureText(*c.op, SignatureOf(c, expected, DeviceAnswer{false, {}}, ComparePolicy{})),
      "got unsupported");
  EXPECT_EQ(CheckSignatureText(*c.op, "got unsupported"), "got unsupported");
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
            "pre_quant_mode 0; relu_mode 1; input +normal; expected +normal -; got -normal -; "
            "word sign; flags same");
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

TEST(KnownDifferences, BuiltinSetsLoadAndRulesExplainOnlyTheirShape) {
  const KnownDifferences ieee = LoadKnownDifferences({"ieee754"});
  ASSERT_EQ(ieee.sets, std::vector<std::string>{"ieee754"});
  EXPECT_EQ(ieee.rules.size(), 7U);
  EXPECT_EQ(LoadKnownDifferences({"riscv"}).rules.size(), 8U);
  Judge judge;
  judge.known = ieee;
  const Encoded inf{0x7c00, static_cast<Status>(kOF | kNX)};
  const DeviceAnswer largest{true, {0x7bff, static_cast<Status>(kOF | kNX)}};
  const auto verdict = [&](const Case& c, const Encoded& e, const DeviceAnswer& a) {
    std::size_t rule = kNoRule;
    const Verdict v = judge.Of(c, generator::InputClassOf(*c.op, c.pair, c.in), e, a, &rule);
    return std::make_pair(v, rule == kNoRule ? std::string() : judge.known.rules[rule].name);
  };
  // RTZ overflow to the largest finite: waived; the same answer under RNE is a bug.
  EXPECT_EQ(verdict(EncodeFp32Fp16(0x7f7fffff, NumericRoundingMode::RTZ), inf, largest),
            std::make_pair(Verdict::Waived, std::string("overflow-rtz-largest")));
  EXPECT_EQ(verdict(EncodeFp32Fp16(0x7f7fffff, NumericRoundingMode::RNE), inf, largest).first,
            Verdict::Mismatch);
  // RTM: only a positive value rounds toward zero; -largest for -Inf under RTM is a bug.
  EXPECT_EQ(verdict(EncodeFp32Fp16(0x7f7fffff, NumericRoundingMode::RTM), inf, largest).second,
            "overflow-rtm-positive-largest");
  const Encoded minus_inf{0xfc00, static_cast<Status>(kOF | kNX)};
  const DeviceAnswer minus_largest{true, {0xfbff, static_cast<Status>(kOF | kNX)}};
  EXPECT_EQ(
      verdict(EncodeFp32Fp16(0xff7fffff, NumericRoundingMode::RTM), minus_inf, minus_largest).first,
      Verdict::Mismatch);
  // Largest finite with OF missing is not "the same flags".
  const DeviceAnswer largest_nx{true, {0x7bff, kNX}};
  EXPECT_EQ(verdict(EncodeFp32Fp16(0x7f7fffff, NumericRoundingMode::RTZ), inf, largest_nx).first,
            Verdict::Mismatch);
  // -0 kept; UF missing on the smallest normal.
  EXPECT_EQ(verdict(EncodeFp32Fp16(0x80000000, NumericRoundingMode::RNE), Encoded{0x0000, 0},
                    DeviceAnswer{true, {0x8000, 0}})
                .second,
            "negative-zero-kept");
  EXPECT_EQ(
      verdict(EncodeFp32Fp16(0xb87ffffe, NumericRoundingMode::RTM),
              Encoded{0x8400, static_cast<Status>(kUF | kNX)}, DeviceAnswer{true, {0x8400, kNX}})
          .second,
      "tininess-after-rounding");
  // Under --compare word the flags condition holds on the compared bits only (none).
  judge.policy = ParseComparePolicy("word", "");
  EXPECT_EQ(verdict(EncodeFp32Fp16(0x7f7fffff, NumericRoundingMode::RTZ), inf,
                    DeviceAnswer{true, {0x7bff, 0}})
                .second,
            "overflow-rtz-largest");
}

// schemas/known-differences-format.md: a floating class without its sign in `got` takes "the
// sign of the expected word". ieee754/overflow-rtz-largest is {"expected": "inf", "got":
// "largest"}: +Inf expected, +largest waived, -largest (a sign flip as well as an overflow to
// the largest finite) not waived, and the same for -Inf expected; so is a sign-flipped Inf.
TEST(KnownDifferences, UnsignedGotClassTakesTheExpectedWordsSign) {
  Judge judge;
  judge.known = LoadKnownDifferences({"ieee754"});
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
            "--known-differences 'ieee' is not a built-in set (built in: ieee754, riscv; a file "
            "is named by a path with '/' or ending in .json)");
  EXPECT_NE(ErrorOf([] {
              LoadKnownDifferences({"ieee754", "ieee754"});
            }).find("already given"),
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
  ASSERT_EQ(r.groups.size(), 2U);
  const TriageGroup* nv_group = &r.groups[0];
  const TriageGroup* word_group = &r.groups[1];
  if (nv_group->signature.word != WordDifference::Same) std::swap(nv_group, word_group);
  EXPECT_EQ(nv_group->count, 430080U);
  EXPECT_EQ(SignatureText(*nv_group->op, nv_group->signature),
            "input -normal; expected nan NV; got nan -; word same; flags -NV");
  ASSERT_NE(word_group, nullptr);
  EXPECT_EQ(word_group->count, 4U);
  EXPECT_EQ(SignatureText(*word_group->op, word_group->signature),
            "input +normal; expected +normal -; got +normal -; word 1 code farther from zero; "
            "flags same");
  std::ostringstream text;
  PrintReport(text, r, 1);
  EXPECT_NE(text.str().find("           4  tcvt fp16 -> e8m0: input +normal; expected +normal -; "
                            "got +normal -; word 1 code farther from zero; flags same\n"
                            "                under RTM off, RTM on, RTZ off, RTZ on;"),
            std::string::npos)
      << text.str();
  // Shrunk apart: the word group reaches 1.0 under RTM, Sat off; the NX group its own case.
  Judge judge;
  judge.signature = SignatureText(*word_group->op, word_group->signature);
  const ShrinkResult word = ShrinkFrom(device, word_group->first.c, 100000, judge);
  ASSERT_TRUE(word.minimal);
  EXPECT_EQ(word.minimal->c.in[0], 0x3c00U);
  EXPECT_EQ(word.minimal->c.control.rounding_mode, NumericRoundingMode::RTM);
  EXPECT_FALSE(word.minimal->c.control.saturating);
  judge.signature = SignatureText(*nv_group->op, nv_group->signature);
  const ShrinkResult nv = ShrinkFrom(device, nv_group->first.c, 100000, judge);
  ASSERT_TRUE(nv.minimal);
  EXPECT_EQ(nv.minimal->c.in[0], 0xbc00U);  // -1.0, RNE, Sat off
  EXPECT_EQ(nv.minimal->c.control.rounding_mode, NumericRoundingMode::RNE);
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

// The report lists a rule that covers vectors but explains none as stale, and counts each rule.
TEST(KnownDifferences, ReportCountsRulesAndListsStaleOnes) {
  Judge judge;
  judge.known = LoadKnownDifferences({"ieee754"});
  const generator::OpDef& encode = *generator::FindOp("encode");
  // -0 kept (waived), 1.0 and the largest FP32 right: three vectors under RNE.
  CheckAccumulator acc(5, {}, judge);
  acc.BeginFile("encode_fp32_fp16.bin", encode, {TileDataType::FP32, TileDataType::FP16}, 3);
  for (const oracle::Word w : {0x80000000U, 0x3f800000U, 0x7f7fffffU}) {
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
  EXPECT_NE(t.find("3 vectors: 2 matched, 1 waived, 0 mismatched"), std::string::npos) << t;
  EXPECT_NE(t.find("           1  ieee754/negative-zero-kept: "), std::string::npos) << t;
  EXPECT_NE(t.find("  stale rule: ieee754/tininess-after-rounding (covers 3 vectors of this run, "
                   "explains none)"),
            std::string::npos)
      << t;
  EXPECT_NE(t.find("PASS with 1 mismatches waived by known differences (ieee754)"),
            std::string::npos)
      << t;
}

}  // namespace
}  // namespace ptovec::tools
