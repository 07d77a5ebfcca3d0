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

__attribute__((visibility("default"))) const char* ptovec_dut_name(void) {
  return "ptovec-oracle";
}

__attribute__((visibility("default"))) int ptovec_dut_init(const char*) { return 0; }

}  // extern "C"
