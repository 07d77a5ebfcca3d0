#include "ptovec/generator/domains.hpp"

#include <boost/multiprecision/cpp_int.hpp>

#include <algorithm>
#include <array>
#include <memory>
#include <stdexcept>

#include "ptovec/oracle/fast.hpp"
#include "ptovec/generator/writers.hpp"
#include "ptovec/oracle/numeric.hpp"
#include "ptovec/oracle/reference_quantization.hpp"
#include <unordered_set>

namespace ptovec::generator {

namespace {

struct InputsHash {
  std::size_t operator()(const Inputs& in) const {
    std::uint64_t h = 0x9E3779B97F4A7C15ULL;
    for (Word w : in) {
      h ^= w + 0x9E3779B97F4A7C15ULL + (h << 6) + (h >> 2);
    }
    return static_cast<std::size_t>(h);
  }
};

// Applies a signed ulp offset to a non-negative FP32 magnitude pattern, staying inside
// 0 .. 0x7F800000 (so a step never wraps into the other sign or past +Inf).
std::uint32_t Step(std::uint32_t magnitude, int delta) {
  const std::int64_t moved = static_cast<std::int64_t>(magnitude) + delta;
  if (moved < 0) return 0;
  if (moved > 0x7F800000) return 0x7F800000;
  return static_cast<std::uint32_t>(moved);
}

rc::Gen<std::uint32_t> WithSign(rc::Gen<std::uint32_t> magnitude, bool positive_only) {
  if (positive_only) return magnitude;
  return rc::gen::apply(
      [](std::uint32_t m, int negative_weight) {
        return negative_weight == 0 ? (m | 0x80000000U) : m;  // 1 in 4 negative
      },
      magnitude, rc::gen::inRange(0, 4));
}

}  // namespace

std::vector<Inputs> SampleUnique(const std::vector<Strategy>& strategies, std::uint64_t seed,
                                 std::uint64_t count) {
  if (strategies.empty()) throw std::invalid_argument("SampleUnique: no strategies");
  // A weighted choice of strategy, then a draw from it (rc::gen::weightedOneOf takes only an
  // initializer list, so the same thing is built from inRange and mapcat).
  std::size_t total = 0;
  for (const Strategy& s : strategies) total += static_cast<std::size_t>(s.weight);
  const rc::Gen<Inputs> mix = rc::gen::mapcat(
      rc::gen::inRange<std::size_t>(0, total), [&strategies](std::size_t ticket) {
        for (const Strategy& s : strategies) {
          if (ticket < static_cast<std::size_t>(s.weight)) return s.gen;
          ticket -= static_cast<std::size_t>(s.weight);
        }
        return strategies.back().gen;
      });
  rc::Random random(seed);
  std::unordered_set<Inputs, InputsHash> seen;
  std::vector<Inputs> out;
  out.reserve(static_cast<std::size_t>(count));
  std::uint64_t attempts = 64 * count + 4096;
  while (out.size() < count && attempts-- > 0) {
    rc::Random draw = random.split();
    Inputs value = mix(draw, rc::kNominalSize).value();
    if (seen.insert(value).second) out.push_back(value);
  }
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

rc::Gen<Inputs> OneSlot(rc::Gen<std::uint32_t> word) {
  return rc::gen::map(std::move(word), [](std::uint32_t w) { return Inputs{w, 0, 0, 0}; });
}

std::uint64_t FloorSqrt2Scaled(int j) {
  if (j < 0 || j > 62) throw std::invalid_argument("FloorSqrt2Scaled: j outside 0..62");
  const boost::multiprecision::cpp_int square = boost::multiprecision::cpp_int(1) << (2 * j + 1);
  return static_cast<std::uint64_t>(boost::multiprecision::sqrt(square));
}

rc::Gen<std::uint32_t> Fp32Specials() {
  return rc::gen::element<std::uint32_t>(
      0x00000000U, 0x80000000U,                          // +0, -0
      0x7F800000U, 0xFF800000U,                          // +Inf, -Inf
      0x7FC00000U, 0xFFC00000U, 0x7FFFFFFFU,             // quiet NaNs
      0x7F800001U, 0xFF800001U, 0x7FBFFFFFU,             // signaling NaNs
      0x00000001U, 0x80000001U, 0x007FFFFFU, 0x807FFFFFU,  // subnormal ends
      0x00800000U, 0x80800000U, 0x7F7FFFFFU, 0xFF7FFFFFU,  // normal ends
      0x3F800000U, 0xBF800000U, 0x00400000U, 0x7F000000U);  // 1, -1, 2^-127, 2^127
}

rc::Gen<std::uint32_t> Fp32PowerOfTwoNeighbours(bool positive_only) {
  // Exponent fields 1..254 with fraction 0, or a subnormal power of two 2^-149..2^-127.
  const rc::Gen<std::uint32_t> power = rc::gen::weightedOneOf<std::uint32_t>({
      {4, rc::gen::map(rc::gen::inRange<std::uint32_t>(1, 255),
                       [](std::uint32_t e) { return e << 23; })},
      {1, rc::gen::map(rc::gen::inRange<std::uint32_t>(0, 23),
                       [](std::uint32_t bit) { return std::uint32_t{1} << bit; })},
  });
  const rc::Gen<std::uint32_t> moved = rc::gen::apply(
      [](std::uint32_t p, int delta) { return Step(p, delta); }, power, rc::gen::inRange(-4, 5));
  return WithSign(moved, positive_only);
}

rc::Gen<std::uint32_t> Fp32Sqrt2Boundaries(bool positive_only) {
  // k = -149..127; the FP32 value floor(sqrt(2) * 2^k) in FP32 resolution, then +/-4 ulps.
  const rc::Gen<std::uint32_t> nearest =
      rc::gen::map(rc::gen::inRange(-149, 128), [](int k) -> std::uint32_t {
        if (k >= -126) {
          const auto fraction =
              static_cast<std::uint32_t>(FloorSqrt2Scaled(23) - (std::uint64_t{1} << 23));
          return (static_cast<std::uint32_t>(k + 127) << 23) | fraction;
        }
        // Subnormal: sqrt(2) * 2^k = f * 2^-149 with f = sqrt(2) * 2^(k+149), k + 149 in 0..22.
        return static_cast<std::uint32_t>(FloorSqrt2Scaled(k + 149));
      });
  const rc::Gen<std::uint32_t> moved = rc::gen::apply(
      [](std::uint32_t p, int delta) { return Step(p, delta); }, nearest, rc::gen::inRange(-4, 5));
  return WithSign(moved, positive_only);
}

rc::Gen<std::uint32_t> Fp32SubnormalFloorEdge() {
  return rc::gen::oneOf(
      // highest set bit 20..22: floor exponent -129..-127
      rc::gen::inRange<std::uint32_t>(1U << 20, 1U << 23),
      // just around 2^-127 (0x00400000) and 2^-128 (0x00200000)
      rc::gen::map(rc::gen::inRange(-8, 9), [](int d) { return Step(0x00400000U, d); }),
      rc::gen::map(rc::gen::inRange(-8, 9), [](int d) { return Step(0x00200000U, d); }),
      // the smallest normals and the largest subnormals
      rc::gen::map(rc::gen::inRange(-8, 9), [](int d) { return Step(0x00800000U, d); }));
}

rc::Gen<std::uint32_t> Fp32TopBinades() {
  const auto sqrt2_fraction =
      static_cast<std::uint32_t>(FloorSqrt2Scaled(23) - (std::uint64_t{1} << 23));
  return rc::gen::apply(
      [sqrt2_fraction](int binade, int anchor, int delta) -> std::uint32_t {
        const std::uint32_t base = static_cast<std::uint32_t>(253 + binade) << 23;
        const std::uint32_t anchors[3] = {0, 0x7FFFFF, sqrt2_fraction};
        return Step(base | anchors[anchor], delta);
      },
      rc::gen::inRange(0, 2), rc::gen::inRange(0, 3), rc::gen::inRange(-4, 5));
}

rc::Gen<std::uint32_t> Fp32BinadeEnds() {
  return rc::gen::apply(
      [](std::uint32_t exponent, bool last, bool negative) {
        const std::uint32_t word = (exponent << 23) | (last ? 0x7FFFFFU : 0U);
        return negative ? (word | 0x80000000U) : word;
      },
      rc::gen::inRange<std::uint32_t>(0, 255), rc::gen::arbitrary<bool>(),
      rc::gen::arbitrary<bool>());
}

rc::Gen<std::uint32_t> Fp32UniformBits() {
  return rc::gen::map(rc::gen::inRange<std::uint64_t>(0, std::uint64_t{1} << 32),
                      [](std::uint64_t w) { return static_cast<std::uint32_t>(w); });
}

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

std::pair<std::uint32_t, std::uint32_t> Fp32Bracket(const oracle::Real& x) {
  // At and beyond 2^128 the seed's encoder gives Inf in every mode; the neighbours in value order
  // are the largest finite and Inf.
  const oracle::Real limit = oracle::PowerOfTwo(128);
  if (x >= limit) return {0x7F7FFFFFU, 0x7F800000U};
  if (x <= -limit) return {0xFF800000U, 0xFF7FFFFFU};
  const auto d = oracle::DyadicFromReal(x);
  if (!d) throw std::invalid_argument("Fp32Bracket: the anchor is not a dyadic rational");
  const auto lo = static_cast<std::uint32_t>(
      oracle::FastFP32FiniteEncoding(*d, NumericRoundingMode::RTM).word);
  const auto hi = static_cast<std::uint32_t>(
      oracle::FastFP32FiniteEncoding(*d, NumericRoundingMode::RTP).word);
  return {lo, hi};
}

std::vector<oracle::Real> DestinationAnchors(TileDataType dst) {
  using oracle::Real;
  const oracle::FormatInfo& f = oracle::Format(dst);
  std::vector<Real> anchors;
  if (!f.IsFloating()) {
    const oracle::Integer lo = oracle::ReferenceIntegerValue(oracle::TileIntegerMinimum(dst), dst);
    const oracle::Integer hi = oracle::ReferenceIntegerValue(oracle::TileIntegerMaximum(dst), dst);
    const Real half(1, 2);
    for (const oracle::Integer& edge : {lo, hi, oracle::Integer(0)}) {
      for (int k = -2; k <= 2; ++k) {
        anchors.push_back(Real(edge + k));
        anchors.push_back(Real(edge + k) + half);
      }
    }
    std::sort(anchors.begin(), anchors.end());
    anchors.erase(std::unique(anchors.begin(), anchors.end()), anchors.end());
    return anchors;
  }
  if (f.width > 16) {
    throw std::invalid_argument(std::string(f.name) + " has no finite anchor table");
  }
  std::vector<Real> values;
  for (Word code = 0; code < (Word{1} << f.width); ++code) {
    const auto d = oracle::TileNumericFiniteDecomposition(dst, code);
    if (d.available && !d.negative) values.push_back(oracle::TileNumericFiniteValue(dst, code));
  }
  std::sort(values.begin(), values.end());
  values.erase(std::unique(values.begin(), values.end()), values.end());
  for (std::size_t i = 0; i < values.size(); ++i) {
    anchors.push_back(values[i]);
    if (i + 1 < values.size()) anchors.push_back((values[i] + values[i + 1]) / 2);
  }
  // Overflow: the largest finite plus half its ulp (the nearest-mode threshold) and one ulp.
  const Real max = values.back();
  const Real ulp = max - values[values.size() - 2];
  anchors.push_back(max + ulp / 2);
  anchors.push_back(max + ulp);
  return anchors;
}

rc::Gen<std::uint32_t> Fp32AroundAnchors(const std::vector<oracle::Real>& anchors, int max_steps,
                                         bool signed_anchors) {
  auto brackets = std::make_shared<std::vector<std::pair<std::uint32_t, std::uint32_t>>>();
  for (const oracle::Real& a : anchors) brackets->push_back(Fp32Bracket(a));
  return rc::gen::apply(
      [brackets, signed_anchors](std::size_t index, bool upper, int steps, bool negative) {
        const auto [lo, hi] = (*brackets)[index];
        std::uint32_t word = Fp32Step(upper ? hi : lo, steps);
        if (signed_anchors && negative) word ^= 0x80000000U;
        return word;
      },
      rc::gen::inRange<std::size_t>(0, brackets->size()), rc::gen::arbitrary<bool>(),
      rc::gen::inRange(-max_steps, max_steps + 1), rc::gen::arbitrary<bool>());
}

rc::Gen<std::uint32_t> S32AroundAnchors(const std::vector<oracle::Real>& anchors, int max_steps,
                                        bool signed_anchors) {
  auto floors = std::make_shared<std::vector<std::int64_t>>();
  const oracle::Integer lo = INT32_MIN;
  const oracle::Integer hi = INT32_MAX;
  for (const oracle::Real& a : anchors) {
    const oracle::Integer f = oracle::RoundDown(a);
    if (f >= lo - 1 && f <= hi) floors->push_back(static_cast<std::int64_t>(f));
  }
  if (floors->empty()) throw std::invalid_argument("S32AroundAnchors: no anchor in S32 range");
  return rc::gen::apply(
      [floors, signed_anchors](std::size_t index, int steps, bool negative) {
        std::int64_t v = (*floors)[index] + steps;
        if (signed_anchors && negative) v = -v;
        v = std::clamp<std::int64_t>(v, INT32_MIN, INT32_MAX);
        return static_cast<std::uint32_t>(static_cast<std::int32_t>(v));
      },
      rc::gen::inRange<std::size_t>(0, floors->size()),
      rc::gen::inRange(-max_steps, max_steps + 2), rc::gen::arbitrary<bool>());
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

// ---- The whole input space of an op, with RapidCheck shrinking ----

namespace {

// Exponent and fraction field widths of the floating types whose words split into sign,
// exponent and fraction (HiF8's tapered layout does not); {0, 0} for the others.
template <typename T>
std::vector<T> Drain(rc::Seq<T> seq) {
  std::vector<T> out;
  while (auto v = seq.next()) out.push_back(std::move(*v));
  return out;
}

std::pair<unsigned, unsigned> ExponentAndFractionBits(const oracle::FormatInfo& f) {
  if (f.kind == oracle::FormatKind::Binary) return {f.exponent_bits, f.fraction_bits};
  if (f.kind == oracle::FormatKind::E4M3) return {4, 3};
  return {0, 0};
}

}  // namespace

std::vector<Word> ShrinkWord(TileDataType type, Word word) {
  const oracle::FormatInfo& f = oracle::Format(type);
  const unsigned width = f.width;
  std::vector<Word> out;
  const auto add = [&out, word](Word w) {
    if (w != word && std::find(out.begin(), out.end(), w) == out.end()) out.push_back(w);
  };
  switch (f.kind) {
    case oracle::FormatKind::SignedInteger: {
      const auto value = static_cast<std::int64_t>(oracle::SignExtend(word, width));
      for (const std::int64_t& v : Drain(rc::shrink::integral(value))) {
        add(oracle::LowBits(static_cast<Word>(v), width));
      }
      break;
    }
    case oracle::FormatKind::UnsignedInteger:
    case oracle::FormatKind::E8M0:
      for (const Word& v : Drain(rc::shrink::towards<Word>(word, 0))) add(v);
      for (unsigned bit = width; bit-- > 0;) {
        if ((word >> bit) & 1) add(word & ~(Word{1} << bit));
      }
      break;
    default: {  // sign-magnitude floating types
      const Word sign = word & (Word{1} << (width - 1));
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
      const auto [exponent_bits, fraction_bits] = ExponentAndFractionBits(f);
      if (exponent_bits != 0) {
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
      break;
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
  const auto [exponent_bits, fraction_bits] = ExponentAndFractionBits(f);
  Word one = count;  // none
  if (exponent_bits != 0) {
    one = static_cast<Word>((Word{1} << (exponent_bits - 1)) - 1) << fraction_bits;  // bias << f
  }
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
  const rc::Gen<Inputs> mix = rc::gen::mapcat(
      rc::gen::inRange(0, total), [shared](int ticket) {
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
