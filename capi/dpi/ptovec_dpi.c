/* ptovec_dpi.c: the C API (ptovec/ptovec.h) in DPI-C argument types, for SystemVerilog
 * testbenches that check RTL against ptovec on the fly, as a UVM scoreboard calls a C reference
 * model. Declared in SystemVerilog by ptovec_dpi.svh; compile this file with the testbench and
 * link libptovec_c (see docs/rtl.md, "SystemVerilog with DPI-C").
 *
 * DPI-C types (IEEE 1800-2017 Annex H): `string` is const char*, `int` is int, `longint` is
 * long long (the bits of a 64-bit word; ptovec reads it as uint64_t), `output` arguments are
 * pointers. The file compiles as C99 or C++ (Verilator builds it with g++): the function has C
 * linkage either way, as DPI-C requires. */
#include <stdint.h>

#include "ptovec/ptovec.h"

#ifdef __cplusplus
extern "C" {
#endif

int ptovec_dpi_evaluate(const char* op, int src_code, int dst_code, int rmode, int sat,
                        int n_inputs, long long in0, long long in1, long long in2, long long in3,
                        long long* word, int* status);
int ptovec_dpi_evaluate_edition(int edition, const char* op, int src_code, int dst_code, int rmode,
                                int sat, int n_inputs, long long in0, long long in1, long long in2,
                                long long in3, long long* word, int* status);
int ptovec_dpi_compare_policy(const char* policy, int* flags_mask);
int ptovec_dpi_compare(int dst_code, int flags_mask, long long expected_word, int expected_status,
                       long long got_word, int got_status);
int ptovec_dpi_flags_to_spec(int bits, int order);
int ptovec_dpi_flags_from_spec(int status, int order);

/* ptovec_evaluate_edition with up to 4 input words passed by value: n_inputs of in0..in3 are used
 * (the op's slots in `ptovec list --edition` order, each in the low bits of its type's width),
 * `edition` an edition code (ptovec_edition_code: 0 "0.58.3", 1 "2026-09"). On PTOVEC_OK (0)
 * *word is the result word (low bits of the destination type) and *status the 5 status bits
 * (bit 0 NV, 1 DZ, 2 OF, 3 UF, 4 NX); otherwise they are 0 and ptovec_last_error() says why.
 * Returns a ptovec_error. */
int ptovec_dpi_evaluate_edition(int edition, const char* op, int src_code, int dst_code, int rmode,
                                int sat, int n_inputs, long long in0, long long in1, long long in2,
                                long long in3, long long* word, int* status) {
  /* A fifth word so that a bad count (reported by the library, which checks it before reading
   * any word) never points past the array. */
  const uint64_t inputs[5] = {(uint64_t)in0, (uint64_t)in1, (uint64_t)in2, (uint64_t)in3, 0};
  ptovec_result result = {0, 0};
  /* Let the library name a bad count: it reports the op's own input count. */
  const size_t n = n_inputs < 0 || n_inputs > 4 ? 5 : (size_t)n_inputs;
  const ptovec_error error =
      ptovec_evaluate_edition(edition, op, src_code, dst_code, rmode, sat, inputs, n, &result);
  *word = error == PTOVEC_OK ? (long long)result.word : 0;
  *status = error == PTOVEC_OK ? (int)result.status : 0;
  return (int)error;
}

/* ptovec_dpi_evaluate_edition of edition 0.58.3 (the default). */
int ptovec_dpi_evaluate(const char* op, int src_code, int dst_code, int rmode, int sat,
                        int n_inputs, long long in0, long long in1, long long in2, long long in3,
                        long long* word, int* status) {
  return ptovec_dpi_evaluate_edition(PTOVEC_EDITION_0_58_3, op, src_code, dst_code, rmode, sat,
                                     n_inputs, in0, in1, in2, in3, word, status);
}

/* ptovec_compare_policy: *flags_mask receives the status bits compared under `policy`
 * ("word+flags" 0x1f, "word" 0x00, "word+flags:NV,OF" 0x05); 0 on an error. Returns a
 * ptovec_error. */
int ptovec_dpi_compare_policy(const char* policy, int* flags_mask) {
  uint8_t mask = 0;
  const ptovec_error error = ptovec_compare_policy(policy, &mask);
  *flags_mask = error == PTOVEC_OK ? (int)mask : 0;
  return (int)error;
}

/* ptovec_compare with DPI-C types: 1 when the answer (got_word, got_status) matches the expected
 * one for destination type `dst_code` under `flags_mask`, 0 when it does not, -1 on an error (an
 * unknown type code, or a mask outside 0x00..0x1f; see ptovec_last_error). A status with bits
 * above bit 7 set never matches. */
int ptovec_dpi_compare(int dst_code, int flags_mask, long long expected_word, int expected_status,
                       long long got_word, int got_status) {
  int match = 0;
  /* A mask above 8 bits is refused as one with bits 7:5 set (the library names it). */
  const uint8_t mask =
      (flags_mask & ~0xff) != 0 ? (uint8_t)(flags_mask | 0xe0) : (uint8_t)flags_mask;
  if (ptovec_compare(dst_code, mask, (uint64_t)expected_word, (uint8_t)expected_status,
                     (uint64_t)got_word, (uint8_t)got_status, &match) != PTOVEC_OK) {
    return -1;
  }
  return (expected_status & ~0xff) != (got_status & ~0xff) ? 0 : match;
}

/* ptovec_flags_to_spec: a status port's bits in flag order `order` (PTOVEC_FLAG_ORDER_SPEC 0,
 * _RISCV 1, _MXCSR 2; RISC-V fflags bit 0 NX .. bit 4 NV) as ptovec's status (bit 0 NV .. bit 4
 * NX); -1 for an unknown order (see ptovec_last_error). */
int ptovec_dpi_flags_to_spec(int bits, int order) {
  uint8_t status = 0;
  return ptovec_flags_to_spec((uint32_t)bits, order, &status) == PTOVEC_OK ? (int)status : -1;
}

/* ptovec_flags_from_spec: ptovec's status (bits 4:0) as a port's bits in flag order `order`; -1
 * for an unknown order. */
int ptovec_dpi_flags_from_spec(int status, int order) {
  uint32_t bits = 0;
  return ptovec_flags_from_spec((uint8_t)(status & 0xff), order, &bits) == PTOVEC_OK ? (int)bits
                                                                                     : -1;
}

#ifdef __cplusplus
} /* extern "C" */
#endif
