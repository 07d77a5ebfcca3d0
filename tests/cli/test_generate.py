"""`ptovec generate`: the same seed gives byte-identical files whatever the thread count, another
seed other samples; a raw-copy pair (tcvt fp16 -> e4m3) prints the note `list` and `eval` print,
pointing at encode, and a converting pair none; FP32 -> E8M0's strategies keep their weights: what
a short strategy leaves is shared by weight among the others, and every strategy owns some
tuples; `generate --rmode/--sat` writes only those controls, listed in each header in record
order, and refuses bad filters and shards with one line.

Run by ctest (tests/cli/CMakeLists.txt) with Debian's /usr/bin/python3 -m pytest; the helper
ptovec_cli.py gives ptovec(*args) and this build's paths.
"""
import json
import os
import tempfile

import numpy as np
import pytest

from ptovec_cli import ORACLE_DUT, Scratch, error_of, files, generate, ptovec, \
    read_bin_header, sha256


class TestDeterminism:
    """Same seed: byte-identical files and manifest, whatever the thread count. Other seed: other
    samples."""

    def test_seed_and_threads(self):
        with tempfile.TemporaryDirectory(prefix="ptovec-determinism-") as tmp:
            runs = {"default": [], "again": [], "threads1": ["--threads", 1], "threads2": ["--threads", 2],
                    "seed2": ["--threads", 2, "--seed", 2]}
            for name, extra in runs.items():
                generate(os.path.join(tmp, name), "--op", "tcvt", "--dst", "e8m0", "--samples", 2000,
                         "--format", "both", *(extra if "--seed" in extra else extra + ["--seed", 1]))
            ref = os.path.join(tmp, "default")
            names = sorted(os.listdir(ref))
            assert len(names) == 7
            for name in ("again", "threads1", "threads2"):
                other = os.path.join(tmp, name)
                assert sorted(os.listdir(other)) == names
                for file in names:
                    assert sha256(os.path.join(ref, file)) == sha256(os.path.join(other, file)), f"{name}/{file} differs from default/{file}"
            other = os.path.join(tmp, "seed2")
            for fmt in ("bin", "json"):
                assert sha256(os.path.join(ref, f"tcvt_fp32_e8m0.{fmt}")) != sha256(os.path.join(other, f"tcvt_fp32_e8m0.{fmt}"))
            _, a = files.read_vectors(os.path.join(ref, "tcvt_fp32_e8m0.bin"))
            _, b = files.read_vectors(os.path.join(other, "tcvt_fp32_e8m0.bin"))
            assert not np.array_equal(a["in.value"], b["in.value"]), "seed 2 draws other samples"
            # Exhaustive files do not depend on the seed except for the header's derived seed.
            _, a = files.read_vectors(os.path.join(ref, "tcvt_fp16_e8m0.bin"))
            _, b = files.read_vectors(os.path.join(other, "tcvt_fp16_e8m0.bin"))
            assert np.array_equal(a, b)


@pytest.mark.skipif(not ORACLE_DUT, reason="PTOVEC_ORACLE_DUT is not set")
class TestRawCopy(Scratch):
    NOTE = ("ptovec: note: tcvt to e4m3 copies the source word's bits, it does not convert the "
            "value (TileProfileConvert's raw-carrier rule, seed 001 lines 154-168; spec-notes "
            "section 5 item 9); for conversion by value use --op encode")

    def test_generate_and_run_of_a_raw_copy_pair_say_so(self):
        r = ptovec("generate", "--op", "tcvt", "--src", "fp16", "--dst", "e4m3", "--rmode", "RNE",
                   "--sat", "off", "--out", self.path("g"), "--quiet")
        assert r.returncode == 0, r.stderr
        assert r.stderr.splitlines().count(self.NOTE) == 1, r.stderr
        r = ptovec("eval", "--op", "tcvt", "--src", "fp16", "--dst", "e4m3", "0x3c00")
        assert self.NOTE in r.stderr.splitlines()  # the same words as eval's
        for extra in (["--work", self.path("w")], ["--vectors", self.path("g")]):
            r = ptovec("run", "--dut", ORACLE_DUT, "--op", "tcvt", "--src", "fp16", "--dst", "e4m3",
                       "--max-report", "0", "--quiet", *extra)
            assert r.returncode == 0, (r.stdout + r.stderr)
            assert r.stderr.splitlines().count(self.NOTE) == 1, r.stderr

    def test_a_converting_pair_has_no_note(self):
        self.generate_fp16_e8m0("e8m0")
        r = ptovec("run", "--dut", ORACLE_DUT, "--op", "tcvt", "--vectors", self.path("e8m0"),
                   "--max-report", "0", "--quiet")
        assert r.returncode == 0, (r.stdout + r.stderr)
        assert "note:" not in r.stderr


