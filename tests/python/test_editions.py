"""pytest of the installed package's editions (issue 43): ``edition=`` on eval, evaluate,
compare, ops, input_count and generate, and the readers' edition checks. Edition 2026-09's
answers are derived by hand from its ASL, as in tests/cli/test_edition.py (whose comments cite
the lines): TCVT converts by value there, where 0.58.3 copies the raw word.

Environment: as test_package.py (PTOVEC, the build's ptovec program, for the error lines).
"""
import json
import os
import subprocess

import numpy as np
import pytest

import ptovec
from ptovec import files

CLI = os.environ.get("PTOVEC") or ptovec.executable()
ED = "2026-09"


def cli_error(*args):
    run = subprocess.run([CLI, *args], capture_output=True, text=True)
    assert run.returncode == 2, run
    return run.stderr.strip()[len("ptovec: error: "):]


def test_editions_and_their_ops():
    assert ptovec.EDITIONS == ("0.58.3", "2026-09") and ptovec.DEFAULT_EDITION == "0.58.3"
    assert ptovec.ops(edition=ED) == ("tcvt", "encode", "shift", "qparam", "affine", "fpatr")
    assert ptovec.ops() == ptovec.ops(edition="0.58.3") and "tquant" in ptovec.ops()
    assert ptovec.input_count("tcvt", edition=ED) == 1
    with pytest.raises(ValueError) as e:
        ptovec.input_count("tquant", edition=ED)
    assert "ADR-TILE-0013" in str(e.value)
    with pytest.raises(ValueError, match=r"^unknown edition '2026-10' \(accepted: 0\.58\.3, "
                                         r"2026-09\)$"):
        ptovec.ops(edition="2026-10")


# (src, dst, word, rmode) -> (word, flags) of edition 2026-09, derived by hand.
HAND = [
    (("fp32", "fp16", 0x7F800000, "RNE"), (0x7C00, 0x00)),  # +Inf stays +Inf, no flag
    (("fp32", "fp16", 0x80000000, "RNE"), (0x8000, 0x00)),  # -0 keeps its sign
    (("fp32", "s32", 0x7FC00000, "RTZ"), (0x00000000, 0x01)),  # NaN -> 0 with NV
    (("e8m0", "fp32", 0x00, "RNE"), (0x00400000, 0x00)),  # 2^-127: FP32 subnormal
    (("e8m0", "fp32", 0x80, "RNE"), (0x40000000, 0x00)),  # 2^1
    (("fp16", "e6m2", 0x3C80, "RNE"), (0xC0, 0x10)),  # 1.125: tie, to even 1.0
    (("fp16", "e6m2", 0x3C80, "RNA"), (0xC1, 0x10)),  # 1.125: tie, away to 1.25
    (("fp64", "fp32", 0x3FF0000000000001, "RTP"), (0x3F800001, 0x10)),  # 1 + 2^-52 up
]


@pytest.mark.parametrize("case,expected", HAND)
def test_hand_derived_answers_of_2026_09(case, expected):
    src, dst, word, rmode = case
    result = ptovec.eval("tcvt", src, dst, word, rmode=rmode, edition=ED)
    assert (result.word, result.flags) == expected
    words, flags = ptovec.evaluate("tcvt", src, dst, np.array([word], np.uint64), rmode,
                                   edition=ED)
    assert (int(words[0]), int(flags[0])) == expected


def test_the_default_edition_is_0_58_3():
    # 0.58.3's TCVT FP32 -> FP16 copies the raw word: not 2026-09's +Inf (0x7c00).
    plain = ptovec.eval("tcvt", "fp32", "fp16", 0x7F800000)
    assert plain == ptovec.eval("tcvt", "fp32", "fp16", 0x7F800000, edition="0.58.3")
    assert plain.word != 0x7C00
    with pytest.raises(ValueError, match="unknown dst type 'e6m2'"):
        ptovec.eval("tcvt", "fp16", "e6m2", 0x3C00)


def test_refusals_are_the_command_lines():
    with pytest.raises(ValueError) as e:
        ptovec.eval("tcvt", "e6m2", "fp16", 0, rmode="RTZ", edition=ED)
    assert str(e.value) == cli_error("eval", "--edition", ED, "--op", "tcvt", "--src", "e6m2",
                                     "--dst", "fp16", "--rmode", "RTZ", "0x00")
    with pytest.raises(ValueError) as e:
        ptovec.eval("tquant", "fp32", "s8", [0, 0, 0], edition=ED)
    assert str(e.value) == cli_error("eval", "--edition", ED, "--op", "tquant", "--src", "fp32",
                                     "--dst", "s8", "0", "0", "0")
    with pytest.raises(ValueError, match="is not a string"):
        ptovec.eval("tcvt", "fp16", "fp32", 0, edition=1)


def test_compare_takes_the_editions_types():
    assert ptovec.compare("fp64", 1 << 63, 0, 1 << 63, 0, edition=ED).item() is True
    assert ptovec.compare("fp64", 1 << 63, 0, 1, 0, edition=ED).item() is False
    with pytest.raises(ValueError, match="unknown dst type 'fp64'"):
        ptovec.compare("fp64", 0, 0, 0, 0)


