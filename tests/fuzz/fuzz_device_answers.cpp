// libFuzzer target: ptovec's side of the line protocol (schemas/dut-protocol.md): the fuzz input
// is everything a program device writes (hello line, then answers), replayed by `cat` as the
// device of OpenCommandDevice, which is sent 3 cases in one batch then closed, as `run --dut-cmd`
// does. A bad answer stream must end in DeviceError; nothing else may escape, crash or leak.
#include <cstddef>
#include <cstdint>
#include <vector>

#include "fuzz_support.hpp"
#include "ptovec/generator/cases.hpp"
#include "ptovec/tools/device.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace ptovec::generator;
  using namespace ptovec::tools;
  static const std::vector<Case> cases = {
      MakeCase("tcvt", "fp16", "e8m0", "RNE", false, {"0x3c00"}),
      MakeCase("tcvt", "fp16", "e8m0", "RTZ", true, {"0x7c00"}),
      MakeCase("tcvt", "fp32", "fp16", "RNE", false, {"0x3f800000"}),
  };
  const auto path = ptovec::fuzz::WriteInput("device_output.txt", data, size);
  CommandDeviceOptions options;
  options.answer_timeout = 5;
  options.exit_grace = 5;
  const int descriptors = ptovec::fuzz::OpenDescriptors();
  try {
    const auto device = OpenCommandDevice("cat " + path.string(), options);
    std::vector<DeviceAnswer> answers(cases.size());
    device->Evaluate(cases, answers);
    device->Close();
  } catch (const DeviceError&) {
  } catch (const std::exception& e) {
    ptovec::fuzz::UnexpectedException("device_answers", e);
  }
  ptovec::fuzz::RequireNoDescriptorLeak("device_answers", descriptors);
  return 0;
}
