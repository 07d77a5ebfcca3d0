// One mutant as a device under test (include/ptovec_dut.h): compiled once (object
// library ptovec_mutant_dut) and linked into each shared library ptovec_mutant_<name> with a
// generated one-line source defining ptovec_mutant_compiled_name = "<name>", which selects the
// catalog entry (tests/mutants/mutants.cpp over generator/src/faults). ptovec_dut_name()
// returns the name. Cases are decoded and checked exactly as the oracle device does
// (tools/devices/oracle_dut.hpp ToCase: unknown op/type or illegal pair -> PTOVEC_DUT_UNSUPPORTED,
// bad inputs -> PTOVEC_DUT_ERROR), so a mutant differs from the oracle device only in its one
// fault.
#include <exception>

#include "mutants.hpp"
#include "oracle_dut.hpp"
#include "ptovec_dut.h"

/// The mutant's name, defined by the library's generated mutant_name_<name>.cpp.
extern "C" const char ptovec_mutant_compiled_name[];

namespace {

const ptovec::mutants::MutantInfo* Mutant() {
  static const ptovec::mutants::MutantInfo* const mutant =
      ptovec::mutants::FindMutant(ptovec_mutant_compiled_name);
  return mutant;
}

}  // namespace

extern "C" {

__attribute__((visibility("default"))) uint32_t ptovec_dut_abi_version(void) {
  return PTOVEC_DUT_ABI_VERSION;
}

__attribute__((visibility("default"))) const char* ptovec_dut_name(void) {
  return ptovec_mutant_compiled_name;
}

/// Refuses to start (1) when the compiled-in name is not in the catalog.
__attribute__((visibility("default"))) int ptovec_dut_init(const char*) {
  return Mutant() != nullptr ? 0 : 1;
}

__attribute__((visibility("default"))) int ptovec_dut_evaluate(const ptovec_dut_case* c,
                                                               ptovec_dut_result* r) {
  try {
    const ptovec::mutants::MutantInfo* mutant = Mutant();
    if (mutant == nullptr) return PTOVEC_DUT_ERROR;
    ptovec::generator::Case k;
    const int status = ptovec::dut::ToCase(*c, k);
    if (status != PTOVEC_DUT_OK) return status;
    const ptovec::oracle::Encoded e = ptovec::mutants::EvaluateMutant(*mutant, k);
    r->word = e.word;
    r->flags = e.status;
    return PTOVEC_DUT_OK;
  } catch (const std::exception&) {
    return PTOVEC_DUT_ERROR;
  }
}

// Version 2: batches of the single-case form; thread-safe (a mutant is a pure function of the
// case, like the oracle it alters).
__attribute__((visibility("default"))) int ptovec_dut_evaluate_batch(const ptovec_dut_case* cases,
                                                                     ptovec_dut_result* results,
                                                                     uint8_t* status, uint64_t n) {
  return ptovec::dut::EvaluateEach(cases, results, status, n, ptovec_dut_evaluate);
}

__attribute__((visibility("default"))) uint32_t ptovec_dut_properties(void) {
  return PTOVEC_DUT_THREAD_SAFE;
}

}  // extern "C"
