"""``python -m ptovec.files {vectors,results} FILE ...``: the command line of the readers
(ptovec.files' docstring, "Command line")."""
import argparse
import os
import sys

from . import UNSUPPORTED, json_lines, read_results, read_vectors



def _print_vectors(args):
    header, records = read_vectors(args.file)
    shown = records[: args.n if args.n is not None else (len(records) if args.json else 10)]
    if not args.json:
        print(" ".join(f"{k}={header[k]}" for k in ("op", "src", "dst", "domain", "seed", "inputs",
                                                     "count", "record_size") if k in header))
    for i, line in enumerate(json_lines(header, shown)):
        print(line if args.json else '{"index":%d,%s' % (i, line[1:]))


def _print_results(args):
    header, sections = read_results(args.file)
    if "stopped" in header:
        print(f"stopped early after {header['stopped']['records']} records: "
              f"{header['stopped']['reason']}")
    for s, records in zip(header["sections"], sections):
        unsupported = int((records["flags"] == UNSUPPORTED).sum())
        print(f"{s['file']}: {s['op']} {s['src']} -> {s['dst']}, {len(records)} of {s['count']} "
              f"records, {unsupported} unsupported")
        for r in records[: 3 if args.n is None else args.n]:
            flags = "unsupported" if r["flags"] == UNSUPPORTED else "0x%02x" % r["flags"]
            print(f"  record {r['index']}: out 0x{int(r['out']):x} flags {flags}")


def main(argv=None):
    """``python -m ptovec.files {vectors,results} FILE ...`` (the module docstring); returns the
    exit status."""
    parser = argparse.ArgumentParser(prog="python -m ptovec.files",
                                     description="Read a ptovec vector or results file.")
    kinds = parser.add_subparsers(dest="kind", required=True)
    vectors = kinds.add_parser("vectors", help="a binary vector file")
    vectors.add_argument("file")
    vectors.add_argument("-n", type=int, default=None,
                         help="records to print (default 10; --json: all)")
    vectors.add_argument("--json", action="store_true",
                         help="only the records, as JSON vector lines")
    vectors.set_defaults(run=_print_vectors)
    results = kinds.add_parser("results", help="a results file, binary or JSON lines")
    results.add_argument("file")
    results.add_argument("-n", type=int, default=None, help="records to print per section (default 3)")
    results.set_defaults(run=_print_results)
    args = parser.parse_args(argv)
    try:
        args.run(args)
        sys.stdout.flush()
    except (OSError, ValueError, KeyError, TypeError) as e:
        if isinstance(e, BrokenPipeError):  # `... | head`: the reader stopped, so do we
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
            return 0
        print(f"ptovec.files: error: {e}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
