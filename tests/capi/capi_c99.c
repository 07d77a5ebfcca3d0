/* ptovec/ptovec.h from strict C99 (-std=c99 -pedantic -Werror): every function called once, the
 * results checked (FP16 1.5 to E8M0 under RTP is 2^1 = 0x80 with NX; an unknown op fails; edition
 * 2026-09's FP16 1.125 to E6M2 is 0xc0 under RNE, 0xc1 under RNA, with NX). */
#include <stdio.h>
#include <string.h>

#include "ptovec/ptovec.h"

int main(void) {
  const uint64_t in[2] = {0x3E00, 0x3C00}; /* FP16 1.5 and 1.0 */
  ptovec_result r[2];
  size_t failed = 0;
  const int fp16 = ptovec_type_code("fp16");
  const int e8m0 = ptovec_type_code("e8m0");
  int bad = 0;
  if (fp16 != 4 || e8m0 != 13 || strcmp(ptovec_type_name(13), "e8m0") != 0 ||
      ptovec_type_width(fp16) != 16) {
    puts("type lookups wrong");
    bad = 1;
  }
  if (ptovec_op_count() < 1 || strcmp(ptovec_op_name(0), "tcvt") != 0 ||
      ptovec_op_input_count("tcvt") != 1 || ptovec_rounding_mode("RTP") != PTOVEC_RTP) {
    puts("op or mode lookups wrong");
    bad = 1;
  }
  if (ptovec_evaluate("tcvt", fp16, e8m0, PTOVEC_RTP, 0, in, 1, &r[0]) != PTOVEC_OK ||
      r[0].word != 0x80 || r[0].status != PTOVEC_STATUS_NX) {
    puts("tcvt fp16 1.5 -> e8m0 RTP is not 0x80 NX");
    bad = 1;
  }
  if (ptovec_evaluate_batch("tcvt", fp16, e8m0, PTOVEC_RTZ, 1, in, 1, 2, r, &failed) != PTOVEC_OK ||
      r[0].word != 0x7f || r[0].status != PTOVEC_STATUS_NX || r[1].word != 0x7f ||
      r[1].status != 0) {
    puts("batch tcvt fp16 {1.5, 1.0} -> e8m0 RTZ is not {0x7f NX, 0x7f}");
    bad = 1;
  }
  if (ptovec_evaluate("nosuch", fp16, e8m0, PTOVEC_RNE, 0, in, 1, &r[0]) !=
          PTOVEC_ERROR_UNKNOWN_OP ||
      strncmp(ptovec_last_error(), "unknown op 'nosuch'", 19) != 0) {
    puts("unknown op not reported");
    bad = 1;
  }
  {
    uint8_t mask = 0;
    int match = -1;
    if (ptovec_compare_policy("word+flags:NV,OF", &mask) != PTOVEC_OK || mask != 0x05 ||
        ptovec_compare(e8m0, mask, 0x7f, PTOVEC_STATUS_NX, 0x7f, 0, &match) != PTOVEC_OK ||
        match != 1) {
      puts("compare under word+flags:NV,OF of 0x7f NX with 0x7f - is not a match");
      bad = 1;
    }
  }
  { /* Edition 2026-09: FP16 1.125 -> E6M2 under RNA is 1.25 (0xc1) with NX. */
    const int ed = ptovec_edition_code("2026-09");
    const uint64_t x = 0x3C80;
    const int e6m2 = ptovec_type_code_edition(ed, "e6m2");
    int match = -1;
    if (ed != PTOVEC_EDITION_2026_09 || strcmp(ptovec_edition_name(ed), "2026-09") != 0 ||
        ptovec_op_count_edition(ed) != 6 || strcmp(ptovec_op_name_edition(ed, 0), "tcvt") != 0 ||
        ptovec_op_input_count_edition(ed, "tcvt") != 1 || e6m2 != 33 ||
        strcmp(ptovec_type_name_edition(ed, e6m2), "e6m2") != 0 ||
        ptovec_type_width_edition(ed, e6m2) != 8 ||
        ptovec_evaluate_edition(ed, "tcvt", fp16, e6m2, PTOVEC_RNA, 0, &x, 1, &r[0]) != PTOVEC_OK ||
        r[0].word != 0xC1 || r[0].status != PTOVEC_STATUS_NX ||
        ptovec_evaluate_batch_edition(ed, "tcvt", fp16, e6m2, PTOVEC_RNE, 0, &x, 1, 1, r,
                                      &failed) != PTOVEC_OK ||
        r[0].word != 0xC0 ||
        ptovec_compare_edition(ed, e6m2, 0x1f, 0xC0, 0, 0xC0, 0, &match) != PTOVEC_OK ||
        match != 1) {
      puts("edition 2026-09 calls wrong");
      bad = 1;
    }
  }
  printf("ptovec %s: %s\n", ptovec_version(), bad ? "FAILED" : "ok");
  return bad;
}
