/* ptovec.h: the C API of ptovec's exact oracle (library libptovec_c.so, CMake target
 * ptovec::ptovec_c). C99; no C++ needed to call it.
 *
 * It evaluates the vector ops of `ptovec list` (tcvt, encode, shift, qparam, tquant, tdequant,
 * affine, ...) exactly as `ptovec eval` and `ptovec generate` do: the same op registry
 * (generator/include/ptovec/generator/ops.hpp), the same domain checks and the same one-line
 * error messages. Every op is a literal transliteration of a seed function of the PTO ISA's
 * numeric profile (the seed file and lines are in `ptovec list`).
 *
 * Words. Every input and result travels in a uint64_t, the 64-bit carrier of the specification
 * (PTO_XLEN = 64). A type of width w bits uses the low w bits of the word (`ptovec list --types`
 * gives w: FP32 32, FP16 and BF16 16, E4M3, HiF8, E8M0, S8 and U8 8, FP19 19, S4X2 and U4X2 4
 * (one lane), S16/U16 16, S32/U32 32, S64/U64 64); the bits above w must be zero on input and are
 * zero on output. Integers are two's complement in those w bits (S8 -1 is 0xff, not
 * 0xffffffffffffffff).
 *
 * Status. The 5 status bits of one operation (spec-notes section 3): bit 0 NV (invalid), bit 1
 * DZ (divide by zero), bit 2 OF (overflow), bit 3 UF (underflow), bit 4 NX (inexact); the same
 * bit order as ptovec's vector files and the device ABI (ptovec_dut.h).
 *
 * Errors. A function that can fail returns a ptovec_error; on failure ptovec_last_error() gives
 * one line naming the bad value and what is accepted. No function aborts, throws or exits.
 *
 * Threads. Every function may be called from any number of threads at once; the message of
 * ptovec_last_error() is kept per thread.
 */
#ifndef PTOVEC_PTOVEC_H
#define PTOVEC_PTOVEC_H

#include <stddef.h>
#include <stdint.h>

#include "facts.h"

