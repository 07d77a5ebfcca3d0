"""Readers of ptovec's files with numpy: vector files and results files, binary and JSON.

Layouts: schemas/binary-format.md (vector files) and schemas/results-format.md (results files).
Both binary forms open with the same 32-byte fixed header (``FIXED``: magic, version,
record_size, header_bytes, count, data_offset; little-endian) and a JSON header padded so that
the records start at a multiple of 8. Versions 1 and 2 of both formats are read.

Vector files
    ``read_vectors(path)``       binary vector file -> (header, records), records memory-mapped
    ``read_vectors_json(path)``  JSON vector file -> (header, records)
    ``read_vector_file(path)``   either, told apart by the first bytes
    ``json_lines(header, records)``  the records as the JSON vector file's lines
Results files
    ``read_results(path)``       binary or JSON lines -> (header, sections)
Type widths
    ``type_widths(ptovec)``      {type name: bits} from ``ptovec list --types --json``
Editions
    ``edition_of(header)``       the specification edition of a file ("0.58.3" when its header
        has no "edition"); every reader refuses an edition it does not know (``EDITIONS``), and
        one other than its ``edition=`` argument when given
Command line
    ``python -m ptovec.files vectors FILE [-n N] [--json]``  a summary line and the first N
        records (default 10) as JSON vector lines with their index; --json: only the records
        (all of them unless -n), exactly the JSON vector file's lines
    ``python -m ptovec.files results FILE [-n N]``  a summary line per section and its first N
        records (default 3)
    Exit status 0, or 2 and one ``ptovec.files: error:`` line for a bad or truncated file.

Every reader raises ``VectorFileError`` or ``ResultsFileError`` (both ``ValueError``) for a file
that is not of its kind, is truncated or is inconsistent, and ``OSError`` when the file cannot be
read; a malformed JSON header may also raise ``ValueError`` (``json.JSONDecodeError``),
``KeyError`` or ``TypeError``.
"""
import json
import os
import shutil
import struct
import subprocess

import numpy as np

__all__ = ["FIXED", "VECTOR_MAGIC", "RESULTS_MAGIC", "VERSIONS", "RMODE_NAMES", "UNSUPPORTED",
           "EDITIONS", "DEFAULT_EDITION", "edition_of",
           "RESULT_RECORD", "VectorFileError", "ResultsFileError", "read_fixed_header",
           "read_vectors", "read_vectors_json", "read_vector_file", "field_bits", "hex_word",
           "json_lines", "read_results", "type_widths"]

#: The fixed header: magic (8 bytes), version (u16), record_size (u16; results files: 0),
#: header_bytes (u32), count (u64: records), data_offset (u64).
FIXED = struct.Struct("<8sHHIQQ")
#: VECTOR_MAGIC and RESULTS_MAGIC, its first 8 bytes; RMODE_NAMES, the rounding modes by their
#: rmode byte (NumericRoundingMode order; a binary vector file's header repeats it as
#: "rmode_names"): ptovec._facts, generated from include/ptovec/facts.h.
from .._facts import RESULTS_MAGIC, RMODE_NAMES, VECTOR_MAGIC  # noqa: E402
#: The format versions read (vector and results files alike).
VERSIONS = (1, 2)
#: The editions of the specification a file may follow, oldest first (``--edition``): a header's
#: "edition", absent in a file of the default edition "0.58.3" (the seeds).
EDITIONS = ("0.58.3", "2026-09")
DEFAULT_EDITION = "0.58.3"
#: The flags byte of a case the device did not implement (binary results; JSON "unsupported").
UNSUPPORTED = 0x80
#: One results record: its index in its vector file, the device's word, its flags.
RESULT_RECORD = np.dtype([("index", "<u8"), ("out", "<u8"), ("flags", "u1")])


class VectorFileError(ValueError):
    """A vector file that is not one, is truncated or disagrees with itself."""


class ResultsFileError(ValueError):
    """A results file that is not one, is truncated or disagrees with itself."""


def read_fixed_header(f, magic, error, path):
    """The fixed header of the open binary file ``f`` (at its start) as a tuple (magic, version,
    record_size, header_bytes, count, data_offset), checked: ``magic`` (8 bytes), a version of
    ``VERSIONS``, data_offset = 32 + header_bytes and a multiple of 8. Raises ``error`` (an
    exception class) naming ``path`` otherwise. Leaves ``f`` after the 32 bytes."""
    fixed = f.read(FIXED.size)
    if len(fixed) < FIXED.size or fixed[:8] != magic:
        kind = "binary vector file" if magic == VECTOR_MAGIC else "results file"
        raise error(f"{path}: not a ptovec {kind} (bad magic)")
    fields = FIXED.unpack(fixed)
    version, header_bytes, data_offset = fields[1], fields[3], fields[5]
    if version not in VERSIONS:
        raise error(f"{path}: format version {version}, this reader knows {VERSIONS}")
    if data_offset != FIXED.size + header_bytes or data_offset % 8:
        raise error(f"{path}: bad data offset {data_offset}")
    return fields


