#include "ptovec/generator/sampler.hpp"

#include <algorithm>
#include <atomic>
#include <numeric>
#include <stdexcept>

#include "ptovec/oracle/fast.hpp"

namespace ptovec::generator {

namespace {

std::uint64_t Mix(std::uint64_t z) {
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
  return z ^ (z >> 31);
}

// A number no other Sample of this process has (for the per-thread resume point of Fill).
std::uint64_t NextSerial() {
  static std::atomic<std::uint64_t> next{1};
  return next.fetch_add(1);
}

}  // namespace

// ---- IndexPermutation ----

IndexPermutation::IndexPermutation(Index n, std::uint64_t key) : n_(n) {
  const unsigned bits = n <= 1 ? 0 : static_cast<unsigned>(oracle::BitLength(n - 1));
  half_bits_ = (bits + 1) / 2;
  for (int r = 0; r < 4; ++r) {
    keys_[r] = Mix(key + 0x9E3779B97F4A7C15ULL * static_cast<std::uint64_t>(r + 1));
  }
}

Index IndexPermutation::Encrypt(Index x) const {
  // half_bits_ <= 64: each half fits a 64-bit word.
  const std::uint64_t mask =
      half_bits_ >= 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << half_bits_) - 1;
  auto left = static_cast<std::uint64_t>(x >> half_bits_);
  auto right = static_cast<std::uint64_t>(x) & mask;
  for (const std::uint64_t k : keys_) {
    const std::uint64_t next = left ^ (Mix(right ^ k) & mask);
    left = right;
    right = next;
  }
  return (static_cast<Index>(left) << half_bits_) | right;
}

Index IndexPermutation::operator()(Index i) const {
  if (half_bits_ == 0) return i;
  Index y = Encrypt(i);
  while (y >= n_) y = Encrypt(y);
  return y;
}

// ---- Sample ----

namespace {

// n split by weights: floor shares, the remainder one each to the largest fractional parts
// (earlier first on a tie).
std::vector<std::uint64_t> Share(std::uint64_t n, const std::vector<std::uint64_t>& weights) {
  __extension__ typedef unsigned __int128 Wide;
  std::uint64_t total = 0;
  for (std::uint64_t w : weights) total += w;
  std::vector<std::uint64_t> out(weights.size());
  std::vector<std::pair<std::uint64_t, std::size_t>> fractions;
  std::uint64_t assigned = 0;
  for (std::size_t k = 0; k < weights.size(); ++k) {
    const Wide scaled = static_cast<Wide>(n) * weights[k];
    out[k] = static_cast<std::uint64_t>(scaled / total);
    assigned += out[k];
    fractions.emplace_back(static_cast<std::uint64_t>(scaled % total), k);
  }
  std::stable_sort(fractions.begin(), fractions.end(),
                   [](const auto& a, const auto& b) { return a.first > b.first; });
  for (std::size_t k = 0; assigned < n; ++k, ++assigned) ++out[fractions[k].second];
  return out;
}

// The weight of each part in the whole mix, as integers: part k of strategy s weighs
// weight_s * part_k / (sum of s's part weights), scaled by the lcm of those sums.
std::vector<std::uint64_t> PartWeights(const std::vector<std::uint64_t>& strategy_weights,
                                       const std::vector<std::vector<std::uint64_t>>& parts) {
  std::uint64_t lcm = 1;
  std::vector<std::uint64_t> sums;
  for (const std::vector<std::uint64_t>& p : parts) {
    std::uint64_t sum = 0;
    for (std::uint64_t w : p) sum += w;
    sums.push_back(sum);
    lcm = std::lcm(lcm, sum);
  }
  std::vector<std::uint64_t> out;
  for (std::size_t s = 0; s < parts.size(); ++s) {
    for (std::uint64_t w : parts[s]) out.push_back(strategy_weights[s] * w * (lcm / sums[s]));
  }
  return out;
}

}  // namespace

Sample::Sample(std::vector<SampleStrategy> strategies, std::uint64_t seed, std::uint64_t samples)
    : serial_(NextSerial()) {
  const Quotas quotas = TakeStrategies(std::move(strategies), samples);
  BuildParts(seed);
  TakeQuotas(quotas);
  CountTaken();
}

