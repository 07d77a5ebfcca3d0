#include "oracle_dut.hpp"

#include <cstring>
#include <exception>

namespace ptovec::dut {

using generator::Case;
using generator::OpDef;
using generator::TypePair;
using oracle::TileDataType;

namespace {

// A tile code ptovec models, or nullopt.
std::optional<TileDataType> TypeFromCode(int code) {
  for (const oracle::FormatInfo& f : oracle::AllFormats()) {
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

int ResolvePair(std::string_view op_name, int src_code, int dst_code, ResolvedPair& out,
                std::string* why) {
  thread_local PairCache cache;
  if (cache.src_code != src_code || cache.dst_code != dst_code || cache.op != op_name) {
    cache.op.assign(op_name);
    cache.src_code = src_code;
    cache.dst_code = dst_code;
    cache.rc = PTOVEC_DUT_UNSUPPORTED;
    cache.why.clear();
    const OpDef* op = generator::FindOp(op_name);
    const auto src = TypeFromCode(src_code);
    const auto dst = TypeFromCode(dst_code);
    if (op == nullptr) {
      cache.why = "unknown op '" + std::string(op_name) + "'";
    } else if (!src || !dst) {
      cache.why = "unknown type code " + std::to_string(!src ? src_code : dst_code);
    } else if (!generator::IsLegalPair(*op, {*src, *dst})) {
      cache.why = op->name + " does not accept " + std::string(oracle::Format(*src).name) +
                  " -> " + std::string(oracle::Format(*dst).name);
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
      return fail(r.op->slots[i].name + " word is wider than " +
                  std::to_string(r.slot_widths[i]) + " bits");
    }
    out.in[i] = in.inputs[i];
  }
  if (auto problem = r.op->check_domain(r.pair, out.in)) return fail(*problem);
  return PTOVEC_DUT_OK;
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