def test_generated_files_carry_the_edition_and_the_readers_check_it(tmp_path):
    folder = ptovec.generate(tmp_path / "e6m2", op="tcvt", src="e6m2", dst="fp16",
                             format="both", edition=ED)
    binary, text = folder / "tcvt_e6m2_fp16.bin", folder / "tcvt_e6m2_fp16.json"
    for path in (binary, text):
        header, records = files.read_vector_file(path, edition=ED)
        assert ptovec.edition_of(header) == ED
        # Every E6M2 code under RNE and RNA, Sat off and on; the file's expected words are
        # evaluate's (the C API) of the same edition.
        assert len(records) == 256 * 4
        rne_off = records[(records["rmode"] == 0) & (records["sat"] == 0)]
        words, flags = ptovec.evaluate("tcvt", "e6m2", "fp16", rne_off["in.value"], edition=ED)
        assert (words == rne_off["out"]).all() and (flags == rne_off["flags"]).all()
        with pytest.raises(files.VectorFileError, match="is of edition 2026-09, edition= says "
                                                        "0.58.3"):
            files.read_vector_file(path, edition="0.58.3")
    # A file of the default edition has no key and reads as 0.58.3.
    plain = ptovec.generate(tmp_path / "plain", op="tcvt", src="fp16", dst="e8m0")
    header, _ = files.read_vectors(plain / "tcvt_fp16_e8m0.bin", edition="0.58.3")
    assert "edition" not in header and ptovec.edition_of(header) == "0.58.3"
    # An edition the reader does not know is refused.
    text_bad = tmp_path / "bad.json"
    lines = text.read_text().split("\n", 1)
    head = json.loads(lines[0][:-len(',"vectors":[')] + "}")
    head["edition"] = "2026-10"
    text_bad.write_text(json.dumps(head, separators=(",", ":"))[:-1] + ',"vectors":[\n' + lines[1])
    with pytest.raises(files.VectorFileError, match="edition '2026-10', this reader knows"):
        files.read_vector_file(text_bad)
    assert files.type_widths(CLI, edition=ED)["fp64"] == 64


def test_registry_of_each_edition():
    """ptovec.registry reads each edition's ops, pairs and types (the package's registry.json
    carries 2026-09's under "editions"), and its headers mark 2026-09 as ptovec's files do."""
    from ptovec import registry
    ops = registry.registry(edition=ED)["ops"]
    assert [e["op"] for e in ops if "retired" not in e] == \
        ["tcvt", "encode", "shift", "qparam", "affine", "fpatr"]
    assert [e["op"] for e in ops if "retired" in e] == ["tquant", "tdequant"]
    assert "tquant" in [e["op"] for e in registry.registry()["ops"]]
    # The five types of 2026-09 (FP64, E6M2, RCPE6M2, E2M1X2, E1M2X2) are that edition's.
    assert registry.type_widths(edition=ED)["fp64"] == 64
    assert registry.type_widths(edition=ED)["e2m1x2"] == 4 and "e6m2" not in registry.type_widths()
    _, line = registry.pair_listing("tcvt", "fp16", "e6m2", edition=ED)
    assert (line["controls"], line["modes"]) == (4, "RNE RNA")
    with pytest.raises(ValueError, match=r"^tcvt has no legal pair fp16 -> e6m2"):
        registry.pair_listing("tcvt", "fp16", "e6m2")
    with pytest.raises(ValueError, match=r"^tquant of edition 2026-09 is retired by ADR-TILE-0013"):
        registry.pair_listing("tquant", "fp32", "s8", edition=ED)
    with pytest.raises(ValueError, match=r"^unknown op 'tcvt2' of edition 2026-09"):
        registry.pair_listing("tcvt2", "fp32", "s8", edition=ED)
    assert registry.pair_header("tcvt", "fp32", "fp16", inputs=1, edition=ED)["edition"] == ED
    assert "edition" not in registry.pair_header("tcvt", "fp32", "fp16", inputs=1)
    with pytest.raises(ValueError, match=r"^edition '2026-10' is not one of 0\.58\.3, 2026-09$"):
        registry.registry(edition="2026-10")


def test_cases_from_evaluate_of_2026_09():
    """Cases of a 2026-09 pair with two modes take its four controls; 1.125 (FP16 0x3c80) is the
    tie between E6M2's 1.0 (0xc0) and 1.25 (0xc1): RNE keeps the even 1.0, RNA goes away, both
    with NX (as HAND above); the eval line names the edition."""
    from ptovec import stream
    cases = stream.cases_from_evaluate("tcvt", "fp16", "e6m2", [0x3C80], edition=ED)
    assert [(c.rmode, c.sat, c.word, c.flags) for c in cases] == [
        (0, False, 0xC0, 0x10), (0, True, 0xC0, 0x10), (4, False, 0xC1, 0x10),
        (4, True, 0xC1, 0x10)]
    assert cases[2].eval_line() == ("ptovec eval --edition 2026-09 --op tcvt --src fp16 --dst "
                                    "e6m2 --rmode RNA 0x3c80")
    assert files.edition_of(cases[0].pair.header) == ED
