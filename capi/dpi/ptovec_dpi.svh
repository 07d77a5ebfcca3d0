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
// The message of the last failed call on this thread (one line).
import "DPI-C" function string ptovec_last_error();
// The type code of a type name ("fp16" -> 4), -1 when unknown.
import "DPI-C" function int ptovec_type_code(input string name);
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
