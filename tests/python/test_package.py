"""pytest of the installed Python package `ptovec` (pip install ., tests/python/CMakeLists.txt):
known answers of the specification's own tests (spec-notes section 6), `evaluate` against `eval`
case by case and against the expected words of a `generate`d vector file, `generate` byte for
byte against the command line, the errors (ValueError with the C API's message), the stub and
the `python -m ptovec` command.

Environment: PTOVEC_PACKAGE_DIR, the folder the package was installed into (the test checks that
it imports that one, not the source tree's python/ptovec); PTOVEC, the build's ptovec program
(the command line `generate` and the error lines are compared with; default: the package's own).
"""
import importlib.metadata
import inspect
import os
import re
import subprocess
import sys
import typing
from pathlib import Path

import numpy as np
import pytest

import ptovec

CLI = os.environ.get("PTOVEC") or ptovec.executable()


def cli_error(*args):
    """The one error line `ptovec ARGS` prints (exit status 2), without "ptovec: error: "."""
    run = subprocess.run([CLI, *args], capture_output=True, text=True)
    assert run.returncode == 2, run
    assert run.stderr.startswith("ptovec: error: "), run.stderr
    return run.stderr.strip()[len("ptovec: error: "):]


def test_imports_the_installed_package_with_its_stub():
    package = Path(ptovec.__file__).parent
    expected = os.environ.get("PTOVEC_PACKAGE_DIR")
    if expected:
        assert package == Path(expected).resolve(), "imported the source tree's ptovec?"
    from ptovec import _core
    assert Path(_core.__file__).parent == package
    assert (package / "_core.pyi").is_file() and (package / "py.typed").is_file()
    assert "def evaluate_batch(op: str, src_code: int" in (package / "_core.pyi").read_text()
    assert (package / "libptovec_c.so.0").is_file()
    assert os.access(package / "bin" / "ptovec", os.X_OK)
    assert ptovec.executable() == str(package / "bin" / "ptovec")
    # One version everywhere: the wheel's metadata, the C library, the CMake project.
    cmake_version = re.search(r"project\(ptovec VERSION ([0-9.]+)",
                              (Path(__file__).parents[2] / "CMakeLists.txt").read_text())[1]
    assert ptovec.version() == importlib.metadata.version("ptovec") == cmake_version


def test_typed_signatures():
    assert list(inspect.signature(ptovec.evaluate).parameters) == [
        "op", "src", "dst", "inputs", "rmode", "sat", "edition"]
    assert inspect.signature(ptovec.eval).parameters["edition"].kind is \
        inspect.Parameter.KEYWORD_ONLY
    hints = typing.get_type_hints(ptovec.eval)
    assert hints["return"] is ptovec.Result and hints["op"] is str
    assert inspect.signature(ptovec.eval).parameters["rmode"].default == "RNE"
    assert "ValueError" in ptovec.evaluate.__doc__ and "uint64" in ptovec.evaluate.__doc__


# (op, src, dst, inputs, rmode, sat) -> (word, flags): the specification's own tests
# (spec-notes section 6), with FP32 words for the values, and TCVT FP16 1.5 -> E8M0 (seed 001:
# between 2^0 and 2^1, up to 0x80 or down to 0x7f by the mode, always inexact).
KNOWN_ANSWERS = [
    (("encode", "fp32", "s8", [0x43020000], "RNE", False), (0x82, 0x14)),     # 130.0 -> S8
    (("encode", "fp32", "fp16", [0x3FC00000], "RNE", False), (0x3E00, 0x00)),  # 1.5
    (("encode", "fp32", "e4m3", [0x3FC00000], "RNE", False), (0x3C, 0x00)),
    (("encode", "fp32", "hif8", [0x3FC00000], "RNE", False), (0x0C, 0x00)),
    (("encode", "fp32", "bf16", [0xBF808000], "RHB", False), (0xBF80, 0x10)),  # -1.00390625
    (("encode", "fp32", "fp32", [0x3F800000], "RNE", False), (0x3F800000, 0x00)),
    (("shift", "s32", "s16", [0xFFFFFFDF, 1], "RNE", False), (0xFFEF, 0x00)),
    (("shift", "s32", "s16", [0x7FFFFFFF, 1], "RNE", False), (0x7FFF, 0x14)),
    # MatrixRoundAndSaturateSigned(15.5, 5, RNE) = 15 and (-16.5, 5, RNA) = -16, both OF|NX,
    # through affine with the FP19 scale 1.0 (0x1fc00), offset 0, width 5, into S8.
    (("affine", "fp32", "s8", [0x41780000, 0x1FC00, 0, 5], "RNE", False), (0x0F, 0x14)),
    (("affine", "fp32", "s8", [0xC1840000, 0x1FC00, 0, 5], "RNA", False), (0xF0, 0x14)),
] + [(("tcvt", "fp16", "e8m0", [0x3E00], mode, sat), (word, 0x10))
     for mode, word in zip(ptovec.RMODE_NAMES, (0x80, 0x7F, 0x80, 0x7F, 0x80, 0x80, 0x80))
     for sat in (False, True)]