class TestSampleMix(Scratch):
    def test_fp32_e8m0_weights_hold_among_the_strategies_with_tuples_left(self):
        r = ptovec("generate", "--op", "tcvt", "--src", "fp32", "--dst", "e8m0", "--rmode", "RTZ",
                   "--sat", "off", "--samples", 24000, "--out", self.path("mix"), "--quiet")
        assert r.returncode == 0, r.stderr
        with open(self.path("mix", "manifest.json")) as f:
            strategies = json.load(f)["files"][0]["strategies"]
        by_name = {s["name"]: s for s in strategies}
        assert sum(s["tuples"] for s in strategies) == 24000
        for s in strategies:
            assert s["tuples"] > 0, s
        # The small sets give all they have; the three large ones share the rest 3 : 4 : 4
        # (before, the subnormal edge, first in order, took it all).
        for name in ("fp32_specials", "fp32_power_of_two_neighbours", "fp32_sqrt2_boundaries",
                     "fp32_top_binades"):
            assert by_name[name]["tuples"] == by_name[name]["available"], name
        edge = by_name["fp32_subnormal_floor_edge"]["tuples"]
        normals = by_name["fp32_positive_normals"]["tuples"]
        uniform = by_name["fp32_uniform_bits"]["tuples"]
        assert abs(normals - uniform) <= 1
        assert abs(4 * edge - 3 * normals) <= 4
        assert normals > 4000


class TestControlFilter(Scratch):
    """`generate --rmode/--sat` writes only those controls, listed in each header in record order;
    an op without controls keeps its one; the files validate against the committed schemas."""

    def test_control_filter_writes_only_the_chosen_controls(self):
        manifest = self.generate("f", "--op", "tcvt", "--src", "fp16", "--dst", "e8m0",
                                 "--rmode", "RTZ,RNE", "--sat", "on", "--format", "both")
        self.assert_valid("manifest", manifest)
        assert manifest["controls"] == {"rmodes": ["RNE", "RTZ"], "sat": [True]}
        header, records = files.read_vectors(self.path("f", "tcvt_fp16_e8m0.bin"))
        self.assert_valid("binary-header", header)
        assert header["controls"] == ([{"rmode": "RNE", "sat": True},
                                              {"rmode": "RTZ", "sat": True}])
        assert (header["inputs"], header["count"], len(records)) == (65536, 131072, 131072)
        assert (records["rmode"] == np.tile([0, 3], 65536)).all()
        assert (records["sat"] == 1).all()
        # 0x3e00 is 1.5: RNE gives 2^1 (0x80), RTZ 2^0 (0x7f), both inexact.
        i = 0x3E00 * 2
        assert [(int(records["out"][i + k]), int(records["flags"][i + k])) for k in (0, 1)] == [(0x80, 0x10), (0x7F, 0x10)]
        with open(self.path("f", "tcvt_fp16_e8m0.json")) as f:
            document = json.load(f)
        self.assert_valid("vectors", document)
        assert len(document["vectors"]) == 131072
        # The library reads it back and the oracle device agrees with every vector.
        if ORACLE_DUT:
            r = ptovec("run", "--dut", ORACLE_DUT, "--vectors", self.path("f"), "--quiet")
            assert r.returncode == 0, (r.stdout + r.stderr)
            assert "1 file, 131072 vectors: 131072 matched" in r.stdout

    def test_an_op_without_controls_keeps_its_one(self):
        manifest = self.generate("s", "--op", "shift", "--samples", 100, "--rmode", "RTZ")
        header, records = files.read_vectors(self.path("s", "shift_s32_s16.bin"))
        assert header["controls"] == [{"rmode": "RNE", "sat": False}]
        assert len(records) == 100
        assert manifest["controls"]["rmodes"] == ["RTZ"]

    def test_bad_filters_and_shards_are_one_line_errors(self):
        for args, expected in (
                (["--rmode", "RTZ,RNX"], "unknown --rmode 'RNX' (accepted: RNE RTM RTP RTZ RNA RTO RHB"),
                (["--sat", "maybe"], "unknown --sat 'maybe' (accepted: off, on, both)"),
                (["--shard", "4/4"], "--shard '4/4': K must be below N (K counts from 0: 0/4 .. 3/4)"),
                (["--shard", "1"], "--shard '1' is not K/N"),
                (["--shard", "0/0"], "--shard '0/0' is not K/N")):
            r = ptovec("generate", "--op", "shift", "--out", self.path("bad"), *args)
            assert r.returncode == 2, args
            assert expected in error_of(r)
            assert not os.path.exists(self.path("bad", "manifest.json"))

    def test_records_out_of_the_header_control_order_are_refused(self):
        self.generate("o", "--op", "tcvt", "--src", "fp16", "--dst", "e8m0", "--rmode", "RNE,RTP")
        path = self.path("o", "tcvt_fp16_e8m0.bin")
        fixed, header = read_bin_header(path)
        data = fixed[5]
        with open(path, "r+b") as f:  # record 5's rmode byte: RTP (2) where RNE (0) belongs
            f.seek(data + 5 * header["record_size"] + 2)
            f.write(bytes([0]))
            f.seek(data + 4 * header["record_size"] + 2)
            f.write(bytes([2]))
        if not ORACLE_DUT:
            pytest.skip("PTOVEC_ORACLE_DUT is not set")
        r = ptovec("run", "--dut", ORACLE_DUT, "--vectors", path, "--results", self.path("r.bin"))
        assert r.returncode == 2
        assert "record 4 has control RTP Sat off where the header's controls put RNE Sat off" in error_of(r)
