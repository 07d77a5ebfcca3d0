#!/usr/bin/python3
"""`ptovec run --exhaustive`: every input code of a pair through a device, checked as it goes.

The oracle device passes every FP16 and BF16 code; a mutant's disagreements are counted and its
first one named; shards add up to the whole run and give its first mismatch; --threads never
changes the report; a version-1 device that is not thread-safe (F16C) is driven from several
threads one call at a time; bad option combinations are one-line errors.

Run by ctest (tests/cli/CMakeLists.txt) with Debian's /usr/bin/python3 -m pytest; the helper
ptovec_cli.py gives ptovec(*args) and this build's paths (the oracle
device, the mutant e8m0_always_up, the F16C device).
"""
import os
import re
import shutil
import tempfile

import pytest

from ptovec_cli import ALWAYS_UP, ORACLE_DUT as ORACLE, ptovec

F16C = os.environ.get("PTOVEC_F16C_DUT")


def exhaustive(dut, op, src, dst, *extra):
    return ptovec("run", "--exhaustive", "--dut", dut, "--op", op, "--src", src, "--dst", dst,
                  "--quiet", *extra)


def totals(stdout):
    """(vectors, matched, mismatched, unsupported) of a report's first line."""
    m = re.search(r"(\d+) vectors?: (\d+) matched, (\d+) mismatched, (\d+) unsupported", stdout)
    return tuple(int(x) for x in m.groups())


