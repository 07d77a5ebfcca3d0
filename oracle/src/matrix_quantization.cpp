// Literal transliteration of seed 000_93cee333e42f6460.txt (PTO-ARCH-PROFILE-MATRIX-QUANTIZATION),
// plus the FP19 helpers of spec-notes section 4 (not a seed).
// Read side by side with the seed: the statements follow it one for one; comments give seed lines.
#include "ptovec/oracle/matrix_quantization.hpp"

#include <array>

#include "asl.hpp"
#include "ptovec/oracle/reference_quantization.hpp"

namespace ptovec::oracle {

namespace {

using asl::Field;
using asl::Mod2;
using asl::SIntField;

bool IsQuantWidth(int width) { return width == 0 || width == 5 || width == 9 || width == 17; }

}  // namespace

// ---------------------------------------------------------------------------------------------
// FP19: spec-notes section 4 (FP19 row and the FP32ToFP19 paragraph), not a seed.
// ---------------------------------------------------------------------------------------------

Real FP19FiniteValue(Word fp19) {
  const Word bits = LowBits(fp19, 19);
  const bool negative = ((bits >> 18) & 1) == 1;
  const Word exponent = (bits >> 10) & 0xFF;
  const Word fraction = bits & 0x3FF;
  SeedAssert(exponent != 255, "FP19FiniteValue: exponent != 255 (Inf/NaN, spec-notes section 4)");
  Real magnitude = 0;
  if (exponent == 0) {
    magnitude = Real(Integer(fraction)) * PowerOfTwo(-136);  // f * 2^-136
  } else {
    magnitude = (Real(1) + Real(Integer(fraction)) / Real(1024)) *  // (1 + f/1024) * 2^(e-127)
                PowerOfTwo(static_cast<int>(exponent) - 127);
  }
  if (negative) return -magnitude;
  return magnitude;
}

Word FP32ToFP19(Word fp32) {
  const Word bits = LowBits(fp32, 32);
  const Word exponent = (bits >> 23) & 0xFF;
  const Word fraction = bits & 0x7FFFFF;
  if (exponent == 255 && fraction != 0) return 0x3FF00;  // any NaN -> quiet NaN 0x3FF00
  const Word kept = bits >> 13;                          // bits 31:13 (19 bits)
  const Word dropped = bits & 0x1FFF;                    // the 13 low fraction bits
  const Word half = 0x1000;
  Word result = kept;
  if (dropped > half || (dropped == half && (kept & 1) == 1)) {
    result = kept + 1;  // a carry out of the fraction increments the exponent field
  }
  return LowBits(result, 19);
}

// ---------------------------------------------------------------------------------------------
// Seed 000
// ---------------------------------------------------------------------------------------------

// Seed 000 lines 11-23.
Word MatrixQuantParameter(Word fp19, Word offset, int offset_width) {
  SeedAssert(IsQuantWidth(offset_width), "MatrixQuantParameter: offset_width in {0,5,9,17}");
  Word result = 0;                    // line 14
  result |= LowBits(fp19, 19) << 13;  // line 15: result[31:13] = fp19
  switch (offset_width) {             // lines 16-21
    case 0:
      return result;
    case 5:
      result |= LowBits(offset, 5) << 37;  // result[41:37] = offset[4:0]
      break;
    case 9:
      result |= LowBits(offset, 9) << 37;  // result[45:37] = offset[8:0]
      break;
    case 17:
      result |= LowBits(offset, 17) << 37;  // result[53:37] = offset[16:0]
      break;
    default:
      break;
  }
  return result;  // line 22
}

// Seed 000 lines 25-30.
Word MatrixShiftParameter(int code) {
  SeedAssert(0 <= code && code <= 15, "MatrixShiftParameter: code in 0..15");
  Word result = 0;                                      // line 27
  result |= LowBits(static_cast<Word>(code), 4) << 32;  // line 28: result[35:32] = code
  return result;
}

// Seed 000 lines 32-41.
Integer MatrixQuantOffset(Word parameter, int width) {
  SeedAssert(IsQuantWidth(width), "MatrixQuantOffset: width in {0,5,9,17}");
  switch (width) {
    case 0:
      return 0;  // line 36
    case 5:
      return SIntField(parameter, 41, 37);  // line 37
    case 9:
      return SIntField(parameter, 45, 37);  // line 38
    case 17:
      return SIntField(parameter, 53, 37);  // line 39
    default:
      break;
  }
  return 0;
}

// Seed 000 lines 43-51.
NumericRoundingMode MatrixMagnitudeRoundingMode(NumericRoundingMode mode, bool negative) {
  if (!negative) return mode;  // line 46
  if (mode == NumericRoundingMode::RTP) {
    return NumericRoundingMode::RTM;  // line 47
  } else if (mode == NumericRoundingMode::RTM) {
    return NumericRoundingMode::RTP;  // line 48
  }
  return mode;  // line 50
}

// Seed 000 lines 53-66.
Integer MatrixRoundMagnitude(const Real& value, NumericRoundingMode mode, bool negative) {
  if (negative && mode == NumericRoundingMode::RHB) {  // lines 57-63
    const Integer lower = RoundDown(value);
    const Real fraction = value - Real(lower);
    if (fraction <= Real(1, 2)) {
      return lower;
    } else {
      return lower + 1;
    }
  }
  return FloatingToInteger(value, MatrixMagnitudeRoundingMode(mode, negative));  // lines 64-65
}

// Seed 000 lines 68-91.
std::pair<Integer, Status> MatrixRoundAndSaturateSigned(const Real& value, int width,
                                                        NumericRoundingMode rounding_mode) {
  SeedAssert(width == 5 || width == 9 || width == 17,
             "MatrixRoundAndSaturateSigned: width in {5,9,17}");
  const Integer rounded = FloatingToInteger(value, rounding_mode);  // line 73
  const Integer minimum = width == 5   ? Integer(-16)               // lines 74-76
                          : width == 9 ? Integer(-256)
                                       : Integer(-65536);
  const Integer maximum = width == 5   ? Integer(15)  // lines 77-79
                          : width == 9 ? Integer(255)
                                       : Integer(65535);
  const bool overflow = rounded < minimum || rounded > maximum;  // line 80
  Integer selected = rounded;                                    // lines 81-84
  if (selected < minimum) {
    selected = minimum;
  } else if (selected > maximum) {
    selected = maximum;
  }
  const Status flags = overflow                 ? Status{0x14}  // lines 85-87
                       : Real(rounded) != value ? Status{0x10}
                                                : Status{0};
  return {selected, flags};  // lines 88-90
}

// Seed 000 lines 93-106.
Encoded MatrixShiftS32ToS16(Word value, int shift) {
  SeedAssert(1 <= shift && shift <= 16, "MatrixShiftS32ToS16: shift in 1..16");
  const Word asr = asl::ASR32(value, static_cast<unsigned>(shift));  // line 96: SInt(ASR(...))
  const std::int64_t shifted = static_cast<std::int64_t>(SignExtend(asr, 32));
  if (shifted < -32768) {  // lines 97-99
    return {0xffffffffffff8000, 0x14};
  } else if (shifted > 32767) {  // lines 100-101
    return {0x7fff, 0x14};
  }
  return {SignExtend(LowBits(WordOf(Integer(shifted)), 16), 16),  // lines 103-105
          0};
}

// Seed 000 lines 108-131.
Encoded ReferenceMatrixIntegerEncoding(const Real& value, TileDataType destination_type,
                                       NumericExecutionControl control) {
  const Integer rounded = FloatingToInteger(value, control.rounding_mode);  // line 112
  const Integer minimum =                                                   // lines 113-114
      ReferenceIntegerValue(TileIntegerMinimum(destination_type), destination_type);
  const Integer maximum =  // lines 115-116
      ReferenceIntegerValue(TileIntegerMaximum(destination_type), destination_type);
  const bool overflow = rounded < minimum || rounded > maximum;  // line 117
  Integer selected = rounded;                                    // line 118
  if (control.saturating && overflow) {                          // lines 119-123
    if (selected < minimum) {
      selected = minimum;
    } else {
      selected = maximum;
    }
  }
  const Status flags = overflow                 ? Status{0x14}  // lines 124-126
                       : Real(rounded) != value ? Status{0x10}
                                                : Status{0};
  return {NormalizeTileInteger(WordOf(selected), destination_type),  // lines 127-130
          flags};
}

// Seed 000 lines 133-150.
Encoded MatrixQuantizedAffine(const Real& value, const Real& scale, const Integer& offset,
                              int intermediate_width, TileDataType output_type,
                              NumericExecutionControl control) {
  SeedAssert(IsQuantWidth(intermediate_width),
             "MatrixQuantizedAffine: intermediate_width in {0,5,9,17}");
  if (intermediate_width == 0) {  // lines 139-142
    return ReferenceMatrixIntegerEncoding(value * scale + Real(offset), output_type, control);
  }
  const int width = intermediate_width;            // line 143
  const auto [intermediate, intermediate_flags] =  // lines 144-146
      MatrixRoundAndSaturateSigned(value * scale, width, control.rounding_mode);
  const Encoded final_result =  // lines 147-148
      ReferenceMatrixIntegerEncoding(Real(intermediate + offset), output_type, control);
  return {final_result.word,  // line 149
          static_cast<Status>(intermediate_flags | final_result.status)};
}

// Seed 000 lines 152-233.
Encoded ReferenceBinary16Encoding(const Real& value, TileDataType destination_type,
                                  NumericExecutionControl control) {
  SeedAssert(destination_type == TileDataType::FP16 ||  // lines 156-157
                 destination_type == TileDataType::BF16,
             "ReferenceBinary16Encoding: destination_type is FP16 or BF16");
  if (value == 0) return {0, 0};                      // line 158
  const bool negative = value < 0;                    // line 159
  Real normalized = negative ? Real(-value) : value;  // line 160
  int exponent = 0;                                   // line 161
  for (int step = 1; step <= 128; ++step) {           // lines 162-167
    if (normalized >= 2 && exponent < 128) {
      normalized = normalized / 2;
      exponent = exponent + 1;
    }
  }
  for (int step = 1; step <= 149; ++step) {  // lines 168-173
    if (normalized < 1 && exponent > -149) {
      normalized = normalized * 2;
      exponent = exponent - 1;
    }
  }

  const bool bf16 = destination_type == TileDataType::BF16;  // lines 175-182
  // fraction_bits (line 176) is 7 or 10; the seed never reads it after this line.
  const int fraction_scale = bf16 ? 128 : 1024;
  const int bias = bf16 ? 127 : 15;
  const int maximum_exponent = bf16 ? 127 : 15;
  const int minimum_exponent = bf16 ? -126 : -14;
  const int minimum_subnormal_exponent = bf16 ? -133 : -24;
  const Word sign = negative ? 0x8000 : 0;

  if (exponent > maximum_exponent) {  // lines 184-191
    const Word overflow = control.saturating ? (bf16 ? 0x7f7f : 0x7bff) : (bf16 ? 0x7f80 : 0x7c00);
    return {sign + overflow, 0x14};
  }

  if (exponent < minimum_exponent) {  // lines 193-208
    const Real scaled =
        (negative ? Real(-value) : value) / ReferencePowerOfTwo(minimum_subnormal_exponent);
    Integer rounded = MatrixRoundMagnitude(scaled, control.rounding_mode, negative);
    if (rounded >= fraction_scale) {
      return {sign + static_cast<Word>(fraction_scale),
              Real(rounded) == scaled ? Status{0} : Status{0x18}};
    }
    if (rounded < 0) rounded = 0;
    return {sign + WordOf(rounded), Real(rounded) == scaled ? Status{0} : Status{0x18}};
  }

  const Real scaled = normalized * Real(fraction_scale);                            // line 210
  Integer rounded = MatrixRoundMagnitude(scaled, control.rounding_mode, negative);  // 211-212
  int encoded_exponent = exponent + bias;                                           // line 213
  if (rounded == 2 * fraction_scale) {                                              // lines 214-219
    rounded = fraction_scale;
    SeedAssert(encoded_exponent <= 254, "ReferenceBinary16Encoding: encoded_exponent <= 254");
    encoded_exponent = encoded_exponent + 1;
  }
  if (encoded_exponent >= 2 * bias + 1) {  // lines 220-227
    const Word overflow = control.saturating ? (bf16 ? 0x7f7f : 0x7bff) : (bf16 ? 0x7f80 : 0x7c00);
    return {sign + overflow, 0x14};
  }
  const Integer fraction = rounded - fraction_scale;                              // line 228
  const Integer encoded = Integer(encoded_exponent) * fraction_scale + fraction;  // line 229
  return {sign + WordOf(encoded),                                                 // lines 230-232
          Real(rounded) == scaled ? Status{0} : Status{0x10}};
}

// Seed 000 lines 235-261.
Real ReferenceBinary16FiniteValue(Word value, TileDataType data_type) {
  SeedAssert(data_type == TileDataType::FP16 || data_type == TileDataType::BF16,  // line 238
             "ReferenceBinary16FiniteValue: data_type is FP16 or BF16");
  const bool bf16 = data_type == TileDataType::BF16;                        // line 239
  const Word sign = Field(value, 15, 15);                                   // line 240
  const Word exponent = bf16 ? Field(value, 14, 7) : Field(value, 14, 10);  // lines 241-242
  const Word fraction = bf16 ? Field(value, 6, 0) : Field(value, 9, 0);     // lines 243-244
  const int fraction_scale = bf16 ? 128 : 1024;                             // line 245
  const int bias = bf16 ? 127 : 15;                                         // line 246
  const int minimum_subnormal_exponent = bf16 ? -133 : -24;                 // line 247
  const Word maximum_field = bf16 ? 255 : 31;                               // line 248
  SeedAssert(exponent != maximum_field,                                     // line 249
             "ReferenceBinary16FiniteValue: exponent != maximum_field");
  Real magnitude = 0;   // line 250
  if (exponent == 0) {  // lines 251-258
    magnitude = Real(Integer(fraction)) * ReferencePowerOfTwo(minimum_subnormal_exponent);
  } else {
    magnitude = (Real(1) + Real(Integer(fraction)) / Real(fraction_scale)) *
                ReferencePowerOfTwo(static_cast<int>(exponent) - bias);
  }
  if (sign == 1) return -magnitude;  // line 259
  return magnitude;                  // line 260
}

namespace {

// Seed 000 lines 264-316: the body of ReferenceFP8FiniteValue, statement for statement.
Real ReferenceFP8FiniteValueBody(TileDataType data_type, Word code) {
  SeedAssert(data_type == TileDataType::E4M3 || data_type == TileDataType::HiF8,  // 266-267
             "ReferenceFP8FiniteValue: data_type is E4M3 or HiF8");
  const bool negative = Field(code, 7, 7) == 1;  // line 268
  Real magnitude = 0;                            // line 269
  if (data_type == TileDataType::E4M3) {         // lines 270-279
    const Word exponent = Field(code, 6, 3);
    const Word fraction = Field(code, 2, 0);
    if (exponent == 0) {
      magnitude = Real(Integer(fraction)) * ReferencePowerOfTwo(-9);
    } else {
      magnitude = (Real(1) + Real(Integer(fraction)) / Real(8)) *
                  ReferencePowerOfTwo(static_cast<int>(exponent) - 7);
    }
  } else {
    const int body = static_cast<int>(Field(code, 6, 0));  // line 281
    if (body <= 7) {                                       // lines 282-287
      if (body == 0) {
        magnitude = 0;
      } else {
        magnitude = ReferencePowerOfTwo(body - 23);
      }
    } else if (body <= 15) {  // lines 288-289
      magnitude = Real(1) + Real(body - 8) / Real(8);
    } else if (body <= 31) {  // lines 290-294
      const Word exponent_code = Field(code, 3, 3);
      const int exponent = exponent_code == 0 ? 1 : -1;
      magnitude =
          (Real(1) + Real(Integer(Field(code, 2, 0))) / Real(8)) * ReferencePowerOfTwo(exponent);
    } else if (body <= 63) {  // lines 295-300
      const Word exponent_code = Field(code, 4, 3);
      const int absolute = 2 + static_cast<int>(Field(code, 3, 3));
      const int exponent = exponent_code < 2 ? absolute : -absolute;
      magnitude =
          (Real(1) + Real(Integer(Field(code, 2, 0))) / Real(8)) * ReferencePowerOfTwo(exponent);
    } else if (body <= 95) {  // lines 301-306
      const Word exponent_code = Field(code, 4, 2);
      const int absolute = 4 + static_cast<int>(Field(code, 3, 2));
      const int exponent = exponent_code < 4 ? absolute : -absolute;
      magnitude =
          (Real(1) + Real(Integer(Field(code, 1, 0))) / Real(4)) * ReferencePowerOfTwo(exponent);
    } else {  // lines 307-313
      const Word exponent_code = Field(code, 4, 1);
      const int absolute = 8 + static_cast<int>(Field(code, 3, 1));
      const int exponent = exponent_code < 8 ? absolute : -absolute;
      magnitude =
          (Real(1) + Real(Integer(Field(code, 0, 0))) / Real(2)) * ReferencePowerOfTwo(exponent);
    }
  }
  if (negative) return -magnitude;  // line 315
  return magnitude;                 // line 316
}

}  // namespace

// Seed 000 lines 263-317. A pure function of the type (E4M3 or HiF8) and code[7:0]: its 512
// results are computed once, each by the seed's own body (ReferenceFP8FiniteValueBody above), and
// kept; a call asserts the type (lines 266-267) and returns the kept result.
const Real& ReferenceFP8FiniteValue(TileDataType data_type, Word code) {
  SeedAssert(data_type == TileDataType::E4M3 || data_type == TileDataType::HiF8,  // 266-267
             "ReferenceFP8FiniteValue: data_type is E4M3 or HiF8");
  using Results = std::array<std::array<Real, 256>, 2>;  // [E4M3, HiF8][code]
  static const Results kResults = [] {
    Results results;
    for (std::size_t c = 0; c < 256; ++c) {
      results[0][c] = ReferenceFP8FiniteValueBody(TileDataType::E4M3, static_cast<Word>(c));
      results[1][c] = ReferenceFP8FiniteValueBody(TileDataType::HiF8, static_cast<Word>(c));
    }
    return results;
  }();
  return kResults[data_type == TileDataType::HiF8 ? 1 : 0][LowBits(code, 8)];
}

// Seed 000 lines 319-341.
bool ReferenceNearestFP8CandidateBetter(const Real& target, const Real& candidate,
                                        int candidate_code, const Real& best, int best_code,
                                        NumericRoundingMode mode) {
  SeedAssert(0 <= candidate_code && candidate_code <= 255 && 0 <= best_code && best_code <= 255,
             "ReferenceNearestFP8CandidateBetter: codes in 0..255");
  const Real candidate_distance =  // lines 324-325
      candidate >= target ? Real(candidate - target) : Real(target - candidate);
  const Real best_distance = best >= target ? Real(best - target) : Real(target - best);  // 326
  if (candidate_distance < best_distance) {  // lines 327-329
    return true;
  } else if (candidate_distance > best_distance) {
    return false;
  }
  if (mode == NumericRoundingMode::RNE) {  // lines 330-331
    return Mod2(candidate_code) == 0 && Mod2(best_code) != 0;
  } else if (mode == NumericRoundingMode::RNA) {  // lines 332-335
    const Real candidate_magnitude = candidate < 0 ? Real(-candidate) : candidate;
    const Real best_magnitude = best < 0 ? Real(-best) : best;
    return candidate_magnitude > best_magnitude;
  } else if (mode == NumericRoundingMode::RTO) {  // lines 336-337
    return Mod2(candidate_code) != 0 && Mod2(best_code) == 0;
  } else {  // lines 338-339
    return candidate > best;
  }
}

// Seed 000 lines 343-452. A literal transliteration of seed 000's ReferenceFP8Encoding, kept
// whole as the seed writes it (110 lines there), so it stays readable line by line beside it.
Encoded ReferenceFP8Encoding(const Real& value, TileDataType destination_type,
                             NumericExecutionControl control) {
  // #lizard forgives: the seed function is 110 lines; split, it would no longer read beside it.
  SeedAssert(destination_type == TileDataType::E4M3 ||  // lines 347-348
                 destination_type == TileDataType::HiF8,
             "ReferenceFP8Encoding: destination_type is E4M3 or HiF8");
  if (value == 0) return {0, 0};                           // line 349
  const bool negative = value < 0;                         // line 350
  const Real magnitude = negative ? Real(-value) : value;  // line 351
  const Real maximum = destination_type == TileDataType::E4M3 ? Real(448) : Real(32768);  // 352
  if (magnitude > maximum) {  // lines 354-362
    const Word result = control.saturating
                            ? (destination_type == TileDataType::E4M3 ? (negative ? 0xfe : 0x7e)
                                                                      : (negative ? 0xee : 0x6e))
                        : destination_type == TileDataType::E4M3 ? 0x7f
                        : negative                               ? 0xef
                                                                 : 0x6f;
    return {result, 0x14};
  }

  bool best_set = false;  // lines 364-366
  int best_code = 0;
  Real best_value = 0;
  for (int code = 0; code <= 255; ++code) {  // lines 367-410
    const Word candidate_bits = static_cast<Word>(code);
    const NumericValueClass value_class =
        TileNumericValueClass(destination_type, static_cast<Word>(code));
    if (!NumericValueClassIsNaN(value_class) && !NumericValueClassIsInfinity(value_class) &&
        value_class != NumericValueClass::InvalidEncoding) {
      const Real& candidate = ReferenceFP8FiniteValue(destination_type, candidate_bits);
      bool eligible = true;  // lines 376-385
      if (control.rounding_mode == NumericRoundingMode::RTP) {
        eligible = candidate >= value;
      } else if (control.rounding_mode == NumericRoundingMode::RTM) {
        eligible = candidate <= value;
      } else if (control.rounding_mode == NumericRoundingMode::RTZ ||
                 control.rounding_mode == NumericRoundingMode::RTO) {
        eligible = negative ? (candidate <= 0 && candidate >= value)
                            : (candidate >= 0 && candidate <= value);
      }
      if (eligible) {  // lines 386-408
        bool better = !best_set;
        if (best_set) {
          if (control.rounding_mode == NumericRoundingMode::RTP) {
            better = candidate < best_value;
          } else if (control.rounding_mode == NumericRoundingMode::RTM) {
            better = candidate > best_value;
          } else if (control.rounding_mode == NumericRoundingMode::RTZ ||
                     control.rounding_mode == NumericRoundingMode::RTO) {
            better = negative ? candidate < best_value : candidate > best_value;
          } else {
            better = ReferenceNearestFP8CandidateBetter(value, candidate, code, best_value,
                                                        best_code, control.rounding_mode);
          }
        }
        if (better) {
          best_set = true;
          best_code = code;
          best_value = candidate;
        }
      }
    }
  }
  SeedAssert(best_set, "ReferenceFP8Encoding: best_set");  // line 411

  if (control.rounding_mode == NumericRoundingMode::RTO && best_value != value &&  // 413-442
      Mod2(best_code) == 0) {
    bool odd_set = false;
    int odd_code = best_code;
    Real odd_value = best_value;
    for (int code = 0; code <= 255; ++code) {
      if (Mod2(code) == 1) {
        const NumericValueClass candidate_class =
            TileNumericValueClass(destination_type, static_cast<Word>(code));
        if (!NumericValueClassIsNaN(candidate_class) &&
            !NumericValueClassIsInfinity(candidate_class)) {
          const Real& candidate =
              ReferenceFP8FiniteValue(destination_type, static_cast<Word>(code));
          const bool away = negative ? candidate < best_value : candidate > best_value;
          if (away && (!odd_set || (negative ? candidate > odd_value : candidate < odd_value))) {
            odd_set = true;
            odd_code = code;
            odd_value = candidate;
          }
        }
      }
    }
    if (odd_set) {
      best_code = odd_code;
      best_value = odd_value;
    }
  }

  const Real minimum_normal = destination_type == TileDataType::E4M3  // lines 444-445
                                  ? ReferencePowerOfTwo(-6)
                                  : ReferencePowerOfTwo(-15);
  const bool inexact = best_value != value;                      // line 446
  const bool underflow = inexact && magnitude < minimum_normal;  // line 447
  return {static_cast<Word>(best_code),                          // lines 448-451
          underflow ? Status{0x18}
          : inexact ? Status{0x10}
                    : Status{0}};
}

// Seed 000 lines 454-472.
Encoded ReferenceMatrixFloatingEncoding(const Real& value, TileDataType destination_type,
                                        NumericExecutionControl control) {
  if (destination_type == TileDataType::FP32) {  // lines 458-465
    const Encoded encoded = ReferenceFP32FiniteEncoding(value, control.rounding_mode);
    const Word result = encoded.word;
    const Status flags = encoded.status;
    if (control.saturating && (flags & 4) != 0) {
      const Word sign = result & 0x80000000;
      return {sign | 0x7f7fffff, flags};
    }
    return {result, flags};
  } else if (destination_type == TileDataType::FP16 ||  // lines 466-468
             destination_type == TileDataType::BF16) {
    return ReferenceBinary16Encoding(value, destination_type, control);
  } else {  // lines 469-470
    return ReferenceFP8Encoding(value, destination_type, control);
  }
}

}  // namespace ptovec::oracle
