// The ops' own outcome classes (OpDef::outcome_classes, `ptovec coverage`, docs/coverage.md): one
// table per kind of rule, in the field's terms, each class decided from the exact input value
// (Dyadic arithmetic, no floating point) and the vector's expected result.
#include "outcome_classes.hpp"

#include <bit>
#include <optional>
#include <utility>
#include <vector>

#include "ptovec/oracle/dyadic.hpp"
#include "ptovec/oracle/fast_matrix_quantization.hpp"

namespace ptovec::generator {

namespace {

using oracle::Dyadic;
using oracle::Format;
using oracle::kStatusNV;
using oracle::kStatusNX;
using oracle::kStatusOF;
using oracle::kStatusUF;
using oracle::NumericValueClass;
using T = TileDataType;

bool IsZero(const Dyadic& d) { return d.significand == 0; }

// The exponent of d's lowest set bit (d non-zero).
int LowExponent(const Dyadic& d) {
  const auto low = static_cast<std::uint64_t>(d.significand);
  const int tz = low != 0 ? std::countr_zero(low)
                          : 64 + std::countr_zero(static_cast<std::uint64_t>(d.significand >> 64));
  return d.exponent + tz;
}

// d with its trailing zero bits moved into the exponent (0 keeps exponent 0).
Dyadic Normalized(Dyadic d) {
  if (IsZero(d)) return {};
  const int low = LowExponent(d);
  d.significand >>= (low - d.exponent);
  d.exponent = low;
  return d;
}

Dyadic Magnitude(Dyadic d) {
  d.negative = false;
  return d;
}

// Sign of a - b.
int Compare(const Dyadic& a, const Dyadic& b) {
  const bool na = a.negative && !IsZero(a);
  const bool nb = b.negative && !IsZero(b);
  if (na != nb) return na ? -1 : 1;
  const int m = oracle::DyadicCompareMagnitude(a, b);
  return na ? -m : m;
}

// |hi| - |lo| for |hi| >= |lo| whose exponents are close (neighbouring codes of one format).
Dyadic MagnitudeDifference(const Dyadic& hi, const Dyadic& lo) {
  if (IsZero(lo)) return Magnitude(hi);
  const Dyadic h = Normalized(hi);
  const Dyadic l = Normalized(lo);
  const int e = std::min(h.exponent, l.exponent);
  return Normalized(
      {false, (h.significand << (h.exponent - e)) - (l.significand << (l.exponent - e)), e});
}

Dyadic PowerOfTwo(int exponent) { return {false, 1, exponent}; }

Dyadic FromInteger(std::int64_t v) { return oracle::DyadicFromInteger(v); }

// The value of an integer type's word.
std::int64_t IntegerValue(T type, Word w) {
  const oracle::FormatInfo& f = Format(type);
  const Word low = oracle::LowBits(w, f.width);
  return f.kind == oracle::FormatKind::SignedInteger
             ? static_cast<std::int64_t>(oracle::SignExtend(low, f.width))
             : static_cast<std::int64_t>(low);
}

// The exact value of a source word of encode/affine (an integer type: its two's complement value).
Dyadic SourceValue(T type, Word w) {
  if (!Format(type).IsFloating()) return FromInteger(IntegerValue(type, w));
  return oracle::DyadicFromFiniteCode(type, w);
}

std::int64_t IntegerMinimum(T type) { return IntegerValue(type, oracle::TileIntegerMinimum(type)); }
std::int64_t IntegerMaximum(T type) { return IntegerValue(type, oracle::TileIntegerMaximum(type)); }

// The smallest positive normal value of a floating type: the least value of a code
// NumericValueClass calls normal (FP32: 2^-126). By value, not by code: HiF8's codes are not in
// value order (0x08 is 1.0, its smallest normal 2^-15 has a larger code).
Dyadic SmallestNormalUncached(T type) {
  const oracle::FormatInfo& f = Format(type);
  if (f.width > 16) return PowerOfTwo(1 - f.bias);
  std::optional<Dyadic> least;
  for (Word w = 1; w < (Word{1} << f.width); ++w) {
    if (oracle::TileNumericValueClass(type, w) != NumericValueClass::PositiveNormal) continue;
    const Dyadic v = oracle::DyadicFromFiniteCode(type, w);
    if (!least || oracle::DyadicCompareMagnitude(v, *least) < 0) least = v;
  }
  return least ? *least : PowerOfTwo(1 - f.bias);
}

// SmallestNormalUncached of the floating destinations, computed once (a classifier is built per
// pair and per witness; the search walks every 16-bit code).
Dyadic SmallestNormal(T type) {
  static const std::vector<std::pair<T, Dyadic>> known = [] {
    std::vector<std::pair<T, Dyadic>> v;
    for (const T t : {T::FP32, T::FP16, T::BF16, T::E4M3, T::HiF8})
      v.emplace_back(t, SmallestNormalUncached(t));
    return v;
  }();
  for (const auto& [t, d] : known) {
    if (t == type) return d;
  }
  return SmallestNormalUncached(type);
}

ClassMask Bit(unsigned k) { return ClassMask{1} << k; }

// ---- floating encodes: ReferenceMatrixFloatingEncoding and its callers ----

enum FloatingClass : unsigned {
  kExactZero,
  kExactNormal,
  kExactSubnormal,
  kInexactNormal,
  kTinyInexact,
  kRoundUpToSmallestNormal,
  kRoundToZero,
  kCarryIntoNextBinade,
  kTieUp,
  kTieDown,
  kBelowOverflowThreshold,
  kAtOverflowThreshold,
  kAboveOverflowThreshold,
  kOverflowToInfOrNaN,
  kOverflowUnderSat,
  kNegativeOverflowToInfOrNaN,
  kFloatingClasses
};

std::vector<OutcomeClass> FloatingClassNames() {
  return {
      {"exact zero", "the result is a zero and NX is clear"},
      {"exact normal", "the result is normal and NX is clear"},
      {"exact subnormal", "the result is subnormal and NX is clear"},
      {"inexact normal", "the result is normal and rounded (NX without UF or OF)"},
      {"tiny and inexact (UF)", "UF is raised (a tiny result that was rounded)"},
      {"rounding up to the smallest normal",
       "|value| is below the smallest normal and the result is the smallest normal"},
      {"rounding to zero from a non-zero value", "a non-zero value gives a zero result"},
      {"carry into the next binade",
       "the result is a power of two above the value's binade (rounding carried out of the "
       "significand)"},
      {"exact tie rounded up",
       "the value is exactly halfway between two neighbouring codes and "
       "rounds to the one farther from zero"},
      {"exact tie rounded down",
       "the value is exactly halfway between two neighbouring codes and "
       "rounds to the one nearer zero"},
      {"just below the overflow threshold",
       "largest finite < |value| < largest finite + half its ulp"},
      {"at the overflow threshold", "|value| = largest finite + half its ulp"},
      {"just above the overflow threshold",
       "largest finite + half its ulp < |value| < largest finite + its ulp"},
      {"overflow to Inf or NaN", "OF is raised and the result is an Inf or NaN code"},
      {"overflow under Sat", "OF is raised with Sat on (the result is clamped)"},
      {"negative overflow to -Inf or NaN",
       "OF is raised for a negative value with Sat off: -Inf, or the format's one NaN code "
       "(E4M3 0x7F, HiF8 0x80), which has no sign, where IEEE 754 would keep the sign"},
  };
}

struct FloatingDestination {
  T dst;
  Dyadic smallest_normal;
  Dyadic largest;
  Dyadic threshold;  // largest + half its ulp
  Dyadic beyond;     // largest + its ulp
};

FloatingDestination DescribeDestination(T dst) {
  const oracle::FormatInfo& f = Format(dst);
  FloatingDestination d{dst, SmallestNormal(dst), {}, {}, {}};
  d.largest = Normalized(oracle::DyadicFromFiniteCode(dst, f.largest_finite_code));
  const Dyadic previous = oracle::DyadicFromFiniteCode(dst, f.largest_finite_code - 1);
  const int ulp = oracle::DyadicLeadingExponent(MagnitudeDifference(d.largest, previous));
  const auto plus = [&](int exponent) {  // largest + 2^exponent, exponent below largest's bits
    return Normalized(
        {false, (d.largest.significand << (d.largest.exponent - exponent)) + 1, exponent});
  };
  d.threshold = plus(ulp - 1);
  d.beyond = plus(ulp);
  return d;
}

// Classes of one finite value x (exact) encoded into a floating type; `encode` evaluates the
// encoding of x under a control (for the neighbours of x: toward zero and away from it).
template <typename Encode>
void ClassifyFloating(const FloatingDestination& d, const Dyadic& x, Encode encode,
                      std::span<const NumericExecutionControl> controls, const Encoded* expected,
                      ClassMask* out) {
  const Dyadic mag = Magnitude(x);
  // The neighbours of x in the destination: rounded toward zero and away from zero (Sat off).
  const Encoded toward = encode({NumericRoundingMode::RTZ, false});
  const Encoded away =
      encode({x.negative ? NumericRoundingMode::RTM : NumericRoundingMode::RTP, false});
  bool tie = false;
  if ((toward.status & kStatusNX) != 0 && oracle::TileNumericValueIsFinite(d.dst, away.word) &&
      oracle::TileNumericValueIsFinite(d.dst, toward.word)) {
    const Dyadic spacing = MagnitudeDifference(oracle::DyadicFromFiniteCode(d.dst, away.word),
                                               oracle::DyadicFromFiniteCode(d.dst, toward.word));
    tie = !IsZero(spacing) && LowExponent(x) == oracle::DyadicLeadingExponent(spacing) - 1;
  }
  ClassMask common = 0;
  if (oracle::DyadicCompareMagnitude(mag, d.largest) > 0) {
    const int t = oracle::DyadicCompareMagnitude(mag, d.threshold);
    if (t < 0) common |= Bit(kBelowOverflowThreshold);
    if (t == 0) common |= Bit(kAtOverflowThreshold);
    if (t > 0 && oracle::DyadicCompareMagnitude(mag, d.beyond) < 0)
      common |= Bit(kAboveOverflowThreshold);
  }
  for (std::size_t c = 0; c < controls.size(); ++c) {
    const Encoded r = expected[c];
    ClassMask m = common;
    const NumericValueClass vc = oracle::TileNumericValueClass(d.dst, r.word);
    const bool zero = oracle::NumericValueClassIsZero(vc);
    const bool normal =
        vc == NumericValueClass::PositiveNormal || vc == NumericValueClass::NegativeNormal;
    const bool subnormal =
        vc == NumericValueClass::PositiveSubnormal || vc == NumericValueClass::NegativeSubnormal;
    const bool exact = (r.status & kStatusNX) == 0;
    if (exact && zero) m |= Bit(kExactZero);
    if (exact && normal) m |= Bit(kExactNormal);
    if (exact && subnormal) m |= Bit(kExactSubnormal);
    if (!exact && normal && (r.status & (kStatusUF | kStatusOF)) == 0) m |= Bit(kInexactNormal);
    if ((r.status & kStatusUF) != 0) m |= Bit(kTinyInexact);
    if ((r.status & kStatusOF) != 0) {
      m |= Bit(controls[c].saturating ? kOverflowUnderSat : kOverflowToInfOrNaN);
      if (!oracle::TileNumericValueIsFinite(d.dst, r.word)) {
        m |= Bit(kOverflowToInfOrNaN);
        if (x.negative) m |= Bit(kNegativeOverflowToInfOrNaN);
      }
    }
    if (!IsZero(mag) && zero) m |= Bit(kRoundToZero);
    if ((normal || subnormal) && !IsZero(mag)) {
      const Dyadic result = Magnitude(oracle::DyadicFromFiniteCode(d.dst, r.word));
      if (oracle::DyadicCompareMagnitude(mag, d.smallest_normal) < 0 &&
          oracle::DyadicCompareMagnitude(result, d.smallest_normal) == 0) {
        m |= Bit(kRoundUpToSmallestNormal);
      }
      if (!exact && oracle::DyadicLeadingExponent(result) > oracle::DyadicLeadingExponent(mag))
        m |= Bit(kCarryIntoNextBinade);
      if (tie) m |= Bit(oracle::DyadicCompareMagnitude(result, mag) > 0 ? kTieUp : kTieDown);
    }
    out[c] = m;
  }
}

// ---- integer encodes: ReferenceMatrixIntegerEncoding ----

enum IntegerClass : unsigned {
  kIntExact,
  kIntInexact,
  kIntTieUp,
  kIntTieDown,
  kIntSatClamp,
  kIntWrap,
  kIntNegativeIntoUnsigned,
  kIntAtMinimum,
  kIntAtMaximum,
  kIntRoundToZero,
  kIntegerClasses
};

std::vector<OutcomeClass> IntegerClassNames() {
  return {
      {"exact", "the value is an integer in range (no OF, no NX)"},
      {"inexact", "the value is rounded to an integer in range (NX without OF)"},
      {"tie rounded up", "the value is an integer + 1/2 and rounds away from zero (no OF)"},
      {"tie rounded down", "the value is an integer + 1/2 and rounds toward zero (no OF)"},
      {"Sat clamp", "the rounded value is out of range and Sat clamps it (OF, Sat on)"},
      {"non-Sat wrap", "the rounded value is out of range and wraps (OF, Sat off)"},
      {"negative into unsigned", "a negative value into an unsigned destination"},
      {"range end: minimum", "the result is the destination's minimum"},
      {"range end: maximum", "the result is the destination's maximum"},
      {"rounding to zero from a non-zero value", "a non-zero value gives 0 without OF"},
  };
}

// Classes of an exact value x rounded and encoded into integer type `dst`.
void ClassifyInteger(T dst, const Dyadic& x, std::span<const NumericExecutionControl> controls,
                     const Encoded* expected, ClassMask* out) {
  const bool tie = !IsZero(x) && LowExponent(x) == -1;
  const bool unsigned_dst = Format(dst).kind == oracle::FormatKind::UnsignedInteger;
  const std::int64_t lo = IntegerMinimum(dst);
  const std::int64_t hi = IntegerMaximum(dst);
  for (std::size_t c = 0; c < controls.size(); ++c) {
    const Encoded r = expected[c];
    const std::int64_t v = IntegerValue(dst, r.word);
    ClassMask m = 0;
    const bool of = (r.status & kStatusOF) != 0;
    if (!of && (r.status & kStatusNX) == 0) m |= Bit(kIntExact);
    if (!of && (r.status & kStatusNX) != 0) m |= Bit(kIntInexact);
    if (!of && tie) {
      m |= Bit(oracle::DyadicCompareMagnitude(FromInteger(v), x) > 0 ? kIntTieUp : kIntTieDown);
    }
    if (of) m |= Bit(controls[c].saturating ? kIntSatClamp : kIntWrap);
    if (unsigned_dst && x.negative && !IsZero(x)) m |= Bit(kIntNegativeIntoUnsigned);
    if (v == lo) m |= Bit(kIntAtMinimum);
    if (v == hi) m |= Bit(kIntAtMaximum);
    if (!of && v == 0 && !IsZero(x)) m |= Bit(kIntRoundToZero);
    out[c] = m;
  }
}

}  // namespace

std::vector<OutcomeClass> FloatingEncodeClassNames() { return FloatingClassNames(); }

ValueClassifier FloatingEncodeClassifier(T dst) {
  auto d = std::make_shared<FloatingDestination>(DescribeDestination(dst));
  return [d](const Dyadic& x, std::span<const NumericExecutionControl> controls,
             const Encoded* expected, ClassMask* out) {
    ClassifyFloating(
        *d, x,
        [&](NumericExecutionControl c) {
          const Encoded r = oracle::FastMatrixFloatingEncoding(x, d->dst, c);
          return Encoded{oracle::LowBits(r.word, Format(d->dst).width), r.status};
        },
        controls, expected, out);
  };
}

std::vector<OutcomeClass> IntegerEncodeClassNames() { return IntegerClassNames(); }

ValueClassifier IntegerEncodeClassifier(T dst) {
  return [dst](const Dyadic& x, std::span<const NumericExecutionControl> controls,
               const Encoded* expected,
               ClassMask* out) { ClassifyInteger(dst, x, controls, expected, out); };
}

OutcomeClassTable EncodeOutcomeClasses(TypePair pair) {
  const T src = pair.src;
  const T dst = pair.dst;
  if (Format(dst).IsFloating()) {
    return {FloatingClassNames(),
            [src, classify = FloatingEncodeClassifier(dst)](
                const Inputs& in, std::span<const NumericExecutionControl> controls,
                const Encoded* expected,
                ClassMask* out) { classify(SourceValue(src, in[0]), controls, expected, out); }};
  }
  return {IntegerClassNames(),
          [src, dst](const Inputs& in, std::span<const NumericExecutionControl> controls,
                     const Encoded* expected, ClassMask* out) {
            ClassifyInteger(dst, SourceValue(src, in[0]), controls, expected, out);
          }};
}

// ---- tcvt: ReferenceFloatToE8M0 (to E8M0); other pairs copy the word and have no own classes ----

OutcomeClassTable TcvtOutcomeClasses(TypePair pair) {
  if (pair.dst != T::E8M0 || !Format(pair.src).IsFloating()) return {};
  enum : unsigned {
    kPower,
    kDown,
    kUp,
    kSqrt2,
    kNaN,
    kInf,
    kZero,
    kNegative,
    kSubnormal,
    kTiny,
    kOverflow
  };
  std::vector<OutcomeClass> names = {
      {"exact power of two", "a positive power of two: the result is exact (no NX)"},
      {"rounded down", "NX and the result is below the value"},
      {"rounded up", "NX and the result is above the value"},
      {"at the sqrt(2) threshold",
       "the value is the source code just below or just above sqrt(2) * 2^k, where nearest "
       "modes change exponent"},
      {"NaN input (NV)", "a NaN source"},
      {"Inf input", "+Inf or -Inf"},
      {"zero input", "+0 or -0"},
      {"negative input", "a negative finite non-zero source"},
      {"subnormal input", "a subnormal source"},
      {"tiny: below 2^-127", "0 < |value| < 2^-127, the smallest E8M0 value"},
      {"overflow (OF)", "OF is raised"},
  };
  const T src = pair.src;
  return {
      std::move(names), [src](const Inputs& in, std::span<const NumericExecutionControl> controls,
                              const Encoded* expected, ClassMask* out) {
        const NumericValueClass vc = oracle::TileNumericValueClass(src, in[0]);
        ClassMask common = 0;
        std::optional<Dyadic> x;
        if (oracle::NumericValueClassIsNaN(vc)) common |= Bit(kNaN);
        if (oracle::NumericValueClassIsInfinity(vc)) common |= Bit(kInf);
        if (oracle::NumericValueClassIsZero(vc)) common |= Bit(kZero);
        if (vc == NumericValueClass::PositiveSubnormal ||
            vc == NumericValueClass::NegativeSubnormal) {
          common |= Bit(kSubnormal);
        }
        if (oracle::TileNumericValueIsFinite(src, in[0]) && !oracle::NumericValueClassIsZero(vc)) {
          x = oracle::DyadicFromFiniteCode(src, in[0]);
          if (x->negative) common |= Bit(kNegative);
          if (oracle::DyadicCompareMagnitude(*x, PowerOfTwo(-127)) < 0) common |= Bit(kTiny);
          const oracle::FiniteDecomposition f = oracle::TileNumericFiniteDecomposition(src, in[0]);
          const auto p = static_cast<int>(std::bit_width(f.significand));
          using U = oracle::DyadicSignificand;
          const U m = f.significand;
          const U two = U{1} << (2 * p - 1);  // sqrt(2)^2 at the significand's scale
          if (p > 1 && ((m * m < two && (m + 1) * (m + 1) > two) ||
                        (m * m > two && (m - 1) * (m - 1) < two))) {
            common |= Bit(kSqrt2);
          }
        }
        for (std::size_t c = 0; c < controls.size(); ++c) {
          const Encoded r = expected[c];
          ClassMask m = common;
          if ((r.status & kStatusOF) != 0) m |= Bit(kOverflow);
          if (x && !x->negative && oracle::TileNumericValueIsFinite(T::E8M0, r.word)) {
            const int cmp =
                oracle::DyadicCompareMagnitude(oracle::DyadicFromFiniteCode(T::E8M0, r.word), *x);
            if ((r.status & kStatusNX) == 0 && cmp == 0) m |= Bit(kPower);
            if ((r.status & kStatusNX) != 0 && cmp < 0) m |= Bit(kDown);
            if ((r.status & kStatusNX) != 0 && cmp > 0) m |= Bit(kUp);
          }
          out[c] = m;
        }
      }};
}

// ---- tquant: TileProfileQuantize, round(value * scale + zero_point) into S8/U8 ----

OutcomeClassTable TquantOutcomeClasses(TypePair pair) {
  enum : unsigned {
    kNaN,
    kInf,
    kZero,
    kSubnormal,
    kExact,
    kInexact,
    kTie,
    kClamp,
    kWrap,
    kBackInRange,
    kPushedOut,
    kWideProduct,
    kAtMinimum,
    kAtMaximum,
    kNegativeIntoUnsigned
  };
  std::vector<OutcomeClass> names = {
      {"NaN value (NV)", "a NaN value"},
      {"Inf value", "+Inf or -Inf"},
      {"zero value", "+0 or -0"},
      {"subnormal value", "a subnormal FP32 value"},
      {"exact", "value * scale + zero_point is an integer in range"},
      {"inexact in range", "rounded (NX) without leaving the range"},
      {"tie", "value * scale + zero_point is exactly an integer + 1/2"},
      {"Sat clamp", "value * scale + zero_point is outside the range, Sat on"},
      {"non-Sat wrap", "value * scale + zero_point is outside the range, Sat off"},
      {"zero point brings it into range",
       "value * scale is outside the destination range but value * scale + zero_point is in it"},
      {"zero point pushes it out of range",
       "value * scale is inside the destination range but value * scale + zero_point is not"},
      {"product wider than FP32",
       "value * scale needs more than 24 significant bits (one more rounding would change it)"},
      {"range end: minimum", "the result is the destination's minimum"},
      {"range end: maximum", "the result is the destination's maximum"},
      {"negative into unsigned", "value * scale + zero_point < 0 into U8"},
  };
  const T dst = pair.dst;
  return {
      std::move(names), [dst](const Inputs& in, std::span<const NumericExecutionControl> controls,
                              const Encoded* expected, ClassMask* out) {
        const std::int64_t lo = IntegerMinimum(dst);
        const std::int64_t hi = IntegerMaximum(dst);
        const std::int64_t zp = IntegerValue(dst, in[2]);
        const NumericValueClass vc = oracle::TileNumericValueClass(T::FP32, in[0]);
        ClassMask common = 0;
        if (oracle::NumericValueClassIsNaN(vc)) common |= Bit(kNaN);
        if (oracle::NumericValueClassIsInfinity(vc)) common |= Bit(kInf);
        if (oracle::NumericValueClassIsZero(vc)) common |= Bit(kZero);
        if (vc == NumericValueClass::PositiveSubnormal ||
            vc == NumericValueClass::NegativeSubnormal) {
          common |= Bit(kSubnormal);
        }
        bool outside = false;
        if (oracle::TileNumericValueIsFinite(T::FP32, in[0])) {
          const Dyadic p = oracle::DyadicProduct(oracle::DyadicFromFiniteCode(T::FP32, in[0]),
                                                 oracle::DyadicFromFiniteCode(T::FP32, in[1]));
          const bool product_outside =
              Compare(p, FromInteger(lo)) < 0 || Compare(p, FromInteger(hi)) > 0;
          outside = Compare(p, FromInteger(lo - zp)) < 0 || Compare(p, FromInteger(hi - zp)) > 0;
          if (product_outside && !outside) common |= Bit(kBackInRange);
          if (!product_outside && outside) common |= Bit(kPushedOut);
          if (!IsZero(p)) {
            if (LowExponent(p) == -1) common |= Bit(kTie);
            if (oracle::BitLength(Normalized(p).significand) > 24) common |= Bit(kWideProduct);
          }
          if (dst == T::U8 && Compare(p, FromInteger(-zp)) < 0) {
            common |= Bit(kNegativeIntoUnsigned);
          }
        }
        for (std::size_t c = 0; c < controls.size(); ++c) {
          const Encoded r = expected[c];
          ClassMask m = common;
          const bool finite = oracle::TileNumericValueIsFinite(T::FP32, in[0]);
          if (finite && !outside) {
            m |= Bit((r.status & kStatusNX) != 0 ? kInexact : kExact);
          }
          if (finite && outside) m |= Bit(controls[c].saturating ? kClamp : kWrap);
          const std::int64_t v = IntegerValue(dst, r.word);
          if (v == lo) m |= Bit(kAtMinimum);
          if (v == hi) m |= Bit(kAtMaximum);
          out[c] = m;
        }
      }};
}

// ---- tdequant: TileProfileDequantize, (value - zero_point) * scale encoded as FP32 ----

OutcomeClassTable TdequantOutcomeClasses(TypePair pair) {
  enum : unsigned {
    kZeroDifference,
    kNegativeDifference,
    kWideDifference,
    kExactNormal,
    kExactSubnormal,
    kInexact,
    kTieUp,
    kTieDown,
    kOverflow,
    kTinyInexact,
    kSubnormalScale,
    kValueAtMinimum,
    kValueAtMaximum,
    kZeroPointAtMinimum,
    kZeroPointAtMaximum,
  };
  std::vector<OutcomeClass> names = {
      {"zero difference", "value = zero_point: the result is +0"},
      {"negative difference", "value < zero_point"},
      {"difference beyond the source type",
       "value - zero_point is outside the source type's range (it would wrap in 8 bits)"},
      {"exact normal", "the result is a normal FP32 and NX is clear"},
      {"exact subnormal", "the result is a subnormal FP32 and NX is clear"},
      {"inexact", "the product is rounded to FP32 (NX without OF)"},
      {"exact tie rounded up",
       "the product is halfway between two FP32 values and rounds away "
       "from zero"},
      {"exact tie rounded down",
       "the product is halfway between two FP32 values and rounds "
       "toward zero"},
      {"overflow to Inf (OF)", "OF is raised"},
      {"tiny and inexact (UF)", "UF is raised"},
      {"subnormal scale", "the scale is an FP32 subnormal"},
      {"value at the minimum", "the value is the source type's minimum (-128 or 0)"},
      {"value at the maximum", "the value is the source type's maximum (127 or 255)"},
      {"zero point at the minimum", "the zero point is the source type's minimum (-128 or 0)"},
      {"zero point at the maximum", "the zero point is the source type's maximum (127 or 255)"},
  };
  const T src = pair.src;
  return {
      std::move(names), [src](const Inputs& in, std::span<const NumericExecutionControl> controls,
                              const Encoded* expected, ClassMask* out) {
        const std::int64_t diff = IntegerValue(src, in[0]) - IntegerValue(src, in[2]);
        ClassMask common = 0;
        if (diff == 0) common |= Bit(kZeroDifference);
        if (diff < 0) common |= Bit(kNegativeDifference);
        if (diff < IntegerMinimum(src) || diff > IntegerMaximum(src)) {
          common |= Bit(kWideDifference);
        }
        if (oracle::TileNumericValueClass(T::FP32, in[1]) == NumericValueClass::PositiveSubnormal) {
          common |= Bit(kSubnormalScale);
        }
        const std::int64_t lo = IntegerMinimum(src);
        const std::int64_t hi = IntegerMaximum(src);
        if (IntegerValue(src, in[0]) == lo) common |= Bit(kValueAtMinimum);
        if (IntegerValue(src, in[0]) == hi) common |= Bit(kValueAtMaximum);
        if (IntegerValue(src, in[2]) == lo) common |= Bit(kZeroPointAtMinimum);
        if (IntegerValue(src, in[2]) == hi) common |= Bit(kZeroPointAtMaximum);
        const Dyadic p =
            oracle::DyadicProduct(FromInteger(diff), oracle::DyadicFromFiniteCode(T::FP32, in[1]));
        bool tie = false;
        if (!IsZero(p)) {
          // The FP32 quantum at p: 2^(top - 23) for a normal, 2^-149 below 2^-126.
          const int quantum = std::max(oracle::DyadicLeadingExponent(p) - 23, -149);
          tie = LowExponent(p) == quantum - 1;
        }
        for (std::size_t c = 0; c < controls.size(); ++c) {
          const Encoded r = expected[c];
          ClassMask m = common;
          const NumericValueClass vc = oracle::TileNumericValueClass(T::FP32, r.word);
          const bool exact = (r.status & kStatusNX) == 0;
          if (exact && (vc == NumericValueClass::PositiveNormal ||
                        vc == NumericValueClass::NegativeNormal)) {
            m |= Bit(kExactNormal);
          }
          if (exact && (vc == NumericValueClass::PositiveSubnormal ||
                        vc == NumericValueClass::NegativeSubnormal)) {
            m |= Bit(kExactSubnormal);
          }
          if (!exact && (r.status & kStatusOF) == 0) m |= Bit(kInexact);
          if ((r.status & kStatusOF) != 0) m |= Bit(kOverflow);
          if ((r.status & kStatusUF) != 0) m |= Bit(kTinyInexact);
          if (tie && oracle::TileNumericValueIsFinite(T::FP32, r.word)) {
            const int cmp =
                oracle::DyadicCompareMagnitude(oracle::DyadicFromFiniteCode(T::FP32, r.word), p);
            m |= Bit(cmp > 0 ? kTieUp : kTieDown);
          }
          out[c] = m;
        }
      }};
}

// ---- affine: MatrixQuantizedAffine, value * FP19 scale -> S5/S9/S17 (or not) + offset ----

OutcomeClassTable AffineOutcomeClasses(TypePair pair) {
  enum : unsigned {
    kWidth0,
    kWidth5,
    kWidth9,
    kWidth17,
    kProductInteger,
    kProductTie,
    kProductInexact,
    kIntermediateHigh,
    kIntermediateLow,
    kOffsetNonZero,
    kProductTieUp,
    kProductTieDown,
    kFirst  // then the integer-encode classes of the destination
  };
  std::vector<OutcomeClass> names = {
      {"width 0", "no intermediate: value * scale + 0 is encoded directly"},
      {"width 5", "rounded and clamped to S5"},
      {"width 9", "rounded and clamped to S9"},
      {"width 17", "rounded and clamped to S17"},
      {"product integer", "value * scale is an integer"},
      {"product tie", "value * scale is exactly an integer + 1/2"},
      {"product inexact", "value * scale is neither an integer nor a tie"},
      {"intermediate clamp high", "value * scale > the S5/S9/S17 maximum (width 5/9/17)"},
      {"intermediate clamp low", "value * scale < the S5/S9/S17 minimum (width 5/9/17)"},
      {"non-zero offset", "the offset is not 0"},
      {"product tie rounded up",
       "width 5/9/17: value * scale is an integer + 1/2 inside the intermediate's range and is "
       "rounded away from zero (read from the result: no OF, result - offset)"},
      {"product tie rounded down",
       "width 5/9/17: value * scale is an integer + 1/2 inside the intermediate's range and is "
       "rounded toward zero"},
  };
  for (const OutcomeClass& c : IntegerClassNames()) {
    names.push_back({"dst " + c.name, c.description + " (the final integer encoding)"});
  }
  const T src = pair.src;
  const T dst = pair.dst;
  return {
      std::move(names),
      [src, dst](const Inputs& in, std::span<const NumericExecutionControl> controls,
                 const Encoded* expected, ClassMask* out) {
        const int width = static_cast<int>(in[3]);
        const std::int64_t offset = static_cast<std::int64_t>(oracle::SignExtend(in[2], 32));
        ClassMask common = 0;
        common |= Bit(width == 0   ? kWidth0
                      : width == 5 ? kWidth5
                      : width == 9 ? kWidth9
                                   : kWidth17);
        const Dyadic p = oracle::DyadicProduct(SourceValue(src, in[0]),
                                               oracle::DyadicFromFiniteCode(T::FP19, in[1]));
        const int low = IsZero(p) ? 0 : LowExponent(p);
        common |= Bit(low >= 0 ? kProductInteger : low == -1 ? kProductTie : kProductInexact);
        if (width != 0) {
          const std::int64_t wmax = (std::int64_t{1} << (width - 1)) - 1;
          if (Compare(p, FromInteger(wmax)) > 0) common |= Bit(kIntermediateHigh);
          if (Compare(p, FromInteger(-wmax - 1)) < 0) common |= Bit(kIntermediateLow);
        }
        if (offset != 0) common |= Bit(kOffsetNonZero);
        // The intermediate's tie rule, read from each result: result - offset is the rounded
        // intermediate when nothing was clamped (no intermediate clamp, no OF).
        const bool tie_in_range = width != 0 && low == -1 &&
                                  (common & (Bit(kIntermediateHigh) | Bit(kIntermediateLow))) == 0;
        // The final encoding's classes, of value * scale (width 0) or of the clamped
        // intermediate + offset as the destination sees it: its ties and signs are those of
        // the product at width 0; with an intermediate the encoded value is an integer.
        ClassMask integer[14];
        const std::size_t n = std::min<std::size_t>(controls.size(), 14);
        // The value the destination encodes: value * scale at width 0; with an intermediate
        // an integer (the rounding happened there) whose sign is that of value * scale +
        // offset: only its sign is used below, as ties and rounding to zero are dropped.
        Dyadic encoded = p;
        if (width != 0) {
          const int sign = Compare(p, FromInteger(-offset));
          encoded = FromInteger(sign);
        }
        ClassifyInteger(dst, encoded, controls.first(n), expected, integer);
        for (std::size_t c = 0; c < controls.size(); ++c) {
          ClassMask m = common;
          if (tie_in_range && (expected[c].status & kStatusOF) == 0) {
            const Dyadic intermediate = FromInteger(IntegerValue(dst, expected[c].word) - offset);
            m |= Bit(oracle::DyadicCompareMagnitude(intermediate, p) > 0 ? kProductTieUp
                                                                         : kProductTieDown);
          }
          if (c < n) {
            ClassMask own = integer[c];
            if (width != 0) {  // ties and rounding belong to the intermediate step
              own &= ~(Bit(kIntTieUp) | Bit(kIntTieDown) | Bit(kIntRoundToZero));
            }
            m |= own << kFirst;
          }
          out[c] = m;
        }
      }};
}

// ---- shift: MatrixShiftS32ToS16, ASR by 1..16 clamped to S16 ----

OutcomeClassTable ShiftOutcomeClasses(TypePair) {
  enum : unsigned {
    kNoBitsDropped,
    kDroppedBelowHalf,
    kDroppedHalf,
    kDroppedAboveHalf,
    kClampHigh,
    kClampLow,
    kAtMaximum,
    kAtMinimum,
    kNegative,
    kAllDropped,
    kShift1,
    kShift16,
  };
  std::vector<OutcomeClass> names = {
      {"no bits dropped", "the low `shift` bits are 0: the shift is exact"},
      {"dropped bits below half", "0 < the dropped bits < 2^(shift-1)"},
      {"dropped bits exactly half", "the dropped bits = 2^(shift-1) (a rounding shift would add)"},
      {"dropped bits above half", "the dropped bits > 2^(shift-1)"},
      {"clamp high", "value >> shift > 32767: clamped with OF|NX"},
      {"clamp low", "value >> shift < -32768: clamped with OF|NX"},
      {"range end: maximum", "value >> shift = 32767 without clamping"},
      {"range end: minimum", "value >> shift = -32768 without clamping"},
      {"negative value", "the S32 value is negative"},
      {"every significant bit dropped", "a non-zero value shifts to 0 or -1"},
      {"shift 1", "the smallest shift"},
      {"shift 16", "the largest shift"},
  };
  return {std::move(names), [](const Inputs& in, std::span<const NumericExecutionControl> controls,
                               const Encoded*, ClassMask* out) {
            const auto v = static_cast<std::int32_t>(static_cast<std::uint32_t>(in[0]));
            const int s = static_cast<int>(in[1]);
            const std::uint32_t dropped = static_cast<std::uint32_t>(v) & ((1U << s) - 1U);
            const std::uint32_t half = 1U << (s - 1);
            const std::int32_t shifted = v >> s;
            ClassMask m = 0;
            m |= Bit(dropped == 0      ? kNoBitsDropped
                     : dropped < half  ? kDroppedBelowHalf
                     : dropped == half ? kDroppedHalf
                                       : kDroppedAboveHalf);
            if (shifted > 32767) m |= Bit(kClampHigh);
            if (shifted < -32768) m |= Bit(kClampLow);
            if (shifted == 32767) m |= Bit(kAtMaximum);
            if (shifted == -32768) m |= Bit(kAtMinimum);
            if (v < 0) m |= Bit(kNegative);
            if (v != 0 && (shifted == 0 || shifted == -1)) m |= Bit(kAllDropped);
            if (s == 1) m |= Bit(kShift1);
            if (s == 16) m |= Bit(kShift16);
            for (std::size_t c = 0; c < controls.size(); ++c) out[c] = m;
          }};
}

// ---- qparam: MatrixQuantParameter(FP32ToFP19(scale), offset, width) ----

OutcomeClassTable QparamOutcomeClasses(TypePair) {
  enum : unsigned {
    kExact,
    kDown,
    kUp,
    kTieEven,
    kTieUp,
    kCarry,
    kWidth0,
    kWidth5,
    kWidth9,
    kWidth17,
    kNegativeOffset,
    kOffsetMinimum,
    kOffsetMaximum,
    kNaN,
  };
  std::vector<OutcomeClass> names = {
      {"FP19 exact", "the 13 dropped fraction bits are 0"},
      {"FP19 rounded down", "the dropped bits are below half"},
      {"FP19 rounded up", "the dropped bits are above half"},
      {"FP19 tie kept even", "the dropped bits are exactly half and bit 13 is 0"},
      {"FP19 tie rounded up to even", "the dropped bits are exactly half and bit 13 is 1"},
      {"FP19 carry into the exponent", "rounding up a fraction of all ones (bits 22:13)"},
      {"width 0", "no offset field"},
      {"width 5", "a 5-bit offset"},
      {"width 9", "a 9-bit offset"},
      {"width 17", "a 17-bit offset"},
      {"negative offset", "the offset is negative"},
      {"offset at the width's minimum", "offset = -2^(width-1)"},
      {"offset at the width's maximum", "offset = 2^(width-1) - 1"},
      {"NaN scale", "a NaN FP32 scale (FP32ToFP19 gives 0x3ff00)"},
  };
  return {std::move(names), [](const Inputs& in, std::span<const NumericExecutionControl> controls,
                               const Encoded*, ClassMask* out) {
            const auto w = static_cast<std::uint32_t>(in[0]);
            const std::uint32_t low = w & 0x1FFFU;
            const bool odd = ((w >> 13) & 1U) != 0;
            ClassMask m = 0;
            const bool nan =
                oracle::NumericValueClassIsNaN(oracle::TileNumericValueClass(T::FP32, w));
            if (nan) m |= Bit(kNaN);
            if (!nan) {
              m |= Bit(low == 0        ? kExact
                       : low < 0x1000U ? kDown
                       : low > 0x1000U ? kUp
                       : odd           ? kTieUp
                                       : kTieEven);
              const bool rounds_up = low > 0x1000U || (low == 0x1000U && odd);
              if (rounds_up && ((w >> 13) & 0x3FFU) == 0x3FFU) m |= Bit(kCarry);
            }
            const int width = static_cast<int>(in[2]);
            m |= Bit(width == 0 ? kWidth0 : width == 5 ? kWidth5 : width == 9 ? kWidth9 : kWidth17);
            const auto offset = static_cast<std::int64_t>(oracle::SignExtend(in[1], 32));
            if (offset < 0) m |= Bit(kNegativeOffset);
            if (width != 0 && offset == -(std::int64_t{1} << (width - 1))) m |= Bit(kOffsetMinimum);
            if (width != 0 && offset == (std::int64_t{1} << (width - 1)) - 1) {
              m |= Bit(kOffsetMaximum);
            }
            for (std::size_t c = 0; c < controls.size(); ++c) out[c] = m;
          }};
}

}  // namespace ptovec::generator
