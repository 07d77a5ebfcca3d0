// ptovec_oracle_dut: the exact oracle exported through the device ABI (include/ptovec_dut.h), so
// `ptovec run --dut libptovec_oracle_dut.so` must report zero mismatches on every op.
#include "oracle_dut.hpp"

extern "C" {

__attribute__((visibility("default"))) uint32_t ptovec_dut_abi_version(void) {
  return PTOVEC_DUT_ABI_VERSION;
}

__attribute__((visibility("default"))) int ptovec_dut_evaluate(const ptovec_dut_case* c,
                                                               ptovec_dut_result* r) {
  return ptovec::dut::OracleEvaluate(c, r);
}

// Version 2: batches (a run of one input's controls evaluated together), from several threads
// at once (the oracle keeps no shared mutable state; ResolvePair's cache is per thread).
__attribute__((visibility("default"))) int ptovec_dut_evaluate_batch(const ptovec_dut_case* cases,
                                                                     ptovec_dut_result* results,
                                                                     uint8_t* status, uint64_t n) {
  return ptovec::dut::OracleEvaluateBatch(cases, results, status, n);
}

__attribute__((visibility("default"))) uint32_t ptovec_dut_properties(void) {
  return PTOVEC_DUT_THREAD_SAFE;
}

__attribute__((visibility("default"))) const char* ptovec_dut_name(void) { return "ptovec-oracle"; }

// "" answers by edition 0.58.3; "edition=2026-09" by that edition (`--dut-arg edition=2026-09`:
// the ABI carries no edition, the device is told its own).
__attribute__((visibility("default"))) int ptovec_dut_init(const char* arg) {
  return ptovec::dut::SetOracleEdition(arg);
}

}  // extern "C"