def edition_of(header):
    """The edition of the specification a vector or results file follows: its header's "edition"
    ("2026-09"), or DEFAULT_EDITION "0.58.3" when it has none (0.58.3's files carry no key)."""
    return header.get("edition", DEFAULT_EDITION)


def _check_edition(header, path, error, edition):
    """Raises ``error`` naming ``path`` for an edition not in EDITIONS, or (``edition`` given)
    for a file of another edition than ``edition``, as ``ptovec run/check --edition`` refuse."""
    found = edition_of(header)
    if found not in EDITIONS:
        raise error(f"{path}: edition {found!r}, this reader knows {', '.join(EDITIONS)}")
    if edition is not None and edition not in EDITIONS:
        raise ValueError(f"edition {edition!r} is not one of {', '.join(EDITIONS)}")
    if edition is not None and found != edition:
        raise error(f"{path} is of edition {found}, edition= says {edition}")


def read_vectors(path, edition=None):
    """Reads the binary vector file ``path`` (magic PTOVEC\\0B, versions 1 and 2).

    Returns (header, records): ``header`` the JSON header (a dict: "op", "src", "dst",
    "fields", "rmode_names", "count", ...); ``records`` a numpy structured array of
    ``header["count"]`` records, memory-mapped read-only, one field per entry of
    ``header["fields"]`` in order ("in.<slot>", "rmode", "sat", "out", "flags"), each an
    unsigned little-endian integer of the field's bytes (``<u1``, ``<u2``, ``<u4`` or ``<u8``):
    words are element-width encodings (S8 -126 is 0x82), rmode the index into rmode_names,
    sat 0 or 1, flags the status bits 4:0.

    ``edition``: None (any edition, ``edition_of(header)`` says which) or an edition of
    EDITIONS the file must follow.

    Raises VectorFileError for a file without the magic, of another version, whose size is not
    data_offset + count * record_size exactly (truncated or longer), whose JSON header disagrees
    with the fixed header or whose fields do not add up to record_size, of an edition this reader
    does not know or other than ``edition``, or with a record whose rmode, sat or flags byte is
    out of range."""
    size = os.path.getsize(path)
    with open(path, "rb") as f:
        _, version, record_size, header_bytes, count, data_offset = read_fixed_header(
            f, VECTOR_MAGIC, VectorFileError, path)
        text = f.read(header_bytes)
    expected = data_offset + count * record_size
    if size != expected:
        raise VectorFileError(f"{path}: {size} bytes, expected {expected} (data offset "
                              f"{data_offset} + {count} records x {record_size} bytes): "
                              "truncated or corrupt")
    header = json.loads(text.decode("utf-8"))
    fields = header["fields"]
    announced = (header["version"], header["count"], header["record_size"])
    if announced != (version, count, record_size) or sum(f["bytes"] for f in fields) != record_size:
        raise VectorFileError(f"{path}: the JSON header disagrees with the fixed header")
    _check_edition(header, path, VectorFileError, edition)
    dtype = np.dtype({"names": [f["name"] for f in fields],
                      "offsets": [f["offset"] for f in fields],
                      "formats": ["<u%d" % f["bytes"] for f in fields], "itemsize": record_size})
    records = (np.memmap(path, dtype=dtype, mode="r", offset=data_offset, shape=(count,)) if count
               else np.zeros(0, dtype))
    if count and (records["rmode"].max() >= len(header["rmode_names"]) or records["sat"].max() > 1
                  or records["flags"].max() > 0x1F):
        raise VectorFileError(f"{path}: a record has an rmode, sat or flags byte out of range")
    return header, records