@pytest.mark.skipif(not ORACLE, reason="PTOVEC_ORACLE_DUT is not set")
class TestRunExhaustive:
    def test_the_oracle_passes_every_code(self):
        r = exhaustive(ORACLE, "tcvt", "fp16", "e8m0")
        assert r.returncode == 0, (r.stdout + r.stderr)
        assert totals(r.stdout) == (917504, 917504, 0, 0)  # 65536 codes x 14 controls
        assert r.stdout.rstrip().endswith("PASS")
        # encode takes finite values: the 2048 NaN and Inf codes of FP16 are skipped.
        r = exhaustive(ORACLE, "encode", "fp16", "e4m3")
        assert r.returncode == 0, r.stderr
        assert totals(r.stdout) == (63488 * 14, 63488 * 14, 0, 0)

    def test_a_control_filter_runs_only_those_controls(self):
        r = exhaustive(ORACLE, "tcvt", "bf16", "e8m0", "--rmode", "RTZ,RTP", "--sat", "on")
        assert r.returncode == 0, r.stderr
        assert totals(r.stdout) == (131072, 131072, 0, 0)

    @pytest.mark.skipif(not ALWAYS_UP, reason="PTOVEC_MUTANT_E8M0_ALWAYS_UP is not set")
    def test_a_mutant_is_caught_and_shards_add_up(self):
        whole = exhaustive(ALWAYS_UP, "tcvt", "bf16", "e8m0", "--max-report", 1, "--threads", 1)
        assert whole.returncode == 1, whole.stderr
        vectors, matched, mismatched, unsupported = totals(whole.stdout)
        assert (vectors, unsupported) == (917504, 0)
        assert mismatched > 100000
        # Rounding up where RNE rounds down: the first is BF16 0x0041 (65 x 2^-133, just above
        # 2^-127), case 0x41 x 14 = 910: RNE gives 0x00 (2^-127), rounding up 0x01.
        assert "vector 910: tcvt bf16 -> e8m0 RNE sat=off value=0x0041" in whole.stdout
        assert "expected 0x00 flags 0x10 (NX), got 0x01 flags 0x10 (NX)" in whole.stdout
        rne = ptovec("eval", "--op", "tcvt", "--src", "bf16", "--dst", "e8m0", "0x0041")
        assert '"out":"0x00","flags":"0x10"' in rne.stdout
        rtp = ptovec("eval", "--op", "tcvt", "--src", "bf16", "--dst", "e8m0", "--rmode", "RTP",
                     "0x0041")
        assert '"out":"0x01","flags":"0x10"' in rtp.stdout
        # Any thread count: the same report, byte for byte.
        threaded = exhaustive(ALWAYS_UP, "tcvt", "bf16", "e8m0", "--max-report", 1, "--threads", 2)
        assert threaded.stdout == whole.stdout
        # Three shards: their counts add up to the whole run's; the first shard starts it.
        parts = [exhaustive(ALWAYS_UP, "tcvt", "bf16", "e8m0", "--max-report", 1, "--shard",
                            f"{k}/3") for k in range(3)]
        sums = [sum(x) for x in zip(*(totals(p.stdout) for p in parts))]
        assert tuple(sums) == (vectors, matched, mismatched, unsupported)
        assert "vector 910: tcvt bf16 -> e8m0 RNE sat=off value=0x0041" in parts[0].stdout
        # Shard 2/3 starts at code floor(2 * 65536 / 3) = 43690 (0xaaaa): its case numbers count
        # from there.
        assert "value=0x0041" not in parts[2].stdout

    def test_junit_is_written(self):
        tmp = tempfile.mkdtemp(prefix="ptovec-exhaustive-")
        try:
            junit = os.path.join(tmp, "junit.xml")
            r = exhaustive(ORACLE, "tcvt", "fp16", "e8m0", "--junit", junit)
            assert r.returncode == 0, r.stderr
            with open(junit) as f:
                text = f.read()
            assert "tcvt_fp16_e8m0 (exhaustive)" in text
        finally:
            shutil.rmtree(tmp, ignore_errors=True)

    @pytest.mark.skipif(not F16C, reason="PTOVEC_F16C_DUT is not set (not x86-64)")
    def test_a_version_1_device_from_several_threads(self):
        # The small positive FP32 words of shard 3/4096 (0x00300000..0x003fffff) are FP32
        # subnormals: F16C agrees on every one for RNE RTM RTP RTZ (both Sat) and answers
        # UNSUPPORTED for RNA, RTO and RHB.
        one = exhaustive(F16C, "encode", "fp32", "fp16", "--shard", "3/4096", "--threads", 1)
        two = exhaustive(F16C, "encode", "fp32", "fp16", "--shard", "3/4096", "--threads", 2)
        assert one.stdout == two.stdout
        assert totals(one.stdout) == (1048576 * 14, 1048576 * 8, 0, 1048576 * 6)
        assert one.returncode == 1
        # A device that implements some modes only: --allow-unsupported gates what it implements
        # and says how much it skipped (JUnit: skipped test cases, not failures).
        tmp = tempfile.mkdtemp(prefix="ptovec-exhaustive-")
        try:
            junit = os.path.join(tmp, "junit.xml")
            r = exhaustive(F16C, "encode", "fp32", "fp16", "--shard", "3/4096",
                           "--allow-unsupported", "--junit", junit)
            assert r.returncode == 0, (r.stdout + r.stderr)
            assert ("PASS with 6291456 unsupported vectors skipped (--allow-unsupported): "
                          "8388608 of 14680064 vectors checked and matched") in r.stdout
            with open(junit) as f:
                xml = f.read()
            assert 'tests="14" failures="0" errors="0" skipped="6"' in xml
            assert xml.count("<skipped message=") == 6
        finally:
            shutil.rmtree(tmp, ignore_errors=True)

    def test_bad_combinations_are_one_line_errors(self):
        for args, expected in (
                (["--op", "tquant", "--src", "fp32", "--dst", "s8"],
                 "--exhaustive enumerates ops of one input word (tcvt, encode); tquant takes 3 inputs"),
                (["--op", "tcvt", "--src", "fp32"], "--exhaustive needs --op, --src and --dst"),
                (["--op", "tcvt", "--src", "fp32", "--dst", "e8m0", "--vectors", "x"],
                 "--exhaustive takes its inputs from --op/--src/--dst and writes no results file"),
                (["--op", "tcvt", "--src", "fp32", "--dst", "e8m0", "--shard", "2/2"],
                 "--shard '2/2': K must be below N"),
                (["--op", "encode", "--src", "fp32", "--dst", "e8m0"],
                 "encode does not accept fp32 -> e8m0")):
            r = ptovec("run", "--exhaustive", "--dut", ORACLE, *args)
            assert r.returncode == 2, args
            assert expected in r.stderr.strip().splitlines()[-1]
        r = ptovec("run", "--dut", ORACLE, "--vectors", "x", "--shard", "0/2")
        assert r.returncode == 2
        assert "--shard goes with --op (generate shard K/N and run it) or --exhaustive" in r.stderr
