"""The plan: the parts of one canonical contract the walk reads, parsed once.

:meth:`_Plan.from_contract` reads the typed runtime ``Contract`` (a canonical dict is turned
into one first: ``contract.as_contract``), whose expressions and conditions are already parsed,
and refuses one that gives the walk no way to know where the listing ends
(:class:`ContractError`). The core
(:mod:`.walk_core`) and the page readers (:mod:`.walk_pages`) read only the plan.

Standard library only: copied verbatim into generated packages.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .contract import (
    DEFAULT_ITEMS,
    Contract,
    ContractError,
    PaginationRequest,
    PaginationResponse,
    ReasonDecl,
    as_contract,
)
from .expressions import Expression, parse_expression
from .records import record
from .walk_results import MORE, NEXT_STYLES, RESULT_LIMIT_REACHED, URL_STYLES

_DEFAULT_ITEMS = parse_expression(DEFAULT_ITEMS)


@record(frozen=True)
class _Plan:
    """The parts of one canonical contract the walk reads, parsed once (by the Contract)."""

    contract: Contract
    operation_id: str
    mode: str
    style: str
    items: Expression
    req_cursor: str | None
    req_size: str | None
    req_offset: str | None
    req_page: str | None
    next: Expression | None
    next_last_item: tuple[str, ...] | None
    total: Expression | None
    pages: Expression | None
    reasons: tuple[ReasonDecl, ...]
    declared: frozenset[str]
    warning_codes: frozenset[str]
    snapshot_kind: str | None
    invalidated_by: frozenset[str] = frozenset()
    deadline_param: str | None = None
    last: Expression | None = None  # a boolean location, true on the last page (``isLast``)
    end: str | None = None  # empty-page | short-page: the end the walk infers (END_INFERRED)
    max_page_size: int | None = None
    frozen: bool = False  # the cursor contract promises one snapshot for the whole listing
    id_pointer: tuple[str, ...] | None = None
    evidence_accept: tuple[str, ...] = ()  # doubts that still mint evidence (evidence.accept)
    first_page: int = 1  # style page: the number of the first page (``first-page``)
    body_cursor: bool = False  # the cursor goes in the JSON request body (keeps its JSON type)

    @classmethod
    def from_contract(cls, contract: Contract | Mapping[str, Any]) -> _Plan:
        c = as_contract(contract)
        pag = c.pagination
        request = pag.request if pag is not None else PaginationRequest()
        response = pag.response if pag is not None else PaginationResponse()
        cursor_rules = pag.cursor if pag is not None else None
        plan = cls(
            contract=c,
            operation_id=c.operation_id or "?",
            mode=c.mode,
            style=pag.style if pag is not None else "none",
            items=c.items_expr if c.items_expr is not None else _DEFAULT_ITEMS,
            req_cursor=request.cursor,
            req_size=request.size,
            req_offset=request.offset,
            req_page=request.page,
            next=c.next_location,
            next_last_item=response.next_last_item_pointer,
            total=response.total_expr,
            pages=response.pages_expr,
            reasons=c.reasons,
            declared=c.declared_codes,
            warning_codes=c.declared_warnings,
            snapshot_kind=c.scope.snapshot if c.scope is not None else None,
            invalidated_by=frozenset(cursor_rules.invalidated_by if cursor_rules else ()),
            deadline_param=c.deadline.param if c.deadline is not None else None,
            last=response.last_expr,
            end=pag.end if pag is not None else None,
            max_page_size=pag.max_page_size if pag is not None else None,
            frozen=cursor_rules is not None and cursor_rules.snapshot == "frozen",
            id_pointer=c.id_pointer,
            evidence_accept=c.evidence.accept if c.evidence is not None else (),
            first_page=pag.first_page if pag is not None else 1,
            body_cursor="cursor" in request.body,
        )
        plan._check()
        return plan

    def _check(self) -> None:
        """Refuse a contract that gives the walk no way to know where the listing ends."""
        if self.capped and not self.max_page_size:
            raise ContractError(
                f"{self.operation_id}: style none with request.size needs max-page-size "
                "(the walk must know the size it asked for)"
            )
        if self.capped and self.decl(RESULT_LIMIT_REACHED) is None:
            raise ContractError(
                f"{self.operation_id}: style none with request.size needs "
                "RESULT_LIMIT_REACHED among the reasons (a full answer is not complete)"
            )
        if self.mode != "adapter" or self.style == "none":
            return
        more = self.decl(MORE)
        if self.end == "short-page" and not (self.req_size and self.max_page_size):
            raise ContractError(
                f"{self.operation_id}: end: short-page needs request.size and max-page-size "
                "(the walk must know the page size it asked for)"
            )
        if (more is not None and more.when is not None) or self.last is not None or self.end:
            return
        if self.style in NEXT_STYLES and self.next is None and not self.last_item:
            raise ContractError(f"{self.operation_id}: no next cursor or link location declared")
        if self.style == "offset" and self.total is None:
            raise ContractError(f"{self.operation_id}: offset style without a declared total")
        if self.style == "page" and self.total is None and self.pages is None:
            raise ContractError(f"{self.operation_id}: page style without declared pages or total")

    @property
    def capped(self) -> bool:
        """One response, capped by the size the walk sends (``style: none`` + ``request.size``):
        an answer that long reads RESULT_LIMIT_REACHED."""
        return self.style == "none" and self.req_size is not None

    @property
    def counts_total(self) -> bool:
        """An adapter cursor, link-header or next-url walk with a declared total: the items it
        reads are compared with the total when the API's end signal ends it (the continuation
        carries the count). Offset and page walks end at their total instead."""
        return self.style in NEXT_STYLES and self.total is not None and self.mode == "adapter"

    @property
    def cap(self) -> int | None:
        """The declared result cap of an adapter walk: the ``limit`` of its RESULT_LIMIT_REACHED
        (Postmark's ``count + offset <= 10000``, GitHub search's 1,000). The first ``limit``
        items are all the API serves; the walk never asks for one past them. None in native
        mode (the service reports its own cap) and for an unpaged listing (one request)."""
        decl = self.decl(RESULT_LIMIT_REACHED)
        if decl is None or self.mode != "adapter" or self.style == "none":
            return None
        limit = decl.details.get("limit")
        if isinstance(limit, bool) or not isinstance(limit, int) or limit < 1:
            return None
        return limit

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

    def decl(self, code: str) -> ReasonDecl | None:
        return self.contract.reason(code)

    def continuation_of(self, code: str) -> str:
        """The contract's answer (:meth:`Contract.continuation_of`): never worked out here."""
        return self.contract.continuation_of(code)
