// The fault-model catalogue (ptovec/generator/faults.hpp): its order, lookup and evaluation. The
// models live in the files of this folder by concern (rounding, flags, FP8, E8M0, integer,
// quantization, B.FPATR); kOrder lists them by mutant name in the catalogue's fixed order (that
// of docs/mutants.md and of PTOVEC_MUTANTS in tests/mutants/CMakeLists.txt).
#include <array>
#include <stdexcept>
#include <string>
#include <vector>

#include "fault_common.hpp"

namespace ptovec::generator {

namespace {

constexpr std::array<std::string_view, 76> kOrder = {"ties_away",
                                                     "sticky_dropped",
                                                     "clamp_before_round",
                                                     "sat_ignored",
                                                     "nonsat_overflow_max_finite",
                                                     "e4m3_neg_overflow_ff",
                                                     "negative_zero_kept",
                                                     "underflow_after_rounding",
                                                     "subnormal_position_off_by_one",
                                                     "double_rounding_fp16",
                                                     "double_rounding_bf16",
                                                     "e8m0_always_up",
                                                     "rto_as_rtz",
                                                     "rhb_as_rna",
                                                     "s8_wrap_without_of",
                                                     "tquant_of_under_sat",
                                                     "tdequant_reads_sat",
                                                     "hif8_exponent_sign_misread",
                                                     "rtp_rtm_swapped_negative",
                                                     "uf_on_exact_subnormal",
                                                     "nx_missing_integer",
                                                     "shift_of_missing",
                                                     "shift_logical",
                                                     "affine_width17_as_16",
                                                     "tquant_nonsat_saturates",
                                                     "e8m0_threshold_1_5",
                                                     "e8m0_rtz_as_floor",
                                                     "fp19_scale_truncated",
                                                     "ftz_subnormal_results",
                                                     "daz_subnormal_inputs",
                                                     "fp8_overflow_after_rounding",
                                                     "hif8_overflow_nan",
                                                     "bf16_truncation",
                                                     "tdequant_u8_zero_point_signed",
                                                     "rna_as_rne",
                                                     "fp8_tiny_shift_wraps",
                                                     "e4m3_top_binade_saturates",
                                                     "e4m3_mantissa_carry_lost",
                                                     "uf_without_nx",
                                                     "sat_overflow_of_dropped",
                                                     "tquant_clamp_before_zero_point",
                                                     "tquant_product_rounded_fp32",
                                                     "tdequant_two_products",
                                                     "tdequant_difference_8bit",
                                                     "unsigned_negative_nx_only",
                                                     "shift_rounds",
                                                     "shift_wraps",
                                                     "hif8_encode_band_sign_flipped",
                                                     "e8m0_sqrt2_top8",
                                                     "fpatr_relu_after_scale",
                                                     "fpatr_lrelu_param_fp32",
                                                     "fpatr_signed_zero_dropped",
                                                     "fpatr_rhb_from_datr",
                                                     "mode_ignored_rne",
                                                     "mode_ignored_rtz",
                                                     "rto_half_to_odd",
                                                     "e8m0_floor_every_mode",
                                                     "e8m0_specials_given_exponent",
                                                     "e8m0_sign_leaks_into_exponent",
                                                     "e4m3_truncates",
                                                     "e4m3_subnormal_boundary_low",
                                                     "e4m3_exponent_wraps",
                                                     "hif8_dot_mantissa_width",
                                                     "sat_limits_zero",
                                                     "narrow_int_always_clamped",
                                                     "sat_clamp_in_source_float",
                                                     "float_to_int_host_undefined",
                                                     "tquant_fp32_sum_rounded",
                                                     "fpatr_offset_unsigned",
                                                     "fpatr_relu_after_offset",
                                                     "fpatr_round_after_offset",
                                                     "fpatr_relu_in_shift_modes",
                                                     "int_to_fp16_overflow_nv",
                                                     "most_negative_integer_nv",
                                                     "unsigned_minus_2w_nx_only",
                                                     "fp19_nan_payload_truncated"};

/// Every segment's models, placed in kOrder's order. Throws std::logic_error when a model is
/// missing from kOrder or kOrder names one no segment holds (a build mistake, caught by tests).
std::vector<FaultModel> OrderedCatalogue() {
  std::vector<FaultModel> pool;
  for (auto segment : {faults::RoundingFaultModels, faults::FlagFaultModels, faults::Fp8FaultModels,
                       faults::E8m0FaultModels, faults::IntegerFaultModels,
                       faults::QuantizationFaultModels, faults::FpatrFaultModels}) {
    for (const FaultModel& m : segment()) pool.push_back(m);
  }
  if (pool.size() != kOrder.size()) throw std::logic_error("fault catalogue: kOrder is incomplete");
  std::vector<FaultModel> out;
  for (std::string_view name : kOrder) {
    const auto it = std::find_if(pool.begin(), pool.end(),
                                 [name](const FaultModel& m) { return m.mutant == name; });
    if (it == pool.end()) {
      throw std::logic_error("fault catalogue: no model " + std::string(name));
    }
    out.push_back(*it);
  }
  return out;
}

const std::vector<FaultModel>& Catalogue() {
  static const std::vector<FaultModel> catalogue = OrderedCatalogue();
  return catalogue;
}

}  // namespace

std::span<const FaultModel> AllFaultModels() { return Catalogue(); }

const FaultModel* FindFaultModel(std::string_view name) {
  for (const FaultModel& m : Catalogue()) {
    if (m.name == name || m.mutant == name) return &m;
  }
  return nullptr;
}

Encoded EvaluateOracle(const Case& c) { return c.op->evaluate(c.pair, c.in, c.control); }

Encoded EvaluateFault(const FaultModel& fault, const Case& c) { return fault.evaluate(c); }

std::string_view FaultKindName(FaultKind kind) {
  switch (kind) {
    case FaultKind::Own:
      return "own";
    case FaultKind::Generic:
      return "generic";
    case FaultKind::NarrowedGeneric:
      return "narrowed-generic";
  }
  return "own";
}

}  // namespace ptovec::generator
