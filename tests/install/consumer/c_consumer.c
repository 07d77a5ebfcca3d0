/* The C example of docs/c-api.md: FP16 1.5 to E8M0 under every rounding mode with
 * ptovec/ptovec.h, then one error. Prints "RNE 0x80 0x10" ... and the error line. */
#include <inttypes.h>
#include <stdio.h>

#include "ptovec/ptovec.h"

int main(void) {
  const char* modes[7] = {"RNE", "RTM", "RTP", "RTZ", "RNA", "RTO", "RHB"};
  const uint64_t value = 0x3E00; /* FP16 1.5 */
  ptovec_result r;
  int m;
  printf("ptovec %s\n", ptovec_version());
  for (m = 0; m < 7; ++m) {
    if (ptovec_evaluate("tcvt", ptovec_type_code("fp16"), ptovec_type_code("e8m0"), m, 0, &value, 1,
                        &r) != PTOVEC_OK) {
      fprintf(stderr, "error: %s\n", ptovec_last_error());
      return 1;
    }
    printf("%s 0x%02" PRIx64 " 0x%02x\n", modes[m], r.word, (unsigned)r.status);
  }
  if (ptovec_evaluate("tcvt", ptovec_type_code("fp16"), ptovec_type_code("e8m0"), 0, 0, &value, 2,
                      &r) != PTOVEC_ERROR_INPUT_COUNT) {
    return 1;
  }
  printf("error: %s\n", ptovec_last_error());
  return 0;
}
