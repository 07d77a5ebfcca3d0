"""`ptovec eval` and the one-line errors of generate, eval and list: known answers, raw-copy pairs,
key order and text, decimal inputs, every mode and Sat, --batch error lines, eval agreeing with
the files; bad input is one line on stderr naming the bad value, exit 2, nothing written.

Run by ctest (tests/cli/CMakeLists.txt) with Debian's /usr/bin/python3 -m pytest; the helper
ptovec_cli.py gives ptovec(*args) and this build's paths.
"""
import json
import os
import tempfile

import numpy as np

from ptovec_cli import MODES, files, generate, ptovec, schema_validator, subtest

_eval_line = schema_validator("eval-line.schema.json")


def assert_valid(test, name, document, what):
    errors = sorted(_eval_line.iter_errors(document), key=lambda e: list(e.absolute_path))
    assert [] == [f"{list(e.absolute_path)}: {e.message[:300]}" for e in errors[:5]], f"{what} does not match the {name} schema"


class TestUsageErrors:
    """Bad input: one line on stderr naming the bad value, exit 2, nothing written."""

    def check(self, args, *named):
        with tempfile.TemporaryDirectory(prefix="ptovec-errors-") as tmp:
            out = os.path.join(tmp, "out")
            full = [a.replace("OUT", out) for a in args]
            r = ptovec(*full)
            assert r.returncode == 2, f"{full}: {r.stderr}"
            assert r.stdout == "", full
            assert (r.stderr.endswith("\n") and r.stderr.count("\n") == 1), f"{full}: {r.stderr!r}"
            assert r.stderr.startswith("ptovec: error: "), r.stderr
            for value in named:
                assert value in r.stderr, full
            assert not os.path.exists(out), f"{full} created its output folder"

    def test_generate_errors(self):
        gen = ["generate", "--out", "OUT", "--quiet"]
        self.check(gen + ["--op", "nosuchop"], "'nosuchop'", "tcvt")
        self.check(gen + ["--op", "tcvt", "--src", "fp17", "--dst", "e8m0"], "'fp17'", "fp16")
        self.check(gen + ["--op", "tcvt", "--src", "fp16", "--dst", "e9m0"], "'e9m0'")
        self.check(gen + ["--op", "tcvt", "--src", "e4m3", "--dst", "e8m0"], "e4m3", "e8m0")
        self.check(gen + ["--op", "tcvt", "--format", "xml"], "'xml'", "both")
        self.check(gen + ["--op", "tcvt", "--samples", "0"], "--samples", "0")

    def test_eval_errors(self):
        ev = ["eval", "--op", "tcvt", "--src", "fp16", "--dst", "e8m0"]
        self.check(["eval", "--op", "nosuchop", "--src", "fp16", "--dst", "e8m0", "0x3c00"], "'nosuchop'")
        self.check(["eval", "--op", "tcvt", "--src", "fp17", "--dst", "e8m0", "0x3c00"], "'fp17'")
        self.check(ev + ["--rmode", "RXX", "0x3c00"], "'RXX'", "RNE")
        self.check(["eval", "--op", "tcvt", "--src", "e4m3", "--dst", "e8m0", "0x38"], "e4m3", "e8m0")
        self.check(ev + ["0xzz"], "'0xzz'")
        self.check(ev + ["3c00"], "'3c00'")
        self.check(ev + ["0x10000"], "'0x10000'", "fp16")
        self.check(ev + ["0x3c00", "0xzz"], "'0xzz'")  # a bad word prints nothing, not even the good one
        self.check(ev, "input")

    def test_list_filters_by_op_and_types(self):
        r = ptovec("list", "--op", "tcvt", "--dst", "e8m0")
        assert r.returncode == 0, r.stderr
        pairs = [l.strip() for l in r.stdout.splitlines() if l.strip().startswith(("*", "fp", "bf"))]
        assert pairs == (["* fp32 -> e8m0: 1400000", "* fp16 -> e8m0: 917504",
                                 "* bf16 -> e8m0: 917504"])  # TCVT converts to E8M0 from these
        assert "encode" not in r.stdout
        listing = json.loads(ptovec("list", "--json", "--src", "s32").stdout)
        assert all(p["src"] == "s32" for op in listing for p in op["pairs"])
        assert "encode" in [op["op"] for op in listing]
        self.check(["list", "--op", "tcvtx"], "'tcvtx'")
        self.check(["list", "--op", "shift", "--dst", "e8m0"], "no legal pair matches")

    def test_eval_controls_of_an_op_without_controls(self):
        """An op whose vectors are all RNE, Sat off refuses another --rmode or --sat."""
        r = ptovec("list", "--json")
        assert r.returncode == 0, r.stderr
        ops = [op for op in json.loads(r.stdout) if op["controls"] == 1]
        for op in ops:
            pair = op["pairs"][0]
            zeros = ["0x0"] * len(op["slots"])
            base = ["eval", "--op", op["op"], "--src", pair["src"], "--dst", pair["dst"]]
            with subtest(op=op["op"]):
                self.check(base + ["--rmode", "RTZ"] + zeros, "--rmode RTZ", op["op"])
                self.check(base + ["--sat"] + zeros, "--sat", op["op"])


