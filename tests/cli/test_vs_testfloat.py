#!/usr/bin/python3
"""bench/vs_testfloat finds its testfloat_gen as documented: none given -> a skip line and exit 0;
a path that is not a program -> one error line naming it and exit 1; a program given by
TESTFLOAT_GEN or --testfloat-gen -> the table of both pairs with their two ratios. The stand-in
generator here prints TestFloat's line shape (f32_to_f16: input, result, flags) `-n` times; the
ratios it gives are not measurements (those come from a real TestFloat 3e, docs/benchmarks).

Run by ctest with Debian's /usr/bin/python3; PTOVEC and PTOVEC_SOURCE_DIR from the environment.
"""
import os
import re
import stat
import subprocess
import tempfile
import unittest

from ptovec_cli import PTOVEC, SOURCE

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


class VsTestFloatTest(unittest.TestCase):
    def test_without_a_testfloat_gen_it_skips_with_a_line(self):
        r = run()
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertEqual(r.stdout.strip(),
                         "vs_testfloat: skipped: no testfloat_gen given (set TESTFLOAT_GEN or "
                         "pass --testfloat-gen PATH to one you built from TestFloat 3e)")

    def test_a_path_that_is_not_a_program_is_named(self):
        r = run(env={"TESTFLOAT_GEN": "/nonexistent/testfloat_gen"})
        self.assertEqual(r.returncode, 1)
        self.assertEqual(r.stderr.strip(),
                         "vs_testfloat: TESTFLOAT_GEN '/nonexistent/testfloat_gen' is not an "
                         "executable file (expected the path of a testfloat_gen built from "
                         "TestFloat 3e)")
        r = run("--testfloat-gen", SOURCE)
        self.assertEqual(r.returncode, 1)
        self.assertIn(f"--testfloat-gen '{SOURCE}' is not an executable file", r.stderr)

    def test_times_both_pairs_with_a_given_program(self):
        with tempfile.TemporaryDirectory() as tmp:
            gen = os.path.join(tmp, "testfloat_gen")
            with open(gen, "w") as f:
                f.write(STAND_IN)
            os.chmod(gen, os.stat(gen).st_mode | stat.S_IEXEC)
            for how in (dict(env={"TESTFLOAT_GEN": gen}), dict(args=("--testfloat-gen", gen))):
                with self.subTest(next(iter(how))):
                    r = run("--inputs", "1400", "--repeats", "1", "--work",
                            os.path.join(tmp, "work"), *how.get("args", ()), env=how.get("env"))
                    self.assertEqual(r.returncode, 0, r.stderr)
                    lines = r.stdout.splitlines()
                    self.assertEqual(lines[0], "one thread each, median CPU seconds of 1 "
                                     "alternating runs; vectors per CPU second")
                    for dst, function in (("fp16", "f32_to_f16"), ("bf16", "f32_to_bf16")):
                        self.assertIn(f"testfloat_gen -level 2 -n 1400 {function}", r.stdout)
                        self.assertRegex(r.stdout, rf"fp32 -> {dst} +ptovec --samples 100 "
                                         r"\(x 14 controls\) ")
                        ratios = re.search(rf"fp32 -> {dst} +ratio \(i\) each tool's own vector: "
                                           r"([0-9.]+); ratio \(ii\) like for like: ([0-9.]+)",
                                           r.stdout)
                        self.assertIsNotNone(ratios, r.stdout)
                    self.assertEqual(os.listdir(os.path.join(tmp, "work")), [])


if __name__ == "__main__":
    unittest.main()
