"""The compare policy of a gate as status bits: what ``ptovec check --compare/--flags`` compares
(``compared_flags``), from the C API when the compiled module is there, else from the names of
ptovec._facts. ``ptovec.stream``'s scoreboard uses it and re-exports ``compared_flags``."""
from ._facts import FLAG_NAMES, POLICY_ALL, POLICY_SEPARATOR, POLICY_SOME, POLICY_WORD, STATUS_ALL

__all__ = ["compared_flags"]


def compared_flags(policy: str) -> int:
    """The status bits a compare policy compares: "word+flags" 0x1f, "word" 0, "word+flags:NV,OF"
    those bits (as ``ptovec check --compare/--flags``): the C API's ptovec_compare_policy
    (``ptovec._core.compare_policy``), or without the compiled module the same grammar read
    here from ptovec._facts (a test of the package compares the two). Raises ValueError naming
    the accepted policies."""
    try:
        from . import _core
    except ImportError:
        return _policy_flags(policy)
    return _core.compare_policy(policy)


def _policy_flags(policy: str) -> int:
    """compared_flags without the compiled module: the names of ptovec._facts ("" is
    POLICY_ALL, as for ptovec_compare_policy)."""
    if policy in (POLICY_ALL, ""):
        return STATUS_ALL
    if policy == POLICY_WORD:
        return 0
    if policy.startswith(POLICY_SOME):
        mask = 0
        for name in policy[len(POLICY_SOME):].split(POLICY_SEPARATOR):
            if name.strip().upper() not in FLAG_NAMES:
                raise ValueError(f"unknown status bit {name!r} in policy {policy!r} (accepted: "
                                 f"{', '.join(FLAG_NAMES)})")
            mask |= 1 << FLAG_NAMES.index(name.strip().upper())
        return mask
    raise ValueError(f"unknown compare policy {policy!r} (accepted: {POLICY_ALL}, {POLICY_WORD}, "
                     f"{POLICY_SOME}NV,OF, ...)")
