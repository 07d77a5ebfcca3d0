// The simplest-case order of `ptovec shrink` (SimplicityKey, shrink.hpp): each word's key (zero
// or not, significant bits, exponent distance, sign), the views of a word (the whole word or its
// value field), and the exact codes of +/- m * 2^q and odd parts of a word that the moves use.
#include <bit>
#include <cstdint>
#include <optional>
#include <utility>
#include <vector>

#include "ptovec/generator/ops.hpp"
#include "ptovec/oracle/formats.hpp"
#include "ptovec/oracle/numeric.hpp"
#include "ptovec/tools/shrink.hpp"
#include "shrink/shrink_internal.hpp"

namespace ptovec::tools {

namespace shrink_internal {

namespace {

// The key of +/- m * 2^q (m = 0: zero).
WordKey KeyOfValue(bool negative, std::uint64_t m, int q) {
  if (m == 0) return {false, 0, 0, negative};
  const int length = BitWidth(m);
  const std::uint64_t odd = m >> std::countr_zero(m);
  const int leading = q + length - 1;
  return {true, static_cast<unsigned>(BitWidth(odd)),
          static_cast<unsigned>(leading < 0 ? -leading : leading), negative};
}

// The floating value field of slot `i` (OpDef::value_fields), or nullptr.
const generator::ValueField* FieldOf(const OpDef& op, std::size_t i) {
  for (const generator::ValueField& f : op.value_fields) {
    if (f.slot == i) return &f;
  }
  return nullptr;
}

WordView FieldView(const generator::ValueField& f) {
  return {f.type, f.low_bit, oracle::Format(f.type).width};
}

}  // namespace

WordKey KeyOfWord(oracle::TileDataType type, Word word) {
  const oracle::FormatInfo& f = oracle::Format(type);
  word = oracle::LowBits(word, f.width);
  if (!f.IsFloating()) {
    if (f.kind == oracle::FormatKind::SignedInteger) {
      const auto v = static_cast<std::int64_t>(oracle::SignExtend(word, f.width));
      const std::uint64_t magnitude =
          v < 0 ? std::uint64_t{0} - static_cast<std::uint64_t>(v) : static_cast<std::uint64_t>(v);
      return KeyOfValue(v < 0, magnitude, 0);
    }
    return KeyOfValue(false, word, 0);
  }
  const oracle::FiniteDecomposition d = oracle::TileNumericFiniteDecomposition(type, word);
  if (!d.available) return {true, f.width + 1, 1U << 16, (word & f.SignBit()) != 0};
  return KeyOfValue(d.negative || (word & f.SignBit()) != 0, d.significand, d.exponent);
}

std::vector<WordView> ViewsOf(const Case& c, std::size_t i) {
  const oracle::TileDataType type = c.op->slots[i].TypeFor(c.pair);
  std::vector<WordView> views{{type, 0, oracle::Format(type).width}};
  if (const generator::ValueField* f = FieldOf(*c.op, i)) views.push_back(FieldView(*f));
  return views;
}

WordKey KeyOfSlotWord(const Case& c, std::size_t i) {
  const oracle::TileDataType type = c.op->slots[i].TypeFor(c.pair);
  const generator::ValueField* f = FieldOf(*c.op, i);
  if (f == nullptr) return KeyOfWord(type, c.in[i]);
  const WordView view = FieldView(*f);
  const WordKey value = KeyOfWord(f->type, view.Get(c.in[i]));
  const WordKey rest = KeyOfWord(type, view.Put(c.in[i], 0));
  return {value.nonzero || rest.nonzero, value.bits + rest.bits, value.distance + rest.distance,
          value.negative || rest.negative};
}

std::optional<Word> ExactCode(oracle::TileDataType type, bool negative, std::uint64_t m, int q) {
  const oracle::FormatInfo& f = oracle::Format(type);
  const int length = BitWidth(m);
  if (!f.IsFloating()) {
    if (q < 0 || q + length > static_cast<int>(f.width)) return std::nullopt;
    const std::uint64_t v = m << q;
    if (f.kind == oracle::FormatKind::SignedInteger) {
      const std::uint64_t half = std::uint64_t{1} << (f.width - 1);
      if (negative ? v > half : v >= half) return std::nullopt;
      return oracle::LowBits(negative ? std::uint64_t{0} - v : v, f.width);
    }
    if (negative) return std::nullopt;
    return v;
  }
  if (!f.HasSignExponentFraction()) return std::nullopt;
  const int fb = static_cast<int>(f.fraction_bits);
  const int leading = q + length - 1;
  Word magnitude = 0;
  const int field = leading + f.bias;
  if (field >= 1) {
    if (length - 1 > fb || field >= (1 << f.exponent_bits)) return std::nullopt;
    magnitude = (static_cast<Word>(field) << fb) |
                ((static_cast<Word>(m) << (fb - (length - 1))) & oracle::LowBits(~Word{0}, fb));
  } else {
    const int shift = q - (1 - f.bias - fb);  // subnormal: value = fraction * 2^(1 - bias - fb)
    if (shift < 0 || shift + length > fb) return std::nullopt;
    magnitude = static_cast<Word>(m) << shift;
  }
  const Word code = (negative ? f.SignBit() : 0) | magnitude;
  // The decomposition confirms it (E4M3's top code is NaN, not a value).
  const oracle::FiniteDecomposition d = oracle::TileNumericFiniteDecomposition(type, code);
  if (!d.available || d.significand == 0) return std::nullopt;
  const auto sig = static_cast<std::uint64_t>(d.significand);
  if ((sig >> std::countr_zero(sig)) != m || d.exponent + std::countr_zero(sig) != q) {
    return std::nullopt;
  }
  return code;
}

std::pair<int, int> LeadingExponentRange(oracle::TileDataType type) {
  const oracle::FormatInfo& f = oracle::Format(type);
  if (!f.IsFloating()) return {0, static_cast<int>(f.width) - 1};
  const int fb = static_cast<int>(f.fraction_bits);
  return {1 - f.bias - fb, (1 << f.exponent_bits) - 1 - f.bias};
}

std::optional<OddParts> OddPartsOf(oracle::TileDataType type, Word word) {
  const oracle::FormatInfo& f = oracle::Format(type);
  OddParts p;
  if (f.IsFloating()) {
    if (!f.HasSignExponentFraction()) return std::nullopt;
    const oracle::FiniteDecomposition d = oracle::TileNumericFiniteDecomposition(type, word);
    if (!d.available || d.significand == 0) return std::nullopt;
    p.negative = d.negative || (word & f.SignBit()) != 0;
    p.m = static_cast<std::uint64_t>(d.significand);
    p.q = d.exponent;
  } else {
    const Word low = oracle::LowBits(word, f.width);
    p.negative = KeyOfWord(type, word).negative;
    p.m = p.negative ? oracle::LowBits(Word{0} - low, f.width) : low;
    if (p.negative && p.m == 0) p.m = Word{1} << (f.width - 1);
    if (p.m == 0) return std::nullopt;
  }
  const int zeros = std::countr_zero(p.m);
  p.m >>= zeros;
  p.q += zeros;
  return p;
}

}  // namespace shrink_internal

using shrink_internal::KeyOfSlotWord;
using shrink_internal::WordKey;

SimplicityKey SimplicityOf(const Case& c) {
  SimplicityKey key;
  for (std::size_t i = 0; i < c.op->slots.size(); ++i) {
    const WordKey w = KeyOfSlotWord(c, i);
    key.nonzero += w.nonzero;
    key.significant_bits += w.bits;
    key.exponent_distance += w.distance;
    key.negatives += w.negative;
    key.words[i] = c.in[i];
  }
  key.mode = static_cast<unsigned>(c.control.rounding_mode);
  key.sat = c.control.saturating ? 1 : 0;
  return key;
}

bool Simpler(const Case& a, const Case& b) { return SimplicityOf(a) < SimplicityOf(b); }

}  // namespace ptovec::tools
