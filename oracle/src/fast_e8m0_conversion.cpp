// Fast exact TCVT to E8M0: FastFloatToE8M0 == ReferenceFloatToE8M0 (seed 001 lines 103-152).
//
// Derivation, for a source with F fraction bits, bias B and an all-ones exponent field E
// (FP16: F 10, B 15, E 31; BF16: F 7, B 127, E 255; FP32: F 23, B 127, E 255), a word with sign
// bit s, exponent field e and fraction f:
//
//  * Lines 109-122 (TileNumericValueClass, spec-notes section 4). s = 1 is a negative class or
//    a NaN, e == E with f != 0 a NaN, e == 0 with f == 0 +0: all {0xFF, 0x01}. e == E with
//    f == 0 and s = 0 is +Inf: {Sat ? 0xFE : 0xFF, 0x14}.
//  * Lines 124-132 (TileNumericFiniteDecomposition). Normal: significand 2^F + f, exponent
//    e - B - F, so the highest set bit is F and floor_exponent = e - B; exact_power iff f == 0.
//    Subnormal: significand f, exponent 1 - B - F, highest h = 63 - countl_zero(f),
//    floor_exponent = 1 - B - F + h; exact_power iff f == 2^h. The assertions of lines 126 and
//    129 always hold: floor_exponent spans FP16 -24..15, BF16 -133..127, FP32 -149..127.
//  * Lines 133-143: floor_exponent < -127 gives {Sat ? 0x00 : 0xFF, 0x18}; floor_exponent == 127
//    and not exact_power gives {Sat ? 0xFE : 0xFF, 0x14}.
//  * Lines 145-151 with ReferenceE8M0RoundExponent (lines 45-101), which recomputes the same
//    highest bit, floor exponent and exact_power (lines 50-55): a power of two gives
//    {floor + 127, 0}. Otherwise the code is floor + 127 (+1 for the ceiling) with status 0x10:
//    RTM floor, RTP ceiling, RTZ ceiling iff floor < 0, RTO ceiling iff floor is even (lines
//    61-75). Every other mode reaches the square test of lines 77-100.
//  * The square test. The significand s has h + 1 <= 24 bits, so MultiplyWord(s, s) = s^2 <
//    2^48 never wraps, and boundary_shift = 2h + 1 <= 47 < 64, so the boundary is exactly
//    2^(2h+1). s^2 is a perfect square and 2^(2h+1) is not, so the tie branches (lines 87-100)
//    are never reached, and the result is the ceiling iff s^2 > 2^(2h+1). With the significand
//    normalized to 24 bits, m = s * 2^(23-h) in [2^23, 2^24), both sides scale by 2^(46-2h):
//    s^2 > 2^(2h+1) iff m^2 > 2^47 iff m > kSqrt2Floor = floor(sqrt(2^47)) = 0xB504F3. (Since no
//    tie is reachable, a mode value outside the seven, which the literal function would carry to
//    the assertion of line 98 only on a tie, rounds like the nearest modes here as there.)
//  * Line 147's assertion always holds: the rounded exponent is in -127..127 (floor >= -127 and
//    floor == 127 only for a power of two).
// The layouts (F, B, E) and the E8M0 codes (NaN 0xFF, largest finite 0xFE, bias 127) are read
// from the format table (formats.hpp).
#include "ptovec/oracle/fast_e8m0_conversion.hpp"

#include <array>
#include <bit>
#include <cstdint>

#include "ptovec/oracle/e8m0_conversion.hpp"

