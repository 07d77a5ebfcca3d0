"""ptovec.stream and ptovec.device without a simulator: the cases of vector files and of the
oracle, the scoreboard's order, compare and unsupported rules, and its end-of-test check of what
was driven; the device protocol's case and answer lines, the answer board's order, and
ptovec.device.launch under `ptovec run --dut-cmd` (launched_device.py).

  PTOVEC=build/tools/ptovec /usr/bin/python3 -m pytest -p no:cacheprovider tests/rtl/test_stream_scoreboard.py

Known answers from docs/semantics.md (spec-notes section 6): FP16 1.5 (0x3e00) to E8M0 toward
zero is 0x7f with NX; FP16 1.0 is 0x7f exact; a negative FP16 gives 0xff with NV.
"""
import json
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

SOURCE_DIR = Path(__file__).resolve().parent.parent.parent
sys.path.insert(0, str(SOURCE_DIR / "python"))

from ptovec.device import AnswerBoard, Channel, ProtocolCase, answer_line, parse_case  # noqa
from ptovec.files import RMODE_NAMES, read_vector_file  # noqa: E402
from ptovec.stream import (Scoreboard, cases_from_evaluate, cases_from_vectors,  # noqa: E402
                           compared_flags)

PTOVEC = os.environ.get("PTOVEC", str(SOURCE_DIR / "build" / "tools" / "ptovec"))
SMOKE = SOURCE_DIR / "vectors" / "smoke"
RTZ = RMODE_NAMES.index("RTZ")


class TestCases:
    def test_vector_file_records_in_order_and_evenly_spaced_slices(self):
        path = SMOKE / "tcvt_fp16_e8m0.bin"
        header, records = read_vector_file(path)
        cases = list(cases_from_vectors([path], ptovec=PTOVEC))
        assert len(cases) == header["count"]
        assert [c.index for c in cases[:3]] == [0, 1, 2]
        assert cases[5].inputs == (int(records["in.value"][5]),)
        assert (cases[5].word, cases[5].flags) == (int(records["out"][5]), int(records["flags"][5]))
        assert cases[0].pair.out_bits == 8
        # 10 of 196: records floor(i * 196 / 10).
        assert header["count"] == 196
        sliced = [c.index for c in cases_from_vectors([path], limit=10, ptovec=PTOVEC)]
        assert sliced == [0, 19, 39, 58, 78, 98, 117, 137, 156, 176]
        # Shared over files, the first ones one more: 5 = 3 + 2.
        two = list(cases_from_vectors([path, SMOKE / "tcvt_bf16_e8m0.bin"], limit=5,
                                      ptovec=PTOVEC))
        assert [c.pair.src for c in two] == (["fp16"] * 3 + ["bf16"] * 2)

    def test_a_suite_folder_and_filters(self):
        cases = cases_from_vectors([SMOKE], op="tcvt", src="bf16", dst="e8m0", ptovec=PTOVEC)
        assert len(list(cases)) == (read_vector_file(SMOKE / "tcvt_bf16_e8m0.bin")[0][
            "count"])
        with pytest.raises(ValueError, match="no vector file"):
            list(cases_from_vectors([SMOKE], op="tcvt", src="s8", ptovec=PTOVEC))

    def test_evaluate_gives_the_oracles_known_answers_in_vector_file_order(self):
        with tempfile.TemporaryDirectory() as work:
            cases = cases_from_evaluate("tcvt", "fp16", "e8m0", [0x3E00, 0x3C00, 0xBC00],
                                        controls=[("RTZ", False), ("rne", True)],
                                        ptovec=PTOVEC, work=work)
        assert len(cases) == 6
        assert [(c.inputs, RMODE_NAMES[c.rmode], c.sat) for c in cases[:2]] == [((0x3E00,), "RTZ", False), ((0x3E00,), "RNE", True)]
        assert (cases[0].word, cases[0].flags) == (0x7F, 0x10)
        assert (cases[2].word, cases[2].flags) == (0x7F, 0x00)
        assert (cases[4].word, cases[4].flags) == (0xFF, 0x01)
        assert cases[1].eval_line() == "ptovec eval --op tcvt --src fp16 --dst e8m0 --rmode RNE --sat 0x3e00"
        assert [c.index for c in cases] == list(range(6))

    def test_evaluate_refuses_bad_input_with_ptovecs_message(self):
        with tempfile.TemporaryDirectory() as work:
            with pytest.raises(ValueError, match="unknown rounding mode 'RTX'"):
                cases_from_evaluate("tcvt", "fp16", "e8m0", [1], controls=[("RTX", False)],
                                    ptovec=PTOVEC, work=work)
            with pytest.raises(ValueError, match="0x10000"):
                cases_from_evaluate("tcvt", "fp16", "e8m0", [0x10000],
                                    controls=[("RNE", False)], ptovec=PTOVEC, work=work)


