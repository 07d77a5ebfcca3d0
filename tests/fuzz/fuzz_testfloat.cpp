// libFuzzer target: TestFloat-style text (generator/testfloat.hpp), read by both of its readers:
// as a vector file (VectorReader, which takes op, pair and control from the file name) and as a
// device's results file (TestFloatResultsReader, line by line, as `check` reads one). The first
// byte picks the op (its first legal pair and control, so inputs of 1 to 5 words of every width
// are reached); the rest is the file. A bad file must end in generator::InputError, nothing else.
#include <cstddef>
#include <cstdint>
#include <vector>

#include "fuzz_support.hpp"
#include "ptovec/generator/readers.hpp"
#include "ptovec/generator/testfloat.hpp"
#include "ptovec/tools/testfloat_results.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace ptovec::generator;
  if (size == 0) return 0;
  const std::vector<OpDef>& ops = AllOps();
  const OpDef& op = ops[data[0] % ops.size()];
  const TypePair pair = op.legal_pairs.front();
  const std::string name = TestFloatFileName(op, pair, ControlsFor(op, pair).front());
  const auto path = ptovec::fuzz::WriteInput(name, data + 1, size - 1);
  const int descriptors = ptovec::fuzz::OpenDescriptors();
  ptovec::fuzz::ReadVectorFileToEnd(path, "testfloat");
  try {
    ptovec::tools::TestFloatResultsReader results(path);
    TestFloatLine line;
    while (results.Next(op, pair, line)) {
    }
    results.Finish();
  } catch (const InputError&) {
  } catch (const std::exception& e) {
    ptovec::fuzz::UnexpectedException("testfloat", e);
  }
  ptovec::fuzz::RequireNoDescriptorLeak("testfloat", descriptors);
  return 0;
}
