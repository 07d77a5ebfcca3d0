"""The cases of a streaming testbench and its scoreboard (pure Python and numpy; no simulator).

A testbench of a clocked unit (``ptovec.cocotb`` drives and monitors it) takes its cases from
ptovec vector files or from ptovec's oracle on the fly, and hands every accepted case and every
result to a ``Scoreboard``; the scoreboard is latency-independent: results must come back in the
order the unit accepted the cases (checked by tag when the unit returns one), however many clocks
later.

Cases
    ``Case``                       one case: inputs, controls, expected word and status, origin
    ``cases_from_vectors(paths)``  the records of vector files or suite folders (or an evenly
                                   spaced slice of them), lazily
    ``cases_from_evaluate(...)``   given inputs under given controls, expected results from
                                   ``ptovec.evaluate`` (the compiled module) or, without it,
                                   ``ptovec eval --batch`` (the same oracle)
Scoreboard
    ``Scoreboard``                 ``expect(case, tag)``, ``observe(word, flags, tag)``,
                                   ``finish(work)``: the cases driven written as JSON vector
                                   files with the device's results file, then ``ptovec check``
                                   (the gate's verdict and its summary by outcome class) and
                                   ``ptovec coverage`` of them

Words are unsigned ints holding the type's encoding in their low bits; status bytes are ptovec's
order, bit 0 NV, 1 DZ, 2 OF, 3 UF, 4 NX (a port in another order is converted with
``ptovec.flags.flags_to_spec`` before ``observe``). Rounding modes are indices into
``RMODE_NAMES`` (0 RNE .. 6 RHB).
"""
import hashlib
import json
import os
import subprocess
from collections import deque
from pathlib import Path
from typing import Dict, Iterable, Iterator, List, NamedTuple, Optional, Sequence, Tuple

from ._facts import CONTROLS, FLAG_NAMES, POLICY_SEPARATOR, POLICY_WORD, STATUS_ALL
from .files import (DEFAULT_EDITION, RMODE_NAMES, edition_of, hex_word, read_vector_file,
                    type_widths)
from .policy import _policy_flags, compared_flags  # noqa: F401  (re-exported)
from .registry import pair_header, pair_listing, type_widths as registry_type_widths

__all__ = ["Pair", "Case", "vector_files", "cases_from_vectors", "cases_from_evaluate",
           "compared_flags", "Mismatch", "CheckOutcome", "Scoreboard", "program"]


def program(ptovec: Optional[str] = None) -> str:
    """The ``ptovec`` program to run: ``ptovec`` when given, else ``ptovec.executable()`` (the
    installed package's, else the environment's PTOVEC, else PATH). Raises FileNotFoundError."""
    if ptovec:
        return str(ptovec)
    from . import executable
    return executable()


class Pair(NamedTuple):
    """What the cases of one source share: op, src and dst type names, the file group (or ""),
    the bits of each input slot and of the result word, the header the driven files copy (a
    vector file's JSON header) and a name for reports (the vector file's name)."""
    op: str
    src: str
    dst: str
    group: str
    slot_bits: Tuple[int, ...]
    out_bits: int
    header: dict
    name: str


class Case(NamedTuple):
    """One case: ``inputs`` the input words in slot order, ``rmode`` (0..6) and ``sat`` its
    controls, ``word`` and ``flags`` the expected result (flags bits 4:0 NV..NX), ``pair`` what
    it shares with its file, ``index`` its record in that file (or its number in the given
    inputs)."""
    inputs: Tuple[int, ...]
    rmode: int
    sat: bool
    word: int
    flags: int
    pair: Pair
    index: int

    def eval_line(self) -> str:
        """The ``ptovec eval`` command that reproduces the case (as ptovec's reports print it)."""
        p = self.pair
        words = " ".join(hex_word(w, b) for w, b in zip(self.inputs, p.slot_bits))
        edition = edition_of(p.header)
        ed = f"--edition {edition} " if edition != DEFAULT_EDITION else ""
        return (f"ptovec eval {ed}--op {p.op} --src {p.src} --dst {p.dst} --rmode "
                f"{RMODE_NAMES[self.rmode]}{' --sat' if self.sat else ''} {words}")

    def describe(self) -> str:
        """The case in one line: pair, controls, inputs and the expected word and status."""
        p = self.pair
        words = ",".join(hex_word(w, b) for w, b in zip(self.inputs, p.slot_bits))
        return (f"{p.op} {p.src} -> {p.dst} {RMODE_NAMES[self.rmode]} "
                f"sat={'on' if self.sat else 'off'} in={words} ({p.name} record {self.index})")


