// PipePorts: how ptovec's streaming harness (ptovec_dut_stream.hpp) drives the verilated
// examples/rtl/ptovec_tcvt_e8m0_pipe.sv (its traits; see that header), and PipeConfig, the
// harness's settings for it: TAG_BITS 8 and the fflags port in RISC-V order. Used by
// stream_device.cpp (the `--dut` device) and bench/bench_rtl_stream.cpp.
#ifndef PTOVEC_STREAM_EXAMPLE_PIPE_PORTS_HPP
#define PTOVEC_STREAM_EXAMPLE_PIPE_PORTS_HPP

#include <cstdint>
#include <cstring>

#include "Vptovec_tcvt_e8m0_pipe.h"
#include "verilated.h"
// After verilated.h: ptovec_dut::Verilated<Top> is then defined.
#include "ptovec_dut_stream.hpp"

namespace ptovec_pipe {

struct PipePorts {
  using Model = ptovec_dut::Verilated<Vptovec_tcvt_e8m0_pipe>;
  static constexpr bool kHasInReady = true;
  static constexpr bool kHasOutValid = true;
  static constexpr bool kHasOutReady = true;
  static constexpr bool kHasTag = true;

  // tcvt, one input, FP32/FP16/BF16 -> E8M0, mode 0..6, Sat 0 or 1.
  static bool Supported(const ptovec_dut_case& c) {
    const bool source = c.src_code == PTOVEC_DUT_TYPE_FP32 || c.src_code == PTOVEC_DUT_TYPE_FP16 ||
                        c.src_code == PTOVEC_DUT_TYPE_BF16;
    return std::strcmp(c.op, "tcvt") == 0 && c.dst_code == PTOVEC_DUT_TYPE_E8M0 && source &&
           c.n_inputs == 1 && c.rmode <= 6 && c.sat <= 1;
  }
  static void Clock(Model& m, bool high) { m->clk = high; }
  static void Reset(Model& m, bool active) { m->rst_n = !active; }
  static void Offer(Model& m, const ptovec_dut_case* c, std::uint32_t tag) {
    m->in_valid = c != nullptr;
    if (c == nullptr) return;
    m->in_tag = tag;
    m->in_src_type = c->src_code;
    m->in_value = static_cast<std::uint32_t>(c->inputs[0]);
    m->in_rmode = c->rmode;
    m->in_sat = c->sat;
  }
  static bool InReady(Model& m) { return m->in_ready; }
  static void SetOutReady(Model& m, bool ready) { m->out_ready = ready; }
  static bool OutValid(Model& m) { return m->out_valid; }
  static std::uint32_t OutTag(Model& m) { return m->out_tag; }
  // The E8M0 code and the fflags port (RISC-V order; the config's flag_order maps it).
  static int Result(Model& m, ptovec_dut_result& r) {
    if (!m->out_supported) return PTOVEC_DUT_ERROR;  // the RTL disagrees with Supported(): a bug
    r.word = m->out_code;
    r.flags = m->out_fflags;
    return PTOVEC_DUT_OK;
  }
};

inline ptovec_dut::StreamConfig PipeConfig() {
  ptovec_dut::StreamConfig config;
  config.tag_bits = 8;  // the unit's TAG_BITS
  config.flag_order = PTOVEC_DUT_FLAG_ORDER_RISCV;
  return config;
}

}  // namespace ptovec_pipe

#endif  // PTOVEC_STREAM_EXAMPLE_PIPE_PORTS_HPP