std::vector<std::uint64_t> Sample::StrategyWeights(const std::vector<SampleStrategy>& strategies) {
  if (strategies.empty()) throw std::invalid_argument("Sample: no strategies");
  std::vector<std::uint64_t> weights;
  for (const SampleStrategy& s : strategies) {
    if (s.weight < 1 || s.parts.empty()) {
      throw std::invalid_argument("Sample: strategy " + s.name +
                                  " has no parts or a weight below 1");
    }
    weights.push_back(static_cast<std::uint64_t>(s.weight));
  }
  return weights;
}

Sample::Quotas Sample::TakeStrategies(std::vector<SampleStrategy> strategies,
                                      std::uint64_t samples) {
  const std::vector<std::uint64_t> weights = StrategyWeights(strategies);
  // Quotas: by strategy weight, then by part weight within each strategy.
  Quotas quotas;
  std::vector<std::vector<std::uint64_t>> part_weight_lists;
  const std::vector<std::uint64_t> strategy_quota = Share(samples, weights);
  for (std::size_t s = 0; s < strategies.size(); ++s) {
    std::vector<std::uint64_t> part_weights;
    for (const WeightedSet& p : strategies[s].parts) {
      if (p.weight < 1)
        throw std::invalid_argument("Sample: a part weight of " + strategies[s].name +
                                    " is below 1");
      part_weights.push_back(static_cast<std::uint64_t>(p.weight));
    }
    for (std::uint64_t q : Share(strategy_quota[s], part_weights)) quotas.quota.push_back(q);
    part_weight_lists.push_back(part_weights);
    for (WeightedSet& p : strategies[s].parts) {
      sets_.push_back(std::move(p.set));
      owner_.push_back(s);
    }
    counts_.push_back({strategies[s].name, strategies[s].weight, 0, 0});
  }
  quotas.hand_on = PartWeights(weights, part_weight_lists);
  return quotas;
}

void Sample::BuildParts(std::uint64_t seed) {
  const std::size_t n = sets_.size();
  // What each part owns: boxes minus every earlier part's boxes, while no mapped part came
  // before; otherwise its whole set, walked with skips.
  parts_.resize(n);
  bool mapped_before = false;
  Boxes earlier;
  for (std::size_t s = 0; s < n; ++s) {
    const TupleSet& set = sets_[s];
    Part& part = parts_[s];
    if (set.is_boxes() && !mapped_before) {
      part.set = set.boxes().Minus(earlier);
      if (s + 1 < n) {  // what the parts after this one must leave out
        earlier = s == 0 ? set.boxes() : earlier.UnionWithRest(part.set.boxes());
      }
    } else {
      part.set = set;
      part.walk = true;
    }
    part.set.BuildLookupIndex();
    mapped_before = mapped_before || !set.is_boxes();
    part.permutation = IndexPermutation(part.set.size(), Mix(seed ^ Mix(s + 1)));
  }
  // A walked part asks every earlier set whether it holds a tuple: index those for contains().
  std::size_t asked = 0;
  for (std::size_t s = 0; s < n; ++s) {
    if (parts_[s].walk) asked = s;
  }
  for (std::size_t e = 0; e < asked; ++e) sets_[e].BuildLookupIndex();
}

void Sample::TakeQuotas(const Quotas& quotas) {
  // Take up to the quota; what short parts leave is shared again by weight among the parts with
  // tuples left (round after round, as parts run out), so the weights hold among them. A walked
  // part is walked (in permutation order) only as far as it is needed.
  const std::size_t n = parts_.size();
  std::uint64_t left = 0;
  for (std::size_t s = 0; s < n; ++s) {
    parts_[s].taken = Take(s, quotas.quota[s]);
    left += quotas.quota[s] - parts_[s].taken;
  }
  while (left > 0) {
    std::vector<std::size_t> open;
    std::vector<std::uint64_t> open_weights;
    for (std::size_t s = 0; s < n; ++s) {
      if (HasMore(s)) {
        open.push_back(s);
        open_weights.push_back(quotas.hand_on[s]);
      }
    }
    if (open.empty()) break;  // every tuple of every part is taken
    const std::vector<std::uint64_t> extra = Share(left, open_weights);
    for (std::size_t k = 0; k < open.size(); ++k) {
      Part& part = parts_[open[k]];
      const std::uint64_t before = part.taken;
      part.taken = Take(open[k], before + extra[k]);
      left -= part.taken - before;
    }
  }
}

