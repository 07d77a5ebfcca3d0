#!/usr/bin/env python3
"""Throughput of the Python package (run by hand, not a test): cases per second of
``ptovec.evaluate`` (one batch call over numpy arrays) against ``ptovec.eval`` (one call a case),
two Python threads sharing one batch (evaluate releases the GIL), and, when given, the C API's
batch from Google Benchmark (bench/bench_capi.cpp), on tcvt FP16 -> E8M0 under RNE.

    PYTHONPATH=<folder the package is installed in> python3 bench/bench_python.py \
        [--cases 1000000] [--repeat 5] [--bench-capi build/bench/ptovec_bench_capi]

Each figure is the best of --repeat runs, by the wall clock (time.perf_counter) and by this
process's CPU time (time.process_time; Google Benchmark's items_per_second is by CPU time too),
which stays meaningful on a loaded machine. The inputs are --cases FP16 words drawn with a fixed
seed (every code equally likely).
"""
import argparse
import json
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor

import numpy as np

import ptovec


def best_seconds(run, repeat):
    """The shortest (wall, CPU) seconds of `repeat` calls of run()."""
    wall = cpu = float("inf")
    for _ in range(repeat):
        start, start_cpu = time.perf_counter(), time.process_time()
        run()
        wall = min(wall, time.perf_counter() - start)
        cpu = min(cpu, time.process_time() - start_cpu)
    return wall, cpu


def report(what, cases, seconds):
    """One line: cases per second by wall clock and by CPU time."""
    wall, cpu = seconds
    print(f"{what:<36}{cases / wall:14,.0f} cases/s wall {cases / cpu:14,.0f} cases/s CPU")


def capi_batch_seconds(program):
    """(wall, CPU) seconds a case of BM_CApiBatch (65,536 FP16 codes a call, ptovec_bench_capi)."""
    out = subprocess.run([program, "--benchmark_filter=^BM_CApiBatch$", "--benchmark_format=json",
                          "--benchmark_repetitions=3"],
                         check=True, capture_output=True, text=True).stdout
    runs = [b for b in json.loads(out)["benchmarks"] if b.get("run_type") == "iteration"]
    scale = {"ns": 1e-9, "us": 1e-6, "ms": 1e-3}[runs[0]["time_unit"]] / 65536
    return (min(b["real_time"] for b in runs) * scale, min(b["cpu_time"] for b in runs) * scale)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--cases", type=int, default=1_000_000, help="cases a batch (default 1M)")
    parser.add_argument("--repeat", type=int, default=5, help="runs of each (default 5)")
    parser.add_argument("--single", type=int, default=100_000,
                        help="cases of the one-call-a-case figure (default 100,000)")
    parser.add_argument("--bench-capi", metavar="PROGRAM",
                        help="build/bench/ptovec_bench_capi, for the C API's batch rate")
    args = parser.parse_args(argv)
    if args.cases < 2 or args.repeat < 1 or args.single < 1:
        parser.error("--cases must be at least 2, --repeat and --single at least 1")

    words = np.random.default_rng(1).integers(0, 1 << 16, args.cases, dtype=np.uint64)
    print(f"ptovec {ptovec.version()} ({ptovec.__file__}), numpy {np.__version__}, "
          f"tcvt fp16 -> e8m0 RNE, {args.cases:,} cases, best of {args.repeat}")

    def batch():
        return ptovec.evaluate("tcvt", "fp16", "e8m0", words, "RNE", False)

    report("ptovec.evaluate, one call", args.cases, best_seconds(batch, args.repeat))

    halves = np.array_split(words, 2)
    with ThreadPoolExecutor(2) as pool:
        def threaded():
            return list(pool.map(
                lambda part: ptovec.evaluate("tcvt", "fp16", "e8m0", part, "RNE", False), halves))
        report("ptovec.evaluate, 2 threads (halves)", args.cases,
               best_seconds(threaded, args.repeat))

    few = [int(w) for w in words[:args.single]]

    def one_by_one():
        for w in few:
            ptovec.eval("tcvt", "fp16", "e8m0", w, "RNE", False)

    report(f"ptovec.eval, a call a case ({len(few):,})", len(few),
           best_seconds(one_by_one, args.repeat))
    if args.bench_capi:
        report("C API batch (BM_CApiBatch, C++)", 1, capi_batch_seconds(args.bench_capi))
    return 0


if __name__ == "__main__":
    sys.exit(main())
