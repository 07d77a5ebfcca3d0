"""`--edition` on `ptovec list` and `ptovec eval` (issue 43, first CLI slice): edition 2026-09's
TCVT answers the texts of /work/shared/spec-2026-09 give, its refusals (illegal pair, illegal
mode, the retired TQUANT and TDEQUANT), the edition's list, and edition 0.58.3 (the default)
unchanged.

Every expected word and flag below is derived by hand from the ASL, following the lines each
test cites (files of commit 01445483 unless said otherwise: asl/tile/model/numeric/...); none is
computed by ptovec. The route of a pair through TCVT's element step is formats.asl lines 185-204:
E8M0, packed FP4, E6M2 and RCPE6M2 pairs go to ReferenceTCVTConvert (tcvt-conversion.asl lines
159-186), every other pair to TileConvertValue (formats.asl lines 130-144), which sends a
floating pair to TileProfileConvert (lines 97-128): two types of the 12-type common set
(reference-conversion.asl lines 12-27: FP64 FP32 FP16 E4M3 S/U 64..8) to ReferenceCommonConvert
(lines 142-176).

Run by ctest (tests/cli/CMakeLists.txt) with Debian's /usr/bin/python3 -m pytest; the helper
ptovec_cli.py gives ptovec(*args) and this build's paths.
"""
import json

from ptovec_cli import ptovec

ED = ["--edition", "2026-09"]


def eval_lines(*args):
    """The JSON lines of a `ptovec eval` that must pass."""
    r = ptovec("eval", *args)
    assert r.returncode == 0, r.stderr
    return [json.loads(line) for line in r.stdout.splitlines()]


def eval_one(*args):
    """The one JSON line of a `ptovec eval` that must pass and print one case."""
    lines = eval_lines(*args)
    assert len(lines) == 1, lines
    return lines[0]


def refused(*args):
    """The one error line of a command that must be refused (exit 2, nothing on stdout)."""
    r = ptovec(*args)
    assert r.returncode == 2, f"{args}: {r.stdout}"
    assert r.stdout == "", args
    assert r.stderr.startswith("ptovec: error: ") and r.stderr.count("\n") == 1, r.stderr
    return r.stderr


def answer(line):
    """(out, flags) of an eval line."""
    return line["out"], line["flags"]


