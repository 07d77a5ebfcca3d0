// The oracle as a device under test: the shared pieces of the library device
// (ptovec_oracle_dut, oracle_device.cpp), the line-protocol program (ptovec-oracle-device,
// oracle_device_main.cpp) and mutant devices built on them (static library ptovec_oracle_dut_core).
#pragma once

#include <string>
#include <string_view>

#include "ptovec/generator/cases.hpp"
#include "ptovec/oracle/edition.hpp"
#include "ptovec_dut.h"

namespace ptovec::dut {

/// An (op, src, dst) resolved against the registry: the op, the pair and each slot's width (bits).
struct ResolvedPair {
  const generator::OpDef* op = nullptr;
  generator::TypePair pair{};
  unsigned slot_widths[generator::kMaxSlots] = {};
};

/// The edition the oracle device answers by (its registry and type codes): 0.58.3 unless
/// SetOracleEdition chose another. The device ABI carries no edition, so a device is told its
/// edition when loaded (`--dut-arg edition=2026-09`).
oracle::Edition OracleEdition();
/// ptovec_dut_init's argument: "" (0.58.3) or "edition=E" with E an edition name. Returns 0, or
/// non-zero (and the device refuses to start) for any other text. Call before evaluating.
int SetOracleEdition(const char* arg);

/// Resolves op name and type codes (spec tile codes, FP19 32). Returns PTOVEC_DUT_OK and fills
/// `out`, or PTOVEC_DUT_UNSUPPORTED (unknown op, unknown type code, illegal pair; `why` says
/// which). The last answer is cached per thread, so a run of cases of one pair costs one string
/// compare.
int ResolvePair(std::string_view op, int src_code, int dst_code, ResolvedPair& out,
                std::string* why = nullptr);

/// Builds a generator::Case from an ABI case: ResolvePair, then n_inputs equal to the op's slot
/// count, every input within its slot type's width, rmode 0..6, sat 0/1 and the op's domain
/// check. Returns PTOVEC_DUT_OK, PTOVEC_DUT_UNSUPPORTED (unknown op/type, illegal pair) or
/// PTOVEC_DUT_ERROR (bad input count, width, mode, Sat or domain); `why` gets a one-line reason.
int ToCase(const ptovec_dut_case& in, generator::Case& out, std::string* why = nullptr);

/// ToCase's checks of one ABI case against its already resolved pair `r`.
int CheckCase(const ptovec_dut_case& in, const ResolvedPair& r, generator::Case& out,
              std::string* why = nullptr);

/// The oracle device's ptovec_dut_evaluate_batch: the same answers as OracleEvaluate case by
/// case, but the pair is resolved once per change of (op text, codes) and each run of cases
/// that differ only in their control (up to 64) is checked once and evaluated by the registry's
/// batch path (EvaluateBatch: an input decoded once for all its controls). Thread-safe.
int OracleEvaluateBatch(const ptovec_dut_case* cases, ptovec_dut_result* results, uint8_t* status,
                        uint64_t n) noexcept;

/// The oracle device's evaluate: ToCase, then the registry's bulk path op.evaluate. The word is
/// the destination's element-width encoding, flags bits 4:0. Never throws (PTOVEC_DUT_ERROR).
int OracleEvaluate(const ptovec_dut_case* c, ptovec_dut_result* r) noexcept;

/// ptovec_dut_evaluate_batch (ABI version 2) from a single-case evaluate: status[i] =
/// evaluate(&cases[i], &results[i]) for every i; returns PTOVEC_DUT_ERROR when any status is
/// PTOVEC_DUT_ERROR, else PTOVEC_DUT_OK. Thread-safe when `evaluate` is.
template <typename Evaluate>
int EvaluateEach(const ptovec_dut_case* cases, ptovec_dut_result* results, uint8_t* status,
                 uint64_t n, Evaluate evaluate) noexcept {
  if (n > 0 && (cases == nullptr || results == nullptr || status == nullptr)) {
    return PTOVEC_DUT_ERROR;
  }
  int rc = PTOVEC_DUT_OK;
  for (uint64_t i = 0; i < n; ++i) {
    status[i] = static_cast<uint8_t>(evaluate(&cases[i], &results[i]));
    if (status[i] == PTOVEC_DUT_ERROR) rc = PTOVEC_DUT_ERROR;
  }
  return rc;
}

}  // namespace ptovec::dut
