// Fast exact forms of seed 000 (see fast_matrix_quantization.hpp), on the rounding core
// (rounding_core.hpp) and, for the FP8 encoder, a sorted table of each format's finite
// candidates. The argument that each equals its literal seed function is written next to the
// code, citing seed lines.
#include "ptovec/oracle/fast_matrix_quantization.hpp"

#include <algorithm>
#include <stdexcept>
#include <vector>

#include "ptovec/oracle/fast_reference_quantization.hpp"
#include "rounding_core.hpp"

namespace ptovec::oracle {

using namespace rounding_core;

namespace {

// ---------------------------------------------------------------------------------------------
// FP8 candidate tables (seed 000 lines 343-452).
// ---------------------------------------------------------------------------------------------

/// The finite candidates of one FP8 format, as the seed's scan sees them: every code 0..255
/// whose class is not NaN, Inf or InvalidEncoding (lines 369-373), with the value the format
/// table gives it (TileNumericFiniteDecomposition; the tests check it equals
/// ReferenceFP8FiniteValue on every such code) in units of 2^-scale_bits, sorted by value.
/// Equal values keep only the first (lowest) code: the table build checks that the only equal
/// values are +0 and -0 (E4M3's 0x00 and 0x80), and a later equal even code can never replace
/// an earlier one in the scan (see FastFP8Encoding).
struct FP8Table {
  int scale_bits = 0;               ///< -(the smallest exponent of a candidate): E4M3 9, HiF8 22
  std::int64_t maximum = 0;         ///< the largest finite (448 or 32768, lines 352-353), in units
  int maximum_exponent = 0;         ///< floor(log2(maximum))
  std::int64_t minimum_normal = 0;  ///< 2^-6 or 2^-15 (lines 444-445), in units
  std::vector<std::int64_t> value;  ///< ascending, distinct
  std::vector<std::uint8_t> code;   ///< the first code of each value
  std::vector<int> odd_above;       ///< nearest index above with an odd code, or -1
  std::vector<int> odd_below;       ///< nearest index below with an odd code, or -1
};

/// The candidate table of an 8-bit floating format, from the format table alone: the codes'
/// classes and decompositions, and the row's largest finite code.
FP8Table BuildFP8Table(TileDataType type) {
  const FormatInfo& f = Format(type);
  struct Candidate {
    FiniteDecomposition d;
    int code;
  };
  std::vector<Candidate> candidates;
  for (int code = 0; code <= 255; ++code) {
    const NumericValueClass c = TileNumericValueClass(type, static_cast<Word>(code));
    // The seed's RTO scan (lines 420-423) skips only NaN and Inf, the main scan also
    // InvalidEncoding (line 373); they agree because no E4M3/HiF8 code is InvalidEncoding.
    if (c == NumericValueClass::InvalidEncoding) {
      throw std::logic_error("FP8 table: an InvalidEncoding code");
    }
    if (NumericValueClassIsNaN(c) || NumericValueClassIsInfinity(c)) continue;
    const FiniteDecomposition d = TileNumericFiniteDecomposition(type, static_cast<Word>(code));
    if (!d.available) throw std::logic_error("FP8 table: unexpected decomposition");
    candidates.push_back({d, code});
  }
  FP8Table t;
  for (const Candidate& c : candidates) t.scale_bits = std::max(t.scale_bits, -c.d.exponent);
  const auto units = [&t](const FiniteDecomposition& d) {  // |value| * 2^scale_bits
    return static_cast<std::int64_t>(d.significand << (d.exponent + t.scale_bits));
  };
  t.maximum = units(TileNumericFiniteDecomposition(type, f.largest_finite_code));
  t.maximum_exponent = BitLength(static_cast<DyadicSignificand>(t.maximum)) - 1 - t.scale_bits;
  t.minimum_normal = t.maximum;
  struct Entry {
    std::int64_t value;
    int code;
  };
  std::vector<Entry> entries;
  for (const Candidate& c : candidates) {
    const std::int64_t magnitude = units(c.d);
    const NumericValueClass k = TileNumericValueClass(type, static_cast<Word>(c.code));
    if (k == NumericValueClass::PositiveNormal) {
      t.minimum_normal = std::min(t.minimum_normal, magnitude);
    }
    entries.push_back({c.d.negative ? -magnitude : magnitude, c.code});
  }
  std::stable_sort(entries.begin(), entries.end(),
                   [](const Entry& a, const Entry& b) { return a.value < b.value; });
  for (const Entry& e : entries) {
    if (!t.value.empty() && t.value.back() == e.value) {
      if (e.value != 0 || !f.negative_zero || e.code % 2 != 0) {
        throw std::logic_error("FP8 table: equal candidates other than +0/-0");
      }
      continue;  // a later equal candidate (-0 after +0)
    }
    t.value.push_back(e.value);
    t.code.push_back(static_cast<std::uint8_t>(e.code));
  }
  if (t.value.back() != t.maximum || t.value.front() != -t.maximum) {
    throw std::logic_error("FP8 table: the row's largest finite is not the largest candidate");
  }
  const int n = static_cast<int>(t.value.size());
  t.odd_above.assign(t.value.size(), -1);
  t.odd_below.assign(t.value.size(), -1);
  int next = -1;
  for (int i = n - 1; i >= 0; --i) {
    t.odd_above[static_cast<std::size_t>(i)] = next;
    if (t.code[static_cast<std::size_t>(i)] % 2 != 0) next = i;
  }
  next = -1;
  for (int i = 0; i < n; ++i) {
    t.odd_below[static_cast<std::size_t>(i)] = next;
    if (t.code[static_cast<std::size_t>(i)] % 2 != 0) next = i;
  }
  return t;
}

const FP8Table& TableOf(TileDataType type) {
  static const FP8Table e4m3 = BuildFP8Table(TileDataType::E4M3);
  static const FP8Table hif8 = BuildFP8Table(TileDataType::HiF8);
  return type == TileDataType::E4M3 ? e4m3 : hif8;
}

/// 4 * (I + g) with g encoded 0, 1, 2, 3 for Zero, Below, Half, Above: a strictly increasing
/// code of the real I + g in which a multiple of 2 (4N or 2(N1 + N2) for integers N) compares
/// exactly as the real does (the codes 4I+1 and 4I+3 stand for open intervals holding no even
/// number).
std::int64_t QuarterCode(const Split& s) {
  return static_cast<std::int64_t>(s.integer) * 4 + static_cast<std::int64_t>(s.fraction);
}

}  // namespace

// ReferenceBinary16Encoding, seed 000 lines 152-233. With E as in FastFP32FiniteEncoding
// (fast_reference_quantization.cpp; the loops of lines 160-173 are those of seed 003): line 184
// (exponent > 15 / 127) is E > bias; line 193 (exponent < -14 / -126) is E < 1 - bias, and then
// line 194's scaled is m * 2^(e - minimum_subnormal_exponent); otherwise line 210's scaled =
// normalized * fraction_scale = m * 2^(fraction_bits + 1 - L). MatrixRoundMagnitude of scaled is
// RoundedMagnitude (see MagnitudeRoundsUp). Exactness (Real(rounded) == scaled) is "the fraction
// is zero"; rounded < 0 (line 204) cannot happen. The seed's constants of lines 175-191 and
// 220-227 are the FP16 and BF16 rows of the format table: fraction bits, bias, minimum subnormal
// exponent 1 - bias - fraction bits, largest finite (Sat) and infinity (non-Sat) codes.
Encoded FastBinary16Encoding(const Dyadic& value, TileDataType destination_type,
                             NumericExecutionControl control) {
  Encoded r;
  FastBinary16EncodingControls(value, destination_type, &control, 1, &r);
  return r;
}

// The derivation above, with the split (line 194 or 210) made once for every control: only
// MatrixRoundMagnitude (RoundedMagnitude) and the Sat choice of the overflow results depend on
// the control.
void FastBinary16EncodingControls(const Dyadic& value, TileDataType destination_type,
                                  const NumericExecutionControl* controls, std::size_t n,
                                  Encoded* out) {
  SeedAssert(destination_type == TileDataType::FP16 || destination_type == TileDataType::BF16,
             "ReferenceBinary16Encoding destination_type is FP16 or BF16");
  const U128 m = value.significand;
  if (m == 0) {  // line 158
    for (std::size_t k = 0; k < n; ++k) out[k] = {0, 0};
    return;
  }
  const FormatInfo& f = Format(destination_type);  // lines 175-181, from the format table
  const int fraction_bits = static_cast<int>(f.fraction_bits);
  const U128 fraction_scale = U128{1} << fraction_bits;
  const int bias = f.bias;
  const int minimum_subnormal_exponent = 1 - bias - fraction_bits;
  const Word sign = value.negative ? f.SignBit() : 0;    // line 182
  const auto overflow = [&](std::size_t k) -> Encoded {  // lines 184-191, 220-227
    return {sign + (controls[k].saturating ? f.largest_finite_code : f.infinity_code), kStatusOFNX};
  };
  const int bits = BitLength(m);
  const std::int64_t e = LeadingExponent(value, bits);
  if (e > bias) {  // lines 184-191
    for (std::size_t k = 0; k < n; ++k) out[k] = overflow(k);
    return;
  }
  if (e < 1 - bias) {  // lines 193-208
    const Split s =
        SplitAt(m, static_cast<std::int64_t>(minimum_subnormal_exponent) - value.exponent);
    const Status flags = s.fraction == Fraction::Zero ? Status{0} : kStatusUFNX;
    for (std::size_t k = 0; k < n; ++k) {
      const U128 rounded = RoundedMagnitude(value.negative, s, controls[k].rounding_mode);
      out[k] = {sign + static_cast<Word>(rounded >= fraction_scale ? fraction_scale : rounded),
                flags};
    }
    return;
  }
  const Split s = SplitAt(m, bits - 1 - fraction_bits);  // line 210
  const Status flags = s.fraction == Fraction::Zero ? Status{0} : kStatusNX;
  for (std::size_t k = 0; k < n; ++k) {
    U128 rounded = RoundedMagnitude(value.negative, s, controls[k].rounding_mode);
    std::int64_t encoded_exponent = e + bias;  // line 213
    if (rounded == 2 * fraction_scale) {       // lines 214-219
      rounded = fraction_scale;
      encoded_exponent = encoded_exponent + 1;
    }
    if (encoded_exponent >= 2 * bias + 1) {  // lines 220-227
      out[k] = overflow(k);
      continue;
    }
    const Word encoded = static_cast<Word>(encoded_exponent) * static_cast<Word>(fraction_scale) +
                         static_cast<Word>(rounded - fraction_scale);  // lines 228-229
    out[k] = {sign + encoded, flags};
  }
}

// ReferenceFP8Encoding, seed 000 lines 343-452, on the sorted candidate table (FP8Table).
//
// Zero and overflow (lines 349-362) are tested directly: E > maximum_exponent implies
// |x| >= 2^E > maximum; otherwise T = |x| * 2^scale_bits < 2^38 and its QuarterCode compares
// exactly with 4 * maximum. Else let lo <= x <= hi be the neighbouring candidates (hi the first
// with value >= x; exact when hi == x). The scan of lines 364-410 keeps:
//   RTP: the smallest candidate >= x = hi. RTM: the largest <= x = lo.
//   RTZ/RTO: for x > 0 the largest in [0, x] = lo (0 is a candidate); for x < 0 hi.
//   RNE/RNA/RHB (ReferenceNearestFP8CandidateBetter): the nearer of lo, hi; x == a candidate is
//     distance 0 and wins. On an exact tie the scan meets the lower code A first and keeps it
//     (it is at the minimum distance), then replaces it by the higher code B iff: RNE B even and
//     A odd; RNA |B| > |A|; RHB B > A. (The dropped -0 of E4M3, code 0x80, is even and equal to
//     0x00, which is even and scanned first; it could only replace an odd-coded best at equal
//     distance under RNE, and an odd best at the distance of 0 only arises by beating 0x00,
//     which RNE never lets an odd code do. Directed modes use strict comparisons.)
//   The first of equal candidates is kept throughout (strict comparisons), which the table's
//   dedup keeps.
// RTO (lines 413-442): inexact with an even best: the odd-coded candidate nearest beyond best
// away from zero (the smallest odd-coded value > best for x > 0, the largest < best for x < 0),
// if any. Status (lines 444-451): inexact iff x is not a candidate; UF when |x| < minimum normal.
Encoded FastFP8Encoding(const Dyadic& value, TileDataType destination_type,
                        NumericExecutionControl control) {
  SeedAssert(destination_type == TileDataType::E4M3 || destination_type == TileDataType::HiF8,
             "ReferenceFP8Encoding destination_type is E4M3 or HiF8");
  const U128 m = value.significand;
  if (m == 0) return {0, 0};  // line 349
  const bool negative = value.negative;
  const FormatInfo& f = Format(destination_type);
  const FP8Table& table = TableOf(destination_type);
  // Lines 354-362: Sat gives the largest finite of the value's sign; otherwise the infinity of
  // that sign, or, without infinities (E4M3), the NaN code 0x7f whatever the sign.
  const auto overflowed = [&]() -> Encoded {
    const Word sign = negative ? f.SignBit() : 0;
    const Word result = control.saturating  ? sign | f.largest_finite_code
                        : f.HasInfinities() ? sign | f.infinity_code
                                            : f.nan_code;
    return {result, kStatusOFNX};
  };
  const int bits = BitLength(m);
  if (LeadingExponent(value, bits) > table.maximum_exponent) return overflowed();
  const Split s = SplitAt(m, -(static_cast<std::int64_t>(value.exponent) + table.scale_bits));
  const std::int64_t magnitude = QuarterCode(s);
  if (magnitude > 4 * table.maximum) return overflowed();
  const std::int64_t target = negative ? -magnitude : magnitude;

  const auto& values = table.value;
  const auto it = std::lower_bound(values.begin(), values.end(), target,
                                   [](std::int64_t v, std::int64_t t) { return 4 * v < t; });
  const auto hi = static_cast<std::size_t>(it - values.begin());
  const bool exact = 4 * values[hi] == target;
  std::size_t best = hi;
  if (!exact) {
    const std::size_t lo = hi - 1;
    switch (control.rounding_mode) {
      case NumericRoundingMode::RTP:
        best = hi;
        break;
      case NumericRoundingMode::RTM:
        best = lo;
        break;
      case NumericRoundingMode::RTZ:
      case NumericRoundingMode::RTO:
        best = negative ? hi : lo;
        break;
      case NumericRoundingMode::RNE:
      case NumericRoundingMode::RNA:
      case NumericRoundingMode::RHB: {
        const std::int64_t middle = 2 * (values[lo] + values[hi]);
        if (target < middle) {
          best = lo;
        } else if (target > middle) {
          best = hi;
        } else {
          const bool lo_first = table.code[lo] < table.code[hi];
          const std::size_t a = lo_first ? lo : hi;
          const std::size_t b = lo_first ? hi : lo;
          bool take_b = false;
          if (control.rounding_mode == NumericRoundingMode::RNE) {
            take_b = table.code[b] % 2 == 0 && table.code[a] % 2 != 0;
          } else if (control.rounding_mode == NumericRoundingMode::RNA) {
            const std::int64_t magnitude_a = values[a] < 0 ? -values[a] : values[a];
            const std::int64_t magnitude_b = values[b] < 0 ? -values[b] : values[b];
            take_b = magnitude_b > magnitude_a;
          } else {
            take_b = values[b] > values[a];
          }
          best = take_b ? b : a;
        }
        break;
      }
    }
    if (control.rounding_mode == NumericRoundingMode::RTO && table.code[best] % 2 == 0) {
      const int odd = negative ? table.odd_below[best] : table.odd_above[best];
      if (odd >= 0) best = static_cast<std::size_t>(odd);
    }
  }
  const bool underflow = !exact && magnitude < 4 * table.minimum_normal;
  return {table.code[best], underflow ? kStatusUFNX : !exact ? kStatusNX : Status{0}};
}

// ReferenceMatrixFloatingEncoding, seed 000 lines 454-472, with each branch's fast form.
Encoded FastMatrixFloatingEncoding(const Dyadic& value, TileDataType destination_type,
                                   NumericExecutionControl control) {
  if (destination_type == TileDataType::FP32) {  // lines 458-465
    const Encoded r = FastFP32FiniteEncoding(value, control.rounding_mode);
    if (control.saturating && (r.status & kStatusOF) != 0) {  // the largest finite of r's sign
      const FormatInfo& fp32 = Format(TileDataType::FP32);
      return {(r.word & fp32.SignBit()) | fp32.largest_finite_code, r.status};
    }
    return r;
  }
  if (destination_type == TileDataType::FP16 || destination_type == TileDataType::BF16) {
    return FastBinary16Encoding(value, destination_type, control);
  }
  return FastFP8Encoding(value, destination_type, control);
}

// ReferenceMatrixIntegerEncoding, seed 000 lines 108-131: FloatingToInteger of the Dyadic
// (FloorOf + RoundFloorSplit, exact for any exponent: the rounded integer's low 64 bits and its
// comparison with the range are exact), then EncodeRoundedInteger.
Encoded FastMatrixIntegerEncoding(const Dyadic& value, TileDataType destination_type,
                                  NumericExecutionControl control) {
  const FloorSplit x = FloorOf(value);
  return EncodeRoundedInteger(RoundFloorSplit(x, control.rounding_mode),
                              x.fraction == Fraction::Zero, destination_type, control.saturating);
}

// MatrixRoundAndSaturateSigned, seed 000 lines 68-91.
std::pair<std::int64_t, Status> FastMatrixRoundAndSaturateSigned(
    const Dyadic& value, int width, NumericRoundingMode rounding_mode) {
  SeedAssert(width == 5 || width == 9 || width == 17,
             "MatrixRoundAndSaturateSigned width in {5,9,17}");
  const FloorSplit x = FloorOf(value);
  const Wide rounded = RoundFloorSplit(x, rounding_mode);  // line 73
  const I128 maximum = (I128{1} << (width - 1)) - 1;       // lines 74-79
  const I128 minimum = -maximum - 1;
  const bool overflow = rounded.value < minimum || rounded.value > maximum;  // line 80
  I128 selected = rounded.value;                                             // lines 81-84
  if (selected < minimum) {
    selected = minimum;
  } else if (selected > maximum) {
    selected = maximum;
  }
  const Status flags = overflow                       ? kStatusOFNX  // lines 85-87
                       : x.fraction != Fraction::Zero ? kStatusNX
                                                      : Status{0};
  return {static_cast<std::int64_t>(selected), flags};
}

// MatrixQuantizedAffine, seed 000 lines 133-150. Width 0: floor(value * scale + offset) =
// floor(value * scale) + offset with the same fraction (offset an integer), so FloatingToInteger
// of the sum is RoundFloorSplit of the shifted split; no alignment of the offset to the product's
// exponent is needed, whatever the exponents. Width 5/9/17: the intermediate is an integer, so
// intermediate + offset is exact.
Encoded FastMatrixQuantizedAffine(const Dyadic& value, const Dyadic& scale, std::int64_t offset,
                                  int intermediate_width, TileDataType output_type,
                                  NumericExecutionControl control) {
  SeedAssert(intermediate_width == 0 || intermediate_width == 5 || intermediate_width == 9 ||
                 intermediate_width == 17,
             "MatrixQuantizedAffine intermediate_width in {0,5,9,17}");
  const Dyadic product = DyadicProduct(value, scale);
  if (intermediate_width == 0) {  // lines 139-142
    FloorSplit x = FloorOf(product);
    x.floor = Add(x.floor, offset);
    return EncodeRoundedInteger(RoundFloorSplit(x, control.rounding_mode),
                                x.fraction == Fraction::Zero, output_type, control.saturating);
  }
  const auto [intermediate, intermediate_flags] =  // lines 143-146
      FastMatrixRoundAndSaturateSigned(product, intermediate_width, control.rounding_mode);
  const Encoded final_encoding =  // lines 147-148
      EncodeRoundedInteger(WideFromInteger(I128{intermediate} + offset), true, output_type,
                           control.saturating);
  return {final_encoding.word,
          static_cast<Status>(intermediate_flags | final_encoding.status)};  // line 149
}

}  // namespace ptovec::oracle
