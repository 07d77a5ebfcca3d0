// The ops' own outcome-class tables (OpDef::outcome_classes), one function per op, defined in
// outcome_classes.cpp; docs/coverage.md lists every class and which are unreachable.
#pragma once

#include <functional>
#include <span>
#include <vector>

#include "ptovec/generator/ops.hpp"
#include "ptovec/oracle/dyadic.hpp"

namespace ptovec::generator {

/// tcvt to E8M0 (ReferenceFloatToE8M0): exact power, rounded down / up, at the sqrt(2)
/// threshold, NaN, Inf, zero, negative, subnormal and tiny inputs, overflow. Other tcvt pairs
/// copy the word and have no own classes (an empty table).
OutcomeClassTable TcvtOutcomeClasses(TypePair pair);
/// encode: ReferenceMatrixFloatingEncoding's classes into a floating type, else
/// ReferenceMatrixIntegerEncoding's.
OutcomeClassTable EncodeOutcomeClasses(TypePair pair);
/// shift: MatrixShiftS32ToS16 (dropped bits against half, clamps, range ends, shift ends).
OutcomeClassTable ShiftOutcomeClasses(TypePair pair);
/// qparam: FP32ToFP19's rounding cases, widths and offset ends of MatrixQuantParameter.
OutcomeClassTable QparamOutcomeClasses(TypePair pair);
/// tquant: TileProfileQuantize's specials, ties, range and zero-point cases.
OutcomeClassTable TquantOutcomeClasses(TypePair pair);
/// tdequant: TileProfileDequantize's difference and FP32 encoding cases.
OutcomeClassTable TdequantOutcomeClasses(TypePair pair);
/// affine: MatrixQuantizedAffine's widths, product and intermediate cases, then the integer
/// encoding's classes prefixed "dst ".
OutcomeClassTable AffineOutcomeClasses(TypePair pair);

/// Classifies an exact value that a pipeline encodes as its last step (fpatr): out[c] gets the
/// classes of the value under controls[c] given the result expected[c] (bit k: class k of the
/// matching *ClassNames list).
using ValueClassifier =
    std::function<void(const oracle::Dyadic& x, std::span<const NumericExecutionControl> controls,
                       const Encoded* expected, ClassMask* out)>;
/// ReferenceMatrixFloatingEncoding's classes (encode into a floating type), 16 of them.
std::vector<OutcomeClass> FloatingEncodeClassNames();
/// The classifier of a value encoded into floating type `dst` (FP32, FP16, BF16, E4M3, HiF8).
ValueClassifier FloatingEncodeClassifier(TileDataType dst);
/// ReferenceMatrixIntegerEncoding's classes (encode into an integer type), 10 of them.
std::vector<OutcomeClass> IntegerEncodeClassNames();
/// The classifier of a value rounded and encoded into integer type `dst`.
ValueClassifier IntegerEncodeClassifier(TileDataType dst);

}  // namespace ptovec::generator
