// The encode classifiers (outcome_classes.hpp): the classes of an exact value encoded into a
// floating type (ReferenceMatrixFloatingEncoding: exactness, subnormal and underflow, rounding to
// zero and to the smallest normal, carries, ties, the overflow threshold and overflow) or into an
// integer type (ReferenceMatrixIntegerEncoding: exactness, ties, Sat clamp and wrap, range ends),
// which encode, affine and fpatr share; each list ends with the implementation edges of issue 27
// (the subnormal/normal tie, the directed overflow edges, the binade below the smallest
// subnormal; rounding onto a range end from either side, to -2^w and to -1 for an unsigned
// destination). The format edges are the oracle's (format_edges.hpp).
#include <cstddef>
#include <memory>
#include <span>
#include <utility>
#include <vector>

#include "outcome_classes.hpp"
#include "ptovec/oracle/dyadic.hpp"
#include "ptovec/oracle/fast_matrix_quantization.hpp"
#include "ptovec/oracle/format_edges.hpp"
#include "ptovec/oracle/formats.hpp"
#include "ptovec/oracle/numeric.hpp"

namespace ptovec::generator {

namespace {

oracle::Dyadic Magnitude(oracle::Dyadic d) {
  d.negative = false;
  return d;
}

// |hi| - |lo| for |hi| >= |lo| whose exponents are close (neighbouring codes of one format).
oracle::Dyadic MagnitudeDifference(const oracle::Dyadic& hi, const oracle::Dyadic& lo) {
  if (lo.significand == 0) return Magnitude(hi);
  const oracle::Dyadic h = oracle::DyadicNormalized(hi);
  const oracle::Dyadic l = oracle::DyadicNormalized(lo);
  const int e = std::min(h.exponent, l.exponent);
  return oracle::DyadicNormalized(
      {false, (h.significand << (h.exponent - e)) - (l.significand << (l.exponent - e)), e});
}

}  // namespace

// ---- floating encodes: ReferenceMatrixFloatingEncoding and its callers ----

namespace {

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
  kSubnormalNormalTie,
  kOverflowBelowThreshold,
  kLargestAtOrAboveThreshold,
  kAtLargestPlusUlp,
  kBinadeBelowSmallestSubnormal,
  kBelowHalfSmallestSubnormal,
  kFloatingClasses
};

}  // namespace

std::vector<OutcomeClass> FloatingEncodeClassNames() {
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
      {"the subnormal/normal tie",
       "|value| is exactly halfway between the largest subnormal and the smallest normal (FP16: "
       "2047 * 2^-25)"},
      {"overflow below the overflow threshold",
       "OF is raised though |value| < largest finite + half its ulp: a mode rounding away from "
       "zero past the largest finite, or E4M3 and HiF8, which overflow above it in every mode"},
      {"largest finite at or above the overflow threshold",
       "|value| >= largest finite + half its ulp and the result is the largest finite without OF "
       "(a mode rounding toward zero)"},
      {"at largest finite + one ulp",
       "|value| = largest finite + its ulp (FP16: 65536), where FP32, FP16 and BF16 overflow in "
       "every mode, RTZ included"},
      {"in the binade below the smallest subnormal",
       "s/2 <= |value| < s, s the smallest subnormal: rounds to 0 or to s"},
      {"below half the smallest subnormal",
       "0 < |value| < s/2, s the smallest subnormal: the nearest modes give 0, a mode rounding "
       "away from zero gives s"},
  };
}

