// The main of the verilated tb_pipe_backpressure.sv (timing): runs it until $finish or until no
// event is left, printing every $error (not only the first), and exits 1 when any $error ran or
// the testbench never reached $finish, else 0. As examples/rtl/dpi/tb_main.cpp, for this top.
#include <memory>

#include "Vtb_pipe_backpressure.h"
#include "verilated.h"

int main(int argc, char** argv) {
  const auto context = std::make_unique<VerilatedContext>();
  context->commandArgs(argc, argv);
  context->errorLimit(1 << 30);
  const auto top = std::make_unique<Vtb_pipe_backpressure>(context.get(), "tb");
  while (!context->gotFinish()) {
    top->eval();
    if (!top->eventsPending()) break;
    context->time(top->nextTimeSlot());
  }
  top->final();
  if (!context->gotFinish()) VL_PRINTF("tb_pipe_main: the testbench ended without $finish\n");
  return context->errorCount() == 0 && context->gotFinish() ? 0 : 1;
}
