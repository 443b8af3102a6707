"""``NAME/server.py``: what a service imports — one ``Service`` holding every operation's helpers.

The behaviour (cursor/snapshot/evidence tokens, typed errors mapped to 400/409/410) lives once in
``_runtime/service.py`` on top of ``_runtime/tokens.py``; this emitter writes only the
declaration-specific wiring: which operation, which query parameters are paging parameters (left
out of the query binding), where the cursor is sent (a query parameter or a property of the
JSON request body, whose other properties are then bound as filters), cursor and evidence
lifetimes, the cursor contract (what invalidates a
cursor, the size parameter, the declared ordering, frozen or live snapshots), the listing a
mutation's evidence comes from and the warnings that void it.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import PurePosixPath
from typing import Any

from xcompleteness.emit._escape import py_str
from xcompleteness.emit._render import Renderer
from xcompleteness.ir import OperationIR, SpecIR
from xcompleteness.runtime.contract import PaginationRequest

__all__ = ["DEFAULT_CURSOR_TTL", "Helper", "emit", "helpers"]

DEFAULT_CURSOR_TTL = 900


@dataclass(frozen=True)
class Helper:
    """One attribute of ``Service``: ``attr = Class(signer, <args as Python source>)``."""

    attr: str
    cls: str
    args: str
    comment: str


def _seconds(value: Any, default: float | None) -> str:
    if isinstance(value, (int, float)) and not isinstance(value, bool) and value > 0:
        return repr(value)
    return repr(default)


def _tuple(values: Any) -> str:
    items = [py_str(str(v)) for v in values or ()]
    return "(" + ", ".join(items) + ("," if len(items) == 1 else "") + ")"


def _listing(op: OperationIR) -> Helper:
    pagination = op.contract.pagination
    request = pagination.request if pagination else PaginationRequest()
    # Paging names change between pages of one listing, so they are left out of the query
    # binding; the ones declared in the JSON request body ($request.body#/NAME) are the body's.
    body = sorted(request.body_names)
    paging = [v for v in request.to_dict().values() if v and v not in body]
    cursor = pagination.cursor if pagination else None
    evidence = op.contract.evidence
    evidence_ttl = (
        _seconds(evidence.ttl_seconds, 600) if evidence is not None and evidence.mint else "None"
    )
    cursor_ttl = cursor.ttl_seconds if cursor is not None else None
    args = (
        f"operation={py_str(op.operation_id)}, paging_params={_tuple(paging)}, "
        f"cursor_ttl_seconds={_seconds(cursor_ttl, DEFAULT_CURSOR_TTL)}, "
        f"evidence_ttl_seconds={evidence_ttl}"
    )
    if request.cursor:
        args += f", cursor_param={py_str(request.cursor)}"
    if body:
        args += f", body_params={_tuple(body)}"
    if pagination is not None and cursor is not None:
        # The cursor contract is enforced by the token helper, not only documented.
        size = request.size
        ordering = pagination.ordering
        snapshot = cursor.snapshot
        args += (
            f", invalidated_by={_tuple(cursor.invalidated_by)}"
            f", size_param={py_str(str(size)) if size else 'None'}"
            f", ordering={py_str(str(ordering)) if ordering else 'None'}"
            f", snapshot_kind={py_str(str(snapshot)) if snapshot else 'None'}"
        )
    return Helper(op.py_name, "ListingTokens", args, f"{op.method.upper()} {op.path}")


def _mutation(op: OperationIR) -> Helper | None:
    mutation = op.contract.mutation
    source = op.contract.evidence_from
    if mutation is None or not source:
        return None
    args = (
        f"operation={py_str(op.operation_id)}, from_operation={py_str(str(source))}, "
        f"void_on_warnings={_tuple(mutation.void_on_warnings)}, store=self.store"
    )
    return Helper(op.py_name, "MutationEvidence", args, f"{op.method.upper()} {op.path}")


def helpers(spec: SpecIR) -> list[Helper]:
    out: list[Helper] = []
    for op in spec.operations:
        helper = _listing(op) if op.is_listing else _mutation(op) if op.is_mutation else None
        if helper is not None:
            out.append(helper)
    return out


def emit(spec: SpecIR, renderer: Renderer) -> dict[PurePosixPath, str]:
    text = renderer.render("package/server.py.jinja", spec=spec, helpers=helpers(spec))
    return {PurePosixPath("server.py"): text}
