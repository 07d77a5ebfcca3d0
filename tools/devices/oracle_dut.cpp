#include "oracle_dut.hpp"

#include <cstring>
#include <exception>
#include <optional>
#include <string>
#include <string_view>

namespace ptovec::dut {

using generator::Case;
using generator::OpDef;
using generator::TypePair;
using oracle::TileDataType;

namespace {

// Set once by ptovec_dut_init, before any evaluation (read-only afterwards).
oracle::Edition g_edition = oracle::kDefaultEdition;

// A tile code of a type of the device's edition, or nullopt.
std::optional<TileDataType> TypeFromCode(int code) {
  for (const oracle::FormatInfo& f : oracle::AllFormats(g_edition)) {
    if (static_cast<int>(f.type) == code) return f.type;
  }
  return std::nullopt;
}

struct PairCache {
  std::string op;
  int src_code = -1;
  int dst_code = -1;
  int rc = PTOVEC_DUT_UNSUPPORTED;
  std::string why;
  ResolvedPair resolved;
};

}  // namespace

oracle::Edition OracleEdition() { return g_edition; }

int SetOracleEdition(const char* arg) {
  const std::string_view text = arg == nullptr ? "" : arg;
  if (text.empty()) return 0;
  constexpr std::string_view kKey = "edition=";
  if (!text.starts_with(kKey)) return 1;
  const auto edition = oracle::ParseEdition(text.substr(kKey.size()));
  if (!edition) return 1;
  g_edition = *edition;
  return 0;
}

int ResolvePair(std::string_view op_name, int src_code, int dst_code, ResolvedPair& out,
                std::string* why) {
  thread_local PairCache cache;
  if (cache.src_code != src_code || cache.dst_code != dst_code || cache.op != op_name) {
    cache.op.assign(op_name);
    cache.src_code = src_code;
    cache.dst_code = dst_code;
    cache.rc = PTOVEC_DUT_UNSUPPORTED;
    cache.why.clear();
    const OpDef* op = generator::FindOp(op_name, g_edition);
    const auto src = TypeFromCode(src_code);
    const auto dst = TypeFromCode(dst_code);
    if (op == nullptr) {
      cache.why = "unknown op '" + std::string(op_name) + "'";
    } else if (!src || !dst) {
      cache.why = "unknown type code " + std::to_string(!src ? src_code : dst_code);
    } else if (!generator::IsLegalPair(*op, {*src, *dst})) {
      cache.why = op->name + " does not accept " + std::string(oracle::Format(*src).name) + " -> " +
                  std::string(oracle::Format(*dst).name);
    } else {
      cache.rc = PTOVEC_DUT_OK;
      cache.resolved.op = op;
      cache.resolved.pair = {*src, *dst};
      for (std::size_t i = 0; i < op->slots.size(); ++i) {
        cache.resolved.slot_widths[i] =
            oracle::Format(op->slots[i].TypeFor(cache.resolved.pair)).width;
      }
    }
  }
  if (cache.rc == PTOVEC_DUT_OK) out = cache.resolved;
  if (why != nullptr) *why = cache.why;
  return cache.rc;
}

int ToCase(const ptovec_dut_case& in, Case& out, std::string* why) {
  ResolvedPair r;
  const int rc = ResolvePair(in.op == nullptr ? "" : in.op, in.src_code, in.dst_code, r, why);
  if (rc != PTOVEC_DUT_OK) return rc;
  return CheckCase(in, r, out, why);
}

int CheckCase(const ptovec_dut_case& in, const ResolvedPair& r, Case& out, std::string* why) {
  const auto fail = [&](std::string reason) {
    if (why != nullptr) *why = std::move(reason);
    return PTOVEC_DUT_ERROR;
  };
  if (in.n_inputs != r.op->slots.size()) {
    return fail(r.op->name + " takes " + std::to_string(r.op->slots.size()) + " inputs, got " +
                std::to_string(in.n_inputs));
  }
  if (in.rmode > 6) return fail("rmode " + std::to_string(in.rmode) + " is outside 0..6");
  if (in.sat > 1) return fail("sat " + std::to_string(in.sat) + " is not 0 or 1");
  out.op = r.op;
  out.pair = r.pair;
  out.control = {static_cast<oracle::NumericRoundingMode>(in.rmode), in.sat != 0};
  out.in = {};
  for (std::size_t i = 0; i < r.op->slots.size(); ++i) {
    if (oracle::LowBits(in.inputs[i], r.slot_widths[i]) != in.inputs[i]) {
      return fail(r.op->slots[i].name + " word is wider than " + std::to_string(r.slot_widths[i]) +
                  " bits");
    }
    out.in[i] = in.inputs[i];
  }
  if (auto problem = r.op->check_domain(r.pair, out.in)) return fail(*problem);
  // The controls `eval` refuses (fpatr: BundleFPATRDATRFieldsLegal for the PreQuantMode).
  if (r.op->check_control) {
    if (auto problem = r.op->check_control(r.pair, out.in, out.control)) return fail(*problem);
  }
  return PTOVEC_DUT_OK;
}

namespace {

// Whether case b is case a under another control: same op text, codes and inputs.
bool SameInputs(const ptovec_dut_case& a, const ptovec_dut_case& b) {
  if (a.op != b.op || a.src_code != b.src_code || a.dst_code != b.dst_code ||
      a.n_inputs != b.n_inputs || a.n_inputs > PTOVEC_DUT_MAX_INPUTS) {
    return false;
  }
  for (std::uint32_t k = 0; k < a.n_inputs; ++k) {
    if (a.inputs[k] != b.inputs[k]) return false;
  }
  return true;
}

}  // namespace

int OracleEvaluateBatch(const ptovec_dut_case* cases, ptovec_dut_result* results, uint8_t* status,
                        uint64_t n) noexcept {
  if (n > 0 && (cases == nullptr || results == nullptr || status == nullptr)) {
    return PTOVEC_DUT_ERROR;
  }
  constexpr std::size_t kMaxRun = 64;
  generator::NumericExecutionControl controls[kMaxRun];
  oracle::Encoded out[kMaxRun];
  int rc = PTOVEC_DUT_OK;
  ResolvedPair pair;
  int pair_rc = -1;  // none resolved yet
  const ptovec_dut_case* pair_case = nullptr;
  uint64_t i = 0;
  while (i < n) {
    const ptovec_dut_case& first = cases[i];
    // The same op text (pointer) and codes as the last resolved case: the same pair.
    if (pair_case == nullptr || first.op != pair_case->op ||
        first.src_code != pair_case->src_code || first.dst_code != pair_case->dst_code) {
      try {
        pair_rc =
            ResolvePair(first.op == nullptr ? "" : first.op, first.src_code, first.dst_code, pair);
      } catch (const std::exception&) {
        pair_rc = PTOVEC_DUT_ERROR;
      }
      pair_case = &first;
    }
    if (pair_rc != PTOVEC_DUT_OK) {
      status[i++] = static_cast<uint8_t>(pair_rc);
      if (pair_rc == PTOVEC_DUT_ERROR) rc = PTOVEC_DUT_ERROR;
      continue;
    }
    Case k;
    int case_rc = PTOVEC_DUT_ERROR;
    try {
      case_rc = CheckCase(first, pair, k);
    } catch (const std::exception&) {
    }
    if (case_rc != PTOVEC_DUT_OK) {
      status[i++] = static_cast<uint8_t>(case_rc);
      if (case_rc == PTOVEC_DUT_ERROR) rc = PTOVEC_DUT_ERROR;
      continue;
    }
    // The run of cases after it with the same inputs and a valid control legal for them: one
    // batch call (a refused control starts the next run, which answers it PTOVEC_DUT_ERROR).
    std::size_t run = 0;
    controls[run++] = k.control;
    while (run < kMaxRun && i + run < n && SameInputs(first, cases[i + run]) &&
           cases[i + run].rmode <= 6 && cases[i + run].sat <= 1) {
      const ptovec_dut_case& c = cases[i + run];
      const generator::NumericExecutionControl control{
          static_cast<oracle::NumericRoundingMode>(c.rmode), c.sat != 0};
      if (pair.op->check_control && pair.op->check_control(pair.pair, k.in, control)) break;
      controls[run++] = control;
    }
    try {
      generator::EvaluateBatch(*pair.op, pair.pair, &k.in, 1, {controls, run}, out);
      const unsigned width = oracle::Format(pair.pair.dst).width;
      for (std::size_t j = 0; j < run; ++j) {
        results[i + j] = {oracle::LowBits(out[j].word, width), out[j].status};
        status[i + j] = PTOVEC_DUT_OK;
      }
    } catch (const std::exception&) {
      for (std::size_t j = 0; j < run; ++j) status[i + j] = PTOVEC_DUT_ERROR;
      rc = PTOVEC_DUT_ERROR;
    }
    i += run;
  }
  return rc;
}

int OracleEvaluate(const ptovec_dut_case* c, ptovec_dut_result* r) noexcept {
  if (c == nullptr || r == nullptr) return PTOVEC_DUT_ERROR;
  try {
    Case k;
    const int rc = ToCase(*c, k);
    if (rc != PTOVEC_DUT_OK) return rc;
    const oracle::Encoded e = k.op->evaluate(k.pair, k.in, k.control);
    r->word = oracle::LowBits(e.word, oracle::Format(k.pair.dst).width);
    r->flags = e.status;
    return PTOVEC_DUT_OK;
  } catch (const std::exception&) {
    return PTOVEC_DUT_ERROR;
  }
}

}  // namespace ptovec::dut