class TestEval2026_09:
    """`eval --edition 2026-09 --op tcvt`: Convert2026_09's answers."""

    def test_infinity_keeps_its_value_with_no_flag(self):
        # FP32 +Inf (0x7f800000) -> FP16: ReferenceCommonConvertSpecial, reference-conversion.asl
        # lines 105-111: an infinity to a floating type with an infinity is that infinity, status
        # 0; ReferenceCommonFloatingInfinity (lines 65-82) gives FP16's +Inf 0x7c00 (line 78).
        # Sat does not matter (line 111 returns before Sat is read at line 112).
        line = eval_one(*ED, "--op", "tcvt", "--src", "fp32", "--dst", "fp16", "0x7f800000")
        assert answer(line) == ("0x7c00", "0x00")
        assert line["edition"] == "2026-09" and line["flag_names"] == "-"
        line = eval_one(*ED, "--op", "tcvt", "--src", "fp32", "--dst", "fp16", "--rmode", "RTZ",
                        "--sat", "0xff800000")
        assert answer(line) == ("0xfc00", "0x00")  # -Inf: 0xfc00 (line 78), Sat on

    def test_negative_zero_is_kept(self):
        # FP32 -0 (0x80000000) -> FP16: lines 128-137: a zero to a floating type is the signed
        # zero of HardwareNumericSignedZeroEncodings, FP16's -0 the sign bit alone, 0x8000.
        line = eval_one(*ED, "--op", "tcvt", "--src", "fp32", "--dst", "fp16", "0x80000000")
        assert answer(line) == ("0x8000", "0x00")
        assert line["out_value"] == "-0"

    def test_nan_to_an_integer_is_zero_with_nv(self):
        # FP32 quiet NaN (0x7fc00000) -> S32: lines 91-104: a NaN to a destination that is not
        # floating returns (0, NV) (line 104), in every mode.
        for mode in ("RNE", "RTZ"):
            line = eval_one(*ED, "--op", "tcvt", "--src", "fp32", "--dst", "s32", "--rmode", mode,
                            "0x7fc00000")
            assert answer(line) == ("0x00000000", "0x01")
            assert line["flag_names"] == "NV"

    def test_from_e8m0(self):
        # E8M0 -> FP32: ReferenceTCVTConvertFromE8M0, tcvt-conversion.asl lines 140-157: code c
        # is 2^(c - 127) (lines 153-154) encoded by ReferenceMatrixFloatingEncoding (FP32 branch:
        # ReferenceFP32FiniteEncoding, asl/scalar/model/fsu/reference-quantization.asl at 279744b
        # lines 62-119). Code 0x00 is 2^-127 < 2^-126: lines 86-96 scale by 2^149 to 2^22, exact:
        # the subnormal 0x00400000 with no flag (UF only when inexact, lines 95-96). Code 0x80 is
        # 2^1: exponent field 128, fraction 0: 0x40000000. Code 0xff (lines 147-152) is the
        # canonical NaN 0x7fc00000 without NV.
        lines = eval_lines(*ED, "--op", "tcvt", "--src", "e8m0", "--dst", "fp32",
                           "0x00", "0x80", "0xff")
        assert [answer(line) for line in lines] == [
            ("0x00400000", "0x00"), ("0x40000000", "0x00"), ("0x7fc00000", "0x00")]

    def test_e6m2_takes_rne_and_rna(self):
        # FP16 1.125 (0x3c80) -> E6M2: ReferenceTCVTConvertToE6M2 (tcvt-conversion.asl lines
        # 73-104) calls ReferenceE6M2Encoding (packed-conversion.asl lines 164-201): the search
        # over codes 0..254 (lines 180-193). E6M2 code e:f is (4 + f)/4 * 2^(e - 48) (e6m2.asl at
        # c72ff36 lines 41-47): 0xc0 (e 48, f 0) is 1.0, 0xc1 is 1.25, equally near 1.125.
        # ReferenceE6M2CandidateBetter (lines 143-162) breaks the tie: RNE keeps the even code
        # 0xc0 (line 156), RNA takes the larger value 0xc1 (line 158). Inexact and not below 2^-48:
        # NX (lines 195-200).
        rne = eval_one(*ED, "--op", "tcvt", "--src", "fp16", "--dst", "e6m2", "0x3c80")
        assert answer(rne) == ("0xc0", "0x10")
        rna = eval_one(*ED, "--op", "tcvt", "--src", "fp16", "--dst", "e6m2", "--rmode", "RNA",
                       "0x3c80")
        assert answer(rna) == ("0xc1", "0x10")
        # FP16 +0 (0x0000): lines 86-88 of tcvt-conversion.asl: code 0x00 (2^-48) with UF|NX.
        zero = eval_one(*ED, "--op", "tcvt", "--src", "fp16", "--dst", "e6m2", "0x0000")
        assert answer(zero) == ("0x00", "0x18")

    def test_e6m2_refuses_the_other_modes(self):
        # HardwareTCVTRoundingModeSupported, e8m0-conversion.asl lines 86-97: a pair with E6M2
        # takes RNE and RNA only.
        error = refused("eval", *ED, "--op", "tcvt", "--src", "fp16", "--dst", "e6m2",
                        "--rmode", "RTZ", "0x3c80")
        assert "HardwareTCVTRoundingModeSupported" in error
        assert "RTZ" in error and "RNE and RNA only" in error
        # --rmode all gives the legal modes only: RNE then RNA, each Sat off then on.
        lines = eval_lines(*ED, "--op", "tcvt", "--src", "fp16", "--dst", "e6m2", "--rmode",
                           "all", "--sat", "both", "0x3c80")
        assert [(line["rmode"], line["sat"]) for line in lines] == [
            ("RNE", False), ("RNE", True), ("RNA", False), ("RNA", True)]

    def test_illegal_pair_names_the_rule(self):
        # HardwareTCVTTypePairSupported, e8m0-conversion.asl lines 48-52: from E8M0 only to FP16,
        # BF16 and FP32.
        error = refused("eval", *ED, "--op", "tcvt", "--src", "e8m0", "--dst", "s32", "0x7f")
        assert "HardwareTCVTTypePairSupported" in error and "e8m0 -> s32" in error
        assert "--dst accepted for e8m0: fp32, fp16, bf16" in error

    def test_retired_ops_are_refused(self):
        # ADR-TILE-0013 (/work/shared/spec-2026-09/README.md): TQUANT and TDEQUANT fault from
        # publication 0.58.5.1.
        for case in (["--op", "tquant", "--src", "fp32", "--dst", "s8", "0x3f800000",
                      "0x3f800000", "0x00"],
                     ["--op", "tdequant", "--src", "s8", "--dst", "fp32", "0x01", "0x3f800000",
                      "0x00"]):
            assert ptovec("eval", *case).returncode == 0  # a case of edition 0.58.3
            error = refused("eval", *ED, *case)
            assert f"'{case[1]}'" in error and "ADR-TILE-0013" in error
            assert "0.58.5.1" in error

    def test_bad_edition_is_refused(self):
        error = refused("eval", "--edition", "2026-10", "--op", "tcvt", "--src", "fp32",
                        "--dst", "fp16", "0x0")
        assert "'2026-10'" in error and "0.58.3, 2026-09" in error
        error = refused("list", "--edition", "0.58")
        assert "'0.58'" in error and "0.58.3, 2026-09" in error

    def test_words_and_values_of_the_new_types(self):
        # Decimal inputs: FP64 -inf and -0 are its infinity and signed zero (IEEE binary64); to
        # FP32 by reference-conversion.asl lines 105-111 (FP32's -Inf 0xff800000, line 75) and
        # 128-137 (-0 kept).
        lines = eval_lines(*ED, "--op", "tcvt", "--src", "fp64", "--dst", "fp32", "--", "-inf",
                           "-0", "1.5")
        assert [line["in"][0] for line in lines] == [
            "0xfff0000000000000", "0x8000000000000000", "0x3ff8000000000000"]
        assert [answer(line) for line in lines] == [
            ("0xff800000", "0x00"), ("0x80000000", "0x00"), ("0x3fc00000", "0x00")]
        # RCPE6M2 code 0xc1 is 1 / E6M2's 1.25 (rcpe6m2.asl at f372ad9 lines 29-33) = 0.8; to FP16
        # by ReferenceTCVTConvertFromRCPE6M2 (tcvt-conversion.asl lines 123-138): 0.8 = 1.6 *
        # 2^-1, fraction 0.6 * 1024 = 614.4, RNE 614 = 0x266: 0x3800 + 0x266 = 0x3a66, NX.
        line = eval_one(*ED, "--op", "tcvt", "--src", "rcpe6m2", "--dst", "fp16", "0xc1")
        assert line["in_value"] == ["1/1.25"]
        assert answer(line) == ("0x3a66", "0x10")
        # E6M2 has no zero and no negative values; RCPE6M2 takes hex words only.
        assert "no zero" in refused("eval", *ED, "--op", "tcvt", "--src", "e6m2", "--dst", "fp16",
                                    "0")
        assert "in hex" in refused("eval", *ED, "--op", "tcvt", "--src", "rcpe6m2", "--dst",
                                   "fp16", "0.5")
        assert "1.25" == eval_one(*ED, "--op", "tcvt", "--src", "e6m2", "--dst", "fp16",
                                  "1.25")["in_value"][0]

    def test_reproduce_line_runs_in_a_batch(self):
        # A batch line may carry --edition; a line without it is edition 0.58.3's.
        r = ptovec("eval", "--batch", "-", stdin=(
            "ptovec eval --edition 2026-09 --op tcvt --src fp32 --dst fp16 0x7f800000\n"
            "--op tcvt --src fp32 --dst fp16 0x7f800000\n"))
        assert r.returncode == 0, r.stderr
        first, second = [json.loads(line) for line in r.stdout.splitlines()]
        assert answer(first) == ("0x7c00", "0x00") and first["edition"] == "2026-09"
        # 0.58.3's TCVT copies the word's low 16 bits (TileProfileConvert, seed 001 lines
        # 154-168): 0x0000.
        assert answer(second) == ("0x0000", "0x00") and "edition" not in second


