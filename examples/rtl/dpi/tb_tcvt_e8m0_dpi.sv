// tb_tcvt_e8m0_dpi: examples/rtl/ptovec_tcvt_e8m0.sv checked against ptovec's oracle through DPI-C, the way
// a UVM scoreboard calls a C reference model: every case drives the unit's ports, waits 1 time
// unit, then calls ptovec_dpi_evaluate (capi/dpi/ptovec_dpi.svh -> libptovec_c) on the same
// inputs and compares the E8M0 code and the 5 status bits.
//
// Cases: every FP16 and BF16 code under the 7 modes x Sat off/on (2 x 65,536 x 14), and a
// deterministic slice of FP32: every word whose low 16 bits are one of a fixed set (0, 1, 0x8000,
// 0xffff, 0x4000, 0x7fff) x 14 controls (the exponent/sign half exhaustive, the fraction's edges).
// The plusarg +fp32_stride=N (default 1) keeps every Nth FP32 top half.
//
// Pass: prints "PASS: N cases, 0 mismatches" and $finish. Fail: a $error line for each of the
// first 10 mismatches (inputs, RTL, ptovec), then $fatal with the count. Under Verilator, run it
// with tb_main.cpp (every $error printed, exit 1 on any); with --binary's own main the first
// $error stops the simulation (exit status non-zero too).
module tb_tcvt_e8m0_dpi;
  `include "ptovec_dpi.svh"

  logic [ 4:0] src_type;
  logic [31:0] value;
  logic [ 2:0] rmode;
  logic        sat;
  logic        supported;
  logic [ 7:0] code;
  logic [ 4:0] status;

  ptovec_tcvt_e8m0 dut (.*);

  longint unsigned cases = 0;
  longint unsigned mismatches = 0;
  int e8m0;
  int flags_mask;  // the status bits compared: ptovec_dpi_compare_policy("word+flags")

  // One case: drive, settle, compare with ptovec.
  task automatic check(input logic [4:0] t, input logic [31:0] v, input int m, input int s);
    longint word;
    int expected_status;
    int error;
    src_type = t;
    value = v;
    rmode = 3'(m);
    sat = s[0];
    #1;
    error = ptovec_dpi_evaluate("tcvt", int'(t), e8m0, m, s, 1, longint'(v), 0, 0, 0, word,
                                expected_status);
    if (error != 0) $fatal(1, "ptovec_dpi_evaluate failed (%0d): %s", error, ptovec_last_error());
    cases++;
    // The gate's own comparison (ptovec_compare): the low 8 bits of the words, the status bits
    // of the policy's mask.
    if (!supported || ptovec_dpi_compare(e8m0, flags_mask, word, expected_status, longint'(code),
                                         int'(status)) != 1) begin
      mismatches++;
      if (mismatches <= 10)
        $error("mismatch: src_type %0d value 0x%08h rmode %0d sat %0d: RTL code 0x%02h status 0x%02h (supported %0d), ptovec 0x%02h 0x%02h",
               t, v, m, s, code, status, supported, word, expected_status);
    end
  endtask

  initial begin
    int unsigned fp32_stride;
    logic [15:0] low_halves[6];
    low_halves = '{16'h0000, 16'h0001, 16'h8000, 16'hffff, 16'h4000, 16'h7fff};
    if (!$value$plusargs("fp32_stride=%d", fp32_stride)) fp32_stride = 1;
    e8m0 = ptovec_type_code("e8m0");
    if (ptovec_dpi_compare_policy("word+flags:NV,OF", flags_mask) != 0 || flags_mask != 'h05)
      $fatal(1, "ptovec_dpi_compare_policy(word+flags:NV,OF) gave 'h%02h: %s", flags_mask,
             ptovec_last_error());
    if (ptovec_dpi_compare(e8m0, flags_mask, 64'h80, 'h11, 64'h80, 'h10) != 0 ||
        ptovec_dpi_compare(e8m0, flags_mask, 64'h80, 'h11, 64'h180, 'h01) != 1)
      $fatal(1, "ptovec_dpi_compare disagrees with word+flags:NV,OF on 0x80");
    if (ptovec_dpi_compare_policy("word+flags", flags_mask) != 0 || flags_mask != 'h1f)
      $fatal(1, "ptovec_dpi_compare_policy(word+flags) gave 'h%02h: %s", flags_mask,
             ptovec_last_error());
    // RISC-V fflags 'h01 (NX) and 'h10 (NV) are ptovec's 'h10 and 'h01; MXCSR PE 'h20 is NX.
    if (ptovec_dpi_flags_to_spec('h01, PTOVEC_FLAG_ORDER_RISCV) != 'h10 ||
        ptovec_dpi_flags_to_spec('h18, PTOVEC_FLAG_ORDER_RISCV) != 'h03 ||
        ptovec_dpi_flags_from_spec('h14, PTOVEC_FLAG_ORDER_RISCV) != 'h05 ||
        ptovec_dpi_flags_to_spec('h22, PTOVEC_FLAG_ORDER_MXCSR) != 'h10 ||
        ptovec_dpi_flags_to_spec('h01, 9) != -1)
      $fatal(1, "ptovec_dpi_flags_to_spec/from_spec disagree with the flag-order table");
    // Edition 2026-09 through DPI-C: FP16 1.125 (0x3c80) -> E6M2 under RNA is 1.25 (0xc1), NX.
    begin
      automatic longint w;
      automatic int st;
      automatic int ed = ptovec_edition_code("2026-09");
      if (ed != 1 || ptovec_dpi_evaluate_edition(ed, "tcvt", ptovec_type_code_edition(ed, "fp16"),
                                                 ptovec_type_code_edition(ed, "e6m2"), 4, 0, 1,
                                                 64'h3c80, 0, 0, 0, w, st) != 0 ||
          w != 64'hc1 || st != 'h10)
        $fatal(1, "edition 2026-09 through DPI-C: 0x%0h 0x%0h (%s)", w, st, ptovec_last_error());
    end
    $display("ptovec %s through DPI-C; e8m0 is type code %0d", ptovec_version(), e8m0);
    for (int m = 0; m < 7; m++) begin
      for (int s = 0; s < 2; s++) begin
        for (int w = 0; w < 65536; w++) begin
          check(5'd4, 32'(w), m, s);  // FP16
          check(5'd5, 32'(w), m, s);  // BF16
        end
        for (int high = 0; high < 65536; high += fp32_stride) begin
          foreach (low_halves[k]) check(5'd1, {high[15:0], low_halves[k]}, m, s);  // FP32
        end
      end
    end
    if (mismatches != 0) begin
      $fatal(1, "FAIL: %0d of %0d cases differ from ptovec (the first 10 above)", mismatches,
             cases);
    end else begin
      $display("PASS: %0d cases, 0 mismatches", cases);
      $finish;
    end
  end
endmodule
