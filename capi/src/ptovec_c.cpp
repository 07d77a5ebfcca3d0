// libptovec_c: the C API of include/ptovec/ptovec.h over the generator's op registry
// (generator::FindOp, EvaluateBatch, OpDef::check_domain), the same oracle `ptovec eval` runs.
//
// Every entry point catches everything: no exception crosses the C boundary. The checks run in
// the order of generator::MakeCase (op, types, pair, control, input count, widths, domain); when
// one fails, the message is the one MakeCase throws for the same case given as names and hex
// words, so it is `ptovec eval`'s text word for word.
#include <exception>
#include <new>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "ptovec/generator/cases.hpp"
#include "ptovec/generator/compare_policy.hpp"
#include "ptovec/generator/ops.hpp"
#include "ptovec/generator/word_text.hpp"
#include "ptovec/oracle/formats.hpp"
#include "ptovec/oracle/rounding.hpp"
#include "ptovec/ptovec.h"
#include "ptovec_dut.h"

#define PTOVEC_C_EXPORT extern "C" __attribute__((visibility("default")))

namespace {

namespace generator = ptovec::generator;
namespace oracle = ptovec::oracle;

thread_local std::string last_error;

ptovec_error Fail(ptovec_error error, std::string message) {
  last_error = std::move(message);
  return error;
}

// The format row of a type code, or nullptr (codes no modelled type has).
const oracle::FormatInfo* FormatOfCode(int code) {
  for (const oracle::FormatInfo& f : oracle::AllFormats()) {
    if (static_cast<int>(f.type) == code) return &f;
  }
  return nullptr;
}

std::string TypeCodesList() {
  std::string out;
  for (const oracle::FormatInfo& f : oracle::AllFormats()) {
    if (!out.empty()) out += ", ";
    out += std::to_string(static_cast<int>(f.type)) + " " + std::string(f.name);
  }
  return out;
}

// The message generator::MakeCase gives for this case (eval's error line), or `fallback` when it
// accepts the case.
std::string MakeCaseMessage(const generator::OpDef& op, const oracle::FormatInfo& src,
                            const oracle::FormatInfo& dst, oracle::NumericRoundingMode mode,
                            bool sat, const std::uint64_t* inputs, std::size_t n_inputs,
                            const std::string& fallback) {
  std::vector<std::string> words;
  for (std::size_t i = 0; i < n_inputs; ++i) words.push_back(generator::HexShortest(inputs[i]));
  try {
    (void)generator::MakeCase(op.name, src.name, dst.name, oracle::RoundingModeName(mode), sat,
                              words);
  } catch (const generator::InputError& e) {
    return e.what();
  }
  return fallback;
}

// An op, pair and control checked once for a call or a batch.
struct Checked {
  const generator::OpDef* op = nullptr;
  const oracle::FormatInfo* src = nullptr;
  const oracle::FormatInfo* dst = nullptr;
  generator::TypePair pair{};
  oracle::NumericExecutionControl control{};
};

// Checks the op, the types, the pair, the control and the input count: everything but the words.
ptovec_error CheckCall(const char* op_name, int src_code, int dst_code, int rmode, int sat,
                       std::size_t n_inputs, Checked& out) {
  if (op_name == nullptr)
    return Fail(PTOVEC_ERROR_NULL_ARGUMENT, "op is NULL (expected an op name)");
  out.op = generator::FindOp(op_name);
  if (out.op == nullptr) {
    try {
      (void)generator::RequireOp(op_name);
    } catch (const generator::InputError& e) {
      return Fail(PTOVEC_ERROR_UNKNOWN_OP, e.what());
    }
    return Fail(PTOVEC_ERROR_UNKNOWN_OP, "unknown op");  // RequireOp agrees with FindOp
  }
  out.src = FormatOfCode(src_code);
  if (out.src == nullptr) {
    return Fail(PTOVEC_ERROR_UNKNOWN_TYPE, "unknown type code " + std::to_string(src_code) +
                                               " for src (accepted: " + TypeCodesList() + ")");
  }
  out.dst = FormatOfCode(dst_code);
  if (out.dst == nullptr) {
    return Fail(PTOVEC_ERROR_UNKNOWN_TYPE, "unknown type code " + std::to_string(dst_code) +
                                               " for dst (accepted: " + TypeCodesList() + ")");
  }
  out.pair = {out.src->type, out.dst->type};
  // MakeCase checks the pair before the mode: an illegal pair is reported first.
  if (!generator::IsLegalPair(*out.op, out.pair)) {
    return Fail(PTOVEC_ERROR_ILLEGAL_PAIR,
                MakeCaseMessage(*out.op, *out.src, *out.dst, oracle::NumericRoundingMode::RNE,
                                false, nullptr, 0, "illegal pair"));
  }
  if (rmode < 0 || rmode >= static_cast<int>(oracle::kAllRoundingModes.size())) {
    return Fail(PTOVEC_ERROR_UNKNOWN_MODE,
                "unknown rounding mode " + std::to_string(rmode) +
                    " (accepted: 0 RNE, 1 RTM, 2 RTP, 3 RTZ, 4 RNA, 5 RTO, 6 RHB)");
  }
  out.control = {oracle::kAllRoundingModes[static_cast<std::size_t>(rmode)], sat != 0};
  if (!out.op->uses_controls &&
      (out.control.rounding_mode != oracle::NumericRoundingMode::RNE || out.control.saturating)) {
    return Fail(PTOVEC_ERROR_NO_CONTROLS,
                MakeCaseMessage(*out.op, *out.src, *out.dst, out.control.rounding_mode,
                                out.control.saturating, nullptr, 0, "no controls"));
  }
  if (n_inputs != out.op->slots.size()) {
    std::vector<std::uint64_t> zeros(n_inputs, 0);
    return Fail(PTOVEC_ERROR_INPUT_COUNT,
                MakeCaseMessage(*out.op, *out.src, *out.dst, out.control.rounding_mode,
                                out.control.saturating, zeros.data(), n_inputs, "input count"));
  }
  return PTOVEC_OK;
}

// Checks one case's words (width of each slot's type, then the op's domain) into `in`.
ptovec_error CheckInputs(const Checked& c, const std::uint64_t* inputs, generator::Inputs& in) {
  const std::size_t n = c.op->slots.size();
  in = {};
  for (std::size_t i = 0; i < n; ++i) {
    const unsigned width = oracle::Format(c.op->slots[i].TypeFor(c.pair)).width;
    if (oracle::LowBits(inputs[i], width) != inputs[i]) {
      return Fail(
          PTOVEC_ERROR_INPUT_WIDTH,
          MakeCaseMessage(*c.op, *c.src, *c.dst, c.control.rounding_mode, c.control.saturating,
                          inputs, n,
                          c.op->slots[i].name + " word " + generator::HexShortest(inputs[i]) +
                              " is too wide for its type"));
    }
    in[i] = inputs[i];
  }
  if (auto problem = c.op->check_domain(c.pair, in)) {
    return Fail(PTOVEC_ERROR_DOMAIN, generator::InputError(*problem).what());
  }
  return PTOVEC_OK;
}

ptovec_error EvaluateOne(const Checked& c, const generator::Inputs& in, ptovec_result& result) {
  generator::Case one;
  one.op = c.op;
  one.pair = c.pair;
  one.control = c.control;
  one.in = in;
  try {
    const oracle::Encoded r = generator::EvaluateCase(one);
    result.word = r.word;
    result.status = r.status;
  } catch (const generator::InputError& e) {
    return Fail(PTOVEC_ERROR_DOMAIN, e.what());
  }
  return PTOVEC_OK;
}

ptovec_error Internal(const char* what) {
  try {
    return Fail(PTOVEC_ERROR_INTERNAL, std::string("internal error: ") + what);
  } catch (...) {
    return PTOVEC_ERROR_INTERNAL;  // no memory even for the message: keep the previous one
  }
}

}  // namespace