@pytest.mark.parametrize("case,expected", KNOWN_ANSWERS)
def test_known_answers(case, expected):
    op, src, dst, inputs, rmode, sat = case
    word, flags = expected
    result = ptovec.eval(op, src, dst, inputs, rmode=rmode, sat=sat)
    assert (result.word, result.flags) == (word, flags)
    assert result.flag_names == ptovec.flag_names(flags)
    words, statuses = ptovec.evaluate(op, src, dst, [np.array([w]) for w in inputs], rmode, sat)
    assert (words.tolist(), statuses.tolist()) == ([word], [flags])


def test_result_and_flag_names():
    result = ptovec.eval("TCVT", "FP16", "E8M0", 0x3E00, rmode=3)  # names case-insensitive, RTZ
    assert result == (0x7F, 0x10, ("NX",))
    assert repr(result) == "Result(word=0x7f, flags=0x10, flag_names=('NX',))"
    assert ptovec.flag_names(0x14) == ("OF", "NX") and ptovec.flag_names(0) == ()
    assert ptovec.flag_names(0x1F) == ptovec.FLAG_NAMES
    assert ptovec.ops()[:2] == ("tcvt", "encode") and ptovec.input_count("affine") == 4


def sample_words(bits, count, seed):
    """Every power-of-two boundary word and its neighbours, plus `count` words drawn with `seed`."""
    edges = {w for k in range(bits) for w in ((1 << k) - 1, 1 << k, (1 << k) + 1)}
    drawn = np.random.default_rng(seed).integers(0, 1 << bits, count, dtype=np.uint64)
    return np.array(sorted(w for w in edges if w < 1 << bits) + drawn.tolist(), dtype=np.uint64)


@pytest.mark.parametrize("src", ["fp16", "bf16", "fp32"])
def test_evaluate_equals_eval_case_by_case(src):
    bits = 32 if src == "fp32" else 16
    words_in = sample_words(bits, 300, seed=bits)
    for rmode in ptovec.RMODE_NAMES:
        for sat in (False, True):
            words, flags = ptovec.evaluate("tcvt", src, "e8m0", words_in, rmode, sat)
            assert words.dtype == np.uint64 and flags.dtype == np.uint8
            one_by_one = [ptovec.eval("tcvt", src, "e8m0", int(w), rmode, sat)
                          for w in words_in]
            assert words.tolist() == [r.word for r in one_by_one]
            assert flags.tolist() == [r.flags for r in one_by_one]


def test_evaluate_input_forms_agree():
    """A (n, slots) array, one array per slot and any integer dtype give the same results."""
    rng = np.random.default_rng(3)
    values = rng.integers(0, 1 << 32, 500, dtype=np.uint64)
    scales = np.full(500, 0x1FC00, dtype=np.uint32)      # FP19 1.0
    offsets = rng.integers(0, 16, 500).astype(np.int64)   # offsets 0..15 (width 5: -16..15)
    widths = np.full(500, 5, dtype=np.uint8)
    finite = (values >> 23 & 0xFF) != 0xFF                # affine takes finite values only
    columns = [values[finite], scales[finite], offsets[finite], widths[finite]]
    by_slot = ptovec.evaluate("affine", "fp32", "s8", columns, "RTP", True)
    matrix = np.stack([c.astype(np.uint64) for c in columns], axis=1)
    by_row = ptovec.evaluate("affine", "fp32", "s8", matrix, "RTP", True)
    strided = ptovec.evaluate("affine", "fp32", "s8", np.asfortranarray(matrix), "RTP", True)
    for other in (by_row, strided):
        np.testing.assert_array_equal(other[0], by_slot[0])
        np.testing.assert_array_equal(other[1], by_slot[1])
    i = int(np.argmax(by_slot[1] != 0))
    assert ptovec.eval("affine", "fp32", "s8", [int(c[i]) for c in columns], "RTP", True) == \
        (by_slot[0][i], by_slot[1][i], ptovec.flag_names(int(by_slot[1][i])))
    empty = ptovec.evaluate("tcvt", "fp16", "e8m0", np.zeros(0, dtype=np.uint16))
    assert empty[0].shape == (0,) and empty[1].shape == (0,)


