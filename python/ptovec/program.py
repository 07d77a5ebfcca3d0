"""The ``ptovec`` program the package carries: ``executable()`` finds it and ``generate``
runs ``ptovec generate`` with it, so the files are the command line's byte for byte (its option
checks, interrupt handling and atomic writes are the CLI's own). Re-exported by the package."""
import os
import shutil
import subprocess
from pathlib import Path
from typing import Optional, Sequence, Union

__all__ = ["executable", "generate"]


def executable() -> str:
    """The path of the ``ptovec`` program: the one the installed package carries
    (ptovec/bin/ptovec), else the environment's PTOVEC, else ``ptovec`` on PATH. Raises
    FileNotFoundError when there is none."""
    carried = Path(__file__).resolve().parent / "bin" / "ptovec"
    program = (str(carried) if carried.is_file() else os.environ.get("PTOVEC")
               or shutil.which("ptovec"))
    if not program:
        raise FileNotFoundError("no ptovec program: the package carries none (a source tree's "
                                "python/ptovec) and neither PTOVEC nor PATH gives one")
    return program


def generate(out: Union[str, os.PathLike], *, suite: Optional[str] = None,
             op: Optional[str] = None, src: Optional[str] = None, dst: Optional[str] = None,
             rmode: Optional[Union[str, Sequence[str]]] = None, sat: Optional[str] = None,
             format: str = "bin", samples: Optional[int] = None, seed: Optional[int] = None,
             threads: Optional[int] = None, shard: Optional[str] = None,
             edition: Optional[str] = None, quiet: bool = True) -> Path:
    """Writes vector files and manifest.json into the folder ``out``, as ``ptovec generate``
    does with the same options (it runs that program, ``executable()``), so the files are the
    command line's byte for byte, whatever ``threads``.

    ``suite``: "default" or "smoke" (without ``op``: the whole default suite); ``op``, ``src``,
    ``dst``: only this op and types; ``rmode``: mode names ("RNE", a list, "RNE,RTZ" or "all");
    ``sat``: "off", "on" or "both"; ``format``: "bin", "json" or "both"; ``samples``: sampled
    input tuples per sampled pair (default 100000); ``seed``: sampling seed (default 1);
    ``threads``: worker threads (default: all cores); ``shard``: "K/N" (written into its own
    folder, see ``ptovec generate --help``); ``edition``: "0.58.3" (the default) or "2026-09" (its
    files and manifest say so); ``quiet``: no progress on stderr.

    Returns ``out`` as a Path. Raises ValueError with ptovec's one error line (without the
    "ptovec: error: " prefix) for a bad option or value (exit status 2), RuntimeError with it
    for any other failure, FileNotFoundError when there is no ptovec program."""
    args = [executable(), "generate", "--out", os.fspath(out), "--format", format]
    if not isinstance(rmode, (str, type(None))):
        rmode = ",".join(rmode)
    for option, value in (("--suite", suite), ("--op", op), ("--src", src), ("--dst", dst),
                          ("--rmode", rmode), ("--sat", sat), ("--samples", samples),
                          ("--seed", seed), ("--threads", threads), ("--shard", shard),
                          ("--edition", edition)):
        if value is not None:
            args += [option, str(value)]
    if quiet:
        args.append("--quiet")
    with subprocess.Popen(args, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                          text=True) as program:
        try:
            _, stderr = program.communicate()
        except BaseException:
            # KeyboardInterrupt and the like: SIGTERM lets ptovec remove its partial files (as on
            # SIGINT), where subprocess's default would kill it.
            program.terminate()
            program.wait()
            raise
    if program.returncode != 0:
        lines = [line for line in stderr.splitlines() if line.startswith("ptovec: error: ")]
        message = (lines[-1][len("ptovec: error: "):] if lines else stderr.strip()
                   or f"ptovec generate exited with status {program.returncode}")
        raise (ValueError if program.returncode == 2 else RuntimeError)(message)
    return Path(out)
