"""``python -m ptovec ARGS`` (and the ``ptovec`` command a pip install puts on PATH): runs the
ptovec program the package carries with ARGS, as if it were called directly (same output, same
exit status: 0 success, 1 the checked thing failed, 2 usage or input error)."""
import os
import sys


def main() -> None:
    """Replaces this process by the carried ptovec program with this process's arguments; exits
    with status 2 and one line when there is no program."""
    from . import executable

    try:
        program = executable()
    except FileNotFoundError as e:
        print(f"ptovec: error: {e}", file=sys.stderr)
        sys.exit(2)
    sys.stdout.flush()
    os.execv(program, [program] + sys.argv[1:])


if __name__ == "__main__":
    main()
