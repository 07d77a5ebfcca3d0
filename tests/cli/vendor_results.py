"""A vendor harness without ptovec's code, for test_check.py and test_run.py: results files
written from the JSON vector files in the documented formats (schemas/results-format.md), and the
small suites the check and run tests share."""
import json
import os
import struct

from ptovec_cli import ClassScratch, generate


def read_json_vectors(path):
    with open(path) as f:
        return json.load(f)


def vendor_results_jsonl(folder, out, fault=None, fault_of=None):
    """A vendor harness without ptovec's code: answers every vector of the JSON files listed in
    folder/manifest.json (here: copies the expected answer, then applies `fault`, or the fault
    `fault_of(manifest entry)` gives for that file) and writes the JSON lines results format of
    schemas/results-format.md."""
    with open(os.path.join(folder, "manifest.json")) as f:
        manifest = json.load(f)
    files = [e for e in manifest["files"] if e["format"] == "bin"]
    sections = []
    lines = []
    for s, entry in enumerate(files):
        doc = read_json_vectors(os.path.join(folder, entry["path"][:-4] + ".json"))
        sections.append({"file": entry["path"], "sha256": entry["sha256"], "op": entry["op"],
                         "src": entry["src"], "dst": entry["dst"], "count": entry["count"]})
        file_fault = fault_of(entry) if fault_of else fault
        for i, v in enumerate(doc["vectors"]):
            out_word, flags = v["out"], v["flags"]
            if file_fault:
                out_word, flags = file_fault(v, out_word, flags)
            line = {"s": s, "i": i, "flags": flags}
            if flags != "unsupported":
                line["out"] = out_word
            lines.append(json.dumps(line, separators=(",", ":")))
    header = {"format": "ptovec-results-json", "version": 1, "tool_version": "vendor-harness 1.0",
              "device": "python-vendor", "sections": sections}
    with open(out, "w") as f:
        f.write(json.dumps(header) + "\n")
        for line in lines:
            f.write(line + "\n")
    return header, lines


def vendor_results_bin(folder, out):
    """The same perfect harness, writing the binary results format of results-format.md."""
    with open(os.path.join(folder, "manifest.json")) as f:
        manifest = json.load(f)
    files = [e for e in manifest["files"] if e["format"] == "bin"]
    sections = []
    data = b""
    for entry in files:
        doc = read_json_vectors(os.path.join(folder, entry["path"][:-4] + ".json"))
        bits = 4 * (len(doc["vectors"][0]["out"]) - 2)  # hex digits of the destination's width
        dst_bytes = 1 if bits <= 8 else 2 if bits <= 16 else 4 if bits <= 32 else 8
        sections.append({"file": entry["path"], "sha256": entry["sha256"], "op": entry["op"],
                         "src": entry["src"], "dst": entry["dst"], "count": entry["count"],
                         "record_size": 4 + dst_bytes + 1})
        for i, v in enumerate(doc["vectors"]):
            data += struct.pack("<I", i & 0xFFFFFFFF)
            data += int(v["out"], 16).to_bytes(dst_bytes, "little")
            data += bytes([int(v["flags"], 16)])
    header = {"format": "ptovec-results-bin", "version": 1, "tool_version": "vendor-harness 1.0",
              "device": "python-vendor", "sections": sections}
    text = json.dumps(header).encode()
    data_offset = (32 + len(text) + 7) // 8 * 8
    text += b" " * (data_offset - 32 - len(text))
    total = sum(s["count"] for s in sections)
    fixed = b"PTOVEC\0R" + struct.pack("<HHIQQ", 1, 0, len(text), total, data_offset)
    with open(out, "wb") as f:
        f.write(fixed + text + data)
    return header


class GateBase(ClassScratch):
    @classmethod
    def setup_class(cls):
        super().setup_class()
        cls.vectors = os.path.join(cls.tmp, "vectors")
        generate(cls.vectors, "--op", "tquant", "--src", "fp32", "--dst", "s8", "--samples", 50,
                 "--format", "both")
        cls.other = os.path.join(cls.tmp, "other")
        generate(cls.other, "--op", "qparam", "--samples", 40, "--format", "both")

    def assert_usage_error(self, r, *fragments):
        assert r.returncode == 2, (r.stdout + r.stderr)
        lines = r.stderr.strip().split("\n")
        assert len(lines) == 1, r.stderr
        assert lines[0].startswith("ptovec: error: "), r.stderr
        for fragment in fragments:
            assert fragment in lines[0]
