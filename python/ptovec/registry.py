"""The op registry as ``ptovec list --json`` describes it (ops, their slots, legal pairs and
controls; the types and their widths), and the JSON header of a vector file of given cases built
from it (pure Python; no compiled module needed).

An installed package carries the registry as ``ptovec/registry.json`` (written when the package
is built, by the ``ptovec`` program it carries: ``{"tool_version", "ops": ptovec list --json,
"types": ptovec list --types --json, "editions": {"2026-09": {"ops", "types"}}}``, the top level
being the default edition 0.58.3's), so nothing here starts a process; from a source tree's
``python/`` (no registry.json) the same answers come from running ``ptovec list [--edition E]``
once per program and edition.

Every function takes ``edition`` (keyword): "0.58.3" (the default, ``files.DEFAULT_EDITION``)
or "2026-09" (``files.EDITIONS``); its ops, pairs and types are that edition's, and a header
built for 2026-09 carries ``"edition": "2026-09"`` as ptovec's files of that edition do.

    registry()                          the whole registry of an edition (cached)
    pair_listing(op, src, dst, group)   one op's entry and the pair's line
    pair_header(op, src, dst, ...)      the header of a JSON vector file of cases of the pair
"""
import functools
import json
import subprocess
from pathlib import Path
from typing import Dict, Optional, Sequence, Tuple

from .files import DEFAULT_EDITION, EDITIONS, VERSIONS

__all__ = ["DATA", "registry", "type_widths", "pair_listing", "pair_header"]

#: The registry an installed package carries (absent in a source tree).
DATA = Path(__file__).resolve().parent / "registry.json"


def _run(ptovec: str, *args: str) -> str:
    done = subprocess.run([ptovec, *args], capture_output=True, text=True)
    if done.returncode != 0:
        lines = [x for x in done.stderr.splitlines() if x.startswith("ptovec: error: ")]
        raise ValueError(lines[-1][len("ptovec: error: "):] if lines else
                         done.stderr.strip() or f"{ptovec} {' '.join(args)} failed")
    return done.stdout


@functools.lru_cache(maxsize=None)
def _from_program(ptovec: str, edition: str) -> dict:
    version = _run(ptovec, "--version").split()
    ed = ["--edition", edition]
    return {"tool_version": version[-1] if version else "0.0.0",
            "ops": json.loads(_run(ptovec, "list", "--json", *ed)),
            "types": json.loads(_run(ptovec, "list", "--types", "--json", *ed))}


@functools.lru_cache(maxsize=None)
def _from_data() -> dict:
    return json.loads(DATA.read_text())


def _edition(edition: Optional[str]) -> str:
    """The edition asked for (None: the default), or ValueError naming the accepted ones."""
    if edition is None:
        return DEFAULT_EDITION
    if edition not in EDITIONS:
        raise ValueError(f"edition {edition!r} is not one of {', '.join(EDITIONS)}")
    return edition


def registry(ptovec: Optional[str] = None, *, edition: Optional[str] = None) -> dict:
    """{"tool_version": "MAJOR.MINOR.PATCH", "ops": the entries of ``ptovec list --json
    --edition E``, "types": those of ``ptovec list --types --json --edition E``} for edition E
    (``edition``, default "0.58.3"): the package's registry.json when it carries one (no
    process), else asked of the program ``ptovec`` (by default ``ptovec.executable()``; once per
    program and edition). Raises FileNotFoundError when there is neither, ValueError with
    ptovec's error line when the program fails, or naming the editions for an unknown one (or
    one a registry.json written before editions lacks)."""
    ed = _edition(edition)
    if DATA.is_file():
        data = _from_data()
        if ed == DEFAULT_EDITION:
            return {k: data[k] for k in ("tool_version", "ops", "types")}
        if ed not in data.get("editions", {}):
            raise ValueError(f"{DATA} has no registry of edition {ed} (it holds "
                             f"{', '.join([DEFAULT_EDITION, *data.get('editions', {})])})")
        return {"tool_version": data["tool_version"], **data["editions"][ed]}
    from . import executable
    return _from_program(str(ptovec) if ptovec else executable(), ed)


def type_widths(ptovec: Optional[str] = None, *, edition: Optional[str] = None
                ) -> Dict[str, int]:
    """{type name: bits of one element} for every type of the edition (``registry``)."""
    return {t["name"]: t["width"] for t in registry(ptovec, edition=edition)["types"]}


def pair_listing(op: str, src: str, dst: str, group: str = "",
                 ptovec: Optional[str] = None, *, edition: Optional[str] = None
                 ) -> Tuple[dict, dict]:
    """The ``ptovec list --json --edition E`` entry of ``op`` and the line of its pair ``src`` ->
    ``dst`` (file group ``group`` of a split pair, "" for a pair kept in one file). Raises
    ValueError naming what is accepted for an unknown op or a pair or group the op does not
    have in that edition."""
    ops = registry(ptovec, edition=edition)["ops"]
    entry = next((e for e in ops if e["op"] == op), None)
    if entry is None:
        raise ValueError(f"unknown op {op!r} of edition {_edition(edition)} (accepted: "
                         f"{', '.join(e['op'] for e in ops)})")
    if "retired" in entry:  # 2026-09 lists tquant and tdequant with why they are gone
        raise ValueError(f"{op} of edition {_edition(edition)} is {entry['retired']}")
    lines = [p for p in entry["pairs"] if (p["src"], p["dst"]) == (src, dst)]
    if not lines:
        raise ValueError(f"{op} has no legal pair {src} -> {dst} (`ptovec list --op {op}` "
                         f"gives its {len(entry['pairs'])} pairs)")
    line = next((p for p in lines if p.get("group", "") == group), None)
    if line is None:
        raise ValueError(f"{op} {src} -> {dst} has no file group {group!r} (accepted: "
                         f"{', '.join(repr(p.get('group', '')) for p in lines)})")
    return entry, line


def pair_header(op: str, src: str, dst: str, *, group: str = "",
                controls: Sequence[Tuple[str, bool]] = (("RNE", False),), inputs: int = 0,
                ptovec: Optional[str] = None, edition: Optional[str] = None) -> dict:
    """The JSON header ptovec writes for a vector file of ``inputs`` inputs of the pair, each
    under every one of ``controls`` ((rmode name, sat) pairs), in order: format, version,
    tool_version, edition (2026-09 only, as ptovec writes it), op, instruction, seed_function,
    seed_source, src, dst, group (a split pair's only), slots (name, type, bits, description),
    controls, domain "selected", seed 0, inputs and count, as schemas/vectors.schema.json gives
    them. Raises ValueError as ``pair_listing``."""
    reg = registry(ptovec, edition=edition)
    entry, _ = pair_listing(op, src, dst, group, ptovec, edition=edition)
    widths = {t["name"]: t["width"] for t in reg["types"]}
    slots = []
    for s in entry["slots"]:
        kind = {"src": src, "dst": dst}.get(s["type"], s["type"])
        slots.append({"name": s["name"], "type": kind, "bits": widths[kind],
                      "description": s["description"]})
    header = {"format": "ptovec-vectors-json", "version": max(VERSIONS),
              "tool_version": reg["tool_version"]}
    if _edition(edition) != DEFAULT_EDITION:
        header["edition"] = edition
    for key in ("op", "instruction", "seed_function", "seed_source"):
        header[key] = entry[key]
    header["src"], header["dst"] = src, dst
    if group:
        header["group"] = group
    header["slots"] = slots
    header["controls"] = [{"rmode": m, "sat": s} for m, s in controls]
    header.update(domain="selected", seed=0, inputs=inputs, count=inputs * len(controls))
    return header