@pytest.fixture(scope="module")
def fp16_e8m0_file(tmp_path_factory):
    out = tmp_path_factory.mktemp("vectors")
    assert ptovec.generate(out, op="tcvt", src="fp16", dst="e8m0") == out
    return out / "tcvt_fp16_e8m0.bin"


def test_evaluate_gives_the_vector_files_expected_words(fp16_e8m0_file):
    header, records = ptovec.read_vectors(fp16_e8m0_file)
    assert ptovec.read_vectors is ptovec.files.read_vectors
    assert isinstance(records, np.memmap) and header["count"] == len(records) == 65536 * 14
    for rmode_index, rmode in enumerate(header["rmode_names"]):
        for sat in (0, 1):
            mine = records[(records["rmode"] == rmode_index) & (records["sat"] == sat)]
            assert len(mine) == 65536
            words, flags = ptovec.evaluate("tcvt", "fp16", "e8m0", mine["in.value"], rmode,
                                           bool(sat))
            np.testing.assert_array_equal(words, mine["out"])
            np.testing.assert_array_equal(flags, mine["flags"])


def test_evaluate_gives_a_three_slot_files_expected_words(tmp_path):
    ptovec.generate(tmp_path, op="tquant", src="fp32", dst="u8", samples=3000, seed=5)
    header, records = ptovec.read_vectors(tmp_path / "tquant_fp32_u8.bin")
    slots = [f["name"] for f in header["fields"] if f["name"].startswith("in.")]
    assert len(slots) == 3
    for rmode_index, rmode in enumerate(header["rmode_names"]):
        for sat in (0, 1):
            mine = records[(records["rmode"] == rmode_index) & (records["sat"] == sat)]
            words, flags = ptovec.evaluate("tquant", "fp32", "u8", [mine[s] for s in slots],
                                           rmode, bool(sat))
            np.testing.assert_array_equal(words, mine["out"])
            np.testing.assert_array_equal(flags, mine["flags"])


def test_generate_is_the_command_lines_output_byte_for_byte(tmp_path):
    options = dict(op="tcvt", src="fp32", dst="e8m0", samples=4000, seed=7, format="both",
                   rmode=["RNE", "RTO"], sat="on")
    ptovec.generate(tmp_path / "python", threads=1, **options)
    subprocess.run([CLI, "generate", "--out", str(tmp_path / "cli"), "--op", "tcvt", "--src",
                    "fp32", "--dst", "e8m0", "--samples", "4000", "--seed", "7", "--format",
                    "both", "--rmode", "RNE,RTO", "--sat", "on", "--threads", "2", "--quiet"],
                   check=True)
    names = sorted(p.name for p in (tmp_path / "cli").iterdir())
    assert names == ["manifest.json", "tcvt_fp32_e8m0.bin", "tcvt_fp32_e8m0.json"]
    assert sorted(p.name for p in (tmp_path / "python").iterdir()) == names
    for name in names:
        assert (tmp_path / "python" / name).read_bytes() == (tmp_path / "cli" / name).read_bytes()
    header, records = ptovec.read_vectors(tmp_path / "python" / "tcvt_fp32_e8m0.bin")
    assert len(records) == 4000 * 2 and set(records["rmode"].tolist()) == {0, 5}