class TestBoard:
    def setup_method(self):
        self.work = tempfile.TemporaryDirectory()
        self.cases = cases_from_evaluate("tcvt", "fp16", "e8m0", [0x3E00, 0x3C00, 0xBC00],
                                         controls=[("RTZ", False)], ptovec=PTOVEC,
                                         work=self.work.name)

    def teardown_method(self):
        self.work.cleanup()

    def test_policies(self):
        assert compared_flags("word+flags") == 0x1F
        assert compared_flags("word") == 0
        assert compared_flags("word+flags:NV,of") == 0x05
        with pytest.raises(ValueError, match="unknown compare policy 'flags'"):
            compared_flags("flags")
        with pytest.raises(ValueError, match="unknown status bit 'XX'"):
            compared_flags("word+flags:NV,XX")

    def test_results_answer_the_oldest_case_and_tags_are_checked(self):
        lines = []
        board = Scoreboard(log=lines.append)
        for tag, case in enumerate(self.cases):
            board.expect(case, tag)
        assert board.outstanding == 3
        assert board.oldest() == self.cases[0]
        assert board.observe(0x7F, 0x10, 0) is None
        # Tag 2 where tag 1 is the oldest: an order error, compared with case 1 (0x7f exact).
        assert board.observe(0x7F, 0x00, 2) is None
        assert board.order_errors == 1
        assert "result tag 2, expected tag 1" in lines[0]
        m = board.observe(0xFF, 0x10, 2)  # NX where NV is expected
        assert (m.word, m.flags) == (0xFF, 0x10)
        assert (board.checked, board.matched, board.mismatched) == (3, 2, 1)
        assert "expected 0xff flags 0x01, got 0xff flags 0x10" in lines[1]
        assert "ptovec eval --op tcvt --src fp16 --dst e8m0 --rmode RTZ 0xbc00" in lines[1]
        with pytest.raises(RuntimeError, match="no case outstanding"):
            board.observe(0, 0, 3)

    def test_words_only_high_bits_and_unsupported(self):
        board = Scoreboard(compare="word")
        for case in self.cases:
            board.expect(case)
        assert board.observe(0x17F, 0x00) is None  # bits above E8M0's 8 ignored; flags too
        assert board.observe(0x7E, 0x00) is not None
        assert board.observe(None, None) is not None
        assert (board.matched, board.mismatched, board.unsupported) == (1, 1, 1)

    def test_finish_checks_what_was_driven_with_ptovec_check_and_coverage(self):
        board = Scoreboard(device="unit-under-test")
        for case in self.cases:
            board.expect(case)
        board.observe(0x7F, 0x10)
        board.observe(0x7F, 0x00)
        board.observe(0xFF, 0x01)
        outcome = board.finish(Path(self.work.name) / "pass", ptovec=PTOVEC)
        assert outcome.exit_code == 0, outcome.report
        assert "PASS" in outcome.report
        driven = sorted(outcome.folder.glob("driven_*.json"))
        assert len(driven) == 1
        header, records = read_vector_file(driven[0])
        assert (header["count"], header["domain"], header["controls"]) == (3, "selected", [{"rmode": "RTZ", "sat": False}])
        assert records["out"].tolist() == [0x7F, 0x7F, 0xFF]
        # Of the 24 classes reachable for fp16 -> e8m0 under RTZ, Sat off, these 3 inputs hit
        # 8: +normal, -normal, exact, invalid, inexact, power of two, rounded down, negative.
        assert ((outcome.coverage_json["scope"], outcome.coverage_json["reachable_cells"],
                          outcome.coverage_json["hit_cells"])) == ("present", 24, 8)
        assert "8 of 24 reachable" in outcome.coverage

        board = Scoreboard(device="unit-under-test")
        for case in self.cases:
            board.expect(case)
        board.observe(0x7F, 0x10)
        board.observe(0x7E, 0x00)  # one code low
        board.observe(None, None)
        outcome = board.finish(Path(self.work.name) / "fail", ptovec=PTOVEC)
        assert outcome.exit_code == 1
        assert "1 mismatched, 1 unsupported" in outcome.report
        assert "ptovec eval --op tcvt --src fp16 --dst e8m0 --rmode RTZ 0x3c00" in outcome.report
        results = (outcome.folder / "results.jsonl").read_text().splitlines()
        assert json.loads(results[0])["device"] == "unit-under-test"
        assert json.loads(results[3]) == {"s": 0, "i": 2, "flags": "unsupported"}

    def test_nothing_observed(self):
        with pytest.raises(RuntimeError, match="no result was observed"):
            Scoreboard().finish(self.work.name, ptovec=PTOVEC)


