// Op `encode`: the matrix post-process encoders of seed 000. The exact value of a finite source
// word is encoded by ReferenceMatrixFloatingEncoding (lines 454-472) into FP32, FP16, BF16, E4M3
// or HiF8, or by ReferenceMatrixIntegerEncoding (lines 108-131) into an integer type.
#include <algorithm>
#include <cstdint>
#include <memory>
#include <span>
#include <vector>

#include "outcome_classes.hpp"
#include "ptovec/generator/domains.hpp"
#include "ptovec/generator/ops.hpp"
#include "ptovec/generator/sampler.hpp"
#include "ptovec/generator/word_set.hpp"
#include "ptovec/generator/word_text.hpp"
#include "ptovec/generator/writers.hpp"
#include "ptovec/oracle/behaviour.hpp"
#include "ptovec/oracle/dyadic.hpp"
#include "ptovec/oracle/fast.hpp"
#include "ptovec/oracle/format_edges.hpp"
#include "ptovec/oracle/formats.hpp"
#include "ptovec/oracle/matrix_quantization.hpp"
#include "ptovec/oracle/reference_quantization.hpp"
#include "tcvt_common.hpp"

namespace ptovec::generator {

namespace {

using oracle::Format;
using oracle::FormatInfo;
using T = TileDataType;

constexpr T kEncodeSources[] = {T::E4M3, T::HiF8, T::FP16, T::BF16, T::FP32, T::S32};
constexpr T kFloatDestinations[] = {T::FP32, T::FP16, T::BF16, T::E4M3, T::HiF8};
constexpr T kIntegerDestinations[] = {T::S4X2, T::U4X2, T::S8,  T::U8,
                                      T::S16,  T::U16,  T::S32, T::U32};

bool IsFloatDestination(T dst) { return Format(dst).IsFloating(); }

// The exact value of a source word as a Dyadic (the fast path's input).
oracle::Dyadic SourceDyadic(T src, Word word) {
  if (src == T::S32) {
    return oracle::DyadicFromInteger(static_cast<std::int32_t>(static_cast<std::uint32_t>(word)));
  }
  return oracle::DyadicFromFiniteCode(src, word);
}

// The exact value of a source word as an ASL real, by the seeds' own decoders.
oracle::Real SourceReal(T src, Word word) {
  switch (src) {
    case T::FP32:
      return oracle::ReferenceFP32FiniteValue(word);
    case T::FP16:
    case T::BF16:
      return oracle::ReferenceBinary16FiniteValue(word, src);
    case T::E4M3:
    case T::HiF8:
      return oracle::ReferenceFP8FiniteValue(src, word);
    default:
      return oracle::Real(oracle::ReferenceIntegerValue(word, src));
  }
}

Encoded ToElement(Encoded r, T dst) {
  return {oracle::LowBits(r.word, Format(dst).width), r.status};
}

Encoded EvaluateEncode(TypePair pair, const Inputs& in, NumericExecutionControl control) {
  const oracle::Dyadic value = SourceDyadic(pair.src, in[0]);
  if (IsFloatDestination(pair.dst)) {
    return ToElement(oracle::FastMatrixFloatingEncoding(value, pair.dst, control), pair.dst);
  }
  return ToElement(oracle::FastMatrixIntegerEncoding(value, pair.dst, control), pair.dst);
}

// The batch form (OpDef::evaluate_batch): each source decoded once for all its controls, and,
// into a floating destination, (mode, Sat on) taken from (mode, Sat off) when that raised no OF:
// ReferenceMatrixFloatingEncoding reads Sat only where the rounded value overflows (seed 000:
// FP32 lines 461-464, ReferenceBinary16Encoding's overflow results, ReferenceFP8Encoding lines
// 354-362), and every such result has OF. Proven equal to `evaluate` by
// tests/generator/encode_batch_test.cpp. Into FP16 and BF16 every control of an input comes from
// one split (FastBinary16EncodingControls).
void EvaluateEncodeBatch(TypePair pair, const Inputs* in, std::size_t n,
                         std::span<const NumericExecutionControl> controls, Encoded* out) {
  const bool floating = IsFloatDestination(pair.dst);
  const std::size_t nc = controls.size();
  if (pair.dst == T::FP16 || pair.dst == T::BF16) {  // codes of 16 bits: no LowBits needed
    for (std::size_t i = 0; i < n; ++i, out += nc) {
      oracle::FastBinary16EncodingControls(SourceDyadic(pair.src, in[i][0]), pair.dst,
                                           controls.data(), nc, out);
    }
    return;
  }
  for (std::size_t i = 0; i < n; ++i, out += nc) {
    const oracle::Dyadic value = SourceDyadic(pair.src, in[i][0]);
    for (std::size_t c = 0; c < nc; ++c) {
      const NumericExecutionControl control = controls[c];
      if (floating && c > 0 && control.saturating && !controls[c - 1].saturating &&
          controls[c - 1].rounding_mode == control.rounding_mode &&
          (out[c - 1].status & oracle::kStatusOF) == 0) {
        out[c] = out[c - 1];
        continue;
      }
      out[c] = ToElement(floating ? oracle::FastMatrixFloatingEncoding(value, pair.dst, control)
                                  : oracle::FastMatrixIntegerEncoding(value, pair.dst, control),
                         pair.dst);
    }
  }
}

Encoded EvaluateEncodeReference(TypePair pair, const Inputs& in, NumericExecutionControl control) {
  const oracle::Real value = SourceReal(pair.src, in[0]);
  if (IsFloatDestination(pair.dst)) {
    return ToElement(oracle::ReferenceMatrixFloatingEncoding(value, pair.dst, control), pair.dst);
  }
  return ToElement(oracle::ReferenceMatrixIntegerEncoding(value, pair.dst, control), pair.dst);
}

// A behaviour model's encode (oracle/behaviour.hpp): the source as the model reads it (under
// e4m3-inf-nan, E4M3 codes 0x78-0x7F are Inf and NaN), then the model's encoder. A -0 source
// carries its sign (signed-zero); invalid-integer applies to floating sources only.
oracle::ModelAnswer EvaluateEncodeModel(TypePair pair, const Inputs& in,
                                        NumericExecutionControl control,
                                        const oracle::Behaviour& behaviour) {
  const oracle::ModelSource source = oracle::ModelSourceOf(pair.src, in[0], behaviour);
  if (source.kind != oracle::ModelSourceKind::Finite) {
    return oracle::ModelSpecialEncoding(source, pair.dst, behaviour);
  }
  const oracle::Dyadic value = SourceDyadic(pair.src, in[0]);
  if (IsFloatDestination(pair.dst)) {
    return oracle::FastModelMatrixFloatingEncoding(value, source.negative, pair.dst, control,
                                                   behaviour);
  }
  return oracle::FastModelMatrixIntegerEncoding(value, Format(pair.src).IsFloating(), pair.dst,
                                                control, behaviour);
}

oracle::ModelAnswer EvaluateEncodeModelReference(TypePair pair, const Inputs& in,
                                                 NumericExecutionControl control,
                                                 const oracle::Behaviour& behaviour) {
  const oracle::ModelSource source = oracle::ModelSourceOf(pair.src, in[0], behaviour);
  if (source.kind != oracle::ModelSourceKind::Finite) {
    return oracle::ModelSpecialEncoding(source, pair.dst, behaviour);
  }
  const oracle::Real value = SourceReal(pair.src, in[0]);
  if (IsFloatDestination(pair.dst)) {
    return oracle::ModelMatrixFloatingEncoding(value, source.negative, pair.dst, control,
                                               behaviour);
  }
  return oracle::ModelMatrixIntegerEncoding(value, Format(pair.src).IsFloating(), pair.dst, control,
                                            behaviour);
}

std::optional<std::string> CheckEncodeDomain(TypePair pair, const Inputs& in) {
  if (pair.src == T::S32 || oracle::TileNumericValueIsFinite(pair.src, in[0])) return std::nullopt;
  const auto c = oracle::TileNumericValueClass(pair.src, in[0]);
  return "encode takes finite source values: value " + HexWord(in[0], pair.src) + " is " +
         std::string(oracle::NumericValueClassName(c)) + " in " +
         std::string(Format(pair.src).name) + " (NaN and Inf codes are outside this op's domain)";
}

// ---- sampled domains (FP32 and S32 sources) ----

WordSet Fp32FiniteSpecials() { return Fp32Specials().Intersect(Fp32FiniteWords()); }

// Large S32 values that are FP32 values (24-bit significands at exponents 24..30) or the
// midpoints between neighbours: the ties of S32 -> FP32, and +/-2 around them, both signs. In
// binade [2^e, 2^(e+1)) those values are k * 2^(e-24) for k in 2^24 .. 2^25-1. Axes (sign, e,
// k, d): the value is k * g + d with g = 2^(e-24), d in -2..2; for e <= 26 (g <= 4) the windows
// touch, so k runs over the values themselves (g = 1, d = 0). Neighbouring binades share a few
// values at their ends; invert lists both, and the sampler keeps one.
TupleSet S32Fp32Ties() {
  constexpr int kFirst = 24;
  constexpr int kLast = 30;
  std::vector<Box> boxes;
  for (int e = kFirst; e <= kLast; ++e) {
    const std::int64_t g = std::int64_t{1} << (e - 24);
    WordSet k;
    WordSet d = WordSet::Points({0});
    if (g <= 4) {
      k = WordSet::Range(static_cast<Word>((std::int64_t{1} << e) - 2),
                         static_cast<Word>((std::int64_t{1} << (e + 1)) - g + 2));
    } else {
      k = WordSet::Range(Word{1} << 24, (Word{1} << 25) - 1);
      d = SignedRange(-2, 2);
    }
    boxes.push_back(Box{{WordSet::Range(0, 1), WordSet::Points({static_cast<Word>(e)}), k, d}});
  }
  const auto spacing = [](Word e) {
    return e <= 26 ? std::int64_t{1} : std::int64_t{1} << (e - 24);
  };
  const auto assemble = [spacing](const Point& a) {
    const std::int64_t magnitude =
        static_cast<std::int64_t>(a[2]) * spacing(a[1]) + static_cast<std::int64_t>(a[3]);
    const std::int64_t v =
        std::clamp<std::int64_t>(a[0] != 0 ? -magnitude : magnitude, INT32_MIN, INT32_MAX);
    return Inputs{static_cast<std::uint32_t>(static_cast<std::int32_t>(v)), 0, 0, 0};
  };
  const auto invert = [spacing](const Inputs& t, std::vector<Point>& out) {
    const std::int64_t v = static_cast<std::int32_t>(static_cast<std::uint32_t>(t[0]));
    const std::int64_t magnitude = v < 0 ? -v : v;
    for (Word e = kFirst; e <= kLast; ++e) {
      const std::int64_t g = spacing(e);
      const std::int64_t k = (magnitude + g / 2) / g;
      out.push_back(Point{v < 0 ? Word{1} : Word{0}, e, static_cast<Word>(k),
                          static_cast<Word>(magnitude - k * g)});
    }
  };
  return TupleSet::Mapped(Boxes(std::move(boxes)), assemble, invert);
}

WordSet S32Edges() {
  return WordSet::Points(
      {0x00000000U, 0x00000001U, 0xFFFFFFFFU, 0x7FFFFFFFU, 0x80000000U, 0x7FFFFFFEU, 0x80000001U});
}

// FP32 words within `steps` ulps of the FP32 neighbours of each anchor (both signs when
// `both_signs`), finite.
WordSet Fp32Near(const std::vector<oracle::Dyadic>& anchors, int steps, bool both_signs) {
  return Fp32AroundAnchors(anchors, steps, both_signs).Intersect(Fp32FiniteWords());
}

// The binade below the smallest subnormal s of a floating destination, both signs: the words
// within 4 ulps of s/4, s/2 and s, and 128 words spread evenly over [s/2, s) (every value there
// rounds to 0 or to s by the mode alone, so a comb stands for the binade; a uniform part took a
// seventh of FP32 -> E4M3's sample).
WordSet Fp32BinadeBelowSmallestSubnormal(TileDataType dst) {
  constexpr std::int64_t kComb = 128;
  const std::vector<oracle::Dyadic> anchors = BelowSmallestSubnormalAnchors(dst);
  const std::int64_t half = Fp32Ordinal(Fp32Bracket(anchors[1]).second);
  const std::int64_t whole = Fp32Ordinal(Fp32Bracket(anchors[2]).first);
  std::vector<Word> comb;
  for (std::int64_t k = 0; k < kComb; ++k) {
    comb.push_back(Fp32FromOrdinal(half + (whole - half) * k / kComb));
  }
  return Fp32Near(anchors, 4, true).Union(WithBothSigns(WordSet::Points(comb)));
}

// The implementation edges of issue 27, as strategies of their own beside the specification's
// (the destination's values and ties): named after the edge, each with a fixed share of the
// sample, and placed before the broad strategies so that the words they hold count as theirs.
// A word at the edge and a few FP32 ulps (S32 units) either side of it.
void AddImplementationEdges(TypePair pair, std::vector<SampleStrategy>& s) {
  const oracle::FormatInfo& f = Format(pair.dst);
  const bool unsigned_dst = f.kind == oracle::FormatKind::UnsignedInteger;
  if (pair.src == T::FP32) {
    if (!f.IsFloating()) {
      // S8: -128.5, -128, -127.5, 126.5, 127, 127.5 (a device gave NV for -128.5 -> -128).
      s.push_back({"fp32_rounding_to_integer_range_ends", 1,
                   OneSlot(Fp32Near(IntegerRangeEndAnchors(pair.dst), 4, false))});
      // U16: -65536.5, -65536, -65535.5 (-65536 wraps to 0 with OF|NX; a device gave NX only)
      // and -1.5, -1, -0.5.
      if (unsigned_dst) {
        s.push_back({"fp32_rounding_to_unsigned_wrap_edges", 1,
                     OneSlot(Fp32Near(UnsignedWrapAnchors(pair.dst), 4, false))});
      }
      return;
    }
    s.push_back({"fp32_subnormal_normal_tie", 1,
                 OneSlot(Fp32Near(SubnormalNormalTieAnchors(pair.dst), 4, true))});
    s.push_back({"fp32_directed_overflow_thresholds", 1,
                 OneSlot(Fp32Near(DirectedOverflowAnchors(pair.dst), 4, true))});
    s.push_back({"fp32_binade_below_smallest_subnormal", 1,
                 OneSlot(Fp32BinadeBelowSmallestSubnormal(pair.dst))});
    return;
  }
  // S32: integers, so only the edges it can reach: -2^w (w < 32) and -1 of an unsigned
  // destination, and the overflow edges of a destination whose largest finite + ulp is below
  // 2^31 (FP16, E4M3, HiF8).
  if (!f.IsFloating()) {
    if (unsigned_dst) {
      s.push_back({"s32_unsigned_wrap_edges", 1,
                   OneSlot(S32AroundAnchors(UnsignedWrapAnchors(pair.dst), 2, false))});
    }
    return;
  }
  if (oracle::DyadicLeadingExponent(oracle::LargestFinitePlusUlp(pair.dst)) < 31) {
    s.push_back({"s32_directed_overflow_thresholds", 1,
                 OneSlot(S32AroundAnchors(DirectedOverflowAnchors(pair.dst), 2, true))});
  }
}

// Every finite code of an 8/16-bit source; the strategies for FP32 and S32.
DomainPlan EncodePlan(TypePair pair) {
  if (pair.src != T::FP32 && pair.src != T::S32) {
    return DomainPlan::Exhaustive(
        [src = pair.src](Word w) { return oracle::TileNumericValueIsFinite(src, w); });
  }
  return DomainPlan::Sampled(EncodeStrategies(pair));
}

}  // namespace

std::vector<SampleStrategy> EncodeStrategies(TypePair pair) {
  std::vector<SampleStrategy> s;
  const bool fp32 = pair.src == T::FP32;
  if (pair.dst == T::FP32) {
    // FP32 -> FP32 is the identity on finite values; S32 -> FP32 rounds above 2^24.
    if (fp32) {
      s.push_back({"fp32_finite_specials", 1, OneSlot(Fp32FiniteSpecials())});
      s.push_back({"fp32_binade_ends", 2, OneSlot(Fp32BinadeEnds())});
      s.push_back({"fp32_uniform_finite_bits", 3, OneSlot(Fp32FiniteWords())});
    } else {
      s.push_back({"s32_fp32_ties", 6, S32Fp32Ties()});
      s.push_back({"s32_edges", 1, OneSlot(S32Edges())});
      s.push_back({"s32_uniform_bits", 3, OneSlot(Fp32UniformBits())});
    }
    return s;
  }
  // Anchors of the destination: every value and tie (floating), range ends and .5 ties (integer).
  const std::vector<oracle::Dyadic> anchors = DestinationAnchors(pair.dst);
  const bool floating = IsFloatDestination(pair.dst);
  if (fp32) {
    // The specials first, so that each (+0, -0, the subnormal and normal ends) is its own and
    // taken whole: after the anchors, which hold 0, +0 was left to the anchors' sample and the
    // default FP32 -> FP16 and -> BF16 files had none (`ptovec coverage`: input +zero).
    s.push_back({"fp32_finite_specials", 1, OneSlot(Fp32FiniteSpecials())});
    // Then the implementation edges: into a floating type the overflow edge (3 anchors among
    // thousands) and the underflow edge, which a uniform pick among the anchors rarely reaches
    // in every mode (`ptovec coverage`: FP32 -> BF16 under RTP rounding up to the smallest
    // normal), had parts of the anchors' strategy before they had strategies of their own.
    AddImplementationEdges(pair, s);
    s.push_back({floating ? "fp32_at_and_around_destination_values_and_ties"
                          : "fp32_at_and_around_range_edges_and_half_ties",
                 floating ? 6 : 8, OneSlot(Fp32Near(anchors, 2, floating))});
    s.push_back({"fp32_uniform_finite_bits", 3, OneSlot(Fp32FiniteWords())});
  } else {
    AddImplementationEdges(pair, s);
    s.push_back({floating ? "s32_at_and_around_destination_values_and_ties"
                          : "s32_at_and_around_range_edges",
                 8, OneSlot(S32AroundAnchors(anchors, 2, floating))});
    s.push_back({"s32_edges", 1, OneSlot(S32Edges())});
    s.push_back({"s32_uniform_bits", 3, OneSlot(Fp32UniformBits())});
  }
  return s;
}

// ---- outcome classes (ptovec coverage) ----

OutcomeClassTable EncodeOutcomeClasses(TypePair pair) {
  const TileDataType src = pair.src;
  const TileDataType dst = pair.dst;
  if (oracle::Format(dst).IsFloating()) {
    return {FloatingEncodeClassNames(),
            [src, classify = FloatingEncodeClassifier(dst)](
                const Inputs& in, std::span<const NumericExecutionControl> controls,
                const Encoded* expected,
                ClassMask* out) { classify(ExactWordValue(src, in[0]), controls, expected, out); }};
  }
  return {IntegerEncodeClassNames(),
          [src, dst](const Inputs& in, std::span<const NumericExecutionControl> controls,
                     const Encoded* expected, ClassMask* out) {
            ClassifyIntegerEncode(dst, ExactWordValue(src, in[0]), controls, expected, out);
          }};
}

OpDef MakeEncodeOp() {
  OpDef op;
  op.name = "encode";
  op.instruction = "matrix post-process encode";
  op.seed_function = "ReferenceMatrixFloatingEncoding / ReferenceMatrixIntegerEncoding";
  op.seed_source = "000_93cee333e42f6460.txt lines 454-472 and 108-131";
  op.summary =
      "the exact value of a finite source word encoded into FP32, FP16, BF16, E4M3, HiF8 or an "
      "integer type under the mode and Sat";
  op.slots = {{"value", SlotRole::Source, T::FP32,
               "a finite source word (NaN and Inf codes are outside the domain); S32 is an "
               "integer"}};
  for (T src : kEncodeSources) {
    for (T dst : kFloatDestinations) op.legal_pairs.push_back({src, dst});
    for (T dst : kIntegerDestinations) op.legal_pairs.push_back({src, dst});
  }
  op.default_suite_pairs = op.legal_pairs;
  op.evaluate = EvaluateEncode;
  op.evaluate_batch = EvaluateEncodeBatch;
  op.evaluate_reference = EvaluateEncodeReference;
  op.evaluate_model = EvaluateEncodeModel;
  op.evaluate_model_reference = EvaluateEncodeModelReference;
  op.check_domain = CheckEncodeDomain;
  op.plan = EncodePlan;
  op.outcome_classes = [](TypePair p) { return WithEncodeSides(p, EncodeOutcomeClasses(p)); };
  return op;
}

}  // namespace ptovec::generator
