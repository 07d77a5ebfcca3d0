#!/usr/bin/env python3
"""Read a ptovec results file (schemas/results-format.md), binary or JSON lines, versions 1 and 2.

Module: header, sections = read_results(path)
        sections[s]: numpy structured array with fields "index" (u64: the record's index in its
        vector file), "out" (u64: the device's word), "flags" (u8: status bits 4:0, or 0x80 for
        an unsupported case), one entry per record present (fewer than the section's count
        when header["stopped"] says the run stopped early).
Script: read_results.py FILE [-n N]   # a summary line per section, the first N records of each
        (exit 2 on a bad or truncated file)
"""
import argparse, json, os, struct, sys

try:
    import numpy as np
except ImportError:  # one clear line instead of a traceback
    sys.exit("read_results.py: needs numpy (Debian: apt install python3-numpy; PyPI: pip install numpy)")

MAGIC, VERSIONS = b"PTOVEC\0R", (1, 2)
FIXED = struct.Struct("<8sHHIQQ")  # magic, version, reserved, header_bytes, records, data_offset
UNSUPPORTED = 0x80
RECORD = np.dtype([("index", "<u8"), ("out", "<u8"), ("flags", "u1")])


class ResultsFileError(ValueError):
    pass


def present(header):
    """Records of each section in the file: its count, or fewer after a stop."""
    left = header["stopped"]["records"] if "stopped" in header else sum(s["count"] for s in header["sections"])
    out = []
    for s in header["sections"]:
        out.append(min(left, s["count"]))
        left -= out[-1]
    return out


def read_binary(path, f, size):
    _, version, _, header_bytes, records, data_offset = FIXED.unpack(f.read(FIXED.size))
    if version not in VERSIONS:
        raise ResultsFileError(f"{path}: format version {version}, this reader knows {VERSIONS}")
    header = json.loads(f.read(header_bytes).decode("utf-8"))
    counts = present(header)
    if sum(counts) != records:
        raise ResultsFileError(f"{path}: the fixed header says {records} records, the header {sum(counts)}")
    index_bytes = 4 if version == 1 else 8
    sections, at = [], data_offset
    for s, n in zip(header["sections"], counts):
        size_of = s["record_size"]
        dst_bytes = size_of - index_bytes - 1
        raw = np.fromfile(path, dtype=np.uint8, count=n * size_of, offset=at) if n else np.zeros(0, np.uint8)
        if raw.size != n * size_of:
            raise ResultsFileError(f"{path}: truncated in section {s['file']}")
        rows = raw.reshape(n, size_of)
        out = np.zeros(n, RECORD)
        le = lambda cols: (cols.astype("<u8") << (8 * np.arange(cols.shape[1], dtype="<u8"))).sum(axis=1, dtype="<u8")
        out["index"] = le(rows[:, :index_bytes])
        out["out"] = le(rows[:, index_bytes:index_bytes + dst_bytes])
        out["flags"] = rows[:, index_bytes + dst_bytes]
        sections.append(out)
        at += n * size_of
    if at != size:
        raise ResultsFileError(f"{path}: {size} bytes, the header needs {at}: truncated or corrupt")
    return header, sections


def read_json(path, f):
    header = json.loads(f.readline())
    if header.get("version") not in VERSIONS:
        raise ResultsFileError(f"{path}: format version {header.get('version')}, this reader knows {VERSIONS}")
    counts = present(header)
    rows = [[] for _ in counts]
    for line in f:
        if line.strip():
            r = json.loads(line)
            flags = UNSUPPORTED if r["flags"] == "unsupported" else int(r["flags"], 16)
            rows[r["s"]].append((r["i"], int(r.get("out", "0x0"), 16), flags))
    if [len(r) for r in rows] != counts:
        raise ResultsFileError(f"{path}: {[len(r) for r in rows]} records, the header says {counts}")
    return header, [np.array(r, RECORD) for r in rows]


def read_results(path):
    with open(path, "rb") as f:
        magic = f.read(8)
        f.seek(0)
        if magic == MAGIC:
            return read_binary(path, f, os.path.getsize(path))
        if magic[:1] == b"{":
            return read_json(path, f)
    raise ResultsFileError(f"{path}: not a ptovec results file (bad magic)")


def main(argv=None):
    parser = argparse.ArgumentParser(description="Read a ptovec results file.")
    parser.add_argument("file")
    parser.add_argument("-n", type=int, default=3, help="records to print per section (default 3)")
    args = parser.parse_args(argv)
    try:
        header, sections = read_results(args.file)
    except (OSError, ValueError, KeyError, TypeError) as e:
        print(f"read_results.py: error: {e}", file=sys.stderr)
        return 2
    try:
        if "stopped" in header:
            print(f"stopped early after {header['stopped']['records']} records: {header['stopped']['reason']}")
        for s, records in zip(header["sections"], sections):
            unsupported = int((records["flags"] == UNSUPPORTED).sum())
            print(f"{s['file']}: {s['op']} {s['src']} -> {s['dst']}, {len(records)} of {s['count']} "
                  f"records, {unsupported} unsupported")
            for r in records[: args.n]:
                flags = "unsupported" if r["flags"] == UNSUPPORTED else "0x%02x" % r["flags"]
                print(f"  record {r['index']}: out 0x{int(r['out']):x} flags {flags}")
        sys.stdout.flush()
    except BrokenPipeError:
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    return 0


if __name__ == "__main__":
    sys.exit(main())