namespace {

struct FloatingDestination {
  TileDataType dst;
  oracle::Dyadic smallest_normal;
  oracle::Dyadic largest;
  oracle::Dyadic threshold;      // largest + half its ulp
  oracle::Dyadic beyond;         // largest + its ulp
  oracle::Dyadic subnormal_tie;  // (largest subnormal + smallest normal) / 2
  oracle::Dyadic smallest;       // the smallest subnormal s
  oracle::Dyadic half_smallest;  // s / 2
};

// The destination's edges, from the oracle's format edges (the strategies aim at the same).
// Every floating destination of encode and fpatr has subnormals.
FloatingDestination DescribeDestination(TileDataType dst) {
  const oracle::Dyadic s = oracle::SmallestPositiveValue(dst);
  return {dst,
          oracle::SmallestNormalValue(dst),
          oracle::LargestFiniteValue(dst),
          oracle::OverflowThreshold(dst),
          oracle::LargestFinitePlusUlp(dst),
          oracle::SubnormalNormalTie(dst),
          s,
          {false, s.significand, s.exponent - 1}};
}

// Classes of one finite value x (exact) encoded into a floating type; `encode` evaluates the
// encoding of x under a control (for the neighbours of x: toward zero and away from it).
template <typename Encode>
void ClassifyFloating(const FloatingDestination& d, const oracle::Dyadic& x, Encode encode,
                      std::span<const NumericExecutionControl> controls, const Encoded* expected,
                      ClassMask* out) {
  const oracle::Dyadic mag = Magnitude(x);
  // The neighbours of x in the destination: rounded toward zero and away from zero (Sat off).
  const Encoded toward = encode({NumericRoundingMode::RTZ, false});
  const Encoded away =
      encode({x.negative ? NumericRoundingMode::RTM : NumericRoundingMode::RTP, false});
  bool tie = false;
  if ((toward.status & oracle::kStatusNX) != 0 &&
      oracle::TileNumericValueIsFinite(d.dst, away.word) &&
      oracle::TileNumericValueIsFinite(d.dst, toward.word)) {
    const oracle::Dyadic spacing =
        MagnitudeDifference(oracle::DyadicFromFiniteCode(d.dst, away.word),
                            oracle::DyadicFromFiniteCode(d.dst, toward.word));
    tie = spacing.significand != 0 &&
          oracle::DyadicLowExponent(x) == oracle::DyadicLeadingExponent(spacing) - 1;
  }
  ClassMask common = 0;
  bool below_threshold = true;
  if (oracle::DyadicCompareMagnitude(mag, d.largest) > 0) {
    const int t = oracle::DyadicCompareMagnitude(mag, d.threshold);
    below_threshold = t < 0;
    if (t < 0) common |= ClassBit(kBelowOverflowThreshold);
    if (t == 0) common |= ClassBit(kAtOverflowThreshold);
    const int b = oracle::DyadicCompareMagnitude(mag, d.beyond);
    if (t > 0 && b < 0) common |= ClassBit(kAboveOverflowThreshold);
    if (b == 0) common |= ClassBit(kAtLargestPlusUlp);
  } else if (mag.significand != 0 && oracle::DyadicCompareMagnitude(mag, d.smallest_normal) < 0) {
    if (oracle::DyadicCompareMagnitude(mag, d.subnormal_tie) == 0)
      common |= ClassBit(kSubnormalNormalTie);
    if (oracle::DyadicCompareMagnitude(mag, d.smallest) < 0) {
      common |= ClassBit(oracle::DyadicCompareMagnitude(mag, d.half_smallest) < 0
                             ? kBelowHalfSmallestSubnormal
                             : kBinadeBelowSmallestSubnormal);
    }
  }
  for (std::size_t c = 0; c < controls.size(); ++c) {
    const Encoded r = expected[c];
    ClassMask m = common;
    const oracle::NumericValueClass vc = oracle::TileNumericValueClass(d.dst, r.word);
    const bool zero = oracle::NumericValueClassIsZero(vc);
    const bool normal = vc == oracle::NumericValueClass::PositiveNormal ||
                        vc == oracle::NumericValueClass::NegativeNormal;
    const bool subnormal = vc == oracle::NumericValueClass::PositiveSubnormal ||
                           vc == oracle::NumericValueClass::NegativeSubnormal;
    const bool exact = (r.status & oracle::kStatusNX) == 0;
    if (exact && zero) m |= ClassBit(kExactZero);
    if (exact && normal) m |= ClassBit(kExactNormal);
    if (exact && subnormal) m |= ClassBit(kExactSubnormal);
    if (!exact && normal && (r.status & (oracle::kStatusUF | oracle::kStatusOF)) == 0)
      m |= ClassBit(kInexactNormal);
    if ((r.status & oracle::kStatusUF) != 0) m |= ClassBit(kTinyInexact);
    if ((r.status & oracle::kStatusOF) != 0) {
      if (below_threshold) m |= ClassBit(kOverflowBelowThreshold);
      m |= ClassBit(controls[c].saturating ? kOverflowUnderSat : kOverflowToInfOrNaN);
      if (!oracle::TileNumericValueIsFinite(d.dst, r.word)) {
        m |= ClassBit(kOverflowToInfOrNaN);
        if (x.negative) m |= ClassBit(kNegativeOverflowToInfOrNaN);
      }
    }
    if (mag.significand != 0 && zero) m |= ClassBit(kRoundToZero);
    if ((normal || subnormal) && mag.significand != 0) {
      const oracle::Dyadic result = Magnitude(oracle::DyadicFromFiniteCode(d.dst, r.word));
      if (!below_threshold && (r.status & oracle::kStatusOF) == 0 &&
          oracle::DyadicCompareMagnitude(result, d.largest) == 0) {
        m |= ClassBit(kLargestAtOrAboveThreshold);
      }
      if (oracle::DyadicCompareMagnitude(mag, d.smallest_normal) < 0 &&
          oracle::DyadicCompareMagnitude(result, d.smallest_normal) == 0) {
        m |= ClassBit(kRoundUpToSmallestNormal);
      }
      if (!exact && oracle::DyadicLeadingExponent(result) > oracle::DyadicLeadingExponent(mag))
        m |= ClassBit(kCarryIntoNextBinade);
      if (tie) m |= ClassBit(oracle::DyadicCompareMagnitude(result, mag) > 0 ? kTieUp : kTieDown);
    }
    out[c] = m;
  }
}

}  // namespace

