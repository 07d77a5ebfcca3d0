// libFuzzer target: a results file (binary PTOVEC\0R or JSON lines) read to its end by
// ResultsReader, section by section, as `check` reads one. A bad file must end in
// generator::InputError, nothing else.
#include <cstddef>
#include <cstdint>
#include <vector>

#include "fuzz_support.hpp"
#include "ptovec/tools/results.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace ptovec::tools;
  const auto path = ptovec::fuzz::WriteInput("results.bin", data, size);
  const int descriptors = ptovec::fuzz::OpenDescriptors();
  try {
    ResultsReader reader(path);
    std::vector<DeviceAnswer> answers(53);
    std::vector<std::uint64_t> indices(answers.size());
    for (std::size_t s = 0; s < reader.sections().size(); ++s) {
      std::uint64_t left = reader.RecordsIn(s);
      while (left > 0) {
        const std::size_t n =
            left < answers.size() ? static_cast<std::size_t>(left) : answers.size();
        reader.Read(s, std::span(answers).first(n), std::span(indices).first(n));
        left -= n;
      }
    }
    reader.Finish();
  } catch (const ptovec::generator::InputError&) {
  } catch (const std::exception& e) {
    ptovec::fuzz::UnexpectedException("results_file", e);
  }
  ptovec::fuzz::RequireNoDescriptorLeak("results_file", descriptors);
  return 0;
}
