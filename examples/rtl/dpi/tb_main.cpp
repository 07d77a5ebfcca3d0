// The main of a verilated SystemVerilog testbench with timing (tb_tcvt_e8m0_dpi): runs it until
// $finish or until no event is left, printing every $error instead of stopping at the first
// (Verilator's default error limit is 1; a scoreboard should list its first mismatches), and
// exits 1 when any $error or $fatal ran or the testbench never reached $finish, else 0.
// The loop is Verilator 5's timing loop (eval, then advance to the next time slot).
#include <memory>

#include "Vtb_tcvt_e8m0_dpi.h"
#include "verilated.h"

int main(int argc, char** argv) {
  const auto context = std::make_unique<VerilatedContext>();
  context->commandArgs(argc, argv);
  context->errorLimit(1 << 30);
  const auto top = std::make_unique<Vtb_tcvt_e8m0_dpi>(context.get(), "tb");
  while (!context->gotFinish()) {
    top->eval();
    if (!top->eventsPending()) break;
    context->time(top->nextTimeSlot());
  }
  top->final();
  if (!context->gotFinish()) VL_PRINTF("tb_main: the testbench ended without $finish\n");
  return context->errorCount() == 0 && context->gotFinish() ? 0 : 1;
}
