// libptovec_c: comparison policies, the gate's comparison and flag orders of
// include/ptovec/ptovec.h (generator::ComparePolicy; ptovec_dut.h's flag-order conversions).
#include <cstdint>
#include <exception>
#include <optional>
#include <string>

#include "c_common.hpp"
#include "ptovec/facts.h"
#include "ptovec/generator/compare_policy.hpp"
#include "ptovec/generator/errors.hpp"
#include "ptovec/generator/word_text.hpp"
#include "ptovec/oracle/numeric.hpp"
#include "ptovec_dut.h"

namespace generator = ptovec::generator;
namespace oracle = ptovec::oracle;
using ptovec::capi::EditionOfCode;
using ptovec::capi::Fail;
using ptovec::capi::FormatOfCode;
using ptovec::capi::Internal;
using ptovec::capi::TypeCodesList;
using ptovec::capi::UnknownEdition;

PTOVEC_C_EXPORT ptovec_error ptovec_compare_policy(const char* policy, uint8_t* flags_mask) {
  try {
    if (flags_mask == nullptr) return Fail(PTOVEC_ERROR_NULL_ARGUMENT, "flags_mask is NULL");
    const std::string name =
        policy == nullptr || *policy == '\0' ? PTOVEC_FACTS_POLICY_ALL : policy;
    try {
      *flags_mask = generator::ComparePolicyFromName(name).flags;
    } catch (const generator::InputError& e) {
      return Fail(PTOVEC_ERROR_BAD_POLICY, e.what());
    }
    return PTOVEC_OK;
  } catch (const std::exception& e) {
    return Internal(e.what());
  } catch (...) {
    return Internal("unknown exception");
  }
}

// The flag orders of ptovec.h are ptovec_dut.h's, whose inline functions convert.
static_assert(int{PTOVEC_FLAG_ORDER_SPEC} == int{PTOVEC_DUT_FLAG_ORDER_SPEC} &&
              int{PTOVEC_FLAG_ORDER_RISCV} == int{PTOVEC_DUT_FLAG_ORDER_RISCV} &&
              int{PTOVEC_FLAG_ORDER_IEEE} == int{PTOVEC_DUT_FLAG_ORDER_IEEE} &&
              int{PTOVEC_FLAG_ORDER_MXCSR} == int{PTOVEC_DUT_FLAG_ORDER_MXCSR});

PTOVEC_C_EXPORT ptovec_error ptovec_flag_order_code(const char* name, int* order) {
  if (order == nullptr) return Fail(PTOVEC_ERROR_NULL_ARGUMENT, "order is NULL");
  if (name == nullptr) return Fail(PTOVEC_ERROR_NULL_ARGUMENT, "name is NULL");
  const int code = ptovec_dut_flag_order_code(name);
  if (code < 0) {
    std::string accepted;
#define PTOVEC_C_ORDER_NAME(text, value) \
  accepted += (accepted.empty() ? "" : ", ") + std::string(text);
    PTOVEC_FACTS_FLAG_ORDER_NAMES(PTOVEC_C_ORDER_NAME)
#undef PTOVEC_C_ORDER_NAME
    return Fail(PTOVEC_ERROR_UNKNOWN_FLAG_ORDER,
                "unknown flag order '" + std::string(name) + "': accepted " + accepted);
  }
  *order = code;
  return PTOVEC_OK;
}

namespace {
ptovec_error UnknownOrder(int order) {
  return Fail(PTOVEC_ERROR_UNKNOWN_FLAG_ORDER,
              "unknown flag order " + std::to_string(order) +
                  ": accepted 0 (spec), 1 (riscv, ieee), 2 (mxcsr)");
}
bool KnownOrder(int order) { return ptovec_dut_flag_order_bits(order) != nullptr; }
}  // namespace

PTOVEC_C_EXPORT ptovec_error ptovec_flags_to_spec(uint32_t bits, int order, uint8_t* status) {
  if (status == nullptr) return Fail(PTOVEC_ERROR_NULL_ARGUMENT, "status is NULL");
  if (!KnownOrder(order)) return UnknownOrder(order);
  *status = ptovec_dut_flags_to_spec(bits, order);
  return PTOVEC_OK;
}

PTOVEC_C_EXPORT ptovec_error ptovec_flags_from_spec(uint8_t status, int order, uint32_t* bits) {
  if (bits == nullptr) return Fail(PTOVEC_ERROR_NULL_ARGUMENT, "bits is NULL");
  if (!KnownOrder(order)) return UnknownOrder(order);
  *bits = ptovec_dut_flags_from_spec(status, order);
  return PTOVEC_OK;
}

PTOVEC_C_EXPORT ptovec_error ptovec_compare_edition(int edition, int dst_code, uint8_t flags_mask,
                                                    uint64_t expected_word, uint8_t expected_status,
                                                    uint64_t got_word, uint8_t got_status,
                                                    int* match) {
  try {
    const std::optional<oracle::Edition> e = EditionOfCode(edition);
    if (!e) return UnknownEdition(edition);
    if (match == nullptr) return Fail(PTOVEC_ERROR_NULL_ARGUMENT, "match is NULL");
    const oracle::FormatInfo* dst = FormatOfCode(dst_code, *e);
    if (dst == nullptr) {
      return Fail(PTOVEC_ERROR_UNKNOWN_TYPE, "unknown type code " + std::to_string(dst_code) +
                                                 " for dst (accepted: " + TypeCodesList(*e) + ")");
    }
    if ((flags_mask & ~oracle::kStatusAll) != 0) {
      return Fail(PTOVEC_ERROR_BAD_POLICY,
                  "flags_mask " + generator::HexShortest(flags_mask) +
                      " has bits 7:5 set (accepted: 0x00..0x1f, bit 0 NV .. bit 4 NX)");
    }
    generator::ComparePolicy policy;
    policy.flags = flags_mask;
    *match =
        policy.Matches(dst->type, expected_word, expected_status, got_word, got_status) ? 1 : 0;
    return PTOVEC_OK;
  } catch (const std::exception& e) {
    return Internal(e.what());
  } catch (...) {
    return Internal("unknown exception");
  }
}

PTOVEC_C_EXPORT ptovec_error ptovec_compare(int dst_code, uint8_t flags_mask,
                                            uint64_t expected_word, uint8_t expected_status,
                                            uint64_t got_word, uint8_t got_status, int* match) {
  return ptovec_compare_edition(0, dst_code, flags_mask, expected_word, expected_status, got_word,
                                got_status, match);
}
