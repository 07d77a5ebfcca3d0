"""Nothing a user had is lost by a later command that failed.

A run, check or shrink that ends with exit 2 (a bad option, a device that cannot be loaded or
refuses to start) leaves every file byte-identical and adds none: not the previous results file,
JUnit report or counterexample, not the vectors `run --op` generated into its work folder. A
completed command that replaces a results file or a counterexample says so in one stderr line.

Run by ctest (`ptovec_outputs_kept`, label files) with `python3 -m pytest -q`; the environment names
the program and the devices: PTOVEC, PTOVEC_ORACLE_DUT, PTOVEC_INIT_REFUSES_DUT (refuses in
ptovec_dut_init), PTOVEC_BAD_FLAGS_DUT (answers flags 0x20), PTOVEC_MUTANT_DUT (e8m0_sqrt2_top8) and PTOVEC_OTHER_MUTANT_DUT
(e8m0_always_up). A missing one fails the test, it never skips.
"""
import os

import ptovec_cli
from ptovec_cli import snapshot

MISSING_DUT = "/nonexistent/libfoo.so"
# Small and quick: FP16 -> E8M0 under one control, 65,536 vectors.
PAIR = ["--op", "tcvt", "--src", "fp16", "--dst", "e8m0"]
ONE_CONTROL = ["--rmode", "RNA", "--sat", "off"]


def need(name):
    """The file an environment variable names; fails (never skips) when it is not there."""
    path = os.environ.get(name, "")
    assert path, f"environment variable {name} is not set (ctest sets it: ptovec_outputs_kept)"
    assert os.path.isfile(path), f"{name}={path} does not exist (build it first)"
    return path


def ptovec(*args, cwd=None):
    need("PTOVEC")
    return ptovec_cli.ptovec(*args, timeout=600, cwd=cwd)


def error_lines(r):
    return [line for line in r.stderr.splitlines() if line.startswith("ptovec: error:")]


def replaced_lines(r):
    return [line for line in r.stderr.splitlines() if line.startswith("ptovec: replaced ")]


def generated_suite(tmp_path):
    vectors = tmp_path / "v"
    r = ptovec("generate", *PAIR, *ONE_CONTROL, "--out", vectors)
    assert r.returncode == 0, r.stderr
    return vectors


def good_run(tmp_path):
    """A passing run of the oracle with JUnit; returns the suite folder and the JUnit path."""
    vectors = generated_suite(tmp_path)
    junit = tmp_path / "junit.xml"
    r = ptovec("run", "--dut", need("PTOVEC_ORACLE_DUT"), "--vectors", vectors, "--junit", junit)
    assert r.returncode == 0, r.stdout + r.stderr
    assert "PASS" in r.stdout.splitlines()
    assert replaced_lines(r) == []  # nothing was there before
    return vectors, junit


def test_run_with_a_missing_device_keeps_results_and_junit(tmp_path):
    vectors, junit = good_run(tmp_path)
    assert (vectors / "results.bin").read_bytes()[:8] == b"PTOVEC\x00R"  # binary results
    assert b'failures="0"' in junit.read_bytes()
    before = snapshot(tmp_path)
    r = ptovec("run", "--dut", MISSING_DUT, "--vectors", vectors, "--junit", junit,
               "--mismatches", tmp_path / "mismatches.jsonl")
    assert r.returncode == 2, r.stdout + r.stderr
    errors = error_lines(r)
    assert len(errors) == 1 and MISSING_DUT in errors[0], r.stderr
    # Byte for byte what the good run left, and nothing more (no --mismatches file, no temporary).
    assert snapshot(tmp_path) == before
    # The README's next step still works from it.
    r = ptovec("check", "--vectors", vectors, "--results", vectors / "results.bin")
    assert r.returncode == 0, r.stdout + r.stderr


def test_device_that_breaks_the_protocol_mid_run_keeps_results_and_junit(tmp_path):
    # It answers flags above bit 4: an error (exit 2) after the device started, when the results
    # file (marked as stopped) is already written; it is taken back and the earlier one put back.
    vectors, junit = good_run(tmp_path)
    before = snapshot(tmp_path)
    r = ptovec("run", "--dut", need("PTOVEC_BAD_FLAGS_DUT"), "--vectors", vectors, "--junit",
               junit, "--mismatches", tmp_path / "mismatches.jsonl")
    assert r.returncode == 2, r.stdout + r.stderr
    errors = error_lines(r)
    assert len(errors) == 1 and "returned flags 0x20 with bits 7:5 set" in errors[0], r.stderr
    assert snapshot(tmp_path) == before


def test_check_that_fails_keeps_its_junit(tmp_path):
    vectors, junit = good_run(tmp_path)
    before = snapshot(tmp_path)
    r = ptovec("check", "--vectors", vectors, "--results", tmp_path / "no-such-results.bin",
               "--junit", junit)
    assert r.returncode == 2, r.stdout + r.stderr
    assert "no-such-results.bin" in error_lines(r)[0]
    assert snapshot(tmp_path) == before


