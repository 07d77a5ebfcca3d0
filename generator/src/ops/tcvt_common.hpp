// What op `tcvt` of edition 0.58.3 (tcvt.cpp) and of edition 2026-09 (tcvt_2026_09.cpp) share:
// the carrier of a source word and the plan of a pair's inputs.
#pragma once

#include "ptovec/generator/domains.hpp"
#include "ptovec/generator/ops.hpp"

namespace ptovec::generator {

/// The carrier of the source word in[0]: the sign extension of a signed integer source
/// (spec-notes section 1), else the word (a vector holds the element-width encoding).
Word TcvtCarrier(TypePair pair, const Inputs& in);

/// Every code of a source of at most 16 bits; FP32 to E8M0 by the strategies of exponent
/// rounding; other wide sources by their edges (0, all ones, the top bit) and uniform bits.
DomainPlan TcvtPlan(TypePair pair);

}  // namespace ptovec::generator
