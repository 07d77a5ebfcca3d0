// Private to ptovec_tools' gate (check_results.cpp, run_device.cpp): the records of a vector file
// that a results section answers.
#pragma once

#include <cstdint>
#include <vector>

#include "ptovec/generator/ops.hpp"
#include "ptovec/generator/readers.hpp"

namespace ptovec::tools::check_internal {

// Keeps in `records`, in place and in order, those a results section answers (every record, or
// those of `controls` when it lists some), at most `limit`; positions gets each kept record's
// index in its file, `first` being the index of records[0]. Nothing is copied when all are kept.
void KeepSectionRecords(std::vector<generator::VectorRecord>& records, std::uint64_t first,
                        const std::vector<generator::NumericExecutionControl>& controls,
                        std::uint64_t limit, std::vector<std::uint64_t>& positions);

}  // namespace ptovec::tools::check_internal