class TestEdition0_58_3:
    """The default edition is 0.58.3, and naming it changes nothing."""

    def test_eval_default_is_0_58_3(self):
        args = ["--op", "tcvt", "--src", "fp32", "--dst", "fp16", "0x7f800000"]
        default = ptovec("eval", *args)
        named = ptovec("eval", "--edition", "0.58.3", *args)
        assert default.returncode == 0 and named.returncode == 0, default.stderr
        assert default.stdout == named.stdout
        assert json.loads(default.stdout)["out"] == "0x0000"  # the raw copy
        assert "edition" not in json.loads(default.stdout)

    def test_list_default_is_0_58_3(self):
        default = ptovec("list")
        named = ptovec("list", "--edition", "0.58.3")
        assert default.returncode == 0, default.stderr
        assert default.stdout == named.stdout
        ops = [op["op"] for op in json.loads(ptovec("list", "--json").stdout)]
        assert ops == ["tcvt", "encode", "shift", "qparam", "tquant", "tdequant", "affine", "fpatr"]
        assert "e6m2" not in default.stdout and "fp64" not in default.stdout
        assert "ADR-TILE-0013" not in default.stdout

    def test_new_types_are_of_2026_09_only(self):
        error = refused("eval", "--op", "tcvt", "--src", "fp16", "--dst", "e6m2", "0x3c00")
        assert "'e6m2'" in error and "--edition 2026-09" in error


