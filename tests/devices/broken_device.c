/* A device with one deliberate fault (BROKEN_<FAULT> defined by tools/devices/CMakeLists.txt), so
 * tests/tools/device_test.cpp can check every error path of OpenLibraryDevice and Evaluate. */
#include <string.h>

#include "ptovec_dut.h"

#define EXPORT __attribute__((visibility("default")))

EXPORT uint32_t ptovec_dut_abi_version(void) {
#if defined(BROKEN_ABI_MISMATCH)
  return 7u;
#elif defined(BROKEN_V2_MISSING_BATCH) || defined(BROKEN_BATCH_BAD_STATUS) ||     \
    defined(BROKEN_BATCH_ERROR_UNMARKED) || defined(BROKEN_BATCH_SECOND_FAILS) || \
    defined(BROKEN_BATCH_EXPLAINED)
  return 2u; /* version 2: ptovec_dut_evaluate_batch */
#else
  return 1u; /* version 1: the single-case entry point */
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

/* Version 2 faults: a batch entry point that answers like ptovec_dut_evaluate but with one
 * fault: a status outside 0..2 on the second case, PTOVEC_DUT_ERROR without marking any case,
 * the second case failing (status PTOVEC_DUT_ERROR), or every case failing with the batch, as
 * a pipeline's protocol failure does, explained by ptovec_dut_last_error (with the clock counts
 * of a clocked device). */
#if defined(BROKEN_BATCH_BAD_STATUS) || defined(BROKEN_BATCH_ERROR_UNMARKED) || \
    defined(BROKEN_BATCH_SECOND_FAILS) || defined(BROKEN_BATCH_EXPLAINED)
EXPORT int ptovec_dut_evaluate_batch(const ptovec_dut_case *cases, ptovec_dut_result *results,
                                     uint8_t *status, uint64_t n) {
  uint64_t i;
  for (i = 0; i < n; ++i) status[i] = (uint8_t)ptovec_dut_evaluate(&cases[i], &results[i]);
#if defined(BROKEN_BATCH_BAD_STATUS)
  if (n > 1) status[1] = 9;
#elif defined(BROKEN_BATCH_ERROR_UNMARKED)
  return PTOVEC_DUT_ERROR;
#elif defined(BROKEN_BATCH_SECOND_FAILS)
  if (n > 1) {
    status[1] = PTOVEC_DUT_ERROR;
    return PTOVEC_DUT_ERROR;
  }
#elif defined(BROKEN_BATCH_EXPLAINED)
  for (i = 0; i < n; ++i) status[i] = PTOVEC_DUT_ERROR;
  return PTOVEC_DUT_ERROR;
#endif
  return PTOVEC_DUT_OK;
}
#endif

#if defined(BROKEN_BATCH_EXPLAINED)
EXPORT const char *ptovec_dut_last_error(void) {
  return "clock 9: result tag 0x5 where tag 0x4 is due";
}
EXPORT int ptovec_dut_clock_counts(uint64_t *cases, uint64_t *clocks) {
  *cases = 40;
  *clocks = 57;
  return 0;
}
#endif
