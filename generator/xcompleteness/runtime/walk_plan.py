"""The plan: the parts of one canonical contract the walk reads, parsed once.

:meth:`_Plan.from_contract` reads the contract (the canonical dict of docs/internals.md, or a
runtime ``Contract``), parses its expressions and conditions with :mod:`.expressions`, and refuses
one that gives the walk no way to know where the listing ends (:class:`ContractError`). The core
(:mod:`.walk_core`) and the page readers (:mod:`.walk_pages`) read only the plan.

Standard library only: copied verbatim into generated packages.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from .codes import STANDARD_CONTINUATIONS
from .contract import ContractError
from .expressions import parse_condition, parse_expression, parse_pointer
from .walk_results import MORE, NEXT_STYLES, URL_STYLES


@dataclass(frozen=True)
class _ReasonDecl:
    code: str
    when: Any  # a parsed Condition or None
    details: Mapping[str, Any]
    continuation: str
    origin: str


def _get(obj: Any, key: str, default: Any = None) -> Any:
    """Read ``key`` from a canonical dict or from a runtime ``Contract`` dataclass."""
    if isinstance(obj, Mapping):
        return obj.get(key, default)
    return getattr(obj, key, default)


def _expr(text: Any, what: str) -> Any:
    if text is None:
        return None
    try:
        return parse_expression(text)
    except Exception as exc:  # ExpressionError; the contract was validated by `check`
        raise ContractError(f"{what}: {exc}") from exc


def _pointer(text: Any) -> tuple[str, ...] | None:
    if text is None:
        return None
    try:
        return parse_pointer(str(text))
    except Exception as exc:
        raise ContractError(f"last-item pointer: {exc}") from exc


@dataclass(frozen=True)
class _Plan:
    """The parts of one canonical contract the walk reads, parsed once."""

    operation_id: str
    mode: str
    style: str
    items: Any
    req_cursor: str | None
    req_size: str | None
    req_offset: str | None
    req_page: str | None
    next: Any
    next_last_item: Any
    total: Any
    pages: Any
    reasons: tuple[_ReasonDecl, ...]
    declared: frozenset[str]
    warning_codes: frozenset[str]
    snapshot_kind: str | None
    invalidated_by: frozenset[str] = frozenset()
    deadline_param: str | None = None

    @classmethod
    def from_contract(cls, contract: Any) -> _Plan:
        pag = _get(contract, "pagination") or {}
        style = _get(pag, "style") or "none"
        req = _get(pag, "request") or {}
        resp = _get(pag, "response") or {}
        mode = _get(contract, "mode") or "native"
        reasons = []
        for raw in _get(contract, "reasons") or ():
            code = _get(raw, "code")
            when = _get(raw, "when")
            if when is not None and not hasattr(when, "holds"):
                try:
                    when = parse_condition(when)
                except Exception as exc:
                    raise ContractError(f"reason {code}: {exc}") from exc
            reasons.append(
                _ReasonDecl(
                    code=code,
                    when=when,
                    details=dict(_get(raw, "details") or {}),
                    continuation=_get(raw, "continuation")
                    or STANDARD_CONTINUATIONS.get(code, "none"),
                    origin=_get(raw, "origin") or "server",
                )
            )
        next_text = _get(resp, "next")
        last_item = _get(resp, "next_last_item")
        if mode == "native" and style == "cursor" and next_text is None and last_item is None:
            next_text = "$response.body#/next_cursor"
        scope = _get(contract, "scope") or {}
        cursor_rules = _get(pag, "cursor") or {}
        deadline = _get(contract, "deadline") or {}
        plan = cls(
            operation_id=str(_get(contract, "operation_id") or "?"),
            mode=mode,
            style=style,
            items=_expr(_get(contract, "items") or "$response.body#/items", "items"),
            req_cursor=_get(req, "cursor"),
            req_size=_get(req, "size"),
            req_offset=_get(req, "offset"),
            req_page=_get(req, "page"),
            next=_expr(next_text, "pagination.response.next"),
            next_last_item=_pointer(last_item),
            total=_expr(_get(resp, "total"), "pagination.response.total"),
            pages=_expr(_get(resp, "pages"), "pagination.response.pages"),
            reasons=tuple(reasons),
            declared=frozenset(r.code for r in reasons),
            warning_codes=frozenset(_get(contract, "warnings") or ()),
            snapshot_kind=_get(scope, "snapshot"),
            invalidated_by=frozenset(_get(cursor_rules, "invalidated_by") or ()),
            deadline_param=_get(deadline, "param"),
        )
        plan._check()
        return plan

    def _check(self) -> None:
        """Refuse a contract that gives the walk no way to know where the listing ends."""
        if self.mode != "adapter" or self.style == "none":
            return
        more = self.decl(MORE)
        if more is not None and more.when is not None:
            return
        if self.style in NEXT_STYLES and self.next is None and not self.last_item:
            raise ContractError(f"{self.operation_id}: no next cursor or link location declared")
        if self.style == "offset" and self.total is None:
            raise ContractError(f"{self.operation_id}: offset style without a declared total")
        if self.style == "page" and self.total is None and self.pages is None:
            raise ContractError(f"{self.operation_id}: page style without declared pages or total")

    @property
    def last_item(self) -> bool:
        return self.next_last_item is not None

    @property
    def follows_url(self) -> bool:
        """The next page is a URL to follow (``Link: rel=next`` or a body ``nextLink``)."""
        return self.style in URL_STYLES and self.req_cursor is None and not self.last_item

    @property
    def paging_params(self) -> frozenset[str]:
        """Parameters the walk itself sets or that change between pages of one listing."""
        names = (self.req_cursor, self.req_size, self.req_offset, self.req_page)
        return frozenset(n for n in (*names, self.deadline_param) if n)

    def invalidating(self, params: Mapping[str, Any]) -> dict[str, Any]:
        """The parameters whose change the declaration says invalidates a cursor.

        ``filter`` and ``ordering`` cover every parameter but the paging ones (the walk cannot
        tell a sort parameter from a filter by its name); ``page-size`` covers the size
        parameter. ``authorization`` is the server's to check (the client never stores
        credentials in a continuation).
        """
        out: dict[str, Any] = {}
        if self.invalidated_by & {"filter", "ordering"}:
            out.update({k: v for k, v in params.items() if k not in self.paging_params})
        if "page-size" in self.invalidated_by and self.req_size and self.req_size in params:
            out[self.req_size] = params[self.req_size]
        return out

    def decl(self, code: str) -> _ReasonDecl | None:
        return next((r for r in self.reasons if r.code == code), None)

    def continuation_of(self, code: str) -> str:
        decl = self.decl(code)
        return decl.continuation if decl else STANDARD_CONTINUATIONS.get(code, "none")
