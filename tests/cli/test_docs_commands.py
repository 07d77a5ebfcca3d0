#!/usr/bin/python3
"""Every shell command the documentation shows is run: the ```sh blocks of README.md and
docs/*.md, with their exit status and the output they show.

The convention (also in docs/README.md):
- Only fenced blocks whose info string starts with `sh` are run. ```sh runs in CI (ctest
  ptovec_docs_commands_<K>of3, label files); ```sh long only in the long set (label long,
  PTOVEC_DOCS_LONG=1, which runs every block); ```sh long fresh runs in a folder of its own without
  the build tree, for a block that builds one. Blocks of other languages (text, yaml, python, c,
  systemverilog) and bare ``` blocks (transcripts) are not run: they hold other engines'
  configurations, program text or output.
- A command is a line that does not start with `#`, with its `\\` continuation lines. It must exit
  0, unless its trailing comment starts with `exit N` (`ptovec run ... # exit 1: the mutant
  fails`). A line `NAME=VALUE` sets a variable for the block's later commands.
- Lines starting with `#   ` (a hash and three spaces) right after a command are its output:
  each must equal, in order, a line of what the command printed (stdout and stderr together,
  blanks trimmed), where `...` stands for any text. A line `# text` is a comment.
- The blocks of one page run in order in one temporary folder: a view of the source tree (what
  git tracks and .venv, not what a user made by running these pages in their clone; its
  folders made anew, each file a link to the source's; docs/ and vectors/smoke copied, so
  the files a command writes stay in the folder), `build` linked to the build tree,
  HOME the folder itself, CI=1, and a `ptovec` on PATH that runs the build's ptovec.
- `scripts/setup` and `scripts/test` are not run here: CI itself runs scripts/test (.ci/run), and
  scripts/setup is its build plus `ptovec generate`.

Run by ctest with Debian's /usr/bin/python3 -m pytest (tests/cli/CMakeLists.txt); ptovec_cli.py
gives PTOVEC and PTOVEC_SOURCE_DIR, the build tree comes from PTOVEC_BUILD_DIR (default: the
folder above the ptovec binary's). PTOVEC_DOCS_SHARD=K/N runs the commands of every N-th page only
(ctest runs the shards in parallel), but the pages of OWN_ENTRY, which PTOVEC_DOCS_PAGE=PAGE runs
alone (docs/bring-up.md: ctest ptovec_bring_up_page), PTOVEC_DOCS_LONG=1 the ```sh long blocks too. Run as a script
(`PTOVEC=build/tools/ptovec /usr/bin/python3 tests/cli/test_docs_commands.py`) it runs pytest on
itself, with --long and --shard K/N for those two; `--list` prints each command with the way it
is run, and runs nothing. PTOVEC_DOCS_TIMES=1 prints each command's wall time.
"""
import glob
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

import pytest

from ptovec_cli import PTOVEC, SOURCE

LONG = bool(os.environ.get("PTOVEC_DOCS_LONG"))  # the ```sh long blocks too
SHARD = os.environ.get("PTOVEC_DOCS_SHARD")  # K/N: only the pages i with i % N == K
BUILD = os.environ.get("PTOVEC_BUILD_DIR") or os.path.dirname(
    os.path.dirname(os.path.abspath(PTOVEC)))
EXEMPT = ("scripts/setup", "scripts/test")
PAGE = os.environ.get("PTOVEC_DOCS_PAGE")  # only this page (its own ctest entry)
# Pages run by a ctest entry of their own (PTOVEC_DOCS_PAGE), not by the shards:
# ptovec_bring_up_page runs docs/bring-up.md's sections in order in one folder, as a newcomer.
OWN_ENTRY = ("docs/bring-up.md",)
LOCK_FILE = ".ptovec.lock"  # generator::FolderLock::kFileName (made while a ptovec uses a folder)
PAGES = ["README.md"] + sorted(
    os.path.relpath(p, SOURCE) for p in glob.glob(os.path.join(SOURCE, "docs", "*.md")))


class Command:
    """One command of a ```sh block: its text, expected exit status and output lines."""

    def __init__(self, page, line, text, status, block):
        self.page, self.line, self.text, self.status, self.block = page, line, text, status, block
        self.output = []

    def __str__(self):
        return f"{self.page}:{self.line}: {self.text}"


