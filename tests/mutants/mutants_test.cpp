// Direct proof of the mutant catalog (the product's fault models, generator/src/faults, adapted
// by tests/mutants/mutants.cpp), linked, without devices or files: every mutant differs from the
// oracle on one given case (both answers asserted exactly: word and flags), agrees with it on a
// given case of the same op where its fault does not apply, and agrees with it on every sampled
// case of the ops it does not touch. The end-to-end proof through `ptovec run` / `ptovec shrink` is
// run_mutants.py.
#include "mutants.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <optional>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "ptovec/generator/suite.hpp"
#include "ptovec/generator/word_text.hpp"
#include "ptovec/generator/writers.hpp"

namespace ptovec::mutants {
namespace {

using generator::MakeCase;

struct Answer {
  oracle::Word word;
  oracle::Status flags;
};

/// One known case: `ptovec eval` arguments and the answer.
struct Known {
  std::string op, src, dst, mode;
  bool sat;
  std::vector<std::string> in;
};

struct Row {
  std::string mutant;
  Known differs;       ///< the mutant and the oracle differ here
  Answer oracle;       ///< the oracle's answer on `differs`
  Answer mutant_says;  ///< the mutant's answer on `differs`
  Known agrees;        ///< a case of the same op where the fault does not apply
  Answer agreed;       ///< both answer this
};

Case Build(const Known& k) { return MakeCase(k.op, k.src, k.dst, k.mode, k.sat, k.in); }

std::string Show(const Known& k) {
  std::ostringstream s;
  s << k.op << " " << k.src << "->" << k.dst << " " << k.mode << (k.sat ? " sat" : "");
  for (const auto& w : k.in) s << " " << w;
  return s.str();
}

// Rows of mutants_cases.inc: the first default-suite case where each mutant differs, found by
// ptovec_mutant_scan and frozen by make_cases.py (a changed oracle or mutant fails this test);
// the comment above each row gives both answers.
const std::vector<Row>& Rows() {
  static const std::vector<Row> rows = {
#include "mutants_cases.inc"
  };
  return rows;
}

TEST(MutantCatalog, MatchesTheCMakeList) {
  std::vector<std::string> cmake;
  std::stringstream list(PTOVEC_MUTANTS_CSV);
  for (std::string name; std::getline(list, name, ',');) cmake.push_back(name);
  std::vector<std::string> catalog;
  for (const MutantInfo& m : AllMutants()) catalog.emplace_back(m.name);
  EXPECT_EQ(catalog, cmake);
  EXPECT_GE(catalog.size(), 20U);
  EXPECT_EQ(std::set<std::string>(catalog.begin(), catalog.end()).size(), catalog.size());
  EXPECT_EQ(FindMutant("ties_away"), &AllMutants()[0]);
  EXPECT_EQ(FindMutant("no_such_mutant"), nullptr);
}

TEST(MutantCatalog, EveryMutantHasAKnownCase) {
  std::set<std::string> covered;
  for (const Row& r : Rows()) covered.insert(r.mutant);
  for (const MutantInfo& m : AllMutants()) {
    EXPECT_TRUE(covered.count(std::string(m.name))) << m.name << " has no row in mutants_cases.inc";
  }
}

TEST(MutantCases, DiffersWhereTheFaultApplies) {
  for (const Row& r : Rows()) {
    SCOPED_TRACE(r.mutant + ": " + Show(r.differs));
    const MutantInfo* m = FindMutant(r.mutant);
    ASSERT_NE(m, nullptr);
    const Case c = Build(r.differs);
    const Encoded expected = EvaluateOracle(c);
    const Encoded got = EvaluateMutant(*m, c);
    EXPECT_EQ(expected.word, r.oracle.word);
    EXPECT_EQ(expected.status, r.oracle.flags);
    EXPECT_EQ(got.word, r.mutant_says.word);
    EXPECT_EQ(got.status, r.mutant_says.flags);
    EXPECT_FALSE(got == expected);
  }
}

TEST(MutantCases, AgreesWhereTheFaultDoesNotApply) {
  for (const Row& r : Rows()) {
    SCOPED_TRACE(r.mutant + ": " + Show(r.agrees));
    const MutantInfo* m = FindMutant(r.mutant);
    ASSERT_NE(m, nullptr);
    const Case c = Build(r.agrees);
    const Encoded expected = EvaluateOracle(c);
    const Encoded got = EvaluateMutant(*m, c);
    EXPECT_EQ(expected.word, r.agreed.word);
    EXPECT_EQ(expected.status, r.agreed.flags);
    EXPECT_EQ(got.word, r.agreed.word);
    EXPECT_EQ(got.status, r.agreed.flags);
  }
}

bool Touches(const MutantInfo& m, const std::string& op) {
  std::stringstream list{std::string(m.ops)};
  for (std::string name; std::getline(list, name, ',');) {
    if (name == op) return true;
  }
  return false;
}

// A small sample of every default-suite pair: the op's own domain with 40 samples per sampled
// pair, and 40 evenly spread codes of each exhaustive one.
struct Sampled {
  Case c;
  Encoded expected;
};

const std::vector<Sampled>& SampleCases() {
  static const std::vector<Sampled> cases = [] {
    std::vector<Sampled> out;
    const generator::SamplingOptions sampling{7, 40};
    for (const generator::Job& job : generator::DefaultSuite()) {
      const generator::InputSet set = job.op->domain(job.pair, sampling);
      const std::uint64_t step = set.count > 40 ? set.count / 40 : 1;
      for (std::uint64_t i = 0; i < set.count; i += step) {
        for (const auto& control : generator::ControlsFor(*job.op, job.pair)) {
          Case c;
          c.op = job.op;
          c.pair = job.pair;
          c.control = control;
          c.in = set.at(i);
          out.push_back({c, EvaluateOracle(c)});
        }
      }
    }
    return out;
  }();
  return cases;
}

TEST(MutantCases, AgreesOnEverySampledCaseOfTheOpsItDoesNotTouch) {
  for (const MutantInfo& m : AllMutants()) {
    std::uint64_t checked = 0;
    std::uint64_t differing = 0;
    for (const auto& [c, expected] : SampleCases()) {
      if (Touches(m, c.op->name)) continue;
      const Encoded got = EvaluateMutant(m, c);
      ++checked;
      if (!(got == expected)) {
        ++differing;
        ADD_FAILURE() << m.name << " differs on " << generator::EvalCommand(c) << ": "
                      << generator::HexWord(got.word, c.pair.dst) << " vs "
                      << generator::HexWord(expected.word, c.pair.dst);
      }
    }
    EXPECT_GT(checked, 50U) << m.name;  // rto_as_rtz touches every op with controls
    EXPECT_EQ(differing, 0U) << m.name;
  }
}

TEST(MutantCases, EveryMutantAgreesOnMostSampledCasesOfItsOwnOps) {
  // A fault of a real kind changes a corner, not everything: at least a third of the sampled
  // cases of the ops a mutant touches still agree (a random corruption would fail this; the
  // widest fault, shift_logical, differs on every negative value, about half the shift cases).
  for (const MutantInfo& m : AllMutants()) {
    std::uint64_t checked = 0;
    std::uint64_t agreeing = 0;
    for (const auto& [c, expected] : SampleCases()) {
      if (!Touches(m, c.op->name)) continue;
      ++checked;
      if (EvaluateMutant(m, c) == expected) ++agreeing;
    }
    EXPECT_GT(checked, 0U) << m.name;
    EXPECT_GE(3 * agreeing, checked) << m.name << ": " << agreeing << " of " << checked;
  }
}

// The fault kinds of issue 13 section 4, each on a case worked out by hand from the bug it
// models (the rows above were found by the scan; these show the kind as the issue states it).
struct Worked {
  std::string mutant;
  Known k;
  Answer oracle;
  Answer mutant_says;
};

TEST(MutantCases, NewFaultKindsOnWorkedCases) {
  const std::vector<Worked> worked = {
      // 2^-23 * 0x801234 / 2^23: shift 14 + 23 = 37 taken as 5, 0x801234 / 32 = 262289.625
      // rounds to 0x40092, packed in 8 bits: 0x92 instead of 0 (UF|NX either way).
      {"fp8_tiny_shift_wraps",
       {"encode", "fp32", "e4m3", "RNE", false, {"0x34001234"}},
       {0x00, 0x18},
       {0x92, 0x18}},
      // 300 rounds to 288 (0x79) in the top binade: overflow (NaN, or 240 under Sat).
      {"e4m3_top_binade_saturates",
       {"encode", "fp16", "e4m3", "RNE", false, {"0x5cb0"}},
       {0x79, 0x10},
       {0x7f, 0x14}},
      {"e4m3_top_binade_saturates",
       {"encode", "fp16", "e4m3", "RNE", true, {"0x5cb0"}},
       {0x79, 0x10},
       {0x77, 0x14}},
      // 1.9375 is the tie between 1.875 (0x3F) and 2.0 (0x40): RNE gives 2.0, the lost carry 1.0.
      {"e4m3_mantissa_carry_lost",
       {"encode", "fp16", "e4m3", "RNE", false, {"0x3fc0"}},
       {0x40, 0x10},
       {0x38, 0x10}},
      // Just above half the smallest FP16 subnormal: rounds up to it with UF|NX; UF alone.
      {"uf_without_nx",
       {"encode", "fp32", "fp16", "RNE", false, {"0x33000001"}},
       {0x0001, 0x18},
       {0x0001, 0x08}},
      // 65536 overflows FP16; Sat clamps to 65504 with OF|NX, the mutant with NX only.
      {"sat_overflow_of_dropped",
       {"encode", "fp32", "fp16", "RNE", true, {"0x47800000"}},
       {0x7bff, 0x14},
       {0x7bff, 0x10}},
      // 200 * 1 + (-100) = 100; clamped first: 127 - 100 = 27.
      {"tquant_clamp_before_zero_point",
       {"tquant", "fp32", "s8", "RNE", true, {"0x43480000", "0x3f800000", "0x9c"}},
       {0x64, 0x00},
       {0x1b, 0x00}},
      // (1 - 2^-24)(1 + 2^-23) = 1 + 2^-24 - 2^-47 rounds up to 2 under RTP; its FP32 product is
      // 1.0 (NX), which RTP leaves at 1.
      {"tquant_product_rounded_fp32",
       {"tquant", "fp32", "s8", "RTP", false, {"0x3f7fffff", "0x3f800001", "0x00"}},
       {0x02, 0x10},
       {0x01, 0x10}},
      // (3 - 1)(1 + 2^-23) = 2 + 2^-22 exactly; 3s rounds to 3 + 2^-21 (a tie to even), minus
      // 1 + 2^-23 is 2 + 3 * 2^-23, a tie again, to 2 + 2^-21.
      {"tdequant_two_products",
       {"tdequant", "s8", "fp32", "RNE", false, {"0x03", "0x3f800001", "0x01"}},
       {0x40000001, 0x00},
       {0x40000002, 0x10}},
      // 100 - (-100) = 200 wraps to -56 in 8 bits.
      {"tdequant_difference_8bit",
       {"tdequant", "s8", "fp32", "RNE", false, {"0x64", "0x3f800000", "0x9c"}},
       {0x43480000, 0x00},
       {0xc2600000, 0x00}},
      // -2 into U8: wraps to 0xFE (0 under Sat) with OF|NX; the mutant says NX.
      {"unsigned_negative_nx_only",
       {"encode", "fp16", "u8", "RNE", false, {"0xc000"}},
       {0xfe, 0x14},
       {0xfe, 0x10}},
      {"unsigned_negative_nx_only",
       {"encode", "fp16", "u8", "RNE", true, {"0xc000"}},
       {0x00, 0x14},
       {0x00, 0x10}},
      // affine width 9: -2.5 * 1.0 rounds (RNE, NX) to the S9 intermediate -2, + 1 = -1 is
      // below U8's range: 0xFF with OF|NX; the mutant keeps the intermediate's NX only.
      {"unsigned_negative_nx_only",
       {"affine", "fp32", "u8", "RNE", false, {"0xc0200000", "0x1fc00", "0x00000001", "0x09"}},
       {0xff, 0x14},
       {0xff, 0x10}},
      // affine width 0 (offset 0): -1.5 rounds (RNE) to -2: 0xFE with OF|NX, NX for the mutant.
      {"unsigned_negative_nx_only",
       {"affine", "fp32", "u8", "RNE", false, {"0xbfc00000", "0x1fc00", "0x00000000", "0x00"}},
       {0xfe, 0x14},
       {0xfe, 0x10}},
      // The cases: 1 >> 1 is 0, rounded (1 + 1) >> 1 is 1; 64 >> 7 is 0, (64 + 64) >> 7 1.
      {"shift_rounds",
       {"shift", "s32", "s16", "RNE", false, {"0x00000001", "0x01"}},
       {0x0000, 0x00},
       {0x0001, 0x00}},
      {"shift_rounds",
       {"shift", "s32", "s16", "RNE", false, {"0x00000040", "0x07"}},
       {0x0000, 0x00},
       {0x0001, 0x00}},
      // 65536 >> 1 = 32768 clamps to 0x7FFF (OF|NX); wrapped it is 0x8000 with no flag.
      {"shift_wraps",
       {"shift", "s32", "s16", "RNE", false, {"0x00010000", "0x01"}},
       {0x7fff, 0x14},
       {0x8000, 0x00}},
      // 16 = 2^4 is HiF8 0x40; with the band's exponent sign inverted 0x50, i.e. 2^-4.
      {"hif8_encode_band_sign_flipped",
       {"encode", "fp16", "hif8", "RNE", false, {"0x4c00"}},
       {0x40, 0x00},
       {0x50, 0x00}},
      // Issue 27's kinds. -128.5 rounds (RNE) to -128, in range: NX; the range test before
      // rounding says NV.
      {"most_negative_integer_nv",
       {"encode", "fp32", "s8", "RNE", false, {"0xc3008000"}},
       {0x80, 0x10},
       {0x80, 0x01}},
      // -65536.5 rounds (RNE) to -65536 = -2^16, which wraps to 0 with OF|NX; the test on the
      // wrapped word misses the overflow.
      {"unsigned_minus_2w_nx_only",
       {"encode", "fp32", "u16", "RNE", false, {"0xc7800040"}},
       {0x0000, 0x14},
       {0x0000, 0x10}},
      // 65536 overflows FP16: +Inf with OF|NX, flagged NV|NX.
      {"int_to_fp16_overflow_nv",
       {"encode", "s32", "fp16", "RNE", false, {"0x00010000"}},
       {0x7c00, 0x14},
       {0x7c00, 0x11}},
      // 2^31 clamps to INT32_MAX under Sat; INT32_MAX in FP32 is 2^31, which wraps.
      {"sat_clamp_in_source_float",
       {"encode", "fp32", "s32", "RNE", true, {"0x4f000000"}},
       {0x7fffffff, 0x14},
       {0x80000000, 0x14}},
      // 32767 in FP16 is 32768 (RNE), which wraps to -32768.
      {"sat_clamp_in_source_float",
       {"encode", "fp16", "s16", "RNE", true, {"0x7800"}},
       {0x7fff, 0x14},
       {0x8000, 0x14}},
      // 2^31 + 256 wraps to 0x0100 in S16; the host's int32 conversion gives 0x80000000.
      {"float_to_int_host_undefined",
       {"encode", "fp32", "s16", "RNE", false, {"0x4f000001"}},
       {0x0100, 0x14},
       {0x0000, 0x14}},
      {"float_to_int_host_undefined",
       {"encode", "fp32", "s32", "RNE", false, {"0x4f800001"}},
       {0x00000200, 0x14},
       {0x80000000, 0x14}},
      // 2^-7 is the E4M3 subnormal 0x04; on the normal path with a zero exponent field, 0x00.
      {"e4m3_subnormal_boundary_low",
       {"encode", "fp32", "e4m3", "RNE", false, {"0x3c000000"}},
       {0x04, 0x00},
       {0x00, 0x00}},
      // 512 = 2^9 overflows (0x7F with OF|NX); its biased exponent 16 wraps to 0: code 0x00.
      {"e4m3_exponent_wraps",
       {"encode", "fp32", "e4m3", "RNE", false, {"0x44000000"}},
       {0x7f, 0x14},
       {0x00, 0x00}},
      // 1 + 3/32 rounds (RNE) to 1.125 (0x39); truncated, 1.0 (0x38).
      {"e4m3_truncates",
       {"encode", "fp16", "e4m3", "RNE", false, {"0x3c60"}},
       {0x39, 0x10},
       {0x38, 0x10}},
      // 1 + 1/32 under RTO: the odd neighbour 1.125 (0x39); half-to-odd takes the nearest, 1.0.
      {"rto_half_to_odd",
       {"encode", "fp16", "e4m3", "RTO", false, {"0x3c20"}},
       {0x39, 0x10},
       {0x38, 0x10}},
      // 1.5 under RTP is 2^1 (0x80); the floor exponent gives 2^0 (0x7F).
      {"e8m0_floor_every_mode",
       {"tcvt", "fp16", "e8m0", "RTP", false, {"0x3e00"}},
       {0x80, 0x10},
       {0x7f, 0x10}},
      // -1.0: 0xFF with NV; with the sign bit in the exponent field, 2^0 * 2^32: 0x9F.
      {"e8m0_sign_leaks_into_exponent",
       {"tcvt", "fp16", "e8m0", "RNE", false, {"0xbc00"}},
       {0xff, 0x01},
       {0x9f, 0x00}},
      // -2.0 is converted as 2.0 (0x80) without NV; a NaN as an Inf.
      {"e8m0_specials_given_exponent",
       {"tcvt", "fp16", "e8m0", "RNE", false, {"0xc000"}},
       {0xff, 0x01},
       {0x80, 0x00}},
      {"e8m0_specials_given_exponent",
       {"tcvt", "fp16", "e8m0", "RNE", true, {"0x7e00"}},
       {0xff, 0x01},
       {0xfe, 0x14}},
      // 8 into S4 wraps to -8 (0x8); always clamped, 7.
      {"narrow_int_always_clamped",
       {"encode", "fp16", "s4x2", "RNE", false, {"0x4800"}},
       {0x8, 0x14},
       {0x7, 0x14}},
      // 128 into S8 under Sat clamps to 127; an unspecialised limits table gives 0.
      {"sat_limits_zero",
       {"encode", "fp16", "s8", "RNE", true, {"0x5800"}},
       {0x7f, 0x14},
       {0x00, 0x14}},
      // 0.49999997 + 100 is 100.5 in FP32, which RNA takes to 101; exactly, 100.
      {"tquant_fp32_sum_rounded",
       {"tquant", "fp32", "s8", "RNA", false, {"0x3effffff", "0x3f800000", "0x64"}},
       {0x64, 0x10},
       {0x65, 0x10}},
      // The NaN 0x7F800001 narrows to 0x3FF00; its raw bits rounded give the FP19 Inf 0x3FC00.
      {"fp19_nan_payload_truncated",
       {"qparam", "fp32", "u64", "RNE", false, {"0x7f800001", "0x00000000", "0x00"}},
       {0x7fe00000, 0x00},
       {0x7f800000, 0x00}},
  };
  for (const Worked& w : worked) {
    SCOPED_TRACE(w.mutant + ": " + Show(w.k));
    const MutantInfo* m = FindMutant(w.mutant);
    ASSERT_NE(m, nullptr);
    const Case c = Build(w.k);
    const Encoded expected = EvaluateOracle(c);
    const Encoded got = EvaluateMutant(*m, c);
    EXPECT_EQ(expected.word, w.oracle.word);
    EXPECT_EQ(expected.status, w.oracle.flags);
    EXPECT_EQ(got.word, w.mutant_says.word);
    EXPECT_EQ(got.status, w.mutant_says.flags);
  }
}

// ---- the product's fault models (generator/include/ptovec/generator/faults.hpp) -------------

using generator::FaultKind;
using generator::FaultModel;
using generator::GenericKind;

TEST(FaultModels, AgreeWithTheOracleWhereTheirFilterSaysTheyCannotApply) {
  for (const Row& r : Rows()) {
    const Case c = Build(r.differs);
    EXPECT_TRUE(FindMutant(r.mutant)->fault->applies(*c.op, c.pair)) << r.mutant;
  }
  for (const MutantInfo& m : AllMutants()) {
    std::uint64_t filtered = 0;
    for (const auto& [c, expected] : SampleCases()) {
      if (m.fault->applies(*c.op, c.pair)) continue;
      ++filtered;
      const Encoded got = EvaluateMutant(m, c);
      EXPECT_TRUE(got == expected) << m.fault->name << " differs on " << generator::EvalCommand(c)
                                   << " where its filter says it cannot apply";
    }
    EXPECT_GT(filtered, 50U) << m.fault->name;
  }
}

/// The answer of a fault's generic explanation, computed from the registry (`c.op->evaluate`
/// under other controls, two encodes, or the behaviour model), or nullopt where it is not
/// defined (double rounding of a pair without the two encode pairs).
std::optional<Encoded> GenericAnswer(const generator::GenericExplanation& g, const Case& c) {
  const auto with = [&](generator::NumericExecutionControl control) {
    Case d = c;
    d.control = control;
    return EvaluateOracle(d);
  };
  const bool controls = c.op->uses_controls;
  switch (g.kind) {
    case GenericKind::ModeAs:
      if (!controls || (g.from && c.control.rounding_mode != *g.from)) return EvaluateOracle(c);
      return with({g.to, c.control.saturating});
    case GenericKind::SatIgnored:
      return controls ? with({c.control.rounding_mode, false}) : EvaluateOracle(c);
    case GenericKind::SatAlwaysOn:
      return controls ? with({c.control.rounding_mode, true}) : EvaluateOracle(c);
    case GenericKind::Deviation:
      return generator::EvaluateModel(*c.op, c.pair, c.in, c.control,
                                      {oracle::DeviationBit(g.deviation)})
          .result;
    case GenericKind::DoubleRounding: {
      const generator::TypePair first{c.pair.src, g.through};
      const generator::TypePair second{g.through, c.pair.dst};
      const auto& legal = c.op->legal_pairs;
      if (std::find(legal.begin(), legal.end(), first) == legal.end() ||
          std::find(legal.begin(), legal.end(), second) == legal.end()) {
        return std::nullopt;
      }
      const Encoded a = c.op->evaluate(first, c.in, {oracle::NumericRoundingMode::RNE, false});
      if ((a.status & oracle::kStatusOF) != 0) return EvaluateOracle(c);  // not double rounded
      const Encoded b = c.op->evaluate(second, {a.word}, c.control);
      return Encoded{b.word, static_cast<oracle::Status>(a.status | b.status)};
    }
    case GenericKind::EditionAs:  // no fault model is another edition's rules
    case GenericKind::None:
      break;
  }
  return std::nullopt;
}

/// Zeros and tiny values of both signs for every default-suite pair with a floating source, under
/// every control, beside SampleCases (whose spread codes may miss -0).
const std::vector<Sampled>& ZeroCases() {
  static const std::vector<Sampled> cases = [] {
    std::vector<Sampled> out;
    for (const generator::Job& job : generator::DefaultSuite()) {
      if (job.op->name != "encode" || !oracle::Format(job.pair.src).IsFloating()) continue;
      const oracle::Word sign = oracle::Word{1} << (oracle::Format(job.pair.src).width - 1);
      for (const oracle::Word code : {oracle::Word{0}, sign, sign | 1, oracle::Word{1}, sign | 3}) {
        for (const auto& control : generator::ControlsFor(*job.op, job.pair)) {
          Case c;
          c.op = job.op;
          c.pair = job.pair;
          c.control = control;
          c.in = {code};
          try {
            out.push_back({c, EvaluateOracle(c)});
          } catch (const std::exception&) {  // a code outside the pair's domain: not a case
          }
        }
      }
    }
    return out;
  }();
  return cases;
}

TEST(FaultModels, GenericKindsAnswerAsTheirGenericExplanation) {
  // Generic: on every sampled case; NarrowedGeneric: wherever its filter lets it apply (elsewhere
  // it is the oracle: the test above).
  for (const MutantInfo& m : AllMutants()) {
    const FaultModel& f = *m.fault;
    if (f.kind == FaultKind::Own) continue;
    std::uint64_t checked = 0;
    std::uint64_t differing = 0;
    std::vector<Sampled> cases = SampleCases();
    cases.insert(cases.end(), ZeroCases().begin(), ZeroCases().end());
    for (const auto& [c, expected] : cases) {
      if (f.kind == FaultKind::NarrowedGeneric && !f.applies(*c.op, c.pair)) continue;
      const std::optional<Encoded> generic = GenericAnswer(f.generic, c);
      if (!generic) continue;
      ++checked;
      const Encoded got = generator::EvaluateFault(f, c);
      if (!(got == *generic) && ++differing <= 5) {
        ADD_FAILURE() << f.name << " (" << f.generic.text << ") on " << generator::EvalCommand(c)
                      << ": " << generator::HexWord(got.word, c.pair.dst) << "/" << int{got.status}
                      << " vs " << generator::HexWord(generic->word, c.pair.dst) << "/"
                      << int{generic->status};
      }
    }
    EXPECT_GT(checked, 100U) << f.name;
    EXPECT_EQ(differing, 0U) << f.name;
  }
}

}  // namespace
}  // namespace ptovec::mutants
