#!/usr/bin/python3
"""docs/semantics.md stays true: every `$ ptovec eval ...` example prints exactly the line the page
shows under it, every op of the registry has its section, and every rounding mode its row.

Run by ctest with Debian's /usr/bin/python3; PTOVEC and PTOVEC_SOURCE_DIR come from the
environment (or --ptovec PATH --source DIR before the unittest arguments).
"""
import json
import os
import shlex
import subprocess
import unittest

from ptovec_cli import PTOVEC, SOURCE

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


class SemanticsPageTest(unittest.TestCase):
    def test_every_example_is_what_eval_prints(self):
        found = examples()
        self.assertGreaterEqual(len(found), 20)
        for args, expected in found:
            with self.subTest(" ".join(args)):
                r = subprocess.run([PTOVEC, *args], capture_output=True, text=True, timeout=60)
                self.assertEqual(r.returncode, 0, r.stderr)
                self.assertEqual(r.stdout.strip(), expected)

    def test_every_op_and_mode_is_described(self):
        with open(PAGE) as f:
            page = f.read()
        ops = [op["op"] for op in json.loads(
            subprocess.run([PTOVEC, "list", "--json"], capture_output=True, text=True).stdout)]
        self.assertEqual(len(ops), 8)
        for op in ops:
            self.assertIn(f"### `{op}`", page, op)
        for number, mode in enumerate(["RNE", "RTM", "RTP", "RTZ", "RNA", "RTO", "RHB"]):
            self.assertIn(f"| {number} | {mode} |", page, mode)


if __name__ == "__main__":
    unittest.main()
