// Edition 2026-09: literal transliteration of asl/tile/model/numeric/packed-conversion.asl
// (commit 01445483d778b1bcfccba1641f71c20f00e39385) and of the value functions of
// asl/arch/data-types/formats/e6m2.asl (c72ff36262b2087fcd8dd96d1b100fb771bd32fd) and rcpe6m2.asl
// (f372ad97f3de9613146d29454e9e1f19e985a2ef), in /work/shared/spec-2026-09. Read side by side
// with them: the statements follow the ASL one for one; comments give its line numbers.
#include <array>

#include "asl.hpp"
#include "ptovec/oracle/edition_2026_09_encoding.hpp"

namespace ptovec::oracle::edition_2026_09 {

using asl::Field;
using asl::Mod2;

// Not in the texts (e6m2.asl line 46 calls it): the exact 2^exponent.
Real FP19PowerOfTwo(int exponent) { return PowerOfTwo(exponent); }

namespace {

// e6m2.asl lines 41-47, the body of E6M2FiniteValue, statement for statement.
Real E6M2FiniteValueBody(Word value) {
  SeedAssert(Field(value, 7, 0) != 0xFF, "E6M2FiniteValue: value != Ones{8}");  // line 43
  const int exponent = static_cast<int>(Field(value, 7, 2)) - 48;               // line 44
  const int mantissa_quarters = 4 + static_cast<int>(Field(value, 1, 0));       // line 45
  return (Real(mantissa_quarters) / 4) * FP19PowerOfTwo(exponent);              // line 46
}

// packed-conversion.asl lines 3-27, the body of ReferencePacked4FiniteValue.
Real ReferencePacked4FiniteValueBody(TileDataType data_type, int code) {
  SeedAssert(data_type == TileDataType::E2M1X2 || data_type == TileDataType::E1M2X2,  // 6-7
             "ReferencePacked4FiniteValue: data_type is E2M1X2 or E1M2X2");
  SeedAssert(0 <= code && code <= 15, "ReferencePacked4FiniteValue: code in 0..15");
  const bool negative = code >= 8;                                            // line 8
  const int magnitude_code = negative ? code - 8 : code;                      // line 9
  Real magnitude = 0;                                                         // line 10
  if (data_type == TileDataType::E2M1X2) {                                    // lines 11-21
    static constexpr std::array<int, 8> kHalves = {0, 1, 2, 3, 4, 6, 8, 12};  // 0.0 .. 6.0
    magnitude = Real(kHalves[static_cast<std::size_t>(magnitude_code)]) / 2;
  } else {
    magnitude = Real(magnitude_code) / 4;  // line 23
  }
  if (negative) return -magnitude;  // line 25
  return magnitude;                 // line 26
}

}  // namespace

// e6m2.asl lines 41-47. A pure function of value[7:0]: its 255 results are computed once, each
// by the ASL's body (E6M2FiniteValueBody), and kept; a call asserts line 43.
const Real& E6M2FiniteValue(Word value) {
  SeedAssert(Field(value, 7, 0) != 0xFF, "E6M2FiniteValue: value != Ones{8}");  // line 43
  static const std::array<Real, 255> kResults = [] {
    std::array<Real, 255> results;
    for (Word c = 0; c < 255; ++c) results[c] = E6M2FiniteValueBody(c);
    return results;
  }();
  return kResults[Field(value, 7, 0)];
}

// rcpe6m2.asl lines 29-33.
Real RCPE6M2FiniteValue(Word value) {
  SeedAssert(Field(value, 7, 0) != 0xFF, "RCPE6M2FiniteValue: value != Ones{8}");  // line 31
  return Real(1) / E6M2FiniteValue(value);                                         // line 32
}

// packed-conversion.asl lines 3-27. Its 32 results are computed once by the ASL's body
// (ReferencePacked4FiniteValueBody) and kept; a call asserts lines 6-7 and the code's range.
const Real& ReferencePacked4FiniteValue(TileDataType data_type, int code) {
  SeedAssert(data_type == TileDataType::E2M1X2 || data_type == TileDataType::E1M2X2,  // 6-7
             "ReferencePacked4FiniteValue: data_type is E2M1X2 or E1M2X2");
  SeedAssert(0 <= code && code <= 15, "ReferencePacked4FiniteValue: code in 0..15");
  using Results = std::array<std::array<Real, 16>, 2>;  // [E2M1X2, E1M2X2][code]
  static const Results kResults = [] {
    Results results;
    for (int c = 0; c < 16; ++c) {
      results[0][static_cast<std::size_t>(c)] =
          ReferencePacked4FiniteValueBody(TileDataType::E2M1X2, c);
      results[1][static_cast<std::size_t>(c)] =
          ReferencePacked4FiniteValueBody(TileDataType::E1M2X2, c);
    }
    return results;
  }();
  return kResults[data_type == TileDataType::E2M1X2 ? 0 : 1][static_cast<std::size_t>(code)];
}

// packed-conversion.asl lines 29-55.
bool ReferencePacked4CandidateBetter(const Real& target, const Real& candidate, int candidate_code,
                                     const Real& best, int best_code, NumericRoundingMode mode) {
  const Real candidate_distance =  // lines 34-35
      candidate >= target ? Real(candidate - target) : Real(target - candidate);
  const Real best_distance = best >= target ? Real(best - target) : Real(target - best);  // 36-37
  if (candidate_distance < best_distance) {  // lines 38-40
    return true;
  } else if (candidate_distance > best_distance) {
    return false;
  }
  if (candidate == 0 && best == 0 && target < 0) {  // lines 41-43
    return candidate_code >= 8 && best_code < 8;
  }
  if (mode == NumericRoundingMode::RNE) {  // lines 44-45
    return Mod2(candidate_code) == 0 && Mod2(best_code) != 0;
  } else if (mode == NumericRoundingMode::RNA) {  // lines 46-49
    const Real candidate_magnitude = candidate < 0 ? Real(-candidate) : candidate;
    const Real best_magnitude = best < 0 ? Real(-best) : best;
    return candidate_magnitude > best_magnitude;
  } else if (mode == NumericRoundingMode::RTO) {  // lines 50-51
    return Mod2(candidate_code) != 0 && Mod2(best_code) == 0;
  } else {  // lines 52-53
    return candidate > best;
  }
}

// packed-conversion.asl lines 57-141.
Encoded ReferencePacked4Encoding(const Real& value, TileDataType destination_type,
                                 NumericExecutionControl control) {
  SeedAssert(destination_type == TileDataType::E2M1X2 ||  // lines 61-62
                 destination_type == TileDataType::E1M2X2,
             "ReferencePacked4Encoding: destination_type is E2M1X2 or E1M2X2");
  const NumericRoundingMode mode = control.rounding_mode;
  if (value == 0) return {0, 0};                           // line 63
  const bool negative = value < 0;                         // line 64
  const Real magnitude = negative ? Real(-value) : value;  // line 65
  const bool e2m1 = destination_type == TileDataType::E2M1X2;
  const Real maximum = e2m1 ? Real(6) : Real(7) / 4;  // lines 66-67
  if (magnitude > maximum) {                          // lines 68-75
    return {static_cast<Word>(negative ? (e2m1 ? 14 : 15) : e2m1 ? 6 : 7), 0x14};
  }

  bool best_set = false;  // lines 77-79
  int best_code = 0;
  Real best_value = 0;
  for (int code = 0; code <= 15; ++code) {  // lines 80-121
    const Real& candidate = ReferencePacked4FiniteValue(destination_type, code);
    bool eligible = true;
    if (mode == NumericRoundingMode::RTP) {
      eligible = candidate >= value;
    } else if (mode == NumericRoundingMode::RTM) {
      eligible = candidate <= value;
    } else if (mode == NumericRoundingMode::RTZ || mode == NumericRoundingMode::RTO) {
      eligible = negative ? (candidate <= 0 && candidate >= value)
                          : (candidate >= 0 && candidate <= value);
    }
    if (eligible) {
      bool better = !best_set;
      if (best_set) {
        if (mode == NumericRoundingMode::RTP) {
          better = candidate < best_value ||
                   (candidate == best_value && value < 0 && code >= 8 && best_code < 8);
        } else if (mode == NumericRoundingMode::RTM) {
          better = candidate > best_value;
        } else if (mode == NumericRoundingMode::RTZ || mode == NumericRoundingMode::RTO) {
          better = negative ? (candidate < best_value ||
                               (candidate == best_value && code >= 8 && best_code < 8))
                            : candidate > best_value;
        } else {
          better =
              ReferencePacked4CandidateBetter(value, candidate, code, best_value, best_code, mode);
        }
      }
      if (better) {
        best_set = true;
        best_code = code;
        best_value = candidate;
      }
    }
  }
  SeedAssert(best_set, "ReferencePacked4Encoding: best_set");     // line 122
  if (mode == NumericRoundingMode::RTO && best_value != value &&  // lines 123-129
      Mod2(best_code) == 0) {
    SeedAssert(best_code < 15, "ReferencePacked4Encoding: best_code < 15");
    best_code = best_code + 1;
    best_value = ReferencePacked4FiniteValue(destination_type, best_code);
  }
  const Real minimum_normal = e2m1 ? Real(1) : Real(1) / 4;                     // lines 130-131
  const bool inexact = best_value != value;                                     // line 132
  const Real best_magnitude = best_value < 0 ? Real(-best_value) : best_value;  // line 133
  const bool underflow = e2m1 ? inexact && best_magnitude < minimum_normal      // lines 134-136
                              : inexact && magnitude < minimum_normal;
  return {static_cast<Word>(best_code),  // lines 137-140
          underflow ? Status{0x18}
          : inexact ? Status{0x10}
                    : Status{0}};
}

// packed-conversion.asl lines 143-162.
bool ReferenceE6M2CandidateBetter(const Real& target, const Real& candidate, int candidate_code,
                                  const Real& best, int best_code, NumericRoundingMode mode) {
  const Real candidate_distance =  // lines 148-149
      candidate >= target ? Real(candidate - target) : Real(target - candidate);
  const Real best_distance = best >= target ? Real(best - target) : Real(target - best);  // 150-151
  if (candidate_distance < best_distance) {  // lines 152-154
    return true;
  } else if (candidate_distance > best_distance) {
    return false;
  }
  if (mode == NumericRoundingMode::RNE) {  // lines 155-161
    return Mod2(candidate_code) == 0 && Mod2(best_code) != 0;
  } else if (mode == NumericRoundingMode::RNA) {
    return candidate > best;
  } else {
    return candidate > best;
  }
}

// packed-conversion.asl lines 164-201.
Encoded ReferenceE6M2Encoding(const Real& value, NumericExecutionControl control) {
  if (value == 0) return {0, 0};                              // line 167
  SeedAssert(value > 0, "ReferenceE6M2Encoding: value > 0");  // line 168
  const Real& maximum = E6M2FiniteValue(0xfe);                // line 169
  if (value > maximum) {                                      // lines 170-175
    return {control.saturating ? Word{0xfe} : Word{0xff}, 0x14};
  }

  bool best_set = false;  // lines 177-179
  int best_code = 0;
  Real best_value = 0;
  for (int code = 0; code <= 254; ++code) {  // lines 180-193
    const Real& candidate = E6M2FiniteValue(static_cast<Word>(code));
    bool better = !best_set;
    if (best_set) {
      better = ReferenceE6M2CandidateBetter(value, candidate, code, best_value, best_code,
                                            control.rounding_mode);
    }
    if (better) {
      best_set = true;
      best_code = code;
      best_value = candidate;
    }
  }
  SeedAssert(best_set, "ReferenceE6M2Encoding: best_set");       // line 194
  const bool inexact = best_value != value;                      // line 195
  const bool underflow = inexact && value < E6M2FiniteValue(0);  // line 196
  return {static_cast<Word>(best_code),                          // lines 197-200
          underflow ? Status{0x18}
          : inexact ? Status{0x10}
                    : Status{0}};
}

}  // namespace ptovec::oracle::edition_2026_09