def read_vectors_json(path, edition=None):
    """Reads the JSON vector file ``path`` (format "ptovec-vectors-json", versions 1 and 2):
    line 1 the header ending in ``"vectors":[``, one vector a line, then ``]}``.

    Returns (header, records): ``header`` the header (a dict, without "vectors"); ``records`` a
    numpy structured array of ``header["count"]`` records with the fields of a binary file's
    records ("in.<slot>" for each of ``header["slots"]``, "rmode", "sat", "out", "flags"), the
    words as ``<u8`` and rmode, sat and flags as ``u1`` (rmode the index into RMODE_NAMES).
    ``edition``: as ``read_vectors``'.

    Raises VectorFileError for a file whose first line is not such a header, of an edition this
    reader does not know or other than ``edition``, whose vectors are not ``header["count"]``
    (truncated or extra), or with a vector whose rmode, sat or flags is out of range."""
    with open(path, "rb") as f:
        first = f.readline().rstrip(b"\n")
        opening = b',"vectors":['
        if not first.startswith(b"{") or not first.endswith(opening):
            raise VectorFileError(f"{path}: not a ptovec JSON vector file (line 1 is no header "
                                  'ending in "vectors":[)')
        header = json.loads(first[:-len(opening)].decode("utf-8") + "}")
        if header.get("format") != "ptovec-vectors-json":
            raise VectorFileError(f"{path}: header format {header.get('format')!r}")
        if header.get("version") not in VERSIONS:
            raise VectorFileError(f"{path}: format version {header.get('version')}, this reader "
                                  f"knows {VERSIONS}")
        _check_edition(header, path, VectorFileError, edition)
        slots = ["in." + s["name"] for s in header["slots"]]
        rows, closed = [], False
        for number, line in enumerate(f, start=2):
            text = line.strip()
            if closed:
                if text:
                    raise VectorFileError(f"{path}: line {number} follows the closing ]}}")
                continue
            if text == b"]}":
                closed = True
                continue
            if not text:
                continue
            v = json.loads(text.rstrip(b","))
            if len(v["in"]) != len(slots) or v["rmode"] not in RMODE_NAMES or \
                    not isinstance(v["sat"], bool) or int(v["flags"], 16) > 0x1F:
                raise VectorFileError(f"{path}: line {number} is not a vector of {header['op']}")
            rows.append(tuple(int(w, 16) for w in v["in"]) +
                        (RMODE_NAMES.index(v["rmode"]), int(v["sat"]), int(v["out"], 16),
                         int(v["flags"], 16)))
    if not closed or len(rows) != header["count"]:
        raise VectorFileError(f"{path}: {len(rows)} vectors{'' if closed else ' and no closing ]}'}"
                              f", the header says {header['count']}: truncated or corrupt")
    dtype = np.dtype([(n, "<u8") for n in slots] +
                     [("rmode", "u1"), ("sat", "u1"), ("out", "<u8"), ("flags", "u1")])
    return header, np.array(rows, dtype)


def read_vector_file(path, edition=None):
    """Reads the vector file ``path`` in either format, told apart by its first bytes (the binary
    magic or '{'): ``read_vectors`` or ``read_vectors_json`` (``edition`` as theirs). Raises
    VectorFileError for anything else."""
    with open(path, "rb") as f:
        start = f.read(8)
    if start == VECTOR_MAGIC:
        return read_vectors(path, edition)
    if start[:1] == b"{":
        return read_vectors_json(path, edition)
    raise VectorFileError(f"{path}: not a ptovec vector file (bad magic)")


def type_widths(ptovec=None, edition=DEFAULT_EDITION):
    """{type name: bits of one element} for every type of ``edition`` ptovec knows, from
    ``ptovec list --types --json --edition EDITION`` (the format table, oracle/src/formats.cpp).
    ``ptovec`` is the binary's path; by default the environment's PTOVEC, else ``ptovec`` on
    PATH. Raises OSError when there is none, subprocess.CalledProcessError when it fails."""
    program = ptovec or os.environ.get("PTOVEC") or shutil.which("ptovec")
    if not program:
        raise OSError("no ptovec binary to ask for the type widths (give PTOVEC=PATH or put "
                      "ptovec on PATH)")
    out = subprocess.run([program, "list", "--types", "--json", "--edition", edition], check=True,
                         capture_output=True, text=True).stdout
    return {t["name"]: t["width"] for t in json.loads(out)}


def field_bits(field, widths=None):
    """The bits of a word field of a binary vector header: its "bits" (version 2), else (version
    1) its type's width from ``widths`` ({name: bits}; by default ``type_widths()``)."""
    if "bits" in field:
        return field["bits"]
    return (widths if widths is not None else type_widths())[field["type"]]