def trailing_comment(line):
    """The comment after a command on its line (outside quotes), or ''."""
    quote = None
    for i, c in enumerate(line):
        if quote:
            if c == quote:
                quote = None
        elif c in "'\"":
            quote = c
        elif c == "#" and (i == 0 or line[i - 1] in " \t"):
            return line[i + 1:].strip()
    return ""


def blocks(page):
    """(info words, first line number, lines) of each fenced block of `page`."""
    with open(os.path.join(SOURCE, page)) as f:
        lines = f.read().splitlines()
    out, i = [], 0
    while i < len(lines):
        if lines[i].startswith("```"):
            info, start, body = lines[i][3:].split(), i + 2, []
            i += 1
            while i < len(lines) and not lines[i].startswith("```"):
                body.append(lines[i])
                i += 1
            out.append((info, start, body))
        i += 1
    return out


def commands(page):
    """The commands of the ```sh blocks of `page`, in order; each block is (kind, [Command])."""
    out = []
    for info, start, body in blocks(page):
        if not info or info[0] != "sh":
            continue
        kind = "fresh" if "fresh" in info else "long" if "long" in info else "ci"
        block, current, j = [], None, 0
        while j < len(body):
            line, number = body[j], start + j
            if line.startswith("#   ") and current is not None:
                current.output.append(line[4:].strip())
            elif line.startswith("#") or not line.strip():
                current = None
            else:
                text = line
                while text.endswith("\\") and j + 1 < len(body):
                    j += 1
                    text = text[:-1] + " " + body[j].strip()
                match = re.match(r"exit (\d+)", trailing_comment(text))
                current = Command(page, number, text, int(match.group(1)) if match else 0, kind)
                block.append(current)
            j += 1
        out.append((kind, block))
    return out


def output_matches(expected, printed):
    """Whether each expected line equals, in order, one printed line (`...` = any text)."""
    lines = [line.strip() for line in printed.splitlines()]
    k = 0
    for want in expected:
        pattern = re.compile(".*".join(re.escape(part) for part in want.split("...")) + r"\Z")
        while k < len(lines) and not pattern.match(lines[k]):
            k += 1
        if k == len(lines):
            return False, want
        k += 1
    return True, None


def tracked_top_level():
    """The top-level names of the source tree that git tracks, and .venv: what a user made in
    their clone by following these pages (ptovec-run/, s8/, ...) is not part of the view, or a
    page's command would meet the user's own folder. Every name when the tree is not a git
    checkout."""
    listed = subprocess.run(["git", "-C", SOURCE, "ls-files", "-z"], capture_output=True)
    if listed.returncode != 0:
        return set(os.listdir(SOURCE))
    names = {p.split("/", 1)[0] for p in listed.stdout.decode().split("\0") if p}
    return names | {".venv"}


def source_view(folder, with_build):
    """Make `folder` look like the source tree (see the convention above)."""
    tracked = tracked_top_level()
    for name in os.listdir(SOURCE):
        path = os.path.join(SOURCE, name)
        if name in (".git", "docs", "vectors") or name.startswith("build") or name not in tracked:
            continue
        if os.path.isdir(path) and name != ".venv":
            # Folders of links to the files: what a command writes stays in the view.
            shutil.copytree(path, os.path.join(folder, name), copy_function=os.symlink,
                            ignore=shutil.ignore_patterns("__pycache__"))
        else:
            os.symlink(path, os.path.join(folder, name))
    shutil.copytree(os.path.join(SOURCE, "docs"), os.path.join(folder, "docs"))
    # Another test may be reading the source's smoke suite: its lock file is not the suite's.
    shutil.copytree(os.path.join(SOURCE, "vectors", "smoke"),
                    os.path.join(folder, "vectors", "smoke"),
                    ignore=shutil.ignore_patterns(LOCK_FILE))
    if with_build:
        os.symlink(BUILD, os.path.join(folder, "build"))
    shim = os.path.join(folder, ".ptovec-docs-bin")
    os.mkdir(shim)
    with open(os.path.join(shim, "ptovec"), "w") as f:
        f.write(f'#!/bin/sh\nexec "{os.path.abspath(PTOVEC)}" "$@"\n')
    os.chmod(os.path.join(shim, "ptovec"), 0o755)
    return dict(os.environ, HOME=folder, CI="1", PATH=shim + os.pathsep + os.environ["PATH"])


