#!/usr/bin/python3
"""A suite folder is never silently narrowed.

`generate` into a folder holding a suite adds to it (same version, seed, samples and formats) or
refuses before writing a byte; `run` and `check` refuse a folder holding vector files its manifest
does not name (recognised by their first bytes, whatever their names; results and JUnit files
beside them do not count); a partial `generate` does not default to vectors/default; --op, --src
and --dst select files of a folder for run and check.

Run by ctest (tests/cli/CMakeLists.txt) with Debian's /usr/bin/python3 -m pytest; the helper
ptovec_cli.py gives ptovec(*args) and this build's paths.
"""
import hashlib
import json
import os
import shutil

import pytest

from ptovec_cli import ORACLE_DUT, Scratch, ptovec


FP16_E8M0 = ["--op", "tcvt", "--src", "fp16", "--dst", "e8m0"]  # exhaustive: 917,504 vectors
SHIFT = ["--op", "shift", "--src", "s32", "--dst", "s16"]        # sampled, no controls


def manifest_paths(folder):
    with open(os.path.join(folder, "manifest.json")) as f:
        return [e["path"] for e in json.load(f)["files"]]


def snapshot(folder):
    """{name: sha256} of every file in folder."""
    out = {}
    for name in sorted(os.listdir(folder)):
        with open(os.path.join(folder, name), "rb") as f:
            out[name] = hashlib.sha256(f.read()).hexdigest()
    return out


