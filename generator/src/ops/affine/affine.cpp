// Op `affine`: MatrixQuantizedAffine (seed 000 lines 133-150), the B.FPATR PreQuant step: the
// value times an FP19 scale, rounded and clamped at an S5/S9/S17 intermediate (width 5/9/17,
// MatrixRoundAndSaturateSigned lines 68-91) or not at all (width 0), plus a signed offset, then
// integer-encoded into the destination (ReferenceMatrixIntegerEncoding lines 108-131). The flags
// of both steps are OR-ed (spec-notes section 5 item 8).
//
// Inputs: value (an FP32 or S32 word), scale (an FP19 word, bits 18:0), offset (an S32 word,
// two's complement) and width (a U8 word: 0, 5, 9 or 17). The domain follows the B.FPATR
// parameter word that MatrixQuantParameter (lines 11-23) packs: the scale is a positive normal
// FP19 (spec-notes section 4), the offset fits the width's signed field, and width 0 has no
// offset field, so its offset is 0 (MatrixQuantOffset, lines 32-41, returns 0 for width 0).
//
// This file: evaluation, the domain check, the outcome classes and the registry entry; the
// sampling strategies are in strategies.cpp.
#include "affine.hpp"

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "../outcome_classes.hpp"
#include "ptovec/generator/domains.hpp"
#include "ptovec/generator/ops.hpp"
#include "ptovec/generator/word_text.hpp"
#include "ptovec/generator/writers.hpp"
#include "ptovec/oracle/dyadic.hpp"
#include "ptovec/oracle/fast.hpp"
#include "ptovec/oracle/fast_matrix_quantization.hpp"
#include "ptovec/oracle/format_edges.hpp"
#include "ptovec/oracle/formats.hpp"
#include "ptovec/oracle/matrix_quantization.hpp"
#include "ptovec/oracle/numeric.hpp"
#include "ptovec/oracle/reference_quantization.hpp"

