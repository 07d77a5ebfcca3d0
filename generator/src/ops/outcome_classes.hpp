// The ops' own outcome-class tables (OpDef::outcome_classes), one function per op, defined in
// outcome_classes.cpp; docs/coverage.md lists every class and which are unreachable.
#pragma once

#include "ptovec/generator/ops.hpp"

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

}  // namespace ptovec::generator
