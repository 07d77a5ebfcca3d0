// ptovec_tcvt_e8m0_pipe: the TCVT-to-E8M0 unit of examples/rtl/ptovec_tcvt_e8m0.sv as a clocked,
// pipelined conversion unit of the shape real FPUs have: a valid/ready stream in and out, a tag
// carried with each case, STAGES register stages after the conversion, and a status port in
// RISC-V fflags order. It is the device of the streaming harness example
// (include/ptovec_dut_stream.hpp, tests/rtl/stream) and of ptovec.cocotb.
//
// Same SystemVerilog subset as the combinational unit (Verilator 5.006 and Icarus Verilog 11 with
// -g2012, both without a warning). Compile both files; PTOVEC_PLANTED_BUG reaches the inner unit.
// PTOVEC_PLANTED_STALL_BUG plants a handshake bug for the back-pressure tests (tests/rtl/stream):
// the pipeline moves on whatever out_ready says, so a stalled result is overwritten (lost).
//
// Parameters:
//   STAGES    register stages between the conversion and the output (1 or more): the latency in
//             clocks from an accepted input to its output when out_ready stays high
//   TAG_BITS  width of the tag carried with each case (1 or more)
//
// Ports (synchronous, rising edge of clk):
//   rst_n         in   active-low synchronous reset: empties the pipeline
//   in_valid      in   a case is offered on in_*
//   in_ready      out  the unit takes the offered case at this edge (a stage is free, or the last
//                      stage's result leaves this edge): a case moves when in_valid && in_ready
//   in_tag        in   TAG_BITS of the caller's, returned with the result
//   in_src_type   in   5-bit TileDataType code: 1 FP32, 4 FP16, 5 BF16
//   in_value      in   32-bit source word (FP16 and BF16 in bits 15:0)
//   in_rmode      in   NumericRoundingMode 0 RNE .. 6 RHB
//   in_sat        in   NumericExecutionControl.saturating
//   out_valid     out  a result is on out_*; it stays until out_ready
//   out_ready     in   the consumer takes the result at this edge (back-pressure when low)
//   out_tag       out  in_tag of the case
//   out_supported out  the inner unit's `supported`
//   out_code      out  the E8M0 result
//   out_fflags    out  the status in RISC-V fflags order: bit 0 NX, 1 UF, 2 OF, 3 DZ, 4 NV
//                      (the reverse of ptovec's bit 0 NV .. bit 4 NX, which the harness maps)
module ptovec_tcvt_e8m0_pipe #(
    parameter int STAGES   = 3,
    parameter int TAG_BITS = 8
) (
    input  logic                clk,
    input  logic                rst_n,
    input  logic                in_valid,
    output logic                in_ready,
    input  logic [TAG_BITS-1:0] in_tag,
    input  logic [         4:0] in_src_type,
    input  logic [        31:0] in_value,
    input  logic [         2:0] in_rmode,
    input  logic                in_sat,
    output logic                out_valid,
    input  logic                out_ready,
    output logic [TAG_BITS-1:0] out_tag,
    output logic                out_supported,
    output logic [         7:0] out_code,
    output logic [         4:0] out_fflags
);
  // One stage's payload: {tag, supported, code, fflags}.
  localparam int Width = TAG_BITS + 1 + 8 + 5;

  logic       supported;
  logic [7:0] code;
  logic [4:0] status;  // ptovec order: bit 0 NV, 1 DZ, 2 OF, 3 UF, 4 NX
  ptovec_tcvt_e8m0 unit (
      .src_type (in_src_type),
      .value    (in_value),
      .rmode    (in_rmode),
      .sat      (in_sat),
      .supported(supported),
      .code     (code),
      .status   (status)
  );

  logic [Width-1:0] converted;
  assign converted = {in_tag, supported, code, status[0], status[1], status[2], status[3], status[4]};

  logic [Width-1:0] data_q [STAGES];
  logic [STAGES-1:0] valid_q;
  // ready_s[k]: stage k loads at this edge (it is empty, or its content moves on).
  logic [STAGES:0] ready_s;
  always @* begin
`ifdef PTOVEC_PLANTED_STALL_BUG
    ready_s[STAGES] = out_ready | 1'b1;  // the planted bug: the pipeline moves on while stalled
`else
    ready_s[STAGES] = out_ready;
`endif
    for (int k = STAGES - 1; k >= 0; k--) ready_s[k] = !valid_q[k] || ready_s[k+1];
  end
  assign in_ready = ready_s[0];

  always @(posedge clk) begin
    if (!rst_n) begin
      valid_q <= '0;
    end else begin
      if (ready_s[0]) begin
        valid_q[0] <= in_valid;
        data_q[0]  <= converted;
      end
      for (int k = 1; k < STAGES; k++) begin
        if (ready_s[k]) begin
          valid_q[k] <= valid_q[k-1];
          data_q[k]  <= data_q[k-1];
        end
      end
    end
  end

  assign out_valid = valid_q[STAGES-1];
  assign {out_tag, out_supported, out_code, out_fflags} = data_q[STAGES-1];
endmodule
