"""docs/testing.md's table gives each label's test count of this build (only when PTOVEC_BUILD_DIR
names a Release build without the long tests).

Run by ctest (tests/cli/CMakeLists.txt) with Debian's /usr/bin/python3 -m pytest; the helper
ptovec_cli.py gives ptovec(*args) and this build's paths.
"""
import os
import re
import subprocess

import pytest

from ptovec_cli import SOURCE


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
