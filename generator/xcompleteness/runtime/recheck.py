"""Per-target re-reads for destructive mutations declared with ``recheck: {each-target: OP}``.

Why: where no snapshot exists there is no listing whose evidence could authorise a destructive
call, so the vocabulary lets a mutation name a single-read (``kind: resource``) operation to run
for every target instead. The MCP server proceeds only when every target was read, exists and was
read completely: a missing target, a read that failed, or a read whose declared field-omission map
says a field was FORBIDDEN or SOURCE_FAILED refuses the whole call before the mutation reaches
the API. Every target is read (bounded by :data:`MAX_RECHECK_TARGETS`) so the refusal names all
failing ids, not just the first.

Target ids: the single read's path parameter (exactly one, e.g. ``/items/{id}``) names them; the
mutation supplies them as a parameter of the same name (one target) or as a body array named
``ids`` or the parameter's plural (``{id}`` -> ``ids``). Anything else cannot be re-checked and is
refused. Standard library only (plus the sibling ``expressions`` and ``plain``).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from .contract import Contract
from .expressions import MISSING, ExpressionError, ResponseView, parse_expression
from .plain import plain

__all__ = [
    "INCOMPLETE_OMISSIONS",
    "OMISSION_REASONS",
    "MAX_RECHECK_TARGETS",
    "RecheckFailure",
    "field_gaps",
    "read_failure",
    "recheck_targets",
    "target_param",
]

MAX_RECHECK_TARGETS = 200
"""Above this many targets no re-read starts (one API call each); the call is refused, whole."""

OMISSION_REASONS = {"FORBIDDEN": "VISIBILITY_RESTRICTED", "SOURCE_FAILED": "SOURCE_UNAVAILABLE"}
"""The standard reason code a single read reports for each incomplete field omission: the
credential may not read the field (a visibility limit) / the source holding it did not answer."""

INCOMPLETE_OMISSIONS = frozenset(OMISSION_REASONS)
"""Field omissions that make a read incomplete: the caller cannot see all of the target.
NOT_REQUESTED and NOT_PRESENT describe the request or the object, not a gap in the answer."""

_PATH_PARAM = re.compile(r"\{([^{}/]+)\}")


@dataclass(frozen=True)
class RecheckFailure:
    """One target that did not pass: its id, a stable code and the evidence for it."""

    id: str
    code: str  # TARGET_NOT_FOUND | TARGET_INCOMPLETE | TARGET_READ_FAILED
    detail: str

    def to_dict(self) -> dict[str, str]:
        return {"id": self.id, "code": self.code, "detail": self.detail}


def target_param(read_contract: Contract) -> str | None:
    """The single read's one path parameter (the target id), or None when it has not exactly one."""
    names = _PATH_PARAM.findall(read_contract.path or "")
    return names[0] if len(names) == 1 else None


def recheck_targets(
    param: str,
    args: Mapping[str, Any],
    *,
    params: Sequence[str],
    body: Sequence[str],
) -> tuple[list[str] | None, str | None]:
    """The target ids named by a mutation's arguments and the body field that held them.

    Returns ``(None, None)`` when the mutation names no targets the documented way.
    """
    if param in params and args.get(param) is not None:
        return [str(args[param])], None
    for field in ("ids", f"{param}s"):
        if field in body and isinstance(args.get(field), list):
            return [str(t) for t in args[field]], field
    return None, None


def read_failure(
    target: str,
    read: Callable[[], Any],
    omitted_fields: str | None,
) -> RecheckFailure | None:
    """Run one single read; ``None`` when the target exists and was read completely."""
    try:
        response = read()
    except Exception as exc:  # noqa: BLE001 -- every failure is a refusal, never a pass
        status = getattr(exc, "status", None)
        if status in (404, 410):
            return RecheckFailure(target, "TARGET_NOT_FOUND", f"HTTP {status}")
        what = f"HTTP {status}" if isinstance(status, int) else type(exc).__name__
        return RecheckFailure(target, "TARGET_READ_FAILED", what)
    gaps = _incomplete_fields(plain(response), omitted_fields)
    if gaps is None:
        return RecheckFailure(target, "TARGET_INCOMPLETE", "the field-omission map is unreadable")
    if gaps:
        return RecheckFailure(target, "TARGET_INCOMPLETE", "omitted: " + ", ".join(gaps)[:300])
    return None


def _incomplete_fields(body: Any, expr: str | None) -> list[str] | None:
    """``field=REASON`` for every FORBIDDEN/SOURCE_FAILED omission; None if the map is malformed."""
    gaps = field_gaps(body, expr)
    return None if gaps is None else sorted(f"{k}={v}" for k, v in gaps.items())


def field_gaps(body: Any, expr: str | None) -> dict[str, str] | None:
    """{field: FORBIDDEN|SOURCE_FAILED} from a read's declared omission map; None if malformed.

    ``body`` is the plain (JSON) response body; ``expr`` the contract's ``omitted_fields``.
    """
    if not expr:
        return {}
    try:
        parsed = parse_expression(expr)
    except ExpressionError:
        return None
    if parsed.source != "response.body":
        return None  # the typed read keeps only the body: a map elsewhere is unseen (fail closed)
    found = parsed.evaluate(ResponseView(200, {}, body))
    if found is MISSING or found is None:
        return {}  # no map: nothing was omitted
    if not isinstance(found, Mapping):
        return None
    return {str(k): str(v) for k, v in found.items() if str(v) in INCOMPLETE_OMISSIONS}
