// Fast exact forms of the encoders edition 2026-09 adds (edition_2026_09_encoding.hpp): FP64,
// the packed FP4 lanes, E6M2 and the 2026-09 ReferenceMatrixFloatingEncoding. Each is derived
// from the literal transliteration step by step (the comments give the argument and the ASL
// lines) and checked equal to it by tests/oracle/fast_tcvt_2026_09_*_test.cpp. Integers only.
#include <array>
#include <cstddef>
#include <cstdint>

#include "asl.hpp"
#include "ptovec/oracle/fast_edition_2026_09.hpp"
#include "ptovec/oracle/fast_matrix_quantization.hpp"
#include "rounding_core.hpp"

namespace ptovec::oracle::edition_2026_09 {

using namespace rounding_core;  // NOLINT: the shared rounding core

// reference-quantization.asl lines 121-179, the FP32 encoder's text at binary64's widths, so the
// argument of FastFP32FiniteEncoding (fast_reference_quantization.cpp) holds with 24 -> 53,
// 127 -> 1023, -126 -> -1022, -149 -> -1074: the normalisation loops (lines 129-136) leave the
// leading exponent E clamped to -1074..1024; E > 1023 is Inf with OF|NX (lines 139-143); below
// 2^-1022 the value is rounded on the 2^-1074 grid (lines 145-156: a zero magnitude keeps the
// sign, UF|NX when inexact); otherwise on 53 bits with the carry (lines 158-168) and the
// exponent's overflow (lines 169-173), NX when inexact.
Encoded FastReferenceFP64FiniteEncoding(const Dyadic& value, NumericRoundingMode rounding_mode) {
  const U128 m = value.significand;
  if (m == 0) return {0, 0};  // line 125
  const int bits = BitLength(m);
  const std::int64_t e = LeadingExponent(value, bits);
  const Word sign = value.negative ? 0x8000000000000000 : 0;      // line 138
  if (e > 1023) return {sign + 0x7ff0000000000000, kStatusOFNX};  // lines 139-143
  if (e < -1022) {                                                // lines 145-156
    const Split s = SplitAt(m, -(static_cast<std::int64_t>(value.exponent) + 1074));
    const U128 magnitude = RoundedMagnitude(value.negative, s, rounding_mode);
    if (magnitude == 0) return {sign, kStatusUFNX};
    return {sign + static_cast<Word>(magnitude),
            s.fraction == Fraction::Zero ? Status{0} : kStatusUFNX};
  }
  const Split s = SplitAt(m, bits - 53);  // lines 158-162
  U128 magnitude = RoundedMagnitude(value.negative, s, rounding_mode);
  std::int64_t encoded_exponent = e + 1023;  // line 163
  if (magnitude == U128{1} << 53) {          // lines 164-168
    magnitude = U128{1} << 52;
    encoded_exponent = encoded_exponent + 1;
  }
  if (encoded_exponent >= 2047) return {sign + 0x7ff0000000000000, kStatusOFNX};  // 169-173
  return {sign + (static_cast<Word>(encoded_exponent) << 52) +
              (static_cast<Word>(magnitude) - (Word{1} << 52)),
          s.fraction == Fraction::Zero ? Status{0} : kStatusNX};  // lines 174-178
}

namespace {

// The lane values of ReferencePacked4FiniteValue (packed-conversion.asl lines 3-27) in units of
// 1/32: E2M1X2 0 0.5 1 1.5 2 3 4 6, E1M2X2 code/4; codes 8..15 negated (code 8 is -0: 0).
std::int64_t LaneUnits(bool e2m1, int code) {
  static constexpr std::array<std::int64_t, 8> kE2M1 = {0, 16, 32, 48, 64, 96, 128, 192};
  const int magnitude_code = code >= 8 ? code - 8 : code;
  const std::int64_t magnitude =
      e2m1 ? kE2M1[static_cast<std::size_t>(magnitude_code)] : 8 * magnitude_code;
  return code >= 8 ? -magnitude : magnitude;
}

std::int64_t Abs(std::int64_t v) { return v < 0 ? -v : v; }

// ReferencePacked4CandidateBetter, lines 29-55, on the proxies (see below).
bool Packed4CandidateBetter(std::int64_t target, std::int64_t candidate, int candidate_code,
                            std::int64_t best, int best_code, NumericRoundingMode mode) {
  const std::int64_t candidate_distance = Abs(candidate - target);  // lines 34-37
  const std::int64_t best_distance = Abs(best - target);
  if (candidate_distance < best_distance) return true;  // lines 38-40
  if (candidate_distance > best_distance) return false;
  if (candidate == 0 && best == 0 && target < 0) {  // lines 41-43
    return candidate_code >= 8 && best_code < 8;
  }
  if (mode == NumericRoundingMode::RNE) {  // lines 44-45
    return candidate_code % 2 == 0 && best_code % 2 != 0;
  } else if (mode == NumericRoundingMode::RNA) {  // lines 46-49
    return Abs(candidate) > Abs(best);
  } else if (mode == NumericRoundingMode::RTO) {  // lines 50-51
    return candidate_code % 2 != 0 && best_code % 2 == 0;
  }
  return candidate > best;  // lines 52-53
}

// Lines 80-121: the search for the best lane code, each comparison as the ASL writes it.
int Packed4Search(bool e2m1, bool negative, std::int64_t target, NumericRoundingMode mode) {
  using M = NumericRoundingMode;
  bool best_set = false;
  int best_code = 0;
  std::int64_t best_value = 0;
  for (int code = 0; code <= 15; ++code) {
    const std::int64_t candidate = LaneUnits(e2m1, code);
    bool eligible = true;
    if (mode == M::RTP) {
      eligible = candidate >= target;
    } else if (mode == M::RTM) {
      eligible = candidate <= target;
    } else if (mode == M::RTZ || mode == M::RTO) {
      eligible = negative ? (candidate <= 0 && candidate >= target)
                          : (candidate >= 0 && candidate <= target);
    }
    if (!eligible) continue;
    bool better = !best_set;
    if (best_set) {
      if (mode == M::RTP) {
        better = candidate < best_value ||
                 (candidate == best_value && target < 0 && code >= 8 && best_code < 8);
      } else if (mode == M::RTM) {
        better = candidate > best_value;
      } else if (mode == M::RTZ || mode == M::RTO) {
        better = negative ? (candidate < best_value ||
                             (candidate == best_value && code >= 8 && best_code < 8))
                          : candidate > best_value;
      } else {
        better = Packed4CandidateBetter(target, candidate, code, best_value, best_code, mode);
      }
    }
    if (better) {
      best_set = true;
      best_code = code;
      best_value = candidate;
    }
  }
  SeedAssert(best_set, "ReferencePacked4Encoding: best_set");  // line 122
  return best_code;
}

}  // namespace

// packed-conversion.asl lines 57-141. The ASL compares the value x only with lane values
// (multiples of 1/4), with the midpoints of two lane values (multiples of 1/8, in the distance
// comparisons of lines 34-40) and with 1/4 (line 136). Below the overflow bound (|x| <= 7/4 or 6,
// lines 66-75) |x| * 16 = I + g (SplitAt); the proxy V = 2I + (g != 0), in units of 1/32, is x
// exactly when x is a multiple of 1/16 and lies strictly between 2I and 2I + 2 otherwise, so
// every comparison of x with a multiple of 1/16 (all of the above) has the same answer with V:
// the ASL's search run on V (in units of 1/32) picks the same code, and "best_value != value"
// (line 132) is "g != 0 or V != the code's value".
Encoded FastReferencePacked4Encoding(const Dyadic& value, TileDataType destination_type,
                                     NumericExecutionControl control) {
  SeedAssert(destination_type == TileDataType::E2M1X2 ||  // lines 61-62
                 destination_type == TileDataType::E1M2X2,
             "ReferencePacked4Encoding: destination_type is E2M1X2 or E1M2X2");
  const NumericRoundingMode mode = control.rounding_mode;
  const U128 m = value.significand;
  if (m == 0) return {0, 0};  // line 63
  const bool negative = value.negative;
  const bool e2m1 = destination_type == TileDataType::E2M1X2;
  const std::int64_t maximum = e2m1 ? 192 : 56;  // lines 66-67: 6 and 7/4
  const Encoded overflow = {static_cast<Word>(negative ? (e2m1 ? 14 : 15)
                                              : e2m1   ? 6
                                                       : 7),
                            kStatusOFNX};                          // lines 68-75
  if (LeadingExponent(value, BitLength(m)) >= 3) return overflow;  // |x| >= 8
  const Split s = SplitAt(m, -(static_cast<std::int64_t>(value.exponent) + 4));
  const std::int64_t magnitude =
      2 * static_cast<std::int64_t>(s.integer) + (s.fraction == Fraction::Zero ? 0 : 1);
  if (magnitude > maximum) return overflow;
  const std::int64_t target = negative ? -magnitude : magnitude;
  int best_code = Packed4Search(e2m1, negative, target, mode);
  std::int64_t best_value = LaneUnits(e2m1, best_code);
  if (mode == NumericRoundingMode::RTO && best_value != target &&  // lines 123-129
      best_code % 2 == 0) {
    SeedAssert(best_code < 15, "ReferencePacked4Encoding: best_code < 15");
    best_code = best_code + 1;
    best_value = LaneUnits(e2m1, best_code);
  }
  const bool inexact = s.fraction != Fraction::Zero || best_value != target;  // line 132
  const bool underflow = e2m1 ? inexact && Abs(best_value) < 32               // lines 130-136
                              : inexact && magnitude < 8;
  return {static_cast<Word>(best_code),  // lines 137-140
          underflow ? kStatusUFNX
          : inexact ? kStatusNX
                    : Status{0}};
}

// packed-conversion.asl lines 164-201. The codes 0..254 are the values (4 + c[1:0]) / 4 *
// 2^(c[7:2] - 48) in increasing order, every one normal (e6m2.asl lines 41-47). For 2^E <= x <
// 2^(E+1) with -48 <= E <= 15, x / 2^(E-2) = I + g with I in 4..7: the nearest codes are
// c = 4(E+48) + I - 4 and c + 1 (I + 1 = 8 is the next binade's first code); the search of
// lines 180-193 takes the nearer, and on a tie (g = 1/2) RNE the even code (c's parity is I's)
// and every other mode the larger (ReferenceE6M2CandidateBetter, lines 143-162). Below 2^-48
// the nearest is code 0, never a tie, with UF|NX (line 196). Above 1.5 * 2^15 (code 0xFE, E = 15
// and I + g > 6, or E > 15) Sat ? 0xFE : 0xFF with OF|NX (lines 170-175).
Encoded FastReferenceE6M2Encoding(const Dyadic& value, NumericExecutionControl control) {
  const U128 m = value.significand;
  if (m == 0) return {0, 0};                                        // line 167
  SeedAssert(!value.negative, "ReferenceE6M2Encoding: value > 0");  // line 168
  const Encoded overflow = {control.saturating ? Word{0xfe} : Word{0xff}, kStatusOFNX};
  const int bits = BitLength(m);
  const std::int64_t e = LeadingExponent(value, bits);
  if (e > 15) return overflow;
  if (e < -48) return {0, kStatusUFNX};
  const Split s = SplitAt(m, bits - 3);
  const auto i = static_cast<std::int64_t>(s.integer);
  if (e == 15 && (i > 6 || (i == 6 && s.fraction != Fraction::Zero))) return overflow;
  const bool up = s.fraction == Fraction::Above ||
                  (s.fraction == Fraction::Half &&
                   (control.rounding_mode != NumericRoundingMode::RNE || i % 2 != 0));
  const std::int64_t code = 4 * (e + 48) + i - 4 + (up ? 1 : 0);
  return {static_cast<Word>(code), s.fraction == Fraction::Zero ? Status{0} : kStatusNX};
}

// matrix-quantization.asl (279744b) lines 454-489: FP64 with Sat as the FP32 branch (lines
// 458-469); FP32, FP16, BF16 and the FP8 branch are the seeds' text (FastMatrixFloatingEncoding,
// seed 000 lines 454-472); packed lanes and E6M2 by the forms above.
Encoded FastReferenceMatrixFloatingEncoding(const Dyadic& value, TileDataType destination_type,
                                            NumericExecutionControl control) {
  switch (destination_type) {
    case TileDataType::FP64: {
      const Encoded encoded = FastReferenceFP64FiniteEncoding(value, control.rounding_mode);
      if (control.saturating && (encoded.status & 4) != 0) {
        return {(encoded.word & 0x8000000000000000) | 0x7fefffffffffffff, encoded.status};
      }
      return encoded;
    }
    case TileDataType::E2M1X2:
    case TileDataType::E1M2X2:
      return FastReferencePacked4Encoding(value, destination_type, control);
    case TileDataType::E6M2:
      return FastReferenceE6M2Encoding(value, control);
    default:
      return oracle::FastMatrixFloatingEncoding(value, destination_type, control);
  }
}

}  // namespace ptovec::oracle::edition_2026_09
