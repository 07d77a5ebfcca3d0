// The simplest-case order of `ptovec shrink` (docs/shrinking.md, "The simplest case"), which the
// shrink and the gate (each cause's simplest case seen) share.
#pragma once

#include <array>
#include <compare>

#include "ptovec/generator/cases.hpp"
#include "ptovec/generator/ops.hpp"
#include "ptovec/oracle/numeric.hpp"

namespace ptovec::tools {

/// The simplest-case order of `ptovec shrink` (docs/shrinking.md, "The simplest case"): cases
/// compare by their SimplicityKey, lexicographically in this field order, smaller is simpler.
/// For each input word, its value v (the slot's type: floating codes by
/// TileNumericFiniteDecomposition, integers sign- or zero-extended) is written v = (-1)^s * m *
/// 2^q with m odd (zero: m = 0), and E is the exponent of its leading bit (2^E <= |v| < 2^(E+1)).
/// A word with a value field (OpDef::value_fields: fpatr's FP19 scale in quant_param bits 31:13
/// and FP19 LReLU/PReLU parameter in relu_param bits 18:0) counts as two values, the field's (by
/// its floating type, so a scale is simplest at 1.0) and the rest of the word's (the slot's
/// integer with the field cleared); it is not zero when either is not.
struct SimplicityKey {
  /// 1. input words whose value is not zero (+0, -0 and integer 0 are zero; E8M0 has no zero;
  ///    Inf and NaN are not zero)
  unsigned nonzero = 0;
  /// 2. the sum over the words of the bit length of m (0 for a zero); Inf and NaN count as the
  ///    type's precision + 1 (more than any finite value of the type)
  unsigned significant_bits = 0;
  /// 3. the sum over the words of |E| (0 for a zero); Inf and NaN count 2^16 (farther than any
  ///    finite value)
  unsigned exponent_distance = 0;
  /// 4. the rounding mode: RNE, then RTM RTP RTZ RNA RTO RHB (the spec's NumericRoundingMode order)
  unsigned mode = 0;
  /// 5. Sat: off before on
  unsigned sat = 0;
  /// 6. the number of negative words (-0 included)
  unsigned negatives = 0;
  /// 7. the words themselves, slot by slot (a total order: no two distinct cases of one pair
  ///    are equal under it)
  std::array<oracle::Word, generator::kMaxSlots> words{};
  friend auto operator<=>(const SimplicityKey&, const SimplicityKey&) = default;
};

/// The order's name, as `shrink` prints it ("minimised in the order: ...").
inline constexpr const char* kSimplestOrderName =
    "fewest non-zero inputs, fewest significant bits, exponent nearest 0, RNE, Sat off";

/// The key of a case under the simplest-case order (see SimplicityKey). The pair is not part of
/// it: keys compare cases of one (op, pair).
SimplicityKey SimplicityOf(const generator::Case& c);

/// True when `a` is strictly simpler than `b` (SimplicityOf(a) < SimplicityOf(b)).
bool Simpler(const generator::Case& a, const generator::Case& b);

}  // namespace ptovec::tools
