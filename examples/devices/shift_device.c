/*
 * An example device under test as a shared library: MatrixShiftS32ToS16 (seed 000 lines
 * 93-106), the `shift` op (inputs: the S32 value, the shift amount 1..16; S16 result), in plain
 * C99 against include/ptovec_dut.h, ABI version 3. Every other op or type pair is
 * answered PTOVEC_DUT_UNSUPPORTED. Build and gate it (docs/devices.md, "A library device"):
 *
 *   cc -std=c99 -O2 -shared -fPIC -I include examples/devices/shift_device.c \
 *      -o libshift_device.so
 *   ptovec run --dut ./libshift_device.so --op shift
 *
 * It is the C twin of shift_device.py (the line-protocol program): same rule, same answers.
 */
#include <stdint.h>
#include <string.h>

#include "ptovec_dut.h"

uint32_t ptovec_dut_abi_version(void) { return PTOVEC_DUT_ABI_VERSION; }

const char *ptovec_dut_name(void) { return "c-shift-example"; }

/* No state: ptovec may call it from every core at once. */
uint32_t ptovec_dut_properties(void) { return PTOVEC_DUT_THREAD_SAFE; }

/* ASR of an S32 word by 1..16, clamped to S16 with OF|NX; no flags otherwise. */
static int shift_s32_to_s16(const ptovec_dut_case *c, ptovec_dut_result *r) {
  uint32_t bits;
  uint64_t amount;
  int64_t value;
  if (strcmp(c->op, "shift") != 0 || c->src_code != PTOVEC_DUT_TYPE_S32 ||
      c->dst_code != PTOVEC_DUT_TYPE_S16 || c->n_inputs != 2) {
    return PTOVEC_DUT_UNSUPPORTED;
  }
  bits = (uint32_t)c->inputs[0];
  amount = c->inputs[1];
  value = bits & 0x80000000u ? (int64_t)bits - ((int64_t)1 << 32) : (int64_t)bits;
  if (amount < 1 || amount > 16) return PTOVEC_DUT_ERROR;
  /* Floor division by 2^amount: an arithmetic shift, without relying on >> of a negative. */
  value = value >= 0 ? value / ((int64_t)1 << amount)
                     : -((-value + ((int64_t)1 << amount) - 1) / ((int64_t)1 << amount));
  r->flags = 0;
  if (value < -32768 || value > 32767) {
    value = value < 0 ? -32768 : 32767;
    r->flags = PTOVEC_DUT_FLAG_OF | PTOVEC_DUT_FLAG_NX;
  }
  r->word = (uint64_t)value & 0xFFFFu;
  return PTOVEC_DUT_OK;
}

int ptovec_dut_evaluate_batch(const ptovec_dut_case *cases, ptovec_dut_result *results,
                              uint8_t *status, uint64_t n) {
  uint64_t i;
  for (i = 0; i < n; ++i) status[i] = (uint8_t)shift_s32_to_s16(&cases[i], &results[i]);
  return PTOVEC_DUT_OK;
}
