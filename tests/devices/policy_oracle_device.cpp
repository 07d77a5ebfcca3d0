// The oracle as a --dut device with the faults of real devices that the gate's comparison
// policy, known differences and triage are tested on (tests/cli/test_bring_up.py,
// tests/tools/judge_test.cpp), chosen by --dut-arg:
//   flagless    every status is 0 (a model without a status register)
//   drop-nv     NV is never raised; the other flags are the oracle's
//   two-faults  tcvt fp16 -> e8m0: NV is not raised for a negative normal input (430,080
//               vectors), and 1.0 (0x3c00) under RTZ and RTM answers 0x80 (four vectors)
//   unsupported-rna  the faults of two-faults and of rtz-rtm, and every case under RNA is
//               unsupported, whatever the op (tests/cli/test_gate_outputs.py: mismatched,
//               waived, unsupported and matched vectors in one run)
//   rtz-rtm     encode fp32 -> fp16, RTZ and RTM, Sat off: an overflow answers the largest finite
//               (0x7bff or 0xfbff, OF|NX) instead of Inf, whatever the sign (the simplest such
//               case is RTM 65536.0, 0x47800000)
// Any other argument is refused by ptovec_dut_init.
#include <cstring>
#include <string>

#include "oracle_dut.hpp"

namespace {

enum class Fault { None, Flagless, DropNv, TwoFaults, RtzRtm, Both };
Fault fault = Fault::None;  // Both: TwoFaults and RtzRtm
bool unsupported_rna = false;

constexpr uint8_t kNV = 0x01;
constexpr int kRTM = 1;
constexpr int kRTZ = 3;
constexpr int kRNA = 4;

}  // namespace

extern "C" {

__attribute__((visibility("default"))) uint32_t ptovec_dut_abi_version(void) { return 1; }

__attribute__((visibility("default"))) int ptovec_dut_init(const char* arg) {
  const std::string a = arg == nullptr ? "" : arg;
  if (a == "flagless") {
    fault = Fault::Flagless;
  } else if (a == "drop-nv") {
    fault = Fault::DropNv;
  } else if (a == "two-faults") {
    fault = Fault::TwoFaults;
  } else if (a == "unsupported-rna") {
    fault = Fault::Both;
    unsupported_rna = true;
  } else if (a == "rtz-rtm") {
    fault = Fault::RtzRtm;
  } else {
    return 1;
  }
  return 0;
}

__attribute__((visibility("default"))) int ptovec_dut_evaluate(const ptovec_dut_case* c,
                                                               ptovec_dut_result* r) {
  if (unsupported_rna && c->rmode == kRNA) return PTOVEC_DUT_UNSUPPORTED;
  const int rc = ptovec::dut::OracleEvaluate(c, r);
  if (rc != PTOVEC_DUT_OK) return rc;
  const bool tcvt_fp16_e8m0 = std::strcmp(c->op, "tcvt") == 0 &&
                              c->src_code == PTOVEC_DUT_TYPE_FP16 &&
                              c->dst_code == PTOVEC_DUT_TYPE_E8M0;
  const bool encode_fp32_fp16 = std::strcmp(c->op, "encode") == 0 &&
                                c->src_code == PTOVEC_DUT_TYPE_FP32 &&
                                c->dst_code == PTOVEC_DUT_TYPE_FP16;
  if (fault == Fault::Flagless) r->flags = 0;
  if (fault == Fault::DropNv) r->flags = static_cast<uint8_t>(r->flags & ~kNV);
  if ((fault == Fault::TwoFaults || fault == Fault::Both) && tcvt_fp16_e8m0) {
    const uint64_t exponent = (c->inputs[0] >> 10) & 0x1f;
    if ((c->inputs[0] & 0x8000) != 0 && exponent != 0 && exponent != 0x1f) {
      r->flags = static_cast<uint8_t>(r->flags & ~kNV);
    }
    if (c->inputs[0] == 0x3c00 && (c->rmode == kRTZ || c->rmode == kRTM)) r->word = 0x80;
  }
  if ((fault == Fault::RtzRtm || fault == Fault::Both) && encode_fp32_fp16 &&
      (r->word & 0x7fff) == 0x7c00 && c->sat == 0 && (c->rmode == kRTZ || c->rmode == kRTM)) {
    r->word -= 1;  // the largest finite of the same sign
  }
  return PTOVEC_DUT_OK;
}

__attribute__((visibility("default"))) const char* ptovec_dut_name(void) { return "policy-oracle"; }

}  // extern "C"