def run_page(page):
    """Run the commands of `page` (see the convention above); every command runs, and the test
    fails naming each that exited otherwise or did not print a shown line."""
    failures = []
    selected = [(kind, cmds) for kind, cmds in commands(page) if LONG or kind == "ci"]
    with tempfile.TemporaryDirectory(prefix="ptovec-docs-") as tmp:
        shared = os.path.join(tmp, "page")
        os.mkdir(shared)
        shared_env = source_view(shared, True)
        for n, (kind, cmds) in enumerate(selected):
            folder, env = shared, shared_env
            if kind == "fresh":
                folder = os.path.join(tmp, f"fresh{n}")
                os.mkdir(folder)
                env = source_view(folder, False)
            for cmd in cmds:
                if cmd.text.split()[0] in EXEMPT:
                    continue
                assignment = re.fullmatch(r"([A-Za-z_][A-Za-z0-9_]*)=(\S*)\s*(#.*)?", cmd.text)
                if assignment:
                    env[assignment.group(1)] = subprocess.run(
                        ["bash", "-c", f"printf %s {assignment.group(2)}"], env=env,
                        cwd=folder, capture_output=True, text=True).stdout
                    continue
                started = time.monotonic()
                r = subprocess.run(["bash", "-c", cmd.text], cwd=folder, env=env,
                                   stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                   text=True, errors="replace", timeout=3600)
                if os.environ.get("PTOVEC_DOCS_TIMES"):
                    print(f"{time.monotonic() - started:7.2f} s  {cmd}", file=sys.stderr)
                if r.returncode != cmd.status:
                    failures.append(f"{cmd}: exit {r.returncode}, the page shows {cmd.status}\n"
                                    f"{r.stdout[-3000:]}")
                    continue
                ok, missing = output_matches(cmd.output, r.stdout)
                if not ok:
                    failures.append(f"{cmd}: shown output line not printed: {missing!r}\n"
                                    f"printed:\n{r.stdout[-3000:]}")
        # A reader who runs the page at the top of a checkout must not find files added to the
        # committed smoke suite (a run writes its results file into --vectors unless --results).
        smoke = os.path.join("vectors", "smoke")
        # The source's listing leaves out the lock file a concurrent reader of it holds; the
        # view's keeps it, since a command of the page must not leave one behind.
        assert sorted(os.listdir(os.path.join(shared, smoke))) == sorted(
            n for n in os.listdir(os.path.join(SOURCE, smoke)) if n != LOCK_FILE), \
            f"{page}: its commands add files to {smoke}"
    assert not failures, "\n\n".join(failures)


def test_every_page_is_linked_from_the_readme():
    with open(os.path.join(SOURCE, "README.md")) as f:
        readme = f.read()
    for page in PAGES[1:]:
        assert f"({page})" in readme, page


def test_every_sh_block_holds_a_command():
    for page in PAGES:
        for kind, cmds in commands(page):
            assert cmds, f"{page}: a ```sh block without a command"


def shard_pages():
    """The pages of this shard (PTOVEC_DOCS_SHARD=K/N: the pages i with i % N == K, but those
    with a ctest entry of their own, OWN_ENTRY), the one page of PTOVEC_DOCS_PAGE, else all."""
    if PAGE:
        return [PAGE]
    if not SHARD:
        return PAGES
    k, n = (int(x) for x in SHARD.split("/"))
    return [page for number, page in enumerate(PAGES) if number % n == k and
            page not in OWN_ENTRY]


@pytest.mark.parametrize("page", shard_pages())
def test_commands_of(page):
    run_page(page)


if __name__ == "__main__":
    # By hand: --list prints the commands of every page, each with the way it is run, and runs
    # nothing; else pytest runs this file (--long: the ```sh long blocks too; --shard K/N).
    arguments = sys.argv[1:]
    if "--list" in arguments:
        for page in PAGES:
            for kind, cmds in commands(page):
                for cmd in cmds:
                    print(f"{kind:5} exit {cmd.status} out {len(cmd.output):2}  {cmd}")
        sys.exit(0)
    if "--long" in arguments:
        arguments.remove("--long")
        os.environ["PTOVEC_DOCS_LONG"] = "1"
    if "--shard" in arguments:
        i = arguments.index("--shard")
        os.environ["PTOVEC_DOCS_SHARD"] = arguments[i + 1]
        del arguments[i:i + 2]
    sys.exit(pytest.main(["-p", "no:cacheprovider", __file__, *arguments]))
