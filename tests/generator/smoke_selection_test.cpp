// The sides of the outcome classes (PairClassifier::Sides, OutcomeClassTable::thresholds) and
// the smoke suite's selection (SelectSmokeInputs): sides of known values; the inputs chosen for
// TCVT FP16 -> E8M0 on both sides of sqrt(2); the notes of cells with one input or one side; an
// independent check that every cell gets two inputs from both sides or its note; the same
// selection with one thread and with two.
#include <gtest/gtest.h>

#include <array>
#include <bit>
#include <cstdint>
#include <map>
#include <set>
#include <stdexcept>
#include <string>
#include <string_view>
#include <tuple>
#include <vector>

#include "ptovec/generator/coverage.hpp"
#include "ptovec/generator/domains.hpp"
#include "ptovec/generator/suite.hpp"

namespace ptovec::generator {
namespace smoke_selection_test {
namespace {

const CoverageClass& ClassNamed(const std::vector<CoverageClass>& classes, std::string_view name) {
  for (const CoverageClass& c : classes) {
    if (c.name == name) return c;
  }
  throw std::logic_error("no class " + std::string(name));
}

// Whether `in` hits class `name` under control c, and on which side (0 or 1).
struct Hit {
  bool hit = false;
  unsigned side = 0;
};
Hit HitOf(const OpDef& op, TypePair pair, const Inputs& in, NumericExecutionControl c,
          std::string_view name) {
  const PairClassifier classifier(op, pair);
  const unsigned bit = ClassNamed(classifier.classes(), name).bit;
  const NumericExecutionControl controls[] = {c};
  const Encoded expected = op.evaluate_reference(pair, in, c);
  ClassMask mask = 0;
  ClassMask sides = 0;
  classifier.Classify(in, controls, &expected, &mask);
  classifier.Sides(in, controls, &expected, &sides);
  return {mask.test(bit), sides.test(bit) ? 1U : 0U};
}

constexpr NumericExecutionControl kRne{NumericRoundingMode::RNE, false};
constexpr NumericExecutionControl kRna{NumericRoundingMode::RNA, false};

TEST(ClassSides, EveryThresholdNamesAClassOfItsTable) {
  std::map<std::string, unsigned> thresholds;  // op name -> own-threshold classes, summed
  for (const Job& job : DefaultSuite()) {
    for (const CoverageClass& c : CoverageClasses(*job.op, job.pair)) {
      if (c.own_threshold) ++thresholds[job.op->name];
      if (!c.own_threshold) {
        EXPECT_EQ(c.sides, kGenericSides) << c.name;
      }
    }
  }
  // tcvt: 3 classes x 3 E8M0 pairs; qparam: 4; encode: 3 per floating destination (5 x 6
  // sources), 1 per integer one (8 x 6).
  EXPECT_EQ(thresholds["tcvt"], 9U);
  EXPECT_EQ(thresholds["qparam"], 4U);
  EXPECT_EQ(thresholds["encode"], 3U * 30 + 48);
  EXPECT_EQ(thresholds.size(), 3U);
}

TEST(ClassSides, TcvtSqrt2QparamNaNAndEncodeEdgesOfKnownValues) {
  const OpDef& tcvt = *FindOp("tcvt");
  const TypePair e8m0{TileDataType::FP16, TileDataType::E8M0};
  // FP16 significands 1448 (0x3da8: 1.4140625) and 1449 (0x3da9: 1.4150390625) straddle
  // sqrt(2) * 1024 = 1448.15...
  EXPECT_TRUE(HitOf(tcvt, e8m0, {0x3da8, 0, 0, 0}, kRne, "at the sqrt(2) threshold").hit);
  EXPECT_EQ(HitOf(tcvt, e8m0, {0x3da8, 0, 0, 0}, kRne, "at the sqrt(2) threshold").side, 0U);
  EXPECT_EQ(HitOf(tcvt, e8m0, {0x3da9, 0, 0, 0}, kRne, "at the sqrt(2) threshold").side, 1U);
  EXPECT_TRUE(HitOf(tcvt, e8m0, {0x3da9, 0, 0, 0}, kRna, "rounded up").hit);
  EXPECT_EQ(HitOf(tcvt, e8m0, {0x3da9, 0, 0, 0}, kRna, "rounded up").side, 1U);
  // 1.5 (0x3e00) lies above sqrt(2), 1.25 (0x3d00) below; RTZ rounds both down.
  const NumericExecutionControl rtz{NumericRoundingMode::RTZ, false};
  EXPECT_EQ(HitOf(tcvt, e8m0, {0x3e00, 0, 0, 0}, rtz, "rounded down").side, 1U);
  EXPECT_EQ(HitOf(tcvt, e8m0, {0x3d00, 0, 0, 0}, rtz, "rounded down").side, 0U);
  // A class without a threshold of its own: the sign of the source (-1.5 is negative).
  EXPECT_EQ(HitOf(tcvt, e8m0, {0xbe00, 0, 0, 0}, kRne, "negative input").side, 1U);
  EXPECT_EQ(HitOf(tcvt, e8m0, {0x3e00, 0, 0, 0}, kRne, "status inexact").side, 0U);

  const OpDef& qparam = *FindOp("qparam");
  const TypePair qp{TileDataType::FP32, TileDataType::U64};
  // 0x7f800001: payload only in the dropped bits 12:0; 0x7fc00000 in the kept bits.
  EXPECT_TRUE(HitOf(qparam, qp, {0x7f800001, 0, 0, 0}, kRne, "NaN scale").hit);
  EXPECT_EQ(HitOf(qparam, qp, {0x7f800001, 0, 0, 0}, kRne, "NaN scale").side, 1U);
  EXPECT_EQ(HitOf(qparam, qp, {0x7fc00000, 0, 0, 0}, kRne, "NaN scale").side, 0U);
  // Dropped bits 0x0fff (1 below half) and 0x0001 (far below); 0x7f7fffff carries into Inf.
  EXPECT_EQ(HitOf(qparam, qp, {0x3f800fff, 0, 0, 0}, kRne, "FP19 rounded down").side, 1U);
  EXPECT_EQ(HitOf(qparam, qp, {0x3f800001, 0, 0, 0}, kRne, "FP19 rounded down").side, 0U);
  EXPECT_EQ(HitOf(qparam, qp, {0x7f7fffff, 0, 0, 0}, kRne, "FP19 carry into the exponent").side,
            1U);
  EXPECT_EQ(HitOf(qparam, qp, {0x3fffffff, 0, 0, 0}, kRne, "FP19 carry into the exponent").side,
            0U);

  const OpDef& encode = *FindOp("encode");
  const TypePair fp16{TileDataType::FP32, TileDataType::FP16};
  // (65504, 65520) splits at 65512; (65520, 65536) at 65528.
  EXPECT_EQ(
      HitOf(encode, fp16, {0x477fe100, 0, 0, 0}, kRne, "just below the overflow threshold").side,
      0U);  // 65505
  EXPECT_EQ(
      HitOf(encode, fp16, {0x477fe800, 0, 0, 0}, kRne, "just below the overflow threshold").side,
      1U);  // 65512
  EXPECT_EQ(
      HitOf(encode, fp16, {0xc77fef00, 0, 0, 0}, kRne, "just below the overflow threshold").side,
      1U);  // -65519: by magnitude
  EXPECT_EQ(
      HitOf(encode, fp16, {0x477ff100, 0, 0, 0}, kRne, "just above the overflow threshold").side,
      0U);  // 65521
  EXPECT_EQ(
      HitOf(encode, fp16, {0x477ffa00, 0, 0, 0}, kRne, "just above the overflow threshold").side,
      1U);  // 65530
  // 2^-30 rounds to 0 far below half of 2^-24; 2^-25 is that half (RNE's tie goes to 0).
  const Hit far =
      HitOf(encode, fp16, {0x30800000, 0, 0, 0}, kRne, "rounding to zero from a non-zero value");
  const Hit half =
      HitOf(encode, fp16, {0x33000000, 0, 0, 0}, kRne, "rounding to zero from a non-zero value");
  EXPECT_TRUE(far.hit && half.hit);
  EXPECT_EQ(far.side, 0U);
  EXPECT_EQ(half.side, 1U);
  const TypePair s8{TileDataType::FP32, TileDataType::S8};
  EXPECT_EQ(
      HitOf(encode, s8, {0x3e800000, 0, 0, 0}, kRne, "rounding to zero from a non-zero value").side,
      0U);  // 0.25
  EXPECT_EQ(
      HitOf(encode, s8, {0x3f000000, 0, 0, 0}, kRne, "rounding to zero from a non-zero value").side,
      1U);  // 0.5, RNE's tie to 0
}

const SamplingOptions kSampling{1, 20000};

std::vector<Job> Jobs(const std::vector<std::tuple<std::string, TileDataType, TileDataType>>& l) {
  std::vector<Job> jobs;
  for (const auto& [op, src, dst] : l) jobs.push_back({FindOp(op), {src, dst}});
  return jobs;
}

TEST(SmokeSelection, TcvtFp16ToE8m0TakesCodesJustBelowAndJustAboveSqrt2) {
  const std::vector<SmokeSelection> s =
      SelectSmokeInputs(Jobs({{"tcvt", TileDataType::FP16, TileDataType::E8M0}}), kSampling, 2);
  ASSERT_EQ(s.size(), 1U);
  // A source code whose p-bit significand is floor(sqrt(2) * 2^(p-1)) lies just below sqrt(2) *
  // 2^k, the next one just above: the class "at the sqrt(2) threshold" has both sides chosen.
  bool below = false;
  bool above = false;
  std::vector<Word> chosen;
  for (const Inputs& in : s[0].inputs) {
    chosen.push_back(in[0]);
    const Word exponent = (in[0] >> 10) & 0x1F;
    const Word m = exponent == 0 ? in[0] & 0x3FF : 0x400 | (in[0] & 0x3FF);
    const int p = static_cast<int>(std::bit_width(m));
    if (exponent == 0x1F || p < 2) continue;
    below = below || m == FloorSqrt2Scaled(p - 1);
    above = above || m == FloorSqrt2Scaled(p - 1) + 1;
  }
  EXPECT_TRUE(below);
  EXPECT_TRUE(above);
  // The selection itself: 0x0002 and 0x0003 (significands 2 and 3 around 2 * sqrt(2)),
  // 0x3da9 (1449 / 1024, just above sqrt(2)), where a comparison on the top 8 bits (mutant
  // e8m0_sqrt2_top8) rounds RNA down wrongly, and 0x41a8 (1448 / 1024 * 8, just below it); the
  // specials; one input of each other class.
  EXPECT_EQ(chosen, (std::vector<Word>{0x0000, 0x0002, 0x0003, 0x0005, 0x0400, 0x3da9, 0x41a8,
                                       0x7c00, 0x7c01, 0x8000, 0x8003, 0x8400, 0xfc00, 0xfe00}));
  // The domain has one +0 (0x0000) and one -0 (0x8000): their cells are noted as such.
  const std::vector<CoverageClass> classes =
      CoverageClasses(*FindOp("tcvt"), {TileDataType::FP16, TileDataType::E8M0});
  const auto note_of = [&](std::string_view name, SmokeShortfall why) -> const SmokeNote* {
    const unsigned bit = ClassNamed(classes, name).bit;
    for (const SmokeNote& n : s[0].notes) {
      if (n.bit == bit && n.why == why) return &n;
    }
    return nullptr;
  };
  const SmokeNote* zero = note_of("input +zero", SmokeShortfall::OneInput);
  ASSERT_NE(zero, nullptr);
  EXPECT_EQ(zero->controls, 0x3FFF);
  EXPECT_EQ(zero->side, 0U);
  // The nearest modes round down only below sqrt(2): every input of those cells is on one side.
  const SmokeNote* down = note_of("rounded down", SmokeShortfall::OneSide);
  ASSERT_NE(down, nullptr);
  EXPECT_EQ(down->side, 0U);
  EXPECT_EQ(down->controls, 0x3303);  // RNE, RNA, RHB (slots 0, 4, 6); Sat off and on
  EXPECT_EQ(note_of("at the sqrt(2) threshold", SmokeShortfall::OneSide), nullptr);

  const nlohmann::ordered_json json =
      SmokeSelectionJson(*FindOp("tcvt"), {TileDataType::FP16, TileDataType::E8M0}, s[0]);
  EXPECT_EQ(json["cells"], s[0].cells);
  EXPECT_EQ(s[0].cells, s[0].both_sides + s[0].one_side + s[0].one_input + s[0].input_class);
  const nlohmann::ordered_json first = json["notes"][0];
  EXPECT_EQ(first.dump(),
            R"({"class":"input +zero","controls":"all","reason":"the default domain has one )"
            R"(input in this cell","side":"positive source"})");
  bool listed = false;
  for (const auto& n : json["notes"]) {
    if (n["class"] != "rounded down") continue;
    EXPECT_EQ(n.dump(),
              R"j({"class":"rounded down","controls":"RNE/- RNE/S RNA/- RNA/S RHB/- RHB/S",)j"
              R"j("reason":"every input of the cell is on one side",)j"
              R"j("side":"significand below sqrt(2)"})j");
    listed = true;
  }
  EXPECT_TRUE(listed);
}

// Independently of SelectSmokeInputs: walks each job's default domain, counts the distinct inputs
// of each (control, class, side), and checks that the chosen inputs give every cell two inputs
// from both sides where the domain has both (one input for a report input class), two inputs
// where it has two, and that the notes name exactly the cells without both sides.
TEST(SmokeSelection, EveryCellHasTwoInputsFromBothSidesOrItsNote) {
  const std::vector<Job> jobs = Jobs({{"tcvt", TileDataType::FP16, TileDataType::E8M0},
                                      {"qparam", TileDataType::FP32, TileDataType::U64},
                                      {"encode", TileDataType::FP32, TileDataType::FP16},
                                      {"encode", TileDataType::E4M3, TileDataType::U8}});
  const std::vector<SmokeSelection> chosen = SelectSmokeInputs(jobs, kSampling, 2);
  for (std::size_t j = 0; j < jobs.size(); ++j) {
    const OpDef& op = *jobs[j].op;
    const TypePair pair = jobs[j].pair;
    const PairClassifier classifier(op, pair);
    const std::vector<NumericExecutionControl> controls = ControlsFor(op, pair);
    // key: slot, bit, side
    using Key = std::tuple<std::size_t, unsigned, unsigned>;
    const auto tally = [&](const std::vector<Inputs>& inputs, std::size_t cap) {
      std::map<Key, std::set<Inputs>> seen;
      std::vector<Encoded> out(controls.size());
      std::vector<ClassMask> masks(controls.size());
      std::vector<ClassMask> sides(controls.size());
      for (const Inputs& in : inputs) {
        EvaluateBatch(op, pair, &in, 1, controls, out.data());
        classifier.Classify(in, controls, out.data(), masks.data());
        classifier.Sides(in, controls, out.data(), sides.data());
        for (std::size_t c = 0; c < controls.size(); ++c) {
          ForEachClassBit(masks[c], [&](unsigned bit) {
            std::set<Inputs>& s = seen[{ControlSlot(controls[c]), bit, sides[c].test(bit)}];
            if (s.size() < cap) s.insert(in);
          });
        }
      }
      return seen;
    };
    const InputSet set = op.domain(pair, kSampling);
    std::vector<Inputs> domain(set.count);
    set.Fill(0, set.count, domain.data());
    const auto in_domain = tally(domain, 2);
    const auto in_chosen = tally(chosen[j].inputs, 1000);
    const auto count = [](const std::map<Key, std::set<Inputs>>& m, std::size_t s, unsigned bit,
                          unsigned side) {
      const auto it = m.find({s, bit, side});
      return it == m.end() ? std::size_t{0} : it->second.size();
    };
    std::map<unsigned, std::string> class_table;  // by name, independently of twin_side
    for (const CoverageClass& c : CoverageClasses(op, pair)) class_table[c.bit] = c.name;
    std::map<std::tuple<unsigned, SmokeShortfall, unsigned>, std::uint16_t> expected_notes;
    std::uint64_t cells = 0;
    for (const auto& [key, inputs] : in_domain) {
      const auto [s, bit, side] = key;
      if (side == 1 && count(in_domain, s, bit, 0) > 0) continue;  // counted with side 0
      ++cells;
      const std::size_t d0 = count(in_domain, s, bit, 0);
      const std::size_t d1 = count(in_domain, s, bit, 1);
      const std::size_t c0 = count(in_chosen, s, bit, 0);
      const std::size_t c1 = count(in_chosen, s, bit, 1);
      // One input is asked of a report input class and of a class that is one side of a
      // threshold whose twin class is the other ("from below" / "from above").
      const std::string& name = class_table[bit];
      const bool twin = name.find(" from below") != std::string::npos ||
                        name.find(" from above") != std::string::npos;
      const bool input_class = bit < kInputClasses || twin;
      const std::string where =
          PairKey(op, pair) + " slot " + std::to_string(s) + " bit " + std::to_string(bit);
      if (c0 > 0 && c1 > 0) continue;
      EXPECT_FALSE(!input_class && d0 > 0 && d1 > 0) << where << ": one side missing";
      EXPECT_GE(c0 + c1, input_class ? 1U : std::min<std::size_t>(2, d0 + d1)) << where;
      const SmokeShortfall why = d0 + d1 == 1                           ? SmokeShortfall::OneInput
                                 : c0 + c1 >= 2 && (d0 == 0 || d1 == 0) ? SmokeShortfall::OneSide
                                 : bit < kInputClasses                  ? SmokeShortfall::InputClass
                                                                        : SmokeShortfall::TwinSide;
      std::uint16_t& n = expected_notes[{bit, why, c1 > 0 ? 1U : 0U}];
      n = static_cast<std::uint16_t>(n | 1U << s);
    }
    EXPECT_EQ(chosen[j].cells, cells) << PairKey(op, pair);
    std::map<std::tuple<unsigned, SmokeShortfall, unsigned>, std::uint16_t> notes;
    for (const SmokeNote& n : chosen[j].notes) notes[{n.bit, n.why, n.side}] = n.controls;
    EXPECT_EQ(notes, expected_notes) << PairKey(op, pair);
  }
}

TEST(SmokeSelection, TheSameWithOneThreadAndWithTwo) {
  const std::vector<Job> jobs = Jobs({{"tcvt", TileDataType::BF16, TileDataType::E8M0},
                                      {"shift", TileDataType::S32, TileDataType::S16},
                                      {"qparam", TileDataType::FP32, TileDataType::U64},
                                      {"encode", TileDataType::HiF8, TileDataType::E4M3}});
  const std::vector<SmokeSelection> one = SelectSmokeInputs(jobs, kSampling, 1);
  const std::vector<SmokeSelection> two = SelectSmokeInputs(jobs, kSampling, 2);
  ASSERT_EQ(one.size(), jobs.size());
  ASSERT_EQ(two.size(), jobs.size());
  for (std::size_t j = 0; j < jobs.size(); ++j) {
    EXPECT_GT(one[j].inputs.size(), 2U);
    EXPECT_EQ(one[j].inputs, two[j].inputs) << j;
    EXPECT_EQ(SmokeSelectionJson(*jobs[j].op, jobs[j].pair, one[j]).dump(),
              SmokeSelectionJson(*jobs[j].op, jobs[j].pair, two[j]).dump());
  }
}

}  // namespace
}  // namespace smoke_selection_test
}  // namespace ptovec::generator
