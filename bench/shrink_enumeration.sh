#!/bin/sh
# The speed of `ptovec shrink`'s enumeration: every enumerable pair of tcvt and of encode (8- and
# 16-bit sources, all 14 controls) through the oracle library device (in its device host process),
# with one sampled test for the other pairs. Prints the enumerated cases, the wall time, the rate
# and the peak memory of each run.
#   bench/shrink_enumeration.sh [BUILD_DIR]
set -eu
build=${1:-build}
ptovec=$build/tools/ptovec
dut=$build/tools/devices/libptovec_oracle_dut.so
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
for op in tcvt encode; do
  start=$(date +%s.%N)
  /usr/bin/time -f "%M" -o "$out/rss" "$ptovec" shrink --dut "$dut" --op "$op" --tests 1 \
    --out "$out/none.bin" --json >"$out/result.json"
  end=$(date +%s.%N)
  cases=$(python3 -c 'import json, sys
r = json.load(open(sys.argv[1]))
print(sum(p["cases"] for p in r["search"] if p["kind"] == "enumerated"))' "$out/result.json")
  seconds=$(echo "$end - $start" | bc)
  echo "$op: $cases cases enumerated in $seconds s ($(echo "$cases / $seconds" | bc) cases/s)," \
    "peak memory $(cat "$out/rss") KB"
done
