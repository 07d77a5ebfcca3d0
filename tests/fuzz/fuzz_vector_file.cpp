// libFuzzer target: a binary (PTOVEC\0B) or JSON vector file read to its end by VectorReader, as
// `check` and `run` read one. A bad file must end in generator::InputError, nothing else.
#include <cstddef>
#include <cstdint>
#include <vector>

#include "fuzz_support.hpp"
#include "ptovec/generator/readers.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace ptovec::generator;
  const auto path = ptovec::fuzz::WriteInput("vectors.bin", data, size);
  const int descriptors = ptovec::fuzz::OpenDescriptors();
  ptovec::fuzz::ReadVectorFileToEnd(path, "vector_file");
  ptovec::fuzz::RequireNoDescriptorLeak("vector_file", descriptors);
  return 0;
}
