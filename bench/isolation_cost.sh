#!/bin/sh
# The cost of device isolation: the whole default suite through the oracle library device, once
# in a device host process (the default) and once --in-process, in one session.
#   bench/isolation_cost.sh [BUILD_DIR] [SUITE_DIR]
# BUILD_DIR defaults to build; SUITE_DIR (default /tmp/ptovec-isolation-suite) is generated first
# when it holds no manifest.json. Prints the wall time of each run and their ratio.
set -eu
build=${1:-build}
suite=${2:-/tmp/ptovec-isolation-suite}
ptovec=$build/tools/ptovec
dut=$build/tools/devices/libptovec_oracle_dut.so
[ -f "$suite/manifest.json" ] || "$ptovec" generate --out "$suite" --quiet
wall() {  # wall seconds of "$@" (stdout discarded; a non-zero exit stops the script)
  start=$(date +%s.%N)
  "$@" >/dev/null
  end=$(date +%s.%N)
  echo "$end - $start" | bc
}
isolated=$(wall "$ptovec" run --dut "$dut" --vectors "$suite" --quiet)
inprocess=$(wall "$ptovec" run --dut "$dut" --vectors "$suite" --quiet --in-process)
echo "isolated (device host): ${isolated} s"
echo "in-process:             ${inprocess} s"
echo "ratio:                  $(echo "scale=3; $isolated / $inprocess" | bc)"