void Sample::CountTaken() {
  for (std::size_t s = 0; s < parts_.size(); ++s) {
    Part& part = parts_[s];
    part.first = count_;
    count_ += part.taken;
    StrategyCount& c = counts_[owner_[s]];
    c.tuples += part.taken;
    // A walked part's distinct tuples are known exactly only when its walk reached the end.
    const Index available =
        !part.walk ? part.set.size() : Index{part.exhausted ? part.accepted : part.taken};
    const Index sum = Index{c.available} + available;
    c.available = static_cast<std::uint64_t>(std::min<Index>(sum, ~std::uint64_t{0}));
  }
}

std::uint64_t Sample::Take(std::size_t s, std::uint64_t wanted) {
  Part& part = parts_[s];
  if (!part.walk) {
    const Index size = part.set.size();
    return size < wanted ? static_cast<std::uint64_t>(size) : wanted;
  }
  // Walk on, recording the permutation position of every kCheckpoint-th accepted tuple. A part
  // that lies (almost) inside earlier ones would walk its whole index space: refuse that as a
  // mistake in the strategy order rather than run for ever.
  Index misses = 0;
  while (part.accepted < wanted && part.next < part.set.size()) {
    if (Accepted(s, part.permutation(part.next))) {
      if (part.accepted % kCheckpoint == 0) part.checkpoints.push_back(part.next);
      ++part.accepted;
      misses = 0;
    } else if (++misses > kMaxMisses) {
      throw std::logic_error("sampling strategy " + counts_[owner_[s]].name + ": " +
                             std::to_string(kMaxMisses) +
                             " tuples in a row belong to earlier strategies or repeat; put it "
                             "before the strategies that hold it");
    }
    ++part.next;
  }
  part.exhausted = part.next >= part.set.size();
  return std::min(wanted, part.accepted);
}

bool Sample::HasMore(std::size_t s) const {
  const Part& part = parts_[s];
  // A walked part has taken every tuple it accepted (Take stops at `wanted`).
  return part.walk ? !part.exhausted : part.set.size() > part.taken;
}

bool Sample::Accepted(std::size_t s, Index index, Inputs* tuple) const {
  const TupleSet& set = parts_[s].set;
  const Inputs t = set.at(index);
  if (tuple != nullptr) *tuple = t;
  if (!set.IsCanonical(index, t)) return false;
  for (std::size_t e = 0; e < s; ++e) {
    if (sets_[e].contains(t)) return false;
  }
  return true;
}

void Sample::Fill(std::uint64_t begin, std::uint64_t n, Inputs* out) const {
  if (n == 0) return;
  if (begin + n > count_) throw std::out_of_range("Sample::Fill beyond the sample");
  std::size_t s = 0;
  while (n > 0) {
    while (begin >= parts_[s].first + parts_[s].taken) ++s;
    const Part& part = parts_[s];
    const std::uint64_t j = begin - part.first;
    const std::uint64_t here = std::min(n, part.taken - j);
    if (!part.walk) {
      constexpr std::uint64_t kGroup = 256;
      Index index[kGroup];
      for (std::uint64_t g = 0; g < here; g += kGroup) {
        const std::uint64_t m = std::min(kGroup, here - g);
        for (std::uint64_t k = 0; k < m; ++k) index[k] = part.permutation(j + g + k);
        part.set.AtMany(index, static_cast<std::size_t>(m), out);
        out += m;
      }
    } else {
      // From the nearest checkpoint, or from where this thread's last call on this part ended
      // (so reading a walked part in order, even one tuple at a time, walks it once).
      struct Resume {
        std::uint64_t serial = 0;
        std::size_t part = 0;
        std::uint64_t accepted = 0;
        Index position = 0;
      };
      thread_local Resume resume;
      std::uint64_t accepted = j / kCheckpoint * kCheckpoint;
      Index p = part.checkpoints[static_cast<std::size_t>(j / kCheckpoint)];
      if (resume.serial == serial_ && resume.part == s && resume.accepted <= j &&
          resume.accepted > accepted) {
        accepted = resume.accepted;
        p = resume.position;
      }
      std::uint64_t emitted = 0;
      while (emitted < here) {
        Inputs t{};
        if (!Accepted(s, part.permutation(p++), &t)) continue;
        if (accepted++ >= j) {
          *out++ = t;
          ++emitted;
        }
      }
      resume = {serial_, s, accepted, p};
    }
    begin += here;
    n -= here;
  }
}

Inputs Sample::at(std::uint64_t i) const {
  Inputs t{};
  Fill(i, 1, &t);
  return t;
}

}  // namespace ptovec::generator
