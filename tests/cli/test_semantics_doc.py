#!/usr/bin/python3
"""docs/semantics.md stays true: every `$ ptovec eval ...` example prints exactly the line the page
shows under it, every op of the registry has its section, and every rounding mode its row.

Run by ctest (tests/cli/CMakeLists.txt) with Debian's /usr/bin/python3 -m pytest; the helper
ptovec_cli.py gives ptovec(*args) and this build's paths.
"""
import json
import os
import shlex
import subprocess

from ptovec_cli import PTOVEC, SOURCE, subtest

PAGE = os.path.join(SOURCE, "docs", "semantics.md")


def examples():
    """(command arguments, expected output line) for each `$ ptovec eval` line of the page."""
    with open(PAGE) as f:
        lines = f.read().splitlines()
    out = []
    for i, line in enumerate(lines):
        if line.startswith("$ ptovec eval "):
            out.append((shlex.split(line[len("$ ptovec "):]), lines[i + 1]))
    return out


class TestSemanticsPage:
    def test_every_example_is_what_eval_prints(self):
        found = examples()
        assert len(found) >= 20
        for args, expected in found:
            with subtest(" ".join(args)):
                # At the top of the source tree: an example's --model file is named from there.
                r = subprocess.run([PTOVEC, *args], capture_output=True, text=True, timeout=60,
                                   cwd=SOURCE)
                assert r.returncode == 0, r.stderr
                assert r.stdout.strip() == expected

    def test_every_op_and_mode_is_described(self):
        with open(PAGE) as f:
            page = f.read()
        ops = [op["op"] for op in json.loads(
            subprocess.run([PTOVEC, "list", "--json"], capture_output=True, text=True).stdout)]
        assert len(ops) == 8
        for op in ops:
            assert f"### `{op}`" in page, op
        for number, mode in enumerate(["RNE", "RTM", "RTP", "RTZ", "RNA", "RTO", "RHB"]):
            assert f"| {number} | {mode} |" in page, mode