PTOVEC_C_EXPORT const char* ptovec_version(void) { return PTOVEC_VERSION; }

PTOVEC_C_EXPORT const char* ptovec_last_error(void) { return last_error.c_str(); }

PTOVEC_C_EXPORT size_t ptovec_op_count(void) {
  try {
    return generator::AllOps().size();
  } catch (...) {
    return 0;
  }
}

PTOVEC_C_EXPORT const char* ptovec_op_name(size_t index) {
  try {
    const auto& ops = generator::AllOps();
    return index < ops.size() ? ops[index].name.c_str() : nullptr;
  } catch (...) {
    return nullptr;
  }
}

PTOVEC_C_EXPORT int ptovec_op_input_count(const char* op) {
  try {
    if (op == nullptr) {
      Fail(PTOVEC_ERROR_NULL_ARGUMENT, "op is NULL (expected an op name)");
      return -1;
    }
    const generator::OpDef& def = generator::RequireOp(op);
    return static_cast<int>(def.slots.size());
  } catch (const generator::InputError& e) {
    Fail(PTOVEC_ERROR_UNKNOWN_OP, e.what());
  } catch (const std::exception& e) {
    Internal(e.what());
  } catch (...) {
    Internal("unknown exception");
  }
  return -1;
}

PTOVEC_C_EXPORT int ptovec_type_code(const char* name) {
  try {
    if (name == nullptr) return -1;
    const auto type = oracle::ParseTileDataType(name);
    return type ? static_cast<int>(*type) : -1;
  } catch (...) {
    return -1;
  }
}

