// The pipelined unit examples/rtl/ptovec_tcvt_e8m0_pipe.sv, verilated, as a `ptovec run --dut`
// device through ptovec's streaming harness (ptovec_dut_stream.hpp of the installed ptovec::dut):
// one case per clock through the valid/ready ports, a tag on each, the status port in RISC-V fflags
// order mapped to ptovec's, one model per calling thread (pipe_ports.hpp says how).
//
// It answers `tcvt` to E8M0 from FP16, BF16 and FP32 under the 7 modes and Sat; every other case
// is PTOVEC_DUT_UNSUPPORTED. STREAM_DEVICE_NAME names it (CMakeLists.txt beside this file).
//
// `--dut-arg` sets the harness: e.g. out_ready_percent=70,seed=3 for random back-pressure.
#include "pipe_ports.hpp"

PTOVEC_DUT_STREAM_DEVICE(ptovec_pipe::PipePorts, STREAM_DEVICE_NAME, ptovec_pipe::PipeConfig())
