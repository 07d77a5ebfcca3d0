"""docs/testing.md's table gives each label's test count of this build (only when PTOVEC_BUILD_DIR
names a Release build without the long tests); the end of a scripts/test log is its verdict: the
mutant run it ends with says the mutant was caught, as expected, in one line (no FAIL line), and
ctest lists no disabled test above it.

Run by ctest (tests/cli/CMakeLists.txt) with Debian's /usr/bin/python3 -m pytest; the helper
ptovec_cli.py gives ptovec(*args) and this build's paths.
"""
import os
import re
import subprocess

import pytest

from ptovec_cli import ALWAYS_UP, PTOVEC, SOURCE, generate


class TestLabelCounts:
    BUILD = os.environ.get("PTOVEC_BUILD_DIR")

    @pytest.mark.skipif(not BUILD, reason="PTOVEC_BUILD_DIR is not set (not a Release build)")
    def test_label_counts_are_this_builds(self):
        with open(os.path.join(SOURCE, "docs", "testing.md")) as f:
            rows = re.findall(r"^\| `([a-z]+)` \| (\d+) \|", f.read(), re.M)
        assert len(rows) >= 10
        for label, count in rows:
            r = subprocess.run(["ctest", "--test-dir", self.BUILD, "-N", "-L", f"^{label}$"],
                               capture_output=True, text=True, timeout=120)
            total = re.search(r"Total Tests: (\d+)", r.stdout)
            assert total is not None, (r.stdout + r.stderr)
            assert int(total.group(1)) == int(count), (f"docs/testing.md says label {label} has {count} tests, "
                             f"ctest -N -L ^{label}$ lists {total.group(1)}")


class TestLogTail:
    def test_the_mutant_run_reads_as_expected(self, tmp_path):
        # scripts/test's last step, on a small tcvt suite: one line saying the mutant was caught.
        scan = os.environ.get("PTOVEC_MUTANT_SCAN")
        assert scan and ALWAYS_UP, "PTOVEC_MUTANT_SCAN and PTOVEC_MUTANT_E8M0_ALWAYS_UP must be set"
        vectors = str(tmp_path / "vectors")
        generate(vectors, "--op", "tcvt", "--dst", "e8m0", "--samples", "1000")
        r = subprocess.run(["/usr/bin/python3", os.path.join(SOURCE, "tests", "mutants",
                                                             "run_mutants.py"),
                            "run", "--ptovec", PTOVEC, "--scan", scan, "--vectors", vectors,
                            "--dut", ALWAYS_UP, "--name", "e8m0_always_up", "--work",
                            str(tmp_path / "work")], capture_output=True, text=True, timeout=300)
        assert r.returncode == 0, (r.stdout + r.stderr)
        assert "FAIL" not in r.stdout + r.stderr
        lines = r.stdout.splitlines()
        assert len(lines) == 1, r.stdout
        assert re.match(r"run_mutants: mutant run: e8m0_always_up caught, [1-9]\d* mismatches of "
                        r"\d+ vectors \(expected: a mutant must fail; report in ", lines[0]), lines[0]
        report = (tmp_path / "work" / "e8m0_always_up" / "report.txt").read_text()
        assert "\nFAIL: " in report

    def test_ctest_lists_no_disabled_test(self):
        # This build's tree: the folder above the ptovec binary's (build/tools/ptovec).
        build = os.path.dirname(os.path.dirname(os.path.abspath(PTOVEC)))
        r = subprocess.run(["ctest", "--test-dir", build, "-N"],
                           capture_output=True, text=True, timeout=120)
        assert r.returncode == 0, r.stderr
        assert "(Disabled)" not in r.stdout, [l for l in r.stdout.splitlines() if "Disabled" in l]
