// Google Benchmark aggregates the benches add to mean, median and stddev.
#pragma once

#include <algorithm>
#include <vector>

namespace ptovec::bench {

/// The `_min` aggregate of a benchmark's repetitions: the least value of each measure (time and
/// counters). On a shared machine the fastest repetition is the least disturbed one.
inline double Least(const std::vector<double>& values) {
  return *std::min_element(values.begin(), values.end());
}

}  // namespace ptovec::bench