# (call, the `ptovec eval` arguments with the same error, or None when the message is Python's own)
EVAL_ERRORS = [
    (lambda: ptovec.eval("nope", "fp16", "e8m0", 1),
     ["eval", "--op", "nope", "--src", "fp16", "--dst", "e8m0", "0x1"]),
    (lambda: ptovec.eval("tcvt", "fp16", "e8m0", 0x10000),
     ["eval", "--op", "tcvt", "--src", "fp16", "--dst", "e8m0", "0x10000"]),
    (lambda: ptovec.eval("encode", "fp32", "e8m0", 1),  # no such encode pair
     ["eval", "--op", "encode", "--src", "fp32", "--dst", "e8m0", "0x1"]),
    (lambda: ptovec.eval("shift", "s32", "s16", [1, 1], rmode="RTZ"),
     ["eval", "--op", "shift", "--src", "s32", "--dst", "s16", "--rmode", "RTZ", "0x1", "0x1"]),
    (lambda: ptovec.eval("encode", "fp32", "fp16", 0x7FC00000),
     ["eval", "--op", "encode", "--src", "fp32", "--dst", "fp16", "0x7fc00000"]),
    (lambda: ptovec.evaluate("nope", "fp16", "e8m0", np.zeros(0, dtype=np.uint64)),
     ["eval", "--op", "nope", "--src", "fp16", "--dst", "e8m0", "0x1"]),
]


@pytest.mark.parametrize("call,cli_args", EVAL_ERRORS)
def test_bad_input_raises_value_error_with_the_c_apis_message(call, cli_args):
    with pytest.raises(ValueError) as raised:
        call()
    assert str(raised.value) == cli_error(*cli_args)


def test_a_bad_case_of_a_batch_is_named():
    with pytest.raises(ValueError) as raised:
        ptovec.evaluate("tcvt", "fp16", "e8m0", np.array([1, 2, 0x10000, 0x20000]))
    assert str(raised.value) == "case 2: " + cli_error(
        "eval", "--op", "tcvt", "--src", "fp16", "--dst", "e8m0", "0x10000")


@pytest.mark.parametrize("call,message", [
    # The C API's slot count message (`ptovec eval` reads extra words as further cases instead).
    (lambda: ptovec.eval("tcvt", "fp16", "e8m0", [1, 2]), "tcvt takes 1 input (value), got 2"),
    (lambda: ptovec.evaluate("affine", "fp32", "s8", np.zeros((4, 3), dtype=np.uint64)),
     "affine takes 4 inputs (value, scale, offset, width), got 3"),
    # The package's own checks of names and numpy inputs.
    (lambda: ptovec.eval("tcvt", "fp17", "e8m0", 1),
     "unknown src type 'fp17' (accepted: fp32, fp16, bf16, hif8, e4m3, e8m0, s64, s32, s16, s8, "
     "s4x2, u64, u32, u16, u8, u4x2, fp19)"),
    (lambda: ptovec.eval("tcvt", "fp16", "e8m0", 1, rmode="RNX"),
     "unknown rounding mode 'RNX' (accepted: RNE RTM RTP RTZ RNA RTO RHB or 0..6)"),
    (lambda: ptovec.eval("tcvt", "fp16", "e8m0", 1, rmode=7),
     "unknown rounding mode 7 (accepted: RNE RTM RTP RTZ RNA RTO RHB or 0..6)"),
    (lambda: ptovec.eval("tcvt", "fp16", "e8m0", 1, sat="yes"),
     "sat 'yes' is not a boolean (accepted: True, False, 0, 1)"),
    (lambda: ptovec.eval("tcvt", "fp16", "e8m0", -1),
     "input word -1 is not an unsigned 64-bit integer (accepted: ints 0..2^64-1 holding the "
     "type's encoding, e.g. 0x3e00 for FP16 1.5)"),
    (lambda: ptovec.evaluate("tcvt", "fp16", "e8m0", np.array([1.5])),
     "inputs: the array has dtype float64 (accepted: unsigned or non-negative integer words, "
     "e.g. uint64; convert values to words first)"),
    (lambda: ptovec.evaluate("tcvt", "fp16", "e8m0", np.array([3, -1])),
     "inputs: the array holds the negative word -1 (words are unsigned: S8 -1 is 0xff)"),
    (lambda: ptovec.evaluate("shift", "s32", "s16", [np.arange(3), np.arange(4)]),
     "inputs: one 1-D array per slot, all of one length (got shapes [(3,), (4,)])"),
    (lambda: ptovec.evaluate("tcvt", "fp16", "e8m0", np.zeros((2, 2, 2), dtype=np.uint64)),
     "inputs: an array of 3 dimensions (accepted: a 1-D array for an op of one slot, a 2-D array "
     "of shape (n, slots), or one 1-D array per slot)"),
    (lambda: ptovec.flag_names(0x20),
     "flags 0x20 has bits above the 5 status bits (accepted: 0..0x1f)"),
])
def test_bad_input_raises_value_error_naming_it(call, message):
    with pytest.raises(ValueError) as raised:
        call()
    assert str(raised.value) == message


