// Exhaustive proof that the fast encoders (fast.hpp) equal the literal seed functions on every
// 8- and 16-bit floating input: every finite FP16, BF16, E4M3 and HiF8 code (both zeros
// included) as the value, into every destination (FP32, FP16, BF16, E4M3, HiF8; S4X2 U4X2 S8 U8
// S16 U16 S32 U32), under all 7 rounding modes and both Sat values.
//
// The literal forms are slow (ReferenceFP8Encoding about 30 us a call), so:
//  * The 16-bit sources are split into shards (codes c with c % count == index), one test each,
//    so that every test stays well under a minute and ctest can run them in parallel.
//  * The literal floating encoders are called once per (code, mode) with Sat off, and again with
//    Sat on only when that result carries OF. The reuse is sound because each literal function
//    reads control.saturating only inside a branch that returns status 0x14: seed 000 lines
//    185/221 (ReferenceBinary16Encoding), 355 (ReferenceFP8Encoding), 461 (the FP32 branch of
//    ReferenceMatrixFloatingEncoding, which with Sat off or without OF returns
//    ReferenceFP32FiniteEncoding's result unchanged), and ReferenceMatrixFloatingEncoding is a
//    pure dispatch for the other types (lines 466-471). Test FastExhaustiveReuse checks these
//    facts against the literal functions themselves on every 8-bit code and a spread of 16-bit
//    codes. The fast forms are called for every (code, mode, Sat) and compared.
//  * Integer destinations call the literal ReferenceMatrixIntegerEncoding for every
//    (code, type, mode, Sat) (it is cheap).
#include <gtest/gtest.h>

#include <sstream>
#include <string>
#include <vector>

#include "ptovec/oracle/fast.hpp"
#include "ptovec/oracle/matrix_quantization.hpp"
#include "ptovec/oracle/reference_quantization.hpp"
#include "test_support.hpp"