#ifdef __cplusplus
extern "C" {
#endif

/** What went wrong in a call (0: nothing). The values are stable across releases. */
typedef enum ptovec_error {
  PTOVEC_OK = 0,
  /** The op name is not one of `ptovec list`'s ops. */
  PTOVEC_ERROR_UNKNOWN_OP = 1,
  /** A type code is not one of `ptovec list --types`'s codes. */
  PTOVEC_ERROR_UNKNOWN_TYPE = 2,
  /** The rounding mode is not 0..6 (RNE RTM RTP RTZ RNA RTO RHB). */
  PTOVEC_ERROR_UNKNOWN_MODE = 3,
  /** The op does not accept this source -> destination pair. */
  PTOVEC_ERROR_ILLEGAL_PAIR = 4,
  /** The op has no rounding mode and no Sat (shift, qparam), but a mode other than RNE or Sat on
   *  was given. */
  PTOVEC_ERROR_NO_CONTROLS = 5,
  /** n_inputs is not the op's number of input slots (ptovec_op_input_count). */
  PTOVEC_ERROR_INPUT_COUNT = 6,
  /** An input word has bits set above its type's width. */
  PTOVEC_ERROR_INPUT_WIDTH = 7,
  /** An input is outside the seed function's domain (e.g. encode from a NaN, shift by 0). */
  PTOVEC_ERROR_DOMAIN = 8,
  /** A required pointer argument is NULL. */
  PTOVEC_ERROR_NULL_ARGUMENT = 9,
  /** Out of memory or an internal failure (a bug: please report the message). */
  PTOVEC_ERROR_INTERNAL = 10,
  /** A comparison policy name or flag mask ptovec does not accept (ptovec_compare_policy,
   *  ptovec_compare). */
  PTOVEC_ERROR_BAD_POLICY = 11,
  /** A flag order ptovec does not know (ptovec_flag_order_code, ptovec_flags_to_spec,
   *  ptovec_flags_from_spec). */
  PTOVEC_ERROR_UNKNOWN_FLAG_ORDER = 12,
  /** An edition code or name ptovec does not know (ptovec_edition_code; the "_edition" calls). */
  PTOVEC_ERROR_UNKNOWN_EDITION = 13,
  /** The op's rule refuses the control for this pair or these inputs (fpatr: the B.DATR fields
   *  BundleFPATRDATRFieldsLegal allows for the input's PreQuantMode; edition 2026-09's TCVT: the
   *  modes HardwareTCVTRoundingModeSupported allows, RNE and RNA for the E6M2 and RCPE6M2 pairs).
   */
  PTOVEC_ERROR_ILLEGAL_CONTROL = 14
} ptovec_error;

/** Editions of the specification (docs/semantics.md): 0.58.3, the seeds, which every call without
 *  "_edition" answers; 2026-09, the newer texts (TCVT by value, FP64 E6M2 RCPE6M2 E2M1X2 E1M2X2,
 *  no tquant or tdequant). The "_edition" calls take one of these codes first and answer as
 *  `ptovec ... --edition NAME` does; an unknown code is PTOVEC_ERROR_UNKNOWN_EDITION. */
enum {
  PTOVEC_EDITION_0_58_3 = 0, /**< "0.58.3", the default */
  PTOVEC_EDITION_2026_09 = 1 /**< "2026-09" */
};

/** Rounding modes in NumericRoundingMode's order (spec-notes section 2): the `rmode` argument,
 *  and the mode index of ptovec's files (not the 3-bit bundle RMode field encoding). */
enum {
  PTOVEC_RNE = PTOVEC_FACTS_RNE, /**< 0: to nearest, ties to even */
  PTOVEC_RTM = PTOVEC_FACTS_RTM, /**< 1: toward minus infinity */
  PTOVEC_RTP = PTOVEC_FACTS_RTP, /**< 2: toward plus infinity */
  PTOVEC_RTZ = PTOVEC_FACTS_RTZ, /**< 3: toward zero */
  PTOVEC_RNA = PTOVEC_FACTS_RNA, /**< 4: to nearest, ties away from zero */
  PTOVEC_RTO = PTOVEC_FACTS_RTO, /**< 5: to odd (the odd neighbour when inexact) */
  PTOVEC_RHB = PTOVEC_FACTS_RHB  /**< 6: round half up: floor(x + 1/2) */
};

/** Status bits of ptovec_result.status (ptovec/facts.h). */
enum {
  PTOVEC_STATUS_NV = PTOVEC_FACTS_STATUS_NV, /**< 0x01 */
  PTOVEC_STATUS_DZ = PTOVEC_FACTS_STATUS_DZ, /**< 0x02 */
  PTOVEC_STATUS_OF = PTOVEC_FACTS_STATUS_OF, /**< 0x04 */
  PTOVEC_STATUS_UF = PTOVEC_FACTS_STATUS_UF, /**< 0x08 */
  PTOVEC_STATUS_NX = PTOVEC_FACTS_STATUS_NX  /**< 0x10 */
};

/** One result: the destination word (low bits, see "Words") and the 5 status bits. */
typedef struct ptovec_result {
  uint64_t word;
  uint8_t status;
} ptovec_result;

/** The library's version, "MAJOR.MINOR.PATCH" (the ptovec project version, e.g. "0.1.0"). */
const char* ptovec_version(void);

/** The message of the last failed call on this thread: one line, no trailing newline, the same
 *  text `ptovec eval` prints after "ptovec: error: " for the same input. "" when no call on this
 *  thread has failed. Valid until the thread's next ptovec_* call. */
const char* ptovec_last_error(void);

/** The number of ops (`ptovec list`'s ops, in its order). */
size_t ptovec_op_count(void);

/** The name of op `index` (0 .. ptovec_op_count() - 1: "tcvt", "encode", ...); NULL when index
 *  is out of range. The string is static. */
const char* ptovec_op_name(size_t index);

/** The number of input words op `op` takes (1..4; e.g. tcvt 1, shift 2, tquant 3, affine 4);
 *  -1 for an unknown op (PTOVEC_ERROR_UNKNOWN_OP in ptovec_last_error). Case-insensitive. */
int ptovec_op_input_count(const char* op);

/** The type code of a type name, case-insensitive ("fp16" -> 4, "e8m0" -> 13, "s8" -> 19, "fp19"
 *  -> 32): the `code` column of `ptovec list --types`, which is the spec's 5-bit TileDataType code
 *  (FP19, which has none, is 32). -1 for an unknown name. */
int ptovec_type_code(const char* name);

/** The lower-case name of a type code ("fp16" for 4); NULL for a code no type has. Static. */
const char* ptovec_type_name(int code);

/** The bits of one element of a type code (FP16 16, S4X2 4, FP19 19); 0 for an unknown code. */
unsigned ptovec_type_width(int code);

/** The rounding mode of a name, case-insensitive ("RNE" -> 0 .. "RHB" -> 6); -1 when unknown. */
int ptovec_rounding_mode(const char* name);

/** Evaluates one case of `op` (a name of ptovec_op_name, case-insensitive) from type `src_code`
 *  to type `dst_code` (ptovec_type_code) under rounding mode `rmode` (0..6, PTOVEC_RNE ..) and
 *  Sat (`sat` non-zero: saturating), on the `n_inputs` words `inputs` (slot order of `ptovec
 *  list`'s "inputs:" line; each in the low bits of its slot's type). On PTOVEC_OK `*result` holds
 *  the result word and status; otherwise `*result` is untouched and ptovec_last_error() says
 *  why. Errors: PTOVEC_ERROR_UNKNOWN_OP, _UNKNOWN_TYPE, _UNKNOWN_MODE, _ILLEGAL_PAIR,
 *  _NO_CONTROLS, _INPUT_COUNT, _INPUT_WIDTH, _DOMAIN, _ILLEGAL_CONTROL, _NULL_ARGUMENT (op,
 *  inputs or result), _INTERNAL. */
ptovec_error ptovec_evaluate(const char* op, int src_code, int dst_code, int rmode, int sat,
                             const uint64_t* inputs, size_t n_inputs, ptovec_result* result);

/** Evaluates `n` cases of one op, pair and control (the arguments of ptovec_evaluate): case i
 *  reads inputs[i * n_inputs .. i * n_inputs + n_inputs - 1] and writes results[i]. Every case is
 *  checked before any is evaluated: on an error nothing is written to `results`, `*failed_index`
 *  (when not NULL) is the first bad case (0 for an error of the op, types or control) and the
 *  error is that of ptovec_evaluate on that case. n = 0 is PTOVEC_OK. Faster than n calls of
 *  ptovec_evaluate (the op's batch path, proven equal to the literal seed function). */
ptovec_error ptovec_evaluate_batch(const char* op, int src_code, int dst_code, int rmode, int sat,
                                   const uint64_t* inputs, size_t n_inputs, size_t n,
                                   ptovec_result* results, size_t* failed_index);

/** The status bits compared under a comparison policy, as a mask for ptovec_compare (bit 0 NV ..
 *  bit 4 NX). `policy` is the name `ptovec check` prints on its first line, in its results
 *  header ("compare") and in its JUnit property ptovec.compare: "word+flags" (every bit: 0x1f;
 *  also for NULL or ""), "word" (none: 0x00, a device without a status register) or
 *  "word+flags:" followed by status bit names, comma-separated, case-insensitive
 *  ("word+flags:NV,OF" -> 0x05; `--flags NV,OF` of the CLI). On an unknown name `*flags_mask` is
 *  untouched and the error is PTOVEC_ERROR_BAD_POLICY (PTOVEC_ERROR_NULL_ARGUMENT for a NULL
 *  flags_mask). */
ptovec_error ptovec_compare_policy(const char* policy, uint8_t* flags_mask);

/** Whether a device's answer matches the expected one for destination type `dst_code`, as the
 *  gate judges it: the low ptovec_type_width(dst_code) bits of the words are equal and so are the
 *  status bits of `flags_mask` (bits 4:0, from ptovec_compare_policy); bits 7:5 of `got_status`
 *  are always compared, so an answer that sets them never matches. `*match` is 1 for a match, 0
 *  otherwise. Errors: PTOVEC_ERROR_UNKNOWN_TYPE (dst_code), PTOVEC_ERROR_BAD_POLICY (a mask with
 *  bits 7:5), PTOVEC_ERROR_NULL_ARGUMENT (match); `*match` is then untouched. Known differences
 *  (`--known-differences`) are the gate's, not this function's. */
ptovec_error ptovec_compare(int dst_code, uint8_t flags_mask, uint64_t expected_word,
                            uint8_t expected_status, uint64_t got_word, uint8_t got_status,
                            int* match);

/** The edition code of an edition name ("0.58.3" 0, "2026-09" 1; exact text as `--edition` takes
 *  it); -1 for an unknown name or NULL (PTOVEC_ERROR_UNKNOWN_EDITION or _NULL_ARGUMENT in
 *  ptovec_last_error, which names the accepted names). */
int ptovec_edition_code(const char* name);

/** The name of an edition code ("0.58.3" for 0); NULL for an unknown code. Static. */
const char* ptovec_edition_name(int edition);

/** Edition twins of the calls above and below: the same arguments and answers, of `edition`'s
 *  ops and types (ptovec_type_code_edition(1, "fp64") is 0, "e6m2" 33; ptovec_op_name_edition(1,
 *  0) "tcvt", whose 2026-09 form converts by value). The calls without "_edition" are these with
 *  edition 0. An unknown edition: 0, NULL or -1 as for an unknown index, code or name, and
 *  PTOVEC_ERROR_UNKNOWN_EDITION from the calls that return an error. */
size_t ptovec_op_count_edition(int edition);
const char* ptovec_op_name_edition(int edition, size_t index);
int ptovec_op_input_count_edition(int edition, const char* op);
int ptovec_type_code_edition(int edition, const char* name);
const char* ptovec_type_name_edition(int edition, int code);
unsigned ptovec_type_width_edition(int edition, int code);
ptovec_error ptovec_evaluate_edition(int edition, const char* op, int src_code, int dst_code,
                                     int rmode, int sat, const uint64_t* inputs, size_t n_inputs,
                                     ptovec_result* result);
ptovec_error ptovec_evaluate_batch_edition(int edition, const char* op, int src_code, int dst_code,
                                           int rmode, int sat, const uint64_t* inputs,
                                           size_t n_inputs, size_t n, ptovec_result* results,
                                           size_t* failed_index);
ptovec_error ptovec_compare_edition(int edition, int dst_code, uint8_t flags_mask,
                                    uint64_t expected_word, uint8_t expected_status,
                                    uint64_t got_word, uint8_t got_status, int* match);

/** Bit orders of a status port (docs/devices.md, "Flag order"). ptovec's own, the
 *  specification's, is PTOVEC_FLAG_ORDER_SPEC: bit 0 NV, 1 DZ, 2 OF, 3 UF, 4 NX. RISC-V fflags,
 *  SoftFloat and TestFloat use the reverse, PTOVEC_FLAG_ORDER_RISCV (= PTOVEC_FLAG_ORDER_IEEE):
 *  bit 0 NX, 1 UF, 2 OF, 3 DZ, 4 NV. x86 MXCSR bits 5:0 are PE UE OE ZE DE IE,
 *  PTOVEC_FLAG_ORDER_MXCSR (DE, denormal operand, has no counterpart). The values are those of
 *  ptovec_dut.h's PTOVEC_DUT_FLAG_ORDER_*; both come from ptovec/facts.h. */
enum {
  PTOVEC_FLAG_ORDER_SPEC = PTOVEC_FACTS_FLAG_ORDER_SPEC,   /**< 0 */
  PTOVEC_FLAG_ORDER_RISCV = PTOVEC_FACTS_FLAG_ORDER_RISCV, /**< 1 */
  PTOVEC_FLAG_ORDER_IEEE = PTOVEC_FACTS_FLAG_ORDER_RISCV,  /**< 1 */
  PTOVEC_FLAG_ORDER_MXCSR = PTOVEC_FACTS_FLAG_ORDER_MXCSR  /**< 2 */
};

/** The flag order named `name` (case-insensitive): "spec" 0, "riscv", "ieee", "softfloat" or
 *  "testfloat" 1, "mxcsr" 2, into *order. Errors: PTOVEC_ERROR_UNKNOWN_FLAG_ORDER (the message
 *  names the accepted names), PTOVEC_ERROR_NULL_ARGUMENT; *order is then untouched. */
ptovec_error ptovec_flag_order_code(const char* name, int* order);

/** A port's status bits in flag order `order` as ptovec's 5-bit status (bit 0 NV .. bit 4 NX),
 *  into *status; bits above the order's flags are ignored (and MXCSR's DE). Errors:
 *  PTOVEC_ERROR_UNKNOWN_FLAG_ORDER, PTOVEC_ERROR_NULL_ARGUMENT. */
ptovec_error ptovec_flags_to_spec(uint32_t bits, int order, uint8_t* status);

/** ptovec's status (bits 4:0; bits 7:5 ignored) as a port's bits in flag order `order`, into
 *  *bits (MXCSR's DE 0). Errors: PTOVEC_ERROR_UNKNOWN_FLAG_ORDER, PTOVEC_ERROR_NULL_ARGUMENT. */
ptovec_error ptovec_flags_from_spec(uint8_t status, int order, uint32_t* bits);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* PTOVEC_PTOVEC_H */
