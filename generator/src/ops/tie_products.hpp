// Rounding-tie inputs of a product value x multiplier, shared by the strategies that build them
// (affine's tie_odd_scale, fpatr's ties_after_scale): a value r * 2^m (r odd) times a multiplier
// S * 2^k (S odd, an FP19 significand of at most 11 bits) is r S * 2^(m+k) with r S odd, so it is
// a tie of an integer result (an S5/S9/S17 intermediate, an integer destination) exactly when
// m + k = -1, and of a floating destination of precision p when r S has p + 1 bits. Here: the one
// FP19 encoder of S * 2^k, the source words of r * 2^m (FP32, S32) and their inverses.
#pragma once

#include <cstdint>
#include <optional>

#include "ptovec/generator/ops.hpp"

namespace ptovec::generator {

/// A non-zero value (-1)^negative * odd * 2^exponent, `odd` odd.
struct OddScaled {
  bool negative = false;
  std::uint64_t odd = 0;
  int exponent = 0;
};

/// The FP19 word (bits 18:0: sign 0, exponent field 1..254, 10-bit fraction) of the positive
/// value m * 2^k, m an integer of 1..11 significant bits; nullopt when m has none or more than
/// 11 (not exactly an FP19 significand) or the value is not a normal FP19 (its exponent field
/// would leave 1..254).
std::optional<Word> Fp19Word(std::uint64_t m, int k);

/// The odd form S * 2^k of a positive normal FP19 word (bits 18:0; the sign bit is ignored).
OddScaled Fp19OddScaled(Word fp19);

/// The source word of +/-r * 2^m (r > 0) in `src`: FP32 a normal with at most 24 significant
/// bits (the encoding is exact), S32 an integer below 2^31; nullopt when `src` does not hold it.
std::optional<Word> ScaledSourceWord(TileDataType src, bool negative, std::uint64_t r, int m);

/// The odd form of a non-zero finite FP32 word or a non-zero S32 word (src FP32 or S32); nullopt
/// for a zero, an Inf or a NaN.
std::optional<OddScaled> SourceOddScaled(TileDataType src, Word word);

/// The value exponent m for which r * 2^m times S * 2^k (r, S odd) is a tie of an integer result,
/// r S / 2: m + k = -1 (and, the relation being symmetric, the multiplier exponent k of a value
/// exponent m).
constexpr int IntegerTieExponent(int k) { return -1 - k; }

}  // namespace ptovec::generator