@pytest.mark.parametrize("options,cli_args", [
    (dict(op="nope"), ["--op", "nope"]),
    (dict(op="tcvt", src="fp16", dst="e8m0", samples=0), ["--samples", "0"]),
    (dict(op="tcvt", src="fp16", dst="e8m0", format="xml"), ["--format", "xml"]),
])
def test_generate_raises_value_error_with_ptovecs_line(tmp_path, options, cli_args):
    with pytest.raises(ValueError) as raised:
        ptovec.generate(tmp_path / "out", **options)
    assert str(raised.value) == cli_error("generate", "--out", str(tmp_path / "cli"), *cli_args)
    assert not (tmp_path / "out").exists()


def test_python_m_ptovec_runs_the_carried_program():
    run = subprocess.run([sys.executable, "-m", "ptovec", "eval", "--op", "tcvt", "--src", "fp16",
                          "--dst", "e8m0", "--rmode", "RTZ", "0x3e00"],
                         capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
    assert '"in":["0x3e00"],"out":"0x7f","flags":"0x10"' in run.stdout
    bad = subprocess.run([sys.executable, "-m", "ptovec", "eval", "--op", "nope", "--src", "fp16",
                          "--dst", "e8m0", "0x1"],
                         capture_output=True, text=True)
    assert bad.returncode == 2 and bad.stderr.startswith("ptovec: error: unknown op 'nope'")


def test_compare_applies_the_policy_like_the_gate():
    # tcvt fp16 -> e8m0 of 1.5 under RTZ: 0x7f NX; of -1.0: 0xff NV (spec-notes section 6).
    words, flags = ptovec.evaluate("tcvt", "fp16", "e8m0", [0x3E00, 0xBC00], "RTZ")
    assert words.tolist() == [0x7F, 0xFF] and flags.tolist() == [0x10, 0x01]
    flagless = (words, np.zeros(2, dtype=np.uint8))
    assert ptovec.compare("e8m0", words, flags, *flagless).tolist() == [False, False]
    assert ptovec.compare("e8m0", words, flags, *flagless, policy="word").tolist() == [True, True]
    # Only NV compared: the missing NX of 1.5 is ignored, the missing NV of -1.0 is not.
    assert ptovec.compare("e8m0", words, flags, *flagless,
                          policy="word+flags:nv").tolist() == [True, False]
    # Bits above the type's width are not the word's; bits 7:5 of a status never match.
    assert ptovec.compare("e8m0", 0x7F, 0x10, 0x17F, 0x10).tolist() is True
    assert ptovec.compare("e8m0", 0x7F, 0x10, 0x7F, 0x30, policy="word").tolist() is False
    assert ptovec.compare("fp16", 0x3C00, 0, 0x3C01, 0).tolist() is False
    with pytest.raises(ValueError, match=r"unknown comparison policy 'word\+flags:NV,XX' "
                       r"\(accepted: word\+flags, word, or word\+flags: followed by status bits"):
        ptovec.compare("e8m0", words, flags, *flagless, policy="word+flags:NV,XX")
    with pytest.raises(ValueError, match="unknown dst type 'e9m0'"):
        ptovec.compare("e9m0", words, flags, *flagless)
    with pytest.raises(ValueError, match="got_words holds the negative word -1"):
        ptovec.compare("e8m0", words, flags, np.array([-1, 0]), flags)


def test_flag_orders_convert_riscv_and_mxcsr_ports():
    # RISC-V fflags: bit 0 NX .. bit 4 NV, the reverse of ptovec's bit 0 NV .. bit 4 NX.
    assert [ptovec.flags_to_spec(1 << b, "riscv") for b in range(5)] == [0x10, 0x08, 0x04,
                                                                           0x02, 0x01]
    assert ptovec.flags_from_spec(0x14, "ieee") == 0x05  # OF|NX
    assert ptovec.flags_to_spec(0xE1, "TestFloat") == 0x10  # case-insensitive; high bits ignored
    # MXCSR bits 5:0 PE UE OE ZE DE IE; DE has no counterpart.
    assert ptovec.flags_to_spec(0x22, "mxcsr") == 0x10
    assert ptovec.flags_from_spec(0x1F, "mxcsr") == 0x3D
    every = np.arange(32, dtype=np.uint8)
    for order in ptovec.FLAG_ORDERS:
        assert ptovec.flags_to_spec(ptovec.flags_from_spec(every, order), order).tolist() == \
            every.tolist(), order
    # A device's RISC-V-order port against the oracle: -1.0 -> E8M0 is NV, fflags bit 4.
    words, flags = ptovec.evaluate("tcvt", "fp16", "e8m0", [0xBC00], "RTZ")
    assert ptovec.flags_from_spec(flags, "riscv").tolist() == [0x10]
    with pytest.raises(ValueError, match="unknown flag order 'msb': accepted spec, riscv, ieee"):
        ptovec.flags_to_spec(1, "msb")


def test_facts_are_the_c_apis():
    """ptovec._facts (generated from include/ptovec/facts.h; tests/tools/facts_test.cpp checks
    the text) against the compiled C API: the modes, the status names, and the compare-policy
    grammar ptovec.stream reads from it without the compiled module (issue 39)."""
    from ptovec import _core, _facts, stream
    assert [_core.rounding_mode(m) for m in _facts.RMODE_NAMES] == list(range(7))
    assert ptovec.flag_names(_facts.STATUS_ALL) == _facts.FLAG_NAMES
    for policy in ("word+flags", "word", "", "word+flags:NV,of", "word+flags:nx",
                   "word+flags: UF , DZ", "word+flags:NV,DZ,OF,UF,NX", "flags", "Word",
                   "word+flags:", "word+flags:NV,XX", "word+flags:NV|OF", "word+flags:NV,"):
        try:
            want = _core.compare_policy(policy)
        except ValueError:
            want = None
        try:
            got = stream._policy_flags(policy)
        except ValueError:
            got = None
        assert got == want, policy
        if want is not None:
            assert stream.compared_flags(policy) == want, policy


def test_stream_cases_from_evaluate_use_the_compiled_module_and_agree_with_the_cli(
        tmp_path, monkeypatch):
    """ptovec.stream.cases_from_evaluate computes with ptovec.evaluate when ptovec._core is
    installed (here), and gives what its ptovec eval --batch fallback gives."""
    import ptovec.stream as stream
    words = [0x3E00, 0x3C00, 0xBC00, 0x7E00, 0x0001]
    controls = [("RTZ", False), ("RNE", True), ("RTP", False)]
    calls = []
    real = ptovec.evaluate
    monkeypatch.setattr(ptovec, "evaluate", lambda *a, **k: calls.append(a) or real(*a, **k))
    fast = stream.cases_from_evaluate("tcvt", "fp16", "e8m0", words, controls=controls,
                                      ptovec=CLI, work=tmp_path / "a")
    assert len(calls) == len(controls)
    monkeypatch.setattr(ptovec, "evaluate", None)
    monkeypatch.setitem(sys.modules, "ptovec._core", None)  # import fails: the CLI fallback
    slow = stream.cases_from_evaluate("tcvt", "fp16", "e8m0", words, controls=controls,
                                      ptovec=CLI, work=tmp_path / "b")
    assert [(c.word, c.flags) for c in fast] == [(c.word, c.flags) for c in slow]
    # FP16 1.5 toward zero: 0x7f with NX (spec-notes section 6); -1.0: 0xff with NV.
    assert (fast[0].word, fast[0].flags) == (0x7F, 0x10)
    assert (fast[2 * len(controls)].word, fast[2 * len(controls)].flags) == (0xFF, 0x01)


def test_the_package_only_imports_and_reexports_its_modules():
    """ptovec/__init__.py defines no function or class: every public name is a module's."""
    import ptovec.oracle
    import ptovec.program
    for name in ptovec.__all__:
        value = getattr(ptovec, name)
        if callable(value) and not isinstance(value, type(ptovec)):
            assert value.__module__ in ("ptovec.oracle", "ptovec.program", "ptovec.flags",
                                        "ptovec.files"), (name, value.__module__)
    assert ptovec.eval is ptovec.oracle.eval and ptovec.generate is ptovec.program.generate


def test_the_carried_registry_is_the_programs_listing():
    """ptovec/registry.json (written when the package is built) is what the carried program
    lists, and a header built from it has the keys and slots of the header generate writes."""
    import json
    from ptovec import registry
    assert registry.DATA.is_file()
    data = json.loads(registry.DATA.read_text())
    carried = ptovec.executable()
    for key, args in (("ops", ["list", "--json"]), ("types", ["list", "--types", "--json"])):
        listed = subprocess.run([carried, *args], check=True, capture_output=True, text=True)
        assert data[key] == json.loads(listed.stdout), key
    assert data["tool_version"] == ptovec.version()


@pytest.mark.parametrize("op,src,dst,group", [("tcvt", "fp16", "e8m0", ""),
                                              ("affine", "fp32", "s8", ""),
                                              ("fpatr", "fp32", "fp32", "pqm0")])
def test_a_pair_header_is_the_one_generate_writes(tmp_path, op, src, dst, group):
    from ptovec.registry import pair_header, pair_listing
    entry, line = pair_listing(op, src, dst, group)
    ptovec.generate(tmp_path, op=op, src=src, dst=dst, samples=1, rmode="RNE", sat="off",
                    format="json")
    written = [ptovec.read_vector_file(p)[0] for p in sorted(tmp_path.glob(f"{op}_*.json"))]
    written = next(h for h in written if h.get("group", "") == group)
    header = pair_header(op, src, dst, group=group, controls=[("RNE", False)], inputs=3)
    for key in ("format", "version", "tool_version", "op", "instruction", "seed_function",
                "seed_source", "src", "dst", "group", "slots", "controls"):
        assert header.get(key) == written.get(key), key
    assert list(header) == [k for k in written if k != "strategies"]
    assert (header["domain"], header["inputs"], header["count"]) == ("selected", 3, 3)


def test_stream_cases_from_evaluate_starts_no_process(monkeypatch):
    """With the compiled module and the carried registry, cases_from_evaluate runs neither
    ptovec generate nor any other program, and writes no file."""
    import ptovec.stream as stream

    def refuse(*args, **kwargs):
        raise AssertionError(f"a process was started: {args}")
    for name in ("run", "Popen", "call", "check_call", "check_output"):
        monkeypatch.setattr(subprocess, name, refuse)
    monkeypatch.setattr(os, "posix_spawn", refuse, raising=False)
    monkeypatch.setattr(os, "fork", refuse)
    monkeypatch.setenv("PATH", "/nonexistent")
    monkeypatch.delenv("PTOVEC", raising=False)
    cases = stream.cases_from_evaluate("tcvt", "fp16", "e8m0", [0x3E00, 0xBC00],
                                       work="/nonexistent/cases")
    assert len(cases) == 2 * 14  # every control of the pair
    assert (cases[2 * 3].word, cases[2 * 3].flags) == (0x7F, 0x10)  # RTZ off: 1.5 -> 2^0, NX
    assert (cases[14].word, cases[14].flags) == (0xFF, 0x01)  # -1.0: NaN, NV
    assert cases[0].pair.slot_bits == (16,) and cases[0].pair.out_bits == 8
    assert cases[0].pair.header["slots"][0]["type"] == "fp16"
    with pytest.raises(ValueError, match="unknown op 'nope'"):
        stream.cases_from_evaluate("nope", "fp16", "e8m0", [1])
    with pytest.raises(ValueError, match="tcvt has no legal pair s8 -> e8m0"):
        stream.cases_from_evaluate("tcvt", "s8", "e8m0", [1])


def test_cocotb_names_a_signal_by_its_public_path():
    """ptovec.cocotb names a signal holding X or Z by cocotb 2's public ``_path`` (cocotb.handle
    documents it ":meta public:"; there is no ``name`` property) and any stand-in by its repr."""
    pytest.importorskip("cocotb")
    from cocotb.types import LogicArray
    from ptovec import cocotb as bench

    class Signal:
        _path = "pipe.in_ready"
        value = LogicArray("X1")
    with pytest.raises(AssertionError, match=r"in_ready \(pipe\.in_ready\) is X1: not a 0/1"):
        bench._read(Signal(), "in_ready")
    Signal.value = LogicArray("01")
    assert bench._read(Signal(), "in_ready") == 1
