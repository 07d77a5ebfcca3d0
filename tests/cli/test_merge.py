"""Shards and `ptovec merge`: `generate --shard K/N`, run as N separate processes by GNU parallel,
and `ptovec merge` give files and a manifest byte-identical to the unsharded run's, and so do the
results of shard runs; `run --shard` generates and runs one shard; merge refuses missing,
overlapping, mismatched and corrupted shards with one line each.

Run by ctest (tests/cli/CMakeLists.txt) with Debian's /usr/bin/python3 -m pytest; the helper
ptovec_cli.py gives ptovec(*args) and this build's paths.
"""
import filecmp
import json
import os
import shutil
import subprocess

from ptovec_cli import (ORACLE_DUT, PTOVEC, SOURCE, Scratch, error_of, files, ptovec,
                        read_bin_header)


def require_parallel():
    """Fails (never skips) without GNU parallel: scripts/install-deps installs it (Debian:
    parallel), and a shard test that skips in CI tests nothing."""
    assert shutil.which("parallel"), ("GNU parallel is not installed: scripts/install-deps "
                                      "installs it (Debian package parallel)")


class TestShards(Scratch):
    def test_install_deps_installs_gnu_parallel(self):
        # The packages list of scripts/install-deps (one bash array, one or more per line).
        with open(os.path.join(SOURCE, "scripts", "install-deps")) as f:
            text = f.read()
        listed = text.split("packages=(", 1)[1].split("\n)", 1)[0]
        words = {w for line in listed.splitlines() for w in line.split("#", 1)[0].split()}
        assert "parallel" in words, words

    def test_shards_run_by_gnu_parallel_merge_to_the_unsharded_files(self):
        require_parallel()
        selection = ["--op", "encode", "--src", "fp32", "--samples", 3000, "--format", "both",
                     "--seed", 9]
        whole = self.generate("whole", *selection)
        # Four shards, each its own process, as a job-array engine would run them.
        command = [shutil.which("parallel"), "--will-cite", "--halt", "now,fail=1", "-j", "4",
                   PTOVEC, "generate", *map(str, selection), "--quiet", "--shard", "{}/4",
                   "--out", self.path("shard{}"), ":::", "0", "1", "2", "3"]
        r = subprocess.run(command, capture_output=True, text=True, timeout=600,
                           env=dict(os.environ, CI="1"))
        assert r.returncode == 0, r.stderr
        shard = self.generate_manifest("shard2")
        self.assert_valid("manifest", shard)
        assert shard["shard"] == {"index": 2, "of": 4}
        header, records = files.read_vectors(self.path("shard2", "encode_fp32_fp16.bin"))
        self.assert_valid("binary-header", header)
        assert header["shard"] == ({"index": 2, "of": 4, "first_input": 1500, "inputs": 750,
                                           "first_record": 21000, "total_records": 42000})
        assert len(records) == (750 * 14)
        r = ptovec("merge", self.path("shard3"), self.path("shard1"), self.path("shard0"),
                   self.path("shard2"), "--out", self.path("merged"))
        assert r.returncode == 0, r.stderr
        compare = filecmp.dircmp(self.path("whole"), self.path("merged"))
        assert (compare.left_only, compare.right_only) == ([], [])
        names = sorted(os.listdir(self.path("whole")))
        assert len(names) == 27  # 13 pairs x (bin, json) + manifest.json
        _, mismatch, errors = filecmp.cmpfiles(self.path("whole"), self.path("merged"), names,
                                               shallow=False)
        assert (mismatch, errors) == ([], [])
        assert whole == self.generate_manifest("merged")

    def test_results_of_shard_runs_merge_to_the_unsharded_runs(self):
        require_parallel()
        assert ORACLE_DUT, "PTOVEC_ORACLE_DUT is not set (tests/cli/CMakeLists.txt sets it)"
        selection = ["--op", "tcvt", "--dst", "e8m0", "--samples", 2000, "--seed", 4]
        self.generate("whole", *selection)
        for fmt, name in (("bin", "results.bin"), ("json", "results.jsonl")):
            for folder in ["whole"] + [f"shard{k}" for k in range(3)]:
                path = self.path(folder, name)
                if os.path.exists(path):
                    os.remove(path)
            r = ptovec("run", "--dut", ORACLE_DUT, "--vectors", self.path("whole"), "--format",
                       fmt, "--rmode", "RNE,RHB", "--quiet")
            assert r.returncode == 0, (r.stdout + r.stderr)
            # Generate and run each shard in its own process, as a job array would.
            command = [shutil.which("parallel"), "--will-cite", "--halt", "now,fail=1", "-j", "3",
                       f"'{PTOVEC}' generate {' '.join(map(str, selection))} --quiet --shard {{}}/3 "
                       f"--out '{self.path('shard')}{{}}' && '{PTOVEC}' run --dut '{ORACLE_DUT}' "
                       f"--vectors '{self.path('shard')}{{}}' --format {fmt} --rmode RNE,RHB "
                       f"--quiet", ":::", "0", "1", "2"]
            r = subprocess.run(command, capture_output=True, text=True, timeout=600,
                               env=dict(os.environ, CI="1"))
            assert r.returncode == 0, (r.stdout + r.stderr)
            shutil.rmtree(self.path("merged"), ignore_errors=True)
            r = ptovec("merge", *[self.path(f"shard{k}") for k in (2, 0, 1)], "--out",
                       self.path("merged"))
            assert r.returncode == 0, r.stderr
            assert "and their results in" in r.stderr
            assert (filecmp.cmp(self.path("whole", name), self.path("merged", name),
                                        shallow=False)), fmt
            r = ptovec("check", "--vectors", self.path("merged"), "--results",
                       self.path("merged", name))
            assert r.returncode == 0, (r.stdout + r.stderr)
            # FP16 and BF16 every code, FP32 2000 samples; RNE and RHB, Sat off and on.
            assert "3 files, 532288 vectors: 532288 matched" in r.stdout
            for k in range(3):
                shutil.rmtree(self.path(f"shard{k}"))
        # A shard without results while the others have theirs is refused before writing.
        for k in range(2):
            self.generate(f"s{k}", *selection, "--shard", f"{k}/2")
        r = ptovec("run", "--dut", ORACLE_DUT, "--vectors", self.path("s0"), "--quiet")
        assert r.returncode == 0, r.stderr
        r = ptovec("merge", self.path("s0"), self.path("s1"), "--out", self.path("m"))
        assert r.returncode == 2
        assert ("shard folder " + self.path("s1") + " has no results file while others do") in r.stderr
        assert not os.path.exists(self.path("m", "manifest.json"))

    def test_run_of_one_shard_generates_and_runs_it(self):
        # `run --op ... --shard K/N` as a job array's one command: each shard generated into
        # <work>_shard<K>of<N> and run there; merged, the folders give the unsharded run's files.
        assert ORACLE_DUT, "PTOVEC_ORACLE_DUT is not set (tests/cli/CMakeLists.txt sets it)"
        selection = ["--op", "tcvt", "--src", "fp32", "--dst", "e8m0", "--samples", 3000,
                     "--seed", 5, "--rmode", "RTZ"]
        r = ptovec("run", "--dut", ORACLE_DUT, *selection, "--work", self.path("one"), "--quiet")
        assert r.returncode == 0, (r.stdout + r.stderr)
        for k in range(2):
            r = ptovec("run", "--dut", ORACLE_DUT, *selection, "--shard", f"{k}/2", "--quiet",
                       cwd=self.tmp)
            assert r.returncode == 0, (r.stdout + r.stderr)
            assert f"1 file, {1500 * 2} vectors: {1500 * 2} matched" in r.stdout
        folders = [os.path.join(self.tmp, f"ptovec-run_shard{k}of2") for k in range(2)]
        r = ptovec("merge", *folders, "--out", self.path("joined"))
        assert r.returncode == 0, r.stderr
        for name in ("tcvt_fp32_e8m0.bin", "manifest.json", "results.bin"):
            assert (filecmp.cmp(self.path("one", name), self.path("joined", name),
                                        shallow=False)), name
        # --work names the shard's folder itself; --vectors and --shard do not go together.
        r = ptovec("run", "--dut", ORACLE_DUT, *selection, "--shard", "1/2", "--work",
                   self.path("mine"), "--quiet")
        assert r.returncode == 0, r.stderr
        assert os.path.exists(self.path("mine", "results.bin"))
        r = ptovec("run", "--dut", ORACLE_DUT, "--vectors", self.path("mine"), "--shard", "1/2")
        assert r.returncode == 2
        assert "--vectors of a shard folder already run just that shard" in r.stderr

    def generate_manifest(self, folder):
        with open(self.path(folder, "manifest.json")) as f:
            return json.load(f)

    def test_merge_refuses_missing_overlapping_mismatched_and_corrupt_shards(self):
        selection = ["--op", "tcvt", "--src", "fp32", "--dst", "e8m0", "--samples", 500]
        for k in range(3):
            self.generate(f"s{k}", *selection, "--shard", f"{k}/3")
        self.generate("other", *selection, "--seed", 2, "--shard", "1/3")
        self.generate("four", *selection, "--shard", "1/4")
        self.generate("plain", *selection)
        s = [self.path(f"s{k}") for k in range(3)]

        def merge_error(*folders):
            r = ptovec("merge", *folders, "--out", self.path("out"))
            assert r.returncode == 2, r.stderr
            assert not os.path.exists(self.path("out"))  # not even an empty folder
            return error_of(r)

        assert "missing shards: 1/3 (give all 3 shard folders of the run)" in merge_error(s[0], s[2])
        assert f"overlapping shards: shard 2/3 is given twice ({s[2]} and {s[2]})" in merge_error(s[0], s[1], s[2], s[2])
        assert "is not from the same run as" in merge_error(s[0], self.path("other"), s[2])
        assert "split the work differently" in merge_error(s[0], self.path("four"), s[2])
        assert "is not a shard folder" in merge_error(s[0], self.path("plain"))
        assert ("shard folder " + self.path("nowhere") + " does not exist") in merge_error(s[0], s[1], self.path("nowhere"))
        # A corrupted shard file: one expected word changed, size unchanged.
        path = os.path.join(s[1], "tcvt_fp32_e8m0.bin")
        fixed, header = read_bin_header(path)
        with open(path, "r+b") as f:
            f.seek(fixed[5] + 6)  # record 0's out byte
            byte = f.read(1)[0]
            f.seek(fixed[5] + 6)
            f.write(bytes([byte ^ 1]))
        assert "its manifest says" in merge_error(*s)

    def test_default_shard_folder_is_its_own(self):
        r = ptovec("generate", "--op", "shift", "--samples", 10, "--shard", "1/2", "--quiet",
                   cwd=self.tmp)
        assert r.returncode == 0, r.stderr
        assert os.path.exists(self.path("vectors", "shift_shard1of2", "manifest.json"))