PTOVEC_C_EXPORT const char* ptovec_type_name(int code) {
  const oracle::FormatInfo* f = FormatOfCode(code);
  return f == nullptr ? nullptr : f->name.data();  // the table's names are string literals
}

PTOVEC_C_EXPORT unsigned ptovec_type_width(int code) {
  const oracle::FormatInfo* f = FormatOfCode(code);
  return f == nullptr ? 0 : f->width;
}

PTOVEC_C_EXPORT int ptovec_rounding_mode(const char* name) {
  try {
    if (name == nullptr) return -1;
    const auto mode = oracle::ParseRoundingMode(name);
    return mode ? static_cast<int>(*mode) : -1;
  } catch (...) {
    return -1;
  }
}

PTOVEC_C_EXPORT ptovec_error ptovec_evaluate(const char* op, int src_code, int dst_code, int rmode,
                                             int sat, const uint64_t* inputs, size_t n_inputs,
                                             ptovec_result* result) {
  try {
    if (result == nullptr) return Fail(PTOVEC_ERROR_NULL_ARGUMENT, "result is NULL");
    if (inputs == nullptr && n_inputs != 0) {
      return Fail(PTOVEC_ERROR_NULL_ARGUMENT,
                  "inputs is NULL with n_inputs " + std::to_string(n_inputs));
    }
    Checked c;
    if (const ptovec_error e = CheckCall(op, src_code, dst_code, rmode, sat, n_inputs, c)) {
      return e;
    }
    generator::Inputs in;
    if (const ptovec_error e = CheckInputs(c, inputs, in)) return e;
    return EvaluateOne(c, in, *result);
  } catch (const std::exception& e) {
    return Internal(e.what());
  } catch (...) {
    return Internal("unknown exception");
  }
}

PTOVEC_C_EXPORT ptovec_error ptovec_evaluate_batch(const char* op, int src_code, int dst_code,
                                                   int rmode, int sat, const uint64_t* inputs,
                                                   size_t n_inputs, size_t n,
                                                   ptovec_result* results, size_t* failed_index) {
  try {
    if (failed_index != nullptr) *failed_index = 0;
    if (n != 0 && (results == nullptr || (inputs == nullptr && n_inputs != 0))) {
      return Fail(PTOVEC_ERROR_NULL_ARGUMENT, results == nullptr
                                                  ? "results is NULL with n " + std::to_string(n)
                                                  : "inputs is NULL with n " + std::to_string(n));
    }
    Checked c;
    if (const ptovec_error e = CheckCall(op, src_code, dst_code, rmode, sat, n_inputs, c)) {
      return e;
    }
    std::vector<generator::Inputs> in(n);
    for (std::size_t i = 0; i < n; ++i) {
      if (const ptovec_error e = CheckInputs(c, inputs + i * n_inputs, in[i])) {
        if (failed_index != nullptr) *failed_index = i;
        return e;
      }
    }
    std::vector<oracle::Encoded> out(n);
    try {
      generator::EvaluateBatch(*c.op, c.pair, in.data(), n,
                               std::span<const oracle::NumericExecutionControl>(&c.control, 1),
                               out.data());
    } catch (const std::domain_error&) {
      // A seed assertion the domain check let through: find the case and its message one by one.
      ptovec_result unused;
      for (std::size_t i = 0; i < n; ++i) {
        if (const ptovec_error e = EvaluateOne(c, in[i], unused)) {
          if (failed_index != nullptr) *failed_index = i;
          return e;
        }
      }
      throw;
    }
    for (std::size_t i = 0; i < n; ++i) results[i] = {out[i].word, out[i].status};
    return PTOVEC_OK;
  } catch (const std::bad_alloc&) {
    return Internal("out of memory");
  } catch (const std::exception& e) {
    return Internal(e.what());
  } catch (...) {
    return Internal("unknown exception");
  }
}

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

PTOVEC_C_EXPORT ptovec_error ptovec_compare(int dst_code, uint8_t flags_mask,
                                            uint64_t expected_word, uint8_t expected_status,
                                            uint64_t got_word, uint8_t got_status, int* match) {
  try {
    if (match == nullptr) return Fail(PTOVEC_ERROR_NULL_ARGUMENT, "match is NULL");
    const oracle::FormatInfo* dst = FormatOfCode(dst_code);
    if (dst == nullptr) {
      return Fail(PTOVEC_ERROR_UNKNOWN_TYPE, "unknown type code " + std::to_string(dst_code) +
                                                 " for dst (accepted: " + TypeCodesList() + ")");
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
