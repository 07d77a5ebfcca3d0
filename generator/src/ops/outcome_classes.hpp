// The ops' own outcome-class tables (OpDef::outcome_classes, `ptovec coverage`; docs/coverage.md
// lists every class and which are unreachable): one function per op, each defined beside its op
// (ops/<op>.cpp, ops/affine/, ops/fpatr/), declared here because fpatr reuses the shift and
// affine tables; the encode classifiers that encode, affine and fpatr share (encode_classes.cpp);
// and the integer-word helpers the class blocks read. Every class is decided from the exact input
// value (Dyadic arithmetic, no floating point) and the vector's expected result.
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <vector>

#include "ptovec/generator/ops.hpp"
#include "ptovec/oracle/dyadic.hpp"
#include "ptovec/oracle/formats.hpp"
#include "ptovec/oracle/numeric.hpp"

namespace ptovec::generator {

/// One class of an op's own table, as data: its name, its description and, for a class with a
/// threshold of its own, what side 0 and side 1 are (both null: the generic sides).
struct OwnClass {
  const char* name;
  const char* description;
  std::array<const char*, 2> sides = {nullptr, nullptr};
  bool twin_side = false;  ///< OutcomeClass::twin_side
};

/// The classes of the input alone, the same under every control (a side test, or a classifier
/// that reads neither the control nor the result).
using InputClassifyFn = std::function<ClassMask(const Inputs& in)>;

/// The one shape of an op's own outcome classes: its table of classes in bit order (the op's
/// enum of class bits follows it), its classifier, and when some class has sides, the side test.
/// The table's thresholds are the classes of `classes` that name sides, in order.
OutcomeClassTable MakeOutcomeClassTable(std::span<const OwnClass> classes, ClassifyFn classify,
                                        InputClassifyFn side = {});
/// A classifier giving every control the classes `classify` finds in the input alone.
ClassifyFn ForEveryControl(InputClassifyFn classify);
/// The classes of a value class that several ops share, each bit set when the class is one of
/// them: NaN, +-Inf, +-0, a subnormal.
struct SpecialClassBits {
  unsigned nan, inf, zero, subnormal;
};
ClassMask SpecialValueClasses(oracle::NumericValueClass vc, SpecialClassBits bits);

/// tcvt to E8M0 (ReferenceFloatToE8M0): exact power, rounded down / up, at the sqrt(2)
/// threshold, NaN, Inf, zero, negative, subnormal and tiny inputs, overflow. Other tcvt pairs
/// copy the word and have no own classes (an empty table). In tcvt.cpp.
OutcomeClassTable TcvtOutcomeClasses(TypePair pair);
/// tcvt of edition 2026-09, per route (RouteOf2026_09, tcvt_common.hpp): to E8M0
/// TcvtOutcomeClasses; the common set (ReferenceCommonConvert) its special sources (NaN, Inf,
/// signed zero), then the encode classes of the finite value; integer to integer
/// (TileConvertIntegerValue) range, clamp and wrap classes; ReferenceTCVTConvert's pairs their
/// specials and the classes of their encodings; raw pairs none. In tcvt_2026_09_classes.cpp
/// (the TCVTConvert routes in tcvt_2026_09_own_classes.cpp).
OutcomeClassTable Tcvt2026_09OutcomeClasses(TypePair pair);
/// encode: ReferenceMatrixFloatingEncoding's classes into a floating type, else
/// ReferenceMatrixIntegerEncoding's. In encode.cpp.
OutcomeClassTable EncodeOutcomeClasses(TypePair pair);
/// `table` (EncodeOutcomeClasses(pair)) with the thresholds inside its classes: the lower and
/// upper halves of (largest finite, overflow threshold) and (threshold, largest finite + ulp),
/// and a value rounding to zero below or from half the smallest positive value (1/2 for an
/// integer destination). Classes are found by name; a name the table lacks is skipped. In
/// encode_sides.cpp.
/// `value` gives the exact value of an input the sides are read of (none: no side 1); empty, the
/// finite source word's (ExactWordValue of slot 0).
OutcomeClassTable WithEncodeSides(
    TypePair pair, OutcomeClassTable table,
    std::function<std::optional<oracle::Dyadic>(const Inputs&)> value = {});
/// shift: MatrixShiftS32ToS16 (dropped bits against half, clamps, range ends, shift ends). In
/// shift.cpp.
OutcomeClassTable ShiftOutcomeClasses(TypePair pair);
/// qparam: FP32ToFP19's rounding cases, widths and offset ends of MatrixQuantParameter. In
/// qparam.cpp.
OutcomeClassTable QparamOutcomeClasses(TypePair pair);
/// tquant: TileProfileQuantize's specials, ties, range and zero-point cases. In tquant.cpp.
OutcomeClassTable TquantOutcomeClasses(TypePair pair);
/// tdequant: TileProfileDequantize's difference and FP32 encoding cases. In tdequant.cpp.
OutcomeClassTable TdequantOutcomeClasses(TypePair pair);
/// affine: MatrixQuantizedAffine's widths, product and intermediate cases, then the integer
/// encoding's classes prefixed "dst ". In affine/affine.cpp.
OutcomeClassTable AffineOutcomeClasses(TypePair pair);
/// fpatr: per PreQuantMode of the pair its ReluModes, special accumulators and the classes of
/// its last step (the shift, affine or encode classes), named "PreQuantMode m: ...". In
/// fpatr/classes.cpp.
OutcomeClassTable FpatrOutcomeClasses(TypePair pair);

/// Classifies an exact value that a pipeline encodes as its last step (fpatr): out[c] gets the
/// classes of the value under controls[c] given the result expected[c] (bit k: class k of the
/// matching *ClassNames list).
using ValueClassifier =
    std::function<void(const oracle::Dyadic& x, std::span<const NumericExecutionControl> controls,
                       const Encoded* expected, ClassMask* out)>;
/// ReferenceMatrixFloatingEncoding's classes (encode into a floating type), 22 of them.
std::vector<OutcomeClass> FloatingEncodeClassNames();
/// The classifier of a value encoded into floating type `dst` (FP32, FP16, BF16, E4M3, HiF8).
ValueClassifier FloatingEncodeClassifier(TileDataType dst);
/// The encoding of an exact value into floating type `dst` under a control, Encoded.
using FloatingEncodeFn = std::function<Encoded(const oracle::Dyadic& x, TileDataType dst,
                                               NumericExecutionControl control)>;
/// FloatingEncodeClassifier with the encoding `encode` for the neighbours of a value (rounded
/// toward and away from zero): edition 2026-09's TCVT passes its
/// ReferenceMatrixFloatingEncoding (FastReferenceMatrixFloatingEncoding), which also encodes
/// into FP64.
ValueClassifier FloatingEncodeClassifier(TileDataType dst, FloatingEncodeFn encode);
/// The classes of IntegerEncodeClassNames, in order (bit k of ClassifyIntegerEncode).
enum IntegerClass : unsigned {
  kIntExact,
  kIntInexact,
  kIntTieUp,
  kIntTieDown,
  kIntSatClamp,
  kIntWrap,
  kIntNegativeIntoUnsigned,
  kIntAtMinimum,
  kIntAtMaximum,
  kIntRoundToZero,
  kIntMinimumFromBelow,
  kIntMinimumFromAbove,
  kIntMaximumFromAbove,
  kIntMaximumFromBelow,
  kIntRoundsToMinusTwoToW,
  kIntRoundsToMinusOne,
  kIntegerClasses
};

/// ReferenceMatrixIntegerEncoding's classes (encode into an integer type), 16 of them.
std::vector<OutcomeClass> IntegerEncodeClassNames();
/// The classifier of a value rounded and encoded into integer type `dst`.
ValueClassifier IntegerEncodeClassifier(TileDataType dst);
/// IntegerEncodeClassifier's work: the classes (IntegerEncodeClassNames order) of the exact value
/// x rounded and encoded into integer type `dst`, under controls[c] with result expected[c], into
/// out[c] (one per control).
void ClassifyIntegerEncode(TileDataType dst, const oracle::Dyadic& x,
                           std::span<const NumericExecutionControl> controls,
                           const Encoded* expected, ClassMask* out);

/// The wrap classes of an integer `rounded` (the value rounded under the control's mode) into
/// integer type `dst`: kIntRoundsToMinusOne for -1 and kIntRoundsToMinusTwoToW for -2^w when
/// `dst` is unsigned of w bits, else none. ClassifyIntegerEncode's own test; affine asks it of
/// its intermediate + offset.
ClassMask UnsignedWrapClasses(TileDataType dst, std::int64_t rounded);

/// The value of an integer type's word (its low Format(type).width bits, two's complement for a
/// signed type).
inline std::int64_t IntegerWordValue(TileDataType type, Word w) {
  const oracle::FormatInfo& f = oracle::Format(type);
  const Word low = oracle::LowBits(w, f.width);
  return f.kind == oracle::FormatKind::SignedInteger
             ? static_cast<std::int64_t>(oracle::SignExtend(low, f.width))
             : static_cast<std::int64_t>(low);
}

/// The range ends of an integer type, as values.
inline std::int64_t IntegerTypeMinimum(TileDataType type) {
  return IntegerWordValue(type, oracle::TileIntegerMinimum(type));
}
inline std::int64_t IntegerTypeMaximum(TileDataType type) {
  return IntegerWordValue(type, oracle::TileIntegerMaximum(type));
}

/// The value of an integer type's word as a Dyadic (a U64 word above 2^63 too).
inline oracle::Dyadic IntegerWordDyadic(TileDataType type, Word w) {
  const oracle::FormatInfo& f = oracle::Format(type);
  if (f.kind == oracle::FormatKind::UnsignedInteger)
    return oracle::DyadicNormalized({false, oracle::LowBits(w, f.width), 0});
  return oracle::DyadicFromInteger(IntegerWordValue(type, w));
}

/// The exact value of a finite source word of encode or affine (an integer type: its value).
inline oracle::Dyadic ExactWordValue(TileDataType type, Word w) {
  if (!oracle::Format(type).IsFloating()) return IntegerWordDyadic(type, w);
  return oracle::DyadicFromFiniteCode(type, w);
}

}  // namespace ptovec::generator
