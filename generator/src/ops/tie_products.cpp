// Rounding-tie inputs of a product value x multiplier (tie_products.hpp): the FP19 encoder of
// S * 2^k, the FP32 and S32 words of r * 2^m, and their odd forms.
#include "tie_products.hpp"

#include <bit>
#include <cstdint>
#include <optional>

#include "ptovec/generator/domains.hpp"
#include "ptovec/oracle/dyadic.hpp"
#include "ptovec/oracle/fast.hpp"
#include "ptovec/oracle/numeric.hpp"

namespace ptovec::generator {

std::optional<Word> Fp19Word(std::uint64_t m, int k) {
  const int bits = oracle::BitLength(m);
  if (bits == 0 || bits > 11) return std::nullopt;  // not 1..11 significant bits: no exact FP19
  const int e = k + bits - 1 + 127;                 // the biased exponent of m * 2^k
  if (e < 1 || e > 254) return std::nullopt;
  const Word fraction = (Word{m} << (11 - bits)) & 0x3FF;
  return (Word(e) << 10) | fraction;
}

OddScaled Fp19OddScaled(Word fp19) {
  const std::uint64_t significand = 1024 + (fp19 & 0x3FF);
  const int zeros = std::countr_zero(significand);
  return {false, significand >> zeros, static_cast<int>((fp19 >> 10) & 0xFF) - 137 + zeros};
}

std::optional<Word> ScaledSourceWord(TileDataType src, bool negative, std::uint64_t r, int m) {
  const int bits = oracle::BitLength(r);
  if (src == TileDataType::FP32) {
    const int e = bits - 1 + m;
    if (bits > 24 || e < -126 || e > 127) return std::nullopt;
    // A normal with at most 24 significant bits: the encoding is exact.
    return oracle::FastFP32FiniteEncoding({negative, r, m}, NumericRoundingMode::RNE).word;
  }
  if (m < 0 || bits + m > 31) return std::nullopt;
  const std::int64_t v = static_cast<std::int64_t>(r << m);
  return oracle::LowBits(static_cast<Word>(negative ? -v : v), 32);
}

std::optional<OddScaled> SourceOddScaled(TileDataType src, Word word) {
  if (src == TileDataType::S32) {
    const std::int64_t v = static_cast<std::int32_t>(static_cast<std::uint32_t>(word));
    if (v == 0) return std::nullopt;
    const std::uint64_t magnitude =
        v < 0 ? std::uint64_t{0} - static_cast<std::uint64_t>(v) : static_cast<std::uint64_t>(v);
    const int zeros = std::countr_zero(magnitude);
    return OddScaled{v < 0, magnitude >> zeros, zeros};
  }
  const auto w = static_cast<std::uint32_t>(word);
  if (!Fp32IsFinite(w) || (w & 0x7FFFFFFFU) == 0) return std::nullopt;
  const oracle::Dyadic d = oracle::DyadicFromFiniteCode(TileDataType::FP32, word);
  const auto significand = static_cast<std::uint64_t>(d.significand);
  const int zeros = std::countr_zero(significand);
  return OddScaled{d.negative, significand >> zeros, d.exponent + zeros};
}

}  // namespace ptovec::generator
