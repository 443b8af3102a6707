"""The code tables of the x-completeness registry: the one copy the generator and runtime use.

``spec_ext/codes.json`` is the normative registry (DESIGN.md section 3.4); this module holds the
few facts code needs from it (each reason's origin and default continuation, each warning's
origin, the continuation kinds, the error codes' statuses) as plain literals, because the runtime
is copied into generated packages and cannot read ``spec_ext/``. ``tests/runtime/test_codes.py``
keeps the two equal, so a change to one without the other fails.

A reason's *default* continuation is what a result carries when nothing more specific applies. A
walk the client stops itself (page, item or deadline limit) that holds a position returns
``next_cursor`` to resume from whatever the code's default: ``CLIENT_DEADLINE_EXCEEDED`` falls back
to its default ``retry_with_deadline`` only when no page was read yet (docs/client.md).
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Final

__all__ = [
    "CLIENT_CODES",
    "CLIENT_WARNING_CODES",
    "CONTINUATION_KINDS",
    "ERROR_STATUS",
    "LISTING_KINDS",
    "NOT_A_LISTING",
    "REASON_CODES",
    "STANDARD_CONTINUATIONS",
    "STANDARD_ORIGINS",
    "WARNING_ORIGINS",
]

#: Reason code -> (origin, default continuation kind), in registry order.
REASON_CODES: Final[Mapping[str, tuple[str, str]]] = MappingProxyType(
    {
        "MORE_PAGES_AVAILABLE": ("server", "next_cursor"),
        "RESULT_LIMIT_REACHED": ("server", "narrow_query"),
        "TIME_BUDGET_EXCEEDED": ("server", "retry_with_deadline"),
        "SOURCE_UNAVAILABLE": ("server", "retry_after"),
        "VISIBILITY_RESTRICTED": ("server", "none"),
        "RATE_LIMITED": ("server", "retry_after"),
        "CURSOR_EXPIRED": ("server", "restart"),
        "SNAPSHOT_CHANGED": ("server", "restart"),
        "CLIENT_PAGE_LIMIT": ("client", "next_cursor"),
        "CLIENT_ITEM_LIMIT": ("client", "next_cursor"),
        "CLIENT_DEADLINE_EXCEEDED": ("client", "retry_with_deadline"),
        "CONTRACT_VIOLATION": ("client", "none"),
        "HTTP_ERROR": ("client", "next_cursor"),
        "DUPLICATE_ITEMS": ("client", "restart"),
        "DUPLICATES_UNCHECKED": ("client", "narrow_query"),
        "CLIENT_ANSWER_LIMIT": ("client", "next_cursor"),
    }
)
STANDARD_CONTINUATIONS: Final[Mapping[str, str]] = MappingProxyType(
    {code: cont for code, (_, cont) in REASON_CODES.items()}
)
"""Reason code -> default continuation kind."""
STANDARD_ORIGINS: Final[Mapping[str, str]] = MappingProxyType(
    {code: origin for code, (origin, _) in REASON_CODES.items()}
)
"""Reason code -> origin (``server`` or ``client``)."""
CLIENT_CODES: Final = frozenset(c for c, o in STANDARD_ORIGINS.items() if o == "client")
"""Reason codes the client adds itself; always allowed on a client-side result."""

#: Warning code -> origin.
WARNING_ORIGINS: Final[Mapping[str, str]] = MappingProxyType(
    {
        "STALE_INDEX": "server",
        "PARTIAL_FIELD_SET": "server",
        "DEFAULT_SCOPE_APPLIED": "server",
        "ITEM_SCHEMA_MISMATCH": "client",
        "END_INFERRED": "client",
        "ITEMS_SEEN_TWICE": "client",
        "EVIDENCE_WITHHELD": "client",
        "DUPLICATE_CHECK_STOPPED": "client",
    }
)
CLIENT_WARNING_CODES: Final = frozenset(c for c, o in WARNING_ORIGINS.items() if o == "client")
"""Warning codes the client adds itself."""

CONTINUATION_KINDS: Final = (
    "next_cursor",
    "retry_after",
    "narrow_query",
    "retry_with_deadline",
    "restart",
    "none",
)
"""Every continuation kind, in registry order."""

#: Error body code -> HTTP status.
ERROR_STATUS: Final[Mapping[str, int]] = MappingProxyType(
    {"CURSOR_EXPIRED": 410, "CURSOR_INVALID": 400, "EVIDENCE_REJECTED": 409}
)

LISTING_KINDS: Final = frozenset({"collection", "search", "aggregate"})
"""Declaration kinds that list items (walked page by page); the others are single calls."""
NOT_A_LISTING: Final = "none"
"""``kind: none`` (with ``why``): a recorded "this is not a listing"; nothing is generated."""
