#!/usr/bin/env python3
"""Read a ptovec binary vector file (schemas/binary-format.md) with numpy.

Module: header, records = read_vectors(path)   # records: structured array, one field per
        header["fields"] entry ("in.value", "rmode", "sat", "out", "flags"), memory-mapped.
Script: read_vectors.py FILE [-n N] [--json]   # exit 2 on a bad or truncated file
Reads format versions 1 and 2 (version 2 gives each field's "bits" and lists the controls; a
version 1 file's word widths come from `ptovec list --types --json`).
The reader is python/ptovec/files.py (read_vectors, json_lines, VectorFileError); this is its
command line.
"""
import argparse, os, sys

try:
    import numpy  # noqa: F401  (checked first: one clear line instead of a traceback)
except ImportError:
    sys.exit("read_vectors.py: needs numpy (Debian: apt install python3-numpy; PyPI: pip install numpy)")

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "python"))
from ptovec.files import (VectorFileError, field_bits, hex_word, json_lines,  # noqa: E402,F401
                          read_vectors)


def main(argv=None):
    parser = argparse.ArgumentParser(description="Read a ptovec binary vector file.")
    parser.add_argument("file")
    parser.add_argument("-n", type=int, default=None, help="records to print (default 10; --json: all)")
    parser.add_argument("--json", action="store_true", help="only the records, as JSON vector lines")
    args = parser.parse_args(argv)
    try:
        header, records = read_vectors(args.file)
    except (OSError, ValueError, KeyError, TypeError) as e:
        print(f"read_vectors.py: error: {e}", file=sys.stderr)
        return 2
    shown = records[: args.n if args.n is not None else (len(records) if args.json else 10)]
    if not args.json:
        print(" ".join(f"{k}={header[k]}" for k in ("op", "src", "dst", "domain", "seed", "inputs",
                                                     "count", "record_size") if k in header))
    try:
        for i, line in enumerate(json_lines(header, shown)):
            print(line if args.json else '{"index":%d,%s' % (i, line[1:]))
        sys.stdout.flush()
    except BrokenPipeError:  # `read_vectors.py FILE --json | head`: the reader stopped, so do we
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    return 0


if __name__ == "__main__":
    sys.exit(main())
