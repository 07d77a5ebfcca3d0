// Literal seed functions versus their fast exact paths (oracle/include/ptovec/oracle/fast.hpp).
// Every pair runs on the same precomputed inputs (the literal form gets the exact Real, the fast
// form the Dyadic of the same value); one iteration is one call. Compare the pairs' times per
// iteration: Literal<X> / Fast<X> is the speed-up.
#include <benchmark/benchmark.h>

#include <cstdint>
#include <vector>

#include "ptovec/oracle/e8m0_conversion.hpp"
#include "ptovec/oracle/fast.hpp"
#include "ptovec/oracle/fast_e8m0_conversion.hpp"
#include "ptovec/oracle/matrix_quantization.hpp"
#include "ptovec/oracle/reference_quantization.hpp"

namespace {

using namespace ptovec::oracle;

// A fixed xorshift stream: the same inputs on every run.
struct Stream {
  std::uint64_t state = 0x9E3779B97F4A7C15ull;
  std::uint64_t Next() {
    state ^= state << 13;
    state ^= state >> 7;
    state ^= state << 17;
    return state;
  }
};

constexpr std::size_t kInputs = 512;

struct RealInputs {
  std::vector<Real> reals;
  std::vector<Dyadic> dyadics;
};

// FP32 words with exponent fields in [lo, hi], any sign and fraction.
Word RandomFP32(Stream& s, Word lo, Word hi) {
  const Word r = s.Next();
  const Word exponent = lo + (r >> 40) % (hi - lo + 1);
  return ((r & 1) << 31) | (exponent << 23) | ((r >> 8) & 0x7FFFFF);
}

// Products of two FP32 values (48-bit significands, rounding needed), spanning normal,
// subnormal and overflowing FP32 results.
const RealInputs& FP32Products() {
  static const RealInputs inputs = [] {
    RealInputs in;
    Stream s;
    for (std::size_t i = 0; i < kInputs; ++i) {
      const Dyadic d =
          DyadicProduct(DyadicFromFiniteCode(TileDataType::FP32, RandomFP32(s, 1, 254)),
                        DyadicFromFiniteCode(TileDataType::FP32, RandomFP32(s, 64, 190)));
      in.dyadics.push_back(d);
      in.reals.push_back(ToReal(d));
    }
    return in;
  }();
  return inputs;
}

// Finite codes of a 16-bit format, evenly spread over the code space.
const RealInputs& Codes16(TileDataType type) {
  static std::vector<std::pair<TileDataType, RealInputs>> cache;
  for (const auto& [t, in] : cache) {
    if (t == type) return in;
  }
  RealInputs in;
  for (Word code = 0; in.dyadics.size() < kInputs && code < 0x10000; code += 97) {
    if (!TileNumericFiniteDecomposition(type, code).available) continue;
    const Dyadic d = DyadicFromFiniteCode(type, code);
    in.dyadics.push_back(d);
    in.reals.push_back(ToReal(d));
  }
  cache.emplace_back(type, std::move(in));
  return cache.back().second;
}

// FP32 values of magnitude below 2^9 (the interesting part of S8 encoding) and a few beyond.
const RealInputs& FP32Small() {
  static const RealInputs inputs = [] {
    RealInputs in;
    Stream s;
    for (std::size_t i = 0; i < kInputs; ++i) {
      const Word w = RandomFP32(s, 110, 135);
      const Dyadic d = DyadicFromFiniteCode(TileDataType::FP32, w);
      in.dyadics.push_back(d);
      in.reals.push_back(ToReal(d));
    }
    return in;
  }();
  return inputs;
}

struct DequantInput {
  Word value, scale, zero_point;
  TileDataType source;
  NumericRoundingMode mode;
};

const std::vector<DequantInput>& DequantInputs() {
  static const std::vector<DequantInput> inputs = [] {
    std::vector<DequantInput> in;
    Stream s;
    for (std::size_t i = 0; i < kInputs; ++i) {
      const Word r = s.Next();
      in.push_back({r & 0xFF, RandomFP32(s, 0, 254) & 0x7FFFFFFF, (r >> 8) & 0xFF,
                    (r >> 16) & 1 ? TileDataType::S8 : TileDataType::U8,
                    kAllRoundingModes[(r >> 20) % 7]});
    }
    for (auto& x : in) {
      if ((x.scale & 0x7FFFFFFF) == 0) x.scale = 1;  // the seed asserts a non-zero scale
    }
    return in;
  }();
  return inputs;
}

constexpr NumericExecutionControl kRNE{NumericRoundingMode::RNE, false};

// FP32 words for TCVT to E8M0: 7 in 8 positive finite (normal and subnormal, any fraction), the
// rest any word (negative, NaN, Inf included); each with one of the 14 controls.
struct E8M0Input {
  Word word;
  NumericExecutionControl control;
};

const std::vector<E8M0Input>& E8M0Inputs() {
  static const std::vector<E8M0Input> inputs = [] {
    std::vector<E8M0Input> in;
    Stream s;
    for (std::size_t i = 0; i < kInputs; ++i) {
      const Word r = s.Next();
      const Word word = (r & 7) != 0 ? RandomFP32(s, 0, 254) & 0x7FFFFFFF : (r >> 32);
      in.push_back({word, {kAllRoundingModes[(r >> 3) % 7], ((r >> 6) & 1) != 0}});
    }
    return in;
  }();
  return inputs;
}

template <typename F>
void Loop(benchmark::State& state, std::size_t n, F f) {
  std::size_t i = 0;
  for (auto _ : state) {
    benchmark::DoNotOptimize(f(i));
    i = i + 1 == n ? 0 : i + 1;
  }
}

void LiteralFP32Encoding(benchmark::State& state) {
  const auto& in = FP32Products();
  Loop(state, kInputs, [&](std::size_t i) {
    return ReferenceFP32FiniteEncoding(in.reals[i], kAllRoundingModes[i % 7]);
  });
}
void FastFP32Encoding(benchmark::State& state) {
  const auto& in = FP32Products();
  Loop(state, kInputs, [&](std::size_t i) {
    return FastFP32FiniteEncoding(in.dyadics[i], kAllRoundingModes[i % 7]);
  });
}

void LiteralTDEQUANT(benchmark::State& state) {
  const auto& in = DequantInputs();
  Loop(state, in.size(), [&](std::size_t i) {
    const auto& x = in[i];
    return TileProfileDequantize(x.value, x.scale, x.zero_point, x.source, TileDataType::FP32,
                                 {x.mode, false});
  });
}
void FastTDEQUANT(benchmark::State& state) {
  const auto& in = DequantInputs();
  Loop(state, in.size(), [&](std::size_t i) {
    const auto& x = in[i];
    return FastTileProfileDequantize(x.value, x.scale, x.zero_point, x.source, TileDataType::FP32,
                                     {x.mode, false});
  });
}

template <TileDataType Source, TileDataType Destination>
void LiteralFloating(benchmark::State& state) {
  const auto& in = Codes16(Source);
  Loop(state, in.reals.size(), [&](std::size_t i) {
    return ReferenceMatrixFloatingEncoding(in.reals[i], Destination, kRNE);
  });
}
template <TileDataType Source, TileDataType Destination>
void FastFloating(benchmark::State& state) {
  const auto& in = Codes16(Source);
  Loop(state, in.dyadics.size(),
       [&](std::size_t i) { return FastMatrixFloatingEncoding(in.dyadics[i], Destination, kRNE); });
}

void LiteralFP32ToS8(benchmark::State& state) {
  const auto& in = FP32Small();
  Loop(state, kInputs, [&](std::size_t i) {
    return ReferenceMatrixIntegerEncoding(in.reals[i], TileDataType::S8,
                                          {kAllRoundingModes[i % 7], (i & 8) != 0});
  });
}
void FastFP32ToS8(benchmark::State& state) {
  const auto& in = FP32Small();
  Loop(state, kInputs, [&](std::size_t i) {
    return FastMatrixIntegerEncoding(in.dyadics[i], TileDataType::S8,
                                     {kAllRoundingModes[i % 7], (i & 8) != 0});
  });
}

void LiteralFP32ToE8M0(benchmark::State& state) {
  const auto& in = E8M0Inputs();
  Loop(state, in.size(), [&](std::size_t i) {
    return ReferenceFloatToE8M0(in[i].word, TileDataType::FP32, in[i].control);
  });
}
void FastFP32ToE8M0(benchmark::State& state) {
  const auto& in = E8M0Inputs();
  Loop(state, in.size(), [&](std::size_t i) {
    return FastFloatToE8M0(in[i].word, TileDataType::FP32, in[i].control);
  });
}

constexpr auto FP16 = TileDataType::FP16;
constexpr auto E4M3 = TileDataType::E4M3;
constexpr auto HiF8 = TileDataType::HiF8;
constexpr auto BF16 = TileDataType::BF16;

}  // namespace

BENCHMARK(LiteralFP32Encoding);
BENCHMARK(FastFP32Encoding);
BENCHMARK(LiteralTDEQUANT);
BENCHMARK(FastTDEQUANT);
BENCHMARK(LiteralFloating<FP16, E4M3>)->Name("LiteralFP16ToE4M3");
BENCHMARK(FastFloating<FP16, E4M3>)->Name("FastFP16ToE4M3");
BENCHMARK(LiteralFloating<FP16, HiF8>)->Name("LiteralFP16ToHiF8");
BENCHMARK(FastFloating<FP16, HiF8>)->Name("FastFP16ToHiF8");
BENCHMARK(LiteralFloating<FP16, BF16>)->Name("LiteralFP16ToBF16");
BENCHMARK(FastFloating<FP16, BF16>)->Name("FastFP16ToBF16");
BENCHMARK(LiteralFP32ToS8);
BENCHMARK(FastFP32ToS8);
BENCHMARK(LiteralFP32ToE8M0);
BENCHMARK(FastFP32ToE8M0);

BENCHMARK_MAIN();
