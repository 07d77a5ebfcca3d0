#!/usr/bin/env python3
"""Read a ptovec binary vector file (schemas/binary-format.md) with numpy.

Module: header, records = read_vectors(path)   # records: structured array, one field per
        header["fields"] entry ("in.value", "rmode", "sat", "out", "flags"), memory-mapped.
Script: read_vectors.py FILE [-n N] [--json]   # exit 2 on a bad or truncated file
Reads format versions 1 and 2 (version 2 gives each field's "bits" and lists the controls).
"""
import argparse, json, os, struct, sys

try:
    import numpy as np
except ImportError:  # one clear line instead of a traceback
    sys.exit("read_vectors.py: needs numpy (Debian: apt install python3-numpy; PyPI: pip install numpy)")

MAGIC, VERSIONS = b"PTOVEC\0B", (1, 2)
FIXED = struct.Struct("<8sHHIQQ")  # magic, version, record_size, header_bytes, count, data_offset
WIDTH = {"fp32": 32, "fp16": 16, "bf16": 16, "hif8": 8, "e4m3": 8, "e8m0": 8, "fp19": 19,
         "s64": 64, "s32": 32, "s16": 16, "s8": 8, "s4x2": 4,
         "u64": 64, "u32": 32, "u16": 16, "u8": 8, "u4x2": 4}  # bits of one element (version 1)


class VectorFileError(ValueError):
    pass


def read_vectors(path):
    size = os.path.getsize(path)
    with open(path, "rb") as f:
        fixed = f.read(FIXED.size)
        if len(fixed) < FIXED.size or fixed[:8] != MAGIC:
            raise VectorFileError(f"{path}: not a ptovec binary vector file (bad magic)")
        _, version, record_size, header_bytes, count, data_offset = FIXED.unpack(fixed)
        if version not in VERSIONS:
            raise VectorFileError(f"{path}: format version {version}, this reader knows {VERSIONS}")
        if data_offset != FIXED.size + header_bytes or data_offset % 8:
            raise VectorFileError(f"{path}: bad data offset {data_offset}")
        text = f.read(header_bytes)
    expected = data_offset + count * record_size
    if size != expected:
        raise VectorFileError(f"{path}: {size} bytes, expected {expected} (data offset {data_offset}"
                              f" + {count} records x {record_size} bytes): truncated or corrupt")
    header = json.loads(text.decode("utf-8"))
    fields = header["fields"]
    if (header["version"], header["count"], header["record_size"]) != (version, count, record_size) \
            or sum(f["bytes"] for f in fields) != record_size:
        raise VectorFileError(f"{path}: the JSON header disagrees with the fixed header")
    dtype = np.dtype({"names": [f["name"] for f in fields], "offsets": [f["offset"] for f in fields],
                      "formats": ["<u%d" % f["bytes"] for f in fields], "itemsize": record_size})
    records = (np.memmap(path, dtype=dtype, mode="r", offset=data_offset, shape=(count,)) if count
               else np.zeros(0, dtype))
    if count and (records["rmode"].max() >= len(header["rmode_names"]) or records["sat"].max() > 1
                  or records["flags"].max() > 0x1F):
        raise VectorFileError(f"{path}: a record has an rmode, sat or flags byte out of range")
    return header, records


def hex_word(value, bits):
    return "0x%0*x" % ((bits + 3) // 4, value)


def field_bits(field):
    """The bits of a word field: its "bits" (version 2) or its type's width (version 1)."""
    return field["bits"] if "bits" in field else WIDTH[field["type"]]


def json_lines(header, records):
    """The records in the text form of the JSON vector file's "vectors" (one object a line)."""
    fields, modes = header["fields"], header["rmode_names"]
    words = [(f["name"], field_bits(f)) for f in fields if f["name"].startswith("in.")]
    out_bits = next(field_bits(f) for f in fields if f["name"] == "out")
    cols = {name: records[name].tolist() for name in records.dtype.names}
    for i in range(len(records)):
        ins = ",".join('"%s"' % hex_word(cols[n][i], t) for n, t in words)
        yield ('{"in":[%s],"rmode":"%s","sat":%s,"out":"%s","flags":"0x%02x"}'
               % (ins, modes[cols["rmode"][i]], "true" if cols["sat"][i] else "false",
                  hex_word(cols["out"][i], out_bits), cols["flags"][i]))


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