// ---- integer encodes: ReferenceMatrixIntegerEncoding ----

std::vector<OutcomeClass> IntegerEncodeClassNames() {
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
      {"rounds to the minimum from below",
       "value < the minimum and the result is the minimum without OF (S8: -128.5 under RNE)", true},
      {"rounds to the minimum from above",
       "value > the minimum and the result is the minimum (S8: -127.5 under RTM)", true},
      {"rounds to the maximum from above",
       "value > the maximum and the result is the maximum without OF (S8: 127.5 under RTZ)", true},
      {"rounds to the maximum from below",
       "value < the maximum and the result is the maximum (S8: 126.5 under RTP)", true},
      {"rounds to -2^w (unsigned)",
       "an unsigned destination of w bits and the value rounds to -2^w: OF, and without Sat it "
       "wraps to 0 (U16: -65536)"},
      {"rounds to -1 (unsigned)",
       "an unsigned destination and the value rounds to -1: OF, and without Sat it wraps to the "
       "maximum"},
  };
}

ClassMask UnsignedWrapClasses(TileDataType dst, std::int64_t rounded) {
  if (oracle::Format(dst).kind != oracle::FormatKind::UnsignedInteger) return 0;
  if (rounded == -1) return ClassBit(kIntRoundsToMinusOne);
  if (rounded == -(std::int64_t{1} << oracle::Format(dst).width))
    return ClassBit(kIntRoundsToMinusTwoToW);
  return 0;
}

