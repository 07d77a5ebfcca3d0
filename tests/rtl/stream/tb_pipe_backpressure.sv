// tb_pipe_backpressure: examples/rtl/ptovec_tcvt_e8m0_pipe.sv under random output stalls (out_ready
// low on 30% of clocks) and idle input clocks, checked by a plain event-driven testbench: no
// streaming harness, no ptovec. The second opinion on the handshake (issue 42): it samples
// in_valid && in_ready and out_valid && out_ready at the rising edge, as the unit's registers do,
// and its scoreboard expects every case once, in order, with the result the combinational unit
// (ptovec_tcvt_e8m0) gives for the case's inputs and the tag it went in with. It also checks that
// a stalled result stays (out_valid and the payload unchanged until taken) and that no more than
// STAGES cases are ever in flight.
//
// Runs on Icarus Verilog 11 (-g2012) and Verilator 5.006 (--timing) alike (tests/rtl/CMakeLists.txt:
// rtl_pipe_backpressure_*). Ends with "PASS: N cases in order, S of C clocks stalled" or with
// $error lines and "FAIL: ...". With -DPTOVEC_PLANTED_STALL_BUG the unit takes cases while its
// last stage is stalled (the trace of issue 42), which must fail.
// The scoreboard and stimulus use blocking assignments on purpose (a testbench, not logic).
/* verilator lint_off BLKSEQ */
module tb_pipe_backpressure;
  localparam int Stages = 3;
  localparam int TagBits = 8;
  localparam int Cases = 20000;
  localparam int ReadyPercent = 70;
  localparam int Width = TagBits + 1 + 8 + 5;  // {tag, supported, code, fflags}

  logic clk = 1'b0;
  logic rst_n = 1'b0;
  logic in_valid = 1'b0;
  logic in_ready;
  logic [TagBits-1:0] in_tag = '0;
  logic [4:0] in_src_type = 5'd4;
  logic [31:0] in_value = '0;
  logic [2:0] in_rmode = '0;
  logic in_sat = 1'b0;
  logic out_valid;
  logic out_ready = 1'b1;
  logic [TagBits-1:0] out_tag;
  logic out_supported;
  logic [7:0] out_code;
  logic [4:0] out_fflags;

  ptovec_tcvt_e8m0_pipe #(
      .STAGES  (Stages),
      .TAG_BITS(TagBits)
  ) dut (
      .clk(clk),
      .rst_n(rst_n),
      .in_valid(in_valid),
      .in_ready(in_ready),
      .in_tag(in_tag),
      .in_src_type(in_src_type),
      .in_value(in_value),
      .in_rmode(in_rmode),
      .in_sat(in_sat),
      .out_valid(out_valid),
      .out_ready(out_ready),
      .out_tag(out_tag),
      .out_supported(out_supported),
      .out_code(out_code),
      .out_fflags(out_fflags)
  );

  // The reference: the combinational unit on the offered inputs, its status in RISC-V order.
  logic ref_supported;
  logic [7:0] ref_code;
  logic [4:0] ref_status;
  ptovec_tcvt_e8m0 reference (
      .src_type (in_src_type),
      .value    (in_value),
      .rmode    (in_rmode),
      .sat      (in_sat),
      .supported(ref_supported),
      .code     (ref_code),
      .status   (ref_status)
  );

  always #5 clk = ~clk;

  logic [Width-1:0] expected[256];  // the cases taken and not yet answered, in order
  int taken_count = 0;  // cases taken
  int answered = 0;  // results taken
  int clocks = 0;
  int stalled = 0;  // clocks with out_ready low
  int errors = 0;
  logic taken = 1'b0;  // the offer of this clock was taken (for the stimulus)
  logic held = 1'b0;  // a result was stalled at the last edge
  logic [Width-1:0] held_payload;

  // The scoreboard: both handshakes sampled at the rising edge.
  always @(posedge clk) begin
    if (rst_n) begin
      clocks = clocks + 1;
      if (!out_ready) stalled = stalled + 1;
      taken = in_valid && in_ready;
      if (held && !(out_valid && {out_tag, out_supported, out_code, out_fflags} == held_payload)) begin
        $error("clock %0d: a stalled result changed or left before it was taken", clocks);
        errors = errors + 1;
      end
      held = out_valid && !out_ready;
      held_payload = {out_tag, out_supported, out_code, out_fflags};
      if (out_valid && out_ready) begin
        if (answered == taken_count) begin
          $error("clock %0d: a result (tag 0x%0h) with no case in flight", clocks, out_tag);
          errors = errors + 1;
        end else if ({out_tag, out_supported, out_code, out_fflags} != expected[answered%256]) begin
          $error("clock %0d: result %0h where case %0d's %0h is due", clocks,
                 {out_tag, out_supported, out_code, out_fflags}, answered,
                 expected[answered%256]);
          errors = errors + 1;
          answered = answered + 1;
        end else begin
          answered = answered + 1;
        end
      end
      if (taken) begin
        expected[taken_count%256] = {
          in_tag,
          ref_supported,
          ref_code,
          ref_status[0],
          ref_status[1],
          ref_status[2],
          ref_status[3],
          ref_status[4]
        };
        taken_count = taken_count + 1;
      end
      if (taken_count - answered > Stages) begin
        $error("clock %0d: %0d cases in flight in a %0d-stage unit", clocks,
               taken_count - answered, Stages);
        errors = errors + 1;
      end
    end
  end

  // The stimulus: inputs change 1 time unit after each rising edge; a case is offered (90% of clocks)
  // until taken; out_ready is high on ReadyPercent% of clocks.
  initial begin : stimulus
    int offered;
    int source;
    offered = 0;
    repeat (3) @(posedge clk);
    #1 rst_n = 1'b1;
    while (answered < Cases && errors < 10 && clocks < 10 * Cases) begin
      if (!in_valid && offered < Cases && $urandom_range(99) < 90) begin
        source = $urandom_range(2);
        in_valid = 1'b1;
        in_tag = offered[TagBits-1:0];
        in_src_type = source == 0 ? 5'd1 : source == 1 ? 5'd4 : 5'd5;
        in_value = source == 0 ? $urandom : {16'h0, 16'($urandom)};
        in_rmode = 3'($urandom_range(6));
        in_sat = 1'($urandom_range(1));
        offered = offered + 1;
      end
      out_ready = $urandom_range(99) < ReadyPercent;
      @(posedge clk);
      #1;
      if (taken) in_valid = 1'b0;
    end
    if (answered != Cases || taken_count != Cases) begin
      $error("%0d of %0d cases answered (%0d taken) after %0d clocks", answered, Cases,
             taken_count, clocks);
      errors = errors + 1;
    end
    if (stalled * 100 < clocks * 25 || stalled * 100 > clocks * 35) begin
      $error("out_ready low on %0d of %0d clocks, not about 30%%", stalled, clocks);
      errors = errors + 1;
    end
    if (errors == 0) $display("PASS: %0d cases in order, %0d of %0d clocks stalled", Cases, stalled, clocks);
    else $display("FAIL: %0d errors", errors);
    $finish;
  end
endmodule