namespace ptovec::generator {

namespace affine {

std::int64_t S32Of(Word word) {
  return static_cast<std::int32_t>(static_cast<std::uint32_t>(word));
}
Word S32Word(std::int64_t value) {
  return static_cast<std::uint32_t>(
      static_cast<std::int32_t>(std::clamp<std::int64_t>(value, INT32_MIN, INT32_MAX)));
}

Range AffineDestinationRange(TileDataType dst) {
  const oracle::FormatInfo& f = oracle::Format(dst);
  if (f.kind == oracle::FormatKind::SignedInteger) {
    return {-(std::int64_t{1} << (f.width - 1)), (std::int64_t{1} << (f.width - 1)) - 1};
  }
  return {0, (std::int64_t{1} << f.width) - 1};
}

oracle::Dyadic ValueDyadic(TileDataType src, Word value) {
  if (src == TileDataType::S32) return oracle::DyadicFromInteger(S32Of(value));
  return oracle::DyadicFromFiniteCode(TileDataType::FP32, value);
}

oracle::Real ValueReal(TileDataType src, Word value) {
  if (src == TileDataType::S32) {
    return oracle::Real(oracle::ReferenceIntegerValue(value, TileDataType::S32));
  }
  return oracle::ReferenceFP32FiniteValue(value);
}

}  // namespace affine

namespace {

using namespace affine;  // NOLINT(google-build-using-namespace): the op's own parts
using oracle::Format;
using oracle::kFp19MaxNormal;
using oracle::kFp19MinNormal;
using oracle::NumericValueClass;

constexpr std::array<TileDataType, 2> kAffineSources = {TileDataType::FP32, TileDataType::S32};
constexpr std::array<TileDataType, 8> kAffineDestinations = {
    TileDataType::S4X2, TileDataType::U4X2, TileDataType::S8,  TileDataType::U8,
    TileDataType::S16,  TileDataType::U16,  TileDataType::S32, TileDataType::U32};

// ---- evaluation ----

Encoded EvaluateAffine(TypePair pair, const Inputs& in, NumericExecutionControl control) {
  const Encoded r = oracle::FastMatrixQuantizedAffine(
      ValueDyadic(pair.src, in[kValueSlot]),
      oracle::DyadicFromFiniteCode(TileDataType::FP19, in[kScaleSlot]), S32Of(in[kOffsetSlot]),
      static_cast<int>(in[kWidthSlot]), pair.dst, control);
  return {oracle::LowBits(r.word, Format(pair.dst).width), r.status};
}

Encoded EvaluateAffineReference(TypePair pair, const Inputs& in, NumericExecutionControl control) {
  const Encoded r = oracle::MatrixQuantizedAffine(
      ValueReal(pair.src, in[kValueSlot]), oracle::FP19FiniteValue(in[kScaleSlot]),
      oracle::Integer(S32Of(in[kOffsetSlot])), static_cast<int>(in[kWidthSlot]), pair.dst, control);
  return {oracle::LowBits(r.word, Format(pair.dst).width), r.status};
}

std::optional<std::string> CheckAffineDomain(TypePair pair, const Inputs& in) {
  if (pair.src == TileDataType::FP32) {
    const NumericValueClass c = oracle::TileNumericValueClass(TileDataType::FP32, in[kValueSlot]);
    if (oracle::NumericValueClassIsNaN(c) || oracle::NumericValueClassIsInfinity(c)) {
      return "value " + HexWord(in[kValueSlot], TileDataType::FP32) + " is " +
             std::string(oracle::NumericValueClassName(c)) +
             "; affine accepts a finite fp32 value (zeros, subnormals and normals of either sign)";
    }
  }
  const NumericValueClass scale_class =
      oracle::TileNumericValueClass(TileDataType::FP19, in[kScaleSlot]);
  if (scale_class != NumericValueClass::PositiveNormal) {
    return "scale " + HexWord(in[kScaleSlot], TileDataType::FP19) + " is " +
           std::string(oracle::NumericValueClassName(scale_class)) +
           "; affine accepts a positive normal fp19 scale (" +
           HexWord(kFp19MinNormal, TileDataType::FP19) + ".." +
           HexWord(kFp19MaxNormal, TileDataType::FP19) +
           ": sign 0, exponent field 1..254; the B.FPATR rule)";
  }
  return CheckOffsetAndWidth(in[kOffsetSlot], in[kWidthSlot]);
}

}  // namespace

// ---- outcome classes (ptovec coverage): MatrixQuantizedAffine, value * FP19 scale -> S5/S9/S17
// (or not) + offset ----

namespace {

enum AffineClass : unsigned {
  kWidth0,
  kWidth5,
  kWidth9,
  kWidth17,
  kProductInteger,
  kProductTie,
  kProductInexact,
  kIntermediateHigh,
  kIntermediateLow,
  kOffsetNonZero,
  kProductTieUp,
  kProductTieDown,
  kFirst  // then the integer-encode classes of the destination
};

constexpr OwnClass kAffineClasses[] = {
    {"width 0", "no intermediate: value * scale + 0 is encoded directly"},
    {"width 5", "rounded and clamped to S5"},
    {"width 9", "rounded and clamped to S9"},
    {"width 17", "rounded and clamped to S17"},
    {"product integer", "value * scale is an integer"},
    {"product tie", "value * scale is exactly an integer + 1/2"},
    {"product inexact", "value * scale is neither an integer nor a tie"},
    {"intermediate clamp high", "value * scale > the S5/S9/S17 maximum (width 5/9/17)"},
    {"intermediate clamp low", "value * scale < the S5/S9/S17 minimum (width 5/9/17)"},
    {"non-zero offset", "the offset is not 0"},
    {"product tie rounded up",
     "width 5/9/17: value * scale is an integer + 1/2 inside the intermediate's range and is "
     "rounded away from zero (read from the result: no OF, result - offset)"},
    {"product tie rounded down",
     "width 5/9/17: value * scale is an integer + 1/2 inside the intermediate's range and is "
     "rounded toward zero"},
};

// The classes of the input: the width, the product p = value * scale (its lowest set bit at
// 2^low) against the intermediate's range, the offset.
ClassMask AffineInputClasses(int width, const oracle::Dyadic& p, int low, std::int64_t offset) {
  ClassMask m = ClassBit(width == 0   ? kWidth0
                         : width == 5 ? kWidth5
                         : width == 9 ? kWidth9
                                      : kWidth17);
  m |= ClassBit(low >= 0 ? kProductInteger : low == -1 ? kProductTie : kProductInexact);
  if (width != 0) {
    if (oracle::DyadicCompare(p, oracle::DyadicFromInteger(oracle::SignedFieldMaximum(width))) > 0)
      m |= ClassBit(kIntermediateHigh);
    if (oracle::DyadicCompare(p, oracle::DyadicFromInteger(oracle::SignedFieldMinimum(width))) < 0)
      m |= ClassBit(kIntermediateLow);
  }
  if (offset != 0) m |= ClassBit(kOffsetNonZero);
  return m;
}

// The value the destination encodes: value * scale at width 0; with an intermediate an integer
// (the rounding happened there) whose sign is that of value * scale + offset: only its sign is
// used, as ties and rounding to zero are dropped.
oracle::Dyadic EncodedValue(int width, const oracle::Dyadic& p, std::int64_t offset) {
  if (width == 0) return p;
  return oracle::DyadicFromInteger(oracle::DyadicCompare(p, oracle::DyadicFromInteger(-offset)));
}

// The final encoding's classes `integer` of result r under control c, after an intermediate of
// `width` (0: none). Ties and rounding belong to the intermediate step; the encoded value (the
// intermediate + offset) is an integer, so it cannot round onto a range end, and the sign
// EncodedValue passes does not say whether it is -1 or -2^w: that is asked of the intermediate
// itself.
ClassMask FinalEncodingClasses(TileDataType dst, int width, const oracle::Dyadic& p,
                               std::int64_t offset, NumericExecutionControl control, Encoded r,
                               ClassMask integer) {
  if (width == 0) return integer;
  integer &= ~(ClassBit(kIntTieUp) | ClassBit(kIntTieDown) | ClassBit(kIntRoundToZero) |
               ClassBit(kIntMinimumFromBelow) | ClassBit(kIntMinimumFromAbove) |
               ClassBit(kIntMaximumFromAbove) | ClassBit(kIntMaximumFromBelow) |
               ClassBit(kIntRoundsToMinusTwoToW) | ClassBit(kIntRoundsToMinusOne));
  const bool unsigned_dst = oracle::Format(dst).kind == oracle::FormatKind::UnsignedInteger;
  if (unsigned_dst && (r.status & oracle::kStatusOF) != 0) {
    const std::int64_t intermediate =
        oracle::FastMatrixRoundAndSaturateSigned(p, width, control.rounding_mode).first;
    integer |= UnsignedWrapClasses(dst, intermediate + offset);
  }
  return integer;
}

void ClassifyAffine(TileDataType src, TileDataType dst, const Inputs& in,
                    std::span<const NumericExecutionControl> controls, const Encoded* expected,
                    ClassMask* out) {
  const int width = static_cast<int>(in[3]);
  const std::int64_t offset = static_cast<std::int64_t>(oracle::SignExtend(in[2], 32));
  const oracle::Dyadic p = oracle::DyadicProduct(
      ExactWordValue(src, in[0]), oracle::DyadicFromFiniteCode(TileDataType::FP19, in[1]));
  const int low = p.significand == 0 ? 0 : oracle::DyadicLowExponent(p);
  const ClassMask common = AffineInputClasses(width, p, low, offset);
  // The intermediate's tie rule, read from each result: result - offset is the rounded
  // intermediate when nothing was clamped (no intermediate clamp, no OF).
  const bool tie_in_range =
      width != 0 && low == -1 &&
      (common & (ClassBit(kIntermediateHigh) | ClassBit(kIntermediateLow))) == 0;
  // The final encoding's classes, of value * scale (width 0) or of the clamped intermediate +
  // offset as the destination sees it: its ties and signs are those of the product at width 0;
  // with an intermediate the encoded value is an integer.
  ClassMask integer[14];
  const std::size_t n = std::min<std::size_t>(controls.size(), 14);
  ClassifyIntegerEncode(dst, EncodedValue(width, p, offset), controls.first(n), expected, integer);
  for (std::size_t c = 0; c < controls.size(); ++c) {
    ClassMask m = common;
    if (tie_in_range && (expected[c].status & oracle::kStatusOF) == 0) {
      const oracle::Dyadic intermediate =
          oracle::DyadicFromInteger(IntegerWordValue(dst, expected[c].word) - offset);
      m |= ClassBit(oracle::DyadicCompareMagnitude(intermediate, p) > 0 ? kProductTieUp
                                                                        : kProductTieDown);
    }
    if (c < n) {
      m |= FinalEncodingClasses(dst, width, p, offset, controls[c], expected[c], integer[c])
           << kFirst;
    }
    out[c] = m;
  }
}

}  // namespace

OutcomeClassTable AffineOutcomeClasses(TypePair pair) {
  OutcomeClassTable table =
      MakeOutcomeClassTable(kAffineClasses, std::bind_front(ClassifyAffine, pair.src, pair.dst));
  for (const OutcomeClass& c : IntegerEncodeClassNames()) {
    table.classes.push_back(
        {"dst " + c.name, c.description + " (the final integer encoding)", c.twin_side});
  }
  return table;
}

OpDef MakeAffineOp() {
  OpDef op;
  op.name = "affine";
  op.instruction = "B.FPATR PreQuant";
  op.seed_function = "MatrixQuantizedAffine";
  op.seed_source =
      "000_93cee333e42f6460.txt lines 133-150 (MatrixRoundAndSaturateSigned lines 68-91, "
      "ReferenceMatrixIntegerEncoding lines 108-131)";
  op.summary =
      "B.FPATR PreQuant: value * FP19 scale, rounded and clamped to S5/S9/S17 (width 5/9/17; "
      "not at width 0), plus the signed offset, integer-encoded into dst; flags of both steps "
      "OR-ed";
  op.slots = {
      {"value", SlotRole::Source, TileDataType::FP32,
       "the value: a finite src word (fp32: NaN and Inf rejected; s32: any two's complement word)"},
      {"scale", SlotRole::Fixed, TileDataType::FP19,
       "the B.FPATR scale: an fp19 word (bits 18:0), a positive normal 0x00400..0x3fbff"},
      {"offset", SlotRole::Fixed, TileDataType::S32,
       "the signed offset, two's complement: width 5 -16..15, 9 -256..255, 17 -65536..65535; "
       "width 0 only 0 (a width-0 parameter word has no offset field)"},
      {"width", SlotRole::Fixed, TileDataType::U8,
       "the intermediate width: 0 (no intermediate), 5, 9 or 17 (round and clamp to S5/S9/S17)"},
  };
  op.uses_controls = true;
  for (TileDataType src : kAffineSources) {
    for (TileDataType dst : kAffineDestinations) op.legal_pairs.push_back({src, dst});
  }
  op.default_suite_pairs = op.legal_pairs;
  op.evaluate = EvaluateAffine;
  op.evaluate_reference = EvaluateAffineReference;
  op.check_domain = CheckAffineDomain;
  op.plan = [](TypePair pair) {
    return DomainPlan::Sampled(AffineStrategies(pair), [pair] { return UniformAffine(pair); });
  };
  op.outcome_classes = AffineOutcomeClasses;
  return op;
}

}  // namespace ptovec::generator