class TestEval:
    def eval_lines(self, *args, code=0):
        r = ptovec("eval", *args)
        assert r.returncode == code, r.stderr
        lines = r.stdout.splitlines()
        for line in lines:
            assert_valid(self, "eval", json.loads(line), f"eval line {line}")
        return lines

    def answer(self, src, rmode, word, sat=False):
        args = ["--op", "tcvt", "--src", src, "--dst", "e8m0", "--rmode", rmode, word] + (["--sat"] if sat else [])
        (line,) = self.eval_lines(*args)
        result = json.loads(line)
        assert (result["src"], result["rmode"], result["sat"], result["in"]) == (src, rmode, sat, [word])
        return result["out"], result["flags"]

    def test_known_answers(self):
        assert self.answer("fp16", "RTZ", "0x3c00") == ("0x7f", "0x00")
        assert self.answer("fp16", "RNE", "0x3e00") == ("0x80", "0x10")  # 1.5 > sqrt(2): up
        assert self.answer("fp16", "RTZ", "0x3e00") == ("0x7f", "0x10")
        assert self.answer("bf16", "RNE", "0x7f80", sat=True) == ("0xfe", "0x14")
        assert self.answer("bf16", "RNE", "0x7f80") == ("0xff", "0x14")
        assert self.answer("fp16", "RNE", "0x0000") == ("0xff", "0x01")

    def test_raw_copy_pairs_say_so(self):
        # tcvt to a type other than E8M0 copies bits: 449.0 (0x43e08000) into e4m3 is its low byte.
        r = ptovec("eval", "--op", "tcvt", "--src", "fp32", "--dst", "e4m3", "0x43e08000")
        assert r.returncode == 0, r.stderr
        assert json.loads(r.stdout)["out"] == "0x00"
        assert "ptovec: note: tcvt to e4m3 copies the source word's bits" in r.stderr
        assert "use --op encode" in r.stderr
        r = ptovec("eval", "--op", "tcvt", "--src", "fp32", "--dst", "e8m0", "0x43e08000")
        assert r.stderr == ""
        # encode converts the value: 449 overflows E4M3 (largest 448) under every mode.
        r = ptovec("eval", "--op", "encode", "--src", "fp32", "--dst", "e4m3", "0x43e08000")
        assert (json.loads(r.stdout)["out"], json.loads(r.stdout)["flags"]) == ("0x7f", "0x14")
        listing = json.loads(ptovec("list", "--json").stdout)
        tcvt = next(op for op in listing if op["op"] == "tcvt")
        noted = {(p["src"], p["dst"]) for p in tcvt["pairs"] if "note" in p}
        assert noted == {(p["src"], p["dst"]) for p in tcvt["pairs"] if p["dst"] != "e8m0"}
        assert all("note" not in p for op in listing if op["op"] != "tcvt" for p in op["pairs"])
        assert "note: tcvt to any type but e8m0 copies the source word's bits" in ptovec("list").stdout
        assert "use --op encode" in ptovec("eval", "--help").stdout

    def test_key_order_and_text(self):
        (line,) = self.eval_lines("--op", "tcvt", "--src", "fp16", "--dst", "e8m0", "--rmode", "RTZ", "0x3c00")
        assert line == ('{"op":"tcvt","src":"fp16","dst":"e8m0","rmode":"RTZ","sat":false,'
                               '"in":["0x3c00"],"out":"0x7f","flags":"0x00","in_value":["1"],'
                               '"out_value":"1","flag_names":"-"}')
        keys = json.loads(line, object_pairs_hook=lambda pairs: [k for k, _ in pairs])
        assert keys == (["op", "src", "dst", "rmode", "sat", "in", "out", "flags",
                                "in_value", "out_value", "flag_names"])
        lines = self.eval_lines("--op", "tcvt", "--src", "fp16", "--dst", "e8m0", "0x3C00", "0x1", "0xffff")
        assert [json.loads(x)["in"] for x in lines] == [["0x3c00"], ["0x0001"], ["0xffff"]]

    def test_decimal_inputs_decoded_values_and_flag_names(self):
        def one(*args):
            (line,) = self.eval_lines(*args)
            return json.loads(line)
        # 449 into E4M3 overflows under every mode: NaN without Sat, 448 with it.
        r = one("--op", "encode", "--src", "fp32", "--dst", "e4m3", "449")
        assert (r["in"], r["in_value"], r["out"], r["out_value"], r["flag_names"]) == (["0x43e08000"], ["449"], "0x7f", "NaN", "OF|NX")
        # E8M0 RTZ of 0.75 is 1.0 (toward exponent 0); RTM 0.5.
        r = one("--op", "tcvt", "--src", "fp32", "--dst", "e8m0", "--rmode", "RTZ", "0.75")
        assert (r["in"], r["out_value"], r["flag_names"]) == (["0x3f400000"], "1", "NX")
        # Integers, negative zero, infinity, exponents; an exact value past 30 digits as m*2^e.
        assert one("--op", "encode", "--src", "s32", "--dst", "s8", "-300")["in"] == ["0xfffffed4"]
        assert one("--op", "encode", "--src", "s32", "--dst", "s8", "-1.5e2")["in_value"] == ["-150"]
        assert one("--op", "encode", "--src", "fp16", "--dst", "e4m3", "-0")["in"] == ["0x8000"]
        assert one("--op", "tcvt", "--src", "fp16", "--dst", "e8m0", "inf")["in_value"] == ["+Inf"]
        assert one("--op", "tcvt", "--src", "fp32", "--dst", "e8m0", "0x00000003")["in_value"] == ["3*2^-149"]
        assert one("--op", "tcvt", "--src", "fp32", "--dst", "e8m0", "0x00000001")["in_value"] == ["2^-149"]
        assert one("--op", "encode", "--src", "fp32", "--dst", "bf16", "0x7f400000")["in_value"] == ["3*2^126"]  # 1.5 * 2^127: 39 digits
        assert one("--op", "encode", "--src", "fp32", "--dst", "bf16", "65504")["in_value"] == ["65504"]
        assert one("--op", "encode", "--src", "fp16", "--dst", "fp32", "0x0001")["in_value"] == ["0.000000059604644775390625"]
        # A decimal that is no code's value: the nearest code (RNE), and a note on stderr.
        r = ptovec("eval", "--op", "encode", "--src", "fp16", "--dst", "e4m3", "0.1")
        assert json.loads(r.stdout)["in"] == ["0x2e66"]
        assert ("note: 0.1 is not exactly a value of fp16; it is taken as the nearest (RNE) "
                      "0x2e66 = 0.0999755859375") in r.stderr
        assert "note" not in ptovec("eval", "--op", "encode", "--src", "fp16", "--dst", "e4m3", "0.5").stderr
        # Values a type cannot hold are refused with one line.
        for args, message in [
                (("--src", "fp16", "--dst", "e4m3", "1e6"), "value '1e6' is beyond fp16's finite range"),
                (("--src", "e4m3", "--dst", "fp16", "inf"), "value 'inf': e4m3 has no infinity"),
                (("--src", "s32", "--dst", "s8", "0.5"), "value '0.5' is not an integer (s32)"),
                (("--src", "s32", "--dst", "s8", "3000000000"), "outside s32's range -2147483648..2147483647"),
                (("--src", "fp16", "--dst", "e4m3", "1.2.3"), "malformed value word '1.2.3'")]:
            r = ptovec("eval", "--op", "encode", *args)
            assert r.returncode == 2, args
            assert message in r.stderr
            assert len(r.stderr.strip().splitlines()) == 1, r.stderr

    def test_sat_both_and_every_mode(self):
        lines = [json.loads(x) for x in self.eval_lines(
            "--op", "encode", "--src", "fp32", "--dst", "e4m3", "--sat", "both", "449")]
        assert [(x["sat"], x["out"]) for x in lines] == [(False, "0x7f"), (True, "0x7e")]
        lines = [json.loads(x) for x in self.eval_lines(
            "--op", "tcvt", "--src", "fp16", "--dst", "e8m0", "--rmode", "all", "--sat", "both", "1.5")]
        assert [(x["rmode"], x["sat"]) for x in lines] == [(m, s) for m in ["RNE", "RTM", "RTP", "RTZ", "RNA", "RTO", "RHB"] for s in (False, True)]
        assert [x["out"] for x in lines][::2] == ["0x80", "0x7f", "0x80", "0x7f", "0x80", "0x80", "0x80"]
        lines = [json.loads(x) for x in self.eval_lines(
            "--op", "tcvt", "--src", "fp16", "--dst", "e8m0", "--sat", "off", "1.5")]
        assert [x["sat"] for x in lines] == [False]
        r = ptovec("eval", "--op", "tcvt", "--src", "fp16", "--dst", "e8m0", "both", "1.5")
        assert r.returncode == 2
        assert "'both' is a Sat value, not an input word: write --sat both" in r.stderr

    def test_batch_error_lines(self):
        with tempfile.TemporaryDirectory(prefix="ptovec-batch-") as tmp:
            batch = os.path.join(tmp, "cases.txt")
            with open(batch, "w") as f:
                f.write("--op tcvt --src fp16 --dst e8m0 --rmode RTZ 0x3c00\n"
                        "--op tcvt --src fp16 --dst e8m0 0xzz\n"
                        "\n"
                        "--op tcvt --src e4m3 --dst e8m0 0x38\n"
                        "--op tcvt --src bf16 --dst e8m0 --sat 0x7f80\n"
                        "  # a comment, skipped\n"
                        "    ptovec eval --op tcvt --src fp16 --dst e8m0 --rmode RTZ 0x3e00\n"
                        "build/tools/ptovec eval --op tcvt --src fp16 --dst e8m0 --rmode all 0x3e00\n")
            lines = [json.loads(x) for x in self.eval_lines("--batch", batch, code=1)]
        # Blank and comment lines are skipped; a report's reproduce line (with or without a path
        # before ptovec) is a case; --rmode all gives one line per mode.
        assert len(lines) == (4 + 1 + 7)
        assert (lines[0]["out"], lines[3]["out"], lines[3]["flags"]) == ("0x7f", "0xfe", "0x14")
        assert [x.get("line") for x in lines[:4]] == [None, 2, 4, None]
        assert "'0xzz'" in lines[1]["error"]
        assert "e4m3" in lines[2]["error"]
        for x in lines[1:3]:
            assert list(x) == ["line", "error"]
        assert (lines[4]["rmode"], lines[4]["out"]) == ("RTZ", "0x7f")
        assert [(x["rmode"], x["out"]) for x in lines[5:]] == ([("RNE", "0x80"), ("RTM", "0x7f"), ("RTP", "0x80"), ("RTZ", "0x7f"),
                          ("RNA", "0x80"), ("RTO", "0x80"), ("RHB", "0x80")])

    def test_eval_agrees_with_files(self):
        """A few records of the exhaustive FP16 file, re-evaluated by `ptovec eval --batch`."""
        with tempfile.TemporaryDirectory(prefix="ptovec-evalfile-") as tmp:
            generate(tmp, "--op", "tcvt", "--src", "fp16", "--dst", "e8m0")
            header, records = files.read_vectors(os.path.join(tmp, "tcvt_fp16_e8m0.bin"))
            picked = records[np.random.default_rng(7).choice(len(records), 300, replace=False)]
            batch = os.path.join(tmp, "cases.txt")
            with open(batch, "w") as f:
                for r in picked:
                    f.write(f"--op tcvt --src fp16 --dst e8m0 --rmode {MODES[r['rmode']]}"
                            f"{' --sat' if r['sat'] else ''} 0x{int(r['in.value']):04x}\n")
            lines = [json.loads(x) for x in self.eval_lines("--batch", batch)]
        assert [(int(x["out"], 16), int(x["flags"], 16)) for x in lines] == [(int(r["out"]), int(r["flags"])) for r in picked]
