"""What the list-likeness scan reports: a :class:`Finding` per list-like operation (with
its :class:`Signal` list), an :class:`Excluded` per operation left out on purpose, and the tables of
signal kinds the heuristic weighs."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any

from xcompleteness.detect._pagination_imports import Imported
from xcompleteness.detect._size_param import SizeParam

__all__ = [
    "BOOL_KINDS",
    "Excluded",
    "FLAG_KINDS",
    "Finding",
    "PAGING_KINDS",
    "STRONG_KINDS",
    "STYLES",
    "Signal",
    "body_expr",
]


STYLES = ("cursor", "link-header", "next-url", "offset", "page", "none", "unknown")
PAGING_KINDS = frozenset(
    {
        "has_more",
        "next_link",
        "next_token",
        "total_pages",
        "link_header",
        "incomplete_results",
        "truncated",
        "shards",
        "timed_out",
        "remaining",
    }
)
# Signals that make an operation list-like on their own; the others (a Link header, a total, a
# truncated flag) also appear on single resources (GitHub's gists carry ``truncated``).
STRONG_KINDS = frozenset(
    {"has_more", "next_link", "next_token", "incomplete_results", "shards", "remaining"}
)
FLAG_KINDS = frozenset({"has_more", "incomplete_results", "truncated", "next_token", "next_link"})
BOOL_KINDS = frozenset({"has_more", "incomplete_results", "truncated", "timed_out"})


@dataclass(frozen=True)
class Signal:
    """A native completeness signal: what it is, how to read it at run time, where it is shown."""

    kind: str
    name: str
    expression: str
    pointer: str

    def to_json(self) -> dict[str, str]:
        return asdict(self)


@dataclass(frozen=True)
class Finding:
    """One list-like operation (declared or not) and everything audit could infer about it."""

    method: str
    path: str
    pointer: str
    operation_id: str | None
    kind: str
    why: tuple[str, ...]
    style: str
    request: dict[str, str] = field(default_factory=dict)
    items: str | None = None
    items_pointer: str | None = None
    id: str | None = None
    signals: tuple[Signal, ...] = ()
    status: str | None = None
    declared: bool = False
    item_fields: tuple[str, ...] = ()
    imported: Imported | None = None
    """Pagination read from another tool's extension (``x-ms-pageable``...), if any."""
    items_doubt: str | None = None
    """Why the items location may not be an array (an example shows an object there...)."""
    id_alternatives: tuple[str, ...] = ()
    """Other item fields ranked as high as ``id`` (the draft asks which one)."""
    cursor_end: str | None = None
    """How the last page shows the next token: ``absent``, ``empty`` or ``either``."""
    caps: tuple[tuple[int, str, str], ...] = ()
    """Documented caps on the listing's reach: (N, where, sentence)."""
    style_doubt: str | None = None
    """Why the drafted pagination style needs a person (said only in prose, a page number whose
    start the spec states both ways, a cursor sent in the request body)."""
    first_page: int = 1
    """For style page: the number of the first page (0 when the page parameter says pages are
    numbered from 0: ``minimum: 0``, ``default: 0``, "zero-based")."""
    first_page_unsaid: bool = False
    """For style page: nothing in the spec says where page numbers start (``style_doubt`` says
    so; ``x-completeness-defaults.drafts.first-page`` may answer it for the whole API)."""
    body_next: str | None = None
    """For a cursor sent in the request body (``request.cursor`` is ``$request.body#/NAME``): the
    response expression that feeds it."""
    kind_doubt: str | None = None
    """Why the drafted kind may be another (a collection whose prose says "search"...)."""
    kind_other: str | None = None
    """The kind ``kind_doubt`` suggests instead (``search``, ``collection``, ``aggregate``)."""
    total_doubt: str | None = None
    """Why the drafted ``response.total`` may be another field: the body holds several total-like
    fields and nothing says which counts every item (the draft asks, naming them)."""
    total_bound: str | None = None
    """Why the drafted ``response.total`` may not be exact: its description says it is accurate
    only up to a bound (Stripe search's "only accurate up to 10,000"); a cursor, link-header or
    next-url draft asks before the walk compares with it."""
    listing_doubt: str | None = None
    """Why the operation may not be a listing at all: no response schema shows an array, only its
    name, prose or parameters say it lists (the draft asks, never states it)."""
    link_doubt: str | None = None
    """For a walk by page or offset: the response also declares a ``Link`` header that nothing
    describes (no description, no example), so whether it links the pages is unsaid (the draft
    pages by the parameter and asks). For a next-url walk: the operation also takes a token
    parameter and only the type of the body's bare ``next`` shows a URL, so whether the walk
    follows it or sends it back as the token is unsaid (the draft follows it and asks)."""

    size_param: SizeParam | None = None
    """For style none with a size parameter: what the spec says of it (its maximum, default,
    description), from which audit drafts the cap of the one answer (``max-page-size``)."""

    def signal(self, *kinds: str) -> Signal | None:
        """The first signal of one of ``kinds`` (in the order given)."""
        for kind in kinds:
            for s in self.signals:
                if s.kind == kind:
                    return s
        return None

    def to_json(self) -> dict[str, Any]:
        return {
            "method": self.method,
            "path": self.path,
            "pointer": self.pointer,
            "operation_id": self.operation_id,
            "kind": self.kind,
            "why": list(self.why),
            "style": self.style,
            "request": dict(self.request),
            "items": self.items,
            "items_pointer": self.items_pointer,
            "id": self.id,
            "signals": [s.to_json() for s in self.signals],
            "status": self.status,
            "declared": self.declared,
            "imported": self.imported.to_json() if self.imported else None,
            "items_doubt": self.items_doubt,
            "id_alternatives": list(self.id_alternatives),
            "cursor_end": self.cursor_end,
            "caps": [{"limit": n, "where": w, "text": t} for n, w, t in self.caps],
            "style_doubt": self.style_doubt,
            "first_page": self.first_page,
            "first_page_unsaid": self.first_page_unsaid,
            "kind_doubt": self.kind_doubt,
            "kind_other": self.kind_other,
            "listing_doubt": self.listing_doubt,
            "total_doubt": self.total_doubt,
            "link_doubt": self.link_doubt,
        }


@dataclass(frozen=True)
class Excluded:
    """An operation the heuristic leaves out on purpose, and why (reported, never drafted).

    ``source`` is ``declared`` (its ``x-completeness`` says ``kind: none`` with a ``why``),
    ``stream`` (its success response is a stream: Kubernetes ``watch``, server-sent events),
    ``file`` (its success body is one string: an export or a download) or, set by audit,
    ``shared`` (one operation reached through several paths: not declarable).
    """

    method: str
    path: str
    pointer: str
    operation_id: str | None
    source: str
    why: str

    def to_json(self) -> dict[str, Any]:
        return asdict(self)


def body_expr(pointer: str) -> str:
    return f"$response.body#{pointer}"