class TestDevice:
    def test_case_lines(self):
        assert parse_case("7 tcvt fp16 e8m0 RTZ 1 0x3a00") == ProtocolCase(7, "tcvt", "fp16", "e8m0", RTZ, True, (0x3A00,), (16,))
        assert parse_case("0 shift s32 s16 RNE 0 0xffff8000 0x01").inputs == (0xFFFF8000, 1)
        for line, what in [("1 tcvt fp16 e8m0 RTZ 0", "has 6 field(s)"),
                           ("x tcvt fp16 e8m0 RTZ 0 0x1", "index 'x'"),
                           ("1 tcvt fp16 e8m0 RTX 0 0x1", "rounding mode 'RTX'"),
                           ("1 tcvt fp16 e8m0 RTZ 2 0x1", "sat '2'"),
                           ("1 tcvt fp16 e8m0 RTZ 0 3a00", "input '3a00'")]:
            with pytest.raises(ValueError, match=re.escape(what)):
                parse_case(line)
        assert answer_line(3, 0x7F, 0x10) == "3 0x7f 0x10"
        assert answer_line(4, None, None) == "4 unsupported"
        with pytest.raises(ValueError, match="0..0x1f"):
            answer_line(5, 1, 0x20)

    def test_cases_that_came_with_the_hello_are_returned_by_the_next_poll(self):
        cases_read, cases_write = os.pipe()
        answers_read, answers_write = os.pipe()
        os.write(cases_write, b"ptovec-dut 1\n0 tcvt fp16 e8m0 RTZ 0 0x3e00\n")
        channel = Channel(cases_read, answers_write)
        channel.hello("stand-in")
        assert channel.poll() == ["0 tcvt fp16 e8m0 RTZ 0 0x3e00"]
        assert channel.poll() == []  # nothing more yet, ptovec's side still open
        os.close(cases_write)
        assert channel.poll() is None
        channel.close()
        with os.fdopen(answers_read) as answers:
            assert answers.read() == "ptovec-dut 1 stand-in\n"

    def test_answers_leave_in_case_order_with_unsupported_among_them(self):
        read_end, write_end = os.pipe()
        unused_in, _ = os.pipe()
        channel = Channel(unused_in, write_end)
        board = AnswerBoard(channel)
        cases = [board.case_of(parse_case(f"{i} tcvt fp16 e8m0 RTZ 0 0x3e00")) for i in (0, 1)]
        board.expect(cases[0], tag=0)
        board.expect(cases[1], tag=1)
        board.skip(parse_case("2 tcvt fp16 e4m3 RTZ 0 0x3e00"))  # waits behind 0 and 1
        assert (board.outstanding, board.oldest().index) == (2, 0)
        board.observe(0x7F, 0x10, tag=0)
        with pytest.raises(AssertionError, match="case 1 .* tag 5, not its tag 1"):
            board.observe(0x7F, 0x10, tag=5)
        board.observe(None, None, tag=1)  # the unit's own unsupported
        channel.flush()
        os.close(write_end)
        with os.fdopen(read_end) as answers:
            assert answers.read() == "0 0x7f 0x10\n1 unsupported\n2 unsupported\n"
        assert board.served == 3

    def run_launched(self, mode):
        path = SMOKE / "tcvt_fp16_e8m0.bin"
        with tempfile.TemporaryDirectory() as tmp:
            done = subprocess.run(
                [PTOVEC, "run", "--dut-cmd",
                 f"{sys.executable} {Path(__file__).parent / 'launched_device.py'} {mode}",
                 "--vectors", str(path), "--results", f"{tmp}/results.bin", "--max-report", "0"],
                capture_output=True, text=True, timeout=120)
        return done, read_vector_file(path)[1]

    def test_launch_carries_the_session_and_keeps_the_simulators_output_off_it(self):
        done, records = self.run_launched("nv")
        wrong = int(((records["out"] != 0xFF) | (records["flags"] != 0x01)).sum())
        assert wrong > 0
        assert done.returncode == 1, (done.stdout + done.stderr)
        assert f"FAIL: {wrong} mismatched, 0 unsupported of {len(records)} vectors" in done.stdout
        assert "(device launched stand-in)" in done.stdout

    def test_a_simulation_that_never_starts_is_a_device_error(self):
        done, _ = self.run_launched("no-start")
        assert done.returncode == 2, (done.stdout + done.stderr)
        assert "cannot elaborate the design" in done.stderr
