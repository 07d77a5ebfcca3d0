// ptovec_tcvt_e8m0: TCVT to E8M0 from FP16, BF16 and FP32, a combinational unit written from the
// ASL of seed 001 (PTO-ARCH-PROFILE-E8M0-CONVERSION, /work/shared/seeds/001_c13013f58bb35bbc.txt):
// ReferenceFloatToE8M0 (lines 103-152), ReferenceE8M0RoundExponent (lines 45-101),
// ReferenceE8M0HighestSetBit (lines 32-43) and HardwareTCVTE8M0SourceTypeSupported (lines 14-20),
// with the value classes and exact values of spec-notes section 4.
//
// Combinational, in the SystemVerilog subset Verilator 5.006 and Icarus Verilog 11 (-g2012)
// both accept (always @* rather than always_comb, which Icarus 11 reads with warnings).
//
// Ports (no parameters):
//   src_type  in   5-bit TileDataType code of the source: 1 FP32, 4 FP16, 5 BF16
//   value     in   32-bit source word; FP16 and BF16 use bits 15:0 (bits 31:16 are ignored)
//   rmode     in   NumericRoundingMode: 0 RNE, 1 RTM, 2 RTP, 3 RTZ, 4 RNA, 5 RTO, 6 RHB
//   sat       in   NumericExecutionControl.saturating
//   supported out  1 when src_type is FP16, BF16 or FP32 and rmode is 0..6; code and status are
//                  meaningful only then (otherwise 0xFF and 0x01)
//   code      out  the E8M0 result: code c is 2^(c-127), 0xFF is NaN
//   status    out  bit 0 NV, 1 DZ, 2 OF, 3 UF, 4 NX (ptovec's file and device bit order)
//
// Defining PTOVEC_PLANTED_BUG builds a wrong unit for the gates to catch: RTZ truncates the
// exponent (always the floor), forgetting that toward zero is up for negative exponents.
module ptovec_tcvt_e8m0 (
    input  logic [ 4:0] src_type,
    input  logic [31:0] value,
    input  logic [ 2:0] rmode,
    input  logic        sat,
    output logic        supported,
    output logic [ 7:0] code,
    output logic [ 4:0] status
);
  // TileDataType codes (spec-notes section 1).
  localparam logic [4:0] TileDataType_FP32 = 5'd1;
  localparam logic [4:0] TileDataType_FP16 = 5'd4;
  localparam logic [4:0] TileDataType_BF16 = 5'd5;
  // NumericRoundingMode order.
  localparam logic [2:0] NumericRound_RNE = 3'd0;
  localparam logic [2:0] NumericRound_RTM = 3'd1;
  localparam logic [2:0] NumericRound_RTP = 3'd2;
  localparam logic [2:0] NumericRound_RTZ = 3'd3;
  localparam logic [2:0] NumericRound_RNA = 3'd4;
  localparam logic [2:0] NumericRound_RTO = 3'd5;
  localparam logic [2:0] NumericRound_RHB = 3'd6;

  // HardwareTCVTE8M0SourceTypeSupported (seed 001 lines 14-20), and a legal rounding mode.
  logic source_supported;
  assign source_supported = src_type == TileDataType_FP32 || src_type == TileDataType_FP16 ||
                            src_type == TileDataType_BF16;
  assign supported = source_supported && rmode != 3'd7;

  // TileNumericValueClass and TileNumericFiniteDecomposition (spec-notes section 4), for the
  // classes the seed tells apart: value = significand * 2^exponent when finite.
  logic        negative;
  logic        is_nan;
  logic        is_infinity;
  logic        is_zero;
  logic [23:0] significand;  // FP32 2^23 + fraction at most
  logic signed [9:0] exponent;  // -149 (FP32 subnormal) .. 104 (FP32 largest exponent field)

  always @* begin
    negative    = 1'b0;
    is_nan      = 1'b0;
    is_infinity = 1'b0;
    is_zero     = 1'b0;
    significand = 24'd0;
    exponent    = 10'sd0;
    if (src_type == TileDataType_FP16) begin
      // sign 15, exponent 14:10 (bias 15), fraction 9:0: exponent 0 is f * 2^-24, else
      // (1024 + f) * 2^(e-25); exponent 31 is Inf (fraction 0) or NaN.
      negative    = value[15];
      is_infinity = value[14:10] == 5'h1f && value[9:0] == 10'd0;
      is_nan      = value[14:10] == 5'h1f && value[9:0] != 10'd0;
      is_zero     = value[14:0] == 15'd0;
      if (value[14:10] == 5'd0) begin
        significand = {14'd0, value[9:0]};
        exponent    = -10'sd24;
      end else begin
        significand = {13'd0, 1'b1, value[9:0]};
        exponent    = $signed({5'd0, value[14:10]}) - 10'sd25;
      end
    end else if (src_type == TileDataType_BF16) begin
      // sign 15, exponent 14:7 (bias 127), fraction 6:0: exponent 0 is f * 2^-133, else
      // (128 + f) * 2^(e-134); exponent 255 is Inf (fraction 0) or NaN.
      negative    = value[15];
      is_infinity = value[14:7] == 8'hff && value[6:0] == 7'd0;
      is_nan      = value[14:7] == 8'hff && value[6:0] != 7'd0;
      is_zero     = value[14:0] == 15'd0;
      if (value[14:7] == 8'd0) begin
        significand = {17'd0, value[6:0]};
        exponent    = -10'sd133;
      end else begin
        significand = {16'd0, 1'b1, value[6:0]};
        exponent    = $signed({2'd0, value[14:7]}) - 10'sd134;
      end
    end else begin
      // FP32: sign 31, exponent 30:23 (bias 127), fraction 22:0: exponent 0 is f * 2^-149, else
      // (2^23 + f) * 2^(e-150); exponent 255 is Inf (fraction 0) or NaN.
      negative    = value[31];
      is_infinity = value[30:23] == 8'hff && value[22:0] == 23'd0;
      is_nan      = value[30:23] == 8'hff && value[22:0] != 23'd0;
      is_zero     = value[30:0] == 31'd0;
      if (value[30:23] == 8'd0) begin
        significand = {1'b0, value[22:0]};
        exponent    = -10'sd149;
      end else begin
        significand = {1'b1, value[22:0]};
        exponent    = $signed({2'd0, value[30:23]}) - 10'sd150;
      end
    end
  end

  // ReferenceE8M0HighestSetBit (seed 001 lines 32-43): the last set position wins.
  logic [4:0] highest;
  always @* begin
    highest = 5'd0;
    for (int position = 0; position < 24; position++) begin
      if (significand[position]) highest = position[4:0];
    end
  end

  // floor_exponent = exponent + highest; exact_power = significand == 1 << highest.
  logic signed [9:0] floor_exponent;
  logic signed [9:0] ceiling_exponent;
  logic              exact_power;
  assign floor_exponent   = exponent + $signed({5'd0, highest});
  assign ceiling_exponent = floor_exponent + 10'sd1;
  assign exact_power      = significand == (24'd1 << highest);

  // ReferenceE8M0RoundExponent's nearest-mode comparison (seed 001 lines 77-86): the seed compares
  // significand^2 with 2^(2 * highest + 1); with the significand normalized to bit 23
  // (normalized = significand << (23 - highest)) that is normalized^2 against 2^47.
  logic [23:0] normalized;
  logic [47:0] square;
  logic        square_below;
  logic        square_above;
  assign normalized   = significand << (5'd23 - highest);
  assign square       = normalized * normalized;
  assign square_below = square < 48'h8000_0000_0000;
  assign square_above = square > 48'h8000_0000_0000;

  // ReferenceE8M0RoundExponent (seed 001 lines 45-101): the rounded exponent of an inexact
  // value (the exact power returns floor_exponent with exact TRUE before any mode is read).
  logic signed [9:0] rounded_exponent;
  always @* begin
    rounded_exponent = floor_exponent;
    if (rmode == NumericRound_RTM) begin
      rounded_exponent = floor_exponent;
    end else if (rmode == NumericRound_RTP) begin
      rounded_exponent = ceiling_exponent;
    end else if (rmode == NumericRound_RTZ) begin
`ifdef PTOVEC_PLANTED_BUG
      rounded_exponent = floor_exponent;
`else
      rounded_exponent = floor_exponent < 0 ? ceiling_exponent : floor_exponent;
`endif
    end else if (rmode == NumericRound_RTO) begin
      rounded_exponent = floor_exponent[0] ? floor_exponent : ceiling_exponent;
    end else if (square_below) begin
      rounded_exponent = floor_exponent;
    end else if (square_above) begin
      rounded_exponent = ceiling_exponent;
    end else if (rmode == NumericRound_RNE) begin
      // A tie cannot occur (significand^2 is never an odd power of two); kept as the seed says.
      rounded_exponent = floor_exponent[0] ? ceiling_exponent : floor_exponent;
    end else if (rmode == NumericRound_RNA) begin
      rounded_exponent = floor_exponent < 0 ? floor_exponent : ceiling_exponent;
    end else begin
      // NumericRound_RHB
      rounded_exponent = ceiling_exponent;
    end
    if (exact_power) rounded_exponent = floor_exponent;
  end

  // ReferenceFloatToE8M0 (seed 001 lines 103-152).
  logic signed [9:0] biased;
  assign biased = rounded_exponent + 10'sd127;
  always @* begin
    if (!supported || is_nan || is_zero || negative) begin
      code   = 8'hff;
      status = 5'h01;
    end else if (is_infinity) begin
      code   = sat ? 8'hfe : 8'hff;
      status = 5'h14;
    end else if (floor_exponent < -10'sd127) begin
      code   = sat ? 8'h00 : 8'hff;
      status = 5'h18;
    end else if (floor_exponent == 10'sd127 && !exact_power) begin
      code   = sat ? 8'hfe : 8'hff;
      status = 5'h14;
    end else begin
      code   = biased[7:0];
      status = exact_power ? 5'h00 : 5'h10;
    end
  end

  // Unused by design: NumericRound_RHB and NumericRound_RNE name branches above; biased[9:8] are
  // zero (rounded_exponent is -127..127 whenever code reads biased).
  logic unused_bits;
  assign unused_bits = ^{NumericRound_RHB, NumericRound_RNE, biased[9:8]};
endmodule
