// ptovec_dpi.svh: the C API of ptovec (ptovec/ptovec.h, libptovec_c) imported into SystemVerilog
// through DPI-C. `include it inside a module or package; compile capi/dpi/ptovec_dpi.c (installed
// as share/ptovec/dpi/ptovec_dpi.c) with the testbench and link libptovec_c.
//
// Words are 64-bit (longint): a type of width w uses bits w-1:0. Status bits: 0 NV, 1 DZ, 2 OF,
// 3 UF, 4 NX. Type codes are `ptovec list --types`'s (FP32 1, FP16 4, BF16 5, E8M0 13, ...);
// rounding modes 0 RNE, 1 RTM, 2 RTP, 3 RTZ, 4 RNA, 5 RTO, 6 RHB.

// Evaluates one case of op `op` (0 = ok; else a ptovec_error code, see ptovec_last_error).
import "DPI-C" function int ptovec_dpi_evaluate(
  input string op, input int src_code, input int dst_code, input int rmode, input int sat,
  input int n_inputs, input longint in0, input longint in1, input longint in2, input longint in3,
  output longint word, output int status);
// The same of edition `edition` (ptovec_edition_code: 0 "0.58.3", the seeds, which
// ptovec_dpi_evaluate answers; 1 "2026-09", TCVT by value and the types FP64 E6M2 RCPE6M2 E2M1X2
// E1M2X2; docs/semantics.md).
import "DPI-C" function int ptovec_dpi_evaluate_edition(
  input int edition, input string op, input int src_code, input int dst_code, input int rmode,
  input int sat, input int n_inputs, input longint in0, input longint in1, input longint in2,
  input longint in3, output longint word, output int status);
// The message of the last failed call on this thread (one line).
import "DPI-C" function string ptovec_last_error();
// The type code of a type name ("fp16" -> 4), -1 when unknown; and of a type of edition `edition`
// ("e6m2" -> 33 in 2026-09).
import "DPI-C" function int ptovec_type_code(input string name);
import "DPI-C" function int ptovec_type_code_edition(input int edition, input string name);
// The edition code of an edition name ("0.58.3" 0, "2026-09" 1), -1 when unknown.
import "DPI-C" function int ptovec_edition_code(input string name);
// The library version ("0.1.0").
import "DPI-C" function string ptovec_version();
// The status bits compared under a comparison policy ("word+flags" 'h1f, "word" 'h00,
// "word+flags:NV,OF" 'h05): 0 = ok, else a ptovec_error code.
import "DPI-C" function int ptovec_dpi_compare_policy(input string policy, output int flags_mask);
// 1 when the answer matches the expected one for destination type dst_code (the low bits of the
// type's width, and the status bits of flags_mask), 0 when not, -1 on an error.
import "DPI-C" function int ptovec_dpi_compare(
  input int dst_code, input int flags_mask, input longint expected_word, input int expected_status,
  input longint got_word, input int got_status);
// Flag orders of a status port: 0 spec (ptovec's: bit 0 NV .. bit 4 NX), 1 riscv/ieee (RISC-V
// fflags, SoftFloat, TestFloat: bit 0 NX .. bit 4 NV, the reverse), 2 mxcsr (x86: bits 5:0 PE UE
// OE ZE DE IE). A RISC-V port copied straight into a ptovec status swaps NV with NX and DZ with UF.
// A testbench uses one of them: the others are not lint warnings (Verilator -Wall).
/* verilator lint_off UNUSEDPARAM */
localparam int PTOVEC_FLAG_ORDER_SPEC = 0;
localparam int PTOVEC_FLAG_ORDER_RISCV = 1;
localparam int PTOVEC_FLAG_ORDER_MXCSR = 2;
/* verilator lint_on UNUSEDPARAM */
// A port's bits in `order` as ptovec's status; -1 for an unknown order.
import "DPI-C" function int ptovec_dpi_flags_to_spec(input int bits, input int order);
// ptovec's status as a port's bits in `order`; -1 for an unknown order.
import "DPI-C" function int ptovec_dpi_flags_from_spec(input int status, input int order);