void ClassifyIntegerEncode(TileDataType dst, const oracle::Dyadic& x,
                           std::span<const NumericExecutionControl> controls,
                           const Encoded* expected, ClassMask* out) {
  const bool tie = x.significand != 0 && oracle::DyadicLowExponent(x) == -1;
  const unsigned width = oracle::Format(dst).width;
  const bool unsigned_dst = oracle::Format(dst).kind == oracle::FormatKind::UnsignedInteger;
  // The range ends as words and as values (IntegerWordDyadic: U64's maximum is no int64).
  const Word lo_word = oracle::LowBits(oracle::TileIntegerMinimum(dst), width);
  const Word hi_word = oracle::LowBits(oracle::TileIntegerMaximum(dst), width);
  const int to_lo = oracle::DyadicCompare(x, IntegerWordDyadic(dst, lo_word));
  const int to_hi = oracle::DyadicCompare(x, IntegerWordDyadic(dst, hi_word));
  // A negative value above -2, or within 1 of -2^w, may round to -1 or -2^w (unsigned
  // destinations; the integer it rounds to is then found under each control's mode). Into U64
  // only -2^64 itself is within 1 of -2^64 among the sources' values (FP64 and FP32 values of
  // that size are integers), and it rounds to itself.
  bool near_wrap = false;
  bool at_minus_two_to_64 = false;
  if (unsigned_dst && x.negative && x.significand != 0) {
    near_wrap = oracle::DyadicCompare(x, {true, 2, 0}) > 0;
    if (width < 64) {
      const oracle::DyadicSignificand two_w = oracle::DyadicSignificand{1} << width;
      near_wrap = near_wrap || (oracle::DyadicCompare(x, {true, two_w + 1, 0}) > 0 &&
                                oracle::DyadicCompare(x, {true, two_w - 1, 0}) < 0);
    } else {
      at_minus_two_to_64 = oracle::DyadicCompare(x, {true, 1, 64}) == 0;
    }
  }
  for (std::size_t c = 0; c < controls.size(); ++c) {
    const Encoded r = expected[c];
    const Word v = oracle::LowBits(r.word, width);
    ClassMask m = 0;
    const bool of = (r.status & oracle::kStatusOF) != 0;
    if (!of && (r.status & oracle::kStatusNX) == 0) m |= ClassBit(kIntExact);
    if (!of && (r.status & oracle::kStatusNX) != 0) m |= ClassBit(kIntInexact);
    if (!of && tie) {
      m |= ClassBit(oracle::DyadicCompareMagnitude(IntegerWordDyadic(dst, v), x) > 0 ? kIntTieUp
                                                                                     : kIntTieDown);
    }
    if (of) m |= ClassBit(controls[c].saturating ? kIntSatClamp : kIntWrap);
    if (unsigned_dst && x.negative && x.significand != 0) m |= ClassBit(kIntNegativeIntoUnsigned);
    if (v == lo_word) m |= ClassBit(kIntAtMinimum);
    if (v == hi_word) m |= ClassBit(kIntAtMaximum);
    if (!of && v == 0 && x.significand != 0) m |= ClassBit(kIntRoundToZero);
    if (!of && v == lo_word && to_lo != 0)
      m |= ClassBit(to_lo < 0 ? kIntMinimumFromBelow : kIntMinimumFromAbove);
    if (!of && v == hi_word && to_hi != 0)
      m |= ClassBit(to_hi > 0 ? kIntMaximumFromAbove : kIntMaximumFromBelow);
    if (of && near_wrap) {
      // FloatingToInteger(x, mode), exactly: the encoding into S64 of a value this small.
      const Encoded r64 = oracle::FastMatrixIntegerEncoding(x, TileDataType::S64,
                                                            {controls[c].rounding_mode, false});
      m |= UnsignedWrapClasses(dst, IntegerWordValue(TileDataType::S64, r64.word));
    }
    if (of && at_minus_two_to_64) m |= ClassBit(kIntRoundsToMinusTwoToW);
    out[c] = m;
  }
}

ValueClassifier FloatingEncodeClassifier(TileDataType dst, FloatingEncodeFn encode) {
  auto d = std::make_shared<FloatingDestination>(DescribeDestination(dst));
  return [d, encode = std::move(encode)](const oracle::Dyadic& x,
                                         std::span<const NumericExecutionControl> controls,
                                         const Encoded* expected, ClassMask* out) {
    ClassifyFloating(
        *d, x,
        [&](NumericExecutionControl c) {
          const Encoded r = encode(x, d->dst, c);
          return Encoded{oracle::LowBits(r.word, oracle::Format(d->dst).width), r.status};
        },
        controls, expected, out);
  };
}

ValueClassifier FloatingEncodeClassifier(TileDataType dst) {
  return FloatingEncodeClassifier(
      dst, [](const oracle::Dyadic& x, TileDataType t, NumericExecutionControl c) {
        return oracle::FastMatrixFloatingEncoding(x, t, c);
      });
}

ValueClassifier IntegerEncodeClassifier(TileDataType dst) {
  return [dst](const oracle::Dyadic& x, std::span<const NumericExecutionControl> controls,
               const Encoded* expected,
               ClassMask* out) { ClassifyIntegerEncode(dst, x, controls, expected, out); };
}

}  // namespace ptovec::generator
