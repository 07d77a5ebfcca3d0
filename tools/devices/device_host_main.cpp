// ptovec-device-host: runs a `--dut` library for ptovec in a process of its own (see
// tools/lib/device/device_host.hpp); started by `ptovec run` and `ptovec shrink`, never by hand.
#include "device/device_host.hpp"

int main(int argc, char** argv) { return ptovec::tools::RunDeviceHost(argc, argv); }
