// ptovec shrink: the RapidCheck property "device equals oracle" finds and shrinks faults of
// in-test devices (the oracle with one fault) to specific counterexamples whose every shrink
// candidate passes; the oracle itself passes; runs are deterministic; the one-vector file reads
// back; the registry's input spaces stay inside each op's domain.
#include "ptovec/tools/shrink.hpp"

#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <functional>
#include <sstream>

#include "ptovec/generator/domains.hpp"
#include "ptovec/generator/readers.hpp"

namespace ptovec::tools {
namespace {

using generator::FindOp;
using generator::Inputs;
using generator::Word;
using oracle::NumericRoundingMode;
using T = oracle::TileDataType;

// The oracle as a device, with an optional fault: the fault may rewrite the case the oracle
// evaluates (`twist`) before evaluation.
class FaultyOracle : public Device {
 public:
  explicit FaultyOracle(std::function<void(Case&)> twist = {}) : twist_(std::move(twist)) {}
  const std::string& Name() const override { return name_; }
  void Evaluate(std::span<const Case> cases, std::span<DeviceAnswer> answers) override {
    for (std::size_t i = 0; i < cases.size(); ++i) {
      Case c = cases[i];
      if (twist_) twist_(c);
      ++calls;
      answers[i].supported = true;
      answers[i].result = generator::EvaluateCase(c);
    }
  }
  std::uint64_t calls = 0;

