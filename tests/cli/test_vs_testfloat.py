#!/usr/bin/python3
"""bench/vs_testfloat finds its testfloat_gen as documented: none given -> a skip line and exit 0;
a path that is not a program -> one error line naming it and exit 1; a program given by
TESTFLOAT_GEN or --testfloat-gen -> the table of both pairs with their two ratios. The stand-in
generator here prints TestFloat's line shape (f32_to_f16: input, result, flags) `-n` times; the
ratios it gives are not measurements (those come from a real TestFloat 3e, docs/benchmarks).

Run by ctest (tests/cli/CMakeLists.txt) with Debian's /usr/bin/python3 -m pytest; the helper
ptovec_cli.py gives ptovec(*args) and this build's paths.
"""
import os
import re
import stat
import subprocess
import tempfile

from ptovec_cli import PTOVEC, SOURCE, subtest

SCRIPT = os.path.join(SOURCE, "bench", "vs_testfloat")

STAND_IN = """#!/usr/bin/python3
import sys
n = int(sys.argv[sys.argv.index("-n") + 1])
sys.stdout.write("3F800000 3C00 00\\n" * n)
"""


def run(*args, env=None):
    environment = {k: v for k, v in os.environ.items() if k != "TESTFLOAT_GEN"}
    environment.update(env or {})
    return subprocess.run([SCRIPT, "--ptovec", PTOVEC, *args], capture_output=True, text=True,
                          env=environment, timeout=300)


class TestVsTestFloat:
    def test_without_a_testfloat_gen_it_skips_with_a_line(self):
        r = run()
        assert r.returncode == 0, r.stderr
        assert r.stdout.strip() == ("vs_testfloat: skipped: no testfloat_gen given (set TESTFLOAT_GEN or "
                         "pass --testfloat-gen PATH to one you built from TestFloat 3e)")

    def test_a_path_that_is_not_a_program_is_named(self):
        r = run(env={"TESTFLOAT_GEN": "/nonexistent/testfloat_gen"})
        assert r.returncode == 1
        assert r.stderr.strip() == ("vs_testfloat: TESTFLOAT_GEN '/nonexistent/testfloat_gen' is not an "
                         "executable file (expected the path of a testfloat_gen built from "
                         "TestFloat 3e)")
        r = run("--testfloat-gen", SOURCE)
        assert r.returncode == 1
        assert f"--testfloat-gen '{SOURCE}' is not an executable file" in r.stderr

    def test_times_both_pairs_with_a_given_program(self):
        with tempfile.TemporaryDirectory() as tmp:
            gen = os.path.join(tmp, "testfloat_gen")
            with open(gen, "w") as f:
                f.write(STAND_IN)
            os.chmod(gen, os.stat(gen).st_mode | stat.S_IEXEC)
            for how in (dict(env={"TESTFLOAT_GEN": gen}), dict(args=("--testfloat-gen", gen))):
                with subtest(next(iter(how))):
                    r = run("--inputs", "1400", "--repeats", "1", "--work",
                            os.path.join(tmp, "work"), *how.get("args", ()), env=how.get("env"))
                    assert r.returncode == 0, r.stderr
                    lines = r.stdout.splitlines()
                    assert lines[0] == ("one thread each, median CPU seconds of 1 "
                                     "alternating runs; vectors per CPU second")
                    for dst, function in (("fp16", "f32_to_f16"), ("bf16", "f32_to_bf16")):
                        assert f"testfloat_gen -level 2 -n 1400 {function}" in r.stdout
                        assert re.search((rf"fp32 -> {dst} +ptovec --samples 100 "
                                         r"\(x 14 controls\) "), r.stdout)
                        ratios = re.search(rf"fp32 -> {dst} +ratio \(i\) each tool's own vector: "
                                           r"([0-9.]+); ratio \(ii\) like for like: ([0-9.]+)",
                                           r.stdout)
                        assert ratios is not None, r.stdout
                    assert os.listdir(os.path.join(tmp, "work")) == []
