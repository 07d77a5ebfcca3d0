// The small ASL primitives the literal seed transliterations share (private to oracle/src), each
// defined once: bit slices, `MOD 2`, `ASR`, `LSL` and `MultiplyWord` (spec-notes section 1, "ASL
// helpers"). The names keep the ASL spelling where C++ allows it, so a literal transliteration
// reads side by side with its seed. `Zeros{64} + i` is WordOf (numeric.hpp).
#pragma once

#include <cstdint>

#include "ptovec/oracle/numeric.hpp"

namespace ptovec::oracle::asl {

/// ASL `UInt(word[hi:lo])`: bits hi..lo of `word` (63 >= hi >= lo >= 0) as an unsigned value.
/// `word[i]` is Field(word, i, i).
constexpr Word Field(Word word, unsigned hi, unsigned lo) {
  return LowBits(word >> lo, hi - lo + 1);
}

/// ASL `SInt(word[hi:lo])`: bits hi..lo of `word` as a two's complement integer.
inline Integer SIntField(Word word, unsigned hi, unsigned lo) {
  return Integer(static_cast<std::int64_t>(SignExtend(Field(word, hi, lo), hi - lo + 1)));
}

/// ASL `x MOD 2` for any integer x: 0 or 1 (the remainder of the floor division, so -3 MOD 2 is
/// 1, where C++'s -3 % 2 is -1).
constexpr int Mod2(int x) { return ((x % 2) + 2) % 2; }

/// ASL `ASR(value, shift)` of a bits(32) (bits 31:0 of `value`, higher bits ignored), shift
/// 0..31: the 32-bit result with copies of bit 31 shifted in, zero-extended in the carrier.
constexpr Word ASR32(Word value, unsigned shift) {
  const Word bits = LowBits(value, 32);
  const Word shifted = bits >> shift;
  if (((bits >> 31) & 1) == 0) return shifted;
  return shifted | LowBits(~Word{0} << (32 - shift), 32);  // the `shift` top bits of 32
}

/// ASL `LSL(value, shift)` of a Word (bits(64)) for any shift >= 0: the bits shifted out of
/// 63:0 are lost, so a shift of 64 or more gives 0.
constexpr Word LSL(Word value, unsigned shift) { return shift >= 64 ? 0 : value << shift; }

/// ASL `MultiplyWord(a, b)` (spec-notes section 1): the 64-bit wrapping product.
constexpr Word MultiplyWord(Word a, Word b) { return a * b; }

}  // namespace ptovec::oracle::asl
