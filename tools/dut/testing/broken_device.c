/* A device with one deliberate fault (BROKEN_<FAULT> defined by tools/dut/CMakeLists.txt), so
 * tests/tools/device_test.cpp can check every error path of OpenLibraryDevice and Evaluate. */
#include <string.h>

#include "ptovec_dut.h"

#define EXPORT __attribute__((visibility("default")))

EXPORT uint32_t ptovec_dut_abi_version(void) {
#ifdef BROKEN_ABI_MISMATCH
  return 7u;
#else
  return PTOVEC_DUT_ABI_VERSION;
#endif
}

EXPORT const char *ptovec_dut_name(void) { return "broken"; }

#ifdef BROKEN_INIT_REFUSES
EXPORT int ptovec_dut_init(const char *arg) { return strcmp(arg, "please") == 0 ? 0 : 3; }
#endif

#ifndef BROKEN_MISSING_EVALUATE
EXPORT int ptovec_dut_evaluate(const ptovec_dut_case *c, ptovec_dut_result *r) {
  (void)c;
  r->word = 0xFFFFFFFFFFFFFFFFull; /* ptovec keeps the destination's low bits */
  r->flags = 0;
#if defined(BROKEN_BAD_FLAGS)
  r->flags = 0x20;
#elif defined(BROKEN_BAD_RETURN)
  return 5;
#elif defined(BROKEN_DUT_ERROR)
  return PTOVEC_DUT_ERROR;
#endif
  return PTOVEC_DUT_OK;
}
#endif
