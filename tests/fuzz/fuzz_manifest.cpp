// libFuzzer target: a suite folder's manifest.json read by ReadManifest, as every command that
// takes a suite folder reads it. A bad manifest must end in generator::InputError, nothing else.
#include <cstddef>
#include <cstdint>

#include "fuzz_support.hpp"
#include "ptovec/generator/cases.hpp"
#include "ptovec/generator/suite_folder.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace ptovec::generator;
  const auto path = ptovec::fuzz::WriteInput("manifest.json", data, size);
  const int descriptors = ptovec::fuzz::OpenDescriptors();
  try {
    const Manifest manifest = ReadManifest(path);
    for (const ManifestEntry& e : manifest.files) {
      if (e.path.empty() || e.Stem().size() > e.path.size()) std::abort();
    }
  } catch (const InputError&) {
  } catch (const std::exception& e) {
    ptovec::fuzz::UnexpectedException("manifest", e);
  }
  ptovec::fuzz::RequireNoDescriptorLeak("manifest", descriptors);
  return 0;
}
