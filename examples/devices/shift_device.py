#!/usr/bin/env python3
"""An example device under test in Python: MatrixShiftS32ToS16 (seed 000 lines 93-106), the
`shift` op, speaking the line protocol of schemas/dut-protocol.md (version 1) on stdin/stdout.

    ptovec run --dut-cmd "python3 examples/devices/shift_device.py" --op shift

It shows that a simulator in any language can be gated: read the hello, answer it, then answer
every case line in order; flush before reading more. Other ops answer "unsupported".
"""
import os
import sys


def shift_s32_to_s16(value, shift):
    """ASR of an S32 word by 1..16, clamped to S16 with OF|NX (0x14); no flags otherwise."""
    signed = value - (1 << 32) if value & 0x80000000 else value
    shifted = signed >> shift  # Python's >> on a negative int is arithmetic
    if shifted < -32768:
        return 0x8000, 0x14
    if shifted > 32767:
        return 0x7FFF, 0x14
    return shifted & 0xFFFF, 0x00


def answer(line):
    fields = line.split()
    index = fields[0]
    if len(fields) != 8 or fields[1:4] != ["shift", "s32", "s16"]:
        return f"{index} unsupported"
    value, shift = int(fields[6], 16), int(fields[7], 16)
    if not 1 <= shift <= 16:
        return f"{index} error shift amount {fields[7]} is outside 1..16"
    word, flags = shift_s32_to_s16(value, shift)
    return f"{index} 0x{word:04x} 0x{flags:02x}"


def main():
    # Read whatever has arrived (os.read returns as soon as some bytes are there), answer every
    # complete line, write the answers, then block for more: answers are never held back.
    pending = b""
    hello_done = False
    while True:
        chunk = os.read(0, 1 << 20)
        if not chunk:
            if pending:
                print("shift_device.py: input ends inside a line", file=sys.stderr)
                return 2
            return 0
        lines = (pending + chunk).split(b"\n")
        pending = lines.pop()
        out = []
        for raw in lines:
            line = raw.decode("ascii")
            if not hello_done:
                if line.split() != ["ptovec-dut", "1"]:
                    print(f"shift_device.py: expected 'ptovec-dut 1', got {line!r}",
                          file=sys.stderr)
                    return 2
                out.append("ptovec-dut 1 python-shift-example")
                hello_done = True
            else:
                out.append(answer(line))
        if out:
            data = ("\n".join(out) + "\n").encode("ascii")
            while data:
                data = data[os.write(1, data):]


if __name__ == "__main__":
    sys.exit(main())
