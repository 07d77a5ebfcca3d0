// libptovec_c: ptovec_evaluate and ptovec_evaluate_batch (include/ptovec/ptovec.h) and their
// edition twins, over the generator's op registry (generator::FindOp, EvaluateBatch,
// OpDef::check_domain and check_control), the same oracle `ptovec eval` runs.
//
// Every entry point catches everything: no exception crosses the C boundary. The checks run in
// the order of generator::MakeCase (op, types, pair, control, input count, widths, domain); when
// one fails, the message is the one MakeCase throws for the same case given as names and hex
// words, so it is `ptovec eval`'s text word for word. Every entry point without "_edition" is
// edition 0.58.3's (the default); its "_edition" twin takes an edition code first. The C API's
// other entry points: ptovec_c_registry.cpp, ptovec_c_compare.cpp, c_common.cpp.
#include <exception>
#include <new>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "c_common.hpp"
#include "ptovec/generator/cases.hpp"
#include "ptovec/generator/errors.hpp"
#include "ptovec/generator/ops.hpp"
#include "ptovec/generator/word_text.hpp"
#include "ptovec/oracle/edition.hpp"
#include "ptovec/oracle/formats.hpp"
#include "ptovec/oracle/rounding.hpp"
#include "ptovec/ptovec.h"

namespace generator = ptovec::generator;
namespace oracle = ptovec::oracle;
using ptovec::capi::EditionOfCode;
using ptovec::capi::Fail;
using ptovec::capi::FormatOfCode;
using ptovec::capi::Internal;
using ptovec::capi::TypeCodesList;
using ptovec::capi::UnknownEdition;

namespace {

// The message generator::MakeCase gives for this case (eval's error line), or `fallback` when it
// accepts the case (a case of op's edition).
std::string MakeCaseMessage(const generator::OpDef& op, const oracle::FormatInfo& src,
                            const oracle::FormatInfo& dst, oracle::NumericRoundingMode mode,
                            bool sat, const std::uint64_t* inputs, std::size_t n_inputs,
                            const std::string& fallback) {
  std::vector<std::string> words;
  for (std::size_t i = 0; i < n_inputs; ++i) words.push_back(generator::HexShortest(inputs[i]));
  try {
    (void)generator::MakeCase(op.name, src.name, dst.name, oracle::RoundingModeName(mode), sat,
                              words, op.edition);
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

// Checks the edition, the op, the types, the pair, the control and the input count: everything
// but the words.
ptovec_error CheckCall(int edition_code, const char* op_name, int src_code, int dst_code, int rmode,
                       int sat, std::size_t n_inputs, Checked& out) {
  const std::optional<oracle::Edition> edition = EditionOfCode(edition_code);
  if (!edition) return UnknownEdition(edition_code);
  if (op_name == nullptr)
    return Fail(PTOVEC_ERROR_NULL_ARGUMENT, "op is NULL (expected an op name)");
  out.op = generator::FindOp(op_name, *edition);
  if (out.op == nullptr) {
    try {
      (void)generator::RequireOp(op_name, *edition);
    } catch (const generator::InputError& e) {
      return Fail(PTOVEC_ERROR_UNKNOWN_OP, e.what());
    }
    return Fail(PTOVEC_ERROR_UNKNOWN_OP, "unknown op");  // RequireOp agrees with FindOp
  }
  out.src = FormatOfCode(src_code, *edition);
  if (out.src == nullptr) {
    return Fail(PTOVEC_ERROR_UNKNOWN_TYPE, "unknown type code " + std::to_string(src_code) +
                                               " for src (accepted: " + TypeCodesList(*edition) +
                                               ")");
  }
  out.dst = FormatOfCode(dst_code, *edition);
  if (out.dst == nullptr) {
    return Fail(PTOVEC_ERROR_UNKNOWN_TYPE, "unknown type code " + std::to_string(dst_code) +
                                               " for dst (accepted: " + TypeCodesList(*edition) +
                                               ")");
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
  // The controls the op's rule refuses (eval's line): fpatr's B.DATR fields for the input's
  // PreQuantMode; 2026-09's TCVT modes (HardwareTCVTRoundingModeSupported).
  if (c.op->check_control) {
    if (auto problem = c.op->check_control(c.pair, in, c.control)) {
      return Fail(PTOVEC_ERROR_ILLEGAL_CONTROL, generator::InputError(*problem).what());
    }
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

}  // namespace

PTOVEC_C_EXPORT ptovec_error ptovec_evaluate_edition(int edition, const char* op, int src_code,
                                                     int dst_code, int rmode, int sat,
                                                     const uint64_t* inputs, size_t n_inputs,
                                                     ptovec_result* result) {
  try {
    if (result == nullptr) return Fail(PTOVEC_ERROR_NULL_ARGUMENT, "result is NULL");
    if (inputs == nullptr && n_inputs != 0) {
      return Fail(PTOVEC_ERROR_NULL_ARGUMENT,
                  "inputs is NULL with n_inputs " + std::to_string(n_inputs));
    }
    Checked c;
    if (const ptovec_error e =
            CheckCall(edition, op, src_code, dst_code, rmode, sat, n_inputs, c)) {
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

PTOVEC_C_EXPORT ptovec_error ptovec_evaluate(const char* op, int src_code, int dst_code, int rmode,
                                             int sat, const uint64_t* inputs, size_t n_inputs,
                                             ptovec_result* result) {
  return ptovec_evaluate_edition(0, op, src_code, dst_code, rmode, sat, inputs, n_inputs, result);
}

PTOVEC_C_EXPORT ptovec_error ptovec_evaluate_batch_edition(int edition, const char* op,
                                                           int src_code, int dst_code, int rmode,
                                                           int sat, const uint64_t* inputs,
                                                           size_t n_inputs, size_t n,
                                                           ptovec_result* results,
                                                           size_t* failed_index) {
  try {
    if (failed_index != nullptr) *failed_index = 0;
    if (n != 0 && (results == nullptr || (inputs == nullptr && n_inputs != 0))) {
      return Fail(PTOVEC_ERROR_NULL_ARGUMENT, results == nullptr
                                                  ? "results is NULL with n " + std::to_string(n)
                                                  : "inputs is NULL with n " + std::to_string(n));
    }
    Checked c;
    if (const ptovec_error e =
            CheckCall(edition, op, src_code, dst_code, rmode, sat, n_inputs, c)) {
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

PTOVEC_C_EXPORT ptovec_error ptovec_evaluate_batch(const char* op, int src_code, int dst_code,
                                                   int rmode, int sat, const uint64_t* inputs,
                                                   size_t n_inputs, size_t n,
                                                   ptovec_result* results, size_t* failed_index) {
  return ptovec_evaluate_batch_edition(0, op, src_code, dst_code, rmode, sat, inputs, n_inputs, n,
                                       results, failed_index);
}