namespace ptovec::oracle {

namespace {

// floor(sqrt(2) * 2^23) = floor(sqrt(2^47)): the largest 24-bit m with m^2 < 2^47.
constexpr Word kSqrt2Floor = 0xB504F3;
static_assert(kSqrt2Floor * kSqrt2Floor < (Word{1} << 47));
static_assert((kSqrt2Floor + 1) * (kSqrt2Floor + 1) > (Word{1} << 47));

[[noreturn, gnu::cold, gnu::noinline]] void UnsupportedSource() {
  SeedAssert(false, "FastFloatToE8M0: HardwareTCVTE8M0SourceTypeSupported(source_type)");
  __builtin_unreachable();
}

// What the conversion reads of the format table: the source's binary layout (F fraction bits,
// all-ones exponent field E, bias B; see the top) and the E8M0 codes of the results.
struct Layout {
  unsigned fraction_bits;  // F (at most 23 for every supported source)
  Word width_mask;         // the source's code bits
  Word all_ones;           // E
  int bias;                // B
  Word nan;                // E8M0 NaN (0xFF)
  Word largest;            // E8M0 largest finite (0xFE, 2^127)
  int e8m0_bias;           // 127: code c is 2^(c - 127), code 0 is 2^-127
};

Layout LayoutFrom(const FormatInfo& source) {
  const FormatInfo& e8m0 = Format(TileDataType::E8M0);
  return {source.fraction_bits,
          LowBits(~Word{0}, source.width),
          (Word{1} << source.exponent_bits) - 1,
          source.bias,
          e8m0.nan_code,
          e8m0.largest_finite_code,
          e8m0.bias};
}

// The Layout of each source by type code, read from the table once; `supported` false for the
// types HardwareTCVTE8M0SourceTypeSupported refuses.
struct Layouts {
  std::array<Layout, detail::kFormatCodes> layout{};
  std::array<bool, detail::kFormatCodes> supported{};
};

Layouts BuildLayouts() {
  Layouts l;
  for (const FormatInfo& s : AllFormats()) {
    if (!HardwareTCVTE8M0SourceTypeSupported(s.type)) continue;
    l.supported[static_cast<std::size_t>(s.type)] = true;
    l.layout[static_cast<std::size_t>(s.type)] = LayoutFrom(s);
  }
  return l;
}

// Built before main from constant-initialized data only (the format table); a namespace-scope
// object rather than a function-local static, whose guard costs the one-word conversion about a
// nanosecond. A call from another file's static initializer that runs first finds it empty and
// takes the slow path below, which gives the same result.
const Layouts kLayouts = BuildLayouts();

[[gnu::cold, gnu::noinline]] Layout LayoutOfSlow(TileDataType source_type) {
  if (!HardwareTCVTE8M0SourceTypeSupported(source_type)) UnsupportedSource();  // line 108
  return LayoutFrom(Format(source_type));
}

// The conversion of one word of the source layout `l` (see the top).
Encoded Convert(Word value, NumericExecutionControl control, const Layout& l) {
  const Word bits = value & l.width_mask;
  const Word fraction = LowBits(bits, l.fraction_bits);
  const Word sign_and_exponent = bits >> l.fraction_bits;  // the sign is the bit above E

  if (sign_and_exponent >= l.all_ones) {  // negative (any), or +Inf / positive NaN
    if (sign_and_exponent == l.all_ones && fraction == 0) {  // +Inf
      return {control.saturating ? l.largest : l.nan, kStatusOFNX};
    }
    return {l.nan, kStatusNV};
  }

  int floor_exponent;
  Word normalized;  // the significand scaled to [2^23, 2^24)
  if (sign_and_exponent != 0) {
    floor_exponent = static_cast<int>(sign_and_exponent) - l.bias;
    normalized = ((Word{1} << l.fraction_bits) | fraction) << (23 - l.fraction_bits);
  } else {
    if (fraction == 0) return {l.nan, kStatusNV};  // +0
    const int highest = 63 - std::countl_zero(fraction);
    floor_exponent = 1 - l.bias - static_cast<int>(l.fraction_bits) + highest;
    normalized = fraction << (23 - highest);
  }

  if (floor_exponent < -l.e8m0_bias) {  // below 2^-127, the smallest code 0x00
    return {control.saturating ? Word{0} : l.nan, kStatusUFNX};
  }
  const Word floor_code = static_cast<Word>(floor_exponent + l.e8m0_bias);
  if (normalized == (Word{1} << 23)) return {floor_code, 0};  // exact power of two
  if (floor_code == l.largest) {  // floor exponent 127, not a power of two
    return {control.saturating ? l.largest : l.nan, kStatusOFNX};
  }

  bool ceiling;
  switch (control.rounding_mode) {
    case NumericRoundingMode::RTM:
      ceiling = false;
      break;
    case NumericRoundingMode::RTP:
      ceiling = true;
      break;
    case NumericRoundingMode::RTZ:
      ceiling = floor_exponent < 0;
      break;
    case NumericRoundingMode::RTO:
      ceiling = (floor_exponent & 1) == 0;
      break;
    default:  // RNE, RNA, RHB (and any other value: see the square test above)
      ceiling = normalized > kSqrt2Floor;
      break;
  }
  return {floor_code + (ceiling ? 1 : 0), kStatusNX};
}

// Convert of `value` under each control, the layout of `source_type` read once for all of them.
void FloatToE8M0Controls(Word value, TileDataType source_type,
                         const NumericExecutionControl* controls, std::size_t n, Encoded* out) {
  const auto code = static_cast<std::size_t>(source_type);
  const bool built = code < kLayouts.supported.size() && kLayouts.supported[code];
  const Layout& layout = built ? kLayouts.layout[code] : LayoutOfSlow(source_type);
  for (std::size_t k = 0; k < n; ++k) out[k] = Convert(value, controls[k], layout);
}

}  // namespace

Encoded FastFloatToE8M0(Word value, TileDataType source_type, NumericExecutionControl control) {
  Encoded r;
  FloatToE8M0Controls(value, source_type, &control, 1, &r);
  return r;
}

Encoded FastTileProfileConvert(Word value, TileDataType source_type, TileDataType destination_type,
                               NumericExecutionControl control) {
  if (destination_type == TileDataType::E8M0) {
    return FastFloatToE8M0(value, source_type, control);
  } else if (!TileDataTypeIsFloating(destination_type)) {
    return {NormalizeTileInteger(value, destination_type), 0};
  }
  return {value, 0};
}

void FastTileProfileConvertControls(Word value, TileDataType source_type,
                                    TileDataType destination_type,
                                    const NumericExecutionControl* controls, std::size_t n,
                                    Encoded* out) {
  if (destination_type != TileDataType::E8M0) {
    for (std::size_t k = 0; k < n; ++k) {
      out[k] = FastTileProfileConvert(value, source_type, destination_type, controls[k]);
    }
    return;
  }
  FloatToE8M0Controls(value, source_type, controls, n, out);
}

}  // namespace ptovec::oracle