def hex_word(value, bits):
    """A word as the JSON files write it: "0x" and (bits + 3) // 4 lower-case hex digits."""
    return "0x%0*x" % ((bits + 3) // 4, value)


def json_lines(header, records, widths=None):
    """The records of a binary vector file (``read_vectors``) as the lines of the JSON vector
    file's "vectors" (one JSON object a line, no separators), byte for byte as ptovec writes
    them. A version 1 header has no "bits": the widths then come from ``widths`` ({name: bits})
    or ``type_widths()``."""
    fields, modes = header["fields"], header["rmode_names"]
    if widths is None and any("bits" not in f for f in fields if "type" in f):
        widths = type_widths()
    words = [(f["name"], field_bits(f, widths)) for f in fields if f["name"].startswith("in.")]
    out_bits = next(field_bits(f, widths) for f in fields if f["name"] == "out")
    cols = {name: records[name].tolist() for name in records.dtype.names}
    for i in range(len(records)):
        ins = ",".join('"%s"' % hex_word(cols[n][i], t) for n, t in words)
        yield ('{"in":[%s],"rmode":"%s","sat":%s,"out":"%s","flags":"0x%02x"}'
               % (ins, modes[cols["rmode"][i]], "true" if cols["sat"][i] else "false",
                  hex_word(cols["out"][i], out_bits), cols["flags"][i]))


def _present(header):
    """Records of each section in a results file: its count, or fewer after a stop."""
    left = (header["stopped"]["records"] if "stopped" in header
            else sum(s["count"] for s in header["sections"]))
    out = []
    for s in header["sections"]:
        out.append(min(left, s["count"]))
        left -= out[-1]
    return out


def _read_results_binary(path, f, size):
    _, version, _, header_bytes, records, data_offset = read_fixed_header(
        f, RESULTS_MAGIC, ResultsFileError, path)
    header = json.loads(f.read(header_bytes).decode("utf-8"))
    counts = _present(header)
    if sum(counts) != records:
        raise ResultsFileError(f"{path}: the fixed header says {records} records, the header "
                               f"{sum(counts)}")
    index_bytes = 4 if version == 1 else 8
    sections, at = [], data_offset
    for s, n in zip(header["sections"], counts):
        size_of = s["record_size"]
        dst_bytes = size_of - index_bytes - 1
        raw = (np.fromfile(path, dtype=np.uint8, count=n * size_of, offset=at) if n
               else np.zeros(0, np.uint8))
        if raw.size != n * size_of:
            raise ResultsFileError(f"{path}: truncated in section {s['file']}")
        rows = raw.reshape(n, size_of)
        out = np.zeros(n, RESULT_RECORD)

        def little_endian(cols):
            shifts = 8 * np.arange(cols.shape[1], dtype="<u8")
            return (cols.astype("<u8") << shifts).sum(axis=1, dtype="<u8")

        out["index"] = little_endian(rows[:, :index_bytes])
        out["out"] = little_endian(rows[:, index_bytes:index_bytes + dst_bytes])
        out["flags"] = rows[:, index_bytes + dst_bytes]
        sections.append(out)
        at += n * size_of
    if at != size:
        raise ResultsFileError(f"{path}: {size} bytes, the header needs {at}: truncated or corrupt")
    return header, sections


def _read_results_json(path, f):
    header = json.loads(f.readline())
    if header.get("version") not in VERSIONS:
        raise ResultsFileError(f"{path}: format version {header.get('version')}, this reader "
                               f"knows {VERSIONS}")
    counts = _present(header)
    rows = [[] for _ in counts]
    for line in f:
        if line.strip():
            r = json.loads(line)
            flags = UNSUPPORTED if r["flags"] == "unsupported" else int(r["flags"], 16)
            rows[r["s"]].append((r["i"], int(r.get("out", "0x0"), 16), flags))
    if [len(r) for r in rows] != counts:
        raise ResultsFileError(f"{path}: {[len(r) for r in rows]} records, the header says "
                               f"{counts}")
    return header, [np.array(r, RESULT_RECORD) for r in rows]


def read_results(path, edition=None):
    """Reads the results file ``path``: binary (magic PTOVEC\\0R) or JSON lines (first byte
    '{'), versions 1 and 2.

    Returns (header, sections): ``header`` the JSON header (a dict: "format", "version",
    "device", "sections", and "stopped" when the run stopped early); ``sections[s]`` a numpy
    array of dtype RESULT_RECORD for ``header["sections"][s]``: "index" (``<u8``: the record's
    index in its vector file), "out" (``<u8``: the device's word; 0 when unsupported), "flags"
    (``u1``: status bits 4:0, or UNSUPPORTED 0x80), one entry per record present (fewer than
    the section's count when header["stopped"] says the run stopped early).

    ``edition``: None (any; ``edition_of(header)`` says which the run's vectors followed) or an
    edition of EDITIONS the file must be of.

    Raises ResultsFileError for a file of neither form, of another version, of an edition this
    reader does not know or other than ``edition``, whose records do not match the header's
    counts (truncated or extra) or whose size disagrees with them. This reader does not check
    record order or the flags' range: ``ptovec check`` does."""
    with open(path, "rb") as f:
        magic = f.read(8)
        f.seek(0)
        if magic == RESULTS_MAGIC:
            header, sections = _read_results_binary(path, f, os.path.getsize(path))
        elif magic[:1] == b"{":
            header, sections = _read_results_json(path, f)
        else:
            raise ResultsFileError(f"{path}: not a ptovec results file (bad magic)")
    _check_edition(header, path, ResultsFileError, edition)
    return header, sections

