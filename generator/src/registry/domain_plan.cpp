// The domain plan (domains.hpp DomainPlan) and the registry functions derived from it.
#include <cstdint>
#include <stdexcept>
#include <utility>

#include "ptovec/generator/domains.hpp"
#include "ptovec/generator/sampler.hpp"
#include "ptovec/generator/tuple_set.hpp"

namespace ptovec::generator {

DomainPlan DomainPlan::Exhaustive(std::function<bool(Word)> keep) {
  DomainPlan plan;
  plan.kind = Kind::Exhaustive;
  plan.keep = std::move(keep);
  return plan;
}

DomainPlan DomainPlan::Sampled(std::vector<SampleStrategy> strategies,
                               std::function<rc::Gen<Inputs>()> uniform) {
  DomainPlan plan;
  plan.kind = Kind::Sampled;
  plan.strategies = std::move(strategies);
  plan.uniform = std::move(uniform);
  return plan;
}

DomainPlan DomainPlan::Custom(
    std::function<InputSet(const OpDef&, TypePair, const SamplingOptions&)> build,
    std::function<std::vector<Strategy>()> space) {
  DomainPlan plan;
  plan.kind = Kind::Custom;
  plan.build = std::move(build);
  plan.space = std::move(space);
  return plan;
}

namespace {

// The number of codes of an exhaustive plan: every code of the source type `keep` accepts.
std::uint64_t ExhaustiveCount(TileDataType type, const std::function<bool(Word)>& keep) {
  const unsigned width = oracle::Format(type).width;
  if (!keep) return std::uint64_t{1} << width;
  std::uint64_t n = 0;
  for (Word code = 0; code < (Word{1} << width); ++code) n += keep(code) ? 1 : 0;
  return n;
}

// Whether the strategies together hold fewer than `samples` tuples (the sum of their sets'
// sizes bounds the union): then SampledSet takes them all and stops short of `samples`.
bool HoldsFewer(const std::vector<SampleStrategy>& strategies, std::uint64_t samples) {
  Index total = 0;
  for (const SampleStrategy& s : strategies) {
    for (const WeightedSet& part : s.parts) total += part.set.size();
  }
  return total < Index{samples};
}

}  // namespace

void DeriveFromPlan(OpDef& op) {
  if (!op.plan) throw std::logic_error("op " + op.name + " declares no domain plan");
  const OpDef* self = &op;
  op.domain = [self](TypePair pair, const SamplingOptions& options) -> InputSet {
    DomainPlan plan = self->plan(pair);
    switch (plan.kind) {
      case DomainPlan::Kind::Exhaustive:
        return ExhaustiveCodes(self->slots.front().TypeFor(pair), plan.keep);
      case DomainPlan::Kind::Sampled:
        return SampledSet(std::move(plan.strategies), DerivedSeed(options.seed, *self, pair),
                          options.samples);
      case DomainPlan::Kind::Custom:
        return plan.build(*self, pair, options);
    }
    throw std::logic_error("unknown domain plan kind");
  };
  op.domain_count = [self](TypePair pair, const SamplingOptions& options) -> std::uint64_t {
    const DomainPlan plan = self->plan(pair);
    switch (plan.kind) {
      case DomainPlan::Kind::Exhaustive:
        return ExhaustiveCount(self->slots.front().TypeFor(pair), plan.keep);
      case DomainPlan::Kind::Sampled:
        // SampledSet reaches --samples unless the strategies hold fewer (a finite plan, e.g.
        // 2026-09's TCVT between wide integer types): then it is built (small) and counted.
        if (!HoldsFewer(plan.strategies, options.samples)) return options.samples;
        return SampledSet(std::move(plan.strategies), DerivedSeed(options.seed, *self, pair),
                          options.samples)
            .count;
      case DomainPlan::Kind::Custom:
        return plan.build(*self, pair, options).count;
    }
    throw std::logic_error("unknown domain plan kind");
  };
  op.strategies = [self](TypePair pair) -> std::vector<SampleStrategy> {
    DomainPlan plan = self->plan(pair);
    if (plan.kind != DomainPlan::Kind::Sampled) return {};
    return std::move(plan.strategies);
  };
  op.input_space = [self](TypePair pair) -> rc::Gen<Inputs> {
    const DomainPlan plan = self->plan(pair);
    switch (plan.kind) {
      case DomainPlan::Kind::Exhaustive:
        return InputSpace(*self, pair, {});
      case DomainPlan::Kind::Sampled:
        if (plan.uniform)
          return InputSpace(*self, pair, StrategyGens(plan.strategies), plan.uniform());
        return InputSpace(*self, pair, StrategyGens(plan.strategies));
      case DomainPlan::Kind::Custom:
        if (plan.uniform) return InputSpace(*self, pair, plan.space(), plan.uniform());
        return InputSpace(*self, pair, plan.space());
    }
    throw std::logic_error("unknown domain plan kind");
  };
}

}  // namespace ptovec::generator