 private:
  std::function<void(Case&)> twist_;
  std::string name_ = "faulty-oracle";
};

// E8M0 always rounding up: RTP whatever the mode.
void AlwaysUp(Case& c) { c.control.rounding_mode = NumericRoundingMode::RTP; }

// RNA where the case asks for RNE.
void RnaForRne(Case& c) {
  if (c.control.rounding_mode == NumericRoundingMode::RNE) {
    c.control.rounding_mode = NumericRoundingMode::RNA;
  }
}

// Sat ignored.
void SatIgnored(Case& c) { c.control.saturating = false; }

ShrinkResult RunProperty(Device& device, const char* op, T src, T dst, std::uint64_t seed,
                         std::uint64_t tests = 10000) {
  ShrinkOptions options;
  options.op = FindOp(op);
  options.pair = generator::TypePair{src, dst};
  options.seed = seed;
  options.tests = tests;
  return ShrinkProperty(device, options);
}

std::string Report(const ShrinkResult& r) {
  std::ostringstream out;
  PrintShrinkResult(out, r);
  return out.str();
}

// Every shrink candidate of the counterexample agrees with the oracle (checked afresh here, not
// by the shrinker's own bookkeeping); returns how many there are.
std::size_t ExpectAllCandidatesPass(Device& device, const Case& c) {
  std::vector<Case> candidates;
  auto seq = ShrinkableCase(c).shrinks();
  while (auto s = seq.next()) candidates.push_back(s->value());
  const auto judged = JudgeCases(device, candidates);
  for (std::size_t i = 0; i < judged.size(); ++i) {
    EXPECT_FALSE(judged[i].has_value())
        << "candidate " << generator::EvalCommand(candidates[i]) << " still fails";
  }
  return candidates.size();
}

TEST(ShrinkWord, Fp16CandidatesStartWithZeroThenThePositiveWord) {
  const std::vector<oracle::Word> w = generator::ShrinkWord(T::FP16, 0xBC00);  // -1.0
  ASSERT_GE(w.size(), 3u);
  EXPECT_EQ(w[0], 0x0000u);
  EXPECT_EQ(w[1], 0x3C00u);  // +1.0
  EXPECT_EQ(w[2], 0x8000u);  // -0: the magnitude toward 0, sign kept
  // The exponent toward 0 with the fraction kept appears (0x3c00 -> exponent field 0: -0 again,
  // so look at a word with a fraction): -1.5 = 0xbe00 offers 0x8200 (-(0x200 subnormal)).
  const std::vector<oracle::Word> v = generator::ShrinkWord(T::FP16, 0xBE00);
  EXPECT_NE(std::find(v.begin(), v.end(), 0x8200u), v.end());
  EXPECT_NE(std::find(v.begin(), v.end(), 0xBC00u), v.end());  // fraction toward 0: -1.0
  EXPECT_EQ(std::find(v.begin(), v.end(), 0xBE00u), v.end());  // never the word itself
}

TEST(ShrinkWord, SignedIntegersShrinkTowardZeroAtTheirWidth) {
  const std::vector<oracle::Word> w = generator::ShrinkWord(T::S8, 0x82);  // -126
  ASSERT_GE(w.size(), 2u);
  EXPECT_EQ(w[0], 0x00u);
  EXPECT_EQ(w[1], 0x7Eu);  // +126
  for (oracle::Word x : w) EXPECT_LE(x, 0xFFu);
}

TEST(InputSpace, EveryDrawAndEveryShrinkCandidateIsInsideTheDomain) {
  for (const generator::OpDef& op : generator::AllOps()) {
    ASSERT_TRUE(op.input_space) << op.name;
    for (const generator::TypePair pair : {op.legal_pairs.front(), op.legal_pairs.back()}) {
      const rc::Gen<Inputs> gen = op.input_space(pair);
      rc::Random random(7);
      std::size_t distinct = 0;
      Inputs previous{};
      for (int i = 0; i < 200; ++i) {
        const rc::Shrinkable<Inputs> s = gen(random.split(), rc::kNominalSize);
        const Inputs v = s.value();
        EXPECT_FALSE(op.check_domain(pair, v)) << op.name;
        distinct += v != previous;
        previous = v;
        if (i % 20 == 0) {
          auto seq = s.shrinks();
          while (auto c = seq.next()) {
            EXPECT_FALSE(op.check_domain(pair, c->value())) << op.name;
          }
        }
      }
      EXPECT_GT(distinct, 100u) << op.name << ": the input space hardly varies";
    }
  }
}

TEST(InputSpace, InterestingE4M3CodesAreClassEndsAndOne) {
  // Zeros, subnormal ends (0x01, 0x07), normal ends (0x08, 0x7e), the NaN 0x7f, 1.0 (0x38); and
  // the same with the sign set.
  const std::vector<oracle::Word> expected = {0x00, 0x01, 0x07, 0x08, 0x38, 0x7E, 0x7F,
                                              0x80, 0x81, 0x87, 0x88, 0xB8, 0xFE, 0xFF};
  EXPECT_EQ(generator::InterestingCodes(T::E4M3), expected);
  EXPECT_EQ(generator::InterestingCodes(T::S8),
            (std::vector<oracle::Word>{0x00, 0x01, 0x7F, 0x80, 0xFF}));
  EXPECT_THROW(generator::InterestingCodes(T::FP32), std::invalid_argument);
}

TEST(InputSpace, AffineShrinksOffsetBeforeWidthSoBothReachZero) {
  const generator::OpDef& op = *FindOp("affine");
  const generator::TypePair pair{T::FP32, T::S8};
  // width 9, offset 5: width 0 alone is outside the domain (offset must be 0 there).
  const Inputs in{0x3F800000, 0x1FC00, 5, 9};
  std::vector<Inputs> c;
  auto seq = generator::ShrinkInputs(op, pair, in);
  while (auto x = seq.next()) c.push_back(*x);
  EXPECT_EQ(std::find(c.begin(), c.end(), Inputs{0x3F800000, 0x1FC00, 5, 0}), c.end());
  EXPECT_NE(std::find(c.begin(), c.end(), Inputs{0x3F800000, 0x1FC00, 0, 9}), c.end());
  EXPECT_EQ(std::find(c.begin(), c.end(), Inputs{0x3F800000, 0x1FC00, 0, 0}), c.end())
      << "a shrink changes one word at a time";
}

TEST(ShrinkProperty, OracleDevicePassesEveryTest) {
  FaultyOracle oracle_device;
  for (const char* op : {"tcvt", "tquant", "affine"}) {
    ShrinkOptions options;
    options.op = FindOp(op);
    options.seed = 3;
    options.tests = 1000;
    const ShrinkResult r = ShrinkProperty(oracle_device, options);
    EXPECT_FALSE(r.failed) << op;
    EXPECT_EQ(r.tests, 1000u) << op;
    EXPECT_FALSE(r.minimal.has_value());
    EXPECT_EQ(Report(r), "all 1000 tests passed\n");
  }
}

TEST(ShrinkProperty, AlwaysRoundingUpInTcvtToE8M0) {
  FaultyOracle device(AlwaysUp);
  const ShrinkResult r = RunProperty(device, "tcvt", T::FP32, T::E8M0, 1);
  ASSERT_TRUE(r.failed);
  ASSERT_TRUE(r.minimal.has_value());
  const Counterexample& cx = *r.minimal;
  // 0x00400001 = 2^-127 + 2^-149, the smallest FP32 word above E8M0's smallest value 2^-127:
  // RNE gives 0x00 (2^-127) inexact, rounding up 0x01 (2^-126). Every smaller word is at most
  // 2^-127, where both give 0x00, so no smaller counterexample exists at all.
  EXPECT_EQ(cx.c.in[0], 0x00400001u);
  EXPECT_EQ(cx.c.control.rounding_mode, NumericRoundingMode::RNE);
  EXPECT_FALSE(cx.c.control.saturating);
  EXPECT_EQ(cx.expected.word, 0x00u);
  EXPECT_EQ(cx.expected.status, 0x10u);
  EXPECT_EQ(cx.got.result.word, 0x01u);
  EXPECT_EQ(cx.got.result.status, 0x10u);
  EXPECT_EQ(r.tests, 1u);
  EXPECT_TRUE(r.local_minimum);
  EXPECT_EQ(ExpectAllCandidatesPass(device, cx.c), r.minimal_candidates);
  EXPECT_GT(r.minimal_candidates, 10u);
  const std::string text = Report(r);
  EXPECT_NE(text.find("  value:    0x00400001\n"), std::string::npos) << text;
  EXPECT_NE(text.find("  eval:     ptovec eval --op tcvt --src fp32 --dst e8m0 --rmode RNE "
                      "0x00400001\n"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("local minimum: yes (" + std::to_string(r.minimal_candidates) +
                      " shrink candidates checked, none fails)\n"),
            std::string::npos)
      << text;
}

TEST(ShrinkProperty, RnaForRneInEncodeToFp16) {
  FaultyOracle device(RnaForRne);
  const ShrinkResult r = RunProperty(device, "encode", T::FP32, T::FP16, 1);
  ASSERT_TRUE(r.failed);
  const Counterexample& cx = *r.minimal;
  // 0x38801000 = 2^-14 * (1 + 2^-11): the tie between FP16's smallest normal 0x0400 and 0x0401.
  // Its candidates all pass: any fraction bit cleared or the fraction reduced makes it exact or
  // below the tie, a smaller exponent with this fraction is a quarter of a subnormal ulp off a
  // tie, smaller magnitudes are not ties. (The subnormal tie 0x33000000 is a smaller word, but no
  // path of one-word shrinks through failing cases leads there: the minimum is local.)
  EXPECT_EQ(cx.c.in[0], 0x38801000u);
  EXPECT_EQ(cx.c.control.rounding_mode, NumericRoundingMode::RNE);
  EXPECT_FALSE(cx.c.control.saturating);
  EXPECT_EQ(cx.expected.word, 0x0400u);
  EXPECT_EQ(cx.got.result.word, 0x0401u);
  EXPECT_EQ(cx.expected.status, 0x10u);
  EXPECT_TRUE(r.local_minimum);
  EXPECT_EQ(ExpectAllCandidatesPass(device, cx.c), r.minimal_candidates);
}

TEST(ShrinkProperty, SatIgnoredInEncodeToE4M3) {
  FaultyOracle device(SatIgnored);
  const ShrinkResult r = RunProperty(device, "encode", T::FP32, T::E4M3, 1);
  ASSERT_TRUE(r.failed);
  const Counterexample& cx = *r.minimal;
  // 0x43e00001: the smallest FP32 above E4M3's largest finite 448 (0x43e00000, which passes).
  // Sat on clamps to 0x7e; Sat ignored gives the NaN 0x7f. Sat must stay on, RNE is the first mode.
  EXPECT_EQ(cx.c.in[0], 0x43E00001u);
  EXPECT_EQ(cx.c.control.rounding_mode, NumericRoundingMode::RNE);
  EXPECT_TRUE(cx.c.control.saturating);
  EXPECT_EQ(cx.expected.word, 0x7Eu);
  EXPECT_EQ(cx.expected.status, 0x14u);
  EXPECT_EQ(cx.got.result.word, 0x7Fu);
  EXPECT_TRUE(r.local_minimum);
  EXPECT_EQ(ExpectAllCandidatesPass(device, cx.c), r.minimal_candidates);
}

TEST(ShrinkProperty, SameSeedSameRunAnotherSeedItsOwn) {
  const auto rtz_under_sat = [](Case& c) {
    if (c.control.saturating) c.control.rounding_mode = NumericRoundingMode::RTZ;
  };
  FaultyOracle a(rtz_under_sat);
  FaultyOracle b(rtz_under_sat);
  const ShrinkResult ra = RunProperty(a, "tquant", T::FP32, T::U8, 1);
  const ShrinkResult rb = RunProperty(b, "tquant", T::FP32, T::U8, 1);
  ASSERT_TRUE(ra.failed && rb.failed);
  EXPECT_EQ(Report(ra), Report(rb));
  EXPECT_EQ(CounterexampleJson(*ra.original).dump(), CounterexampleJson(*rb.original).dump());
  EXPECT_EQ(ra.tests, rb.tests);
  EXPECT_EQ(ra.shrink_steps, rb.shrink_steps);
  EXPECT_EQ(a.calls, b.calls);
  FaultyOracle c(rtz_under_sat);
  const ShrinkResult other = RunProperty(c, "tquant", T::FP32, T::U8, 2);
  ASSERT_TRUE(other.failed);
  EXPECT_NE(CounterexampleJson(*other.original).dump(), CounterexampleJson(*ra.original).dump());
}

TEST(ShrinkProperty, AControlFilterDrawsAndShrinksWithinIt) {
  // Rounds up only under RTZ: a filter without RTZ finds nothing; one with RTZ and RTP finds it
  // and shrinks within the filter (RTZ, Sat off), never to RNE.
  const auto up_under_rtz = [](Case& c) {
    if (c.control.rounding_mode == NumericRoundingMode::RTZ) {
      c.control.rounding_mode = NumericRoundingMode::RTP;
    }
  };
  FaultyOracle device(up_under_rtz);
  ShrinkOptions options;
  options.op = FindOp("tcvt");
  options.pair = generator::TypePair{T::FP16, T::E8M0};
  options.tests = 3000;
  options.controls = generator::ParseControlFilter("RNE,RTP", "both");
  EXPECT_FALSE(ShrinkProperty(device, options).failed);
  options.controls = generator::ParseControlFilter("RTP,RTZ", "off");
  const ShrinkResult r = ShrinkProperty(device, options);
  ASSERT_TRUE(r.failed);
  EXPECT_EQ(r.minimal->c.control.rounding_mode, NumericRoundingMode::RTZ);
  EXPECT_FALSE(r.minimal->c.control.saturating);
  // The shrunk input is one where RTZ and RTP differ (a value that is not a power of two).
  Case rtp = r.minimal->c;
  rtp.control.rounding_mode = NumericRoundingMode::RTP;
  EXPECT_NE(generator::EvaluateCase(r.minimal->c), generator::EvaluateCase(rtp));
  EXPECT_TRUE(r.local_minimum);
  EXPECT_GT(r.minimal_candidates, 0u);
}

TEST(ShrinkProperty, AnyPairShrinksTowardTheFirstLegalPair) {
  FaultyOracle device(AlwaysUp);
  ShrinkOptions options;
  options.op = FindOp("tcvt");
  options.seed = 1;
  options.tests = 2000;
  const ShrinkResult r = ShrinkProperty(device, options);
  ASSERT_TRUE(r.failed);
  EXPECT_TRUE(r.local_minimum);
  // The pair index shrinks toward the first legal pair (RapidCheck re-draws the inputs for each
  // smaller pair it tries, so the pair reached depends on the draw): never later than the
  // original's, and one where a mode fault can show (the pairs to other types copy raw words).
  // Within it the first input is the smallest failing word: every smaller word agrees.
  const Case& c = r.minimal->c;
  const auto& pairs = FindOp("tcvt")->legal_pairs;
  const auto index_of = [&](generator::TypePair p) {
    return std::find(pairs.begin(), pairs.end(), p) - pairs.begin();
  };
  EXPECT_LE(index_of(c.pair), index_of(r.original->c.pair));
  EXPECT_EQ(c.pair.dst, T::E8M0);
  EXPECT_EQ(c.control.rounding_mode, NumericRoundingMode::RNE);
  EXPECT_FALSE(c.control.saturating);
  ASSERT_LT(c.in[0], Word{1} << 23);
  for (Word w = 0; w < c.in[0]; ++w) {
    Case smaller = c;
    smaller.in[0] = w;
    Case twisted = smaller;
    AlwaysUp(twisted);
    ASSERT_EQ(generator::EvaluateCase(smaller), generator::EvaluateCase(twisted)) << w;
  }
  Case twisted = c;
  AlwaysUp(twisted);
  EXPECT_NE(generator::EvaluateCase(c), generator::EvaluateCase(twisted));
  EXPECT_EQ(ExpectAllCandidatesPass(device, c), r.minimal_candidates);
}

TEST(ShrinkFrom, DescendsFromAGivenCaseAndTurnsSatOff) {
  FaultyOracle device(RnaForRne);
  Case start;
  start.op = FindOp("encode");
  start.pair = {T::FP32, T::FP16};
  start.control = {NumericRoundingMode::RNE, true};
  start.in = {0xBF801000, 0, 0, 0};  // -(1 + 2^-11): the tie between -1.0 and its neighbour
  const ShrinkResult r = ShrinkFrom(device, start);
  ASSERT_TRUE(r.failed);
  EXPECT_EQ(r.original->c.in[0], 0xBF801000u);
  // The sign goes first, then the exponent toward FP16's smallest normal binade, keeping the tie
  // bit: the same local minimum the property reaches.
  EXPECT_EQ(r.minimal->c.in[0], 0x38801000u);
  EXPECT_FALSE(r.minimal->c.control.saturating);
  EXPECT_EQ(r.minimal->c.control.rounding_mode, NumericRoundingMode::RNE);
  EXPECT_TRUE(r.local_minimum);
  EXPECT_EQ(ExpectAllCandidatesPass(device, r.minimal->c), r.minimal_candidates);

  Case passing = start;
  passing.in[0] = 0x3F800000;  // 1.0 is exact: RNA and RNE agree
  const ShrinkResult none = ShrinkFrom(device, passing);
  EXPECT_FALSE(none.failed);
  EXPECT_FALSE(none.minimal.has_value());
}

// A device that gets tcvt fp32 -> e8m0 wrong (rounding up) only on its first `wrong` answers
// for the word 0x00400001, then right: a flaky device.
class FlakyDevice : public Device {
 public:
  explicit FlakyDevice(int wrong) : wrong_(wrong) {}
  const std::string& Name() const override { return name_; }
  void Evaluate(std::span<const Case> cases, std::span<DeviceAnswer> answers) override {
    for (std::size_t i = 0; i < cases.size(); ++i) {
      Case c = cases[i];
      if (c.in[0] == 0x00400001u && wrong_-- > 0) AlwaysUp(c);
      answers[i].supported = true;
      answers[i].result = generator::EvaluateCase(c);
    }
  }

 private:
  int wrong_;
  std::string name_ = "flaky";
};

TEST(ShrinkFrom, ANonDeterministicDeviceIsAnErrorNotACounterexample) {
  Case start;
  start.op = FindOp("tcvt");
  start.pair = {T::FP32, T::E8M0};
  start.in = {0x00400001, 0, 0, 0};
  // Wrong on the first look only: the confirmation sees the right answer.
  FlakyDevice once(1);
  try {
    ShrinkFrom(once, start);
    ADD_FAILURE() << "no DeviceError";
  } catch (const DeviceError& e) {
    EXPECT_STREQ(e.what(),
                 "device is not deterministic: case ptovec eval --op tcvt --src fp32 --dst e8m0 "
                 "--rmode RNE 0x00400001 gave 0x01 flags 0x10 (NX) then 0x00 flags 0x10 (NX) "
                 "(correct)");
  }
  // Wrong twice: the second confirmation differs.
  FlakyDevice twice(2);
  EXPECT_THROW(ShrinkFrom(twice, start), DeviceError);
  // Wrong every time (three looks: the find and two confirmations): a counterexample.
  FlakyDevice always(3);
  const ShrinkResult r = ShrinkFrom(always, start);
  EXPECT_TRUE(r.failed);
  EXPECT_EQ(r.minimal->c.in[0], 0x00400001u);
}

TEST(ShrinkFrom, OracleRejectedCandidatesAreNeverReported) {
  // A device that answers garbage outside the domain too: shrinking tquant must still only ever
  // report cases with a legal scale (positive finite non-zero).
  FaultyOracle device([](Case& c) {
    if (c.control.saturating) c.control.rounding_mode = NumericRoundingMode::RTZ;
  });
  const ShrinkResult r = RunProperty(device, "tquant", T::FP32, T::S8, 5, 5000);
  ASSERT_TRUE(r.failed);
  EXPECT_TRUE(r.local_minimum);
  EXPECT_FALSE(FindOp("tquant")->check_domain(r.minimal->c.pair, r.minimal->c.in));
  // -2^-149 * 2^-149 + 1 = 1 - 2^-298: RNE gives 1, RTZ 0. Every word is at or next to its
  // simplest: value the smallest negative subnormal (+0 or -0 would be exact), the smallest scale,
  // zero point 1 (0 gives -2^-298: RNE and RTZ both 0).
  const Case& c = r.minimal->c;
  EXPECT_EQ(c.in[0], 0x80000001u);
  EXPECT_EQ(c.in[1], 0x00000001u);
  EXPECT_EQ(c.in[2], 0x01u);
  EXPECT_EQ(c.control.rounding_mode, NumericRoundingMode::RNE);
  EXPECT_TRUE(c.control.saturating);
  EXPECT_EQ(r.minimal->expected.word, 0x01u);
  EXPECT_EQ(r.minimal->got.result.word, 0x00u);
  EXPECT_EQ(ExpectAllCandidatesPass(device, c), r.minimal_candidates);
}

TEST(CounterexampleFile, OneVectorReadsBackInBothFormats) {
  FaultyOracle device(SatIgnored);
  const ShrinkResult r = RunProperty(device, "encode", T::FP32, T::E4M3, 1);
  ASSERT_TRUE(r.failed);
  const std::filesystem::path dir =
      std::filesystem::temp_directory_path() / ("ptovec-shrink-test-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  for (const bool json : {false, true}) {
    const std::string name = DefaultCounterexampleFileName(r.minimal->c, json);
    EXPECT_EQ(name, json ? "shrunk-encode-fp32-e4m3.json" : "shrunk-encode-fp32-e4m3.bin");
    WriteCounterexampleFile(dir / name, *r.minimal, json, 1);
    generator::VectorReader reader(dir / name);
    EXPECT_EQ(reader.info().count, 1u);
    std::vector<generator::VectorRecord> records;
    ASSERT_EQ(reader.Read(records, 10), 1u);
    EXPECT_EQ(reader.Read(records, 10), 0u);
    EXPECT_TRUE(reader.done());
    const generator::VectorRecord& v = records.front();
    EXPECT_EQ(v.c.op, FindOp("encode"));
    EXPECT_EQ(v.c.in[0], 0x43E00001u);
    EXPECT_EQ(v.c.control.rounding_mode, NumericRoundingMode::RNE);
    EXPECT_TRUE(v.c.control.saturating);
    EXPECT_EQ(v.expected.word, 0x7Eu);
    EXPECT_EQ(v.expected.status, 0x14u);
  }
  std::size_t leftovers = 0;
  for (const auto& e : std::filesystem::directory_iterator(dir)) {
    leftovers += e.path().filename().string().find(".tmp") != std::string::npos;
  }
  EXPECT_EQ(leftovers, 0u);
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace ptovec::tools