def test_device_that_refuses_to_start_leaves_no_generated_vectors(tmp_path):
    work = tmp_path / "work"
    r = ptovec("run", "--dut", need("PTOVEC_INIT_REFUSES_DUT"), *PAIR, "--samples", "10",
               "--work", work, cwd=tmp_path)
    assert r.returncode == 2, r.stdout + r.stderr
    assert len(error_lines(r)) == 1, r.stderr
    assert not work.exists(), sorted(snapshot(tmp_path))
    assert snapshot(tmp_path) == {}
    assert sorted(os.listdir(tmp_path)) == []


def test_device_that_refuses_keeps_an_earlier_work_folder(tmp_path):
    work = tmp_path / "work"
    r = ptovec("run", "--dut", need("PTOVEC_ORACLE_DUT"), *PAIR, "--work", work)
    assert r.returncode == 0, r.stdout + r.stderr
    before = snapshot(tmp_path)
    assert {"manifest.json", "tcvt_fp16_e8m0.bin", "results.bin"} <= set(
        os.path.relpath(p, "work") for p in before)
    # Another op into the same work folder: its files are added to the suite (and the manifest
    # rewritten) before the device is started, and taken out again when it refuses.
    r = ptovec("run", "--dut", need("PTOVEC_INIT_REFUSES_DUT"), "--op", "qparam", "--work", work)
    assert r.returncode == 2, r.stdout + r.stderr
    assert len(error_lines(r)) == 1, r.stderr
    assert snapshot(tmp_path) == before


def test_successful_rerun_replaces_results_and_says_so(tmp_path):
    vectors, junit = good_run(tmp_path)
    before = snapshot(tmp_path)
    r = ptovec("run", "--dut", need("PTOVEC_MUTANT_DUT"), "--vectors", vectors, "--junit", junit,
               "--max-report", "0")
    assert r.returncode == 1, r.stdout + r.stderr
    assert replaced_lines(r) == [
        f"ptovec: replaced {vectors / 'results.bin'} (the previous results, of device "
        "ptovec-oracle; not kept)"]
    assert snapshot(tmp_path)["v/results.bin"] != before["v/results.bin"]
    assert b"e8m0_sqrt2_top8" in (vectors / "results.bin").read_bytes()
    assert b'failures="0"' not in junit.read_bytes()
    # A file there that is no results file is replaced too, and the line says what it was.
    (tmp_path / "notes.bin").write_bytes(b"my notes\n")
    r = ptovec("run", "--dut", need("PTOVEC_ORACLE_DUT"), "--vectors", vectors, "--results",
               tmp_path / "notes.bin")
    assert r.returncode == 0, r.stdout + r.stderr
    assert replaced_lines(r) == [
        f"ptovec: replaced {tmp_path / 'notes.bin'} (it was not a readable results file; not "
        "kept)"]


def shrink(device, out, *more):
    return ptovec("shrink", "--dut", device, *PAIR, *ONE_CONTROL, "--out", out, *more)


def test_shrink_with_a_bad_device_keeps_the_shrunk_case(tmp_path):
    out = tmp_path / "shrunk.bin"
    r = shrink(need("PTOVEC_MUTANT_DUT"), out)
    assert r.returncode == 1, r.stdout + r.stderr
    assert f"wrote {out}" in r.stdout.splitlines()
    assert replaced_lines(r) == []
    before = snapshot(tmp_path)
    for device in (MISSING_DUT, need("PTOVEC_INIT_REFUSES_DUT")):
        r = shrink(device, out)
        assert r.returncode == 2, r.stdout + r.stderr
        assert len(error_lines(r)) == 1, r.stderr
        assert snapshot(tmp_path) == before


def test_shrink_replacing_a_case_says_which(tmp_path):
    out = tmp_path / "shrunk.bin"
    r = shrink(need("PTOVEC_MUTANT_DUT"), out)
    assert r.returncode == 1, r.stdout + r.stderr
    first = out.read_bytes()
    eval_line = "ptovec eval --op tcvt --src fp16 --dst e8m0 --rmode RNA 0x3dac"
    assert f"  eval:     {eval_line}" in r.stdout.splitlines()
    # The same case again: replaced by the same bytes, and the line says it was the same.
    r = shrink(need("PTOVEC_MUTANT_DUT"), out)
    assert r.returncode == 1, r.stdout + r.stderr
    assert replaced_lines(r) == [f"ptovec: replaced {out} (it held the same case)"]
    assert out.read_bytes() == first
    # Another device's simplest case: the line names the case that is gone.
    r = shrink(need("PTOVEC_OTHER_MUTANT_DUT"), out)
    assert r.returncode == 1, r.stdout + r.stderr
    assert replaced_lines(r) == [
        f"ptovec: replaced {out} (it held another case, not kept: {eval_line})"]
    assert out.read_bytes() != first