class TestList2026_09:
    """`list --edition 2026-09`: the edition's ops, pairs, modes and sizes."""

    def test_ops_and_retired_ops(self):
        listing = json.loads(ptovec("list", *ED, "--json").stdout)
        assert [op["op"] for op in listing if "retired" not in op] == [
            "tcvt", "encode", "shift", "qparam", "affine", "fpatr"]
        retired = [op for op in listing if "retired" in op]
        assert [op["op"] for op in retired] == ["tquant", "tdequant"]
        assert all("ADR-TILE-0013" in op["retired"] and op["pairs"] == [] for op in retired)
        text = ptovec("list", *ED).stdout
        assert "tquant  (TQUANT): not in edition 2026-09: retired by ADR-TILE-0013" in text
        assert "tdequant  (TDEQUANT): not in edition 2026-09: retired by ADR-TILE-0013" in text

    def test_tcvt_pairs(self):
        tcvt = json.loads(ptovec("list", *ED, "--op", "tcvt", "--json").stdout)[0]
        pairs = {(p["src"], p["dst"]): p for p in tcvt["pairs"]}
        # HardwareTCVTTypePairSupported (e8m0-conversion.asl lines 26-84) over the 21 tile data
        # types (16 of 0.58.3 without FP19, and FP64 E6M2 RCPE6M2 E2M1X2 E1M2X2): RCPE6M2 -> FP16,
        # BF16 (2); E8M0 -> FP16, BF16, FP32 (3); E6M2 <-> FP16, BF16 (4); the packed lanes <->
        # FP32, FP16, BF16 (2 x 3 x 2 = 12); FP16, BF16, FP32 -> E8M0 (3); and every pair of the
        # 16 other types (256): 280.
        assert len(pairs) == 280
        assert not [p for p in pairs if "rcpe6m2" == p[1] or "hif4x2" in p]
        assert {d for s, d in pairs if s == "e8m0"} == {"fp16", "bf16", "fp32"}
        assert {s for s, d in pairs if d == "e8m0"} == {"fp16", "bf16", "fp32"}
        # Modes: RNE and RNA only with E6M2 on either side or from RCPE6M2 (lines 86-97), each
        # with Sat off and on; every other pair 7 modes x 2.
        limited = {p: (v["controls"], v["modes"]) for p, v in pairs.items() if "modes" in v}
        assert limited == {p: (4, "RNE RNA") for p in [
            ("fp16", "e6m2"), ("bf16", "e6m2"), ("e6m2", "fp16"), ("e6m2", "bf16"),
            ("rcpe6m2", "fp16"), ("rcpe6m2", "bf16")]}
        assert all(v["controls"] == 14 for p, v in pairs.items() if p not in limited)
        # Sizes: every code of an 8- or 16-bit source x its controls; 4-bit lanes 16 codes.
        assert pairs[("fp16", "e6m2")]["vectors"] == 65536 * 4
        assert pairs[("e6m2", "bf16")]["vectors"] == 256 * 4
        assert pairs[("e2m1x2", "fp32")]["vectors"] == 16 * 14
        assert pairs[("e8m0", "fp16")]["vectors"] == 256 * 14
        # The raw word (formats.asl lines 122-127): the 16 types' pairs outside the common set
        # that are not integer to integer: 256 - 12 x 12 (common) - 36 (integer pairs with S4X2
        # or U4X2: 10 x 10 - 8 x 8) = 76; marked with a note.
        raw = {p for p, v in pairs.items() if "note" in v}
        assert len(raw) == 76
        assert ("fp16", "bf16") in raw and ("fp32", "fp16") not in raw
        assert ("s8", "s4x2") not in raw  # TileConvertIntegerValue

    def test_text_listing(self):
        text = ptovec("list", *ED, "--op", "tcvt", "--src", "fp16").stdout
        assert "* fp16 -> e6m2: 262144, 4 (RNE RNA)" in text
        assert "* fp16 -> fp32: 917504, 14\n" in text
        assert "fp16 -> bf16: 917504, 14  (raw copy, see note)" in text
        assert "note: each pair marked (raw copy) copies the source word's bits" in text

    def test_types(self):
        names = [t["name"] for t in json.loads(ptovec("list", *ED, "--types", "--json").stdout)]
        assert names[-5:] == ["fp64", "e6m2", "rcpe6m2", "e2m1x2", "e1m2x2"]
        default = [t["name"] for t in json.loads(ptovec("list", "--types", "--json").stdout)]
        assert names[:-5] == default and len(default) == 17
