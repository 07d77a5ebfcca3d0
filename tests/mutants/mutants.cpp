// The mutant catalogue (see mutants.hpp): the product's fault models with the harness's fields.
#include "mutants.hpp"

#include <array>
#include <stdexcept>
#include <string>
#include <vector>

namespace ptovec::mutants {

namespace {

/// The harness's fields of one mutant.
struct Harness {
  std::string_view name;  ///< the fault model's mutant name
  std::string_view shrink_op, shrink_src, shrink_dst;
  std::string_view run_selection;
};

// mutant name, shrink op/src/dst, run selection; in the catalogue's order.
constexpr std::array kHarness = std::to_array<Harness>({
    {"ties_away", "encode", "fp16", "e4m3", "--rmode RNE"},
    {"sticky_dropped", "encode", "fp32", "fp16", "--dst fp16"},
    {"clamp_before_round", "encode", "fp16", "e4m3", "--dst e4m3"},
    {"sat_ignored", "encode", "fp16", "s8", "--src fp16 --sat on"},
    {"nonsat_overflow_max_finite", "encode", "fp16", "e4m3", "--dst e4m3 --sat off"},
    {"e4m3_neg_overflow_ff", "encode", "fp16", "e4m3", "--dst e4m3 --sat off"},
    {"negative_zero_kept", "encode", "fp16", "e4m3", "--dst e4m3"},
    {"underflow_after_rounding", "encode", "fp16", "e4m3", "--dst e4m3"},
    {"subnormal_position_off_by_one", "encode", "fp32", "fp16", "--dst fp16"},
    {"double_rounding_fp16", "encode", "fp32", "e4m3", "--dst e4m3"},
    {"double_rounding_bf16", "encode", "fp32", "e4m3", "--dst e4m3"},
    {"e8m0_always_up", "tcvt", "fp16", "e8m0", ""},
    {"rto_as_rtz", "encode", "fp16", "e4m3", "--src fp16 --rmode RTO"},
    {"rhb_as_rna", "encode", "fp16", "e4m3", "--src fp16 --rmode RHB"},
    {"s8_wrap_without_of", "encode", "fp16", "s8", "--dst s8 --sat off"},
    {"tquant_of_under_sat", "tquant", "fp32", "s8", ""},
    {"tdequant_reads_sat", "tdequant", "s8", "fp32", ""},
    {"hif8_exponent_sign_misread", "encode", "hif8", "fp32", "--src hif8"},
    {"rtp_rtm_swapped_negative", "encode", "fp16", "e4m3", "--dst e4m3 --rmode RTP,RTM"},
    {"uf_on_exact_subnormal", "encode", "hif8", "fp16", "--dst fp16"},
    {"nx_missing_integer", "encode", "fp16", "s8", "--dst s8"},
    {"shift_of_missing", "shift", "s32", "s16", ""},
    {"shift_logical", "shift", "s32", "s16", ""},
    {"affine_width17_as_16", "affine", "fp32", "s32", ""},
    {"tquant_nonsat_saturates", "tquant", "fp32", "s8", ""},
    {"e8m0_threshold_1_5", "tcvt", "fp16", "e8m0", ""},
    {"e8m0_rtz_as_floor", "tcvt", "fp16", "e8m0", ""},
    {"fp19_scale_truncated", "qparam", "fp32", "u64", ""},
    {"ftz_subnormal_results", "encode", "fp32", "fp16", "--dst fp16"},
    {"daz_subnormal_inputs", "encode", "fp16", "fp32", "--src fp16 --dst fp32"},
    {"fp8_overflow_after_rounding", "encode", "fp16", "hif8", ""},
    {"hif8_overflow_nan", "encode", "fp16", "hif8", ""},
    {"bf16_truncation", "encode", "fp32", "bf16", ""},
    {"tdequant_u8_zero_point_signed", "tdequant", "u8", "fp32", ""},
    {"rna_as_rne", "encode", "fp16", "e4m3", ""},
    {"fp8_tiny_shift_wraps", "encode", "fp32", "e4m3", "--dst e4m3"},
    {"e4m3_top_binade_saturates", "encode", "fp16", "e4m3", "--dst e4m3"},
    {"e4m3_mantissa_carry_lost", "encode", "fp16", "e4m3", "--dst e4m3"},
    {"uf_without_nx", "encode", "fp16", "e4m3", "--dst e4m3"},
    {"sat_overflow_of_dropped", "encode", "fp16", "e4m3", "--dst e4m3 --sat on"},
    {"tquant_clamp_before_zero_point", "tquant", "fp32", "s8", "--dst s8 --sat on"},
    {"tquant_product_rounded_fp32", "tquant", "fp32", "s8", "--dst s8"},
    {"tdequant_two_products", "tdequant", "s8", "fp32", "--src s8 --rmode RNE"},
    {"tdequant_difference_8bit", "tdequant", "s8", "fp32", "--src s8 --rmode RNE"},
    {"unsigned_negative_nx_only", "encode", "fp16", "u8", "--dst u8"},
    {"shift_rounds", "shift", "s32", "s16", ""},
    {"shift_wraps", "shift", "s32", "s16", ""},
    {"hif8_encode_band_sign_flipped", "encode", "fp16", "hif8", "--dst hif8"},
    {"e8m0_sqrt2_top8", "tcvt", "fp16", "e8m0", ""},
    {"fpatr_relu_after_scale", "fpatr", "fp32", "fp32", ""},
    {"fpatr_lrelu_param_fp32", "fpatr", "fp32", "fp16", ""},
    {"fpatr_signed_zero_dropped", "fpatr", "fp32", "fp16", ""},
    {"fpatr_rhb_from_datr", "fpatr", "fp32", "hif8", ""},
    {"mode_ignored_rne", "encode", "fp16", "e4m3", "--src fp16 --rmode RTZ"},
    {"mode_ignored_rtz", "encode", "fp16", "e4m3", "--src fp16 --rmode RNE"},
    {"rto_half_to_odd", "encode", "fp16", "e4m3", "--src fp16 --rmode RTO"},
    {"e8m0_floor_every_mode", "tcvt", "fp16", "e8m0", "--src fp16"},
    {"e8m0_specials_given_exponent", "tcvt", "fp16", "e8m0", "--src fp16"},
    {"e8m0_sign_leaks_into_exponent", "tcvt", "fp16", "e8m0", "--src fp16"},
    {"e4m3_truncates", "encode", "fp16", "e4m3", "--src fp16 --dst e4m3"},
    {"e4m3_subnormal_boundary_low", "encode", "fp16", "e4m3", "--src fp16 --dst e4m3"},
    {"e4m3_exponent_wraps", "encode", "fp16", "e4m3", "--src fp16 --dst e4m3"},
    {"hif8_dot_mantissa_width", "encode", "hif8", "fp32", "--src hif8"},
    {"sat_limits_zero", "encode", "fp16", "s8", "--src fp16 --sat on"},
    {"narrow_int_always_clamped", "encode", "fp16", "s4x2", "--src fp16 --sat off"},
    {"sat_clamp_in_source_float", "encode", "fp16", "s16", "--src fp16 --sat on"},
    {"float_to_int_host_undefined", "encode", "bf16", "s32", "--src bf16 --sat off"},
    {"tquant_fp32_sum_rounded", "tquant", "fp32", "s8", ""},
    {"fpatr_offset_unsigned", "fpatr", "s32", "s8", ""},
    {"fpatr_relu_after_offset", "fpatr", "s32", "s8", ""},
    {"fpatr_round_after_offset", "fpatr", "fp32", "s8", ""},
    {"fpatr_relu_in_shift_modes", "fpatr", "s32", "s16", ""},
    {"int_to_fp16_overflow_nv", "encode", "s32", "fp16", "--src s32 --dst fp16"},
    {"most_negative_integer_nv", "encode", "fp16", "s8", "--src fp16"},
    {"unsigned_minus_2w_nx_only", "encode", "fp32", "u16", "--dst u16"},
    {"fp19_nan_payload_truncated", "qparam", "fp32", "u64", ""},
});

std::vector<MutantInfo> BuildMutants() {
  const auto faults = generator::AllFaultModels();
  if (faults.size() != kHarness.size()) {
    throw std::logic_error("mutants: kHarness and the fault catalogue differ in size");
  }
  std::vector<MutantInfo> out;
  for (std::size_t i = 0; i < faults.size(); ++i) {
    const generator::FaultModel& f = faults[i];
    const Harness& h = kHarness[i];
    if (h.name != f.mutant) {
      throw std::logic_error("mutants: kHarness row " + std::string(h.name) + " is not " +
                             std::string(f.mutant));
    }
    std::string ops;
    for (std::string_view op : f.ops) ops += (ops.empty() ? "" : ",") + std::string(op);
    out.push_back({&f, f.mutant, f.models, f.affects, h.shrink_op, h.shrink_src, h.shrink_dst, ops,
                   h.run_selection});
  }
  return out;
}

const std::vector<MutantInfo>& Mutants() {
  static const std::vector<MutantInfo> mutants = BuildMutants();
  return mutants;
}

}  // namespace

std::span<const MutantInfo> AllMutants() { return Mutants(); }

const MutantInfo* FindMutant(std::string_view name) {
  for (const MutantInfo& m : Mutants()) {
    if (m.name == name) return &m;
  }
  return nullptr;
}

Encoded EvaluateMutant(const MutantInfo& mutant, const Case& c) {
  return generator::EvaluateFault(*mutant.fault, c);
}

}  // namespace ptovec::mutants
