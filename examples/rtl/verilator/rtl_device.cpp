// ptovec_rtl_dut (and ptovec_rtl_dut_planted_bug): the verilated examples/rtl/ptovec_tcvt_e8m0.sv
// wrapped as a `ptovec run --dut` device (include/ptovec_dut.h, ABI version 2). It answers `tcvt`
// to E8M0 from FP16, BF16 and FP32 under the 7 modes and Sat by driving the RTL's ports and
// evaluating the model; every other op, pair, mode or Sat value is PTOVEC_DUT_UNSUPPORTED.
//
// Each calling thread owns one model (in its own VerilatedContext), so ptovec may call the batch
// entry from several threads at once (PTOVEC_DUT_THREAD_SAFE).
#include <cstring>
#include <memory>

#include "Vptovec_tcvt_e8m0.h"
#include "ptovec_dut.h"
#include "verilated.h"

namespace {

// One verilated unit and its context, created on a thread's first case.
struct Model {
  Model() : context(new VerilatedContext), unit(new Vptovec_tcvt_e8m0(context.get(), "unit")) {}
  ~Model() { unit->final(); }
  std::unique_ptr<VerilatedContext> context;
  std::unique_ptr<Vptovec_tcvt_e8m0> unit;
};

Model& ThreadModel() {
  thread_local Model model;
  return model;
}

// True when the RTL implements the case: tcvt, one input, FP32/FP16/BF16 -> E8M0, mode 0..6 and
// Sat 0 or 1.
bool Supported(const ptovec_dut_case& c) {
  const bool source = c.src_code == PTOVEC_DUT_TYPE_FP32 || c.src_code == PTOVEC_DUT_TYPE_FP16 ||
                      c.src_code == PTOVEC_DUT_TYPE_BF16;
  return std::strcmp(c.op, "tcvt") == 0 && c.dst_code == PTOVEC_DUT_TYPE_E8M0 && source &&
         c.n_inputs == 1 && c.rmode <= 6 && c.sat <= 1;
}

// Drives one case through the model: the source word, its tile type code, the mode and Sat in;
// the E8M0 code (bits 7:0) and status (bits 4:0: NV DZ OF UF NX) out.
int Evaluate(Model& model, const ptovec_dut_case& c, ptovec_dut_result& r) {
  if (!Supported(c)) return PTOVEC_DUT_UNSUPPORTED;
  Vptovec_tcvt_e8m0& unit = *model.unit;
  unit.src_type = c.src_code;
  unit.value = static_cast<uint32_t>(c.inputs[0]);
  unit.rmode = c.rmode;
  unit.sat = c.sat;
  unit.eval();
  if (!unit.supported) return PTOVEC_DUT_ERROR;  // the RTL disagrees with Supported(): a bug
  r.word = unit.code;
  r.flags = unit.status;
  return PTOVEC_DUT_OK;
}

}  // namespace

extern "C" {

__attribute__((visibility("default"))) uint32_t ptovec_dut_abi_version(void) {
  return PTOVEC_DUT_ABI_VERSION;
}

__attribute__((visibility("default"))) int ptovec_dut_evaluate(const ptovec_dut_case* c,
                                                               ptovec_dut_result* r) {
  return Evaluate(ThreadModel(), *c, *r);
}

__attribute__((visibility("default"))) int ptovec_dut_evaluate_batch(const ptovec_dut_case* cases,
                                                                     ptovec_dut_result* results,
                                                                     uint8_t* status, uint64_t n) {
  Model& model = ThreadModel();
  int batch = PTOVEC_DUT_OK;
  for (uint64_t i = 0; i < n; ++i) {
    status[i] = static_cast<uint8_t>(Evaluate(model, cases[i], results[i]));
    if (status[i] == PTOVEC_DUT_ERROR) batch = PTOVEC_DUT_ERROR;
  }
  return batch;
}

__attribute__((visibility("default"))) uint32_t ptovec_dut_properties(void) {
  return PTOVEC_DUT_THREAD_SAFE;
}

__attribute__((visibility("default"))) const char* ptovec_dut_name(void) {
  return PTOVEC_RTL_DEVICE_NAME;
}

__attribute__((visibility("default"))) int ptovec_dut_init(const char*) { return 0; }

}  // extern "C"