def _pair_of(header: dict, name: str, widths: Dict[str, int]) -> Pair:
    slot_bits = tuple(s["bits"] if "bits" in s else widths[s["type"]] for s in header["slots"])
    return Pair(header["op"], header["src"], header["dst"], header.get("group", ""), slot_bits,
                widths[header["dst"]], header, name)


def vector_files(paths: Sequence[os.PathLike]) -> List[Path]:
    """The vector files of ``paths``: files as given; a folder: the binary files its
    manifest.json lists, in order. Raises ValueError for a folder without one."""
    out = []
    for p in map(Path, paths):
        if p.is_dir():
            manifest = p / "manifest.json"
            if not manifest.is_file():
                raise ValueError(f"{p}: a folder without manifest.json (give vector files, or a "
                                 "suite folder ptovec generate wrote)")
            files = json.loads(manifest.read_text())["files"]
            out += [p / f["path"] for f in files if f["format"] == "bin"]
        else:
            out.append(p)
    return out


def _slice(count: int, wanted: int) -> Iterable[int]:
    """All of ``count`` records when ``wanted`` is 0 or at least ``count``, else ``wanted``
    evenly spaced ones: record floor(i * count / wanted) for i < wanted."""
    if wanted == 0 or wanted >= count:
        return range(count)
    return (i * count // wanted for i in range(wanted))


def cases_from_vectors(paths: Sequence[os.PathLike], *, op: Optional[str] = None,
                       src: Optional[str] = None, dst: Optional[str] = None, limit: int = 0,
                       ptovec: Optional[str] = None) -> Iterator[Case]:
    """The records of vector files (binary or JSON) and suite folders (the binary files of
    their manifest.json), in order, as Cases, read lazily (a file is memory-mapped). ``op``,
    ``src``, ``dst``: only files of that op and types. ``limit``: 0 every record; N: N records
    in all, the same share from each file (the first files one more when N does not divide),
    evenly spaced within it (record floor(i * count / n)). ``ptovec`` gives the type widths of
    files without "bits" (``program``).

    Raises ValueError naming a folder without a manifest, or a selection with no file;
    VectorFileError (a ValueError) for a file that is not a vector file; OSError."""
    files = _selected_files(paths, op, src, dst)
    widths = type_widths(program(ptovec))
    n = len(files)
    shares = ([limit // n + (1 if i < limit % n else 0) for i in range(n)] if limit
              else [0] * n)
    for (path, header, records), wanted in zip(files, shares):
        yield from _file_cases(_pair_of(header, path.name, widths), records, wanted)


def _selected_files(paths, op, src, dst) -> list:
    """(path, header, records) of each vector file of ``paths`` of that op and types (any for
    None). Raises ValueError when there is none."""
    files = []
    for path in vector_files(paths):
        header, records = read_vector_file(path)
        if (op and header["op"] != op) or (src and header["src"] != src) or \
                (dst and header["dst"] != dst):
            continue
        files.append((path, header, records))
    if not files:
        raise ValueError(f"no vector file in {[str(p) for p in paths]} matches op={op} src={src} "
                         f"dst={dst}")
    return files


def _file_cases(pair: Pair, records, wanted: int) -> Iterator[Case]:
    """The Cases of ``wanted`` evenly spaced records of one file (0: all), in order."""
    slots = ["in." + s["name"] for s in pair.header["slots"]]
    chosen = list(_slice(len(records), wanted))
    part = records[chosen]
    columns = [part[s].tolist() for s in slots]
    rmodes, sats = part["rmode"].tolist(), part["sat"].tolist()
    outs, flags = part["out"].tolist(), part["flags"].tolist()
    for k, index in enumerate(chosen):
        yield Case(tuple(c[k] for c in columns), rmodes[k], bool(sats[k]), outs[k], flags[k],
                   pair, index)


def cases_from_evaluate(op: str, src: str, dst: str, inputs: Sequence, *,
                        controls: Optional[Sequence[Tuple[str, bool]]] = None, group: str = "",
                        ptovec: Optional[str] = None, work: os.PathLike = "ptovec-cases",
                        edition: Optional[str] = None) -> List[Case]:
    """Cases of the given ``inputs`` (ints for an op of one slot, else tuples of words in slot
    order) under each of ``controls`` ((rmode name, sat) pairs; default every control the pair
    takes), expected results computed now: by ``ptovec.evaluate`` when the compiled module
    ptovec._core is importable, else by ``ptovec eval --batch`` (the same oracle, as a
    subprocess). Input k under control c is case ``k * len(controls) + c`` (a vector file's
    order). ``group``: the file group of a split pair (``ptovec list``). The pair's header (its
    slots and their widths) comes from the op registry (``ptovec.registry``: the package's
    registry.json, no process; from a source tree, ``ptovec list``); ``work`` is not used (no
    file is written; kept for callers that give it). ``edition``: the specification edition
    ("0.58.3", the default, or "2026-09"): its op, pairs and answers; the cases' header says it.

    Raises ValueError with ptovec's message for a bad op, type, control or input."""
    exe = program(ptovec)
    entry, line = pair_listing(op, src, dst, group, exe, edition=edition)
    tuples = [tuple(int(w) for w in (x if isinstance(x, (tuple, list)) else (x,)))
              for x in inputs]
    if controls is None:
        n = line.get("controls", entry.get("controls", 1))
        if "modes" in line:  # a pair of some modes only (2026-09's E6M2 pairs: RNE RNA)
            controls = [(m, s) for m in line["modes"].split() for s in (False, True)]
        elif n == CONTROLS:
            controls = [(m, s) for m in RMODE_NAMES for s in (False, True)]
        else:
            controls = [("RNE", False)]
    controls = [(str(m).upper(), bool(s)) for m, s in controls]
    for m, _ in controls:
        if m not in RMODE_NAMES:
            raise ValueError(f"unknown rounding mode {m!r} (accepted: {' '.join(RMODE_NAMES)})")
    header = pair_header(op, src, dst, group=group, controls=controls, inputs=len(tuples),
                         ptovec=exe, edition=edition)
    name = f"evaluate_{op}_{src}_{dst}" + (f"_{group}" if group else "")
    pair = _pair_of(header, name, registry_type_widths(exe, edition=edition))
    results = _evaluate(op, src, dst, tuples, controls, pair, exe)
    cases = []
    for k, words in enumerate(tuples):
        for c, (m, s) in enumerate(controls):
            word, flags = results[c][k]
            cases.append(Case(words, RMODE_NAMES.index(m), s, word, flags, pair,
                              k * len(controls) + c))
    return cases


def _evaluate(op, src, dst, tuples, controls, pair, exe):
    """[control][input] -> (word, flags), by ptovec.evaluate or ptovec eval --batch."""
    try:
        from . import _core  # noqa: F401  (only to know whether the compiled module is there)
        from . import evaluate
    except ImportError:
        evaluate = None
    if evaluate is not None:
        import numpy as np
        matrix = np.array(tuples, dtype=np.uint64).reshape(len(tuples), len(pair.slot_bits))
        out = []
        for m, s in controls:
            words, flags = evaluate(op, src, dst, matrix, rmode=m, sat=s,
                                    edition=edition_of(pair.header))
            out.append(list(zip(words.tolist(), flags.tolist())))
        return out
    lines = []
    for m, s in controls:
        for words in tuples:
            case = Case(words, RMODE_NAMES.index(m), s, 0, 0, pair, 0)
            lines.append(case.eval_line()[len("ptovec eval "):])
    done = subprocess.run([exe, "eval", "--batch", "-"], input="\n".join(lines) + "\n",
                          capture_output=True, text=True)
    answers = [json.loads(x) for x in done.stdout.splitlines() if x.strip()]
    for a in answers:
        if "error" in a:
            raise ValueError(f"ptovec eval: {a['error']} (line {a.get('line')})")
    if done.returncode != 0 or len(answers) != len(lines):
        raise ValueError(done.stderr.strip() or "ptovec eval --batch failed")
    n = len(tuples)
    return [[(int(a["out"], 16), int(a["flags"], 16)) for a in answers[c * n:(c + 1) * n]]
            for c in range(len(controls))]


class Mismatch(NamedTuple):
    """One wrong answer: the case, the device's word and status (None: unsupported)."""
    case: Case
    word: Optional[int]
    flags: Optional[int]

    def line(self) -> str:
        """The mismatch in two lines: what was expected and got, then the eval line."""
        c = self.case
        got = ("unsupported" if self.word is None else
               f"{hex_word(self.word, c.pair.out_bits)} flags 0x{self.flags:02x}")
        return (f"{c.describe()}: expected {hex_word(c.word, c.pair.out_bits)} flags "
                f"0x{c.flags:02x}, got {got}\n    {c.eval_line()}")


class CheckOutcome(NamedTuple):
    """What ``Scoreboard.finish`` found: ``exit_code`` of ``ptovec check`` (0 all match, 1
    mismatch or unsupported), its ``report`` (text: the verdict and the mismatches grouped by
    outcome class), ``coverage`` (the text of ``ptovec coverage`` of the driven vectors),
    ``coverage_json`` (its --json counts) and ``folder`` (the driven vector files and the
    results file)."""
    exit_code: int
    report: str
    coverage: str
    coverage_json: dict
    folder: Path


class Scoreboard:
    """Matches a stream's results with its cases, in order. Not thread-safe (one per stream).

    ``compare``: what must agree, as ``ptovec check --compare/--flags`` says it: "word+flags"
    (default), "word" (a device without a status port) or "word+flags:NV,OF". ``max_report``:
    mismatches kept in full (every one is counted). ``log``: a callable taking one line (e.g. a
    cocotb logger's ``error``), called for each of the first ``max_report`` mismatches and each
    order error.

    Raises ValueError for an unknown policy."""

    def __init__(self, *, compare: str = "word+flags", max_report: int = 10, log=None,
                 device: str = "device"):
        self.compare = compare
        self.flags_mask = compared_flags(compare)
        self.max_report = max_report
        self.log = log
        self.device = device
        self.pending = deque()  # (tag, case), oldest first
        #: (source name, index) -> (case, word, flags), the answered cases
        self.results: Dict[Tuple[str, int], Tuple[Case, Optional[int], Optional[int]]] = {}
        self.checked = 0
        self.matched = 0
        self.unsupported = 0
        self.mismatched = 0
        self.order_errors = 0
        self.first: List[Mismatch] = []
        self.order_report: List[str] = []

    def expect(self, case: Case, tag: Optional[int] = None) -> None:
        """The unit accepted ``case`` (with ``tag``, or None when its port has no tag)."""
        self.pending.append((tag, case))

    @property
    def outstanding(self) -> int:
        """Cases accepted and not yet answered."""
        return len(self.pending)

    def oldest(self) -> Optional[Case]:
        """The oldest outstanding case, or None."""
        return self.pending[0][1] if self.pending else None

    def observe(self, word: Optional[int], flags: Optional[int],
                tag: Optional[int] = None) -> Optional[Mismatch]:
        """A result left the unit: ``word`` and ``flags`` (ptovec's order; both None for an
        answer the device marks unsupported) with ``tag``. It answers the oldest outstanding
        case; a tag that differs is an order error (counted, logged, the result still compared
        with that case). Returns the Mismatch, or None when it matches. Raises RuntimeError for a
        result with no outstanding case."""
        if not self.pending:
            raise RuntimeError(f"a result (tag {tag}) with no case outstanding: the unit "
                               "produced more results than it accepted cases")
        expected_tag, case = self.pending.popleft()
        if tag is not None and expected_tag is not None and tag != expected_tag:
            self.order_errors += 1
            text = (f"result tag {tag}, expected tag {expected_tag} (the oldest outstanding "
                    f"case, {case.describe()}): results out of order, lost or duplicated")
            if len(self.order_report) < self.max_report:
                self.order_report.append(text)
                if self.log:
                    self.log(text)
        self.checked += 1
        self.results[(case.pair.name, case.index)] = (case, word, flags)
        if word is None:
            self.unsupported += 1
            return Mismatch(case, None, None)
        mask = (1 << case.pair.out_bits) - 1
        if (word ^ case.word) & mask == 0 and ((flags ^ case.flags) & self.flags_mask) == 0 \
                and flags <= 0x1F:
            self.matched += 1
            return None
        self.mismatched += 1
        m = Mismatch(case, word, flags)
        if len(self.first) < self.max_report:
            self.first.append(m)
            if self.log:
                self.log("mismatch: " + m.line())
        return m

    def summary(self) -> str:
        """One line: checked, matched, mismatched, unsupported, order errors, outstanding."""
        return (f"{self.checked} result(s) checked: {self.matched} match, {self.mismatched} "
                f"mismatch, {self.unsupported} unsupported, {self.order_errors} out of order, "
                f"{self.outstanding} outstanding (compare {self.compare})")

    def finish(self, work: os.PathLike, *, ptovec: Optional[str] = None,
               check_args: Sequence[str] = ()) -> CheckOutcome:
        """Writes what was driven into folder ``work`` (made; earlier contents replaced): one
        JSON vector file per source file and control (the answered cases, in their order, with
        the source's header: controls that one, domain "selected"), the device's answers as a
        results file (results.jsonl), then runs ``ptovec check`` on them (with ``--compare``
        and ``check_args``, e.g. ("--known-differences", "riscv")) and ``ptovec coverage``.
        Returns a CheckOutcome. Raises RuntimeError when nothing was answered or when either
        program fails to read the files (exit 2)."""
        if not self.results:
            raise RuntimeError("no result was observed: nothing to check")
        exe = program(ptovec)
        folder = Path(work)
        folder.mkdir(parents=True, exist_ok=True)
        for old in list(folder.glob("driven_*.json")) + [folder / "results.jsonl"]:
            old.unlink(missing_ok=True)
        groups: Dict[Tuple[str, int, bool], List] = {}
        for _, (case, word, flags) in sorted(self.results.items()):
            groups.setdefault((case.pair.name, case.rmode, case.sat), []).append(
                (case, word, flags))
        files, sections = _write_driven(folder, groups)
        results = folder / "results.jsonl"
        self._write_results(results, sections, groups)
        check = subprocess.run([exe, "check", "--quiet", "--vectors", *map(str, files),
                                "--results", str(results), *self._judge_args(), *check_args],
                               capture_output=True, text=True)
        if check.returncode not in (0, 1):
            raise RuntimeError(f"ptovec check could not read the driven files: "
                               f"{check.stderr.strip()}")
        coverage_json = folder / "coverage.json"
        cov = subprocess.run([exe, "coverage", "--scope", "present", "--vectors",
                              *map(str, files), "--json", str(coverage_json)],
                             capture_output=True, text=True)
        if cov.returncode not in (0, 1):
            raise RuntimeError(f"ptovec coverage could not read the driven files: "
                               f"{cov.stderr.strip()}")
        return CheckOutcome(check.returncode, check.stdout, cov.stdout,
                            json.loads(coverage_json.read_text()), folder)

    def _write_results(self, results: Path, sections: List[dict], groups: dict) -> None:
        """The device's answers of ``groups`` as the JSON lines results file ``results``
        (written whole, then renamed), one section per driven file."""
        with open(str(results) + ".tmp", "w") as out:
            out.write(json.dumps({"format": "ptovec-results-json", "version": 2,
                                  "tool_version": "ptovec.cocotb", "device": self.device,
                                  "sections": sections}) + "\n")
            for s, rows in enumerate(groups.values()):
                for i, (case, word, flags) in enumerate(rows):
                    if word is None:
                        out.write(json.dumps({"s": s, "i": i, "flags": "unsupported"}) + "\n")
                    else:
                        out.write(json.dumps({"s": s, "i": i, "out": hex(word),
                                              "flags": "0x%02x" % flags}) + "\n")
        os.replace(str(results) + ".tmp", results)

    def _judge_args(self) -> List[str]:
        """The options of ``ptovec check`` that compare as this scoreboard does."""
        if self.flags_mask == 0:
            return ["--compare", POLICY_WORD]
        if self.flags_mask == STATUS_ALL:
            return []
        return ["--flags", POLICY_SEPARATOR.join(n for b, n in enumerate(FLAG_NAMES)
                                                 if self.flags_mask >> b & 1)]


def _write_driven(folder: Path, groups: dict) -> Tuple[List[Path], List[dict]]:
    """One JSON vector file in ``folder`` per group (source file and control) of answered
    cases; returns the files and their results sections."""
    files, sections = [], []
    for number, ((_, rmode, sat), rows) in enumerate(groups.items()):
        pair = rows[0][0].pair
        name = f"driven_{number:03d}_{Path(pair.name).stem}_{RMODE_NAMES[rmode]}_" \
               f"{'sat' if sat else 'nosat'}.json"
        path = folder / name
        text = _json_vector_file(pair, rmode, sat, [r[0] for r in rows])
        path.write_text(text)
        files.append(path)
        sections.append({"file": name, "sha256": hashlib.sha256(text.encode()).hexdigest(),
                         "op": pair.op, "src": pair.src, "dst": pair.dst,
                         "count": len(rows)})
    return files, sections


def _json_vector_file(pair: Pair, rmode: int, sat: bool, cases: Sequence[Case]) -> str:
    """A JSON vector file (schemas/binary-format.md) of ``cases``, all of one control, with the
    keys of ``pair.header`` from "format" to "seed" (controls that one, domain "selected")."""
    h = pair.header
    header = {"format": "ptovec-vectors-json"}
    for key in ("version", "tool_version", "op", "instruction", "seed_function", "seed_source",
                "src", "dst", "group", "slots"):
        if key in h:
            header[key] = h[key]
    header["controls"] = [{"rmode": RMODE_NAMES[rmode], "sat": sat}]
    header["domain"] = "selected"
    header["seed"] = h.get("seed", 0)
    header["inputs"] = len(cases)
    header["count"] = len(cases)
    head = json.dumps(header, separators=(",", ":"))[:-1] + ',"vectors":[\n'
    lines = []
    for c in cases:
        ins = ",".join('"%s"' % hex_word(w, b) for w, b in zip(c.inputs, pair.slot_bits))
        lines.append('{"in":[%s],"rmode":"%s","sat":%s,"out":"%s","flags":"0x%02x"}'
                     % (ins, RMODE_NAMES[rmode], "true" if sat else "false",
                        hex_word(c.word, pair.out_bits), c.flags))
    return head + ",\n".join(lines) + "\n]}\n"
