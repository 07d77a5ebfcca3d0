#include "ptovec/generator/domains.hpp"

#include <algorithm>
#include <array>
#include <boost/multiprecision/cpp_int.hpp>
#include <memory>
#include <stdexcept>

#include "ptovec/generator/writers.hpp"
#include "ptovec/oracle/fast.hpp"
#include "ptovec/oracle/numeric.hpp"
#include "ptovec/oracle/reference_quantization.hpp"

namespace ptovec::generator {

namespace {

// The words within `steps` of a non-negative FP32 magnitude pattern, clamped to 0 .. +Inf.
WordSet Around(std::uint32_t magnitude, int steps) {
  const std::int64_t m = magnitude;
  return WordSet::Range(static_cast<Word>(std::max<std::int64_t>(0, m - steps)),
                        static_cast<Word>(std::min<std::int64_t>(0x7F800000, m + steps)));
}

WordSet Signed(const WordSet& magnitudes, bool positive_only) {
  return positive_only ? magnitudes : WithBothSigns(magnitudes);
}

}  // namespace

InputSet SampledSet(std::vector<SampleStrategy> strategies, std::uint64_t seed,
                    std::uint64_t samples) {
  auto sample = std::make_shared<const Sample>(std::move(strategies), seed, samples);
  InputSet set;
  set.count = sample->count();
  set.kind = "sampled";
  set.strategies = sample->counts();
  set.at = [sample](std::uint64_t i) { return sample->at(i); };
  set.fill = [sample](std::uint64_t begin, std::uint64_t n, Inputs* out) {
    sample->Fill(begin, n, out);
  };
  return set;
}

rc::Gen<Inputs> StrategyGen(const TupleSet& set) {
  auto shared = std::make_shared<const TupleSet>(set);
  if (set.size() == 0) throw std::invalid_argument("StrategyGen: empty strategy");
  // A uniform 128-bit draw reduced modulo the size (the bias is below 2^-64 for every set here).
  // inRange is uniform over its range whatever RapidCheck's size parameter is.
  const auto word = rc::gen::inRange<std::uint64_t>(0, ~std::uint64_t{0});
  return rc::gen::apply(
      [shared](std::uint64_t high, std::uint64_t low) {
        return shared->at(((static_cast<Index>(high) << 64) | low) % shared->size());
      },
      word, word);
}

rc::Gen<Inputs> StrategyGen(const SampleStrategy& strategy) {
  if (strategy.parts.size() == 1) return StrategyGen(strategy.parts[0].set);
  // A part by weight, then a uniform tuple of it (rc::gen::weightedOneOf takes only an
  // initializer list, so the same is built from inRange and mapcat).
  auto parts = std::make_shared<std::vector<std::pair<int, rc::Gen<Inputs>>>>();
  int total = 0;
  for (const WeightedSet& p : strategy.parts) {
    parts->emplace_back(p.weight, StrategyGen(p.set));
    total += p.weight;
  }
  return rc::gen::mapcat(rc::gen::inRange(0, total), [parts](int ticket) {
    for (const auto& [weight, gen] : *parts) {
      if (ticket < weight) return gen;
      ticket -= weight;
    }
    return parts->back().second;
  });
}

std::vector<Strategy> StrategyGens(const std::vector<SampleStrategy>& strategies) {
  std::vector<Strategy> out;
  for (const SampleStrategy& s : strategies) out.push_back({s.name, s.weight, StrategyGen(s)});
  return out;
}

InputSet ListSet(std::vector<Inputs> tuples, std::string kind) {
  auto shared = std::make_shared<const std::vector<Inputs>>(std::move(tuples));
  InputSet set;
  set.count = shared->size();
  set.kind = std::move(kind);
  set.at = [shared](std::uint64_t i) { return (*shared)[static_cast<std::size_t>(i)]; };
  return set;
}

InputSet ExhaustiveCodes(TileDataType type, const std::function<bool(Word)>& keep) {
  const oracle::FormatInfo& f = oracle::Format(type);
  if (f.width > 16) {
    throw std::invalid_argument(std::string(f.name) + " is too wide to enumerate (" +
                                std::to_string(f.width) + " bits; at most 16)");
  }
  std::vector<Inputs> codes;
  for (Word code = 0; code < (Word{1} << f.width); ++code) {
    if (!keep || keep(code)) codes.push_back(Inputs{code, 0, 0, 0});
  }
  return ListSet(std::move(codes), "exhaustive");
}

std::uint64_t FloorSqrt2Scaled(int j) {
  if (j < 0 || j > 62) throw std::invalid_argument("FloorSqrt2Scaled: j outside 0..62");
  const boost::multiprecision::cpp_int square = boost::multiprecision::cpp_int(1) << (2 * j + 1);
  return static_cast<std::uint64_t>(boost::multiprecision::sqrt(square));
}

WordSet Fp32Specials() {
  return WordSet::Points({
      0x00000000U, 0x80000000U,                            // +0, -0
      0x7F800000U, 0xFF800000U,                            // +Inf, -Inf
      0x7FC00000U, 0xFFC00000U, 0x7FFFFFFFU,               // quiet NaNs
      0x7F800001U, 0xFF800001U, 0x7FBFFFFFU,               // signaling NaNs
      0x00000001U, 0x80000001U, 0x007FFFFFU, 0x807FFFFFU,  // subnormal ends
      0x00800000U, 0x80800000U, 0x7F7FFFFFU, 0xFF7FFFFFU,  // normal ends
      0x3F800000U, 0xBF800000U, 0x00400000U, 0x7F000000U,  // 1, -1, 2^-127, 2^127
  });
}

WordSet Fp32PowerOfTwoNeighbours(bool positive_only) {
  // Exponent fields 1..254 with fraction 0, and the subnormal powers 2^-149..2^-127.
  std::vector<WordSet::Interval> words;
  const auto add = [&words](std::uint32_t power) {
    const WordSet near = Around(power, 4);
    words.insert(words.end(), near.intervals().begin(), near.intervals().end());
  };
  for (std::uint32_t e = 1; e < 255; ++e) add(e << 23);
  for (std::uint32_t bit = 0; bit < 23; ++bit) add(std::uint32_t{1} << bit);
  return Signed(WordSet::Of(std::move(words)), positive_only);
}

WordSet Fp32Sqrt2Boundaries(bool positive_only) {
  // k = -149..127; the FP32 value floor(sqrt(2) * 2^k) in FP32 resolution, then +/-4 ulps.
  std::vector<WordSet::Interval> words;
  const auto fraction = static_cast<std::uint32_t>(FloorSqrt2Scaled(23) - (std::uint64_t{1} << 23));
  for (int k = -149; k <= 127; ++k) {
    // Subnormal: sqrt(2) * 2^k = f * 2^-149 with f = sqrt(2) * 2^(k+149), k + 149 in 0..22.
    const std::uint32_t nearest = k >= -126 ? (static_cast<std::uint32_t>(k + 127) << 23) | fraction
                                            : static_cast<std::uint32_t>(FloorSqrt2Scaled(k + 149));
    const WordSet near = Around(nearest, 4);
    words.insert(words.end(), near.intervals().begin(), near.intervals().end());
  }
  return Signed(WordSet::Of(std::move(words)), positive_only);
}

WordSet Fp32SubnormalFloorEdge() {
  // Highest set bit 20..22 (floor exponent -129..-127), and around 2^-127 (0x00400000), 2^-128
  // (0x00200000) and the smallest normal (0x00800000).
  return WordSet::Range(1U << 20, (1U << 23) - 1)
      .Union(Around(0x00400000U, 8))
      .Union(Around(0x00200000U, 8))
      .Union(Around(0x00800000U, 8));
}

WordSet Fp32TopBinades() {
  const auto sqrt2_fraction =
      static_cast<std::uint32_t>(FloorSqrt2Scaled(23) - (std::uint64_t{1} << 23));
  WordSet out;
  for (std::uint32_t field : {253U, 254U}) {
    for (std::uint32_t anchor : {0U, 0x7FFFFFU, sqrt2_fraction}) {
      out = out.Union(Around((field << 23) | anchor, 4));
    }
  }
  return out;
}

WordSet Fp32BinadeEnds() {
  std::vector<Word> words;
  for (std::uint32_t e = 0; e < 255; ++e) {
    for (std::uint32_t fraction : {0U, 0x7FFFFFU}) words.push_back((e << 23) | fraction);
  }
  return WithBothSigns(WordSet::Points(words));
}

WordSet Fp32UniformBits() { return AllWords(32); }

std::int64_t Fp32Ordinal(std::uint32_t word) {
  if ((word & 0x80000000U) != 0) return -static_cast<std::int64_t>(word & 0x7FFFFFFFU) - 1;
  return static_cast<std::int64_t>(word);
}

std::uint32_t Fp32FromOrdinal(std::int64_t ordinal) {
  constexpr std::int64_t kInf = 0x7F800000;
  ordinal = std::clamp<std::int64_t>(ordinal, -kInf - 1, kInf);
  if (ordinal >= 0) return static_cast<std::uint32_t>(ordinal);
  return 0x80000000U | static_cast<std::uint32_t>(-(ordinal + 1));
}

std::uint32_t Fp32Step(std::uint32_t word, std::int64_t steps) {
  return Fp32FromOrdinal(Fp32Ordinal(word) + steps);
}

bool Fp32IsFinite(std::uint32_t word) { return (word & 0x7F800000U) != 0x7F800000U; }

namespace {

using oracle::Dyadic;
using U128 = oracle::DyadicSignificand;
__extension__ typedef __int128 I128;

// The exponent of the leading bit of a non-zero dyadic (2^E <= |x| < 2^(E+1)).
int Leading(const Dyadic& d) { return d.exponent + oracle::BitLength(d.significand) - 1; }

// Non-negative dyadics a, b with leading exponents at most 60 apart (or a zero) as integers at
// one exponent: a = A * 2^e, b = B * 2^e.
struct Aligned {
  U128 a;
  U128 b;
  int e;
};
Aligned Align(const Dyadic& a, const Dyadic& b) {
  if (a.significand == 0) return {0, b.significand, b.exponent};
  if (b.significand == 0) return {a.significand, 0, a.exponent};
  const int e = std::min(a.exponent, b.exponent);
  return {a.significand << (a.exponent - e), b.significand << (b.exponent - e), e};
}

// a < b for non-negative dyadics.
bool Below(const Dyadic& a, const Dyadic& b) {
  if (a.significand == 0 || b.significand == 0) return a.significand == 0 && b.significand != 0;
  if (Leading(a) != Leading(b)) return Leading(a) < Leading(b);
  const Aligned x = Align(a, b);
  return x.a < x.b;
}

}  // namespace

std::pair<std::uint32_t, std::uint32_t> Fp32Bracket(const oracle::Dyadic& x) {
  // At and beyond 2^128 the seed's encoder gives Inf in every mode; the neighbours in value order
  // are the largest finite and Inf.
  if (x.significand != 0 && Leading(x) >= 128) {
    return x.negative ? std::pair<std::uint32_t, std::uint32_t>{0xFF800000U, 0xFF7FFFFFU}
                      : std::pair<std::uint32_t, std::uint32_t>{0x7F7FFFFFU, 0x7F800000U};
  }
  const auto lo =
      static_cast<std::uint32_t>(oracle::FastFP32FiniteEncoding(x, NumericRoundingMode::RTM).word);
  const auto hi =
      static_cast<std::uint32_t>(oracle::FastFP32FiniteEncoding(x, NumericRoundingMode::RTP).word);
  return {lo, hi};
}

std::pair<std::uint32_t, std::uint32_t> Fp32Bracket(const oracle::Real& x) {
  const auto d = oracle::DyadicFromReal(x);
  if (!d) {
    // Beyond 2^128 a dyadic may not fit a Dyadic's 128-bit significand: bracket by the limit.
    static const oracle::Real limit = oracle::PowerOfTwo(128);
    if (x >= limit) return {0x7F7FFFFFU, 0x7F800000U};
    if (x <= -limit) return {0xFF800000U, 0xFF7FFFFFU};
    throw std::invalid_argument("Fp32Bracket: the anchor is not a dyadic rational");
  }
  return Fp32Bracket(*d);
}

std::vector<oracle::Dyadic> DestinationAnchors(TileDataType dst) {
  const oracle::FormatInfo& f = oracle::Format(dst);
  std::vector<Dyadic> anchors;
  if (!f.IsFloating()) {
    const auto wide = [](const oracle::Integer& v) {  // |v| < 2^64
      return v < 0 ? -static_cast<I128>(static_cast<std::uint64_t>(-v))
                   : static_cast<I128>(static_cast<std::uint64_t>(v));
    };
    const I128 lo = wide(oracle::ReferenceIntegerValue(oracle::TileIntegerMinimum(dst), dst));
    const I128 hi = wide(oracle::ReferenceIntegerValue(oracle::TileIntegerMaximum(dst), dst));
    // Each edge + k and edge + k + 1/2 (= (2(edge + k) + 1) / 2), sorted and without repeats.
    std::vector<I128> halves;  // anchors in units of 1/2
    for (const I128 edge : {lo, hi, I128{0}}) {
      for (int k = -2; k <= 2; ++k) {
        halves.push_back(2 * (edge + k));
        halves.push_back(2 * (edge + k) + 1);
      }
    }
    std::sort(halves.begin(), halves.end());
    halves.erase(std::unique(halves.begin(), halves.end()), halves.end());
    for (const I128 h : halves) {
      anchors.push_back({h < 0, static_cast<U128>(h < 0 ? -h : h), -1});
    }
    return anchors;
  }
  if (f.width > 16) {
    throw std::invalid_argument(std::string(f.name) + " has no finite anchor table");
  }
  std::vector<Dyadic> values;
  for (Word code = 0; code < (Word{1} << f.width); ++code) {
    const auto d = oracle::TileNumericFiniteDecomposition(dst, code);
    if (d.available && !d.negative) values.push_back({false, d.significand, d.exponent});
  }
  // Codes of the usual formats come in increasing value already (no sort then).
  if (!std::is_sorted(values.begin(), values.end(), Below)) {
    std::stable_sort(values.begin(), values.end(), Below);
  }
  values.erase(
      std::unique(values.begin(), values.end(),
                  [](const Dyadic& a, const Dyadic& b) { return !Below(a, b) && !Below(b, a); }),
      values.end());
  for (std::size_t i = 0; i < values.size(); ++i) {
    anchors.push_back(values[i]);
    if (i + 1 < values.size()) {  // the midpoint (a + b) / 2
      const Aligned x = Align(values[i], values[i + 1]);
      anchors.push_back({false, x.a + x.b, x.e - 1});
    }
  }
  // Overflow: the largest finite plus half its ulp (the nearest-mode threshold) and one ulp,
  // (3 max - previous) / 2 and 2 max - previous.
  const Aligned x = Align(values.back(), values[values.size() - 2]);
  anchors.push_back({false, 3 * x.a - x.b, x.e - 1});
  anchors.push_back({false, 2 * x.a - x.b, x.e});
  return anchors;
}

WordSet Fp32AroundAnchors(const std::vector<oracle::Dyadic>& anchors, int max_steps,
                          bool signed_anchors) {
  std::vector<WordSet::Interval> words;
  for (const Dyadic& a : anchors) {
    const auto [lo, hi] = Fp32Bracket(a);
    AppendFp32OrdinalRange(Fp32Ordinal(lo) - max_steps, Fp32Ordinal(hi) + max_steps, words);
  }
  const WordSet set = WordSet::Of(std::move(words));
  return signed_anchors ? WithBothSigns(set) : set;
}

WordSet S32AroundAnchors(const std::vector<oracle::Dyadic>& anchors, int max_steps,
                         bool signed_anchors) {
  std::vector<WordSet::Interval> words;
  bool any = false;
  for (const Dyadic& a : anchors) {
    // floor(a), when it is within INT32_MIN - 1 .. INT32_MAX (|a| < 2^40 at least).
    if (a.significand != 0 && Leading(a) >= 40) continue;
    I128 magnitude_floor = 0;
    bool fraction = false;
    if (a.exponent >= 0) {
      magnitude_floor = static_cast<I128>(a.significand << a.exponent);
    } else if (a.exponent > -128) {
      magnitude_floor = static_cast<I128>(a.significand >> -a.exponent);
      fraction = (a.significand & ((U128{1} << -a.exponent) - 1)) != 0;
    } else {
      fraction = a.significand != 0;
    }
    const I128 f = a.negative ? -magnitude_floor - (fraction ? 1 : 0) : magnitude_floor;
    if (f < I128{INT32_MIN} - 1 || f > INT32_MAX) continue;
    any = true;
    const auto v = static_cast<std::int64_t>(f);
    std::vector<std::pair<std::int64_t, std::int64_t>> ranges = {
        {v - max_steps, v + max_steps + 1}};
    if (signed_anchors) ranges.emplace_back(-(v + max_steps + 1), -(v - max_steps));
    for (const auto& [a_lo, a_hi] : ranges) {
      const WordSet near = S32Range(a_lo, a_hi);
      words.insert(words.end(), near.intervals().begin(), near.intervals().end());
    }
  }
  if (!any) throw std::invalid_argument("S32AroundAnchors: no anchor in S32 range");
  return WordSet::Of(std::move(words));
}

std::optional<std::string> CheckOffsetAndWidth(Word offset_word, Word width) {
  if (width != 0 && width != 5 && width != 9 && width != 17) {
    return "width " + HexWord(width, TileDataType::U8) + " (" + std::to_string(width) +
           ") is not an intermediate width; accepted: 0x00, 0x05, 0x09 or 0x11 (0, 5, 9 or 17)";
  }
  const auto offset = static_cast<std::int64_t>(static_cast<std::int32_t>(offset_word));
  const std::string offset_text =
      "offset " + HexWord(offset_word, TileDataType::S32) + " (" + std::to_string(offset) + ")";
  if (width == 0) {
    if (offset == 0) return std::nullopt;
    return offset_text +
           " must be 0 at width 0 (a width-0 B.FPATR parameter word has no offset field)";
  }
  const std::int64_t lo = -(std::int64_t{1} << (width - 1));
  const std::int64_t hi = (std::int64_t{1} << (width - 1)) - 1;
  if (offset >= lo && offset <= hi) return std::nullopt;
  return offset_text + " is outside the signed range of width " + std::to_string(width) + " (" +
         std::to_string(lo) + ".." + std::to_string(hi) + ": " +
         HexWord(static_cast<std::uint32_t>(static_cast<std::int32_t>(lo)), TileDataType::S32) +
         ".." + HexWord(static_cast<std::uint32_t>(hi), TileDataType::S32) + ")";
}

Boxes WithOffsetAndWidth(const WordSet& first, bool edges_only) {
  std::vector<Box> boxes;
  const auto s32 = [](std::int64_t v) {
    return static_cast<Word>(static_cast<std::uint32_t>(static_cast<std::int32_t>(v)));
  };
  for (const Word width : {Word{0}, Word{5}, Word{9}, Word{17}}) {
    WordSet offsets = WordSet::Points({0});
    if (width != 0) {
      const std::int64_t lo = -(std::int64_t{1} << (width - 1));
      const std::int64_t hi = (std::int64_t{1} << (width - 1)) - 1;
      offsets = edges_only ? WordSet::Points({s32(lo), s32(lo + 1), s32(-1), s32(0), s32(hi)})
                           : S32Range(lo, hi);
    }
    boxes.push_back(Box{{first, offsets, WordSet::Points({width})}});
  }
  return Boxes(std::move(boxes));
}

// ---- The whole input space of an op, with RapidCheck shrinking ----

namespace {

// Every value of a RapidCheck sequence, in order.
template <typename T>
std::vector<T> Drain(rc::Seq<T> seq) {
  std::vector<T> out;
  while (auto v = seq.next()) out.push_back(std::move(*v));
  return out;
}

}  // namespace

std::vector<Word> ShrinkWord(TileDataType type, Word word) {
  const oracle::FormatInfo& f = oracle::Format(type);
  const unsigned width = f.width;
  std::vector<Word> out;
  const auto add = [&out, word](Word w) {
    if (w != word && std::find(out.begin(), out.end(), w) == out.end()) out.push_back(w);
  };
  if (f.kind == oracle::FormatKind::SignedInteger) {
    const auto value = static_cast<std::int64_t>(oracle::SignExtend(word, width));
    for (const std::int64_t& v : Drain(rc::shrink::integral(value))) {
      add(oracle::LowBits(static_cast<Word>(v), width));
    }
  } else if (f.SignBit() == 0) {  // unsigned integers, E8M0
    for (const Word& v : Drain(rc::shrink::towards<Word>(word, 0))) add(v);
    for (unsigned bit = width; bit-- > 0;) {
      if ((word >> bit) & 1) add(word & ~(Word{1} << bit));
    }
  } else {  // sign-magnitude floating types
    const Word sign = word & f.SignBit();
    const Word magnitude = word & oracle::LowBits(~Word{0}, width - 1);
    add(0);
    if (sign != 0) add(magnitude);
    for (const Word& m : Drain(rc::shrink::towards<Word>(magnitude, 0))) {
      add(sign | m);
    }
    // One set bit of the magnitude cleared, from the top: keeps the low bits that make a tie
    // or an edge while the rest simplifies.
    for (unsigned bit = width - 1; bit-- > 0;) {
      if ((magnitude >> bit) & 1) add(sign | (magnitude & ~(Word{1} << bit)));
    }
    if (f.HasSignExponentFraction()) {  // the exponent and the fraction fields, each on its own
      const unsigned fraction_bits = f.fraction_bits;
      const Word fraction_mask = oracle::LowBits(~Word{0}, fraction_bits);
      const Word exponent = magnitude >> fraction_bits;
      const Word fraction = magnitude & fraction_mask;
      for (const Word& e : Drain(rc::shrink::towards<Word>(exponent, 0))) {
        add(sign | (e << fraction_bits) | fraction);
      }
      for (const Word& m : Drain(rc::shrink::towards<Word>(fraction, 0))) {
        add(sign | (exponent << fraction_bits) | m);
      }
    }
  }
  return out;
}

rc::Seq<Inputs> ShrinkInputs(const OpDef& op, TypePair pair, const Inputs& in) {
  std::vector<Inputs> out;
  for (std::size_t i = 0; i < op.slots.size(); ++i) {
    for (Word w : ShrinkWord(op.slots[i].TypeFor(pair), in[i])) {
      Inputs candidate = in;
      candidate[i] = w;
      if (!op.check_domain(pair, candidate)) out.push_back(candidate);
    }
  }
  return rc::seq::fromContainer(std::move(out));
}

rc::Shrinkable<Inputs> ShrinkableInputs(const OpDef& op, TypePair pair, const Inputs& in) {
  const OpDef* op_ptr = &op;
  return rc::shrinkable::shrinkRecur(
      in, [op_ptr, pair](const Inputs& x) { return ShrinkInputs(*op_ptr, pair, x); });
}

std::vector<Word> InterestingCodes(TileDataType type) {
  const oracle::FormatInfo& f = oracle::Format(type);
  if (f.width > 16) {
    throw std::invalid_argument("InterestingCodes: " + std::string(f.name) +
                                " is wider than 16 bits");
  }
  const Word count = Word{1} << f.width;
  std::vector<Word> out;
  if (!f.IsFloating()) {
    const Word all_ones = count - 1;
    const bool is_signed = f.kind == oracle::FormatKind::SignedInteger;
    const Word largest = is_signed ? all_ones >> 1 : all_ones;
    const Word smallest = is_signed ? largest + 1 : 0;
    for (Word w : {Word{0}, Word{1}, largest, smallest, all_ones}) {
      if (std::find(out.begin(), out.end(), w) == out.end()) out.push_back(w);
    }
    std::sort(out.begin(), out.end());
    return out;
  }
  Word one = count;                                                                     // none
  if (f.HasSignExponentFraction()) one = static_cast<Word>(f.bias) << f.fraction_bits;  // 1.0
  for (Word w = 0; w < count; ++w) {
    const auto c = oracle::TileNumericValueClass(type, w);
    const bool first = w == 0 || oracle::TileNumericValueClass(type, w - 1) != c;
    const bool last = w + 1 == count || oracle::TileNumericValueClass(type, w + 1) != c;
    const bool is_one = one != count && (w & (count / 2 - 1)) == one;
    if (first || last || is_one) out.push_back(w);
  }
  return out;
}

rc::Gen<Inputs> UniformDomain(const OpDef& op, TypePair pair) {
  const OpDef* op_ptr = &op;
  return rc::Gen<Inputs>([op_ptr, pair](const rc::Random& random, int) {
    rc::Random r = random;
    for (int attempt = 0; attempt < 10000; ++attempt) {
      Inputs in{};
      for (std::size_t i = 0; i < op_ptr->slots.size(); ++i) {
        in[i] = oracle::LowBits(r.next(), oracle::Format(op_ptr->slots[i].TypeFor(pair)).width);
      }
      if (!op_ptr->check_domain(pair, in)) return rc::shrinkable::just(in);
    }
    throw rc::GenerationFailure("uniform: no tuple of " + op_ptr->name +
                                " in its domain after 10000 draws");
  });
}

rc::Gen<std::pair<std::uint32_t, std::uint32_t>> UniformOffsetAndWidth() {
  return rc::gen::apply(
      [](int width_index, std::uint64_t random) {
        const int width = std::array{0, 5, 9, 17}[static_cast<std::size_t>(width_index)];
        if (width == 0) return std::pair<std::uint32_t, std::uint32_t>{0, 0};
        const std::int64_t lo = -(std::int64_t{1} << (width - 1));
        const std::int64_t offset =
            lo + static_cast<std::int64_t>(random % (std::uint64_t{1} << width));
        return std::pair<std::uint32_t, std::uint32_t>{
            static_cast<std::uint32_t>(static_cast<std::int32_t>(offset)),
            static_cast<std::uint32_t>(width)};
      },
      rc::gen::inRange(0, 4), rc::gen::inRange<std::uint64_t>(0, std::uint64_t{1} << 32));
}

rc::Gen<Inputs> InputSpace(const OpDef& op, TypePair pair, std::vector<Strategy> strategies,
                           std::optional<rc::Gen<Inputs>> uniform) {
  const rc::Gen<Inputs> uniform_gen = uniform ? *uniform : UniformDomain(op, pair);
  if (strategies.empty()) {
    strategies.push_back({"uniform_codes", 3, uniform_gen});
    if (op.slots.size() == 1 && oracle::Format(pair.src).width <= 16) {
      std::vector<Word> codes = InterestingCodes(pair.src);
      std::vector<Inputs> tuples;
      for (Word w : codes) {
        const Inputs in{w, 0, 0, 0};
        if (!op.check_domain(pair, in)) tuples.push_back(in);
      }
      if (!tuples.empty()) {
        strategies.push_back({"interesting_codes", 1, rc::gen::elementOf(std::move(tuples))});
      }
    }
  } else {
    int total = 0;
    for (const Strategy& s : strategies) total += s.weight;
    strategies.push_back({"uniform", std::max(1, total / 3), uniform_gen});
  }
  int total = 0;
  for (const Strategy& s : strategies) total += s.weight;
  auto shared = std::make_shared<const std::vector<Strategy>>(std::move(strategies));
  const rc::Gen<Inputs> mix = rc::gen::mapcat(rc::gen::inRange(0, total), [shared](int ticket) {
    for (const Strategy& s : *shared) {
      if (ticket < s.weight) return s.gen;
      ticket -= s.weight;
    }
    return shared->back().gen;
  });
  const OpDef* op_ptr = &op;
  return rc::Gen<Inputs>([op_ptr, pair, mix](const rc::Random& random, int size) {
    rc::Random r = random;
    for (int attempt = 0; attempt < 1000; ++attempt) {
      const Inputs in = mix(r.split(), size).value();
      if (!op_ptr->check_domain(pair, in)) return ShrinkableInputs(*op_ptr, pair, in);
    }
    throw rc::GenerationFailure("input space of " + op_ptr->name +
                                ": no tuple in its domain after 1000 draws");
  });
}

}  // namespace ptovec::generator
