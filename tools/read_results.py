#!/usr/bin/env python3
"""Read a ptovec results file (schemas/results-format.md), binary or JSON lines, versions 1 and 2.

Module: header, sections = read_results(path)
        sections[s]: numpy structured array with fields "index" (u64: the record's index in its
        vector file), "out" (u64: the device's word), "flags" (u8: status bits 4:0, or 0x80 for
        an unsupported case), one entry per record present (fewer than the section's count
        when header["stopped"] says the run stopped early).
Script: read_results.py FILE [-n N]   # a summary line per section, the first N records of each
        (exit 2 on a bad or truncated file)
The reader is python/ptovec/files.py (read_results, ResultsFileError); this is its command line.
"""
import argparse, os, sys

try:
    import numpy  # noqa: F401  (checked first: one clear line instead of a traceback)
except ImportError:
    sys.exit("read_results.py: needs numpy (Debian: apt install python3-numpy; PyPI: pip install numpy)")

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "python"))
from ptovec.files import UNSUPPORTED, ResultsFileError, read_results  # noqa: E402,F401


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
