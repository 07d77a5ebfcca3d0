// ptovec shrink: the property "device equals oracle" finds faults of in-test devices (the oracle
// with one fault): an enumerable pair gives exactly its least failing case in the simplest-case
// order (checked against every case of the pair), a sampled one a specific counterexample none of
// whose simpler moves fails; the oracle itself passes; runs are deterministic; the one-vector
// file reads back; the registry's input spaces stay inside each op's domain.
#include "ptovec/tools/shrink.hpp"

#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <functional>
#include <sstream>
#include <tuple>

#include "mutants.hpp"
#include "ptovec/generator/domains.hpp"
#include "ptovec/generator/readers.hpp"

namespace ptovec::tools {
namespace shrink_test {
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

// Every simpler move of the counterexample (SimplerMoves: where the descent ends) agrees with the
// oracle (checked afresh here, not by the shrinker's own bookkeeping); returns how many there
// are.
std::size_t ExpectAllCandidatesPass(Device& device, const Case& c) {
  const std::vector<Case> candidates = SimplerMoves(c);
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
  // Sampled: --tests cases of the op's sampled pairs.
  for (const char* op : {"tquant", "affine"}) {
    ShrinkOptions options;
    options.op = FindOp(op);
    options.seed = 3;
    options.tests = 1000;
    const ShrinkResult r = ShrinkProperty(oracle_device, options);
    EXPECT_FALSE(r.failed) << op;
    EXPECT_EQ(r.tests, 1000u) << op;
    EXPECT_FALSE(r.minimal.has_value());
    ASSERT_EQ(r.search.size(), 1u);
    EXPECT_FALSE(r.search[0].enumerated);
    EXPECT_EQ(Report(r), "sampled 1,000 cases of " + std::string(op) + " (" +
                             std::to_string(FindOp(op)->legal_pairs.size()) +
                             " sampled pairs) with the default suite's strategies (seed 3): none "
                             "fails\nall 1000 tests passed\n");
  }
  // Enumerated: every case of an 8-bit source whatever --tests says.
  ShrinkOptions options;
  options.op = FindOp("encode");
  options.pair = generator::TypePair{T::E4M3, T::HiF8};
  options.tests = 10;
  const ShrinkResult r = ShrinkProperty(oracle_device, options);
  EXPECT_FALSE(r.failed);
  EXPECT_EQ(r.tests, 254u * 14u);  // E4M3's two NaN codes are outside encode's domain
  EXPECT_EQ(oracle_device.calls, 2000u + 254u * 14u);  // after the two sampled runs above
  EXPECT_EQ(Report(r),
            "enumerated all 3,556 cases of encode e4m3 -> hif8: none fails\n"
            "all 3556 tests passed\n");
}

TEST(ShrinkProperty, AlwaysRoundingUpInTcvtToE8M0) {
  FaultyOracle device(AlwaysUp);
  const ShrinkResult r = RunProperty(device, "tcvt", T::FP32, T::E8M0, 1);
  ASSERT_TRUE(r.failed);
  ASSERT_TRUE(r.minimal.has_value());
  const Counterexample& cx = *r.minimal;
  // The 7th case drawn from the strategies (the first six round exactly or already up) fails;
  // the shrink tree and the moves toward the simplest case then reach 1.5 = 0x3fc00000 under RTM (2
  // significant bits, exponent 0): RTM gives 2^0, rounding up 2^1. A value of one significant bit
  // is a power of two (exact in every mode), and 1.5 is the two-bit value nearest 2^0; RNE rounds
  // it up too (it is above sqrt(2)), so the mode is the first after RNE.
  EXPECT_EQ(cx.c.in[0], 0x3FC00000u);
  EXPECT_EQ(cx.c.control.rounding_mode, NumericRoundingMode::RTM);
  EXPECT_FALSE(cx.c.control.saturating);
  EXPECT_EQ(cx.expected.word, 0x7Fu);
  EXPECT_EQ(cx.expected.status, 0x10u);
  EXPECT_EQ(cx.got.result.word, 0x80u);
  EXPECT_EQ(cx.got.result.status, 0x10u);
  EXPECT_EQ(r.tests, 7u);
  EXPECT_GT(r.shrink_steps, 0u);
  EXPECT_GT(r.order_steps, 0u);
  EXPECT_TRUE(r.local_minimum);
  EXPECT_FALSE(r.simplest);
  EXPECT_EQ(ExpectAllCandidatesPass(device, cx.c), r.minimal_candidates);
  EXPECT_GT(r.minimal_candidates, 10u);
  const std::string text = Report(r);
  EXPECT_NE(text.find("sampled 7 cases of tcvt fp32 -> e8m0 with the default suite's strategies "
                      "(seed 1): one fails\n"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("  value:    0x3fc00000\n"), std::string::npos) << text;
  EXPECT_NE(text.find("  eval:     ptovec eval --op tcvt --src fp32 --dst e8m0 --rmode RTM "
                      "0x3fc00000\n"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("minimised in the order: fewest non-zero inputs, fewest significant bits, "
                      "exponent nearest 0, RNE, Sat off\n"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("local minimum: yes (" + std::to_string(r.minimal_candidates) +
                      " simpler moves checked, none fails)\n"),
            std::string::npos)
      << text;
}

TEST(ShrinkProperty, RnaForRneInEncodeToFp16) {
  FaultyOracle device(RnaForRne);
  const ShrinkResult r = RunProperty(device, "encode", T::FP32, T::FP16, 1);
  ASSERT_TRUE(r.failed);
  const Counterexample& cx = *r.minimal;
  // The shrink tree stops at 0x38801000 = 2^-14 * (1 + 2^-11), the tie between FP16's smallest
  // normal 0x0400 and 0x0401 (12 significant bits). The moves that keep the tie pattern jump to
  // 0x33000000 = 2^-25, the tie between 0 and the smallest subnormal 2^-24: one significant bit,
  // the fewest a tie can have (RNE gives 0 with UF|NX, RNA 0x0001).
  EXPECT_EQ(cx.c.in[0], 0x33000000u);
  EXPECT_EQ(cx.c.control.rounding_mode, NumericRoundingMode::RNE);
  EXPECT_FALSE(cx.c.control.saturating);
  EXPECT_EQ(cx.expected.word, 0x0000u);
  EXPECT_EQ(cx.got.result.word, 0x0001u);
  EXPECT_EQ(cx.expected.status, 0x18u);
  EXPECT_TRUE(r.local_minimum);
  EXPECT_EQ(ExpectAllCandidatesPass(device, cx.c), r.minimal_candidates);
}

TEST(ShrinkProperty, SatIgnoredInEncodeToE4M3) {
  FaultyOracle device(SatIgnored);
  const ShrinkResult r = RunProperty(device, "encode", T::FP32, T::E4M3, 1);
  ASSERT_TRUE(r.failed);
  const Counterexample& cx = *r.minimal;
  // 0x44000000 = 512: the simplest value above E4M3's overflow threshold 464 (one significant
  // bit; 448 and everything below it pass). Sat on clamps to 0x7e; Sat ignored gives the NaN
  // 0x7f. Sat must stay on, RNE is the first mode.
  EXPECT_EQ(cx.c.in[0], 0x44000000u);
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
  // fp16 -> e8m0 is enumerated: the least failing case of the pair under the filter.
  EXPECT_TRUE(r.simplest);
  ASSERT_EQ(r.search.size(), 1u);
  EXPECT_TRUE(r.search[0].enumerated);
  EXPECT_EQ(r.search[0].cases, 65536u * 2u);
  // fp32 -> e8m0 is sampled: the moves toward the simplest case stay inside the filter too
  // (never RNE, which is simpler but not selected).
  options.pair = generator::TypePair{T::FP32, T::E8M0};
  const ShrinkResult sampled = ShrinkProperty(device, options);
  ASSERT_TRUE(sampled.failed);
  EXPECT_FALSE(sampled.simplest);
  EXPECT_EQ(sampled.minimal->c.control.rounding_mode, NumericRoundingMode::RTZ);
  EXPECT_FALSE(sampled.minimal->c.control.saturating);
  for (const Case& k : SimplerMoves(sampled.minimal->c, options.controls)) {
    EXPECT_TRUE(options.controls.Accepts(k.control)) << generator::EvalCommand(k);
  }
  // 1.5: RTZ 2^0, RTP 2^1 (one significant bit would be exact).
  EXPECT_EQ(sampled.minimal->c.in[0], 0x3FC00000u);
}

TEST(ShrinkProperty, AnyPairEnumeratesPairsInOrderAndStopsAtTheFirstFailingOne) {
  FaultyOracle device(AlwaysUp);
  ShrinkOptions options;
  options.op = FindOp("tcvt");
  options.seed = 1;
  options.tests = 2000;
  options.controls = generator::ParseControlFilter("RNE,RTM", "off");
  const ShrinkResult r = ShrinkProperty(device, options);
  ASSERT_TRUE(r.failed);
  EXPECT_TRUE(r.simplest);
  // tcvt's pairs to types other than E8M0 copy the word (no rounding): the first enumerable pair
  // where rounding up shows is fp16 -> e8m0, every pair before it enumerated and passing.
  const Case& c = r.minimal->c;
  EXPECT_EQ(c.pair, (generator::TypePair{T::FP16, T::E8M0}));
  ASSERT_GE(r.search.size(), 2u);
  for (std::size_t i = 0; i + 1 < r.search.size(); ++i) {
    EXPECT_TRUE(r.search[i].enumerated);
    EXPECT_EQ(r.search[i].failing, 0u);
  }
  EXPECT_EQ(r.search.back().pair, c.pair);
  // 1.5 (0x3e00, two significant bits, exponent 0) under RTM: 2^0, rounding up 2^1. Simpler
  // values are powers of two (exact) or +/-0.
  EXPECT_EQ(c.in[0], 0x3E00u);
  EXPECT_EQ(c.control.rounding_mode, NumericRoundingMode::RTM);
  EXPECT_EQ(r.minimal->expected.word, 0x7Fu);
  EXPECT_EQ(r.minimal->got.result.word, 0x80u);
  // The first failing case in the suite's order is not the simplest.
  EXPECT_NE(r.original->c.in, c.in);
  // The passing pairs before it are one line.
  const std::vector<std::string> lines = SearchLines(r);
  ASSERT_EQ(lines.size(), 2u);
  EXPECT_EQ(lines[0],
            "enumerated all 655,360 cases of 5 pairs of tcvt (fp16 -> fp32 .. fp16 -> e4m3): none "
            "fails");
  EXPECT_EQ(lines[1].rfind("enumerated all 131,072 cases of tcvt fp16 -> e8m0: ", 0), 0u)
      << lines[1];
}

// The enumerated result is the least failing case under the order: checked against every case
// of the pair here, independently of the shrinker.
TEST(ShrinkProperty, AnEnumeratedPairGivesTheLeastFailingCaseOfTheOrder) {
  int with_failures = 0;
  int without = 0;
  for (const auto& [op, pair, twist] :
       std::vector<std::tuple<const char*, generator::TypePair, std::function<void(Case&)>>>{
           {"encode", {T::E4M3, T::HiF8}, RnaForRne},
           {"encode", {T::HiF8, T::E4M3}, SatIgnored},
           {"encode", {T::E4M3, T::S8}, AlwaysUp},
           {"encode", {T::E4M3, T::HiF8}, AlwaysUp},
           {"tcvt", {T::S8, T::FP16}, AlwaysUp}}) {  // tcvt to FP16 copies the word: no failure
    FaultyOracle device(twist);
    ShrinkOptions options;
    options.op = FindOp(op);
    options.pair = pair;
    const ShrinkResult r = ShrinkProperty(device, options);
    std::optional<Case> least;
    std::uint64_t failing = 0;
    const generator::InputSet domain = options.op->domain(pair, generator::SamplingOptions{});
    ASSERT_EQ(EnumerableInputs(*options.op, pair), domain.count) << op;
    for (std::uint64_t i = 0; i < domain.count; ++i) {
      for (const auto control : generator::ControlsFor(*options.op)) {
        Case k{options.op, pair, control, domain.at(i)};
        Case twisted = k;
        twist(twisted);
        if (generator::EvaluateCase(k) == generator::EvaluateCase(twisted)) continue;
        ++failing;
        if (!least || Simpler(k, *least)) least = k;
      }
    }
    ASSERT_EQ(r.failed, least.has_value()) << op;
    ++(least ? with_failures : without);
    EXPECT_EQ(r.search.back().failing, failing) << op;
    if (!least) continue;
    EXPECT_TRUE(r.simplest);
    EXPECT_EQ(generator::EvalCommand(r.minimal->c), generator::EvalCommand(*least)) << op;
  }
  EXPECT_EQ(with_failures, 4);
  EXPECT_EQ(without, 1);
}

// A space of several slots small enough to enumerate: every tuple, the last slot fastest. (No
// registry op has one yet: tdequant with its FP32 scale narrowed to 4 bits stands in.)
TEST(EnumerableSpace, SeveralSmallSlotsAreEnumeratedInTupleOrder) {
  generator::OpDef op = *FindOp("tdequant");
  const generator::TypePair pair{T::S8, T::FP32};
  EXPECT_EQ(EnumerableInputs(op, pair), 0u);  // 8 + 32 + 8 bits
  EXPECT_THROW(EnumerableSpace(op, pair), std::invalid_argument);
  op.slots[1].role = generator::SlotRole::Fixed;
  op.slots[1].fixed_type = T::S4X2;
  ASSERT_EQ(EnumerableInputs(op, pair), std::uint64_t{1} << 20);
  const generator::InputSet space = EnumerableSpace(op, pair);
  EXPECT_EQ(space.count, std::uint64_t{1} << 20);
  EXPECT_EQ(space.at(0), (Inputs{0, 0, 0, 0}));
  EXPECT_EQ(space.at(1), (Inputs{0, 0, 1, 0}));
  EXPECT_EQ(space.at(256), (Inputs{0, 1, 0, 0}));
  EXPECT_EQ(space.at((std::uint64_t{1} << 20) - 1), (Inputs{0xFF, 0xF, 0xFF, 0}));
}

// The second example: an S32 -> S16 shift that rounds (adds 2^(shift-1)) instead of
// truncating. Sampled (S32 x U8 is too large to enumerate), it still ends at the simplest case:
// value 1 shifted right by 1 (truncation 0, rounding 1), not at a distant local minimum.
TEST(ShrinkProperty, ARoundingShiftShrinksToOneShiftedByOne) {
  FaultyOracle device([](Case& c) {
    const Word shift = c.in[1] & 0xFF;
    if (shift > 0 && shift < 32) {
      const std::int64_t v = static_cast<std::int32_t>(static_cast<std::uint32_t>(c.in[0]));
      const std::int64_t rounded = v + (std::int64_t{1} << (shift - 1));
      if (rounded <= INT32_MAX) c.in[0] = static_cast<std::uint32_t>(rounded);
    }
  });
  for (const std::uint64_t seed : {1, 2, 3}) {
    ShrinkOptions options;
    options.op = FindOp("shift");
    options.pair = generator::TypePair{T::S32, T::S16};
    options.seed = seed;
    options.tests = 1000;
    const ShrinkResult r = ShrinkProperty(device, options);
    ASSERT_TRUE(r.failed) << seed;
    EXPECT_FALSE(r.simplest);
    EXPECT_EQ(generator::EvalCommand(r.minimal->c),
              "ptovec eval --op shift --src s32 --dst s16 --rmode RNE 0x00000001 0x01")
        << seed;
  }
}

// A catalog mutant (tests/mutants) as a device, in process.
class MutantDevice : public Device {
 public:
  explicit MutantDevice(const char* name) : mutant_(mutants::FindMutant(name)), name_(name) {}
  const std::string& Name() const override { return name_; }
  void Evaluate(std::span<const Case> cases, std::span<DeviceAnswer> answers) override {
    for (std::size_t i = 0; i < cases.size(); ++i) {
      answers[i] = {true, mutants::EvaluateMutant(*mutant_, cases[i])};
    }
  }

 private:
  const mutants::MutantInfo* mutant_;
  std::string name_;
};

// fpatr_signed_zero_dropped: a -0 accumulator gives +0 (the oracle keeps -0 through every mode,
// ReLU and scale), so a failing case needs value 0x80000000 and nothing else. Its simplest
// failing cases, reached from every seed:
// - fp32 -> fp16 (modes 1, 32, 33): mode 1 reads no quant parameter, so relu_mode, quant_param
//   and relu_param all go to 0 and the mode is the one non-zero word (1 significant bit,
//   exponent 0). Reaching it takes the moves that zero a mode and the parameter words it makes
//   illegal in one step (relu_mode 2 -> 0 with relu_param -> 0, pre_quant_mode 32 -> 1 with
//   quant_param -> 0); it used to stop at 0x20 0x02 0x800000 0x400.
// - fp32 -> e4m3 (modes 26 and 37, both with a scalar or vector scale): mode 26 (4 significant
//   bits; 37 has 6) with the scale 1.0 (FP19 0x1fc00 in quant_param bits 31:13: 1 significant
//   bit, exponent 0), ReLU off. The scale is ordered by its FP19 value: as a plain integer
//   0x800000 (2^-126) looked simpler than 0x3f800000 (1.0).
TEST(ShrinkProperty, FpatrSignedZeroDroppedShrinksToItsSimplestCase) {
  MutantDevice device("fpatr_signed_zero_dropped");
  for (const auto& [dst, expected] : std::vector<std::pair<T, std::string>>{
           {T::FP16,
            "ptovec eval --op fpatr --src fp32 --dst fp16 --rmode RNE 0x80000000 0x01 0x00 "
            "0x0000000000000000 0x0000000000000000"},
           {T::E4M3,
            "ptovec eval --op fpatr --src fp32 --dst e4m3 --rmode RNE 0x80000000 0x1a 0x00 "
            "0x000000003f800000 0x0000000000000000"}}) {
    for (const std::uint64_t seed : {1, 2, 3, 4, 5}) {
      const ShrinkResult r = RunProperty(device, "fpatr", T::FP32, dst, seed, 2000);
      ASSERT_TRUE(r.failed) << seed;
      EXPECT_TRUE(r.local_minimum) << seed;
      EXPECT_EQ(generator::EvalCommand(r.minimal->c), expected) << seed;
      EXPECT_FALSE(r.minimal->c.control.saturating) << seed;
      EXPECT_EQ(r.minimal->expected.word, dst == T::FP16 ? 0x8000u : 0x80u) << seed;
      EXPECT_EQ(r.minimal->got.result.word, 0u) << seed;
      EXPECT_EQ(ExpectAllCandidatesPass(device, r.minimal->c), r.minimal_candidates) << seed;
    }
  }
}

// The ends a review found where seeds 2 to 6 (fp32 -> hif8) and 3, 7 (fp32 -> fp32) of `ptovec
// shrink` stopped before the moves of the other sign, the multipliers at 1 and the jumps: each
// start fails, and the descent now reaches the least failing case the other seeds reach (the
// first three through the other sign and the scale at 1, the fourth only through a jump).
TEST(ShrinkFrom, FpatrFaultsReachTheirSimplestCaseFromFormerLocalMinima) {
  struct Start {
    const char* mutant;
    T dst;
    Inputs in;
    const char* expected;
  };
  const char* const rhb =
      "ptovec eval --op fpatr --src fp32 --dst hif8 --rmode RNE 0x34000000 0x1c 0x00 "
      "0x000000003f800000 0x0000000000000000";
  for (const Start& start : std::vector<Start>{
           // -1.5 * 2^-16 x 1.0: the tie fails on +2^-23 too (the other sign, one bit).
           {"fpatr_rhb_from_datr", T::HiF8, {0xB7C00000, 0x1C, 0x00, 0x3F800000, 0}, rhb},
           // -2^-16 under LReLU 1.5.
           {"fpatr_rhb_from_datr", T::HiF8, {0xB7800000, 0x1C, 0x02, 0x3F800000, 0x1FE00}, rhb},
           // -2^-16 x 1.5: +2^-23 with the scale at 1.0.
           {"fpatr_rhb_from_datr", T::HiF8, {0xB7800000, 0x1C, 0x00, 0x3FC00000, 0}, rhb},
           // -0 x 1.0 in mode 27: the scale carried into LReLU's parameter under mode 0.
           {"fpatr_signed_zero_dropped",
            T::FP32,
            {0x80000000, 0x1B, 0x00, 0x3F800000, 0},
            "ptovec eval --op fpatr --src fp32 --dst fp32 --rmode RNE 0x80000000 0x00 0x02 "
            "0x0000000000000000 0x000000000001fc00"}}) {
    MutantDevice device(start.mutant);
    Case c;
    c.op = FindOp("fpatr");
    c.pair = {T::FP32, start.dst};
    c.in = start.in;
    const ShrinkResult r = ShrinkFrom(device, c);
    ASSERT_TRUE(r.failed) << start.mutant;
    EXPECT_EQ(generator::EvalCommand(r.minimal->c), start.expected) << start.mutant;
    EXPECT_TRUE(r.local_minimum) << start.mutant;
  }
  // And the property, from seeds whose descent ended at those local minima.
  MutantDevice rhb_device("fpatr_rhb_from_datr");
  for (const std::uint64_t seed : {2, 3, 4, 5, 6}) {
    const ShrinkResult r = RunProperty(rhb_device, "fpatr", T::FP32, T::HiF8, seed, 2000);
    ASSERT_TRUE(r.failed) << seed;
    EXPECT_EQ(generator::EvalCommand(r.minimal->c), rhb) << seed;
    EXPECT_EQ(r.minimal->expected.word, 0x01u) << seed;
    EXPECT_EQ(r.minimal->got.result.word, 0x00u) << seed;
    EXPECT_EQ(ExpectAllCandidatesPass(rhb_device, r.minimal->c), r.minimal_candidates) << seed;
  }
}

TEST(ShrinkMoves, JumpMovesTradeAMultiplierBetweenSlots) {
  const auto offered = [](const Case& c, const Inputs& in) {
    const std::vector<Case> moves = SimplerMoves(c);
    return std::any_of(moves.begin(), moves.end(), [&](const Case& k) { return k.in == in; });
  };
  Case lrelu;
  lrelu.op = FindOp("fpatr");
  lrelu.pair = {T::FP32, T::HiF8};
  lrelu.in = {0xB7800000, 0x1C, 0x02, 0x3F800000, 0x1FE00};  // -2^-16, LReLU 1.5, scale 1.0
  // LReLU's 1.5 times the scale 1.0 into the scale, relu_mode and relu_param to 0.
  EXPECT_TRUE(offered(lrelu, {0xB7800000, 0x1C, 0x00, 0x3FC00000, 0}));
  Case kept;
  kept.op = FindOp("fpatr");
  kept.pair = {T::FP32, T::FP32};
  kept.in = {0x80000000, 0x1B, 0x00, 0x3F800000, 0};  // -0, mode 27, scale 1.0
  // Mode 0 (no quant parameter) with LReLU, its parameter the former scale: two slots become
  // simpler, two more complex, in one move.
  EXPECT_TRUE(offered(kept, {0x80000000, 0x00, 0x02, 0, 0x1FC00}));
  for (const Case& c : {lrelu, kept}) {
    for (const Case& k : SimplerMoves(c)) {
      EXPECT_FALSE(c.op->check_domain(k.pair, k.in)) << generator::EvalCommand(k);
      EXPECT_TRUE(Simpler(k, c)) << generator::EvalCommand(k);
    }
  }
}

TEST(ShrinkMoves, AValueMovesToTheOtherSignAndWithItsMultipliersAtOne) {
  Case scaled;
  scaled.op = FindOp("fpatr");
  scaled.pair = {T::FP32, T::HiF8};
  scaled.in = {0xB7800000, 0x1C, 0x00, 0x3FC00000, 0};  // -2^-16 x 1.5
  const std::vector<Case> moves = SimplerMoves(scaled);
  const auto offered = [&](const Inputs& in) {
    return std::any_of(moves.begin(), moves.end(), [&](const Case& k) { return k.in == in; });
  };
  EXPECT_TRUE(offered({0x37800000, 0x1C, 0x00, 0x3FC00000, 0}));  // +2^-16, the scale kept
  EXPECT_TRUE(offered({0x34000000, 0x1C, 0x00, 0x3F800000, 0}));  // +2^-23, the scale at 1.0
  EXPECT_TRUE(offered({0xB4000000, 0x1C, 0x00, 0x3F800000, 0}));  // -2^-23, the scale at 1.0
  // +2^-23 with the scale kept is not simpler (farther from 2^0, and as many bits).
  EXPECT_FALSE(offered({0x34000000, 0x1C, 0x00, 0x3FC00000, 0}));
}

TEST(ShrinkOrder, AnFp19ParameterFieldIsOrderedByItsValue) {
  // fpatr's quant_param holds an FP19 scale in bits 31:13 and relu_param an FP19 in bits 18:0
  // (OpDef::value_fields): 1.0 is simpler than 2^-126 and than 1.5, whatever their words.
  Case one;
  one.op = FindOp("fpatr");
  one.pair = {T::FP32, T::E4M3};
  one.in = {0x80000000, 0x1A, 0x02, 0x3F800000, 0x1FC00};  // scale 1.0, LReLU 1.0
  Case tiny = one;
  tiny.in[3] = 0x00800000;  // scale 2^-126
  Case one_and_half = one;
  one_and_half.in[4] = 0x1FE00;  // LReLU 1.5
  EXPECT_TRUE(Simpler(one, tiny));
  EXPECT_TRUE(Simpler(one, one_and_half));
  const SimplicityKey k = SimplicityOf(one);
  EXPECT_EQ(k.nonzero, 4u);
  EXPECT_EQ(k.significant_bits, 4u + 1u + 1u + 1u);  // 26 = 13 * 2, 2, 1.0, 1.0
  EXPECT_EQ(k.exponent_distance, 4u + 1u);
  EXPECT_EQ(SimplicityOf(tiny).exponent_distance, 4u + 1u + 126u);
  // Other bits of the word (an S9 offset from bit 37) count as the slot's integer besides it.
  Case offset = one;
  offset.in[3] = 0x3F800000 | (Word{1} << 37);
  EXPECT_EQ(SimplicityOf(offset).significant_bits, k.significant_bits + 1u);
  EXPECT_EQ(SimplicityOf(offset).exponent_distance, k.exponent_distance + 37u);
}

TEST(ShrinkMoves, AReluModeGoesToZeroWithItsParameter) {
  Case c;
  c.op = FindOp("fpatr");
  c.pair = {T::FP32, T::FP16};
  c.in = {0x80000000, 0x20, 0x02, 0x00800000, 0x400};
  const std::vector<Case> moves = SimplerMoves(c);
  const auto offered = [&](const Inputs& in) {
    return std::any_of(moves.begin(), moves.end(),
                       [&](const Case& k) { return k.in == in && k.control == c.control; });
  };
  // relu_mode 2 -> 0 alone, or relu_param alone, leaves the domain; together they are a move.
  EXPECT_TRUE(offered({0x80000000, 0x20, 0x00, 0x00800000, 0}));
  // mode 32 -> 1 (no quant parameter) with quant_param -> 0, and with every other word too.
  EXPECT_TRUE(offered({0x80000000, 0x01, 0x02, 0, 0x400}));
  EXPECT_TRUE(offered({0x80000000, 0x01, 0x00, 0, 0}));
  for (const Case& k : moves) EXPECT_FALSE(c.op->check_domain(k.pair, k.in));
}

TEST(ShrinkMoves, AnFp19FieldMovesToOtherBinades) {
  // The scale 2^-126 (quant_param 0x800000) of fpatr mode 26 moves to 1.0 (0x3f800000) in one
  // move: the same significand at another binade of the FP19 field. As an integer word it had no
  // simpler legal neighbour.
  Case c;
  c.op = FindOp("fpatr");
  c.pair = {T::FP32, T::E4M3};
  c.in = {0x80000000, 0x1A, 0x00, 0x00800000, 0};
  const std::vector<Case> moves = SimplerMoves(c);
  const Inputs one{0x80000000, 0x1A, 0x00, 0x3F800000, 0};
  EXPECT_TRUE(std::any_of(moves.begin(), moves.end(), [&](const Case& k) { return k.in == one; }));
  for (const Case& k : moves) EXPECT_FALSE(c.op->check_domain(k.pair, k.in));
}

// The oracle as a device that records every case it is given and answers wrong (the word's low
// bit flipped) on the cases `wrong` picks.
class RecordingDevice : public Device {
 public:
  explicit RecordingDevice(std::function<bool(const Case&)> wrong) : wrong_(std::move(wrong)) {}
  const std::string& Name() const override { return name_; }
  void Evaluate(std::span<const Case> cases, std::span<DeviceAnswer> answers) override {
    for (std::size_t i = 0; i < cases.size(); ++i) {
      seen.push_back(cases[i]);
      answers[i] = {true, generator::EvaluateCase(cases[i])};
      if (wrong_(cases[i])) answers[i].result.word ^= 1;
    }
  }
  std::vector<Case> seen;

 private:
  std::function<bool(const Case&)> wrong_;
  std::string name_ = "recording";
};

// Every case the device saw (draws, shrink candidates, moves) is under a control the filter
// keeps and the op accepts for its inputs.
void ExpectEveryControlSelectedAndLegal(const RecordingDevice& device,
                                        const generator::ControlFilter& filter) {
  ASSERT_FALSE(device.seen.empty());
  for (const Case& c : device.seen) {
    EXPECT_TRUE(filter.Accepts(c.control)) << generator::EvalCommand(c);
    EXPECT_FALSE(c.op->check_control(c.pair, c.in, c.control)) << generator::EvalCommand(c);
  }
}

TEST(ShrinkProperty, APairWithNoSelectedControlIsRefused) {
  // Every mode of fpatr fp32 -> fp16 (1, 32, 33) has fixed rounding: RNE only.
  const generator::OpDef& fpatr = *FindOp("fpatr");
  RecordingDevice device([](const Case&) { return true; });
  ShrinkOptions options;
  options.op = &fpatr;
  options.pair = generator::TypePair{T::FP32, T::FP16};
  options.controls = generator::ParseControlFilter("RTZ", "");
  try {
    ShrinkProperty(device, options);
    ADD_FAILURE() << "no InputError";
  } catch (const generator::InputError& e) {
    EXPECT_STREQ(
        e.what(),
        "fpatr fp32 -> fp16 holds no control that --rmode/--sat keep (RTZ; Sat off and "
        "on): it accepts [{\"rmode\":\"RNE\",\"sat\":false},{\"rmode\":\"RNE\",\"sat\":true}]");
  }
  EXPECT_TRUE(device.seen.empty());
  // RNE with Sat on is one of its controls: searched, and only under it.
  options.controls = generator::ParseControlFilter("RNE,RTZ", "on");
  options.tests = 200;
  const ShrinkResult r = ShrinkProperty(device, options);
  ASSERT_TRUE(r.failed);
  EXPECT_TRUE(r.left_out.empty());
  ExpectEveryControlSelectedAndLegal(device, options.controls);
  // Any pair under RTZ: the pairs and groups with a mode that takes RTZ are searched, the others
  // left out.
  const ShrinkSelection any =
      SelectShrinkPairs(fpatr, std::nullopt, generator::ParseControlFilter("RTZ", ""));
  const auto names = [&](const std::vector<generator::TypePair>& pairs) {
    std::vector<std::string> out;
    for (const generator::TypePair p : pairs) out.push_back(PairName(fpatr, p));
    return out;
  };
  EXPECT_EQ(
      names(any.pairs),
      (std::vector<std::string>{"fpatr fp32 -> fp32 pqm27-38", "fpatr fp32 -> s8",
                                "fpatr s32 -> s8", "fpatr s32 -> fp16", "fpatr s32 -> s16 pqm19-20",
                                "fpatr s32 -> s4x2", "fpatr s32 -> bf16"}));
  EXPECT_EQ(names(any.left_out),
            (std::vector<std::string>{"fpatr fp32 -> fp32 pqm0", "fpatr fp32 -> fp16",
                                      "fpatr fp32 -> bf16", "fpatr fp32 -> hif8",
                                      "fpatr fp32 -> e4m3", "fpatr s32 -> s32",
                                      "fpatr s32 -> s16 pqm12-13", "fpatr u32 -> u32"}));
  // Without a filter, or for an op without controls, every pair whole.
  EXPECT_EQ(SelectShrinkPairs(fpatr, std::nullopt, {}).pairs, fpatr.legal_pairs);
  const generator::OpDef& shift = *FindOp("shift");
  EXPECT_EQ(
      SelectShrinkPairs(shift, std::nullopt, generator::ParseControlFilter("RTZ", "on")).pairs,
      shift.legal_pairs);
}

TEST(ShrinkProperty, OnlyInputsWithASelectedControlAreDrawn) {
  // fpatr s32 -> s16: the shift modes 12/13 take RNE, Sat off only, modes 19/20 every control. A
  // device wrong on the shift modes only passes under RTZ: those inputs are not drawn (they used
  // to be, evaluated under RNE).
  const auto shift_mode = [](const Case& c) { return c.in[1] == 12 || c.in[1] == 13; };
  RecordingDevice device(shift_mode);
  ShrinkOptions options;
  options.op = FindOp("fpatr");
  options.pair = generator::TypePair{T::S32, T::S16};
  options.tests = 2000;
  options.controls = generator::ParseControlFilter("RTZ", "");
  const ShrinkResult r = ShrinkProperty(device, options);
  EXPECT_FALSE(r.failed);
  EXPECT_EQ(r.tests, 2000u);
  ASSERT_EQ(r.left_out.size(), 1u);
  EXPECT_EQ(PairName(*options.op, r.left_out[0]), "fpatr s32 -> s16 pqm12-13");
  EXPECT_EQ(SearchLines(r),
            (std::vector<std::string>{"sampled 2,000 cases of fpatr s32 -> s16 pqm19-20 with the "
                                      "default suite's strategies (seed 1): none fails"}));
  ExpectEveryControlSelectedAndLegal(device, options.controls);
  for (const Case& c : device.seen) {
    EXPECT_EQ(c.pair, (generator::TypePair{T::S32, T::S16}));  // reported over the whole pair
    EXPECT_TRUE(c.in[1] == 19 || c.in[1] == 20) << generator::EvalCommand(c);
  }
  // Under RNE, Sat off every mode has a control: the whole pair is drawn, the fault found.
  RecordingDevice again(shift_mode);
  options.controls = generator::ParseControlFilter("RNE", "off");
  const ShrinkResult found = ShrinkProperty(again, options);
  ASSERT_TRUE(found.failed);
  EXPECT_TRUE(found.left_out.empty());
  EXPECT_TRUE(shift_mode(found.minimal->c));
  ExpectEveryControlSelectedAndLegal(again, options.controls);
  // A device wrong everywhere, under RTZ: the reported case and every case tried on the way are
  // under RTZ. The simplest: value 0, mode 20 (5 x 4; 19 has 5 significant bits), the scale 1.0
  // (modes 19/20 read one), ReLU off, Sat off.
  RecordingDevice wrong([](const Case&) { return true; });
  options.controls = generator::ParseControlFilter("RTZ", "");
  const ShrinkResult any = ShrinkProperty(wrong, options);
  ASSERT_TRUE(any.failed);
  ExpectEveryControlSelectedAndLegal(wrong, options.controls);
  EXPECT_EQ(any.original->c.control.rounding_mode, NumericRoundingMode::RTZ);
  EXPECT_EQ(generator::EvalCommand(any.minimal->c),
            "ptovec eval --op fpatr --src s32 --dst s16 --rmode RTZ 0x00000000 0x14 0x00 "
            "0x000000003f800000 0x0000000000000000");
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
  // bit, then the tie with one significant bit: the same case the property reaches.
  EXPECT_EQ(r.minimal->c.in[0], 0x33000000u);
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

TEST(ShrinkFrom, AnEnumerablePairGivesItsSimplestFailingCase) {
  FaultyOracle device(AlwaysUp);
  Case start;
  start.op = FindOp("tcvt");
  start.pair = {T::FP16, T::E8M0};
  start.control = {NumericRoundingMode::RNE, true};
  start.in = {0x3D00, 0, 0, 0};  // 1.25: RNE 2^0, rounding up 2^1
  const ShrinkResult r = ShrinkFrom(device, start);
  ASSERT_TRUE(r.failed);
  EXPECT_TRUE(r.simplest);
  EXPECT_EQ(r.original->c.in[0], 0x3D00u);
  // 1.5 under RTM, Sat off: fewer significant bits than 1.25 outweigh the mode.
  EXPECT_EQ(generator::EvalCommand(r.minimal->c),
            "ptovec eval --op tcvt --src fp16 --dst e8m0 --rmode RTM 0x3e00");
  ASSERT_EQ(r.search.size(), 1u);
  EXPECT_EQ(r.search[0].cases, 917504u);
  const std::string text = Report(r);
  EXPECT_EQ(text.rfind("enumerated all 917,504 cases of tcvt fp16 -> e8m0: ", 0), 0u) << text;
  EXPECT_NE(text.find("simplest: yes (the least of every failing case of the pair)\n"),
            std::string::npos)
      << text;
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
  // -0.5 * 1.0 + 0 = -0.5 under RTM: -1, under RTZ 0. The shrink tree ends at -2^-149 * 2^-149
  // + 1; the moves toward the simplest case give the value and the scale one significant bit
  // each, exponents nearest 0, and a zero point of 0, with the mode free to change with them
  // (RNE rounds the tie -0.5 to 0 as RTZ does, so the first mode after it). Sat stays on: the
  // fault needs it.
  const Case& c = r.minimal->c;
  EXPECT_EQ(c.in[0], 0xBF000000u);
  EXPECT_EQ(c.in[1], 0x3F800000u);
  EXPECT_EQ(c.in[2], 0x00u);
  EXPECT_EQ(c.control.rounding_mode, NumericRoundingMode::RTM);
  EXPECT_TRUE(c.control.saturating);
  EXPECT_EQ(r.minimal->expected.word, 0xFFu);
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
    EXPECT_EQ(v.c.in[0], 0x44000000u);
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
}  // namespace shrink_test
}  // namespace ptovec::tools
