"""Recorded pages cut into walks by the paging chain (issue 19 §5).

A recording may hold several walks of one listing (two queries, one query read twice, two walks
interleaved) and a walk may start with a non-empty position (Twitter's ``cursor=-1``, a body
``{"cursor": 0}``, ``after=0``). Where a walk starts is read from the chain, never from what a
first page looks like: a recorded request **continues** a walk only when the position it sends
equals what the last response of that walk handed out:

* ``cursor``: the value at ``response.next`` (a token or a number; a number in the response equals
  the same number in a JSON request body, or its decimal text in a query);
* ``next-url`` / ``link-header``: the request's path and query are those of the handed-out URL;
* ``offset``: the offset sent before plus that page's item count (or the size it asked for);
* ``page``: the page number sent before plus one (first-page when none was sent).

Anything else starts a walk: a request with no position, a start token, a position no recorded
page handed out (the recording skipped a page). Values are compared by canonical value only,
never as substrings; nothing here prints one.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any
from urllib.parse import parse_qsl, urljoin, urlsplit

from xcompleteness.diagnostics import pointer_join
from xcompleteness.document import pointer_tokens
from xcompleteness.load import RecordedPage
from xcompleteness.runtime.expressions import MISSING, resolve_pointer

__all__ = [
    "MISSING",
    "WalkRoles",
    "carried",
    "recorded_walks",
    "same_value",
    "scalar_leaves",
    "sent_at",
    "value_at",
    "walk_starts",
]


BODY = "$response.body#"
REQUEST_BODY = "$request.body#"
_LINK = re.compile(r"""<([^>]*)>\s*;[^,]*\brel\s*=\s*"?next"?""", re.IGNORECASE)


@dataclass(frozen=True)
class WalkRoles:
    """What the chain reads: the paging style, where a request sends its position (a query
    parameter name or ``$request.body#/NAME``; None for a next URL), where a response hands
    out the next one, the page-size parameter, the items location and first-page."""

    style: str
    position: str | None = None
    next: str | None = None
    size: str | None = None
    items: str | None = None
    first_page: int = 1

    @classmethod
    def of_declaration(cls, decl: Any, position: str | None = None) -> WalkRoles | None:
        """From an ``x-completeness`` mapping (a draft); ``position`` overrides where the
        cursor is sent (the field a recording showed carrying it)."""
        pagination = decl.get("pagination") if isinstance(decl, dict) else None
        if not isinstance(pagination, dict):
            return None
        request = pagination.get("request") if isinstance(pagination.get("request"), dict) else {}
        response = pagination.get("response")
        response = response if isinstance(response, dict) else {}
        first = pagination.get("first-page")
        return cls._make(
            str(pagination.get("style")),
            {r: request.get(r) for r in ("cursor", "offset", "page", "size")},
            response.get("next"),
            decl.get("items"),
            first if isinstance(first, int) else 1,
            position,
        )

    @classmethod
    def of_contract(cls, contract: Any) -> WalkRoles | None:
        """From a checked contract (``verify --recorded``)."""
        pagination = getattr(contract, "pagination", None)
        if pagination is None:
            return None
        req = pagination.request
        names = {
            r: (f"{REQUEST_BODY}/{getattr(req, r)}" if r in req.body else getattr(req, r))
            for r in ("cursor", "offset", "page", "size")
            if getattr(req, r)
        }
        return cls._make(
            str(pagination.style),
            names,
            pagination.response.next,
            contract.items,
            pagination.first_page,
            None,
        )

    @classmethod
    def _make(
        cls,
        style: str,
        request: dict[str, Any],
        nxt: Any,
        items: Any,
        first_page: int,
        position: str | None,
    ) -> WalkRoles | None:
        role = {"cursor": "cursor", "offset": "offset", "page": "page"}.get(style)
        if style not in ("cursor", "offset", "page", "next-url", "link-header"):
            return None
        where = position or (request.get(role) if role else None)
        if role and not isinstance(where, str):
            return None  # a cursor nobody sends (a last-item cursor drafted elsewhere)
        if style == "cursor" and not isinstance(nxt, str):
            return None
        size = request.get("size")
        return cls(
            style,
            where if role else None,
            nxt if isinstance(nxt, str) else None,
            size if isinstance(size, str) else None,
            items if isinstance(items, str) else None,
            first_page,
        )


def value_at(body: Any, expr: Any) -> Any:
    """The value at ``$response.body#/pointer`` (MISSING when absent)."""
    if not isinstance(expr, str) or not expr.startswith(BODY):
        return MISSING
    return _pointer(body, expr[len(BODY) :])


def _pointer(value: Any, pointer: str) -> Any:
    return resolve_pointer(value, pointer_tokens(pointer) or ())


def sent_at(page: RecordedPage, where: str) -> tuple[Any, bool]:
    """(the value a recorded request sent at ``where``, whether it is query text); MISSING
    when it sent none."""
    if where.startswith(REQUEST_BODY):
        return _pointer(page.request_body, where[len(REQUEST_BODY) :]), False
    return page.query.get(where, MISSING), True


def _number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def same_value(handed: Any, sent: Any, in_query: bool) -> bool:
    """A handed-out value equals a sent one by canonical value: a string as itself; a JSON
    number as the same number in a JSON body, or as its decimal text in a query."""
    if handed is MISSING or handed is None or sent is MISSING or sent is None:
        return False
    if isinstance(handed, str):
        return isinstance(sent, str) and sent == handed
    if not _number(handed):
        return False
    if in_query:
        return isinstance(sent, str) and sent == _decimal(handed)
    return _number(sent) and sent == handed


def _decimal(number: Any) -> str:
    if isinstance(number, float) and number.is_integer():
        return str(int(number))
    return json.dumps(number)


def carried(page: RecordedPage, token: Any) -> list[str]:
    """Where a recorded request sent ``token`` (by canonical value): ``$request.body#/NAME``
    body locations, then ``?name`` query parameters."""
    leaves = scalar_leaves(page.request_body)
    body = [REQUEST_BODY + at for at, v in leaves if same_value(token, v, False)]
    return body + [f"?{k}" for k, v in page.query.items() if same_value(token, v, True)]


def scalar_leaves(value: Any, at: str = "", depth: int = 0) -> list[tuple[str, Any]]:
    """(pointer, value) of every string or number under ``value`` (objects only, 5 deep)."""
    out: list[tuple[str, Any]] = []
    if depth > 4 or not isinstance(value, dict):
        return out
    for k, v in value.items():
        here = pointer_join(at, k)
        if isinstance(v, str) or _number(v):
            out.append((here, v))
        elif isinstance(v, dict):
            out.extend(scalar_leaves(v, here, depth + 1))
    return out


def handed_out(page: RecordedPage, roles: WalkRoles) -> list[Any]:
    """The positions a recorded response hands the next request (empty: it ends a walk)."""
    if roles.style in ("offset", "page"):
        sent, _ = sent_at(page, roles.position or "")
        start = _int(sent)
        if roles.style == "page":
            return [(roles.first_page if start is None else start) + 1]
        start = start or 0
        out = []
        items = value_at(page.body, roles.items or BODY)
        if isinstance(items, list):
            out.append(start + len(items))
        size = _int(sent_at(page, roles.size)[0]) if roles.size else None
        if size:
            out.append(start + size)
        return out
    if roles.next == "$response.link.next" or roles.style == "link-header":
        found = _LINK.search(page.headers.get("link", ""))
        return [found.group(1)] if found else []
    if isinstance(roles.next, str) and roles.next.startswith("$response.header."):
        value = page.headers.get(roles.next[len("$response.header.") :].lower())
        return [value] if value else []
    value = value_at(page.body, roles.next)
    return [value] if value not in (MISSING, None, "") else []


def _int(value: Any) -> int | None:
    if isinstance(value, str) and re.fullmatch(r"-?\d{1,18}", value):
        return int(value)
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def continues(before: RecordedPage, after: RecordedPage, roles: WalkRoles) -> bool:
    """``after`` sends exactly the position ``before`` handed out."""
    handed = handed_out(before, roles)
    if not handed:
        return False
    if roles.position is None:  # a next URL: the request is that URL
        base = f"{before.origin or 'http://recorded.invalid'}{before.path or '/'}"
        for url in handed:
            if not isinstance(url, str):
                continue
            parts = urlsplit(urljoin(base, url))
            if parts.path == after.path and dict(parse_qsl(parts.query, True)) == after.query:
                return True
        return False
    if after.path != before.path:
        return False
    sent, in_query = sent_at(after, roles.position)
    return any(same_value(h, sent, in_query) for h in handed)


def _filters(page: RecordedPage, roles: WalkRoles) -> Any:
    """What a request asked for apart from its position and size (to tell two open walks
    apart when both handed out the same position)."""
    skip = {roles.position, roles.size}
    query = {k: v for k, v in page.query.items() if k not in skip}
    body = page.request_body if isinstance(page.request_body, dict) else {}
    kept = {k: v for k, v in body.items() if f"{REQUEST_BODY}/{k}" not in skip}
    return json.dumps([page.path, query, kept], sort_keys=True, default=str)


def recorded_walks(pages: list[RecordedPage], roles: WalkRoles | None) -> list[list[RecordedPage]]:
    """The recorded pages cut into walks by the chain (see the module docstring); pages with no
    request (a folder) are one walk, as are pages when no chain is known."""
    if roles is None or any(p.method is None for p in pages):
        return [pages] if pages else []
    walks: list[list[RecordedPage]] = []
    for page in pages:
        open_walks = [w for w in reversed(walks) if continues(w[-1], page, roles)]
        same = [w for w in open_walks if _filters(w[-1], roles) == _filters(page, roles)]
        chosen = (same or open_walks or [None])[0]
        if chosen is None:
            walks.append([page])
        else:
            chosen.append(page)
    return walks


def walk_starts(pages: list[RecordedPage], roles: WalkRoles | None) -> list[RecordedPage]:
    """The recorded pages that start a walk (the first page of each)."""
    return [w[0] for w in recorded_walks(pages, roles)]
