// The oracle as a --dut device with one fault on one input (FAULTY_<KIND> defined by
// tools/devices/CMakeLists.txt): on the FP16 input 0x3c00 (1.0) under RNE it crashes (SIGSEGV, a
// write through a null pointer), hangs (sleeps forever) or exits (status 3); every other case is
// the oracle's answer. For the isolation tests (tests/cli/test_isolation.py). When
// PTOVEC_TEST_LOAD_LOG names a file, loading the library appends its process id to it (one line),
// so a test sees which process ran the library's static constructors.
#include <unistd.h>

#include <csignal>
#include <cstdio>
#include <cstdlib>

#include "oracle_dut.hpp"

namespace {

void Fault() {
#if defined(FAULTY_CRASH)
  // The default action of SIGSEGV, not a sanitizer's handler: under the asan preset the host
  // process has AddressSanitizer's, which would report the write and abort (signal 6).
  std::signal(SIGSEGV, SIG_DFL);
  volatile int* volatile null = nullptr;
  *null = 1;
#elif defined(FAULTY_HANG)
  for (;;) ::pause();
#elif defined(FAULTY_EXIT)
  ::_exit(3);
#endif
}

// Runs when the library is loaded, as a verilated model's static objects would.
__attribute__((constructor)) void LogLoad() {
  const char* log = std::getenv("PTOVEC_TEST_LOAD_LOG");
  if (log == nullptr || *log == '\0') return;
  if (std::FILE* f = std::fopen(log, "a")) {
    std::fprintf(f, "%ld\n", static_cast<long>(::getpid()));
    std::fclose(f);
  }
}

}  // namespace

extern "C" {

__attribute__((visibility("default"))) uint32_t ptovec_dut_abi_version(void) { return 1; }

__attribute__((visibility("default"))) int ptovec_dut_evaluate(const ptovec_dut_case* c,
                                                               ptovec_dut_result* r) {
  if (c->src_code == static_cast<uint8_t>(ptovec::oracle::TileDataType::FP16) &&
      c->inputs[0] == 0x3c00 && c->rmode == 0) {
    Fault();
  }
  return ptovec::dut::OracleEvaluate(c, r);
}

__attribute__((visibility("default"))) const char* ptovec_dut_name(void) { return "faulty-oracle"; }

}  // extern "C"
