"""A stand-in for a simulation behind ptovec.device.launch, for test_stream_scoreboard.py:

  launched_device.py nv        the child prints a simulator's chatter to stdout, then answers
                               every case 0xff with NV (TCVT to E8M0 of a negative or NaN input)
  launched_device.py no-start  the child fails before it opens the FIFOs (exit 3)
"""
import os
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent.parent / "python"))
from ptovec.device import AnswerBoard, Channel, launch, parse_case  # noqa: E402


def child(mode):
    print("simulator: elaborating", flush=True)  # must not reach ptovec's stdout
    if mode == "no-start":
        print("simulator: cannot elaborate the design", file=sys.stderr)
        return 3
    channel = Channel.from_environment()
    board = AnswerBoard(channel)
    channel.hello("launched stand-in")
    while True:
        lines = channel.poll()
        if lines is None:
            break
        for line in lines:
            case = board.case_of(parse_case(line))
            board.expect(case)
            board.observe(0xFF, 0x01)
        channel.flush()
        if not lines:
            channel.wait()
    channel.close()
    return 0


def main():
    if sys.argv[1:2] == ["--child"]:
        return child(sys.argv[2])
    return launch(lambda env: subprocess.run(
        [sys.executable, __file__, "--child", sys.argv[1]], env={**os.environ, **env}).returncode)


if __name__ == "__main__":
    sys.exit(main())