namespace ptovec::oracle {
namespace fast_exhaustive_test {
namespace {

using test_support::Mismatches;
using test_support::Show;

enum class Group { FP32, FP16, BF16, E4M3, HiF8, Integers };

constexpr std::array<TileDataType, 8> kIntegerTypes = {
    TileDataType::S4X2, TileDataType::U4X2, TileDataType::S8,  TileDataType::U8,
    TileDataType::S16,  TileDataType::U16,  TileDataType::S32, TileDataType::U32};

std::string GroupName(Group g) {
  switch (g) {
    case Group::FP32:
      return "FP32";
    case Group::FP16:
      return "FP16";
    case Group::BF16:
      return "BF16";
    case Group::E4M3:
      return "E4M3";
    case Group::HiF8:
      return "HiF8";
    case Group::Integers:
      return "Integers";
  }
  return "?";
}

TileDataType GroupType(Group g) {
  switch (g) {
    case Group::FP32:
      return TileDataType::FP32;
    case Group::FP16:
      return TileDataType::FP16;
    case Group::BF16:
      return TileDataType::BF16;
    case Group::E4M3:
      return TileDataType::E4M3;
    case Group::HiF8:
      return TileDataType::HiF8;
    case Group::Integers:
      break;
  }
  return TileDataType::S8;
}

constexpr bool HasOF(const Encoded& e) { return (e.status & kStatusOF) != 0; }

std::string Where(TileDataType source, Word code, TileDataType destination,
                  NumericExecutionControl c) {
  std::ostringstream out;
  out << Format(source).spec_name << " 0x" << std::hex << code << " -> "
      << Format(destination).spec_name << " " << RoundingModeName(c.rounding_mode)
      << (c.saturating ? " Sat" : "");
  return out.str();
}

/// Compares every fast form reaching `group` with the literal forms on one source code, all
/// modes, both Sat values.
void CheckCode(TileDataType source, Word code, Group group, Mismatches& m) {
  const Dyadic d = DyadicFromFiniteCode(source, code);
  const Real v = TileNumericFiniteValue(source, code);
  for (const NumericRoundingMode mode : kAllRoundingModes) {
    const NumericExecutionControl off{mode, false};
    const NumericExecutionControl on{mode, true};
    switch (group) {
      case Group::FP32: {
        const Encoded e0 = ReferenceFP32FiniteEncoding(v, mode);
        const Encoded e1 =
            HasOF(e0) ? ReferenceMatrixFloatingEncoding(v, TileDataType::FP32, on) : e0;
        m.Check(FastFP32FiniteEncoding(d, mode), e0,
                Where(source, code, TileDataType::FP32, off) + " FastFP32FiniteEncoding");
        m.Check(FastMatrixFloatingEncoding(d, TileDataType::FP32, off), e0,
                Where(source, code, TileDataType::FP32, off));
        m.Check(FastMatrixFloatingEncoding(d, TileDataType::FP32, on), e1,
                Where(source, code, TileDataType::FP32, on));
        break;
      }
      case Group::FP16:
      case Group::BF16: {
        const TileDataType t = GroupType(group);
        const Encoded e0 = ReferenceBinary16Encoding(v, t, off);
        const Encoded e1 = HasOF(e0) ? ReferenceBinary16Encoding(v, t, on) : e0;
        m.Check(FastBinary16Encoding(d, t, off), e0, Where(source, code, t, off));
        m.Check(FastBinary16Encoding(d, t, on), e1, Where(source, code, t, on));
        m.Check(FastMatrixFloatingEncoding(d, t, off), e0, Where(source, code, t, off) + " M");
        m.Check(FastMatrixFloatingEncoding(d, t, on), e1, Where(source, code, t, on) + " M");
        break;
      }
      case Group::E4M3:
      case Group::HiF8: {
        const TileDataType t = GroupType(group);
        const Encoded e0 = ReferenceFP8Encoding(v, t, off);
        const Encoded e1 = HasOF(e0) ? ReferenceFP8Encoding(v, t, on) : e0;
        m.Check(FastFP8Encoding(d, t, off), e0, Where(source, code, t, off));
        m.Check(FastFP8Encoding(d, t, on), e1, Where(source, code, t, on));
        m.Check(FastMatrixFloatingEncoding(d, t, off), e0, Where(source, code, t, off) + " M");
        m.Check(FastMatrixFloatingEncoding(d, t, on), e1, Where(source, code, t, on) + " M");
        break;
      }
      case Group::Integers:
        for (const TileDataType t : kIntegerTypes) {
          for (const NumericExecutionControl c : {off, on}) {
            m.Check(FastMatrixIntegerEncoding(d, t, c), ReferenceMatrixIntegerEncoding(v, t, c),
                    Where(source, code, t, c));
          }
        }
        break;
    }
  }
}

bool Finite(TileDataType type, Word code) {
  return TileNumericFiniteDecomposition(type, code).available;
}

// ---------------------------------------------------------------------------------------------
// 16-bit sources, sharded.
// ---------------------------------------------------------------------------------------------

struct Shard {
  TileDataType source;
  Group group;
  int index;
  int count;
};

void PrintTo(const Shard& s, std::ostream* os) {
  *os << Format(s.source).spec_name << " to " << GroupName(s.group) << ", codes = " << s.index
      << " mod " << s.count;
}

std::vector<Shard> AllShards() {
  std::vector<Shard> shards;
  for (const TileDataType source : {TileDataType::FP16, TileDataType::BF16}) {
    for (const auto& [group, count] : std::vector<std::pair<Group, int>>{{Group::FP32, 2},
                                                                         {Group::FP16, 2},
                                                                         {Group::BF16, 2},
                                                                         {Group::E4M3, 16},
                                                                         {Group::HiF8, 16},
                                                                         {Group::Integers, 1}}) {
      for (int i = 0; i < count; ++i) shards.push_back({source, group, i, count});
    }
  }
  return shards;
}

class FastExhaustive16 : public testing::TestWithParam<Shard> {};

TEST_P(FastExhaustive16, EqualsLiteral) {
  const Shard s = GetParam();
  Mismatches m;
  for (Word code = static_cast<Word>(s.index); code < 0x10000; code += static_cast<Word>(s.count)) {
    if (Finite(s.source, code)) CheckCode(s.source, code, s.group, m);
  }
  EXPECT_EQ(m.count(), 0) << "mismatches out of " << m.checked();
  EXPECT_GT(m.checked(), 0);
}

INSTANTIATE_TEST_SUITE_P(Fast, FastExhaustive16, testing::ValuesIn(AllShards()),
                         [](const testing::TestParamInfo<Shard>& p) {
                           const Shard& s = p.param;
                           std::string name =
                               std::string(Format(s.source).spec_name) + "To" + GroupName(s.group);
                           if (s.count > 1) {
                             name += "_" + std::to_string(s.index) + "of" + std::to_string(s.count);
                           }
                           return name;
                         });

// ---------------------------------------------------------------------------------------------
// 8-bit sources.
// ---------------------------------------------------------------------------------------------

class FastExhaustive8 : public testing::TestWithParam<TileDataType> {};

}  // namespace
}  // namespace fast_exhaustive_test

// gtest prints the parameter with PrintTo, found by argument-dependent lookup in TileDataType's
// namespace.
[[maybe_unused]] static void PrintTo(TileDataType t, std::ostream* os) {
  *os << Format(t).spec_name;
}

namespace fast_exhaustive_test {
namespace {

TEST_P(FastExhaustive8, EqualsLiteral) {
  const TileDataType source = GetParam();
  Mismatches m;
  for (Word code = 0; code < 0x100; ++code) {
    if (!Finite(source, code)) continue;
    for (const Group g :
         {Group::FP32, Group::FP16, Group::BF16, Group::E4M3, Group::HiF8, Group::Integers}) {
      CheckCode(source, code, g, m);
    }
  }
  EXPECT_EQ(m.count(), 0) << "mismatches out of " << m.checked();
}

INSTANTIATE_TEST_SUITE_P(Fast, FastExhaustive8,
                         testing::Values(TileDataType::E4M3, TileDataType::HiF8),
                         [](const testing::TestParamInfo<TileDataType>& p) {
                           return std::string(Format(p.param).spec_name);
                         });

// ---------------------------------------------------------------------------------------------
// The reuse facts the 16-bit shards rely on, checked on the literal functions themselves.
// ---------------------------------------------------------------------------------------------

// For every 8-bit code and every 509th 16-bit code (a spread over all exponents), all modes:
//  * without OF, each literal floating encoder gives the same result with Sat on and off;
//  * ReferenceMatrixFloatingEncoding equals ReferenceFP32FiniteEncoding (Sat off, or no OF) and
//    ReferenceBinary16Encoding / ReferenceFP8Encoding (always).
struct ReuseSource {
  TileDataType type;
  Word end;
  Word step;
};

void PrintTo(const ReuseSource& s, std::ostream* os) {
  *os << Format(s.type).spec_name << " every " << s.step << " codes";
}

class FastExhaustiveReuse : public testing::TestWithParam<ReuseSource> {};

TEST_P(FastExhaustiveReuse, SatAndDispatchReuseHoldsForTheLiteralFunctions) {
  const ReuseSource src = GetParam();
  int failures = 0;
  long checked = 0;
  for (Word code = 0; code < src.end; code += src.step) {
    if (!Finite(src.type, code)) continue;
    const Real v = TileNumericFiniteValue(src.type, code);
    for (const NumericRoundingMode mode : kAllRoundingModes) {
      const NumericExecutionControl off{mode, false};
      const NumericExecutionControl on{mode, true};
      const auto expect = [&](const Encoded& a, const Encoded& b, const char* what) {
        ++checked;
        if (a == b) return;
        if (++failures <= 20) {
          ADD_FAILURE() << what << " " << Format(src.type).spec_name << " 0x" << std::hex << code
                        << " " << RoundingModeName(mode) << ": " << Show(a) << " vs " << Show(b);
        }
      };
      const Encoded f32 = ReferenceFP32FiniteEncoding(v, mode);
      expect(ReferenceMatrixFloatingEncoding(v, TileDataType::FP32, off), f32, "FP32 off");
      if (!HasOF(f32)) {
        expect(ReferenceMatrixFloatingEncoding(v, TileDataType::FP32, on), f32, "FP32 on");
      }
      for (const TileDataType t : {TileDataType::FP16, TileDataType::BF16}) {
        const Encoded e0 = ReferenceBinary16Encoding(v, t, off);
        const Encoded e1 = ReferenceBinary16Encoding(v, t, on);
        if (!HasOF(e0)) expect(e1, e0, "Binary16 Sat");
        expect(ReferenceMatrixFloatingEncoding(v, t, off), e0, "Binary16 dispatch off");
        expect(ReferenceMatrixFloatingEncoding(v, t, on), e1, "Binary16 dispatch on");
      }
      for (const TileDataType t : {TileDataType::E4M3, TileDataType::HiF8}) {
        const Encoded e0 = ReferenceFP8Encoding(v, t, off);
        const Encoded e1 = ReferenceFP8Encoding(v, t, on);
        if (!HasOF(e0)) expect(e1, e0, "FP8 Sat");
        expect(ReferenceMatrixFloatingEncoding(v, t, off), e0, "FP8 dispatch off");
        expect(ReferenceMatrixFloatingEncoding(v, t, on), e1, "FP8 dispatch on");
      }
    }
  }
  EXPECT_EQ(failures, 0) << "out of " << checked;
}

INSTANTIATE_TEST_SUITE_P(Fast, FastExhaustiveReuse,
                         testing::Values(ReuseSource{TileDataType::E4M3, 0x100, 1},
                                         ReuseSource{TileDataType::HiF8, 0x100, 1},
                                         ReuseSource{TileDataType::FP16, 0x10000, 509},
                                         ReuseSource{TileDataType::BF16, 0x10000, 509}),
                         [](const testing::TestParamInfo<ReuseSource>& p) {
                           return std::string(Format(p.param.type).spec_name);
                         });

}  // namespace
}  // namespace fast_exhaustive_test
}  // namespace ptovec::oracle