class TestSuiteFolder(Scratch):
    def generate(self, out, *args):
        """generate --samples 1000 into the path `out`, which must pass (Scratch's takes a name)."""
        r = ptovec("generate", "--samples", 1000, "--out", out, *args)
        assert r.returncode == 0, r.stderr
        return r

    def assert_refused(self, r, text):
        assert r.returncode == 2, (r.stdout + r.stderr)
        lines = r.stderr.strip().splitlines()
        assert len(lines) == 1, r.stderr
        assert text in lines[0]

    def test_generate_adds_to_a_suite_in_suite_order(self):
        v = self.path("v")
        self.generate(v, *FP16_E8M0)
        r = self.generate(v, *SHIFT)
        assert "(the suite there now has 2 files)" in r.stderr
        # Suite order (tcvt before shift, as `ptovec generate` of both writes them), not the order
        # of the calls; built the other way round, the manifest is byte-identical.
        assert manifest_paths(v) == ["tcvt_fp16_e8m0.bin", "shift_s32_s16.bin"]
        w = self.path("w")
        self.generate(w, *SHIFT)
        self.generate(w, *FP16_E8M0)
        assert snapshot(v) == snapshot(w)
        # Regenerating a file of the suite with the same options changes nothing.
        before = snapshot(v)
        self.generate(v, *SHIFT)
        assert snapshot(v) == before

    @pytest.mark.skipif(not ORACLE_DUT, reason="no PTOVEC_ORACLE_DUT")
    def test_run_checks_every_file_of_a_suite_built_in_two_calls(self):
        # Before, the manifest named only the last file and run
        # checked 100,000 of 1,017,504 vectors.
        v = self.path("v")
        self.generate(v, *FP16_E8M0)
        self.generate(v, *SHIFT)
        r = ptovec("run", "--dut", ORACLE_DUT, "--vectors", v)
        assert r.returncode == 0, (r.stdout + r.stderr)
        assert "2 files, 918504 vectors: 918504 matched" in r.stdout

    def test_conflicting_options_are_refused_before_writing(self):
        v = self.path("v")
        self.generate(v, *FP16_E8M0)
        before = snapshot(v)
        for args, text in [
            (["--seed", 7], "made with --seed 1, this run has --seed 7"),
            (["--format", "both"], "made with --format bin, this run has --format both"),
        ]:
            r = ptovec("generate", "--samples", 1000, "--out", v, *SHIFT, *args)
            self.assert_refused(r, "--out " + v + " holds a suite of 1 file " + text)
            assert "adding to it would mix two suites" in r.stderr
            assert snapshot(v) == before
        r = ptovec("generate", "--samples", 2000, "--out", v, *SHIFT)
        self.assert_refused(r, "made with --samples 1000, this run has --samples 2000")
        assert snapshot(v) == before

    def test_samples_do_not_matter_for_an_enumerated_pair(self):
        # --samples chooses no input of an enumerated pair: its file is added to a suite made
        # with other --samples (the suite keeps its own), where a sampled pair's is refused.
        v = self.path("v")
        self.generate(v, *SHIFT)
        r = ptovec("generate", "--samples", 5000, "--out", v, *FP16_E8M0, "--quiet")
        assert r.returncode == 0, r.stderr
        with open(os.path.join(v, "manifest.json")) as f:
            manifest = json.load(f)
        assert manifest["samples"] == 1000
        assert manifest_paths(v) == ["tcvt_fp16_e8m0.bin", "shift_s32_s16.bin"]
        r = ptovec("generate", "--samples", 5000, "--out", v, *SHIFT)
        self.assert_refused(r, "made with --samples 1000, this run has --samples 5000")

    def test_rewriting_every_file_replaces_the_suite(self):
        v = self.path("v")
        self.generate(v, *SHIFT)
        r = ptovec("generate", "--samples", 1000, "--seed", 9, "--out", v, *SHIFT)
        assert r.returncode == 0, r.stderr
        with open(os.path.join(v, "manifest.json")) as f:
            manifest = json.load(f)
        assert manifest["seed"] == 9
        assert [e["path"] for e in manifest["files"]] == ["shift_s32_s16.bin"]
        # ... and says so (a newcomer's `run --op --work s8` with more samples regenerated the
        # folder silently): on stderr, naming the folder and both options; not when nothing
        # changes.
        assert r.stderr.splitlines()[0] == (
            f"ptovec: note: --out {v}: its suite (1 file made with --seed 1) was replaced by "
            "this run's (--seed 9); the previous vectors are not kept")
        again = ptovec("generate", "--samples", 1000, "--seed", 9, "--out", v, *SHIFT)
        assert "note" not in again.stderr, again.stderr
        more = ptovec("run", "--dut", ORACLE_DUT, "--samples", 2000, "--seed", 9, "--work", v,
                      *SHIFT)
        assert more.returncode == 0, more.stdout + more.stderr
        assert (f"ptovec: note: --work {v}: its suite (1 file made with --samples 1000) was "
                "replaced by this run's (--samples 2000); the previous vectors are not kept"
                in more.stderr.splitlines()), more.stderr

    def test_rewriting_every_file_never_replaces_it_by_a_smaller_suite(self):
        # Fewer samples, a shard or fewer controls over a whole suite would leave a gate that
        # passes while checking less: refused, the folder untouched.
        v = self.path("v")
        self.generate(v, *SHIFT)
        before = snapshot(v)
        with open(os.path.join(v, "manifest.json")) as f:
            samples = json.load(f)["samples"]
        for args, text in [
            (["--samples", samples // 10], f"made with --samples {samples}, this run has "
                                           f"--samples {samples // 10}, which would replace it "
                                           "by a smaller one"),
            (["--samples", samples, "--shard", "0/2"],
             "made with --shard none, this run has --shard 0/2, which would replace it"),
        ]:
            r = ptovec("generate", "--out", v, *SHIFT, *args)
            self.assert_refused(r, "--out " + v + " holds a suite of 1 file " + text)
            assert snapshot(v) == before
        t = self.path("t")
        r = ptovec("generate", "--op", "tcvt", "--src", "fp16", "--dst", "e8m0", "--out", t,
                   "--quiet")
        assert r.returncode == 0, r.stderr
        before = snapshot(t)
        r = ptovec("generate", "--op", "tcvt", "--src", "fp16", "--dst", "e8m0", "--out", t,
                   "--rmode", "RNE", "--sat", "off")
        self.assert_refused(r, "this run has --rmode/--sat RNE; Sat off, which would replace it "
                               "by a smaller one")
        assert snapshot(t) == before
        # More samples, or the same suite again, replace it.
        r = ptovec("generate", "--out", v, *SHIFT, "--samples", samples * 2, "--quiet")
        assert r.returncode == 0, r.stderr

    def test_the_smoke_and_the_default_suite_never_share_a_folder(self):
        # The manifest names its suite; generate neither replaces nor adds to a folder's suite
        # of the other kind, whichever comes first, and leaves the folder as it was.
        smoke, default = self.path("smoke"), self.path("default")
        shift_smoke = ["generate", "--suite", "smoke", *SHIFT, "--samples", 1000]
        r = ptovec(*shift_smoke, "--out", smoke)
        assert r.returncode == 0, r.stderr
        with open(os.path.join(smoke, "manifest.json")) as f:
            assert json.load(f)["suite"] == "smoke"
        self.generate(default, *SHIFT)
        with open(os.path.join(default, "manifest.json")) as f:
            assert json.load(f)["suite"] == "default"
        before_smoke, before_default = snapshot(smoke), snapshot(default)
        # Same file name (shift_s32_s16.bin), so either run would rewrite every file.
        r = ptovec(*shift_smoke, "--out", default)
        self.assert_refused(r, f"--out {default} holds the default suite (1 file), this run "
                               "writes the smoke suite; a folder holds one suite")
        r = ptovec("generate", "--samples", 1000, "--out", smoke, *SHIFT)
        self.assert_refused(r, f"--out {smoke} holds the smoke suite (1 file), this run "
                               "writes the default suite; a folder holds one suite")
        # Adding another pair is refused the same way.
        r = ptovec("generate", "--samples", 1000, "--out", smoke, *FP16_E8M0)
        self.assert_refused(r, "holds the smoke suite")
        assert snapshot(smoke) == before_smoke
        assert snapshot(default) == before_default
        # A smoke manifest written before "suite" existed is known by its files' domain
        # "selected".
        with open(os.path.join(smoke, "manifest.json")) as f:
            old = json.load(f)
        del old["suite"]
        with open(os.path.join(smoke, "manifest.json"), "w") as f:
            json.dump(old, f, indent=2)
        before_smoke = snapshot(smoke)
        r = ptovec("generate", "--samples", 1000, "--out", smoke, *FP16_E8M0)
        self.assert_refused(r, "holds the smoke suite")
        assert snapshot(smoke) == before_smoke

    def test_unlisted_vector_files_are_refused_by_run_check_and_generate(self):
        v = self.path("v")
        self.generate(v, *FP16_E8M0)
        other = self.path("other")
        self.generate(other, *SHIFT)
        # Recognised by content, whatever the name.
        shutil.copy(os.path.join(other, "shift_s32_s16.bin"), os.path.join(v, "extra.dat"))
        r = ptovec("run", "--dut", self.path("missing.so"), "--vectors", v)
        self.assert_refused(r, "--vectors folder " + v + " holds 1 vector file that its "
                               "manifest.json does not name (extra.dat); the gate would skip them")
        r = ptovec("check", "--vectors", v, "--results", self.path("r.bin"))
        self.assert_refused(r, "does not name (extra.dat)")
        r = ptovec("generate", "--samples", 1000, "--out", v, *SHIFT)
        self.assert_refused(r, "--out folder " + v + " holds 1 vector file that its "
                               "manifest.json does not name (extra.dat)")
        os.remove(os.path.join(v, "extra.dat"))
        # A JSON vector file counts too; with no manifest at all, generate refuses.
        bare = self.path("bare")
        self.generate(bare, *SHIFT, "--format", "json")
        os.remove(os.path.join(bare, "manifest.json"))
        r = ptovec("generate", "--samples", 1000, "--out", bare, *FP16_E8M0)
        self.assert_refused(r, "--out folder " + bare + " holds 1 vector file that no "
                               "manifest.json names (shift_s32_s16.json)")
        # Temporaries of a write in progress do not count.
        shutil.copy(os.path.join(other, "shift_s32_s16.bin"),
                    os.path.join(v, "shift_s32_s16.bin.tmp-123"))
        r = ptovec("check", "--vectors", v, "--results", self.path("r.bin"))
        assert "cannot read results file" in r.stderr

    @pytest.mark.skipif(not ORACLE_DUT, reason="no PTOVEC_ORACLE_DUT")
    def test_results_and_junit_beside_the_vectors_do_not_count(self):
        v = self.path("v")
        self.generate(v, *SHIFT)
        for fmt in ["bin", "json"]:
            r = ptovec("run", "--dut", ORACLE_DUT, "--vectors", v, "--format", fmt, "--junit",
                       os.path.join(v, "junit.xml"))
            assert r.returncode == 0, (r.stdout + r.stderr)
        assert os.path.exists(os.path.join(v, "results.bin"))
        assert os.path.exists(os.path.join(v, "results.jsonl"))
        r = ptovec("check", "--vectors", v, "--results", os.path.join(v, "results.jsonl"))
        assert r.returncode == 0, (r.stdout + r.stderr)
        r = self.generate(v, *FP16_E8M0)
        assert manifest_paths(v) == ["tcvt_fp16_e8m0.bin", "shift_s32_s16.bin"]

    def test_partial_generate_does_not_default_to_the_default_suite(self):
        work = self.path("repo")
        os.makedirs(os.path.join(work, "vectors", "default"))
        r = ptovec("generate", "--op", "tcvt", "--src", "fp32", "--dst", "e8m0", "--samples",
                   1000, "--seed", 7, cwd=work)
        assert r.returncode == 0, r.stderr
        assert "manifest.json to vectors/tcvt_fp32_e8m0" in r.stderr
        assert os.listdir(os.path.join(work, "vectors", "default")) == []
        assert manifest_paths(os.path.join(work, "vectors", "tcvt_fp32_e8m0")) == ["tcvt_fp32_e8m0.bin"]
        r = ptovec("generate", "--op", "shift", "--samples", 1000, cwd=work)
        assert "manifest.json to vectors/shift" in r.stderr
        r = ptovec("generate", "--src", "s32", "--dst", "s16", "--samples", 1000, cwd=work)
        assert "manifest.json to vectors/any_s32_s16" in r.stderr

    def test_a_manifest_naming_a_file_in_json_only_is_read_whole(self):
        # A hand-made manifest: one pair in both formats, another in JSON only. Before, the
        # reader took only the binary files when any was listed and skipped the JSON-only pair.
        v = self.path("v")
        self.generate(v, *FP16_E8M0, "--format", "both")
        j = self.path("j")
        self.generate(j, *SHIFT, "--format", "json")
        shutil.copy(os.path.join(j, "shift_s32_s16.json"), v)
        with open(os.path.join(v, "manifest.json")) as f:
            manifest = json.load(f)
        with open(os.path.join(j, "manifest.json")) as f:
            manifest["files"] += json.load(f)["files"]
        with open(os.path.join(v, "manifest.json"), "w") as f:
            json.dump(manifest, f)
        if ORACLE_DUT:
            r = ptovec("run", "--dut", ORACLE_DUT, "--vectors", v)
            assert r.returncode == 0, (r.stdout + r.stderr)
            assert "2 files, 918504 vectors" in r.stdout

    @pytest.mark.skipif(not ORACLE_DUT, reason="no PTOVEC_ORACLE_DUT")
    def test_op_src_dst_select_files_of_a_folder(self):
        v = self.path("v")
        self.generate(v, *FP16_E8M0)
        self.generate(v, *SHIFT)
        r = ptovec("run", "--dut", ORACLE_DUT, "--vectors", v, "--op", "shift")
        assert r.returncode == 0, (r.stdout + r.stderr)
        assert "1 file, 1000 vectors: 1000 matched" in r.stdout
        results = os.path.join(v, "results.bin")
        r = ptovec("check", "--vectors", v, "--results", results)
        self.assert_refused(r, "has 1 section but " + v + " holds 2 vector files (results of "
                               "a run of part of it? Give check the same --op/--src/--dst as the run)")
        r = ptovec("check", "--vectors", v, "--results", results, "--op", "shift")
        assert r.returncode == 0, (r.stdout + r.stderr)
        r = ptovec("check", "--vectors", v, "--results", results, "--src", "fp16")
        self.assert_refused(r, "section 0 (shift_s32_s16.bin) does not match the vectors")
        r = ptovec("run", "--dut", ORACLE_DUT, "--vectors", v, "--dst", "e4m3")
        self.assert_refused(r, "no vector file of " + v + " (dst e4m3) matches the selection")
        # Several paths, in the order given.
        other = self.path("other")
        self.generate(other, "--op", "tcvt", "--src", "bf16", "--dst", "e8m0")
        r = ptovec("run", "--dut", ORACLE_DUT, "--vectors", v, other, "--results",
                   self.path("two.bin"))
        assert r.returncode == 0, (r.stdout + r.stderr)
        assert "3 files, 1836008 vectors: 1836008 matched" in r.stdout
        r = ptovec("check", "--vectors", v, other, "--results", self.path("two.bin"))
        assert r.returncode == 0, (r.stdout + r.stderr)
        r = ptovec("run", "--dut", ORACLE_DUT, "--vectors", v, v, "--results",
                   self.path("twice.bin"))
        self.assert_refused(r, "is given twice")

    @pytest.mark.skipif(not ORACLE_DUT, reason="no PTOVEC_ORACLE_DUT")
    def test_run_op_adds_to_its_work_folder_and_runs_only_the_selection(self):
        work = self.path("work")
        r = ptovec("run", "--dut", ORACLE_DUT, *SHIFT, "--samples", 1000, "--work", work)
        assert r.returncode == 0, (r.stdout + r.stderr)
        r = ptovec("run", "--dut", ORACLE_DUT, *FP16_E8M0, "--samples", 1000, "--work", work)
        assert r.returncode == 0, (r.stdout + r.stderr)
        assert "1 file, 917504 vectors: 917504 matched" in r.stdout
        assert manifest_paths(work) == ["tcvt_fp16_e8m0.bin", "shift_s32_s16.bin"]
        r = ptovec("run", "--dut", ORACLE_DUT, *SHIFT, "--samples", 50, "--work", work)
        self.assert_refused(r, "made with --samples 1000, this run has --samples 50")
        # The error names run's own option (--work), not generate's --out.
        assert f"--work {work} holds a suite of 2 files" in r.stderr, r.stderr
        assert "(give another --work, or the suite's --samples)" in r.stderr, r.stderr
        assert "--out" not in r.stderr
