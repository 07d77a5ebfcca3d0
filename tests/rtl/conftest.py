"""pytest options of tests/rtl/test_cocotb_device.py (ctest passes them: tests/rtl/CMakeLists.txt)."""
from pathlib import Path


def pytest_addoption(parser):
    group = parser.getgroup("ptovec cocotb device")
    group.addoption("--sim", choices=["icarus", "verilator"], help="the simulator")
    group.addoption("--ptovec", help="the ptovec program")
    group.addoption("--work", help="the folder of the simulator's builds")
    group.addoption("--smoke", type=Path, help="the smoke suite's folder")
    group.addoption("--fp16-e8m0", type=Path,
                    help="the default suite's tcvt fp16 -> e8m0 file")
    group.addoption("--correct", nargs="+", type=Path, metavar="PATH",
                    help="vector files or suite folders the RTL must pass")
    group.addoption("--stalls", nargs=2, default=["0.1", "0.3"], metavar=("IDLE", "BACKPRESSURE"),
                    help="with --correct: the chances of an empty input clock and of out_ready "
                    "low (0.1 0.3)")
